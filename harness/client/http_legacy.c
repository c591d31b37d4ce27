/*
 * http_legacy.c - the HTTP+SSE transport of 2024-11-05, client side, on the
 * transfers of the Streamable HTTP client: a GET of the URL opens the SSE
 * stream, whose first event must be `endpoint` with the URI (same origin)
 * every client message is then POSTed to; the server's messages come as
 * `message` events on that stream. What the stream and the POSTs show of
 * the two MUSTs of basic/transports#security-warning is recorded under
 * http/sse-endpoint-event and http/sse-two-endpoints (judge/builtin_http.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/http_internal.h"
#include "core/clock.h"
#include "core/jsonrpc.h"

/* --- URI references -------------------------------------------------------- */

/* The authority of an http:// URL: its start and length (after "http://"). */
static size_t authority_len(const char *after_scheme)
{
    return strcspn(after_scheme, "/?#");
}

/* Copies an authority lower-cased, with ":80" when it names no port, into
 * out (cap bytes). Returns -1 when it does not fit. */
static int norm_authority(const char *a, size_t n, char *out, size_t cap)
{
    size_t i;
    const char *close = n > 0 && a[0] == '[' ? memchr(a, ']', n) : NULL;
    const char *port_at = close != NULL ? close + 1 : memchr(a, ':', n);
    int has_port = port_at != NULL && port_at < a + n && *port_at == ':';

    if (n + 4 >= cap)
        return -1;
    for (i = 0; i < n; i++)
        out[i] = (a[i] >= 'A' && a[i] <= 'Z') ? (char)(a[i] - 'A' + 'a') : a[i];
    out[n] = '\0';
    if (!has_port)
        memcpy(out + n, ":80", 4);
    return 0;
}

char *mc__http_resolve_same_origin(const char *base, const char *ref, char *why, size_t cap)
{
    char out[MC_HTTP_MAX_ENDPOINT_URL + 1], ba[300], ra[300];
    const char *bauth = base + 7, *q;
    size_t blen = authority_len(bauth), rlen = strcspn(ref, "#"), i;
    int n;

    if (strncmp(base, "http://", 7) != 0) {
        snprintf(why, cap, "the client's URL is no http:// URL");
        return NULL;
    }
    if (rlen == 0 || rlen > MC_HTTP_MAX_ENDPOINT_URL) {
        snprintf(why, cap, "%s", rlen == 0 ? "it is empty" : "it is too long");
        return NULL;
    }
    for (i = 0; i < rlen; i++)
        if ((unsigned char)ref[i] <= 0x20 || (unsigned char)ref[i] == 0x7F) {
            snprintf(why, cap, "it holds a space or a control character (byte %zu)", i);
            return NULL;
        }
    if (strncasecmp(ref, "http://", 7) == 0 || strncmp(ref, "//", 2) == 0) {
        const char *rauth = ref + (ref[0] == '/' ? 2 : 7);
        size_t l = authority_len(rauth);
        if (l > rlen - (size_t)(rauth - ref))
            l = rlen - (size_t)(rauth - ref);
        if (norm_authority(bauth, blen, ba, sizeof(ba)) != 0 ||
            norm_authority(rauth, l, ra, sizeof(ra)) != 0 || strcmp(ba, ra) != 0) {
            snprintf(why, cap, "it names another origin than the URL's (not followed)");
            return NULL;
        }
        n = snprintf(out, sizeof(out), "http://%.*s", (int)(rlen - (size_t)(rauth - ref)), rauth);
    } else if (memchr(ref, ':', strcspn(ref, "/?#")) != NULL) {
        snprintf(why, cap, "it names another scheme than http (another origin, not followed)");
        return NULL;
    } else if (ref[0] == '/') {
        n = snprintf(out, sizeof(out), "http://%.*s%.*s", (int)blen, bauth, (int)rlen, ref);
    } else if (ref[0] == '?') {
        size_t pl = strcspn(bauth + blen, "?#");
        n = snprintf(out, sizeof(out), "http://%.*s%.*s%.*s", (int)blen, bauth, (int)pl,
                     bauth + blen, (int)rlen, ref);
    } else {
        /* A relative path: against the directory of the URL's path. */
        size_t pl = strcspn(bauth + blen, "?#");
        const char *path = bauth + blen, *slash = NULL;
        for (q = path; q < path + pl; q++)
            if (*q == '/')
                slash = q;
        n = snprintf(out, sizeof(out), "http://%.*s%.*s/%.*s", (int)blen, bauth,
                     slash != NULL ? (int)(slash - path) : 0, path, (int)rlen, ref);
    }
    if (n < 0 || (size_t)n >= sizeof(out)) {
        snprintf(why, cap, "the resolved URI is too long");
        return NULL;
    }
    return strdup(out);
}

/* --- the SSE stream ------------------------------------------------------- */

