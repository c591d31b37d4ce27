/*
 * main.c - mcpcheck-refserver: the reference server over stdio.
 *
 * Reads newline-delimited JSON-RPC from stdin with the core framer, hands each
 * line to the handler library and writes its answers to stdout. Nothing but
 * protocol messages goes to stdout; diagnostics go to stderr. The process
 * exits when stdin closes (after finishing timed work that needs no answer
 * from the client) or on SIGTERM/SIGINT.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/frame.h"
#include "core/options.h"
#include "core/version.h"
#include "refserver/httpserve.h"
#include "refserver/limits.h"
#include "refserver/refserver.h"

/* Output is gathered while a read's worth of input is handled, then written
 * in one go; past this many bytes it is written at once. */
#define OUT_FLUSH_AT (256u * 1024u)

static volatile sig_atomic_t g_stop;
/* The self-pipe: a signal handler writes a byte to [1], and the poll loop
 * watches [0], so that a signal landing between the g_stop test and poll()
 * still ends the wait. -1 when not made (the HTTP server, which has its own
 * wait). */
static int g_wake[2] = {-1, -1};

typedef struct out_buf {
    char *data;
    size_t len, cap;
    int broken; /* stdout is gone (EPIPE or another write error) */
} out_buf_t;

typedef struct app {
    mc_refserver_t *rs;
    out_buf_t out;
    int fatal;
} app_t;

static void on_signal(int sig)
{
    int saved = errno;

    (void)sig;
    g_stop = 1;
    if (g_wake[1] >= 0)
        (void)!write(g_wake[1], "x", 1);
    errno = saved;
}

/* Makes the self-pipe, both ends non-blocking and close-on-exec. */
static void make_wake_pipe(void)
{
    int i;

    if (pipe(g_wake) != 0) {
        g_wake[0] = g_wake[1] = -1;
        return;
    }
    for (i = 0; i < 2; i++) {
        fcntl(g_wake[i], F_SETFL, fcntl(g_wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(g_wake[i], F_SETFD, FD_CLOEXEC);
    }
}

/* Writes all of buf to fd, retrying on EINTR. Returns 0 or -1. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void out_flush(out_buf_t *o)
{
    if (o->len > 0 && !o->broken && write_all(STDOUT_FILENO, o->data, o->len) != 0)
        o->broken = 1;
    o->len = 0;
}

/* The server's emit callback: buffers one line. */
static void on_emit(void *ctx, const char *line, size_t len)
{
    out_buf_t *o = &((app_t *)ctx)->out;

    if (o->len + len > OUT_FLUSH_AT)
        out_flush(o);
    if (len > OUT_FLUSH_AT) {
        if (!o->broken && write_all(STDOUT_FILENO, line, len) != 0)
            o->broken = 1;
        return;
    }
    if (o->cap < o->len + len) {
        size_t cap = OUT_FLUSH_AT + 1;
        char *nb = realloc(o->data, cap);
        if (nb == NULL) {
            out_flush(o);
            if (!o->broken && write_all(STDOUT_FILENO, line, len) != 0)
                o->broken = 1;
            return;
        }
        o->data = nb;
        o->cap = cap;
    }
    memcpy(o->data + o->len, line, len);
    o->len += len;
}

/* The framer's callback: one inbound line to the server. */
static int on_frame(void *ctx, const mc_frame_t *f)
{
    app_t *app = ctx;
    int rc = MC_OK;

    switch (f->kind) {
    case MC_FRAME_LINE:
    case MC_FRAME_TRUNCATED:
        rc = mc_refserver_handle(app->rs, f->data, f->len, mc_now_ms());
        break;
    case MC_FRAME_OVERSIZE:
        rc = mc_refserver_handle_oversize(app->rs, f->len, mc_now_ms());
        break;
    case MC_FRAME_EMPTY:
        break;
    }
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck-refserver: fatal: %s\n", mc_strerror(rc));
        app->fatal = 1;
        return 1;
    }
    return 0;
}

static void print_bug(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
}

/* Announces the bound address: the one line the harness reads for the port. */
static void print_listen(void *ctx, const char *url)
{
    (void)ctx;
    printf("mcpcheck-refserver: listening on %s\n", url);
    fflush(stdout);
}

/* Runs the poll loop until stdin closes, a signal arrives or stdout breaks. */
static int serve(app_t *app)
{
    mc_framer_t fr;
    char *buf = malloc(MC_READ_CHUNK);
    int eof = 0, exit_on_eof = 1;

    if (buf == NULL) {
        fprintf(stderr, "mcpcheck-refserver: out of memory\n");
        return 1;
    }
    mc_framer_init(&fr, 0);
    while (!g_stop && !app->fatal && !app->out.broken) {
        int64_t deadline = mc_refserver_next_deadline(app->rs);
        int timeout = -1, rc;
        struct pollfd pfd[2];

        out_flush(&app->out);
        if (deadline >= 0) {
            int64_t wait = deadline - mc_now_ms();
            timeout = wait < 0 ? 0 : wait > INT_MAX ? INT_MAX : (int)wait;
        }
        if (eof && deadline < 0 && exit_on_eof)
            break;
        /* The self-pipe first; stdin only until it ends (a negative fd is
         * skipped by poll). */
        pfd[0].fd = g_wake[0];
        pfd[0].events = POLLIN;
        pfd[0].revents = 0;
        pfd[1].fd = eof ? -1 : STDIN_FILENO;
        pfd[1].events = POLLIN;
        pfd[1].revents = 0;
        rc = poll(pfd, 2, timeout);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "mcpcheck-refserver: poll: %s\n", strerror(errno));
            break;
        }
        if (pfd[0].revents != 0)
            continue; /* a signal: g_stop is set */
        if (rc > 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(STDIN_FILENO, buf, MC_READ_CHUNK);
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0) {
                if (n < 0)
                    fprintf(stderr, "mcpcheck-refserver: read: %s\n", strerror(errno));
                mc_framer_finish(&fr, on_frame, app);
                exit_on_eof = mc_refserver_input_closed(app->rs);
                eof = 1;
            } else if (mc_framer_feed(&fr, buf, (size_t)n, on_frame, app, NULL) != MC_OK) {
                fprintf(stderr, "mcpcheck-refserver: out of memory while framing\n");
            }
        }
        if (!app->fatal && mc_refserver_tick(app->rs, mc_now_ms()) != MC_OK) {
            fprintf(stderr, "mcpcheck-refserver: fatal: out of memory\n");
            app->fatal = 1;
        }
    }
    out_flush(&app->out);
    mc_framer_free(&fr);
    free(buf);
    return app->fatal ? 1 : 0;
}

