/*
 * test_runner_suite.c - the suite (several scenarios, versions and workers)
 * through its public functions, against real target processes: part of the
 * test_runner program (test_runner.c has its main and shared helpers).
 */
#include "sc_files.h"

#include <stdatomic.h>

#include "test_runner.h"

#include "scenario/state.h"

typedef struct seen {
    char ids[8][64];
    size_t done[8];
    size_t n, total;
    volatile int *stop_after_first;
} seen_t;

static void on_result(void *ctx, mc_scenario_result_t *r, size_t done, size_t total)
{
    seen_t *s = ctx;

    assert_true(s->n < 8);
    snprintf(s->ids[s->n], sizeof(s->ids[0]), "%s@%s", r->id, r->version);
    s->done[s->n++] = done;
    s->total = total;
    if (s->stop_after_first != NULL)
        *s->stop_after_first = 1;
}

/* Three scenarios: one for every version, one from 2025-11-25, one pinned
 * to 2025-06-18 by its client version. */
static void load_three(mc_scenario_t scs[3])
{
    sc_load("a-all", PING_SCENARIO(ALL_PING), &scs[0]);
    sc_load("b-late", PING_SCENARIO("\"versions\": \"2025-11-25..2025-11-25\", "), &scs[1]);
    sc_load("c-pinned", PING_SCENARIO("\"client\": {\"version\": \"2025-06-18\"}, "), &scs[2]);
}

static void test_suite_count(void **state)
{
    static const char *const both[] = {"2025-06-18", "2025-11-25", NULL};
    static const char *const early[] = {"2025-06-18", NULL};
    static const char *const none[] = {NULL};
    mc_scenario_t scs[3];
    int i;

    (void)state;
    load_three(scs);
    assert_int_equal(mc_suite_count(scs, 3, both), 4);
    assert_int_equal(mc_suite_count(scs, 3, early), 2);
    /* A pinned scenario runs at its version whatever was asked. */
    assert_int_equal(mc_suite_count(scs, 3, none), 1);
    assert_int_equal(mc_suite_count(scs, 0, both), 0);
    for (i = 0; i < 3; i++)
        mc_scenario_free(&scs[i]);
}

/* Two workers: the results and the callback come in job order (scenario,
 * then version), each job once, whatever finished first. */
static void test_suite_order(void **state)
{
    static const char *const both[] = {"2025-06-18", "2025-11-25", NULL};
    static const char *const want[] = {"area/a-all@2025-06-18", "area/a-all@2025-11-25",
                                       "area/b-late@2025-11-25", "area/c-pinned@2025-06-18"};
    char *argv[] = {(char *)refserver, NULL};
    mc_scenario_t scs[3];
    mc_suite_opts_t so;
    mc_run_result_t run;
    seen_t seen;
    size_t i;

    (void)state;
    load_three(scs);
    memset(&so, 0, sizeof(so));
    memset(&run, 0, sizeof(run));
    memset(&seen, 0, sizeof(seen));
    so.versions = both;
    so.jobs = 2;
    so.runner = opts_for(argv, NULL);
    so.on_result = on_result;
    so.cb_ctx = &seen;
    assert_int_equal(mc_suite_run(scs, 3, &so, &run), MC_OK);
    assert_int_equal(run.n, 4);
    assert_int_equal(run.partial, 0);
    assert_int_equal(seen.n, 4);
    assert_int_equal(seen.total, 4);
    for (i = 0; i < 4; i++) {
        char id[64];
        snprintf(id, sizeof(id), "%s@%s", run.scenarios[i].id, run.scenarios[i].version);
        assert_string_equal(id, want[i]);
        assert_string_equal(seen.ids[i], want[i]);
        assert_int_equal(seen.done[i], i + 1);
        expect_verdict(&run.scenarios[i], MC_PASS);
    }
    assert_int_equal(run.count[MC_PASS], 4);
    assert_int_equal(mc_run_exit_code(&run), 0);
    mc_run_free(&run);
    for (i = 0; i < 3; i++)
        mc_scenario_free(&scs[i]);
}

