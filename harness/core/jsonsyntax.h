/*
 * jsonsyntax.h - an exact RFC 8259 syntax check, run before json-c builds
 * objects.
 *
 * json-c's strict mode still accepts single-quoted strings, raw control
 * characters inside strings, "1." and Infinity; a conformance harness must
 * not. This scanner checks the grammar, the UTF-8 encoding (no overlongs, no
 * encoded surrogates, nothing above U+10FFFF), surrogate pairing in \u
 * escapes, and the nesting depth, without allocating.
 */
#ifndef MC_CORE_JSONSYNTAX_H
#define MC_CORE_JSONSYNTAX_H

#include <stddef.h>

/*
 * Checks that buf[0..len) is exactly one JSON value with optional
 * surrounding whitespace. Returns MC_OK, or MC_EPARSE / MC_EUTF8 /
 * MC_ETOODEEP with *err_off set to the offending byte's offset and *what to
 * a static description.
 */
int mc_json_syntax_check(const char *buf, size_t len, int max_depth, size_t *err_off,
                         const char **what);

#endif /* MC_CORE_JSONSYNTAX_H */
