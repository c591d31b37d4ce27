/*
 * inject.h - violation switches: one deliberate spec violation each.
 *
 * `--inject NAME` turns on exactly one entry of this table. Each entry names
 * the rule it breaks, its level and the spec page#anchor, and the server code
 * checks rs_bug_on(rs, RS_BUG_X) at the one place where the violation is made.
 * Every switch is deterministic: the deviation shows on the wire in any
 * session that exercises the feature named in its rule.
 */
#ifndef MC_REFSERVER_INJECT_H
#define MC_REFSERVER_INJECT_H

/* XX(ID, name, level, rule broken, spec reference) */
#define RS_BUG_MAP(XX)                                                                             \
    /* JSON-RPC envelope and framing */                                                            \
    XX(ENV_JSONRPC_VERSION, "envelope-jsonrpc-version", "MUST",                                    \
       "the ping response says jsonrpc \"1.0\" instead of \"2.0\"", "2025-06-18/basic#messages")   \
    XX(ENV_ID_MISMATCH, "envelope-id-mismatch", "MUST",                                            \
       "the ping response carries an id other than its request's", "2025-06-18/basic#responses")  \
    XX(ENV_ID_TYPE, "envelope-id-type", "MUST",                                                    \
       "an integer request id is echoed as a string in the ping response",                        \
       "2025-06-18/basic#responses")                                                               \
    XX(ENV_NO_ID, "envelope-result-no-id", "MUST", "the ping response has no id",                  \
       "2025-06-18/basic#responses")                                                               \
    XX(ENV_RESULT_AND_ERROR, "envelope-result-and-error", "MUST",                                  \
       "error responses also carry a result member", "2025-06-18/basic#responses")                 \
    XX(ENV_ERROR_CODE_STRING, "envelope-error-code-string", "MUST",                                \
       "error codes are sent as strings, not integers", "2025-06-18/basic#responses")              \
    XX(ENV_ERROR_NO_MESSAGE, "envelope-error-no-message", "MUST",                                  \
       "error objects lack the message member", "2025-06-18/basic#responses")                      \
    XX(NOTIFICATION_ANSWERED, "notification-answered", "MUST",                                     \
       "every client notification is answered with an error response",                            \
       "2025-06-18/basic#notifications")                                                           \
    XX(DUPLICATE_RESPONSE, "duplicate-response", "MUST", "ping is answered twice",                 \
       "2025-06-18/basic#responses")                                                               \
    XX(STDOUT_BANNER, "stdout-banner", "MUST",                                                     \
       "a plain-text banner is written to stdout before any message",                             \
       "2025-06-18/basic/transports#stdio")                                                        \
    XX(EMBEDDED_NEWLINE, "embedded-newline", "MUST",                                               \
       "the tools/list response is pretty-printed over several lines",                            \
       "2025-06-18/basic/transports#stdio")                                                        \
    XX(INVALID_UTF8, "invalid-utf8", "MUST",                                                       \
       "the text of test://static-text contains a byte that is not UTF-8",                        \
       "2025-06-18/basic/transports")                                                              \
    XX(PARSE_ERROR_CODE, "parse-error-code", "MUST",                                               \
       "malformed JSON is answered with -32600 instead of -32700", "2025-11-25/basic#messages")    \
    XX(METHOD_NOT_FOUND_CODE, "method-not-found-code", "MUST",                                     \
       "an unknown method is answered with -32603 instead of -32601",                             \
       "2025-06-18/basic#messages")                                                                \
    XX(INVALID_REQUEST_SERVED, "invalid-request-served", "MUST",                                   \
       "a request without jsonrpc \"2.0\" is served instead of refused with -32600",              \
       "2025-06-18/basic#messages")                                                                \
    XX(BATCH_ANSWERED_WRONGLY, "batch-answered-wrongly", "MUST",                                   \
       "a 2025-03-26 batch is answered with one message per request instead of one array",        \
       "2025-03-26/basic#batching")                                                                \
    XX(STDIN_EOF_IGNORED, "stdin-eof-ignored", "SHOULD",                                           \
       "the stdio server keeps running after its stdin closes, until a signal stops it",           \
       "2026-07-28/basic/transports/stdio#shutdown")                                               \
    XX(STATELESS_CANCELLED_ANSWERED, "stateless-cancelled-answered", "MUST",                       \
       "at 2026-07-28 a call cancelled by notifications/cancelled is still answered",             \
       "2026-07-28/basic/transports/stdio#cancellation")                                           \
    /* lifecycle and negotiation */                                                                \
    XX(VERSION_NOT_ECHOED, "version-not-echoed", "MUST",                                           \
       "a supported requested protocol version is answered with a different one",                 \
       "2025-06-18/basic/lifecycle#version-negotiation")                                           \
    XX(VERSION_UNSUPPORTED_ECHOED, "version-unsupported-echoed", "MUST",                           \
       "an unsupported requested protocol version is echoed back",                                \
       "2025-06-18/basic/lifecycle#version-negotiation")                                           \
    XX(VERSION_COUNTER_OFFER_UNSPOKEN, "version-counter-offer-unspoken", "MUST",                   \
       "an unsupported requested version is answered with 2024-11-05, which the server refuses "  \
       "when it is asked for it", "2025-06-18/basic/lifecycle#version-negotiation")               \
    XX(INIT_NO_SERVER_INFO, "init-no-server-info", "MUST",                                         \
       "the initialize result lacks serverInfo", "2025-06-18/basic/lifecycle#initialization")      \
    XX(INIT_NO_CAPABILITIES, "init-no-capabilities", "MUST",                                       \
       "the initialize result lacks capabilities", "2025-06-18/basic/lifecycle#initialization")    \
    XX(REQUEST_BEFORE_INITIALIZED, "request-before-initialized", "SHOULD",                         \
       "roots/list is sent before the initialized notification arrives",                          \
       "2025-06-18/basic/lifecycle#initialization")                                                \
    XX(TOOLS_LIST_CHANGED_UNDECLARED, "tools-list-changed-undeclared", "MUST",                     \
       "notifications/tools/list_changed is sent without tools.listChanged declared",             \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(PROMPTS_LIST_CHANGED_UNDECLARED, "prompts-list-changed-undeclared", "MUST",                 \
       "notifications/prompts/list_changed is sent without prompts.listChanged declared",         \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(RESOURCES_LIST_CHANGED_UNDECLARED, "resources-list-changed-undeclared", "MUST",             \
       "notifications/resources/list_changed is sent without resources.listChanged declared",     \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(SUBSCRIBE_UNDECLARED, "subscribe-undeclared", "MUST",                                       \
       "resources/updated is sent without resources.subscribe declared",                          \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(LOGGING_UNDECLARED, "logging-undeclared", "MUST",                                           \
       "notifications/message is sent without the logging capability declared",                  \
       "2025-06-18/server/utilities/logging#capabilities")                                         \
    XX(ERROR_CODE_MISUSED, "error-code-misused", "MUST",                                           \
       "an unknown method at 2026-07-28 is answered with -32022 UnsupportedProtocolVersion, "      \
       "whose data.supported lists 2026-07-28", "2026-07-28/basic#error-codes")                    \
    XX(META_KEY_MALFORMED, "meta-key-malformed", "MUST",                                           \
       "every result's _meta carries the key com.example-/note, whose prefix label ends with "     \
       "a hyphen", "2025-06-18/basic#_meta")                                                       \
    XX(META_TRACEPARENT_MALFORMED, "meta-traceparent-malformed", "MUST",                           \
       "2026-07-28 results carry a _meta traceparent that is no W3C traceparent",                  \
       "2026-07-28/basic#_meta")                                                                   \
    XX(EXTENSION_ID_UNPREFIXED, "extension-id-unprefixed", "MUST",                                 \
       "server/discover declares an extension identified as \"ui\", without a prefix",             \
       "2026-07-28/basic/versioning#extension-negotiation")                                        \
    XX(RESULT_NO_SERVER_INFO, "result-no-server-info", "SHOULD",                                   \
       "2026-07-28 results lack io.modelcontextprotocol/serverInfo in _meta",                      \
       "2026-07-28/basic#_meta")                                                                   \
    XX(VERSION_COUNTER_OFFER_OLDEST, "version-counter-offer-oldest", "SHOULD",                     \
       "an unsupported requested version is answered with 2024-11-05, the oldest version the "     \
       "server speaks, not its latest", "2025-06-18/basic/lifecycle#version-negotiation")          \
    /* resources */                                                                                \
    XX(RESOURCE_NOT_FOUND_CODE, "resource-not-found-code", "SHOULD",                               \
       "an unknown resource URI is answered with -32603 instead of -32002",                       \
       "2025-06-18/server/resources#error-handling")                                               \
    XX(RESOURCE_NOT_FOUND_EMPTY, "resource-not-found-empty", "SHOULD",                             \
       "an unknown resource URI is answered with an empty contents result",                       \
       "2025-06-18/server/resources#error-handling")                                               \
    XX(BLOB_NOT_BASE64, "blob-not-base64", "MUST",                                                 \
       "the blob of test://static-binary is not base64",                                          \
       "2025-06-18/server/resources#security-considerations")                                      \
    XX(BLOB_UNPADDED, "blob-base64-unpadded", "MUST",                                              \
       "the blob of test://static-binary drops its base64 padding",                               \
       "2025-06-18/server/resources#security-considerations")                                      \
    XX(READ_URI_MISMATCH, "read-uri-mismatch", "SHOULD",                                           \
       "a template read answers with the template instead of the requested URI",                  \
       "2025-06-18/server/resources#reading-resources")                                            \
    XX(READ_URI_OTHER, "read-uri-other", "INFO",                                                   \
       "every resources/read answers with contents for test://elsewhere, not the URI asked",      \
       "2025-06-18/server/resources#reading-resources")                                            \
    XX(READ_MIMETYPE_DIFFERS, "read-mimetype-differs", "INFO",                                     \
       "resources/read contents give a MIME type other than the listed one",                      \
       "2025-06-18/server/resources#reading-resources")                                            \
    XX(READ_TEXT_AND_BLOB, "read-text-and-blob", "INFO",                                           \
       "text contents of resources/read carry a blob as well", "2025-06-18/server/resources#resource-contents") \
    XX(UNSUBSCRIBE_REFUSED, "unsubscribe-refused", "INFO",                                         \
       "resources/unsubscribe of a subscribed URI fails with -32603",                             \
       "2025-06-18/server/resources#subscriptions")                                                \
    XX(RESOURCE_NO_NAME, "resource-missing-name", "MUST",                                          \
       "resources/list items lack the required name", "2025-06-18/server/resources#resource")      \
    XX(TEMPLATE_NO_URITEMPLATE, "template-missing-uritemplate", "MUST",                            \
       "resource templates carry uri instead of the required uriTemplate",                        \
       "2025-06-18/server/resources#resource-templates")                                           \
    XX(ANNOTATION_PRIORITY_RANGE, "annotation-priority-range", "MUST",                             \
       "a resource annotation has priority 1.5, outside 0..1",                                    \
       "2025-06-18/server/resources#annotations")                                                  \
    XX(RESOURCES_CAP_UNDECLARED, "resources-capability-undeclared", "MUST",                        \
       "the capabilities lack resources while resources/list still lists them",                   \
       "2025-06-18/server/resources#capabilities")                                                 \
    XX(CACHE_TTL_NEGATIVE, "cache-ttl-negative", "MUST",                                           \
       "2026-07-28 cacheable results carry ttlMs -1",                                             \
       "2026-07-28/server/utilities/caching#time-to-live-ttl-field")                               \
    XX(DISCOVER_CAPS_LACKING, "discover-capabilities-lacking", "MUST",                             \
       "server/discover declares neither tools, resources nor prompts while it lists them",      \
       "2026-07-28/server/resources#capabilities")                                                 \
    XX(LIST_REFUSED_DECLARED, "list-refused-declared", "MUST",                                     \
       "tools/list, resources/list and prompts/list are answered -32603 at 2026-07-28 while "      \
       "server/discover declares the capabilities", "2026-07-28/server/resources#capabilities")   \
    XX(CACHE_SCOPE_BY_PAGE, "cache-scope-differs-by-page", "MUST",                                 \
       "2026-07-28 list pages asked for with a cursor say cacheScope private, the first public",  \
       "2026-07-28/server/utilities/caching#interaction-with-pagination")                          \
    XX(READ_URI_UNVALIDATED, "read-uri-unvalidated", "MUST",                                       \
       "resources/read of a string with no URI scheme answers an empty contents array",           \
       "2025-06-18/server/resources#security-considerations")                                      \
    /* prompts */                                                                                  \
    XX(PROMPT_UNKNOWN_ACCEPTED, "prompt-unknown-accepted", "SHOULD",                               \
       "prompts/get for an unknown name returns a result instead of -32602",                      \
       "2025-06-18/server/prompts#error-handling")                                                 \
    XX(PROMPT_MISSING_ARG_ACCEPTED, "prompt-missing-argument-accepted", "SHOULD",                  \
       "prompts/get without a required argument returns a result instead of -32602",              \
       "2025-06-18/server/prompts#error-handling")                                                 \
    XX(PROMPT_PARTIAL_ARGS_ACCEPTED, "prompt-partial-arguments-accepted", "SHOULD",                \
       "prompts/get with one of two required arguments returns a result instead of -32602",       \
       "2025-06-18/server/prompts#error-handling")                                                 \
    XX(PROMPT_UNKNOWN_CODE, "prompt-unknown-wrong-code", "SHOULD",                                 \
       "prompts/get for an unknown name is answered with -32601 instead of -32602",               \
       "2025-06-18/server/prompts#error-handling")                                                 \
    XX(PROMPT_ROLE_INVALID, "prompt-role-invalid", "MUST",                                         \
       "a prompt message has role \"system\"", "2025-06-18/server/prompts#promptmessage")          \
    XX(PROMPT_IMAGE_NOT_BASE64, "prompt-image-not-base64", "MUST",                                 \
       "the image of test_prompt_with_image is not base64",                                       \
       "2025-06-18/server/prompts#image-content")                                                  \
    /* tools */                                                                                    \
    XX(TOOL_STRUCTURED_NONCONFORMING, "tool-structured-nonconforming", "MUST",                     \
       "test_structured_content returns structuredContent whose temperature is a string, "         \
       "against its outputSchema", "2025-06-18/server/tools#output-schema")                        \
    XX(TOOL_STRUCTURED_TEXT_MISMATCH, "tool-structured-text-mismatch", "SHOULD",                   \
       "the text block of test_structured_content is not its structuredContent serialized "       \
       "(another temperature)", "2025-06-18/server/tools#structured-content")                     \
    XX(TOOL_NO_INPUT_SCHEMA, "tool-missing-input-schema", "MUST",                                  \
       "tools/list items lack the required inputSchema", "2025-06-18/server/tools#tool")           \
    XX(TOOL_CONTENT_NO_TYPE, "tool-content-missing-type", "MUST",                                  \
       "the content of test_simple_text lacks its type", "2025-06-18/server/tools#tool-result")    \
    XX(TOOLS_CAP_UNDECLARED, "tools-capability-undeclared", "MUST",                                \
       "the capabilities lack tools while tools/list still lists them",                           \
       "2025-06-18/server/tools#capabilities")                                                     \
    XX(X_MCP_HEADER_NOT_TOKEN, "x-mcp-header-not-token", "MUST",                                   \
       "test_header_param names the header of region \"Re gion\" (a space is no tchar)",          \
       "2026-07-28/server/tools#x-mcp-header")                                                     \
    XX(X_MCP_HEADER_NUMBER, "x-mcp-header-number", "MUST",                                         \
       "the header-mirrored count of test_header_param has type number",                          \
       "2026-07-28/server/tools#x-mcp-header")                                                     \
    XX(X_MCP_HEADER_NOT_STATIC, "x-mcp-header-not-static", "MUST",                                 \
       "test_header_param annotates the items of an array parameter with x-mcp-header",           \
       "2026-07-28/server/tools#x-mcp-header")                                                     \
    XX(LIST_VARIES_AFTER_REQUEST, "list-varies-after-request", "MUST",                             \
       "after a tools/call, prompts/get or resources/read, every list is one item short",         \
       "2026-07-28/server/tools#capabilities")                                                     \
    XX(TOOL_NAME_CASE_FOLDED, "tool-name-case-folded", "SHOULD",                                   \
       "tools/call finds a listed tool by its name in any case (TEST_SIMPLE_TEXT runs "            \
       "test_simple_text)", "2025-11-25/server/tools#tool-names")                                  \
    XX(TOOL_SCHEMA_DRAFT07, "tool-schema-draft07", "SHOULD",                                       \
       "from 2025-11-25 every listed tool's inputSchema names draft-07 in $schema",               \
       "2025-11-25/basic#schema-dialect")                                                          \
    XX(TOOL_INPUT_UNVALIDATED, "tool-input-unvalidated", "MUST",                                   \
       "test_sampling called without its required prompt runs with a made-up one",                \
       "2025-06-18/server/tools#security-considerations")                                          \
    /* elicitation, sampling, roots */                                                             \
    XX(ELICIT_NO_CAP, "elicitation-without-capability", "MUST",                                    \
       "elicitation/create is sent to a client that did not declare elicitation",                 \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(ELICIT_NESTED_SCHEMA, "elicitation-nested-schema", "MUST",                                  \
       "the requested schema has a nested object property",                                       \
       "2025-06-18/client/elicitation#request-schema")                                             \
    XX(ELICIT_SENSITIVE, "elicitation-form-password", "MUST",                                      \
       "a form-mode elicitation asks for a password",                                             \
       "2025-06-18/client/elicitation#security-considerations")                                    \
    XX(ELICIT_URL_NO_CAP, "elicitation-url-without-capability", "MUST",                            \
       "URL-mode elicitation is sent to a client that declared only form mode",                   \
       "2025-11-25/client/elicitation#capabilities")                                               \
    XX(ELICIT_URL_NO_ID, "elicitation-url-missing-id", "MUST",                                     \
       "a URL-mode elicitation lacks elicitationId",                                              \
       "2025-11-25/client/elicitation#url-mode-elicitation-requests")                              \
    XX(ELICIT_COMPLETE_WRONG_ID, "elicitation-complete-wrong-id", "MUST",                          \
       "notifications/elicitation/complete names an elicitationId never issued",                  \
       "2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation")          \
    XX(URL_ERROR_NO_LIST, "url-elicitation-error-no-list", "MUST",                                 \
       "the -32042 error lacks data.elicitations",                                                \
       "2025-11-25/client/elicitation#url-elicitation-required-error")                             \
    XX(ELICIT_FORM_URL, "elicitation-form-clickable-url", "SHOULD",                                \
       "a form-mode elicitation describes a field with a link to https://example.com/terms",      \
       "2025-11-25/client/elicitation#safe-url-handling")                                          \
    XX(SAMPLING_NO_CAP, "sampling-without-capability", "MUST",                                     \
       "sampling/createMessage is sent to a client that did not declare sampling",                \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(ROOTS_NO_CAP, "roots-without-capability", "MUST",                                           \
       "roots/list is sent to a client that did not declare roots",                               \
       "2025-06-18/basic/lifecycle#operation")                                                     \
    XX(SERVER_ID_REUSE, "server-request-id-reuse", "MUST",                                         \
       "every server->client request uses the same id", "2025-06-18/basic#requests")               \
    XX(ELICIT_DECLINE_UNHANDLED, "elicitation-decline-unhandled", "MUST",                          \
       "at 2026-07-28 a declined or cancelled elicitation ends the call with -32603, as if its "   \
       "content were always there", "2026-07-28/client/elicitation#error-handling")                \
    /* logging */                                                                                  \
    XX(LOG_SETLEVEL_INVALID_ACCEPTED, "log-setlevel-invalid-accepted", "SHOULD",                   \
       "logging/setLevel with an unknown level succeeds instead of -32602",                       \
       "2025-06-18/server/utilities/logging#error-handling")                                       \
    XX(LOG_LEVEL_IGNORED, "log-level-ignored", "INFO",                                             \
       "logging/setLevel is accepted and ignored: debug messages keep coming after setLevel error",\
       "2025-06-18/server/utilities/logging#setting-log-level")                                    \
    XX(LOG_LEVEL_NOT_IN_ENUM, "log-level-not-in-enum", "MUST",                                     \
       "notifications/message uses the level \"verbose\"",                                        \
       "2025-06-18/server/utilities/logging#log-levels")                                           \
    XX(LOG_SECRET, "log-contains-secret", "MUST",                                                  \
       "log data contains an API key", "2025-06-18/server/utilities/logging#security")             \
    XX(LOG_FLOOD, "log-not-rate-limited", "SHOULD",                                                \
       "test_tool_with_logging floods 500 messages at once",                                      \
       "2025-06-18/server/utilities/logging#implementation-considerations")                        \
    XX(LOG_META_LEVEL_INVALID_ACCEPTED, "log-meta-level-invalid-accepted", "SHOULD",               \
       "a 2026-07-28 request whose _meta logLevel is no log level is served as if it had none",   \
       "2026-07-28/server/utilities/logging#error-handling")                                       \
    /* pagination */                                                                               \
    XX(CURSOR_REPEAT, "cursor-repeat", "SHOULD",                                                   \
       "the second page's nextCursor repeats the cursor that requested it",                       \
       "2025-06-18/server/utilities/pagination#implementation-guidelines")                         \
    XX(CURSOR_FOREIGN_ACCEPTED, "cursor-foreign-accepted", "SHOULD",                               \
       "a cursor from another list is accepted", "2025-06-18/server/utilities/pagination#error-handling") \
    XX(CURSOR_GARBAGE_ACCEPTED, "cursor-garbage-accepted", "SHOULD",                               \
       "an undecodable cursor is treated as the first page",                                      \
       "2025-06-18/server/utilities/pagination#error-handling")                                    \
    XX(CURSOR_WRONG_CODE, "cursor-invalid-wrong-code", "SHOULD",                                   \
       "an invalid cursor is answered with -32603 instead of -32602",                             \
       "2025-06-18/server/utilities/pagination#error-handling")                                    \
    XX(PAGE_DUPLICATES, "page-duplicate-items", "SHOULD",                                          \
       "each page repeats the last item of the previous page",                                    \
       "2025-06-18/server/utilities/pagination#implementation-guidelines")                         \
    XX(CURSOR_UNSTABLE, "cursor-unstable", "SHOULD",                                               \
       "cursors differ on every walk, and every other one names a position one item further on", \
       "2025-06-18/server/utilities/pagination#implementation-guidelines")                         \
    XX(CURSOR_NULL, "next-cursor-null", "MUST",                                                    \
       "the last page carries \"nextCursor\": null instead of omitting it",                       \
       "2025-06-18/server/utilities/pagination#response-format")                                   \
    /* utilities */                                                                                \
    XX(PROGRESS_NOT_INCREASING, "progress-not-increasing", "MUST",                                 \
       "the third progress notification repeats the second's value",                              \
       "2025-06-18/basic/utilities/progress#progress-flow")                                        \
    XX(PROGRESS_AFTER_RESPONSE, "progress-after-response", "MUST",                                 \
       "a progress notification follows the response to its request",                             \
       "2025-06-18/basic/utilities/progress#implementation-notes")                                 \
    XX(PROGRESS_UNKNOWN_TOKEN, "progress-unknown-token", "MUST",                                   \
       "progress notifications carry a token the client never sent",                              \
       "2025-06-18/basic/utilities/progress#behavior-requirements")                                \
    XX(CANCELLED_ANSWERED, "cancelled-request-answered", "SHOULD",                                 \
       "a request cancelled by notifications/cancelled is still answered",                        \
       "2025-06-18/basic/utilities/cancellation#behavior-requirements")                            \
    XX(CANCELLED_FOREIGN, "cancelled-client-request", "MUST",                                      \
       "a tool call run as a job is met with notifications/cancelled naming the client's own "     \
       "request", "2025-06-18/basic/utilities/cancellation#behavior-requirements")                 \
    XX(PROGRESS_TOKEN_SHARED, "server-progress-token-reused", "MUST",                              \
       "test_sampling_pair's two concurrent sampling/createMessage requests share one "           \
       "progressToken", "2025-06-18/basic/utilities/progress#progress-flow")                       \
    /* tasks (2025-11-25) */                                                                       \
    XX(TASK_CAP_UNDECLARED, "task-capability-undeclared", "MUST",                                  \
       "tools run as tasks but initialize declares no tasks capability",                           \
       "2025-11-25/basic/utilities/tasks#capabilities")                                            \
    XX(TASK_ID_NOT_STRING, "task-id-not-string", "MUST",                                           \
       "a task's taskId is an integer", "2025-11-25/basic/utilities/tasks#task-id-requirements")   \
    XX(TASK_ID_REUSED, "task-id-reused", "MUST",                                                   \
       "every task created gets the same taskId",                                                  \
       "2025-11-25/basic/utilities/tasks#task-id-requirements")                                    \
    XX(TASK_BEGINS_COMPLETED, "task-begins-completed", "MUST",                                     \
       "a new task begins in status completed",                                                    \
       "2025-11-25/basic/utilities/tasks#task-status-lifecycle")                                   \
    XX(TASK_TIME_NOT_ISO, "task-time-not-iso8601", "MUST",                                         \
       "createdAt and lastUpdatedAt say \"just now\"",                                             \
       "2025-11-25/basic/utilities/tasks#ttl-and-resource-management")                             \
    XX(TASK_GET_NO_TTL, "task-get-no-ttl", "MUST",                                                 \
       "tasks/get answers without ttl",                                                            \
       "2025-11-25/basic/utilities/tasks#ttl-and-resource-management")                             \
    XX(TASK_RELATED_ON_OPS, "task-related-meta-on-task-ops", "SHOULD",                             \
       "tasks/get, tasks/list and tasks/cancel results carry the related-task _meta",              \
       "2025-11-25/basic/utilities/tasks#associating-task-related-messages")                       \
    XX(TASK_RESULT_NO_RELATED, "task-result-no-related-meta", "MUST",                              \
       "tasks/result answers without the related-task _meta",                                      \
       "2025-11-25/basic/utilities/tasks#related-task-metadata")                                   \
    XX(TASK_RESULT_NOT_UNDERLYING, "task-result-not-underlying", "MUST",                           \
       "tasks/result answers with the task instead of the tool's result",                          \
       "2025-11-25/basic/utilities/tasks#result-retrieval")                                        \
    XX(TASK_LIST_NO_CURSOR, "task-list-no-next-cursor", "MUST",                                    \
       "tasks/list answers its first page without nextCursor",                                     \
       "2025-11-25/basic/utilities/tasks#task-listing")                                            \
    XX(TASK_CANCEL_TERMINAL, "task-cancel-terminal-accepted", "MUST",                              \
       "tasks/cancel of a completed task is answered with the task",                               \
       "2025-11-25/basic/utilities/tasks#task-cancellation")                                       \
    XX(TASK_CANCEL_STILL_WORKING, "task-cancel-answered-working", "MUST",                          \
       "tasks/cancel answers with the task still working",                                         \
       "2025-11-25/basic/utilities/tasks#task-cancellation")                                       \
    XX(TASK_CANCELLED_COMPLETES, "task-cancelled-completes", "MUST",                               \
       "a cancelled task moves on to completed",                                                   \
       "2025-11-25/basic/utilities/tasks#task-cancellation")                                       \
    XX(TASK_UNKNOWN_ID_INTERNAL, "task-unknown-id-internal-error", "MUST",                         \
       "an unknown taskId is answered with -32603 instead of -32602",                              \
       "2025-11-25/basic/utilities/tasks#protocol-errors")                                         \
    XX(TASK_FORBIDDEN_RUN, "task-forbidden-tool-run-as-task", "SHOULD",                            \
       "a tool without execution.taskSupport runs as a task",                                      \
       "2025-11-25/basic/utilities/tasks#tool-level-negotiation")                                  \
    XX(TASK_REQUIRED_RUN, "task-required-tool-run-plainly", "MUST",                                \
       "a tool whose taskSupport is required runs without a task",                                 \
       "2025-11-25/basic/utilities/tasks#tool-level-negotiation")                                  \
    XX(TASK_CALL_ANSWERED_PLAINLY, "task-call-answered-plainly", "MUST",                           \
       "a task-augmented call of test_task_tool is answered with its CallToolResult",              \
       "2025-11-25/basic/utilities/tasks#result-retrieval")                                        \
    XX(TASK_RELATED_META_WINS, "task-related-meta-wins", "MUST",                                   \
       "tasks/get serves the task the request's related-task _meta names, not its taskId",         \
       "2025-11-25/basic/utilities/tasks#associating-task-related-messages")                       \
    XX(TASK_UNDECLARED_REFUSED, "task-undeclared-type-refused", "MUST",                            \
       "a tools/list request with a task field is refused with -32601",                            \
       "2025-11-25/basic/utilities/tasks#task-support-and-handling")                               \
    XX(TASK_ERROR_NOT_RETURNED, "task-error-not-returned", "MUST",                                 \
       "tasks/result of a task whose call failed with a JSON-RPC error answers an empty result",   \
       "2025-11-25/basic/utilities/tasks#task-execution-errors")                                   \
    XX(TASK_FAILED_NO_STATUS_MESSAGE, "task-failed-no-status-message", "SHOULD",                   \
       "a failed task has no statusMessage",                                                       \
       "2025-11-25/basic/utilities/tasks#task-execution-errors")                                   \
    XX(TASK_AUGMENTED_UNDECLARED, "task-augmented-undeclared", "SHOULD",                           \
       "elicitation/create carries a task to a client that declared no tasks capability",         \
       "2025-11-25/basic/utilities/tasks#capability-negotiation")                                  \
    XX(TASK_RESULT_NOT_BLOCKING, "task-result-not-blocking", "MUST",                               \
       "tasks/result of a working test_task_tool answers at once, the task still working",        \
       "2025-11-25/basic/utilities/tasks#result-retrieval")                                        \
    XX(TASK_PROGRESS_TOKEN_CHANGED, "task-progress-token-changed", "MUST",                         \
       "a task's progress notifications carry its taskId instead of the call's progressToken",    \
       "2025-11-25/basic/utilities/progress#behavior-requirements")                                \
    XX(TASK_PROGRESS_AFTER_TERMINAL, "task-progress-after-terminal", "MUST",                       \
       "tasks/get of a completed task is preceded by one more progress notification for it",      \
       "2025-11-25/basic/utilities/progress#behavior-requirements")                                \
    XX(TASK_PROGRESS_NO_RELATED, "task-progress-no-related-meta", "MUST",                          \
       "a task's progress notifications carry no related-task _meta",                              \
       "2025-11-25/basic/utilities/tasks#associating-task-related-messages")                       \
    XX(TASK_STATUS_RELATED, "task-status-related-meta", "SHOULD",                                  \
       "notifications/tasks/status carries the related-task _meta",                                \
       "2025-11-25/basic/utilities/tasks#task-notifications")                                      \
    XX(TASK_INPUT_NOT_REQUIRED, "task-input-not-required", "SHOULD",                               \
       "test_task_elicit's task stays working while it needs the client's input",                 \
       "2025-11-25/basic/utilities/tasks#input-required-status")                                   \
    XX(TASK_ELICIT_NO_RELATED, "task-elicit-no-related-meta", "MUST",                              \
       "test_task_elicit's elicitation/create carries no related-task _meta",                      \
       "2025-11-25/basic/utilities/tasks#input-required-status")                                   \
    XX(TASKREQ_POLL_TOO_FAST, "requestor-poll-too-fast", "SHOULD",                                 \
       "test_task_requestor ignores the pollInterval of its task on the client: it polls every "   \
       "20 ms",                                                                                    \
       "2025-11-25/basic/utilities/tasks#getting-tasks")                                           \
    XX(TASKREQ_STOPS_POLLING, "requestor-stops-polling", "SHOULD",                                 \
       "test_task_requestor gives up on the client's task at its first working status, "           \
       "without polling", "2025-11-25/basic/utilities/tasks#getting-tasks")                        \
    XX(TASKREQ_NO_PREEMPTIVE_RESULT, "requestor-no-preemptive-result", "SHOULD",                   \
       "test_task_requestor keeps polling the client's input_required task instead of "            \
       "calling tasks/result", "2025-11-25/basic/utilities/tasks#input-required-status")           \
    XX(TASKREQ_RELATED_META, "requestor-related-task-meta", "SHOULD",                              \
       "test_task_requestor's tasks/get and tasks/result carry the related-task _meta",            \
       "2025-11-25/basic/utilities/tasks#associating-task-related-messages")                       \
    XX(TASKREQ_CURSOR_MODIFIED, "requestor-cursor-modified", "MUST",                               \
       "test_task_requestor sends the client's tasks/list nextCursor back with a character "       \
       "appended", "2025-11-25/basic/utilities/tasks#task-listing")                                \
    /* the stateless protocol (2026-07-28) */                                                     \
    XX(RESULT_TYPE_MISSING, "result-type-missing", "MUST",                                         \
       "2026-07-28 results lack resultType", "2026-07-28/basic#result-responses")                 \
    XX(DISCOVER_MISSING, "discover-missing", "MUST",                                               \
       "server/discover is answered -32601 as an unknown method", "2026-07-28/server/discover")    \
    XX(DISCOVER_LYING, "discover-lying-versions", "MUST",                                          \
       "server/discover lists only 2025-11-25 while requests at 2026-07-28 are served",           \
       "2026-07-28/server/discover#discoverresult")                                                \
    XX(LISTEN_NOT_OPTED_IN, "listen-not-opted-in", "MUST",                                         \
       "every change notification goes to every subscriptions/listen stream, opted in or not",    \
       "2026-07-28/basic/patterns/subscriptions#opening-a-stream")                                 \
    XX(LOG_WITHOUT_LEVEL, "log-without-request-level", "MUST",                                     \
       "notifications/message is sent for requests without io.modelcontextprotocol/logLevel",     \
       "2026-07-28/server/utilities/logging#per-request-log-level")                                \
    XX(NOT_FOUND_OLD_CODE, "resource-not-found-old-code", "MUST",                                  \
       "an unknown resource is answered -32002 instead of -32602 at 2026-07-28",                  \
       "2026-07-28/server/resources#error-handling")                                               \
    XX(VERSION_ERROR_LIST_DIFFERS, "version-error-list-differs", "MUST",                           \
       "the UnsupportedProtocolVersionError lists the session-based versions too, while "          \
       "server/discover lists only 2026-07-28", "2026-07-28/basic/versioning#protocol-version-negotiation") \
    XX(INPUT_REQUIRED_EMPTY, "input-required-empty", "MUST",                                       \
       "InputRequiredResult carries neither inputRequests nor requestState",                      \
       "2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow")                        \
    XX(ERROR_CODE_UNDEFINED, "error-code-undefined-reserved", "MUST",                              \
       "an unknown method at 2026-07-28 is answered with -32050, a code of the sub-range the "     \
       "specification reserves that it does not define", "2026-07-28/basic#error-codes")          \
    XX(COMPLETION_TOO_MANY, "completion-too-many", "MUST",                                         \
       "completion/complete returns more than 100 values",                                        \
       "2025-06-18/server/utilities/completion#completion-results")                                \
    XX(PING_NOT_EMPTY, "ping-result-not-empty", "MUST", "the ping result is not empty",            \
       "2025-06-18/basic/utilities/ping#behavior-requirements")                                    \
    XX(PING_IGNORED, "ping-ignored", "MUST", "ping is never answered",                             \
       "2025-06-18/basic/utilities/ping#behavior-requirements")                                    \
    XX(NOTIFICATION_WITH_ID, "notification-with-id", "MUST",                                       \
       "every notification the server sends carries an id", "2025-06-18/basic#notifications")     \
    XX(STATELESS_SERVER_REQUEST, "stateless-server-request", "MUST",                               \
       "at 2026-07-28 an InputRequiredResult is preceded by the same input asked as a request "   \
       "of the server's own", "2026-07-28/basic/patterns")                                         \
    XX(CANCELLED_NOT_LISTEN, "cancelled-not-listen", "MUST",                                       \
       "at 2026-07-28 a tools/call is preceded by a notifications/cancelled naming it",           \
       "2026-07-28/basic/patterns/cancellation#behavior-requirements")                             \
    XX(INPUT_REQUEST_KIND, "input-request-kind", "MUST",                                           \
       "an InputRequiredResult's inputRequests value is a ping request",                          \
       "2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow")                        \
    XX(ERROR_CODE_LEGACY, "error-code-legacy", "SHOULD",                                           \
       "an unknown method at 2026-07-28 is answered with -32000, a code of the legacy sub-range", \
       "2026-07-28/basic#error-codes")                                                             \
    XX(INPUT_RESPONSES_UNCHECKED, "input-responses-unchecked", "SHOULD",                           \
       "a tools/call retry whose inputResponses is no object is served as if it had none",        \
       "2026-07-28/basic/patterns/mrtr#error-handling")                                            \
    XX(INPUT_RESPONSES_MISSING_ERROR, "input-responses-missing-error", "SHOULD",                   \
       "a retry whose inputResponses lacks the input asked for is refused with -32602 instead "   \
       "of asked for it again", "2026-07-28/basic/patterns/mrtr#error-handling")                   \
    XX(INPUT_RESPONSES_UNKNOWN_REFUSED, "input-responses-unknown-refused", "SHOULD",               \
       "a retry whose inputResponses holds a key the server did not ask for is refused with "     \
       "-32602", "2026-07-28/basic/patterns/mrtr#error-handling")                                  \
    XX(DISCOVER_REQUIRED_FIRST, "discover-required-first", "MUST",                                \
       "at 2026-07-28 a request before server/discover on the connection is refused with -32600", \
       "2026-07-28/basic#statelessness")                                                           \
    XX(INPUT_REQUEST_KEY_DUPLICATED, "input-request-key-duplicated", "MUST",                       \
       "the first key of every InputRequiredResult's inputRequests is written twice",             \
       "2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow")                        \
    XX(COMPLETIONS_CAP_UNDECLARED, "completions-capability-undeclared", "MUST",                    \
       "the capabilities lack completions while completion/complete still completes",            \
       "2025-06-18/server/utilities/completion#capabilities")                                      \
    XX(INIT_ERROR_NO_VERSIONS, "initialize-error-no-versions", "SHOULD",                           \
       "the server speaks only 2026-07-28 (as with --modern-only), and its error to initialize "  \
       "names no protocol version", "2026-07-28/basic/versioning#backward-compatibility-with-"    \
       "initialization-based-versions")                                                            \
    XX(CLIENT_INFO_CHANGES_RESULT, "client-info-changes-result", "SHOULD",                         \
       "at 2026-07-28 tools/list, prompts/list and resources/list are empty for a request whose "  \
       "clientInfo is absent or names a client other than mcpcheck", "2026-07-28/basic#_meta")    \
    XX(CURSOR_PROCESS_BOUND, "cursor-process-bound", "SHOULD",                                     \
       "a list's cursors hold only in the server process that issued them: another process "      \
       "refuses them with -32602", "2026-07-28/basic#statelessness")                               \
    /* behind protocol state: several distinct requests first */                                  \
    XX(SUB_AGAIN_NO_URI, "subscribe-again-update-no-uri", "MUST",                                  \
       "after subscribe, unsubscribe and subscribe again to a URI, its update has uri null",      \
       "2025-06-18/server/resources#subscriptions")                                                \
    XX(LOG_NUMBER_AFTER_CHANGE, "log-level-number-after-change", "MUST",                           \
       "once a second setLevel has changed the level, notifications/message gives it as a number",\
       "2025-06-18/server/utilities/logging#log-levels")                                           \
    /* behind a chain of requests in a row whose answers do not change */                        \
    XX(COMPLETION_RENARROWED, "completion-renarrowed-objects", "MUST",                             \
       "a completion narrowed from a list already narrowed (three in a row of one argument, "     \
       "each typed further) returns its values as objects", "2025-06-18/server/utilities/completion#completion-results") \
    /* message shape: a listed item's field */                                                     \
    XX(ICON_SRC_FILE, "icon-src-file-scheme", "INFO",                                              \
       "every icon the server lists (tools, prompts, resources, templates, serverInfo) has a "    \
       "file: src", "2025-11-25/basic/index#icons")

typedef enum rs_bug {
    RS_BUG_NONE = 0,
#define RS__XX(id, name, level, rule, ref) RS_BUG_##id,
    RS_BUG_MAP(RS__XX)
#undef RS__XX
        RS_BUG_COUNT
} rs_bug_t;

/* Returns the switch with this name, or RS_BUG_NONE when there is none. */
rs_bug_t mc__rs_bug_find(const char *name);

/* Returns the switch's name ("" for RS_BUG_NONE or out of range). */
const char *mc__rs_bug_name(rs_bug_t bug);

/*
 * The ids of the checks that must catch the switch named name (of this table
 * or of httpserve.h), comma-separated: a FAIL or WARN of one of them (an INFO,
 * for a switch of level INFO) proves it caught, and no other check's finding
 * counts (catches.c). "" when none.
 */
const char *mc__rs_switch_catchers(const char *name);
/* The scenarios that exercise the rule the switch named name breaks:
 * scenario id globs, comma-separated, as `mcpcheck run --filter` takes
 * them. "" when none. */
const char *mc__rs_switch_where(const char *name);

#endif /* MC_REFSERVER_INJECT_H */
