/*
 * report.h - writers that read the result model (scenario/result.h).
 *
 * A report is a run (the model) plus what the CLI knows around it: the
 * scenarios that did not run (an interrupted run), and what a baseline of
 * known failures says about each failure. Every output is derived from it:
 *
 *   report.json   the model itself (documented in reports/README.md); it can
 *                 be loaded back, so every other output can be rebuilt
 *   junit.xml     one testsuite per area, one testcase per scenario
 *   report.sarif  SARIF 2.1.0: one rule per check id, one result per broken check
 *   report.html   one self-contained page (no network fetch)
 *   report.md     a Markdown summary for a CI job summary or a PR comment
 *   traces/       each scenario's messages as JSONL
 *   console       lines for the CLI to print
 *
 * Files are written atomically: to a temporary file in the same folder, then
 * renamed. Nothing here prints or exits; errors go into an mc_errbuf_t.
 */
#ifndef MC_REPORT_REPORT_H
#define MC_REPORT_REPORT_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"
#include "scenario/result.h"

/* Largest output file a writer builds (report.html of a big run included). */
#define MC_REPORT_MAX_OUTPUT (512u * 1024u * 1024u)
/* Largest report.json or baseline file read back. */
#define MC_REPORT_MAX_INPUT (512u * 1024u * 1024u)
/* Entries a baseline may hold. */
#define MC_BASELINE_MAX_ENTRIES 20000
/* Transcript bytes of one message shown in report.html before "…". */
#define MC_REPORT_HTML_MAX_LINE 2048
/* Causes "Needs attention" lists, and the scenario runs it links per cause. */
#define MC_REPORT_HTML_MAX_CAUSES 100
#define MC_REPORT_HTML_CAUSE_LINKS 12
/* Largest report.md, in bytes: under GitHub's 65536 characters of a
 * pull-request comment (a job summary may hold 1 MiB), with room to spare
 * for a line the posting step adds. */
#define MC_REPORT_MD_MAX (60u * 1024u)
/* Reports a merge reads. */
#define MC_REPORT_MAX_MERGE 64

/* How every report names an author's check (a rule of the user's own
 * product, check.h), beside its level: never as the spec's. */
#define MC_REPORT_AUTHOR_LABEL "your rule"
/* The "source" of a check in report.json and SARIF: the spec's or the author's. */
#define MC_REPORT_SOURCE_SPEC "spec"
#define MC_REPORT_SOURCE_AUTHOR "author"

/* ---- baselines ------------------------------------------------------------ */

/*
 * One known failure. The key is written "SCENARIO[@VERSION][:CHECK]" (also
 * accepted: "SCENARIO:CHECK@VERSION"); without a version it holds at every
 * version, without a check it covers the whole scenario (any check, and an
 * ERROR).
 */
typedef struct mc_baseline_entry {
    char *key;      /* as written */
    char *scenario;
    char *version;  /* NULL: any version */
    char *check;    /* NULL: the whole scenario */
    char *reason;
    int line;       /* line in the baseline file */
} mc_baseline_entry_t;

typedef struct mc_baseline {
    char *path;               /* owned */
    mc_baseline_entry_t *v;   /* owned */
    size_t n;
} mc_baseline_t;

/*
 * Reads a baseline file (JSON or JSONC):
 *   {"mcpcheck_baseline": 1, "known": [{"id": KEY, "reason": TEXT}, ...]}
 * Problems are reported as "file:line:col: what is wrong". On error b is
 * untouched.
 */
int mc_baseline_load(const char *path, mc_baseline_t *b, mc_errbuf_t *eb);

/* Parses a key into its parts (owned strings in e). Returns MC_OK or MC_EINVAL. */
int mc_baseline_parse_key(const char *key, mc_baseline_entry_t *e, mc_errbuf_t *eb);

void mc_baseline_free(mc_baseline_t *b);

/* ---- the gate -------------------------------------------------------------- */

/* Rules a gate file may hold. */
#define MC_GATE_MAX_RULES 4096

