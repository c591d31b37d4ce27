/*
 * test_calltools.c - what the executor holds against a server when tools
 * are called in a persistent process: answers and progress that arrive a
 * sequence late, ids and progress tokens the client sent twice, tokens past
 * what the judge follows, a client answer the server cannot read, lines
 * sent as is. argv[1] is the reference server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "campaign/exec.h"
#include "core/json.h"
#include "support.h"
#include "judge/wire.h"

static const char *g_refserver;

/* An executor of the reference server started with extra (NULL-ended, at
 * most 4) arguments, every tool allowed. */
static mc_exec_t *start(const char *a1, const char *a2, int hang_ms)
{
    static char *argv[4];
    mc_exec_opts_t o;

    argv[0] = (char *)g_refserver;
    argv[1] = (char *)a1;
    argv[2] = a1 != NULL ? (char *)a2 : NULL;
    argv[3] = NULL;
    ct_opts(&o, argv);
    o.allowed = ct_allow_all;
    o.hang_ms = hang_ms;
    return ct_exec(&o);
}

/* Runs seq (JSON text) in x (fresh: a new process first) and returns the
 * number of findings, printing them. */
static size_t run(mc_exec_t *x, const char *seqtext, int fresh, const char *want)
{
    json_object *seq = ct_parse(seqtext);
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    size_t i, nf, hit = 0;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, seq, fresh, 0, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++) {
        fprintf(stderr, "finding: %s (%s): %s\n", out.f[i].check, out.f[i].method,
                out.f[i].detail);
        if (want != NULL && strcmp(out.f[i].check, want) == 0)
            hit = 1;
    }
    nf = want != NULL ? hit : out.nf;
    mc_exec_outcome_free(&out);
    json_object_put(seq);
    return nf;
}

/* The next sequence in the same process (a plain tool call) shows no
 * finding: what the one before left arriving late is not judged. */
static void next_is_clean(mc_exec_t *x)
{
    assert_int_equal(run(x,
                         "[{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"tools/call\", \"params\":"
                         " {\"name\": \"test_tool_with_logging\", \"arguments\": {}}}]",
                         0, NULL),
                     0);
    assert_int_equal(mc_exec_starts(x), 1);
}

/* A request sent twice under one id is answered twice; the second answer
 * (a tool's, which takes two steps) comes while the next sequence runs. It
 * is no second response to anything of that sequence. */
static void test_late_answer_to_dup_id(void **state)
{
    mc_exec_t *x = start("--step-delay", "150", 0);

    (void)state;
    assert_int_equal(run(x,
                         "[{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"},"
                         " {\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/call\", \"params\":"
                         " {\"name\": \"test_tool_with_logging\", \"arguments\": {}}}]",
                         1, NULL),
                     0);
    next_is_clean(x);
    mc_exec_free(x);
}

/* A tool call with a progress token, and a ping under the same id: the
 * ping's answer may be taken for the call's, which ends its token for the
 * checker, and the call's progress comes while the next sequence runs. It
 * is no progress for a token no request has active. */
static void test_token_of_dup_id(void **state)
{
    mc_exec_t *x = start("--step-delay", "150", 0);

    (void)state;
    assert_int_equal(run(x,
                         "[{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/call\", \"params\":"
                         " {\"name\": \"test_tool_with_progress\", \"arguments\": {},"
                         " \"_meta\": {\"progressToken\": \"t5\"}}},"
                         " {\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"}]",
                         1, NULL),
                     0);
    next_is_clean(x);
    mc_exec_free(x);
}

/* The generator's progress tokens are moved per sequence like its ids: a
 * sequence run again in the same process is no token collision, and a
 * progress rule the server breaks is found again. */
static void test_token_moved_per_sequence(void **state)
{
    mc_exec_t *x = start("--inject", "progress-not-increasing", 0);
    const char *seq = "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\":"
                      " {\"name\": \"test_tool_with_progress\", \"arguments\": {},"
                      " \"_meta\": {\"progressToken\": \"p7\"}}}]";

    (void)state;
    assert_int_equal(run(x, seq, 1, "wire/progress-increases"), 1);
    assert_int_equal(run(x, seq, 0, "wire/progress-increases"), 1);
    assert_int_equal(run(x, seq, 0, "wire/progress-increases"), 1);
    assert_int_equal(mc_exec_starts(x), 1);
    mc_exec_free(x);
}

/* Past the tokens the judge can follow in one process, progress for a new
 * token is not judged as if the token had never been sent. */
static void test_tokens_past_judge(void **state)
{
    mc_exec_t *x = start(NULL, NULL, 0);
    size_t s, k, n = 0;
    char *buf = malloc(8192);

    (void)state;
    assert_non_null(buf);
    for (s = 0; n <= MC_WIRE_MAX_TOKENS; s++) {
        size_t o = (size_t)snprintf(buf, 8192, "[");
        for (k = 0; k < 24; k++, n++)
            o += (size_t)snprintf(buf + o, 8192 - o,
                                  "%s{\"jsonrpc\": \"2.0\", \"id\": %zu, \"method\": \"ping\","
                                  " \"params\": {\"_meta\": {\"progressToken\": \"q%zu\"}}}",
                                  k ? ", " : "", k + 2, n);
        snprintf(buf + o, 8192 - o, "]");
        assert_int_equal(run(x, buf, s == 0, NULL), 0);
    }
    assert_int_equal(run(x,
                         "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\":"
                         " {\"name\": \"test_tool_with_progress\", \"arguments\": {},"
                         " \"_meta\": {\"progressToken\": \"late\"}}}]",
                         0, NULL),
                     0);
    assert_int_equal(mc_exec_starts(x), 1);
    free(buf);
    mc_exec_free(x);
}

