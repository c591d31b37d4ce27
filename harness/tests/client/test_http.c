/* Unit tests for the Streamable HTTP client (client/http.h) against a
 * scripted loopback server in a thread: how a POST's body is classified
 * (request, notification, malformed input) decides which rule judges the
 * answer, a request id is kept whole or, past its limit, noted, and the
 * session-era rules are judged up to 2025-11-25 only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "core/clock.h"
#include "core/error.h"
#include "judge/judge.h"

#include "../helpers/budget.h"

/* Budget for a transfer to finish; a hang guard, never a speed test. */
#define BUDGET_MS mc_test_budget_ms(20000)
#define MAX_RULES 6
#define MAX_REQUEST (64 * 1024)

/* The server answers a request whose body holds needle with answer (the
 * first rule that matches); without a match, 202 and no body. */
typedef struct rule {
    const char *needle;
    const char *answer;
} rule_t;

typedef struct server {
    int fd;
    int port;
    int stop;
    rule_t rules[MAX_RULES];
    pthread_t thread;
} server_t;

/* Reads one request (headers and a Content-Length body) into buf. */
static size_t read_request(int c, char *buf, size_t cap)
{
    size_t got = 0, want = 0;
    char *end;

    for (;;) {
        struct pollfd p = {c, POLLIN, 0};
        ssize_t n;
        if (got + 1 >= cap || poll(&p, 1, BUDGET_MS) <= 0)
            break;
        n = read(c, buf + got, cap - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
        buf[got] = '\0';
        end = strstr(buf, "\r\n\r\n");
        if (end != NULL && want == 0) {
            const char *cl = strstr(buf, "Content-Length:");
            want = (size_t)(end + 4 - buf) + (cl != NULL ? strtoul(cl + 15, NULL, 10) : 0);
        }
        if (want != 0 && got >= want)
            break;
    }
    buf[got] = '\0';
    return got;
}

static void *serve(void *arg)
{
    server_t *sv = arg;
    static char buf[MAX_REQUEST];

    while (!sv->stop) {
        struct pollfd p = {sv->fd, POLLIN, 0};
        const char *answer = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
        int c, i;
        if (poll(&p, 1, 50) <= 0)
            continue;
        c = accept(sv->fd, NULL, NULL);
        if (c < 0)
            continue;
        read_request(c, buf, sizeof(buf));
        for (i = 0; i < MAX_RULES && sv->rules[i].needle != NULL; i++)
            if (strstr(buf, sv->rules[i].needle) != NULL) {
                answer = sv->rules[i].answer;
                break;
            }
        if (write(c, answer, strlen(answer)) < 0)
            break;
        close(c);
    }
    return NULL;
}

static void server_start(server_t *sv)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sv->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(sv->fd >= 0);
    assert_int_equal(bind(sv->fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(sv->fd, 8), 0);
    assert_int_equal(getsockname(sv->fd, (struct sockaddr *)&a, &len), 0);
    sv->port = ntohs(a.sin_port);
    assert_int_equal(pthread_create(&sv->thread, NULL, serve, sv), 0);
}

static void server_stop(server_t *sv)
{
    sv->stop = 1;
    pthread_join(sv->thread, NULL);
    close(sv->fd);
}

/* A JSON answer with the given status line and body, closing the connection. */
static char *json_answer(const char *status, const char *body)
{
    size_t cap = strlen(body) + 256;
    char *a = malloc(cap);

    assert_non_null(a);
    snprintf(a, cap,
             "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
             "Connection: close\r\n\r\n%s",
             status, strlen(body), body);
    return a;
}

/* A failure the judge found in the transport's records. */
typedef struct found {
    char check[64];
    char detail[300];
    long status;
    int request_unread;
} found_t;

typedef struct client {
    mc_http_t *h;
    mc_link_t link;
    char notes[64][256];
    int n_notes;
    found_t found[64];
    int n_found;
    mc_judge_t *j;   /* the judge the transport's records go to */
    size_t j_taken;  /* its findings already in found */
} client_t;

static void client_open(client_t *c, const server_t *sv)
{
    char url[64];
    mc_http_opts_t o;
    mc_errbuf_t eb;

    memset(c, 0, sizeof(*c));
    memset(&o, 0, sizeof(o));
    memset(&eb, 0, sizeof(eb));
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/mcp", sv->port);
    o.url = url;
    c->h = mc_http_new(&o, &eb);
    assert_non_null(c->h);
    c->j = calloc(1, sizeof(*c->j));
    assert_non_null(c->j);
    assert_int_equal(mc_judge_init(c->j, NULL), MC_OK);
    mc_http_set_sink(c->h, mc_judge_http_sink, c->j);
    c->link = mc_http_link(c->h);
}

static void drain(client_t *c)
{
    while (c->n_notes < 64 && mc_http_take_note(c->h, c->notes[c->n_notes], 256))
        c->n_notes++;
    /* The failures the judge found in the transport's records. */
    for (; c->n_found < 64 && c->j_taken < c->j->w.n_findings; c->j_taken++) {
        const mc_wire_finding_t *f = &c->j->w.findings[c->j_taken];
        found_t *o = &c->found[c->n_found++];
        memset(o, 0, sizeof(*o));
        snprintf(o->check, sizeof(o->check), "%s", f->check);
        snprintf(o->detail, sizeof(o->detail), "%s", f->detail);
        o->status = f->status;
        o->request_unread = f->request_unread;
    }
}

static int noted(const client_t *c, const char *part)
{
    int i;

    for (i = 0; i < c->n_notes; i++)
        if (strstr(c->notes[i], part) != NULL)
            return 1;
    return 0;
}

/* Sends body as POST#num and waits until its transfer is judged (its
 * "POST#num -> " note). When frame is not NULL, the frame the answer gave. */
static void post(client_t *c, unsigned num, const char *body, mc_record_t *frame)
{
    char tag[32];
    int64_t deadline = mc_now_ms() + BUDGET_MS;
    mc_record_t f;

    snprintf(tag, sizeof(tag), "POST#%u -> ", num);
    assert_int_equal(c->link.send(c->link.ctx, body, strlen(body), deadline), MC_OK);
    if (frame != NULL) {
        assert_int_equal(c->link.recv(c->link.ctx, &f, deadline), MC_OK);
        *frame = f;
    }
    while (drain(c), !noted(c, tag) && mc_now_ms() < deadline)
        if (c->link.recv(c->link.ctx, &f, mc_now_ms() + 50) == MC_OK)
            mc_record_free(&f);
    assert_true(noted(c, tag));
}

static int failed(const client_t *c, const char *check)
{
    int i;

    for (i = 0; i < c->n_found; i++)
        if (strcmp(c->found[i].check, check) == 0)
            return 1;
    return 0;
}

/* The first failure of check, or NULL. */
static const found_t *failure_of(const client_t *c, const char *check)
{
    int i;

    for (i = 0; i < c->n_found; i++)
        if (strcmp(c->found[i].check, check) == 0)
            return &c->found[i];
    return NULL;
}

static void client_close(client_t *c)
{
    mc_http_close(c->h, MC_HTTP_DELETE_TIMEOUT_MS, NULL);
    mc_http_free(c->h);
    mc_judge_free(c->j);
    free(c->j);
}

static void frame_free(mc_record_t *f)
{
    mc_record_free(f);
}

/* A JSON string id of n letters, quoted. */
static char *long_id(size_t n, char letter)
{
    char *s = malloc(n + 3);

    assert_non_null(s);
    s[0] = '"';
    memset(s + 1, letter, n);
    s[n + 1] = '"';
    s[n + 2] = '\0';
    return s;
}

/* head, id and tail joined: a message around an id. */
static char *message(const char *head, const char *id, const char *tail)
{
    size_t cap = strlen(head) + strlen(id) + strlen(tail) + 1;
    char *m = malloc(cap);

    assert_non_null(m);
    snprintf(m, cap, "%s%s%s", head, id, tail);
    return m;
}

/* An id longer than 64 bytes pairs its response and its refusal whole. */
static void test_long_id_kept_whole(void **state)
{
    server_t sv;
    client_t c;
    mc_record_t f;
    char *id = long_id(200, 'a'), *ok, *req, *ok_body, *refused, *req2;

    (void)state;
    memset(&sv, 0, sizeof(sv));
    req = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"method\":\"ping\"}");
    ok_body = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"result\":{}}");
    ok = json_answer("200 OK", ok_body);
    refused = json_answer("400 Bad Request",
                          "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                          "\"message\":\"no\"}}");
    req2 = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"method\":\"refuse\"}");
    sv.rules[0] = (rule_t){"\"ping\"", ok};
    sv.rules[1] = (rule_t){"\"refuse\"", refused};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, req, &f);
    assert_string_equal(f.data, ok_body);
    frame_free(&f);
    assert_false(failed(&c, "http/response-on-own-stream"));
    post(&c, 2, req2, &f);
    assert_true(f.flags & MC_FRAME_F_REFUSAL);
    assert_string_equal(f.facts.answers, id);
    frame_free(&f);
    assert_false(noted(&c, "past the"));
    client_close(&c);
    server_stop(&sv);
    free(id), free(req), free(ok_body), free(ok), free(refused), free(req2);
}

