/*
 * model.c - the report: a run plus the scenarios that did not run and the
 * baseline's verdicts; counts and the exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/internal.h"

int mc_report_init(mc_report_t *rep, mc_run_result_t *run, const char *base_dir)
{
    memset(rep, 0, sizeof(*rep));
    rep->run = *run;
    memset(run, 0, sizeof(*run));
    if (base_dir != NULL)
        snprintf(rep->base_dir, sizeof(rep->base_dir), "%s", base_dir);
    else if (getcwd(rep->base_dir, sizeof(rep->base_dir)) == NULL)
        rep->base_dir[0] = '\0';
    mc_report_summarize(rep);
    return MC_OK;
}

static char *dup0(const char *s)
{
    return s != NULL ? strdup(s) : NULL;
}

int mc_report_add_not_run(mc_report_t *rep, const char *id, const char *version,
                          const char *area, const char *title, const char *file,
                          const char *reason)
{
    mc_report_notrun_t *nv, *e;

    nv = realloc(rep->not_run, (rep->n_not_run + 1) * sizeof(*nv));
    if (nv == NULL)
        return MC_ENOMEM;
    rep->not_run = nv;
    e = &nv[rep->n_not_run];
    e->id = dup0(id);
    e->version = dup0(version);
    e->area = dup0(area);
    e->title = dup0(title);
    e->file = dup0(file);
    e->reason = dup0(reason);
    if (e->id == NULL || e->version == NULL || e->area == NULL || e->title == NULL ||
        e->file == NULL || e->reason == NULL) {
        free(e->id);
        free(e->version);
        free(e->area);
        free(e->title);
        free(e->file);
        free(e->reason);
        return MC_ENOMEM;
    }
    rep->n_not_run++;
    return MC_OK;
}

int mc_report_scenario_fails(const mc_report_t *rep, size_t i)
{
    return mc_sresult_fails(&rep->run.scenarios[i], rep->run.fail_on);
}

/* The outcome of a run that does not fail: its worst broken check as the
 * gate classes it (a rule's "warn" is a warning, "ignore" drops it). */
static mc_outcome_t standing_outcome(const mc_scenario_result_t *r)
{
    mc_verdict_t worst = MC_PASS;
    size_t k;
    int broken = 0;

    for (k = 0; k < r->n_checks; k++) {
        const mc_check_result_t *c = &r->checks[k];
        mc_verdict_t cls = c->verdict;
        if (cls != MC_FAIL && cls != MC_WARN && cls != MC_INFO)
            continue;
        broken = 1;
        if (c->gate == MC_GATE_IGNORE)
            continue;
        if (c->gate == MC_GATE_WARN || c->gate == MC_GATE_FAIL)
            cls = MC_WARN;
        if (cls > worst)
            worst = cls;
    }
    if (worst == MC_PASS && broken)
        return MC_OUT_IGNORED;
    if (worst == MC_PASS)
        worst = r->verdict;
    return worst == MC_INFO ? MC_OUT_INFO : MC_OUT_WARN;
}

mc_outcome_t mc_report_outcome(const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];

    if (mc_report_scenario_fails(rep, i)) {
        if (mc__known(rep, i) != NULL)
            return MC_OUT_KNOWN;
        return r->verdict == MC_ERROR ? MC_OUT_ERROR : MC_OUT_FAIL;
    }
    switch (r->verdict) {
    case MC_PASS:
        return MC_OUT_PASS;
    case MC_SKIP:
        return MC_OUT_SKIP;
    case MC_NOT_VERIFIED:
        return MC_OUT_NOT_VERIFIED;
    default:
        return standing_outcome(r);
    }
}

/* True when run i fails only because of the gate: no check broke a MUST
 * that fails by itself, and it is no ERROR. */
static int gated(const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    size_t k;

    if (r->verdict == MC_ERROR)
        return 0;
    for (k = 0; k < r->n_checks; k++)
        if (r->checks[k].verdict == MC_FAIL && r->checks[k].gate == MC_GATE_NONE)
            return 0;
    return r->n_checks > 0;
}

int mc_report_apply_gate(mc_report_t *rep, const mc_gate_t *g)
{
    size_t i;
    int rc = MC_OK;

    free(rep->gate_path);
    rep->gate_path = NULL;
    if (g->path != NULL) {
        rep->gate_path = strdup(g->path);
        if (rep->gate_path == NULL)
            rc = MC_ENOMEM;
    }
    for (i = 0; i < rep->run.n && rc == MC_OK; i++)
        rc = mc_gate_apply(g, &rep->run.scenarios[i]);
    mc_report_summarize(rep);
    return rc;
}

