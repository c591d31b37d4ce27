/*
 * runner_expect.c - expectations: a step's "expect", "assert", "where" and
 * "capture" judged against a message (see runner_int.h).
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "scenario/match.h"

const char *mc__runner_step_check(rctx_t *c, const mc_step_t *s)
{
    return s->check != NULL ? s->check : c->sc->reqs[0].check;
}

/* Evaluates a list of assertions against target (paths start at target). */
void mc__runner_run_asserts(rctx_t *c, json_object *asserts, json_object *target, const char *cid,
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
            mc__runner_check(c, "harness/step", 0, eb.msg, NULL, NULL, NULL, 0, line);
            continue;
        }
        if (mc_assert_eval(ea, target, &m) != 0) {
            mc__runner_check(c, "harness/step", 0, m.expected, NULL, NULL, NULL, 0, line);
        } else if (m.pass) {
            mc__runner_check(c, aid, 1, NULL, NULL, NULL, NULL, 0, line);
        } else {
            char msg[1024];
            const char *custom = mc_json_get_str(a, "message");
            snprintf(msg, sizeof(msg), "%.100s: %.150s: expected %.300s, got %.400s", what,
                     custom ? custom : m.where, m.expected, m.actual);
            mc__runner_check(c, aid, 0, msg, m.expected, m.actual, m.where, seq, line);
        }
        json_object_put(ea);
    }
}

/* text in out, cut with "..." when longer than n - 1 (as messages quote
 * JSON). */
static void quote_cut(const char *text, char *out, size_t n)
{
    snprintf(out, n, "%s", text);
    if (strlen(text) >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
}

/* Whether response resp meets "expect" e: 1 when it does, else 0 with
 * what was expected in exp and what came in act. */
static int expect_holds(const mc_step_expect_t *e, const mc_msg_t *resp, char *exp, size_t n_exp,
                        char *act, size_t n_act)
{
    size_t i;

    switch (e->kind) {
    case MC_STEP_EXPECT_RESULT:
        if (resp->kind == MC_MSG_RESULT)
            return 1;
        snprintf(exp, n_exp, "a result");
        snprintf(act, n_act, "error %lld: %.300s", (long long)resp->error_code,
                 resp->error_message ? resp->error_message : "");
        return 0;
    case MC_STEP_EXPECT_ERROR:
        if (resp->kind == MC_MSG_ERROR)
            return 1;
        snprintf(exp, n_exp, "an error response");
        snprintf(act, n_act, "a result");
        return 0;
    case MC_STEP_EXPECT_CODES: {
        char want[128];
        quote_cut(e->codes_text, want, sizeof(want));
        snprintf(exp, n_exp, "error %s", want);
        if (resp->kind != MC_MSG_ERROR) {
            snprintf(act, n_act, "a result");
            return 0;
        }
        for (i = 0; i < e->n_codes; i++)
            if (e->codes[i] == resp->error_code)
                return 1;
        snprintf(act, n_act, "error %lld: %.300s", (long long)resp->error_code,
                 resp->error_message ? resp->error_message : "");
        return 0;
    }
    default: /* any, none: a response of either kind */
        return 1;
    }
}

/* Sets the variables of "capture" from msg; one that selects nothing fails
 * check cid. */
static void capture(rctx_t *c, const mc_step_judge_t *j, const mc_msg_t *msg, const char *cid,
                    const char *what, int line, uint64_t seq)
{
    size_t i;

    for (i = 0; i < j->n_capture; i++) {
        const mc_step_capture_t *cp = &j->capture[i];
        int found = 0;
        json_object *v = mc_path_get(msg->root, cp->path, &found);
        if (!found) {
            char msg_text[300];
            snprintf(msg_text, sizeof(msg_text), "%s: capture \"%s\": %s selects nothing", what,
                     cp->name, cp->path);
            mc__runner_check(c, cid, 0, msg_text, "a value to capture", "(missing)", cp->path, seq,
                             line);
            continue;
        }
        mc_vars_set(&c->vars, cp->name, v);
    }
}

void mc__runner_judge(rctx_t *c, const mc_step_t *s, const mc_step_judge_t *j, const mc_msg_t *resp,
                      const char *what, uint64_t seq)
{
    const char *cid = mc__runner_step_check(c, s);
    char exp[256], act[512];

    if (resp->kind != MC_MSG_RESULT && resp->kind != MC_MSG_ERROR) {
        /* A notification or server request: its arrival was the expectation. */
        mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, s->line);
    } else if (expect_holds(&j->expect, resp, exp, sizeof(exp), act, sizeof(act))) {
        mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, s->line);
    } else {
        char msg[1024];
        snprintf(msg, sizeof(msg), "%.150s: expected %.250s, got %.500s", what, exp, act);
        mc__runner_check(c, cid, 0, msg, exp, act, "", seq, s->line);
    }
    mc__runner_run_asserts(c, j->asserts, resp->root, cid, what, s->line, seq);
    capture(c, j, resp, cid, what, s->line, seq);
}

