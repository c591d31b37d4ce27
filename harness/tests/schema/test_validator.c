/*
 * test_validator.c - unit tests of the validator: error locations and
 * messages, bounds, compile errors, regex translation, URI resolution,
 * formats, leniency marking and the 2020-12 keywords.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "schema/internal.h"
#include "schema/validator.h"

static mc_schema_report_t report;

/* Compiles schema text; fails the test when it does not compile. */
static mc_schema_t *compile(const char *text)
{
    json_object *doc = json_tokener_parse(text);
    mc_schema_t *s = NULL;
    mc_errbuf_t eb;
    int rc;

    assert_non_null(doc);
    mc_errbuf_clear(&eb);
    rc = mc_schema_compile(doc, NULL, &s, &eb);
    if (rc != MC_OK)
        fail_msg("compile failed: %s", eb.msg);
    json_object_put(doc);
    return s;
}

/* Validates instance text against the root; returns the rc. */
static int check(mc_schema_t *s, const char *inst_text)
{
    json_object *inst = json_tokener_parse(inst_text);
    int rc, fast;

    mc_schema_report_clear(&report);
    rc = mc_schema_validate(s, mc_schema_root(s), inst, NULL, &report);
    fast = mc_schema_is_valid(s, mc_schema_root(s), inst);
    assert_int_equal(fast, rc == MC_OK);
    json_object_put(inst);
    return rc;
}

static int compile_error(const char *text, char *msg, size_t cap)
{
    json_object *doc = json_tokener_parse(text);
    mc_schema_t *s = NULL;
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc_schema_compile(doc, NULL, &s, &eb);
    json_object_put(doc);
    assert_null(s);
    snprintf(msg, cap, "%s", eb.msg);
    return rc;
}

static void test_required_location(void **state)
{
    mc_schema_t *s = compile(
        "{\"definitions\":{\"Resource\":{\"type\":\"object\",\"required\":[\"uri\",\"name\"],"
        "\"properties\":{\"uri\":{\"type\":\"string\",\"format\":\"uri\"},"
        "\"name\":{\"type\":\"string\"}}}},"
        "\"type\":\"object\",\"properties\":{\"resources\":{\"type\":\"array\",\"items\":"
        "{\"$ref\":\"#/definitions/Resource\"}}}}");

    (void)state;
    assert_int_equal(check(s, "{\"resources\":[{\"name\":\"a\"}]}"), MC_EINVALID);
    assert_int_equal(report.valid, 0);
    assert_int_equal(report.n_errors, 1);
    assert_string_equal(report.entries[0].message, "/resources/0/uri: required property missing");
    assert_string_equal(report.entries[0].instance_path, "/resources/0/uri");
    assert_string_equal(report.entries[0].schema_path, "#/definitions/Resource/required");
    assert_string_equal(report.entries[0].keyword, "required");

    assert_int_equal(check(s, "{\"resources\":[{\"name\":\"a\",\"uri\":\"nope\"}]}"),
                     MC_EINVALID);
    assert_string_equal(report.entries[0].schema_path,
                        "#/definitions/Resource/properties/uri/format");
    assert_non_null(strstr(report.entries[0].message, "/resources/0/uri: \"nope\" is not"));

    assert_int_equal(check(s, "{\"resources\":[{\"name\":\"a\",\"uri\":\"x:y\"}]}"), MC_OK);
    assert_int_equal(report.n_entries, 0);
    mc_schema_free(s);
}

