/*
 * test_refserver_features.c - the reference server's features driven in memory: resources,
 * subscriptions, list changes, prompts, tools, logging, completion,
 * progress and cancellation.
 *
 * Each test creates its own server (rt_open), feeds it lines and inspects
 * what it emits.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

/* ---- resources ---- */

static void test_resources_read(void **state)
{
    rt_t t;
    json_object *r;
    const char *b;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    r = rt_call(&t, 1, "resources/read", "{\"uri\":\"test://static-text\"}");
    assert_string_equal(rt_str(r, "result.contents.0.text"),
                        "This is the content of the static text resource.");
    assert_string_equal(rt_str(r, "result.contents.0.mimeType"), "text/plain");
    json_object_put(r);
    r = rt_call(&t, 2, "resources/read", "{\"uri\":\"test://static-binary\"}");
    b = rt_str(r, "result.contents.0.blob");
    assert_non_null(b);
    assert_true(strncmp(b, "iVBORw0KGgo", 11) == 0); /* the PNG signature */
    assert_int_equal(strlen(b) % 4, 0);               /* padded, strict base64 */
    json_object_put(r);
    r = rt_call(&t, 3, "resources/read", "{\"uri\":\"test://template/123/data\"}");
    assert_string_equal(rt_str(r, "result.contents.0.uri"), "test://template/123/data");
    assert_non_null(strstr(rt_str(r, "result.contents.0.text"), "Data for ID: 123"));
    json_object_put(r);
    r = rt_call(&t, 4, "resources/read", "{\"uri\":\"test://blob/5\"}");
    assert_string_equal(rt_str(r, "result.contents.0.blob"), "ByZFZIM=");
    json_object_put(r);
    r = rt_call(&t, 5, "resources/read", "{\"uri\":\"test://nope\"}");
    assert_int_equal(rt_error_code(r), -32002);
    assert_string_equal(rt_str(r, "error.data.uri"), "test://nope");
    json_object_put(r);
    r = rt_call(&t, 6, "resources/read", "{\"uri\":\"test://template/a b/data\"}");
    assert_int_equal(rt_error_code(r), -32002);
    json_object_put(r);
    r = rt_call(&t, 7, "resources/read", "{}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 8, "resources/read", "{\"uri\":\"test://greeting/bob\"}");
    assert_string_equal(rt_str(r, "result.contents.0.text"), "Hello, bob!");
    json_object_put(r);
    r = rt_call(&t, 9, "resources/list", NULL);
    assert_non_null(rt_at(r, "result.resources.0.annotations.lastModified"));
    assert_non_null(rt_at(r, "result.resources.0.title"));
    json_object_put(r);
    rt_close(&t);
}

static void test_subscribe_updated(void **state)
{
    static const char call[] = "{\"name\":\"test_trigger_resource_update\"}";
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    json_object_put(rt_call(&t, 1, "tools/call", call));
    assert_int_equal(rt_count(&t, "notifications/resources/updated"), 0);
    r = rt_call(&t, 2, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}");
    assert_non_null(rt_at(r, "result"));
    json_object_put(r);
    rt_clear(&t);
    json_object_put(rt_call(&t, 3, "tools/call", call));
    assert_int_equal(rt_count(&t, "notifications/resources/updated"), 1);
    r = rt_nth(&t, "notifications/resources/updated", 0);
    assert_string_equal(rt_str(r, "params.uri"), "test://watched-resource");
    json_object_put(r);
    r = rt_call(&t, 4, "resources/read", "{\"uri\":\"test://watched-resource\"}");
    assert_non_null(strstr(rt_str(r, "result.contents.0.text"), "revision 2"));
    json_object_put(r);
    json_object_put(rt_call(&t, 5, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}"));
    rt_clear(&t);
    json_object_put(rt_call(&t, 6, "tools/call", call));
    assert_int_equal(rt_count(&t, "notifications/resources/updated"), 0);
    r = rt_call(&t, 7, "resources/subscribe", "{\"uri\":\"test://unknown\"}");
    assert_int_equal(rt_error_code(r), -32002);
    json_object_put(r);
    r = rt_call(&t, 8, "resources/unsubscribe", "{\"uri\":\"test://unknown\"}");
    assert_non_null(rt_at(r, "result"));
    json_object_put(r);
    rt_close(&t);
}

static void test_list_changed(void **state)
{
    static const char *const triggers[3][3] = {
        {"test_trigger_resource_list_change", "notifications/resources/list_changed",
         "resources/read"},
        {"test_trigger_prompt_change", "notifications/prompts/list_changed", "prompts/get"},
        {"test_trigger_tool_change", "notifications/tools/list_changed", "tools/call"},
    };
    static const char *const probes[3] = {"{\"uri\":\"test://dynamic-resource\"}",
                                          "{\"name\":\"test_dynamic_prompt\"}",
                                          "{\"name\":\"test_dynamic_tool\"}"};
    char params[128];
    rt_t t;
    json_object *r;
    int i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", NULL);
    for (i = 0; i < 3; i++) {
        r = rt_call(&t, 10 * i + 1, triggers[i][2], probes[i]);
        assert_int_not_equal(rt_error_code(r), 0);
        json_object_put(r);
        snprintf(params, sizeof(params), "{\"name\":\"%s\"}", triggers[i][0]);
        json_object_put(rt_call(&t, 10 * i + 2, "tools/call", params));
        assert_int_equal(rt_count(&t, triggers[i][1]), 1);
        r = rt_call(&t, 10 * i + 3, triggers[i][2], probes[i]);
        assert_int_equal(rt_error_code(r), 0);
        json_object_put(r);
        json_object_put(rt_call(&t, 10 * i + 4, "tools/call", params));
        assert_int_equal(rt_count(&t, triggers[i][1]), 2);
        rt_clear(&t);
    }
    rt_close(&t);
}

/* ---- prompts ---- */

static void test_prompts(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    r = rt_call(&t, 1, "prompts/get", "{\"name\":\"test_simple_prompt\"}");
    assert_string_equal(rt_str(r, "result.messages.0.role"), "user");
    assert_string_equal(rt_str(r, "result.messages.0.content.type"), "text");
    json_object_put(r);
    r = rt_call(&t, 2, "prompts/get",
                "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"hello\","
                "\"arg2\":\"world\"}}");
    assert_string_equal(rt_str(r, "result.messages.0.content.text"),
                        "Prompt with arguments: arg1='hello', arg2='world'");
    json_object_put(r);
    r = rt_call(&t, 3, "prompts/get",
                "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"x\"}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 4, "prompts/get", "{\"name\":\"no_such_prompt\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 5, "prompts/get",
                "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":1,\"arg2\":"
                "\"y\"}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 6, "prompts/get",
                "{\"name\":\"test_prompt_with_embedded_resource\",\"arguments\":{"
                "\"resourceUri\":\"test://example-resource\"}}");
    assert_string_equal(rt_str(r, "result.messages.0.content.type"), "resource");
    assert_string_equal(rt_str(r, "result.messages.0.content.resource.uri"),
                        "test://example-resource");
    json_object_put(r);
    r = rt_call(&t, 7, "prompts/get", "{\"name\":\"test_prompt_with_image\"}");
    assert_string_equal(rt_str(r, "result.messages.0.content.type"), "image");
    assert_string_equal(rt_str(r, "result.messages.0.content.mimeType"), "image/png");
    json_object_put(r);
    r = rt_call(&t, 8, "prompts/get", "{\"name\":\"test_prompt_with_audio\"}");
    assert_string_equal(rt_str(r, "result.messages.0.content.type"), "audio");
    json_object_put(r);
    r = rt_call(&t, 9, "prompts/get", "{}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    rt_close(&t);
}

/* ---- tools ---- */

static void test_tools(void **state)
{
    static const char *const plain[] = {"test_simple_text", "test_image_content",
                                        "test_audio_content", "test_embedded_resource",
                                        "test_multiple_content_types", "test_resource_link",
                                        "test_structured_content"};
    static const char *const first_type[] = {"text", "image", "audio", "resource", "text",
                                             "resource_link", "text"};
    char params[128];
    rt_t t;
    json_object *r;
    size_t i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", NULL);
    for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        snprintf(params, sizeof(params), "{\"name\":\"%s\",\"arguments\":{}}", plain[i]);
        r = rt_call(&t, (long)i + 1, "tools/call", params);
        assert_string_equal(rt_str(r, "result.content.0.type"), first_type[i]);
        assert_null(rt_at(r, "result.isError"));
        json_object_put(r);
    }
    r = rt_call(&t, 20, "tools/call", "{\"name\":\"test_multiple_content_types\"}");
    assert_int_equal(json_object_array_length(rt_at(r, "result.content")), 3);
    json_object_put(r);
    r = rt_call(&t, 21, "tools/call", "{\"name\":\"test_structured_content\"}");
    assert_non_null(rt_at(r, "result.structuredContent.temperature"));
    json_object_put(r);
    r = rt_call(&t, 22, "tools/call", "{\"name\":\"test_error_handling\"}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    assert_non_null(rt_str(r, "result.content.0.text"));
    json_object_put(r);
    r = rt_call(&t, 23, "tools/call", "{\"name\":\"no_such_tool\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 24, "tools/call", "{\"arguments\":{}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 25, "tools/call", "{\"name\":\"test_simple_text\",\"arguments\":[]}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 26, "tools/call", "{\"name\":\"test_sampling\",\"arguments\":{}}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    r = rt_call(&t, 27, "tools/list", NULL);
    assert_non_null(rt_at(r, "result.tools.0.inputSchema"));
    assert_non_null(rt_str(r, "result.tools.0.description"));
    json_object_put(r);
    rt_close(&t);

    rt_open(&t, NULL);
    rt_init(&t, "2024-11-05", NULL);
    r = rt_call(&t, 1, "tools/call", "{\"name\":\"test_audio_content\"}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    r = rt_call(&t, 2, "tools/call", "{\"name\":\"test_resource_link\"}");
    assert_string_equal(rt_str(r, "result.content.0.type"), "text");
    json_object_put(r);
    rt_close(&t);
}

/* ---- logging ---- */

static void test_logging(void **state)
{
    static const char *const levels[8] = {"debug", "info", "notice", "warning",
                                          "error", "critical", "alert", "emergency"};
    char params[64];
    rt_t t;
    json_object *r;
    int i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    for (i = 0; i < 8; i++) {
        snprintf(params, sizeof(params), "{\"level\":\"%s\"}", levels[i]);
        r = rt_call(&t, 100 + i, "logging/setLevel", params);
        assert_non_null(rt_at(r, "result"));
        json_object_put(r);
        rt_clear(&t);
        json_object_put(rt_call(&t, 200 + i, "tools/call", "{\"name\":\"test_logging_levels\"}"));
        assert_int_equal(rt_count(&t, "notifications/message"), 8 - i);
        r = rt_nth(&t, "notifications/message", 0);
        assert_string_equal(rt_str(r, "params.level"), levels[i]);
        json_object_put(r);
        rt_clear(&t);
    }
    r = rt_call(&t, 1, "logging/setLevel", "{\"level\":\"verbose\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 2, "logging/setLevel", "{}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    /* The test_tool_with_logging fixture: three info messages. */
    json_object_put(rt_call(&t, 3, "logging/setLevel", "{\"level\":\"info\"}"));
    rt_clear(&t);
    json_object_put(rt_call(&t, 4, "tools/call", "{\"name\":\"test_tool_with_logging\"}"));
    assert_int_equal(rt_count(&t, "notifications/message"), 3);
    /* Rate limit: at most 100 messages in one window. */
    json_object_put(rt_call(&t, 5, "logging/setLevel", "{\"level\":\"debug\"}"));
    rt_advance(&t, 5000);
    rt_clear(&t);
    for (i = 0; i < 30; i++)
        json_object_put(rt_call(&t, 300 + i, "tools/call", "{\"name\":\"test_logging_levels\"}"));
    assert_int_equal(rt_count(&t, "notifications/message"), 100);
    rt_close(&t);
}

/* ---- completion ---- */

static void test_completion(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    r = rt_call(&t, 1, "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
                "\"argument\":{\"name\":\"arg1\",\"value\":\"ap\"}}");
    assert_int_equal(json_object_array_length(rt_at(r, "result.completion.values")), 2);
    assert_string_equal(rt_str(r, "result.completion.values.0"), "apple");
    assert_int_equal(rt_int(r, "result.completion.total"), 2);
    json_object_put(r);
    r = rt_call(&t, 2, "completion/complete",
                "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://template/{id}/data\"},"
                "\"argument\":{\"name\":\"id\",\"value\":\"1\"}}");
    assert_int_equal(json_object_array_length(rt_at(r, "result.completion.values")), 2);
    json_object_put(r);
    r = rt_call(&t, 3, "completion/complete",
                "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://items/{category}/{item}\"},"
                "\"argument\":{\"name\":\"item\",\"value\":\"\"},\"context\":{\"arguments\":{"
                "\"category\":\"tools\"}}}");
    assert_string_equal(rt_str(r, "result.completion.values.0"), "hammer");
    json_object_put(r);
    r = rt_call(&t, 4, "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_embedded_resource\"},"
                "\"argument\":{\"name\":\"resourceUri\",\"value\":\"test://static\"}}");
    assert_int_equal(json_object_array_length(rt_at(r, "result.completion.values")), 2);
    json_object_put(r);
    r = rt_call(&t, 5, "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"nope\"},\"argument\":{\"name\":\"a\","
                "\"value\":\"\"}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 6, "completion/complete",
                "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://x/{y}\"},\"argument\":{"
                "\"name\":\"y\",\"value\":\"\"}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 7, "completion/complete", "{\"ref\":{\"type\":\"ref/prompt\"}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    rt_close(&t);
}

/* Completions asked in a row as a user types further: narrowed from the
 * answer before, they are answered exactly as a fresh lookup answers them
 * (each is compared with the same request after a ping, which drops what
 * was kept). With completion-renarrowed-objects, the second narrowing in a
 * row and those after it answer objects; a chain broken by another request
 * starts again. */
static const char *const narrow_chain[] = {
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg1\",\"value\":\"\"}}",
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg1\",\"value\":\"a\"}}",
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg1\",\"value\":\"al\"}}",
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg1\",\"value\":\"alp\"}}",
    /* not typed further: looked up again */
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg1\",\"value\":\"b\"}}",
    /* another argument, then a context that selects another list */
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},"
    "\"argument\":{\"name\":\"arg2\",\"value\":\"b\"}}",
    "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://items/{category}/{item}\"},"
    "\"argument\":{\"name\":\"item\",\"value\":\"\"},\"context\":{\"arguments\":{\"category\":\"tools\"}}}",
    "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://items/{category}/{item}\"},"
    "\"argument\":{\"name\":\"item\",\"value\":\"\"}}",
    "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://items/{category}/{item}\"},"
    "\"argument\":{\"name\":\"item\",\"value\":\"ch\"}}",
    /* a scan of the resources: never narrowed */
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_embedded_resource\"},"
    "\"argument\":{\"name\":\"resourceUri\",\"value\":\"test://\"}}",
    "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_embedded_resource\"},"
    "\"argument\":{\"name\":\"resourceUri\",\"value\":\"test://s\"}}",
};
#define NARROW_N (sizeof(narrow_chain) / sizeof(narrow_chain[0]))

/* The result of each request of narrow_chain sent in a row (or, with
 * ping_between, each after a ping), as compact JSON into out. */
static void narrow_results(const char *inject, int ping_between, char out[][1024])
{
    mc_refserver_opts_t o;
    rt_t t;
    size_t i;

    memset(&o, 0, sizeof(o));
    o.inject = inject;
    rt_open(&t, &o);
    rt_init(&t, "2025-06-18", NULL);
    for (i = 0; i < NARROW_N; i++) {
        json_object *r;
        if (ping_between)
            json_object_put(rt_call(&t, 1000 + (long)i, "ping", NULL));
        r = rt_call(&t, (long)i + 1, "completion/complete", narrow_chain[i]);
        assert_non_null(rt_at(r, "result.completion"));
        snprintf(out[i], 1024, "%s",
                 json_object_to_json_string_ext(rt_at(r, "result"), JSON_C_TO_STRING_PLAIN));
        json_object_put(r);
    }
    rt_close(&t);
}

static void test_completion_narrowing(void **state)
{
    static char row[NARROW_N][1024], fresh[NARROW_N][1024], bug[NARROW_N][1024],
        bug_fresh[NARROW_N][1024];
    size_t i;

    (void)state;
    narrow_results(NULL, 0, row);
    narrow_results(NULL, 1, fresh);
    for (i = 0; i < NARROW_N; i++)
        assert_string_equal(row[i], fresh[i]);
    narrow_results("completion-renarrowed-objects", 0, bug);
    narrow_results("completion-renarrowed-objects", 1, bug_fresh);
    for (i = 0; i < NARROW_N; i++) {
        int objects = strstr(bug[i], "\"values\":[{") != NULL;
        /* requests 3 and 4 are the second and third narrowing in a row */
        assert_int_equal(objects, i == 2 || i == 3);
        assert_string_equal(bug_fresh[i], fresh[i]);
        if (!objects)
            assert_string_equal(bug[i], row[i]);
    }
}

/* ---- progress and cancellation ---- */

static void test_progress_and_cancel(void **state)
{
    mc_refserver_opts_t o;
    rt_t t;
    json_object *r;
    double last = -1;
    size_t i;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.step_delay_ms = 50;
    rt_open(&t, &o);
    rt_init(&t, "2025-06-18", NULL);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_tool_with_progress\",\"_meta\":{\"progressToken\":\"tok\"}}}");
    assert_null(rt_find(&t, 1));
    assert_int_equal(mc_refserver_next_deadline(t.rs), t.now + 50);
    rt_advance(&t, 50);
    rt_advance(&t, 50);
    assert_null(rt_find(&t, 1));
    rt_advance(&t, 50);
    r = rt_response(&t, 1);
    json_object_put(r);
    assert_int_equal(rt_count(&t, "notifications/progress"), 3);
    for (i = 0; i < 3; i++) {
        json_object *p = rt_nth(&t, "notifications/progress", i);
        double v = json_object_get_double(rt_at(p, "params.progress"));
        assert_string_equal(rt_str(p, "params.progressToken"), "tok");
        assert_true(v > last);
        last = v;
        json_object_put(p);
    }
    /* The last line is the response: nothing after it. */
    r = rt_line(&t, t.n - 1);
    assert_int_equal(rt_int(r, "id"), 1);
    json_object_put(r);
    assert_int_equal(mc_refserver_next_deadline(t.rs), -1);
    rt_clear(&t);
    /* No token, no progress. */
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_tool_with_progress\"}}");
    rt_advance(&t, 200);
    json_object_put(rt_response(&t, 2));
    assert_int_equal(rt_count(&t, "notifications/progress"), 0);
    rt_clear(&t);
    /* Cancelled mid-way: no response, no more progress. */
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_tool_with_progress\",\"_meta\":{\"progressToken\":7}}}");
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                "\"requestId\":3,\"reason\":\"test\"}}");
    rt_advance(&t, 500);
    assert_null(rt_find(&t, 3));
    assert_int_equal(rt_count(&t, "notifications/progress"), 1);
    assert_int_equal(mc_refserver_next_deadline(t.rs), -1);
    rt_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resources_read),
        cmocka_unit_test(test_subscribe_updated),
        cmocka_unit_test(test_list_changed),
        cmocka_unit_test(test_prompts),
        cmocka_unit_test(test_tools),
        cmocka_unit_test(test_logging),
        cmocka_unit_test(test_completion),
        cmocka_unit_test(test_completion_narrowing),
        cmocka_unit_test(test_progress_and_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