/* The command line, as the option table fills it. */
typedef struct cmdline {
    long page_size, extra_items, step_delay; /* -1: not given */
    const char *root, *inject;
    const char *http_addr; /* --http, or NULL */
    int sse_poll, modern_only, version, list_bugs, list_http_bugs;
    /* What the server is started with. */
    mc_refserver_opts_t opts;
    unsigned http_flags;
} cmdline_t;

#define T cmdline_t
static const mc_opt_t refserver_opts[] = {
    MC_OPTION_LONG(T, page_size, "page-size", 0, "N", 1, RS_MAX_PAGE_SIZE,
                   "items per list page (default " MC_OPTS_STR(RS_DEFAULT_PAGE_SIZE) ", at most "
                   MC_OPTS_STR(RS_MAX_PAGE_SIZE) "), so every fixture list spans several pages"),
    MC_OPTION_LONG(T, extra_items, "resources", 0, "N", 0, RS_MAX_EXTRA_ITEMS,
                   "add N synthetic resources, prompts and tools (load, pagination)"),
    MC_OPTION_STRING(T, root, "root", 0, "DIR",
                     "expose the regular files under DIR as file:// resources; URIs are "
                     "confined to DIR (no .., no symlinks out, no devices)"),
    MC_OPTION_STRING(T, inject, "inject", 0, "NAME",
                     "turn on one deliberate spec violation (see --list-bugs), to prove that a "
                     "harness check can fail"),
    MC_OPTION_LONG(T, step_delay, "step-delay", 0, "MS", 0, RS_MAX_STEP_DELAY_MS,
                   "delay between the steps of the logging and progress tools (default "
                   MC_OPTS_STR(RS_DEFAULT_STEP_MS) "; 0 runs every step at once)"),
    MC_OPTION_STRING(T, http_addr, "http", 0, "HOST:PORT",
                     "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST an "
                     "IPv4 address, 127.0.0.1 normally; PORT 0 picks a free port). Once "
                     "listening it prints one line on stdout: \"mcpcheck-refserver: listening "
                     "on http://HOST:PORT/mcp\" and it runs until SIGTERM or SIGINT. SSE events "
                     "carry ids unique in the session; GET with Last-Event-ID resumes a stream "
                     "(its later events are replayed, then it goes on). The HTTP+SSE transport "
                     "of 2024-11-05 is served on the same path: a GET without Mcp-Session-Id "
                     "and MCP-Protocol-Version opens its stream, whose endpoint event names "
                     "/mcp?sessionId=ID for the POSTs"),
    MC_OPTION_FLAG(T, sse_poll, "sse-poll", 0,
                   "with --http: from 2025-11-25, each SSE answer to a POST starts with a "
                   "priming event (id, retry, empty data) and its connection closes after what "
                   "is ready at once; "
                   "the client must resume the stream with GET and Last-Event-ID to get its "
                   "response"),
    MC_OPTION_FLAG(T, modern_only, "modern-only", 0,
                   "speak only the stateless protocol versions (no initialize handshake): initialize is "
                   "refused with an error that names them, and a request without the "
                   "per-request _meta is refused as that revision says"),
    MC_OPTION_FLAG(T, list_bugs, "list-bugs", 0,
                   "print the violation switches: NAME, level, rule, spec reference, the "
                   "protocol versions it concerns, the checks that must catch it and the scenarios "
                   "that exercise it (both comma-separated)"),
    MC_OPTION_FLAG(T, list_http_bugs, "list-http-bugs", 0,
                   "print the Streamable HTTP violation switches (need --http)"),
    MC_OPTION_FLAG(T, version, "version", 0, "print the version"),
    MC_OPTION_END,
};
#undef T

