/*
 * campaign.h - `mcpcheck fuzz`: a stateful fuzzing campaign against a
 * server started by a command.
 *
 * A campaign first walks what the server offers (the four lists), then
 * loops: pick a sequence from the corpus and mutate it (or generate a new
 * one), run it (exec.h), keep it in the corpus when it reached a state of
 * the response model or coverage never seen, and handle every finding whose
 * signature is new: confirm it on a fresh process, minimize it (delta
 * debugging on the message sequence, then on each message's JSON tree), and
 * write it as a scenario file plus its JSONL trace.
 *
 * The campaign directory holds:
 *   corpus/            one JSON array of messages per interesting sequence
 *   findings/          NAME.jsonc (a scenario: raw steps), NAME.jsonl (the
 *                      trace of the minimized run), NAME.stderr.txt (the
 *                      stderr tail of a death), index.tsv (one line each)
 *   unconfirmed/       the same for findings a fresh process did not show
 *                      again (they depend on state the campaign cannot replay)
 *   stats.tsv          time, executions, corpus, states, coverage, findings
 *   waits.tsv          where the executors' time went (starts, barriers,
 *                      hang-budget waits, sequences sent ahead), at the end
 *   report.md, report.html
 * Several workers (processes) may share one directory: each writes corpus
 * files under its own prefix and reads the others' (AFL++'s main/secondary
 * model); a finding is claimed with an exclusive lock file, so each
 * signature is written once.
 */
#ifndef MC_CAMPAIGN_CAMPAIGN_H
#define MC_CAMPAIGN_CAMPAIGN_H

#include <stdint.h>

#include <json-c/json.h>

#include "client/process.h"
#include "core/error.h"
#include "schema/registry.h"

/* Sequences kept in memory at most (the corpus directory keeps them all
 * only up to MC_CAMPAIGN_MAX_CORPUS_FILES). */
#define MC_CAMPAIGN_MAX_CORPUS 1024
/* A sequence whose JSON text is longer is run but not kept. */
#define MC_CAMPAIGN_MAX_SEQ_BYTES (32u * 1024u)
#define MC_CAMPAIGN_MAX_CORPUS_FILES 8192
/* Favoured corpus entries at a time (those with energy left), one pick in
 * MC_CAMPAIGN_HOT_ODDS goes to any entry instead, and the energy a sequence
 * earns for new edges, for new hit counts of known edges only, and for new
 * states (plus a little per new edge or state). */
#define MC_CAMPAIGN_MAX_HOT 64
#define MC_CAMPAIGN_HOT_ODDS 4
#define MC_CAMPAIGN_COV_ENERGY 128
#define MC_CAMPAIGN_BUCKET_ENERGY 2
#define MC_CAMPAIGN_STATE_ENERGY 8
/* On an instrumented target, one favoured pick in MC_CAMPAIGN_RARE_ODDS
 * goes to the favoured entry whose new edges the fewest sequences have hit
 * since (the rarest), not to one at random: an entry that holds the first
 * steps of a chain lit edges only its own descendants hit again, while
 * edges that any request reaches soon grow common. */
#define MC_CAMPAIGN_RARE_ODDS 2
/* Messages of the sequence run before in the same process put in front of
 * one that lit new edges or showed a finding (the state a persistent target
 * carried in may be what it owes them to). */
#define MC_CAMPAIGN_CARRY_MSGS 8
/* Sequences run in the current process that are remembered, for a finding
 * that neither it nor its carry shows on a fresh process (the state it
 * needs may have been built sequences before). */
#define MC_CAMPAIGN_HISTORY_SEQS 16
/* Distinct state-model keys remembered (a power of two). */
#define MC_CAMPAIGN_MAX_STATES 65536
/* Fresh runs spent on confirming new edges, and those spent on trying
 * unconfirmed findings again, each take at most one run in this many. */
#define MC_CAMPAIGN_FRESH_SHARE 4
/* Distinct finding signatures handled per worker. */
#define MC_CAMPAIGN_MAX_FINDINGS 256
/* Findings a worker's confirmer holds queued at most (one more waits), and
 * its threads: each confirms one finding at a time on fresh processes of
 * its own, so that that many hang budgets are waited out side by side. */
