#include "scenario/runner.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "client/session.h"
#include "client/stdio.h"
#include "judge/judge.h"
#include "core/clock.h"
#include "core/frame.h"
#include "core/json.h"
#include "core/limits.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "scenario/fixtures.h"
#include "scenario/instance.h"
#include "scenario/httprun.h"
#include "scenario/match.h"
#include "scenario/vars.h"

typedef struct inbox_item {
    mc_msg_t msg;
    uint64_t seq;    /* inbound line number */
    uint64_t tx_seq; /* transcript line number (both directions), as reports cite it */
    int taken;
    int on_get;      /* it came on the HTTP GET stream */
} inbox_item_t;

/* Responses remembered with their transcript line, so that a finding about
 * one cites the line it came on. */
#define MC_RUNNER_RESP_SEQS 64

typedef struct resp_seq {
    char id[64];     /* the id, as compact JSON */
    uint64_t tx_seq;
} resp_seq_t;

typedef struct inbox {
    inbox_item_t *v;
    size_t n;
} inbox_t;

typedef struct rctx {
    const mc_scenario_t *sc;
    const mc_runner_opts_t *o;
    mc_scenario_result_t *res;
    mc_stdio_t t;
    int started;
    mc_httprun_t http;      /* the HTTP transport when o->url is set */
    int http_on;
    mc_session_t s;
    int session_ok;
    mc_judge_t j;           /* judges every line in both directions */
    mc_vars_t vars;
    json_object *answers;   /* owned: method -> {"with": ...} or {"error": ...} */
    inbox_t notes, reqs;
    uint64_t seq_all;       /* transcript line counter, both directions */
    uint64_t seq_in;        /* inbound lines */
    uint64_t mark_in;       /* seq_in when the last message was sent */
    int64_t t0, deadline;
    int dead;               /* the target stopped answering or exited */
    int tokens;
    resp_seq_t resp_seqs[MC_RUNNER_RESP_SEQS]; /* ring of the latest responses */
    size_t resp_next;
    char version[32];
    int step_timeout;
    int unusable;           /* the target failed in a way no scenario can get past */
} rctx_t;

/* --- checks ------------------------------------------------------------- */

static void check(rctx_t *c, const char *id, int pass, const char *message, const char *expected,
                  const char *actual, const char *path, uint64_t seq, int line)
{
    const mc_check_def_t *def = mc_scenario_requirement(c->sc, id);

    if (mc_check_is_harness(id)) {
        /* Set-up, not a rule of the spec: a step that cannot be carried out
         * leaves the scenario unverified; it is no finding. */
        if (!pass)
            mc_sresult_set(c->res, MC_NOT_VERIFIED,
                           "the step at line %d could not be carried out: %s", line,
                           message != NULL ? message : "it did not complete");
        return;
    }
    if (def == NULL)
        def = mc_builtin_check(id);
    if (def == NULL)
        def = mc_httprun_check(id);
    mc_sresult_check(c->res, id, def, pass, message, expected, actual, path, seq, line);
}

static const char *step_check(rctx_t *c, json_object *st)
{
    const char *id = mc_json_get_str(st, "check");

    return id != NULL ? id : c->sc->reqs[0].check;
}

