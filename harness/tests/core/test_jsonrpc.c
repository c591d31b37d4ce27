/* Unit tests for the JSON-RPC message model (core/jsonrpc.h) and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/base64.h"
#include "core/error.h"
#include "core/json.h"
#include "core/jsonrpc.h"

static int parse_rc(const char *s)
{
    json_object *v = NULL;
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc_json_parse(s, strlen(s), 0, &v, &eb);
    if (rc == MC_OK)
        json_object_put(v);
    else
        assert_true(eb.set && eb.msg[0] != '\0');
    return rc;
}

static void test_parse_strict(void **state)
{
    (void)state;
    assert_int_equal(parse_rc("{\"a\":1}"), MC_OK);
    assert_int_equal(parse_rc("  {\"a\":1} \r\n"), MC_OK);
    assert_int_equal(parse_rc("{\"a\":1} x"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":1}{}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":1,}"), MC_EPARSE);   /* trailing comma */
    assert_int_equal(parse_rc("{'a':1}"), MC_EPARSE);      /* single quotes */
    assert_int_equal(parse_rc("{\"a\":1 /* c */}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":"), MC_EPARSE);      /* truncated */
    assert_int_equal(parse_rc(""), MC_EPARSE);
    assert_int_equal(parse_rc("   "), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":NaN}"), MC_EPARSE);
    /* Leniencies of json-c's strict mode that the syntax check refuses. */
    assert_int_equal(parse_rc("{\"a\":1.}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":Infinity}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":\"\tb\"}"), MC_EPARSE); /* raw tab */
    assert_int_equal(parse_rc("{\"a\":01}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":.5}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":1e}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\":\"\\x41\"}"), MC_EPARSE);
    assert_int_equal(parse_rc("[1,]"), MC_EPARSE);
    assert_int_equal(parse_rc("[1}"), MC_EPARSE);
    assert_int_equal(parse_rc("{\"a\" 1}"), MC_EPARSE);
    /* Top-level scalars are JSON too (and then not JSON-RPC messages). */
    assert_int_equal(parse_rc("42"), MC_OK);
    assert_int_equal(parse_rc("null"), MC_OK);
    assert_int_equal(parse_rc("-0.5e+3"), MC_OK);
    assert_int_equal(parse_rc("{\"a\":\"\\ud83d\\ude00\"}"), MC_OK); /* surrogate pair */
}

static void test_parse_utf8_and_nul(void **state)
{
    const char bad_utf8[] = "{\"a\":\"\xC3\x28\"}";
    const char with_nul[] = "{\"a\":1}\0";
    json_object *v = NULL;

    (void)state;
    assert_int_equal(parse_rc("{\"a\":\"\xC3\xA9\"}"), MC_OK);
    assert_int_equal(parse_rc(bad_utf8), MC_EUTF8);
    assert_int_equal(parse_rc("{\"a\":\"\xC0\xAF\"}"), MC_EUTF8);         /* overlong */
    assert_int_equal(parse_rc("{\"a\":\"\xED\xA0\x80\"}"), MC_EUTF8);     /* surrogate */
    assert_int_equal(parse_rc("{\"a\":\"\xF4\x90\x80\x80\"}"), MC_EUTF8); /* > U+10FFFF */
    assert_int_equal(parse_rc("{\"a\":\"\\ud800\"}"), MC_EUTF8);         /* lone escape */
    assert_int_equal(parse_rc("{\"a\":\"\\udc00x\"}"), MC_EUTF8);
    assert_int_equal(mc_json_parse(with_nul, sizeof(with_nul) - 1, 0, &v, NULL), MC_EPARSE);
    assert_null(v);
}

static void test_parse_depth_limit(void **state)
{
    char buf[512];
    size_t i, n = 0;

    (void)state;
    for (i = 0; i < 40; i++)
        buf[n++] = '[';
    for (i = 0; i < 40; i++)
        buf[n++] = ']';
    buf[n] = '\0';
    {
        json_object *v = NULL;
        assert_int_equal(mc_json_parse(buf, n, 64, &v, NULL), MC_OK);
        json_object_put(v);
        v = NULL;
        assert_int_equal(mc_json_parse(buf, n, 10, &v, NULL), MC_ETOODEEP);
        assert_null(v);
    }
}

