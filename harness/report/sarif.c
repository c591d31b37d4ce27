/*
 * sarif.c - report.sarif, SARIF 2.1.0 (OASIS), as GitHub code scanning
 * reads it.
 *
 * One rule per check id: its quoted spec sentence as shortDescription, the
 * spec page as helpUri, the quote and the harness's reading apart in help,
 * the level of the sentence as default level (MUST: error, SHOULD: warning,
 * MAY and INFO: note). Each result carries the spec link of the version that
 * ran (properties.specUrl). One result per broken check of
 * each scenario run, located at the scenario file and the line of the step
 * that failed (the scenario's first line for wire and schema checks, which
 * no step owns). A scenario that ended in ERROR gets a result of the rule
 * "mcpcheck/error". An author's check (a rule of the server's own authors)
 * is a rule of its own kind: its words, its link as helpUri, properties
 * source "author", never a spec page. Failures a baseline lists carry an external suppression
 * with its reason, so code scanning shows them as dismissed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define MC_SARIF_ERROR_RULE "mcpcheck/error"

static const char *sarif_level(mc_level_t l)
{
    return l == MC_LEVEL_MUST ? "error" : l == MC_LEVEL_SHOULD ? "warning" : "note";
}

static json_object *text_obj(const char *s)
{
    json_object *o = json_object_new_object();

    json_object_object_add(o, "text", mc__json_str(s != NULL ? s : ""));
    return o;
}

typedef struct rules {
    json_object *arr;   /* borrowed from the driver */
    char **ids;
    size_t n, cap;
} rules_t;

/*
 * The rule of an author's check: the author's words and link, labelled as
 * their rule; no spec page, no spec quote (properties.source "author").
 */
static void author_rule(json_object *rule, json_object *props, json_object *tags, json_object *cfg,
                        const char *id, const mc_check_result_t *c)
{
    const char *slash = strchr(id, '/');
    mc__buf_t h;

    json_object_object_add(rule, "name", mc__json_str(id));
    json_object_object_add(rule, "shortDescription", text_obj(c->quote[0] != '\0' ? c->quote : id));
    json_object_object_add(rule, "fullDescription", text_obj(c->quote[0] != '\0' ? c->quote : id));
    if (c->link != NULL)
        json_object_object_add(rule, "helpUri", mc__json_str(c->link));
    mc__buf_init(&h);
    mc__buf_printf(&h, "%s (" MC_REPORT_AUTHOR_LABEL "): \"", mc_level_name(c->level));
    mc__buf_puts(&h, c->quote);
    mc__buf_puts(&h, "\" (a rule of the server's authors, not of the MCP specification)");
    json_object_object_add(rule, "help", text_obj(h.p));
    mc__buf_free(&h);
    json_object_object_add(cfg, "level", json_object_new_string(sarif_level(c->level)));
    json_object_object_add(props, "requirementLevel",
                           json_object_new_string(mc_level_name(c->level)));
    json_object_object_add(props, "source", json_object_new_string(MC_REPORT_SOURCE_AUTHOR));
    json_object_object_add(props, "rule", mc__json_str(c->quote));
    if (c->link != NULL)
        json_object_object_add(props, "link", mc__json_str(c->link));
    json_object_array_add(tags, json_object_new_string("your-rule"));
    json_object_array_add(tags, json_object_new_string(mc_level_name(c->level)));
    if (slash != NULL)
        json_object_array_add(tags, json_object_new_string_len(id, (int)(slash - id)));
}

