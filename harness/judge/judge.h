/*
 * judge.h - one frame in, its decoded message and its findings out.
 *
 * The judge is the one place that parses and judges what crosses the wire
 * of a session: the wire rules (judge/wire.h: framing, envelope, id
 * matching, notification rules, capability gating, batches and the
 * stateless era's rules) and the schema of the message's method at the
 * version being judged (schema/registry.h). Findings go to the wire
 * checker's table under check ids of the registry (judge/builtin.h). The
 * session, the runner, trace replay and the fuzz executor all feed it;
 * none of them parses a judged line again.
 */
#ifndef MC_JUDGE_JUDGE_H
#define MC_JUDGE_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "judge/wire.h"
#include "schema/registry.h"
#include "schema/validator.h"

/* Bytes of a version name the judge keeps. */
#define MC_JUDGE_MAX_VERSION 32

typedef struct mc_judge {
    mc_wire_t w;                      /* read-only: findings and checks evaluated (wire.h) */
    mc_registry_t *reg;               /* public: borrowed schemas; NULL: no schema check */
    char version[MC_JUDGE_MAX_VERSION]; /* public: the version messages are judged at by
                                           schema ("" = none yet: not judged by schema) */
    const char *follow;               /* public: when set, the version is read from this
                                         string (the caller's, borrowed) at every frame */
    int detail_at_instance;           /* public: schema findings name the instance path
                                         (the fuzz campaign's wording) instead of the
                                         schema path */
    const uint64_t *counted;          /* public: when set, the caller's count of the lines
                                         of its transcript so far (borrowed): a line fed
                                         with seq 0 is numbered one past it */
    uint64_t lines;                   /* read-only: the number of the last line judged */
    mc_schema_report_t *rep;          /* private */
    struct mc__judge_http *http;      /* private: the http rules' state (http_rules.c) */
} mc_judge_t;

/*
 * Prepares a judge over reg (borrowed, may be NULL), judging at no version
 * yet. Returns MC_OK or MC_ENOMEM (then nothing is held).
 */
int mc_judge_init(mc_judge_t *j, mc_registry_t *reg);

/* Releases everything the judge holds (not the registry). */
void mc_judge_free(mc_judge_t *j);

/* Sets the version messages are judged at by schema (NULL or "": none);
 * a version the judge follows (follow) takes precedence. */
void mc_judge_set_version(mc_judge_t *j, const char *version);

/*
 * Feeds one line the client sent (without newline). seq is the caller's
 * number for the line (findings cite it); 0 numbers it one past *counted,
 * or next after the last line the judge saw in either direction.
 */
void mc_judge_outbound(mc_judge_t *j, uint64_t seq, const char *line, size_t len);

/*
 * Judges one inbound frame: kind and flags as from the framer
 * (core/frame.h), data NULL for an oversize frame (len then counts the
 * bytes skipped). The wire rules and the schema check run; *out (when not
 * NULL) receives the decoded message, which the caller owns and releases
 * with mc_wire_info_free().
 */
void mc_judge_inbound(mc_judge_t *j, uint64_t seq, int kind, unsigned flags, const char *data,
                      size_t len, mc_wire_info_t *out);

/*
 * The schema check of one decoded inbound message at the judge's version,
 * recorded as a pass or the first schema error (exposed for callers that
 * judge a message they decoded before the version was known). An error
 * without an id is left to the wire rules: the 2025-06-18 schema demands an
 * id no server can give for an unreadable request, a documented leniency.
 */
void mc_judge_schema(mc_judge_t *j, const mc_wire_info_t *info);

/*
 * Judges one record the HTTP transport hands its sink as it happens
 * (core/record.h: a stream's start, a message as it arrives on a stream,
 * the session id adopted, a stream's end; r->facts.st set) by the http
 * rules (judge/http_rules.c, http_related.c); the findings go to the
 * judge's table (j->w) under http/ check ids, with the HTTP status they are
 * about. reply (may be NULL) gets what the transport asks of a message.
 * A record without stream facts is ignored; the wire rules of a message
 * run when the session hands it to mc_judge_inbound.
 */
void mc_judge_http(mc_judge_t *j, const mc_record_t *r, mc_record_reply_t *reply);

/* Frees the http rules' state (mc_judge_free's). */
void mc__judge_http_free(mc_judge_t *j);

/* mc_judge_http as a transport's record sink (mc_record_sink_fn): ctx is the judge. */
void mc_judge_http_sink(void *ctx, const mc_record_t *r, mc_record_reply_t *reply);

/* True for the id of a Streamable HTTP check ("http/..."), which readers of
 * the judge's table report apart from the wire checks. */
int mc_judge_is_http_check(const char *check);

#endif /* MC_JUDGE_JUDGE_H */
