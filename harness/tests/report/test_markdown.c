/* Unit tests for report.md: hostile text cannot open markup or break a
 * table, and a run with more causes than fit stays under MC_REPORT_MD_MAX
 * with whole rows and a count of the findings left out (past the causes
 * the grouping keeps, too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/internal.h"
#include "report/report.h"

/* What a target can put in a message: markup, a mention, a link, a cell
 * break, a line break, control bytes and invalid UTF-8. */
static const char hostile[] =
    "<script>x</script> | @someone [click](http://x) **b** `c`\n# h \x01 \xff\xc3\x28 end";

static void add_failing(mc_scenario_result_t *r, const char *id, const char *msg)
{
    mc_check_def_t d;

    memset(&d, 0, sizeof(d));
    d.check = id;
    d.level = MC_LEVEL_MUST;
    d.quote = "Servers MUST answer | always.";
    d.refs[0].version = "2025-06-18";
    d.refs[0].page = "server/resources#reading";
    assert_int_equal(mc_sresult_check(r, id, &d, 0, msg, "x", hostile, "result", 2, 7), MC_OK);
}

/* A report of n scenario runs, each failing check "c/<i>" with a message
 * that differs in words (so each is its own cause). */
static void make(mc_report_t *rep, size_t n, const char *msg)
{
    mc_run_result_t run;
    size_t i;

    memset(&run, 0, sizeof(run));
    run.scenarios = calloc(n, sizeof(*run.scenarios));
    for (i = 0; i < n; i++) {
        mc_scenario_result_t *r = &run.scenarios[run.n++];
        char id[64], text[512];
        snprintf(id, sizeof(id), "c/check-%zu", i);
        snprintf(text, sizeof(text), "%s %s", msg, id);
        r->id = strdup("area/scenario");
        r->area = strdup("area");
        r->title = strdup("t");
        r->file = strdup("/src/scenarios/area/scenario.jsonc");
        r->version = strdup("2025-06-18");
        r->checks = calloc(MC_RESULT_MAX_CHECKS, sizeof(*r->checks));
        add_failing(r, id, text);
        mc_sresult_finish(r);
    }
    run.target = strdup("./server <b>|</b>");
    run.versions = strdup("2025-06-18");
    run.profile = strdup("default");
    assert_int_equal(mc_report_init(rep, &run, "/src"), MC_OK);
}

/* The unescaped '|' of a line: a table row of k columns has k + 1. */
static size_t cell_bars(const char *line, size_t len)
{
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        if (line[i] == '\\' && i + 1 < len) {
            i++;
            continue;
        }
        n += line[i] == '|';
    }
    return n;
}

/* Calls fn on each line of s. */
static void each_line(const char *s, void (*fn)(const char *line, size_t len, void *arg), void *arg)
{
    while (*s != '\0') {
        const char *nl = strchr(s, '\n');
        size_t len = nl != NULL ? (size_t)(nl - s) : strlen(s);
        fn(s, len, arg);
        s += len + (nl != NULL);
    }
}

/* Every line that starts a row of the causes table has its 7 cells. */
static void row_whole(const char *line, size_t len, void *arg)
{
    size_t *rows = arg;

    if (len > 6 && strncmp(line, "| FAIL", 6) == 0) {
        assert_int_equal(cell_bars(line, len), 8);
        assert_true(line[len - 1] == '|');
        (*rows)++;
    }
}

static void test_hostile(void **state)
{
    mc_report_t rep;
    char *md = NULL;
    size_t len = 0, rows = 0;

    (void)state;
    make(&rep, 2, hostile);
    assert_int_equal(mc_report_markdown(&rep, &md, &len), MC_OK);
    assert_true(mc__utf8_valid(md, len));
    assert_null(strstr(md, "<script"));
    assert_null(strstr(md, "<b>"));
    assert_null(strstr(md, " @someone"));
    assert_null(strstr(md, "[click]"));
    assert_non_null(strstr(md, "&lt;script&gt;"));
    assert_non_null(strstr(md, "\\@someone"));
    assert_non_null(strstr(md, "](https://modelcontextprotocol.io/specification/2025-06-18/"
                               "server/resources#reading)"));
    assert_non_null(strstr(md, "_\"Servers MUST answer \\| always.\"_"));
    each_line(md, row_whole, &rows);
    assert_int_equal(rows, 2);
    assert_non_null(strstr(md, "| failed | 2 |"));
    free(md);
    mc_report_free(&rep);
}

static void test_cap(void **state)
{
    enum { RUNS = 1500 };
    mc_report_t rep;
    char *md = NULL, long_msg[300];
    const char *more;
    size_t len = 0, rows = 0, left = 0;

    (void)state;
    memset(long_msg, 'w', sizeof(long_msg) - 1);
    long_msg[sizeof(long_msg) - 1] = '\0';
    make(&rep, RUNS, long_msg);
    assert_int_equal(mc_report_markdown(&rep, &md, &len), MC_OK);
    assert_true(len <= MC_REPORT_MD_MAX);
    assert_int_equal(strlen(md), len);
    each_line(md, row_whole, &rows);
    assert_true(rows > 10 && rows < RUNS);
    more = strstr(md, " more findings not shown here");
    assert_non_null(more);
    while (more > md && more[-1] >= '0' && more[-1] <= '9')
        more--;
    assert_int_equal(sscanf(more, "%zu", &left), 1);
    assert_int_equal(rows + left, RUNS);
    /* The matrix, after the tables, is still there. */
    assert_non_null(strstr(md, "## Areas by protocol version"));
    free(md);
    mc_report_free(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
