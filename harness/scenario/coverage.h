/*
 * coverage.h - which scenarios exercise which message paths.
 *
 * The rows are every request, result, notification and error path of the
 * five areas (resources, prompts, elicitation, logging, pagination) and the
 * lifecycle around them, per protocol version. A scenario covers a row when
 * one of its steps sends that request and expects that outcome, waits for
 * that notification or server request, or answers it that way. The table is
 * computed from the scenario files alone; nothing runs.
 */
#ifndef MC_SCENARIO_COVERAGE_H
#define MC_SCENARIO_COVERAGE_H

#include <stddef.h>

#include <json-c/json.h>

#include "scenario/scenario.h"

typedef struct mc_coverage_row {
    const char *message; /* "resources/read" */
    const char *path;    /* "result", "error -32002", "notification", "answer accept", ... */
    unsigned needs;      /* MC_VF_*: the row exists at the versions having all of these */
    unsigned lacks;      /* MC_VF_*: ... and none of these */
} mc_coverage_row_t;

/* True when row exists at version (a published version name). */
int mc_coverage_row_exists(const mc_coverage_row_t *row, const char *version);

/* The i-th row definition, or NULL past the end. */
const mc_coverage_row_t *mc_coverage_row(size_t i);

/*
 * Builds the table for the versions given (NULL-terminated): a new JSON
 * document {"rows": [{"message", "version", "path", "scenarios": [...]}]}
 * (caller puts it), with the rows that exist at each version. A scenario
 * covers a row at a version it runs at (in its versions, with the features
 * it needs). *empty receives the number of rows no scenario covers.
 */
json_object *mc_coverage_build(const mc_scenario_t *scs, size_t n, const char *const *versions,
                               size_t *empty);

#endif /* MC_SCENARIO_COVERAGE_H */
