/*
 * tasks.c - task-augmented tools/call and the tasks methods (2025-11-25,
 * basic/utilities/tasks).
 *
 * At 2025-11-25 the server declares tasks {list, cancel, requests.tools.call}
 * and lists four tools that run as tasks. test_task_tool (taskSupport
 * "optional") answers a plain call at once; run as a task it stays working
 * until tasks/result asks for its result, which runs it then: a task's
 * course never depends on time, so a client sees "working" right after the
 * CreateTaskResult whatever the machine's load; given a progressToken, the
 * task reports progress once under it as it runs, with the related-task
 * metadata (the token lasts as long as the task). test_task_held
 * ("required") runs only as a task and stays working until tasks/cancel; a
 * tasks/result for it is held (the page: it "MUST block the response until
 * the task reaches a terminal status") and answered when it is cancelled.
 * test_task_elicit ("required") needs the client's input: input_required
 * from its CreateTaskResult on, it asks with elicitation/create (with the
 * related-task metadata) once tasks/result is called, and completes with
 * the answer. Every change of a task's status is told with
 * notifications/tasks/status. A terminal task keeps its result until the
 * table is full, when the oldest terminal task makes room (the page lets a
 * receiver delete tasks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hash.h"
#include "refserver/internal.h"

typedef enum rs_task_status {
    RS_TASK_WORKING = 0,
    RS_TASK_COMPLETED,
    RS_TASK_FAILED,
    RS_TASK_CANCELLED,
    RS_TASK_INPUT_REQUIRED
} rs_task_status_t;

static const char *const status_names[] = {"working", "completed", "failed", "cancelled",
                                           "input_required"};

/* Completed, failed and cancelled are terminal (basic/utilities/tasks#task-status-lifecycle). */
#define TERMINAL(st) ((st) != RS_TASK_WORKING && (st) != RS_TASK_INPUT_REQUIRED)

struct rs_task {
    int used;
    uint32_t serial;         /* creation order */
    char id[RS_TASK_ID_MAX]; /* the receiver-generated task id */
    rs_task_status_t status;
    int tool;    /* index in task_tools */
    int64_t ttl; /* the retention granted (ms) */
    char created[RS_TASK_TIME_MAX], updated[RS_TASK_TIME_MAX];
    json_object *result; /* owned: the final result once terminal, or NULL */
    int failed_rpc;      /* the underlying request ended with a JSON-RPC error */
    json_object *waiters[RS_TASK_MAX_WAITERS]; /* owned: ids of held tasks/result requests */
    json_object *token; /* owned: the progressToken of the call that created it, or NULL */
    int64_t asked;      /* the id of the elicitation/create it sent, 0 for none */
};

/* The cursor tag of tasks/list: past the lists of the response cache
 * (RS_BODY_LISTS), whose pages are never kept for it. */
#define RS_LIST_TASKS ((rs_list_t)9)

/* The key of the related-task metadata (basic/utilities/tasks#related-task-metadata). */
#define RELATED_TASK "io.modelcontextprotocol/related-task"

static const struct {
    const char *name, *title, *description, *support;
} task_tools[] = {
    {"test_task_tool", "Task-capable tool",
     "Returns one text block; run as a task, it stays working until tasks/result asks for "
     "its result",
     "optional"},
    {"test_task_held", "Held task", "Runs only as a task, which stays working until tasks/cancel",
     "required"},
    {"test_task_failing", "Failing task",
     "Fails with a JSON-RPC error (-32603); run as a task, the task fails when tasks/result asks "
     "for its result",
     "optional"},
    {"test_task_elicit", "Task asking for input",
     "Runs only as a task, which needs the client's confirmation: input_required until its "
     "elicitation/create, sent when tasks/result is called, is answered",
     "required"},
};
#define RS_TASK_TOOLS ((int)(sizeof(task_tools) / sizeof(task_tools[0])))
#define TASK_TOOL_TEXT "The task tool ran"
/* test_task_failing: its index, and the error every run of it ends with. */
#define TASK_TOOL_FAILING 2
#define TASK_FAILING_MESSAGE "test_task_failing always fails"
/* test_task_elicit: its index. */
#define TASK_TOOL_ELICIT 3

