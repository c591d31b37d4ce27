/*
 * rawid.h - the text of a message's members as it was sent.
 *
 * json-c clamps integers beyond 64 bits when it parses them, and a report
 * must show what the server wrote: the wire checks cite the id from the
 * raw bytes. A parser keeps one of two members of the same name, so names
 * written twice are found here too. Internal to the judge layer.
 */
#ifndef MC_JUDGE_RAWID_H
#define MC_JUDGE_RAWID_H

#include <stddef.h>

/*
 * Finds the top-level member "id" of the JSON object in p[0..n) (p need not
 * be NUL-terminated). Iterative: nesting is only counted, never recursed
 * into. Returns 1 and sets *out and *out_len to the span of the value in p
 * (surrounding whitespace excluded), or 0 when p is no object or has no id
 * member at its top level; then *out and *out_len are unchanged.
 */
int mc__raw_member_id(const char *p, size_t n, const char **out, size_t *out_len);

/* As mc__raw_member_id, for the top-level member called name. */
int mc__raw_member(const char *p, size_t n, const char *name, const char **out, size_t *out_len);

/* Member names compared for duplicates in one object. */
#define MC_RAW_MAX_KEYS 256

/*
 * Finds a member name written twice in the object p[0..n) (names compared
 * as written, escapes undecoded). Returns 1 and sets *dup and *dup_len to
 * the second occurrence's name (inside its quotes); 0 when the names are
 * distinct or p is no object; -1 when the object has more than
 * MC_RAW_MAX_KEYS members (not judged). The outputs change only on 1.
 */
int mc__raw_duplicate_key(const char *p, size_t n, const char **dup, size_t *dup_len);

#endif /* MC_JUDGE_RAWID_H */
