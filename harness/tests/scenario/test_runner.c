/*
 * test_runner.c - the scenario runner and the suite, through their public
 * functions, against real target processes.
 *
 * usage: test_runner REFSERVER TEST_TARGET SCHEMAS_DIR
 *
 * The targets are the reference server (a conformant server, and with
 * --inject one that breaks one rule) and mc-test-target (a minimal server
 * that declares no capability and echoes any version, or one that crashes
 * or never reads). Every scenario is written to a temporary folder and
 * loaded like a library file.
 */
#include "sc_files.h"

#include <json-c/json.h>

#include "test_runner.h"

const char *refserver, *test_target, *schemas_dir;
mc_registry_t *registry;

static int setup(void **state)
{
    mc_errbuf_t eb;

    (void)state;
    sc_dir_make();
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&registry, schemas_dir, MC_REGISTRY_BUNDLED, &eb) != MC_OK)
        fail_msg("registry: %s", eb.msg);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    mc_registry_free(registry);
    sc_dir_remove();
    return 0;
}

/* Runner options for argv at version (argv stays owned by the caller). */
mc_runner_opts_t opts_for(char *const *argv, const char *version)
{
    mc_runner_opts_t o;

    memset(&o, 0, sizeof(o));
    o.argv = argv;
    o.version = version;
    o.registry = registry;
    return o;
}

/* The check with this id, or NULL. */
const mc_check_result_t *find_check(const mc_scenario_result_t *r, const char *id)
{
    size_t i;

    for (i = 0; i < r->n_checks; i++)
        if (strcmp(r->checks[i].id, id) == 0)
            return &r->checks[i];
    return NULL;
}

/* Fails with the result's reason and failing checks when the verdict differs. */
void expect_verdict(const mc_scenario_result_t *r, mc_verdict_t want)
{
    size_t i;

    if (r->verdict == want)
        return;
    for (i = 0; i < r->n_checks; i++)
        if (r->checks[i].verdict != MC_PASS)
            print_message("  %s %s: %s\n", mc_verdict_name(r->checks[i].verdict), r->checks[i].id,
                          r->checks[i].message ? r->checks[i].message : "");
    fail_msg("%s [%s]: %s (%s), expected %s", r->id, r->version, mc_verdict_name(r->verdict),
             r->reason ? r->reason : "no reason", mc_verdict_name(want));
}

/* A conformant server: PASS, the scenario's check evaluated and held, the
 * built-in wire and schema checks run on the same traffic, and the
 * transcript starts with the client's initialize. */
static void test_run_pass(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("ping", PING_SCENARIO(ALL_PING), &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_PASS);
    assert_string_equal(r.id, "area/ping");
    assert_string_equal(r.version, "2025-06-18");
    c = find_check(&r, "area/ping/held");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_PASS);
    assert_true(c->evals >= 1);
    assert_int_equal(c->fails, 0);
    assert_null(c->message);
    c = find_check(&r, "wire/jsonrpc-envelope");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_PASS);
    assert_true(c->evals >= 1);
    assert_int_equal(c->fails, 0);
    assert_non_null(find_check(&r, "wire/response-id"));
    assert_non_null(find_check(&r, "wire/stdout-only-messages"));
    assert_true(r.n_tx >= 4);
    assert_int_equal(r.tx[0].outbound, 1);
    assert_non_null(strstr(r.tx[0].line, "\"initialize\""));
    assert_int_equal(r.tx[1].outbound, 0);
    assert_int_equal(r.tx[0].seq, 1);
    assert_int_equal(r.tx[1].seq, 2);
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* "reconnect": the first server process stops and a second one answers
 * the rest, after a handshake of its own (two initialize requests in the
 * transcript, both answered). */
