/*
 * test_refserver.c - the reference server library driven in memory: negotiation of every
 * version, lifecycle, malformed input and batches, pagination of every list
 * and the options.
 *
 * Each test creates its own server (rt_open), feeds it lines and inspects
 * what it emits.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

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
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
