/*
 * gate.c - the gate: what fails the user's run, per check id or glob, with
 * a reason. Reading a gate file, finding the rule of a check, and writing
 * its decision onto results. The spec's level and the verdicts are never
 * changed; the decision sits beside them.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "judge/builtin.h"
#include "scenario/jsonc.h"

/* Bytes of a pattern shown in an error message. */
#define MC_GATE_SHOWN 200

static void rule_free(mc_gate_rule_t *r)
{
    free(r->check);
    free(r->reason);
    memset(r, 0, sizeof(*r));
}

void mc_gate_free(mc_gate_t *g)
{
    size_t i;

    if (g == NULL)
        return;
    for (i = 0; i < g->n; i++)
        rule_free(&g->v[i]);
    free(g->v);
    free(g->path);
    memset(g, 0, sizeof(*g));
}

static int where_err(mc_errbuf_t *eb, const mc_jsonc_doc_t *doc, const char *ptr, const char *what)
{
    int line, col;

    mc_jsonc_where(doc, ptr, &line, &col);
    return mc_errbuf_set(eb, MC_EINVAL, "%s:%d:%d: %s", doc->name, line, col, what);
}

static int is_glob(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* A check pattern: an id as the catalogue writes them, or a glob of them. */
static int pattern_ok(const char *s)
{
    if (s[0] == '\0')
        return 0;
    if (!is_glob(s))
        return mc_check_id_ok(s);
    for (; *s != '\0'; s++)
        if ((unsigned char)*s <= ' ' || *s == 0x7F)
            return 0;
    return 1;
}

static int parse_outcome(const char *s, mc_gate_outcome_t *out)
{
    if (strcmp(s, "fail") == 0)
        *out = MC_GATE_FAIL;
    else if (strcmp(s, "warn") == 0)
        *out = MC_GATE_WARN;
    else if (strcmp(s, "ignore") == 0)
        *out = MC_GATE_IGNORE;
    else
        return -1;
    return 0;
}

/* The string member key of obj, or NULL when absent or not a string. */
static const char *str_member(json_object *obj, const char *key)
{
    json_object *v = NULL;

    if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int load_rule(const mc_jsonc_doc_t *doc, json_object *it, size_t idx, mc_gate_t *g,
                     mc_errbuf_t *eb)
{
    char ptr[64], msg[600];
    const char *check, *outcome, *reason;
    mc_gate_rule_t r;
    size_t i;
    int col;

    snprintf(ptr, sizeof(ptr), "/rules/%zu", idx);
    if (!json_object_is_type(it, json_type_object))
        return where_err(eb, doc, ptr,
                         "a rule is an object {\"check\": ..., \"outcome\": ..., \"reason\": ...}");
    json_object_object_foreach(it, k, v)
    {
        (void)v;
        if (strcmp(k, "check") != 0 && strcmp(k, "outcome") != 0 && strcmp(k, "reason") != 0) {
            snprintf(msg, sizeof(msg),
                     "unknown field \"%.100s\" (a rule has \"check\", \"outcome\" and \"reason\")",
                     k);
            return where_err(eb, doc, ptr, msg);
        }
    }
    memset(&r, 0, sizeof(r));
    check = str_member(it, "check");
    outcome = str_member(it, "outcome");
    reason = str_member(it, "reason");
    if (check == NULL || !pattern_ok(check))
        return where_err(eb, doc, ptr,
                         "\"check\" (a check id like \"area/rule\", or a glob of them like "
                         "\"logging/*\") is missing or malformed");
    if (outcome == NULL || parse_outcome(outcome, &r.outcome) != 0)
        return where_err(eb, doc, ptr,
                         "\"outcome\" is missing or not one of \"fail\", \"warn\", \"ignore\"");
    if (reason == NULL || reason[0] == '\0')
        return where_err(eb, doc, ptr,
                         "\"reason\" is missing or empty: say why the check's outcome is yours");
    for (i = 0; i < g->n; i++) {
        if (strcmp(g->v[i].check, check) == 0) {
            snprintf(msg, sizeof(msg), "\"%.*s\" has a rule already (line %d)", MC_GATE_SHOWN,
                     check, g->v[i].line);
            return where_err(eb, doc, ptr, msg);
        }
    }
    r.check = strdup(check);
    r.reason = strdup(reason);
    if (r.check == NULL || r.reason == NULL) {
        rule_free(&r);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    mc_jsonc_where(doc, ptr, &r.line, &col);
    g->v[g->n++] = r;
    return MC_OK;
}

/* Checks the top-level members and reads "fail_on". */
static int load_head(const mc_jsonc_doc_t *doc, mc_gate_t *g, mc_errbuf_t *eb)
{
    json_object *ver = NULL, *fo = NULL;

    if (!json_object_is_type(doc->root, json_type_object))
        return where_err(eb, doc, "", "a gate is an object {\"rules\": [...]}");
    json_object_object_foreach(doc->root, k, v)
    {
        (void)v;
        if (strcmp(k, "mcpcheck_gate") != 0 && strcmp(k, "fail_on") != 0 &&
            strcmp(k, "rules") != 0) {
            char msg[200], ptr[160];
            snprintf(msg, sizeof(msg),
                     "unknown field \"%.100s\" (a gate has \"mcpcheck_gate\", \"fail_on\" and "
                     "\"rules\")",
                     k);
            snprintf(ptr, sizeof(ptr), "/%.100s", k);
            return where_err(eb, doc, ptr, msg);
        }
    }
    if (json_object_object_get_ex(doc->root, "mcpcheck_gate", &ver) &&
        (!json_object_is_type(ver, json_type_int) || json_object_get_int(ver) != 1))
        return where_err(eb, doc, "/mcpcheck_gate", "unsupported gate format (want 1)");
    if (json_object_object_get_ex(doc->root, "fail_on", &fo)) {
        if (!json_object_is_type(fo, json_type_string) ||
            mc_fail_on_parse(json_object_get_string(fo), &g->fail_on) != 0)
            return where_err(eb, doc, "/fail_on",
                             "\"fail_on\" is one of \"fail\", \"warn\", \"info\"");
        g->has_fail_on = 1;
    }
    return MC_OK;
}

int mc_gate_load(const char *path, mc_gate_t *out, mc_errbuf_t *eb)
{
    mc_jsonc_doc_t doc;
    mc_gate_t g;
    json_object *rules = NULL;
    size_t i, n;
    int rc;

    rc = mc_jsonc_load(path, &doc, eb);
    if (rc != MC_OK)
        return rc;
    memset(&g, 0, sizeof(g));
    rc = load_head(&doc, &g, eb);
    if (rc != MC_OK)
        goto out;
    if (!json_object_object_get_ex(doc.root, "rules", &rules) ||
        !json_object_is_type(rules, json_type_array)) {
        rc = where_err(eb, &doc, "",
                       "\"rules\" (an array of {\"check\", \"outcome\", \"reason\"}) is missing");
        goto out;
    }
    n = json_object_array_length(rules);
    if (n > MC_GATE_MAX_RULES) {
        rc = where_err(eb, &doc, "/rules", "too many rules");
        goto out;
    }
    g.v = calloc(n + 1, sizeof(*g.v));
    g.path = strdup(path);
    if (g.v == NULL || g.path == NULL) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++) {
        rc = load_rule(&doc, json_object_array_get_idx(rules, i), i, &g, eb);
        if (rc != MC_OK)
            goto out;
    }
    *out = g;
    memset(&g, 0, sizeof(g));
    rc = MC_OK;
out:
    mc_gate_free(&g);
    mc_jsonc_free(&doc);
    return rc;
}

const mc_gate_rule_t *mc_gate_rule_for(const mc_gate_t *g, const char *check)
{
    size_t i;

    if (g == NULL || check == NULL)
        return NULL;
    for (i = 0; i < g->n; i++)
        if (strcmp(g->v[i].check, check) == 0)
            return &g->v[i];
    for (i = 0; i < g->n; i++)
        if (is_glob(g->v[i].check) && fnmatch(g->v[i].check, check, 0) == 0)
            return &g->v[i];
    return NULL;
}

int mc_gate_apply(const mc_gate_t *g, mc_scenario_result_t *r)
{
    size_t k;

    for (k = 0; g != NULL && k < r->n_checks; k++) {
        const mc_gate_rule_t *rule = mc_gate_rule_for(g, r->checks[k].id);
        if (rule == NULL)
            continue;
        if (mc_check_set_gate(&r->checks[k], rule->outcome, rule->reason) != MC_OK)
            return MC_ENOMEM;
    }
    return MC_OK;
}

void mc_report_gate_words(const mc_check_result_t *c, mc_fail_on_t fail_on, char *out, size_t n)
{
    int broken = c->verdict == MC_FAIL || c->verdict == MC_WARN || c->verdict == MC_INFO;

    if (n == 0)
        return;
    out[0] = '\0';
    if (!broken)
        return;
    switch (c->gate) {
    case MC_GATE_FAIL:
        snprintf(out, n, "failed by your gate: %s", c->gate_reason ? c->gate_reason : "");
        return;
    case MC_GATE_WARN:
        snprintf(out, n, "%s by your gate: %s",
                 mc_check_fails(c, fail_on) ? "a failing warning" : "a warning",
                 c->gate_reason ? c->gate_reason : "");
        return;
    case MC_GATE_IGNORE:
        snprintf(out, n, "ignored by your gate: %s", c->gate_reason ? c->gate_reason : "");
        return;
    default:
        if (c->verdict != MC_FAIL && mc_check_fails(c, fail_on))
            snprintf(out, n, "failed by your gate (--fail-on %s)", mc_fail_on_name(fail_on));
        return;
    }
}

const char *mc_outcome_label(mc_outcome_t o)
{
    static const char *const labels[MC_OUTCOME_COUNT] = {"passed",  "failed",   "errors",
                                                         "known",   "warnings", "info",
                                                         "ignored", "skipped",  "not verified"};

    return (unsigned)o < MC_OUTCOME_COUNT ? labels[o] : "?";
}

const char *mc_outcome_key(mc_outcome_t o)
{
    static const char *const keys[MC_OUTCOME_COUNT] = {"passed",  "failed",   "errors",
                                                       "known",   "warnings", "info",
                                                       "ignored", "skipped",  "not_verified"};

    return (unsigned)o < MC_OUTCOME_COUNT ? keys[o] : "?";
}
