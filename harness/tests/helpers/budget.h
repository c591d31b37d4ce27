/*
 * budget.h - the C tests' share of harness/tests/testenv.py: every
 * wall-clock bound of a test is a budget for a hang, stretched by
 * MCPCHECK_TEST_TIMEOUT_MULTIPLIER (a positive number, default 1) on a slow
 * or loaded machine.
 */
#ifndef MC_TESTS_BUDGET_H
#define MC_TESTS_BUDGET_H

#include <limits.h>
#include <stdlib.h>

/* ms stretched by the multiplier; an unset or bad multiplier counts as 1. */
static inline int mc_test_budget_ms(int ms)
{
    const char *raw = getenv("MCPCHECK_TEST_TIMEOUT_MULTIPLIER");
    double m = raw != NULL && *raw != '\0' ? strtod(raw, NULL) : 1.0;
    double v;

    if (!(m > 0.0))
        m = 1.0;
    v = (double)ms * m;
    return v >= (double)INT_MAX ? INT_MAX : (int)v;
}

#endif /* MC_TESTS_BUDGET_H */
