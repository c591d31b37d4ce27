/*
 * server.c - the session object and message dispatch.
 *
 * mc_refserver_handle() decodes one line, classifies it and routes it: client
 * requests to the method table, notifications to their handlers, responses
 * to the server->client request table. What the handlers send goes out
 * through emit.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "refserver/internal.h"

/* ---- ping ---- */

/* Answers ping with an empty result. */
static void handle_ping(mc_refserver_t *rs, json_object *id, json_object *params)
{
    (void)params;
    if (mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_EMPTY, .id = id}))
        return;
    if (rs_fault_hook(rs, RS_HOOK_IGNORE_PING)) /* behaviour fault: no answer */
        return;
    mc__rs_answer(rs, "ping", id, json_object_new_object());
}

/* ---- dispatch ---- */

typedef void (*rs_method_fn)(mc_refserver_t *rs, json_object *id, json_object *params);

typedef struct rs_method {
    const char *name;
    rs_method_fn fn;
} rs_method_t;

static void handle_list_resources(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_resources_list(rs, id, params);
}

static void handle_subscribe(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_resources_subscribe(rs, id, params, 1);
}

static void handle_unsubscribe(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_resources_subscribe(rs, id, params, 0);
}

/* Client->server methods served after initialize. */
static const rs_method_t rs_methods[] = {
    {"resources/list", handle_list_resources},
    {"resources/read", mc__rs_resources_read},
    {"resources/templates/list", mc__rs_templates_list},
    {"resources/subscribe", handle_subscribe},
    {"resources/unsubscribe", handle_unsubscribe},
    {"prompts/list", mc__rs_prompts_list},
    {"prompts/get", mc__rs_prompts_get},
    {"tools/list", mc__rs_tools_list},
    {"tools/call", mc__rs_tools_call},
    {"logging/setLevel", mc__rs_logging_set_level},
    {"completion/complete", mc__rs_complete},
};

#define RS_NUL_MESSAGE "params hold a string with a NUL character (\\u0000)"

/* The methods the stateless protocol removed (2026-07-28/changelog): unknown
 * methods to a modern request. */
static const char *const rs_removed[] = {"initialize", "ping", "logging/setLevel",
                                         "resources/subscribe", "resources/unsubscribe"};

/* The methods whose 2026-07-28 results are cacheable (ttlMs, cacheScope). */
static const char *const rs_cacheable[] = {"tools/list", "prompts/list", "resources/list",
                                           "resources/read", "resources/templates/list"};


/* Serves a request in the stateless protocol (modern.c has the context). */
static void dispatch_modern(mc_refserver_t *rs, const mc_msg_t *msg)
{
    const char *m = msg->method;
    rs_ctx_t saved;
    size_t i;

    if (mc__rs_modern_enter(rs, msg, &saved) != 0)
        return;
    if (mc__rs_modern_switched(rs, msg))
        goto done;
    for (i = 0; i < sizeof(rs_cacheable) / sizeof(rs_cacheable[0]); i++)
        if (strcmp(m, rs_cacheable[i]) == 0)
            rs->cacheable = 1;
    if (rs->cacheable && rs_fault_hook(rs, RS_HOOK_PRIVATE_LATER_PAGES) &&
        json_object_object_get_ex(msg->params, "cursor", NULL))
        rs->cacheable = RS_CACHEABLE_LATER_PAGE;
    for (i = 0; i < sizeof(rs_removed) / sizeof(rs_removed[0]); i++) {
        if (strcmp(m, rs_removed[i]) == 0) {
            mc__rs_error(rs, msg->id, MC_RPC_METHOD_NOT_FOUND, "method not found", NULL);
            goto done;
        }
    }
    if (strcmp(m, "server/discover") == 0) {
        mc__rs_discover(rs, msg->id, msg->params);
        goto done;
    }
    if (strcmp(m, "subscriptions/listen") == 0) {
        mc__rs_listen(rs, msg->id, msg->params);
        goto done;
    }
    if (rs_fault_hook(rs, RS_HOOK_REFUSE_LISTS) &&
        (strcmp(m, "tools/list") == 0 || strcmp(m, "resources/list") == 0 ||
         strcmp(m, "prompts/list") == 0)) {
        mc__rs_error(rs, msg->id, MC_RPC_INTERNAL_ERROR, "internal error", NULL);
        goto done;
    }
    for (i = 0; i < sizeof(rs_methods) / sizeof(rs_methods[0]); i++) {
        if (strcmp(m, rs_methods[i].name) == 0) {
            rs_methods[i].fn(rs, msg->id, msg->params);
            goto done;
        }
    }
    if (rs->modern && rs_fault_hook(rs, RS_HOOK_MISUSE_VERSION_ERROR)) {
        mc__rs_misused_code(rs, msg->id);
    } else {
        rs->error_reason = RS_REASON_UNKNOWN_STATELESS_METHOD;
        mc__rs_error(rs, msg->id, MC_RPC_METHOD_NOT_FOUND, "method not found", NULL);
        rs->error_reason = NULL;
    }
done:
    mc__rs_ctx_restore(rs, &saved);
}

