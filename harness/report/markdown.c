/*
 * markdown.c - report.md: the run in GitHub-flavoured Markdown, short enough
 * for a job summary or a pull-request comment.
 *
 * It holds the verdict and counts (each run once, by outcome, as every
 * other output counts them), the failures grouped by cause with the spec's
 * sentence and a link, the INFO observations and the NOT-VERIFIED runs
 * folded (<details>), and the area x version matrix. It never grows past
 * MC_REPORT_MD_MAX: a table gets whole rows only, and the rows that do not
 * fit are counted under it. Every text from the target is escaped, so no
 * byte it sends can open a tag, a link or a table cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buildinfo.h"
#include "core/version.h"
#include "judge/check.h"
#include "report/internal.h"
#include "report/report.h"

/* Bytes kept free below MC_REPORT_MD_MAX for the lines that close the
 * sections (the "N more not shown" notes, </details>) once a table stops. */
#define MD_RESERVE 2048

/* The output and the room it may still take. */
typedef struct md {
    mc__buf_t b;
    size_t limit; /* the largest b.len may become before the closing lines */
} md_t;

/* Bytes of one table cell's text from the target before "…". */
#define MD_CELL_MAX 400

/* Appends row (one whole table row) when it fits below the limit; returns
 * 1 when it was added, 0 when it was counted out. */
static int md_row(md_t *m, mc__buf_t *row)
{
    int fits = row->err == MC_OK && m->b.len + row->len <= m->limit;

    if (fits)
        mc__buf_add(&m->b, row->p, row->len);
    mc__buf_free(row);
    mc__buf_init(row);
    return fits;
}

static void md_more(md_t *m, size_t left, const char *what)
{
    if (left > 0)
        mc__buf_printf(&m->b, "\n_%zu more %s not shown here: see report.html._\n", left, what);
}

/* The heading, the counts by outcome, and how the run was made. */
static void md_head(md_t *m, const mc_report_t *rep)
{
    int code = mc_report_exit_code(rep);
    char counts[1024], line[256];
    size_t o;

    mc_report_counts_text(rep, counts, sizeof(counts));
    mc__buf_printf(&m->b, "# mcpcheck: %s\n\n",
                   code == 0   ? "passed"
                   : code == 3 ? "incomplete"
                               : "failed");
    mc__buf_puts(&m->b, "**");
    mc__buf_md(&m->b, counts, sizeof(counts));
    mc__buf_printf(&m->b, "** (exit code %d)\n\n", code);
    mc__buf_puts(&m->b, "| outcome | runs |\n|---|---:|\n");
    for (o = 0; o < MC_OUTCOME_COUNT; o++)
        mc__buf_printf(&m->b, "| %s | %zu |\n", mc_outcome_label((mc_outcome_t)o),
                       rep->outcomes[o]);
    mc__buf_printf(&m->b, "| **runs** | **%zu** |\n\n", rep->run.n);
    mc__buf_puts(&m->b, "- target: ");
    mc__buf_md(&m->b, rep->run.target, MD_CELL_MAX);
    mc__buf_puts(&m->b, "\n- protocol versions: ");
    mc__buf_md(&m->b, rep->run.versions, MD_CELL_MAX);
    mc__buf_printf(&m->b, "\n- gate: fails on %s", mc_fail_on_name(rep->run.fail_on));
    if (rep->gate_path != NULL) {
        mc__buf_puts(&m->b, ", rules from ");
        mc__buf_md(&m->b, rep->gate_path, MD_CELL_MAX);
    }
    if (rep->baseline_path != NULL) {
        mc__buf_printf(&m->b, "\n- baseline: %zu known failure%s, %zu stale entr%s (", rep->n_known,
                       rep->n_known == 1 ? "" : "s", rep->n_stale, rep->n_stale == 1 ? "y" : "ies");
        mc__buf_md(&m->b, rep->baseline_path, MD_CELL_MAX);
        mc__buf_puts(&m->b, ")");
    }
    if (rep->run.partial)
        mc__buf_printf(&m->b, "\n- **partial run**: %zu planned run%s did not happen",
                       rep->n_not_run, rep->n_not_run == 1 ? "" : "s");
    mc_build_version_line("mcpcheck", line, sizeof(line));
    mc__buf_puts(&m->b, "\n- ");
    mc__buf_md(&m->b, line, sizeof(line));
    mc__buf_puts(&m->b, "\n");
}

/* Appends a URL for a link target: what a URL may hold as it is, anything
 * else (a parenthesis, a space, a byte past ASCII) percent-encoded. */
static void md_url(mc__buf_t *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-_.~/:#", c) != NULL) {
            mc__buf_add(b, (const char *)&c, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            mc__buf_add(b, e, 3);
        }
    }
}

