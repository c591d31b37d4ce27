/*
 * shapes.c - the message-shape faults of the violation switches, applied on
 * the way out (the send path of emit.c calls down into this file; shapewalk.c
 * below it walks a message).
 *
 * A switch that changes how a message looks, not what the server does, is
 * one or more rows of rs_shape_faults[]: the kind of message it applies to,
 * the method (the request answered, the notification or request sent; NULL:
 * any), and a transformation of the outgoing message in place. The handlers
 * build the correct message and never test such a switch; the send path
 * applies the rows of the switch that is on just before the message goes
 * out. The few faults that live below the json (bytes that are no valid
 * message line) are the byte stage, shapebytes.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/shapes.h"

#define META_SERVER "io.modelcontextprotocol/serverInfo"


/* ---- what a row does to each object its path names ---- */

static void leave_out(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    json_object_object_del(o, f->key);
}

static void set_text(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    if (json_object_object_get_ex(o, f->key, NULL))
        mc__rs_put_str(rs, o, f->key, f->text);
}

static void set_num(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    if (json_object_object_get_ex(o, f->key, NULL))
        mc__rs_put(rs, o, f->key, json_object_new_int64(f->num));
}

static void set_real(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    if (json_object_object_get_ex(o, f->key, NULL))
        mc__rs_put(rs, o, f->key, mc__rs_number((double)f->num / 10.0));
}

static void add_text(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    mc__rs_put_str(rs, o, f->key, f->text);
}

/* The string member f->key with f->text written after it. */
static void append_text(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    const char *v = mc__rs_get_str(o, f->key);
    char *s;
    size_t a, b;

    if (v == NULL)
        return;
    a = strlen(v);
    b = strlen(f->text);
    s = malloc(a + b + 1);
    if (s == NULL) {
        rs->failed = 1;
        return;
    }
    memcpy(s, v, a);
    memcpy(s + a, f->text, b + 1);
    mc__rs_put_str(rs, o, f->key, s);
    free(s);
}

/* The string member f->key without the padding at its end. */
static void unpad(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    const char *v = mc__rs_get_str(o, f->key);
    size_t n;

    if (v == NULL)
        return;
    n = strlen(v);
    while (n > 0 && v[n - 1] == '=')
        n--;
    mc__rs_put(rs, o, f->key, json_object_new_string_len(v, (int)n));
}

/* The member f->key (a dotted path below o: "inputSchema.$schema") set to
 * the JSON value f->text. */
static void put_json(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    json_object *v = json_tokener_parse(f->text);

    if (v == NULL) {
        rs->failed = 1;
        return;
    }
    mc__rs_shape_put_at(rs, o, f->key, v);
}

static void rename_key(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    if (json_object_object_get_ex(o, f->key, NULL))
        mc__rs_shape_rebuild(rs, o, f->key, f->text, NULL, NULL, NULL);
}

/* ---- the transformations of a row ---- */

static int fault_drop(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, leave_out, f);
    return 1;
}

/* The member f->key of the objects at f->path, where present, set to the
 * string f->text. */
static int fault_text(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, set_text, f);
    return 1;
}

/* ...set to the integer f->num. */
static int fault_num(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, set_num, f);
    return 1;
}

/* ...renamed f->text, in its place. */
static int fault_rename(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, rename_key, f);
    return 1;
}

/* The member f->key: f->text added (last) to the objects at f->path. */
static int fault_add(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, add_text, f);
    return 1;
}

/* The member f->key of the objects at f->path set to the JSON value f->text
 * (in its place, or added last); f->key may name a member further down
 * ("a.b": the member b of the object a, which is copied first). */
static int fault_json(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, put_json, f);
    return 1;
}

/* ...with f->text written at the end of its string. */
static int fault_append(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, append_text, f);
    return 1;
}

/* ...with the padding at the end of its string left out. */
static int fault_unpad(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, unpad, f);
    return 1;
}

/* An error's code set to f->num and, given f->text, its message to f->text:
 * the errors f->when names, sent for f->reason (NULL: any). */