static void test_messages(void **state)
{
    mc_schema_t *s = compile(
        "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{"
        "\"a\":{\"type\":[\"string\",\"null\"]},\"b\":{\"enum\":[\"x\",\"y\"]},"
        "\"c\":{\"const\":\"2.0\"},\"d\":{\"type\":\"integer\",\"minimum\":1},"
        "\"e\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":3},"
        "\"f\":{\"type\":\"string\",\"pattern\":\"^\\\\d+$\"},"
        "\"g/h~\":{\"type\":\"boolean\"}}}");

    (void)state;
    assert_int_equal(check(s, "{\"a\":1}"), MC_EINVALID);
    assert_string_equal(report.entries[0].message, "/a: expected null or string, got integer");
    check(s, "{\"b\":\"z\"}");
    assert_string_equal(report.entries[0].message, "/b: \"z\" is not one of \"x\", \"y\"");
    check(s, "{\"c\":\"1.0\"}");
    assert_string_equal(report.entries[0].message, "/c: must be \"2.0\", got \"1.0\"");
    check(s, "{\"d\":0}");
    assert_string_equal(report.entries[0].message, "/d: must be >= 1");
    check(s, "{\"d\":2.5}");
    assert_string_equal(report.entries[0].message, "/d: expected integer, got number 2.5");
    assert_int_equal(check(s, "{\"d\":2.0}"), MC_OK); /* 2.0 is an integer */
    check(s, "{\"e\":\"\xc3\xa9\"}");                  /* one code point, two bytes */
    assert_string_equal(report.entries[0].message,
                        "/e: is 1 characters long, shorter than the minimum 2");
    assert_int_equal(check(s, "{\"e\":\"\xc3\xa9\xc3\xa9\xc3\xa9\"}"), MC_OK);
    check(s, "{\"f\":\"12a\"}");
    assert_string_equal(report.entries[0].message, "/f: does not match the pattern \"^\\d+$\"");
    check(s, "{\"zz\":1}");
    assert_string_equal(report.entries[0].message,
                        "/zz: property not allowed (additionalProperties is false)");
    check(s, "{\"g/h~\":1}");
    assert_string_equal(report.entries[0].instance_path, "/g~1h~0");
    check(s, "[]");
    assert_string_equal(report.entries[0].message, "(root): expected object, got array");
    /* Several errors in one value are all reported. */
    assert_int_equal(check(s, "{\"a\":1,\"b\":2,\"d\":\"x\"}"), MC_EINVALID);
    assert_int_equal(report.n_errors, 3);
    mc_schema_free(s);
}

static void test_anyof_best_branch(void **state)
{
    mc_schema_t *s = compile(
        "{\"definitions\":{"
        "\"Text\":{\"type\":\"object\",\"required\":[\"type\",\"text\"],\"properties\":{"
        "\"type\":{\"const\":\"text\"},\"text\":{\"type\":\"string\"}}},"
        "\"Image\":{\"type\":\"object\",\"required\":[\"type\",\"data\",\"mimeType\"],"
        "\"properties\":{\"type\":{\"const\":\"image\"},\"data\":{\"type\":\"string\"},"
        "\"mimeType\":{\"type\":\"string\"}}}},"
        "\"anyOf\":[{\"$ref\":\"#/definitions/Text\"},{\"$ref\":\"#/definitions/Image\"}]}");

    (void)state;
    assert_int_equal(check(s, "{\"type\":\"image\",\"data\":\"AA==\"}"), MC_EINVALID);
    assert_int_equal(report.n_errors, 1);
    assert_string_equal(report.entries[0].message, "/mimeType: required property missing");
    assert_string_equal(report.entries[0].schema_path, "#/definitions/Image/required");
    check(s, "{\"type\":\"text\",\"text\":5}");
    assert_string_equal(report.entries[0].message, "/text: expected string, got integer");
    check(s, "{\"type\":\"video\"}");
    assert_string_equal(report.entries[0].message,
                        "(root): matches none of the 2 alternatives of anyOf");
    check(s, "7");
    assert_string_equal(report.entries[0].keyword, "anyOf");
    mc_schema_free(s);
}

static void test_oneof_message(void **state)
{
    mc_schema_t *s = compile("{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":2}]}");

    (void)state;
    assert_int_equal(check(s, "3"), MC_EINVALID);
    assert_string_equal(report.entries[0].message,
                        "(root): matches 2 alternatives of oneOf (#0 and #1), exactly one is "
                        "allowed");
    assert_int_equal(check(s, "1"), MC_OK);
    mc_schema_free(s);
}

