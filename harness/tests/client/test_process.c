/*
 * Supervision tests: the stdio transport and session against misbehaving
 * targets (mc-test-target, built next to this test). Each test spawns its
 * own child and always shuts it down.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "client/session.h"
#include "client/stdio.h"
#include "core/clock.h"

static const char *target_path;

static int start_target(mc_stdio_t *t, const char *mode, const char *arg)
{
    char *argv[4];
    mc_spawn_opts_t o;
    mc_errbuf_t eb;
    int rc;

    argv[0] = (char *)target_path;
    argv[1] = (char *)mode;
    argv[2] = (char *)arg;
    argv[3] = NULL;
    memset(&o, 0, sizeof(o));
    o.argv = argv;
    mc_errbuf_clear(&eb);
    rc = mc_stdio_start(t, &o, &eb);
    if (rc != MC_OK)
        fail_msg("spawn failed: %s", eb.msg);
    return rc;
}

static int group_alive(pid_t pgid)
{
    return kill(-pgid, 0) == 0;
}

static void test_exits_at_once(void **state)
{
    mc_stdio_t t;
    mc_session_t s;
    mc_errbuf_t eb;
    char how[128];
    int rc;

    (void)state;
    start_target(&t, "exit", "3");
    assert_int_equal(mc_session_init(&s, mc_stdio_link(&t), NULL), MC_OK);
    mc_errbuf_clear(&eb);
    /* Depending on timing the request cannot be written (EPIPE) or the
     * output ends before an answer. */
    rc = mc_session_initialize(&s, "2025-06-18", NULL, 2000, &eb);
    assert_true(rc == MC_EEOF || rc == MC_EEXITED);
    assert_int_equal(mc_proc_wait(&t.proc, 2000), 1);
    mc_proc_describe(&t.proc, how, sizeof(how));
    assert_string_equal(how, "exited with status 3");
    mc_session_free(&s);
    assert_int_equal(mc_stdio_stop(&t, 100, 100), 0);
    mc_stdio_free(&t);
}

static void test_killed_by_signal(void **state)
{
    mc_stdio_t t;
    mc_session_t s;
    mc_errbuf_t eb;
    char how[128];

    (void)state;
    start_target(&t, "segv", NULL);
    assert_int_equal(mc_session_init(&s, mc_stdio_link(&t), NULL), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 2000, &eb), MC_EEOF);
    mc_proc_wait(&t.proc, 2000);
    mc_proc_describe(&t.proc, how, sizeof(how));
    assert_string_equal(how, "killed by SIGSEGV");
    mc_session_free(&s);
    mc_stdio_stop(&t, 100, 100);
    mc_stdio_free(&t);
}

static void test_spawn_failure(void **state)
{
    mc_stdio_t t;
    mc_spawn_opts_t o;
    mc_errbuf_t eb;
    char *argv[] = {"/nonexistent/mcpcheck-no-such-server", NULL};

    (void)state;
    memset(&o, 0, sizeof(o));
    o.argv = argv;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_stdio_start(&t, &o, &eb), MC_ESPAWN);
    assert_non_null(strstr(eb.msg, "No such file"));
    argv[0] = (char *)target_path;
    o.cwd = "/nonexistent-dir";
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_stdio_start(&t, &o, &eb), MC_ESPAWN);
}

static void test_never_reads_stdin(void **state)
{
    mc_stdio_t t;
    char *big;
    size_t n = 4u << 20; /* far more than a pipe holds */
    int64_t t0;
    pid_t pg;

    (void)state;
    start_target(&t, "noread", NULL);
    pg = t.proc.pid;
    big = malloc(n);
    memset(big, ' ', n);
    big[n - 1] = '\n';
    t0 = mc_now_ms();
    assert_int_equal(mc_stdio_send(&t, big, n, mc_now_ms() + 300), MC_ETIMEOUT);
    assert_true(mc_now_ms() - t0 < 2000);
    free(big);
    /* Closing stdin does not stop it (it never reads): SIGTERM does. */
    assert_int_equal(mc_stdio_stop(&t, 100, 1000), SIGTERM);
    assert_false(group_alive(pg));
    mc_stdio_free(&t);
}

static void test_ignores_sigterm(void **state)
{
    mc_stdio_t t;
    char how[128];
    pid_t pg;

    (void)state;
    start_target(&t, "ignoreterm", NULL);
    pg = t.proc.pid;
    {
        struct timespec ts = {0, 50 * 1000000L}; /* let it install SIG_IGN */
        nanosleep(&ts, NULL);
    }
    assert_int_equal(mc_stdio_stop(&t, 100, 200), SIGKILL);
    mc_proc_describe(&t.proc, how, sizeof(how));
    assert_non_null(strstr(how, "killed by SIGKILL"));
    assert_non_null(strstr(how, "sent by mcpcheck"));
    assert_false(group_alive(pg));
    mc_stdio_free(&t);
}

