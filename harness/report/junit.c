/*
 * junit.c - junit.xml: one <testsuite> per area, one <testcase> per scenario
 * run ("id [version]"), in the dialect the usual CI readers accept (Jenkins,
 * GitLab, GitHub test-reporter actions, junitparser).
 *
 *   FAIL                  <failure type="FAIL">   the broken checks in the body
 *   ERROR                 <error type="ERROR">    the reason and the stderr tail
 *   WARN, INFO            <failure type="WARN"|"INFO"> when the gate fails it (--fail-on,
 *                         a rule), else it passes; the gate's words beside the level
 *   SKIP, NOT-VERIFIED    <skipped message="reason">
 *   known (baseline)      <skipped message="known failure: reason">
 *   not run (interrupted) <skipped message="not run: reason">
 *
 * The run's outcome counts (they add up to the runs) are properties
 * "count.passed", "count.failed", ... of the first suite, with "runs".
 * Stale baseline entries are failed testcases of a "baseline" suite. Every
 * testcase has the check lines in <system-out> and the target's stderr tail
 * in <system-err>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

static void attr(mc__buf_t *b, const char *name, const char *value)
{
    mc__buf_printf(b, " %s=\"", name);
    if (value != NULL)
        mc__buf_xml(b, value, strlen(value), 1);
    mc__buf_puts(b, "\"");
}

static void attr_secs(mc__buf_t *b, const char *name, int64_t ms)
{
    mc__buf_printf(b, " %s=\"%lld.%03lld\"", name, (long long)(ms / 1000),
                   (long long)(ms % 1000 < 0 ? 0 : ms % 1000));
}

static void text(mc__buf_t *b, const char *s)
{
    if (s != NULL)
        mc__buf_xml(b, s, strlen(s), 0);
}

/* One check, as a few lines of text (already XML-escaped). */
static void check_text(mc__buf_t *b, const mc_report_t *rep, const mc_scenario_result_t *r,
                       const mc_check_result_t *c, const char *known)
{
    char url[1200];

    mc__buf_printf(b, "%s %s (%s", mc_verdict_name(c->verdict), c->id, mc_level_name(c->level));
    if (c->author) {
        /* The author's rule, never the spec's. */
        mc__buf_puts(b, ", " MC_REPORT_AUTHOR_LABEL);
        if (c->link != NULL) {
            mc__buf_puts(b, ", ");
            text(b, c->link);
        }
    } else if (c->ref != NULL && mc__spec_url(c->ref, url, sizeof(url))) {
        mc__buf_puts(b, ", ");
        text(b, url);
    }
    mc__buf_puts(b, ")");
    {
        char gw[MC_RESULT_MAX_TEXT + 64];
        mc_report_gate_words(c, rep->run.fail_on, gw, sizeof(gw));
        if (gw[0] != '\0') {
            mc__buf_printf(b, " [%s in the spec; ", mc_verdict_name(c->verdict));
            text(b, gw);
            mc__buf_puts(b, "]");
        }
    }
    if (known != NULL) {
        mc__buf_puts(b, " [known: ");
        text(b, known);
        mc__buf_puts(b, "]");
    }
    mc__buf_puts(b, "\n");
    if (c->verdict == MC_PASS)
        return;
    if (c->quote != NULL && c->quote[0] != '\0') {
        mc__buf_puts(b, c->author ? "  " MC_REPORT_AUTHOR_LABEL ": \"" : "  spec: \"");
        text(b, c->quote);
        mc__buf_puts(b, "\"\n");
    }
    if (c->interpretation != NULL && c->interpretation[0] != '\0') {
        mc__buf_puts(b, "  reading: ");
        text(b, c->interpretation);
        mc__buf_puts(b, "\n");
    }
    if (c->message != NULL) {
        mc__buf_puts(b, "  message: ");
        text(b, c->message);
        mc__buf_puts(b, "\n");
    }
    if (c->expected != NULL) {
        mc__buf_puts(b, "  expected: ");
        text(b, c->expected);
        mc__buf_puts(b, "\n");
    }
    if (c->actual != NULL) {
        mc__buf_puts(b, "  actual: ");
        text(b, c->actual);
        mc__buf_puts(b, "\n");
    }
    mc__buf_puts(b, "  at: ");
    text(b, mc__relpath(r->file, rep->base_dir));
    mc__buf_printf(b, ":%d", c->line > 0 ? c->line : 1);
    if (c->path != NULL && c->path[0] != '\0') {
        mc__buf_puts(b, ", ");
        text(b, c->path);
    }
    if (c->seq > 0)
        mc__buf_printf(b, ", message %llu", (unsigned long long)c->seq);
    mc__buf_puts(b, "\n");
}

