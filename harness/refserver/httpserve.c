#include "refserver/httpserve.h"
#include "core/version.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/clock.h"
#include "core/limits.h"

/* Sessions served at once; an initialize past this is refused with 503. */
#define HS_MAX_SESSIONS 256
/* Bytes waiting to be sent on one stream; past it the stream is ended. */
#define HS_MAX_STREAM_BYTES (4u * MC_MAX_MESSAGE_SIZE)
/* Messages kept for a GET stream that is not open yet. */
#define HS_MAX_BACKLOG 256
/* A session nobody used for this long is dropped. */
#define HS_IDLE_SESSION_MS (10 * 60 * 1000)
/* Seconds an idle keep-alive connection is kept. */
#define HS_CONNECTION_TIMEOUT_S 120
/* Longest wait of a stream's writer before it checks for shutdown. */
#define HS_READER_WAIT_MS 200
/* An idle stream sends an SSE comment this often, so a client that went
 * away is noticed (the write fails) and its stream freed. */
#define HS_KEEPALIVE_MS 1000
/* Longest sleep of the timer loop. */
#define HS_TICK_MAX_MS 10
/* Connections served at once. */
#define HS_MAX_CONNECTIONS 512
/* Resumability: the last events of each stream are kept for a replay after
 * Last-Event-ID, at most this many and this many bytes (older ones are
 * dropped first; a message larger than the byte cap is never kept). */
#define HS_REPLAY_EVENTS 64
#define HS_REPLAY_BYTES (256u * 1024u)
/* Streams whose connection ended that a session keeps for resumption; the
 * oldest is forgotten past this. Worst case the replay buffers hold
 * HS_MAX_SESSIONS * HS_MAX_KEPT_STREAMS * HS_REPLAY_BYTES. */
#define HS_MAX_KEPT_STREAMS 16
/* The retry field of the priming event with --sse-poll (milliseconds). */
#define HS_POLL_RETRY_MS 100

#define ENDPOINT "/mcp"

typedef struct hs_sess hs_sess_t;

/* One event kept for a replay. */
typedef struct hs_event {
    unsigned seq;   /* its number on its stream */
    uint64_t order; /* its place among every event of the session */
    char *msg;      /* the message (owned, NUL-terminated) */
    size_t len;
} hs_event_t;

/*
 * A stream: a POST's answer or the GET stream. Its events carry ids
 * "NUM-SEQ" (the stream's number in the session, the event's number on the
 * stream), unique across the session and naming the stream, so a GET with
 * Last-Event-ID finds the stream and replays its later events. When the
 * connection that read it ends, the stream stays with its session
 * (detached), still collecting the messages meant for it, until it is
 * resumed or forgotten.
 */
typedef struct hs_stream {
    hs_sess_t *sess;
    int is_get;
    char req_id[64];      /* POST: the request's id as compact JSON */
    char token[64];       /* POST: the request's progressToken as compact JSON, or "" */
    int answered;         /* the response went out (or elsewhere) */
    int finished;         /* no more bytes will be added */
    int attached;         /* a connection reads buf */
    int superseded;       /* a resumption took the stream over; only its old connection is left */
    int poll_close;       /* end the connection once buf is drained (--sse-poll) */
    unsigned num;         /* the stream's number in its session */
    unsigned seq;         /* events numbered so far */
    hs_event_t hist[HS_REPLAY_EVENTS]; /* ring of the last events */
    size_t h_head, h_count, h_bytes;
    char *buf;
    size_t len, cap, off;
    unsigned events;
    char *first;          /* the first message, kept for a JSON answer */
    size_t first_len;
    struct hs_stream *next;
} hs_stream_t;

struct hs_sess {
    int used, deleted;
    char id[48];
    mc_refserver_t *rs;
    hs_stream_t *streams;
    hs_stream_t *current;  /* the POST being handled */
    int64_t last_ms;
    char *backlog[HS_MAX_BACKLOG];
    size_t bl_n;
    unsigned next_stream;  /* the number of the last stream opened */
    uint64_t order;        /* events sent in the session so far */
};

typedef struct hs {
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* new bytes on some stream, or shutdown */
    hs_sess_t *sess;        /* HS_MAX_SESSIONS */
    const mc_refserver_opts_t *opts;
    rs_http_bug_t bug;
    unsigned flags;         /* MC_REFSERVER_HTTP_* */
    int stopping;
} hs_t;

