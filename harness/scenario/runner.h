/*
 * runner.h - runs one scenario against a fresh target process.
 *
 * The runner spawns the target, runs the lifecycle (unless the scenario does
 * it itself), checks the scenario's requirements of the server, carries out
 * its steps, puts every message through the wire checks and the schema of
 * the negotiated version, shuts the target down, and fills a result. A crash
 * or hang of the target is an ERROR with its exit status and stderr tail; a
 * missing profile role is NOT-VERIFIED; an undeclared capability or a
 * version out of range is SKIP.
 */
#ifndef MC_SCENARIO_RUNNER_H
#define MC_SCENARIO_RUNNER_H

#include <stdint.h>

#include <json-c/json.h>

#include "client/process.h"
#include "client/stdio.h"
#include "core/limits.h"
#include "scenario/result.h"
#include "scenario/scenario.h"
#include "schema/registry.h"

/* Defaults for step and scenario timing. */
#define MC_RUNNER_STEP_TIMEOUT_MS 5000
#define MC_RUNNER_SCENARIO_TIMEOUT_MS 60000
#define MC_RUNNER_NOTIFY_WITHIN_MS 2000
#define MC_RUNNER_QUIET_WINDOW_MS 100
/* What an expect step's "interval" forgives (ms): timer and scheduling
 * granularity of a sender that waits the interval exactly. A loaded machine
 * only makes intervals longer, so the slack need not cover load. */
#define MC_RUNNER_INTERVAL_SLACK_MS 25
#define MC_RUNNER_MAX_PAGES 100
#define MC_RUNNER_MAX_FOR_EACH 200
/* Notifications and server requests kept for expect_* steps. */
#define MC_RUNNER_MAX_INBOX 1024
/* Requests a target left unanswered for a whole step, remembered per suite
 * (by method and the tool, prompt or resource they name), and the wait the
 * same request gets in later runs. */
#define MC_RUNNER_SILENT_KEYS 64
#define MC_RUNNER_SILENT_KEY_LEN 160
/* Bytes of the declared capabilities the suite keeps per version (compact
 * JSON; larger ones are not kept, and every run then starts its server). */
#define MC_RUNNER_CAPS_LEN 2048
/* Bytes of the reason kept for a version the server does not speak (see
 * mc_runner_shared_t.unspoken); a longer one is not kept. */
#define MC_RUNNER_UNSPOKEN_LEN 512
#define MC_RUNNER_SILENT_WAIT_MS 1000
/* The grace after a barrier's ping is answered (mc_session_raw_request_barrier)
 * once the target has left a line no handler can take unanswered through a
 * whole grace of MC_SESSION_BARRIER_GRACE_MS (mc_runner_shared_t.barrier_drops):
 * the drop is known, and later lines are not waited on again. */
#define MC_RUNNER_BARRIER_GRACE_KNOWN_MS 20
/* The behaviour probe (mc_runner_behaviours): tools called and prompts got
 * at most, resources subscribed to at most, server requests noted at most. */
#define MC_BEHAVIOUR_MAX_CALLS 32
#define MC_BEHAVIOUR_MAX_SUBSCRIPTIONS 16
#define MC_BEHAVIOUR_MAX_REQUESTS 256

/*
 * What the runs of one target learn about it, shared by the scenarios of a
 * suite (all fields atomic; zero-initialise, then pass the same object to
 * every run):
 * - a target that ignores stdin EOF (or SIGTERM) is reported once, as the
 *   INFO observation lifecycle/shutdown/stdio, and later runs do not wait out
 *   the grace it ignores again;
 * - a target that cannot be used at all (the handshake fails, or it floods
 *   the client) before any run completed makes the runner give up: it sets
 *   abort, keeps the first reason, and sets *opts->stop so that the suite
 *   starts nothing more;
 * - a request the target left unanswered for a whole step (the same method,
 *   naming the same tool, prompt or resource) is waited on for
 *   MC_RUNNER_SILENT_WAIT_MS in later runs: its FAIL was found, and a
 *   target that ignores requests is not waited on a full step per scenario;
 * - a line no handler can take (a raw step decided at a barrier) that the
 *   target left unanswered through the whole grace is counted in
 *   barrier_drops, and later barriers give MC_RUNNER_BARRIER_GRACE_KNOWN_MS.
 */
