/*
 * jobs.h - tool calls and what runs behind them: the tools (tools.c), the
 * jobs (jobs.c, run by jobrun.c), server->client requests (clientreq.c) and
 * the tools that make them (elicit.c, taskreq.c, tools_trigger.c).
 */
#ifndef MC_REFSERVER_JOBS_H
#define MC_REFSERVER_JOBS_H

#include "refserver/state.h"

/* ---- tools.c ---- */
void mc__rs_tools_list(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_tools_call(mc_refserver_t *rs, json_object *id, json_object *params);
/* Runs step job->step of the job's tool; reply is the client's answer when
 * the job waited for one, else NULL. Returns RS_STEP_*. */
int mc__rs_tool_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
/* An isError tool result with one text block. Returns a new reference. */
json_object *mc__rs_tool_error(mc_refserver_t *rs, const char *text);
/* A tool result with one text block. Returns a new reference. */
json_object *mc__rs_tool_text(mc_refserver_t *rs, const char *text);

/* ---- taskreq.c: test_task_requestor, the server as a task's requestor ---- */
/* Its name in tools/list. */
#define RS_TASKREQ_TOOL "test_task_requestor"
/* The tool index of its jobs: outside tools.c's table. */
#define RS_TOOL_TASK_REQUESTOR (-2)
/* 1 when the session lists test_task_requestor (2025-11-25), else 0. */
size_t mc__rs_taskreq_count(const mc_refserver_t *rs);
/* Its tools/list entry with input schema schema (borrowed). New reference. */
json_object *mc__rs_taskreq_item(mc_refserver_t *rs, json_object *schema);
/* True when name is test_task_requestor and the session lists it. */
int mc__rs_taskreq_is(const mc_refserver_t *rs, const char *name);
/* Runs the next step of a test_task_requestor job. Returns RS_STEP_*. */
int mc__rs_taskreq_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- jobs.c: the jobs behind tool calls (jobrun.c runs their steps) ---- */
/* A cancelled call is answered all the same (the switches
 * cancelled-request-answered, and stateless-cancelled-answered for the
 * 2026-07-28 rule of the same kind). */
#define RS_CANCEL_IGNORED(rs)                                                                      \
    (rs_fault_hook(rs, RS_HOOK_ANSWER_CANCELLED) ||                                               \
     rs_fault_hook(rs, RS_HOOK_ANSWER_CANCELLED_STATELESS))
/* Frees a job's slot and forgets its server->client requests. */
void mc__rs_job_free(mc_refserver_t *rs, rs_job_t *job);
/* Starts a job for fixture tool `tool` answering request id; token, args and
 * responses (inputResponses) may be NULL and are borrowed. Its first step
 * runs from mc__rs_jobs_run(). A full job table answers -32603; an
 * allocation failure sets rs->failed. */
void mc__rs_job_start(mc_refserver_t *rs, json_object *id, int tool, json_object *token,
                      json_object *args, json_object *responses);
/* Runs the steps that are due. */
void mc__rs_jobs_run(mc_refserver_t *rs);
/* After each message: with the cancelled-request-answered switch, a job
 * cancelled by an earlier message runs to its end now, so its answer follows
 * the answer to the message read after the cancellation. */
void mc__rs_jobs_after_message(mc_refserver_t *rs);
/* Handles notifications/cancelled. */
void mc__rs_jobs_cancel(mc_refserver_t *rs, json_object *params);
/* Frees every job. */
void mc__rs_jobs_free(mc_refserver_t *rs);
/* Earliest due step, or -1. */
int64_t mc__rs_jobs_deadline(const mc_refserver_t *rs);
/* Sends the final result of a job and frees it. result is consumed. */
void mc__rs_job_finish(mc_refserver_t *rs, rs_job_t *job, json_object *result);
/* The same with the result mc__rs_tool_text(text) (mc__rs_tool_error(text)
 * when is_error), written as text when it can be. */
void mc__rs_job_finish_text(mc_refserver_t *rs, rs_job_t *job, const char *text, int is_error);
/* Sends a progress notification for the job when it has a token. */
void mc__rs_job_progress(mc_refserver_t *rs, rs_job_t *job, double progress, double total,
                         const char *message);
/* Called by clientreq.c when the client answers a request of job: runs its
 * next step if it waits for the client. */
void mc__rs_job_reply(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- clientreq.c: server->client requests ---- */

/* Sends a request on behalf of job. params is consumed. Returns MC_OK or MC_EFULL. */
int mc__rs_client_request(mc_refserver_t *rs, rs_job_t *job, const char *method,
                          json_object *params);
/* Routes a response from the client to the waiting job. */
void mc__rs_client_response(mc_refserver_t *rs, const mc_msg_t *msg);
/* Forgets the requests of a job (cancelled or finished). */
void mc__rs_client_forget(mc_refserver_t *rs, const rs_job_t *job);
/* Cancels the requests the client has not answered in time
 * (notifications/cancelled) and ends the tool calls that waited for them
 * with an isError result. */
void mc__rs_client_expire(mc_refserver_t *rs);
/* When the next request times out, or -1. */
int64_t mc__rs_client_deadline(const mc_refserver_t *rs);

/* ---- elicit.c: the elicitation, sampling and roots tools ---- */
int mc__rs_tool_elicit(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_defaults(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_enums(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url_error(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_elicit_url_complete(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_sampling(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_sampling_pair(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_roots(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* ---- tools_trigger.c: the tools that change the watched resource and the
 * resource, prompt and tool lists ---- */
int mc__rs_tool_trigger_update(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_resources(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_prompts(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
int mc__rs_tool_trigger_tools(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

#endif /* MC_REFSERVER_JOBS_H */
