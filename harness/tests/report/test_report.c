/* Unit tests for the report writers: escaping of hostile text, baselines
 * (keys, files, known / stale / unexercised), exit codes, JUnit and SARIF
 * structure of a synthetic run, traces, and report.json round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/internal.h"
#include "report/report.h"

/* ---- a synthetic run ------------------------------------------------------------ */

/* The hostile text a target can put in front of the writers. */
static const char hostile[] = "<b>&\"quote'</b> ]]> \x01\x1b[31m \xff\xfe bad \xc3\x28 end";

static void add_check(mc_scenario_result_t *r, const char *id, mc_level_t level, int pass,
                      const char *msg)
{
    mc_check_def_t d;

    memset(&d, 0, sizeof(d));
    d.check = id;
    d.level = level;
    d.quote = "Servers MUST answer.";
    d.interpretation = level == MC_LEVEL_SHOULD ? "our <reading> & more" : NULL;
    d.refs[0].version = "2025-06-18";
    d.refs[0].page = "server/resources#reading";
    d.refs[1].version = "2025-11-25";
    d.refs[1].page = "server/resources#reading-resources";
    assert_int_equal(mc_sresult_check(r, id, &d, pass, msg, pass ? NULL : "x < y",
                                      pass ? NULL : hostile, "result.x", pass ? 0 : 2, 7),
                     MC_OK);
}

static void scenario(mc_run_result_t *run, const char *id, const char *area, const char *version,
                     mc_verdict_t set, int fail_check)
{
    mc_scenario_result_t *r = &run->scenarios[run->n++];
    char file[256];

    memset(r, 0, sizeof(*r));
    r->id = strdup(id);
    r->area = strdup(area);
    r->title = strdup("a title <with> markup & \"quotes\"");
    snprintf(file, sizeof(file), "/src/scenarios/%s.jsonc", id);
    r->file = strdup(file);
    r->version = strdup(version);
    r->checks = calloc(MC_RESULT_MAX_CHECKS, sizeof(*r->checks));
    add_check(r, "wire/utf8", MC_LEVEL_MUST, 1, NULL);
    add_check(r, "area/rule", MC_LEVEL_MUST, !fail_check, "it broke: <here>");
    add_check(r, "area/should", MC_LEVEL_SHOULD, 1, NULL);
    mc_sresult_tx(r, 1, 0, 1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 40);
    mc_sresult_tx(r, 2, 3, 0, hostile, sizeof(hostile) - 1);
    r->stderr_tail = strdup("panic: \x07 <oops> \xff\n");
    r->exit_desc = strdup("exited with status 0");
    r->duration_ms = 12;
    if (set != MC_PASS)
        mc_sresult_set(r, set, "the reason %s", "<why>");
    mc_sresult_finish(r);
}

/* A run of four: a FAIL at two versions, a PASS, an ERROR. */
static void make_report(mc_report_t *rep, int strict)
{
    mc_run_result_t run;

    memset(&run, 0, sizeof(run));
    run.scenarios = calloc(8, sizeof(*run.scenarios));
    scenario(&run, "res/broken", "res", "2025-06-18", MC_PASS, 1);
    scenario(&run, "res/broken", "res", "2025-11-25", MC_PASS, 1);
    scenario(&run, "res/fine", "res", "2025-06-18", MC_PASS, 0);
    scenario(&run, "tools/crash", "tools", "2025-06-18", MC_ERROR, 0);
    run.target = strdup("./server --flag \"x\"");
    run.versions = strdup("2025-06-18,2025-11-25");
    run.profile = strdup("default");
    snprintf(run.started, sizeof(run.started), "2025-01-01T00:00:00Z");
    run.fail_on = strict ? MC_FAIL_ON_WARN : MC_FAIL_ON_FAIL;
    run.duration_ms = 1234;
    assert_int_equal(mc_report_init(rep, &run, "/src"), MC_OK);
}

/* True when s holds no byte XML 1.0 forbids and is valid UTF-8. */
static int xml_clean(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return 0;
    }
    return mc__utf8_valid(s, n);
}

/* ---- escaping --------------------------------------------------------------------- */

