/*
 * test_campaign.c - the campaign's executor, history and sanitizer
 * signatures (the generator and mutator: test_gen.c). argv[1] is the reference server, argv[2] the test
 * target (harness/tests/helpers/test_target.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "campaign/exec.h"
#include "campaign/gen.h"
#include "campaign/internal.h"
#include "core/json.h"
#include "support.h"
#include "core/limits.h"
#include "schema/registry.h"

static const char *g_refserver;
static const char *g_target;

static void test_tail_signature(void **state)
{
    const char *asan =
        "some log line\n"
        "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 0x4f\n"
        "READ of size 1 at 0x6020 thread T0\n"
        "    #0 0x4f2a1b in parse_cursor cursor.c:12:3\n"
        "    #1 0x4f2b00 in handle_list lists.c:40:9\n"
        "    #2 0x4f2c00 in serve main.c:99:1\n"
        "    #3 0x4f2d00 in main main.c:120:1\n";
    char sig[200];

    (void)state;
    mc_exec_tail_signature(asan, sig, sizeof(sig));
    assert_string_equal(sig, "heap-buffer-overflow|parse_cursor|handle_list|serve");
    mc_exec_tail_signature("plain stderr, nothing to see\n", sig, sizeof(sig));
    assert_string_equal(sig, "");
    /* A line with " in " that is not a stack frame does not count. */
    mc_exec_tail_signature("error in config file\n", sig, sizeof(sig));
    assert_string_equal(sig, "");
}

/* The sequences a process ran before a finding join it as one sequence,
 * each message moved as the executor moved it in that process; only the
 * most recent that fit, whole. */
static void test_with_history(void **state)
{
    json_object *hist = ct_parse(
        "[[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"},"
        "  {\"jsonrpc\": \"2.0\", \"id\": \"s2\", \"method\": \"ping\", \"params\": "
        "   {\"_meta\": {\"progressToken\": \"p3\"}}}],"
        " [{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": "
        "   {\"requestId\": 1}}, \"{not json\"]]");
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]");
    json_object *big = json_object_new_array(), *j;
    size_t taken = 0, i;

    (void)state;
    j = mc__camp_with_history(hist, seq, &taken);
    assert_int_equal(taken, 2);
    assert_int_equal(json_object_array_length(j), 5);
    assert_int_equal(json_object_get_int64(mc_json_get(json_object_array_get_idx(j, 0), "id")), 1);
    assert_string_equal(mc_json_get_str(json_object_array_get_idx(j, 1), "id"), "s2");
    assert_int_equal(json_object_get_int64(mc_json_get(
                         mc_json_get(json_object_array_get_idx(j, 2), "params"), "requestId")),
                     MC_EXEC_ID_STRIDE + 1);
    assert_string_equal(json_object_get_string(json_object_array_get_idx(j, 3)), "{not json");
    assert_int_equal(json_object_get_int64(mc_json_get(json_object_array_get_idx(j, 4), "id")),
                     2 * MC_EXEC_ID_STRIDE + 1);
    /* The history itself is not changed. */
    assert_int_equal(json_object_get_int64(mc_json_get(
                         mc_json_get(json_object_array_get_idx(
                                         json_object_array_get_idx(hist, 1), 0),
                                     "params"),
                         "requestId")),
                     1);
    json_object_put(j);
    /* A sequence that does not fit leaves out it and all before it. */
    for (i = 0; i < MC_EXEC_MAX_ELEMS; i++)
        json_object_array_add(big, ct_parse("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"ping\"}"));
    json_object_array_put_idx(hist, 0, big);
    j = mc__camp_with_history(hist, seq, &taken);
    assert_int_equal(taken, 1);
    assert_int_equal(json_object_array_length(j), 3);
    json_object_put(j);
    json_object_array_put_idx(hist, 1, json_object_get(big));
    assert_null(mc__camp_with_history(hist, seq, &taken));
    assert_int_equal(taken, 0);
    json_object_put(hist);
    json_object_put(seq);
}

/* A bug one process shows only after state built over several sequences
 * (the subscription switch: subscribe, unsubscribe and subscribe again,
 * then a change) is shown on a fresh process by those sequences joined. */
