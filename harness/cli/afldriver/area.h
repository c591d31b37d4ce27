/*
 * area.h - afl-fuzz's coverage map as the AFL++ runtime of this process
 * holds it.
 *
 * area.c is compiled by the build's own compiler, not by afl-clang-fast:
 * the instrumentation pass of afl-clang-fast owns the runtime's symbols in
 * the files it compiles, so the driver reaches them through this function.
 */
#ifndef MC_CLI_AFLDRIVER_AREA_H
#define MC_CLI_AFLDRIVER_AREA_H

#include <stddef.h>

/* The map this process reports to afl-fuzz, with its size in *n. */
unsigned char *mc_afl_area(size_t *n);

#endif /* MC_CLI_AFLDRIVER_AREA_H */
