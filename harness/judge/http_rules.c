/*
 * http_rules.c - the Streamable HTTP rules the judge holds the records of
 * the HTTP transport to (core/record.h): what is no message, the session
 * id the transport adopted and the end of a stream's transfer, comes here
 * through mc_judge_http (the transport's sink), as it happens.
 *
 * A stream's end tells what its POST carried and how the answer went: a
 * POSTed notification or response is answered 202 (http/notification-202),
 * a request with JSON or an SSE stream (http/request-content-type); the SSE
 * answer to a request of the session-based revisions (2025-03-26 to
 * 2025-11-25) ends after its response with nothing more
 * (http/response-closes-stream), and before it up to 2025-06-18 not at all
 * (http/stream-open-until-response), from 2025-11-25 only after a retry
 * field (http/sse-retry-before-close).
 */
#include "judge/judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "core/version.h"
#include "core/xmcpheader.h"
#include "judge/http_internal.h"

struct mc__judge_http *mc__judge_http_state(mc_judge_t *j)
{
    if (j->http == NULL)
        j->http = calloc(1, sizeof(*j->http));
    return j->http;
}

void mc__jhttp_verdict(mc_judge_t *j, const char *check, int pass, long status, int unread,
                       const char *fmt, ...)
{
    char detail[MC_JUDGE_HTTP_DETAIL_MAX];
    va_list ap;
    size_t n = j->w.n_findings;

    if (pass) {
        mc_wire_pass(&j->w, check);
        return;
    }
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    mc_wire_fail(&j->w, check, "%s", detail);
    if (j->w.n_findings > n) {
        j->w.findings[n].status = status;
        j->w.findings[n].request_unread = unread;
    }
}

mc__jstream_t *mc__jhttp_stream(struct mc__judge_http *jh, mc_stream_kind_t k, unsigned num)
{
    size_t i;

    for (i = 0; i < MC_JUDGE_HTTP_MAX_STREAMS; i++)
        if (jh->streams[i].used && jh->streams[i].num == num && jh->streams[i].kind == k)
            return &jh->streams[i];
    return NULL;
}

/* A slot for a new stream: a free one, else the oldest's. */
static mc__jstream_t *stream_slot(struct mc__judge_http *jh)
{
    mc__jstream_t *old = NULL;
    size_t i;

    for (i = 0; i < MC_JUDGE_HTTP_MAX_STREAMS; i++) {
        if (!jh->streams[i].used)
            return &jh->streams[i];
        if (old == NULL || jh->streams[i].num < old->num)
            old = &jh->streams[i];
    }
    return old;
}

/* A slot (stream_slot) made afresh for the stream of record r: its kind,
 * number, the stream it resumes and the stream whose events it carries. */
static mc__jstream_t *stream_open(struct mc__judge_http *jh, const mc_record_t *r)
{
    mc__jstream_t *s = stream_slot(jh);

    memset(s, 0, sizeof(*s));
    s->used = 1;
    s->kind = r->facts.stream;
    s->num = r->facts.num;
    s->resumes = r->facts.resumes;
    s->origin = s->resumes != 0 ? s->resumes : s->num;
    return s;
}

/* A stream starts: what its request carried. */
static void on_start(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    const mc_record_stream_t *st = r->facts.st;
    mc__jstream_t *s = stream_open(jh, r);

    s->flags = st->flags;
    snprintf(s->req_id, sizeof(s->req_id), "%s", r->facts.answers);
    if (st->method != NULL && strlen(st->method) < sizeof(s->req_method))
        snprintf(s->req_method, sizeof(s->req_method), "%s", st->method);
    if (st->token != NULL) {
        mc__jhttp_note_token(jh, st->token);
        if (strlen(st->token) < sizeof(s->req_token))
            snprintf(s->req_token, sizeof(s->req_token), "%s", st->token);
    }
    if (st->flags & MC_RS_LEGACY)
        mc__jhttp_legacy_start(jh, r);
    (void)j;
}

/* A response on the stream it came on: http/get-stream-no-response (the GET
 * stream carries none) and http/response-on-own-stream (a POST's stream
 * carries its own request's only). */
