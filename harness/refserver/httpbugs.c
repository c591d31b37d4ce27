/*
 * httpbugs.c - the Streamable HTTP violation switches: lookup by name and
 * the --list-http-bugs lines (what must catch each is in catches.c).
 *
 * The HTTP counterpart of inject.c: every switch of httpserve.h with its
 * level and words, looked up by name. The checks whose finding proves a
 * switch caught and the scenarios that exercise the rule it breaks are in
 * catches.c, with the handler switches'; the test http/library runs just
 * those scenarios and holds every entry.
 */
#include <stdio.h>
#include <string.h>

#include "core/version.h"
#include "refserver/httpserve.h"
#include "refserver/inject.h"

/* Bytes of one --list-http-bugs line. */
#define RS_HTTP_BUG_LINE_MAX 1024

static const struct {
    const char *id, *level, *desc;
} g_bugs[] = {
#define RS__XX(name, id, level, desc) {id, level, desc},
    RS_HTTP_BUG_MAP(RS__XX)
#undef RS__XX
};

rs_http_bug_t mc_refserver_http_bug(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < sizeof(g_bugs) / sizeof(g_bugs[0]); i++)
        if (strcmp(name, g_bugs[i].id) == 0)
            return (rs_http_bug_t)(i + 1);
    return RS_HTTP_BUG_NONE;
}

void mc_refserver_http_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx)
{
    size_t i;
    char line[RS_HTTP_BUG_LINE_MAX];

    for (i = 0; i < sizeof(g_bugs) / sizeof(g_bugs[0]); i++) {
        if (strncmp(g_bugs[i].desc, MC_VN_2026_07_28 ":", strlen(MC_VN_2026_07_28) + 1) == 0) {
            snprintf(line, sizeof(line), "%s\t%s\t%s\t%s/basic/transports/streamable-http\t%s\t%s",
                     g_bugs[i].id, g_bugs[i].level, g_bugs[i].desc, MC_VN_2026_07_28,
                     mc__rs_switch_catchers(g_bugs[i].id),
                     mc__rs_switch_where(g_bugs[i].id));
            fn(ctx, line);
            continue;
        }
        if (strncmp(g_bugs[i].desc, MC_VN_2024_11_05, strlen(MC_VN_2024_11_05)) == 0) {
            /* The HTTP+SSE transport, on the page of the version it belongs to. */
            snprintf(line, sizeof(line), "%s\t%s\t%s\t%s/basic/transports#security-warning\t%s\t%s",
                     g_bugs[i].id, g_bugs[i].level, g_bugs[i].desc, MC_VN_2024_11_05,
                     mc__rs_switch_catchers(g_bugs[i].id), mc__rs_switch_where(g_bugs[i].id));
            fn(ctx, line);
            continue;
        }
        snprintf(line, sizeof(line), "%s\t%s\t%s\t%s/basic/transports#%s\t%s\t%s", g_bugs[i].id,
                 g_bugs[i].level, g_bugs[i].desc, MC_VERSION_BASELINE,
                 strstr(g_bugs[i].id, "resume") != NULL || strstr(g_bugs[i].id, "event-id")
                     ? "resumability-and-redelivery"
                     : "streamable-http",
                 mc__rs_switch_catchers(g_bugs[i].id),
                 mc__rs_switch_where(g_bugs[i].id));
        fn(ctx, line);
    }
}
