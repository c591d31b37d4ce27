#include "judge/wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/rawid.h"
#include "core/frame.h"
#include "core/json.h"
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

int mc_wire_init(mc_wire_t *w)
{
    memset(w, 0, sizeof(*w));
    w->reqs = calloc(MC_WIRE_MAX_REQUESTS, sizeof(*w->reqs));
    if (w->reqs == NULL)
        return MC_ENOMEM;
    w->log_level = -1;
    return MC_OK;
}

static void free_req(mc_wire_req_t *r)
{
    free(r->id);
    free(r->method);
    free(r->token);
    free(r->uri);
    free(r->level);
    json_object_put(r->caps);
    json_object_put(r->filter);
    memset(r, 0, sizeof(*r));
}

void mc_wire_free(mc_wire_t *w)
{
    size_t i;

    if (w->reqs != NULL)
        for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
            free_req(&w->reqs[i]);
    free(w->reqs);
    for (i = 0; i < MC_WIRE_MAX_TOKENS; i++)
        free(w->tokens[i].token);
    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        free(w->subs[i]);
    for (i = 0; i < MC_WIRE_MAX_SERVER_IDS; i++)
        free(w->server_ids[i]);
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
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
}

static char *compact_dup(json_object *v)
{
    size_t n = 0;
    const char *s = v != NULL ? json_object_to_json_string_length(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n)
                              : "null";
    return strdup(s);
}

/* The id of the current inbound message for reports: as sent when known. */
static void id_text(const mc_wire_t *w, const char *compact, char *buf, size_t n)
{
    if (w->raw_id != NULL)
        snprintf(buf, n, "%.*s", (int)(w->raw_id_len > 60 ? 60 : w->raw_id_len), w->raw_id);
    else
        snprintf(buf, n, "%.60s", compact != NULL ? compact : "null");
}

static mc_wire_req_t *find_req(mc_wire_t *w, const char *id)
{
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
        if (w->reqs[i].id != NULL && strcmp(w->reqs[i].id, id) == 0)
            return &w->reqs[i];
    return NULL;
}

static mc_wire_token_t *find_token(mc_wire_t *w, const char *token, int create)
{
    size_t i;
    mc_wire_token_t *free_slot = NULL;

    for (i = 0; i < MC_WIRE_MAX_TOKENS; i++) {
        if (w->tokens[i].token != NULL && strcmp(w->tokens[i].token, token) == 0)
            return &w->tokens[i];
        if (w->tokens[i].token == NULL && free_slot == NULL)
            free_slot = &w->tokens[i];
    }
    if (!create || free_slot == NULL)
        return NULL;
    free_slot->token = strdup(token);
    free_slot->last = 0;
    free_slot->seen = 0;
    free_slot->active = 1;
    return free_slot->token != NULL ? free_slot : NULL;
}

static int subscribed(const mc_wire_t *w, const char *uri)
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

    if (subscribed(w, uri))
        return;
    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        if (w->subs[i] == NULL) {
            w->subs[i] = strdup(uri);
            return;
        }
}

static void unsubscribe(mc_wire_t *w, const char *uri)
{
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_SUBSCRIPTIONS; i++)
        if (w->subs[i] != NULL && strcmp(w->subs[i], uri) == 0) {
            free(w->subs[i]);
            w->subs[i] = NULL;
        }
}

/*
 * A JSON array sent on purpose (a JSON-RPC batch, which MCP has no longer
 * had since 2025-06-18): its requests are noted one by one, so a server that
 * answers them one by one answers requests the client did send. The array
 * itself has no id: a single error with a null id may refuse it (counted by
 * the caller). At most MC_WIRE_MAX_REQUESTS elements are looked at.
 */
