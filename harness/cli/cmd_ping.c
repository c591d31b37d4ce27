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
#include "cli/util.h"
#include "client/session.h"
#include "client/stdio.h"
#include "cli/ping_http.h"
#include "core/version.h"

static void ping_usage(FILE *out)
{
    char known[128];

    fprintf(out,
            "usage: mcpcheck ping [--timeout MS] [--startup-timeout MS] [--spec-version V]\n"
            "                     -- SERVER_CMD [ARGS...]\n"
            "       mcpcheck ping [options] --url URL [--allow-remote] [-- SERVER_CMD [ARGS...]]\n"
            "\n"
            "Starts SERVER_CMD (no shell is involved), runs the MCP handshake over stdio\n"
            "(initialize, then notifications/initialized), sends one ping, prints the\n"
            "negotiated protocol version, the server's name and version and the ping's\n"
            "round-trip time, then shuts the server down (close stdin, SIGTERM, SIGKILL).\n"
            "\n"
            "Options:\n"
            "  --timeout MS        how long to wait for the answer to ping (default %d)\n"
            "  --startup-timeout MS  how long the server may take to start and answer\n"
            "                      initialize (default %d)\n"
            "  --spec-version V    protocol version to request (default %s);\n"
            "                      known: %s\n"
            "  --url URL           over Streamable HTTP at URL (http://HOST:PORT/PATH), a running\n"
            "                      server, or SERVER_CMD started for it (port 0: the port it\n"
            "                      prints); the session ends with DELETE\n"
            "  --allow-remote      allow a --url host that is not a loopback address\n"
            "  -h, --help          show this help\n"
            "\n"
            "Exit codes: 0 the server answered both; 2 usage error; 3 the server could not\n"
            "be started, died, answered with an error, or stayed silent past the timeout.\n"
            "\n"
            "Example:\n"
            "  mcpcheck ping -- build/bin/mcpcheck-refserver\n"
            "  mcpcheck ping --spec-version " MC_VERSION_NEWEST_HANDSHAKE
            " -- npx -y @modelcontextprotocol/server-everything\n",
            MC_DEFAULT_REQUEST_TIMEOUT_MS, MC_DEFAULT_STARTUP_TIMEOUT_MS, MC_CLI_DEFAULT_VERSION,
            mc_version_join(MC_VF_INITIALIZE, " ", known, sizeof(known)));
}

static int64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Prints the anomalies the session recorded, as notes: one line per kind,
 * with the first occurrence and how many there were. */
