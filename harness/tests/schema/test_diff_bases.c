/*
 * test_diff_bases.c - the corpus of the differential schema test: one valid
 * message per kind the harness meets (see test_diff.h).
 */
#include "test_diff.h"

/* The corpus: one valid message per kind the harness meets. */
const base_t mc_test_diff_bases[] = {
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

const size_t mc_test_diff_n_bases = sizeof(mc_test_diff_bases) / sizeof(mc_test_diff_bases[0]);