/* One rule: the outcome of the checks whose id matches a glob. */
typedef struct mc_gate_rule {
    char *check;               /* a check id, or a glob of them (wildcards * ? [...]) */
    mc_gate_outcome_t outcome; /* FAIL, WARN or IGNORE */
    char *reason;
    int line;                  /* line in the gate file */
} mc_gate_rule_t;

typedef struct mc_gate {
    char *path;           /* owned */
    int has_fail_on;      /* the file sets "fail_on" */
    mc_fail_on_t fail_on; /* its threshold (the command line's --fail-on wins) */
    mc_gate_rule_t *v;    /* owned */
    size_t n;
} mc_gate_t;

/*
 * Reads a gate file (JSON or JSONC):
 *   {"mcpcheck_gate": 1, "fail_on": "fail"|"warn"|"info",
 *    "rules": [{"check": ID-OR-GLOB, "outcome": "fail"|"warn"|"ignore", "reason": TEXT}]}
 * ("mcpcheck_gate" and "fail_on" optional). Problems are reported as
 * "file:line:col: what is wrong". On error g is untouched.
 */
int mc_gate_load(const char *path, mc_gate_t *g, mc_errbuf_t *eb);

/* The rule deciding check id: the first whose pattern is the id itself,
 * else the first glob that matches it; NULL when none (or g is NULL). */
const mc_gate_rule_t *mc_gate_rule_for(const mc_gate_t *g, const char *check);

/* Writes the gate's decision onto every check of r a rule names. Returns
 * MC_OK or MC_ENOMEM. */
int mc_gate_apply(const mc_gate_t *g, mc_scenario_result_t *r);

void mc_gate_free(mc_gate_t *g);

/*
 * The gate's decision on a broken check in words, or "" when it has nothing
 * to say (no rule, and the verdict stands): "failed by your gate: REASON",
 * "warning by your gate: REASON", "ignored by your gate: REASON", or,
 * without a rule, "fails the run (--fail-on warn)" for a WARN or INFO that
 * the threshold fails.
 */
void mc_report_gate_words(const mc_check_result_t *c, mc_fail_on_t fail_on, char *out, size_t n);

/* ---- the report ------------------------------------------------------------ */

/*
 * What a scenario run came to once the gate and the baseline have spoken.
 * Every run has exactly one outcome, so the outcomes add up to the runs.
 */
typedef enum mc_outcome {
    MC_OUT_PASS = 0,
    MC_OUT_FAIL,         /* fails the run (a WARN or INFO the gate fails included) */
    MC_OUT_ERROR,        /* fails the run: the harness or the target's process failed */
    MC_OUT_KNOWN,        /* would fail the run, but the baseline lists it */
    MC_OUT_WARN,         /* broken SHOULD (or a rule's "warn") that does not fail the run */
    MC_OUT_INFO,         /* MAY observations only */
    MC_OUT_IGNORED,      /* broken checks only, every one ignored by the gate */
    MC_OUT_SKIP,
    MC_OUT_NOT_VERIFIED
} mc_outcome_t;

#define MC_OUTCOME_COUNT 9

/* The words of an outcome in counts: "passed", "failed", "errors", "known",
 * "warnings", "info", "ignored", "skipped", "not verified". */
const char *mc_outcome_label(mc_outcome_t o);
/* Its key in report.json and junit.xml: "passed", "failed", "errors",
 * "known", "warnings", "info", "ignored", "skipped", "not_verified". */
const char *mc_outcome_key(mc_outcome_t o);

/* A planned scenario run that did not happen (the run was interrupted). */
typedef struct mc_report_notrun {
    char *id, *version, *area, *title, *file;
    char *reason;
} mc_report_notrun_t;

/* What a baseline entry came to in this run, when it is not simply confirmed. */
typedef struct mc_report_bnote {
    char *key;
    char *reason;  /* the entry's reason */
    char *why;     /* what happened: "now passes", "did not run" ... */
    int stale;     /* 1: the listed failure is gone (fails the run); 0: not exercised */
} mc_report_bnote_t;

