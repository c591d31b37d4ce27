/*
 * run_probe.c - `mcpcheck run`'s version probe: which protocol versions the
 * target speaks, asked with one initialize (server/discover at 2026-07-28) per
 * version before the run.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "client/session.h"
#include "core/json.h"
#include "scenario/fixtures.h"
#include "scenario/shapes.h"
#include "scenario/suite.h"

/* What the probes of one run found, version by version. */
typedef struct probe_row {
    const char *version;
    mc_probe_outcome_t outcome;
    int server_up;     /* another probe had completed a handshake */
    char method[32];   /* the handshake request sent */
    char answered[32]; /* the version the server answered, for a counter-offer */
    char why[MC_ERRBUF_SIZE];
} probe_row_t;

typedef struct probe_state {
    probe_row_t rows[MC_V_COUNT];
    size_t n_rows;
    size_t completed;                 /* probes that completed a handshake */
    size_t failures;                  /* probes that failed while none had completed */
    int64_t start_ms;                 /* the longest a completed probe's server took to answer */
    int gave_up;                      /* the target cannot be tested */
    mc_scenario_result_t last_failed; /* the last failed probe, for a target given up on */
} probe_state_t;

/* The order of the probes: the initialize era, newest first, then the
 * stateless versions. A server of either era answers initialize (with a
 * result or an error), so by the time a stateless probe runs it is known
 * whether the server runs and how long it takes to start: a server/discover
 * it leaves unanswered is then not waited on for the whole start-up budget. */
static size_t probe_order(const char **order, int stateless)
{
    const char *const *names = mc_version_names();
    size_t count = 0, k = 0;
    int pass, id;

    while (names[count] != NULL)
        count++;
    for (pass = 0; pass < (stateless ? 2 : 1); pass++)
        for (id = (int)count - 1; id >= 0; id--)
            if (mc_protocol_version_known(names[id]) &&
                (mc_version_has(names[id], MC_VF_STATELESS) != 0) == (pass == 1))
                order[k++] = names[id];
    return k;
}

/* Keeps what one probe found; the results the report must carry go to
 * results[] (*n grows), the rest is freed. */
static void take_probe(probe_state_t *st, const char *v, mc_probe_t *p,
                       mc_scenario_result_t *results, size_t *n)
{
    probe_row_t *row = &st->rows[st->n_rows++];

    row->version = v;
    row->outcome = p->outcome;
    row->server_up = p->server_up;
    snprintf(row->method, sizeof(row->method), "%s", p->method);
    snprintf(row->answered, sizeof(row->answered), "%s", p->version);
    snprintf(row->why, sizeof(row->why), "%s", p->why);
    if (p->outcome == MC_PROBE_SPOKEN || p->outcome == MC_PROBE_COUNTER) {
        st->completed++;
        if (p->answer_ms > st->start_ms)
            st->start_ms = p->answer_ms;
        mc_sresult_free(&p->result);
        return;
    }
    if (p->outcome == MC_PROBE_NO_ANSWER && p->server_up) {
        /* An unanswered request of a running server: its FAIL is reported. */
        results[(*n)++] = p->result;
        memset(&p->result, 0, sizeof(p->result));
        return;
    }
    if (st->completed == 0 && p->outcome != MC_PROBE_REFUSED)
        st->failures++;
    mc_sresult_free(&st->last_failed);
    st->last_failed = p->result;
    memset(&p->result, 0, sizeof(p->result));
    /* No handshake yet, and a server silent for its whole start-up budget
     * (or failing again and again) will not do better at another version. */
    if (st->completed == 0 && (p->silent || st->failures >= MC_EARLY_STOP_HANDSHAKE_FAILURES))
        st->gave_up = 1;
}

