/*
 * http_stream.c - the transfers of the Streamable HTTP client: starting a
 * POST, GET or DELETE, the curl callbacks that read its headers and body,
 * the judgement of a finished transfer and the resumption of an SSE stream
 * that ended before its response.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/http_internal.h"
#include "core/clock.h"
#include "core/version.h"

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

/* Takes the session id the server assigned (the first one seen) and hands
 * the judge a record of it (http/session-id-visible-ascii). */
static void adopt_session_id(mc_http_t *h, stream_t *s)
{
    mc_record_stream_t st;

    /* 2026-07-28 has no sessions (streamable-http#earlier-streamable-http-
     * revisions): an id there is judged by http/stateless-no-session-id and
     * never adopted. */
    if (h->legacy || s->session_id[0] == '\0' || h->session_id[0] != '\0' || s->kind == ST_DELETE ||
        mc__http_stateless(h, s))
        return;
    memset(&st, 0, sizeof(st));
    mc__http_emit(h, s, MC_REC_SESSION_ID, &st);
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
        s->accel[0] = '\0';
        s->headers_done = 0;
        return n;
    }
    if (mc__http_header_is(buf, n, "content-type"))
        mc__http_header_value(buf, n, s->ctype, sizeof(s->ctype));
    else if (mc__http_header_is(buf, n, "mcp-session-id"))
        mc__http_header_value(buf, n, s->session_id, sizeof(s->session_id));
    else if (mc__http_header_is(buf, n, "x-accel-buffering"))
        mc__http_header_value(buf, n, s->accel, sizeof(s->accel));
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
        if (mc__http_queue_full(h, n)) {
            s->paused = 1;
            return CURL_WRITEFUNC_PAUSE;
        }
        s->bytes += n;
        mc_sse_feed(&s->sse, buf, n, mc__http_on_sse_event, s);
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

