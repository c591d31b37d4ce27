/*
 * refserver.h - the reference MCP server as a library: bytes in, bytes out.
 *
 * The server holds a session's whole state. The caller feeds it one framed
 * line at a time (mc_refserver_handle) and gives it the time; the server
 * answers through the emit callback, one complete line (ending in "\n") per
 * call. It performs no I/O of its own, so the stdio main, the tests and the
 * in-process fuzz targets drive exactly the same code.
 */
#ifndef MC_REFSERVER_REFSERVER_H
#define MC_REFSERVER_REFSERVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef struct mc_refserver mc_refserver_t;

/* Encoded answers several servers share, read-only (mc_refserver_cache_new). */
typedef struct mc_refserver_cache mc_refserver_cache_t;

/* Receives one outbound line (including its "\n"); data is borrowed. */
typedef void (*mc_refserver_emit_cb)(void *ctx, const char *line, size_t len);

typedef struct mc_refserver_opts {
    int page_size;         /* items per list page; 0 = the default */
    int extra_items;       /* synthetic resources, prompts and tools to add (--resources N) */
    const char *root;      /* directory exposed as file:// resources, or NULL */
    const char *inject;    /* violation switch name, or NULL */
    int step_delay_ms;     /* delay between the steps of multi-step tools (logging,
                              progress): 0 = the default (50 ms), negative = none,
                              every step runs at once (in-process tests, fuzzing) */
    const mc_refserver_cache_t *cache; /* answers built once for these options, or NULL
                                          (see mc_refserver_cache_new) */
    int modern_only; /* speak the stateless versions only (--modern-only): initialize, and
                        any request without the per-request _meta, is refused */
} mc_refserver_opts_t;

/*
 * Creates a server. Returns NULL and fills eb when the options are invalid
 * (an unknown violation switch, an unusable root) or memory runs out.
 */
mc_refserver_t *mc_refserver_new(const mc_refserver_opts_t *opts, mc_refserver_emit_cb emit,
                                 void *emit_ctx, mc_errbuf_t *eb);

/*
 * Creates a server that starts in the session state tmpl is in: the same
 * options (and cache), phase, negotiated version, client capabilities, log
 * level, subscriptions and fixture switches, with its own emit callback. It
 * answers every message as tmpl would, byte for byte: it is what
 * mc_refserver_new() followed by the messages that brought tmpl to its
 * state would give, at the cost of one allocation (plus one per
 * subscription). A fuzz target builds one initialized template and clones it
 * per input instead of replaying the handshake.
 *
 * tmpl is only read, so several clones may be made from it, also at the same
 * time from several threads, and it may be freed before them. It must be
 * idle: no tool call in progress, no server->client request unanswered.
 * What tmpl has cached (encoded answers, parsed schemas) is not copied; the
 * clone builds its own when needed, with the same bytes. Returns NULL and
 * fills eb with MC_EINVAL when tmpl is busy or serves a --root directory
 * (the file list is not shared), with MC_ENOMEM when memory runs out.
 */
mc_refserver_t *mc_refserver_clone(const mc_refserver_t *tmpl, mc_refserver_emit_cb emit,
                                   void *emit_ctx, mc_errbuf_t *eb);

/*
 * Builds the answers that are the same bytes in every session of servers
 * with these options: the initialize result of each protocol version, and,
 * for each version in the state a session starts in, every list page (at
 * every offset a cursor can name, up to 256 per list) and the read of every
 * fixture resource. It runs a private session per version to get them.
 * A server created with opts.cache set to the result answers those requests
 * from it instead of building them (when no violation switch is on), with
 * the same bytes. Once built the cache is only read, so any number of
 * servers, also in several threads, may use it; it must outlive them, and
 * their options must be the ones it was built with (mc_refserver_new()
 * checks). Not supported with a --root (the directory may change between
 * sessions): MC_EINVAL. With a violation switch the cache is empty. Returns
 * NULL and fills eb on failure (MC_EINVAL for bad options, MC_ENOMEM).
 */
mc_refserver_cache_t *mc_refserver_cache_new(const mc_refserver_opts_t *opts, mc_errbuf_t *eb);

/* Frees a cache; NULL is allowed. No server may still use it. */
void mc_refserver_cache_free(mc_refserver_cache_t *cache);

/* Frees the server and everything it holds. NULL is allowed. */
void mc_refserver_free(mc_refserver_t *rs);

/*
 * Handles one inbound line (without its newline). now_ms is the caller's
 * monotonic clock. Malformed input is answered on the wire (-32700, -32600);
 * the return value is MC_OK unless the server cannot go on (MC_ENOMEM).
 */
int mc_refserver_handle(mc_refserver_t *rs, const char *line, size_t len, int64_t now_ms);

/*
 * Tells the server that the framer skipped a line of `skipped` bytes because
 * it exceeded the size limit. The server answers -32700 (id null) and goes on.
 */
int mc_refserver_handle_oversize(mc_refserver_t *rs, size_t skipped, int64_t now_ms);

/* Runs timers that are due at now_ms (progress, deferred notifications). */
int mc_refserver_tick(mc_refserver_t *rs, int64_t now_ms);

/* The next time mc_refserver_tick() has work, or -1 when none is scheduled. */
int64_t mc_refserver_next_deadline(const mc_refserver_t *rs);

/* Tells the server that the client can no longer answer (its input
 * closed): the server stops waiting for the answers to its own requests,
 * whose timeouts then no longer count as work for mc_refserver_tick().
 * Returns 1 when the server is to exit once its scheduled work is done, 0
 * when it is to run on until a signal (the switch stdin-eof-ignored). */
int mc_refserver_input_closed(mc_refserver_t *rs);

/* The id (compact JSON, valid until the next call) of the stateless
 * (2026-07-28) request whose work is being done now, while a step of its
 * work runs later than the request was handled (a timer, an answer from
 * the client); NULL otherwise. What is emitted meanwhile relates to that
 * request: the HTTP server sends it on that request's response stream. */
const char *mc_refserver_serving(const mc_refserver_t *rs);

/* The protocol version the session's initialize negotiated (its wire
 * string, static), or NULL before one did (units.h's mc_refserver_version
 * gives the latest supported instead). */
const char *mc_refserver_negotiated(const mc_refserver_t *rs);

/* Lines a violation switch wants printed before any message (a stdout banner),
 * or NULL. Used by the stdio main only. */
const char *mc_refserver_banner(const mc_refserver_t *rs);

/* The inputSchema (JSON text, static) of the fixture tool called name, or
 * NULL when there is none by that name. The HTTP server reads the
 * x-mcp-header annotations of a called tool from it. */
const char *mc_refserver_tool_schema(const char *name);

/* Number of violation switches. */
int mc_refserver_bug_count(void);

/* Writes the violation switch table, one "NAME\tlevel\trule\tspec" line each,
 * through the emit callback style: calls fn once per line (no newline). */
void mc_refserver_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx);

#endif /* MC_REFSERVER_REFSERVER_H */
