/*
 * test_gen.c - the campaign's generator and mutator: tools named only when
 * allowed, sequences bounded, stateless requests stamped, revealed names
 * renamed and reused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "campaign/gen.h"
#include "core/json.h"
#include "support.h"

/* Generated tools/call requests name only allowed tools, and mutants stay
 * within the sequence cap. */
static void test_gen_tools_and_bounds(void **state)
{
    mc_gen_t g;
    json_object *safe = ct_parse("[\"safe_one\"]");
    json_object *tools = ct_parse("{\"tools\": [{\"name\": \"safe_one\", \"inputSchema\": "
                               "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": "
                               "\"integer\"}}, \"required\": [\"n\"]}}, {\"name\": "
                               "\"rm_rf\", \"inputSchema\": {\"type\": \"object\"}}]}");
    json_object *seq;
    size_t i, calls = 0;

    (void)state;
    assert_int_equal(mc_gen_init(&g, 42, safe, 0), 0);
    mc_gen_learn(&g, "tools/list", tools);
    assert_int_equal(g.tools.n, 2);
    assert_true(mc_gen_allowed(&g, "safe_one"));
    assert_false(mc_gen_allowed(&g, "rm_rf"));
    assert_false(mc_gen_allowed(&g, NULL));
    for (i = 0; i < 3000; i++) {
        json_object *m = mc_gen_message(&g);
        const char *method = mc_json_get_str(m, "method");
        if (method != NULL && strcmp(method, "tools/call") == 0) {
            json_object *params = mc_json_get(m, "params");
            calls++;
            assert_string_equal(mc_json_get_str(params, "name"), "safe_one");
            /* Arguments are made from the inputSchema. */
            assert_non_null(mc_json_get(mc_json_get(params, "arguments"), "n"));
        }
        json_object_put(m);
    }
    assert_true(calls > 0);
    seq = mc_gen_sequence(&g);
    for (i = 0; i < 3000; i++) {
        json_object *next = mc_gen_mutate(&g, seq, seq);
        assert_non_null(next);
        assert_true(json_object_array_length(next) >= 1);
        assert_true(json_object_array_length(next) <= MC_GEN_MAX_SEQ);
        json_object_put(seq);
        seq = next;
    }
    json_object_put(seq);
    mc_gen_free(&g);
    json_object_put(safe);
    json_object_put(tools);
}

/* With a stateless version's _meta set, every generated request carries
 * it (next to a progress token), notifications do not. */
static void test_gen_stamps_requests(void **state)
{
    mc_gen_t g;
    json_object *meta = ct_parse("{\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\"}");
    size_t i, requests = 0, stamped = 0, notes_stamped = 0;

    (void)state;
    assert_int_equal(mc_gen_init(&g, 9, NULL, 0), 0);
    assert_int_equal(mc_gen_set_meta(&g, meta), 0);
    for (i = 0; i < 500; i++) {
        json_object *m = mc_gen_message(&g);
        const char *v = mc_json_get_str(mc_json_get(mc_json_get(m, "params"), "_meta"),
                                        "io.modelcontextprotocol/protocolVersion");
        if (mc_json_get(m, "id") != NULL) {
            requests++;
            stamped += v != NULL && strcmp(v, "2026-07-28") == 0;
        } else {
            notes_stamped += v != NULL;
        }
        json_object_put(m);
    }
    /* Odd params (not an object) stay odd; the rest is every request. */
    assert_true(requests > 300 && stamped > requests - requests / 20);
    assert_int_equal(notes_stamped, 0);
    mc_gen_free(&g);
    json_object_put(meta);
}

/* At a stateless version the methods are 2026-07-28's: server/discover and
 * subscriptions/listen are made (with a notifications filter), initialize
 * never, and a third of the requests name a log level in their _meta; in
 * the initialize era neither new method is made. */
static void test_gen_stateless_methods(void **state)
{
    mc_gen_t g, legacy;
    json_object *meta = ct_parse("{\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\"}");
    size_t i, discover = 0, listen = 0, filtered = 0, init = 0, leveled = 0, requests = 0;
    size_t legacy_new = 0;

    (void)state;
    assert_int_equal(mc_gen_init(&g, 5, NULL, 1), 0);
    assert_int_equal(mc_gen_init(&legacy, 5, NULL, 1), 0);
    assert_int_equal(mc_gen_set_meta(&g, meta), 0);
    for (i = 0; i < 2000; i++) {
        json_object *m = mc_gen_message(&g), *l = mc_gen_message(&legacy);
        const char *method = mc_json_get_str(m, "method"), *lm = mc_json_get_str(l, "method");
        json_object *p = mc_json_get(m, "params");
        requests += mc_json_get(m, "id") != NULL;
        discover += strcmp(method, "server/discover") == 0;
        init += strcmp(method, "initialize") == 0;
        if (strcmp(method, "subscriptions/listen") == 0) {
            listen++;
            filtered += json_object_is_type(mc_json_get(p, "notifications"), json_type_object);
        }
        leveled += mc_json_get(mc_json_get(p, "_meta"), MC_GEN_META_LOG_LEVEL) != NULL;
        legacy_new += strcmp(lm, "server/discover") == 0 || strcmp(lm, "subscriptions/listen") == 0;
        json_object_put(m);
        json_object_put(l);
    }
    assert_true(discover > 40 && listen > 40);
    assert_int_equal(filtered, listen);
    assert_int_equal(init, 0);
    assert_true(leveled > requests / 5 && leveled < requests / 2);
    assert_int_equal(legacy_new, 0);
    mc_gen_free(&g);
    mc_gen_free(&legacy);
    json_object_put(meta);
}

