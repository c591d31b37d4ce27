/*
 * httpemit.c - where each message a session's handler emits goes: the
 * callback the handler library writes to (mc__hs_on_emit). A legacy
 * (HTTP+SSE) session's messages go to its GET stream as message events
 * (httplegacy.c); a Streamable HTTP session's go to the stream of the
 * request they answer or report progress on, else the GET stream, else a
 * backlog, with a stateless request's own id swapped back (httpmodern.c).
 * It sits above the session and stream helpers of httpsess.c; everything
 * here runs with hs->mu held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/limits.h"
#include "refserver/httpint.h"

/* The subscriptions/listen request a notification belongs to (the id in
 * its _meta, 2026-07-28/basic/patterns/subscriptions) as compact JSON into
 * out, or "". */
static void subscription_of(json_object *o, char *out, size_t cap)
{
    json_object *p, *m, *t;

    out[0] = '\0';
    if (json_object_object_get_ex(o, "params", &p) && json_object_is_type(p, json_type_object) &&
        json_object_object_get_ex(p, "_meta", &m) && json_object_is_type(m, json_type_object) &&
        json_object_object_get_ex(m, "io.modelcontextprotocol/subscriptionId", &t))
        snprintf(out, cap, "%s", json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
}

/* The progressToken of a notifications/progress message as compact JSON
 * into out, or "" when o is none. */
static void progress_token_of(json_object *o, char *out, size_t cap)
{
    json_object *m, *p, *t;

    out[0] = '\0';
    if (json_object_object_get_ex(o, "method", &m) &&
        strcmp(json_object_get_string(m), "notifications/progress") == 0 &&
        json_object_object_get_ex(o, "params", &p) &&
        json_object_object_get_ex(p, "progressToken", &t))
        snprintf(out, cap, "%s", json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
}

/* Pushes a message of session se to stream t: for the stateless session,
 * with the client's request id put back. */
static void emit_to(hs_t *hs, hs_sess_t *se, hs_stream_t *t, const char *line, size_t len)
{
    char *own = NULL;
    size_t n = len;

    if (se->stateless)
        own = mc__hs_modern_restore(t, line, len, &n);
    if (se->stateless && hs->bug == RS_HTTP_BUG_PARAM_HEADER_DUPLICATE) {
        /* The switch: the second annotation of the tool takes the first's name. */
        static const char from[] = "\"x-mcp-header\":\"Count\"", to[] = "\"x-mcp-header\":\"Region\"";
        const char *src = own != NULL ? own : line;
        const char *at = NULL;
        size_t k;
        for (k = 0; at == NULL && k + sizeof(from) - 1 <= n; k++)
            if (memcmp(src + k, from, sizeof(from) - 1) == 0)
                at = src + k;
        if (at != NULL) {
            size_t pre = (size_t)(at - src), post = n - pre - (sizeof(from) - 1);
            char *b = malloc(n + sizeof(to));
            if (b != NULL) {
                memcpy(b, src, pre);
                memcpy(b + pre, to, sizeof(to) - 1);
                memcpy(b + pre + sizeof(to) - 1, at + sizeof(from) - 1, post);
                n = pre + sizeof(to) - 1 + post;
                free(own);
                own = b;
            }
        }
    }
    mc__hs_push_event(hs, t, own != NULL ? own : line, n);
    free(own);
}

/* Sends a message of a Streamable HTTP session on the stream it belongs to. */
static void emit_streamable(hs_sess_t *se, const char *line, size_t len)
{
    hs_t *hs = mc__hs_g;
    json_object *o, *id = NULL;
    hs_stream_t *s, *target = NULL, *get = NULL;
    int is_response = 0;
    char ids[64] = "", token[64] = "", sub[64] = "";
    const char *serving;

    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    {
        /* The emitted line is borrowed and need not end in NUL. */
        json_tokener *tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
        o = NULL;
        if (tok != NULL) {
            o = json_tokener_parse_ex(tok, line, (int)len);
            json_tokener_free(tok);
        }
    }
    if (o != NULL && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "id", &id) &&
        !json_object_object_get_ex(o, "method", NULL)) {
        is_response = 1;
        snprintf(ids, sizeof(ids), "%s", json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN));
    } else if (o != NULL && json_object_is_type(o, json_type_object)) {
        progress_token_of(o, token, sizeof(token));
        if (hs->bug != RS_HTTP_BUG_LISTEN_ON_REQUEST_STREAM || !se->stateless)
            subscription_of(o, sub, sizeof(sub));
    }
    json_object_put(o);
    for (s = se->streams; s != NULL; s = s->next)
        if (s->is_get && s->attached && !s->finished && get == NULL)
            get = s;
    if (is_response) {
        for (s = se->streams; s != NULL; s = s->next)
            if (!s->is_get && !s->answered && !s->superseded && strcmp(s->req_id, ids) == 0) {
                target = s;
                break;
            }
        if (target == NULL && se->current != NULL && !se->current->answered)
            target = se->current; /* the answer to an unreadable body or id */
        if (target != NULL && hs->bug == RS_HTTP_BUG_RESPONSE_WRONG_STREAM && get != NULL) {
            mc__hs_push_event(hs, get, line, len);
            target->answered = target->finished = 1;
            pthread_cond_broadcast(&hs->cv);
            return;
        }
        if (target != NULL) {
            int had_events = target->events > 0;
            emit_to(hs, se, target, line, len);
            if (hs->bug == RS_HTTP_BUG_SSE_AFTER_RESPONSE && !se->stateless && had_events) {
                /* The switch: one more message on an SSE answer after its response. */
                static const char extra[] =
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
                    "{\"level\":\"info\",\"logger\":\"mcpcheck-refserver\","
                    "\"data\":\"after the response\"}}";
                mc__hs_push_event(hs, target, extra, sizeof(extra) - 1);
            }
            target->answered = target->finished = 1;
        }
        return;
    }
    /* A notification or a server request: the listen stream it belongs to,
     * else (2026-07-28) the stream of the request whose work emitted it,
     * else the stream of the request whose progress it reports, else the
     * POST being handled, else the newest POST stream still open (one a
     * connection reads before one waiting to be resumed), else the GET
     * stream, else the backlog. */
    for (s = se->streams; sub[0] != '\0' && target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded && strcmp(s->req_id, sub) == 0)
            target = s;
    if (sub[0] != '\0' && target == NULL && se->stateless)
        return; /* the listen stream is gone: nobody to tell */
    serving = sub[0] == '\0' && se->stateless ? mc_refserver_serving(se->rs) : NULL;
    for (s = se->streams; serving != NULL && target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded && strcmp(s->req_id, serving) == 0)
            target = s;
    if (token[0] != '\0' && target == NULL && !se->stateless && get != NULL &&
        hs->bug == RS_HTTP_BUG_PROGRESS_ON_GET)
        target = get; /* the switch: a running request's progress on the GET stream */
    for (s = se->streams; token[0] != '\0' && target == NULL && s != NULL && !se->stateless &&
                          hs->bug == RS_HTTP_BUG_PROGRESS_OTHER_STREAM;
         s = s->next)
        if (!s->is_get && !s->answered && !s->superseded && s->token[0] != '\0' &&
            strcmp(s->token, token) != 0)
            target = s; /* the switch: the stream of another request with a token */
    for (s = se->streams; token[0] != '\0' && target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded && strcmp(s->token, token) == 0)
            target = s;
    if (target == NULL && se->current != NULL && !se->current->finished)
        target = se->current;
    for (s = se->streams; target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->finished && !s->superseded && s->attached)
            target = s;
    for (s = se->streams; target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded)
            target = s;
    if (target == NULL)
        target = get;
    if (target != NULL) {
        emit_to(hs, se, target, line, len);
        if (hs->bug == RS_HTTP_BUG_BROADCAST && !se->stateless && get != NULL && target != get)
            mc__hs_push_event(hs, get, line, len); /* the switch: the same message twice */
        return;
    }
    if (se->stateless)
        return; /* no stream of 2026-07-28 is waiting for it */
    if (se->bl_n < HS_MAX_BACKLOG) {
        char *c = malloc(len + 1);
        if (c != NULL) {
            memcpy(c, line, len);
            c[len] = '\0';
            se->backlog[se->bl_n++] = c;
        }
    }
}

void mc__hs_on_emit(void *ctx, const char *line, size_t len)
{
    hs_sess_t *se = ctx;

    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (se->legacy)
        mc__hs_legacy_emit(mc__hs_g, se, line, len);
    else
        emit_streamable(se, line, len);
}
