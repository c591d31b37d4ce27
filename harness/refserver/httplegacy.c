/*
 * httplegacy.c - the HTTP+SSE transport of 2024-11-05 beside Streamable
 * HTTP, on the same endpoint (the 2025-03-26 transports page lets a server
 * keep the old transport for older clients, and allows its POST endpoint to
 * be the new MCP endpoint): a GET without Mcp-Session-Id and
 * MCP-Protocol-Version opens a session's SSE stream whose first event is
 * `endpoint` with the URI "/mcp?sessionId=ID"; a POST there is handed to
 * that session's handler and answered 202, and everything the handler emits
 * goes out as `message` events on the stream.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/clock.h"
#include "core/limits.h"
#include "refserver/httpint.h"

static enum MHD_Result plain(struct MHD_Connection *c, unsigned status, const char *body)
{
    struct MHD_Response *r;
    enum MHD_Result rc;

    r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "text/plain");
    rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

enum MHD_Result mc__hs_legacy_get(hs_t *hs, struct MHD_Connection *c)
{
    hs_sess_t *se;
    hs_stream_t *s;
    char ev[160];
    int n;
    /* The switch: a message before the endpoint event. */
    static const char before[] =
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
        "\"params\":{\"level\":\"info\",\"data\":\"before the endpoint\"}}\n\n";

    pthread_mutex_lock(&hs->mu);
    se = mc__hs_sess_new(hs);
    if (se == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return plain(c, 503, "too many sessions");
    }
    se->legacy = 1;
    se->last_ms = mc_now_ms();
    s = mc__hs_stream_new(se, 1);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return plain(c, 500, "out of memory");
    }
    if (hs->bug == RS_HTTP_BUG_LEGACY_ENDPOINT_NOT_FIRST)
        mc__hs_append(s, before, sizeof(before) - 1);
    n = snprintf(ev, sizeof(ev), "event: endpoint\ndata: " ENDPOINT "?sessionId=%s\n\n", se->id);
    if (n > 0 && (size_t)n < sizeof(ev))
        mc__hs_append(s, ev, (size_t)n);
    pthread_mutex_unlock(&hs->mu);
    return mc__hs_answer_sse(c, s, NULL);
}

enum MHD_Result mc__hs_legacy_post(hs_t *hs, struct MHD_Connection *c, hs_req_t *rq,
                                   const char *session)
{
    hs_sess_t *se;
    int deleted;

    if (rq->too_big)
        return plain(c, 413, "the body is larger than the message size limit");
    pthread_mutex_lock(&hs->mu);
    se = mc__hs_sess_find(hs, session, &deleted);
    if (se == NULL || !se->legacy || se->rs == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return plain(c, 404, "no such session");
    }
    if (hs->bug == RS_HTTP_BUG_LEGACY_NOTIFICATION_REFUSED && rq->body != NULL &&
        strstr(rq->body, "\"method\"") != NULL && strstr(rq->body, "\"id\"") == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return plain(c, 400, "only requests are taken here");
    }
    se->last_ms = mc_now_ms();
    se->current = NULL;
    mc_refserver_handle(se->rs, rq->body ? rq->body : "", rq->len, mc_now_ms());
    pthread_mutex_unlock(&hs->mu);
    return plain(c, MHD_HTTP_ACCEPTED, "Accepted");
}

void mc__hs_legacy_emit(hs_t *hs, hs_sess_t *se, const char *line, size_t len)
{
    hs_stream_t *s;
    static const char head[] = "event: message\ndata: ";

    for (s = se->streams; s != NULL; s = s->next)
        if (s->is_get && !s->finished)
            break;
    if (s == NULL)
        return; /* the client's stream is gone: nobody to tell */
    if (mc__hs_append(s, head, sizeof(head) - 1) == 0 && mc__hs_append(s, line, len) == 0)
        mc__hs_append(s, "\n\n", 2);
    pthread_cond_broadcast(&hs->cv);
}
