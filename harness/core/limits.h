/*
 * limits.h - the bounds the harness enforces (the reference server's own
 * are in refserver/limits.h; the HTTP client's in client/http_limits.h).
 *
 * Input from a server under test (or a client, for the reference server) is
 * hostile: every buffer, table and queue is capped by one of these constants,
 * and growing past a cap is an error, never a reallocation.
 */
#ifndef MC_CORE_LIMITS_H
#define MC_CORE_LIMITS_H

/* Largest single newline-delimited message accepted, in bytes (16 MiB). */
#define MC_MAX_MESSAGE_SIZE (16u * 1024u * 1024u)

/* Deepest JSON nesting the tokener accepts for a wire message. */
#define MC_MAX_JSON_DEPTH 64

/* Outstanding client->server requests per session. */
#define MC_MAX_PENDING_REQUESTS 1024

/* Notifications held, unread, per session before the oldest are dropped. */
#define MC_MAX_QUEUED_NOTIFICATIONS 4096

/* Protocol anomalies (events) recorded per session; later ones are counted only. */
#define MC_MAX_SESSION_EVENTS 1024

/* Received frames waiting to be consumed by the session, per transport. */
#define MC_MAX_QUEUED_FRAMES 4096

/* Bytes of received frames waiting to be consumed; reading pauses above it. */
#define MC_MAX_QUEUED_BYTES (4u * MC_MAX_MESSAGE_SIZE)

/* Bytes waiting to be written to the target's stdin. */
#define MC_MAX_OUTBOUND_BYTES (2u * MC_MAX_MESSAGE_SIZE)

/* The tail of the target's stderr kept for reports (64 KiB ring). */
#define MC_STDERR_RING_SIZE (64u * 1024u)

/* Bytes read from a pipe in one read(2). */
#define MC_READ_CHUNK (64u * 1024u)

/* Size of a first-error message buffer, including the terminating NUL. */
#define MC_ERRBUF_SIZE 512

/* Default time a request may wait for its response. */
#define MC_DEFAULT_REQUEST_TIMEOUT_MS 10000

/* Default deadline for a whole run against one target process. */
#define MC_DEFAULT_RUN_DEADLINE_MS 300000

/* Shutdown: after closing the target's stdin, wait this long for it to exit... */
#define MC_SHUTDOWN_STDIN_GRACE_MS 1000
/* ...then send SIGTERM to its process group and wait this long before SIGKILL. */
#define MC_SHUTDOWN_TERM_GRACE_MS 1000

/* Default time the target gets to start and answer initialize; separate from
 * the per-step timeout, generous enough for npx and Python servers. */
#define MC_DEFAULT_STARTUP_TIMEOUT_MS 30000

/*
 * Rate guard: messages (or bytes) the target may send while the client waits
 * in one call (one step of a scenario). Past either, the wait ends with
 * MC_EFLOOD and the scenario is an ERROR that names the flood.
 */
#define MC_MAX_STEP_MESSAGES 10000u
#define MC_MAX_STEP_BYTES (64u * 1024u * 1024u)
/* A step that times out after this many messages arrived in it, none of
 * them the answer, is also ended as a flood: the target is busy talking, not
 * slow (a flood faster than the harness can judge it hits the deadline
 * before the budget). */
#define MC_FLOOD_MIN_MESSAGES 1000u
/* Messages a whole session may receive before it is ended as a flood. */
#define MC_MAX_SESSION_MESSAGES 100000u

/* A wait checks its deadline and the interrupt flag at least this often. */
#define MC_POLL_SLICE_MS 100
/* Frames already received that a wait may still hand out once its deadline
 * has passed (so late messages reach the wire checks); then it times out. */
#define MC_MAX_OVERDUE_FRAMES 256u

/* A version probe's wait for the answer once the server is up: from its
 * first message, or, when it writes none, from the longest an earlier
 * probe's server took to start and answer. A version whose probe gets no
 * answer in it is not spoken, and the unanswered request is reported
 * (wire/single-response). */
#define MC_VERSION_PROBE_TIMEOUT_MS 5000

/* Early stop: the run ends (exit 3) when this many scenarios failed the
 * handshake before any completed one; a single one suffices when the target
 * stayed silent for its whole start-up budget. */
#define MC_EARLY_STOP_HANDSHAKE_FAILURES 2

/* Processes of one target's tree that are tracked and killed at shutdown. */
#define MC_MAX_TREE_PROCS 4096
/* Rounds of stop-and-walk used to catch a tree that keeps forking. */
#define MC_TREE_KILL_ROUNDS 8

/* Peak resident memory of mcpcheck itself that the hostile-server tests hold
 * it under, whatever the target does (documented in README, Reliability). */
#define MC_MEMORY_BOUND_BYTES (256u * 1024u * 1024u)

/* Once a target was seen to ignore stdin EOF (or SIGTERM), later runs give
 * it only this long before the next step of the shutdown sequence. */
#define MC_SHUTDOWN_LEARNED_GRACE_MS 50

/* Arguments accepted on a spawned target's command line. */
#define MC_MAX_TARGET_ARGS 256

/* Stateless sessions (2026-07-28): retries of one request answering
 * input_required results, before the last answer is taken as it is. */
#define MC_MAX_INPUT_ROUNDS 8

/* Answers to server requests a scenario holds back at once (client.answers
 * "hold"); past it an answer goes out at once. A held answer goes out at the
 * latest this long after it was held, so a server that never sends the
 * requests awaited leaves no request hanging (a hang budget, no assertion). */
#define MC_MAX_HELD_ANSWERS 8
#define MC_HELD_ANSWER_MAX_MS 2000

#endif /* MC_CORE_LIMITS_H */
