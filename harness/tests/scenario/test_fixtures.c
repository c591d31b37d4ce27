/* Unit tests for role kinds and URI template matching (scenario/fixtures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scenario/fixtures.h"
#include "scenario/instance.h"
#include "schema/validator.h"

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

/* Every schema below has a valid instance the generator must find; each
 * made instance is held against the schema by the validator. */
static const char *const schemas[] = {
    "{\"type\": \"object\", \"properties\": {\"username\": {\"type\": \"string\"}, "
    "\"email\": {\"type\": \"string\", \"format\": \"email\"}}, \"required\": [\"username\", "
    "\"email\"]}",
    "{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\", \"minimum\": 3, "
    "\"maximum\": 5}, \"x\": {\"type\": \"number\", \"exclusiveMinimum\": 10}, \"m\": "
    "{\"type\": \"integer\", \"multipleOf\": 7, \"minimum\": 8}}, \"required\": [\"n\", \"x\", \"m\"]}",
    "{\"type\": \"object\", \"properties\": {\"s\": {\"type\": \"string\", \"minLength\": 20}, "
    "\"t\": {\"type\": \"string\", \"maxLength\": 3}, \"u\": {\"type\": \"string\", \"format\": "
    "\"uri\"}, \"d\": {\"type\": \"string\", \"format\": \"date-time\"}}, \"required\": [\"s\", "
    "\"t\", \"u\", \"d\"]}",
    "{\"type\": \"object\", \"properties\": {\"color\": {\"type\": \"string\", \"enum\": "
    "[\"red\", \"green\"]}, \"size\": {\"type\": \"string\", \"oneOf\": [{\"const\": \"s\", "
    "\"title\": \"Small\"}, {\"const\": \"l\", \"title\": \"Large\"}]}}, \"required\": [\"color\", "
    "\"size\"]}",
    "{\"type\": \"object\", \"properties\": {\"tags\": {\"type\": \"array\", \"minItems\": 2, "
    "\"uniqueItems\": true, \"items\": {\"type\": \"string\", \"enum\": [\"a\", \"b\", \"c\"]}}, "
    "\"multi\": {\"type\": \"array\", \"minItems\": 1, \"items\": {\"anyOf\": [{\"const\": \"x\"}, "
    "{\"const\": \"y\"}]}}}, \"required\": [\"tags\", \"multi\"]}",
    "{\"type\": \"object\", \"properties\": {\"ok\": {\"type\": \"boolean\", \"default\": false}, "
    "\"name\": {\"type\": \"string\", \"default\": \"Jane\"}}, \"required\": []}",
    "{\"$defs\": {\"p\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}, "
    "\"required\": [\"a\"]}}, \"type\": \"object\", \"properties\": {\"p\": {\"$ref\": "
    "\"#/$defs/p\"}}, \"required\": [\"p\"]}",
    "{\"allOf\": [{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}, "
    "\"required\": [\"a\"]}, {\"properties\": {\"b\": {\"type\": \"integer\"}}, \"required\": "
    "[\"b\"]}]}",
    "{\"type\": [\"null\", \"integer\"], \"maximum\": -5}",
    "{\"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}",
    "{\"type\": \"object\"}",
    "{\"const\": null}",
};

static void test_instances_valid(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
        json_object *doc = json_tokener_parse(schemas[i]), *inst = NULL;
        mc_schema_t *cs = NULL;
        mc_errbuf_t eb;

        assert_non_null(doc);
        mc_errbuf_clear(&eb);
        assert_int_equal(mc_schema_compile(doc, NULL, &cs, &eb), MC_OK);
        assert_int_equal(mc_instance_make(doc, &inst), MC_OK);
        if (!mc_schema_is_valid(cs, mc_schema_root(cs), inst))
            fail_msg("schema %zu: made %s", i,
                     inst ? json_object_to_json_string(inst) : "null");
        json_object_put(inst);
        mc_schema_free(cs);
        json_object_put(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_role_kinds),
        cmocka_unit_test(test_template_match),
        cmocka_unit_test(test_instances_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
