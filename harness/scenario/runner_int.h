/*
 * runner_int.h - the pieces of the scenario runner, shared between its files
 * (private to harness/scenario/runner*.c; not part of the module's API).
 *
 * runner.c         the run of one scenario, traffic capture (the session's
 *                  observer and responder, the inboxes) and the wire checks
 * runner_target.c  the target's lifecycle: budgets, a target that is gone or
 *                  unusable, capabilities and roles, shutdown
 * runner_expect.c  expectations: a step's "expect", "assert", "where" and
 *                  "capture" judged against a message
 * runner_steps.c   the steps, one function per kind, and their dispatch
 * runner_page.c    the paginate step: walking a list page by page
 * runner_hold.c    a target kept between the runs of one worker, the spare
 * runner_probe.c   the version probe and the behaviour probe's runs
 *
 * Every function takes the run's context; none outlives it.
 */
#ifndef MC_SCENARIO_RUNNER_INT_H
#define MC_SCENARIO_RUNNER_INT_H

#include <stdint.h>

#include <json-c/json.h>

#include "client/session.h"
#include "client/stdio.h"
#include "judge/judge.h"
#include "scenario/fixtures.h"
#include "scenario/httprun.h"
#include "scenario/runner.h"
#include "scenario/state.h"
#include "scenario/vars.h"

typedef struct inbox_item {
    mc_msg_t msg;
    uint64_t seq;    /* inbound line number */
    uint64_t tx_seq; /* transcript line number (both directions), as reports cite it */
    int taken;
    int on_get;      /* it came on the HTTP GET stream */
    int64_t at_ms;   /* when it arrived (mc_now_ms) */
} inbox_item_t;

/* Responses remembered with their transcript line, so that a finding about
 * one cites the line it came on. */
#define MC_RUNNER_RESP_SEQS 64
/* The longest id text (core/jsonrpc.h, mc_id_text) remembered there. */
#define MC_RUNNER_MAX_ID_TEXT 256

typedef struct resp_seq {
    char id[MC_RUNNER_MAX_ID_TEXT]; /* the id's text, "" when too long (never matched) */
    uint64_t tx_seq;
} resp_seq_t;

typedef struct inbox {
    inbox_item_t *v;
    size_t n;
} inbox_t;

/* What the handshake of a kept target left in its first run
 * (runner_hold.c): replayed into every later run on that target. */
typedef struct mc__runner_hs mc__runner_hs_t;

typedef struct rctx {
    const mc_scenario_t *sc;
    const mc_runner_opts_t *o;
    mc_scenario_result_t *res;
    mc_stdio_t t;
    int started;
    mc_httprun_t http;      /* the HTTP transport when o->url is set */
    int http_on;
    mc_session_t s;
    int session_ok;
    mc_judge_t j;           /* judges every line in both directions */
    mc_vars_t vars;
    json_object *answers;   /* owned: method -> {"with": ...} or {"error": ...} */
    inbox_t notes, reqs;
    uint64_t seq_all;       /* transcript line counter, both directions */
    uint64_t seq_in;        /* inbound lines */
    uint64_t mark_in;       /* seq_in when the last message was sent */
    int64_t taken_at_ms;    /* when the message the last expect step took arrived; -1 none */
    int64_t t0, deadline;
    int dead;               /* the target stopped answering or exited */
    int tokens;
    resp_seq_t resp_seqs[MC_RUNNER_RESP_SEQS]; /* ring of the latest responses */
    size_t resp_next;
    char version[32];
    int step_timeout;
    int unusable;           /* the target failed in a way no scenario can get past */
    int64_t first_line_ms;  /* from t0 to the target's first line; -1 until it comes */
    uint64_t first_msg_seq; /* the transcript line of its first message; 0 until it comes */
    mc_probe_t *probe;      /* a version probe's findings, or NULL for a scenario */
    json_object *behave;    /* borrowed: what a behaviour probe saw (mc_runner_behaviours), or
                               NULL for a scenario */
    json_object *seen_reqs; /* owned, behaviour probe only: {method, params} of every server
                               request answered, in order (a stateless session answers input
                               requests without a line of their own) */
    int startup_owner;      /* this run reports the suite's start-up lines */
    mc_runner_hold_t *hold; /* the worker's hold (stdio scenario runs), or NULL */
    mc__runner_hs_t *hs;    /* owned: the handshake a kept target had, or NULL */
    int barrier;            /* the hold's ping is on the wire: lines are not recorded */
    int reused;             /* the run is on a target an earlier run left (mc__runner_adopt) */
    int unspoken;           /* the handshake was answered: the server does not speak the
                               version (runner_caps.c keeps what such a run is) */
    int stepped;            /* the scenario's steps began (its roles resolved): what it changes
                               of the server's state may have been changed */
} rctx_t;

