/*
 * exec_internal.h - the executor's state, shared by its files; not a public
 * API (campaign/exec.h is).
 *
 * The executor is split by job:
 *   exec.c          the executor's life (new, free) and one run of a
 *                   sequence, composed of the jobs below;
 *   exec_target.c   the target process or HTTP session: start, the session
 *                   prefix, stop, the liveness ping, death and memory;
 *   exec_feed.c     sending a sequence: ids moved per sequence, ids sent
 *                   twice, answers due, cancellations, the client's answers
 *                   to the server's requests, waiting for the answers;
 *   exec_ahead.c    ids and tokens moved per sequence; what of the next
 *                   sequence may be sent ahead of the answers to this one;
 *   exec_barrier.c  over stdio, the end of a sequence: the ping barrier,
 *                   the request shapes known to be dropped;
 *   exec_observe.c  every line in either direction: the trace, the response
 *                   state model, what the generator learns, which requests
 *                   were answered;
 *   exec_verdict.c  findings: the judge's and the transport's, filtered for
 *                   what the client itself got wrong, hangs, signatures;
 *   exec_cov.c      the AFL++ shared-memory coverage map.
 */
#ifndef MC_CAMPAIGN_EXEC_INTERNAL_H
#define MC_CAMPAIGN_EXEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "campaign/exec.h"
#include "client/http.h"
#include "client/httptarget.h"
#include "client/session.h"
#include "client/stdio.h"
#include "judge/judge.h"

/* Grace periods when a target is restarted (it is ours, not the user's). */
#define MC__EXEC_STOP_STDIN_GRACE_MS 300
#define MC__EXEC_STOP_TERM_GRACE_MS 300
/* Barriers sent at most at the end of a sequence while requests are
 * unanswered (a server answering out of turn gets that many round trips). */
#define MC__EXEC_BARRIER_ROUNDS 3
/* Frames handled in one go between sends, and while settling. */
#define MC__EXEC_MAX_READY_FRAMES 256
/* Expected answers tracked per sequence: one per element at most. */
#define MC__EXEC_MAX_EXPECTED MC_EXEC_MAX_ELEMS
/* Slots of the table of ids and progress tokens sent in a process (a
 * power of two; half of it is used), the bytes of their texts kept, and
 * the longest text kept (the generator's long strings are 4,096). */
#define MC__EXEC_MAX_IDS 16384
#define MC__EXEC_ID_TEXT_BYTES (1u << 20)
#define MC__EXEC_MAX_ID_TEXT 8192
/* A buffer for "token:" and a token's text, one byte past the longest kept. */
#define MC__EXEC_TOKEN_BUF (MC__EXEC_MAX_ID_TEXT + 16)
/* Keys of the id table (exec_ids.c) that name no entry. */
#define MC__EXEC_KEY_NONE 0u           /* no id at all */
#define MC__EXEC_KEY_UNSENT 0xfffffffeu /* an id the process was never sent */
#define MC__EXEC_KEY_UNKEPT 0xffffffffu /* a text the table could not keep: doubtful */
/* Ids sent twice that one sequence keeps apart; past that, no response of
 * the sequence is judged. */
#define MC__EXEC_MAX_DUP_IDS 64
/* Edges new in one sequence that a fresh run is asked to confirm at most;
 * past it the sequence's new edges are all taken as they are. */
#define MC__EXEC_MAX_NEWLY 4096
/* Answers to ids of no request of the sequence, remembered for the
 * sequence sent ahead (a server answering it before the barrier before it). */
#define MC__EXEC_MAX_UNCLAIMED MC__EXEC_MAX_EXPECTED

/* Ids and progress tokens that stay doubtful for the rest of a process
 * (sent twice, or a token past what the judge can follow); past that,
 * no response or progress of the process is paired any more. */
#define MC__EXEC_MAX_DOUBT 1024