static void test_depth_bound(void **state)
{
    mc_schema_t *s = compile("{\"$ref\":\"#\"}");
    mc_schema_t *t = compile("{\"definitions\":{\"a\":{\"$ref\":\"#/definitions/b\"},"
                             "\"b\":{\"$ref\":\"#/definitions/a\"}},\"$ref\":\"#/definitions/a\"}");

    (void)state;
    assert_int_equal(check(s, "1"), MC_EINVALID);
    assert_string_equal(report.entries[0].keyword, "$depth");
    assert_int_equal(check(t, "{}"), MC_EINVALID);
    mc_schema_free(s);
    mc_schema_free(t);
}

static void test_error_cap_and_prefix(void **state)
{
    char text[4096];
    size_t o = 0, i;
    mc_schema_t *s;
    json_object *inst;

    (void)state;
    o += (size_t)snprintf(text + o, sizeof(text) - o, "{\"required\":[");
    for (i = 0; i < 100; i++)
        o += (size_t)snprintf(text + o, sizeof(text) - o, "%s\"p%zu\"", i ? "," : "", i);
    snprintf(text + o, sizeof(text) - o, "]}");
    s = compile(text);
    assert_int_equal(check(s, "{}"), MC_EINVALID);
    assert_int_equal(report.n_errors, 100);
    assert_int_equal(report.n_entries, MC_SCHEMA_MAX_ERRORS);
    assert_int_equal(report.truncated, 1);

    inst = json_tokener_parse("{\"p0\":1}");
    mc_schema_report_clear(&report);
    assert_int_equal(mc_schema_validate(s, mc_schema_root(s), inst, "/result", &report),
                     MC_EINVALID);
    assert_string_equal(report.entries[0].instance_path, "/result/p1");
    json_object_put(inst);
    mc_schema_free(s);
}

static void test_compile_errors(void **state)
{
    char msg[MC_ERRBUF_SIZE];

    (void)state;
    assert_int_equal(compile_error("{\"$ref\":\"#/definitions/nope\"}", msg, sizeof(msg)),
                     MC_ENOTFOUND);
    assert_non_null(strstr(msg, "#/definitions/nope"));
    assert_int_equal(compile_error("{\"properties\":{\"a\":{\"type\":\"strin\"}}}", msg,
                                   sizeof(msg)),
                     MC_ESCHEMA);
    assert_non_null(strstr(msg, "#/properties/a/type"));
    assert_int_equal(compile_error("{\"pattern\":\"(?=a)b\"}", msg, sizeof(msg)),
                     MC_EUNSUPPORTED);
    assert_int_equal(compile_error("{\"$ref\":\"http://example.com/x.json\"}", msg, sizeof(msg)),
                     MC_ENOTFOUND);
    assert_int_equal(compile_error("{\"minLength\":-1}", msg, sizeof(msg)), MC_ESCHEMA);
    assert_int_equal(compile_error("{\"items\":[1]}", msg, sizeof(msg)), MC_ESCHEMA);
}

/* Pattern -> matches? through the real compile + search path. */
static int re_match(const char *pattern, const char *str)
{
    char text[512];
    json_object *doc, *inst;
    mc_schema_t *s = NULL;
    int ok;

    doc = json_object_new_object();
    json_object_object_add(doc, "pattern", json_object_new_string(pattern));
    if (mc_schema_compile(doc, NULL, &s, NULL) != MC_OK) {
        json_object_put(doc);
        fail_msg("pattern %s does not compile", pattern);
    }
    json_object_put(doc);
    snprintf(text, sizeof(text), "%s", str);
    inst = json_object_new_string(text);
    ok = mc_schema_is_valid(s, mc_schema_root(s), inst);
    json_object_put(inst);
    mc_schema_free(s);
    return ok;
}