static void compact(json_object *v, char *out, size_t n)
{
    size_t len = 0;
    const char *s = v ? json_object_to_json_string_length(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len) : "null";

    snprintf(out, n, "%s", s);
    if (strlen(s) >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
}

/* The transcript line a response came on (0 when it is not remembered). */
static uint64_t resp_tx_seq(rctx_t *c, const mc_msg_t *m)
{
    char id[64];
    size_t k;

    if (m == NULL || m->id == NULL)
        return 0;
    compact(m->id, id, sizeof(id));
    for (k = 1; k <= MC_RUNNER_RESP_SEQS && k <= c->resp_next; k++) {
        const resp_seq_t *r = &c->resp_seqs[(c->resp_next - k) % MC_RUNNER_RESP_SEQS];
        if (strcmp(r->id, id) == 0)
            return r->tx_seq;
    }
    return 0;
}

/* --- traffic ------------------------------------------------------------ */

static void inbox_push(inbox_t *b, mc_msg_t *msg, uint64_t seq, uint64_t tx_seq, int on_get)
{
    if (b->v == NULL) {
        b->v = calloc(MC_RUNNER_MAX_INBOX, sizeof(*b->v));
        if (b->v == NULL) {
            mc_msg_free(msg);
            return;
        }
    }
    if (b->n == MC_RUNNER_MAX_INBOX) {
        /* Full: drop the oldest taken item, else the oldest. */
        size_t i, drop = 0;
        for (i = 0; i < b->n; i++)
            if (b->v[i].taken) {
                drop = i;
                break;
            }
        mc_msg_free(&b->v[drop].msg);
        memmove(&b->v[drop], &b->v[drop + 1], (b->n - drop - 1) * sizeof(*b->v));
        b->n--;
    }
    b->v[b->n].msg = *msg;
    b->v[b->n].seq = seq;
    b->v[b->n].tx_seq = tx_seq;
    b->v[b->n].taken = 0;
    b->v[b->n].on_get = on_get;
    b->n++;
    memset(msg, 0, sizeof(*msg));
}

static void inbox_free(inbox_t *b)
{
    size_t i;

    for (i = 0; i < b->n; i++)
        mc_msg_free(&b->v[i].msg);
    free(b->v);
    memset(b, 0, sizeof(*b));
}

static void observe(void *ctx, int outbound, uint64_t seq, const char *line, size_t len, int kind,
                    unsigned flags)
{
    rctx_t *c = ctx;
    const mc_wire_info_t *judged = c->s.in_judged;
    mc_msg_t m;
    int on_get;

    (void)seq;
    if (c->http_on)
        mc_httprun_notes(&c->http, c->res, c->seq_all, mc_now_ms() - c->t0);
    c->seq_all++;
    if (!outbound && c->s.in_meta != NULL) {
        char note[400];
        int n = snprintf(note, sizeof(note), "(http: %s)", c->s.in_meta);
        mc_sresult_tx(c->res, c->seq_all, mc_now_ms() - c->t0, 0, note, n > 0 ? (size_t)n : 0);
    }
    if (line != NULL) {
        mc_sresult_tx(c->res, c->seq_all, mc_now_ms() - c->t0, outbound, line, len);
    } else {
        /* An oversize frame: len counts the bytes skipped, there is no text. */
        char note[96];
        int n = snprintf(note, sizeof(note), "(%zu bytes skipped: a line over the size limit)",
                         len);
        mc_sresult_tx(c->res, c->seq_all, mc_now_ms() - c->t0, outbound, note,
                      n > 0 ? (size_t)n : 0);
    }
    (void)kind;
    (void)flags;
    if (outbound) {
        c->mark_in = c->seq_in;
        return;
    }
    c->seq_in++;
    /* The session's judge has judged the line (c->j); the inboxes take
     * their own reference to the message it decoded. */
    if (judged == NULL || !judged->is_line)
        return;
    m = judged->msg;
    json_object_get(m.root);
    /* A GET that resumes a POST's stream (Last-Event-ID) carries that POST's
     * messages: it is not the GET stream. */
    on_get = c->s.in_meta != NULL && strncmp(c->s.in_meta, "GET#", 4) == 0 &&
             strstr(c->s.in_meta, " resumes=") == NULL;
    if (m.kind == MC_MSG_NOTIFICATION) {
        inbox_push(&c->notes, &m, c->seq_in, c->seq_all, on_get);
    } else if (m.kind == MC_MSG_REQUEST) {
        inbox_push(&c->reqs, &m, c->seq_in, c->seq_all, on_get);
    } else if (m.id != NULL) {
        resp_seq_t *r = &c->resp_seqs[c->resp_next++ % MC_RUNNER_RESP_SEQS];
        compact(m.id, r->id, sizeof(r->id));
        r->tx_seq = c->seq_all;
    }
    mc_msg_free(&m);
}

static void respond(void *ctx, mc_session_t *s, const mc_msg_t *request, mc_reply_t *reply)
{
    rctx_t *c = ctx;
    json_object *a = mc_json_get(c->answers, request->method);

    if (a != NULL) {
        json_object *with = mc_json_get(a, "with"), *err = mc_json_get(a, "error");
        if (err != NULL) {
            reply->error_code = mc_json_get_int(err, "code", MC_RPC_INTERNAL_ERROR);
            snprintf(reply->error_message, sizeof(reply->error_message), "%s",
                     mc_json_get_str(err, "message") ? mc_json_get_str(err, "message") : "error");
        } else if (with != NULL) {
            json_object_deep_copy(with, &reply->result, NULL);
            /* An accepted elicitation without content gets content made
             * from the request's requestedSchema: a valid instance of what
             * the server asked for. */
            mc_instance_fill_accept(request->method, request->params, reply->result);
        }
        return;
    }
    mc_session_default_responder(NULL, s, request, reply);
}

/* Moves notifications the session queued into nothing: the observer already
 * copied them to the inbox. Keeps the session's queue from filling. */
static void drain_session(rctx_t *c)
{
    mc_msg_t m;

    while (c->s.notes_count > 0 && mc_session_next_notification(&c->s, 0, &m) == MC_OK)
        mc_msg_free(&m);
}

/* The time the target gets to start and answer initialize. */
static int startup_budget(const rctx_t *c)
{
    return c->o->startup_timeout_ms ? c->o->startup_timeout_ms : MC_DEFAULT_STARTUP_TIMEOUT_MS;
}

static int time_left(rctx_t *c, int want)
{
    int64_t left = c->deadline - mc_now_ms();

    if (left <= 0)
        return 0;
    return want < left ? want : (int)left;
}

/* Counts the target as unusable for this run; gives up on it (see
 * mc_runner_shared_t) when no run has completed and enough have failed so,
 * or at once when final is set. */
static void note_unusable(rctx_t *c, int final)
{
    mc_runner_shared_t *sh = c->o->shared;
    int n, expected = 0;

    if (c->unusable)
        return;
    c->unusable = 1;
    if (sh == NULL || c->o->stop == NULL)
        return;
    n = ++sh->unusable;
    if (sh->usable > 0 || (n < MC_EARLY_STOP_HANDSHAKE_FAILURES && !final))
        return;
    if (atomic_compare_exchange_strong(&sh->reason_set, &expected, 1)) {
        snprintf(sh->reason, sizeof(sh->reason), "%s", c->res->reason ? c->res->reason : "");
        sh->abort = 1;
    }
    *c->o->stop = 1;
}

/* Marks the target dead after EOF / a send failure / a flood; the scenario
 * is ERROR, its reason names the cause. */
static void target_gone(rctx_t *c, int rc, const char *doing)
{
    char how[200];
    unsigned long long n = (unsigned long long)c->seq_in;

    if (c->dead)
        return;
    c->dead = 1;
    if (c->http_on) {
        char why[300];
        mc_http_describe(c->http.http, why, sizeof(why));
        mc_sresult_set(c->res, MC_ERROR, "the server stopped answering over HTTP while %s (%s)",
                       doing, why[0] ? why : "no HTTP answer");
        return;
    }
    if (rc == MC_EINTR) {
        mc_sresult_set(c->res, MC_ERROR, "the run was interrupted");
        return;
    }
    if (rc == MC_EFLOOD) {
        mc_sresult_set(c->res, MC_ERROR, "the server flooded the client while %s: %s", doing,
                       c->s.flood_desc);
        note_unusable(c, 0);
        return;
    }
    if (rc == MC_ETOOBIG) {
        mc_sresult_set(c->res, MC_ERROR,
                       "the server wrote a line over the %u-byte message limit and no answer "
                       "came while %s, after %llu message%s",
                       MC_MAX_MESSAGE_SIZE, doing, n, n == 1 ? "" : "s");
        return;
    }
    mc_proc_wait(&c->t.proc, 1000);
    mc_proc_describe(&c->t.proc, how, sizeof(how));
    if (c->t.proc.reaped)
        mc_sresult_set(c->res, MC_ERROR, "the server %s%s while %s, after %llu message%s%s",
                       strncmp(how, "killed", 6) == 0 ? "was " : "", how, doing, n,
                       n == 1 ? "" : "s",
                       c->t.target_exited ? " (a process it left behind still held its stdout)"
                                          : "");
    else
        mc_sresult_set(c->res, MC_ERROR,
                       "the server %s while %s, after %llu message%s, though its process is "
                       "still running",
                       rc == MC_EEOF ? "closed its output" : "stopped reading", doing, n,
                       n == 1 ? "" : "s");
}

/* After a wait of the session: 0 to go on (OK, timeout), else the target is
 * gone (the scenario ends, -1). */
static int wait_ok(rctx_t *c, int rc, const char *doing)
{
    if (rc == MC_OK || rc == MC_ETIMEOUT)
        return 0;
    target_gone(c, rc, doing);
    return -1;
}

/* --- expectations --------------------------------------------------------- */

/* Evaluates a list of assertions against target (paths start at target). */
static void run_asserts(rctx_t *c, json_object *asserts, json_object *target, const char *cid,
                        const char *what, int line, uint64_t seq)
{
    size_t i, n;

    if (asserts == NULL)
        return;
    n = json_object_array_length(asserts);
    for (i = 0; i < n; i++) {
        json_object *a = json_object_array_get_idx(asserts, i), *ea = NULL;
        const char *aid = mc_json_get_str(a, "check") ? mc_json_get_str(a, "check") : cid;
        mc_errbuf_t eb;
        mc_match_t m;
        mc_errbuf_clear(&eb);
        if (mc_vars_expand(&c->vars, a, &ea, &eb) != MC_OK) {
            check(c, "harness/step", 0, eb.msg, NULL, NULL, NULL, 0, line);
            continue;
        }
        if (mc_assert_eval(ea, target, &m) != 0) {
            check(c, "harness/step", 0, m.expected, NULL, NULL, NULL, 0, line);
        } else if (m.pass) {
            check(c, aid, 1, NULL, NULL, NULL, NULL, 0, line);
        } else {
            char msg[1024];
            const char *custom = mc_json_get_str(a, "message");
            snprintf(msg, sizeof(msg), "%.100s: %.150s: expected %.300s, got %.400s", what,
                     custom ? custom : m.where, m.expected, m.actual);
            check(c, aid, 0, msg, m.expected, m.actual, m.where, seq, line);
        }
        json_object_put(ea);
    }
}

/*
 * Evaluates "expect" (responses only) and "assert" of a step against a
 * message, then captures.
 */
static void judge(rctx_t *c, json_object *st, const mc_msg_t *resp, const char *what, int line,
                  uint64_t seq)
{
    json_object *expect = NULL, *asserts = mc_json_get(st, "assert");
    const char *cid = step_check(c, st);
    char exp[256], act[512];
    int ok = 1;
    int is_response = resp->kind == MC_MSG_RESULT || resp->kind == MC_MSG_ERROR;

    /* A private copy: serializing the scenario's own object is not thread-safe. */
    if (mc_json_get(st, "expect") != NULL)
        json_object_deep_copy(mc_json_get(st, "expect"), &expect, NULL);

    if (!is_response) {
        /* A notification or server request: its arrival was the expectation. */
        check(c, cid, 1, NULL, NULL, NULL, NULL, 0, line);
    } else if (expect == NULL || (json_object_is_type(expect, json_type_string) &&
                           strcmp(json_object_get_string(expect), "result") == 0)) {
        if (resp->kind != MC_MSG_RESULT) {
            ok = 0;
            snprintf(exp, sizeof(exp), "a result");
            snprintf(act, sizeof(act), "error %lld: %.300s", (long long)resp->error_code,
                     resp->error_message ? resp->error_message : "");
        }
    } else if (json_object_is_type(expect, json_type_string) &&
               strcmp(json_object_get_string(expect), "error") == 0) {
        if (resp->kind != MC_MSG_ERROR) {
            ok = 0;
            snprintf(exp, sizeof(exp), "an error response");
            snprintf(act, sizeof(act), "a result");
        }
    } else if (json_object_is_type(expect, json_type_object)) {
        json_object *codes = mc_json_get(expect, "error");
        char want[128];
        compact(codes, want, sizeof(want));
        snprintf(exp, sizeof(exp), "error %s", want);
        if (resp->kind != MC_MSG_ERROR) {
            ok = 0;
            snprintf(act, sizeof(act), "a result");
        } else {
            int hit = 0;
            if (json_object_is_type(codes, json_type_int)) {
                hit = json_object_get_int64(codes) == resp->error_code;
            } else {
                size_t i, n = json_object_array_length(codes);
                for (i = 0; i < n; i++)
                    if (json_object_get_int64(json_object_array_get_idx(codes, i)) ==
                        resp->error_code)
                        hit = 1;
            }
            if (!hit) {
                ok = 0;
                snprintf(act, sizeof(act), "error %lld: %.300s", (long long)resp->error_code,
                         resp->error_message ? resp->error_message : "");
            }
        }
    }
    if (!is_response) {
        /* recorded above */
    } else if (ok) {
        check(c, cid, 1, NULL, NULL, NULL, NULL, 0, line);
    } else {
        char msg[1024];
        snprintf(msg, sizeof(msg), "%.150s: expected %.250s, got %.500s", what, exp, act);
        check(c, cid, 0, msg, exp, act, "", seq, line);
    }
    run_asserts(c, asserts, resp->root, cid, what, line, seq);
    {
        json_object *cap = mc_json_get(st, "capture");
        if (cap != NULL && json_object_is_type(cap, json_type_object)) {
            json_object_object_foreach(cap, name, path)
            {
                int found = 0;
                json_object *v = mc_path_get(resp->root, json_object_get_string(path), &found);
                if (!found) {
                    char msg[300];
                    snprintf(msg, sizeof(msg), "%s: capture \"%s\": %s selects nothing", what,
                             name, json_object_get_string(path));
                    check(c, cid, 0, msg, "a value to capture", "(missing)",
                          json_object_get_string(path), seq, line);
                    continue;
                }
                mc_vars_set(&c->vars, name, v);
            }
        }
    }
    json_object_put(expect);
}

/* Runs the "where" filter of an expect step on a message. */
static int where_ok(rctx_t *c, json_object *st, json_object *msg)
{
    json_object *where = mc_json_get(st, "where");
    size_t i, n;

    if (where == NULL)
        return 1;
    n = json_object_array_length(where);
    for (i = 0; i < n; i++) {
        json_object *ea = NULL;
        mc_match_t m;
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        if (mc_vars_expand(&c->vars, json_object_array_get_idx(where, i), &ea, &eb) != MC_OK)
            return 0;
        if (mc_assert_eval(ea, msg, &m) != 0 || !m.pass) {
            json_object_put(ea);
            return 0;
        }
        json_object_put(ea);
    }
    return 1;
}

/* Finds the first untaken inbox message with this method (and filter). */
/* The first untaken item with the step's method (and "where") that arrived
 * after inbound line `after`; with related_only, not one from the HTTP GET
 * stream either. */
static inbox_item_t *inbox_find(rctx_t *c, inbox_t *b, json_object *st, const char *method,
                                uint64_t after, int related_only)
{
    size_t i;

    for (i = 0; i < b->n; i++) {
        inbox_item_t *it = &b->v[i];
        if (it->taken || it->seq <= after || (related_only && it->on_get))
            continue;
        if (strcmp(method, "*") != 0 && strcmp(it->msg.method, method) != 0)
            continue;
        if (!where_ok(c, st, it->msg.root))
            continue;
        return it;
    }
    return NULL;
}

/* --- steps ---------------------------------------------------------------- */

static int run_steps(rctx_t *c, json_object *steps, const char *ptr, int depth);

/* True when an argument's name says its value is a URI ("resourceUri",
 * "url"): a made-up value must then be one. */
static int names_uri(const char *name)
{
    size_t i;

    for (i = 0; name[i] != '\0'; i++)
        if ((name[i] == 'u' || name[i] == 'U') && (name[i + 1] == 'r' || name[i + 1] == 'R') &&
            (name[i + 2] == 'i' || name[i + 2] == 'I' || name[i + 2] == 'l' || name[i + 2] == 'L'))
            return 1;
    return 0;
}

/* {"NAME": "mcpcheck", ...} for each required argument of a prompt's
 * declared arguments (a new object); an argument named as a URI gets
 * "mcpcheck://argument", which is also a string. */
static json_object *prompt_arguments(json_object *decl)
{
    json_object *out = json_object_new_object();
    size_t i, n = json_object_is_type(decl, json_type_array) ? json_object_array_length(decl) : 0;

    for (i = 0; out != NULL && i < n && i < MC_INSTANCE_MAX_MEMBERS; i++) {
        json_object *a = json_object_array_get_idx(decl, i);
        const char *name = mc_json_get_str(a, "name");
        if (name != NULL && json_object_get_boolean(mc_json_get(a, "required")))
            json_object_object_add(out, name,
                                   json_object_new_string(names_uri(name) ? "mcpcheck://argument"
                                                                          : "mcpcheck"));
    }
    return out;
}

/*
 * Replaces every {"$instance": SCHEMA} inside v (after expansion) with a
 * valid instance of SCHEMA (scenario/instance.h): tool arguments made from
 * an inputSchema; and every {"$arguments": ARGS} with the arguments object a
 * prompt's declared ARGS need (each required one set to "mcpcheck", or to
 * "mcpcheck://argument" when its name says it is a URI).
 * Returns the value to use in v's place (v itself, or its replacement,
 * with v put).
 */
static json_object *make_instances(json_object *v, int depth)
{
    if (depth > MC_INSTANCE_MAX_DEPTH)
        return v;
    if (json_object_is_type(v, json_type_object)) {
        json_object *schema;
        if (json_object_object_length(v) == 1 &&
            json_object_object_get_ex(v, "$arguments", &schema)) {
            json_object *args = prompt_arguments(schema);
            if (args == NULL)
                return v;
            json_object_put(v);
            return args;
        }
        if (json_object_object_length(v) == 1 &&
            json_object_object_get_ex(v, "$instance", &schema)) {
            json_object *inst = NULL;
            if (mc_instance_make(schema, &inst) != MC_OK)
                return v;
            json_object_put(v);
            return inst;
        }
        json_object_object_foreach(v, k, m)
        {
            json_object *r = make_instances(json_object_get(m), depth + 1);
            if (r != m)
                json_object_object_add(v, k, r);
            else
                json_object_put(r);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++) {
            json_object *m = json_object_array_get_idx(v, i);
            json_object *r = make_instances(json_object_get(m), depth + 1);
            if (r != m)
                json_object_array_put_idx(v, i, r);
            else
                json_object_put(r);
        }
    }
    return v;
}

static json_object *expand_or_fail(rctx_t *c, json_object *tmpl, int line)
{
    json_object *out = NULL;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (mc_vars_expand(&c->vars, tmpl, &out, &eb) != MC_OK) {
        check(c, "harness/step", 0, eb.msg, NULL, NULL, NULL, 0, line);
        return NULL;
    }
    return make_instances(out, 0);
}

static int step_request(rctx_t *c, json_object *st, int line)
{
    const char *method = mc_json_get_str(st, "request");
    json_object *params = NULL;
    mc_msg_t resp;
    /* A scenario's own initialize gets the start-up budget, like the runner's. */
    int timeout = mc_json_get_int(st, "timeout",
                                  strcmp(method, "initialize") == 0 ? startup_budget(c)
                                                                    : c->step_timeout);
    int rc;
    char what[160];

    if (mc_json_get(st, "params") != NULL) {
        params = expand_or_fail(c, mc_json_get(st, "params"), line);
        if (params == NULL)
            return 0;
    }
    if (mc_json_get(st, "progress") != NULL && json_object_get_boolean(mc_json_get(st, "progress"))) {
        json_object *meta = json_object_new_object();
        char tok[48];
        if (params == NULL)
            params = json_object_new_object();
        snprintf(tok, sizeof(tok), "mcpcheck-progress-%d", ++c->tokens);
        json_object_object_add(meta, "progressToken", json_object_new_string(tok));
        json_object_object_add(params, "_meta", meta);
        mc_vars_set(&c->vars, "progress_token", json_object_object_get(meta, "progressToken"));
    }
    snprintf(what, sizeof(what), "%s", method);
    if (mc_json_get_str(st, "async") != NULL) {
        int64_t id;
        json_object *idv;
        rc = mc_session_send_request(&c->s, method, params, &id, time_left(c, timeout));
        if (rc != MC_OK) {
            target_gone(c, rc, "sending a request");
            return -1;
        }
        idv = json_object_new_int64(id);
        mc_vars_set(&c->vars, mc_json_get_str(st, "async"), idv);
        json_object_put(idv);
        return 0;
    }
    /* "retry": false keeps a stateless input_required answer for the step
     * to judge, instead of answering it and retrying. */
    c->s.input_retry_off = mc_json_get(st, "retry") != NULL &&
                           !json_object_get_boolean(mc_json_get(st, "retry"));
    rc = mc_session_request(&c->s, method, params, time_left(c, timeout), &resp);
    c->s.input_retry_off = 0;
    drain_session(c);
    if (rc == MC_ETIMEOUT) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%s: no response within %d ms", method, timeout);
        check(c, step_check(c, st), 0, msg, "a response", "(none)", "", 0, line);
        return 0;
    }
    if (rc != MC_OK) {
        char doing[200];
        snprintf(doing, sizeof(doing), "the client waited for the answer to %.120s", method);
        target_gone(c, rc, doing);
        return -1;
    }
    judge(c, st, &resp, what, line, resp_tx_seq(c, &resp));
    mc_msg_free(&resp);
    return 0;
}

