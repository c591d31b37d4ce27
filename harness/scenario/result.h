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
 * MAY and INFO -> INFO (which fails a run only with --fail-on info). */
mc_verdict_t mc_verdict_for_level(mc_level_t level);

/*
 * The gate: what fails the user's run. The spec's level and a check's
 * verdict never change; the gate decides, beside them, whether a broken
 * check fails the run. --fail-on sets the threshold (FAIL by default; WARN
 * is --strict; INFO fails on any finding); a gate rule may set a check's
 * outcome outright, with a reason every report prints.
 */
typedef enum mc_fail_on {
    MC_FAIL_ON_FAIL = 0, /* a broken MUST (and an ERROR) fails the run */
    MC_FAIL_ON_WARN,     /* a broken SHOULD too (--strict) */
    MC_FAIL_ON_INFO      /* any finding, MAY observations included */
} mc_fail_on_t;

/* "fail", "warn", "info". */
const char *mc_fail_on_name(mc_fail_on_t f);
/* Parses "fail", "warn" or "info". Returns 0, or -1 for another word. */
int mc_fail_on_parse(const char *s, mc_fail_on_t *out);

/* A gate rule's outcome for a check; NONE: no rule names it. */
typedef enum mc_gate_outcome {
    MC_GATE_NONE = 0,
    MC_GATE_FAIL,   /* broken, it fails the run whatever its level */
    MC_GATE_WARN,   /* broken, it is a warning (fails only with --fail-on warn or info) */
    MC_GATE_IGNORE  /* broken, it is shown but never fails the run */
} mc_gate_outcome_t;

/* "" (NONE), "fail", "warn", "ignore". */
const char *mc_gate_outcome_name(mc_gate_outcome_t g);

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
    mc_gate_outcome_t gate; /* the gate rule naming this check, or NONE */
    char *gate_reason;      /* owned: that rule's reason (NULL when NONE) */
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
    mc_fail_on_t fail_on;     /* --fail-on: the level from which a finding fails the run */
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

/* Whether a check fails the run: it is broken (FAIL, WARN or INFO) and its
 * gate rule says "fail", or no rule names it and its verdict is at or above
 * the threshold (WARN needs --fail-on warn, INFO --fail-on info). A rule's
 * "warn" fails with --fail-on warn or info; "ignore" never fails. */
int mc_check_fails(const mc_check_result_t *c, mc_fail_on_t fail_on);

/* Whether a scenario run fails the run: an ERROR, a check that fails
 * (mc_check_fails), or a FAIL, WARN or INFO verdict no check accounts for,
 * judged against the threshold. */
int mc_sresult_fails(const mc_scenario_result_t *r, mc_fail_on_t fail_on);

/* Sets a check's gate decision (reason copied; NULL for NONE). Returns
 * MC_OK or MC_ENOMEM (the check is then untouched). */
int mc_check_set_gate(mc_check_result_t *c, mc_gate_outcome_t g, const char *reason);

/* Counts verdicts: count[v] is how many scenario runs have the spec's
 * verdict v (each run once). */
void mc_run_summarize(mc_run_result_t *run);

/* Exit code of a run: 0 pass, 1 fail (a scenario run that fails by
 * mc_sresult_fails), 3 when nothing could run (every scenario ERROR). */
int mc_run_exit_code(const mc_run_result_t *run);

void mc_run_free(mc_run_result_t *run);

#endif /* MC_SCENARIO_RESULT_H */