typedef struct hs_req {
    char *body;
    size_t len, cap;
    int too_big;
} hs_req_t;

static const struct {
    const char *id, *level, *desc;
} g_bugs[] = {
#define RS__XX(name, id, level, desc) {id, level, desc},
    RS_HTTP_BUG_MAP(RS__XX)
#undef RS__XX
};

rs_http_bug_t mc_refserver_http_bug(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < sizeof(g_bugs) / sizeof(g_bugs[0]); i++)
        if (strcmp(name, g_bugs[i].id) == 0)
            return (rs_http_bug_t)(i + 1);
    return RS_HTTP_BUG_NONE;
}

void mc_refserver_http_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx)
{
    size_t i;
    char line[300];

    for (i = 0; i < sizeof(g_bugs) / sizeof(g_bugs[0]); i++) {
        snprintf(line, sizeof(line), "%s\t%s\t%s\t%s/basic/transports#%s", g_bugs[i].id,
                 g_bugs[i].level, g_bugs[i].desc, MC_VERSION_BASELINE,
                 strstr(g_bugs[i].id, "resume") != NULL || strstr(g_bugs[i].id, "event-id")
                     ? "resumability-and-redelivery"
                     : "streamable-http");
        fn(ctx, line);
    }
}

/* --- streams ------------------------------------------------------------- */

static int append(hs_stream_t *s, const char *a, size_t n)
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
static void event_id(const hs_t *hs, unsigned num, unsigned seq, char *out, size_t cap)
{
    if (hs->bug == RS_HTTP_BUG_SSE_EVENT_ID_REUSED)
        snprintf(out, cap, "%u", seq);
    else
        snprintf(out, cap, "%u-%u", num, seq);
}

/* Writes one SSE event with the given id into the stream's connection. */
static void put_event(hs_stream_t *s, const char *id, const char *line, size_t len)
{
    char head[96];
    int n = snprintf(head, sizeof(head), "id: %s\nevent: message\ndata: ", id);

    if (append(s, head, (size_t)n) == 0 && append(s, line, len) == 0)
        append(s, "\n\n", 2);
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
static void push_event(hs_t *hs, hs_stream_t *s, const char *line, size_t len)
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
        event_id(hs, s->num, seq, id, sizeof(id));
        put_event(s, id, line, len);
    }
    s->events++;
    pthread_cond_broadcast(&hs->cv);
}

static void stream_link(hs_sess_t *se, hs_stream_t *s)
{
    s->sess = se;
    s->next = se->streams;
    se->streams = s;
}

static void stream_unlink(hs_stream_t *s)
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

static void stream_free(hs_stream_t *s)
{
    while (s->h_count > 0)
        hist_drop_oldest(s);
    free(s->buf);
    free(s->first);
    free(s);
}

/* A new stream of session se, numbered, linked, with a connection reading it. */
static hs_stream_t *stream_new(hs_sess_t *se, int is_get)
{
    hs_stream_t *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->is_get = is_get;
    s->attached = 1;
    s->num = ++se->next_stream;
    stream_link(se, s);
    return s;
}

