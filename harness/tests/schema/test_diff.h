/*
 * test_diff.h - the base messages of the differential schema test
 * (test_diff.c): one valid message per kind the harness meets, with the
 * versions that have it.
 */
#ifndef MC_TEST_DIFF_H
#define MC_TEST_DIFF_H

#include <stddef.h>

typedef struct base {
    const char *name;
    const char *since;    /* first version that has it */
    const char *until;    /* last version that has it (NULL: every later one) */
    const char *answered; /* responses: the method answered */
    const char *json;
} base_t;

/* The corpus (test_diff_bases.c), every entry valid with both schema sets. */
extern const base_t mc_test_diff_bases[];
extern const size_t mc_test_diff_n_bases;

#endif /* MC_TEST_DIFF_H */
