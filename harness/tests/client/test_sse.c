/* Unit tests for the SSE parser (client/sse.h): the grammar's cases, the
 * caps, and byte-by-byte feeding giving the same events as one chunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/sse.h"

#define MAX_EV 16

typedef struct got {
    int n;
    char data[MAX_EV][256];
    char event[MAX_EV][64];
    char id[MAX_EV][64];
    int has_data[MAX_EV], has_id[MAX_EV], oversize[MAX_EV];
    int stop_after; /* 0: never stop */
} got_t;

static int collect(void *ctx, const mc_sse_event_t *ev)
{
    got_t *g = ctx;

    if (g->n < MAX_EV) {
        snprintf(g->data[g->n], sizeof(g->data[0]), "%s", ev->data);
        snprintf(g->event[g->n], sizeof(g->event[0]), "%s", ev->event);
        snprintf(g->id[g->n], sizeof(g->id[0]), "%s", ev->id);
        g->has_data[g->n] = ev->has_data;
        g->has_id[g->n] = ev->has_id;
        g->oversize[g->n] = ev->oversize;
    }
    g->n++;
    return g->stop_after != 0 && g->n >= g->stop_after;
}

/* Parses s in one chunk and byte by byte; both must give the same events. */
static void parse_both(const char *s, got_t *g)
{
    mc_sse_t p;
    got_t g2;
    size_t i;

    memset(g, 0, sizeof(*g));
    mc_sse_init(&p, 0, 0);
    assert_int_equal(mc_sse_feed(&p, s, strlen(s), collect, g), 0);
    mc_sse_free(&p);

    memset(&g2, 0, sizeof(g2));
    mc_sse_init(&p, 0, 0);
    for (i = 0; s[i] != '\0'; i++)
        assert_int_equal(mc_sse_feed(&p, s + i, 1, collect, &g2), 0);
    mc_sse_free(&p);
    assert_int_equal(g->n, g2.n);
    for (i = 0; i < (size_t)g->n && i < MAX_EV; i++) {
        assert_string_equal(g->data[i], g2.data[i]);
        assert_string_equal(g->event[i], g2.event[i]);
        assert_string_equal(g->id[i], g2.id[i]);
    }
}

static void test_basic_event(void **st)
{
    got_t g;
    (void)st;
    parse_both("event: message\nid: 7\ndata: {\"a\":1}\n\n", &g);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.data[0], "{\"a\":1}");
    assert_string_equal(g.event[0], "message");
    assert_string_equal(g.id[0], "7");
    assert_true(g.has_data[0]);
    assert_true(g.has_id[0]);
}

static void test_multiline_data_and_line_endings(void **st)
{
    got_t g;
    (void)st;
    parse_both("data: one\r\ndata:two\rdata:  three\n\r\n", &g);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.data[0], "one\ntwo\n three");
}

static void test_comments_and_unknown_fields(void **st)
{
    got_t g;
    (void)st;
    parse_both(": keep-alive\n\n:x\nfoo: bar\ndata\n\n", &g);
    /* Comments alone dispatch nothing; "data" without colon is an empty data line. */
    assert_int_equal(g.n, 1);
    assert_string_equal(g.data[0], "");
    assert_true(g.has_data[0]);
}

static void test_event_without_data_is_reported(void **st)
{
    got_t g;
    (void)st;
    parse_both("id: 3\n\nevent: ping\n\n", &g);
    assert_int_equal(g.n, 2);
    assert_false(g.has_data[0]);
    assert_true(g.has_id[0]);
    assert_string_equal(g.id[0], "3");
    assert_false(g.has_data[1]);
    assert_string_equal(g.event[1], "ping");
    /* The last id stays with the stream. */
    assert_string_equal(g.id[1], "3");
    assert_false(g.has_id[1]);
}

