/*
 * wire.c - the wire rules' state and their entry points: the tables of
 * requests sent, progress tokens and subscriptions, the findings and check
 * counts, and the two directions. mc_wire_outbound learns what the client
 * sent; mc_wire_inbound judges framing, UTF-8 and the JSON-RPC envelope of
 * what the server sent, then hands each message to the rules of its kind
 * (wire_match.c, wire_notify.c, wire_batch.c, wire_stateless.c).
 */
#include "judge/wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/rawid.h"
#include "judge/wire_internal.h"
#include "core/frame.h"
#include "core/json.h"
#include "core/jsonsyntax.h"
#include "core/limits.h"
#include "core/version.h"

static const char *const levels[] = {"debug",    "info",  "notice", "warning",
                                     "error",    "critical", "alert", "emergency", NULL};

int mc_log_level_rank(const char *level)
{
    int i;

    if (level == NULL)
        return -1;
    for (i = 0; levels[i] != NULL; i++)
        if (strcmp(level, levels[i]) == 0)
            return i;
    return -1;
}

const char *mc__wire_level_name(int rank)
{
    return rank >= 0 && rank < (int)(sizeof(levels) / sizeof(levels[0])) - 1 ? levels[rank] : "?";
}

int mc_wire_init(mc_wire_t *w)
{
    memset(w, 0, sizeof(*w));
    w->reqs = calloc(MC_WIRE_MAX_REQUESTS, sizeof(*w->reqs));
    if (w->reqs == NULL)
        return MC_ENOMEM;
    w->log_level = -1;
    return MC_OK;
}

void mc__wire_free_req(mc_wire_req_t *r)
{
    free(r->id);
    free(r->method);
    free(r->token);
    free(r->uri);
    free(r->level);
    free(r->task_id);
    json_object_put(r->caps);
    json_object_put(r->filter);
    memset(r, 0, sizeof(*r));
}

mc_wire_req_t *mc__wire_next_req_slot(mc_wire_t *w)
{
    mc_wire_req_t *r = &w->reqs[w->req_next];

    if (r->id != NULL && !r->answered)
        w->reqs_forgotten++;
    mc__wire_free_req(r);
    w->req_next = (w->req_next + 1) % MC_WIRE_MAX_REQUESTS;
    return r;
}

void mc_wire_free(mc_wire_t *w)
{
    size_t i;

    if (w->reqs != NULL)
        for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
            mc__wire_free_req(&w->reqs[i]);
    free(w->reqs);
    for (i = 0; i < MC_WIRE_MAX_TOKENS; i++) {
        free(w->tokens[i].token);
        free(w->tokens[i].task_id);
    }
    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        free(w->subs[i]);
    for (i = 0; i < MC_WIRE_MAX_SERVER_IDS; i++) {
        free(w->server_ids[i]);
        free(w->server_ids_compact[i]);
    }
    for (i = 0; i < MC_WIRE_MAX_OPEN_SERVER_TOKENS; i++) {
        free(w->open_tokens[i].id);
        free(w->open_tokens[i].token);
    }
    json_object_put(w->server_caps);
    json_object_put(w->client_caps);
    memset(w, 0, sizeof(*w));
}

static size_t check_slot(mc_wire_t *w, const char *check)
{
    size_t i;

    for (i = 0; i < w->n_checks; i++)
        if (strcmp(w->check_ids[i], check) == 0)
            return i;
    if (w->n_checks == MC_WIRE_MAX_CHECKS)
        return MC_WIRE_MAX_CHECKS;
    w->check_ids[w->n_checks] = check;
    return w->n_checks++;
}

void mc_wire_pass(mc_wire_t *w, const char *check)
{
    size_t i = check_slot(w, check);

    if (i < MC_WIRE_MAX_CHECKS)
        w->check_evals[i]++;
}

