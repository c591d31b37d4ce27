/*
 * runner_steps.c - the steps of a scenario, one function per kind, and their
 * dispatch (see runner_int.h; paginate is in runner_page.c).
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"

json_object *mc__runner_expand(rctx_t *c, json_object *tmpl, int line)
{
    json_object *out = NULL;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (mc_vars_expand(&c->vars, tmpl, &out, &eb) != MC_OK) {
        mc__runner_check(c, "harness/step", 0, eb.msg, NULL, NULL, NULL, 0, line);
        return NULL;
    }
    return mc__runner_forms(out);
}

/* The step's timeout: ms, or dflt when it sets none. */
static int or_default(int ms, int dflt)
{
    return ms != MC_STEP_UNSET ? ms : dflt;
}

/* A request that is not waited for: its id goes to variable r->async. */
static int send_async(rctx_t *c, const mc_step_request_t *r, json_object *params, int timeout)
{
    int64_t id;
    json_object *idv;
    int rc =
        mc_session_send_request(&c->s, r->method, params, &id, mc__runner_time_left(c, timeout));

    if (rc != MC_OK) {
        mc__runner_target_gone(c, rc, "sending a request");
        return -1;
    }
    idv = json_object_new_int64(id);
    mc_vars_set(&c->vars, r->async, idv);
    json_object_put(idv);
    return 0;
}

/*
 * A fixture that refuses the arguments the harness made up or the profile
 * gave (a tools/call answered with isError: true, or a tools/call or
 * prompts/get answered with -32602, when the step expected a result and
 * does not judge isError itself) proves nothing either way: the scenario
 * ends NOT-VERIFIED with the server's own words. Returns 1 when so.
 */
static int fixture_refused(rctx_t *c, const mc_step_t *s, const char *method, const char *name,
                           const mc_msg_t *resp)
{
    const mc_step_judge_t *j = &s->u.request.judge;
    const char *text = NULL;
    json_object *content;

    if (strcmp(method, "tools/call") != 0 && strcmp(method, "prompts/get") != 0)
        return 0;
    if (j->expect.kind != MC_STEP_EXPECT_RESULT || j->asserts_is_error)
        return 0;
    if (resp->kind == MC_MSG_ERROR && resp->error_code == MC_RPC_INVALID_PARAMS) {
        text = mc_json_get_str(mc_json_get(resp->root, "error"), "message");
        mc_sresult_set(c->res, MC_NOT_VERIFIED,
                       "the fixture `%.120s` refused the call at line %d with -32602 (%.200s): "
                       "give it arguments in the profile (\"args\" of its role)",
                       name, s->line, text != NULL ? text : "");
        return 1;
    }
    if (resp->kind != MC_MSG_RESULT || strcmp(method, "tools/call") != 0 ||
        !json_object_get_boolean(mc_json_get(resp->result, "isError")))
        return 0;
    content = mc_json_get(resp->result, "content");
    text = mc_json_get_str(json_object_array_get_idx(content, 0), "text");
    mc_sresult_set(c->res, MC_NOT_VERIFIED,
                   "the fixture `%.120s` refused the call at line %d (isError: true: %.200s): "
                   "give it arguments in the profile (\"args\" of its role)",
                   name, s->line, text != NULL ? text : "no text");
    return 1;
}