/* Frees the detached streams of se (their connections are gone). */
static void sess_free_detached(hs_sess_t *se)
{
    hs_stream_t **pp = &se->streams;

    while (*pp != NULL) {
        hs_stream_t *s = *pp;
        if (!s->attached) {
            *pp = s->next;
            s->sess = NULL;
            stream_free(s);
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
        stream_unlink(oldest);
        stream_free(oldest);
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

/* --- routing what a session's handler emits ------------------------------ */

static hs_t *g_hs; /* the emit callback's way back; one server per process */

/* The progressToken of a notifications/progress message as compact JSON
 * into out, or "" when o is none. */
static void progress_token_of(json_object *o, char *out, size_t cap)
{
    json_object *m, *p, *t;

    out[0] = '\0';
    if (json_object_object_get_ex(o, "method", &m) &&
        strcmp(json_object_get_string(m), "notifications/progress") == 0 &&
        json_object_object_get_ex(o, "params", &p) &&
        json_object_object_get_ex(p, "progressToken", &t))
        snprintf(out, cap, "%s", json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
}

static void on_emit(void *ctx, const char *line, size_t len)
{
    hs_sess_t *se = ctx;
    hs_t *hs = g_hs;
    json_object *o, *id = NULL;
    hs_stream_t *s, *target = NULL, *get = NULL;
    int is_response = 0;
    char ids[64] = "", token[64] = "";

    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    {
        /* The emitted line is borrowed and need not end in NUL. */
        json_tokener *tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
        o = NULL;
        if (tok != NULL) {
            o = json_tokener_parse_ex(tok, line, (int)len);
            json_tokener_free(tok);
        }
    }
    if (o != NULL && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "id", &id) &&
        !json_object_object_get_ex(o, "method", NULL)) {
        is_response = 1;
        snprintf(ids, sizeof(ids), "%s", json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN));
    } else if (o != NULL && json_object_is_type(o, json_type_object)) {
        progress_token_of(o, token, sizeof(token));
    }
    json_object_put(o);
    for (s = se->streams; s != NULL; s = s->next)
        if (s->is_get && s->attached && !s->finished && get == NULL)
            get = s;
    if (is_response) {
        for (s = se->streams; s != NULL; s = s->next)
            if (!s->is_get && !s->answered && !s->superseded && strcmp(s->req_id, ids) == 0) {
                target = s;
                break;
            }
        if (target == NULL && se->current != NULL && !se->current->answered)
            target = se->current; /* the answer to an unreadable body or id */
        if (target != NULL && hs->bug == RS_HTTP_BUG_RESPONSE_WRONG_STREAM && get != NULL) {
            push_event(hs, get, line, len);
            target->answered = target->finished = 1;
            pthread_cond_broadcast(&hs->cv);
            return;
        }
        if (target != NULL) {
            push_event(hs, target, line, len);
            target->answered = target->finished = 1;
        }
        return;
    }
    /* A notification or a server request: the stream of the request whose
     * progress it reports, else the POST being handled, else the newest
     * POST stream still open (one a connection reads before one waiting to
     * be resumed), else the GET stream, else the backlog. */
    for (s = se->streams; token[0] != '\0' && target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded && strcmp(s->token, token) == 0)
            target = s;
    if (target == NULL && se->current != NULL && !se->current->finished)
        target = se->current;
    for (s = se->streams; target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->finished && !s->superseded && s->attached)
            target = s;
    for (s = se->streams; target == NULL && s != NULL; s = s->next)
        if (!s->is_get && !s->answered && !s->superseded)
            target = s;
    if (target == NULL)
        target = get;
    if (target != NULL) {
        push_event(hs, target, line, len);
        return;
    }
    if (se->bl_n < HS_MAX_BACKLOG) {
        char *c = malloc(len + 1);
        if (c != NULL) {
            memcpy(c, line, len);
            c[len] = '\0';
            se->backlog[se->bl_n++] = c;
        }
    }
}

/* --- sessions ------------------------------------------------------------ */

static void sess_drop(hs_t *hs, hs_sess_t *se)
{
    hs_stream_t *s;
    size_t i;

    mc_refserver_free(se->rs);
    se->rs = NULL;
    sess_free_detached(se);
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

static hs_sess_t *sess_new(hs_t *hs)
{
    size_t i;
    hs_sess_t *best = NULL;
    int64_t now = mc_now_ms();

    for (i = 0; i < HS_MAX_SESSIONS; i++) {
        hs_sess_t *se = &hs->sess[i];
        if (se->used && !se->deleted && !sess_has_attached(se) &&
            now - se->last_ms > HS_IDLE_SESSION_MS)
            sess_drop(hs, se);
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
        best->rs = mc_refserver_new(hs->opts, on_emit, best, &eb);
    }
    if (best->rs == NULL)
        return NULL;
    best->used = 1;
    best->last_ms = now;
    make_id(hs, best->id, sizeof(best->id));
    return best;
}

static hs_sess_t *sess_find(hs_t *hs, const char *id, int *was_deleted)
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

static hs_sess_t *sess_latest(hs_t *hs)
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

/* --- HTTP answers --------------------------------------------------------- */

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *ctype,
                              const char *body, const char *sid, const char *allow)
{
    struct MHD_Response *r;
    enum MHD_Result rc;

    r = MHD_create_response_from_buffer(body ? strlen(body) : 0, (void *)(body ? body : ""),
                                        MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    if (ctype != NULL)
        MHD_add_response_header(r, "Content-Type", ctype);
    if (sid != NULL)
        MHD_add_response_header(r, "Mcp-Session-Id", sid);
    if (allow != NULL)
        MHD_add_response_header(r, "Allow", allow);
    rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result answer_error_id(struct MHD_Connection *c, unsigned status, int code,
                                       const char *msg, const char *id)
{
    char body[512];

    snprintf(body, sizeof(body),
             "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":%d,\"message\":\"%s\"}}",
             id != NULL && id[0] != '\0' ? id : "null", code, msg);
    return answer(c, status, "application/json", body, NULL, NULL);
}

/* An HTTP error with a JSON-RPC error body that has no id. */
static enum MHD_Result answer_error(struct MHD_Connection *c, unsigned status, int code,
                                    const char *msg)
{
    return answer_error_id(c, status, code, msg, NULL);
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    hs_stream_t *s = cls;
    hs_t *hs = g_hs;
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

    pthread_mutex_lock(&g_hs->mu);
    se = s->sess;
    s->attached = 0;
    s->poll_close = 0;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = s->off = 0;
    if (se != NULL && !se->deleted && se->rs != NULL && !s->superseded && !g_hs->stopping) {
        if (se->current == s)
            se->current = NULL;
        sess_prune(se);
        pthread_mutex_unlock(&g_hs->mu);
        return;
    }
    stream_unlink(s);
    pthread_mutex_unlock(&g_hs->mu);
    stream_free(s);
}

/* Hands a linked stream to MHD as an SSE answer. Called without the lock. */
static enum MHD_Result answer_sse(struct MHD_Connection *c, hs_stream_t *s, const char *sid)
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
    if (sid != NULL)
        MHD_add_response_header(r, "Mcp-Session-Id", sid);
    rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* --- request checks -------------------------------------------------------- */

/* True when the host part of a Host header or of an Origin URL is a loopback name. */
static int loopback_host(const char *v, int is_origin)
{
    char h[256];
    const char *p = v;
    size_t n;
    struct in_addr a4;

    if (is_origin) {
        if (strncasecmp(p, "http://", 7) == 0)
            p += 7;
        else if (strncasecmp(p, "https://", 8) == 0)
            p += 8;
        else
            return 0;
    }
    if (*p == '[') {
        const char *e = strchr(p, ']');
        if (e == NULL)
            return 0;
        return (size_t)(e - p) == 4 && strncmp(p, "[::1", 4) == 0;
    }
    n = strcspn(p, ":/");
    if (n == 0 || n >= sizeof(h))
        return 0;
    memcpy(h, p, n);
    h[n] = '\0';
    if (strcasecmp(h, "localhost") == 0)
        return 1;
    return inet_pton(AF_INET, h, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127;
}

static int known_version(const char *v)
{
    /* The versions the server speaks over Streamable HTTP: those with the
     * handshake that have this transport (2024-11-05 had HTTP+SSE). */
    return mc_version_has(v, MC_VF_INITIALIZE | MC_VF_STREAMABLE_HTTP);
}

static int accepts(const char *accept, const char *type)
{
    return accept != NULL && (strstr(accept, type) != NULL || strstr(accept, "*/*") != NULL);
}

typedef enum body_kind { B_INVALID, B_REQUEST, B_NOTIFICATION, B_RESPONSE } body_kind_t;

static body_kind_t classify(const char *body, size_t len, char *id, size_t id_cap, int *is_init,
                            char *token, size_t token_cap)
{
    json_tokener *tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    json_object *o, *v;
    body_kind_t k = B_INVALID;

    *is_init = 0;
    if (tok == NULL)
        return B_INVALID;
    o = json_tokener_parse_ex(tok, body, (int)len);
    if (o != NULL && json_tokener_get_parse_end(tok) < len) {
        size_t e = json_tokener_get_parse_end(tok);
        while (e < len && (body[e] == ' ' || body[e] == '\n' || body[e] == '\r' || body[e] == '\t'))
            e++;
        if (e < len) {
            json_object_put(o);
            o = NULL;
        }
    }
    json_tokener_free(tok);
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return B_INVALID;
    }
    if (json_object_object_get_ex(o, "method", &v) && json_object_is_type(v, json_type_string)) {
        if (json_object_object_get_ex(o, "id", &v)) {
            k = B_REQUEST;
            snprintf(id, id_cap, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
            *is_init = strcmp(json_object_get_string(json_object_object_get(o, "method")),
                              "initialize") == 0;
            {
                json_object *p, *m, *t;
                if (json_object_object_get_ex(o, "params", &p) &&
                    json_object_is_type(p, json_type_object) &&
                    json_object_object_get_ex(p, "_meta", &m) &&
                    json_object_is_type(m, json_type_object) &&
                    json_object_object_get_ex(m, "progressToken", &t))
                    snprintf(token, token_cap, "%s",
                             json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
            }
        } else {
            k = B_NOTIFICATION;
        }
    } else if (json_object_object_get_ex(o, "id", NULL) &&
               (json_object_object_get_ex(o, "result", NULL) ||
                json_object_object_get_ex(o, "error", NULL))) {
        k = B_RESPONSE;
    }
    json_object_put(o);
    return k;
}

/* --- the handler ----------------------------------------------------------- */

static enum MHD_Result do_post(hs_t *hs, struct MHD_Connection *c, hs_req_t *rq)
{
    const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    const char *acc = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    char id[64] = "", token[64] = "";
    int is_init, deleted;
    body_kind_t k;
    hs_sess_t *se;
    hs_stream_t *s;
    char sidcopy[48];

    if (rq->too_big)
        return answer_error(c, 413, -32600, "the body is larger than the message size limit");
    if (ct == NULL || strncasecmp(ct, "application/json", 16) != 0)
        return answer_error(c, 415, -32600, "Content-Type must be application/json");
    if (!accepts(acc, "application/json") || !accepts(acc, "text/event-stream"))
        return answer_error(c, 406,  -32600,
                            "Accept must list application/json and text/event-stream");
    k = classify(rq->body ? rq->body : "", rq->len, id, sizeof(id), &is_init, token,
                 sizeof(token));

    pthread_mutex_lock(&hs->mu);
    if (is_init) {
        se = sess_new(hs);
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error(c, 503, -32000, "too many sessions");
        }
    } else if (sid == NULL) {
        se = hs->bug == RS_HTTP_BUG_SESSION_OPTIONAL ? sess_latest(hs) : NULL;
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error_id(c, 400, -32000, "Bad Request: Mcp-Session-Id header is required",
                                   id);
        }
    } else {
        se = sess_find(hs, sid, &deleted);
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error_id(c, 404, -32001, "Session not found", id);
        }
    }
    se->last_ms = mc_now_ms();
    snprintf(sidcopy, sizeof(sidcopy), "%s", se->id);
    if (se->rs == NULL) {
        /* A deleted session kept alive by the after-delete switch. */
        se->rs = mc_refserver_new(hs->opts, on_emit, se, &(mc_errbuf_t){0});
        se->deleted = 0;
        if (se->rs == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error(c, 500, -32603, "out of memory");
        }
    }
    if (k == B_NOTIFICATION || k == B_RESPONSE) {
        se->current = NULL;
        mc_refserver_handle(se->rs, rq->body, rq->len, mc_now_ms());
        pthread_mutex_unlock(&hs->mu);
        if (hs->bug == RS_HTTP_BUG_NOTIFICATION_200)
            return answer(c, MHD_HTTP_OK, NULL, NULL, NULL, NULL);
        return answer(c, MHD_HTTP_ACCEPTED, NULL, NULL, NULL, NULL);
    }
    s = stream_new(se, 0);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 500, -32603, "out of memory");
    }
    snprintf(s->req_id, sizeof(s->req_id), "%s", id);
    snprintf(s->token, sizeof(s->token), "%s", token);
    if (hs->bug == RS_HTTP_BUG_SSE_NO_DATA && k == B_REQUEST)
        append(s, "event: ping\n\n", 13);
    if ((hs->flags & MC_REFSERVER_HTTP_SSE_POLL) && k == B_REQUEST) {
        /* The priming event (an id, a retry, empty data); the connection
         * ends once what is ready now is sent, and the client resumes. */
        char head[96], eid[48];
        int n;
        event_id(hs, s->num, ++s->seq, eid, sizeof(eid));
        n = snprintf(head, sizeof(head), "id: %s\nretry: %d\ndata: \n\n", eid, HS_POLL_RETRY_MS);
        append(s, head, (size_t)n);
        s->poll_close = 1;
    }
    se->current = s;
    mc_refserver_handle(se->rs, rq->body ? rq->body : "", rq->len, mc_now_ms());
    se->current = NULL;
    if (k == B_INVALID) {
        /* Not a single JSON-RPC message: the handler's error, with 400. */
        char *first = s->first;
        enum MHD_Result rc;
        s->first = NULL;
        stream_unlink(s);
        pthread_mutex_unlock(&hs->mu);
        stream_free(s);
        rc = answer(c, 400, "application/json", first ? first : "", NULL, NULL);
        free(first);
        return rc;
    }
    if (s->answered && s->events == 1 && s->first != NULL && hs->bug != RS_HTTP_BUG_SSE_NO_DATA) {
        char *first = s->first;
        enum MHD_Result rc;
        s->first = NULL;
        stream_unlink(s);
        pthread_mutex_unlock(&hs->mu);
        stream_free(s);
        rc = answer(c, MHD_HTTP_OK, "application/json", first, is_init ? sidcopy : NULL, NULL);
        free(first);
        return rc;
    }
    pthread_mutex_unlock(&hs->mu);
    return answer_sse(c, s, is_init ? sidcopy : NULL);
}

/* The stream of se that sent the event with id lei, or NULL; *seq and
 * *order get the event's number on its stream and in the session (0 when
 * the event itself is no longer kept). */
static hs_stream_t *find_event(const hs_t *hs, hs_sess_t *se, const char *lei, unsigned *seq,
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
static void replay_session(const hs_t *hs, hs_sess_t *se, uint64_t order, hs_stream_t *to)
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
        event_id(hs, from->num, best->seq, id, sizeof(id));
        put_event(to, id, best->msg, best->len);
        order = best->order;
    }
}