/* A listen stream a sequence opens and does not cancel is cancelled at its
 * end; one it cancels is left alone; a full sequence makes room. */
static void test_gen_close_listens(void **state)
{
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": \"L\", \"method\": \"subscriptions/listen\", "
        "\"params\": {\"notifications\": {}}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"subscriptions/listen\", "
        "\"params\": {\"notifications\": {}}},"
        " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", "
        "\"params\": {\"requestId\": 7}}]");
    json_object *last, *full = json_object_new_array();
    size_t i;

    (void)state;
    assert_int_equal(mc_gen_close_listens(seq), 1);
    assert_int_equal(json_object_array_length(seq), 4);
    last = json_object_array_get_idx(seq, 3);
    assert_string_equal(mc_json_get_str(last, "method"), "notifications/cancelled");
    assert_string_equal(mc_json_get_str(mc_json_get(last, "params"), "requestId"), "L");
    assert_int_equal(mc_gen_close_listens(seq), 0); /* closed now */
    json_object_array_add(full, json_object_get(json_object_array_get_idx(seq, 0)));
    for (i = 1; i < MC_GEN_MAX_SEQ; i++)
        json_object_array_add(full, ct_parse("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}"));
    assert_int_equal(mc_gen_close_listens(full), 1);
    assert_int_equal(json_object_array_length(full), MC_GEN_MAX_SEQ);
    json_object_put(seq);
    json_object_put(full);
}

/* A listen's id is matched to a cancellation's requestId exactly: two long
 * ids that share their first 200 bytes are two ids, and a listen whose id
 * is not valid is refused, so it opens no stream to close. */
static void test_gen_close_listens_ids(void **state)
{
    char a[260], b[260], line[1024];
    json_object *seq, *odd;

    (void)state;
    memset(a, 'L', 200);
    memcpy(b, a, 200);
    snprintf(a + 200, sizeof(a) - 200, "-one");
    snprintf(b + 200, sizeof(b) - 200, "-two");
    snprintf(line, sizeof(line),
             "[{\"jsonrpc\": \"2.0\", \"id\": \"%s\", \"method\": \"subscriptions/listen\", "
             "\"params\": {\"notifications\": {}}},"
             " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", "
             "\"params\": {\"requestId\": \"%s\"}}]", a, b);
    seq = ct_parse(line);
    assert_int_equal(mc_gen_close_listens(seq), 1);
    assert_string_equal(mc_json_get_str(mc_json_get(json_object_array_get_idx(seq, 2), "params"),
                                        "requestId"), a);
    assert_int_equal(mc_gen_close_listens(seq), 0);
    odd = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1.5, \"method\": \"subscriptions/listen\", "
                   "\"params\": {\"notifications\": {}}}]");
    assert_int_equal(mc_gen_close_listens(odd), 0);
    assert_int_equal(json_object_array_length(odd), 1);
    json_object_put(seq);
    json_object_put(odd);
}

/* The URI a sequence subscribes, unsubscribes and reads is now and then
 * renamed to another revealed URI in all three messages at once (by chance
 * alone, three tree mutations would each have to pick the same one). */
