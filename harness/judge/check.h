/*
 * check.h - what a check is: a stable id, the level of the spec sentence it
 * quotes, the sentence verbatim, its page and anchor per protocol version,
 * and the harness's reading kept apart; the rules these follow (RFC 2119
 * keywords, "page#anchor", ids and version names). Scenario files declare
 * checks in this form (scenarios/README.md), and so does the registry of
 * built-in checks (builtin.h). The judge layer owns the model; the scenario
 * layer above includes it. Depends on nothing else of the harness.
 */
#ifndef MC_JUDGE_CHECK_H
#define MC_JUDGE_CHECK_H

#include <stddef.h>

/*
 * The level of a check is the RFC 2119 keyword of the sentence it quotes:
 * MUST (MUST, MUST NOT, REQUIRED, SHALL), SHOULD (SHOULD, SHOULD NOT,
 * RECOMMENDED), MAY (MAY, OPTIONAL), or INFO for a sentence without an
 * upper-case keyword (an example, a table row, descriptive prose).
 */
typedef enum mc_level {
    MC_LEVEL_MUST = 0,
    MC_LEVEL_SHOULD,
    MC_LEVEL_MAY,
    MC_LEVEL_INFO
} mc_level_t;

/* "MUST", "SHOULD", "MAY", "INFO". */
const char *mc_level_name(mc_level_t level);
/* Parses a level name; returns 0 on success, -1 (and *out untouched) otherwise. */
int mc_level_parse(const char *s, mc_level_t *out);

/* Protocol versions a check may name in its refs. */
#define MC_CHECK_MAX_REFS 8
/* Bytes of a quote, an interpretation or a "page#anchor". */
#define MC_CHECK_MAX_QUOTE 2048
#define MC_CHECK_MAX_INTERPRETATION 4096
#define MC_CHECK_MAX_PAGE 256
/* Bytes of an author's link ("https://..."). */
#define MC_CHECK_MAX_LINK 1024

/* Where a check's sentence stands at one protocol version. */
typedef struct mc_check_ref {
    const char *version; /* "2025-06-18" */
    const char *page;    /* "basic/utilities/progress#progress-flow" (no version prefix) */
    const char *quote;   /* the wording at this version, or NULL: the check's quote */
    int has_level;       /* the sentence's keyword differs at this version: */
    mc_level_t level;    /* its level here (when has_level) */
} mc_check_ref_t;

/*
 * One check: a stable id, the level of its quoted sentence, the sentence
 * itself (verbatim from the spec), where it stands per version, and the
 * harness's own reading kept apart (NULL when the quote says it all). An
 * author's check (author set) is a rule of the user's own product instead:
 * its level is the author's, quote holds the author's words, refs is empty.
 * Scenario checks borrow their strings from the scenario document; the
 * built-in ones are static.
 */
typedef struct mc_check_def {
    const char *check; /* check id, e.g. "resources/read/not-found" */
    mc_level_t level;
    const char *quote;                      /* the spec sentence, verbatim */
    const char *interpretation;             /* the harness's reading, or NULL */
    mc_check_ref_t refs[MC_CHECK_MAX_REFS]; /* version order; ends at version == NULL */
    int legacy; /* declared as {ref, text}: the text is not a checked quote */
    int author; /* an author's check {check, author: true, level, text, link?}: a rule of
                   the user's own product, not the spec's. quote holds the author's text,
                   refs is empty, and every report shows it as "your rule" */
    const char *link; /* an author's check: where the rule is written down, or NULL */
} mc_check_def_t;

/*
 * The ref of d for version: the exact one when d names it, else the one of
 * the nearest earlier version it names, else its first. NULL when d has no
 * refs at all. For display and lookups only: a verdict reads
 * mc_check_ref_at (its own version's page) and mc_check_stands_at.
 */
const mc_check_ref_t *mc_check_ref_for(const mc_check_def_t *d, const char *version);

/*
 * The ref of d that names version itself, or NULL: a verdict at a version
 * quotes and links that version's page, never another's.
 */
const mc_check_ref_t *mc_check_ref_at(const mc_check_def_t *d, const char *version);

/*
 * True when d's sentence stands at version: d names version in its refs,
 * or d is held to no page at all (an author's check, a legacy {ref, text}
 * entry, a check without refs). A spec check that does not stand at a
 * version gives no FAIL or WARN there (scenario/result.c).
 */
int mc_check_stands_at(const mc_check_def_t *d, const char *version);

/*
 * The level of d at version: the level its ref for version (as
 * mc_check_ref_for picks it) gives, else d->level. A sentence can carry
 * another keyword at another version ("Both parties SHOULD" at 2025-03-26,
 * MUST from 2025-06-18).
 */
mc_level_t mc_check_level_for(const mc_check_def_t *d, const char *version);

/*
 * The quote of d at version: the wording of the ref mc_check_ref_for picks
 * (quotes[version] where given), else d's quote. Never NULL.
 */
const char *mc_check_quote_for(const mc_check_def_t *d, const char *version);

/*
 * Writes "VERSION/page#anchor" of the ref mc_check_ref_for() picks into buf
 * (empty when there is none). Returns the length written (truncated to n-1).
 */
size_t mc_check_ref_string(const mc_check_def_t *d, const char *version, char *buf, size_t n);

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

/* Ids: lowercase letters, digits, '-', '_', '.', '/' ; at least one '/'. */
int mc_check_id_ok(const char *id);

/* "YYYY-MM-DD/path#anchor" (the anchor optional). */
int mc_spec_ref_ok(const char *ref);

/* "YYYY-MM-DD". */
int mc_version_name_ok(const char *v);

#endif /* MC_JUDGE_CHECK_H */
