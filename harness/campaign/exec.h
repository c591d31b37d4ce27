/*
 * exec.h - runs message sequences against the target and judges what it
 * writes.
 *
 * The executor keeps one target process running across sequences (the
 * session prefix, initialize + notifications/initialized, is sent once per
 * process) and restarts it only when state must be reset: it died, it hung,
 * it grew past the memory limit, a fresh run was asked for, or it has run
 * restart_every sequences. Every line the target writes goes through the
 * wire checks (judge/wire.h) and the schema of the negotiated version
 * (schema/registry.h), and through the response state model; the process is
 * watched for death by signal or exit (with the stderr tail, where a
 * sanitizer report lands), for requests left unanswered within the hang
 * budget (measured from the last thing heard, so a quick answer ends the
 * wait at once), and for its resident size.
 *
 * Over stdio a sequence ends with a barrier: a ping of the executor's own,
 * whose answer is the point by which a server answering in order has
 * answered or dropped everything sent before (mc_exec_finding_t.at_barrier
 * says what a fresh process must confirm; mc_exec_dropped_t holds the
 * request shapes known to be dropped). docs/fuzzing.md, "The barrier".
 *
 * Over Streamable HTTP (url) a "process" is an HTTP session with the
 * server (started by the executor when there is a command, and restarted
 * with the session): the HTTP rules the transport judges (client/http.h)
 * are findings too.
 *
 * When coverage is on, the executor creates an AFL++ shared-memory map,
 * passes its id in __AFL_SHM_ID (and its size in AFL_MAP_SIZE), clears it
 * before each sequence and reads it after: edges seen for the first time,
 * by AFL++'s hit-count buckets, are new coverage. Once the target is seen
 * to write the map, each request whose answer is due is sent only after
 * the answer to the one before has come (unless a later cancellation in
 * the sequence names it: its race is kept), and the map is read for new
 * edges after each answer, so that new code is owed to the request that
 * reached it. New edges are then confirmed on a fresh process
 * (mc_exec_confirm): what the process carried in is no merit of the
 * sequence. That process may be a second executor's (a twin, opts.twin),
 * so that the persistent process keeps the state it built.
 *
 * The server's own requests (elicitation/create, sampling/createMessage,
 * roots/list, ping) are answered as the sequence's answer elements say
 * (mc_exec_is_answer), by default as a scenario's client answers them.
 */
#ifndef MC_CAMPAIGN_EXEC_H
#define MC_CAMPAIGN_EXEC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "client/process.h"
#include "core/error.h"
#include "schema/registry.h"

/* Findings kept from one sequence. */
#define MC_EXEC_MAX_FINDINGS 16
/* States recorded from one sequence. */
#define MC_EXEC_MAX_STATES 512
/* Bytes of trace kept from one recorded sequence. */
#define MC_EXEC_MAX_TRACE (1u << 20)
/* Bytes of the stderr tail kept with a death. */
#define MC_EXEC_TAIL 8192
/* Inbound lines remembered for naming the method of a wire finding. */
#define MC_EXEC_MAX_INLINES 1024
/* Default hang budget and settle window, in milliseconds. */
#define MC_EXEC_HANG_MS 3000
#define MC_EXEC_SETTLE_MS 1
/* Budget for the answer to initialize: servers started through npx, uv or
 * a JVM take seconds to come up, which is no hang. */
#define MC_EXEC_START_MS 30000
/* Default sequences per process before a restart. */
#define MC_EXEC_RESTART_EVERY 200
/* Default AFL++ map size (bytes). */
#define MC_EXEC_MAP_SIZE (1u << 18)
/* New coverage entries of a sequence remembered (what mc_exec_lit gives). */
#define MC_EXEC_MAX_LIT 4
/* Integer ids are moved by this much per sequence within one process. */
#define MC_EXEC_ID_STRIDE 100000
/* Elements of one sequence run at most; the rest of a longer one is cut. */
#define MC_EXEC_MAX_ELEMS 128
/* Request shapes known to be dropped, remembered per campaign. */
#define MC_EXEC_MAX_DROPPED 256
/* Ids left unanswered at a barrier that are watched for a late answer. */
#define MC_EXEC_MAX_LATE_WATCH 32