/*
 * GET with Last-Event-ID: the stream that sent that event continues on this
 * connection. Its kept events after that one are sent again (the oldest may
 * have been dropped), then whatever it is sent from now on; a stream that
 * already carried its response ends after the replay. An id that names no
 * stream of the session is refused with 400. Called with the lock held;
 * releases it.
 */
static enum MHD_Result do_resume(hs_t *hs, struct MHD_Connection *c, hs_sess_t *se,
                                 const char *lei)
{
    hs_stream_t *old, *s;
    unsigned seq = 0;
    uint64_t order = 0;
    size_t i;

    old = find_event(hs, se, lei, &seq, &order);
    if (old == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 400, -32000,
                            "Bad Request: Last-Event-ID names no stream of this session");
    }
    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 500, -32603, "out of memory");
    }
    /* The new connection takes the stream over, its kept events with it. */
    s->is_get = old->is_get;
    s->num = old->num;
    s->seq = old->seq;
    s->answered = old->answered;
    s->events = old->events;
    s->attached = 1;
    snprintf(s->req_id, sizeof(s->req_id), "%s", old->req_id);
    snprintf(s->token, sizeof(s->token), "%s", old->token);
    memcpy(s->hist, old->hist, sizeof(s->hist));
    s->h_head = old->h_head;
    s->h_count = old->h_count;
    s->h_bytes = old->h_bytes;
    memset(old->hist, 0, sizeof(old->hist));
    old->h_count = old->h_bytes = 0;
    old->superseded = old->answered = old->finished = 1;
    old->off = old->len = 0;
    if (!old->attached) {
        stream_unlink(old);
        stream_free(old);
    }
    stream_link(se, s);
    if (hs->bug == RS_HTTP_BUG_RESUME_OTHER_STREAM) {
        replay_session(hs, se, order, s);
    } else {
        for (i = 0; i < s->h_count; i++) {
            const hs_event_t *e = &s->hist[(s->h_head + i) % HS_REPLAY_EVENTS];
            char id[48];
            if (e->seq <= seq)
                continue;
            event_id(hs, s->num, e->seq, id, sizeof(id));
            put_event(s, id, e->msg, e->len);
        }
    }
    if (s->answered && !s->is_get)
        s->finished = 1;
    pthread_cond_broadcast(&hs->cv);
    pthread_mutex_unlock(&hs->mu);
    return answer_sse(c, s, NULL);
}