/* Why a version is not spoken, in a few words. */
static void short_why(const probe_row_t *row, char *out, size_t n)
{
    if (row->outcome == MC_PROBE_REFUSED)
        snprintf(out, n, "%s",
                 strstr(row->why, "initialize era") != NULL ? "initialize era" : "refused");
    else if (row->outcome == MC_PROBE_NO_ANSWER && row->server_up)
        snprintf(out, n, "no answer to %s in %d s", row->method,
                 MC_VERSION_PROBE_TIMEOUT_MS / 1000);
    else
        snprintf(out, n, "%s", row->why);
}

/* The outcome in one line: what the server speaks, what it does not (and in
 * a few words why), what it answered instead. A probe that failed outright
 * gets a line of its own. */
static void print_outcome(const probe_state_t *st, const char *const *out, size_t n_spoken)
{
    size_t k, a;

    for (k = 0; k < st->n_rows; k++)
        if (st->rows[k].outcome == MC_PROBE_FAILED)
            printf("version probe: %s: %s\n", st->rows[k].version, st->rows[k].why);
    printf("versions: the server speaks");
    for (k = 0; out[k] != NULL; k++)
        printf("%s %s", k > 0 ? "," : "", out[k]);
    if (n_spoken == 0)
        printf(" (as it answered; it accepted none as offered)");
    for (k = 0; k < st->n_rows; k++) {
        const probe_row_t *row = &st->rows[k];
        char why[MC_ERRBUF_SIZE];
        if (row->outcome != MC_PROBE_REFUSED && row->outcome != MC_PROBE_NO_ANSWER)
            continue;
        short_why(row, why, sizeof(why));
        printf("; not %s (%s)", row->version, why);
    }
    for (k = 0; k < st->n_rows; k++) {
        const probe_row_t *row = &st->rows[k];
        if (row->outcome != MC_PROBE_COUNTER)
            continue;
        /* Versions that got the same answer share one phrase. */
        for (a = 0; a < k && !(st->rows[a].outcome == MC_PROBE_COUNTER &&
                               strcmp(st->rows[a].answered, row->answered) == 0);
             a++)
            ;
        if (a < k)
            continue;
        printf("; asked for %s", row->version);
        for (a = k + 1; a < st->n_rows; a++)
            if (st->rows[a].outcome == MC_PROBE_COUNTER &&
                strcmp(st->rows[a].answered, row->answered) == 0)
                printf(", %s", st->rows[a].version);
        printf(" it answered %s", row->answered);
    }
    printf("\n");
    fflush(stdout);
}

/* True when the probe that asked for version v completed a handshake
 * (the server answered it, with v or with a counter-offer). */
static int asked_completes(const probe_state_t *st, const char *v)
{
    size_t a;

    for (a = 0; a < st->n_rows; a++)
        if (strcmp(st->rows[a].version, v) == 0)
            return st->rows[a].outcome == MC_PROBE_SPOKEN ||
                   st->rows[a].outcome == MC_PROBE_COUNTER;
    return 0;
}

/*
 * The versions to test, oldest first, from what the probes found: those
 * spoken, and those the server answered with when asked for another (a
 * counter-offer names "another protocol version it supports") and that
 * complete a handshake when asked for themselves; else, when none was
 * spoken, those answered. A version the server offers but does not echo
 * when asked for it is then tested, and lifecycle/version/echo judges it;
 * a server that speaks fewer versions never offers the others and is not
 * tested at them. Returns how many.
 */
static size_t spoken_versions(const probe_state_t *st, const char **out, size_t *n_spoken)
{
    const char *const *names = mc_version_names();
    size_t k = 0, a;
    int id;

    *n_spoken = 0;
    for (a = 0; a < st->n_rows; a++)
        *n_spoken += st->rows[a].outcome == MC_PROBE_SPOKEN;
    for (id = 0; names[id] != NULL; id++) {
        int in = 0;
        for (a = 0; a < st->n_rows; a++) {
            const probe_row_t *row = &st->rows[a];
            int offered = row->outcome == MC_PROBE_COUNTER &&
                          strcmp(row->answered, names[id]) == 0 &&
                          mc_protocol_version_known(names[id]);
            if (*n_spoken > 0)
                in |= (row->outcome == MC_PROBE_SPOKEN && strcmp(row->version, names[id]) == 0) ||
                      (offered && asked_completes(st, names[id]));
            else
                in |= offered;
        }
        if (in)
            out[k++] = names[id];
    }
    out[k] = NULL;
    return k;
}

