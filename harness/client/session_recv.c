/*
 * session_recv.c - the waiting: one step receives one frame from the link
 * within a deadline, hands it to the judge and the observer, and delivers
 * the decoded message to the request (or raw wait) it answers, the
 * notification queue, or the responder of server requests. The rate guard
 * bounds what one wait and one session may take in.
 */
#include <stdio.h>
#include <string.h>

#include "client/session.h"
#include "client/session_internal.h"
#include "core/json.h"

/*
 * Delivers a response to the request (or the raw wait) it answers. One that
 * answers nothing outstanding is dropped: why it is wrong (no such id, a
 * second answer, an id of another type, no id) is the judge's finding.
 */
/*
 * An error without an id in the body of an HTTP error status (the transport
 * names the request its POST carried, answers): the server refused that
 * request at the HTTP level, and the body is its answer. Returns 1 when msg
 * was taken as the answer to that request, 0 otherwise (msg untouched).
 */
static int refusal_answer(mc_session_t *s, mc_msg_t *msg, const char *answers)
{
    json_object *aid = NULL;
    mc_pending_t *p = NULL;
    int taken = 0;

    if (answers == NULL || msg->id != NULL || msg->kind != MC_MSG_ERROR ||
        mc_json_parse(answers, strlen(answers), 0, &aid, NULL) != MC_OK)
        return 0;
    if (s->raw_wait && !s->raw_got && (s->raw_id == NULL || mc_jsonrpc_id_equal(s->raw_id, aid))) {
        s->raw_got = 1;
        s->raw_resp = *msg;
        memset(msg, 0, sizeof(*msg));
        taken = 1;
    } else if (json_object_is_type(aid, json_type_int)) {
        p = mc__session_find_pending(s, json_object_get_int64(aid));
        if (p != NULL && !p->answered) {
            p->answered = 1;
            p->response = *msg;
            memset(msg, 0, sizeof(*msg));
            taken = 1;
        }
    }
    json_object_put(aid);
    return taken;
}

static void on_response(mc_session_t *s, mc_msg_t *msg, const char *answers)
{
    mc_pending_t *p = NULL;
    json_object *id = msg->id;

    if (refusal_answer(s, msg, answers))
        return;
    mc__session_collect_batch_part(s, msg);
    if (s->raw_wait && !s->raw_got && !s->raw_batch &&
        ((s->raw_id == NULL && id == NULL) ||
         (s->raw_id != NULL && id != NULL && mc_jsonrpc_id_equal(s->raw_id, id)))) {
        s->raw_got = 1;
        s->raw_resp = *msg;
        memset(msg, 0, sizeof(*msg));
        return;
    }
    /* The session sends integer ids only: anything else answers nothing. */
    if (id != NULL && json_object_is_type(id, json_type_int))
        p = mc__session_find_pending(s, json_object_get_int64(id));
    if (p == NULL || p->answered) {
        mc_msg_free(msg);
        return;
    }
    p->answered = 1;
    p->response = *msg;
    memset(msg, 0, sizeof(*msg));
}

/* Makes room for one more queued notification below the cap: the ring is
 * doubled (or made), its messages moved in order to the front. Returns
 * MC_OK, or MC_ENOMEM. */
static int grow_notes(mc_session_t *s)
{
    size_t cap = table_next_cap(table_cap(s->notes), MC_MAX_QUEUED_NOTIFICATIONS), i;
    mc_msg_t *nt = table_new(sizeof(*nt), cap);

    if (nt == NULL)
        return MC_ENOMEM;
    for (i = 0; i < s->notes_count; i++)
        nt[i] = s->notes[(s->notes_head + i) % table_cap(s->notes)];
    table_free(s->notes);
    s->notes = nt;
    s->notes_head = 0;
    return MC_OK;
}

static void on_notification(mc_session_t *s, mc_msg_t *msg)
{
    if (s->notes_count == MC_MAX_QUEUED_NOTIFICATIONS) {
        /* Recorded once; the rest are only counted. */
        if (s->notes_dropped++ == 0)
            mc__session_record(s, MC_EV_NOTIFICATIONS_DROPPED,
                   "queue of %u unread notifications full; the oldest are dropped (first %.80s)",
                   MC_MAX_QUEUED_NOTIFICATIONS, s->notes[s->notes_head].method);
        mc_msg_free(&s->notes[s->notes_head]);
        s->notes_head = (s->notes_head + 1) % table_cap(s->notes);
        s->notes_count--;
    } else if (s->notes_count == table_cap(s->notes) && grow_notes(s) != MC_OK) {
        mc__session_record(s, MC_EV_NOTIFICATIONS_DROPPED, "out of memory queueing a notification; dropped %s",
               msg->method != NULL ? msg->method : "(none)");
        mc_msg_free(msg);
        return;
    }
    s->notes[(s->notes_head + s->notes_count) % table_cap(s->notes)] = *msg;
    s->notes_count++;
    memset(msg, 0, sizeof(*msg));
}

