/* Unit tests for the linter's vocabulary: methods, capabilities, step
 * kinds, step fields and matchers held to the protocol's schemas and the
 * scenario format, with the nearest known name suggested; deliberate unknown
 * methods; and the warnings of an unfinished scenario. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/suggest.h"
#include "scenario/scenario.h"
#include "schema/registry.h"
#include "schema/vocab.h"

static char dir[] = "/tmp/mc-lint-vocab-XXXXXX";

/* Writes text as dir/area/s.jsonc and loads it. */
static int lint(const char *text, char **problems, mc_scenario_t *sc)
{
    char path[256];
    mc_errbuf_t eb;
    FILE *f;

    snprintf(path, sizeof(path), "%s/area/s.jsonc", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    mc_errbuf_clear(&eb);
    *problems = NULL;
    return mc_scenario_load(path, dir, sc, problems, &eb);
}

/* The file does not load, and a problem says needle. */
static void expect_problem(const char *text, const char *needle)
{
    mc_scenario_t sc;
    char *problems = NULL;

    assert_int_equal(lint(text, &problems, &sc), MC_EINVAL);
    assert_non_null(problems);
    if (strstr(problems, needle) == NULL)
        fail_msg("problems lack \"%s\":\n%s", needle, problems);
    free(problems);
}

/* The file loads; its warnings say needle (NULL: it has none). */
static void expect_clean(const char *text, const char *needle)
{
    mc_scenario_t sc;
    char *problems = NULL;

    if (lint(text, &problems, &sc) != MC_OK)
        fail_msg("does not load:\n%s", problems != NULL ? problems : "(no problems)");
    if (needle == NULL && sc.warnings != NULL)
        fail_msg("unexpected warnings:\n%s", sc.warnings);
    if (needle != NULL && (sc.warnings == NULL || strstr(sc.warnings, needle) == NULL))
        fail_msg("warnings lack \"%s\":\n%s", needle, sc.warnings ? sc.warnings : "(none)");
    mc_scenario_free(&sc);
}

#define HEAD                                                                                       \
    "{\"title\": \"t\", \"spec\": [{\"check\": \"area/x/y\", \"level\": \"MUST\", "                \
    "\"quote\": \"Something MUST hold.\", \"refs\": {\"2025-06-18\": \"basic#messages\"}}], "

static void test_suggest(void **state)
{
    static const char *const words[] = {"resources/subscribe", "resources/unsubscribe",
                                        "resources/list", NULL};
    mc_suggest_t s;

    (void)state;
    assert_int_equal(mc_edit_distance("nmae", 4, "name", 4), 1);
    assert_int_equal(mc_edit_distance("abc", 3, "abc", 3), 0);
    mc_suggest_init(&s, "resources/unsubcribe", strlen("resources/unsubcribe"));
    for (const char *const *w = words; *w != NULL; w++)
        mc_suggest_offer(&s, *w);
    assert_string_equal(s.best, "resources/unsubscribe");
    mc_suggest_init(&s, "frobnicate", 10);
    for (const char *const *w = words; *w != NULL; w++)
        mc_suggest_offer(&s, *w);
    assert_null(s.best);
}

static void test_vocabulary_from_schemas(void **state)
{
    mc_vocab_t *v = NULL;
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_vocab_load(mc_registry_bundled_dir(), &v, &eb), MC_OK);
    assert_true(mc_vocab_has(v, 0, MC_VOCAB_CLIENT_REQUEST, "resources/subscribe"));
    assert_false(mc_vocab_has(v, 4, MC_VOCAB_CLIENT_REQUEST, "resources/subscribe"));
    assert_true(mc_vocab_has(v, 4, MC_VOCAB_CLIENT_REQUEST, "subscriptions/listen"));
    assert_false(mc_vocab_has(v, 2, MC_VOCAB_CLIENT_REQUEST, "roots/list"));
    assert_true(mc_vocab_has(v, 2, MC_VOCAB_SERVER_REQUEST, "elicitation/create"));
    assert_false(mc_vocab_has(v, 1, MC_VOCAB_SERVER_REQUEST, "elicitation/create"));
    /* The stateless version's input requests are what its client answers. */
    assert_true(mc_vocab_has(v, 4, MC_VOCAB_SERVER_REQUEST, "elicitation/create"));
    assert_true(mc_vocab_has(v, 4, MC_VOCAB_NOTIFICATION, "notifications/cancelled"));
    assert_true(mc_vocab_has(v, 0, MC_VOCAB_SERVER_CAP, "resources.subscribe"));
    assert_false(mc_vocab_has(v, 0, MC_VOCAB_SERVER_CAP, "resource.subscribe"));
    assert_false(mc_vocab_has(v, 0, MC_VOCAB_SERVER_CAP, "completions"));
    assert_true(mc_vocab_has(v, 3, MC_VOCAB_SERVER_CAP, "tasks.requests.tools.call"));
    assert_true(mc_vocab_has(v, 2, MC_VOCAB_SERVER_CAP, "experimental.anything"));
    assert_true(mc_vocab_has(v, 2, MC_VOCAB_CLIENT_CAP, "roots.listChanged"));
    assert_false(mc_vocab_has(v, 2, MC_VOCAB_CLIENT_CAP, "elicitation.url"));
    mc_vocab_free(v);
    /* A folder without the schemas is an error, and nothing is made. */
    v = NULL;
    assert_int_not_equal(mc_vocab_load("/nonexistent-mcpcheck", &v, &eb), MC_OK);
    assert_null(v);
}