static void on_response(mc_judge_t *j, mc__jstream_t *s, const mc_record_t *r, json_object *id,
                        mc_record_reply_t *reply)
{
    const char *ids = mc_json_compact(id, NULL);
    int stateless = (r->facts.st->flags & MC_RS_STATELESS) != 0;

    reply->flags |= MC_RR_RESPONSE;
    if (s->req_id[0] && strcmp(ids, s->req_id) == 0) {
        s->answered = 1;
        reply->flags |= MC_RR_ANSWERS;
    }
    /* 2026-07-28 has no GET stream (streamable-http#earlier-streamable-
     * http-revisions): the rule is not judged in a session of it. */
    if (s->kind == MC_STREAM_GET && s->resumes == 0 && !stateless)
        mc__jhttp_verdict(j, "http/get-stream-no-response", 0, 0, 0,
                          "GET#%u carried a JSON-RPC response (id %.40s)", s->num, ids);
    else if ((s->flags & MC_RS_REQUEST) && s->req_id[0] && strcmp(ids, s->req_id) != 0 &&
             strcmp(ids, "null") != 0)
        mc__jhttp_verdict(j, "http/response-on-own-stream", 0, 0, 0,
                          "POST#%u (request id %s) carried the response to id %.40s", s->num,
                          s->req_id, ids);
}

/* http/x-mcp-header-valid: the annotations of each tool a tools/list
 * result lists, in a session of a stateless revision. */
static void judge_tool_annotations(mc_judge_t *j, json_object *result)
{
    json_object *tools = mc_json_get(result, "tools");
    size_t i, n;

    if (!json_object_is_type(tools, json_type_array))
        return;
    n = json_object_array_length(tools);
    for (i = 0; i < n; i++) {
        json_object *tool = json_object_array_get_idx(tools, i);
        const char *name = mc_json_get_str(tool, "name");
        json_object *schema = mc_json_get(tool, "inputSchema");
        char why[MC_XMCP_HEADER_WHY];
        int rc;
        if (name == NULL || strlen(name) >= MC_JUDGE_HTTP_MAX_TOOL_NAME ||
            !json_object_is_type(schema, json_type_object))
            continue;
        rc = mc_xmcp_header_check(schema, why, sizeof(why));
        if (rc != 0)
            mc__jhttp_verdict(j, "http/x-mcp-header-valid", rc > 0, 0, 0, "tool %.80s: %s", name,
                              why);
    }
}

/*
 * A message arrives on a stream: the rules about where it may come (a
 * response on the GET stream, a response to another request on a POST
 * stream, what relates to what), and what the transport asks back (whether
 * it answers the stream's request, initialize's version, a result).
 */
static void on_message(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r,
                       mc_record_reply_t *reply)
{
    mc__jstream_t *s = mc__jhttp_stream(jh, r->facts.stream, r->facts.num);
    json_object *o, *id, *res, *code;
    int stateless = (r->facts.st->flags & MC_RS_STATELESS) != 0;

    if (r->data == NULL || r->facts.stream == MC_STREAM_NONE)
        return;
    if (s == NULL) {
        /* A stream whose start was not told (a trace keeps no starts):
         * only what its messages show is known of it. */
        s = stream_open(jh, r);
    }
    o = mc_json_parse_loose(r->data, r->len);
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return;
    }
    if (r->facts.stream == MC_STREAM_SSE) {
        /* HTTP+SSE: its one stream carries every message, as stdout does;
         * only the probe's answer is looked for. */
        mc__jhttp_legacy_message(j, jh, o);
        json_object_put(o);
        return;
    }
    if (json_object_object_get_ex(o, "method", NULL) && json_object_object_get_ex(o, "id", NULL))
        s->server_requests++;
    if (s->answered)
        s->after_response++;
    if ((s->flags & MC_RS_MODERN) && s->kind == MC_STREAM_POST && s->unrelated[0] == '\0')
        mc__jhttp_note_unrelated(s, o);
    if (!stateless)
        mc__jhttp_placement(j, s, o);
    code = mc_json_get(mc_json_get(o, "error"), "code");
    if (json_object_is_type(code, json_type_int) &&
        json_object_get_int64(code) == MC_RPC_METHOD_NOT_FOUND)
        s->method_not_found = 1;
    if (json_object_object_get_ex(o, "id", &id) && !json_object_object_get_ex(o, "method", NULL) &&
        (json_object_object_get_ex(o, "result", NULL) || json_object_object_get_ex(o, "error", NULL))) {
        on_response(j, s, r, id, reply);
        if (json_object_object_get_ex(o, "result", &res) &&
            json_object_is_type(res, json_type_object)) {
            const char *v = mc_json_get_str(res, "protocolVersion");
            reply->result = res;
            if (r->facts.st->flags & MC_RS_MODERN)
                judge_tool_annotations(j, res);
            if ((s->flags & MC_RS_INITIALIZE) && v != NULL && strlen(v) < sizeof(reply->version))
                snprintf(reply->version, sizeof(reply->version), "%s", v);
        }
        /* The transport reads the result during the call: o lives until the next message. */
    }
    json_object_put(jh->last);
    jh->last = o;
}

