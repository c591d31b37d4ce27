/*
 * scenario.h - a scenario file, loaded and checked.
 *
 * A scenario is one JSONC file, scenarios/<area>/<name>.jsonc; its id is the
 * path below scenarios/ without the extension. The file says which spec
 * requirements it holds the server to, what it needs of the server
 * (capabilities, protocol versions, profile roles), how the client
 * initializes and answers server requests, and the steps to run. The format
 * is documented in scenarios/README.md; mc_scenario_load() checks all of it
 * (unknown fields, step kinds and matchers, undefined variables, undeclared
 * checks) and reports problems as "file:line:column: message".
 */
#ifndef MC_SCENARIO_SCENARIO_H
#define MC_SCENARIO_SCENARIO_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"
#include "scenario/jsonc.h"

/* Problems reported per file by the linter before it stops listing them. */
#define MC_SCENARIO_MAX_PROBLEMS 50
/* Steps a scenario may have, nested steps included. */
#define MC_SCENARIO_MAX_STEPS 512

/*
 * The level of a check is the RFC 2119 keyword of the sentence it quotes:
 * MUST (MUST, MUST NOT, REQUIRED, SHALL), SHOULD (SHOULD, SHOULD NOT,
 * RECOMMENDED), MAY (MAY, OPTIONAL), or INFO for a sentence without an
 * upper-case keyword (an example, a table row, descriptive prose).
 */
typedef enum mc_level { MC_LEVEL_MUST = 0, MC_LEVEL_SHOULD, MC_LEVEL_MAY, MC_LEVEL_INFO } mc_level_t;

/* "MUST", "SHOULD", "MAY", "INFO". */
const char *mc_level_name(mc_level_t level);
/* Parses a level name; returns 0 on success, -1 (and *out untouched) otherwise. */
int mc_level_parse(const char *s, mc_level_t *out);

/* Protocol versions a check may name in its refs. */
#define MC_CHECK_MAX_REFS 8
/* Bytes of a quote, an interpretation or a "page#anchor". */
#define MC_CHECK_MAX_QUOTE 2048
#define MC_CHECK_MAX_INTERPRETATION 4096
#define MC_CHECK_MAX_PAGE 256

/* Where a check's sentence stands at one protocol version. */
typedef struct mc_check_ref {
    const char *version; /* "2025-06-18" */
    const char *page;    /* "basic/utilities/progress#progress-flow" (no version prefix) */
    const char *quote;   /* the wording at this version, or NULL: the check's quote */
} mc_check_ref_t;

/*
 * One check: a stable id, the level of its quoted sentence, the sentence
 * itself (verbatim from the spec), where it stands per version, and the
 * harness's own reading kept apart (NULL when the quote says it all).
 * Scenario checks borrow their strings from the scenario document; the
 * built-in ones are static.
 */
typedef struct mc_check_def {
    const char *check;          /* check id, e.g. "resources/read/not-found" */
    mc_level_t level;
    const char *quote;          /* the spec sentence, verbatim */
    const char *interpretation; /* the harness's reading, or NULL */
    mc_check_ref_t refs[MC_CHECK_MAX_REFS]; /* version order; ends at version == NULL */
    int legacy;                 /* declared as {ref, text}: the text is not a checked quote */
} mc_check_def_t;

/* A requirement a scenario declares in "spec" is a check definition. */
typedef mc_check_def_t mc_requirement_t;

/*
 * The ref of d for version: the exact one when d names it, else the one of
 * the nearest earlier version it names, else its first. NULL when d has no
 * refs at all.
 */
const mc_check_ref_t *mc_check_ref_for(const mc_check_def_t *d, const char *version);

/* The quote of d at version (quotes[version] where given). Never NULL. */
const char *mc_check_quote_for(const mc_check_def_t *d, const char *version);

/*
 * Writes "VERSION/page#anchor" of the ref mc_check_ref_for() picks into buf
 * (empty when there is none). Returns the length written (truncated to n-1).
 */
size_t mc_check_ref_string(const mc_check_def_t *d, const char *version, char *buf, size_t n);

typedef struct mc_scenario {
    char *id;               /* "resources/read-not-found" */
    char *area;             /* "resources" */
    mc_jsonc_doc_t doc;     /* the file, with positions */
    const char *title;      /* borrowed from doc */
    mc_requirement_t *reqs; /* owned array */
    size_t n_reqs;
    const char *min_version; /* inclusive bound or NULL (borrowed) */
    const char *max_version;
    json_object *requires_caps;   /* borrowed: array of dotted capability paths, or NULL */
    char **roles;                 /* owned: roles the scenario needs (declared + used) */
    size_t n_roles;
    json_object *client_caps;     /* borrowed: client capabilities, or NULL ({}) */
    json_object *answers;         /* borrowed: method -> answer, or NULL */
    const char *client_version;   /* borrowed: version to request instead of the run's */
    int manual_init;              /* the steps run the lifecycle themselves */
    json_object *steps;           /* borrowed: the steps array */
    char *warnings;               /* owned: "file:line:col: warning: ..." lines, or NULL */
} mc_scenario_t;

/*
 * Reads and checks a scenario. id is derived from path relative to root
 * (the scenarios folder; NULL = the file name without extension).
 * On success *sc is filled and MC_OK returned. Problems are appended to
 * problems (one "file:line:col: message" per line, at most
 * MC_SCENARIO_MAX_PROBLEMS) and MC_EINVAL returned; sc is then untouched.
 * What loads but should be changed (a legacy {ref, text} requirement) goes
 * to sc->warnings, which `mcpcheck lint` prints.
 */
int mc_scenario_load(const char *path, const char *root, mc_scenario_t *sc, char **problems,
                     mc_errbuf_t *eb);

/* Frees what mc_scenario_load() filled. */
void mc_scenario_free(mc_scenario_t *sc);

/* The requirement backing a check id, or NULL. */
const mc_requirement_t *mc_scenario_requirement(const mc_scenario_t *sc, const char *check);

/* True when version lies in the scenario's version range. */
int mc_scenario_applies(const mc_scenario_t *sc, const char *version);

/* Line of the JSON Pointer inside the scenario file (nearest ancestor). */
int mc_scenario_line(const mc_scenario_t *sc, const char *pointer);

/*
 * Finds scenario files under each path (a file or a folder, searched
 * recursively for *.jsonc, skipping profiles/), sorted by path. *out is a
 * NULL-terminated array of owned strings (free with mc_scenario_paths_free).
 */
int mc_scenario_find(char *const *paths, size_t n_paths, char ***out, size_t *n_out,
                     mc_errbuf_t *eb);
void mc_scenario_paths_free(char **paths);

/* Maximum scenario files mc_scenario_find() returns. */
#define MC_SCENARIO_MAX_FILES 4096

#endif /* MC_SCENARIO_SCENARIO_H */
