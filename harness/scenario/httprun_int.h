/*
 * httprun_int.h - the pieces of the http step shared between httprun.c (the
 * step) and httprun_resume.c (its "resume" form); private to them.
 */
#ifndef MC_SCENARIO_HTTPRUN_INT_H
#define MC_SCENARIO_HTTPRUN_INT_H

#include <stdint.h>

#include "scenario/httprun.h"

/* A note in the transcript at line seq (printf-style, cut at 700 bytes). */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
void mc__httprun_tx_note(mc_scenario_result_t *res, uint64_t seq, int64_t t_ms, int outbound,
                         const char *fmt, ...);

/* The "resume" form of a POST step (httprun_resume.c): hl are the step's
 * headers, as mc_httprun_step() prepared them. Returns MC_OK with out
 * filled, or an error of the exchange. */
int mc__httprun_resume(mc_httprun_t *hr, const mc_step_http_t *sp, const mc_httprun_fill_t *fill,
                       const char *const *hl, const char *version, int within, mc_judge_t *judge,
                       mc_scenario_result_t *res, uint64_t seq, int64_t t_ms,
                       mc_httprun_outcome_t *out);

#endif /* MC_SCENARIO_HTTPRUN_INT_H */
