/* Unit tests for the check catalogue (scenario/catalogue.h): what loads,
 * what is refused, and how a scenario names, or may not restate, its checks. */
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

#include "scenario/catalogue.h"
#include "scenario/scenario.h"

static char dir[] = "/tmp/mc-catalogue-test-XXXXXX";

#define DEF(id)                                                                                    \
    "{\"check\": \"" id "\", \"level\": \"MUST\", \"quote\": \"Something MUST hold.\", "           \
    "\"refs\": {\"2025-11-25\": \"server/resources#reading-resources\"}, "                         \
    "\"interpretation\": \"Read as written.\"}"

static void write_file(const char *name, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Loads text as the catalogue; returns its code, problems in *problems. */
static int load_cat(const char *text, mc_catalogue_t *cat, char **problems)
{
    char path[256];
    mc_errbuf_t eb;

    write_file(MC_CATALOGUE_FILE, text);
    snprintf(path, sizeof(path), "%s/%s", dir, MC_CATALOGUE_FILE);
    mc_errbuf_clear(&eb);
    return mc_catalogue_load(path, cat, problems, &eb);
}

static void expect_cat_problem(const char *text, const char *needle)
{
    mc_catalogue_t cat;
    char *problems = NULL;

    assert_int_equal(load_cat(text, &cat, &problems), MC_EINVAL);
    assert_non_null(problems);
    if (strstr(problems, needle) == NULL)
        fail_msg("problems lack \"%s\":\n%s", needle, problems);
    free(problems);
}

static void test_load_and_find(void **state)
{
    mc_catalogue_t cat;
    char *problems = NULL;

    (void)state;
    assert_int_equal(load_cat("{\"checks\": [" DEF("b/x/y") ", " DEF("a/x/y") "]}", &cat,
                              &problems),
                     MC_OK);
    assert_null(problems);
    assert_int_equal(cat.n, 2);
    assert_non_null(mc_catalogue_find(&cat, "a/x/y"));
    assert_non_null(mc_catalogue_find(&cat, "b/x/y"));
    assert_null(mc_catalogue_find(&cat, "c/x/y"));
    assert_null(mc_catalogue_find(NULL, "a/x/y"));
    mc_catalogue_free(&cat);
}

static void test_refused(void **state)
{
    (void)state;
    expect_cat_problem("{\"checks\": [" DEF("a/x/y") ", " DEF("a/x/y") "]}",
                       "check \"a/x/y\" is defined twice");
    expect_cat_problem("{\"checks\": [{\"check\": \"a/x/y\", \"level\": \"MUST\"}]}", "quote");
    expect_cat_problem("{\"checks\": [{\"check\": \"a/x/y\", \"author\": true, \"level\": "
                       "\"MUST\", \"text\": \"My rule.\"}]}",
                       "an author's rule belongs to the scenario");
    expect_cat_problem("{\"checks\": {}}", "needs \"checks\"");
    expect_cat_problem("{\"checks\": [], \"extra\": 1}", "extra");
}

/* Loads a scenario of text against cat; returns its code. */
static int load_sc(const mc_catalogue_t *cat, const char *text, mc_scenario_t *sc,
                   char **problems)
{
    char path[256];
    mc_errbuf_t eb;

    write_file("area/s.jsonc", text);
    snprintf(path, sizeof(path), "%s/area/s.jsonc", dir);
    mc_errbuf_clear(&eb);
    *problems = NULL;
    return mc_scenario_load_with(path, dir, cat, sc, problems, &eb);
}

#define SCENARIO(spec)                                                                             \
    "{\"title\": \"t\", \"versions\": \"..2025-11-25\", \"spec\": [" spec "], \"steps\": "            \
    "[{\"request\": \"ping\", \"assert\": "                                                       \
    "[{\"path\": \"result\", \"equals\": {}, \"check\": \"a/x/y\"}]}]}"

static void test_scenario_names_checks(void **state)
{
    mc_catalogue_t cat;
    mc_scenario_t sc;
    char *problems = NULL;
    const mc_requirement_t *q;

    (void)state;
    assert_int_equal(load_cat("{\"checks\": [" DEF("a/x/y") "]}", &cat, &problems), MC_OK);
    /* By id: the definition is the catalogue's. */
    assert_int_equal(load_sc(&cat, SCENARIO("\"a/x/y\""), &sc, &problems), MC_OK);
    q = mc_scenario_requirement(&sc, "a/x/y");
    assert_non_null(q);
    assert_int_equal(q->level, MC_LEVEL_MUST);
    assert_string_equal(q->quote, "Something MUST hold.");
    assert_string_equal(q->interpretation, "Read as written.");
    mc_scenario_free(&sc);
    /* Restated: refused, whatever the definition says. */
    assert_int_equal(load_sc(&cat, SCENARIO(DEF("a/x/y")), &sc, &problems), MC_EINVAL);
    assert_non_null(strstr(problems, "is defined in the catalogue"));
    free(problems);
    /* An id the catalogue lacks. */
    assert_int_equal(load_sc(&cat, SCENARIO("\"a/x/z\""), &sc, &problems), MC_EINVAL);
    assert_non_null(strstr(problems, "\"a/x/z\" is not a check of the catalogue"));
    free(problems);
    /* Without a catalogue an id alone names nothing. */
    assert_int_equal(load_sc(NULL, SCENARIO("\"a/x/y\""), &sc, &problems), MC_EINVAL);
    free(problems);
    mc_catalogue_free(&cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_and_find),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_scenario_names_checks),
    };
    char area[300];
    int rc;

    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(area, sizeof(area), "%s/area", dir);
    mkdir(area, 0700);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(area);
    {
        char p[300];
        snprintf(p, sizeof(p), "%s/area/s.jsonc", dir);
        unlink(p);
        snprintf(p, sizeof(p), "%s/%s", dir, MC_CATALOGUE_FILE);
        unlink(p);
        rmdir(area);
        rmdir(dir);
    }
    return rc;
}
