#include "core/frame.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/limits.h"

/* A line buffer larger than this is released when an oversize line starts. */
#define FRAME_KEEP_CAP 65536

void mc_framer_init(mc_framer_t *f, size_t max)
{
    memset(f, 0, sizeof(*f));
    f->max = max ? max : MC_MAX_MESSAGE_SIZE;
}

void mc_framer_free(mc_framer_t *f)
{
    free(f->buf);
    f->buf = NULL;
    f->len = f->cap = 0;
}

int mc_framer_skipping(const mc_framer_t *f)
{
    return f->skipping;
}

size_t mc_framer_pending(const mc_framer_t *f)
{
    return f->skipping ? f->skipped : f->len;
}

/*
 * Appends to the partial line; the caller has checked len against max. A
 * complete line may hold max + 1 bytes (its "\r" before the "\n" is allowed
 * on top of max), so the buffer is capped at max + 1, not max.
 */
static int append(mc_framer_t *f, const char *data, size_t len)
{
    if (f->len + len > f->cap) {
        size_t cap = f->cap ? f->cap : 256;
        char *nb;
        while (cap < f->len + len)
            cap *= 2;
        if (cap > f->max + 1)
            cap = f->max + 1;
        nb = realloc(f->buf, cap);
        if (nb == NULL)
            return MC_ENOMEM;
        f->buf = nb;
        f->cap = cap;
    }
    memcpy(f->buf + f->len, data, len);
    f->len += len;
    return MC_OK;
}

static void start_skipping(mc_framer_t *f, size_t already)
{
    f->skipping = 1;
    f->skipped = already;
    f->len = 0;
    /* Release a large buffer: an oversize line must not pin max bytes. */
    if (f->cap > FRAME_KEEP_CAP) {
        free(f->buf);
        f->buf = NULL;
        f->cap = 0;
    }
}

/* Builds the frame for a complete line of bytes [p, p+n). */
static int emit_line(const char *p, size_t n, mc_frame_cb cb, void *ctx)
{
    mc_frame_t fr;

    fr.flags = MC_FRAME_F_NEWLINE;
    if (n > 0 && p[n - 1] == '\r') {
        fr.flags |= MC_FRAME_F_CRLF;
        n--;
    }
    fr.data = p;
    fr.len = n;
    fr.kind = n == 0 ? MC_FRAME_EMPTY : MC_FRAME_LINE;
    if (n > 0 && memchr(p, '\0', n) != NULL)
        fr.flags |= MC_FRAME_F_NUL;
    return cb(ctx, &fr);
}

static int emit_oversize(size_t skipped, mc_frame_cb cb, void *ctx)
{
    mc_frame_t fr;

    fr.kind = MC_FRAME_OVERSIZE;
    fr.data = NULL;
    fr.len = skipped;
    fr.flags = 0;
    return cb(ctx, &fr);
}

int mc_framer_feed(mc_framer_t *f, const char *data, size_t len, mc_frame_cb cb, void *ctx,
                   size_t *consumed)
{
    size_t off = 0;
    int rc = MC_OK;

    while (off < len) {
        const char *p = data + off;
        size_t avail = len - off;
        const char *nl = memchr(p, '\n', avail);
        size_t seg = nl ? (size_t)(nl - p) : avail;
        int stop;

        if (f->skipping) {
            f->skipped += seg;
            if (nl == NULL) {
                off = len;
                break;
            }
            off += seg + 1;
            f->skipping = 0;
            stop = emit_oversize(f->skipped, cb, ctx);
            f->skipped = 0;
            if (stop)
                break;
            continue;
        }

        if (f->len + seg > f->max + (nl && seg > 0 && p[seg - 1] == '\r' ? 1 : 0)) {
            /* Too long (a trailing "\r" of a max-length line is allowed). */
            start_skipping(f, f->len);
            continue; /* re-run this segment in skipping mode */
        }

        if (nl == NULL) {
            int arc = append(f, p, seg);
            if (arc != MC_OK) {
                start_skipping(f, f->len);
                rc = arc;
                continue;
            }
            off = len;
            break;
        }

        off += seg + 1;
        if (f->len == 0) {
            /* Fast path: the whole line is inside this chunk. */
            stop = emit_line(p, seg, cb, ctx);
        } else {
            int arc = append(f, p, seg);
            if (arc != MC_OK) {
                size_t dropped = f->len + seg;
                f->len = 0;
                rc = arc;
                stop = emit_oversize(dropped, cb, ctx);
            } else {
                stop = emit_line(f->buf, f->len, cb, ctx);
                f->len = 0;
            }
        }
        if (stop)
            break;
    }
    if (consumed != NULL)
        *consumed = off;
    return rc;
}

void mc_framer_finish(mc_framer_t *f, mc_frame_cb cb, void *ctx)
{
    mc_frame_t fr;

    if (f->finished)
        return;
    f->finished = 1;
    if (f->skipping) {
        f->skipping = 0;
        emit_oversize(f->skipped, cb, ctx);
        f->skipped = 0;
        return;
    }
    if (f->len == 0)
        return;
    fr.kind = MC_FRAME_TRUNCATED;
    fr.data = f->buf;
    fr.len = f->len;
    fr.flags = memchr(f->buf, '\0', f->len) ? MC_FRAME_F_NUL : 0;
    cb(ctx, &fr);
    f->len = 0;
}