/* A text of the id table: where it is in the table's bytes. */
typedef struct mc__exec_id_entry {
    uint32_t hash, off, len;
} mc__exec_id_entry_t;

/* A request of the sequence whose answer is due. */
typedef struct mc__exec_expected {
    char id[64];  /* compact JSON of the id as sent, cut: for what a finding says */
    uint32_t key; /* the id's key in the process's id table */
    size_t elem;  /* sequence element that sent it */
    int answered;
    int cancelled;
    int held;     /* outstanding when the client answered a server request in a
                     line the server cannot read: it may wait for that answer;
                     or a stream */
    int stream;   /* a subscriptions/listen request: answered only when its
                     stream ends (held too) */
    uint32_t shape; /* mc__exec_shape of the request as sent */
    int tool;       /* a tools/call: a request the server may work on a while (log,
                       report progress, ask the client) before it answers */
} mc__exec_expected_t;

/* What an inbound line was, kept to name the method of a wire finding. */
typedef struct mc__exec_inline {
    uint64_t seq;
    int response; /* a result or error */
    uint32_t idk; /* a response's id's key in the id table (MC__EXEC_KEY_UNSENT: an id
                     never sent), MC__EXEC_KEY_NONE without one */
    uint32_t tokk; /* a progress notification's token's key, else MC__EXEC_KEY_NONE */
    char method[64];
} mc__exec_inline_t;