static void test_history_reproduces(void **state)
{
    char *argv[] = {(char *)g_refserver, "--inject", "subscribe-again-update-no-uri", NULL};
    static const char *const steps[] = {"resources/subscribe", "resources/unsubscribe",
                                        "resources/subscribe"};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    mc_registry_t *reg = NULL;
    json_object *hist = json_object_new_array(), *trigger, *j;
    char sig[256], buf[256];
    size_t i, taken = 0;

    (void)state;
    mc_errbuf_clear(&eb);
    reg = ct_registry();
    ct_opts(&o, argv);
    o.allowed = ct_allow_all;
    o.registry = reg;
    x = ct_exec(&o);
    for (i = 0; i < 3; i++) {
        json_object *seq;
        snprintf(buf, sizeof(buf),
                 "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"%s\", \"params\": "
                 "{\"uri\": \"test://watched-resource\"}}]",
                 steps[i]);
        seq = ct_parse(buf);
        assert_int_equal(mc_exec_run(x, seq, i == 0, 0, &out, &eb), MC_OK);
        assert_int_equal(out.nf, 0);
        assert_int_equal(out.started, i == 0);
        mc_exec_outcome_free(&out);
        json_object_array_add(hist, seq);
    }
    trigger = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
                       "{\"name\": \"test_trigger_resource_update\", \"arguments\": {}}}]");
    assert_int_equal(mc_exec_run(x, trigger, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 1);
    snprintf(sig, sizeof(sig), "%s", out.f[0].sig);
    assert_non_null(strstr(sig, "notifications/resources/updated"));
    mc_exec_outcome_free(&out);
    /* Alone on a fresh process the trigger shows nothing; joined, it does. */
    assert_int_equal(mc_exec_run(x, trigger, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    j = mc__camp_with_history(hist, trigger, &taken);
    assert_int_equal(taken, 3);
    assert_int_equal(mc_exec_run(x, j, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].sig, sig);
    mc_exec_outcome_free(&out);
    json_object_put(j);
    json_object_put(trigger);
    json_object_put(hist);
    mc_exec_free(x);
    mc_registry_free(reg);
}

/* The executor never sends a tools/call the user did not allow; a clean
 * server gives no finding and answers what is due. */
static void test_exec_refserver(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"tools/call\", \"params\": "
        "{\"name\": \"test_simple_text\", \"arguments\": {}}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 101, \"method\": \"ping\"},"
        " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/roots/list_changed\"}]");

    (void)state;
    ct_opts(&o, argv);
    o.allowed = ct_deny;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    assert_int_equal(out.started, 1);
    assert_int_equal(out.sent[0], 0); /* the tool call was not sent */
    assert_int_equal(out.sent[1], 1);
    assert_int_equal(out.answered[1], 1);
    assert_int_equal(out.sent[2], 1);
    assert_int_equal(out.nf, 0);
    /* initialize, initialized, ping, the notification */
    assert_int_equal(out.lines_out, 4);
    assert_non_null(out.trace);
    assert_null(strstr(out.trace, "tools/call"));
    assert_true(out.ns > 0);
    mc_exec_outcome_free(&out);
    /* The same process runs the next sequence: ids are shifted. */
    assert_int_equal(mc_exec_id_offset(x), MC_EXEC_ID_STRIDE);
    assert_int_equal(mc_exec_run(x, seq, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.started, 0);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_starts(x), 1);
    mc_exec_free(x);
    json_object_put(seq);
}

/* Over HTTP at 2026-07-28, a request the server refuses with an HTTP error
 * status and a null id is answered by that refusal, even when its id is too
 * long for the transport to keep: no hang. */
static void test_exec_http_refusals(void **state)
{
    char *argv[] = {(char *)g_refserver, "--http", "127.0.0.1:0", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    char longid[700], text[1600];
    json_object *seq;
    size_t i;

    (void)state;
    memset(longid, 'I', sizeof(longid) - 1);
    longid[sizeof(longid) - 1] = '\0';
    /* An unknown per-request version is refused (-32022) before the id is read. */
    snprintf(text, sizeof(text),
             "[{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"ping\", \"params\": {\"_meta\": {"
             "\"io.modelcontextprotocol/protocolVersion\": \"1999-01-01\", "
             "\"io.modelcontextprotocol/clientCapabilities\": {}}}},"
             " {\"jsonrpc\": \"2.0\", \"id\": \"%s\", \"method\": \"ping\", \"params\": {\"_meta\": {"
             "\"io.modelcontextprotocol/protocolVersion\": \"1999-01-01\", "
             "\"io.modelcontextprotocol/clientCapabilities\": {}}}},"
             " {\"jsonrpc\": \"2.0\", \"id\": \"a/b\", \"method\": \"ping\", \"params\": {\"_meta\": {"
             "\"io.modelcontextprotocol/protocolVersion\": \"1999-01-01\", "
             "\"io.modelcontextprotocol/clientCapabilities\": {}}}}]",
             longid);
    seq = ct_parse(text);
    ct_opts(&o, argv);
    o.version = "2026-07-28";
    o.url = "http://127.0.0.1:0/mcp";
    o.hang_ms = 2000;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        fprintf(stderr, "finding: %s: %s\n", out.f[i].check, out.f[i].detail);
    assert_int_equal(out.answered[0], 1);
    assert_int_equal(out.answered[1], 1);
    assert_int_equal(out.answered[2], 1); /* an id whose JSON may escape "/" */
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

/* Runs seq (text) at 2026-07-28 on a fresh HTTP refserver with switch bug,
 * every tool allowed; returns the number of findings of check. */
static size_t http_findings(const char *bug, const char *seqtext, const char *check)
{
    char *argv[] = {(char *)g_refserver, "--http", "127.0.0.1:0", "--inject", (char *)bug, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse(seqtext);
    size_t i, n = 0;

    ct_opts(&o, argv);
    o.url = "http://127.0.0.1:0/mcp";
    o.version = "2026-07-28";
    o.allowed = ct_allow_all;
    o.hang_ms = 2000;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        n += strcmp(out.f[i].check, check) == 0;
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
    return n;
}

#define CT_META26 "\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", " \
                  "\"io.modelcontextprotocol/clientCapabilities\": {}}"

/* A change notification on a request's stream instead of its listen
 * stream is found, unless the client sent an id twice: then which stream
 * a message belongs to cannot be told from ids. */
static void test_exec_http_stream_pairing(void **state)
{
    const char *listen = "{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"subscriptions/listen\", "
                         "\"params\": {\"notifications\": {\"toolsListChanged\": true}, " CT_META26 "}}";
    const char *call = "{\"jsonrpc\": \"2.0\", \"id\": 101, \"method\": \"tools/call\", \"params\": {"
                       "\"name\": \"test_trigger_tool_change\", \"arguments\": {}, " CT_META26 "}}";
    const char *list = "{\"jsonrpc\": \"2.0\", \"id\": 102, \"method\": \"tools/list\", "
                       "\"params\": {" CT_META26 "}}";
    char seq[2048];

    (void)state;
    snprintf(seq, sizeof(seq), "[%s, %s, %s]", listen, list, call);
    assert_true(http_findings("http-listen-on-request-stream", seq,
                              "http/stateless-notification-related") > 0);
    snprintf(seq, sizeof(seq), "[%s, %s, %s, %s]", listen, list, list, call);
    assert_int_equal(http_findings("http-listen-on-request-stream", seq,
                                   "http/stateless-notification-related"),
                     0);
}

/* At 2026-07-28 a subscriptions/listen request is a stream, answered only
 * when it ends: no hang is reported for it, and no answer is noted for it
 * (its replay step expects none), though an answer arrives after it was
 * sent. */
static void test_exec_listen_stream(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"tools/call\", \"params\": {"
        "\"name\": \"test_tool_with_progress\", \"arguments\": {}, " CT_META26 "}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 101, \"method\": \"subscriptions/listen\", \"params\": {"
        "\"notifications\": {\"toolsListChanged\": true}, " CT_META26 "}}]");
    size_t i;

    (void)state;
    ct_opts(&o, argv);
    o.version = "2026-07-28";
    o.allowed = ct_allow_all;
    o.hang_ms = 2000;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        fprintf(stderr, "finding: %s: %s\n", out.f[i].check, out.f[i].detail);
    assert_int_equal(out.nf, 0);
    assert_int_equal(out.answered[0], 1);
    assert_int_equal(out.answered[1], 0);
    assert_int_equal(out.replied[1], 0);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

/* Runs seq on a fresh refserver with every tool allowed; returns the trace
 * (caller frees) after checking that nothing was found. */
static char *run_traced(const char *seqtext)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse(seqtext);
    char *trace;

    ct_opts(&o, argv);
    o.allowed = ct_allow_all;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 1, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 0);
    assert_int_equal(out.sent[0], 1); /* the answer element counts as taken */
    assert_int_equal(out.answered[1], 1);
    trace = out.trace;
    out.trace = NULL;
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
    return trace;
}

/* Answer elements set how the client answers the server's own requests
 * for the rest of the sequence; they are not sent; the result reaches the
 * tool that asked. */
static void test_exec_answers(void **state)
{
    char *t;
    json_object *el;

    (void)state;
    el = ct_parse("{\"answer\": \"roots/list\", \"with\": {\"roots\": []}}");
    assert_true(mc_exec_is_answer(el));
    json_object_put(el);
    el = ct_parse("{\"answer\": \"roots/list\", \"with\": [], \"error\": {}}");
    assert_false(mc_exec_is_answer(el));
    json_object_put(el);
    el = ct_parse("{\"answer\": \"roots/list\", \"with\": 5}");
    assert_false(mc_exec_is_answer(el));
    json_object_put(el);
    el = ct_parse("{\"answer\": \"roots/list\", \"with\": {\"x\": \"${a}\"}}");
    assert_false(mc_exec_is_answer(el));
    json_object_put(el);

    t = run_traced("[{\"answer\": \"elicitation/create\", \"with\": {\"action\": \"accept\", "
                   "\"content\": {\"username\": \"zed-the-fuzzer\"}}},"
                   " {\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"tools/call\", "
                   "\"params\": {\"name\": \"test_elicitation\", \"arguments\": "
                   "{\"message\": \"who?\"}}}]");
    assert_non_null(strstr(t, "zed-the-fuzzer"));
    assert_null(strstr(t, "\\\"answer\\\""));
    free(t);
    t = run_traced("[{\"answer\": \"sampling/createMessage\", \"error\": {\"code\": -1, "
                   "\"message\": \"no model here\"}},"
                   " {\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"tools/call\", "
                   "\"params\": {\"name\": \"test_sampling\", \"arguments\": "
                   "{\"prompt\": \"hi\"}}}]");
    assert_non_null(strstr(t, "no model here"));
    free(t);
    t = run_traced("[{\"answer\": \"roots/list\", \"with\": {\"roots\": [{\"uri\": "
                   "\"file:///fuzz-root\"}]}},"
                   " {\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"tools/call\", "
                   "\"params\": {\"name\": \"test_list_roots\", \"arguments\": {}}}]");
    assert_non_null(strstr(t, "file:///fuzz-root"));
    free(t);
}

/* A request left unanswered is a hang, found within the budget. */
static void test_exec_hang(void **state)
{
    char *argv[] = {(char *)g_refserver, "--inject", "ping-ignored", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"ping\"}]");

    (void)state;
    ct_opts(&o, argv);
    o.hang_ms = 300;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 1);
    assert_int_equal(out.f[0].kind, MC_FIND_HANG);
    assert_string_equal(out.f[0].check, "process/hang");
    assert_string_equal(out.f[0].method, "ping");
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

/* A resident size over the limit is a finding, and the process restarts. */
static void test_exec_memory(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 100, \"method\": \"ping\"}]");

    (void)state;
    ct_opts(&o, argv);
    o.mem_limit_mb = 1; /* any process is bigger */
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.nf, 1);
    assert_int_equal(out.f[0].kind, MC_FIND_MEMORY);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_run(x, seq, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.started, 1);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

/* One process answers far more messages over its life than the session's
 * flood guard allows in one step: each sequence is a step of its own, so
 * the answers keep being read (no false hang, every request answered). */
static void test_exec_long_process(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *seq = json_object_new_array();
    size_t i, per = 20, runs = MC_FLOOD_MIN_MESSAGES / 20 + 10;

    (void)state;
    for (i = 0; i < per; i++) {
        char buf[96];
        snprintf(buf, sizeof(buf), "{\"jsonrpc\": \"2.0\", \"id\": %zu, \"method\": \"ping\"}", i + 1);
        json_object_array_add(seq, ct_parse(buf));
    }
    ct_opts(&o, argv);
    o.restart_every = (int)runs + 1;
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    for (i = 0; i < runs; i++) {
        assert_int_equal(mc_exec_run(x, seq, 0, 0, &out, &eb), MC_OK);
        assert_int_equal(out.nf, 0);
        assert_true(out.lines_in >= per);
        assert_int_equal(out.answered[per - 1], 1);
        mc_exec_outcome_free(&out);
    }
    assert_int_equal(mc_exec_starts(x), 1);
    mc_exec_free(x);
    json_object_put(seq);
}

/* A sequence that sends one id twice still has its other answers judged:
 * the violation in the answer to tools/list (an id sent once) is found. */
static void test_exec_dup_id_judged(void **state)
{
    char *argv[] = {(char *)g_refserver, "--inject", "tool-missing-input-schema", NULL};
    mc_registry_t *reg = NULL;
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    size_t i;
    int schema = 0;
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"},"
                             " {\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"},"
                             " {\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\"}]");

    (void)state;
    mc_errbuf_clear(&eb);
    reg = ct_registry();
    ct_opts(&o, argv);
    o.registry = reg;
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 0, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        if (strncmp(out.f[i].check, "schema/", 7) == 0 && strcmp(out.f[i].method, "tools/list") == 0)
            schema = 1;
    assert_true(schema);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    mc_registry_free(reg);
    json_object_put(seq);
}