typedef struct cls_case {
    const char *json;
    mc_msg_kind_t kind;
    const char *reason_part; /* for invalid: a word the reason must contain */
} cls_case_t;

static void test_classify_table(void **state)
{
    static const cls_case_t cases[] = {
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", MC_MSG_REQUEST, NULL},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"x\",\"params\":{}}", MC_MSG_REQUEST, NULL},
        {"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", MC_MSG_NOTIFICATION,
         NULL},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", MC_MSG_RESULT, NULL},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no\"}}",
         MC_MSG_ERROR, NULL},
        {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"p\"}}",
         MC_MSG_ERROR, NULL},
        {"{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"p\"}}", MC_MSG_ERROR, NULL},
        {"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", MC_MSG_INVALID, "batch"},
        {"42", MC_MSG_INVALID, "not an object"},
        {"{\"id\":1,\"method\":\"ping\"}", MC_MSG_INVALID, "jsonrpc"},
        {"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", MC_MSG_INVALID, "2.0"},
        {"{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", MC_MSG_INVALID, "2.0"},
        {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", MC_MSG_INVALID, "id"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", MC_MSG_INVALID, "id"},
        {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", MC_MSG_INVALID, "id"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", MC_MSG_INVALID, "method"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":3}", MC_MSG_INVALID, "params"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1,\"message\":\"\"}}",
         MC_MSG_INVALID, "both"},
        {"{\"jsonrpc\":\"2.0\",\"result\":{}}", MC_MSG_INVALID, "id"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,\"message\":\"x\"}}",
         MC_MSG_INVALID, "code"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}", MC_MSG_INVALID, "message"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"boom\"}", MC_MSG_INVALID, "object"},
        {"{\"jsonrpc\":\"2.0\"}", MC_MSG_INVALID, "none"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"result\":{}}", MC_MSG_INVALID, "both"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        mc_msg_t m;
        int rc = mc_msg_decode(cases[i].json, strlen(cases[i].json), 0, &m);
        if (m.kind != cases[i].kind)
            fail_msg("case %zu %s: kind %s, expected %s (%s)", i, cases[i].json,
                     mc_msg_kind_name(m.kind), mc_msg_kind_name(cases[i].kind), m.reason);
        assert_int_equal(rc, MC_OK);
        if (cases[i].reason_part != NULL && strstr(m.reason, cases[i].reason_part) == NULL)
            fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, m.reason, cases[i].reason_part);
        if (cases[i].kind == MC_MSG_INVALID)
            assert_int_equal(m.rpc_error, MC_RPC_INVALID_REQUEST);
        mc_msg_free(&m);
    }
}

static void test_classify_fields(void **state)
{
    const char *s =
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32002,\"message\":\"Resource not "
        "found\",\"data\":{\"uri\":\"x://y\"}}}";
    mc_msg_t m;

    (void)state;
    assert_int_equal(mc_msg_decode(s, strlen(s), 0, &m), MC_OK);
    assert_int_equal(m.kind, MC_MSG_ERROR);
    assert_int_equal(m.error_code, -32002);
    assert_string_equal(m.error_message, "Resource not found");
    assert_int_equal(json_object_get_int64(m.id), 7);
    mc_msg_free(&m);

    assert_int_equal(mc_msg_decode("{nope", 5, 0, &m), MC_EPARSE);
    assert_int_equal(m.kind, MC_MSG_INVALID);
    assert_int_equal(m.rpc_error, MC_RPC_PARSE_ERROR);
    assert_null(m.root);
    mc_msg_free(&m);
}

static void test_encode_round_trip(void **state)
{
    json_object *params = json_object_new_object();
    json_object *req;
    char *line = NULL;
    size_t len = 0;
    mc_msg_t m;

    (void)state;
    json_object_object_add(params, "text", json_object_new_string("two\nlines\r\tand \"quotes\" é/"));
    req = mc_jsonrpc_request(json_object_new_int(3), "tools/call", params);
    assert_non_null(req);
    assert_int_equal(mc_json_encode_line(req, &line, &len), MC_OK);
    assert_true(len > 1);
    assert_int_equal(line[len - 1], '\n');
    assert_null(memchr(line, '\n', len - 1));
    assert_int_equal(mc_msg_decode(line, len - 1, 0, &m), MC_OK);
    assert_int_equal(m.kind, MC_MSG_REQUEST);
    assert_string_equal(m.method, "tools/call");
    assert_true(json_object_equal(m.root, req));
    mc_msg_free(&m);
    free(line);
    json_object_put(req);
}

