/* Unit tests for the scenario layer: JSONC positions, the linter, paths,
 * variables and matchers. */
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

#include "scenario/jsonc.h"
#include "scenario/match.h"
#include "scenario/scenario.h"
#include "scenario/vars.h"

static json_object *J(const char *s)
{
    json_object *v = json_tokener_parse(s);
    assert_non_null(v);
    return v;
}

/* Writes text to a temporary scenario file under dir/area/name.jsonc. */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_jsonc_positions_and_errors(void **state)
{
    const char *text = "// comment\n{\n  \"a\": [1, {\"b\": true},],\n  /* c */ \"s\": \"x\",\n}\n";
    mc_jsonc_doc_t doc;
    mc_errbuf_t eb;
    int line, col;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_jsonc_parse(text, strlen(text), "t.jsonc", &doc, &eb), MC_OK);
    mc_jsonc_where(&doc, "/a/1/b", &line, &col);
    assert_int_equal(line, 3);
    assert_int_equal(col, 18);
    mc_jsonc_where(&doc, "/s", &line, &col);
    assert_int_equal(line, 4);
    mc_jsonc_where(&doc, "/a/7/zz", &line, &col); /* nearest ancestor: /a */
    assert_int_equal(line, 3);
    assert_int_equal(col, 8);
    mc_jsonc_free(&doc);

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_jsonc_parse("{\n \"a\": 1\n \"b\": 2}", 18, "bad.jsonc", &doc, &eb),
                     MC_EPARSE);
    assert_non_null(strstr(eb.msg, "bad.jsonc:3:"));
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_jsonc_parse("{} x", 4, "tail.jsonc", &doc, &eb), MC_EPARSE);
    assert_non_null(strstr(eb.msg, "tail.jsonc:1:4: unexpected text"));
}

static char dir[] = "/tmp/mc-scenario-test-XXXXXX";

static int lint(const char *text, char **problems, mc_scenario_t *sc)
{
    char path[256];
    mc_errbuf_t eb;

    snprintf(path, sizeof(path), "%s/area/s.jsonc", dir);
    write_file(path, text);
    mc_errbuf_clear(&eb);
    *problems = NULL;
    return mc_scenario_load(path, dir, sc, problems, &eb);
}

#define GOOD_HEAD                                                                                  \
    "{\"title\": \"t\", \"spec\": [{\"check\": \"area/x/y\", \"level\": \"MUST\", "              \
    "\"quote\": \"Something MUST hold.\", \"refs\": {\"2025-11-25\": "                                \
    "\"server/resources#reading-resources\", \"2025-06-18\": \"server/resources#reading\"}, "         \
    "\"quotes\": {\"2025-11-25\": \"Something MUST still hold.\"}, "                                  \
    "\"interpretation\": \"Our reading.\"}],"

/* A scenario whose only check is the given spec entry (JSON text). */
#define ONE_CHECK(entry) "{\"title\": \"t\", \"spec\": [" entry "], \"steps\": [{\"sleep\": 1}]}"

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

