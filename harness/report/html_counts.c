/*
 * html_counts.c - the counts of report.html: the cards of the summary and
 * the areas table, both by outcome (report.h), so that every run is counted
 * once and the table's totals are the cards'.
 */
#include <string.h>

#include "report/internal.h"

static void h(mc__buf_t *b, const char *s)
{
    mc__buf_html(b, s);
}

#define COL_NOTRUN MC_OUTCOME_COUNT
/* Columns of the areas table, and of the cards above it. */
#define AREA_COLS (MC_OUTCOME_COUNT + 1)

size_t mc__html_area_rows(const mc_report_t *rep, mc__area_row_t *rows)
{
    size_t i, k, n = 0;

    for (i = 0; i < rep->run.n + rep->n_not_run; i++) {
        const char *area =
            i < rep->run.n ? rep->run.scenarios[i].area : rep->not_run[i - rep->run.n].area;
        for (k = 0; k < n; k++)
            if (strcmp(rows[k].name, area) == 0)
                break;
        if (k == n) {
            memset(&rows[n], 0, sizeof(rows[n]));
            rows[n++].name = area;
        }
        if (i >= rep->run.n)
            rows[k].n[COL_NOTRUN]++;
        else
            rows[k].n[mc_report_outcome(rep, i)]++;
    }
    return n;
}

/* The columns in the order shown, their heads, classes, and whether the run
 * needs them (ignored only with a gate, known only with a baseline, not run
 * only after an interruption; the others always). */
static const int col_order[AREA_COLS] = {
    MC_OUT_PASS, MC_OUT_FAIL,         MC_OUT_WARN,  MC_OUT_INFO,  MC_OUT_IGNORED,
    MC_OUT_SKIP, MC_OUT_NOT_VERIFIED, MC_OUT_ERROR, MC_OUT_KNOWN, COL_NOTRUN};
static const char *const col_cls[AREA_COLS] = {"v-pass",  "v-fail",  "v-warn", "v-info",
                                               "v-skip",  "v-skip",  "v-nv",   "v-error",
                                               "v-known", "v-notrun"};

static int col_shown(const mc_report_t *rep, int c)
{
    int o = col_order[c];

    if (o == MC_OUT_IGNORED)
        return rep->gate_path != NULL || rep->outcomes[MC_OUT_IGNORED] > 0;
    if (o == MC_OUT_KNOWN)
        return rep->baseline_path != NULL;
    if (o == COL_NOTRUN)
        return rep->run.partial || rep->n_not_run > 0;
    return 1;
}

static const char *col_head(int c)
{
    return col_order[c] == COL_NOTRUN ? "not run" : mc_outcome_label((mc_outcome_t)col_order[c]);
}

void mc__html_areas_table(mc__buf_t *b, const mc_report_t *rep, const mc__area_row_t *rows,
                          size_t n)
{
    size_t i, c, total[AREA_COLS] = {0}, all = 0;

    mc__buf_puts(b, "<section id=\"matrix\"><h2>Areas &times; outcomes</h2>\n<div class=\"scroll\">"
                    "<table class=\"matrix\"><thead><tr><th>Area</th>");
    for (c = 0; c < AREA_COLS; c++)
        if (col_shown(rep, (int)c))
            mc__buf_printf(b, "<th class=\"n\">%s</th>", col_head((int)c));
    mc__buf_puts(b, "<th class=\"n\">Total</th></tr></thead><tbody>\n");
    for (i = 0; i < n; i++) {
        size_t sum = 0;
        mc__buf_puts(b, "<tr><td><a href=\"#area-");
        h(b, rows[i].name);
        mc__buf_puts(b, "\">");
        h(b, rows[i].name);
        mc__buf_puts(b, "</a></td>");
        for (c = 0; c < AREA_COLS; c++) {
            size_t v = rows[i].n[col_order[c]];
            sum += v;
            total[c] += v;
            if (!col_shown(rep, (int)c))
                continue;
            if (v == 0)
                mc__buf_puts(b, "<td class=\"n z\">0</td>");
            else
                mc__buf_printf(b, "<td class=\"n hot %s\">%zu</td>", col_cls[c], v);
        }
        all += sum;
        mc__buf_printf(b, "<td class=\"n\">%zu</td></tr>\n", sum);
    }
    mc__buf_puts(b, "</tbody><tfoot><tr><th>All</th>");
    for (c = 0; c < AREA_COLS; c++)
        if (col_shown(rep, (int)c))
            mc__buf_printf(b, "<th class=\"n\">%zu</th>", total[c]);
    mc__buf_printf(b, "<th class=\"n\">%zu</th></tr></tfoot></table></div></section>\n", all);
}

/* One count card; key names it for readers of the page (data-outcome). */
static void card(mc__buf_t *b, const char *cls, const char *key, size_t n, const char *label)
{
    mc__buf_printf(b, "<div class=\"card %s%s\" data-outcome=\"%s\"><b>%zu</b><span>%s</span>", cls,
                   n == 0 ? " zero" : "", key, n, label);
}

/* The cards: each run once, by outcome, in the areas table's order; then
 * the runs they add up to. */
void mc__html_cards(mc__buf_t *b, const mc_report_t *rep)
{
    int c;

    mc__buf_puts(b, "<div class=\"cards\">");
    for (c = 0; c < AREA_COLS; c++) {
        int o = col_order[c];
        if (!col_shown(rep, c))
            continue;
        if (o == COL_NOTRUN) {
            card(b, col_cls[c], "not_run", rep->n_not_run, "not run");
        } else {
            card(b, col_cls[c], mc_outcome_key((mc_outcome_t)o), rep->outcomes[o],
                 mc_outcome_label((mc_outcome_t)o));
            if (o == MC_OUT_FAIL && rep->n_gated > 0)
                mc__buf_printf(b, "<i data-outcome=\"failed_by_gate\">%zu by your gate</i>",
                               rep->n_gated);
        }
        mc__buf_puts(b, "</div>");
    }
    mc__buf_printf(b,
                   "</div>\n<p class=\"small\" data-outcome=\"runs\">%zu scenario run%s"
                   "%s</p>\n",
                   rep->run.n, rep->run.n == 1 ? "" : "s",
                   rep->n_not_run > 0 ? " (the runs that did not happen apart)" : "");
}