/* Index of rule id, adding it from c (or as the error rule) when new; -1 on ENOMEM. */
static int rule_index(rules_t *rs, const char *id, const mc_check_result_t *c)
{
    json_object *rule, *props, *cfg, *tags;
    char url[1200];
    size_t i;

    for (i = 0; i < rs->n; i++)
        if (strcmp(rs->ids[i], id) == 0)
            return (int)i;
    if (rs->n == rs->cap) {
        size_t nc = rs->cap ? rs->cap * 2 : 64;
        char **nv = realloc(rs->ids, nc * sizeof(*nv));
        if (nv == NULL)
            return -1;
        rs->ids = nv;
        rs->cap = nc;
    }
    rs->ids[rs->n] = strdup(id);
    if (rs->ids[rs->n] == NULL)
        return -1;
    rule = json_object_new_object();
    props = json_object_new_object();
    cfg = json_object_new_object();
    tags = json_object_new_array();
    json_object_object_add(rule, "id", mc__json_str(id));
    if (c != NULL && c->author) {
        author_rule(rule, props, tags, cfg, id, c);
    } else if (c != NULL) {
        const char *slash = strchr(id, '/');
        json_object_object_add(rule, "name", mc__json_str(id));
        json_object_object_add(rule, "shortDescription",
                               text_obj(c->quote[0] != '\0' ? c->quote : id));
        json_object_object_add(rule, "fullDescription",
                               text_obj(c->quote[0] != '\0' ? c->quote : id));
        if (mc__spec_url(c->ref, url, sizeof(url)))
            json_object_object_add(rule, "helpUri", mc__json_str(url));
        {
            /* The spec's sentence, then the harness's reading, apart. */
            mc__buf_t h;
            mc__buf_init(&h);
            mc__buf_printf(&h, "%s: \"", mc_level_name(c->level));
            mc__buf_puts(&h, c->quote);
            mc__buf_puts(&h, "\"");
            if (c->ref[0] != '\0') {
                mc__buf_puts(&h, " (MCP specification ");
                mc__buf_puts(&h, c->ref);
                mc__buf_puts(&h, ")");
            }
            if (c->interpretation != NULL) {
                mc__buf_puts(&h, " Our reading: ");
                mc__buf_puts(&h, c->interpretation);
            }
            json_object_object_add(rule, "help", text_obj(h.p));
            mc__buf_free(&h);
        }
        json_object_object_add(cfg, "level", json_object_new_string(sarif_level(c->level)));
        json_object_object_add(props, "requirementLevel",
                               json_object_new_string(mc_level_name(c->level)));
        json_object_object_add(props, "source", json_object_new_string(MC_REPORT_SOURCE_SPEC));
        json_object_object_add(props, "spec", mc__json_str(c->ref));
        json_object_object_add(props, "quote", mc__json_str(c->quote));
        if (c->interpretation != NULL)
            json_object_object_add(props, "interpretation", mc__json_str(c->interpretation));
        json_object_array_add(tags, json_object_new_string("mcp"));
        json_object_array_add(tags, json_object_new_string(mc_level_name(c->level)));
        if (slash != NULL)
            json_object_array_add(tags, json_object_new_string_len(id, (int)(slash - id)));
    } else {
        json_object_object_add(rule, "name", json_object_new_string("target-or-harness-error"));
        json_object_object_add(
            rule, "shortDescription",
            text_obj("The server under test must start, keep running and answer every "
                     "request within the time limit."));
        json_object_object_add(rule, "fullDescription",
                               text_obj("A scenario ended in ERROR: the server crashed, hung, "
                                        "closed its output or could not be started."));
        json_object_object_add(cfg, "level", json_object_new_string("error"));
        json_object_array_add(tags, json_object_new_string("mcp"));
        json_object_array_add(tags, json_object_new_string("error"));
    }
    json_object_object_add(rule, "defaultConfiguration", cfg);
    json_object_object_add(props, "tags", tags);
    json_object_object_add(rule, "properties", props);
    json_object_array_add(rs->arr, rule);
    return (int)rs->n++;
}

static json_object *location(const mc_report_t *rep, const char *file, int line)
{
    json_object *loc = json_object_new_object(), *phys = json_object_new_object(),
                *art = json_object_new_object(), *region = json_object_new_object();
    const char *rel = mc__relpath(file, rep->base_dir);
    mc__buf_t u;

    mc__buf_init(&u);
    if (rel[0] == '/') {
        mc__buf_puts(&u, "file://");
        mc__buf_uri_path(&u, rel);
    } else {
        mc__buf_uri_path(&u, rel);
        json_object_object_add(art, "uriBaseId", json_object_new_string("%SRCROOT%"));
    }
    json_object_object_add(art, "uri", mc__json_str(u.p != NULL ? u.p : ""));
    mc__buf_free(&u);
    json_object_object_add(region, "startLine", json_object_new_int(line > 0 ? line : 1));
    json_object_object_add(phys, "artifactLocation", art);
    json_object_object_add(phys, "region", region);
    json_object_object_add(loc, "physicalLocation", phys);
    return loc;
}

/* A result's level: the spec's (its rule's default), unless the gate
 * decides otherwise: "error" when the check fails the run, "warning" for a
 * rule's "warn" that does not, "note" for one it ignores. */
static const char *gated_level(const mc_report_t *rep, const mc_check_result_t *c)
{
    if (mc_check_fails(c, rep->run.fail_on))
        return "error";
    if (c->gate == MC_GATE_WARN || c->gate == MC_GATE_FAIL)
        return "warning";
    if (c->gate == MC_GATE_IGNORE)
        return "note";
    return sarif_level(c->level);
}