static void stderr_text(mc__buf_t *b, const mc_scenario_result_t *r)
{
    if (r->exit_desc != NULL) {
        mc__buf_puts(b, "target: ");
        text(b, r->exit_desc);
        mc__buf_puts(b, "\n");
    }
    if (r->stderr_tail != NULL && r->stderr_tail[0] != '\0') {
        mc__buf_puts(b, "stderr tail:\n");
        text(b, r->stderr_tail);
        if (r->stderr_tail[strlen(r->stderr_tail) - 1] != '\n')
            mc__buf_puts(b, "\n");
    }
}

/* The first failing check's message, for the message="" attribute. */
static const char *first_message(const mc_scenario_result_t *r, mc_fail_on_t fail_on)
{
    size_t k;

    for (k = 0; k < r->n_checks; k++)
        if (mc_check_fails(&r->checks[k], fail_on) && r->checks[k].message != NULL)
            return r->checks[k].message;
    return r->reason != NULL ? r->reason : "the scenario failed";
}

static void testcase(mc__buf_t *b, const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    const char *known = mc__known(rep, i);
    mc_outcome_t out = mc_report_outcome(rep, i);
    char name[600];
    size_t k;

    snprintf(name, sizeof(name), "%s [%s]", r->id, r->version ? r->version : "?");
    mc__buf_puts(b, "    <testcase");
    attr(b, "name", name);
    snprintf(name, sizeof(name), "mcpcheck.%s", r->area);
    attr(b, "classname", name);
    attr(b, "file", mc__relpath(r->file, rep->base_dir));
    attr_secs(b, "time", r->duration_ms);
    mc__buf_puts(b, ">\n");

    if (out == MC_OUT_KNOWN) {
        char msg[1200];
        snprintf(msg, sizeof(msg), "known failure (%s, baseline): %s", mc_verdict_name(r->verdict),
                 known);
        mc__buf_puts(b, "      <skipped");
        attr(b, "message", msg);
        mc__buf_puts(b, "/>\n");
    } else if (out == MC_OUT_ERROR) {
        mc__buf_puts(b, "      <error type=\"ERROR\"");
        attr(b, "message", r->reason != NULL ? r->reason : "the harness or the target failed");
        mc__buf_puts(b, ">");
        text(b, r->reason);
        mc__buf_puts(b, "\n");
        for (k = 0; k < r->n_checks; k++)
            if (r->checks[k].verdict != MC_PASS)
                check_text(b, rep, r, &r->checks[k], mc_report_check_known(rep, i, k));
        stderr_text(b, r);
        mc__buf_puts(b, "</error>\n");
    } else if (out == MC_OUT_FAIL) {
        mc__buf_printf(b, "      <failure type=\"%s\"", mc_verdict_name(r->verdict));
        attr(b, "message", first_message(r, rep->run.fail_on));
        mc__buf_puts(b, ">");
        for (k = 0; k < r->n_checks; k++)
            if (r->checks[k].verdict != MC_PASS)
                check_text(b, rep, r, &r->checks[k], mc_report_check_known(rep, i, k));
        stderr_text(b, r);
        mc__buf_puts(b, "</failure>\n");
    } else if (r->verdict == MC_SKIP || r->verdict == MC_NOT_VERIFIED) {
        char msg[1200];
        snprintf(msg, sizeof(msg), "%s%s", r->verdict == MC_SKIP ? "" : "not verified: ",
                 r->reason != NULL ? r->reason : "not applicable");
        mc__buf_puts(b, "      <skipped");
        attr(b, "message", msg);
        mc__buf_puts(b, "/>\n");
    }

    mc__buf_puts(b, "      <system-out>");
    mc__buf_printf(b, "%s %s [%s]: ", mc_verdict_name(r->verdict), r->id,
                   r->version ? r->version : "?");
    text(b, r->title);
    mc__buf_puts(b, "\n");
    if (r->reason != NULL) {
        text(b, r->reason);
        mc__buf_puts(b, "\n");
    }
    for (k = 0; k < r->n_checks; k++)
        check_text(b, rep, r, &r->checks[k], mc_report_check_known(rep, i, k));
    mc__buf_puts(b, "</system-out>\n");
    if (r->stderr_tail != NULL && r->stderr_tail[0] != '\0') {
        mc__buf_puts(b, "      <system-err>");
        text(b, r->stderr_tail);
        mc__buf_puts(b, "</system-err>\n");
    }
    mc__buf_puts(b, "    </testcase>\n");
}