/* The check id of a cause, linked to its spec page at the version it ran. */
static void md_check(mc__buf_t *b, const mc_check_result_t *c, const char *id)
{
    char url[1024];

    if (c != NULL && !c->author && mc__spec_url(c->ref, url, sizeof(url))) {
        mc__buf_puts(b, "[`");
        mc__buf_utf8(b, id, strlen(id));
        mc__buf_puts(b, "`](");
        md_url(b, url);
        mc__buf_puts(b, ")");
        return;
    }
    mc__buf_puts(b, "`");
    mc__buf_utf8(b, id, strlen(id));
    mc__buf_puts(b, "`");
}

/* One table of causes: verdict, level, check, findings, first run, what
 * happened, and the sentence the check holds (the spec's, or the author's). */
static void md_causes(md_t *m, const mc_report_t *rep, const mc_report_cause_t *cs, size_t n,
                      size_t findings)
{
    mc__buf_t row;
    size_t i, shown = 0, shown_findings = 0;

    mc__buf_puts(&m->b, "| verdict | level | check | findings | first seen | what happened | "
                        "the rule |\n|---|---|---|---:|---|---|---|\n");
    mc__buf_init(&row);
    for (i = 0; i < n; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[cs[i].scenario];
        const mc_check_result_t *c = cs[i].check != NULL && cs[i].check_index < r->n_checks
                                         ? &r->checks[cs[i].check_index]
                                         : NULL;
        char gw[MC_RESULT_MAX_TEXT + 64] = "";
        mc__buf_printf(&row, "| %s | %s | ", mc_verdict_name(cs[i].verdict),
                       c != NULL && c->author ? MC_REPORT_AUTHOR_LABEL
                       : cs[i].check != NULL  ? mc_level_name(cs[i].level)
                                              : "-");
        if (cs[i].check != NULL)
            md_check(&row, c, cs[i].check);
        else
            mc__buf_puts(&row, "scenario error");
        mc__buf_printf(&row, " | %zu | `", cs[i].count);
        mc__buf_utf8(&row, r->id, strlen(r->id));
        mc__buf_puts(&row, "` ");
        mc__buf_md(&row, r->version, MD_CELL_MAX);
        mc__buf_puts(&row, " | ");
        mc__buf_md(&row, cs[i].message, MD_CELL_MAX);
        if (c != NULL)
            mc_report_gate_words(c, rep->run.fail_on, gw, sizeof(gw));
        if (gw[0] != '\0') {
            mc__buf_puts(&row, " (");
            mc__buf_md(&row, gw, MD_CELL_MAX);
            mc__buf_puts(&row, ")");
        }
        mc__buf_puts(&row, " | ");
        if (c != NULL && c->quote != NULL && c->quote[0] != '\0') {
            mc__buf_puts(&row, "_\"");
            mc__buf_md(&row, c->quote, MD_CELL_MAX);
            mc__buf_puts(&row, "\"_");
        }
        mc__buf_puts(&row, " |\n");
        if (!md_row(m, &row))
            break;
        shown++;
        shown_findings += cs[i].count;
    }
    mc__buf_free(&row);
    /* Past MC_REPORT_MAX_CAUSES the grouping keeps counting findings only:
     * what is not shown is told in findings. */
    if (findings > shown_findings)
        mc__buf_printf(&m->b, "\n_%zu more finding%s not shown here: see report.html._\n",
                       findings - shown_findings, findings - shown_findings == 1 ? "" : "s");
}

/* The causes that fail or warn, then the INFO observations folded. */
static int md_findings(md_t *m, const mc_report_t *rep)
{
    mc_report_cause_t *cs = NULL;
    size_t n = 0, findings = 0;
    int rc = mc_report_causes(rep, &cs, &n, &findings);

    if (rc != MC_OK)
        return rc;
    if (n > 0) {
        mc__buf_printf(&m->b, "\n## Failures by cause\n\n%zu finding%s, %zu cause%s.\n\n", findings,
                       findings == 1 ? "" : "s", n, n == 1 ? "" : "s");
        md_causes(m, rep, cs, n, findings);
    }
    free(cs);
    cs = NULL;
    rc = mc_report_observations(rep, &cs, &n, &findings);
    if (rc != MC_OK)
        return rc;
    if (n > 0) {
        mc__buf_printf(&m->b,
                       "\n<details><summary>INFO observations: %zu finding%s, %zu "
                       "cause%s</summary>\n\n",
                       findings, findings == 1 ? "" : "s", n, n == 1 ? "" : "s");
        md_causes(m, rep, cs, n, findings);
        mc__buf_puts(&m->b, "\n</details>\n");
    }
    free(cs);
    return MC_OK;
}