/* The --help text around the options; "%s" in ABOUT is the list of versions. */
#define ABOUT                                                                                      \
    "The reference MCP server of mcpcheck. It speaks MCP over stdio: one JSON-RPC\n"                \
    "message per line on stdin, answers on stdout, diagnostics only on stderr.\n"                  \
    "It negotiates protocol versions %s\n"                                                          \
    "and exits when stdin closes or on SIGTERM.\n"                                                  \
    "\n"                                                                                            \
    "It offers the fixtures of the official conformance suite (tools test_*,\n"                    \
    "resources test://static-text, test://static-binary, test://watched-resource,\n"               \
    "template test://template/{id}/data, prompts test_*), trigger tools that change\n"             \
    "lists and resources, and paginated lists with opaque cursors.\n"

static const mc_opts_spec_t refserver_spec = {
    .prog = "mcpcheck-refserver",
    .synopsis = "mcpcheck-refserver [--page-size N] [--resources N] [--root DIR]\n"
                "                          [--inject NAME] [--step-delay MS] [--http HOST:PORT]\n"
                "                          [--sse-poll] [--modern-only]\n"
                "       mcpcheck-refserver --list-bugs | --help | --version\n",
    .epilogue = "Examples:\n"
                "  mcpcheck run -- mcpcheck-refserver\n"
                "  mcpcheck run -- mcpcheck-refserver --inject cursor-repeat   # must fail\n"
                "  printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}' | "
                "mcpcheck-refserver\n",
    .opts = refserver_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = MC_OPTS_NONE,
};

/* Prints --help on f; the about text names the versions it negotiates. */
static void usage(FILE *f)
{
    char known[128], about[sizeof(ABOUT) + sizeof(known)];
    mc_opts_spec_t spec = refserver_spec;

    snprintf(about, sizeof(about), ABOUT,
             mc_version_join(MC_VF_INITIALIZE, ", ", known, sizeof(known)));
    spec.about = about;
    mc_opts_usage(f, &spec);
}

/* Reads the command line into cl. Returns -1 to go on, or the exit status
 * of a program that is done (0 after --help and the like, 2 on an error,
 * with its message written). */