/* Capability a server->client method needs, or NULL when none is needed. */
static const char *capability_for(const char *method)
{
    if (strcmp(method, "roots/list") == 0)
        return "roots";
    if (strcmp(method, "sampling/createMessage") == 0)
        return "sampling";
    if (strcmp(method, "elicitation/create") == 0)
        return "elicitation";
    return NULL;
}

size_t mc_session_release_held(mc_session_t *s, const char *method)
{
    size_t i, kept = 0, sent = 0;

    for (i = 0; i < s->n_held; i++) {
        mc_held_t h = s->held[i];
        if (method != NULL && strcmp(h.method, method) != 0) {
            s->held[kept++] = h;
            continue;
        }
        mc__session_send_json(s, h.out, MC_DEFAULT_REQUEST_TIMEOUT_MS);
        sent++;
    }
    for (i = kept; i < s->n_held; i++)
        memset(&s->held[i], 0, sizeof(s->held[i]));
    s->n_held = kept;
    return sent;
}

/*
 * Holds out (the answer to a request of method, owned) back when reply asks
 * it and there is room; once `hold` answers of method are held, they all go
 * out. Returns 1 when out was taken (held or sent), 0 when it is the
 * caller's to send now.
 */
static int hold_answer(mc_session_t *s, const char *method, json_object *out, int hold)
{
    size_t i, same = 0;

    if (hold < 2 || s->n_held == MC_MAX_HELD_ANSWERS || strlen(method) >= sizeof(s->held[0].method))
        return 0;
    snprintf(s->held[s->n_held].method, sizeof(s->held[0].method), "%s", method);
    s->held[s->n_held].out = out;
    s->held[s->n_held].since = mc_now_ms();
    s->n_held++;
    for (i = 0; i < s->n_held; i++)
        same += strcmp(s->held[i].method, method) == 0;
    if (same >= (size_t)hold)
        mc_session_release_held(s, method);
    return 1;
}

/* Sends the held answers once the oldest has waited MC_HELD_ANSWER_MAX_MS. */
static void held_overdue(mc_session_t *s)
{
    size_t n;

    if (s->n_held == 0 || mc_now_ms() - s->held[0].since < MC_HELD_ANSWER_MAX_MS)
        return;
    n = mc_session_release_held(s, NULL);
    mc__session_record(s, MC_EV_HELD_RELEASED,
                       "%zu answer(s) held back sent after %d ms without the requests awaited", n,
                       MC_HELD_ANSWER_MAX_MS);
}

static void on_server_request(mc_session_t *s, mc_msg_t *msg)
{
    mc_reply_t reply;
    const char *cap = capability_for(msg->method);
    json_object *id;
    json_object *out;

    memset(&reply, 0, sizeof(reply));
    s->opts.responder(s->opts.responder_ctx, s, msg, &reply);
    if (reply.error_code == MC_RPC_METHOD_NOT_FOUND && cap == NULL &&
        strcmp(msg->method, "ping") != 0)
        mc__session_record(s, MC_EV_UNKNOWN_SERVER_REQUEST, "server sent unknown request %.80s", msg->method);
    id = json_object_get(msg->id);
    if (reply.error_code != 0) {
        json_object_put(reply.result);
        out = mc_jsonrpc_error(id, reply.error_code,
                               reply.error_message[0] ? reply.error_message : "request failed",
                               NULL);
    } else {
        out = mc_jsonrpc_result(id, reply.result);
    }
    if (out == NULL || !hold_answer(s, msg->method, out, reply.hold))
        mc__session_send_json(s, out, MC_DEFAULT_REQUEST_TIMEOUT_MS);
    mc_msg_free(msg);
}

/*
 * A result with "id": null is no valid response, but it is an answer: to a
 * notification (or a raw line) the client just sent. When a raw wait is for
 * an answer without an id, it is handed over as a result, so the step that
 * says nothing may answer sees that something did. Returns 1 when msg was
 * taken (or recorded), 0 when it is some other invalid message.
 */
/*
 * An invalid response that still answers a raw line whose id could not be
 * read: a result with a null id, or a result or an error whose id is no id
 * at all (false, 1.5, an object). While such a wait is on, it is that
 * answer, taken as it came (its envelope was judged already); otherwise it
 * is dropped. Returns 1 when msg was one of these (and is taken or freed).
 */
