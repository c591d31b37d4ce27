/* Unit tests for the step parsers (scenario/step.h): each kind's members
 * typed from the JSON of a step, their defaults, and what the linter does
 * with the typed step when a file loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sc_files.h"
#include "scenario/scenario.h"
#include "scenario/step.h"

/* The JSON of one step and its typed form; put with done(). */
typedef struct parsed {
    json_object *json;
    mc_step_t s;
} parsed_t;

static void parse(const char *text, parsed_t *p)
{
    p->json = json_tokener_parse(text);
    if (p->json == NULL)
        fail_msg("not JSON: %s", text);
    assert_int_equal(mc_step_parse(p->json, &p->s), MC_OK);
    assert_ptr_equal(p->s.json, p->json);
}

static void done(parsed_t *p)
{
    mc_step_clear(&p->s);
    assert_int_equal(p->s.kind, MC_STEP_NONE);
    json_object_put(p->json);
}

static void test_request(void **state)
{
    parsed_t p;
    const mc_step_request_t *r;

    (void)state;
    parse(
        "{\"request\": \"tools/call\", \"params\": {\"name\": \"x\"}, \"timeout\": 750, "
        "\"progress\": true, \"retry\": false, \"check\": \"area/x/y\", "
        "\"expect\": {\"error\": [-32602, -32002]}, \"assert\": [{\"path\": \"id\", "
        "\"present\": true}], \"capture\": {\"first\": \"result.a\", \"second\": \"error.code\"}}",
        &p);
    r = &p.s.u.request;
    assert_int_equal(p.s.kind, MC_STEP_request);
    assert_string_equal(r->method, "tools/call");
    assert_string_equal(p.s.check, "area/x/y");
    assert_ptr_equal(r->params, json_object_object_get(p.json, "params"));
    assert_int_equal(r->timeout_ms, 750);
    assert_true(r->progress);
    assert_true(r->retry_off);
    assert_null(r->async);
    assert_int_equal(r->judge.expect.kind, MC_STEP_EXPECT_CODES);
    assert_int_equal(r->judge.expect.n_codes, 2);
    assert_true(r->judge.expect.codes[0] == -32602 && r->judge.expect.codes[1] == -32002);
    assert_true(r->judge.expect.codes_list);
    assert_string_equal(r->judge.expect.codes_text, "[-32602,-32002]");
    assert_ptr_equal(r->judge.asserts, json_object_object_get(p.json, "assert"));
    assert_int_equal(r->judge.n_capture, 2);
    assert_string_equal(r->judge.capture[0].name, "first");
    assert_string_equal(r->judge.capture[0].path, "result.a");
    assert_string_equal(r->judge.capture[1].name, "second");
    assert_string_equal(r->judge.capture[1].path, "error.code");
    done(&p);

    /* The defaults, and members of the wrong type taken as not given. */
    parse("{\"request\": \"ping\", \"async\": \"call\", \"retry\": true, \"timeout\": \"9\", "
          "\"progress\": false}",
          &p);
    r = &p.s.u.request;
    assert_int_equal(r->timeout_ms, MC_STEP_UNSET);
    assert_false(r->progress);
    assert_false(r->retry_off);
    assert_string_equal(r->async, "call");
    assert_null(r->params);
    assert_null(p.s.check);
    assert_int_equal(r->judge.expect.kind, MC_STEP_EXPECT_RESULT);
    assert_int_equal(r->judge.n_capture, 0);
    done(&p);
    parse("{\"request\": \"ping\", \"timeout\": 99999999999}", &p);
    assert_int_equal(p.s.u.request.timeout_ms, MC_STEP_UNSET); /* past int range */
    done(&p);
}