/* A stop raised while the first job ends: nothing more starts, the run is
 * partial and keeps the one result. */
static void test_suite_stop(void **state)
{
    static const char *const both[] = {"2025-06-18", "2025-11-25", NULL};
    char *argv[] = {(char *)refserver, NULL};
    volatile int stop = 0;
    mc_scenario_t scs[3];
    mc_suite_opts_t so;
    mc_run_result_t run;
    seen_t seen;
    int i;

    (void)state;
    load_three(scs);
    memset(&so, 0, sizeof(so));
    memset(&run, 0, sizeof(run));
    memset(&seen, 0, sizeof(seen));
    seen.stop_after_first = &stop;
    so.versions = both;
    so.jobs = 1;
    so.runner = opts_for(argv, NULL);
    so.runner.stop = &stop;
    so.on_result = on_result;
    so.cb_ctx = &seen;
    assert_int_equal(mc_suite_run(scs, 3, &so, &run), MC_OK);
    assert_int_equal(run.n, 1);
    assert_int_equal(run.partial, 1);
    assert_int_equal(seen.n, 1);
    assert_string_equal(seen.ids[0], "area/a-all@2025-06-18");
    mc_run_free(&run);
    for (i = 0; i < 3; i++)
        mc_scenario_free(&scs[i]);
}

/* A raw line that is no JSON, whose answer must be -32700 (the reference
 * server gives it; mc-test-target in "serve" mode drops it, but answers
 * ping). */
#define RAW_PARSE_SCENARIO                                                                         \
    SC_HEAD("area/raw/parse")                                                                      \
    ALL_PING "\"steps\": [{\"raw\": \"{not json\", \"expect\": {\"error\": -32700}, "              \
             "\"within\": 1000, \"check\": \"area/raw/parse\"}]}"

/* The suite at 2025-06-18 on one worker, with or without --fresh-process. */
static void run_suite(const mc_scenario_t *scs, size_t n, char *const *argv, int fresh,
                      mc_run_result_t *run)
{
    static const char *const one[] = {"2025-06-18", NULL};
    mc_suite_opts_t so;

    memset(&so, 0, sizeof(so));
    memset(run, 0, sizeof(*run));
    so.versions = one;
    so.jobs = 1;
    so.runner = opts_for(argv, NULL);
    so.runner.fresh_process = fresh;
    assert_int_equal(mc_suite_run(scs, n, &so, run), MC_OK);
    assert_int_equal(run->n, n);
}

/* How many lines of r's transcript the client sent with method. */
static int sent_count(const mc_scenario_result_t *r, const char *method)
{
    char want[64];
    size_t i;
    int n = 0;

    snprintf(want, sizeof(want), "\"method\":\"%s\"", method);
    for (i = 0; i < r->n_tx; i++)
        if (r->tx[i].outbound && r->tx[i].line != NULL && strstr(r->tx[i].line, want) != NULL)
            n++;
    return n;
}

/* A scenario that changes state (a raw line) after one that only reads:
 * on one worker it runs on the process the first left, as its last user
 * (the first's end says it was handed on; the second replays the
 * handshake, sends none of its own, and records the process's real end);
 * with --fresh-process each starts its own. The verdicts are the same. */
