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
#include "core/version.h"

#define NOTE_RING 256
#define FINDING_RING 256
#define NOTE_LEN 200

typedef enum stream_kind { ST_POST, ST_GET, ST_DELETE } stream_kind_t;

typedef struct stream {
    mc_http_t *h;
    CURL *easy;
    struct curl_slist *hdrs;
    stream_kind_t kind;
    unsigned num;           /* POST#num in the notes */
    int carries_request;    /* the POST body was a JSON-RPC request */
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
} stream_t;

typedef struct qframe {
    mc_inframe_t f;
    char meta[MC_HTTP_MAX_META];
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
    char notes[NOTE_RING][NOTE_LEN];
    size_t n_head, n_count;
    mc_http_finding_t *findings;
    size_t f_head, f_count;
    char failure[240];
    int gone;               /* the server cannot be reached any more */
    int64_t late_deadline;  /* the deadline frames were last delivered past */
    unsigned late_frames;   /* frames delivered past late_deadline */
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

/* Queues one frame with its facts. kind OVERSIZE takes len as bytes skipped. */
static void push_frame(mc_http_t *h, stream_t *s, mc_frame_kind_t kind, const char *data,
                       size_t len, const char *event_id)
{
    qframe_t *q;
    size_t slot;
    int n;

    if (h->queue == NULL) {
        h->queue = calloc(MC_MAX_QUEUED_FRAMES, sizeof(*h->queue));
        if (h->queue == NULL)
            return;
    }
    if (h->q_count >= MC_MAX_QUEUED_FRAMES)
        return; /* callers pause first; this is the last line of defence */
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
            return;
        memcpy(q->f.data, data, len);
        q->f.data[len] = '\0';
        q->f.len = len;
        if (memchr(data, '\0', len) != NULL)
            q->f.flags |= MC_FRAME_F_NUL;
        h->q_bytes += len;
    }
    n = snprintf(q->meta, sizeof(q->meta), "%s#%u %ld %s", s->kind == ST_GET ? "GET" : "POST",
                 s->num, s->status, s->ctype[0] ? s->ctype : "(no content type)");
    if (n > 0 && (size_t)n < sizeof(q->meta) && s->session_id[0])
        n += snprintf(q->meta + n, sizeof(q->meta) - (size_t)n, " session=%s", s->session_id);
    if (n > 0 && (size_t)n < sizeof(q->meta) && event_id != NULL && event_id[0])
        snprintf(q->meta + n, sizeof(q->meta) - (size_t)n, " event-id=%s", event_id);
    s->frames++;
    h->q_count++;
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
        if (s->kind == ST_GET)
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

static int on_sse_event(void *ctx, const mc_sse_event_t *ev)
{
    stream_t *s = ctx;
    mc_http_t *h = s->h;

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

/* Creates and starts a transfer. body may be NULL. Returns the stream or NULL. */
static stream_t *stream_start(mc_http_t *h, stream_kind_t kind, const char *body, size_t len)
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
    if (s->kind == ST_POST && s->carries_request && s->status >= 200 && s->status < 300) {
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
            push_frame(h, s, MC_FRAME_LINE, s->body, s->body_len, NULL);
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
    int running = 0;

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
    return left > 1000 ? 1000 : (int)left;
}

static void open_get_stream(mc_http_t *h)
{
    if (h->get != NULL || !h->get_stream_wanted)
        return;
    h->get = stream_start(h, ST_GET, NULL, 0);
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
    s = stream_start(h, ST_POST, line, n);
    if (s == NULL)
        return any_stream(h) ? MC_EFULL : MC_ENOMEM;
    /* Only a well-formed notification or response expects 202; anything
     * else (a request, or malformed input a test sends on purpose) expects
     * an answer. */
    s->carries_request = 1;
    o = parse_n(line, n);
    if (o != NULL && json_object_is_type(o, json_type_object)) {
        json_object *id = NULL;
        const char *m = mc_json_get_str(o, "method");
        int has_id = json_object_object_get_ex(o, "id", &id);
        int has_result = json_object_object_get_ex(o, "result", NULL);
        int has_error = json_object_object_get_ex(o, "error", NULL);
        if (m != NULL && has_id) {
            s->is_initialize = strcmp(m, "initialize") == 0;
            snprintf(s->req_id, sizeof(s->req_id), "%s",
                     json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN));
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
    if (h->session_id[0] == '\0' || h->gone)
        return MC_OK;
    d = stream_start(h, ST_DELETE, NULL, 0);
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
    free(h->url);
    free(h->origin);
    free(h);
}
