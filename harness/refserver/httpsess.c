/*
 * httpsess.c - the Streamable HTTP server's sessions and their streams:
 * session slots and ids, the SSE streams of a session (events numbered
 * "STREAM-SEQ", the last ones kept for a replay), where each message the
 * session's handler emits goes (the stream of the request it answers or
 * reports progress on, else the GET stream, else a backlog: httpemit.c), the reader
 * libmicrohttpd pulls a stream's bytes with, and finding the stream a
 * Last-Event-ID names. Everything here runs with hs->mu held, except the
 * reader, which takes it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/clock.h"
#include "core/limits.h"
#include "refserver/httpint.h"

/* --- streams ------------------------------------------------------------- */

int mc__hs_append(hs_stream_t *s, const char *a, size_t n)
{
    if (s->finished)
        return -1;
    if (s->len + n > HS_MAX_STREAM_BYTES) {
        s->finished = 1; /* the client does not read: give up on it */
        return -1;
    }
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        char *nb;
        while (cap < s->len + n)
            cap *= 2;
        nb = realloc(s->buf, cap);
        if (nb == NULL)
            return -1;
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, a, n);
    s->len += n;
    return 0;
}

/* The id of event seq of stream num: "NUM-SEQ", or only "SEQ" (the same
 * numbers on every stream) with the event-id-reused switch. */
void mc__hs_event_id(const hs_t *hs, unsigned num, unsigned seq, char *out, size_t cap)
{
    if (hs->bug == RS_HTTP_BUG_SSE_EVENT_ID_REUSED)
        snprintf(out, cap, "%u", seq);
    else
        snprintf(out, cap, "%u-%u", num, seq);
}

/* Writes one SSE event with the given id into the stream's connection. */
void mc__hs_put_event(hs_stream_t *s, const char *id, const char *line, size_t len)
{
    char head[96];
    int n = snprintf(head, sizeof(head), "id: %s\nevent: message\ndata: ", id);

    if (mc__hs_append(s, head, (size_t)n) == 0 && mc__hs_append(s, line, len) == 0)
        mc__hs_append(s, "\n\n", 2);
}

static void hist_drop_oldest(hs_stream_t *s)
{
    hs_event_t *e = &s->hist[s->h_head];

    s->h_bytes -= e->len;
    free(e->msg);
    memset(e, 0, sizeof(*e));
    s->h_head = (s->h_head + 1) % HS_REPLAY_EVENTS;
    s->h_count--;
}

/* Keeps a copy of an event for a replay, dropping the oldest past the caps. */
static void hist_add(hs_stream_t *s, unsigned seq, uint64_t order, const char *line, size_t len)
{
    hs_event_t *e;

    if (len > HS_REPLAY_BYTES)
        return;
    while (s->h_count > 0 && (s->h_count == HS_REPLAY_EVENTS || s->h_bytes + len > HS_REPLAY_BYTES))
        hist_drop_oldest(s);
    e = &s->hist[(s->h_head + s->h_count) % HS_REPLAY_EVENTS];
    e->msg = malloc(len + 1);
    if (e->msg == NULL)
        return;
    memcpy(e->msg, line, len);
    e->msg[len] = '\0';
    e->len = len;
    e->seq = seq;
    e->order = order;
    s->h_bytes += len;
    s->h_count++;
}

/* Adds one message (a line without its newline) as an SSE event: kept for
 * a replay and, while a connection reads the stream, sent. */
void mc__hs_push_event(hs_t *hs, hs_stream_t *s, const char *line, size_t len)
{
    unsigned seq = ++s->seq;
    uint64_t order = s->sess != NULL ? ++s->sess->order : 0;

    if (s->events == 0 && !s->is_get && s->first == NULL) {
        s->first = malloc(len + 1);
        if (s->first != NULL) {
            memcpy(s->first, line, len);
            s->first[len] = '\0';
            s->first_len = len;
        }
    }
    hist_add(s, seq, order, line, len);
    if (s->attached) {
        char id[48];
        mc__hs_event_id(hs, s->num, seq, id, sizeof(id));
        mc__hs_put_event(s, id, line, len);
    }
    s->events++;
    pthread_cond_broadcast(&hs->cv);
}

