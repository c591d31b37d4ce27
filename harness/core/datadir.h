/*
 * datadir.h - where the programs find the data they read at run time.
 *
 * The scenario library (with its profiles) and the bundled protocol schemas
 * live in one data folder, laid out as it is installed:
 *
 *   PREFIX/bin/mcpcheck
 *   PREFIX/share/mcpcheck/scenarios/      the library, profiles/ inside
 *   PREFIX/share/mcpcheck/schemas/        <version>.json
 *
 * The folder is found, in this order: the MCPCHECK_DATA_DIR environment
 * variable when it is set and not empty; else "share/mcpcheck" in the
 * folder of the running executable (/proc/self/exe) or in one of the
 * MC_DATADIR_MAX_UP folders above it (the build tree makes
 * build/share/mcpcheck point at the source tree when it is configured, so
 * build/bin and build/tests/bin find it too); else the source layout
 * ("scenarios", "harness/schemas") relative to the current directory.
 * Nothing compiled in names a folder of the machine that built the program.
 *
 * The answer is worked out once per process and kept (the environment and
 * the executable do not move under a running program); every function here
 * is safe to call from several threads.
 */
#ifndef MC_CORE_DATADIR_H
#define MC_CORE_DATADIR_H

#include <stddef.h>

/* The environment variable that names the data folder. */
#define MC_DATADIR_ENV "MCPCHECK_DATA_DIR"
/* The data folder below an install prefix. */
#define MC_DATADIR_UNDER_PREFIX "share/mcpcheck"
/* Folders above the executable's own searched for share/mcpcheck. */
#define MC_DATADIR_MAX_UP 3
/* Longest path this module builds, NUL included. */
#define MC_DATADIR_PATH_MAX 4096

/* The kinds of run-time data. */
typedef enum mc_data {
    MC_DATA_SCENARIOS = 0, /* the scenario library; profiles/ inside it */
    MC_DATA_SCHEMAS,       /* the bundled protocol schemas, <version>.json */
    MC_DATA_COUNT
} mc_data_t;

/* How the data folder was found. */
typedef enum mc_datadir_how {
    MC_DATADIR_FROM_ENV = 0, /* MCPCHECK_DATA_DIR */
    MC_DATADIR_FROM_EXE,     /* share/mcpcheck beside or above the executable */
    MC_DATADIR_FROM_CWD      /* none found: the source layout, relative */
} mc_datadir_how_t;

/*
 * The folder of one kind of data: "DATADIR/scenarios", "DATADIR/schemas",
 * or, when no data folder was found, the source layout relative to the
 * current directory. Never NULL; the string lives as long as the process.
 */
const char *mc_datadir_get(mc_data_t what);

/*
 * The data folder itself ("" when none was found), and in *how (when not
 * NULL) how it was found. The string lives as long as the process.
 */
const char *mc_datadir_root(mc_datadir_how_t *how);

/* "MCPCHECK_DATA_DIR", "the executable's prefix" or "the current directory". */
const char *mc_datadir_how_name(mc_datadir_how_t how);

#endif /* MC_CORE_DATADIR_H */
