/*
 * test_refserver.c - the reference server library driven in memory.
 *
 * Each test creates its own server (rt_open), feeds it lines and inspects
 * what it emits: negotiation of every version, lifecycle, malformed input,
 * pagination of every list, resources, subscriptions, list changes, prompts,
 * tools, elicitation, sampling, roots, logging, completion, cancellation,
 * progress and limits.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

#define CAPS_ALL                                                                                   \
    "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{\"listChanged\":true}}"

static const char *const versions[4] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

/* ---- lifecycle ---- */

static void test_negotiate_each_version(void **state)
{
    int i;

    (void)state;
    for (i = 0; i < 4; i++) {
        rt_t t;
        json_object *r;
        rt_open(&t, NULL);
        rt_send(&t,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                "\"protocolVersion\":\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\","
                "\"version\":\"1\"}}}",
                versions[i]);
        r = rt_response(&t, 1);
        assert_string_equal(rt_str(r, "result.protocolVersion"), versions[i]);
        assert_string_equal(rt_str(r, "result.serverInfo.name"), "mcpcheck-refserver");
        /* Shaped per version: title from 2025-06-18, icons from 2025-11-25,
         * completions from 2025-03-26. */
        assert_int_equal(rt_at(r, "result.serverInfo.title") != NULL, i >= 2);
        assert_int_equal(rt_at(r, "result.serverInfo.icons") != NULL, i >= 3);
        assert_int_equal(rt_at(r, "result.capabilities.completions") != NULL, i >= 1);
        assert_non_null(rt_at(r, "result.capabilities.logging"));
        assert_true(json_object_get_boolean(rt_at(r, "result.capabilities.resources.subscribe")));
        json_object_put(r);
        rt_close(&t);
    }
}

static void test_negotiate_unsupported(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    r = rt_call(&t, 1, "initialize",
                "{\"protocolVersion\":\"1999-01-01\",\"capabilities\":{},\"clientInfo\":{"
                "\"name\":\"c\",\"version\":\"1\"}}");
    assert_string_equal(rt_str(r, "result.protocolVersion"), "2025-11-25");
    json_object_put(r);
    r = rt_call(&t, 2, "initialize",
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{"
                "\"name\":\"c\",\"version\":\"1\"}}");
    assert_int_equal(rt_error_code(r), -32600);
    json_object_put(r);
    rt_close(&t);

    rt_open(&t, NULL);
    r = rt_call(&t, 1, "initialize", "{\"capabilities\":{}}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 2, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":3}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    rt_close(&t);
}

static void test_before_initialize(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    /* Before initialize a request is read as a stateless (2026-07-28) one,
     * and without its _meta it is malformed: -32602. */
    r = rt_call(&t, 1, "tools/list", NULL);
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 2, "resources/read", "{\"uri\":\"test://static-text\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 3, "ping", NULL);
    assert_non_null(rt_at(r, "result"));
    assert_int_equal(json_object_object_length(rt_at(r, "result")), 0);
    json_object_put(r);
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assert_int_equal(t.n, 0);
    rt_init(&t, "2025-06-18", NULL);
    r = rt_call(&t, 4, "tools/list", NULL);
    assert_non_null(rt_at(r, "result.tools"));
    json_object_put(r);
    rt_close(&t);
}

/* ---- malformed input ---- */

static void test_malformed(void **state)
{
    static const char nul[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\0\"method\":\"ping\"}";
    char deep[400];
    rt_t t;
    json_object *r;
    size_t i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    rt_send(&t, "{not json");
    rt_send_raw(&t, nul, sizeof(nul) - 1);
    rt_send(&t, "\xff\xfe");
    for (i = 0; i < 200; i++)
        deep[i] = '[';
    for (i = 200; i < 399; i++)
        deep[i] = ']';
    deep[399] = '\0';
    rt_send(&t, "%s", deep);
    assert_int_equal(t.n, 4);
    for (i = 0; i < 4; i++) {
        r = rt_line(&t, i);
        assert_int_equal(rt_int(r, "error.code"), -32700);
        assert_true(json_object_is_type(rt_at(r, "id"), json_type_null));
        assert_non_null(rt_at(r, "id") == NULL ? r : r);
        json_object_put(r);
    }
    rt_clear(&t);
    /* Invalid requests echo the id when it can be read. */
    rt_send(&t, "{\"id\":7,\"method\":\"ping\"}");
    r = rt_response(&t, 7);
    assert_int_equal(rt_error_code(r), -32600);
    json_object_put(r);
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}");
    rt_send(&t, "[{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}]");
    rt_send(&t, "42");
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":7}");
    assert_int_equal(t.n, 4);
    for (i = 0; i < 4; i++) {
        r = rt_line(&t, i);
        assert_int_equal(rt_int(r, "error.code"), -32600);
        json_object_put(r);
    }
    rt_clear(&t);
    r = rt_call(&t, 10, "no/such/method", NULL);
    assert_int_equal(rt_error_code(r), -32601);
    json_object_put(r);
    r = rt_call(&t, 11, "tools/list", "[1,2]");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    /* Notifications are never answered, known or not. */
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}");
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}");
    assert_int_equal(t.n, 0);
    /* And the server keeps serving. */
    r = rt_call(&t, 12, "ping", NULL);
    assert_non_null(rt_at(r, "result"));
    json_object_put(r);
    assert_int_equal(mc_refserver_handle_oversize(t.rs, 1u << 30, t.now), MC_OK);
    r = rt_line(&t, t.n - 1);
    assert_int_equal(rt_int(r, "error.code"), -32700);
    json_object_put(r);
    rt_close(&t);
}