static int parse_args(int argc, char **argv, cmdline_t *cl)
{
    char why[MC_OPTS_MAX_MESSAGE];

    cl->page_size = cl->extra_items = cl->step_delay = -1;
    switch (mc_opts_read(&refserver_spec, cl, argc, argv, why, sizeof(why))) {
    case MC_OPTS_OK:
        break;
    case MC_OPTS_HELP:
        usage(stdout);
        return 0;
    default:
        fprintf(stderr, "%s: %s\n", refserver_spec.prog, why);
        return 2;
    }
    if (cl->version) {
        char line[256], protocols[256];
        mc_build_version_line("mcpcheck-refserver", line, sizeof(line));
        mc_build_protocols(protocols, sizeof(protocols));
        printf("%s\nprotocol versions: %s\n", line, protocols);
        return 0;
    }
    if (cl->list_bugs) {
        mc_refserver_list_bugs(print_bug, NULL);
        return 0;
    }
    if (cl->list_http_bugs) {
        mc_refserver_http_list_bugs(print_bug, NULL);
        return 0;
    }
    if (cl->sse_poll && cl->http_addr == NULL) {
        fprintf(stderr, "mcpcheck-refserver: --sse-poll needs --http\n");
        return 2;
    }
    if (cl->sse_poll)
        cl->http_flags |= MC_REFSERVER_HTTP_SSE_POLL;
    if (cl->page_size >= 0)
        cl->opts.page_size = (int)cl->page_size;
    if (cl->extra_items >= 0)
        cl->opts.extra_items = (int)cl->extra_items;
    if (cl->step_delay >= 0)
        cl->opts.step_delay_ms = cl->step_delay == 0 ? -1 : (int)cl->step_delay;
    cl->opts.root = cl->root;
    cl->opts.inject = cl->inject;
    cl->opts.modern_only = cl->modern_only;
    return -1;
}

/* SIGTERM and SIGINT stop the server; SIGPIPE is ignored. */
static void install_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

/* Serves Streamable HTTP at cl->http_addr until a signal. Returns the exit
 * status. */
static int run_http(cmdline_t *cl, rs_http_bug_t http_bug, app_t *app)
{
    mc_refserver_t *probe;
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    /* Check the options once, as every session will use them. */
    probe = mc_refserver_new(&cl->opts, on_emit, app, &eb);
    if (probe == NULL) {
        fprintf(stderr, "mcpcheck-refserver: %s\n", eb.msg);
        return 2;
    }
    mc_refserver_free(probe);
    install_signals();
    mc_errbuf_clear(&eb);
    rc = mc_refserver_http_serve(&cl->opts, http_bug, cl->http_flags, cl->http_addr,
                                 (volatile int *)&g_stop, print_listen, NULL, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck-refserver: %s\n", eb.msg);
        return rc == MC_EINVAL ? 2 : 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    cmdline_t cl;
    mc_errbuf_t eb;
    app_t app;
    const char *banner;
    rs_http_bug_t http_bug;
    int rc;

    memset(&cl, 0, sizeof(cl));
    memset(&app, 0, sizeof(app));
    rc = parse_args(argc, argv, &cl);
    if (rc >= 0)
        return rc;
    http_bug = mc_refserver_http_bug(cl.opts.inject);
    if (http_bug != RS_HTTP_BUG_NONE) {
        if (cl.http_addr == NULL) {
            fprintf(stderr, "mcpcheck-refserver: --inject %s needs --http\n", cl.opts.inject);
            return 2;
        }
        cl.opts.inject = NULL;
    }
    if (cl.http_addr != NULL)
        return run_http(&cl, http_bug, &app);

    mc_errbuf_clear(&eb);
    app.rs = mc_refserver_new(&cl.opts, on_emit, &app, &eb);
    if (app.rs == NULL) {
        fprintf(stderr, "mcpcheck-refserver: %s\n", eb.msg);
        return 2;
    }
    make_wake_pipe();
    install_signals();

    banner = mc_refserver_banner(app.rs);
    if (banner != NULL)
        on_emit(&app, banner, strlen(banner));

    rc = serve(&app);
    mc_refserver_free(app.rs);
    free(app.out.data);
    return rc;
}
