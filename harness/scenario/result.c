#include "scenario/result.h"

#include "core/version.h"
#include "judge/builtin.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Transcript bytes held by every live result (MC_RESULT_MAX_RUN_TX_BYTES). */
static atomic_size_t tx_held, tx_lines_held;

/* Gives back n of what a counter holds, never below zero: a result read
 * back from report.json (report/load.c) holds a transcript it never
 * counted, and freeing it must not wrap the counter round. */
static void release(atomic_size_t *a, size_t n)
{
    size_t cur = atomic_load(a);

    while (!atomic_compare_exchange_weak(a, &cur, cur > n ? cur - n : 0))
        ;
}

const char *mc_verdict_name(mc_verdict_t v)
{
    static const char *const names[] = {"PASS", "SKIP", "INFO", "NOT-VERIFIED",
                                        "WARN", "FAIL", "ERROR"};
    return (unsigned)v < MC_VERDICT_COUNT ? names[v] : "?";
}

mc_verdict_t mc_verdict_for_level(mc_level_t level)
{
    return level == MC_LEVEL_MUST ? MC_FAIL : level == MC_LEVEL_SHOULD ? MC_WARN : MC_INFO;
}

static char *dup_cap(const char *s, size_t cap)
{
    size_t n;
    char *d;

    if (s == NULL)
        return NULL;
    n = strlen(s);
    if (n > cap)
        n = cap;
    d = malloc(n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Longest tag list kept for a report (bytes). */
#define MC_RESULT_MAX_TAGS 256

/* The areas of the features a version may deprecate (MC_VF_DEPRECATED_RSL). */
static int deprecated_area(const char *area, const char *version)
{
    return mc_version_has(version, MC_VF_DEPRECATED_RSL) &&
           (strcmp(area, "roots") == 0 || strcmp(area, "sampling") == 0 ||
            strcmp(area, "logging") == 0);
}

/* The string members of doc's "tags", comma-separated, as a new string, with
 * "deprecated" added when the scenario's area is a feature the version
 * deprecates; NULL when there are none (or memory runs out: tags are a
 * label, not a verdict). */
static char *join_tags(json_object *doc, const char *area, const char *version)
{
    json_object *tags = NULL;
    char buf[MC_RESULT_MAX_TAGS];
    size_t i, n, off = 0;
    int dep = deprecated_area(area, version);

    buf[0] = '\0';
    if (doc == NULL || !json_object_object_get_ex(doc, "tags", &tags) ||
        !json_object_is_type(tags, json_type_array))
        tags = NULL;
    if (dep)
        off = (size_t)snprintf(buf, sizeof(buf), "deprecated");
    n = tags != NULL ? json_object_array_length(tags) : 0;
    for (i = 0; i < n; i++) {
        json_object *t = json_object_array_get_idx(tags, i);
        int w;
        if (!json_object_is_type(t, json_type_string) ||
            (dep && strcmp(json_object_get_string(t), "deprecated") == 0))
            continue;
        w = snprintf(buf + off, sizeof(buf) - off, "%s%s", off ? "," : "",
                     json_object_get_string(t));
        if (w < 0 || (size_t)w >= sizeof(buf) - off)
            break;
        off += (size_t)w;
    }
    return off > 0 ? strdup(buf) : NULL;
}

int mc_sresult_init(mc_scenario_result_t *r, const mc_scenario_t *sc, const char *version)
{
    memset(r, 0, sizeof(*r));
    r->id = strdup(sc->id);
    r->area = strdup(sc->area);
    r->title = strdup(sc->title ? sc->title : sc->id);
    r->file = strdup(sc->doc.name);
    r->version = strdup(version);
    r->checks = calloc(MC_RESULT_MAX_CHECKS, sizeof(*r->checks));
    r->tags = join_tags(sc->doc.root, sc->area, version);
    if (!r->id || !r->area || !r->title || !r->file || !r->version || !r->checks) {
        mc_sresult_free(r);
        return MC_ENOMEM;
    }
    return MC_OK;
}

/* True when def is the registry's own entry for id (a built-in check). */
static int is_builtin(const char *id, const mc_check_def_t *def)
{
    return def != NULL && (mc_builtin_check(id) == def || mc_builtin_http_check(id) == def);
}

int mc_sresult_check(mc_scenario_result_t *r, const char *id, const mc_check_def_t *def,
                     int pass, const char *message, const char *expected, const char *actual,
                     const char *path, uint64_t seq, int line)
{
    mc_check_result_t *c = NULL;
    size_t i;
    /* A verdict at a version quotes that version's page. A built-in check
     * applies at exactly the versions it names, so elsewhere it makes no
     * verdict; a scenario check whose sentence is not on the pages of the
     * version it runs at (the quote test keeps the library free of them)
     * is reported at INFO, without a page. */
    int stands = mc_check_stands_at(def, r->version);

    if (!stands && is_builtin(id, def))
        return MC_OK;

    for (i = 0; i < r->n_checks; i++)
        if (strcmp(r->checks[i].id, id) == 0) {
            c = &r->checks[i];
            break;
        }
    if (c == NULL) {
        if (r->n_checks == MC_RESULT_MAX_CHECKS)
            return MC_EFULL;
        c = &r->checks[r->n_checks];
        memset(c, 0, sizeof(*c));
        char ref[MC_CHECK_MAX_PAGE + 16] = "";
        if (stands)
            mc_check_ref_string(def, r->version, ref, sizeof(ref));
        c->id = strdup(id);
        c->ref = strdup(ref);
        c->quote = dup_cap(mc_check_quote_for(def, r->version), MC_CHECK_MAX_QUOTE);
        c->interpretation = def != NULL && def->interpretation != NULL
                                ? dup_cap(def->interpretation, MC_CHECK_MAX_INTERPRETATION)
                                : NULL;
        c->author = def != NULL && def->author;
        c->link = c->author && def->link != NULL ? dup_cap(def->link, MC_CHECK_MAX_LINK) : NULL;
        if (c->id == NULL || c->ref == NULL || c->quote == NULL ||
            (def != NULL && def->interpretation != NULL && c->interpretation == NULL) ||
            (c->author && def->link != NULL && c->link == NULL)) {
            free(c->id);
            free(c->ref);
            free(c->quote);
            free(c->interpretation);
            free(c->link);
            return MC_ENOMEM;
        }
        c->level = def == NULL ? MC_LEVEL_MUST
                   : stands    ? mc_check_level_for(def, r->version)
                               : MC_LEVEL_INFO;
        c->verdict = MC_PASS;
        c->line = line;
        r->n_checks++;
    }
    c->evals++;
    if (!pass) {
        c->fails++;
        if (c->message == NULL) {
            c->verdict = mc_verdict_for_level(c->level);
            char note[MC_RESULT_MAX_TEXT];
            snprintf(note, sizeof(note), "%s%s%s%s",
                     message ? message : "the requirement did not hold",
                     stands ? "" : " (the check's sentence is not on the pages of ",
                     stands ? "" : r->version, stands ? "" : ": INFO)");
            c->message = dup_cap(note, MC_RESULT_MAX_TEXT);
            c->expected = dup_cap(expected, MC_RESULT_MAX_TEXT);
            c->actual = dup_cap(actual, MC_RESULT_MAX_TEXT);
            c->path = dup_cap(path, MC_RESULT_MAX_TEXT);
            c->seq = seq;
            c->line = line;
        }
    }
    return MC_OK;
}

void mc_sresult_tx(mc_scenario_result_t *r, uint64_t seq, int64_t t_ms, int outbound,
                   const char *line, size_t len)
{
    mc_tx_line_t *t;
    size_t keep = len > MC_RESULT_MAX_TX_LINE ? MC_RESULT_MAX_TX_LINE : len;

    if (r->n_tx >= MC_RESULT_MAX_TX_LINES || r->tx_bytes + keep > MC_RESULT_MAX_TX_BYTES) {
        r->tx_truncated = 1;
        return;
    }
    if (atomic_fetch_add(&tx_held, keep) + keep > MC_RESULT_MAX_RUN_TX_BYTES) {
        atomic_fetch_sub(&tx_held, keep);
        r->tx_truncated = 1;
        return;
    }
    if (atomic_fetch_add(&tx_lines_held, 1) + 1 > MC_RESULT_MAX_RUN_TX_LINES) {
        atomic_fetch_sub(&tx_lines_held, 1);
        atomic_fetch_sub(&tx_held, keep);
        r->tx_truncated = 1;
        return;
    }
    if (r->tx == NULL) {
        r->tx = calloc(MC_RESULT_MAX_TX_LINES, sizeof(*r->tx));
        if (r->tx == NULL) {
            atomic_fetch_sub(&tx_held, keep);
            atomic_fetch_sub(&tx_lines_held, 1);
            r->tx_truncated = 1;
            return;
        }
    }
    t = &r->tx[r->n_tx];
    t->line = malloc(keep + 1);
    if (t->line == NULL) {
        atomic_fetch_sub(&tx_held, keep);
        atomic_fetch_sub(&tx_lines_held, 1);
        r->tx_truncated = 1;
        return;
    }
    memcpy(t->line, line, keep);
    t->line[keep] = '\0';
    t->seq = seq;
    t->t_ms = t_ms;
    t->outbound = outbound;
    t->len = len;
    r->tx_bytes += keep;
    r->n_tx++;
}

void mc_sresult_set(mc_scenario_result_t *r, mc_verdict_t v, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    if (r->reason != NULL && r->verdict >= v)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    free(r->reason);
    r->reason = strdup(buf);
    r->verdict = v;
}

void mc_sresult_finish(mc_scenario_result_t *r)
{
    size_t i;
    mc_verdict_t v = MC_PASS;

    for (i = 0; i < r->n_checks; i++)
        if (r->checks[i].verdict > v)
            v = r->checks[i].verdict;
    if (r->reason != NULL && (r->verdict == MC_SKIP || r->verdict == MC_NOT_VERIFIED)) {
        /* Not judged as a whole; a finding made before it had to stop stands. */
        if (v >= MC_WARN)
            r->verdict = v;
        return;
    }
    if (r->reason != NULL && r->verdict == MC_ERROR)
        v = MC_ERROR;
    /* A run that judged nothing proved nothing: a loop over an empty list,
     * a step guarded by what the server did not show. */
    if (v == MC_PASS && r->n_checks == 0) {
        mc_sresult_set(r, MC_NOT_VERIFIED,
                       "no check of the scenario was exercised: its steps ran, but what they "
                       "judge never came up (a loop over an empty list, a step the server's "
                       "answers ruled out)");
        return;
    }
    r->verdict = v;
}

void mc_sresult_free(mc_scenario_result_t *r)
{
    size_t i;

    for (i = 0; r->checks != NULL && i < r->n_checks; i++) {
        mc_check_result_t *c = &r->checks[i];
        free(c->id);
        free(c->ref);
        free(c->quote);
        free(c->interpretation);
        free(c->link);
        free(c->message);
        free(c->expected);
        free(c->actual);
        free(c->path);
        free(c->gate_reason);
    }
    free(r->checks);
    for (i = 0; i < r->n_tx; i++)
        free(r->tx[i].line);
    release(&tx_held, r->tx_bytes);
    release(&tx_lines_held, r->n_tx);
    free(r->tx);
    free(r->id);
    free(r->area);
    free(r->title);
    free(r->file);
    free(r->version);
    free(r->tags);
    free(r->reason);
    free(r->fixtures);
    free(r->role);
    free(r->stderr_tail);
    free(r->exit_desc);
    memset(r, 0, sizeof(*r));
}

void mc_run_summarize(mc_run_result_t *run)
{
    size_t i;

    memset(run->count, 0, sizeof(run->count));
    for (i = 0; i < run->n; i++)
        run->count[run->scenarios[i].verdict]++;
}

const char *mc_fail_on_name(mc_fail_on_t f)
{
    switch (f) {
    case MC_FAIL_ON_WARN:
        return "warn";
    case MC_FAIL_ON_INFO:
        return "info";
    default:
        return "fail";
    }
}

int mc_fail_on_parse(const char *s, mc_fail_on_t *out)
{
    if (strcmp(s, "fail") == 0)
        *out = MC_FAIL_ON_FAIL;
    else if (strcmp(s, "warn") == 0)
        *out = MC_FAIL_ON_WARN;
    else if (strcmp(s, "info") == 0)
        *out = MC_FAIL_ON_INFO;
    else
        return -1;
    return 0;
}

const char *mc_gate_outcome_name(mc_gate_outcome_t g)
{
    switch (g) {
    case MC_GATE_FAIL:
        return "fail";
    case MC_GATE_WARN:
        return "warn";
    case MC_GATE_IGNORE:
        return "ignore";
    default:
        return "";
    }
}

/* Whether a finding of verdict class v fails the run at this threshold. */
static int class_fails(mc_verdict_t v, mc_fail_on_t fail_on)
{
    return v == MC_FAIL || v == MC_ERROR || (v == MC_WARN && fail_on >= MC_FAIL_ON_WARN) ||
           (v == MC_INFO && fail_on >= MC_FAIL_ON_INFO);
}

int mc_check_fails(const mc_check_result_t *c, mc_fail_on_t fail_on)
{
    if (c->verdict != MC_FAIL && c->verdict != MC_WARN && c->verdict != MC_INFO)
        return 0;
    switch (c->gate) {
    case MC_GATE_FAIL:
        return 1;
    case MC_GATE_WARN:
        return class_fails(MC_WARN, fail_on);
    case MC_GATE_IGNORE:
        return 0;
    default:
        return class_fails(c->verdict, fail_on);
    }
}

int mc_sresult_fails(const mc_scenario_result_t *r, mc_fail_on_t fail_on)
{
    size_t k;
    int explained = 0;

    if (r->verdict == MC_ERROR)
        return 1;
    for (k = 0; k < r->n_checks; k++) {
        if (mc_check_fails(&r->checks[k], fail_on))
            return 1;
        explained |= r->checks[k].verdict == r->verdict;
    }
    /* A verdict set without a check to show for it is judged as it stands. */
    return !explained && class_fails(r->verdict, fail_on);
}

int mc_check_set_gate(mc_check_result_t *c, mc_gate_outcome_t g, const char *reason)
{
    char *copy = NULL;

    if (g != MC_GATE_NONE && reason != NULL) {
        copy = strdup(reason);
        if (copy == NULL)
            return MC_ENOMEM;
    }
    free(c->gate_reason);
    c->gate = g;
    c->gate_reason = copy;
    return MC_OK;
}

int mc_run_exit_code(const mc_run_result_t *run)
{
    size_t i;

    if (run->n > 0 && run->count[MC_ERROR] == run->n)
        return 3;
    for (i = 0; i < run->n; i++)
        if (mc_sresult_fails(&run->scenarios[i], run->fail_on))
            return 1;
    if (run->partial)
        return 3;
    return 0;
}

void mc_run_free(mc_run_result_t *run)
{
    size_t i;

    for (i = 0; i < run->n; i++)
        mc_sresult_free(&run->scenarios[i]);
    free(run->scenarios);
    free(run->target);
    free(run->versions);
    free(run->partial_why);
    free(run->profile);
    memset(run, 0, sizeof(*run));
}
