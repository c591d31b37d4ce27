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
#include "cli/options.h"
#include "report/report.h"

#define MC_REPORT_MATRIX "matrix.html"

/* What the command line asks of `mcpcheck report merge` and `render`. */
typedef struct report_opts {
    mc_opt_list_t files;  /* the REPORT.json arguments */
    mc_opt_list_t labels; /* merge: --label, in order */
    const char *dir;
    char *files_v[MC_REPORT_MAX_MERGE], *labels_v[MC_REPORT_MAX_MERGE];
} report_opts_t;

#define T report_opts_t
static const mc_opt_t merge_opts[] = {
    MC_OPTION_STRING(T, dir, "output", 'o', "DIR", "the folder to write " MC_REPORT_MATRIX " in"),
    MC_OPTION_LIST(T, labels, "label", 0, "NAME", 0, NULL, NULL,
                   "the name of a report's column: given once per report, in order "
                   "(default: the folder that holds its report.json)"),
    MC_OPTION_END,
};

static const mc_opt_t render_opts[] = {
    MC_OPTION_STRING(T, dir, "output", 'o', "DIR", "the folder to write the outputs in"),
    MC_OPTION_END,
};

static const mc_opts_spec_t merge_spec = {
    .prog = "mcpcheck report merge",
    .synopsis = "mcpcheck report merge REPORT.json... -o DIR [--label NAME]...\n",
    .about = "Writes DIR/" MC_REPORT_MATRIX ": one self-contained HTML page with a row per\n"
             "scenario and protocol version and a column per report (target), each cell\n"
             "the verdict there.\n",
    .epilogue = "Example:\n"
                "  mcpcheck report merge reports/ref/report.json reports/mine/report.json \\\n"
                "      -o reports/matrix\n",
    .opts = merge_opts,
    .positional = "REPORT.json",
    .positional_at = offsetof(T, files),
    .command_at = MC_OPTS_NONE,
};

static const mc_opts_spec_t render_spec = {
    .prog = "mcpcheck report render",
    .synopsis = "mcpcheck report render REPORT.json -o DIR\n",
    .about = "Writes every output of a saved run again into DIR: report.json, junit.xml,\n"
             "report.sarif, report.html and traces/.\n",
    .opts = render_opts,
    .positional = "REPORT.json",
    .positional_at = offsetof(T, files),
    .command_at = MC_OPTS_NONE,
};
#undef T

/* Reads the arguments after the action (argv[0]) into o; files holds at
 * most max_files. Returns MC_OPTS_CONTINUE or the exit code to return. */
static int report_options(const mc_opts_spec_t *spec, int argc, char **argv, report_opts_t *o,
                          size_t max_files)
{
    memset(o, 0, sizeof(*o));
    o->files = (mc_opt_list_t){o->files_v, max_files, 0};
    o->labels = (mc_opt_list_t){o->labels_v, MC_REPORT_MAX_MERGE, 0};
    return mc_opts_parse(spec, o, argc, argv);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck report merge REPORT.json... -o DIR [--label NAME]...\n"
            "       mcpcheck report render REPORT.json -o DIR\n"
            "\n"
            "merge   writes DIR/" MC_REPORT_MATRIX ": one self-contained HTML page with a row\n"
            "        per scenario and protocol version and a column per report (target),\n"
            "        each cell the verdict there. A column is named by --label (given once\n"
            "        per report, in order) or by the folder that holds its report.json.\n"
            "render  writes every output of a saved run again into DIR: report.json,\n"
            "        junit.xml, report.sarif, report.html and traces/.\n"
            "\n"
            "Options of merge:\n");
    mc_opts_help(out, &merge_spec);
    fprintf(out, "\nOptions of render:\n");
    mc_opts_help(out, &render_spec);
    fprintf(out,
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
    report_opts_t o;
    const char *const *files, *const *given, *dir;
    char labels[MC_REPORT_MAX_MERGE][256];
    const char *lp[MC_REPORT_MAX_MERGE];
    mc_report_t *reps;
    const mc_report_t *rp[MC_REPORT_MAX_MERGE];
    size_t n, n_given, i, j, len = 0;
    char *html = NULL;
    int rc, code = MC_EXIT_OK;

    rc = report_options(&merge_spec, argc - 1, argv + 1, &o, MC_REPORT_MAX_MERGE);
    if (rc != MC_OPTS_CONTINUE)
        return rc;
    files = (const char *const *)o.files.v;
    given = (const char *const *)o.labels.v;
    n = o.files.n;
    n_given = o.labels.n;
    dir = o.dir;
    if (n == 0 || dir == NULL)
        return mc_opts_fail(&merge_spec, "need REPORT.json files and -o DIR (see '%s --help')",
                            merge_spec.prog);
    if (n_given > n)
        return mc_opts_fail(&merge_spec, "more --label than reports");
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
    report_opts_t o;
    const char *from, *dir;
    mc_report_t rep;
    mc_errbuf_t eb;
    int code;

    code = report_options(&render_spec, argc - 1, argv + 1, &o, 1);
    if (code != MC_OPTS_CONTINUE)
        return code;
    from = o.files.n > 0 ? o.files.v[0] : NULL;
    dir = o.dir;
    if (from == NULL || dir == NULL)
        return mc_opts_fail(&render_spec, "need REPORT.json and -o DIR (see '%s --help')",
                            render_spec.prog);
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
    printf("reports: %s/{%s,%s,%s,%s,%s,%s/}\n", dir, MC_REPORT_JSON, MC_REPORT_JUNIT,
           MC_REPORT_SARIF, MC_REPORT_HTML, MC_REPORT_MD, MC_REPORT_TRACES);
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
    fprintf(stderr, "mcpcheck report: unknown action '%s' (merge or render; see 'mcpcheck report "
                    "--help')\n",
            argv[1]);
    return MC_EXIT_USAGE;
}
