/*
 * cmd_run.c - `mcpcheck run`: the conformance run. Its options are in
 * run_options.c, the version probe in run_probe.c and the report it writes
 * in run_report.c; this file starts the run, shows it, and ends it.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "cli/scenarios_load.h"
#include "client/target.h"
#include "core/clock.h"
#include "core/limits.h"
#include "report/report.h"
#include "scenario/profile.h"
#include "scenario/suite.h"
#include "schema/registry.h"

/* Room for one result's console text. */
#define MC_RUN_RESULT_BUF 16384

static volatile int stop_flag;

static void on_signal(int sig)
{
    static const char msg[] = "\nmcpcheck run: interrupted; stopping the scenarios under way, "
                              "then writing a partial report (again to stop at once)\n";
    static const char msg2[] = "\nmcpcheck run: interrupted again; killing the servers and "
                               "writing the report\n";

    if (stop_flag > 1) {
        /* Third signal: give up without a report. */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    if (stop_flag == 1) {
        /* Second signal: no more shutdown graces (see runner.c). */
        stop_flag = 2;
        if (write(STDERR_FILENO, msg2, sizeof(msg2) - 1) < 0)
            stop_flag = 2;
        return;
    }
    stop_flag = 1;
    if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
        stop_flag = 1;
}

typedef struct printer {
    int color;
    int verbose;
    int quiet;
    int tty;                    /* redraw a progress line */
    mc_fail_on_t fail_on;
    const mc_baseline_t *baseline;
    const mc_gate_t *gate;      /* may be NULL */
    size_t failed;              /* failures the baseline does not list, so far */
    int64_t t0;
    char area[128];             /* the area whose runs are being counted (not a terminal) */
    size_t area_count[MC_VERDICT_COUNT];
} printer_t;

/* Prints the line of the area counted so far, and starts over. */
static void flush_area(printer_t *p)
{
    char buf[512];

    if (p->area[0] == '\0')
        return;
    mc_report_console_area(p->area, p->area_count, buf, sizeof(buf));
    fputs(buf, stdout);
    p->area[0] = '\0';
    memset(p->area_count, 0, sizeof(p->area_count));
}

static void on_result(void *ctx, mc_scenario_result_t *r, size_t done, size_t total)
{
    printer_t *p = ctx;
    static char buf[MC_RUN_RESULT_BUF];

    /* The gate's decisions are the result's from here on: the console, the
     * count of failures and every report read them. */
    if (mc_gate_apply(p->gate, r) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory applying the gate to %s\n", r->id);
    if (mc_sresult_fails(r, p->fail_on) &&
        mc_baseline_result_reason(p->baseline, r, p->fail_on) == NULL)
        p->failed++;
    if (p->quiet)
        return;
    if (p->tty)
        fputs("\r\033[K", stdout);
    if (p->verbose) {
        mc_report_console_result(r, p->baseline, p->fail_on, p->color, 1, buf, sizeof(buf));
        fputs(buf, stdout);
    } else if (!p->tty) {
        /* Not a terminal: a short line per area (results come in job order,
         * area by area). */
        if (strcmp(p->area, r->area != NULL ? r->area : "") != 0)
            flush_area(p);
        snprintf(p->area, sizeof(p->area), "%s", r->area != NULL ? r->area : "");
        p->area_count[r->verdict]++;
        if (done == total)
            flush_area(p);
    }
    if (p->tty && done < total) {
        mc_report_console_progress(done, total, p->failed, mc_now_ms() - p->t0, p->color, buf,
                                   sizeof(buf));
        fputs(buf, stdout);
    }
    fflush(stdout);
}

/* A run's state, from the command line to the report. */
typedef struct run_ctx {
    mc_cli_run_opts_t o;
    mc_cli_scenarios_t scs;
    mc_profile_t prof;
    mc_baseline_t baseline;
    mc_gate_t gate;
    mc_registry_t *reg;
    mc_target_t *tgt; /* the server the HTTP scenarios share, or NULL */
    mc_suite_opts_t so;
    printer_t pr;
    mc_scenario_result_t probe_res[MC_V_COUNT]; /* probe results the report carries */
    size_t n_probe_res;
    const char *spoken[MC_V_COUNT + 1];
    json_object *behaviours; /* what the behaviour probe saw, by version (or NULL) */
    char def_profile[4200];
} run_ctx_t;

/* The record of the target's failures the runs share (runner.h). */
static mc_runner_shared_t shared;

/* Loads the scenarios to run. Returns MC_OPTS_CONTINUE or an exit code,
 * having said why (nothing to free then). */
static int load_scenarios(run_ctx_t *c)
{
    if (mc_cli_scenarios_load(c->o.scenarios.v, c->o.scenarios.n, c->o.filters.v,
                              c->o.filters.n, &c->scs, "mcpcheck run") != 0)
        return MC_EXIT_USAGE;
    if (c->o.with_library && c->o.scenarios.n > 0 &&
        mc_cli_scenarios_add_library(&c->scs, c->o.filters.v, c->o.filters.n, "mcpcheck run") !=
            0) {
        mc_cli_scenarios_free(&c->scs);
        return MC_EXIT_USAGE;
    }
    if (mc_cli_scenarios_hold_quotes(&c->scs, "mcpcheck run") != 0)
        c->scs.failed++;
    if (c->scs.failed > 0) {
        fprintf(stderr, "mcpcheck run: %zu scenario file%s did not load (see above); fix them "
                        "or check them with 'mcpcheck lint'\n",
                c->scs.failed, c->scs.failed == 1 ? "" : "s");
        mc_cli_scenarios_free(&c->scs);
        return MC_EXIT_USAGE;
    }
    if (c->scs.n == 0) {
        fprintf(stderr, "mcpcheck run: no scenario matches%s%s%s\n",
                c->o.filters.n > 0 ? " " : "", c->o.filters.n > 0 ? c->o.filters.v[0] : "",
                c->o.filters.n > 1 ? " (nor any other --filter)" : "");
        mc_cli_scenarios_free(&c->scs);
        return MC_EXIT_USAGE;
    }
    return MC_OPTS_CONTINUE;
}

/* --dry-run: what would run, with the sentences it checks. */
static int dry_run(const run_ctx_t *c)
{
    const char *const *versions = c->o.versions;
    size_t k;

    for (k = 0; k < c->scs.n; k++) {
        const mc_scenario_t *sc = &c->scs.v[k];
        printf("%s  (%s)\n", sc->id, sc->title);
        for (size_t r = 0; r < sc->n_reqs; r++) {
            char ref[MC_CHECK_MAX_PAGE + 16];
            mc_check_ref_string(&sc->reqs[r], versions[1] == NULL ? versions[0] : NULL, ref,
                                sizeof(ref));
            printf("    %-6s %s  [%s]\n      %s\"%s\"\n", mc_level_name(sc->reqs[r].level),
                   sc->reqs[r].check, sc->reqs[r].author ? "your rule" : ref,
                   sc->reqs[r].author ? "your rule: " : "", sc->reqs[r].quote);
            if (sc->reqs[r].interpretation != NULL)
                printf("      reading: %s\n", sc->reqs[r].interpretation);
        }
    }
    printf("%zu scenarios, %zu runs\n", c->scs.n, mc_suite_count(c->scs.v, c->scs.n, versions));
    return MC_EXIT_OK;
}

/* Loads the baseline, the profile and the schemas. Returns MC_OPTS_CONTINUE
 * or an exit code, having said why. */
static int load_inputs(run_ctx_t *c)
{
    mc_errbuf_t eb;

    if (c->o.baseline != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_baseline_load(c->o.baseline, &c->baseline, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck run: baseline: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
    }
    if (c->o.gate != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_gate_load(c->o.gate, &c->gate, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck run: gate: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
        /* The command line's threshold wins over the file's. */
        if (c->gate.has_fail_on && c->o.fail_on_opt < 0 && !c->o.strict)
            c->o.fail_on = c->gate.fail_on;
    }
    if (c->o.profile == NULL) {
        snprintf(c->def_profile, sizeof(c->def_profile), "%s/profiles/default.json",
                 mc_cli_default_scenarios());
        c->o.profile = c->def_profile;
    }
    mc_errbuf_clear(&eb);
    if (mc_profile_load(c->o.profile, &c->prof, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck run: profile: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&c->reg, NULL, MC_REGISTRY_BUNDLED, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck run: %s\n", eb.msg);
        return MC_EXIT_INCOMPLETE;
    }
    for (const char *const *v = mc_registry_versions(); *v != NULL; v++) {
        /* Load what is bundled; versions without schemas are not schema-checked. */
        mc_errbuf_t e2;
        mc_errbuf_clear(&e2);
        mc_registry_load(c->reg, *v, &e2);
    }
    return MC_OPTS_CONTINUE;
}

/* Sets up the suite's options and the console printer. */
static void set_up_suite(run_ctx_t *c)
{
    mc_suite_opts_t *so = &c->so;

    memset(so, 0, sizeof(*so));
    so->versions = c->o.versions;
    so->jobs = (int)c->o.jobs;
    so->runner.argv = c->o.cmd;
    so->runner.roles = c->prof.roles;
    so->runner.safe_tools = c->prof.safe_tools;
    so->runner.args = c->prof.args;
    so->runner.call_tools = c->o.call_tools;
    so->runner.user_profile = c->prof.path != NULL && strcmp(c->prof.path, c->def_profile) != 0;
    so->runner.registry = c->reg;
    so->runner.step_timeout_ms = (int)c->o.timeout;
    so->runner.startup_timeout_ms = (int)c->o.startup;
    /* A scenario must be able to wait out the start-up budget and then run. */
    so->runner.scenario_timeout_ms = (int)c->o.startup + MC_RUNNER_SCENARIO_TIMEOUT_MS;
    so->runner.stop = &stop_flag;
    so->runner.shared = &shared;
    so->runner.url = c->o.url;
    so->runner.allow_remote = c->o.allow_remote;
    so->runner.http_transport = c->o.transport;
    so->runner.fresh_process = c->o.fresh;
    c->pr.tty = isatty(STDOUT_FILENO);
    c->pr.color = c->pr.tty && (getenv("NO_COLOR") == NULL || getenv("NO_COLOR")[0] == '\0');
    c->pr.verbose = c->o.verbose;
    c->pr.quiet = c->o.quiet;
    c->pr.fail_on = c->o.fail_on;
    c->pr.baseline = c->o.baseline != NULL ? &c->baseline : NULL;
    c->pr.gate = c->o.gate != NULL ? &c->gate : NULL;
    so->on_result = on_result;
    so->cb_ctx = &c->pr;
}

/* Catches SIGINT and SIGTERM (a partial report) and takes the target's
 * orphans, then starts a server the HTTP scenarios share (--url with
 * SERVER_CMD, without --fresh-process). Returns MC_OPTS_CONTINUE or
 * MC_EXIT_INCOMPLETE, having said why. */
static int start_target(run_ctx_t *c)
{
    struct sigaction sa;
    mc_target_opts_t to;
    mc_errbuf_t eb;

    /* Orphans of a target (a daemonizing server, a setsid grandchild) come
     * back to us, so that they can be found and killed. */
    mc_target_supervise();
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (c->o.url == NULL || c->o.cmd == NULL || c->o.fresh)
        return MC_OPTS_CONTINUE;
    memset(&to, 0, sizeof(to));
    to.argv = c->o.cmd;
    to.url = c->o.url;
    to.serve_only = 1;
    mc_errbuf_clear(&eb);
    if (mc_target_open(&c->tgt, &to, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck run: the server did not start: %s\n", eb.msg);
        return MC_EXIT_INCOMPLETE;
    }
    c->so.runner.url = mc_target_url(c->tgt);
    return MC_OPTS_CONTINUE;
}

/* What the server speaks: the versions to test unless some were named, and
 * in any case the versions a counter-offer must come from. */
static void probe(run_ctx_t *c)
{
    int stateless = c->o.probe;

    c->n_probe_res = 0;
    /* Versions named on the command line are tested as named. The
     * initialize era is still asked, since a counter-offer must name a
     * version the server speaks (${server_versions}), but server/discover
     * is sent only when a stateless version was named. */
    for (size_t k = 0; c->o.versions[k] != NULL; k++)
        stateless |= mc_version_has(c->o.versions[k], MC_VF_STATELESS) != 0;
    if (!stop_flag &&
        mc_cli_run_probe(&c->so.runner, stateless, c->so.jobs, c->spoken, c->probe_res,
                         &c->n_probe_res) > 0) {
        c->so.runner.server_versions = c->spoken;
        if (c->o.probe) {
            size_t k;
            for (k = 0; c->spoken[k] != NULL; k++)
                c->o.versions[k] = c->spoken[k];
            c->o.versions[k] = NULL;
        }
    } else if (c->o.probe && !stop_flag) {
        printf("version probe: no version was agreed; testing the default set\n");
    }
}

/* The probe with its console lines sent nowhere (-q prints the summary
 * only); what it finds is kept all the same. */
static void probe_quietly(run_ctx_t *c)
{
    int saved, null_fd;

    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null_fd >= 0)
        dup2(null_fd, STDOUT_FILENO);
    probe(c);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (null_fd >= 0)
        close(null_fd);
}

/* Runs the suite into run; returns how many results the suite produced. */
static size_t run_suite(run_ctx_t *c, mc_run_result_t *run)
{
    int64_t t0 = mc_now_ms();
    size_t suite_n;

    c->pr.t0 = t0;
    if (mc_suite_run(c->scs.v, c->scs.n, &c->so, run) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory during the run; the report is partial\n");
    /* The probes' own results follow the suite's: a request the server left
     * unanswered (its FAIL), or, for a target the probes gave up on, the
     * failed probe, the one result, with the findings that explain why. */
    suite_n = run->n;
    if (c->n_probe_res > 0) {
        mc_scenario_result_t *grown =
            realloc(run->scenarios, (run->n + c->n_probe_res) * sizeof(*grown));
        if (grown != NULL) {
            run->scenarios = grown;
            for (size_t k = 0; k < c->n_probe_res; k++) {
                run->scenarios[run->n++] = c->probe_res[k];
                memset(&c->probe_res[k], 0, sizeof(c->probe_res[k]));
            }
        }
    }
    for (size_t k = 0; k < c->n_probe_res; k++)
        mc_sresult_free(&c->probe_res[k]);
    c->n_probe_res = 0;
    run->duration_ms = mc_now_ms() - t0;
    if (c->tgt != NULL) {
        char how[200];
        mc_target_stop(c->tgt, how, sizeof(how));
    }
    if (c->pr.tty && !c->pr.quiet)
        fputs("\r\033[K", stdout);
    /* An interrupted run leaves its last area's line unprinted. */
    if (!c->pr.quiet)
        flush_area(&c->pr);
    /* Processes the targets left behind that no scenario could attribute. */
    mc_target_kill_orphans();
    return suite_n;
}

/* Marks a run that was interrupted or stopped early as partial, with why. */
static void mark_partial(mc_run_result_t *run)
{
    if (stop_flag)
        run->partial = 1;
    if (shared.abort && run->partial_why == NULL) {
        char why[sizeof(shared.reason) + 64];
        snprintf(why, sizeof(why), "the run stopped early: the server cannot be tested: %s",
                 shared.reason);
        run->partial_why = strdup(why);
    }
    if (shared.abort)
        fprintf(stderr,
                "mcpcheck run: stopped early: the server cannot be tested (%d run%s failed before "
                "any completed): %s\n",
                (int)shared.unusable, shared.unusable == 1 ? "" : "s", shared.reason);
}

/* Runs what c holds (inputs loaded) and writes the report; returns the exit code. */
static int run_and_report(run_ctx_t *c)
{
    mc_run_result_t run;
    mc_report_t rep;
    char not_run_why[700];
    size_t suite_n;
    int code;

    set_up_suite(c);
    code = start_target(c);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (c->o.quiet)
        probe_quietly(c);
    else
        probe(c);
    c->behaviours = mc_cli_run_behaviours(&c->so.runner, (const char *const *)c->o.versions,
                                          c->scs.v, c->scs.n, c->so.jobs, c->o.quiet);
    c->so.runner.behaviours = c->behaviours;
    memset(&run, 0, sizeof(run));
    mc_cli_run_describe(&run, &c->o, c->so.runner.url, c->prof.path);
    suite_n = run_suite(c, &run);
    mark_partial(&run);
    mc_run_summarize(&run);
    mc_report_init(&rep, &run, NULL);
    snprintf(not_run_why, sizeof(not_run_why), "%s%s",
             shared.abort ? "not started: the run stopped early, the server cannot be tested: "
                          : "not started: the run was interrupted",
             shared.abort ? shared.reason : "");
    return mc_cli_run_report(&rep, &c->o, c->scs.v, c->scs.n, suite_n, not_run_why,
                             c->pr.baseline, c->pr.gate, c->pr.color);
}

int mc_cmd_run(int argc, char **argv)
{
    static run_ctx_t c;
    int code;

    memset(&c, 0, sizeof(c));
    code = mc_cli_run_options(argc, argv, &c.o);
    if (code != MC_OPTS_CONTINUE)
        return code;
    code = load_scenarios(&c);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (c.o.dry) {
        code = dry_run(&c);
        mc_cli_scenarios_free(&c.scs);
        return code;
    }
    code = load_inputs(&c);
    if (code == MC_OPTS_CONTINUE)
        code = run_and_report(&c);
    mc_baseline_free(&c.baseline);
    mc_gate_free(&c.gate);
    mc_registry_free(c.reg);
    json_object_put(c.behaviours);
    mc_target_free(c.tgt);
    mc_profile_free(&c.prof);
    mc_cli_scenarios_free(&c.scs);
    return code;
}
