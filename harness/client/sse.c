#include "client/sse.h"

#include <stdlib.h>
#include <string.h>

/* Largest "retry" value kept (about 28 hours); longer digits make the field ignored. */
#define MAX_RETRY_MS 100000000L

void mc_sse_init(mc_sse_t *p, size_t max_line, size_t max_data)
{
    memset(p, 0, sizeof(*p));
    p->max_line = max_line ? max_line : MC_SSE_MAX_LINE;
    p->max_data = max_data ? max_data : MC_SSE_MAX_DATA;
    p->retry_ms = -1;
}

void mc_sse_free(mc_sse_t *p)
{
    free(p->line);
    free(p->data);
    p->line = p->data = NULL;
    p->line_len = p->line_cap = p->data_len = p->data_cap = 0;
}

int mc_sse_pending(const mc_sse_t *p)
{
    return p->has_data || p->event[0] != '\0' || p->oversize || p->line_len > 0 || p->skipping;
}

/* Grows *buf to hold need bytes (plus a NUL), doubling, up to max + 1.
 * Returns 0 or -1. */
static int reserve(char **buf, size_t *cap, size_t need, size_t max)
{
    size_t ncap;
    char *nb;

    if (need + 1 <= *cap)
        return 0;
    if (need > max)
        return -1;
    ncap = *cap ? *cap : 256;
    while (ncap < need + 1)
        ncap *= 2;
    if (ncap > max + 1)
        ncap = max + 1;
    nb = realloc(*buf, ncap);
    if (nb == NULL)
        return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

static void reset_event(mc_sse_t *p)
{
    p->data_len = 0;
    p->event[0] = '\0';
    p->has_data = p->has_id = p->oversize = 0;
}

static int dispatch(mc_sse_t *p, mc_sse_cb cb, void *ctx)
{
    mc_sse_event_t ev;
    int rc;

    /* Nothing but comments since the last event: no event. */
    if (!p->has_data && !p->has_id && !p->oversize && p->event[0] == '\0')
        return 0;
    if (p->data != NULL)
        p->data[p->data_len] = '\0';
    ev.event = p->event;
    ev.data = p->data != NULL && !p->oversize ? p->data : "";
    ev.data_len = p->oversize ? 0 : p->data_len;
    ev.id = p->id;
    ev.has_data = p->has_data;
    ev.has_id = p->has_id;
    ev.oversize = p->oversize;
    p->events++;
    rc = cb(ctx, &ev);
    reset_event(p);
    return rc;
}

/* Copies value into a fixed field; an over-long value marks the event oversize. */
static void set_small(mc_sse_t *p, char *dst, size_t cap, const char *v, size_t n)
{
    if (n >= cap) {
        p->oversize = 1;
        return;
    }
    memcpy(dst, v, n);
    dst[n] = '\0';
}

/* Handles one complete line (without its terminator). */
static int on_line(mc_sse_t *p, mc_sse_cb cb, void *ctx)
{
    const char *l = p->line != NULL ? p->line : "";
    size_t n = p->line_len, flen, vlen;
    const char *colon, *v;

    if (n == 0)
        return dispatch(p, cb, ctx);
    if (l[0] == ':') {
        p->comments++;
        return 0;
    }
    colon = memchr(l, ':', n);
    if (colon == NULL) {
        flen = n;
        v = l + n;
        vlen = 0;
    } else {
        flen = (size_t)(colon - l);
        v = colon + 1;
        vlen = n - flen - 1;
        if (vlen > 0 && *v == ' ') {
            v++;
            vlen--;
        }
    }
    if (flen == 4 && memcmp(l, "data", 4) == 0) {
        size_t need = p->data_len + (p->has_data ? 1 : 0) + vlen;
        if (p->oversize)
            return 0;
        if (reserve(&p->data, &p->data_cap, need, p->max_data) != 0) {
            p->oversize = 1;
            p->has_data = 1;
            return 0;
        }
        if (p->has_data)
            p->data[p->data_len++] = '\n';
        memcpy(p->data + p->data_len, v, vlen);
        p->data_len += vlen;
        p->has_data = 1;
    } else if (flen == 5 && memcmp(l, "event", 5) == 0) {
        set_small(p, p->event, sizeof(p->event), v, vlen);
    } else if (flen == 2 && memcmp(l, "id", 2) == 0) {
        /* An id containing NUL is ignored, as the grammar says. */
        if (memchr(v, '\0', vlen) == NULL) {
            set_small(p, p->id, sizeof(p->id), v, vlen);
            p->has_id = 1;
        }
    } else if (flen == 5 && memcmp(l, "retry", 5) == 0) {
        size_t i;
        long ms = 0;
        for (i = 0; i < vlen; i++) {
            if (v[i] < '0' || v[i] > '9' || ms > MAX_RETRY_MS)
                break;
            ms = ms * 10 + (v[i] - '0');
        }
        if (vlen > 0 && i == vlen)
            p->retry_ms = ms;
    }
    return 0;
}

int mc_sse_feed(mc_sse_t *p, const char *buf, size_t len, mc_sse_cb cb, void *ctx)
{
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    size_t i = 0;

    p->bytes += len;
    while (!p->bom_checked && i < len) {
        if ((unsigned char)buf[i] == bom[p->bom_seen]) {
            p->bom_seen++;
            i++;
            if (p->bom_seen == 3)
                p->bom_checked = 1;
            continue;
        }
        /* A partial BOM followed by something else: give its bytes back. */
        if (p->bom_seen > 0) {
            size_t k, seen = p->bom_seen;
            p->bom_checked = 1;
            for (k = 0; k < seen; k++) {
                int rc = mc_sse_feed(p, (const char *)&bom[k], 1, cb, ctx);
                if (rc != 0)
                    return rc;
            }
            p->bytes -= seen;
        }
        p->bom_checked = 1;
    }
    while (i < len) {
        const char *start = buf + i;
        size_t rest = len - i, run;
        const char *nl;
        int rc;

        if (p->after_cr) {
            p->after_cr = 0;
            if (*start == '\n') {
                i++;
                continue;
            }
        }
        /* The run up to the next line terminator. */
        nl = NULL;
        for (run = 0; run < rest; run++)
            if (start[run] == '\n' || start[run] == '\r') {
                nl = start + run;
                break;
            }
        if (!p->skipping) {
            if (reserve(&p->line, &p->line_cap, p->line_len + run, p->max_line) != 0) {
                p->skipping = 1;
                p->oversize = 1;
                p->line_len = 0;
            } else {
                memcpy(p->line + p->line_len, start, run);
                p->line_len += run;
            }
        }
        i += run;
        if (nl == NULL)
            break;
        i++;
        if (*nl == '\r')
            p->after_cr = 1;
        if (p->skipping) {
            p->skipping = 0;
            p->line_len = 0;
            continue;
        }
        rc = on_line(p, cb, ctx);
        p->line_len = 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}