static void print_events(const mc_session_t *s)
{
    size_t i, k;

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
static void explain_failure(mc_stdio_t *t, int rc, const char *what, const mc_errbuf_t *eb,
                            uint64_t frames)
{
    char how[160];

    if (rc == MC_EEOF || t->stdin_broken || rc == MC_EEXITED) {
        mc_proc_wait(&t->proc, 2000);
        mc_proc_describe(&t->proc, how, sizeof(how));
        if (t->proc.reaped)
            fprintf(stderr, "mcpcheck ping: the server %s after %llu message%s, before it "
                            "answered %s%s\n",
                    how, (unsigned long long)frames, frames == 1 ? "" : "s", what,
                    t->target_exited ? " (a process it left behind still held its stdout)" : "");
        else
            fprintf(stderr, "mcpcheck ping: the server %s after %llu message%s, before it "
                            "answered %s, though its process is still running\n",
                    rc == MC_EEOF ? "closed its output" : "stopped reading its input",
                    (unsigned long long)frames, frames == 1 ? "" : "s", what);
    } else {
        fprintf(stderr, "mcpcheck ping: %s\n", eb->msg[0] ? eb->msg : mc_strerror(rc));
    }
}

int mc_cmd_ping(int argc, char **argv)
{
    mc_cli_target_opts_t topts;
    mc_stdio_t t;
    mc_session_t s;
    mc_session_opts_t so;
    mc_errbuf_t eb;
    mc_msg_t resp;
    int64_t t0, t1;
    int rc, i, how, exit_code = MC_EXIT_INCOMPLETE;
    const char *version = MC_CLI_DEFAULT_VERSION;
    long timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS, startup = MC_DEFAULT_STARTUP_TIMEOUT_MS;
    char **cmd = NULL;
    const char *url = NULL;
    int allow_remote = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            cmd = argv + i + 1;
            break;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            ping_usage(stdout);
            return MC_EXIT_OK;
        } else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            if (mc_cli_parse_long(argv[++i], 1, 3600000, &timeout) != 0) {
                fprintf(stderr, "mcpcheck ping: --timeout needs milliseconds (1..3600000)\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--startup-timeout") == 0 && i + 1 < argc) {
            if (mc_cli_parse_long(argv[++i], 1, 3600000, &startup) != 0) {
                fprintf(stderr,
                        "mcpcheck ping: --startup-timeout needs milliseconds (1..3600000)\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--url") == 0 && i + 1 < argc) {
            url = argv[++i];
        } else if (strcmp(argv[i], "--allow-remote") == 0) {
            allow_remote = 1;
        } else if (strcmp(argv[i], "--spec-version") == 0 && i + 1 < argc) {
            version = argv[++i];
            if (!mc_protocol_version_known(version)) {
                fprintf(stderr, "mcpcheck ping: unknown protocol version '%s'\n", version);
                return MC_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "mcpcheck ping: unexpected argument '%s'\n\n", argv[i]);
            ping_usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (url != NULL)
        return mc_cli_ping_http(url, cmd, allow_remote, version, timeout);
    if (cmd == NULL || cmd[0] == NULL) {
        fprintf(stderr, "mcpcheck ping: no server command; put it after '--'\n\n");
        ping_usage(stderr);
        return MC_EXIT_USAGE;
    }

    memset(&topts, 0, sizeof(topts));
    topts.argv = cmd;
    mc_errbuf_clear(&eb);
    rc = mc_cli_target_start(&t, &topts, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck ping: %s\n", eb.msg);
        return MC_EXIT_INCOMPLETE;
    }
    memset(&so, 0, sizeof(so));
    if (mc_session_init(&s, mc_stdio_link(&t), &so) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: out of memory\n");
        mc_cli_target_stop(&t);
        mc_stdio_free(&t);
        return MC_EXIT_INCOMPLETE;
    }

    rc = mc_session_initialize(&s, version, NULL, (int)startup, &eb);
    if (rc != MC_OK) {
        explain_failure(&t, rc, "initialize", &eb, t.frames);
        goto done;
    }
    t0 = now_us();
    rc = mc_session_request(&s, "ping", NULL, (int)timeout, &resp);
    t1 = now_us() - t0;
    if (rc != MC_OK) {
        mc_errbuf_clear(&eb);
        if (rc == MC_ETIMEOUT)
            mc_errbuf_set(&eb, rc, "no answer to ping within %ld ms", timeout);
        else if (rc == MC_EFLOOD)
            mc_errbuf_set(&eb, rc, "the server flooded the client: %s", s.flood_desc);
        else if (rc == MC_ETOOBIG)
            mc_errbuf_set(&eb, rc, "the server wrote a line over the %u-byte message limit "
                                   "instead of answering ping", MC_MAX_MESSAGE_SIZE);
        explain_failure(&t, rc, "ping", &eb, t.frames);
        goto done;
    }
    if (resp.kind == MC_MSG_ERROR) {
        fprintf(stderr, "mcpcheck ping: ping failed with error %lld: %s\n",
                (long long)resp.error_code, resp.error_message);
        mc_msg_free(&resp);
        goto done;
    }
    mc_msg_free(&resp);
    printf("protocol version: %s%s\n", s.negotiated_version,
           s.counter_offer ? " (counter-offered by the server)" : "");
    printf("server: %s %s\n", s.server_name ? s.server_name : "(no name)",
           s.server_version ? s.server_version : "(no version)");
    printf("ping round trip: %.3f ms\n", (double)t1 / 1000.0);
    exit_code = MC_EXIT_OK;
done:
    print_events(&s);
    mc_session_free(&s);
    how = mc_cli_target_stop(&t);
    if (exit_code != MC_EXIT_OK) {
        if (how != 0) {
            char desc[160];
            mc_proc_describe(&t.proc, desc, sizeof(desc));
            fprintf(stderr, "mcpcheck ping: stopped the server: %s\n", desc);
        }
        mc_cli_print_stderr_tail(&t.proc, "mcpcheck ping");
    }
    mc_stdio_free(&t);
    return exit_code;
}