static enum MHD_Result do_get(hs_t *hs, struct MHD_Connection *c)
{
    const char *acc = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    const char *lei;
    hs_sess_t *se;
    hs_stream_t *s;
    int deleted;
    size_t i;

    if (!accepts(acc, "text/event-stream"))
        return answer_error(c, 406, -32600, "Accept must list text/event-stream");
    pthread_mutex_lock(&hs->mu);
    if (sid == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    se = sess_find(hs, sid, &deleted);
    if (se == NULL || se->rs == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 404, -32001, "Session not found");
    }
    lei = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (lei != NULL)
        return do_resume(hs, c, se, lei); /* it unlocks */
    s = stream_new(se, 1);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 500, -32603, "out of memory");
    }
    if (hs->bug == RS_HTTP_BUG_SSE_NO_DATA)
        append(s, "event: ping\n\n", 13);
    for (i = 0; i < se->bl_n; i++) {
        push_event(hs, s, se->backlog[i], strlen(se->backlog[i]));
        free(se->backlog[i]);
    }
    se->bl_n = 0;
    pthread_mutex_unlock(&hs->mu);
    return answer_sse(c, s, NULL);
}

static enum MHD_Result do_delete(hs_t *hs, struct MHD_Connection *c)
{
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    hs_sess_t *se;
    int deleted;