void mc_wire_fail(mc_wire_t *w, const char *check, const char *fmt, ...)
{
    va_list ap;
    mc_wire_finding_t *f;

    mc_wire_pass(w, check);
    if (w->n_findings == MC_WIRE_MAX_FINDINGS) {
        w->findings_dropped++;
        return;
    }
    f = &w->findings[w->n_findings++];
    f->check = check;
    f->seq = w->cur_seq ? w->cur_seq : w->seq_in;
    f->status = 0;
    f->request_unread = 0;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
}

char *mc__wire_compact_dup(json_object *v)
{
    size_t n = 0;
    /* The one text ids are compared in (core/jsonrpc.h). */
    const char *s = v != NULL ? mc_json_compact(v, &n) : "null";
    return strdup(s);
}

/* The id of the current inbound message for reports: as sent when known. */
void mc__wire_id_text(const mc_wire_t *w, const char *compact, char *buf, size_t n)
{
    if (w->raw_id != NULL)
        snprintf(buf, n, "%.*s", (int)(w->raw_id_len > 60 ? 60 : w->raw_id_len), w->raw_id);
    else
        snprintf(buf, n, "%.60s", compact != NULL ? compact : "null");
}

mc_wire_req_t *mc__wire_find_req(mc_wire_t *w, const char *id)
{
    mc_wire_req_t *first = NULL;
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
        if (w->reqs[i].id != NULL && strcmp(w->reqs[i].id, id) == 0) {
            if (!w->reqs[i].answered)
                return &w->reqs[i];
            if (first == NULL)
                first = &w->reqs[i];
        }
    return first;
}

void mc__wire_task_ended(mc_wire_t *w, const char *task_id)
{
    size_t i;

    for (i = 0; task_id != NULL && i < MC_WIRE_MAX_TOKENS; i++)
        if (w->tokens[i].task_id != NULL && strcmp(w->tokens[i].task_id, task_id) == 0)
            w->tokens[i].active = 0;
}

int mc__wire_task_terminal(const char *status)
{
    return status != NULL && (strcmp(status, "completed") == 0 || strcmp(status, "failed") == 0 ||
                              strcmp(status, "cancelled") == 0);
}

mc_wire_token_t *mc__wire_find_token(mc_wire_t *w, const char *token, int create)
{
    size_t i;
    mc_wire_token_t *free_slot = NULL;

    for (i = 0; i < MC_WIRE_MAX_TOKENS; i++) {
        if (w->tokens[i].token != NULL && strcmp(w->tokens[i].token, token) == 0)
            return &w->tokens[i];
        if (w->tokens[i].token == NULL && free_slot == NULL)
            free_slot = &w->tokens[i];
    }
    if (!create)
        return NULL;
    /* Full: reuse the slot of a token whose request has ended, round robin.
     * Progress for a forgotten ended token still fails, as it is unknown. */
    for (i = 0; free_slot == NULL && i < MC_WIRE_MAX_TOKENS; i++) {
        mc_wire_token_t *t = &w->tokens[(w->token_next + i) % MC_WIRE_MAX_TOKENS];
        if (!t->active) {
            free(t->token);
            free(t->task_id);
            t->token = NULL;
            t->task_id = NULL;
            free_slot = t;
            w->token_next = (w->token_next + i + 1) % MC_WIRE_MAX_TOKENS;
        }
    }
    if (free_slot == NULL) {
        w->tokens_untracked++;
        return NULL;
    }
    free_slot->token = strdup(token);
    free_slot->last = 0;
    free_slot->seen = 0;
    free_slot->active = 1;
    free_slot->task_id = NULL;
    return free_slot->token != NULL ? free_slot : NULL;
}

int mc__wire_subscribed(const mc_wire_t *w, const char *uri)
{
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        if (w->subs[i] != NULL && strcmp(w->subs[i], uri) == 0)
            return 1;
    return 0;
}

static void subscribe(mc_wire_t *w, const char *uri)
{
    size_t i;

    if (mc__wire_subscribed(w, uri))
        return;
    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        if (w->subs[i] == NULL) {
            w->subs[i] = strdup(uri);
            if (w->subs[i] == NULL)
                w->subs_untracked++;
            return;
        }
    w->subs_untracked++;
}

