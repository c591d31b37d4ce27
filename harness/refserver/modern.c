/*
 * modern.c - the stateless protocol (2026-07-28) beside the legacy session.
 *
 * The server is dual-era (2026-07-28/basic/versioning#backward-compatibility-
 * with-initialization-based-versions): a request carrying the per-request
 * _meta fields, or arriving before any initialize, is served statelessly
 * with the version, capabilities and log level of its own _meta; an
 * initialize opens the legacy session as before. While a modern request (or
 * a tool call it started) runs, the server's context (rs_ctx_t) is switched
 * to the request's and switched back afterwards, so every module shapes its
 * answers for the version in force without knowing about eras.
 *
 * Here also: server/discover, subscriptions/listen streams, the fields every
 * modern result carries, and the multi round-trip form of the requests the
 * tools make of the client (InputRequiredResult, then the retry with
 * inputResponses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "refserver/internal.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_LOG "io.modelcontextprotocol/logLevel"
#define META_SUB "io.modelcontextprotocol/subscriptionId"
#define META_INFO "io.modelcontextprotocol/clientInfo"

/* params._meta when it is an object, else NULL (borrowed). */
static json_object *request_meta(json_object *params)
{
    json_object *m;

    if (params == NULL || !json_object_is_type(params, json_type_object) ||
        !json_object_object_get_ex(params, "_meta", &m) ||
        !json_object_is_type(m, json_type_object))
        return NULL;
    return m;
}

int mc__rs_modern_claims(const mc_refserver_t *rs, const mc_msg_t *msg)
{
    json_object *meta = request_meta(msg->params);

    if (strcmp(msg->method, "server/discover") == 0 ||
        strcmp(msg->method, "subscriptions/listen") == 0)
        return 1;
    if (meta != NULL && (json_object_object_get_ex(meta, META_VERSION, NULL) ||
                         json_object_object_get_ex(meta, META_CAPS, NULL)))
        return 1;
    return rs->phase == RS_PHASE_NEW && strcmp(msg->method, "initialize") != 0 &&
           strcmp(msg->method, "ping") != 0;
}

/* The versions served statelessly, as a new JSON array. */
static json_object *modern_versions(mc_refserver_t *rs)
{
    json_object *a = json_object_new_array();

    if (a == NULL) {
        rs->failed = 1;
        return NULL;
    }
    json_object_array_add(a, json_object_new_string(mc_version_name(MC_V_2026_07_28)));
    return a;
}

/* Index of a log level name, or -1. */
static int level_index(const char *name)
{
    int i;

    for (i = 0; name != NULL && i < RS_LOG_LEVELS; i++)
        if (strcmp(mc__rs_log_level_name(i), name) == 0)
            return i;
    return -1;
}

