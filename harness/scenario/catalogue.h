/*
 * catalogue.h - the check catalogue: every check of the scenario library,
 * defined once.
 *
 * scenarios/checks.json holds {"checks": [DEF, ...]}, each DEF a check as a
 * scenario's "spec" used to state it: {check, level, quote, refs, quotes?,
 * levels?, interpretation?} (scenarios/README.md). A scenario names the
 * checks it holds by id alone ("spec": ["ping/empty-result"]); restating a
 * check the catalogue defines is a problem, so a check's level, sentence and
 * reading live in one place. A scenario of the user's may still define its
 * own checks in place (and an author's rule always is).
 */
#ifndef MC_SCENARIO_CATALOGUE_H
#define MC_SCENARIO_CATALOGUE_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"
#include "scenario/jsonc.h"

/* The catalogue's file name in the scenario library folder. */
#define MC_CATALOGUE_FILE "checks.json"
/* Checks a catalogue may define. */
#define MC_CATALOGUE_MAX_CHECKS 4096

typedef struct mc_catalogue {
    mc_jsonc_doc_t doc;  /* the file, with positions */
    json_object **defs;  /* borrowed from doc: the entries of "checks", sorted by id */
    size_t n;
} mc_catalogue_t;

/*
 * Reads and checks the catalogue at path: every entry a well-formed spec
 * check (the rules of a scenario's "spec"; no author's rule), no id twice.
 * On success *cat is filled and MC_OK returned. Problems are appended to
 * *problems ("file:line:col: message" lines) and MC_EINVAL returned; other
 * errors (MC_EIO, MC_ENOMEM, ...) are said in eb.
 */
int mc_catalogue_load(const char *path, mc_catalogue_t *cat, char **problems, mc_errbuf_t *eb);

/* The definition of check id (borrowed), or NULL; cat may be NULL. */
json_object *mc_catalogue_find(const mc_catalogue_t *cat, const char *id);

void mc_catalogue_free(mc_catalogue_t *cat);

#endif /* MC_SCENARIO_CATALOGUE_H */