/* The name of the method of a stream record's transfer. */
static const char *method_name(const mc_record_t *r)
{
    if (r->facts.st->flags & MC_RS_DELETE)
        return "DELETE";
    return r->facts.stream == MC_STREAM_GET ? "GET" : "POST";
}

/* http/session-id-visible-ascii: the session id the transport took. */
static void on_session_id(mc_judge_t *j, const mc_record_t *r)
{
    const char *sid = r->facts.session_id;
    int visible = 1;
    size_t i;

    for (i = 0; sid[i]; i++)
        if ((unsigned char)sid[i] < 0x21 || (unsigned char)sid[i] > 0x7E)
            visible = 0;
    mc__jhttp_verdict(j, "http/session-id-visible-ascii", visible, 0, 0, "session id \"%.60s\"%s",
                      sid, visible ? "" : " holds characters outside 0x21..0x7E");
}

/* The status a POST was answered with: 202 for a notification or response,
 * JSON or SSE for a request. */
static void judge_post_status(mc_judge_t *j, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;
    long status = r->facts.status;
    int request = (fl & MC_RS_REQUEST) != 0;

    if (r->facts.stream != MC_STREAM_POST || (fl & MC_RS_DELETE))
        return;
    /* A POSTed response is judged only up to 2025-11-25: at 2026-07-28 the
     * rule covers a notification (streamable-http#sending-messages), and that
     * revision's client sends no responses at all. */
    if (!request && !((fl & MC_RS_RESPONSE) && (fl & MC_RS_STATELESS)))
        mc__jhttp_verdict(j, "http/notification-202", status == 202, status, 0,
                          "POST#%u (a notification or response) got %ld%s", r->facts.num, status,
                          status == 202 && (fl & MC_RS_BODY) ? " with a body" : "");
    /* The rule is about requests: malformed input the harness sends on
     * purpose is judged by the JSON-RPC checks of its scenario. */
    if (request && !(fl & MC_RS_MALFORMED) && status >= 200 && status < 300)
        mc__jhttp_verdict(j, "http/request-content-type", (fl & (MC_RS_SSE | MC_RS_JSON)) != 0,
                          status, r->facts.answers[0] == '\0',
                          "POST#%u (request %s) got %ld with Content-Type \"%s\"", r->facts.num,
                          r->facts.answers, status, r->facts.ctype);
}

/* The answer to a POST of a stateless revision: no server request on its
 * stream, nothing unrelated and nothing after the response on it,
 * X-Accel-Buffering on an SSE answer, no session id, 404 with -32601. */
static void judge_stateless(mc_judge_t *j, const mc__jstream_t *s, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;
    long status = r->facts.status;
    const char *id = r->facts.answers, *accel = r->facts.st->accel ? r->facts.st->accel : "";
    unsigned num = r->facts.num;

    if (!(fl & MC_RS_REQUEST) || (fl & MC_RS_MALFORMED) || status == 0)
        return;
    if (fl & MC_RS_SSE) {
        mc__jhttp_verdict(j, "http/stateless-notification-related", s->unrelated[0] == '\0', 0, 0,
                          "POST#%u (%s %s) carried %s", num, s->req_method, id, s->unrelated);
        if (s->answered)
            mc__jhttp_verdict(j, "http/stateless-response-ends-stream", s->after_response == 0,
                              0, 0,
                              "POST#%u (request %s): %d message(s) followed the response on its "
                              "SSE stream",
                              num, id, s->after_response);
        mc__jhttp_verdict(j, "http/stateless-no-server-request", s->server_requests == 0, 0, 0,
                          "POST#%u (request %s) carried %d JSON-RPC request(s) of the server's",
                          num, id, s->server_requests);
        if (status >= 200 && status < 300)
            mc__jhttp_verdict(j, "http/sse-accel-buffering", strcasecmp(accel, "no") == 0, 0, 0,
                              "POST#%u (request %s) got an SSE stream with %s%s", num, id,
                              accel[0] ? "X-Accel-Buffering: " : "no X-Accel-Buffering header",
                              accel);
    }
    mc__jhttp_verdict(j, "http/stateless-no-session-id", r->facts.session_id[0] == '\0', 0, 0,
                      "POST#%u (request %s) got %ld with Mcp-Session-Id \"%.60s\"", num, id,
                      status, r->facts.session_id);
    if ((fl & MC_RS_JSON) && s->method_not_found)
        mc__jhttp_verdict(j, "http/method-not-found-404", status == 404, 0, 0,
                          "POST#%u (request %s) got error -32601 with status %ld", num, id,
                          status);
}

/* How the SSE answer to a request of the session-based revisions ended:
 * after its response nothing more (http/response-closes-stream); before
 * it, up to 2025-06-18 not at all (http/stream-open-until-response) and
 * from 2025-11-25 only after a retry field (http/sse-retry-before-close).
 * Only an end the server chose (the transfer completed) of a request the
 * client did not cancel is judged. */
