/*
 * test_diff.c - differential test: the bundled MCP schemas against the
 * official ones.
 *
 * usage: test_schema_diff BUNDLED_DIR OFFICIAL_DIR [--examples VERSION DIR]
 *        [--traces VERSION DIR]... [VERSION...]
 *
 * Every base message below must be valid with both schema sets. Then each
 * base message is mutated one change at a time — every member dropped,
 * every value replaced by a value of another type, every string replaced by
 * a bogus word, by a string with a space and a brace and by an https URL
 * (bad enum, const and format values, other URI schemes), every number replaced by -1, 1.5 and 1e300 (out of range,
 * not an integer), every object given an unknown member, every array
 * emptied and given an extra {} item — and the verdicts (valid or invalid)
 * of the two schema sets must agree. Both sides apply the registry's
 * documented leniencies, so those agree by construction. A message the
 * bundled schema rejects only at nodes marked with a "$comment" starting
 * "mcpcheck-deliberate:" (the documented tightenings of
 * harness/schemas/README.md) is counted apart and printed, not failed. Any
 * other difference is printed with the message, the change, and each
 * side's first finding, and fails the test.
 * With --examples VERSION DIR, the official example messages (DIR/<Definition>/
 * <name>.json) are bases too, each against its definition. With --traces
 * VERSION DIR, every message of the JSONL traces in DIR (as `mcpcheck run`
 * writes them) is validated with both sets and the verdicts must agree.
 * Without a VERSION and with neither option, every published version runs.
 * Exit 0 when all agree, 1 otherwise, also when OFFICIAL_DIR or DIR is
 * absent (the spec is expected at ../shared/spec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "core/version.h"
#include "schema/registry.h"

typedef struct base {
    const char *name;
    const char *since;    /* first version that has it */
    const char *until;    /* last version that has it (NULL: every later one) */
    const char *answered; /* responses: the method answered */
    const char *json;
} base_t;

