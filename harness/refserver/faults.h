/*
 * faults.h - the behaviour faults of the violation switches as the handlers
 * see them: named hooks. A handler does what the spec says; where a switch
 * makes the server do something else (skip a check, send a message no one
 * asked for, keep state it should drop, page wrongly), the handler asks a
 * hook by the name of what diverges there, never by the switch. Which switch
 * plugs into a hook, and what it then does, is one line of RS_HOOK_MAP;
 * the switches themselves are the table of inject.h. The faults that only
 * change how a message looks are no hooks: the send path applies them
 * (shapes.c).
 */
#ifndef MC_REFSERVER_FAULTS_H
#define MC_REFSERVER_FAULTS_H

#include "refserver/state.h"

/* True when the violation switch is on: for the send path (shapes.c) and
 * the hooks (faults.c); a handler asks a hook. */
#define rs_bug_on(rs, b) ((rs)->bug == RS_BUG_##b)

/* XX(hook, switch, what the server does there when the switch is on) */
#define RS_HOOK_MAP(XX)                                                                            \
    /* the dispatcher */                                                                           \
    XX(IGNORE_PING, PING_IGNORED, "ping goes unanswered")                                          \
    XX(ANSWER_NOTIFICATIONS, NOTIFICATION_ANSWERED, "each client notification gets an error")      \
    XX(SERVE_INVALID_REQUEST, INVALID_REQUEST_SERVED, "an invalid request is served anyway")       \
    XX(ANSWER_BATCH_APART, BATCH_ANSWERED_WRONGLY, "a batch's answers go out one a line")          \
    XX(IGNORE_EOF, STDIN_EOF_IGNORED, "the end of the input does not stop the server")             \
    XX(REFUSE_LISTS, LIST_REFUSED_DECLARED, "the declared lists are refused with -32603")          \
    XX(MISUSE_VERSION_ERROR, ERROR_CODE_MISUSED, "an unknown method gets -32022")                  \
    XX(PRIVATE_LATER_PAGES, CACHE_SCOPE_BY_PAGE, "a later page is cached as private")              \
    /* initialize */                                                                               \
    XX(ASK_BEFORE_INITIALIZED, REQUEST_BEFORE_INITIALIZED,                                         \
       "roots/list is asked before the client's initialized")                                     \
    XX(SPEAK_MODERN_ONLY, INIT_ERROR_NO_VERSIONS, "the server speaks 2026-07-28 alone")            \
    /* lists and cursors */                                                                        \
    XX(LIST_SHRINKS, LIST_VARIES_AFTER_REQUEST, "once another request is served, lists lose one")  \
    XX(SALT_CURSORS, CURSOR_UNSTABLE, "each walk's cursors name other positions")                  \
    XX(ACCEPT_FOREIGN_CURSOR, CURSOR_FOREIGN_ACCEPTED, "another list's cursor is taken")           \
    XX(ACCEPT_GARBAGE_CURSOR, CURSOR_GARBAGE_ACCEPTED, "an unreadable cursor starts over")         \
    XX(OVERLAP_PAGES, PAGE_DUPLICATES, "a page starts with the previous page's last item")         \
    XX(REPEAT_CURSOR, CURSOR_REPEAT, "nextCursor is the cursor the request gave")                  \
    /* resources */                                                                                \
    XX(READ_UNKNOWN_AS_EMPTY, RESOURCE_NOT_FOUND_EMPTY, "an unknown resource reads as empty")      \
    XX(ACCEPT_ANY_URI, READ_URI_UNVALIDATED, "a string that is no URI reads as empty")             \
    XX(REFUSE_UNSUBSCRIBE, UNSUBSCRIBE_REFUSED, "unsubscribe fails and the subscription stays")    \
    XX(KEEP_UNSUBSCRIBED, SUB_AGAIN_NO_URI, "an unsubscribed uri stays as a tombstone")            \
    /* prompts */                                                                                  \
    XX(ACCEPT_UNKNOWN_PROMPT, PROMPT_UNKNOWN_ACCEPTED, "an unknown prompt is served")              \
    XX(ACCEPT_MISSING_ARGUMENTS, PROMPT_MISSING_ARG_ACCEPTED,                                      \
       "a prompt is served without its required arguments")                                        \
    XX(ACCEPT_PARTIAL_ARGUMENTS, PROMPT_PARTIAL_ARGS_ACCEPTED,                                     \
       "a prompt is served with some of its required arguments")                                   \
    /* tools and jobs */                                                                           \
    XX(FOLD_TOOL_NAME_CASE, TOOL_NAME_CASE_FOLDED, "a tool is found whatever the name's case")     \
    XX(ACCEPT_MISSING_TOOL_ARGUMENT, TOOL_INPUT_UNVALIDATED,                                       \
       "a tool runs without a required argument")                                                  \
    XX(REFUSE_TASK_LIST, TASK_UNDECLARED_REFUSED, "a task-augmented tools/list is refused")        \
    XX(ANSWER_CANCELLED, CANCELLED_ANSWERED, "a cancelled call is answered all the same")         \
    XX(ANSWER_CANCELLED_STATELESS, STATELESS_CANCELLED_ANSWERED,                                   \
       "a cancelled stateless call is answered all the same")                                      \
    XX(CANCEL_CLIENT_REQUEST, CANCELLED_FOREIGN, "the client's own request is cancelled")          \
    XX(PROGRESS_AFTER_RESULT, PROGRESS_AFTER_RESPONSE, "progress is reported after the result")    \
    /* completion */                                                                               \
    XX(RENARROWED_AS_OBJECTS, COMPLETION_RENARROWED,                                               \
       "a completion narrowed twice in a row gives its values as objects")                         \
    /* logging */                                                                                  \
    XX(ACCEPT_UNKNOWN_LEVEL, LOG_SETLEVEL_INVALID_ACCEPTED, "setLevel takes an unknown level")      \
    XX(ACCEPT_UNKNOWN_META_LEVEL, LOG_META_LEVEL_INVALID_ACCEPTED,                                 \
       "a request's _meta log level is taken whatever it is")                                      \
    XX(LOG_FLOOD, LOG_FLOOD, "log messages flood out, no rate limit")                              \
    XX(IGNORE_SET_LEVEL, LOG_LEVEL_IGNORED, "the level setLevel set is not applied")               \
    XX(LOG_WITHOUT_REQUEST_LEVEL, LOG_WITHOUT_LEVEL,                                               \
       "a stateless request without a log level gets log messages")                                \
    /* server->client requests */                                                                  \
    XX(IGNORE_ELICITATION_CAP, ELICIT_NO_CAP, "elicitation is asked of a client without it")       \
    XX(IGNORE_URL_CAP, ELICIT_URL_NO_CAP, "a URL elicitation is asked of a form-only client")      \
    XX(IGNORE_SAMPLING_CAP, SAMPLING_NO_CAP, "sampling is asked of a client without it")           \
    XX(IGNORE_ROOTS_CAP, ROOTS_NO_CAP, "roots are asked of a client without them")                 \
    XX(EXPECT_ACCEPT, ELICIT_DECLINE_UNHANDLED, "a declined elicitation ends the call in an error") \
    /* tasks */                                                                                    \
    XX(RUN_REQUIRED_TASK_PLAINLY, TASK_REQUIRED_RUN, "a task-only tool runs as a plain call")      \
    XX(RUN_FORBIDDEN_TASK, TASK_FORBIDDEN_RUN, "a tool without task support runs as a task")       \
    XX(ANSWER_TASK_PLAINLY, TASK_CALL_ANSWERED_PLAINLY, "a task-augmented call gets a plain result") \
    XX(BEGIN_COMPLETED, TASK_BEGINS_COMPLETED, "a task is completed before its creation is told")  \
    XX(SKIP_INPUT_REQUIRED, TASK_INPUT_NOT_REQUIRED, "a task needing input stays working")         \
    XX(RELATED_META_WINS, TASK_RELATED_META_WINS, "the related-task _meta names the task asked")   \
    XX(RELATED_META_ON_LIST, TASK_RELATED_ON_OPS,                                                  \
       "tasks/list carries the related-task _meta of the oldest task")                             \
    XX(RESULT_NOT_BLOCKING, TASK_RESULT_NOT_BLOCKING, "tasks/result answers before the task ends")  \
    XX(RESULT_IS_TASK, TASK_RESULT_NOT_UNDERLYING, "tasks/result answers the task, not its result") \
    XX(FAILED_TASK_RESULT, TASK_ERROR_NOT_RETURNED, "a failed call's task gives a result")         \
    XX(CANCEL_TERMINAL_TASK, TASK_CANCEL_TERMINAL, "a terminal task is cancelled again")           \
    XX(COMPLETE_CANCELLED_TASK, TASK_CANCELLED_COMPLETES, "a cancelled task completes later")      \
    XX(PROGRESS_AFTER_TERMINAL, TASK_PROGRESS_AFTER_TERMINAL,                                      \
       "a terminal task reports progress when asked for")                                          \
    /* the server as a task's requestor */                                                         \
    XX(WAIT_OUT_INPUT_REQUIRED, TASKREQ_NO_PREEMPTIVE_RESULT,                                      \
       "the client's task needing input is polled, not asked for its result")                      \
    XX(STOP_POLLING, TASKREQ_STOPS_POLLING, "the client's working task is left unpolled")          \
    /* the stateless protocol (2026-07-28) */                                                      \
    XX(REFUSE_DISCOVER, DISCOVER_MISSING, "server/discover is refused with -32601")                \
    XX(LISTEN_GETS_ALL, LISTEN_NOT_OPTED_IN, "a listen stream gets what it did not opt in to")     \
    XX(RESULT_BY_CLIENT, CLIENT_INFO_CHANGES_RESULT, "another clientInfo gets an empty list")      \
    XX(DISCOVER_FIRST, DISCOVER_REQUIRED_FIRST, "requests are refused before server/discover")     \
    XX(CANCEL_BY_NOTIFICATION, CANCELLED_NOT_LISTEN, "a tool call is cancelled by a notification") \
    XX(REFUSE_INPUT_RESPONSES, INPUT_RESPONSES_MISSING_ERROR,                                      \
       "a retry's inputResponses are refused")                                                     \
    XX(REFUSE_UNKNOWN_INPUT_RESPONSES, INPUT_RESPONSES_UNKNOWN_REFUSED,                            \
       "a retry with responses not asked for is refused")                                          \
    XX(ACCEPT_ANY_INPUT_RESPONSES, INPUT_RESPONSES_UNCHECKED, "inputResponses of any type are taken") \
    XX(ASK_STATELESS_CLIENT, STATELESS_SERVER_REQUEST,                                             \
       "a stateless request's input is asked with a request of the server's")