int mc__rs_modern_enter(mc_refserver_t *rs, const mc_msg_t *msg, rs_ctx_t *saved)
{
    json_object *meta, *v, *caps = NULL, *lv;
    const char *pv;
    int level = -1;

    if (msg->params != NULL && !json_object_is_type(msg->params, json_type_object)) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS, "params must be an object", NULL);
        return -1;
    }
    meta = request_meta(msg->params);
    if (meta == NULL || !json_object_object_get_ex(meta, META_VERSION, &v) ||
        !json_object_is_type(v, json_type_string)) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS,
                     "params._meta[\"" META_VERSION "\"] (a string) is required on every "
                     "request",
                     NULL);
        return -1;
    }
    pv = json_object_get_string(v);
    if (!json_object_object_get_ex(meta, META_CAPS, &caps) ||
        !json_object_is_type(caps, json_type_object)) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS,
                     "params._meta[\"" META_CAPS "\"] (an object) is required on every request",
                     NULL);
        return -1;
    }
    if (!mc_version_has(pv, MC_VF_STATELESS)) {
        json_object *data = json_object_new_object();
        /* The versions a request may name in _meta, the list server/discover
         * gives: the retry the client makes from this list is a request of
         * this revision (basic/versioning#protocol-version-negotiation). */
        mc__rs_put(rs, data, "supported", modern_versions(rs));
        mc__rs_put_str(rs, data, "requested", pv);
        mc__rs_error(rs, msg->id, MC_RPC_UNSUPPORTED_VERSION, "Unsupported protocol version", data);
        return -1;
    }
    if (json_object_object_get_ex(meta, META_LOG, &lv)) {
        level = json_object_is_type(lv, json_type_string) ? level_index(json_object_get_string(lv))
                                                          : -1;
        if (level < 0 && !rs_fault_hook(rs, RS_HOOK_ACCEPT_UNKNOWN_META_LEVEL)) {
            mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS,
                         "params._meta[\"" META_LOG "\"] must be one of debug, info, notice, "
                         "warning, error, critical, alert, emergency",
                         NULL);
            return -1;
        }
    }
    if (mc__rs_has_nul_string(msg->params, 0)) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS,
                     "params hold a string with a NUL character (\\u0000)", NULL);
        return -1;
    }
    mc__rs_ctx_save(rs, saved);
    rs->modern = 1;
    rs->version = MC_V_2026_07_28;
    mc__rs_record_client_caps(rs, caps);
    rs->req_log = level;
    rs->cacheable = 0;
    return 0;
}

