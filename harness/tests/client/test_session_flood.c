/*
 * Unit tests for the client session (client/session.h) over hostile links:
 * a link that floods the session with frames, fast or slowly, a stop flag
 * that interrupts a wait, and a line that grows past the size limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "client/session.h"
#include "core/clock.h"

#include "../helpers/budget.h"

typedef struct flood {
    int delay_us;      /* before each frame */
    int oversize;      /* deliver one open oversize frame first */
    uint64_t frames;
} flood_t;

static int flood_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    (void)ctx;
    (void)line;
    (void)len;
    (void)deadline_ms;
    return MC_OK;
}

/* Delivers a log notification on every call, forever (never the answer). */
static int flood_recv(void *ctx, mc_record_t *frame, int64_t deadline_ms)
{
    static const char note[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                               "\"params\":{\"level\":\"info\",\"data\":\"x\"}}";
    flood_t *f = ctx;

    (void)deadline_ms;
    if (f->delay_us > 0) {
        struct timespec ts = {0, f->delay_us * 1000L};
        nanosleep(&ts, NULL);
    }
    memset(frame, 0, sizeof(*frame));
    if (f->oversize && f->frames == 0) {
        frame->kind = MC_FRAME_OVERSIZE;
        frame->flags = MC_FRAME_F_OPEN;
        frame->len = 17u << 20;
    } else {
        frame->kind = MC_FRAME_LINE;
        frame->data = strdup(note);
        frame->len = sizeof(note) - 1;
    }
    f->frames++;
    return MC_OK;
}

static void flood_session(mc_session_t *s, flood_t *f, volatile int *stop)
{
    mc_link_t l;
    mc_session_opts_t o;

    l.ctx = f;
    l.send = flood_send;
    l.recv = flood_recv;
    l.set_sink = NULL;
    memset(&o, 0, sizeof(o));
    o.stop = stop;
    assert_int_equal(mc_session_init(s, l, &o), MC_OK);
}

/* A flood faster than the deadline: the rate guard ends the wait. */
static void test_flood_fast(void **state)
{
    flood_t f = {0, 0, 0};
    mc_session_t s;
    mc_msg_t resp;
    int64_t id, t0;

    (void)state;
    flood_session(&s, &f, NULL);
    mc_session_begin_step(&s);
    assert_int_equal(mc_session_send_request(&s, "ping", NULL, &id, 1000), MC_OK);
    t0 = mc_now_ms();
    assert_int_equal(mc_session_await(&s, id, 60000, &resp), MC_EFLOOD);
    assert_true(mc_now_ms() - t0 < 30000);
    assert_int_equal(f.frames, MC_MAX_STEP_MESSAGES);
    assert_non_null(strstr(s.flood_desc, "within one step"));
    /* Sticky: the next wait ends at once. */
    assert_int_equal(mc_session_poll(&s, 1000), MC_EFLOOD);
    /* One notifications-dropped event, however many were dropped. */
    {
        size_t i, dropped = 0;
        for (i = 0; i < s.n_events; i++)
            dropped += s.events[i].kind == MC_EV_NOTIFICATIONS_DROPPED;
        assert_int_equal(dropped, 1);
        assert_true(s.notes_dropped > 1000);
    }
    mc_session_free(&s);
}

/* A slow drip of messages: the deadline holds although frames keep coming. */
static void test_flood_slow_deadline(void **state)
{
    flood_t f = {2000, 0, 0};
    mc_session_t s;
    mc_msg_t resp;
    int64_t id, t0, took;

    (void)state;
    flood_session(&s, &f, NULL);
    mc_session_begin_step(&s);
    assert_int_equal(mc_session_send_request(&s, "ping", NULL, &id, 1000), MC_OK);
    t0 = mc_now_ms();
    assert_int_equal(mc_session_await(&s, id, 300, &resp), MC_ETIMEOUT);
    took = mc_now_ms() - t0;
    assert_true(took >= 300);
    /* At most MC_MAX_OVERDUE_FRAMES late frames; a budget for a wait that
       the frames would keep alive, stretched on a loaded machine. */
    assert_true(took < 300 + mc_test_budget_ms(2000));
    assert_true(f.frames > 10);
    mc_session_free(&s);
}

/* The stop flag ends a wait that frames keep alive. */
static void test_stop_flag(void **state)
{
    flood_t f = {1000, 0, 0};
    volatile int stop = 0;
    mc_session_t s;
    mc_msg_t resp;
    int64_t id;

    (void)state;
    flood_session(&s, &f, &stop);
    assert_int_equal(mc_session_send_request(&s, "ping", NULL, &id, 1000), MC_OK);
    stop = 1;
    assert_int_equal(mc_session_await(&s, id, 60000, &resp), MC_EINTR);
    assert_true(f.frames == 0);
    mc_session_free(&s);
}

/* A wait that times out after an oversize line names the line, not silence;
 * the line itself is an event as soon as it passes the limit. */
static void test_oversize_ends_wait(void **state)
{
    flood_t f = {1000, 1, 0};
    mc_session_t s;
    mc_msg_t resp;
    int64_t id;

    (void)state;
    flood_session(&s, &f, NULL);
    assert_int_equal(mc_session_send_request(&s, "ping", NULL, &id, 1000), MC_OK);
    assert_int_equal(mc_session_await(&s, id, 200, &resp), MC_ETOOBIG);
    assert_true(f.frames > 1);
    assert_int_equal(s.oversize_seen, 1);
    assert_string_equal(s.judge->w.findings[0].check, "wire/message-size");
    assert_non_null(strstr(s.judge->w.findings[0].detail, "no newline yet"));
    mc_session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flood_fast),
        cmocka_unit_test(test_flood_slow_deadline),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_oversize_ends_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