static void add_result(json_object *results, const mc_report_t *rep,
                       const mc_scenario_result_t *r, const char *rule_id, int idx,
                       const char *level, const char *message, int line,
                       const mc_check_result_t *c, const char *known)
{
    json_object *res = json_object_new_object(), *locs = json_object_new_array(),
                *props = json_object_new_object(), *fp = json_object_new_object();
    char url[1200];
    mc__buf_t m;

    mc__buf_init(&m);
    mc__buf_printf(&m, "%s [%s]: ", r->id, r->version ? r->version : "?");
    mc__buf_puts(&m, message);
    if (c != NULL && c->expected != NULL) {
        mc__buf_puts(&m, " Expected: ");
        mc__buf_puts(&m, c->expected);
        mc__buf_puts(&m, ".");
    }
    if (c != NULL && c->actual != NULL) {
        mc__buf_puts(&m, " Actual: ");
        mc__buf_puts(&m, c->actual);
        mc__buf_puts(&m, ".");
    }
    json_object_object_add(res, "ruleId", mc__json_str(rule_id));
    json_object_object_add(res, "ruleIndex", json_object_new_int(idx));
    json_object_object_add(res, "level", json_object_new_string(level));
    json_object_object_add(res, "message", text_obj(m.p));
    mc__buf_free(&m);
    json_object_array_add(locs, location(rep, r->file, line));
    json_object_object_add(res, "locations", locs);
    mc__buf_init(&m);
    mc__buf_printf(&m, "%s@%s:%s", r->id, r->version ? r->version : "?", rule_id);
    json_object_object_add(fp, "mcpcheck/v1", mc__json_str(m.p));
    mc__buf_free(&m);
    json_object_object_add(res, "partialFingerprints", fp);
    json_object_object_add(props, "scenario", mc__json_str(r->id));
    json_object_object_add(props, "protocolVersion", mc__json_str(r->version));
    json_object_object_add(props, "verdict",
                           json_object_new_string(mc_verdict_name(c ? c->verdict : r->verdict)));
    if (c != NULL) {
        if (c->path != NULL)
            json_object_object_add(props, "path", mc__json_str(c->path));
        if (c->seq > 0)
            json_object_object_add(props, "messageSeq", json_object_new_int64((int64_t)c->seq));
        if (mc__spec_url(c->ref, url, sizeof(url)))
            json_object_object_add(props, "specUrl", mc__json_str(url));
        if (c->expected != NULL)
            json_object_object_add(props, "expected", mc__json_str(c->expected));
        if (c->actual != NULL)
            json_object_object_add(props, "actual", mc__json_str(c->actual));
        json_object_object_add(props, "specLevel",
                               json_object_new_string(mc_level_name(c->level)));
        json_object_object_add(props, "failsRun",
                               json_object_new_boolean(mc_check_fails(c, rep->run.fail_on)));
        mc_report_gate_words(c, rep->run.fail_on, url, sizeof(url));
        if (url[0] != '\0')
            json_object_object_add(props, "gateDecision", mc__json_str(url));
    }
    if (r->stderr_tail != NULL && r->stderr_tail[0] != '\0' && c == NULL)
        json_object_object_add(props, "stderrTail", mc__json_str(r->stderr_tail));
    json_object_object_add(res, "properties", props);
    if (known != NULL) {
        json_object *sups = json_object_new_array(), *s = json_object_new_object();
        json_object_object_add(s, "kind", json_object_new_string("external"));
        json_object_object_add(s, "justification", mc__json_str(known));
        json_object_array_add(sups, s);
        json_object_object_add(res, "suppressions", sups);
        json_object_object_add(res, "baselineState", json_object_new_string("unchanged"));
    } else if (c != NULL && c->gate == MC_GATE_IGNORE) {
        json_object *sups = json_object_new_array(), *s = json_object_new_object();
        json_object_object_add(s, "kind", json_object_new_string("external"));
        json_object_object_add(s, "justification", mc__json_str(c->gate_reason));
        json_object_array_add(sups, s);
        json_object_object_add(res, "suppressions", sups);
    }
    json_object_array_add(results, res);
}

