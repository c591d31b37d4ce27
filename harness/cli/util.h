/*
 * util.h - helpers shared by the subcommands: the protocol version option,
 * starting and stopping the target with signal safety, printing its stderr
 * tail.
 */
#ifndef MC_CLI_UTIL_H
#define MC_CLI_UTIL_H

#include "client/process.h"
#include "client/stdio.h"
#include "core/version.h"

/* The protocol version ping, record, fuzz and validate use unless told
 * otherwise: the newest with the initialize handshake, what a server of
 * today most likely speaks (run asks the server which versions it speaks). */
#define MC_CLI_DEFAULT_VERSION MC_VERSION_NEWEST_HANDSHAKE

/* An option check (cli/options.h): accepts a published protocol version. */
int mc_cli_check_version(const char *value, char *why, size_t n);

/* An option hint (cli/options.h): "known: " and the published versions. */
void mc_cli_hint_versions(char *buf, size_t n);

typedef struct mc_cli_target_opts {
    char **argv;
    const char *cwd;
    mc_rlimits_t limits;
} mc_cli_target_opts_t;

/*
 * Starts the target and remembers its process group, so that SIGINT/SIGTERM
 * sent to mcpcheck stop the target too (nothing is left behind).
 */
int mc_cli_target_start(mc_stdio_t *t, const mc_cli_target_opts_t *o, mc_errbuf_t *eb);

/* Shuts the target down as the spec advises. Its exit status and stderr tail
 * stay readable until mc_stdio_free(t). Returns 0 when it exited by itself
 * after stdin closed, else the signal that stopped it (SIGTERM, SIGKILL). */
int mc_cli_target_stop(mc_stdio_t *t);

/* Prints the last lines of the target's stderr, indented, if there are any. */
void mc_cli_print_stderr_tail(const mc_proc_t *p, const char *prefix);

#endif /* MC_CLI_UTIL_H */