static void test_load_valid(void **state)
{
    mc_scenario_t sc;
    char *problems;

    (void)state;
    assert_int_equal(lint(GOOD_HEAD "\"versions\": \"2025-11-25..\", \"steps\": ["
                                    "{\"request\": \"tools/call\", \"params\": {\"name\": "
                                    "\"${role:tool.x}\"}, \"capture\": {\"c\": \"result.content\"}},"
                                    "{\"for_each\": \"${c}\", \"as\": \"i\", \"steps\": ["
                                    "{\"notify\": \"notifications/progress\", \"params\": {\"v\": \"${i.text}\"}}]}]}",
                          &problems, &sc),
                     MC_OK);
    assert_null(problems);
    assert_string_equal(sc.id, "area/s");
    assert_string_equal(sc.area, "area");
    assert_int_equal(sc.n_roles, 1);
    assert_string_equal(sc.roles[0], "tool.x");
    assert_true(mc_scenario_applies(&sc, "2025-11-25"));
    assert_false(mc_scenario_applies(&sc, "2025-06-18"));
    assert_int_equal(mc_scenario_line(&sc, "/steps/1/steps/0"), 1);
    mc_scenario_free(&sc);
    /* ${initialize}, a built-in variable, needs no capture. */
    assert_int_equal(lint(GOOD_HEAD "\"steps\": [{\"value\": \"${initialize.capabilities}\", "
                                    "\"assert\": []}]}",
                          &problems, &sc),
                     MC_OK);
    assert_null(problems);
    mc_scenario_free(&sc);
    /* A list of versions and ranges; features the version must have. */
    assert_int_equal(lint(GOOD_HEAD "\"versions\": [\"2024-11-05\", \"2025-06-18..2025-11-25\"], "
                                    "\"requires\": {\"features\": [\"batch\"], "
                                    "\"capabilities\": [\"completions\"]}, "
                                    "\"steps\": [{\"sleep\": 1}]}",
                          &problems, &sc),
                     MC_OK);
    assert_true(mc_scenario_applies(&sc, "2024-11-05"));
    assert_false(mc_scenario_applies(&sc, "2025-03-26"));
    assert_true(mc_scenario_applies(&sc, "2025-06-18"));
    assert_true(mc_scenario_applies(&sc, "2025-11-25"));
    assert_false(mc_scenario_applies(&sc, "2026-07-28"));
    assert_string_equal(sc.min_version, "2024-11-05");
    assert_string_equal(sc.max_version, "2025-11-25");
    {
        char why[200];
        assert_true(mc_scenario_version_gap(&sc, "2025-06-18", why, sizeof(why)));
        assert_non_null(strstr(why, "2025-06-18 lacks JSON-RPC batches"));
        assert_false(mc_scenario_version_gap(&sc, "2025-03-26", why, sizeof(why)));
        sc.features = 0;
        assert_true(mc_scenario_version_gap(&sc, "2024-11-05", why, sizeof(why)));
        assert_non_null(strstr(why, "cannot declare \"completions\""));
        assert_false(mc_scenario_version_gap(&sc, "2025-03-26", why, sizeof(why)));
    }
    mc_scenario_free(&sc);
    assert_int_equal(lint(GOOD_HEAD "\"versions\": \"2025-11-25..\", \"steps\": ["
                                    "{\"request\": \"tools/call\", \"params\": {\"name\": "
                                    "\"${role:tool.x}\"}, \"capture\": {\"c\": \"result.content\"}},"
                                    "{\"for_each\": \"${c}\", \"as\": \"i\", \"steps\": ["
                                    "{\"notify\": \"notifications/progress\", \"params\": {\"v\": \"${i.text}\"}}]}]}",
                          &problems, &sc),
                     MC_OK);
    assert_null(sc.warnings);
    /* The check: refs in version order, the wording per version, the reading apart. */
    assert_int_equal(sc.n_reqs, 1);
    {
        const mc_check_def_t *d = &sc.reqs[0];
        char ref[128];
        assert_int_equal(d->level, MC_LEVEL_MUST);
        assert_string_equal(d->refs[0].version, "2025-06-18");
        assert_string_equal(d->refs[1].version, "2025-11-25");
        assert_null(d->refs[2].version);
        assert_string_equal(mc_check_quote_for(d, "2025-06-18"), "Something MUST hold.");
        assert_string_equal(mc_check_quote_for(d, "2025-11-25"), "Something MUST still hold.");
        assert_string_equal(d->interpretation, "Our reading.");
        mc_check_ref_string(d, "2025-11-25", ref, sizeof(ref));
        assert_string_equal(ref, "2025-11-25/server/resources#reading-resources");
        mc_check_ref_string(d, "2025-06-18", ref, sizeof(ref));
        assert_string_equal(ref, "2025-06-18/server/resources#reading");
        /* A version it does not name: the nearest earlier one it does, else the first. */
        mc_check_ref_string(d, "2026-07-28", ref, sizeof(ref));
        assert_string_equal(ref, "2025-11-25/server/resources#reading-resources");
        mc_check_ref_string(d, "2025-03-26", ref, sizeof(ref));
        assert_string_equal(ref, "2025-06-18/server/resources#reading");
    }
    mc_scenario_free(&sc);
}

/* The loader types each step once: its kind, its kind's member, its line
 * and a for_each's nested steps. */