static void test_batch_2025_03_26(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-03-26", NULL);
    rt_send(&t, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\","
                "\"method\":\"notifications/x\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
                "\"nope\"}]");
    assert_int_equal(t.n, 1);
    r = rt_line(&t, 0);
    assert_true(json_object_is_type(r, json_type_array));
    assert_int_equal(json_object_array_length(r), 2);
    assert_int_equal(rt_int(r, "1.error.code"), -32601);
    json_object_put(r);
    rt_clear(&t);
    rt_send(&t, "[]");
    r = rt_line(&t, 0);
    assert_int_equal(rt_int(r, "error.code"), -32600);
    json_object_put(r);
    rt_close(&t);
}

/* ---- pagination ---- */

/* Walks a list to its end; returns the number of items and checks that no
 * name appears twice. key is the array member, namekey the item's name. */
static size_t walk(rt_t *t, long *id, const char *method, const char *key, const char *namekey,
                   char cursors[][64], size_t max_pages)
{
    static char seen[65536];
    size_t items = 0, pages = 0, i;
    char cursor[128] = "";

    seen[0] = '\0';

    for (;;) {
        json_object *r, *arr, *nc;
        if (cursor[0] != '\0') {
            char params[200];
            snprintf(params, sizeof(params), "{\"cursor\":\"%s\"}", cursor);
            r = rt_call(t, ++*id, method, params);
        } else {
            r = rt_call(t, ++*id, method, NULL);
        }
        arr = rt_at(r, "result");
        assert_non_null(arr);
        arr = rt_at(arr, key);
        assert_non_null(arr);
        for (i = 0; i < json_object_array_length(arr); i++) {
            const char *name = rt_str(json_object_array_get_idx(arr, i), namekey);
            char probe[300];
            assert_non_null(name);
            snprintf(probe, sizeof(probe), "|%s|", name);
            assert_null(strstr(seen, probe));
            {
                size_t sl = strlen(seen), pl = strlen(probe);
                if (sl + pl < sizeof(seen))
                    memcpy(seen + sl, probe, pl + 1);
            }
            items++;
        }
        nc = rt_at(r, "result.nextCursor");
        if (cursors != NULL && pages < max_pages)
            snprintf(cursors[pages], 64, "%s", nc != NULL ? json_object_get_string(nc) : "");
        pages++;
        if (nc == NULL) {
            json_object_put(r);
            break;
        }
        assert_true(json_object_is_type(nc, json_type_string));
        snprintf(cursor, sizeof(cursor), "%s", json_object_get_string(nc));
        json_object_put(r);
        assert_true(pages < 100000);
        rt_clear(t);
    }
    rt_clear(t);
    return items;
}