/* An id past MC_HTTP_MAX_REQ_ID is noted and left unpaired, never cut. */
static void test_over_limit_id_noted(void **state)
{
    server_t sv;
    client_t c;
    mc_record_t f;
    char *id = long_id(MC_HTTP_MAX_REQ_ID + 10, 'b'), *req, *ok_body, *ok, *other, *req2;

    (void)state;
    memset(&sv, 0, sizeof(sv));
    req = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"method\":\"ping\"}");
    ok_body = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"result\":{}}");
    ok = json_answer("200 OK", ok_body);
    other = json_answer("200 OK", "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    req2 = message("{\"jsonrpc\":\"2.0\",\"id\":", id, ",\"method\":\"other\"}");
    sv.rules[0] = (rule_t){"\"ping\"", ok};
    sv.rules[1] = (rule_t){"\"other\"", other};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, req, &f);
    frame_free(&f);
    assert_true(noted(&c, "past the 512 kept"));
    assert_false(failed(&c, "http/response-on-own-stream"));
    /* Unpaired, the stream is not judged for the id of its response. */
    post(&c, 2, req2, &f);
    frame_free(&f);
    assert_false(failed(&c, "http/response-on-own-stream"));
    client_close(&c);
    server_stop(&sv);
    free(id), free(req), free(ok_body), free(ok), free(other), free(req2);
}

