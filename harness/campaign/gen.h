/*
 * gen.h - what a campaign knows of the target, and the sequences it makes
 * from that knowledge.
 *
 * A sequence is a JSON array of client messages sent after the session
 * prefix (initialize + notifications/initialized, made by the executor).
 * Each element is a message object (sent compactly serialized) or a string
 * (sent as the line it holds: malformed input). Requests are generated from
 * the MCP methods a client may send and from what the server revealed: its
 * tool, prompt, resource and template names, prompt argument names, tool
 * inputSchemas, cursors and URIs of updates. The mutator changes sequences
 * structurally: messages inserted, dropped, repeated and moved; JSON trees
 * with dropped members, retyped values, boundary numbers and odd strings;
 * ids made to collide; cancellations and progress tokens added; lines
 * truncated; material spliced from another sequence; answers to the
 * server's own requests (elicitation, sampling, roots) valid or mutated.
 *
 * Tools are named in tools/call only when allowed (safe list or call_tools);
 * mc_gen_allowed() is the check the executor makes again before sending.
 */
#ifndef MC_CAMPAIGN_GEN_H
#define MC_CAMPAIGN_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Names of each kind kept from what the server revealed. */
#define MC_GEN_MAX_NAMES 64
/* Longest name or URI kept, in bytes. */
#define MC_GEN_MAX_NAME_LEN 512
/* Messages in a sequence at most. */
#define MC_GEN_MAX_SEQ 24
/* Nodes looked at when picking where to mutate a message. */
#define MC_GEN_MAX_NODES 256
/* Length of the long strings the mutator writes. */
#define MC_GEN_LONG_STRING 4096

typedef struct mc_gen_list {
    char *v[MC_GEN_MAX_NAMES]; /* owned strings */
    size_t n;
    size_t next; /* replacement position once full */
} mc_gen_list_t;

typedef struct mc_gen {
    uint64_t rng;                   /* private */
    mc_gen_list_t tools;            /* read-only: tool names listed */
    mc_gen_list_t prompts;          /* read-only: prompt names listed */
    mc_gen_list_t resources;        /* read-only: resource URIs listed or updated */
    mc_gen_list_t templates;        /* read-only: URIs made from templates */
    mc_gen_list_t cursors;          /* read-only: nextCursor values seen */
    json_object *tool_schemas;      /* owned: tool name -> inputSchema */
    json_object *prompt_args;       /* owned: prompt name -> array of argument names */
    json_object *safe_tools;        /* owned copy: tool names that may be called, or NULL */
    int call_tools;                 /* every tool may be called */
    int64_t next_id;                /* private: ids of generated requests */
    json_object *ctx;               /* private: the sequence a new message joins, or NULL */
    json_object *meta;              /* owned: _meta members every request made carries
                                       (the stateless protocol's), or NULL */
} mc_gen_t;

/* Prepares a generator seeded with seed; safe_tools is borrowed and copied
 * (NULL = none). Returns 0, or -1 when out of memory. */
int mc_gen_init(mc_gen_t *g, uint64_t seed, json_object *safe_tools, int call_tools);
void mc_gen_free(mc_gen_t *g);

/* A pseudo-random number (xorshift64*), and one below n (n > 0). */
uint64_t mc_gen_rand(mc_gen_t *g);
size_t mc_gen_below(mc_gen_t *g, size_t n);

/* Learns names, schemas and cursors from a response to method (borrowed
 * result object) or from a notification (method, params). */
void mc_gen_learn(mc_gen_t *g, const char *method, json_object *result);

/* True when tools/call may name this tool. */
int mc_gen_allowed(const mc_gen_t *g, const char *tool);

/* From now on every request made (mc_gen_message, so also the sequences
 * made, mutated and extended) carries the members of meta (borrowed and
 * copied; NULL = none) in its params._meta: the per-request fields of the
 * stateless protocol (2026-07-28), without which a server of that version
 * rejects it. The mutator may drop or change them afterwards. Returns 0, or
 * -1 when out of memory. */
int mc_gen_set_meta(mc_gen_t *g, json_object *meta);

/* Adds the members of g->meta that msg's params._meta lacks to msg, when
 * msg is a request (an object with a method and an id) whose params, if
 * any, is an object; params and _meta are made when absent. */
void mc_gen_stamp(const mc_gen_t *g, json_object *msg);

/* The _meta key of the stateless protocol's per-request log level. */
#define MC_GEN_META_LOG_LEVEL "io.modelcontextprotocol/logLevel"

/* A new message (new reference). At a stateless version (mc_gen_set_meta)
 * the methods are those of 2026-07-28 (server/discover, subscriptions/listen;
 * the removed ones now and then, initialize never), and one request in three
 * names a log level in its _meta. */
json_object *mc_gen_message(mc_gen_t *g);

/*
 * Closes the subscriptions/listen streams seq (borrowed, changed in place)
 * opens: each listen request that no later notifications/cancelled names
 * gets one at the end, so that a process kept from one sequence to the next
 * does not gather open streams (2026-07-28/basic/patterns/subscriptions:
 * a subscription lasts until the client cancels it). To make room, the
 * last messages give way (a listen among them needs no cancelling). Returns
 * the number of cancellations added.
 */
size_t mc_gen_close_listens(json_object *seq);

/*
 * An answer element (new reference): how the client answers one kind of
 * server request (elicitation/create, sampling/createMessage, roots/list,
 * ping) for the rest of the sequence, {"answer": METHOD, "with": {...}} with
 * a valid result, or "error": {"code", "message"}; the mutator then changes
 * the result or error like any message (see exec.h, mc_exec_is_answer).
 */
json_object *mc_gen_answer(mc_gen_t *g);

/* A new sequence of 1..n messages (new reference), now and then led by an
 * answer element. */
json_object *mc_gen_sequence(mc_gen_t *g);

/*
 * A mutant of seq (borrowed; other, borrowed or NULL, gives material to
 * splice). Returns a new reference, never longer than MC_GEN_MAX_SEQ.
 */
json_object *mc_gen_mutate(mc_gen_t *g, json_object *seq, json_object *other);

/*
 * seq (borrowed) extended: kept whole or up to one of its messages, then one
 * message more (a new one, or one taken from other, borrowed or NULL), now
 * and then with one mutation besides. Returns a new reference, never longer
 * than MC_GEN_MAX_SEQ. The campaign extends the sequences that earned
 * energy, as stateful fuzzers extend the prefix that reached a new state.
 */
json_object *mc_gen_extend(mc_gen_t *g, json_object *seq, json_object *other);

/*
 * seq (borrowed), whose last message reached code never run before,
 * extended there: half the time one message more after it (the state it
 * reached may lead further), else one message instead of it (the new code
 * may be owed to the state the messages before it left, which another
 * request there may take further), now and then with one mutation
 * besides, as mc_gen_extend does. Returns a new reference, never longer
 * than MC_GEN_MAX_SEQ.
 */
json_object *mc_gen_extend_last(mc_gen_t *g, json_object *seq, json_object *other);

#endif /* MC_CAMPAIGN_GEN_H */