int mc__rs_tasks_on(const mc_refserver_t *rs)
{
    return !rs->modern && rs->version == MC_V_2025_11_25;
}

void mc__rs_task_caps(mc_refserver_t *rs, json_object *caps)
{
    json_object *t, *req, *tools;

    if (rs->version != MC_V_2025_11_25)
        return;
    t = json_object_new_object();
    req = json_object_new_object();
    tools = json_object_new_object();
    mc__rs_put(rs, t, "list", json_object_new_object());
    mc__rs_put(rs, t, "cancel", json_object_new_object());
    mc__rs_put(rs, tools, "call", json_object_new_object());
    mc__rs_put(rs, req, "tools", tools);
    mc__rs_put(rs, t, "requests", req);
    mc__rs_put(rs, caps, "tasks", t);
}

/* ---- the task tools in tools/list and tools/call ---- */

size_t mc__rs_task_tool_count(const mc_refserver_t *rs)
{
    return mc__rs_tasks_on(rs) ? (size_t)RS_TASK_TOOLS : 0;
}

json_object *mc__rs_task_tool_item(mc_refserver_t *rs, size_t k, json_object *schema)
{
    json_object *o = json_object_new_object(), *an = json_object_new_object();
    json_object *ex = json_object_new_object();

    mc__rs_put_str(rs, o, "name", task_tools[k].name);
    mc__rs_add_title(rs, o, task_tools[k].title);
    mc__rs_put_str(rs, o, "description", task_tools[k].description);
    mc__rs_put(rs, o, "inputSchema", json_object_get(schema));
    mc__rs_put_str(rs, ex, "taskSupport", task_tools[k].support);
    mc__rs_put(rs, o, "execution", ex);
    mc__rs_put(rs, an, "readOnlyHint", json_object_new_boolean(1));
    mc__rs_put(rs, an, "openWorldHint", json_object_new_boolean(0));
    mc__rs_put(rs, o, "annotations", an);
    mc__rs_add_icons(rs, o);
    return o;
}

int mc__rs_task_tool_find(const mc_refserver_t *rs, const char *name)
{
    int k;

    for (k = 0; mc__rs_tasks_on(rs) && k < RS_TASK_TOOLS; k++)
        if (strcmp(task_tools[k].name, name) == 0)
            return k;
    return -1;
}

/* ---- the task table ---- */

/* Writes the current UTC time as an RFC 3339 timestamp with milliseconds. */
static void now_text(mc_refserver_t *rs, char *out, size_t size)
{
    struct timespec ts;
    struct tm tm;

    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 1000000));
}

static rs_task_t *task_find(mc_refserver_t *rs, const char *id)
{
    int i;

    for (i = 0; id != NULL && rs->tasks != NULL && i < RS_MAX_TASKS; i++)
        if (rs->tasks[i].used && strcmp(rs->tasks[i].id, id) == 0)
            return &rs->tasks[i];
    return NULL;
}

static void task_clear(rs_task_t *t)
{
    int w;

    json_object_put(t->result);
    json_object_put(t->token);
    for (w = 0; w < RS_TASK_MAX_WAITERS; w++)
        json_object_put(t->waiters[w]);
    memset(t, 0, sizeof(*t));
}

/* A free slot, else the oldest terminal task's (dropped), else NULL. */
static rs_task_t *task_slot(mc_refserver_t *rs)
{
    rs_task_t *old = NULL;
    int i;

    if (rs->tasks == NULL) {
        rs->tasks = calloc(RS_MAX_TASKS, sizeof(*rs->tasks));
        if (rs->tasks == NULL)
            return NULL;
    }
    for (i = 0; i < RS_MAX_TASKS; i++) {
        rs_task_t *t = &rs->tasks[i];
        if (!t->used)
            return t;
        if (TERMINAL(t->status) && (old == NULL || t->serial < old->serial))
            old = t;
    }
    if (old != NULL)
        task_clear(old);
    return old;
}

