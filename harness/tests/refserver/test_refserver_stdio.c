/*
 * test_refserver_stdio.c - mcpcheck-refserver as a process.
 *
 * Spawns the binary without a shell (fork/exec, test-local helper), writes a
 * scripted session to its stdin, closes stdin and reads stdout to EOF. The
 * scripts answer the server's requests in advance: its request ids are
 * deterministic (1, 2, ...), and it reads one line at a time.
 *
 * Checks: framing (one JSON message per line, nothing else), every response
 * matches a request, every message validates against the project's MCP
 * schema of the negotiated version (when the schema registry is built), the
 * command-line interface, SIGTERM, and that every --inject switch changes
 * the output of at least one scripted session.
 *
 * usage: test_refserver_stdio PATH-TO-mcpcheck-refserver
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#ifdef MC_HAVE_REGISTRY
#include "schema/registry.h"
#endif

static const char *g_bin;
static int g_failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            g_failures++;                                                                          \
        }                                                                                          \
    } while (0)

/* Output of one run: stdout bytes and the exit status. */
typedef struct run {
    char *out;
    size_t len;
    int status; /* from waitpid */
} run_t;

/* True when needle occurs in p[0..n). */
static int contains(const char *p, size_t n, const char *needle)
{
    size_t k, m = strlen(needle);

    for (k = 0; k + m <= n; k++)
        if (memcmp(p + k, needle, m) == 0)
            return 1;
    return 0;
}

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Runs the server with extra arguments, feeding input and collecting stdout
 * until EOF or timeout_ms. With term_after_ms >= 0, stdin is kept open and
 * SIGTERM is sent after that many milliseconds. The child always ends.
 */
