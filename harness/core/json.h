/*
 * json.h - small read-only helpers on json-c values shared by the layers.
 *
 * None of them modifies its argument (json-c's own getters may serialize
 * into a value; these never call them on values of another type), so they
 * are safe on values other threads read at the same time.
 */
#ifndef MC_CORE_JSON_H
#define MC_CORE_JSON_H

#include <stddef.h>

#include <json-c/json.h>

/* The member key of o (borrowed), or NULL when o is not an object or has no
 * such member (or the member is JSON null). */
json_object *mc_json_get(json_object *o, const char *key);

/* The member key of o when it is a string (borrowed), else NULL. */
const char *mc_json_get_str(json_object *o, const char *key);

/* The member key of o when it is an integer that fits an int, else dflt. */
int mc_json_get_int(json_object *o, const char *key, int dflt);

/* The compact JSON text of v (NULL: "null"), newly allocated (free() it),
 * its length in *len; NULL when out of memory. v is serialized through a
 * private copy: json-c keeps a value's text in the value itself, so two
 * threads serializing one shared value (a scenario's matcher argument, read
 * by every worker) would race on that buffer and lose one. */
char *mc_json_text_dup(json_object *v, size_t *len);

/* The text of a string, boolean or integer value v ("abc", "true", "42";
 * cut to cap - 1 bytes) into out: the form a JSON scalar takes in an HTTP
 * header. -1 (out untouched) for any other value. */
int mc_json_scalar_text(json_object *v, char *out, size_t cap);

/* True when s is an absolute URI in the RFC 3986 sense that MCP needs: a
 * scheme (a letter, then letters, digits, "+", "-", "."), ":", and no space
 * or control character anywhere. */
int mc_uri_is_absolute(const char *s);

/* Writes a followed by b into out (n bytes, always NUL-terminated,
 * truncating). For building JSON Pointers and paths without snprintf. */
void mc_str_join(char *out, size_t n, const char *a, const char *b);

/* "a,b,c" as a JSON array of strings (a new reference; empty names are
 * left out), or NULL when out of memory. */
json_object *mc_json_split_names(const char *s);

#endif /* MC_CORE_JSON_H */
