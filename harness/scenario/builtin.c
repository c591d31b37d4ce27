#include "scenario/builtin.h"

#include <string.h>

/*
 * The built-in checks. Spec references use the 2025-06-18 pages (the
 * project's baseline); the requirement sentences are quoted from them.
 */
static const mc_builtin_check_t builtins[] = {
    {"wire/stdout-only-messages", MC_LEVEL_MUST, "2025-06-18/basic/transports#stdio",
     "The server MUST NOT write anything to its stdout that is not a valid MCP message."},
    {"wire/utf8", MC_LEVEL_MUST, "2025-06-18/basic/transports",
     "JSON-RPC messages MUST be UTF-8 encoded."},
    {"wire/newline-delimited", MC_LEVEL_SHOULD, "2025-06-18/basic/transports#stdio",
     "Messages are delimited by newlines (a bare \\n; empty lines and \\r\\n are tolerated "
     "but are not messages)."},
    {"wire/message-size", MC_LEVEL_MUST, "2025-06-18/basic/transports#stdio",
     "The server MUST NOT write anything to its stdout that is not a valid MCP message (a "
     "line over the harness's size limit cannot be judged)."},
    {"wire/jsonrpc-envelope", MC_LEVEL_MUST, "2025-06-18/basic/index#messages",
     "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 "
     "specification."},
    {"wire/no-batch", MC_LEVEL_MUST, "2025-06-18/basic/transports#stdio",
     "Messages are individual JSON-RPC requests, notifications, or responses (JSON-RPC "
     "batching was removed in 2025-06-18)."},
    {"wire/response-id", MC_LEVEL_MUST, "2025-06-18/basic/index#responses",
     "Responses MUST include the same ID as the request they correspond to."},
    {"wire/single-response", MC_LEVEL_MUST, "2025-06-18/basic/index#responses",
     "A request gets exactly one response: a second response, or a response to an "
     "abandoned request id, answers nothing."},
    {"wire/no-response-to-notification", MC_LEVEL_MUST, "2025-06-18/basic/index#notifications",
     "Notifications are sent as a one-way message. The receiver MUST NOT send a response."},
    {"wire/server-request-id-unique", MC_LEVEL_MUST, "2025-06-18/basic/index#requests",
     "The request ID MUST NOT have been previously used by the requestor within the same "
     "session."},
    {"lifecycle/shutdown/stdio", MC_LEVEL_MAY, "2025-06-18/basic/lifecycle#stdio",
     "For the stdio transport, the client SHOULD initiate shutdown by: First, closing the input "
     "stream to the child process (the server)"},
    {"wire/null-id-only-for-unreadable-requests", MC_LEVEL_MUST,
     "2025-06-18/basic/index#responses",
     "Responses MUST include the same ID as the request they correspond to; an error "
     "response may omit the id (null) only when the request's id could not be read."},
    {"schema/messages", MC_LEVEL_MUST, "2025-06-18/basic/index#messages",
     "Every message conforms to the protocol's schema (JSON-RPC envelope, error objects) for "
     "the negotiated version."},
    {"schema/lifecycle", MC_LEVEL_MUST, "2025-06-18/basic/lifecycle#initialization",
     "The initialize exchange conforms to the schema's InitializeResult and capability types."},
    {"schema/ping", MC_LEVEL_MUST, "2025-06-18/basic/utilities/ping#message-format",
     "Ping messages conform to the schema."},
    {"schema/progress", MC_LEVEL_MUST, "2025-06-18/basic/utilities/progress#progress-flow",
     "Progress notifications conform to the schema's ProgressNotification."},
    {"schema/cancellation", MC_LEVEL_MUST,
     "2025-06-18/basic/utilities/cancellation#cancellation-flow",
     "Cancellation notifications conform to the schema's CancelledNotification."},
    {"schema/resources", MC_LEVEL_MUST, "2025-06-18/server/resources#data-types",
     "Resource messages conform to the schema's data types (Resource, ResourceTemplate, "
     "TextResourceContents, BlobResourceContents, Annotations)."},
    {"schema/prompts", MC_LEVEL_MUST, "2025-06-18/server/prompts#data-types",
     "Prompt messages conform to the schema's data types (Prompt, PromptArgument, "
     "PromptMessage, content blocks)."},
    {"schema/tools", MC_LEVEL_MUST, "2025-06-18/server/tools#data-types",
     "Tool messages conform to the schema's data types (Tool, CallToolResult, content "
     "blocks)."},
    {"schema/logging", MC_LEVEL_MUST, "2025-06-18/server/utilities/logging#log-levels",
     "Logging messages conform to the schema (LoggingLevel, LoggingMessageNotification)."},
    {"schema/completion", MC_LEVEL_MUST, "2025-06-18/server/utilities/completion#data-types",
     "Completion messages conform to the schema (CompleteResult: at most 100 values)."},
    {"schema/pagination", MC_LEVEL_MUST, "2025-06-18/server/utilities/pagination#response-format",
     "Paginated results conform to the schema: nextCursor, when present, is a string."},
    {"schema/elicitation", MC_LEVEL_MUST, "2025-06-18/client/elicitation#request-schema",
     "Elicitation requests conform to the schema: a flat object of primitive properties."},
    {"schema/sampling", MC_LEVEL_MUST, "2025-06-18/client/sampling#data-types",
     "Sampling requests conform to the schema's CreateMessageRequest."},
    {"schema/roots", MC_LEVEL_MUST, "2025-06-18/client/roots#data-types",
     "Roots requests conform to the schema's ListRootsRequest."},
    {"wire/negotiated-capabilities", MC_LEVEL_MUST, "2025-06-18/basic/lifecycle#operation",
     "Both parties MUST only use capabilities that were successfully negotiated."},
    {"wire/elicitation-mode", MC_LEVEL_MUST, "2025-11-25/client/elicitation#capabilities",
     "Servers MUST NOT send elicitation requests with modes that are not supported by the "
     "client (an empty elicitation capability means form mode only)."},
    {"wire/requests-before-initialized", MC_LEVEL_SHOULD, "2025-06-18/basic/lifecycle#initialization",
     "The server SHOULD NOT send requests other than pings and logging before receiving the "
     "initialized notification."},
    {"wire/resource-updated-subscribed", MC_LEVEL_SHOULD,
     "2025-06-18/server/resources#subscriptions",
     "The server sends notifications/resources/updated only for resources the client has "
     "subscribed to and not unsubscribed from."},
    {"wire/log-level", MC_LEVEL_SHOULD, "2025-06-18/server/utilities/logging#setting-log-level",
     "After logging/setLevel, the level is the minimum: the server sends no "
     "notifications/message below it."},
    {"wire/logging-capability", MC_LEVEL_MUST, "2025-06-18/server/utilities/logging#capabilities",
     "Servers that emit log message notifications MUST declare the logging capability."},
    {"wire/progress-increases", MC_LEVEL_MUST,
     "2025-06-18/basic/utilities/progress#progress-flow",
     "The progress value MUST increase with each notification, even if the total is "
     "unknown."},
    {"wire/progress-active-token", MC_LEVEL_MUST,
     "2025-06-18/basic/utilities/progress#behavior-requirements",
     "Progress notifications MUST only reference tokens that were provided in an active "
     "request and are associated with an in-progress operation."},
    {"wire/server-alive", MC_LEVEL_MUST, "2025-06-18/basic/lifecycle#operation",
     "The server keeps serving the session: it does not exit or stop answering while the "
     "client still talks to it."},
    {"pagination/terminates", MC_LEVEL_MUST, "2025-06-18/server/utilities/pagination#pagination-flow",
     "A paginated list ends: walking nextCursor reaches a page without one."},
    {"pagination/no-duplicates", MC_LEVEL_SHOULD,
     "2025-06-18/server/utilities/pagination#implementation-guidelines",
     "Servers SHOULD provide stable cursors: a walk of a list yields each item once."},
    {"pagination/stable", MC_LEVEL_SHOULD,
     "2025-06-18/server/utilities/pagination#implementation-guidelines",
     "Servers SHOULD provide stable cursors: walking the same unchanged list twice gives the "
     "same pages."},
    {"harness/step", MC_LEVEL_MUST, "2025-06-18/basic/index#messages",
     "A scenario step could be carried out (its request was answered in time and its "
     "variables resolved)."},
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

const mc_builtin_check_t *mc_builtin_check(const char *id)
{
    size_t i;

    for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].id, id) == 0)
            return &builtins[i];
    return NULL;
}

