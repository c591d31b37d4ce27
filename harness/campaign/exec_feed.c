/*
 * exec_feed.c - sending a sequence to the target and waiting for what is
 * due.
 *
 * Promises: integer ids below MC_EXEC_ID_STRIDE, the generator's "sN"
 * string ids (and the requestId of a cancellation) and its "pN" progress
 * tokens are moved per sequence, so that sequences in one process never
 * reuse each other's ids or tokens; every id and progress token sent in a
 * process is remembered, and one sent again (or a batch, or a line that is
 * not UTF-8) marks what the judge may no longer pair, in that sequence, and
 * for the id or token itself in every later sequence of the process (with
 * the tokens of requests whose id was sent twice, and tokens past what the
 * judge follows); a line sent as is is read leniently for its id, token
 * and a second initialize; a request with a valid envelope, valid UTF-8
 * and not cancelled is an answer due, unless the client answered a server
 * request in a line the server cannot read while it was outstanding;
 * answer elements are not sent but say how the client answers the
 * server's requests from there on; a tools/call naming a tool the user did
 * not allow is never sent, in a message or in a line sent as is; the wait
 * for answers lasts while something is due and the server keeps talking
 * (the hang budget counts from the last thing heard, four budgets at most
 * in all).
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
int mc__exec_utf8_ok(const char *s)
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

/* Adds key (an id's or a token's) to the process's doubtful ones. */
static void doubt_add(mc_exec_t *x, uint32_t key)
{
    if (mc__exec_doubtful(x, key))
        return;
    if (x->n_doubt < MC__EXEC_MAX_DOUBT)
        x->doubt[x->n_doubt++] = key;
    else
        x->doubt_all = 1;
}

int mc__exec_doubtful(const mc_exec_t *x, uint32_t key)
{
    size_t i;

    if (x->doubt_all)
        return 1;
    for (i = 0; i < x->n_doubt; i++)
        if (x->doubt[i] == key)
            return 1;
    return 0;
}

/* Notes that this sequence sent the id of key again: the responses
 * with that id are not judged (which request they answer cannot be told),
 * in this sequence or any later one of the process (an answer may come
 * late); past MC__EXEC_MAX_DUP_IDS, no response of the sequence is. */
static void note_dup(mc_exec_t *x, uint32_t key)
{
    size_t i;

    x->reused = 1;
    if (x->n_dups < MC__EXEC_MAX_DUP_IDS)
        x->dups[x->n_dups++] = key;
    else
        x->reused_all = 1;
    doubt_add(x, key);
    /* The progress of a request with that id is in doubt as well. */
    for (i = 0; i < x->n_tokens && i < MC_WIRE_MAX_TOKENS; i++)
        if (x->tok_id[i] == key)
            doubt_add(x, x->tok_key[i]);
}

/* True when el is a request whose envelope makes an answer due. */
int mc__exec_answer_due(json_object *el)
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

/* Marks the requests outstanding now as held: the client has just
 * answered a server request in a line the server cannot read (not UTF-8),
 * and any of them may be the one waiting for that answer. The spec leaves
 * how long a server waits for its own request to it (basic/lifecycle#timeouts:
 * a timeout it SHOULD have, of its choosing), so their silence is no hang. */
static void hold_outstanding(mc_exec_t *x)
{
    size_t k;

    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled)
            x->exp[k].held = 1;
}

/* Answers a server request as the sequence's answer elements say, the way
 * the scenario runner answers an `answer` step (so that a finding replays
 * alike): an error with its code and message, or the result as given (an
 * accepted elicitation without content gets a valid instance of the
 * requestedSchema); the default responder otherwise. An answer the server
 * cannot read holds what is outstanding (hold_outstanding). */
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
        if (!mc__exec_utf8_ok(reply->error_message))
            hold_outstanding(x);
        return;
    }
    if (json_object_deep_copy(with, &reply->result, NULL) != 0)
        reply->result = NULL;
    mc_instance_fill_accept(request->method, request->params, reply->result);
    if (reply->result != NULL &&
        !mc__exec_utf8_ok(json_object_to_json_string_ext(reply->result, JSON_C_TO_STRING_PLAIN)))
        hold_outstanding(x);
}


size_t mc__exec_outstanding(const mc_exec_t *x)
{
    size_t i, n = 0;

    for (i = 0; i < x->n_exp; i++)
        if (!x->exp[i].answered && !x->exp[i].cancelled && !x->exp[i].held)
            n++;
    return n;
}

void mc__exec_count_hang_wait(mc_exec_t *x, int64_t began)
{
    x->cnt.hang_waits++;
    x->cnt.hang_wait_ms += (uint64_t)(mc_now_ms() - began);
}

void mc__exec_feed_reset(mc_exec_t *x)
{
    size_t k;

    x->n_exp = 0;
    for (k = 0; k < x->n_cancel; k++)
        json_object_put(x->cancels[k]);
    x->n_cancel = 0;
    x->cur_elem = -1;
    x->reused = 0;
    x->reused_all = 0;
    x->n_dups = 0;
    x->long_id = 0;
    json_object_put(x->answers);
    x->answers = NULL;
}