static void test_suite_last_user(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_scenario_t scs[2];
    mc_run_result_t run;
    int fresh;

    (void)state;
    sc_load("a-ping", PING_SCENARIO(ALL_PING), &scs[0]);
    sc_load("b-raw", RAW_PARSE_SCENARIO, &scs[1]);
    assert_true(scs[0].shareable);
    assert_false(scs[1].shareable);
    assert_true(scs[1].takes_held);
    for (fresh = 0; fresh <= 1; fresh++) {
        run_suite(scs, 2, argv, fresh, &run);
        expect_verdict(&run.scenarios[0], MC_PASS);
        expect_verdict(&run.scenarios[1], MC_PASS);
        assert_non_null(run.scenarios[0].exit_desc);
        assert_non_null(run.scenarios[1].exit_desc);
        assert_int_equal(strstr(run.scenarios[0].exit_desc, "handed on") != NULL, !fresh);
        assert_null(strstr(run.scenarios[1].exit_desc, "handed on"));
        /* Its transcript starts with the handshake, replayed or its own. */
        assert_true(run.scenarios[1].n_tx >= 3);
        assert_int_equal(run.scenarios[1].tx[0].outbound, 1);
        assert_non_null(strstr(run.scenarios[1].tx[0].line, "\"initialize\""));
        assert_int_equal(sent_count(&run.scenarios[1], "initialize"), 1);
        mc_run_free(&run);
    }
    mc_scenario_free(&scs[0]);
    mc_scenario_free(&scs[1]);
}

/* Sets the log level to emergency: it changes log-level (scenario/state.h). */
#define LEVEL_SET_SCENARIO                                                                         \
    SC_HEAD("area/level/set")                                                                      \
    ALL_PING                                                                                       \
        "\"requires\": {\"capabilities\": [\"logging\"]}, \"steps\": [{\"request\": "              \
        "\"logging/setLevel\", \"params\": {\"level\": \"emergency\"}, \"expect\": \"result\", "   \
        "\"check\": \"area/level/set\"}]}"

/* Calls the reference server's logging tool and waits for a log message
 * below emergency: it reads log-level (derived: it waits for a
 * notification), and declares that the call changes nothing. */
#define LEVEL_READ_SCENARIO                                                                        \
    SC_HEAD("area/level/read")                                                                     \
    ALL_PING "\"requires\": {\"capabilities\": [\"logging\", \"tools\"]}, "                        \
             "\"state\": {\"changes\": []}, \"steps\": [{\"request\": \"tools/call\", "            \
             "\"params\": {\"name\": \"test_tool_with_logging\", \"arguments\": {}}}, "            \
             "{\"expect_notification\": \"notifications/message\", \"related\": true, "            \
             "\"within\": 5000, \"where\": [{\"path\": \"params.level\", \"not_equals\": "         \
             "\"emergency\"}], \"check\": \"area/level/read\"}]}"

/* A scenario that reads the log level is not placed on the process a
 * scenario that changed it left, whatever the order: after setLevel
 * (emergency), a reader there would miss the tool's log messages and fail.
 * On one worker, [changer, reader, ping]: the ping scenario (which reads no
 * state) takes the changer's process, the reader gets one of its own and
 * passes; with --fresh-process the verdicts are the same. */
static void test_suite_state_order(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_scenario_t scs[3];
    mc_run_result_t run;
    char *problems = NULL;
    mc_scenario_t bad;
    mc_errbuf_t eb;
    char path[1200];
    int fresh, i;

    (void)state;
    sc_load("a-level", LEVEL_SET_SCENARIO, &scs[0]);
    sc_load("b-read", LEVEL_READ_SCENARIO, &scs[1]);
    sc_load("c-ping", PING_SCENARIO(ALL_PING), &scs[2]);
    assert_int_equal(scs[0].state_changes, MC_STATE_LOG_LEVEL);
    assert_true(scs[0].chainable);
    assert_false(scs[0].shareable);
    assert_int_equal(scs[1].state_changes, 0);
    assert_true((scs[1].state_reads & MC_STATE_LOG_LEVEL) != 0);
    assert_true(scs[1].chainable);
    assert_int_equal(scs[2].state_reads, 0);
    for (fresh = 0; fresh <= 1; fresh++) {
        run_suite(scs, 3, argv, fresh, &run);
        for (i = 0; i < 3; i++)
            expect_verdict(&run.scenarios[i], MC_PASS);
        assert_int_equal(strstr(run.scenarios[0].exit_desc, "handed on") != NULL, !fresh);
        assert_null(strstr(run.scenarios[1].exit_desc, "handed on"));
        mc_run_free(&run);
    }
    for (i = 0; i < 3; i++)
        mc_scenario_free(&scs[i]);
    /* A name outside the vocabulary is a problem of the file (sc_load
     * first, so that the file is one the teardown removes). */
    sc_load("d-bad", PING_SCENARIO(ALL_PING), &bad);
    mc_scenario_free(&bad);
    snprintf(path, sizeof(path), "%s/area/d-bad.jsonc", sc_dir);
    {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(SC_HEAD("area/ping/held") ALL_PING "\"state\": {\"changes\": [\"moods\"]}, "
                                                 "\"steps\": [{\"request\": \"ping\"}]}",
              f);
        assert_int_equal(fclose(f), 0);
    }
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_scenario_load(path, sc_dir, &bad, &problems, &eb), MC_EINVAL);
    assert_non_null(problems);
    assert_non_null(strstr(problems, "not a name of server state"));
    free(problems);
}