static int run_server(char *const *args, const char *input, int timeout_ms, int term_after_ms,
                      run_t *r)
{
    char *argv[32];
    int in[2], out[2], n = 0, i;
    pid_t pid;
    size_t off = 0, ilen = input != NULL ? strlen(input) : 0, cap = 1 << 16;
    long long start = now_ms();
    int stdin_open = 1, termed = 0;

    memset(r, 0, sizeof(*r));
    argv[n++] = (char *)g_bin;
    for (i = 0; args != NULL && args[i] != NULL && n < 30; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    if (pipe(in) != 0 || pipe(out) != 0)
        return -1;
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execv(g_bin, argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    signal(SIGPIPE, SIG_IGN);
    r->out = malloc(cap);
    for (;;) {
        struct pollfd p[2];
        int np = 0, rc;
        long long el = now_ms() - start;
        if (el > timeout_ms) {
            kill(pid, SIGKILL);
            break;
        }
        /* SIGTERM goes once the server has answered something (a busy or
         * sanitized build may take longer than term_after_ms to start). */
        if (term_after_ms >= 0 && !termed && el >= term_after_ms && r->len > 0) {
            kill(pid, SIGTERM);
            termed = 1;
        }
        p[np].fd = out[0];
        p[np].events = POLLIN;
        np++;
        if (stdin_open && off < ilen) {
            p[np].fd = in[1];
            p[np].events = POLLOUT;
            np++;
        } else if (stdin_open && term_after_ms < 0) {
            close(in[1]);
            stdin_open = 0;
        }
        rc = poll(p, (nfds_t)np, 20);
        if (rc < 0 && errno != EINTR)
            break;
        if (np > 1 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(in[1], input + off, ilen - off > 4096 ? 4096 : ilen - off);
            if (w > 0)
                off += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR) {
                close(in[1]);
                stdin_open = 0;
            }
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t k;
            if (r->len + 4096 > cap) {
                cap *= 2;
                r->out = realloc(r->out, cap);
            }
            k = read(out[0], r->out + r->len, 4096);
            if (k <= 0)
                break;
            r->len += (size_t)k;
        }
    }
    if (stdin_open)
        close(in[1]);
    close(out[0]);
    waitpid(pid, &r->status, 0);
    r->out = realloc(r->out, r->len + 1);
    r->out[r->len] = '\0';
    return 0;
}

/* ---- scripted sessions (stdio_sessions.h) ---- */

#include "stdio_sessions.h"

/* Runs a session, optionally with --inject. Returns the run (caller frees out). */
static run_t run_session(const session_t *s, const char *inject)
{
    char *args[6];
    run_t r;
    int n = 0;

    args[n++] = "--step-delay";
    args[n++] = (char *)s->step_delay;
    if (inject != NULL) {
        args[n++] = "--inject";
        args[n++] = (char *)inject;
    }
    args[n] = NULL;
    if (run_server(args, s->script, 10000, -1, &r) != 0)
        CHECK(0, "cannot spawn %s", g_bin);
    return r;
}

/* ---- checks on a clean run ---- */

#ifdef MC_HAVE_REGISTRY
static mc_registry_t *g_reg;
#endif

/* The method of the request with integer id in the script, or NULL. The
 * scripts write every request as {"jsonrpc":"2.0","id":N,"method":"M"...}. */
static const char *request_method(const char *script, long id, char *buf, size_t cap)
{
    char needle[64];
    const char *p, *q;

    snprintf(needle, sizeof(needle), "\"id\":%ld,\"method\":\"", id);
    p = strstr(script, needle);
    if (p == NULL)
        return NULL;
    p += strlen(needle);
    q = strchr(p, '"');
    if (q == NULL)
        return NULL;
    snprintf(buf, cap, "%.*s", (int)(q - p), p);
    return buf;
}

static int g_validated;

/* Checks framing, response matching and schemas of one clean run. */
static void check_clean(const session_t *s, const run_t *r)
{
    const char *p = r->out;
    char version[32] = "";
    int lines = 0;

    CHECK(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0, "%s: exit status %d", s->name,
          r->status);
    while (*p != '\0') {
        const char *e = strchr(p, '\n');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, n);
        json_object *o = json_tokener_parse(line), *v, *items;
        size_t k, count = 1;

        CHECK(e != NULL, "%s: last line has no newline", s->name);
        CHECK(o != NULL, "%s: not one JSON message per line: %.200s", s->name, line);
        lines++;
        items = o;
        if (o != NULL && json_object_is_type(o, json_type_array))
            count = json_object_array_length(o);
        for (k = 0; o != NULL && k < count; k++) {
            json_object *m = items == o && !json_object_is_type(o, json_type_array)
                                 ? o
                                 : json_object_array_get_idx(o, k);
            char mbuf[64];
            const char *answered = NULL;
            CHECK(json_object_object_get_ex(m, "jsonrpc", &v) &&
                      strcmp(json_object_get_string(v), "2.0") == 0,
                  "%s: jsonrpc member: %.200s", s->name, line);
            if (json_object_object_get_ex(m, "result", &v) &&
                json_object_object_get_ex(v, "protocolVersion", &v))
                snprintf(version, sizeof(version), "%s", json_object_get_string(v));
            if (!json_object_object_get_ex(m, "method", &v) &&
                json_object_object_get_ex(m, "id", &v) && json_object_is_type(v, json_type_int)) {
                answered = request_method(s->script, (long)json_object_get_int64(v), mbuf,
                                          sizeof(mbuf));
                CHECK(answered != NULL, "%s: response to an unknown id: %.200s", s->name, line);
            }
#ifdef MC_HAVE_REGISTRY
            if (version[0] != '\0' && g_reg != NULL) {
                static mc_schema_report_t rep;
                mc_errbuf_t eb;
                json_object *idv;
                int rc;
                /* Error responses with id null answer bytes that never parsed;
                 * see the decision in refserver/server.c. */
                if (json_object_object_get_ex(m, "id", &idv) && idv == NULL)
                    continue;
                mc_schema_report_clear(&rep);
                mc_errbuf_clear(&eb);
                rc = mc_registry_validate_message(g_reg, version, m, answered, &rep, &eb);
                if (rc != MC_OK && rc != MC_EINVALID)
                    continue; /* no bundled schema for this version */
                g_validated++;
                CHECK(rc == MC_OK, "%s (%s): schema: %s: %.300s", s->name, version,
                      rep.n_entries > 0 ? rep.entries[0].message : eb.msg, line);
            }
#endif
        }
        json_object_put(o);
        free(line);
        p += n;
        if (*p == '\n')
            p++;
    }
    CHECK(lines > 0, "%s: no output", s->name);
}

