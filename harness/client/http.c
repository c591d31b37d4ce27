#include "client/http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "client/http_limits.h"
#include "client/sse.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

#define NOTE_RING 256
#define FINDING_RING 256
#define NOTE_LEN 200
/* Longest single wait in the transfer loop; the caller's deadline bounds the sum. */
#define WAIT_SLICE_MS 1000

typedef enum stream_kind { ST_POST, ST_GET, ST_DELETE } stream_kind_t;

typedef struct stream {
    mc_http_t *h;
    CURL *easy;
    struct curl_slist *hdrs;
    stream_kind_t kind;
    unsigned num;           /* POST#num in the notes */
    int carries_request;    /* the POST body expects an answer: a JSON-RPC request, or
                               malformed input (anything but a notification or response) */
    int malformed;          /* ... the body is no valid JSON-RPC message at all */
    int is_initialize;      /* ... an initialize request */
    int is_initialized;     /* ... notifications/initialized */
    char req_id[64];        /* the request's id, compact JSON */
    long status;
    int headers_done;
    size_t header_bytes;
    int header_overflow;
    char ctype[MC_HTTP_MAX_CTYPE];
    char session_id[MC_HTTP_MAX_SESSION_ID + 4];
    char location[128];
    int is_sse, is_json;
    mc_sse_t sse;
    char *body;             /* JSON or other body, capped */
    size_t body_len, body_cap, body_max;
    int body_over;
    uint64_t bytes;
    unsigned frames;        /* frames delivered from this stream */
    int responses;          /* JSON-RPC responses seen on this stream */
    int paused;
    int done;
    CURLcode result;
    unsigned origin;        /* the stream this one carries on: its own num, or the POST it resumes */
    unsigned resume_of;     /* a resumption (GET with Last-Event-ID) of POST#resume_of, or 0 */
    int answered;           /* the response to req_id arrived on this stream */
    unsigned new_events;    /* events with a message not delivered before */
    char last_id_in[MC_SSE_MAX_ID + 1]; /* a resumption: the Last-Event-ID it sent */
    long retry_in;          /* a resumption: the retry in force when it started, -1 none */
    int attempts_in;        /* a resumption: its attempt number */
    int total_in;           /* a resumption: resumptions of the request so far, this one too */
} stream_t;

/* A resumption waiting for its time. */
typedef struct resume {
    int used;
    unsigned origin;        /* the POST whose stream is resumed */
    char req_id[64];
    char last_id[MC_SSE_MAX_ID + 1];
    long retry_ms;          /* the last retry field of the stream, -1 none */
    int attempts;           /* this attempt's number, in a row without a new event */
    int total;              /* resumptions of the request so far, this one too */
    int64_t due_ms;
} resume_t;

/* An SSE event id seen in the session (its hash) and the stream it came on. */
typedef struct seen_id {
    uint64_t hash;
    unsigned origin;
    int is_get;
} seen_id_t;

typedef struct qframe {
    mc_inframe_t f;
    char meta[MC_HTTP_MAX_META];
    char answers[64]; /* with MC_FRAME_F_REFUSAL: the refused request's id */
} qframe_t;

struct mc_http {
    char *url;
    char *origin;
    int get_stream_wanted;
    CURLM *multi;
    stream_t *streams[MC_HTTP_MAX_STREAMS];
    stream_t *get;
    unsigned next_num;
    char session_id[MC_HTTP_MAX_SESSION_ID + 4];
    char version[32];
    int initialized_sent;
    qframe_t *queue;        /* ring of MC_MAX_QUEUED_FRAMES */
    size_t q_head, q_count, q_bytes;
    char last_meta[MC_HTTP_MAX_META];
    char last_answers[64];
    char notes[NOTE_RING][NOTE_LEN];
    size_t n_head, n_count;
    mc_http_finding_t *findings;
    size_t f_head, f_count;
    char failure[240];
    int gone;               /* the server cannot be reached any more */
    int64_t late_deadline;  /* the deadline frames were last delivered past */
    unsigned late_frames;   /* frames delivered past late_deadline */
    resume_t resumes[MC_HTTP_MAX_STREAMS];
    seen_id_t *seen;        /* ring of MC_HTTP_MAX_TRACKED_EVENT_IDS, allocated on first use */
    size_t seen_head, seen_count;
};

/* libcurl's global set-up: reference-counted and thread-safe in the
 * libcurl this builds on (7.85+), so every transport may call it. */
static void curl_once(void)
{
    curl_global_init(CURL_GLOBAL_NOTHING);
}

/* --- URL ----------------------------------------------------------------- */

static int is_loopback(const char *host)
{
    struct in_addr a4;
    struct in6_addr a6;

    if (strcasecmp(host, "localhost") == 0)
        return 1;
    if (inet_pton(AF_INET, host, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, host, &a6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&a6);
    return 0;
}

int mc_http_url_check(const char *url, int allow_remote, char *host, size_t host_cap, int *port,
                      mc_errbuf_t *eb)
{
    const char *p, *hs, *he, *end;
    long pv = 80;
    char h[256];
    size_t hl;

    if (url == NULL || strncmp(url, "http://", 7) != 0) {
        mc_errbuf_set(eb, MC_EINVAL, "the URL must start with http:// (got \"%.100s\")",
                      url ? url : "");
        return MC_EINVAL;
    }
    hs = url + 7;
    end = hs + strcspn(hs, "/?#");
    if (memchr(hs, '@', (size_t)(end - hs)) != NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "credentials in the URL are not supported");
        return MC_EINVAL;
    }
    if (*hs == '[') {
        he = memchr(hs, ']', (size_t)(end - hs));
        if (he == NULL) {
            mc_errbuf_set(eb, MC_EINVAL, "unterminated IPv6 address in \"%.100s\"", url);
            return MC_EINVAL;
        }
        hl = (size_t)(he - hs - 1);
        p = he + 1;
        hs++;
    } else {
        he = memchr(hs, ':', (size_t)(end - hs));
        if (he == NULL)
            he = end;
        hl = (size_t)(he - hs);
        p = he;
    }
    if (hl == 0 || hl >= sizeof(h)) {
        mc_errbuf_set(eb, MC_EINVAL, "no usable host in \"%.100s\"", url);
        return MC_EINVAL;
    }
    memcpy(h, hs, hl);
    h[hl] = '\0';
    if (p < end && *p == ':') {
        char *e;
        pv = strtol(p + 1, &e, 10);
        if (e != end || pv < 0 || pv > 65535) {
            mc_errbuf_set(eb, MC_EINVAL, "bad port in \"%.100s\"", url);
            return MC_EINVAL;
        }
    }
    if (!allow_remote && !is_loopback(h)) {
        mc_errbuf_set(eb, MC_EINVAL,
                      "%s is not a loopback address; pass --allow-remote to test a remote server",
                      h);
        return MC_EINVAL;
    }
    if (host != NULL && host_cap > 0)
        snprintf(host, host_cap, "%s", h);
    if (port != NULL)
        *port = (int)pv;
    return MC_OK;
}