static void outbound_batch(mc_wire_t *w, json_object *arr)
{
    size_t i, n = json_object_array_length(arr);

    for (i = 0; i < n && i < MC_WIRE_MAX_REQUESTS; i++) {
        json_object *el = json_object_array_get_idx(arr, i), *id = NULL;
        const char *meth = mc_json_get_str(el, "method");
        mc_wire_req_t *r;

        if (el == NULL || !json_object_is_type(el, json_type_object) || meth == NULL ||
            !json_object_object_get_ex(el, "id", &id) || !mc_jsonrpc_id_valid(id))
            continue;
        r = &w->reqs[w->req_next];
        free_req(r);
        w->req_next = (w->req_next + 1) % MC_WIRE_MAX_REQUESTS;
        r->id = compact_dup(id);
        r->method = strdup(meth);
    }
}

/* ---- the stateless protocol (2026-07-28) ---- */

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_LOG "io.modelcontextprotocol/logLevel"
#define META_SUB "io.modelcontextprotocol/subscriptionId"

/*
 * A request whose _meta names a stateless version makes the session
 * stateless from then on; the request keeps what the rules about its
 * answers need: whether it set a log level, its client capabilities, and a
 * listen request's filter. Each copy is private (json-c reference counts
 * are not atomic, and messages may be shared).
 */
static void stateless_outbound(mc_wire_t *w, mc_wire_req_t *r, const mc_msg_t *m)
{
    json_object *meta = mc_json_get(m->params, "_meta");
    const char *pv = mc_json_get_str(meta, META_VERSION);
    json_object *v;

    if (pv == NULL || !mc_version_has(pv, MC_VF_STATELESS))
        return;
    w->stateless = 1;
    snprintf(w->version, sizeof(w->version), "%s", pv);
    r->req_log = mc_json_get(meta, META_LOG) != NULL;
    v = mc_json_get(meta, META_CAPS);
    if (v != NULL && json_object_deep_copy(v, &r->caps, NULL) != 0)
        r->caps = NULL;
    v = mc_json_get(m->params, "notifications");
    if (strcmp(m->method, "subscriptions/listen") == 0 && v != NULL &&
        json_object_deep_copy(v, &r->filter, NULL) != 0)
        r->filter = NULL;
}

/* The methods that may answer with an InputRequiredResult (mrtr#supported-requests). */
static int input_required_allowed(const char *method)
{
    return strcmp(method, "tools/call") == 0 || strcmp(method, "prompts/get") == 0 ||
           strcmp(method, "resources/read") == 0;
}

/* Judges a result at a version whose results carry resultType. */
static void stateless_result(mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m)
{
    const char *rt = mc_json_get_str(m->result, "resultType");
    json_object *reqs;

    if (!mc_version_has(w->version, MC_VF_RESULT_TYPE) ||
        !json_object_is_type(m->result, json_type_object))
        return;
    if (rt == NULL || (strcmp(rt, "complete") != 0 && strcmp(rt, "input_required") != 0)) {
        mc_wire_fail(w, "wire/result-type", "%s result %s", r->method,
                     rt == NULL ? "has no string resultType" : "has an unknown resultType");
        return;
    }
    mc_wire_pass(w, "wire/result-type");
    if (strcmp(rt, "input_required") != 0)
        return;
    if (!input_required_allowed(r->method))
        mc_wire_fail(w, "wire/input-required-methods",
                     "%s was answered with an InputRequiredResult", r->method);
    else
        mc_wire_pass(w, "wire/input-required-methods");
    reqs = mc_json_get(m->result, "inputRequests");
    if (reqs == NULL && mc_json_get(m->result, "requestState") == NULL)
        mc_wire_fail(w, "wire/input-required-shape",
                     "the InputRequiredResult to %s has neither inputRequests nor requestState",
                     r->method);
    else
        mc_wire_pass(w, "wire/input-required-shape");
    if (json_object_is_type(reqs, json_type_object)) {
        json_object_object_foreach(reqs, key, req)
        {
            const char *meth = mc_json_get_str(req, "method");
            const char *cap = meth == NULL                                  ? NULL
                              : strcmp(meth, "elicitation/create") == 0     ? "elicitation"
                              : strcmp(meth, "sampling/createMessage") == 0 ? "sampling"
                              : strcmp(meth, "roots/list") == 0             ? "roots"
                                                                            : NULL;
            if (cap == NULL)
                continue;
            if (mc_json_get(r->caps, cap) == NULL)
                mc_wire_fail(w, "wire/input-requests-declared",
                             "inputRequests[\"%.60s\"] asks for %s, but the request did not "
                             "declare the %s capability",
                             key, meth, cap);
            else
                mc_wire_pass(w, "wire/input-requests-declared");
        }
    }
}