static void test_sessions(void)
{
    size_t i;

    for (i = 0; i < NSESSIONS; i++) {
        run_t r = run_session(&sessions[i], NULL);
        check_clean(&sessions[i], &r);
        if (strcmp(sessions[i].name, "full") == 0) {
            CHECK(strstr(r.out, "\"notifications/resources/updated\"") != NULL,
                  "full: no resource update");
            CHECK(strstr(r.out, "\"notifications/elicitation/complete\"") != NULL,
                  "full: no elicitation/complete");
            CHECK(strstr(r.out, "\"code\":-32042") != NULL, "full: no -32042");
            CHECK(strstr(r.out, "LLM response: hello") != NULL, "full: sampling");
            CHECK(strstr(r.out, "\"id\":153,\"result\":{}") != NULL, "full: last ping");
        }
        if (strcmp(sessions[i].name, "stateless") == 0)
            CHECK(strstr(r.out, "\"supported\":[\"2026-07-28\"]") != NULL,
                  "stateless: -32022 does not list what server/discover lists");
        if (strcmp(sessions[i].name, "cancel") == 0)
            CHECK(strstr(r.out, "\"id\":2,") == NULL, "cancel: cancelled request answered");
        if (strcmp(sessions[i].name, "hostile") == 0) {
            CHECK(strstr(r.out, "\"code\":-32700") != NULL, "hostile: no parse error");
            CHECK(strstr(r.out, "\"protocolVersion\":\"2025-11-25\"") != NULL,
                  "hostile: counter-offer");
            CHECK(strstr(r.out, "\"id\":7,\"result\":{}") != NULL, "hostile: CRLF ping");
        }
        free(r.out);
    }
}

/* ---- command line ---- */

static void test_cli(void)
{
    char *help[] = {"--help", NULL}, *bugs[] = {"--list-bugs", NULL}, *bad[] = {"--nope", NULL},
         *badpage[] = {"--page-size", "0", NULL}, *badinject[] = {"--inject", "zzz", NULL},
         *ver[] = {"--version", NULL};
    run_t r;
    int lines = 0;
    const char *p;

    run_server(help, NULL, 5000, -1, &r);
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "--help exit");
    CHECK(strstr(r.out, "usage:") != NULL && strstr(r.out, "--inject") != NULL, "--help text");
    free(r.out);
    run_server(ver, NULL, 5000, -1, &r);
    CHECK(strncmp(r.out, "mcpcheck-refserver ", 19) == 0, "--version");
    free(r.out);
    run_server(bugs, NULL, 5000, -1, &r);
    for (p = r.out; *p != '\0';) {
        const char *e = strchr(p, '\n');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p), tabs = 0, k;
        for (k = 0; k < n; k++)
            tabs += p[k] == '\t';
        CHECK(tabs == 6, "--list-bugs line without 7 fields: %.*s", (int)n, p);
        CHECK(n > 0 && p[n - 1] != '\t' && !contains(p, n, "\t\t"),
              "--list-bugs line without versions, checks or scenarios: %.*s", (int)n, p);
        CHECK(contains(p, n, "\tMUST\t") || contains(p, n, "\tSHOULD\t") ||
                  contains(p, n, "\tINFO\t"),
              "--list-bugs level: %.*s", (int)n, p);
        CHECK(contains(p, n, "\t2025-") || contains(p, n, "\t2026-"),
              "--list-bugs spec reference: %.*s", (int)n, p);
        lines++;
        p += n + (e != NULL);
    }
    CHECK(lines >= 40, "only %d switches", lines);
    free(r.out);
    run_server(bad, NULL, 5000, -1, &r);
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2 && r.len == 0, "bad option");
    free(r.out);
    run_server(badpage, NULL, 5000, -1, &r);
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "bad page size");
    free(r.out);
    run_server(badinject, NULL, 5000, -1, &r);
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "bad inject");
    free(r.out);
}

