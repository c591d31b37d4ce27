/*
 * jsonrpc_decode_fuzzer.c - the newline framer and the JSON-RPC decoder.
 *
 * Input: a byte stream as a peer would write it. It is framed twice:
 *  1. with a tiny line cap (32 bytes) in small chunks whose sizes come from a
 *     hash of the input, the callback sometimes asking to stop (so the
 *     "consumed" path is used), to stress partial lines, CRLF at chunk
 *     edges and oversize skipping;
 *  2. in one chunk with a cap above the input size; each line is then
 *     decoded and classified.
 *
 * Oracle (abort() on a violation, besides the sanitizers):
 *  - framing is lossless: the frames put back together (data, "\r" for
 *    CRLF, "\n", skipped counts for oversize lines) give the input exactly;
 *  - the exact syntax check and json-c agree: a line that passes
 *    mc_json_syntax_check (and holds no NUL) must parse with mc_json_parse;
 *  - a parsed value re-encodes (mc_json_encode_line) as one line ending in a
 *    single "\n" that parses back to an equal value;
 *  - the classifier's fields fit the kind it returns (a request has a method
 *    and a valid id, a result has a valid id and a result, ...);
 *  - the fast tree builder (core/jsonfast.h) builds only what json-c's strict
 *    tokener builds: whatever it takes, json-c takes too, to an equal value
 *    with the same text, with and without the key buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/error.h"
#include "core/frame.h"
#include "core/hash.h"
#include "core/jsonfast.h"
#include "core/jsonrpc.h"
#include "core/jsonsyntax.h"
#include "core/limits.h"

#define SMALL_CAP 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct check {
    const uint8_t *in;
    size_t size;
    size_t pos;      /* how much of the input the frames so far account for */
    uint32_t rng;    /* decides when the callback asks to stop */
    int decode;      /* decode each line (pass 2) */
} check_t;

