/*
 * main.c - `mcpcheck`: dispatch to the subcommands.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/buildinfo.h"
#include "core/datadir.h"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command_t;

/* The version, the git revision, the protocol versions, and where the
 * run-time data is read from. */
static void print_version(void)
{
    char line[256], protocols[256];
    mc_datadir_how_t how;
    const char *root = mc_datadir_root(&how);

    mc_build_version_line("mcpcheck", line, sizeof(line));
    mc_build_protocols(protocols, sizeof(protocols));
    printf("%s\n", line);
    printf("protocol versions: %s\n", protocols);
    printf("data: %s (%s)\n", root[0] != '\0' ? root : ".", mc_datadir_how_name(how));
}

static const command_t commands[] = {
    {"run", mc_cmd_run, "run the scenario library against a server (the conformance run)"},
    {"list", mc_cmd_list, "list scenarios with their ids, levels and requirement sentences"},
    {"lint", mc_cmd_lint, "check scenario files without running them"},
    {"coverage", mc_cmd_coverage, "which scenarios exercise each message path, per version"},
    {"record", mc_cmd_record, "write a scenario skeleton from a live session"},
    {"fuzz", mc_cmd_fuzz, "stateful fuzzing of a server; findings become replayable scenarios"},
    {"profile", mc_cmd_profile, "write a profile skeleton from what a live server lists"},
    {"ping", mc_cmd_ping, "initialize a server, ping it, and report the round trip"},
    {"validate", mc_cmd_validate, "validate MCP messages or JSONL traces against the schemas"},
    {"baseline", mc_cmd_baseline, "write a baseline of known failures from a report.json"},
    {"report", mc_cmd_report, "merge saved reports into a matrix, or render one again"},
};

static void usage(FILE *out)
{
    size_t i;

    fprintf(out, "usage: mcpcheck [--help] [--version] COMMAND [ARGS...]\n\n"
                 "mcpcheck tests Model Context Protocol servers for conformance.\n\n"
                 "Commands:\n");
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'mcpcheck COMMAND --help' for a command's options.\n"
                 "Examples:\n"
                 "  mcpcheck run -- ./build/bin/mcpcheck-refserver\n"
                 "  mcpcheck ping -- ./build/bin/mcpcheck-refserver\n\n"
                 "Exit codes: 0 success, 1 conformance failure, 2 usage error,\n"
                 "3 incomplete (the target could not be started, died or stayed silent).\n");
}

int main(int argc, char **argv)
{
    size_t i;

    /* A target that closes its stdin must never kill the harness. */
    signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        usage(stderr);
        return MC_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return MC_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version();
        return MC_EXIT_OK;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "mcpcheck: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return MC_EXIT_USAGE;
}