void mc__wire_unsubscribe(mc_wire_t *w, const char *uri)
{
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        if (w->subs[i] != NULL && strcmp(w->subs[i], uri) == 0) {
            free(w->subs[i]);
            w->subs[i] = NULL;
        }
}

void mc_wire_outbound(mc_wire_t *w, const char *line, size_t len)
{
    mc_msg_t m;
    mc_wire_req_t *r;

    if (mc_msg_decode(line, len, 0, &m) == MC_OK && m.kind == MC_MSG_INVALID &&
        m.root != NULL && json_object_is_type(m.root, json_type_array) &&
        mc_version_has(w->version, MC_VF_BATCH)) {
        /* A batch, at a version that has them: each member is a message sent. */
        size_t i, n = json_object_array_length(m.root);
        /* An empty batch is answered by one error without an id. */
        if (n == 0)
            w->unreadable_outstanding++;
        for (i = 0; i < n; i++) {
            json_object *el = json_object_array_get_idx(m.root, i);
            size_t el_len = 0;
            const char *el_text;
            if (!json_object_is_type(el, json_type_object)) {
                w->unreadable_outstanding++; /* answered by an error without an id */
                continue;
            }
            el_text = mc_json_compact(el, &el_len);
            if (el_text != NULL)
                mc_wire_outbound(w, el_text, el_len);
        }
        mc_msg_free(&m);
        return;
    }
    if (m.kind == MC_MSG_INVALID || m.root == NULL) {
        /* A deliberately malformed line. If its id can be read, the answer
         * carries that id; otherwise the server may answer once with a null
         * id (JSON-RPC 2.0, section 5). */
        json_object *id = NULL;
        w->last_out_notification = 0;
        if (m.root != NULL && json_object_is_type(m.root, json_type_object) &&
            json_object_object_get_ex(m.root, "id", &id) && mc_jsonrpc_id_valid(id)) {
            const char *meth = mc_json_get_str(m.root, "method");
            r = mc__wire_next_req_slot(w);
            r->id = mc__wire_compact_dup(id);
            r->method = strdup(meth != NULL ? meth : "(invalid request)");
        } else {
            w->unreadable_outstanding++;
        }
        if (m.root != NULL && json_object_is_type(m.root, json_type_array))
            mc__wire_outbound_batch(w, m.root);
        mc_msg_free(&m);
        return;
    }
    w->last_out_notification = m.kind == MC_MSG_NOTIFICATION;
    if (m.kind == MC_MSG_NOTIFICATION) {
        w->notes_out++;
        if (strcmp(m.method, "notifications/initialized") == 0)
            w->initialized_sent = 1;
        if (strcmp(m.method, "notifications/cancelled") == 0) {
            /* The cancelled request may never be answered; keep it open. */
        }
        mc_msg_free(&m);
        return;
    }
    if ((m.kind == MC_MSG_RESULT || m.kind == MC_MSG_ERROR) && m.id != NULL) {
        /* The client answers a server request: it is no longer active. */
        char *id = mc__wire_compact_dup(m.id);
        if (id != NULL)
            mc__wire_server_request_closed(w, id);
        free(id);
    }
    if (m.kind != MC_MSG_REQUEST) {
        mc_msg_free(&m);
        return;
    }
    r = mc__wire_next_req_slot(w);
    r->id = mc__wire_compact_dup(m.id);
    r->method = strdup(m.method);
    if (strcmp(m.method, "initialize") == 0) {
        json_object_put(w->client_caps);
        w->client_caps = json_object_get(mc_json_get(m.params, "capabilities"));
    }
    {
        json_object *meta = mc_json_get(m.params, "_meta");
        json_object *tok = mc_json_get(meta, "progressToken");
        if (tok != NULL) {
            r->token = mc__wire_compact_dup(tok);
            if (r->token != NULL)
                mc__wire_find_token(w, r->token, 1);
        }
    }
    if (strcmp(m.method, "resources/subscribe") == 0 || strcmp(m.method, "resources/unsubscribe") == 0) {
        const char *uri = mc_json_get_str(m.params, "uri");
        if (uri != NULL) {
            r->uri = strdup(uri);
            if (m.method[10] == 's')
                subscribe(w, uri); /* from the request on: updates may race the answer */
        }
    }
    if (strcmp(m.method, "logging/setLevel") == 0) {
        const char *lv = mc_json_get_str(m.params, "level");
        if (lv != NULL)
            r->level = strdup(lv);
    }
    {
        /* Tasks (2025-11-25): a task-augmented request, or one about a task. */
        json_object *task = mc_json_get(m.params, "task");
        const char *tid = mc_json_get_str(m.params, "taskId");
        r->task = task != NULL && json_object_is_type(task, json_type_object);
        if (tid != NULL && strncmp(m.method, "tasks/", strlen("tasks/")) == 0)
            r->task_id = strdup(tid);
    }
    mc__wire_stateless_outbound(w, r, &m);
    mc_msg_free(&m);
}

