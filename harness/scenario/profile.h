/*
 * profile.h - profiles map scenario roles to a server's fixtures.
 *
 * A profile is a JSONC file {"name": "...", "roles": {"tool.simple_text":
 * "test_simple_text", ...}}. Values may be any JSON (a name, a URI, an
 * object of prompt arguments). The default profile,
 * scenarios/profiles/default.json, holds the official conformance suite's
 * fixture names. "safe_tools": ["name", ...] lists the tools that have no
 * side effects and may be called with generated arguments (role tools.safe).
 * "args": {"NAME": {...}} gives the arguments a tool or prompt fixture is
 * called with, by its name (role data tool.X.args and prompt.X.args).
 */
#ifndef MC_SCENARIO_PROFILE_H
#define MC_SCENARIO_PROFILE_H

#include <json-c/json.h>

#include "core/error.h"

typedef struct mc_profile {
    char *name;         /* owned */
    char *path;         /* owned */
    json_object *roles; /* owned: role -> value */
    json_object *safe_tools; /* owned: array of tool names that may be called, or NULL */
    json_object *args;  /* owned: "args": tool or prompt name -> its arguments object, or NULL */
} mc_profile_t;

/* Loads a profile. Errors: MC_EIO, MC_EINVAL ("file:line:col: ..." in eb). */
int mc_profile_load(const char *path, mc_profile_t *p, mc_errbuf_t *eb);
void mc_profile_free(mc_profile_t *p);

#endif /* MC_SCENARIO_PROFILE_H */