/* --- notes, findings, queue ---------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void note(mc_http_t *h, const char *fmt, ...)
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

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void finding(mc_http_t *h, const char *check, int pass, const char *fmt, ...)
{
    va_list ap;
    mc_http_finding_t *f;

    if (h->findings == NULL) {
        h->findings = calloc(FINDING_RING, sizeof(*h->findings));
        if (h->findings == NULL)
            return;
    }
    if (pass) {
        /* One passing observation per check is enough evidence. */
        size_t i;
        for (i = 0; i < h->f_count; i++) {
            const mc_http_finding_t *o = &h->findings[(h->f_head + i) % FINDING_RING];
            if (o->pass && strcmp(o->check, check) == 0)
                return;
        }
    }
    if (h->f_count == FINDING_RING) {
        /* A full ring drops the oldest entry. */
        h->f_head = (h->f_head + 1) % FINDING_RING;
        h->f_count--;
    }
    f = &h->findings[(h->f_head + h->f_count) % FINDING_RING];
    snprintf(f->check, sizeof(f->check), "%s", check);
    f->pass = pass;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
    h->f_count++;
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

int mc_http_take_finding(mc_http_t *h, mc_http_finding_t *out)
{
    if (h == NULL || h->f_count == 0)
        return 0;
    *out = h->findings[h->f_head];
    h->f_head = (h->f_head + 1) % FINDING_RING;
    h->f_count--;
    return 1;
}

static int queue_full(const mc_http_t *h, size_t more)
{
    return h->q_count >= MC_MAX_QUEUED_FRAMES || h->q_bytes + more > MC_MAX_QUEUED_BYTES;
}

/* Queues one frame with its facts. kind OVERSIZE takes len as bytes skipped.
 * Returns 1 when the frame was queued (it is then the newest), 0 when it was
 * dropped (out of memory, or the queue full). */
static int push_frame(mc_http_t *h, stream_t *s, mc_frame_kind_t kind, const char *data,
                      size_t len, const char *event_id)
{
    qframe_t *q;
    size_t slot;
    int n;

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
    q->f.kind = kind;
    q->f.at_ms = mc_now_ms();
    if (kind == MC_FRAME_OVERSIZE) {
        q->f.len = len;
    } else {
        q->f.data = malloc(len + 1);
        if (q->f.data == NULL)
            return 0;
        memcpy(q->f.data, data, len);
        q->f.data[len] = '\0';
        q->f.len = len;
        if (memchr(data, '\0', len) != NULL)
            q->f.flags |= MC_FRAME_F_NUL;
        h->q_bytes += len;
    }
    n = snprintf(q->meta, sizeof(q->meta), "%s#%u %ld %s", s->kind == ST_GET ? "GET" : "POST",
                 s->num, s->status, s->ctype[0] ? s->ctype : "(no content type)");
    if (n > 0 && (size_t)n < sizeof(q->meta) && s->resume_of != 0)
        n += snprintf(q->meta + n, sizeof(q->meta) - (size_t)n, " resumes=POST#%u", s->resume_of);
    if (n > 0 && (size_t)n < sizeof(q->meta) && s->session_id[0])
        n += snprintf(q->meta + n, sizeof(q->meta) - (size_t)n, " session=%s", s->session_id);
    if (n > 0 && (size_t)n < sizeof(q->meta) && event_id != NULL && event_id[0])
        snprintf(q->meta + n, sizeof(q->meta) - (size_t)n, " event-id=%s", event_id);
    s->frames++;
    h->q_count++;
    return 1;
}

/* --- one message arriving ------------------------------------------------- */

/* Parses len bytes (not necessarily NUL-terminated). New reference or NULL. */
static json_object *parse_n(const char *data, size_t len)
{
    json_tokener *tok;
    json_object *o;

    if (len > MC_MAX_MESSAGE_SIZE)
        return NULL;
    tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (tok == NULL)
        return NULL;
    o = json_tokener_parse_ex(tok, data, (int)len);
    json_tokener_free(tok);
    return o;
}


/* Looks at a message a stream delivered for the rules about where it may
 * come: a response on the GET stream, a response to another request on a
 * POST stream, the initialize result naming the version. */
