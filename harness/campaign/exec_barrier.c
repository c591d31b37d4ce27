/*
 * exec_barrier.c - the end of a sequence over stdio: a ping of the
 * executor's own (the barrier), whose answer is the point by which a
 * server answering in order has answered or dropped what came before.
 *
 * Promises: a request unanswered at the barrier is dropped at once when
 * its shape is known to be dropped, or on a persistent process that shows
 * no sign of working on it (a candidate: mc_exec_finding_t.at_barrier);
 * it is waited for the whole hang budget on a fresh process; a tool call,
 * while the server writes notifications or requests of its own (work under
 * way); and on every process, when a request of its shape was seen
 * answered after a later ping; a shape left unanswered for the whole
 * budget is known from then on (shared through mc_exec_dropped_t); the
 * barrier is sent again, up to MC__EXEC_BARRIER_ROUNDS, while requests are
 * unanswered; a barrier left unanswered turns it off for the executor.
 * docs/fuzzing.md, "The barrier".
 */
#include <stdio.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/clock.h"
#include "core/json.h"

/* Adds to h the members of object o (sorted by name: their order is no
 * part of the shape) with their JSON types. */
static uint32_t shape_members(uint32_t h, json_object *o)
{
    const char *names[32];
    size_t n = 0, i, j;

    if (!json_object_is_type(o, json_type_object))
        return mc__exec_hash(h, json_type_to_name(json_object_get_type(o)));
    json_object_object_foreach(o, key, val) {
        (void)val;
        if (n < sizeof(names) / sizeof(names[0]))
            names[n++] = key;
    }
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        h = mc__exec_hash(h, names[i]);
        h = mc__exec_hash(h, json_type_to_name(json_object_get_type(mc_json_get(o, names[i]))));
    }
    return h;
}

uint32_t mc__exec_shape(json_object *msg)
{
    uint32_t h = mc__exec_hash(0, mc_json_get_str(msg, "method"));

    h = shape_members(h, msg);
    h = shape_members(mc__exec_hash(h, "params"), mc_json_get(msg, "params"));
    return h != 0 ? h : 1;
}


/* True when shape is in set[0..*n). */
static int in_set(const uint32_t *set, _Atomic size_t *n, uint32_t shape)
{
    size_t i, k = atomic_load(n);

    for (i = 0; i < k; i++)
        if (set[i] == shape)
            return 1;
    return 0;
}

/* Adds shape to set[0..*n) (a table of x->dropped): written, then counted,
 * so that readers need no lock; writers (two executors may run on two
 * threads) take the table's. */
static void set_add(mc_exec_t *x, uint32_t *set, _Atomic size_t *n, uint32_t shape)
{
    mc_exec_dropped_t *d = x->dropped;
    size_t k;

    while (atomic_exchange(&d->lock, 1))
        ;
    k = atomic_load(n);
    if (!in_set(set, n, shape) && k < MC_EXEC_MAX_DROPPED) {
        set[k] = shape;
        atomic_store(n, k + 1);
    }
    atomic_store(&d->lock, 0);
}

int mc__exec_known_dropped(const mc_exec_t *x, uint32_t shape)
{
    return in_set(x->dropped->shape, &x->dropped->n, shape);
}

/* Remembers that a fresh process left a request of this shape unanswered
 * for the whole hang budget. */
static void known_add(mc_exec_t *x, uint32_t shape)
{
    set_add(x, x->dropped->shape, &x->dropped->n, shape);
}

void mc__exec_note_late(mc_exec_t *x, uint32_t shape)
{
    atomic_store(&x->dropped->out_of_order, 1);
    set_add(x, x->dropped->late, &x->dropped->n_late, shape);
}

/* Watches the ids left unanswered at this barrier for a late answer (an
 * out-of-order server): the observer notes one (dropped->out_of_order). */
static void watch_late(mc_exec_t *x)
{
    size_t k;

    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled && !x->exp[k].held) {
            x->late_watch[x->n_late_watch % MC_EXEC_MAX_LATE_WATCH] = x->exp[k].key;
            x->late_shape[x->n_late_watch % MC_EXEC_MAX_LATE_WATCH] = x->exp[k].shape;
            x->n_late_watch++;
        }
}

/* Unanswered requests of shapes not known to be dropped; with tools_only,
 * only tool calls (what a server may work on a while: a tool may log,
 * report progress or ask the client before it answers). */
static size_t unknown_outstanding(const mc_exec_t *x, int tools_only)
{
    size_t k, n = 0;

    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled && !x->exp[k].held &&
            (!tools_only || x->exp[k].tool) && !mc__exec_known_dropped(x, x->exp[k].shape))
            n++;
    return n;
}

/* True when a request is unanswered whose shape the target was seen to
 * answer after a later barrier (and not known to be dropped). */
static int late_outstanding(mc_exec_t *x)
{
    size_t k;

    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled && !x->exp[k].held &&
            !mc__exec_known_dropped(x, x->exp[k].shape) &&
            in_set(x->dropped->late, &x->dropped->n_late, x->exp[k].shape))
            return 1;
    return 0;
}

/* Polls until the barrier is answered, within the hang budget of silence
 * (four budgets at most in all). Returns MC_EEOF when the output ended. */
