/*
 * emit.c - the output path of the reference server, below every handler.
 *
 * Every outbound message goes through mc__rs_emit(), which encodes it as one
 * line and calls the emit callback; responses go through mc__rs_result() and
 * mc__rs_error() (collected instead while a batch is answered), and
 * notifications through mc__rs_notify(), requests to the client through
 * mc__rs_request(). The message-shape faults of the violation switches are
 * applied here, on the way out: every message passes rs_send(), which hands
 * it to the rows of shapes.c, and every line passes their byte stage.
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
    if (s == NULL) {
        rs->failed = 1;
    } else {
        size_t len = 0;
        char *faulty = mc__rs_shape_bytes(rs, s, n, &len);

        if (faulty != NULL)
            emit_line(rs, faulty, len);
        else
            emit_line(rs, s, n);
        free(faulty);
    }
    json_object_put(msg);
}

/* ---- results ---- */

void mc__rs_modern_decorate(mc_refserver_t *rs, json_object *result)
{
    json_object *meta, *info;

    if (!json_object_object_get_ex(result, "resultType", NULL))
        mc__rs_put_str(rs, result, "resultType", "complete");
    if (rs->cacheable) {
        mc__rs_put(rs, result, "ttlMs",
                   json_object_new_int(RS_CACHE_TTL_MS));
        mc__rs_put_str(rs, result, "cacheScope",
                       rs->cacheable == RS_CACHEABLE_LATER_PAGE ? "private" : "public");
    }
    if (!json_object_object_get_ex(result, "_meta", &meta)) {
        meta = json_object_new_object();
        mc__rs_put(rs, result, "_meta", meta);
    }
    if (meta == NULL || !json_object_is_type(meta, json_type_object))
        return;
    if (json_object_object_get_ex(meta, META_SERVER, NULL))
        return;
    info = json_object_new_object();
    mc__rs_put_str(rs, info, "name", "mcpcheck-refserver");
    mc__rs_put_str(rs, info, "version", MC_VERSION);
    mc__rs_put(rs, meta, META_SERVER, info);
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
    copies = mc__rs_shape(rs, kind, method, msg);
    if (copies == 0) {
        json_object_put(msg);
        return;
    }
    if (copies > 1)
        mc__rs_send_response(rs, json_object_get(msg));
    if (kind == RS_OUT_NOTIFY || kind == RS_OUT_REQUEST)
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
    if (json_object_is_type(result, json_type_object))
        mc__rs_shape(rs, RS_OUT_BODY, rs->answering, result);
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
    rs_send(rs, RS_OUT_ERROR, rs->answering, o);
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

void mc__rs_request(mc_refserver_t *rs, json_object *id, const char *method, json_object *params)
{
    rs_send(rs, RS_OUT_REQUEST, method, mc_jsonrpc_request(id, method, params));
}
