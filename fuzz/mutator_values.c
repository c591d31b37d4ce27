/*
 * mutator_values.c - the values the mutator splices into a message: raw
 * nodes (json-c objects whose serializer writes given bytes verbatim, for
 * malformed numbers, strings and duplicated keys), boundary numbers, odd
 * strings, dictionary words, random values and deep nesting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

#include "mcp_words.inc"
#include "mutator_internal.h"

/* ---- raw nodes ---- */

static int raw_to_string(json_object *jso, struct printbuf *pb, int level, int flags)
{
    raw_t *r = json_object_get_userdata(jso);

    (void)level;
    (void)flags;
    return printbuf_memappend(pb, r->text, r->len) < 0 ? -1 : 0;
}

static void raw_delete(json_object *jso, void *userdata)
{
    (void)jso;
    free(userdata);
}

/* A node that serializes as text[0..len) exactly. New reference or NULL. */
static json_object *new_raw(const char *text, size_t len)
{
    json_object *o;
    raw_t *r;

    if (len > MAX_RAW)
        return NULL;
    r = malloc(sizeof(*r) + len + 1);
    if (r == NULL)
        return NULL;
    o = json_object_new_string("");
    if (o == NULL) {
        free(r);
        return NULL;
    }
    r->len = (int)len;
    memcpy(r->text, text, len);
    r->text[len] = '\0';
    json_object_set_serializer(o, raw_to_string, r, raw_delete);
    return o;
}

int mc__mut_is_raw(json_object *o)
{
    return o != NULL && json_object_is_type(o, json_type_string) &&
           json_object_get_userdata(o) != NULL;
}

/* ---- value makers ---- */

const char *mc__mut_dict_word(rng_t *r)
{
    switch (below(r, 4)) {
    case 0:
        return mc_fuzz_words_methods[below(r, COUNT(mc_fuzz_words_methods))];
    case 1:
        return mc_fuzz_words_keys[below(r, COUNT(mc_fuzz_words_keys))];
    case 2:
        return mc_fuzz_words_values[below(r, COUNT(mc_fuzz_words_values))];
    default:
        return mc_fuzz_words_defs[below(r, COUNT(mc_fuzz_words_defs))];
    }
}

json_object *mc__mut_boundary_number(rng_t *r)
{
    static const int64_t ints[] = {0,          1,           -1,         2,
                                   127,        128,         255,        256,
                                   32767,      65535,       65536,      2147483647,
                                   2147483648, -2147483648, 4294967295, 4294967296,
                                   INT64_MAX,  INT64_MIN,   INT64_MAX - 1, 1000000};
    /* Valid JSON numbers json-c may not round-trip, then invalid ones. */
    static const char *const texts[] = {
        "-0", "0.0", "1.0", "0.5", "1e2", "1E+2", "1e-2", "1e308", "1e309", "-1e309", "1e-400",
        "4.9e-324", "9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616", "123456789012345678901234567890", "0.1e1", "100e-2",
        /* not JSON */
        "01", "-01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "NaN", "Infinity", "-Infinity",
        "1_000", "1.5.5"};

    if (below(r, 2) == 0)
        return json_object_new_int64(ints[below(r, COUNT(ints))]);
    {
        const char *t = texts[below(r, COUNT(texts))];
        return new_raw(t, strlen(t));
    }
}

json_object *mc__mut_odd_string(rng_t *r, size_t room)
{
    static const char *const utf8_bad[] = {
        "\xff",         "\xc0\x80",     "\xc1\xbf",         "\xed\xa0\x80", "\xed\xbf\xbf",
        "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82", "\x80",     "a\xe9z",
        "\xef\xbf\xbe",  "\xf0\x9f\x98\x80"};
    /* Raw string tokens: escapes and bytes the JSON grammar refuses or
     * that stress decoders. */
    static const char *const raw_tokens[] = {
        "\"\\ud800\"",    "\"\\udc00\"",      "\"\\ud800\\u0041\"", "\"\\ud83d\\ude00\"",
        "\"\\u0000\"",    "\"a\\u0000b\"",    "\"\\uFFFF\"",        "\"\\x41\"",
        "\"\\'\"",        "\"\t\"",           "\"a\x01z\"",         "\"\x7f\"",
        "'single'",       "\"unterminated",   "\"\\u12\"",          "\"\\uZZZZ\"",
        "\"\\/\"",        "\"\\\"\""};
    static const char *const paths[] = {
        "file:///etc/passwd", "file://localhost/etc/passwd", "file:///tmp/../etc/passwd",
        "file:///%2e%2e/%2e%2e/etc/passwd", "file:///a%00b", "file://host/share/x",
        "file:///", "file://", "test://static-text", "test://template/1/data",
        "test://template//data", "test://template/../data", "test://watched-resource",
        "test://nope", "../../..", "%", "%zz", "a?b#c", "C:\\Windows", "\\\\?\\C:\\x"};
    switch (below(r, 7)) {
    case 0:
        return json_object_new_string("");
    case 1: { /* long: a word repeated */
        const char *w = below(r, 2) ? mc__mut_dict_word(r) : "A";
        size_t wl = strlen(w), target = (size_t)1 << (6 + below(r, 9)), n = 0;
        char *buf;
        json_object *o;
        if (target > room / 2)
            target = room / 2;
        if (target < wl)
            target = wl;
        buf = malloc(target + 1);
        if (buf == NULL)
            return NULL;
        while (n + wl <= target) {
            memcpy(buf + n, w, wl);
            n += wl;
        }
        o = json_object_new_string_len(buf, (int)n);
        free(buf);
        return o;
    }
    case 2: {
        const char *b = utf8_bad[below(r, COUNT(utf8_bad))];
        char buf[32];
        size_t n = strlen(b);
        /* Bad bytes alone or inside a word. */
        if (below(r, 2)) {
            memcpy(buf, "ab", 2);
            memcpy(buf + 2, b, n);
            memcpy(buf + 2 + n, "cd", 2);
            return json_object_new_string_len(buf, (int)(n + 4));
        }
        return json_object_new_string_len(b, (int)n);
    }
    case 3:
        return json_object_new_string_len("a\0b", 3);
    case 4: {
        const char *t = raw_tokens[below(r, COUNT(raw_tokens))];
        return new_raw(t, strlen(t));
    }
    case 5:
        return json_object_new_string(paths[below(r, COUNT(paths))]);
    default:
        return json_object_new_string(mc__mut_dict_word(r));
    }
}

