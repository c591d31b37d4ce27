/*
 * runner.c - runs one scenario (runner.h): the run itself, the capture of
 * its traffic (the session's observer and responder, the inboxes of
 * notifications and server requests) and the wire and schema checks. The
 * other pieces of the runner are listed in runner_int.h.
 */
#include "scenario/runner.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/session.h"
#include "client/stdio.h"
#include "judge/judge.h"
#include "core/clock.h"
#include "core/frame.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "scenario/fixtures.h"
#include "scenario/instance.h"
#include "scenario/httprun.h"
#include "scenario/runner_int.h"

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

void mc__runner_check(rctx_t *c, const char *id, int pass, const char *message,
                      const char *expected, const char *actual, const char *path, uint64_t seq,
                      int line)
{
    check(c, id, pass, message, expected, actual, path, seq, line);
}

/* v's compact text into out, cut with "..."; v may be a scenario's value
 * that other workers read at once (mc_json_text_dup serializes a copy). */
static void compact(json_object *v, char *out, size_t n)
{
    size_t len = 0;
    char *dup = mc_json_text_dup(v, &len);
    const char *s = dup != NULL ? dup : "?";

    snprintf(out, n, "%s", s);
    if (strlen(s) >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
    free(dup);
}

void mc__runner_compact(json_object *v, char *out, size_t n)
{
    compact(v, out, n);
}

/* The transcript line a response came on (0 when it is not remembered). */
uint64_t mc__runner_resp_tx_seq(rctx_t *c, const mc_msg_t *m)
{
    char id[MC_RUNNER_MAX_ID_TEXT];
    size_t k;

    if (m == NULL || m->id == NULL)
        return 0;
    if (mc_id_text(m->id, id, sizeof(id)) == 0)
        return 0; /* too long to have been kept */
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
    b->v[b->n].at_ms = mc_now_ms();
    b->n++;
    memset(msg, 0, sizeof(*msg));
}

void mc__runner_inbox_free(inbox_t *b)
{
    size_t i;

    for (i = 0; i < b->n; i++)
        mc_msg_free(&b->v[i].msg);
    free(b->v);
    memset(b, 0, sizeof(*b));
}

static void observe(void *ctx, const mc_seen_t *seen)
{
    rctx_t *c = ctx;
    const mc_record_t *rec = seen->rec;
    const mc_wire_info_t *judged = seen->judged;
    int outbound = rec->outbound;
    const char *line = rec->data;
    size_t len = rec->len;
    mc_msg_t m;
    int on_get;

    /* The hold's ping and its answer belong to no run. */
    if (c->barrier)
        return;
    if (c->http_on)
        mc_httprun_notes(&c->http, c->res, c->seq_all, mc_now_ms() - c->t0);
    c->seq_all++;
    if (!outbound && rec->facts.stream != MC_STREAM_NONE) {
        char facts[MC_RECORD_FACTS_TEXT], note[400];
        int n;
        mc_record_facts_text(&rec->facts, facts, sizeof(facts));
        n = snprintf(note, sizeof(note), "(http: %s)", facts);
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
    if (outbound) {
        c->mark_in = c->seq_in;
        return;
    }
    c->seq_in++;
    if (c->first_line_ms < 0)
        c->first_line_ms = mc_now_ms() - c->t0;
    /* The session's judge has judged the line (c->j); the inboxes take
     * their own reference to the message it decoded. */
    if (judged == NULL || !judged->is_line)
        return;
    if (c->first_msg_seq == 0)
        c->first_msg_seq = c->seq_all;
    m = judged->msg;
    json_object_get(m.root);
    /* A GET that resumes a POST's stream (Last-Event-ID) carries that POST's
     * messages: it is not the GET stream. */
    on_get = mc_record_on_get_stream(rec);
    if (m.kind == MC_MSG_NOTIFICATION) {
        inbox_push(&c->notes, &m, c->seq_in, c->seq_all, on_get);
    } else if (m.kind == MC_MSG_REQUEST) {
        inbox_push(&c->reqs, &m, c->seq_in, c->seq_all, on_get);
    } else if (m.id != NULL) {
        resp_seq_t *r = &c->resp_seqs[c->resp_next++ % MC_RUNNER_RESP_SEQS];
        mc_id_text(m.id, r->id, sizeof(r->id)); /* "" when too long: never matched */
        r->tx_seq = c->seq_all;
    }
    mc_msg_free(&m);
}

static void respond(void *ctx, mc_session_t *s, const mc_msg_t *request, mc_reply_t *reply)
{
    rctx_t *c = ctx;
    json_object *a = mc_json_get(c->answers, request->method);

    if (c->seen_reqs != NULL &&
        json_object_array_length(c->seen_reqs) < MC_BEHAVIOUR_MAX_REQUESTS) {
        json_object *r = json_object_new_object();
        json_object_object_add(r, "method", json_object_new_string(request->method));
        if (request->params != NULL)
            json_object_object_add(r, "params", json_object_get(request->params));
        json_object_array_add(c->seen_reqs, r);
    }

    if (a != NULL) {
        json_object *with = mc_json_get(a, "with"), *err = mc_json_get(a, "error");
        /* "hold": N keeps the answer back until N requests of the method
         * are open (the session sends them then, or after its hang budget). */
        reply->hold = mc_json_get_int(a, "hold", 0);
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
void mc__runner_drain(rctx_t *c)
{
    mc_msg_t m;

    while (c->s.notes_count > 0 && mc_session_next_notification(&c->s, 0, &m) == MC_OK)
        mc_msg_free(&m);
}

/*
 * True when finding f is about a line that is no message, written before
 * the server's first message (a start-up banner), and another run of the
 * suite reports it: every run of the target sees the same start-up lines,
 * and one finding has one cause. The first run to see one reports it.
 */
static int startup_line_reported(rctx_t *c, const mc_wire_finding_t *f)
{
    mc_runner_shared_t *sh = c->o->shared;
    int expected = 0;

    if (sh == NULL || strcmp(f->check, "wire/stdout-only-messages") != 0 ||
        (c->first_msg_seq != 0 && f->seq >= c->first_msg_seq))
        return 0;
    if (c->startup_owner)
        return 0;
    if (atomic_compare_exchange_strong(&sh->startup_noted, &expected, 1)) {
        c->startup_owner = 1;
        return 0;
    }
    return 1;
}

void mc__runner_wire_to_checks(rctx_t *c)
{
    size_t i;

    for (i = 0; i < c->j.w.n_checks; i++) {
        size_t k;
        int failed = 0, skipped = 0;
        /* The HTTP checks are reported with the transport's end
         * (mc_httprun_finish). */
        if (mc_judge_is_http_check(c->j.w.check_ids[i]))
            continue;
        for (k = 0; k < c->j.w.n_findings; k++) {
            const mc_wire_finding_t *f = &c->j.w.findings[k];
            if (strcmp(f->check, c->j.w.check_ids[i]) != 0)
                continue;
            if (startup_line_reported(c, f)) {
                skipped = 1;
                continue;
            }
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
        /* A check whose only findings another run reports is not judged here. */
        if (!failed && !skipped)
            check(c, c->j.w.check_ids[i], 1, NULL, NULL, NULL, NULL, 0, 0);
    }
}

/* True when the version probe saw the server speak version. */
static int spoken(const mc_runner_opts_t *o, const char *version)
{
    const char *const *sv;

    for (sv = o->server_versions; sv != NULL && *sv != NULL; sv++)
        if (strcmp(*sv, version) == 0)
            return 1;
    return 0;
}

/*
 * Before the target starts: SKIP for a version that lacks a feature the
 * scenario needs (or the HTTP transport) and for a scenario of the other
 * transport, NOT-VERIFIED for a role the profile does not map when the
 * scenario does the lifecycle itself; SKIP for a capability an earlier run
 * at the version saw the server not declare (runner_caps.c). Returns 0 to
 * go on, -1 when the result says why not.
 */
/*
 * The roles a scenario needs, decided before a server is started from what
 * the behaviour probe saw at want_version (mc_fixture_presolve), when the
 * outcome is the one resolving them on a fresh server would give: the
 * probe's server declared every capability the scenario requires, and the
 * roles before the deciding one are known to be filled. -1 with the
 * verdict set (SKIP for an absent shape, NOT-VERIFIED otherwise), else 0.
 */
static int roles_gate(rctx_t *c, const char *want_version)
{
    const mc_scenario_t *sc = c->sc;
    json_object *b = mc_json_get(c->o->behaviours, want_version);
    mc_fixture_opts_t fo;
    size_t i, n = sc->requires_caps != NULL ? json_object_array_length(sc->requires_caps) : 0;

    if (b == NULL || sc->manual_init || sc->client_version != NULL || sc->n_roles == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (!mc__runner_server_has(mc_json_get(b, "capabilities"),
                                   json_object_get_string(
                                       json_object_array_get_idx(sc->requires_caps, i))))
            return 0;
    mc__runner_fixture_opts(c, &fo, b);
    for (i = 0; i < sc->n_roles; i++) {
        char why[512];
        int decided;
        mc_role_status_t st = mc_fixture_presolve(&fo, sc->roles[i], why, sizeof(why), &decided);
        if (st == MC_ROLE_OFFERED && decided)
            continue;
        if (st == MC_ROLE_OFFERED)
            return 0;
        mc_sresult_set(c->res, st == MC_ROLE_ABSENT ? MC_SKIP : MC_NOT_VERIFIED,
                       "%s (from what the behaviour probe saw; no server was started for this one)",
                       why);
        if (st != MC_ROLE_ABSENT) {
            free(c->res->role);
            c->res->role = strdup(sc->roles[i]);
        }
        return -1;
    }
    return 0;
}

static int gate_before_start(rctx_t *c, const char *want_version)
{
    const mc_scenario_t *sc = c->sc;
    const char *tr = mc_json_get_str(mc_json_get(sc->doc.root, "requires"), "transport");
    const char *legacy = NULL; /* a version of the initialize era the server speaks */
    char why[200];
    size_t i;

    if (mc_scenario_version_gap(sc, want_version, why, sizeof(why))) {
        mc_sresult_set(c->res, MC_SKIP, "%s", why);
        return -1;
    }
    /* A scenario for the other transport needs no server started. */
    if (tr != NULL && strcmp(tr, c->o->url != NULL ? "http" : "stdio") != 0) {
        mc_sresult_set(c->res, MC_SKIP, "the scenario is for the %s transport", tr);
        return -1;
    }
    if (c->o->url != NULL && mc_version_missing(want_version, MC_VF_STREAMABLE_HTTP) != 0 &&
        c->o->http_transport == MC_HTTP_TRANSPORT_STREAMABLE) {
        mc_sresult_set(c->res, MC_SKIP, "%s lacks %s (its HTTP transport was HTTP+SSE)",
                       want_version, mc_version_feature_what(MC_VF_STREAMABLE_HTTP));
        return -1;
    }
    /* The transport scenarios hold the rules of Streamable HTTP. */
    if (c->o->url != NULL && tr != NULL && strcmp(tr, "http") == 0 &&
        mc_httprun_transport(c->o, want_version) == MC_HTTP_TRANSPORT_SSE) {
        mc_sresult_set(c->res, MC_SKIP,
                       "the scenario is for Streamable HTTP; this run speaks HTTP+SSE at %s",
                       want_version);
        return -1;
    }
    /* A scenario that sends stateless requests itself, to a server the
     * version probe saw not speak that version, is skipped as a scenario
     * whose handshake failed would be: nothing it sends could be judged. */
    if (sc->manual_init && c->o->server_versions != NULL &&
        mc_version_has(want_version, MC_VF_STATELESS) && !spoken(c->o, want_version)) {
        mc_sresult_set(c->res, MC_SKIP, "the server does not speak %s (the version probe)",
                       want_version);
        return -1;
    }
    for (i = 0; c->o->server_versions != NULL && c->o->server_versions[i] != NULL; i++)
        if (legacy == NULL && mc_version_has(c->o->server_versions[i], MC_VF_INITIALIZE))
            legacy = c->o->server_versions[i];
    /* A scenario that pins a version of the initialize era, against a server
     * the version probe saw speak none (modern versions only): the legacy
     * negotiation rules are not its own; a legacy client "Fails" there
     * (basic/versioning#compatibility-matrix). */
    if (sc->client_version != NULL && mc_version_has(sc->client_version, MC_VF_INITIALIZE) &&
        c->o->server_versions != NULL && legacy == NULL) {
        mc_sresult_set(c->res, MC_SKIP,
                       "the scenario asks for %s, and the server speaks no version with an "
                       "initialize handshake (the version probe)",
                       sc->client_version);
        return -1;
    }
    /* A rule for a server of the stateless versions only: one the version
     * probe saw speak a version with an initialize handshake (or could not
     * tell) is of another kind, and the rule does not apply to it. */
    if (sc->modern_only) {
        if (c->o->server_versions == NULL || legacy != NULL) {
            mc_sresult_set(c->res, MC_SKIP,
                           legacy != NULL
                               ? "the rule binds a server of modern versions only, and this one "
                                 "speaks %s through initialize too (the version probe)"
                               : "the rule binds a server of modern versions only, and the "
                                 "version probe could not tell which versions this one speaks%s",
                           legacy != NULL ? legacy : "");
            return -1;
        }
    }
    /* A scenario that does the lifecycle itself cannot have its roles
     * resolved against the live server before its steps: the profile
     * alone decides. */
    if (sc->manual_init) {
        for (i = 0; i < sc->n_roles; i++) {
            if (mc_json_get(c->o->roles, sc->roles[i]) == NULL) {
                mc_sresult_set(c->res, MC_NOT_VERIFIED, "the profile maps no fixture to role %s",
                               sc->roles[i]);
                return -1;
            }
        }
    }
    if (mc__runner_caps_gate(c, want_version) != 0)
        return -1;
    if (roles_gate(c, want_version) != 0)
        return -1;
    return mc__runner_unspoken_gate(c, want_version);
}

/* The scenario's canned answers to server requests, with variables filled
 * in. Returns MC_OK or MC_ENOMEM. */
int mc__runner_make_answers(rctx_t *c)
{
    mc_errbuf_t eb;

    json_object_put(c->answers);
    c->answers = json_object_new_object();
    if (c->answers == NULL)
        return MC_ENOMEM;
    if (c->sc->answers != NULL) {
        json_object_object_foreach(c->sc->answers, m, a)
        {
            json_object *ea = NULL;
            mc_errbuf_clear(&eb);
            mc__runner_set_role_vars(c);
            if (mc_vars_expand(&c->vars, a, &ea, &eb) == MC_OK)
                json_object_object_add(c->answers, m, ea);
        }
    }
    return MC_OK;
}

/* The judge and the canned answers of a run that starts its target. */
static int prepare_answers(rctx_t *c)
{
    if (mc_judge_init(&c->j, c->o->registry) != MC_OK)
        return MC_ENOMEM;
    return mc__runner_make_answers(c);
}

/* The session's hooks into this run: its responder and its observer. */
void mc__runner_session_opts(rctx_t *c, mc_session_opts_t *sopts)
{
    memset(sopts, 0, sizeof(*sopts));
    sopts->stop = c->o->stop;
    sopts->responder = respond;
    sopts->responder_ctx = c;
    sopts->observer = observe;
    sopts->observer_ctx = c;
    sopts->judge = &c->j;
    /* The start-up budget is for starting: a handshake answer gets a step's
     * time once the server has written a line. */
    sopts->answer_timeout_ms = c->step_timeout;
    c->j.follow = c->version;
    c->j.counted = &c->seq_all;
}

/* Runs the steps once the target is set up, then lets late messages
 * arrive so that the wire checks see them. */
static void run_body(rctx_t *c)
{
    int rc;

    mc__runner_set_role_vars(c);
    if (c->behave != NULL) {
        mc__runner_behave(c);
        return;
    }
    if (!c->sc->manual_init && mc__runner_resolve_roles(c) != 0)
        return;
    c->stepped = 1;
    mc__runner_run_steps(c, c->sc->step_v, c->sc->n_steps, 0);
    if (!c->dead && c->session_ok) {
        /* Answers still held back go out: no request is left unanswered. */
        mc_session_release_held(&c->s, NULL);
        mc_session_begin_step(&c->s);
        rc = mc_session_poll(&c->s, 0);
        mc__runner_drain(c);
        if (rc != MC_EEOF)
            mc__runner_wait_ok(c, rc, "reading the last messages");
    }
    if (c->o->shared != NULL && !c->unusable)
        c->o->shared->usable++;
}

void mc__runner_end_ctx(rctx_t *c)
{
    if (c->session_ok) {
        mc__runner_finish_target(c);
        mc__runner_wire_to_checks(c);
    }
    mc__runner_finish_target(c);
    if (c->session_ok)
        mc_session_free(&c->s);
    mc_judge_free(&c->j);
    mc_sresult_finish(c->res);
    mc__runner_unspoken_note(c);
    mc__runner_hs_free(c);
    mc_vars_free(&c->vars);
    mc__runner_inbox_free(&c->notes);
    mc__runner_inbox_free(&c->reqs);
    json_object_put(c->answers);
    json_object_put(c->seen_reqs);
    free(c);
}

/* Ends the run: its target goes to the worker's hold when it may be shared
 * (mc_runner_hold_t), else it is stopped and the context released. */
static void run_end(rctx_t *c)
{
    c->res->duration_ms = mc_now_ms() - c->t0;
    if (c->hold != NULL && c->hold->c == NULL && mc__runner_may_keep(c)) {
        mc__runner_wire_to_checks(c);
        mc_sresult_finish(c->res);
        free(c->res->exit_desc);
        c->res->exit_desc = strdup("still running: handed on to the next scenario that may "
                                   "share it (its end is in the last one's result)");
        c->hold->c = c;
        c->hold->owner = c->res;
        c->hold->runs = c->reused ? c->hold->runs + 1 : 1;
        /* What the runs on it changed: a later run that reads it needs
         * another process (mc_runner_hold_fits). */
        c->hold->dirty = (c->reused ? c->hold->dirty : 0) |
                         (c->stepped ? c->sc->state_changes & MC_STATE_NAMED : 0);
        return;
    }
    mc__runner_end_ctx(c);
}

/* Runs sc (a scenario; a version probe when probe is not NULL; a behaviour
 * probe when behave is not NULL). */
int mc__runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *o, mc_scenario_result_t *out,
                   mc_probe_t *probe, json_object *behave, mc_runner_hold_t *hold)
{
    rctx_t *c;
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
    c->probe = probe;
    c->behave = behave;
    if (behave != NULL && (c->seen_reqs = json_object_new_array()) == NULL) {
        free(c);
        return MC_ENOMEM;
    }
    c->t0 = mc_now_ms();
    c->first_line_ms = -1;
    c->taken_at_ms = -1;
    c->deadline = c->t0 + (o->scenario_timeout_ms ? o->scenario_timeout_ms
                                                  : MC_RUNNER_SCENARIO_TIMEOUT_MS);
    c->step_timeout = o->step_timeout_ms ? o->step_timeout_ms : MC_RUNNER_STEP_TIMEOUT_MS;
    snprintf(c->version, sizeof(c->version), "%s", want_version);
    mc_vars_init(&c->vars);

    c->hold = hold;
    if (gate_before_start(c, want_version) != 0) {
        /* Nothing started: a target the hold keeps stays there. */
        c->hold = NULL;
        c->res->duration_ms = mc_now_ms() - c->t0;
        mc__runner_end_ctx(c);
        return MC_OK;
    }
    if (mc_runner_hold_fits(hold, sc, want_version) ||
        mc_runner_hold_takes(hold, sc, want_version)) {
        rctx_t *k = hold->c;
        hold->c = NULL;
        c = mc__runner_adopt(k, c);
        if (mc__runner_make_answers(c) == MC_OK && mc__runner_gate_negotiated(c) == 0)
            run_body(c);
        run_end(c);
        return MC_OK;
    }
    rc = prepare_answers(c);
    if (rc == MC_OK && mc__runner_start(c, &rc) == 0) {
        int hs = mc__runner_handshake(c, want_version);
        if (hold != NULL && !sc->manual_init && sc->client_version == NULL &&
            c->s.negotiated_version[0] != '\0')
            mc__runner_hs_take(c, want_version);
        if (hs == 0)
            run_body(c);
    }
    run_end(c);
    return rc == MC_ENOMEM ? rc : MC_OK;
}

int mc_runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *o, mc_scenario_result_t *out)
{
    return mc__runner_run(sc, o, out, NULL, NULL, NULL);
}

int mc_runner_run_held(const mc_scenario_t *sc, const mc_runner_opts_t *o, mc_runner_hold_t *h,
                       mc_scenario_result_t *out)
{
    /* Over HTTP the server is one for the whole suite already. */
    return mc__runner_run(sc, o, out, NULL, NULL, o->url != NULL ? NULL : h);
}