static int null_id_result(mc_session_t *s, mc_msg_t *msg)
{
    json_object *id = NULL, *result = NULL, *error = NULL;
    int has_result, has_error;

    if (msg->root == NULL || !json_object_is_type(msg->root, json_type_object) ||
        !json_object_object_get_ex(msg->root, "id", &id) ||
        json_object_object_get_ex(msg->root, "method", NULL))
        return 0;
    has_result = json_object_object_get_ex(msg->root, "result", &result);
    has_error = json_object_object_get_ex(msg->root, "error", &error) &&
                json_object_is_type(error, json_type_object);
    if (has_result == has_error)
        return 0;
    if (id != NULL ? mc_jsonrpc_id_valid(id) : has_error)
        return 0; /* a usable id, or a null-id error (a valid message) */
    if (s->raw_wait && !s->raw_got && !s->raw_batch && s->raw_id == NULL) {
        msg->kind = has_result ? MC_MSG_RESULT : MC_MSG_ERROR;
        msg->result = has_result ? result : NULL;
        msg->error = has_error ? error : NULL;
        if (has_error) {
            msg->error_code = mc_json_get_int(error, "code", 0);
            msg->error_message = mc_json_get_str(error, "message");
        }
        msg->id = NULL;
        s->raw_got = 1;
        s->raw_resp = *msg;
        memset(msg, 0, sizeof(*msg));
        return 1;
    }
    mc_msg_free(msg);
    return 1;
}

/* True when a line is a JSON text or begins like one: written by a server
 * that has started, unlike a plain-text banner. */
static int message_like(const mc_record_t *fr, int is_json)
{
    size_t i = 0;

    if (is_json)
        return 1;
    if (fr->data == NULL)
        return 0;
    while (i < fr->len && (fr->data[i] == ' ' || fr->data[i] == '\t'))
        i++;
    return i < fr->len && (fr->data[i] == '{' || fr->data[i] == '[');
}

/*
 * True when a line that is no JSON text carries, as its id, the id of the
 * handshake request being waited for: it is that request's answer, and it
 * cannot be read (why says why; kept in handshake_why).
 */
static int unreadable_answer(mc_session_t *s, const char *raw_id, size_t len, const char *why)
{
    char want[32];
    int n = snprintf(want, sizeof(want), "%lld", (long long)s->handshake_id);

    if (raw_id == NULL || n <= 0 || (size_t)n != len || memcmp(raw_id, want, len) != 0)
        return 0;
    snprintf(s->handshake_why, sizeof(s->handshake_why), "%.150s", why);
    return 1;
}

/*
 * Handles one inbound frame: the judge parses and judges it, the observer
 * sees the record with what the judge made of it, and the session acts
 * on the decoded message, which it takes over from the judge.
 */
static void on_frame(mc_session_t *s, mc_record_t *fr)
{
    mc_wire_info_t info;
    mc_msg_t msg;
    const char *raw_id;
    size_t raw_id_len;
    int is_json;

    s->seq_in++;
    mc_judge_inbound(s->judge, 0, (int)fr->kind, fr->flags, fr->data, fr->len, &info);
    if (s->opts.observer != NULL) {
        mc_seen_t seen;
        seen.seq = s->seq_in;
        seen.rec = fr;
        seen.judged = &info;
        s->opts.observer(s->opts.observer_ctx, &seen);
    }
    msg = info.msg;
    is_json = info.is_json;
    raw_id = info.raw_id;
    raw_id_len = info.raw_id_len;
    memset(&info, 0, sizeof(info));
    /* Framing and parsing were judged (wire/newline-delimited,
     * wire/message-size, wire/stdout-only-messages, wire/utf8): what is no
     * JSON text is not acted on. */
    if (fr->kind == MC_FRAME_OVERSIZE)
        s->oversize_seen++;
    if (fr->kind == MC_FRAME_OVERSIZE || (fr->kind == MC_FRAME_LINE && message_like(fr, is_json)))
        s->spoke++;
    if (fr->kind == MC_FRAME_LINE && !is_json && s->handshake_id > 0 &&
        unreadable_answer(s, raw_id, raw_id_len, msg.reason))
        s->handshake_unreadable = 1;
    if (fr->kind != MC_FRAME_LINE || (fr->flags & MC_FRAME_F_NUL) || !is_json) {
        mc_msg_free(&msg);
        return;
    }
    switch (msg.kind) {
    case MC_MSG_INVALID:
        if (s->raw_wait && s->raw_batch && !s->raw_got && msg.root != NULL &&
            json_object_is_type(msg.root, json_type_array)) {
            s->raw_got = 1;
            s->raw_resp = msg;
            return;
        }
        if (null_id_result(s, &msg))
            return;
        mc_msg_free(&msg); /* judged: wire/no-batch, wire/jsonrpc-envelope */
        return;
    case MC_MSG_REQUEST:
        on_server_request(s, &msg);
        return;
    case MC_MSG_NOTIFICATION:
        on_notification(s, &msg);
        return;
    case MC_MSG_RESULT:
    case MC_MSG_ERROR:
        on_response(s, &msg, (fr->flags & MC_FRAME_F_REFUSAL) ? fr->facts.answers : NULL);
        return;
    }
}

