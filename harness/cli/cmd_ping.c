/*
 * cmd_ping.c - `mcpcheck ping`: initialize a server, ping it, report.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "client/session.h"
#include "client/target.h"
#include "cli/ping_http.h"
#include "core/version.h"

/* The longest --timeout and --startup-timeout: an hour, in milliseconds. */
#define MC_PING_MAX_TIMEOUT_MS 3600000L

/* What the command line asks of `mcpcheck ping`. */
typedef struct ping_opts {
    long timeout, startup;
    const char *version, *url;
    int allow_remote;
    char **cmd;
} ping_opts_t;

#define T ping_opts_t
static const mc_opt_t ping_opts[] = {
    MC_OPTION_LONG(T, timeout, "timeout", 0, "MS", 1, MC_PING_MAX_TIMEOUT_MS,
                   "how long to wait for the answer to ping (default " MC_OPTS_STR(
                       MC_DEFAULT_REQUEST_TIMEOUT_MS) ")"),
    MC_OPTION_LONG(T, startup, "startup-timeout", 0, "MS", 1, MC_PING_MAX_TIMEOUT_MS,
                   "how long the server may take to start and answer initialize (default " MC_OPTS_STR(
                       MC_DEFAULT_STARTUP_TIMEOUT_MS) ")"),
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version,
                      mc_cli_hint_versions,
                      "protocol version to request (default " MC_CLI_DEFAULT_VERSION ");"),
    MC_OPTION_STRING(T, url, "url", 0, "URL",
                     "over Streamable HTTP at URL (http://HOST:PORT/PATH), a running server, "
                     "or SERVER_CMD started for it (port 0: the port it prints); the session "
                     "ends with DELETE"),
    MC_OPTION_FLAG(T, allow_remote, "allow-remote", 0,
                   "allow a --url host that is not a loopback address"),
    MC_OPTION_END,
};

