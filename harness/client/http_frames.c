/*
 * http_frames.c - what the Streamable HTTP client records and hands up:
 * notes, the frame queue, and the records its sink (the judge) takes as
 * they happen: a stream's start and end, each SSE event, each message as
 * it arrives. The transport judges nothing; it acts on what the judge
 * tells it back (whether a message answers its stream's request, a
 * redelivered event).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/http_internal.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/jsonrpc.h"

/* --- notes, queue ---------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void mc__http_note(mc_http_t *h, const char *fmt, ...)
{
    va_list ap;
    size_t slot;

    if (h->n_count == NOTE_RING) {
        h->n_head = (h->n_head + 1) % NOTE_RING;
        h->n_count--;
    }
    slot = (h->n_head + h->n_count) % NOTE_RING;
    va_start(ap, fmt);
    vsnprintf(h->notes[slot], NOTE_LEN, fmt, ap);
    va_end(ap);
    h->n_count++;
}

int mc_http_take_note(mc_http_t *h, char *buf, size_t cap)
{
    if (h == NULL || h->n_count == 0)
        return 0;
    snprintf(buf, cap, "%s", h->notes[h->n_head]);
    h->n_head = (h->n_head + 1) % NOTE_RING;
    h->n_count--;
    return 1;
}

/* Fills the facts every record of stream s carries. */
static void stream_facts(const stream_t *s, mc_record_facts_t *f)
{
    /* The HTTP+SSE stream is "SSE#n": it carries every message of its
     * session, as stdout does, and is no GET stream of Streamable HTTP. */
    f->stream = s->legacy_sse ? MC_STREAM_SSE : s->kind == ST_GET ? MC_STREAM_GET
                                                                  : MC_STREAM_POST;
    f->num = s->num;
    f->status = s->status;
    f->resumes = s->resume_of;
    snprintf(f->ctype, sizeof(f->ctype), "%s", s->ctype);
    snprintf(f->session_id, sizeof(f->session_id), "%s", s->session_id);
}

void mc__http_emit_data(mc_http_t *h, const stream_t *s, mc_record_what_t what,
                        mc_record_stream_t *st, const char *data, size_t len)
{
    mc_record_reply_t reply;
    mc_record_t r;

    if (h->sink == NULL)
        return;
    memset(&r, 0, sizeof(r));
    r.what = what;
    r.data = (char *)data; /* borrowed for the call; the judge does not write */
    r.len = len;
    if (s != NULL) {
        stream_facts(s, &r.facts);
        if (s->kind == ST_DELETE)
            st->flags |= MC_RS_DELETE;
        snprintf(r.facts.answers, sizeof(r.facts.answers), "%s", s->req_id);
    }
    r.facts.st = st;
    r.at_ms = mc_now_ms();
    memset(&reply, 0, sizeof(reply));
    h->sink(h->sink_ctx, &r, &reply);
}

void mc__http_emit(mc_http_t *h, const stream_t *s, mc_record_what_t what,
                   mc_record_stream_t *st)
{
    mc__http_emit_data(h, s, what, st, NULL, 0);
}

void mc__http_emit_start(mc_http_t *h, const stream_t *s, const char *token)
{
    mc_record_stream_t st;

    memset(&st, 0, sizeof(st));
    st.flags |= s->carries_request ? MC_RS_REQUEST : 0;
    st.flags |= s->malformed ? MC_RS_MALFORMED : 0;
    st.flags |= s->is_response ? MC_RS_RESPONSE : 0;
    st.flags |= s->is_initialize ? MC_RS_INITIALIZE : 0;
    st.flags |= s->token_unkept ? MC_RS_TOKEN_UNKEPT : 0;
    st.flags |= s->modern ? MC_RS_MODERN : 0;
    st.flags |= mc__http_stateless(h, s) ? MC_RS_STATELESS : 0;
    st.flags |= h->legacy ? MC_RS_LEGACY : 0;
    st.method = s->req_method[0] ? s->req_method : NULL;
    st.token = token;
    mc__http_emit(h, s, MC_REC_STREAM_START, &st);
}

int mc__http_queue_full(const mc_http_t *h, size_t more)
{
    return h->q_count >= MC_MAX_QUEUED_FRAMES || h->q_bytes + more > MC_MAX_QUEUED_BYTES;
}

/* Queues one frame with its facts. kind OVERSIZE takes len as bytes skipped.
 * Returns 1 when the frame was queued (it is then the newest), 0 when it was
 * dropped (out of memory, or the queue full). */
int mc__http_push_frame(mc_http_t *h, stream_t *s, mc_frame_kind_t kind, const char *data,
                      size_t len, const char *event_id)
{
    mc_record_t *q;
    size_t slot;

    if (h->queue == NULL) {
        h->queue = calloc(MC_MAX_QUEUED_FRAMES, sizeof(*h->queue));
        if (h->queue == NULL)
            return 0;
    }
    if (h->q_count >= MC_MAX_QUEUED_FRAMES)
        return 0; /* callers pause first; this is the last line of defence */
    slot = (h->q_head + h->q_count) % MC_MAX_QUEUED_FRAMES;
    q = &h->queue[slot];
    memset(q, 0, sizeof(*q));
    q->kind = kind;
    q->at_ms = mc_now_ms();
    if (kind == MC_FRAME_OVERSIZE) {
        q->len = len;
    } else {
        q->data = malloc(len + 1);
        if (q->data == NULL)
            return 0;
        memcpy(q->data, data, len);
        q->data[len] = '\0';
        q->len = len;
        if (memchr(data, '\0', len) != NULL)
            q->flags |= MC_FRAME_F_NUL;
        h->q_bytes += len;
    }
    stream_facts(s, &q->facts);
    snprintf(q->facts.event_id, sizeof(q->facts.event_id), "%s",
             event_id != NULL ? event_id : "");
    s->frames++;
    h->q_count++;
    return 1;
}

