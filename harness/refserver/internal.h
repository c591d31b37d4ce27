/*
 * internal.h - everything the reference server's modules share, by concern:
 *
 *   state.h     the session object and the types it holds
 *   faults.h    whether a violation switch is on (the switches: inject.h)
 *   output.h    the output path below the handlers, the json helpers
 *   features.h  initialize, tasks, pagination, resources, prompts, logging,
 *               completion, the file root
 *   jobs.h      tool calls, jobs, server->client requests
 *   modern.h    the stateless protocol (2026-07-28)
 *
 * Only the refserver's own modules include it (lint/sources checks).
 */
#ifndef MC_REFSERVER_INTERNAL_H
#define MC_REFSERVER_INTERNAL_H

#include "refserver/faults.h"
#include "refserver/features.h"
#include "refserver/jobs.h"
#include "refserver/modern.h"
#include "refserver/output.h"
#include "refserver/state.h"

#endif /* MC_REFSERVER_INTERNAL_H */
