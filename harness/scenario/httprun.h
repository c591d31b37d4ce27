/*
 * httprun.h - what a scenario run needs when the target speaks Streamable
 * HTTP: the target process (when each scenario starts its own), the HTTP
 * transport, the transcript notes about HTTP exchanges, and the HTTP checks
 * the transport judged (status of a POSTed notification, content type of a
 * request's answer, visible-ASCII session id, responses only on their own
 * POST stream, SSE events with data).
 */
#ifndef MC_SCENARIO_HTTPRUN_H
#define MC_SCENARIO_HTTPRUN_H

#include "client/http.h"
#include "client/httptarget.h"
#include "judge/check.h"
#include "judge/judge.h"
#include "scenario/result.h"
#include "scenario/runner.h"
#include "scenario/step.h"

typedef struct mc_httprun {
    mc_http_t *http;        /* read-only: the transport */
    mc_http_target_t tgt;   /* private: the target when this run started it */
    char url[512];          /* read-only: the endpoint in use */
} mc_httprun_t;

/* The built-in HTTP check with this id, or NULL (a static definition). */
const mc_check_def_t *mc_httprun_check(const char *id);

/*
 * Starts what the scenario talks to: the target (o->argv, when
 * o->fresh_process is set) and the transport for o->url. Returns MC_OK and a
 * link, or an error with eb filled (nothing left running).
 */
int mc_httprun_start(mc_httprun_t *hr, const mc_runner_opts_t *o, const char *version,
                     mc_link_t *link, mc_errbuf_t *eb);

/* The HTTP transport a run over o->url speaks at version: the one asked
 * for, and with AUTO, HTTP+SSE at a version without Streamable HTTP. */
int mc_httprun_transport(const mc_runner_opts_t *o, const char *version);

/* Moves the transport's pending notes into the transcript at seq. */
void mc_httprun_notes(mc_httprun_t *hr, mc_scenario_result_t *res, uint64_t seq, int64_t t_ms);

/*
 * Ends the session (DELETE), records the HTTP checks (each id seen is
 * passed or failed with its evidence: the http/ checks of judge, the
 * session's, which the transport's records fed, NULL none), stops a target
 * this run started and frees the transport. Safe to call once the start
 * failed.
 */
void mc_httprun_finish(mc_httprun_t *hr, const mc_judge_t *judge, mc_scenario_result_t *res,
                       uint64_t seq, int64_t t_ms);



#ifndef MC_SCENARIO_HTTPRUN_STEP
#define MC_SCENARIO_HTTPRUN_STEP
/* What an "http" step found. */
typedef struct mc_httprun_outcome {
    int pass;             /* every expectation held */
    int not_applicable;   /* the server opted out (DELETE answered 405): nothing to judge */
    char message[300];    /* why it failed, or a note */
    char expected[160];
    char actual[200];
} mc_httprun_outcome_t;

/* An http step's templates with variables filled in (owned by the holder;
 * each NULL when the step has none). */
typedef struct mc_httprun_fill {
    json_object *message;    /* the JSON message to send */
    json_object *body;       /* the raw body (used when a string) */
    json_object *headers;    /* header name -> value; null drops a default header */
    json_object *interleave; /* resume.interleave: the message of the other stream */
} mc_httprun_fill_t;

/* Puts what f holds and clears it. */
void mc_httprun_fill_free(mc_httprun_fill_t *f);

/*
 * Carries out one "http" step of a transport scenario (scenarios/README.md):
 * one HTTP request built from the typed step sp and its filled-in templates
 * (method, JSON message or raw body, headers, which session id) and the
 * expectations on its answer (status, content type, empty body). Each
 * exchange is noted in the transcript at seq. What a POST sent and the
 * messages of its answer go to judge (the session's, borrowed; NULL: not
 * judged) like every other message of the session, the body of an HTTP
 * error status as the refusal of the POSTed request (a "resume" step's
 * streams are judged by its own rule only). Returns MC_OK with *out
 * filled, or MC_EINVAL when the step is not usable (out->message says why).
 */
int mc_httprun_step(mc_httprun_t *hr, const mc_step_http_t *sp, const mc_httprun_fill_t *fill,
                    const char *version, int timeout_ms, mc_judge_t *judge,
                    mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                    mc_httprun_outcome_t *out);

/*
 * Feeds what a POST step sent (body) and the messages of its answer x to
 * the session's judge j (NULL: nothing is done); internal to httprun.c.
 */
void mc__httprun_judge_exchange(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len,
                                const mc_http_exchange_t *x);

/* Feeds a message an http step sent to j (NULL: nothing). */
void mc__httprun_judge_sent(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len);

/* Feeds the messages of the first limit events of an SSE body (0: all of
 * them; an event counts when it has an id or data, as a reader that stopped
 * there received them) to j as inbound messages. */
void mc__httprun_judge_stream(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len,
                              size_t limit);
#endif
#endif /* MC_SCENARIO_HTTPRUN_H */
