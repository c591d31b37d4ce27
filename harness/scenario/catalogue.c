/*
 * catalogue.c - loading the check catalogue (catalogue.h) and finding a
 * check in it.
 */
#include "scenario/catalogue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "scenario/lint.h"
#include "scenario/scenario.h"

static int by_id(const void *a, const void *b)
{
    const char *x = json_object_get_string(mc_json_get(*(json_object *const *)a, "check"));
    const char *y = json_object_get_string(mc_json_get(*(json_object *const *)b, "check"));
    return strcmp(x != NULL ? x : "", y != NULL ? y : "");
}

/* Checks every entry of "checks" and collects the definitions into cat. */
static void take_checks(mc__lint_t *l, mc_catalogue_t *cat)
{
    static const char *const top_keys[] = {"$comment", "checks", NULL};
    json_object *root = cat->doc.root, *checks;
    size_t i, n;

    if (!json_object_is_type(root, json_type_object)) {
        mc__lint_problem(l, "", "the check catalogue holds one object {\"checks\": [...]}");
        return;
    }
    mc__lint_only_keys(l, root, "", "the check catalogue", top_keys);
    checks = mc_json_get(root, "checks");
    if (checks == NULL || !json_object_is_type(checks, json_type_array)) {
        mc__lint_problem(l, "", "the check catalogue needs \"checks\": an array of checks "
                                "{check, level, quote, refs}");
        return;
    }
    n = json_object_array_length(checks);
    if (n > MC_CATALOGUE_MAX_CHECKS) {
        mc__lint_problem(l, "/checks", "more than %d checks", MC_CATALOGUE_MAX_CHECKS);
        return;
    }
    cat->defs = calloc(n + 1, sizeof(*cat->defs));
    if (cat->defs == NULL) {
        l->nomem = 1;
        return;
    }
    for (i = 0; i < n; i++) {
        json_object *def = json_object_array_get_idx(checks, i);
        mc_requirement_t q;
        char ptr[64];

        snprintf(ptr, sizeof(ptr), "/checks/%zu", i);
        if (mc__scenario_parse_requirement(l, def, ptr, &q) != 0)
            continue;
        if (q.author) {
            mc__lint_problem(l, ptr, "check \"%s\": an author's rule belongs to the scenario "
                                     "that holds it, not to the catalogue of the spec's checks",
                             q.check);
            continue;
        }
        cat->defs[cat->n++] = def;
    }
    qsort(cat->defs, cat->n, sizeof(*cat->defs), by_id);
    for (i = 1; i < cat->n; i++)
        if (by_id(&cat->defs[i - 1], &cat->defs[i]) == 0)
            mc__lint_problem(l, "/checks", "check \"%s\" is defined twice",
                             json_object_get_string(mc_json_get(cat->defs[i], "check")));
}

int mc_catalogue_load(const char *path, mc_catalogue_t *cat, char **problems, mc_errbuf_t *eb)
{
    mc__lint_t l;
    int rc;

    memset(cat, 0, sizeof(*cat));
    memset(&l, 0, sizeof(l));
    if (problems != NULL)
        *problems = NULL;
    rc = mc_jsonc_load(path, &cat->doc, eb);
    if (rc != MC_OK)
        return rc == MC_EPARSE ? MC_EINVAL : rc;
    l.doc = &cat->doc;
    take_checks(&l, cat);
    rc = l.nomem ? MC_ENOMEM : l.count > 0 ? MC_EINVAL : MC_OK;
    if (rc == MC_EINVAL && problems != NULL) {
        *problems = l.problems.buf;
        l.problems.buf = NULL;
    }
    if (rc == MC_ENOMEM)
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    free(l.problems.buf);
    free(l.warnings.buf);
    if (rc != MC_OK)
        mc_catalogue_free(cat);
    return rc;
}

json_object *mc_catalogue_find(const mc_catalogue_t *cat, const char *id)
{
    size_t lo = 0, hi;

    if (cat == NULL || id == NULL)
        return NULL;
    hi = cat->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *at = json_object_get_string(mc_json_get(cat->defs[mid], "check"));
        int c = strcmp(id, at != NULL ? at : "");
        if (c == 0)
            return cat->defs[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

void mc_catalogue_free(mc_catalogue_t *cat)
{
    free(cat->defs);
    mc_jsonc_free(&cat->doc);
    memset(cat, 0, sizeof(*cat));
}
