/*
 * report.c - report.md and report.html of a campaign directory, from
 * findings/index.tsv and stats.tsv (the main worker's time series).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/internal.h"

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

static void html_text(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static void md_cell(FILE *f, const char *s)
{
    for (; *s != '\0'; s++)
        fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, f);
}

/* One polyline of series k (0 states, 1 coverage, 2 findings), scaled to
 * its own maximum. */
static void polyline(FILE *f, const point_t *pts, size_t n, int k, const char *color)
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
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
    for (i = 0; i < n; i++) {
        double v = k == 0 ? pts[i].states : k == 1 ? pts[i].cov : pts[i].findings;
        fprintf(f, "%.1f,%.1f ", 40 + 680 * pts[i].t / tmax, 230 - 200 * v / vmax);
    }
    fprintf(f, "\"/>\n<text x=\"725\" y=\"%d\" fill=\"%s\" font-size=\"12\">%s (max %.0f)</text>\n",
            k == 0 ? 40 : k == 1 ? 60 : 80, color,
            k == 0 ? "states" : k == 1 ? "coverage" : "findings", vmax);
}

/* report.html: the same as report.md, with the plot of states, coverage
 * and findings over time. last is pts[np - 1], or NULL. */
static int write_html(const char *dir, const char *target, const char *failure,
                      const point_t *pts, size_t np, const point_t *last, const row_t *rows,
                      size_t nr, mc_errbuf_t *eb)
{
    char path[PATH_LEN];
    size_t i;
    FILE *f;

    if (snprintf(path, sizeof(path), "%s/report.html", dir) >= (int)sizeof(path) ||
        (f = fopen(path, "w")) == NULL)
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s/report.html", dir);
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mcpcheck fuzz</title>\n"
          "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}"
          "code{font-size:90%}</style></head><body>\n<h1>mcpcheck fuzz campaign</h1>\n<p>Target: <code>",
          f);
    html_text(f, target ? target : "?");
    fputs("</code></p>\n", f);
    if (failure != NULL) {
        fputs("<p><strong>The campaign could not run:</strong> ", f);
        html_text(f, failure);
        fputs("</p>\n", f);
    }
    if (last != NULL)
        fprintf(f, "<p>%.1f s, %.0f sequences, %.0f states, %.0f coverage entries, %zu findings.</p>\n",
                last->t, last->execs, last->states, last->cov, nr);
    fputs("<h2>States and coverage over time</h2>\n<svg width=\"900\" height=\"250\" "
          "xmlns=\"http://www.w3.org/2000/svg\"><rect x=\"40\" y=\"30\" width=\"680\" "
          "height=\"200\" fill=\"none\" stroke=\"#999\"/>\n",
          f);
    polyline(f, pts, np, 0, "#1f77b4");
    polyline(f, pts, np, 1, "#2ca02c");
    polyline(f, pts, np, 2, "#d62728");
    if (last != NULL)
        fprintf(f, "<text x=\"40\" y=\"245\" font-size=\"12\">0 s</text><text x=\"690\" y=\"245\" "
                   "font-size=\"12\">%.0f s</text>\n",
                last->t);
    fputs("</svg>\n<h2>Findings</h2>\n<table><tr><th>first seen (s)</th><th>check</th><th>method"
          "</th><th>reproduced</th><th>messages</th><th>scenario</th><th>detail</th></tr>\n",
          f);
    for (i = 0; i < nr; i++) {
        size_t k;
        static const int cols[] = {0, 1, 2, 8};
        fputs("<tr>", f);
        for (k = 0; k < 4; k++) {
            fputs("<td>", f);
            html_text(f, rows[i].f[cols[k]]);
            fputs("</td>", f);
        }
        fputs("<td>", f);
        html_text(f, rows[i].f[5]);
        fputs(" &rarr; ", f);
        html_text(f, rows[i].f[6]);
        fputs("</td><td><a href=\"findings/", f);
        html_text(f, rows[i].f[4]);
        fputs("\">", f);
        html_text(f, rows[i].f[4]);
        fputs("</a></td><td>", f);
        html_text(f, rows[i].f[9]);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</body></html>\n", f);
    fclose(f);
    return MC_OK;
}

int mc_campaign_write_report(const char *dir, const char *target, const char *failure,
                             mc_errbuf_t *eb)
{
    point_t *pts = calloc(MAX_POINTS, sizeof(*pts));
    row_t *rows = calloc(MAX_ROWS, sizeof(*rows));
    char path[PATH_LEN];
    size_t np, nr, i;
    int rc;
    FILE *f;
    const point_t *last;

    if (pts == NULL || rows == NULL) {
        free(pts);
        free(rows);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    np = load_stats(dir, pts);
    nr = load_rows(dir, "findings", rows);
    last = np > 0 ? &pts[np - 1] : NULL;

    if (snprintf(path, sizeof(path), "%s/report.md", dir) >= (int)sizeof(path) ||
        (f = fopen(path, "w")) == NULL) {
        free(pts);
        free(rows);
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s/report.md", dir);
    }
    fprintf(f, "# mcpcheck fuzz campaign\n\nTarget: `%s`\n\n", target ? target : "?");
    if (failure != NULL)
        fprintf(f, "**The campaign could not run:** %s\n\n", failure);
    if (last != NULL)
        fprintf(f, "%.1f s, %.0f sequences (%.1f/s), %.0f states, %.0f coverage entries, "
                   "%zu distinct findings.\n\n",
                last->t, last->execs, last->t > 0 ? last->execs / last->t : 0.0, last->states,
                last->cov, nr);
    fprintf(f, "| first seen (s) | check | method | reproduced | minimized | scenario | detail |\n"
               "|---|---|---|---|---|---|---|\n");
    for (i = 0; i < nr; i++) {
        fprintf(f, "| %s | `%s` | `%s` | %s | %s -> %s messages (%s runs) | findings/%s | ",
                rows[i].f[0], rows[i].f[1], rows[i].f[2], rows[i].f[8], rows[i].f[5],
                rows[i].f[6], rows[i].f[7], rows[i].f[4]);
        md_cell(f, rows[i].f[9]);
        fputs(" |\n", f);
    }
    if (nr == 0)
        fputs(failure != NULL ? "\nNo finding: nothing was fuzzed.\n" : "\nNo finding.\n", f);
    {
        row_t *un = calloc(MAX_ROWS, sizeof(*un));
        size_t nu = un != NULL ? load_rows(dir, "unconfirmed", un) : 0;
        nu = drop_confirmed(un, nu, rows, nr);
        if (nu > 0) {
            fprintf(f, "\n%zu more seen once but not again on a fresh process (they depend on "
                       "the state before them): unconfirmed/.\n\n| first seen (s) | check | "
                       "method | detail |\n|---|---|---|---|\n",
                    nu);
            for (i = 0; i < nu; i++) {
                fprintf(f, "| %s | `%s` | `%s` | ", un[i].f[0], un[i].f[1], un[i].f[2]);
                md_cell(f, un[i].f[9]);
                fputs(" |\n", f);
            }
        }
        free(un);
    }
    fputs("\nReplay every finding: `mcpcheck run --scenarios DIR/findings -- SERVER_CMD`.\n"
          "The time series is in stats.tsv.\n", f);
    fclose(f);

    rc = write_html(dir, target, failure, pts, np, last, rows, nr, eb);
    free(pts);
    free(rows);
    return rc;
}
