/*
 * features.h - one feature each: initialize (lifecycle.c), tasks (tasks.c),
 * pagination (cursor.c), resources, prompts, logging, completion and the
 * file root.
 */
#ifndef MC_REFSERVER_FEATURES_H
#define MC_REFSERVER_FEATURES_H

#include "refserver/state.h"

/* ---- lifecycle.c ---- */

/* Answers initialize: negotiates the version, records client capabilities. */
void mc__rs_initialize(mc_refserver_t *rs, json_object *id, json_object *params);

/* Records the client capabilities caps (an object, or NULL) as rs->version
 * reads them. */
void mc__rs_record_client_caps(mc_refserver_t *rs, json_object *caps);

/* The server capabilities object for rs->version. New reference. */
json_object *mc__rs_server_caps(mc_refserver_t *rs);

/* ---- tasks.c: task-augmented tools/call and the tasks methods (2025-11-25) ---- */

/* True when the request in hand is served with tasks (2025-11-25, legacy). */
int mc__rs_tasks_on(const mc_refserver_t *rs);
/* Adds the tasks capability to caps at 2025-11-25. */
void mc__rs_task_caps(mc_refserver_t *rs, json_object *caps);
/* The task tools listed now (0 where tasks are off). */
size_t mc__rs_task_tool_count(const mc_refserver_t *rs);
/* Listed item of task tool k with inputSchema schema (borrowed). New reference. */
json_object *mc__rs_task_tool_item(mc_refserver_t *rs, size_t k, json_object *schema);
/* The task tool named name, or -1. */
int mc__rs_task_tool_find(const mc_refserver_t *rs, const char *name);
/* Answers tools/call of task tool k: a CreateTaskResult with params.task,
 * else the plain result (or -32601 for a tool that runs only as a task). */
void mc__rs_task_tool_call(mc_refserver_t *rs, json_object *id, int k, json_object *params);
/* A tools/call with params.task of a tool that does not run as a task:
 * answers -32601 and returns 1 where tasks are on, else returns 0. */
int mc__rs_task_refused(mc_refserver_t *rs, json_object *id, json_object *params);
/* Serves tasks/get, tasks/result, tasks/list and tasks/cancel where tasks are
 * on and returns 1; returns 0 otherwise. */
int mc__rs_tasks_dispatch(mc_refserver_t *rs, const char *method, json_object *id,
                          json_object *params);
void mc__rs_tasks_free(mc_refserver_t *rs);

/* The client's answer (msg) to server request id, which no job waits for:
 * a task's request for input gets it (tasks.c). Returns 1 when a task took
 * it, else 0. */
int mc__rs_task_input(mc_refserver_t *rs, int64_t id, const mc_msg_t *msg);

/* ---- cursor.c: pagination ---- */

/*
 * Works out the page a list request asks for. On success returns 0 and sets
 * *start (first index) and *end (one past the last); on a bad cursor the
 * error response is sent and -1 is returned.
 */
int mc__rs_page(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                size_t total, size_t *start, size_t *end, const char **cursor_in);

/* Writes the cursor of list at offset into out (17 bytes with the NUL). */
void mc__rs_cursor_text(mc_refserver_t *rs, rs_list_t list, size_t offset, char *out);

/* Adds nextCursor to result when end < total. */
void mc__rs_page_finish(mc_refserver_t *rs, rs_list_t list, json_object *result, size_t end,
                        size_t total, const char *cursor_in);

/* Builds item i of a list (a new reference). */
typedef json_object *(*rs_item_fn)(mc_refserver_t *rs, size_t i);

/*
 * Answers a list request: the page params ask for (or the bad-cursor
 * error), items start..end built by item under field, nextCursor, through
 * the response cache.
 */
void mc__rs_serve_list(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                       size_t total, const char *field, rs_item_fn item);

/* ---- resources.c ---- */
void mc__rs_resources_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_templates_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_resources_read(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_resources_subscribe(mc_refserver_t *rs, json_object *id, json_object *params,
                                int subscribe);
/* Changes test://watched-resource and tells subscribers. */
void mc__rs_resources_touch(mc_refserver_t *rs);
/* True when uri names a readable resource (fixture, template match, file, synthetic). */
int mc__rs_resource_exists(mc_refserver_t *rs, const char *uri);
/* Number of listed resources (for completion of resourceUri). */
size_t mc__rs_resources_count(mc_refserver_t *rs);
/* The uri of listed resource i into buf; returns buf. */
const char *mc__rs_resource_uri(mc_refserver_t *rs, size_t i, char *buf, size_t cap);

/* ---- prompts.c ---- */
void mc__rs_prompts_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_prompts_get(mc_refserver_t *rs, json_object *id, json_object *params);
/* Returns 1 if a prompt of that name exists, and whether it has argument arg. */
int mc__rs_prompt_has_arg(mc_refserver_t *rs, const char *prompt, const char *arg, int *known);

/* ---- logging.c ---- */
#define RS_LOG_LEVELS 8
void mc__rs_logging_set_level(mc_refserver_t *rs, json_object *id, json_object *params);
/* Sends notifications/message when level passes the filter and the rate limit.
 * data is consumed. level is an index 0 (debug) .. 7 (emergency). */
void mc__rs_log(mc_refserver_t *rs, int level, const char *logger, json_object *data);
/* The same with data {"message": text}, built only when the message passes. */
void mc__rs_log_message(mc_refserver_t *rs, int level, const char *logger, const char *text);

/* A debug-level notifications/message "WHAT NAME" about a request being
 * served (a resource read, a prompt fetched), sent only once the client has
 * set a level with logging/setLevel and only when the level lets it through. */
void mc__rs_log_activity(mc_refserver_t *rs, const char *logger, const char *what,
                         const char *name);

/* ---- completion.c ---- */
void mc__rs_complete(mc_refserver_t *rs, json_object *id, json_object *params);
/* Drops the completion kept for narrowing: a request other than
 * completion/complete came. */
void mc__rs_complete_forget(mc_refserver_t *rs);

/* ---- fileroot.c ---- */
struct rs_fileroot *mc__rs_fileroot_open(const char *dir, mc_errbuf_t *eb);
void mc__rs_fileroot_free(struct rs_fileroot *fr);
size_t mc__rs_fileroot_count(const struct rs_fileroot *fr);
/* URI of listed file i into buf (percent-encoded file:// URI); returns buf. */
const char *mc__rs_fileroot_uri(const struct rs_fileroot *fr, size_t i, char *buf, size_t cap);
/* Name (relative path) of listed file i (borrowed). */
const char *mc__rs_fileroot_name(const struct rs_fileroot *fr, size_t i);
/* True when uri is a file:// URI (whatever its validity). */
int mc__rs_fileroot_claims(const char *uri);
/*
 * Reads a file:// URI confined to the root. On success returns MC_OK and
 * *contents is a new reference (one TextResourceContents or
 * BlobResourceContents). Otherwise returns the JSON-RPC error code to send
 * (-32602 for a refused URI, -32002 for a missing file) and fills why.
 */
int mc__rs_fileroot_read(const struct rs_fileroot *fr, const char *uri, json_object **contents,
                         char *why, size_t why_cap);

#endif /* MC_REFSERVER_FEATURES_H */