static void serve_request(mc_refserver_t *rs, const mc_msg_t *msg)
{
    size_t i;
    const char *m = msg->method;

    if (strcmp(m, "completion/complete") != 0)
        mc__rs_complete_forget(rs);
    if (rs->modern_only && strcmp(m, "initialize") == 0) {
        mc__rs_modern_only_initialize(rs, msg->id);
        return;
    }
    if (rs->modern_only || mc__rs_modern_claims(rs, msg)) {
        dispatch_modern(rs, msg);
        return;
    }
    if (strcmp(m, "ping") == 0) {
        handle_ping(rs, msg->id, msg->params);
        return;
    }
    if (strcmp(m, "initialize") == 0) {
        if (rs->phase != RS_PHASE_NEW) {
            mc__rs_error(rs, msg->id, MC_RPC_INVALID_REQUEST,
                         "the session is already initialized", NULL);
            return;
        }
        if (msg->params != NULL && !json_object_is_type(msg->params, json_type_object)) {
            mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS, "params must be an object", NULL);
            return;
        }
        if (mc__rs_has_nul_string(msg->params, 0)) {
            mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS, RS_NUL_MESSAGE, NULL);
            return;
        }
        mc__rs_initialize(rs, msg->id, msg->params);
        return;
    }
    /* The lifecycle page's ordering rules bind the client
     * (2025-06-18/basic/lifecycle#initialization) and name no error code for a
     * request that comes too early; -32600 Invalid Request says "this request
     * is not acceptable now" without claiming the method is unknown. */
    if (rs->phase == RS_PHASE_NEW) {
        mc__rs_error(rs, msg->id, MC_RPC_INVALID_REQUEST,
                     "the session is not initialized: send initialize first", NULL);
        return;
    }
    for (i = 0; i < sizeof(rs_methods) / sizeof(rs_methods[0]); i++) {
        if (strcmp(m, rs_methods[i].name) == 0) {
            if (msg->params != NULL && !json_object_is_type(msg->params, json_type_object)) {
                mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS, "params must be an object",
                             NULL);
                return;
            }
            /* A name, URI or value with a NUL inside is an injection shape:
             * C code would act on the part before the NUL. */
            if (mc__rs_has_nul_string(msg->params, 0)) {
                mc__rs_error(rs, msg->id, MC_RPC_INVALID_PARAMS, RS_NUL_MESSAGE, NULL);
                return;
            }
            rs_methods[i].fn(rs, msg->id, msg->params);
            return;
        }
    }
    if (mc__rs_tasks_dispatch(rs, m, msg->id, msg->params))
        return;
    rs->error_reason = RS_REASON_UNKNOWN_METHOD;
    mc__rs_error(rs, msg->id, MC_RPC_METHOD_NOT_FOUND, "method not found", NULL);
    rs->error_reason = NULL;
}

/* Serves a request; what is answered while it is served answers its method
 * (rs->answering, which the shape faults of emit.c match). */
static void dispatch_request(mc_refserver_t *rs, const mc_msg_t *msg)
{
    rs->answering = msg->method;
    serve_request(rs, msg);
    rs->answering = NULL;
}

