/*
 * emit.c - the output path of the reference server, below every handler.
 *
 * Every outbound message goes through mc__rs_emit(), which encodes it as one
 * line and calls the emit callback; responses go through mc__rs_result() and
 * mc__rs_error() (collected instead while a batch is answered), and
 * notifications through mc__rs_notify(). The message-shape faults of the
 * violation switches are applied here, on the way out (rs_shape_faults[]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"

#define RS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
#define META_SERVER "io.modelcontextprotocol/serverInfo"

/* The freshness hint on cacheable results: fixtures change only through the
 * trigger tools, which announce it on subscriptions/listen streams. */
#define RS_CACHE_TTL_MS 60000

/* Emits s[0..n) plus a newline. */
static void emit_line(mc_refserver_t *rs, const char *s, size_t n)
{
    if (mc__rs_out_reserve(rs, n + 1) != 0) {
        rs->failed = 1;
        return;
    }
    memcpy(rs->out, s, n);
    rs->out[n] = '\n';
    rs->emit(rs->emit_ctx, rs->out, n + 1);
}

/* The embedded-newline switch: the message is pretty-printed, and each of its
 * lines goes out on its own, so no line is a complete message. */
static void emit_pretty(mc_refserver_t *rs, json_object *msg)
{
    size_t n = 0, i, start = 0;
    const char *s = json_object_to_json_string_length(msg, JSON_C_TO_STRING_PRETTY, &n);

    if (s == NULL) {
        rs->failed = 1;
        return;
    }
    for (i = 0; i <= n; i++) {
        if (i == n || s[i] == '\n') {
            if (i > start)
                emit_line(rs, s + start, i - start);
            start = i + 1;
        }
    }
}

/* The end of the JSON value that starts at s[i] (string-aware), or n. */
static size_t value_end(const char *s, size_t n, size_t i)
{
    int depth = 0, in_str = 0;

    for (; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            depth--;
        } else if (c == ',' && depth == 0) {
            return i;
        }
    }
    return n;
}

/* The input-request-key-duplicated switch: the first member of a message's
 * inputRequests is written twice (a parser keeps one of them). Emits the
 * line and returns 1, or returns 0 when the line has no such member. */
static int emit_duplicated_key(mc_refserver_t *rs, const char *s, size_t n)
{
    static const char mark[] = "\"inputRequests\":{\"";
    const char *at = strstr(s, mark);
    size_t k, e;
    char *out;

    if (at == NULL)
        return 0;
    k = (size_t)(at - s) + sizeof(mark) - 2; /* the first member's opening quote */
    e = value_end(s, n, k);
    if (e >= n)
        return 0;
    out = malloc(n + (e - k) + 2);
    if (out == NULL) {
        rs->failed = 1;
        return 1;
    }
    memcpy(out, s, e);
    out[e] = ',';
    memcpy(out + e + 1, s + k, e - k);
    memcpy(out + e + 1 + (e - k), s + e, n - e);
    emit_line(rs, out, n + (e - k) + 1);
    free(out);
    return 1;
}

void mc__rs_emit(mc_refserver_t *rs, json_object *msg)
{
    size_t n = 0;
    const char *s;

    if (msg == NULL) {
        rs->failed = 1;
        return;
    }
    if (rs->pretty_next) {
        rs->pretty_next = 0;
        emit_pretty(rs, msg);
        json_object_put(msg);
        return;
    }
    s = json_object_to_json_string_length(msg, RS_JSON_FLAGS, &n);
    if (s == NULL)
        rs->failed = 1;
    else if (!rs_bug_on(rs, INPUT_REQUEST_KEY_DUPLICATED) || !emit_duplicated_key(rs, s, n))
        emit_line(rs, s, n);
    json_object_put(msg);
}

/* ---- results ---- */

void mc__rs_modern_decorate(mc_refserver_t *rs, json_object *result)
{
    json_object *meta, *info;

    if (!json_object_object_get_ex(result, "resultType", NULL) &&
        !rs_bug_on(rs, RESULT_TYPE_MISSING))
        mc__rs_put_str(rs, result, "resultType", "complete");
    if (rs->cacheable) {
        mc__rs_put(rs, result, "ttlMs",
                   json_object_new_int(rs_bug_on(rs, CACHE_TTL_NEGATIVE) ? -1 : RS_CACHE_TTL_MS));
        mc__rs_put_str(rs, result, "cacheScope",
                       rs->cacheable == RS_CACHEABLE_LATER_PAGE ? "private" : "public");
    }
    if (!json_object_object_get_ex(result, "_meta", &meta)) {
        meta = json_object_new_object();
        mc__rs_put(rs, result, "_meta", meta);
    }
    if (meta == NULL || !json_object_is_type(meta, json_type_object))
        return;
    if (rs_bug_on(rs, META_TRACEPARENT_MALFORMED))
        mc__rs_put_str(rs, meta, "traceparent", "00-0af7651916cd43dd8448eb211c80319c-00f067aa");
    if (json_object_object_get_ex(meta, META_SERVER, NULL) || rs_bug_on(rs, RESULT_NO_SERVER_INFO))
        return;
    info = json_object_new_object();
    mc__rs_put_str(rs, info, "name", "mcpcheck-refserver");
    mc__rs_put_str(rs, info, "version", MC_VERSION);
    mc__rs_put(rs, meta, META_SERVER, info);
}