/* The corpus: one valid message per kind the harness meets. */
static const base_t bases[] = {
    {"initialize-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
     "\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
     "\"elicitation\":{}},\"clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"}}}"},
    {"initialize-result", "2024-11-05", "2025-11-25", "initialize",
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\","
     "\"capabilities\":{\"logging\":{},\"completions\":{},\"prompts\":{\"listChanged\":true},"
     "\"resources\":{\"subscribe\":true,\"listChanged\":true},\"tools\":{\"listChanged\":false}},"
     "\"serverInfo\":{\"name\":\"ref\",\"title\":\"Reference\",\"version\":\"1.0\"},"
     "\"instructions\":\"Use the tools.\"}}"},
    {"initialized", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"},
    {"ping-request", "2024-11-05", "2025-11-25", NULL, "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}"},
    {"ping-result", "2024-11-05", "2025-11-25", "ping", "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"result\":{}}"},
    {"resources-list-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\",\"params\":{\"cursor\":\"c1\"}}"},
    {"resources-list-result", "2024-11-05", "2025-11-25", "resources/list",
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resources\":[{\"uri\":\"test://static-text\","
     "\"name\":\"static-text\",\"title\":\"Static text\",\"description\":\"A text resource\","
     "\"mimeType\":\"text/plain\",\"size\":12,\"annotations\":{\"audience\":[\"user\","
     "\"assistant\"],\"priority\":0.5,\"lastModified\":\"2025-01-12T15:00:58Z\"}},"
     "{\"uri\":\"file:///tmp/a.bin\",\"name\":\"a.bin\"}],\"nextCursor\":\"c2\"}}"},
    {"resource-templates-result", "2024-11-05", "2025-11-25", "resources/templates/list",
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resourceTemplates\":[{\"uriTemplate\":"
     "\"test://template/{id}/data\",\"name\":\"template\",\"mimeType\":\"application/json\","
     "\"annotations\":{\"priority\":1}}]}}"},
    {"resources-read-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":"
     "\"test://static-text\"}}"},
    {"resources-read-result", "2024-11-05", "2025-11-25", "resources/read",
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"contents\":[{\"uri\":\"test://static-text\","
     "\"mimeType\":\"text/plain\",\"text\":\"hello\"},{\"uri\":\"test://static-binary\","
     "\"mimeType\":\"image/png\",\"blob\":\"iVBORw0KGgo=\"}]}}"},
    {"resources-subscribe", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/subscribe\",\"params\":{\"uri\":"
     "\"test://watched-resource\"}}"},
    {"resources-updated", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":"
     "\"test://watched-resource\"}}"},
    {"resources-list-changed", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}"},
    {"prompts-list-result", "2024-11-05", "2025-11-25", "prompts/list",
     "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"prompts\":[{\"name\":"
     "\"test_prompt_with_arguments\",\"description\":\"With arguments\",\"arguments\":"
     "[{\"name\":\"arg1\",\"description\":\"First\",\"required\":true},{\"name\":\"arg2\"}]}],"
     "\"nextCursor\":\"n\"}}"},
    {"prompts-get-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":"
     "\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\",\"arg2\":\"b\"}}}"},
    {"prompts-get-result", "2025-06-18", "2025-11-25", "prompts/get",
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"description\":\"d\",\"messages\":["
     "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\",\"annotations\":"
     "{\"audience\":[\"user\"]}}},"
     "{\"role\":\"assistant\",\"content\":{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\","
     "\"mimeType\":\"image/png\"}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"audio\",\"data\":\"UklGRg==\",\"mimeType\":"
     "\"audio/wav\"}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":"
     "\"test://static-text\",\"mimeType\":\"text/plain\",\"text\":\"t\"}}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"resource_link\",\"uri\":\"test://static-text\","
     "\"name\":\"static-text\",\"mimeType\":\"text/plain\"}}]}}"},
    {"tools-list-result", "2024-11-05", "2025-11-25", "tools/list",
     "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"tools\":[{\"name\":\"test_simple_text\","
     "\"title\":\"Simple\",\"description\":\"Returns text\",\"inputSchema\":{\"type\":\"object\","
     "\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]},\"outputSchema\":"
     "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}},\"annotations\":"
     "{\"title\":\"S\",\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,"
     "\"openWorldHint\":false}}]}}"},
    {"tools-call-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":"
     "\"test_tool_with_progress\",\"arguments\":{\"steps\":3},\"_meta\":{\"progressToken\":"
     "\"tok\"}}}"},
    {"tools-call-result", "2024-11-05", "2025-11-25", "tools/call",
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"},"
     "{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\"}],"
     "\"structuredContent\":{\"n\":1},\"isError\":false}}"},
    {"progress", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
     "\"tok\",\"progress\":1,\"total\":3,\"message\":\"step 1\"}}"},
    {"cancelled", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9,"
     "\"reason\":\"user\"}}"},
    {"set-level", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"logging/setLevel\",\"params\":{\"level\":"
     "\"warning\"}}"},
    {"log-message", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\","
     "\"logger\":\"db\",\"data\":{\"error\":\"down\"}}}"},
    {"complete-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"completion/complete\",\"params\":{\"ref\":"
     "{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":{\"name\":"
     "\"arg1\",\"value\":\"a\"},\"context\":{\"arguments\":{\"arg2\":\"b\"}}}}"},
    {"complete-result", "2024-11-05", "2025-11-25", "completion/complete",
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":{\"completion\":{\"values\":[\"a1\",\"a2\"],"
     "\"total\":2,\"hasMore\":false}}}"},
    {"elicit-request", "2025-06-18", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"elicitation/create\",\"params\":{\"message\":"
     "\"Who?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":"
     "\"string\",\"title\":\"Name\",\"minLength\":1,\"maxLength\":50,\"format\":\"email\"},"
     "\"age\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":150},\"ok\":{\"type\":\"boolean\","
     "\"default\":false},\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"blue\"],"
     "\"enumNames\":[\"Red\",\"Blue\"]}},\"required\":[\"name\"]}}}"},
    {"elicit-result", "2025-06-18", "2025-11-25", "elicitation/create",
     "{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{\"action\":\"accept\",\"content\":{\"name\":"
     "\"a@b.c\",\"age\":30,\"ok\":true}}}"},
    {"sampling-request", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"sampling/createMessage\",\"params\":"
     "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],"
     "\"modelPreferences\":{\"hints\":[{\"name\":\"claude\"}],\"costPriority\":0.3,"
     "\"speedPriority\":0.5,\"intelligencePriority\":0.9},\"systemPrompt\":\"s\","
     "\"includeContext\":\"thisServer\",\"temperature\":0.7,\"maxTokens\":100,"
     "\"stopSequences\":[\"x\"]}}"},
    {"sampling-result", "2024-11-05", "2025-11-25", "sampling/createMessage",
     "{\"jsonrpc\":\"2.0\",\"id\":13,\"result\":{\"role\":\"assistant\",\"content\":{\"type\":"
     "\"text\",\"text\":\"hello\"},\"model\":\"m\",\"stopReason\":\"endTurn\"}}"},
    {"roots-list-result", "2024-11-05", "2025-11-25", "roots/list",
     "{\"jsonrpc\":\"2.0\",\"id\":14,\"result\":{\"roots\":[{\"uri\":\"file:///home/u/p\","
     "\"name\":\"p\"}]}}"},
    {"error-response", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":15,\"error\":{\"code\":-32002,\"message\":\"Resource not "
     "found\",\"data\":{\"uri\":\"test://nope\"}}}"},
    {"tools-list-changed", "2024-11-05", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"},
    {"elicit-url-request", "2025-11-25", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"elicitation/create\",\"params\":{\"mode\":"
     "\"url\",\"message\":\"Sign in\",\"url\":\"https://example.com/auth\",\"elicitationId\":"
     "\"e-1\"}}"},
    {"tasks-get-result", "2025-11-25", "2025-11-25", "tasks/get",
     "{\"jsonrpc\":\"2.0\",\"id\":17,\"result\":{\"taskId\":\"t1\",\"status\":\"working\","
     "\"createdAt\":\"2025-11-25T10:00:00Z\",\"lastUpdatedAt\":\"2025-11-25T10:00:01Z\","
     "\"ttl\":60000,\"pollInterval\":500}}"},
    {"tool-with-icons", "2025-11-25", "2025-11-25", "tools/list",
     "{\"jsonrpc\":\"2.0\",\"id\":18,\"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":"
     "{\"type\":\"object\"},\"icons\":[{\"src\":\"https://example.com/i.png\",\"mimeType\":"
     "\"image/png\",\"sizes\":[\"48x48\"]}]}]}}"},
    {"prompts-get-result-text-image-resource", "2024-11-05", "2025-03-26", "prompts/get",
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"description\":\"d\",\"messages\":["
     "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}},"
     "{\"role\":\"assistant\",\"content\":{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\","
     "\"mimeType\":\"image/png\"}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":"
     "\"test://static-text\",\"mimeType\":\"text/plain\",\"text\":\"t\"}}}]}}"},
    {"tools-call-audio", "2025-03-26", "2025-11-25", "tools/call",
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[{\"type\":\"audio\",\"data\":"
     "\"UklGRg==\",\"mimeType\":\"audio/wav\",\"annotations\":{\"audience\":[\"user\"],"
     "\"priority\":0.2}}]}}"},
    {"discover-request", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"}}}"},
    {"discover-result", "2026-07-28", NULL, "server/discover",
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"supportedVersions\":"
     "[\"2025-11-25\",\"2026-07-28\"],\"capabilities\":{\"tools\":{\"listChanged\":true},"
     "\"resources\":{\"subscribe\":true,\"listChanged\":true},\"prompts\":{},\"logging\":{},"
     "\"completions\":{},\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}},"
     "\"instructions\":\"hi\",\"ttlMs\":60000,\"cacheScope\":\"public\",\"_meta\":"
     "{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"ref\",\"version\":\"1.0\"}}}}"},
    {"listen-request", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"subscriptions/listen\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"},"
     "\"notifications\":{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"test://w\"]}}}"},
    {"listen-acknowledged", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":"
     "{\"notifications\":{\"toolsListChanged\":true},\"_meta\":"
     "{\"io.modelcontextprotocol/subscriptionId\":2}}}"},
    {"listen-list-changed", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{\"_meta\":"
     "{\"io.modelcontextprotocol/subscriptionId\":2}}}"},
    {"listen-result", "2026-07-28", NULL, "subscriptions/listen",
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"_meta\":"
     "{\"io.modelcontextprotocol/subscriptionId\":2}}}"},
    {"tools-list-request-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"},\"cursor\":\"c\"}}"},
    {"tools-list-result-2026", "2026-07-28", NULL, "tools/list",
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\",\"ttlMs\":0,"
     "\"cacheScope\":\"private\",\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\","
     "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"unevaluatedProperties\":false},"
     "\"outputSchema\":{\"type\":\"array\"},\"annotations\":{\"readOnlyHint\":true}}],"
     "\"nextCursor\":\"n\"}}"},
    {"tools-call-request-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"},\"name\":\"t\","
     "\"arguments\":{\"a\":1}}}"},
    {"tools-call-input-required", "2026-07-28", NULL, "tools/call",
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\",\"requestState\":"
     "\"s1\",\"inputRequests\":{\"e\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":"
     "\"form\",\"message\":\"Name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":"
     "{\"name\":{\"type\":\"string\"}}}}},\"u\":{\"method\":\"elicitation/create\",\"params\":"
     "{\"mode\":\"url\",\"message\":\"Sign in\",\"url\":\"https://example.com/a\"}},\"s\":{\"method\":"
     "\"sampling/createMessage\",\"params\":{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":"
     "\"text\",\"text\":\"hi\"}}],\"maxTokens\":10}},\"r\":{\"method\":\"roots/list\"}}}}"},
    {"tools-call-retry", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"},\"name\":\"t\","
     "\"requestState\":\"s1\",\"inputResponses\":{\"e\":{\"action\":\"accept\",\"content\":"
     "{\"name\":\"a\"}},\"s\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"x\"},"
     "\"model\":\"m\"},\"r\":{\"roots\":[{\"uri\":\"file:///tmp\"}]}}}}"},
    {"tools-call-result-2026", "2026-07-28", NULL, "tools/call",
     "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
     "\"text\",\"text\":\"ok\"}],\"structuredContent\":[1,\"two\"],\"isError\":false}}"},
    {"resources-read-result-2026", "2026-07-28", NULL, "resources/read",
     "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"resultType\":\"complete\",\"ttlMs\":1000,"
     "\"cacheScope\":\"public\",\"contents\":[{\"uri\":\"test://static-text\",\"mimeType\":"
     "\"text/plain\",\"text\":\"hello\"}]}}"},
    {"prompts-get-request-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"},\"io.modelcontextprotocol/logLevel\":\"info\"},\"name\":\"p\","
     "\"arguments\":{\"a\":\"b\"}}}"},
    {"complete-result-2026", "2026-07-28", NULL, "completion/complete",
     "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"resultType\":\"complete\",\"completion\":"
     "{\"values\":[\"a\"],\"total\":1,\"hasMore\":false}}}"},
    {"log-message-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\","
     "\"data\":\"x\"}}"},
    {"progress-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
     "\"t\",\"progress\":0.5,\"total\":1,\"message\":\"half\"}}"},
    {"cancelled-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":4,"
     "\"reason\":\"r\"}}"},
    {"unsupported-version", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol "
     "version\",\"data\":{\"supported\":[\"2026-07-28\"],\"requested\":\"1999-01-01\"}}}"},
    {"missing-capability", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":10,\"error\":{\"code\":-32021,\"message\":\"Missing capability\","
     "\"data\":{\"requiredCapabilities\":{\"elicitation\":{\"form\":{}}}}}}"},
    {"not-found-2026", "2026-07-28", NULL, NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"error\":{\"code\":-32602,\"message\":\"Resource not found\","
     "\"data\":{\"uri\":\"test://nope\"}}}"},
};

typedef struct ctx {
    mc_registry_t *bundled, *official;
    const char *version;
    const base_t *base;
    const char *def; /* examples: validate against this definition */
    json_object *root;
    int compared, differ, deliberate;
    mc_schema_report_t rb, ro;
} ctx_t;

static int version_in(const char *v, const base_t *b)
{
    return mc_version_cmp(v, b->since) >= 0 && (b->until == NULL || mc_version_cmp(v, b->until) <= 0);
}

static const char *first_finding(const mc_schema_report_t *r)
{
    size_t i;

    for (i = 0; i < r->n_entries; i++)
        if (r->entries[i].severity == MC_SCHEMA_ERROR)
            return r->entries[i].message;
    return "(no error)";
}

/*
 * True when the schema node at a finding's schema location (the keyword's
 * parent) carries a "$comment" starting with "mcpcheck-deliberate:", the
 * marker harness/schemas/README.md puts on each deliberate tightening.
 */
static int deliberate_at(json_object *doc, const char *schema_path)
{
    char tok[256];
    const char *p = schema_path;
    json_object *node = doc, *last = NULL, *comment;

    if (p[0] != '#')
        return 0;
    p++;
    while (*p == '/') {
        size_t o = 0;
        p++;
        while (*p != '\0' && *p != '/' && o + 1 < sizeof(tok)) {
            char ch = *p++;
            if (ch == '~' && (*p == '0' || *p == '1'))
                ch = *p++ == '0' ? '~' : '/';
            tok[o++] = ch;
        }
        tok[o] = '\0';
        last = node;
        if (json_object_is_type(node, json_type_object)) {
            if (!json_object_object_get_ex(node, tok, &node))
                return 0;
        } else if (json_object_is_type(node, json_type_array)) {
            node = json_object_array_get_idx(node, (size_t)strtoul(tok, NULL, 10));
        } else {
            return 0;
        }
    }
    /* The path ends in a keyword: its parent is the schema node. */
    return last != NULL && json_object_object_get_ex(last, "$comment", &comment) &&
           strncmp(json_object_get_string(comment), "mcpcheck-deliberate:", 20) == 0;
}

/* True when every error of the report is at a deliberate tightening. */
static int all_deliberate(const ctx_t *c, const mc_schema_report_t *r)
{
    json_object *doc = mc_schema_document(mc_registry_schema(c->bundled, c->version));
    size_t i, errors = 0;

    for (i = 0; i < r->n_entries; i++) {
        if (r->entries[i].severity != MC_SCHEMA_ERROR)
            continue;
        errors++;
        if (!deliberate_at(doc, r->entries[i].schema_path))
            return 0;
    }
    return errors > 0 && !r->truncated;
}

/* Validates c->root with both sets (as a message, or against c->def);
 * returns the bundled verdict and sets *official. */
static int validate_both(ctx_t *c, int *official, mc_errbuf_t *eb)
{
    int vb;

    if (c->def != NULL) {
        vb = mc_registry_validate_def(c->bundled, c->version, c->def, c->root, &c->rb, eb) == MC_OK;
        *official =
            mc_registry_validate_def(c->official, c->version, c->def, c->root, &c->ro, eb) == MC_OK;
        return vb;
    }
    vb = mc_registry_validate_message(c->bundled, c->version, c->root, c->base->answered, &c->rb,
                                      eb) == MC_OK;
    *official = mc_registry_validate_message(c->official, c->version, c->root, c->base->answered,
                                             &c->ro, eb) == MC_OK;
    return vb;
}

/* Validates the current state of the message with both sets and compares. */
static void compare(ctx_t *c, const char *what)
{
    mc_errbuf_t eb;
    int vb, vo, vb_dummy;

    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&c->rb);
    mc_schema_report_clear(&c->ro);
    vb = validate_both(c, &vb_dummy, &eb);
    vo = vb_dummy;
    c->compared++;
    if (vb == vo)
        return;
    if (!vb && vo && all_deliberate(c, &c->rb)) {
        c->deliberate++;
        printf("deliberate %s %s: %s\n  bundled:  %s\n", c->version, c->base->name, what,
               first_finding(&c->rb));
        return;
    }
    c->differ++;
    printf("DIFF %s %s: %s\n  message:  %s\n  bundled:  %s%s%s\n  official: %s%s%s\n", c->version,
           c->base->name, what, json_object_to_json_string_ext(c->root, JSON_C_TO_STRING_PLAIN),
           vb ? "valid" : "invalid", vb ? "" : " - ", vb ? "" : first_finding(&c->rb),
           vo ? "valid" : "invalid", vo ? "" : " - ", vo ? "" : first_finding(&c->ro));
}