static void inspect_message(mc_http_t *h, stream_t *s, const char *data, size_t len)
{
    json_object *o;
    json_object *id, *res;
    int is_response;

    o = parse_n(data, len);
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return;
    }
    is_response = json_object_object_get_ex(o, "id", &id) &&
                  !json_object_object_get_ex(o, "method", NULL) &&
                  (json_object_object_get_ex(o, "result", NULL) ||
                   json_object_object_get_ex(o, "error", NULL));
    if (is_response) {
        const char *ids = json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN);
        s->responses++;
        if (s->req_id[0] && strcmp(ids, s->req_id) == 0)
            s->answered = 1;
        if (s->kind == ST_GET && s->resume_of == 0)
            finding(h, "http/get-stream-no-response", 0,
                    "GET#%u carried a JSON-RPC response (id %.40s)", s->num, ids);
        else if (s->carries_request && s->req_id[0] && strcmp(ids, s->req_id) != 0 &&
                 strcmp(ids, "null") != 0)
            finding(h, "http/response-on-own-stream", 0,
                    "POST#%u (request id %s) carried the response to id %.40s", s->num,
                    s->req_id, ids);
        if (s->is_initialize && json_object_object_get_ex(o, "result", &res)) {
            const char *v = mc_json_get_str(res, "protocolVersion");
            if (v != NULL && strlen(v) < sizeof(h->version))
                snprintf(h->version, sizeof(h->version), "%s", v);
        }
    }
    json_object_put(o);
}

static uint64_t id_hash(const char *id)
{
    uint64_t v = 1469598103934665603ull;

    for (; *id; id++) {
        v ^= (unsigned char)*id;
        v *= 1099511628211ull;
    }
    return v;
}

/*
 * Judges an SSE event id against the ids the session has seen: an id used
 * before breaks http/sse-event-id-unique, or, on a resumption, when another
 * stream used it, shows a message of another stream replayed
 * (http/resume-own-stream). Returns 0 when a resumption repeats an id of
 * the stream it resumes: the event is a redelivery and is dropped.
 */
static int track_event_id(mc_http_t *h, stream_t *s, const char *id)
{
    uint64_t hv = id_hash(id);
    size_t i;
    seen_id_t *e;

    if (h->seen == NULL) {
        h->seen = calloc(MC_HTTP_MAX_TRACKED_EVENT_IDS, sizeof(*h->seen));
        if (h->seen == NULL)
            return 1;
    }
    for (i = 0; i < h->seen_count; i++) {
        e = &h->seen[(h->seen_head + i) % MC_HTTP_MAX_TRACKED_EVENT_IDS];
        if (e->hash != hv)
            continue;
        if (e->origin == s->origin && s->resume_of != 0)
            return 0; /* a redelivery on the stream that sent it first */
        if (s->resume_of != 0)
            finding(h, "http/resume-own-stream", 0,
                    "GET#%u, resuming POST#%u, replayed event %.60s, which %s#%u sent", s->num,
                    s->resume_of, id, e->is_get ? "GET" : "POST", e->origin);
        else
            finding(h, "http/sse-event-id-unique", 0,
                    "%s#%u sent event id \"%.60s\", which %s#%u of the same session had used",
                    s->kind == ST_GET ? "GET" : "POST", s->num, id, e->is_get ? "GET" : "POST",
                    e->origin);
        return 1;
    }
    if (h->seen_count == MC_HTTP_MAX_TRACKED_EVENT_IDS) {
        h->seen_head = (h->seen_head + 1) % MC_HTTP_MAX_TRACKED_EVENT_IDS;
        h->seen_count--;
    }
    e = &h->seen[(h->seen_head + h->seen_count) % MC_HTTP_MAX_TRACKED_EVENT_IDS];
    e->hash = hv;
    e->origin = s->origin;
    e->is_get = s->kind == ST_GET && s->resume_of == 0;
    h->seen_count++;
    finding(h, "http/sse-event-id-unique", 1, "event ids of different streams differ");
    if (s->resume_of != 0)
        finding(h, "http/resume-own-stream", 1, "a resumption replayed its own stream");
    return 1;
}

static int on_sse_event(void *ctx, const mc_sse_event_t *ev)
{
    stream_t *s = ctx;
    mc_http_t *h = s->h;

    if (ev->has_id && ev->id[0] != '\0' && !track_event_id(h, s, ev->id)) {
        note(h, "GET#%u: event %.60s came before on this stream; not passed on again", s->num,
             ev->id);
        return 0;
    }
    if (ev->oversize) {
        push_frame(h, s, MC_FRAME_OVERSIZE, NULL, MC_MAX_MESSAGE_SIZE, ev->id);
        return 0;
    }
    if (!ev->has_data) {
        /* An event with no data field carries no message. The 2025-11-25
         * priming event has an id and an empty data field instead. */
        finding(h, "http/sse-event-has-data", 0,
                "%s#%u sent an SSE event without a data field (event \"%s\", id \"%s\")",
                s->kind == ST_GET ? "GET" : "POST", s->num, ev->event, ev->id);
        return 0;
    }
    if (ev->data_len == 0)
        return 0; /* a priming event: an id and empty data */
    if (ev->event[0] != '\0' && strcmp(ev->event, "message") != 0) {
        note(h, "%s#%u: SSE event of type \"%.40s\" ignored", s->kind == ST_GET ? "GET" : "POST",
             s->num, ev->event);
        return 0;
    }
    s->new_events++;
    inspect_message(h, s, ev->data, ev->data_len);
    push_frame(h, s, MC_FRAME_LINE, ev->data, ev->data_len, ev->has_id ? ev->id : NULL);
    return 0;
}

/* --- curl callbacks -------------------------------------------------------- */

void mc__http_header_value(const char *line, size_t n, char *out, size_t cap)
{
    const char *v = memchr(line, ':', n);
    size_t l;

    if (v == NULL)
        return;
    v++;
    while (v < line + n && (*v == ' ' || *v == '\t'))
        v++;
    l = (size_t)(line + n - v);
    while (l > 0 && (v[l - 1] == '\r' || v[l - 1] == '\n' || v[l - 1] == ' '))
        l--;
    if (l >= cap)
        l = cap - 1;
    memcpy(out, v, l);
    out[l] = '\0';
}

int mc__http_header_is(const char *line, size_t n, const char *name)
{
    size_t k = strlen(name);

    return n > k && line[k] == ':' && strncasecmp(line, name, k) == 0;
}

