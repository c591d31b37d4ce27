/*
 * httptarget.h - a server the harness starts and then talks to over HTTP.
 *
 * The target is spawned like a stdio one (process.h) but speaks on a port.
 * Start-up waits, within a budget, until it listens: when the URL's port is
 * 0 the target must print the address it bound ("... http://HOST:PORT..."
 * on stdout or stderr; mcpcheck-refserver --http prints
 * "mcpcheck-refserver: listening on http://HOST:PORT/mcp") and the URL takes
 * that port; otherwise a TCP connection to the port must succeed. A thread
 * keeps draining the target's stdout and stderr (the stderr tail is kept)
 * so a chatty server never blocks on a full pipe.
 */
#ifndef MC_CLIENT_HTTPTARGET_H
#define MC_CLIENT_HTTPTARGET_H

#include <pthread.h>
#include <stdatomic.h>

#include "client/process.h"
#include "core/error.h"

typedef struct mc_http_target {
    mc_proc_t proc;          /* read-only */
    char url[512];           /* read-only: the endpoint, with the port filled in */
    int started;             /* read-only */
    pthread_t drainer;       /* private */
    int drainer_on;          /* private */
    atomic_int drain_stop;   /* private: set by the stopping thread, read by the drainer */
    pthread_mutex_t mu;      /* private: guards proc.err while the drainer runs */
} mc_http_target_t;

/*
 * Starts so->argv and waits up to budget_ms until it listens for url (see
 * above). On MC_OK t->url is the endpoint to use. On failure nothing is left
 * running and eb says why (the stderr tail included).
 */
int mc_http_target_start(mc_http_target_t *t, const mc_spawn_opts_t *so, const char *url,
                         int budget_ms, mc_errbuf_t *eb);

/* True while the target runs. */
int mc_http_target_alive(mc_http_target_t *t);

/* Copies the tail of the target's stderr into buf. Returns bytes copied. */
size_t mc_http_target_stderr(mc_http_target_t *t, char *buf, size_t cap);

/*
 * Stops the target (SIGTERM to its group, then SIGKILL after term_grace_ms)
 * and describes how it ended in how. Frees everything. Idempotent.
 */
void mc_http_target_stop(mc_http_target_t *t, int term_grace_ms, char *how, size_t how_cap);

#endif /* MC_CLIENT_HTTPTARGET_H */