/* Runs the "where" filter of a step on a message (its values filled in,
 * forms such as {"$swapcase": ...} replaced). */
int mc__runner_where_ok(rctx_t *c, json_object *where, json_object *msg)
{
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
        ea = mc__runner_forms(ea);
        if (mc_assert_eval(ea, msg, &m) != 0 || !m.pass) {
            json_object_put(ea);
            return 0;
        }
        json_object_put(ea);
    }
    return 1;
}

/* The first untaken item with method (and where) that arrived
 * after inbound line `after`; with related_only, not one from the HTTP GET
 * stream either. */
inbox_item_t *mc__runner_inbox_find(rctx_t *c, inbox_t *b, json_object *where, const char *method,
                                    uint64_t after, int related_only)
{
    size_t i;

    for (i = 0; i < b->n; i++) {
        inbox_item_t *it = &b->v[i];
        if (it->taken || it->seq <= after || (related_only && it->on_get))
            continue;
        if (strcmp(method, "*") != 0 && strcmp(it->msg.method, method) != 0)
            continue;
        if (!mc__runner_where_ok(c, where, it->msg.root))
            continue;
        return it;
    }
    return NULL;
}

/*
 * Judges what waiting for one response gave (await and raw steps). With
 * none, a response breaks the step's check and silence keeps it; otherwise
 * silence breaks it and a response is judged by the step's expectations.
 * resp is released. Returns -1 when the target is gone (the scenario is
 * ERROR), else 0.
 */
int mc__runner_judge_outcome(rctx_t *c, const mc_step_t *s, const mc_step_judge_t *j, int rc,
                             mc_msg_t *resp, int none, const char *label, const char *doing,
                             const char *answered_msg, int window)
{
    if (rc != MC_OK && rc != MC_ETIMEOUT) {
        mc__runner_target_gone(c, rc, doing);
        return -1;
    }
    if (none) {
        if (rc == MC_OK) {
            char act[512];
            mc__runner_compact(resp->root, act, sizeof(act));
            mc__runner_check(c, mc__runner_step_check(c, s), 0, answered_msg, "no response", act,
                             "", mc__runner_resp_tx_seq(c, resp), s->line);
            mc_msg_free(resp);
        } else {
            mc__runner_check(c, mc__runner_step_check(c, s), 1, NULL, NULL, NULL, NULL, 0, s->line);
        }
        return 0;
    }
    if (rc == MC_ETIMEOUT) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%.100s: no response within %d ms", label, window);
        mc__runner_check(c, mc__runner_step_check(c, s), 0, msg, "a response", "(none)", "", 0,
                         s->line);
        return 0;
    }
    mc__runner_judge(c, s, j, resp, label, mc__runner_resp_tx_seq(c, resp));
    mc_msg_free(resp);
    return 0;
}