/* Takes the session id the server assigned (the first one seen) and judges
 * its characters. */
static void adopt_session_id(mc_http_t *h, stream_t *s)
{
    size_t i;
    int visible = 1;

    if (s->session_id[0] == '\0' || h->session_id[0] != '\0' || s->kind == ST_DELETE)
        return;
    for (i = 0; s->session_id[i]; i++)
        if ((unsigned char)s->session_id[i] < 0x21 || (unsigned char)s->session_id[i] > 0x7E)
            visible = 0;
    finding(h, "http/session-id-visible-ascii", visible, "session id \"%.60s\"%s",
            s->session_id, visible ? "" : " holds characters outside 0x21..0x7E");
    snprintf(h->session_id, sizeof(h->session_id), "%s", s->session_id);
}

static size_t on_header(char *buf, size_t size, size_t nitems, void *ctx)
{
    stream_t *s = ctx;
    size_t n = size * nitems;

    s->header_bytes += n;
    if (s->header_bytes > MC_HTTP_MAX_HEADER_BYTES) {
        s->header_overflow = 1;
        return 0;
    }
    if (n >= 5 && strncmp(buf, "HTTP/", 5) == 0) {
        /* A new status line (after 100 Continue, for one): start afresh. */
        s->ctype[0] = '\0';
        s->headers_done = 0;
        return n;
    }
    if (mc__http_header_is(buf, n, "content-type"))
        mc__http_header_value(buf, n, s->ctype, sizeof(s->ctype));
    else if (mc__http_header_is(buf, n, "mcp-session-id"))
        mc__http_header_value(buf, n, s->session_id, sizeof(s->session_id));
    else if (mc__http_header_is(buf, n, "location"))
        mc__http_header_value(buf, n, s->location, sizeof(s->location));
    else if (n <= 2) {
        long st = 0;
        curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &st);
        if (st >= 200) {
            s->status = st;
            s->headers_done = 1;
            s->is_sse = strncasecmp(s->ctype, "text/event-stream", 17) == 0;
            s->is_json = strncasecmp(s->ctype, "application/json", 16) == 0;
            s->body_max = s->is_json ? MC_HTTP_MAX_BODY : MC_HTTP_MAX_OTHER_BODY;
            if (s->status < 300)
                adopt_session_id(s->h, s);
        }
    }
    return n;
}

static size_t on_body(char *buf, size_t size, size_t nmemb, void *ctx)
{
    stream_t *s = ctx;
    mc_http_t *h = s->h;
    size_t n = size * nmemb;

    if (s->is_sse) {
        /* Each event may become a frame; stop reading while the queue is full. */
        if (queue_full(h, n)) {
            s->paused = 1;
            return CURL_WRITEFUNC_PAUSE;
        }
        s->bytes += n;
        mc_sse_feed(&s->sse, buf, n, on_sse_event, s);
        return n;
    }
    s->bytes += n;
    if (s->body_over)
        return s->is_json ? 0 : n;
    if (s->body_len + n > s->body_max) {
        s->body_over = 1;
        /* A JSON body past the message cap is dropped at once (the transfer
         * ends); another body is only sampled. */
        return s->is_json ? 0 : n;
    }
    if (s->body_len + n + 1 > s->body_cap) {
        size_t cap = s->body_cap ? s->body_cap : 4096;
        char *nb;
        while (cap < s->body_len + n + 1)
            cap *= 2;
        if (cap > s->body_max + 1)
            cap = s->body_max + 1;
        nb = realloc(s->body, cap);
        if (nb == NULL) {
            s->body_over = 1;
            return 0;
        }
        s->body = nb;
        s->body_cap = cap;
    }
    memcpy(s->body + s->body_len, buf, n);
    s->body_len += n;
    s->body[s->body_len] = '\0';
    return n;
}

/* --- streams --------------------------------------------------------------- */

static void stream_free(stream_t *s)
{
    if (s == NULL)
        return;
    if (s->easy != NULL) {
        curl_multi_remove_handle(s->h->multi, s->easy);
        curl_easy_cleanup(s->easy);
    }
    curl_slist_free_all(s->hdrs);
    mc_sse_free(&s->sse);
    free(s->body);
    free(s);
}

/* Adds "name: value" (or name alone when value is NULL) to the stream's headers. */
static int add_header(stream_t *s, const char *name, const char *value)
{
    char line[MC_HTTP_MAX_SESSION_ID + 64];
    struct curl_slist *n;

    if (value != NULL)
        snprintf(line, sizeof(line), "%s: %s", name, value);
    else
        snprintf(line, sizeof(line), "%s", name);
    n = curl_slist_append(s->hdrs, line);
    if (n == NULL)
        return -1;
    s->hdrs = n;
    return 0;
}

static int slot_free(mc_http_t *h)
{
    int i;

    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] == NULL)
            return i;
    return -1;
}

/* Creates and starts a transfer. body and last_event_id (a GET that resumes
 * a stream) may be NULL. Returns the stream or NULL. */
