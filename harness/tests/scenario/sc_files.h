/*
 * sc_files.h - scenario files written to a temporary folder and loaded
 * (test-local).
 *
 * sc_dir_make() creates the folder and its "area" subfolder; sc_load()
 * writes one scenario as area/NAME.jsonc and loads it, failing the test on
 * any lint problem; sc_dir_remove() deletes what was written.
 */
#ifndef MC_TESTS_SCENARIO_SC_FILES_H
#define MC_TESTS_SCENARIO_SC_FILES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scenario/scenario.h"

static char sc_dir[] = "/tmp/mc-scenario-run-XXXXXX";
static char sc_written[16][64];
static size_t sc_n_written;

static inline void sc_dir_make(void)
{
    char area[sizeof(sc_dir) + 8];

    assert_non_null(mkdtemp(sc_dir));
    snprintf(area, sizeof(area), "%s/area", sc_dir);
    assert_int_equal(mkdir(area, 0700), 0);
}

static inline void sc_dir_remove(void)
{
    char path[1200];
    size_t i;

    for (i = 0; i < sc_n_written; i++) {
        snprintf(path, sizeof(path), "%s/area/%s.jsonc", sc_dir, sc_written[i]);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/area", sc_dir);
    rmdir(path);
    rmdir(sc_dir);
}

/* Writes text as area/name.jsonc and loads it into *sc (MC_OK, no problem). */
static inline void sc_load(const char *name, const char *text, mc_scenario_t *sc)
{
    char path[1200];
    char *problems = NULL;
    mc_errbuf_t eb;
    FILE *f;
    size_t i;

    snprintf(path, sizeof(path), "%s/area/%s.jsonc", sc_dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    for (i = 0; i < sc_n_written && strcmp(sc_written[i], name) != 0; i++)
        ;
    if (i == sc_n_written) {
        assert_true(sc_n_written < sizeof(sc_written) / sizeof(sc_written[0]));
        snprintf(sc_written[sc_n_written++], sizeof(sc_written[0]), "%s", name);
    }
    mc_errbuf_clear(&eb);
    if (mc_scenario_load(path, sc_dir, sc, &problems, &eb) != MC_OK)
        fail_msg("%s does not load: %s %s", name, eb.msg, problems != NULL ? problems : "");
    free(problems);
}

/* A one-check scenario head: the check area/NAME/held, level MUST. */
#define SC_HEAD(check)                                                                            \
    "{\"title\": \"t\", \"spec\": [{\"check\": \"" check "\", \"level\": \"MUST\", "             \
    "\"quote\": \"Something MUST hold.\", \"refs\": {\"2025-06-18\": \"basic#responses\", "    \
    "\"2025-11-25\": \"basic#responses\"}}], "

#endif /* MC_TESTS_SCENARIO_SC_FILES_H */
