#include "cli/util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/session.h"
#include "core/version.h"

int mc_cli_check_version(const char *value, char *why, size_t n)
{
    char known[160];

    if (mc_protocol_version_known(value))
        return 0;
    snprintf(why, n, "unknown protocol version '%s' (known: %s)", value,
             mc_version_join(0, ", ", known, sizeof(known)));
    return -1;
}

void mc_cli_hint_versions(char *buf, size_t n)
{
    char known[160];

    snprintf(buf, n, "known: %s", mc_version_join(0, ", ", known, sizeof(known)));
}

/* The running target's process group, for the signal handler. */
static volatile sig_atomic_t target_pgid;

static void on_fatal_signal(int sig)
{
    pid_t pg = (pid_t)target_pgid;

    if (pg > 0)
        kill(-pg, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int mc_cli_target_open(mc_target_t **out, const mc_target_opts_t *o, mc_errbuf_t *eb)
{
    int rc;

    install_handlers();
    mc_target_supervise(); /* orphans of the target come back to us, to be killed */
    rc = mc_target_open(out, o, eb);
    if (rc == MC_OK)
        target_pgid = mc_target_pgid(*out);
    return rc;
}

int mc_cli_target_stop(mc_target_t *t)
{
    int how = mc_target_stop(t, NULL, 0);

    target_pgid = 0;
    return how;
}

void mc_cli_print_stderr_tail(const mc_target_t *t, const char *prefix)
{
    char tail[2048];
    size_t n = mc_target_stderr_tail(t, tail, sizeof(tail));
    char *line, *next;

    if (n == 0)
        return;
    fprintf(stderr, "%s: last %zu bytes of the server's stderr:\n", prefix, n);
    for (line = tail; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        fprintf(stderr, "  | %s\n", line);
    }
}
