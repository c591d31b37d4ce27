/*
 * state.h - what a scenario changes of a server's state and what it reads
 * of it, so that runs of several scenarios may share one server process
 * (scenario/runner.h, mc_runner_hold_t) with the verdicts a fresh process
 * would give each.
 *
 * The state of a server is named by a small vocabulary (MC_STATE_NAMES).
 * A run may follow others on one process when it reads none of the state
 * they changed. Both sides are derived from the steps where the methods
 * say it reliably (logging/setLevel changes the log level, a listing reads
 * the lists); what they cannot say (what a tool call does, what a raw line
 * does) is unknown, and a run that changes something unknown never hands
 * its process on, unless the file says what it changes in "state":
 *
 *   "state": {"changes": ["log-level"], "reads": ["lists"]}
 *
 * "changes" replaces what is derived of the steps whose effect is unknown
 * (a tool call, a raw line, a method the harness does not know); "reads"
 * is added to what is derived. The format is taught in scenarios/README.md
 * ("Scenarios that share a process").
 */
#ifndef MC_SCENARIO_STATE_H
#define MC_SCENARIO_STATE_H

#include <stddef.h>

#include "scenario/step.h"

/* The names of the vocabulary: bit, name, what it is. */
#define MC_STATE_NAMES(X)                                                                          \
    X(LOG_LEVEL, "log-level", "the level logging/setLevel set (which log messages are sent)")     \
    X(SUBSCRIPTIONS, "subscriptions",                                                              \
      "the resources subscribed to (which resource updates are sent)")                            \
    X(LISTS, "lists",                                                                              \
      "what the server lists and what reading, getting or calling a listed item gives")           \
    X(TASKS, "tasks", "the tasks the server keeps (tasks/list, tasks/get, tasks/result)")

typedef enum mc_state_bit {
#define MC__STATE_ENUM(id, name, what) MC__STATE_I_##id,
    MC_STATE_NAMES(MC__STATE_ENUM)
#undef MC__STATE_ENUM
    MC__STATE_I_COUNT
} mc_state_bit_t;

#define MC__STATE_MASK(id, name, what) MC_STATE_##id = 1u << MC__STATE_I_##id,
enum { MC_STATE_NAMES(MC__STATE_MASK) MC_STATE_NAMED = (1u << MC__STATE_I_COUNT) - 1u };
#undef MC__STATE_MASK

/* Not a name of the vocabulary: a change whose effect the harness cannot
 * tell (a tool call, a raw line, an unknown method), which a file's
 * "changes" may name instead. */
#define MC_STATE_UNKNOWN (1u << 30)
/* Not a name either: what no declaration lifts (a notification step, a
 * request left running, the lifecycle done by the steps, a reconnection):
 * the run needs a process of its own, or is the last user of one. */
#define MC_STATE_OWN_PROCESS (1u << 31)
/* Not a name either: the run waits for a message that may come at any time
 * since the handshake (an expect_notification or expect_request without
 * "related"), which on a process an earlier run used that run may have
 * had: it is the first user of a process, and may hand it on. */
#define MC_STATE_FIRST (1u << 29)

/* The bit of a name of the vocabulary, or 0 when it is none. */
unsigned mc_state_bit(const char *name);

/* The name of one bit of the vocabulary, or NULL. */
const char *mc_state_name(unsigned bit);

/* The names of the vocabulary, comma-separated, for problems
 * ("log-level, subscriptions, lists, tasks"). */
const char *mc_state_names(void);

/*
 * What the steps change (*changes) and read (*reads) of a server's state,
 * derived from the methods they send and the messages they wait for
 * (see state.c for the table). Both are or-ed into the outputs.
 */
void mc_steps_state(const mc_step_t *steps, size_t n, unsigned *changes, unsigned *reads);

#endif /* MC_SCENARIO_STATE_H */
