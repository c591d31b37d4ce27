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
#include "judge/check.h"
#include "scenario/jsonc.h"
#include "scenario/step.h"

/* Problems reported per file by the linter before it stops listing them. */
#define MC_SCENARIO_MAX_PROBLEMS 50
/* Steps a scenario may have, nested steps included. */
#define MC_SCENARIO_MAX_STEPS 512

/* A requirement a scenario declares in "spec" is a check definition. */
typedef mc_check_def_t mc_requirement_t;

typedef struct mc_scenario {
    char *id;               /* "resources/read-not-found" */
    char *area;             /* "resources" */
    mc_jsonc_doc_t doc;     /* the file, with positions */
    const char *title;      /* borrowed from doc */
    mc_requirement_t *reqs; /* owned array */
    size_t n_reqs;
    const char *min_version; /* inclusive bound or NULL (borrowed): the oldest version named */
    const char *max_version; /* the newest version named */
    unsigned version_mask;   /* published versions it applies to: bit mc_version_id_t */
    unsigned features;       /* MC_VF_* the scenario needs of the version ("requires.features") */
    json_object *requires_caps;   /* borrowed: array of dotted capability paths, or NULL */
    char **roles;                 /* owned: roles the scenario needs (declared + used) */
    size_t n_roles;
    json_object *client_caps;     /* borrowed: client capabilities, or NULL ({}) */
    json_object *answers;         /* borrowed: method -> answer, or NULL */
    const char *client_version;   /* borrowed: version to request instead of the run's */
    int manual_init;              /* the steps run the lifecycle themselves */
    int shareable;                /* it may run on a server process an earlier scenario of the
                                     same version and client capabilities used: it does the
                                     lifecycle through the runner, answers no server request,
                                     and its steps only read (mc_steps_read_only) */
    int takes_held;               /* not shareable, but it may run on the process shareable
                                     scenarios of the same version and client capabilities
                                     used, as its last user: it does the lifecycle through the
                                     runner at the run's version, and its steps judge only
                                     what came after its own messages
                                     (mc_steps_judge_own_traffic) */
    unsigned state_changes;       /* MC_STATE_* it changes of the server's state (scenario/state.h):
                                     derived from the steps, "state.changes" in place of the
                                     unknown; MC_STATE_OWN_PROCESS when nothing may follow it */
    unsigned state_reads;         /* MC_STATE_* it reads: derived, and "state.reads" */
    int chainable;                /* it may run on a process earlier runs of the same version and
                                     client capabilities used when it reads nothing they changed
                                     (mc_runner_hold_fits), and hand it on: it does the lifecycle
                                     through the runner, pins no version, and changes nothing
                                     unknown (every shareable scenario is) */
    int modern_only;              /* "requires": {"era": "modern"}: only a server that speaks
                                     no version with an initialize handshake */
    json_object *steps;           /* borrowed: the steps array, as written */
    mc_step_t *step_v;            /* owned: the steps, typed (step.h) */
    size_t n_steps;
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

struct mc_catalogue; /* scenario/catalogue.h */

/*
 * mc_scenario_load() with the check catalogue: an id alone in "spec" names
 * a check of cat (its definition is copied into the scenario's document),
 * and a definition in "spec" of an id cat defines is a problem. cat NULL:
 * as mc_scenario_load(), where an id alone is a problem.
 */
int mc_scenario_load_with(const char *path, const char *root, const struct mc_catalogue *cat,
                          mc_scenario_t *sc, char **problems, mc_errbuf_t *eb);

/* Frees what mc_scenario_load() filled. */
void mc_scenario_free(mc_scenario_t *sc);

/* The requirement backing a check id, or NULL. */
const mc_requirement_t *mc_scenario_requirement(const mc_scenario_t *sc, const char *check);

/* True when version lies in the scenario's versions ("versions": ranges or a list). */
int mc_scenario_applies(const mc_scenario_t *sc, const char *version);

/*
 * Whether version has what the scenario needs: returns 0 when it has, else
 * non-zero with why in buf ("2024-11-05 has no elicitation"). A capability in
 * requires.capabilities that the version cannot declare counts too
 * ("completions" before the capability flag existed). The run then gives the
 * scenario SKIP with that reason.
 */
int mc_scenario_version_gap(const mc_scenario_t *sc, const char *version, char *buf, size_t n);

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

struct mc_quotes; /* judge/quotes.h */

/*
 * Holds every check of sc that presents a spec quote (neither an author's
 * check nor a legacy one) to the sentences in known (sealed): its quote and
 * each per-version wording must be one of them. Returns the number of
 * problems, with *problems their "file:line:col: message" lines (owned, NULL
 * when none), or MC_ENOMEM (then *problems is NULL).
 */
int mc_scenario_check_quotes(const mc_scenario_t *sc, const struct mc_quotes *known,
                             char **problems);

/* Maximum scenario files mc_scenario_find() returns. */
#define MC_SCENARIO_MAX_FILES 4096

#endif /* MC_SCENARIO_SCENARIO_H */