typedef struct counts {
    size_t tests, failures, errors, skipped;
    int64_t ms;
} counts_t;

static void count_one(const mc_report_t *rep, size_t i, counts_t *c)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];

    mc_outcome_t out = mc_report_outcome(rep, i);

    c->tests++;
    c->ms += r->duration_ms;
    if (out == MC_OUT_KNOWN || out == MC_OUT_SKIP || out == MC_OUT_NOT_VERIFIED)
        c->skipped++;
    else if (out == MC_OUT_ERROR)
        c->errors++;
    else if (out == MC_OUT_FAIL)
        c->failures++;
}

static void counts_attrs(mc__buf_t *b, const counts_t *c)
{
    mc__buf_printf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"", c->tests,
                   c->failures, c->errors, c->skipped);
    attr_secs(b, "time", c->ms);
}

static void properties(mc__buf_t *b, const mc_report_t *rep)
{
    const mc_run_result_t *run = &rep->run;

    mc__buf_puts(b, "    <properties>\n");
    mc__buf_puts(b, "      <property name=\"target\"");
    attr(b, "value", run->target);
    mc__buf_puts(b, "/>\n      <property name=\"protocol_versions\"");
    attr(b, "value", run->versions);
    mc__buf_puts(b, "/>\n      <property name=\"profile\"");
    attr(b, "value", run->profile);
    mc__buf_printf(b, "/>\n      <property name=\"strict\" value=\"%s\"/>\n",
                   run->fail_on >= MC_FAIL_ON_WARN ? "true" : "false");
    mc__buf_printf(b, "      <property name=\"fail_on\" value=\"%s\"/>\n",
                   mc_fail_on_name(run->fail_on));
    if (rep->gate_path != NULL) {
        mc__buf_puts(b, "      <property name=\"gate\"");
        attr(b, "value", rep->gate_path);
        mc__buf_puts(b, "/>\n");
    }
    mc__buf_printf(b, "      <property name=\"runs\" value=\"%zu\"/>\n", run->n);
    for (size_t o = 0; o < MC_OUTCOME_COUNT; o++)
        mc__buf_printf(b, "      <property name=\"count.%s\" value=\"%zu\"/>\n",
                       mc_outcome_key((mc_outcome_t)o), rep->outcomes[o]);
    mc__buf_printf(b, "      <property name=\"count.failed_by_gate\" value=\"%zu\"/>\n",
                   rep->n_gated);
    mc__buf_printf(b, "      <property name=\"partial\" value=\"%s\"/>\n",
                   run->partial ? "true" : "false");
    if (rep->baseline_path != NULL) {
        mc__buf_puts(b, "      <property name=\"baseline\"");
        attr(b, "value", rep->baseline_path);
        mc__buf_puts(b, "/>\n");
    }
    mc__buf_puts(b, "    </properties>\n");
}

static int area_seen(const mc_report_t *rep, size_t upto, const char *area, int not_run)
{
    size_t i;

    for (i = 0; i < (not_run ? rep->run.n : upto); i++)
        if (strcmp(rep->run.scenarios[i].area, area) == 0)
            return 1;
    for (i = 0; not_run && i < upto; i++)
        if (strcmp(rep->not_run[i].area, area) == 0)
            return 1;
    return 0;
}