static void fail_once(mc_http_t *h, const char *what)
{
    if (h->failure[0] == '\0')
        snprintf(h->failure, sizeof(h->failure), "HTTP+SSE: %.200s", what);
}

/* Hands the judge the record of event ev of the SSE stream before the
 * endpoint is known: its type, its data, and why the URI it names cannot
 * be used (NULL: it can). */
static void emit_early_event(mc_http_t *h, stream_t *s, const mc_sse_event_t *ev, const char *why)
{
    mc_record_stream_t st;

    memset(&st, 0, sizeof(st));
    st.flags = MC_RS_LEGACY | (ev->has_data ? MC_RS_DATA : 0);
    st.event = ev->event;
    st.why = why;
    mc__http_emit_data(h, s, MC_REC_SSE_EVENT, &st, ev->has_data ? ev->data : "",
                       ev->has_data ? ev->data_len : 0);
}

/*
 * An event before the endpoint is known. The first event must be the
 * endpoint event (the judge holds it to that); one of another type is
 * skipped, and a later endpoint event still lets the session go on, so
 * that the rest can be judged. An endpoint whose URI cannot be used
 * (another origin, no URI) ends the connection: it is never followed.
 */
static void before_endpoint(mc_http_t *h, stream_t *s, const mc_sse_event_t *ev)
{
    char why[160], msg[240];
    char *url;
    int first = !h->endpoint_seen;

    h->endpoint_seen = 1;
    if (strcmp(ev->event, "endpoint") != 0) {
        emit_early_event(h, s, ev, NULL);
        if (!first)
            mc__http_note(h,
                          "GET#%u: an event of type \"%.40s\" before the endpoint event "
                          "ignored",
                          s->num, ev->event);
        return;
    }
    url = NULL;
    if (ev->oversize || !ev->has_data || ev->data_len == 0)
        snprintf(why, sizeof(why), "%s", ev->oversize ? "it is too long" : "it holds no URI");
    else if (strlen(ev->data) != ev->data_len)
        snprintf(why, sizeof(why), "it holds a NUL byte");
    else
        url = mc__http_resolve_same_origin(h->url, ev->data, why, sizeof(why));
    emit_early_event(h, s, ev, url == NULL ? why : NULL);
    if (url == NULL) {
        snprintf(msg, sizeof(msg),
                 "GET#%u: the endpoint event's data \"%.60s\" is no usable URI: %.100s", s->num,
                 ev->has_data ? ev->data : "", why);
        fail_once(h, msg);
        h->endpoint_bad = 1;
        return;
    }
    h->post_url = url;
    mc__http_note(h, "GET#%u: endpoint event \"%.80s\": messages go to %.100s", s->num, ev->data,
                  url);
}

int mc__http_legacy_event(mc_http_t *h, stream_t *s, const mc_sse_event_t *ev)
{
    if (h->post_url == NULL) {
        if (!h->endpoint_bad)
            before_endpoint(h, s, ev);
        return 0; /* no session before the endpoint: nothing is passed on */
    }
    if (ev->oversize) {
        mc__http_push_frame(h, s, MC_FRAME_OVERSIZE, NULL, MC_MAX_MESSAGE_SIZE, ev->id);
        return 0;
    }
    if (ev->event[0] != '\0' && strcmp(ev->event, "message") != 0) {
        mc__http_note(h, "GET#%u: SSE event of type \"%.40s\" ignored", s->num, ev->event);
        return 0;
    }
    if (!ev->has_data || ev->data_len == 0) {
        mc__http_note(h, "GET#%u: a message event without data ignored", s->num);
        return 0;
    }
    s->new_events++;
    mc__http_emit_message(h, s, ev->data, ev->data_len, ev->has_id ? ev->id : NULL);
    mc__http_push_frame(h, s, MC_FRAME_LINE, ev->data, ev->data_len, ev->has_id ? ev->id : NULL);
    return 0;
}

int mc__http_legacy_connect(mc_http_t *h, int64_t deadline_ms)
{
    int64_t until = mc_now_ms() + MC_HTTP_SSE_ENDPOINT_WAIT_MS;
    stream_t *s;
    char msg[200];

    /* The wait is the transport's own hang budget, whatever the caller's
     * deadline for the message being sent. */
    (void)deadline_ms;
    h->legacy = 1;
    h->decided = 1;
    s = mc__http_stream_start(h, ST_GET, NULL, 0, NULL);
    if (s == NULL) {
        fail_once(h, "the SSE stream could not be started (out of memory)");
        return MC_ENOMEM;
    }
    s->legacy_sse = 1;
    h->sse = s;
    mc__http_note(h, "GET#%u opened: the SSE endpoint of the HTTP+SSE transport", s->num);
    while (h->post_url == NULL && !h->endpoint_bad && h->sse != NULL) {
        int64_t left = until - mc_now_ms();
        if (left <= 0)
            break;
        mc__http_pump(h, left > WAIT_SLICE_MS ? WAIT_SLICE_MS : (int)left);
    }
    if (h->post_url != NULL)
        return MC_OK;
    if (!h->endpoint_bad && h->sse != NULL) {
        mc_record_stream_t st;
        char how[80];
        snprintf(how, sizeof(how), "no endpoint event within %d ms of connecting",
                 (int)MC_HTTP_SSE_ENDPOINT_WAIT_MS);
        snprintf(msg, sizeof(msg), "GET#%u: %s", s->num, how);
        memset(&st, 0, sizeof(st));
        st.flags = MC_RS_LEGACY;
        st.why = how;
        mc__http_emit(h, s, MC_REC_NO_ENDPOINT, &st);
        fail_once(h, msg);
    }
    fail_once(h, "no endpoint to POST messages to");
    h->gone = 1;
    return MC_EEXITED;
}