static void test_typed_steps(void **state)
{
    mc_scenario_t sc;
    char *problems;
    json_object *two, *none;
    int n = -1, k;

    (void)state;
    if (lint(GOOD_HEAD "\"steps\": [\n"
                                    "{\"request\": \"tools/list\", \"capture\": {\"c\": \"result.tools\"}},\n"
                                    "{\"sleep\": 5},\n"
                                    "{\"for_each\": \"${c}\", \"as\": \"i\", \"steps\": [\n"
                                    "  {\"notify\": \"notifications/progress\"},\n"
                                    "  {\"expect_no_request\": \"*\"}]},\n"
                                    "{\"value\": 1, \"assert\": [{\"path\": \"\", \"equals\": 1}]}]}",
                          &problems, &sc) != MC_OK)
        fail_msg("%s", problems != NULL ? problems : "(no problems)");
    assert_int_equal(sc.n_steps, 4);
    assert_int_equal(sc.step_v[0].kind, MC_STEP_request);
    assert_string_equal(sc.step_v[0].arg, "tools/list");
    assert_int_equal(sc.step_v[0].line, 2);
    assert_ptr_equal(sc.step_v[0].json, json_object_array_get_idx(sc.steps, 0));
    assert_int_equal(sc.step_v[1].kind, MC_STEP_sleep);
    assert_null(sc.step_v[1].arg); /* a number, not a string */
    assert_int_equal(sc.step_v[1].line, 3);
    assert_int_equal(sc.step_v[2].kind, MC_STEP_for_each);
    assert_int_equal(sc.step_v[2].n_steps, 2);
    assert_int_equal(sc.step_v[2].steps[0].kind, MC_STEP_notify);
    assert_int_equal(sc.step_v[2].steps[0].line, 5);
    assert_int_equal(sc.step_v[2].steps[1].kind, MC_STEP_expect_no_request);
    assert_string_equal(sc.step_v[2].steps[1].arg, "*");
    assert_int_equal(sc.step_v[2].steps[1].line, 6);
    assert_int_equal(sc.step_v[3].kind, MC_STEP_value);
    assert_int_equal(sc.step_v[3].line, 7);
    mc_scenario_free(&sc);

    /* Exactly one kind member makes a kind. */
    two = json_tokener_parse("{\"request\": \"a\", \"notify\": \"b\"}");
    none = json_tokener_parse("{\"note\": \"n\"}");
    assert_int_equal(mc_step_kind_of(two, &n), MC_STEP_NONE);
    assert_int_equal(n, 2);
    assert_int_equal(mc_step_kind_of(none, &n), MC_STEP_NONE);
    assert_int_equal(n, 0);
    json_object_put(two);
    json_object_put(none);
    /* Every kind has a name and a description, and the linter accepts it. */
    for (k = MC_STEP_NONE + 1; k < MC_STEP_KIND_COUNT; k++) {
        json_object *st = json_object_new_object();
        json_object_object_add(st, mc_step_kind_name((mc_step_kind_t)k), json_object_new_int(1));
        assert_int_equal(mc_step_kind_of(st, &n), k);
        assert_int_equal(n, 1);
        assert_non_null(strstr(mc_step_kind_what((mc_step_kind_t)k),
                               mc_step_kind_name((mc_step_kind_t)k)));
        json_object_put(st);
    }
    assert_string_equal(mc_step_kind_name(MC_STEP_NONE), "");
}

static void test_load_legacy_warns(void **state)
{
    mc_scenario_t sc;
    char *problems;
    char ref[128];

    (void)state;
    assert_int_equal(lint(ONE_CHECK("{\"check\": \"area/x/y\", \"level\": \"SHOULD\", \"ref\": "
                                    "\"2025-06-18/server/resources#error-handling\", \"text\": "
                                    "\"Servers answer with an error.\"}"),
                          &problems, &sc),
                     MC_OK);
    assert_null(problems);
    assert_non_null(sc.warnings);
    assert_non_null(strstr(sc.warnings, "s.jsonc:1:"));
    assert_non_null(strstr(sc.warnings, "warning: check \"area/x/y\" uses the legacy {ref, text}"));
    assert_true(sc.reqs[0].legacy);
    assert_int_equal(sc.reqs[0].level, MC_LEVEL_SHOULD);
    assert_string_equal(sc.reqs[0].quote, "Servers answer with an error.");
    mc_check_ref_string(&sc.reqs[0], "2025-11-25", ref, sizeof(ref));
    assert_string_equal(ref, "2025-06-18/server/resources#error-handling");
    mc_scenario_free(&sc);
}

