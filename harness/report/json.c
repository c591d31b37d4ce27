/*
 * json.c - report.json: the result model as JSON (documented in
 * reports/README.md), and every output written into the report folder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buildinfo.h"
#include "core/limits.h"
#include "core/version.h"
#include "report/internal.h"

static void add_str(json_object *o, const char *k, const char *v)
{
    json_object_object_add(o, k, mc__json_str(v));
}

static void add_int(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

static json_object *check_json(const mc_check_result_t *c, const char *known,
                               mc_fail_on_t fail_on)
{
    json_object *o = json_object_new_object();
    char url[512], words[MC_RESULT_MAX_TEXT + 64];

    add_str(o, "id", c->id);
    add_str(o, "verdict", mc_verdict_name(c->verdict));
    add_str(o, "level", mc_level_name(c->level));
    if (c->author) {
        /* The author's rule: their words and link, nothing of the spec's. */
        add_str(o, "source", MC_REPORT_SOURCE_AUTHOR);
        add_str(o, "text", c->quote);
        add_str(o, "link", c->link);
    } else {
        add_str(o, "source", MC_REPORT_SOURCE_SPEC);
        add_str(o, "spec", c->ref);
        if (mc__spec_url(c->ref, url, sizeof(url)))
            add_str(o, "url", url);
        add_str(o, "quote", c->quote);
    }
    add_str(o, "interpretation", c->interpretation);
    add_str(o, "message", c->message);
    add_str(o, "expected", c->expected);
    add_str(o, "actual", c->actual);
    add_str(o, "path", c->path);
    add_int(o, "seq", (int64_t)c->seq);
    add_int(o, "line", c->line);
    add_int(o, "evaluations", c->evals);
    add_int(o, "failures", c->fails);
    add_str(o, "known", known);
    if (c->gate != MC_GATE_NONE) {
        json_object *g = json_object_new_object();
        add_str(g, "outcome", mc_gate_outcome_name(c->gate));
        add_str(g, "reason", c->gate_reason);
        json_object_object_add(o, "gate", g);
    }
    /* What the gate made of it, beside the spec's verdict ("" when the
     * verdict stands as it is). */
    mc_report_gate_words(c, fail_on, words, sizeof(words));
    if (words[0] != '\0')
        add_str(o, "gate_decision", words);
    json_object_object_add(o, "fails_run", json_object_new_boolean(mc_check_fails(c, fail_on)));
    return o;
}

static json_object *tx_json(const mc_tx_line_t *t)
{
    json_object *o = json_object_new_object();
    size_t kept = t->len > MC_RESULT_MAX_TX_LINE ? MC_RESULT_MAX_TX_LINE : t->len;

    if (t->len > MC_MAX_MESSAGE_SIZE)
        kept = 0; /* an oversize frame: its bytes were skipped, not kept */
    add_int(o, "seq", (int64_t)t->seq);
    add_int(o, "t_ms", t->t_ms);
    add_str(o, "dir", t->outbound ? "out" : "in");
    json_object_object_add(o, "line", mc__json_strn(t->line, kept));
    if (t->len > kept)
        add_int(o, "truncated_from", (int64_t)t->len);
    if (!mc__utf8_valid(t->line, kept)) {
        /* "line" has U+FFFD in place of the bad bytes; these are the bytes. */
        mc__buf_t b;
        mc__buf_init(&b);
        mc__buf_base64(&b, (const unsigned char *)t->line, kept);
        json_object_object_add(o, "raw_b64", json_object_new_string(b.p != NULL ? b.p : ""));
        mc__buf_free(&b);
    }
    return o;
}

