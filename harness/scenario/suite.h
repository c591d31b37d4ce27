/*
 * suite.h - runs many scenarios, in parallel, in a deterministic order.
 *
 * A suite is a list of (scenario, protocol version) jobs: each scenario runs
 * once per requested version inside its version range (once at its pinned
 * version if it pins one). Jobs run on N worker threads, each with a fresh
 * target process; results land in job order whatever the timing, and a
 * callback sees each one in that order as soon as it and its predecessors
 * are done.
 */
#ifndef MC_SCENARIO_SUITE_H
#define MC_SCENARIO_SUITE_H

#include <stddef.h>

#include "scenario/result.h"
#include "scenario/runner.h"
#include "scenario/scenario.h"

/* Worker threads at most. */
#define MC_SUITE_MAX_JOBS 64

/* Called with each finished result, in job order, one at a time. The
 * callback may annotate r (the gate's decisions on its checks); the result
 * stays the suite's. */
typedef void (*mc_suite_cb)(void *ctx, mc_scenario_result_t *r, size_t done, size_t total);

typedef struct mc_suite_opts {
    const char *const *versions; /* NULL-terminated versions to run */
    int jobs;                    /* worker threads (1..MC_SUITE_MAX_JOBS) */
    mc_runner_opts_t runner;     /* per-scenario options (version is set per job) */
    mc_suite_cb on_result;       /* may be NULL */
    void *cb_ctx;
} mc_suite_opts_t;

/*
 * Runs the scenarios and appends every result to run->scenarios (run->n).
 * Stops starting jobs once *opts->runner.stop is set and marks the run
 * partial. Returns MC_OK or MC_ENOMEM.
 */
int mc_suite_run(const mc_scenario_t *scenarios, size_t n, const mc_suite_opts_t *opts,
                 mc_run_result_t *run);

/* Number of jobs a suite would run (for --dry-run and progress). */
size_t mc_suite_count(const mc_scenario_t *scenarios, size_t n, const char *const *versions);

#endif /* MC_SCENARIO_SUITE_H */