static void test_typos_refused(void **state)
{
    (void)state;
    /* A capability one letter off would make the scenario SKIP forever. */
    expect_problem(HEAD "\"requires\": {\"capabilities\": [\"resource.subscribe\"]}, "
                        "\"steps\": [{\"request\": \"tools/list\"}]}",
                   "unknown server capability \"resource.subscribe\" (did you mean "
                   "\"resources.subscribe\"?)");
    /* A method one letter off would blame the server at run time. */
    expect_problem(HEAD "\"versions\": \"..2025-11-25\", \"steps\": [{\"request\": "
                        "\"resources/unsubcribe\", \"params\": {\"uri\": \"u\"}}]}",
                   "unknown client request method \"resources/unsubcribe\" (did you mean "
                   "\"resources/unsubscribe\"?)");
    expect_problem(HEAD "\"steps\": [{\"expect_notification\": "
                        "\"notifications/resources/update\"}]}",
                   "(did you mean \"notifications/resources/updated\"?)");
    expect_problem(HEAD "\"versions\": \"2025-06-18\", \"steps\": [{\"answer\": "
                        "\"elicitation/creat\", \"with\": {}}]}",
                   "unknown server request method \"elicitation/creat\" (did you mean "
                   "\"elicitation/create\"?)");
    expect_problem(HEAD
                   "\"versions\": \"2025-06-18\", \"client\": {\"answers\": "
                   "{\"sampling/createMesage\": {\"with\": {}}}}, \"steps\": [{\"sleep\": 1}]}",
                   "(did you mean \"sampling/createMessage\"?)");
    expect_problem(HEAD "\"versions\": \"2025-11-25\", \"client\": {\"capabilities\": "
                        "{\"sampling\": {\"contxt\": {}}}}, \"steps\": [{\"sleep\": 1}]}",
                   "unknown client capability \"sampling.contxt\" (did you mean "
                   "\"sampling.context\"?)");
    expect_problem(HEAD "\"steps\": [{\"reqest\": \"ping\"}]}",
                   "unknown step kind \"reqest\" (did you mean \"request\"?)");
    expect_problem(HEAD "\"steps\": [{\"request\": \"tools/list\", \"asert\": []}]}",
                   "unknown field \"asert\" in a request step (did you mean \"assert\"?)");
    expect_problem(HEAD "\"steps\": [{\"request\": \"tools/list\", \"assert\": [{\"path\": "
                        "\"a\", \"equal\": 1}]}]}",
                   "unknown field \"equal\" in an assertion (did you mean \"equals\"?)");
    expect_problem(HEAD "\"steps\": [{\"request\": \"tools/list\", \"assert\": [{\"path\": "
                        "\"a\", \"type\": \"str\"}]}]}",
                   "unknown type in \"type\" matcher (did you mean \"string\"?)");
    expect_problem(HEAD "\"steps\": [{\"request\": \"tools/list\", \"expect\": \"results\"}]}",
                   "(did you mean \"result\"?)");
    expect_problem(HEAD "\"requires\": {\"capabilites\": []}, \"steps\": [{\"sleep\": 1}]}",
                   "(did you mean \"capabilities\"?)");
    /* The direction counts: roots/list is the server's request. */
    expect_problem(HEAD "\"steps\": [{\"request\": \"roots/list\"}]}",
                   "\"roots/list\" is a server request method, not a client request method");
}

