/*
 * match.h - assertions on messages: a path and one matcher.
 *
 * {"path": "result.contents[*].blob", "base64": true} holds when every value
 * the path selects is strict base64. Matchers: equals, not_equals, type,
 * matches (POSIX extended regex), present, absent, length, range, contains
 * (subset for objects and arrays, substring for strings), base64, uri,
 * one_of. With "optional": true a missing value holds (the matcher judges
 * the value only when it is there). A failed match says what was expected,
 * what was found, and where.
 */
#ifndef MC_SCENARIO_MATCH_H
#define MC_SCENARIO_MATCH_H

#include <json-c/json.h>

/* The matcher keywords, NULL-terminated. */
extern const char *const mc_matcher_names[];

/* True when t names a JSON type the "type" matcher knows. */
int mc_matcher_type_known(json_object *t);

/* Returns 0 when re is a string that compiles as a POSIX extended regex. */
int mc_matcher_regex_ok(json_object *re);

typedef struct mc_match {
    int pass;
    char where[256];    /* the concrete path of the first failing value */
    char expected[512]; /* what the matcher wanted */
    char actual[512];   /* what was there (compact JSON, truncated) */
} mc_match_t;

/*
 * Evaluates an assertion (already variable-expanded) against msg. Fills *m.
 * Returns 0, or -1 when the assertion itself is malformed (m->expected then
 * says why).
 */
int mc_assert_eval(json_object *assertion, json_object *msg, mc_match_t *m);

/* True when s[0..len) is strict base64 (RFC 4648 alphabet, padded). */
int mc_is_base64(const char *s, size_t len);

/* True when s looks like an absolute URI (scheme ":" rest, no spaces). */
int mc_is_uri(const char *s);

/* Subset match: every member of want is in have (recursively); scalars
 * compare equal, numbers by value. */
int mc_json_subset(json_object *want, json_object *have);

/* Equality with numbers compared by value (1 equals 1.0). */
int mc_json_equal(json_object *a, json_object *b);

#endif /* MC_SCENARIO_MATCH_H */