static void test_escapers(void **state)
{
    mc__buf_t b;
    json_object *o;

    (void)state;
    mc__buf_init(&b);
    mc__buf_xml(&b, hostile, sizeof(hostile) - 1, 1);
    assert_non_null(strstr(b.p, "&lt;b&gt;&amp;&quot;quote&#39;&lt;/b&gt; ]]&gt; \\u0001\\u001B[31m"));
    assert_non_null(strstr(b.p, "\xEF\xBF\xBD\xEF\xBF\xBD bad \xEF\xBF\xBD( end"));
    assert_true(xml_clean(b.p, b.len));
    mc__buf_free(&b);

    mc__buf_init(&b);
    mc__buf_xml(&b, "a\tb\nc\rd", 7, 1);
    assert_string_equal(b.p, "a&#9;b&#10;c&#13;d");
    mc__buf_free(&b);

    /* Overlong, surrogate and too-large sequences are not UTF-8. */
    assert_false(mc__utf8_valid("\xc0\xaf", 2));
    assert_false(mc__utf8_valid("\xed\xa0\x80", 3));
    assert_false(mc__utf8_valid("\xf4\x90\x80\x80", 4));
    assert_true(mc__utf8_valid("\xe2\x82\xac \xf0\x9f\x98\x80", 8));

    {
        char *c = mc_report_utf8_clean("ok \xff\xc3\x28 \xe2\x82\xac");
        assert_string_equal(c, "ok \xEF\xBF\xBD\xEF\xBF\xBD( \xe2\x82\xac");
        free(c);
    }
    o = mc__json_str(hostile);
    assert_true(mc__utf8_valid(json_object_get_string(o), (size_t)json_object_get_string_len(o)));
    json_object_put(o);

    mc__buf_init(&b);
    mc__buf_uri_path(&b, "scenarios/a b/c#d.jsonc");
    assert_string_equal(b.p, "scenarios/a%20b/c%23d.jsonc");
    mc__buf_free(&b);

    mc__buf_init(&b);
    mc__buf_base64(&b, (const unsigned char *)"\xff\x00\x01" "ab", 5);
    assert_string_equal(b.p, "/wABYWI=");
    mc__buf_free(&b);

    assert_string_equal(mc__relpath("/src/scenarios/x.jsonc", "/src"), "scenarios/x.jsonc");
    assert_string_equal(mc__relpath("/srcx/y", "/src"), "/srcx/y");
}

/* ---- baselines -------------------------------------------------------------------- */

static void test_baseline_keys(void **state)
{
    mc_baseline_entry_t e;
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_parse_key("res/broken@2025-06-18:area/rule", &e, &eb), MC_OK);
    assert_string_equal(e.scenario, "res/broken");
    assert_string_equal(e.version, "2025-06-18");
    assert_string_equal(e.check, "area/rule");
    free(e.key), free(e.scenario), free(e.version), free(e.check);

    assert_int_equal(mc_baseline_parse_key("res/broken:area/rule@2025-11-25", &e, &eb), MC_OK);
    assert_string_equal(e.version, "2025-11-25");
    free(e.key), free(e.scenario), free(e.version), free(e.check);

    assert_int_equal(mc_baseline_parse_key("res/broken", &e, &eb), MC_OK);
    assert_null(e.check);
    assert_null(e.version);
    free(e.key), free(e.scenario);

    assert_int_equal(mc_baseline_parse_key("res/x@2025-06-18:a/b@2025-06-18", &e, &eb), MC_EINVAL);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_parse_key("res/x@june:a/b", &e, &eb), MC_EINVAL);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_parse_key(":a/b", &e, &eb), MC_EINVAL);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_parse_key("res/x:Bad Check", &e, &eb), MC_EINVAL);
}

static const char *write_tmp(const char *text)
{
    static char path[64];
    int fd;

    snprintf(path, sizeof(path), "/tmp/mc-report-test-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_baseline_file_errors(void **state)
{
    mc_baseline_t b;
    mc_errbuf_t eb;
    const char *p;

    (void)state;
    p = write_tmp("// known\n{\"mcpcheck_baseline\": 1,\n \"known\": [\n  {\"id\": \"a/b\", "
                  "\"reason\": \"r\"},\n  {\"id\": \"a/b\", \"reason\": \"again\"},\n ]}\n");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_EINVAL);
    assert_non_null(strstr(eb.msg, ":5:"));
    assert_non_null(strstr(eb.msg, "listed twice"));
    unlink(p);

    p = write_tmp("{\"known\": [{\"id\": \"a/b\", \"reason\": \"r\", \"extra\": 1}]}");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_EINVAL);
    assert_non_null(strstr(eb.msg, "unknown field \"extra\""));
    unlink(p);

    p = write_tmp("{\"known\": [{\"id\": \"a/b@2025-06-18:c/d\", \"reason\": \"fine\"}]}");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_OK);
    assert_int_equal(b.n, 1);
    assert_string_equal(b.v[0].reason, "fine");
    mc_baseline_free(&b);
    unlink(p);
}