static void test_pagination_every_list(void **state)
{
    char c1[8][64], c2[8][64];
    rt_t t;
    long id = 0;
    json_object *r;
    size_t n;
    int i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    n = walk(&t, &id, "resources/list", "resources", "uri", c1, 8);
    assert_int_equal(n, 5);
    assert_true(c1[0][0] != '\0'); /* several pages */
    n = walk(&t, &id, "resources/list", "resources", "uri", c2, 8);
    for (i = 0; i < 2; i++)
        assert_string_equal(c1[i], c2[i]); /* stable cursors */
    assert_int_equal(walk(&t, &id, "resources/templates/list", "resourceTemplates", "uriTemplate",
                          NULL, 0),
                     4);
    assert_int_equal(walk(&t, &id, "prompts/list", "prompts", "name", NULL, 0), 5);
    n = walk(&t, &id, "tools/list", "tools", "name", c2, 8);
    assert_true(n >= 20);
    /* A foreign cursor (from tools/list) and garbage are refused with -32602. */
    {
        char params[200];
        snprintf(params, sizeof(params), "{\"cursor\":\"%s\"}", c2[0]);
        r = rt_call(&t, 900, "prompts/list", params);
        assert_int_equal(rt_error_code(r), -32602);
        json_object_put(r);
        r = rt_call(&t, 901, "tools/list", params);
        assert_int_equal(rt_error_code(r), 0);
        json_object_put(r);
    }
    r = rt_call(&t, 902, "resources/list", "{\"cursor\":\"AAAAAAAAAAAAAAAA\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 903, "resources/list", "{\"cursor\":\"!!\"}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    r = rt_call(&t, 904, "resources/list", "{\"cursor\":5}");
    assert_int_equal(rt_error_code(r), -32602);
    json_object_put(r);
    rt_close(&t);
}

static void test_pagination_scale(void **state)
{
    mc_refserver_opts_t o;
    rt_t t;
    long id = 0;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.page_size = 7;
    o.extra_items = 250;
    rt_open(&t, &o);
    rt_init(&t, "2025-11-25", NULL);
    assert_int_equal(walk(&t, &id, "resources/list", "resources", "uri", NULL, 0), 255);
    assert_int_equal(walk(&t, &id, "prompts/list", "prompts", "name", NULL, 0), 255);
    assert_true(walk(&t, &id, "tools/list", "tools", "name", NULL, 0) >= 270);
    rt_close(&t);
    o.page_size = 1;
    o.extra_items = 0;
    rt_open(&t, &o);
    rt_init(&t, "2024-11-05", NULL);
    assert_int_equal(walk(&t, &id, "resources/list", "resources", "uri", NULL, 0), 5);
    rt_close(&t);
}

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

/* ---- elicitation, sampling, roots ---- */

/* Calls a tool that sends one request to the client, answers it with
 * answer (JSON text of result or error member) and returns the tool's
 * response. *req receives the request (new reference) when req is not NULL. */
static json_object *ask_and_answer(rt_t *t, long id, const char *call, const char *member,
                                   const char *answer, json_object **req)
{
    json_object *q;
    long qid;

    rt_clear(t);
    rt_send(t, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"tools/call\",\"params\":%s}", id,
            call);
    assert_null(rt_find(t, id));
    q = rt_line(t, t->n - 1);
    assert_non_null(rt_str(q, "method"));
    qid = rt_int(q, "id");
    rt_send(t, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"%s\":%s}", qid, member, answer);
    if (req != NULL)
        *req = q;
    else
        json_object_put(q);
    return rt_response(t, id);
}

static void test_elicitation_form(void **state)
{
    static const char call[] = "{\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"Who?\"}}";
    rt_t t;
    json_object *r, *q;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", CAPS_ALL);
    r = ask_and_answer(&t, 1, call, "result",
                       "{\"action\":\"accept\",\"content\":{\"username\":\"octo\",\"email\":"
                       "\"o@example.com\"}}",
                       &q);
    assert_string_equal(rt_str(q, "method"), "elicitation/create");
    assert_string_equal(rt_str(q, "params.mode"), "form");
    assert_string_equal(rt_str(q, "params.message"), "Who?");
    assert_string_equal(rt_str(q, "params.requestedSchema.properties.email.format"), "email");
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "action=accept"));
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "octo"));
    json_object_put(q);
    json_object_put(r);
    r = ask_and_answer(&t, 2, call, "result", "{\"action\":\"decline\"}", NULL);
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "action=decline"));
    json_object_put(r);
    r = ask_and_answer(&t, 3, call, "result", "{\"action\":\"cancel\"}", NULL);
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "action=cancel"));
    json_object_put(r);
    r = ask_and_answer(&t, 4, call, "result", "{\"action\":\"maybe\"}", NULL);
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    r = ask_and_answer(&t, 5, call, "error", "{\"code\":-32602,\"message\":\"no form\"}", NULL);
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    r = ask_and_answer(&t, 6, "{\"name\":\"test_elicitation_sep1034_defaults\"}", "result",
                       "{\"action\":\"accept\",\"content\":{\"name\":\"Jane\"}}", &q);
    assert_string_equal(rt_str(q, "params.requestedSchema.properties.name.default"), "John Doe");
    assert_int_equal(rt_int(q, "params.requestedSchema.properties.age.default"), 30);
    json_object_put(q);
    json_object_put(r);
    r = ask_and_answer(&t, 7, "{\"name\":\"test_elicitation_sep1330_enums\"}", "result",
                       "{\"action\":\"cancel\"}", &q);
    assert_non_null(rt_at(q, "params.requestedSchema.properties.titledMulti.items.anyOf"));
    assert_non_null(rt_at(q, "params.requestedSchema.properties.legacyEnum.enumNames"));
    json_object_put(q);
    json_object_put(r);
    rt_close(&t);

    /* 2025-06-18: no mode member, and only the enum variants that version has. */
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", "{\"elicitation\":{}}");
    r = ask_and_answer(&t, 1, "{\"name\":\"test_elicitation_sep1330_enums\"}", "result",
                       "{\"action\":\"cancel\"}", &q);
    assert_null(rt_at(q, "params.mode"));
    assert_null(rt_at(q, "params.requestedSchema.properties.titledMulti"));
    json_object_put(q);
    json_object_put(r);
    rt_close(&t);
}

