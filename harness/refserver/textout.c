/*
 * textout.c - outbound messages written as text around encoded members.
 *
 * Every message the server sends is, in the end, json-c's compact encoding
 * (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) of an envelope
 * object. Building that envelope as json_objects (an object, a hash table,
 * a copy of each member name, strings) costs several times the bytes it
 * holds, so the functions below write the same bytes directly: the fixed
 * parts as text, ids as json-c prints them, member values (result, params,
 * data) encoded by json-c on their own. json-c's compact encoding of a value
 * does not depend on where the value sits, and it writes object members in
 * insertion order, so the output is byte for byte the envelope's encoding.
 *
 * Strings written here (methods, messages, level names) are escaped as
 * json-c escapes them: '"' and '\\' get a backslash, '/' is left alone
 * (NOSLASHESCAPE), bytes from 0x20 up are copied. A string with a control
 * character is left to json-c (the function returns 0 and the caller builds
 * the message as before), so no escape table is duplicated here.
 *
 * Text is only written while mc__rs_text_ok() holds: no violation switch is
 * on (several reshape envelopes), no batch is being collected (batch answers
 * are json_objects in an array) and nothing asked for a pretty-printed
 * message. Each function returns 1 when the message went out (or memory ran
 * out: rs->failed is then set), 0 when the caller must build it; json_object
 * arguments are borrowed. mc__rs_fast_send() (fast.h) is the door to them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/fastimpl.h"

#define RS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char head[] = "{\"jsonrpc\":\"2.0\"";

/* Longest string member written here (longer ones take the json_object path). */
#define TEXT_MAX_STRING 4096

int mc__rs_text_ok(const mc_refserver_t *rs)
{
    return rs->bug == RS_BUG_NONE && rs->batch == NULL && !rs->pretty_next && !rs->modern;
}

/* Longest decimal integer: "-" and 19 digits, or 20 digits. */
#define NUM_TEXT_MAX 21

/* Writes the decimal digits of v, preceded by "-" when neg, at the end of
 * buf[0..NUM_TEXT_MAX); returns where they start. */
static char *decimal(uint64_t v, int neg, char *buf)
{
    char *p = buf + NUM_TEXT_MAX;

    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    if (neg)
        *--p = '-';
    return p;
}

/* The text of an int64 as json-c prints it ("%" PRId64) in buf. */
static const char *int_text(int64_t v, char buf[NUM_TEXT_MAX], size_t *len)
{
    const char *s = v < 0
                        ? decimal(v == INT64_MIN ? (uint64_t)INT64_MAX + 1u : (uint64_t)-v, 1, buf)
                        : decimal((uint64_t)v, 0, buf);

    *len = (size_t)(buf + NUM_TEXT_MAX - s);
    return s;
}

/*
 * Encodes a request id as json-c does inside the envelope. Integers are
 * written into buf (the "%" PRId64 / "%" PRIu64 text json-c prints); other
 * values are encoded by json-c, and the pointer is then borrowed from id.
 * NULL is "null". Returns NULL when out of memory.
 */
static const char *id_text(json_object *id, char buf[NUM_TEXT_MAX], size_t *len)
{
    int64_t v;

    if (id == NULL) {
        *len = 4;
        return "null";
    }
    if (!json_object_is_type(id, json_type_int))
        return json_object_to_json_string_length(id, RS_JSON_FLAGS, len);
    /* json-c keeps an integer as int64 or, above INT64_MAX, uint64;
     * get_int64 clamps the latter to INT64_MAX, get_uint64 does not. */
    v = json_object_get_int64(id);
    if (v >= 0) {
        const char *s = decimal(json_object_get_uint64(id), 0, buf);
        *len = (size_t)(buf + NUM_TEXT_MAX - s);
        return s;
    }
    return int_text(v, buf, len);
}

/* Room a string needs as a JSON string (quotes included), or 0 when it
 * holds a byte this file leaves to json-c or is too long. */
static size_t str_room(const char *s)
{
    size_t n, i;

    if (s == NULL)
        return 0;
    n = strlen(s);
    if (n > TEXT_MAX_STRING)
        return 0;
    /* Any control character (all of them are below 0x20). */
    i = strcspn(s, "\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021"
                   "\022\023\024\025\026\027\030\031\032\033\034\035\036\037");
    return i < n ? 0 : 2 * n + 2;
}

/* Appends n bytes at *at in rs->out (room was reserved by the caller). */
static void put(mc_refserver_t *rs, size_t *at, const char *s, size_t n)
{
    memcpy(rs->out + *at, s, n);
    *at += n;
}

/* Appends a string literal. */
#define PUT_LIT(rs, at, lit) put((rs), (at), (lit), sizeof(lit) - 1)

