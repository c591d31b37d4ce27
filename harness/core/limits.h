/*
 * limits.h - every bound the harness and the reference server enforce.
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

/* Arguments accepted on a spawned target's command line. */
#define MC_MAX_TARGET_ARGS 256

/* Reference server: concurrent in-flight server->client requests. */
#define MC_REFSERVER_MAX_PENDING 64

#endif /* MC_CORE_LIMITS_H */
