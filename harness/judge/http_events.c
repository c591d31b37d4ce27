/*
 * http_events.c - the rules of the SSE events of Streamable HTTP, judged
 * from the transport's MC_REC_SSE_EVENT records: an event id is used by one
 * stream of the session (http/sse-event-id-unique), a resumption replays
 * only the events of the stream it resumes (http/resume-own-stream), and
 * an event carries a data field (http/sse-event-has-data). The judge also
 * tells the transport which events a resumption repeats of its own stream,
 * so that they are not passed on twice.
 */
#include <stdio.h>
#include <string.h>

#include "core/hash.h"
#include "judge/http_internal.h"

/* The name of the stream of record r for a finding. */
static const char *kind_name(const mc_record_t *r)
{
    return r->facts.stream == MC_STREAM_GET ? "GET" : "POST";
}

/*
 * Judges the event id of r against the ids the session has seen: an id
 * used before breaks http/sse-event-id-unique, or, on a resumption, when
 * another stream used it, shows a message of another stream replayed
 * (http/resume-own-stream). Returns 0 when a resumption repeats an id of
 * the stream it resumes: the event is a redelivery.
 */
static int track_event_id(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    const char *id = r->facts.event_id;
    uint64_t hv = mc_fnv1a64_str(MC_FNV1A64_INIT, id);
    unsigned resumes = r->facts.resumes;
    unsigned origin = resumes != 0 ? resumes : r->facts.num;
    mc__jseen_t *e;
    size_t i;

    for (i = 0; i < jh->ids_count; i++) {
        e = &jh->ids[(jh->ids_head + i) % MC_JUDGE_HTTP_MAX_EVENT_IDS];
        if (e->hash != hv)
            continue;
        if (e->origin == origin && resumes != 0)
            return 0; /* a redelivery on the stream that sent it first */
        if (resumes != 0)
            mc__jhttp_verdict(j, "http/resume-own-stream", 0, 0, 0,
                              "GET#%u, resuming POST#%u, replayed event %.60s, which %s#%u sent",
                              r->facts.num, resumes, id, e->is_get ? "GET" : "POST", e->origin);
        else
            mc__jhttp_verdict(j, "http/sse-event-id-unique", 0, 0, 0,
                              "%s#%u sent event id \"%.60s\", which %s#%u of the same session "
                              "had used",
                              kind_name(r), r->facts.num, id, e->is_get ? "GET" : "POST",
                              e->origin);
        return 1;
    }
    if (jh->ids_count == MC_JUDGE_HTTP_MAX_EVENT_IDS) {
        jh->ids_head = (jh->ids_head + 1) % MC_JUDGE_HTTP_MAX_EVENT_IDS;
        jh->ids_count--;
    }
    e = &jh->ids[(jh->ids_head + jh->ids_count) % MC_JUDGE_HTTP_MAX_EVENT_IDS];
    e->hash = hv;
    e->origin = origin;
    e->is_get = r->facts.stream == MC_STREAM_GET && resumes == 0;
    jh->ids_count++;
    mc__jhttp_verdict(j, "http/sse-event-id-unique", 1, 0, 0, "%s", "");
    if (resumes != 0)
        mc__jhttp_verdict(j, "http/resume-own-stream", 1, 0, 0, "%s", "");
    return 1;
}

void mc__jhttp_event(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r,
                     mc_record_reply_t *reply)
{
    unsigned fl = r->facts.st->flags;

    /* Event ids are held unique per session, and a resumption to its own
     * stream, only where there are sessions and resumption: 2026-07-28's
     * streams are not resumable (streamable-http#receiving-messages) and it
     * gives event ids no rule, so its event ids are not tracked. */
    if (r->facts.event_id[0] != '\0' && !(fl & MC_RS_STATELESS) &&
        !track_event_id(j, jh, r)) {
        reply->flags |= MC_RR_REDELIVERY;
        return;
    }
    /* An event with no data field carries no message. The 2025-11-25
     * priming event has an id and an empty data field instead. */
    if (!(fl & MC_RS_OVERSIZE) && !(fl & MC_RS_DATA))
        mc__jhttp_verdict(j, "http/sse-event-has-data", 0, 0, 0,
                          "%s#%u sent an SSE event without a data field (event \"%s\", id \"%s\")",
                          kind_name(r), r->facts.num,
                          r->facts.st->event != NULL ? r->facts.st->event : "",
                          r->facts.event_id);
}