/* Judges an expect step's "interval": the message it took arrived at least
 * interval.min ms (less MC_RUNNER_INTERVAL_SLACK_MS) after the message the
 * previous expect step took. Arrival is when the harness read the line: a
 * sender's timer and a harness busy for a moment when the earlier message
 * came can each shorten the interval seen by a few ms, which the slack
 * forgives; a slow machine otherwise only lengthens it. */
static void judge_interval(rctx_t *c, const mc_step_t *s, const mc_step_expect_msg_t *e,
                           const inbox_item_t *it)
{
    const char *id = e->interval_check != NULL ? e->interval_check : mc__runner_step_check(c, s);
    char msg[240], want[48], got[48];
    int64_t gap;

    if (c->taken_at_ms < 0) {
        mc__runner_check(c, "harness/step", 0,
                         "\"interval\": no earlier expect step took a message to measure from",
                         NULL, NULL, NULL, 0, s->line);
        return;
    }
    gap = it->at_ms - c->taken_at_ms;
    snprintf(want, sizeof(want), ">= %d ms", e->interval_min_ms);
    snprintf(got, sizeof(got), "%lld ms", (long long)gap);
    if (gap + MC_RUNNER_INTERVAL_SLACK_MS >= e->interval_min_ms) {
        mc__runner_check(c, id, 1, NULL, want, got, "", it->tx_seq, s->line);
        return;
    }
    snprintf(msg, sizeof(msg),
             "%s came %lld ms after the previous message; at least %d ms expected", e->method,
             (long long)gap, e->interval_min_ms);
    mc__runner_check(c, id, 0, msg, want, got, "", it->tx_seq, s->line);
}

int mc__runner_wait_slice(rctx_t *c, int64_t until, const char *doing)
{
    int left = mc__runner_time_left(c, (int)(until - mc_now_ms())), rc;

    if (left <= 0 || c->s.eof)
        return 0;
    rc = mc_session_poll_once(&c->s, left);
    mc__runner_drain(c);
    if (rc == MC_EEOF)
        return 0;
    return mc__runner_wait_ok(c, rc, doing) != 0 ? -1 : 1;
}

/* Waits for a notification or server request matching the step (with
 * "related", only one the last message sent may have caused: one that
 * arrived after it and, over HTTP, not on the GET stream; basic/transports:
 * the stream's messages "SHOULD be unrelated to any concurrently-running
 * JSON-RPC request from the client"). */
int mc__runner_step_expect(rctx_t *c, const mc_step_t *s, const mc_step_expect_msg_t *e,
                           int is_request)
{
    inbox_t *box = is_request ? &c->reqs : &c->notes;
    int within = e->within_ms != MC_STEP_UNSET ? e->within_ms : MC_RUNNER_NOTIFY_WITHIN_MS;
    int64_t until = mc_now_ms() + within;
    uint64_t after = e->related ? c->mark_in : 0;
    inbox_item_t *it;
    char what[160];
    int rc;

    snprintf(what, sizeof(what), "%s", e->method);
    for (;;) {
        it = mc__runner_inbox_find(c, box, e->where, e->method, after, e->related);
        if (it != NULL)
            break;
        rc = mc__runner_wait_slice(c, until, "waiting for a message");
        if (rc < 0)
            return -1;
        if (rc == 0)
            break;
    }
    if (it == NULL) {
        char msg[240];
        snprintf(msg, sizeof(msg), "no %s %s arrived within %d ms", e->method,
                 is_request ? "request" : "notification", within);
        mc__runner_check(c, mc__runner_step_check(c, s), 0, msg, e->method, "(nothing)", "", 0,
                         s->line);
        return 0;
    }
    it->taken = 1;
    if (e->has_interval)
        judge_interval(c, s, e, it);
    c->taken_at_ms = it->at_ms;
    mc__runner_judge(c, s, &e->judge, &it->msg, what, it->tx_seq);
    return 0;
}
