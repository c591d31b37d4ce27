/* Unit tests for author's checks and the catalogue of known quotes: the
 * author's form loads as the author's (level, text, link; no refs), the
 * spec's fields are refused in it, and a check that presents a quote must
 * carry one the catalogue holds (normalised as the quote test normalises). */
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

#include "judge/quotes.h"
#include "scenario/scenario.h"

static char dir[] = "/tmp/mc-author-test-XXXXXX";

static int load(const char *text, char **problems, mc_scenario_t *sc)
{
    char path[256];
    mc_errbuf_t eb;
    FILE *f;

    snprintf(path, sizeof(path), "%s/area/s.jsonc", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    mc_errbuf_clear(&eb);
    *problems = NULL;
    return mc_scenario_load(path, dir, sc, problems, &eb);
}

#define ONE_CHECK(entry) "{\"title\": \"t\", \"spec\": [" entry "], \"steps\": [{\"sleep\": 1}]}"
#define AUTHOR_ADD                                                                                 \
    "{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"MUST\", \"text\": \"add "        \
    "returns the sum of a and b\", \"link\": \"https://example.com/calc#add\"}"
#define NOT_KNOWN "not a sentence of the spec pages mcpcheck knows; for your own rule use"

static void expect_problem(const char *text, const char *needle)
{
    mc_scenario_t sc;
    char *problems = NULL;

    assert_int_equal(load(text, &problems, &sc), MC_EINVAL);
    assert_non_null(problems);
    if (strstr(problems, needle) == NULL)
        fail_msg("problems lack \"%s\":\n%s", needle, problems);
    free(problems);
}

static void test_author_loads(void **state)
{
    mc_scenario_t sc;
    char *problems;
    char ref[64];

    (void)state;
    assert_int_equal(load(ONE_CHECK(AUTHOR_ADD), &problems, &sc), MC_OK);
    assert_null(problems);
    assert_null(sc.warnings);
    assert_true(sc.reqs[0].author);
    assert_false(sc.reqs[0].legacy);
    assert_int_equal(sc.reqs[0].level, MC_LEVEL_MUST);
    assert_string_equal(sc.reqs[0].quote, "add returns the sum of a and b");
    assert_string_equal(sc.reqs[0].link, "https://example.com/calc#add");
    assert_null(sc.reqs[0].refs[0].version);
    assert_int_equal(mc_check_ref_string(&sc.reqs[0], "2025-06-18", ref, sizeof(ref)), 0);
    mc_scenario_free(&sc);
}

static void test_author_form_refused(void **state)
{
    (void)state;
    expect_problem(ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"MUST\", "
                             "\"text\": \"add returns the sum\", \"quote\": \"add MUST return the "
                             "sum\", \"refs\": {\"2025-06-18\": \"server/tools#calling-tools\"}}"),
                   "an author's check has no \"quote\"");
    expect_problem(ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"MUST\", "
                             "\"text\": \"add returns the sum\", \"refs\": {}}"),
                   "an author's check has no \"refs\"");
    expect_problem(
        ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"MUST\"}"),
        "an author's check needs \"text\"");
    expect_problem(ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"HIGH\", "
                             "\"text\": \"add returns the sum\"}"),
                   "an author's check needs \"level\": MUST");
    expect_problem(ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": \"yes\", \"level\": "
                             "\"MUST\", \"text\": \"add returns the sum\"}"),
                   "\"author\" must be true");
    expect_problem(ONE_CHECK("{\"check\": \"calc/add/sum\", \"author\": true, \"level\": \"MUST\", "
                             "\"text\": \"add returns the sum\", \"link\": \"javascript:x\"}"),
                   "\"link\" must be an http:// or https:// URL");
    expect_problem(ONE_CHECK("{\"check\": \"wire/utf8\", \"author\": true, \"level\": \"MUST\", "
                             "\"text\": \"my own utf8 rule\"}"),
                   "\"wire/utf8\" is a built-in check of the spec");
    expect_problem(ONE_CHECK("{\"check\": \"a/b\", \"level\": \"INFO\", \"quote\": \"Messages are "
                             "delimited by newlines\", \"refs\": {\"2025-06-18\": "
                             "\"basic/transports#stdio\"}, \"link\": \"https://x.example\"}"),
                   "\"link\" belongs to an author's check");
}

