#include "client/stdio.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/limits.h"

/* Frames the ring of a new transport holds before it first grows. */
#define MC__STDIO_QUEUE_START 16

int mc_stdio_start(mc_stdio_t *t, const mc_spawn_opts_t *opts, mc_errbuf_t *eb)
{
    mc_stdio_t nt;
    int rc;

    memset(&nt, 0, sizeof(nt));
    /* The ring starts small and grows to its cap as frames wait: a start
     * that zeroed the whole cap (4096 records of a kilobyte) cost a target
     * restart more CPU than the messages of a sequence. */
    nt.q_cap = MC__STDIO_QUEUE_START;
    nt.queue = calloc(nt.q_cap, sizeof(*nt.queue));
    nt.chunk = malloc(MC_READ_CHUNK);
    if (nt.queue == NULL || nt.chunk == NULL) {
        free(nt.queue);
        free(nt.chunk);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory for the frame queue");
    }
    rc = mc_proc_spawn(&nt.proc, opts, eb);
    if (rc != MC_OK) {
        free(nt.queue);
        free(nt.chunk);
        return rc;
    }
    mc_framer_init(&nt.framer, MC_MAX_MESSAGE_SIZE);
    *t = nt;
    return MC_OK;
}

/* Doubles the ring (up to MC_MAX_QUEUED_FRAMES), its frames kept in order.
 * Returns 0 when it cannot grow (at its cap, or out of memory). */
static int grow_queue(mc_stdio_t *t)
{
    size_t cap = t->q_cap * 2, i;
    mc_record_t *q;

    if (t->q_cap >= MC_MAX_QUEUED_FRAMES)
        return 0;
    if (cap > MC_MAX_QUEUED_FRAMES)
        cap = MC_MAX_QUEUED_FRAMES;
    q = calloc(cap, sizeof(*q));
    if (q == NULL)
        return 0;
    for (i = 0; i < t->q_count; i++)
        q[i] = t->queue[(t->q_head + i) % t->q_cap];
    free(t->queue);
    t->queue = q;
    t->q_head = 0;
    t->q_cap = cap;
    return 1;
}

/* True when no frame more can be queued: the byte cap is reached, or the
 * ring is full and cannot grow. */
static int queue_full(mc_stdio_t *t)
{
    if (t->q_bytes >= MC_MAX_QUEUED_BYTES)
        return 1;
    return t->q_count == t->q_cap && !grow_queue(t);
}

/*
 * Framer callback: copies the frame into the queue. It is only called while
 * the queue has room for one more frame; it asks the framer to stop once the
 * queue is full, so unframed bytes wait in t->chunk instead of piling up.
 */
static int on_frame(void *ctx, const mc_frame_t *fr)
{
    mc_stdio_t *t = ctx;
    mc_record_t *slot;

    if (t->q_count == t->q_cap)
        return 1; /* unreachable by construction; never overwrite */
    if (fr->kind == MC_FRAME_OVERSIZE && t->oversize_open) {
        /* Already reported when it passed the limit. */
        t->oversize_open = 0;
        return queue_full(t);
    }
    slot = &t->queue[(t->q_head + t->q_count) % t->q_cap];
    memset(slot, 0, sizeof(*slot));
    slot->kind = fr->kind;
    slot->flags = fr->flags;
    slot->len = fr->len;
    slot->at_ms = mc_now_ms();
    if (fr->data != NULL) {
        slot->data = malloc(fr->len + 1);
        if (slot->data == NULL) {
            /* Keep the event, lose the bytes: it is reported as oversize. */
            slot->kind = MC_FRAME_OVERSIZE;
        } else {
            memcpy(slot->data, fr->data, fr->len);
            slot->data[fr->len] = '\0';
            t->q_bytes += fr->len;
        }
    }
    t->q_count++;
    t->frames++;
    return queue_full(t);
}

/* Queues the early notice of a line that has just passed the size limit. */
static void note_open_oversize(mc_stdio_t *t)
{
    mc_frame_t fr;

    if (t->oversize_open || !mc_framer_skipping(&t->framer) || queue_full(t))
        return;
    fr.kind = MC_FRAME_OVERSIZE;
    fr.data = NULL;
    fr.len = mc_framer_pending(&t->framer);
    fr.flags = MC_FRAME_F_OPEN;
    on_frame(t, &fr);
    t->oversize_open = 1;
}