/*
 * What a campaign knows of the requests its target drops (leaves without
 * an answer): the shapes (method, members and their JSON types, params'
 * members and their types) that a fresh process left unanswered for the
 * whole hang budget, and whether the target was ever seen to answer a
 * request after the ping sent after it (out of order), and the shapes of
 * the requests it answered so. Shared by the
 * executors of one campaign (mc_exec_opts_t.dropped), which may run on two
 * threads (the confirmer's, campaign/confirm.c): a shape is written before
 * n counts it, and writers take the lock; zeroed to start.
 */
typedef struct mc_exec_dropped {
    uint32_t shape[MC_EXEC_MAX_DROPPED];
    _Atomic size_t n;
    uint32_t late[MC_EXEC_MAX_DROPPED]; /* shapes of requests answered after the barrier that
                                           followed them: such requests are waited for */
    _Atomic size_t n_late;
    _Atomic int out_of_order; /* an answer came after the barrier that followed its request */
    _Atomic int lock;         /* private: held while a shape is added */
} mc_exec_dropped_t;

/*
 * Where an executor's time went, for the campaign's report: the processes
 * it started and how long their start (the session prefix) took, the
 * barriers it sent and how long it waited for their answers, the waits of
 * the whole hang budget for requests left unanswered (a fresh process's,
 * lock-step's, over HTTP or without the barrier) and how long they took,
 * and the sequences it sent ahead. Milliseconds of wall time.
 */
typedef struct mc_exec_counters {
    uint64_t starts, start_ms;
    uint64_t barriers, barrier_ms;
    uint64_t hang_waits, hang_wait_ms;
    uint64_t sent_ahead;
} mc_exec_counters_t;

typedef enum mc_find_kind {
    MC_FIND_CHECK = 0, /* a wire or schema check failed */
    MC_FIND_CRASH,     /* the target was killed by a signal */
    MC_FIND_EXIT,      /* the target exited or closed its output */
    MC_FIND_HANG,      /* a request was not answered within the hang budget */
    MC_FIND_MEMORY     /* the target grew past the memory limit */
} mc_find_kind_t;

typedef struct mc_exec_finding {
    mc_find_kind_t kind;
    char sig[256];     /* the deduplication signature */
    char check[96];    /* the check id ("wire/response-id"; "process/crash" etc.) */
    char method[96];   /* the method involved, or "" */
    char detail[400];  /* what was seen */
    /* A hang seen at the barrier of a run on a persistent process (the
     * server answered the ping sent after the request, not the request),
     * not waited out: a server that answers out of order may still answer
     * it. A candidate the caller confirms on a fresh process (where the
     * executor waits the hang budget) before it reports anything. */
    int at_barrier;
} mc_exec_finding_t;

typedef struct mc_exec_outcome {
    mc_exec_finding_t f[MC_EXEC_MAX_FINDINGS];
    size_t nf;
    uint32_t states[MC_EXEC_MAX_STATES]; /* state-model keys hit, in order */
    size_t ns;
    size_t new_cov;      /* coverage map entries with new bits (hit-count buckets included) */
    size_t new_edges;    /* of those, entries hit for the first time */
    /* With coverage on an instrumented target, new edges by the element
     * they are owed to (capped at 255): the map is read after the answer to
     * each request, and what shows there is owed to that request and the
     * lines sent since the answer before; what shows only at the end, to
     * the element sent last. last_edge_elem is the last element owed new
     * edges, or -1 (none, or not known). */
    unsigned char elem_edges[MC_EXEC_MAX_ELEMS];
    int last_edge_elem;
    uint64_t lines_out;  /* lines sent (prefix included when it ran) */
    uint64_t lines_in;   /* lines received */
    int started;         /* the target was (re)started for this sequence */
    char tail[MC_EXEC_TAIL]; /* stderr tail when the target died, else "" */
    /* With record: the trace (one JSON object per line: dir, line) and, per
     * sequence element, whether a response with its id arrived. */
    char *trace;
    size_t trace_len;
    unsigned char answered[MC_EXEC_MAX_ELEMS];
    unsigned char sent[MC_EXEC_MAX_ELEMS];
    unsigned char replied[MC_EXEC_MAX_ELEMS]; /* some response arrived while it was the last sent */
} mc_exec_outcome_t;

