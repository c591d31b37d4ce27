/*
 * replay.h - judging a saved session offline: the trace replayer behind
 * `mcpcheck validate --trace`.
 *
 * A trace is JSONL, one record per line: {"seq", "t_ms", "dir": "in" |
 * "out" | "note", "line"} with, when the bytes were no valid UTF-8,
 * "raw_b64", when only the first bytes were kept, "truncated_from", and
 * over Streamable HTTP the transport's "http" facts beside each message
 * received. Each message goes through the judge (judge.h) as it did live,
 * at --spec-version or at the version the session negotiated; a message's
 * HTTP facts become the records the transport handed the judge live (its
 * SSE event, the message on its stream), so the http rules a trace can
 * show are judged by the same code (SSE event ids unique per session, a
 * resumption replaying only its own stream, no response on the GET stream,
 * ...; none of them in a session of 2026-07-28, which has none of these
 * mechanisms). Findings land in the judge's table; printing them is the
 * caller's.
 */
#ifndef MC_JUDGE_REPLAY_H
#define MC_JUDGE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/jsonfast.h"
#include "judge/judge.h"

/* Messages whose file line is remembered for findings to cite. */
#define MC_REPLAY_MAX_LINES (1u << 24)

typedef struct mc_replay {
    mc_judge_t j;             /* read-only: findings (j.w) and the version judged at */
    int version_given;        /* read-only: the version was named; the trace's is not used */
    size_t messages;          /* read-only: messages judged (both directions) */
    size_t skipped;           /* read-only: messages kept truncated, not judged */
    size_t notes;             /* read-only: transport notes */
    size_t http_frames;       /* read-only: messages recorded with HTTP facts */
    size_t sse_frames;        /* read-only: ... of them, on the HTTP+SSE transport's stream */
    uint64_t *seq_line;       /* private: pairs (seq, file line) */
    size_t n_seq, cap_seq;    /* private */
    json_tokener *tok;        /* private: one per trace */
    mc_json_keys_t keys;      /* private: the keys of the record being judged */
} mc_replay_t;

/* What mc_replay_line() says of a message it could not judge. */
typedef struct mc_replay_skip {
    int skipped;       /* the record's message was kept truncated and is not judged */
    uint64_t seq;      /* its number in the session */
    size_t kept;       /* bytes kept */
    uint64_t full;     /* bytes it had */
} mc_replay_skip_t;

/*
 * Prepares a replay over reg (borrowed, the caller loads version when it
 * names one). version NULL: the version is taken from the trace (the one the
 * client asked for in initialize, then the one the server answered, or a
 * stateless request's _meta). Returns MC_OK or MC_ENOMEM.
 */
int mc_replay_init(mc_replay_t *rp, mc_registry_t *reg, const char *version);

/* Releases what the replay holds. */
void mc_replay_free(mc_replay_t *rp);

/*
 * Feeds one line of a trace file (p[0..n), no newline; line is its 1-based
 * number). Blank lines are ignored. Returns MC_OK, or MC_EINVALID when the
 * line is no trace record (nothing judged). *skip (not NULL) tells of a
 * message that could not be judged.
 */
int mc_replay_line(mc_replay_t *rp, const char *p, size_t n, size_t line, mc_replay_skip_t *skip);

/* The file line a message of the session came on (0 when unknown). */
size_t mc_replay_line_of(const mc_replay_t *rp, uint64_t seq);

#endif /* MC_JUDGE_REPLAY_H */
