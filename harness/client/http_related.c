/*
 * http_related.c - which stream a message of the server may come on, in a
 * session of the initialize era (2025-03-26 to 2025-11-25,
 * basic/transports#sending-messages-to-the-server,
 * #listening-for-messages-from-the-server and #multiple-connections).
 *
 * Three rules, each judged only where a message shows it: a message the
 * server sends goes out on one stream (its key, below, seen on two streams
 * is a broadcast); the messages on a POST's SSE stream relate to that POST's
 * request; those on the GET stream relate to no request still running. What
 * a message relates to is read from the one mark the protocol gives it:
 * the progress token of a progress report names the request it is about
 * (a token the client gave two requests names neither). From 2025-11-25 the
 * SSE answer to a request opens with a priming event as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/http_internal.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

/* Bytes of a message's key: its kind, and its id or progress token and
 * value, as compact JSON. */
#define MSG_KEY_MAX 200

/* The entry of the progress token whose hash is hv, or NULL. */
static seen_id_t *token_entry(const mc_http_t *h, uint64_t hv)
{
    size_t i;

    for (i = 0; h->tokens != NULL && i < h->tokens_count; i++) {
        seen_id_t *e = &h->tokens[(h->tokens_head + i) % MC_HTTP_MAX_TRACKED_TOKENS];
        if (e->hash == hv)
            return e;
    }
    return NULL;
}

void mc__http_note_token(mc_http_t *h, const char *tok)
{
    uint64_t hv = mc_fnv1a64_str(MC_FNV1A64_INIT, tok);
    seen_id_t *e = token_entry(h, hv);

    if (e != NULL) {
        e->origin = 1; /* used twice: its reports cannot be told apart */
        return;
    }
    if (h->tokens == NULL) {
        h->tokens = calloc(MC_HTTP_MAX_TRACKED_TOKENS, sizeof(*h->tokens));
        if (h->tokens == NULL)
            return;
    }
    if (h->tokens_count == MC_HTTP_MAX_TRACKED_TOKENS) {
        h->tokens_head = (h->tokens_head + 1) % MC_HTTP_MAX_TRACKED_TOKENS;
        h->tokens_count--;
    }
    e = &h->tokens[(h->tokens_head + h->tokens_count) % MC_HTTP_MAX_TRACKED_TOKENS];
    e->hash = hv;
    e->origin = 0;
    h->tokens_count++;
}

/* The key that names one message of the server, into key: "q" and the id
 * of a request of the server's, "p" and the token and value of a progress
 * report whose token one request of the client's carried. Responses are
 * left to the rules on responses (one per request, on its own stream: the
 * client may send an id twice), and other notifications carry nothing that
 * tells one from a second with the same content. Returns 1 when o has a
 * key. */
static int message_key(const mc_http_t *h, json_object *o, char *key, size_t cap)
{
    json_object *id = mc_json_get(o, "id");
    const char *method = mc_json_get_str(o, "method");
    int n = -1;

    if (id != NULL && json_object_is_type(id, json_type_null))
        return 0; /* an error answering what could not be read: no id to tell it by */
    if (id != NULL && method != NULL) {
        n = snprintf(key, cap, "q%s", mc_json_compact(id, NULL));
    } else if (id == NULL && method != NULL && strcmp(method, "notifications/progress") == 0) {
        json_object *p = mc_json_get(o, "params");
        json_object *tok = mc_json_get(p, "progressToken"), *val = mc_json_get(p, "progress");
        const char *toks;
        const seen_id_t *e;
        if (tok == NULL || val == NULL)
            return 0;
        toks = json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN);
        e = token_entry(h, mc_fnv1a64_str(MC_FNV1A64_INIT, toks));
        if (e == NULL || e->origin != 0)
            return 0; /* a token no request or two requests carried */
        n = snprintf(key, cap, "p%s", toks);
        if (n > 0 && (size_t)n < cap)
            n += snprintf(key + n, cap - (size_t)n, "|%s",
                          json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
    }
    return n > 0 && (size_t)n < cap;
}

/* The name of the stream a message came on, for a finding. */
static const char *stream_name(const stream_t *s)
{
    return s->kind == ST_GET && s->resume_of == 0 ? "GET" : "POST";
}

/* http/message-on-one-stream: the message keyed key came on no other stream
 * of the session before. A resumption continues the stream it resumes, so
 * a message it repeats is a redelivery on that stream, not a second one. */
