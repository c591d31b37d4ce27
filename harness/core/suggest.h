/*
 * suggest.h - "did you mean": the known name nearest to a mistyped one.
 *
 * The option parser (options.c) and the scenario linter name the closest
 * known word when they refuse an unknown one. A suggester is fed the known
 * words one at a time and keeps the nearest: one that starts with the typed
 * name or that the typed name starts with (both at least three characters),
 * else one within a few edits (one edit for names under six characters, two
 * for longer ones, three from sixteen). Edits are insertions, deletions,
 * substitutions and swaps of two neighbours.
 */
#ifndef MC_CORE_SUGGEST_H
#define MC_CORE_SUGGEST_H

#include <stddef.h>

/* Names longer than this are not compared (no suggestion is made). */
#define MC_SUGGEST_MAX_NAME 96

typedef struct mc_suggest {
    const char *name; /* read-only: the typed name (not owned) */
    size_t len;
    const char *best; /* public: the nearest word offered so far, or NULL (borrowed) */
    size_t best_d;    /* private */
} mc_suggest_t;

/* The edit distance of a[0..la) and b[0..lb), each at most
 * MC_SUGGEST_MAX_NAME long (longer ones: (size_t)-1). */
size_t mc_edit_distance(const char *a, size_t la, const char *b, size_t lb);

/* Starts a suggester for name[0..len). */
void mc_suggest_init(mc_suggest_t *s, const char *name, size_t len);

/* Offers a known word (borrowed: it must live as long as s->best is read).
 * A word equal to the name is not suggested. */
void mc_suggest_offer(mc_suggest_t *s, const char *word);

#endif /* MC_CORE_SUGGEST_H */
