/*
 * faults.h - the violation switches as the handlers see them: whether one is
 * on, and the few switched answers of a stateless request's dispatch. The
 * switches themselves are the table of inject.h.
 */
#ifndef MC_REFSERVER_FAULTS_H
#define MC_REFSERVER_FAULTS_H

#include "refserver/state.h"

/* True when the violation switch is on. */
#define rs_bug_on(rs, b) ((rs)->bug == RS_BUG_##b)

/* The violation switches of a stateless request's dispatch (modern.c): a
 * notifications/cancelled naming a tools/call (cancelled-not-listen), a
 * request refused before server/discover (discover-required-first). Returns
 * 1 when the request was answered. */
int mc__rs_modern_switched(mc_refserver_t *rs, const mc_msg_t *msg);

/* The code an unknown stateless method is refused with under the switches
 * error-code-undefined-reserved and error-code-legacy, or 0 (modern.c). */
int mc__rs_switched_code(const mc_refserver_t *rs);

/* Answers an unknown stateless method with -32022 listing the versions the
 * server supports, 2026-07-28 among them: the switch error-code-misused
 * (modern.c). */
void mc__rs_misused_code(mc_refserver_t *rs, json_object *id);

#endif /* MC_REFSERVER_FAULTS_H */
