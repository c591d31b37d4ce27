/*
 * causes.c - findings grouped by cause.
 *
 * One broken rule often shows in many rows: a server that drops malformed
 * lines fails the same check in every scenario that sends one, at every
 * protocol version. A cause is one check id failing for the same reason;
 * the reason is the finding's message with what varies between occurrences
 * (numbers, quoted values, URIs, the schema's name for a definition)
 * blanked out. A scenario that ended in ERROR
 * is a finding of its own, grouped by its reason the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/* Copies message into key with runs of digits as "N", "..." and '...' as
 * "_", words holding "://" as "URI", and "#/$defs/" (2025-11-25 schemas) as
 * "#/definitions/" (2025-06-18), so that one cause reads the same at every
 * version. */
void mc__cause_key(const char *message, char *key, size_t n)
{
    const char *p = message != NULL ? message : "";
    size_t len = 0;

#define PUT(s)                                                                                     \
    do {                                                                                           \
        const char *s_ = (s);                                                                      \
        while (*s_ != '\0' && len + 1 < n)                                                         \
            key[len++] = *s_++;                                                                    \
    } while (0)

    if (n == 0)
        return;
    while (*p != '\0' && len + 1 < n) {
        if (strncmp(p, "#/$defs/", 8) == 0) {
            /* The same definition, named as each version's schema names it. */
            PUT("#/definitions/");
            p += 8;
        } else if (*p >= '0' && *p <= '9') {
            while (*p >= '0' && *p <= '9')
                p++;
            PUT("N");
        } else if (*p == '"' || *p == '\'') {
            const char *end = strchr(p + 1, *p);
            if (end == NULL) {
                key[len++] = *p++;
                continue;
            }
            PUT(*p == '"' ? "\"_\"" : "'_'");
            p = end + 1;
        } else if (*p != ' ' && (p == message || p[-1] == ' ')) {
            /* A word: blank it when it is a URI. */
            const char *end = p;
            while (*end != '\0' && *end != ' ')
                end++;
            if ((size_t)(end - p) > 3) {
                const char *colon = strstr(p, "://");
                if (colon != NULL && colon < end) {
                    PUT("URI");
                    p = end;
                    continue;
                }
            }
            key[len++] = *p++;
        } else {
            key[len++] = *p++;
        }
    }
    key[len] = '\0';
#undef PUT
}

int mc__cause_same(const mc_report_cause_t *c, const char *check, const char *message)
{
    char key[MC_REPORT_CAUSE_KEY];

    if ((c->check == NULL) != (check == NULL))
        return 0;
    if (check != NULL && strcmp(c->check, check) != 0)
        return 0;
    mc__cause_key(message != NULL ? message
              : check != NULL ? "the check did not hold"
                              : "the scenario ended in ERROR",
              key, sizeof(key));
    return strcmp(c->key, key) == 0;
}

/* Adds one finding to the list; returns MC_OK or MC_ENOMEM. */
static int add(mc_report_cause_t **v, size_t *n, size_t *cap, const char *check,
               mc_verdict_t verdict, mc_level_t level, const char *message, size_t scenario,
               size_t check_index, int fails)
{
    char key[MC_REPORT_CAUSE_KEY];
    size_t i;

    mc__cause_key(message, key, sizeof(key));
    for (i = 0; i < *n; i++) {
        mc_report_cause_t *c = &(*v)[i];
        if (c->verdict == verdict && c->fails == fails && strcmp(c->key, key) == 0 &&
            ((c->check == NULL && check == NULL) ||
             (c->check != NULL && check != NULL && strcmp(c->check, check) == 0))) {
            c->count++;
            return MC_OK;
        }
    }
    if (*n == MC_REPORT_MAX_CAUSES)
        return MC_OK; /* further causes are counted in the caller's total only */
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        mc_report_cause_t *nv = realloc(*v, nc * sizeof(*nv));
        if (nv == NULL)
            return MC_ENOMEM;
        *v = nv;
        *cap = nc;
    }
    memset(&(*v)[*n], 0, sizeof(**v));
    (*v)[*n].check = check;
    (*v)[*n].verdict = verdict;
    (*v)[*n].level = level;
    (*v)[*n].message = message;
    memcpy((*v)[*n].key, key, sizeof(key));
    (*v)[*n].count = 1;
    (*v)[*n].scenario = scenario;
    (*v)[*n].check_index = check_index;
    (*v)[*n].fails = fails;
    (*n)++;
    return MC_OK;
}