static void test_regex(void **state)
{
    char out[256];

    (void)state;
    assert_true(re_match("^\\d{3}-\\w+$", "123-ab_c"));
    assert_false(re_match("^\\d{3}$", "12a"));
    assert_true(re_match("^[\\]a-]+$", "a]-"));
    assert_true(re_match("^a+?b*?$", "aab"));
    assert_true(re_match("a{", "xa{"));
    assert_true(re_match("^(?:ab)+$", "abab"));
    assert_false(re_match("^a.b$", "a\nb"));
    assert_true(re_match("^.$", "\xc3\xa9"));     /* one code point */
    assert_true(re_match("^\\u00e9$", "\xc3\xa9")); /* \uXXXX */
    assert_true(re_match("^\\S+\\s\\S+$", "a b"));
    assert_true(re_match("^[^\\d]$", "x"));
    assert_true(re_match("\\/", "a/b"));
    assert_true(re_match("^[\\w.-]+$", "a.b-c"));
    assert_int_equal(mc__regex_translate("\\d", out, sizeof(out), NULL), MC_OK);
    assert_string_equal(out, "[0-9]");
    assert_int_equal(mc__regex_translate("(?<n>a)", out, sizeof(out), NULL), MC_EUNSUPPORTED);
    /* The letter properties, by the locale's classes. */
    assert_true(re_match("^\\p{Letter}+$", "\xc3\xa9" "clair"));
    assert_false(re_match("^\\p{L}+$", "a1"));
    assert_true(re_match("^\\P{Lu}$", "a"));
    assert_int_equal(mc__regex_translate("\\p{Script=Greek}", out, sizeof(out), NULL),
                     MC_EUNSUPPORTED);
}

static void test_uri_resolve(void **state)
{
    /* RFC 3986 section 5.4 examples. */
    static const char *const cases[][2] = {
        {"g", "http://a/b/c/g"},         {"./g", "http://a/b/c/g"},
        {"g/", "http://a/b/c/g/"},       {"/g", "http://a/g"},
        {"//g", "http://g"},             {"?y", "http://a/b/c/d;p?y"},
        {"g?y", "http://a/b/c/g?y"},     {"#s", "http://a/b/c/d;p?q#s"},
        {"", "http://a/b/c/d;p?q"},      {".", "http://a/b/c/"},
        {"..", "http://a/b/"},           {"../g", "http://a/b/g"},
        {"../..", "http://a/"},          {"../../../g", "http://a/g"},
        {"/./g", "http://a/g"},          {"g/../h", "http://a/b/c/h"},
        {"g;x=1/./y", "http://a/b/c/g;x=1/y"}, {"urn:x:y#f", "urn:x:y#f"},
    };
    char out[MC_SCHEMA_MAX_URI];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(mc__uri_resolve("http://a/b/c/d;p?q", cases[i][0], out, sizeof(out)),
                         MC_OK);
        assert_string_equal(out, cases[i][1]);
    }
    assert_int_equal(mc__uri_resolve("http://a/b", "c", out, 4), MC_ETOOBIG);
}

