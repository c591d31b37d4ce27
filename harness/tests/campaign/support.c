/*
 * support.c - what the campaign tests share (see support.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

json_object *ct_parse(const char *s)
{
    json_object *v = json_tokener_parse(s);

    assert_non_null(v);
    return v;
}

int ct_allow_all(void *ctx, const char *tool)
{
    (void)ctx;
    (void)tool;
    return 1;
}

int ct_deny(void *ctx, const char *tool)
{
    (void)ctx;
    (void)tool;
    return 0;
}

void ct_opts(mc_exec_opts_t *o, char *const *argv)
{
    memset(o, 0, sizeof(*o));
    o->argv = argv;
    o->version = "2025-06-18";
}

mc_exec_t *ct_exec(const mc_exec_opts_t *o)
{
    mc_exec_t *x = NULL;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_new(&x, o, &eb), MC_OK);
    return x;
}

mc_registry_t *ct_registry(void)
{
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_registry_new(&reg, NULL, MC_REGISTRY_BUNDLED, &eb), MC_OK);
    assert_int_equal(mc_registry_load(reg, "2025-06-18", &eb), MC_OK);
    return reg;
}