/* A result response whose id is null: the shape of an answer to a notification. */
static int is_null_id_result(json_object *root)
{
    json_object *id = NULL;

    return root != NULL && json_object_is_type(root, json_type_object) &&
           json_object_object_get_ex(root, "id", &id) && id == NULL &&
           json_object_object_get_ex(root, "result", NULL) &&
           !json_object_object_get_ex(root, "method", NULL) &&
           !json_object_object_get_ex(root, "error", NULL);
}


/* Hands a JSON text that is no valid message to the caller (is_line 0), or
 * frees it when there is no caller to take it. */
static void keep_invalid(mc_wire_info_t *info, mc_msg_t *m)
{
    if (info != NULL)
        info->msg = *m;
    else
        mc_msg_free(m);
}

void mc__wire_on_message(mc_wire_t *w, mc_msg_t *m, unsigned flags, mc_wire_info_t *info)
{
    switch (m->kind) {
    case MC_MSG_RESULT:
    case MC_MSG_ERROR:
        mc__wire_on_response(w, m, flags, info);
        break;
    case MC_MSG_NOTIFICATION:
        mc__wire_on_notification(w, m);
        break;
    case MC_MSG_REQUEST:
        mc__wire_on_server_request(w, m);
        break;
    default:
        break;
    }
    /* After the response is matched: an initialize result sets the version. */
    if (m->kind == MC_MSG_RESULT || m->kind == MC_MSG_NOTIFICATION || m->kind == MC_MSG_REQUEST)
        mc__wire_meta(w, m);
}

/* True when line [data, data+len) opens a JSON object or array and ends
 * before closing it, with no syntax error before its end: the start of a
 * message that goes on after a newline. */
static int ends_inside_value(const char *data, size_t len)
{
    size_t i = 0, at = 0;
    const char *what = NULL;

    while (data != NULL && i < len && (data[i] == ' ' || data[i] == '\t'))
        i++;
    if (data == NULL || i == len || (data[i] != '{' && data[i] != '['))
        return 0;
    return mc_json_syntax_check(data, len, MC_MAX_JSON_DEPTH, &at, &what) == MC_EPARSE &&
           at >= len;
}

