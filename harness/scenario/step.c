/*
 * step.c - the step kinds' names and typing a steps array (step.h).
 */
#include "scenario/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json.h"
#include "scenario/scenario.h"

static const struct {
    const char *name, *what;
} kinds[MC_STEP_KIND_COUNT] = {
    [MC_STEP_NONE] = {"", "a step"},
#define MC__STEP_ROW(id, n, w) [MC_STEP_##id] = {n, w},
    MC_STEP_KINDS(MC__STEP_ROW)
#undef MC__STEP_ROW
};

const char *mc_step_kind_name(mc_step_kind_t kind)
{
    return kind < MC_STEP_KIND_COUNT ? kinds[kind].name : "";
}

const char *mc_step_kind_what(mc_step_kind_t kind)
{
    return kind < MC_STEP_KIND_COUNT ? kinds[kind].what : "a step";
}

mc_step_kind_t mc_step_kind_of(json_object *st, int *n_kinds)
{
    mc_step_kind_t kind = MC_STEP_NONE;
    int n = 0, k;

    if (json_object_is_type(st, json_type_object))
        for (k = MC_STEP_NONE + 1; k < MC_STEP_KIND_COUNT; k++)
            if (mc_json_get(st, kinds[k].name) != NULL) {
                kind = (mc_step_kind_t)k;
                n++;
            }
    if (n_kinds != NULL)
        *n_kinds = n;
    return n == 1 ? kind : MC_STEP_NONE;
}

void mc_steps_free(mc_step_t *steps, size_t n)
{
    size_t i;

    for (i = 0; steps != NULL && i < n; i++)
        mc_steps_free(steps[i].steps, steps[i].n_steps);
    free(steps);
}

/* Types one step at pointer; nested steps below it. */
static int build_one(const mc_jsonc_doc_t *doc, json_object *st, const char *pointer, int depth,
                     mc_step_t *out);

static int build(const mc_jsonc_doc_t *doc, json_object *steps, const char *pointer, int depth,
                 mc_step_t **out, size_t *n)
{
    size_t i, len = json_object_is_type(steps, json_type_array) ? json_object_array_length(steps)
                                                                 : 0;
    mc_step_t *v;
    char sub[512];

    *out = NULL;
    *n = 0;
    /* The linter caps the steps of a file and their nesting. */
    if (len == 0 || len > MC_SCENARIO_MAX_STEPS || depth > MC_SCENARIO_MAX_STEPS)
        return MC_OK;
    v = calloc(len, sizeof(*v));
    if (v == NULL)
        return MC_ENOMEM;
    for (i = 0; i < len; i++) {
        snprintf(sub, sizeof(sub), "%s/%zu", pointer, i);
        if (build_one(doc, json_object_array_get_idx(steps, i), sub, depth, &v[i]) != MC_OK) {
            mc_steps_free(v, i + 1);
            return MC_ENOMEM;
        }
    }
    *out = v;
    *n = len;
    return MC_OK;
}

static int build_one(const mc_jsonc_doc_t *doc, json_object *st, const char *pointer, int depth,
                     mc_step_t *out)
{
    int col;

    out->json = st;
    out->kind = mc_step_kind_of(st, NULL);
    out->arg = out->kind != MC_STEP_NONE ? mc_json_get_str(st, kinds[out->kind].name) : NULL;
    if (doc != NULL)
        mc_jsonc_where(doc, pointer, &out->line, &col);
    if (out->kind == MC_STEP_for_each) {
        char sub[512];
        mc_str_join(sub, sizeof(sub), pointer, "/steps");
        return build(doc, mc_json_get(st, "steps"), sub, depth + 1, &out->steps, &out->n_steps);
    }
    return MC_OK;
}

int mc_steps_build(const mc_jsonc_doc_t *doc, json_object *steps, const char *pointer,
                   mc_step_t **out, size_t *n)
{
    mc_step_t *v;
    size_t len;
    int rc = build(doc, steps, pointer, 0, &v, &len);

    if (rc == MC_OK) {
        *out = v;
        *n = len;
    }
    return rc;
}
