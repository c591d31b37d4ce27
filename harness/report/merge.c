/*
 * merge.c - the matrix of several runs (`mcpcheck report merge`): one row
 * per scenario and protocol version, one column per target, each cell the
 * verdict there. A self-contained page like report.html.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

typedef struct row {
    const char *area, *id, *version, *title;
} row_t;

typedef struct rows {
    row_t *v;
    size_t n, cap;
} rows_t;

static int add_row(rows_t *rs, const char *area, const char *id, const char *version,
                   const char *title)
{
    size_t i;

    for (i = 0; i < rs->n; i++)
        if (strcmp(rs->v[i].id, id) == 0 && strcmp(rs->v[i].version, version) == 0)
            return MC_OK;
    if (rs->n == rs->cap) {
        size_t nc = rs->cap ? rs->cap * 2 : 256;
        row_t *nv = realloc(rs->v, nc * sizeof(*nv));
        if (nv == NULL)
            return MC_ENOMEM;
        rs->v = nv;
        rs->cap = nc;
    }
    rs->v[rs->n++] = (row_t){area, id, version, title};
    return MC_OK;
}

static int row_cmp(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    int c = strcmp(x->id, y->id);

    return c != 0 ? c : strcmp(x->version, y->version);
}

static void cell(mc__buf_t *b, const mc_report_t *rep, const row_t *row)
{
    size_t i;

    for (i = 0; i < rep->run.n; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[i];
        const char *cls, *label;
        if (strcmp(r->id, row->id) != 0 || strcmp(r->version, row->version) != 0)
            continue;
        if (mc__known(rep, i) != NULL && mc_report_scenario_fails(rep, i)) {
            cls = "v-known";
            label = "KNOWN";
        } else {
            cls = mc__verdict_class(r->verdict);
            label = mc_verdict_name(r->verdict);
        }
        mc__buf_puts(b, "<td class=\"cell\" title=\"");
        if (r->reason != NULL) {
            mc__buf_html(b, r->reason);
        } else {
            size_t k;
            for (k = 0; k < r->n_checks; k++)
                if (r->checks[k].verdict != MC_PASS && r->checks[k].message != NULL) {
                    mc__buf_html(b, r->checks[k].id);
                    mc__buf_puts(b, ": ");
                    mc__buf_html(b, r->checks[k].message);
                    break;
                }
        }
        mc__buf_printf(b, "\"><span class=\"badge %s\">%s</span></td>", cls,
                       strcmp(label, "NOT-VERIFIED") == 0 ? "N-V" : label);
        return;
    }
    for (i = 0; i < rep->n_not_run; i++)
        if (strcmp(rep->not_run[i].id, row->id) == 0 &&
            strcmp(rep->not_run[i].version, row->version) == 0) {
            mc__buf_puts(b, "<td class=\"cell\"><span class=\"badge v-notrun\">NOT RUN</span>"
                            "</td>");
            return;
        }
    mc__buf_puts(b, "<td class=\"cell small\" title=\"not in this run\">&ndash;</td>");
}

int mc_report_merge_html(const mc_report_t *const *reps, const char *const *labels, size_t n,
                         char **out, size_t *len)
{
    mc__buf_t b;
    rows_t rs;
    size_t i, t;
    const char *area = NULL;
    char line[1024];

    memset(&rs, 0, sizeof(rs));
    for (t = 0; t < n; t++) {
        for (i = 0; i < reps[t]->run.n; i++) {
            const mc_scenario_result_t *r = &reps[t]->run.scenarios[i];
            if (add_row(&rs, r->area, r->id, r->version, r->title) != MC_OK)
                goto nomem;
        }
        for (i = 0; i < reps[t]->n_not_run; i++) {
            const mc_report_notrun_t *e = &reps[t]->not_run[i];
            if (add_row(&rs, e->area, e->id, e->version, e->title) != MC_OK)
                goto nomem;
        }
    }
    if (rs.n > 0)
        qsort(rs.v, rs.n, sizeof(*rs.v), row_cmp);

    mc__buf_init(&b);
    mc__html_head(&b, "mcpcheck: conformance matrix");
    mc__buf_printf(&b, "<header class=\"top\"><div class=\"brand\">mcpcheck<small>conformance "
                       "matrix &middot; %zu target%s</small></div></header>\n<main>\n",
                   n, n == 1 ? "" : "s");
    mc__buf_puts(&b, "<section id=\"summary\"><h1>Targets</h1>\n<div class=\"scroll\"><table>"
                     "<thead><tr><th>Target</th><th>Result</th><th>Command</th><th>Started</th>"
                     "</tr></thead><tbody>\n");
    for (t = 0; t < n; t++) {
        int code = mc_report_exit_code(reps[t]);
        size_t ll;
        mc_report_console_summary(reps[t], 0, line, sizeof(line));
        ll = strlen(line);
        if (ll > 0 && line[ll - 1] == '\n')
            line[ll - 1] = '\0';
        mc__buf_puts(&b, "<tr><td><b>");
        mc__buf_html(&b, labels[t]);
        mc__buf_printf(&b, "</b></td><td><span class=\"badge %s\">%s</span> ",
                       code == 0 ? "v-pass" : code == 1 ? "v-fail" : "v-warn",
                       code == 0 ? "PASS" : code == 1 ? "FAIL" : "INCOMPLETE");
        mc__buf_html(&b, line);
        mc__buf_puts(&b, "</td><td class=\"mono small\">");
        mc__buf_html(&b, reps[t]->run.target);
        mc__buf_puts(&b, "</td><td class=\"small\">");
        mc__buf_html(&b, reps[t]->run.started);
        mc__buf_puts(&b, "</td></tr>\n");
    }
    mc__buf_puts(&b, "</tbody></table></div></section>\n");

    mc__buf_printf(&b, "<section id=\"matrix\"><h2>Scenarios &times; targets</h2>\n<p "
                       "class=\"small\">%zu scenario runs (scenario and protocol version). "
                       "Hover a cell for the reason.</p>\n<div class=\"scroll\"><table "
                       "class=\"mx\"><thead><tr><th>Scenario</th><th>Version</th>",
                   rs.n);
    for (t = 0; t < n; t++) {
        mc__buf_puts(&b, "<th class=\"tg\">");
        mc__buf_html(&b, labels[t]);
        mc__buf_puts(&b, "</th>");
    }
    mc__buf_puts(&b, "</tr></thead><tbody>\n");
    for (i = 0; i < rs.n; i++) {
        const row_t *row = &rs.v[i];
        if (area == NULL || strcmp(area, row->area) != 0) {
            area = row->area;
            mc__buf_printf(&b, "<tr class=\"area\"><td colspan=\"%zu\">", n + 2);
            mc__buf_html(&b, area);
            mc__buf_puts(&b, "</td></tr>\n");
        }
        mc__buf_puts(&b, "<tr><td class=\"sid mono\" title=\"");
        mc__buf_html(&b, row->title);
        mc__buf_puts(&b, "\">");
        mc__buf_html(&b, row->id);
        mc__buf_puts(&b, "</td><td class=\"small\">");
        mc__buf_html(&b, row->version);
        mc__buf_puts(&b, "</td>");
        for (t = 0; t < n; t++)
            cell(&b, reps[t], row);
        mc__buf_puts(&b, "</tr>\n");
    }
    mc__buf_puts(&b, "</tbody></table></div></section>\n</main>\n");
    mc__html_foot(&b);
    free(rs.v);
    if (b.err != MC_OK) {
        int e = b.err;
        mc__buf_free(&b);
        return e;
    }
    *out = b.p;
    *len = b.len;
    return MC_OK;

nomem:
    free(rs.v);
    return MC_ENOMEM;
}