static uint32_t next_rng(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

static void expect_bytes(check_t *c, const char *p, size_t n, const char *what)
{
    if (c->pos + n > c->size || (n > 0 && memcmp(c->in + c->pos, p, n) != 0))
        mc_fuzz_fail(what, (const char *)c->in, c->size);
    c->pos += n;
}

static void check_classified(const mc_msg_t *m, const char *line, size_t len)
{
    switch (m->kind) {
    case MC_MSG_REQUEST:
        if (m->method == NULL || !mc_jsonrpc_id_valid(m->id))
            mc_fuzz_fail("a request without a method or a valid id", line, len);
        break;
    case MC_MSG_NOTIFICATION:
        if (m->method == NULL || m->id != NULL)
            mc_fuzz_fail("a notification without a method, or with an id", line, len);
        break;
    case MC_MSG_RESULT:
        if (!mc_jsonrpc_id_valid(m->id) || !json_object_object_get_ex(m->root, "result", NULL))
            mc_fuzz_fail("a result without a valid id or a result member", line, len);
        break;
    case MC_MSG_ERROR:
        if (m->error == NULL || m->error_message == NULL ||
            (m->id != NULL && !mc_jsonrpc_id_valid(m->id)))
            mc_fuzz_fail("an error response without an error object or message", line, len);
        break;
    default:
        if (m->reason[0] == '\0' ||
            (m->rpc_error != MC_RPC_PARSE_ERROR && m->rpc_error != MC_RPC_INVALID_REQUEST))
            mc_fuzz_fail("an invalid message without a reason or a JSON-RPC code", line, len);
        break;
    }
}

/* json-c's strict tokener on line (NULL when it refuses it). */
static json_object *strict_parse(const char *line, size_t len)
{
    json_tokener *tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    json_object *v;

    if (tok == NULL || len > INT32_MAX) {
        json_tokener_free(tok);
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    v = json_tokener_parse_ex(tok, line, (int)len);
    if (v != NULL) { /* only JSON whitespace may follow the value */
        size_t i;
        for (i = json_tokener_get_parse_end(tok); i < len; i++)
            if (strchr(" \t\r\n", line[i]) == NULL || line[i] == '\0') {
                json_object_put(v);
                v = NULL;
                break;
            }
    }
    json_tokener_free(tok);
    return v;
}

/* The fast builder against json-c's strict tokener, with keys (a key
 * buffer) or without (NULL). */
static void check_fast(const char *line, size_t len, mc_json_keys_t *keys)
{
    json_object *fast = NULL, *slow;
    int rc = mc_json_fast_parse(line, len, MC_MAX_JSON_DEPTH, keys, &fast);

    if (rc != MC_OK) {
        if (rc != MC_EUNSUPPORTED && rc != MC_ENOMEM)
            mc_fuzz_fail("the fast builder failed with an unexpected status", line, len);
        return;
    }
    slow = strict_parse(line, len);
    if (slow == NULL)
        mc_fuzz_fail("the fast builder took what json-c's strict tokener refuses", line, len);
    if (!json_object_equal(fast, slow) ||
        strcmp(json_object_to_json_string_ext(fast, JSON_C_TO_STRING_PLAIN),
               json_object_to_json_string_ext(slow, JSON_C_TO_STRING_PLAIN)) != 0)
        mc_fuzz_fail("the fast builder built another value than json-c", line, len);
    json_object_put(slow);
    json_object_put(fast);
}

/* Decodes one line and checks the decoder's promises. */
static void check_line(const char *line, size_t len)
{
    json_object *v = NULL, *back = NULL;
    mc_errbuf_t eb;
    size_t at = 0, n = 0;
    const char *what = NULL;
    char *enc = NULL;
    int syn, rc;
    mc_msg_t m;

    syn = mc_json_syntax_check(line, len, MC_MAX_JSON_DEPTH, &at, &what);
    if (syn != MC_OK && (what == NULL || at > len))
        mc_fuzz_fail("the syntax check failed without saying where", line, len);
    mc_errbuf_clear(&eb);
    rc = mc_json_parse(line, len, 0, &v, &eb);
    if (rc != MC_OK && !eb.set)
        mc_fuzz_fail("mc_json_parse failed without a message", line, len);
    if (syn == MC_OK && memchr(line, '\0', len) == NULL && rc != MC_OK) {
        fprintf(stderr, "mc_json_parse: %s (%s)\n", eb.msg, mc_err_name(rc));
        mc_fuzz_fail("valid RFC 8259 JSON (per the syntax check) was refused by mc_json_parse",
                     line, len);
    }
    if (rc == MC_OK && syn != MC_OK)
        mc_fuzz_fail("mc_json_parse accepted what the syntax check refused", line, len);
    if (rc == MC_OK) {
        rc = mc_json_encode_line(v, &enc, &n);
        if (v != NULL && rc != MC_OK && rc != MC_ETOOBIG)
            mc_fuzz_fail("a parsed value could not be encoded", line, len);
        if (v != NULL && rc == MC_OK) {
            if (n == 0 || enc[n - 1] != '\n' || memchr(enc, '\n', n - 1) != NULL)
                mc_fuzz_fail("an encoded line is not exactly one line", enc, n);
            mc_errbuf_clear(&eb);
            if (mc_json_parse(enc, n - 1, 0, &back, &eb) != MC_OK) {
                fprintf(stderr, "re-parse: %s\n", eb.msg);
                mc_fuzz_fail("an encoded value does not parse back", enc, n);
            }
            if (!json_object_equal(v, back))
                mc_fuzz_fail("an encoded value parses back to a different value", enc, n);
            json_object_put(back);
        }
        free(enc);
        json_object_put(v);
    }
    check_fast(line, len, NULL);
    {
        mc_json_keys_t keys = {0};
        check_fast(line, len, &keys);
        mc_json_keys_free(&keys);
    }
    rc = mc_msg_decode(line, len, 0, &m);
    if ((rc == MC_OK) != (m.kind != MC_MSG_INVALID || m.root != NULL || syn == MC_OK))
        mc_fuzz_fail("mc_msg_decode's status disagrees with its message", line, len);
    check_classified(&m, line, len);
    mc_msg_free(&m);
}

static int on_frame(void *ctx, const mc_frame_t *f)
{
    check_t *c = ctx;

    switch (f->kind) {
    case MC_FRAME_LINE:
    case MC_FRAME_EMPTY:
        if (f->kind == MC_FRAME_EMPTY && f->len != 0)
            mc_fuzz_fail("an empty frame with bytes", NULL, 0);
        if (f->kind == MC_FRAME_LINE && (f->len == 0 || f->data == NULL))
            mc_fuzz_fail("a line frame without bytes", NULL, 0);
        if (((f->flags & MC_FRAME_F_NUL) != 0) != (f->len > 0 && memchr(f->data, '\0', f->len)))
            mc_fuzz_fail("the NUL flag is wrong", f->data, f->len);
        expect_bytes(c, f->data, f->len, "a frame's bytes differ from the input");
        if (f->flags & MC_FRAME_F_CRLF)
            expect_bytes(c, "\r", 1, "a CRLF frame without its \\r in the input");
        expect_bytes(c, "\n", 1, "a frame ends where the input has no newline");
        if (c->decode && f->kind == MC_FRAME_LINE)
            check_line(f->data, f->len);
        break;
    case MC_FRAME_OVERSIZE:
        if (f->data != NULL)
            mc_fuzz_fail("an oversize frame with data", NULL, 0);
        if (c->pos + f->len > c->size)
            mc_fuzz_fail("an oversize frame skipped more than the input holds",
                         (const char *)c->in, c->size);
        c->pos += f->len;
        if (c->pos < c->size)
            expect_bytes(c, "\n", 1, "an oversize line does not end at a newline");
        break;
    case MC_FRAME_TRUNCATED:
        expect_bytes(c, f->data, f->len, "the truncated tail differs from the input");
        if (c->pos != c->size)
            mc_fuzz_fail("a truncated frame that is not the end of the input",
                         (const char *)c->in, c->size);
        if (c->decode)
            check_line(f->data, f->len);
        break;
    }
    /* Pass 1 sometimes asks the framer to stop; the rest is fed again. */
    return !c->decode && (next_rng(&c->rng) & 7) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_framer_t f;
    check_t c;
    size_t off = 0;
    uint32_t h;

    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    h = mc_fnv1a32(MC_FNV1A32_INIT, data, size < 64 ? size : 64);
    h ^= (uint32_t)size;

    /* Pass 1: tiny cap, small chunks, stops. */
    memset(&c, 0, sizeof(c));
    c.in = data;
    c.size = size;
    c.rng = h;
    mc_framer_init(&f, SMALL_CAP);
    while (off < size) {
        size_t chunk = 1 + next_rng(&h) % 24, used = 0;
        if (chunk > size - off)
            chunk = size - off;
        if (mc_framer_feed(&f, (const char *)data + off, chunk, on_frame, &c, &used) != MC_OK)
            mc_fuzz_fail("the framer ran out of memory", NULL, 0);
        if (used > chunk)
            mc_fuzz_fail("the framer consumed more than it was given", NULL, 0);
        off += used;
        if (mc_framer_pending(&f) > SMALL_CAP + 1 && !f.skipping)
            mc_fuzz_fail("the framer holds more than its cap", NULL, 0);
    }
    mc_framer_finish(&f, on_frame, &c);
    mc_framer_finish(&f, on_frame, &c); /* idempotent */
    mc_framer_free(&f);
    if (c.pos != size)
        mc_fuzz_fail("the frames do not account for the whole input (pass 1)",
                     (const char *)data, size);

    /* Pass 2: one chunk, no cap in the way; decode every line. */
    memset(&c, 0, sizeof(c));
    c.in = data;
    c.size = size;
    c.decode = 1;
    mc_framer_init(&f, MC_FUZZ_MAX_INPUT + 2);
    if (mc_framer_feed(&f, (const char *)data, size, on_frame, &c, NULL) != MC_OK)
        mc_fuzz_fail("the framer ran out of memory", NULL, 0);
    mc_framer_finish(&f, on_frame, &c);
    mc_framer_free(&f);
    if (c.pos != size)
        mc_fuzz_fail("the frames do not account for the whole input (pass 2)",
                     (const char *)data, size);
    return 0;
}
