/*
 * hostile.c - deliberately misbehaving MCP servers for the reliability tests.
 *
 * usage: mc-hostile MODE
 *
 * Each mode is one way a server under test can be hostile to its client
 * (see MODES below). Modes that answer at all answer initialize (echoing
 * the requested version, declaring no capabilities), ping (with {}) and
 * every other request with -32601, so that scenarios needing more SKIP.
 *
 * Every process of the program (and every process it forks) appends its
 * pid to the file named by $MC_HOSTILE_PIDS, when set, so that a test can
 * tell whether any of them was left running.
 *
 * It stands for a foreign server, so it is built without sanitizers, and it
 * writes its large outputs from a small buffer: its own memory stays small,
 * so that a test measuring mcpcheck's peak memory measures mcpcheck's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

/* Longest request line read (requests from mcpcheck are small). */
#define HOSTILE_MAX_LINE (1u << 20)

static void record_pid(void)
{
    const char *path = getenv("MC_HOSTILE_PIDS");
    char buf[32];
    int fd, n;

    if (path == NULL || path[0] == '\0')
        return;
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
    if (write(fd, buf, (size_t)n) < 0) {
        /* nothing to do: the test then cannot see this pid */
    }
    close(fd);
}

/* Waits for signals until killed. */
static _Noreturn void idle_forever(void)
{
    for (;;)
        pause();
}

static void sleep_ms(long ms)
{
    struct timespec ts;

    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Writes all of buf to fd (blocking); returns 0, or -1 when the reader left. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int out_line(const char *s)
{
    if (write_all(1, s, strlen(s)) != 0)
        return -1;
    return write_all(1, "\n", 1);
}

static int out_json(json_object *o)
{
    int rc = out_line(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));

    json_object_put(o);
    return rc;
}