typedef struct mc_runner_shared {
    _Atomic int usable;         /* runs that completed without a target-level failure */
    _Atomic int unusable;       /* runs ended by a failed handshake or a flood */
    _Atomic int abort;          /* the runner gave up on the target */
    _Atomic int ignores_eof;    /* the target did not exit when its stdin closed */
    _Atomic int ignores_term;   /* nor on SIGTERM */
    _Atomic int shutdown_noted; /* lifecycle/shutdown/stdio has been reported: bit 1 at a
                                   version before 2026-07-28, bit 2 from it */
    _Atomic int startup_noted;  /* a line that is no message, written before the server's
                                   first message (a start-up banner), has been reported:
                                   every run sees it, one reports it */
    _Atomic int barrier_drops;  /* lines left unanswered at a barrier (see above) */
    _Atomic int reason_set;     /* private */
    char reason[512];           /* read-only once abort is set: why, in one line */
    _Atomic int silent_lock;    /* private: guards what follows */
    int n_silent;               /* private */
    char silent[MC_RUNNER_SILENT_KEYS][MC_RUNNER_SILENT_KEY_LEN]; /* private */
    _Atomic int caps_lock;      /* private: guards what follows */
    char unspoken[MC_V_COUNT][MC_RUNNER_UNSPOKEN_LEN]; /* private: why a run at each version was
                                                  SKIP, its handshake answered that the server
                                                  does not speak it ("": not seen); a later run
                                                  there is the same SKIP without a server */
    char caps[MC_V_COUNT][MC_RUNNER_CAPS_LEN]; /* private: the capabilities the server declared
                                                  at each version, as compact JSON ("": not seen
                                                  yet); see runner_caps.c */
} mc_runner_shared_t;

typedef struct mc_runner_opts {
    char *const *argv;       /* the target command */
    const char *cwd;         /* its working directory, or NULL */
    mc_rlimits_t limits;
    const char *version;     /* protocol version to request */
    const char *const *server_versions; /* NULL-terminated: the versions the server was seen to
                                           speak (${server_versions}); NULL when unknown: every
                                           published version with an initialize handshake */
    json_object *roles;      /* borrowed: the profile's role -> value map (may be NULL) */
    json_object *safe_tools; /* borrowed: tool names the profile allows calling (may be NULL) */
    json_object *args;       /* borrowed: the profile's "args", name -> arguments (may be NULL) */
    int call_tools;          /* non-zero: every listed tool may be called (--call-tools) */
    json_object *behaviours; /* borrowed: negotiated version -> what the behaviour probe saw at
                                it (mc_runner_behaviours), or NULL when no probe ran */
    int user_profile;        /* the roles are the user's profile (--profile), not the default:
                                a name it maps that the server does not list is not replaced by
                                a listed item of the role's shape (scenario/fixtures.h) */
    mc_registry_t *registry; /* loaded registry for schema checks, or NULL for none */
    int step_timeout_ms;     /* 0 = MC_RUNNER_STEP_TIMEOUT_MS */
    int scenario_timeout_ms; /* 0 = MC_RUNNER_SCENARIO_TIMEOUT_MS */
    int startup_timeout_ms;  /* for the answer to initialize; 0 = MC_DEFAULT_STARTUP_TIMEOUT_MS */
    volatile int *stop;      /* when non-zero, stop at once (interrupted run): waits end within
                                MC_POLL_SLICE_MS */
    mc_runner_shared_t *shared; /* what the suite's runs learn about the target, or NULL */
    const char *url;         /* Streamable HTTP endpoint of the target, or NULL for stdio.
                                The target is already running unless fresh_process is set,
                                when argv is started for the scenario (client/httptarget.h) */
    int fresh_process;       /* start argv for every scenario: over HTTP (see url); over stdio,
                                the suite then keeps no target between runs (mc_runner_hold_t) */
    int allow_remote;        /* HTTP: allow a host that is not a loopback address */
    int http_transport;      /* HTTP: an mc_http_transport_t (client/http.h); AUTO speaks
                                HTTP+SSE at a version without Streamable HTTP (2024-11-05) */
} mc_runner_opts_t;

