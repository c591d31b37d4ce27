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

/* ---- scripted sessions ---- */

#define INIT(id, ver, caps)                                                                        \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"initialize\",\"params\":{"                  \
    "\"protocolVersion\":\"" ver "\",\"capabilities\":" caps ",\"clientInfo\":{\"name\":"          \
    "\"stdio-test\",\"version\":\"1\"}}}\n"                                                        \
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
#define REQ(id, m, p) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"" m "\",\"params\":" p "}\n"
#define CALL(id, tool, args)                                                                       \
    REQ(id, "tools/call", "{\"name\":\"" tool "\",\"arguments\":" args "}")
#define ANSWER(id, result) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":" result "}\n"

/* The full session: 2025-11-25 with every client capability. The server's
 * requests get ids 1.. in order; the answers follow their tool calls. */
static const char session_full[] =
    "{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"ping\"}\n" INIT(
        101, "2025-11-25",
        "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{}}")
    "{\"jsonrpc\":\"2.0\",\"id\":102,\"method\":\"ping\"}\n" REQ(103, "resources/list", "{}")
    REQ(104, "resources/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    REQ(105, "resources/templates/list", "{}") REQ(106, "prompts/list", "{}")
    REQ(107, "tools/list", "{}") REQ(108, "prompts/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    REQ(154, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(155, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(109, "tools/list", "{\"cursor\":\"garbage\"}")
    REQ(110, "resources/read", "{\"uri\":\"test://static-text\"}")
    REQ(111, "resources/read", "{\"uri\":\"test://static-binary\"}")
    REQ(112, "resources/read", "{\"uri\":\"test://template/123/data\"}")
    REQ(113, "resources/read", "{\"uri\":\"test://nope\"}")
    REQ(190, "resources/read", "{\"uri\":\"not a URI\"}")
    CALL(191, "TEST_SIMPLE_TEXT", "{}")
    CALL(114, "test_trigger_resource_update", "{}")
    REQ(115, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(116, "test_trigger_resource_update", "{}")
    REQ(117, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(118, "test_trigger_resource_update", "{}")
    REQ(156, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(157, "test_trigger_resource_update", "{}")
    REQ(158, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}")
    CALL(119, "test_trigger_resource_list_change", "{}")
    CALL(120, "test_trigger_prompt_change", "{}") CALL(121, "test_trigger_tool_change", "{}")
    REQ(122, "prompts/get", "{\"name\":\"test_simple_prompt\"}")
    REQ(123, "prompts/get",
        "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\",\"arg2\":\"b\"}}")
    REQ(124, "prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{}}")
    REQ(159, "prompts/get",
        "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\"}}")
    REQ(125, "prompts/get", "{\"name\":\"nope\"}")
    REQ(126, "prompts/get", "{\"name\":\"test_prompt_with_image\"}")
    REQ(127, "prompts/get",
        "{\"name\":\"test_prompt_with_embedded_resource\",\"arguments\":{\"resourceUri\":"
        "\"test://x\"}}") CALL(128, "test_simple_text", "{}") CALL(129, "test_image_content", "{}")
    CALL(130, "test_audio_content", "{}") CALL(131, "test_embedded_resource", "{}")
    CALL(132, "test_multiple_content_types", "{}") CALL(133, "test_error_handling", "{}")
    CALL(134, "no_such_tool", "{}") CALL(135, "test_resource_link", "{}")
    CALL(136, "test_structured_content", "{}")
    REQ(137, "logging/setLevel", "{\"level\":\"warning\"}")
    CALL(138, "test_logging_levels", "{}") REQ(139, "logging/setLevel", "{\"level\":\"loud\"}")
    REQ(140, "logging/setLevel", "{\"level\":\"debug\"}") CALL(141, "test_tool_with_logging", "{}")
    REQ(142, "tools/call",
        "{\"name\":\"test_tool_with_progress\",\"_meta\":{\"progressToken\":\"p\"}}")
    CALL(143, "test_elicitation", "{\"message\":\"Who are you?\"}")
    ANSWER(1, "{\"action\":\"accept\",\"content\":{\"username\":\"u\",\"email\":\"u@example.com\"}}")
    CALL(144, "test_elicitation_sep1034_defaults", "{}") ANSWER(2, "{\"action\":\"decline\"}")
    CALL(145, "test_elicitation_sep1330_enums", "{}") ANSWER(3, "{\"action\":\"cancel\"}")
    CALL(146, "test_elicitation_sep1036_url", "{}") ANSWER(4, "{\"action\":\"accept\"}")
    CALL(147, "test_elicitation_sep1036_error", "{}")
    CALL(148, "test_elicitation_sep1036_complete", "{}") ANSWER(5, "{\"action\":\"accept\"}")
    CALL(149, "test_sampling", "{\"prompt\":\"hi\"}")
    ANSWER(6, "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hello\"},"
              "\"model\":\"m\"}") CALL(150, "test_list_roots", "{}")
    ANSWER(7, "{\"roots\":[{\"uri\":\"file:///tmp\"}]}") CALL(192, "test_sampling_pair", "{}")
    ANSWER(9, "{}") ANSWER(8, "{}") REQ(151, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg1\",\"value\":\"a\"}}")
    REQ(152, "completion/complete",
        "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"test://template/{id}/data\"},"
        "\"argument\":{\"name\":\"id\",\"value\":\"\"}}")
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":153,\"method\":\"ping\"}\n";

/* 2025-06-18 without client capabilities: gating, lists, cursor misuse. */
static const char session_plain[] =
    INIT(1, "2025-06-18", "{}") REQ(2, "tools/list", "{}")
    REQ(3, "prompts/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(4, "tools/list", "{\"cursor\":\"UgQAAAAAAAO7cYPc\"}")
    REQ(5, "tools/list", "{\"cursor\":\"UgQAAAAAAAa9jRYp\"}") CALL(6, "test_elicitation",
                                                                   "{\"message\":\"m\"}")
    CALL(7, "test_sampling", "{\"prompt\":\"p\"}") CALL(8, "test_list_roots", "{}")
    REQ(9, "resources/templates/list", "{\"cursor\":\"UgIAAAAAAAOFcVxG\"}")
    REQ(10, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"t\"}}")
    /* typed further twice: narrowed, then narrowed again */
    REQ(101, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"tw\"}}")
    REQ(102, "completion/complete",
        "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":"
        "{\"name\":\"arg2\",\"value\":\"twe\"}}") REQ(11, "resources/list", "{}")
    REQ(12, "resources/list", "{\"cursor\":\"UgEAAAAAAAO3xrYb\"}")
    CALL(13, "test_elicitation_sep1036_url", "{}");

/* An unsupported version, garbage and requests before initialize. */
static const char session_hostile[] =
    REQ(1, "tools/list", "{}") "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n"
    "this is not json\n"
    "{\"id\":3,\"method\":\"ping\"}\n"
    "{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}\n" INIT(5, "1999-01-01", "{}")
    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such\"}\n"
    "[1,2,3]\n"
    "\n"
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\r\n";

/* Older versions, a form-only client, roots requested before initialized. */
static const char session_old[] =
    INIT(1, "2025-03-26", "{\"roots\":{},\"sampling\":{}}") REQ(2, "prompts/get",
                                                               "{\"name\":\"test_prompt_with_audio\"}")
    CALL(3, "test_audio_content", "{}") CALL(4, "test_list_roots", "{}")
    ANSWER(2, "{\"roots\":[]}") ANSWER(1, "{\"roots\":[]}")
    "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}]\n";

static const char session_2024[] = INIT(1, "2024-11-05", "{}") REQ(2, "resources/list", "{}")
    REQ(3, "tools/list", "{}") REQ(4, "prompts/list", "{}");

static const char session_form_only[] =
    INIT(1, "2025-11-25", "{\"elicitation\":{}}") CALL(2, "test_elicitation_sep1036_url", "{}")
    ANSWER(1, "{\"action\":\"accept\"}") CALL(3, "test_elicitation", "{\"message\":\"m\"}")
    ANSWER(1, "{\"action\":\"accept\",\"content\":{}}") ANSWER(2, "{\"action\":\"accept\"}");

static const char session_cancel[] =
    INIT(1, "2025-06-18", "{}") REQ(2, "tools/call",
                                    "{\"name\":\"test_tool_with_progress\",\"_meta\":{"
                                    "\"progressToken\":9}}")
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n";

/* The stateless protocol (2026-07-28): no initialize, _meta on every request. */
#define MODERN_META(caps, extra)                                                                 \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","               \
    "\"io.modelcontextprotocol/clientCapabilities\":" caps extra "}"
#define MREQ(id, method, caps, extra, params)                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"" method "\",\"params\":{"         \
    MODERN_META(caps, extra) params "}}\n"
static const char session_stateless[] =
    /* A request before server/discover is served all the same. */
    MREQ(12, "tools/list", "{}", "", "")
    MREQ(1, "server/discover", "{}", "", "")
    MREQ(2, "subscriptions/listen", "{}", "", ",\"notifications\":{\"toolsListChanged\":true}")
    MREQ(3, "tools/call", "{}", "", ",\"name\":\"test_trigger_prompt_change\"")
    MREQ(4, "tools/call", "{}", "", ",\"name\":\"test_tool_with_logging\"")
    MREQ(5, "resources/read", "{}", "", ",\"uri\":\"mcpcheck-missing://x\"")
    MREQ(6, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"}")
    MREQ(7, "tools/list", "{}", "", "")
    /* The page that lists test_header_param (the x-mcp-header switches). */
    MREQ(12, "tools/list", "{}", "", ",\"cursor\":\"UgQAAAAAABWpcWeG\"")
    MREQ(8, "tools/call", "{}", ",\"io.modelcontextprotocol/logLevel\":\"info\"",
         ",\"name\":\"test_simple_text\"")
    MREQ(10, "mcpcheck/no-such-method", "{}", "", "")
    /* Retries whose inputResponses lack the input, hold an unknown key, are no object. */
    MREQ(13, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},\"inputResponses\":{}")
    MREQ(14, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},"
         "\"inputResponses\":{\"mcpcheck\":{\"action\":\"decline\"}}")
    MREQ(15, "tools/call", "{\"elicitation\":{}}", "",
         ",\"name\":\"test_elicitation\",\"arguments\":{\"message\":\"m\"},\"inputResponses\":\"x\"")
    /* A log level that is none: refused with -32602. */
    MREQ(11, "tools/list", "{}", ",\"io.modelcontextprotocol/logLevel\":\"verbose\"", "")
    /* A version no server speaks: -32022 listing what server/discover lists. */
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
    "\"io.modelcontextprotocol/protocolVersion\":\"1900-01-01\","
    "\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n";

/* Tasks (2025-11-25): three tasks (their ids are the server's deterministic
 * ones), polled, listed, a result retrieved, cancellations, an unknown task,
 * task augmentation of a tool that forbids it and of a request type nobody
 * declares, a plain call of a tool that requires it, and a fourth task that
 * fails with a JSON-RPC error. The first task reports progress under its
 * call's token when its result is asked for; a fifth needs the client's
 * input, which it asks for (elicitation/create) on tasks/result. */
#define TASK1 "\"task-1-e2d763a5\""
#define TASK2 "\"task-2-e2b5316a\""
#define TASK3 "\"task-3-fadf2c9b\""
static const char session_tasks[] =
    INIT(300, "2025-11-25", "{\"elicitation\":{}}")
    REQ(301, "tools/call",
        "{\"name\":\"test_task_tool\",\"task\":{\"ttl\":5000},\"_meta\":{\"progressToken\":7}}")
    REQ(302, "tools/call", "{\"name\":\"test_task_tool\",\"task\":{}}")
    REQ(303, "tools/call", "{\"name\":\"test_task_held\",\"task\":{}}")
    REQ(304, "tasks/get",
        "{\"taskId\":" TASK1 ",\"_meta\":{\"io.modelcontextprotocol/related-task\":{"
        "\"taskId\":" TASK2 "}}}")
    REQ(305, "tasks/list", "{}") REQ(306, "tasks/result", "{\"taskId\":" TASK1 "}")
    REQ(307, "tasks/cancel", "{\"taskId\":" TASK1 "}")
    REQ(308, "tasks/result", "{\"taskId\":" TASK3 "}")
    REQ(309, "tasks/cancel", "{\"taskId\":" TASK3 "}")
    REQ(310, "tasks/get", "{\"taskId\":" TASK3 "}")
    REQ(311, "tasks/get", "{\"taskId\":\"nope\"}")
    REQ(312, "tools/call", "{\"name\":\"test_simple_text\",\"task\":{}}")
    CALL(313, "test_task_held", "{}") REQ(314, "tools/list", "{\"task\":{}}")
    REQ(315, "tools/call", "{\"name\":\"test_task_failing\",\"task\":{}}")
    REQ(316, "tasks/result", "{\"taskId\":\"task-4-92d260a8\"}")
    REQ(317, "tasks/get", "{\"taskId\":\"task-4-92d260a8\"}")
    REQ(318, "tasks/get", "{\"taskId\":" TASK1 "}")
    REQ(319, "tools/call", "{\"name\":\"test_task_elicit\",\"task\":{}}")
    REQ(320, "tasks/result", "{\"taskId\":\"task-5-72d315b1\"}");

typedef struct session {
    const char *name;
    const char *script;
    const char *step_delay; /* --step-delay value */
} session_t;

static const session_t sessions[] = {
    {"full", session_full, "0"},       {"plain", session_plain, "0"},
    {"hostile", session_hostile, "0"}, {"old", session_old, "0"},
    {"2024", session_2024, "0"},       {"form-only", session_form_only, "0"},
    {"cancel", session_cancel, "30"},  {"stateless", session_stateless, "0"},
    {"tasks", session_tasks, "0"},
};
#define NSESSIONS (sizeof(sessions) / sizeof(sessions[0]))

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
