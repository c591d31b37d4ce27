/*
 * confirm.c - the confirmer: MC_CAMPAIGN_CONFIRMERS threads of each worker
 * that take the findings its persistent process showed, show each again on
 * fresh processes of their own (waiting out a hang budget where a drop
 * must be confirmed: several such waits go on side by side), minimize it
 * and write it to findings/ or unconfirmed/, while the worker's persistent
 * process goes on fuzzing.
 *
 * Promises: what is handed over is taken in the order it came, on copies
 * the confirmer owns (json-c's reference counts are not shared between
 * threads); a signature is in the queue or in hand once at a time; the
 * counters, the signature table and the queue are read and written under
 * one lock; with --max-findings no more findings are written than asked
 * (a thread waits while the findings written and those in hand reach it);
 * at the end everything queued is handled before the threads stop (no
 * finding is lost; minimization ends with the campaign's time), and an
 * interrupted campaign's fresh runs end at once.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "core/clock.h"

/* The longest path the confirmer builds in the campaign directory. */
#define CONFIRM_PATH_LEN 4096

/* A finding handed over: copies the confirmer owns. */
typedef struct job {
    mc__camp_sig_t *s;
    json_object *seq, *carry, *hist; /* deep copies; carry and hist may be NULL */
    mc_exec_finding_t f;
    int64_t found_ms; /* campaign time when it was seen */
} job_t;

/* One thread of the confirmer, with the fresh runs' executor it alone uses. */
typedef struct hand {
    mc__camp_confirmer_t *cf;
    mc_exec_t *cx;
    pthread_t th;
    int started;
    uint64_t starts; /* processes cx started (under the confirmer's lock) */
} hand_t;

struct mc__camp_confirmer {
    const mc_campaign_opts_t *o;
    int64_t t0;
    hand_t hands[MC_CAMPAIGN_CONFIRMERS];
    int n_hands;
    pthread_mutex_t mu; /* guards everything below */
    pthread_cond_t wake; /* a job queued, or the end */
    pthread_cond_t room; /* a slot of the queue freed */
    pthread_cond_t idle; /* a job done (for mc__camp_confirmer_wait) */
    job_t q[MC_CAMPAIGN_CONFIRM_QUEUE];
    size_t head, n;
    int ending;
    int handling; /* jobs its threads are handling now */
    mc__camp_sigs_t sigs;
    mc__camp_confirmed_t done;
};

/* A deep copy of v (NULL when out of memory). */
static json_object *copy_of(json_object *v)
{
    json_object *c = NULL;

    return json_object_deep_copy(v, &c, NULL) == 0 ? c : NULL;
}

static int has_sig(const mc_exec_outcome_t *out, const char *sig)
{
    size_t i;

    for (i = 0; i < out->nf; i++)
        if (strcmp(out->f[i].sig, sig) == 0)
            return 1;
    return 0;
}

int64_t mc__camp_deadline(void *ctx)
{
    const mc__camp_confirmer_t *cf = ((const hand_t *)ctx)->cf;

    return cf->o->seconds > 0 ? cf->t0 + (int64_t)cf->o->seconds * 1000 : INT64_MAX;
}

/* Processes the confirmer's threads started so far (lock held). */
static uint64_t starts_of(const mc__camp_confirmer_t *cf)
{
    uint64_t n = 0;
    int i;

    for (i = 0; i < cf->n_hands; i++)
        n += cf->hands[i].starts;
    return n;
}

/* Adds what one fresh run of h cost to the counters. */
static void count_run(hand_t *h, const mc_exec_outcome_t *out)
{
    mc__camp_confirmer_t *cf = h->cf;

    pthread_mutex_lock(&cf->mu);
    cf->done.execs++;
    cf->done.msgs_out += out->lines_out;
    cf->done.msgs_in += out->lines_in;
    h->starts = mc_exec_starts(h->cx);
    cf->done.starts = starts_of(cf);
    pthread_mutex_unlock(&cf->mu);
}