/* Work made side by side: one(ctx, i) for each i below n, each worker
 * taking the next i not yet taken, until *stop is raised. */
typedef struct side {
    void (*one)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    volatile int *stop;
    _Atomic size_t next;
} side_t;

static void *side_worker(void *arg)
{
    side_t *sd = arg;
    size_t i;

    while ((i = atomic_fetch_add(&sd->next, 1)) < sd->n) {
        if (sd->stop != NULL && *sd->stop)
            break;
        sd->one(sd->ctx, i);
    }
    return NULL;
}

/* Runs one(ctx, i) for every i below n on up to jobs threads (this one
 * among them) and waits for them all. */
static void run_side_by_side(void (*one)(void *, size_t), void *ctx, size_t n, int jobs,
                             volatile int *stop)
{
    pthread_t th[MC_SUITE_MAX_JOBS];
    side_t sd;
    int t, started = 0;

    memset(&sd, 0, sizeof(sd));
    sd.one = one;
    sd.ctx = ctx;
    sd.n = n;
    sd.stop = stop;
    atomic_init(&sd.next, 0);
    if (jobs > MC_SUITE_MAX_JOBS)
        jobs = MC_SUITE_MAX_JOBS;
    if (jobs < 1 || (size_t)jobs > n)
        jobs = n < 1 ? 1 : (int)n;
    for (t = 1; t < jobs; t++)
        if (pthread_create(&th[started], NULL, side_worker, &sd) == 0)
            started++;
    side_worker(&sd);
    for (t = 0; t < started; t++)
        pthread_join(th[t], NULL);
}

/* The version probes of a server known to run. */
typedef struct probe_set {
    const mc_runner_opts_t *po;
    const char **order;
    mc_probe_t *got;
    int *rc;
} probe_set_t;

static void probe_one(void *ctx, size_t i)
{
    probe_set_t *ps = ctx;

    ps->rc[i] = mc_runner_probe(ps->po, ps->order[i], &ps->got[i]);
}

/* The probes at order[0..n) once one probe completed a handshake (the
 * server runs: each gets its start-up time and the probe's budget), on up
 * to jobs threads, taken into st in order. */
static void probe_rest(const mc_runner_opts_t *po0, probe_state_t *st, const char **order,
                       size_t n, int startup, int jobs, mc_scenario_result_t *results,
                       size_t *n_results)
{
    mc_runner_opts_t po = *po0;
    probe_set_t ps;
    mc_probe_t got[MC_V_COUNT];
    int rc[MC_V_COUNT];
    size_t i;

    memset(&ps, 0, sizeof(ps));
    memset(got, 0, sizeof(got));
    po.startup_timeout_ms = startup;
    if (st->start_ms + MC_VERSION_PROBE_TIMEOUT_MS < startup)
        po.startup_timeout_ms = (int)st->start_ms + MC_VERSION_PROBE_TIMEOUT_MS;
    for (i = 0; i < n; i++) {
        got[i].server_up = 1;
        rc[i] = MC_ENOMEM; /* a probe not made (interrupted) */
    }
    ps.po = &po;
    ps.order = order;
    ps.got = got;
    ps.rc = rc;
    run_side_by_side(probe_one, &ps, n, jobs, po.stop);
    for (i = 0; i < n; i++) {
        if (rc[i] != MC_OK)
            continue;
        if (st->gave_up)
            mc_sresult_free(&got[i].result);
        else
            take_probe(st, order[i], &got[i], results, n_results);
    }
}

