#include "core/jsonrpc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonfast.h"
#include "core/jsonsyntax.h"
#include "core/limits.h"

#define MC__JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

const char *mc_msg_kind_name(mc_msg_kind_t kind)
{
    switch (kind) {
    case MC_MSG_REQUEST:
        return "request";
    case MC_MSG_NOTIFICATION:
        return "notification";
    case MC_MSG_RESULT:
        return "result";
    case MC_MSG_ERROR:
        return "error";
    default:
        return "invalid";
    }
}

json_object *mc_json_parse_loose(const char *data, size_t len)
{
    json_tokener *tok;
    json_object *o;

    if (len > MC_MAX_MESSAGE_SIZE)
        return NULL;
    tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (tok == NULL)
        return NULL;
    o = json_tokener_parse_ex(tok, data, (int)len);
    json_tokener_free(tok);
    return o;
}

int mc_json_parse(const char *buf, size_t len, int max_depth, json_object **out, mc_errbuf_t *eb)
{
    json_tokener *tok;
    json_object *v;
    enum json_tokener_error jerr;
    int rc;

    if (len > MC_MAX_MESSAGE_SIZE)
        return mc_errbuf_set(eb, MC_ETOOBIG, "message of %zu bytes exceeds the %u-byte limit", len,
                             MC_MAX_MESSAGE_SIZE);
    if (len > 0 && memchr(buf, '\0', len) != NULL)
        return mc_errbuf_set(eb, MC_EPARSE, "NUL byte at offset %zu",
                             (size_t)((const char *)memchr(buf, '\0', len) - buf));
    {
        size_t at = 0;
        const char *what = NULL;
        rc = mc_json_syntax_check(buf, len, max_depth > 0 ? max_depth : MC_MAX_JSON_DEPTH, &at,
                                  &what);
        if (rc != MC_OK)
            return mc_errbuf_set(eb, rc, "%s at offset %zu", what, at);
    }

    /* The syntax is RFC 8259: the fast builder takes nearly every message;
     * json-c builds what it declines (top-level scalars, rare escapes). */
    if (mc_json_fast_parse(buf, len, (max_depth > 0 ? max_depth : MC_MAX_JSON_DEPTH) + 1, NULL,
                           out) == MC_OK)
        return MC_OK;
    /*
     * json-c counts the innermost scalar as a level of its own, so with the
     * same number it would refuse a document the syntax check accepted
     * (64 containers around a scalar). One level more keeps the syntax
     * check the single authority on depth.
     */
    tok = json_tokener_new_ex((max_depth > 0 ? max_depth : MC_MAX_JSON_DEPTH) + 1);
    if (tok == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory creating the JSON tokener");
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    v = json_tokener_parse_ex(tok, buf, (int)len);
    jerr = json_tokener_get_error(tok);
    if (v == NULL && jerr == json_tokener_continue) {
        /* A top-level number or literal needs a delimiter to end. */
        v = json_tokener_parse_ex(tok, " ", 1);
        jerr = json_tokener_get_error(tok);
    }
    if (jerr != json_tokener_success) { /* JSON null parses to NULL */
        size_t at = json_tokener_get_parse_end(tok);
        if (jerr == json_tokener_continue)
            rc = mc_errbuf_set(eb, MC_EPARSE, "truncated JSON: input ends inside a value");
        else if (jerr == json_tokener_error_depth)
            rc = mc_errbuf_set(eb, MC_ETOODEEP, "nesting deeper than %d levels at offset %zu",
                               max_depth > 0 ? max_depth : MC_MAX_JSON_DEPTH, at);
        else if (jerr == json_tokener_error_parse_utf8_string)
            rc = mc_errbuf_set(eb, MC_EUTF8, "invalid UTF-8 at offset %zu", at);
        else
            rc = mc_errbuf_set(eb, MC_EPARSE, "%s at offset %zu", json_tokener_error_desc(jerr),
                               at);
        json_object_put(v);
        json_tokener_free(tok);
        return rc;
    }
    /* The syntax check has already refused trailing data. */
    json_tokener_free(tok);
    *out = v;
    return MC_OK;
}

int mc_jsonrpc_id_valid(json_object *v)
{
    if (v == NULL)
        return 0;
    return json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int);
}

/* An integer's value as two halves json-c reports: an int64 (saturated at
 * INT64_MAX for a big uint64) and, past that, the uint64. */
static void int_value(json_object *v, int64_t *i, uint64_t *u)
{
    *i = json_object_get_int64(v);
    *u = *i == INT64_MAX ? json_object_get_uint64(v) : 0;
}

/*
 * Compared by value, not by serializing: json-c keeps a value's text inside
 * the value, and an id from a parsed scenario is shared by the run's worker
 * threads. Equal values are exactly those with equal compact texts.
 */