void mc__http_stream_free(stream_t *s)
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
stream_t *mc__http_stream_start(mc_http_t *h, stream_kind_t kind, const char *body, size_t len,
                              const char *last_event_id)
{
    stream_t *s;
    int slot = slot_free(h), modern;

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
    modern = kind == ST_POST && !h->legacy ? mc__http_metadata_headers(h, body, len, &s->hdrs)
                                           : 0;
    if (modern < 0)
        goto fail;
    s->modern = modern;
    if (!modern && h->session_id[0] && add_header(s, "Mcp-Session-Id", h->session_id) != 0)
        goto fail;
    if (!modern && h->version[0] &&
        mc_version_cmp(h->version, mc_version_name(MC_V_2025_06_18)) >= 0 &&
        add_header(s, "MCP-Protocol-Version", h->version) != 0)
        goto fail;
    if (h->origin != NULL && add_header(s, "Origin", h->origin) != 0)
        goto fail;
    if (last_event_id != NULL && add_header(s, "Last-Event-ID", last_event_id) != 0)
        goto fail;
    /* No "Expect: 100-continue" wait on large bodies. */
    if (add_header(s, "Expect:", NULL) != 0)
        goto fail;
    /* HTTP+SSE: messages go to the endpoint the SSE stream named. */
    curl_easy_setopt(s->easy, CURLOPT_URL,
                     kind == ST_POST && h->post_url != NULL ? h->post_url : h->url);
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
    mc__http_stream_free(s);
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
    mc_record_t *q;

    if (h->queue == NULL || h->q_count == 0)
        return;
    q = &h->queue[(h->q_head + h->q_count - 1) % MC_MAX_QUEUED_FRAMES];
    q->flags |= MC_FRAME_F_REFUSAL;
    if (s->status == 403)
        q->flags |= MC_FRAME_F_ID_OPTIONAL;
    snprintf(q->facts.answers, sizeof(q->facts.answers), "%s", s->req_id);
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
    if (mc__http_stateless(h, s)) {
        /* "Resumable SSE streams via Last-Event-ID are not supported"
         * (2026-07-28, streamable-http#receiving-messages): the request is
         * left to its timeout. */
        mc__http_note(h, "POST#%u: the SSE stream ended before the response to %s; streams of "
                         "%s are not resumable",
                      origin, s->req_id, h->modern_version[0] ? h->modern_version : "this revision");
        return;
    }
    if (last[0] == '\0') {
        mc__http_note(h, "POST#%u: the SSE stream ended before the response to %s, and no event id was "
                "sent to resume from",
             origin, s->req_id);
        return;
    }
    if (attempts > MC_HTTP_RESUME_ATTEMPTS) {
        mc__http_note(h, "POST#%u: %d resumptions in a row brought no event; giving up on %s", origin,
             MC_HTTP_RESUME_ATTEMPTS, s->req_id);
        return;
    }
    if (total > MC_HTTP_RESUME_MAX_PER_REQUEST) {
        mc__http_note(h, "POST#%u: resumed %d times; giving up on %s", origin,
             MC_HTTP_RESUME_MAX_PER_REQUEST, s->req_id);
        return;
    }
    if (retry > MC_HTTP_RESUME_MAX_DELAY_MS) {
        mc__http_note(h, "POST#%u: the server asks for %ld ms before a reconnection, more than the %d ms "
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
    mc__http_note(h, "POST#%u: the SSE stream ended before the response to %s; resuming after event %.60s "
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
        s = mc__http_stream_start(h, ST_GET, NULL, 0, r->last_id);
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
        mc__http_emit_start(h, s, NULL);
        mc__http_note(h, "GET#%u resumes POST#%u with Last-Event-ID: %.60s", s->num, r->origin, r->last_id);
        r->used = 0;
    }
    return next > INT32_MAX ? INT32_MAX : (int)next;
}

/* Whether the client cancelled the request whose compact JSON id is id. */
static int was_cancelled(const mc_http_t *h, const char *id)
{
    unsigned i;

    for (i = 0; i < MC_HTTP_MAX_CANCELLED; i++)
        if (h->cancelled[i][0] != '\0' && strcmp(h->cancelled[i], id) == 0)
            return 1;
    return 0;
}

/*
 * Hands the judge the record of s's end: what its request carried, how its
 * answer came and ended (judge/http_stream_rules.c holds it to the rules of
 * a POST's status and content type and of how an SSE answer ends).
 */
static void emit_stream_end(mc_http_t *h, const stream_t *s)
{
    mc_record_stream_t st;
    unsigned fl = 0;
    long retry = s->sse.retry_ms >= 0 ? s->sse.retry_ms : s->retry_in;

    memset(&st, 0, sizeof(st));
    fl |= s->carries_request ? MC_RS_REQUEST : 0;
    fl |= s->malformed ? MC_RS_MALFORMED : 0;
    fl |= s->is_response ? MC_RS_RESPONSE : 0;
    fl |= s->is_initialize ? MC_RS_INITIALIZE : 0;
    fl |= s->token_unkept ? MC_RS_TOKEN_UNKEPT : 0;
    fl |= s->modern ? MC_RS_MODERN : 0;
    fl |= mc__http_stateless(h, s) ? MC_RS_STATELESS : 0;
    fl |= s->is_sse ? MC_RS_SSE : 0;
    fl |= s->is_json ? MC_RS_JSON : 0;
    fl |= s->body_len > 0 ? MC_RS_BODY : 0;
    fl |= s->result == CURLE_OK ? MC_RS_COMPLETE : 0;
    fl |= s->req_id[0] != '\0' && was_cancelled(h, s->req_id) ? MC_RS_CANCELLED : 0;
    fl |= retry >= 0 ? MC_RS_RETRY : 0;
    fl |= s->first_event ? MC_RS_EVENTS : 0;
    fl |= s->primed ? MC_RS_PRIMED : 0;
    st.flags = fl;
    st.method = s->req_method[0] ? s->req_method : NULL;
    st.accel = s->accel;
    snprintf(st.version, sizeof(st.version), "%s", h->version);
    mc__http_emit(h, s, MC_REC_STREAM_END, &st);
}

/* Judges and records a finished transfer; queues a JSON body's message. */
static void stream_finished(mc_http_t *h, stream_t *s)
{
    if (h->legacy) {
        mc__http_legacy_finished(h, s);
        return;
    }
    if (s->header_overflow || (s->result != CURLE_OK && (s->status == 0 || !s->headers_done))) {
        const char *why = s->header_overflow ? "the response headers exceeded 64 KiB"
                                             : curl_easy_strerror(s->result);
        mc__http_note(h, "%s#%u: no HTTP answer: %s", kind_name(s), s->num, why);
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
        mc__http_note(h, "%s#%u -> %ld redirect to %.100s (not followed)", kind_name(s), s->num,
             s->status, s->location[0] ? s->location : "(no Location)");
        if (h->failure[0] == '\0')
            snprintf(h->failure, sizeof(h->failure),
                     "the server redirected %s#%u to %.100s; mcpcheck does not follow redirects",
                     kind_name(s), s->num, s->location[0] ? s->location : "(no Location)");
    }
    if (s->is_sse) {
        if (mc_sse_pending(&s->sse))
            mc__http_note(h, "%s#%u: the SSE stream ended inside an event", kind_name(s), s->num);
        mc__http_note(h, "%s#%u -> %ld %s, %llu events, %llu bytes%s", kind_name(s), s->num, s->status,
             s->ctype, (unsigned long long)s->sse.events, (unsigned long long)s->bytes,
             s->result == CURLE_OK ? "" : " (transfer cut)");
    } else if (s->is_json && (s->kind != ST_POST || !s->carries_request) &&
               (s->status < 200 || s->status >= 300)) {
        /* An error status on a GET, or on a POSTed notification or response:
         * the body (an error without an id, which the spec allows) explains
         * the status and is no message of the session. */
        mc__http_note(h, "%s#%u -> %ld %s: %.120s", kind_name(s), s->num, s->status, s->ctype,
             s->body ? s->body : "");
    } else if (s->is_json) {
        if (s->body_over) {
            mc__http_push_frame(h, s, MC_FRAME_OVERSIZE, NULL, s->bytes, NULL);
            if (h->failure[0] == '\0')
                snprintf(h->failure, sizeof(h->failure),
                         "%s#%u: the JSON body passed the %u-byte message limit; the transfer "
                         "was cut",
                         kind_name(s), s->num, (unsigned)MC_HTTP_MAX_BODY);
        } else if (s->body_len > 0) {
            mc__http_emit_message(h, s, s->body, s->body_len, NULL);
            if (mc__http_push_frame(h, s, MC_FRAME_LINE, s->body, s->body_len, NULL) &&
                s->kind == ST_POST && s->carries_request && s->status >= 400 &&
                (s->req_id[0] || s->id_unkept))
                mark_refusal(h, s); /* answers "" when the id was too long to keep */
        }
        mc__http_note(h, "%s#%u -> %ld %s, %llu bytes", kind_name(s), s->num, s->status, s->ctype,
             (unsigned long long)s->bytes);
    } else {
        mc__http_note(h, "%s#%u -> %ld %s%s%.120s", kind_name(s), s->num, s->status,
             s->ctype[0] ? s->ctype : "(no body type)", s->body_len ? ": " : "",
             s->body ? s->body : "");
        if (s->kind == ST_POST && s->carries_request && s->status >= 400 &&
            h->failure[0] == '\0')
            snprintf(h->failure, sizeof(h->failure), "POST#%u (request %.64s) got HTTP %ld%s%.80s",
                     s->num, s->req_id, s->status, s->body_len ? ": " : "",
                     s->body ? s->body : "");
    }
    if (s->kind == ST_POST && s->carries_request && s->is_sse && s->responses == 0 &&
        s->result == CURLE_OK)
        mc__http_note(h, "POST#%u: the SSE stream closed without the response to %s", s->num, s->req_id);
    emit_stream_end(h, s);
    /* Only the judge tells an answer: without a sink nothing is resumed. */
    if (h->sink != NULL && s->is_sse && s->carries_request && s->req_id[0] && !s->answered &&
        s->status == 200 && (s->kind == ST_POST || s->resume_of != 0))
        schedule_resume(h, s);
    if (s->resume_of != 0 && !s->is_sse)
        mc__http_note(h, "GET#%u: the server did not resume POST#%u (%ld %s)", s->num, s->resume_of,
             s->status, s->ctype[0] ? s->ctype : "(no body type)");
    if (s->kind == ST_GET && s->status == 405)
        mc__http_note(h, "GET#%u: the server offers no GET stream (405)", s->num);
}

/* Reads completions off the multi handle and retires finished streams. */
void mc__http_reap(mc_http_t *h)
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
                mc__http_stream_free(s);
            }
            break;
        }
    }
}

/* Resumes transfers paused on a full queue once there is room. */
void mc__http_unpause(mc_http_t *h)
{
    int i;

    if (mc__http_queue_full(h, MC_READ_CHUNK))
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
void mc__http_pump(mc_http_t *h, int timeout_ms)
{
    int running = 0, due;

    due = start_due_resumes(h);
    if (due >= 0 && due < timeout_ms)
        timeout_ms = due > 0 ? due : 1;
    curl_multi_perform(h->multi, &running);
    mc__http_reap(h);
    if (timeout_ms > 0 && h->q_count == 0) {
        curl_multi_poll(h->multi, NULL, 0, timeout_ms, NULL);
        curl_multi_perform(h->multi, &running);
        mc__http_reap(h);
    }
}