static void test_baseline_apply(void **state)
{
    mc_report_t rep;
    mc_baseline_t b;
    mc_errbuf_t eb;
    const char *p;

    (void)state;
    make_report(&rep, 0);
    assert_int_equal(rep.n_failed, 3);
    assert_int_equal(rep.n_errors, 1);
    assert_int_equal(mc_report_exit_code(&rep), 1);

    /* res/broken at 2025-06-18 only, the crash whole, a stale one, an unused one. */
    p = write_tmp("{\"known\": [\n"
                  " {\"id\": \"res/broken@2025-06-18:area/rule\", \"reason\": \"upstream bug\"},\n"
                  " {\"id\": \"tools/crash\", \"reason\": \"crashes\"},\n"
                  " {\"id\": \"res/fine:area/rule\", \"reason\": \"was broken\"},\n"
                  " {\"id\": \"gone/away\", \"reason\": \"renamed\"}]}\n");
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_OK);
    unlink(p);
    assert_int_equal(mc_report_apply_baseline(&rep, &b), MC_OK);
    assert_string_equal(rep.known[0], "upstream bug");
    assert_null(rep.known[1]); /* the other version is not listed */
    assert_null(rep.known[2]);
    assert_string_equal(rep.known[3], "crashes");
    assert_int_equal(rep.n_known, 2);
    assert_int_equal(rep.n_failed, 1);
    assert_int_equal(rep.n_stale, 1);
    assert_int_equal(rep.n_notes, 2);
    assert_string_equal(rep.notes[0].key, "res/fine:area/rule");
    assert_true(rep.notes[0].stale);
    assert_non_null(strstr(rep.notes[0].why, "now holds"));
    assert_false(rep.notes[1].stale);
    assert_int_equal(mc_report_exit_code(&rep), 1);
    assert_string_equal(mc_baseline_result_reason(&b, &rep.run.scenarios[0], 0), "upstream bug");
    mc_baseline_free(&b);
    mc_report_free(&rep);
}

static void test_baseline_round_trip(void **state)
{
    mc_report_t rep;
    mc_baseline_t b;
    mc_errbuf_t eb;
    char *text = NULL;
    size_t len = 0;
    const char *p;

    (void)state;
    make_report(&rep, 1);
    assert_int_equal(mc_report_baseline(&rep, &text, &len), MC_OK);
    /* Broken at both versions: one entry without a version. */
    assert_non_null(strstr(text, "\"res/broken:area/rule\""));
    assert_null(strstr(text, "\"res/broken@"));
    assert_non_null(strstr(text, "\"tools/crash\""));
    p = write_tmp(text);
    free(text);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_baseline_load(p, &b, &eb), MC_OK);
    unlink(p);
    assert_int_equal(mc_report_apply_baseline(&rep, &b), MC_OK);
    assert_int_equal(rep.n_failed, 0);
    assert_int_equal(rep.n_stale, 0);
    assert_int_equal(mc_report_exit_code(&rep), 0);
    mc_baseline_free(&b);
    mc_report_free(&rep);
}

/* ---- outputs ------------------------------------------------------------------------ */