static void test_normalise(void **state)
{
    char out[256];

    (void)state;
    mc_quote_normalise("  Servers **MUST**\n answer `ping` with\tthe [thing](https://x/y)"
                       " ![img](a.png) asked __for__. ",
                       out, sizeof(out));
    assert_string_equal(out, "Servers MUST answer ping with the thing img asked for.");
    mc_quote_normalise("a [b] (c) [d", out, sizeof(out));
    assert_string_equal(out, "a [b] (c) [d");
    assert_int_equal(mc_quote_normalise("abcdef", out, 4), 3);
    assert_string_equal(out, "abc");
}

static void test_catalogue(void **state)
{
    mc_quotes_t q;

    (void)state;
    memset(&q, 0, sizeof(q));
    assert_int_equal(mc_quotes_add_builtin(&q), MC_OK);
    assert_int_equal(mc_quotes_add(&q, "Servers MUST answer: … every **request**"), MC_OK);
    assert_int_equal(mc_quotes_add(&q, "Servers MUST answer: … every request"), MC_OK);
    mc_quotes_seal(&q);
    assert_true(mc_quotes_known(&q, "JSON-RPC messages MUST be UTF-8 encoded."));
    assert_true(mc_quotes_known(&q, "JSON-RPC  messages MUST be\nUTF-8 encoded. "));
    assert_true(mc_quotes_known(&q, "Servers MUST answer: … every `request`"));
    assert_false(mc_quotes_known(&q, "Servers MUST answer: … every"));
    assert_false(mc_quotes_known(&q, "JSON-RPC messages MUST be UTF-8 encoded"));
    assert_false(mc_quotes_known(&q, "add MUST return the sum of a and b"));
    mc_quotes_free(&q);
}

static void test_check_quotes(void **state)
{
    mc_scenario_t sc;
    mc_quotes_t q;
    char *problems;

    (void)state;
    memset(&q, 0, sizeof(q));
    assert_int_equal(mc_quotes_add_builtin(&q), MC_OK);
    mc_quotes_seal(&q);
    /* A known quote, and an author's rule, pass. */
    assert_int_equal(
        load(ONE_CHECK("{\"check\": \"a/utf8\", \"level\": \"MUST\", \"quote\": \"JSON-RPC "
                       "messages MUST be UTF-8 encoded.\", \"refs\": {\"2025-06-18\": "
                       "\"basic/transports#stdio\"}}, " AUTHOR_ADD),
             &problems, &sc),
        MC_OK);
    assert_int_equal(mc_scenario_check_quotes(&sc, &q, &problems), 0);
    assert_null(problems);
    mc_scenario_free(&sc);
    /* A made-up quote, and a made-up wording at one version, are refused
     * where they stand. */
    assert_int_equal(
        load(ONE_CHECK(
                 "{\"check\": \"calc/add/sum\", \"level\": \"MUST\",\n\"quote\": \"add MUST "
                 "return the sum of a and b\", \"refs\": {\"2025-06-18\": "
                 "\"server/tools#calling-tools\"}}, {\"check\": \"a/utf8\", \"level\": "
                 "\"MUST\", \"quote\": \"JSON-RPC messages MUST be UTF-8 encoded.\", \"refs\": "
                 "{\"2025-06-18\": \"basic/transports#stdio\", \"2025-11-25\": "
                 "\"basic/transports#stdio\"}, \"quotes\": {\"2025-11-25\": \"Messages MUST "
                 "be UTF-8.\"}}"),
             &problems, &sc),
        MC_OK);
    assert_int_equal(mc_scenario_check_quotes(&sc, &q, &problems), 2);
    assert_non_null(problems);
    if (strstr(problems, "s.jsonc:2:10: check \"calc/add/sum\": the quote is " NOT_KNOWN) == NULL ||
        strstr(problems, "check \"a/utf8\": quotes[\"2025-11-25\"] is " NOT_KNOWN) == NULL ||
        strstr(problems, "\"author\": true (scenarios/README.md, Testing your own server)") == NULL)
        fail_msg("unexpected problems:\n%s", problems);
    free(problems);
    mc_scenario_free(&sc);
    mc_quotes_free(&q);
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
        cmocka_unit_test(test_author_loads), cmocka_unit_test(test_author_form_refused),
        cmocka_unit_test(test_normalise),    cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_check_quotes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
