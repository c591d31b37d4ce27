/*
 * exec_observe.c - what the executor makes of every line that crosses the
 * wire, in either direction, as the session's observer.
 *
 * Promises: each line goes into the recorded trace (when recording) and the
 * sequence's line counts; each inbound line, as the judge decoded it (it is
 * parsed once, by the judge; a line the judge could not read as strict JSON
 * gets one lenient reading, to tell whether it was meant as an answer), adds
 * its state to the response state model, teaches the generator what results
 * and notifications reveal, marks the request it answers as answered and the
 * element sent last as replied to, and is remembered (method, response id)
 * so that a wire finding about it can name its method.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/clock.h"
#include "core/hash.h"
#include "core/json.h"

/* Bytes of one line kept in a recorded trace. */
#define MAX_TRACE_LINE 65536

uint32_t mc__exec_hash(uint32_t h, const char *s)
{
    if (h == 0)
        h = MC_FNV1A32_INIT;
    if (s != NULL)
        h = mc_fnv1a32_str(h, s);
    return mc_fnv1a32_byte(h, 0xff);
}

static void add_state(mc_exec_t *x, uint32_t st)
{
    mc_exec_outcome_t *o = x->cur;

    if (o == NULL)
        return;
    if (o->ns < MC_EXEC_MAX_STATES)
        o->states[o->ns++] = st;
    /* The transition from the previous state is a state of its own, as in
     * stateful network fuzzers' state models. */
    if (x->prev_state != 0 && o->ns < MC_EXEC_MAX_STATES)
        o->states[o->ns++] = (x->prev_state * 2654435761u) ^ st ^ 0x5bd1e995u;
    x->prev_state = st;
}

void mc__exec_compact(json_object *v, char *out, size_t n)
{
    const char *s =
        v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
          : "null";
    snprintf(out, n, "%s", s);
}

static void trace_add(mc_exec_t *x, int outbound, const char *line, size_t len)
{
    mc_exec_outcome_t *o = x->cur;
    json_object *s;
    const char *js;
    size_t jl;
    char head[96];
    int hn;

    if (o == NULL || !x->record || line == NULL)
        return;
    s = json_object_new_string_len(line, (int)(len > MAX_TRACE_LINE ? MAX_TRACE_LINE : len));
    if (s == NULL)
        return;
    js = json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    jl = strlen(js);
    hn = snprintf(head, sizeof(head), "{\"seq\": %llu, \"t_ms\": %lld, \"dir\": \"%s\", \"line\": ",
                  (unsigned long long)x->seq_ctr, (long long)(mc_now_ms() - x->t0),
                  outbound ? "out" : "in");
    if (hn > 0 && o->trace_len + (size_t)hn + jl + 3 <= MC_EXEC_MAX_TRACE) {
        if (o->trace_len + (size_t)hn + jl + 3 > x->trace_cap) {
            size_t nc = x->trace_cap ? x->trace_cap : 4096;
            char *nb;
            while (nc < o->trace_len + (size_t)hn + jl + 3)
                nc *= 2;
            nb = realloc(o->trace, nc);
            if (nb == NULL) {
                json_object_put(s);
                return;
            }
            o->trace = nb;
            x->trace_cap = nc;
        }
        memcpy(o->trace + o->trace_len, head, (size_t)hn);
        o->trace_len += (size_t)hn;
        memcpy(o->trace + o->trace_len, js, jl);
        o->trace_len += jl;
        memcpy(o->trace + o->trace_len, "}\n", 3);
        o->trace_len += 2;
    }
    json_object_put(s);
}

/* The method a response answers, as the state model names it: a method the
 * negotiated version's schema does not define is "?", whatever its name.
 * The name is the fuzzer's own making (the mutator puts odd strings there),
 * so keying on it would make every mutated name a "new state" and flood the
 * corpus with entries the server treated alike. */
static const char *state_method(const mc_exec_t *x, const char *method)
{
    if (method == NULL)
        return "?";
    if (x->o.registry != NULL && x->version[0] != '\0' &&
        mc_registry_schema(x->o.registry, x->version) != NULL &&
        mc_registry_request_def(x->o.registry, x->version, method) == NULL)
        return "?";
    return method;
}

/* The state key of an inbound message: method x result kind x error code
 * for responses, the method for notifications and server requests. */
static uint32_t state_of(const mc_exec_t *x, const mc_wire_info_t *info)
{
    const mc_msg_t *m = &info->msg;
    uint32_t h = 0;
    char code[32];

    switch (m->kind) {
    case MC_MSG_RESULT:
        h = mc__exec_hash(mc__exec_hash(0, "result"), state_method(x, info->answered_method));
        if (json_object_is_type(m->result, json_type_object)) {
            json_object *ie = mc_json_get(m->result, "isError");
            if (ie != NULL && json_object_get_boolean(ie))
                h = mc__exec_hash(h, "isError");
            if (mc_json_get(m->result, "nextCursor") != NULL)
                h = mc__exec_hash(h, "nextCursor");
            if (json_object_object_length(m->result) == 0)
                h = mc__exec_hash(h, "empty");
        }
        return h;
    case MC_MSG_ERROR:
        snprintf(code, sizeof(code), "%lld", (long long)m->error_code);
        h = mc__exec_hash(mc__exec_hash(0, "error"), state_method(x, info->answered_method));
        return mc__exec_hash(h, code);
    case MC_MSG_NOTIFICATION:
        return mc__exec_hash(mc__exec_hash(0, "notification"), m->method);
    case MC_MSG_REQUEST:
        return mc__exec_hash(mc__exec_hash(0, "server-request"), m->method);
    default:
        return mc__exec_hash(0, "invalid");
    }
}

