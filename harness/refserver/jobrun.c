/*
 * jobrun.c - the job runner, above the tools: it runs the steps that are
 * due (a tool's step function, tools.c) and hands the client's answer to a
 * server->client request to the job (or task) that waits for it. The job
 * table and what a step calls (finish, progress) are in jobs.c, below.
 */
#include <string.h>

#include "refserver/internal.h"

/* Passes over the job table in one run, so jobs that start jobs end. */
#define RS_MAX_JOB_ROUNDS 1000

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
        mc__rs_job_free(rs, job);
        return;
    }
    job->step++;
    /* An answer already at hand is used at once. */
    job->due = rc == RS_STEP_AT          ? job->wake
               : rc != RS_STEP_LATER     ? -1
               : job->mrtr_reply != NULL ? rs->now
               : job->cancel_ignored     ? -1 /* it ends after the next message */
               : RS_CANCEL_IGNORED(rs)   ? base + RS_CANCEL_IGNORED_STEP_MS
                                         : base + rs->step_ms;
}

void mc__rs_jobs_after_message(mc_refserver_t *rs)
{
    int i, k;

    if (rs->njobs == 0 || !RS_CANCEL_IGNORED(rs))
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

void mc__rs_client_response(mc_refserver_t *rs, const mc_msg_t *msg)
{
    rs_reply_t reply;
    int64_t id;
    int i, job, serial;

    if (rs->pending == NULL || msg->id == NULL || !json_object_is_type(msg->id, json_type_int))
        return;
    id = json_object_get_int64(msg->id);
    for (i = 0; i < RS_MAX_PENDING; i++) {
        rs_pending_t *p = &rs->pending[i];
        if (!p->used || p->id != id)
            continue;
        job = p->job;
        serial = (int)p->serial;
        memset(p, 0, sizeof(*p));
        if (job < 0) {
            mc__rs_task_input(rs, id, msg);
            return;
        }
        if (!rs->jobs[job].used || rs->jobs[job].serial != (uint32_t)serial)
            return;
        reply.result = msg->kind == MC_MSG_RESULT ? msg->result : NULL;
        reply.error = msg->kind == MC_MSG_ERROR ? msg->error : NULL;
        mc__rs_job_reply(rs, &rs->jobs[job], &reply);
        return;
    }
}
