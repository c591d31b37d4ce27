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

/*
 * The built-in check with this id, or NULL: the wire, schema and pagination
 * checks, which a scenario's steps may name without declaring them. The
 * checks of the Streamable HTTP transport are not among them (see
 * mc_builtin_http_check).
 */
const mc_check_def_t *mc_builtin_check(const char *id);

/*
 * The i-th check of the whole registry (0-based), or NULL past the end: the
 * checks mc_builtin_check finds, then those of the Streamable HTTP transport.
 * This is the listing (`mcpcheck list`) and what the quote test holds to the
 * spec pages.
 */
const mc_check_def_t *mc_builtin_check_at(size_t i);

/*
 * The built-in check of the Streamable HTTP transport (an "http/..." id) with
 * this id, or NULL (also for NULL). mc_builtin_check does not return these (a
 * stdio run never makes them); mc_builtin_check_at lists them last.
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