/* --- runner.c: checks and traffic --- */

/* Runs sc: a scenario (probe and behave NULL), a version probe (probe) or a
 * behaviour probe (behave), on the worker's hold when hold is not NULL
 * (mc_runner_run_held). MC_OK, or MC_ENOMEM when the result could not be
 * built. */
int mc__runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *o, mc_scenario_result_t *out,
                   mc_probe_t *probe, json_object *behave, mc_runner_hold_t *hold);

/* Records the outcome of check id (a scenario requirement, a built-in or
 * HTTP check; a harness/ id leaves the scenario NOT-VERIFIED on failure). */
void mc__runner_check(rctx_t *c, const char *id, int pass, const char *message,
                      const char *expected, const char *actual, const char *path, uint64_t seq,
                      int line);
/* v as compact JSON in out (cut with "..." when longer than n - 1). */
void mc__runner_compact(json_object *v, char *out, size_t n);
/* The transcript line a response came on (0 when it is not remembered). */
uint64_t mc__runner_resp_tx_seq(rctx_t *c, const mc_msg_t *m);
/* Empties the session's notification queue (the observer keeps them). */
void mc__runner_drain(rctx_t *c);
/* Fills *sopts with the run's hooks: its responder and its observer. */
void mc__runner_session_opts(rctx_t *c, mc_session_opts_t *sopts);

/* Stops the target (its end recorded in c->res), finishes the result and
 * releases the run's context. */
void mc__runner_end_ctx(rctx_t *c);
/* Frees an inbox's messages and empties it. */
void mc__runner_inbox_free(inbox_t *b);
/* Turns the judge's wire findings into checks of the result. */
void mc__runner_wire_to_checks(rctx_t *c);
/* The scenario's canned answers (c->answers), made anew. MC_OK or MC_ENOMEM. */
int mc__runner_make_answers(rctx_t *c);

/* --- runner_hold.c: a target kept between runs (mc_runner_hold_t) --- */

/* After the handshake of a run that may leave its target in the hold:
 * keeps what it left (transcript lines, findings) for later runs. */
void mc__runner_hs_take(rctx_t *c, const char *asked);
/* True when the target kept with k's handshake may serve sc at version:
 * the same version asked for, the same client capabilities. */
int mc__runner_hs_fits(const rctx_t *k, const mc_scenario_t *sc, const char *version);
/* Releases what mc__runner_hs_take kept. */
void mc__runner_hs_free(rctx_t *c);
/* Moves the run of fresh (past the gates before start, nothing started;
 * freed here) onto the kept context k: its scenario, options, result and
 * clocks, the kept handshake replayed into the result. Returns k. */
rctx_t *mc__runner_adopt(rctx_t *k, rctx_t *fresh);
/* Takes the hold's spare process as c's target: 0 when it did (c->t is
 * set), -1 when there is none. */
int mc__runner_take_spare(rctx_t *c);
/* Starts the hold's spare process when it has none (and c may have one). */
void mc__runner_start_spare(rctx_t *c, const mc_spawn_opts_t *so);
/* At the end of a run: 1 when its target goes to the hold (the run was
 * clean and the hold's ping was answered), else 0. */
int mc__runner_may_keep(rctx_t *c);