/*
 * Judges what waiting for one response gave (await and raw steps). With
 * none, a response breaks the step's check and silence keeps it; otherwise
 * silence breaks it and a response is judged by the step's expectations.
 * resp is released. Returns -1 when the target is gone (the scenario is
 * ERROR), else 0.
 */
static int judge_outcome(rctx_t *c, json_object *st, int line, int rc, mc_msg_t *resp, int none,
                         const char *label, const char *doing, const char *answered_msg,
                         int window)
{
    if (rc != MC_OK && rc != MC_ETIMEOUT) {
        target_gone(c, rc, doing);
        return -1;
    }
    if (none) {
        if (rc == MC_OK) {
            char act[512];
            compact(resp->root, act, sizeof(act));
            check(c, step_check(c, st), 0, answered_msg, "no response", act, "",
                  resp_tx_seq(c, resp), line);
            mc_msg_free(resp);
        } else {
            check(c, step_check(c, st), 1, NULL, NULL, NULL, NULL, 0, line);
        }
        return 0;
    }
    if (rc == MC_ETIMEOUT) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%.100s: no response within %d ms", label, window);
        check(c, step_check(c, st), 0, msg, "a response", "(none)", "", 0, line);
        return 0;
    }
    judge(c, st, resp, label, line, resp_tx_seq(c, resp));
    mc_msg_free(resp);
    return 0;
}