int mc_report_sarif(const mc_report_t *rep, char **out, size_t *len)
{
    json_object *root = json_object_new_object(), *runs = json_object_new_array(),
                *run = json_object_new_object(), *tool = json_object_new_object(),
                *driver = json_object_new_object(), *results = json_object_new_array(),
                *inv = json_object_new_object(), *invs = json_object_new_array(),
                *bases = json_object_new_object(), *src = json_object_new_object();
    rules_t rs;
    size_t i, k;
    int rc = MC_OK;
    const char *s;
    size_t n = 0;
    mc__buf_t u;

    memset(&rs, 0, sizeof(rs));
    rs.arr = json_object_new_array();
    json_object_object_add(root, "$schema",
                           json_object_new_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_object_add(root, "version", json_object_new_string("2.1.0"));
    json_object_object_add(driver, "name", json_object_new_string("mcpcheck"));
    json_object_object_add(driver, "version", json_object_new_string(MC_VERSION));
    json_object_object_add(driver, "semanticVersion", json_object_new_string(MC_VERSION));
    json_object_object_add(driver, "informationUri",
                           json_object_new_string("https://modelcontextprotocol.io/specification"));
    json_object_object_add(driver, "rules", rs.arr);
    json_object_object_add(tool, "driver", driver);
    json_object_object_add(run, "tool", tool);

    for (i = 0; i < rep->run.n && rc == MC_OK; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[i];
        for (k = 0; k < r->n_checks; k++) {
            const mc_check_result_t *c = &r->checks[k];
            int idx = rule_index(&rs, c->id, c);
            if (idx < 0) {
                rc = MC_ENOMEM;
                break;
            }
            if (c->verdict == MC_PASS)
                continue;
            add_result(results, rep, r, c->id, idx, gated_level(rep, c),
                       c->message != NULL ? c->message : c->quote, c->line, c,
                       mc_report_check_known(rep, i, k));
        }
        if (r->verdict == MC_ERROR && rc == MC_OK) {
            int idx = rule_index(&rs, MC_SARIF_ERROR_RULE, NULL);
            mc__buf_t m;
            if (idx < 0) {
                rc = MC_ENOMEM;
                break;
            }
            mc__buf_init(&m);
            mc__buf_puts(&m, r->reason != NULL ? r->reason : "the scenario ended in ERROR");
            if (r->exit_desc != NULL) {
                mc__buf_puts(&m, " (the server ");
                mc__buf_puts(&m, r->exit_desc);
                mc__buf_puts(&m, ")");
            }
            add_result(results, rep, r, MC_SARIF_ERROR_RULE, idx, "error",
                       m.p != NULL ? m.p : "", 1, NULL, mc__known(rep, i));
            mc__buf_free(&m);
        }
    }
    json_object_object_add(run, "results", results);

    json_object_object_add(inv, "executionSuccessful",
                           json_object_new_boolean(!rep->run.partial));
    if (rep->run.target != NULL)
        json_object_object_add(inv, "commandLine", mc__json_str(rep->run.target));
    if (rep->run.partial) {
        json_object *notes = json_object_new_array(), *note = json_object_new_object();
        json_object_object_add(note, "level", json_object_new_string("warning"));
        json_object_object_add(note, "message",
                               text_obj("The run was interrupted: not every scenario ran."));
        json_object_array_add(notes, note);
        json_object_object_add(inv, "toolExecutionNotifications", notes);
    }
    json_object_array_add(invs, inv);
    json_object_object_add(run, "invocations", invs);

    mc__buf_init(&u);
    mc__buf_puts(&u, "file://");
    mc__buf_uri_path(&u, rep->base_dir);
    if (u.len == 0 || u.p[u.len - 1] != '/')
        mc__buf_puts(&u, "/");
    json_object_object_add(src, "uri", mc__json_str(u.p));
    mc__buf_free(&u);
    json_object_object_add(bases, "%SRCROOT%", src);
    json_object_object_add(run, "originalUriBaseIds", bases);
    {
        json_object *auto_ = json_object_new_object();
        json_object_object_add(auto_, "id", json_object_new_string("mcpcheck/run/"));
        json_object_object_add(run, "automationDetails", auto_);
    }
    json_object_array_add(runs, run);
    json_object_object_add(root, "runs", runs);

    for (i = 0; i < rs.n; i++)
        free(rs.ids[i]);
    free(rs.ids);
    if (rc == MC_OK) {
        s = json_object_to_json_string_length(
            root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
            &n);
        *out = s != NULL ? malloc(n + 2) : NULL;
        if (*out == NULL) {
            rc = MC_ENOMEM;
        } else {
            memcpy(*out, s, n);
            (*out)[n] = '\n';
            (*out)[n + 1] = '\0';
            *len = n + 1;
        }
    }
    json_object_put(root);
    return rc;
}