static void test_expect_words(void **state)
{
    static const struct {
        const char *text;
        mc_step_expect_kind_t kind;
    } cases[] = {
        {"\"result\"", MC_STEP_EXPECT_RESULT}, {"\"error\"", MC_STEP_EXPECT_ERROR},
        {"\"any\"", MC_STEP_EXPECT_ANY},       {"\"none\"", MC_STEP_EXPECT_NONE},
        {"\"batch\"", MC_STEP_EXPECT_BATCH},   {"\"maybe\"", MC_STEP_EXPECT_INVALID},
        {"7", MC_STEP_EXPECT_INVALID},         {"{\"error\": \"x\"}", MC_STEP_EXPECT_INVALID},
    };
    char text[160];
    parsed_t p;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(text, sizeof(text), "{\"await\": \"v\", \"expect\": %s}", cases[i].text);
        parse(text, &p);
        if (p.s.u.await.judge.expect.kind != cases[i].kind)
            fail_msg("expect %s typed as %d", cases[i].text, (int)p.s.u.await.judge.expect.kind);
        done(&p);
    }
    parse("{\"await\": \"v\", \"timeout\": 40, \"expect\": {\"error\": -32800}}", &p);
    assert_string_equal(p.s.u.await.var, "v");
    assert_int_equal(p.s.u.await.timeout_ms, 40);
    assert_int_equal(p.s.u.await.judge.expect.kind, MC_STEP_EXPECT_CODES);
    assert_int_equal(p.s.u.await.judge.expect.n_codes, 1);
    assert_true(p.s.u.await.judge.expect.codes[0] == -32800);
    assert_false(p.s.u.await.judge.expect.codes_list);
    assert_string_equal(p.s.u.await.judge.expect.codes_text, "-32800");
    done(&p);
}

static void test_messages(void **state)
{
    parsed_t p;

    (void)state;
    parse("{\"notify\": \"notifications/x\", \"params\": {\"a\": 1}}", &p);
    assert_string_equal(p.s.u.notify.method, "notifications/x");
    assert_ptr_equal(p.s.u.notify.params, json_object_object_get(p.json, "params"));
    done(&p);
    parse("{\"expect_notification\": \"n/x\", \"within\": 300, \"related\": true, \"where\": [], "
          "\"capture\": {\"v\": \"params\"}}",
          &p);
    assert_string_equal(p.s.u.expect_notification.method, "n/x");
    assert_int_equal(p.s.u.expect_notification.within_ms, 300);
    assert_true(p.s.u.expect_notification.related);
    assert_ptr_equal(p.s.u.expect_notification.where, json_object_object_get(p.json, "where"));
    assert_int_equal(p.s.u.expect_notification.judge.n_capture, 1);
    done(&p);
    parse("{\"expect_request\": \"r/x\", \"related\": \"yes\"}", &p);
    assert_int_equal(p.s.u.expect_request.within_ms, MC_STEP_UNSET);
    assert_false(p.s.u.expect_request.related); /* only the boolean true */
    done(&p);
    parse("{\"expect_no_notification\": \"*\", \"for\": 250, \"related\": true}", &p);
    assert_string_equal(p.s.u.expect_no_notification.method, "*");
    assert_int_equal(p.s.u.expect_no_notification.for_ms, 250);
    assert_true(p.s.u.expect_no_notification.related);
    done(&p);
    parse("{\"expect_no_request\": \"r/y\"}", &p);
    assert_int_equal(p.s.u.expect_no_request.for_ms, MC_STEP_UNSET);
    assert_null(p.s.u.expect_no_request.where);
    done(&p);
    parse("{\"answer\": \"roots/list\", \"error\": {\"code\": 1, \"message\": \"m\"}}", &p);
    assert_string_equal(p.s.u.answer.method, "roots/list");
    assert_null(p.s.u.answer.with);
    assert_ptr_equal(p.s.u.answer.error, json_object_object_get(p.json, "error"));
    done(&p);
}