void mc_wire_inbound(mc_wire_t *w, int kind, unsigned flags, const char *data, size_t len,
                     mc_wire_info_t *info)
{
    mc_msg_t m;
    mc_errbuf_t eb;
    json_object *root = NULL;
    int rc;

    w->seq_in++;
    if (info != NULL)
        memset(info, 0, sizeof(*info));
    switch (kind) {
    case MC_FRAME_EMPTY:
        mc_wire_fail(w, "wire/newline-delimited", "empty line on stdout");
        return;
    case MC_FRAME_OVERSIZE:
        if (flags & MC_FRAME_F_OPEN)
            mc_wire_fail(w, "wire/message-size",
                         "a line passed the %u-byte limit (%zu bytes, no newline yet)",
                         MC_MAX_MESSAGE_SIZE, len);
        else
            mc_wire_fail(w, "wire/message-size", "line of %zu bytes exceeds the %u-byte limit",
                         len, MC_MAX_MESSAGE_SIZE);
        return;
    case MC_FRAME_TRUNCATED:
        mc_wire_fail(w, "wire/stdout-only-messages",
                     "%zu bytes without a final newline when the output ended", len);
        return;
    default:
        break;
    }
    if (flags & MC_FRAME_F_CRLF)
        mc_wire_fail(w, "wire/newline-delimited", "line ends in \\r\\n");
    mc_errbuf_clear(&eb);
    rc = mc_json_parse(data, len, 0, &root, &eb);
    if (rc != MC_OK && info != NULL) {
        info->msg.kind = MC_MSG_INVALID;
        info->msg.rpc_error = MC_RPC_PARSE_ERROR;
        snprintf(info->msg.reason, sizeof(info->msg.reason), "%s", eb.msg);
        /* Which request an unreadable answer was for, when its id can be told. */
        if (data != NULL && !mc__raw_member_id(data, len, &info->raw_id, &info->raw_id_len))
            info->raw_id = NULL;
    }
    if (rc == MC_EUTF8) {
        mc_wire_fail(w, "wire/utf8", "%s", eb.msg);
        return;
    }
    mc_wire_pass(w, "wire/utf8");
    if (rc != MC_OK) {
        /* A line that opens a JSON text and ends before it closes: the
         * newline that ended it was inside the message. */
        if ((flags & MC_FRAME_F_NEWLINE) && rc == MC_EPARSE && ends_inside_value(data, len))
            mc_wire_fail(w, "wire/no-embedded-newline",
                         "a line ends inside a JSON value (a message holding a newline): %.80s",
                         data != NULL ? data : "");
        mc_wire_fail(w, "wire/stdout-only-messages", "not JSON (%s): %.80s", eb.msg,
                     data != NULL ? data : "");
        return;
    }
    if (flags & MC_FRAME_F_NEWLINE)
        mc_wire_pass(w, "wire/no-embedded-newline");
    if (info != NULL)
        info->is_json = 1;
    mc_wire_pass(w, "wire/stdout-only-messages");
    mc_msg_classify(root, &m);
    if (m.kind == MC_MSG_INVALID && m.root != NULL &&
        json_object_is_type(m.root, json_type_array) && mc_version_has(w->version, MC_VF_BATCH)) {
        /* A version with JSON-RPC batches (2025-03-26; removed in 2025-06-18):
         * each member is judged as a message of its own. */
        mc_wire_pass(w, "wire/no-batch");
        mc__wire_inbound_batch(w, m.root);
        keep_invalid(info, &m);
        return;
    }
    if (m.kind == MC_MSG_INVALID) {
        if (m.root != NULL && json_object_is_type(m.root, json_type_array))
            mc_wire_fail(w, "wire/no-batch", "%s", m.reason);
        else if (is_null_id_result(m.root) && w->null_answers < w->notes_out) {
            /* The rule broken is answering a notification (one was sent that
             * no earlier such result could answer); the null id follows. */
            w->null_answers++;
            mc_wire_fail(w, "wire/no-response-to-notification",
                         "a result with a null id, the answer to a notification%s",
                         w->last_out_notification ? " (it came right after one)" : "");
        }
        else
            mc_wire_fail(w, "wire/jsonrpc-envelope", "%s", m.reason);
        keep_invalid(info, &m);
        return;
    }
    mc_wire_pass(w, "wire/jsonrpc-envelope");
    w->raw_id = NULL;
    if (m.id != NULL && !mc__raw_member_id(data, len, &w->raw_id, &w->raw_id_len))
        w->raw_id = NULL;
    w->raw_line = data;
    w->raw_line_len = len;
    mc__wire_on_message(w, &m, flags, info);
    w->raw_id = NULL;
    w->raw_line = NULL;
    if (info != NULL) {
        info->msg = m;
        info->is_line = 1;
    } else {
        mc_msg_free(&m);
    }
}

void mc_wire_info_free(mc_wire_info_t *info)
{
    mc_msg_free(&info->msg);
    memset(info, 0, sizeof(*info));
}
