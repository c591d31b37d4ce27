/*
 * wire_internal.h - the pieces of the wire rules shared by their files
 * (private to harness/judge/wire*.c; not part of the module's API).
 *
 * wire.c            state, findings and check counts, the tables of
 *                   requests, tokens and subscriptions; both directions'
 *                   entry points, framing and the JSON-RPC envelope
 * wire_match.c      responses matched to requests by id
 * wire_notify.c     notifications and server requests: capability gating,
 *                   subscriptions, log level, progress, server request ids
 * wire_batch.c      JSON-RPC batches (2025-03-26)
 * wire_stateless.c  the stateless protocol's rules (2026-07-28)
 * wire_meta.c       the _meta key names and trace context values
 */
#ifndef MC_JUDGE_WIRE_INTERNAL_H
#define MC_JUDGE_WIRE_INTERNAL_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/jsonrpc.h"
#include "judge/wire.h"

/* The name of a log level rank (0 "debug" .. 7 "emergency"); "?" otherwise. */
const char *mc__wire_level_name(int rank);

/* Frees what a request slot owns and zeroes it. */
void mc__wire_free_req(mc_wire_req_t *r);

/* v as compact JSON text ("null" for NULL), a new string (caller frees),
 * or NULL when out of memory. */
char *mc__wire_compact_dup(json_object *v);

/* The id of the current inbound message for reports, into buf of n bytes:
 * as sent when the raw text is known, else compact (at most 60 bytes). */
void mc__wire_id_text(const mc_wire_t *w, const char *compact, char *buf, size_t n);

/* The slot for the next request sent: the oldest, emptied. An unanswered
 * request pushed out is counted in reqs_forgotten, as its answer can no
 * longer be matched. */
mc_wire_req_t *mc__wire_next_req_slot(mc_wire_t *w);

/* The request sent with this id (compact JSON text), or NULL. When the
 * client sent the id more than once, one not answered yet comes first, so
 * each of them may be answered once. */
mc_wire_req_t *mc__wire_find_req(mc_wire_t *w, const char *id);

/* The progress token record of token; with create, a free slot, or else
 * the slot of an ended token, is taken for a new one (NULL when every slot
 * holds an active token, counted in tokens_untracked, or out of memory). */
mc_wire_token_t *mc__wire_find_token(mc_wire_t *w, const char *token, int create);

/* The task task_id has reached a terminal status: the progress tokens of
 * the request that created it are no longer active. */
void mc__wire_task_ended(mc_wire_t *w, const char *task_id);

/* True when status names a terminal task status (completed, failed,
 * cancelled). */
int mc__wire_task_terminal(const char *status);

/* True when the client is subscribed to uri. */
int mc__wire_subscribed(const mc_wire_t *w, const char *uri);

/* Forgets a subscription to uri (if any). */
void mc__wire_unsubscribe(mc_wire_t *w, const char *uri);

/* Judges a response (wire_match.c); info, when not NULL, learns the method
 * it answered. m stays the caller's. */
void mc__wire_on_response(mc_wire_t *w, mc_msg_t *m, unsigned flags, mc_wire_info_t *info);

/* Judges a notification from the server (wire_notify.c). */
void mc__wire_on_notification(mc_wire_t *w, mc_msg_t *m);

/* A server request (id: compact JSON) is no longer active: the client
 * answered it or the server cancelled it (wire_notify.c). */
void mc__wire_server_request_closed(mc_wire_t *w, const char *id);

/* Judges a request from the server (wire_notify.c). */
void mc__wire_on_server_request(mc_wire_t *w, mc_msg_t *m);

/* Judges a decoded message by its kind: a response, a notification or a
 * request from the server (nothing for an invalid one). info as for
 * mc__wire_on_response. m stays the caller's. */
void mc__wire_on_message(mc_wire_t *w, mc_msg_t *m, unsigned flags, mc_wire_info_t *info);

/* Notes the requests of an array the client sent (wire_batch.c). */
void mc__wire_outbound_batch(mc_wire_t *w, json_object *arr);

/* Judges each member of an array the server sent (wire_batch.c). */
void mc__wire_inbound_batch(mc_wire_t *w, json_object *arr);

/* Notes what a request's stateless _meta says (wire_stateless.c). */
void mc__wire_stateless_outbound(mc_wire_t *w, mc_wire_req_t *r, const mc_msg_t *m);

/* Judges a result at a version whose results carry resultType. */
void mc__wire_stateless_result(mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m);

/* Judges the code of an error answering a request that named a stateless version. */
void mc__wire_stateless_error(mc_wire_t *w, const mc_wire_req_t *r, const mc_msg_t *m);

/* Judges the _meta objects of a server message's result or params (wire_meta.c). */
void mc__wire_meta(mc_wire_t *w, const mc_msg_t *m);

/* Judges a notification in a stateless session. Returns 1 when it was one
 * the stateless protocol handles (the legacy rules do not apply then). */
int mc__wire_stateless_notification(mc_wire_t *w, const mc_msg_t *m);

/* Judges a request of the server's own in a stateless session. */
void mc__wire_stateless_server_request(mc_wire_t *w, const mc_msg_t *m);

#endif
