/*
 * httprun_resume.c - the "resume" form of an http step (scenarios/README.md,
 * "http"; docs/http.md): POST a message, read some of its SSE events, drop
 * the connection, and resume with Last-Event-ID; the replay is judged
 * (nothing of another stream) or, with "response": true, whether the
 * dropped request still got its response (see httprun_int.h).
 */
#include "scenario/httprun_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "client/http_limits.h"
#include "client/sse.h"
#include "core/hash.h"
#include "core/json.h"
#include "core/jsonrpc.h"

/* --- "resume" in an http step ------------------------------------------------ */

/* Events of one exchange kept for the resumption judgement. */
#define RESUME_MAX_EVENTS 256

typedef struct ev_item {
    char id[MC_SSE_MAX_ID + 1]; /* "" when the event had no id */
    uint64_t data_hash;         /* 0 when it carried no message */
    char resp_id[64];           /* the id a JSON-RPC response answers, "" for other messages */
} ev_item_t;

typedef struct ev_list {
    size_t n;
    size_t limit;          /* stop after this many events (0: read them all) */
    int overflow;
    char last_id[MC_SSE_MAX_ID + 1]; /* the stream's last event id */
    long retry_ms;         /* the stream's last retry field, -1 none */
    ev_item_t e[RESUME_MAX_EVENTS];
} ev_list_t;

static uint64_t fnv64(const char *p, size_t n)
{
    uint64_t v = mc_fnv1a64(MC_FNV1A64_INIT, p, n);

    return v ? v : 1;
}

static int collect_event(void *ctx, const mc_sse_event_t *ev)
{
    ev_list_t *l = ctx;
    ev_item_t *it;

    if (!ev->has_id && ev->data_len == 0)
        return 0;
    if (l->n == RESUME_MAX_EVENTS) {
        l->overflow = 1;
        return 0;
    }
    it = &l->e[l->n++];
    memset(it, 0, sizeof(*it));
    if (ev->has_id)
        snprintf(it->id, sizeof(it->id), "%s", ev->id);
    if (ev->data_len > 0) {
        json_object *o = json_tokener_parse(ev->data), *id;
        it->data_hash = fnv64(ev->data, ev->data_len);
        if (o != NULL && json_object_is_type(o, json_type_object) &&
            !json_object_object_get_ex(o, "method", NULL) &&
            json_object_object_get_ex(o, "id", &id))
            mc_id_text(id, it->resp_id, sizeof(it->resp_id));
        json_object_put(o);
    }
    return l->limit > 0 && l->n >= l->limit;
}

/* Reads the SSE events of a raw body into l (the first l->limit of them,
 * when it is set: what a client that stopped reading there received). */
static void parse_events(const char *body, size_t len, ev_list_t *l)
{
    mc_sse_t p;

    mc_sse_init(&p, 0, 0);
    if (body != NULL)
        mc_sse_feed(&p, body, len, collect_event, l);
    snprintf(l->last_id, sizeof(l->last_id), "%s", p.id);
    l->retry_ms = p.retry_ms;
    mc_sse_free(&p);
}

static int has_response(const ev_list_t *l, const char *id)
{
    size_t i;

    if (id[0] == '\0')
        return 0; /* an id too long to keep answers nothing */
    for (i = 0; i < l->n; i++)
        if (strcmp(l->e[i].resp_id, id) == 0)
            return 1;
    return 0;
}

/* Runs one exchange, notes it in the transcript and parses its events. */
static int resume_exchange(mc_httprun_t *hr, const char *method, const char *const *hl,
                           const char *body, int within, int events, mc_scenario_result_t *res,
                           uint64_t seq, int64_t t_ms, const char *what, mc_http_exchange_t *x,
                           ev_list_t *l)
{
    int rc;

    mc__httprun_tx_note(res, seq, t_ms, 1, "(http step: %s %s)", method, what);
    if (body != NULL)
        mc_sresult_tx(res, seq, t_ms, 1, body, strlen(body));
    rc = mc_http_exchange(hr->url, method, hl, body, body ? strlen(body) : 0, within, events, x);
    mc__httprun_tx_note(res, seq, t_ms, 0, "(http step answer: %ld %s%s)", x->status,
            x->ctype[0] ? x->ctype : "(no type)", x->error);
    if (x->body_len > 0)
        mc_sresult_tx(res, seq, t_ms, 0, x->body, x->body_len);
    memset(l, 0, sizeof(*l));
    l->retry_ms = -1;
    l->limit = events > 0 ? (size_t)events : 0;
    if (strncasecmp(x->ctype, "text/event-stream", 17) == 0)
        parse_events(x->body, x->body_len, l);
    return rc;
}