void mc__exec_feed_reset_process(mc_exec_t *x)
{
    int seen;

    mc__exec_ids_reset(x);
    x->n_doubt = 0;
    x->doubt_all = 0;
    x->n_tokens = 0;
    x->reinit = 0;
    (void)mc__exec_key_add(x, "1", &seen); /* the session's initialize */
}

/* Notes the id of a message about to be sent, and returns its key; an id
 * too long for the HTTP transport to pair marks the sequence. */
static uint32_t note_id(mc_exec_t *x, json_object *id)
{
    uint32_t key;
    int seen;

    if (strlen(mc__exec_id_text(id)) > MC_HTTP_MAX_REQ_ID)
        x->long_id = 1;
    key = mc__exec_key_add(x, mc__exec_id_text(id), &seen);
    if (seen)
        note_dup(x, key);
    return key;
}

/* Notes the progress token of a message about to be sent, whose id (if
 * any) has the key idk. A token sent twice in a process belongs to two
 * requests (the client's fault): which one a notification is about is
 * anyone's guess, as with a reused id, in this sequence and later ones. So
 * is it when the id of its request was sent twice (the judge may have
 * ended it with the answer to the other request). A token past the number
 * the judge follows (MC_WIRE_MAX_TOKENS a process) is not followed: its
 * notifications are not paired either. */
static void note_token(mc_exec_t *x, json_object *tok, uint32_t idk)
{
    int seen;
    uint32_t key = mc__exec_token_add(x, tok, &seen);

    if (seen) {
        x->reused = 1;
        doubt_add(x, key);
    } else {
        if (x->n_tokens < MC_WIRE_MAX_TOKENS) {
            x->tok_id[x->n_tokens] = idk;
            x->tok_key[x->n_tokens] = key;
        } else {
            doubt_add(x, key);
        }
        x->n_tokens++;
    }
    if (idk != MC__EXEC_KEY_NONE && mc__exec_doubtful(x, idk))
        doubt_add(x, key);
}

/* Notes what a message about to be sent (msg, an object) makes doubtful:
 * its id (in a batch, always: a response may answer the batch as a whole)
 * and progress token, and a second initialize. */
static void note_message(mc_exec_t *x, json_object *msg, int in_batch)
{
    const char *method = mc_json_get_str(msg, "method");
    json_object *id = mc_json_get(msg, "id");
    uint32_t idk = MC__EXEC_KEY_NONE;
    int seen;

    if (id != NULL && in_batch) {
        idk = mc__exec_key_add(x, mc__exec_id_text(id), &seen);
        note_dup(x, idk);
    } else if (id != NULL) {
        idk = note_id(x, id);
    }
    if (mc__exec_token_of(msg) != NULL)
        note_token(x, mc__exec_token_of(msg), idk);
    if (method != NULL && strcmp(method, "initialize") == 0)
        x->reinit = 1;
}

/* True when msg is a tools/call naming a tool the user did not allow. */
int mc__exec_forbidden_call(const mc_exec_t *x, json_object *msg)
{
    const char *method = mc_json_get_str(msg, "method");

    return method != NULL && strcmp(method, "tools/call") == 0 &&
           (x->o.allowed == NULL ||
            !x->o.allowed(x->o.allowed_ctx, mc_json_get_str(mc_json_get(msg, "params"), "name")));
}

/* Reads a line sent as is (a string element), which a lenient server may
 * read as JSON even when it is malformed. Returns 0 when it must not be
 * sent (it reads as a tools/call of a tool the user did not allow, alone
 * or in a batch). Otherwise notes what it makes doubtful: the id and token
 * of a message it holds (a server may answer them) and a second
 * initialize; in a batch, every element's id counts as sent twice (a
 * response may answer the batch as a whole) and no response with one is
 * judged. */
static int note_raw(mc_exec_t *x, const char *text)
{
    json_object *parsed = json_tokener_parse(text);
    size_t b, nb;
    int ok = 1;

    if (json_object_is_type(parsed, json_type_object)) {
        ok = !mc__exec_forbidden_call(x, parsed);
        if (ok)
            note_message(x, parsed, 0);
    } else if (json_object_is_type(parsed, json_type_array)) {
        nb = json_object_array_length(parsed);
        for (b = 0; b < nb; b++)
            if (mc__exec_forbidden_call(x, json_object_array_get_idx(parsed, b)))
                ok = 0;
        if (ok)
            x->reused = 1;
        for (b = 0; ok && b < nb && b < MC__EXEC_MAX_DUP_IDS; b++)
            note_message(x, json_object_array_get_idx(parsed, b), 1);
    }
    json_object_put(parsed);
    return ok;
}

/* Records what element i (sendv, its line) makes due, and what a
 * cancellation in it releases. */
