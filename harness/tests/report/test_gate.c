/*
 * test_gate.c - the gate: --fail-on thresholds, gate files and their
 * rules, the decision beside the spec's verdict in every output, and
 * outcome counts that add up to the runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/report.h"

static void add_check(mc_scenario_result_t *r, const char *id, mc_level_t level, int pass)
{
    mc_check_def_t d;

    memset(&d, 0, sizeof(d));
    d.check = id;
    d.level = level;
    d.quote = "Servers SHOULD answer.";
    d.refs[0].version = "2025-06-18";
    d.refs[0].page = "server/resources#reading";
    assert_int_equal(mc_sresult_check(r, id, &d, pass, pass ? NULL : "it broke", NULL,
                                      pass ? NULL : "got this", NULL, pass ? 0 : 2, 9),
                     MC_OK);
}

/* A scenario run with one check of the given level, broken or not. */
static void run_of(mc_run_result_t *run, const char *id, mc_level_t level, int pass,
                   mc_verdict_t set)
{
    mc_scenario_result_t *r = &run->scenarios[run->n++];

    memset(r, 0, sizeof(*r));
    r->id = strdup(id);
    r->area = strdup("area");
    r->title = strdup("title");
    r->file = strdup("/src/scenarios/area/x.jsonc");
    r->version = strdup("2025-06-18");
    r->checks = calloc(MC_RESULT_MAX_CHECKS, sizeof(*r->checks));
    add_check(r, "wire/utf8", MC_LEVEL_MUST, 1);
    if (level != MC_LEVEL_INFO || !pass)
        add_check(r, id, level, pass);
    mc_sresult_tx(r, 1, 0, 1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 40);
    mc_sresult_tx(r, 2, 1, 0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 36);
    if (set != MC_PASS)
        mc_sresult_set(r, set, "the reason");
    mc_sresult_finish(r);
}

/* Seven runs: PASS, FAIL (MUST), WARN (SHOULD), INFO (MAY), SKIP,
 * NOT-VERIFIED, ERROR. */
static void seven(mc_report_t *rep, mc_fail_on_t fail_on)
{
    mc_run_result_t run;

    memset(&run, 0, sizeof(run));
    run.scenarios = calloc(8, sizeof(*run.scenarios));
    run_of(&run, "a/pass", MC_LEVEL_MUST, 1, MC_PASS);
    run_of(&run, "a/must", MC_LEVEL_MUST, 0, MC_PASS);
    run_of(&run, "a/should", MC_LEVEL_SHOULD, 0, MC_PASS);
    run_of(&run, "a/may", MC_LEVEL_MAY, 0, MC_PASS);
    run_of(&run, "a/skip", MC_LEVEL_MUST, 1, MC_SKIP);
    run_of(&run, "a/nv", MC_LEVEL_MUST, 1, MC_NOT_VERIFIED);
    run_of(&run, "a/error", MC_LEVEL_MUST, 1, MC_ERROR);
    run.fail_on = fail_on;
    assert_int_equal(mc_report_init(rep, &run, "/src"), MC_OK);
}

static size_t sum_outcomes(const mc_report_t *rep)
{
    size_t o, sum = 0;

    for (o = 0; o < MC_OUTCOME_COUNT; o++)
        sum += rep->outcomes[o];
    return sum;
}

