/*
 * session.c - the session's life and its requests: init and free, the
 * events it notes, requests sent and awaited (with the stateless
 * protocol's per-request _meta and input retries), notifications read from
 * the queue, initialize, and the default responder. The raw exchange is in
 * session_raw.c, the receiving of frames in session_recv.c.
 */
#include "client/session.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/session_internal.h"
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

void mc__session_record(mc_session_t *s, mc_event_kind_t kind, const char *fmt, ...)
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
    /* What the link sees that is no message (the HTTP transport's streams)
     * goes to the judge as it happens. */
    if (s->link.set_sink != NULL)
        s->link.set_sink(s->link.ctx, mc_judge_http_sink, s->judge);
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
    for (i = 0; i < s->n_held; i++)
        json_object_put(s->held[i].out);
    table_free(s->pending);
    table_free(s->notes);
    table_free(s->events);
    json_object_put(s->client_caps);
    json_object_put(s->init_result);
    mc_msg_free(&s->raw_resp);
    if (s->own_judge != NULL && s->link.set_sink != NULL)
        s->link.set_sink(s->link.ctx, NULL, NULL); /* the transport outlives the session */
    if (s->own_judge != NULL) {
        mc_judge_free(s->own_judge);
        free(s->own_judge);
    }
    memset(s, 0, sizeof(*s));
}

/* Encodes and sends a message; msg is released. */
int mc__session_send_json(mc_session_t *s, json_object *msg, int timeout_ms)
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
    mc__session_observe_out(s, line, len - 1);
    rc = s->link.send(s->link.ctx, line, len, deadline_after(timeout_ms));
    free(line);
    return rc;
}

void mc__session_observe_out(mc_session_t *s, const char *line, size_t len)
{
    mc_record_t rec;
    mc_seen_t seen;

    if (s->opts.observer == NULL)
        return;
    memset(&rec, 0, sizeof(rec));
    rec.outbound = 1;
    rec.kind = MC_FRAME_LINE;
    rec.data = (char *)line; /* borrowed for the call; the record is not freed */
    rec.len = len;
    rec.at_ms = mc_now_ms();
    seen.seq = s->seq_out;
    seen.rec = &rec;
    seen.judged = NULL;
    s->opts.observer(s->opts.observer_ctx, &seen);
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

mc_pending_t *mc__session_find_pending(mc_session_t *s, int64_t id)
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
    rc = mc__session_send_json(s, mc_jsonrpc_request(json_object_new_int64(id), method, params), timeout_ms);
    if (rc != MC_OK) {
        clear_pending(p);
        s->n_pending--;
        return rc;
    }
    *id_out = id;
    return MC_OK;
}

/* The end of a wait for the answer to pending request p (NULL when its slot
 * is gone): the answer in *response (MC_OK), or rc. A wait that timed out
 * while a line over the limit came names that line (MC_ETOOBIG: the answer
 * may have been it), not mere silence. Answered or abandoned, the slot is
 * free again. */
static int finish_wait(mc_session_t *s, mc_pending_t *p, int rc, uint64_t oversize0,
                       mc_msg_t *response)
{
    if (rc == MC_ETIMEOUT && s->oversize_seen != oversize0)
        rc = MC_ETOOBIG;
    if (p == NULL)
        return rc != MC_OK ? rc : MC_ENOTFOUND;
    if (p->answered) {
        *response = p->response;
        memset(&p->response, 0, sizeof(p->response));
        rc = MC_OK;
    }
    clear_pending(p);
    s->n_pending--;
    return rc;
}

int mc_session_await(mc_session_t *s, int64_t id, int timeout_ms, mc_msg_t *response)
{
    int64_t deadline = deadline_after(timeout_ms);
    mc_pending_t *p = mc__session_find_pending(s, id);
    int rc = MC_OK;

    uint64_t oversize0 = s->oversize_seen;

    if (p == NULL)
        return MC_ENOTFOUND;
    begin_wait(s);
    while (!p->answered) {
        rc = mc__session_step(s, deadline);
        /* The table may have moved (only a request sent meanwhile grows it). */
        p = mc__session_find_pending(s, id);
        if (rc != MC_OK || p == NULL)
            break;
    }
    return finish_wait(s, p, rc, oversize0, response);
}

