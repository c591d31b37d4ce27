/*
 * httprun.c - the http step of a scenario over Streamable HTTP: one HTTP
 * request outside the session, judged on its status, content type and body
 * (see httprun.h; its "resume" form is httprun_resume.c).
 */
#include "scenario/httprun.h"
#include "scenario/httprun_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "client/http_limits.h"
#include "core/json.h"
#include "core/version.h"
#include "judge/builtin.h"

const mc_check_def_t *mc_httprun_check(const char *id)
{
    return mc_builtin_http_check(id);
}

int mc_httprun_transport(const mc_runner_opts_t *o, const char *version)
{
    if (o->http_transport == MC_HTTP_TRANSPORT_AUTO && version != NULL &&
        mc_version_missing(version, MC_VF_STREAMABLE_HTTP) != 0)
        return MC_HTTP_TRANSPORT_SSE;
    return o->http_transport;
}

int mc_httprun_start(mc_httprun_t *hr, const mc_runner_opts_t *o, const char *version,
                     mc_link_t *link, mc_errbuf_t *eb)
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
    ho.transport = (mc_http_transport_t)mc_httprun_transport(o, version);
    /* AUTO at a version whose only HTTP transport is HTTP+SSE: a server that
     * does not offer it there (a Streamable HTTP server) is not judged by it. */
    ho.sse_if_offered = o->http_transport == MC_HTTP_TRANSPORT_AUTO &&
                        ho.transport == MC_HTTP_TRANSPORT_SSE;
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

/* Reports the http/ checks of the judge's table: each failure with its
 * detail, and one pass for a check that held at least once, so that a
 * rule that held on one stream and broke on another counts both (its
 * evaluations exceed its failures). The table counts a failure as an
 * evaluation too; when findings were dropped, which checks they were is
 * unknown, and a failed check is then given no pass. */
static void record_judged(const mc_judge_t *j, mc_scenario_result_t *res)
{
    size_t i, k;

    for (i = 0; j != NULL && i < j->w.n_checks; i++) {
        const char *id = j->w.check_ids[i];
        uint64_t failed = 0;
        if (!mc_judge_is_http_check(id))
            continue;
        for (k = 0; k < j->w.n_findings; k++) {
            const mc_wire_finding_t *f = &j->w.findings[k];
            if (strcmp(f->check, id) != 0)
                continue;
            failed++;
            mc_sresult_check(res, id, mc_httprun_check(id), 0, f->detail, NULL, NULL, NULL, 0,
                             0);
        }
        if (failed == 0 || (j->w.findings_dropped == 0 && j->w.check_evals[i] > failed))
            mc_sresult_check(res, id, mc_httprun_check(id), 1, NULL, NULL, NULL, NULL, 0, 0);
    }
}

void mc_httprun_finish(mc_httprun_t *hr, const mc_judge_t *judge, mc_scenario_result_t *res,
                       uint64_t seq, int64_t t_ms)
{
    long st = 0;
    char how[200];

    if (hr->http != NULL) {
        if (mc_http_close(hr->http, MC_HTTP_DELETE_TIMEOUT_MS, &st) == MC_OK && st != 0) {
            char line[120];
            int n = snprintf(line, sizeof(line), "(http: DELETE -> %ld)", st);
            mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
        }
        {
            char line[80];
            int n = snprintf(line, sizeof(line), "(http: transport %s)",
                             mc_http_transport_name(hr->http));
            mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
        }
        mc_httprun_notes(hr, res, seq, t_ms);
        record_judged(judge, res);
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

void mc__httprun_tx_note(mc_scenario_result_t *res, uint64_t seq, int64_t t_ms, int outbound,
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
        mc__httprun_tx_note(res, seq, t_ms, 1, "(http step: DELETE with the session id -> %s%s)", line,
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
    mc__httprun_tx_note(res, seq, t_ms, 1, "(http step: %s [%s])", line, hdesc);
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
        return mc__httprun_resume(hr, sp, fill, h.list, version, within, judge, res, seq, t_ms,
                                  out);
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
        mc__httprun_tx_note(res, seq, t_ms, 0, "(http step answer: %s%s)", st_s, x.error);
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