/* Marks the requests expected with the id of key answered (id: its text,
 * or NULL). A stream (a subscriptions/listen request) whose id a request
 * still unanswered shares is left open: the answer is taken as that
 * request's, for a stream is answered only when it ends. */
static void mark_key_answered(mc_exec_t *x, uint32_t key, const char *id)
{
    size_t i;
    int other = 0, mine = 0;

    for (i = 0; i < x->n_exp && mc__exec_key_real(key); i++)
        if (x->exp[i].key == key && !x->exp[i].stream && !x->exp[i].answered)
            other = 1;
    for (i = 0; i < x->n_exp && mc__exec_key_real(key); i++)
        if (x->exp[i].key == key && !(other && x->exp[i].stream)) {
            mine = 1;
            x->exp[i].answered = 1;
            if (x->cur != NULL && x->exp[i].elem < sizeof(x->cur->answered))
                x->cur->answered[x->exp[i].elem] = 1;
        }
    /* With a sequence sent ahead, an answer to none of this sequence's
     * requests may be one of its own, come before the barrier's. */
    if (!mine && x->ahead_n > 0 && id != NULL)
        mc__exec_unclaimed_add(x, id);
}

/* mark_key_answered for the id whose text (compact JSON) is id. */
static void mark_id_answered(mc_exec_t *x, const char *id)
{
    mark_key_answered(x, mc__exec_key_of(x, id), id);
}

/* Whatever its envelope, a message carrying an id and no method answers
 * that id (a bad envelope is the wire checks' business, not a hang). */
static void mark_answered(mc_exec_t *x, json_object *root)
{
    if (!json_object_is_type(root, json_type_object) || mc_json_get(root, "method") != NULL ||
        mc_json_get(root, "id") == NULL)
        return;
    mark_id_answered(x, mc__exec_id_text(mc_json_get(root, "id")));
}


/* True when root is a JSON object with an id and no method: an answer,
 * whatever else is wrong with it. */
static int response_shaped(json_object *root)
{
    return json_object_is_type(root, json_type_object) && mc_json_get(root, "method") == NULL &&
           json_object_object_get_ex(root, "id", NULL);
}

/* Marks the element sent last as replied to. */
static void note_replied(mc_exec_t *x)
{
    size_t k;

    if (x->cur == NULL || x->cur_elem < 0 || (size_t)x->cur_elem >= sizeof(x->cur->replied))
        return;
    /* A stream sent last (a listen request) is answered only when it ends:
     * a response arriving now answers something sent before it. */
    for (k = 0; k < x->n_exp; k++)
        if (x->exp[k].elem == (size_t)x->cur_elem && x->exp[k].stream)
            return;
    x->cur->replied[x->cur_elem] = 1;
}

/* An inbound frame that is no valid JSON-RPC message: root is the judge's
 * decoding of it (NULL when it was no strict JSON, which then gets one
 * lenient reading: a server's answer with a stray byte is still the answer
 * it meant). */
static void observe_invalid(mc_exec_t *x, json_object *root, const char *line)
{
    json_object *own = NULL;

    if (root == NULL && line != NULL)
        root = own = json_tokener_parse(line);
    if (response_shaped(root))
        note_replied(x);
    mark_answered(x, root);
    json_object_put(own);
    add_state(x, mc__exec_hash(0, "odd-frame"));
}

/* Remembers what inbound message ip was, for naming the method of a wire
 * finding about it. */
static void remember_inline(mc_exec_t *x, const mc_wire_info_t *ip, const char *method)
{
    mc__exec_inline_t *r;

    if (x->inl == NULL)
        return;
    r = &x->inl[x->inl_n % MC_EXEC_MAX_INLINES];
    r->seq = x->seq_ctr;
    r->response = ip->msg.kind == MC_MSG_RESULT || ip->msg.kind == MC_MSG_ERROR;
    r->idk = MC__EXEC_KEY_NONE;
    r->tokk = MC__EXEC_KEY_NONE;
    if (r->response && ip->msg.id != NULL)
        r->idk = mc__exec_key_of(x, mc__exec_id_text(ip->msg.id));
    if (ip->msg.kind == MC_MSG_NOTIFICATION && ip->msg.method != NULL &&
        strcmp(ip->msg.method, "notifications/progress") == 0 &&
        mc_json_get(ip->msg.params, "progressToken") != NULL)
        r->tokk = mc__exec_token_find(x, mc_json_get(ip->msg.params, "progressToken"));
    snprintf(r->method, sizeof(r->method), "%s", method ? method : "");
    x->inl_n++;
}