/* A short id whose stream carries another request's response still fails
 * http/response-on-own-stream (the rule the long ids must not trip). */
static void test_other_response_fails(void **state)
{
    server_t sv;
    client_t c;
    mc_record_t f;
    char *other = json_answer("200 OK", "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");

    (void)state;
    memset(&sv, 0, sizeof(sv));
    sv.rules[0] = (rule_t){"\"ping\"", other};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", &f);
    frame_free(&f);
    assert_true(failed(&c, "http/response-on-own-stream"));
    client_close(&c);
    server_stop(&sv);
    free(other);
}

/* A malformed body refused with 400 is no notification: the 202 rule does
 * not judge it, and its error body reaches the session. A well-formed
 * notification refused the same way fails the rule. */
static void test_malformed_400_not_notification(void **state)
{
    server_t sv;
    client_t c;
    mc_record_t f;
    char *refused = json_answer("400 Bad Request",
                                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                                "\"message\":\"bad\"}}");

    (void)state;
    memset(&sv, 0, sizeof(sv));
    sv.rules[0] = (rule_t){"notifications/", refused};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, "{\"jsonrpc\":\"1.0\",\"method\":\"notifications/x\"}", &f);
    assert_non_null(strstr(f.data, "-32600"));
    frame_free(&f);
    post(&c, 2, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":3}", &f);
    frame_free(&f);
    assert_false(failed(&c, "http/notification-202"));
    post(&c, 3, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}", NULL);
    assert_true(failed(&c, "http/notification-202"));
    /* The status travels typed beside the words (the campaign reads it). */
    assert_int_equal(failure_of(&c, "http/notification-202")->status, 400);
    client_close(&c);
    server_stop(&sv);
    free(refused);
}

/* A body whose "method" is null is no request: a 202 without a body does
 * not fail http/request-content-type. A request answered so does. */
static void test_null_method_not_request(void **state)
{
    server_t sv;
    client_t c;

    (void)state;
    memset(&sv, 0, sizeof(sv));
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":null}", NULL);
    post(&c, 2, "{\"jsonrpc\":\"2.0\",\"method\":null}", NULL);
    assert_false(failed(&c, "http/request-content-type"));
    assert_false(failed(&c, "http/notification-202"));
    post(&c, 3, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", NULL);
    assert_true(failed(&c, "http/request-content-type"));
    assert_false(failure_of(&c, "http/request-content-type")->request_unread);
    assert_int_not_equal(failure_of(&c, "http/request-content-type")->status, 0);
    client_close(&c);
    server_stop(&sv);
}

/* An SSE answer with the given extra header lines and event-stream body,
 * ended by closing the connection. */
static char *sse_answer(const char *headers, const char *events)
{
    size_t cap = strlen(headers) + strlen(events) + 256;
    char *a = malloc(cap);

    assert_non_null(a);
    snprintf(a, cap,
             "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n%sConnection: close\r\n"
             "\r\n%s",
             headers, events);
    return a;
}

