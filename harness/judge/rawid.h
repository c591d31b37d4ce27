/*
 * rawid.h - the text of a message's "id" member as it was sent.
 *
 * json-c clamps integers beyond 64 bits when it parses them, and a report
 * must show what the server wrote: the wire checks cite the id from the
 * raw bytes. Internal to the judge layer.
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

#endif /* MC_JUDGE_RAWID_H */