static int cmp_cause(const void *a, const void *b)
{
    const mc_report_cause_t *x = a, *y = b;

    if (x->fails != y->fails)
        return x->fails ? -1 : 1;
    if (x->verdict != y->verdict)
        return x->verdict > y->verdict ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    if (x->scenario != y->scenario)
        return x->scenario < y->scenario ? -1 : 1;
    return x->check_index < y->check_index ? -1 : x->check_index > y->check_index;
}

/* Which findings a grouping takes. */
typedef enum pick { PICK_CAUSES, PICK_INFO, PICK_SKIP } pick_t;

/* Adds the findings of run i that pick selects. */
static int collect_one(const mc_report_t *rep, size_t i, pick_t pick, mc_report_cause_t **v,
                       size_t *n, size_t *cap, size_t *total)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    mc_fail_on_t fo = rep->run.fail_on;
    size_t k;

    if (pick == PICK_SKIP) {
        if (r->verdict != MC_SKIP)
            return MC_OK;
        (*total)++;
        return add(v, n, cap, NULL, MC_SKIP, MC_LEVEL_MUST,
                   r->reason != NULL ? r->reason : "not applicable", i, (size_t)-1, 0);
    }
    if (pick == PICK_CAUSES && r->verdict == MC_ERROR && mc__known(rep, i) == NULL) {
        (*total)++;
        if (add(v, n, cap, NULL, MC_ERROR, MC_LEVEL_MUST,
                r->reason != NULL ? r->reason : "the scenario ended in ERROR", i, (size_t)-1,
                1) != MC_OK)
            return MC_ENOMEM;
    }
    for (k = 0; k < r->n_checks; k++) {
        const mc_check_result_t *c = &r->checks[k];
        int fails = mc_check_fails(c, fo);
        int take = pick == PICK_CAUSES
                       ? c->verdict == MC_FAIL || c->verdict == MC_WARN || fails
                       : c->verdict == MC_INFO && !fails;
        if (!take || mc_report_check_known(rep, i, k) != NULL)
            continue;
        (*total)++;
        if (add(v, n, cap, c->id, c->verdict, c->level,
                c->message != NULL ? c->message : "the check did not hold", i, k,
                fails) != MC_OK)
            return MC_ENOMEM;
    }
    return MC_OK;
}

static int collect(const mc_report_t *rep, pick_t pick, mc_report_cause_t **out, size_t *n_out,
                   size_t *findings)
{
    mc_report_cause_t *v = NULL;
    size_t n = 0, cap = 0, total = 0, i;

    *out = NULL;
    *n_out = 0;
    if (findings != NULL)
        *findings = 0;
    for (i = 0; i < rep->run.n; i++) {
        if (collect_one(rep, i, pick, &v, &n, &cap, &total) != MC_OK) {
            free(v);
            return MC_ENOMEM;
        }
    }
    if (n > 1)
        qsort(v, n, sizeof(*v), cmp_cause);
    *out = v;
    *n_out = n;
    if (findings != NULL)
        *findings = total;
    return MC_OK;
}

int mc_report_causes(const mc_report_t *rep, mc_report_cause_t **out, size_t *n_out,
                     size_t *findings)
{
    return collect(rep, PICK_CAUSES, out, n_out, findings);
}

int mc_report_observations(const mc_report_t *rep, mc_report_cause_t **out, size_t *n_out,
                           size_t *findings)
{
    return collect(rep, PICK_INFO, out, n_out, findings);
}

int mc_report_skips(const mc_report_t *rep, mc_report_cause_t **out, size_t *n_out,
                    size_t *findings)
{
    return collect(rep, PICK_SKIP, out, n_out, findings);
}