static void test_lint_check_entries(void **state)
{
    (void)state;
    /* The level is the quote's keyword; INFO only without one. */
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"The receiver MAY "
                             "send progress.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}}"),
                   "level MUST does not match the quote, which says MAY");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"INFO\", \"quote\": \"Servers MUST NOT "
                             "do it.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}}"),
                   "level INFO does not match the quote, which says MUST");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"SHOULD\", \"quote\": \"servers should "
                             "do it, for example.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}}"),
                   "which says no RFC 2119 keyword");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST hold "
                             "here.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}, \"quotes\": "
                             "{\"2025-06-18\": \"It SHOULD hold here.\"}}"),
                   "level MUST does not match the quote, which says SHOULD");
    /* Where the sentence is. */
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\"}"),
                   "requirement needs \"refs\"");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\", \"refs\": {\"2025-06-18\": \"2025-06-18/basic/x#y\"}}"),
                   "must be \"page#anchor\" without the version");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\", \"refs\": {\"latest\": \"basic/x#y\"}}"),
                   "\"latest\" in \"refs\" is not a published protocol version");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}, \"quotes\": "
                             "{\"2025-11-25\": \"It MUST hold too.\"}}"),
                   "quotes[\"2025-11-25\"]: that version is not in \"refs\"");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"refs\": {\"2025-06-18\": "
                             "\"basic/x#y\"}}"),
                   "requirement needs \"quote\"");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}, \"interpretation\": 3}"),
                   "\"interpretation\" must be a non-empty string");
    /* The two forms do not mix, and an id is declared once. */
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"It MUST "
                             "hold.\", \"refs\": {\"2025-06-18\": \"basic/x#y\"}, \"text\": \"It "
                             "MUST hold.\"}"),
                   "do not mix");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MAY\", \"quote\": \"It MAY hold.\", "
                             "\"refs\": {\"2025-06-18\": \"basic/x#y\"}}, {\"check\": \"a/b\", \"level\": "
                             "\"INFO\", \"quote\": \"It holds, for example.\", \"refs\": {\"2025-06-18\": "
                             "\"basic/x#y\"}}"),
                   "check \"a/b\" is declared twice");
}

