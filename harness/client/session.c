#include "client/session.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/version.h"

static const char *const event_names[] = {
#define MC__XX(name, id, desc) id,
    MC_SESSION_EVENT_MAP(MC__XX)
#undef MC__XX
};

static const char *const event_descs[] = {
#define MC__XX(name, id, desc) desc,
    MC_SESSION_EVENT_MAP(MC__XX)
#undef MC__XX
};

const char *mc_event_kind_name(mc_event_kind_t kind)
{
    return (unsigned)kind < MC_EV__COUNT ? event_names[kind] : "unknown";
}

const char *mc_event_kind_desc(mc_event_kind_t kind)
{
    return (unsigned)kind < MC_EV__COUNT ? event_descs[kind] : "unknown event";
}

int mc_protocol_version_known(const char *version)
{
    return mc_version_find(version) != NULL;
}

/*
 * The session's tables (pending requests, queued notifications, events) are
 * allocated when first needed and doubled as they fill, up to the same
 * MC_MAX_* caps as before: most sessions use a handful of slots, and a
 * table allocated in full costs 3.3 MB per session. The session keeps the
 * address of slot 0; the capacity sits in a header just before it. At the
 * caps every table behaves exactly as one allocated in full.
 */
typedef union table_head {
    size_t cap;
    max_align_t align; /* slot 0 keeps the alignment of malloc() */
} table_head_t;

/* Slots a table holds (0 for none yet). */
static size_t table_cap(const void *slots)
{
    return slots == NULL ? 0 : ((const table_head_t *)slots - 1)->cap;
}

/* A zeroed table of cap slots of elem bytes; returns slot 0, or NULL. */
static void *table_new(size_t elem, size_t cap)
{
    table_head_t *h = calloc(1, sizeof(*h) + elem * cap);

    if (h == NULL)
        return NULL;
    h->cap = cap;
    return h + 1;
}

static void table_free(void *slots)
{
    if (slots != NULL)
        free((table_head_t *)slots - 1);
}

/* The capacity after cap when a table must grow toward max (0: at max). */
static size_t table_next_cap(size_t cap, size_t max)
{
    if (cap >= max)
        return 0;
    return cap == 0 ? (max < 16 ? max : 16) : (2 * cap < max ? 2 * cap : max);
}

