#include "scenario/suite.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"

typedef struct job {
    const mc_scenario_t *sc;
    const char *version;
} job_t;

typedef struct suite {
    job_t *jobs;
    size_t *order;        /* the jobs in the order they start (see start_order) */
    size_t n_jobs;
    size_t next;          /* the first entry of order not started yet */
    unsigned char *taken; /* by job: started (a worker may start one ahead of next) */
    size_t printed;       /* results handed to the callback so far */
    size_t done_count;
    unsigned char *done;
    mc_scenario_result_t *results;
    const mc_suite_opts_t *opts;
    pthread_mutex_t mu;
    pthread_cond_t turn;  /* signalled when a run ends (see run_begin) */
    int shared_target;    /* one server serves every run (an HTTP URL, not restarted) */
    int running;          /* runs under way */
    int alone;            /* a run that must be alone is under way */
    int alone_waiting;    /* runs that must be alone, picked and waiting for their turn */
    int nomem;
} suite_t;

static int build_jobs(const mc_scenario_t *scs, size_t n, const char *const *versions,
                      job_t *out)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        const mc_scenario_t *sc = &scs[i];
        if (sc->client_version != NULL) {
            if (out)
                out[k] = (job_t){sc, sc->client_version};
            k++;
            continue;
        }
        for (const char *const *v = versions; *v != NULL; v++) {
            if (!mc_scenario_applies(sc, *v))
                continue;
            if (out)
                out[k] = (job_t){sc, *v};
            k++;
        }
    }
    return (int)k;
}

size_t mc_suite_count(const mc_scenario_t *scenarios, size_t n, const char *const *versions)
{
    return (size_t)build_jobs(scenarios, n, versions, NULL);
}

/*
 * The order the jobs start in when each run has a server of its own:
 * version by version (in the order of the run's versions), each in scenario
 * order; results are still reported in job order (scenario by scenario). So the runs of one scenario at two
 * versions do not run side by side, and what the suite learns from the first
 * (a request the target leaves unanswered, mc_runner_shared_t) spares the
 * later ones the same wait.
 */
static void start_order(const job_t *jobs, size_t n, const char *const *versions, size_t *order)
{
    unsigned char *placed = calloc(n + 1, 1);
    size_t i, k = 0;
    const char *const *v;

    for (v = versions; placed != NULL && *v != NULL; v++)
        for (i = 0; i < n; i++)
            if (!placed[i] && jobs[i].sc->client_version == NULL &&
                strcmp(jobs[i].version, *v) == 0) {
                placed[i] = 1;
                order[k++] = i;
            }
    /* Pinned scenarios, in job order (all jobs so when out of memory). */
    for (i = 0; i < n; i++)
        if (placed == NULL || !placed[i])
            order[k++] = i;
    free(placed);
}

/* Hands finished results to the callback in job order (mutex held). */
static void flush(suite_t *s)
{
    while (s->printed < s->n_jobs && s->done[s->printed]) {
        if (s->opts->on_result != NULL)
            s->opts->on_result(s->opts->cb_ctx, &s->results[s->printed], s->printed + 1,
                               s->n_jobs);
        s->printed++;
    }
}

/* Marks job i finished and hands what is in order to the callback. */
static void finished(suite_t *s, size_t i)
{
    pthread_mutex_lock(&s->mu);
    s->done[i] = 1;
    s->done_count++;
    flush(s);
    pthread_mutex_unlock(&s->mu);
}

/*
 * The job a worker starts next (mutex held): the first not started in start
 * order, or, when the worker keeps a target (mc_runner_hold_t), the first
 * not started that may run on it, so that the scenarios that may share a
 * process run one after another: one that changes no state first, else one
 * that does (what it changes, the process keeps: a later scenario that
 * reads it does not fit). SIZE_MAX when none is left.
 */
static size_t pick(suite_t *s, const mc_runner_hold_t *h)
{
    size_t k, first = SIZE_MAX, last = SIZE_MAX, fit = SIZE_MAX;

    while (s->next < s->n_jobs && s->taken[s->order[s->next]])
        s->next++;
    for (k = s->next; k < s->n_jobs; k++) {
        size_t i = s->order[k];
        if (s->taken[i])
            continue;
        if (first == SIZE_MAX)
            first = i;
        if (h->c == NULL) {
            first = i;
            break;
        }
        if (mc_runner_hold_fits(h, s->jobs[i].sc, s->jobs[i].version)) {
            if (s->jobs[i].sc->state_changes == 0) {
                fit = i;
                break;
            }
            if (fit == SIZE_MAX)
                fit = i;
            continue;
        }
        if (last == SIZE_MAX && mc_runner_hold_takes(h, s->jobs[i].sc, s->jobs[i].version))
            last = i;
    }
    /* No scenario that may share the kept target is left: one that
     * changes state may take it as its last user (mc_runner_hold_takes),
     * rather than start a process of its own while the kept one stops. */
    if (fit != SIZE_MAX)
        first = fit;
    else if (last != SIZE_MAX)
        first = last;
    if (first != SIZE_MAX)
        s->taken[first] = 1;
    return first;
}

/*
 * True when job i must run alone: one server serves every run and the
 * version is stateless (2026-07-28), where its state is every client's (a
 * list one run changes is the list another walks), so that a run beside it
 * could make a rule about side effects fail that the server keeps.
 */
static int must_run_alone(const suite_t *s, size_t i)
{
    return s->shared_target && mc_version_has(s->jobs[i].version, MC_VF_STATELESS);
}

/* Waits for job i's turn (mutex not held): a run that must be alone waits
 * until nothing else runs, and nothing starts while it waits or runs. */
