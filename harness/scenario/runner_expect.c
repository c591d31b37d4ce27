/*
 * runner_expect.c - expectations: a step's "expect", "assert", "where" and
 * "capture" judged against a message (see runner_int.h).
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "scenario/match.h"

const char *mc__runner_step_check(rctx_t *c, json_object *st)
{
    const char *id = mc_json_get_str(st, "check");

    return id != NULL ? id : c->sc->reqs[0].check;
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

/*
 * Evaluates "expect" (responses only) and "assert" of a step against a
 * message, then captures.
 */
void mc__runner_judge(rctx_t *c, json_object *st, const mc_msg_t *resp, const char *what, int line,
                      uint64_t seq)
{
    json_object *expect = NULL, *asserts = mc_json_get(st, "assert");
    const char *cid = mc__runner_step_check(c, st);
    char exp[256], act[512];
    int ok = 1;
    int is_response = resp->kind == MC_MSG_RESULT || resp->kind == MC_MSG_ERROR;

    /* A private copy: serializing the scenario's own object is not thread-safe. */
    if (mc_json_get(st, "expect") != NULL)
        json_object_deep_copy(mc_json_get(st, "expect"), &expect, NULL);

    if (!is_response) {
        /* A notification or server request: its arrival was the expectation. */
        mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, line);
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
        mc__runner_compact(codes, want, sizeof(want));
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
        mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, line);
    } else {
        char msg[1024];
        snprintf(msg, sizeof(msg), "%.150s: expected %.250s, got %.500s", what, exp, act);
        mc__runner_check(c, cid, 0, msg, exp, act, "", seq, line);
    }
    mc__runner_run_asserts(c, asserts, resp->root, cid, what, line, seq);
    {
        json_object *cap = mc_json_get(st, "capture");
        if (cap != NULL && json_object_is_type(cap, json_type_object)) {
            json_object_object_foreach(cap, name, path)
            {
                int found = 0;
                json_object *v = mc_path_get(resp->root, json_object_get_string(path), &found);
                if (!found) {
                    char msg[300];
                    snprintf(msg, sizeof(msg), "%s: capture \"%s\": %s selects nothing", what, name,
                             json_object_get_string(path));
                    mc__runner_check(c, cid, 0, msg, "a value to capture", "(missing)",
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
int mc__runner_where_ok(rctx_t *c, json_object *st, json_object *msg)
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

/* The first untaken item with the step's method (and "where") that arrived
 * after inbound line `after`; with related_only, not one from the HTTP GET
 * stream either. */
inbox_item_t *mc__runner_inbox_find(rctx_t *c, inbox_t *b, json_object *st, const char *method,
                                    uint64_t after, int related_only)
{
    size_t i;

    for (i = 0; i < b->n; i++) {
        inbox_item_t *it = &b->v[i];
        if (it->taken || it->seq <= after || (related_only && it->on_get))
            continue;
        if (strcmp(method, "*") != 0 && strcmp(it->msg.method, method) != 0)
            continue;
        if (!mc__runner_where_ok(c, st, it->msg.root))
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
int mc__runner_judge_outcome(rctx_t *c, json_object *st, int line, int rc, mc_msg_t *resp, int none,
                             const char *label, const char *doing, const char *answered_msg,
                             int window)
{
    if (rc != MC_OK && rc != MC_ETIMEOUT) {
        mc__runner_target_gone(c, rc, doing);
        return -1;
    }
    if (none) {
        if (rc == MC_OK) {
            char act[512];
            mc__runner_compact(resp->root, act, sizeof(act));
            mc__runner_check(c, mc__runner_step_check(c, st), 0, answered_msg, "no response", act,
                             "", mc__runner_resp_tx_seq(c, resp), line);
            mc_msg_free(resp);
        } else {
            mc__runner_check(c, mc__runner_step_check(c, st), 1, NULL, NULL, NULL, NULL, 0, line);
        }
        return 0;
    }
    if (rc == MC_ETIMEOUT) {
        char msg[200];
        snprintf(msg, sizeof(msg), "%.100s: no response within %d ms", label, window);
        mc__runner_check(c, mc__runner_step_check(c, st), 0, msg, "a response", "(none)", "", 0,
                         line);
        return 0;
    }
    mc__runner_judge(c, st, resp, label, line, mc__runner_resp_tx_seq(c, resp));
    mc_msg_free(resp);
    return 0;
}
