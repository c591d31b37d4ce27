/*
 * exec_feed.c - sending a sequence to the target and waiting for what is
 * due.
 *
 * Promises: integer ids below MC_EXEC_ID_STRIDE and the generator's "sN"
 * string ids (and the requestId of a cancellation) are moved per sequence,
 * so that sequences in one process never reuse each other's ids; every id
 * and progress token sent in a process is remembered, and one sent again
 * (or a batch, or a line that is not UTF-8) marks what the judge may no
 * longer pair; a request with a valid envelope, valid UTF-8 and not
 * cancelled is an answer due; answer elements are not sent but say how the
 * client answers the server's requests from there on; a tools/call naming a
 * tool the user did not allow is never sent; the wait for answers lasts
 * while something is due and the server keeps talking (the hang budget
 * counts from the last thing heard, four budgets at most in all).
 */
#include <stdio.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "client/http_limits.h"
#include "core/clock.h"
#include "core/json.h"
#include "scenario/instance.h"

/* True when s is valid UTF-8 (no overlongs, surrogates or code points past
 * U+10FFFF): a line that is not cannot be read, so nothing in it is due. */
static int utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p != 0) {
        unsigned c = *p;
        size_t n, k;
        unsigned cp;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        for (k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[k] & 0x3f);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        p += n + 1;
    }
    return 1;
}