/* Writes text to a fresh temporary file; returns its path (static). */
static const char *gate_file(const char *text)
{
    static char path[64];
    FILE *f;
    int fd;

    snprintf(path, sizeof(path), "/tmp/mc-gate-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_fail_on_thresholds(void **state)
{
    mc_report_t rep;
    mc_fail_on_t f;

    (void)state;
    seven(&rep, MC_FAIL_ON_FAIL);
    assert_int_equal(rep.outcomes[MC_OUT_PASS], 1);
    assert_int_equal(rep.outcomes[MC_OUT_FAIL], 1);
    assert_int_equal(rep.outcomes[MC_OUT_WARN], 1);
    assert_int_equal(rep.outcomes[MC_OUT_INFO], 1);
    assert_int_equal(rep.outcomes[MC_OUT_SKIP], 1);
    assert_int_equal(rep.outcomes[MC_OUT_NOT_VERIFIED], 1);
    assert_int_equal(rep.outcomes[MC_OUT_ERROR], 1);
    assert_int_equal(rep.n_gated, 0);
    assert_int_equal(sum_outcomes(&rep), rep.run.n);
    assert_int_equal(mc_report_exit_code(&rep), 1);
    mc_report_free(&rep);

    /* warn: the WARN run fails, counted once, as failed by the gate. */
    seven(&rep, MC_FAIL_ON_WARN);
    assert_int_equal(rep.outcomes[MC_OUT_FAIL], 2);
    assert_int_equal(rep.outcomes[MC_OUT_WARN], 0);
    assert_int_equal(rep.outcomes[MC_OUT_INFO], 1);
    assert_int_equal(rep.n_gated, 1);
    assert_int_equal(sum_outcomes(&rep), rep.run.n);
    mc_report_free(&rep);

    seven(&rep, MC_FAIL_ON_INFO);
    assert_int_equal(rep.outcomes[MC_OUT_FAIL], 3);
    assert_int_equal(rep.outcomes[MC_OUT_INFO], 0);
    assert_int_equal(rep.n_gated, 2);
    assert_int_equal(sum_outcomes(&rep), rep.run.n);
    mc_report_free(&rep);

    assert_int_equal(mc_fail_on_parse("warn", &f), 0);
    assert_int_equal(f, MC_FAIL_ON_WARN);
    assert_int_equal(mc_fail_on_parse("WARN", &f), -1);
    assert_string_equal(mc_fail_on_name(MC_FAIL_ON_INFO), "info");
}

static void test_gate_load(void **state)
{
    mc_gate_t g;
    mc_errbuf_t eb;
    const char *p;

    (void)state;
    p = gate_file("{\n  // ours\n  \"mcpcheck_gate\": 1, \"fail_on\": \"warn\",\n"
                  "  \"rules\": [\n"
                  "    {\"check\": \"a/may\", \"outcome\": \"fail\", \"reason\": \"we promise\"},\n"
                  "    {\"check\": \"a/*\", \"outcome\": \"ignore\", \"reason\": \"not ours\"},\n"
                  "    {\"check\": \"a/m*\", \"outcome\": \"warn\", \"reason\": \"later glob\"},\n"
                  "  ]\n}\n");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_OK);
    unlink(p);
    assert_int_equal(g.n, 3);
    assert_true(g.has_fail_on);
    assert_int_equal(g.fail_on, MC_FAIL_ON_WARN);
    assert_int_equal(g.v[0].line, 5);
    /* The exact id wins; then the first glob that matches. */
    assert_string_equal(mc_gate_rule_for(&g, "a/may")->reason, "we promise");
    assert_string_equal(mc_gate_rule_for(&g, "a/must")->reason, "not ours");
    assert_null(mc_gate_rule_for(&g, "b/must"));
    assert_null(mc_gate_rule_for(NULL, "a/may"));
    mc_gate_free(&g);

    /* Each mistake is named with its line and column. */
    p = gate_file("{\"rules\": [\n {\"check\": \"a/x\", \"outcome\": \"fail\"}\n]}\n");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, ":2:2: \"reason\" is missing or empty"));
    mc_errbuf_clear(&eb);
    p = gate_file("{\"rules\": [{\"check\": \"a/x\", \"outcome\": \"skip\", \"reason\": \"r\"}]}");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, "\"outcome\" is missing or not one of"));
    mc_errbuf_clear(&eb);
    p = gate_file("{\"rules\": [{\"check\": \"a x\", \"outcome\": \"fail\", \"reason\": \"r\"}]}");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, "\"check\""));
    mc_errbuf_clear(&eb);
    p = gate_file("{\"rules\": [], \"fail_on\": \"never\"}");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, "\"fail_on\" is one of"));
    mc_errbuf_clear(&eb);
    p = gate_file("{\"rules\": [{\"check\": \"a/x\", \"outcome\": \"fail\", \"reason\": \"r\"},"
                  "{\"check\": \"a/x\", \"outcome\": \"warn\", \"reason\": \"r\"}]}");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, "has a rule already"));
    mc_errbuf_clear(&eb);
    p = gate_file("{\"rulez\": []}");
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_EINVAL);
    unlink(p);
    assert_non_null(strstr(eb.msg, "unknown field \"rulez\""));
}

/* A rule per outcome: the MAY failed by the gate, the MUST made a warning,
 * the SHOULD ignored; the levels and verdicts stay the spec's. */