static void test_formats(void **state)
{
    (void)state;
    assert_true(mc_schema_format_check("uri", "test://static-text", 18));
    assert_true(mc_schema_format_check("uri", "file:///tmp/a%20b", 17));
    assert_false(mc_schema_format_check("uri", "/relative", 9));
    assert_false(mc_schema_format_check("uri", "http://a b", 10));
    assert_true(mc_schema_format_check("uri-reference", "../x?y#z", 8));
    assert_true(mc_schema_format_check("uri-template", "test://template/{id}/data", 25));
    assert_false(mc_schema_format_check("uri-template", "a{b", 3));
    assert_true(mc_schema_format_check("byte", "", 0));
    assert_true(mc_schema_format_check("byte", "iVBORw0KGgo=", 12));
    assert_false(mc_schema_format_check("byte", "abc", 3));
    assert_false(mc_schema_format_check("byte", "ab=c", 4));
    assert_false(mc_schema_format_check("byte", "ab c", 4));
    {
        /* Every position of a long string, through the 8-byte fast path. */
        char b64[65];
        size_t i;
        static const char bad[] = {'-', '_', '=', ' ', '@', '[', '`', '{', ':', '\x80'};
        for (i = 0; i < 64; i++)
            b64[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i];
        b64[64] = '\0';
        assert_true(mc_schema_format_check("byte", b64, 64));
        for (i = 0; i < 62; i++) {
            size_t k;
            for (k = 0; k < sizeof(bad); k++) {
                char saved = b64[i];
                b64[i] = bad[k];
                assert_false(mc_schema_format_check("byte", b64, 64));
                b64[i] = saved;
            }
        }
        b64[62] = '=';
        b64[63] = '=';
        assert_true(mc_schema_format_check("byte", b64, 64));
    }
    assert_true(mc_schema_format_check("date-time", "2025-01-12T15:00:58Z", 20));
    assert_true(mc_schema_format_check("date-time", "2025-01-12t15:00:58.5+01:00", 27));
    assert_false(mc_schema_format_check("date-time", "2025-02-30T15:00:58Z", 20));
    assert_false(mc_schema_format_check("date-time", "2025-01-12", 10));
    assert_true(mc_schema_format_check("date", "2024-02-29", 10));
    assert_false(mc_schema_format_check("date", "2023-02-29", 10));
    assert_true(mc_schema_format_check("email", "a.b@example.com", 15));
    assert_false(mc_schema_format_check("email", "a..b@example.com", 16));
    assert_true(mc_schema_format_check("hostname", "anything at all", 15)); /* not asserted */
    assert_false(mc_schema_format_known("hostname"));
}

static void test_lenient(void **state)
{
    mc_schema_t *s = compile("{\"definitions\":{\"R\":{\"properties\":{\"size\":{\"type\":"
                             "\"integer\"},\"n\":{\"$ref\":\"#/definitions/I\"}}},"
                             "\"I\":{\"type\":\"integer\"}},\"$ref\":\"#/definitions/R\"}");

    (void)state;
    assert_int_equal(mc_schema_mark_lenient_integer(s, "R", "size", "size is a number"), 1);
    assert_int_equal(mc_schema_mark_lenient_integer(s, "R", "nope", "x"), 0);
    assert_int_equal(check(s, "{\"size\":1.5}"), MC_OK);
    assert_int_equal(report.valid, 1);
    assert_int_equal(report.n_warnings, 1);
    assert_int_equal(report.entries[0].severity, MC_SCHEMA_WARNING);
    assert_non_null(strstr(report.entries[0].message, "size is a number"));
    assert_int_equal(check(s, "{\"size\":\"x\"}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"n\":1.5}"), MC_EINVALID); /* not marked */
    mc_schema_free(s);
}

static void test_modern_keywords(void **state)
{
    mc_schema_t *s = compile(
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
        "\"$defs\":{\"Base\":{\"required\":[\"a\"]}},"
        "\"$ref\":\"#/$defs/Base\",\"required\":[\"b\"],"
        "\"properties\":{\"t\":{\"prefixItems\":[{\"type\":\"string\"}],\"items\":{\"type\":"
        "\"integer\"}}},"
        "\"dependentRequired\":{\"x\":[\"y\"]},"
        "\"dependentSchemas\":{\"z\":{\"required\":[\"w\"]}}}");

    (void)state;
    assert_int_equal(check(s, "{\"a\":1,\"b\":1}"), MC_OK);
    /* $ref siblings apply in 2020-12. */
    assert_int_equal(check(s, "{\"a\":1}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"b\":1}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"t\":[\"s\",1,2]}"), MC_OK);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"t\":[1]}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"t\":[\"s\",\"x\"]}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"x\":1}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"x\":1,\"y\":1}"), MC_OK);
    assert_int_equal(check(s, "{\"a\":1,\"b\":1,\"z\":1}"), MC_EINVALID);
    assert_non_null(mc_schema_definition(s, "Base"));
    assert_null(mc_schema_definition(s, "Nope"));
    mc_schema_free(s);
}