static void test_lint_problems(void **state)
{
    (void)state;
    expect_problem("{\"title\": \"t\",\n \"bogus\": 1}", "s.jsonc:2:11: unknown field \"bogus\"");
    expect_problem(GOOD_HEAD "\"steps\": [{\"fly\": 1}]}", "unknown step kind");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"ping\", \"assert\": [{\"path\": \"r\", "
                             "\"frobs\": 1}]}]}",
                   "unknown field \"frobs\" in an assertion");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"ping\", \"assert\": [{\"path\": \"r\"}]}]}",
                   "exactly one matcher");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"u\": \"${nope}\"}}]}",
                   "variable \"nope\" is used before it is captured");
    /* ${initialize} is the runner's handshake: none when the scenario does
     * the lifecycle itself. */
    expect_problem(GOOD_HEAD "\"client\": {\"initialize\": false}, \"steps\": [{\"value\": "
                             "\"${initialize}\", \"assert\": []}]}",
                   "${initialize} is the result of the runner's handshake");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"check\": \"area/undeclared\"}]}",
                   "check \"area/undeclared\" is not declared");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"assert\": [{\"path\": \"a..b\", "
                             "\"present\": true}]}]}",
                   "malformed path");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"assert\": [{\"path\": \"a\", "
                             "\"matches\": \"(\"}]}]}",
                   "not a valid regular expression");
    expect_problem("{\"title\": \"t\", \"spec\": [{\"check\": \"Bad Id\", \"level\": \"SHALL\", "
                   "\"ref\": \"server/resources\", \"text\": \"x\"}], \"steps\": [{\"sleep\": 1}]}",
                   "\"level\": MUST, SHOULD, MAY or INFO");
    expect_problem(GOOD_HEAD "\"versions\": \"latest\", \"steps\": [{\"sleep\": 1}]}",
                   "\"versions\" must be");
    /* The level at a version: its ref's where it gives one (the nearest earlier ref). */
    {
        mc_check_def_t d;
        memset(&d, 0, sizeof(d));
        d.level = MC_LEVEL_MUST;
        d.refs[0] = (mc_check_ref_t){"2025-03-26", "basic", NULL, 1, MC_LEVEL_SHOULD};
        d.refs[1] = (mc_check_ref_t){"2025-06-18", "basic", NULL, 0, MC_LEVEL_MUST};
        assert_int_equal(mc_check_level_for(&d, "2024-11-05"), MC_LEVEL_SHOULD);
        assert_int_equal(mc_check_level_for(&d, "2025-03-26"), MC_LEVEL_SHOULD);
        assert_int_equal(mc_check_level_for(&d, "2025-06-18"), MC_LEVEL_MUST);
        assert_int_equal(mc_check_level_for(&d, "2026-07-28"), MC_LEVEL_MUST);
        /* A verdict quotes the page of its own version: only a named one stands. */
        assert_non_null(mc_check_ref_at(&d, "2025-06-18"));
        assert_null(mc_check_ref_at(&d, "2024-11-05"));
        assert_null(mc_check_ref_at(&d, "2026-07-28"));
        assert_true(mc_check_stands_at(&d, "2025-03-26"));
        assert_false(mc_check_stands_at(&d, "2024-11-05"));
        assert_false(mc_check_stands_at(&d, "2025-11-25"));
        /* An author's check and a legacy entry are held to no page. */
        d.author = 1;
        assert_true(mc_check_stands_at(&d, "2024-11-05"));
        d.author = 0;
        d.legacy = 1;
        assert_true(mc_check_stands_at(&d, "2024-11-05"));
    }
    /* A per-version level must be the keyword of that version's wording. */
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"Both "
                             "parties MUST do it.\", \"refs\": {\"2025-03-26\": \"basic\", "
                             "\"2025-06-18\": \"basic\"}, \"levels\": {\"2025-03-26\": \"SHOULD\"}}"),
                   "level SHOULD does not match the quote");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"MUST\", \"quote\": \"Both "
                             "parties MUST do it.\", \"refs\": {\"2025-06-18\": \"basic\"}, "
                             "\"levels\": {\"2025-03-26\": \"SHOULD\"}}"),
                   "that version is not in \"refs\"");
    /* Versions and features are held to core's version table. */
    expect_problem(GOOD_HEAD "\"versions\": \"2025-01-01..\", \"steps\": [{\"sleep\": 1}]}",
                   "\"versions\" must be");
    expect_problem(GOOD_HEAD "\"versions\": [\"2025-06-18\", 7], \"steps\": [{\"sleep\": 1}]}",
                   "s.jsonc:1:");
    expect_problem(GOOD_HEAD "\"versions\": \"2025-11-25..2025-03-26\", \"steps\": "
                             "[{\"sleep\": 1}]}",
                   "\"versions\" must be");
    expect_problem(GOOD_HEAD "\"requires\": {\"features\": [\"telepathy\"]}, \"steps\": "
                             "[{\"sleep\": 1}]}",
                   "\"telepathy\" is not a protocol feature");
    expect_problem(GOOD_HEAD "\"steps\": [{\"await\": \"nothing\"}]}",
                   "which no earlier async request defines");
    /* Members typed when the file loads are held to their types. */
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"expect\": {\"error\": [1, "
                             "\"2\"]}}]}",
                   "needs an integer code or an array of codes");
    expect_problem(GOOD_HEAD "\"steps\": [{\"http\": \"GET\", \"status\": \"200\"}]}",
                   "\"status\" in an http step must be a status code or a list of them");
    expect_problem(GOOD_HEAD "\"steps\": [{\"http\": \"GET\", \"content_type\": [1]}]}",
                   "\"content_type\" in an http step must be a Content-Type prefix");
    expect_problem(GOOD_HEAD "\"steps\": [{\"http\": \"GET\", \"session\": \"old\"}]}",
                   "\"session\" in an http step must be \"current\", \"none\" or \"unknown\"");
    expect_problem(GOOD_HEAD "\"steps\": [{\"http\": \"GET\", \"events\": \"2\"}]}",
                   "\"events\" in an http step must be a int");
    /* The raw line as the loader read it (strict JSON): what it sends, and
     * whether it is a batch. */
    expect_problem(GOOD_HEAD "\"steps\": [{\"raw\": \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":"
                             "\\\"notifications/roots/list_changed\\\"}\"}]}",
                   "without declaring client.capabilities.roots.listChanged");
    expect_problem(GOOD_HEAD "\"steps\": [{\"raw\": \"[{'id': 1}]\", \"expect\": \"batch\"}]}",
                   "needs a raw line holding a non-empty JSON array");
    expect_problem("{\"title\": ", "s.jsonc:1:");
}

/* The replaced forms and a for_each's condition. */
/* An expect step's "interval": an object with an integer "min" in range and
 * a declared check; the step typed with its members. */
