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

/* A finding on its way to the findings folder. */
typedef struct mc__camp_found {
    mc_exec_finding_t f;
    int64_t found_ms;   /* campaign time when first seen */
    size_t orig_len;    /* messages in the sequence that showed it */
    size_t min_len;     /* messages after minimization */
    unsigned min_runs;  /* runs the minimization took */
    int reproduced;     /* it showed again on a fresh process */
} mc__camp_found_t;

/* FNV-1a of n bytes. */
uint64_t mc__camp_hash(const char *s, size_t n);

/* Writes a file atomically (temporary name, then rename). 0 or -1. */
int mc__camp_write_file(const char *path, const char *data, size_t len);

/* When the campaign ends (monotonic ms), INT64_MAX without a time limit. */
int64_t mc__camp_deadline(void *ctx);

/* Runs seq on a fresh target (ctx is the campaign); 1 when sig shows. */
int mc__camp_reproduces(void *ctx, json_object *seq, const char *sig);

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

/*
 * A persistent target carries state from one sequence into the next: the
 * last MC_CAMPAIGN_CARRY_MSGS messages of prev (borrowed), then seq
 * (borrowed), within MC_GEN_MAX_SEQ, the generator's ids of the messages
 * from prev renumbered above seq's. Returns a new reference, or NULL when
 * prev adds nothing.
 */
json_object *mc__camp_with_carry(json_object *prev, json_object *seq);

/* The first n elements of seq (borrowed): a new reference (to seq itself
 * when it has no more than n), or NULL when out of memory. */
json_object *mc__camp_prefix(json_object *seq, size_t n);

/* What of seq (borrowed, with its outcome) joins the corpus (carry.c). */
json_object *mc__camp_to_keep(json_object *prev, json_object *seq, json_object *carry,
                              const mc_exec_outcome_t *out);

/* Gives the last message of seq a fresh integer id when its id is one an
 * earlier message of seq already has (an extension's appended message). */
void mc__camp_fresh_last_id(json_object *seq);

#endif /* MC_CAMPAIGN_INTERNAL_H */