static int barrier_wait(mc_exec_t *x)
{
    int64_t began = x->last_heard = mc_now_ms();
    int rc = MC_OK;

    while (!x->barrier_answered) {
        rc = mc__exec_wait_slice(x, began);
        if (rc != MC_OK)
            break;
    }
    x->cnt.barrier_ms += (uint64_t)(mc_now_ms() - began);
    return rc == MC_EEOF ? MC_EEOF : MC_OK;
}

/* On a fresh process, waits for the unanswered requests of unknown shapes
 * as mc__exec_await does (the hang budget of silence), and makes the shapes
 * still unanswered then known. Returns MC_EEOF when the output ended. */
static int wait_out(mc_exec_t *x)
{
    int64_t began = x->last_heard = mc_now_ms();
    size_t k;
    int rc;

    x->waited_out = 1;
    while (unknown_outstanding(x, 0) > 0) {
        rc = mc__exec_wait_slice(x, began);
        if (rc == MC_EEOF)
            return MC_EEOF;
        if (rc != MC_OK) {
            mc__exec_count_hang_wait(x, began);
            break;
        }
    }
    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled && !x->exp[k].held)
            known_add(x, x->exp[k].shape);
    return MC_OK;
}

/* Sends one barrier and, unless ahead is NULL or may not go ahead, the
 * next sequence after it (x->ahead_n says how much went), then waits for
 * the barrier's answer. */
static mc__exec_fed_t barrier_once(mc_exec_t *x, json_object *ahead, int64_t ahead_off)
{
    json_object *req;
    const char *line;
    char idtext[40];
    int rc;

    snprintf(idtext, sizeof(idtext), "mcpcheck-barrier-%llu", (unsigned long long)++x->barriers);
    /* As the observer compacts an id: quoted. */
    snprintf(x->barrier_id, sizeof(x->barrier_id), "\"%s\"", idtext);
    req = mc__exec_ping_request(x, idtext);
    if (req == NULL)
        return MC__EXEC_FED_OK; /* out of memory: the sequence ends unchecked */
    x->barrier_answered = 0;
    x->barrier_sending = 1;
    line = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
    rc = mc_session_send_raw(&x->s, line, strlen(line), x->o.hang_ms);
    x->barrier_sending = 0;
    json_object_put(req);
    x->cnt.barriers++;
    if (rc == MC_ETIMEOUT) {
        mc__exec_add_finding(x->cur, MC_FIND_HANG, "process/hang", "", "stdin",
                             "the server stopped reading its input");
        return MC__EXEC_FED_STUCK;
    }
    if (rc == MC_OK && ahead != NULL && mc__exec_pipeable(x, ahead, ahead_off))
        (void)mc__exec_presend(x, ahead, ahead_off); /* a failure shows in the wait */
    if (rc != MC_OK || barrier_wait(x) == MC_EEOF)
        return MC__EXEC_FED_DEAD;
    return MC__EXEC_FED_OK;
}

mc__exec_fed_t mc__exec_barrier(mc_exec_t *x, json_object *ahead, int64_t ahead_off)
{
    mc__exec_fed_t fed = barrier_once(x, ahead, ahead_off);
    int round;

    if (fed != MC__EXEC_FED_OK)
        return fed;
    if (!x->barrier_answered) {
        /* A server that answers no ping: the rest of its sequences settle
         * as before the barrier; what is unanswered now is a hang. */
        x->barrier_off = 1;
        return MC__EXEC_FED_OK;
    }
    /* With the next sequence sent, what follows the barrier's answer is its
     * own: a request unanswered now is a candidate (at_barrier), which a
     * fresh process confirms with the whole wait. Where the wait is owed on
     * this process too (work under way, a server out of order), it is
     * waited for, the next sequence's answers that come meanwhile are kept
     * for it (mc__exec_unclaimed_add), and nothing more is sent ahead. */
    if (x->ahead_n > 0) {
        if ((x->chatter && unknown_outstanding(x, 1) > 0) || late_outstanding(x)) {
            x->pipe_off = 1;
            if (wait_out(x) == MC_EEOF)
                return MC__EXEC_FED_DEAD;
        }
        watch_late(x);
        return MC__EXEC_FED_OK;
    }
    /* A server whose handlers complete out of turn (an event loop: a
     * request's handler waits, a ping's does not) may answer just after the
     * barrier: the barrier is sent again while requests are unanswered, up
     * to MC__EXEC_BARRIER_ROUNDS in all. */
    for (round = 1; round < MC__EXEC_BARRIER_ROUNDS && unknown_outstanding(x, 0) > 0; round++) {
        fed = barrier_once(x, NULL, 0);
        if (fed != MC__EXEC_FED_OK)
            return fed;
        if (!x->barrier_answered) {
            x->barrier_off = 1;
            return MC__EXEC_FED_OK;
        }
    }
    /* A request of a shape not known to be dropped is waited for on a
     * fresh process (a confirmation: nothing is reported unconfirmed); a
     * tool call, while the server shows work under way (it wrote
     * notifications or requests of its own: a tool may log as it runs,
     * where a timer may log too); and on every process a request of a shape
     * the server was seen to answer after the ping that followed it (out
     * of order). Any other request left unanswered is a candidate, which a
     * fresh process confirms. */
    if (((x->fresh_run && unknown_outstanding(x, 0) > 0) ||
         (x->chatter && unknown_outstanding(x, 1) > 0) || late_outstanding(x)) &&
        wait_out(x) == MC_EEOF)
        return MC__EXEC_FED_DEAD;
    watch_late(x);
    return MC__EXEC_FED_OK;
}