/* ---- the message-shape faults, applied on the way out ----
 *
 * A violation switch that changes how a message looks (not what the server
 * does) is one row below: the kind of message it applies to, the method
 * (NULL: any), and the transformation of the outgoing message. The handlers
 * build the correct message; rs_send() applies the row of the switch that
 * is on, if any, just before the message goes out. */

/* The kinds of outgoing message a fault applies to. */
#define RS_OUT_RESULT 1u
#define RS_OUT_ERROR 2u
#define RS_OUT_NOTIFY 4u

struct rs_shape_fault;

/* Transforms msg in place; returns how many times it goes out: 0
 * (dropped), 1, 2. */
typedef int (*rs_fault_fn)(mc_refserver_t *rs, json_object *msg, const struct rs_shape_fault *f);

typedef struct rs_shape_fault {
    rs_bug_t bug;
    unsigned kinds;     /* RS_OUT_* */
    const char *method; /* the request answered or the notification sent; NULL: any */
    rs_fault_fn apply;
    const char *path; /* fault_drop, fault_extension: an object, "a.b" from the message */
    const char *key;  /* ...and its member */
} rs_shape_fault_t;

/* The object at path ("result.capabilities") in msg, or NULL. */
static json_object *object_at(json_object *msg, const char *path)
{
    char part[64];
    const char *p = path;
    json_object *o = msg;

    while (o != NULL && *p != '\0') {
        size_t n = strcspn(p, ".");
        if (n >= sizeof(part))
            return NULL;
        memcpy(part, p, n);
        part[n] = '\0';
        if (!json_object_object_get_ex(o, part, &o))
            return NULL;
        p += n + (p[n] == '.');
    }
    return json_object_is_type(o, json_type_object) ? o : NULL;
}

/* The member f->key of the object at f->path left out. */
static int fault_drop(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *o = object_at(msg, f->path);

    if (o != NULL)
        json_object_object_del(o, f->key);
    return 1;
}

/* An extension declared under a name without the vendor prefix. */
static int fault_extension(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *o = object_at(msg, f->path), *ext;

    if (o == NULL)
        return 1;
    ext = json_object_new_object();
    mc__rs_put(rs, ext, f->key, json_object_new_object());
    mc__rs_put(rs, o, "extensions", ext);
    return 1;
}

static int fault_jsonrpc_1_0(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_put_str(rs, msg, "jsonrpc", "1.0");
    return 1;
}

/* The id of another request: the integer plus 1000 (wrapping around near
 * INT64_MAX instead of overflowing), or the string with "-other". */
static int fault_id_mismatch(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *id = NULL, *other;

    json_object_object_get_ex(msg, "id", &id);
    if (json_object_is_type(id, json_type_int)) {
        other = json_object_new_int64((int64_t)((uint64_t)json_object_get_int64(id) + 1000u));
    } else {
        char buf[96];
        snprintf(buf, sizeof(buf), "%.80s-other", json_object_get_string(id));
        other = json_object_new_string(buf);
    }
    mc__rs_put(rs, msg, "id", other);
    return 1;
}

/* The id as the other type: an integer's digits as a string, a string as 0. */
static int fault_id_type(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *id = NULL;

    json_object_object_get_ex(msg, "id", &id);
    mc__rs_put(rs, msg, "id",
               json_object_is_type(id, json_type_int)
                   ? json_object_new_string(json_object_get_string(id))
                   : json_object_new_int(0));
    return 1;
}

static int fault_no_id(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object_object_del(msg, "id");
    return 1;
}

static int fault_twice(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    return 2;
}

static int fault_result_not_empty(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *r = NULL;

    if (json_object_object_get_ex(msg, "result", &r) && json_object_is_type(r, json_type_object))
        mc__rs_put(rs, r, "pong", json_object_new_boolean(1));
    return 1;
}