static int step_request(rctx_t *c, const mc_step_t *s)
{
    const mc_step_request_t *r = &s->u.request;
    const char *method = r->method;
    json_object *params = NULL;
    mc_msg_t resp;
    /* A scenario's own initialize gets the start-up budget, like the runner's. */
    int timeout =
        or_default(r->timeout_ms, strcmp(method, "initialize") == 0 ? mc__runner_startup_budget(c)
                                                                    : c->step_timeout);
    int rc, learned = 0;
    char what[160], callee[128], key[MC_RUNNER_SILENT_KEY_LEN];

    if (r->params != NULL) {
        params = mc__runner_expand(c, r->params, s->line);
        if (params == NULL)
            return 0;
    }
    if (r->progress) {
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
    snprintf(callee, sizeof(callee), "%s",
             mc_json_get_str(params, "name") != NULL ? mc_json_get_str(params, "name") : "?");
    if (r->async != NULL)
        return send_async(c, r, params, timeout);
    mc__runner_silence_key(method, params, key, sizeof(key));
    if (timeout > MC_RUNNER_SILENT_WAIT_MS && strcmp(method, "initialize") != 0 &&
        mc__runner_silence_known(c, key)) {
        learned = 1;
        timeout = MC_RUNNER_SILENT_WAIT_MS;
    }
    /* "retry": false keeps a stateless input_required answer for the step
     * to judge, instead of answering it and retrying. */
    c->s.input_retry_off = r->retry_off;
    rc = mc_session_request(&c->s, method, params, mc__runner_time_left(c, timeout), &resp);
    c->s.input_retry_off = 0;
    mc__runner_drain(c);
    if (rc == MC_ETIMEOUT) {
        char msg[300];
        if (!learned && timeout >= c->step_timeout)
            mc__runner_silence_note(c, key);
        snprintf(msg, sizeof(msg), "%s: no response within %d ms%s", method, timeout,
                 learned ? " (an earlier run waited a whole step for it in vain)" : "");
        mc__runner_check(c, mc__runner_step_check(c, s), 0, msg, "a response", "(none)", "", 0,
                         s->line);
        return 0;
    }
    if (rc != MC_OK) {
        char doing[200];
        snprintf(doing, sizeof(doing), "the client waited for the answer to %.120s", method);
        mc__runner_target_gone(c, rc, doing);
        return -1;
    }
    if (fixture_refused(c, s, method, callee, &resp)) {
        mc_msg_free(&resp);
        return -1;
    }
    mc__runner_judge(c, s, &r->judge, &resp, what, mc__runner_resp_tx_seq(c, &resp));
    mc_msg_free(&resp);
    return 0;
}

static int step_await(rctx_t *c, const mc_step_t *s)
{
    const mc_step_await_t *a = &s->u.await;
    json_object *idv = mc_vars_get(&c->vars, a->var, NULL);
    int timeout = or_default(a->timeout_ms, c->step_timeout);
    int none = a->judge.expect.kind == MC_STEP_EXPECT_NONE;
    mc_msg_t resp;
    char label[96];
    int rc;

    if (idv == NULL) {
        mc__runner_check(c, "harness/step", 0, "await: the async request was never sent", NULL,
                         NULL, NULL, 0, s->line);
        return 0;
    }
    if (none && timeout == c->step_timeout)
        timeout = MC_RUNNER_QUIET_WINDOW_MS;
    rc = mc_session_await(&c->s, json_object_get_int64(idv), mc__runner_time_left(c, timeout),
                          &resp);
    mc__runner_drain(c);
    snprintf(label, sizeof(label), "the %.60s request", a->var);
    return mc__runner_judge_outcome(c, s, &a->judge, rc, &resp, none, label, "awaiting a response",
                                    "a response arrived for a cancelled request", timeout);
}

static int step_notify(rctx_t *c, const mc_step_t *s)
{
    json_object *params = NULL;
    int rc;

    if (s->u.notify.params != NULL) {
        params = mc__runner_expand(c, s->u.notify.params, s->line);
        if (params == NULL)
            return 0;
    }
    rc = mc_session_notify(&c->s, s->u.notify.method, params,
                           mc__runner_time_left(c, c->step_timeout));
    if (rc != MC_OK) {
        mc__runner_target_gone(c, rc, "sending a notification");
        return -1;
    }
    return 0;
}

/* The (at_most + 1)-th untaken message of box matching the step, or NULL
 * when there are at most at_most of them. */
static inbox_item_t *beyond(rctx_t *c, inbox_t *box, const mc_step_expect_none_t *e,
                            uint64_t after)
{
    size_t i;
    int seen = 0;

    if (e->at_most <= 0)
        return mc__runner_inbox_find(c, box, e->where, e->method, after, e->related);
    for (i = 0; i < box->n; i++) {
        inbox_item_t *it = &box->v[i];
        if (it->taken || it->seq <= after || (e->related && it->on_get))
            continue;
        if (strcmp(e->method, "*") != 0 && strcmp(it->msg.method, e->method) != 0)
            continue;
        if (!mc__runner_where_ok(c, e->where, it->msg.root))
            continue;
        if (++seen > e->at_most)
            return it;
    }
    return NULL;
}

/*
 * Holds when no notification (is_request = 0) or server request with the
 * step's method (and "where") arrives after the last message sent, for the
 * step's "for" window (with "related", one on the HTTP GET stream does not
 * count); with "at_most": N, when no more than N of them arrive.
 */
static int step_expect_none(rctx_t *c, const mc_step_t *s, const mc_step_expect_none_t *e,
                            int is_request)
{
    inbox_t *box = is_request ? &c->reqs : &c->notes;
    int window = or_default(e->for_ms, MC_RUNNER_QUIET_WINDOW_MS);
    int64_t until = mc_now_ms() + window;
    uint64_t after = c->mark_in;
    inbox_item_t *it = NULL;
    int rc;

    for (;;) {
        it = beyond(c, box, e, after);
        if (it != NULL)
            break;
        rc = mc__runner_wait_slice(c, until, "watching for a message");
        if (rc < 0)
            return -1;
        if (rc == 0)
            break;
    }
    if (it != NULL) {
        char msg[300], act[512];
        mc__runner_compact(it->msg.root, act, sizeof(act));
        if (e->at_most > 0)
            snprintf(msg, sizeof(msg), "more than %d %s %ss within %d ms", e->at_most,
                     it->msg.method, is_request ? "request" : "notification", window);
        else
            snprintf(msg, sizeof(msg), "unexpected %s %s within %d ms", it->msg.method,
                     is_request ? "request" : "notification", window);
        mc__runner_check(c, mc__runner_step_check(c, s), 0, msg,
                         is_request ? "no such request" : "no such notification", act, "",
                         it->tx_seq, s->line);
        it->taken = 1;
    } else {
        mc__runner_check(c, mc__runner_step_check(c, s), 1, NULL, NULL, NULL, NULL, 0, s->line);
    }
    return 0;
}

/* Asserts on a value (usually a captured variable); paths start at it. */
static int step_value(rctx_t *c, const mc_step_t *s)
{
    const mc_step_value_t *vs = &s->u.value;
    json_object *v = mc__runner_expand(c, vs->value, s->line);

    if (v == NULL && vs->value != NULL && !json_object_is_type(vs->value, json_type_null))
        return 0; /* expand_or_fail recorded why */
    mc__runner_run_asserts(c, vs->asserts, v, mc__runner_step_check(c, s), "value", s->line, 0);
    json_object_put(v);
    return 0;
}

static int step_answer(rctx_t *c, const mc_step_t *s)
{
    const mc_step_answer_t *an = &s->u.answer;
    json_object *a = json_object_new_object();

    if (an->with != NULL) {
        json_object *w = mc__runner_expand(c, an->with, s->line);
        if (w == NULL) {
            json_object_put(a);
            return 0;
        }
        json_object_object_add(a, "with", w);
    } else {
        json_object *e = NULL;
        json_object_deep_copy(an->error, &e, NULL); /* never share scenario objects */
        json_object_object_add(a, "error", e);
    }
    json_object_object_add(c->answers, an->method, a);
    return 0;
}

static int step_for_each(rctx_t *c, const mc_step_t *s, int depth)
{
    const mc_step_for_each_t *f = &s->u.for_each;
    json_object *list;
    int max = or_default(f->max, MC_RUNNER_MAX_FOR_EACH);
    size_t i, n;
    int rc = 0;

    /* "when": the loop runs only when its assertions hold on its value;
     * judged first, so that the list may name what only then exists. */
    if (f->when_assert != NULL) {
        json_object *v =
            f->when_value != NULL ? mc__runner_expand(c, f->when_value, s->line) : NULL;
        int ok = v != NULL && mc__runner_where_ok(c, f->when_assert, v);
        json_object_put(v);
        if (!ok)
            return 0;
    }
    list = mc__runner_expand(c, f->list, s->line);
    if (list == NULL)
        return 0;
    if (!json_object_is_type(list, json_type_array)) {
        mc__runner_check(c, "harness/step", 0, "for_each: the value is not an array", "an array",
                         NULL, NULL, 0, s->line);
        json_object_put(list);
        return 0;
    }
    n = json_object_array_length(list);
    if (n > (size_t)max)
        n = (size_t)max;
    for (i = 0; i < n && rc == 0; i++) {
        json_object *item = json_object_array_get_idx(list, i);
        /* "where" keeps the elements its assertions hold for (paths start
         * at the element). */
        if (f->where != NULL && !mc__runner_where_ok(c, f->where, item))
            continue;
        mc_vars_set(&c->vars, f->as, item);
        rc = mc__runner_run_steps(c, s->steps, s->n_steps, depth + 1);
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
            /* A copy: sent may be the scenario's own, which threads share. */
            json_object *idc = NULL;
            json_object_deep_copy(id, &idc, NULL);
            snprintf(why, n, "the batch answer holds %zu responses to request %s (one expected)",
                     seen, idc != NULL ? mc_json_compact(idc, NULL) : "?");
            json_object_put(idc);
            return;
        }
    }
    if (ng != requests)
        snprintf(why, n,
                 "the batch answer holds %zu members for %zu requests (notifications "
                 "take no answer)",
                 ng, requests);
}