/* Runs seq on a fresh process; 1 when it shows sig. With rec it is
 * recorded, and its outcome kept in *rec when it shows sig (the one there
 * before, *have set, freed first). */
static int reproduces(hand_t *h, json_object *seq, const char *sig, mc_exec_outcome_t *rec,
                      int *have)
{
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    int hit;

    if (h->cf->o->stop != NULL && *h->cf->o->stop)
        return 0;
    mc_errbuf_clear(&eb);
    if (mc_exec_run(h->cx, seq, 1, rec != NULL, &out, &eb) != MC_OK)
        return 0;
    count_run(h, &out);
    hit = has_sig(&out, sig);
    if (hit && rec != NULL && *have)
        mc_exec_outcome_free(rec);
    if (hit && rec != NULL) {
        *rec = out;
        *have = 1;
    } else {
        mc_exec_outcome_free(&out);
    }
    return hit;
}

int mc__camp_reproduces(void *ctx, json_object *seq, const char *sig)
{
    return reproduces(ctx, seq, sig, NULL, NULL);
}

/* The fresh runs spent trying unconfirmed findings again are within their
 * share of all runs (execs, the worker's). Lock held. */
static int retry_ok(const mc__camp_confirmer_t *cf, uint64_t execs)
{
    return cf->done.retries * MC_CAMPAIGN_FRESH_SHARE < execs + cf->done.execs;
}

/* Counts a fresh run spent trying an unconfirmed finding again. */
static void count_retry(mc__camp_confirmer_t *cf)
{
    pthread_mutex_lock(&cf->mu);
    cf->done.retries++;
    pthread_mutex_unlock(&cf->mu);
}

/* Claims the signature for this worker (a lock file in findings/): 0 when
 * another worker (or an earlier run) has it. */
