/*
 * cmd_baseline.c - `mcpcheck baseline`: write a baseline of known failures
 * from a saved report.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "report/report.h"

/* What the command line asks of `mcpcheck baseline`. */
typedef struct baseline_opts {
    const char *from, *out;
} baseline_opts_t;

#define T baseline_opts_t
static const mc_opt_t baseline_opts[] = {
    MC_OPTION_STRING(T, from, "from", 0, "FILE",
                     "the report.json of a run (e.g. reports/latest/report.json)"),
    MC_OPTION_STRING(T, out, "output", 'o', "FILE",
                     "where to write the baseline ('-': standard output)"),
    MC_OPTION_END,
};

static const mc_opts_spec_t baseline_spec = {
    .prog = "mcpcheck baseline",
    .synopsis = "mcpcheck baseline --from REPORT.json -o FILE\n",
    .about = "Writes a baseline (JSONC) listing every failure of a saved run: one entry\n"
             "\"SCENARIO:CHECK\" per broken check (FAIL or WARN), \"SCENARIO\" for a scenario\n"
             "that ended in ERROR; \"@VERSION\" is added after the scenario id when the\n"
             "failure happened at some protocol versions only. Each entry carries a reason:\n"
             "the generated one quotes the failure; replace it with why it is accepted.\n"
             "\n"
             "Then 'mcpcheck run --baseline FILE -- SERVER' does not fail on a listed\n"
             "failure (it is shown as known) and fails when a listed failure no longer\n"
             "happens (a stale entry: delete it).\n",
    .epilogue =
        "Example:\n"
        "  mcpcheck run -- ./my-server\n"
        "  mcpcheck baseline --from reports/latest/report.json -o known-failures.jsonc\n"
        "  mcpcheck run --baseline known-failures.jsonc -- ./my-server\n"
        "\n"
        "Exit codes: 0 written, 2 usage error or unreadable report.\n",
    .opts = baseline_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = MC_OPTS_NONE,
};
#undef T

int mc_cmd_baseline(int argc, char **argv)
{
    baseline_opts_t o;
    const char *from, *out;
    mc_report_t rep;
    mc_errbuf_t eb;
    char *text = NULL;
    size_t len = 0, entries = 0, i;
    int rc;

    memset(&o, 0, sizeof(o));
    rc = mc_opts_parse(&baseline_spec, &o, argc, argv);
    if (rc != MC_OPTS_CONTINUE)
        return rc;
    from = o.from;
    out = o.out;
    if (from == NULL || out == NULL)
        return mc_opts_fail(&baseline_spec, "need --from REPORT.json and -o FILE (see '%s --help')",
                            baseline_spec.prog);
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