static void test_retry(void **st)
{
    mc_sse_t p;
    got_t g;
    (void)st;
    memset(&g, 0, sizeof(g));
    mc_sse_init(&p, 0, 0);
    assert_int_equal(p.retry_ms, -1);
    mc_sse_feed(&p, "retry: 1500\n\nretry: 12x\n\n", 25, collect, &g);
    assert_int_equal(p.retry_ms, 1500);
    assert_int_equal(g.n, 0);
    mc_sse_free(&p);
}

static void test_bom_skipped(void **st)
{
    got_t g;
    (void)st;
    parse_both("\xEF\xBB\xBF" "data: x\n\n", &g);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.data[0], "x");
}

static void test_line_cap(void **st)
{
    mc_sse_t p;
    got_t g;
    char big[200];
    (void)st;
    memset(&g, 0, sizeof(g));
    memset(big, 'a', sizeof(big));
    mc_sse_init(&p, 64, 64);
    mc_sse_feed(&p, "data: ", 6, collect, &g);
    mc_sse_feed(&p, big, sizeof(big), collect, &g);
    mc_sse_feed(&p, "\n\ndata: ok\n\n", 12, collect, &g);
    assert_int_equal(g.n, 2);
    assert_true(g.oversize[0]);
    assert_string_equal(g.data[0], "");
    assert_false(g.oversize[1]);
    assert_string_equal(g.data[1], "ok");
    /* Never more than the cap (plus its NUL) was held. */
    assert_true(p.line_cap <= 65);
    mc_sse_free(&p);
}

static void test_data_cap(void **st)
{
    mc_sse_t p;
    got_t g;
    int i;
    (void)st;
    memset(&g, 0, sizeof(g));
    mc_sse_init(&p, 64, 40);
    for (i = 0; i < 10; i++)
        mc_sse_feed(&p, "data: 0123456789\n", 17, collect, &g);
    mc_sse_feed(&p, "\n", 1, collect, &g);
    assert_int_equal(g.n, 1);
    assert_true(g.oversize[0]);
    assert_true(p.data_cap <= 41);
    mc_sse_free(&p);
}

static void test_callback_stops(void **st)
{
    mc_sse_t p;
    got_t g;
    const char *s = "data: 1\n\ndata: 2\n\n";
    (void)st;
    memset(&g, 0, sizeof(g));
    g.stop_after = 1;
    mc_sse_init(&p, 0, 0);
    assert_int_equal(mc_sse_feed(&p, s, strlen(s), collect, &g), 1);
    assert_int_equal(g.n, 1);
    mc_sse_free(&p);
}

static void test_pending_at_end(void **st)
{
    mc_sse_t p;
    got_t g;
    (void)st;
    memset(&g, 0, sizeof(g));
    mc_sse_init(&p, 0, 0);
    mc_sse_feed(&p, "data: half\n", 11, collect, &g);
    assert_int_equal(g.n, 0);
    assert_true(mc_sse_pending(&p));
    mc_sse_free(&p);
}

static void test_long_id_and_event_capped(void **st)
{
    mc_sse_t p;
    got_t g;
    char line[600];
    (void)st;
    memset(&g, 0, sizeof(g));
    mc_sse_init(&p, 0, 0);
    memset(line, 'x', sizeof(line));
    memcpy(line, "id: ", 4);
    line[sizeof(line) - 1] = '\n';
    mc_sse_feed(&p, line, sizeof(line), collect, &g);
    mc_sse_feed(&p, "data: y\n\n", 9, collect, &g);
    assert_int_equal(g.n, 1);
    assert_true(g.oversize[0]);
    mc_sse_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_event),
        cmocka_unit_test(test_multiline_data_and_line_endings),
        cmocka_unit_test(test_comments_and_unknown_fields),
        cmocka_unit_test(test_event_without_data_is_reported),
        cmocka_unit_test(test_retry),
        cmocka_unit_test(test_bom_skipped),
        cmocka_unit_test(test_line_cap),
        cmocka_unit_test(test_data_cap),
        cmocka_unit_test(test_callback_stops),
        cmocka_unit_test(test_pending_at_end),
        cmocka_unit_test(test_long_id_and_event_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