int mc_jsonrpc_id_equal(json_object *a, json_object *b)
{
    int64_t ia, ib;
    uint64_t ua, ub;

    if (!mc_jsonrpc_id_valid(a) || !mc_jsonrpc_id_valid(b))
        return 0;
    if (json_object_get_type(a) != json_object_get_type(b))
        return 0;
    if (json_object_is_type(a, json_type_string)) {
        int la = json_object_get_string_len(a), lb = json_object_get_string_len(b);
        return la == lb && memcmp(json_object_get_string(a), json_object_get_string(b),
                                  (size_t)la) == 0;
    }
    int_value(a, &ia, &ua);
    int_value(b, &ib, &ub);
    return ia == ib && ua == ub;
}

/* Writes the text of any value without touching the value (see above):
 * an integer by its digits, anything else through a private copy. */
size_t mc_id_text(json_object *id, char *out, size_t cap)
{
    json_object *copy = NULL;
    const char *s = "null";
    char num[24];
    size_t n = 4;

    if (cap == 0)
        return 0;
    if (id != NULL && json_object_is_type(id, json_type_int)) {
        int64_t i;
        uint64_t u;
        int_value(id, &i, &u);
        n = (size_t)(i == INT64_MAX ? snprintf(num, sizeof(num), "%" PRIu64, u)
                                    : snprintf(num, sizeof(num), "%" PRId64, i));
        s = num;
    } else if (id != NULL) {
        s = json_object_deep_copy(id, &copy, NULL) == 0 ? mc_json_compact(copy, &n) : NULL;
    }
    if (s == NULL || n >= cap) {
        out[0] = '\0';
        json_object_put(copy);
        return 0;
    }
    memcpy(out, s, n);
    out[n] = '\0';
    json_object_put(copy);
    return n;
}

static void invalid(mc_msg_t *msg, int rpc_error, const char *reason)
{
    msg->kind = MC_MSG_INVALID;
    msg->rpc_error = rpc_error;
    snprintf(msg->reason, sizeof(msg->reason), "%s", reason);
}

static const char *type_name(json_object *v)
{
    return v == NULL ? "null" : json_type_to_name(json_object_get_type(v));
}

static void classify_response(mc_msg_t *msg, json_object *id, int has_id, json_object *result,
                              int has_result, json_object *error, int has_error)
{
    json_object *code, *message;

    if (has_result && has_error) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "response has both \"result\" and \"error\"");
        return;
    }
    if (has_result) {
        if (!has_id || !mc_jsonrpc_id_valid(id)) {
            invalid(msg, MC_RPC_INVALID_REQUEST,
                    has_id ? "response \"id\" must be a string or an integer"
                           : "response has no \"id\"");
            return;
        }
        msg->kind = MC_MSG_RESULT;
        msg->id = id;
        msg->result = result;
        return;
    }
    if (!json_object_is_type(error, json_type_object)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "\"error\" must be an object");
        return;
    }
    if (has_id && id != NULL && !mc_jsonrpc_id_valid(id)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "error response \"id\" must be a string, an integer "
                                             "or null");
        return;
    }
    if (!json_object_object_get_ex(error, "code", &code) ||
        !json_object_is_type(code, json_type_int)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "\"error.code\" must be an integer");
        return;
    }
    if (!json_object_object_get_ex(error, "message", &message) ||
        !json_object_is_type(message, json_type_string)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "\"error.message\" must be a string");
        return;
    }
    msg->kind = MC_MSG_ERROR;
    msg->id = id;
    msg->error = error;
    msg->error_code = json_object_get_int64(code);
    msg->error_message = json_object_get_string(message);
}

