/*
 * catches.c - what must catch each violation switch, and where.
 *
 * For every switch of inject.h: the ids of the checks whose finding proves
 * it caught (a FAIL or WARN; an INFO for a switch of level INFO), and the
 * scenarios that exercise the broken rule, as `mcpcheck run --filter` globs.
 * A finding of any other check does not count. The entries were read off
 * runs of the whole scenario library with each switch on; the test
 * scenario/inject-caught runs just these scenarios and holds every entry.
 */
#include <stddef.h>

#include "refserver/inject.h"

typedef struct rs_bug_catch {
    rs_bug_t bug;
    const char *checks; /* check ids, comma-separated */
    const char *where;  /* scenario id globs, comma-separated */
} rs_bug_catch_t;

static const rs_bug_catch_t rs_catches[] = {
    {RS_BUG_ENV_JSONRPC_VERSION, "wire/jsonrpc-envelope", "lifecycle/ping"},
    {RS_BUG_ENV_ID_MISMATCH, "wire/response-id", "lifecycle/ping"},
    {RS_BUG_ENV_ID_TYPE, "wire/response-id", "lifecycle/ping"},
    {RS_BUG_ENV_NO_ID, "wire/jsonrpc-envelope", "lifecycle/ping"},
    {RS_BUG_ENV_RESULT_AND_ERROR, "jsonrpc/parse-error/code,wire/jsonrpc-envelope",
     "jsonrpc/parse-error"},
    {RS_BUG_ENV_ERROR_CODE_STRING, "jsonrpc/parse-error/code,wire/jsonrpc-envelope",
     "jsonrpc/parse-error"},
    {RS_BUG_ENV_ERROR_NO_MESSAGE, "wire/jsonrpc-envelope", "discovery/prompts-get-missing-each"},
    {RS_BUG_NOTIFICATION_ANSWERED, "wire/null-id-only-for-unreadable-requests", "lifecycle/ping"},
    {RS_BUG_DUPLICATE_RESPONSE, "wire/single-response", "lifecycle/ping"},
    {RS_BUG_STDOUT_BANNER, "wire/stdout-only-messages", "cancellation/after-completion"},
    {RS_BUG_EMBEDDED_NEWLINE, "wire/no-embedded-newline,wire/stdout-only-messages", "roots/list"},
    {RS_BUG_INVALID_UTF8, "wire/utf8", "resources/read-text"},
    {RS_BUG_PARSE_ERROR_CODE, "jsonrpc/parse-error/code", "jsonrpc/parse-error"},
    {RS_BUG_METHOD_NOT_FOUND_CODE, "jsonrpc/method-not-found", "jsonrpc/method-not-found"},
    {RS_BUG_INVALID_REQUEST_SERVED, "jsonrpc/invalid-request/version-missing",
     "jsonrpc/invalid-request-jsonrpc-missing"},
    {RS_BUG_BATCH_ANSWERED_WRONGLY, "jsonrpc/batch/answered", "jsonrpc/batch-answered"},
    {RS_BUG_VERSION_NOT_ECHOED, "lifecycle/version/echo", "lifecycle/version-echo"},
    {RS_BUG_VERSION_UNSUPPORTED_ECHOED, "lifecycle/version/counter-offer",
     "lifecycle/version-newer"},
    {RS_BUG_VERSION_COUNTER_OFFER_UNSPOKEN, "lifecycle/version/counter-offer",
     "lifecycle/version-newer"},
    {RS_BUG_INIT_NO_SERVER_INFO, "schema/lifecycle", "roots/list"},
    {RS_BUG_INIT_NO_CAPABILITIES, "schema/lifecycle", "roots/list"},
    {RS_BUG_REQUEST_BEFORE_INITIALIZED, "lifecycle/initialized/server-waits,wire/requests-before-initialized",
     "lifecycle/no-requests-before-initialized"},
    {RS_BUG_TOOLS_LIST_CHANGED_UNDECLARED, "wire/negotiated-capabilities",
     "tools/list-changed-gated"},
    {RS_BUG_PROMPTS_LIST_CHANGED_UNDECLARED, "wire/negotiated-capabilities",
     "prompts/list-changed-gated"},
    {RS_BUG_RESOURCES_LIST_CHANGED_UNDECLARED, "wire/negotiated-capabilities",
     "lifecycle/capability-resources"},
    {RS_BUG_SUBSCRIBE_UNDECLARED, "wire/negotiated-capabilities", "resources/subscribe-undeclared"},
    {RS_BUG_LOGGING_UNDECLARED, "wire/logging-capability", "cancellation/in-flight"},
    {RS_BUG_RESOURCE_NOT_FOUND_CODE, "resources/read/not-found", "resources/read-not-found"},
    {RS_BUG_RESOURCE_NOT_FOUND_EMPTY, "resources/read/not-found", "resources/read-not-found"},
    {RS_BUG_BLOB_NOT_BASE64, "resources/read/blob-base64,schema/resources", "resources/read-blob"},
    {RS_BUG_BLOB_UNPADDED, "resources/read/blob-base64,schema/resources", "resources/read-blob"},
    {RS_BUG_READ_URI_MISMATCH, "schema/resources", "resources/read-template-instance"},
    {RS_BUG_READ_URI_OTHER, "resources/read/uri-matches", "resources/read-text"},
    {RS_BUG_READ_MIMETYPE_DIFFERS, "discovery/resources/read-mimetype",
     "discovery/resources-read-compare"},
    {RS_BUG_READ_TEXT_AND_BLOB, "resources/read/text", "resources/read-text"},
    {RS_BUG_UNSUBSCRIBE_REFUSED, "resources/unsubscribe/result,resources/unsubscribe/stops-updates",
     "resources/unsubscribe"},
    {RS_BUG_RESOURCE_NO_NAME, "schema/resources", "resources/read-blob"},
    {RS_BUG_TEMPLATE_NO_URITEMPLATE, "schema/resources", "resources/templates-item-shape"},
    {RS_BUG_ANNOTATION_PRIORITY_RANGE, "schema/resources", "resources/read-blob"},
    {RS_BUG_PROMPT_UNKNOWN_ACCEPTED, "prompts/get/unknown-name", "prompts/get-unknown-name"},
    {RS_BUG_PROMPT_MISSING_ARG_ACCEPTED, "prompts/get/missing-argument",
     "prompts/get-missing-argument"},
    {RS_BUG_PROMPT_PARTIAL_ARGS_ACCEPTED, "discovery/prompts/get-missing-each",
     "discovery/prompts-get-missing-each"},
    {RS_BUG_PROMPT_UNKNOWN_CODE, "prompts/get/unknown-name", "prompts/get-unknown-name"},
    {RS_BUG_PROMPT_ROLE_INVALID, "schema/prompts", "prompts/get-listed"},
    {RS_BUG_PROMPT_IMAGE_NOT_BASE64, "schema/prompts", "prompts/get-listed"},
    {RS_BUG_TOOL_STRUCTURED_NONCONFORMING, "discovery/tools/structured-conforms",
     "discovery/tools-call-safe"},
    {RS_BUG_TOOL_NO_INPUT_SCHEMA, "schema/tools", "tools/call-text"},
    {RS_BUG_TOOL_CONTENT_NO_TYPE, "schema/tools", "tools/call-text"},
    {RS_BUG_ELICIT_NO_CAP, "elicitation/capability/not-sent,wire/negotiated-capabilities",
     "elicitation/without-capability"},
    {RS_BUG_ELICIT_NESTED_SCHEMA, "schema/elicitation", "elicitation/enums"},
    {RS_BUG_ELICIT_SENSITIVE, "elicitation/form/no-sensitive", "elicitation/form-no-sensitive"},
    {RS_BUG_ELICIT_URL_NO_CAP, "elicitation/capability/mode-url,wire/elicitation-mode",
     "elicitation/url-not-sent-form-only"},
    {RS_BUG_ELICIT_URL_NO_ID, "elicitation/url/params,schema/elicitation", "elicitation/url-mode"},
    {RS_BUG_ELICIT_COMPLETE_WRONG_ID, "elicitation/complete/id", "elicitation/url-complete"},
    {RS_BUG_URL_ERROR_NO_LIST, "elicitation/url-required/list,elicitation/url-required/url-mode",
     "elicitation/url-required-error"},
    {RS_BUG_SAMPLING_NO_CAP, "wire/negotiated-capabilities", "sampling/without-capability"},
    {RS_BUG_ROOTS_NO_CAP, "wire/negotiated-capabilities", "roots/without-capability"},
    {RS_BUG_SERVER_ID_REUSE, "jsonrpc/id/server-unique,wire/server-request-id-unique",
     "jsonrpc/server-request-ids-unique"},
    {RS_BUG_LOG_SETLEVEL_INVALID_ACCEPTED, "logging/setlevel/invalid-level",
     "logging/setlevel-invalid"},
    {RS_BUG_LOG_LEVEL_IGNORED, "logging/filter/minimum,wire/log-level", "logging/filter-error"},
    {RS_BUG_LOG_LEVEL_NOT_IN_ENUM, "schema/logging", "logging/no-secrets"},
    {RS_BUG_LOG_SECRET, "logging/message/no-secrets", "logging/no-secrets"},
    {RS_BUG_LOG_FLOOD, "logging/message/rate-limited", "logging/rate-limited"},
    {RS_BUG_CURSOR_REPEAT, "pagination/terminates", "pagination/walk-tools"},
    {RS_BUG_CURSOR_FOREIGN_ACCEPTED, "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {RS_BUG_CURSOR_GARBAGE_ACCEPTED, "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {RS_BUG_CURSOR_WRONG_CODE, "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {RS_BUG_PAGE_DUPLICATES, "pagination/no-duplicates", "pagination/walk-tools"},
    {RS_BUG_CURSOR_UNSTABLE, "pagination/stable", "pagination/walk-prompts"},
    {RS_BUG_CURSOR_NULL, "schema/pagination", "pagination/walk-tools"},
    {RS_BUG_PROGRESS_NOT_INCREASING, "progress/value/increasing,wire/progress-increases",
     "progress/increasing"},
    {RS_BUG_PROGRESS_AFTER_RESPONSE, "progress/stops-after-completion,wire/progress-active-token",
     "progress/stops-after-response"},
    {RS_BUG_PROGRESS_UNKNOWN_TOKEN, "wire/progress-active-token", "progress/increasing"},
    {RS_BUG_CANCELLED_ANSWERED, "cancellation/in-flight/no-response", "cancellation/in-flight"},
    {RS_BUG_RESULT_TYPE_MISSING, "schema/messages,wire/result-type", "resources/icons"},
    {RS_BUG_DISCOVER_MISSING, "lifecycle/discover/implemented,lifecycle/discover/server-info",
     "lifecycle/discover"},
    {RS_BUG_DISCOVER_LYING, "lifecycle/discover/implemented", "lifecycle/discover"},
    {RS_BUG_LISTEN_NOT_OPTED_IN, "subscriptions/listen/opted-in-only,wire/listen-opted-in",
     "resources/listen-opt-in"},
    {RS_BUG_LOG_WITHOUT_LEVEL, "logging/per-request/none-without-level,wire/log-per-request",
     "logging/per-request-level"},
    {RS_BUG_NOT_FOUND_OLD_CODE, "resources/read/not-found-params",
     "resources/read-not-found-params"},
    {RS_BUG_INPUT_REQUIRED_EMPTY, "roots/mrtr/input-request,wire/input-required-shape",
     "roots/mrtr"},
    {RS_BUG_COMPLETION_TOO_MANY, "schema/completion", "completion/typed-further"},
    {RS_BUG_PING_NOT_EMPTY, "ping/empty-result", "lifecycle/ping"},
    {RS_BUG_PING_IGNORED, "ping/empty-result", "lifecycle/ping"},
    {RS_BUG_SUB_AGAIN_NO_URI, "schema/resources", "resources/subscribe-again"},
    {RS_BUG_LOG_NUMBER_AFTER_CHANGE, "schema/logging", "logging/filter-change"},
    {RS_BUG_COMPLETION_RENARROWED, "schema/completion", "completion/typed-further"},
    {RS_BUG_VERSION_ERROR_LIST_DIFFERS, "lifecycle/version/error-lists-discover-versions",
     "lifecycle/version-lists-agree"},
    {RS_BUG_ERROR_CODE_UNDEFINED, "wire/error-code-reserved", "jsonrpc/method-not-found"},
    {RS_BUG_LOG_META_LEVEL_INVALID_ACCEPTED, "logging/per-request/invalid-level",
     "logging/per-request-invalid-level"},
    {RS_BUG_RESOURCES_CAP_UNDECLARED, "resources/capability/declared",
     "resources/capability-declared"},
    {RS_BUG_TOOLS_CAP_UNDECLARED, "tools/capability/declared", "tools/capability-declared"},
    {RS_BUG_CACHE_TTL_NEGATIVE, "caching/ttl-non-negative", "resources/cacheable-hints"},
    {RS_BUG_TOOL_STRUCTURED_TEXT_MISMATCH, "tools/call/structured-text-copy",
     "tools/call-structured-content"},
};

static const rs_bug_catch_t *find(rs_bug_t bug)
{
    size_t i;

    for (i = 0; i < sizeof(rs_catches) / sizeof(rs_catches[0]); i++)
        if (rs_catches[i].bug == bug)
            return &rs_catches[i];
    return NULL;
}

const char *mc__rs_bug_catchers(rs_bug_t bug)
{
    const rs_bug_catch_t *c = find(bug);
    return c != NULL ? c->checks : "";
}

const char *mc__rs_bug_where(rs_bug_t bug)
{
    const rs_bug_catch_t *c = find(bug);
    return c != NULL ? c->where : "";
}