/* Compiles with options; fails the test when it does not compile. */
static mc_schema_t *compile_opts(const char *text, int dialect, int formats)
{
    json_object *doc = json_tokener_parse(text);
    mc_schema_options_t opts = {NULL, NULL, dialect, formats, 0};
    mc_schema_t *s = NULL;
    mc_errbuf_t eb;

    assert_non_null(doc);
    mc_errbuf_clear(&eb);
    if (mc_schema_compile(doc, &opts, &s, &eb) != MC_OK)
        fail_msg("compile failed: %s", eb.msg);
    json_object_put(doc);
    return s;
}

static void test_unevaluated(void **state)
{
    mc_schema_t *s = compile(
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
        "\"properties\":{\"a\":true},\"allOf\":[{\"properties\":{\"b\":true}}],"
        "\"anyOf\":[{\"properties\":{\"c\":{\"type\":\"integer\"}},\"required\":[\"c\"]},"
        "{\"properties\":{\"d\":true}}],"
        "\"if\":{\"properties\":{\"k\":{\"const\":1}},\"required\":[\"k\"]},"
        "\"then\":{\"properties\":{\"e\":true}},"
        "\"unevaluatedProperties\":false}");
    mc_schema_t *items = compile(
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
        "\"prefixItems\":[{\"type\":\"string\"}],\"contains\":{\"type\":\"boolean\"},"
        "\"unevaluatedItems\":{\"type\":\"integer\"}}");

    (void)state;
    assert_int_equal(check(s, "{\"a\":1,\"b\":2}"), MC_OK);
    assert_int_equal(check(s, "{\"a\":1,\"z\":2}"), MC_EINVALID);
    assert_string_equal(report.entries[0].keyword, "unevaluatedProperties");
    assert_string_equal(report.entries[0].instance_path, "/z");
    /* Annotations come only from the branches that hold. */
    assert_int_equal(check(s, "{\"c\":1}"), MC_OK);
    assert_int_equal(check(s, "{\"c\":\"x\",\"d\":1}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"d\":1}"), MC_OK);
    assert_int_equal(check(s, "{\"k\":1,\"e\":1}"), MC_OK);
    assert_int_equal(check(s, "{\"k\":2,\"e\":1}"), MC_EINVALID);
    assert_int_equal(check(items, "[\"s\",true,3]"), MC_OK);
    assert_int_equal(check(items, "[\"s\",true,\"x\"]"), MC_EINVALID);
    assert_string_equal(report.entries[0].instance_path, "/2");
    mc_schema_free(s);
    mc_schema_free(items);
    /* Not a keyword of draft-07: ignored there. */
    s = compile("{\"properties\":{\"a\":true},\"unevaluatedProperties\":false}");
    assert_int_equal(check(s, "{\"z\":1}"), MC_OK);
    mc_schema_free(s);
    s = compile_opts("{\"properties\":{\"a\":true},\"unevaluatedProperties\":false}",
                     MC_SCHEMA_DIALECT_2020_12, MC_SCHEMA_FORMATS_DEFAULT);
    assert_int_equal(check(s, "{\"z\":1}"), MC_EINVALID);
    mc_schema_free(s);
}

static void test_dynamic_ref(void **state)
{
    /* A generic list whose item type an extending schema fills in. */
    mc_schema_t *s = compile(
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
        "\"$id\":\"https://example.test/strings\",\"$dynamicAnchor\":\"item\","
        "\"$ref\":\"list\",\"$defs\":{"
        "\"list\":{\"$id\":\"list\",\"type\":\"array\",\"items\":{\"$dynamicRef\":\"#item\"},"
        "\"$defs\":{\"any\":{\"$dynamicAnchor\":\"item\"}}},"
        "\"item\":{\"$dynamicAnchor\":\"item\",\"type\":\"string\"}}}");

    (void)state;
    /* The outermost resource with the anchor is the root, which is the
     * list itself: items must be lists too. */
    assert_int_equal(check(s, "[[],[[]]]"), MC_OK);
    assert_int_equal(check(s, "[\"x\"]"), MC_EINVALID);
    mc_schema_free(s);
    /* Without a matching anchor at the target, $dynamicRef is a $ref. */
    s = compile("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                "\"$defs\":{\"s\":{\"type\":\"string\"}},\"$dynamicRef\":\"#/$defs/s\"}");
    assert_int_equal(check(s, "\"x\""), MC_OK);
    assert_int_equal(check(s, "1"), MC_EINVALID);
    mc_schema_free(s);
}