static void test_lint_interval(void **state)
{
    mc_scenario_t sc;
    char *problems = NULL;
    const mc_step_expect_msg_t *e;

    (void)state;
    expect_problem(GOOD_HEAD "\"steps\": [{\"expect_request\": \"ping\", \"interval\": 300}]}",
                   "\"interval\" must be an object");
    expect_problem(GOOD_HEAD "\"steps\": [{\"expect_request\": \"ping\", \"interval\": "
                             "{\"min\": 60001}}]}",
                   "\"interval.min\" must be an integer from 0 to 60000");
    expect_problem(GOOD_HEAD "\"steps\": [{\"expect_notification\": \"notifications/progress\", "
                             "\"interval\": {\"check\": \"area/x/y\"}}]}",
                   "\"interval.min\" must be an integer");
    expect_problem(GOOD_HEAD "\"steps\": [{\"expect_request\": \"ping\", \"interval\": "
                             "{\"min\": 5, \"check\": \"area/undeclared\"}}]}",
                   "check \"area/undeclared\" is not declared");
    expect_problem(GOOD_HEAD "\"steps\": [{\"expect_request\": \"ping\", \"interval\": "
                             "{\"min\": 5, \"max\": 9}}]}",
                   "unknown field \"max\" in \"interval\"");
    if (lint(GOOD_HEAD "\"versions\": \"2025-11-25\", \"steps\": [{\"expect_request\": "
                       "\"ping\", \"interval\": {\"min\": 300, \"check\": \"area/x/y\"}}]}",
             &problems, &sc) != MC_OK)
        fail_msg("problems: %s", problems != NULL ? problems : "(none)");
    assert_null(problems);
    e = &sc.step_v[0].u.expect_request;
    assert_true(e->has_interval);
    assert_int_equal(e->interval_min_ms, 300);
    assert_string_equal(e->interval_check, "area/x/y");
    mc_scenario_free(&sc);
}

static void test_lint_forms(void **state)
{
    (void)state;
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"a\": "
                             "{\"$without\": \"n\"}}}]}",
                   "\"$without\" goes beside \"$arguments\" only");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"a\": "
                             "{\"$arguments\": [], \"$without\": 3}}}]}",
                   "\"$without\" must be an argument name or an array of names");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"a\": "
                             "{\"$arguments\": [], \"extra\": 1}}}]}",
                   "takes no other member than \"$without\"");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"a\": "
                             "{\"$instance\": {}, \"$without\": \"n\"}}}]}",
                   "{\"$instance\": SCHEMA} takes no other member");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"name\": "
                             "{\"$swapcase\": 3}}}]}",
                   "{\"$swapcase\": STRING} takes a string and no other member");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"params\": {\"name\": "
                             "{\"$swapcase\": \"a\", \"b\": 1}}}]}",
                   "{\"$swapcase\": STRING} takes a string and no other member");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"capture\": {\"c\": "
                             "\"result\"}}, {\"for_each\": \"${c}\", \"as\": \"i\", \"when\": "
                             "{\"value\": \"${c}\"}, \"steps\": [{\"sleep\": 1}]}]}",
                   "\"when\" must be {\"value\": ..., \"assert\": [...]}");
    expect_problem(GOOD_HEAD "\"steps\": [{\"request\": \"x\", \"capture\": {\"c\": "
                             "\"result\"}}, {\"for_each\": \"${c}\", \"as\": \"i\", \"when\": "
                             "{\"value\": \"${nope}\", \"assert\": []}, \"steps\": "
                             "[{\"sleep\": 1}]}]}",
                   "variable \"nope\" is used before it is captured");
}

static void test_paths(void **state)
{
    json_object *m = J("{\"result\": {\"items\": [{\"uri\": \"a\"}, {\"uri\": \"b\"}, {}],"
                       "\"odd.key\": 7}}");
    int found;

    (void)state;
    assert_string_equal(json_object_get_string(mc_path_get(m, "result.items[1].uri", &found)),
                        "b");
    assert_true(found);
    assert_null(mc_path_get(m, "result.items[5].uri", &found));
    assert_false(found);
    assert_int_equal(json_object_get_int(mc_path_get(m, "result[\"odd.key\"]", &found)), 7);
    assert_int_equal(mc_path_check("result.items[*].uri"), 0);
    assert_int_equal(mc_path_check("result..x"), -1);
    assert_int_equal(mc_path_check("result[x]"), -1);
    assert_int_equal(mc_path_check(""), 0);
    json_object_put(m);
}