static void judge_stream_end(mc_judge_t *j, const mc__jstream_t *s, const mc_record_t *r)
{
    unsigned fl = r->facts.st->flags;
    const char *id = r->facts.answers, *version = r->facts.st->version;
    int polling;

    if (!(fl & MC_RS_SSE) || !(fl & MC_RS_REQUEST) ||
        (fl & (MC_RS_MALFORMED | MC_RS_STATELESS | MC_RS_DELETE)) || r->facts.status != 200 ||
        id[0] == '\0' || version[0] == '\0' ||
        (r->facts.stream != MC_STREAM_POST && r->facts.resumes == 0))
        return;
    polling = mc_version_cmp(version, mc_version_name(MC_V_2025_11_25)) >= 0;
    if (s->answered) {
        mc__jhttp_verdict(j, "http/response-closes-stream", s->after_response == 0, 0, 0,
                          "%s#%u (request %s): %d message(s) followed the response on its SSE "
                          "stream",
                          method_name(r), r->facts.num, id, s->after_response);
        if (!polling)
            mc__jhttp_verdict(j, "http/stream-open-until-response", 1, 0, 0, "%s", "");
        return;
    }
    if (!(fl & MC_RS_COMPLETE) || (fl & MC_RS_CANCELLED))
        return;
    if (!polling)
        mc__jhttp_verdict(j, "http/stream-open-until-response", 0, 0, 0,
                          "%s#%u (request %s): the server ended the SSE stream before the "
                          "response",
                          method_name(r), r->facts.num, id);
    else
        mc__jhttp_verdict(j, "http/sse-retry-before-close", (fl & MC_RS_RETRY) != 0, 0, 0,
                          "%s#%u (request %s): the server closed the connection before the "
                          "response without a retry field",
                          method_name(r), r->facts.num, id);
}

/* A stream's transfer ended: the rules of its answer, then it is forgotten. */
static void on_end(mc_judge_t *j, struct mc__judge_http *jh, const mc_record_t *r)
{
    mc__jstream_t none, *s = mc__jhttp_stream(jh, r->facts.stream, r->facts.num);
    unsigned fl = r->facts.st->flags;

    if (fl & MC_RS_LEGACY) {
        mc__jhttp_legacy_end(j, jh, r);
        if (s != NULL)
            s->used = 0;
        return;
    }
    if (fl & MC_RS_DELETE)
        return; /* the session's end: no rule of these */
    if (s == NULL) {
        memset(&none, 0, sizeof(none)); /* a stream whose start was not told */
        s = &none;
    }
    judge_post_status(j, r);
    if (fl & MC_RS_MODERN)
        judge_stateless(j, s, r);
    else if (!(fl & MC_RS_STATELESS))
        mc__jhttp_related_end(j, s, r);
    judge_stream_end(j, s, r);
    s->used = 0;
}

void mc_judge_http(mc_judge_t *j, const mc_record_t *r, mc_record_reply_t *reply)
{
    struct mc__judge_http *jh;
    mc_record_reply_t none;

    if (j == NULL || r == NULL || r->facts.st == NULL)
        return;
    if (reply == NULL)
        reply = &none;
    jh = mc__judge_http_state(j);
    if (jh == NULL)
        return;
    switch (r->what) {
    case MC_REC_STREAM_START:
        on_start(j, jh, r);
        break;
    case MC_REC_SESSION_ID:
        on_session_id(j, r);
        break;
    case MC_REC_STREAM_END:
        on_end(j, jh, r);
        break;
    case MC_REC_MESSAGE:
        on_message(j, jh, r, reply);
        break;
    case MC_REC_SSE_EVENT:
        if (r->facts.stream == MC_STREAM_SSE)
            mc__jhttp_legacy_event(j, jh, r);
        else
            mc__jhttp_event(j, jh, r, reply);
        break;
    case MC_REC_NO_ENDPOINT:
        mc__jhttp_legacy_no_endpoint(j, jh, r);
        break;
    case MC_REC_CLOSE:
        mc__jhttp_legacy_close(j, jh);
        break;
    }
}

void mc__judge_http_free(mc_judge_t *j)
{
    if (j->http == NULL)
        return;
    json_object_put(j->http->last);
    free(j->http);
    j->http = NULL;
}

void mc_judge_http_sink(void *ctx, const mc_record_t *r, mc_record_reply_t *reply)
{
    mc_judge_http(ctx, r, reply);
}

int mc_judge_is_http_check(const char *check)
{
    return check != NULL && strncmp(check, "http/", 5) == 0;
}
