/*
 * test_http_sse.c - the HTTP+SSE transport's reading of the endpoint event:
 * a URI reference resolved against the URL the client connected to, and
 * one of another origin refused (never followed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client/http_internal.h"

typedef struct resolve_case {
    const char *base;
    const char *ref;
    const char *want; /* NULL: refused */
} resolve_case_t;

static void test_resolve(void **state)
{
    static const resolve_case_t cases[] = {
        /* The forms servers send: an absolute path with the session in the query. */
        {"http://127.0.0.1:3001/sse", "/message?sessionId=ab-1",
         "http://127.0.0.1:3001/message?sessionId=ab-1"},
        {"http://127.0.0.1:3001/mcp", "/mcp?sessionId=7", "http://127.0.0.1:3001/mcp?sessionId=7"},
        /* A relative path goes beside the URL's last segment; a query alone replaces its query. */
        {"http://127.0.0.1:3001/a/sse", "messages?s=1", "http://127.0.0.1:3001/a/messages?s=1"},
        {"http://127.0.0.1:3001/sse?x=1", "?s=2", "http://127.0.0.1:3001/sse?s=2"},
        /* The same origin spelled out: host case and the default port do not matter. */
        {"http://LOCALHOST/sse", "http://localhost:80/m?s=3", "http://localhost:80/m?s=3"},
        {"http://127.0.0.1:3001/sse", "//127.0.0.1:3001/m", "http://127.0.0.1:3001/m"},
        {"http://[::1]:3001/sse", "http://[::1]:3001/m", "http://[::1]:3001/m"},
        /* A fragment is not sent. */
        {"http://127.0.0.1:3001/sse", "/m?s=4#frag", "http://127.0.0.1:3001/m?s=4"},
        /* Another origin: host, port or scheme. */
        {"http://127.0.0.1:3001/sse", "http://127.0.0.2:3001/m", NULL},
        {"http://127.0.0.1:3001/sse", "http://127.0.0.1:3002/m", NULL},
        {"http://127.0.0.1:3001/sse", "//evil.example/m", NULL},
        {"http://127.0.0.1:3001/sse", "https://127.0.0.1:3001/m", NULL},
        {"http://127.0.0.1:3001/sse", "javascript:alert(1)", NULL},
        {"http://127.0.0.1/sse", "http://127.0.0.1:8080/m", NULL},
        /* No URI at all. */
        {"http://127.0.0.1:3001/sse", "", NULL},
        {"http://127.0.0.1:3001/sse", "/m?s=a b", NULL},
        {"http://127.0.0.1:3001/sse", "/m\r\nX-Injected: 1", NULL},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char why[160] = "";
        char *got = mc__http_resolve_same_origin(cases[i].base, cases[i].ref, why, sizeof(why));
        if (cases[i].want == NULL) {
            if (got != NULL)
                fail_msg("case %zu: \"%s\" resolved to %s; it should be refused", i, cases[i].ref,
                         got);
            assert_true(why[0] != '\0');
        } else {
            if (got == NULL)
                fail_msg("case %zu: \"%s\" refused (%s); want %s", i, cases[i].ref, why,
                         cases[i].want);
            assert_string_equal(got, cases[i].want);
        }
        free(got);
    }
}

/* An over-long reference is refused, not cut. */
static void test_resolve_too_long(void **state)
{
    char *ref = malloc(MC_HTTP_MAX_ENDPOINT_URL + 8);
    char why[160] = "";

    (void)state;
    assert_non_null(ref);
    ref[0] = '/';
    memset(ref + 1, 'a', MC_HTTP_MAX_ENDPOINT_URL + 4);
    ref[MC_HTTP_MAX_ENDPOINT_URL + 5] = '\0';
    assert_null(mc__http_resolve_same_origin("http://127.0.0.1:1/sse", ref, why, sizeof(why)));
    assert_true(why[0] != '\0');
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_resolve_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
