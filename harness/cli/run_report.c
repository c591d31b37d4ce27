/*
 * run_report.c - what `mcpcheck run` reports: the run's description, the
 * scenarios that did not run after an interruption or an early stop, and
 * the outputs (files and console) of a finished run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "scenario/suite.h"

/* Room for the console's text blocks. */
#define MC_RUN_CONSOLE_BUF 16384

/*
 * The scenario runs the suite plans, in its order (mc_suite_run runs them
 * in this order and keeps the finished ones, a prefix, in order).
 */
typedef struct planned {
    const mc_scenario_t *sc;
    const char *version;
} planned_t;

static size_t plan(const mc_scenario_t *scs, size_t n, const char *const *versions,
                   planned_t *out)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        if (scs[i].client_version != NULL) {
            if (out != NULL)
                out[k] = (planned_t){&scs[i], scs[i].client_version};
            k++;
            continue;
        }
        for (const char *const *v = versions; *v != NULL; v++) {
            if (!mc_scenario_applies(&scs[i], *v))
                continue;
            if (out != NULL)
                out[k] = (planned_t){&scs[i], *v};
            k++;
        }
    }
    return k;
}

/*
 * After an interruption: the scenarios stopped half-way (ERROR "the run was
 * interrupted") and those never started are listed as not run, so that the
 * report keeps only what finished. finished: how many of the planned jobs,
 * the first ones, the suite started (a failed version probe, appended after
 * them, is not one).
 */
static int list_not_run(mc_report_t *rep, const mc_scenario_t *scs, size_t n,
                        const char *const *versions, size_t finished, const char *why_not)
{
    size_t total = plan(scs, n, versions, NULL), i, k;
    planned_t *jobs = calloc(total + 1, sizeof(*jobs));
    mc_run_result_t *run = &rep->run;
    int rc = MC_OK;

    if (jobs == NULL)
        return MC_ENOMEM;
    plan(scs, n, versions, jobs);
    for (i = 0, k = 0; i < run->n; i++) {
        mc_scenario_result_t *r = &run->scenarios[i];
        if (r->verdict == MC_ERROR && r->reason != NULL &&
            strncmp(r->reason, "the run was interrupted", 23) == 0) {
            char why[160];
            snprintf(why, sizeof(why), "interrupted while running (after %lld ms)",
                     (long long)r->duration_ms);
            if (rc == MC_OK)
                rc = mc_report_add_not_run(rep, r->id, r->version, r->area, r->title, r->file,
                                           why);
            mc_sresult_free(r);
            continue;
        }
        run->scenarios[k++] = *r;
    }
    run->n = k;
    /* The suite starts jobs in order and finishes every job it starts: the
     * results are the first `finished` jobs, the rest never started. */
    for (i = finished; i < total && rc == MC_OK; i++)
        rc = mc_report_add_not_run(rep, jobs[i].sc->id, jobs[i].version, jobs[i].sc->area,
                                   jobs[i].sc->title ? jobs[i].sc->title : jobs[i].sc->id,
                                   jobs[i].sc->doc.name, why_not);
    free(jobs);
    mc_report_summarize(rep);
    return rc;
}

static char *join_argv(char **argv)
{
    size_t len = 1, i;
    char *s;

    for (i = 0; argv[i] != NULL; i++)
        len += strlen(argv[i]) + 3;
    s = malloc(len);
    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (i = 0; argv[i] != NULL; i++) {
        if (i > 0)
            strncat(s, " ", len - strlen(s) - 1);
        strncat(s, argv[i], len - strlen(s) - 1);
    }
    return s;
}


void mc_cli_run_describe(mc_run_result_t *run, const mc_cli_run_opts_t *o, const char *url,
                         const char *profile_path)
{
    char joined[256] = "";
    size_t used = 0, k;
    time_t now = time(NULL);
    struct tm tmv;

    if (o->url != NULL && o->cmd == NULL) {
        run->target = strdup(url);
    } else if (o->url != NULL) {
        char *j = join_argv(o->cmd);
        size_t n = (j ? strlen(j) : 0) + strlen(url) + 8;
        run->target = malloc(n);
        if (run->target != NULL)
            snprintf(run->target, n, "%s (%s)", url, j ? j : "");
        free(j);
    } else {
        run->target = join_argv(o->cmd);
    }
    run->profile = strdup(profile_path);
    run->seed = (uint64_t)o->seed;
    run->fail_on = o->fail_on;
    gmtime_r(&now, &tmv);
    strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tmv);
    for (k = 0; o->versions[k] != NULL && used < sizeof(joined); k++) {
        int w = snprintf(joined + used, sizeof(joined) - used, "%s%s", k > 0 ? "," : "",
                         o->versions[k]);
        used += w > 0 ? (size_t)w : 0;
    }
    run->versions = strdup(joined);
}

/* The console's closing blocks, worst first: the causes of failure, the
 * INFO observations, the SKIP reasons, what was not verified, the
 * baseline's notes; then where the reports are and the summary line. */
static void print_closing(const mc_report_t *rep, const mc_cli_run_opts_t *o, int color,
                          int written)
{
    static char buf[MC_RUN_CONSOLE_BUF];
    int verbose = o->verbose;

    if (o->quiet) {
        mc_report_console_summary(rep, 0, buf, sizeof(buf));
        buf[strcspn(buf, "\n")] = '\0';
        printf("%s; exit %d\n", buf, mc_report_exit_code(rep));
        return;
    }
    if (verbose && mc_report_console_matrix(rep, buf, sizeof(buf)) > 0)
        fputs(buf, stdout);
    mc_report_console_causes(rep, color, verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    mc_report_console_observations(rep, verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    mc_report_console_skips(rep, verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    mc_report_console_missing(rep, verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    mc_report_console_baseline(rep, color, buf, sizeof(buf));
    fputs(buf, stdout);
    if (written)
        printf("reports: %s/{%s,%s,%s,%s,%s,%s/}\n", o->report_dir, MC_REPORT_JSON,
               MC_REPORT_JUNIT, MC_REPORT_SARIF, MC_REPORT_HTML, MC_REPORT_MD, MC_REPORT_TRACES);
    mc_report_console_summary(rep, color, buf, sizeof(buf));
    fputs(buf, stdout);
}

int mc_cli_run_report(mc_report_t *rep, const mc_cli_run_opts_t *o,
                      const mc_scenario_t *scs, size_t n_scs, size_t suite_n,
                      const char *why_not, const mc_baseline_t *baseline,
                      const mc_gate_t *gate, int color)
{
    mc_errbuf_t eb;
    int code, written;

    if (rep->run.partial &&
        list_not_run(rep, scs, n_scs, o->versions, suite_n, why_not) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory listing the scenarios that did not run\n");
    /* The gate first: the baseline lists what fails the run, which is the gate's say. */
    if (gate != NULL && mc_report_apply_gate(rep, gate) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory applying the gate\n");
    if (baseline != NULL && mc_report_apply_baseline(rep, baseline) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory applying the baseline\n");
    mc_errbuf_clear(&eb);
    written = mc_report_write_all(rep, o->report_dir, &eb) == MC_OK;
    if (!written)
        fprintf(stderr, "mcpcheck run: %s\n", eb.msg);
    print_closing(rep, o, color, written);
    code = mc_report_exit_code(rep);
    mc_report_free(rep);
    return code;
}