void mc__rs_tasks_free(mc_refserver_t *rs)
{
    int i;

    for (i = 0; rs->tasks != NULL && i < RS_MAX_TASKS; i++)
        task_clear(&rs->tasks[i]);
    free(rs->tasks);
    rs->tasks = NULL;
}

/* Puts the related-task metadata of task id in o's _meta (o has none yet). */
static void put_related(mc_refserver_t *rs, json_object *o, const char *id)
{
    json_object *meta = json_object_new_object(), *rel = json_object_new_object();

    mc__rs_put_str(rs, rel, "taskId", id);
    mc__rs_put(rs, meta, RELATED_TASK, rel);
    mc__rs_put(rs, o, "_meta", meta);
}

/* The Task object of t (tasks/get, tasks/cancel, tasks/list, CreateTaskResult). */
static json_object *task_object(mc_refserver_t *rs, const rs_task_t *t)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "taskId", t->id);
    mc__rs_put_str(rs, o, "status", status_names[t->status]);
    if (t->status == RS_TASK_CANCELLED)
        mc__rs_put_str(rs, o, "statusMessage", "The task was cancelled by request.");
    if (t->status == RS_TASK_FAILED)
        mc__rs_put_str(rs, o, "statusMessage",
                       t->tool == TASK_TOOL_FAILING
                           ? "Tool execution failed: " TASK_FAILING_MESSAGE
                           : "Tool execution failed: the client's input could not be had");
    mc__rs_put_str(rs, o, "createdAt", t->created);
    mc__rs_put_str(rs, o, "lastUpdatedAt", t->updated);
    mc__rs_put(rs, o, "ttl", json_object_new_int64(t->ttl));
    mc__rs_put(rs, o, "pollInterval", json_object_new_int(RS_TASK_POLL_INTERVAL_MS));
    return o;
}

/* Reports the progress of t under the progressToken of the call that
 * created it, which lasts as long as the task (2025-11-25
 * basic/utilities/progress#behavior-requirements), with the related-task
 * metadata of every message related to a task
 * (basic/utilities/tasks#associating-task-related-messages). Nothing when
 * the call gave no token. */
static void task_progress(mc_refserver_t *rs, const rs_task_t *t, int progress, const char *message)
{
    json_object *p;

    if (t->token == NULL)
        return;
    p = json_object_new_object();
    mc__rs_put(rs, p, "progressToken", json_object_get(t->token));
    mc__rs_put(rs, p, "progress", json_object_new_int(progress));
    mc__rs_put_str(rs, p, "message", message);
    put_related(rs, p, t->id);
    mc__rs_notify(rs, "notifications/progress", p);
}

/* Sets t's status and lastUpdatedAt, and tells the requestor with
 * notifications/tasks/status (basic/utilities/tasks#task-notifications:
 * receivers MAY), which carries the full task and no related-task metadata. */
static void task_status(mc_refserver_t *rs, rs_task_t *t, rs_task_status_t status)
{
    json_object *p;

    t->status = status;
    now_text(rs, t->updated, sizeof(t->updated));
    p = task_object(rs, t);
    mc__rs_notify(rs, "notifications/tasks/status", p);
}

/* Sets t's final result (consumed) and its terminal status. */
static void task_finish(mc_refserver_t *rs, rs_task_t *t, rs_task_status_t status,
                        json_object *result)
{
    json_object_put(t->result);
    t->result = result;
    task_status(rs, t, status);
}

