/*
 * test_refserver_client.c - the reference server's requests to the client driven in memory:
 * elicitation (form and URL, and its gating), sampling, roots and the
 * limits on pending requests.
 *
 * Each test creates its own server (rt_open), feeds it lines and inspects
 * what it emits.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "refserver/limits.h"
#include "rt.h"

#define CAPS_ALL                                                                                   \
    "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{\"listChanged\":true}}"

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
/* A request the client does not answer is cancelled after
 * RS_CLIENT_REQUEST_TIMEOUT_MS, and the tool call that waited for it ends
 * with an error; a late answer changes nothing. */
static void test_client_request_timeout(void **state)
{
    rt_t t;
    json_object *q, *c, *r;
    long qid;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", CAPS_ALL);
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_elicitation\",\"arguments\":{\"message\":\"Who?\"}}}");
    q = rt_line(&t, t.n - 1);
    assert_string_equal(rt_str(q, "method"), "elicitation/create");
    qid = rt_int(q, "id");
    json_object_put(q);
    assert_int_equal(mc_refserver_next_deadline(t.rs), t.now + RS_CLIENT_REQUEST_TIMEOUT_MS);
    rt_clear(&t);
    rt_advance(&t, RS_CLIENT_REQUEST_TIMEOUT_MS - 1);
    assert_int_equal(t.n, 0);
    rt_advance(&t, 1);
    assert_int_equal(t.n, 2);
    c = rt_line(&t, 0);
    assert_string_equal(rt_str(c, "method"), "notifications/cancelled");
    assert_int_equal(rt_int(c, "params.requestId"), qid);
    assert_non_null(strstr(rt_str(c, "params.reason"), "elicitation/create"));
    r = rt_response(&t, 7);
    assert_true(json_object_get_boolean(rt_at(r, "result.isError")));
    json_object_put(c);
    json_object_put(r);
    assert_int_equal(mc_refserver_next_deadline(t.rs), -1);
    rt_clear(&t);
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"result\":{\"action\":\"decline\"}}", qid);
    assert_int_equal(t.n, 0);
    /* Once the client's input is closed, nothing is waited for. */
    rt_send(&t, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test_elicitation\",\"arguments\":{\"message\":\"Who?\"}}}");
    assert_true(mc_refserver_next_deadline(t.rs) >= 0);
    assert_int_equal(mc_refserver_input_closed(t.rs), 1);
    assert_int_equal(mc_refserver_next_deadline(t.rs), -1);
    rt_close(&t);
}

/* The switch stdin-eof-ignored: the server does not end with its input. */
static void test_input_closed_ignored(void **state)
{
    mc_refserver_opts_t o;
    rt_t t;

    (void)state;
    memset(&o, 0, sizeof(o));
    o.inject = "stdin-eof-ignored";
    rt_open(&t, &o);
    rt_init(&t, "2025-06-18", CAPS_ALL);
    assert_int_equal(mc_refserver_input_closed(t.rs), 0);
    rt_close(&t);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elicitation_form),
        cmocka_unit_test(test_elicitation_gating),
        cmocka_unit_test(test_elicitation_url),
        cmocka_unit_test(test_sampling_roots),
        cmocka_unit_test(test_client_request_timeout),
        cmocka_unit_test(test_pending_limits),
        cmocka_unit_test(test_input_closed_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
