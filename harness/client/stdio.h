/*
 * stdio.h - the MCP stdio transport, client side.
 *
 * Spawns the target (process.h), frames its stdout into lines, keeps the
 * tail of its stderr, and runs everything from one poll(2) loop with
 * non-blocking pipes. Memory is bounded: received frames wait in a queue of
 * at most MC_MAX_QUEUED_FRAMES frames / MC_MAX_QUEUED_BYTES bytes (a ring
 * that starts small and doubles up to that cap; reading stops while it is
 * full), and unsent output is capped at
 * MC_MAX_OUTBOUND_BYTES.
 */
#ifndef MC_CLIENT_STDIO_H
#define MC_CLIENT_STDIO_H

#include <stddef.h>
#include <stdint.h>

#include "client/link.h"
#include "client/process.h"
#include "core/frame.h"

typedef struct mc_stdio {
    mc_proc_t proc;          /* read-only: the target */
    mc_framer_t framer;      /* private */
    mc_record_t *queue;     /* private: ring of received frames */
    size_t q_head, q_count;  /* private */
    size_t q_cap;            /* private: records the ring holds now (up to MC_MAX_QUEUED_FRAMES) */
    size_t q_bytes;          /* private */
    char *chunk;             /* private: the last read from stdout, not yet framed */
    size_t chunk_len, chunk_off; /* private */
    int eof_seen;            /* private: read(2) returned 0 on stdout */
    char *out;               /* private: bytes not yet written to stdin */
    size_t out_len, out_off, out_cap; /* private */
    int stdout_eof;          /* read-only: the target closed its stdout */
    int target_exited;       /* read-only: the output was ended because the target exited
                                while its stdout stayed open (held by a descendant) */
    int oversize_open;       /* private: an oversize line was reported before its newline */
    int stdin_broken;        /* read-only: writing to the target failed (EPIPE) */
    int stopped;             /* read-only: mc_stdio_stop() has run */
    uint64_t frames;         /* read-only: frames received so far */
    uint64_t bytes_in;       /* read-only: stdout bytes received */
} mc_stdio_t;

/* Starts the target and prepares the transport. On error nothing runs. */
int mc_stdio_start(mc_stdio_t *t, const mc_spawn_opts_t *opts, mc_errbuf_t *eb);

/* Queues one line for the target's stdin and writes what it can until
 * deadline_ms. See mc_link_t.send for the return values. */
int mc_stdio_send(mc_stdio_t *t, const char *line, size_t len, int64_t deadline_ms);

/*
 * Waits for the next frame. See mc_link_t.recv. The target's exit counts as
 * the end of its output once the pipe is drained, even when a descendant
 * still holds the pipe open. A line longer than MC_MAX_MESSAGE_SIZE is
 * reported as an MC_FRAME_OVERSIZE frame with MC_FRAME_F_OPEN as soon as it
 * passes the limit, not when (if ever) its newline arrives.
 */
int mc_stdio_recv(mc_stdio_t *t, mc_record_t *frame, int64_t deadline_ms);

/* Runs one round of the poll loop, waiting at most timeout_ms. */
int mc_stdio_pump(mc_stdio_t *t, int timeout_ms);

/* A link that sends and receives through t. */
mc_link_t mc_stdio_link(mc_stdio_t *t);

/*
 * Shuts the target down as the spec advises (process.h) and releases the
 * buffers. The process record (exit status, stderr tail) stays readable
 * until mc_stdio_free(). Returns how it ended: 0, SIGTERM or SIGKILL.
 */
int mc_stdio_stop(mc_stdio_t *t, int stdin_grace_ms, int term_grace_ms);

/* Frees everything, killing the target if it still runs. Idempotent. */
void mc_stdio_free(mc_stdio_t *t);

#endif /* MC_CLIENT_STDIO_H */
