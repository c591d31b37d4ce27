/*
 * sharedcache.c - the answer cache shared read-only between sessions
 * (mc_refserver_cache_new): private sessions, one per version initialize
 * negotiates, are run through every list page and fixed read, and the
 * bodies they keep are copied into the shared set that respcache.c looks up.
 * It sits above the session (server.c), which it drives like a client.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/fastimpl.h"

/* Offsets harvested per list: cursors beyond are rare enough to build. */
#define SHARED_MAX_OFFSETS 256

/* The private sessions of mc_refserver_cache_new() write nowhere. */
static void sink(void *ctx, const char *line, size_t len)
{
    (void)ctx;
    (void)line;
    (void)len;
}

/* Feeds one line to a private session. */
static int feed_line(mc_refserver_t *rs, const char *line)
{
    return mc_refserver_handle(rs, line, strlen(line), 0);
}

/* Harvests every page of list (method) at each offset a cursor can name. */
static int harvest_list(struct mc_refserver_cache *c, mc_refserver_t *rs, rs_list_t list,
                        const char *method)
{
    char line[256], cur[32];
    size_t off;

    for (off = 0; off <= SHARED_MAX_OFFSETS; off++) {
        const rs_body_t *slot;
        if (off == 0) {
            snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\"}",
                     method);
        } else {
            mc__rs_cursor_text(rs, list, off, cur);
            snprintf(line, sizeof(line),
                     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\",\"params\":{\"cursor\":"
                     "\"%s\"}}",
                     method, cur);
        }
        if (feed_line(rs, line) != MC_OK)
            return -1;
        /* Past the end the server serves the (empty) last page again. */
        slot = mc__rs_page_kept(rs, list, off);
        if (slot == NULL)
            return 0;
        if (mc__rs_shared_add(c, slot) != 0)
            return -1;
    }
    return 0;
}

/* Runs the private session of one version and harvests its bodies. */
static int harvest_version(struct mc_refserver_cache *c, const mc_refserver_opts_t *opts,
                           mc_version_id_t v, mc_errbuf_t *eb)
{
    static const struct {
        rs_list_t list;
        const char *method;
    } lists[] = {{RS_LIST_RESOURCES, "resources/list"},
                 {RS_LIST_TEMPLATES, "resources/templates/list"},
                 {RS_LIST_PROMPTS, "prompts/list"},
                 {RS_LIST_TOOLS, "tools/list"}};
    mc_refserver_t *rs = mc_refserver_new(opts, sink, NULL, eb);
    char line[512], uri[RS_MAX_URI_LEN];
    size_t i;
    int rc = 0;

    if (rs == NULL)
        return -1;
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
             "\"protocolVersion\":\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":"
             "\"cache\",\"version\":\"1\"}}}",
             mc_version_name(v));
    if (feed_line(rs, line) != MC_OK ||
        feed_line(rs, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}") != MC_OK ||
        rs->version != v)
        rc = -1;
    if (rc == 0)
        rc = mc__rs_shared_add(c, &rs->init_body);
    for (i = 0; rc == 0 && i < sizeof(lists) / sizeof(lists[0]); i++)
        rc = harvest_list(c, rs, lists[i].list, lists[i].method);
    for (i = 0; rc == 0 && i < RS_READ_CACHE_SLOTS && i < mc__rs_resources_count(rs); i++) {
        snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{"
                 "\"uri\":\"%s\"}}",
                 mc__rs_resource_uri(rs, i, uri, sizeof(uri)));
        rc = feed_line(rs, line) == MC_OK ? 0 : -1;
    }
    for (i = 0; rc == 0 && i < RS_READ_CACHE_SLOTS; i++)
        rc = mc__rs_shared_add(c, &rs->read_cache[i]);
    mc_refserver_free(rs);
    if (rc != 0)
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    return rc;
}

mc_refserver_cache_t *mc_refserver_cache_new(const mc_refserver_opts_t *opts, mc_errbuf_t *eb)
{
    mc_refserver_opts_t o;
    struct mc_refserver_cache *c;
    mc_refserver_t *probe;
    int v;

    memset(&o, 0, sizeof(o));
    if (opts != NULL)
        o = *opts;
    if (o.root != NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "an answer cache cannot be built for a --root server");
        return NULL;
    }
    o.cache = NULL;
    o.step_delay_ms = -1;
    /* The options are checked (and the switch found) by a server made with them. */
    probe = mc_refserver_new(&o, sink, NULL, eb);
    if (probe == NULL)
        return NULL;
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        mc_refserver_free(probe);
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    c->page_size = probe->page_size;
    c->extra = probe->extra;
    c->bug = probe->bug;
    mc_refserver_free(probe);
    /* Nothing is cached under a violation switch: the cache stays empty. */
    for (v = 0; c->bug == RS_BUG_NONE && v < MC_V_COUNT; v++) {
        if (mc__rs_handshake_version(v) && harvest_version(c, &o, (mc_version_id_t)v, eb) != 0) {
            mc_refserver_cache_free(c);
            return NULL;
        }
    }
    return c;
}

void mc_refserver_cache_free(mc_refserver_cache_t *cache)
{
    size_t i;

    if (cache == NULL)
        return;
    for (i = 0; i < cache->cap; i++)
        free(cache->slots[i].text);
    free(cache->slots);
    free(cache);
}