static void run_begin(suite_t *s, size_t i)
{
    pthread_mutex_lock(&s->mu);
    if (must_run_alone(s, i)) {
        s->alone_waiting++;
        while (s->running > 0 || s->alone)
            pthread_cond_wait(&s->turn, &s->mu);
        s->alone_waiting--;
        s->alone = 1;
    } else {
        while (s->alone || s->alone_waiting > 0)
            pthread_cond_wait(&s->turn, &s->mu);
    }
    s->running++;
    pthread_mutex_unlock(&s->mu);
}

/* Ends job i's turn. */
static void run_end(suite_t *s, size_t i)
{
    pthread_mutex_lock(&s->mu);
    s->running--;
    if (must_run_alone(s, i))
        s->alone = 0;
    pthread_cond_broadcast(&s->turn);
    pthread_mutex_unlock(&s->mu);
}

static void *worker(void *arg)
{
    suite_t *s = arg;
    mc_runner_hold_t hold, *h = s->opts->runner.fresh_process ? NULL : &hold;
    mc_runner_opts_t ro;
    size_t pending = SIZE_MAX; /* the job whose result waits for its kept target's end */

    memset(&hold, 0, sizeof(hold));
    for (;;) {
        size_t i;
        pthread_mutex_lock(&s->mu);
        i = s->opts->runner.stop != NULL && *s->opts->runner.stop ? SIZE_MAX : pick(s, &hold);
        pthread_mutex_unlock(&s->mu);
        if (i == SIZE_MAX)
            break;
        if (hold.c != NULL && !mc_runner_hold_fits(&hold, s->jobs[i].sc, s->jobs[i].version) &&
            !mc_runner_hold_takes(&hold, s->jobs[i].sc, s->jobs[i].version)) {
            mc_runner_hold_release(&hold);
            finished(s, pending);
            pending = SIZE_MAX;
            /* Its end may be what stops the run: then i does not start. */
            if (s->opts->runner.stop != NULL && *s->opts->runner.stop)
                break;
        }
        ro = s->opts->runner;
        ro.version = s->jobs[i].version;
        run_begin(s, i);
        if (mc_runner_run_held(s->jobs[i].sc, &ro, h, &s->results[i]) != MC_OK)
            s->nomem = 1;
        run_end(s, i);
        if (hold.c != NULL && hold.owner == &s->results[i]) {
            /* Its target lives on: its end will be recorded in this result. */
            if (pending != SIZE_MAX)
                finished(s, pending);
            pending = i;
            continue;
        }
        finished(s, i);
        if (hold.c == NULL && pending != SIZE_MAX) {
            finished(s, pending);
            pending = SIZE_MAX;
        }
    }
    mc_runner_hold_end(&hold);
    if (pending != SIZE_MAX)
        finished(s, pending);
    return NULL;
}

int mc_suite_run(const mc_scenario_t *scenarios, size_t n, const mc_suite_opts_t *opts,
                 mc_run_result_t *run)
{
    suite_t s;
    pthread_t th[MC_SUITE_MAX_JOBS];
    int jobs = opts->jobs < 1 ? 1 : opts->jobs > MC_SUITE_MAX_JOBS ? MC_SUITE_MAX_JOBS : opts->jobs;
    int started = 0, t;
    size_t i, k;

    memset(&s, 0, sizeof(s));
    s.opts = opts;
    s.n_jobs = mc_suite_count(scenarios, n, opts->versions);
    s.jobs = calloc(s.n_jobs + 1, sizeof(*s.jobs));
    s.done = calloc(s.n_jobs + 1, 1);
    s.results = calloc(s.n_jobs + 1, sizeof(*s.results));
    s.order = calloc(s.n_jobs + 1, sizeof(*s.order));
    s.taken = calloc(s.n_jobs + 1, 1);
    if (s.jobs == NULL || s.done == NULL || s.results == NULL || s.order == NULL ||
        s.taken == NULL) {
        free(s.taken);
        free(s.order);
        free(s.jobs);
        free(s.done);
        free(s.results);
        return MC_ENOMEM;
    }
    build_jobs(scenarios, n, opts->versions, s.jobs);
    s.shared_target = opts->runner.url != NULL && !opts->runner.fresh_process;
    if (s.shared_target) {
        /* One server for every run: runs at one version side by side would
         * meet in its state, so they start in job order, spread out (and at
         * the stateless version one at a time: must_run_alone). */
        for (i = 0; i < s.n_jobs; i++)
            s.order[i] = i;
    } else {
        start_order(s.jobs, s.n_jobs, opts->versions, s.order);
    }
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.turn, NULL);
    if ((size_t)jobs > s.n_jobs)
        jobs = s.n_jobs > 0 ? (int)s.n_jobs : 1;
    for (t = 0; t < jobs; t++)
        if (pthread_create(&th[t], NULL, worker, &s) == 0)
            started++;
    if (started == 0)
        worker(&s);
    for (t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_cond_destroy(&s.turn);
    pthread_mutex_destroy(&s.mu);

    /* Keep the finished results, in job order. */
    run->scenarios = calloc(s.n_jobs + 1, sizeof(*run->scenarios));
    if (run->scenarios == NULL) {
        for (i = 0; i < s.n_jobs; i++)
            if (s.done[i])
                mc_sresult_free(&s.results[i]);
        free(s.taken);
        free(s.order);
        free(s.jobs);
        free(s.done);
        free(s.results);
        return MC_ENOMEM;
    }
    for (i = 0, k = 0; i < s.n_jobs; i++)
        if (s.done[i])
            run->scenarios[k++] = s.results[i];
    run->n = k;
    if (k < s.n_jobs)
        run->partial = 1;
    free(s.taken);
    free(s.order);
    free(s.jobs);
    free(s.done);
    free(s.results);
    mc_run_summarize(run);
    return s.nomem ? MC_ENOMEM : MC_OK;
}