/* Appends s as a JSON string (str_room(s) was checked and reserved). Runs
 * are found with strcspn(): a byte loop here would pay the fuzzers'
 * comparison tracing for every byte. */
static void put_str(mc_refserver_t *rs, size_t *at, const char *s)
{
    size_t run;

    rs->out[(*at)++] = '"';
    while (*s != '\0') {
        run = strcspn(s, "\"\\");
        put(rs, at, s, run);
        s += run;
        if (*s != '\0') {
            rs->out[(*at)++] = '\\';
            rs->out[(*at)++] = *s++;
        }
    }
    rs->out[(*at)++] = '"';
}

/* Encodes v (may be NULL: not present) for splicing; returns -1 when json-c
 * could not. */
static int encode(json_object *v, const char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (v == NULL)
        return 0;
    *text = json_object_to_json_string_length(v, RS_JSON_FLAGS, len);
    return *text == NULL ? -1 : 0;
}

/* Reserves n bytes of rs->out; on failure marks the server failed. */
static int reserve(mc_refserver_t *rs, size_t n)
{
    if (mc__rs_out_reserve(rs, n) != 0) {
        rs->failed = 1;
        return -1;
    }
    return 0;
}

/* Ends the message in rs->out[0..at) and hands it to the emit callback. */
static void finish(mc_refserver_t *rs, size_t at)
{
    PUT_LIT(rs, &at, "}\n");
    rs->emit(rs->emit_ctx, rs->out, at);
}

void mc__rs_result_body(mc_refserver_t *rs, json_object *id, const char *body, size_t len)
{
    char idbuf[NUM_TEXT_MAX];
    size_t idlen = 0, at = 0;
    const char *idt = id_text(id, idbuf, &idlen);

    if (idt == NULL) {
        rs->failed = 1;
        return;
    }
    if (reserve(rs, sizeof(head) + 8 + idlen + 12 + len + 2) != 0)
        return;
    put(rs, &at, head, sizeof(head) - 1);
    PUT_LIT(rs, &at, ",\"id\":");
    put(rs, &at, idt, idlen);
    PUT_LIT(rs, &at, ",\"result\":");
    put(rs, &at, body, len);
    finish(rs, at);
}

static int result_text(mc_refserver_t *rs, json_object *id, json_object *result)
{
    const char *body;
    size_t len;

    if (!mc__rs_text_ok(rs))
        return 0;
    if (result == NULL) {
        mc__rs_result_body(rs, id, "{}", 2);
        return 1;
    }
    if (encode(result, &body, &len) != 0)
        rs->failed = 1;
    else
        mc__rs_result_body(rs, id, body, len);
    return 1;
}