    pthread_mutex_lock(&hs->mu);
    if (sid == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    se = sess_find(hs, sid, &deleted);
    if (se == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 404, -32001, "Session not found");
    }
    if (hs->bug != RS_HTTP_BUG_SESSION_AFTER_DELETE)
        sess_drop(hs, se);
    else {
        hs_stream_t *s;
        se->deleted = 1; /* still answers, but its slot may be reused */
        sess_free_detached(se);
        for (s = se->streams; s != NULL; s = s->next)
            s->finished = 1;
        pthread_cond_broadcast(&hs->cv);
    }
    pthread_mutex_unlock(&hs->mu);
    return answer(c, MHD_HTTP_OK, NULL, NULL, NULL, NULL);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **con_cls)
{
    hs_t *hs = cls;
    hs_req_t *rq = *con_cls;
    const char *host, *origin, *pv;

    (void)version;
    if (rq == NULL) {
        rq = calloc(1, sizeof(*rq));
        if (rq == NULL)
            return MHD_NO;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size > 0) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->too_big || rq->len + n > MC_MAX_MESSAGE_SIZE) {
            rq->too_big = 1;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t cap = rq->cap ? rq->cap : 4096;
            char *nb;
            while (cap < rq->len + n + 1)
                cap *= 2;
            nb = realloc(rq->body, cap);
            if (nb == NULL) {
                rq->too_big = 1;
                return MHD_YES;
            }
            rq->body = nb;
            rq->cap = cap;
        }
        memcpy(rq->body + rq->len, upload_data, n);
        rq->len += n;
        rq->body[rq->len] = '\0';
        return MHD_YES;
    }
    if (strcmp(url, ENDPOINT) != 0)
        return answer_error(c, 404, -32000, "Not Found: the MCP endpoint is " ENDPOINT);
    host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (host == NULL || !loopback_host(host, 0))
        return answer_error(c, 403, -32000, "Forbidden: Host is not a loopback name");
    origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (origin != NULL && !loopback_host(origin, 1) && hs->bug != RS_HTTP_BUG_FOREIGN_ORIGIN)
        return answer_error(c, 403, -32000, "Forbidden: Origin not allowed");
    pv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    if (pv != NULL && !known_version(pv))
        return answer_error(c, 400, -32000, "Bad Request: unsupported MCP-Protocol-Version");
    if (strcmp(method, "POST") == 0)
        return do_post(hs, c, rq);
    if (strcmp(method, "GET") == 0)
        return do_get(hs, c);
    if (strcmp(method, "DELETE") == 0)
        return do_delete(hs, c);
    return answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json",
                  "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                  "\"message\":\"Method not allowed\"}}",
                  NULL, "GET, POST, DELETE");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    hs_req_t *rq = *con_cls;

    (void)cls;
    (void)c;
    (void)toe;
    if (rq != NULL) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