static json_object *scenario_json(const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    json_object *o = json_object_new_object(), *checks = json_object_new_array(),
                *tx = json_object_new_array();
    size_t k;

    add_str(o, "id", r->id);
    add_str(o, "title", r->title);
    add_str(o, "area", r->area);
    add_str(o, "file", r->file);
    add_str(o, "version", r->version);
    if (r->tags != NULL)
        add_str(o, "tags", r->tags);
    add_str(o, "verdict", mc_verdict_name(r->verdict));
    add_str(o, "reason", r->reason);
    if (r->fixtures != NULL)
        add_str(o, "fixtures", r->fixtures);
    if (r->role != NULL)
        add_str(o, "missing_role", r->role);
    add_str(o, "known", mc__known(rep, i));
    add_str(o, "outcome", mc_outcome_key(mc_report_outcome(rep, i)));
    add_int(o, "duration_ms", r->duration_ms);
    add_str(o, "exit", r->exit_desc);
    add_str(o, "stderr_tail", r->stderr_tail);
    for (k = 0; k < r->n_checks; k++)
        json_object_array_add(checks, check_json(&r->checks[k], mc_report_check_known(rep, i, k),
                                                      rep->run.fail_on));
    json_object_object_add(o, "checks", checks);
    for (k = 0; k < r->n_tx; k++)
        json_object_array_add(tx, tx_json(&r->tx[k]));
    json_object_object_add(o, "transcript", tx);
    json_object_object_add(o, "transcript_truncated", json_object_new_boolean(r->tx_truncated));
    return o;
}

static json_object *baseline_json(const mc_report_t *rep)
{
    json_object *o, *stale, *other;
    size_t i;

    if (rep->baseline_path == NULL)
        return NULL;
    o = json_object_new_object();
    stale = json_object_new_array();
    other = json_object_new_array();
    add_str(o, "file", rep->baseline_path);
    for (i = 0; i < rep->n_notes; i++) {
        json_object *n = json_object_new_object();
        add_str(n, "id", rep->notes[i].key);
        add_str(n, "reason", rep->notes[i].reason);
        add_str(n, "why", rep->notes[i].why);
        json_object_array_add(rep->notes[i].stale ? stale : other, n);
    }
    json_object_object_add(o, "stale", stale);
    json_object_object_add(o, "unexercised", other);
    return o;
}

/* The program that wrote the report: {"version", "revision" (absent when
 * not built from git), "protocol_versions": [...]} (new reference). */
static json_object *tool_json(void)
{
    json_object *t = json_object_new_object(), *pv = json_object_new_array();
    const char *const *v;

    add_str(t, "version", mc_build_version());
    if (mc_build_revision()[0] != '\0')
        add_str(t, "revision", mc_build_revision());
    for (v = mc_version_names(); *v != NULL; v++)
        json_object_array_add(pv, json_object_new_string(*v));
    json_object_object_add(t, "protocol_versions", pv);
    return t;
}

json_object *mc_report_json(const mc_report_t *rep)
{
    const mc_run_result_t *run = &rep->run;
    json_object *root = json_object_new_object(), *sum = json_object_new_object(),
                *r = json_object_new_object(), *list = json_object_new_array(),
                *nr = json_object_new_array();
    size_t i;

    add_int(root, "mcpcheck_report", 1);
    add_int(sum, "scenarios", (int64_t)run->n);
    add_int(sum, "pass", (int64_t)run->count[MC_PASS]);
    add_int(sum, "fail", (int64_t)run->count[MC_FAIL]);
    add_int(sum, "warn", (int64_t)run->count[MC_WARN]);
    add_int(sum, "info", (int64_t)run->count[MC_INFO]);
    add_int(sum, "skip", (int64_t)run->count[MC_SKIP]);
    add_int(sum, "not_verified", (int64_t)run->count[MC_NOT_VERIFIED]);
    add_int(sum, "error", (int64_t)run->count[MC_ERROR]);
    add_int(sum, "known", (int64_t)rep->n_known);
    add_int(sum, "stale", (int64_t)rep->n_stale);
    add_int(sum, "not_run", (int64_t)rep->n_not_run);
    add_int(sum, "failed", (int64_t)rep->n_failed);
    add_int(sum, "duration_ms", run->duration_ms);
    add_int(sum, "exit_code", mc_report_exit_code(rep));
    {
        /* Each run once, by what it came to under the gate and the baseline. */
        json_object *oc = json_object_new_object();
        size_t o;
        add_int(oc, "runs", (int64_t)run->n);
        for (o = 0; o < MC_OUTCOME_COUNT; o++)
            add_int(oc, mc_outcome_key((mc_outcome_t)o), (int64_t)rep->outcomes[o]);
        add_int(oc, "failed_by_gate", (int64_t)rep->n_gated);
        json_object_object_add(sum, "outcomes", oc);
    }
    json_object_object_add(root, "summary", sum);

    add_str(r, "target", run->target);
    add_str(r, "protocol_versions", run->versions);
    add_str(r, "profile", run->profile);
    add_int(r, "seed", (int64_t)run->seed);
    add_str(r, "started", run->started);
    json_object_object_add(r, "partial", json_object_new_boolean(run->partial));
    if (run->partial)
        json_object_object_add(r, "partial_reason",
                               json_object_new_string(run->partial_why ? run->partial_why
                                                                       : "the run was interrupted"));
    json_object_object_add(r, "strict", json_object_new_boolean(run->fail_on >= MC_FAIL_ON_WARN));
    add_str(r, "fail_on", mc_fail_on_name(run->fail_on));
    add_str(r, "gate", rep->gate_path);
    add_str(r, "tool", "mcpcheck " MC_VERSION);
    json_object_object_add(r, "mcpcheck", tool_json());
    add_str(r, "base_dir", rep->base_dir);
    json_object_object_add(root, "run", r);

    {
        json_object *m = mc_report_matrix_json(rep);
        if (m != NULL)
            json_object_object_add(root, "matrix", m);
    }
    for (i = 0; i < run->n; i++)
        json_object_array_add(list, scenario_json(rep, i));
    json_object_object_add(root, "scenarios", list);
    for (i = 0; i < rep->n_not_run; i++) {
        const mc_report_notrun_t *e = &rep->not_run[i];
        json_object *o = json_object_new_object();
        add_str(o, "id", e->id);
        add_str(o, "version", e->version);
        add_str(o, "area", e->area);
        add_str(o, "title", e->title);
        add_str(o, "file", e->file);
        add_str(o, "reason", e->reason);
        json_object_array_add(nr, o);
    }
    json_object_object_add(root, "not_run", nr);
    json_object_object_add(root, "baseline", baseline_json(rep));
    return root;
}