/* A raw step whose line is a batch (sent: the line as JSON, NULL when it
 * is not): waits for the array that answers it (over HTTP, the answers may
 * also come one by one on the POST's stream; over stdio that is named as
 * what it is). */
static int step_raw_batch(rctx_t *c, const mc_step_t *s, const char *raw, json_object *sent)
{
    const char *cid = mc__runner_step_check(c, s);
    json_object *asserts = s->u.raw.judge.asserts;
    int within = or_default(s->u.raw.within_ms, c->step_timeout);
    json_object *one_by_one = NULL;
    mc_msg_t resp;
    char why[300];
    int rc;

    if (!json_object_is_type(sent, json_type_array)) {
        mc__runner_check(c, "harness/step", 0, "the batch is not a JSON array", NULL, NULL, NULL, 0,
                         s->line);
        return 0;
    }
    memset(&resp, 0, sizeof(resp));
    rc = mc_session_raw_batch(&c->s, raw, strlen(raw), mc__runner_time_left(c, within), &resp,
                              &one_by_one);
    mc__runner_drain(c);
    if (rc != MC_OK && rc != MC_ETIMEOUT) {
        json_object_put(one_by_one);
        mc__runner_target_gone(c, rc, "sending a batch");
        return -1;
    }
    if (resp.root == NULL && one_by_one != NULL && !c->http_on) {
        /* Over stdio a batch is answered by one array (JSON-RPC 2.0 section 6). */
        char act[512];
        mc__runner_compact(one_by_one, act, sizeof(act));
        snprintf(why, sizeof(why), "the batch was answered one response at a time, not by one "
                                   "array");
        mc__runner_check(c, cid, 0, why, "one array of responses", act, "", 0, s->line);
    } else if (resp.root == NULL && one_by_one != NULL) {
        /* Over Streamable HTTP an SSE stream's responses "MAY be batched"
         * (2025-03-26 basic/transports): one by one is an answer too. */
        judge_batch(sent, one_by_one, why, sizeof(why));
        if (why[0] != '\0') {
            char act[512];
            mc__runner_compact(one_by_one, act, sizeof(act));
            mc__runner_check(c, cid, 0, why, "one response per request of the batch", act, "", 0,
                             s->line);
        } else {
            mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, s->line);
        }
        mc__runner_run_asserts(c, asserts, one_by_one, cid, "the batch's answers", s->line, 0);
    } else if (rc == MC_ETIMEOUT) {
        snprintf(why, sizeof(why), "no array answered the batch within %d ms", within);
        mc__runner_check(c, cid, 0, why, "one array of responses", "(none)", "", 0, s->line);
    } else {
        char act[512];
        judge_batch(sent, resp.root, why, sizeof(why));
        mc__runner_compact(resp.root, act, sizeof(act));
        if (why[0] != '\0')
            mc__runner_check(c, cid, 0, why, "one response per request of the batch", act, "",
                             mc__runner_resp_tx_seq(c, &resp), s->line);
        else
            mc__runner_check(c, cid, 1, NULL, NULL, NULL, NULL, 0, s->line);
        mc__runner_run_asserts(c, asserts, resp.root, cid, "the batch answer", s->line,
                               mc__runner_resp_tx_seq(c, &resp));
        mc_msg_free(&resp);
    }
    json_object_put(one_by_one);
    return 0;
}

