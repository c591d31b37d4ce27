/*
 * process_internal.h - what process.c and proctree.c share. Internal to
 * the client layer.
 */
#ifndef MC_CLIENT_PROCESS_INTERNAL_H
#define MC_CLIENT_PROCESS_INTERNAL_H

#include <sys/types.h>

/* 1 when pid is a target of this process not yet reaped (thread-safe). */
int mc__proc_live_has(pid_t pid);

#endif /* MC_CLIENT_PROCESS_INTERNAL_H */