/* The NOT-VERIFIED runs by what was missing, folded. */
static int md_missing(md_t *m, const mc_report_t *rep)
{
    mc_report_missing_t *ms = NULL;
    size_t n = 0, total = 0, i, shown = 0;
    mc__buf_t row;
    int rc = mc_report_missing(rep, &ms, &n, &total);

    if (rc != MC_OK)
        return rc;
    if (n == 0) {
        free(ms);
        return MC_OK;
    }
    mc__buf_printf(&m->b,
                   "\n<details><summary>Not verified: %zu run%s, %zu reason%s"
                   "</summary>\n\n| role | runs | first run | why |\n|---|---:|---|---|\n",
                   total, total == 1 ? "" : "s", n, n == 1 ? "" : "s");
    mc__buf_init(&row);
    for (i = 0; i < n; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[ms[i].scenario];
        mc__buf_puts(&row, "| ");
        if (ms[i].role != NULL) {
            mc__buf_puts(&row, "`");
            mc__buf_utf8(&row, ms[i].role, strlen(ms[i].role));
            mc__buf_puts(&row, "`");
        } else {
            mc__buf_puts(&row, "-");
        }
        mc__buf_printf(&row, " | %zu | `", ms[i].count);
        mc__buf_utf8(&row, r->id, strlen(r->id));
        mc__buf_puts(&row, "` ");
        mc__buf_md(&row, r->version, MD_CELL_MAX);
        mc__buf_puts(&row, " | ");
        mc__buf_md(&row, ms[i].reason, MD_CELL_MAX);
        mc__buf_puts(&row, " |\n");
        if (!md_row(m, &row))
            break;
        shown++;
    }
    mc__buf_free(&row);
    md_more(m, n - shown, "reasons");
    mc__buf_puts(&m->b, "\n</details>\n");
    free(ms);
    return MC_OK;
}

/* The area x version matrix from report.json's "matrix" (the same cells):
 * passes, then F/E/W/NV/I/S counts. Written into its own buffer. */
static void md_matrix(mc__buf_t *b, const mc_report_t *rep)
{
    json_object *mx = mc_report_matrix_json(rep), *versions, *areas, *cells;
    size_t a, v, k;

    if (mx == NULL)
        return;
    versions = json_object_object_get(mx, "versions");
    areas = json_object_object_get(mx, "areas");
    cells = json_object_object_get(mx, "cells");
    mc__buf_puts(b, "\n## Areas by protocol version\n\npassed runs, then F fail, E error, "
                    "W warn, NV not verified, I info, S skip\n\n| area |");
    for (v = 0; v < json_object_array_length(versions); v++)
        mc__buf_printf(b, " %s |", json_object_get_string(json_object_array_get_idx(versions, v)));
    mc__buf_puts(b, "\n|---|");
    for (v = 0; v < json_object_array_length(versions); v++)
        mc__buf_puts(b, "---|");
    mc__buf_puts(b, "\n");
    for (a = 0; a < json_object_array_length(areas); a++) {
        const char *area = json_object_get_string(json_object_array_get_idx(areas, a));
        json_object *row = json_object_object_get(cells, area);
        mc__buf_puts(b, "| ");
        mc__buf_md(b, area, MD_CELL_MAX);
        mc__buf_puts(b, " |");
        for (v = 0; v < json_object_array_length(versions); v++) {
            const char *ver = json_object_get_string(json_object_array_get_idx(versions, v));
            json_object *c = json_object_object_get(row, ver);
            size_t count[MC_VERDICT_COUNT];
            char text[128];
            for (k = 0; k < MC_VERDICT_COUNT; k++)
                count[k] = (size_t)json_object_get_int64(
                    json_object_object_get(c, mc_verdict_name((mc_verdict_t)k)));
            mc__report_matrix_cell_text(count, text, sizeof(text));
            mc__buf_printf(b, " %s |", text);
        }
        mc__buf_puts(b, "\n");
    }
    json_object_put(mx);
}

int mc_report_markdown(const mc_report_t *rep, char **out, size_t *len)
{
    md_t m;
    mc__buf_t matrix;
    int rc;

    mc__buf_init(&m.b);
    mc__buf_init(&matrix);
    md_matrix(&matrix, rep);
    /* The head and the matrix always fit; the tables share what is left. */
    m.limit = MC_REPORT_MD_MAX - MD_RESERVE - (matrix.len < MC_REPORT_MD_MAX / 2 ? matrix.len : 0);
    if (matrix.len >= MC_REPORT_MD_MAX / 2) {
        mc__buf_free(&matrix);
        mc__buf_init(&matrix);
        mc__buf_puts(&matrix, "\n_The area matrix is too large for this summary: see "
                              "report.html._\n");
    }
    md_head(&m, rep);
    rc = md_findings(&m, rep);
    if (rc == MC_OK)
        rc = md_missing(&m, rep);
    if (matrix.len > 0)
        mc__buf_add(&m.b, matrix.p, matrix.len);
    mc__buf_puts(&m.b, "\n_Full report: report.html; every result: report.json._\n");
    mc__buf_free(&matrix);
    if (rc == MC_OK)
        rc = m.b.err;
    if (rc == MC_OK && m.b.len > MC_REPORT_MD_MAX)
        rc = MC_ETOOBIG;
    if (rc != MC_OK) {
        mc__buf_free(&m.b);
        return rc;
    }
    *out = m.b.p;
    *len = m.b.len;
    return MC_OK;
}
