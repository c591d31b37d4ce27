/*
 * cmd_baseline.c - `mcpcheck baseline`: write a baseline of known failures
 * from a saved report.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "report/report.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck baseline --from REPORT.json -o FILE\n"
            "\n"
            "Writes a baseline (JSONC) listing every failure of a saved run: one entry\n"
            "\"SCENARIO:CHECK\" per broken check (FAIL or WARN), \"SCENARIO\" for a scenario\n"
            "that ended in ERROR; \"@VERSION\" is added after the scenario id when the\n"
            "failure happened at some protocol versions only. Each entry carries a reason:\n"
            "the generated one quotes the failure; replace it with why it is accepted.\n"
            "\n"
            "Then 'mcpcheck run --baseline FILE -- SERVER' does not fail on a listed\n"
            "failure (it is shown as known) and fails when a listed failure no longer\n"
            "happens (a stale entry: delete it).\n"
            "\n"
            "Options:\n"
            "  --from FILE      the report.json of a run (e.g. reports/latest/report.json)\n"
            "  -o, --output FILE  where to write the baseline ('-': standard output)\n"
            "  -h, --help       this help\n"
            "\n"
            "Example:\n"
            "  mcpcheck run -- ./my-server; mcpcheck baseline --from reports/latest/report.json \\\n"
            "      -o mcpcheck-baseline.jsonc\n"
            "  mcpcheck run --baseline mcpcheck-baseline.jsonc -- ./my-server\n"
            "\n"
            "Exit codes: 0 written, 2 usage error or unreadable report.\n");
}

int mc_cmd_baseline(int argc, char **argv)
{
    const char *from = NULL, *out = NULL;
    mc_report_t rep;
    mc_errbuf_t eb;
    char *text = NULL;
    size_t len = 0, entries = 0, i;
    int rc;

    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < (size_t)argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return MC_EXIT_OK;
        } else if (strcmp(a, "--from") == 0 && has) {
            from = argv[++i];
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && has) {
            out = argv[++i];
        } else {
            fprintf(stderr, "mcpcheck baseline: unexpected argument '%s'\n\n", a);
            usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (from == NULL || out == NULL) {
        fprintf(stderr, "mcpcheck baseline: need --from REPORT.json and -o FILE\n\n");
        usage(stderr);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (mc_report_load(from, &rep, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck baseline: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    rc = mc_report_baseline(&rep, &text, &len);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck baseline: %s\n", mc_strerror(rc));
        mc_report_free(&rep);
        return MC_EXIT_USAGE;
    }
    for (i = 0; i + 7 < len; i++)
        if (memcmp(text + i, "{\"id\": ", 7) == 0)
            entries++;
    if (strcmp(out, "-") == 0) {
        rc = fwrite(text, 1, len, stdout) == len ? MC_OK : MC_EIO;
    } else {
        mc_errbuf_clear(&eb);
        rc = mc_report_write_file(out, text, len, &eb);
        if (rc != MC_OK)
            fprintf(stderr, "mcpcheck baseline: %s\n", eb.msg);
        else
            fprintf(stderr, "mcpcheck baseline: %zu known failure%s of %s written to %s\n",
                    entries, entries == 1 ? "" : "s", from, out);
    }
    free(text);
    mc_report_free(&rep);
    return rc == MC_OK ? MC_EXIT_OK : MC_EXIT_USAGE;
}