/*
 * True when the answer raw step s waits for may be decided at a barrier
 * (mc_session_raw_request_barrier): the run shares processes (not
 * --fresh-process, which keeps every wait as it was), over stdio, the step
 * expects an answer but not a batch's, names no id of its own, and no
 * method handler can take the line, as the judge reads it: it is no JSON,
 * no object (an array too: where a step expects no batch's answer, the
 * version has none), an object whose id cannot be read (answered, if at
 * all, by an error with a null id), or one whose id can (expect_id) that
 * is no valid request (JSON-RPC 2.0 section 4: no method string, no
 * "jsonrpc": "2.0", params neither object nor array). Such a line is
 * refused as it is read.
 */
static int raw_barrier_ok(rctx_t *c, const mc_step_t *s, const char *raw, json_object *expect_id)
{
    mc_msg_t m;
    int ok;

    if (c->o->fresh_process || c->http_on || s->u.raw.expect_id != NULL ||
        s->u.raw.judge.expect.kind == MC_STEP_EXPECT_NONE ||
        s->u.raw.judge.expect.kind == MC_STEP_EXPECT_BATCH)
        return 0;
    memset(&m, 0, sizeof(m));
    (void)mc_msg_decode(raw, strlen(raw), 0, &m);
    /* An invalid object with a readable id is the one case where expect_id
     * is set; any other invalid line is answered with a null id. */
    ok = m.root == NULL || m.kind == MC_MSG_INVALID;
    if (ok && expect_id != NULL)
        ok = json_object_is_type(m.root, json_type_object);
    mc_msg_free(&m);
    return ok;
}

