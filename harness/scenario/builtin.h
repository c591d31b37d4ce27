/*
 * builtin.h - checks the harness makes on its own (wire checks and the
 * pagination walk), each with a stable id, a level and the spec requirement
 * it holds; plus the syntax rules for ids, spec references and versions.
 */
#ifndef MC_SCENARIO_BUILTIN_H
#define MC_SCENARIO_BUILTIN_H

#include <stddef.h>

#include "scenario/scenario.h"

typedef struct mc_builtin_check {
    const char *id;
    mc_level_t level;
    const char *ref;  /* "2025-06-18/basic/transports#stdio" */
    const char *text; /* the requirement sentence */
} mc_builtin_check_t;

/* The built-in check with this id, or NULL. */
const mc_builtin_check_t *mc_builtin_check(const char *id);

/* The i-th built-in check (0-based), or NULL past the end. */
const mc_builtin_check_t *mc_builtin_check_at(size_t i);

/*
 * The schema check for a message: "schema/<area>" by the method (or the
 * method a response answers), "schema/pagination" for nextCursor, and
 * "schema/messages" for the envelope and error objects. Static string.
 */
const char *mc_schema_check_for(const char *method, const char *instance_path);

/* Ids: lowercase letters, digits, '-', '_', '.', '/' ; at least one '/'. */
int mc_check_id_ok(const char *id);

/* "YYYY-MM-DD/path#anchor" (the anchor optional). */
int mc_spec_ref_ok(const char *ref);

/* "YYYY-MM-DD". */
int mc_version_name_ok(const char *v);

#endif /* MC_SCENARIO_BUILTIN_H */
