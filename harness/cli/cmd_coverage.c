/*
 * cmd_coverage.c - `mcpcheck coverage`: message x path coverage of the
 * scenario library.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/scenarios_load.h"
#include "client/session.h"
#include "core/version.h"
#include "scenario/coverage.h"

int mc_cmd_coverage(int argc, char **argv)
{
    char *paths[64];
    size_t n_paths = 0, empty = 0, i;
    int as_json = 0, a;
    const char *versions[MC_V_COUNT + 1];
    mc_cli_scenarios_t scs;
    json_object *doc, *rows;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
            printf("usage: mcpcheck coverage [--json] [--scenarios PATH...]\n\n"
                   "For every request, result, notification and error path of resources,\n"
                   "prompts, elicitation, logging and pagination and the lifecycle around them,\n"
                   "at every protocol version the harness runs where the message exists, lists\n"
                   "the scenarios that exercise it (those that run at that version: in their\n"
                   "versions, with the features they need). Computed from the scenario files;\n"
                   "nothing runs.\n\n"
                   "  --json   print {\"rows\": [{\"message\", \"version\", \"path\", \"scenarios\"}]}\n\n"
                   "Exit codes: 0 every row is covered, 1 some row has no scenario, 2 usage.\n");
            return MC_EXIT_OK;
        } else if (strcmp(argv[a], "--json") == 0) {
            as_json = 1;
        } else if (strcmp(argv[a], "--scenarios") == 0 && a + 1 < argc) {
            while (a + 1 < argc && argv[a + 1][0] != '-' && n_paths < 64)
                paths[n_paths++] = argv[++a];
        } else {
            fprintf(stderr, "mcpcheck coverage: unexpected argument '%s' (see --help)\n", argv[a]);
            return MC_EXIT_USAGE;
        }
    }
    if (mc_cli_scenarios_load(paths, n_paths, NULL, &scs, "mcpcheck coverage") != 0)
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
    mc_cli_scenarios_free(&scs);
    return empty > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
}
