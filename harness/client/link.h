/*
 * link.h - the message link a client session talks through.
 *
 * A link moves whole lines: send() writes one encoded message, recv() yields
 * the next record the peer produced (core/record.h: the bytes and the
 * transport's facts). The stdio transport is one link; tests
 * and fuzz targets provide in-memory links, so the session logic is exercised
 * without processes.
 */
#ifndef MC_CLIENT_LINK_H
#define MC_CLIENT_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

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
    int (*recv)(void *ctx, mc_record_t *frame, int64_t deadline_ms);
    /*
     * Sets where the link hands the records of what is no message, as they
     * happen (the session gives its judge: mc_judge_http_sink); fn NULL
     * detaches. NULL for a link that has only messages (stdio).
     */
    void (*set_sink)(void *ctx, mc_record_sink_fn fn, void *sink_ctx);
} mc_link_t;

#endif /* MC_CLIENT_LINK_H */