static void dispatch_notification(mc_refserver_t *rs, const mc_msg_t *msg)
{
    const char *m = msg->method;

    if (rs_fault_hook(rs, RS_HOOK_ANSWER_NOTIFICATIONS))
        mc__rs_error(rs, NULL, MC_RPC_METHOD_NOT_FOUND, "notification answered", NULL);
    if (strcmp(m, "notifications/initialized") == 0) {
        if (rs->phase == RS_PHASE_INITIALIZED)
            rs->phase = RS_PHASE_READY;
    } else if (strcmp(m, "notifications/cancelled") == 0 &&
               !mc__rs_has_nul_string(msg->params, 0)) {
        json_object *rid;
        /* On stdio a subscriptions/listen stream ends with the cancellation
         * of its request (2026-07-28/basic/patterns/subscriptions#cancellation). */
        if (!(json_object_is_type(msg->params, json_type_object) &&
              json_object_object_get_ex(msg->params, "requestId", &rid) &&
              mc__rs_listen_cancel(rs, rid)))
            mc__rs_jobs_cancel(rs, msg->params);
    }
    /* Other notifications (progress, roots/list_changed, unknown ones) need
     * no action, and a notification is never answered. */
}

/* Answers a message that is not JSON-RPC. */
static void answer_invalid(mc_refserver_t *rs, const mc_msg_t *msg)
{
    json_object *id = NULL;

    /*
     * Parse errors are answered with "id": null. JSON-RPC 2.0 section 5 says
     * the id MUST be Null when it could not be detected (Parse error, Invalid
     * Request), and MCP requires every message to follow JSON-RPC 2.0
     * (2025-06-18/basic#messages). The 2025-06-18 schema's JSONRPCError asks
     * for a string or integer id, which no server can produce for bytes that
     * never parsed; 2025-11-25 (basic#error-responses) makes the id optional
     * for exactly this case. Null is the one answer that satisfies JSON-RPC
     * and the prose of both versions; the harness treats it as a documented
     * leniency of the 2025-06-18 schema.
     */
    if (msg->rpc_error == MC_RPC_PARSE_ERROR) {
        mc__rs_error(rs, NULL, MC_RPC_PARSE_ERROR, "parse error", NULL);
        return;
    }
    /* Invalid Request: echo the id when one can be read, else null. */
    if (msg->root != NULL && json_object_is_type(msg->root, json_type_object)) {
        json_object *v;
        if (json_object_object_get_ex(msg->root, "id", &v) && mc_jsonrpc_id_valid(v))
            id = v;
    }
    mc__rs_error(rs, id, MC_RPC_INVALID_REQUEST, msg->reason, NULL);
}

/* The invalid-request-served switch: a message whose only fault is its
 * jsonrpc member is served as if it were valid. Returns 1 if it was. */
static int serve_invalid_anyway(mc_refserver_t *rs, const mc_msg_t *msg);

static void handle_msg(mc_refserver_t *rs, mc_msg_t *msg)
{
    switch (msg->kind) {
    case MC_MSG_REQUEST:
        dispatch_request(rs, msg);
        break;
    case MC_MSG_NOTIFICATION:
        dispatch_notification(rs, msg);
        break;
    case MC_MSG_RESULT:
    case MC_MSG_ERROR:
        mc__rs_client_response(rs, msg);
        break;
    default:
        if (rs_fault_hook(rs, RS_HOOK_SERVE_INVALID_REQUEST) && serve_invalid_anyway(rs, msg))
            break;
        answer_invalid(rs, msg);
        break;
    }
}

static int serve_invalid_anyway(mc_refserver_t *rs, const mc_msg_t *msg)
{
    json_object *root = msg->root, *copy = NULL, *method;
    mc_msg_t fixed;

    if (root == NULL || !json_object_is_type(root, json_type_object) ||
        !json_object_object_get_ex(root, "method", &method))
        return 0;
    if (json_object_deep_copy(root, &copy, NULL) != 0)
        return 0;
    json_object_object_del(copy, "jsonrpc");
    json_object_object_add(copy, "jsonrpc", json_object_new_string("2.0"));
    mc_msg_classify(copy, &fixed);
    if (fixed.kind != MC_MSG_REQUEST && fixed.kind != MC_MSG_NOTIFICATION) {
        mc_msg_free(&fixed);
        return 0;
    }
    handle_msg(rs, &fixed);
    mc_msg_free(&fixed);
    return 1;
}