/* Fills out[] with replacement values for a value of v's type: new
 * references the caller owns (NULL stands for JSON null). Returns the count. */
static size_t replacements(json_object *v, json_object **out)
{
    size_t n = 0;
    enum json_type t = json_object_get_type(v);

    if (t != json_type_string)
        out[n++] = json_object_new_string("x");
    if (t != json_type_int && t != json_type_double)
        out[n++] = json_object_new_int(42);
    if (t != json_type_object)
        out[n++] = json_object_new_object();
    if (t != json_type_array)
        out[n++] = json_object_new_array();
    if (t != json_type_boolean)
        out[n++] = json_object_new_boolean(1);
    if (t != json_type_null)
        out[n++] = NULL;
    if (t == json_type_string) {
        out[n++] = json_object_new_string("__bogus__");
        out[n++] = json_object_new_string("a b{");
        out[n++] = json_object_new_string("https://example.com/x");
    }
    if (t == json_type_int || t == json_type_double) {
        out[n++] = json_object_new_int(-1);
        out[n++] = json_object_new_double(1.5);
        out[n++] = json_object_new_double(1e300);
    }
    return n;
}

static void walk(ctx_t *c, json_object *node, char *path, size_t plen);

static void mutate_member(ctx_t *c, json_object *obj, const char *key, char *path, size_t plen)
{
    json_object *old = NULL, *reps[16];
    char what[1400];
    size_t n, i;

    json_object_object_get_ex(obj, key, &old);
    json_object_get(old);
    snprintf(what, sizeof(what), "drop %s/%s", path, key);
    json_object_object_del(obj, key);
    compare(c, what);
    json_object_object_add(obj, key, json_object_get(old));

    n = replacements(old, reps);
    for (i = 0; i < n; i++) {
        snprintf(what, sizeof(what), "set %s/%s = %s", path, key,
                 json_object_to_json_string_ext(reps[i], JSON_C_TO_STRING_PLAIN));
        json_object_object_add(obj, key, reps[i]);
        compare(c, what);
    }
    json_object_object_add(obj, key, json_object_get(old));
    {
        size_t klen = strlen(key);
        if (plen + klen + 2 < 1024) {
            path[plen] = '/';
            memcpy(path + plen + 1, key, klen + 1);
            walk(c, old, path, plen + 1 + klen);
            path[plen] = '\0';
        }
    }
    json_object_put(old);
}