static void test_sigterm(void)
{
    run_t r;
    long long t0 = now_ms();

    run_server(NULL, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", 20000, 200, &r);
    /* A budget for a hang (the run is killed at 20 s), not a speed test. */
    CHECK(now_ms() - t0 < 15000, "SIGTERM did not end the server");
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "SIGTERM exit status %d", r.status);
    CHECK(strstr(r.out, "\"id\":1,\"result\":{}") != NULL, "ping before SIGTERM");
    free(r.out);
}

/* ---- every violation switch shows ---- */

/* Zeroes the digits of every RFC 3339 timestamp in out (a task's createdAt
 * and lastUpdatedAt), so that two runs differ only where a switch makes them:
 * "2026-01-02T03:04:05.678Z" becomes "0000-00-00T00:00:00.000Z". */
static void mask_times(char *out, size_t len)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
    size_t n = sizeof(shape) - 1, i, k;

    for (i = 0; i + n <= len; i++) {
        for (k = 0; k < n; k++)
            if (shape[k] == 'd' ? !isdigit((unsigned char)out[i + k]) : out[i + k] != shape[k])
                break;
        if (k < n)
            continue;
        for (k = 0; k < n; k++)
            if (shape[k] == 'd')
                out[i + k] = '0';
    }
}

static void test_switches(void)
{
    char *bugs[] = {"--list-bugs", NULL};
    run_t list, clean[NSESSIONS];
    const char *p;
    size_t i, k, first = 0;
    int count = 0;

    for (i = 0; i < NSESSIONS; i++) {
        clean[i] = run_session(&sessions[i], NULL);
        mask_times(clean[i].out, clean[i].len);
    }
    run_server(bugs, NULL, 5000, -1, &list);
    for (p = list.out; *p != '\0';) {
        const char *e = strchr(p, '\n');
        size_t n = strcspn(p, "\t");
        char name[96];
        int differs = 0;
        snprintf(name, sizeof(name), "%.*s", (int)(n < 95 ? n : 95), p);
        /* Its mark is the exit, not the output (test_refserver_client.c). */
        differs = strcmp(name, "stdin-eof-ignored") == 0;
        /* Listed switches come in families that show in the same session:
         * the search starts where the previous switch showed. */
        for (k = 0; k < NSESSIONS && !differs; k++) {
            run_t r = run_session(&sessions[i = (first + k) % NSESSIONS], name);
            /* An injected server still runs the session (it does not refuse
             * the switch), and its output differs from the clean one. */
            CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) != 2 && r.len > 0,
                  "--inject %s: the server did not run the session", name);
            mask_times(r.out, r.len);
            differs = r.len != clean[i].len || memcmp(r.out, clean[i].out, r.len) != 0;
            if (differs) {
                printf("%-40s differs in session %s\n", name, sessions[i].name);
                first = i;
            }
            free(r.out);
        }
        CHECK(differs, "--inject %s changes no scripted session's output", name);
        count++;
        p = e != NULL ? e + 1 : p + strlen(p);
    }
    printf("checked %d violation switches\n", count);
    for (i = 0; i < NSESSIONS; i++)
        free(clean[i].out);
    free(list.out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-mcpcheck-refserver [sessions|cli|switches]\n", argv[0]);
        return 2;
    }
    g_bin = argv[1];
#ifdef MC_HAVE_REGISTRY
    {
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        if (mc_registry_new(&g_reg, NULL, MC_REGISTRY_BUNDLED, &eb) != MC_OK)
            fprintf(stderr, "schema registry unavailable: %s\n", eb.msg);
    }
#else
    printf("note: built without the schema registry; messages are not schema-checked\n");
#endif
    if (argc < 3 || strcmp(argv[2], "sessions") == 0) {
        test_sessions();
        test_cli();
        test_sigterm();
        printf("%d messages validated against the MCP schemas\n", g_validated);
    }
    if (argc >= 3 && strcmp(argv[2], "switches") == 0)
        test_switches();
#ifdef MC_HAVE_REGISTRY
    mc_registry_free(g_reg);
#endif
    printf("%d passed, %d failed\n", g_failures == 0 ? 1 : 0, g_failures == 0 ? 0 : 1);
    return g_failures == 0 ? 0 : 1;
}
