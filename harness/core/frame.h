/*
 * frame.h - newline-delimited message framing over a byte stream.
 *
 * MCP's stdio transport sends one JSON-RPC message per line. The framer cuts
 * an arbitrary sequence of reads into lines and reports each one through a
 * callback. It copes with split reads, many lines per read, "\r\n" endings,
 * empty lines and embedded NUL bytes, and it never buffers more than its
 * maximum: a longer line is skipped up to its newline and reported once as
 * MC_FRAME_OVERSIZE with the number of bytes dropped.
 */
#ifndef MC_CORE_FRAME_H
#define MC_CORE_FRAME_H

#include <stddef.h>

typedef enum mc_frame_kind {
    MC_FRAME_LINE,      /* a complete line, terminator removed */
    MC_FRAME_EMPTY,     /* a line with no bytes (or only "\r") */
    MC_FRAME_OVERSIZE,  /* a line longer than the maximum, skipped */
    MC_FRAME_TRUNCATED  /* bytes after the last newline at end of stream */
} mc_frame_kind_t;

/* Flags on a frame. */
#define MC_FRAME_F_CRLF 0x1u /* the line ended in "\r\n" (the "\r" was removed) */
#define MC_FRAME_F_NUL 0x2u  /* the line contains at least one NUL byte */
/* On MC_FRAME_OVERSIZE from a transport: reported as soon as the line passed
 * the limit, before its newline; len counts the bytes seen so far. */
#define MC_FRAME_F_OPEN 0x4u
/* On a frame from the HTTP transport: the JSON body of an HTTP error status
 * (4xx or 5xx) by which the server refused one POSTed request whose id was
 * readable. The body explains the refusal and answers that POST's request,
 * whose id the transport names beside the frame; being an error response to
 * a request whose id could be read, it carries that id (basic#responses),
 * unless MC_FRAME_F_ID_OPTIONAL is set too. */
#define MC_FRAME_F_REFUSAL 0x8u
/* With MC_FRAME_F_REFUSAL: the status is one whose body the transports page
 * allows to be "a JSON-RPC error response that has no id" whatever the POST
 * carried (403 Forbidden for an invalid Origin, #security-warning). */
#define MC_FRAME_F_ID_OPTIONAL 0x10u
/* On MC_FRAME_LINE and MC_FRAME_EMPTY from the line framer: the frame is a
 * line cut at a newline (stdio), so a message split over several frames has
 * a newline inside it. Frames of HTTP bodies and SSE events never carry it. */
#define MC_FRAME_F_NEWLINE 0x20u

typedef struct mc_frame {
    mc_frame_kind_t kind;
    const char *data; /* borrowed: valid only during the callback; NULL for OVERSIZE */
    size_t len;       /* bytes in data; for OVERSIZE, bytes skipped (without "\n") */
    unsigned flags;   /* MC_FRAME_F_* */
} mc_frame_t;

/*
 * Called once per frame. Return 0 to go on, non-zero to stop feeding: the
 * rest of the chunk is kept and delivered by the next mc_framer_feed().
 */
typedef int (*mc_frame_cb)(void *ctx, const mc_frame_t *frame);

typedef struct mc_framer {
    char *buf;        /* private: the partial line */
    size_t len;       /* private */
    size_t cap;       /* private */
    size_t max;       /* read-only: maximum line length in bytes */
    size_t skipped;   /* private: bytes dropped from the current oversize line */
    int skipping;     /* private: inside an oversize line */
    int finished;     /* private */
} mc_framer_t;

/* Prepares a framer with the given maximum line length (0 = MC_MAX_MESSAGE_SIZE). */
void mc_framer_init(mc_framer_t *f, size_t max);

/* Frees the framer's buffer. The framer can be initialised again. */
void mc_framer_free(mc_framer_t *f);

/*
 * Cuts data into frames and calls cb for each. If cb asks to stop,
 * *consumed tells how many bytes of data were used; the caller feeds the
 * rest later. consumed may be NULL when cb never stops.
 * Returns MC_OK, or MC_ENOMEM when the partial line cannot be stored (the
 * line is then treated as oversize, so no input is ever lost silently).
 */
int mc_framer_feed(mc_framer_t *f, const char *data, size_t len, mc_frame_cb cb, void *ctx,
                   size_t *consumed);

/*
 * Signals end of stream: a partial line is reported as MC_FRAME_TRUNCATED
 * (or MC_FRAME_OVERSIZE if it was being skipped). Idempotent.
 */
void mc_framer_finish(mc_framer_t *f, mc_frame_cb cb, void *ctx);

/* True while the framer is skipping an oversize line (its newline not seen). */
int mc_framer_skipping(const mc_framer_t *f);

/* Bytes currently held for an unfinished line. */
size_t mc_framer_pending(const mc_framer_t *f);

#endif /* MC_CORE_FRAME_H */