static void test_run_reconnect(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    size_t i, inits = 0;

    (void)state;
    sc_load("reconnect", SC_HEAD("area/ping/held") ALL_PING
            "\"steps\": [{\"request\": \"ping\"}, {\"reconnect\": true}, {\"request\": "
            "\"ping\", \"assert\": [{\"path\": \"result\", \"type\": \"object\"}]}]}",
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_PASS);
    for (i = 0; i < r.n_tx; i++)
        inits += r.tx[i].outbound && strstr(r.tx[i].line, "\"initialize\"") != NULL;
    assert_int_equal(inits, 2);
    assert_true(find_check(&r, "area/ping/held")->evals >= 1);
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* The version probe's word decides before a server starts: a scenario for
 * modern servers only is SKIP on a dual-era one, and one pinning a version
 * of the initialize era is SKIP on a server that speaks none. */
static void test_run_era_gates(void **state)
{
    char *argv[] = {(char *)"/nonexistent/never-started", NULL};
    const char *dual[] = {"2025-06-18", "2026-07-28", NULL};
    const char *modern[] = {"2026-07-28", NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;

    (void)state;
    o.server_versions = dual;
    sc_load("era", PING_SCENARIO(ALL_PING "\"requires\": {\"era\": \"modern\"}, "), &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_SKIP);
    assert_non_null(strstr(r.reason, "speaks 2025-06-18 through initialize"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);

    o = opts_for(argv, "2025-06-18");
    o.server_versions = modern;
    sc_load("pinned", PING_SCENARIO(ALL_PING "\"client\": {\"version\": \"2025-06-18\"}, "),
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_SKIP);
    assert_non_null(strstr(r.reason, "no version with an initialize handshake"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* The same scenario against a server that breaks the envelope of its ping
 * response: FAIL, pinned on the wire check, with evidence that points at
 * the transcript line of the broken message. */
static void test_run_fail_wire(void **state)
{
    char *argv[] = {(char *)refserver, "--inject", "envelope-jsonrpc-version", NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("ping", PING_SCENARIO(ALL_PING), &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_FAIL);
    c = find_check(&r, "wire/jsonrpc-envelope");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_FAIL);
    assert_true(c->fails >= 1);
    assert_non_null(c->message);
    assert_true(c->seq >= 1 && c->seq <= r.n_tx);
    assert_int_equal(r.tx[c->seq - 1].outbound, 0);
    assert_non_null(strstr(r.tx[c->seq - 1].line, "\"1.0\""));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* The scenario's own assertion fails: FAIL on its check, with expected and
 * actual. */
static void test_run_fail_assertion(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-11-25");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("tools", SC_HEAD("area/tools/named") "\"steps\": [{\"request\": \"tools/list\", "
            "\"expect\": \"result\", \"assert\": [{\"path\": \"result.tools[0].name\", "
            "\"equals\": \"no-such-tool\", \"check\": \"area/tools/named\"}]}]}",
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_FAIL);
    c = find_check(&r, "area/tools/named");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_FAIL);
    assert_non_null(c->expected);
    assert_non_null(strstr(c->expected, "no-such-tool"));
    assert_non_null(c->actual);
    assert_null(strstr(c->actual, "no-such-tool"));
    /* Nothing else broke: every other check held. */
    for (size_t i = 0; i < r.n_checks; i++)
        if (strcmp(r.checks[i].id, "area/tools/named") != 0)
            assert_int_equal(r.checks[i].verdict, MC_PASS);
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* A check run at a version its refs do not name quotes no page of that
 * version: its break is INFO, and says why, never FAIL. */
static void test_run_check_not_at_version(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-11-25");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("tools",
            "{\"title\": \"t\", \"spec\": [{\"check\": \"area/tools/named\", \"level\": "
            "\"MUST\", \"quote\": \"Something MUST hold.\", \"refs\": {\"2025-06-18\": "
            "\"basic#responses\"}}], \"steps\": [{\"request\": \"tools/list\", \"expect\": "
            "\"result\", \"assert\": [{\"path\": \"result.tools[0].name\", \"equals\": "
            "\"no-such-tool\", \"check\": \"area/tools/named\"}]}]}",
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    c = find_check(&r, "area/tools/named");
    assert_non_null(c);
    assert_int_equal(c->level, MC_LEVEL_INFO);
    assert_int_equal(c->verdict, MC_INFO);
    assert_string_equal(c->ref, "");
    assert_non_null(c->message);
    assert_non_null(strstr(c->message, "not on the pages of 2025-11-25"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* The replaced forms and the loop condition: {"$arguments": ARGS,
 * "$without": NAME or [NAMES]} gives every required argument but those
 * named; a for_each whose "when" does not hold runs nothing (and its list,
 * which names what only then exists, is not even expanded); one whose
 * "when" holds runs. Any step that ran where it should not would FAIL the
 * scenario's one check. */
static void test_run_without_and_when(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-11-25");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("derived",
            SC_HEAD("area/derived/held") "\"steps\": ["
            "{\"request\": \"tools/list\", \"capture\": {\"tools\": \"result.tools\", "
            "\"answer\": \"\"}},"
            "{\"value\": {\"$arguments\": [{\"name\": \"a\", \"required\": true}, "
            "{\"name\": \"b\", \"required\": true}, {\"name\": \"c\"}], \"$without\": \"a\"}, "
            "\"assert\": [{\"path\": \"a\", \"absent\": true}, "
            "{\"path\": \"b\", \"equals\": \"mcpcheck\"}, {\"path\": \"c\", \"absent\": true}]},"
            "{\"value\": {\"$arguments\": [{\"name\": \"a\", \"required\": true}, "
            "{\"name\": \"b\", \"required\": true}], \"$without\": [\"a\", \"b\"]}, "
            "\"assert\": [{\"path\": \"\", \"length\": 0}]},"
            "{\"for_each\": \"${answer.error.data}\", \"as\": \"e\", "
            "\"when\": {\"value\": \"${answer}\", \"assert\": [{\"path\": \"error\", "
            "\"present\": true}]}, \"steps\": [{\"value\": \"${e}\", \"assert\": "
            "[{\"path\": \"\", \"equals\": \"never\"}]}]},"
            "{\"for_each\": \"${tools}\", \"as\": \"t\", \"max\": 1, "
            "\"when\": {\"value\": \"${answer}\", \"assert\": [{\"path\": \"error\", "
            "\"present\": true}]}, \"steps\": [{\"value\": \"${t}\", \"assert\": "
            "[{\"path\": \"name\", \"equals\": \"never\"}]}]},"
            "{\"for_each\": \"${tools}\", \"as\": \"t\", \"max\": 1, "
            "\"when\": {\"value\": \"${answer}\", \"assert\": [{\"path\": \"result\", "
            "\"present\": true}]}, \"steps\": [{\"value\": \"${t}\", \"assert\": "
            "[{\"path\": \"name\", \"equals\": \"never\"}]}]}]}",
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    /* Only the last loop ran its step, and that step fails once. */
    expect_verdict(&r, MC_FAIL);
    c = find_check(&r, "area/derived/held");
    assert_non_null(c);
    assert_int_equal(c->fails, 1);
    assert_non_null(c->expected);
    assert_non_null(strstr(c->expected, "never"));
    assert_null(find_check(&r, "harness/step"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* What the server does not declare or does not negotiate is SKIP, with the
 * reason; an unmapped role is NOT-VERIFIED. None of them is a PASS. */
static void test_run_skip_and_not_verified(void **state)
{
    char *serve[] = {(char *)test_target, "serve", NULL};
    char *ref[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(serve, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;

    (void)state;
    sc_load("needs-resources", PING_SCENARIO(ALL_PING "\"requires\": {\"capabilities\": [\"resources\"]}, "),
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_SKIP);
    assert_non_null(strstr(r.reason, "\"resources\""));
    assert_null(find_check(&r, "area/ping/held"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);

    /* mc-test-target accepts 2025-06-18; the scenario is for 2025-11-25 only. */
    sc_load("later", PING_SCENARIO("\"versions\": \"2025-11-25\", "), &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_SKIP);
    assert_non_null(strstr(r.reason, "2025-06-18"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);

    o = opts_for(ref, "2025-06-18");
    sc_load("role", SC_HEAD("area/role/held") "\"steps\": [{\"request\": \"tools/call\", "
            "\"params\": {\"name\": \"${role:tool.nowhere}\"}, \"expect\": \"result\"}]}",
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_NOT_VERIFIED);
    assert_non_null(strstr(r.reason, "tool.nowhere"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* A scenario at 2025-11-25 whose client lets the reference server make a
 * task on it and answers every poll working, with a pollInterval of 300
 * ms; steps follows the tool call and the task-augmented request. */
#define TASK_WORKING                                                                               \
    "{\"taskId\": \"t-1\", \"status\": \"working\", \"createdAt\": \"2025-11-25T10:00:00Z\", "     \
    "\"lastUpdatedAt\": \"2025-11-25T10:00:00Z\", \"ttl\": 60000, \"pollInterval\": 300}"
#define POLLED_CHECKS                                                                              \
    "{\"check\": \"area/gap/near\", \"level\": \"MUST\", \"quote\": \"Something MUST hold.\", "    \
    "\"refs\": {\"2025-11-25\": \"basic#responses\"}}, {\"check\": \"area/gap/far\", "             \
    "\"level\": \"MUST\", \"quote\": \"Something MUST hold.\", \"refs\": {\"2025-11-25\": "        \
    "\"basic#responses\"}}"
#define POLLED_CLIENT                                                                              \
    "\"client\": {\"capabilities\": {\"elicitation\": {}, \"tasks\": {\"requests\": "              \
    "{\"elicitation\": {\"create\": {}}}}}, \"answers\": {\"elicitation/create\": {\"with\": "     \
    "{\"task\": " TASK_WORKING "}}, \"tasks/get\": {\"with\": " TASK_WORKING "}}}, "
#define POLLED_SCENARIO(steps)                                                                     \
    "{\"title\": \"t\", \"versions\": \"2025-11-25\", \"spec\": [" POLLED_CHECKS                   \
    "], " POLLED_CLIENT "\"steps\": [{\"request\": \"tools/call\", \"params\": {\"name\": "        \
    "\"test_task_requestor\"}, \"async\": \"call\"}, " steps "]}"

/* An expect step's "interval": the reference server polls 300 ms apart, so
 * an interval of at least 250 ms holds and one of at least 5000 ms is
 * broken, on the check the interval names, with the gap seen as evidence;
 * an interval with no earlier message taken to measure from leaves the
 * scenario NOT-VERIFIED. */
static void test_run_interval(void **state)
{
    char *argv[] = {(char *)refserver, NULL};
    mc_runner_opts_t o = opts_for(argv, "2025-11-25");
    mc_scenario_result_t r;
    mc_scenario_t sc;
    const mc_check_result_t *c;

    (void)state;
    sc_load("polled",
            POLLED_SCENARIO(
                "{\"expect_request\": \"elicitation/create\", \"check\": \"area/gap/near\"}, "
                "{\"expect_request\": \"tasks/get\", \"check\": \"area/gap/near\"}, "
                "{\"expect_request\": \"tasks/get\", \"check\": \"area/gap/near\", "
                "\"interval\": {\"min\": 250}}, "
                "{\"expect_request\": \"tasks/get\", \"check\": \"area/gap/near\", "
                "\"interval\": {\"min\": 5000, \"check\": \"area/gap/far\"}}"),
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_FAIL);
    c = find_check(&r, "area/gap/near");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_PASS);
    c = find_check(&r, "area/gap/far");
    assert_non_null(c);
    assert_int_equal(c->verdict, MC_FAIL);
    assert_non_null(c->expected);
    assert_string_equal(c->expected, ">= 5000 ms");
    assert_non_null(c->message);
    assert_non_null(strstr(c->message, "at least 5000 ms"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);

    sc_load("unmeasured",
            POLLED_SCENARIO(
                "{\"expect_request\": \"elicitation/create\", \"check\": \"area/gap/near\", "
                "\"interval\": {\"min\": 1}}"),
            &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_NOT_VERIFIED);
    assert_non_null(strstr(r.reason, "no earlier expect step"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

/* A target that dies is an ERROR that says how it ended; one that never
 * answers is an ERROR within the start-up budget. A crash is never a skip. */
static void test_run_error(void **state)
{
    char *segv[] = {(char *)test_target, "segv", NULL};
    char *silent[] = {(char *)test_target, "noread", NULL};
    mc_runner_opts_t o = opts_for(segv, "2025-06-18");
    mc_scenario_result_t r;
    mc_scenario_t sc;

    (void)state;
    sc_load("ping", PING_SCENARIO(ALL_PING), &sc);
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_ERROR);
    assert_non_null(r.reason);
    assert_non_null(r.exit_desc);
    assert_non_null(strstr(r.exit_desc, "SIGSEGV"));
    mc_sresult_free(&r);

    o = opts_for(silent, "2025-06-18");
    o.startup_timeout_ms = 300;
    memset(&r, 0, sizeof(r));
    assert_int_equal(mc_runner_run(&sc, &o, &r), MC_OK);
    expect_verdict(&r, MC_ERROR);
    assert_non_null(strstr(r.reason, "initialize"));
    mc_sresult_free(&r);
    mc_scenario_free(&sc);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_pass),
        cmocka_unit_test(test_run_fail_wire),
        cmocka_unit_test(test_run_fail_assertion),
        cmocka_unit_test(test_run_check_not_at_version),
        cmocka_unit_test(test_run_without_and_when),
        cmocka_unit_test(test_run_skip_and_not_verified),
        cmocka_unit_test(test_run_reconnect),
        cmocka_unit_test(test_run_era_gates),
        cmocka_unit_test(test_run_error),
        cmocka_unit_test(test_run_interval),
    };

    if (argc != 4) {
        fprintf(stderr, "usage: %s REFSERVER TEST_TARGET SCHEMAS_DIR\n", argv[0]);
        return 2;
    }
    refserver = argv[1];
    test_target = argv[2];
    schemas_dir = argv[3];
    if (cmocka_run_group_tests_name("runner", tests, setup, teardown) != 0)
        return 1;
    return run_suite_tests();
}