static int fault_error(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *e = NULL;

    if (f->reason != NULL && (rs->error_reason == NULL || strcmp(rs->error_reason, f->reason) != 0))
        return 1;
    if (!json_object_object_get_ex(msg, "error", &e) || !mc__rs_shape_wanted(e, f))
        return 1;
    mc__rs_put(rs, e, "code", json_object_new_int64(f->num));
    if (f->text != NULL)
        mc__rs_put_str(rs, e, "message", f->text);
    return 1;
}

/* An error refusing an unknown resource given as an internal error, with the
 * server's own reason for it (rs->error_reason) as its message. */
static int fault_internal_reason(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *e = NULL;

    if (!json_object_object_get_ex(msg, "error", &e) || !mc__rs_shape_wanted(e, f))
        return 1;
    mc__rs_put(rs, e, "code", json_object_new_int(MC_RPC_INTERNAL_ERROR));
    mc__rs_put_str(rs, e, "message", rs->error_reason != NULL ? rs->error_reason : "");
    return 1;
}

/* The member f->key of every object anywhere in the message set to f->text
 * (a string) or f->num / 10 (a number, when f->text is NULL). */
static int fault_everywhere(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit_all(rs, msg, 0, f->text != NULL ? set_text : set_real, f);
    return 1;
}