static void test_versions_and_deliberate_unknowns(void **state)
{
    (void)state;
    /* A method of another version than those the scenario runs at. */
    expect_problem(HEAD "\"steps\": [{\"request\": \"resources/subscribe\", \"params\": "
                        "{\"uri\": \"u\"}}]}",
                   "\"resources/subscribe\" is not a client request method at 2026-07-28, "
                   "where the scenario runs");
    expect_problem(HEAD "\"versions\": \"2025-06-18\", \"steps\": [{\"request\": \"tasks/get\", "
                        "\"params\": {}}]}",
                   "\"tasks/get\" is not a client request method at 2025-06-18");
    /* A capability no version in the range can declare. */
    expect_problem(HEAD "\"versions\": \"2024-11-05\", \"requires\": {\"capabilities\": "
                        "[\"completions\"]}, \"steps\": [{\"sleep\": 1}]}",
                   "\"completions\" is not a server capability at 2024-11-05");
    /* Its absence tested on purpose, and held to it. */
    expect_clean(HEAD "\"versions\": \"2026-07-28\", \"steps\": [{\"request\": \"ping\", "
                      "\"unknown_method\": true, \"expect\": {\"error\": -32601}}]}",
                 NULL);
    expect_problem(HEAD "\"versions\": \"2025-06-18\", \"steps\": [{\"request\": \"ping\", "
                        "\"unknown_method\": true}]}",
                   "\"unknown_method\": true, but \"ping\" is a client request method at "
                   "2025-06-18");
    expect_problem(HEAD "\"steps\": [{\"notify\": \"notifications/progress\", "
                        "\"unknown_method\": 1}]}",
                   "\"unknown_method\" in a notify step must be a boolean");
    /* A made-up name with a segment starting with mcpcheck passes; another
     * unknown name does not. */
    expect_clean(HEAD "\"steps\": [{\"request\": \"mcpcheck/no-such-method\", \"expect\": "
                      "{\"error\": -32601}}, {\"request\": \"tools/mcpcheck-unknown\", "
                      "\"expect\": \"error\"}]}",
                 NULL);
    expect_problem(HEAD "\"steps\": [{\"request\": \"frobnicate\"}]}",
                   "unknown client request method \"frobnicate\" (a method made up");
    /* The range narrowed by features and by a pinned client version. */
    expect_clean(HEAD "\"requires\": {\"features\": [\"batch\"]}, \"steps\": [{\"request\": "
                      "\"ping\"}]}",
                 NULL);
    expect_clean(HEAD "\"client\": {\"version\": \"2025-06-18\"}, \"steps\": [{\"request\": "
                      "\"ping\"}, {\"expect_no_request\": \"elicitation/create\"}]}",
                 NULL);
    /* "*" waits for any message. */
    expect_clean(HEAD "\"steps\": [{\"expect_no_notification\": \"*\"}]}", NULL);
    /* The era a rule binds: "modern" alone; a raw step captures. */
    expect_clean(HEAD "\"requires\": {\"era\": \"modern\"}, \"steps\": [{\"raw\": \"{}\", "
                      "\"expect\": \"any\", \"capture\": {\"got\": \"\"}}, {\"value\": \"${got}\", "
                      "\"assert\": [{\"path\": \"id\", \"present\": true}]}]}",
                 NULL);
    expect_problem(HEAD "\"requires\": {\"era\": \"legacy\"}, \"steps\": [{\"sleep\": 1}]}",
                   "\"era\" is \"modern\"");
    /* A reconnect step is "reconnect": true and nothing else. */
    expect_clean(HEAD "\"steps\": [{\"reconnect\": true}, {\"request\": \"tools/list\"}]}",
                 NULL);
    expect_problem(HEAD "\"steps\": [{\"reconnect\": 1}]}", "\"reconnect\" must be true");
    expect_problem(HEAD "\"steps\": [{\"reconnect\": true, \"timeout\": 5}]}", "timeout");
}

static void test_unfinished_warns(void **state)
{
    (void)state;
    expect_clean("{\"title\": \"TODO: what this scenario shows\", \"spec\": [{\"check\": "
                 "\"area/x/y\", \"level\": \"MUST\", \"quote\": \"Something MUST hold.\", "
                 "\"refs\": {\"2025-06-18\": \"basic#messages\"}}], \"steps\": [{\"sleep\": 1}]}",
                 "s.jsonc:1:11: warning: \"title\" holds a TODO marker");
    expect_clean(
        "{\"title\": \"t\", \"spec\": [{\"check\": \"recorded/todo\", \"level\": \"MUST\", "
        "\"quote\": \"Something MUST hold.\", \"refs\": {\"2025-06-18\": "
        "\"basic#messages\"}, \"interpretation\": \"TODO: say\"}], \"steps\": "
        "[{\"sleep\": 1}]}",
        "warning: check \"recorded/todo\" is the placeholder id of mcpcheck record");
    expect_clean(
        "{\"title\": \"t\", \"spec\": [{\"check\": \"recorded/todo\", \"level\": \"MUST\", "
        "\"quote\": \"Something MUST hold.\", \"refs\": {\"2025-06-18\": "
        "\"basic#messages\"}, \"interpretation\": \"TODO: say\"}], \"steps\": "
        "[{\"sleep\": 1}]}",
        "warning: \"interpretation\" holds a TODO marker");
}

static int setup(void **state)
{
    char area[sizeof(dir) + 8];

    (void)state;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(area, sizeof(area), "%s/area", dir);
    return mkdir(area, 0700);
}

static int teardown(void **state)
{
    char p[300];

    (void)state;
    snprintf(p, sizeof(p), "%s/area/s.jsonc", dir);
    unlink(p);
    snprintf(p, sizeof(p), "%s/area", dir);
    rmdir(p);
    rmdir(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_vocabulary_from_schemas),
        cmocka_unit_test(test_typos_refused),
        cmocka_unit_test(test_versions_and_deliberate_unknowns),
        cmocka_unit_test(test_unfinished_warns),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
