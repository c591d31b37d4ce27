/*
 * state.c - what a request is served with: the versions initialize
 * negotiates, and the session's context saved and switched (a stateless
 * request's own _meta, a job run in the context of the request that
 * started it).
 */
#include "refserver/internal.h"

void mc__rs_ctx_save(const mc_refserver_t *rs, rs_ctx_t *c)
{
    c->modern = rs->modern;
    c->version = rs->version;
    c->cap_roots = rs->cap_roots;
    c->cap_sampling = rs->cap_sampling;
    c->cap_elicit_form = rs->cap_elicit_form;
    c->cap_elicit_url = rs->cap_elicit_url;
    c->req_log = rs->req_log;
    c->cacheable = rs->cacheable;
}

void mc__rs_ctx_restore(mc_refserver_t *rs, const rs_ctx_t *c)
{
    rs->modern = c->modern;
    rs->version = c->version;
    rs->cap_roots = c->cap_roots;
    rs->cap_sampling = c->cap_sampling;
    rs->cap_elicit_form = c->cap_elicit_form;
    rs->cap_elicit_url = c->cap_elicit_url;
    rs->req_log = c->req_log;
    rs->cacheable = c->cacheable;
}

int mc__rs_handshake_version(int v)
{
    const mc_version_info_t *info = mc_version_at(v);

    return info != NULL && (info->features & MC_VF_INITIALIZE) != 0;
}