static int step_await(rctx_t *c, json_object *st, int line)
{
    const char *var = mc_json_get_str(st, "await");
    json_object *idv = mc_vars_get(&c->vars, var, NULL);
    json_object *expect = mc_json_get(st, "expect");
    int timeout = mc_json_get_int(st, "timeout", c->step_timeout);
    int none = expect != NULL && json_object_is_type(expect, json_type_string) &&
               strcmp(json_object_get_string(expect), "none") == 0;
    mc_msg_t resp;
    int rc;

    if (idv == NULL) {
        check(c, "harness/step", 0, "await: the async request was never sent", NULL, NULL, NULL,
              0, line);
        return 0;
    }
    if (none && timeout == c->step_timeout)
        timeout = MC_RUNNER_QUIET_WINDOW_MS;
    rc = mc_session_await(&c->s, json_object_get_int64(idv), time_left(c, timeout), &resp);
    drain_session(c);
    {
        char label[96];
        snprintf(label, sizeof(label), "the %.60s request", var);
        return judge_outcome(c, st, line, rc, &resp, none, label, "awaiting a response",
                             "a response arrived for a cancelled request", timeout);
    }
}

static int step_notify(rctx_t *c, json_object *st, int line)
{
    json_object *params = NULL;
    int rc;

    if (mc_json_get(st, "params") != NULL) {
        params = expand_or_fail(c, mc_json_get(st, "params"), line);
        if (params == NULL)
            return 0;
    }
    rc = mc_session_notify(&c->s, mc_json_get_str(st, "notify"), params, time_left(c, c->step_timeout));
    if (rc != MC_OK) {
        target_gone(c, rc, "sending a notification");
        return -1;
    }
    return 0;
}

/* True when the step says "related": only messages the last message sent
 * may have caused count, i.e. ones that arrived after it and, over HTTP, not
 * on the GET stream (basic/transports: its messages "SHOULD be unrelated to
 * any concurrently-running JSON-RPC request from the client"). */
