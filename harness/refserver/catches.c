/*
 * catches.c - what must catch each violation switch, and where.
 *
 * For every switch, of the handlers (inject.h) and of the Streamable HTTP
 * server (httpserve.h): the ids of the checks whose finding proves it caught
 * (a FAIL or WARN; an INFO for a switch of level INFO), and the scenarios
 * that exercise the broken rule, as `mcpcheck run --filter` globs. A finding
 * of any other check does not count. The entries were read off runs of the
 * whole scenario library with each switch on; the tests scenario/inject-caught
 * and http/library run just these scenarios and hold every entry.
 */
#include <stddef.h>
#include <string.h>

#include "refserver/inject.h"

typedef struct rs_bug_catch {
    const char *name;   /* the switch */
    const char *checks; /* check ids, comma-separated */
    const char *where;  /* scenario id globs, comma-separated */
} rs_bug_catch_t;

static const rs_bug_catch_t rs_catches[] = {
    /* The handlers' switches (inject.h). */
    {"envelope-jsonrpc-version", "wire/jsonrpc-envelope", "lifecycle/ping"},
    {"envelope-id-mismatch", "wire/response-id", "lifecycle/ping"},
    {"envelope-id-type", "wire/response-id", "lifecycle/ping"},
    {"envelope-result-no-id", "wire/jsonrpc-envelope", "lifecycle/ping"},
    {"envelope-result-and-error", "jsonrpc/parse-error/code,wire/jsonrpc-envelope",
     "jsonrpc/parse-error"},
    {"envelope-error-code-string", "jsonrpc/parse-error/code,wire/jsonrpc-envelope",
     "jsonrpc/parse-error"},
    {"envelope-error-no-message", "wire/jsonrpc-envelope", "discovery/prompts-get-missing-each"},
    {"notification-answered", "wire/null-id-only-for-unreadable-requests", "lifecycle/ping"},
    {"duplicate-response", "wire/single-response", "lifecycle/ping"},
    {"stdout-banner", "wire/stdout-only-messages", "cancellation/after-completion"},
    {"embedded-newline", "wire/no-embedded-newline,wire/stdout-only-messages", "roots/list"},
    {"invalid-utf8", "wire/utf8", "resources/read-text"},
    {"parse-error-code", "jsonrpc/parse-error/code", "jsonrpc/parse-error"},
    {"method-not-found-code", "jsonrpc/method-not-found", "jsonrpc/method-not-found"},
    {"invalid-request-served", "jsonrpc/invalid-request/version-missing",
     "jsonrpc/invalid-request-jsonrpc-missing"},
    {"batch-answered-wrongly", "jsonrpc/batch/answered", "jsonrpc/batch-answered"},
    {"version-not-echoed", "lifecycle/version/echo", "lifecycle/version-echo"},
    {"version-unsupported-echoed", "lifecycle/version/counter-offer", "lifecycle/version-newer"},
    {"version-counter-offer-unspoken", "lifecycle/version/counter-offer",
     "lifecycle/version-newer"},
    {"init-no-server-info", "schema/lifecycle", "roots/list"},
    {"init-no-capabilities", "schema/lifecycle", "roots/list"},
    {"request-before-initialized",
     "lifecycle/initialized/server-waits,wire/requests-before-initialized",
     "lifecycle/no-requests-before-initialized"},
    {"tools-list-changed-undeclared", "wire/negotiated-capabilities", "tools/list-changed-gated"},
    {"prompts-list-changed-undeclared", "wire/negotiated-capabilities",
     "prompts/list-changed-gated"},
    {"resources-list-changed-undeclared", "wire/negotiated-capabilities",
     "lifecycle/capability-resources"},
    {"subscribe-undeclared", "wire/negotiated-capabilities", "resources/subscribe-undeclared"},
    {"logging-undeclared", "wire/logging-capability", "cancellation/in-flight"},
    {"resource-not-found-code", "resources/read/not-found", "resources/read-not-found"},
    {"resource-not-found-empty", "resources/read/not-found", "resources/read-not-found"},
    {"blob-not-base64", "resources/read/blob-base64,schema/resources", "resources/read-blob"},
    {"blob-base64-unpadded", "resources/read/blob-base64,schema/resources", "resources/read-blob"},
    {"read-uri-mismatch", "schema/resources", "resources/read-template-instance"},
    {"read-uri-other", "resources/read/uri-matches", "resources/read-text"},
    {"read-mimetype-differs", "discovery/resources/read-mimetype",
     "discovery/resources-read-compare"},
    {"read-text-and-blob", "resources/read/text", "resources/read-text"},
    {"unsubscribe-refused", "resources/unsubscribe/result,resources/unsubscribe/stops-updates",
     "resources/unsubscribe"},
    {"resource-missing-name", "schema/resources", "resources/read-blob"},
    {"template-missing-uritemplate", "schema/resources", "resources/templates-item-shape"},
    {"annotation-priority-range", "schema/resources", "resources/read-blob"},
    {"prompt-unknown-accepted", "prompts/get/unknown-name", "prompts/get-unknown-name"},
    {"prompt-missing-argument-accepted", "prompts/get/missing-argument",
     "prompts/get-missing-argument"},
    {"prompt-partial-arguments-accepted", "discovery/prompts/get-missing-each",
     "discovery/prompts-get-missing-each"},
    {"prompt-unknown-wrong-code", "prompts/get/unknown-name", "prompts/get-unknown-name"},
    {"prompt-role-invalid", "schema/prompts", "prompts/get-listed"},
    {"prompt-image-not-base64", "schema/prompts", "prompts/get-listed"},
    {"tool-structured-nonconforming", "discovery/tools/structured-conforms",
     "discovery/tools-call-safe"},
    {"tool-missing-input-schema", "schema/tools", "tools/call-text"},
    {"tool-content-missing-type", "schema/tools", "tools/call-text"},
    {"elicitation-without-capability",
     "elicitation/capability/not-sent,wire/negotiated-capabilities",
     "elicitation/without-capability"},
    {"elicitation-nested-schema", "schema/elicitation", "elicitation/enums"},
    {"elicitation-form-password", "elicitation/form/no-sensitive", "elicitation/form-no-sensitive"},
    {"elicitation-url-without-capability", "elicitation/capability/mode-url,wire/elicitation-mode",
     "elicitation/url-not-sent-form-only"},
    {"elicitation-url-missing-id", "elicitation/url/params,schema/elicitation",
     "elicitation/url-mode"},
    {"elicitation-complete-wrong-id", "elicitation/complete/id", "elicitation/url-complete"},
    {"url-elicitation-error-no-list",
     "elicitation/url-required/list,elicitation/url-required/url-mode",
     "elicitation/url-required-error"},
    {"sampling-without-capability", "wire/negotiated-capabilities", "sampling/without-capability"},
    {"roots-without-capability", "wire/negotiated-capabilities", "roots/without-capability"},
    {"server-request-id-reuse", "jsonrpc/id/server-unique,wire/server-request-id-unique",
     "jsonrpc/server-request-ids-unique"},
    {"log-setlevel-invalid-accepted", "logging/setlevel/invalid-level", "logging/setlevel-invalid"},
    {"log-level-ignored", "logging/filter/minimum,wire/log-level", "logging/filter-error"},
    {"log-level-not-in-enum", "schema/logging", "logging/no-secrets"},
    {"log-contains-secret", "logging/message/no-secrets", "logging/no-secrets"},
    {"log-not-rate-limited", "logging/message/rate-limited", "logging/rate-limited"},
    {"cursor-repeat", "pagination/terminates", "pagination/walk-tools"},
    {"cursor-foreign-accepted", "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {"cursor-garbage-accepted", "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {"cursor-invalid-wrong-code", "pagination/cursor/foreign", "pagination/cursor-foreign"},
    {"page-duplicate-items", "pagination/no-duplicates", "pagination/walk-tools"},
    {"cursor-unstable", "pagination/stable", "pagination/walk-prompts"},
    {"next-cursor-null", "schema/pagination", "pagination/walk-tools"},
    {"progress-not-increasing", "progress/value/increasing,wire/progress-increases",
     "progress/increasing"},
    {"progress-after-response", "progress/stops-after-completion,wire/progress-active-token",
     "progress/stops-after-response"},
    {"progress-unknown-token", "wire/progress-active-token", "progress/increasing"},
    {"cancelled-request-answered", "cancellation/in-flight/no-response", "cancellation/in-flight"},
    {"result-type-missing", "schema/messages,wire/result-type", "resources/icons"},
    {"discover-missing", "lifecycle/discover/implemented,lifecycle/discover/server-info",
     "lifecycle/discover"},
    {"discover-lying-versions", "lifecycle/discover/implemented", "lifecycle/discover"},
    {"listen-not-opted-in", "subscriptions/listen/opted-in-only,wire/listen-opted-in",
     "resources/listen-opt-in"},
    {"log-without-request-level", "logging/per-request/none-without-level,wire/log-per-request",
     "logging/per-request-level"},
    {"resource-not-found-old-code", "resources/read/not-found-params",
     "resources/read-not-found-params"},
    {"input-required-empty", "roots/mrtr/input-request,wire/input-required-shape", "roots/mrtr"},
    {"completion-too-many", "schema/completion", "completion/typed-further"},
    {"ping-result-not-empty", "ping/empty-result", "lifecycle/ping"},
    {"ping-ignored", "ping/empty-result", "lifecycle/ping"},
    {"subscribe-again-update-no-uri", "schema/resources", "resources/subscribe-again"},
    {"log-level-number-after-change", "schema/logging", "logging/filter-change"},
    {"completion-renarrowed-objects", "schema/completion", "completion/typed-further"},
    {"version-error-list-differs", "lifecycle/version/error-lists-discover-versions",
     "lifecycle/version-lists-agree"},
    {"error-code-undefined-reserved", "wire/error-code-reserved", "jsonrpc/method-not-found"},
    {"log-meta-level-invalid-accepted", "logging/per-request/invalid-level",
     "logging/per-request-invalid-level"},
    {"resources-capability-undeclared", "resources/capability/declared",
     "resources/capability-declared"},
    {"tools-capability-undeclared", "tools/capability/declared", "tools/capability-declared"},
    {"cache-ttl-negative", "caching/ttl-non-negative", "resources/cacheable-hints"},
    {"tool-structured-text-mismatch", "tools/call/structured-text-copy",
     "tools/call-structured-content"},
    /* tasks (2025-11-25) */
    {"task-capability-undeclared", "tasks/capability/declared", "tasks/capability-declared"},
    {"task-id-not-string", "tasks/id/string", "tasks/lifecycle"},
    {"task-id-reused", "tasks/id/unique", "tasks/lifecycle"},
    {"task-begins-completed", "tasks/status/initial-working", "tasks/lifecycle"},
    {"task-time-not-iso8601", "tasks/created-at,tasks/last-updated-at",
     "tasks/lifecycle,tasks/list,tasks/cancel"},
    {"task-get-no-ttl", "tasks/get/ttl", "tasks/lifecycle"},
    {"task-related-meta-on-task-ops",
     "tasks/related-task/not-in-task-results,tasks/related-task/not-in-task-operations",
     "tasks/lifecycle,tasks/list,tasks/cancel"},
    {"task-result-no-related-meta", "tasks/result/related-task", "tasks/lifecycle"},
    {"task-result-not-underlying",
     "tasks/result/success-response,tasks/result/same-result,tasks/result/terminal-final",
     "tasks/lifecycle"},
    {"task-list-no-next-cursor", "tasks/list/next-cursor,tasks/list/retrievable", "tasks/list"},
    {"task-cancel-terminal-accepted", "tasks/cancel/terminal-rejected", "tasks/cancel"},
    {"task-cancel-answered-working", "tasks/cancel/cancelled", "tasks/cancel"},
    {"task-cancelled-completes", "tasks/cancel/stays-cancelled,tasks/status/terminal-stays",
     "tasks/cancel"},
    {"task-unknown-id-internal-error", "tasks/errors/unknown-task",
     "tasks/unknown-task,tasks/unknown-task-cancel"},
    {"task-forbidden-tool-run-as-task", "tasks/tool/forbidden-method-not-found",
     "tasks/tool-forbidden"},
    {"task-required-tool-run-plainly", "tasks/tool/required-method-not-found",
     "tasks/tool-required"},
    {"task-call-answered-plainly", "tasks/create/create-task-result", "tasks/lifecycle"},
    {"task-related-meta-wins", "tasks/get/task-id-source,tasks/get/related-meta-ignored",
     "tasks/lifecycle"},
    {"task-undeclared-type-refused", "tasks/undeclared-type/processed-normally",
     "tasks/undeclared-request-type"},
    {"task-error-not-returned", "tasks/result/same-error", "tasks/failed"},
    {"task-failed-no-status-message", "tasks/get/failed-status-message", "tasks/failed"},
    /* The Streamable HTTP server's switches (httpserve.h). */
    {"http-notification-200", "http/notification-202,transport/http/notification-202",
     "transport/get-stream,transport/notification-accepted"},
    {"http-session-optional", "transport/http/session-required", "transport/session-required"},
    {"http-session-after-delete", "transport/http/session-ended-404", "transport/session-deleted"},
    {"http-foreign-origin", "transport/http/origin-refused,transport/http/origin-validated",
     "transport/origin-foreign,transport/origin-validated"},
    {"http-sse-no-data", "http/sse-event-has-data", "transport/get-stream"},
    {"http-response-wrong-stream", "http/get-stream-no-response", "transport/resume-own-stream"},
    {"http-session-id-space", "http/session-id-visible-ascii", "transport/get-stream"},
    {"http-sse-event-id-reused", "http/sse-event-id-unique", "transport/sse-event-id-unique"},
    {"http-resume-other-stream", "transport/http/resume-no-other-stream",
     "transport/resume-own-stream"},
    {"http-header-mismatch-accepted", "transport/http/header-body-mismatch",
     "transport/header-method-mismatch,transport/header-name-mismatch"},
    {"http-header-wrong-error", "transport/http/header-rejection-status",
     "transport/header-method-missing"},
    {"http-param-header-ignored", "transport/http/param-header-mismatch",
     "transport/param-header-mismatch"},
    {"http-sse-buffered", "http/sse-accel-buffering", "progress/no-token"},
    {"http-stateless-session-id", "http/stateless-no-session-id", "transport/get-405"},
    {"http-param-header-duplicate", "http/x-mcp-header-valid", "discovery/tools-input-schema"},
    {"http-listen-on-request-stream", "http/stateless-notification-related",
     "resources/listen-opt-in"},
    {"http-meta-missing-200", "transport/http/meta-required-400", "transport/meta-required-400"},
    {"http-unsupported-version-null-id", "wire/response-id",
     "transport/unsupported-version-400,transport/protocol-version-invalid"},
    {"http-unreadable-body-200", "transport/http/unacceptable-input-error-status",
     "transport/unreadable-body-error-status"},
};

static const rs_bug_catch_t *find(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < sizeof(rs_catches) / sizeof(rs_catches[0]); i++)
        if (strcmp(rs_catches[i].name, name) == 0)
            return &rs_catches[i];
    return NULL;
}

const char *mc__rs_switch_catchers(const char *name)
{
    const rs_bug_catch_t *c = find(name);
    return c != NULL ? c->checks : "";
}

const char *mc__rs_switch_where(const char *name)
{
    const rs_bug_catch_t *c = find(name);
    return c != NULL ? c->where : "";
}