static void test_builders(void **state)
{
    json_object *e = mc_jsonrpc_error(NULL, -32700, "Parse error", NULL);
    json_object *n = mc_jsonrpc_notification("notifications/initialized", NULL);
    json_object *r = mc_jsonrpc_result(json_object_new_string("abc"), NULL);
    size_t len;

    (void)state;
    assert_string_equal(mc_json_compact(e, &len),
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":"
                        "\"Parse error\"}}");
    assert_string_equal(mc_json_compact(n, &len),
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assert_string_equal(mc_json_compact(r, &len), "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result\":{}}");
    json_object_put(e);
    json_object_put(n);
    json_object_put(r);
}

static void test_id_equal(void **state)
{
    json_object *i1 = json_object_new_int(1), *i1b = json_object_new_int64(1);
    json_object *s1 = json_object_new_string("1"), *d1 = json_object_new_double(1.0);

    (void)state;
    assert_true(mc_jsonrpc_id_equal(i1, i1b));
    assert_false(mc_jsonrpc_id_equal(i1, s1));
    assert_false(mc_jsonrpc_id_equal(i1, d1));
    assert_false(mc_jsonrpc_id_equal(NULL, NULL));
    assert_true(mc_jsonrpc_id_valid(s1));
    assert_false(mc_jsonrpc_id_valid(d1));
    json_object_put(i1);
    json_object_put(i1b);
    json_object_put(s1);
    json_object_put(d1);
}

/* Ids compare by their one text: "/" unescaped, strings quoted, a big
 * integer as itself, a text that does not fit as no id at all. */
static void test_id_text(void **state)
{
    json_object *s = json_object_new_string("a/b"), *s2 = json_tokener_parse("\"a\\/b\"");
    json_object *big = json_object_new_uint64(18446744073709551615ull);
    json_object *big2 = json_tokener_parse("18446744073709551615");
    json_object *neg = json_object_new_int64(-1);
    char t[32];

    (void)state;
    assert_int_equal(mc_id_text(s, t, sizeof(t)), 5);
    assert_string_equal(t, "\"a/b\"");
    assert_true(mc_jsonrpc_id_equal(s, s2)); /* the escaped and the plain slash */
    assert_int_equal(mc_id_text(NULL, t, sizeof(t)), 4);
    assert_string_equal(t, "null");
    assert_int_equal(mc_id_text(big, t, sizeof(t)), 20);
    assert_string_equal(t, "18446744073709551615");
    assert_true(mc_jsonrpc_id_equal(big, big2));
    assert_false(mc_jsonrpc_id_equal(big, neg));
    /* The largest int64 and the smallest uint64 past it are two ids. */
    {
        json_object *imax = json_object_new_int64(INT64_MAX);
        json_object *upast = json_object_new_uint64((uint64_t)INT64_MAX + 1);
        json_object *nul1 = json_object_new_string_len("a\0b", 3);
        json_object *nul2 = json_object_new_string_len("a\0c", 3);
        assert_false(mc_jsonrpc_id_equal(imax, upast));
        assert_int_equal(mc_id_text(imax, t, sizeof(t)), 19);
        assert_string_equal(t, "9223372036854775807");
        assert_int_equal(mc_id_text(upast, t, sizeof(t)), 19);
        assert_string_equal(t, "9223372036854775808");
        assert_false(mc_jsonrpc_id_equal(nul1, nul2));
        json_object_put(imax);
        json_object_put(upast);
        json_object_put(nul1);
        json_object_put(nul2);
    }
    assert_int_equal(mc_id_text(s, t, 5), 0);
    assert_string_equal(t, "");
    json_object_put(s);
    json_object_put(s2);
    json_object_put(big);
    json_object_put(big2);
    json_object_put(neg);
}

static void test_errors_and_errbuf(void **state)
{
    mc_errbuf_t eb;
    char longmsg[2 * MC_ERRBUF_SIZE];
    int codes[] = {MC_ENOMEM, MC_EPARSE, MC_ETIMEOUT, MC_EEOF, MC_ESPAWN, MC_EINVALID};

    (void)state;
    assert_string_equal(mc_strerror(MC_OK), "success");
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        assert_true(codes[i] < 0);
        assert_string_not_equal(mc_strerror(codes[i]), "unknown error");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(mc_strerror(codes[i]), mc_strerror(codes[j]));
    }
    assert_string_equal(mc_err_name(MC_ETIMEOUT), "MC_ETIMEOUT");
    assert_string_equal(mc_strerror(12345), "unknown error");

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_errbuf_set(&eb, MC_EPARSE, "first %d\n", 1), MC_EPARSE);
    assert_int_equal(mc_errbuf_set(&eb, MC_EIO, "second"), MC_EIO);
    assert_string_equal(eb.msg, "first 1");
    mc_errbuf_clear(&eb);
    memset(longmsg, 'x', sizeof(longmsg) - 1);
    longmsg[sizeof(longmsg) - 1] = '\0';
    mc_errbuf_set(&eb, MC_EIO, "%s", longmsg);
    assert_int_equal(strlen(eb.msg), MC_ERRBUF_SIZE - 1);
    assert_int_equal(mc_errbuf_set(NULL, MC_EIO, "ignored"), MC_EIO);
}

