/*
 * options.c - what a subcommand does with the option parser's outcome
 * (options.h): the usage on stdout for --help, "PROG: REASON" on stderr and
 * the usage exit code for an error.
 */
#include "cli/options.h"

#include <stdarg.h>
#include <stdio.h>

#include "cli/commands.h"

int mc_opts_parse(const mc_opts_spec_t *spec, void *o, int argc, char **argv)
{
    char why[MC_OPTS_MAX_MESSAGE];

    switch (mc_opts_read(spec, o, argc, argv, why, sizeof(why))) {
    case MC_OPTS_OK:
        return MC_OPTS_CONTINUE;
    case MC_OPTS_HELP:
        mc_opts_usage(stdout, spec);
        return MC_EXIT_OK;
    default:
        fprintf(stderr, "%s: %s\n", spec->prog, why);
        return MC_EXIT_USAGE;
    }
}

int mc_opts_fail(const mc_opts_spec_t *spec, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", spec->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return MC_EXIT_USAGE;
}