typedef struct mc_report {
    mc_run_result_t run;            /* owned */
    mc_report_notrun_t *not_run;    /* owned */
    size_t n_not_run;
    char *baseline_path;            /* owned, or NULL when no baseline was used */
    char **known;                   /* owned, per scenario: the baseline's reason when its
                                       failure is known, else NULL (NULL array: none) */
    char ***check_known;            /* owned, per scenario, per check: reason or NULL */
    mc_report_bnote_t *notes;       /* owned: stale and unexercised baseline entries */
    size_t n_notes;
    char *gate_path;                /* owned, or NULL when no gate file was used */
    char base_dir[4096];            /* file paths in outputs are made relative to it */
    /* read-only, computed by mc_report_summarize() */
    size_t n_failed;                /* failing scenarios the baseline does not list */
    size_t n_errors;                /* of which ERROR */
    size_t n_known;                 /* failing scenarios the baseline lists */
    size_t n_stale;                 /* stale baseline entries */
    size_t outcomes[MC_OUTCOME_COUNT]; /* runs per outcome; they add up to run.n */
    size_t n_gated;                 /* of outcomes[MC_OUT_FAIL]: runs failed only because the
                                       gate fails a WARN or INFO (or a rule says "fail") */
} mc_report_t;

/*
 * Starts a report from a finished run, taking ownership of *run (which is
 * zeroed). base_dir: the folder output paths are relative to (NULL: the
 * current directory). Returns MC_OK or MC_ENOMEM.
 */
int mc_report_init(mc_report_t *rep, mc_run_result_t *run, const char *base_dir);

/* Lists a planned run that did not happen. Returns MC_OK or MC_ENOMEM. */
int mc_report_add_not_run(mc_report_t *rep, const char *id, const char *version,
                          const char *area, const char *title, const char *file,
                          const char *reason);

/*
 * Judges the run against a baseline: marks the failures it lists as known
 * and records its stale entries (listed, ran, and now hold) and unexercised
 * ones (listed, but nothing ran that could show it) as notes. Recounts.
 */
int mc_report_apply_baseline(mc_report_t *rep, const mc_baseline_t *b);

/* Applies a gate: its rules' decisions onto the checks (mc_gate_apply), its
 * path into the report. Recounts. Returns MC_OK or MC_ENOMEM. */
int mc_report_apply_gate(mc_report_t *rep, const mc_gate_t *g);

/* Recounts run->count, outcomes and the n_* fields. */
void mc_report_summarize(mc_report_t *rep);

/* True when this scenario fails the run by the gate (mc_sresult_fails),
 * known or not. */
int mc_report_scenario_fails(const mc_report_t *rep, size_t i);

/* The outcome of scenario run i. */
mc_outcome_t mc_report_outcome(const mc_report_t *rep, size_t i);

/* The counts line: "N passed, N failed (N by your gate), N info ... (N runs)"
 * with every non-zero outcome once (passed and failed always), adding up
 * to the runs. */
void mc_report_counts_text(const mc_report_t *rep, char *out, size_t n);

/* The baseline reason of check k of scenario i, or NULL. */
const char *mc_report_check_known(const mc_report_t *rep, size_t i, size_t k);

/*
 * What baseline b says of a result: the reason listed for its failure when
 * every part of it that fails the run is listed (a whole-scenario entry for
 * an ERROR), else NULL. mc_baseline_check_reason: the entry covering one
 * check of r, or NULL.
 */
const char *mc_baseline_result_reason(const mc_baseline_t *b, const mc_scenario_result_t *r,
                                      mc_fail_on_t fail_on);
const char *mc_baseline_check_reason(const mc_baseline_t *b, const mc_scenario_result_t *r,
                                     const char *check);

/*
 * Exit code: 0 pass, 1 an unlisted failure or a stale baseline entry, 3 when
 * nothing could run (every scenario ERROR) or the run was interrupted
 * without a failure.
 */
int mc_report_exit_code(const mc_report_t *rep);

void mc_report_free(mc_report_t *rep);