json_object *mc__rs_modern_only_refusal(char *text, size_t n)
{
    const char *const *names = mc_version_names();
    json_object *data = json_object_new_object(), *sup = json_object_new_array();
    size_t i, len = strlen(text), named = 0;

    for (i = 0; names[i] != NULL; i++) {
        int w;
        if (!mc_version_has(names[i], MC_VF_STATELESS))
            continue;
        json_object_array_add(sup, json_object_new_string(names[i]));
        w = snprintf(text + len, n - len, "%s%s",
                     named++ == 0 ? "; this server speaks only the protocol version " : ", ",
                     names[i]);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
    if (data == NULL || sup == NULL) {
        json_object_put(data);
        json_object_put(sup);
        return NULL;
    }
    json_object_object_add(data, "supported", sup);
    return data;
}

void mc__rs_modern_only_initialize(mc_refserver_t *rs, json_object *id)
{
    char text[RS_REFUSAL_TEXT_MAX] = "initialize is not supported";
    json_object *data;

    /* initialize is no method of the stateless revision; the refusal names
     * the versions a request may carry instead, in the message a legacy
     * client shows and in data.supported as UnsupportedProtocolVersionError
     * lists them (basic/versioning#backward-compatibility-with-initialization-
     * based-versions). */
    data = mc__rs_modern_only_refusal(text, sizeof(text));
    if (data == NULL)
        rs->failed = 1;
    mc__rs_error(rs, id, MC_RPC_METHOD_NOT_FOUND, text, data);
}

void mc__rs_discover(mc_refserver_t *rs, json_object *id, json_object *params)
{
    json_object *res, *caps;

    (void)params;
    rs->discovered = 1;
    if (rs_fault_hook(rs, RS_HOOK_REFUSE_DISCOVER)) {
        mc__rs_error(rs, id, MC_RPC_METHOD_NOT_FOUND, "method not found", NULL);
        return;
    }
    res = json_object_new_object();
    mc__rs_put(rs, res, "supportedVersions", modern_versions(rs));
    caps = mc__rs_server_caps(rs);
    mc__rs_put(rs, res, "capabilities", caps);
    mc__rs_put_str(rs, res, "instructions",
                   "Reference MCP server of mcpcheck: fixtures of the official conformance "
                   "suite, paginated lists and trigger tools.");
    rs->cacheable = 1;
    mc__rs_result(rs, id, res);
}

/* ---- subscriptions/listen ---- */

static void listen_clear(rs_listen_t *l)
{
    int i;

    json_object_put(l->id);
    for (i = 0; i < l->nuris; i++)
        free(l->uris[i]);
    memset(l, 0, sizeof(*l));
}

void mc__rs_listens_free(mc_refserver_t *rs)
{
    int i;

    for (i = 0; rs->listens != NULL && i < RS_MAX_LISTENS; i++)
        if (rs->listens[i].used)
            listen_clear(&rs->listens[i]);
    free(rs->listens);
    rs->listens = NULL;
}

/* True when filter[key] is true. */
static int wants(json_object *filter, const char *key)
{
    json_object *v;

    return json_object_object_get_ex(filter, key, &v) &&
           json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

/* {"_meta": {subscriptionId: id}} plus the members of params (consumed). */
static json_object *tagged(mc_refserver_t *rs, json_object *id, json_object *params)
{
    json_object *p = params != NULL ? params : json_object_new_object(), *meta;

    if (!json_object_object_get_ex(p, "_meta", &meta)) {
        meta = json_object_new_object();
        mc__rs_put(rs, p, "_meta", meta);
    }
    if (meta != NULL)
        mc__rs_put(rs, meta, META_SUB, json_object_get(id));
    return p;
}

void mc__rs_listen(mc_refserver_t *rs, json_object *id, json_object *params)
{
    json_object *filter, *uris, *ack;
    rs_listen_t *l = NULL;
    size_t i, n;
    int k;

    if (!json_object_object_get_ex(params, "notifications", &filter) ||
        !json_object_is_type(filter, json_type_object)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.notifications must be an object", NULL);
        return;
    }
    if (json_object_object_get_ex(filter, "resourceSubscriptions", &uris) &&
        (!json_object_is_type(uris, json_type_array) ||
         json_object_array_length(uris) > RS_MAX_SUBSCRIPTIONS)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                     "params.notifications.resourceSubscriptions must be an array of at most "
                     "64 URIs",
                     NULL);
        return;
    }
    if (rs->listens == NULL) {
        rs->listens = calloc(RS_MAX_LISTENS, sizeof(*rs->listens));
        if (rs->listens == NULL) {
            rs->failed = 1;
            return;
        }
    }
    for (k = 0; k < RS_MAX_LISTENS && l == NULL; k++)
        if (!rs->listens[k].used)
            l = &rs->listens[k];
    if (l == NULL) {
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "too many subscriptions/listen streams open",
                     NULL);
        return;
    }
    l->used = 1;
    l->id = json_object_get(id);
    l->tools = wants(filter, "toolsListChanged");
    l->prompts = wants(filter, "promptsListChanged");
    l->resources = wants(filter, "resourcesListChanged");
    ack = json_object_new_object();
    if (l->tools)
        mc__rs_put(rs, ack, "toolsListChanged", json_object_new_boolean(1));
    if (l->prompts)
        mc__rs_put(rs, ack, "promptsListChanged", json_object_new_boolean(1));
    if (l->resources)
        mc__rs_put(rs, ack, "resourcesListChanged", json_object_new_boolean(1));
    n = uris != NULL && json_object_is_type(uris, json_type_array) ? json_object_array_length(uris)
                                                                   : 0;
    if (json_object_object_get_ex(filter, "resourceSubscriptions", NULL)) {
        json_object *acked = json_object_new_array();
        for (i = 0; i < n; i++) {
            json_object *u = json_object_array_get_idx(uris, i);
            const char *s =
                json_object_is_type(u, json_type_string) ? json_object_get_string(u) : NULL;
            char *copy;
            if (s == NULL || strlen(s) > RS_MAX_URI_LEN || !mc__rs_resource_exists(rs, s))
                continue; /* not a resource of this server: not honoured */
            copy = strdup(s);
            if (copy == NULL) {
                rs->failed = 1;
                break;
            }
            l->uris[l->nuris++] = copy;
            json_object_array_add(acked, json_object_new_string(s));
        }
        mc__rs_put(rs, ack, "resourceSubscriptions", acked);
    }
    {
        json_object *p = json_object_new_object();
        mc__rs_put(rs, p, "notifications", ack);
        mc__rs_notify(rs, "notifications/subscriptions/acknowledged", tagged(rs, id, p));
    }
}

