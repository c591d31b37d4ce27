/*
 * internal.h - shared between the campaign's files; not a public API.
 */
#ifndef MC_CAMPAIGN_INTERNAL_H
#define MC_CAMPAIGN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "campaign/campaign.h"
#include "campaign/exec.h"
#include "campaign/gen.h"

/* A finding on its way to the findings folder. */
typedef struct mc__camp_found {
    mc_exec_finding_t f;
    int64_t found_ms;   /* campaign time when first seen */
    size_t orig_len;    /* messages in the sequence that showed it */
    size_t min_len;     /* messages after minimization */
    unsigned min_runs;  /* runs the minimization took */
    int reproduced;     /* it showed again on a fresh process */
    int carried;        /* the reproducer starts with the end of the sequence
                           run before it in its process (mc__camp_with_carry) */
    size_t before;      /* else the sequences run before it there that the
                           reproducer replays first (mc__camp_with_history) */
} mc__camp_found_t;

/* A corpus entry and what it earned: a sequence that lit new coverage or
 * reached new states gets energy, the number of times it is picked as a
 * parent before the others again. */
typedef struct mc__camp_entry {
    json_object *seq;
    unsigned energy;
    int edge_end; /* its last message is the one owed the new edges it lit */
    uint32_t lit[MC_EXEC_MAX_LIT]; /* coverage entries it lit first */
    size_t n_lit;
} mc__camp_entry_t;

/* The corpus (corpus.c): entries in memory, files in DIR/corpus. */
typedef struct mc__camp_corpus {
    char dir[4096];
    int worker;
    mc__camp_entry_t *e;
    size_t n;
    size_t hot[MC_CAMPAIGN_MAX_HOT]; /* indices of entries with energy left */
    size_t n_hot;
    char **seen;      /* corpus file names already loaded or written */
    size_t n_seen;
    uint64_t written; /* files this worker wrote */
} mc__camp_corpus_t;

/* An empty corpus whose files live in OUT_DIR/corpus. 0, or -1 (out of
 * memory or the path is too long; mc__camp_corpus_free then). */
int mc__camp_corpus_init(mc__camp_corpus_t *k, const char *out_dir, int worker);
void mc__camp_corpus_free(mc__camp_corpus_t *k);

/* Keeps seq (borrowed) in memory with energy (the picks it is favoured
 * for) and the coverage entries it lit first (lit[0..n_lit), at most
 * MC_EXEC_MAX_LIT used). Returns 0 when it is too long to keep. */
int mc__camp_corpus_keep(mc__camp_corpus_t *k, mc_gen_t *g, json_object *seq, unsigned energy,
                         int edge_end, const uint32_t *lit, size_t n_lit);

/* A parent to mutate (borrowed), or NULL when the corpus is empty: most of
 * the time a favoured entry (whose energy the pick spends; *favoured set),
 * otherwise any. With hits (the sequences that hit each of n_hits coverage
 * entries, mc_exec_hits), one favoured pick in MC_CAMPAIGN_RARE_ODDS is the
 * entry whose rarest lit edge has the fewest hits. *edge_end: its last
 * message is owed the new edges it lit. */
json_object *mc__camp_corpus_pick(mc__camp_corpus_t *k, mc_gen_t *g, const uint32_t *hits,
                                  size_t n_hits, int *favoured, int *edge_end);

/* Any entry (borrowed), or NULL when the corpus is empty. */
json_object *mc__camp_corpus_any(mc__camp_corpus_t *k, mc_gen_t *g);

/* The campaign loop's next sequence: a new one one time in eight (or
 * while the corpus is empty), else a favoured entry extended (at the
 * message owed its new edges, where it has one) or an entry mutated; x's
 * hit counts steer the pick on an instrumented target. A new reference,
 * or NULL when out of memory. */
json_object *mc__camp_next_sequence(mc__camp_corpus_t *k, mc_gen_t *g, const struct mc_exec *x);

/* Writes where x's, fx's and the confirmer's executors' (cx, summed) time
 * went to the worker's waits.tsv (waits-wN.tsv); nothing is said of a
 * failure to write it. */