static void walk(ctx_t *c, json_object *node, char *path, size_t plen)
{
    char what[1400];

    if (json_object_is_type(node, json_type_object)) {
        char *keys[256];
        size_t n = 0, i;
        struct lh_entry *e;
        for (e = json_object_get_object(node)->head; e != NULL && n < 256; e = e->next)
            keys[n++] = strdup((const char *)lh_entry_k(e));
        for (i = 0; i < n; i++) {
            mutate_member(c, node, keys[i], path, plen);
            free(keys[i]);
        }
        snprintf(what, sizeof(what), "add unknown member %s/zzUnknown", path);
        json_object_object_add(node, "zzUnknown", json_object_new_int(1));
        compare(c, what);
        json_object_object_del(node, "zzUnknown");
    } else if (json_object_is_type(node, json_type_array)) {
        size_t n = json_object_array_length(node), i;
        json_object *saved[256];
        for (i = 0; i < n && i < 256; i++)
            saved[i] = json_object_get(json_object_array_get_idx(node, i));
        snprintf(what, sizeof(what), "empty array %s", path);
        json_object_array_del_idx(node, 0, n);
        compare(c, what);
        for (i = 0; i < n && i < 256; i++)
            json_object_array_add(node, json_object_get(saved[i]));
        snprintf(what, sizeof(what), "append {} to %s", path);
        json_object_array_add(node, json_object_new_object());
        compare(c, what);
        json_object_array_del_idx(node, n, 1);
        for (i = 0; i < n && i < 256; i++) {
            char ip[1100];
            int len = snprintf(ip, sizeof(ip), "%s/%zu", path, i);
            if (len > 0 && (size_t)len < 1024) {
                memcpy(path, ip, (size_t)len + 1);
                walk(c, saved[i], path, (size_t)len);
                path[plen] = '\0';
            }
            json_object_put(saved[i]);
        }
    }
}