/* The grace a barrier gives after its ping's answer: shorter once the
 * target has been seen to leave such a line unanswered (runner.h). */
static int barrier_grace(const rctx_t *c)
{
    const mc_runner_shared_t *sh = c->o->shared;

    return sh != NULL && atomic_load(&sh->barrier_drops) > 0 ? MC_RUNNER_BARRIER_GRACE_KNOWN_MS
                                                             : MC_SESSION_BARRIER_GRACE_MS;
}

/* Sends raw (line: it as JSON, or NULL) and judges what answers it. */
static int raw_send(rctx_t *c, const mc_step_t *s, const char *raw, json_object *line,
                    json_object *expect_id)
{
    const mc_step_raw_t *r = &s->u.raw;
    int none = r->judge.expect.kind == MC_STEP_EXPECT_NONE;
    int within = or_default(r->within_ms, none ? MC_RUNNER_QUIET_WINDOW_MS : c->step_timeout);
    json_object *idv = NULL;
    mc_msg_t resp;
    int rc, barrier = 0;

    /* By default, wait for the id the raw line carries (if readable). */
    if (expect_id == NULL && json_object_is_type(line, json_type_object) &&
        json_object_object_get_ex(line, "id", &idv) && mc_jsonrpc_id_valid(idv))
        expect_id = idv;
    if (expect_id != NULL && json_object_is_type(expect_id, json_type_null))
        expect_id = NULL;
    if (raw_barrier_ok(c, s, raw, expect_id))
        rc = mc_session_raw_request_barrier(&c->s, raw, strlen(raw), expect_id,
                                            mc__runner_time_left(c, within), barrier_grace(c),
                                            &resp, &barrier);
    else
        rc = mc_session_raw_request(&c->s, raw, strlen(raw), expect_id,
                                    mc__runner_time_left(c, within), &resp);
    mc__runner_drain(c);
    if (barrier) {
        if (c->o->shared != NULL)
            atomic_fetch_add(&c->o->shared->barrier_drops, 1);
        mc__runner_check(c, mc__runner_step_check(c, s), 0,
                         "raw input: no response before the answer to a ping sent after it "
                         "(a line no handler can take is answered as it is read)",
                         "a response", "(none)", "", 0, s->line);
        return 0;
    }
    return mc__runner_judge_outcome(c, s, &r->judge, rc, &resp, none, "raw input",
                                    "sending raw input",
                                    "the server answered a message that takes no answer", within);
}

