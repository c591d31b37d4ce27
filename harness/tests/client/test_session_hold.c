/*
 * Unit tests for the answers a session holds back (mc_reply_t.hold,
 * mc_session_release_held) over an in-memory link: held until as many
 * requests of the method are open, then sent in the order the requests
 * came; a bounded table; released by the caller or past the hang budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/session.h"
#include "core/clock.h"

#define MAX_LINES 32

typedef struct link_state {
    char *inbound[MAX_LINES]; /* lines the "server" delivers, in order */
    int in_head, in_count;
    char *sent[MAX_LINES]; /* lines the client sent */
    int n_sent;
} link_state_t;

static int fake_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    link_state_t *f = ctx;

    (void)deadline_ms;
    assert_true(f->n_sent < MAX_LINES);
    f->sent[f->n_sent++] = strndup(line, len - 1);
    return MC_OK;
}

static int fake_recv(void *ctx, mc_record_t *fr, int64_t deadline_ms)
{
    link_state_t *f = ctx;

    (void)deadline_ms;
    if (f->in_count == 0)
        return MC_ETIMEOUT;
    memset(fr, 0, sizeof(*fr));
    fr->data = f->inbound[f->in_head];
    f->inbound[f->in_head++] = NULL;
    f->in_count--;
    fr->kind = MC_FRAME_LINE;
    fr->len = strlen(fr->data);
    fr->at_ms = mc_now_ms();
    return MC_OK;
}

/* Queues the server request `id` of method. */
static void push_request(link_state_t *f, const char *id, const char *method)
{
    char line[160];

    snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"method\":\"%s\"}", id,
             method);
    assert_true(f->in_head + f->in_count < MAX_LINES);
    f->inbound[f->in_head + f->in_count++] = strdup(line);
}

/* Answers roots/list with no roots, held until *(int *)ctx are open;
 * anything else as the default responder does. */
static void holding_responder(void *ctx, mc_session_t *s, const mc_msg_t *request,
                              mc_reply_t *reply)
{
    if (strcmp(request->method, "roots/list") != 0) {
        mc_session_default_responder(NULL, s, request, reply);
        return;
    }
    reply->result = json_tokener_parse("{\"roots\":[]}");
    reply->hold = *(int *)ctx;
}

static void start(link_state_t *f, mc_session_t *s, int *hold)
{
    mc_link_t l = {f, fake_send, fake_recv, NULL};
    mc_session_opts_t o;

    memset(f, 0, sizeof(*f));
    memset(&o, 0, sizeof(o));
    o.responder = holding_responder;
    o.responder_ctx = hold;
    assert_int_equal(mc_session_init(s, l, &o), MC_OK);
}

static void finish(link_state_t *f, mc_session_t *s)
{
    mc_session_free(s);
    for (int i = 0; i < MAX_LINES; i++) {
        free(f->inbound[i]);
        free(f->sent[i]);
    }
}

/* True when sent line i answers server request id. */
static int answers(const link_state_t *f, int i, const char *id)
{
    char want[48];

    snprintf(want, sizeof(want), "\"id\":\"%s\"", id);
    return i < f->n_sent && strstr(f->sent[i], want) != NULL;
}

/* Held until two are open, then both go out in order; another method is
 * answered at once meanwhile. */
static void test_hold_until_open(void **state)
{
    link_state_t f;
    mc_session_t s;
    int hold = 2;

    (void)state;
    start(&f, &s, &hold);
    push_request(&f, "r1", "roots/list");
    push_request(&f, "p1", "ping");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(f.n_sent, 1);
    assert_true(answers(&f, 0, "p1"));
    assert_int_equal(s.n_held, 1);
    push_request(&f, "r2", "roots/list");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(f.n_sent, 3);
    assert_true(answers(&f, 1, "r1"));
    assert_true(answers(&f, 2, "r2"));
    assert_non_null(strstr(f.sent[2], "\"result\":{\"roots\":[]}"));
    assert_int_equal(s.n_held, 0);
    finish(&f, &s);
}

/* The table is bounded: past MC_MAX_HELD_ANSWERS an answer goes out at
 * once. The caller releases the rest, and past the hang budget the session
 * releases them itself, saying so. */
static void test_hold_bounded_and_released(void **state)
{
    link_state_t f;
    mc_session_t s;
    int hold = MC_MAX_HELD_ANSWERS + 5, i;
    char id[16];

    (void)state;
    start(&f, &s, &hold);
    for (i = 0; i <= MC_MAX_HELD_ANSWERS; i++) {
        snprintf(id, sizeof(id), "r%d", i);
        push_request(&f, id, "roots/list");
    }
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(s.n_held, MC_MAX_HELD_ANSWERS);
    assert_int_equal(f.n_sent, 1);
    snprintf(id, sizeof(id), "r%d", MC_MAX_HELD_ANSWERS);
    assert_true(answers(&f, 0, id));
    assert_int_equal(mc_session_release_held(&s, "ping"), 0);
    assert_int_equal(mc_session_release_held(&s, "roots/list"), MC_MAX_HELD_ANSWERS);
    for (i = 0; i < MC_MAX_HELD_ANSWERS; i++) {
        snprintf(id, sizeof(id), "r%d", i);
        assert_true(answers(&f, i + 1, id));
    }
    assert_int_equal(s.n_held, 0);

    /* The hang budget: an answer held that long goes out on the next wait. */
    push_request(&f, "late", "roots/list");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(s.n_held, 1);
    s.held[0].since -= MC_HELD_ANSWER_MAX_MS;
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(s.n_held, 0);
    assert_true(answers(&f, MC_MAX_HELD_ANSWERS + 1, "late"));
    assert_int_equal(s.n_events, 1);
    assert_int_equal(s.events[0].kind, MC_EV_HELD_RELEASED);
    finish(&f, &s);
}

/* A session freed with answers held releases their memory (ASan holds it). */
static void test_hold_freed(void **state)
{
    link_state_t f;
    mc_session_t s;
    int hold = 3;

    (void)state;
    start(&f, &s, &hold);
    push_request(&f, "r1", "roots/list");
    push_request(&f, "r2", "roots/list");
    assert_int_equal(mc_session_poll(&s, 5), MC_OK);
    assert_int_equal(s.n_held, 2);
    assert_int_equal(f.n_sent, 0);
    finish(&f, &s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hold_until_open),
        cmocka_unit_test(test_hold_bounded_and_released),
        cmocka_unit_test(test_hold_freed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