static void gated_report(mc_report_t *rep)
{
    mc_gate_t g;
    mc_errbuf_t eb;
    const char *p = gate_file(
        "{\"rules\": ["
        "{\"check\": \"a/may\", \"outcome\": \"fail\", \"reason\": \"we promise exact URIs\"},"
        "{\"check\": \"a/must\", \"outcome\": \"warn\", \"reason\": \"upstream bug 12\"},"
        "{\"check\": \"a/sh*\", \"outcome\": \"ignore\", \"reason\": \"rate limits differ\"}]}");

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_gate_load(p, &g, &eb), MC_OK);
    unlink(p);
    seven(rep, MC_FAIL_ON_FAIL);
    assert_int_equal(mc_report_apply_gate(rep, &g), MC_OK);
    mc_gate_free(&g);
}

static void test_gate_outcomes(void **state)
{
    mc_report_t rep;
    const mc_check_result_t *may;
    char words[256];

    (void)state;
    gated_report(&rep);
    may = &rep.run.scenarios[3].checks[1];
    assert_int_equal(may->verdict, MC_INFO);
    assert_int_equal(may->level, MC_LEVEL_MAY);
    assert_int_equal(may->gate, MC_GATE_FAIL);
    assert_true(mc_check_fails(may, MC_FAIL_ON_FAIL));
    assert_false(mc_check_fails(&rep.run.scenarios[1].checks[1], MC_FAIL_ON_FAIL));
    assert_true(mc_check_fails(&rep.run.scenarios[1].checks[1], MC_FAIL_ON_WARN));
    assert_false(mc_check_fails(&rep.run.scenarios[2].checks[1], MC_FAIL_ON_INFO));
    assert_int_equal(rep.run.scenarios[1].verdict, MC_FAIL);

    assert_int_equal(rep.outcomes[MC_OUT_FAIL], 1); /* the MAY */
    assert_int_equal(rep.n_gated, 1);
    assert_int_equal(rep.outcomes[MC_OUT_WARN], 1);    /* the MUST, by the rule */
    assert_int_equal(rep.outcomes[MC_OUT_IGNORED], 1); /* the SHOULD */
    assert_int_equal(rep.outcomes[MC_OUT_INFO], 0);
    assert_int_equal(sum_outcomes(&rep), rep.run.n);
    assert_int_equal(mc_report_exit_code(&rep), 1);

    mc_report_gate_words(may, rep.run.fail_on, words, sizeof(words));
    assert_string_equal(words, "failed by your gate: we promise exact URIs");
    mc_report_gate_words(&rep.run.scenarios[2].checks[1], rep.run.fail_on, words, sizeof(words));
    assert_string_equal(words, "ignored by your gate: rate limits differ");
    mc_report_gate_words(&rep.run.scenarios[0].checks[1], rep.run.fail_on, words, sizeof(words));
    assert_string_equal(words, "");

    mc_report_counts_text(&rep, words, sizeof(words));
    assert_string_equal(words, "1 passed, 1 failed (1 by your gate), 1 errors, 1 warnings, "
                               "1 ignored, 1 skipped, 1 not verified (7 runs)");
    mc_report_free(&rep);
}

