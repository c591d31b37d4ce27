/*
 * http_related.c - which stream a message of the server may come on, in a
 * session of the initialize era (2025-03-26 to 2025-11-25,
 * basic/transports#sending-messages-to-the-server,
 * #listening-for-messages-from-the-server and #multiple-connections), and
 * what a stateless request's SSE answer may carry (2026-07-28).
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
#include <string.h>

#include "core/hash.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"
#include "judge/http_internal.h"

/* Bytes of a message's key: its kind, and its id or progress token and
 * value, as compact JSON. */
#define MSG_KEY_MAX 200

/* The entry of the progress token whose hash is hv, or NULL. */
static mc__jseen_t *token_entry(struct mc__judge_http *jh, uint64_t hv)
{
    size_t i;

    for (i = 0; i < jh->tokens_count; i++) {
        mc__jseen_t *e = &jh->tokens[(jh->tokens_head + i) % MC_JUDGE_HTTP_MAX_TOKENS];
        if (e->hash == hv)
            return e;
    }
    return NULL;
}

void mc__jhttp_note_token(struct mc__judge_http *jh, const char *tok)
{
    uint64_t hv = mc_fnv1a64_str(MC_FNV1A64_INIT, tok);
    mc__jseen_t *e = token_entry(jh, hv);

    if (e != NULL) {
        e->origin = 1; /* used twice: its reports cannot be told apart */
        return;
    }
    if (jh->tokens_count == MC_JUDGE_HTTP_MAX_TOKENS) {
        jh->tokens_head = (jh->tokens_head + 1) % MC_JUDGE_HTTP_MAX_TOKENS;
        jh->tokens_count--;
    }
    e = &jh->tokens[(jh->tokens_head + jh->tokens_count) % MC_JUDGE_HTTP_MAX_TOKENS];
    e->hash = hv;
    e->origin = 0;
    jh->tokens_count++;
}

/* The key that names one message of the server, into key: "q" and the id
 * of a request of the server's, "p" and the token and value of a progress
 * report whose token one request of the client's carried. Responses are
 * left to the rules on responses (one per request, on its own stream: the
 * client may send an id twice), and other notifications carry nothing that
 * tells one from a second with the same content. Returns 1 when o has a
 * key. */
static int message_key(struct mc__judge_http *jh, json_object *o, char *key, size_t cap)
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
        const mc__jseen_t *e;
        if (tok == NULL || val == NULL)
            return 0;
        toks = json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN);
        e = token_entry(jh, mc_fnv1a64_str(MC_FNV1A64_INIT, toks));
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
static const char *stream_name(const mc__jstream_t *s)
{
    return s->kind == MC_STREAM_GET && s->resumes == 0 ? "GET" : "POST";
}

/* http/message-on-one-stream: the message keyed key came on no other stream
 * of the session before. A resumption continues the stream it resumes, so
 * a message it repeats is a redelivery on that stream, not a second one. */
static void judge_one_stream(mc_judge_t *j, struct mc__judge_http *jh, const mc__jstream_t *s,
                             const char *key)
{
    uint64_t hv = mc_fnv1a64_str(MC_FNV1A64_INIT, key);
    mc__jseen_t *e;
    size_t i;

    for (i = 0; i < jh->msgs_count; i++) {
        e = &jh->msgs[(jh->msgs_head + i) % MC_JUDGE_HTTP_MAX_MESSAGES];
        if (e->hash != hv)
            continue;
        if (e->origin != s->origin)
            mc__jhttp_verdict(j, "http/message-on-one-stream", 0, 0, 0,
                              "%s#%u carried %s %.100s, which %s#%u had carried", stream_name(s),
                              s->origin,
                              key[0] == 'q' ? "the request" : "the progress report (token|value)",
                              key + 1, e->is_get ? "GET" : "POST", e->origin);
        return;
    }
    if (jh->msgs_count == MC_JUDGE_HTTP_MAX_MESSAGES) {
        jh->msgs_head = (jh->msgs_head + 1) % MC_JUDGE_HTTP_MAX_MESSAGES;
        jh->msgs_count--;
    }
    e = &jh->msgs[(jh->msgs_head + jh->msgs_count) % MC_JUDGE_HTTP_MAX_MESSAGES];
    e->hash = hv;
    e->origin = s->origin;
    e->is_get = s->kind == MC_STREAM_GET && s->resumes == 0;
    jh->msgs_count++;
    mc__jhttp_verdict(j, "http/message-on-one-stream", 1, 0, 0, "%s", "");
}

/* The POST stream still waiting for the response to the request whose
 * progressToken is tok (compact JSON), or NULL. */
