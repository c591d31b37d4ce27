/*
 * emit.c - the output path of the reference server, below every handler.
 *
 * Every outbound message goes through mc__rs_emit(), which encodes it as one
 * line and calls the emit callback; responses go through mc__rs_result() and
 * mc__rs_error() (collected instead while a batch is answered), and
 * notifications through mc__rs_notify(). The envelope faults of the
 * violation switches are applied here, on the way out.
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

int mc__rs_notify_switched(mc_refserver_t *rs, const char *method, json_object *params)
{
    json_object *n;

    if (!rs_bug_on(rs, NOTIFICATION_WITH_ID))
        return 0;
    n = mc_jsonrpc_notification(method, json_object_get(params));
    if (n != NULL)
        mc__rs_put_str(rs, n, "id", "mcpcheck-refserver-notification");
    mc__rs_emit(rs, n);
    return 1;
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
    mc__rs_send_response(rs, mc_jsonrpc_result(json_object_get(id), result));
}

void mc__rs_error(mc_refserver_t *rs, json_object *id, int code, const char *message,
                  json_object *data)
{
    json_object *o, *e;

    if (mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_ERROR,
                                              .id = id,
                                              .code = code,
                                              .text = message,
                                              .body = data})) {
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
    if (rs_bug_on(rs, ENV_ERROR_CODE_STRING)) {
        char buf[24];
        snprintf(buf, sizeof(buf), "%d", code);
        mc__rs_put_str(rs, e, "code", buf);
    } else {
        mc__rs_put(rs, e, "code", json_object_new_int(code));
    }
    if (!rs_bug_on(rs, ENV_ERROR_NO_MESSAGE))
        mc__rs_put_str(rs, e, "message", message);
    if (data != NULL)
        mc__rs_put(rs, e, "data", data);
    mc__rs_put(rs, o, "error", e);
    if (rs_bug_on(rs, ENV_RESULT_AND_ERROR))
        mc__rs_put(rs, o, "result", json_object_new_object());
    mc__rs_send_response(rs, o);
}

void mc__rs_notify(mc_refserver_t *rs, const char *method, json_object *params)
{
    if (mc__rs_notify_switched(rs, method, params) ||
        mc__rs_fast_send(rs,
                         &(rs_fast_msg_t){.kind = RS_FAST_NOTIFY, .method = method, .body = params})) {
        json_object_put(params);
        return;
    }
    mc__rs_emit(rs, mc_jsonrpc_notification(method, params));
}
