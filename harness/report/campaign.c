/*
 * campaign.c - report.md and report.html of a fuzzing campaign's directory,
 * from findings/index.tsv, unconfirmed/index.tsv and stats.tsv (the main
 * worker's time series). Written with the report writers' buffer and
 * escapers (text.c): every field read back from the directory came from
 * the target and is escaped for the format it goes into.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "report/report.h"

#define PATH_LEN 4096
/* Points of the time series plotted at most (evenly thinned beyond). */
#define MAX_POINTS 2000
/* Findings listed at most. */
#define MAX_ROWS 512

typedef struct point {
    double t, execs, states, cov, findings;
} point_t;

typedef struct row {
    char f[10][400]; /* time, check, method, sig, file, orig, min, runs, reproduced, detail */
} row_t;

static size_t load_stats(const char *dir, point_t *pts)
{
    char path[PATH_LEN], line[512];
    FILE *f;
    size_t n = 0, total = 0, stride = 1;

    if (snprintf(path, sizeof(path), "%s/stats.tsv", dir) >= (int)sizeof(path) ||
        (f = fopen(path, "r")) == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        point_t p;
        unsigned long long e, mo, mi, st, co, s, c, fi;
        if (sscanf(line, "%lf\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu", &p.t, &e, &mo, &mi,
                   &st, &co, &s, &c, &fi) != 9)
            continue;
        p.execs = (double)e;
        p.states = (double)s;
        p.cov = (double)c;
        p.findings = (double)fi;
        if (total++ % stride != 0)
            continue;
        if (n == MAX_POINTS) {
            /* Full: keep every other point and take half as many from now on. */
            size_t i;
            for (i = 0; i < MAX_POINTS / 2; i++)
                pts[i] = pts[2 * i];
            n = MAX_POINTS / 2;
            stride *= 2;
        }
        pts[n++] = p;
    }
    fclose(f);
    return n;
}

/* Leaves out of un the rows whose signature (column 4) a row of found has:
 * first seen thanks to earlier state, they were later shown by a fresh
 * process. Returns the rows left. */
static size_t drop_confirmed(row_t *un, size_t nu, const row_t *found, size_t nf)
{
    size_t i, k, out = 0;

    for (i = 0; i < nu; i++) {
        for (k = 0; k < nf && strcmp(un[i].f[3], found[k].f[3]) != 0; k++)
            ;
        if (k < nf)
            continue;
        if (out != i)
            un[out] = un[i];
        out++;
    }
    return out;
}

static size_t load_rows(const char *dir, const char *sub, row_t *rows)
{
    char path[PATH_LEN], line[2048];
    FILE *f;
    size_t n = 0;

    if (snprintf(path, sizeof(path), "%s/%s/index.tsv", dir, sub) >= (int)sizeof(path) ||
        (f = fopen(path, "r")) == NULL)
        return 0;
    while (n < MAX_ROWS && fgets(line, sizeof(line), f) != NULL) {
        char *p = line;
        size_t k;
        line[strcspn(line, "\n")] = '\0';
        for (k = 0; k < 10; k++) {
            char *tab = k < 9 ? strchr(p, '\t') : NULL;
            if (tab != NULL)
                *tab = '\0';
            snprintf(rows[n].f[k], sizeof(rows[n].f[k]), "%.399s", p);
            if (tab == NULL) {
                for (k++; k < 10; k++)
                    rows[n].f[k][0] = '\0';
                break;
            }
            p = tab + 1;
        }
        n++;
    }
    fclose(f);
    return n;
}

/* Bytes of one field of the target's text written to report.md. */
#define MD_FIELD_MAX 400

/* One polyline of series k (0 states, 1 coverage, 2 findings), scaled to
 * its own maximum. */
static void polyline(mc__buf_t *b, const point_t *pts, size_t n, int k, const char *color)
{
    double tmax = 0, vmax = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        double v = k == 0 ? pts[i].states : k == 1 ? pts[i].cov : pts[i].findings;
        if (pts[i].t > tmax)
            tmax = pts[i].t;
        if (v > vmax)
            vmax = v;
    }
    if (tmax <= 0 || vmax <= 0)
        return;
    mc__buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
    for (i = 0; i < n; i++) {
        double v = k == 0 ? pts[i].states : k == 1 ? pts[i].cov : pts[i].findings;
        mc__buf_printf(b, "%.1f,%.1f ", 40 + 680 * pts[i].t / tmax, 230 - 200 * v / vmax);
    }
    mc__buf_printf(
        b, "\"/>\n<text x=\"725\" y=\"%d\" fill=\"%s\" font-size=\"12\">%s (max %.0f)</text>\n",
        k == 0   ? 40
        : k == 1 ? 60
                 : 80,
        color,
        k == 0   ? "states"
        : k == 1 ? "coverage"
                 : "findings",
        vmax);
}