typedef enum {
#define RS_HOOK_ENUM(hook, bug, what) RS_HOOK_##hook,
    RS_HOOK_MAP(RS_HOOK_ENUM)
#undef RS_HOOK_ENUM
        RS_HOOK_COUNT
} rs_hook_t;

/* True when the behaviour fault that plugs into hook is on (faults.c). */
int rs_fault_hook(const mc_refserver_t *rs, rs_hook_t hook);

/* ---- the hooks that give a value: the correct one, or the switch's ---- */

/* The version initialize settles on for a request of version v (-1: one the
 * server does not speak): v, or the newest it speaks; version-not-echoed,
 * version-counter-offer-oldest and version-counter-offer-unspoken pick
 * another. */
mc_version_id_t rs_negotiated(const mc_refserver_t *rs, int v);

/* The id of the next request to the client: a new one each time
 * (server-request-id-reuse: always 1). */
int64_t rs_next_request_id(mc_refserver_t *rs);

/* The number a task's id is made from, given its serial (task-id-reused:
 * always 1). */
uint32_t rs_task_number(const mc_refserver_t *rs, uint32_t serial);

/* A cursor's check value h, as the process that issued it sees it
 * (cursor-process-bound: mixed with the process id). */
uint32_t rs_cursor_check(const mc_refserver_t *rs, uint32_t h);

/* How long to wait before polling the client's task again, given the wait
 * the task asks for (requestor-poll-too-fast: much less). */
int64_t rs_poll_wait(const mc_refserver_t *rs, int64_t ms);

/* The progress test_tool_with_progress reports at step (0, 1, 2) of 100:
 * 0, 50, 100 (progress-not-increasing: the last repeats 50). */
double rs_progress_value(const mc_refserver_t *rs, int step);

/* ---- the stateless dispatch (modern.c) ---- */

/* The hooks of a stateless request's dispatch: a list answered empty for
 * another client (RESULT_BY_CLIENT), a request refused before
 * server/discover (DISCOVER_FIRST), a notifications/cancelled naming a
 * tools/call (CANCEL_BY_NOTIFICATION). Returns 1 when the request was
 * answered. */
int mc__rs_modern_switched(mc_refserver_t *rs, const mc_msg_t *msg);

/* Answers an unknown stateless method with -32022 listing the versions the
 * server supports, 2026-07-28 among them: the hook MISUSE_VERSION_ERROR
 * (modern.c). */
void mc__rs_misused_code(mc_refserver_t *rs, json_object *id);

#endif /* MC_REFSERVER_FAULTS_H */