/* --- runner_target.c: the target's lifecycle --- */

/* The time the target gets to start and answer initialize (ms). */
int mc__runner_startup_budget(const rctx_t *c);
/* want, cut to what is left of the scenario's time (0 when none is). */
int mc__runner_time_left(rctx_t *c, int want);
/* Counts the target as unusable for this run; gives up on it (see
 * mc_runner_shared_t) when no run has completed and enough have failed so,
 * or at once when final is set. */
void mc__runner_note_unusable(rctx_t *c, int final);
/* Marks the target dead after EOF, a send failure or a flood (rc says
 * which); the scenario is ERROR and its reason names the cause. Once. */
void mc__runner_target_gone(rctx_t *c, int rc, const char *doing);
/* After a wait of the session: 0 to go on (OK, timeout), else -1 with the
 * target marked gone. */
int mc__runner_wait_ok(rctx_t *c, int rc, const char *doing);
/* What the suite remembers of requests the target left unanswered for a
 * whole step (mc_runner_shared_t): the key a request is remembered by (its
 * method and the tool or prompt name or resource URI its params name),
 * whether an earlier run waited for it in vain, and noting that this run
 * did. */
void mc__runner_silence_key(const char *method, json_object *params, char *out, size_t n);
int mc__runner_silence_known(rctx_t *c, const char *key);
void mc__runner_silence_note(rctx_t *c, const char *key);
/* True when the server's capabilities hold the dotted path. */
int mc__runner_server_has(json_object *caps, const char *path);
/* Sets ${role:NAME} from the profile, ${version}, ${server_versions} and
 * ${server_versions_older}. */
void mc__runner_set_role_vars(rctx_t *c);
/* The options roles are resolved with in this run (profile roles, safe
 * tools, args, --call-tools, whether the profile is the user's) and what
 * the behaviour probe saw (may be NULL); the live server's capabilities
 * and the wait are the caller's to set. */
void mc__runner_fixture_opts(const rctx_t *c, mc_fixture_opts_t *fo, json_object *behaviours);
/* Resolves the scenario's roles on the live server: 0 when all are
 * offered, else -1 with the verdict set (NOT-VERIFIED, SKIP or ERROR). */
int mc__runner_resolve_roles(rctx_t *c);
/* Shuts the target down (once) and records its exit and stderr tail; a
 * crash makes the scenario ERROR. */
void mc__runner_finish_target(rctx_t *c);
/* Starts the target (stdio or HTTP) and its session; 0 on success, else
 * the result says why (rc is MC_ENOMEM when that is why). */
int mc__runner_start(rctx_t *c, int *rc);
/* The runner's initialize and the version and capability gates after it:
 * 0 to run the steps, -1 when the result already says why not. */
int mc__runner_handshake(rctx_t *c, const char *want_version);
/* The gates after the handshake (the negotiated version, the capabilities
 * the scenario requires): 0 to run the steps, -1 with the result SKIP. */
int mc__runner_gate_negotiated(rctx_t *c);

/* A "reconnect" step: the messages still in flight are read, the session
 * ends and its target stops (stdio: the server process; HTTP: the client's
 * connections, and the server with --fresh-process), then a new target and
 * session start, with the handshake again unless the scenario does its
 * own. 0, or -1 with the result saying why the run cannot go on. */
int mc__runner_reconnect(rctx_t *c);

/* --- runner_expect.c: expectations --- */

/* One wait for what the target sends, up to until (cut to the scenario's
 * time): 1 to look again, 0 when the time is up or the target's output
 * ended, -1 when the target is gone (the result says so; doing names the
 * wait). */
int mc__runner_wait_slice(rctx_t *c, int64_t until, const char *doing);

/* The check a step's outcome counts against: its "check", else the
 * scenario's first requirement. */
const char *mc__runner_step_check(rctx_t *c, const mc_step_t *s);
/* Evaluates a list of assertions against target (paths start at target). */
void mc__runner_run_asserts(rctx_t *c, json_object *asserts, json_object *target,
                            const char *cid, const char *what, int line, uint64_t seq);
