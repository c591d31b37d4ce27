/*
 * builtin.h - the check registry: the checks the harness makes on its own
 * (wire checks, schema checks and the pagination walk), each with a stable
 * id, the spec sentence it holds (quoted verbatim, with its page per
 * version, keyed by the version table's names: MC_VN_* of core/version.h)
 * and the level of that sentence's keyword. Part of the judge layer.
 */
#ifndef MC_JUDGE_BUILTIN_H
#define MC_JUDGE_BUILTIN_H

#include <stddef.h>

#include "judge/check.h"

/* The built-in check with this id, or NULL. */
const mc_check_def_t *mc_builtin_check(const char *id);

/* The i-th built-in check (0-based), or NULL past the end. */
const mc_check_def_t *mc_builtin_check_at(size_t i);

/*
 * The built-in check of the Streamable HTTP transport (an "http/..." id) with
 * this id, or NULL (also for NULL). These are kept apart from the checks above:
 * mc_builtin_check and mc_builtin_check_at do not return them.
 */
const mc_check_def_t *mc_builtin_http_check(const char *id);

/*
 * The id a step names when what it does is set-up, not a rule of the spec:
 * a step reporting to it that cannot be carried out (no answer in time, a
 * variable that does not resolve) makes the scenario NOT-VERIFIED, never
 * FAIL.
 */
#define MC_CHECK_HARNESS_STEP "harness/step"

/* True for MC_CHECK_HARNESS_STEP: an id steps may name that is no spec check. */
int mc_check_is_harness(const char *id);

/*
 * The schema check for a message: "schema/<area>" by the method (or the
 * method a response answers), "schema/pagination" for nextCursor, and
 * "schema/messages" for the envelope and error objects. Static string.
 */
const char *mc_schema_check_for(const char *method, const char *instance_path);

#endif /* MC_JUDGE_BUILTIN_H */
