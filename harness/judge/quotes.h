/*
 * quotes.h - the spec sentences the project knows verbatim: the quotes of the
 * built-in checks and of the scenario library's checks (each check's quote
 * and its per-version wordings). A check that claims a spec quote must carry
 * one of them; a rule the spec does not state is an author's check
 * (check.h), which claims none. Part of the judge layer, next to the check
 * registry (builtin.h).
 */
#ifndef MC_JUDGE_QUOTES_H
#define MC_JUDGE_QUOTES_H

#include <stddef.h>

#include "core/error.h"
#include "judge/check.h"

/* Quotes a catalogue holds at most. */
#define MC_QUOTES_MAX 16384

/*
 * A set of normalised quotes. Zero-initialise, add with mc_quotes_add(),
 * then mc_quotes_seal() once before mc_quotes_known(). Fields are private.
 */
typedef struct mc_quotes {
    char **v;
    size_t n, cap;
    int sealed;
} mc_quotes_t;

/*
 * The form two quotes are compared in, into out (n bytes, NUL-terminated):
 * markdown links [text](url) reduced to text, "**", "__" and backticks
 * removed, every run of whitespace one space, none at either end (the
 * normalisation the quote test gives the spec pages). Returns the length
 * written (truncated to n-1).
 */
size_t mc_quote_normalise(const char *quote, char *out, size_t n);

/* Adds quote (a normalised copy; NULL and "" are ignored). Returns MC_OK,
 * MC_ENOMEM or MC_EFULL (past MC_QUOTES_MAX); q is unchanged on error. */
int mc_quotes_add(mc_quotes_t *q, const char *quote);

/* Adds d's quote and each of its per-version wordings (nothing for an
 * author's check or a legacy one). Returns MC_OK or the first error. */
int mc_quotes_add_check(mc_quotes_t *q, const mc_check_def_t *d);

/* Adds every quote of the built-in checks (builtin.h). */
int mc_quotes_add_builtin(mc_quotes_t *q);

/* Sorts and removes duplicates; call after the last add. */
void mc_quotes_seal(mc_quotes_t *q);

/* True when quote, normalised, equals one of q's (q sealed). */
int mc_quotes_known(const mc_quotes_t *q, const char *quote);

void mc_quotes_free(mc_quotes_t *q);

#endif /* MC_JUDGE_QUOTES_H */