int mc__session_handshake_request(mc_session_t *s, const char *method, json_object *params,
                                  int timeout_ms, mc_msg_t *response)
{
    int64_t id, deadline;
    uint64_t spoke0 = s->spoke, oversize0 = s->oversize_seen;
    int after = s->opts.answer_timeout_ms;
    mc_pending_t *p;
    int rc;

    s->handshake_after_ms = 0;
    s->handshake_unreadable = 0;
    s->handshake_why[0] = '\0';
    rc = mc_session_send_request(s, method, params, &id, timeout_ms);
    if (rc != MC_OK)
        return rc;
    deadline = deadline_after(timeout_ms);
    /* A server that has spoken has started: what is left is an answer's wait. */
    if (after > 0 && spoke0 > 0 && after < timeout_ms) {
        deadline = deadline_after(after);
        s->handshake_after_ms = after;
    }
    s->handshake_id = id;
    p = mc__session_find_pending(s, id);
    begin_wait(s);
    while (p != NULL && !p->answered) {
        rc = mc__session_step(s, deadline);
        p = mc__session_find_pending(s, id);
        if (rc != MC_OK || p == NULL)
            break;
        /* A line over the limit may be the answer, or a line before it (its
         * id cannot be read): the server has spoken, so what is left is an
         * answer's wait (below), and a wait that ends unanswered names the
         * line (finish_wait). */
        if (s->handshake_unreadable) {
            rc = MC_EPARSE;
            break;
        }
        if (after > 0 && s->handshake_after_ms == 0 && s->spoke > spoke0) {
            deadline = deadline_after(after);
            s->handshake_after_ms = after;
        }
    }
    s->handshake_id = 0;
    return finish_wait(s, p, rc, oversize0, response);
}

int mc__session_handshake_error(mc_session_t *s, int rc, const char *method, int timeout_ms,
                                mc_errbuf_t *eb)
{
    if (rc == MC_ETIMEOUT && s->handshake_after_ms > 0)
        return mc_errbuf_set(eb, rc,
                             "no answer to %s within %d ms of the server's first message", method,
                             s->handshake_after_ms);
    if (rc == MC_ETIMEOUT)
        return mc_errbuf_set(eb, rc, "no answer to %s within %d ms", method, timeout_ms);
    if (rc == MC_EEOF)
        return mc_errbuf_set(eb, rc, "the server's output ended before it answered %s", method);
    if (rc == MC_ETOOBIG)
        return mc_errbuf_set(eb, rc,
                             "the server wrote a line over the %u-byte message limit and no "
                             "answer to %s came before it (the wait ended there: the answer may "
                             "have been that line)",
                             MC_MAX_MESSAGE_SIZE, method);
    if (rc == MC_EPARSE)
        return mc_errbuf_set(eb, rc, "the server answered %s with a line that cannot be read (%s)",
                             method, s->handshake_why);
    if (rc == MC_EFLOOD)
        return mc_errbuf_set(eb, rc, "the server flooded the client before it answered %s: %s",
                             method, s->flood_desc);
    if (rc == MC_EINTR)
        return mc_errbuf_set(eb, rc, "interrupted while waiting for the answer to %s", method);
    return mc_errbuf_set(eb, rc, "%s could not be sent: %s", method, mc_strerror(rc));
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
    return mc__session_send_json(s, mc_jsonrpc_notification(method, params), timeout_ms);
}

int mc_session_next_notification(mc_session_t *s, int timeout_ms, mc_msg_t *out)
{
    int64_t deadline = deadline_after(timeout_ms);

    begin_wait(s);
    while (s->notes_count == 0) {
        int rc = mc__session_step(s, deadline);
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
    return mc__session_step(s, deadline_after(timeout_ms));
}

int mc_session_poll(mc_session_t *s, int timeout_ms)
{
    int64_t deadline = deadline_after(timeout_ms);
    int rc;

    begin_wait(s);
    do {
        rc = mc__session_step(s, deadline);
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
    rc = mc__session_handshake_request(s, "initialize", params, timeout_ms, &resp);
    if (rc != MC_OK)
        return mc__session_handshake_error(s, rc, "initialize", timeout_ms, eb);
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
        /* A version without the initialize handshake cannot be the
         * outcome of one: a session at it sends every request with its
         * _meta, which an initialized session does not. */
        if (mc_version_has(got, MC_VF_STATELESS)) {
            s->unsupported_version = 1;
            return mc_errbuf_set(eb, MC_EPROTO,
                                 "server answered initialize with protocol version \"%.40s\", "
                                 "which has no initialize handshake",
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
