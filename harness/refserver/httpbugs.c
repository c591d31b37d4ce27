/*
 * httpbugs.c - the Streamable HTTP violation switches: lookup by name, the
 * --list-http-bugs lines, and what must catch each switch, and where.
 *
 * The HTTP counterpart of inject.c and catches.c: for every switch of
 * httpserve.h, the
 * ids of the checks whose finding proves it caught (a FAIL or WARN; an INFO
 * for a switch of level INFO) and the scenarios that exercise the broken
 * rule, as `mcpcheck run --filter` globs. A finding of any other check does
 * not count. Read off runs of the whole library over HTTP with each switch
 * on; the test http/library runs just these scenarios and holds every entry.
 */
#include <stdio.h>
#include <string.h>

#include "core/version.h"
#include "refserver/httpserve.h"

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
                     mc__rs_http_bug_catchers((rs_http_bug_t)(i + 1)),
                     mc__rs_http_bug_where((rs_http_bug_t)(i + 1)));
            fn(ctx, line);
            continue;
        }
        snprintf(line, sizeof(line), "%s\t%s\t%s\t%s/basic/transports#%s\t%s\t%s", g_bugs[i].id,
                 g_bugs[i].level, g_bugs[i].desc, MC_VERSION_BASELINE,
                 strstr(g_bugs[i].id, "resume") != NULL || strstr(g_bugs[i].id, "event-id")
                     ? "resumability-and-redelivery"
                     : "streamable-http",
                 mc__rs_http_bug_catchers((rs_http_bug_t)(i + 1)),
                 mc__rs_http_bug_where((rs_http_bug_t)(i + 1)));
        fn(ctx, line);
    }
}

typedef struct rs_http_catch {
    rs_http_bug_t bug;
    const char *checks; /* check ids, comma-separated */
    const char *where;  /* scenario id globs, comma-separated */
} rs_http_catch_t;

static const rs_http_catch_t rs_http_catches[] = {
    {RS_HTTP_BUG_NOTIFICATION_200, "http/notification-202,transport/http/notification-202",
     "transport/get-stream,transport/notification-accepted"},
    {RS_HTTP_BUG_SESSION_OPTIONAL, "transport/http/session-required", "transport/session-required"},
    {RS_HTTP_BUG_SESSION_AFTER_DELETE, "transport/http/session-ended-404",
     "transport/session-deleted"},
    {RS_HTTP_BUG_FOREIGN_ORIGIN, "transport/http/origin-refused,transport/http/origin-validated",
     "transport/origin-foreign,transport/origin-validated"},
    {RS_HTTP_BUG_SSE_NO_DATA, "http/sse-event-has-data", "transport/get-stream"},
    {RS_HTTP_BUG_RESPONSE_WRONG_STREAM, "http/get-stream-no-response",
     "transport/resume-own-stream"},
    {RS_HTTP_BUG_SESSION_ID_INVISIBLE, "http/session-id-visible-ascii", "transport/get-stream"},
    {RS_HTTP_BUG_SSE_EVENT_ID_REUSED, "http/sse-event-id-unique", "transport/sse-event-id-unique"},
    {RS_HTTP_BUG_RESUME_OTHER_STREAM, "transport/http/resume-no-other-stream",
     "transport/resume-own-stream"},
    {RS_HTTP_BUG_HEADER_MISMATCH_ACCEPTED, "transport/http/header-body-mismatch",
     "transport/header-method-mismatch,transport/header-name-mismatch"},
    {RS_HTTP_BUG_HEADER_WRONG_ERROR, "transport/http/header-rejection-status",
     "transport/header-method-missing"},
    {RS_HTTP_BUG_PARAM_HEADER_IGNORED, "transport/http/param-header-mismatch",
     "transport/param-header-mismatch"},
    {RS_HTTP_BUG_SSE_BUFFERED, "http/sse-accel-buffering", "progress/no-token"},
    {RS_HTTP_BUG_STATELESS_SESSION_ID, "http/stateless-no-session-id", "transport/get-405"},
    {RS_HTTP_BUG_PARAM_HEADER_DUPLICATE, "http/x-mcp-header-valid", "discovery/tools-input-schema"},
    {RS_HTTP_BUG_LISTEN_ON_REQUEST_STREAM, "http/stateless-notification-related",
     "resources/listen-opt-in"},
    {RS_HTTP_BUG_META_MISSING_200, "transport/http/meta-required-400",
     "transport/meta-required-400"},
    {RS_HTTP_BUG_UNSUPPORTED_VERSION_NULL_ID, "wire/response-id",
     "transport/unsupported-version-400,transport/protocol-version-invalid"},
    {RS_HTTP_BUG_UNREADABLE_BODY_200, "transport/http/unacceptable-input-error-status",
     "transport/unreadable-body-error-status"},
};

static const rs_http_catch_t *find(rs_http_bug_t bug)
{
    size_t i;

    for (i = 0; i < sizeof(rs_http_catches) / sizeof(rs_http_catches[0]); i++)
        if (rs_http_catches[i].bug == bug)
            return &rs_http_catches[i];
    return NULL;
}

const char *mc__rs_http_bug_catchers(rs_http_bug_t bug)
{
    const rs_http_catch_t *c = find(bug);
    return c != NULL ? c->checks : "";
}

const char *mc__rs_http_bug_where(rs_http_bug_t bug)
{
    const rs_http_catch_t *c = find(bug);
    return c != NULL ? c->where : "";
}