/* A line whose id cannot be read, dropped by the server: by default the
 * wait ends at the answer to a ping sent after it (the barrier), with
 * --fresh-process the step's whole window is waited out; the verdict and
 * the failing check are the same, and the barrier's ping is in the
 * transcript only without --fresh-process. */
static void test_suite_raw_barrier(void **state)
{
    char *argv[] = {(char *)test_target, "serve", NULL};
    mc_scenario_t sc;
    mc_run_result_t run;
    const mc_check_result_t *c;
    int fresh;

    (void)state;
    sc_load("b-raw", RAW_PARSE_SCENARIO, &sc);
    for (fresh = 0; fresh <= 1; fresh++) {
        run_suite(&sc, 1, argv, fresh, &run);
        expect_verdict(&run.scenarios[0], MC_FAIL);
        c = find_check(&run.scenarios[0], "area/raw/parse");
        assert_non_null(c);
        assert_int_equal(c->verdict, MC_FAIL);
        assert_non_null(c->message);
        assert_int_equal(strstr(c->message, "a ping sent after it") != NULL, !fresh);
        assert_int_equal(strstr(c->message, "no response within 1000 ms") != NULL, fresh);
        assert_int_equal(sent_count(&run.scenarios[0], "ping"), !fresh);
        mc_run_free(&run);
    }
    mc_scenario_free(&sc);
}

/* Two requests that are no valid request (the method is a number) but
 * carry a readable id: mc-test-target "dropper" leaves them unanswered (they
 * have the member "extra"), "serve" answers them (with a result). */
#define RAW_INVALID_SCENARIO                                                                       \
    SC_HEAD("area/raw/invalid")                                                                    \
    ALL_PING "\"steps\": ["                                                                         \
             "{\"raw\": \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":\\\"r1\\\",\\\"method\\\":42,"         \
             "\\\"extra\\\":1}\", \"expect\": {\"error\": -32600}, \"within\": 1000, "                \
             "\"check\": \"area/raw/invalid\"},"                                                   \
             "{\"raw\": \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":\\\"r2\\\",\\\"method\\\":42,"         \
             "\\\"extra\\\":2}\", \"expect\": {\"error\": -32600}, \"within\": 1000, "                \
             "\"check\": \"area/raw/invalid\"}]}"

/* A line with a readable id that no handler can take (an invalid request)
 * is decided at a barrier too: dropped, the wait ends at the ping's answer
 * (each line is followed by a ping), the drop is learned by the suite
 * (barrier_drops: the second line gets the short grace), and with
 * --fresh-process the whole window is waited out, with the same verdict.
 * Answered, the answer is taken by its id and judged as ever. */