/* Judges a message by step s's expectations j: "expect" (responses only)
 * and "assert", then captures what "capture" names. */
void mc__runner_judge(rctx_t *c, const mc_step_t *s, const mc_step_judge_t *j, const mc_msg_t *resp,
                      const char *what, uint64_t seq);
/* True when the assertions of where (a step's "where"; NULL holds) hold
 * for msg. */
int mc__runner_where_ok(rctx_t *c, json_object *where, json_object *msg);
/* The first untaken item with method (and where) that came after inbound
 * line after; with related_only, none from the GET stream. */
inbox_item_t *mc__runner_inbox_find(rctx_t *c, inbox_t *b, json_object *where, const char *method,
                                    uint64_t after, int related_only);
/* Waits for a notification (is_request 0) or server request matching
 * expect step s (e), and judges it: its "assert", "capture" and "interval".
 * -1 when the target is gone, else 0. */
int mc__runner_step_expect(rctx_t *c, const mc_step_t *s, const mc_step_expect_msg_t *e,
                           int is_request);
/* Judges what waiting for one response gave step s (await and raw steps;
 * with none, silence is the expectation). Releases resp. -1 when the target
 * is gone, else 0. */
int mc__runner_judge_outcome(rctx_t *c, const mc_step_t *s, const mc_step_judge_t *j, int rc,
                             mc_msg_t *resp, int none, const char *label, const char *doing,
                             const char *answered_msg, int window);

/* --- runner_caps.c: capabilities the suite has seen --- */

/* Keeps the capabilities the server declared in this run, when it ran at
 * the version it was asked for and none are kept for that version yet. */
void mc__runner_caps_note(rctx_t *c);
/* Before a server is started: -1 with the result SKIP when an earlier run at
 * want_version saw the server declare none of a capability the scenario
 * requires; 0 to go on (also when nothing is known yet). */
int mc__runner_caps_gate(rctx_t *c, const char *want_version);
/* After a run's result is finished: when its handshake was answered that
 * the server does not speak the version (unspoken), its result is that
 * SKIP and no check but passed ones, the reason is kept for the version
 * (the first run's). */
void mc__runner_unspoken_note(rctx_t *c);
/* Before a server is started: -1 with the result the same SKIP, for the
 * same reason, when an earlier run at want_version kept one
 * (mc__runner_unspoken_note) and the scenario does its handshake through
 * the runner at the run's version; 0 to go on. */
int mc__runner_unspoken_gate(rctx_t *c, const char *want_version);

/* --- runner_steps.c: templates filled in --- */

/* tmpl with variables filled in and instances made (a new reference), or
 * NULL with the failure recorded against line. */
json_object *mc__runner_expand(rctx_t *c, json_object *tmpl, int line);

/* --- runner_forms.c --- */

/*
 * Replaces the forms of an expanded template v (runner_forms.c): every
 * {"$instance": SCHEMA} with a valid instance of SCHEMA, every
 * {"$arguments": ARGS} (with an optional "$without": a name or an array of
 * names) with the arguments object a prompt's declared ARGS need but those
 * named. Takes v; returns the value to use in its place (v itself, or its
 * replacement with v put).
 */
json_object *mc__runner_forms(json_object *v);

/* --- runner_steps.c: the steps --- */

/* Runs the steps in order; -1 when the scenario cannot go on (the result
 * says why), else 0. */
int mc__runner_run_steps(rctx_t *c, const mc_step_t *steps, size_t n, int depth);

/* --- runner_behave.c: the behaviour probe --- */

/* Uses the server's tools and prompts once each and notes in c->behave what
 * they did (mc_runner_behaviours). */
void mc__runner_behave(rctx_t *c);

/* --- runner_page.c: pagination --- */

/* The paginate step: -1 when the target is gone, else 0. */
int mc__runner_step_paginate(rctx_t *c, const mc_step_t *s);

#endif /* MC_SCENARIO_RUNNER_INT_H */
