#include "judge/builtin.h"

#include <stdio.h>
#include <string.h>

#include "core/version.h"
#include "judge/builtin_internal.h"

/*
 * The check registry: every check the harness makes on its own. Each quotes
 * its sentence verbatim from the spec pages (../shared/spec/docs), names its
 * page and anchor at every version the sentence stands at, and takes its
 * level from the sentence's RFC 2119 keyword; what the harness reads into it
 * is kept apart, in the interpretation. A built-in check applies at exactly
 * the versions it names (a verdict quotes and links the page of the version
 * it is made at; scenario/result.c makes none elsewhere). The quote test (ctest -R scenario/quotes) holds
 * every entry to its pages.
 */

/* Sentences several checks rest on. */
#define Q_NEGOTIATED_2503 "Both parties SHOULD: … Only use capabilities that were successfully negotiated"
#define Q_STDOUT "The server MUST NOT write anything to its stdout that is not a valid MCP message."
#define Q_JSONRPC                                                                                  \
    "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification."
#define Q_DELIMITED "Messages are delimited by newlines"
#define Q_RESPONSE_ID "Responses MUST include the same ID as the request they correspond to."
#define Q_RESPONSE_ID_2511                                                                         \
    "Result responses MUST include the same ID as the request they correspond to. … Error "   \
    "responses MUST include the same ID as the request they correspond to (except in error "      \
    "cases where the ID could not be read due a malformed request)."
#define Q_STABLE_CURSORS "Servers SHOULD: … Provide stable cursors"
#define P_FLOW "basic/utilities/progress#progress-flow"
/* The envelope's rules as each version's page words them, after its JSON-RPC sentence. */
#define Q_ENVELOPE_IDS                                                                             \
    " … Requests MUST include a string or integer ID. … Unlike base JSON-RPC, the ID MUST NOT " \
    "be null."
#define Q_ENVELOPE_XOR                                                                             \
    " … Either a result or an error MUST be set. A response MUST NOT set both. … Error codes "   \
    "MUST be integers."
#define Q_ENVELOPE_2411                                                                            \
    "All messages in MCP MUST follow the JSON-RPC 2.0 specification." Q_ENVELOPE_IDS Q_ENVELOPE_XOR
#define Q_ENVELOPE_2503 Q_JSONRPC Q_ENVELOPE_IDS Q_ENVELOPE_XOR
#define Q_ENVELOPE_2511                                                                            \
    Q_JSONRPC Q_ENVELOPE_IDS " … Result responses MUST include a result field. … Error "        \
    "responses MUST include an error field with a code and message. … Error codes MUST be "     \
    "integers."
/* 2024-11-05's basic/messages adopts JSON-RPC 2.0 in these words. */
#define Q_JSONRPC_2411 "All messages in MCP MUST follow the JSON-RPC 2.0 specification."

#define REFS_STDIO                                                                                 \
    {REF(MC_VN_2024_11_05, "basic/transports#stdio"), REF(MC_VN_2025_03_26, "basic/transports#stdio"), REF(MC_VN_2025_06_18, "basic/transports#stdio"),     \
     REF(MC_VN_2025_11_25, "basic/transports#stdio"), REF(MC_VN_2026_07_28, "basic/transports/stdio")}
#define REFS_MESSAGES                                                                              \
    {REF(MC_VN_2024_11_05, "basic"), REF(MC_VN_2025_03_26, "basic#messages"), REF(MC_VN_2025_06_18, "basic#messages"),                     \
     REF(MC_VN_2025_11_25, "basic#messages"), REF(MC_VN_2026_07_28, "basic#messages")}
#define REFS_PAGINATION                                                                            \
    {REF(MC_VN_2024_11_05, "server/utilities/pagination#implementation-guidelines"),                   \
     REF(MC_VN_2025_03_26, "server/utilities/pagination#implementation-guidelines"),                   \
     REF(MC_VN_2025_06_18, "server/utilities/pagination#implementation-guidelines"),                   \
     REF(MC_VN_2025_11_25, "server/utilities/pagination#implementation-guidelines"),                   \
     REF(MC_VN_2026_07_28, "server/utilities/pagination#implementation-guidelines")}

/* What the schema checks read into Q_STDOUT; the data types follow. */
#define SCHEMA_READING                                                                             \
    "A valid MCP message is one the schema of the negotiated version accepts (the schema \"is "    \
    "the source of truth for all protocol messages and structures\", basic#schema). "