int mc__rs_listen_cancel(mc_refserver_t *rs, json_object *rid)
{
    int i;

    for (i = 0; rs->listens != NULL && i < RS_MAX_LISTENS; i++) {
        if (rs->listens[i].used && mc_jsonrpc_id_equal(rs->listens[i].id, rid)) {
            listen_clear(&rs->listens[i]);
            return 1;
        }
    }
    return 0;
}

/* True when listen l opted in to method (for uri). */
static int listen_wants(const rs_listen_t *l, const char *method, const char *uri)
{
    int i;

    if (strcmp(method, "notifications/tools/list_changed") == 0)
        return l->tools;
    if (strcmp(method, "notifications/prompts/list_changed") == 0)
        return l->prompts;
    if (strcmp(method, "notifications/resources/list_changed") == 0)
        return l->resources;
    for (i = 0; uri != NULL && i < l->nuris; i++)
        if (strcmp(l->uris[i], uri) == 0)
            return 1;
    return 0;
}

void mc__rs_notify_change(mc_refserver_t *rs, const char *method, const char *uri, int legacy,
                          json_object *params)
{
    int i;

    for (i = 0; rs->listens != NULL && i < RS_MAX_LISTENS; i++) {
        json_object *copy = NULL;
        const rs_listen_t *l = &rs->listens[i];
        if (!l->used || (!listen_wants(l, method, uri) && !rs_fault_hook(rs, RS_HOOK_LISTEN_GETS_ALL)))
            continue;
        if (params != NULL && json_object_deep_copy(params, &copy, NULL) != 0) {
            rs->failed = 1;
            continue;
        }
        mc__rs_notify(rs, method, tagged(rs, l->id, copy));
    }
    if (legacy && rs->phase != RS_PHASE_NEW)
        mc__rs_notify(rs, method, params);
    else
        json_object_put(params);
}

/* The list member of a list method's result ("tools" for tools/list), or
 * NULL for another method. */
static const char *list_member(const char *method)
{
    static const char *const lists[][2] = {
        {"tools/list", "tools"}, {"prompts/list", "prompts"}, {"resources/list", "resources"}};
    size_t i;

    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
        if (strcmp(method, lists[i][0]) == 0)
            return lists[i][1];
    return NULL;
}

/* True when a request's self-reported clientInfo is absent or names a
 * client other than mcpcheck (what the client-info-changes-result switch
 * acts on). */
static int other_client(json_object *params)
{
    json_object *info = NULL;
    const char *name;

    if (!json_object_object_get_ex(request_meta(params), META_INFO, &info))
        return 1;
    name = mc__rs_get_str(info, "name");
    return name == NULL || strcmp(name, "mcpcheck") != 0;
}

int mc__rs_modern_switched(mc_refserver_t *rs, const mc_msg_t *msg)
{
    if (rs_fault_hook(rs, RS_HOOK_RESULT_BY_CLIENT) && list_member(msg->method) != NULL &&
        other_client(msg->params)) {
        json_object *res = json_object_new_object();
        mc__rs_put(rs, res, list_member(msg->method), json_object_new_array());
        mc__rs_result(rs, msg->id, res);
        return 1;
    }
    if (rs_fault_hook(rs, RS_HOOK_DISCOVER_FIRST) && !rs->discovered &&
        strcmp(msg->method, "server/discover") != 0) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_REQUEST,
                     "send server/discover on this connection first", NULL);
        return 1;
    }
    if (rs_fault_hook(rs, RS_HOOK_CANCEL_BY_NOTIFICATION) && strcmp(msg->method, "tools/call") == 0 &&
        msg->id != NULL) {
        json_object *p = json_object_new_object();
        mc__rs_put(rs, p, "requestId", json_object_get(msg->id));
        mc__rs_notify(rs, "notifications/cancelled", p);
    }
    return 0;
}