struct mc_exec {
    mc_exec_opts_t o;
    json_object *client_caps;
    char **envp;
    mc_stdio_t t;
    mc_stdio_t spare;      /* over stdio with opts.spare: the next process, started */
    int spare_on;
    uint64_t seqs_run;     /* sequences run by this executor, over every process */
    mc_http_t *http;       /* over Streamable HTTP: the session's transport */
    mc_http_target_t ht;   /* over HTTP: the server this executor started */
    int ht_on;
    char url[512];         /* over HTTP: the endpoint in use */
    int running;
    int t_inited;
    mc_session_t s;
    int sess_ok;
    mc_judge_t j;          /* judges every line of the current process's session */
    int wire_ok;
    char version[32];
    uint64_t seqs_in_proc;
    uint64_t starts;
    int64_t t0;
    /* per sequence */
    mc_exec_outcome_t *cur;
    int record;
    size_t trace_cap;
    uint64_t seq_ctr;
    mc__exec_inline_t *inl;
    size_t inl_n;
    uint32_t prev_state;
    mc__exec_expected_t exp[MC__EXEC_MAX_EXPECTED];
    size_t n_exp;
    json_object *cancels[MC__EXEC_MAX_EXPECTED]; /* the ids this sequence's cancellations
                                                    name (references; NULL: none) */
    size_t n_cancel;
    int64_t last_heard;
    int cur_elem; /* the sequence element sent last, -1 before the first */
    /* The ids and progress tokens sent in this process, by their text
     * (exec_ids.c): slots holding entry numbers from 1, the entries, and
     * the bytes of the texts. */
    uint32_t *ids;
    mc__exec_id_entry_t *id_ent;
    char *id_text;
    size_t n_ids, id_text_len;
    int ids_full;  /* a text could not be kept: one not found may have been sent */
    int reused;    /* this sequence sent an id used before in the process, or a
                      line that is not UTF-8: responses are not judged */
    int reused_all; /* of those, a cause that makes every response doubtful (a
                      line not UTF-8, a batch); else only the ids in dups are */
    uint32_t dups[MC__EXEC_MAX_DUP_IDS]; /* keys of the ids this sequence sent again */
    size_t n_dups;
    json_object *answers; /* this sequence's answers: method -> answer element */
    int long_id;   /* this sequence sent an id past MC_HTTP_MAX_REQ_ID (unpaired over HTTP) */
    int reinit;    /* initialize was sent again in this process: what was negotiated
                      is anyone's guess, capability checks are not judged */
    /* Per process: the ids and progress tokens that can no longer be paired
     * with one request (hashes as in mc__exec_inline_t), in whichever later
     * sequence a message about them arrives (their keys). */
    uint32_t doubt[MC__EXEC_MAX_DOUBT];
    size_t n_doubt;
    int doubt_all;  /* the set overflowed: nothing is paired any more */
    size_t n_tokens; /* distinct progress tokens sent in the process */
    /* The first MC_WIRE_MAX_TOKENS of them (those the judge follows): the
     * key of the id of the request that carried each, and its own key. When
     * that id turns out to be sent twice, the judge may have paired another
     * request's answer with it and ended the token early. */
    uint32_t tok_id[MC_WIRE_MAX_TOKENS];
    uint32_t tok_key[MC_WIRE_MAX_TOKENS];
    /* coverage */
    int shm_id;
    uint8_t *map;
    uint8_t *virgin;
    size_t map_size;
    size_t cov_total;
    int instrumented;
    uint8_t *credited;     /* entries owed to an element of the current sequence */
    uint32_t *newly;       /* entries the last read found hit for the first time */
    size_t n_newly;
    int newly_over;        /* the last read found more than MC__EXEC_MAX_NEWLY */
    uint32_t *hits;        /* sequences that hit each entry (read ones; saturating) */
    uint32_t lit[MC_EXEC_MAX_LIT]; /* the last sequence's new entries that stood */
    size_t n_lit;
    int confirming;        /* this run checks the last one's new edges: the map is
                              compared with them, not read into what was ever seen */
    int lockstep;          /* this sequence waits for each answer and reads the map after it */
    /* the barrier (over stdio: a ping after each sequence) */
    mc_exec_dropped_t dropped_own; /* the table of dropped shapes without a shared one */
    mc_exec_dropped_t *dropped;    /* the table in use */
    int fresh_run;         /* this sequence runs on a process started for it (a confirmation) */
    int barrier_off;       /* the target left a barrier unanswered: settle windows from then on */
    int barrier_sending;   /* the line being sent is the barrier */
    int barrier_answered;  /* the barrier of this sequence was answered */
    int waited_out;        /* the requests left unanswered were waited for the whole hang budget */
    int chatter;           /* the server wrote a notification or request during this sequence */
    uint64_t barriers;     /* barriers sent in this executor (their ids) */
    char barrier_id[48];   /* compact JSON of the barrier's id */
    uint32_t late_watch[MC_EXEC_MAX_LATE_WATCH]; /* keys of ids dropped at a barrier */
    uint32_t late_shape[MC_EXEC_MAX_LATE_WATCH]; /* and the shapes of their requests */
    size_t n_late_watch;
    /* pipelining (over stdio, with the barrier): the sequence sent ahead,
     * right after the barrier of the one before, before its answer came */
    json_object *ahead;    /* the sequence sent ahead (a reference), or NULL */
    uint64_t ahead_start;  /* x->starts when it was sent: the process it went to */
    size_t ahead_n;        /* its elements sent ahead (from the first) */
    uint64_t ahead_lines;  /* lines of it sent */
    size_t pre_n;          /* in the run of the sequence sent ahead: its elements sent so */
    int presending;        /* the lines being sent are the next sequence's */
    int pipe_off;          /* no more sequences are sent ahead by this executor */
    int proc_chatter;      /* the process wrote a notification or request of its own */
    char unclaimed[MC__EXEC_MAX_UNCLAIMED][64]; /* ids of answers no request of the
                                                   sequence had (compact JSON) */
    size_t n_unclaimed;
    mc_exec_counters_t cnt;
};

/* --- exec_ids.c ----------------------------------------------------------- */

/* Allocates the id table (0), or -1 when out of memory (what was made is
 * left for mc__exec_ids_free). */
int mc__exec_ids_init(mc_exec_t *x);
void mc__exec_ids_free(mc_exec_t *x);
/* Forgets every id and token (a new process). */
void mc__exec_ids_reset(mc_exec_t *x);

