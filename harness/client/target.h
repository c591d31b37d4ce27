/*
 * target.h - the server under test as one connection, whatever carries it.
 *
 * A target is opened from a server command (spoken to over stdio), a URL
 * (Streamable HTTP, or the HTTP+SSE transport of 2024-11-05, to a server
 * already running), or both (the command is started, then reached at the
 * URL once it listens). It gives the link a session talks through
 * (client/session.h), says in words what went wrong, and is closed in the
 * order the transports need: the session ended, the process stopped, the
 * memory freed. The processes, pipes and HTTP transfers stay behind it;
 * this is what the commands of cli/ use in their place.
 */
#ifndef MC_CLIENT_TARGET_H
#define MC_CLIENT_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "client/link.h"
#include "core/error.h"

/* How long a server started for a URL may take until it listens. */
#define MC_TARGET_STARTUP_BUDGET_MS 10000

/* The HTTP transport of a URL target (the values of mc_http_transport_t,
 * in the order of the words of `run --transport`). */
enum {
    MC_TARGET_HTTP_AUTO = 0, /* Streamable HTTP; HTTP+SSE after a 404 or 405 to initialize */
    MC_TARGET_HTTP_STREAMABLE,
    MC_TARGET_HTTP_SSE
};

typedef struct mc_target mc_target_t;

typedef struct mc_target_opts {
    char **argv;     /* the server command, NULL-terminated; NULL or empty: a URL's running
                        server */
    const char *cwd; /* the command's working directory, or NULL */
    const char *url; /* NULL: stdio; else the MCP endpoint, http://HOST:PORT/PATH (port 0:
                        the one the started command prints) */
    int allow_remote;   /* allow a URL host that is not a loopback address */
    int http_transport; /* with url: MC_TARGET_HTTP_* */
    int get_stream;     /* with url: open the GET stream in mc_target_after_handshake() */
    int serve_only;     /* with url and argv: start the server only, no client (others
                           connect to mc_target_url()) */
} mc_target_opts_t;

/*
 * Checks that url is an http:// URL of a loopback host (unless
 * allow_remote). Returns MC_OK, or MC_EINVAL with the reason in eb.
 */
int mc_target_url_check(const char *url, int allow_remote, mc_errbuf_t *eb);

/*
 * Opens a target into *out: starts the command (over stdio, or waits up to
 * MC_TARGET_STARTUP_BUDGET_MS until it listens at the URL) and creates the
 * HTTP client. Returns MC_OK; MC_ESPAWN when the command of a URL target
 * did not start or never listened; another code when the client could not
 * be made or the stdio command not started. On failure *out is untouched,
 * eb says why and nothing is left running.
 */
int mc_target_open(mc_target_t **out, const mc_target_opts_t *o, mc_errbuf_t *eb);

/* The link a session talks through. A serve_only target has none (both
 * functions are NULL). */
mc_link_t mc_target_link(mc_target_t *t);

/* The process group of the started command, or 0 when none was started. */
int mc_target_pgid(const mc_target_t *t);

/* The endpoint, with the port the server printed filled in; NULL over stdio. */
const char *mc_target_url(const mc_target_t *t);

/* Messages received so far over stdio (0 over HTTP). */
uint64_t mc_target_frames(const mc_target_t *t);

/* Over HTTP, opens the GET stream when the options ask for it; the caller
 * does this once notifications/initialized has been sent. */
void mc_target_after_handshake(mc_target_t *t);

/*
 * Says in words why the target did not answer `what` after the session
 * returned rc, into buf: over stdio, when the server exited or stopped
 * reading or writing (its exit status waited for a moment), "the server
 * exited with status 1 after 2 messages, before it answered ping"; over
 * HTTP, the transport's first failure or the state of its oldest open
 * request. Returns 1 when buf says something, 0 (buf "") when the target
 * has nothing to add to the session's own error.
 */
int mc_target_explain(mc_target_t *t, int rc, const char *what, char *buf, size_t cap);

/* The HTTP transport's first failure (connection refused, not HTTP...), or
 * NULL when there was none or the target speaks stdio. */
const char *mc_target_failure(const mc_target_t *t);

/* The HTTP session id the server assigned, or NULL. */
const char *mc_target_session_id(const mc_target_t *t);

/* Takes the oldest note of the HTTP transport ("POST#3 -> 202 (no body)")
 * into buf. Returns 1 when one was taken, 0 when none is left (always over
 * stdio). */
int mc_target_take_note(mc_target_t *t, char *buf, size_t cap);

/* Ends the HTTP session with a DELETE (once); returns its HTTP status, 0
 * when none was sent, it failed, or the target speaks stdio. */
long mc_target_end_session(mc_target_t *t);

/*
 * Stops the started command as the transport advises (over stdio: stdin
 * closed, wait, SIGTERM, wait, SIGKILL; over HTTP: SIGTERM, wait, SIGKILL)
 * and describes how it ended into how (NULL allowed; "" when nothing was
 * started). Returns 0 when it exited by itself after stdin closed, else the
 * signal that stopped it (over HTTP always 0). The stderr tail stays
 * readable until mc_target_free(). A later call stops nothing and gives the
 * same answer.
 */
int mc_target_stop(mc_target_t *t, char *how, size_t how_cap);

/* Copies the tail of the stderr of a command started over stdio into buf,
 * NUL-terminated. Returns the bytes copied (0 over HTTP). */
size_t mc_target_stderr_tail(const mc_target_t *t, char *buf, size_t cap);

/* Stops what still runs and frees everything. NULL is allowed. */
void mc_target_free(mc_target_t *t);

/* Makes this process the reaper of the orphans a target leaves behind (a
 * daemonizing server), so that they can be found and killed. */
void mc_target_supervise(void);

/* Kills the processes targets left behind that no live target owns.
 * Returns how many were killed. */
unsigned mc_target_kill_orphans(void);

#endif /* MC_CLIENT_TARGET_H */