static void test_base64_round_trip(void **state)
{
    const unsigned char in[] = {0x00, 0xff, 0x10, 'a', 'b'};
    char out[16];
    unsigned char back[8];
    size_t n;

    (void)state;
    for (n = 0; n <= sizeof(in); n++) {
        mc_base64_encode(in, n, out);
        assert_int_equal(strlen(out), mc_base64_encoded_len(n));
        assert_int_equal(mc_base64_decode(out, strlen(out), back, sizeof(back)), (long)n);
        assert_memory_equal(back, in, n);
    }
    mc_base64_encode((const unsigned char *)"hi", 2, out);
    assert_string_equal(out, "aGk=");
    assert_int_equal(mc_base64_decode("a*b=", 4, back, sizeof(back)), -1);
    assert_int_equal(mc_base64_decode("aGVsbG8=", 8, back, 2), -1); /* too small */
}

static void test_json_helpers(void **state)
{
    json_object *o = json_tokener_parse("{\"s\": \"x\", \"n\": 7, \"big\": 9999999999, \"z\": null}");
    char buf[8];

    (void)state;
    assert_string_equal(mc_json_get_str(o, "s"), "x");
    assert_null(mc_json_get_str(o, "n"));
    assert_null(mc_json_get(o, "missing"));
    assert_null(mc_json_get(o, "z"));
    assert_null(mc_json_get(NULL, "s"));
    assert_int_equal(mc_json_get_int(o, "n", -1), 7);
    assert_int_equal(mc_json_get_int(o, "big", -1), -1);
    assert_int_equal(mc_json_get_int(o, "s", -2), -2);
    assert_true(mc_uri_is_absolute("test://static-text"));
    assert_true(mc_uri_is_absolute("urn:x"));
    assert_false(mc_uri_is_absolute(""));
    assert_false(mc_uri_is_absolute("no scheme"));
    assert_false(mc_uri_is_absolute("1http://x"));
    assert_false(mc_uri_is_absolute("a://b c"));
    mc_str_join(buf, sizeof(buf), "/steps", "/12");
    assert_string_equal(buf, "/steps/");
    json_object_put(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_strict),      cmocka_unit_test(test_parse_utf8_and_nul),
        cmocka_unit_test(test_parse_depth_limit), cmocka_unit_test(test_classify_table),
        cmocka_unit_test(test_classify_fields),   cmocka_unit_test(test_encode_round_trip),
        cmocka_unit_test(test_builders),          cmocka_unit_test(test_id_equal),
        cmocka_unit_test(test_id_text),
        cmocka_unit_test(test_errors_and_errbuf), cmocka_unit_test(test_base64_round_trip),
        cmocka_unit_test(test_json_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