static int step_related(json_object *st)
{
    json_object *v = mc_json_get(st, "related");

    return v != NULL && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

/* Waits for a notification or server request matching the step (with
 * "related", only one the last message sent may have caused). */
static int step_expect(rctx_t *c, json_object *st, int line, int is_request)
{
    const char *method = mc_json_get_str(st, is_request ? "expect_request" : "expect_notification");
    inbox_t *box = is_request ? &c->reqs : &c->notes;
    int within = mc_json_get_int(st, "within", MC_RUNNER_NOTIFY_WITHIN_MS);
    int64_t until = mc_now_ms() + within;
    int related = step_related(st);
    uint64_t after = related ? c->mark_in : 0;
    inbox_item_t *it;
    char what[160];
    int rc;

    snprintf(what, sizeof(what), "%s", method);
    for (;;) {
        int left;
        it = inbox_find(c, box, st, method, after, related);
        if (it != NULL)
            break;
        left = time_left(c, (int)(until - mc_now_ms()));
        if (left <= 0 || c->s.eof)
            break;
        rc = mc_session_poll_once(&c->s, left);
        drain_session(c);
        if (rc == MC_EEOF)
            break;
        if (wait_ok(c, rc, "waiting for a message") != 0)
            return -1;
    }
    if (it == NULL) {
        char msg[240];
        snprintf(msg, sizeof(msg), "no %s %s arrived within %d ms", method,
                 is_request ? "request" : "notification", within);
        check(c, step_check(c, st), 0, msg, method, "(nothing)", "", 0, line);
        return 0;
    }
    it->taken = 1;
    judge(c, st, &it->msg, what, line, it->tx_seq);
    return 0;
}

/*
 * Holds when no notification (is_request = 0) or server request with the
 * step's method (and "where") arrives after the last message sent, for the
 * step's "for" window (with "related", one on the HTTP GET stream does not
 * count).
 */
static int step_expect_none(rctx_t *c, json_object *st, int line, int is_request)
{
    const char *method =
        mc_json_get_str(st, is_request ? "expect_no_request" : "expect_no_notification");
    inbox_t *box = is_request ? &c->reqs : &c->notes;
    int window = mc_json_get_int(st, "for", MC_RUNNER_QUIET_WINDOW_MS);
    int64_t until = mc_now_ms() + window;
    uint64_t after = c->mark_in;
    inbox_item_t *it = NULL;
    int rc;

    for (;;) {
        int left;
        it = inbox_find(c, box, st, method, after, step_related(st));
        if (it != NULL)
            break;
        left = time_left(c, (int)(until - mc_now_ms()));
        if (left <= 0 || c->s.eof)
            break;
        rc = mc_session_poll_once(&c->s, left);
        drain_session(c);
        if (rc == MC_EEOF)
            break;
        if (wait_ok(c, rc, "watching for a message") != 0)
            return -1;
    }
    if (it != NULL) {
        char msg[300], act[512];
        compact(it->msg.root, act, sizeof(act));
        snprintf(msg, sizeof(msg), "unexpected %s %s within %d ms", it->msg.method,
                 is_request ? "request" : "notification", window);
        check(c, step_check(c, st), 0, msg, is_request ? "no such request" : "no such notification",
              act, "", it->tx_seq, line);
        it->taken = 1;
    } else {
        check(c, step_check(c, st), 1, NULL, NULL, NULL, NULL, 0, line);
    }
    return 0;
}

/* Asserts on a value (usually a captured variable); paths start at it. */
static int step_value(rctx_t *c, json_object *st, int line)
{
    json_object *v = expand_or_fail(c, mc_json_get(st, "value"), line);

    if (v == NULL && mc_json_get(st, "value") != NULL && !json_object_is_type(mc_json_get(st, "value"), json_type_null))
        return 0; /* expand_or_fail recorded why */
    run_asserts(c, mc_json_get(st, "assert"), v, step_check(c, st), "value", line, 0);
    json_object_put(v);
    return 0;
}

static int step_answer(rctx_t *c, json_object *st, int line)
{
    json_object *a = json_object_new_object();
    json_object *with = mc_json_get(st, "with"), *err = mc_json_get(st, "error");

    if (with != NULL) {
        json_object *w = expand_or_fail(c, with, line);
        if (w == NULL) {
            json_object_put(a);
            return 0;
        }
        json_object_object_add(a, "with", w);
    } else {
        json_object *e = NULL;
        json_object_deep_copy(err, &e, NULL); /* never share scenario objects */
        json_object_object_add(a, "error", e);
    }
    json_object_object_add(c->answers, mc_json_get_str(st, "answer"), a);
    return 0;
}

/* Identity of a list item, for duplicate detection. */
static void item_key(json_object *item, const char *key, char *out, size_t n)
{
    json_object *k = mc_json_get(item, key);

    if (k != NULL && json_object_is_type(k, json_type_string))
        snprintf(out, n, "%s", json_object_get_string(k));
    else
        compact(item, out, n);
}

/* One walk of a paginated list. Returns the pages' item keys joined per page
 * (for the stability comparison) in *sig and all items in *all. */
static int walk_list(rctx_t *c, json_object *st, const char *method, const char *items,
                     const char *key, int max_pages, int line, json_object **all, char **sig,
                     int *dups, char *dup_key, size_t dup_n, int do_asserts)
{
    json_object *cursor = NULL, *acc = json_object_new_array();
    size_t sig_len = 0, sig_cap = 256;
    char *s = malloc(sig_cap);
    int pages = 0, rc = 0;

    *dups = 0;
    if (acc == NULL || s == NULL) {
        json_object_put(acc);
        free(s);
        return -1;
    }
    s[0] = '\0';
    for (;;) {
        json_object *params = NULL, *result, *list, *next;
        mc_msg_t resp;
        char what[200];

        if (mc_json_get(st, "params") != NULL) {
            params = expand_or_fail(c, mc_json_get(st, "params"), line);
            if (params == NULL) {
                rc = 1;
                break;
            }
        } else {
            params = json_object_new_object();
        }
        if (cursor != NULL)
            json_object_object_add(params, "cursor", json_object_get(cursor));
        snprintf(what, sizeof(what), "%s page %d", method, pages + 1);
        rc = mc_session_request(&c->s, method, params, time_left(c, c->step_timeout), &resp);
        drain_session(c);
        if (rc == MC_ETIMEOUT) {
            char msg[240];
            snprintf(msg, sizeof(msg), "%s: no response within %d ms", what, c->step_timeout);
            check(c, "pagination/terminates", 0, msg, "a page", "(none)", "", 0, line);
            rc = 1;
            break;
        }
        if (rc != MC_OK) {
            target_gone(c, rc, what);
            rc = -1;
            break;
        }
        pages++;
        if (resp.kind != MC_MSG_RESULT) {
            char msg[512];
            snprintf(msg, sizeof(msg), "%.190s failed with error %lld: %.190s", what,
                     (long long)resp.error_code, resp.error_message);
            check(c, "pagination/terminates", 0, msg, "a page", "an error", "",
                  resp_tx_seq(c, &resp), line);
            mc_msg_free(&resp);
            rc = 1;
            break;
        }
        result = resp.result;
        if (do_asserts)
            run_asserts(c, mc_json_get(st, "assert"), resp.root, step_check(c, st), what, line,
                        resp_tx_seq(c, &resp));
        list = mc_json_get(result, items);
        if (list != NULL && json_object_is_type(list, json_type_array)) {
            size_t i, n = json_object_array_length(list);
            for (i = 0; i < n; i++) {
                json_object *it = json_object_array_get_idx(list, i);
                char k[512];
                size_t j, m = json_object_array_length(acc), kl;
                item_key(it, key, k, sizeof(k));
                for (j = 0; j < m; j++) {
                    char k2[512];
                    item_key(json_object_array_get_idx(acc, j), key, k2, sizeof(k2));
                    if (strcmp(k, k2) == 0) {
                        if (*dups == 0)
                            snprintf(dup_key, dup_n, "%s (page %d)", k, pages);
                        (*dups)++;
                        break;
                    }
                }
                json_object_array_add(acc, json_object_get(it));
                kl = strlen(k);
                if (sig_len + kl + 3 > sig_cap) {
                    char *ns;
                    while (sig_len + kl + 3 > sig_cap)
                        sig_cap *= 2;
                    ns = realloc(s, sig_cap);
                    if (ns == NULL) {
                        rc = -1;
                        break;
                    }
                    s = ns;
                }
                memcpy(s + sig_len, k, kl);
                sig_len += kl;
                s[sig_len++] = '\x1f';
                s[sig_len] = '\0';
            }
        }
        next = mc_json_get(result, "nextCursor");
        {
            /* The page boundary only: two walks of an unchanged list must give
             * the same items on the same pages; the cursor strings may differ
             * (an opaque cursor may carry a nonce; the reading of "stable
             * cursors" is in the check registry). */
            if (sig_len + 3 > sig_cap) {
                char *ns = realloc(s, sig_cap * 2);
                if (ns != NULL) {
                    s = ns;
                    sig_cap *= 2;
                }
            }
            if (sig_len + 3 <= sig_cap) {
                s[sig_len++] = '\x1e';
                s[sig_len] = '\0';
            }
        }
        json_object_put(cursor);
        cursor = NULL;
        if (next == NULL || json_object_is_type(next, json_type_null)) {
            mc_msg_free(&resp);
            rc = 0;
            break;
        }
        /* An empty-string cursor is still a cursor (the spec does not make
         * "" special): follow it. The page cap guards against loops. */
        cursor = json_object_get(next);
        mc_msg_free(&resp);
        if (pages >= max_pages) {
            char msg[200], act[64];
            snprintf(msg, sizeof(msg), "%s: still returns nextCursor after %d pages", method,
                     pages);
            snprintf(act, sizeof(act), "more than %d pages", max_pages);
            check(c, "pagination/terminates", 0, msg, "a last page without nextCursor", act, "",
                  c->seq_all, line);
            rc = 1;
            break;
        }
    }
    json_object_put(cursor);
    *all = acc;
    *sig = s;
    return rc;
}

static int step_paginate(rctx_t *c, json_object *st, int line)
{
    const char *method = mc_json_get_str(st, "paginate");
    const char *items = mc_json_get_str(st, "items");
    const char *key = mc_json_get_str(st, "key");
    int max_pages = mc_json_get_int(st, "max_pages", MC_RUNNER_MAX_PAGES);
    json_object *all1 = NULL, *all2 = NULL;
    char *sig1 = NULL, *sig2 = NULL, dupk[600] = "", dupk2[600];
    int rc, dups = 0, dups2 = 0;

    if (key == NULL)
        key = strcmp(items, "resources") == 0           ? "uri"
              : strcmp(items, "resourceTemplates") == 0 ? "uriTemplate"
                                                        : "name";
    rc = walk_list(c, st, method, items, key, max_pages, line, &all1, &sig1, &dups, dupk,
                   sizeof(dupk), 1);
    if (rc == 0) {
        check(c, "pagination/terminates", 1, NULL, NULL, NULL, NULL, 0, line);
        if (dups > 0) {
            char msg[800];
            snprintf(msg, sizeof(msg), "%s: %d item%s repeated across pages, first %s", method,
                     dups, dups == 1 ? "" : "s", dupk);
            check(c, "pagination/no-duplicates", 0, msg, "each item once", dupk, items,
                  c->seq_all, line);
        } else {
            check(c, "pagination/no-duplicates", 1, NULL, NULL, NULL, NULL, 0, line);
        }
        rc = walk_list(c, st, method, items, key, max_pages, line, &all2, &sig2, &dups2, dupk2,
                       sizeof(dupk2), 0);
        if (rc == 0) {
            if (strcmp(sig1, sig2) != 0)
                check(c, "pagination/stable", 0,
                      "a second walk of the unchanged list gave different pages",
                      "the same pages", "different pages", items, c->seq_all, line);
            else
                check(c, "pagination/stable", 1, NULL, NULL, NULL, NULL, 0, line);
        }
    }
    if (mc_json_get_str(st, "capture") != NULL && all1 != NULL)
        mc_vars_set(&c->vars, mc_json_get_str(st, "capture"), all1);
    json_object_put(all1);
    json_object_put(all2);
    free(sig1);
    free(sig2);
    return rc < 0 ? -1 : 0;
}

static int step_for_each(rctx_t *c, json_object *st, const char *ptr, int line, int depth)
{
    json_object *list = expand_or_fail(c, mc_json_get(st, "for_each"), line);
    int max = mc_json_get_int(st, "max", MC_RUNNER_MAX_FOR_EACH);
    size_t i, n;
    char sub[512];
    int rc = 0;

    if (list == NULL)
        return 0;
    if (!json_object_is_type(list, json_type_array)) {
        check(c, "harness/step", 0, "for_each: the value is not an array", "an array", NULL,
              NULL, 0, line);
        json_object_put(list);
        return 0;
    }
    n = json_object_array_length(list);
    if (n > (size_t)max)
        n = (size_t)max;
    mc_str_join(sub, sizeof(sub), ptr, "/steps");
    for (i = 0; i < n && rc == 0; i++) {
        json_object *item = json_object_array_get_idx(list, i);
        /* "where" keeps the elements its assertions hold for (paths start
         * at the element). */
        if (mc_json_get(st, "where") != NULL && !where_ok(c, st, item))
            continue;
        mc_vars_set(&c->vars, mc_json_get_str(st, "as"), item);
        rc = run_steps(c, mc_json_get(st, "steps"), sub, depth + 1);
    }
    json_object_put(list);
    return rc;
}

/*
 * Judges the answer to a batch against the batch sent: one array holding
 * exactly one response per request of the batch, by id, and none for its
 * notifications. Fills why (empty when it holds).
 */
static void judge_batch(json_object *sent, json_object *got, char *why, size_t n)
{
    size_t i, k, ns = json_object_array_length(sent), ng = json_object_array_length(got);
    size_t requests = 0;

    why[0] = '\0';
    for (i = 0; i < ns; i++) {
        json_object *rq = json_object_array_get_idx(sent, i), *id = NULL;
        size_t seen = 0;
        if (!json_object_is_type(rq, json_type_object) || mc_json_get(rq, "method") == NULL ||
            !json_object_object_get_ex(rq, "id", &id))
            continue; /* a notification (or a malformed member) */
        requests++;
        for (k = 0; k < ng; k++) {
            json_object *a = json_object_array_get_idx(got, k), *aid = NULL;
            if (json_object_object_get_ex(a, "id", &aid) && aid != NULL &&
                mc_jsonrpc_id_equal(aid, id))
                seen++;
        }
        if (seen != 1) {
            snprintf(why, n, "the batch answer holds %zu responses to request %s (one expected)",
                     seen, mc_json_compact(id, NULL));
            return;
        }
    }
    if (ng != requests)
        snprintf(why, n, "the batch answer holds %zu members for %zu requests (notifications "
                         "take no answer)",
                 ng, requests);
}

/* A raw step whose line is a batch: waits for the array that answers it
 * (over HTTP, the answers may also come one by one on the POST's stream;
 * over stdio that is named as what it is). */
static int step_raw_batch(rctx_t *c, json_object *st, int line, const char *raw)
{
    int within = mc_json_get_int(st, "within", c->step_timeout);
    json_object *sent = NULL, *one_by_one = NULL;
    mc_msg_t resp;
    char why[300];
    int rc;

    if (mc_json_parse(raw, strlen(raw), 0, &sent, NULL) != MC_OK ||
        !json_object_is_type(sent, json_type_array)) {
        json_object_put(sent);
        check(c, "harness/step", 0, "the batch is not a JSON array", NULL, NULL, NULL, 0, line);
        return 0;
    }
    memset(&resp, 0, sizeof(resp));
    rc = mc_session_raw_batch(&c->s, raw, strlen(raw), time_left(c, within), &resp, &one_by_one);
    drain_session(c);
    if (rc != MC_OK && rc != MC_ETIMEOUT) {
        json_object_put(one_by_one);
        json_object_put(sent);
        target_gone(c, rc, "sending a batch");
        return -1;
    }
    if (resp.root == NULL && one_by_one != NULL && !c->http_on) {
        /* Over stdio a batch is answered by one array (JSON-RPC 2.0 section 6). */
        char act[512];
        compact(one_by_one, act, sizeof(act));
        snprintf(why, sizeof(why), "the batch was answered one response at a time, not by one "
                                   "array");
        check(c, step_check(c, st), 0, why, "one array of responses", act, "", 0, line);
    } else if (resp.root == NULL && one_by_one != NULL) {
        /* Over Streamable HTTP an SSE stream's responses "MAY be batched"
         * (2025-03-26 basic/transports): one by one is an answer too. */
        judge_batch(sent, one_by_one, why, sizeof(why));
        if (why[0] != '\0') {
            char act[512];
            compact(one_by_one, act, sizeof(act));
            check(c, step_check(c, st), 0, why, "one response per request of the batch", act, "",
                  0, line);
        } else {
            check(c, step_check(c, st), 1, NULL, NULL, NULL, NULL, 0, line);
        }
        run_asserts(c, mc_json_get(st, "assert"), one_by_one, step_check(c, st),
                    "the batch's answers", line, 0);
    } else if (rc == MC_ETIMEOUT) {
        snprintf(why, sizeof(why), "no array answered the batch within %d ms", within);
        check(c, step_check(c, st), 0, why, "one array of responses", "(none)", "", 0, line);
    } else {
        char act[512];
        judge_batch(sent, resp.root, why, sizeof(why));
        compact(resp.root, act, sizeof(act));
        if (why[0] != '\0')
            check(c, step_check(c, st), 0, why, "one response per request of the batch", act,
                  "", resp_tx_seq(c, &resp), line);
        else
            check(c, step_check(c, st), 1, NULL, NULL, NULL, NULL, 0, line);
        run_asserts(c, mc_json_get(st, "assert"), resp.root, step_check(c, st), "the batch answer",
                    line, resp_tx_seq(c, &resp));
        mc_msg_free(&resp);
    }
    json_object_put(one_by_one);
    json_object_put(sent);
    return 0;
}

static int step_raw(rctx_t *c, json_object *st, int line)
{
    json_object *rawv = expand_or_fail(c, mc_json_get(st, "raw"), line);
    json_object *expect = mc_json_get(st, "expect");
    json_object *expect_id = mc_json_get(st, "expect_id");
    json_object *parsed = NULL, *idv = NULL, *id_expanded = NULL;
    int none = expect != NULL && json_object_is_type(expect, json_type_string) &&
               strcmp(json_object_get_string(expect), "none") == 0;
    int within = mc_json_get_int(st, "within", none ? MC_RUNNER_QUIET_WINDOW_MS : c->step_timeout);
    const char *raw;
    mc_msg_t resp;
    int rc;

    if (rawv == NULL)
        return 0;
    /* expect_id may name a captured id ("${call}"), like any other value. */
    if (expect_id != NULL && json_object_is_type(expect_id, json_type_string)) {
        id_expanded = expand_or_fail(c, expect_id, line);
        if (id_expanded == NULL) {
            json_object_put(rawv);
            return 0;
        }
        expect_id = id_expanded;
    }
    raw = json_object_get_string(rawv);
    if (expect != NULL && json_object_is_type(expect, json_type_string) &&
        strcmp(json_object_get_string(expect), "batch") == 0) {
        rc = step_raw_batch(c, st, line, raw);
        json_object_put(id_expanded);
        json_object_put(rawv);
        return rc;
    }
    /* By default, wait for the id the raw line carries (if readable). */
    if (expect_id == NULL && mc_json_parse(raw, strlen(raw), 0, &parsed, NULL) == MC_OK &&
        json_object_is_type(parsed, json_type_object) &&
        json_object_object_get_ex(parsed, "id", &idv) && mc_jsonrpc_id_valid(idv))
        expect_id = idv;
    if (expect_id != NULL && json_object_is_type(expect_id, json_type_null))
        expect_id = NULL;
    rc = mc_session_raw_request(&c->s, raw, strlen(raw), expect_id, time_left(c, within), &resp);
    drain_session(c);
    json_object_put(parsed);
    json_object_put(id_expanded);
    json_object_put(rawv);
    return judge_outcome(c, st, line, rc, &resp, none, "raw input", "sending raw input",
                         "the server answered a message that takes no answer", within);
}

/* An HTTP-level step of a transport scenario (scenario/httprun.h). */
static int step_http(rctx_t *c, json_object *st, int line)
{
    mc_httprun_outcome_t oc;
    const char *cid = step_check(c, st);
    json_object *ex;

    if (!c->http_on) {
        check(c, "harness/step", 0, "an http step needs --url", NULL, NULL, NULL, 0, line);
        return -1;
    }
    /* Variables and roles (${role:...}) are filled in the whole step. */
    ex = expand_or_fail(c, st, line);
    if (ex == NULL)
        return -1;
    c->seq_all++;
    if (mc_httprun_step(&c->http, ex, c->version, time_left(c, c->step_timeout), c->res,
                        c->seq_all, mc_now_ms() - c->t0, &oc) != MC_OK) {
        check(c, "harness/step", 0, oc.message, NULL, NULL, NULL, c->seq_all, line);
        json_object_put(ex);
        return -1;
    }
    json_object_put(ex);
    check(c, cid, oc.pass, oc.pass ? (oc.not_applicable ? oc.message : NULL) : oc.message,
          oc.expected[0] ? oc.expected : NULL, oc.actual[0] ? oc.actual : NULL, NULL,
          c->seq_all, line);
    return 0;
}

static int run_step(rctx_t *c, json_object *st, const char *ptr, int depth)
{
    int line = mc_scenario_line(c->sc, ptr);

    if (c->o->stop != NULL && *c->o->stop) {
        mc_sresult_set(c->res, MC_ERROR, "the run was interrupted");
        return -1;
    }
    if (mc_now_ms() >= c->deadline) {
        mc_sresult_set(c->res, MC_ERROR, "the scenario ran past its %d ms time limit",
                       c->o->scenario_timeout_ms ? c->o->scenario_timeout_ms
                                                 : MC_RUNNER_SCENARIO_TIMEOUT_MS);
        return -1;
    }
    mc_session_begin_step(&c->s);
    if (mc_json_get(st, "request") != NULL)
        return step_request(c, st, line);
    if (mc_json_get(st, "notify") != NULL)
        return step_notify(c, st, line);
    if (mc_json_get(st, "expect_notification") != NULL)
        return step_expect(c, st, line, 0);
    if (mc_json_get(st, "expect_request") != NULL)
        return step_expect(c, st, line, 1);
    if (mc_json_get(st, "expect_no_notification") != NULL)
        return step_expect_none(c, st, line, 0);
    if (mc_json_get(st, "answer") != NULL)
        return step_answer(c, st, line);
    if (mc_json_get(st, "expect_no_request") != NULL)
        return step_expect_none(c, st, line, 1);
    if (mc_json_get(st, "value") != NULL)
        return step_value(c, st, line);
    if (mc_json_get(st, "paginate") != NULL)
        return step_paginate(c, st, line);
    if (mc_json_get(st, "for_each") != NULL)
        return step_for_each(c, st, ptr, line, depth);
    if (mc_json_get(st, "raw") != NULL)
        return step_raw(c, st, line);
    if (mc_json_get(st, "await") != NULL)
        return step_await(c, st, line);
    if (mc_json_get(st, "http") != NULL)
        return step_http(c, st, line);
    if (mc_json_get(st, "sleep") != NULL) {
        int ms = time_left(c, mc_json_get_int(st, "sleep", 0));
        int rc = mc_session_poll(&c->s, ms);
        drain_session(c);
        return rc == MC_EEOF ? 0 : wait_ok(c, rc, "waiting");
    }
    return 0;
}

static int run_steps(rctx_t *c, json_object *steps, const char *ptr, int depth)
{
    size_t i, n = json_object_array_length(steps);
    char sub[512];

    for (i = 0; i < n; i++) {
        snprintf(sub, sizeof(sub), "%s/%zu", ptr, i);
        if (run_step(c, json_object_array_get_idx(steps, i), sub, depth) != 0)
            return -1;
    }
    return 0;
}

/* --- the scenario --------------------------------------------------------- */

/* True when the server's capabilities hold the dotted path (e.g.
 * "resources.subscribe": an object member, or a true boolean). */
static int server_has(json_object *caps, const char *path)
{
    char buf[128];
    char *seg, *dot;
    json_object *cur = caps;

    snprintf(buf, sizeof(buf), "%s", path);
    for (seg = buf; seg != NULL; seg = dot) {
        dot = strchr(seg, '.');
        if (dot != NULL)
            *dot++ = '\0';
        cur = mc_json_get(cur, seg);
        if (cur == NULL)
            return 0;
    }
    if (json_object_is_type(cur, json_type_boolean))
        return json_object_get_boolean(cur);
    return !json_object_is_type(cur, json_type_null);
}

static void wire_to_checks(rctx_t *c)
{
    size_t i;

    for (i = 0; i < c->j.w.n_checks; i++) {
        size_t k;
        int failed = 0;
        for (k = 0; k < c->j.w.n_findings; k++) {
            const mc_wire_finding_t *f = &c->j.w.findings[k];
            if (strcmp(f->check, c->j.w.check_ids[i]) != 0)
                continue;
            failed = 1;
            check(c, f->check, 0, f->detail, NULL, NULL, NULL, f->seq, 0);
            /* The spec sets no size limit (wire/message-size is INFO), but a
             * line the harness could not read leaves the scenario unjudged. */
            if (strcmp(f->check, "wire/message-size") == 0)
                mc_sresult_set(c->res, MC_ERROR,
                               "a line over the harness's %u-byte message limit could not be "
                               "judged (message %llu)",
                               (unsigned)MC_MAX_MESSAGE_SIZE, (unsigned long long)f->seq);
        }
        if (!failed)
            check(c, c->j.w.check_ids[i], 1, NULL, NULL, NULL, NULL, 0, 0);
    }
}

static void set_role_vars(rctx_t *c)
{
    json_object *v;

    if (c->o->roles != NULL) {
        json_object_object_foreach(c->o->roles, role, val)
        {
            char name[160];
            snprintf(name, sizeof(name), "role:%s", role);
            mc_vars_set(&c->vars, name, val);
        }
    }
    v = json_object_new_string(c->version);
    mc_vars_set(&c->vars, "version", v);
    json_object_put(v);
    v = json_object_new_array();
    if (v != NULL) {
        const char *const *sv = c->o->server_versions;
        for (sv = sv != NULL ? sv : mc_version_names(); *sv != NULL; sv++)
            if (c->o->server_versions != NULL || mc_version_has(*sv, MC_VF_INITIALIZE))
                json_object_array_add(v, json_object_new_string(*sv));
        mc_vars_set(&c->vars, "server_versions", v);
        json_object_put(v);
    }
}

/*
 * Resolves the scenario's roles against what the server lists (after the
 * capability gate). Sets ${role:NAME} to each resolved value. Returns 0
 * when every role is offered; otherwise sets the verdict (NOT-VERIFIED for
 * a fixture the server does not offer, SKIP for a capability it does not
 * declare) and returns -1.
 */
static int resolve_roles(rctx_t *c)
{
    mc_fixture_opts_t fo;
    mc_offer_t offer;
    size_t i;
    int ret = 0;

    if (c->sc->n_roles == 0)
        return 0;
    memset(&fo, 0, sizeof(fo));
    fo.roles = c->o->roles;
    fo.safe_tools = c->o->safe_tools;
    fo.call_tools = c->o->call_tools;
    fo.server_caps = c->s.server_caps;
    fo.timeout_ms = c->step_timeout;
    mc_offer_init(&offer);
    for (i = 0; i < c->sc->n_roles && ret == 0; i++) {
        json_object *val = NULL;
        char why[512], name[160];
        int srv_rc = MC_OK;
        mc_role_status_t st = mc_fixture_resolve(&c->s, &offer, &fo, c->sc->roles[i], &val, why,
                                                 sizeof(why), &srv_rc);
        drain_session(c);
        switch (st) {
        case MC_ROLE_OFFERED:
            snprintf(name, sizeof(name), "role:%s", c->sc->roles[i]);
            mc_vars_set(&c->vars, name, val);
            json_object_put(val);
            break;
        case MC_ROLE_NO_CAPABILITY:
            mc_sresult_set(c->res, MC_SKIP, "%s", why);
            ret = -1;
            break;
        case MC_ROLE_UNKNOWN:
            if (srv_rc == MC_EEOF || srv_rc == MC_EEXITED || srv_rc == MC_EFLOOD ||
                srv_rc == MC_EINTR || srv_rc == MC_ETOOBIG) {
                target_gone(c, srv_rc, "listing fixtures");
                ret = -1;
                break;
            }
            /* fall through */
        default:
            mc_sresult_set(c->res, MC_NOT_VERIFIED, "%s", why);
            ret = -1;
        }
    }
    mc_offer_free(&offer);
    return ret;
}

/*
 * Reports, once per suite, a target that had to be signalled to stop (the
 * shutdown sequence is the client's SHOULD: an INFO observation, not a
 * failure), and remembers it so that later runs do not wait out the same
 * grace again.
 */
static void note_shutdown(rctx_t *c, int sig, int stdin_grace, int term_grace)
{
    mc_runner_shared_t *sh = c->o->shared;
    char msg[300];
    int expected = 0;

    if (sig == 0)
        return;
    if (sh != NULL) {
        sh->ignores_eof = 1;
        if (sig == SIGKILL)
            sh->ignores_term = 1;
    }
    if (sig == SIGKILL)
        snprintf(msg, sizeof(msg),
                 "the server did not exit within %d ms of its stdin closing, nor within %d ms "
                 "of SIGTERM; it was killed with SIGKILL",
                 stdin_grace, term_grace);
    else
        snprintf(msg, sizeof(msg),
                 "the server did not exit within %d ms of its stdin closing; it was stopped "
                 "with SIGTERM",
                 stdin_grace);
    if (sh == NULL || atomic_compare_exchange_strong(&sh->shutdown_noted, &expected, 1))
        check(c, "lifecycle/shutdown/stdio", 0, msg, "exit after stdin closes",
              sig == SIGKILL ? "ignored stdin EOF and SIGTERM" : "ignored stdin EOF", "", 0, 0);
}

static void finish_target(rctx_t *c)
{
    char tail[4096], how[200];
    int sig, stdin_grace = MC_SHUTDOWN_STDIN_GRACE_MS, term_grace = MC_SHUTDOWN_TERM_GRACE_MS;
    mc_runner_shared_t *sh = c->o->shared;
    int learned = 0;

    if (c->http_on) {
        mc_httprun_finish(&c->http, c->res, c->seq_all, mc_now_ms() - c->t0);
        c->http_on = 0;
        return;
    }
    if (!c->started)
        return;
    /* A grace the target is known to ignore is not waited out again. */
    if (sh != NULL && sh->ignores_eof) {
        stdin_grace = MC_SHUTDOWN_LEARNED_GRACE_MS;
        learned = 1;
    }
    if (sh != NULL && sh->ignores_term)
        term_grace = MC_SHUTDOWN_LEARNED_GRACE_MS;
    /* An interrupted run ends within a second; a second interrupt at once. */
    if (c->o->stop != NULL && *c->o->stop) {
        stdin_grace = term_grace = *c->o->stop > 1 ? 0 : MC_SHUTDOWN_LEARNED_GRACE_MS;
        learned = 1;
    }
    sig = mc_stdio_stop(&c->t, stdin_grace, term_grace);
    if (!learned && c->session_ok)
        note_shutdown(c, sig, stdin_grace, term_grace);
    mc_proc_describe(&c->t.proc, how, sizeof(how));
    c->res->exit_desc = strdup(how);
    if (mc_ring_copy(&c->t.proc.err, tail, sizeof(tail)) > 0)
        c->res->stderr_tail = strdup(tail);
    /* A crash is never a pass, whatever the steps saw. */
    if (sig == 0 && c->t.proc.reaped && WIFSIGNALED(c->t.proc.status))
        mc_sresult_set(c->res, MC_ERROR, "the server crashed: %s", how);
    mc_stdio_free(&c->t);
    c->started = 0;
}

int mc_runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *o, mc_scenario_result_t *out)
{
    rctx_t *c;
    mc_spawn_opts_t so;
    mc_session_opts_t sopts;
    mc_link_t link;
    mc_errbuf_t eb;
    size_t i;
    int rc;
    const char *want_version = sc->client_version ? sc->client_version : o->version;

    rc = mc_sresult_init(out, sc, want_version);
    if (rc != MC_OK)
        return rc;
    c = calloc(1, sizeof(*c));
    if (c == NULL)
        return MC_ENOMEM;
    c->sc = sc;
    c->o = o;
    c->res = out;
    c->t0 = mc_now_ms();
    c->deadline = c->t0 + (o->scenario_timeout_ms ? o->scenario_timeout_ms
                                                  : MC_RUNNER_SCENARIO_TIMEOUT_MS);
    c->step_timeout = o->step_timeout_ms ? o->step_timeout_ms : MC_RUNNER_STEP_TIMEOUT_MS;
    snprintf(c->version, sizeof(c->version), "%s", want_version);
    mc_vars_init(&c->vars);

    /* A version without a feature the scenario needs: SKIP, without
     * starting the server. */
    {
        char why[200];
        if (mc_scenario_version_gap(sc, want_version, why, sizeof(why))) {
            mc_sresult_set(out, MC_SKIP, "%s", why);
            goto done;
        }
        if (o->url != NULL && mc_version_missing(want_version, MC_VF_STREAMABLE_HTTP) != 0) {
            mc_sresult_set(out, MC_SKIP, "%s lacks %s (its HTTP transport was HTTP+SSE)",
                           want_version, mc_version_feature_what(MC_VF_STREAMABLE_HTTP));
            goto done;
        }
    }
    /* A scenario that does the lifecycle itself cannot have its roles
     * resolved against the live server before its steps: the profile
     * alone decides. */
    if (sc->manual_init) {
        for (i = 0; i < sc->n_roles; i++) {
            if (mc_json_get(o->roles, sc->roles[i]) == NULL) {
                mc_sresult_set(out, MC_NOT_VERIFIED, "the profile maps no fixture to role %s",
                               sc->roles[i]);
                goto done;
            }
        }
    }
    c->answers = json_object_new_object();
    if (c->answers == NULL || mc_judge_init(&c->j, o->registry) != MC_OK) {
        rc = MC_ENOMEM;
        goto done;
    }
    if (sc->answers != NULL) {
        json_object_object_foreach(sc->answers, m, a)
        {
            json_object *ea = NULL;
            mc_errbuf_clear(&eb);
            set_role_vars(c);
            if (mc_vars_expand(&c->vars, a, &ea, &eb) == MC_OK)
                json_object_object_add(c->answers, m, ea);
        }
    }

    memset(&so, 0, sizeof(so));
    so.argv = o->argv;
    so.cwd = o->cwd;
    so.limits = o->limits;
    mc_errbuf_clear(&eb);
    if (o->url != NULL) {
        mc_link_t hl;
        if (mc_httprun_start(&c->http, o, &hl, &eb) != MC_OK) {
            mc_sresult_set(out, MC_ERROR, "%s", eb.msg);
            goto done;
        }
        c->http_on = 1;
        link = hl;
    } else {
        if (mc_stdio_start(&c->t, &so, &eb) != MC_OK) {
            mc_sresult_set(out, MC_ERROR, "%s", eb.msg);
            note_unusable(c, 1); /* the command cannot run: no later run can do better */
            goto done;
        }
        c->started = 1;
        link = mc_stdio_link(&c->t);
    }
    memset(&sopts, 0, sizeof(sopts));
    sopts.stop = o->stop;
    sopts.responder = respond;
    sopts.responder_ctx = c;
    sopts.observer = observe;
    sopts.judge = &c->j;
    c->j.follow = c->version;
    c->j.counted = &c->seq_all;
    sopts.observer_ctx = c;
    if (mc_session_init(&c->s, link, &sopts) != MC_OK) {
        rc = MC_ENOMEM;
        goto done;
    }
    c->session_ok = 1;

    {
        const char *tr = mc_json_get_str(mc_json_get(sc->doc.root, "requires"), "transport");
        if (tr != NULL && strcmp(tr, c->http_on ? "http" : "stdio") != 0) {
            mc_sresult_set(out, MC_SKIP, "the scenario is for the %s transport", tr);
            goto stop;
        }
    }
    if (!sc->manual_init) {
        mc_errbuf_clear(&eb);
        int startup = startup_budget(c);
        rc = mc_session_initialize(&c->s, want_version, sc->client_caps, time_left(c, startup),
                                   &eb);
        drain_session(c);
        if (rc != MC_OK) {
            if (rc == MC_EEOF || rc == MC_EEXITED)
                target_gone(c, rc, "answering initialize");
            else if (rc == MC_EINTR)
                mc_sresult_set(out, MC_ERROR, "the run was interrupted");
            else if (c->http_on) {
                char why[300];
                mc_http_describe(c->http.http, why, sizeof(why));
                mc_sresult_set(out, MC_ERROR, "initialize failed: %s%s%s", eb.msg,
                               why[0] ? "; " : "", why);
            } else
                mc_sresult_set(out, MC_ERROR, "initialize failed: %s", eb.msg);
            /* A target silent for its whole start-up budget will not answer
             * the next time either: give up on it at once. */
            if (rc != MC_EINTR)
                note_unusable(c, rc == MC_ETIMEOUT && mc_now_ms() - c->t0 >= startup);
            rc = MC_OK;
            goto stop;
        }
        if (c->http_on)
            mc_http_after_handshake(c->http.http);
        snprintf(c->version, sizeof(c->version), "%s", c->s.negotiated_version);
        free(out->version);
        out->version = strdup(c->version);
        if (!mc_scenario_applies(sc, c->version)) {
            mc_sresult_set(out, MC_SKIP, "the server negotiated %s, outside the scenario's "
                                         "versions",
                           c->version);
            goto stop;
        }
        {
            char why[200];
            if (mc_scenario_version_gap(sc, c->version, why, sizeof(why))) {
                mc_sresult_set(out, MC_SKIP, "the server negotiated %s: %s", c->version, why);
                goto stop;
            }
        }
        if (sc->requires_caps != NULL) {
            size_t n = json_object_array_length(sc->requires_caps);
            for (i = 0; i < n; i++) {
                const char *cap = json_object_get_string(json_object_array_get_idx(sc->requires_caps, i));
                if (!server_has(c->s.server_caps, cap)) {
                    mc_sresult_set(out, MC_SKIP, "the server does not declare the \"%s\" "
                                                 "capability",
                                   cap);
                    goto stop;
                }
            }
        }
    }
    set_role_vars(c);
    if (!sc->manual_init && resolve_roles(c) != 0)
        goto stop;
    run_steps(c, sc->steps, "/steps", 0);
    if (!c->dead && c->session_ok) {
        /* Let late messages arrive so the wire checks see them. */
        mc_session_begin_step(&c->s);
        rc = mc_session_poll(&c->s, 0);
        drain_session(c);
        if (rc != MC_EEOF)
            wait_ok(c, rc, "reading the last messages");
        rc = MC_OK;
    }
    if (o->shared != NULL && !c->unusable)
        o->shared->usable++;

stop:
    if (c->session_ok) {
        finish_target(c);
        wire_to_checks(c);
    }
done:
    finish_target(c);
    if (c->session_ok)
        mc_session_free(&c->s);
    mc_judge_free(&c->j);
    out->duration_ms = mc_now_ms() - c->t0;
    mc_sresult_finish(out);
    mc_vars_free(&c->vars);
    inbox_free(&c->notes);
    inbox_free(&c->reqs);
    json_object_put(c->answers);
    free(c);
    return rc == MC_ENOMEM ? rc : MC_OK;
}