/* Trips the rate guard when the step's or the session's budget is spent. */
static int over_budget(mc_session_t *s)
{
    if (s->flooded)
        return 1;
    if (s->step_frames >= MC_MAX_STEP_MESSAGES)
        snprintf(s->flood_desc, sizeof(s->flood_desc),
                 "%llu messages (%llu bytes) within one step, the limit is %u",
                 (unsigned long long)s->step_frames, (unsigned long long)s->step_bytes,
                 MC_MAX_STEP_MESSAGES);
    else if (s->step_bytes >= MC_MAX_STEP_BYTES)
        snprintf(s->flood_desc, sizeof(s->flood_desc),
                 "%llu bytes (%llu messages) within one step, the limit is %u bytes",
                 (unsigned long long)s->step_bytes, (unsigned long long)s->step_frames,
                 MC_MAX_STEP_BYTES);
    else if (s->seq_in >= MC_MAX_SESSION_MESSAGES)
        snprintf(s->flood_desc, sizeof(s->flood_desc),
                 "%llu messages in one session, the limit is %u",
                 (unsigned long long)s->seq_in, MC_MAX_SESSION_MESSAGES);
    else
        return 0;
    s->flooded = 1;
    mc__session_record(s, MC_EV_FLOOD, "%s", s->flood_desc);
    return 1;
}

/* A wait reached its deadline: a timeout, or a flood when the step was
 * busy with MC_FLOOD_MIN_MESSAGES messages or more. */
static int timed_out(mc_session_t *s)
{
    if (s->step_frames < MC_FLOOD_MIN_MESSAGES)
        return MC_ETIMEOUT;
    snprintf(s->flood_desc, sizeof(s->flood_desc),
             "%llu messages (%llu bytes) within one step and still no answer when it timed out",
             (unsigned long long)s->step_frames, (unsigned long long)s->step_bytes);
    s->flooded = 1;
    mc__session_record(s, MC_EV_FLOOD, "%s", s->flood_desc);
    return MC_EFLOOD;
}

void mc_session_begin_step(mc_session_t *s)
{
    s->step_frames = 0;
    s->step_bytes = 0;
}

/*
 * Receives and handles one frame, waiting until deadline. The deadline, the
 * stop flag and the rate guard are checked before every frame, whether or
 * not frames are already waiting; the link is asked in slices of
 * MC_POLL_SLICE_MS so that an interrupt is seen promptly.
 */
int mc__session_step(mc_session_t *s, int64_t deadline)
{
    mc_record_t fr;
    int rc;

    for (;;) {
        int64_t now, until;

        if (s->eof)
            return MC_EEOF;
        if (s->opts.stop != NULL && *s->opts.stop)
            return MC_EINTR;
        if (over_budget(s))
            return MC_EFLOOD;
        held_overdue(s);
        now = mc_now_ms();
        if (now >= deadline) {
            /* Only what has already arrived, and not forever. */
            if (s->overdue >= MC_MAX_OVERDUE_FRAMES)
                return timed_out(s);
            until = deadline;
        } else {
            until = deadline - now > MC_POLL_SLICE_MS ? now + MC_POLL_SLICE_MS : deadline;
        }
        memset(&fr, 0, sizeof(fr));
        rc = s->link.recv(s->link.ctx, &fr, until);
        if (rc == MC_ETIMEOUT && until < deadline)
            continue;
        if (rc == MC_ETIMEOUT)
            return timed_out(s);
        if (rc == MC_EEOF)
            s->eof = 1;
        if (rc != MC_OK)
            return rc;
        if (now >= deadline)
            s->overdue++;
        s->step_frames++;
        s->step_bytes += fr.len;
        on_frame(s, &fr);
        mc_record_free(&fr);
        return MC_OK;
    }
}