/* True when the judge evaluated check. */
static int judged(const client_t *c, const char *check)
{
    size_t k;

    for (k = 0; k < c->j->w.n_checks; k++)
        if (strcmp(c->j->w.check_ids[k], check) == 0)
            return 1;
    return 0;
}

/* The _meta of a request of the stateless revision. */
#define META_2607 ",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}"

/*
 * Two requests answered on SSE streams that break the session-era rules: the
 * first assigns the session id "bad id" (a space), the second reuses event
 * id e1 and ends before its own response, after the response to another id.
 * Sent as requests of 2025-11-25 (meta ""), every one of those rules fails
 * and the stream is resumed; sent as requests of 2026-07-28, which has no
 * sessions, GET stream or resumption, none of them is judged, the stream is
 * not resumed, and the rules that revision keeps still are.
 */
static void session_rules(const char *meta, int stateless)
{
    server_t sv;
    client_t c;
    char *first = sse_answer("Mcp-Session-Id: bad id\r\n",
                             "id: e1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}\n\n");
    char *second = sse_answer("", "id: e1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"zz\",\"result\":{}}\n\n");
    char *req1 = message("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"", meta, "}");
    char *req2 = message("{\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"method\":\"ping\"", meta, "}");

    memset(&sv, 0, sizeof(sv));
    sv.rules[0] = (rule_t){"\"s1\"", first};
    sv.rules[1] = (rule_t){"\"s2\"", second};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, req1, NULL);
    post(&c, 2, req2, NULL);
    if (stateless) {
        assert_false(judged(&c, "http/session-id-visible-ascii"));
        assert_false(judged(&c, "http/sse-event-id-unique"));
        assert_false(judged(&c, "http/resume-own-stream"));
        assert_false(judged(&c, "http/get-stream-no-response"));
        assert_false(noted(&c, "resuming after event"));
        assert_true(noted(&c, "are not resumable"));
        assert_null(mc_http_session_id(c.h));
        /* What 2026-07-28 says of the same answers is still judged. */
        assert_true(failed(&c, "http/stateless-no-session-id"));
    } else {
        assert_true(failed(&c, "http/session-id-visible-ascii"));
        assert_true(failed(&c, "http/sse-event-id-unique"));
        assert_true(noted(&c, "resuming after event e1"));
        assert_false(judged(&c, "http/stateless-no-session-id"));
    }
    /* Kept at 2026-07-28 (INFO there): an answer scoped to another request. */
    assert_true(failed(&c, "http/response-on-own-stream"));
    client_close(&c);
    server_stop(&sv);
    free(first), free(second), free(req1), free(req2);
}

static void test_session_rules_2511(void **state)
{
    (void)state;
    session_rules("", 0);
}

static void test_session_rules_not_at_2607(void **state)
{
    (void)state;
    session_rules(META_2607, 1);
}

/*
 * The 202 rule at 2026-07-28 covers a notification only: a POSTed response
 * refused with 400 is not judged there (up to 2025-11-25 it is), while a
 * refused notification and a request answered as text/plain still fail
 * http/notification-202 and http/request-content-type.
 */