int mc_report_write_json(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb)
{
    json_object *doc;
    const char *s;
    size_t len = 0;
    char path[4096];
    int rc;

    rc = mc_report_mkdirs(dir, eb);
    if (rc != MC_OK)
        return rc;
    if (!mc__path_join(path, sizeof(path), dir, MC_REPORT_JSON))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    doc = mc_report_json(rep);
    if (doc == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory building report.json");
    s = json_object_to_json_string_length(doc, JSON_C_TO_STRING_PRETTY |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE |
                                                   JSON_C_TO_STRING_SPACED,
                                          &len);
    if (s == NULL)
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory serializing report.json");
    else
        rc = mc_report_write_file(path, s, len, eb);
    json_object_put(doc);
    return rc;
}

typedef int (*builder_fn)(const mc_report_t *rep, char **out, size_t *len);

static int write_built(const mc_report_t *rep, const char *dir, const char *name, builder_fn fn,
                       mc_errbuf_t *eb)
{
    char path[4096], *data = NULL;
    size_t len = 0;
    int rc;

    if (!mc__path_join(path, sizeof(path), dir, name))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    rc = fn(rep, &data, &len);
    if (rc != MC_OK)
        return mc_errbuf_set(eb, rc, "cannot build %s: %s", path, mc_strerror(rc));
    rc = mc_report_write_file(path, data, len, eb);
    free(data);
    return rc;
}

int mc_report_write_all(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb)
{
    int rc, first;

    first = mc_report_mkdirs(dir, eb);
    if (first != MC_OK)
        return first;
    /* report.json first: it is the one every other output can be rebuilt from. */
    first = mc_report_write_json(rep, dir, eb);
    rc = write_built(rep, dir, MC_REPORT_JUNIT, mc_report_junit, eb);
    first = first != MC_OK ? first : rc;
    rc = write_built(rep, dir, MC_REPORT_SARIF, mc_report_sarif, eb);
    first = first != MC_OK ? first : rc;
    rc = write_built(rep, dir, MC_REPORT_HTML, mc_report_html, eb);
    first = first != MC_OK ? first : rc;
    rc = write_built(rep, dir, MC_REPORT_MD, mc_report_markdown, eb);
    first = first != MC_OK ? first : rc;
    rc = mc__write_traces(rep, dir, eb);
    return first != MC_OK ? first : rc;
}