/* Remembers an id sent in this process; returns 1 when it was sent before. */
int mc__exec_id_reused(mc_exec_t *x, const char *id)
{
    uint32_t h = mc__exec_hash(0, id), mask = MC__EXEC_MAX_IDS - 1, i = h & mask, probes;

    if (h == 0)
        h = 1;
    for (probes = 0; probes < MC__EXEC_MAX_IDS / 2; probes++) {
        if (x->ids[i] == h)
            return 1;
        if (x->ids[i] == 0) {
            if (x->n_ids < MC__EXEC_MAX_IDS / 2) {
                x->ids[i] = h;
                x->n_ids++;
            }
            return 0;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

/* Notes that this sequence sent id (compact JSON) again: the responses
 * with that id are not judged (which request they answer cannot be told);
 * past MC__EXEC_MAX_DUP_IDS, none are. */
static void note_dup(mc_exec_t *x, const char *id)
{
    x->reused = 1;
    if (x->n_dups < MC__EXEC_MAX_DUP_IDS)
        x->dups[x->n_dups++] = mc__exec_hash(0, id);
    else
        x->reused_all = 1;
}


/* True when el is a request whose envelope makes an answer due. */
static int answer_due(json_object *el)
{
    json_object *id = mc_json_get(el, "id"), *params = mc_json_get(el, "params");
    const char *v = mc_json_get_str(el, "jsonrpc");

    if (id == NULL || !mc_jsonrpc_id_valid(id) || v == NULL || strcmp(v, "2.0") != 0 ||
        mc_json_get_str(el, "method") == NULL)
        return 0;
    if (json_object_is_type(id, json_type_double))
        return 0;
    return params == NULL || json_object_is_type(params, json_type_object) ||
           json_object_is_type(params, json_type_array);
}

/* The number n of a generated string id "sN" (N below the id stride, no
 * leading zero), or -1 for any other value. */
static int64_t gen_string_id(json_object *id)
{
    const char *s = json_object_is_type(id, json_type_string) ? json_object_get_string(id) : NULL;
    int64_t n = 0;
    size_t i;

    if (s == NULL || s[0] != 's' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2] != '\0'))
        return -1;
    for (i = 1; s[i] != '\0'; i++) {
        if (s[i] < '0' || s[i] > '9' || i > 9)
            return -1;
        n = n * 10 + (s[i] - '0');
    }
    return n < MC_EXEC_ID_STRIDE ? n : -1;
}

/* id moved by off: an integer in [0, MC_EXEC_ID_STRIDE) plus off, a
 * generated string id "sN" as "s(N+off)"; NULL for any other id (an odd
 * value the mutator chose stays as it is). */
static json_object *moved_id(json_object *id, int64_t off)
{
    int64_t n;
    char buf[32];

    if (json_object_is_type(id, json_type_int) && json_object_get_int64(id) >= 0 &&
        json_object_get_int64(id) < MC_EXEC_ID_STRIDE)
        return json_object_new_int64(json_object_get_int64(id) + off);
    if ((n = gen_string_id(id)) < 0)
        return NULL;
    snprintf(buf, sizeof(buf), "s%lld", (long long)(n + off));
    return json_object_new_string(buf);
}

/* Moves an id (or requestId) by off so sequences in one process do not
 * reuse ids: integers and the generator's string ids (moved_id). Returns a
 * new reference or a new reference to el. */
static json_object *offset_ids(json_object *el, int64_t off)
{
    json_object *c = NULL, *id, *p, *rid, *m;

    if (off == 0)
        return json_object_get(el);
    id = mc_json_get(el, "id");
    p = mc_json_get(el, "params");
    rid = mc_json_get(p, "requestId");
    if ((id == NULL || (m = moved_id(id, off)) == NULL) &&
        (rid == NULL || (m = moved_id(rid, off)) == NULL))
        return json_object_get(el);
    json_object_put(m);
    if (json_object_deep_copy(el, &c, NULL) != 0)
        return json_object_get(el);
    id = mc_json_get(c, "id");
    if (id != NULL && (m = moved_id(id, off)) != NULL)
        json_object_object_add(c, "id", m);
    p = mc_json_get(c, "params");
    rid = mc_json_get(p, "requestId");
    if (rid != NULL && (m = moved_id(rid, off)) != NULL)
        json_object_object_add(p, "requestId", m);
    return c;
}


int mc_exec_is_answer(json_object *el)
{
    json_object *with = mc_json_get(el, "with"), *err = mc_json_get(el, "error");

    if (!json_object_is_type(el, json_type_object) || mc_json_get_str(el, "answer") == NULL ||
        mc_json_get(el, "method") != NULL || (with == NULL) == (err == NULL))
        return 0;
    if (!json_object_is_type(with != NULL ? with : err, json_type_object))
        return 0;
    /* A scenario step would expand "${...}" in it: such a body is not an
     * answer the replay could give alike. */
    return strstr(json_object_to_json_string_ext(el, JSON_C_TO_STRING_PLAIN), "${") == NULL;
}

/* Answers a server request as the sequence's answer elements say, the way
 * the scenario runner answers an `answer` step (so that a finding replays
 * alike): an error with its code and message, or the result as given (an
 * accepted elicitation without content gets a valid instance of the
 * requestedSchema); the default responder otherwise. */
void mc__exec_respond(void *ctx, mc_session_t *s, const mc_msg_t *request, mc_reply_t *reply)
{
    mc_exec_t *x = ctx;
    json_object *a = mc_json_get(x->answers, request->method), *with, *err;

    if (a == NULL) {
        mc_session_default_responder(NULL, s, request, reply);
        return;
    }
    with = mc_json_get(a, "with");
    err = mc_json_get(a, "error");
    if (err != NULL) {
        const char *msg = mc_json_get_str(err, "message");
        reply->error_code = mc_json_get_int(err, "code", MC_RPC_INTERNAL_ERROR);
        snprintf(reply->error_message, sizeof(reply->error_message), "%s",
                 msg != NULL ? msg : "error");
        return;
    }
    if (json_object_deep_copy(with, &reply->result, NULL) != 0)
        reply->result = NULL;
    mc_instance_fill_accept(request->method, request->params, reply->result);
}


size_t mc__exec_outstanding(const mc_exec_t *x)
{
    size_t i, n = 0;

    for (i = 0; i < x->n_exp; i++)
        if (!x->exp[i].answered && !x->exp[i].cancelled)
            n++;
    return n;
}

void mc__exec_feed_reset(mc_exec_t *x)
{
    x->n_exp = 0;
    x->n_cancel = 0;
    x->cur_elem = -1;
    x->reused = 0;
    x->reused_all = 0;
    x->n_dups = 0;
    x->long_id = 0;
    json_object_put(x->answers);
    x->answers = NULL;
}

/* Notes the id of a line sent as is (a string element): a malformed line
 * may still carry a readable id, and a batch's requests' ids count as sent
 * (the server may answer them), so that a response with any of them, or
 * one answering the batch as a whole, is not judged. */
static void note_raw_ids(mc_exec_t *x, const char *text)
{
    json_object *parsed = json_tokener_parse(text);

    if (json_object_is_type(parsed, json_type_object) && mc_json_get(parsed, "id") != NULL) {
        char idc[MC_HTTP_MAX_REQ_ID + 2];
        mc__exec_compact(mc_json_get(parsed, "id"), idc, sizeof(idc));
        if (mc__exec_id_reused(x, idc))
            note_dup(x, idc);
        if (strlen(idc) > MC_HTTP_MAX_REQ_ID)
            x->long_id = 1;
    } else if (json_object_is_type(parsed, json_type_array)) {
        size_t b, nb = json_object_array_length(parsed);
        x->reused = 1;
        for (b = 0; b < nb && b < MC__EXEC_MAX_DUP_IDS; b++) {
            json_object *bid = mc_json_get(json_object_array_get_idx(parsed, b), "id");
            char idc[64];
            if (bid == NULL)
                continue;
            mc__exec_compact(bid, idc, sizeof(idc));
            (void)mc__exec_id_reused(x, idc);
            note_dup(x, idc);
        }
    }
    json_object_put(parsed);
}

/* Notes the id and progress token of a message about to be sent. */
static void note_ids(mc_exec_t *x, json_object *sendv)
{
    json_object *tok;

    if (mc_json_get(sendv, "id") != NULL) {
        char idc[64];
        mc__exec_compact(mc_json_get(sendv, "id"), idc, sizeof(idc));
        if (mc__exec_id_reused(x, idc))
            note_dup(x, idc);
        if (strlen(idc) > MC_HTTP_MAX_REQ_ID)
            x->long_id = 1;
    }
    /* A progress token sent twice in a process belongs to two requests
     * (the client's fault): which one a notification is about is anyone's
     * guess, as with a reused id. */
    tok = mc_json_get(mc_json_get(mc_json_get(sendv, "params"), "_meta"), "progressToken");
    if (tok != NULL) {
        char tc[72], tv[64];
        mc__exec_compact(tok, tv, sizeof(tv));
        snprintf(tc, sizeof(tc), "token:%s", tv);
        if (mc__exec_id_reused(x, tc))
            x->reused = 1;
    }
}

/* Records what element i (sendv, its line) makes due, and what a
 * cancellation in it releases. */
static void note_due(mc_exec_t *x, json_object *sendv, const char *line, size_t i)
{
    const char *method = mc_json_get_str(sendv, "method");
    size_t k;

    if (answer_due(sendv) && utf8_ok(line) && x->n_exp < MC__EXEC_MAX_EXPECTED) {
        mc__exec_expected_t *e = &x->exp[x->n_exp++];
        mc__exec_compact(mc_json_get(sendv, "id"), e->id, sizeof(e->id));
        e->elem = i;
        e->answered = 0;
        /* An id named by an earlier cancellation is not held against the
         * server either. */
        e->cancelled = 0;
        for (k = 0; k < x->n_cancel; k++)
            if (strcmp(x->cancels[k], e->id) == 0)
                e->cancelled = 1;
    }
    if (method != NULL && strcmp(method, "notifications/cancelled") == 0) {
        char rid[64];
        mc__exec_compact(mc_json_get(mc_json_get(sendv, "params"), "requestId"), rid, sizeof(rid));
        for (k = 0; k < x->n_exp; k++)
            if (strcmp(x->exp[k].id, rid) == 0)
                x->exp[k].cancelled = 1;
        if (x->n_cancel < MC__EXEC_MAX_EXPECTED)
            memcpy(x->cancels[x->n_cancel++], rid, sizeof(rid));
    }
}

/* What element i of a sequence sends: a new reference to the value whose
 * text is sent (*line, valid while it lives), or NULL when nothing is sent
 * (an answer element, which is recorded instead; a tools/call the user did
 * not allow; anything else that is no message). */
static json_object *prepare(mc_exec_t *x, json_object *el, size_t i, int64_t off,
                            const char **line)
{
    json_object *sendv;
    const char *method;

    if (json_object_is_type(el, json_type_string)) {
        *line = json_object_get_string(el);
        note_raw_ids(x, *line);
        return json_object_get(el);
    }
    if (mc_exec_is_answer(el)) {
        /* Not sent: how the client answers from here on. */
        if (x->answers == NULL)
            x->answers = json_object_new_object();
        if (x->answers != NULL)
            json_object_object_add(x->answers, mc_json_get_str(el, "answer"), json_object_get(el));
        if (i < sizeof(x->cur->sent))
            x->cur->sent[i] = 1;
        return NULL;
    }
    if (!json_object_is_type(el, json_type_object))
        return NULL;
    method = mc_json_get_str(el, "method");
    if (method != NULL && strcmp(method, "tools/call") == 0 &&
        (x->o.allowed == NULL ||
         !x->o.allowed(x->o.allowed_ctx, mc_json_get_str(mc_json_get(el, "params"), "name"))))
        return NULL; /* never a tool the user did not allow */
    sendv = offset_ids(el, off);
    *line = json_object_to_json_string_ext(sendv, JSON_C_TO_STRING_PLAIN |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE);
    note_ids(x, sendv);
    if (method != NULL && strcmp(method, "initialize") == 0)
        x->reinit = 1;
    note_due(x, sendv, *line, i);
    return sendv;
}

/* True when a later element of seq is a cancellation naming the id of
 * element i (as the sequence writes both): the race between that request
 * and its cancellation is the point, so its answer is not waited for. */
static int cancelled_later(json_object *seq, size_t i)
{
    json_object *id = mc_json_get(json_object_array_get_idx(seq, i), "id");
    size_t j, n = json_object_array_length(seq);
    char a[64], b[64];

    if (id == NULL)
        return 0;
    mc__exec_compact(id, a, sizeof(a));
    for (j = i + 1; j < n; j++) {
        json_object *el = json_object_array_get_idx(seq, j);
        const char *m = mc_json_get_str(el, "method");
        json_object *rid = mc_json_get(mc_json_get(el, "params"), "requestId");
        if (m == NULL || rid == NULL || strcmp(m, "notifications/cancelled") != 0)
            continue;
        mc__exec_compact(rid, b, sizeof(b));
        if (strcmp(a, b) == 0)
            return 1;
    }
    return 0;
}

/* Waits for the answer to expected request k as the final wait does (the
 * hang budget of silence, four budgets at most). When it does not come the
 * sequence stops waiting for each answer. Returns MC_EEOF when the
 * target's output ended, else MC_OK. */
static int await_one(mc_exec_t *x, size_t k)
{
    int64_t began = x->last_heard = mc_now_ms();
    int rc;

    while (!x->exp[k].answered) {
        int64_t now = mc_now_ms(), left = x->last_heard + x->o.hang_ms - now;
        if (left <= 0 || now - began > 4 * (int64_t)x->o.hang_ms) {
            x->lockstep = 0;
            break;
        }
        rc = mc_session_poll_once(&x->s, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
        mc__exec_drain_notes(x);
        if (rc == MC_EEOF)
            return MC_EEOF;
    }
    return MC_OK;
}

/* With lock-step on: waits for the answer element i made due (if any, and
 * unless a later cancellation names it), then owes the new edges the map
 * shows to element i. Returns MC_EEOF when the target's output ended. */
static int step(mc_exec_t *x, json_object *seq, size_t i)
{
    size_t k = x->n_exp;

    if (!x->lockstep || k == 0 || x->exp[k - 1].elem != i || x->exp[k - 1].cancelled ||
        cancelled_later(seq, i))
        return MC_OK;
    if (await_one(x, k - 1) == MC_EEOF)
        return MC_EEOF;
    if (x->lockstep)
        (void)mc__exec_cov_credit(x, (int)i);
    return MC_OK;
}

mc__exec_fed_t mc__exec_feed_element(mc_exec_t *x, json_object *seq, size_t i, int64_t off)
{
    const char *line = NULL;
    json_object *sendv = prepare(x, json_object_array_get_idx(seq, i), i, off, &line);
    size_t k;
    int rc;

    if (sendv == NULL)
        return MC__EXEC_FED_OK;
    /* A line that is not UTF-8 may be read one way by the checker and
     * another by a lenient server: responses are not judged after it. */
    if (!utf8_ok(line))
        x->reused = x->reused_all = 1;
    if (i < sizeof(x->cur->sent))
        x->cur->sent[i] = 1;
    x->cur_elem = (int)i;
    rc = mc_session_send_raw(&x->s, line, strlen(line), x->o.hang_ms);
    json_object_put(sendv);
    if (rc == MC_ETIMEOUT) {
        mc__exec_add_finding(x->cur, MC_FIND_HANG, "process/hang", "", "stdin",
                             "the server stopped reading its input");
        return MC__EXEC_FED_STUCK;
    }
    if (rc != MC_OK)
        return MC__EXEC_FED_DEAD;
    for (k = 0; k < MC__EXEC_MAX_READY_FRAMES; k++) {
        rc = mc_session_poll_once(&x->s, 0);
        if (rc != MC_OK)
            break;
    }
    mc__exec_drain_notes(x);
    if (rc == MC_EEOF || step(x, seq, i) == MC_EEOF)
        return MC__EXEC_FED_DEAD;
    return MC__EXEC_FED_OK;
}

int mc__exec_await(mc_exec_t *x)
{
    int64_t began = x->last_heard = mc_now_ms();
    int rc, dead = 0;
    size_t k;

    while (!dead && mc__exec_outstanding(x) > 0) {
        int64_t now = mc_now_ms(), left = x->last_heard + x->o.hang_ms - now;
        if (left <= 0 || now - began > 4 * (int64_t)x->o.hang_ms)
            break;
        rc = mc_session_poll_once(&x->s, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
        mc__exec_drain_notes(x);
        if (rc == MC_EEOF)
            dead = 1;
    }
    if (dead)
        return 1;
    for (k = 0; k < MC__EXEC_MAX_READY_FRAMES; k++) {
        rc = mc_session_poll_once(&x->s, x->o.settle_ms);
        if (rc == MC_EEOF)
            dead = 1;
        if (rc != MC_OK)
            break;
    }
    mc__exec_drain_notes(x);
    return dead;
}
