/*
 * refserver_session.h - what the files of the refserver_session fuzz target
 * share: refserver_session_fuzzer.c (the oracle, the sessions and the entry
 * points), refserver_session_read.c (hashing, ids, and the scanner that
 * reads what is fed) and refserver_session_script.c (the start-up script
 * that builds the template and the known set). Private to the target.
 */
#ifndef MC_FUZZ_REFSERVER_SESSION_H
#define MC_FUZZ_REFSERVER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common.h"
#include "core/hash.h"
#include "refserver/refserver.h"

#define MAX_IDS (MC_FUZZ_MAX_LINES + 2)
#define METHOD_CAP 64

#define FNV_INIT MC_FNV1A64_INIT

/* ---- per input ---- */

typedef struct fed_id {
    uint64_t key; /* hash of the id's compact JSON */
    char method[METHOD_CAP];
} fed_id_t;

typedef struct sess {
    mc_refserver_t *rs;
    json_tokener *tok; /* made when a line needs json-c; reset between lines */
    int record;        /* start-up script: keep what passes in the known set */
    char *capture;     /* start-up script: what the server wrote, for the script */
    size_t capture_len, capture_cap;
    fed_id_t ids[MAX_IDS];
    size_t n_ids;
} sess_t;

/* ---- refserver_session_read.c ---- */

/* A 64-bit FNV-1a hash of s[0..n), folded into h (FNV_INIT starts). */
uint64_t mc__rss_fnv(const char *s, size_t n, uint64_t h);

/* A key for the version the server speaks (24 bits). */
int mc__rss_version_key(const mc_refserver_t *rs);

/* The string member key of o, or NULL. Borrowed. */
const char *mc__rss_get_str(json_object *o, const char *key);

/* 1 when a[0..n) and b[0..n) are the same bytes. */
int mc__rss_same_bytes(const char *a, const char *b, size_t n);

/* 1 when a and b are the same string (both may be NULL). */
int mc__rss_same_str(const char *a, const char *b);

/* The key of an id from its compact JSON text s[0..n), or from the value. */
uint64_t mc__rss_id_key_text(const char *s, size_t n);
uint64_t mc__rss_id_key(json_object *id);

/* Parses one line with the session's tokener (strict or lenient); *ok is 1
 * when it parsed. A new reference, or NULL (JSON null or no parse). */
json_object *mc__rss_parse_line(sess_t *ss, const char *line, size_t len, int strict, int *ok);

/* Adds the requests of one fed line to the session's id -> method map. */
void mc__rss_note_line(sess_t *ss, const char *line, size_t len);

/* 1 when the line is an initialize request. */
int mc__rss_is_initialize(sess_t *ss, const char *line, size_t len);

/* ---- refserver_session_fuzzer.c ---- */

/* Starts a session: a clone of the template, or a fresh server when fresh
 * (or there is no template yet). Aborts when no server can be made. */
int mc__rss_sess_open(sess_t *ss, int fresh);

/* Frees the session's server, tokener and capture. */
void mc__rss_sess_close(sess_t *ss);

/* Feeds one line (without its newline or a trailing CR) to the server. */
int mc__rss_feed(sess_t *ss, const char *line, size_t len, int64_t now);

/* Runs the timers that are due until none is left (at most 64 rounds). */
int mc__rss_run_timers(sess_t *ss, int64_t *now);

/* ---- refserver_session_script.c ---- */

/* Records one session of the start-up script into the known set: a fresh
 * server initialized with version and caps (version NULL: the template
 * clone; "": no initialize at all). */
void mc__rss_script_session(const char *version, const char *caps);

/* The template: a server after the handshake, run through the full oracle.
 * Aborts when the handshake fails. */
mc_refserver_t *mc__rss_make_template(void);

#endif /* MC_FUZZ_REFSERVER_SESSION_H */
