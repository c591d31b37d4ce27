/*
 * commands.h - the subcommands of the `mcpcheck` program.
 *
 * Each subcommand is a function taking the arguments after its name
 * (argv[0] is the subcommand name) and returning the process exit code:
 * 0 success, 1 failure found, 2 usage error, 3 incomplete (the target or the
 * harness could not do the job). Only this layer prints and exits.
 */
#ifndef MC_CLI_COMMANDS_H
#define MC_CLI_COMMANDS_H

#define MC_EXIT_OK 0
#define MC_EXIT_FAIL 1
#define MC_EXIT_USAGE 2
#define MC_EXIT_INCOMPLETE 3

int mc_cmd_ping(int argc, char **argv);
int mc_cmd_validate(int argc, char **argv);
int mc_cmd_run(int argc, char **argv);
int mc_cmd_list(int argc, char **argv);
int mc_cmd_lint(int argc, char **argv);
int mc_cmd_coverage(int argc, char **argv);
int mc_cmd_record(int argc, char **argv);
int mc_cmd_baseline(int argc, char **argv);
int mc_cmd_report(int argc, char **argv);
int mc_cmd_fuzz(int argc, char **argv);
int mc_cmd_profile(int argc, char **argv);

#endif /* MC_CLI_COMMANDS_H */