void mc__camp_write_waits(const mc_campaign_opts_t *o, const struct mc_exec *x,
                          const struct mc_exec *fx, mc_exec_counters_t cx);

/* Writes seq to a new file of the corpus folder. */
void mc__camp_corpus_save(mc__camp_corpus_t *k, json_object *seq);

/* Loads the corpus files not seen yet (this worker's own at start, the
 * other workers' later). */
void mc__camp_corpus_sync(mc__camp_corpus_t *k, mc_gen_t *g);

/* A finding signature a worker has seen (sigs.c). */
typedef struct mc__camp_sig {
    char *text;
    unsigned tries;  /* times handled (reproduction tried) */
    int owned;       /* this worker holds its claim (the lock file) */
    int settled;     /* written to findings/, or claimed by another worker */
    int queued;      /* handed to the confirmer and not yet handled */
} mc__camp_sig_t;

typedef struct mc__camp_sigs {
    mc__camp_sig_t v[MC_CAMPAIGN_MAX_FINDINGS];
    size_t n;
} mc__camp_sigs_t;

/*
 * Counts a sighting of the signature text; returns 1 when its finding may
 * be handled now: the first time it is seen, and again at later sightings
 * while it is not settled (a finding first seen thanks to state that
 * earlier sequences left in the process may show in one sequence of its
 * own later; the caller bounds what trying again costs). *sp gets the
 * record (NULL when the table is full or out of memory: then 0).
 */
int mc__camp_sig_due(mc__camp_sigs_t *t, const char *text, mc__camp_sig_t **sp);

void mc__camp_sigs_free(mc__camp_sigs_t *t);

/* FNV-1a of n bytes. */
uint64_t mc__camp_hash(const char *s, size_t n);

/* Writes a file atomically (temporary name, then rename). 0 or -1. */
int mc__camp_write_file(const char *path, const char *data, size_t len);

/* When the campaign ends (monotonic ms), INT64_MAX without a time limit. */
int64_t mc__camp_deadline(void *ctx);

/* Runs seq on a fresh target (ctx is the confirmer); 1 when sig shows. */
int mc__camp_reproduces(void *ctx, json_object *seq, const char *sig);

/* --- confirm.c -------------------------------------------------------------- */

/* The confirmer of a worker: MC_CAMPAIGN_CONFIRMERS threads, each with a
 * fresh executor of its own, that show the worker's findings again on fresh
 * processes, minimize them and write them, while the worker's persistent
 * process goes on. */
typedef struct mc__camp_confirmer mc__camp_confirmer_t;

/* What the confirmer did so far. */
typedef struct mc__camp_confirmed {
    uint64_t execs, msgs_out, msgs_in; /* its fresh runs and their lines */
    uint64_t starts;                   /* processes it started */
    uint64_t findings, unconfirmed;    /* as mc_campaign_stats_t counts them */
    uint64_t retries;                  /* fresh runs spent on findings seen again */
    int64_t first_finding_ms;          /* -1 until the first finding */
} mc__camp_confirmed_t;

/* Starts the confirmer of campaign o (started at t0), its executors made
 * with xo (without the generator's learning and without a twin). */
int mc__camp_confirmer_new(mc__camp_confirmer_t **out, const mc_campaign_opts_t *o,
                           const mc_exec_opts_t *xo, int64_t t0, mc_errbuf_t *eb);

/*
 * Hands finding f, shown by seq, to the confirmer when its signature is
 * due (mc__camp_sig_due) and not queued already; a finding seen again is
 * tried again only while those retries stay within MC_CAMPAIGN_FRESH_SHARE
 * of all runs (execs, the worker's own, plus the confirmer's). carry (or
 * NULL) is seq with the end of the sequence before it in front
 * (mc__camp_with_carry), hist (or NULL) the sequences the process ran
 * before seq; all three are copied. Waits while MC_CAMPAIGN_CONFIRM_QUEUE
 * findings are queued. Returns 1 when it was handed over.
 */
int mc__camp_confirmer_offer(mc__camp_confirmer_t *cf, const mc_exec_finding_t *f,
                             json_object *seq, json_object *carry, json_object *hist,
                             uint64_t execs, int64_t found_ms);

