#include "campaign/campaign.h"
#include "core/hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/exec.h"
#include "campaign/gen.h"
#include "campaign/internal.h"
#include "core/clock.h"
#include "core/file.h"
#include "core/json.h"
#include "judge/builtin.h"

/* Paths built inside the campaign directory. */
#define PATH_LEN 4096

typedef struct camp {
    const mc_campaign_opts_t *o;
    mc_campaign_stats_t *st;
    mc_exec_t *x;                  /* the persistent process the sequences run in */
    mc_exec_t *fx;                 /* fresh runs (confirming edges and findings,
                                      minimizing, recording), so that x keeps its state */
    mc_gen_t g;
    uint32_t *states;              /* open-addressing set; 0 = empty */
    mc__camp_corpus_t k;
    mc__camp_confirmer_t *cf;      /* confirms, minimizes and writes findings (confirm.c) */
    uint64_t execs, msgs_out, msgs_in; /* what x and fx ran (the confirmer counts its own) */
    mc_exec_dropped_t dropped;     /* request shapes the target drops, shared by the executors */
    json_object *hist;             /* the sequences run in the running process, oldest first
                                      (the last MC_CAMPAIGN_HISTORY_SEQS), or NULL */
    int64_t t0, last_stats, last_sync;
    FILE *stats;
} camp_t;

/* --- small utilities ------------------------------------------------------ */

static int64_t elapsed(const camp_t *c)
{
    return mc_now_ms() - c->t0;
}

/* The sequence run last in the running process (borrowed), or NULL. */
static json_object *prev_of(const camp_t *c)
{
    size_t n = c->hist != NULL ? json_object_array_length(c->hist) : 0;

    return n > 0 ? json_object_array_get_idx(c->hist, n - 1) : NULL;
}

/* Records that seq (borrowed) ran in the running process. */
static void hist_add(camp_t *c, json_object *seq)
{
    if (c->hist == NULL && (c->hist = json_object_new_array()) == NULL)
        return;
    if (json_object_array_length(c->hist) >= MC_CAMPAIGN_HISTORY_SEQS)
        json_object_array_del_idx(c->hist, 0, 1);
    json_object_array_add(c->hist, json_object_get(seq));
}

static void hist_clear(camp_t *c)
{
    json_object_put(c->hist);
    c->hist = NULL;
}

static int path_in(char *out, const char *dir, const char *sub, const char *name)
{
    int n = snprintf(out, PATH_LEN, "%s%s%s%s%s", dir, sub ? "/" : "", sub ? sub : "",
                     name ? "/" : "", name ? name : "");
    return n > 0 && n < PATH_LEN ? 0 : -1;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_LEN];
    size_t i, n = strlen(path);

    if (n >= sizeof(buf))
        return -1;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char keep = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            buf[i] = keep;
        }
    }
    return 0;
}

uint64_t mc__camp_hash(const char *s, size_t n)
{
    return mc_fnv1a64(MC_FNV1A64_INIT, s, n);
}

int mc__camp_write_file(const char *path, const char *data, size_t len)
{
    char tmp[PATH_LEN + 32];
    FILE *f;
    int ok;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof(tmp))
        return -1;
    f = fopen(tmp, "wb");
    if (f == NULL)
        return -1;
    ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* --- state model ----------------------------------------------------------- */