static void record(mc_session_t *s, mc_event_kind_t kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void record(mc_session_t *s, mc_event_kind_t kind, const char *fmt, ...)
{
    va_list ap;
    mc_event_t *ev;

    if (s->n_events >= MC_MAX_SESSION_EVENTS) {
        s->events_dropped++;
        return;
    }
    if (s->n_events == table_cap(s->events)) {
        size_t cap = table_next_cap(s->n_events, MC_MAX_SESSION_EVENTS);
        mc_event_t *nt = table_new(sizeof(*nt), cap);
        if (nt == NULL) {
            s->events_dropped++; /* out of memory: counted like the overflow */
            return;
        }
        if (s->n_events > 0)
            memcpy(nt, s->events, s->n_events * sizeof(*nt));
        table_free(s->events);
        s->events = nt;
    }
    ev = &s->events[s->n_events++];
    ev->kind = kind;
    ev->seq = s->seq_in;
    va_start(ap, fmt);
    vsnprintf(ev->detail, sizeof(ev->detail), fmt, ap);
    va_end(ap);
}

/* Starts a wait: the overdue allowance is per wait. */
static void begin_wait(mc_session_t *s)
{
    s->overdue = 0;
}

int mc_session_init(mc_session_t *s, mc_link_t link, const mc_session_opts_t *opts)
{
    memset(s, 0, sizeof(*s));
    s->link = link;
    if (opts != NULL)
        s->opts = *opts;
    if (s->opts.client_name == NULL)
        s->opts.client_name = "mcpcheck";
    if (s->opts.client_version == NULL)
        s->opts.client_version = MC_VERSION;
    if (s->opts.responder == NULL)
        s->opts.responder = mc_session_default_responder;
    s->next_id = 1;
    s->judge = s->opts.judge;
    if (s->judge == NULL) {
        s->own_judge = malloc(sizeof(*s->own_judge));
        if (s->own_judge == NULL || mc_judge_init(s->own_judge, NULL) != MC_OK) {
            free(s->own_judge);
            memset(s, 0, sizeof(*s));
            return MC_ENOMEM;
        }
        s->judge = s->own_judge;
    }
    /* pending, notes and events are made when first needed (table_new). */
    return MC_OK;
}

static void clear_pending(mc_pending_t *p)
{
    free(p->method);
    mc_msg_free(&p->response);
    memset(p, 0, sizeof(*p));
}

void mc_session_free(mc_session_t *s)
{
    size_t i;

    for (i = 0; i < table_cap(s->pending); i++)
        clear_pending(&s->pending[i]);
    while (s->notes_count > 0) {
        mc_msg_free(&s->notes[s->notes_head]);
        s->notes_head = (s->notes_head + 1) % table_cap(s->notes);
        s->notes_count--;
    }
    table_free(s->pending);
    table_free(s->notes);
    table_free(s->events);
    json_object_put(s->client_caps);
    json_object_put(s->init_result);
    mc_msg_free(&s->raw_resp);
    if (s->own_judge != NULL) {
        mc_judge_free(s->own_judge);
        free(s->own_judge);
    }
    memset(s, 0, sizeof(*s));
}

static int step(mc_session_t *s, int64_t deadline);

static int64_t deadline_after(int timeout_ms)
{
    return mc_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
}

/* Encodes and sends a message; msg is released. */
static int send_json(mc_session_t *s, json_object *msg, int timeout_ms)
{
    char *line = NULL;
    size_t len = 0;
    int rc;

    if (msg == NULL)
        return MC_ENOMEM;
    rc = mc_json_encode_line(msg, &line, &len);
    json_object_put(msg);
    if (rc != MC_OK)
        return rc;
    s->seq_out++;
    mc_judge_outbound(s->judge, 0, line, len - 1);
    if (s->opts.observer != NULL)
        s->opts.observer(s->opts.observer_ctx, 1, s->seq_out, line, len - 1, MC_FRAME_LINE, 0);
    rc = s->link.send(s->link.ctx, line, len, deadline_after(timeout_ms));
    free(line);
    return rc;
}

int mc_session_send_raw(mc_session_t *s, const char *bytes, size_t len, int timeout_ms)
{
    char *line;
    size_t n = len;
    int rc;

    if (len > MC_MAX_MESSAGE_SIZE)
        return MC_ETOOBIG;
    line = malloc(len + 1);
    if (line == NULL)
        return MC_ENOMEM;
    memcpy(line, bytes, len);
    if (n == 0 || line[n - 1] != '\n')
        line[n++] = '\n';
    s->seq_out++;
    mc_judge_outbound(s->judge, 0, line, n - 1);
    if (s->opts.observer != NULL)
        s->opts.observer(s->opts.observer_ctx, 1, s->seq_out, line, n - 1, MC_FRAME_LINE, 0);
    rc = s->link.send(s->link.ctx, line, n, deadline_after(timeout_ms));
    free(line);
    return rc;
}

int mc_session_raw_request(mc_session_t *s, const char *bytes, size_t len, json_object *expect_id,
                           int timeout_ms, mc_msg_t *response)
{
    int64_t deadline = deadline_after(timeout_ms);
    int rc;

    rc = mc_session_send_raw(s, bytes, len, timeout_ms);
    if (rc != MC_OK)
        return rc;
    s->raw_wait = 1;
    s->raw_id = expect_id;
    s->raw_got = 0;
    begin_wait(s);
    while (!s->raw_got) {
        rc = step(s, deadline);
        if (rc != MC_OK)
            break;
    }
    s->raw_wait = 0;
    s->raw_id = NULL;
    if (s->raw_got) {
        s->raw_got = 0;
        *response = s->raw_resp;
        memset(&s->raw_resp, 0, sizeof(s->raw_resp));
        return MC_OK;
    }
    return rc;
}

/* The ids of the requests of the batch in bytes, as a new array (empty when
 * bytes is not an array; NULL when out of memory). */
static json_object *batch_request_ids(const char *bytes, size_t len)
{
    json_object *sent = NULL, *ids = json_object_new_array();
    size_t i, n;

    if (ids == NULL || mc_json_parse(bytes, len, 0, &sent, NULL) != MC_OK ||
        !json_object_is_type(sent, json_type_array)) {
        json_object_put(sent);
        return ids;
    }
    n = json_object_array_length(sent);
    for (i = 0; i < n; i++) {
        json_object *m = json_object_array_get_idx(sent, i), *id = NULL;
        if (json_object_is_type(m, json_type_object) && mc_json_get(m, "method") != NULL &&
            json_object_object_get_ex(m, "id", &id) && mc_jsonrpc_id_valid(id))
            json_object_array_add(ids, json_object_get(id));
    }
    json_object_put(sent);
    return ids;
}

int mc_session_raw_batch(mc_session_t *s, const char *bytes, size_t len, int timeout_ms,
                         mc_msg_t *response, json_object **one_by_one)
{
    int rc;

    if (one_by_one != NULL)
        *one_by_one = NULL;
    s->raw_batch_ids = one_by_one != NULL ? batch_request_ids(bytes, len) : NULL;
    s->raw_parts = s->raw_batch_ids != NULL ? json_object_new_array() : NULL;
    s->raw_batch = 1;
    rc = mc_session_raw_request(s, bytes, len, NULL, timeout_ms, response);
    s->raw_batch = 0;
    if (one_by_one != NULL && s->raw_parts != NULL && json_object_array_length(s->raw_parts) > 0)
        *one_by_one = json_object_get(s->raw_parts);
    json_object_put(s->raw_parts);
    json_object_put(s->raw_batch_ids);
    s->raw_parts = NULL;
    s->raw_batch_ids = NULL;
    return rc;
}

/* While a batch waits: keeps a response to one of its requests that came on
 * its own (bounded by the batch's size), and ends the wait once each request
 * has one. */
static void collect_batch_part(mc_session_t *s, const mc_msg_t *msg)
{
    size_t i, n;

    if (!s->raw_wait || !s->raw_batch || s->raw_got || s->raw_parts == NULL ||
        msg->id == NULL || msg->root == NULL)
        return;
    n = json_object_array_length(s->raw_batch_ids);
    if (json_object_array_length(s->raw_parts) >= n)
        return;
    for (i = 0; i < n; i++)
        if (mc_jsonrpc_id_equal(json_object_array_get_idx(s->raw_batch_ids, i), msg->id))
            break;
    if (i == n)
        return;
    json_object_array_add(s->raw_parts, json_object_get(msg->root));
    if (json_object_array_length(s->raw_parts) == n) {
        s->raw_got = 1;
        memset(&s->raw_resp, 0, sizeof(s->raw_resp));
    }
}

int mc_session_client_declares(const mc_session_t *s, const char *capability)
{
    json_object *v;

    return s->client_caps != NULL && json_object_object_get_ex(s->client_caps, capability, &v) &&
           v != NULL;
}

/*
 * The pending table is direct-mapped: id lives in slot id % cap. Its
 * capacities are powers of two dividing MC_MAX_PENDING_REQUESTS, so a table
 * that grows only when two ids share a slot but not their slot of a full
 * table refuses exactly the requests a full table would.
 */
_Static_assert((MC_MAX_PENDING_REQUESTS & (MC_MAX_PENDING_REQUESTS - 1)) == 0,
               "the pending table's capacities are powers of two");

static mc_pending_t *find_pending(mc_session_t *s, int64_t id)
{
    mc_pending_t *p;

    if (id <= 0 || s->pending == NULL)
        return NULL;
    p = &s->pending[(uint64_t)id % table_cap(s->pending)];
    return p->used && p->id == id ? p : NULL;
}

/* Doubles the pending table (or makes it), moving each request to its new
 * slot. Returns MC_OK, MC_EFULL at the cap, or MC_ENOMEM. */
static int grow_pending(mc_session_t *s)
{
    size_t cap = table_next_cap(table_cap(s->pending), MC_MAX_PENDING_REQUESTS), i;
    mc_pending_t *nt;

    if (cap == 0)
        return MC_EFULL;
    nt = table_new(sizeof(*nt), cap);
    if (nt == NULL)
        return MC_ENOMEM;
    for (i = 0; i < table_cap(s->pending); i++)
        if (s->pending[i].used)
            nt[(uint64_t)s->pending[i].id % cap] = s->pending[i];
    table_free(s->pending);
    s->pending = nt;
    return MC_OK;
}

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
        p = find_pending(s, json_object_get_int64(aid));
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
    collect_batch_part(s, msg);
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
        p = find_pending(s, json_object_get_int64(id));
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
            record(s, MC_EV_NOTIFICATIONS_DROPPED,
                   "queue of %u unread notifications full; the oldest are dropped (first %.80s)",
                   MC_MAX_QUEUED_NOTIFICATIONS, s->notes[s->notes_head].method);
        mc_msg_free(&s->notes[s->notes_head]);
        s->notes_head = (s->notes_head + 1) % table_cap(s->notes);
        s->notes_count--;
    } else if (s->notes_count == table_cap(s->notes) && grow_notes(s) != MC_OK) {
        record(s, MC_EV_NOTIFICATIONS_DROPPED, "out of memory queueing a notification; dropped %s",
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
        record(s, MC_EV_UNKNOWN_SERVER_REQUEST, "server sent unknown request %.80s", msg->method);
    id = json_object_get(msg->id);
    if (reply.error_code != 0) {
        json_object_put(reply.result);
        out = mc_jsonrpc_error(id, reply.error_code,
                               reply.error_message[0] ? reply.error_message : "request failed",
                               NULL);
    } else {
        out = mc_jsonrpc_result(id, reply.result);
    }
    send_json(s, out, MC_DEFAULT_REQUEST_TIMEOUT_MS);
    mc_msg_free(msg);
}

/*
 * A result with "id": null is no valid response, but it is an answer: to a
 * notification (or a raw line) the client just sent. When a raw wait is for
 * an answer without an id, it is handed over as a result, so the step that
 * says nothing may answer sees that something did. Returns 1 when msg was
 * taken (or recorded), 0 when it is some other invalid message.
 */
static int null_id_result(mc_session_t *s, mc_msg_t *msg)
{
    json_object *id = NULL, *result = NULL;

    if (msg->root == NULL || !json_object_is_type(msg->root, json_type_object) ||
        !json_object_object_get_ex(msg->root, "id", &id) || id != NULL ||
        !json_object_object_get_ex(msg->root, "result", &result) ||
        json_object_object_get_ex(msg->root, "method", NULL) ||
        json_object_object_get_ex(msg->root, "error", NULL))
        return 0;
    if (s->raw_wait && !s->raw_got && !s->raw_batch && s->raw_id == NULL) {
        msg->kind = MC_MSG_RESULT;
        msg->result = result;
        msg->id = NULL;
        s->raw_got = 1;
        s->raw_resp = *msg;
        memset(msg, 0, sizeof(*msg));
        return 1;
    }
    mc_msg_free(msg);
    return 1;
}

/*
 * Handles one inbound frame: the judge parses and judges it, the observer
 * sees it with what the judge made of it (in_judged), and the session acts
 * on the decoded message, which it takes over from the judge.
 */
static void on_frame(mc_session_t *s, mc_inframe_t *fr)
{
    mc_wire_info_t info;
    mc_msg_t msg;
    int is_json;

    s->seq_in++;
    mc_judge_inbound(s->judge, 0, (int)fr->kind, fr->flags, fr->data, fr->len, &info);
    s->in_judged = &info;
    if (s->opts.observer != NULL)
        s->opts.observer(s->opts.observer_ctx, 0, s->seq_in, fr->data, fr->len, (int)fr->kind,
                         fr->flags);
    s->in_judged = NULL;
    msg = info.msg;
    is_json = info.is_json;
    memset(&info, 0, sizeof(info));
    /* Framing and parsing were judged (wire/newline-delimited,
     * wire/message-size, wire/stdout-only-messages, wire/utf8): what is no
     * JSON text is not acted on. */
    if (fr->kind == MC_FRAME_OVERSIZE)
        s->oversize_seen++;
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
        on_response(s, &msg, (fr->flags & MC_FRAME_F_REFUSAL) ? fr->answers : NULL);
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
    record(s, MC_EV_FLOOD, "%s", s->flood_desc);
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
    record(s, MC_EV_FLOOD, "%s", s->flood_desc);
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
static int step(mc_session_t *s, int64_t deadline)
{
    mc_inframe_t fr;
    int rc;

    for (;;) {
        int64_t now, until;

        if (s->eof)
            return MC_EEOF;
        if (s->opts.stop != NULL && *s->opts.stop)
            return MC_EINTR;
        if (over_budget(s))
            return MC_EFLOOD;
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
        s->in_meta = fr.meta;
        on_frame(s, &fr);
        s->in_meta = NULL;
        mc_inframe_free(&fr);
        return MC_OK;
    }
}

int mc_session_send_request(mc_session_t *s, const char *method, json_object *params,
                            int64_t *id_out, int timeout_ms)
{
    mc_pending_t *p = NULL;
    int64_t id = s->next_id;
    int rc;

    /* A slot taken by an id of another slot of the full-size table means
     * this table is too small, not full. */
    while (p == NULL) {
        if (s->pending != NULL) {
            p = &s->pending[(uint64_t)id % table_cap(s->pending)];
            if (!p->used)
                break;
            if ((uint64_t)p->id % MC_MAX_PENDING_REQUESTS ==
                (uint64_t)id % MC_MAX_PENDING_REQUESTS) {
                json_object_put(params);
                return MC_EFULL;
            }
            p = NULL;
        }
        rc = grow_pending(s);
        if (rc != MC_OK) {
            json_object_put(params);
            return rc;
        }
    }
    p->method = strdup(method);
    if (p->method == NULL) {
        json_object_put(params);
        return MC_ENOMEM;
    }
    if (s->stateless && (params == NULL || json_object_is_type(params, json_type_object))) {
        if (params == NULL)
            params = json_object_new_object();
        if (params == NULL || mc_session_stamp(s, params) != MC_OK) {
            json_object_put(params);
            free(p->method);
            p->method = NULL;
            return MC_ENOMEM;
        }
    }
    p->used = 1;
    p->id = id;
    s->next_id++;
    s->n_pending++;
    rc = send_json(s, mc_jsonrpc_request(json_object_new_int64(id), method, params), timeout_ms);
    if (rc != MC_OK) {
        clear_pending(p);
        s->n_pending--;
        return rc;
    }
    *id_out = id;
    return MC_OK;
}

int mc_session_await(mc_session_t *s, int64_t id, int timeout_ms, mc_msg_t *response)
{
    int64_t deadline = deadline_after(timeout_ms);
    mc_pending_t *p = find_pending(s, id);
    int rc = MC_OK;

    uint64_t oversize0 = s->oversize_seen;

    if (p == NULL)
        return MC_ENOTFOUND;
    begin_wait(s);
    while (!p->answered) {
        rc = step(s, deadline);
        /* The table may have moved (only a request sent meanwhile grows it). */
        p = find_pending(s, id);
        if (rc != MC_OK || p == NULL)
            break;
    }
    /* No answer, and a line over the limit came meanwhile: that is the cause
     * to name (the answer may have been that line), not mere silence. */
    if (rc == MC_ETIMEOUT && s->oversize_seen != oversize0)
        rc = MC_ETOOBIG;
    if (p == NULL)
        return rc != MC_OK ? rc : MC_ENOTFOUND;
    if (p->answered) {
        *response = p->response;
        memset(&p->response, 0, sizeof(p->response));
        rc = MC_OK;
    }
    /* Answered or abandoned, the slot is free again. */
    clear_pending(p);
    s->n_pending--;
    return rc;
}

int mc_session_request(mc_session_t *s, const char *method, json_object *params, int timeout_ms,
                       mc_msg_t *response)
{
    int64_t id;
    int64_t deadline = deadline_after(timeout_ms);
    json_object *keep = NULL, *retry = NULL;
    int rc, round;
    int mrtr = s->stateless && !s->input_retry_off &&
               (strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0 ||
                strcmp(method, "resources/read") == 0);

    /* The retry repeats the request's params: keep them. */
    if (mrtr && params != NULL && json_object_deep_copy(params, &keep, NULL) != 0)
        keep = NULL;
    rc = mc_session_send_request(s, method, params, &id, timeout_ms);
    for (round = 0; rc == MC_OK; round++) {
        rc = mc_session_await(s, id, (int)(deadline - mc_now_ms()), response);
        if (rc != MC_OK || !mrtr || round >= MC_MAX_INPUT_ROUNDS ||
            !mc_session_input_required(response))
            break;
        retry = NULL;
        if (mc_session_input_retry(s, keep, response->result, &retry) != MC_OK)
            break;
        mc_msg_free(response);
        json_object_put(keep);
        keep = NULL;
        if (json_object_deep_copy(retry, &keep, NULL) != 0)
            keep = NULL;
        rc = mc_session_send_request(s, method, retry, &id, (int)(deadline - mc_now_ms()));
    }
    json_object_put(keep);
    return rc;
}

int mc_session_notify(mc_session_t *s, const char *method, json_object *params, int timeout_ms)
{
    return send_json(s, mc_jsonrpc_notification(method, params), timeout_ms);
}

int mc_session_next_notification(mc_session_t *s, int timeout_ms, mc_msg_t *out)
{
    int64_t deadline = deadline_after(timeout_ms);

    begin_wait(s);
    while (s->notes_count == 0) {
        int rc = step(s, deadline);
        if (rc != MC_OK)
            return rc;
    }
    *out = s->notes[s->notes_head];
    memset(&s->notes[s->notes_head], 0, sizeof(s->notes[s->notes_head]));
    s->notes_head = (s->notes_head + 1) % table_cap(s->notes);
    s->notes_count--;
    return MC_OK;
}

int mc_session_poll_once(mc_session_t *s, int timeout_ms)
{
    begin_wait(s);
    return step(s, deadline_after(timeout_ms));
}

int mc_session_poll(mc_session_t *s, int timeout_ms)
{
    int64_t deadline = deadline_after(timeout_ms);
    int rc;

    begin_wait(s);
    do {
        rc = step(s, deadline);
    } while (rc == MC_OK);
    return rc == MC_ETIMEOUT ? MC_OK : rc;
}

int mc_session_initialize(mc_session_t *s, const char *version, json_object *client_caps,
                          int timeout_ms, mc_errbuf_t *eb)
{
    json_object *params, *info, *v;
    mc_msg_t resp;
    const char *got;
    int rc;

    snprintf(s->requested_version, sizeof(s->requested_version), "%s", version);
    s->stateless = 0;
    json_object_put(s->client_caps);
    /*
     * A private copy, never a second reference: the caller's object may be
     * shared with other threads (scenarios run in parallel), and json-c's
     * reference counts are not atomic.
     */
    s->client_caps = NULL;
    if (client_caps != NULL)
        json_object_deep_copy(client_caps, &s->client_caps, NULL);
    else
        s->client_caps = json_object_new_object();
    params = json_object_new_object();
    info = json_object_new_object();
    if (params == NULL || info == NULL || s->client_caps == NULL) {
        json_object_put(params);
        json_object_put(info);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory building initialize");
    }
    if (mc_version_has(version, MC_VF_STATELESS)) {
        json_object_put(params);
        json_object_put(info);
        return mc__session_start_stateless(s, version, timeout_ms, eb);
    }
    json_object_object_add(info, "name", json_object_new_string(s->opts.client_name));
    json_object_object_add(info, "version", json_object_new_string(s->opts.client_version));
    json_object_object_add(params, "protocolVersion", json_object_new_string(version));
    json_object_object_add(params, "capabilities", json_object_get(s->client_caps));
    json_object_object_add(params, "clientInfo", info);

    mc_session_begin_step(s);
    rc = mc_session_request(s, "initialize", params, timeout_ms, &resp);
    if (rc == MC_ETIMEOUT)
        return mc_errbuf_set(eb, rc, "no answer to initialize within %d ms", timeout_ms);
    if (rc == MC_EEOF)
        return mc_errbuf_set(eb, rc, "the server's output ended before it answered initialize");
    if (rc == MC_ETOOBIG)
        return mc_errbuf_set(eb, rc,
                             "the server wrote a line over the %u-byte message limit and no "
                             "answer to initialize came within %d ms",
                             MC_MAX_MESSAGE_SIZE, timeout_ms);
    if (rc == MC_EFLOOD)
        return mc_errbuf_set(eb, rc, "the server flooded the client before it answered "
                                     "initialize: %s",
                             s->flood_desc);
    if (rc == MC_EINTR)
        return mc_errbuf_set(eb, rc, "interrupted while waiting for the answer to initialize");
    if (rc != MC_OK)
        return mc_errbuf_set(eb, rc, "initialize could not be sent: %s", mc_strerror(rc));
    if (resp.kind == MC_MSG_ERROR) {
        mc_errbuf_set(eb, MC_EPROTO, "initialize failed with error %lld: %.200s",
                      (long long)resp.error_code, resp.error_message);
        mc_msg_free(&resp);
        return MC_EPROTO;
    }
    if (!json_object_is_type(resp.result, json_type_object) ||
        !json_object_object_get_ex(resp.result, "protocolVersion", &v) ||
        !json_object_is_type(v, json_type_string)) {
        mc_msg_free(&resp);
        return mc_errbuf_set(eb, MC_EPROTO, "initialize result has no string protocolVersion");
    }
    json_object_put(s->init_result);
    s->init_result = json_object_get(resp.result);
    mc_msg_free(&resp);

    got = json_object_get_string(v);
    s->server_caps = NULL;
    if (json_object_object_get_ex(s->init_result, "capabilities", &v) &&
        json_object_is_type(v, json_type_object))
        s->server_caps = v;
    if (json_object_object_get_ex(s->init_result, "serverInfo", &info) &&
        json_object_is_type(info, json_type_object)) {
        if (json_object_object_get_ex(info, "name", &v) && json_object_is_type(v, json_type_string))
            s->server_name = json_object_get_string(v);
        if (json_object_object_get_ex(info, "version", &v) &&
            json_object_is_type(v, json_type_string))
            s->server_version = json_object_get_string(v);
    }
    if (strcmp(got, version) != 0) {
        s->counter_offer = 1;
        if (!mc_protocol_version_known(got)) {
            s->unsupported_version = 1;
            return mc_errbuf_set(eb, MC_EPROTO,
                                 "server offered protocol version \"%.40s\", which mcpcheck does "
                                 "not support",
                                 got);
        }
    }
    snprintf(s->negotiated_version, sizeof(s->negotiated_version), "%s", got);
    rc = mc_session_notify(s, "notifications/initialized", NULL, timeout_ms);
    if (rc != MC_OK)
        return mc_errbuf_set(eb, rc, "notifications/initialized could not be sent: %s",
                             mc_strerror(rc));
    return MC_OK;
}

void mc_session_default_responder(void *ctx, mc_session_t *s, const mc_msg_t *request,
                                  mc_reply_t *reply)
{
    const char *m = request->method;
    (void)ctx;

    if (strcmp(m, "ping") == 0) {
        reply->result = json_object_new_object();
        return;
    }
    if (strcmp(m, "roots/list") == 0 && mc_session_client_declares(s, "roots")) {
        reply->result = json_object_new_object();
        json_object_object_add(reply->result, "roots", json_object_new_array());
        return;
    }
    if (strcmp(m, "sampling/createMessage") == 0 && mc_session_client_declares(s, "sampling")) {
        json_object *content = json_object_new_object();
        reply->result = json_object_new_object();
        json_object_object_add(content, "type", json_object_new_string("text"));
        json_object_object_add(content, "text", json_object_new_string("mcpcheck sample reply"));
        json_object_object_add(reply->result, "role", json_object_new_string("assistant"));
        json_object_object_add(reply->result, "content", content);
        json_object_object_add(reply->result, "model", json_object_new_string("mcpcheck"));
        json_object_object_add(reply->result, "stopReason", json_object_new_string("endTurn"));
        return;
    }
    if (strcmp(m, "elicitation/create") == 0 && mc_session_client_declares(s, "elicitation")) {
        reply->result = json_object_new_object();
        json_object_object_add(reply->result, "action", json_object_new_string("decline"));
        return;
    }
    reply->error_code = MC_RPC_METHOD_NOT_FOUND;
    snprintf(reply->error_message, sizeof(reply->error_message), "Method not found: %.80s", m);
}