typedef struct mc_exec_opts {
    char *const *argv;       /* the target command */
    const char *cwd;
    mc_rlimits_t limits;
    const char *version;     /* protocol version requested */
    mc_registry_t *registry; /* schemas (borrowed), or NULL for none */
    int hang_ms;             /* 0 = MC_EXEC_HANG_MS */
    int settle_ms;           /* 0 = MC_EXEC_SETTLE_MS */
    int restart_every;       /* 0 = MC_EXEC_RESTART_EVERY */
    uint64_t mem_limit_mb;   /* 0 = no memory oracle */
    int coverage;            /* create the AFL++ map */
    size_t map_size;         /* 0 = MC_EXEC_MAP_SIZE */
    /* Streamable HTTP at this endpoint instead of stdio, or NULL. With argv
     * the executor starts the server (port 0: it prints the address it
     * bound, see client/httptarget.h); without, the server runs already and
     * a restart is a new HTTP session. */
    const char *url;
    int allow_remote;        /* a url host that is not a loopback address is fine */
    /* Called with each result (and notification params) the target sends,
     * for what the generator learns. */
    void (*learn)(void *ctx, const char *method, json_object *result);
    void *learn_ctx;
    /* Tools that may be called; a tools/call naming another is not sent. */
    int (*allowed)(void *ctx, const char *tool);
    void *allowed_ctx;
    /* The executor this one makes fresh runs for (borrowed), or NULL: its
     * requests go one answer after another, as twin's do, once twin's
     * target is seen to write the coverage map. */
    const struct mc_exec *twin;
    /* The campaign's table of dropped request shapes (borrowed, shared by
     * its executors), or NULL: the executor keeps one of its own. */
    mc_exec_dropped_t *dropped;
    /* Over stdio, end each sequence with the settle window instead of the
     * ping barrier (the executor before the barrier, for comparison). */
    int no_barrier;
    /* Over stdio, keep a spare process of the target: started as soon as
     * one is started, and taken by the next start, so that a server's
     * start-up (an interpreter loading) overlaps the work before it. Not
     * on a target seen to write the coverage map (a spare's start-up would
     * land in the running process's map), nor before the first sequence
     * has shown whether it does. */
    int spare;
    /* Send nothing ahead in mc_exec_run_ahead (it runs as mc_exec_run). */
    int no_pipeline;
} mc_exec_opts_t;

typedef struct mc_exec mc_exec_t;

/* Prepares an executor (nothing is started yet). opts is copied; the
 * strings and objects it points to must outlive the executor. */
int mc_exec_new(mc_exec_t **out, const mc_exec_opts_t *opts, mc_errbuf_t *eb);

/*
 * Runs seq (borrowed JSON array) and fills *out (caller frees with
 * mc_exec_outcome_free). fresh: start a new target process first. record:
 * keep the trace and per-message answers. Returns MC_OK whatever the target
 * did; MC_ESPAWN when it cannot be started and MC_EPROTO when it refuses
 * the session prefix (eb says why): a harness-level failure.
 */
int mc_exec_run(mc_exec_t *x, json_object *seq, int fresh, int record, mc_exec_outcome_t *out,
                mc_errbuf_t *eb);

/*
 * Runs seq on the persistent process as mc_exec_run(x, seq, 0, 0, ...),
 * and takes next (borrowed; a reference is kept), the sequence the caller
 * runs on x right after, to send ahead: over stdio with the barrier, on a
 * target not seen to write the coverage map nor to answer out of order,
 * when next is made only of requests that change nothing the judge holds
 * earlier answers to, on ids and tokens new to the process
 * (docs/fuzzing.md, "Pipelining"), its lines go out right after seq's
 * barrier, before its answer: the server works on them while the harness
 * judges seq. Whatever came after the barrier's answer is next's, and
 * next's own run (this call again, with next as seq) judges it as if it
 * had been sent then. A call with another sequence, or a fresh run,
 * restarts the process first: it has served lines no run accounts for.
 * next NULL: nothing is sent ahead.
 */
int mc_exec_run_ahead(mc_exec_t *x, json_object *seq, json_object *next, mc_exec_outcome_t *out,
                      mc_errbuf_t *eb);

/* Where x's time went so far (see mc_exec_counters_t). */
mc_exec_counters_t mc_exec_counters(const mc_exec_t *x);

