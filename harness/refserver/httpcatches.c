/*
 * httpcatches.c - what must catch each Streamable HTTP violation switch,
 * and where.
 *
 * The HTTP counterpart of catches.c: for every switch of httpserve.h, the
 * ids of the checks whose finding proves it caught (a FAIL or WARN; an INFO
 * for a switch of level INFO) and the scenarios that exercise the broken
 * rule, as `mcpcheck run --filter` globs. A finding of any other check does
 * not count. Read off runs of the whole library over HTTP with each switch
 * on; the test http/library runs just these scenarios and holds every entry.
 */
#include <stddef.h>

#include "refserver/httpserve.h"

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