static void test_junit(void **state)
{
    mc_report_t rep;
    char *x = NULL;
    size_t n = 0;

    (void)state;
    make_report(&rep, 0);
    assert_int_equal(mc_report_add_not_run(&rep, "tools/later", "2025-06-18", "tools", "later",
                                           "/src/scenarios/tools/later.jsonc",
                                           "not started: the run was interrupted"),
                     MC_OK);
    rep.run.partial = 1;
    mc_report_summarize(&rep);
    assert_int_equal(mc_report_junit(&rep, &x, &n), MC_OK);
    assert_true(xml_clean(x, n));
    assert_non_null(strstr(x, "<testsuites name=\"mcpcheck\" tests=\"5\" failures=\"2\" "
                              "errors=\"1\" skipped=\"1\""));
    assert_non_null(strstr(x, "<testsuite name=\"res\" tests=\"3\" failures=\"2\""));
    assert_non_null(strstr(x, "<testcase name=\"res/broken [2025-06-18]\" classname=\"mcpcheck.res\" "
                              "file=\"scenarios/res/broken.jsonc\" time=\"0.012\">"));
    assert_non_null(strstr(x, "<failure type=\"FAIL\" message=\"it broke: &lt;here&gt;\">"));
    assert_non_null(strstr(x, "<error type=\"ERROR\" message=\"the reason &lt;why&gt;\">"));
    assert_non_null(strstr(x, "<skipped message=\"not run: not started: the run was interrupted\"/>"));
    assert_non_null(strstr(x, "<system-err>panic: \\u0007 &lt;oops&gt; \xEF\xBF\xBD\n</system-err>"));
    assert_null(strstr(x, "]]>"));
    free(x);
    mc_report_free(&rep);
}

static void test_sarif(void **state)
{
    mc_report_t rep;
    char *s = NULL;
    size_t n = 0;
    json_object *doc, *run, *rules, *results, *r0, *loc;

    (void)state;
    make_report(&rep, 0);
    assert_int_equal(mc_report_sarif(&rep, &s, &n), MC_OK);
    doc = json_tokener_parse(s);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_object_object_get(doc, "version")), "2.1.0");
    run = json_object_array_get_idx(json_object_object_get(doc, "runs"), 0);
    rules = json_object_object_get(json_object_object_get(json_object_object_get(run, "tool"),
                                                          "driver"),
                                   "rules");
    /* wire/utf8, area/rule, area/should, mcpcheck/error */
    assert_int_equal(json_object_array_length(rules), 4);
    assert_string_equal(
        json_object_get_string(json_object_object_get(json_object_array_get_idx(rules, 1), "helpUri")),
        "https://modelcontextprotocol.io/specification/2025-06-18/server/resources#reading");
    results = json_object_object_get(run, "results");
    assert_int_equal(json_object_array_length(results), 3); /* 2 FAIL checks + 1 ERROR */
    r0 = json_object_array_get_idx(results, 0);
    assert_string_equal(json_object_get_string(json_object_object_get(r0, "level")), "error");
    loc = json_object_object_get(json_object_array_get_idx(json_object_object_get(r0, "locations"), 0),
                                 "physicalLocation");
    assert_string_equal(json_object_get_string(json_object_object_get(
                            json_object_object_get(loc, "artifactLocation"), "uri")),
                        "scenarios/res/broken.jsonc");
    assert_int_equal(json_object_get_int(json_object_object_get(
                         json_object_object_get(loc, "region"), "startLine")),
                     7);
    json_object_put(doc);
    free(s);
    mc_report_free(&rep);
}

static void test_trace_and_html(void **state)
{
    mc_report_t rep;
    char *t = NULL, name[300];
    size_t n = 0;

    (void)state;
    make_report(&rep, 0);
    mc_report_trace_name(&rep.run.scenarios[0], name, sizeof(name));
    assert_string_equal(name, "res__broken@2025-06-18.jsonl");
    assert_int_equal(mc_report_trace(&rep.run.scenarios[0], &t, &n), MC_OK);
    assert_true(mc__utf8_valid(t, n));
    assert_non_null(strstr(t, "{\"seq\": 1, \"t_ms\": 0, \"dir\": \"out\", \"line\": "));
    assert_non_null(strstr(t, "\"raw_b64\": \""));
    free(t);
    assert_int_equal(mc_report_html(&rep, &t, &n), MC_OK);
    assert_true(mc__utf8_valid(t, n));
    assert_null(strstr(t, "<b>&"));
    assert_null(strstr(t, "<oops>"));
    assert_non_null(strstr(t, "&lt;oops&gt;"));
    assert_non_null(strstr(t, "id=\"sumline\">1 passed, 2 failed, 1 errors (4 runs)</p>"));
    free(t);
    mc_report_free(&rep);
}