/*
 * Confirms the edges the last mc_exec_run of x found new, by running seq
 * (what of that sequence is kept, with what it carried in) on a fresh
 * process of fx: a persistent target carries state from one sequence into
 * the next, and an edge reached only thanks to it is no merit of the
 * sequence. fx is x itself (its process is restarted and then holds seq's
 * state) or a twin of x (an executor of the same target and options, with
 * coverage: x's process keeps running as it was). Edges the fresh run
 * reaches again stay seen; the others become new again, so that the first
 * sequence to reach them from a fresh start is the one credited. *kept
 * gets the edges that stay seen. Without coverage or new edges nothing is
 * run (*kept = 0, out zeroed). out is the fresh run's outcome (its
 * findings included; free it with mc_exec_outcome_free); x's map of what
 * was ever seen learns nothing else from it, nor does fx's. Returns as
 * mc_exec_run (MC_EINVAL for an fx without a map of x's size); on an
 * error every edge stays seen.
 */
int mc_exec_confirm(mc_exec_t *x, mc_exec_t *fx, json_object *seq, mc_exec_outcome_t *out,
                    size_t *kept, mc_errbuf_t *eb);

/* Makes the edges the last mc_exec_run found new again, without a run (a
 * campaign that will not pay for confirming them now); returns their
 * number. */
size_t mc_exec_forget_new(mc_exec_t *x);

/* Stops the target (as the spec advises) if it runs. */
void mc_exec_stop(mc_exec_t *x);

/* Stops the target and frees everything, the shared memory included. */
void mc_exec_free(mc_exec_t *x);

void mc_exec_outcome_free(mc_exec_outcome_t *out);

/* Coverage map entries ever hit (0 without coverage). */
size_t mc_exec_coverage(const mc_exec_t *x);

/* The coverage entries the last sequence hit for the first time and that
 * stood (after mc_exec_confirm, those its fresh run reached again; after
 * mc_exec_forget_new, none): at most MC_EXEC_MAX_LIT, their count in *n.
 * NULL and 0 without a coverage map. */
const uint32_t *mc_exec_lit(const mc_exec_t *x, size_t *n);

/* Per coverage entry, how many sequences (fresh confirming runs aside) hit
 * it so far, saturating; *n gets the map size. NULL and 0 without a
 * coverage map. The rarer an entry, the less explored what lies behind it. */
const uint32_t *mc_exec_hits(const mc_exec_t *x, size_t *n);
/* True when coverage is on and the target has written to the map. */
int mc_exec_instrumented(const mc_exec_t *x);
/* The coverage map as the target left it after the last sequence x ran
 * (its raw hit counts, the session prefix's included when the process was
 * started for it), with its size in *n; NULL and 0 without coverage. It
 * stays as it is until x runs again. */
const uint8_t *mc_exec_map(const mc_exec_t *x, size_t *n);
/* Target processes started so far. */
uint64_t mc_exec_starts(const mc_exec_t *x);
/* The _meta members every request of x's sessions must carry when its
 * version is stateless (2026-07-28): the protocol version, the client
 * capabilities x declares and clientInfo, as a session stamps them. A new
 * object; NULL for a version with a handshake, or when out of memory. */
json_object *mc_exec_request_meta(const mc_exec_t *x);
/* The negotiated protocol version ("" before the first start). */
const char *mc_exec_version(const mc_exec_t *x);
/* The integer id offset the next sequence gets (0 right after a start). */
int64_t mc_exec_id_offset(const mc_exec_t *x);

/*
 * True when el (borrowed) is an answer element of a sequence:
 * {"answer": METHOD, "with": {result}} or {"answer": METHOD, "error":
 * {"code", "message"}}, no "method" member, exactly one of "with" and
 * "error", an object, no "${" in it (a scenario step would expand it). It
 * is not sent: from there to the end of the sequence
 * the client answers the server's METHOD requests so (as a scenario's
 * `answer` step does; other server requests get the default answers).
 */
int mc_exec_is_answer(json_object *el);

/* el (borrowed) as the executor sends it in the k-th sequence (from 0) of
 * a process: its id, a cancellation's requestId and a progress token the
 * generator made moved by k id strides. A sequence made of several, each
 * message so moved, sends the same lines to a fresh process as they did
 * one after the other. A new reference (to el itself when nothing moves). */
json_object *mc_exec_moved(json_object *el, uint64_t k);

/* The signature text for a sanitizer report or stderr tail: the signal or
 * error kind and the top frames of the first stack ("SEGV|f1|f2|f3"), or "". */
void mc_exec_tail_signature(const char *tail, char *out, size_t n);

#endif /* MC_CAMPAIGN_EXEC_H */