/* Hands the judge the end of s, a stream of the HTTP+SSE transport that
 * got an HTTP answer. */
static void emit_legacy_end(mc_http_t *h, const stream_t *s)
{
    mc_record_stream_t st;

    memset(&st, 0, sizeof(st));
    st.flags = MC_RS_LEGACY;
    st.flags |= s->is_sse ? MC_RS_SSE : 0;
    st.flags |= s->carries_request ? MC_RS_REQUEST : 0;
    st.flags |= s->single ? MC_RS_SINGLE : 0;
    st.flags |= h->sse_if_offered || h->fell_back ? MC_RS_NOT_BOUND : 0;
    st.endpoint = h->post_url;
    mc__http_emit(h, s, MC_REC_STREAM_END, &st);
}

void mc__http_legacy_finished(mc_http_t *h, stream_t *s)
{
    char msg[240];
    int answered = s->status != 0 && s->headers_done && !s->header_overflow;

    if (answered && (s == h->sse || s->kind == ST_POST))
        emit_legacy_end(h, s);

    if (s == h->sse) {
        h->sse = NULL;
        h->gone = 1; /* the server's only way to the client is gone */
        if (!answered) {
            snprintf(msg, sizeof(msg), "GET#%u (the SSE endpoint) got no HTTP answer: %s", s->num,
                     s->header_overflow ? "the response headers exceeded 64 KiB"
                                        : curl_easy_strerror(s->result));
            fail_once(h, msg);
        } else if (s->status < 200 || s->status >= 300 || !s->is_sse) {
            snprintf(msg, sizeof(msg), "GET#%u (the SSE endpoint) got %ld %s, not an SSE stream",
                     s->num, s->status, s->ctype[0] ? s->ctype : "(no body type)");
            /* Only a server that is to speak HTTP+SSE at the URL breaks
             * its rule by not opening the stream; one that answers neither
             * transport there (a wrong URL) is a failure to connect. */
            if (h->sse_if_offered)
                h->sse_absent = 1;
            fail_once(h, msg);
        } else if (h->post_url == NULL && !h->endpoint_bad) {
            snprintf(msg, sizeof(msg), "GET#%u: the SSE stream ended before the endpoint event",
                     s->num);
            fail_once(h, msg);
        }
        mc__http_note(h, "GET#%u -> %ld %s, %llu events, %llu bytes: the SSE stream ended", s->num,
                      s->status, s->ctype[0] ? s->ctype : "(no body type)",
                      (unsigned long long)s->sse.events, (unsigned long long)s->bytes);
        return;
    }
    if (s->kind != ST_POST)
        return;
    if (!answered) {
        snprintf(msg, sizeof(msg), "POST#%u got no HTTP answer: %s", s->num,
                 curl_easy_strerror(s->result));
        fail_once(h, msg);
        if (s->result == CURLE_COULDNT_CONNECT || s->result == CURLE_GOT_NOTHING)
            h->gone = 1;
        return;
    }
    mc__http_note(h, "POST#%u -> %ld %s%s%.120s", s->num, s->status,
                  s->ctype[0] ? s->ctype : "(no body type)", s->body_len ? ": " : "",
                  s->body ? s->body : "");
    if ((s->status < 200 || s->status >= 300) && !s->single) {
        /* Malformed input or a batch the harness sends on purpose: how the
         * server refuses it is for the scenario's JSON-RPC checks. */
        return;
    }
    if ((s->status < 200 || s->status >= 300) && s->carries_request) {
        /* The request's answer cannot come: the session cannot go on. */
        snprintf(msg, sizeof(msg), "POST#%u to the endpoint %.80s got HTTP %ld, not accepted",
                 s->num, h->post_url ? h->post_url : "", s->status);
        fail_once(h, msg);
        h->gone = 1;
    }
}

void mc__http_legacy_close(mc_http_t *h)
{
    mc_record_stream_t st;

    /* Whatever is still on the way is read before the verdict. */
    mc__http_pump(h, 0);
    memset(&st, 0, sizeof(st));
    st.flags = MC_RS_LEGACY;
    mc__http_emit(h, h->sse, MC_REC_CLOSE, &st);
}
