/*
 * run.h - the pieces of `mcpcheck run` (cmd_run.c): its options
 * (run_options.c), the version probe (run_probe.c) and the report it writes
 * (run_report.c).
 */
#ifndef MC_CLI_RUN_H
#define MC_CLI_RUN_H

#include <stddef.h>

#include "cli/options.h"
#include "core/version.h"
#include "report/report.h"
#include "scenario/runner.h"
#include "scenario/scenario.h"

#define MC_RUN_DEFAULT_REPORT_DIR "reports/latest"
/* --scenarios paths at most. */
#define MC_RUN_MAX_PATHS 64
/* --spec-version options at most. */
#define MC_RUN_MAX_VERSION_OPTS 32

/* What the command line asks of `mcpcheck run`. */
typedef struct mc_cli_run_opts {
    mc_opt_list_t scenarios;     /* --scenarios */
    mc_opt_list_t spec_versions; /* --spec-version, as given ("all" or a version) */
    mc_opt_list_t filters;       /* --filter: globs, any of which selects a scenario */
    const char *profile, *report_dir, *baseline, *gate, *url;
    long jobs, timeout, startup, seed;
    int strict, call_tools, dry, fresh, allow_remote, verbose, quiet;
    int transport;               /* --transport: an MC_TARGET_HTTP_* (0: auto) */
    int fail_on_opt;             /* --fail-on: index in fail, warn, info; -1 when not given */
    int with_library;            /* --with-library: the library too, beside --scenarios */
    char **cmd;                  /* after "--", NULL-terminated; NULL when none */
    /* Derived by mc_cli_run_options(): */
    const char *versions[MC_V_COUNT + 1]; /* to test, oldest first (the default set
                                             unless --spec-version was given) */
    int probe;                   /* no --spec-version: test what the server speaks */
    mc_fail_on_t fail_on;        /* --fail-on, or warn for --strict, or the gate file's, or
                                    fail (set by cmd_run.c once the gate file is read) */
    /* Storage of the lists. */
    char *paths_v[MC_RUN_MAX_PATHS];
    char *versions_v[MC_RUN_MAX_VERSION_OPTS];
    char *filters_v[MC_RUN_MAX_PATHS];
} mc_cli_run_opts_t;

/*
 * Reads `mcpcheck run`'s arguments into o (which it initializes) and checks
 * how they go together. Returns MC_OPTS_CONTINUE, or the exit code to
 * return (help printed, or a usage error explained on stderr).
 */
int mc_cli_run_options(int argc, char **argv, mc_cli_run_opts_t *o);

/*
 * The versions the target speaks: each version the harness can request is
 * offered to a fresh target, the initialize era first (newest first), then,
 * when stateless is set, the stateless versions (server/discover); once one
 * probe completed a handshake, the rest go on up to jobs threads over stdio
 * (each target a process of its own), taken in order. Fills out[] (MC_V_COUNT + 1
 * entries, NULL-terminated, oldest first) with the ones it accepted as
 * offered or, when it accepted none, the known versions it answered
 * instead, and prints the outcome in one line. Returns how many; 0 when no
 * probe completed (the target cannot be asked) or the run was interrupted.
 * results[] (MC_V_COUNT entries) receives the probe results the report
 * carries, *n_results says how many (the caller frees each with
 * mc_sresult_free): a probe whose request a running server left unanswered
 * (its FAIL), and, when no probe could complete a handshake, the last failed
 * one; ro->shared is then marked given up (abort, with the reason) and
 * *ro->stop set, so that the run starts nothing.
 */
size_t mc_cli_run_probe(const mc_runner_opts_t *ro, int stateless, int jobs, const char **out,
                        mc_scenario_result_t *results, size_t *n_results);

/*
 * The behaviour probe (scenario/runner.h, mc_runner_behaviours) at each of
 * versions (NULL-terminated), when one of the n scenarios has a role it can
 * fill (scenario/shapes.h, mc_role_seen_by; resource.watched), made on up to
 * jobs threads over stdio (each has a process of its own; one at a time over
 * HTTP) and taken in version order; says in a line per version what it saw,
 * unless quiet. A probe that ended early stands for the versions after it. Returns a new object,
 * negotiated version -> what the probe saw there, or NULL when no probe ran
 * (none needed, interrupted, out of memory).
 */
json_object *mc_cli_run_behaviours(const mc_runner_opts_t *ro, const char *const *versions,
                                   const mc_scenario_t *scs, size_t n, int jobs, int quiet);

/*
 * Fills what the report says of the run before it starts: the target (the
 * command, the URL, or both; url is the one the run uses), the profile path,
 * seed, the threshold (o->fail_on), start time and tested versions. Out of memory leaves a
 * field NULL.
 */
void mc_cli_run_describe(mc_run_result_t *run, const mc_cli_run_opts_t *o, const char *url,
                         const char *profile_path);

/*
 * Makes the report of a finished run and writes it: after an interruption or
 * an early stop (rep->run.partial) the scenarios that did not run are listed
 * with why_not; the gate and the baseline (either may be NULL) are applied;
 * every output is written under o->report_dir; the console gets (-v: the
 * version matrix, and every group), the causes of failure with where each
 * shows first, the INFO observations and SKIP reasons grouped, what was not
 * verified, the baseline's notes, the reports' folder and the summary line
 * (-q: the summary line and the exit code only). suite_n: how many results the
 * suite produced (a failed version probe appended after them is not one).
 * Returns the run's exit code. Frees rep.
 */
int mc_cli_run_report(mc_report_t *rep, const mc_cli_run_opts_t *o,
                      const mc_scenario_t *scs, size_t n_scs, size_t suite_n,
                      const char *why_not, const mc_baseline_t *baseline,
                      const mc_gate_t *gate, int color);

#endif /* MC_CLI_RUN_H */