static void test_elicitation_gating(void **state)
{
    rt_t t;
    json_object *r;

    (void)state;
    /* No elicitation capability: no request, an isError result. */
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", "{\"sampling\":{}}");
    r = rt_call(&t, 1, "tools/call", "{\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"}}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    assert_int_equal(rt_count(&t, "elicitation/create"), 0);
    json_object_put(r);
    r = rt_call(&t, 2, "tools/call", "{\"name\":\"test_elicitation_sep1036_url\"}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    r = rt_call(&t, 3, "tools/call", "{\"name\":\"test_list_roots\"}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    assert_int_equal(rt_count(&t, "roots/list"), 0);
    json_object_put(r);
    rt_close(&t);
    /* Form only (empty object): URL mode refused. */
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", "{\"elicitation\":{}}");
    r = rt_call(&t, 1, "tools/call", "{\"name\":\"test_elicitation_sep1036_error\"}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    rt_close(&t);
    /* 2024-11-05 has no elicitation at all. */
    rt_open(&t, NULL);
    rt_init(&t, "2024-11-05", "{\"elicitation\":{}}");
    r = rt_call(&t, 1, "tools/call", "{\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"}}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(r);
    rt_close(&t);
}

static void test_elicitation_url(void **state)
{
    rt_t t;
    json_object *r, *q, *n;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", CAPS_ALL);
    r = ask_and_answer(&t, 1, "{\"name\":\"test_elicitation_sep1036_url\"}", "result",
                       "{\"action\":\"accept\"}", &q);
    assert_string_equal(rt_str(q, "params.mode"), "url");
    assert_non_null(rt_str(q, "params.elicitationId"));
    assert_true(strncmp(rt_str(q, "params.url"), "https://", 8) == 0);
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "accept"));
    json_object_put(q);
    json_object_put(r);
    r = rt_call(&t, 2, "tools/call", "{\"name\":\"test_elicitation_sep1036_error\"}");
    assert_int_equal(rt_error_code(r), -32042);
    assert_string_equal(rt_str(r, "error.data.elicitations.0.mode"), "url");
    assert_non_null(rt_str(r, "error.data.elicitations.0.elicitationId"));
    json_object_put(r);
    r = ask_and_answer(&t, 3, "{\"name\":\"test_elicitation_sep1036_complete\"}", "result",
                       "{\"action\":\"accept\"}", &q);
    n = rt_nth(&t, "notifications/elicitation/complete", 0);
    assert_non_null(n);
    assert_string_equal(rt_str(n, "params.elicitationId"), rt_str(q, "params.elicitationId"));
    json_object_put(n);
    json_object_put(q);
    json_object_put(r);
    rt_close(&t);
}

static void test_sampling_roots(void **state)
{
    rt_t t;
    json_object *r, *q;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", CAPS_ALL);
    r = ask_and_answer(&t, 1, "{\"name\":\"test_sampling\",\"arguments\":{\"prompt\":\"2+2?\"}}",
                       "result",
                       "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"4\"},"
                       "\"model\":\"m\"}",
                       &q);
    assert_string_equal(rt_str(q, "method"), "sampling/createMessage");
    assert_string_equal(rt_str(q, "params.messages.0.content.text"), "2+2?");
    assert_int_equal(rt_int(q, "params.maxTokens"), 100);
    assert_string_equal(rt_str(r, "result.content.0.text"), "LLM response: 4");
    json_object_put(q);
    json_object_put(r);
    r = ask_and_answer(&t, 2, "{\"name\":\"test_list_roots\"}", "result",
                       "{\"roots\":[{\"uri\":\"file:///a\"},{\"uri\":\"file:///b\"}]}", &q);
    assert_string_equal(rt_str(q, "method"), "roots/list");
    assert_non_null(strstr(rt_str(r, "result.content.0.text"), "file:///b"));
    json_object_put(q);
    json_object_put(r);
    rt_close(&t);
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", "{}");
    r = rt_call(&t, 1, "tools/call", "{\"name\":\"test_sampling\",\"arguments\":{\"prompt\":\"x\"}}");
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    assert_int_equal(rt_count(&t, "sampling/createMessage"), 0);
    json_object_put(r);
    rt_close(&t);
}

/* Many tool calls waiting for the client at once: the tables stay bounded. */
static void test_pending_limits(void **state)
{
    rt_t t;
    size_t errors = 0, i, requests;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", CAPS_ALL);
    for (i = 0; i < 200; i++)
        rt_send(&t,
                "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_list_roots\"}}",
                i + 1);
    requests = rt_count(&t, "roots/list");
    assert_true(requests <= 64);
    for (i = 0; i < 200; i++) {
        json_object *r = rt_find(&t, (long)i + 1);
        if (r != NULL && rt_error_code(r) == -32603)
            errors++;
        json_object_put(r);
    }
    assert_true(errors >= 200 - 64);
    /* Answers to unknown ids are ignored. */
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":123456,\"result\":{\"roots\":[]}}");
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{}}");
    assert_int_equal(t.n, 0);
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


/* ---- --root confinement ---- */

