/*
 * http_legacy.c - the rules of the HTTP+SSE transport of 2024-11-05
 * (basic/transports#security-warning), judged from the records of its
 * streams: the first event of the SSE stream is the endpoint event, whose
 * URI can be used (http/sse-endpoint-event), and the two endpoints work
 * together: the stream opens, a message POSTed to the endpoint is
 * accepted, and the first initialize POSTed is answered on the stream
 * (http/sse-two-endpoints).
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonrpc.h"
#include "judge/http_internal.h"

void mc__jhttp_legacy_event(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    const mc_record_stream_t *st = r->facts.st;
    const char *type = st->event != NULL ? st->event : "";
    int first = !jh->endpoint_judged;

    jh->endpoint_judged = 1;
    if (strcmp(type, "endpoint") != 0) {
        if (first)
            mc__jhttp_verdict(j, "http/sse-endpoint-event", 0, 0, 0,
                              "GET#%u: the first SSE event was %s%.40s%s, not the endpoint event",
                              r->facts.num, type[0] ? "of type \"" : "a message event (no type)",
                              type, type[0] ? "\"" : "");
        return;
    }
    if (st->why != NULL) {
        jh->endpoint_bad = 1;
        mc__jhttp_verdict(j, "http/sse-endpoint-event", 0, 0, 0,
                          "GET#%u: the endpoint event's data \"%.60s\" is no usable URI: %.100s",
                          r->facts.num, r->data != NULL ? r->data : "", st->why);
        return;
    }
    jh->endpoint_known = 1;
    if (first)
        mc__jhttp_verdict(j, "http/sse-endpoint-event", 1, 0, 0, "%s", "");
}

void mc__jhttp_legacy_no_endpoint(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    if (!jh->endpoint_judged)
        mc__jhttp_verdict(j, "http/sse-endpoint-event", 0, 0, 0, "GET#%u: %s", r->facts.num,
                          r->facts.st->why != NULL ? r->facts.st->why : "no endpoint event");
}

void mc__jhttp_legacy_start(struct mc__judge_http *jh, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;

    /* The answer to initialize, which every server gives, shows whether the
     * two endpoints work together. */
    if (jh->probe_id[0] == '\0' && (fl & MC_RS_INITIALIZE) && !(fl & MC_RS_MALFORMED))
        snprintf(jh->probe_id, sizeof(jh->probe_id), "%s", r->facts.answers);
}

void mc__jhttp_legacy_message(mc_judge_t *j, struct mc__judge_http *jh, json_object *o)
{
    json_object *id;

    if (jh->probe_id[0] == '\0' || jh->probe_state == 2)
        return;
    if (!json_object_object_get_ex(o, "method", NULL) && json_object_object_get_ex(o, "id", &id) &&
        strcmp(mc_json_compact(id, NULL), jh->probe_id) == 0) {
        jh->probe_state = 2;
        mc__jhttp_verdict(j, "http/sse-two-endpoints", 1, 0, 0, "%s", "");
    }
}

void mc__jhttp_legacy_end(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;
    long status = r->facts.status;
    int ok = status >= 200 && status < 300;

    if (r->facts.stream == MC_STREAM_SSE) {
        if (!ok || !(fl & MC_RS_SSE)) {
            if (!(fl & MC_RS_NOT_BOUND))
                mc__jhttp_verdict(j, "http/sse-two-endpoints", 0, status, 0,
                                  "GET#%u (the SSE endpoint) got %ld %s, not an SSE stream",
                                  r->facts.num, status,
                                  r->facts.ctype[0] ? r->facts.ctype : "(no body type)");
        } else if (!jh->endpoint_known && !jh->endpoint_bad) {
            if (!jh->endpoint_judged)
                mc__jhttp_verdict(j, "http/sse-endpoint-event", 0, 0, 0,
                                  "GET#%u: the SSE stream ended before the endpoint event",
                                  r->facts.num);
            jh->endpoint_judged = 1;
        }
        return;
    }
    if (r->facts.stream != MC_STREAM_POST || (fl & MC_RS_DELETE))
        return;
    /* Malformed input or a batch the harness sends on purpose: how the
     * server refuses it is for the scenario's JSON-RPC checks. */
    if (!ok && (fl & MC_RS_SINGLE))
        mc__jhttp_verdict(j, "http/sse-two-endpoints", 0, status, 0,
                          "POST#%u to the endpoint %.80s got HTTP %ld, not accepted",
                          r->facts.num, r->facts.st->endpoint ? r->facts.st->endpoint : "",
                          status);
    else if (ok && (fl & MC_RS_REQUEST) && r->facts.answers[0] &&
             strcmp(r->facts.answers, jh->probe_id) == 0 && jh->probe_state == 0)
        jh->probe_state = 1;
}

void mc__jhttp_legacy_close(mc_judge_t *j, struct mc__judge_http *jh)
{
    if (jh->probe_state == 1)
        mc__jhttp_verdict(j, "http/sse-two-endpoints", 0, 0, 0,
                          "request %.60s was accepted by the endpoint, but its response never "
                          "came on the SSE stream",
                          jh->probe_id);
}
