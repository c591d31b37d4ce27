/*
 * cmd_coverage.c - `mcpcheck coverage`: message x path coverage of the
 * scenario library.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/scenarios_load.h"
#include "client/session.h"
#include "core/version.h"
#include "scenario/coverage.h"

/* --scenarios paths at most. */
#define MC_COVERAGE_MAX_PATHS 64

/* What the command line asks of `mcpcheck coverage`. */
typedef struct coverage_opts {
    mc_opt_list_t scenarios;
    int json;
    int fail_uncovered;
    char *paths_v[MC_COVERAGE_MAX_PATHS];
} coverage_opts_t;

#define T coverage_opts_t
static const mc_opt_t coverage_opts[] = {
    MC_OPTION_LIST(T, scenarios, "scenarios", 0, "PATH", MC_OPT_GREEDY, NULL, NULL,
                   "scenario files or folders (repeatable; default: the library)"),
    MC_OPTION_FLAG(T, json, "json", 0,
                   "print {\"rows\": [{\"message\", \"version\", \"path\", \"scenarios\"}]}"),
    MC_OPTION_FLAG(T, fail_uncovered, "fail-uncovered", 0,
                   "exit 1 when some row has no scenario (the library's own test; a folder "
                   "of your scenarios covers a few rows, and its uncovered rows are no error)"),
    MC_OPTION_END,
};

static const mc_opts_spec_t coverage_spec = {
    .prog = "mcpcheck coverage",
    .synopsis = "mcpcheck coverage [--json] [--fail-uncovered] [--scenarios PATH...]\n",
    .about = "For every request, result, notification and error path of resources,\n"
             "prompts, elicitation, logging and pagination and the lifecycle around them,\n"
             "at every protocol version the harness runs where the message exists, lists\n"
             "the scenarios that exercise it (those that run at that version: in their\n"
             "versions, with the features they need). Computed from the scenario files;\n"
             "nothing runs.\n",
    .epilogue = "The rows are the protocol's, not the folder's: a folder of your own\n"
                "scenarios leaves most rows uncovered, which is no error.\n"
                "Exit codes: 0 the table was printed, 1 a scenario file has problems (or,\n"
                "with --fail-uncovered, some row has no scenario), 2 usage.\n",
    .opts = coverage_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = MC_OPTS_NONE,
};
#undef T

int mc_cmd_coverage(int argc, char **argv)
{
    coverage_opts_t o;
    size_t empty = 0, i;
    int as_json, code;
    const char *versions[MC_V_COUNT + 1];
    mc_cli_scenarios_t scs;
    json_object *doc, *rows;

    memset(&o, 0, sizeof(o));
    o.scenarios = (mc_opt_list_t){o.paths_v, MC_COVERAGE_MAX_PATHS, 0};
    code = mc_opts_parse(&coverage_spec, &o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    as_json = o.json;
    if (mc_cli_scenarios_load(o.scenarios.v, o.scenarios.n, NULL, 0, &scs, "mcpcheck coverage") != 0)
        return MC_EXIT_USAGE;
    {
        size_t k = 0;
        for (const char *const *v = mc_version_names(); *v != NULL; v++)
            if (mc_protocol_version_known(*v))
                versions[k++] = *v;
        versions[k] = NULL;
    }
    doc = mc_coverage_build(scs.v, scs.n, versions, &empty);
    if (doc == NULL) {
        fprintf(stderr, "mcpcheck coverage: out of memory\n");
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_INCOMPLETE;
    }
    rows = json_object_object_get(doc, "rows");
    if (as_json) {
        printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
    } else {
        printf("%-38s %-10s %-34s %s\n", "MESSAGE", "VERSION", "PATH", "SCENARIOS");
        for (i = 0; i < json_object_array_length(rows); i++) {
            json_object *r = json_object_array_get_idx(rows, i);
            json_object *who = json_object_object_get(r, "scenarios");
            size_t n = json_object_array_length(who);
            printf("%-38s %-10s %-34s ", json_object_get_string(json_object_object_get(r, "message")),
                   json_object_get_string(json_object_object_get(r, "version")),
                   json_object_get_string(json_object_object_get(r, "path")));
            if (n == 0)
                printf("(none)  <-- not covered\n");
            else
                printf("%zu: %s%s\n", n, json_object_get_string(json_object_array_get_idx(who, 0)),
                       n > 1 ? ", ..." : "");
        }
        printf("%zu rows, %zu not covered\n", json_object_array_length(rows), empty);
    }
    json_object_put(doc);
    code = scs.failed > 0 || (o.fail_uncovered && empty > 0) ? MC_EXIT_FAIL : MC_EXIT_OK;
    mc_cli_scenarios_free(&scs);
    return code;
}