/* The replay r of stream a after its last event holds nothing of stream b
 * (the request b_id's): out says whether it did and what it held. */
static void judge_replay(const ev_list_t *a, const ev_list_t *b, const ev_list_t *r,
                         const char *a_id, const char *b_id, mc_httprun_outcome_t *out)
{
    size_t i, k;

    for (i = 0; i < r->n && out->pass; i++) {
        const ev_item_t *e = &r->e[i];
        for (k = 0; k < b->n && out->pass; k++) {
            const ev_item_t *o = &b->e[k];
            if ((e->id[0] && strcmp(e->id, o->id) == 0) ||
                (e->data_hash != 0 && e->data_hash == o->data_hash)) {
                out->pass = 0;
                snprintf(out->message, sizeof(out->message),
                         "the replay after event %.60s carried event %.60s, a message of the "
                         "other stream (request %.40s)",
                         a->last_id, e->id[0] ? e->id : "(no id)", b_id);
            }
        }
        if (out->pass && b_id[0] != '\0' && strcmp(e->resp_id, b_id) == 0) {
            out->pass = 0;
            snprintf(out->message, sizeof(out->message),
                     "the replay after event %.60s carried the response to %.40s, the request "
                     "of another stream",
                     a->last_id, b_id);
        }
    }
    if (out->pass)
        snprintf(out->message, sizeof(out->message),
                 "the replay after event %.60s held %zu events of its own stream%s", a->last_id,
                 r->n, has_response(r, a_id) ? ", the response included" : "");
}

/*
 * The "response" form of a resume step (basic/transports#sending-messages-
 * to-the-server: "Disconnection SHOULD NOT be interpreted as the client
 * cancelling its request"): the request whose stream the client dropped
 * still gets its response, on the resumed stream. A resumed stream that
 * ended (ended: the transfer complete, not cut by the step's wait) with
 * neither the response nor a retry field (a server that polls ends it
 * early and is resumed again) shows the request dropped with the
 * connection; one still open when the wait ran out says nothing.
 */
static void judge_kept(const ev_list_t *a, const ev_list_t *r, const char *a_id, int ended,
                       mc_httprun_outcome_t *out)
{
    snprintf(out->expected, sizeof(out->expected),
             "the response to %.40s on its stream, resumed after the connection was dropped",
             a_id);
    if (has_response(r, a_id)) {
        snprintf(out->message, sizeof(out->message),
                 "the resumed stream carried the response to %.40s", a_id);
    } else if (!ended || r->retry_ms >= 0 || a->retry_ms >= 0) {
        out->not_applicable = 1;
        snprintf(out->message, sizeof(out->message),
                 "the resumed stream %s before the response to %.40s: the server may still "
                 "send it",
                 ended ? "ended after a retry field" : "was still open", a_id);
    } else {
        out->pass = 0;
        snprintf(out->message, sizeof(out->message),
                 "the resumed stream ended without the response to %.40s and without a retry "
                 "field: the request was dropped with the connection",
                 a_id);
    }
}

/*
 * The "resume" form of a POST step: POST the message and read `events`
 * SSE events, then drop the connection (events that came in the same read
 * are ignored: the stream is resumed after the last one counted); POST resume.interleave (read to its
 * end) so that another stream of the session has messages; then GET with
 * Last-Event-ID set to the last event id the first stream sent. The replay
 * must hold nothing the other stream carried (no event id of it, no message
 * it sent, not its response). A server that answers with JSON, sends no
 * event ids, or does not resume (any answer but an SSE stream) makes the
 * step not applicable: resuming is a MAY.
 */
