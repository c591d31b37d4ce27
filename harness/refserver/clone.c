/*
 * clone.c - template cloning: a session copied from another one
 * (mc_refserver_clone, refserver.h), and what the machinery frees.
 *
 * A fuzzer or a benchmark that starts thousands of sessions in the same
 * state (say, just initialized) builds that state once and copies it. The
 * copy is the template's plain session data; what the template owns (jobs,
 * pending requests, listen streams, buffers, kept bodies, the tokener) is
 * either copied or left for the copy to build, so the clone answers every
 * line exactly as the template would. Part of the performance machinery
 * (fast.h).
 */
#include <stdlib.h>
#include <string.h>

#include "refserver/fastimpl.h"

mc_refserver_t *mc_refserver_clone(const mc_refserver_t *tmpl, mc_refserver_emit_cb emit,
                                   void *emit_ctx, mc_errbuf_t *eb)
{
    mc_refserver_t *rs;
    int i;

    if (tmpl == NULL || emit == NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "a template and an emit callback are required");
        return NULL;
    }
    if (tmpl->root != NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "a server with a --root cannot be cloned");
        return NULL;
    }
    if (tmpl->njobs != 0 || tmpl->batch != NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "the template has work in progress");
        return NULL;
    }
    for (i = 0; tmpl->pending != NULL && i < RS_MAX_PENDING; i++) {
        if (tmpl->pending[i].used) {
            mc_errbuf_set(eb, MC_EINVAL, "the template waits for an answer from the client");
            return NULL;
        }
    }
    rs = malloc(sizeof(*rs));
    if (rs == NULL) {
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    /* The session state is plain data; what the template owns is either
     * copied below or, for caches and buffers, left for the clone to build. */
    memcpy(rs, tmpl, sizeof(*rs));
    rs->emit = emit;
    rs->emit_ctx = emit_ctx;
    rs->jobs = NULL;
    rs->tasks = NULL; /* tasks belong to the template's client */
    rs->pending = NULL;
    rs->listens = NULL; /* streams belong to the template's client */
    rs->serving = NULL;
    rs->out = NULL;
    rs->out_cap = 0;
    rs->failed = 0;
    memset(rs->tool_schemas, 0, sizeof(rs->tool_schemas));
    memset(rs->res_cache, 0, sizeof(rs->res_cache));
    rs->tok = NULL;
    memset(rs->page_cache, 0, sizeof(rs->page_cache));
    memset(rs->read_cache, 0, sizeof(rs->read_cache));
    memset(&rs->init_body, 0, sizeof(rs->init_body));
    for (i = 0; i < tmpl->nsubs; i++) {
        rs->subs[i] = strdup(tmpl->subs[i]);
        if (rs->subs[i] == NULL) {
            rs->nsubs = i;
            mc_refserver_free(rs);
            mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
            return NULL;
        }
    }
    return rs;
}