/* The state model keys a method the schema does not define as one: two
 * made-up method names reach the same states. */
static void test_exec_unknown_methods_one_state(void **state)
{
    char *argv[] = {(char *)g_refserver, NULL};
    mc_registry_t *reg = NULL;
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t a, b;
    mc_errbuf_t eb;
    size_t i;
    json_object *sa = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"made/up\"}]");
    json_object *sb = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"other/name\"}]");
    json_object *sp = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}]");

    (void)state;
    mc_errbuf_clear(&eb);
    reg = ct_registry();
    ct_opts(&o, argv);
    o.registry = reg;
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, sa, 1, 0, &a, &eb), MC_OK);
    assert_int_equal(mc_exec_run(x, sb, 1, 0, &b, &eb), MC_OK);
    assert_true(a.ns > 0);
    assert_int_equal(a.ns, b.ns);
    for (i = 0; i < a.ns; i++)
        assert_int_equal(a.states[i], b.states[i]);
    mc_exec_outcome_free(&b);
    /* A method the schema defines keeps its own state. */
    assert_int_equal(mc_exec_run(x, sp, 1, 0, &b, &eb), MC_OK);
    assert_true(b.ns > 0);
    assert_true(a.states[a.ns - 1] != b.states[b.ns - 1]);
    mc_exec_outcome_free(&a);
    mc_exec_outcome_free(&b);
    mc_exec_free(x);
    mc_registry_free(reg);
    json_object_put(sa);
    json_object_put(sb);
    json_object_put(sp);
}

