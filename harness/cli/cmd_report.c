/*
 * cmd_report.c - `mcpcheck report`: work on saved reports.
 *
 *   mcpcheck report merge A/report.json B/report.json ... -o DIR
 *       one HTML matrix of targets x scenarios: DIR/matrix.html
 *   mcpcheck report render REPORT.json -o DIR
 *       every output (junit.xml, report.sarif, report.html, traces/) again
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "report/report.h"

#define MC_REPORT_MATRIX "matrix.html"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck report merge REPORT.json REPORT.json... -o DIR [--label NAME]...\n"
            "       mcpcheck report render REPORT.json -o DIR\n"
            "\n"
            "merge   writes DIR/" MC_REPORT_MATRIX ": one self-contained HTML page with a row\n"
            "        per scenario and protocol version and a column per report (target),\n"
            "        each cell the verdict there. A column is named by --label (given once\n"
            "        per report, in order) or by the folder that holds its report.json.\n"
            "render  writes every output of a saved run again into DIR: report.json,\n"
            "        junit.xml, report.sarif, report.html and traces/.\n"
            "\n"
            "Examples:\n"
            "  mcpcheck run --report-dir reports/ref -- build/bin/mcpcheck-refserver\n"
            "  mcpcheck run --report-dir reports/mine -- ./my-server\n"
            "  mcpcheck report merge reports/ref/report.json reports/mine/report.json \\\n"
            "      -o reports/matrix\n"
            "\n"
            "Exit codes: 0 written, 2 usage error, unreadable report or unwritable folder.\n");
}

/* The folder name holding path ("reports/ref/report.json" -> "ref"). */
static void folder_label(const char *path, char *out, size_t n)
{
    const char *end = strrchr(path, '/'), *start;

    if (end == NULL) {
        snprintf(out, n, "%s", path);
        return;
    }
    for (start = end; start > path && start[-1] != '/'; start--)
        ;
    snprintf(out, n, "%.*s", (int)(end - start), start);
    if (out[0] == '\0' || strcmp(out, ".") == 0)
        snprintf(out, n, "%s", path);
}

static int write_out(const char *dir, const char *name, const char *data, size_t len)
{
    char path[4200];
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (mc_report_mkdirs(dir, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck report: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (mc_report_write_file(path, data, len, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck report: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    printf("%s\n", path);
    return MC_EXIT_OK;
}

static int cmd_merge(int argc, char **argv)
{
    const char *files[MC_REPORT_MAX_MERGE], *given[MC_REPORT_MAX_MERGE], *dir = NULL;
    char labels[MC_REPORT_MAX_MERGE][256];
    const char *lp[MC_REPORT_MAX_MERGE];
    mc_report_t *reps;
    const mc_report_t *rp[MC_REPORT_MAX_MERGE];
    size_t n = 0, n_given = 0, i, j, len = 0;
    char *html = NULL;
    int rc, code = MC_EXIT_OK;

    for (i = 2; i < (size_t)argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < (size_t)argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return MC_EXIT_OK;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && has) {
            dir = argv[++i];
        } else if (strcmp(a, "--label") == 0 && has) {
            if (n_given == MC_REPORT_MAX_MERGE) {
                fprintf(stderr, "mcpcheck report merge: too many --label\n");
                return MC_EXIT_USAGE;
            }
            given[n_given++] = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "mcpcheck report merge: unexpected option '%s'\n\n", a);
            usage(stderr);
            return MC_EXIT_USAGE;
        } else {
            if (n == MC_REPORT_MAX_MERGE) {
                fprintf(stderr, "mcpcheck report merge: at most %d reports\n",
                        MC_REPORT_MAX_MERGE);
                return MC_EXIT_USAGE;
            }
            files[n++] = a;
        }
    }
    if (n == 0 || dir == NULL) {
        fprintf(stderr, "mcpcheck report merge: need REPORT.json files and -o DIR\n\n");
        usage(stderr);
        return MC_EXIT_USAGE;
    }
    if (n_given > n) {
        fprintf(stderr, "mcpcheck report merge: more --label than reports\n");
        return MC_EXIT_USAGE;
    }
    reps = calloc(n, sizeof(*reps));
    if (reps == NULL) {
        fprintf(stderr, "mcpcheck report merge: out of memory\n");
        return MC_EXIT_USAGE;
    }
    for (i = 0; i < n; i++) {
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        if (mc_report_load(files[i], &reps[i], &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck report merge: %s\n", eb.msg);
            code = MC_EXIT_USAGE;
            break;
        }
        if (i < n_given)
            snprintf(labels[i], sizeof(labels[i]), "%s", given[i]);
        else
            folder_label(files[i], labels[i], sizeof(labels[i]));
        for (j = 0; j < i; j++)
            if (strcmp(labels[j], labels[i]) == 0) {
                /* Same folder name twice: number them. */
                size_t l = strlen(labels[i]);
                snprintf(labels[i] + l, sizeof(labels[i]) - l, " #%zu", i + 1);
                break;
            }
        lp[i] = labels[i];
        rp[i] = &reps[i];
    }
    if (code == MC_EXIT_OK) {
        rc = mc_report_merge_html(rp, lp, n, &html, &len);
        if (rc != MC_OK) {
            fprintf(stderr, "mcpcheck report merge: %s\n", mc_strerror(rc));
            code = MC_EXIT_USAGE;
        } else {
            code = write_out(dir, MC_REPORT_MATRIX, html, len);
        }
    }
    free(html);
    for (i = 0; i < n; i++)
        mc_report_free(&reps[i]);
    free(reps);
    return code;
}

static int cmd_render(int argc, char **argv)
{
    const char *from = NULL, *dir = NULL;
    mc_report_t rep;
    mc_errbuf_t eb;
    int i;

    for (i = 2; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
            dir = argv[++i];
        else if (argv[i][0] != '-' && from == NULL)
            from = argv[i];
        else {
            fprintf(stderr, "mcpcheck report render: unexpected argument '%s'\n\n", argv[i]);
            usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (from == NULL || dir == NULL) {
        fprintf(stderr, "mcpcheck report render: need REPORT.json and -o DIR\n\n");
        usage(stderr);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (mc_report_load(from, &rep, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck report render: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (mc_report_write_all(&rep, dir, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck report render: %s\n", eb.msg);
        mc_report_free(&rep);
        return MC_EXIT_USAGE;
    }
    printf("reports: %s/{%s,%s,%s,%s,%s/}\n", dir, MC_REPORT_JSON, MC_REPORT_JUNIT,
           MC_REPORT_SARIF, MC_REPORT_HTML, MC_REPORT_TRACES);
    mc_report_free(&rep);
    return MC_EXIT_OK;
}

int mc_cmd_report(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? MC_EXIT_USAGE : MC_EXIT_OK;
    }
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc, argv);
    if (strcmp(argv[1], "render") == 0)
        return cmd_render(argc, argv);
    fprintf(stderr, "mcpcheck report: unknown action '%s' (merge or render)\n\n", argv[1]);
    usage(stderr);
    return MC_EXIT_USAGE;
}
