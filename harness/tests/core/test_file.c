/* Unit tests for the bounded file reader and the hex digit value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/file.h"
#include "core/hex.h"

static char path[] = "/tmp/mc-file-test-XXXXXX";

static int setup(void **state)
{
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* Writes n bytes of a repeating pattern to the test file. */
static void write_pattern(size_t n)
{
    FILE *f = fopen(path, "wb");
    size_t i;

    assert_non_null(f);
    for (i = 0; i < n; i++)
        assert_int_equal(fputc('a' + (int)(i % 26), f), 'a' + (int)(i % 26));
    assert_int_equal(fclose(f), 0);
}

static void test_read_sizes(void **state)
{
    /* Around the growth step and its doublings, and the empty file. */
    static const size_t sizes[] = {0, 1, 65535, 65536, 65537, 200000};
    size_t k;

    (void)state;
    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        char *buf = NULL;
        size_t len = 12345, i;
        mc_errbuf_t eb;
        write_pattern(sizes[k]);
        mc_errbuf_clear(&eb);
        assert_int_equal(mc_file_read(path, sizes[k], &buf, &len, &eb), MC_OK);
        assert_int_equal(len, sizes[k]);
        assert_non_null(buf);
        assert_int_equal(buf[len], '\0');
        for (i = 0; i < len; i++)
            if (buf[i] != 'a' + (char)(i % 26))
                fail_msg("size %zu: byte %zu is %d", sizes[k], i, buf[i]);
        free(buf);
        /* One byte over the limit is refused and leaves the outputs alone. */
        if (sizes[k] > 0) {
            buf = (char *)&len;
            mc_errbuf_clear(&eb);
            assert_int_equal(mc_file_read(path, sizes[k] - 1, &buf, &len, &eb), MC_ETOOBIG);
            assert_ptr_equal(buf, (char *)&len);
            assert_int_equal(len, sizes[k]);
            assert_non_null(strstr(eb.msg, "is larger than"));
            assert_non_null(strstr(eb.msg, path));
        }
    }
}

static void test_read_errors(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    mc_errbuf_t eb;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_file_read("/nonexistent/mc-file-test", 10, &buf, &len, &eb),
                     MC_ENOTFOUND);
    assert_null(buf);
    assert_non_null(strstr(eb.msg, "cannot open /nonexistent/mc-file-test"));
    /* A directory opens but cannot be read. */
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_file_read("/", 10, &buf, &len, &eb), MC_EIO);
    assert_null(buf);
    /* No error buffer is fine. */
    assert_int_equal(mc_file_read("/nonexistent/mc-file-test", 10, &buf, &len, NULL),
                     MC_ENOTFOUND);
}

/* A stream is read to its end and left open. */
static void test_read_stream(void **state)
{
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    mc_errbuf_t eb;

    (void)state;
    write_pattern(100000);
    f = fopen(path, "rb");
    assert_non_null(f);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_file_read_stream(f, "the stream", 1000, &buf, &len, &eb), MC_ETOOBIG);
    assert_non_null(strstr(eb.msg, "the stream is larger than 1000 bytes"));
    rewind(f);
    assert_int_equal(mc_file_read_stream(f, "the stream", 100000, &buf, &len, &eb), MC_OK);
    assert_int_equal(len, 100000);
    assert_int_equal(buf[99999], 'a' + 99999 % 26);
    free(buf);
    assert_int_equal(fclose(f), 0);
}

static void test_hex_digit(void **state)
{
    int c;

    (void)state;
    for (c = -1; c < 256; c++) {
        int want = -1;
        if (c >= '0' && c <= '9')
            want = c - '0';
        else if (c >= 'a' && c <= 'f')
            want = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            want = c - 'A' + 10;
        assert_int_equal(mc_hex_digit(c), want);
    }
    assert_int_equal(mc_hex_digit('F'), 15);
    assert_int_equal(mc_hex_digit('g'), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_sizes),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_read_stream),
        cmocka_unit_test(test_hex_digit),
    };

    return cmocka_run_group_tests_name("file", tests, setup, teardown);
}