#define MC_CAMPAIGN_CONFIRM_QUEUE 64
#define MC_CAMPAIGN_CONFIRMERS 4
/* Minimization budget per finding: runs and wall time. */
#define MC_CAMPAIGN_MIN_RUNS 400
#define MC_CAMPAIGN_MIN_MS 30000
/* How often stats.tsv gets a line, and how often workers share corpora. */
#define MC_CAMPAIGN_STATS_MS 1000
#define MC_CAMPAIGN_SYNC_MS 5000
/* Consecutive harness-level failures (cannot start the target) tolerated. */
#define MC_CAMPAIGN_MAX_START_FAILURES 5

typedef struct mc_campaign_stats {
    uint64_t execs;      /* sequences run (minimization runs included) */
    uint64_t msgs_out;   /* lines sent */
    uint64_t msgs_in;    /* lines received */
    uint64_t starts;     /* target processes started */
    uint64_t corpus;     /* sequences in the corpus */
    uint64_t states;     /* distinct state-model keys */
    uint64_t coverage;   /* coverage map entries hit (0 without coverage) */
    uint64_t findings;   /* distinct findings written (reproduced on a fresh process) */
    uint64_t unconfirmed; /* distinct findings a fresh process did not show again */
    uint64_t confirms;   /* fresh runs that confirmed new edges (counted in execs) */
    int64_t elapsed_ms;
    int instrumented;    /* the target writes the AFL++ map */
    int64_t first_finding_ms; /* -1 until the first finding */
} mc_campaign_stats_t;

typedef struct mc_campaign_opts {
    char *const *argv;       /* the target command (NULL with a url of a running server) */
    const char *url;         /* Streamable HTTP endpoint instead of stdio, or NULL */
    int allow_remote;        /* url may name a host that is not a loopback address */
    const char *cwd;
    mc_rlimits_t limits;
    const char *version;     /* protocol version requested */
    mc_registry_t *registry; /* loaded schemas (borrowed), or NULL */
    json_object *safe_tools; /* borrowed: tools that may be called, or NULL */
    int call_tools;          /* every tool may be called */
    const char *out_dir;     /* the campaign directory */
    uint64_t seed;
    int seconds;             /* 0 = until stopped or max_execs */
    uint64_t max_execs;      /* 0 = no limit */
    int hang_ms;             /* 0 = default */
    uint64_t mem_limit_mb;   /* 0 = no memory oracle */
    int restart_every;       /* 0 = default */
    int coverage;            /* use the AFL++ shared-memory map */
    int worker;              /* this worker's number (0 = main) */
    int no_minimize;         /* write findings as found */
    uint64_t max_findings;   /* stop once this many findings are written (0 = no limit) */
    /* Borrowed: sequences to run once each, on a fresh process, instead of
     * fuzzing (their findings are handled as the campaign's own: confirmed,
     * minimized, written once per signature), or NULL. */
    json_object *replay;
    volatile int *stop;      /* set (by a signal handler) to end the campaign */
    /* Called about once a second and at the end; may print. */
    void (*progress)(void *ctx, const mc_campaign_stats_t *st);
    void *progress_ctx;
} mc_campaign_opts_t;

/*
 * Runs a campaign until the time or execution budget is spent or *stop is
 * set, writing the campaign directory as it goes (its report is written by
 * mc_report_campaign, report/report.h). Fills *st. Returns MC_OK, or an error when the
 * campaign could not run at all (directory, target never started or refused
 * the session prefix; eb says why).
 */
int mc_campaign_run(const mc_campaign_opts_t *o, mc_campaign_stats_t *st, mc_errbuf_t *eb);

/*
 * The i-th spec sentence (0-based) the scenario files of findings quote for
 * the process-level checks they report to, or NULL past the end. These are
 * among the sentences a check may claim (judge/quotes.h).
 */
const char *mc_campaign_quote_at(size_t i);

#endif /* MC_CAMPAIGN_CAMPAIGN_H */