/* Handles a JSON-RPC batch; only a session at a version with batches accepts them. */
static void handle_batch(mc_refserver_t *rs, json_object *arr)
{
    size_t i, n = json_object_array_length(arr);
    json_object *out;

    if (n == 0) {
        mc__rs_error(rs, NULL, MC_RPC_INVALID_REQUEST, "empty batch", NULL);
        return;
    }
    out = json_object_new_array();
    if (out == NULL) {
        rs->failed = 1;
        return;
    }
    /* The switch answers each member on its own line, as if no batch. */
    rs->batch = rs_fault_hook(rs, RS_HOOK_ANSWER_BATCH_APART) ? NULL : out;
    for (i = 0; i < n; i++) {
        mc_msg_t m;
        json_object *el = json_object_array_get_idx(arr, i);
        mc_msg_classify(json_object_get(el), &m);
        if (m.kind == MC_MSG_INVALID && m.root != NULL &&
            json_object_is_type(m.root, json_type_array)) {
            mc__rs_error(rs, NULL, MC_RPC_INVALID_REQUEST, "nested batch", NULL);
        } else if (m.kind == MC_MSG_REQUEST && strcmp(m.method, "initialize") == 0) {
            mc__rs_error(rs, m.id, MC_RPC_INVALID_REQUEST, "initialize cannot be batched", NULL);
        } else {
            handle_msg(rs, &m);
        }
        mc_msg_free(&m);
    }
    rs->batch = NULL;
    if (json_object_array_length(out) > 0)
        mc__rs_emit(rs, out);
    else
        json_object_put(out);
}

int mc_refserver_handle(mc_refserver_t *rs, const char *line, size_t len, int64_t now_ms)
{
    mc_msg_t msg;

    rs->now = now_ms;
    rs->failed = 0;
    mc__rs_fast_decode(rs, line, len, &msg);
    if (msg.kind == MC_MSG_INVALID && msg.root != NULL &&
        json_object_is_type(msg.root, json_type_array) && rs->phase != RS_PHASE_NEW &&
        mc_version_has(mc_version_name(rs->version), MC_VF_BATCH))
        handle_batch(rs, msg.root);
    else
        handle_msg(rs, &msg);
    mc_msg_free(&msg);
    mc__rs_jobs_after_message(rs);
    mc__rs_jobs_run(rs);
    return rs->failed ? MC_ENOMEM : MC_OK;
}

int mc_refserver_handle_oversize(mc_refserver_t *rs, size_t skipped, int64_t now_ms)
{
    char buf[160];

    rs->now = now_ms;
    rs->failed = 0;
    snprintf(buf, sizeof(buf), "parse error: a message of %zu bytes exceeds the %u-byte limit",
             skipped, MC_MAX_MESSAGE_SIZE);
    mc__rs_error(rs, NULL, MC_RPC_PARSE_ERROR, buf, NULL);
    return rs->failed ? MC_ENOMEM : MC_OK;
}

int mc_refserver_tick(mc_refserver_t *rs, int64_t now_ms)
{
    rs->now = now_ms;
    rs->failed = 0;
    mc__rs_client_expire(rs);
    mc__rs_jobs_run(rs);
    return rs->failed ? MC_ENOMEM : MC_OK;
}

int64_t mc_refserver_next_deadline(const mc_refserver_t *rs)
{
    int64_t jobs = mc__rs_jobs_deadline(rs), asks = mc__rs_client_deadline(rs);

    return jobs < 0 ? asks : asks < 0 || jobs < asks ? jobs : asks;
}

int mc_refserver_input_closed(mc_refserver_t *rs)
{
    if (rs->pending != NULL)
        memset(rs->pending, 0, RS_MAX_PENDING * sizeof(*rs->pending));
    rs->input_closed = 1;
    return !rs_fault_hook(rs, RS_HOOK_IGNORE_EOF);
}

