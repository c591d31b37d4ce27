/*
 * schema_instance_fuzzer.c - JSON instances against the MCP schemas.
 *
 * Input: line 1 is a JSON string naming a definition ("ListToolsResult") or
 * a method ("tools/list"); each following line (up to 8) is an instance.
 * Every instance is validated against the named definition of every bundled
 * protocol version that has it, and as a whole message through the registry
 * (the name standing for the method a response answers), as `mcpcheck
 * validate` and the wire checks do.
 *
 * Oracle: the sanitizers, and mc_fuzz_check_validation() on each definition
 * check (the fast and the collecting pass agree; the report keeps its
 * contract). The registry's verdict itself is free: instances are arbitrary.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/jsonrpc.h"
#include "schema_check.h"
#include "core/version.h"

#define MAX_INSTANCES 8

static mc_registry_t *g_reg; /* read-only after LLVMFuzzerInitialize */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    g_reg = mc_fuzz_registry(argv != NULL && *argv != NULL ? (*argv)[0] : NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *versions[MC_V_COUNT + 1];
    size_t n_versions = mc_version_list(0, versions, MC_V_COUNT + 1);
    json_object *name_v = NULL;
    const char *line, *name = NULL;
    size_t len, v;
    int k;

    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    if (g_reg == NULL)
        LLVMFuzzerInitialize(NULL, NULL);
    if (!mc_fuzz_next_line(&data, &size, &line, &len))
        return 0;
    name_v = mc_fuzz_parse(line, len);
    if (json_object_is_type(name_v, json_type_string))
        name = json_object_get_string(name_v);
    for (k = 0; k < MAX_INSTANCES && mc_fuzz_next_line(&data, &size, &line, &len); k++) {
        json_object *inst = NULL;
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        /* The harness reads peers' messages strictly; so does this target. */
        if (mc_json_parse(line, len, 0, &inst, &eb) != MC_OK)
            continue;
        for (v = 0; v < n_versions; v++) {
            const mc_schema_t *s = mc_registry_schema(g_reg, versions[v]);
            const mc_schema_node_t *node;
            mc_schema_report_t *rep;
            if (s == NULL)
                continue;
            node = name != NULL ? mc_schema_definition(s, name) : NULL;
            if (node != NULL)
                (void)mc_fuzz_check_validation(s, node, inst, name);
            rep = malloc(sizeof(*rep));
            if (rep == NULL)
                continue;
            mc_schema_report_clear(rep);
            mc_errbuf_clear(&eb);
            (void)mc_registry_validate_message(g_reg, versions[v], inst, name, rep, &eb);
            free(rep);
        }
        json_object_put(inst);
    }
    json_object_put(name_v);
    return 0;
}
