/*
 * target.c - the server under test as one connection: a stdio target, an
 * HTTP client, and the server started for it, behind one handle.
 */
#include "client/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "client/httptarget.h"
#include "client/process.h"
#include "client/stdio.h"
#include "core/limits.h"
#include "judge/replay.h"

/* How long the explanation of a failure waits for the exit status of a
 * server that closed its output or stopped reading. */
#define MC_TARGET_EXIT_WAIT_MS 2000

_Static_assert(MC_TARGET_STARTUP_BUDGET_MS == MC_HTTP_STARTUP_BUDGET_MS,
               "a server started for a URL gets the budget the runner gives it");
_Static_assert(MC_TARGET_HTTP_AUTO == (int)MC_HTTP_TRANSPORT_AUTO &&
                   MC_TARGET_HTTP_STREAMABLE == (int)MC_HTTP_TRANSPORT_STREAMABLE &&
                   MC_TARGET_HTTP_SSE == (int)MC_HTTP_TRANSPORT_SSE,
               "the target's transport choice is the HTTP client's");

struct mc_target {
    int is_http;
    mc_stdio_t io;         /* over stdio */
    mc_http_target_t srv;  /* over HTTP: the server started for the URL (srv.started) */
    mc_http_t *http;       /* over HTTP: the client, NULL when serve_only */
    char url[512];
    int ended;             /* the HTTP session was ended */
    long end_status;
    int stopped;
    int how;
    char how_text[200];    /* how the started command ended, once stopped */
};

int mc_target_url_check(const char *url, int allow_remote, mc_errbuf_t *eb)
{
    return mc_http_url_check(url, allow_remote, NULL, 0, NULL, eb);
}

static int open_stdio(mc_target_t *t, const mc_target_opts_t *o, mc_errbuf_t *eb)
{
    mc_spawn_opts_t so;

    memset(&so, 0, sizeof(so));
    so.argv = o->argv;
    so.cwd = o->cwd;
    return mc_stdio_start(&t->io, &so, eb);
}

