/*
 * jobs.c - the job runner behind tool calls.
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

/* Passes over the job table in one run, so jobs that start jobs end. */
#define RS_MAX_JOB_ROUNDS 1000

/* A cancelled call is answered all the same (the switches
 * cancelled-request-answered, and stateless-cancelled-answered for the
 * 2026-07-28 rule of the same kind). */
#define CANCEL_IGNORED(rs)                                                                         \
    (rs_bug_on(rs, CANCELLED_ANSWERED) || rs_bug_on(rs, STATELESS_CANCELLED_ANSWERED))

static void job_free(mc_refserver_t *rs, rs_job_t *job)
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
    if (rs_bug_on(rs, CANCELLED_FOREIGN) && !job->ctx.modern) {
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
    if (rs_bug_on(rs, PROGRESS_UNKNOWN_TOKEN))
        mc__rs_put_str(rs, p, "progressToken", "mcpcheck-token-never-sent");
    else
        mc__rs_put(rs, p, "progressToken", json_object_get(job->token));
    mc__rs_put(rs, p, "progress", mc__rs_number(progress));
    if (total > 0)
        mc__rs_put(rs, p, "total", mc__rs_number(total));
    if (message != NULL && rs->version >= RS_V_2025_03_26)
        mc__rs_put_str(rs, p, "message", message);
    mc__rs_notify(rs, "notifications/progress", p);
}

void mc__rs_job_finish(mc_refserver_t *rs, rs_job_t *job, json_object *result)
{
    mc__rs_result(rs, job->id, result);
    if (rs_bug_on(rs, PROGRESS_AFTER_RESPONSE) && job->token != NULL)
        mc__rs_job_progress(rs, job, 1000, 0, "after the response");
    job_free(rs, job);
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
    if (rs_bug_on(rs, PROGRESS_AFTER_RESPONSE) && job->token != NULL)
        mc__rs_job_progress(rs, job, 1000, 0, "after the response");
    job_free(rs, job);
}

/* Runs one step of a job and schedules the next. A job started by a
 * stateless request runs in that request's context (modern.c). */
static void job_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    int rc;
    uint32_t serial = job->serial;
    /* Steps keep their rhythm: a late tick catches up instead of drifting. */
    int64_t base = job->due >= 0 ? job->due : rs->now;
    rs_ctx_t saved;
    rs_reply_t mrtr;

    mc__rs_ctx_save(rs, &saved);
    if (job->ctx.modern) {
        mc__rs_ctx_restore(rs, &job->ctx);
        rs->serving = job->id;
    }
    if (job->mrtr_reply != NULL && reply == NULL) {
        /* The answer the retry carried in inputResponses. */
        mrtr.result = job->mrtr_reply;
        mrtr.error = NULL;
        job->mrtr_reply = NULL;
        reply = &mrtr;
    }
    rc = mc__rs_tool_step(rs, job, reply);
    rs->serving = NULL;
    mc__rs_ctx_restore(rs, &saved);
    if (!job->used || job->serial != serial)
        return; /* finished (and possibly reused) */
    if (rc == RS_STEP_DONE) {
        job_free(rs, job);
        return;
    }
    job->step++;
    /* An answer already at hand is used at once. */
    job->due = rc == RS_STEP_AT          ? job->wake
               : rc != RS_STEP_LATER     ? -1
               : job->mrtr_reply != NULL ? rs->now
               : job->cancel_ignored     ? -1 /* it ends after the next message */
               : CANCEL_IGNORED(rs)      ? base + RS_CANCEL_IGNORED_STEP_MS
                                         : base + rs->step_ms;
}

void mc__rs_jobs_after_message(mc_refserver_t *rs)
{
    int i, k;

    if (rs->njobs == 0 || !CANCEL_IGNORED(rs))
        return;
    for (i = 0; i < RS_MAX_JOBS; i++) {
        rs_job_t *job = &rs->jobs[i];
        uint32_t serial = job->serial;
        if (!job->used || job->cancel_ignored == 0)
            continue;
        if (job->cancel_ignored == 2) {
            job->cancel_ignored = 1;
            continue;
        }
        for (k = 0; k < RS_MAX_JOB_ROUNDS && job->used && job->serial == serial; k++)
            job_step(rs, job, NULL);
    }
}

void mc__rs_jobs_run(mc_refserver_t *rs)
{
    int progressed = 1, i, rounds = 0;

    if (rs->njobs == 0)
        return; /* the common case: no tool call in progress */
    while (progressed && rounds++ < RS_MAX_JOB_ROUNDS) {
        progressed = 0;
        for (i = 0; i < RS_MAX_JOBS; i++) {
            rs_job_t *job = &rs->jobs[i];
            if (job->used && job->due >= 0 && job->due <= rs->now) {
                job_step(rs, job, NULL);
                progressed = 1;
            }
        }
    }
}

void mc__rs_job_reply(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    if (job->used && job->due < 0)
        job_step(rs, job, reply);
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
        if (CANCEL_IGNORED(rs)) {
            /* Answered anyway, after the next message's answer (a job
             * waiting for the client is left to wait). */
            if (job->due < 0)
                continue;
            job->cancel_ignored = 2;
            job->due = -1;
        } else {
            job_free(rs, job);
        }
    }
}

void mc__rs_jobs_free(mc_refserver_t *rs)
{
    int i;

    for (i = 0; i < RS_MAX_JOBS && rs->njobs > 0; i++)
        if (rs->jobs[i].used)
            job_free(rs, &rs->jobs[i]);
}