/* Waits until nothing is queued or in hand. */
void mc__camp_confirmer_wait(mc__camp_confirmer_t *cf);

/* Copies what the confirmer did so far to *out. */
void mc__camp_confirmer_read(mc__camp_confirmer_t *cf, mc__camp_confirmed_t *out);

/* Handles everything queued, then stops the thread (cf may be NULL). */
void mc__camp_confirmer_finish(mc__camp_confirmer_t *cf);

/* Where its executors' time went, summed, for waits.tsv (read once the
 * confirmer has finished). */
mc_exec_counters_t mc__camp_confirmer_counters(const mc__camp_confirmer_t *cf);

/* Finishes (as mc__camp_confirmer_finish) and frees (cf may be NULL). */
void mc__camp_confirmer_free(mc__camp_confirmer_t *cf);

/*
 * Minimizes seq (borrowed) for sig: delta debugging on the elements, then
 * removal of members and array items inside each message, within
 * MC_CAMPAIGN_MIN_RUNS runs and MC_CAMPAIGN_MIN_MS. Returns a new reference
 * (seq itself when nothing could be removed) and the runs taken in *runs.
 */
json_object *mc__camp_minimize(void *ctx, json_object *seq, const char *sig, unsigned *runs);

/*
 * Writes SUB/NAME.jsonc (the scenario), NAME.jsonl (the trace of rec),
 * NAME.stderr.txt (when rec has a stderr tail) and a line of SUB/index.tsv,
 * SUB being "findings" or "unconfirmed" under the campaign directory.
 * Returns 0 or -1.
 */
int mc__camp_write_finding(const mc_campaign_opts_t *o, const char *sub, const char *version,
                           json_object *seq, const mc__camp_found_t *fd,
                           const mc_exec_outcome_t *rec);

/* Removes the files SUB/NAME.* that mc__camp_write_finding wrote for f's
 * signature (its line in SUB/index.tsv stays: the report leaves out an
 * unconfirmed line whose signature is in findings/index.tsv). */
void mc__camp_drop_finding(const mc_campaign_opts_t *o, const char *sub,
                           const mc_exec_finding_t *f);

/*
 * A persistent target carries state from one sequence into the next: the
 * last MC_CAMPAIGN_CARRY_MSGS messages of prev (borrowed), then seq
 * (borrowed), within MC_GEN_MAX_SEQ, the generator's ids of the messages
 * from prev renumbered above seq's. Returns a new reference, or NULL when
 * prev adds nothing.
 */
json_object *mc__camp_with_carry(json_object *prev, json_object *seq);

/*
 * What a persistent process ran before a finding, as one sequence: the
 * sequences of hist (an array of them, oldest first, borrowed) that ran in
 * the process before seq (borrowed), then seq, each message as the
 * executor sent it there (mc_exec_moved: sequence k of the result moved by
 * k strides), so that a fresh process gets the same lines. Only the most
 * recent of hist that fit within MC_EXEC_MAX_ELEMS with seq, whole; *taken
 * gets how many. Returns a new reference, or NULL when none fits (or out
 * of memory).
 */
json_object *mc__camp_with_history(json_object *hist, json_object *seq, size_t *taken);

/* The first n elements of seq (borrowed): a new reference (to seq itself
 * when it has no more than n), or NULL when out of memory. */
json_object *mc__camp_prefix(json_object *seq, size_t n);

/* What of seq (borrowed, with its outcome) joins the corpus (carry.c). */
json_object *mc__camp_to_keep(json_object *prev, json_object *seq, json_object *carry,
                              const mc_exec_outcome_t *out);

/* The first sequence of a campaign (new reference): every list, so that
 * the generator learns the names, and ping (server/discover at a stateless
 * version, which has no ping), each request stamped as g stamps its own. */
json_object *mc__camp_discovery(const mc_gen_t *g);

/* Gives the last message of seq a fresh integer id when its id is one an
 * earlier message of seq already has (an extension's appended message). */
void mc__camp_fresh_last_id(json_object *seq);

#endif /* MC_CAMPAIGN_INTERNAL_H */
