/*
 * httpserve.c - the reference server over Streamable HTTP (--http), on
 * libmicrohttpd: the request checks (Origin and Host, Accept, the
 * MCP-Protocol-Version header, the body), POST (a session's messages, its
 * answers as JSON or an SSE stream), GET (the session's stream, or a
 * resumption with Last-Event-ID), DELETE, the HTTP violation switches and
 * the serving loop. Sessions and streams: httpsess.c. A POST of the
 * stateless revision (2026-07-28) goes to httpmodern.c; GET and DELETE of
 * that revision get 405.
 */
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
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "refserver/httpint.h"

hs_t *mc__hs_g; /* the emit callback's way back; one server per process */

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

json_object *mc__hs_parse_body(const char *body, size_t len)
{
    json_object *o = NULL;

    /* The strict parse of core, as the stdio path's decoder checks a line
     * (refserver/decode.c): json-c alone takes a raw control byte in a
     * string, or stops after the first value. */
    if (mc_json_parse(body, len, 0, &o, NULL) != MC_OK)
        return NULL;
    return o;
}

static body_kind_t classify(const char *body, size_t len, char *id, size_t id_cap, int *is_init,
                            char *token, size_t token_cap)
{
    json_object *o = mc__hs_parse_body(body, len), *v;
    body_kind_t k = B_INVALID;

    *is_init = 0;
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return B_INVALID;
    }
    if (json_object_object_get_ex(o, "method", &v) && json_object_is_type(v, json_type_string)) {
        if (json_object_object_get_ex(o, "id", &v)) {
            k = B_REQUEST;
            /* An id of another type is no id to echo: the error goes with
             * a null id, as the stdio path answers such a request. */
            if (mc_jsonrpc_id_valid(v))
                snprintf(id, id_cap, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
            else if (id_cap > 0)
                id[0] = '\0';
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
    /* A server of the stateless versions only (--modern-only) serves every
     * POST as one of that revision: no initialize, no session. */
    if ((hs->opts != NULL && hs->opts->modern_only) ||
        mc__hs_modern_wants(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version"),
                            sid, rq->body ? rq->body : "", rq->len))
        return mc__hs_do_post_modern(hs, c, rq,
                                     MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                                 "MCP-Protocol-Version"));
    k = classify(rq->body ? rq->body : "", rq->len, id, sizeof(id), &is_init, token,
                 sizeof(token));

    if (is_init && hs->bug == RS_HTTP_BUG_VERSION_HEADER_OPTIONAL)
        mc__hs_no_old_clients(rq);
    pthread_mutex_lock(&hs->mu);
    if (is_init) {
        se = mc__hs_sess_new(hs);
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error(c, 503, -32000, "too many sessions");
        }
    } else if (sid == NULL) {
        se = hs->bug == RS_HTTP_BUG_SESSION_OPTIONAL ? mc__hs_sess_latest(hs) : NULL;
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error_id(c, 400, -32000, "Bad Request: Mcp-Session-Id header is required",
                                   id);
        }
    } else {
        se = mc__hs_sess_find(hs, sid, &deleted);
        if (se == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return answer_error_id(c, 404, -32001, "Session not found", id);
        }
    }
    se->last_ms = mc_now_ms();
    snprintf(sidcopy, sizeof(sidcopy), "%s", se->id);
    if (se->rs == NULL) {
        /* A deleted session kept alive by the after-delete switch. */
        se->rs = mc_refserver_new(hs->opts, mc__hs_on_emit, se, &(mc_errbuf_t){0});
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
    s = mc__hs_stream_new(se, 0);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 500, -32603, "out of memory");
    }
    snprintf(s->req_id, sizeof(s->req_id), "%s", id);
    snprintf(s->token, sizeof(s->token), "%s", token);
    if (hs->bug == RS_HTTP_BUG_SSE_NO_DATA && k == B_REQUEST)
        mc__hs_append(s, "event: ping\n\n", 13);
    if (k == B_REQUEST)
        mc__hs_prime(hs, se, s);
    se->current = s;
    mc_refserver_handle(se->rs, rq->body ? rq->body : "", rq->len, mc_now_ms());
    se->current = NULL;
    if (k == B_INVALID) {
        /* Not a single JSON-RPC message: the handler's error, with 400. */
        char *first = s->first;
        enum MHD_Result rc;
        s->first = NULL;
        mc__hs_stream_unlink(s);
        pthread_mutex_unlock(&hs->mu);
        mc__hs_stream_free(s);
        rc = answer(c, hs->bug == RS_HTTP_BUG_UNREADABLE_BODY_200 ? MHD_HTTP_OK : 400,
                    "application/json", first ? first : "", NULL, NULL);
        free(first);
        return rc;
    }
    if (s->answered && s->events == 1 && s->first != NULL && hs->bug != RS_HTTP_BUG_SSE_NO_DATA &&
        !(hs->bug == RS_HTTP_BUG_TASKS_GET_SSE && rq->body != NULL &&
          strstr(rq->body, "\"tasks/get\"") != NULL)) {
        char *first = s->first;
        enum MHD_Result rc;
        s->first = NULL;
        mc__hs_stream_unlink(s);
        pthread_mutex_unlock(&hs->mu);
        mc__hs_stream_free(s);
        rc = answer(c, MHD_HTTP_OK, "application/json", first, is_init ? sidcopy : NULL, NULL);
        free(first);
        return rc;
    }
    if (hs->bug == RS_HTTP_BUG_DISCONNECT_CANCELS)
        mc__hs_drop_call(se, s, rq);
    pthread_mutex_unlock(&hs->mu);
    return mc__hs_answer_sse(c, s, is_init ? sidcopy : NULL);
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

    old = mc__hs_find_event(hs, se, lei, &seq, &order);
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
    s->orig_id = old->orig_id;
    old->orig_id = NULL;
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
        mc__hs_stream_unlink(old);
        mc__hs_stream_free(old);
    }
    mc__hs_stream_link(se, s);
    if (hs->bug == RS_HTTP_BUG_RESUME_OTHER_STREAM) {
        mc__hs_replay_session(hs, se, order, s);
    } else {
        for (i = 0; i < s->h_count; i++) {
            const hs_event_t *e = &s->hist[(s->h_head + i) % HS_REPLAY_EVENTS];
            char id[48];
            if (e->seq <= seq)
                continue;
            mc__hs_event_id(hs, s->num, e->seq, id, sizeof(id));
            mc__hs_put_event(s, id, e->msg, e->len);
        }
    }
    if (s->answered && !s->is_get)
        s->finished = 1;
    pthread_cond_broadcast(&hs->cv);
    pthread_mutex_unlock(&hs->mu);
    return mc__hs_answer_sse(c, s, NULL);
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
    se = mc__hs_sess_find(hs, sid, &deleted);
    if (se == NULL || se->rs == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 404, -32001, "Session not found");
    }
    lei = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    if (lei != NULL)
        return do_resume(hs, c, se, lei); /* it unlocks */
    s = mc__hs_stream_new(se, 1);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 500, -32603, "out of memory");
    }
    if (hs->bug == RS_HTTP_BUG_SSE_NO_DATA)
        mc__hs_append(s, "event: ping\n\n", 13);
    for (i = 0; i < se->bl_n; i++) {
        mc__hs_push_event(hs, s, se->backlog[i], strlen(se->backlog[i]));
        free(se->backlog[i]);
    }
    se->bl_n = 0;
    pthread_mutex_unlock(&hs->mu);
    return mc__hs_answer_sse(c, s, NULL);
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
    se = mc__hs_sess_find(hs, sid, &deleted);
    if (se == NULL) {
        pthread_mutex_unlock(&hs->mu);
        return answer_error(c, 404, -32001, "Session not found");
    }
    if (hs->bug != RS_HTTP_BUG_SESSION_AFTER_DELETE)
        mc__hs_sess_drop(hs, se);
    else {
        hs_stream_t *s;
        se->deleted = 1; /* still answers, but its slot may be reused */
        mc__hs_sess_free_detached(se);
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
    if (pv != NULL && mc_version_has(pv, MC_VF_STATELESS) && strcmp(method, "POST") != 0)
        /* 2026-07-28 has neither the GET stream nor DELETE (streamable-http#
         * earlier-streamable-http-revisions). */
        return answer(c, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json",
                      "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                      "\"message\":\"Method not allowed: this protocol version has only POST\"}}",
                      NULL, "POST");
    if (pv != NULL && !known_version(pv) && !mc_version_has(pv, MC_VF_STATELESS)) {
        /* An error response carries the id of the request it refuses when
         * that id can be read (basic#responses), whatever refused it. */
        char *id = NULL;
        enum MHD_Result rc;
        if (strcmp(method, "POST") == 0 && !rq->too_big &&
            hs->bug != RS_HTTP_BUG_UNSUPPORTED_VERSION_NULL_ID)
            id = mc__hs_body_id_dup(rq->body ? rq->body : "", rq->len);
        rc = mc__hs_unsupported_version(hs, c, pv, id);
        free(id);
        return rc;
    }
    if (pv == NULL && hs->bug == RS_HTTP_BUG_PROTOCOL_VERSION_REQUIRED &&
        strcmp(method, "POST") == 0 &&
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id") != NULL)
        /* The switch: no version assumed for a request without the header. */
        return answer_error(c, 400, -32600, "the MCP-Protocol-Version header is missing");
    if (strcmp(method, "POST") == 0 &&
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id") == NULL &&
        MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "sessionId") != NULL)
        return mc__hs_legacy_post(hs, c, rq,
                                  MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
                                                              "sessionId"));
    if (strcmp(method, "POST") == 0)
        return do_post(hs, c, rq);
    /* A GET without a session id and without a protocol version header is a
     * client of the HTTP+SSE transport opening its stream (not with the
     * switch whose server serves no client older than 2025-06-18). */
    if (strcmp(method, "GET") == 0 && pv == NULL &&
        hs->bug != RS_HTTP_BUG_VERSION_HEADER_OPTIONAL &&
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id") == NULL &&
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID") == NULL)
        return mc__hs_legacy_get(hs, c);
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
    mc__hs_g = &hs;
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
        for (i = 0; i <= HS_MAX_SESSIONS; i++) {
            hs_sess_t *se = i < HS_MAX_SESSIONS ? &hs.sess[i] : hs.modern;
            if (se == NULL)
                continue;
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
            mc__hs_sess_drop(&hs, &hs.sess[i]);
    if (hs.modern != NULL) {
        mc__hs_sess_drop(&hs, hs.modern);
        free(hs.modern); /* its streams ended with their connections */
        hs.modern = NULL;
    }
    mc__hs_g = NULL;
    pthread_cond_destroy(&hs.cv);
    pthread_mutex_destroy(&hs.mu);
    free(hs.sess);
    return MC_OK;
}