const mc_builtin_check_t *mc_builtin_check_at(size_t i)
{
    return i < sizeof(builtins) / sizeof(builtins[0]) ? &builtins[i] : NULL;
}

int mc_check_id_ok(const char *id)
{
    const char *p;
    int slash = 0;

    if (id == NULL || *id == '\0' || *id == '/')
        return 0;
    for (p = id; *p != '\0'; p++) {
        if (*p == '/')
            slash = 1;
        else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
                   *p == '_' || *p == '.'))
            return 0;
    }
    return slash && p[-1] != '/';
}

int mc_version_name_ok(const char *v)
{
    int i;

    for (i = 0; i < 10; i++) {
        char c = v[i];
        if (i == 4 || i == 7) {
            if (c != '-')
                return 0;
        } else if (c < '0' || c > '9') {
            return 0;
        }
    }
    return v[10] == '\0';
}

int mc_spec_ref_ok(const char *ref)
{
    char v[11];
    const char *p;

    if (strlen(ref) < 12 || ref[10] != '/')
        return 0;
    memcpy(v, ref, 10);
    v[10] = '\0';
    if (!mc_version_name_ok(v))
        return 0;
    for (p = ref + 11; *p != '\0'; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n')
            return 0;
    return ref[11] != '\0' && ref[11] != '#';
}