/* report.html: the same as report.md, with the plot of states, coverage
 * and findings over time. last is pts[np - 1], or NULL. */
static void campaign_html(mc__buf_t *b, const char *target, const char *failure, const point_t *pts,
                          size_t np, const point_t *last, const row_t *rows, size_t nr)
{
    size_t i;

    mc__buf_puts(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mcpcheck fuzz"
                    "</title>\n<style>body{font-family:sans-serif;margin:2em}"
                    "table{border-collapse:collapse}"
                    "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}"
                    "code{font-size:90%}</style></head><body>\n<h1>mcpcheck fuzz campaign</h1>\n"
                    "<p>Target: <code>");
    mc__buf_html(b, target != NULL ? target : "?");
    mc__buf_puts(b, "</code></p>\n");
    if (failure != NULL) {
        mc__buf_puts(b, "<p><strong>The campaign could not run:</strong> ");
        mc__buf_html(b, failure);
        mc__buf_puts(b, "</p>\n");
    }
    if (last != NULL)
        mc__buf_printf(b,
                       "<p>%.1f s, %.0f sequences, %.0f states, %.0f coverage entries, %zu "
                       "findings.</p>\n",
                       last->t, last->execs, last->states, last->cov, nr);
    mc__buf_puts(b, "<h2>States and coverage over time</h2>\n<svg width=\"900\" height=\"250\" "
                    "xmlns=\"http://www.w3.org/2000/svg\"><rect x=\"40\" y=\"30\" width=\"680\" "
                    "height=\"200\" fill=\"none\" stroke=\"#999\"/>\n");
    polyline(b, pts, np, 0, "#1f77b4");
    polyline(b, pts, np, 1, "#2ca02c");
    polyline(b, pts, np, 2, "#d62728");
    if (last != NULL)
        mc__buf_printf(b,
                       "<text x=\"40\" y=\"245\" font-size=\"12\">0 s</text><text x=\"690\" "
                       "y=\"245\" font-size=\"12\">%.0f s</text>\n",
                       last->t);
    mc__buf_puts(b, "</svg>\n<h2>Findings</h2>\n<table><tr><th>first seen (s)</th><th>check</th>"
                    "<th>method</th><th>reproduced</th><th>messages</th><th>scenario</th>"
                    "<th>detail</th></tr>\n");
    for (i = 0; i < nr; i++) {
        static const int cols[] = {0, 1, 2, 8};
        size_t k;
        mc__buf_puts(b, "<tr>");
        for (k = 0; k < 4; k++) {
            mc__buf_puts(b, "<td>");
            mc__buf_html(b, rows[i].f[cols[k]]);
            mc__buf_puts(b, "</td>");
        }
        mc__buf_puts(b, "<td>");
        mc__buf_html(b, rows[i].f[5]);
        mc__buf_puts(b, " &rarr; ");
        mc__buf_html(b, rows[i].f[6]);
        mc__buf_puts(b, "</td><td><a href=\"findings/");
        mc__buf_uri_path(b, rows[i].f[4]);
        mc__buf_puts(b, "\">");
        mc__buf_html(b, rows[i].f[4]);
        mc__buf_puts(b, "</a></td><td>");
        mc__buf_html(b, rows[i].f[9]);
        mc__buf_puts(b, "</td></tr>\n");
    }
    mc__buf_puts(b, "</table>\n</body></html>\n");
}

/* One field of a findings row in report.md. */
static void md_field(mc__buf_t *b, const char *s)
{
    mc__buf_md(b, s, MD_FIELD_MAX);
}

/* Opens a report.md table row with the fields cols[0..n) of r, each a cell. */
static void md_cells(mc__buf_t *b, const row_t *r, const int *cols, size_t n)
{
    size_t k;

    mc__buf_puts(b, "|");
    for (k = 0; k < n; k++) {
        mc__buf_puts(b, " ");
        md_field(b, r->f[cols[k]]);
        mc__buf_puts(b, " |");
    }
}

