/*
 * util.h - helpers shared by the subcommands: the protocol version option,
 * starting and stopping the target with signal safety, printing its stderr
 * tail.
 */
#ifndef MC_CLI_UTIL_H
#define MC_CLI_UTIL_H

#include "client/target.h"
#include "core/version.h"

/* The protocol version ping, record, fuzz and validate use unless told
 * otherwise: the newest with the initialize handshake, what a server of
 * today most likely speaks (run asks the server which versions it speaks). */
#define MC_CLI_DEFAULT_VERSION MC_VERSION_NEWEST_HANDSHAKE

/* An option check (cli/options.h): accepts a published protocol version. */
int mc_cli_check_version(const char *value, char *why, size_t n);

/* An option hint (cli/options.h): "known: " and the published versions. */
void mc_cli_hint_versions(char *buf, size_t n);

/*
 * Opens the target (client/target.h) and remembers the process group of
 * the command it started, so that SIGINT/SIGTERM sent to mcpcheck stop the
 * target too (nothing is left behind). Returns what mc_target_open() does.
 */
int mc_cli_target_open(mc_target_t **out, const mc_target_opts_t *o, mc_errbuf_t *eb);

/* Stops the target as the spec advises (mc_target_stop()). Its exit status
 * and stderr tail stay readable until mc_target_free(t). Returns 0 when it
 * exited by itself after stdin closed, else the signal that stopped it
 * (SIGTERM, SIGKILL). */
int mc_cli_target_stop(mc_target_t *t);

/* Prints the last lines of the target's stderr, indented, if there are any. */
void mc_cli_print_stderr_tail(const mc_target_t *t, const char *prefix);

#endif /* MC_CLI_UTIL_H */