static int tool_text_result(mc_refserver_t *rs, json_object *id, const char *text, int is_error)
{
    size_t room = str_room(text);
    char idbuf[NUM_TEXT_MAX];
    size_t idlen = 0, at = 0;
    const char *idt;

    if (!mc__rs_text_ok(rs) || room == 0)
        return 0;
    idt = id_text(id, idbuf, &idlen);
    if (idt == NULL) {
        rs->failed = 1;
        return 1;
    }
    if (reserve(rs, sizeof(head) + 8 + idlen + 64 + room + 32) != 0)
        return 1;
    put(rs, &at, head, sizeof(head) - 1);
    PUT_LIT(rs, &at, ",\"id\":");
    put(rs, &at, idt, idlen);
    PUT_LIT(rs, &at, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    put_str(rs, &at, text);
    PUT_LIT(rs, &at, "}]");
    if (is_error)
        PUT_LIT(rs, &at, ",\"isError\":true");
    PUT_LIT(rs, &at, "}");
    finish(rs, at);
    return 1;
}

static int error_text(mc_refserver_t *rs, json_object *id, int code, const char *message,
                      json_object *data)
{
    size_t room = str_room(message), idlen = 0, codelen = 0, dlen = 0, at = 0;
    char idbuf[NUM_TEXT_MAX], codebuf[NUM_TEXT_MAX];
    const char *idt, *codet, *dtext;

    if (!mc__rs_text_ok(rs) || room == 0)
        return 0;
    idt = id_text(id, idbuf, &idlen);
    if (idt == NULL || encode(data, &dtext, &dlen) != 0) {
        rs->failed = 1;
        return 1;
    }
    codet = int_text(code, codebuf, &codelen);
    if (reserve(rs, sizeof(head) + 8 + idlen + 20 + codelen + 16 + room + 12 + dlen + 4) != 0)
        return 1;
    put(rs, &at, head, sizeof(head) - 1);
    PUT_LIT(rs, &at, ",\"id\":");
    put(rs, &at, idt, idlen);
    PUT_LIT(rs, &at, ",\"error\":{\"code\":");
    put(rs, &at, codet, codelen);
    PUT_LIT(rs, &at, ",\"message\":");
    put_str(rs, &at, message);
    if (dtext != NULL) {
        PUT_LIT(rs, &at, ",\"data\":");
        put(rs, &at, dtext, dlen);
    }
    PUT_LIT(rs, &at, "}");
    finish(rs, at);
    return 1;
}

/* Writes {"jsonrpc":"2.0"[,"id":N],"method":M[,"params":P]} (has_id: a
 * request with the integer id). */
static int method_text(mc_refserver_t *rs, int has_id, int64_t id, const char *method,
                       json_object *params)
{
    size_t room = str_room(method), idlen = 0, plen = 0, at = 0;
    char idbuf[NUM_TEXT_MAX];
    const char *idt = NULL, *ptext;

    if (!mc__rs_text_ok(rs) || room == 0)
        return 0;
    if (encode(params, &ptext, &plen) != 0) {
        rs->failed = 1;
        return 1;
    }
    if (has_id)
        idt = int_text(id, idbuf, &idlen);
    if (reserve(rs, sizeof(head) + 8 + idlen + 12 + room + 12 + plen + 2) != 0)
        return 1;
    put(rs, &at, head, sizeof(head) - 1);
    if (idt != NULL) {
        PUT_LIT(rs, &at, ",\"id\":");
        put(rs, &at, idt, idlen);
    }
    PUT_LIT(rs, &at, ",\"method\":");
    put_str(rs, &at, method);
    if (ptext != NULL) {
        PUT_LIT(rs, &at, ",\"params\":");
        put(rs, &at, ptext, plen);
    }
    finish(rs, at);
    return 1;
}

static int log_text(mc_refserver_t *rs, const char *level, const char *logger, json_object *data,
                    const char *message)
{
    size_t lroom = str_room(level), groom = logger != NULL ? str_room(logger) : 1,
           mroom = data == NULL ? str_room(message) : 1, dlen = 0, at = 0;
    const char *dtext;

    if (!mc__rs_text_ok(rs) || lroom == 0 || groom == 0 || mroom == 0)
        return 0;
    if (encode(data, &dtext, &dlen) != 0) {
        rs->failed = 1;
        return 1;
    }
    if (reserve(rs, sizeof(head) + 64 + lroom + 12 + groom + 24 + mroom + dlen + 4) != 0)
        return 1;
    put(rs, &at, head, sizeof(head) - 1);
    PUT_LIT(rs, &at, ",\"method\":\"notifications/message\",\"params\":{\"level\":");
    put_str(rs, &at, level);
    if (logger != NULL) {
        PUT_LIT(rs, &at, ",\"logger\":");
        put_str(rs, &at, logger);
    }
    PUT_LIT(rs, &at, ",\"data\":");
    if (dtext != NULL) {
        put(rs, &at, dtext, dlen);
    } else {
        PUT_LIT(rs, &at, "{\"message\":");
        put_str(rs, &at, message);
        PUT_LIT(rs, &at, "}");
    }
    PUT_LIT(rs, &at, "}");
    finish(rs, at);
    return 1;
}

int mc__rs_fast_send(mc_refserver_t *rs, const rs_fast_msg_t *m)
{
    switch (m->kind) {
    case RS_FAST_RESULT:
        return result_text(rs, m->id, m->body);
    case RS_FAST_EMPTY:
        if (!mc__rs_splice_ok(rs))
            return 0;
        mc__rs_result_body(rs, m->id, "{}", 2);
        return 1;
    case RS_FAST_TOOL_TEXT:
        return tool_text_result(rs, m->id, m->text, m->is_error);
    case RS_FAST_ERROR:
        return error_text(rs, m->id, m->code, m->text, m->body);
    case RS_FAST_NOTIFY:
        return method_text(rs, 0, 0, m->method, m->body);
    case RS_FAST_REQUEST:
        return method_text(rs, 1, m->out_id, m->method, m->body);
    case RS_FAST_LOG:
        return log_text(rs, m->level, m->logger, m->body, m->text);
    }
    return 0;
}

int mc__rs_out_reserve(mc_refserver_t *rs, size_t n)
{
    char *nb;
    size_t cap;

    if (n <= rs->out_cap)
        return 0;
    if (n > MC_MAX_MESSAGE_SIZE)
        return -1;
    cap = rs->out_cap ? rs->out_cap : 4096;
    while (cap < n)
        cap *= 2;
    if (cap > MC_MAX_MESSAGE_SIZE)
        cap = MC_MAX_MESSAGE_SIZE;
    nb = realloc(rs->out, cap);
    if (nb == NULL)
        return -1;
    rs->out = nb;
    rs->out_cap = cap;
    return 0;
}

int mc__rs_splice_ok(const mc_refserver_t *rs)
{
    return mc__rs_text_ok(rs) && rs->phase != RS_PHASE_NEW;
}
