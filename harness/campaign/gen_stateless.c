/*
 * gen_stateless.c - what the generator makes for the stateless protocol
 * (2026-07-28) alone: subscriptions/listen filters, per-request log levels,
 * and the cancellations that close the listen streams a sequence opens.
 */
#include "campaign/gen.h"
#include "campaign/gen_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonrpc.h"

/* The change kinds a listen request may opt in to (basic/patterns/subscriptions). */
static const char *const k_kinds[] = {"toolsListChanged", "promptsListChanged",
                                      "resourcesListChanged"};

json_object *mc__gen_listen_filter(mc_gen_t *g)
{
    json_object *f = json_object_new_object(), *uris;
    size_t i, n;

    if (f == NULL)
        return NULL;
    for (i = 0; i < N_ELEMS(k_kinds); i++)
        if (mc__gen_one_in(g, 2))
            json_object_object_add(f, k_kinds[i], json_object_new_boolean(!mc__gen_one_in(g, 4)));
    if (mc__gen_one_in(g, 2)) {
        uris = json_object_new_array();
        n = 1 + mc_gen_below(g, 2);
        for (i = 0; uris != NULL && i < n; i++)
            json_object_array_add(uris, json_object_new_string(mc__gen_pick_name(g, &g->resources)));
        json_object_object_add(f, "resourceSubscriptions", uris);
    }
    return f;
}

void mc__gen_log_level(mc_gen_t *g, json_object *msg)
{
    json_object *p, *meta;

    if (!json_object_object_get_ex(msg, "params", &p)) {
        p = json_object_new_object();
        if (p == NULL || json_object_object_add(msg, "params", p) != 0) {
            json_object_put(p);
            return;
        }
    }
    if (!json_object_is_type(p, json_type_object))
        return;
    if (!json_object_object_get_ex(p, "_meta", &meta)) {
        meta = json_object_new_object();
        if (meta == NULL || json_object_object_add(p, "_meta", meta) != 0) {
            json_object_put(meta);
            return;
        }
    }
    if (json_object_is_type(meta, json_type_object))
        json_object_object_add(meta, MC_GEN_META_LOG_LEVEL,
                               json_object_new_string(mc__gen_level(g)));
}

/* True when element i of seq is a listen request with a valid id (one the
 * server can hold a stream open for) that no later notifications/cancelled
 * names. */
static int open_listen(json_object *seq, size_t i)
{
    json_object *el = json_object_array_get_idx(seq, i), *id;
    size_t k, n = json_object_array_length(seq);
    const char *m = mc_json_get_str(el, "method");

    if (m == NULL || strcmp(m, "subscriptions/listen") != 0 ||
        !json_object_object_get_ex(el, "id", &id) || !mc_jsonrpc_id_valid(id))
        return 0;
    for (k = i + 1; k < n; k++) {
        json_object *c = json_object_array_get_idx(seq, k);
        const char *cm = mc_json_get_str(c, "method");
        if (cm != NULL && strcmp(cm, "notifications/cancelled") == 0 &&
            mc_jsonrpc_id_equal(id, mc_json_get(mc_json_get(c, "params"), "requestId")))
            return 0;
    }
    return 1;
}

static size_t count_open(json_object *seq)
{
    size_t i, n = 0, len = json_object_array_length(seq);

    for (i = 0; i < len; i++)
        n += (size_t)open_listen(seq, i);
    return n;
}

/* {"jsonrpc": "2.0", "method": "notifications/cancelled", "params":
 * {"requestId": id}} (id borrowed and copied), or NULL. */
static json_object *cancel_of(json_object *id)
{
    json_object *c = json_object_new_object(), *p = json_object_new_object(), *idc = NULL;

    if (c == NULL || p == NULL || json_object_deep_copy(id, &idc, NULL) != 0) {
        json_object_put(c);
        json_object_put(p);
        return NULL;
    }
    json_object_object_add(c, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(c, "method", json_object_new_string("notifications/cancelled"));
    json_object_object_add(p, "requestId", idc);
    json_object_object_add(c, "params", p);
    return c;
}

size_t mc_gen_close_listens(json_object *seq)
{
    size_t i, len, added = 0;

    if (!json_object_is_type(seq, json_type_array))
        return 0;
    while ((len = json_object_array_length(seq)) > 0 &&
           len + count_open(seq) > MC_GEN_MAX_SEQ)
        json_object_array_del_idx(seq, len - 1, 1);
    len = json_object_array_length(seq);
    for (i = 0; i < len; i++) {
        json_object *c;
        if (!open_listen(seq, i))
            continue;
        c = cancel_of(mc_json_get(json_object_array_get_idx(seq, i), "id"));
        if (c != NULL && json_object_array_add(seq, c) == 0)
            added++;
        else
            json_object_put(c);
    }
    return added;
}
