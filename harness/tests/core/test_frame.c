/* Unit tests for the newline framer (core/frame.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/frame.h"

#define MAX_SEEN 64

typedef struct seen {
    int n;
    mc_frame_kind_t kind[MAX_SEEN];
    char *data[MAX_SEEN];
    size_t len[MAX_SEEN];
    unsigned flags[MAX_SEEN];
    int stop_after; /* ask the framer to stop after this many frames (0 = never) */
} seen_t;

static int collect(void *ctx, const mc_frame_t *f)
{
    seen_t *s = ctx;

    assert_true(s->n < MAX_SEEN);
    s->kind[s->n] = f->kind;
    s->len[s->n] = f->len;
    s->flags[s->n] = f->flags;
    s->data[s->n] = NULL;
    if (f->data != NULL) {
        s->data[s->n] = malloc(f->len + 1);
        memcpy(s->data[s->n], f->data, f->len);
        s->data[s->n][f->len] = '\0';
    }
    s->n++;
    return s->stop_after > 0 && s->n >= s->stop_after;
}

static void seen_free(seen_t *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->data[i]);
    memset(s, 0, sizeof(*s));
}

static void feed_str(mc_framer_t *f, const char *str, seen_t *s)
{
    assert_int_equal(mc_framer_feed(f, str, strlen(str), collect, s, NULL), 0);
}

static void test_many_lines_one_read(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    feed_str(&f, "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", &s);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.data[0], "{\"a\":1}");
    assert_string_equal(s.data[2], "{\"c\":3}");
    assert_int_equal(s.kind[1], MC_FRAME_LINE);
    assert_int_equal(mc_framer_pending(&f), 0);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_split_reads_byte_by_byte(void **state)
{
    const char *msg = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\nxy\n";
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    for (size_t i = 0; i < strlen(msg); i++)
        assert_int_equal(mc_framer_feed(&f, msg + i, 1, collect, &s, NULL), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.data[0], "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}");
    assert_string_equal(s.data[1], "xy");
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_crlf_and_empty_lines(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    feed_str(&f, "a\r\n\n\r\nb\n", &s);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.kind[0], MC_FRAME_LINE);
    assert_string_equal(s.data[0], "a");
    assert_true(s.flags[0] & MC_FRAME_F_CRLF);
    assert_int_equal(s.kind[1], MC_FRAME_EMPTY);
    assert_int_equal(s.kind[2], MC_FRAME_EMPTY);
    assert_true(s.flags[2] & MC_FRAME_F_CRLF);
    assert_string_equal(s.data[3], "b");
    assert_false(s.flags[3] & MC_FRAME_F_CRLF);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_crlf_split_across_reads(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    feed_str(&f, "abc\r", &s);
    assert_int_equal(s.n, 0);
    feed_str(&f, "\n", &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.data[0], "abc");
    assert_true(s.flags[0] & MC_FRAME_F_CRLF);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_embedded_nul(void **state)
{
    const char data[] = "ab\0cd\nok\n";
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    assert_int_equal(mc_framer_feed(&f, data, sizeof(data) - 1, collect, &s, NULL), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.len[0], 5);
    assert_true(s.flags[0] & MC_FRAME_F_NUL);
    assert_memory_equal(s.data[0], "ab\0cd", 5);
    assert_false(s.flags[1] & MC_FRAME_F_NUL);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_oversize_skipped_and_reported(void **state)
{
    mc_framer_t f;
    seen_t s = {0};
    char big[100];

    (void)state;
    mc_framer_init(&f, 16);
    memset(big, 'x', sizeof(big));
    /* 100 bytes in three chunks, never buffered beyond the limit. */
    assert_int_equal(mc_framer_feed(&f, big, 10, collect, &s, NULL), 0);
    assert_int_equal(mc_framer_feed(&f, big, 60, collect, &s, NULL), 0);
    assert_true(f.cap <= 16 + 1); /* max + 1: room for a "\r" */
    assert_int_equal(mc_framer_feed(&f, big, 30, collect, &s, NULL), 0);
    assert_int_equal(s.n, 0);
    feed_str(&f, "\nshort\n", &s);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.kind[0], MC_FRAME_OVERSIZE);
    assert_int_equal(s.len[0], 100);
    assert_null(s.data[0]);
    assert_int_equal(s.kind[1], MC_FRAME_LINE);
    assert_string_equal(s.data[1], "short");
    assert_true(f.cap <= 16 + 1); /* max + 1: room for a "\r" */
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_limit_is_inclusive(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 4);
    feed_str(&f, "abcd\nabcd\r\nabcde\n", &s);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.kind[0], MC_FRAME_LINE);
    assert_int_equal(s.kind[1], MC_FRAME_LINE);
    assert_string_equal(s.data[1], "abcd");
    assert_int_equal(s.kind[2], MC_FRAME_OVERSIZE);
    assert_int_equal(s.len[2], 5);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_truncated_at_finish(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 0);
    feed_str(&f, "done\n{\"partial\":", &s);
    mc_framer_finish(&f, collect, &s);
    mc_framer_finish(&f, collect, &s); /* idempotent */
    assert_int_equal(s.n, 2);
    assert_int_equal(s.kind[1], MC_FRAME_TRUNCATED);
    assert_string_equal(s.data[1], "{\"partial\":");
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_oversize_at_finish(void **state)
{
    mc_framer_t f;
    seen_t s = {0};

    (void)state;
    mc_framer_init(&f, 4);
    feed_str(&f, "0123456789", &s);
    mc_framer_finish(&f, collect, &s);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.kind[0], MC_FRAME_OVERSIZE);
    assert_int_equal(s.len[0], 10);
    seen_free(&s);
    mc_framer_free(&f);
}

static void test_stop_and_resume(void **state)
{
    const char *msg = "a\nb\nc\n";
    mc_framer_t f;
    seen_t s = {0};
    size_t used = 0;

    (void)state;
    mc_framer_init(&f, 0);
    s.stop_after = 1;
    assert_int_equal(mc_framer_feed(&f, msg, strlen(msg), collect, &s, &used), 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(used, 2);
    s.stop_after = 0;
    assert_int_equal(mc_framer_feed(&f, msg + used, strlen(msg) - used, collect, &s, &used), 0);
    assert_int_equal(used, 4);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.data[2], "c");
    seen_free(&s);
    mc_framer_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_lines_one_read),
        cmocka_unit_test(test_split_reads_byte_by_byte),
        cmocka_unit_test(test_crlf_and_empty_lines),
        cmocka_unit_test(test_crlf_split_across_reads),
        cmocka_unit_test(test_embedded_nul),
        cmocka_unit_test(test_oversize_skipped_and_reported),
        cmocka_unit_test(test_limit_is_inclusive),
        cmocka_unit_test(test_truncated_at_finish),
        cmocka_unit_test(test_oversize_at_finish),
        cmocka_unit_test(test_stop_and_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