/* The client answers the server's elicitation with an error whose message
 * is not UTF-8: the server cannot read it, and the tool that asked waits
 * for an answer it never got. That is no hang of the server's; a request
 * it simply leaves unanswered still is. */
static void test_unreadable_answer_no_hang(void **state)
{
    mc_exec_t *x = start(NULL, NULL, 300);
    json_object *seq = json_object_new_array(), *ans = json_object_new_object();
    json_object *err = json_object_new_object();
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    size_t i;

    (void)state;
    json_object_object_add(err, "message", json_object_new_string("\xed\xa0\x80"));
    json_object_object_add(ans, "answer", json_object_new_string("elicitation/create"));
    json_object_object_add(ans, "error", err);
    json_object_array_add(seq, ans);
    json_object_array_add(seq, ct_parse("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\","
                                     " \"params\": {\"name\": \"test_elicitation_sep1330_enums\","
                                     " \"arguments\": {}}}"));
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, seq, 1, 0, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        fprintf(stderr, "finding: %s: %s\n", out.f[i].check, out.f[i].detail);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    json_object_put(seq);
    mc_exec_free(x);
    x = start("--inject", "ping-ignored", 300);
    assert_int_equal(run(x, "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\"}]", 1,
                         "process/hang"),
                     1);
    mc_exec_free(x);
}

/* A line sent as is that reads as a second initialize (which the server
 * refuses) makes the capability checks unjudged, as an initialize element
 * does: the checker now follows capabilities the server never took. */
static void test_raw_initialize(void **state)
{
    mc_exec_t *x = start(NULL, NULL, 0);

    (void)state;
    assert_int_equal(
        run(x,
            "[\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":2,\\\"method\\\":\\\"initialize\\\","
            "\\\"params\\\":{\\\"protocolVersion\\\":\\\"2025-06-18\\\",\\\"capabilities\\\":{},"
            "\\\"clientInfo\\\":{\\\"name\\\":\\\"x\\\",\\\"version\\\":\\\"0\\\"}}}\","
            " {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\":"
            " {\"name\": \"test_elicitation\", \"arguments\": {\"message\": \"who?\"}}}]",
            1, NULL),
        0);
    mc_exec_free(x);
}

/* A line sent as is that reads as a call of a tool the user did not allow
 * is not sent either. */
static void test_raw_forbidden_tool(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse(
        "[\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":2,\\\"method\\\":\\\"tools/call\\\","
        "\\\"params\\\":{\\\"name\\\":\\\"test_simple_text\\\",\\\"arguments\\\":{}}}\","
        " \"[{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3,\\\"method\\\":\\\"tools/call\\\","
        "\\\"params\\\":{\\\"name\\\":\\\"test_simple_text\\\"}}]\","
        " {\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"ping\"}]");

    (void)state;
    ct_opts(&o, argv);
    o.allowed = ct_deny;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    assert_int_equal(out.sent[0], 0);
    assert_int_equal(out.sent[1], 0);
    assert_int_equal(out.sent[2], 1);
    assert_non_null(out.trace);
    assert_null(strstr(out.trace, "tools/call"));
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

/* A long id (past the 63 bytes an inline record keeps) sent in a message
 * and again in a line sent as is is one id sent twice: the second answer
 * is no second response of the server's. */
static void test_long_id_twice(void **state)
{
    mc_exec_t *x = start(NULL, NULL, 0);
    char id[101], a[512], b[512];

    (void)state;
    memset(id, 'R', 100);
    id[100] = '\0';
    snprintf(a, sizeof(a), "[{\"jsonrpc\": \"2.0\", \"id\": \"%s\", \"method\": \"ping\"}]", id);
    snprintf(b, sizeof(b),
             "[\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":\\\"%s\\\",\\\"method\\\":\\\"ping\\\"}\"]",
             id);
    assert_int_equal(run(x, a, 1, NULL), 0);
    assert_int_equal(run(x, b, 0, NULL), 0);
    mc_exec_free(x);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_answer_to_dup_id),
        cmocka_unit_test(test_token_of_dup_id),
        cmocka_unit_test(test_token_moved_per_sequence),
        cmocka_unit_test(test_tokens_past_judge),
        cmocka_unit_test(test_unreadable_answer_no_hang),
        cmocka_unit_test(test_raw_initialize),
        cmocka_unit_test(test_raw_forbidden_tool),
        cmocka_unit_test(test_long_id_twice),
    };

    if (argc < 2) {
        fprintf(stderr, "usage: test_calltools REFSERVER\n");
        return 2;
    }
    g_refserver = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