void mc_report_counts_text(const mc_report_t *rep, char *out, size_t n)
{
    size_t used = 0, o;
    int w;

    if (n == 0)
        return;
    out[0] = '\0';
    for (o = 0; o < MC_OUTCOME_COUNT && used < n; o++) {
        size_t c = rep->outcomes[o];
        if (c == 0 && o != MC_OUT_PASS && o != MC_OUT_FAIL)
            continue;
        w = snprintf(out + used, n - used, "%s%zu %s", used > 0 ? ", " : "", c,
                     mc_outcome_label((mc_outcome_t)o));
        used += w > 0 ? (size_t)w : 0;
        if (o == MC_OUT_FAIL && rep->n_gated > 0 && used < n) {
            w = snprintf(out + used, n - used, " (%zu by your gate)", rep->n_gated);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    if (used < n)
        snprintf(out + used, n - used, " (%zu run%s)", rep->run.n, rep->run.n == 1 ? "" : "s");
}

const char *mc__known(const mc_report_t *rep, size_t i)
{
    return rep->known != NULL ? rep->known[i] : NULL;
}

const char *mc_report_check_known(const mc_report_t *rep, size_t i, size_t k)
{
    if (rep->check_known == NULL || rep->check_known[i] == NULL)
        return NULL;
    return rep->check_known[i][k];
}

static void free_known(mc_report_t *rep)
{
    size_t i, k;

    for (i = 0; i < rep->run.n; i++) {
        if (rep->known != NULL)
            free(rep->known[i]);
        if (rep->check_known != NULL && rep->check_known[i] != NULL) {
            for (k = 0; k < rep->run.scenarios[i].n_checks; k++)
                free(rep->check_known[i][k]);
            free(rep->check_known[i]);
        }
    }
    free(rep->known);
    free(rep->check_known);
    rep->known = NULL;
    rep->check_known = NULL;
    for (i = 0; i < rep->n_notes; i++) {
        free(rep->notes[i].key);
        free(rep->notes[i].reason);
        free(rep->notes[i].why);
    }
    free(rep->notes);
    rep->notes = NULL;
    rep->n_notes = 0;
}

static int add_note(mc_report_t *rep, const mc_baseline_entry_t *e, int stale, const char *why)
{
    mc_report_bnote_t *nv = realloc(rep->notes, (rep->n_notes + 1) * sizeof(*nv));

    if (nv == NULL)
        return MC_ENOMEM;
    rep->notes = nv;
    nv[rep->n_notes].key = strdup(e->key);
    nv[rep->n_notes].reason = strdup(e->reason);
    nv[rep->n_notes].why = strdup(why);
    nv[rep->n_notes].stale = stale;
    if (nv[rep->n_notes].key == NULL || nv[rep->n_notes].reason == NULL ||
        nv[rep->n_notes].why == NULL) {
        free(nv[rep->n_notes].key);
        free(nv[rep->n_notes].reason);
        free(nv[rep->n_notes].why);
        return MC_ENOMEM;
    }
    rep->n_notes++;
    return MC_OK;
}

static const mc_check_result_t *find_check(const mc_scenario_result_t *r, const char *id)
{
    size_t k;

    for (k = 0; k < r->n_checks; k++)
        if (strcmp(r->checks[k].id, id) == 0)
            return &r->checks[k];
    return NULL;
}

/* Appends "id [version]" to a list in buf (bounded). */
static void list_add(char *buf, size_t n, const mc_scenario_result_t *r)
{
    size_t len = strlen(buf);

    if (len + 4 >= n)
        return;
    snprintf(buf + len, n - len, "%s%s", len > 0 ? ", " : "", r->version);
}

/*
 * Judges one entry: confirmed (the failure is still there), stale (the
 * scenario ran and the failure is gone) or unexercised.
 */
static int judge_entry(mc_report_t *rep, const mc_baseline_entry_t *e)
{
    const mc_run_result_t *run = &rep->run;
    size_t i, matched = 0, held = 0;
    char held_at[200] = "", why[600];
    const char *missing_in = NULL;

    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        if (!mc__bl_matches(e, r))
            continue;
        matched++;
        if (e->check == NULL) {
            if (r->verdict == MC_FAIL || r->verdict == MC_WARN || r->verdict == MC_ERROR ||
                mc_sresult_fails(r, run->fail_on))
                return MC_OK; /* confirmed */
            if (r->verdict == MC_PASS || r->verdict == MC_INFO) {
                held++;
                list_add(held_at, sizeof(held_at), r);
            }
        } else {
            const mc_check_result_t *c = find_check(r, e->check);
            /* An INFO check fails a run only by the gate: listing it is
             * needed only then. */
            if (c != NULL && c->verdict != MC_PASS &&
                (c->verdict != MC_INFO || mc_check_fails(c, rep->run.fail_on)))
                return MC_OK; /* confirmed */
            /* A check that is absent counts as gone only when the whole
             * scenario passed: otherwise it may not have been reached. */
            if ((c != NULL && r->verdict != MC_ERROR && r->verdict != MC_SKIP &&
                 r->verdict != MC_NOT_VERIFIED) ||
                (c == NULL && (r->verdict == MC_PASS || r->verdict == MC_INFO))) {
                held++;
                list_add(held_at, sizeof(held_at), r);
                if (c == NULL)
                    missing_in = r->id;
            }
        }
    }
    if (held > 0) {
        if (e->check == NULL)
            snprintf(why, sizeof(why), "%s now passes (at %s)", e->scenario, held_at);
        else if (missing_in != NULL)
            snprintf(why, sizeof(why), "%s no longer evaluates %s (at %s)", missing_in,
                     e->check, held_at);
        else
            snprintf(why, sizeof(why), "%s now holds in %s (at %s)", e->check, e->scenario,
                     held_at);
        return add_note(rep, e, 1, why);
    }
    for (i = 0; i < rep->n_not_run && matched == 0; i++)
        if (strcmp(rep->not_run[i].id, e->scenario) == 0 &&
            (e->version == NULL || strcmp(rep->not_run[i].version, e->version) == 0))
            return add_note(rep, e, 0, "did not run (the run was interrupted)");
    if (matched == 0)
        snprintf(why, sizeof(why), "no scenario %s%s%s in this run", e->scenario,
                 e->version ? " at " : "", e->version ? e->version : "");
    else
        snprintf(why, sizeof(why), "%s was skipped, not verified or stopped early: the "
                                   "failure could not be checked",
                 e->scenario);
    return add_note(rep, e, 0, why);
}

int mc_report_apply_baseline(mc_report_t *rep, const mc_baseline_t *b)
{
    mc_run_result_t *run = &rep->run;
    size_t i, k;
    int rc = MC_OK;

    free_known(rep);
    free(rep->baseline_path);
    rep->baseline_path = strdup(b->path != NULL ? b->path : "baseline");
    rep->known = calloc(run->n + 1, sizeof(*rep->known));
    rep->check_known = calloc(run->n + 1, sizeof(*rep->check_known));
    if (rep->baseline_path == NULL || rep->known == NULL || rep->check_known == NULL)
        return MC_ENOMEM;
    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        const char *why = mc_baseline_result_reason(b, r, run->fail_on);
        if (why != NULL) {
            rep->known[i] = strdup(why);
            if (rep->known[i] == NULL)
                rc = MC_ENOMEM;
        }
        for (k = 0; k < r->n_checks; k++) {
            const char *cw;
            if (r->checks[k].verdict == MC_PASS)
                continue;
            cw = mc_baseline_check_reason(b, r, r->checks[k].id);
            if (cw == NULL)
                continue;
            if (rep->check_known[i] == NULL)
                rep->check_known[i] = calloc(r->n_checks, sizeof(char *));
            if (rep->check_known[i] == NULL) {
                rc = MC_ENOMEM;
                break;
            }
            rep->check_known[i][k] = strdup(cw);
        }
    }
    for (i = 0; i < b->n && rc == MC_OK; i++)
        rc = judge_entry(rep, &b->v[i]);
    mc_report_summarize(rep);
    return rc;
}