static void test_json_round_trip(void **state)
{
    mc_report_t rep, back;
    mc_errbuf_t eb;
    char dir[] = "/tmp/mc-report-rt-XXXXXX", path[128];
    json_object *a, *b;

    (void)state;
    assert_non_null(mkdtemp(dir));
    make_report(&rep, 1);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_report_write_json(&rep, dir, &eb), MC_OK);
    snprintf(path, sizeof(path), "%s/report.json", dir);
    assert_int_equal(mc_report_load(path, &back, &eb), MC_OK);
    a = mc_report_json(&rep);
    b = mc_report_json(&back);
    assert_string_equal(json_object_to_json_string(a), json_object_to_json_string(b));
    assert_int_equal(mc_report_exit_code(&back), mc_report_exit_code(&rep));
    json_object_put(a);
    json_object_put(b);
    unlink(path);
    rmdir(dir);
    mc_report_free(&back);
    mc_report_free(&rep);

    mc_errbuf_clear(&eb);
    assert_int_not_equal(mc_report_load("/nonexistent/report.json", &back, &eb), MC_OK);
}

static void test_console(void **state)
{
    mc_report_t rep;
    char buf[4096];

    (void)state;
    make_report(&rep, 0);
    mc_report_console_summary(&rep, 0, buf, sizeof(buf));
    assert_string_equal(buf, "1 passed, 2 failed, 1 errors (4 runs)\n");
    mc_report_console_result(&rep.run.scenarios[0], NULL, 0, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "FAIL         res/broken [2025-06-18] (12 ms)\n"));
    assert_null(strchr(buf, '\033'));
    /* The area x version matrix: areas in order, versions in the table's order. */
    mc_report_console_matrix(&rep, buf, sizeof(buf));
    assert_non_null(strstr(buf, "area           2025-06-18     2025-11-25    \n"));
    assert_non_null(strstr(buf, "res            1 F1           0 F1          \n"));
    assert_non_null(strstr(buf, "tools          0 E1           -             \n"));
    {
        json_object *m = mc_report_matrix_json(&rep), *cell;
        assert_non_null(m);
        cell = json_object_object_get(
            json_object_object_get(json_object_object_get(json_object_object_get(m, "cells"),
                                                          "res"),
                                   "2025-11-25"),
            "FAIL");
        assert_int_equal(json_object_get_int(cell), 1);
        assert_int_equal(json_object_array_length(json_object_object_get(m, "versions")), 2);
        json_object_put(m);
    }
    mc_report_console_progress(146, 292, 0, 0, 0, buf, sizeof(buf));
    assert_string_equal(buf, "[146/292] ############............  0:00");
    mc_report_console_progress(12, 292, 2, 65000, 0, buf, sizeof(buf));
    assert_string_equal(buf, "[ 12/292] ........................  2 failed  1:05");
    mc_report_free(&rep);
}

/* Counts the lines of s. */
static size_t lines_of(const char *s)
{
    size_t n = 0;

    for (; *s != '\0'; s++)
        n += *s == '\n';
    return n;
}

/* INFO is INFO everywhere: MAY and INFO give INFO, and neither fails a run,
 * even with --strict. A scenario that had to stop stays NOT-VERIFIED unless
 * a finding came first. */
static void test_levels_info(void **state)
{
    mc_run_result_t run;
    mc_report_t rep;
    char buf[8192];

    (void)state;
    assert_int_equal(mc_verdict_for_level(MC_LEVEL_MUST), MC_FAIL);
    assert_int_equal(mc_verdict_for_level(MC_LEVEL_SHOULD), MC_WARN);
    assert_int_equal(mc_verdict_for_level(MC_LEVEL_MAY), MC_INFO);
    assert_int_equal(mc_verdict_for_level(MC_LEVEL_INFO), MC_INFO);
    memset(&run, 0, sizeof(run));
    run.scenarios = calloc(8, sizeof(*run.scenarios));
    scenario(&run, "res/info", "res", "2025-06-18", MC_PASS, 0);
    add_check(&run.scenarios[0], "area/may", MC_LEVEL_MAY, 0, "the server used its MAY");
    add_check(&run.scenarios[0], "area/info", MC_LEVEL_INFO, 0, "a hint");
    mc_sresult_finish(&run.scenarios[0]);
    assert_int_equal(run.scenarios[0].verdict, MC_INFO);
    run.fail_on = MC_FAIL_ON_WARN;
    assert_int_equal(mc_report_init(&rep, &run, "/src"), MC_OK);
    assert_int_equal(mc_report_exit_code(&rep), 0);
    mc_report_console_summary(&rep, 0, buf, sizeof(buf));
    assert_string_equal(buf, "0 passed, 0 failed, 1 info (1 run); --fail-on warn\n");
    mc_report_console_causes(&rep, 0, 0, buf, sizeof(buf));
    assert_string_equal(buf, "");
    {
        mc_scenario_result_t *r = &rep.run.scenarios[0];
        mc_sresult_set(r, MC_NOT_VERIFIED, "the step at line %d could not be carried out", 3);
        mc_sresult_finish(r);
        assert_int_equal(r->verdict, MC_NOT_VERIFIED);
        add_check(r, "area/late", MC_LEVEL_MUST, 0, "broken before the stop");
        mc_sresult_finish(r);
        assert_int_equal(r->verdict, MC_FAIL);
        assert_string_equal(r->reason, "the step at line 3 could not be carried out");
    }
    mc_report_free(&rep);
}