/* Reads one line from stdin into a static buffer; NULL at EOF. */
static char *read_line(void)
{
    static char buf[HOSTILE_MAX_LINE];
    static size_t have, start;
    char *nl;

    for (;;) {
        ssize_t n;
        nl = memchr(buf + start, '\n', have - start);
        if (nl != NULL) {
            char *line = buf + start;
            *nl = '\0';
            start = (size_t)(nl - buf) + 1;
            return line;
        }
        if (start > 0) {
            memmove(buf, buf + start, have - start);
            have -= start;
            start = 0;
        }
        if (have == sizeof(buf))
            have = 0; /* an overlong line: drop it */
        n = read(0, buf + have, sizeof(buf) - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return NULL;
        have += (size_t)n;
    }
}

/* The standard answer to req (a parsed request), or NULL for a notification. */
static json_object *answer_for(json_object *req)
{
    json_object *id, *method, *resp = json_object_new_object();
    const char *m;

    if (!json_object_object_get_ex(req, "id", &id) ||
        !json_object_object_get_ex(req, "method", &method)) {
        json_object_put(resp);
        return NULL;
    }
    m = json_object_get_string(method);
    json_object_object_add(resp, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(resp, "id", json_object_get(id));
    if (strcmp(m, "initialize") == 0) {
        json_object *params, *v, *result = json_object_new_object(),
                                 *info = json_object_new_object();
        const char *ver = "2025-06-18";
        if (json_object_object_get_ex(req, "params", &params) &&
            json_object_object_get_ex(params, "protocolVersion", &v) &&
            json_object_is_type(v, json_type_string))
            ver = json_object_get_string(v);
        json_object_object_add(result, "protocolVersion", json_object_new_string(ver));
        json_object_object_add(result, "capabilities", json_object_new_object());
        json_object_object_add(info, "name", json_object_new_string("mc-hostile"));
        json_object_object_add(info, "version", json_object_new_string("1.0"));
        json_object_object_add(result, "serverInfo", info);
        json_object_object_add(resp, "result", result);
    } else if (strcmp(m, "ping") == 0) {
        json_object_object_add(resp, "result", json_object_new_object());
    } else {
        json_object *err = json_object_new_object();
        json_object_object_add(err, "code", json_object_new_int(-32601));
        json_object_object_add(err, "message", json_object_new_string("Method not found"));
        json_object_object_add(resp, "error", err);
    }
    return resp;
}

/* A hook run on every line read before it is answered; returns 0 to go on. */
typedef int (*hook_fn)(json_object *req, const char *method, int is_request);

/* Serves until stdin ends, calling hook on every message. */
static void serve(hook_fn hook)
{
    char *line;

    while ((line = read_line()) != NULL) {
        json_object *req = json_tokener_parse(line), *method, *resp;
        int is_request;
        if (req == NULL || !json_object_is_type(req, json_type_object)) {
            json_object_put(req);
            continue;
        }
        if (!json_object_object_get_ex(req, "method", &method)) {
            json_object_put(req); /* a response to one of our requests */
            continue;
        }
        is_request = json_object_object_get_ex(req, "id", NULL);
        if (hook != NULL && hook(req, json_object_get_string(method), is_request) != 0) {
            json_object_put(req);
            return;
        }
        resp = answer_for(req);
        if (resp != NULL && out_json(resp) != 0) {
            json_object_put(req);
            return;
        }
        json_object_put(req);
    }
}

/* Serves initialize only, then returns (the rest is up to the mode). */
static int serve_initialize(void)
{
    char *line;

    while ((line = read_line()) != NULL) {
        json_object *req = json_tokener_parse(line), *resp;
        if (req == NULL)
            continue;
        resp = answer_for(req);
        json_object_put(req);
        if (resp != NULL) {
            out_json(resp);
            return 0;
        }
    }
    return -1;
}

/* --- modes -------------------------------------------------------------- */

static int mode_exit_now(void)
{
    return 0;
}

/* Answers initialize; dies by SIGSEGV on the next message. */
static int hook_signal(json_object *req, const char *method, int is_request)
{
    (void)req;
    (void)is_request;
    if (strcmp(method, "initialize") == 0)
        return 0;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 1;
}

/* Reads everything, writes nothing, until killed. */
static int mode_silent(void)
{
    while (read_line() != NULL)
        ;
    idle_forever();
}

static int mode_banner(void)
{
    out_line("mc-hostile 1.0 ready; listening on stdio");
    serve(NULL);
    return 0;
}

/* Answers initialize with 100 MB and no newline, then idles. */
static int mode_no_newline(void)
{
    static char block[64 * 1024];
    int i;

    if (read_line() == NULL)
        return 1;
    memset(block, 'x', sizeof(block));
    for (i = 0; i < 1600; i++)
        if (write_all(1, block, sizeof(block)) != 0)
            return 0;
    idle_forever();
}

/* After initialize, writes valid log notifications forever, never reading. */
static int mode_flood(void)
{
    static const char note[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                               "\"params\":{\"level\":\"info\",\"data\":\"flood\"}}\n";
    static char block[64 * 1024];
    size_t k = 0, per = sizeof(note) - 1;

    if (serve_initialize() != 0)
        return 1;
    while (k + per <= sizeof(block)) {
        memcpy(block + k, note, per);
        k += per;
    }
    for (;;)
        if (write_all(1, block, k) != 0)
            return 0;
}

/* Answers each request after initialize with an unknown id, then twice. */
static int hook_bad_ids(json_object *req, const char *method, int is_request)
{
    json_object *resp;

    if (!is_request || strcmp(method, "initialize") == 0)
        return 0;
    out_line("{\"jsonrpc\":\"2.0\",\"id\":\"mc-hostile-unknown\",\"result\":{}}");
    resp = answer_for(req);
    if (resp != NULL)
        out_json(resp); /* the right answer ... */
    return 0;           /* ... and serve() sends it a second time */
}

/* Answers every notification with a result that has a null id. */
static int hook_answer_notes(json_object *req, const char *method, int is_request)
{
    (void)req;
    (void)method;
    if (!is_request)
        out_line("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}");
    return 0;
}

/* Serves, but neither stdin EOF nor SIGTERM ends it. */
static int mode_ignore_shutdown(void)
{
    signal(SIGTERM, SIG_IGN);
    serve(NULL);
    idle_forever();
}

/* A child (same group) keeps stdout open forever; the server exits after
 * answering initialize. */
static int mode_descendant_stdout(void)
{
    pid_t pid = fork();

    if (pid == 0) {
        record_pid();
        close(0);
        for (;;)
            pause();
    }
    if (serve_initialize() != 0)
        return 1;
    read_line(); /* notifications/initialized */
    return 0;
}

/* A grandchild leaves the process group and the session (setsid) and holds
 * nothing of ours; the server then serves normally. */
static int mode_setsid_grandchild(void)
{
    pid_t pid = fork();

    if (pid == 0) {
        if (fork() == 0) {
            int fd;
            setsid();
            record_pid();
            fd = open("/dev/null", O_RDWR);
            if (fd >= 0) {
                dup2(fd, 0);
                dup2(fd, 1);
                dup2(fd, 2);
            }
            signal(SIGTERM, SIG_IGN);
            signal(SIGHUP, SIG_IGN);
            for (;;)
                pause();
        }
        _exit(0);
    }
    serve(NULL);
    return 0;
}

/* Before each answer: a line with a raw NUL and one with invalid UTF-8. */
static int hook_nul_utf8(json_object *req, const char *method, int is_request)
{
    static const char nul[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                              "\"params\":{\"level\":\"info\",\"data\":\"a\0b\"}}\n";
    static const char bad[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                              "\"params\":{\"level\":\"info\",\"data\":\"\xff\xfe\xc3\"}}\n";

    (void)req;
    if (!is_request || strcmp(method, "initialize") == 0)
        return 0;
    write_all(1, nul, sizeof(nul) - 1);
    write_all(1, bad, sizeof(bad) - 1);
    return 0;
}

/* Before each answer: 100k-deep nesting on one line. */
static int hook_deep(json_object *req, const char *method, int is_request)
{
    static char line[200002];

    (void)req;
    if (!is_request || strcmp(method, "initialize") == 0)
        return 0;
    memset(line, '[', 100000);
    memset(line + 100000, ']', 100000);
    line[200000] = '\n';
    write_all(1, line, 200001);
    return 0;
}

/* Before each answer: a valid 50 MB notification on one line. */
static int hook_big_line(json_object *req, const char *method, int is_request)
{
    static char block[64 * 1024];
    static const char head[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                               "\"params\":{\"level\":\"info\",\"data\":\"";
    int i;

    (void)req;
    if (!is_request || strcmp(method, "initialize") == 0)
        return 0;
    memset(block, 'y', sizeof(block));
    write_all(1, head, sizeof(head) - 1);
    for (i = 0; i < 800; i++)
        write_all(1, block, sizeof(block));
    write_all(1, "\"}}\n", 4);
    return 0;
}

/* Before each answer: a response and a request whose ids are beyond 2^64. */
static int hook_huge_ids(json_object *req, const char *method, int is_request)
{
    (void)req;
    if (!is_request || strcmp(method, "initialize") == 0)
        return 0;
    out_line("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551618,\"result\":{}}");
    out_line("{\"jsonrpc\":\"2.0\",\"id\":1e400,\"result\":{}}");
    return 0;
}

/* Answers initialize one byte every 50 ms; then idles. */
static int mode_drip(void)
{
    char *line = read_line();
    json_object *req, *resp;
    const char *s;

    if (line == NULL)
        return 1;
    req = json_tokener_parse(line);
    resp = req != NULL ? answer_for(req) : NULL;
    json_object_put(req);
    if (resp == NULL)
        return 1;
    for (s = json_object_to_json_string_ext(resp, JSON_C_TO_STRING_PLAIN); *s != '\0'; s++) {
        if (write_all(1, s, 1) != 0)
            break;
        sleep_ms(50);
    }
    write_all(1, "\n", 1);
    json_object_put(resp);
    idle_forever();
}

/* Answers initialize, then closes stdout and stays alive (ignoring EOF). */
static int mode_close_stdout(void)
{
    if (serve_initialize() != 0)
        return 1;
    close(1);
    while (read_line() != NULL)
        ;
    idle_forever();
}

/* Writes 50 MB to stderr first, then serves. */
static int mode_stderr_flood(void)
{
    static char block[64 * 1024];
    int i;

    memset(block, 'e', sizeof(block));
    block[sizeof(block) - 1] = '\n';
    for (i = 0; i < 800; i++)
        if (write_all(2, block, sizeof(block)) != 0)
            break;
    serve(NULL);
    return 0;
}

/* After the handshake, asks the client for what it did not declare, and
 * reuses one request id. */
static int hook_undeclared(json_object *req, const char *method, int is_request)
{
    (void)req;
    (void)is_request;
    if (strcmp(method, "notifications/initialized") != 0)
        return 0;
    out_line("{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"sampling/createMessage\","
             "\"params\":{\"messages\":[],\"maxTokens\":1}}");
    out_line("{\"jsonrpc\":\"2.0\",\"id\":\"srv-2\",\"method\":\"roots/list\"}");
    out_line("{\"jsonrpc\":\"2.0\",\"id\":\"srv-3\",\"method\":\"elicitation/create\","
             "\"params\":{\"message\":\"?\",\"requestedSchema\":{\"type\":\"object\","
             "\"properties\":{}}}}");
    out_line("{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}");
    return 0;
}

/* Keeps forking short-lived children that fork again (a busy tree). */
static int mode_fork_tree(void)
{
    pid_t pid = fork();

    if (pid == 0) {
        for (;;) {
            pid_t c = fork();
            if (c == 0) {
                record_pid();
                sleep_ms(20);
                continue; /* the child becomes the next forker */
            }
            if (c > 0)
                _exit(0);
            sleep_ms(20);
        }
    }
    serve(NULL);
    return 0;
}

static int mode_serve(void)
{
    serve(NULL);
    return 0;
}

typedef struct mode {
    const char *name;
    int (*run)(void);
    hook_fn hook;
    const char *what;
} mode_t_;

static const mode_t_ MODES[] = {
    {"serve", mode_serve, NULL, "a minimal conforming server"},
    {"exit-now", mode_exit_now, NULL, "exits at once with status 0"},
    {"signal-after-init", NULL, hook_signal, "dies by SIGSEGV after answering initialize"},
    {"silent", mode_silent, NULL, "reads, never writes"},
    {"banner", mode_banner, NULL, "prints a banner line on stdout, then serves"},
    {"no-newline", mode_no_newline, NULL, "answers initialize with 100 MB and no newline"},
    {"flood", mode_flood, NULL, "floods log notifications after initialize, never reads"},
    {"bad-ids", NULL, hook_bad_ids, "unknown ids and duplicate answers"},
    {"answer-notifications", NULL, hook_answer_notes, "answers notifications (null id)"},
    {"ignore-shutdown", mode_ignore_shutdown, NULL, "ignores stdin EOF and SIGTERM"},
    {"descendant-stdout", mode_descendant_stdout, NULL,
     "exits after initialize; a child holds stdout open"},
    {"setsid-grandchild", mode_setsid_grandchild, NULL, "leaves a setsid grandchild running"},
    {"nul-utf8", NULL, hook_nul_utf8, "lines with a raw NUL and invalid UTF-8"},
    {"deep", NULL, hook_deep, "100k-deep nesting"},
    {"big-line", NULL, hook_big_line, "a valid 50 MB line"},
    {"huge-ids", NULL, hook_huge_ids, "ids beyond 2^64 and 1e400"},
    {"drip", mode_drip, NULL, "answers initialize one byte every 50 ms"},
    {"close-stdout", mode_close_stdout, NULL, "closes stdout after initialize, stays alive"},
    {"stderr-flood", mode_stderr_flood, NULL, "50 MB on stderr, then serves"},
    {"undeclared", NULL, hook_undeclared, "requests undeclared client capabilities, reuses an id"},
    {"fork-tree", mode_fork_tree, NULL, "a tree that keeps forking"},
};

int main(int argc, char **argv)
{
    size_t i;

    signal(SIGPIPE, SIG_IGN);
    record_pid();
    if (argc < 2) {
        fprintf(stderr, "usage: mc-hostile MODE\nmodes:\n");
        for (i = 0; i < sizeof(MODES) / sizeof(MODES[0]); i++)
            fprintf(stderr, "  %-22s %s\n", MODES[i].name, MODES[i].what);
        return 2;
    }
    for (i = 0; i < sizeof(MODES) / sizeof(MODES[0]); i++) {
        if (strcmp(argv[1], MODES[i].name) != 0)
            continue;
        if (MODES[i].run != NULL)
            return MODES[i].run();
        serve(MODES[i].hook);
        return 0;
    }
    fprintf(stderr, "mc-hostile: unknown mode %s\n", argv[1]);
    return 2;
}