static void note_due(mc_exec_t *x, json_object *sendv, const char *line, size_t i)
{
    const char *method = mc_json_get_str(sendv, "method");
    size_t k;

    if (mc__exec_answer_due(sendv) && mc__exec_utf8_ok(line) && x->n_exp < MC__EXEC_MAX_EXPECTED) {
        mc__exec_expected_t *e = &x->exp[x->n_exp++];
        json_object *id = mc_json_get(sendv, "id");
        mc__exec_compact(id, e->id, sizeof(e->id));
        e->key = mc__exec_key_of(x, mc__exec_id_text(id));
        e->elem = i;
        e->answered = 0;
        /* A subscriptions/listen stream is answered only when it ends
         * (2026-07-28/basic/patterns/subscriptions): no answer is due. An
         * id the table could not keep cannot be paired with its answer. */
        e->stream = method != NULL && strcmp(method, "subscriptions/listen") == 0;
        e->shape = mc__exec_shape(sendv);
        e->tool = method != NULL && strcmp(method, "tools/call") == 0;
        e->held = e->stream || !mc__exec_key_real(e->key);
        /* An id named by an earlier cancellation is not held against the
         * server either. */
        e->cancelled = 0;
        for (k = 0; k < x->n_cancel; k++)
            if (strcmp(mc__exec_id_text(x->cancels[k]), mc__exec_id_text(id)) == 0)
                e->cancelled = 1;
        /* Sent ahead, and answered before the barrier before it: the
         * server answers out of turn, and nothing more is sent ahead. */
        for (k = 0; x->pre_n > 0 && k < x->n_unclaimed; k++)
            if (strcmp(x->unclaimed[k], mc__exec_id_text(id)) == 0) {
                e->answered = 1;
                if (i < sizeof(x->cur->answered))
                    x->cur->answered[i] = 1;
                x->pipe_off = 1;
            }
    }
    if (method != NULL && strcmp(method, "notifications/cancelled") == 0) {
        json_object *rid = mc_json_get(mc_json_get(sendv, "params"), "requestId");
        uint32_t rk = mc__exec_key_of(x, mc__exec_id_text(rid));
        for (k = 0; k < x->n_exp && mc__exec_key_real(rk); k++)
            if (x->exp[k].key == rk)
                x->exp[k].cancelled = 1;
        if (x->n_cancel < MC__EXEC_MAX_EXPECTED)
            x->cancels[x->n_cancel++] = json_object_get(rid);
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

    if (json_object_is_type(el, json_type_string)) {
        *line = json_object_get_string(el);
        return note_raw(x, *line) ? json_object_get(el) : NULL;
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
    if (!json_object_is_type(el, json_type_object) || mc__exec_forbidden_call(x, el))
        return NULL; /* never a tool the user did not allow */
    sendv = mc__exec_offset_ids(el, off);
    *line = json_object_to_json_string_ext(sendv, JSON_C_TO_STRING_PLAIN |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE);
    note_message(x, sendv, 0);
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

    if (id == NULL)
        return 0;
    for (j = i + 1; j < n; j++) {
        json_object *el = json_object_array_get_idx(seq, j);
        const char *m = mc_json_get_str(el, "method");
        json_object *rid = mc_json_get(mc_json_get(el, "params"), "requestId");
        if (m == NULL || rid == NULL || strcmp(m, "notifications/cancelled") != 0)
            continue;
        if (strcmp(mc__exec_id_text(id), mc__exec_id_text(rid)) == 0)
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

    while (!x->exp[k].answered && !x->exp[k].held) {
        rc = mc__exec_wait_slice(x, began);
        if (rc == MC_EEOF)
            return MC_EEOF;
        if (rc != MC_OK) {
            x->lockstep = 0;
            mc__exec_count_hang_wait(x, began);
            break;
        }
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
    /* A request of a shape the target is known to drop is not waited for:
     * its edges are owed to the next answer. */
    if (mc__exec_known_dropped(x, x->exp[k - 1].shape))
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
    if (!mc__exec_utf8_ok(line))
        x->reused = x->reused_all = 1;
    if (i < sizeof(x->cur->sent))
        x->cur->sent[i] = 1;
    x->cur_elem = (int)i;
    if (i < x->pre_n) {
        /* Sent ahead: its answer waits in the queue, behind the barrier. */
        json_object_put(sendv);
        return MC__EXEC_FED_OK;
    }
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

int mc__exec_wait_slice(mc_exec_t *x, int64_t began)
{
    int64_t now = mc_now_ms(), left = x->last_heard + x->o.hang_ms - now;
    int rc;

    if (left <= 0 || now - began > 4 * (int64_t)x->o.hang_ms)
        return MC_ETIMEOUT;
    rc = mc_session_poll_once(&x->s, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
    mc__exec_drain_notes(x);
    return rc == MC_EEOF ? MC_EEOF : MC_OK;
}

int mc__exec_await(mc_exec_t *x)
{
    int64_t began = x->last_heard = mc_now_ms();
    int rc, dead = 0;
    size_t k;

    while (!dead && mc__exec_outstanding(x) > 0) {
        rc = mc__exec_wait_slice(x, began);
        if (rc == MC_EEOF)
            dead = 1;
        else if (rc != MC_OK) {
            mc__exec_count_hang_wait(x, began);
            break;
        }
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