size_t mc_cli_run_probe(const mc_runner_opts_t *ro, int stateless, int jobs, const char **out,
                        mc_scenario_result_t *results, size_t *n_results)
{
    /* The probes count against a record of their own that never gives up
     * (usable is preset): whether the target can be tested is decided here,
     * once no probe can complete a handshake. It also keeps what the probes
     * learn of the target's shutdown, so that later probes do not wait out
     * a grace it ignores again. */
    static mc_runner_shared_t probes;
    static probe_state_t st;
    const char *order[MC_V_COUNT];
    mc_runner_opts_t po = *ro;
    size_t n_order = probe_order(order, stateless), i, n, n_spoken;
    int startup = ro->startup_timeout_ms ? ro->startup_timeout_ms : MC_DEFAULT_STARTUP_TIMEOUT_MS;

    memset(&probes, 0, sizeof(probes));
    memset(&st, 0, sizeof(st));
    probes.usable = 1;
    *n_results = 0;
    out[0] = NULL;
    po.shared = &probes;
    po.step_timeout_ms = MC_VERSION_PROBE_TIMEOUT_MS;
    for (i = 0; i < n_order && !st.gave_up && !(ro->stop != NULL && *ro->stop); i++) {
        mc_probe_t p;
        if (st.completed > 0 && ro->url == NULL && jobs > 1) {
            /* The server is known to run: the other probes go side by
             * side, each with a process of its own, and are taken in
             * order as if made one after another. */
            probe_rest(&po, &st, order + i, n_order - i, startup, jobs, results, n_results);
            break;
        }
        memset(&p, 0, sizeof(p));
        p.server_up = st.completed > 0;
        /* A server known to run gets its start-up time and then the probe's
         * own budget; one not yet seen to answer, the whole start-up budget. */
        po.startup_timeout_ms = startup;
        if (p.server_up && st.start_ms + MC_VERSION_PROBE_TIMEOUT_MS < startup)
            po.startup_timeout_ms = (int)st.start_ms + MC_VERSION_PROBE_TIMEOUT_MS;
        if (mc_runner_probe(&po, order[i], &p) != MC_OK)
            continue;
        take_probe(&st, order[i], &p, results, n_results);
    }
    if (ro->stop != NULL && *ro->stop && !st.gave_up) {
        /* Interrupted: nothing was decided. */
        mc_sresult_free(&st.last_failed);
        return 0;
    }
    if (st.completed == 0 && st.n_rows > 0)
        st.gave_up = 1;
    if (st.gave_up) {
        /* Nothing can be tested: the run starts nothing and says why, with
         * the last failed probe as its one result. */
        const char *why = st.last_failed.reason != NULL ? st.last_failed.reason : "no handshake";
        for (i = 0; i < st.n_rows; i++)
            printf("version probe: %s: %s\n", st.rows[i].version, st.rows[i].why);
        fflush(stdout);
        if (ro->shared != NULL) {
            ro->shared->unusable = (int)st.n_rows;
            snprintf(ro->shared->reason, sizeof(ro->shared->reason), "%s", why);
            ro->shared->reason_set = 1;
            ro->shared->abort = 1;
        }
        if (ro->stop != NULL && *ro->stop == 0)
            *ro->stop = 1;
        if (st.last_failed.id != NULL)
            results[(*n_results)++] = st.last_failed;
        else
            mc_sresult_free(&st.last_failed);
        memset(&st.last_failed, 0, sizeof(st.last_failed));
        return 0;
    }
    mc_sresult_free(&st.last_failed);
    n = spoken_versions(&st, out, &n_spoken);
    if (n > 0)
        print_outcome(&st, out, n_spoken);
    return n;
}

/* True when a scenario has a role the behaviour probe can fill. */
static int needs_behaviours(const mc_scenario_t *scs, size_t n)
{
    size_t i, j;
    char base[128];

    for (i = 0; i < n; i++)
        for (j = 0; j < scs[i].n_roles; j++) {
            mc_role_kind_t k = mc_role_kind(scs[i].roles[j], base, sizeof(base));
            (void)k;
            if (mc_role_seen_by(base) || strcmp(base, "resource.watched") == 0)
                return 1;
        }
    return 0;
}

