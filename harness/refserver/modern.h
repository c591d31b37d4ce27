/*
 * modern.h - the stateless protocol of 2026-07-28 (modern.c) and its multi
 * round-trip fixtures (inputreq.c).
 */
#ifndef MC_REFSERVER_MODERN_H
#define MC_REFSERVER_MODERN_H

#include "refserver/state.h"

/* ---- modern.c: the stateless protocol (2026-07-28) ---- */

/* True when msg (a request) is served statelessly: it carries the modern
 * _meta fields, names a method only the stateless protocol has, or comes
 * before any initialize. */
int mc__rs_modern_claims(const mc_refserver_t *rs, const mc_msg_t *msg);

/* Checks a modern request's _meta and switches the server to its context,
 * saving the current one in saved. Returns 0 when the request is to be
 * served (call mc__rs_ctx_restore afterwards), -1 when it was answered with
 * an error (-32602, -32022) and nothing was switched. */
int mc__rs_modern_enter(mc_refserver_t *rs, const mc_msg_t *msg, rs_ctx_t *saved);

/* server/discover and subscriptions/listen. */
void mc__rs_discover(mc_refserver_t *rs, json_object *id, json_object *params);
void mc__rs_listen(mc_refserver_t *rs, json_object *id, json_object *params);
/* Ends the listen stream whose id is rid (notifications/cancelled); 1 when one was. */
int mc__rs_listen_cancel(mc_refserver_t *rs, json_object *rid);
void mc__rs_listens_free(mc_refserver_t *rs);

/*
 * A change notification (list_changed, resources/updated with uri): sent to
 * every subscriptions/listen stream that opted in to it, tagged with its
 * subscription id, and untagged to the legacy session when legacy is set
 * and one is open. params is consumed.
 */
void mc__rs_notify_change(mc_refserver_t *rs, const char *method, const char *uri, int legacy,
                          json_object *params);

/*
 * The multi round-trip form of a server->client request, for a modern job:
 * with the client's answer in the call's inputResponses, schedules the next
 * step with it and returns RS_STEP_LATER; otherwise answers the call with an
 * InputRequiredResult carrying the request and returns RS_STEP_DONE.
 * params is consumed.
 */
int mc__rs_mrtr_ask(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params);

/* The inputRequests keys of mc__rs_mrtr_ask, one a method (inputreq.c's
 * fixtures use keys of their own), and how its requestState starts: the
 * shape faults of an InputRequiredResult (shapes.c) find its by them. */
#define RS_MRTR_KEY_ELICITATION "elicitation"
#define RS_MRTR_KEY_SAMPLING "sampling"
#define RS_MRTR_KEY_ROOTS "roots"
#define RS_MRTR_STATE_PREFIX "mcpcheck-refserver:"

/* Answers a modern job that needs a capability its request did not declare
 * with -32021, data.requiredCapabilities {cap: {sub: {}}} (sub may be NULL). */
int mc__rs_need_capability(mc_refserver_t *rs, rs_job_t *job, const char *cap, const char *sub);

/* ---- inputreq.c: the multi round-trip fixtures (2026-07-28) ---- */

/* What mc__rs_ir_serve did. */
#define RS_IR_REFUSED 0 /* an error answered the request */
#define RS_IR_ASK 1     /* *result is the InputRequiredResult to answer with */
#define RS_IR_DONE 2    /* every input is in hand; text says what the client gave */

/* True when name is a multi round-trip fixture (a prompt when prompt is set). */
int mc__rs_ir_is_fixture(const char *name, int prompt);

/*
 * Serves one attempt at fixture name of a stateless request id with params
 * (borrowed): checks requestState and inputResponses, and returns RS_IR_ASK
 * with *result (a new reference) when inputs are still missing, RS_IR_DONE
 * with a summary of the answers in text (size bytes) when none is, or
 * RS_IR_REFUSED after answering id with an error (-32602, or -32021 for an
 * input whose capability the client did not declare).
 */
int mc__rs_ir_serve(mc_refserver_t *rs, json_object *id, const char *name, int prompt,
                    json_object *params, json_object **result, char *text, size_t size);

/* Refuses initialize as a server of the stateless versions only does
 * (rs->modern_only): -32601, naming the versions it speaks in the message
 * and in data.supported. */
void mc__rs_modern_only_initialize(mc_refserver_t *rs, json_object *id);

/* What a --modern-only server's refusal of initialize names: appends
 * "; this server speaks only the protocol version V[, W...]" to text (a
 * string in a buffer of n bytes, cut short when full) and returns the
 * error's data, {"supported": [V, ...]} (a new reference; NULL when out of
 * memory). */
json_object *mc__rs_modern_only_refusal(char *text, size_t n);

#endif /* MC_REFSERVER_MODERN_H */