/* A raw step: a line without variables is sent as written and read as the
 * loader parsed it; one with variables is filled in and parsed here. */
static int step_raw(rctx_t *c, const mc_step_t *s)
{
    const mc_step_raw_t *r = &s->u.raw;
    json_object *rawv = NULL, *parsed = NULL, *id_expanded = NULL;
    json_object *expect_id = r->expect_id, *line = r->parsed;
    const char *raw = r->line;
    int rc;

    if (!r->literal) {
        rawv = mc__runner_expand(c, r->line_tmpl, s->line);
        if (rawv == NULL)
            return 0;
        raw = json_object_get_string(rawv);
        if (mc_json_parse(raw, strlen(raw), 0, &parsed, NULL) != MC_OK)
            parsed = NULL;
        line = parsed;
    }
    /* expect_id may name a captured id ("${call}"), like any other value. */
    if (expect_id != NULL && json_object_is_type(expect_id, json_type_string)) {
        id_expanded = mc__runner_expand(c, expect_id, s->line);
        if (id_expanded == NULL) {
            json_object_put(parsed);
            json_object_put(rawv);
            return 0;
        }
        expect_id = id_expanded;
    }
    if (r->judge.expect.kind == MC_STEP_EXPECT_BATCH)
        rc = step_raw_batch(c, s, raw, line);
    else
        rc = raw_send(c, s, raw, line, expect_id);
    json_object_put(parsed);
    json_object_put(id_expanded);
    json_object_put(rawv);
    return rc;
}

/* The templates of an http step, filled in (owned); -1 when one cannot be
 * (recorded), else 0. */
static int http_fill(rctx_t *c, const mc_step_t *s, mc_httprun_fill_t *f)
{
    const mc_step_http_t *h = &s->u.http;
    json_object *const tmpl[4] = {h->message, h->body, h->headers, h->interleave};
    json_object **out[4] = {&f->message, &f->body, &f->headers, &f->interleave};
    size_t i;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < 4; i++) {
        if (tmpl[i] == NULL)
            continue;
        *out[i] = mc__runner_expand(c, tmpl[i], s->line);
        if (*out[i] == NULL) {
            mc_httprun_fill_free(f);
            return -1;
        }
    }
    return 0;
}

