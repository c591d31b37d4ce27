/*
 * schema_compile_fuzzer.c - arbitrary JSON Schema documents: compile, then
 * validate instances against them.
 *
 * Input: line 1 is a schema document (one line of JSON); each following line
 * (up to 8) is an instance. Compilation uses no resolver, so references to
 * other documents fail cleanly. Every named definition of the document is
 * looked up, and the first one is marked with the integer leniency (the
 * registry's only mutation of a compiled schema) before validation.
 *
 * Oracle: the sanitizers; a failed compilation returns a documented code
 * with a message; a compiled schema has a root; every validation passes
 * mc_fuzz_check_validation() (the fast and the collecting passes agree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/jsonrpc.h"
#include "schema_check.h"

#define MAX_SCHEMA_INPUT (16u * 1024u)
#define MAX_INSTANCES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int documented(int rc)
{
    return rc == MC_ESCHEMA || rc == MC_ENOTFOUND || rc == MC_EUNSUPPORTED || rc == MC_EFULL ||
           rc == MC_ENOMEM || rc == MC_EINVAL;
}

/* Looks up each definition of the document; marks the first one lenient. */
static void touch_definitions(mc_schema_t *s, json_object *doc)
{
    json_object *defs;
    int first = 1;

    if (!json_object_is_type(doc, json_type_object))
        return;
    if (!json_object_object_get_ex(doc, "$defs", &defs) &&
        !json_object_object_get_ex(doc, "definitions", &defs))
        return;
    if (!json_object_is_type(defs, json_type_object))
        return;
    json_object_object_foreach(defs, name, sub)
    {
        (void)sub;
        (void)mc_schema_definition(s, name);
        (void)mc_schema_definition_json(s, name);
        if (first) {
            (void)mc_schema_mark_lenient_integer(s, name, "*", "fuzz leniency");
            first = 0;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_object *doc = NULL;
    mc_schema_t *s = NULL;
    mc_errbuf_t eb;
    const char *line;
    size_t len;
    int rc, k;

    if (size > MAX_SCHEMA_INPUT)
        return -1;
    if (!mc_fuzz_next_line(&data, &size, &line, &len))
        return 0;
    mc_errbuf_clear(&eb);
    if (mc_json_parse(line, len, 0, &doc, &eb) != MC_OK)
        return 0;
    mc_errbuf_clear(&eb);
    rc = mc_schema_compile(doc, NULL, &s, &eb);
    if (rc != MC_OK) {
        if (!documented(rc) || !eb.set) {
            fprintf(stderr, "compile: %s (%s)\n", eb.msg, mc_err_name(rc));
            mc_fuzz_fail("schema compilation failed with an undocumented code or no message",
                         line, len);
        }
        if (s != NULL)
            mc_fuzz_fail("a failed compilation changed its output", line, len);
        json_object_put(doc);
        return 0;
    }
    if (s == NULL || mc_schema_root(s) == NULL)
        mc_fuzz_fail("a compiled schema without a root", line, len);
    touch_definitions(s, doc);
    /* The compiled schema holds its own reference: drop ours now. */
    json_object_put(doc);
    for (k = 0; k < MAX_INSTANCES && mc_fuzz_next_line(&data, &size, &line, &len); k++) {
        json_object *inst = NULL;
        mc_errbuf_clear(&eb);
        if (mc_json_parse(line, len, 0, &inst, &eb) != MC_OK)
            continue;
        (void)mc_fuzz_check_validation(s, mc_schema_root(s), inst, "root");
        json_object_put(inst);
    }
    mc_schema_free(s);
    return 0;
}
