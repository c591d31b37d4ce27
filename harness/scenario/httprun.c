#include "core/hash.h"
#include "scenario/httprun.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "client/http_limits.h"
#include "client/sse.h"
#include "core/json.h"
#include "core/version.h"
#include "judge/builtin.h"

const mc_check_def_t *mc_httprun_check(const char *id)
{
    return mc_builtin_http_check(id);
}

int mc_httprun_start(mc_httprun_t *hr, const mc_runner_opts_t *o, mc_link_t *link,
                     mc_errbuf_t *eb)
{
    mc_http_opts_t ho;
    const char *url = o->url;

    memset(hr, 0, sizeof(*hr));
    if (o->fresh_process && o->argv != NULL && o->argv[0] != NULL) {
        mc_spawn_opts_t so;
        int rc;
        memset(&so, 0, sizeof(so));
        so.argv = o->argv;
        so.cwd = o->cwd;
        so.limits = o->limits;
        rc = mc_http_target_start(&hr->tgt, &so, o->url, MC_HTTP_STARTUP_BUDGET_MS, eb);
        if (rc != MC_OK)
            return rc;
        url = hr->tgt.url;
    }
    snprintf(hr->url, sizeof(hr->url), "%s", url);
    memset(&ho, 0, sizeof(ho));
    ho.url = hr->url;
    ho.get_stream = 1;
    ho.allow_remote = o->allow_remote;
    hr->http = mc_http_new(&ho, eb);
    if (hr->http == NULL) {
        mc_http_target_stop(&hr->tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
        return MC_EINVAL;
    }
    *link = mc_http_link(hr->http);
    return MC_OK;
}

void mc_httprun_notes(mc_httprun_t *hr, mc_scenario_result_t *res, uint64_t seq, int64_t t_ms)
{
    char note[260], line[300];

    if (hr->http == NULL)
        return;
    while (mc_http_take_note(hr->http, note, sizeof(note))) {
        int n = snprintf(line, sizeof(line), "(http: %s)", note);
        mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
    }
}

static void record(mc_scenario_result_t *res, const mc_http_finding_t *f)
{
    mc_sresult_check(res, f->check, mc_httprun_check(f->check), f->pass,
                     f->pass ? NULL : f->detail, NULL, NULL, NULL, 0, 0);
}

void mc_httprun_finish(mc_httprun_t *hr, mc_scenario_result_t *res, uint64_t seq, int64_t t_ms)
{
    mc_http_finding_t f;
    long st = 0;
    char how[200];

    if (hr->http != NULL) {
        if (mc_http_close(hr->http, MC_HTTP_DELETE_TIMEOUT_MS, &st) == MC_OK && st != 0) {
            char line[120];
            int n = snprintf(line, sizeof(line), "(http: DELETE -> %ld)", st);
            mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
        }
        mc_httprun_notes(hr, res, seq, t_ms);
        while (mc_http_take_finding(hr->http, &f))
            record(res, &f);
        mc_http_free(hr->http);
        hr->http = NULL;
    }
    if (hr->tgt.started) {
        char tail[4096];
        if (mc_http_target_stderr(&hr->tgt, tail, sizeof(tail)) > 0 && res->stderr_tail == NULL)
            res->stderr_tail = strdup(tail);
        mc_http_target_stop(&hr->tgt, MC_SHUTDOWN_TERM_GRACE_MS, how, sizeof(how));
        if (res->exit_desc == NULL)
            res->exit_desc = strdup(how);
    }
}

/* --- "http" steps ------------------------------------------------------------ */

#define STEP_MAX_HEADERS 24

void mc_httprun_fill_free(mc_httprun_fill_t *f)
{
    json_object_put(f->message);
    json_object_put(f->body);
    json_object_put(f->headers);
    json_object_put(f->interleave);
    memset(f, 0, sizeof(*f));
}

/* True when status is one the step accepts (any, when it names none);
 * exp says which it named. */
static int status_ok(const mc_step_http_t *sp, long status, char *exp, size_t cap)
{
    size_t i;

    if (sp->status_text == NULL)
        return 1;
    snprintf(exp, cap, "status %s", sp->status_text);
    for (i = 0; i < sp->n_status; i++)
        if (sp->status[i] == status)
            return 1;
    return 0;
}

/* True when ctype starts with a prefix the step accepts (any, when it
 * names none). */
static int ctype_ok(const mc_step_http_t *sp, const char *ctype)
{
    size_t i;

    if (sp->ctype_text == NULL)
        return 1;
    for (i = 0; i < sp->n_ctypes; i++)
        if (strncasecmp(ctype, sp->ctypes[i], strlen(sp->ctypes[i])) == 0)
            return 1;
    return 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void tx_note(mc_scenario_result_t *res, uint64_t seq, int64_t t_ms, int outbound,
                    const char *fmt, ...);
static void tx_note(mc_scenario_result_t *res, uint64_t seq, int64_t t_ms, int outbound,
                    const char *fmt, ...)
{
    va_list ap;
    char line[700];
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);

    if (n > 0)
        mc_sresult_tx(res, seq, t_ms, outbound, line, (size_t)n < sizeof(line) ? (size_t)n
                                                                              : sizeof(line) - 1);
}

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
            snprintf(it->resp_id, sizeof(it->resp_id), "%s",
                     json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN));
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

    tx_note(res, seq, t_ms, 1, "(http step: %s %s)", method, what);
    if (body != NULL)
        mc_sresult_tx(res, seq, t_ms, 1, body, strlen(body));
    rc = mc_http_exchange(hr->url, method, hl, body, body ? strlen(body) : 0, within, events, x);
    tx_note(res, seq, t_ms, 0, "(http step answer: %ld %s%s)", x->status,
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
        if (out->pass && strcmp(e->resp_id, b_id) == 0) {
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
static int resume_step(mc_httprun_t *hr, const mc_step_http_t *sp, const mc_httprun_fill_t *fill,
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
    snprintf(a_id, sizeof(a_id), "%s",
             json_object_to_json_string_ext(mc_json_get(msg, "id"), JSON_C_TO_STRING_PLAIN));
    snprintf(b_id, sizeof(b_id), "%s",
             json_object_to_json_string_ext(mc_json_get(other, "id"), JSON_C_TO_STRING_PLAIN));
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

/*
 * "delete_first" and "session" on a server that assigned no session id, or
 * that refuses DELETE: the step does not apply. Returns 1 with out filled
 * then, else 0 (the step goes on).
 */
static int step_not_applicable(mc_httprun_t *hr, const mc_step_http_t *sp, int within,
                               mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                               mc_httprun_outcome_t *out)
{
    const char *sid = mc_http_session_id(hr->http);
    mc_http_exchange_t x;
    char line[120];
    int rc;

    if (sid == NULL && (sp->delete_first || sp->session != MC_STEP_SESSION_CURRENT)) {
        /* Rules about session ids bind only servers that assign one. */
        out->pass = 1;
        out->not_applicable = 1;
        snprintf(out->message, sizeof(out->message), "the server assigned no session id");
        return 1;
    }
    if (sp->delete_first) {
        char h0[400];
        const char *dh[2] = {h0, NULL};
        snprintf(h0, sizeof(h0), "Mcp-Session-Id: %s", sid ? sid : "");
        rc = mc_http_exchange(hr->url, "DELETE", sid ? dh : NULL, NULL, 0, within, 0, &x);
        snprintf(line, sizeof(line), "%ld", x.status);
        tx_note(res, seq, t_ms, 1, "(http step: DELETE with the session id -> %s%s)", line,
                x.error);
        mc_http_exchange_free(&x);
        if (rc == MC_OK && x.status == 405) {
            out->pass = 1;
            out->not_applicable = 1;
            snprintf(out->message, sizeof(out->message),
                     "the server does not let clients end sessions (DELETE -> 405)");
            return 1;
        }
    }
    return 0;
}

/* The headers of an http step, as "Name: value" lines. */
typedef struct step_headers {
    char buf[STEP_MAX_HEADERS][400];
    const char *list[STEP_MAX_HEADERS + 1]; /* NULL-terminated */
    size_t n;
} step_headers_t;

/* Default headers first (unless the step sets them); then the step's own,
 * where a null value removes one. */
static void step_headers(mc_httprun_t *hr, const mc_step_http_t *sp, json_object *hdrs,
                         const char *method, const char *version, step_headers_t *h)
{
    const char *defaults[4][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *sid = mc_http_session_id(hr->http);
    char sid_v[300] = "";
    size_t d = 0, k;

    h->n = 0;
    if (strcmp(method, "POST") == 0) {
        defaults[d][0] = "Content-Type";
        defaults[d++][1] = "application/json";
        defaults[d][0] = "Accept";
        defaults[d++][1] = "application/json, text/event-stream";
    } else if (strcmp(method, "GET") == 0) {
        defaults[d][0] = "Accept";
        defaults[d++][1] = "text/event-stream";
    }
    if (sp->session == MC_STEP_SESSION_CURRENT)
        snprintf(sid_v, sizeof(sid_v), "%s", sid ? sid : "");
    else if (sp->session == MC_STEP_SESSION_UNKNOWN)
        snprintf(sid_v, sizeof(sid_v), "mcpcheck-unknown-session-0000");
    if (sid_v[0]) {
        defaults[d][0] = "Mcp-Session-Id";
        defaults[d++][1] = sid_v;
    }
    if (version != NULL && mc_version_cmp(version, mc_version_name(MC_V_2025_06_18)) >= 0) {
        defaults[d][0] = "MCP-Protocol-Version";
        defaults[d++][1] = version;
    }
    for (k = 0; k < d; k++) {
        json_object *o = NULL;
        if (hdrs != NULL && json_object_object_get_ex(hdrs, defaults[k][0], &o))
            continue; /* the step decides */
        snprintf(h->buf[h->n], sizeof(h->buf[h->n]), "%s: %s", defaults[k][0], defaults[k][1]);
        h->list[h->n] = h->buf[h->n];
        h->n++;
    }
    if (hdrs != NULL) {
        json_object_object_foreach(hdrs, name, val)
        {
            if (h->n >= STEP_MAX_HEADERS)
                break;
            if (val == NULL) {
                /* Removed: curl would add its own for some; "Name:" drops it. */
                snprintf(h->buf[h->n], sizeof(h->buf[h->n]), "%s:", name);
            } else {
                snprintf(h->buf[h->n], sizeof(h->buf[h->n]), "%s: %s", name,
                         json_object_get_string(val));
            }
            h->list[h->n] = h->buf[h->n];
            h->n++;
        }
    }
    h->list[h->n] = NULL;
}

/* Puts the request an http step sends into the transcript. */
static void note_request(mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                         const char *method, const step_headers_t *h, const char *body,
                         size_t body_len)
{
    char hdesc[600] = "", line[120];
    size_t k, used = 0;

    for (k = 0; k < h->n && used + 4 < sizeof(hdesc); k++) {
        int n = snprintf(hdesc + used, sizeof(hdesc) - used, "%s%s", k ? "; " : "", h->list[k]);
        if (n < 0)
            break;
        used += (size_t)n;
        if (used >= sizeof(hdesc))
            used = sizeof(hdesc) - 1;
    }
    snprintf(line, sizeof(line), "%s", method);
    tx_note(res, seq, t_ms, 1, "(http step: %s [%s])", line, hdesc);
    if (body != NULL)
        mc_sresult_tx(res, seq, t_ms, 1, body, body_len);
}

/* The error code of the JSON-RPC error an answer carries (a JSON body, or
 * the first data line of an SSE body) into *code; 0 when it carries one,
 * else -1. */
static int answer_error_code(const mc_http_exchange_t *x, long long *code)
{
    json_object *o = NULL, *e, *c;
    int rc = -1;

    if (x->body == NULL || x->body_len == 0)
        return -1;
    if (strncasecmp(x->ctype, "text/event-stream", 17) == 0) {
        const char *d = strstr(x->body, "data:");
        if (d != NULL) {
            size_t n = strcspn(d + 5, "\r\n");
            char *line = strndup(d + 5, n);
            if (line != NULL)
                o = json_tokener_parse(line);
            free(line);
        }
    } else {
        o = json_tokener_parse(x->body);
    }
    if (o != NULL && json_object_object_get_ex(o, "error", &e) &&
        json_object_object_get_ex(e, "code", &c) && json_object_is_type(c, json_type_int)) {
        *code = (long long)json_object_get_int64(c);
        rc = 0;
    }
    json_object_put(o);
    return rc;
}

/* Judges the answer to an http step: "status", "content_type",
 * "empty_body" and "error_code". */
static void judge_answer(const mc_step_http_t *sp, const char *method, const mc_http_exchange_t *x,
                         mc_httprun_outcome_t *out)
{
    out->pass = 1;
    snprintf(out->actual, sizeof(out->actual), "status %ld, Content-Type \"%s\", %zu body bytes",
             x->status, x->ctype, x->body_len);
    if (!status_ok(sp, x->status, out->expected, sizeof(out->expected))) {
        out->pass = 0;
        snprintf(out->message, sizeof(out->message), "%s answered with status %ld", method,
                 x->status);
    } else if (!ctype_ok(sp, x->ctype)) {
        out->pass = 0;
        snprintf(out->expected, sizeof(out->expected), "Content-Type %s", sp->ctype_text);
        snprintf(out->message, sizeof(out->message), "%s answered with Content-Type \"%s\"",
                 method, x->ctype);
    } else if (sp->empty_body && x->body_len > 0) {
        out->pass = 0;
        snprintf(out->expected, sizeof(out->expected), "no body");
        snprintf(out->message, sizeof(out->message), "%s answered with a %zu-byte body", method,
                 x->body_len);
    } else if (sp->has_error_code) {
        long long want = (long long)sp->error_code, got = 0;
        snprintf(out->expected, sizeof(out->expected), "a JSON-RPC error with code %lld", want);
        if (answer_error_code(x, &got) != 0) {
            out->pass = 0;
            snprintf(out->message, sizeof(out->message),
                     "%s answered with no JSON-RPC error in its body", method);
        } else if (got != want) {
            out->pass = 0;
            snprintf(out->message, sizeof(out->message),
                     "%s answered with JSON-RPC error code %lld", method, got);
        }
    }
}

int mc_httprun_step(mc_httprun_t *hr, const mc_step_http_t *sp, const mc_httprun_fill_t *fill,
                    const char *version, int timeout_ms, mc_judge_t *judge,
                    mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                    mc_httprun_outcome_t *out)
{
    const char *method = mc_step_http_method_name(sp->method);
    json_object *msg = fill->message;
    const char *raw = json_object_is_type(fill->body, json_type_string)
                          ? json_object_get_string(fill->body)
                          : NULL;
    step_headers_t h;
    const char *body = NULL;
    size_t body_len = 0;
    mc_http_exchange_t x;
    int within = sp->within_ms != MC_STEP_UNSET ? sp->within_ms : timeout_ms;
    int rc;

    memset(out, 0, sizeof(*out));
    if (hr->http == NULL || method == NULL) {
        snprintf(out->message, sizeof(out->message),
                 "an http step needs the Streamable HTTP transport and a method");
        return MC_EINVAL;
    }
    if (within <= 0 || within > timeout_ms)
        within = timeout_ms;
    if (step_not_applicable(hr, sp, within, res, seq, t_ms, out))
        return MC_OK;
    step_headers(hr, sp, fill->headers, method, version, &h);
    if (sp->resume && sp->method == MC_STEP_HTTP_POST)
        return resume_step(hr, sp, fill, h.list, version, within, judge, res, seq, t_ms, out);
    if (msg != NULL) {
        body = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE);
        body_len = strlen(body);
    } else if (raw != NULL) {
        body = raw;
        body_len = strlen(raw);
    }
    note_request(res, seq, t_ms, method, &h, body, body_len);
    rc = mc_http_exchange(hr->url, method, h.list, body, body_len, within,
                          sp->events != MC_STEP_UNSET ? sp->events : 0, &x);
    {
        char st_s[200];
        snprintf(st_s, sizeof(st_s), "%ld %s", x.status, x.ctype[0] ? x.ctype : "(no type)");
        tx_note(res, seq, t_ms, 0, "(http step answer: %s%s)", st_s, x.error);
        if (x.body_len > 0)
            mc_sresult_tx(res, seq, t_ms, 0, x.body, x.body_len);
    }
    if (rc != MC_OK && x.status == 0) {
        snprintf(out->message, sizeof(out->message), "%s got no HTTP answer: %s", method,
                 x.error);
        snprintf(out->actual, sizeof(out->actual), "no answer");
        mc_http_exchange_free(&x);
        return MC_OK;
    }
    if (sp->method == MC_STEP_HTTP_POST)
        mc__httprun_judge_exchange(judge, seq, body, body_len, &x);
    judge_answer(sp, method, &x, out);
    mc_http_exchange_free(&x);
    return MC_OK;
}
