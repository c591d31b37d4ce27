/*
 * support.h - what the campaign tests share: JSON text that must parse,
 * the two tool filters, the bundled schemas, and an executor made from the
 * options every test starts from. Each helper fails the running test
 * instead of returning an error.
 */
#ifndef MC_TESTS_CAMPAIGN_SUPPORT_H
#define MC_TESTS_CAMPAIGN_SUPPORT_H

#include <json-c/json.h>

#include "campaign/exec.h"
#include "schema/registry.h"

/* s parsed (a new reference); the test fails when it is not JSON. */
json_object *ct_parse(const char *s);

/* Tool filters for mc_exec_opts_t.allowed: every tool, or none. */
int ct_allow_all(void *ctx, const char *tool);
int ct_deny(void *ctx, const char *tool);

/* o zeroed, then set to run argv (borrowed) at protocol 2025-06-18. */
void ct_opts(mc_exec_opts_t *o, char *const *argv);

/* An executor made from o; the test fails when it cannot be made. */
mc_exec_t *ct_exec(const mc_exec_opts_t *o);

/* The bundled schemas with 2025-06-18 loaded (free with
 * mc_registry_free); the test fails when they cannot be. */
mc_registry_t *ct_registry(void);

#endif