/* An HTTP-level step of a transport scenario (scenario/httprun.h). */
static int step_http(rctx_t *c, const mc_step_t *s)
{
    mc_httprun_outcome_t oc;
    mc_httprun_fill_t fill;
    const char *cid = mc__runner_step_check(c, s);
    int rc;

    if (!c->http_on) {
        mc__runner_check(c, "harness/step", 0, "an http step needs --url", NULL, NULL, NULL, 0,
                         s->line);
        return -1;
    }
    /* Variables and roles (${role:...}) are filled in its templates. */
    if (http_fill(c, s, &fill) != 0)
        return -1;
    c->seq_all++;
    rc = mc_httprun_step(&c->http, &s->u.http, &fill, c->version,
                         mc__runner_time_left(c, c->step_timeout), &c->j, c->res, c->seq_all,
                         mc_now_ms() - c->t0, &oc);
    mc_httprun_fill_free(&fill);
    if (rc != MC_OK) {
        mc__runner_check(c, "harness/step", 0, oc.message, NULL, NULL, NULL, c->seq_all, s->line);
        return -1;
    }
    mc__runner_check(c, cid, oc.pass,
                     oc.pass ? (oc.not_applicable ? oc.message : NULL) : oc.message,
                     oc.expected[0] ? oc.expected : NULL, oc.actual[0] ? oc.actual : NULL, NULL,
                     c->seq_all, s->line);
    return 0;
}

static int step_sleep(rctx_t *c, const mc_step_t *s)
{
    int ms = mc__runner_time_left(c, s->u.sleep.ms);
    int rc = mc_session_poll(&c->s, ms);

    mc__runner_drain(c);
    return rc == MC_EEOF ? 0 : mc__runner_wait_ok(c, rc, "waiting");
}

/* Each kind's runner (step.h), in the shape the table below takes. */
typedef int (*step_run_fn)(rctx_t *c, const mc_step_t *s, int depth);

#define RUN_AS(id, call)                                                                           \
    static int run_##id(rctx_t *c, const mc_step_t *s, int depth)                                 \
    {                                                                                              \
        (void)depth;                                                                               \
        return call;                                                                               \
    }
RUN_AS(request, step_request(c, s))
RUN_AS(notify, step_notify(c, s))
RUN_AS(expect_notification, mc__runner_step_expect(c, s, &s->u.expect_notification, 0))
RUN_AS(expect_no_notification, step_expect_none(c, s, &s->u.expect_no_notification, 0))
RUN_AS(expect_request, mc__runner_step_expect(c, s, &s->u.expect_request, 1))
RUN_AS(expect_no_request, step_expect_none(c, s, &s->u.expect_no_request, 1))
RUN_AS(answer, step_answer(c, s))
RUN_AS(paginate, mc__runner_step_paginate(c, s))
RUN_AS(for_each, step_for_each(c, s, depth))
RUN_AS(raw, step_raw(c, s))
RUN_AS(sleep, step_sleep(c, s))
RUN_AS(await, step_await(c, s))
RUN_AS(value, step_value(c, s))
RUN_AS(http, step_http(c, s))
RUN_AS(reconnect, mc__runner_reconnect(c))
#undef RUN_AS

static const step_run_fn step_runs[MC_STEP_KIND_COUNT] = {
#define RUN_ROW(id, name, what) [MC_STEP_##id] = run_##id,
    MC_STEP_KINDS(RUN_ROW)
#undef RUN_ROW
};

static int run_step(rctx_t *c, const mc_step_t *s, int depth)
{
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
    if (s->kind == MC_STEP_NONE || step_runs[s->kind] == NULL)
        return 0;
    return step_runs[s->kind](c, s, depth);
}

int mc__runner_run_steps(rctx_t *c, const mc_step_t *steps, size_t n, int depth)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (run_step(c, &steps[i], depth) != 0)
            return -1;
    return 0;
}