const char *mc_refserver_serving(const mc_refserver_t *rs)
{
    return rs != NULL && rs->serving != NULL
               ? json_object_to_json_string_ext(rs->serving, JSON_C_TO_STRING_PLAIN)
               : NULL;
}

/* ---- construction ---- */

mc_refserver_t *mc_refserver_new(const mc_refserver_opts_t *opts, mc_refserver_emit_cb emit,
                                 void *emit_ctx, mc_errbuf_t *eb)
{
    mc_refserver_opts_t none;
    mc_refserver_t *rs;
    rs_bug_t bug = RS_BUG_NONE;

    if (opts == NULL) {
        memset(&none, 0, sizeof(none));
        opts = &none;
    }
    if (emit == NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "an emit callback is required");
        return NULL;
    }
    if (opts->page_size < 0 || opts->page_size > RS_MAX_PAGE_SIZE) {
        mc_errbuf_set(eb, MC_EINVAL, "page size must be between 1 and %d", RS_MAX_PAGE_SIZE);
        return NULL;
    }
    if (opts->extra_items < 0 || opts->extra_items > RS_MAX_EXTRA_ITEMS) {
        mc_errbuf_set(eb, MC_EINVAL, "--resources must be between 0 and %d", RS_MAX_EXTRA_ITEMS);
        return NULL;
    }
    if (opts->inject != NULL && opts->inject[0] != '\0') {
        bug = mc__rs_bug_find(opts->inject);
        if (bug == RS_BUG_NONE) {
            mc_errbuf_set(eb, MC_EINVAL, "unknown violation switch \"%.100s\" (see --list-bugs)",
                          opts->inject);
            return NULL;
        }
    }
    if (opts->cache != NULL &&
        (opts->root != NULL || opts->cache->bug != bug || opts->cache->extra != opts->extra_items ||
         opts->cache->page_size !=
             (opts->page_size > 0 ? opts->page_size : RS_DEFAULT_PAGE_SIZE))) {
        mc_errbuf_set(eb, MC_EINVAL, "the answer cache was built for other options");
        return NULL;
    }
    rs = calloc(1, sizeof(*rs));
    if (rs == NULL) {
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    if (opts->root != NULL) {
        rs->root = mc__rs_fileroot_open(opts->root, eb);
        if (rs->root == NULL) {
            free(rs);
            return NULL;
        }
    }
    rs->page_size = opts->page_size > 0 ? opts->page_size : RS_DEFAULT_PAGE_SIZE;
    rs->extra = opts->extra_items;
    rs->step_ms = opts->step_delay_ms < 0    ? 0
                  : opts->step_delay_ms == 0 ? RS_DEFAULT_STEP_MS
                                             : opts->step_delay_ms;
    rs->bug = bug;
    rs->modern_only = opts->modern_only || rs_fault_hook(rs, RS_HOOK_SPEAK_MODERN_ONLY);
    rs->emit = emit;
    rs->emit_ctx = emit_ctx;
    rs->phase = RS_PHASE_NEW;
    rs->version = RS_NEWEST_HANDSHAKE;
    rs->log_level = 0;
    rs->req_log = -1;
    rs->next_out_id = 1;
    rs->shared = opts->cache;
    return rs;
}

void mc_refserver_free(mc_refserver_t *rs)
{
    int i;

    if (rs == NULL)
        return;
    mc__rs_jobs_free(rs);
    mc__rs_listens_free(rs);
    mc__rs_tasks_free(rs);
    free(rs->jobs);
    free(rs->pending);
    for (i = 0; i < rs->nsubs; i++)
        free(rs->subs[i]);
    for (i = 0; i < (int)(sizeof(rs->tool_schemas) / sizeof(rs->tool_schemas[0])); i++)
        json_object_put(rs->tool_schemas[i]);
    for (i = 0; i < 8; i++)
        json_object_put(rs->res_cache[i]);
    json_object_put(rs->batch);
    mc__rs_fast_free(rs);
    mc__rs_fileroot_free(rs->root);
    free(rs->out);
    free(rs);
}
