/*
 * step.h - the steps of a scenario, typed once when the file loads.
 *
 * MC_STEP_KINDS is the one list of step kinds: the member that names a
 * step's kind ("request", "notify", ...) and how problems call it. Each
 * kind's behaviour lives beside the module that needs it, named after its
 * row: the linter's lint_<kind> and member list (lint.c), the runner's
 * step_<kind> (runner_steps.c, runner_page.c) and the coverage map's
 * cover_<kind> (coverage.c), each reached through a table indexed by
 * mc_step_kind_t. A new kind is one row here plus those functions (the
 * tables do not build without them). The format of each kind is in
 * scenarios/README.md.
 */
#ifndef MC_SCENARIO_STEP_H
#define MC_SCENARIO_STEP_H

#include <stddef.h>

#include <json-c/json.h>

#include "scenario/jsonc.h"

/* X(ID, member, how problems name such a step), in the order the linter
 * lists them. */
#define MC_STEP_KINDS(X)                                                                           \
    X(request, "request", "a request step")                                                        \
    X(notify, "notify", "a notify step")                                                           \
    X(expect_notification, "expect_notification", "an expect_notification step")                  \
    X(expect_no_notification, "expect_no_notification", "an expect_no_notification step")         \
    X(expect_request, "expect_request", "an expect_request step")                                  \
    X(expect_no_request, "expect_no_request", "an expect_no_request step")                         \
    X(answer, "answer", "an answer step")                                                          \
    X(paginate, "paginate", "a paginate step")                                                     \
    X(for_each, "for_each", "a for_each step")                                                     \
    X(raw, "raw", "a raw step")                                                                    \
    X(sleep, "sleep", "a sleep step")                                                              \
    X(await, "await", "an await step")                                                             \
    X(value, "value", "a value step")                                                              \
    X(http, "http", "an http step")

typedef enum mc_step_kind {
    MC_STEP_NONE = 0, /* not a step the linter lets through */
#define MC__STEP_ENUM(id, name, what) MC_STEP_##id,
    MC_STEP_KINDS(MC__STEP_ENUM)
#undef MC__STEP_ENUM
        MC_STEP_KIND_COUNT
} mc_step_kind_t;

/*
 * One step. The members that are run-time templates (params, expect,
 * assert, with, ...) stay JSON inside json, expanded when the step runs;
 * what the kind's own member names (a method, a variable) is in arg.
 */
typedef struct mc_step {
    mc_step_kind_t kind;
    int line;              /* where the step stands in the file (1-based; 0 unknown) */
    json_object *json;     /* borrowed from the document: the step as written */
    const char *arg;       /* borrowed: the kind's member when it is a string, else NULL */
    struct mc_step *steps; /* owned: a for_each step's nested steps, or NULL */
    size_t n_steps;
} mc_step_t;

/* The member naming a kind ("request"), or "" for MC_STEP_NONE. */
const char *mc_step_kind_name(mc_step_kind_t kind);

/* How problems name a step of kind ("a request step"). */
const char *mc_step_kind_what(mc_step_kind_t kind);

/*
 * The kind of st: the one kind member it holds. *n_kinds (when not NULL)
 * is set to how many kind members it holds; MC_STEP_NONE when that is not
 * exactly one or st is not an object.
 */
mc_step_kind_t mc_step_kind_of(json_object *st, int *n_kinds);

/*
 * Types the steps array at pointer (a JSON Pointer into doc, for the lines)
 * into *out (an owned array of *n; free with mc_steps_free). Strings and
 * JSON stay borrowed from doc. Meant for steps the linter accepted; a step
 * of no kind is kept as MC_STEP_NONE. Returns MC_OK or MC_ENOMEM (*out and
 * *n untouched then).
 */
int mc_steps_build(const mc_jsonc_doc_t *doc, json_object *steps, const char *pointer,
                   mc_step_t **out, size_t *n);

/* Frees what mc_steps_build() made (NULL is fine). */
void mc_steps_free(mc_step_t *steps, size_t n);

#endif /* MC_SCENARIO_STEP_H */
