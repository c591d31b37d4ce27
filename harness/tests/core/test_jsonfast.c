/*
 * Unit tests for the fast JSON builder (core/jsonfast.h): whatever it takes
 * it must build exactly as json-c's strict tokener does, and it must decline
 * what it does not take.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/error.h"
#include "core/jsonfast.h"
#include "core/limits.h"

/* Mutated inputs tried per seed document in the differential test. */
#define MUTATIONS_PER_SEED 4000
/* Largest mutated document. */
#define MUTANT_MAX 512

/* json-c's verdict with the tokener flags given (mcpcheck validate's
 * strict ones, or none as trace records are read); NULL when it refuses (or
 * for JSON null, never a seed here). */
static json_object *jsonc_parse(const char *s, size_t n, int flags, int *ok)
{
    json_tokener *tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    json_object *v;
    enum json_tokener_error err;

    assert_non_null(tok);
    json_tokener_set_flags(tok, flags);
    v = json_tokener_parse_ex(tok, s, (int)n);
    err = json_tokener_get_error(tok);
    *ok = err == json_tokener_success;
    if (*ok) {
        size_t end = json_tokener_get_parse_end(tok);
        for (; end < n; end++)
            if (s[end] != ' ' && s[end] != '\t' && s[end] != '\r' && s[end] != '\n')
                *ok = 0;
    }
    json_tokener_free(tok);
    if (!*ok) {
        json_object_put(v);
        v = NULL;
    }
    return v;
}

/* The same tree: equal values, same key order and number texts. */
static int same_tree(json_object *a, json_object *b)
{
    const int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
    size_t la = 0, lb = 0;
    const char *sa = json_object_to_json_string_length(a, flags, &la);
    const char *sb = json_object_to_json_string_length(b, flags, &lb);

    return json_object_equal(a, b) && la == lb && memcmp(sa, sb, la) == 0;
}

/* Returns 1 when the fast path took s (and then checks it against json-c),
 * 0 when it declined. */
static int check_one(const char *s, size_t n, mc_json_keys_t *keys)
{
    json_object *fast = NULL, *ref;
    int ok, rc = mc_json_fast_parse(s, n, MC_MAX_JSON_DEPTH, keys, &fast);

    if (rc != MC_OK) {
        assert_int_equal(rc, MC_EUNSUPPORTED);
        return 0;
    }
    ref = jsonc_parse(s, n, 0, &ok);
    if (!ok || !same_tree(fast, ref))
        fail_msg("fast path differs from lenient json-c on %.*s", (int)n, s);
    json_object_put(ref);
    ref = jsonc_parse(s, n, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8, &ok);
    if (!ok || !same_tree(fast, ref))
        fail_msg("fast path differs from json-c on %.*s", (int)n, s);
    json_object_put(fast);
    /* Without a key buffer the objects own their keys; the same tree. */
    fast = NULL;
    assert_int_equal(mc_json_fast_parse(s, n, MC_MAX_JSON_DEPTH, NULL, &fast), MC_OK);
    if (!same_tree(fast, ref))
        fail_msg("fast path without a key buffer differs from json-c on %.*s", (int)n, s);
    json_object_put(ref);
    json_object_put(fast);
    return 1;
}

static int took(const char *s)
{
    mc_json_keys_t keys = {NULL, 0};
    int r = check_one(s, strlen(s), &keys);

    mc_json_keys_free(&keys);
    return r;
}

static void test_takes_plain_json(void **state)
{
    static const char *const docs[] = {
        "{}",
        "[]",
        " \t{\"a\":1}\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"resources\":[{\"uri\":\"file:///a\","
        "\"name\":\"a\",\"size\":12}],\"nextCursor\":null}}",
        "[1,-1,0,-0,123456789012345678,-123456789012345678]",
        "[1.5,1.50,-0.0,1e2,1E+2,2.5e-3,1e400,-1e400,0.1]",
        "[true,false,null,[],{},[[[]]],{\"a\":{\"b\":{}}}]",
        "{\"k\":\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t end\"}",
        "{\"u\":\"\\u00e9\\u20ac\\u0041\\u007f\\u0080\\u07ff\\u0800\\uffff\"}",
        "{\"utf8\":\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"}",
        "{\"\\u00e9t\\u00e9\":1,\"a\\nb\":2,\"\":3}",
        "{\"dup\":1,\"x\":2,\"dup\":[3]}",
        "[ 1 , 2 ,\n3 ]",
        "{ \"a\" : [ { } , [ ] ] }",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
        if (!took(docs[i]))
            fail_msg("declined %s", docs[i]);
}