/* Adds key to the set. Returns 1 when it was new. */
static int state_add(camp_t *c, uint32_t key)
{
    size_t mask = MC_CAMPAIGN_MAX_STATES - 1, i = key & mask, probes;

    if (key == 0)
        key = 1;
    if (c->st->states >= MC_CAMPAIGN_MAX_STATES * 3 / 4)
        return 0; /* full enough: nothing counts as new any more */
    for (probes = 0; probes < MC_CAMPAIGN_MAX_STATES; probes++) {
        if (c->states[i] == key)
            return 0;
        if (c->states[i] == 0) {
            c->states[i] = key;
            c->st->states++;
            return 1;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

/* --- corpus --------------------------------------------------------------- */

/* The energy a sequence earns: edges of the target's own code never hit
 * before count most, then new states of the response model; new hit counts
 * of known edges (a longer string, one more loop) only a little: they are
 * kept, as AFL++ keeps them, but are too common to lead. On an instrumented
 * target the code map is the better judge of what is new: a new state there
 * with no new edge (a known answer after another known answer) is kept but
 * earns no more than a new hit count, so that it does not crowd the
 * favoured entries that lit new code. */
static unsigned energy_of(int instrumented, size_t new_cov, size_t new_edges, size_t fresh_states)
{
    unsigned e = 0;

    if (new_edges > 0)
        e += MC_CAMPAIGN_COV_ENERGY + (unsigned)(new_edges > 32 ? 32 : new_edges);
    else if (new_cov > 0)
        e += MC_CAMPAIGN_BUCKET_ENERGY;
    if (fresh_states > 0 && instrumented)
        e += e > 0 ? 0 : MC_CAMPAIGN_BUCKET_ENERGY;
    else if (fresh_states > 0)
        e += MC_CAMPAIGN_STATE_ENERGY + 2u * (unsigned)(fresh_states > 8 ? 8 : fresh_states);
    return e;
}

/* --- stats ---------------------------------------------------------------- */

static void stats_line(camp_t *c)
{
    mc_campaign_stats_t *st = c->st;
    mc__camp_confirmed_t cd;

    memset(&cd, 0, sizeof(cd));
    cd.first_finding_ms = -1;
    if (c->cf != NULL)
        mc__camp_confirmer_read(c->cf, &cd);
    st->execs = c->execs + cd.execs;
    st->msgs_out = c->msgs_out + cd.msgs_out;
    st->msgs_in = c->msgs_in + cd.msgs_in;
    st->findings = cd.findings;
    st->unconfirmed = cd.unconfirmed;
    st->first_finding_ms = cd.first_finding_ms;
    st->elapsed_ms = elapsed(c);
    st->corpus = c->k.n;
    st->starts = mc_exec_starts(c->x) + mc_exec_starts(c->fx) + cd.starts;
    st->coverage = mc_exec_coverage(c->x);
    st->instrumented = mc_exec_instrumented(c->x);
    if (c->stats != NULL) {
        fprintf(c->stats, "%.3f\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n",
                (double)st->elapsed_ms / 1000.0, (unsigned long long)st->execs,
                (unsigned long long)st->msgs_out, (unsigned long long)st->msgs_in,
                (unsigned long long)st->starts, (unsigned long long)st->corpus,
                (unsigned long long)st->states, (unsigned long long)st->coverage,
                (unsigned long long)st->findings, (unsigned long long)st->unconfirmed);
        fflush(c->stats);
    }
    if (c->o->progress != NULL)
        c->o->progress(c->o->progress_ctx, st);
    c->last_stats = mc_now_ms();
}

/* --- findings ------------------------------------------------------------- */

/* --- the loop --------------------------------------------------------------- */

static void learn(void *ctx, const char *method, json_object *result)
{
    mc_gen_learn(ctx, method, result);
}

static int allowed(void *ctx, const char *tool)
{
    return mc_gen_allowed(ctx, tool);
}

/* At a stateless version (2026-07-28), every request the generator makes
 * carries the per-request _meta of c->x's sessions. Returns MC_OK or
 * MC_ENOMEM. */
static int stamp_requests(camp_t *c)
{
    json_object *meta = mc_exec_request_meta(c->x);
    int rc = meta != NULL && mc_gen_set_meta(&c->g, meta) != 0 ? MC_ENOMEM : MC_OK;

    json_object_put(meta);
    return rc;
}

json_object *mc__camp_discovery(const mc_gen_t *g)
{
    static const char *const lists[] = {"tools/list", "prompts/list", "resources/list",
                                        "resources/templates/list", "ping"};
    json_object *seq = json_object_new_array();
    size_t i;

    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        json_object *m = json_object_new_object();
        const char *method = lists[i];
        if (g->meta != NULL && strcmp(method, "ping") == 0)
            method = "server/discover";
        json_object_object_add(m, "jsonrpc", json_object_new_string("2.0"));
        json_object_object_add(m, "id", json_object_new_int64((int64_t)i + 10));
        json_object_object_add(m, "method", json_object_new_string(method));
        mc_gen_stamp(g, m);
        json_object_array_add(seq, m);
    }
    return seq;
}

/* The sequences run so far, the confirmer's fresh runs included. */
static uint64_t execs_all(const camp_t *c, mc__camp_confirmed_t *cd)
{
    memset(cd, 0, sizeof(*cd));
    if (c->cf != NULL)
        mc__camp_confirmer_read(c->cf, cd);
    return c->execs + cd->execs;
}

static int done(const camp_t *c)
{
    mc__camp_confirmed_t cd;
    uint64_t execs = execs_all(c, &cd);

    if (c->o->stop != NULL && *c->o->stop)
        return 1;
    if (c->o->seconds > 0 && elapsed(c) >= (int64_t)c->o->seconds * 1000)
        return 1;
    if (c->o->max_findings > 0 && cd.findings >= c->o->max_findings)
        return 1;
    return c->o->max_execs > 0 && execs >= c->o->max_execs;
}

/* True while the fresh runs spent on confirming edges stay within their
 * share of all runs. */
static int fresh_run_ok(const camp_t *c, uint64_t spent)
{
    mc__camp_confirmed_t cd;

    return spent * MC_CAMPAIGN_FRESH_SHARE < execs_all(c, &cd);
}

/* Hands the findings of out to the confirmer (seq showed them; carry and
 * hist as mc__camp_confirmer_offer takes them). */
static void offer_all(camp_t *c, const mc_exec_outcome_t *out, json_object *seq,
                      json_object *carry, json_object *hist)
{
    size_t i;

    int offered = 0;

    for (i = 0; i < out->nf; i++)
        offered |= mc__camp_confirmer_offer(c->cf, &out->f[i], seq, carry, hist, c->execs,
                                            elapsed(c));
    /* A server the campaign did not start (a URL alone) has no fresh
     * process: a confirmation's session is on the server the sequences
     * run on, and runs alone, as the sequences wait for it. */
    if (offered && c->o->argv == NULL)
        mc__camp_confirmer_wait(c->cf);
}

/* Copies the executor's lit edges (what the last run lit first and stood)
 * to lit[0..*n_lit), before other runs replace them; returns edges. */
static size_t took_lit(const camp_t *c, size_t edges, uint32_t *lit, size_t *n_lit)
{
    const uint32_t *l = mc_exec_lit(c->x, n_lit);

    if (*n_lit > 0)
        memcpy(lit, l, *n_lit * sizeof(*l));
    return edges;
}

/*
 * New edges lit in a process that carried state in may be owed to that
 * state: keep (what of the sequence would join the corpus, with what it
 * carried) is run on a fresh process of the twin executor, and only the
 * edges it reaches again stand (mc_exec_confirm); the persistent process
 * keeps the state it built. Past the share of runs this may take, they
 * are made new again unconfirmed, to be found again. Returns the edges
 * that stand, and in lit[0..*n_lit) the first of them. A finding of the
 * fresh run is handled as any other.
 */
static size_t confirm_edges(camp_t *c, json_object *keep, const mc_exec_outcome_t *out,
                            uint32_t *lit, size_t *n_lit)
{
    mc_exec_outcome_t cal;
    mc_errbuf_t eb;
    size_t kept = out->new_edges;

    *n_lit = 0;
    if (out->new_edges == 0)
        return 0;
    if (out->started)
        return took_lit(c, out->new_edges, lit, n_lit);
    if (keep == NULL || !fresh_run_ok(c, c->st->confirms))
        return out->new_edges - mc_exec_forget_new(c->x);
    mc_errbuf_clear(&eb);
    if (mc_exec_confirm(c->x, c->fx, keep, &cal, &kept, &eb) != MC_OK)
        return took_lit(c, out->new_edges, lit, n_lit);
    (void)took_lit(c, kept, lit, n_lit);
    c->execs++;
    c->st->confirms++;
    c->msgs_out += cal.lines_out;
    c->msgs_in += cal.lines_in;
    offer_all(c, &cal, keep, NULL, NULL);
    mc_exec_outcome_free(&cal);
    return kept;
}

/* Keeps what of seq is new (fresh_states new states of the response
 * model, and its new coverage) in the corpus, and saves it. */
static void keep_new(camp_t *c, json_object *seq, json_object *carry,
                     const mc_exec_outcome_t *out, size_t fresh_states)
{
    json_object *keep = mc__camp_to_keep(prev_of(c), seq, carry, out);
    uint32_t lit[MC_EXEC_MAX_LIT];
    size_t n_lit;
    size_t edges = confirm_edges(c, keep, out, lit, &n_lit);
    /* The entries of edges that did not stand are no new coverage either. */
    size_t cov = out->new_cov - (out->new_edges - edges);

    if (keep != NULL && (fresh_states > 0 || cov > 0) &&
        mc__camp_corpus_keep(&c->k, &c->g, keep,
                             energy_of(mc_exec_instrumented(c->x), cov, edges, fresh_states),
                             edges > 0 && out->last_edge_elem >= 0, lit, n_lit)) {
        c->st->corpus = c->k.n;
        mc__camp_corpus_save(&c->k, keep);
    }
    json_object_put(keep);
}

/* Runs one sequence and acts on what it gave; next (or NULL) is the
 * sequence run after it, which the executor may send ahead. Returns MC_OK
 * or a harness error from the executor. */
static int one(camp_t *c, json_object *seq, json_object *next, mc_errbuf_t *eb)
{
    mc_exec_outcome_t out;
    size_t i, fresh_states = 0;
    int rc = mc_exec_run_ahead(c->x, seq, next, &out, eb);
    json_object *carry = NULL;

    if (rc != MC_OK) {
        hist_clear(c);
        return rc;
    }
    c->execs++;
    c->msgs_out += out.lines_out;
    c->msgs_in += out.lines_in;
    /* A process started for this sequence carried nothing in. */
    if (out.started)
        hist_clear(c);
    else if (prev_of(c) != NULL && (out.new_edges > 0 || out.nf > 0))
        carry = mc__camp_with_carry(prev_of(c), seq);
    for (i = 0; i < out.ns; i++)
        fresh_states += (size_t)state_add(c, out.states[i]);
    if (fresh_states > 0 || out.new_cov > 0)
        keep_new(c, seq, carry, &out, fresh_states);
    offer_all(c, &out, seq, carry, c->hist);
    /* The fresh runs were the twin's: the persistent process ran seq last. */
    hist_add(c, seq);
    /* The twin's process is not needed until its next fresh run, which
     * would restart it anyway: stopped now (a no-op when it did not run). */
    mc_exec_stop(c->fx);
    json_object_put(carry);
    mc_exec_outcome_free(&out);
    return MC_OK;
}

/* Runs each sequence of o->replay once on a fresh process and handles what
 * it shows as the loop does (another fuzzer's crashes, imported). Returns
 * MC_OK or the first harness error. */
static int replay_all(camp_t *c, mc_errbuf_t *eb)
{
    size_t i, n = json_object_array_length(c->o->replay);
    int rc = MC_OK;

    for (i = 0; i < n && rc == MC_OK && !(c->o->stop != NULL && *c->o->stop); i++) {
        mc_exec_stop(c->x);
        hist_clear(c);
        rc = one(c, json_object_array_get_idx(c->o->replay, i), NULL, eb);
        stats_line(c);
    }
    return rc;
}

/* Opens the worker's stats file (stats.tsv, stats-wN.tsv) and writes its
 * header; without it the campaign runs on. */
static void open_stats(camp_t *c)
{
    char path[PATH_LEN], sname[64];

    if (c->o->worker == 0)
        snprintf(sname, sizeof(sname), "stats.tsv");
    else
        snprintf(sname, sizeof(sname), "stats-w%d.tsv", c->o->worker);
    if (path_in(path, c->o->out_dir, sname, NULL) == 0 && (c->stats = fopen(path, "w")) != NULL)
        fprintf(c->stats, "seconds\texecs\tmsgs_out\tmsgs_in\tstarts\tcorpus\tstates\tcoverage\t"
                          "findings\tunconfirmed\n");
}

/* The executor's options from the campaign's. */
static void exec_opts(camp_t *c, mc_exec_opts_t *xo)
{
    const mc_campaign_opts_t *o = c->o;

    memset(xo, 0, sizeof(*xo));
    xo->argv = o->argv;
    xo->cwd = o->cwd;
    xo->limits = o->limits;
    xo->version = o->version;
    xo->registry = o->registry;
    xo->hang_ms = o->hang_ms;
    xo->restart_every = o->restart_every;
    xo->mem_limit_mb = o->mem_limit_mb;
    xo->coverage = o->coverage;
    xo->url = o->url;
    xo->allow_remote = o->allow_remote;
    xo->learn = learn;
    xo->learn_ctx = &c->g;
    xo->allowed = allowed;
    xo->allowed_ctx = &c->g;
    xo->dropped = &c->dropped;
    /* Fresh runs start a process each (confirming, minimizing, recording),
     * the persistent one at each restart: the next one starts ahead. */
    xo->spare = 1;
}

int mc_campaign_run(const mc_campaign_opts_t *o, mc_campaign_stats_t *st, mc_errbuf_t *eb)
{
    camp_t c;
    mc_exec_opts_t xo;
    char path[PATH_LEN];
    int rc = MC_OK, failures = 0;
    json_object *seq;

    memset(&c, 0, sizeof(c));
    memset(st, 0, sizeof(*st));
    st->first_finding_ms = -1;
    c.o = o;
    c.st = st;
    c.t0 = mc_now_ms();
    if (mkdir_p(o->out_dir) != 0 || path_in(path, o->out_dir, "corpus", NULL) != 0 ||
        mkdir_p(path) != 0 || path_in(path, o->out_dir, "findings", NULL) != 0 ||
        mkdir_p(path) != 0 || path_in(path, o->out_dir, "unconfirmed", NULL) != 0 ||
        mkdir_p(path) != 0)
        return mc_errbuf_set(eb, MC_EIO, "cannot create the campaign directory %s: %s",
                             o->out_dir, strerror(errno));
    if (mc_gen_init(&c.g, o->seed + (uint64_t)o->worker * 7919u, o->safe_tools, o->call_tools) != 0)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    c.states = calloc(MC_CAMPAIGN_MAX_STATES, sizeof(*c.states));
    if (c.states == NULL || mc__camp_corpus_init(&c.k, o->out_dir, o->worker) != 0) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto out;
    }
    exec_opts(&c, &xo);
    rc = mc_exec_new(&c.x, &xo, eb);
    if (rc != MC_OK)
        goto out;
    xo.twin = c.x;
    rc = mc_exec_new(&c.fx, &xo, eb);
    if (rc != MC_OK)
        goto out;
    rc = mc__camp_confirmer_new(&c.cf, o, &xo, c.t0, eb);
    if (rc != MC_OK)
        goto out;
    if (stamp_requests(&c) != MC_OK) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto out;
    }
    open_stats(&c);

    if (o->replay != NULL) {
        /* Nothing is generated: no walk of the lists, whose own findings
         * would be no finding of the sequences replayed. */
        stats_line(&c);
        rc = replay_all(&c, eb);
        goto out;
    }
    /* The walk of every list comes first; it fails the campaign only when
     * the target cannot be started or refuses the session prefix. */
    seq = mc__camp_discovery(&c.g);
    rc = one(&c, seq, NULL, eb);
    if (rc == MC_OK && c.k.n == 0)
        (void)mc__camp_corpus_keep(&c.k, &c.g, seq, 0, 0, NULL, 0);
    json_object_put(seq);
    if (rc != MC_OK)
        goto out;
    mc__camp_corpus_sync(&c.k, &c.g);
    c.last_sync = mc_now_ms();
    stats_line(&c);
    /* Each sequence is made before the one before it runs (the executor
     * may send it ahead): what a run teaches reaches the one after next. */
    seq = mc__camp_next_sequence(&c.k, &c.g, c.x);
    while (seq != NULL && !done(&c)) {
        json_object *next = mc__camp_next_sequence(&c.k, &c.g, c.x);
        if (next == NULL) {
            rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
            break;
        }
        rc = one(&c, seq, next, eb);
        json_object_put(seq);
        seq = next;
        if (rc != MC_OK) {
            if (++failures >= MC_CAMPAIGN_MAX_START_FAILURES)
                break;
            mc_errbuf_clear(eb);
            rc = MC_OK;
        } else {
            failures = 0;
        }
        if (mc_now_ms() - c.last_stats >= MC_CAMPAIGN_STATS_MS)
            stats_line(&c);
        if (mc_now_ms() - c.last_sync >= MC_CAMPAIGN_SYNC_MS) {
            mc__camp_corpus_sync(&c.k, &c.g);
            c.last_sync = mc_now_ms();
        }
    }
    if (seq == NULL && rc == MC_OK)
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    json_object_put(seq);
out:
    /* What the confirmer has queued is handled before the campaign ends. */
    mc__camp_confirmer_finish(c.cf);
    if (c.x != NULL && c.fx != NULL && c.cf != NULL) {
        mc_exec_stop(c.x);
        stats_line(&c);
        mc__camp_write_waits(o, c.x, c.fx, mc__camp_confirmer_counters(c.cf));
    }
    mc__camp_confirmer_free(c.cf);
    mc_exec_free(c.x);
    mc_exec_free(c.fx);
    json_object_put(c.hist);
    if (c.stats != NULL)
        fclose(c.stats);
    mc__camp_corpus_free(&c.k);
    free(c.states);
    mc_gen_free(&c.g);
    return rc;
}