static void test_floods_stdout(void **state)
{
    mc_stdio_t t;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t r;

    (void)state;
    start_target(&t, "flood", "100");
    assert_int_equal(mc_session_init(&s, mc_stdio_link(&t), NULL), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-06-18", NULL, 20000, &eb), MC_OK);
    assert_int_equal(s.n_events, 0);
    assert_int_equal(s.judge->w.n_findings, 1);
    assert_string_equal(s.judge->w.findings[0].check, "wire/message-size");
    /* Reported when it passed the limit, not when its newline came. */
    assert_non_null(strstr(s.judge->w.findings[0].detail, "no newline yet"));
    /* The framer never held more than the limit. */
    assert_true(t.framer.cap <= MC_MAX_MESSAGE_SIZE);
    assert_true(t.bytes_in > 100u * 1024 * 1024);
    assert_int_equal(mc_session_request(&s, "ping", NULL, 2000, &r), MC_OK);
    mc_msg_free(&r);
    mc_session_free(&s);
    assert_int_equal(mc_stdio_stop(&t, 1000, 1000), 0);
    mc_stdio_free(&t);
}

static void test_banner_before_first_message(void **state)
{
    mc_stdio_t t;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t r;

    (void)state;
    start_target(&t, "banner", NULL);
    assert_int_equal(mc_session_init(&s, mc_stdio_link(&t), NULL), MC_OK);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_session_initialize(&s, "2025-11-25", NULL, 2000, &eb), MC_OK);
    assert_string_equal(s.negotiated_version, "2025-11-25");
    assert_int_equal(mc_session_request(&s, "ping", NULL, 2000, &r), MC_OK);
    mc_msg_free(&r);
    assert_int_equal(s.n_events, 0);
    assert_int_equal(s.judge->w.n_findings, 1);
    assert_string_equal(s.judge->w.findings[0].check, "wire/stdout-only-messages");
    /* The banner came after initialize went out: line 2 of the session. */
    assert_int_equal(s.judge->w.findings[0].seq, 2);
    assert_non_null(strstr(s.judge->w.findings[0].detail, "starting up"));
    mc_session_free(&s);
    /* Closing stdin is enough for a well-behaved server. */
    assert_int_equal(mc_stdio_stop(&t, 2000, 1000), 0);
    assert_true(WIFEXITED(t.proc.status) && WEXITSTATUS(t.proc.status) == 0);
    mc_stdio_free(&t);
}

static void read_line(mc_stdio_t *t, char *out, size_t n)
{
    mc_record_t fr;

    assert_int_equal(mc_stdio_recv(t, &fr, mc_now_ms() + 2000), MC_OK);
    assert_int_equal(fr.kind, MC_FRAME_LINE);
    snprintf(out, n, "%s", fr.data);
    mc_record_free(&fr);
}

static void test_cwd_env_and_limits(void **state)
{
    mc_stdio_t t;
    mc_spawn_opts_t o;
    mc_errbuf_t eb;
    char line[4096];
    char *argv[] = {(char *)target_path, "pwd", NULL};
    char *argv_env[] = {(char *)target_path, "env", "MC_TEST_VAR", NULL};
    char *envp[] = {"MC_TEST_VAR=hello", NULL};

    (void)state;
    memset(&o, 0, sizeof(o));
    o.argv = argv;
    o.cwd = "/tmp";
    o.limits.address_space = 1024u * 1024 * 1024;
    o.limits.cpu_seconds = 10;
    o.limits.file_size = 1024 * 1024;
    o.limits.processes = 4096;
    mc_errbuf_clear(&eb);
    if (mc_stdio_start(&t, &o, &eb) != MC_OK)
        fail_msg("spawn with cwd and limits failed: %s", eb.msg);
    read_line(&t, line, sizeof(line));
    assert_string_equal(line, "/tmp");
    mc_stdio_stop(&t, 1000, 1000);
    mc_stdio_free(&t);

    memset(&o, 0, sizeof(o));
    o.argv = argv_env;
    o.envp = envp;
    mc_errbuf_clear(&eb);
    if (mc_stdio_start(&t, &o, &eb) != MC_OK)
        fail_msg("spawn with an environment failed: %s", eb.msg);
    read_line(&t, line, sizeof(line));
    assert_string_equal(line, "hello");
    mc_stdio_stop(&t, 1000, 1000);
    mc_stdio_free(&t);
}

static void test_stderr_ring_keeps_the_tail(void **state)
{
    mc_ring_t r;
    char out[8];
    char big[100];

    (void)state;
    assert_int_equal(mc_ring_init(&r, 8), MC_OK);
    mc_ring_write(&r, "abc", 3);
    mc_ring_copy(&r, out, sizeof(out));
    assert_string_equal(out, "abc");
    mc_ring_write(&r, "defghij", 7);
    mc_ring_copy(&r, out, sizeof(out));
    assert_string_equal(out, "defghij"); /* newest 7 of the 8 held */
    memset(big, 'z', sizeof(big));
    big[99] = 'E';
    mc_ring_write(&r, big, sizeof(big));
    assert_int_equal(r.len, 8);
    assert_int_equal(r.total, 110);
    mc_ring_copy(&r, out, sizeof(out));
    assert_string_equal(out, "zzzzzzE");
    mc_ring_free(&r);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exits_at_once),
        cmocka_unit_test(test_killed_by_signal),
        cmocka_unit_test(test_spawn_failure),
        cmocka_unit_test(test_never_reads_stdin),
        cmocka_unit_test(test_ignores_sigterm),
        cmocka_unit_test(test_floods_stdout),
        cmocka_unit_test(test_banner_before_first_message),
        cmocka_unit_test(test_cwd_env_and_limits),
        cmocka_unit_test(test_stderr_ring_keeps_the_tail),
    };

    if (argc < 2) {
        fprintf(stderr, "usage: test_process PATH/TO/mc-test-target\n");
        return 2;
    }
    /* Absolute, so that the cwd test still finds it. */
    target_path = realpath(argv[1], NULL);
    if (target_path == NULL) {
        perror(argv[1]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    {
        int rc = cmocka_run_group_tests(tests, NULL, NULL);
        free((char *)target_path);
        return rc;
    }
}