static stream_t *stream_start(mc_http_t *h, stream_kind_t kind, const char *body, size_t len,
                              const char *last_event_id)
{
    stream_t *s;
    int slot = slot_free(h);

    if (slot < 0)
        return NULL;
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    s->h = h;
    s->kind = kind;
    s->num = ++h->next_num;
    s->origin = s->num;
    s->retry_in = -1;
    mc_sse_init(&s->sse, 0, 0);
    s->easy = curl_easy_init();
    if (s->easy == NULL) {
        free(s);
        return NULL;
    }
    if (kind == ST_GET) {
        if (add_header(s, "Accept", "text/event-stream") != 0)
            goto fail;
    } else if (kind == ST_POST) {
        if (add_header(s, "Accept", "application/json, text/event-stream") != 0 ||
            add_header(s, "Content-Type", "application/json") != 0)
            goto fail;
    }
    if (h->session_id[0] && add_header(s, "Mcp-Session-Id", h->session_id) != 0)
        goto fail;
    if (h->version[0] && mc_version_cmp(h->version, mc_version_name(MC_V_2025_06_18)) >= 0 &&
        add_header(s, "MCP-Protocol-Version", h->version) != 0)
        goto fail;
    if (h->origin != NULL && add_header(s, "Origin", h->origin) != 0)
        goto fail;
    if (last_event_id != NULL && add_header(s, "Last-Event-ID", last_event_id) != 0)
        goto fail;
    /* No "Expect: 100-continue" wait on large bodies. */
    if (add_header(s, "Expect:", NULL) != 0)
        goto fail;
    curl_easy_setopt(s->easy, CURLOPT_URL, h->url);
    curl_easy_setopt(s->easy, CURLOPT_HTTPHEADER, s->hdrs);
    curl_easy_setopt(s->easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(s->easy, CURLOPT_HEADERDATA, s);
    curl_easy_setopt(s->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(s->easy, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(s->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(s->easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(s->easy, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(s->easy, CURLOPT_CONNECTTIMEOUT_MS, (long)MC_HTTP_CONNECT_TIMEOUT_MS);
    curl_easy_setopt(s->easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(s->easy, CURLOPT_NOPROXY, "*");
    if (kind == ST_POST) {
        curl_easy_setopt(s->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        curl_easy_setopt(s->easy, CURLOPT_COPYPOSTFIELDS, body);
    } else if (kind == ST_DELETE) {
        curl_easy_setopt(s->easy, CURLOPT_CUSTOMREQUEST, "DELETE");
    }
    if (curl_multi_add_handle(h->multi, s->easy) != CURLM_OK)
        goto fail;
    h->streams[slot] = s;
    return s;
fail:
    curl_easy_cleanup(s->easy);
    s->easy = NULL;
    stream_free(s);
    return NULL;
}

static const char *kind_name(const stream_t *s)
{
    return s->kind == ST_GET ? "GET" : s->kind == ST_DELETE ? "DELETE" : "POST";
}

/* Marks the frame just queued from s (push_frame returned 1) as the body of
 * an HTTP error status that refused s's request: the session pairs it with
 * that request even when it carries no id. */
static void mark_refusal(mc_http_t *h, stream_t *s)
{
    qframe_t *q;

    if (h->queue == NULL || h->q_count == 0)
        return;
    q = &h->queue[(h->q_head + h->q_count - 1) % MC_MAX_QUEUED_FRAMES];
    q->f.flags |= MC_FRAME_F_REFUSAL;
    snprintf(q->answers, sizeof(q->answers), "%s", s->req_id);
}

/*
 * A stream that carried a request ended before its response: plans a GET
 * with Last-Event-ID (the last id the stream, or the one it resumed, sent)
 * after the stream's retry time, within MC_HTTP_RESUME_ATTEMPTS attempts
 * in a row that bring no new event and MC_HTTP_RESUME_MAX_PER_REQUEST in
 * all. Without an event id there is nothing
 * to resume from, and the request is left to its timeout.
 */
static void schedule_resume(mc_http_t *h, const stream_t *s)
{
    const char *last = s->sse.id[0] ? s->sse.id : s->last_id_in;
    long retry = s->sse.retry_ms >= 0 ? s->sse.retry_ms : s->retry_in;
    int attempts = s->resume_of == 0 || s->new_events > 0 ? 1 : s->attempts_in + 1;
    int total = s->resume_of == 0 ? 1 : s->total_in + 1;
    unsigned origin = s->resume_of != 0 ? s->resume_of : s->num;
    size_t i;
    resume_t *r = NULL;

    if (h->gone)
        return;
    if (last[0] == '\0') {
        note(h, "POST#%u: the SSE stream ended before the response to %s, and no event id was "
                "sent to resume from",
             origin, s->req_id);
        return;
    }
    if (attempts > MC_HTTP_RESUME_ATTEMPTS) {
        note(h, "POST#%u: %d resumptions in a row brought no event; giving up on %s", origin,
             MC_HTTP_RESUME_ATTEMPTS, s->req_id);
        return;
    }
    if (total > MC_HTTP_RESUME_MAX_PER_REQUEST) {
        note(h, "POST#%u: resumed %d times; giving up on %s", origin,
             MC_HTTP_RESUME_MAX_PER_REQUEST, s->req_id);
        return;
    }
    if (retry > MC_HTTP_RESUME_MAX_DELAY_MS) {
        note(h, "POST#%u: the server asks for %ld ms before a reconnection, more than the %d ms "
                "waited; not resuming",
             origin, retry, MC_HTTP_RESUME_MAX_DELAY_MS);
        return;
    }
    for (i = 0; i < MC_HTTP_MAX_STREAMS && r == NULL; i++)
        if (!h->resumes[i].used)
            r = &h->resumes[i];
    if (r == NULL)
        return;
    r->used = 1;
    r->origin = origin;
    snprintf(r->req_id, sizeof(r->req_id), "%s", s->req_id);
    snprintf(r->last_id, sizeof(r->last_id), "%s", last);
    r->retry_ms = retry;
    r->attempts = attempts;
    r->total = total;
    r->due_ms = mc_now_ms() + (retry >= 0 ? retry : MC_HTTP_RESUME_DEFAULT_DELAY_MS);
    note(h, "POST#%u: the SSE stream ended before the response to %s; resuming after event %.60s "
            "in %ld ms (attempt %d of %d)",
         origin, s->req_id, last, retry >= 0 ? retry : (long)MC_HTTP_RESUME_DEFAULT_DELAY_MS,
         attempts, MC_HTTP_RESUME_ATTEMPTS);
}

/* Starts the resumptions whose time has come. Returns the milliseconds
 * until the next one is due (-1: none waits). */
static int start_due_resumes(mc_http_t *h)
{
    size_t i;
    int64_t now = mc_now_ms(), next = -1;

    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        resume_t *r = &h->resumes[i];
        stream_t *s;
        if (!r->used)
            continue;
        if (r->due_ms > now) {
            if (next < 0 || r->due_ms - now < next)
                next = r->due_ms - now;
            continue;
        }
        s = stream_start(h, ST_GET, NULL, 0, r->last_id);
        if (s == NULL) {
            next = 10; /* no free slot yet */
            continue;
        }
        s->resume_of = r->origin;
        s->origin = r->origin;
        s->carries_request = 1;
        snprintf(s->req_id, sizeof(s->req_id), "%s", r->req_id);
        snprintf(s->last_id_in, sizeof(s->last_id_in), "%s", r->last_id);
        s->retry_in = r->retry_ms;
        s->attempts_in = r->attempts;
        s->total_in = r->total;
        note(h, "GET#%u resumes POST#%u with Last-Event-ID: %.60s", s->num, r->origin, r->last_id);
        r->used = 0;
    }
    return next > INT32_MAX ? INT32_MAX : (int)next;
}

/* Judges and records a finished transfer; queues a JSON body's message. */
static void stream_finished(mc_http_t *h, stream_t *s)
{
    if (s->header_overflow || (s->result != CURLE_OK && (s->status == 0 || !s->headers_done))) {
        const char *why = s->header_overflow ? "the response headers exceeded 64 KiB"
                                             : curl_easy_strerror(s->result);
        note(h, "%s#%u: no HTTP answer: %s", kind_name(s), s->num, why);
        if (h->failure[0] == '\0')
            snprintf(h->failure, sizeof(h->failure), "%s#%u got no HTTP answer: %s",
                     kind_name(s), s->num, why);
        if (s->result == CURLE_COULDNT_CONNECT || s->result == CURLE_WEIRD_SERVER_REPLY ||
            s->result == CURLE_UNSUPPORTED_PROTOCOL || s->header_overflow ||
            s->result == CURLE_RECV_ERROR || s->result == CURLE_GOT_NOTHING)
            h->gone = 1;
        return;
    }
    adopt_session_id(h, s);
    if (s->status >= 300 && s->status < 400) {
        note(h, "%s#%u -> %ld redirect to %.100s (not followed)", kind_name(s), s->num,
             s->status, s->location[0] ? s->location : "(no Location)");
        if (h->failure[0] == '\0')
            snprintf(h->failure, sizeof(h->failure),
                     "the server redirected %s#%u to %.100s; mcpcheck does not follow redirects",
                     kind_name(s), s->num, s->location[0] ? s->location : "(no Location)");
    }
    if (s->kind == ST_POST && !s->carries_request) {
        finding(h, "http/notification-202", s->status == 202,
                "POST#%u (a notification or response) got %ld%s", s->num, s->status,
                s->status == 202 && s->body_len > 0 ? " with a body" : "");
    }
    if (s->kind == ST_POST && s->carries_request && !s->malformed && s->status >= 200 &&
        s->status < 300) {
        /* The rule is about requests: malformed input the harness sends on
         * purpose is judged by the JSON-RPC checks of its scenario. */
        finding(h, "http/request-content-type", s->is_sse || s->is_json,
                "POST#%u (request %s) got %ld with Content-Type \"%s\"", s->num, s->req_id,
                s->status, s->ctype);
    }
    if (s->is_sse) {
        if (mc_sse_pending(&s->sse))
            note(h, "%s#%u: the SSE stream ended inside an event", kind_name(s), s->num);
        note(h, "%s#%u -> %ld %s, %llu events, %llu bytes%s", kind_name(s), s->num, s->status,
             s->ctype, (unsigned long long)s->sse.events, (unsigned long long)s->bytes,
             s->result == CURLE_OK ? "" : " (transfer cut)");
    } else if (s->is_json && (s->kind != ST_POST || !s->carries_request) &&
               (s->status < 200 || s->status >= 300)) {
        /* An error status on a GET, or on a POSTed notification or response:
         * the body (an error without an id, which the spec allows) explains
         * the status and is no message of the session. */
        note(h, "%s#%u -> %ld %s: %.120s", kind_name(s), s->num, s->status, s->ctype,
             s->body ? s->body : "");
    } else if (s->is_json) {
        if (s->body_over) {
            push_frame(h, s, MC_FRAME_OVERSIZE, NULL, s->bytes, NULL);
            if (h->failure[0] == '\0')
                snprintf(h->failure, sizeof(h->failure),
                         "%s#%u: the JSON body passed the %u-byte message limit; the transfer "
                         "was cut",
                         kind_name(s), s->num, (unsigned)MC_HTTP_MAX_BODY);
        } else if (s->body_len > 0) {
            inspect_message(h, s, s->body, s->body_len);
            if (push_frame(h, s, MC_FRAME_LINE, s->body, s->body_len, NULL) &&
                s->kind == ST_POST && s->carries_request && s->status >= 400 && s->req_id[0])
                mark_refusal(h, s);
        }
        note(h, "%s#%u -> %ld %s, %llu bytes", kind_name(s), s->num, s->status, s->ctype,
             (unsigned long long)s->bytes);
    } else {
        note(h, "%s#%u -> %ld %s%s%.120s", kind_name(s), s->num, s->status,
             s->ctype[0] ? s->ctype : "(no body type)", s->body_len ? ": " : "",
             s->body ? s->body : "");
        if (s->kind == ST_POST && s->carries_request && s->status >= 400 &&
            h->failure[0] == '\0')
            snprintf(h->failure, sizeof(h->failure), "POST#%u (request %s) got HTTP %ld%s%.80s",
                     s->num, s->req_id, s->status, s->body_len ? ": " : "",
                     s->body ? s->body : "");
    }
    if (s->kind == ST_POST && s->carries_request && s->is_sse && s->responses == 0 &&
        s->result == CURLE_OK)
        note(h, "POST#%u: the SSE stream closed without the response to %s", s->num, s->req_id);
    if (s->is_sse && s->carries_request && s->req_id[0] && !s->answered && s->status == 200 &&
        (s->kind == ST_POST || s->resume_of != 0))
        schedule_resume(h, s);
    if (s->resume_of != 0 && !s->is_sse)
        note(h, "GET#%u: the server did not resume POST#%u (%ld %s)", s->num, s->resume_of,
             s->status, s->ctype[0] ? s->ctype : "(no body type)");
    if (s->kind == ST_GET && s->status == 405)
        note(h, "GET#%u: the server offers no GET stream (405)", s->num);
}

/* Reads completions off the multi handle and retires finished streams. */
static void reap(mc_http_t *h)
{
    CURLMsg *m;
    int left, i;

    while ((m = curl_multi_info_read(h->multi, &left)) != NULL) {
        if (m->msg != CURLMSG_DONE)
            continue;
        for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
            stream_t *s = h->streams[i];
            if (s == NULL || s->easy != m->easy_handle)
                continue;
            s->done = 1;
            s->result = m->data.result;
            if (s->status == 0)
                curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &s->status);
            if (s->status != 0 && !s->headers_done) {
                s->headers_done = 1;
            }
            stream_finished(h, s);
            if (s == h->get)
                h->get = NULL;
            if (s->kind != ST_DELETE) {
                h->streams[i] = NULL;
                stream_free(s);
            }
            break;
        }
    }
}

/* Resumes transfers paused on a full queue once there is room. */
static void unpause(mc_http_t *h)
{
    int i;

    if (queue_full(h, MC_READ_CHUNK))
        return;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        stream_t *s = h->streams[i];
        if (s != NULL && s->paused) {
            s->paused = 0;
            curl_easy_pause(s->easy, CURLPAUSE_CONT);
        }
    }
}

/* Runs transfers, waiting at most timeout_ms for activity. */
static void pump(mc_http_t *h, int timeout_ms)
{
    int running = 0, due;

    due = start_due_resumes(h);
    if (due >= 0 && due < timeout_ms)
        timeout_ms = due > 0 ? due : 1;
    curl_multi_perform(h->multi, &running);
    reap(h);
    if (timeout_ms > 0 && h->q_count == 0) {
        curl_multi_poll(h->multi, NULL, 0, timeout_ms, NULL);
        curl_multi_perform(h->multi, &running);
        reap(h);
    }
}

static int any_stream(const mc_http_t *h)
{
    int i;

    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] != NULL)
            return 1;
    return 0;
}

static int wait_ms(int64_t deadline_ms)
{
    int64_t left = deadline_ms - mc_now_ms();

    if (left <= 0)
        return 0;
    return left > WAIT_SLICE_MS ? WAIT_SLICE_MS : (int)left;
}

static void open_get_stream(mc_http_t *h)
{
    if (h->get != NULL || !h->get_stream_wanted)
        return;
    h->get = stream_start(h, ST_GET, NULL, 0, NULL);
    if (h->get != NULL)
        note(h, "GET#%u opened", h->get->num);
}

/* --- the link -------------------------------------------------------------- */

static int link_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    mc_http_t *h = ctx;
    stream_t *s;
    json_object *o;
    size_t n = len;

    if (h->gone)
        return MC_EEXITED;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    s = stream_start(h, ST_POST, line, n, NULL);
    if (s == NULL)
        return any_stream(h) ? MC_EFULL : MC_ENOMEM;
    /* Only a well-formed notification or response expects 202; anything
     * else (a request, or malformed input a test sends on purpose) expects
     * an answer. */
    s->carries_request = 1;
    {
        mc_msg_t m;
        s->malformed = mc_msg_decode(line, n, MC_MAX_JSON_DEPTH, &m) != MC_OK ||
                       m.kind == MC_MSG_INVALID;
        mc_msg_free(&m);
    }
    o = parse_n(line, n);
    if (o != NULL && json_object_is_type(o, json_type_object)) {
        json_object *id = NULL;
        const char *m = mc_json_get_str(o, "method");
        int has_id = json_object_object_get_ex(o, "id", &id);
        int has_result = json_object_object_get_ex(o, "result", NULL);
        int has_error = json_object_object_get_ex(o, "error", NULL);
        /* A readable id names what the answer belongs to, even on malformed
         * input (a request whose method is no string). */
        if (has_id && mc_jsonrpc_id_valid(id))
            snprintf(s->req_id, sizeof(s->req_id), "%s",
                     json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN));
        if (m != NULL && has_id) {
            s->is_initialize = strcmp(m, "initialize") == 0;
        } else if (m != NULL && !has_id && !has_result && !has_error) {
            s->carries_request = 0;
            s->is_initialized = strcmp(m, "notifications/initialized") == 0;
        } else if (m == NULL && json_object_object_get_ex(o, "method", NULL) == 0 && has_id &&
                   has_result != has_error) {
            s->carries_request = 0;
        }
    }
    json_object_put(o);
    /* Messages on separate connections have no order: wait until the server
     * has taken this one (its status arrived) before the next is sent. */
    for (;;) {
        int running = 0, i, alive = 0;
        curl_multi_perform(h->multi, &running);
        for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
            if (h->streams[i] == s)
                alive = 1;
        if (!alive || s->headers_done)
            break;
        reap(h);
        alive = 0;
        for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
            if (h->streams[i] == s)
                alive = 1;
        if (!alive || s->headers_done)
            break;
        if (mc_now_ms() >= deadline_ms)
            return MC_ETIMEOUT;
        curl_multi_poll(h->multi, NULL, 0, wait_ms(deadline_ms), NULL);
    }
    reap(h);
    if (h->gone && h->q_count == 0 && !any_stream(h))
        return MC_EEXITED;
    return MC_OK;
}