/* The key of text (an id's compact JSON, or "token:" and a token's): its
 * entry, MC__EXEC_KEY_UNSENT when the process was not sent it, or
 * MC__EXEC_KEY_UNKEPT when that cannot be told. */
uint32_t mc__exec_key_of(const mc_exec_t *x, const char *text);

/* Adds text to the table; its key, with *seen 1 when it was there (or
 * could not be kept: MC__EXEC_KEY_UNKEPT). */
uint32_t mc__exec_key_add(mc_exec_t *x, const char *text, int *seen);

/* The text ids are compared by (compact JSON; "null" for NULL): borrowed,
 * valid until id is written out again or released. */
const char *mc__exec_id_text(json_object *id);

/* The key of progress token tok ("token:" and its text), found or added. */
uint32_t mc__exec_token_find(const mc_exec_t *x, json_object *tok);
uint32_t mc__exec_token_add(mc_exec_t *x, json_object *tok, int *seen);

/* True when key names an entry of the table (an id or token sent). */
static inline int mc__exec_key_real(uint32_t key)
{
    return key != MC__EXEC_KEY_NONE && key != MC__EXEC_KEY_UNSENT && key != MC__EXEC_KEY_UNKEPT;
}

/* --- exec_observe.c ------------------------------------------------------- */

/* FNV-1a of the string s folded into h (0 starts a new hash); never 0 for
 * a non-empty input in practice, and the callers map 0 away. */
uint32_t mc__exec_hash(uint32_t h, const char *s);

/* Compact JSON of v ("null" for NULL) into out, cut to n bytes. */
void mc__exec_compact(json_object *v, char *out, size_t n);

/* The session's observer: records each line (trace, counts, state model,
 * what the generator learns, answered requests). ctx is the executor. */
void mc__exec_observe(void *ctx, const mc_seen_t *seen);

/* The record of inbound line seq, or NULL when it is no longer held. */
const mc__exec_inline_t *mc__exec_inline_of_seq(const mc_exec_t *x, uint64_t seq);

/* --- exec_feed.c ---------------------------------------------------------- */

/* The session's responder: answers a server request as the sequence's
 * answer elements say, by default as a scenario's client does. */
void mc__exec_respond(void *ctx, mc_session_t *s, const mc_msg_t *request, mc_reply_t *reply);

/* Forgets what the sequence before sent (expected answers, cancellations,
 * ids sent twice, answer elements). */
void mc__exec_feed_reset(mc_exec_t *x);

/* Counts a wait that began at began and spent the hang budget. */
void mc__exec_count_hang_wait(mc_exec_t *x, int64_t began);

/* Forgets what the process before sent (ids, progress tokens, doubts). */
void mc__exec_feed_reset_process(mc_exec_t *x);

/* True when key (an id's or a token's) is doubtful in this process. */
int mc__exec_doubtful(const mc_exec_t *x, uint32_t key);

/* What sending one element came to. */
typedef enum mc__exec_fed {
    MC__EXEC_FED_OK = 0, /* sent, or not to be sent */
    MC__EXEC_FED_DEAD,   /* the target's input or output has closed */
    MC__EXEC_FED_STUCK   /* the target stopped reading its input (a hang finding is made) */
} mc__exec_fed_t;

/* Sends element i of seq (ids moved by off) and handles what is ready to
 * be read at once. Answer elements and tools the user did not allow are
 * not sent. An element below x->pre_n was sent ahead: what it makes due is
 * noted, nothing is sent or read. */
mc__exec_fed_t mc__exec_feed_element(mc_exec_t *x, json_object *seq, size_t i, int64_t off);

/* Requests of the sequence whose answer is due and has not come. */
size_t mc__exec_outstanding(const mc_exec_t *x);

/* Waits for every answer due as long as the server keeps talking (within
 * the hang budget of silence), then lets what follows settle. Returns 1
 * when the target's output ended meanwhile. */
