/*
 * clientreq.c - server->client requests and the answers to them.
 *
 * Tools that need the client (elicitation, sampling, roots) send a request
 * through mc__rs_client_request() and wait. The pending table maps the ids
 * the server sent to the waiting job; it holds RS_MAX_PENDING
 * entries and refuses more. Answers to unknown ids, and answers that arrive
 * after their job was cancelled, are ignored. A request the client leaves
 * unanswered for RS_CLIENT_REQUEST_TIMEOUT_MS is cancelled, and the tool
 * call that waited ends with an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"

int mc__rs_client_request(mc_refserver_t *rs, rs_job_t *job, const char *method,
                          json_object *params)
{
    rs_pending_t *p = NULL;
    int64_t id;
    int i;

    if (rs->pending == NULL) {
        rs->pending = calloc(RS_MAX_PENDING, sizeof(*rs->pending));
        if (rs->pending == NULL) {
            rs->failed = 1;
            json_object_put(params);
            return MC_ENOMEM;
        }
    }
    for (i = 0; i < RS_MAX_PENDING && p == NULL; i++)
        if (!rs->pending[i].used)
            p = &rs->pending[i];
    if (p == NULL) {
        json_object_put(params);
        return MC_EFULL;
    }
    id = rs_next_request_id(rs);
    p->used = 1;
    p->id = id;
    rs->last_out_id = id;
    p->job = job != NULL ? (int)(job - rs->jobs) : -1;
    p->serial = job != NULL ? job->serial : 0;
    p->due = rs->now + RS_CLIENT_REQUEST_TIMEOUT_MS;
    snprintf(p->method, sizeof(p->method), "%s", method);
    if (mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_REQUEST,
                                              .out_id = id,
                                              .method = method,
                                              .body = params}))
        json_object_put(params);
    else
        mc__rs_request(rs, json_object_new_int64(id), method, params);
    return MC_OK;
}

void mc__rs_client_expire(mc_refserver_t *rs)
{
    char text[160];
    int i;

    for (i = 0; rs->pending != NULL && i < RS_MAX_PENDING; i++) {
        rs_pending_t p = rs->pending[i];
        json_object *params;
        if (!p.used || p.due > rs->now)
            continue;
        memset(&rs->pending[i], 0, sizeof(rs->pending[i]));
        snprintf(text, sizeof(text), "no answer to %s within %d ms", p.method,
                 RS_CLIENT_REQUEST_TIMEOUT_MS);
        params = json_object_new_object();
        mc__rs_put(rs, params, "requestId", json_object_new_int64(p.id));
        mc__rs_put_str(rs, params, "reason", text);
        mc__rs_emit(rs, mc_jsonrpc_notification("notifications/cancelled", params));
        if (p.job >= 0 && rs->jobs[p.job].used && rs->jobs[p.job].serial == p.serial &&
            rs->jobs[p.job].due < 0)
            mc__rs_job_finish_text(rs, &rs->jobs[p.job], text, 1);
    }
}

int64_t mc__rs_client_deadline(const mc_refserver_t *rs)
{
    int64_t best = -1;
    int i;

    for (i = 0; rs->pending != NULL && i < RS_MAX_PENDING; i++)
        if (rs->pending[i].used && (best < 0 || rs->pending[i].due < best))
            best = rs->pending[i].due;
    return best;
}