static int claim(mc__camp_confirmer_t *cf, const mc_exec_finding_t *f)
{
    char lock[CONFIRM_PATH_LEN], name[64];
    uint64_t h = mc__camp_hash(f->sig, strlen(f->sig));
    int fd;

    /* A dotfile: the claim is no finding of its own. */
    snprintf(name, sizeof(name), ".%016llx.lock", (unsigned long long)h);
    if (snprintf(lock, sizeof(lock), "%s/findings/%s", cf->o->out_dir, name) >=
        (int)sizeof(lock))
        return 0;
    fd = open(lock, O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

/* Handles job j: seq alone, then carry (seq with the end of the sequence
 * before it in front, mc__camp_with_carry), then hist joined with seq
 * (mc__camp_with_history) are run on fresh processes until one shows the
 * finding again. What a fresh process shows goes to findings/, minimized;
 * what it does not, to unconfirmed/ the first time only. */
static void handle(hand_t *h, job_t *j)
{
    mc__camp_confirmer_t *cf = h->cf;
    mc__camp_sig_t *s = j->s;
    json_object *seq = j->seq, *min = NULL, *joined = NULL;
    const mc_exec_finding_t *f = &j->f;
    mc__camp_found_t fd;
    mc_exec_outcome_t rec, *keep;
    mc_errbuf_t eb;
    int reproduced = 0, tries, first, have_rec = 0, owned;
    size_t taken = 0;

    pthread_mutex_lock(&cf->mu);
    first = s->tries == 0;
    s->tries++;
    owned = s->owned;
    pthread_mutex_unlock(&cf->mu);
    if (!owned) {
        owned = claim(cf, f);
        pthread_mutex_lock(&cf->mu);
        s->owned = owned;
        s->settled = !owned; /* another worker (or an earlier run) has it */
        pthread_mutex_unlock(&cf->mu);
        if (!owned)
            return;
    }
    memset(&fd, 0, sizeof(fd));
    fd.f = *f;
    fd.found_ms = j->found_ms;
    /* The run that shows it again is recorded: it is the one written when
     * minimization leaves the sequence whole (or is not asked for), which
     * spares a fresh run (and, for a dropped request, its hang budget). */
    keep = &rec;
    for (tries = 0; tries < (first ? 3 : 1) && !reproduced; tries++) {
        if (!first)
            count_retry(cf);
        reproduced = reproduces(h, seq, f->sig, keep, &have_rec);
    }
    for (tries = 0; j->carry != NULL && tries < (first ? 3 : 1) && !reproduced; tries++) {
        if (!first)
            count_retry(cf);
        if ((reproduced = reproduces(h, j->carry, f->sig, keep, &have_rec)) != 0) {
            seq = j->carry;
            fd.carried = 1;
        }
    }
    if (!reproduced && j->hist != NULL &&
        (joined = mc__camp_with_history(j->hist, seq, &taken)) != NULL &&
        json_object_array_length(joined) >
            (j->carry != NULL ? json_object_array_length(j->carry) : 0))
        for (tries = 0; tries < (first ? 2 : 1) && !reproduced; tries++) {
            if (!first)
                count_retry(cf);
            if ((reproduced = reproduces(h, joined, f->sig, keep, &have_rec)) != 0) {
                seq = joined;
                fd.before = taken;
            }
        }
    fd.reproduced = reproduced;
    fd.orig_len = json_object_array_length(seq);
    if (!reproduced && (!first || f->at_barrier)) {
        /* In unconfirmed/ already; or a request left unanswered at the
         * barrier that a fresh process answered when waited for (a server
         * that answers out of order): no finding, nor a doubtful one. */
        json_object_put(joined);
        if (have_rec)
            mc_exec_outcome_free(&rec);
        return;
    }
    if (reproduced) {
        int was_unconfirmed;
        pthread_mutex_lock(&cf->mu);
        s->settled = 1;
        if (cf->done.first_finding_ms < 0)
            cf->done.first_finding_ms = j->found_ms;
        was_unconfirmed = !first && cf->done.unconfirmed > 0;
        if (was_unconfirmed)
            cf->done.unconfirmed--;
        pthread_mutex_unlock(&cf->mu);
        /* Shown at last by a sequence of its own: no longer unconfirmed. */
        if (was_unconfirmed)
            mc__camp_drop_finding(cf->o, "unconfirmed", f);
    }
    /* Minimization ends with the campaign: what is handled after it (the
     * queue drained at the end) is written as it was shown. */
    if (reproduced && !cf->o->no_minimize && mc_now_ms() < mc__camp_deadline(h))
        min = mc__camp_minimize(h, seq, f->sig, &fd.min_runs);
    if (min == NULL)
        min = json_object_get(seq);
    if (have_rec && !json_object_equal(min, seq)) {
        /* Minimized: the recorded run is not the reproducer's. */
        mc_exec_outcome_free(&rec);
        have_rec = 0;
    }
    fd.min_len = json_object_array_length(min);
    /* The minimized run, recorded on a fresh process: its trace, its answers
     * and (for a death) its stderr tail go with the finding. */
    mc_errbuf_clear(&eb);
    if (have_rec || mc_exec_run(h->cx, min, 1, 1, &rec, &eb) == MC_OK) {
        if (!have_rec)
            count_run(h, &rec);
        /* What a fresh process does not show again depends on state the
         * campaign cannot replay: kept apart, so that findings/ holds only
         * reproducers that fail. */
        mc__camp_write_finding(cf->o, reproduced ? "findings" : "unconfirmed",
                               mc_exec_version(h->cx), min, &fd, &rec);
        mc_exec_outcome_free(&rec);
    }
    json_object_put(min);
    json_object_put(joined);
    pthread_mutex_lock(&cf->mu);
    if (reproduced)
        cf->done.findings++;
    else
        cf->done.unconfirmed++;
    pthread_mutex_unlock(&cf->mu);
}

static void job_free(job_t *j)
{
    json_object_put(j->seq);
    json_object_put(j->carry);
    json_object_put(j->hist);
    memset(j, 0, sizeof(*j));
}

/* The thread: handles jobs in order until the end is asked and none is
 * left; the fresh process is stopped between jobs (the next run restarts
 * it anyway). */
/* True when, with --max-findings, the findings written and the jobs being
 * handled reach the bound: the next job waits to see whether those become
 * findings (lock held). */
static int at_bound(const mc__camp_confirmer_t *cf)
{
    return cf->o->max_findings > 0 && cf->handling > 0 &&
           cf->done.findings + (uint64_t)cf->handling >= cf->o->max_findings;
}

static void *confirm_main(void *arg)
{
    hand_t *h = arg;
    mc__camp_confirmer_t *cf = h->cf;
    job_t j;
    int skip;

    for (;;) {
        pthread_mutex_lock(&cf->mu);
        while ((cf->n == 0 && !cf->ending) || (cf->n > 0 && at_bound(cf)))
            pthread_cond_wait(&cf->wake, &cf->mu);
        if (cf->n == 0) {
            pthread_mutex_unlock(&cf->mu);
            break;
        }
        j = cf->q[cf->head];
        memset(&cf->q[cf->head], 0, sizeof(cf->q[cf->head]));
        cf->head = (cf->head + 1) % MC_CAMPAIGN_CONFIRM_QUEUE;
        cf->n--;
        /* Past --max-findings nothing more is written. */
        skip = cf->o->max_findings > 0 && cf->done.findings >= cf->o->max_findings;
        cf->handling += !skip;
        pthread_cond_signal(&cf->room);
        pthread_mutex_unlock(&cf->mu);
        if (!skip)
            handle(h, &j);
        pthread_mutex_lock(&cf->mu);
        j.s->queued = 0;
        cf->handling -= !skip;
        /* A job waiting on the bound may go now. */
        pthread_cond_broadcast(&cf->wake);
        pthread_cond_broadcast(&cf->idle);
        pthread_mutex_unlock(&cf->mu);
        job_free(&j);
        mc_exec_stop(h->cx);
    }
    return NULL;
}

int mc__camp_confirmer_new(mc__camp_confirmer_t **out, const mc_campaign_opts_t *o,
                           const mc_exec_opts_t *xo, int64_t t0, mc_errbuf_t *eb)
{
    mc__camp_confirmer_t *cf = calloc(1, sizeof(*cf));
    mc_exec_opts_t co = *xo;
    int rc, i, hands;

    *out = NULL;
    if (cf == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    cf->o = o;
    cf->t0 = t0;
    cf->done.first_finding_ms = -1;
    pthread_mutex_init(&cf->mu, NULL);
    pthread_cond_init(&cf->wake, NULL);
    pthread_cond_init(&cf->room, NULL);
    pthread_cond_init(&cf->idle, NULL);
    /* Their fresh runs teach the generator nothing (it is the worker's
     * thread's) and follow no twin: they confirm signatures, not edges. */
    co.learn = NULL;
    co.learn_ctx = NULL;
    co.twin = NULL;
    /* A server the campaign did not start (a URL alone) is one server for
     * every session: one thread, whose confirmations run alone (the
     * campaign waits for them, campaign.c). */
    hands = o->argv == NULL ? 1 : MC_CAMPAIGN_CONFIRMERS;
    for (i = 0; i < hands; i++) {
        hand_t *h = &cf->hands[i];
        h->cf = cf;
        rc = mc_exec_new(&h->cx, &co, eb);
        if (rc != MC_OK) {
            mc__camp_confirmer_free(cf);
            return rc;
        }
        cf->n_hands++;
        if (pthread_create(&h->th, NULL, confirm_main, h) != 0) {
            mc__camp_confirmer_free(cf);
            return mc_errbuf_set(eb, MC_ENOMEM, "cannot start a confirming thread");
        }
        h->started = 1;
    }
    *out = cf;
    return MC_OK;
}

int mc__camp_confirmer_offer(mc__camp_confirmer_t *cf, const mc_exec_finding_t *f,
                             json_object *seq, json_object *carry, json_object *hist,
                             uint64_t execs, int64_t found_ms)
{
    mc__camp_sig_t *s;
    job_t j;

    memset(&j, 0, sizeof(j));
    pthread_mutex_lock(&cf->mu);
    if (!mc__camp_sig_due(&cf->sigs, f->sig, &s) || s->queued ||
        (s->tries > 0 && !retry_ok(cf, execs))) {
        pthread_mutex_unlock(&cf->mu);
        return 0;
    }
    s->queued = 1;
    pthread_mutex_unlock(&cf->mu);
    j.s = s;
    j.f = *f;
    j.found_ms = found_ms;
    j.seq = copy_of(seq);
    j.carry = carry != NULL ? copy_of(carry) : NULL;
    j.hist = hist != NULL ? copy_of(hist) : NULL;
    pthread_mutex_lock(&cf->mu);
    if (j.seq == NULL) {
        /* Out of memory: the finding may come again. */
        s->queued = 0;
        pthread_mutex_unlock(&cf->mu);
        job_free(&j);
        return 0;
    }
    while (cf->n == MC_CAMPAIGN_CONFIRM_QUEUE)
        pthread_cond_wait(&cf->room, &cf->mu);
    cf->q[(cf->head + cf->n) % MC_CAMPAIGN_CONFIRM_QUEUE] = j;
    cf->n++;
    pthread_cond_signal(&cf->wake);
    pthread_mutex_unlock(&cf->mu);
    return 1;
}

void mc__camp_confirmer_wait(mc__camp_confirmer_t *cf)
{
    pthread_mutex_lock(&cf->mu);
    while (cf->n > 0 || cf->handling > 0)
        pthread_cond_wait(&cf->idle, &cf->mu);
    pthread_mutex_unlock(&cf->mu);
}

void mc__camp_confirmer_read(mc__camp_confirmer_t *cf, mc__camp_confirmed_t *out)
{
    pthread_mutex_lock(&cf->mu);
    *out = cf->done;
    pthread_mutex_unlock(&cf->mu);
}

void mc__camp_confirmer_finish(mc__camp_confirmer_t *cf)
{
    int i;

    if (cf == NULL)
        return;
    pthread_mutex_lock(&cf->mu);
    cf->ending = 1;
    pthread_cond_broadcast(&cf->wake);
    pthread_mutex_unlock(&cf->mu);
    for (i = 0; i < cf->n_hands; i++)
        if (cf->hands[i].started) {
            pthread_join(cf->hands[i].th, NULL);
            cf->hands[i].started = 0;
        }
}

mc_exec_counters_t mc__camp_confirmer_counters(const mc__camp_confirmer_t *cf)
{
    mc_exec_counters_t sum, k;
    int i;

    memset(&sum, 0, sizeof(sum));
    for (i = 0; cf != NULL && i < cf->n_hands; i++) {
        k = mc_exec_counters(cf->hands[i].cx);
        sum.starts += k.starts;
        sum.start_ms += k.start_ms;
        sum.barriers += k.barriers;
        sum.barrier_ms += k.barrier_ms;
        sum.hang_waits += k.hang_waits;
        sum.hang_wait_ms += k.hang_wait_ms;
        sum.sent_ahead += k.sent_ahead;
    }
    return sum;
}

void mc__camp_confirmer_free(mc__camp_confirmer_t *cf)
{
    size_t i;
    int k;

    if (cf == NULL)
        return;
    mc__camp_confirmer_finish(cf);
    for (i = 0; i < MC_CAMPAIGN_CONFIRM_QUEUE; i++)
        job_free(&cf->q[i]);
    for (k = 0; k < cf->n_hands; k++)
        mc_exec_free(cf->hands[k].cx);
    mc__camp_sigs_free(&cf->sigs);
    pthread_cond_destroy(&cf->idle);
    pthread_cond_destroy(&cf->room);
    pthread_cond_destroy(&cf->wake);
    pthread_mutex_destroy(&cf->mu);
    free(cf);
}