static const mc_check_def_t builtins[] = {
    /* --- framing (basic/transports) --- */
    {.check = "wire/stdout-only-messages",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = {REF(MC_VN_2024_11_05, "basic/transports#stdio"),
              REF(MC_VN_2025_03_26, "basic/transports#stdio"),
              REF(MC_VN_2025_06_18, "basic/transports#stdio"),
              REF(MC_VN_2025_11_25, "basic/transports#stdio"),
              REF(MC_VN_2026_07_28, "basic/transports/stdio")},
     .interpretation = "Every line the server writes to stdout is one JSON text; a line that "
                       "does not parse, or bytes left without a final newline when the output "
                       "ends, are not a message."},
    {.check = "wire/no-embedded-newline",
     .level = MC_LEVEL_MUST,
     .quote = "Messages are delimited by newlines, and MUST NOT contain embedded newlines.",
     .refs = {REF(MC_VN_2024_11_05, "basic/transports#stdio"),
              REF(MC_VN_2025_03_26, "basic/transports#stdio"),
              REF(MC_VN_2025_06_18, "basic/transports#stdio"),
              REF(MC_VN_2025_11_25, "basic/transports#stdio"),
              REF(MC_VN_2026_07_28, "basic/transports/stdio")},
     .interpretation = "Judged on stdio, line by line: a line that opens a JSON text and ends "
                       "before the text does (a pretty-printed or multi-line message) is a "
                       "message holding a newline. The lines after it are no messages either "
                       "(wire/stdout-only-messages). A newline escaped inside a JSON string "
                       "(\\n) is no embedded newline."},
    {.check = "wire/utf8",
     .level = MC_LEVEL_MUST,
     .quote = "JSON-RPC messages MUST be UTF-8 encoded.",
     .refs = {REFQ(MC_VN_2024_11_05, "basic/transports#stdio", Q_STDOUT), REF(MC_VN_2025_03_26, "basic/transports"), REF(MC_VN_2025_06_18, "basic/transports"),
              REF(MC_VN_2025_11_25, "basic/transports"), REF(MC_VN_2026_07_28, "basic/transports")},
     .interpretation = "At 2024-11-05, whose pages put no sentence on the encoding, a line that "
                       "is not UTF-8 is no JSON text (RFC 8259 section 8.1 has JSON exchanged "
                       "between systems encoded in UTF-8), so it is not a valid MCP message: the "
                       "check quotes the stdio rule there."},
    {.check = "wire/newline-delimited",
     .level = MC_LEVEL_INFO,
     .quote = Q_DELIMITED,
     .refs = REFS_STDIO,
     .interpretation = "One line, one message: an empty line or a line ending in \\r\\n is "
                       "noted. No sentence forbids them with a keyword (a trailing \\r is JSON "
                       "whitespace), so this is a hint, never a failure."},
    {.check = "wire/message-size",
     .level = MC_LEVEL_INFO,
     .quote = Q_DELIMITED,
     .refs = REFS_STDIO,
     .interpretation = "The harness reads lines of at most 16 MiB (MC_MAX_MESSAGE_SIZE); a "
                       "longer line is skipped unjudged. The spec sets no size limit, so this "
                       "is a note, not a failure; the scenario it came in is ERROR (unjudged)."},
    {.check = "wire/no-batch",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = {REF(MC_VN_2024_11_05, "basic/transports#stdio"),
              REF(MC_VN_2025_06_18, "basic/transports#stdio"),
              REF(MC_VN_2025_11_25, "basic/transports#stdio"),
              REF(MC_VN_2026_07_28, "basic/transports/stdio")},
     .interpretation = "From 2025-06-18 a JSON array (a JSON-RPC batch) is not an MCP message: "
                       "the 2025-06-18 changelog removes batching and the stdio section says "
                       "\"Messages are individual JSON-RPC requests, notifications, or "
                       "responses.\" At 2025-03-26 a batch is a valid message, and the check is "
                       "not made there. 2024-11-05 names no batches: its pages define three "
                       "types of messages (basic/messages) and its schema has no batch type."},

    /* --- JSON-RPC (basic) --- */
    {.check = "wire/jsonrpc-envelope",
     .level = MC_LEVEL_MUST,
     .quote = Q_ENVELOPE_2503,
     .refs = {REFQ(MC_VN_2024_11_05, "basic/messages", Q_ENVELOPE_2411),
              REF(MC_VN_2025_03_26, "basic#messages"), REF(MC_VN_2025_06_18, "basic#messages"),
              REFQ(MC_VN_2025_11_25, "basic#messages", Q_ENVELOPE_2511),
              REFQ(MC_VN_2026_07_28, "basic#messages", Q_ENVELOPE_2511)},
     .interpretation = "Per JSON-RPC 2.0 and basic#responses: \"jsonrpc\": \"2.0\"; a string "
                       "or integer id; exactly one of result and error; an error with an "
                       "integer code and a string message."},
    {.check = "wire/response-id",
     .level = MC_LEVEL_MUST,
     .quote = Q_RESPONSE_ID,
     .refs = {REF(MC_VN_2024_11_05, "basic/messages#responses"),
              REF(MC_VN_2025_03_26, "basic#responses"), REF(MC_VN_2025_06_18, "basic#responses"),
              REFQ(MC_VN_2025_11_25, "basic#responses", Q_RESPONSE_ID_2511),
              REFQ(MC_VN_2026_07_28, "basic#responses", Q_RESPONSE_ID_2511)},
     .interpretation = "The id of a response is the id of a request the client sent and has "
                       "not had answered, with the same JSON type (1 is not \"1\")."},
    {.check = "wire/single-response",
     .level = MC_LEVEL_MUST,
     .quote = Q_JSONRPC,
     .refs = REFS_MESSAGES,
     .interpretation = "JSON-RPC 2.0 answers a request with one response: a second response "
                       "to an id already answered corresponds to no request, and a request "
                       "never answered has none. The version probe judges the latter: a "
                       "server that answered initialize at other versions and leaves the "
                       "probe's initialize or server/discover unanswered for the probe's "
                       "budget (MC_VERSION_PROBE_TIMEOUT_MS once it is up) does not speak that "
                       "version and breaks this rule. A scenario step reports a request left "
                       "unanswered to its own check."},
    {.check = "wire/no-response-to-notification",
     .level = MC_LEVEL_MUST,
     .quote = "The receiver MUST NOT send a response.",
     .refs = {REFQ(MC_VN_2024_11_05, "basic/messages", Q_JSONRPC_2411), REF(MC_VN_2025_03_26, "basic#notifications"), REF(MC_VN_2025_06_18, "basic#notifications"),
              REF(MC_VN_2025_11_25, "basic#notifications"), REF(MC_VN_2026_07_28, "basic#notifications")},
     .interpretation = "A response whose id matches no request, arriving right after the "
                       "client sent a notification, answers that notification. 2024-11-05 has "
                       "no such sentence; its basic/messages adopts JSON-RPC 2.0 with a MUST, "
                       "and JSON-RPC 2.0 (section 4.1) has the server not reply to a "
                       "notification: the check quotes that sentence there."},
    {.check = "wire/notification-no-id",
     .level = MC_LEVEL_MUST,
     .quote = "Notifications MUST NOT include an ID.",
     .refs = {REF(MC_VN_2024_11_05, "basic/messages#notifications"),
              REF(MC_VN_2025_03_26, "basic#notifications"), REF(MC_VN_2025_06_18, "basic#notifications"),
              REF(MC_VN_2025_11_25, "basic#notifications"), REF(MC_VN_2026_07_28, "basic#notifications")},
     .interpretation = "A message of the server whose method is a notification's (notifications/"
                       "...) carries no id member: with one it would be read as a request."},
    {.check = "wire/server-request-id-unique",
     .level = MC_LEVEL_MUST,
     .quote = "The request ID MUST NOT have been previously used by the requestor within the same "
              "session.",
     .refs = {REF(MC_VN_2024_11_05, "basic/messages#requests"),
              REF(MC_VN_2025_03_26, "basic#requests"), REF(MC_VN_2025_06_18, "basic#requests"),
              REF(MC_VN_2025_11_25, "basic#requests")},
     .interpretation = "Every request the server sends to the client carries an id it has not "
                       "used for an earlier request of the same session."},
    {.check = "wire/cancelled-own-request",
     .level = MC_LEVEL_MUST,
     .quote = "Cancellation notifications MUST only reference requests that: … Were previously "
              "issued in the same direction",
     .refs = {REF(MC_VN_2024_11_05, "basic/utilities/cancellation#behavior-requirements"),
              REF(MC_VN_2025_03_26, "basic/utilities/cancellation#behavior-requirements"),
              REF(MC_VN_2025_06_18, "basic/utilities/cancellation#behavior-requirements"),
              REF(MC_VN_2025_11_25, "basic/utilities/cancellation#behavior-requirements")},
     .interpretation = "A notifications/cancelled from the server names, in requestId, a request "
                       "the server sent in this session (never one of the client's). That it is "
                       "\"believed to still be in-progress\" is the server's belief: a "
                       "cancellation may cross the client's answer on the wire, so it is not "
                       "judged."},
    {.check = "lifecycle/shutdown/stdio",
     .level = MC_LEVEL_INFO,
     .quote = "Waiting for the server to exit, or sending SIGTERM if the server does not exit "
              "within a reasonable time",
     .refs = {REF(MC_VN_2024_11_05, "basic/lifecycle#stdio"),
              REF(MC_VN_2025_03_26, "basic/lifecycle#stdio"), REF(MC_VN_2025_06_18, "basic/lifecycle#stdio"),
              REF(MC_VN_2025_11_25, "basic/lifecycle#stdio"),
              REFQL(MC_VN_2026_07_28, "basic/transports/stdio#shutdown",
                    "Servers SHOULD exit promptly when their standard input is closed or reads "
                    "return end-of-file.",
                    MC_LEVEL_SHOULD)},
     .interpretation = "The shutdown sequence is the client's SHOULD: the harness closes stdin, "
                       "waits (MC_SHUTDOWN_STDIN_GRACE_MS), sends SIGTERM, waits, then SIGKILL. "
                       "Up to 2025-11-25 a server that outlives stdin EOF (or SIGTERM) breaks no "
                       "rule of its own and is reported as an observation; from 2026-07-28 the "
                       "stdio page asks the server to exit promptly, and one still running a "
                       "second after its stdin closed did not. Reported once per run at each "
                       "of the two levels; later scenarios of that level skip the grace "
                       "periods."},
    {.check = "wire/null-id-only-for-unreadable-requests",
     .level = MC_LEVEL_MUST,
     .quote = Q_RESPONSE_ID,
     .refs = {REF(MC_VN_2024_11_05, "basic/messages#responses"),
              REF(MC_VN_2025_03_26, "basic#responses"), REF(MC_VN_2025_06_18, "basic#responses"),
              REFQ(MC_VN_2025_11_25, "basic#responses", Q_RESPONSE_ID_2511),
              REFQ(MC_VN_2026_07_28, "basic#responses", Q_RESPONSE_ID_2511)},
     .interpretation = "An error response may lack an id (null) only for a line whose id "
                       "could not be read (JSON-RPC 2.0: parse error, invalid request)."},

    /* --- schema: every message against the negotiated version's schema --- */
    {.check = "schema/messages",
     .level = MC_LEVEL_MUST,
     .quote = Q_JSONRPC,
     .refs = REFS_MESSAGES,
     .interpretation = "The envelope and error objects validate against the schema's "
                       "JSON-RPC definitions of the negotiated version."},
    {.check = "schema/lifecycle",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: the initialize result and the capability "
                                      "types (basic/lifecycle#initialization)."},
    {.check = "schema/ping",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: ping requests and their results "
                                      "(basic/utilities/ping)."},
    {.check = "schema/progress",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: ProgressNotification "
                                      "(basic/utilities/progress)."},
    {.check = "schema/cancellation",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: CancelledNotification "
                                      "(basic/utilities/cancellation)."},
    {.check = "schema/resources",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: the resource messages and data types "
                                      "(Resource, ResourceTemplate, TextResourceContents, "
                                      "BlobResourceContents, Annotations; "
                                      "server/resources#data-types)."},
    {.check = "schema/prompts",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: the prompt messages and data types (Prompt, "
                                      "PromptArgument, PromptMessage, content blocks; "
                                      "server/prompts#data-types)."},
    {.check = "schema/tools",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: the tool messages and data types (Tool, "
                                      "CallToolResult, content blocks; server/tools#data-types)."},
    {.check = "schema/logging",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: LoggingLevel and LoggingMessageNotification "
                                      "(server/utilities/logging#log-levels)."},
    {.check = "schema/completion",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: CompleteResult, at most 100 values "
                                      "(server/utilities/completion)."},
    {.check = "schema/pagination",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: nextCursor, when present, is a string "
                                      "(server/utilities/pagination#response-format)."},
    {.check = "schema/elicitation",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: ElicitRequest, its requested schema a flat "
                                      "object of primitive properties "
                                      "(client/elicitation#requested-schema)."},
    {.check = "schema/sampling",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: CreateMessageRequest (client/sampling)."},
    {.check = "schema/roots",
     .level = MC_LEVEL_MUST,
     .quote = Q_STDOUT,
     .refs = REFS_STDIO,
     .interpretation = SCHEMA_READING "Here: ListRootsRequest (client/roots)."},

    /* --- capabilities and lifecycle --- */
    {.check = "wire/negotiated-capabilities",
     .level = MC_LEVEL_MUST,
     .quote = "Both parties MUST: … Only use capabilities that were successfully negotiated",
     .refs = {REFQL(MC_VN_2024_11_05, "basic/lifecycle#operation", Q_NEGOTIATED_2503, MC_LEVEL_SHOULD),
              REFQL(MC_VN_2025_03_26, "basic/lifecycle#operation", Q_NEGOTIATED_2503, MC_LEVEL_SHOULD),
              REF(MC_VN_2025_06_18, "basic/lifecycle#operation"),
              REF(MC_VN_2025_11_25, "basic/lifecycle#operation")},
     .interpretation = "The server sends list_changed only with <feature>.listChanged, "
                       "resources/updated only with resources.subscribe, and elicitation, "
                       "sampling and roots requests only to a client that declared them. "
                       "At 2025-03-26 (and before) the sentence says SHOULD: a break is a "
                       "warning there."},
    {.check = "wire/elicitation-mode",
     .level = MC_LEVEL_MUST,
     .quote = "For backwards compatibility, an empty capabilities object is equivalent to "
              "declaring support for form mode only: … Servers MUST NOT send elicitation "
              "requests with modes that are not supported by the client.",
     .refs = {REF(MC_VN_2025_11_25, "client/elicitation#capabilities"),
              REF(MC_VN_2026_07_28, "client/elicitation#capabilities")}},
    {.check = "wire/requests-before-initialized",
     .level = MC_LEVEL_SHOULD,
     .quote = "The server SHOULD NOT send requests other than pings and logging before "
              "receiving the initialized notification.",
     .refs = {REF(MC_VN_2024_11_05, "basic/lifecycle#initialization"),
              REF(MC_VN_2025_03_26, "basic/lifecycle#initialization"),
              REF(MC_VN_2025_06_18, "basic/lifecycle#initialization"),
              REF(MC_VN_2025_11_25, "basic/lifecycle#initialization")}},
    {.check = "wire/resource-updated-subscribed",
     .level = MC_LEVEL_INFO,
     .quote = "The protocol supports optional subscriptions to resource changes. Clients can "
              "subscribe to specific resources and receive notifications when they change:",
     .refs = {REF(MC_VN_2024_11_05, "server/resources#subscriptions"),
              REF(MC_VN_2025_03_26, "server/resources#subscriptions"),
              REF(MC_VN_2025_06_18, "server/resources#subscriptions"),
              REF(MC_VN_2025_11_25, "server/resources#subscriptions")},
     .interpretation = "notifications/resources/updated comes only for URIs the client "
                       "subscribed to and has not unsubscribed from. The page describes the "
                       "flow without a keyword, so this is a note, never a failure."},
    {.check = "wire/log-level",
     .level = MC_LEVEL_MAY,
     .quote = "To configure the minimum log level, clients MAY send a logging/setLevel request:",
     .refs = {REF(MC_VN_2024_11_05, "server/utilities/logging#setting-log-level"),
              REF(MC_VN_2025_03_26, "server/utilities/logging#setting-log-level"),
              REF(MC_VN_2025_06_18, "server/utilities/logging#setting-log-level"),
              REF(MC_VN_2025_11_25, "server/utilities/logging#setting-log-level")},
     .interpretation = "After logging/setLevel the level is a minimum: no notifications/message "
                       "below it. The keyword binds the client (MAY); no sentence gives the "
                       "server's side a keyword, so a message below the level is INFO."},
    {.check = "wire/logging-capability",
     .level = MC_LEVEL_MUST,
     .quote = "Servers that emit log message notifications MUST declare the logging capability:",
     .refs = {REF(MC_VN_2024_11_05, "server/utilities/logging#capabilities"),
              REF(MC_VN_2025_03_26, "server/utilities/logging#capabilities"),
              REF(MC_VN_2025_06_18, "server/utilities/logging#capabilities"),
              REF(MC_VN_2025_11_25, "server/utilities/logging#capabilities"),
              REF(MC_VN_2026_07_28, "server/utilities/logging#capabilities")}},
    /* --- the stateless protocol (2026-07-28) --- */
    {.check = "wire/result-type",
     .level = MC_LEVEL_MUST,
     .quote = "The result MUST include a resultType field to indicate the type of the result. "
              "… The set of supported ResultType values MUST be created from the set defined "
              "in the core protocol and include any additional values of supported extensions "
              "that are advertised via capabilities.",
     .refs = {REF(MC_VN_2026_07_28, "basic#result-responses")},
     .interpretation = "Every result carries a string resultType, and one the client knows: "
                       "\"complete\" or \"input_required\" (an unrecognized value \"MUST be "
                       "considered invalid\", basic#resulttype; no extension is negotiated). "
                       "Judged on the answers to requests whose _meta names a stateless "
                       "version: a server of both eras \"MAY implement both behaviors\" "
                       "(basic/versioning), so a request without one may be served as a "
                       "legacy request, whose result has no resultType."},
    {.check = "wire/input-required-methods",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST NOT send InputRequiredResult responses on any other client requests.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/mrtr#supported-requests")},
     .interpretation = "Only tools/call, prompts/get and resources/read, the rows of the page's "
                       "table, may be answered with resultType \"input_required\"."},
    {.check = "wire/input-required-shape",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST include at least one of inputRequests or requestState in every "
              "InputRequiredResult response.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/mrtr#server-requirements-basic-workflow")}},
    {.check = "wire/input-requests-declared",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST NOT send an inputRequests that the client has not declared support "
              "for in its capabilities. For example, if a client does not declare support for "
              "elicitation, the server MUST NOT include any elicitation/create requests in the "
              "inputRequests field.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/mrtr#server-requirements-basic-workflow")},
     .interpretation = "An elicitation/create, sampling/createMessage or roots/list input "
                       "request needs that capability in the clientCapabilities of the request "
                       "it answers."},
    {.check = "wire/input-requests-kind",
     .level = MC_LEVEL_MUST,
     .quote = "inputRequests values are request objects that MUST be one of ElicitRequest, "
              "CreateMessageRequest, or ListRootsRequest",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/mrtr#server-requirements-basic-workflow")},
     .interpretation = "Each value of an InputRequiredResult's inputRequests names the method "
                       "elicitation/create, sampling/createMessage or roots/list (the shape of "
                       "its params is the schema checks' matter)."},
    {.check = "wire/input-request-keys-unique",
     .level = MC_LEVEL_MUST,
     .quote = "inputRequests keys are server assigned identifiers and MUST be unique within the "
              "scope of the request.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/mrtr#server-requirements-basic-workflow")},
     .interpretation = "Within one InputRequiredResult no key of inputRequests is written twice "
                       "(a JSON parser keeps one of them, so the raw text is read; names are "
                       "compared as written). Whether a later round of the same request may "
                       "reuse an earlier round's key the page does not settle: it is not "
                       "judged."},
    {.check = "wire/no-server-requests",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST NOT initiate JSON-RPC requests, and clients do not send JSON-RPC "
              "responses.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns")},
     .interpretation = "In a stateless session no message of the server has a method and an "
                       "id: what it needs from the client comes as an InputRequiredResult. Not "
                       "judged while a request that named no stateless version is in progress, "
                       "or once the server accepted a legacy initialize (a server of both eras "
                       "\"MAY implement both behaviors\", basic/versioning)."},
    {.check = "wire/stdio-no-server-requests",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT write JSON-RPC _requests_ to stdout.",
     .refs = {REF(MC_VN_2026_07_28, "basic/transports/stdio#receiving-messages")},
     .interpretation = "Over stdio, in a stateless session, no line the server writes is a "
                       "message with a method and an id; not judged where "
                       "wire/no-server-requests is not (a legacy request in progress, a legacy "
                       "initialize accepted). Over HTTP the answers' streams are judged by "
                       "http/stateless-no-server-request."},
    {.check = "wire/cancelled-listen-only",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST NOT send notifications/cancelled for any other purpose. … "
              "Cancellation notifications MUST only reference requests that: … Were previously "
              "issued by the client … Are believed to still be in-progress … Server-sent "
              "cancellation notifications MUST reference a subscriptions/listen request, to "
              "terminate that subscription stream",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/cancellation#behavior-requirements")},
     .interpretation = "A notifications/cancelled from the server names, in requestId, a "
                       "subscriptions/listen request the client sent and that is not answered "
                       "yet. Not judged while a request that named no stateless version is in "
                       "progress (a legacy session's server cancels requests of its own)."},
    {.check = "wire/error-code-outside-reserved",
     .level = MC_LEVEL_SHOULD,
     .quote = "new implementations SHOULD NOT use codes from this sub-range at all. … New error "
              "codes for purposes not defined by this specification SHOULD be allocated outside "
              "the JSON-RPC reserved range (-32768 to -32000)",
     .refs = {REF(MC_VN_2026_07_28, "basic#error-codes")},
     .interpretation = "An error answering a request naming 2026-07-28 carries no code of the "
                       "JSON-RPC reserved range but JSON-RPC's own (-32700, -32600 to -32603) "
                       "and those the MCP sub-range rule judges (wire/error-code-reserved): "
                       "neither one of the legacy sub-range (-32019 to -32000; -32002 is the "
                       "MUST's) nor one below -32099. A server implementing 2026-07-28 is read "
                       "as a new implementation, and a code it emits as one it allocated."},
    {.check = "wire/error-code-meaning",
     .level = MC_LEVEL_MUST,
     .quote = "MUST use defined codes only with their specified meanings.",
     .refs = {REF(MC_VN_2026_07_28, "basic#error-codes")},
     .interpretation = "An error answering a request that named 2026-07-28 uses -32022 "
                       "(UnsupportedProtocolVersion) only for a version the server does not "
                       "support: not when its data.supported lists the version the request "
                       "named; and -32021 (MissingRequiredClientCapability) only for "
                       "capabilities the request did not declare: not when every member of "
                       "data.requiredCapabilities (recursively) is in the request's "
                       "clientCapabilities. The meaning of -32020 (HeaderMismatch) is the "
                       "HTTP header checks' matter."},
    {.check = "wire/error-code-reserved",
     .level = MC_LEVEL_MUST,
     .quote = "Implementations MUST NOT emit any code from this sub-range that is not defined by "
              "this specification … Implementations of this protocol version MUST NOT emit these "
              "codes: … -32002 — resource not found … -32042 — URL elicitation required",
     .refs = {REF(MC_VN_2026_07_28, "basic#error-codes")},
     .interpretation = "An error answering a request naming 2026-07-28 has no code of -32099.."
                       "-32020 but -32020, -32021 and -32022, nor -32002 or -32042 (a defined "
                       "code's meaning is judged by the checks of the rule defining it)."},
    {.check = "wire/extension-id-format",
     .level = MC_LEVEL_MUST,
     .quote = "Extension identifiers MUST follow the _meta key naming rules, with a mandatory "
              "prefix.",
     .refs = {REF(MC_VN_2026_07_28, "basic/versioning#extension-negotiation")},
     .interpretation = "Every key of capabilities.extensions in a result (server/discover's) "
                       "has a prefix and keeps the key name format as wire/meta-key-format "
                       "reads it."},
    {.check = "wire/meta-key-format",
     .level = MC_LEVEL_MUST,
     .quote = "If specified, MUST be a series of labels separated by dots (.), followed by a slash "
              "(/). … Labels MUST start with a letter and end with a letter or digit; interior "
              "characters can be letters, digits, or hyphens (-). … Unless empty, MUST begin and "
              "end with an alphanumeric character ([a-z0-9A-Z]).",
     .refs = {REF(MC_VN_2025_06_18, "basic#_meta"), REF(MC_VN_2025_11_25, "basic#_meta"),
              REF(MC_VN_2026_07_28, "basic#_meta")},
     .interpretation = "Every key of the _meta of a server message's result or params, and of "
                       "the objects in their arrays (tools, content blocks, resources...), "
                       "has the key name format: the prefix, up to the first slash, is labels "
                       "separated by dots, each a letter first, a letter or digit last and "
                       "letters, digits or hyphens between; the name after it holds no slash "
                       "and, unless empty, begins and ends with a letter or digit. The "
                       "characters inside a name are not judged (the sentence listing them is "
                       "a MAY), nor deeper _meta members, which may be data of the server's "
                       "own (a tool's schema or structured content)."},
    {.check = "wire/meta-trace-context",
     .level = MC_LEVEL_MUST,
     .quote = "When present, their values MUST follow W3C Trace Context and W3C Baggage formats "
              "respectively.",
     .refs = {REF(MC_VN_2026_07_28, "basic#_meta")},
     .interpretation = "In the _meta objects wire/meta-key-format judges, traceparent is a "
                       "string of lower-case hex version-traceid-parentid-flags (2, 32, 16 and "
                       "2 digits; version not ff, neither id all zeros; nothing after the flags "
                       "at version 00); tracestate and baggage are strings of printable ASCII "
                       "whose comma-separated members each hold a key and a \"=\" (a value over "
                       "8192 bytes is not judged). The grammar of keys and values inside a "
                       "member is not judged."},
    {.check = "wire/result-server-info",
     .level = MC_LEVEL_SHOULD,
     .quote = "Servers SHOULD include the following io.modelcontextprotocol/* field in every "
              "result's _meta, unless specifically configured not to do so, to identify "
              "themselves without relying on any prior connection state:",
     .refs = {REF(MC_VN_2026_07_28, "basic#_meta")},
     .interpretation = "Every result answering a request that named 2026-07-28 carries an "
                       "object at _meta[\"io.modelcontextprotocol/serverInfo\"] (the "
                       "Implementation the table below the sentence names). A server configured "
                       "not to cannot be told apart: the level stays the sentence's SHOULD."},
    {.check = "wire/log-per-request",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT emit notifications/message for a request that does not "
              "include this field.",
     .refs = {REF(MC_VN_2026_07_28, "server/utilities/logging#per-request-log-level")},
     .interpretation = "On stdio every stream shares one channel: a notifications/message is "
                       "in order only while a request that set io.modelcontextprotocol/logLevel "
                       "is still unanswered. Not judged while a request that named no stateless "
                       "version is unanswered, or once the server accepted a legacy initialize: "
                       "a server of both eras \"MAY implement both behaviors\" "
                       "(basic/versioning), and the message may be that legacy session's."},
    {.check = "wire/listen-opted-in",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT send notification types the client has not explicitly "
              "requested.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/subscriptions#opening-a-stream")},
     .interpretation = "A list_changed or resources/updated notification names, in "
                       "_meta.io.modelcontextprotocol/subscriptionId, a subscriptions/listen "
                       "request whose notifications filter opted in to its type (for "
                       "resources/updated: to its uri). An untagged one is not judged while a "
                       "request that named no stateless version is unanswered, or once the "
                       "server accepted a legacy initialize (a server of both eras \"MAY "
                       "implement both behaviors\", basic/versioning)."},
    {.check = "wire/listen-ack-first",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST send notifications/subscriptions/acknowledged as the first "
              "message carrying the subscription's ID in _meta under "
              "io.modelcontextprotocol/subscriptionId, and MUST NOT send any notification on "
              "the subscription before it.",
     .refs = {REF(MC_VN_2026_07_28, "basic/patterns/subscriptions#acknowledgment")}},
    {.check = "wire/progress-increases",
     .level = MC_LEVEL_MUST,
     .quote = "The progress value MUST increase with each notification, even if the total is "
              "unknown.",
     .refs = {REF(MC_VN_2024_11_05, "basic/utilities/progress#progress-flow"),
              REF(MC_VN_2025_03_26, "basic/utilities/progress#progress-flow"),
              REF(MC_VN_2025_06_18, "basic/utilities/progress#progress-flow"),
              REF(MC_VN_2025_11_25, "basic/utilities/progress#progress-flow"),
              REF(MC_VN_2026_07_28, "basic/patterns/progress#progress-flow")}},
    {.check = "wire/progress-active-token",
     .level = MC_LEVEL_MUST,
     .quote = "Progress notifications MUST only reference tokens that: … Were provided in an "
              "active request … Are associated with an in-progress operation",
     .refs = {REF(MC_VN_2024_11_05, "basic/utilities/progress#behavior-requirements"),
              REF(MC_VN_2025_03_26, "basic/utilities/progress#behavior-requirements"),
              REF(MC_VN_2025_06_18, "basic/utilities/progress#behavior-requirements"),
              REF(MC_VN_2025_11_25, "basic/utilities/progress#behavior-requirements"),
              REF(MC_VN_2026_07_28, "basic/patterns/progress#behavior-requirements")},
     .interpretation = "A token is active from the request that carries it until that "
                       "request's response."},
    {.check = "wire/progress-token-unique",
     .level = MC_LEVEL_MUST,
     .quote = "Progress tokens can be chosen by the sender using any means, but MUST be unique "
              "across all active requests.",
     .refs = {REF(MC_VN_2024_11_05, P_FLOW), REF(MC_VN_2025_03_26, P_FLOW),
              REF(MC_VN_2025_06_18, P_FLOW), REF(MC_VN_2025_11_25, P_FLOW)},
     .interpretation = "A server is the sender of its own requests to the client: the "
                       "progressToken in the _meta of one differs from that of every other server "
                       "request the client has not answered nor the server cancelled. Judged only "
                       "while another is open (a scenario holds the client's answers back)."},
    {.check = "wire/server-alive",
     .level = MC_LEVEL_MAY,
     .quote = "The server MAY initiate shutdown by closing its output stream to the client and "
              "exiting.",
     .refs = {REF(MC_VN_2024_11_05, "basic/lifecycle#stdio"),
              REF(MC_VN_2025_03_26, "basic/lifecycle#stdio"), REF(MC_VN_2025_06_18, "basic/lifecycle#stdio"),
              REF(MC_VN_2025_11_25, "basic/lifecycle#stdio"),
              REF(MC_VN_2026_07_28, "basic/transports/stdio#shutdown")},
     .interpretation = "A server that exits while the client still talks to it used this "
                       "MAY: noted as INFO; the requests left unanswered report their own "
                       "checks."},

    /* --- the pagination walk (paginate steps) --- */
    {.check = "pagination/terminates",
     .level = MC_LEVEL_SHOULD,
     .quote = Q_STABLE_CURSORS,
     .refs = REFS_PAGINATION,
     .interpretation = "A cursor the server issued leads on: following nextCursor reaches a "
                       "page without one within max_pages (default 100), and no page of the "
                       "walk is an error. A cursor that never advances, or that the server "
                       "itself rejects, is not a stable cursor."},
    {.check = "pagination/no-duplicates",
     .level = MC_LEVEL_SHOULD,
     .quote = Q_STABLE_CURSORS,
     .refs = REFS_PAGINATION,
     .interpretation = "A stable cursor marks a position: one walk of an unchanged list "
                       "yields each item once."},
    {.check = "pagination/stable",
     .level = MC_LEVEL_SHOULD,
     .quote = Q_STABLE_CURSORS,
     .refs = REFS_PAGINATION,
     .interpretation = "A stable cursor keeps naming the position it was issued for, so "
                       "walking the same unchanged list twice gives the same items on the same "
                       "pages. The cursor strings themselves may differ between walks (an opaque "
                       "cursor may carry a nonce): only what they designate is compared."},
};


