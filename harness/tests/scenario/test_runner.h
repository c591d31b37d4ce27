/*
 * test_runner.h - what the runner's tests (test_runner.c) and the suite's
 * (test_runner_suite.c) share: the targets and the registry main() sets up,
 * and the helpers that build options and read results.
 */
#ifndef MC_TEST_RUNNER_H
#define MC_TEST_RUNNER_H

#include <json-c/json.h>

#include "scenario/runner.h"
#include "scenario/suite.h"
#include "schema/registry.h"

extern const char *refserver, *test_target, *schemas_dir;
extern mc_registry_t *registry;

/* A scenario that pings and holds the answer to its own check (ping is a
 * method of the versions with a handshake: ALL_PING says so). */
#define ALL_PING "\"versions\": \"..2025-11-25\", "
#define PING_SCENARIO(versions)                                                                   \
    SC_HEAD("area/ping/held")                                                                      \
    versions "\"steps\": [{\"request\": \"ping\", \"expect\": \"result\", "                       \
             "\"assert\": [{\"path\": \"result\", \"type\": \"object\", "                          \
             "\"check\": \"area/ping/held\"}]}]}"

/* Runner options for argv at version (argv stays owned by the caller). */
mc_runner_opts_t opts_for(char *const *argv, const char *version);

/* The check with this id, or NULL. */
const mc_check_result_t *find_check(const mc_scenario_result_t *r, const char *id);

/* Fails with the result's reason and failing checks when the verdict differs. */
void expect_verdict(const mc_scenario_result_t *r, mc_verdict_t want);

/* Runs the suite's tests (test_runner_suite.c), a group of their own with
 * their own scenario folder (sc_files.h keeps one per source file). Returns
 * the number that failed. */
int run_suite_tests(void);

#endif
