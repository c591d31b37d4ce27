/*
 * stdio_sessions.h - the scripted sessions of test_refserver_stdio.c: each a
 * script of lines sent to the reference server's stdin in one go, named in
 * the sessions table with its --step-delay. Included by that file alone.
 */
#ifndef MC_TESTS_REFSERVER_STDIO_SESSIONS_H
#define MC_TESTS_REFSERVER_STDIO_SESSIONS_H

#define INIT(id, ver, caps)                                                                        \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"initialize\",\"params\":{"                  \
    "\"protocolVersion\":\"" ver "\",\"capabilities\":" caps ",\"clientInfo\":{\"name\":"          \
    "\"stdio-test\",\"version\":\"1\"}}}\n"                                                        \
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
#define REQ(id, m, p) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"" m "\",\"params\":" p "}\n"
#define CALL(id, tool, args)                                                                       \
    REQ(id, "tools/call", "{\"name\":\"" tool "\",\"arguments\":" args "}")
#define ANSWER(id, result) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":" result "}\n"

/* The full session: 2025-11-25 with every client capability. The server's
 * requests get ids 1.. in order; the answers follow their tool calls. */
static const char session_full[] =
    "{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"ping\"}\n" INIT(
        101, "2025-11-25",
        "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{}}")
    "{\"jsonrpc\":\"2.0\",\"id\":102,\"method\":\"ping\"}\n" REQ(103, "resources/list", "{}")
    REQ(104, "resources/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    REQ(105, "resources/templates/list", "{}") REQ(106, "prompts/list", "{}")
    REQ(107, "tools/list", "{}") REQ(108, "prompts/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    REQ(154, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(155, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(109, "tools/list", "{\"cursor\":\"garbage\"}")
    REQ(110, "resources/read", "{\"uri\":\"test://static-text\"}")
    REQ(111, "resources/read", "{\"uri\":\"test://static-binary\"}")
    REQ(112, "resources/read", "{\"uri\":\"test://template/123/data\"}")
    REQ(113, "resources/read", "{\"uri\":\"test://nope\"}")
    REQ(190, "resources/read", "{\"uri\":\"not a URI\"}")
    CALL(191, "TEST_SIMPLE_TEXT", "{}")
    CALL(114, "test_trigger_resource_update", "{}")
    REQ(115, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(116, "test_trigger_resource_update", "{}")
    REQ(117, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(118, "test_trigger_resource_update", "{}")
    REQ(156, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(157, "test_trigger_resource_update", "{}")
    REQ(158, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(119, "test_trigger_resource_list_change", "{}")
    CALL(120, "test_trigger_prompt_change", "{}") CALL(121, "test_trigger_tool_change", "{}")
    REQ(122, "prompts/get", "{\"name\":\"test_simple_prompt\"}")
    REQ(123, "prompts/get",
        "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\",\"arg2\":\"b\"}}")
    REQ(124, "prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{}}")
    REQ(159, "prompts/get",
        "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\"}}")
    REQ(125, "prompts/get", "{\"name\":\"nope\"}")
    REQ(126, "prompts/get", "{\"name\":\"test_prompt_with_image\"}")
    REQ(127, "prompts/get",
        "{\"name\":\"test_prompt_with_embedded_resource\",\"arguments\":{\"resourceUri\":"
        "\"test://x\"}}") CALL(128, "test_simple_text", "{}") CALL(129, "test_image_content", "{}")
    CALL(130, "test_audio_content", "{}") CALL(131, "test_embedded_resource", "{}")
    CALL(132, "test_multiple_content_types", "{}") CALL(133, "test_error_handling", "{}")
    CALL(134, "no_such_tool", "{}") CALL(135, "test_resource_link", "{}")
    CALL(136, "test_structured_content", "{}")
    REQ(137, "logging/setLevel", "{\"level\":\"warning\"}")
    CALL(138, "test_logging_levels", "{}") REQ(139, "logging/setLevel", "{\"level\":\"loud\"}")
    REQ(140, "logging/setLevel", "{\"level\":\"debug\"}") CALL(141, "test_tool_with_logging", "{}")
    REQ(142, "tools/call",
        "{\"name\":\"test_tool_with_progress\",\"_meta\":{\"progressToken\":\"p\"}}")
    CALL(143, "test_elicitation", "{\"message\":\"Who are you?\"}")
    ANSWER(1, "{\"action\":\"accept\",\"content\":{\"username\":\"u\",\"email\":\"u@example.com\"}}")
    CALL(144, "test_elicitation_sep1034_defaults", "{}") ANSWER(2, "{\"action\":\"decline\"}")
    CALL(145, "test_elicitation_sep1330_enums", "{}") ANSWER(3, "{\"action\":\"cancel\"}")
    CALL(146, "test_elicitation_sep1036_url", "{}") ANSWER(4, "{\"action\":\"accept\"}")
    CALL(147, "test_elicitation_sep1036_error", "{}")
    CALL(148, "test_elicitation_sep1036_complete", "{}") ANSWER(5, "{\"action\":\"accept\"}")
    CALL(149, "test_sampling", "{\"prompt\":\"hi\"}")
    ANSWER(6, "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hello\"},"
              "\"model\":\"m\"}") CALL(150, "test_list_roots", "{}")
    ANSWER(7, "{\"roots\":[{\"uri\":\"file:///tmp\"}]}") CALL(192, "test_sampling_pair", "{}")
    ANSWER(9, "{}") ANSWER(8, "{}") REQ(151, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg1\",\"value\":\"a\"}}")
    REQ(152, "completion/complete",
        "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://template/{id}/data\"},"
        "\"argument\":{\"name\":\"id\",\"value\":\"\"}}")
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":153,\"method\":\"ping\"}\n";

/* 2025-06-18 without client capabilities: gating, lists, cursor misuse. */
static const char session_plain[] =
    INIT(1, "2025-06-18", "{}") REQ(2, "tools/list", "{}")
    REQ(3, "prompts/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(4, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(5, "tools/list", "{\"cursor\":\"UgQAAAAAAAa9jRYp\"}") CALL(6, "test_elicitation",
                                                                   "{\"message\":\"m\"}")
    CALL(7, "test_sampling", "{\"prompt\":\"p\"}") CALL(8, "test_list_roots", "{}")
    REQ(9, "resources/templates/list", "{\"cursor\":\"UgIAAAAAAAOFcVxG\"}")
    REQ(10, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"t\"}}")
    /* typed further twice: narrowed, then narrowed again */
    REQ(101, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"tw\"}}")
    REQ(102, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"twe\"}}") REQ(11, "resources/list", "{}")
    REQ(12, "resources/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    CALL(13, "test_elicitation_sep1036_url", "{}")
    /* without the prompt its inputSchema requires: refused (tool-input-unvalidated) */
    CALL(14, "test_sampling", "{}");

/* An unsupported version, garbage and requests before initialize. */
static const char session_hostile[] =
    REQ(1, "tools/list", "{}") "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n"
    "this is not json\n"
    "{\"id\":3,\"method\":\"ping\"}\n"
    "{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}\n" INIT(5, "1999-01-01", "{}")
    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such\"}\n"
    "[1,2,3]\n"
    "\n"
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\r\n";

/* Older versions, a form-only client, roots requested before initialized. */
static const char session_old[] =
    INIT(1, "2025-03-26", "{\"roots\":{},\"sampling\":{}}") REQ(2, "prompts/get",
                                                               "{\"name\":\"test_prompt_with_audio\"}")
    CALL(3, "test_audio_content", "{}") CALL(4, "test_list_roots", "{}")
    ANSWER(2, "{\"roots\":[]}") ANSWER(1, "{\"roots\":[]}")
    "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]\n";

static const char session_2024[] = INIT(1, "2024-11-05", "{}") REQ(2, "resources/list", "{}")
    REQ(3, "tools/list", "{}") REQ(4, "prompts/list", "{}");

static const char session_form_only[] =
    INIT(1, "2025-11-25", "{\"elicitation\":{}}") CALL(2, "test_elicitation_sep1036_url", "{}")
    ANSWER(1, "{\"action\":\"accept\"}") CALL(3, "test_elicitation", "{\"message\":\"m\"}")
    ANSWER(1, "{\"action\":\"accept\",\"content\":{}}") ANSWER(2, "{\"action\":\"accept\"}");

static const char session_cancel[] =
    INIT(1, "2025-06-18", "{}") REQ(2, "tools/call",
                                    "{\"name\":\"test_tool_with_progress\",\"_meta\":{"
                                    "\"progressToken\":9}}")
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n";

/* The stateless protocol (2026-07-28): no initialize, _meta on every request. */
#define MODERN_META(caps, extra)                                                                 \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","               \
    "\"io.modelcontextprotocol/clientCapabilities\":" caps extra "}"
#define MREQ(id, method, caps, extra, params)                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"" method "\",\"params\":{"         \
    MODERN_META(caps, extra) params "}}\n"
static const char session_stateless[] =
    /* A request before server/discover is served all the same. */
    MREQ(12, "tools/list", "{}", "", "")
    MREQ(1, "server/discover", "{}", "", "")
    MREQ(2, "subscriptions/listen", "{}", "", ",\"notifications\":{\"toolsListChanged\":true}")
    MREQ(3, "tools/call", "{}", "", ",\"name\":\"test_trigger_prompt_change\"")
    MREQ(4, "tools/call", "{}", "", ",\"name\":\"test_tool_with_logging\"")
    MREQ(5, "resources/read", "{}", "", ",\"uri\":\"mcpcheck-missing://x\"")
    MREQ(6, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"}")
    MREQ(7, "tools/list", "{}", "", "")
    /* The page that lists test_header_param (the x-mcp-header switches). */
    MREQ(12, "tools/list", "{}", "", ",\"cursor\":\"UgQAAAAAABWpcWeG\"")
    MREQ(8, "tools/call", "{}", ",\"io.modelcontextprotocol/logLevel\":\"info\"",
         ",\"name\":\"test_simple_text\"")
    MREQ(10, "mcpcheck/no-such-method", "{}", "", "")
    /* Retries whose inputResponses lack the input, hold an unknown key, are no object. */
    MREQ(13, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},\"inputResponses\":{}")
    MREQ(14, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},"
         "\"inputResponses\":{\"mcpcheck\":{\"action\":\"decline\"}}")
    MREQ(15, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},\"inputResponses\":\"x\"")
    /* A log level that is none: refused with -32602. */
    MREQ(11, "tools/list", "{}", ",\"io.modelcontextprotocol/logLevel\":\"verbose\"", "")
    /* A version no server speaks: -32022 listing what server/discover lists. */
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
    "\"io.modelcontextprotocol/protocolVersion\":\"1900-01-01\","
    "\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n";

/* Tasks (2025-11-25): three tasks (their ids are the server's deterministic
 * ones), polled, listed, a result retrieved, cancellations, an unknown task,
 * task augmentation of a tool that forbids it and of a request type nobody
 * declares, a plain call of a tool that requires it, and a fourth task that
 * fails with a JSON-RPC error. The first task reports progress under its
 * call's token when its result is asked for; a fifth needs the client's
 * input, which it asks for (elicitation/create) on tasks/result. */
#define TASK1 "\"task-1-e2d763a5\""
#define TASK2 "\"task-2-e2b5316a\""
#define TASK3 "\"task-3-fadf2c9b\""
static const char session_tasks[] =
    INIT(300, "2025-11-25", "{\"elicitation\":{}}")
    REQ(301, "tools/call",
        "{\"name\":\"test_task_tool\",\"task\":{\"ttl\":5000},\"_meta\":{\"progressToken\":7}}")
    REQ(302, "tools/call", "{\"name\":\"test_task_tool\",\"task\":{}}")
    REQ(303, "tools/call", "{\"name\":\"test_task_held\",\"task\":{}}")
    REQ(304, "tasks/get",
        "{\"taskId\":" TASK1 ",\"_meta\":{\"io.modelcontextprotocol/related-task\":{"
        "\"taskId\":" TASK2 "}}}")
    REQ(305, "tasks/list", "{}") REQ(306, "tasks/result", "{\"taskId\":" TASK1 "}")
    REQ(307, "tasks/cancel", "{\"taskId\":" TASK1 "}")
    REQ(308, "tasks/result", "{\"taskId\":" TASK3 "}")
    REQ(309, "tasks/cancel", "{\"taskId\":" TASK3 "}")
    REQ(310, "tasks/get", "{\"taskId\":" TASK3 "}")
    REQ(311, "tasks/get", "{\"taskId\":\"nope\"}")
    REQ(312, "tools/call", "{\"name\":\"test_simple_text\",\"task\":{}}")
    CALL(313, "test_task_held", "{}") REQ(314, "tools/list", "{\"task\":{}}")
    REQ(315, "tools/call", "{\"name\":\"test_task_failing\",\"task\":{}}")
    REQ(316, "tasks/result", "{\"taskId\":\"task-4-92d260a8\"}")
    REQ(317, "tasks/get", "{\"taskId\":\"task-4-92d260a8\"}")
    REQ(318, "tasks/get", "{\"taskId\":" TASK1 "}")
    REQ(319, "tools/call", "{\"name\":\"test_task_elicit\",\"task\":{}}")
    REQ(320, "tasks/result", "{\"taskId\":\"task-5-72d315b1\"}");

/* The server as the requestor of a task on the client (test_task_requestor):
 * the client's CreateTaskResult and tasks/get answers say pollInterval 0, so
 * each poll goes out at once, before the next scripted line is read; the
 * first poll finds the task input_required, then come tasks/result and two
 * pages of tasks/list. */
#define CLIENT_TASK(status)                                                                        \
    "{\"taskId\":\"c-1\",\"status\":\"" status "\",\"createdAt\":\"2025-11-25T10:00:00Z\","        \
    "\"lastUpdatedAt\":\"2025-11-25T10:00:00Z\",\"ttl\":60000,\"pollInterval\":0}"
static const char session_taskreq[] =
    INIT(400, "2025-11-25",
         "{\"elicitation\":{},\"tasks\":{\"list\":{},\"requests\":{\"elicitation\":"
         "{\"create\":{}}}}}")
    CALL(401, "test_task_requestor", "{}")
    ANSWER(1, "{\"task\":" CLIENT_TASK("working") "}")
    ANSWER(2, CLIENT_TASK("input_required"))
    ANSWER(3, "{\"action\":\"decline\",\"_meta\":{\"io.modelcontextprotocol/related-task\":"
              "{\"taskId\":\"c-1\"}}}")
    ANSWER(4, "{\"tasks\":[" CLIENT_TASK("completed") "],\"nextCursor\":\"c/2\"}")
    ANSWER(5, "{\"tasks\":[]}");

typedef struct session {
    const char *name;
    const char *script;
    const char *step_delay; /* --step-delay value */
} session_t;

static const session_t sessions[] = {
    {"full", session_full, "0"},       {"plain", session_plain, "0"},
    {"hostile", session_hostile, "0"}, {"old", session_old, "0"},
    {"2024", session_2024, "0"},       {"form-only", session_form_only, "0"},
    {"cancel", session_cancel, "30"},  {"stateless", session_stateless, "0"},
    {"tasks", session_tasks, "0"},     {"taskreq", session_taskreq, "0"},
};
#define NSESSIONS (sizeof(sessions) / sizeof(sessions[0]))

#endif /* MC_TESTS_REFSERVER_STDIO_SESSIONS_H */
