/*
 * wire_stateless.c - the rules of the stateless protocol (2026-07-28): a
 * request's _meta makes the session stateless and keeps what its answers
 * are judged by; results carry a known resultType, InputRequiredResult only
 * for the methods that may return it and only asking for what the request
 * declared; log messages only while a request that set a level is open;
 * change notifications only on a subscriptions/listen stream that opted in
 * to them, after its acknowledgement; error codes only those the version
 * allows, and the defined ones only with their meaning.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/wire.h"
#include "judge/rawid.h"
#include "judge/wire_internal.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_LOG "io.modelcontextprotocol/logLevel"
#define META_SUB "io.modelcontextprotocol/subscriptionId"
#define META_SERVER "io.modelcontextprotocol/serverInfo"
/* How deep requiredCapabilities is compared with the request's capabilities;
 * deeper members are taken as declared. */
#define MC_WIRE_CAPS_DEPTH_MAX 8

/*
 * A request whose _meta names a stateless version makes the session
 * stateless from then on; the request keeps what the rules about its
 * answers need: whether it set a log level, its client capabilities, and a
 * listen request's filter. Each copy is private (json-c reference counts
 * are not atomic, and messages may be shared).
 */
void mc__wire_stateless_outbound(mc_wire_t *w, mc_wire_req_t *r, const mc_msg_t *m)
{
    json_object *meta = mc_json_get(m->params, "_meta");
    const char *pv = mc_json_get_str(meta, META_VERSION);
    json_object *v;

    if (pv == NULL || !mc_version_has(pv, MC_VF_STATELESS))
        return;
    w->stateless = 1;
    r->modern = 1;
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
/* Judges the keys of an InputRequiredResult's inputRequests as the server
 * wrote them: the parsed object keeps one member of each name, so a key
 * written twice is found in the raw text (names compared as written). */
static void input_keys_unique(mc_wire_t *w)
{
    const char *res, *reqs, *dup;
    size_t res_n, reqs_n, dup_n;
    int rc;

    if (w->raw_line == NULL ||
        !mc__raw_member(w->raw_line, w->raw_line_len, "result", &res, &res_n) ||
        !mc__raw_member(res, res_n, "inputRequests", &reqs, &reqs_n))
        return;
    rc = mc__raw_duplicate_key(reqs, reqs_n, &dup, &dup_n);
    if (rc == 1)
        mc_wire_fail(w, "wire/input-request-keys-unique",
                     "inputRequests holds the key \"%.*s\" twice", (int)(dup_n > 60 ? 60 : dup_n),
                     dup);
    else if (rc == 0)
        mc_wire_pass(w, "wire/input-request-keys-unique");
}

void mc__wire_stateless_result(mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m)
{
    const char *rt = mc_json_get_str(m->result, "resultType");
    json_object *reqs;

    if (!mc_version_has(w->version, MC_VF_RESULT_TYPE) ||
        !json_object_is_type(m->result, json_type_object))
        return;
    if (!json_object_is_type(mc_json_get(mc_json_get(m->result, "_meta"), META_SERVER),
                             json_type_object))
        mc_wire_fail(w, "wire/result-server-info",
                     "the result to %s has no object _meta[\"" META_SERVER "\"]", r->method);
    else
        mc_wire_pass(w, "wire/result-server-info");
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
    if (json_object_is_type(reqs, json_type_object))
        input_keys_unique(w);
    if (json_object_is_type(reqs, json_type_object)) {
        json_object_object_foreach(reqs, key, req)
        {
            const char *meth = mc_json_get_str(req, "method");
            const char *cap = meth == NULL                                  ? NULL
                              : strcmp(meth, "elicitation/create") == 0     ? "elicitation"
                              : strcmp(meth, "sampling/createMessage") == 0 ? "sampling"
                              : strcmp(meth, "roots/list") == 0             ? "roots"
                                                                            : NULL;
            if (cap == NULL) {
                mc_wire_fail(w, "wire/input-requests-kind",
                             "inputRequests[\"%.60s\"] is %s%.60s, not an elicitation/create, "
                             "sampling/createMessage or roots/list request",
                             key, meth == NULL ? "a request without a method" : "a request of ",
                             meth == NULL ? "" : meth);
                continue;
            }
            mc_wire_pass(w, "wire/input-requests-kind");
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

/* True when every member of need is in have, objects member by member
 * (a capability and, recursively, its sub-capabilities). */
static int caps_cover(json_object *have, json_object *need, int depth)
{
    if (!json_object_is_type(need, json_type_object) || depth > MC_WIRE_CAPS_DEPTH_MAX)
        return 1;
    if (!json_object_is_type(have, json_type_object))
        return 0;
    json_object_object_foreach(need, key, sub)
    {
        json_object *h;

        if (!json_object_object_get_ex(have, key, &h) || !caps_cover(h, sub, depth + 1))
            return 0;
    }
    return 1;
}

/* Why a defined code answers against its meaning, as far as the error
 * shows it, or NULL. */
static const char *code_misused(const mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m)
{
    json_object *data = mc_json_get(m->error, "data");

    if (m->error_code == MC_RPC_UNSUPPORTED_VERSION) {
        json_object *sup = mc_json_get(data, "supported");
        size_t i, n = json_object_is_type(sup, json_type_array) ? json_object_array_length(sup) : 0;

        for (i = 0; i < n; i++) {
            json_object *v = json_object_array_get_idx(sup, i);

            if (json_object_is_type(v, json_type_string) &&
                strcmp(json_object_get_string(v), w->version) == 0)
                return "UnsupportedProtocolVersion, while its data.supported lists the version "
                       "the request named";
        }
    }
    if (m->error_code == MC_RPC_MISSING_CLIENT_CAPABILITY) {
        json_object *need = mc_json_get(data, "requiredCapabilities");

        if (json_object_is_type(need, json_type_object) && json_object_object_length(need) > 0 &&
            caps_cover(r->caps, need, 0))
            return "MissingRequiredClientCapability, while the request declared every capability "
                   "its data.requiredCapabilities names";
    }
    return NULL;
}

/*
 * Judges the code of an error answering a request that named a stateless
 * version (basic#error-codes): no code of the sub-range the MCP
 * specification reserves but those it defines, and neither code an earlier
 * version defined and this one retired (-32002, -32042).
 */
void mc__wire_stateless_error(mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m)
{
    int64_t c = m->error_code;
    int defined = c == MC_RPC_HEADER_MISMATCH || c == MC_RPC_MISSING_CLIENT_CAPABILITY ||
                  c == MC_RPC_UNSUPPORTED_VERSION;

    if (c == MC_RPC_RESOURCE_NOT_FOUND || c == MC_RPC_URL_ELICITATION_REQUIRED)
        mc_wire_fail(w, "wire/error-code-reserved",
                     "%s was answered with %lld, a code of an earlier version that %s must not "
                     "emit",
                     r->method, (long long)c, w->version);
    else if (c >= MC_RPC_MCP_RESERVED_MIN && c <= MC_RPC_MCP_RESERVED_MAX && !defined)
        mc_wire_fail(w, "wire/error-code-reserved",
                     "%s was answered with %lld, a code of the sub-range the MCP specification "
                     "reserves (-32099 to -32020) that it does not define",
                     r->method, (long long)c);
    else
        mc_wire_pass(w, "wire/error-code-reserved");
    if (defined) {
        const char *why = code_misused(w, r, m);

        if (why != NULL)
            mc_wire_fail(w, "wire/error-code-meaning", "%s was answered with %lld, %s", r->method,
                         (long long)c, why);
        else
            mc_wire_pass(w, "wire/error-code-meaning");
    }
    /* The rest of the JSON-RPC reserved range: the legacy sub-range and
     * below -32099, but the codes of JSON-RPC itself. */
    if (c >= MC_RPC_JSONRPC_RESERVED_MIN && c <= MC_RPC_JSONRPC_RESERVED_MAX &&
        !(c >= MC_RPC_MCP_RESERVED_MIN && c <= MC_RPC_MCP_RESERVED_MAX) &&
        c != MC_RPC_RESOURCE_NOT_FOUND && c != MC_RPC_PARSE_ERROR &&
        !(c >= MC_RPC_INTERNAL_ERROR && c <= MC_RPC_INVALID_REQUEST))
        mc_wire_fail(w, "wire/error-code-outside-reserved",
                     "%s was answered with %lld, a code of the JSON-RPC reserved range "
                     "(-32768 to -32000) that neither JSON-RPC nor this version defines",
                     r->method, (long long)c);
    else
        mc_wire_pass(w, "wire/error-code-outside-reserved");
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

/* What the subscriptions/listen requests sent with id sid (compact JSON)
 * say of a notification of filter member `member` tagged with it: whether
 * one was sent (return value), whether one opted in to it (*opted) and
 * whether one was acknowledged (*acked). A client may send one id twice
 * (a fuzzing campaign does on purpose), and the streams it opens cannot
 * then be told apart: any of them may be the one. With ack set, an
 * acknowledgement: each of them counts as acknowledged. */
static int listens_of(mc_wire_t *w, const char *sid, const char *member, const mc_msg_t *m,
                      int ack, int *opted, int *acked)
{
    size_t i;
    int found = 0;

    *opted = *acked = 0;
    for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++) {
        mc_wire_req_t *r = &w->reqs[i];
        if (r->id == NULL || strcmp(r->id, sid) != 0 ||
            strcmp(r->method, "subscriptions/listen") != 0)
            continue;
        found = 1;
        if (ack)
            r->acked = 1;
        if (member != NULL && opted_in(r->filter, member, m))
            *opted = 1;
        if (r->acked)
            *acked = 1;
    }
    return found;
}

/* True while a request that named no stateless version is in progress: a
 * server of both eras serves it as a legacy one, and what it sends meanwhile
 * may be that request's, under the legacy rules. */
static int legacy_in_progress(const mc_wire_t *w)
{
    size_t i;

    for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
        if (w->reqs[i].id != NULL && !w->reqs[i].answered && !w->reqs[i].modern)
            return 1;
    return 0;
}

/* Judges notifications/cancelled from the server in a stateless session
 * (basic/patterns/cancellation): it ends a subscriptions/listen stream the
 * client opened and that is still open, and serves no other purpose. Not
 * judged while a legacy request is in progress (a legacy session's server
 * may cancel a request of its own). Returns 1 when judged. */
static int cancelled(mc_wire_t *w, const mc_msg_t *m)
{
    json_object *rid = mc_json_get(m->params, "requestId");
    char *id = rid != NULL ? mc__wire_compact_dup(rid) : NULL;
    size_t i;
    int listen = 0;

    for (i = 0; i < MC_WIRE_MAX_REQUESTS && id != NULL && !listen; i++) {
        const mc_wire_req_t *r = &w->reqs[i];
        listen = r->id != NULL && !r->answered && strcmp(r->id, id) == 0 &&
                 strcmp(r->method, "subscriptions/listen") == 0;
    }
    if (!listen && legacy_in_progress(w)) {
        free(id);
        return 0;
    }
    if (!listen)
        mc_wire_fail(w, "wire/cancelled-listen-only",
                     "notifications/cancelled for %.60s, which is no open subscriptions/listen "
                     "request of the client",
                     id != NULL ? id : "(no requestId)");
    else
        mc_wire_pass(w, "wire/cancelled-listen-only");
    free(id);
    return 1;
}

void mc__wire_stateless_server_request(mc_wire_t *w, const mc_msg_t *m)
{
    if (!w->stateless || w->legacy_accepted || legacy_in_progress(w))
        return;
    mc_wire_fail(w, "wire/no-server-requests",
                 "the server sent a %.60s request in a stateless session", m->method);
    if (w->over_stdio)
        mc_wire_fail(w, "wire/stdio-no-server-requests",
                     "the server wrote a %.60s request to stdout in a stateless session",
                     m->method);
}

/* Judges a notification in a stateless session. Returns 1 when it was one
 * the stateless protocol handles (the legacy rules do not apply then). Once
 * the server has accepted a legacy initialize, a notification may belong to
 * that session (a server of both eras "MAY implement both behaviors",
 * 2026-07-28/basic/versioning): the legacy rules judge it. */
int mc__wire_stateless_notification(mc_wire_t *w, const mc_msg_t *m)
{
    const char *member = change_filter(m->method);
    json_object *sub;
    char *sid;
    size_t i;
    int listen = 0, opted = 0, acked = 0;

    if (!w->stateless || w->legacy_accepted)
        return 0;
    if (strcmp(m->method, "notifications/message") == 0) {
        int open = legacy_in_progress(w);
        /* A request in progress that set a level. */
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
    if (strcmp(m->method, "notifications/cancelled") == 0)
        return cancelled(w, m);
    if (member == NULL && strcmp(m->method, "notifications/subscriptions/acknowledged") != 0)
        return 0;
    sub = mc_json_get(mc_json_get(m->params, "_meta"), META_SUB);
    if (sub == NULL && member != NULL && legacy_in_progress(w))
        return 0; /* untagged: perhaps the legacy request's, for the legacy rules */
    sid = sub != NULL ? mc__wire_compact_dup(sub) : NULL;
    /* The acknowledgement (member NULL) opens the stream's notifications. */
    if (sid != NULL)
        listen = listens_of(w, sid, member, m, member == NULL, &opted, &acked);
    if (member == NULL) {
        free(sid);
        return 1;
    }
    if (!listen || !opted)
        mc_wire_fail(w, "wire/listen-opted-in",
                     "%s %s", m->method,
                     sid == NULL ? "without a subscriptionId: no subscriptions/listen stream "
                                   "asked for it"
                     : !listen ? "tagged with a subscriptionId that names no "
                                 "subscriptions/listen request"
                               : "on a stream that did not opt in to it");
    else
        mc_wire_pass(w, "wire/listen-opted-in");
    if (listen) {
        if (!acked)
            mc_wire_fail(w, "wire/listen-ack-first",
                         "%s on subscription %.60s before its acknowledgement", m->method, sid);
        else
            mc_wire_pass(w, "wire/listen-ack-first");
    }
    free(sid);
    return 1;
}