/* ---- findings by cause ------------------------------------------------------ */

/* Distinct causes kept (further ones still count in the number of findings). */
#define MC_REPORT_MAX_CAUSES 1024
/* Bytes of a cause's key (its message with what varies blanked out). */
#define MC_REPORT_CAUSE_KEY 256

/*
 * One cause: a check id failing for the same reason (the message with
 * numbers, quoted values and URIs blanked out) across scenarios and
 * versions, or a scenario ERROR for the same reason (check NULL). Strings
 * are borrowed from the report.
 */
typedef struct mc_report_cause {
    const char *check;      /* check id, or NULL for a scenario ERROR */
    mc_verdict_t verdict;   /* ERROR, FAIL or WARN */
    mc_level_t level;
    const char *message;    /* the first finding's message (or the ERROR reason) */
    char key[MC_REPORT_CAUSE_KEY];
    size_t count;           /* findings with this cause */
    size_t scenario;        /* index of the first scenario run that shows it */
    size_t check_index;     /* its check there ((size_t)-1 for an ERROR or a SKIP) */
    int fails;              /* it fails the run (the gate's say) */
} mc_report_cause_t;

/*
 * Groups the findings that fail or warn (FAIL and WARN checks, any check
 * the gate fails, ERROR scenarios; not those a baseline lists) by cause:
 * those that fail the run first, then the worst, then by how often they
 * occur. *out is an owned array (free()), *findings the number of findings
 * grouped. Returns MC_OK or MC_ENOMEM (then *out is NULL).
 */
int mc_report_causes(const mc_report_t *rep, mc_report_cause_t **out, size_t *n,
                     size_t *findings);

/* The same grouping of the INFO checks that do not fail the run (MAY
 * observations). */
int mc_report_observations(const mc_report_t *rep, mc_report_cause_t **out, size_t *n,
                           size_t *findings);

/* The same grouping of the SKIP runs by reason (check NULL, verdict SKIP). */
int mc_report_skips(const mc_report_t *rep, mc_report_cause_t **out, size_t *n,
                    size_t *findings);

/* ---- what was not verified, and why --------------------------------------- */

/* Groups kept (further NOT-VERIFIED runs still count in the total). */
#define MC_REPORT_MAX_MISSING 256

/*
 * NOT-VERIFIED runs grouped by what was missing: the role nothing filled
 * (role set; its shape is mc_role_shape's), or else the reason with what
 * varies blanked out (a fixture that refused the harness's arguments, a
 * step that could not be carried out). Strings are borrowed from the report.
 */
typedef struct mc_report_missing {
    const char *role;       /* the role, or NULL */
    const char *reason;     /* the first run's reason */
    char key[MC_REPORT_CAUSE_KEY];
    size_t count;           /* runs */
    size_t scenario;        /* index of the first run */
} mc_report_missing_t;

/* Groups the run's NOT-VERIFIED scenario runs, largest group first. *out is
 * an owned array (free()), *total the runs grouped. Returns MC_OK or
 * MC_ENOMEM (then *out is NULL). */
int mc_report_missing(const mc_report_t *rep, mc_report_missing_t **out, size_t *n,
                      size_t *total);

/* Reads a report.json back. On error rep is zeroed. */
int mc_report_load(const char *path, mc_report_t *rep, mc_errbuf_t *eb);

/* ---- outputs --------------------------------------------------------------- */

/* Builds the report.json document (new reference; caller puts it). */
json_object *mc_report_json(const mc_report_t *rep);

/* Each builds its output in memory into *out (malloc'd, NUL-terminated,
 * caller frees) and *len. Return MC_OK, MC_ENOMEM or MC_ETOOBIG. */
int mc_report_junit(const mc_report_t *rep, char **out, size_t *len);
int mc_report_sarif(const mc_report_t *rep, char **out, size_t *len);
int mc_report_html(const mc_report_t *rep, char **out, size_t *len);
/*
 * report.md: the outcome counts (mc_report_counts_text's, one row per
 * outcome, and the runs), the failures grouped by cause with the rule's
 * sentence and its spec link, the INFO observations and NOT-VERIFIED runs
 * in folded sections, and the area x version matrix, in GitHub-flavoured
 * Markdown of at most MC_REPORT_MD_MAX bytes: a table holds whole rows, and
 * what does not fit is counted under it.
 */
