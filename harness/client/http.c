#include "client/http.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "client/http_internal.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/jsonrpc.h"

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
    h->get = mc__http_stream_start(h, ST_GET, NULL, 0, NULL);
    if (h->get != NULL) {
        mc__http_emit_start(h, h->get, NULL);
        mc__http_note(h, "GET#%u opened", h->get->num);
    }
}

/* --- the link -------------------------------------------------------------- */

/*
 * Sets what the body of POST s (line[0..n)) expects. Only a well-formed
 * notification or response expects 202 (carries_request 0); anything else,
 * a request or malformed input a test sends on purpose, expects an answer.
 * A readable id names what the answer belongs to, even on malformed input
 * (a request whose method is no string); an id whose compact JSON passes
 * MC_HTTP_MAX_REQ_ID is noted and left unpaired, never cut.
 */
static void classify_post(mc_http_t *h, stream_t *s, const char *line, size_t n)
{
    json_object *o, *id = NULL;
    mc_msg_t msg;
    const char *m, *ids, *token = NULL;
    int has_id, has_result, has_error;

    int not_json;

    s->carries_request = 1;
    not_json = mc_msg_decode(line, n, MC_MAX_JSON_DEPTH, &msg) != MC_OK;
    s->malformed = not_json || msg.kind == MC_MSG_INVALID;
    mc_msg_free(&msg);
    /* A body that is no JSON text as a whole (an object followed by a stray
     * brace) has no id a server can read, whatever its start holds. */
    o = not_json ? NULL : mc_json_parse_loose(line, n);
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        mc__http_emit_start(h, s, NULL);
        return;
    }
    s->single = !s->malformed;
    m = mc_json_get_str(o, "method");
    has_id = json_object_object_get_ex(o, "id", &id);
    has_result = json_object_object_get_ex(o, "result", NULL);
    has_error = json_object_object_get_ex(o, "error", NULL);
    if (has_id && mc_jsonrpc_id_valid(id)) {
        ids = mc_json_compact(id, NULL); /* ids are compared as this text */
        if (strlen(ids) < sizeof(s->req_id))
            snprintf(s->req_id, sizeof(s->req_id), "%s", ids);
        else {
            s->id_unkept = 1;
            mc__http_note(h, "POST#%u: the request id is %zu bytes of JSON, past the %u kept; "
                             "its answer is not paired with this stream",
                          s->num, strlen(ids), (unsigned)MC_HTTP_MAX_REQ_ID);
        }
    }
    if (m != NULL && has_id) {
        json_object *tok = mc_json_get(mc_json_get(mc_json_get(o, "params"), "_meta"),
                                       "progressToken");
        s->is_initialize = strcmp(m, "initialize") == 0;
        if (strlen(m) < sizeof(s->req_method))
            snprintf(s->req_method, sizeof(s->req_method), "%s", m);
        if (tok != NULL) {
            const char *ts = json_object_to_json_string_ext(tok, JSON_C_TO_STRING_PLAIN);
            token = ts;
            s->token_unkept = strlen(ts) > MC_HTTP_MAX_REQ_ID;
        }
    }
    else if (!s->malformed && m != NULL && !has_id && !has_result && !has_error)
        s->carries_request = 0; /* a notification */
    else if (!s->malformed && m == NULL && has_id && has_result != has_error) {
        s->carries_request = 0; /* a response */
        s->is_response = 1;
    }
    if (s->carries_request == 0 && m != NULL)
        s->is_initialized = strcmp(m, "notifications/initialized") == 0;
    if (s->carries_request == 0 && m != NULL && strcmp(m, "notifications/cancelled") == 0) {
        json_object *rid = mc_json_get(mc_json_get(o, "params"), "requestId");
        ids = rid != NULL ? mc_json_compact(rid, NULL) : "";
        if (rid != NULL && strlen(ids) <= MC_HTTP_MAX_REQ_ID)
            snprintf(h->cancelled[h->cancelled_next++ % MC_HTTP_MAX_CANCELLED],
                     sizeof(h->cancelled[0]), "%s", ids);
    }
    /* The judge learns what the stream's request carried (the token
     * uncut, while o lives). */
    mc__http_emit_start(h, s, token);
    json_object_put(o);
}

static int stream_alive(const mc_http_t *h, const stream_t *s)
{
    int i;

    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] == s)
            return 1;
    return 0;
}

/*
 * AUTO: the answer to the first initialize POST decides the transport. A
 * 404 or 405 is the sign of a server of the HTTP+SSE transport (2025-03-26,
 * basic/transports#backwards-compatibility): the POST is dropped unjudged
 * and 1 returned, the caller opens the SSE stream and sends the message
 * again. Else the transport stays Streamable HTTP (0).
 */
static int fall_back(mc_http_t *h, stream_t *s)
{
    int i;

    if (h->decided || h->transport != MC_HTTP_TRANSPORT_AUTO || !s->is_initialize ||
        !s->headers_done)
        return 0;
    h->decided = 1;
    if (s->status != 404 && s->status != 405)
        return 0;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] == s)
            h->streams[i] = NULL;
    mc__http_note(h, "POST#%u (initialize) -> %ld: no Streamable HTTP here; trying the HTTP+SSE "
                     "transport (GET %.100s)",
                  s->num, s->status, h->url);
    mc__http_stream_free(s);
    h->fell_back = 1;
    return 1;
}