/* Runs one kept target process serves at most (mc_runner_hold_t) before
 * the next shareable scenario gets a fresh one. */
#define MC_RUNNER_HOLD_MAX_RUNS 48

/*
 * A target process kept running between the runs of one worker, over stdio.
 * A scenario that may share a process (mc_scenario_t.chainable) that ran
 * cleanly leaves its target in the hold (with what it changed of the
 * server's state added to dirty), once a ping it sends after its steps (not part of its
 * transcript or findings) has been answered: everything the server was
 * asked has then been answered, and it is alive. The next such scenario
 * that asks for the same version with the same client capabilities, and
 * reads none of the state in dirty, runs on that process: without a start and a handshake of
 * its own, but with the handshake's transcript lines and findings, as a
 * fresh run of it would have them. The result of the last run that used
 * the target (owner) is complete only once the target is passed on or
 * released: its shutdown (exit status, stderr tail, a crash, the shutdown
 * observation) is recorded there, as a fresh process's is in its own run.
 * The hold also keeps a spare: each time a run starts a process, the next
 * one is started at once, so that a server's start-up (a node or Python
 * interpreter loading) overlaps the run instead of preceding the next; the
 * next run that needs a fresh process takes it. A process is the same
 * whichever scenario it serves until its handshake, so a run on the spare is
 * the run on a fresh process. A scenario that is not shareable but may be
 * a process's last user (mc_scenario_t.takes_held) may take the kept
 * target too (mc_runner_hold_takes): it runs on it as a shareable one
 * would, never hands it on, and records its end. Zero-initialise; one per
 * worker thread; end with mc_runner_hold_end().
 */
typedef struct mc_runner_hold {
    struct rctx *c;              /* private: the run context whose target is kept, or NULL */
    mc_scenario_result_t *owner; /* read-only: the result of the last run that used it */
    int runs;                    /* private: runs it has served */
    unsigned dirty;              /* read-only: the MC_STATE_* (scenario/state.h) the runs on it
                                    changed; a scenario that reads one of them does not fit */
    mc_stdio_t spare;            /* private: a target process started ahead (see below) */
    int spare_on;                /* private: spare holds a started process */
} mc_runner_hold_t;

/*
 * Runs sc at opts->version and fills *out (which the caller frees with
 * mc_sresult_free). Returns MC_OK whatever the verdict; MC_ENOMEM only when
 * the result itself could not be built.
 */
int mc_runner_run(const mc_scenario_t *sc, const mc_runner_opts_t *opts,
                  mc_scenario_result_t *out);

/*
 * mc_runner_run() with the worker's hold h (stdio runs only; NULL: as
 * mc_runner_run). sc runs on the target h keeps when mc_runner_hold_fits()
 * or mc_runner_hold_takes() (then as its last user: h keeps nothing after),
 * and leaves its own target in h when it may be shared; afterwards
 * h->owner == out when it did. A target h keeps that does not fit sc is
 * left alone: release it first (mc_runner_hold_release). A run that starts
 * no target (SKIP or NOT-VERIFIED decided before one is needed) leaves h as
 * it was.
 */
int mc_runner_run_held(const mc_scenario_t *sc, const mc_runner_opts_t *opts,
                       mc_runner_hold_t *h, mc_scenario_result_t *out);

/* True when h keeps a target that sc may run on at version. */
int mc_runner_hold_fits(const mc_runner_hold_t *h, const mc_scenario_t *sc, const char *version);