/* Frames as much of the pending chunk as the queue can take. */
static void feed_pending(mc_stdio_t *t)
{
    while (t->chunk_off < t->chunk_len && !queue_full(t)) {
        size_t used = 0;
        mc_framer_feed(&t->framer, t->chunk + t->chunk_off, t->chunk_len - t->chunk_off,
                       on_frame, t, &used);
        t->chunk_off += used;
        note_open_oversize(t);
    }
    if (t->chunk_off == t->chunk_len)
        t->chunk_off = t->chunk_len = 0;
}

/* Reads the target's stdout while the queue has room, without blocking. */
static void read_stdout(mc_stdio_t *t)
{
    int rounds = 0;

    feed_pending(t);
    while (t->proc.out_fd >= 0 && t->chunk_len == 0 && !queue_full(t) && rounds++ < 16) {
        ssize_t n = read(t->proc.out_fd, t->chunk, MC_READ_CHUNK);
        if (n > 0) {
            t->bytes_in += (uint64_t)n;
            t->chunk_len = (size_t)n;
            t->chunk_off = 0;
            feed_pending(t);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        /* EOF or a hard error: the target's output has ended. */
        close(t->proc.out_fd);
        t->proc.out_fd = -1;
        t->eof_seen = 1;
    }
    if (t->eof_seen && !t->stdout_eof && t->chunk_len == 0 && !queue_full(t)) {
        mc_framer_finish(&t->framer, on_frame, t);
        t->stdout_eof = 1;
    }
}

/* Writes queued output without blocking. */
static void write_stdin(mc_stdio_t *t)
{
    while (t->out_off < t->out_len && t->proc.in_fd >= 0) {
        ssize_t n = write(t->proc.in_fd, t->out + t->out_off, t->out_len - t->out_off);
        if (n > 0) {
            t->out_off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        /* EPIPE or another hard error: the target no longer reads. */
        t->stdin_broken = 1;
        mc_proc_close_stdin(&t->proc);
        t->out_off = t->out_len = 0;
        return;
    }
    if (t->out_off == t->out_len)
        t->out_off = t->out_len = 0;
}

int mc_stdio_pump(mc_stdio_t *t, int timeout_ms)
{
    struct pollfd pfd[3];
    int n = 0, i_out = -1, i_err = -1, i_in = -1, rc;

    if (t->proc.out_fd >= 0 && t->chunk_len == 0 && !queue_full(t)) {
        i_out = n;
        pfd[n].fd = t->proc.out_fd;
        pfd[n++].events = POLLIN;
    }
    if (t->proc.err_fd >= 0) {
        i_err = n;
        pfd[n].fd = t->proc.err_fd;
        pfd[n++].events = POLLIN;
    }
    if (t->proc.in_fd >= 0 && t->out_len > t->out_off) {
        i_in = n;
        pfd[n].fd = t->proc.in_fd;
        pfd[n++].events = POLLOUT;
    }
    if (n == 0) {
        /* Nothing to wait on (every pipe closed): let time pass a little so
         * callers waiting for a deadline do not spin. */
        if (timeout_ms > 0) {
            struct timespec ts = {0, (timeout_ms > 10 ? 10 : timeout_ms) * 1000000L};
            nanosleep(&ts, NULL);
        }
        read_stdout(t);
        return MC_OK;
    }
    for (int k = 0; k < n; k++)
        pfd[k].revents = 0;
    do {
        rc = poll(pfd, (nfds_t)n, timeout_ms);
    } while (rc < 0 && errno == EINTR);
    if (rc < 0)
        return MC_EIO;
    if (i_in >= 0 && pfd[i_in].revents)
        write_stdin(t);
    if (i_err >= 0 && pfd[i_err].revents)
        mc_proc_drain_stderr(&t->proc);
    if (i_out >= 0 && pfd[i_out].revents)
        read_stdout(t);
    else
        feed_pending(t);
    return MC_OK;
}

int mc_stdio_send(mc_stdio_t *t, const char *line, size_t len, int64_t deadline_ms)
{
    if (t->stdin_broken || t->proc.in_fd < 0)
        return MC_EEXITED;
    if (len > MC_MAX_OUTBOUND_BYTES)
        return MC_ETOOBIG;
    /* Make room: wait for the target to read what is already queued. */
    while (t->out_len - t->out_off + len > MC_MAX_OUTBOUND_BYTES) {
        int64_t left = deadline_ms - mc_now_ms();
        if (left <= 0)
            return MC_ETIMEOUT;
        mc_stdio_pump(t, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
        if (t->stdin_broken)
            return MC_EEXITED;
    }
    if (t->out_off > 0) {
        memmove(t->out, t->out + t->out_off, t->out_len - t->out_off);
        t->out_len -= t->out_off;
        t->out_off = 0;
    }
    if (t->out_len + len > t->out_cap) {
        size_t cap = t->out_cap ? t->out_cap : 4096;
        char *nb;
        while (cap < t->out_len + len)
            cap *= 2;
        if (cap > MC_MAX_OUTBOUND_BYTES)
            cap = MC_MAX_OUTBOUND_BYTES;
        nb = realloc(t->out, cap);
        if (nb == NULL)
            return MC_ENOMEM;
        t->out = nb;
        t->out_cap = cap;
    }
    memcpy(t->out + t->out_len, line, len);
    t->out_len += len;
    write_stdin(t);
    /* Flush the rest before returning, so a message is never half-sent when
     * the caller starts waiting for its answer. */
    while (t->out_len > t->out_off && !t->stdin_broken) {
        int64_t left = deadline_ms - mc_now_ms();
        if (left <= 0)
            return MC_ETIMEOUT;
        mc_stdio_pump(t, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
    }
    return t->stdin_broken ? MC_EEXITED : MC_OK;
}

/*
 * Called with nothing queued: when the target has exited, reads what its
 * stdout still holds and then ends the output, even if a descendant keeps
 * the pipe open (the server's exit is what counts, not the pipe's).
 */
static void check_exited(mc_stdio_t *t)
{
    int rounds = 0;

    if (t->eof_seen || t->proc.out_fd < 0 || !mc_proc_try_reap(&t->proc))
        return;
    for (;;) {
        uint64_t before = t->bytes_in;
        read_stdout(t);
        if (t->q_count > 0 || t->chunk_len > 0)
            return; /* deliver these first; come back when they are consumed */
        if (t->bytes_in == before || ++rounds >= 64)
            break;
    }
    close(t->proc.out_fd);
    t->proc.out_fd = -1;
    t->eof_seen = 1;
    t->target_exited = 1;
    read_stdout(t);
}

int mc_stdio_recv(mc_stdio_t *t, mc_record_t *frame, int64_t deadline_ms)
{
    for (;;) {
        int64_t left;

        if (t->q_count == 0)
            read_stdout(t);
        if (t->q_count == 0)
            check_exited(t);
        if (t->q_count > 0) {
            *frame = t->queue[t->q_head];
            memset(&t->queue[t->q_head], 0, sizeof(t->queue[t->q_head]));
            t->q_head = (t->q_head + 1) % t->q_cap;
            t->q_count--;
            if (frame->data != NULL)
                t->q_bytes -= frame->len;
            return MC_OK;
        }
        if (t->stdout_eof)
            return MC_EEOF;
        left = deadline_ms - mc_now_ms();
        if (left <= 0)
            return MC_ETIMEOUT;
        if (mc_stdio_pump(t, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left) != MC_OK)
            return MC_EIO;
    }
}

static int link_send(void *ctx, const char *line, size_t len, int64_t deadline_ms)
{
    return mc_stdio_send(ctx, line, len, deadline_ms);
}

static int link_recv(void *ctx, mc_record_t *frame, int64_t deadline_ms)
{
    return mc_stdio_recv(ctx, frame, deadline_ms);
}

mc_link_t mc_stdio_link(mc_stdio_t *t)
{
    mc_link_t l;

    l.ctx = t;
    l.send = link_send;
    l.recv = link_recv;
    l.set_sink = NULL;
    return l;
}

static void free_queue(mc_stdio_t *t)
{
    while (t->q_count > 0) {
        mc_record_free(&t->queue[t->q_head]);
        t->q_head = (t->q_head + 1) % t->q_cap;
        t->q_count--;
    }
    free(t->queue);
    t->queue = NULL;
}

/* Releases the buffers; the process record (status, stderr) stays. */
static void release_buffers(mc_stdio_t *t)
{
    if (t->queue != NULL)
        free_queue(t);
    mc_framer_free(&t->framer);
    free(t->chunk);
    t->chunk = NULL;
    t->chunk_len = t->chunk_off = 0;
    free(t->out);
    t->out = NULL;
    t->out_len = t->out_off = t->out_cap = 0;
}

int mc_stdio_stop(mc_stdio_t *t, int stdin_grace_ms, int term_grace_ms)
{
    int how = 0;

    if (t->proc.pid > 0 && !t->stopped)
        how = mc_proc_shutdown(&t->proc, stdin_grace_ms, term_grace_ms);
    t->stopped = 1;
    release_buffers(t);
    return how;
}

void mc_stdio_free(mc_stdio_t *t)
{
    release_buffers(t);
    mc_proc_free(&t->proc);
}