/* Checks one base message (it must be valid on both sides), then every
 * one-change mutation of it. Returns 1 when the base itself was bad. */
static int run_base(ctx_t *c, const base_t *b, const char *label)
{
    char path[1024] = "";
    int before_cmp = c->compared, before_diff = c->differ;
    int ok_b, ok_o, bad = 0;
    mc_errbuf_t eb;

    c->base = b;
    if (c->root == NULL) {
        printf("FAIL %s: base message does not parse\n", label);
        return 1;
    }
    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&c->rb);
    mc_schema_report_clear(&c->ro);
    ok_b = validate_both(c, &ok_o, &eb);
    if (!ok_b || !ok_o) {
        printf("FAIL %s %s: base message invalid: bundled %s, official %s\n", c->version, label,
               ok_b ? "valid" : first_finding(&c->rb), ok_o ? "valid" : first_finding(&c->ro));
        bad = 1;
    }
    walk(c, c->root, path, 0);
    printf("%s %-40s %4d mutations, %d differ\n", c->version, label, c->compared - before_cmp,
           c->differ - before_diff);
    return bad;
}

/* Reads a whole small file into a new buffer (NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;

    if (f == NULL)
        return NULL;
    buf = malloc(1u << 20);
    if (buf == NULL) {
        fclose(f);
        return NULL;
    }
    n = fread(buf, 1, (1u << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names in dir (no dot files), sorted; *n gets the count. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t cap = 0;

    *n = 0;
    if (d == NULL)
        return NULL;
    for (e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **nv;
            cap = cap == 0 ? 64 : cap * 2;
            nv = realloc(v, cap * sizeof(*nv));
            if (nv == NULL)
                break;
            v = nv;
        }
        v[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (v != NULL)
        qsort(v, *n, sizeof(*v), cmp_str);
    return v;
}

/*
 * The official example messages, EXAMPLES/<Definition>/<name>.json: each
 * must be valid against its definition on both sides, and so must agree
 * every one-change mutation. Returns the number of bad examples; *count
 * gets how many were read.
 */