/* Answers id with t's final result and the related-task metadata. */
static void task_answer(mc_refserver_t *rs, rs_task_t *t, json_object *id)
{
    json_object *res = json_object_new_object();

    if (t->failed_rpc && !rs_fault_hook(rs, RS_HOOK_FAILED_TASK_RESULT)) {
        json_object_put(res);
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, TASK_FAILING_MESSAGE, NULL);
        return;
    }
    if (rs_fault_hook(rs, RS_HOOK_RESULT_IS_TASK)) {
        mc__rs_result(rs, id, task_object(rs, t));
        json_object_put(res);
        return;
    }
    json_object_object_foreach(t->result, k, v)
    {
        mc__rs_put(rs, res, k, json_object_get(v));
    }
    put_related(rs, res, t->id);
    mc__rs_result(rs, id, res);
}

/* Answers every tasks/result held for t (now terminal). */
static void task_release(mc_refserver_t *rs, rs_task_t *t)
{
    int w;

    for (w = 0; w < RS_TASK_MAX_WAITERS; w++) {
        if (t->waiters[w] != NULL) {
            task_answer(rs, t, t->waiters[w]);
            json_object_put(t->waiters[w]);
            t->waiters[w] = NULL;
        }
    }
}

/* test_task_elicit asks the client for its confirmation with a form-mode
 * elicitation/create that carries the related-task metadata
 * (basic/utilities/tasks#input-required-status). A session whose client
 * cannot be asked fails the task. */
static void task_ask(mc_refserver_t *rs, rs_task_t *t)
{
    json_object *p, *schema, *props, *confirm, *req;

    if (!rs->cap_elicit_form || rs->phase != RS_PHASE_READY) {
        task_finish(rs, t, RS_TASK_FAILED,
                    mc__rs_tool_error(rs, "the task needs the client's input, and the client "
                                          "did not declare elicitation (form mode)"));
        return;
    }
    confirm = json_object_new_object();
    mc__rs_put_str(rs, confirm, "type", "boolean");
    mc__rs_put_str(rs, confirm, "description", "Go on with the task");
    props = json_object_new_object();
    mc__rs_put(rs, props, "confirm", confirm);
    req = json_object_new_array();
    json_object_array_add(req, json_object_new_string("confirm"));
    schema = json_object_new_object();
    mc__rs_put_str(rs, schema, "type", "object");
    mc__rs_put(rs, schema, "properties", props);
    mc__rs_put(rs, schema, "required", req);
    p = json_object_new_object();
    mc__rs_put_str(rs, p, "mode", "form");
    mc__rs_put_str(rs, p, "message", "test_task_elicit needs your confirmation to go on");
    mc__rs_put(rs, p, "requestedSchema", schema);
    put_related(rs, p, t->id);
    if (mc__rs_client_request(rs, NULL, "elicitation/create", p) != MC_OK) {
        task_finish(rs, t, RS_TASK_FAILED,
                    mc__rs_tool_error(rs, "too many requests to the client are outstanding"));
        return;
    }
    t->asked = rs->last_out_id;
}

int mc__rs_task_input(mc_refserver_t *rs, int64_t id, const mc_msg_t *msg)
{
    rs_task_t *t = NULL;
    const char *action;
    char text[160];
    int i;

    for (i = 0; rs->tasks != NULL && i < RS_MAX_TASKS && t == NULL; i++)
        if (rs->tasks[i].used && rs->tasks[i].asked == id && !TERMINAL(rs->tasks[i].status))
            t = &rs->tasks[i];
    if (t == NULL)
        return 0;
    /* The input is in: the task works again, and ends with the answer. */
    if (t->status == RS_TASK_INPUT_REQUIRED)
        task_status(rs, t, RS_TASK_WORKING);
    action = msg->kind == MC_MSG_RESULT ? mc__rs_get_str(msg->result, "action") : NULL;
    if (action == NULL) {
        task_finish(rs, t, RS_TASK_FAILED,
                    mc__rs_tool_error(rs, "the client did not answer the task's elicitation"));
    } else {
        snprintf(text, sizeof(text), "The client answered the task's elicitation: %.40s", action);
        task_finish(rs, t, RS_TASK_COMPLETED, mc__rs_tool_text(rs, text));
    }
    task_release(rs, t);
    return 1;
}