/* A run with one cause in three scenarios and versions, another in two,
 * a SKIP and a NOT-VERIFIED scenario; rep is initialized from it. */
static void causes_report(mc_report_t *rep)
{
    mc_run_result_t run;

    memset(&run, 0, sizeof(run));
    run.scenarios = calloc(8, sizeof(*run.scenarios));
    scenario(&run, "res/broken", "res", "2025-06-18", MC_PASS, 1);
    scenario(&run, "res/broken", "res", "2025-11-25", MC_PASS, 1);
    scenario(&run, "other/broken", "other", "2025-06-18", MC_PASS, 1);
    scenario(&run, "res/ids", "res", "2025-06-18", MC_PASS, 0);
    add_check(&run.scenarios[3], "wire/response-id", MC_LEVEL_MUST, 0,
              "response id 5 matches no request sent");
    mc_sresult_finish(&run.scenarios[3]);
    scenario(&run, "res/ids", "res", "2025-11-25", MC_PASS, 0);
    add_check(&run.scenarios[4], "wire/response-id", MC_LEVEL_MUST, 0,
              "response id 12 matches no request sent");
    mc_sresult_finish(&run.scenarios[4]);
    scenario(&run, "res/skip", "res", "2025-06-18", MC_SKIP, 0);
    scenario(&run, "res/nv", "res", "2025-06-18", MC_NOT_VERIFIED, 0);
    assert_int_equal(mc_report_init(rep, &run, "/src"), MC_OK);
}

/* One cause is named once; SKIP and NOT-VERIFIED fold to a line; links
 * point at the page of the version that ran. */
static void test_causes_folding(void **state)
{
    mc_report_t rep;
    mc_report_cause_t *cs = NULL;
    size_t n = 0, findings = 0;
    char buf[8192];

    (void)state;
    causes_report(&rep);
    /* One check id failing for the same reason is one cause, whatever the
     * scenario, the version or the numbers in the message. */
    assert_int_equal(mc_report_causes(&rep, &cs, &n, &findings), MC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(findings, 5);
    assert_string_equal(cs[0].check, "area/rule");
    assert_int_equal(cs[0].count, 3);
    assert_int_equal(cs[0].scenario, 0);
    assert_string_equal(cs[1].check, "wire/response-id");
    assert_int_equal(cs[1].count, 2);
    free(cs);

    mc_report_console_summary(&rep, 0, buf, sizeof(buf));
    assert_string_equal(buf, "0 passed, 5 failed, 1 skipped, 1 not verified (7 runs)\n");
    mc_report_console_causes(&rep, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "failures by cause (5 findings, 2 causes):\n"));
    assert_non_null(strstr(buf, "area/rule  x3  it broke: <here>  (first: res/broken [2025-06-18])"));
    assert_non_null(strstr(buf, "wire/response-id  x2  response id 5 matches no request sent"));
    /* Each cause shows where it shows first: the step's file:line, the line
     * sent and the message judged, the target's control bytes made harmless. */
    assert_non_null(strstr(buf, "  (first: res/broken [2025-06-18])\n"
                                "        at scenarios/res/broken.jsonc:7 [2025-06-18]\n"
                                "        sent: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                                "        got:  <b>&\"quote'</b> ]]> ..[31m "));
    assert_null(strchr(buf, '\x1b'));
    assert_null(strchr(buf, '\x01'));
    assert_null(strchr(buf, '\xff'));
    assert_int_equal(lines_of(buf), 9);

    /* Folded: SKIP and NOT-VERIFIED are one line each; -v expands them. */
    mc_report_console_result(&rep.run.scenarios[5], NULL, 0, 0, 0, buf, sizeof(buf));
    assert_string_equal(buf, "SKIP         res/skip [2025-06-18] (12 ms): the reason <why>\n");
    mc_report_console_result(&rep.run.scenarios[6], NULL, 0, 0, 0, buf, sizeof(buf));
    assert_int_equal(lines_of(buf), 1);
    mc_report_console_result(&rep.run.scenarios[6], NULL, 0, 0, 1, buf, sizeof(buf));
    assert_true(lines_of(buf) > 2);

    /* A failed check: its level, the link of the version that ran, the quote;
     * with -v the reading, apart from the quote. */
    mc_report_console_result(&rep.run.scenarios[1], NULL, 0, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "FAIL  area/rule: it broke: <here> (message 2)\n"
                                "                   MUST https://modelcontextprotocol.io/"
                                "specification/2025-11-25/server/resources#reading-resources\n"
                                "                   \"Servers MUST answer.\"\n"));
    mc_report_console_result(&rep.run.scenarios[0], NULL, 0, 0, 0, buf, sizeof(buf));
    assert_non_null(strstr(buf, "specification/2025-06-18/server/resources#reading\n"));

    mc_report_free(&rep);
}

