/*
 * refserver/limits.h - the reference server's own bounds.
 *
 * The shared limits (message size, JSON depth) live in core/limits.h;
 * these are the ones only the reference server has. Every table below is fixed-size: when it is full the server
 * answers with an error instead of growing.
 */
#ifndef MC_REFSERVER_LIMITS_H
#define MC_REFSERVER_LIMITS_H

#include "core/limits.h"

/* Items per list page when --page-size is not given: small enough that every
 * fixture list spans several pages. */
#define RS_DEFAULT_PAGE_SIZE 3

/* Largest accepted --page-size. */
#define RS_MAX_PAGE_SIZE 1000

/* Largest accepted --resources N (synthetic resources, prompts and tools each). */
#define RS_MAX_EXTRA_ITEMS 1000000

/* Server->client requests in flight at once (sampling, elicitation, roots). */
#define RS_MAX_PENDING 64

/* How long the server waits for the client's answer to a server->client
 * request before it cancels the request and stops waiting
 * (basic/lifecycle#timeouts: implementations SHOULD establish timeouts for
 * all sent requests). Long enough for a person to answer an elicitation. */
#define RS_CLIENT_REQUEST_TIMEOUT_MS 300000

/* Tool calls that may be in progress at once (waiting for a timer or for the
 * client's answer to a server->client request). */
#define RS_MAX_JOBS 64

/* Resource subscriptions held per session. */
#define RS_MAX_SUBSCRIPTIONS 64

/* subscriptions/listen streams open at once (2026-07-28). */
#define RS_MAX_LISTENS 16

/* Tasks (2025-11-25, basic/utilities/tasks) kept per session; a full table
 * drops its oldest terminal task for a new one. */
#define RS_MAX_TASKS 32
/* A task id's buffer, and an RFC 3339 timestamp's (with milliseconds). */
#define RS_TASK_ID_MAX 32
#define RS_TASK_TIME_MAX 48
/* tasks/result requests held per working task until it ends. */
#define RS_TASK_MAX_WAITERS 4
/* The retention granted when the request names none, and the longest one
 * granted (receivers MAY override the requested ttl). */
#define RS_TASK_DEFAULT_TTL_MS 60000
#define RS_TASK_MAX_TTL_MS 3600000
/* The pollInterval suggested in every task. */
#define RS_TASK_POLL_INTERVAL_MS 500
/* Tasks per tasks/list page: small, so that a few tasks span pages. */
#define RS_TASK_PAGE_SIZE 2
/* test_task_requestor (taskreq.c): the ttl it asks the client for, the
 * poll interval it keeps when the client suggests none, the longest one
 * it honours (a longer suggestion is waited for this long), the tasks/get
 * polls and tasks/list pages it makes at most, and the longest client task
 * id it keeps (bytes). */
#define RS_TASKREQ_TTL_MS 60000
#define RS_TASKREQ_DEFAULT_POLL_MS 500
#define RS_TASKREQ_MAX_POLL_MS 30000
#define RS_TASKREQ_MAX_POLLS 50
#define RS_TASKREQ_MAX_PAGES 8
#define RS_TASKREQ_ID_MAX 256
/* The fixed interval of the requestor-poll-too-fast switch, which ignores
 * the task's pollInterval. */
#define RS_TASKREQ_FAST_POLL_MS 20
/* The longest nextCursor of the client's that test_task_requestor follows. */
#define RS_TASKREQ_MAX_CURSOR 1024

/* Longest resource URI the server stores or echoes in full (bytes). */
#define RS_MAX_URI_LEN 2048

/* The longest message of an error refusing initialize at a --modern-only
 * server (with the versions it speaks), or any request over HTTP for its
 * headers (bytes, with the NUL; a longer one is cut short). */
#define RS_REFUSAL_TEXT_MAX 400

/* Default delay between the steps of multi-step tools (logging, progress). */
#define RS_DEFAULT_STEP_MS 10
/* Longest delay --step-delay accepts (ms). */
#define RS_MAX_STEP_DELAY_MS 60000

/* With the cancelled-request-answered switch, the delay between a tool's
 * steps: long enough that a cancellation sent right after the call finds it
 * still running on a busy machine. */
#define RS_CANCEL_IGNORED_STEP_MS 150

/* Log rate limit: at most this many notifications/message per window. */
#define RS_LOG_RATE_MAX 100
#define RS_LOG_RATE_WINDOW_MS 1000

/* Values returned by completion/complete (the spec's maximum is 100). */
#define RS_MAX_COMPLETION_VALUES 100

/* The completion answered last (kept for narrowing, completion.c): longest
 * key (reference, argument and context) and longest value kept; a longer
 * one is not kept. RS_NARROW_VALUES is the most candidates a table row has. */
#define RS_NARROW_KEY_MAX 512
#define RS_NARROW_VALUE_MAX 64
#define RS_NARROW_VALUES 8

/* --root: files listed, directory depth walked, bytes read from one file. */
#define RS_MAX_ROOT_FILES 4096
#define RS_MAX_ROOT_DEPTH 8
#define RS_MAX_FILE_BYTES (4u * 1024u * 1024u)

/* Response cache: pages kept per list (direct-mapped by page number), fixture
 * reads kept, and the largest result body kept (larger ones are rebuilt). */
#define RS_PAGE_CACHE_SLOTS 8
#define RS_READ_CACHE_SLOTS 8
#define RS_CACHE_MAX_BODY (64u * 1024u)

/* Longest text a tool copies from its arguments or the client's answers. */
#define RS_MAX_ECHO_TEXT 4096

/* The structured content of the tool test_structured_content, and as its
 * text block gives it (tools.c; the switches tool-structured-* change the
 * one or the other on the way out, shapes.c). */
#define RS_STRUCTURED_DOC "{\"temperature\":22.5,\"conditions\":\"Partly cloudy\"}"

/* Values the completion-too-many switch adds to a completion: more than the
 * spec's 100 with any (shapes.c). */
#define RS_TOO_MANY_VALUES (RS_MAX_COMPLETION_VALUES + 20)

#endif /* MC_REFSERVER_LIMITS_H */