/* An extension declared under a name without the vendor prefix. */
static int fault_extension(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *o = NULL, *ext;

    if (!json_object_object_get_ex(msg, "result", &o) ||
        !json_object_object_get_ex(o, "capabilities", &o) ||
        !json_object_is_type(o, json_type_object))
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

/* ---- what a stateless result carries (the _meta the send path adds) ---- */

/* result.resultType left out where it says a result is complete. */
static int fault_no_result_type(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *r = NULL, *t = NULL;

    if (json_object_object_get_ex(msg, "result", &r) &&
        json_object_object_get_ex(r, "resultType", &t) &&
        strcmp(json_object_get_string(t), "complete") == 0)
        json_object_object_del(r, "resultType");
    return 1;
}

/* A member f->key: f->text in a stateless result's _meta, before the server's
 * name (where the send path put it). */
static int fault_meta_member(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *r = NULL, *meta = NULL;

    if (rs->modern && json_object_object_get_ex(msg, "result", &r) &&
        json_object_object_get_ex(r, "_meta", &meta) && json_object_is_type(meta, json_type_object))
        mc__rs_shape_rebuild(rs, meta, NULL, NULL, META_SERVER, f->key, json_object_new_string(f->text));
    return 1;
}

/* A member f->key: f->text in the _meta of a result's body (made when
 * absent, last). */
static int fault_body_meta(mc_refserver_t *rs, json_object *body, const rs_shape_fault_t *f)
{
    json_object *meta = NULL;

    if (!json_object_object_get_ex(body, "_meta", &meta)) {
        meta = json_object_new_object();
        mc__rs_put(rs, body, "_meta", meta);
    }
    if (json_object_is_type(meta, json_type_object))
        mc__rs_put_str(rs, meta, f->key, f->text);
    return 1;
}

/* The answer to tools/list pretty-printed over several lines. */
static int fault_pretty(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    rs->pretty_next = 1;
    return 1;
}

/* A list's last page with "nextCursor": null (the body of a result). */
static int fault_null_cursor(mc_refserver_t *rs, json_object *body, const rs_shape_fault_t *f)
{
    if (!json_object_object_get_ex(body, "nextCursor", NULL))
        mc__rs_put(rs, body, "nextCursor", NULL);
    return 1;
}

/* A completion with RS_TOO_MANY_VALUES more values, all of them said to be
 * there (total, no hasMore). */
static int fault_many_values(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *c = NULL, *values = NULL;
    char buf[32];
    size_t i;

    if (!json_object_object_get_ex(msg, "result", &c) ||
        !json_object_object_get_ex(c, "completion", &c) ||
        !json_object_object_get_ex(c, "values", &values) ||
        !json_object_is_type(values, json_type_array))
        return 1;
    for (i = 0; i < RS_TOO_MANY_VALUES; i++) {
        snprintf(buf, sizeof(buf), "value-%zu", i);
        json_object_array_add(values, json_object_new_string(buf));
    }
    mc__rs_put(rs, c, "total", json_object_new_int64((int64_t)json_object_array_length(values)));
    mc__rs_put(rs, c, "hasMore", json_object_new_boolean(0));
    return 1;
}

/* A row: the switch, the kinds of message, the method (NULL: any), the
 * transformation; _AT adds the objects it changes and their member, _TO the
 * value it writes. */
#define SHAPE(b, k, m, fn) {.bug = RS_BUG_##b, .kinds = (k), .method = (m), .apply = (fn)}
#define SHAPE_AT(b, k, m, fn, p, mem)                                                              \
    {.bug = RS_BUG_##b, .kinds = (k), .method = (m), .apply = (fn), .path = (p), .key = (mem)}
/* The members of a row that changes the objects at p (member mem) of the
 * kinds k of method m with fn, writing t or n, where w says (NULL: all). */
#define SHAPE_FIELDS(b, k, m, fn, p, mem, t, n, w)                                                 \
    .bug = RS_BUG_##b, .kinds = (k), .method = (m), .apply = (fn), .path = (p), .key = (mem),      \
    .text = (t), .num = (n), .when = (w)
#define SHAPE_IF(b, k, m, fn, p, mem, t, n, w) {SHAPE_FIELDS(b, k, m, fn, p, mem, t, n, w)}
/* An error of the request answered (m) that says w ("message=...") or is
 * sent for the reason r, with the code c and, given t, the message t. */
#define SHAPE_ERROR(b, m, c, t, w, r)                                                              \
    {.bug = RS_BUG_##b,                                                                            \
     .kinds = RS_OUT_ERROR,                                                                        \
     .method = (m),                                                                                \
     .apply = fault_error,                                                                         \
     .text = (t),                                                                                  \
     .num = (c),                                                                                   \
     .when = (w),                                                                                  \
     .reason = (r)}
#define SHAPE_TO(b, k, m, fn, p, mem, t, n) {SHAPE_FIELDS(b, k, m, fn, p, mem, t, n, NULL)}
#define RESULT RS_OUT_RESULT
#define ERROR RS_OUT_ERROR
#define NOTIFY RS_OUT_NOTIFY
#define REQUEST RS_OUT_REQUEST
#define BODY RS_OUT_BODY
/* A SHAPE_IF row that applies from the version v on. */
#define SHAPE_SINCE(v, b, k, m, fn, p, mem, t, n, w)                                               \
    {SHAPE_FIELDS(b, k, m, fn, p, mem, t, n, w), .since = (v)}
/* A tools/list item of a fixture tool (one that tools.c lists itself). */
#define FIXTURE_TOOL "!execution&!name=" RS_TASKREQ_TOOL
/* test_header_param's inputSchema with one more, array parameter whose items
 * carry an annotation. */
#define HEADER_PARAM_SCHEMA_IN_ITEMS                                                               \
    "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":"       \
    "\"Region\"},\"count\":{\"type\":\"integer\",\"x-mcp-header\":\"Count\"},\"query\":{\"type\":" \
    "\"string\"},\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"x-mcp-header\":"    \
    "\"Tag\"}}}}"
/* The InputRequiredResult of mc__rs_mrtr_ask (by its state), and its request
 * under key. */
#define MRTR_RESULT "requestState^" RS_MRTR_STATE_PREFIX
#define MRTR_REQUEST(key) "result.inputRequests." key
/* A form-mode elicitation of the elicitation tools (not a task's: those carry
 * the task or the related-task _meta), whose member mem is set to the JSON
 * text t: in the request sent, and in the InputRequiredResult that carries it
 * at 2026-07-28. */
#define OWN_FORM "requestedSchema&!task&!_meta"
#define FORM_FAULT(b, mem, t)                                                                      \
    SHAPE_IF(b, REQUEST, "elicitation/create", fault_json, "params", mem, t, 0, OWN_FORM),          \
        SHAPE_IF(b, RESULT, NULL, fault_json, MRTR_REQUEST(RS_MRTR_KEY_ELICITATION) ".params", mem, t, 0,    \
                 OWN_FORM)
/* A capability left out of initialize's result and of server/discover's. */
#define CAP_GONE(b, path, mem)                                                                     \
    SHAPE_AT(b, RESULT, "initialize", fault_drop, "result.capabilities" path, mem),                \
        SHAPE_AT(b, RESULT, "server/discover", fault_drop, "result.capabilities" path, mem)

/* clang-format off */
static const rs_shape_fault_t rs_shape_faults[] = {
    /* the envelope */
    SHAPE(ENV_JSONRPC_VERSION, RESULT, "ping", fault_jsonrpc_1_0),
    SHAPE(ENV_ID_MISMATCH, RESULT, "ping", fault_id_mismatch),
    SHAPE(ENV_ID_TYPE, RESULT, "ping", fault_id_type),
    SHAPE(ENV_NO_ID, RESULT, "ping", fault_no_id),
    SHAPE(DUPLICATE_RESPONSE, RESULT, "ping", fault_twice),
    SHAPE(PING_NOT_EMPTY, RESULT, "ping", fault_result_not_empty),
    SHAPE(ENV_ERROR_CODE_STRING, ERROR, NULL, fault_code_string),
    SHAPE(ENV_ERROR_NO_MESSAGE, ERROR, NULL, fault_no_message),
    SHAPE(ENV_RESULT_AND_ERROR, ERROR, NULL, fault_result_and_error),
    SHAPE(NOTIFICATION_WITH_ID, NOTIFY, NULL, fault_notification_id),
    SHAPE(EMBEDDED_NEWLINE, RESULT, "tools/list", fault_pretty),
    /* the error codes */
    SHAPE_ERROR(PARSE_ERROR_CODE, NULL, MC_RPC_INVALID_REQUEST, NULL, "message=parse error", NULL),
    SHAPE_ERROR(METHOD_NOT_FOUND_CODE, NULL, MC_RPC_INTERNAL_ERROR, "internal error", NULL, RS_REASON_UNKNOWN_METHOD),
    SHAPE_ERROR(METHOD_NOT_FOUND_CODE, NULL, MC_RPC_INTERNAL_ERROR, "internal error", NULL,
                RS_REASON_UNKNOWN_STATELESS_METHOD),
    /* a code of the sub-range the MCP specification reserves (-32099..-32020)
     * that it does not define, and one of the legacy sub-range (-32019..-32000)
     * new implementations should not use */
    SHAPE_ERROR(ERROR_CODE_UNDEFINED, NULL, -32050, NULL, NULL, RS_REASON_UNKNOWN_STATELESS_METHOD),
    SHAPE_ERROR(ERROR_CODE_LEGACY, NULL, -32000, NULL, NULL, RS_REASON_UNKNOWN_STATELESS_METHOD),
    /* initialize's result, and the capabilities server/discover gives too */
    SHAPE_AT(INIT_NO_CAPABILITIES, RESULT, "initialize", fault_drop, "result", "capabilities"),
    SHAPE_AT(INIT_NO_SERVER_INFO, RESULT, "initialize", fault_drop, "result", "serverInfo"),
    SHAPE(VERSION_UNSUPPORTED_ECHOED, RESULT, "initialize", mc__rs_fault_echo_unspoken),
    CAP_GONE(LOGGING_UNDECLARED, "", "logging"),
    CAP_GONE(COMPLETIONS_CAP_UNDECLARED, "", "completions"),
    CAP_GONE(PROMPTS_LIST_CHANGED_UNDECLARED, ".prompts", "listChanged"),
    CAP_GONE(SUBSCRIBE_UNDECLARED, ".resources", "subscribe"),
    CAP_GONE(RESOURCES_LIST_CHANGED_UNDECLARED, ".resources", "listChanged"),
    CAP_GONE(RESOURCES_CAP_UNDECLARED, "", "resources"),
    CAP_GONE(TOOLS_LIST_CHANGED_UNDECLARED, ".tools", "listChanged"),
    CAP_GONE(TOOLS_CAP_UNDECLARED, "", "tools"),
    SHAPE_AT(DISCOVER_CAPS_LACKING, RESULT, "server/discover", fault_drop, "result.capabilities", "tools"),
    SHAPE_AT(DISCOVER_CAPS_LACKING, RESULT, "server/discover", fault_drop, "result.capabilities", "resources"),
    SHAPE_AT(DISCOVER_CAPS_LACKING, RESULT, "server/discover", fault_drop, "result.capabilities", "prompts"),
    SHAPE_AT(EXTENSION_ID_UNPREFIXED, RESULT, "server/discover", fault_extension, NULL, "ui"),
    /* what a result carries: _meta (a body's, before the stateless members) */
    SHAPE_TO(META_KEY_MALFORMED, BODY, NULL, fault_body_meta, NULL, "com.example-/note", "malformed prefix", 0),
    SHAPE(RESULT_TYPE_MISSING, RESULT, NULL, fault_no_result_type),
    SHAPE_TO(CACHE_TTL_NEGATIVE, RESULT, NULL, fault_num, "result", "ttlMs", NULL, -1),
    SHAPE_TO(META_TRACEPARENT_MALFORMED, RESULT, NULL, fault_meta_member, NULL, "traceparent",
             "00-0af7651916cd43dd8448eb211c80319c-00f067aa", 0),
    SHAPE_AT(RESULT_NO_SERVER_INFO, RESULT, NULL, fault_drop, "result._meta", META_SERVER),
    /* icons and annotations, wherever a result has them */
    SHAPE_TO(ICON_SRC_FILE, RESULT, NULL, fault_everywhere, NULL, "src", "file:///tmp/mcpcheck/icon.png", 0),
    SHAPE_TO(ANNOTATION_PRIORITY_RANGE, RESULT, NULL, fault_everywhere, NULL, "priority", NULL, 15),
    /* resources: the list, the templates, what a read gives */
    SHAPE_AT(RESOURCE_NO_NAME, RESULT, "resources/list", fault_drop, "result.resources[]", "name"),
    SHAPE_TO(TEMPLATE_NO_URITEMPLATE, RESULT, "resources/templates/list", fault_rename,
             "result.resourceTemplates[]", "uriTemplate", "uri", 0),
    SHAPE_TO(READ_URI_OTHER, RESULT, "resources/read", fault_text, "result.contents[]", "uri", "test://elsewhere", 0),
    SHAPE_TO(READ_MIMETYPE_DIFFERS, RESULT, "resources/read", fault_text, "result.contents[]", "mimeType",
             "application/x-unlisted", 0),
    SHAPE_IF(READ_TEXT_AND_BLOB, RESULT, "resources/read", fault_add, "result.contents[]", "blob", "dGV4dA==", 0, "text^"),
    SHAPE_IF(READ_URI_MISMATCH, RESULT, "resources/read", fault_text, "result.contents[]", "uri",
             "test://template/{id}/data", 0, "uri^test://template/"),
    SHAPE_IF(INVALID_UTF8, RESULT, "resources/read", fault_append, "result.contents[]", "text", " \xff\xfe", 0,
             "uri=test://static-text"),
    SHAPE_IF(BLOB_NOT_BASE64, RESULT, "resources/read", fault_text, "result.contents[]", "blob",
             "this is *not* base64!", 0, "uri=test://static-binary"),
    SHAPE_IF(BLOB_UNPADDED, RESULT, "resources/read", fault_unpad, "result.contents[]", "blob", NULL, 0,
             "uri=test://static-binary"),
    /* an unknown resource, read or subscribed to */
    SHAPE_IF(NOT_FOUND_OLD_CODE, ERROR, NULL, fault_num, "error", "code", NULL,
             MC_RPC_RESOURCE_NOT_FOUND, "message=Resource not found"),
    SHAPE_IF(RESOURCE_NOT_FOUND_CODE, ERROR, NULL, fault_internal_reason, NULL, NULL, NULL, 0,
             "message=Resource not found"),
    /* lists */
    SHAPE_ERROR(CURSOR_WRONG_CODE, NULL, MC_RPC_INTERNAL_ERROR, NULL, "message=invalid cursor", NULL),
    SHAPE(CURSOR_NULL, BODY, "tools/list", fault_null_cursor),
    SHAPE(CURSOR_NULL, BODY, "prompts/list", fault_null_cursor),
    SHAPE(CURSOR_NULL, BODY, "resources/list", fault_null_cursor),
    SHAPE(CURSOR_NULL, BODY, "resources/templates/list", fault_null_cursor),
    SHAPE(CURSOR_NULL, BODY, "tasks/list", fault_null_cursor),
    /* progress: a call's (a task's carries the related-task _meta) */
    SHAPE_IF(PROGRESS_UNKNOWN_TOKEN, NOTIFY, "notifications/progress", fault_text, "params", "progressToken",
             "mcpcheck-token-never-sent", 0, "!_meta"),
    /* prompts */
    SHAPE_IF(PROMPT_ROLE_INVALID, RESULT, "prompts/get", fault_text, "result.messages[]", "role", "system", 0,
             "content.text=This is a simple prompt for testing."),
    SHAPE_IF(PROMPT_IMAGE_NOT_BASE64, RESULT, "prompts/get", fault_text, "result.messages[].content", "data",
             "this is *not* base64!", 0, "type=image"),
    SHAPE_ERROR(PROMPT_UNKNOWN_CODE, "prompts/get", MC_RPC_METHOD_NOT_FOUND, NULL, "message=unknown prompt", NULL),
    /* completion */
    SHAPE(COMPLETION_TOO_MANY, RESULT, "completion/complete", fault_many_values),
    /* tasks: the capability, the Task objects (a call's CreateTaskResult, tasks/get,
     * tasks/cancel, tasks/list, the status notification), the related-task _meta */
    SHAPE_AT(TASK_CAP_UNDECLARED, RESULT, "initialize", fault_drop, "result.capabilities", "tasks"),
#define TASK_OBJECTS(b, fn, mem, t, w)                                                             \
    SHAPE_IF(b, RESULT, "tools/call", fn, "result.task", mem, t, 0, w),                             \
        SHAPE_IF(b, RESULT, "tasks/get", fn, "result", mem, t, 0, w),                               \
        SHAPE_IF(b, RESULT, "tasks/cancel", fn, "result", mem, t, 0, w),                            \
        SHAPE_IF(b, RESULT, "tasks/list", fn, "result.tasks[]", mem, t, 0, w),                      \
        SHAPE_IF(b, NOTIFY, "notifications/tasks/status", fn, "params", mem, t, 0, w)
    TASK_OBJECTS(TASK_ID_NOT_STRING, mc__rs_fault_task_id_number, "taskId", NULL, NULL),
    TASK_OBJECTS(TASK_FAILED_NO_STATUS_MESSAGE, fault_drop, "statusMessage", NULL, "status=failed"),
    TASK_OBJECTS(TASK_TIME_NOT_ISO, fault_text, "createdAt", "just now", NULL),
    TASK_OBJECTS(TASK_TIME_NOT_ISO, fault_text, "lastUpdatedAt", "just now", NULL),
#undef TASK_OBJECTS
    SHAPE_AT(TASK_GET_NO_TTL, RESULT, "tasks/get", fault_drop, "result", "ttl"),
    SHAPE_AT(TASK_LIST_NO_CURSOR, RESULT, "tasks/list", fault_drop, "result", "nextCursor"),
    SHAPE_TO(TASK_CANCEL_STILL_WORKING, RESULT, "tasks/cancel", fault_text, "result", "status", "working", 0),
    SHAPE_AT(TASK_CANCEL_STILL_WORKING, RESULT, "tasks/cancel", fault_drop, "result", "statusMessage"),
    SHAPE_ERROR(TASK_UNKNOWN_ID_INTERNAL, NULL, MC_RPC_INTERNAL_ERROR, "Failed to retrieve task",
                "message=Failed to retrieve task: Task not found", NULL),
    SHAPE_AT(TASK_RELATED_ON_OPS, RESULT, "tasks/get", mc__rs_fault_related, "result", NULL),
    SHAPE_AT(TASK_RELATED_ON_OPS, RESULT, "tasks/cancel", mc__rs_fault_related, "result", NULL),
    SHAPE_AT(TASK_STATUS_RELATED, NOTIFY, "notifications/tasks/status", mc__rs_fault_related, "params", NULL),
    /* (a held tasks/result is answered while another request is served) */
    SHAPE_AT(TASK_RESULT_NO_RELATED, RESULT, NULL, mc__rs_fault_unrelated, "result", NULL),
    SHAPE_AT(TASK_ELICIT_NO_RELATED, REQUEST, "elicitation/create", mc__rs_fault_unrelated, "params", NULL),
    SHAPE_AT(TASK_PROGRESS_NO_RELATED, NOTIFY, "notifications/progress", mc__rs_fault_unrelated, "params", NULL),
    SHAPE(TASK_PROGRESS_TOKEN_CHANGED, NOTIFY, "notifications/progress", mc__rs_fault_token_task_id),
    /* the server as a task's requestor */
    SHAPE_AT(TASKREQ_RELATED_META, REQUEST, "tasks/get", mc__rs_fault_related, "params", NULL),
    SHAPE_AT(TASKREQ_RELATED_META, REQUEST, "tasks/result", mc__rs_fault_related, "params", NULL),
    SHAPE_TO(TASKREQ_CURSOR_MODIFIED, REQUEST, "tasks/list", fault_append, "params", "cursor", "x", 0),
    /* the stateless protocol (2026-07-28): server/discover lying (only a legacy version
     * while serving this one), the -32022 error's list not server/discover's, the
     * modern-only refusal of initialize naming no version */
    SHAPE_TO(DISCOVER_LYING, RESULT, "server/discover", mc__rs_fault_versions, "result", "supportedVersions",
             MC_VN_2025_11_25, 0),
    SHAPE_IF(VERSION_ERROR_LIST_DIFFERS, ERROR, NULL, mc__rs_fault_versions, "error.data", "supported", NULL, 0,
             "requested^"),
    SHAPE_ERROR(INIT_ERROR_NO_VERSIONS, "initialize", MC_RPC_METHOD_NOT_FOUND, "method not found", NULL, NULL),
    SHAPE_AT(INIT_ERROR_NO_VERSIONS, ERROR, "initialize", fault_drop, "error", "data"),
    /* the InputRequiredResult of a tool asking its client (modern.c, not
     * inputreq.c's fixtures): without inputRequests and requestState, or
     * asking with a ping */
    SHAPE_IF(INPUT_REQUIRED_EMPTY, RESULT, NULL, fault_drop, "result", "inputRequests", NULL, 0, MRTR_RESULT),
    SHAPE_IF(INPUT_REQUIRED_EMPTY, RESULT, NULL, fault_drop, "result", "requestState", NULL, 0, MRTR_RESULT),
    SHAPE_TO(INPUT_REQUEST_KIND, RESULT, NULL, fault_text, MRTR_REQUEST(RS_MRTR_KEY_ELICITATION), "method", "ping", 0),
    SHAPE_TO(INPUT_REQUEST_KIND, RESULT, NULL, fault_text, MRTR_REQUEST(RS_MRTR_KEY_SAMPLING), "method", "ping", 0),
    SHAPE_TO(INPUT_REQUEST_KIND, RESULT, NULL, fault_text, MRTR_REQUEST(RS_MRTR_KEY_ROOTS), "method", "ping", 0),
    /* tools: the fixture tools' inputSchema (not the task tools', which say
     * how they run as tasks, nor test_task_requestor's) left out, or naming
     * draft-07 in $schema from 2025-11-25 (in a copy: the schema is shared) */
    SHAPE_IF(TOOL_NO_INPUT_SCHEMA, RESULT, "tools/list", fault_drop, "result.tools[]", "inputSchema", NULL, 0,
             FIXTURE_TOOL),
    SHAPE_SINCE(MC_V_2025_11_25, TOOL_SCHEMA_DRAFT07, RESULT, "tools/list", fault_json, "result.tools[]",
                "inputSchema.$schema", "\"http://json-schema.org/draft-07/schema#\"", 0, FIXTURE_TOOL),
    /* tools: test_header_param's annotation no token, or on a number, or on the
     * items of an array parameter (not statically reachable) */
    SHAPE_IF(X_MCP_HEADER_NOT_STATIC, RESULT, "tools/list", fault_json, "result.tools[]", "inputSchema",
             HEADER_PARAM_SCHEMA_IN_ITEMS, 0, "name=test_header_param"),
    SHAPE_IF(X_MCP_HEADER_NOT_TOKEN, RESULT, "tools/list", fault_text, "result.tools[].inputSchema.properties.region",
             "x-mcp-header", "Re gion", 0, "x-mcp-header=Region"),
    SHAPE_IF(X_MCP_HEADER_NUMBER, RESULT, "tools/list", fault_text, "result.tools[].inputSchema.properties.count",
             "type", "number", 0, "x-mcp-header=Count"),
    /* tools: a text block without its type; the structured content not
     * conforming to the output schema (a string temperature), in its text
     * block too; the text block another JSON value than the structured content */
    SHAPE_IF(TOOL_CONTENT_NO_TYPE, RESULT, NULL, fault_drop, "result.content[]", "type", NULL, 0,
             "text=This is a simple text response for testing."),
    SHAPE_IF(TOOL_STRUCTURED_NONCONFORMING, RESULT, NULL, fault_text, "result.content[]", "text",
             "{\"temperature\":\"warm\",\"conditions\":\"Partly cloudy\"}", 0, "text=" RS_STRUCTURED_DOC),
    SHAPE_TO(TOOL_STRUCTURED_NONCONFORMING, RESULT, NULL, fault_text, "result.structuredContent", "temperature",
             "warm", 0),
    SHAPE_IF(TOOL_STRUCTURED_TEXT_MISMATCH, RESULT, NULL, fault_text, "result.content[]", "text",
             "{\"temperature\":23.5,\"conditions\":\"Partly cloudy\"}", 0, "text=" RS_STRUCTURED_DOC),
    /* server->client requests: elicitation (the form-mode requests of the
     * elicitation tools: sent, or in an InputRequiredResult at 2026-07-28),
     * sampling */
    FORM_FAULT(ELICIT_NESTED_SCHEMA, "requestedSchema.properties.address",
               "{\"type\":\"object\",\"description\":\"A nested object (not allowed)\","
               "\"properties\":{\"street\":{\"type\":\"string\"}}}"),
    FORM_FAULT(ELICIT_SENSITIVE, "requestedSchema.properties.password",
               "{\"type\":\"string\",\"description\":\"Your account password\"}"),
    FORM_FAULT(ELICIT_FORM_URL, "requestedSchema.properties.reviewed",
               "{\"type\":\"boolean\",\"description\":\"Read the terms at https://example.com/terms first\"}"),
    FORM_FAULT(TASK_AUGMENTED_UNDECLARED, "task", "{\"ttl\":60000}"),
    SHAPE_TO(ELICIT_COMPLETE_WRONG_ID, NOTIFY, "notifications/elicitation/complete", fault_text, "params",
             "elicitationId", "mcpcheck-elicitation-unknown", 0),
    SHAPE_AT(URL_ERROR_NO_LIST, ERROR, NULL, fault_drop, "error.data", "elicitations"),
    SHAPE_IF(ELICIT_URL_NO_ID, REQUEST, "elicitation/create", fault_drop, "params", "elicitationId", NULL, 0,
             "mode=url"),
    SHAPE_AT(ELICIT_URL_NO_ID, ERROR, NULL, fault_drop, "error.data.elicitations[]", "elicitationId"),
    SHAPE(PROGRESS_TOKEN_SHARED, REQUEST, "sampling/createMessage", mc__rs_fault_token_shared),
    /* logging */
    SHAPE(LOG_SECRET, NOTIFY, "notifications/message", mc__rs_fault_log_secret),
    SHAPE(LOG_NUMBER_AFTER_CHANGE, NOTIFY, "notifications/message", mc__rs_fault_level_number),
    SHAPE_TO(LOG_LEVEL_NOT_IN_ENUM, NOTIFY, "notifications/message", fault_text, "params", "level", "verbose", 0),
};
/* clang-format on */


int mc__rs_shape(mc_refserver_t *rs, unsigned kind, const char *method, json_object *msg)
{
    size_t i;
    int copies = 1;

    if (rs->bug == RS_BUG_NONE)
        return 1;
    for (i = 0; i < sizeof(rs_shape_faults) / sizeof(rs_shape_faults[0]); i++) {
        const rs_shape_fault_t *f = &rs_shape_faults[i];
        if (f->bug == rs->bug && (f->kinds & kind) && rs->version >= f->since &&
            (f->method == NULL || (method != NULL && strcmp(f->method, method) == 0)))
            copies = f->apply(rs, msg, f);
    }
    return copies;
}