void mc__hs_stream_link(hs_sess_t *se, hs_stream_t *s)
{
    s->sess = se;
    s->next = se->streams;
    se->streams = s;
}

void mc__hs_stream_unlink(hs_stream_t *s)
{
    hs_stream_t **pp;

    if (s->sess == NULL)
        return;
    for (pp = &s->sess->streams; *pp != NULL; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    if (s->sess->current == s)
        s->sess->current = NULL;
    s->sess = NULL;
}

void mc__hs_stream_free(hs_stream_t *s)
{
    while (s->h_count > 0)
        hist_drop_oldest(s);
    free(s->buf);
    free(s->first);
    free(s->orig_id);
    free(s);
}

/* A new stream of session se, numbered, linked, with a connection reading it. */
hs_stream_t *mc__hs_stream_new(hs_sess_t *se, int is_get)
{
    hs_stream_t *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->is_get = is_get;
    s->attached = 1;
    s->num = ++se->next_stream;
    mc__hs_stream_link(se, s);
    return s;
}

/* Frees the detached streams of se (their connections are gone). */
void mc__hs_sess_free_detached(hs_sess_t *se)
{
    hs_stream_t **pp = &se->streams;

    while (*pp != NULL) {
        hs_stream_t *s = *pp;
        if (!s->attached) {
            *pp = s->next;
            s->sess = NULL;
            mc__hs_stream_free(s);
        } else {
            pp = &s->next;
        }
    }
}

/* Forgets the oldest detached streams of se past HS_MAX_KEPT_STREAMS. */
static void sess_prune(hs_sess_t *se)
{
    for (;;) {
        hs_stream_t *s, *oldest = NULL;
        size_t n = 0;
        for (s = se->streams; s != NULL; s = s->next)
            if (!s->attached) {
                n++;
                if (oldest == NULL || s->num < oldest->num)
                    oldest = s;
            }
        if (n <= HS_MAX_KEPT_STREAMS || oldest == NULL)
            return;
        mc__hs_stream_unlink(oldest);
        mc__hs_stream_free(oldest);
    }
}

static int sess_has_attached(const hs_sess_t *se)
{
    const hs_stream_t *s;

    for (s = se->streams; s != NULL; s = s->next)
        if (s->attached)
            return 1;
    return 0;
}

/* --- sessions ------------------------------------------------------------ */

void mc__hs_sess_drop(hs_t *hs, hs_sess_t *se)
{
    hs_stream_t *s;
    size_t i;

    mc_refserver_free(se->rs);
    se->rs = NULL;
    mc__hs_sess_free_detached(se);
    for (s = se->streams; s != NULL; s = s->next)
        s->finished = 1;
    for (i = 0; i < se->bl_n; i++)
        free(se->backlog[i]);
    se->bl_n = 0;
    se->deleted = 1;
    pthread_cond_broadcast(&hs->cv);
}

static void make_id(hs_t *hs, char *out, size_t cap)
{
    unsigned char r[16];
    size_t i, got = 0;

    while (got < sizeof(r)) {
        ssize_t n = getrandom(r + got, sizeof(r) - got, 0);
        if (n <= 0) {
            /* Never expected; fall back on time and address bits. */
            int64_t t = mc_now_ms() ^ (int64_t)(uintptr_t)out;
            for (; got < sizeof(r); got++)
                r[got] = (unsigned char)(t >> (got % 8 * 8));
            break;
        }
        got += (size_t)n;
    }
    for (i = 0; i < sizeof(r) && 2 * i + 2 < cap; i++)
        snprintf(out + 2 * i, 3, "%02x", r[i]);
    if (hs->bug == RS_HTTP_BUG_SESSION_ID_INVISIBLE && cap > 8)
        out[4] = ' ';
}

hs_sess_t *mc__hs_sess_new(hs_t *hs)
{
    size_t i;
    hs_sess_t *best = NULL;
    int64_t now = mc_now_ms();

    for (i = 0; i < HS_MAX_SESSIONS; i++) {
        hs_sess_t *se = &hs->sess[i];
        if (se->used && !se->deleted && !sess_has_attached(se) &&
            now - se->last_ms > HS_IDLE_SESSION_MS)
            mc__hs_sess_drop(hs, se);
        if ((!se->used || se->deleted) && se->streams == NULL) {
            best = se;
            break;
        }
    }
    if (best == NULL)
        return NULL;
    if (best->rs != NULL) {
        /* A slot kept alive past its DELETE by the after-delete switch. */
        size_t k;
        mc_refserver_free(best->rs);
        for (k = 0; k < best->bl_n; k++)
            free(best->backlog[k]);
    }
    memset(best, 0, sizeof(*best));
    {
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        best->rs = mc_refserver_new(hs->opts, mc__hs_on_emit, best, &eb);
    }
    if (best->rs == NULL)
        return NULL;
    best->used = 1;
    best->last_ms = now;
    make_id(hs, best->id, sizeof(best->id));
    return best;
}

hs_sess_t *mc__hs_sess_find(hs_t *hs, const char *id, int *was_deleted)
{
    size_t i;

    *was_deleted = 0;
    for (i = 0; i < HS_MAX_SESSIONS; i++) {
        hs_sess_t *se = &hs->sess[i];
        if (se->used && strcmp(se->id, id) == 0) {
            if (se->deleted && hs->bug != RS_HTTP_BUG_SESSION_AFTER_DELETE) {
                *was_deleted = 1;
                return NULL;
            }
            return se;
        }
    }
    return NULL;
}

hs_sess_t *mc__hs_sess_latest(hs_t *hs)
{
    size_t i;
    hs_sess_t *best = NULL;

    for (i = 0; i < HS_MAX_SESSIONS; i++) {
        hs_sess_t *se = &hs->sess[i];
        if (se->used && !se->deleted && (best == NULL || se->last_ms >= best->last_ms))
            best = se;
    }
    return best;
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    hs_stream_t *s = cls;
    hs_t *hs = mc__hs_g;
    ssize_t n = 0;

    (void)pos;
    int64_t idle_since = mc_now_ms();

    pthread_mutex_lock(&hs->mu);
    while (s->off == s->len && !s->finished && !s->poll_close && !hs->stopping) {
        if (mc_now_ms() - idle_since >= HS_KEEPALIVE_MS && max >= 3) {
            pthread_mutex_unlock(&hs->mu);
            memcpy(buf, ":\n\n", 3);
            return 3;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += HS_READER_WAIT_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&hs->cv, &hs->mu, &ts);
    }
    if (s->off < s->len) {
        size_t k = s->len - s->off;
        if (k > max)
            k = max;
        memcpy(buf, s->buf + s->off, k);
        s->off += k;
        if (s->off == s->len)
            s->off = s->len = 0;
        n = (ssize_t)k;
    } else {
        n = hs->stopping ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
    }
    pthread_mutex_unlock(&hs->mu);
    return n;
}

/* The connection that read s ended. A stream of a live session stays with
 * it, detached, for a resumption (sess_prune bounds how many); anything
 * else is freed. */
static void free_stream(void *cls)
{
    hs_stream_t *s = cls;
    hs_sess_t *se;

    pthread_mutex_lock(&mc__hs_g->mu);
    se = s->sess;
    s->attached = 0;
    s->poll_close = 0;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = s->off = 0;
    if (se != NULL && se->stateless) {
        /* 2026-07-28: no resumption; a closed stream cancels its request. */
        mc__hs_modern_cancel(se, s);
        s->answered = s->finished = 1;
        mc__hs_stream_unlink(s);
        pthread_mutex_unlock(&mc__hs_g->mu);
        mc__hs_stream_free(s);
        return;
    }
    if (se != NULL && !se->deleted && se->rs != NULL && !s->superseded && !mc__hs_g->stopping) {
        if (se->current == s)
            se->current = NULL;
        sess_prune(se);
        pthread_mutex_unlock(&mc__hs_g->mu);
        return;
    }
    mc__hs_stream_unlink(s);
    pthread_mutex_unlock(&mc__hs_g->mu);
    mc__hs_stream_free(s);
}

/* Hands a linked stream to MHD as an SSE answer. Called without the lock. */
enum MHD_Result mc__hs_answer_sse(struct MHD_Connection *c, hs_stream_t *s, const char *sid)
{
    struct MHD_Response *r;
    enum MHD_Result rc;

    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, read_stream, s,
                                          free_stream);
    if (r == NULL) {
        free_stream(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-cache");
    /* Reverse proxies pass the events on at once (streamable-http#receiving-messages). */
    if (!(mc__hs_g->bug == RS_HTTP_BUG_SSE_BUFFERED && s->sess != NULL && s->sess->stateless))
        MHD_add_response_header(r, "X-Accel-Buffering", "no");
    if (mc__hs_g->bug == RS_HTTP_BUG_STATELESS_SESSION_ID && s->sess != NULL && s->sess->stateless)
        MHD_add_response_header(r, "Mcp-Session-Id", "mcpcheck-minted-0001");
    if (sid != NULL)
        MHD_add_response_header(r, "Mcp-Session-Id", sid);
    rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* The stream of se that sent the event with id lei, or NULL; *seq and
 * *order get the event's number on its stream and in the session (0 when
 * the event itself is no longer kept). */
hs_stream_t *mc__hs_find_event(const hs_t *hs, hs_sess_t *se, const char *lei, unsigned *seq,
                               uint64_t *order)
{
    hs_stream_t *s;
    unsigned long num = 0, sq;
    char *end;
    size_t i;

    *order = 0;
    if (hs->bug == RS_HTTP_BUG_SSE_EVENT_ID_REUSED) {
        /* Ids name no stream: take the newest one that got that far. */
        sq = strtoul(lei, &end, 10);
        if (end == lei || *end != '\0')
            return NULL;
        for (s = se->streams; s != NULL; s = s->next)
            if (!s->superseded && s->seq >= sq)
                break;
    } else {
        num = strtoul(lei, &end, 10);
        if (end == lei || *end != '-')
            return NULL;
        sq = strtoul(end + 1, &end, 10);
        if (*end != '\0')
            return NULL;
        for (s = se->streams; s != NULL; s = s->next)
            if (!s->superseded && s->num == num && sq <= s->seq)
                break;
    }
    if (s == NULL)
        return NULL;
    *seq = (unsigned)sq;
    for (i = 0; i < s->h_count; i++) {
        const hs_event_t *e = &s->hist[(s->h_head + i) % HS_REPLAY_EVENTS];
        if (e->seq == sq)
            *order = e->order;
    }
    return s;
}

/* Replays to s every kept event of the session after the one at place
 * order, whichever stream sent it: what the resume-other-stream switch
 * does instead of replaying one stream. */
void mc__hs_replay_session(const hs_t *hs, hs_sess_t *se, uint64_t order, hs_stream_t *to)
{
    for (;;) {
        const hs_event_t *best = NULL;
        const hs_stream_t *from = NULL, *s;
        size_t i;
        char id[48];
        for (s = se->streams; s != NULL; s = s->next)
            for (i = 0; i < s->h_count; i++) {
                const hs_event_t *e = &s->hist[(s->h_head + i) % HS_REPLAY_EVENTS];
                if (e->order > order && (best == NULL || e->order < best->order)) {
                    best = e;
                    from = s;
                }
            }
        if (best == NULL)
            return;
        mc__hs_event_id(hs, from->num, best->seq, id, sizeof(id));
        mc__hs_put_event(to, id, best->msg, best->len);
        order = best->order;
    }
}

void mc__hs_modern_cancel(hs_sess_t *se, const hs_stream_t *s)
{
    char line[160];
    int n;

    if (se->rs == NULL || s->answered || s->req_id[0] == '\0')
        return;
    n = snprintf(line, sizeof(line),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                 "{\"requestId\":%s,\"reason\":\"the response stream was closed\"}}",
                 s->req_id);
    if (n > 0 && (size_t)n < sizeof(line))
        mc_refserver_handle(se->rs, line, (size_t)n, mc_now_ms());
}