static void test_paginate_loop_value_sleep(void **state)
{
    static const char *const keys[][2] = {
        {"resources", "uri"}, {"resourceTemplates", "uriTemplate"}, {"tools", "name"}};
    char text[160];
    parsed_t p;
    size_t i;

    (void)state;
    for (i = 0; i < 3; i++) {
        snprintf(text, sizeof(text), "{\"paginate\": \"x/list\", \"items\": \"%s\"}", keys[i][0]);
        parse(text, &p);
        assert_string_equal(p.s.u.paginate.items, keys[i][0]);
        assert_string_equal(p.s.u.paginate.key, keys[i][1]);
        assert_int_equal(p.s.u.paginate.max_pages, MC_STEP_UNSET);
        done(&p);
    }
    parse("{\"paginate\": \"tools/list\", \"items\": \"tools\", \"key\": \"title\", "
          "\"max_pages\": 3, \"capture\": \"all\", \"assert\": []}",
          &p);
    assert_string_equal(p.s.u.paginate.method, "tools/list");
    assert_string_equal(p.s.u.paginate.key, "title");
    assert_int_equal(p.s.u.paginate.max_pages, 3);
    assert_string_equal(p.s.u.paginate.capture, "all");
    assert_non_null(p.s.u.paginate.asserts);
    done(&p);
    parse("{\"for_each\": \"${all}\", \"as\": \"t\", \"max\": 5, \"steps\": []}", &p);
    assert_string_equal(json_object_get_string(p.s.u.for_each.list), "${all}");
    assert_string_equal(p.s.u.for_each.as, "t");
    assert_int_equal(p.s.u.for_each.max, 5);
    assert_null(p.s.steps); /* the linter types nested steps */
    done(&p);
    parse("{\"value\": [1, 2], \"assert\": [{\"path\": \"\", \"length\": 2}]}", &p);
    assert_true(json_object_is_type(p.s.u.value.value, json_type_array));
    assert_non_null(p.s.u.value.asserts);
    done(&p);
    parse("{\"sleep\": 125}", &p);
    assert_int_equal(p.s.u.sleep.ms, 125);
    assert_null(p.s.arg);
    done(&p);
}

