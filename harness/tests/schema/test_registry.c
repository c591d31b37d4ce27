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

#include "core/version.h"
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
    mc_registry_free(reg);
    /* A known version with no file in the folder. */
    assert_int_equal(mc_registry_new(&reg, "/nonexistent-mcpcheck", MC_REGISTRY_BUNDLED, &eb),
                     MC_OK);
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

/* Every published version has a bundled schema, and the registry's
 * version list is core's table. */
static void test_every_version(void **state)
{
    mc_registry_t *reg = open_bundled();
    const char *const *names = mc_registry_versions();
    mc_errbuf_t eb;
    size_t i, n = 0;

    (void)state;
    for (i = 0; names[i] != NULL; i++, n++) {
        mc_errbuf_clear(&eb);
        assert_ptr_equal(mc_version_find(names[i])->name, names[i]);
        if (mc_registry_load(reg, names[i], &eb) != MC_OK)
            fail_msg("%s: %s", names[i], eb.msg);
        assert_non_null(mc_registry_result_def(reg, names[i], "tools/call"));
    }
    assert_int_equal(n, MC_V_COUNT);
    assert_int_equal(mc_version_cmp("2024-11-05", "2026-07-28") < 0, 1);
    {
        const char *hs[MC_V_COUNT + 1];
        size_t nh = mc_version_list(MC_VF_INITIALIZE, hs, MC_V_COUNT + 1);
        assert_true(nh > 0);
        assert_string_equal(hs[nh - 1], MC_VERSION_NEWEST_HANDSHAKE);
        assert_true(mc_version_has(MC_VERSION_BASELINE, MC_VF_INITIALIZE));
    }
    /* Features by name, for scenario files. */
    assert_int_equal(mc_version_feature_bit("batch"), MC_VF_BATCH);
    assert_int_equal(mc_version_feature_bit("telepathy"), 0);
    assert_string_equal(mc_version_feature_name(MC_VF_ELICIT_FORM), "elicitation");
    assert_int_equal(mc_version_missing("2025-03-26", MC_VF_BATCH | MC_VF_AUDIO), 0);
    assert_int_equal(mc_version_missing("2024-11-05", MC_VF_PING | MC_VF_AUDIO), MC_VF_AUDIO);
    assert_int_equal(mc_version_missing("1999-01-01", MC_VF_AUDIO), 0);
    assert_true(mc_version_has("2025-03-26", MC_VF_BATCH));
    assert_false(mc_version_has("2025-06-18", MC_VF_BATCH));
    assert_false(mc_version_has("2026-07-28", MC_VF_INITIALIZE));
    assert_true(mc_version_has("2026-07-28", MC_VF_DISCOVER | MC_VF_RESULT_TYPE));
    assert_int_equal(mc_version_at(MC_V_2025_11_25)->dialect, MC_DIALECT_2020_12);
    assert_int_equal(mc_version_at(MC_V_2025_06_18)->dialect, MC_DIALECT_DRAFT7);
    /* The older versions lack what came later. */
    assert_null(mc_registry_request_def(reg, "2025-03-26", "elicitation/create"));
    assert_null(mc_registry_request_def(reg, "2024-11-05", "elicitation/create"));
    assert_int_equal(validate(reg, "2024-11-05",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":"
                              "\"audio\",\"data\":\"UklGRg==\",\"mimeType\":\"audio/wav\"}]}}",
                              "tools/call"),
                     MC_EINVALID);
    assert_int_equal(validate(reg, "2025-03-26",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":"
                              "\"audio\",\"data\":\"UklGRg==\",\"mimeType\":\"audio/wav\"}]}}",
                              "tools/call"),
                     MC_OK);
    assert_int_equal(validate(reg, "2025-03-26",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":"
                              "\"resource_link\",\"uri\":\"test://a\",\"name\":\"a\"}]}}",
                              "tools/call"),
                     MC_EINVALID);
    mc_registry_free(reg);
}

#define META                                                                                       \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","                       \
    "\"io.modelcontextprotocol/clientCapabilities\":{}}"

/* 2026-07-28: stateless requests, resultType, discover, listen, multi
 * round-trip results, its error shapes. */
static void test_stateless_version(void **state)
{
    mc_registry_t *reg = open_bundled();
    const char *v = "2026-07-28";
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_load(reg, v, &eb), MC_OK);
    assert_string_equal(mc_registry_request_def(reg, v, "server/discover"), "DiscoverRequest");
    assert_string_equal(mc_registry_result_def(reg, v, "server/discover"), "DiscoverResult");
    assert_string_equal(mc_registry_request_def(reg, v, "subscriptions/listen"),
                        "SubscriptionsListenRequest");
    assert_string_equal(mc_registry_result_def(reg, v, "subscriptions/listen"),
                        "SubscriptionsListenResult");
    assert_string_equal(
        mc_registry_notification_def(reg, v, "notifications/subscriptions/acknowledged"),
        "SubscriptionsAcknowledgedNotification");
    assert_null(mc_registry_request_def(reg, v, "initialize"));
    assert_null(mc_registry_request_def(reg, v, "ping"));
    assert_null(mc_registry_request_def(reg, v, "logging/setLevel"));
    assert_null(mc_registry_request_def(reg, v, "resources/subscribe"));
    /* Every request carries its version and capabilities. */
    assert_int_equal(validate(reg, v, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                              NULL),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
                              "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"x\"}}}",
                              NULL),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{"
                              META "}}",
                              NULL),
                     MC_OK);
    /* resultType on every result; ttlMs and cacheScope on the cacheable ones. */
    assert_int_equal(validate(reg, v, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}",
                              "tools/list"),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[],"
                              "\"resultType\":\"complete\"}}",
                              "tools/list"),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[],"
                              "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"public\"}}",
                              "tools/list"),
                     MC_OK);
    /* A multi round-trip request may be answered by a request for input;
     * a list may not. */
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":"
                              "\"input_required\",\"inputRequests\":{\"r\":{\"method\":"
                              "\"roots/list\"}}}}",
                              "tools/call"),
                     MC_OK);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":"
                              "\"input_required\",\"inputRequests\":{\"r\":{\"method\":"
                              "\"nope\"}}}}",
                              "tools/call"),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":"
                              "\"input_required\",\"inputRequests\":{}}}",
                              "tools/list"),
                     MC_EINVALID);
    /* structuredContent may be any JSON value. */
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":"
                              "\"complete\",\"content\":[],\"structuredContent\":[1,2]}}",
                              "tools/call"),
                     MC_OK);
    /* -32022 carries what is supported and what was asked. */
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                              "\"message\":\"m\"}}",
                              NULL),
                     MC_EINVALID);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                              "\"message\":\"m\",\"data\":{\"supported\":[\"2026-07-28\"],"
                              "\"requested\":\"2020-01-01\"}}}",
                              NULL),
                     MC_OK);
    assert_int_equal(validate(reg, v,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32021,"
                              "\"message\":\"m\",\"data\":{}}}",
                              NULL),
                     MC_EINVALID);
    /* Before 2026-07-28, -32022 is an ordinary error. */
    assert_int_equal(validate(reg, "2025-11-25",
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32022,"
                              "\"message\":\"m\"}}",
                              NULL),
                     MC_OK);
    mc_registry_free(reg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_methods), cmocka_unit_test(test_requests_and_envelope),
        cmocka_unit_test(test_responses),        cmocka_unit_test(test_leniency_official),
        cmocka_unit_test(test_validate_def),     cmocka_unit_test(test_every_version),
        cmocka_unit_test(test_stateless_version),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
