/*
 * afl.h - a campaign's generator, executor and oracles under AFL++'s
 * scheduling (the mcpcheck-afl-driver program), and the way back from
 * AFL++'s crashes to the campaign's findings (`mcpcheck fuzz --import-afl`).
 *
 * AFL++ mutates bytes; the server needs MCP sequences. A session decodes
 * each test case into a sequence with the campaign's own grammar
 * (mc_afl_decode): a test case that is a JSON array of messages (a file of
 * a campaign's corpus/, say) is that sequence; any other is read as grammar
 * choices, MC_AFL_CHUNK bytes per element: the first byte picks what the
 * element is (a new message made by the generator from what the server
 * revealed, an answer element, or one round of the campaign's mutator over
 * the elements so far) and the chunk seeds the generator's choices for it.
 * AFL++'s byte mutations then change one element at a time, its splices move
 * elements between test cases, and its trimming drops them.
 *
 * What the generator knows is what the server revealed to the discovery
 * sequence of the session's first process (the campaign's own walk of the
 * four lists), and nothing later: a test case decodes to the same sequence
 * in every session of the same server, so that the import decodes a crash
 * as the driver that saved it did.
 *
 * mc_afl_run runs the sequence on the session's persistent process (one
 * executor, restarted only as exec.h says) with the campaign's oracles, and
 * confirms a finding on a fresh process of a twin executor, as a campaign
 * does: only a finding the test case shows by itself is reported (AFL++
 * replays a crash from its bytes alone).
 */
#ifndef MC_CAMPAIGN_AFL_H
#define MC_CAMPAIGN_AFL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "campaign/exec.h"
#include "client/process.h"
#include "core/error.h"
#include "schema/registry.h"

/* Bytes of a test case per element of the sequence it decodes to. */
#define MC_AFL_CHUNK 8
/* Chunks of a test case decoded at most (mutation rounds may keep a
 * sequence short while more chunks come). */
#define MC_AFL_MAX_CHUNKS 96
/* Bytes of a test case read at most (the rest is ignored). */
#define MC_AFL_MAX_INPUT (1u << 20)
/* Crash files an import reads at most. */
#define MC_AFL_MAX_CRASHES 4096
/* Fresh runs spent at most on confirming the findings of one test case. */
#define MC_AFL_CONFIRM_TRIES 2
/* Paths an import builds, in bytes. */
#define MC_AFL_PATH_LEN 4096

typedef struct mc_afl_opts {
    char *const *argv; /* the target command */
    const char *cwd;
    mc_rlimits_t limits;
    const char *version;     /* protocol version requested */
    mc_registry_t *registry; /* borrowed, or NULL */
    json_object *safe_tools; /* borrowed: tools that may be called, or NULL */
    int call_tools;          /* every tool may be called */
    int hang_ms;             /* 0 = MC_EXEC_HANG_MS */
    uint64_t mem_limit_mb;   /* 0 = no memory oracle */
    int restart_every;       /* 0 = MC_EXEC_RESTART_EVERY */
    int coverage;            /* offer the executor's AFL++ map to the target */
} mc_afl_opts_t;

typedef struct mc_afl mc_afl_t;

/*
 * Prepares a session: its executors and generator; starts the target and
 * runs the discovery sequence, from whose answers the generator learns.
 * opts is copied; what it points to must outlive the session. Returns MC_OK,
 * or an error (the target cannot be started or refuses the session prefix;
 * eb says why) with *out NULL.
 */
int mc_afl_new(mc_afl_t **out, const mc_afl_opts_t *opts, mc_errbuf_t *eb);

/* The sequence test case buf[0..len) decodes to (a new reference, NULL
 * only when out of memory); listen streams it opens are closed at its end,
 * as a campaign closes them. */
json_object *mc_afl_decode(mc_afl_t *a, const uint8_t *buf, size_t len);

/*
 * Decodes and runs test case buf[0..len) on the persistent process. Returns
 * 1 when it showed a finding that a fresh process shows again (*found gets
 * the first such), 0 when not, or a negative error when the target cannot
 * be started or refuses the session prefix (eb says why).
 */
int mc_afl_run(mc_afl_t *a, const uint8_t *buf, size_t len, mc_exec_finding_t *found,
               mc_errbuf_t *eb);

/* The coverage map as the target left it after the last sequence mc_afl_run
 * ran (its raw hit counts), with its size in *n; NULL and 0 without
 * coverage. */
const uint8_t *mc_afl_map(const mc_afl_t *a, size_t *n);

/* True when the target writes the coverage map. */
int mc_afl_instrumented(const mc_afl_t *a);

/* Stops the target processes and frees everything. */
void mc_afl_free(mc_afl_t *a);

/*
 * The crash files under dir, sorted by path: dir is an afl-fuzz output
 * directory (its instances' crashes/ folders, or the default instance's),
 * one instance's directory (its crashes/), or a crashes/ folder itself; a
 * crash file is one whose name starts with "id:". Fills *paths (caller
 * frees with mc_afl_paths_free) and *n. Returns MC_OK (possibly with none),
 * or MC_EIO when dir cannot be read, MC_ENOMEM, or MC_ELIMIT past
 * MC_AFL_MAX_CRASHES files.
 */
int mc_afl_crash_files(const char *dir, char ***paths, size_t *n, mc_errbuf_t *eb);
void mc_afl_paths_free(char **paths, size_t n);

/*
 * The crash files under dir (mc_afl_crash_files) decoded as the driver
 * decoded them, by a session of o's target (started for it and stopped
 * after): *seqs gets a new JSON array of their sequences, in the order of
 * their paths, and *files their number. Files that cannot be read are
 * skipped (*skipped counts them). Returns MC_OK (possibly with no file), or
 * an error of mc_afl_crash_files or mc_afl_new (eb says why).
 */
int mc_afl_import(const mc_afl_opts_t *o, const char *dir, json_object **seqs, size_t *files,
                  size_t *skipped, mc_errbuf_t *eb);

#endif /* MC_CAMPAIGN_AFL_H */