static int open_http(mc_target_t *t, const mc_target_opts_t *o, mc_errbuf_t *eb)
{
    mc_http_opts_t ho;

    t->is_http = 1;
    if (snprintf(t->url, sizeof(t->url), "%s", o->url) >= (int)sizeof(t->url)) {
        mc_errbuf_set(eb, MC_EINVAL, "the URL is longer than %zu bytes", sizeof(t->url) - 1);
        return MC_EINVAL;
    }
    if (o->argv != NULL && o->argv[0] != NULL) {
        mc_spawn_opts_t so;
        memset(&so, 0, sizeof(so));
        so.argv = o->argv;
        so.cwd = o->cwd;
        if (mc_http_target_start(&t->srv, &so, o->url, MC_TARGET_STARTUP_BUDGET_MS, eb) != MC_OK)
            return MC_ESPAWN;
        snprintf(t->url, sizeof(t->url), "%s", t->srv.url);
        if (o->serve_only)
            return MC_OK;
    }
    memset(&ho, 0, sizeof(ho));
    ho.url = t->url;
    ho.allow_remote = o->allow_remote;
    ho.get_stream = o->get_stream;
    ho.transport = (mc_http_transport_t)o->http_transport;
    t->http = mc_http_new(&ho, eb);
    if (t->http == NULL) {
        mc_http_target_stop(&t->srv, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
        return MC_EINVAL;
    }
    return MC_OK;
}

int mc_target_open(mc_target_t **out, const mc_target_opts_t *o, mc_errbuf_t *eb)
{
    mc_target_t *t = calloc(1, sizeof(*t));
    int rc;

    if (t == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    rc = o->url == NULL ? open_stdio(t, o, eb) : open_http(t, o, eb);
    if (rc != MC_OK) {
        free(t);
        return rc;
    }
    *out = t;
    return MC_OK;
}

mc_link_t mc_target_link(mc_target_t *t)
{
    mc_link_t none;

    if (!t->is_http)
        return mc_stdio_link(&t->io);
    if (t->http != NULL)
        return mc_http_link(t->http);
    memset(&none, 0, sizeof(none));
    return none;
}

int mc_target_pgid(const mc_target_t *t)
{
    if (!t->is_http)
        return (int)t->io.proc.pid;
    return t->srv.started ? (int)t->srv.proc.pid : 0;
}

const char *mc_target_url(const mc_target_t *t)
{
    return t->is_http ? t->url : NULL;
}

uint64_t mc_target_frames(const mc_target_t *t)
{
    return t->is_http ? 0 : t->io.frames;
}

void mc_target_after_handshake(mc_target_t *t)
{
    if (t->http != NULL)
        mc_http_after_handshake(t->http);
}

/* The stdio part of mc_target_explain(). */
static int explain_stdio(mc_target_t *t, int rc, const char *what, char *buf, size_t cap)
{
    mc_stdio_t *io = &t->io;
    unsigned long long frames = (unsigned long long)io->frames;
    char how[160];

    if (rc != MC_EEOF && !io->stdin_broken && rc != MC_EEXITED)
        return 0;
    mc_proc_wait(&io->proc, MC_TARGET_EXIT_WAIT_MS);
    mc_proc_describe(&io->proc, how, sizeof(how));
    if (io->proc.reaped)
        snprintf(buf, cap, "the server %s after %llu message%s, before it answered %s%s", how,
                 frames, frames == 1 ? "" : "s", what,
                 io->target_exited ? " (a process it left behind still held its stdout)" : "");
    else
        snprintf(buf, cap,
                 "the server %s after %llu message%s, before it answered %s, though its "
                 "process is still running",
                 rc == MC_EEOF ? "closed its output" : "stopped reading its input", frames,
                 frames == 1 ? "" : "s", what);
    return 1;
}

int mc_target_explain(mc_target_t *t, int rc, const char *what, char *buf, size_t cap)
{
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (!t->is_http)
        return explain_stdio(t, rc, what, buf, cap);
    if (t->http != NULL)
        mc_http_describe(t->http, buf, cap);
    return buf[0] != '\0';
}

const char *mc_target_failure(const mc_target_t *t)
{
    return t->http != NULL ? mc_http_failure(t->http) : NULL;
}

const char *mc_target_session_id(const mc_target_t *t)
{
    return t->http != NULL ? mc_http_session_id(t->http) : NULL;
}

int mc_target_take_note(mc_target_t *t, char *buf, size_t cap)
{
    return t->http != NULL ? mc_http_take_note(t->http, buf, cap) : 0;
}

long mc_target_end_session(mc_target_t *t)
{
    if (t->http != NULL && !t->ended) {
        t->ended = 1;
        mc_http_close(t->http, MC_HTTP_DELETE_TIMEOUT_MS, &t->end_status);
    }
    return t->end_status;
}

int mc_target_stop(mc_target_t *t, char *how, size_t how_cap)
{
    if (!t->stopped) {
        t->stopped = 1;
        if (!t->is_http) {
            t->how = mc_stdio_stop(&t->io, MC_SHUTDOWN_STDIN_GRACE_MS, MC_SHUTDOWN_TERM_GRACE_MS);
            mc_proc_describe(&t->io.proc, t->how_text, sizeof(t->how_text));
        } else {
            mc_http_target_stop(&t->srv, MC_SHUTDOWN_TERM_GRACE_MS, t->how_text,
                                sizeof(t->how_text));
        }
    }
    if (how != NULL && how_cap > 0)
        snprintf(how, how_cap, "%s", t->how_text);
    return t->how;
}

size_t mc_target_stderr_tail(const mc_target_t *t, char *buf, size_t cap)
{
    if (t->is_http)
        return 0;
    return mc_ring_copy(&t->io.proc.err, buf, cap);
}

void mc_target_free(mc_target_t *t)
{
    if (t == NULL)
        return;
    mc_target_stop(t, NULL, 0);
    if (t->is_http)
        mc_http_free(t->http);
    else
        mc_stdio_free(&t->io);
    free(t);
}

void mc_target_supervise(void)
{
    mc_proc_supervise_init();
}

unsigned mc_target_kill_orphans(void)
{
    return mc_proc_kill_orphans(NULL, 0);
}