static void test_dialects_and_formats(void **state)
{
    static const char fmt[] = "{\"type\":\"string\",\"format\":\"uri\"}";
    static const char fmt2020[] =
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"format\":\"uri\"}";
    mc_schema_t *s;
    char msg[512];

    (void)state;
    s = compile(fmt); /* draft-07: asserted */
    assert_int_equal(check(s, "\"not a uri\""), MC_EINVALID);
    mc_schema_free(s);
    s = compile(fmt2020); /* 2020-12: an annotation */
    assert_int_equal(check(s, "\"not a uri\""), MC_OK);
    mc_schema_free(s);
    s = compile_opts(fmt, MC_SCHEMA_DIALECT_2020_12, MC_SCHEMA_FORMATS_DEFAULT);
    assert_int_equal(check(s, "\"not a uri\""), MC_OK);
    mc_schema_free(s);
    s = compile_opts(fmt2020, MC_SCHEMA_DIALECT_DRAFT7, MC_SCHEMA_FORMATS_ASSERT);
    assert_int_equal(check(s, "\"not a uri\""), MC_EINVALID);
    assert_int_equal(check(s, "\"https://example.com/\""), MC_OK);
    mc_schema_free(s);
    s = compile_opts(fmt, MC_SCHEMA_DIALECT_DRAFT7, MC_SCHEMA_FORMATS_ANNOTATE);
    assert_int_equal(check(s, "\"not a uri\""), MC_OK);
    mc_schema_free(s);
    /* $ref beside siblings: ignored in draft-07, applied in 2020-12. */
    s = compile("{\"definitions\":{\"i\":{\"type\":\"integer\"}},\"$ref\":\"#/definitions/i\","
                "\"minimum\":5}");
    assert_int_equal(check(s, "1"), MC_OK);
    mc_schema_free(s);
    s = compile_opts("{\"$defs\":{\"i\":{\"type\":\"integer\"}},\"$ref\":\"#/$defs/i\","
                     "\"minimum\":5}",
                     MC_SCHEMA_DIALECT_2020_12, MC_SCHEMA_FORMATS_DEFAULT);
    assert_int_equal(check(s, "1"), MC_EINVALID);
    assert_int_equal(check(s, "7"), MC_OK);
    mc_schema_free(s);
    /* A dialect nobody can resolve is refused, not guessed. */
    assert_int_equal(compile_error("{\"$schema\":\"https://example.test/my-dialect\"}", msg,
                                   sizeof(msg)),
                     MC_EUNSUPPORTED);
    assert_non_null(strstr(msg, "not supported"));
    /* A $ref to a network URI is never fetched: it fails to compile. */
    assert_int_equal(compile_error("{\"$ref\":\"https://example.test/s.json\"}", msg, sizeof(msg)),
                     MC_ENOTFOUND);
}

/* A chain of n levels, each a oneOf of the next level and its negation:
 * exactly one branch holds at every level, and both are evaluated, so the
 * cost is 2^n evaluations. Compiled with a budget of max_steps. */
static mc_schema_t *exponential(int n, unsigned long max_steps, char *text, size_t cap)
{
    mc_schema_options_t opts = {NULL, NULL, 0, 0, max_steps};
    mc_schema_t *s = NULL;
    json_object *doc;
    size_t o = 0;
    int i;

    o += (size_t)snprintf(text + o, cap - o, "{\"$ref\":\"#/$defs/a0\",\"$defs\":{");
    for (i = 0; i < n; i++)
        o += (size_t)snprintf(text + o, cap - o,
                              "\"a%d\":{\"oneOf\":[{\"$ref\":\"#/$defs/a%d\"},{\"not\":"
                              "{\"$ref\":\"#/$defs/a%d\"}}]},",
                              i, i + 1, i + 1);
    snprintf(text + o, cap - o, "\"a%d\":{\"type\":\"integer\"}}}", n);
    doc = json_tokener_parse(text);
    assert_non_null(doc);
    assert_int_equal(mc_schema_compile(doc, &opts, &s, NULL), MC_OK);
    json_object_put(doc);
    return s;
}

