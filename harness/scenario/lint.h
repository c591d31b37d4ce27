/*
 * lint.h - the scenario linter, shared by the loader (internal).
 *
 * mc_scenario_load() (scenario.c) reads a file and builds the scenario; the
 * checks of what it reads are here: problem and warning collection with
 * positions ("file:line:col: message"), unknown fields and wrong types,
 * variable and role references, and every step kind with its members,
 * matchers and assertions (lint.c; each kind's own checks in lint_steps.c).
 */
#ifndef MC_SCENARIO_LINT_H
#define MC_SCENARIO_LINT_H

#include <stddef.h>

#include <json-c/json.h>

#include "schema/vocab.h"
#include "scenario/scenario.h"

/* A growing buffer of report lines (private to the linter). */
typedef struct mc__linebuf {
    char *buf;
    size_t len, cap;
} mc__linebuf_t;

/*
 * What the linter has collected about one file: its problems and warnings
 * (bounded by MC_SCENARIO_MAX_PROBLEMS each), the variables the steps define
 * so far and the roles they use. Zero-initialise, set doc (and reqs and
 * client_caps once known), then call the mc__lint_* functions; the loader
 * takes the buffers and the role names, and frees the rest.
 */
typedef struct mc__lint {
    const mc_jsonc_doc_t *doc;
    mc__linebuf_t problems; /* accumulated problems */
    mc__linebuf_t warnings; /* accumulated warnings (the file still loads) */
    int count;
    int n_warnings;
    int nomem;
    /* Variables defined so far, in step order (names only). */
    char *vars[256];
    int n_vars;
    char *roles[64];
    int n_roles;
    const mc_requirement_t *reqs;
    const struct mc_catalogue *catalogue; /* the checks "spec" may name by id, or NULL */
    size_t n_reqs;
    int steps_seen;
    json_object *client_caps; /* what the scenario's client declares (borrowed) */
    const mc_vocab_t *vocab;  /* the protocol's words (shared, read-only), or NULL */
    unsigned vocab_mask;      /* versions the scenario runs at (bit mc_version_id_t) */
} mc__lint_t;

/* True when v is a JSON string. */
static inline int mc__lint_is_str(json_object *v)
{
    return v != NULL && json_object_is_type(v, json_type_string);
}

/* Records a problem at the JSON Pointer (the file does not load); past
 * MC_SCENARIO_MAX_PROBLEMS they are only counted. */
void mc__lint_problem(mc__lint_t *l, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records a warning at the JSON Pointer (the file still loads). */
void mc__lint_warning(mc__lint_t *l, const char *pointer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records that the scenario uses role name[0..n) (once; bounded). */
void mc__lint_use_role(mc__lint_t *l, const char *name, size_t n);

/* Checks every ${...} reference inside v: known variables and roles. */
void mc__lint_check_refs(mc__lint_t *l, json_object *v, const char *pointer);

/* Checks that obj has only the allowed keys (NULL-terminated list). */
void mc__lint_only_keys(mc__lint_t *l, json_object *obj, const char *pointer, const char *what,
                        const char *const *allowed);

/* Checks that obj[key], when present, has type t (json_type_double: any number). */
void mc__lint_want_type(mc__lint_t *l, json_object *obj, const char *key, json_type t,
                        const char *pointer, const char *what);

/* True when the steps so far define variable name[0..n). */
int mc__lint_has_var(const mc__lint_t *l, const char *name, size_t n);

/* Records that the steps from here on may use variable name (bounded). */
void mc__lint_define_var(mc__lint_t *l, const char *name);

/* Checks obj's "check", when present: a string naming a declared or
 * built-in check. */
void mc__lint_check_field(mc__lint_t *l, json_object *obj, const char *pointer);

/* Checks a list of assertions ("assert", "where") at pointer. */
void mc__lint_assertions(mc__lint_t *l, json_object *list, const char *pointer);

/* Checks a "capture" object at pointer and defines its variables. */
void mc__lint_capture(mc__lint_t *l, json_object *cap, const char *pointer);

/* Checks an "expect" value at pointer (NULL: absent, which is fine). */
void mc__lint_expect(mc__lint_t *l, json_object *e, const char *pointer);

/* Runs fn on member key of step st, when present, with its pointer. */
void mc__lint_member(mc__lint_t *l, json_object *st, const char *ptr, const char *key,
                     void (*fn)(mc__lint_t *l, json_object *v, const char *pointer));

/*
 * Checks a steps array at pointer (nesting depth depth), step by step
 * (lint_steps.c), and types each step it checks (step.h) into *out, an owned
 * array of *n (free with mc_steps_free(), also when problems were found).
 * Out of memory sets l->nomem.
 */
void mc__lint_steps(mc__lint_t *l, json_object *steps, const char *pointer, int depth,
                    mc_step_t **out, size_t *n);

/*
 * "versions" (requirement.c): fills mask with the published versions v
 * covers and min and max with its outermost bounds (NULL when open).
 * Returns 0 when valid; problems go to l.
 */
int mc__scenario_parse_versions(mc__lint_t *l, json_object *v, unsigned *mask, const char **min,
                                const char **max);

/*
 * Reads one entry of "spec" into q (requirement.c; strings borrowed from the
 * document). Returns 0 when q holds a check id (the entry counts), -1
 * otherwise. Problems and warnings go to l.
 */
int mc__scenario_parse_requirement(mc__lint_t *l, json_object *r, const char *ptr,
                                   mc_requirement_t *q);

/*
 * The protocol's words (lint_vocab.c). mc__lint_vocab_scenario() finds the
 * versions the scenario runs at (its "versions" with its features and
 * required capabilities; the pinned client.version alone when given) and
 * checks requires.capabilities, client.capabilities and client.answers
 * against their schemas; call it before the steps are checked.
 */
void mc__lint_vocab_scenario(mc__lint_t *l, const mc_scenario_t *s);

/*
 * Checks that method is of kind at every version the scenario runs at,
 * naming the nearest known one when it is unknown. A method no version has
 * with a segment starting with "mcpcheck" is made up on purpose and passes;
 * with unknown_on_purpose (the step's "unknown_method": true) the method
 * must be unknown at every version the scenario runs at instead.
 */
void mc__lint_method(mc__lint_t *l, mc_vocab_kind_t kind, const char *method, const char *ptr,
                     int unknown_on_purpose);

/* Warns about the marks of an unfinished scenario: TODO in the title, the
 * description or a check's texts, and recorded/ placeholder check ids. */
void mc__lint_unfinished(mc__lint_t *l, json_object *root);

/* Writes " (did you mean \"X\"?)" into buf (n bytes) for the word of
 * allowed (NULL-terminated) nearest to key, or "" when none is near. */
void mc__lint_suggest_key(const char *key, const char *const *allowed, char *buf, size_t n);

/* Reads root_obj's "state" into s->state_changes, s->state_reads and
 * s->chainable (scenario_state.c); problems go to l. Call after the steps
 * are read. */
void mc__scenario_load_state(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s);

#endif /* MC_SCENARIO_LINT_H */