/* The filter member a change notification needs, or NULL for other methods. */
static const char *change_filter(const char *method)
{
    if (strcmp(method, "notifications/tools/list_changed") == 0)
        return "toolsListChanged";
    if (strcmp(method, "notifications/prompts/list_changed") == 0)
        return "promptsListChanged";
    if (strcmp(method, "notifications/resources/list_changed") == 0)
        return "resourcesListChanged";
    if (strcmp(method, "notifications/resources/updated") == 0)
        return "resourceSubscriptions";
    return NULL;
}

/* True when a listen filter opted in to a change notification. */
static int opted_in(json_object *filter, const char *member, const mc_msg_t *m)
{
    json_object *v = mc_json_get(filter, member);
    const char *uri;
    size_t i, n;

    if (v == NULL)
        return 0;
    if (json_object_is_type(v, json_type_boolean))
        return json_object_get_boolean(v);
    uri = mc_json_get_str(m->params, "uri");
    if (uri == NULL || !json_object_is_type(v, json_type_array))
        return 0;
    n = json_object_array_length(v);
    for (i = 0; i < n; i++) {
        json_object *u = json_object_array_get_idx(v, i);
        if (json_object_is_type(u, json_type_string) && strcmp(json_object_get_string(u), uri) == 0)
            return 1;
    }
    return 0;
}

/* Judges a notification in a stateless session. Returns 1 when it was one
 * the stateless protocol handles (the legacy rules do not apply then). */