static void test_vars_expand(void **state)
{
    mc_vars_t v;
    json_object *r = J("{\"uri\": \"test://x\", \"n\": 3}"), *out = NULL;
    json_object *tmpl = J("{\"a\": \"${r}\", \"b\": \"uri=${r.uri} n=${r.n}\", \"c\": [\"${r.n}\"],"
                          "\"d\": \"${role:tool.y}\", \"e\": 5}");
    json_object *role = json_object_new_string("tool_y");
    mc_errbuf_t eb;

    (void)state;
    mc_vars_init(&v);
    assert_int_equal(mc_vars_set(&v, "r", r), MC_OK);
    assert_int_equal(mc_vars_set(&v, "role:tool.y", role), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_vars_expand(&v, tmpl, &out, &eb), MC_OK);
    assert_true(json_object_equal(json_object_object_get(out, "a"), r));
    assert_string_equal(json_object_get_string(json_object_object_get(out, "b")),
                        "uri=test://x n=3");
    assert_int_equal(json_object_get_int(json_object_array_get_idx(json_object_object_get(out, "c"), 0)), 3);
    assert_string_equal(json_object_get_string(json_object_object_get(out, "d")), "tool_y");
    json_object_put(out);
    json_object_put(tmpl);

    tmpl = json_object_new_string("${missing}");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_vars_expand(&v, tmpl, &out, &eb), MC_ENOTFOUND);
    assert_non_null(strstr(eb.msg, "missing"));
    json_object_put(tmpl);
    tmpl = json_object_new_string("${role:absent}");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_vars_expand(&v, tmpl, &out, &eb), MC_ENOTFOUND);
    assert_non_null(strstr(eb.msg, "no role \"absent\""));
    json_object_put(tmpl);
    json_object_put(r);
    json_object_put(role);
    mc_vars_free(&v);
}

static int holds(const char *assertion, const char *msg)
{
    json_object *a = J(assertion), *m = J(msg);
    mc_match_t r;
    int rc = mc_assert_eval(a, m, &r);

    assert_int_equal(rc, 0);
    json_object_put(a);
    json_object_put(m);
    return r.pass;
}