static void test_budget(void **state)
{
    char text[16384];
    mc_schema_t *s;

    (void)state;
    s = exponential(8, 0, text, sizeof(text));
    assert_int_equal(check(s, "1"), MC_OK);
    mc_schema_free(s);
    /* 2^40 evaluations would never end: the budget stops it, and the
     * instance is refused rather than accepted. */
    s = exponential(40, 100000, text, sizeof(text));
    assert_int_equal(check(s, "1"), MC_EINVALID);
    assert_int_equal(report.n_entries, 1);
    assert_string_equal(report.entries[0].keyword, "$budget");
    mc_schema_free(s);

}

static void test_id_refs(void **state)
{
    mc_schema_t *s = compile(
        "{\"$id\":\"http://example.com/root.json\",\"definitions\":{"
        "\"A\":{\"$id\":\"#foo\",\"type\":\"integer\"},"
        "\"B\":{\"$id\":\"other.json\",\"definitions\":{\"X\":{\"$id\":\"#bar\",\"type\":"
        "\"string\"}}}},"
        "\"properties\":{\"a\":{\"$ref\":\"#foo\"},\"b\":{\"$ref\":\"other.json#bar\"},"
        "\"c\":{\"$ref\":\"http://example.com/root.json#/definitions/A\"}}}");

    (void)state;
    assert_int_equal(check(s, "{\"a\":1,\"b\":\"s\",\"c\":2}"), MC_OK);
    assert_int_equal(check(s, "{\"a\":\"x\"}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"b\":1}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"c\":1.5}"), MC_EINVALID);
    mc_schema_free(s);
}

static void test_metaschema(void **state)
{
    mc_schema_t *s = compile("{\"$ref\":\"http://json-schema.org/draft-07/schema#\"}");

    (void)state;
    assert_int_equal(check(s, "{\"type\":\"string\",\"minLength\":1}"), MC_OK);
    assert_int_equal(check(s, "{\"type\":\"strin\"}"), MC_EINVALID);
    assert_int_equal(check(s, "{\"properties\":{\"a\":{\"minItems\":-1}}}"), MC_EINVALID);
    assert_non_null(strstr(report.entries[0].schema_path, "http://json-schema.org/draft-07"));
    mc_schema_free(s);
}

static void test_equality(void **state)
{
    json_object *a = json_tokener_parse("{\"x\":[1,2.0,{\"y\":null}],\"z\":true}");
    json_object *b = json_tokener_parse("{\"z\":true,\"x\":[1.0,2,{\"y\":null}]}");
    json_object *c = json_tokener_parse("{\"z\":true,\"x\":[1,2,{\"y\":0}]}");

    (void)state;
    assert_true(mc__json_equal(a, b));
    assert_false(mc__json_equal(a, c));
    json_object_put(a);
    json_object_put(b);
    json_object_put(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_required_location), cmocka_unit_test(test_messages),
        cmocka_unit_test(test_anyof_best_branch), cmocka_unit_test(test_oneof_message),
        cmocka_unit_test(test_depth_bound),       cmocka_unit_test(test_error_cap_and_prefix),
        cmocka_unit_test(test_compile_errors),    cmocka_unit_test(test_regex),
        cmocka_unit_test(test_uri_resolve),       cmocka_unit_test(test_formats),
        cmocka_unit_test(test_lenient),           cmocka_unit_test(test_modern_keywords),
        cmocka_unit_test(test_id_refs),           cmocka_unit_test(test_metaschema),
        cmocka_unit_test(test_equality),          cmocka_unit_test(test_unevaluated),
        cmocka_unit_test(test_dynamic_ref),       cmocka_unit_test(test_dialects_and_formats),
        cmocka_unit_test(test_budget),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
