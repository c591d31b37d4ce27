/*
 * scenarios_load.h - finding and loading the scenario library for the
 * subcommands that work on scenarios (run, list, lint, coverage).
 */
#ifndef MC_CLI_SCENARIOS_LOAD_H
#define MC_CLI_SCENARIOS_LOAD_H

#include <stddef.h>

#include "scenario/scenario.h"

typedef struct mc_cli_scenarios {
    mc_scenario_t *v;  /* loaded scenarios, sorted by path */
    size_t n;
    size_t failed;     /* files that did not load (problems printed) */
    char root[4096];   /* the scenarios folder ids are relative to */
} mc_cli_scenarios_t;

/* The scenario library folder used when --scenarios is not given: the data
 * folder's scenarios/ (core/datadir.h), else ./scenarios. */
const char *mc_cli_default_scenarios(void);

/*
 * Loads every scenario under paths (files or folders), keeping those whose
 * id matches one of the n_filters globs (all of them when n_filters is 0).
 * Problems are printed to stderr as "file:line:col: message". Returns 0, or
 * -1 when no file could be found.
 */
int mc_cli_scenarios_load(char *const *paths, size_t n_paths, char *const *filters,
                          size_t n_filters, mc_cli_scenarios_t *out, const char *prog);

/*
 * Adds the scenario library (mc_cli_default_scenarios()) to s, which holds
 * the user's own scenarios: the library's files matching the filters are
 * loaded as a run without --scenarios loads them and appended. A library
 * scenario whose id one of s already has is not added: the clash is printed
 * to stderr and counted in s->failed (ids are paths below each folder, so a
 * user's file named like a library one would make reports ambiguous).
 * Returns 0, or -1 when the library cannot be found or memory runs out (said
 * on stderr).
 */
int mc_cli_scenarios_add_library(mc_cli_scenarios_t *s, char *const *filters, size_t n_filters,
                                 const char *prog);

/*
 * Holds the spec quotes of every loaded scenario to the sentences mcpcheck
 * knows (the built-in checks' and the scenario library's, compiled in): a
 * scenario with a check whose quote is not one of them is printed as
 * "file:line:col: problem" to stderr, dropped from s and counted in
 * s->failed. Returns 0, or -1 when out of memory (said on stderr).
 */
int mc_cli_scenarios_hold_quotes(mc_cli_scenarios_t *s, const char *prog);

void mc_cli_scenarios_free(mc_cli_scenarios_t *s);

#endif /* MC_CLI_SCENARIOS_LOAD_H */