static void test_suite_raw_invalid_barrier(void **state)
{
    char *drop[] = {(char *)test_target, "dropper", NULL};
    char *serve[] = {(char *)test_target, "serve", NULL};
    mc_runner_shared_t shared;
    mc_scenario_t sc;
    mc_suite_opts_t so;
    mc_run_result_t run;
    const mc_check_result_t *c;
    static const char *const one[] = {"2025-06-18", NULL};
    int fresh;

    (void)state;
    sc_load("b-invalid", RAW_INVALID_SCENARIO, &sc);
    for (fresh = 0; fresh <= 1; fresh++) {
        memset(&shared, 0, sizeof(shared));
        memset(&so, 0, sizeof(so));
        memset(&run, 0, sizeof(run));
        so.versions = one;
        so.jobs = 1;
        so.runner = opts_for(drop, NULL);
        so.runner.fresh_process = fresh;
        so.runner.shared = &shared;
        assert_int_equal(mc_suite_run(&sc, 1, &so, &run), MC_OK);
        expect_verdict(&run.scenarios[0], MC_FAIL);
        c = find_check(&run.scenarios[0], "area/raw/invalid");
        assert_non_null(c);
        assert_int_equal(c->verdict, MC_FAIL);
        assert_int_equal(c->fails, 2);
        assert_non_null(c->message);
        assert_int_equal(strstr(c->message, "a ping sent after it") != NULL, !fresh);
        assert_int_equal(sent_count(&run.scenarios[0], "ping"), fresh ? 0 : 2);
        assert_int_equal(atomic_load(&shared.barrier_drops), fresh ? 0 : 2);
        mc_run_free(&run);
    }
    /* Answered (with a result where an error is due): no barrier finding. */
    run_suite(&sc, 1, serve, 0, &run);
    c = find_check(&run.scenarios[0], "area/raw/invalid");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_FAIL);
    assert_non_null(c->message);
    assert_null(strstr(c->message, "a ping sent after it"));
    mc_run_free(&run);
    mc_scenario_free(&sc);
}

/* ${initialize}: the handshake's result, asserted by the server's name. */
#define INIT_VAR_SCENARIO(check)                                                                   \
    SC_HEAD(check)                                                                                 \
    ALL_PING "\"steps\": [{\"value\": \"${initialize.serverInfo.name}\", \"check\": \"" check      \
             "\", \"assert\": [{\"path\": \"\", \"equals\": \"mc-test-target\"}]}]}"

/* ${initialize} is the handshake's result for the run that made it and for
 * the run after it on the same process (which made none of its own). */
static void test_suite_initialize_var(void **state)
{
    char *argv[] = {(char *)test_target, "serve", NULL};
    mc_scenario_t scs[2];
    mc_run_result_t run;
    int i;

    (void)state;
    sc_load("c-init-1", INIT_VAR_SCENARIO("area/init/one"), &scs[0]);
    sc_load("c-init-2", INIT_VAR_SCENARIO("area/init/two"), &scs[1]);
    run_suite(scs, 2, argv, 0, &run);
    for (i = 0; i < 2; i++) {
        expect_verdict(&run.scenarios[i], MC_PASS);
        assert_non_null(run.scenarios[i].exit_desc);
    }
    assert_non_null(strstr(run.scenarios[0].exit_desc, "handed on"));
    mc_run_free(&run);
    for (i = 0; i < 2; i++)
        mc_scenario_free(&scs[i]);
}

static int suite_setup(void **state)
{
    mc_errbuf_t eb;

    (void)state;
    sc_dir_make();
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&registry, schemas_dir, MC_REGISTRY_BUNDLED, &eb) != MC_OK)
        fail_msg("registry: %s", eb.msg);
    return 0;
}

static int suite_teardown(void **state)
{
    (void)state;
    mc_registry_free(registry);
    registry = NULL;
    sc_dir_remove();
    return 0;
}

int run_suite_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_count),
        cmocka_unit_test(test_suite_order),
        cmocka_unit_test(test_suite_stop),
        cmocka_unit_test(test_suite_last_user),
        cmocka_unit_test(test_suite_raw_barrier),
        cmocka_unit_test(test_suite_raw_invalid_barrier),
        cmocka_unit_test(test_suite_initialize_var),
        cmocka_unit_test(test_suite_state_order),
    };

    return cmocka_run_group_tests_name("suite", tests, suite_setup, suite_teardown);
}