/* The causes in report.html ("Needs attention") and the checks' metadata in
 * report.json. */
static void test_causes_html_json(void **state)
{
    mc_report_t rep;
    size_t n = 0, k;
    char *t;

    (void)state;
    causes_report(&rep);
    /* HTML: "Needs attention" has one item per cause, with its message. */
    assert_int_equal(mc_report_html(&rep, &t, &n), MC_OK);
    {
        const char *att = strstr(t, "<h2>Needs attention</h2>");
        const char *end = att != NULL ? strstr(att, "</ul>") : NULL;
        const char *p;
        size_t items = 0;
        assert_non_null(end);
        for (p = att; (p = strstr(p, "<li>")) != NULL && p < end; p++)
            items++;
        assert_int_equal(items, 2);
        assert_non_null(strstr(att, "5 findings, 2 causes"));
        assert_non_null(strstr(att, "&times;3"));
        assert_non_null(strstr(att, "it broke: &lt;here&gt;"));
    }
    assert_non_null(strstr(t, "id=\"sumline\">0 passed, 5 failed, 1 skipped, 1 not verified (7 runs)</p>"));
    free(t);

    /* report.json: level, quote, the reading apart, ref and url of the version. */
    {
        json_object *j = mc_report_json(&rep), *sc, *ck = NULL;
        sc = json_object_array_get_idx(json_object_object_get(j, "scenarios"), 1);
        for (k = 0; k < 3; k++) {
            json_object *c = json_object_array_get_idx(json_object_object_get(sc, "checks"), k);
            if (strcmp(json_object_get_string(json_object_object_get(c, "id")), "area/should") == 0)
                ck = c;
        }
        assert_non_null(ck);
        assert_string_equal(json_object_get_string(json_object_object_get(ck, "level")), "SHOULD");
        assert_string_equal(json_object_get_string(json_object_object_get(ck, "quote")),
                            "Servers MUST answer.");
        assert_string_equal(json_object_get_string(json_object_object_get(ck, "interpretation")),
                            "our <reading> & more");
        assert_string_equal(json_object_get_string(json_object_object_get(ck, "spec")),
                            "2025-11-25/server/resources#reading-resources");
        assert_string_equal(json_object_get_string(json_object_object_get(ck, "url")),
                            "https://modelcontextprotocol.io/specification/2025-11-25/server/"
                            "resources#reading-resources");
        json_object_put(j);
    }
    mc_report_free(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapers),
        cmocka_unit_test(test_baseline_keys),
        cmocka_unit_test(test_baseline_file_errors),
        cmocka_unit_test(test_baseline_apply),
        cmocka_unit_test(test_baseline_round_trip),
        cmocka_unit_test(test_junit),
        cmocka_unit_test(test_sarif),
        cmocka_unit_test(test_trace_and_html),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_console),
        cmocka_unit_test(test_levels_info),
        cmocka_unit_test(test_causes_folding),
        cmocka_unit_test(test_causes_html_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
