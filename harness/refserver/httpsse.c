/*
 * httpsse.c - how the reference server's SSE answers start and end early:
 * the priming event and polling (--sse-poll), a response stream whose
 * closing cancels its request, and the two HTTP switches that act on a
 * POST's body (see httpint.h).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/clock.h"
#include "core/version.h"
#include "refserver/httpint.h"

/*
 * Whether the session se may close an SSE answer before its response (the
 * polling of --sse-poll): from 2025-11-25, whose transport page lets the
 * server close the connection once it sent an event id and a retry field;
 * before it, "The server SHOULD NOT close the SSE stream before sending the
 * JSON-RPC response". The switch http-sse-close-no-retry polls at every
 * version.
 */
static int polling_version(const hs_sess_t *se)
{
    const char *v = mc_refserver_negotiated(se->rs);

    return mc__hs_g->bug == RS_HTTP_BUG_SSE_CLOSE_NO_RETRY ||
           (v != NULL && mc_version_cmp(v, MC_VN_2025_11_25) >= 0);
}

/*
 * Starts the SSE answer s to a request. From 2025-11-25 it opens with the
 * priming event, an id and empty data (basic/transports#sending-messages-
 * to-the-server: "The server SHOULD immediately send an SSE event
 * consisting of an event ID and an empty data field"); the switch
 * http-sse-no-priming leaves it out. With --sse-poll (from 2025-11-25), or
 * the switch http-sse-close-no-retry, the priming event carries a retry
 * field too and the connection ends once what is ready now is sent, and
 * the client resumes. The switch leaves out the retry field (and polls at
 * every version).
 */
void mc__hs_prime(hs_t *hs, const hs_sess_t *se, hs_stream_t *s)
{
    const char *v = mc_refserver_negotiated(se->rs);
    int poll = ((hs->flags & MC_REFSERVER_HTTP_SSE_POLL) ||
                hs->bug == RS_HTTP_BUG_SSE_CLOSE_NO_RETRY) && polling_version(se);
    int primes = v != NULL && mc_version_cmp(v, MC_VN_2025_11_25) >= 0 &&
                 hs->bug != RS_HTTP_BUG_SSE_NO_PRIMING;
    char head[96], eid[48];
    int n;

    if (!poll && !primes)
        return;
    mc__hs_event_id(hs, s->num, ++s->seq, eid, sizeof(eid));
    if (!poll || hs->bug == RS_HTTP_BUG_SSE_CLOSE_NO_RETRY)
        n = snprintf(head, sizeof(head), "id: %s\ndata: \n\n", eid);
    else
        n = snprintf(head, sizeof(head), "id: %s\nretry: %d\ndata: \n\n", eid, HS_POLL_RETRY_MS);
    mc__hs_append(s, head, (size_t)n);
    s->poll_close = poll;
}

/* The switch http-version-header-optional supports no client older than
 * 2025-06-18: an initialize asking for 2025-03-26 asks for 2025-06-18 (the
 * same length, rewritten in place). */
void mc__hs_no_old_clients(hs_req_t *rq)
{
    char *at = rq->body != NULL ? strstr(rq->body, "\"" MC_VN_2025_03_26 "\"") : NULL;

    if (at != NULL)
        memcpy(at + 1, MC_VN_2025_06_18, strlen(MC_VN_2025_06_18));
}

/* The switch http-disconnect-cancels: a tools/call not answered at once is
 * dropped as if its connection had gone (the client's disconnection taken
 * for a cancellation), and its stream ends after what it holds, without
 * the response. */
void mc__hs_drop_call(hs_sess_t *se, hs_stream_t *s, const hs_req_t *rq)
{
    if (s->answered || rq->body == NULL || strstr(rq->body, "\"tools/call\"") == NULL)
        return;
    mc__hs_modern_cancel(se, s);
    s->answered = s->finished = 1;
}