/* Writes a small file. */
static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Reads uri and returns the error code (0 on success); text receives the
 * text of a successful read. */
static long read_code(rt_t *t, long id, const char *uri, char *text, size_t cap)
{
    char params[4200];
    json_object *r;
    long code;

    snprintf(params, sizeof(params), "{\"uri\":\"%s\"}", uri);
    r = rt_call(t, id, "resources/read", params);
    code = rt_error_code(r);
    if (code == 0 && text != NULL)
        snprintf(text, cap, "%s", rt_str(r, "result.contents.0.text") ? rt_str(r, "result.contents.0.text") : "");
    json_object_put(r);
    return code;
}

/*
 * Every string the server takes as a name, URI, cursor or value is refused
 * with -32602 when it holds a NUL ("\u0000"): json-c keeps the length, but
 * C string functions stop at the NUL, so "test://static-text\u0000x" would
 * otherwise read test://static-text and answer with another uri.
 */
static void test_nul_in_strings(void **state)
{
    static const struct {
        const char *method, *params;
    } cases[] = {
        {"resources/read", "{\"uri\":\"test://static-text\\u0000x\"}"},
        {"resources/read", "{\"uri\":\"test://template/1\\u0000/data\"}"},
        {"resources/subscribe", "{\"uri\":\"test://watched-resource\\u0000\"}"},
        {"resources/unsubscribe", "{\"uri\":\"test://watched-resource\\u0000\"}"},
        {"resources/list", "{\"cursor\":\"\\u0000\"}"},
        {"resources/templates/list", "{\"cursor\":\"a\\u0000\"}"},
        {"prompts/list", "{\"cursor\":\"\\u0000b\"}"},
        {"tools/list", "{\"cursor\":\"\\u0000\"}"},
        {"prompts/get", "{\"name\":\"test_simple_prompt\\u0000\"}"},
        {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":"
                        "{\"arg1\":\"a\\u0000b\",\"arg2\":\"c\"}}"},
        {"tools/call", "{\"name\":\"test_simple_text\\u0000\",\"arguments\":{}}"},
        {"tools/call", "{\"name\":\"test_simple_text\",\"arguments\":{\"x\":\"\\u0000\"}}"},
        {"logging/setLevel", "{\"level\":\"info\\u0000\"}"},
        {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                                "\"test_prompt_with_arguments\\u0000\"},\"argument\":"
                                "{\"name\":\"arg1\",\"value\":\"\"}}"},
        {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                                "\"test_prompt_with_arguments\"},\"argument\":"
                                "{\"name\":\"arg1\",\"value\":\"x\\u0000\"}}"},
    };
    rt_t t;
    size_t i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_object *r = rt_call(&t, (long)i + 10, cases[i].method, cases[i].params);
        if (rt_error_code(r) != -32602)
            fail_msg("%s %s: expected -32602, got %s", cases[i].method, cases[i].params,
                     json_object_to_json_string(r));
        json_object_put(r);
    }
    /* The same requests without the NUL still work. */
    {
        json_object *r = rt_call(&t, 100, "resources/read", "{\"uri\":\"test://static-text\"}");
        assert_int_equal(rt_error_code(r), 0);
        assert_string_equal(rt_str(r, "result.contents.0.uri"), "test://static-text");
        json_object_put(r);
    }
    rt_close(&t);
}