static void test_matchers(void **state)
{
    const char *msg = "{\"result\": {\"s\": \"héllo\", \"n\": 2, \"d\": 2.5, \"list\": [{\"t\": \"a\", "
                      "\"k\": 1}, {\"t\": \"b\"}], \"b64\": \"aGk=\", \"bad64\": \"aGk\", "
                      "\"uri\": \"test://x/y\", \"empty\": []}}";

    (void)state;
    assert_true(holds("{\"path\": \"result.n\", \"equals\": 2.0}", msg));
    assert_false(holds("{\"path\": \"result.n\", \"equals\": 3}", msg));
    assert_true(holds("{\"path\": \"result.n\", \"not_equals\": 3}", msg));
    assert_true(holds("{\"path\": \"result.n\", \"type\": \"integer\"}", msg));
    assert_false(holds("{\"path\": \"result.d\", \"type\": \"integer\"}", msg));
    assert_true(holds("{\"path\": \"result.d\", \"type\": \"number\"}", msg));
    assert_true(holds("{\"path\": \"result.s\", \"matches\": \"^h.llo$\"}", msg));
    assert_true(holds("{\"path\": \"result.s\", \"length\": 5}", msg)); /* code points */
    assert_true(holds("{\"path\": \"result.list\", \"length\": {\"min\": 1, \"max\": 2}}", msg));
    assert_false(holds("{\"path\": \"result.list\", \"length\": {\"min\": 3}}", msg));
    assert_true(holds("{\"path\": \"result.d\", \"range\": {\"min\": 0, \"max\": 3}}", msg));
    assert_false(holds("{\"path\": \"result.d\", \"range\": {\"max\": 1}}", msg));
    assert_true(holds("{\"path\": \"result.list\", \"contains\": {\"t\": \"b\"}}", msg));
    assert_false(holds("{\"path\": \"result.list\", \"contains\": {\"t\": \"c\"}}", msg));
    assert_true(holds("{\"path\": \"result.s\", \"contains\": \"ll\"}", msg));
    assert_true(holds("{\"path\": \"result\", \"contains\": {\"n\": 2}}", msg));
    assert_true(holds("{\"path\": \"result.b64\", \"base64\": true}", msg));
    assert_false(holds("{\"path\": \"result.bad64\", \"base64\": true}", msg));
    assert_true(holds("{\"path\": \"result.uri\", \"uri\": true}", msg));
    assert_false(holds("{\"path\": \"result.s\", \"uri\": true}", msg));
    assert_true(holds("{\"path\": \"result.n\", \"one_of\": [1, 2]}", msg));
    assert_true(holds("{\"path\": \"result.list[*].t\", \"present\": true}", msg));
    assert_false(holds("{\"path\": \"result.list[*].k\", \"present\": true}", msg));
    assert_true(holds("{\"path\": \"result.nope\", \"absent\": true}", msg));
    assert_true(holds("{\"path\": \"result.empty[*].x\", \"equals\": 1}", msg)); /* vacuous */
    assert_false(holds("{\"path\": \"result.nope\", \"equals\": 1}", msg));
    /* Object members: [*] and .* visit every member. */
    assert_true(holds("{\"path\": \"result.list[0].*\", \"type\": \"string\"}",
                      "{\"result\": {\"list\": [{\"a\": \"x\", \"b\": \"y\"}]}}"));
    assert_false(holds("{\"path\": \"result[*].type\", \"one_of\": [\"string\", \"number\"]}",
                       "{\"result\": {\"p\": {\"type\": \"string\"}, \"q\": {\"type\": \"object\"}}}"));
    /* optional: a missing value holds, a present one is judged. */
    assert_true(holds("{\"path\": \"result.nope\", \"type\": \"string\", \"optional\": true}", msg));
    assert_false(holds("{\"path\": \"result.n\", \"type\": \"string\", \"optional\": true}", msg));
    assert_true(holds("{\"path\": \"result.nope\", \"not_equals\": \"form\"}", msg));
    /* text_json: some text block's text is the value serialized (any spelling). */
    {
        const char *tm = "{\"result\": {\"content\": [{\"type\": \"image\", \"data\": \"x\"}, "
                         "{\"type\": \"text\", \"text\": \"not json\"}, {\"type\": \"text\", "
                         "\"text\": \"{ \\\"b\\\": [1, 2.0], \\\"a\\\": 1e0 }\"}]}}";
        assert_true(holds("{\"path\": \"result.content\", \"text_json\": {\"a\": 1, "
                          "\"b\": [1, 2]}}",
                          tm));
        assert_false(holds("{\"path\": \"result.content\", \"text_json\": {\"a\": 2, "
                           "\"b\": [1, 2]}}",
                           tm));
        /* Not an array of blocks, or the JSON only in a block that is no text. */
        assert_false(holds("{\"path\": \"result\", \"text_json\": {\"a\": 1}}", tm));
        assert_false(holds("{\"path\": \"result.content\", \"text_json\": \"x\"}",
                           "{\"result\": {\"content\": [{\"type\": \"blob\", \"text\": "
                           "\"\\\"x\\\"\"}]}}"));
    }
    assert_true(mc_is_base64("", 0));
    assert_false(mc_is_base64("a=bc", 4));
    assert_false(mc_is_base64("ab==c===", 8));
}

static void test_match_evidence(void **state)
{
    json_object *a = J("{\"path\": \"result.list[*].t\", \"equals\": \"a\"}");
    json_object *m = J("{\"result\": {\"list\": [{\"t\": \"a\"}, {\"t\": \"zz\"}]}}");
    mc_match_t r;

    (void)state;
    assert_int_equal(mc_assert_eval(a, m, &r), 0);
    assert_false(r.pass);
    assert_string_equal(r.where, "result.list[1].t");
    assert_string_equal(r.expected, "\"a\"");
    assert_string_equal(r.actual, "\"zz\"");
    json_object_put(a);
    json_object_put(m);
}

static int setup(void **state)
{
    char p[300];
    (void)state;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(p, sizeof(p), "%s/area", dir);
    return mkdir(p, 0700);
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
        cmocka_unit_test(test_jsonc_positions_and_errors),
        cmocka_unit_test(test_load_valid),
        cmocka_unit_test(test_lint_problems),
        cmocka_unit_test(test_lint_forms),
        cmocka_unit_test(test_lint_interval),
        cmocka_unit_test(test_load_legacy_warns),
        cmocka_unit_test(test_lint_check_entries),
        cmocka_unit_test(test_typed_steps),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_vars_expand),
        cmocka_unit_test(test_matchers),
        cmocka_unit_test(test_match_evidence),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
