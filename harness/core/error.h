/*
 * error.h - error codes and the bounded first-error message buffer.
 *
 * Every fallible function returns an mc_err_t: MC_OK (0) on success or one of
 * the negative codes below. A function that fails leaves its outputs untouched.
 * Details go into an optional mc_errbuf_t; only the first message is kept, so
 * the root cause is not overwritten by its consequences.
 */
#ifndef MC_CORE_ERROR_H
#define MC_CORE_ERROR_H

#include <stddef.h>

#include "core/limits.h"

#define MC_ERRNO_MAP(XX)                                                       \
    XX(NOMEM, "out of memory")                                                 \
    XX(INVAL, "invalid argument")                                              \
    XX(PARSE, "malformed JSON")                                                \
    XX(TOOBIG, "message exceeds the size limit")                               \
    XX(TOODEEP, "JSON nesting exceeds the depth limit")                        \
    XX(UTF8, "invalid UTF-8")                                                  \
    XX(PROTO, "protocol violation")                                            \
    XX(SPAWN, "cannot start the target")                                       \
    XX(IO, "input/output error")                                               \
    XX(TIMEOUT, "timed out")                                                   \
    XX(EOF, "end of stream")                                                   \
    XX(EXITED, "the target has exited")                                        \
    XX(FULL, "a bounded buffer or table is full")                              \
    XX(NOTFOUND, "not found")                                                  \
    XX(UNSUPPORTED, "not supported")                                           \
    XX(SCHEMA, "invalid schema")                                               \
    XX(INVALID, "instance is invalid")                                         \
    XX(FLOOD, "the peer sent more than the rate guard allows")                 \
    XX(INTR, "interrupted")

typedef enum mc_err {
    MC_OK = 0,
    MC__EBASE = -1000,
#define MC__XX(name, msg) MC_E##name,
    MC_ERRNO_MAP(MC__XX)
#undef MC__XX
    MC__ELAST
} mc_err_t;

/* Returns a static, human readable description of an error code. */
const char *mc_strerror(int err);

/* Returns the code's symbolic name ("MC_ETIMEOUT"), or "MC_OK". */
const char *mc_err_name(int err);

/* A bounded message buffer that keeps the first message written to it. */
typedef struct mc_errbuf {
    char msg[MC_ERRBUF_SIZE]; /* read-only: NUL-terminated, no trailing newline */
    int set;                  /* read-only: non-zero once a message is kept */
} mc_errbuf_t;

/* Empties the buffer so the next mc_errbuf_set() is kept. */
void mc_errbuf_clear(mc_errbuf_t *eb);

/*
 * Formats a message into eb unless one is already kept. eb may be NULL.
 * Long messages are truncated. Returns err, so callers can write
 * `return mc_errbuf_set(eb, MC_EPARSE, "...")`.
 */
int mc_errbuf_set(mc_errbuf_t *eb, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* MC_CORE_ERROR_H */
