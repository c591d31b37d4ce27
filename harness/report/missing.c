/*
 * missing.c - NOT-VERIFIED runs grouped by what was missing.
 *
 * A server with names of its own leaves many runs NOT-VERIFIED for the same
 * few reasons: one role nothing fills stands behind every scenario that
 * needs it, at every version. A group is one role (the result's `role`), or
 * for a run without one (a fixture that refused the harness's arguments, a
 * step that could not be carried out) its reason with what varies blanked
 * out, as causes.c does for findings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

static int cmp_missing(const void *a, const void *b)
{
    const mc_report_missing_t *x = a, *y = b;

    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return x->scenario < y->scenario ? -1 : x->scenario > y->scenario;
}

int mc_report_missing(const mc_report_t *rep, mc_report_missing_t **out, size_t *n,
                      size_t *total)
{
    mc_report_missing_t *v;
    size_t i, k, m = 0;

    *out = NULL;
    *n = 0;
    *total = 0;
    v = calloc(MC_REPORT_MAX_MISSING, sizeof(*v));
    if (v == NULL)
        return MC_ENOMEM;
    for (i = 0; i < rep->run.n; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[i];
        char key[MC_REPORT_CAUSE_KEY];
        if (r->verdict != MC_NOT_VERIFIED)
            continue;
        (*total)++;
        if (r->role != NULL)
            snprintf(key, sizeof(key), "role %s", r->role);
        else
            mc__cause_key(r->reason, key, sizeof(key));
        for (k = 0; k < m && strcmp(v[k].key, key) != 0; k++)
            ;
        if (k == m) {
            if (m == MC_REPORT_MAX_MISSING)
                continue;
            snprintf(v[m].key, sizeof(v[m].key), "%s", key);
            v[m].role = r->role;
            v[m].reason = r->reason != NULL ? r->reason : "";
            v[m].scenario = i;
            m++;
        }
        v[k].count++;
    }
    qsort(v, m, sizeof(*v), cmp_missing);
    *out = v;
    *n = m;
    return MC_OK;
}