/* The requested retention: params.task.ttl when it is a non-negative
 * integer, capped at RS_TASK_MAX_TTL_MS (the page: receivers MAY override
 * it), else RS_TASK_DEFAULT_TTL_MS. */
static int64_t task_ttl(json_object *task)
{
    json_object *v;
    int64_t ttl;

    if (!json_object_object_get_ex(task, "ttl", &v) || !json_object_is_type(v, json_type_int))
        return RS_TASK_DEFAULT_TTL_MS;
    ttl = json_object_get_int64(v);
    if (ttl < 0)
        return RS_TASK_DEFAULT_TTL_MS;
    return ttl > RS_TASK_MAX_TTL_MS ? RS_TASK_MAX_TTL_MS : ttl;
}

/* Creates a task for task tool k and answers id with a CreateTaskResult;
 * token (borrowed, may be NULL) is the call's progressToken. */
static void task_create(mc_refserver_t *rs, json_object *id, int k, json_object *task,
                        json_object *token)
{
    rs_task_t *t = task_slot(rs);
    json_object *res;
    uint32_t h, n;

    if (t == NULL) {
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "too many tasks in progress", NULL);
        return;
    }
    t->used = 1;
    t->serial = ++rs->task_serial;
    /* Unique in the session: the serial, and a hash of it (deterministic:
     * the same session always gets the same ids). */
    n = rs_task_number(rs, t->serial);
    h = ((MC_FNV1A32_INIT ^ n) * MC_FNV1A32_PRIME ^ 0x7461736bu) * MC_FNV1A32_PRIME;
    snprintf(t->id, sizeof(t->id), "task-%u-%08x", (unsigned)n, (unsigned)h);
    t->tool = k;
    t->token = token != NULL ? json_object_get(token) : NULL;
    t->ttl = task_ttl(task);
    now_text(rs, t->created, sizeof(t->created));
    memcpy(t->updated, t->created, sizeof(t->updated));
    t->status = RS_TASK_WORKING;
    res = json_object_new_object();
    if (rs_fault_hook(rs, RS_HOOK_BEGIN_COMPLETED))
        task_finish(rs, t, RS_TASK_COMPLETED, mc__rs_tool_text(rs, TASK_TOOL_TEXT));
    mc__rs_put(rs, res, "task", task_object(rs, t));
    mc__rs_result(rs, id, res);
    /* test_task_elicit needs the client's input before anything else
     * (basic/utilities/tasks#input-required-status). */
    if (k == TASK_TOOL_ELICIT && !rs_fault_hook(rs, RS_HOOK_SKIP_INPUT_REQUIRED))
        task_status(rs, t, RS_TASK_INPUT_REQUIRED);
}

void mc__rs_task_tool_call(mc_refserver_t *rs, json_object *id, int k, json_object *params)
{
    json_object *task = NULL, *meta, *token = NULL;
    char msg[160];

    if (json_object_object_get_ex(params, "_meta", &meta) &&
        json_object_is_type(meta, json_type_object) &&
        json_object_object_get_ex(meta, "progressToken", &token) &&
        !json_object_is_type(token, json_type_string) && !json_object_is_type(token, json_type_int))
        token = NULL; /* ProgressToken: a string or an integer */
    if (json_object_object_get_ex(params, "task", &task) && task != NULL) {
        if (!json_object_is_type(task, json_type_object)) {
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.task must be an object", NULL);
            return;
        }
        if (rs_fault_hook(rs, RS_HOOK_ANSWER_TASK_PLAINLY))
            mc__rs_result(rs, id, mc__rs_tool_text(rs, TASK_TOOL_TEXT));
        else
            task_create(rs, id, k, task, token);
        return;
    }
    if (strcmp(task_tools[k].support, "required") == 0 && !rs_fault_hook(rs, RS_HOOK_RUN_REQUIRED_TASK_PLAINLY)) {
        snprintf(msg, sizeof(msg), "%s runs only as a task (execution.taskSupport is required)",
                 task_tools[k].name);
        mc__rs_error(rs, id, MC_RPC_METHOD_NOT_FOUND, msg, NULL);
        return;
    }
    if (k == TASK_TOOL_FAILING)
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, TASK_FAILING_MESSAGE, NULL);
    else
        mc__rs_result(rs, id, mc__rs_tool_text(rs, TASK_TOOL_TEXT));
}