static int run_examples(ctx_t *c, const char *dir, size_t *count)
{
    size_t n_defs, i, j, n_files;
    char **defs = list_dir(dir, &n_defs), **files;
    int bad = 0;

    *count = 0;
    for (i = 0; i < n_defs; i++) {
        char sub[2048];
        snprintf(sub, sizeof(sub), "%s/%s", dir, defs[i]);
        files = list_dir(sub, &n_files);
        for (j = 0; j < n_files; j++) {
            char file[4096], label[512];
            char *text;
            base_t b = {NULL, NULL, NULL, NULL, NULL};
            snprintf(file, sizeof(file), "%s/%s", sub, files[j]);
            snprintf(label, sizeof(label), "%s/%s", defs[i], files[j]);
            text = slurp(file);
            c->root = text != NULL ? json_tokener_parse(text) : NULL;
            free(text);
            c->def = defs[i];
            b.name = label;
            if (mc_schema_definition(mc_registry_schema(c->official, c->version), defs[i]) == NULL) {
                printf("FAIL %s: the official schema has no definition %s\n", label, defs[i]);
                bad++;
            } else {
                bad += run_base(c, &b, label);
            }
            (*count)++;
            json_object_put(c->root);
            c->root = NULL;
            c->def = NULL;
            free(files[j]);
        }
        free(files);
        free(defs[i]);
    }
    free(defs);
    return bad;
}

