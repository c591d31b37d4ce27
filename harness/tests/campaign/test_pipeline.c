/*
 * test_pipeline.c - sequences sent ahead (mc_exec_run_ahead): the next
 * sequence goes out right after the barrier of the one before, and each
 * sequence's answers, findings and hangs stay its own; and the ids the
 * executor pairs, compared by their whole text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

static const char *g_target;

#define PING "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}"
#define TOOLS "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}"

/* Runs text on x's persistent process with next (text, or NULL) to send
 * ahead; next's parsed array is kept in *keep (the caller runs it next and
 * puts it). */
static void run_ahead(mc_exec_t *x, json_object *seq, const char *next, json_object **keep,
                      mc_exec_outcome_t *out)
{
    mc_errbuf_t eb;

    *keep = next != NULL ? ct_parse(next) : NULL;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run_ahead(x, seq, *keep, out, &eb), MC_OK);
}

/* What the server answers after the barrier of a sequence is the next
 * sequence's: a schema finding in its answer is its own, not the one's
 * whose barrier it followed, and each sequence counts its own lines. A
 * run of another sequence than the one sent ahead starts a new process:
 * the old one served lines no run accounts for. */
static void test_pipeline_attribution(void **state)
{
    char *argv[] = {(char *)g_target, "serve", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    json_object *a = ct_parse("[" PING "]"), *b, *c;
    mc_registry_t *reg = ct_registry();

    (void)state;
    ct_opts(&o, argv);
    o.registry = reg;
    o.hang_ms = 120000; /* nothing here may wait for it */
    x = ct_exec(&o);
    run_ahead(x, a, "[" TOOLS ", " PING "]", &b, &out);
    assert_int_equal(out.nf, 0);
    assert_true(out.answered[0]);
    assert_int_equal(out.lines_out, 3); /* the session prefix's two, and the ping */
    assert_int_equal(mc_exec_counters(x).sent_ahead, 1);
    mc_exec_outcome_free(&out);
    json_object_put(a);
    /* tools/list answered {}: a schema finding, the sequence's own. */
    run_ahead(x, b, "[" PING "]", &c, &out);
    assert_int_equal(out.started, 0);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].check, "schema/tools");
    assert_string_equal(out.f[0].method, "tools/list");
    assert_true(out.answered[0]);
    assert_true(out.answered[1]);
    assert_int_equal(out.lines_out, 2);
    assert_int_equal(out.lines_in, 2);
    assert_int_equal(mc_exec_counters(x).sent_ahead, 2);
    mc_exec_outcome_free(&out);
    /* c was sent ahead; a run of b again may not take its answers. */
    run_ahead(x, b, NULL, &a, &out);
    assert_int_equal(out.started, 1);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].check, "schema/tools");
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_starts(x), 2);
    assert_int_equal(mc_exec_counters(x).barriers, 3);
    json_object_put(b);
    json_object_put(c);
    mc_exec_free(x);
    mc_registry_free(reg);
}

/* A request dropped by the server, sent ahead, is a hang of its own
 * sequence (a candidate at the barrier, not waited for), not of the one
 * before it. */
static void test_pipeline_drop(void **state)
{
    char *argv[] = {(char *)g_target, "dropper", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    json_object *a = ct_parse("[" PING "]"), *b, *none;

    (void)state;
    ct_opts(&o, argv);
    o.hang_ms = 120000; /* a budget that ctest's timeout would cut short, were it waited for */
    x = ct_exec(&o);
    run_ahead(x, a, "[{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\", \"extra\": 1}]",
              &b, &out);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_counters(x).sent_ahead, 1);
    run_ahead(x, b, NULL, &none, &out);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].check, "process/hang");
    assert_string_equal(out.f[0].method, "tools/list");
    assert_true(out.f[0].at_barrier);
    assert_false(out.answered[0]);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_counters(x).hang_waits, 0);
    assert_int_equal(mc_exec_starts(x), 1);
    json_object_put(a);
    json_object_put(b);
    mc_exec_free(x);
}

/* Nothing goes ahead that would change what the judge holds the earlier
 * answers to (a notification, the log level, a subscription), that reuses
 * an id the process has seen, or with no_pipeline. */
static void test_pipeline_not_ahead(void **state)
{
    static const char *const nexts[] = {
        "[" PING ", {\"jsonrpc\": \"2.0\", \"method\": \"notifications/roots/list_changed\"}]",
        "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"logging/setLevel\", \"params\": "
        "{\"level\": \"error\"}}]",
        "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"resources/subscribe\", \"params\": "
        "{\"uri\": \"test://x\"}}]",
        "[{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"method\": \"ping\"}]",
        "[\"{\\\"jsonrpc\\\": \\\"2.0\\\", \\\"id\\\": 4, \\\"method\\\": \\\"ping\\\"\"]",
    };
    char *argv[] = {(char *)g_target, "serve", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"method\": \"ping\"}]"), *n;
    size_t i;

    (void)state;
    ct_opts(&o, argv);
    o.hang_ms = 120000;
    x = ct_exec(&o);
    for (i = 0; i < sizeof(nexts) / sizeof(nexts[0]); i++) {
        run_ahead(x, seq, nexts[i], &n, &out);
        assert_int_equal(out.nf, 0);
        mc_exec_outcome_free(&out);
        assert_int_equal(mc_exec_counters(x).sent_ahead, 0);
        json_object_put(seq);
        seq = n;
    }
    json_object_put(seq);
    mc_exec_free(x);
    /* Pipelining turned off. */
    o.no_pipeline = 1;
    x = ct_exec(&o);
    seq = ct_parse("[" PING "]");
    run_ahead(x, seq, "[" PING "]", &n, &out);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_counters(x).sent_ahead, 0);
    json_object_put(seq);
    json_object_put(n);
    mc_exec_free(x);
}

/* Two ids that share their first hundred bytes are two ids: neither is
 * taken as sent twice (which would leave their answers unjudged), and
 * each answer pairs with its own request. The same id sent again is. */
static void test_ids_by_text(void **state)
{
    char *argv[] = {(char *)g_target, "serve", NULL};
    char text[1024], id[201];
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    mc_registry_t *reg = ct_registry();
    json_object *seq, *none;

    (void)state;
    memset(id, 'a', sizeof(id) - 1);
    id[sizeof(id) - 1] = '\0';
    ct_opts(&o, argv);
    o.registry = reg;
    o.hang_ms = 120000;
    x = ct_exec(&o);
    snprintf(text, sizeof(text),
             "[{\"jsonrpc\": \"2.0\", \"id\": \"%s1\", \"method\": \"tools/list\"}, "
             "{\"jsonrpc\": \"2.0\", \"id\": \"%s2\", \"method\": \"tools/list\"}]",
             id, id);
    seq = ct_parse(text);
    run_ahead(x, seq, NULL, &none, &out);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].check, "schema/tools");
    assert_true(out.answered[0]);
    assert_true(out.answered[1]);
    mc_exec_outcome_free(&out);
    /* Again in the same process: both ids sent twice, nothing judged. */
    run_ahead(x, seq, NULL, &none, &out);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    json_object_put(seq);
    mc_exec_free(x);
    mc_registry_free(reg);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_attribution),
        cmocka_unit_test(test_pipeline_drop),
        cmocka_unit_test(test_pipeline_not_ahead),
        cmocka_unit_test(test_ids_by_text),
    };

    if (argc < 2) {
        fprintf(stderr, "usage: test_pipeline TEST_TARGET\n");
        return 2;
    }
    g_target = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