int mc_runner_probe(const mc_runner_opts_t *o, const char *version, char *negotiated, size_t n,
                    char *why, size_t wn, mc_scenario_result_t *failed)
{
    mc_scenario_t sc;
    mc_runner_opts_t po = *o;
    mc_scenario_result_t r;
    json_object *steps = json_object_new_array();
    int rc;

    if (n > 0)
        negotiated[0] = '\0';
    if (wn > 0)
        why[0] = '\0';
    if (steps == NULL)
        return MC_ENOMEM;
    /* A scenario of no steps: start, initialize at version, shut down. */
    memset(&sc, 0, sizeof(sc));
    sc.id = (char *)"lifecycle/version-probe";
    sc.area = (char *)"lifecycle";
    sc.title = "which protocol versions the server speaks";
    sc.doc.name = (char *)"(version probe)";
    sc.version_mask = (1u << MC_V_COUNT) - 1;
    sc.steps = steps;
    po.version = version;
    rc = mc_runner_run(&sc, &po, &r);
    json_object_put(steps);
    if (rc != MC_OK)
        return rc;

    if (r.verdict == MC_ERROR || r.verdict == MC_SKIP) {
        snprintf(why, wn, "%s", r.reason != NULL ? r.reason : "initialize failed");
        rc = MC_EPROTO;
        if (failed != NULL) {
            *failed = r;
            return rc;
        }
    } else {
        snprintf(negotiated, n, "%s", r.version != NULL ? r.version : "");
    }
    mc_sresult_free(&r);
    return rc;
}