/* One recorded request per id, to pair responses with their method. */
#define TRACE_PENDING 4096

/*
 * Every message of the traces in dir (the JSONL files `mcpcheck run` writes:
 * one record a line with the message text in "line") is validated with
 * both schema sets; the verdicts must agree. Responses are paired with the
 * request of the same id earlier in the same file. Returns the number of
 * messages; disagreements count in c->differ.
 */
static int run_traces(ctx_t *c, const char *dir)
{
    size_t n_files, i;
    char **files = list_dir(dir, &n_files);
    int messages = 0;

    for (i = 0; i < n_files; i++) {
        char path[4096], *text, *line, *next;
        char *ids[TRACE_PENDING] = {0}, *methods[TRACE_PENDING] = {0};
        size_t n_pending = 0, k;
        base_t b = {NULL, NULL, NULL, NULL, NULL};
        size_t len = strlen(files[i]);
        if (len < 7 || strcmp(files[i] + len - 6, ".jsonl") != 0) {
            free(files[i]);
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        text = slurp(path);
        for (line = text; line != NULL && *line != '\0'; line = next) {
            json_object *rec, *msg_line, *method, *id;
            next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            rec = json_tokener_parse(line);
            if (rec == NULL || !json_object_object_get_ex(rec, "line", &msg_line) ||
                !json_object_is_type(msg_line, json_type_string)) {
                json_object_put(rec);
                continue;
            }
            c->root = json_tokener_parse(json_object_get_string(msg_line));
            if (c->root == NULL || !json_object_is_type(c->root, json_type_object)) {
                json_object_put(c->root);
                json_object_put(rec);
                continue;
            }
            b.name = files[i];
            b.answered = NULL;
            c->base = &b;
            if (json_object_object_get_ex(c->root, "id", &id)) {
                const char *key = json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN);
                if (json_object_object_get_ex(c->root, "method", &method) &&
                    json_object_is_type(method, json_type_string)) {
                    if (n_pending < TRACE_PENDING) {
                        ids[n_pending] = strdup(key);
                        methods[n_pending++] = strdup(json_object_get_string(method));
                    }
                } else {
                    for (k = n_pending; k > 0; k--)
                        if (strcmp(ids[k - 1], key) == 0) {
                            b.answered = methods[k - 1];
                            break;
                        }
                }
            }
            compare(c, "message of the trace");
            messages++;
            json_object_put(c->root);
            c->root = NULL;
            json_object_put(rec);
        }
        for (k = 0; k < n_pending; k++) {
            free(ids[k]);
            free(methods[k]);
        }
        free(text);
        free(files[i]);
    }
    free(files);
    return messages;
}

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s BUNDLED_DIR OFFICIAL_DIR [--examples VERSION DIR] [--traces VERSION DIR]... "
            "[VERSION...]\n",
            prog);
}

