/*
 * result.h - the result model: a run has scenarios, a scenario has checks.
 *
 * Every report writer reads this model (report/). A check is aggregated by
 * id within a scenario: evaluated once or a hundred times (for each resource
 * read), it appears once, with the worst verdict and the evidence of its
 * first failure.
 */
#ifndef MC_SCENARIO_RESULT_H
#define MC_SCENARIO_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

/* Transcript kept per scenario: lines, bytes, and bytes per line. */
#define MC_RESULT_MAX_TX_LINES 2000
#define MC_RESULT_MAX_TX_BYTES (1u << 20)
#define MC_RESULT_MAX_TX_LINE 4096
/* Transcript lines and bytes kept by all the results alive in the process at
 * once: a run of hundreds of scenarios against a chatty target stays within
 * the memory bound, the report writers' trees included (the transcripts
 * past it are truncated and say so). */
#define MC_RESULT_MAX_RUN_TX_LINES 32768u
#define MC_RESULT_MAX_RUN_TX_BYTES (24u << 20)
/* Checks per scenario. */
#define MC_RESULT_MAX_CHECKS 256
/* Bytes of a message, expected or actual value kept per check. */
#define MC_RESULT_MAX_TEXT 1024

/* In order of severity: the worst verdict of its checks is a scenario's. */
typedef enum mc_verdict {
    MC_PASS = 0,
    MC_SKIP,
    MC_INFO,
    MC_NOT_VERIFIED,
    MC_WARN,
    MC_FAIL,
    MC_ERROR
} mc_verdict_t;

#define MC_VERDICT_COUNT 7

/* "PASS", "SKIP", "INFO", "NOT-VERIFIED", "WARN", "FAIL", "ERROR". */
const char *mc_verdict_name(mc_verdict_t v);

/* The verdict of a broken check of this level: MUST -> FAIL, SHOULD -> WARN,
 * MAY and INFO -> INFO (which never fails a run, even with --strict). */
mc_verdict_t mc_verdict_for_level(mc_level_t level);

typedef struct mc_check_result {
    char *id;
    mc_verdict_t verdict;
    mc_level_t level;
    char *ref;       /* "VERSION/page#anchor" of the version that ran ("" when none) */
    char *quote;     /* the spec sentence, verbatim, at that version ("" when none) */
    char *interpretation; /* the harness's reading, or NULL */
    int author;      /* an author's check: quote is the author's rule, not the spec's; ref is "" */
    char *link;      /* an author's check: where the rule is written down, or NULL */
    char *message;   /* first failure, in words (NULL when it held) */
    char *expected;
    char *actual;
    char *path;      /* where in the message */
    uint64_t seq;    /* transcript line of the failure (0: none) */
    int line;        /* scenario file line of the step */
    unsigned evals;  /* times evaluated */
    unsigned fails;  /* times it did not hold */
} mc_check_result_t;

typedef struct mc_tx_line {
    uint64_t seq;    /* 1-based, both directions */
    int64_t t_ms;    /* since the scenario started */
    int outbound;    /* 1: client -> server */
    char *line;      /* owned, possibly truncated */
    size_t len;      /* original length */
} mc_tx_line_t;

typedef struct mc_scenario_result {
    char *id, *area, *title, *file;
    char *version;            /* protocol version the scenario ran at */
    char *tags;               /* the scenario's tags, comma-separated ("deprecated"), or NULL */
    mc_verdict_t verdict;
    char *reason;             /* why SKIP, NOT-VERIFIED or ERROR */
    char *role;               /* NOT-VERIFIED: the role nothing filled, or NULL */
    char *fixtures;           /* the listed items picked for roles by their shape, in words, or
                                 NULL (scenario/fixtures.h) */
    mc_check_result_t *checks;
    size_t n_checks;
    mc_tx_line_t *tx;
    size_t n_tx;
    size_t tx_bytes;
    int tx_truncated;
    char *stderr_tail;        /* last bytes of the target's stderr */
    char *exit_desc;          /* how the target ended */
    int64_t duration_ms;
} mc_scenario_result_t;

typedef struct mc_run_result {
    mc_scenario_result_t *scenarios; /* owned array */
    size_t n;
    char *target;             /* the command, quoted for display */
    char *versions;           /* versions requested, comma-separated */
    char *profile;            /* profile file or "default" */
    uint64_t seed;
    char started[40];         /* ISO 8601 UTC */
    int64_t duration_ms;
    int partial;              /* interrupted: not every scenario ran */
    char *partial_why;        /* why the run is partial, e.g. "the run was interrupted" (owned;
                                 NULL: interrupted) */
    int strict;               /* WARN fails the run */
    size_t count[MC_VERDICT_COUNT];
} mc_run_result_t;

/* Prepares a scenario result (copies the strings). Returns MC_OK or MC_ENOMEM. */
int mc_sresult_init(mc_scenario_result_t *r, const mc_scenario_t *sc, const char *version);

/*
 * Records one evaluation of check id. pass = 1 when it held. The metadata
 * (level, quote, interpretation, the ref of r->version) is taken from def
 * the first time the id is seen; def NULL means an undeclared check (MUST,
 * no quote). Evidence strings may be NULL. Returns MC_OK, MC_EFULL or
 * MC_ENOMEM.
 */
int mc_sresult_check(mc_scenario_result_t *r, const char *id, const mc_check_def_t *def,
                     int pass, const char *message, const char *expected, const char *actual,
                     const char *path, uint64_t seq, int line);

/* Appends a transcript line (bounded). */
void mc_sresult_tx(mc_scenario_result_t *r, uint64_t seq, int64_t t_ms, int outbound,
                   const char *line, size_t len);

/* Sets the verdict to ERROR/SKIP/NOT-VERIFIED with a reason (first reason kept). */
void mc_sresult_set(mc_scenario_result_t *r, mc_verdict_t v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Computes the scenario's verdict from its checks. ERROR set by
 * mc_sresult_set wins; SKIP and NOT-VERIFIED win too, unless a check
 * already gave WARN or FAIL (a finding made before the scenario had to stop
 * stands). */
void mc_sresult_finish(mc_scenario_result_t *r);

void mc_sresult_free(mc_scenario_result_t *r);

/* Counts verdicts. */
void mc_run_summarize(mc_run_result_t *run);

/* Exit code of a run: 0 pass, 1 fail (FAIL, ERROR, or WARN with strict),
 * 3 when nothing could run (every scenario ERROR). */
int mc_run_exit_code(const mc_run_result_t *run);

void mc_run_free(mc_run_result_t *run);

#endif /* MC_SCENARIO_RESULT_H */