void mc_report_summarize(mc_report_t *rep)
{
    size_t i;

    mc_run_summarize(&rep->run);
    rep->n_failed = rep->n_errors = rep->n_known = rep->n_stale = rep->n_gated = 0;
    memset(rep->outcomes, 0, sizeof(rep->outcomes));
    for (i = 0; i < rep->run.n; i++) {
        mc_outcome_t o = mc_report_outcome(rep, i);
        rep->outcomes[o]++;
        if (o == MC_OUT_FAIL && gated(rep, i))
            rep->n_gated++;
        if (!mc_report_scenario_fails(rep, i))
            continue;
        if (mc__known(rep, i) != NULL) {
            rep->n_known++;
        } else {
            rep->n_failed++;
            if (rep->run.scenarios[i].verdict == MC_ERROR)
                rep->n_errors++;
        }
    }
    for (i = 0; i < rep->n_notes; i++)
        if (rep->notes[i].stale)
            rep->n_stale++;
}

int mc_report_exit_code(const mc_report_t *rep)
{
    if (rep->run.n > 0 && rep->run.count[MC_ERROR] == rep->run.n)
        return 3;
    if (rep->n_failed > 0 || rep->n_stale > 0)
        return 1;
    if (rep->run.partial)
        return 3;
    return 0;
}

void mc_report_free(mc_report_t *rep)
{
    size_t i;

    free_known(rep);
    for (i = 0; i < rep->n_not_run; i++) {
        free(rep->not_run[i].id);
        free(rep->not_run[i].version);
        free(rep->not_run[i].area);
        free(rep->not_run[i].title);
        free(rep->not_run[i].file);
        free(rep->not_run[i].reason);
    }
    free(rep->not_run);
    free(rep->baseline_path);
    free(rep->gate_path);
    mc_run_free(&rep->run);
    memset(rep, 0, sizeof(*rep));
}
