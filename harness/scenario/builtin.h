/*
 * builtin.h - checks the harness makes on its own (wire checks, schema
 * checks and the pagination walk), each with a stable id, the spec sentence
 * it holds (quoted verbatim, with its page per version) and the level of
 * that sentence's keyword; plus the syntax rules for ids, spec references,
 * versions and keywords.
 */
#ifndef MC_SCENARIO_BUILTIN_H
#define MC_SCENARIO_BUILTIN_H

#include <stddef.h>

#include "scenario/scenario.h"

/*
 * The check registry: every check the harness makes on its own, in one
 * table, each with its quoted sentence, level and refs per version.
 */

/* The built-in check with this id, or NULL. */
const mc_check_def_t *mc_builtin_check(const char *id);

/* The i-th built-in check (0-based), or NULL past the end. */
const mc_check_def_t *mc_builtin_check_at(size_t i);

/*
 * The id a step names when what it does is set-up, not a rule of the spec:
 * a step reporting to it that cannot be carried out (no answer in time, a
 * variable that does not resolve) makes the scenario ERROR, never FAIL.
 */
#define MC_CHECK_HARNESS_STEP "harness/step"

/* True for MC_CHECK_HARNESS_STEP: an id steps may name that is no spec check. */
int mc_check_is_harness(const char *id);

/* Bits of mc_check_keywords(). */
#define MC_KW_MUST (1u << MC_LEVEL_MUST)
#define MC_KW_SHOULD (1u << MC_LEVEL_SHOULD)
#define MC_KW_MAY (1u << MC_LEVEL_MAY)

/*
 * The RFC 2119 keywords a quote carries, as MC_KW_* bits: upper-case whole
 * words MUST, REQUIRED, SHALL (MUST); SHOULD, RECOMMENDED (SHOULD); MAY,
 * OPTIONAL (MAY). "NOT" after them changes nothing. 0 for none.
 */
unsigned mc_check_keywords(const char *quote);

/* "MUST and SHOULD", "no RFC 2119 keyword", ... into buf. */
void mc_check_keywords_describe(unsigned kw, char *buf, size_t n);

/* True when level is one of the quote's keywords, or INFO for a quote with none. */
int mc_check_level_fits(mc_level_t level, const char *quote);

/* "page#anchor" (anchor optional), no version prefix, no spaces, at most MC_CHECK_MAX_PAGE. */
int mc_check_page_ok(const char *page);

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