json_object *mc__mut_random_value(rng_t *r, size_t room)
{
    switch (below(r, 9)) {
    case 0:
        return NULL; /* JSON null */
    case 1:
        return json_object_new_boolean((int)below(r, 2));
    case 2:
        return mc__mut_boundary_number(r);
    case 3:
        return json_object_new_double(below(r, 2) ? 0.5 : -1.25);
    case 4:
    case 5:
        return mc__mut_odd_string(r, room);
    case 6:
        return json_object_new_array();
    case 7:
        return json_object_new_object();
    default:
        return json_object_new_string(mc__mut_dict_word(r));
    }
}

/* A deep copy, or NULL when v holds raw nodes json-c cannot copy. */
json_object *mc__mut_copy_of(json_object *v, int *ok)
{
    json_object *c = NULL;

    *ok = v == NULL || json_object_deep_copy(v, &c, NULL) == 0;
    return c;
}

/* Replaces an object node by a raw copy of itself with one member twice. */
json_object *mc__mut_dup_key_raw(rng_t *r, json_object *obj)
{
    const char *whole, *ks, *vs;
    struct printbuf *pb;
    json_object *o = NULL, *key;
    size_t n = (size_t)json_object_object_length(obj), pick, i = 0;
    int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

    if (n == 0)
        return NULL;
    pick = below(r, n);
    json_object_object_foreach(obj, k, val)
    {
        if (i++ != pick)
            continue;
        pb = printbuf_new();
        key = json_object_new_string(k);
        if (pb == NULL || key == NULL) {
            printbuf_free(pb);
            json_object_put(key);
            return NULL;
        }
        whole = json_object_to_json_string_ext(obj, flags);
        ks = json_object_to_json_string_ext(key, flags);
        vs = val == NULL ? "null" : json_object_to_json_string_ext(val, flags);
        if (whole != NULL && ks != NULL && vs != NULL && whole[0] == '{') {
            /* {"k":v, + the rest of the object after its "{" */
            printbuf_memappend(pb, "{", 1);
            printbuf_memappend(pb, ks, (int)strlen(ks));
            printbuf_memappend(pb, ":", 1);
            printbuf_memappend(pb, vs, (int)strlen(vs));
            printbuf_memappend(pb, ",", 1);
            printbuf_memappend(pb, whole + 1, (int)strlen(whole + 1));
            o = new_raw(pb->buf, (size_t)pb->bpos);
        }
        json_object_put(key);
        printbuf_free(pb);
        break;
    }
    return o;
}

/* Wraps v (consumed) in depth arrays or objects. */
json_object *mc__mut_nest(rng_t *r, json_object *v, int depth)
{
    int i, as_obj = (int)below(r, 2);
    const char *open = as_obj ? "{\"a\":" : "[", *close = as_obj ? "}" : "]";
    size_t n = 0, no = strlen(open), at = 0;
    const char *text = v == NULL
                           ? "null"
                           : json_object_to_json_string_length(
                                 v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
    char *buf;
    json_object *raw;

    /* Written as one raw node (the bytes a tree of `depth` containers would
     * serialize to): a few allocations instead of three per level. */
    if (v == NULL)
        n = 4;
    if (text != NULL && mc__mut_is_raw(v))
        n = (size_t)((raw_t *)json_object_get_userdata(v))->len;
    buf = text != NULL ? malloc((size_t)depth * (no + 1) + n + 1) : NULL;
    if (buf != NULL) {
        for (i = 0; i < depth; i++, at += no)
            memcpy(buf + at, open, no);
        memcpy(buf + at, text, n);
        at += n;
        for (i = 0; i < depth; i++)
            buf[at++] = close[0];
        raw = new_raw(buf, at);
        free(buf);
        if (raw != NULL) {
            json_object_put(v);
            return raw;
        }
    }
    for (i = 0; i < depth; i++) {
        json_object *c = as_obj ? json_object_new_object() : json_object_new_array();
        if (c == NULL) {
            json_object_put(v);
            return NULL;
        }
        if (as_obj)
            json_object_object_add(c, "a", v);
        else
            json_object_array_add(c, v);
        v = c;
    }
    return v;
}
