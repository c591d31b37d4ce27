/* Unit tests for the framing checks of the stdio page (judge/wire.h) that
 * read how a line was cut: wire/no-embedded-newline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "judge/wire.h"
#include "core/frame.h"

static int findings(const mc_wire_t *w, const char *check)
{
    int n = 0;
    for (size_t i = 0; i < w->n_findings; i++)
        n += strcmp(w->findings[i].check, check) == 0;
    return n;
}

static int evals(const mc_wire_t *w, const char *check)
{
    for (size_t i = 0; i < w->n_checks; i++)
        if (strcmp(w->check_ids[i], check) == 0)
            return (int)w->check_evals[i];
    return 0;
}

/* A stdio line that opens a message and ends before it closes is a message
 * split by a newline; the same bytes as an HTTP body are no such thing, and
 * a line that is no start of a message is only not a message. */
static void test_embedded_newline(void **state)
{
    static const char *const split[] = {"{", "  {\"jsonrpc\": \"2.0\",", "[{\"a\": [1,"};
    static const char *const other[] = {"  \"jsonrpc\": \"2.0\",", "}", "{\"a\": 1}}", "hello"};
    mc_wire_t w;
    size_t i;

    (void)state;
    assert_int_equal(mc_wire_init(&w), MC_OK);
    for (i = 0; i < sizeof(split) / sizeof(split[0]); i++)
        mc_wire_inbound(&w, MC_FRAME_LINE, MC_FRAME_F_NEWLINE, split[i], strlen(split[i]), NULL);
    assert_int_equal(findings(&w, "wire/no-embedded-newline"), 3);
    assert_int_equal(findings(&w, "wire/stdout-only-messages"), 3);
    for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
        mc_wire_inbound(&w, MC_FRAME_LINE, MC_FRAME_F_NEWLINE, other[i], strlen(other[i]), NULL);
    mc_wire_inbound(&w, MC_FRAME_LINE, 0, "{", 1, NULL); /* an HTTP body */
    assert_int_equal(findings(&w, "wire/no-embedded-newline"), 3);
    assert_int_equal(findings(&w, "wire/stdout-only-messages"), 8);
    mc_wire_inbound(&w, MC_FRAME_LINE, MC_FRAME_F_NEWLINE, "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}",
                    30, NULL);
    assert_int_equal(findings(&w, "wire/no-embedded-newline"), 3);
    assert_true(evals(&w, "wire/no-embedded-newline") >= 4);
    mc_wire_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_newline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