static const mc_opts_spec_t ping_spec = {
    .prog = "mcpcheck ping",
    .synopsis = "mcpcheck ping [options] -- SERVER_CMD [ARGS...]\n"
                "       mcpcheck ping [options] --url URL [-- SERVER_CMD [ARGS...]]\n",
    .about = "Starts SERVER_CMD (no shell is involved), runs the MCP handshake over stdio\n"
             "(initialize, then notifications/initialized), sends one ping, prints the\n"
             "negotiated protocol version, the server's name and version and the ping's\n"
             "round-trip time, then shuts the server down (close stdin, SIGTERM, SIGKILL).\n",
    .epilogue = "Exit codes: 0 the server answered both; 2 usage error; 3 the server could not\n"
                "be started, died, answered with an error, or stayed silent past the timeout.\n"
                "\n"
                "Examples:\n"
                "  mcpcheck ping -- build/bin/mcpcheck-refserver\n"
                "  mcpcheck ping --spec-version " MC_VERSION_NEWEST_HANDSHAKE
                " -- \\\n"
                "      npx -y @modelcontextprotocol/server-everything\n",
    .opts = ping_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

static int64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Prints what the session's judge found, as notes: one line per check,
 * with the first finding and how many there were. */
static void print_findings(const mc_session_t *s)
{
    const mc_wire_t *w = &s->judge->w;
    size_t i, k;

    for (i = 0; i < w->n_findings; i++) {
        size_t count = 0;
        int first = 1;
        for (k = 0; k < w->n_findings; k++) {
            if (strcmp(w->findings[k].check, w->findings[i].check) != 0)
                continue;
            if (k < i)
                first = 0;
            count++;
        }
        if (!first)
            continue;
        fprintf(stderr, "mcpcheck ping: note: %s (message %llu): %s", w->findings[i].check,
                (unsigned long long)w->findings[i].seq, w->findings[i].detail);
        if (count > 1)
            fprintf(stderr, " (%zu times)", count);
        fputc('\n', stderr);
    }
    if (w->findings_dropped > 0)
        fprintf(stderr, "mcpcheck ping: note: %llu more findings not shown\n",
                (unsigned long long)w->findings_dropped);
}

/* Prints the session's own notes (its limits, requests its responder does
 * not know): one line per kind, with the first occurrence and how many. */
static void print_events(const mc_session_t *s)
{
    size_t i, k;

    print_findings(s);

    for (i = 0; i < s->n_events; i++) {
        size_t count = 0;
        int first = 1;
        for (k = 0; k < s->n_events; k++) {
            if (s->events[k].kind != s->events[i].kind)
                continue;
            if (k < i)
                first = 0;
            count++;
        }
        if (!first)
            continue;
        fprintf(stderr, "mcpcheck ping: note: %s (stdout line %llu): %s",
                mc_event_kind_name(s->events[i].kind), (unsigned long long)s->events[i].seq,
                s->events[i].detail);
        if (count > 1)
            fprintf(stderr, " (%zu times)", count);
        fputc('\n', stderr);
    }
    if (s->notes_dropped > 1)
        fprintf(stderr, "mcpcheck ping: note: %llu notifications dropped in all\n",
                (unsigned long long)s->notes_dropped);
    if (s->events_dropped > 0)
        fprintf(stderr, "mcpcheck ping: note: %llu more anomalies not shown\n",
                (unsigned long long)s->events_dropped);
}

/* Explains why the target stopped answering, with its exit status if any. */
static void explain_failure(mc_target_t *t, int rc, const char *what, const mc_errbuf_t *eb)
{
    char why[400];

    if (mc_target_explain(t, rc, what, why, sizeof(why)))
        fprintf(stderr, "mcpcheck ping: %s\n", why);
    else
        fprintf(stderr, "mcpcheck ping: %s\n", eb->msg[0] ? eb->msg : mc_strerror(rc));
}

/* Reads the command line into o. Returns MC_OPTS_CONTINUE or the exit code
 * to return, having said why. */
static int ping_options(int argc, char **argv, ping_opts_t *o)
{
    int code;

    memset(o, 0, sizeof(*o));
    o->version = MC_CLI_DEFAULT_VERSION;
    o->timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS;
    o->startup = MC_DEFAULT_STARTUP_TIMEOUT_MS;
    code = mc_opts_parse(&ping_spec, o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (o->url == NULL && (o->cmd == NULL || o->cmd[0] == NULL))
        return mc_opts_fail(&ping_spec, "no server command; put it after '--' (see '%s --help')",
                            ping_spec.prog);
    return MC_OPTS_CONTINUE;
}

/* The handshake, then one ping, on a started target; prints the result.
 * Returns MC_EXIT_OK or MC_EXIT_INCOMPLETE (explained). */
static int handshake_and_ping(mc_target_t *t, mc_session_t *s, const ping_opts_t *o)
{
    mc_errbuf_t eb;
    mc_msg_t resp;
    int64_t t0, t1;
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc_session_initialize(s, o->version, NULL, (int)o->startup, &eb);
    if (rc != MC_OK) {
        explain_failure(t, rc, "initialize", &eb);
        return MC_EXIT_INCOMPLETE;
    }
    t0 = now_us();
    rc = mc_session_request(s, "ping", NULL, (int)o->timeout, &resp);
    t1 = now_us() - t0;
    if (rc != MC_OK) {
        mc_errbuf_clear(&eb);
        if (rc == MC_ETIMEOUT)
            mc_errbuf_set(&eb, rc, "no answer to ping within %ld ms", o->timeout);
        else if (rc == MC_EFLOOD)
            mc_errbuf_set(&eb, rc, "the server flooded the client: %s", s->flood_desc);
        else if (rc == MC_ETOOBIG)
            mc_errbuf_set(&eb, rc, "the server wrote a line over the %u-byte message limit "
                                   "instead of answering ping", MC_MAX_MESSAGE_SIZE);
        explain_failure(t, rc, "ping", &eb);
        return MC_EXIT_INCOMPLETE;
    }
    if (resp.kind == MC_MSG_ERROR) {
        fprintf(stderr, "mcpcheck ping: ping failed with error %lld: %s\n",
                (long long)resp.error_code, resp.error_message);
        mc_msg_free(&resp);
        return MC_EXIT_INCOMPLETE;
    }
    mc_msg_free(&resp);
    printf("protocol version: %s%s\n", s->negotiated_version,
           s->counter_offer ? " (counter-offered by the server)" : "");
    printf("server: %s %s\n", s->server_name ? s->server_name : "(no name)",
           s->server_version ? s->server_version : "(no version)");
    printf("ping round trip: %.3f ms\n", (double)t1 / 1000.0);
    return MC_EXIT_OK;
}

int mc_cmd_ping(int argc, char **argv)
{
    mc_target_opts_t topts;
    mc_target_t *t;
    mc_session_t s;
    mc_session_opts_t so;
    mc_errbuf_t eb;
    ping_opts_t o;
    int how, exit_code;

    exit_code = ping_options(argc, argv, &o);
    if (exit_code != MC_OPTS_CONTINUE)
        return exit_code;
    if (o.url != NULL)
        return mc_cli_ping_http(o.url, o.cmd, o.allow_remote, o.version, o.timeout);
    memset(&topts, 0, sizeof(topts));
    topts.argv = o.cmd;
    mc_errbuf_clear(&eb);
    if (mc_cli_target_open(&t, &topts, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: %s\n", eb.msg);
        return MC_EXIT_INCOMPLETE;
    }
    memset(&so, 0, sizeof(so));
    /* The start-up budget is for starting: once the server has written a
     * line, the answer to initialize gets the --timeout of any answer. */
    so.answer_timeout_ms = (int)o.timeout;
    if (mc_session_init(&s, mc_target_link(t), &so) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: out of memory\n");
        mc_cli_target_stop(t);
        mc_target_free(t);
        return MC_EXIT_INCOMPLETE;
    }
    exit_code = handshake_and_ping(t, &s, &o);
    print_events(&s);
    mc_session_free(&s);
    how = mc_cli_target_stop(t);
    if (exit_code != MC_EXIT_OK) {
        if (how != 0) {
            char desc[160];
            mc_target_stop(t, desc, sizeof(desc));
            fprintf(stderr, "mcpcheck ping: stopped the server: %s\n", desc);
        }
        mc_cli_print_stderr_tail(t, "mcpcheck ping");
    }
    mc_target_free(t);
    return exit_code;
}