int mc__exec_await(mc_exec_t *x);

/* True when s is valid UTF-8 (no overlongs, surrogates or code points
 * past U+10FFFF). */
int mc__exec_utf8_ok(const char *s);

/* True when el is a request whose envelope makes an answer due. */
int mc__exec_answer_due(json_object *el);

/* True when msg is a tools/call naming a tool the user did not allow. */
int mc__exec_forbidden_call(const mc_exec_t *x, json_object *msg);

/* --- exec_ahead.c --------------------------------------------------------- */

/* The progress token of a message (borrowed), or NULL. */
json_object *mc__exec_token_of(json_object *msg);

/* el with its id (or a cancellation's requestId) and a generated progress
 * token moved by off (see mc_exec_moved): a new reference, to el itself
 * when nothing moves. */
json_object *mc__exec_offset_ids(json_object *el, int64_t off);

/* True when seq may be sent ahead with its ids moved by off: every element
 * an answer element or a request (valid envelope, UTF-8 line) whose sending
 * changes nothing the judge holds earlier messages to (no initialize,
 * logging/setLevel, subscriptions, listen streams, notifications), each id
 * and progress token new to the process and to the sequence. */
int mc__exec_pipeable(const mc_exec_t *x, json_object *seq, int64_t off);

/* Sends the lines of seq (ids moved by off) ahead, without noting anything
 * of them or reading: their answers wait in the transport's queue, behind
 * the barrier sent before them. Sets x->ahead_n and x->ahead_lines.
 * Returns 0 when a line could not be sent. */
int mc__exec_presend(mc_exec_t *x, json_object *seq, int64_t off);

/* Remembers (once per sequence, up to MC__EXEC_MAX_UNCLAIMED) the id of an
 * answer no request of the sequence had; the sequence sent ahead takes it
 * as its own answer. */
void mc__exec_unclaimed_add(mc_exec_t *x, const char *id);

/* --- exec_barrier.c ------------------------------------------------------- */

/* The shape of request msg (borrowed): its method, its members and their
 * JSON types, and those of its params; what tells one kind of malformed
 * request from another. Never 0. */
uint32_t mc__exec_shape(json_object *msg);

/* True when shape is known to be dropped by the target. */
int mc__exec_known_dropped(const mc_exec_t *x, uint32_t shape);

/* Notes that a request of this shape was answered after the barrier that
 * followed it (the target answers out of order): requests of the shape
 * left unanswered at a barrier are waited for from then on. */
void mc__exec_note_late(mc_exec_t *x, uint32_t shape);

/*
 * Over stdio, ends a sequence with a ping (server/discover at a stateless
 * version) and waits for its answer, within the hang budget of silence:
 * a server that answers in order has then answered or dropped everything
 * sent before. A request still unanswered is dropped at once when its
 * shape is known to be dropped, or on a persistent process that shows no
 * sign of working on it (the campaign confirms it on a fresh one). It is
 * waited for the whole hang budget first (as mc__exec_await does) on a
 * fresh process; a tool call, when the server wrote a notification or a
 * request of its own during the sequence (progress, a log line, a sampling
 * request: work under way); or when it was seen to answer a request of the
 * same shape
 * after a later ping; a shape left unanswered then is known from there on. A barrier left unanswered
 * turns it off for the executor (x->barrier_off). Returns as
 * mc__exec_feed_element.
 */
mc__exec_fed_t mc__exec_barrier(mc_exec_t *x, json_object *ahead, int64_t ahead_off);

/* --- exec_target.c -------------------------------------------------------- */

/* Starts the target and its session, through the session prefix. Returns
 * MC_OK, MC_ESPAWN / MC_ENOMEM (harness failures), MC_EPROTO (refused),
 * MC_ETIMEOUT (initialize unanswered) or another error (it died). */