static int fault_code_string(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *e = NULL, *code = NULL;

    if (json_object_object_get_ex(msg, "error", &e) && json_object_object_get_ex(e, "code", &code))
        mc__rs_put_str(rs, e, "code", json_object_get_string(code));
    return 1;
}

static int fault_no_message(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *e = NULL;

    if (json_object_object_get_ex(msg, "error", &e))
        json_object_object_del(e, "message");
    return 1;
}

static int fault_result_and_error(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_put(rs, msg, "result", json_object_new_object());
    return 1;
}

static int fault_notification_id(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_put_str(rs, msg, "id", "mcpcheck-refserver-notification");
    return 1;
}

static const rs_shape_fault_t rs_shape_faults[] = {
    {RS_BUG_ENV_JSONRPC_VERSION, RS_OUT_RESULT, "ping", fault_jsonrpc_1_0, NULL, NULL},
    {RS_BUG_ENV_ID_MISMATCH, RS_OUT_RESULT, "ping", fault_id_mismatch, NULL, NULL},
    {RS_BUG_ENV_ID_TYPE, RS_OUT_RESULT, "ping", fault_id_type, NULL, NULL},
    {RS_BUG_ENV_NO_ID, RS_OUT_RESULT, "ping", fault_no_id, NULL, NULL},
    {RS_BUG_DUPLICATE_RESPONSE, RS_OUT_RESULT, "ping", fault_twice, NULL, NULL},
    {RS_BUG_PING_NOT_EMPTY, RS_OUT_RESULT, "ping", fault_result_not_empty, NULL, NULL},
    {RS_BUG_ENV_ERROR_CODE_STRING, RS_OUT_ERROR, NULL, fault_code_string, NULL, NULL},
    {RS_BUG_ENV_ERROR_NO_MESSAGE, RS_OUT_ERROR, NULL, fault_no_message, NULL, NULL},
    {RS_BUG_ENV_RESULT_AND_ERROR, RS_OUT_ERROR, NULL, fault_result_and_error, NULL, NULL},
    {RS_BUG_NOTIFICATION_WITH_ID, RS_OUT_NOTIFY, NULL, fault_notification_id, NULL, NULL},
    /* initialize's result, and the capabilities server/discover gives too */
    {RS_BUG_INIT_NO_CAPABILITIES, RS_OUT_RESULT, "initialize", fault_drop, "result",
     "capabilities"},
    {RS_BUG_INIT_NO_SERVER_INFO, RS_OUT_RESULT, "initialize", fault_drop, "result", "serverInfo"},
#define RS_CAP_FAULT(bug, path, key)                                                               \
    {RS_BUG_##bug, RS_OUT_RESULT, "initialize", fault_drop, "result.capabilities" path, key},      \
    {                                                                                              \
        RS_BUG_##bug, RS_OUT_RESULT, "server/discover", fault_drop, "result.capabilities" path,    \
            key                                                                                    \
    }
    RS_CAP_FAULT(LOGGING_UNDECLARED, "", "logging"),
    RS_CAP_FAULT(COMPLETIONS_CAP_UNDECLARED, "", "completions"),
    RS_CAP_FAULT(PROMPTS_LIST_CHANGED_UNDECLARED, ".prompts", "listChanged"),
    RS_CAP_FAULT(SUBSCRIBE_UNDECLARED, ".resources", "subscribe"),
    RS_CAP_FAULT(RESOURCES_LIST_CHANGED_UNDECLARED, ".resources", "listChanged"),
    RS_CAP_FAULT(RESOURCES_CAP_UNDECLARED, "", "resources"),
    RS_CAP_FAULT(TOOLS_LIST_CHANGED_UNDECLARED, ".tools", "listChanged"),
    RS_CAP_FAULT(TOOLS_CAP_UNDECLARED, "", "tools"),
#undef RS_CAP_FAULT
    {RS_BUG_DISCOVER_CAPS_LACKING, RS_OUT_RESULT, "server/discover", fault_drop,
     "result.capabilities", "tools"},
    {RS_BUG_DISCOVER_CAPS_LACKING, RS_OUT_RESULT, "server/discover", fault_drop,
     "result.capabilities", "resources"},
    {RS_BUG_DISCOVER_CAPS_LACKING, RS_OUT_RESULT, "server/discover", fault_drop,
     "result.capabilities", "prompts"},
    {RS_BUG_EXTENSION_ID_UNPREFIXED, RS_OUT_RESULT, "server/discover", fault_extension,
     "result.capabilities", "ui"},
};

/* Applies the rows of the switch that is on to msg, a message of kind
 * (RS_OUT_*) for method (NULL when not known). Returns how many times msg
 * goes out. */
static int shape_fault(mc_refserver_t *rs, unsigned kind, const char *method, json_object *msg)
{
    size_t i;
    int copies = 1;

    if (rs->bug == RS_BUG_NONE)
        return 1;
    for (i = 0; i < sizeof(rs_shape_faults) / sizeof(rs_shape_faults[0]); i++) {
        const rs_shape_fault_t *f = &rs_shape_faults[i];
        if (f->bug == rs->bug && (f->kinds & kind) &&
            (f->method == NULL || (method != NULL && strcmp(f->method, method) == 0)))
            copies = f->apply(rs, msg, f);
    }
    return copies;
}

/* Sends a response, or adds it to the batch being collected. Consumes msg. */
void mc__rs_send_response(mc_refserver_t *rs, json_object *msg)
{
    if (msg == NULL) {
        rs->failed = 1;
        return;
    }
    if (rs->batch != NULL) {
        if (json_object_array_add(rs->batch, msg) != 0) {
            json_object_put(msg);
            rs->failed = 1;
        }
        return;
    }
    mc__rs_emit(rs, msg);
}

/* The send path: msg (consumed), of kind RS_OUT_* for method, with the
 * shape fault of the switch that is on. */
static void rs_send(mc_refserver_t *rs, unsigned kind, const char *method, json_object *msg)
{
    int copies;

    if (msg == NULL) {
        rs->failed = 1;
        return;
    }
    copies = shape_fault(rs, kind, method, msg);
    if (copies == 0) {
        json_object_put(msg);
        return;
    }
    if (copies > 1)
        mc__rs_send_response(rs, json_object_get(msg));
    if (kind == RS_OUT_NOTIFY)
        mc__rs_emit(rs, msg);
    else
        mc__rs_send_response(rs, msg);
}

void mc__rs_answer(mc_refserver_t *rs, const char *method, json_object *id, json_object *result)
{
    rs_send(rs, RS_OUT_RESULT, method, mc_jsonrpc_result(json_object_get(id), result));
}

void mc__rs_result(mc_refserver_t *rs, json_object *id, json_object *result)
{
    if (rs_bug_on(rs, META_KEY_MALFORMED) && json_object_is_type(result, json_type_object)) {
        json_object *meta = NULL;

        if (!json_object_object_get_ex(result, "_meta", &meta)) {
            meta = json_object_new_object();
            mc__rs_put(rs, result, "_meta", meta);
        }
        if (json_object_is_type(meta, json_type_object))
            mc__rs_put_str(rs, meta, "com.example-/note", "malformed prefix");
    }
    if (rs->modern) {
        if (result == NULL)
            result = json_object_new_object();
        if (result == NULL) {
            rs->failed = 1;
            return;
        }
        mc__rs_modern_decorate(rs, result);
    }
    if (mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_RESULT, .id = id, .body = result})) {
        json_object_put(result);
        return;
    }
    rs_send(rs, RS_OUT_RESULT, rs->answering, mc_jsonrpc_result(json_object_get(id), result));
}

