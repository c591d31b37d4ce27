#include "scenario/builtin.h"

#include <stdio.h>
#include <string.h>

/*
 * The built-in checks. Spec references use the 2025-06-18 pages (the
 * project's baseline); the requirement sentences are quoted from them.
 */
#define REF(version, page) {version, page, NULL}

static const mc_check_def_t builtins[] = {
    {.check = "wire/stdout-only-messages",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT write anything to its stdout that is not a valid MCP message.",
     .refs = {REF("2025-06-18", "basic/transports#stdio")}},
    {.check = "wire/utf8",
     .level = MC_LEVEL_MUST,
     .quote = "JSON-RPC messages MUST be UTF-8 encoded.",
     .refs = {REF("2025-06-18", "basic/transports")}},
    {.check = "wire/newline-delimited",
     .level = MC_LEVEL_SHOULD,
     .quote = "Messages are delimited by newlines (a bare \\n; empty lines and \\r\\n are tolerated "
     "but are not messages).",
     .refs = {REF("2025-06-18", "basic/transports#stdio")}},
    {.check = "wire/message-size",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT write anything to its stdout that is not a valid MCP message (a "
     "line over the harness's size limit cannot be judged).",
     .refs = {REF("2025-06-18", "basic/transports#stdio")}},
    {.check = "wire/jsonrpc-envelope",
     .level = MC_LEVEL_MUST,
     .quote = "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 "
     "specification.",
     .refs = {REF("2025-06-18", "basic/index#messages")}},
    {.check = "wire/no-batch",
     .level = MC_LEVEL_MUST,
     .quote = "Messages are individual JSON-RPC requests, notifications, or responses (JSON-RPC "
     "batching was removed in 2025-06-18).",
     .refs = {REF("2025-06-18", "basic/transports#stdio")}},
    {.check = "wire/response-id",
     .level = MC_LEVEL_MUST,
     .quote = "Responses MUST include the same ID as the request they correspond to.",
     .refs = {REF("2025-06-18", "basic/index#responses")}},
    {.check = "wire/single-response",
     .level = MC_LEVEL_MUST,
     .quote = "A request gets exactly one response: a second response, or a response to an "
     "abandoned request id, answers nothing.",
     .refs = {REF("2025-06-18", "basic/index#responses")}},
    {.check = "wire/no-response-to-notification",
     .level = MC_LEVEL_MUST,
     .quote = "Notifications are sent as a one-way message. The receiver MUST NOT send a response.",
     .refs = {REF("2025-06-18", "basic/index#notifications")}},
    {.check = "wire/null-id-only-for-unreadable-requests",
     .level = MC_LEVEL_MUST,
     .quote = "Responses MUST include the same ID as the request they correspond to; an error "
     "response may omit the id (null) only when the request's id could not be read.",
     .refs = {REF("2025-06-18", "basic/index#responses")}},
    {.check = "schema/messages",
     .level = MC_LEVEL_MUST,
     .quote = "Every message conforms to the protocol's schema (JSON-RPC envelope, error objects) for "
     "the negotiated version.",
     .refs = {REF("2025-06-18", "basic/index#messages")}},
    {.check = "schema/lifecycle",
     .level = MC_LEVEL_MUST,
     .quote = "The initialize exchange conforms to the schema's InitializeResult and capability types.",
     .refs = {REF("2025-06-18", "basic/lifecycle#initialization")}},
    {.check = "schema/ping",
     .level = MC_LEVEL_MUST,
     .quote = "Ping messages conform to the schema.",
     .refs = {REF("2025-06-18", "basic/utilities/ping#message-format")}},
    {.check = "schema/progress",
     .level = MC_LEVEL_MUST,
     .quote = "Progress notifications conform to the schema's ProgressNotification.",
     .refs = {REF("2025-06-18", "basic/utilities/progress#progress-flow")}},
    {.check = "schema/cancellation",
     .level = MC_LEVEL_MUST,
     .quote = "Cancellation notifications conform to the schema's CancelledNotification.",
     .refs = {REF("2025-06-18", "basic/utilities/cancellation#cancellation-flow")}},
    {.check = "schema/resources",
     .level = MC_LEVEL_MUST,
     .quote = "Resource messages conform to the schema's data types (Resource, ResourceTemplate, "
     "TextResourceContents, BlobResourceContents, Annotations).",
     .refs = {REF("2025-06-18", "server/resources#data-types")}},
    {.check = "schema/prompts",
     .level = MC_LEVEL_MUST,
     .quote = "Prompt messages conform to the schema's data types (Prompt, PromptArgument, "
     "PromptMessage, content blocks).",
     .refs = {REF("2025-06-18", "server/prompts#data-types")}},
    {.check = "schema/tools",
     .level = MC_LEVEL_MUST,
     .quote = "Tool messages conform to the schema's data types (Tool, CallToolResult, content "
     "blocks).",
     .refs = {REF("2025-06-18", "server/tools#data-types")}},
    {.check = "schema/logging",
     .level = MC_LEVEL_MUST,
     .quote = "Logging messages conform to the schema (LoggingLevel, LoggingMessageNotification).",
     .refs = {REF("2025-06-18", "server/utilities/logging#log-levels")}},
    {.check = "schema/completion",
     .level = MC_LEVEL_MUST,
     .quote = "Completion messages conform to the schema (CompleteResult: at most 100 values).",
     .refs = {REF("2025-06-18", "server/utilities/completion#data-types")}},
    {.check = "schema/pagination",
     .level = MC_LEVEL_MUST,
     .quote = "Paginated results conform to the schema: nextCursor, when present, is a string.",
     .refs = {REF("2025-06-18", "server/utilities/pagination#response-format")}},
    {.check = "schema/elicitation",
     .level = MC_LEVEL_MUST,
     .quote = "Elicitation requests conform to the schema: a flat object of primitive properties.",
     .refs = {REF("2025-06-18", "client/elicitation#request-schema")}},
    {.check = "schema/sampling",
     .level = MC_LEVEL_MUST,
     .quote = "Sampling requests conform to the schema's CreateMessageRequest.",
     .refs = {REF("2025-06-18", "client/sampling#data-types")}},
    {.check = "schema/roots",
     .level = MC_LEVEL_MUST,
     .quote = "Roots requests conform to the schema's ListRootsRequest.",
     .refs = {REF("2025-06-18", "client/roots#data-types")}},
    {.check = "wire/negotiated-capabilities",
     .level = MC_LEVEL_MUST,
     .quote = "Both parties MUST only use capabilities that were successfully negotiated.",
     .refs = {REF("2025-06-18", "basic/lifecycle#operation")}},
    {.check = "wire/elicitation-mode",
     .level = MC_LEVEL_MUST,
     .quote = "Servers MUST NOT send elicitation requests with modes that are not supported by the "
     "client (an empty elicitation capability means form mode only).",
     .refs = {REF("2025-11-25", "client/elicitation#capabilities")}},
    {.check = "wire/requests-before-initialized",
     .level = MC_LEVEL_SHOULD,
     .quote = "The server SHOULD NOT send requests other than pings and logging before receiving the "
     "initialized notification.",
     .refs = {REF("2025-06-18", "basic/lifecycle#initialization")}},
    {.check = "wire/resource-updated-subscribed",
     .level = MC_LEVEL_SHOULD,
     .quote = "The server sends notifications/resources/updated only for resources the client has "
     "subscribed to and not unsubscribed from.",
     .refs = {REF("2025-06-18", "server/resources#subscriptions")}},
    {.check = "wire/log-level",
     .level = MC_LEVEL_SHOULD,
     .quote = "After logging/setLevel, the level is the minimum: the server sends no "
     "notifications/message below it.",
     .refs = {REF("2025-06-18", "server/utilities/logging#setting-log-level")}},
    {.check = "wire/logging-capability",
     .level = MC_LEVEL_MUST,
     .quote = "Servers that emit log message notifications MUST declare the logging capability.",
     .refs = {REF("2025-06-18", "server/utilities/logging#capabilities")}},
    {.check = "wire/progress-increases",
     .level = MC_LEVEL_MUST,
     .quote = "The progress value MUST increase with each notification, even if the total is "
     "unknown.",
     .refs = {REF("2025-06-18", "basic/utilities/progress#progress-flow")}},
    {.check = "wire/progress-active-token",
     .level = MC_LEVEL_MUST,
     .quote = "Progress notifications MUST only reference tokens that were provided in an active "
     "request and are associated with an in-progress operation.",
     .refs = {REF("2025-06-18", "basic/utilities/progress#behavior-requirements")}},
    {.check = "wire/server-alive",
     .level = MC_LEVEL_MUST,
     .quote = "The server keeps serving the session: it does not exit or stop answering while the "
     "client still talks to it.",
     .refs = {REF("2025-06-18", "basic/lifecycle#operation")}},
    {.check = "pagination/terminates",
     .level = MC_LEVEL_MUST,
     .quote = "A paginated list ends: walking nextCursor reaches a page without one.",
     .refs = {REF("2025-06-18", "server/utilities/pagination#pagination-flow")}},
    {.check = "pagination/no-duplicates",
     .level = MC_LEVEL_SHOULD,
     .quote = "Servers SHOULD provide stable cursors: a walk of a list yields each item once.",
     .refs = {REF("2025-06-18", "server/utilities/pagination#implementation-guidelines")}},
    {.check = "pagination/stable",
     .level = MC_LEVEL_SHOULD,
     .quote = "Servers SHOULD provide stable cursors: walking the same unchanged list twice gives the "
     "same pages.",
     .refs = {REF("2025-06-18", "server/utilities/pagination#implementation-guidelines")}},
    {.check = "harness/step",
     .level = MC_LEVEL_MUST,
     .quote = "A scenario step could be carried out (its request was answered in time and its "
     "variables resolved).",
     .refs = {REF("2025-06-18", "basic/index#messages")}},
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

const mc_check_def_t *mc_builtin_check_at(size_t i)
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

static int is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

unsigned mc_check_keywords(const char *quote)
{
    static const struct {
        const char *word;
        unsigned bit;
    } words[] = {
        {"MUST", MC_KW_MUST},          {"REQUIRED", MC_KW_MUST}, {"SHALL", MC_KW_MUST},
        {"SHOULD", MC_KW_SHOULD},      {"RECOMMENDED", MC_KW_SHOULD},
        {"MAY", MC_KW_MAY},            {"OPTIONAL", MC_KW_MAY},
    };
    unsigned kw = 0;
    const char *p = quote;

    if (quote == NULL)
        return 0;
    while (*p != '\0') {
        const char *start;
        size_t n, i;
        while (*p != '\0' && !is_word_char(*p))
            p++;
        start = p;
        while (is_word_char(*p))
            p++;
        n = (size_t)(p - start);
        for (i = 0; n > 0 && i < sizeof(words) / sizeof(words[0]); i++)
            if (strlen(words[i].word) == n && strncmp(start, words[i].word, n) == 0)
                kw |= words[i].bit;
    }
    return kw;
}

void mc_check_keywords_describe(unsigned kw, char *buf, size_t n)
{
    static const char *const names[] = {"MUST", "SHOULD", "MAY"};
    size_t len = 0, i, k = 0;

    if (n == 0)
        return;
    buf[0] = '\0';
    if (kw == 0) {
        snprintf(buf, n, "no RFC 2119 keyword");
        return;
    }
    for (i = 0; i < 3; i++) {
        int w;
        if (!(kw & (1u << i)))
            continue;
        w = snprintf(buf + len, n - len, "%s%s", k++ > 0 ? " and " : "", names[i]);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

int mc_check_level_fits(mc_level_t level, const char *quote)
{
    unsigned kw = mc_check_keywords(quote);

    if (level == MC_LEVEL_INFO)
        return kw == 0;
    return (kw & (1u << level)) != 0;
}

int mc_check_page_ok(const char *page)
{
    const char *p, *hash = NULL;
    size_t n = page != NULL ? strlen(page) : 0;
    char v[11];

    if (n == 0 || n > MC_CHECK_MAX_PAGE || page[0] == '/' || page[0] == '#')
        return 0;
    if (n > 10 && page[10] == '/') {
        memcpy(v, page, 10);
        v[10] = '\0';
        if (mc_version_name_ok(v))
            return 0; /* the version goes in the key, not the page */
    }
    for (p = page; *p != '\0'; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            return 0;
        if (*p == '#') {
            if (hash != NULL)
                return 0;
            hash = p;
        }
    }
    return hash == NULL || (hash[1] != '\0' && hash[-1] != '/');
}
