/*
 * jsonfast.h - a fast path that builds json-c values from plain JSON text.
 *
 * json-c's tokener walks its input one byte at a time through a state
 * machine, copies every string through a scratch buffer and duplicates every
 * object key. On bulk input (a JSONL trace of thousands of large messages)
 * that is most of the time spent. mc_json_fast_parse() builds the same tree
 * in one pass: string values go straight from the input into their
 * json_object, and object keys can live in a caller-owned key buffer that
 * the objects only point into (json-c's constant-key mode).
 *
 * It takes only input whose tree it builds exactly as json-c's strict
 * tokener (JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8) would: RFC 8259
 * JSON that is an object or an array, well within the depth limit, integers
 * of at most 18 digits, no surrogate and no U+0000 \u escapes. Anything else
 * (including every malformed input) is declined without output, and the
 * caller parses with json-c, which then gives the verdict and its message.
 */
#ifndef MC_CORE_JSONFAST_H
#define MC_CORE_JSONFAST_H

#include <stddef.h>

#include <json-c/json.h>

/* Holds the object keys of the last tree built. Zero-initialize; all
 * fields private. */
typedef struct mc_json_keys {
    char *buf;
    size_t cap;
} mc_json_keys_t;

/* Frees the key buffer (every tree built with it must be released first). */
void mc_json_keys_free(mc_json_keys_t *keys);

/*
 * Builds the value of buf[0..len) (optionally surrounded by JSON
 * whitespace). max_depth is the depth limit the caller's json-c tokener
 * would be given. On MC_OK *out is a new reference. With keys, its object
 * keys point into keys: the caller must release it (json_object_put) before
 * the next call with the same keys and before mc_json_keys_free(), and must
 * not keep any part of it (json_object_get) past that. With keys NULL the
 * objects own copies of their keys (as json-c's do) and the tree lives as
 * long as the caller wants. Returns MC_EUNSUPPORTED when
 * the input is not one this fast path takes (malformed or not), or MC_ENOMEM;
 * *out is then untouched.
 */
int mc_json_fast_parse(const char *buf, size_t len, int max_depth, mc_json_keys_t *keys,
                       json_object **out);

#endif /* MC_CORE_JSONFAST_H */