void mc__rs_misused_code(mc_refserver_t *rs, json_object *id)
{
    json_object *data = json_object_new_object();

    mc__rs_put(rs, data, "supported", modern_versions(rs));
    mc__rs_put_str(rs, data, "requested", MC_VN_2026_07_28);
    mc__rs_error(rs, id, MC_RPC_UNSUPPORTED_VERSION, "Unsupported protocol version", data);
}

/* ---- multi round-trip requests ---- */

/* The inputRequests key the server uses for a method. */
static const char *input_key(const char *method)
{
    if (strcmp(method, "elicitation/create") == 0)
        return RS_MRTR_KEY_ELICITATION;
    if (strcmp(method, "sampling/createMessage") == 0)
        return RS_MRTR_KEY_SAMPLING;
    return RS_MRTR_KEY_ROOTS;
}

int mc__rs_mrtr_ask(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params)
{
    const char *key = input_key(method);
    json_object *answer, *res, *reqs, *req;
    char state[96];

    if (job->responses != NULL && json_object_object_get_ex(job->responses, key, &answer) &&
        json_object_is_type(answer, json_type_object)) {
        json_object_put(params);
        job->mrtr_reply = answer;
        return RS_STEP_LATER;
    }
    if (job->responses != NULL && (rs_fault_hook(rs, RS_HOOK_REFUSE_INPUT_RESPONSES) ||
                                   (rs_fault_hook(rs, RS_HOOK_REFUSE_UNKNOWN_INPUT_RESPONSES) &&
                                    json_object_object_length(job->responses) > 0))) {
        json_object_put(params);
        mc__rs_error(rs, job->id, MC_RPC_INVALID_PARAMS,
                     "params.inputResponses does not hold the input asked for", NULL);
        return RS_STEP_DONE;
    }
    if (rs_fault_hook(rs, RS_HOOK_ASK_STATELESS_CLIENT))
        mc__rs_emit(rs, mc_jsonrpc_request(json_object_new_string("mcpcheck-refserver-ask"), method,
                                           params != NULL ? json_object_get(params)
                                                          : json_object_new_object()));
    res = json_object_new_object();
    mc__rs_put_str(rs, res, "resultType", "input_required");
    reqs = json_object_new_object();
    req = json_object_new_object();
    mc__rs_put_str(rs, req, "method", method);
    if (params != NULL)
        mc__rs_put(rs, req, "params", params);
    mc__rs_put(rs, reqs, key, req);
    mc__rs_put(rs, res, "inputRequests", reqs);
    /* The state names only what the retry must carry: tampering with it
     * can do nothing worse than fail the retry. */
    snprintf(state, sizeof(state), RS_MRTR_STATE_PREFIX "%s:%s", method, key);
    mc__rs_put_str(rs, res, "requestState", state);
    mc__rs_job_finish(rs, job, res);
    return RS_STEP_DONE;
}

int mc__rs_need_capability(mc_refserver_t *rs, rs_job_t *job, const char *cap, const char *sub)
{
    json_object *data = json_object_new_object(), *req = json_object_new_object(),
                *c = json_object_new_object();
    char msg[128];

    if (sub != NULL)
        mc__rs_put(rs, c, sub, json_object_new_object());
    mc__rs_put(rs, req, cap, c);
    mc__rs_put(rs, data, "requiredCapabilities", req);
    snprintf(msg, sizeof(msg), "this request needs the client capability %s%s%s", cap,
             sub != NULL ? "." : "", sub != NULL ? sub : "");
    mc__rs_error(rs, job->id, MC_RPC_MISSING_CLIENT_CAPABILITY, msg, data);
    return RS_STEP_DONE;
}