static void test_gate_in_outputs(void **state)
{
    mc_report_t rep, back;
    mc_errbuf_t eb;
    char *x = NULL, dir[] = "/tmp/mc-gate-out-XXXXXX", path[128], buf[8192];
    size_t len = 0;
    json_object *doc, *sum, *oc, *v;

    (void)state;
    gated_report(&rep);
    /* Console: the cause with its decision beside the spec's verdict. */
    mc_report_console_causes(&rep, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "INFO in the spec; failed by your gate: we promise exact URIs"));
    assert_non_null(strstr(buf, "FAIL in the spec; a warning by your gate: upstream bug 12"));
    assert_non_null(strstr(buf, "at scenarios/area/x.jsonc:9 [2025-06-18]"));
    mc_report_console_result(&rep.run.scenarios[3], NULL, rep.run.fail_on, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "INFO in the spec; failed by your gate: we promise exact URIs"));

    assert_int_equal(mc_report_junit(&rep, &x, &len), MC_OK);
    assert_non_null(strstr(x, "[INFO in the spec; failed by your gate: we promise exact URIs]"));
    assert_non_null(strstr(x, "<failure type=\"INFO\""));
    assert_non_null(strstr(x, "<property name=\"count.failed\" value=\"1\"/>"));
    assert_non_null(strstr(x, "<property name=\"count.ignored\" value=\"1\"/>"));
    assert_non_null(strstr(x, "<property name=\"runs\" value=\"7\"/>"));
    free(x);
    assert_int_equal(mc_report_html(&rep, &x, &len), MC_OK);
    assert_non_null(strstr(x, "INFO in the spec; failed by your gate: we promise exact URIs"));
    assert_non_null(strstr(x, "data-outcome=\"failed\"><b>1</b>"));
    assert_non_null(strstr(x, "data-outcome=\"ignored\"><b>1</b>"));
    assert_non_null(strstr(x, "FAILED BY YOUR GATE"));
    free(x);
    assert_int_equal(mc_report_sarif(&rep, &x, &len), MC_OK);
    assert_non_null(strstr(x, "\"gateDecision\": \"failed by your gate: we promise exact URIs\"") ||
                    strstr(x, "\"gateDecision\":\"failed by your gate: we promise exact URIs\""));
    free(x);

    /* report.json keeps the rule and the counts, and reads back the same. */
    doc = mc_report_json(&rep);
    assert_true(json_object_object_get_ex(doc, "summary", &sum));
    assert_true(json_object_object_get_ex(sum, "outcomes", &oc));
    assert_true(json_object_object_get_ex(oc, "failed_by_gate", &v));
    assert_int_equal(json_object_get_int(v), 1);
    assert_true(json_object_object_get_ex(oc, "runs", &v));
    assert_int_equal(json_object_get_int(v), 7);
    json_object_put(doc);
    assert_non_null(mkdtemp(dir));
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_report_write_json(&rep, dir, &eb), MC_OK);
    snprintf(path, sizeof(path), "%s/report.json", dir);
    assert_int_equal(mc_report_load(path, &back, &eb), MC_OK);
    unlink(path);
    rmdir(dir);
    assert_int_equal(back.run.scenarios[3].checks[1].gate, MC_GATE_FAIL);
    assert_string_equal(back.run.scenarios[3].checks[1].gate_reason, "we promise exact URIs");
    assert_memory_equal(back.outcomes, rep.outcomes, sizeof(rep.outcomes));
    assert_int_equal(back.n_gated, rep.n_gated);
    assert_int_equal(mc_report_exit_code(&back), mc_report_exit_code(&rep));
    mc_report_free(&back);
    mc_report_free(&rep);
}

/* A baseline lists what fails by the gate: a WARN failed by --fail-on warn
 * is known, and counted once, as known. */
static void test_gate_and_baseline(void **state)
{
    mc_report_t rep;
    mc_baseline_t b;
    mc_errbuf_t eb;
    const char *p = gate_file("{\"mcpcheck_baseline\": 1, \"known\": ["
                              "{\"id\": \"a/should:a/should\", \"reason\": \"tracked\"}]}");

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_OK);
    unlink(p);
    seven(&rep, MC_FAIL_ON_WARN);
    assert_int_equal(mc_report_apply_baseline(&rep, &b), MC_OK);
    assert_int_equal(rep.outcomes[MC_OUT_KNOWN], 1);
    assert_int_equal(rep.outcomes[MC_OUT_FAIL], 1);
    assert_int_equal(rep.n_gated, 0);
    assert_int_equal(sum_outcomes(&rep), rep.run.n);
    mc_baseline_free(&b);
    mc_report_free(&rep);
}

/* With --fail-on info, a baseline made from the run lists the INFO that
 * fails it, and that entry is confirmed, not stale, when the run repeats. */
static void test_gate_baseline_info(void **state)
{
    mc_report_t rep;
    mc_baseline_t b;
    mc_errbuf_t eb;
    char *text = NULL, path[] = "/tmp/mc-gate-bl-XXXXXX";
    size_t len = 0;
    FILE *f;
    int fd;

    (void)state;
    seven(&rep, MC_FAIL_ON_INFO);
    assert_int_equal(mc_report_baseline(&rep, &text, &len), MC_OK);
    assert_non_null(strstr(text, "\"a/may:a/may\""));
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(path, &b, &eb), MC_OK);
    unlink(path);
    assert_int_equal(mc_report_apply_baseline(&rep, &b), MC_OK);
    assert_int_equal(rep.n_stale, 0);
    assert_int_equal(rep.outcomes[MC_OUT_KNOWN], 4);
    assert_int_equal(mc_report_exit_code(&rep), 0);
    mc_baseline_free(&b);
    mc_report_free(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_on_thresholds), cmocka_unit_test(test_gate_load),
        cmocka_unit_test(test_gate_outcomes),      cmocka_unit_test(test_gate_in_outputs),
        cmocka_unit_test(test_gate_and_baseline),  cmocka_unit_test(test_gate_baseline_info),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