/* True when h keeps a target that sc (mc_scenario_t.takes_held) may take
 * at version as its last user: sc runs on it as a shareable scenario would,
 * and then stops it, its end recorded in sc's result. */
int mc_runner_hold_takes(const mc_runner_hold_t *h, const mc_scenario_t *sc, const char *version);

/* Shuts down the target h keeps (if any), recording its end in h->owner's
 * result, and empties h of it. */
void mc_runner_hold_release(mc_runner_hold_t *h);

/* mc_runner_hold_release(), and stops the spare process: the worker is
 * done. */
void mc_runner_hold_end(mc_runner_hold_t *h);

/* What one version probe found. */
typedef enum mc_probe_outcome {
    MC_PROBE_SPOKEN,    /* the server accepted the version as offered */
    MC_PROBE_COUNTER,   /* it answered another version the harness knows */
    MC_PROBE_REFUSED,   /* it answered that it does not speak the version (an error, a
                           version the harness does not know, the initialize era) */
    MC_PROBE_NO_ANSWER, /* the handshake request got no answer within the budget */
    MC_PROBE_FAILED     /* no handshake: the server exited, flooded, or answered with
                           what cannot be read */
} mc_probe_outcome_t;

typedef struct mc_probe {
    int server_up;               /* in: another probe completed a handshake, so the server
                                    runs: a request it leaves unanswered is a finding
                                    (wire/single-response, FAIL), not a failure to start */
    mc_probe_outcome_t outcome;  /* out */
    char method[32];             /* out: the handshake request sent (initialize,
                                    server/discover) */
    char version[32];            /* out: the version the server answered ("" when none) */
    char why[MC_ERRBUF_SIZE];    /* out: the session's words on a failed handshake */
    int64_t answer_ms;           /* out: from the start to the handshake's answer (the
                                    time the server took to start and answer); -1 when
                                    the handshake did not complete */
    int silent;                  /* out: the server wrote nothing for its whole start-up
                                    budget */
    mc_scenario_result_t result; /* out: the probe's run (verdict, checks, transcript);
                                    the caller frees it with mc_sresult_free */
} mc_probe_t;

/*
 * Asks the target whether it speaks version: starts it as a scenario would,
 * sends initialize requesting version (server/discover for a stateless
 * version), and shuts it down, filling *p (p->server_up is read). The wait
 * is o->startup_timeout_ms, cut to o->step_timeout_ms once the server has
 * written a line. o->shared (when set) is the probes' record, never the
 * suite's: the caller decides when the target cannot be tested. Returns
 * MC_OK, or MC_ENOMEM when out of memory (nothing to free then).
 */
int mc_runner_probe(const mc_runner_opts_t *o, const char *version, mc_probe_t *p);

/*
 * The behaviour probe: starts the target as a scenario would at version,
 * declaring every client capability; sets the log level to debug and
 * subscribes to the listed resources (when declared and the version has
 * them); calls each listed tool that may be called (o->call_tools, or
 * o->safe_tools names it) once, with the arguments a scenario sends it and a
 * progress token, and gets each listed prompt once with its required
 * arguments; notes which roles of scenario/shapes.h each was seen to fill.
 * *out gets a new object (the caller puts it):
 *   "version"           the version negotiated
 *   "roles"             role -> the tool or prompt name (resource.watched:
 *                       the URI a tool was seen to update) that showed it
 *   "tools_listed", "tools_called", "tools_complete" (every listed tool
 *                       was called), "prompts_listed", "prompts_got",
 *                       "prompts_complete" (absent when the capability is
 *                       not declared)
 *   "failed"            why the probe ended early (the target stopped,
 *                       the handshake failed); what it saw before stays
 * Findings of the run are not kept: every scenario judges the same
 * traffic again. Returns MC_OK, or MC_ENOMEM (*out NULL).
 */
int mc_runner_behaviours(const mc_runner_opts_t *o, const char *version, json_object **out);

#endif /* MC_SCENARIO_RUNNER_H */