static void test_kept_rules_at_2607(void **state)
{
    server_t sv;
    client_t c;
    char *ok = json_answer("200 OK", "{\"jsonrpc\":\"2.0\",\"id\":\"m1\",\"result\":{}}");
    char *refused = json_answer("400 Bad Request", "");
    char *plain = strdup("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
                         "Connection: close\r\n\r\nhi");

    (void)state;
    assert_non_null(plain);
    memset(&sv, 0, sizeof(sv));
    sv.rules[0] = (rule_t){"\"m1\"", ok};
    sv.rules[1] = (rule_t){"\"result\"", refused};
    sv.rules[2] = (rule_t){"notifications/", refused};
    sv.rules[3] = (rule_t){"\"plain\"", plain};
    server_start(&sv);

    /* Up to 2025-11-25 a POSTed response is input the rule covers. */
    client_open(&c, &sv);
    post(&c, 1, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", NULL);
    assert_true(failed(&c, "http/notification-202"));
    client_close(&c);

    client_open(&c, &sv);
    post(&c, 1, "{\"jsonrpc\":\"2.0\",\"id\":\"m1\",\"method\":\"ping\"" META_2607 "}", NULL);
    post(&c, 2, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", NULL);
    assert_false(judged(&c, "http/notification-202"));
    post(&c, 3, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"" META_2607 "}", NULL);
    assert_true(failed(&c, "http/notification-202"));
    assert_false(failed(&c, "http/request-content-type"));
    post(&c, 4, "{\"jsonrpc\":\"2.0\",\"id\":\"plain\",\"method\":\"ping\"" META_2607 "}", NULL);
    assert_true(failed(&c, "http/request-content-type"));
    client_close(&c);
    server_stop(&sv);
    free(ok), free(refused), free(plain);
}

/* An SSE answer of two events, whose data are e1 and e2. */
static char *sse_two(const char *e1, const char *e2)
{
    size_t cap = strlen(e1) + strlen(e2) + 32;
    char *ev = malloc(cap), *a;

    assert_non_null(ev);
    snprintf(ev, cap, "data: %s\n\ndata: %s\n\n", e1, e2);
    a = sse_answer("", ev);
    free(ev);
    return a;
}

#define PROGRESS(tok) \
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":" \
    "\"" tok "\",\"progress\":1}}"
#define CALL(id, tok)                                                                              \
    "{\"jsonrpc\":\"2.0\",\"id\":\"" id "\",\"method\":\"tools/call\",\"params\":{\"name\":\"t\","    \
    "\"_meta\":{\"progressToken\":\"" tok "\"}}}"

/*
 * Where a message may come, up to 2025-11-25: a progress report of another
 * token on a request's SSE answer fails http/request-stream-related, one of
 * its own token passes; a server request that came on one stream and again
 * on another fails http/message-on-one-stream, while the same progress
 * report on two streams whose requests both carried its token does not (the
 * client used the token twice: the reports cannot be told apart).
 */
static void test_message_placement(void **state)
{
    server_t sv;
    client_t c;
    char *own = sse_two(PROGRESS("own"), "{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"result\":{}}");
    char *other = sse_two(PROGRESS("else"), "{\"jsonrpc\":\"2.0\",\"id\":\"c2\",\"result\":{}}");
    char *ask1 = sse_two("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}",
                            "{\"jsonrpc\":\"2.0\",\"id\":\"c3\",\"result\":{}}");
    char *ask2 = sse_two("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}",
                            "{\"jsonrpc\":\"2.0\",\"id\":\"c4\",\"result\":{}}");
    char *dup1 = sse_two(PROGRESS("dup"), "{\"jsonrpc\":\"2.0\",\"id\":\"c5\",\"result\":{}}");
    char *dup2 = sse_two(PROGRESS("dup"), "{\"jsonrpc\":\"2.0\",\"id\":\"c6\",\"result\":{}}");

    (void)state;
    memset(&sv, 0, sizeof(sv));
    sv.rules[0] = (rule_t){"\"c1\"", own};
    sv.rules[1] = (rule_t){"\"c2\"", other};
    sv.rules[2] = (rule_t){"\"c3\"", ask1};
    sv.rules[3] = (rule_t){"\"c4\"", ask2};
    sv.rules[4] = (rule_t){"\"c5\"", dup1};
    sv.rules[5] = (rule_t){"\"c6\"", dup2};
    server_start(&sv);
    client_open(&c, &sv);
    post(&c, 1, CALL("c1", "own"), NULL);
    assert_false(failed(&c, "http/request-stream-related"));
    assert_true(judged(&c, "http/request-stream-related"));
    post(&c, 2, CALL("c2", "mine"), NULL);
    assert_true(failed(&c, "http/request-stream-related"));
    assert_false(failed(&c, "http/message-on-one-stream"));
    post(&c, 3, CALL("c5", "dup"), NULL);
    post(&c, 4, CALL("c6", "dup"), NULL);
    assert_true(judged(&c, "http/message-on-one-stream"));
    assert_false(failed(&c, "http/message-on-one-stream"));
    post(&c, 5, CALL("c3", "p3"), NULL);
    assert_false(failed(&c, "http/message-on-one-stream"));
    post(&c, 6, CALL("c4", "p4"), NULL);
    assert_true(failed(&c, "http/message-on-one-stream"));
    client_close(&c);
    server_stop(&sv);
    free(own), free(other), free(ask1), free(ask2), free(dup1), free(dup2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_id_kept_whole),
        cmocka_unit_test(test_over_limit_id_noted),
        cmocka_unit_test(test_other_response_fails),
        cmocka_unit_test(test_malformed_400_not_notification),
        cmocka_unit_test(test_null_method_not_request),
        cmocka_unit_test(test_session_rules_2511),
        cmocka_unit_test(test_session_rules_not_at_2607),
        cmocka_unit_test(test_kept_rules_at_2607),
        cmocka_unit_test(test_message_placement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