int mc__rs_task_refused(mc_refserver_t *rs, json_object *id, json_object *params)
{
    json_object *task;

    if (!mc__rs_tasks_on(rs) || !json_object_object_get_ex(params, "task", &task) || task == NULL ||
        rs_fault_hook(rs, RS_HOOK_RUN_FORBIDDEN_TASK))
        return 0;
    /* basic/utilities/tasks#tool-level-negotiation: a tool without
     * execution.taskSupport does not run as a task. */
    mc__rs_error(rs, id, MC_RPC_METHOD_NOT_FOUND,
                 "this tool does not support task-augmented execution", NULL);
    return 1;
}

/* ---- tasks/get, tasks/result, tasks/list, tasks/cancel ---- */

/* The task params.taskId names, or NULL after answering id with -32602. */
static rs_task_t *task_of(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *tid = mc__rs_get_str(params, "taskId");
    json_object *meta, *rel;
    rs_task_t *t;

    if (rs_fault_hook(rs, RS_HOOK_RELATED_META_WINS) &&
        json_object_object_get_ex(params, "_meta", &meta) &&
        json_object_object_get_ex(meta, RELATED_TASK, &rel) &&
        mc__rs_get_str(rel, "taskId") != NULL)
        tid = mc__rs_get_str(rel, "taskId");

    if (tid == NULL) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.taskId must be a string", NULL);
        return NULL;
    }
    t = task_find(rs, tid);
    if (t == NULL)
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "Failed to retrieve task: Task not found",
                     NULL);
    return t;
}

static void tasks_get(mc_refserver_t *rs, json_object *id, json_object *params)
{
    rs_task_t *t = task_of(rs, id, params);

    if (t == NULL)
        return;
    if (TERMINAL(t->status) && rs_fault_hook(rs, RS_HOOK_PROGRESS_AFTER_TERMINAL))
        task_progress(rs, t, 2, "after the end");
    mc__rs_result(rs, id, task_object(rs, t));
}

static void tasks_result(mc_refserver_t *rs, json_object *id, json_object *params)
{
    rs_task_t *t = task_of(rs, id, params);
    int w;

    if (t == NULL)
        return;
    if (!TERMINAL(t->status) && t->tool == TASK_TOOL_ELICIT && t->asked == 0)
        task_ask(rs, t); /* its input is asked for now (a task that cannot ask fails) */
    else if (t->status == RS_TASK_WORKING && t->tool == TASK_TOOL_FAILING) {
        /* test_task_failing fails when its result is asked for; the result
         * kept is what a client would see instead of the error with the
         * task-error-not-returned switch. */
        t->failed_rpc = 1;
        task_finish(rs, t, RS_TASK_FAILED, json_object_new_object());
    } else if (t->status == RS_TASK_WORKING && task_tools[t->tool].support[0] == 'o') {
        if (rs_fault_hook(rs, RS_HOOK_RESULT_NOT_BLOCKING) && t->result == NULL) {
            /* The result at once, the task left working until the next ask. */
            t->result = mc__rs_tool_text(rs, TASK_TOOL_TEXT);
            task_answer(rs, t, id);
            return;
        }
        /* test_task_tool runs when its result is asked for, and says so
         * under the call's progressToken before it ends. */
        task_progress(rs, t, 1, "The task tool ran");
        task_finish(rs, t, RS_TASK_COMPLETED, mc__rs_tool_text(rs, TASK_TOOL_TEXT));
    }
    if (TERMINAL(t->status)) {
        task_answer(rs, t, id);
        return;
    }
    for (w = 0; w < RS_TASK_MAX_WAITERS; w++) {
        if (t->waiters[w] == NULL) {
            t->waiters[w] = json_object_get(id);
            return;
        }
    }
    mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "too many tasks/result requests wait for this task",
                 NULL);
}