int mc__httprun_resume(mc_httprun_t *hr, const mc_step_http_t *sp, const mc_httprun_fill_t *fill,
                       const char *const *hl, const char *version, int within, mc_judge_t *judge,
                       mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                       mc_httprun_outcome_t *out)
{
    json_object *msg = fill->message;
    json_object *other = fill->interleave;
    const char *sid = mc_http_session_id(hr->http);
    ev_list_t *a = calloc(3, sizeof(*a)), *b, *r;
    char a_id[64] = "", b_id[64] = "";
    const char *body_a, *body_b;
    char gh[4][400];
    const char *gl[5];
    mc_http_exchange_t x;
    size_t i, ng = 0;
    int events = sp->events != MC_STEP_UNSET ? sp->events : 1;
    int ended;

    if (a == NULL) {
        snprintf(out->message, sizeof(out->message), "out of memory");
        return MC_ENOMEM;
    }
    b = a + 1;
    r = a + 2;
    if (msg == NULL || other == NULL) {
        snprintf(out->message, sizeof(out->message),
                 "a resume step needs \"message\" and \"resume\": {\"interleave\": MESSAGE}");
        free(a);
        return MC_EINVAL;
    }
    /* Ids are compared as their text (core/jsonrpc.h). */
    mc_id_text(mc_json_get(msg, "id"), a_id, sizeof(a_id));
    mc_id_text(mc_json_get(other, "id"), b_id, sizeof(b_id));
    /* Each string is kept by its object, which the step holds. */
    body_a = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
    body_b = json_object_to_json_string_ext(other, JSON_C_TO_STRING_PLAIN |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE);
    out->pass = 1;
    snprintf(out->expected, sizeof(out->expected),
             "the replay after Last-Event-ID holds only messages of its own stream");

    resume_exchange(hr, "POST", hl, body_a, within, events > 0 ? events : 1, res, seq, t_ms,
                    "(the stream to resume; dropped after its first events)", &x, a);
    /* The judge sees what a client that stopped reading there received: the
     * first events of the stream; the rest comes with the replay. */
    if (strncasecmp(x.ctype, "text/event-stream", 17) == 0) {
        mc__httprun_judge_sent(judge, seq, body_a, strlen(body_a));
        mc__httprun_judge_stream(judge, seq, x.body, x.body_len, events > 0 ? (size_t)events : 1);
    } else {
        mc__httprun_judge_exchange(judge, seq, body_a, strlen(body_a), &x);
    }
    mc_http_exchange_free(&x);
    if (a->last_id[0] == '\0' || has_response(a, a_id)) {
        out->not_applicable = 1;
        snprintf(out->message, sizeof(out->message),
                 a->last_id[0] == '\0'
                     ? "the request's answer carried no SSE event id (status %ld): the server "
                       "offers no resumption here"
                     : "the response came before the connection was dropped: nothing to resume",
                 x.status);
        free(a);
        return MC_OK;
    }
    resume_exchange(hr, "POST", hl, body_b, within, 0, res, seq, t_ms,
                    "(another stream of the session)", &x, b);
    mc__httprun_judge_exchange(judge, seq, body_b, strlen(body_b), &x);
    mc_http_exchange_free(&x);

    snprintf(gh[ng++], sizeof(gh[0]), "Accept: text/event-stream");
    if (sid != NULL)
        snprintf(gh[ng++], sizeof(gh[0]), "Mcp-Session-Id: %s", sid);
    if (version != NULL && mc_version_cmp(version, mc_version_name(MC_V_2025_06_18)) >= 0)
        snprintf(gh[ng++], sizeof(gh[0]), "MCP-Protocol-Version: %s", version);
    snprintf(gh[ng++], sizeof(gh[0]), "Last-Event-ID: %s", a->last_id);
    for (i = 0; i < ng; i++)
        gl[i] = gh[i];
    gl[ng] = NULL;
    resume_exchange(hr, "GET", gl, NULL, within, 0, res, seq, t_ms,
                    "(resume the first stream with Last-Event-ID)", &x, r);
    ended = x.complete;
    snprintf(out->actual, sizeof(out->actual), "GET with Last-Event-ID %.60s: %ld %.60s, %zu events",
             a->last_id, x.status, x.ctype, r->n);
    if (x.status == 200 && strncasecmp(x.ctype, "text/event-stream", 17) == 0)
        mc__httprun_judge_stream(judge, seq, x.body, x.body_len, 0);
    if (x.status != 200 || strncasecmp(x.ctype, "text/event-stream", 17) != 0) {
        out->not_applicable = 1;
        snprintf(out->message, sizeof(out->message),
                 "the server does not resume streams (GET with Last-Event-ID: %ld)", x.status);
        mc_http_exchange_free(&x);
        free(a);
        return MC_OK;
    }
    mc_http_exchange_free(&x);
    if (sp->resume_response)
        judge_kept(a, r, a_id, ended, out);
    else
        judge_replay(a, b, r, a_id, b_id, out);
    free(a);
    return MC_OK;
}