/* True when ip answers the barrier of this sequence; notes it. A response
 * to an id left unanswered at an earlier barrier shows a server that
 * answers out of order (mc__exec_note_late). */
static int barrier_answer(mc_exec_t *x, const mc_wire_info_t *ip)
{
    const char *id;
    uint32_t key;
    size_t i, n;

    if ((ip->msg.kind != MC_MSG_RESULT && ip->msg.kind != MC_MSG_ERROR) || ip->msg.id == NULL)
        return 0;
    id = mc__exec_id_text(ip->msg.id);
    if (x->barrier_id[0] != '\0' && strcmp(id, x->barrier_id) == 0) {
        x->barrier_answered = 1;
        return 1;
    }
    key = mc__exec_key_of(x, id);
    n = x->n_late_watch < MC_EXEC_MAX_LATE_WATCH ? x->n_late_watch : MC_EXEC_MAX_LATE_WATCH;
    for (i = 0; i < n && mc__exec_key_real(key); i++)
        if (x->late_watch[i] == key && x->dropped != NULL)
            mc__exec_note_late(x, x->late_shape[i]);
    return 0;
}

void mc__exec_observe(void *ctx, const mc_seen_t *seen)
{
    static const mc_wire_info_t none;
    mc_exec_t *x = ctx;
    const mc_wire_info_t *ip = seen->judged != NULL ? seen->judged : &none;
    const mc_record_t *rec = seen->rec;
    int outbound = rec->outbound;
    const char *line = rec->data;
    size_t len = rec->len;
    const char *answers = (rec->flags & MC_FRAME_F_REFUSAL) ? rec->facts.answers : NULL;
    const char *method;

    x->seq_ctr++;
    if (outbound && x->barrier_sending)
        return; /* the barrier is the executor's, no message of the sequence */
    if (outbound && x->presending) {
        x->ahead_lines++; /* the next sequence's, counted in its run */
        return;
    }
    if (!outbound && ip->is_line && barrier_answer(x, ip)) {
        x->last_heard = mc_now_ms();
        remember_inline(x, ip, ip->answered_method);
        return;
    }
    trace_add(x, outbound, line, len);
    if (outbound) {
        if (x->cur != NULL)
            x->cur->lines_out++;
        return;
    }
    if (x->cur != NULL)
        x->cur->lines_in++;
    x->last_heard = mc_now_ms();
    /* An HTTP error status refusing a POST answers the request it carried,
     * with or without its id (2026-07-28/basic/transports/streamable-http). */
    if (answers != NULL) {
        if (answers[0] != '\0') {
            /* The transport's compact JSON may escape what ours does not
             * ("/"): read again and written as the ids we keep are. */
            json_object *v = json_tokener_parse(answers);
            mark_id_answered(x, v != NULL ? mc__exec_id_text(v) : answers);
            json_object_put(v);
        } else {
            /* An id too long for the transport to keep: the refusal came on
             * the stream of the POST sent last. */
            size_t i;
            for (i = 0; i < x->n_exp; i++)
                if (x->cur_elem >= 0 && x->exp[i].elem == (size_t)x->cur_elem)
                    mark_key_answered(x, x->exp[i].key, NULL);
        }
        note_replied(x);
    }
    /* The session's judge (x->j) has judged the line; ip is what it made of it. */
    if (!ip->is_line) {
        observe_invalid(x, ip->msg.root, line);
        return;
    }
    method = ip->msg.method ? ip->msg.method : ip->answered_method;
    if (ip->msg.kind == MC_MSG_NOTIFICATION || ip->msg.kind == MC_MSG_REQUEST)
        x->chatter = x->proc_chatter = 1;
    remember_inline(x, ip, method);
    add_state(x, state_of(x, ip));
    if (x->o.learn != NULL) {
        if (ip->msg.kind == MC_MSG_RESULT && ip->answered_method != NULL)
            x->o.learn(x->o.learn_ctx, ip->answered_method, ip->msg.result);
        else if (ip->msg.kind == MC_MSG_NOTIFICATION && ip->msg.method != NULL)
            x->o.learn(x->o.learn_ctx, ip->msg.method, ip->msg.params);
    }
    /* A response, even one with a broken envelope (an error code that is
     * a string), answers what was sent last: its replay step expects an
     * answer, so that a server that answers correctly passes it. */
    if (ip->msg.kind == MC_MSG_RESULT || ip->msg.kind == MC_MSG_ERROR)
        note_replied(x);
    mark_answered(x, ip->msg.root);
}

const mc__exec_inline_t *mc__exec_inline_of_seq(const mc_exec_t *x, uint64_t seq)
{
    size_t i, n = x->inl_n < MC_EXEC_MAX_INLINES ? x->inl_n : MC_EXEC_MAX_INLINES;

    for (i = 0; i < n; i++) {
        const mc__exec_inline_t *r = &x->inl[(x->inl_n - 1 - i) % MC_EXEC_MAX_INLINES];
        if (r->seq == seq)
            return r;
    }
    return NULL;
}
