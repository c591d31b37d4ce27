/*
 * matrix.c - the area x version matrix of a run: how each area fared at each
 * protocol version, for the console, report.json and report.html.
 */
#include <stdio.h>
#include <string.h>

#include "core/version.h"
#include "report/internal.h"
#include "report/report.h"

/*
 * The areas (first seen first) and versions (in the table's order, then any
 * other in order of appearance) of a run, into fixed arrays. Returns 0, or -1
 * when the run has more of either than the caps (the matrix is then left out).
 */
static int axes(const mc_run_result_t *run, const char **areas, size_t *n_areas,
                const char **versions, size_t *n_versions)
{
    size_t i, k;

    *n_areas = *n_versions = 0;
    for (const char *const *v = mc_version_names(); *v != NULL; v++)
        for (i = 0; i < run->n; i++)
            if (run->scenarios[i].version != NULL && strcmp(run->scenarios[i].version, *v) == 0) {
                versions[(*n_versions)++] = *v;
                break;
            }
    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        if (r->version != NULL && mc_version_find(r->version) == NULL) {
            for (k = 0; k < *n_versions && strcmp(versions[k], r->version) != 0; k++)
                ;
            if (k == *n_versions) {
                if (*n_versions == MC_REPORT_MATRIX_MAX)
                    return -1;
                versions[(*n_versions)++] = r->version;
            }
        }
        if (r->area == NULL)
            continue;
        for (k = 0; k < *n_areas && strcmp(areas[k], r->area) != 0; k++)
            ;
        if (k == *n_areas) {
            if (*n_areas == MC_REPORT_MATRIX_MAX)
                return -1;
            areas[(*n_areas)++] = r->area;
        }
    }
    return 0;
}

/* Verdict counts of the scenarios of one area at one version. */
static void cell(const mc_run_result_t *run, const char *area, const char *version,
                 size_t count[MC_VERDICT_COUNT])
{
    size_t i;

    memset(count, 0, sizeof(size_t) * MC_VERDICT_COUNT);
    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        if (r->area != NULL && r->version != NULL && strcmp(r->area, area) == 0 &&
            strcmp(r->version, version) == 0 && (int)r->verdict >= 0 &&
            r->verdict < MC_VERDICT_COUNT)
            count[r->verdict]++;
    }
}

void mc__report_matrix_cell_text(const size_t count[MC_VERDICT_COUNT], char *out, size_t n)
{
    static const struct {
        mc_verdict_t v;
        const char *tag;
    } tags[] = {{MC_FAIL, "F"},         {MC_ERROR, "E"}, {MC_WARN, "W"},
                {MC_NOT_VERIFIED, "NV"}, {MC_INFO, "I"},  {MC_SKIP, "S"}};
    size_t used = 0, i, total = 0;
    int w;

    for (i = 0; i < MC_VERDICT_COUNT; i++)
        total += count[i];
    if (n == 0)
        return;
    if (total == 0) {
        snprintf(out, n, "-");
        return;
    }
    w = snprintf(out, n, "%zu", count[MC_PASS]);
    used = w > 0 && (size_t)w < n ? (size_t)w : n - 1;
    for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
        if (count[tags[i].v] == 0)
            continue;
        w = snprintf(out + used, n - used, " %s%zu", tags[i].tag, count[tags[i].v]);
        if (w < 0 || (size_t)w >= n - used)
            return;
        used += (size_t)w;
    }
}