/* One console line: what the behaviour probe saw at a version. */
static void say_behaviours(const char *version, json_object *b, int call_tools)
{
    json_object *roles = mc_json_get(b, "roles");
    const char *failed = mc_json_get_str(b, "failed");
    int listed = mc_json_get_int(b, "tools_listed", 0), called = mc_json_get_int(b, "tools_called", 0);
    size_t shown = 0;

    printf("behaviour probe at %s: ", version);
    if (mc_json_get(b, "tools_listed") != NULL)
        printf("%d of %d tool%s called%s, ", called, listed, listed == 1 ? "" : "s",
               called < listed && !call_tools ? " (--call-tools calls them all)" : "");
    if (mc_json_get(b, "prompts_listed") != NULL)
        printf("%d prompt%s got, ", mc_json_get_int(b, "prompts_got", 0),
               mc_json_get_int(b, "prompts_got", 0) == 1 ? "" : "s");
    printf("roles seen:");
    if (json_object_is_type(roles, json_type_object)) {
        json_object_object_foreach(roles, role, v)
        {
            printf("%s %s (`%s`)", shown > 0 ? "," : "", role, json_object_get_string(v));
            shown++;
        }
    }
    printf("%s%s%s\n", shown == 0 ? " none" : "", failed != NULL ? "; ended early: " : "",
           failed != NULL ? failed : "");
}

/* The behaviour probes of one run. */
typedef struct behave_set {
    const mc_runner_opts_t *ro;
    const char *const *versions;
    json_object **got; /* per version: what its probe saw, NULL when none ran */
    int *rc;           /* per version: mc_runner_behaviours()'s return */
} behave_set_t;

static void behave_one(void *ctx, size_t i)
{
    behave_set_t *bs = ctx;

    bs->rc[i] = mc_runner_behaviours(bs->ro, bs->versions[i], &bs->got[i]);
}

json_object *mc_cli_run_behaviours(const mc_runner_opts_t *ro, const char *const *versions,
                                   const mc_scenario_t *scs, size_t n, int jobs, int quiet)
{
    behave_set_t bs;
    json_object *map;
    size_t i, nv = 0;

    if (!needs_behaviours(scs, n) || (ro->stop != NULL && *ro->stop))
        return NULL;
    memset(&bs, 0, sizeof(bs));
    bs.ro = ro;
    bs.versions = versions;
    while (versions[nv] != NULL)
        nv++;
    bs.got = calloc(nv + 1, sizeof(*bs.got));
    bs.rc = calloc(nv + 1, sizeof(*bs.rc));
    map = json_object_new_object();
    if (bs.got == NULL || bs.rc == NULL || map == NULL) {
        free(bs.got);
        free(bs.rc);
        json_object_put(map);
        return NULL;
    }
    /* Over HTTP the probes share one server, where one probe's tool calls
     * would be another's state: one at a time. */
    run_side_by_side(behave_one, &bs, nv, ro->url != NULL ? 1 : jobs, ro->stop);
    /* Taken in version order, as if made one after another. */
    for (i = 0; i < nv; i++) {
        json_object *b = bs.got[i];
        const char *v;
        bs.got[i] = NULL;
        if (b == NULL || bs.rc[i] != MC_OK || (ro->stop != NULL && *ro->stop)) {
            json_object_put(b);
            break;
        }
        v = mc_json_get_str(b, "version");
        if (!quiet)
            say_behaviours(versions[i], b, ro->call_tools);
        fflush(stdout);
        /* A counter-offer lands on a version probed already: the first
         * probe of a version stands. */
        if (mc_json_get(b, "failed") != NULL) {
            /* A probe that ended early (an unanswered request, a target that
             * stopped) stands for the versions after it too: what they saw
             * is not taken. */
            json_object_put(b);
            break;
        }
        if (v != NULL && mc_json_get(map, v) == NULL)
            json_object_object_add(map, v, b);
        else
            json_object_put(b);
    }
    for (i = 0; i < nv; i++)
        json_object_put(bs.got[i]);
    free(bs.got);
    free(bs.rc);
    return map;
}