static const mc__jstream_t *running_with_token(const struct mc__judge_http *jh, const char *tok)
{
    size_t i;

    for (i = 0; i < MC_JUDGE_HTTP_MAX_STREAMS; i++) {
        const mc__jstream_t *p = &jh->streams[i];
        if (p->used && p->kind == MC_STREAM_POST && (p->flags & MC_RS_REQUEST) &&
            !p->answered && p->req_token[0] != '\0' && strcmp(p->req_token, tok) == 0)
            return p;
    }
    return NULL;
}

void mc__jhttp_placement(mc_judge_t *j, mc__jstream_t *s, json_object *o)
{
    struct mc__judge_http *jh = j->http;
    char key[MSG_KEY_MAX];
    const char *method = mc_json_get_str(o, "method");
    json_object *tok;
    const char *toks;

    if (message_key(jh, o, key, sizeof(key)))
        judge_one_stream(j, jh, s, key);
    if (method == NULL || strcmp(method, "notifications/progress") != 0 ||
        mc_json_get(o, "id") != NULL)
        return;
    tok = mc_json_get(mc_json_get(o, "params"), "progressToken");
    toks = tok != NULL ? json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN) : "(none)";
    if (s->kind == MC_STREAM_GET && s->resumes == 0) {
        const mc__jseen_t *e = token_entry(jh, mc_fnv1a64_str(MC_FNV1A64_INIT, toks));
        const mc__jstream_t *p =
            tok != NULL && e != NULL && e->origin == 0 ? running_with_token(jh, toks) : NULL;
        if (p != NULL)
            mc__jhttp_verdict(j, "http/get-stream-unrelated", 0, 0, 0,
                              "GET#%u carried notifications/progress for token %.40s, the token "
                              "of request %s still running on POST#%u",
                              s->num, toks, p->req_id, p->num);
        else
            mc__jhttp_verdict(j, "http/get-stream-unrelated", 1, 0, 0, "%s", "");
        return;
    }
    /* A POST's own stream: its request's token, or none of another's (a
     * batch, whose requests are not kept, is not judged). */
    if (s->kind != MC_STREAM_POST || (s->flags & MC_RS_TOKEN_UNKEPT) || s->unrelated[0] != '\0' ||
        s->req_method[0] == '\0')
        return;
    if (tok == NULL || s->req_token[0] == '\0' || strcmp(toks, s->req_token) != 0)
        snprintf(s->unrelated, sizeof(s->unrelated), "notifications/progress for token %.40s",
                 toks);
}

void mc__jhttp_related_end(mc_judge_t *j, const mc__jstream_t *s, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;

    if (r->facts.stream != MC_STREAM_POST || (fl & MC_RS_DELETE) || !(fl & MC_RS_REQUEST) ||
        (fl & MC_RS_MALFORMED) || !(fl & MC_RS_SSE))
        return;
    /* The priming event opens the SSE answer to a request from 2025-11-25;
     * a stream that brought no event at all is not judged, nor the answer
     * to initialize, whose stream starts before a version is agreed. */
    if ((fl & MC_RS_EVENTS) && !(fl & MC_RS_INITIALIZE) && r->facts.st->version[0] != '\0' &&
        mc_version_cmp(r->facts.st->version, MC_VN_2025_11_25) >= 0)
        mc__jhttp_verdict(j, "http/sse-priming-event", (fl & MC_RS_PRIMED) != 0, 0, 0,
                          "POST#%u (%s %s): the SSE answer's first event was no event id with "
                          "empty data",
                          r->facts.num, s->req_method, s->req_id);
    /* A task's progress goes on after its request was answered
     * (basic/utilities/tasks): a tasks/ request about it may carry it. */
    if (s->req_method[0] == '\0' || strncmp(s->req_method, "tasks/", 6) == 0)
        return;
    mc__jhttp_verdict(j, "http/request-stream-related", s->unrelated[0] == '\0', 0, 0,
                      "POST#%u (%s %s) carried %s", r->facts.num, s->req_method, s->req_id,
                      s->unrelated);
}

void mc__jhttp_note_unrelated(mc__jstream_t *s, json_object *o)
{
    const char *m = mc_json_get_str(o, "method");
    json_object *tok;

    if (m == NULL || json_object_object_get_ex(o, "id", NULL))
        return;
    if (strcmp(m, "notifications/progress") == 0) {
        tok = mc_json_get(mc_json_get(o, "params"), "progressToken");
        if (s->flags & MC_RS_TOKEN_UNKEPT)
            return; /* the request's token was too long to keep: not judged */
        if (tok == NULL || s->req_token[0] == '\0' ||
            strcmp(json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN), s->req_token) != 0)
            snprintf(s->unrelated, sizeof(s->unrelated), "notifications/progress for token %.40s",
                     tok != NULL ? json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN)
                                 : "(none)");
    } else if ((strstr(m, "/list_changed") != NULL ||
                strcmp(m, "notifications/resources/updated") == 0) &&
               strcmp(s->req_method, "subscriptions/listen") != 0) {
        snprintf(s->unrelated, sizeof(s->unrelated), "%.60s", m);
    }
}