const char *mc_schema_check_for(const char *method, const char *instance_path)
{
    static const struct {
        const char *prefix, *check;
    } by_method[] = {
        {"initialize", "schema/lifecycle"},
        {"notifications/initialized", "schema/lifecycle"},
        {"ping", "schema/ping"},
        {"notifications/progress", "schema/progress"},
        {"notifications/cancelled", "schema/cancellation"},
        {"resources/", "schema/resources"},
        {"notifications/resources/", "schema/resources"},
        {"prompts/", "schema/prompts"},
        {"notifications/prompts/", "schema/prompts"},
        {"tools/", "schema/tools"},
        {"notifications/tools/", "schema/tools"},
        {"logging/", "schema/logging"},
        {"notifications/message", "schema/logging"},
        {"completion/", "schema/completion"},
        {"elicitation/", "schema/elicitation"},
        {"notifications/elicitation/", "schema/elicitation"},
        {"sampling/", "schema/sampling"},
        {"roots/", "schema/roots"},
    };
    size_t i;

    if (instance_path != NULL && strstr(instance_path, "/nextCursor") != NULL)
        return "schema/pagination";
    if (instance_path != NULL && strncmp(instance_path, "/error", 6) == 0)
        return "schema/messages";
    for (i = 0; method != NULL && i < sizeof(by_method) / sizeof(by_method[0]); i++)
        if (strncmp(method, by_method[i].prefix, strlen(by_method[i].prefix)) == 0)
            return by_method[i].check;
    return "schema/messages";
}

const mc_check_def_t *mc_builtin_check(const char *id)
{
    size_t i;

    for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].check, id) == 0)
            return &builtins[i];
    return NULL;
}

int mc_check_is_harness(const char *id)
{
    return id != NULL && strcmp(id, MC_CHECK_HARNESS_STEP) == 0;
}

const mc_check_def_t *mc_builtin_check_at(size_t i)
{
    size_t n = sizeof(builtins) / sizeof(builtins[0]);

    if (i < n)
        return &builtins[i];
    return mc__builtin_http_at(i - n);
}
