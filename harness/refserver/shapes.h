/*
 * shapes.h - what the files of the message-shape faults share (shapes.c, the
 * rows; shapewalk.c, walking a message). Only they include it.
 */
#ifndef MC_REFSERVER_SHAPES_H
#define MC_REFSERVER_SHAPES_H

#include "refserver/internal.h"

/* The longest segment of a row's path ("result.capabilities"). */
#define RS_PATH_PART_MAX 64

struct rs_shape_fault;

/* Transforms msg in place; returns how many times it goes out: 0
 * (dropped), 1, 2. */
typedef int (*rs_fault_fn)(mc_refserver_t *rs, json_object *msg, const struct rs_shape_fault *f);

typedef struct rs_shape_fault {
    rs_bug_t bug;
    unsigned kinds;     /* RS_OUT_* */
    const char *method; /* the request answered or the message sent; NULL: any */
    rs_fault_fn apply;
    const char *path; /* the objects a row changes: "a.b", "a.list[]" (each), "a.*" (each member) */
    const char *key;  /* ...and the member it changes */
    const char *text; /* the value it writes (a string) */
    int64_t num;      /* the value it writes (an integer) */
    const char *when; /* NULL, or which of those objects: clauses joined by "&", each
                       * "member=value", "member^prefix" or "member" (present), and
                       * "!" before a clause for its negation ("!member": absent) */
    const char *reason;     /* an error's: NULL, or the rs->error_reason it is sent with */
    mc_version_id_t since;  /* the oldest version the row applies at (0: every one) */
} rs_shape_fault_t;

typedef void (*rs_visit_fn)(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f);

/* True when o is one of the objects f changes (f->when). */
int mc__rs_shape_wanted(json_object *o, const rs_shape_fault_t *f);

/* Calls fn on each object that path names in o: segments are member names
 * separated by dots; "name[]" stands for each element of that array and "*"
 * for each member of the object. path is a row's, never the peer's. */
void mc__rs_shape_visit(mc_refserver_t *rs, json_object *o, const char *path, rs_visit_fn fn,
                        const rs_shape_fault_t *f);

/* Calls fn on every object anywhere in v that has the member f->key (at
 * most MC_MAX_JSON_DEPTH levels down). */
void mc__rs_shape_visit_all(mc_refserver_t *rs, json_object *v, int depth, rs_visit_fn fn,
                            const rs_shape_fault_t *f);

/* Rebuilds o with its members in the same order, key renamed to to and,
 * when add is not NULL, add_key: add placed before the member before (or
 * last). add is consumed. json-c keeps members in insertion order, so this
 * is how a member goes anywhere but last. */
void mc__rs_shape_rebuild(mc_refserver_t *rs, json_object *o, const char *key, const char *to,
                          const char *before, const char *add_key, json_object *add);

/* Sets the member that the dotted path key names below o to v (consumed):
 * "a.b.c" is the member c of the object at o.a.b. The object under o's
 * first segment is replaced by a deep copy first, so a sub-object the
 * message shares with the server's own state (a cached schema) is never
 * changed; a member already there keeps its place. When a segment names
 * no object, v is freed and the message says what it said before. */
void mc__rs_shape_put_at(mc_refserver_t *rs, json_object *o, const char *key, json_object *v);

/* The transformations of shapes.c's rows that belong to one feature
 * (shapefns.c): tasks, initialize's version, sampling, the versions a
 * stateless error lists, logging. Each changes msg in place and returns 1. */
int mc__rs_fault_task_id_number(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_related(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_unrelated(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_token_task_id(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_echo_unspoken(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_token_shared(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_versions(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_level_number(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);
int mc__rs_fault_log_secret(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f);

#endif /* MC_REFSERVER_SHAPES_H */
