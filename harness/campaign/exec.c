/*
 * exec.c - the executor: its life, and one run of a sequence composed of
 * the jobs of its other files (exec_internal.h lists them).
 *
 * Promises: mc_exec_run restarts the target only when state must be reset
 * (asked for, restart_every sequences, it died or hung, too many wire
 * findings in one process), sends the sequence, waits for what is due,
 * and fills the outcome: findings, states, new coverage, line counts, and
 * with record the trace and per-element answers. A failure to start or a
 * refused session prefix is the harness's (its return value); whatever
 * the target does is an outcome.
 */
#include "campaign/exec.h"

#include <stdlib.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/version.h"

int mc_exec_new(mc_exec_t **out, const mc_exec_opts_t *opts, mc_errbuf_t *eb)
{
    mc_exec_t *x = calloc(1, sizeof(*x));
    int rc;

    if (x == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    x->o = *opts;
    if (x->o.hang_ms <= 0)
        x->o.hang_ms = MC_EXEC_HANG_MS;
    if (x->o.settle_ms <= 0)
        x->o.settle_ms = MC_EXEC_SETTLE_MS;
    if (x->o.restart_every <= 0)
        x->o.restart_every = MC_EXEC_RESTART_EVERY;
    x->shm_id = -1;
    x->dropped = x->o.dropped != NULL ? x->o.dropped : &x->dropped_own;
    x->t0 = mc_now_ms();
    x->inl = calloc(MC_EXEC_MAX_INLINES, sizeof(*x->inl));
    rc = mc__exec_ids_init(x);
    /* What the client declares: every client capability of the version
     * (the stateless version has no roots.listChanged: it removed
     * notifications/roots/list_changed). */
    x->client_caps = json_tokener_parse(
        x->o.version != NULL && mc_version_has(x->o.version, MC_VF_STATELESS)
            ? "{\"roots\": {}, \"sampling\": {}, \"elicitation\": {}}"
            : "{\"roots\": {\"listChanged\": true}, \"sampling\": {}, \"elicitation\": {}}");
    if (x->inl == NULL || rc != 0 || x->client_caps == NULL) {
        mc_exec_free(x);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    if (x->o.coverage && (rc = mc__exec_cov_open(x, eb)) != MC_OK) {
        mc_exec_free(x);
        return rc;
    }
    *out = x;
    return MC_OK;
}

void mc_exec_free(mc_exec_t *x)
{
    if (x == NULL)
        return;
    mc_exec_stop(x);
    mc__exec_stop_spare(x);
    json_object_put(x->ahead);
    mc__exec_cov_close(x);
    free(x->inl);
    mc__exec_ids_free(x);
    mc__exec_feed_reset(x);
    json_object_put(x->client_caps);
    free(x);
}

void mc_exec_outcome_free(mc_exec_outcome_t *out)
{
    free(out->trace);
    out->trace = NULL;
    out->trace_len = 0;
}

/* How a run is going. */
typedef struct run {
    size_t n0;         /* the judge's findings before this sequence */
    int dead;          /* the target died (or closed its output) */
    int stop_after;    /* the target is to be stopped after the sequence */
    const char *doing; /* what was under way, for a death */
} run_t;

/* Makes the target ready for a sequence: restarts it when due, or starts
 * it. Returns MC_OK (r says whether the target is usable) or a harness
 * failure. */
static int ready(mc_exec_t *x, int fresh, mc_exec_outcome_t *out, run_t *r, mc_errbuf_t *eb)
{
    int rc;

    if (x->running && (fresh || x->seqs_in_proc >= (uint64_t)x->o.restart_every ||
                       x->j.w.n_findings > MC_WIRE_MAX_FINDINGS / 2))
        mc_exec_stop(x);
    if (x->running) {
        r->n0 = x->j.w.n_findings;
        mc__exec_cov_clear(x);
        /* Each sequence is a step of its own for the session's flood guard:
         * counted over the process, a long-lived server's ordinary answers
         * would pass the guard's threshold after a few hundred sequences,
         * and every later wait would end as a "flood" without reading the
         * answers (false hangs, and nothing judged). */
        mc_session_begin_step(&x->s);
        return MC_OK;
    }
    out->started = 1;
    rc = mc__exec_start(x, eb);
    if (rc == MC_ESPAWN || rc == MC_ENOMEM || rc == MC_EPROTO) {
        mc_exec_stop(x);
        return rc;
    }
    if (rc == MC_ETIMEOUT) {
        mc__exec_add_finding(out, MC_FIND_HANG, "process/hang", "initialize", "",
                             "initialize was not answered within the start-up budget");
        r->stop_after = 1;
    } else if (rc != MC_OK) {
        r->dead = 1;
        r->doing = "answering initialize";
    }
    return MC_OK;
}

/* True when a sequence ends with the barrier: over stdio, unless turned
 * off, and not on a target seen to write the coverage map (the barrier's
 * ping would light code of its own there, which the map would owe to the
 * sequence; lock-step waits for each answer instead). */
static int barrier_on(const mc_exec_t *x)
{
    if (x->o.url != NULL || x->o.no_barrier || x->barrier_off)
        return 0;
    return x->map == NULL ||
           !(x->instrumented || (x->o.twin != NULL && x->o.twin->instrumented));
}

/* The sequence to send ahead of the answers to this one, or NULL: next
 * (may be NULL), when the executor pipelines and the next run will use
 * this process as it is (no restart due, no coverage map written, no sign
 * of a server that answers out of turn or talks on its own). */
static json_object *ahead_of(const mc_exec_t *x, json_object *next)
{
    if (next == NULL || x->o.no_pipeline || x->pipe_off || x->fresh_run || x->record ||
        x->lockstep || x->proc_chatter || x->dropped->out_of_order || !x->running)
        return NULL;
    if (x->map != NULL) {
        const mc_exec_t *tw = x->o.twin;
        if (x->seqs_run == 0 || x->instrumented || (tw != NULL && tw->instrumented))
            return NULL;
    }
    if (x->seqs_in_proc + 1 >= (uint64_t)x->o.restart_every ||
        x->j.w.n_findings > MC_WIRE_MAX_FINDINGS / 2)
        return NULL;
    return next;
}

/* Sends the sequence and waits for what is due (over stdio, up to the
 * answer to a ping sent after it: the barrier, after which next may go
 * ahead); a request still unanswered is a hang, and a target that then
 * answers no ping either is stopped. */
static void feed(mc_exec_t *x, json_object *seq, size_t nel, json_object *next, run_t *r)
{
    int64_t off = (int64_t)x->seqs_in_proc * MC_EXEC_ID_STRIDE;
    json_object *ahead;
    size_t i;

    for (i = 0; i < nel && !r->dead; i++) {
        mc__exec_fed_t fed = mc__exec_feed_element(x, seq, i, off);
        if (fed == MC__EXEC_FED_STUCK) {
            r->stop_after = 1;
            return;
        }
        if (fed == MC__EXEC_FED_DEAD)
            r->dead = 1;
    }
    /* What this sequence sent ahead took as answered is now its own. */
    x->pre_n = 0;
    x->n_unclaimed = 0;
    if (!r->dead && barrier_on(x)) {
        mc__exec_fed_t fed;
        ahead = ahead_of(x, next);
        fed = mc__exec_barrier(x, ahead, off + MC_EXEC_ID_STRIDE);
        if (x->ahead_n > 0) {
            x->ahead = json_object_get(ahead);
            x->ahead_start = x->starts;
            x->cnt.sent_ahead++;
        }
        if (fed == MC__EXEC_FED_STUCK) {
            r->stop_after = 1;
            return;
        }
        r->dead = fed == MC__EXEC_FED_DEAD;
    } else if (!r->dead) {
        r->dead = mc__exec_await(x);
    }
    /* A death after the barrier's answer, with the next sequence sent, is
     * the next sequence's: its run finds it. */
    if (!r->dead && !(x->ahead != NULL && x->barrier_answered) && mc__exec_gone(x))
        r->dead = 1;
    if (!r->dead && mc__exec_outstanding(x) > 0) {
        mc__exec_note_hang(x, seq, x->cur);
        /* A server that only ignored a message is still good for the next
         * sequence (one that answered the barrier serves); one that answers
         * no ping either is restarted (so is one that answered no barrier
         * with a sequence sent ahead: the ping would read its answers). */
        if (!x->barrier_answered && (x->ahead != NULL || !mc__exec_alive(x)))
            r->stop_after = 1;
    }
    if (x->ahead != NULL && !x->barrier_answered)
        r->stop_after = 1;
}

/* Forgets the sequence sent ahead. */
static void drop_ahead(mc_exec_t *x)
{
    json_object_put(x->ahead);
    x->ahead = NULL;
    x->ahead_n = 0;
    x->ahead_lines = 0;
}

/* One run of seq (see mc_exec_run), with next to send ahead or NULL. */
static int run_seq(mc_exec_t *x, json_object *seq, int fresh, int record, json_object *next,
                   mc_exec_outcome_t *out, mc_errbuf_t *eb)
{
    size_t nel = json_object_array_length(seq);
    run_t r;
    int rc, attributing;
    uint64_t ahead_lines = 0;

    memset(out, 0, sizeof(*out));
    out->last_edge_elem = -1;
    memset(&r, 0, sizeof(r));
    r.doing = "handling the sequence";
    if (nel > MC_EXEC_MAX_ELEMS)
        nel = MC_EXEC_MAX_ELEMS; /* longer sequences are cut (MC_GEN_MAX_SEQ is far less) */
    x->cur = out;
    x->record = record;
    x->fresh_run = fresh;
    x->barrier_answered = 0;
    x->waited_out = 0;
    x->chatter = 0;
    x->trace_cap = 0;
    x->prev_state = 0;
    mc__exec_feed_reset(x);
    x->pre_n = 0;
    /* The process has served lines of a sequence sent ahead: only that
     * sequence's run may go on with it; any other starts afresh. */
    if (x->ahead != NULL && (x->ahead != seq || fresh || record || x->ahead_start != x->starts))
        mc_exec_stop(x);
    rc = ready(x, fresh, out, &r, eb);
    if (x->ahead != NULL && x->running && !out->started) {
        x->pre_n = x->ahead_n;
        ahead_lines = x->ahead_lines;
    }
    drop_ahead(x);
    if (rc != MC_OK) {
        x->cur = NULL;
        return rc;
    }
    out->lines_out += ahead_lines;
    /* Each answer is waited for, and the map read after it, once the
     * target is known to write the map. */
    x->lockstep = attributing =
        x->map != NULL && x->running &&
        (x->instrumented || (x->o.twin != NULL && x->o.twin->instrumented));
    if (!r.dead && !r.stop_after)
        feed(x, seq, nel, next, &r);
    mc__exec_collect_findings(x, r.n0, out);
    if (r.dead && x->running) {
        mc__exec_note_death(x, out, r.doing);
        mc_exec_stop(x);
    }
    if (r.stop_after)
        mc_exec_stop(x);
    mc__exec_check_memory(x, out);
    if (attributing)
        (void)mc__exec_cov_credit(x, x->cur_elem);
    if (x->map != NULL && !x->confirming)
        out->new_cov = mc__exec_cov_read(x, &out->new_edges);
    x->lockstep = 0;
    x->seqs_in_proc++;
    x->seqs_run++;
    x->cur = NULL;
    if (!x->running)
        drop_ahead(x);
    return MC_OK;
}

int mc_exec_run(mc_exec_t *x, json_object *seq, int fresh, int record, mc_exec_outcome_t *out,
                mc_errbuf_t *eb)
{
    return run_seq(x, seq, fresh, record, NULL, out, eb);
}

int mc_exec_run_ahead(mc_exec_t *x, json_object *seq, json_object *next, mc_exec_outcome_t *out,
                      mc_errbuf_t *eb)
{
    return run_seq(x, seq, 0, 0, next, out, eb);
}

mc_exec_counters_t mc_exec_counters(const mc_exec_t *x)
{
    return x->cnt;
}

int mc_exec_confirm(mc_exec_t *x, mc_exec_t *fx, json_object *seq, mc_exec_outcome_t *out,
                    size_t *kept, mc_errbuf_t *eb)
{
    int rc;

    memset(out, 0, sizeof(*out));
    out->last_edge_elem = -1;
    *kept = 0;
    if (x->map == NULL || x->n_newly == 0)
        return MC_OK;
    if (fx->map == NULL || fx->map_size != x->map_size)
        rc = mc_errbuf_set(eb, MC_EINVAL, "the confirming executor has no coverage map of the same size");
    else {
        fx->confirming = 1;
        rc = mc_exec_run(fx, seq, 1, 0, out, eb);
        fx->confirming = 0;
    }
    if (rc != MC_OK) {
        *kept = x->n_newly;
        x->n_newly = 0;
        return rc;
    }
    *kept = mc__exec_cov_confirm(x, fx->map, 0);
    return MC_OK;
}

size_t mc_exec_forget_new(mc_exec_t *x)
{
    size_t n = x->n_newly;

    return n - mc__exec_cov_confirm(x, NULL, 1);
}

size_t mc_exec_coverage(const mc_exec_t *x)
{
    return x->cov_total;
}

const uint32_t *mc_exec_lit(const mc_exec_t *x, size_t *n)
{
    *n = x->map != NULL ? x->n_lit : 0;
    return x->map != NULL ? x->lit : NULL;
}

const uint32_t *mc_exec_hits(const mc_exec_t *x, size_t *n)
{
    *n = x->hits != NULL ? x->map_size : 0;
    return x->hits;
}

int mc_exec_instrumented(const mc_exec_t *x)
{
    return x->instrumented;
}

const uint8_t *mc_exec_map(const mc_exec_t *x, size_t *n)
{
    *n = x->map != NULL ? x->map_size : 0;
    return x->map;
}

json_object *mc_exec_request_meta(const mc_exec_t *x)
{
    json_object *params, *meta = NULL;

    if (!mc_version_has(x->o.version, MC_VF_STATELESS) || (params = json_object_new_object()) == NULL)
        return NULL;
    if (mc_stateless_stamp(params, x->o.version, x->client_caps, "mcpcheck", MC_VERSION) == MC_OK)
        meta = json_object_get(mc_json_get(params, "_meta"));
    json_object_put(params);
    return meta;
}

uint64_t mc_exec_starts(const mc_exec_t *x)
{
    return x->starts;
}

const char *mc_exec_version(const mc_exec_t *x)
{
    return x->version;
}

int64_t mc_exec_id_offset(const mc_exec_t *x)
{
    return x->running ? (int64_t)x->seqs_in_proc * MC_EXEC_ID_STRIDE : 0;
}