/* --- one message arriving ------------------------------------------------- */

int mc__http_stateless(const mc_http_t *h, const stream_t *s)
{
    return s->modern || h->modern_version[0] != '\0';
}

/*
 * Hands the judge (the sink) a message as it arrives on stream s, for the
 * rules about where a message may come, and takes back what the transport
 * needs of it: whether it answers the stream's request (a stream that
 * ends before its answer is resumed), the version initialize's result
 * names (sent in MCP-Protocol-Version), a tools/list result's
 * x-mcp-header annotations (mirrored in headers). The transport parses
 * nothing of it itself.
 */
void mc__http_emit_message(mc_http_t *h, stream_t *s, const char *data, size_t len,
                              const char *event_id)
{
    mc_record_t r;
    mc_record_stream_t st;
    mc_record_reply_t reply;

    if (h->sink == NULL)
        return;
    memset(&r, 0, sizeof(r));
    memset(&st, 0, sizeof(st));
    memset(&reply, 0, sizeof(reply));
    r.what = MC_REC_MESSAGE;
    r.kind = MC_FRAME_LINE;
    r.data = (char *)data; /* borrowed for the call; the judge does not write */
    r.len = len;
    r.at_ms = mc_now_ms();
    stream_facts(s, &r.facts);
    snprintf(r.facts.event_id, sizeof(r.facts.event_id), "%s", event_id != NULL ? event_id : "");
    st.flags = mc__http_stateless(h, s) ? MC_RS_STATELESS : 0;
    st.flags |= h->modern_version[0] != '\0' ? MC_RS_MODERN : 0;
    r.facts.st = &st;
    h->sink(h->sink_ctx, &r, &reply);
    if (reply.flags & MC_RR_RESPONSE)
        s->responses++;
    if (reply.flags & MC_RR_ANSWERS)
        s->answered = 1;
    if (reply.version[0] != '\0' && strlen(reply.version) < sizeof(h->version))
        snprintf(h->version, sizeof(h->version), "%s", reply.version);
    if (reply.result != NULL)
        mc__http_learn_tools(h, reply.result);
}

/* Hands the sink the record of SSE event ev on s. Returns 0 when the
 * judge finds it a redelivery (a resumption repeating an event of the
 * stream it resumes), which is not passed on again. */
static int emit_event(mc_http_t *h, const stream_t *s, const mc_sse_event_t *ev)
{
    mc_record_t r;
    mc_record_stream_t st;
    mc_record_reply_t reply;

    if (h->sink == NULL)
        return 1;
    memset(&r, 0, sizeof(r));
    memset(&st, 0, sizeof(st));
    memset(&reply, 0, sizeof(reply));
    r.what = MC_REC_SSE_EVENT;
    r.at_ms = mc_now_ms();
    stream_facts(s, &r.facts);
    snprintf(r.facts.event_id, sizeof(r.facts.event_id), "%s", ev->has_id ? ev->id : "");
    st.flags |= mc__http_stateless(h, s) ? MC_RS_STATELESS : 0;
    st.flags |= ev->has_data ? MC_RS_DATA : 0;
    st.flags |= ev->oversize ? MC_RS_OVERSIZE : 0;
    st.event = ev->event;
    r.facts.st = &st;
    h->sink(h->sink_ctx, &r, &reply);
    return (reply.flags & MC_RR_REDELIVERY) == 0;
}

int mc__http_on_sse_event(void *ctx, const mc_sse_event_t *ev)
{
    stream_t *s = ctx;
    mc_http_t *h = s->h;

    if (s->legacy_sse)
        return mc__http_legacy_event(h, s, ev);
    if (!s->first_event) {
        s->first_event = 1;
        s->primed = ev->has_id && ev->id[0] != '\0' && ev->has_data && ev->data_len == 0;
    }
    /* The judge holds the event to its rules (event ids, a data field) and
     * tells a redelivery. */
    if (!emit_event(h, s, ev)) {
        mc__http_note(h, "GET#%u: event %.60s came before on this stream; not passed on again", s->num,
             ev->id);
        return 0;
    }
    if (ev->oversize) {
        mc__http_push_frame(h, s, MC_FRAME_OVERSIZE, NULL, MC_MAX_MESSAGE_SIZE, ev->id);
        return 0;
    }
    if (!ev->has_data)
        return 0; /* no message (http/sse-event-has-data) */
    if (ev->data_len == 0)
        return 0; /* a priming event: an id and empty data */
    if (ev->event[0] != '\0' && strcmp(ev->event, "message") != 0) {
        mc__http_note(h, "%s#%u: SSE event of type \"%.40s\" ignored", s->kind == ST_GET ? "GET" : "POST",
             s->num, ev->event);
        return 0;
    }
    s->new_events++;
    mc__http_emit_message(h, s, ev->data, ev->data_len, ev->has_id ? ev->id : NULL);
    mc__http_push_frame(h, s, MC_FRAME_LINE, ev->data, ev->data_len, ev->has_id ? ev->id : NULL);
    return 0;
}
