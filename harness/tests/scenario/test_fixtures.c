/* Unit tests for role kinds and URI template matching (scenario/fixtures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scenario/fixtures.h"

static void test_role_kinds(void **state)
{
    char base[128];

    (void)state;
    assert_int_equal(mc_role_kind("tool.with_progress", base, sizeof(base)), MC_ROLE_TOOL);
    assert_string_equal(base, "tool.with_progress");
    assert_int_equal(mc_role_kind("prompt.simple", base, sizeof(base)), MC_ROLE_PROMPT);
    assert_int_equal(mc_role_kind("prompt.with_arguments.args", base, sizeof(base)),
                     MC_ROLE_DATA);
    assert_string_equal(base, "prompt.with_arguments");
    assert_int_equal(mc_role_kind("resource.template", base, sizeof(base)), MC_ROLE_TEMPLATE);
    assert_int_equal(mc_role_kind("resource.template.variable", base, sizeof(base)),
                     MC_ROLE_DATA);
    assert_string_equal(base, "resource.template");
    assert_int_equal(mc_role_kind("resource.static_text", base, sizeof(base)), MC_ROLE_RESOURCE);
    assert_int_equal(mc_role_kind("pagination.resources_multi_page", base, sizeof(base)),
                     MC_ROLE_MULTI_PAGE);
    assert_int_equal(mc_role_kind("tools.safe", base, sizeof(base)), MC_ROLE_SAFE_TOOLS);
    assert_int_equal(mc_role_kind("anything", base, sizeof(base)), MC_ROLE_DATA);
}

static void test_template_match(void **state)
{
    (void)state;
    assert_true(mc_uri_template_matches("test://template/{id}/data", "test://template/42/data"));
    assert_false(mc_uri_template_matches("test://template/{id}/data", "test://template//data"));
    assert_false(mc_uri_template_matches("test://template/{id}/data", "test://template/4/2/data"));
    assert_false(mc_uri_template_matches("test://template/{id}/data", "test://template/42/datax"));
    assert_true(mc_uri_template_matches("file:///{a}/{b}", "file:///x/y"));
    assert_false(mc_uri_template_matches("file:///{a}/{b}", "file:///x/"));
    assert_true(mc_uri_template_matches("plain://x", "plain://x"));
    assert_false(mc_uri_template_matches("bad://{x", "bad://{x"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_role_kinds),
        cmocka_unit_test(test_template_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