/* --- serving ---------------------------------------------------------------- */

static int parse_addr(const char *addr, struct sockaddr_in *sa)
{
    char host[64];
    const char *colon = strrchr(addr, ':');
    char *end;
    long port;
    size_t n;

    if (colon == NULL)
        return -1;
    n = (size_t)(colon - addr);
    if (n == 0 || n >= sizeof(host))
        return -1;
    memcpy(host, addr, n);
    host[n] = '\0';
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof(host), "127.0.0.1");
    port = strtol(colon + 1, &end, 10);
    if (*end != '\0' || end == colon + 1 || port < 0 || port > 65535)
        return -1;
    memset(sa, 0, sizeof(*sa));
    sa->sin_family = AF_INET;
    sa->sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
        return -1;
    return 0;
}

int mc_refserver_http_serve(const mc_refserver_opts_t *opts, rs_http_bug_t bug, unsigned flags,
                            const char *addr,
                            volatile int *stop, void (*on_listen)(void *ctx, const char *url),
                            void *ctx, mc_errbuf_t *eb)
{
    struct sockaddr_in sa;
    struct MHD_Daemon *d;
    const union MHD_DaemonInfo *info;
    hs_t hs;
    char ip[INET_ADDRSTRLEN];
    size_t i;

    if (parse_addr(addr, &sa) != 0) {
        mc_errbuf_set(eb, MC_EINVAL, "--http wants IPV4:PORT, not \"%s\"", addr);
        return MC_EINVAL;
    }
    memset(&hs, 0, sizeof(hs));
    hs.opts = opts;
    hs.bug = bug;
    hs.flags = flags;
    hs.sess = calloc(HS_MAX_SESSIONS, sizeof(*hs.sess));
    if (hs.sess == NULL) {
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return MC_ENOMEM;
    }
    pthread_mutex_init(&hs.mu, NULL);
    pthread_cond_init(&hs.cv, NULL);
    g_hs = &hs;
    d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL,
                         NULL, on_request, &hs, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HS_CONNECTION_TIMEOUT_S,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)HS_MAX_CONNECTIONS,
                         MHD_OPTION_NOTIFY_COMPLETED, on_completed, &hs, MHD_OPTION_END);
    if (d == NULL) {
        mc_errbuf_set(eb, MC_EIO, "cannot listen on %s", addr);
        free(hs.sess);
        return MC_EIO;
    }
    info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
    {
        char url[128];
        snprintf(url, sizeof(url), "http://%s:%u" ENDPOINT, ip,
                 info != NULL ? (unsigned)info->port : (unsigned)ntohs(sa.sin_port));
        on_listen(ctx, url);
    }

    while (!*stop) {
        int64_t now = mc_now_ms(), next = now + HS_TICK_MAX_MS, wait;
        pthread_mutex_lock(&hs.mu);
        for (i = 0; i < HS_MAX_SESSIONS; i++) {
            hs_sess_t *se = &hs.sess[i];
            int64_t due;
            if (!se->used || se->rs == NULL)
                continue;
            due = mc_refserver_next_deadline(se->rs);
            if (due >= 0 && due <= now) {
                mc_refserver_tick(se->rs, now);
                due = mc_refserver_next_deadline(se->rs);
            }
            if (due >= 0 && due < next)
                next = due;
        }
        pthread_mutex_unlock(&hs.mu);
        wait = next - mc_now_ms();
        if (wait > 0) {
            struct timespec ts;
            ts.tv_sec = (time_t)(wait / 1000);
            ts.tv_nsec = (long)(wait % 1000) * 1000000L;
            nanosleep(&ts, NULL);
        }
    }
    pthread_mutex_lock(&hs.mu);
    hs.stopping = 1;
    pthread_cond_broadcast(&hs.cv);
    pthread_mutex_unlock(&hs.mu);
    MHD_stop_daemon(d);
    for (i = 0; i < HS_MAX_SESSIONS; i++)
        if (hs.sess[i].used && !hs.sess[i].deleted)
            sess_drop(&hs, &hs.sess[i]);
    g_hs = NULL;
    pthread_cond_destroy(&hs.cv);
    pthread_mutex_destroy(&hs.mu);
    free(hs.sess);
    return MC_OK;
}
