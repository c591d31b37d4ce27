/*
 * taskreq.c - test_task_requestor: the server as the requestor of a task on
 * the client (2025-11-25, basic/utilities/tasks).
 *
 * Called in a session whose client declared tasks.requests.elicitation.create
 * and form-mode elicitation, the tool sends a task-augmented
 * elicitation/create. While the client's task is working it polls it with
 * tasks/get, each poll the task's pollInterval after the answer before it
 * (#getting-tasks); once the task is terminal or input_required it calls
 * tasks/result (#input-required-status: the requestor "SHOULD preemptively
 * call tasks/result"); then, when the client declared tasks.list, it walks
 * the client's tasks/list, sending each nextCursor back as it came
 * (#task-listing). None of these requests carries the related-task _meta
 * (#associating-task-related-messages). The tool's result says what it got.
 * The client is a peer like any other: its answers are read defensively,
 * and the polls and pages are bounded (limits.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "refserver/internal.h"

#define TOOL_NAME RS_TASKREQ_TOOL

/* Where a job is: what its next step does. */
enum { PH_CREATE = 0, PH_CREATED, PH_POLL, PH_POLLED, PH_RESULT, PH_LISTED };

size_t mc__rs_taskreq_count(const mc_refserver_t *rs)
{
    return mc__rs_tasks_on(rs) ? 1 : 0;
}

int mc__rs_taskreq_is(const mc_refserver_t *rs, const char *name)
{
    return mc__rs_taskreq_count(rs) > 0 && name != NULL && strcmp(name, TOOL_NAME) == 0;
}

json_object *mc__rs_taskreq_item(mc_refserver_t *rs, json_object *schema)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "name", TOOL_NAME);
    mc__rs_add_title(rs, o, "Task on the client");
    mc__rs_put_str(rs, o, "description",
                   "Asks the client for a confirmation as a task (a task-augmented "
                   "elicitation/create), polls the task until it ends or needs input, fetches "
                   "its result, lists the client's tasks, and returns what it got");
    mc__rs_put(rs, o, "inputSchema", json_object_get(schema));
    mc__rs_add_icons(rs, o);
    return o;
}

/* Ends job with text as its result (an isError result when is_error). */
static int finish(mc_refserver_t *rs, rs_job_t *job, const char *text, int is_error)
{
    mc__rs_job_finish_text(rs, job, text, is_error);
    return RS_STEP_DONE;
}

/* Sends method with params (consumed) to the client, without the
 * related-task _meta (basic/utilities/tasks: the requestor's task operations
 * carry none). */
static int send(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params,
                int phase)
{
    if (rs->input_closed) {
        json_object_put(params);
        return finish(rs, job, "the client's input has ended: no answer could come", 1);
    }
    if (mc__rs_client_request(rs, job, method, params) != MC_OK)
        return finish(rs, job, "too many requests to the client are outstanding", 1);
    job->phase = phase;
    return RS_STEP_WAIT;
}

/* Step PH_CREATE: the task-augmented elicitation/create. */
static int create(mc_refserver_t *rs, rs_job_t *job)
{
    json_object *p, *schema, *props, *confirm, *task;

    if (rs->modern || rs->phase != RS_PHASE_READY)
        return finish(rs, job, "a task on the client needs a 2025-11-25 session in operation", 1);
    if (!rs->cap_task_elicit || !rs->cap_elicit_form)
        return finish(rs, job,
                      "the client did not declare tasks.requests.elicitation.create and "
                      "form-mode elicitation, so no task can be made on it",
                      1);
    job->peer = json_object_new_object();
    confirm = json_object_new_object();
    mc__rs_put_str(rs, confirm, "type", "boolean");
    mc__rs_put_str(rs, confirm, "description", "Go on");
    props = json_object_new_object();
    mc__rs_put(rs, props, "confirm", confirm);
    schema = json_object_new_object();
    mc__rs_put_str(rs, schema, "type", "object");
    mc__rs_put(rs, schema, "properties", props);
    task = json_object_new_object();
    mc__rs_put(rs, task, "ttl", json_object_new_int(RS_TASKREQ_TTL_MS));
    p = json_object_new_object();
    mc__rs_put_str(rs, p, "mode", "form");
    mc__rs_put_str(rs, p, "message", TOOL_NAME " asks for your confirmation, as a task");
    mc__rs_put(rs, p, "requestedSchema", schema);
    mc__rs_put(rs, p, "task", task);
    return send(rs, job, "elicitation/create", p, PH_CREATED);
}

/* The wait before the next poll: the task's pollInterval when it is a
 * non-negative integer (at most RS_TASKREQ_MAX_POLL_MS), else
 * RS_TASKREQ_DEFAULT_POLL_MS; RS_TASKREQ_FAST_POLL_MS whatever the task
 * says under requestor-poll-too-fast. */
static int64_t poll_wait(mc_refserver_t *rs, json_object *task)
{
    json_object *v;
    int64_t ms = RS_TASKREQ_DEFAULT_POLL_MS;

    if (json_object_object_get_ex(task, "pollInterval", &v) &&
        json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0)
        ms = json_object_get_int64(v);
    if (ms > RS_TASKREQ_MAX_POLL_MS)
        ms = RS_TASKREQ_MAX_POLL_MS;
    return rs_poll_wait(rs, ms);
}

/* What the client says of its task (a Task: a CreateTaskResult's "task", a
 * tasks/get result): fetch the result once it is terminal or
 * input_required, else poll again after its pollInterval. */