int main(int argc, char **argv)
{
    const char *versions[MC_V_COUNT + 1];
    const char *ex_version = NULL, *ex_dir = NULL;
    const char *tr_version[16], *tr_dir[16];
    size_t n_versions = 0, n_traces = 0, v, b, n_examples = 0;
    ctx_t c;
    mc_errbuf_t eb;
    struct stat st;
    int a, bad_bases = 0, total_cmp = 0, total_diff = 0, total_deliberate = 0, trace_msgs = 0;

    if (argc < 3) {
        usage(argv[0]);
        return 2;
    }
    for (a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--examples") == 0 && a + 2 < argc) {
            ex_version = argv[++a];
            ex_dir = argv[++a];
        } else if (strcmp(argv[a], "--traces") == 0 && a + 2 < argc && n_traces < 16) {
            tr_version[n_traces] = argv[++a];
            tr_dir[n_traces++] = argv[++a];
        } else if (mc_version_find(argv[a]) != NULL && n_versions < MC_V_COUNT) {
            versions[n_versions++] = argv[a];
        } else {
            usage(argv[0]);
            return 2;
        }
    }
    if (n_versions == 0 && ex_dir == NULL && n_traces == 0)
        n_versions = mc_version_list(0, versions, MC_V_COUNT + 1);
    if (stat(argv[2], &st) != 0) {
        printf("FAIL: official schemas not found at %s (the spec is expected at ../shared/spec)\n",
               argv[2]);
        return 1;
    }
    memset(&c, 0, sizeof(c));
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&c.bundled, argv[1], MC_REGISTRY_BUNDLED, &eb) != MC_OK ||
        mc_registry_new(&c.official, argv[2], MC_REGISTRY_UPSTREAM, &eb) != MC_OK) {
        printf("FAIL: %s\n", eb.msg);
        return 1;
    }
    for (v = 0; v < n_versions + (ex_dir != NULL ? 1 : 0) + n_traces; v++) {
        int is_examples = v == n_versions && ex_dir != NULL;
        int is_trace = v >= n_versions + (ex_dir != NULL ? 1 : 0);
        size_t t = is_trace ? v - n_versions - (ex_dir != NULL ? 1 : 0) : 0;
        c.version = is_examples ? ex_version : is_trace ? tr_version[t] : versions[v];
        mc_errbuf_clear(&eb);
        if (mc_registry_load(c.bundled, c.version, &eb) != MC_OK ||
            mc_registry_load(c.official, c.version, &eb) != MC_OK) {
            printf("FAIL %s: %s\n", c.version, eb.msg);
            bad_bases++;
            continue;
        }
        if (is_examples) {
            if (stat(ex_dir, &st) != 0) {
                printf("FAIL: official examples not found at %s\n", ex_dir);
                bad_bases++;
                continue;
            }
            bad_bases += run_examples(&c, ex_dir, &n_examples);
            printf("%s: %zu official examples, each and its mutations compared\n", c.version,
                   n_examples);
            if (n_examples == 0) {
                printf("FAIL: no example under %s\n", ex_dir);
                bad_bases++;
            }
        } else if (is_trace) {
            int n = run_traces(&c, tr_dir[t]);
            printf("%s: %d messages of the traces in %s compared, %d differ\n", c.version, n,
                   tr_dir[t], c.differ);
            if (n == 0) {
                printf("FAIL: no trace message under %s\n", tr_dir[t]);
                bad_bases++;
            }
            trace_msgs += n;
        } else {
            for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
                if (!version_in(c.version, &bases[b]))
                    continue;
                c.root = json_tokener_parse(bases[b].json);
                bad_bases += run_base(&c, &bases[b], bases[b].name);
                json_object_put(c.root);
                c.root = NULL;
            }
        }
        total_cmp += c.compared;
        total_diff += c.differ;
        total_deliberate += c.deliberate;
        c.compared = c.differ = c.deliberate = 0;
    }
    mc_registry_free(c.bundled);
    mc_registry_free(c.official);
    printf("\ndifferential: %d messages and mutations compared (%d trace messages), %d verdicts "
           "differ, %d differ at documented tightenings, %d bad base messages\n",
           total_cmp, trace_msgs, total_diff, total_deliberate, bad_bases);
    printf("%d passed, %d failed\n", total_cmp - total_diff, total_diff + bad_bases);
    return total_diff == 0 && bad_bases == 0 ? 0 : 1;
}