/* A server breaking a rule whose keyword binds nobody on its side (a log
 * message below the level the client set: INFO in a run) gives no
 * finding. */
static void test_exec_info_rule_no_finding(void **state)
{
    char *argv[] = {(char *)g_target, "chatty", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x = NULL;
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    size_t i;
    json_object *seq = ct_parse("[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"logging/setLevel\","
                             " \"params\": {\"level\": \"error\"}},"
                             " {\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"ping\"}]");

    (void)state;
    ct_opts(&o, argv);
    mc_errbuf_clear(&eb);
    x = ct_exec(&o);
    assert_int_equal(mc_exec_run(x, seq, 1, 0, &out, &eb), MC_OK);
    for (i = 0; i < out.nf; i++)
        fprintf(stderr, "finding: %s: %s\n", out.f[i].check, out.f[i].detail);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(seq);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tail_signature),
        cmocka_unit_test(test_with_history),
        cmocka_unit_test(test_history_reproduces),
        cmocka_unit_test(test_exec_refserver),
        cmocka_unit_test(test_exec_http_refusals),
        cmocka_unit_test(test_exec_listen_stream),
        cmocka_unit_test(test_exec_http_stream_pairing),
        cmocka_unit_test(test_exec_answers),
        cmocka_unit_test(test_exec_hang),
        cmocka_unit_test(test_exec_memory),
        cmocka_unit_test(test_exec_long_process),
        cmocka_unit_test(test_exec_dup_id_judged),
        cmocka_unit_test(test_exec_unknown_methods_one_state),
        cmocka_unit_test(test_exec_info_rule_no_finding),
    };

    if (argc < 3) {
        fprintf(stderr, "usage: test_campaign REFSERVER TEST_TARGET\n");
        return 2;
    }
    g_refserver = argv[1];
    g_target = argv[2];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