static int stateless_notification(mc_wire_t *w, const mc_msg_t *m)
{
    const char *member = change_filter(m->method);
    json_object *sub;
    mc_wire_req_t *listen = NULL;
    char *sid;
    size_t i;

    if (!w->stateless)
        return 0;
    if (strcmp(m->method, "notifications/message") == 0) {
        int open = 0;
        for (i = 0; i < MC_WIRE_MAX_REQUESTS && !open; i++)
            open = w->reqs[i].id != NULL && !w->reqs[i].answered && w->reqs[i].req_log;
        if (!open)
            mc_wire_fail(w, "wire/log-per-request",
                         "notifications/message while no request in progress set "
                         "io.modelcontextprotocol/logLevel");
        else
            mc_wire_pass(w, "wire/log-per-request");
        return 0; /* the level and capability rules hold as before */
    }
    if (member == NULL && strcmp(m->method, "notifications/subscriptions/acknowledged") != 0)
        return 0;
    sub = mc_json_get(mc_json_get(m->params, "_meta"), META_SUB);
    sid = sub != NULL ? compact_dup(sub) : NULL;
    listen = sid != NULL ? find_req(w, sid) : NULL;
    if (listen != NULL && strcmp(listen->method, "subscriptions/listen") != 0)
        listen = NULL;
    if (member == NULL) {
        /* The acknowledgement opens the stream's notifications. */
        if (listen != NULL)
            listen->acked = 1;
        free(sid);
        return 1;
    }
    if (listen == NULL || !opted_in(listen->filter, member, m))
        mc_wire_fail(w, "wire/listen-opted-in",
                     "%s %s", m->method,
                     sid == NULL ? "without a subscriptionId: no subscriptions/listen stream "
                                   "asked for it"
                     : listen == NULL ? "tagged with a subscriptionId that names no "
                                        "subscriptions/listen request"
                                      : "on a stream that did not opt in to it");
    else
        mc_wire_pass(w, "wire/listen-opted-in");
    if (listen != NULL) {
        if (!listen->acked)
            mc_wire_fail(w, "wire/listen-ack-first",
                         "%s on subscription %.60s before its acknowledgement", m->method, sid);
        else
            mc_wire_pass(w, "wire/listen-ack-first");
    }
    free(sid);
    return 1;
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
            r = &w->reqs[w->req_next];
            free_req(r);
            w->req_next = (w->req_next + 1) % MC_WIRE_MAX_REQUESTS;
            r->id = compact_dup(id);
            r->method = strdup(meth != NULL ? meth : "(invalid request)");
        } else {
            w->unreadable_outstanding++;
        }
        if (m.root != NULL && json_object_is_type(m.root, json_type_array))
            outbound_batch(w, m.root);
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
    if (m.kind != MC_MSG_REQUEST) {
        mc_msg_free(&m);
        return;
    }
    r = &w->reqs[w->req_next];
    free_req(r);
    w->req_next = (w->req_next + 1) % MC_WIRE_MAX_REQUESTS;
    r->id = compact_dup(m.id);
    r->method = strdup(m.method);
    if (strcmp(m.method, "initialize") == 0) {
        json_object_put(w->client_caps);
        w->client_caps = json_object_get(mc_json_get(m.params, "capabilities"));
    }
    {
        json_object *meta = mc_json_get(m.params, "_meta");
        json_object *tok = mc_json_get(meta, "progressToken");
        if (tok != NULL) {
            r->token = compact_dup(tok);
            if (r->token != NULL)
                find_token(w, r->token, 1);
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
    stateless_outbound(w, r, &m);
    mc_msg_free(&m);
}

static int cap_declared(json_object *caps, const char *cap, const char *flag)
{
    json_object *c = mc_json_get(caps, cap);

    if (c == NULL)
        return 0;
    if (flag == NULL)
        return 1;
    c = mc_json_get(c, flag);
    return c != NULL && json_object_is_type(c, json_type_boolean) && json_object_get_boolean(c);
}

static void on_response(mc_wire_t *w, mc_msg_t *m, unsigned flags, mc_wire_info_t *info)
{
    char *id = m->id != NULL ? compact_dup(m->id) : NULL;
    mc_wire_req_t *r = id != NULL ? find_req(w, id) : NULL;

    if (id == NULL) {
        /* Only an answer to a line whose id could not be read may lack one,
         * or the body of an HTTP error status refusing a POSTed request
         * (the transport pairs it with that request; the transports page
         * allows such a body "a JSON-RPC error response that has no id"). */
        if (m->kind == MC_MSG_ERROR && (flags & MC_FRAME_F_REFUSAL)) {
            mc_wire_pass(w, "wire/null-id-only-for-unreadable-requests");
        } else if (m->kind == MC_MSG_ERROR && w->unreadable_outstanding > 0) {
            w->unreadable_outstanding--;
            mc_wire_pass(w, "wire/null-id-only-for-unreadable-requests");
        } else if (w->last_out_notification) {
            mc_wire_fail(w, "wire/no-response-to-notification",
                         "a response with a null id arrived right after a notification");
        } else {
            mc_wire_fail(w, "wire/null-id-only-for-unreadable-requests",
                         "error response without an id, though every request sent had a "
                         "readable id");
        }
        return;
    }
    if (r == NULL) {
        /* An integer id answered as a string (or the reverse)? */
        int type_mismatch = 0;
        if (json_object_is_type(m->id, json_type_string)) {
            char *alt = strdup(json_object_get_string(m->id));
            type_mismatch = alt != NULL && find_req(w, alt) != NULL;
            free(alt);
        } else {
            char alt[64];
            snprintf(alt, sizeof(alt), "\"%s\"", id);
            type_mismatch = find_req(w, alt) != NULL;
        }
        char shown[64];
        id_text(w, id, shown, sizeof(shown));
        if (type_mismatch)
            mc_wire_fail(w, "wire/response-id",
                         "response id %s has another type than the request's id", shown);
        else if (w->last_out_notification)
            mc_wire_fail(w, "wire/no-response-to-notification",
                         "response with id %s matches no request; the last message sent was "
                         "a notification",
                         shown);
        else
            mc_wire_fail(w, "wire/response-id", "response id %s matches no request sent", shown);
        free(id);
        return;
    }
    free(id);
    if (r->answered) {
        mc_wire_fail(w, "wire/single-response", "second response to request %s (%s)", r->id,
                     r->method);
        return;
    }
    r->answered = 1;
    mc_wire_pass(w, "wire/response-id");
    if (info != NULL)
        info->answered_method = r->method;
    if (r->token != NULL) {
        mc_wire_token_t *t = find_token(w, r->token, 0);
        if (t != NULL)
            t->active = 0; /* progress must stop once the request completes */
    }
    if (strcmp(r->method, "initialize") == 0 && m->kind == MC_MSG_RESULT) {
        json_object_put(w->server_caps);
        w->server_caps = json_object_get(mc_json_get(m->result, "capabilities"));
        w->init_answered = 1;
        if (mc_json_get_str(m->result, "protocolVersion") != NULL)
            snprintf(w->version, sizeof(w->version), "%s",
                     mc_json_get_str(m->result, "protocolVersion"));
    }
    if (m->kind == MC_MSG_RESULT && r->uri != NULL && strcmp(r->method, "resources/unsubscribe") == 0)
        unsubscribe(w, r->uri);
    if (m->kind == MC_MSG_ERROR && r->uri != NULL && strcmp(r->method, "resources/subscribe") == 0)
        unsubscribe(w, r->uri);
    if (m->kind == MC_MSG_RESULT && r->level != NULL)
        w->log_level = mc_log_level_rank(r->level);
    if (m->kind == MC_MSG_RESULT && w->stateless) {
        if (strcmp(r->method, "server/discover") == 0) {
            json_object_put(w->server_caps);
            w->server_caps = NULL;
            if (mc_json_get(m->result, "capabilities") != NULL &&
                json_object_deep_copy(mc_json_get(m->result, "capabilities"), &w->server_caps,
                                      NULL) != 0)
                w->server_caps = NULL;
        }
        stateless_result(w, r, m);
    }
}

static void on_notification(mc_wire_t *w, mc_msg_t *m)
{
    const char *meth = m->method;
    static const struct {
        const char *method, *cap;
    } changed[] = {{"notifications/resources/list_changed", "resources"},
                   {"notifications/prompts/list_changed", "prompts"},
                   {"notifications/tools/list_changed", "tools"}};
    size_t i;

    if (stateless_notification(w, m))
        return;
    for (i = 0; i < sizeof(changed) / sizeof(changed[0]); i++) {
        if (strcmp(meth, changed[i].method) == 0) {
            if (!cap_declared(w->server_caps, changed[i].cap, "listChanged"))
                mc_wire_fail(w, "wire/negotiated-capabilities",
                             "%s sent, but the server did not declare %s.listChanged", meth,
                             changed[i].cap);
            else
                mc_wire_pass(w, "wire/negotiated-capabilities");
            return;
        }
    }
    if (strcmp(meth, "notifications/resources/updated") == 0) {
        const char *uri = mc_json_get_str(m->params, "uri");
        if (!cap_declared(w->server_caps, "resources", "subscribe"))
            mc_wire_fail(w, "wire/negotiated-capabilities",
                         "resources/updated sent, but the server did not declare "
                         "resources.subscribe");
        else
            mc_wire_pass(w, "wire/negotiated-capabilities");
        if (uri != NULL && !subscribed(w, uri))
            mc_wire_fail(w, "wire/resource-updated-subscribed",
                         "resources/updated for %.120s, which the client is not subscribed to",
                         uri);
        else
            mc_wire_pass(w, "wire/resource-updated-subscribed");
        return;
    }
    if (strcmp(meth, "notifications/message") == 0) {
        const char *lv = mc_json_get_str(m->params, "level");
        int rank = mc_log_level_rank(lv);
        if (!cap_declared(w->server_caps, "logging", NULL))
            mc_wire_fail(w, "wire/logging-capability",
                         "notifications/message sent, but the server did not declare logging");
        else
            mc_wire_pass(w, "wire/logging-capability");
        if (w->log_level >= 0 && rank >= 0) {
            if (rank < w->log_level)
                mc_wire_fail(w, "wire/log-level",
                             "log message at level %s, below the level %s the client set", lv,
                             levels[w->log_level]);
            else
                mc_wire_pass(w, "wire/log-level");
        }
        return;
    }
    if (strcmp(meth, "notifications/progress") == 0) {
        json_object *tok = mc_json_get(m->params, "progressToken");
        json_object *prog = mc_json_get(m->params, "progress");
        char *t = tok != NULL ? compact_dup(tok) : NULL;
        mc_wire_token_t *rec = t != NULL ? find_token(w, t, 0) : NULL;
        if (rec == NULL || !rec->active) {
            mc_wire_fail(w, "wire/progress-active-token",
                         "progress for token %.60s, which is not an active request's token",
                         t != NULL ? t : "(none)");
        } else {
            mc_wire_pass(w, "wire/progress-active-token");
            if (prog != NULL && (json_object_is_type(prog, json_type_int) ||
                                 json_object_is_type(prog, json_type_double))) {
                double p = json_object_get_double(prog);
                if (rec->seen && !(p > rec->last))
                    mc_wire_fail(w, "wire/progress-increases",
                                 "progress %g for token %.60s does not increase (last %g)", p, t,
                                 rec->last);
                else
                    mc_wire_pass(w, "wire/progress-increases");
                rec->seen = 1;
                rec->last = p;
            }
        }
        free(t);
        return;
    }
}

static void on_server_request(mc_wire_t *w, mc_msg_t *m)
{
    static const struct {
        const char *method, *cap;
    } need[] = {{"elicitation/create", "elicitation"},
                {"sampling/createMessage", "sampling"},
                {"roots/list", "roots"}};
    size_t i;

    {
        /* Keyed by the id as written: the parser clamps integers past 64 bits. */
        char *id = w->raw_id != NULL ? strndup(w->raw_id, w->raw_id_len) : compact_dup(m->id);
        size_t k;
        int seen = 0;
        for (k = 0; id != NULL && k < MC_WIRE_MAX_SERVER_IDS; k++)
            if (w->server_ids[k] != NULL && strcmp(w->server_ids[k], id) == 0)
                seen = 1;
        if (seen) {
            char shown[64];
            id_text(w, id, shown, sizeof(shown));
            mc_wire_fail(w, "wire/server-request-id-unique",
                         "server request %.60s reuses id %s of an earlier server request",
                         m->method, shown);
            free(id);
        } else if (id != NULL) {
            mc_wire_pass(w, "wire/server-request-id-unique");
            free(w->server_ids[w->server_id_next]);
            w->server_ids[w->server_id_next] = id;
            w->server_id_next = (w->server_id_next + 1) % MC_WIRE_MAX_SERVER_IDS;
        }
    }
    if (!w->initialized_sent && strcmp(m->method, "ping") != 0)
        mc_wire_fail(w, "wire/requests-before-initialized",
                     "server sent %s before the client sent notifications/initialized", m->method);
    for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        if (strcmp(m->method, need[i].method) == 0) {
            if (!cap_declared(w->client_caps, need[i].cap, NULL))
                mc_wire_fail(w, "wire/negotiated-capabilities",
                             "server sent %s, but the client did not declare %s", m->method,
                             need[i].cap);
            else
                mc_wire_pass(w, "wire/negotiated-capabilities");
        }
    }
    if (strcmp(m->method, "elicitation/create") == 0 &&
        cap_declared(w->client_caps, "elicitation", NULL)) {
        /*
         * Modes (2025-11-25/client/elicitation#capabilities): "Servers MUST
         * NOT send elicitation requests with modes that are not supported by
         * the client"; an empty elicitation object means form mode only.
         */
        json_object *el = mc_json_get(w->client_caps, "elicitation");
        const char *mode = mc_json_get_str(m->params, "mode");
        int has_form = mc_json_get(el, "form") != NULL, has_url = mc_json_get(el, "url") != NULL;
        int form_ok = has_form || (!has_form && !has_url);
        if (mode != NULL && strcmp(mode, "url") == 0 && !has_url)
            mc_wire_fail(w, "wire/elicitation-mode",
                         "URL-mode elicitation sent, but the client did not declare "
                         "elicitation.url");
        else if ((mode == NULL || strcmp(mode, "form") == 0) && !form_ok)
            mc_wire_fail(w, "wire/elicitation-mode",
                         "form-mode elicitation sent, but the client declared only "
                         "elicitation.url");
        else
            mc_wire_pass(w, "wire/elicitation-mode");
    }
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

/* The members of a batch answer: each must be a message, judged as one. */
static void inbound_batch(mc_wire_t *w, json_object *arr)
{
    size_t i, n = json_object_array_length(arr);

    if (n == 0) {
        mc_wire_fail(w, "wire/jsonrpc-envelope", "an empty array is not a batch");
        return;
    }
    for (i = 0; i < n; i++) {
        mc_msg_t m;
        mc_msg_classify(json_object_get(json_object_array_get_idx(arr, i)), &m);
        if (m.kind == MC_MSG_INVALID) {
            mc_wire_fail(w, "wire/jsonrpc-envelope", "batch member %zu: %s", i, m.reason);
            mc_msg_free(&m);
            continue;
        }
        mc_wire_pass(w, "wire/jsonrpc-envelope");
        w->raw_id = NULL;
        switch (m.kind) {
        case MC_MSG_RESULT:
        case MC_MSG_ERROR:
            on_response(w, &m, 0, NULL);
            break;
        case MC_MSG_NOTIFICATION:
            on_notification(w, &m);
            break;
        case MC_MSG_REQUEST:
            on_server_request(w, &m);
            break;
        default:
            break;
        }
        mc_msg_free(&m);
    }
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
    }
    if (rc == MC_EUTF8) {
        mc_wire_fail(w, "wire/utf8", "%s", eb.msg);
        return;
    }
    mc_wire_pass(w, "wire/utf8");
    if (rc != MC_OK) {
        mc_wire_fail(w, "wire/stdout-only-messages", "not JSON (%s): %.80s", eb.msg,
                     data != NULL ? data : "");
        return;
    }
    if (info != NULL)
        info->is_json = 1;
    mc_wire_pass(w, "wire/stdout-only-messages");
    mc_msg_classify(root, &m);
    if (m.kind == MC_MSG_INVALID && m.root != NULL &&
        json_object_is_type(m.root, json_type_array) && mc_version_has(w->version, MC_VF_BATCH)) {
        /* A version with JSON-RPC batches (2025-03-26; removed in 2025-06-18):
         * each member is judged as a message of its own. */
        mc_wire_pass(w, "wire/no-batch");
        inbound_batch(w, m.root);
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
    switch (m.kind) {
    case MC_MSG_RESULT:
    case MC_MSG_ERROR:
        on_response(w, &m, flags, info);
        break;
    case MC_MSG_NOTIFICATION:
        on_notification(w, &m);
        break;
    case MC_MSG_REQUEST:
        on_server_request(w, &m);
        break;
    default:
        break;
    }
    w->raw_id = NULL;
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