static void judge_one_stream(mc_http_t *h, const stream_t *s, const char *key)
{
    uint64_t hv = mc_fnv1a64_str(MC_FNV1A64_INIT, key);
    seen_id_t *e;
    size_t i;

    if (h->msgs == NULL) {
        h->msgs = calloc(MC_HTTP_MAX_TRACKED_MESSAGES, sizeof(*h->msgs));
        if (h->msgs == NULL)
            return;
    }
    for (i = 0; i < h->msgs_count; i++) {
        e = &h->msgs[(h->msgs_head + i) % MC_HTTP_MAX_TRACKED_MESSAGES];
        if (e->hash != hv)
            continue;
        if (e->origin != s->origin)
            mc__http_finding(h, "http/message-on-one-stream", 0,
                             "%s#%u carried %s %.100s, which %s#%u had carried", stream_name(s),
                             s->origin,
                             key[0] == 'q' ? "the request" : "the progress report (token|value)",
                             key + 1, e->is_get ? "GET" : "POST", e->origin);
        return;
    }
    if (h->msgs_count == MC_HTTP_MAX_TRACKED_MESSAGES) {
        h->msgs_head = (h->msgs_head + 1) % MC_HTTP_MAX_TRACKED_MESSAGES;
        h->msgs_count--;
    }
    e = &h->msgs[(h->msgs_head + h->msgs_count) % MC_HTTP_MAX_TRACKED_MESSAGES];
    e->hash = hv;
    e->origin = s->origin;
    e->is_get = s->kind == ST_GET && s->resume_of == 0;
    h->msgs_count++;
    mc__http_finding(h, "http/message-on-one-stream", 1, "each message came on one stream");
}

/* The POST stream still waiting for the response to the request whose
 * progressToken is tok (compact JSON), or NULL. */
static const stream_t *running_with_token(const mc_http_t *h, const char *tok)
{
    size_t i;

    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        const stream_t *p = h->streams[i];
        if (p != NULL && p->kind == ST_POST && p->carries_request && !p->answered && !p->done &&
            p->req_token[0] != '\0' && strcmp(p->req_token, tok) == 0)
            return p;
    }
    return NULL;
}

void mc__http_judge_placement(mc_http_t *h, stream_t *s, json_object *o)
{
    char key[MSG_KEY_MAX];
    const char *method = mc_json_get_str(o, "method");
    json_object *tok;
    const char *toks;

    if (message_key(h, o, key, sizeof(key)))
        judge_one_stream(h, s, key);
    if (method == NULL || strcmp(method, "notifications/progress") != 0 ||
        mc_json_get(o, "id") != NULL)
        return;
    tok = mc_json_get(mc_json_get(o, "params"), "progressToken");
    toks = tok != NULL ? json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN) : "(none)";
    if (s->kind == ST_GET && s->resume_of == 0) {
        const seen_id_t *e = token_entry(h, mc_fnv1a64_str(MC_FNV1A64_INIT, toks));
        const stream_t *p =
            tok != NULL && e != NULL && e->origin == 0 ? running_with_token(h, toks) : NULL;
        if (p != NULL)
            mc__http_finding(h, "http/get-stream-unrelated", 0,
                             "GET#%u carried notifications/progress for token %.40s, the token "
                             "of request %s still running on POST#%u",
                             s->num, toks, p->req_id, p->num);
        else
            mc__http_finding(h, "http/get-stream-unrelated", 1,
                             "the GET stream carried no progress of a running request");
        return;
    }
    /* A POST's own stream: its request's token, or none of another's (a
     * batch, whose requests are not kept, is not judged). */
    if (s->kind != ST_POST || s->token_unkept || s->unrelated[0] != '\0' ||
        s->req_method[0] == '\0')
        return;
    if (tok == NULL || s->req_token[0] == '\0' || strcmp(toks, s->req_token) != 0)
        snprintf(s->unrelated, sizeof(s->unrelated), "notifications/progress for token %.40s",
                 toks);
}

void mc__http_judge_related(mc_http_t *h, const stream_t *s)
{
    if (s->kind != ST_POST || !s->carries_request || s->malformed || !s->is_sse)
        return;
    /* The priming event opens the SSE answer to a request from 2025-11-25;
     * a stream that brought no event at all is not judged, nor the answer
     * to initialize, whose stream starts before a version is agreed. */
    if (s->first_event && !s->is_initialize && h->version[0] != '\0' &&
        mc_version_cmp(h->version, MC_VN_2025_11_25) >= 0)
        mc__http_finding(h, "http/sse-priming-event", s->primed,
                         "POST#%u (%s %s): the SSE answer's first event was no event id with "
                         "empty data",
                         s->num, s->req_method, s->req_id);
    /* A task's progress goes on after its request was answered
     * (basic/utilities/tasks): a tasks/ request about it may carry it. */
    if (s->req_method[0] == '\0' || strncmp(s->req_method, "tasks/", 6) == 0)
        return;
    mc__http_finding(h, "http/request-stream-related", s->unrelated[0] == '\0',
                     "POST#%u (%s %s) carried %s", s->num, s->req_method, s->req_id, s->unrelated);
}