int mc_report_markdown(const mc_report_t *rep, char **out, size_t *len);
/* The JSONL trace of scenario i: {"seq","t_ms","dir","line"} per message. */
int mc_report_trace(const mc_scenario_result_t *r, char **out, size_t *len);
/*
 * The HTTP facts the Streamable HTTP transport notes beside a message it
 * received ("POST#5 200 text/event-stream session=ID event-id=ID", facts[0..n))
 * as {"stream", "status", "content_type", "session", "event_id", "resumes"}
 * (the members present). New reference, or NULL when the text is not such
 * facts.
 */
json_object *mc_report_http_facts(const char *facts, size_t n);
/* The file name of scenario i's trace: "<id, '/' as '__'>@<version>.jsonl". */
void mc_report_trace_name(const mc_scenario_result_t *r, char *out, size_t n);

/* Names of the files mc_report_write_all() writes into the report folder. */
#define MC_REPORT_JSON "report.json"
#define MC_REPORT_JUNIT "junit.xml"
#define MC_REPORT_SARIF "report.sarif"
#define MC_REPORT_HTML "report.html"
#define MC_REPORT_MD "report.md"
#define MC_REPORT_TRACES "traces"

/*
 * Writes every output into dir (created if needed): report.json, junit.xml,
 * report.sarif, report.html, report.md and traces/ (replaced as a whole). Each file is
 * written atomically; a failure of one does not stop the others. Returns
 * MC_OK or the first error (in eb).
 */
int mc_report_write_all(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb);

/* Writes DIR/report.json atomically, creating DIR if needed. */
int mc_report_write_json(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb);

/* Writes data to path atomically (temp file + rename). */
int mc_report_write_file(const char *path, const char *data, size_t len, mc_errbuf_t *eb);

/* A copy of s with every invalid UTF-8 byte replaced by U+FFFD (caller
 * frees; NULL when out of memory). Every writer repairs the target's bytes
 * this way, so reports stay valid UTF-8. */
char *mc_report_utf8_clean(const char *s);

/* Creates dir and its parents (like mkdir -p). */
int mc_report_mkdirs(const char *dir, mc_errbuf_t *eb);

/*
 * Writes report.md and report.html of a fuzzing campaign's directory dir
 * from findings/index.tsv, unconfirmed/index.tsv and stats.tsv. failure
 * says why the campaign could not run (NULL when it ran); both reports give
 * it first, so that an empty table is not read as a clean server. Returns
 * MC_OK, or MC_EIO / MC_ENOMEM with eb saying why.
 */
int mc_report_campaign(const char *dir, const char *target, const char *failure,
                       mc_errbuf_t *eb);

/*
 * Builds a baseline listing every failure of the report (FAIL, WARN and
 * ERROR scenarios): one "SCENARIO:CHECK" entry per broken check, without a
 * version when it broke at every version the scenario ran at, else one per
 * version; an ERROR scenario gets a whole-scenario entry. *out is JSONC text
 * (caller frees).
 */
int mc_report_baseline(const mc_report_t *rep, char **out, size_t *len);

/*
 * The matrix of several runs: one row per scenario (id and version), one
 * column per report, the verdict in each cell. labels[i] names reps[i].
 */
int mc_report_merge_html(const mc_report_t *const *reps, const char *const *labels, size_t n,
                         char **out, size_t *len);

/* ---- console ---------------------------------------------------------------- */

/*
 * Formats the console lines of one scenario into out (NUL-terminated,
 * truncated to n): a verdict line, then per check that did not pass (all of
 * them when verbose) its line with the message, its level with the spec
 * link of the version that ran, and the quoted sentence (the harness's
 * reading too when verbose). A SKIP or NOT-VERIFIED scenario is one line
 * with its reason unless verbose. A failure the baseline b lists (b may be
 * NULL) is shown as known. color adds ANSI colours. Returns the length
 * written.
 */
