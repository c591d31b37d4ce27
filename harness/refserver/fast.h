/*
 * fast.h - the one door to the reference server's performance machinery.
 *
 * The handlers (lifecycle.c, resources.c, prompts.c, tools.c, ...) build
 * every answer as json_objects, the way the spec describes it, and send it
 * through server.c's output helpers. Four pieces make that cheap, and they
 * are fenced off behind the functions below:
 *
 *   decode.c     an inbound line parsed and classified with the outcome of
 *                core's mc_msg_decode(), without a tokener per line
 *   textout.c    an outbound message written as text, byte for byte what
 *                json-c writes for the json_object envelope
 *   respcache.c  result bodies kept per (list, page, revision, version),
 *                and a cache shared read-only between sessions
 *   clone.c      a session copied from a template (mc_refserver_clone)
 *
 * The contract of every mc__rs_fast_* call: it either does exactly what the
 * plain code that follows it at the call site would do (the same bytes go
 * out, the same state changes), or it does nothing and returns 0. Skipping
 * a fast call is therefore never wrong, only slower: to trust the server,
 * read the plain path after each call. The machinery stands aside whenever
 * a violation switch is on, a batch is being collected, a message is to be
 * pretty-printed or a request is served statelessly (2026-07-28), so the
 * switches are always exercised on the plain path.
 *
 * Only the files listed above include refserver/fastimpl.h, the machinery's
 * own header; everything else uses this one.
 */
#ifndef MC_REFSERVER_FAST_H
#define MC_REFSERVER_FAST_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/jsonrpc.h"
#include "refserver/inject.h"
#include "refserver/refserver.h"

/* ---- state the session object embeds (the machinery's own) ---- */

/* What a cached result body was built for. Two bodies with equal keys are
 * the same bytes. */
typedef struct rs_body_key {
    uint32_t what;    /* a list tag (rs_list_t), or RS_BODY_READ / RS_BODY_INIT */
    uint32_t pos;     /* the page's first item, or the fixture's index */
    uint32_t rev;     /* the list's revision (0 for reads) */
    uint32_t version; /* the negotiated version (mc_version_id_t) */
} rs_body_key_t;

/* Tags below this are lists (indexes of list_rev and page_cache). */
#define RS_BODY_LISTS 5
#define RS_BODY_READ 5 /* a fixed fixture's resources/read result (pos: its index) */
#define RS_BODY_INIT 6 /* the initialize result (pos 0) */

/* One cached result body: the compact JSON of a result member. */
typedef struct rs_body {
    char *text; /* NUL-terminated; NULL when the slot is empty */
    size_t len;
    rs_body_key_t key; /* meaningful only when text != NULL */
} rs_body_t;

/* A shared, read-only set of bodies (refserver.h, mc_refserver_cache_new):
 * open addressing by key, built for one set of options. */
struct mc_refserver_cache {
    int page_size;
    int extra;
    rs_bug_t bug;
    rs_body_t *slots; /* cap slots; text == NULL marks a free one */
    size_t cap, n;
};

/* ---- the door ---- */

/* Parses and classifies one inbound line, with the outcome of core's
 * mc_msg_decode(). Always fills *msg; release it with mc_msg_free(). */
void mc__rs_fast_decode(mc_refserver_t *rs, const char *line, size_t len, mc_msg_t *msg);

/* What mc__rs_fast_send() writes. */
typedef enum rs_fast_kind {
    RS_FAST_RESULT,    /* {"jsonrpc","id","result":body} (body NULL: {}) */
    RS_FAST_EMPTY,     /* the result {} to id, once a version is negotiated (ping) */
    RS_FAST_TOOL_TEXT, /* result {"content":[{"type":"text","text":text}]}
                          (with "isError":true when is_error) */
    RS_FAST_ERROR,     /* {"jsonrpc","id","error":{code, message: text, data: body}};
                          id may be NULL (null), body may be NULL (absent) */
    RS_FAST_NOTIFY,    /* {"jsonrpc","method","params": body} (body may be NULL) */
    RS_FAST_REQUEST,   /* the same with "id": out_id */
    RS_FAST_LOG        /* notifications/message {level, logger (when not NULL),
                          data: body, or {"message": text} when body is NULL} */
} rs_fast_kind_t;

/* One outbound message, described member by member. Everything is
 * borrowed: the caller releases what it owns whatever the answer. */
typedef struct rs_fast_msg {
    rs_fast_kind_t kind;
    json_object *id;     /* the response's id */
    int64_t out_id;      /* a server->client request's id */
    const char *method;  /* a notification's or request's method */
    json_object *body;   /* result, params or data */
    const char *text;    /* tool text, error message or log message */
    int code;            /* an error's code */
    int is_error;        /* a tool result's isError */
    const char *level;   /* a log message's level */
    const char *logger;  /* a log message's logger, or NULL */
} rs_fast_msg_t;

/* Writes m as text. Returns 1 when the message went out (or memory ran out:
 * rs->failed is then set), 0 when the caller must build it as json_objects. */
int mc__rs_fast_send(mc_refserver_t *rs, const rs_fast_msg_t *m);

/* Answers id from the body kept for (what, pos) in the session's current
 * state (what: a list tag, RS_BODY_READ or RS_BODY_INIT), here or in the
 * shared cache. Returns 1 when the response went out, 0 when the caller
 * must build the result and answer with mc__rs_fast_keep(). */
int mc__rs_fast_replay(mc_refserver_t *rs, uint32_t what, size_t pos, json_object *id);

/* Answers id with result as mc__rs_result() does and, when bodies may be
 * kept now, keeps its encoding for (what, pos). result is consumed. */
void mc__rs_fast_keep(mc_refserver_t *rs, uint32_t what, size_t pos, json_object *id,
                      json_object *result);

/* What list `what` holds has changed: the bodies kept for it are dropped.
 * Every change to a paginated list must call this. */
void mc__rs_fast_list_changed(mc_refserver_t *rs, uint32_t what);

/* Frees what the machinery holds in a session (kept bodies, the tokener). */
void mc__rs_fast_free(mc_refserver_t *rs);

#endif /* MC_REFSERVER_FAST_H */