/* report.md: the counts, the confirmed findings, then those seen once. */
static void campaign_md(mc__buf_t *b, const char *dir, const char *target, const char *failure,
                        const point_t *last, const row_t *rows, size_t nr)
{
    row_t *un;
    size_t i, nu;

    mc__buf_puts(b, "# mcpcheck fuzz campaign\n\nTarget: ");
    md_field(b, target != NULL ? target : "?");
    mc__buf_puts(b, "\n\n");
    if (failure != NULL) {
        mc__buf_puts(b, "**The campaign could not run:** ");
        md_field(b, failure);
        mc__buf_puts(b, "\n\n");
    }
    if (last != NULL)
        mc__buf_printf(b,
                       "%.1f s, %.0f sequences (%.1f/s), %.0f states, %.0f coverage entries, "
                       "%zu distinct findings.\n\n",
                       last->t, last->execs, last->t > 0 ? last->execs / last->t : 0.0,
                       last->states, last->cov, nr);
    mc__buf_puts(b, "| first seen (s) | check | method | reproduced | minimized | scenario | "
                    "detail |\n|---|---|---|---|---|---|---|\n");
    for (i = 0; i < nr; i++) {
        static const int cols[] = {0, 1, 2, 8};
        md_cells(b, &rows[i], cols, 4);
        mc__buf_puts(b, " ");
        md_field(b, rows[i].f[5]);
        mc__buf_puts(b, " -> ");
        md_field(b, rows[i].f[6]);
        mc__buf_puts(b, " messages (");
        md_field(b, rows[i].f[7]);
        mc__buf_puts(b, " runs) | findings/");
        md_field(b, rows[i].f[4]);
        mc__buf_puts(b, " | ");
        md_field(b, rows[i].f[9]);
        mc__buf_puts(b, " |\n");
    }
    if (nr == 0)
        mc__buf_puts(b,
                     failure != NULL ? "\nNo finding: nothing was fuzzed.\n" : "\nNo finding.\n");
    un = calloc(MAX_ROWS, sizeof(*un));
    nu = un != NULL ? load_rows(dir, "unconfirmed", un) : 0;
    nu = drop_confirmed(un, nu, rows, nr);
    if (nu > 0) {
        mc__buf_printf(b,
                       "\n%zu more seen once but not again on a fresh process (they depend on "
                       "the state before them): unconfirmed/.\n\n| first seen (s) | check | "
                       "method | detail |\n|---|---|---|---|\n",
                       nu);
        for (i = 0; i < nu; i++) {
            static const int cols[] = {0, 1, 2, 9};
            md_cells(b, &un[i], cols, 4);
            mc__buf_puts(b, "\n");
        }
    }
    free(un);
    mc__buf_puts(b, "\nReplay every finding: `mcpcheck run --scenarios DIR/findings -- "
                    "SERVER_CMD`.\nThe time series is in stats.tsv.\n");
}

int mc_report_campaign(const char *dir, const char *target, const char *failure, mc_errbuf_t *eb)
{
    point_t *pts = calloc(MAX_POINTS, sizeof(*pts));
    row_t *rows = calloc(MAX_ROWS, sizeof(*rows));
    char path[PATH_LEN];
    size_t np = 0, nr = 0;
    int rc = MC_OK;
    const point_t *last;
    mc__buf_t b;

    if (pts == NULL || rows == NULL) {
        free(pts);
        free(rows);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    np = load_stats(dir, pts);
    nr = load_rows(dir, "findings", rows);
    last = np > 0 ? &pts[np - 1] : NULL;

    mc__buf_init(&b);
    campaign_md(&b, dir, target, failure, last, rows, nr);
    if (!mc__path_join(path, sizeof(path), dir, "report.md"))
        rc = mc_errbuf_set(eb, MC_EIO, "cannot write %s/report.md: path too long", dir);
    else
        rc = mc__buf_write(&b, path, eb);
    mc__buf_free(&b);
    if (rc == MC_OK) {
        mc__buf_init(&b);
        campaign_html(&b, target, failure, pts, np, last, rows, nr);
        if (!mc__path_join(path, sizeof(path), dir, "report.html"))
            rc = mc_errbuf_set(eb, MC_EIO, "cannot write %s/report.html: path too long", dir);
        else
            rc = mc__buf_write(&b, path, eb);
        mc__buf_free(&b);
    }
    free(pts);
    free(rows);
    return rc;
}