void mc_msg_classify(json_object *root, mc_msg_t *msg)
{
    json_object *jsonrpc, *method, *id, *params, *result, *error;
    int has_id, has_method, has_result, has_error, has_params;
    char why[160];

    memset(msg, 0, sizeof(*msg));
    msg->root = root;
    if (root == NULL) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "message is null");
        return;
    }
    if (json_object_is_type(root, json_type_array)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "message is a JSON array (a JSON-RPC batch)");
        return;
    }
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(why, sizeof(why), "message is a JSON %s, not an object", type_name(root));
        invalid(msg, MC_RPC_INVALID_REQUEST, why);
        return;
    }
    if (!json_object_object_get_ex(root, "jsonrpc", &jsonrpc)) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "\"jsonrpc\" member is missing");
        return;
    }
    if (!json_object_is_type(jsonrpc, json_type_string) ||
        strcmp(json_object_get_string(jsonrpc), "2.0") != 0) {
        invalid(msg, MC_RPC_INVALID_REQUEST, "\"jsonrpc\" must be exactly \"2.0\"");
        return;
    }
    has_method = json_object_object_get_ex(root, "method", &method);
    has_id = json_object_object_get_ex(root, "id", &id);
    has_params = json_object_object_get_ex(root, "params", &params);
    has_result = json_object_object_get_ex(root, "result", &result);
    has_error = json_object_object_get_ex(root, "error", &error);

    if (has_method) {
        if (!json_object_is_type(method, json_type_string)) {
            invalid(msg, MC_RPC_INVALID_REQUEST, "\"method\" must be a string");
            return;
        }
        if (has_result || has_error) {
            invalid(msg, MC_RPC_INVALID_REQUEST,
                    "message has both \"method\" and \"result\"/\"error\"");
            return;
        }
        if (has_params && !json_object_is_type(params, json_type_object) &&
            !json_object_is_type(params, json_type_array)) {
            invalid(msg, MC_RPC_INVALID_REQUEST, "\"params\" must be an object or an array");
            return;
        }
        if (has_id && !mc_jsonrpc_id_valid(id)) {
            snprintf(why, sizeof(why), "request \"id\" must be a string or an integer, not %s",
                     type_name(id));
            invalid(msg, MC_RPC_INVALID_REQUEST, why);
            return;
        }
        msg->kind = has_id ? MC_MSG_REQUEST : MC_MSG_NOTIFICATION;
        msg->method = json_object_get_string(method);
        msg->id = has_id ? id : NULL;
        msg->params = has_params ? params : NULL;
        return;
    }
    if (has_result || has_error) {
        classify_response(msg, id, has_id, result, has_result, error, has_error);
        return;
    }
    invalid(msg, MC_RPC_INVALID_REQUEST, "message has none of \"method\", \"result\", \"error\"");
}

int mc_msg_decode(const char *buf, size_t len, int max_depth, mc_msg_t *msg)
{
    json_object *root = NULL;
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc_json_parse(buf, len, max_depth, &root, &eb);
    if (rc != MC_OK) {
        memset(msg, 0, sizeof(*msg));
        invalid(msg, MC_RPC_PARSE_ERROR, eb.msg);
        return rc;
    }
    mc_msg_classify(root, msg);
    return MC_OK;
}

void mc_msg_free(mc_msg_t *msg)
{
    json_object_put(msg->root);
    memset(msg, 0, sizeof(*msg));
}

static json_object *envelope(void)
{
    json_object *o = json_object_new_object();
    if (o != NULL && json_object_object_add(o, "jsonrpc", json_object_new_string("2.0")) != 0) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* Adds v under key, taking ownership; on failure releases both. */
static json_object *add(json_object *o, const char *key, json_object *v)
{
    if (o == NULL) {
        json_object_put(v);
        return NULL;
    }
    if (json_object_object_add(o, key, v) != 0) {
        json_object_put(v);
        json_object_put(o);
        return NULL;
    }
    return o;
}

json_object *mc_jsonrpc_request(json_object *id, const char *method, json_object *params)
{
    json_object *o = envelope();

    o = add(o, "id", id);
    o = add(o, "method", json_object_new_string(method));
    if (params != NULL)
        o = add(o, "params", params);
    return o;
}

json_object *mc_jsonrpc_notification(const char *method, json_object *params)
{
    json_object *o = envelope();

    o = add(o, "method", json_object_new_string(method));
    if (params != NULL)
        o = add(o, "params", params);
    return o;
}

json_object *mc_jsonrpc_result(json_object *id, json_object *result)
{
    json_object *o = envelope();

    o = add(o, "id", id);
    return add(o, "result", result != NULL ? result : json_object_new_object());
}

json_object *mc_jsonrpc_error(json_object *id, int code, const char *message, json_object *data)
{
    json_object *o = envelope(), *e = json_object_new_object();

    e = add(e, "code", json_object_new_int(code));
    e = add(e, "message", json_object_new_string(message));
    if (data != NULL)
        e = add(e, "data", data);
    o = add(o, "id", id);
    return add(o, "error", e);
}

const char *mc_json_compact(json_object *v, size_t *len)
{
    const char *s = json_object_to_json_string_length(v, MC__JSON_FLAGS, len);
    return s;
}

int mc_json_encode_line(json_object *v, char **out, size_t *out_len)
{
    size_t n = 0;
    const char *s = json_object_to_json_string_length(v, MC__JSON_FLAGS, &n);
    char *b;

    if (s == NULL)
        return MC_ENOMEM;
    if (n + 1 > MC_MAX_MESSAGE_SIZE)
        return MC_ETOOBIG;
    b = malloc(n + 1);
    if (b == NULL)
        return MC_ENOMEM;
    memcpy(b, s, n);
    b[n] = '\n';
    *out = b;
    *out_len = n + 1;
    return MC_OK;
}
