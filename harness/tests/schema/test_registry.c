/*
 * test_registry.c - the MCP registry on the bundled schemas (and, when the
 * spec checkout is present, on the official ones): method tables, envelope
 * handling per version, response pairing, error shapes, leniencies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "schema/registry.h"

static mc_schema_report_t report;

static mc_registry_t *open_bundled(void)
{
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_new(&reg, MC_TEST_SCHEMAS_DIR, MC_REGISTRY_BUNDLED, &eb), MC_OK);
    return reg;
}

static int validate(mc_registry_t *reg, const char *version, const char *text,
                    const char *answered)
{
    json_object *msg = json_tokener_parse(text);
    mc_errbuf_t eb;
    int rc;

    assert_non_null(msg);
    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&report);
    rc = mc_registry_validate_message(reg, version, msg, answered, &report, &eb);
    json_object_put(msg);
    return rc;
}

static void test_load_and_methods(void **state)
{
    mc_registry_t *reg = open_bundled();
    static const char *const methods[] = {
        "initialize",         "ping",          "resources/list", "resources/templates/list",
        "resources/read",     "prompts/list",  "prompts/get",    "tools/list",
        "tools/call",         "logging/setLevel", "completion/complete",
        "sampling/createMessage", "roots/list", "elicitation/create"};
    size_t i;
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_load(reg, "2025-06-18", &eb), MC_OK);
    assert_int_equal(mc_registry_load(reg, "2025-11-25", &eb), MC_OK);
    for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        assert_non_null(mc_registry_request_def(reg, "2025-06-18", methods[i]));
        assert_non_null(mc_registry_result_def(reg, "2025-06-18", methods[i]));
        assert_non_null(mc_registry_request_def(reg, "2025-11-25", methods[i]));
    }
    assert_string_equal(mc_registry_request_def(reg, "2025-06-18", "resources/list"),
                        "ListResourcesRequest");
    assert_string_equal(mc_registry_result_def(reg, "2025-06-18", "resources/list"),
                        "ListResourcesResult");
    assert_string_equal(mc_registry_result_def(reg, "2025-06-18", "ping"), "EmptyResult");
    assert_string_equal(mc_registry_notification_def(reg, "2025-06-18", "notifications/message"),
                        "LoggingMessageNotification");
    assert_string_equal(mc_registry_result_def(reg, "2025-11-25", "tasks/result"),
                        "GetTaskPayloadResult");
    assert_null(mc_registry_request_def(reg, "2025-06-18", "tasks/get"));
    assert_null(mc_registry_request_def(reg, "2025-06-18", "notifications/message"));

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_load(reg, "1999-01-01", &eb), MC_ENOTFOUND);
    assert_non_null(strstr(eb.msg, "unknown protocol version"));
    mc_errbuf_clear(&eb);
    /* A known version with no bundled file. */
    assert_int_equal(mc_registry_load(reg, "2024-11-05", &eb), MC_ENOTFOUND);
    mc_registry_free(reg);
}

static void test_requests_and_envelope(void **state)
{
    mc_registry_t *reg = open_bundled();
    const char *const versions[] = {"2025-06-18", "2025-11-25"};
    size_t v;

    (void)state;
    for (v = 0; v < 2; v++) {
        const char *ver = versions[v];
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}",
                     NULL),
            MC_OK);
        assert_int_equal(validate(reg, ver,
                                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\","
                                  "\"params\":{}}",
                                  NULL),
                         MC_EINVALID);
        assert_string_equal(report.entries[0].message, "/params/uri: required property missing");
        /* The envelope is checked whatever the request definition holds. */
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", NULL),
            MC_EINVALID);
        assert_string_equal(report.entries[0].instance_path, "/jsonrpc");
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", NULL),
            MC_EINVALID);
        assert_string_equal(report.entries[0].instance_path, "/id");
        assert_int_equal(validate(reg, ver,
                                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                  "\"params\":{\"progressToken\":1}}",
                                  NULL),
                         MC_EINVALID);
        assert_string_equal(report.entries[0].message,
                            "/params/progress: required property missing");
        /* Unknown methods: envelope only, with a warning. */
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x/custom\"}", NULL),
            MC_OK);
        assert_int_equal(report.n_warnings, 1);
        assert_int_equal(validate(reg, ver, "[1]", NULL), MC_EINVALID);
        assert_int_equal(validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":1}", NULL), MC_EINVALID);
    }
    mc_registry_free(reg);
}

