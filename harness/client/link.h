/*
 * link.h - the message link a client session talks through.
 *
 * A link moves whole lines: send() writes one encoded message, recv() yields
 * the next frame the peer produced. The stdio transport is one link; tests
 * and fuzz targets provide in-memory links, so the session logic is exercised
 * without processes.
 */
#ifndef MC_CLIENT_LINK_H
#define MC_CLIENT_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"

/* A received frame with its own copy of the bytes. */
typedef struct mc_inframe {
    mc_frame_kind_t kind;
    unsigned flags;  /* MC_FRAME_F_* */
    char *data;      /* owned: NUL-terminated copy of the line (NULL for OVERSIZE) */
    size_t len;      /* bytes in data; for OVERSIZE, bytes skipped */
    int64_t at_ms;   /* monotonic time of arrival */
    const char *meta; /* borrowed: transport facts about the frame (HTTP: method, status,
                         content type, session id, SSE event id), valid until the next
                         recv on the link; NULL when the transport has none (stdio) */
    const char *answers; /* borrowed: with MC_FRAME_F_REFUSAL, the id (compact JSON) of the
                            request the refused POST carried ("" when it was too long to
                            keep), valid like meta; else NULL */
} mc_inframe_t;

/* Frees a frame's bytes. */
void mc_inframe_free(mc_inframe_t *f);

typedef struct mc_link {
    void *ctx;
    /*
     * Sends one message line (which ends in "\n"). Returns MC_OK, MC_ETIMEOUT
     * when the peer does not take it by deadline_ms, MC_EEXITED when the peer
     * is gone, or MC_EFULL.
     */
    int (*send)(void *ctx, const char *line, size_t len, int64_t deadline_ms);
    /*
     * Waits until deadline_ms for the next frame. Returns MC_OK and fills
     * *frame (caller frees), MC_ETIMEOUT, or MC_EEOF when the peer's output
     * has ended and every frame was delivered.
     */
    int (*recv)(void *ctx, mc_inframe_t *frame, int64_t deadline_ms);
} mc_link_t;

#endif /* MC_CLIENT_LINK_H */
