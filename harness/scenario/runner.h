/*
 * runner.h - runs one scenario against a fresh target process.
 *
 * The runner spawns the target, runs the lifecycle (unless the scenario does
 * it itself), checks the scenario's requirements of the server, carries out
 * its steps, puts every message through the wire checks and the schema of
 * the negotiated version, shuts the target down, and fills a result. A crash
 * or hang of the target is an ERROR with its exit status and stderr tail; a
 * missing profile role is NOT-VERIFIED; an undeclared capability or a
 * version out of range is SKIP.
 */
#ifndef MC_SCENARIO_RUNNER_H
#define MC_SCENARIO_RUNNER_H

#include <stdint.h>

#include <json-c/json.h>

#include "client/process.h"
#include "scenario/result.h"
#include "scenario/scenario.h"
#include "schema/registry.h"

/* Defaults for step and scenario timing. */
#define MC_RUNNER_STEP_TIMEOUT_MS 5000
#define MC_RUNNER_SCENARIO_TIMEOUT_MS 60000
#define MC_RUNNER_NOTIFY_WITHIN_MS 2000
#define MC_RUNNER_QUIET_WINDOW_MS 100
#define MC_RUNNER_MAX_PAGES 100
#define MC_RUNNER_MAX_FOR_EACH 200
/* Notifications and server requests kept for expect_* steps. */
#define MC_RUNNER_MAX_INBOX 1024

typedef struct mc_runner_opts {
    char *const *argv;       /* the target command */
    const char *cwd;         /* its working directory, or NULL */
    mc_rlimits_t limits;
    const char *version;     /* protocol version to request */
    json_object *roles;      /* borrowed: the profile's role -> value map (may be NULL) */
    json_object *safe_tools; /* borrowed: tool names the profile allows calling (may be NULL) */
    int call_tools;          /* non-zero: every listed tool may be called (--call-tools) */
    mc_registry_t *registry; /* loaded registry for schema checks, or NULL for none */
    int step_timeout_ms;     /* 0 = MC_RUNNER_STEP_TIMEOUT_MS */
    int scenario_timeout_ms; /* 0 = MC_RUNNER_SCENARIO_TIMEOUT_MS */
    volatile int *stop;      /* when non-zero, stop at the next step (interrupted run) */
} mc_runner_opts_t;

/*
 * Runs sc at opts->version and fills *out (which the caller frees with
 * mc_sresult_free). Returns MC_OK whatever the verdict; MC_ENOMEM only when
 * the result itself could not be built.
 */
int mc_runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *opts,
                  mc_scenario_result_t *out);

#endif /* MC_SCENARIO_RUNNER_H */