static int link_recv(void *ctx, mc_inframe_t *frame, int64_t deadline_ms)
{
    mc_http_t *h = ctx;

    for (;;) {
        if (h->q_count > 0 && mc_now_ms() >= deadline_ms) {
            /* Past the deadline, queued frames are still handed out (a
             * zero-timeout drain), but no more than a queue's worth: a
             * server that streams without end cannot hold the caller. */
            if (h->late_deadline != deadline_ms) {
                h->late_deadline = deadline_ms;
                h->late_frames = 0;
            }
            if (h->late_frames >= MC_MAX_QUEUED_FRAMES)
                return MC_ETIMEOUT;
            h->late_frames++;
        }
        if (h->q_count > 0) {
            qframe_t *q = &h->queue[h->q_head];
            *frame = q->f;
            snprintf(h->last_meta, sizeof(h->last_meta), "%s", q->meta);
            frame->meta = h->last_meta;
            snprintf(h->last_answers, sizeof(h->last_answers), "%s", q->answers);
            frame->answers = (q->f.flags & MC_FRAME_F_REFUSAL) ? h->last_answers : NULL;
            h->q_bytes -= q->f.kind == MC_FRAME_OVERSIZE ? 0 : q->f.len;
            memset(q, 0, sizeof(*q));
            h->q_head = (h->q_head + 1) % MC_MAX_QUEUED_FRAMES;
            h->q_count--;
            unpause(h);
            return MC_OK;
        }
        /* The session is initialized once notifications/initialized was taken. */
        if (h->gone && !any_stream(h))
            return MC_EEOF;
        if (mc_now_ms() >= deadline_ms) {
            pump(h, 0);
            if (h->q_count > 0)
                continue;
            return MC_ETIMEOUT;
        }
        pump(h, wait_ms(deadline_ms));
    }
}