static void test_gen_rename_revealed(void **state)
{
    mc_gen_t g;
    json_object *listed = ct_parse("{\"resources\": [{\"uri\": \"test://a\"}, "
                                   "{\"uri\": \"test://b\"}, {\"uri\": \"test://c\"}]}");
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"resources/subscribe\", "
        "\"params\": {\"uri\": \"test://a\"}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/unsubscribe\", "
        "\"params\": {\"uri\": \"test://a\"}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"resources/read\", "
        "\"params\": {\"uri\": \"test://a\"}}]");
    size_t i, renamed[2] = {0, 0};

    (void)state;
    assert_int_equal(mc_gen_init(&g, 11, NULL, 0), 0);
    mc_gen_learn(&g, "resources/list", listed);
    for (i = 0; i < 2000; i++) {
        json_object *out = mc_gen_mutate(&g, seq, NULL);
        const char *u[3] = {NULL, NULL, NULL};
        size_t k;
        for (k = 0; k < 3 && k < json_object_array_length(out); k++)
            u[k] = mc_json_get_str(mc_json_get(json_object_array_get_idx(out, k), "params"), "uri");
        if (u[0] != NULL && u[1] != NULL && u[2] != NULL && strcmp(u[0], u[1]) == 0 &&
            strcmp(u[1], u[2]) == 0 && strcmp(u[0], "test://a") != 0)
            renamed[strcmp(u[0], "test://b") == 0 ? 0 : 1]++;
        json_object_put(out);
    }
    /* About one mutant in twenty to each other URI (none without the
     * renaming); the original stays. */
    assert_true(renamed[0] > 20 && renamed[1] > 20);
    assert_string_equal(
        mc_json_get_str(mc_json_get(json_object_array_get_idx(seq, 1), "params"), "uri"),
        "test://a");
    json_object_put(seq);
    json_object_put(listed);
    /* Two URIs of one sequence often become one of them: of ten revealed
     * URIs, a renaming to any would pick the other one time in ten. */
    listed = ct_parse("{\"resources\": [{\"uri\": \"test://a\"}, {\"uri\": \"test://b\"}, "
                      "{\"uri\": \"u3\"}, {\"uri\": \"u4\"}, {\"uri\": \"u5\"}, "
                      "{\"uri\": \"u6\"}, {\"uri\": \"u7\"}, {\"uri\": \"u8\"}, "
                      "{\"uri\": \"u9\"}, {\"uri\": \"u10\"}]}");
    mc_gen_learn(&g, "resources/list", listed);
    seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"resources/subscribe\", "
        "\"params\": {\"uri\": \"test://a\"}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/unsubscribe\", "
        "\"params\": {\"uri\": \"test://b\"}}]");
    renamed[0] = 0;
    for (i = 0; i < 2000; i++) {
        json_object *out = mc_gen_mutate(&g, seq, NULL);
        const char *u0 = NULL, *u1 = NULL;
        if (json_object_array_length(out) == 2) {
            u0 = mc_json_get_str(mc_json_get(json_object_array_get_idx(out, 0), "params"), "uri");
            u1 = mc_json_get_str(mc_json_get(json_object_array_get_idx(out, 1), "params"), "uri");
        }
        if (u0 != NULL && u1 != NULL && strcmp(u0, u1) == 0 &&
            (strcmp(u0, "test://a") == 0 || strcmp(u0, "test://b") == 0))
            renamed[0]++;
        json_object_put(out);
    }
    assert_true(renamed[0] > 35); /* 53 here; 20 with renamings to any URI alone */
    mc_gen_free(&g);
    json_object_put(seq);
    json_object_put(listed);
}

/* A message made for a sequence often names a URI the sequence already
 * names: of ten revealed URIs, a pick from the list would name it one time
 * in ten at most. */
static void test_gen_reuses_names(void **state)
{
    mc_gen_t g;
    json_object *listed = ct_parse(
        "{\"resources\": [{\"uri\": \"u1\"}, {\"uri\": \"u2\"}, {\"uri\": \"u3\"}, {\"uri\": \"u4\"}, "
        "{\"uri\": \"u5\"}, {\"uri\": \"u6\"}, {\"uri\": \"u7\"}, {\"uri\": \"u8\"}, "
        "{\"uri\": \"u9\"}, {\"uri\": \"u10\"}]}");
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
                                "\"resources/subscribe\", \"params\": {\"uri\": \"u7\"}}]");
    size_t i, with_uri = 0, same = 0;

    (void)state;
    assert_int_equal(mc_gen_init(&g, 5, NULL, 0), 0);
    mc_gen_learn(&g, "resources/list", listed);
    for (i = 0; i < 3000; i++) {
        json_object *out = mc_gen_extend(&g, seq, NULL);
        json_object *last = json_object_array_get_idx(out, json_object_array_length(out) - 1);
        const char *method = mc_json_get_str(last, "method");
        const char *uri = mc_json_get_str(mc_json_get(last, "params"), "uri");
        if (json_object_array_length(out) == 2 && method != NULL &&
            strncmp(method, "resources/", 10) == 0 && uri != NULL) {
            with_uri++;
            same += strcmp(uri, "u7") == 0;
        }
        json_object_put(out);
    }
    assert_true(with_uri > 100);
    assert_true(same * 4 > with_uri);
    assert_null(g.ctx);
    mc_gen_free(&g);
    json_object_put(seq);
    json_object_put(listed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen_tools_and_bounds),
        cmocka_unit_test(test_gen_stamps_requests),
        cmocka_unit_test(test_gen_stateless_methods),
        cmocka_unit_test(test_gen_close_listens),
        cmocka_unit_test(test_gen_close_listens_ids),
        cmocka_unit_test(test_gen_rename_revealed),
        cmocka_unit_test(test_gen_reuses_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