static int on_task(mc_refserver_t *rs, rs_job_t *job, json_object *task)
{
    const char *status = mc__rs_get_str(task, "status");
    json_object *p;

    if (status == NULL)
        return finish(rs, job, "the client's task has no status", 1);
    mc__rs_put_str(rs, job->peer, "status", status);
    if (strcmp(status, "working") != 0 &&
        (strcmp(status, "input_required") != 0 || !rs_fault_hook(rs, RS_HOOK_WAIT_OUT_INPUT_REQUIRED))) {
        p = json_object_new_object();
        mc__rs_put_str(rs, p, "taskId", mc__rs_get_str(job->peer, "taskId"));
        return send(rs, job, "tasks/result", p, PH_RESULT);
    }
    if (rs_fault_hook(rs, RS_HOOK_STOP_POLLING))
        return finish(rs, job, "the client's task is working; " TOOL_NAME " stopped there", 0);
    if (job->polls >= RS_TASKREQ_MAX_POLLS)
        return finish(rs, job, "the client's task did not end within the polls allowed", 1);
    job->wake = rs->now + poll_wait(rs, task);
    job->phase = PH_POLL;
    return RS_STEP_AT;
}

/* The client's CreateTaskResult (or a plain answer, or an error). */
static int created(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    json_object *task;
    const char *tid;
    char text[RS_TASKREQ_ID_MAX + 96];

    if (reply == NULL || reply->error != NULL)
        return finish(rs, job,
                      "the client answered the task-augmented elicitation/create "
                      "with an error",
                      1);
    if (!json_object_object_get_ex(reply->result, "task", &task) ||
        !json_object_is_type(task, json_type_object)) {
        const char *action = mc__rs_get_str(reply->result, "action");
        snprintf(text, sizeof(text), "the client answered at once, without a task: action=%.40s",
                 action != NULL ? action : "(none)");
        return finish(rs, job, text, 0);
    }
    tid = mc__rs_get_str(task, "taskId");
    if (tid == NULL || strlen(tid) >= RS_TASKREQ_ID_MAX)
        return finish(rs, job, "the client's CreateTaskResult has no usable taskId", 1);
    mc__rs_put_str(rs, job->peer, "taskId", tid);
    return on_task(rs, job, task);
}

/* The end: what tasks/result gave and how many tasks/list pages came. */
static int report(mc_refserver_t *rs, rs_job_t *job, int pages)
{
    char text[RS_TASKREQ_ID_MAX + 256];
    const char *outcome = mc__rs_get_str(job->peer, "outcome");

    snprintf(text, sizeof(text),
             "The client's task %s was %s when its result was fetched, after %d polls; "
             "tasks/result: %s; tasks/list: %d pages",
             mc__rs_get_str(job->peer, "taskId"), mc__rs_get_str(job->peer, "status"), job->polls,
             outcome != NULL ? outcome : "(none)", pages);
    return finish(rs, job, text, 0);
}

/* Asks the client for a page of its tasks: cursor (NULL for the first
 * page) sent back as it came. */
static int list_page(mc_refserver_t *rs, rs_job_t *job, const char *cursor)
{
    json_object *p = json_object_new_object();
    if (cursor != NULL)
        mc__rs_put_str(rs, p, "cursor", cursor);
    return send(rs, job, "tasks/list", p, PH_LISTED);
}

/* The answer to tasks/result: kept for the report; then the client's tasks. */
static int fetched(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    char text[160];
    const char *action = reply != NULL ? mc__rs_get_str(reply->result, "action") : NULL;

    if (reply == NULL || reply->error != NULL)
        snprintf(text, sizeof(text), "an error: %.100s",
                 reply != NULL && mc__rs_get_str(reply->error, "message") != NULL
                     ? mc__rs_get_str(reply->error, "message")
                     : "(no message)");
    else
        snprintf(text, sizeof(text), "action=%.40s", action != NULL ? action : "(none)");
    mc__rs_put_str(rs, job->peer, "outcome", text);
    if (!rs->cap_task_list)
        return report(rs, job, 0);
    mc__rs_put(rs, job->peer, "pages", json_object_new_int(0));
    return list_page(rs, job, NULL);
}

/* A page of the client's tasks/list: the next one while it gives a cursor. */
static int listed(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    int pages = mc_json_get_int(job->peer, "pages", 0) + 1;
    const char *cursor = reply != NULL ? mc__rs_get_str(reply->result, "nextCursor") : NULL;

    mc__rs_put(rs, job->peer, "pages", json_object_new_int(pages));
    if (cursor == NULL || pages >= RS_TASKREQ_MAX_PAGES || strlen(cursor) > RS_TASKREQ_MAX_CURSOR)
        return report(rs, job, pages);
    return list_page(rs, job, cursor);
}

int mc__rs_taskreq_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    json_object *p;

    switch (job->phase) {
    case PH_CREATE:
        return create(rs, job);
    case PH_CREATED:
        return created(rs, job, reply);
    case PH_POLL:
        job->polls++;
        p = json_object_new_object();
        mc__rs_put_str(rs, p, "taskId", mc__rs_get_str(job->peer, "taskId"));
        return send(rs, job, "tasks/get", p, PH_POLLED);
    case PH_POLLED:
        if (reply == NULL || reply->error != NULL)
            return finish(rs, job, "the client answered tasks/get with an error", 1);
        return on_task(rs, job, reply->result);
    case PH_RESULT:
        return fetched(rs, job, reply);
    default:
        return listed(rs, job, reply);
    }
}
