/*
 * vars.h - scenario variables, ${...} substitution and JSON paths.
 *
 * Paths address values inside a message: "result.resources[0].uri",
 * "result.contents[*].text" (every element of an array, or every member of
 * an object; "a.*.b" is the same as "a[*].b"), "params[\"odd.key\"]". An
 * empty path is the whole message.
 *
 * Variables hold JSON values captured from earlier messages. In a template,
 * a string that is exactly "${name}" or "${name.path}" becomes the value
 * itself (of any type); "${...}" inside a longer string is replaced by the
 * value's text. "${role:NAME}" is the profile's value for role NAME, and
 * "${version}" the negotiated protocol version.
 */
#ifndef MC_SCENARIO_VARS_H
#define MC_SCENARIO_VARS_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"

/* Variables held at once by one scenario run. */
#define MC_VARS_MAX 512

typedef struct mc_vars {
    char *names[MC_VARS_MAX];          /* private */
    json_object *values[MC_VARS_MAX];  /* private: owned */
    size_t n;                          /* read-only */
} mc_vars_t;

void mc_vars_init(mc_vars_t *v);
void mc_vars_free(mc_vars_t *v);

/* Sets name to a deep copy of value (value stays the caller's). Returns
 * MC_OK, MC_EFULL or MC_ENOMEM. */
int mc_vars_set(mc_vars_t *v, const char *name, json_object *value);

/* The value of name (borrowed), or NULL; *found says whether it is set
 * (a variable may hold JSON null). */
json_object *mc_vars_get(const mc_vars_t *v, const char *name, int *found);

/*
 * Expands every ${...} inside tmpl into a new value (caller puts it), which
 * shares nothing with tmpl, so templates may be expanded from several threads
 * at once. On an
 * undefined variable or a path that finds nothing, returns MC_ENOTFOUND
 * and eb names it.
 */
int mc_vars_expand(const mc_vars_t *v, json_object *tmpl, json_object **out, mc_errbuf_t *eb);

/* True for names like "uri", "page_1". */
int mc_var_name_ok(const char *name);
/* Length of the variable name at the start of ref (up to '.', '[' or n). */
size_t mc_var_name_len(const char *ref, size_t n);
/* True for the names the runner always defines ("version", "server_versions",
 * "server_versions_older"). */
int mc_var_builtin(const char *name, size_t n);

/* Returns 0 when path is well-formed. */
int mc_path_check(const char *path);

/*
 * Visits every value path selects in root. For each, cb gets the value
 * (borrowed; NULL with found = 0 when a key or index is missing) and the
 * concrete path ("result.resources[3].uri"). A wildcard over an empty array
 * visits nothing. Returns the number of visits, or -1 on a malformed path.
 */
typedef void (*mc_path_cb)(void *ctx, json_object *value, int found, const char *where);
int mc_path_each(json_object *root, const char *path, mc_path_cb cb, void *ctx);

/* The first value path selects (borrowed), or NULL; *found as above. */
json_object *mc_path_get(json_object *root, const char *path, int *found);

#endif /* MC_SCENARIO_VARS_H */