static void suite(mc__buf_t *b, const mc_report_t *rep, const char *area, int first)
{
    counts_t c;
    size_t i;

    memset(&c, 0, sizeof(c));
    for (i = 0; i < rep->run.n; i++)
        if (strcmp(rep->run.scenarios[i].area, area) == 0)
            count_one(rep, i, &c);
    for (i = 0; i < rep->n_not_run; i++)
        if (strcmp(rep->not_run[i].area, area) == 0) {
            c.tests++;
            c.skipped++;
        }
    mc__buf_puts(b, "  <testsuite");
    attr(b, "name", area);
    counts_attrs(b, &c);
    attr(b, "timestamp", rep->run.started);
    mc__buf_puts(b, ">\n");
    if (first)
        properties(b, rep);
    for (i = 0; i < rep->run.n; i++)
        if (strcmp(rep->run.scenarios[i].area, area) == 0)
            testcase(b, rep, i);
    for (i = 0; i < rep->n_not_run; i++) {
        const mc_report_notrun_t *e = &rep->not_run[i];
        char name[600];
        if (strcmp(e->area, area) != 0)
            continue;
        snprintf(name, sizeof(name), "%s [%s]", e->id, e->version);
        mc__buf_puts(b, "    <testcase");
        attr(b, "name", name);
        snprintf(name, sizeof(name), "mcpcheck.%s", e->area);
        attr(b, "classname", name);
        attr(b, "file", mc__relpath(e->file, rep->base_dir));
        mc__buf_puts(b, " time=\"0.000\">\n      <skipped");
        snprintf(name, sizeof(name), "not run: %s", e->reason);
        attr(b, "message", name);
        mc__buf_puts(b, "/>\n    </testcase>\n");
    }
    mc__buf_puts(b, "  </testsuite>\n");
}

int mc_report_junit(const mc_report_t *rep, char **out, size_t *len)
{
    mc__buf_t b;
    counts_t all;
    size_t i;
    int first = 1;

    mc__buf_init(&b);
    memset(&all, 0, sizeof(all));
    for (i = 0; i < rep->run.n; i++)
        count_one(rep, i, &all);
    all.tests += rep->n_not_run + rep->n_stale;
    all.skipped += rep->n_not_run;
    all.failures += rep->n_stale;
    all.ms = rep->run.duration_ms;
    mc__buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcpcheck\"");
    counts_attrs(&b, &all);
    attr(&b, "timestamp", rep->run.started);
    mc__buf_puts(&b, ">\n");
    for (i = 0; i < rep->run.n; i++) {
        if (area_seen(rep, i, rep->run.scenarios[i].area, 0))
            continue;
        suite(&b, rep, rep->run.scenarios[i].area, first);
        first = 0;
    }
    for (i = 0; i < rep->n_not_run; i++) {
        if (area_seen(rep, i, rep->not_run[i].area, 1))
            continue;
        suite(&b, rep, rep->not_run[i].area, first);
        first = 0;
    }
    if (rep->n_stale > 0) {
        counts_t c = {rep->n_stale, rep->n_stale, 0, 0, 0};
        mc__buf_puts(&b, "  <testsuite name=\"baseline\"");
        counts_attrs(&b, &c);
        attr(&b, "timestamp", rep->run.started);
        mc__buf_puts(&b, ">\n");
        for (i = 0; i < rep->n_notes; i++) {
            char msg[1400];
            if (!rep->notes[i].stale)
                continue;
            mc__buf_puts(&b, "    <testcase");
            snprintf(msg, sizeof(msg), "stale: %s", rep->notes[i].key);
            attr(&b, "name", msg);
            attr(&b, "classname", "mcpcheck.baseline");
            attr(&b, "file", mc__relpath(rep->baseline_path, rep->base_dir));
            mc__buf_puts(&b, " time=\"0.000\">\n      <failure type=\"STALE\"");
            snprintf(msg, sizeof(msg), "stale baseline entry: %s", rep->notes[i].why);
            attr(&b, "message", msg);
            mc__buf_puts(&b, ">");
            text(&b, msg);
            mc__buf_puts(&b, "\nlisted because: ");
            text(&b, rep->notes[i].reason);
            mc__buf_puts(&b, "\nremove the entry from the baseline.\n</failure>\n    </testcase>\n");
        }
        mc__buf_puts(&b, "  </testsuite>\n");
    }
    mc__buf_puts(&b, "</testsuites>\n");
    if (b.err != MC_OK) {
        int e = b.err;
        mc__buf_free(&b);
        return e;
    }
    *out = b.p;
    *len = b.len;
    return MC_OK;
}