int mc__exec_start(mc_exec_t *x, mc_errbuf_t *eb);

/* Stops the spare process, if one runs. */
void mc__exec_stop_spare(mc_exec_t *x);

/* Takes (and frees) the notifications the session queued. */
void mc__exec_drain_notes(mc_exec_t *x);

/* One slice of a wait bounded by the hang budget of silence (since
 * x->last_heard) and by four budgets in all (since began): polls the target
 * once and drains its notes. Returns MC_OK to wait on, MC_ETIMEOUT when the
 * budget is spent, MC_EEOF when the target's output ended. */
int mc__exec_wait_slice(mc_exec_t *x, int64_t began);

/* Pings the target with an id of the harness's own; 1 when it answers
 * within the hang budget. */
int mc__exec_alive(mc_exec_t *x);

/* The liveness request with id idtext: a ping, or at a stateless version
 * server/discover with the per-request _meta. A new object, or NULL when
 * out of memory. */
json_object *mc__exec_ping_request(const mc_exec_t *x, const char *idtext);

/* True when the target's output ended or its process (or HTTP endpoint)
 * is gone. */
int mc__exec_gone(mc_exec_t *x);

/* Adds the finding of the target's death (crash with its signature, or
 * exit) to out, the stderr tail included; doing says what was under way. */
void mc__exec_note_death(mc_exec_t *x, mc_exec_outcome_t *out, const char *doing);

/* Adds a process/memory finding and stops the target when it has grown
 * past the memory limit. */
void mc__exec_check_memory(mc_exec_t *x, mc_exec_outcome_t *out);

/* --- exec_verdict.c ------------------------------------------------------- */

/* Adds a finding to o unless its signature (check|method|sigextra) is
 * there already or o is full. */
void mc__exec_add_finding(mc_exec_outcome_t *o, mc_find_kind_t kind, const char *check,
                          const char *method, const char *sigextra, const char *detail);

/* Adds the findings of the judge from its n0-th on, and those of the HTTP
 * transport, leaving out what the client itself made doubtful. */
void mc__exec_collect_findings(mc_exec_t *x, size_t n0, mc_exec_outcome_t *out);

/* Adds a process/hang finding for the first request of seq left
 * unanswered. */
void mc__exec_note_hang(mc_exec_t *x, json_object *seq, mc_exec_outcome_t *out);

/* --- exec_cov.c ----------------------------------------------------------- */

/* Creates and attaches the map and the target's environment naming it.
 * Returns MC_OK, MC_EIO or MC_ENOMEM (eb says why); on error what was made
 * is left for mc__exec_cov_close. */
int mc__exec_cov_open(mc_exec_t *x, mc_errbuf_t *eb);

/* Detaches the map and frees the environment. */
void mc__exec_cov_close(mc_exec_t *x);

/* Zeroes the map (before a sequence). */
void mc__exec_cov_clear(mc_exec_t *x);

/* Reads the map after a sequence: returns the entries with new bits and
 * adds to *edges those hit for the first time. */
size_t mc__exec_cov_read(mc_exec_t *x, size_t *edges);

/* Owes to element elem of the current sequence the edges hit for the first
 * time that no earlier element of it is owed (the map is not otherwise
 * changed; mc__exec_cov_read still counts them). Returns their number. */
size_t mc__exec_cov_credit(mc_exec_t *x, int elem);

/* After a fresh run of what the last read found new edges in (fresh: the
 * map that run wrote, x's own or a twin's of the same size): keeps as
 * seen those fresh shows again and makes the others new again; with
 * all_new (no fresh run, fresh unread), makes them all new again. Returns
 * the edges kept. When the last read found more than MC__EXEC_MAX_NEWLY,
 * all are kept (even with all_new: the rest are not known). */
size_t mc__exec_cov_confirm(mc_exec_t *x, const uint8_t *fresh, int all_new);

#endif /* MC_CAMPAIGN_EXEC_INTERNAL_H */