void mc__rs_error(mc_refserver_t *rs, json_object *id, int code, const char *message,
                  json_object *data)
{
    json_object *o, *e;

    if (mc__rs_fast_send(
            rs,
            &(rs_fast_msg_t){
                .kind = RS_FAST_ERROR, .id = id, .code = code, .text = message, .body = data})) {
        json_object_put(data);
        return;
    }
    o = json_object_new_object();
    e = json_object_new_object();
    if (o == NULL || e == NULL) {
        json_object_put(o);
        json_object_put(e);
        json_object_put(data);
        rs->failed = 1;
        return;
    }
    mc__rs_put_str(rs, o, "jsonrpc", "2.0");
    mc__rs_put(rs, o, "id", json_object_get(id));
    mc__rs_put(rs, e, "code", json_object_new_int(code));
    mc__rs_put_str(rs, e, "message", message);
    if (data != NULL)
        mc__rs_put(rs, e, "data", data);
    mc__rs_put(rs, o, "error", e);
    rs_send(rs, RS_OUT_ERROR, NULL, o);
}

void mc__rs_notify(mc_refserver_t *rs, const char *method, json_object *params)
{
    if (mc__rs_fast_send(
            rs, &(rs_fast_msg_t){.kind = RS_FAST_NOTIFY, .method = method, .body = params})) {
        json_object_put(params);
        return;
    }
    rs_send(rs, RS_OUT_NOTIFY, method, mc_jsonrpc_notification(method, params));
}