static void test_declines(void **state)
{
    static const char *const docs[] = {
        "",
        "   ",
        "1",
        "\"s\"",
        "null",
        "true", /* top-level scalars: json-c's own path */
        "{",
        "[1,]",
        "{\"a\":1,}",
        "{'a':1}",
        "{a:1}",
        "[01]",
        "[1.]",
        "[.5]",
        "[-]",
        "[1e]",
        "[+1]",
        "[NaN]",
        "[Infinity]",
        "[tru]",
        "[nul]",
        "{\"a\" 1}",
        "{}{}",
        "[] x",
        "[\"a\tb\"]", /* raw control character */
        "[\"\\x\"]",
        "[\"\\u12\"]",
        "[\"\\u12g4\"]", /* bad escapes */
        "[\"\\ud83d\\ude00\"]",
        "[\"\\ud83d\"]", /* surrogates: json-c's rules */
        "[\"\\u0000\"]",
        "{\"\\u0000\":1}", /* U+0000 */
        "[1234567890123456789]",
        "[-1234567890123456789]", /* json-c's overflow rules */
        "[\"\xc0\xaf\"]",
        "[\"\xe0\x80\xaf\"]",
        "[\"\xed\xa0\x80\"]",
        "[\"\xf4\x90\x80\x80\"]",
        "[\"\xc3\"]",
        "[\"\x80\"]",
        "[\"\xff\"]",
        "[\"abc",
        "\xef\xbb\xbf{}",
        "[\f1]",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
        if (took(docs[i]))
            fail_msg("took %s", docs[i]);
}

static void test_depth(void **state)
{
    char doc[2 * MC_MAX_JSON_DEPTH + 8];
    int depth, taken_max = 0;

    (void)state;
    for (depth = 1; depth <= MC_MAX_JSON_DEPTH + 1; depth++) {
        int i;
        for (i = 0; i < depth; i++) {
            doc[i] = '[';
            doc[depth + i] = ']';
        }
        doc[2 * depth] = '\0';
        if (took(doc))
            taken_max = depth;
    }
    /* Deep documents are left to json-c's limit, shallow ones are taken. */
    assert_true(taken_max >= MC_MAX_JSON_DEPTH - 4);
    assert_true(taken_max < MC_MAX_JSON_DEPTH);
}

/* A small deterministic generator (xorshift). */
static uint32_t next_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_differential_mutations(void **state)
{
    static const char *const seeds[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resources\":[{\"uri\":\"file:///x.txt\","
        "\"name\":\"x\",\"mimeType\":\"text/plain\",\"size\":-12.5e1}]}}",
        "[\"\\u00e9\\n\",1,[true,false,null],{\"k\\\"\":\"v\xc3\xa9\"},-0.5,10]",
        "{\"a\":{\"b\":[1,2,{\"c\":\"\\/\"}]},\"a\":0}",
    };
    static const char alphabet[] = "{}[]\",:.-+eE0123456789\\/ubntrfal \t\"\x80\xc3\xa9\xff";
    mc_json_keys_t keys = {NULL, 0};
    char buf[MUTANT_MAX];
    uint32_t rnd = 0x9e3779b9u;
    size_t s, taken = 0, tried = 0;

    (void)state;
    for (s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
        size_t base = strlen(seeds[s]);
        int m;
        assert_true(base < MUTANT_MAX / 2);
        for (m = 0; m < MUTATIONS_PER_SEED; m++) {
            size_t n = base, edits = 1 + next_rand(&rnd) % 3, e;
            memcpy(buf, seeds[s], base);
            for (e = 0; e < edits && n > 0; e++) {
                size_t at = next_rand(&rnd) % n;
                char c = alphabet[next_rand(&rnd) % (sizeof(alphabet) - 1)];
                switch (next_rand(&rnd) % 3) {
                case 0: /* replace */
                    buf[at] = c;
                    break;
                case 1: /* insert */
                    if (n + 1 < MUTANT_MAX) {
                        memmove(buf + at + 1, buf + at, n - at);
                        buf[at] = c;
                        n++;
                    }
                    break;
                default: /* delete */
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                    break;
                }
            }
            taken += (size_t)check_one(buf, n, &keys);
            tried++;
        }
    }
    mc_json_keys_free(&keys);
    /* Some mutants stay valid JSON (a digit for a digit, a letter in a
     * string): the comparison must have had something to compare. */
    assert_true(taken > tried / 20);
    assert_true(taken < tried);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_takes_plain_json),
        cmocka_unit_test(test_declines),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_differential_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