static void test_raw(void **state)
{
    parsed_t p;

    (void)state;
    parse("{\"raw\": \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":7,\\\"method\\\":\\\"ping\\\"}\", "
          "\"within\": 80, \"expect\": \"error\"}",
          &p);
    assert_string_equal(p.s.u.raw.line, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    assert_true(p.s.u.raw.literal);
    assert_non_null(p.s.u.raw.parsed);
    assert_string_equal(json_object_get_string(json_object_object_get(p.s.u.raw.parsed, "method")),
                        "ping");
    assert_int_equal(p.s.u.raw.within_ms, 80);
    assert_int_equal(p.s.u.raw.judge.expect.kind, MC_STEP_EXPECT_ERROR);
    assert_null(p.s.u.raw.expect_id);
    done(&p);
    /* A batch; a line with a variable; a line that is no JSON. */
    parse("{\"raw\": \"[{\\\"id\\\":1},{\\\"id\\\":2}]\", \"expect\": \"batch\"}", &p);
    assert_int_equal(p.s.u.raw.judge.expect.kind, MC_STEP_EXPECT_BATCH);
    assert_int_equal(json_object_array_length(p.s.u.raw.parsed), 2);
    done(&p);
    parse("{\"raw\": \"{\\\"id\\\":\\\"${v}\\\"}\", \"expect_id\": \"${v}\"}", &p);
    assert_false(p.s.u.raw.literal);
    assert_ptr_equal(p.s.u.raw.line_tmpl, json_object_object_get(p.json, "raw"));
    assert_ptr_equal(p.s.u.raw.expect_id, json_object_object_get(p.json, "expect_id"));
    done(&p);
    parse("{\"raw\": \"{not json\", \"expect\": \"none\"}", &p);
    assert_null(p.s.u.raw.parsed);
    assert_true(p.s.u.raw.literal);
    assert_int_equal(p.s.u.raw.judge.expect.kind, MC_STEP_EXPECT_NONE);
    done(&p);
    /* Strict JSON only: what the runner would send is what was read. */
    parse("{\"raw\": \"[{'a': 1}]\"}", &p);
    assert_null(p.s.u.raw.parsed);
    done(&p);
}

static void test_http(void **state)
{
    static const char *const methods[] = {"POST", "GET", "DELETE", "PUT"};
    char text[200];
    parsed_t p;
    const mc_step_http_t *h;
    size_t i;

    (void)state;
    for (i = 0; i < 4; i++) {
        snprintf(text, sizeof(text), "{\"http\": \"%s\"}", methods[i]);
        parse(text, &p);
        assert_int_equal(p.s.u.http.method, MC_STEP_HTTP_POST + (int)i);
        assert_string_equal(mc_step_http_method_name(p.s.u.http.method), methods[i]);
        assert_int_equal(p.s.u.http.session, MC_STEP_SESSION_CURRENT);
        assert_null(p.s.u.http.status_text);
        assert_null(p.s.u.http.ctype_text);
        assert_int_equal(p.s.u.http.events, MC_STEP_UNSET);
        done(&p);
    }
    parse("{\"http\": \"PATCH\"}", &p);
    assert_int_equal(p.s.u.http.method, MC_STEP_HTTP_INVALID);
    assert_null(mc_step_http_method_name(p.s.u.http.method));
    done(&p);
    parse("{\"http\": \"POST\", \"status\": [200, 405], \"content_type\": [\"application/json\", "
          "\"text/event-stream\"], \"session\": \"unknown\", \"delete_first\": true, "
          "\"empty_body\": true, \"within\": 900, \"events\": 2, \"message\": {\"id\": 1}, "
          "\"headers\": {\"A\": null}, \"resume\": {\"interleave\": {\"id\": 2}}, "
          "\"error_code\": -32020}",
          &p);
    h = &p.s.u.http;
    assert_int_equal(h->n_status, 2);
    assert_true(h->status[0] == 200 && h->status[1] == 405);
    assert_string_equal(h->status_text, "[200,405]");
    assert_int_equal(h->n_ctypes, 2);
    assert_string_equal(h->ctypes[0], "application/json");
    assert_string_equal(h->ctypes[1], "text/event-stream");
    assert_string_equal(h->ctype_text, "[\"application\\/json\",\"text\\/event-stream\"]");
    assert_int_equal(h->session, MC_STEP_SESSION_UNKNOWN);
    assert_true(h->delete_first && h->empty_body && h->resume);
    assert_int_equal(h->within_ms, 900);
    assert_int_equal(h->events, 2);
    assert_true(h->has_error_code);
    assert_int_equal(h->error_code, -32020);
    assert_ptr_equal(h->message, json_object_object_get(p.json, "message"));
    assert_ptr_equal(h->headers, json_object_object_get(p.json, "headers"));
    assert_ptr_equal(h->interleave, json_object_object_get(json_object_object_get(p.json, "resume"),
                                                           "interleave"));
    assert_null(h->body);
    done(&p);
    parse("{\"http\": \"GET\", \"status\": 202, \"content_type\": \"text/event-stream\", "
          "\"session\": \"none\", \"body\": \"x\", \"empty_body\": 1, \"delete_first\": true}",
          &p);
    h = &p.s.u.http;
    assert_int_equal(h->n_status, 1);
    assert_true(h->status[0] == 202);
    assert_string_equal(h->status_text, "202");
    assert_int_equal(h->n_ctypes, 1);
    assert_string_equal(h->ctypes[0], "text/event-stream");
    assert_int_equal(h->session, MC_STEP_SESSION_NONE);
    assert_false(h->empty_body); /* only the boolean true */
    assert_false(h->has_error_code);
    assert_true(h->delete_first);
    assert_false(h->resume);
    assert_string_equal(json_object_get_string(h->body), "x");
    done(&p);
}

/* A step that is not of one kind types to nothing. */
static void test_no_kind(void **state)
{
    parsed_t p;

    (void)state;
    parse("{\"request\": \"a\", \"notify\": \"b\", \"check\": \"c\"}", &p);
    assert_int_equal(p.s.kind, MC_STEP_NONE);
    assert_null(p.s.arg);
    assert_null(p.s.check);
    done(&p);
}

/* Loading a file: every step typed, nested ones too, with its line; the
 * linter checked the typed members. */
static void test_load_typed(void **state)
{
    mc_scenario_t sc;
    const mc_step_t *fe, *raw;

    (void)state;
    sc_load(
        "typed",
        SC_HEAD("area/typed/held") "\"steps\": [\n"
                                   "{\"paginate\": \"resources/list\", \"items\": \"resources\", "
                                   "\"capture\": \"all\"},\n"
                                   "{\"for_each\": \"${all}\", \"as\": \"r\", \"steps\": [\n"
                                   "  {\"request\": \"resources/read\", \"params\": {\"uri\": "
                                   "\"${r.uri}\"},\n"
                                   "   \"expect\": {\"error\": -32002}, \"capture\": {\"body\": "
                                   "\"error\"}}]},\n"
                                   "{\"raw\": "
                                   "\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":\\\"n/x\\\"}\", "
                                   "\"expect\": \"none\"}]}",
        &sc);
    assert_int_equal(sc.n_steps, 3);
    assert_string_equal(sc.step_v[0].u.paginate.capture, "all");
    assert_string_equal(sc.step_v[0].u.paginate.key, "uri");
    fe = &sc.step_v[1];
    assert_int_equal(fe->kind, MC_STEP_for_each);
    assert_int_equal(fe->line, 3);
    assert_int_equal(fe->n_steps, 1);
    assert_int_equal(fe->steps[0].kind, MC_STEP_request);
    assert_int_equal(fe->steps[0].line, 4);
    assert_int_equal(fe->steps[0].u.request.judge.expect.kind, MC_STEP_EXPECT_CODES);
    assert_true(fe->steps[0].u.request.judge.expect.codes[0] == -32002);
    assert_string_equal(fe->steps[0].u.request.judge.capture[0].name, "body");
    raw = &sc.step_v[2];
    assert_int_equal(raw->line, 6);
    assert_int_equal(raw->u.raw.judge.expect.kind, MC_STEP_EXPECT_NONE);
    assert_string_equal(json_object_get_string(json_object_object_get(raw->u.raw.parsed, "method")),
                        "n/x");
    mc_scenario_free(&sc);
}

/* Steps that judge only what came after the scenario's own messages (so
 * that it may be the last user of a shared process): an expect step
 * without "related", at any depth, takes any message since the handshake. */
static void test_judge_own_traffic(void **state)
{
    static const char *const own[] = {
        "{\"raw\": \"x\", \"expect\": \"error\"}",
        "{\"expect_notification\": \"notifications/progress\", \"related\": true}",
        "{\"expect_no_notification\": \"*\"}",
        "{\"request\": \"tools/call\", \"params\": {\"name\": \"x\"}}",
    };
    static const char *const early[] = {
        "{\"expect_notification\": \"notifications/message\"}",
        "{\"expect_request\": \"sampling/createMessage\"}",
    };
    parsed_t p[4], q;
    mc_step_t v[4];
    mc_scenario_t sc;
    size_t i;

    (void)state;
    for (i = 0; i < 4; i++) {
        parse(own[i], &p[i]);
        v[i] = p[i].s;
    }
    assert_true(mc_steps_judge_own_traffic(v, 4));
    for (i = 0; i < 2; i++) {
        parse(early[i], &q);
        v[3] = q.s;
        assert_false(mc_steps_judge_own_traffic(v, 4));
        assert_false(mc_steps_judge_own_traffic(&q.s, 1));
        done(&q);
    }
    for (i = 0; i < 4; i++)
        done(&p[i]);
    /* Nested in a for_each (the loader types the nested steps). */
    sc_load("own-nested",
            SC_HEAD("area/own/nested") "\"steps\": [{\"paginate\": \"resources/list\", "
                                       "\"items\": \"resources\", \"capture\": \"l\"}, "
                                       "{\"for_each\": \"${l}\", \"as\": \"i\", \"steps\": "
                                       "[{\"expect_request\": \"roots/list\"}]}]}",
            &sc);
    assert_int_equal(sc.n_steps, 2);
    assert_false(mc_steps_judge_own_traffic(sc.step_v, sc.n_steps));
    assert_false(sc.takes_held);
    mc_scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request),
        cmocka_unit_test(test_expect_words),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_paginate_loop_value_sleep),
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_http),
        cmocka_unit_test(test_no_kind),
        cmocka_unit_test(test_load_typed),
        cmocka_unit_test(test_judge_own_traffic),
    };
    int rc;

    sc_dir_make();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    sc_dir_remove();
    return rc;
}