static int link_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    mc_http_t *h = ctx;
    stream_t *s;
    size_t n = len;

    if (h->gone)
        return MC_EEXITED;
    if (h->transport == MC_HTTP_TRANSPORT_SSE && !h->legacy &&
        mc__http_legacy_connect(h, deadline_ms) != MC_OK)
        return MC_EEXITED;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        n--;
    s = mc__http_stream_start(h, ST_POST, line, n, NULL);
    if (s == NULL)
        return any_stream(h) ? MC_EFULL : MC_ENOMEM;
    classify_post(h, s, line, n);
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
        mc__http_reap(h);
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
    if (stream_alive(h, s) && fall_back(h, s)) {
        if (mc__http_legacy_connect(h, deadline_ms) != MC_OK)
            return MC_EEXITED;
        return link_send(ctx, line, len, deadline_ms);
    }
    mc__http_reap(h);
    if (h->gone && h->q_count == 0 && !any_stream(h))
        return MC_EEXITED;
    return MC_OK;
}

static int link_recv(void *ctx, mc_record_t *frame, int64_t deadline_ms)
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
            mc_record_t *q = &h->queue[h->q_head];
            *frame = *q;
            h->q_bytes -= q->kind == MC_FRAME_OVERSIZE ? 0 : q->len;
            memset(q, 0, sizeof(*q));
            h->q_head = (h->q_head + 1) % MC_MAX_QUEUED_FRAMES;
            h->q_count--;
            mc__http_unpause(h);
            return MC_OK;
        }
        /* The session is initialized once notifications/initialized was taken. */
        if (h->gone && !any_stream(h))
            return MC_EEOF;
        /* HTTP+SSE: the stream ended, or the endpoint refused a request. */
        if (h->gone && h->legacy)
            return MC_EEOF;
        if (mc_now_ms() >= deadline_ms) {
            mc__http_pump(h, 0);
            if (h->q_count > 0)
                continue;
            return MC_ETIMEOUT;
        }
        mc__http_pump(h, wait_ms(deadline_ms));
    }
}

void mc_http_set_sink(mc_http_t *h, mc_record_sink_fn fn, void *ctx)
{
    h->sink = fn;
    h->sink_ctx = ctx;
}

static void link_set_sink(void *ctx, mc_record_sink_fn fn, void *sink_ctx)
{
    mc_http_set_sink(ctx, fn, sink_ctx);
}

mc_link_t mc_http_link(mc_http_t *h)
{
    mc_link_t l;

    l.ctx = h;
    l.send = link_send;
    l.recv = link_recv;
    l.set_sink = link_set_sink;
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
    h->transport = o->transport;
    h->sse_if_offered = o->sse_if_offered;
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

const char *mc_http_transport_name(const mc_http_t *h)
{
    if (h->legacy)
        return "http+sse";
    return h->decided || h->transport == MC_HTTP_TRANSPORT_STREAMABLE || h->next_num > 0
               ? "streamable-http"
               : "auto";
}

int mc_http_sse_absent(const mc_http_t *h)
{
    return h != NULL && h->sse_absent;
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
    if (h->legacy) {
        mc__http_pump(h, 0); /* HTTP+SSE has its one stream already */
        return;
    }
    /* 2026-07-28 has no GET stream (streamable-http#earlier-streamable-http-
     * revisions): change notifications come on subscriptions/listen. */
    if (h->modern_version[0] == '\0')
        open_get_stream(h);
    mc__http_pump(h, 0);
}

int mc_http_close(mc_http_t *h, int timeout_ms, long *status)
{
    int i;
    stream_t *d;
    int64_t deadline = mc_now_ms() + timeout_ms;
    int rc = MC_OK;

    if (status != NULL)
        *status = 0;
    if (h->legacy)
        mc__http_legacy_close(h);
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++) {
        mc__http_stream_free(h->streams[i]);
        h->streams[i] = NULL;
    }
    h->get = NULL;
    h->sse = NULL;
    memset(h->resumes, 0, sizeof(h->resumes));
    if (h->session_id[0] == '\0' || h->gone)
        return MC_OK;
    d = mc__http_stream_start(h, ST_DELETE, NULL, 0, NULL);
    if (d == NULL)
        return MC_ENOMEM;
    while (!d->done) {
        int running = 0;
        if (mc_now_ms() >= deadline) {
            rc = MC_ETIMEOUT;
            break;
        }
        curl_multi_perform(h->multi, &running);
        mc__http_reap(h);
        if (!d->done)
            curl_multi_poll(h->multi, NULL, 0, wait_ms(deadline), NULL);
    }
    if (status != NULL)
        *status = d->status;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        if (h->streams[i] == d)
            h->streams[i] = NULL;
    mc__http_stream_free(d);
    return rc;
}

void mc_http_free(mc_http_t *h)
{
    int i;

    if (h == NULL)
        return;
    for (i = 0; i < MC_HTTP_MAX_STREAMS; i++)
        mc__http_stream_free(h->streams[i]);
    if (h->queue != NULL) {
        while (h->q_count > 0) {
            free(h->queue[h->q_head].data);
            h->q_head = (h->q_head + 1) % MC_MAX_QUEUED_FRAMES;
            h->q_count--;
        }
        free(h->queue);
    }
    if (h->multi != NULL)
        curl_multi_cleanup(h->multi);
    free(h->tools);
    free(h->url);
    free(h->post_url);
    free(h->origin);
    free(h);
}