json_object *mc_report_matrix_json(const mc_report_t *rep)
{
    const char *areas[MC_REPORT_MATRIX_MAX], *versions[MC_REPORT_MATRIX_MAX];
    size_t n_areas, n_versions, a, v, k;
    json_object *root, *va, *aa, *cells;

    if (axes(&rep->run, areas, &n_areas, versions, &n_versions) != 0)
        return NULL;
    root = json_object_new_object();
    va = json_object_new_array();
    aa = json_object_new_array();
    cells = json_object_new_object();
    if (root == NULL || va == NULL || aa == NULL || cells == NULL) {
        json_object_put(root);
        json_object_put(va);
        json_object_put(aa);
        json_object_put(cells);
        return NULL;
    }
    for (v = 0; v < n_versions; v++)
        json_object_array_add(va, json_object_new_string(versions[v]));
    for (a = 0; a < n_areas; a++) {
        json_object *row = json_object_new_object();
        json_object_array_add(aa, json_object_new_string(areas[a]));
        for (v = 0; v < n_versions; v++) {
            size_t count[MC_VERDICT_COUNT];
            json_object *c = json_object_new_object();
            cell(&rep->run, areas[a], versions[v], count);
            for (k = 0; k < MC_VERDICT_COUNT; k++)
                json_object_object_add(c, mc_verdict_name((mc_verdict_t)k),
                                       json_object_new_int64((int64_t)count[k]));
            json_object_object_add(row, versions[v], c);
        }
        json_object_object_add(cells, areas[a], row);
    }
    json_object_object_add(root, "versions", va);
    json_object_object_add(root, "areas", aa);
    json_object_object_add(root, "cells", cells);
    return root;
}

size_t mc_report_console_matrix(const mc_report_t *rep, char *buf, size_t n)
{
    const char *areas[MC_REPORT_MATRIX_MAX], *versions[MC_REPORT_MATRIX_MAX];
    size_t n_areas, n_versions, a, v, len = 0;
    int w;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (axes(&rep->run, areas, &n_areas, versions, &n_versions) != 0 || n_versions < 2)
        return 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        w = snprintf(buf + len, n - len, __VA_ARGS__);                                             \
        if (w < 0 || (size_t)w >= n - len)                                                         \
            return len;                                                                            \
        len += (size_t)w;                                                                          \
    } while (0)
    PUT("%-14s", "area");
    for (v = 0; v < n_versions; v++)
        PUT(" %-14s", versions[v]);
    PUT("\n");
    for (a = 0; a < n_areas; a++) {
        PUT("%-14s", areas[a]);
        for (v = 0; v < n_versions; v++) {
            size_t count[MC_VERDICT_COUNT];
            char text[64];
            cell(&rep->run, areas[a], versions[v], count);
            mc__report_matrix_cell_text(count, text, sizeof(text));
            PUT(" %-14s", text);
        }
        PUT("\n");
    }
    PUT("(scenarios passed; F failed, E error, W warning, NV not verified, I info, S skipped)\n");
#undef PUT
    return len;
}

void mc__report_matrix_html(mc__buf_t *b, const mc_report_t *rep)
{
    const char *areas[MC_REPORT_MATRIX_MAX], *versions[MC_REPORT_MATRIX_MAX];
    size_t n_areas, n_versions, a, v;

    if (axes(&rep->run, areas, &n_areas, versions, &n_versions) != 0 || n_versions == 0)
        return;
    mc__buf_puts(b, "<section id=\"versions\"><h2>Areas &times; protocol versions</h2>\n"
                    "<table class=\"matrix\"><tr><th>area</th>");
    for (v = 0; v < n_versions; v++) {
        mc__buf_puts(b, "<th>");
        mc__buf_html(b, versions[v]);
        mc__buf_puts(b, "</th>");
    }
    mc__buf_puts(b, "</tr>\n");
    for (a = 0; a < n_areas; a++) {
        mc__buf_puts(b, "<tr><th>");
        mc__buf_html(b, areas[a]);
        mc__buf_puts(b, "</th>");
        for (v = 0; v < n_versions; v++) {
            size_t count[MC_VERDICT_COUNT];
            char text[64];
            cell(&rep->run, areas[a], versions[v], count);
            mc__report_matrix_cell_text(count, text, sizeof(text));
            mc__buf_printf(b, "<td class=\"%s\">",
                           count[MC_FAIL] + count[MC_ERROR] > 0 ? "v-fail"
                           : count[MC_WARN] > 0                  ? "v-warn"
                                                                 : "v-pass");
            mc__buf_html(b, text);
            mc__buf_puts(b, "</td>");
        }
        mc__buf_puts(b, "</tr>\n");
    }
    mc__buf_puts(b, "</table>\n<p class=\"where\">Each cell: the scenarios that passed; F failed, "
                    "E error, W warning, NV not verified, I info, S skipped.</p></section>\n");
}
