/*
 * http_exchange.c - one HTTP request outside any session, for the steps of
 * the transport scenarios that look at statuses, headers and raw bodies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "client/sse.h"

typedef struct xctx {
    mc_http_exchange_t *x;
    size_t cap, header_bytes;
    int is_sse;
    mc_sse_t sse;
    int want_events, events;
} xctx_t;

static size_t x_header(char *b, size_t size, size_t nitems, void *ctx)
{
    xctx_t *c = ctx;
    size_t n = size * nitems;

    c->header_bytes += n;
    if (c->header_bytes > MC_HTTP_MAX_HEADER_BYTES)
        return 0;
    if (mc__http_header_is(b, n, "content-type")) {
        mc__http_header_value(b, n, c->x->ctype, sizeof(c->x->ctype));
        c->is_sse = strncasecmp(c->x->ctype, "text/event-stream", 17) == 0;
    } else if (mc__http_header_is(b, n, "mcp-session-id")) {
        mc__http_header_value(b, n, c->x->session_id, sizeof(c->x->session_id));
    } else if (mc__http_header_is(b, n, "allow")) {
        mc__http_header_value(b, n, c->x->allow, sizeof(c->x->allow));
    }
    return n;
}

static int x_event(void *ctx, const mc_sse_event_t *ev)
{
    xctx_t *c = ctx;

    (void)ev;
    c->events++;
    return c->want_events > 0 && c->events >= c->want_events;
}

static size_t x_body(char *b, size_t size, size_t nmemb, void *ctx)
{
    xctx_t *c = ctx;
    mc_http_exchange_t *x = c->x;
    size_t n = size * nmemb, keep = n;
    int stop = 0;

    if (c->is_sse)
        stop = mc_sse_feed(&c->sse, b, n, x_event, c) != 0;
    if (x->body_len + keep > MC_HTTP_MAX_BODY) {
        keep = MC_HTTP_MAX_BODY - x->body_len;
        x->body_truncated = 1;
    }
    if (keep > 0) {
        if (x->body_len + keep + 1 > c->cap) {
            size_t cap = c->cap ? c->cap : 4096;
            char *nb;
            while (cap < x->body_len + keep + 1)
                cap *= 2;
            nb = realloc(x->body, cap);
            if (nb == NULL)
                return 0;
            x->body = nb;
            c->cap = cap;
        }
        memcpy(x->body + x->body_len, b, keep);
        x->body_len += keep;
        x->body[x->body_len] = '\0';
    }
    /* Past the cap, or once the wanted events came, the transfer ends. */
    if (stop || x->body_truncated)
        return 0;
    return n;
}

int mc_http_exchange(const char *url, const char *method, const char *const *headers,
                     const char *body, size_t body_len, int timeout_ms, int sse_events,
                     mc_http_exchange_t *x)
{
    CURL *e;
    struct curl_slist *hl = NULL;
    xctx_t c;
    CURLcode rc;
    size_t i;

    memset(x, 0, sizeof(*x));
    memset(&c, 0, sizeof(c));
    c.x = x;
    c.want_events = sse_events;
    mc_sse_init(&c.sse, 0, 0);
    curl_global_init(CURL_GLOBAL_NOTHING);
    e = curl_easy_init();
    if (e == NULL) {
        snprintf(x->error, sizeof(x->error), "out of memory");
        return MC_EIO;
    }
    for (i = 0; headers != NULL && headers[i] != NULL; i++) {
        struct curl_slist *n = curl_slist_append(hl, headers[i]);
        if (n == NULL)
            break;
        hl = n;
    }
    {
        struct curl_slist *n = curl_slist_append(hl, "Expect:");
        if (n != NULL)
            hl = n;
    }
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, x_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &c);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, x_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &c);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)MC_HTTP_CONNECT_TIMEOUT_MS);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
    if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
        curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, body != NULL ? body : "");
    } else if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
        if (body != NULL) {
            curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
            curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, body);
        }
    }
    rc = curl_easy_perform(e);
    x->complete = rc == CURLE_OK;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &x->status);
    curl_easy_cleanup(e);
    curl_slist_free_all(hl);
    mc_sse_free(&c.sse);
    if (x->status > 0)
        return MC_OK;
    snprintf(x->error, sizeof(x->error), "%s", curl_easy_strerror(rc));
    return rc == CURLE_OPERATION_TIMEDOUT ? MC_ETIMEOUT : MC_EIO;
}

void mc_http_exchange_free(mc_http_exchange_t *x)
{
    free(x->body);
    x->body = NULL;
    x->body_len = 0;
}