static void test_responses(void **state)
{
    mc_registry_t *reg = open_bundled();
    const char *const versions[] = {"2025-06-18", "2025-11-25"};
    size_t v;

    (void)state;
    for (v = 0; v < 2; v++) {
        const char *ver = versions[v];
        const char *bad = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resources\":[{\"name\":"
                          "\"a\"}]}}";
        /* ServerResult would accept this; the method's result definition does not. */
        assert_int_equal(validate(reg, ver, bad, "resources/list"), MC_EINVALID);
        assert_string_equal(report.entries[0].message,
                            "/result/resources/0/uri: required property missing");
        /* Unknown request: the envelope only, and a warning that says so. */
        assert_int_equal(validate(reg, ver, bad, NULL), MC_OK);
        assert_int_equal(report.n_warnings, 1);
        assert_non_null(strstr(report.entries[0].message, "only the envelope was checked"));
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}", "ping"),
            MC_EINVALID);
        assert_int_equal(
            validate(reg, ver, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", "ping"), MC_OK);
        assert_int_equal(validate(reg, ver,
                                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":"
                                  "1,\"message\":\"m\"}}",
                                  "ping"),
                         MC_EINVALID);
        /* Error responses. */
        assert_int_equal(validate(reg, ver,
                                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,"
                                  "\"message\":\"Method not found\"}}",
                                  NULL),
                         MC_OK);
        assert_int_equal(validate(reg, ver,
                                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,"
                                  "\"message\":\"x\"}}",
                                  NULL),
                         MC_EINVALID);
        assert_string_equal(report.entries[0].instance_path, "/error/code");
    }
    /* 2025-11-25: the -32042 error carries the elicitations. */
    assert_int_equal(validate(reg, "2025-11-25",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32042,"
                              "\"message\":\"m\"}}",
                              NULL),
                     MC_EINVALID);
    mc_registry_free(reg);
}

static void test_leniency_official(void **state)
{
    struct stat st;
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;
    const char *path, *why, *def;

    (void)state;
    def = mc_registry_leniency(0, &path, &why);
    assert_string_equal(def, "Resource");
    assert_string_equal(path, "size");
    assert_non_null(why);
    if (stat(MC_TEST_SPEC_DIR, &st) != 0) {
        printf("skipping the official-schema part: %s is absent\n", MC_TEST_SPEC_DIR);
        return;
    }
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_new(&reg, MC_TEST_SPEC_DIR, MC_REGISTRY_UPSTREAM, &eb), MC_OK);
    assert_int_equal(validate(reg, "2025-06-18",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resources\":[{\"uri\":"
                              "\"a:b\",\"name\":\"a\",\"size\":1.5}]}}",
                              "resources/list"),
                     MC_OK);
    assert_int_equal(report.n_warnings, 1);
    assert_string_equal(report.entries[0].instance_path, "/result/resources/0/size");
    /* Not a leniency: the request id must be an integer. */
    assert_int_equal(
        validate(reg, "2025-06-18", "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", NULL),
        MC_EINVALID);
    /* The older versions load from the upstream layout too. */
    assert_int_equal(validate(reg, "2024-11-05",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}", NULL),
                     MC_OK);
    assert_int_equal(validate(reg, "2025-03-26",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{}]}}",
                              "tools/list"),
                     MC_EINVALID);
    mc_registry_free(reg);
}

static void test_validate_def(void **state)
{
    mc_registry_t *reg = open_bundled();
    json_object *tool = json_tokener_parse("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}");
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&report);
    assert_int_equal(mc_registry_validate_def(reg, "2025-06-18", "Tool", tool, &report, &eb),
                     MC_OK);
    assert_int_equal(mc_registry_validate_def(reg, "2025-06-18", "NoSuchDef", tool, &report, &eb),
                     MC_ENOTFOUND);
    assert_int_equal(
        mc_registry_validate_def(reg, "2025-06-18", "TextContent", tool, &report, &eb),
        MC_EINVALID);
    json_object_put(tool);
    mc_registry_free(reg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_methods), cmocka_unit_test(test_requests_and_envelope),
        cmocka_unit_test(test_responses),        cmocka_unit_test(test_leniency_official),
        cmocka_unit_test(test_validate_def),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
