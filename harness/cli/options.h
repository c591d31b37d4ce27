/*
 * options.h - the option parser as mcpcheck's subcommands use it: the
 * table-driven parser of core/options.h, plus what a subcommand does with
 * its outcome (prints the usage or the error, returns the exit code).
 */
#ifndef MC_CLI_OPTIONS_H
#define MC_CLI_OPTIONS_H

#include "core/options.h"

/* mc_opts_parse() result when the subcommand goes on. */
#define MC_OPTS_CONTINUE (-1)

/*
 * mc_opts_read() for a subcommand: returns MC_OPTS_CONTINUE when argv parsed;
 * otherwise prints the usage on stdout (for --help) or "PROG: REASON" on
 * stderr and returns the exit code the subcommand is to return (MC_EXIT_OK
 * or MC_EXIT_USAGE).
 */
int mc_opts_parse(const mc_opts_spec_t *spec, void *o, int argc, char **argv);

/* Prints "PROG: MESSAGE" and a newline on stderr; returns MC_EXIT_USAGE, so
 * that a subcommand's own argument checks read `return mc_opts_fail(...)`. */
int mc_opts_fail(const mc_opts_spec_t *spec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* MC_CLI_OPTIONS_H */
