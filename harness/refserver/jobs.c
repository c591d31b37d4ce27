/*
 * jobs.c - the jobs behind tool calls: their table, and what a step calls.
 *
 * Every tools/call becomes a job: a small state machine whose step function
 * (the tool, tools.c) runs now, after the step delay (logging, progress) or
 * when the client answers a server->client request (elicitation, sampling,
 * roots). The job table is fixed-size; a full table answers -32603.
 * notifications/cancelled drops a job without a response.
 */
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"

void mc__rs_job_free(mc_refserver_t *rs, rs_job_t *job)
{
    if (job->used)
        rs->njobs--;
    if (rs->serving == job->id)
        rs->serving = NULL;
    mc__rs_client_forget(rs, job);
    json_object_put(job->id);
    json_object_put(job->token);
    json_object_put(job->args);
    json_object_put(job->responses);
    json_object_put(job->peer);
    memset(job, 0, sizeof(*job));
}

void mc__rs_job_start(mc_refserver_t *rs, json_object *id, int tool, json_object *token,
                      json_object *args, json_object *responses)
{
    rs_job_t *job = NULL;
    int i;

    if (rs->jobs == NULL) {
        rs->jobs = calloc(RS_MAX_JOBS, sizeof(*rs->jobs));
        if (rs->jobs == NULL) {
            rs->failed = 1;
            return;
        }
    }
    for (i = 0; i < RS_MAX_JOBS && job == NULL; i++)
        if (!rs->jobs[i].used)
            job = &rs->jobs[i];
    if (job == NULL) {
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "too many tool calls in progress", NULL);
        return;
    }
    job->used = 1;
    rs->njobs++;
    job->serial = ++rs->job_serial;
    job->id = json_object_get(id);
    job->token = json_object_get(token);
    job->args = json_object_get(args);
    job->tool = tool;
    job->step = 0;
    job->due = rs->now;
    job->elicitation_id[0] = '\0';
    mc__rs_ctx_save(rs, &job->ctx);
    job->responses = json_object_get(responses);
    job->mrtr_reply = NULL;
    if (rs_fault_hook(rs, RS_HOOK_CANCEL_CLIENT_REQUEST) && !job->ctx.modern) {
        json_object *p = json_object_new_object();
        mc__rs_put(rs, p, "requestId", json_object_get(id));
        mc__rs_put_str(rs, p, "reason", "the server cancels the client's own request");
        mc__rs_notify(rs, "notifications/cancelled", p);
    }
    /* The first step runs from mc__rs_jobs_run() at the end of this message. */
}

void mc__rs_job_progress(mc_refserver_t *rs, rs_job_t *job, double progress, double total,
                         const char *message)
{
    json_object *p;

    if (job->token == NULL)
        return;
    p = json_object_new_object();
    mc__rs_put(rs, p, "progressToken", json_object_get(job->token));
    mc__rs_put(rs, p, "progress", mc__rs_number(progress));
    if (total > 0)
        mc__rs_put(rs, p, "total", mc__rs_number(total));
    if (message != NULL && rs->version >= MC_V_2025_03_26)
        mc__rs_put_str(rs, p, "message", message);
    mc__rs_notify(rs, "notifications/progress", p);
}

void mc__rs_job_finish(mc_refserver_t *rs, rs_job_t *job, json_object *result)
{
    mc__rs_result(rs, job->id, result);
    if (rs_fault_hook(rs, RS_HOOK_PROGRESS_AFTER_RESULT) && job->token != NULL)
        mc__rs_job_progress(rs, job, 1000, 0, "after the response");
    mc__rs_job_free(rs, job);
}

void mc__rs_job_finish_text(mc_refserver_t *rs, rs_job_t *job, const char *text, int is_error)
{
    if (!mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_TOOL_TEXT,
                                               .id = job->id,
                                               .text = text,
                                               .is_error = is_error})) {
        mc__rs_job_finish(rs, job,
                          is_error ? mc__rs_tool_error(rs, text) : mc__rs_tool_text(rs, text));
        return;
    }
    if (rs_fault_hook(rs, RS_HOOK_PROGRESS_AFTER_RESULT) && job->token != NULL)
        mc__rs_job_progress(rs, job, 1000, 0, "after the response");
    mc__rs_job_free(rs, job);
}

int64_t mc__rs_jobs_deadline(const mc_refserver_t *rs)
{
    int64_t best = -1;
    int i;

    if (rs->njobs == 0)
        return -1;
    for (i = 0; i < RS_MAX_JOBS; i++)
        if (rs->jobs[i].used && rs->jobs[i].due >= 0 && (best < 0 || rs->jobs[i].due < best))
            best = rs->jobs[i].due;
    return best;
}

void mc__rs_jobs_cancel(mc_refserver_t *rs, json_object *params)
{
    json_object *rid;
    int i;

    if (rs->njobs == 0 || params == NULL || !json_object_object_get_ex(params, "requestId", &rid) ||
        !mc_jsonrpc_id_valid(rid))
        return;
    for (i = 0; i < RS_MAX_JOBS; i++) {
        rs_job_t *job = &rs->jobs[i];
        if (!job->used || !mc_jsonrpc_id_equal(job->id, rid))
            continue;
        if (RS_CANCEL_IGNORED(rs)) {
            /* Answered anyway, after the next message's answer (a job
             * waiting for the client is left to wait). */
            if (job->due < 0)
                continue;
            job->cancel_ignored = 2;
            job->due = -1;
        } else {
            mc__rs_job_free(rs, job);
        }
    }
}

void mc__rs_jobs_free(mc_refserver_t *rs)
{
    int i;

    for (i = 0; i < RS_MAX_JOBS && rs->njobs > 0; i++)
        if (rs->jobs[i].used)
            mc__rs_job_free(rs, &rs->jobs[i]);
}

void mc__rs_client_forget(mc_refserver_t *rs, const rs_job_t *job)
{
    int i, idx = (int)(job - rs->jobs);

    for (i = 0; rs->pending != NULL && i < RS_MAX_PENDING; i++)
        if (rs->pending[i].used && rs->pending[i].job == idx &&
            rs->pending[i].serial == job->serial)
            memset(&rs->pending[i], 0, sizeof(rs->pending[i]));
}