static void test_root_confinement(void **state)
{
    char base[] = "/tmp/mc-refserver-rootXXXXXX";
    char root[300], path[400], uri[800], text[256];
    mc_refserver_opts_t o;
    rt_t t;
    json_object *r;
    long id = 0;
    size_t n;

    (void)state;
    assert_non_null(mkdtemp(base));
    snprintf(root, sizeof(root), "%s/root", base);
    assert_int_equal(mkdir(root, 0700), 0);
    snprintf(path, sizeof(path), "%s/secret.txt", base);
    put_file(path, "outside the root");
    snprintf(path, sizeof(path), "%s/hello.txt", root);
    put_file(path, "hello from the root");
    snprintf(path, sizeof(path), "%s/sub", root);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/sub/a b.md", root);
    put_file(path, "# spaced");
    snprintf(path, sizeof(path), "%s/out-link", root);
    snprintf(uri, sizeof(uri), "%s/secret.txt", base);
    assert_int_equal(symlink(uri, path), 0);
    snprintf(path, sizeof(path), "%s/in-link", root);
    assert_int_equal(symlink("hello.txt", path), 0);
    snprintf(path, sizeof(path), "%s/fifo", root);
    assert_int_equal(mkfifo(path, 0600), 0);

    memset(&o, 0, sizeof(o));
    o.root = root;
    o.page_size = 50;
    rt_open(&t, &o);
    rt_init(&t, "2025-06-18", NULL);
    /* Listed: the two regular files only (no symlinks, no fifo, no directories). */
    r = rt_call(&t, ++id, "resources/list", NULL);
    n = json_object_array_length(rt_at(r, "result.resources"));
    assert_int_equal(n, 5 + 2);
    assert_string_equal(rt_str(r, "result.resources.5.name"), "hello.txt");
    assert_non_null(strstr(rt_str(r, "result.resources.6.uri"), "/sub/a%20b.md"));
    snprintf(uri, sizeof(uri), "%s", rt_str(r, "result.resources.6.uri"));
    json_object_put(r);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    assert_string_equal(text, "# spaced");
    snprintf(uri, sizeof(uri), "file://%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    assert_string_equal(text, "hello from the root");
    snprintf(uri, sizeof(uri), "file://localhost%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), 0);
    /* A symlink that stays inside the root is followed. */
    snprintf(uri, sizeof(uri), "file://%s/in-link", root);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    /* Refused: traversal, encoded traversal, absolute elsewhere, symlink out,
     * NUL, fifo, directory, a host, bad encoding. */
    snprintf(uri, sizeof(uri), "file://%s/../secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/%%2e%%2e/secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/sub/%%2E%%2E/%%2e%%2e/secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/secret.txt", base);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    assert_int_equal(read_code(&t, ++id, "file:///etc/passwd", NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/out-link", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/hello.txt%%00.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    /* A JSON "\u0000" inside the URI: C would see only secret.txt / hello.txt. */
    snprintf(uri, sizeof(uri), "file://%s/hello.txt\\u0000.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/../secret.txt\\u0000.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/fifo", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/sub", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://evil.example%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/%%zz", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/missing.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32002);
    rt_close(&t);

    snprintf(path, sizeof(path), "%s/fifo", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/in-link", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/out-link", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub/a b.md", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub", root);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/hello.txt", root);
    unlink(path);
    rmdir(root);
    snprintf(path, sizeof(path), "%s/secret.txt", base);
    unlink(path);
    rmdir(base);
}

/* ---- hostile input ---- */

/* ---- random input ---- */

/* What the test expects of one random line, judged by json-c on its own. */
static size_t rand_requests, rand_kindless;
enum rand_class { RAND_NOT_JSON, RAND_NOT_OBJECT, RAND_OBJECT, RAND_NCLASSES };

/* Classifies a line: not JSON (strict, UTF-8 checked), JSON that is not an
 * object, or an object. */
static enum rand_class rand_classify(const char *buf, size_t len, json_object **root)
{
    json_tokener *tok = json_tokener_new_ex(64);
    json_object *o;
    enum json_tokener_error err;
    int whole;

    assert_non_null(tok);
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    o = json_tokener_parse_ex(tok, buf, (int)len);
    err = json_tokener_get_error(tok);
    whole = (size_t)tok->char_offset == len;
    if (err == json_tokener_continue) {
        /* A bare scalar ("1") needs the end of input to be complete. */
        o = json_tokener_parse_ex(tok, "", 1);
        err = json_tokener_get_error(tok);
    }
    /* json-c returns NULL for the JSON value null: success decides. */
    if (err != json_tokener_success || !whole) {
        json_object_put(o);
        o = NULL;
        err = json_tokener_error_parse_unexpected;
    }
    json_tokener_free(tok);
    *root = o;
    if (err != json_tokener_success)
        return RAND_NOT_JSON;
    return json_object_is_type(o, json_type_object) ? RAND_OBJECT : RAND_NOT_OBJECT;
}

/* Every captured line is a JSON-RPC 2.0 message: an object with "jsonrpc":
 * "2.0" that is a request or notification (a string method), or a response
 * (an id and exactly one of result and error, the error with an integer code
 * and a string message). Returns the number of responses among them. */
static size_t rand_check_lines(rt_t *t, const char *input)
{
    size_t i, responses = 0;

    for (i = 0; i < t->n; i++) {
        json_object *o = rt_line(t, i);
        const char *v = rt_str(o, "jsonrpc");
        if (!json_object_is_type(o, json_type_object) || v == NULL || strcmp(v, "2.0") != 0)
            fail_msg("not a JSON-RPC 2.0 message after input <%s>: %s", input, t->lines[i]);
        if (rt_at(o, "method") == NULL) {
            int has_result = rt_at(o, "result") != NULL, has_error = rt_at(o, "error") != NULL;
            if (!json_object_object_get_ex(o, "id", NULL) || has_result == has_error)
                fail_msg("malformed response after input <%s>: %s", input, t->lines[i]);
            if (has_error && (rt_str(o, "error.message") == NULL ||
                              !json_object_is_type(rt_at(o, "error.code"), json_type_int)))
                fail_msg("malformed error after input <%s>: %s", input, t->lines[i]);
            responses++;
        } else if (rt_str(o, "method") == NULL) {
            fail_msg("non-string method after input <%s>: %s", input, t->lines[i]);
        }
        json_object_put(o);
    }
    return responses;
}

/* The single captured line is an error response with this code and a null
 * id. */
static void rand_expect_error(rt_t *t, long code, const char *input)
{
    json_object *o, *id = NULL;

    if (t->n != 1)
        fail_msg("input <%s>: %zu lines emitted, expected one error", input, t->n);
    o = rt_line(t, 0);
    if (rt_error_code(o) != code || !json_object_object_get_ex(o, "id", &id) || id != NULL)
        fail_msg("input <%s>: expected error %ld with id null, got %s", input, code, t->lines[0]);
    json_object_put(o);
}

/* What an object gets: a well-formed request (jsonrpc "2.0", a string
 * method, a string or integer id, params absent or an object, no result or
 * error beside them; every method the generator names is answered at once)
 * exactly one response that carries its id, a result for ping; an object
 * that is no message kind (no method, result or error) exactly one -32600. */
static void rand_expect_object(rt_t *t, json_object *root, size_t responses, const char *input)
{
    json_object *v = NULL, *m = NULL, *params = NULL, *id = NULL, *o;
    int has_method = json_object_object_get_ex(root, "method", &m);
    int has_result = json_object_object_get_ex(root, "result", NULL);
    int has_error = json_object_object_get_ex(root, "error", NULL);

    json_object_object_get_ex(root, "jsonrpc", &v);
    json_object_object_get_ex(root, "id", &id);
    if (json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), "2.0") == 0 &&
        json_object_is_type(m, json_type_string) && !has_result && !has_error &&
        (json_object_is_type(id, json_type_int) || json_object_is_type(id, json_type_string)) &&
        (!json_object_object_get_ex(root, "params", &params) ||
         json_object_is_type(params, json_type_object))) {
        if (t->n != 1 || responses != 1)
            fail_msg("input <%s>: a request got %zu lines", input, t->n);
        o = rt_line(t, 0);
        if (!json_object_equal(rt_at(o, "id"), id) ||
            (strcmp(json_object_get_string(m), "ping") == 0 && rt_at(o, "result") == NULL))
            fail_msg("input <%s>: the request got %s", input, t->lines[0]);
        json_object_put(o);
        rand_requests++;
    } else if (!has_method && !has_result && !has_error) {
        if (t->n != 1 || responses != 1)
            fail_msg("input <%s>: %zu lines, expected one -32600", input, t->n);
        o = rt_line(t, 0);
        if (rt_error_code(o) != -32600)
            fail_msg("input <%s>: expected -32600, got %s", input, t->lines[0]);
        json_object_put(o);
        rand_kindless++;
    }
}

/* Builds a random object from JSON-RPC members, each key at most once: one
 * of its variants or none. Returns the length written to buf. */
static size_t rand_object(unsigned *seed, char *buf, size_t cap)
{
    static const char *const members[][6] = {
        {"\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\"", "\"jsonrpc\":2"},
        {"\"id\":7", "\"id\":\"s\"", "\"id\":null", "\"id\":1.5", "\"id\":[]"},
        {"\"method\":\"ping\"", "\"method\":\"tools/list\"", "\"method\":\"tools/call\"",
         "\"method\":\"resources/read\"", "\"method\":\"notifications/cancelled\"",
         "\"method\":7"},
        {"\"params\":{\"name\":\"test_simple_text\"}", "\"params\":{\"uri\":\"test://static-text\"}",
         "\"params\":null", "\"params\":[]", "\"params\":{\"cursor\":\"\\u0000\"}"},
        {"\"result\":{}", "\"result\":null"},
        {"\"error\":{\"code\":1,\"message\":\"m\"}", "\"error\":{}"},
    };
    size_t len = 0, m;

    buf[len++] = '{';
    for (m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
        size_t n = 0, pick;
        while (n < 6 && members[m][n] != NULL)
            n++;
        /* The envelope members are absent about a third of the time, result
         * and error (which make a request invalid) about three times in four. */
        pick = ((*seed = *seed * 1103515245u + 12345u) >> 16) % (m < 4 ? n + n / 2 + 1 : 4 * n);
        if (pick >= n)
            continue;
        n = strlen(members[m][pick]);
        assert_true(len + n + 3 < cap);
        if (len > 1)
            buf[len++] = ',';
        memcpy(buf + len, members[m][pick], n);
        len += n;
    }
    buf[len++] = '}';
    return len;
}

/*
 * Lines made of random JSON-RPC fragments, and random objects made of
 * JSON-RPC members. json-c, used here on its own,
 * decides what each line is, and the server must answer accordingly: bytes
 * that are not JSON get one -32700 with id null, JSON that is not an object
 * one -32600 with id null (a 2025-11-25 session takes no batch), and whatever
 * comes, every emitted line is a well-formed JSON-RPC message, no input gets
 * two responses, and a response carries the id of the input or null. After
 * the storm, the session still answers. Each class of input must have been
 * generated, so the test cannot pass on a generator that went dull.
 */
static void test_random_input(void **state)
{
    static const char *const pieces[] = {
        "{", "}", "[", "]", "\"jsonrpc\"", ":", "\"2.0\"", ",", "\"id\"", "1", "\"method\"",
        "\"tools/call\"", "\"params\"", "{\"name\":\"test_elicitation\"}", "null", "\"cursor\"",
        "\"resources/read\"", "\"uri\"", "\"file:///etc/passwd\"", "\"initialize\"",
        "\"protocolVersion\"", "\"2025-11-25\"", "\xff", "\\u0000", "\"result\"", "-1e999"};
    char buf[512];
    size_t seen[RAND_NCLASSES] = {0, 0, 0};
    json_object *r;
    rt_t t;
    unsigned seed = 12345;
    int i, k;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", CAPS_ALL);
    for (i = 0; i < 5000; i++) {
        size_t len = 0, responses;
        int parts = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 16;
        json_object *root, *in_id = NULL;
        enum rand_class cls;

        for (k = 0; i % 2 == 0 && k < parts; k++) {
            const char *p = pieces[((seed = seed * 1103515245u + 12345u) >> 16) %
                                   (sizeof(pieces) / sizeof(pieces[0]))];
            size_t n = strlen(p);
            if (len + n >= sizeof(buf))
                break;
            memcpy(buf + len, p, n);
            len += n;
        }
        if (i % 2 == 1)
            len = rand_object(&seed, buf, sizeof(buf));
        buf[len] = '\0';
        cls = rand_classify(buf, len, &root);
        seen[cls]++;
        rt_clear(&t);
        rt_send_raw(&t, buf, len);
        responses = rand_check_lines(&t, buf);
        if (cls == RAND_NOT_JSON) {
            rand_expect_error(&t, -32700, buf);
        } else if (cls == RAND_NOT_OBJECT) {
            rand_expect_error(&t, -32600, buf);
        } else {
            size_t j;
            if (responses > 1)
                fail_msg("input <%s>: %zu responses", buf, responses);
            json_object_object_get_ex(root, "id", &in_id);
            for (j = 0; j < t.n; j++) {
                json_object *o = rt_line(&t, j), *id = NULL;
                if (rt_at(o, "method") == NULL && json_object_object_get_ex(o, "id", &id) &&
                    id != NULL && !json_object_equal(id, in_id))
                    fail_msg("input <%s>: a response with an id it did not carry: %s", buf,
                             t.lines[j]);
                json_object_put(o);
            }
            rand_expect_object(&t, root, responses, buf);
        }
        json_object_put(root);
    }
    assert_true(rand_requests > 20);
    assert_true(rand_kindless > 20);
    assert_true(seen[RAND_NOT_JSON] > 100);
    assert_true(seen[RAND_NOT_OBJECT] > 10);
    assert_true(seen[RAND_OBJECT] > 100);
    rt_clear(&t);
    r = rt_call(&t, 424242, "ping", NULL);
    assert_true(json_object_is_type(rt_at(r, "result"), json_type_object));
    json_object_put(r);
    r = rt_call(&t, 424243, "tools/list", NULL);
    assert_true(json_object_is_type(rt_at(r, "result.tools"), json_type_array));
    json_object_put(r);
    rt_close(&t);
}

static void test_options(void **state)
{
    mc_refserver_opts_t o;
    mc_errbuf_t eb;
    rt_t t;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.inject = "no-such-switch";
    mc_errbuf_clear(&eb);
    assert_null(mc_refserver_new(&o, rt_emit, &t, &eb));
    assert_non_null(strstr(eb.msg, "no-such-switch"));
    o.inject = NULL;
    o.page_size = -1;
    assert_null(mc_refserver_new(&o, rt_emit, &t, NULL));
    o.page_size = 0;
    o.root = "/nonexistent/dir/for/refserver/test";
    assert_null(mc_refserver_new(&o, rt_emit, &t, NULL));
    assert_true(mc_refserver_bug_count() >= 40);
    mc_refserver_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negotiate_each_version),
        cmocka_unit_test(test_negotiate_unsupported),
        cmocka_unit_test(test_before_initialize),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_batch_2025_03_26),
        cmocka_unit_test(test_pagination_every_list),
        cmocka_unit_test(test_pagination_scale),
        cmocka_unit_test(test_resources_read),
        cmocka_unit_test(test_subscribe_updated),
        cmocka_unit_test(test_list_changed),
        cmocka_unit_test(test_prompts),
        cmocka_unit_test(test_tools),
        cmocka_unit_test(test_elicitation_form),
        cmocka_unit_test(test_elicitation_gating),
        cmocka_unit_test(test_elicitation_url),
        cmocka_unit_test(test_sampling_roots),
        cmocka_unit_test(test_pending_limits),
        cmocka_unit_test(test_logging),
        cmocka_unit_test(test_completion),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_nul_in_strings),
        cmocka_unit_test(test_root_confinement),
        cmocka_unit_test(test_random_input),
        cmocka_unit_test(test_options),
    };

    return cmocka_run_group_tests_name("refserver", tests, NULL, NULL);
}