mc_link_t mc_http_link(mc_http_t *h)
{
    mc_link_t l;

    l.ctx = h;
    l.send = link_send;
    l.recv = link_recv;
    return l;
}

/* --- life ----------------------------------------------------------------- */

mc_http_t *mc_http_new(const mc_http_opts_t *o, mc_errbuf_t *eb)
{
    mc_http_t *h;

    if (mc_http_url_check(o->url, o->allow_remote, NULL, 0, NULL, eb) != MC_OK)
        return NULL;
    curl_once();
    h = calloc(1, sizeof(*h));
    if (h == NULL) {
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    h->url = strdup(o->url);
    h->origin = o->origin ? strdup(o->origin) : NULL;
    h->get_stream_wanted = o->get_stream;
    h->multi = curl_multi_init();
    if (h->url == NULL || h->multi == NULL || (o->origin && h->origin == NULL)) {
        mc_http_free(h);
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    return h;
}

const char *mc_http_session_id(const mc_http_t *h)
{
    return h->session_id[0] ? h->session_id : NULL;
}

const char *mc_http_protocol_version(const mc_http_t *h)
{
    return h->version;
}

const char *mc_http_failure(const mc_http_t *h)
{
    return h->failure[0] ? h->failure : NULL;
}

void mc_http_describe(mc_http_t *h, char *buf, size_t cap)
{
    int i;
    stream_t *old = NULL;

    if (cap == 0)
        return;
    buf[0] = '\0';
    if (h == NULL)
        return;
    if (h->failure[0]) {
        snprintf(buf, cap, "%s", h->failure);
        return;
    }
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        stream_t *s = h->streams[i];
        if (s != NULL && s->kind == ST_POST && (old == NULL || s->num < old->num))
            old = s;
    }
    if (old == NULL)
        return;
    if (!old->headers_done)
        snprintf(buf, cap, "POST#%u: %s after %llu header bytes", old->num,
                 old->header_bytes == 0 ? "no HTTP answer yet" : "the status and headers never "
                                                                 "finished",
                 (unsigned long long)old->header_bytes);
    else
        snprintf(buf, cap, "POST#%u: %ld %s, %llu body bytes so far, %u messages, no answer yet",
                 old->num, old->status, old->ctype, (unsigned long long)old->bytes, old->frames);
}

void mc_http_after_handshake(mc_http_t *h)
{
    open_get_stream(h);
    pump(h, 0);
}

int mc_http_close(mc_http_t *h, int timeout_ms, long *status)
{
    int i;
    stream_t *d;
    int64_t deadline = mc_now_ms() + timeout_ms;
    int rc = MC_OK;

    if (status != NULL)
        *status = 0;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        stream_free(h->streams[i]);
        h->streams[i] = NULL;
    }
    h->get = NULL;
    memset(h->resumes, 0, sizeof(h->resumes));
    if (h->session_id[0] == '\0' || h->gone)
        return MC_OK;
    d = stream_start(h, ST_DELETE, NULL, 0, NULL);
    if (d == NULL)
        return MC_ENOMEM;
    while (!d->done) {
        int running = 0;
        if (mc_now_ms() >= deadline) {
            rc = MC_ETIMEOUT;
            break;
        }
        curl_multi_perform(h->multi, &running);
        reap(h);
        if (!d->done)
            curl_multi_poll(h->multi, NULL, 0, wait_ms(deadline), NULL);
    }
    if (status != NULL)
        *status = d->status;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] == d)
            h->streams[i] = NULL;
    stream_free(d);
    return rc;
}

void mc_http_free(mc_http_t *h)
{
    int i;

    if (h == NULL)
        return;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        stream_free(h->streams[i]);
    if (h->queue != NULL) {
        while (h->q_count > 0) {
            free(h->queue[h->q_head].f.data);
            h->q_head = (h->q_head + 1) % MC_MAX_QUEUED_FRAMES;
            h->q_count--;
        }
        free(h->queue);
    }
    if (h->multi != NULL)
        curl_multi_cleanup(h->multi);
    free(h->findings);
    free(h->seen);
    free(h->url);
    free(h->origin);
    free(h);
}
