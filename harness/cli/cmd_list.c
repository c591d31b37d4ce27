/*
 * cmd_list.c - `mcpcheck list` and `mcpcheck lint`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/scenarios_load.h"

#define MC_LIST_MAX_PATHS 256

int mc_cmd_list(int argc, char **argv)
{
    char *paths[MC_LIST_MAX_PATHS];
    size_t n_paths = 0, k;
    const char *filter = NULL;
    mc_cli_scenarios_t scs;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: mcpcheck list [--scenarios PATH...] [--filter GLOB]\n\n"
                   "Lists the scenarios with their ids, titles, and for each requirement its\n"
                   "level, check id, spec reference and sentence.\n\n"
                   "Example: mcpcheck list --filter 'logging/*'\n");
            return MC_EXIT_OK;
        } else if (strcmp(argv[i], "--scenarios") == 0 && i + 1 < argc) {
            while (i + 1 < argc && argv[i + 1][0] != '-' && n_paths < MC_LIST_MAX_PATHS)
                paths[n_paths++] = argv[++i];
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else {
            fprintf(stderr, "mcpcheck list: unexpected argument '%s' (see --help)\n", argv[i]);
            return MC_EXIT_USAGE;
        }
    }
    if (mc_cli_scenarios_load(paths, n_paths, filter, &scs, "mcpcheck list") != 0)
        return MC_EXIT_USAGE;
    for (k = 0; k < scs.n; k++) {
        const mc_scenario_t *sc = &scs.v[k];
        printf("%s  %s\n", sc->id, sc->title);
        if (sc->min_version || sc->max_version)
            printf("    versions %s..%s\n", sc->min_version ? sc->min_version : "",
                   sc->max_version ? sc->max_version : "");
        for (size_t r = 0; r < sc->n_reqs; r++)
            printf("    %-6s %-44s %s\n           %s\n", mc_level_name(sc->reqs[r].level),
                   sc->reqs[r].check, sc->reqs[r].ref, sc->reqs[r].text);
    }
    printf("%zu scenarios\n", scs.n);
    i = scs.failed > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    mc_cli_scenarios_free(&scs);
    return i;
}

int mc_cmd_lint(int argc, char **argv)
{
    char *paths[MC_LIST_MAX_PATHS];
    size_t n_paths = 0;
    mc_cli_scenarios_t scs;
    int i, code;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: mcpcheck lint FILE_OR_FOLDER...\n\n"
                   "Checks scenario files without running them: JSONC syntax, unknown fields,\n"
                   "unknown step kinds and matchers, malformed paths and regular expressions,\n"
                   "variables used before they are captured, checks not declared in \"spec\",\n"
                   "and the form of spec references. Problems are printed as\n"
                   "FILE:LINE:COLUMN: message. With no argument, the whole library is checked.\n\n"
                   "Exit codes: 0 all files are clean, 1 problems found, 2 usage error.\n");
            return MC_EXIT_OK;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "mcpcheck lint: unknown option '%s' (see --help)\n", argv[i]);
            return MC_EXIT_USAGE;
        }
        if (n_paths < MC_LIST_MAX_PATHS)
            paths[n_paths++] = argv[i];
    }
    if (mc_cli_scenarios_load(paths, n_paths, NULL, &scs, "mcpcheck lint") != 0)
        return MC_EXIT_USAGE;
    printf("%zu scenario file%s clean, %zu with problems\n", scs.n, scs.n == 1 ? "" : "s",
           scs.failed);
    code = scs.failed > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    mc_cli_scenarios_free(&scs);
    return code;
}