static void tasks_cancel(mc_refserver_t *rs, json_object *id, json_object *params)
{
    rs_task_t *t = task_of(rs, id, params);
    char msg[96];

    if (t == NULL)
        return;
    if (TERMINAL(t->status) && !rs_fault_hook(rs, RS_HOOK_CANCEL_TERMINAL_TASK)) {
        snprintf(msg, sizeof(msg), "Cannot cancel task: already in terminal status '%s'",
                 status_names[t->status]);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, msg, NULL);
        return;
    }
    if (!TERMINAL(t->status))
        task_finish(rs, t, RS_TASK_CANCELLED,
                    mc__rs_tool_error(rs, "The task was cancelled before it produced a result"));
    task_release(rs, t);
    mc__rs_result(rs, id, task_object(rs, t));
    if (rs_fault_hook(rs, RS_HOOK_COMPLETE_CANCELLED_TASK))
        task_finish(rs, t, RS_TASK_COMPLETED, mc__rs_tool_text(rs, TASK_TOOL_TEXT));
}

/* Tasks in creation order: the serials of the used slots, sorted. */
static size_t tasks_ordered(const mc_refserver_t *rs, const rs_task_t **out)
{
    size_t n = 0, i, j;

    for (i = 0; rs->tasks != NULL && i < RS_MAX_TASKS; i++) {
        const rs_task_t *t = &rs->tasks[i];
        if (!t->used)
            continue;
        for (j = n; j > 0 && out[j - 1]->serial > t->serial; j--)
            out[j] = out[j - 1];
        out[j] = t;
        n++;
    }
    return n;
}

static void tasks_list(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const rs_task_t *order[RS_MAX_TASKS];
    size_t n = tasks_ordered(rs, order), start, end, i;
    const char *cin;
    json_object *res, *arr;

    if (mc__rs_page(rs, RS_LIST_TASKS, id, params, n, &start, &end, &cin) != 0)
        return;
    end = start + RS_TASK_PAGE_SIZE < n ? start + RS_TASK_PAGE_SIZE : n;
    res = json_object_new_object();
    arr = json_object_new_array();
    for (i = start; i < end; i++)
        if (json_object_array_add(arr, task_object(rs, order[i])) != 0)
            rs->failed = 1;
    mc__rs_put(rs, res, "tasks", arr);
    if (rs_fault_hook(rs, RS_HOOK_RELATED_META_ON_LIST) && n > 0)
        put_related(rs, res, order[0]->id);
    mc__rs_page_finish(rs, RS_LIST_TASKS, res, end, n, cin);
    mc__rs_result(rs, id, res);
}

int mc__rs_tasks_dispatch(mc_refserver_t *rs, const char *method, json_object *id,
                          json_object *params)
{
    static const struct {
        const char *name;
        void (*fn)(mc_refserver_t *, json_object *, json_object *);
    } methods[] = {{"tasks/get", tasks_get},
                   {"tasks/result", tasks_result},
                   {"tasks/list", tasks_list},
                   {"tasks/cancel", tasks_cancel}};
    size_t i;

    if (!mc__rs_tasks_on(rs))
        return 0;
    for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (strcmp(method, methods[i].name) != 0)
            continue;
        if (params != NULL && !json_object_is_type(params, json_type_object))
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params must be an object", NULL);
        else if (mc__rs_has_nul_string(params, 0))
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                         "params hold a string with a NUL character (\\u0000)", NULL);
        else
            methods[i].fn(rs, id, params);
        return 1;
    }
    return 0;
}