size_t mc_report_console_result(const mc_scenario_result_t *r, const mc_baseline_t *b,
                                mc_fail_on_t fail_on, int color, int verbose, char *out,
                                size_t n);

/* A progress line (no newline): "[ 12/292] ████···· 2 failed  0:04". */
size_t mc_report_console_progress(size_t done, size_t total, size_t failed, int64_t elapsed_ms,
                                  int color, char *out, size_t n);

/* The baseline's stale and unexercised entries, one line each ("" when none). */
size_t mc_report_console_baseline(const mc_report_t *rep, int color, char *out, size_t n);

/* The closing line: mc_report_counts_text(), then the stale baseline
 * entries, the runs that did not happen, the threshold when not "fail",
 * and why a run is partial. */
size_t mc_report_console_summary(const mc_report_t *rep, int color, char *out, size_t n);


/* One line of an area's runs, by the spec's verdicts:
 * "resources        30 runs: 29 PASS, 1 FAIL". */
size_t mc_report_console_area(const char *area, const size_t count[MC_VERDICT_COUNT],
                              char *out, size_t n);

/* Causes the console lists before "... and N more" (all with verbose). */
#define MC_REPORT_CONSOLE_CAUSES 20
/* Bytes of a reason, of a quote, and of a message sent or received, on one
 * console line. */
#define MC_REPORT_CONSOLE_REASON 160
#define MC_REPORT_CONSOLE_QUOTE 240
#define MC_REPORT_CONSOLE_TX 160
/* Groups of INFO observations and of SKIP reasons listed (all with verbose). */
#define MC_REPORT_CONSOLE_GROUPS 12

/*
 * "failures by cause (N findings, N causes):" and per cause (as
 * mc_report_causes() groups them) a line (verdict, level, check id, count,
 * reason, first scenario), then where it shows first: the step's
 * file:line, the line sent and the message judged (cut to
 * MC_REPORT_CONSOLE_TX bytes, control bytes shown as '.'), and the gate's
 * decision when it has one. Nothing when nothing fails or warns.
 */
size_t mc_report_console_causes(const mc_report_t *rep, int color, int verbose, char *out,
                                size_t n);

/* "info (N observations), by check:" and one line per group of
 * mc_report_observations(); nothing when there is none. */
size_t mc_report_console_observations(const mc_report_t *rep, int verbose, char *out, size_t n);

/* "skipped (N runs), by reason:" and one line per group of mc_report_skips();
 * nothing when nothing was skipped. */
size_t mc_report_console_skips(const mc_report_t *rep, int verbose, char *out, size_t n);

/* Groups of NOT-VERIFIED runs the console lists (all with verbose). */
#define MC_REPORT_CONSOLE_MISSING 12

/*
 * "not verified (N runs): what is missing" and one line per group of
 * mc_report_missing(): the role, how many runs, the shape it needs and the
 * profile line that maps it. Nothing when every run was verified.
 */
size_t mc_report_console_missing(const mc_report_t *rep, int verbose, char *out, size_t n);

/* Areas or versions past which a run's area x version matrix is left out. */
#define MC_REPORT_MATRIX_MAX 64

/*
 * The area x version matrix of the run: a new JSON object {"versions": [...],
 * "areas": [...], "cells": {area: {version: {VERDICT: count}}}} (caller puts
 * it), or NULL when out of memory or past MC_REPORT_MATRIX_MAX.
 */
json_object *mc_report_matrix_json(const mc_report_t *rep);

/*
 * The same matrix as a console table (one row per area, one column per
 * version, each cell the scenarios passed and the other verdicts' counts),
 * into out (n bytes, NUL-terminated). Writes nothing for a run of one
 * version. Returns the length written.
 */
size_t mc_report_console_matrix(const mc_report_t *rep, char *out, size_t n);

#endif /* MC_REPORT_REPORT_H */
