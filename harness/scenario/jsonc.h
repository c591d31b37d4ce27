/*
 * jsonc.h - JSON-with-comments documents with source positions.
 *
 * Scenario files and profiles are JSONC: JSON plus // and block comments and
 * trailing commas (json-c's non-strict mode). A loaded document keeps the
 * line and column of every value, keyed by JSON Pointer, so that errors in a
 * scenario can be reported as "file:line:column: what was expected" and
 * reports can point at the step that failed.
 */
#ifndef MC_SCENARIO_JSONC_H
#define MC_SCENARIO_JSONC_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"

/* Largest scenario or profile file read, in bytes. */
#define MC_JSONC_MAX_FILE (4u * 1024u * 1024u)
/* Deepest nesting accepted in a scenario file. */
#define MC_JSONC_MAX_DEPTH 64
/* Positions recorded per document; values past it get their parent's. */
#define MC_JSONC_MAX_POSITIONS 65536

typedef struct mc_jsonc_pos {
    char *pointer; /* JSON Pointer of the value ("" for the root) */
    int line;      /* 1-based */
    int col;       /* 1-based, in bytes */
} mc_jsonc_pos_t;

typedef struct mc_jsonc_doc {
    json_object *root;    /* owned */
    char *name;           /* owned: the file name used in messages */
    mc_jsonc_pos_t *pos;  /* owned: in document order */
    size_t n_pos;
} mc_jsonc_doc_t;

/*
 * Parses text as JSONC. On error returns MC_EPARSE (or MC_ETOOBIG, MC_ENOMEM)
 * with eb holding "name:line:col: message", and doc is untouched.
 */
int mc_jsonc_parse(const char *text, size_t len, const char *name, mc_jsonc_doc_t *doc,
                   mc_errbuf_t *eb);

/* Reads and parses a file. Errors as mc_jsonc_parse, plus MC_EIO. */
int mc_jsonc_load(const char *path, mc_jsonc_doc_t *doc, mc_errbuf_t *eb);

/*
 * Finds the position of the value at pointer, or of its nearest recorded
 * ancestor. Always fills *line and *col (1:1 when nothing is known).
 */
void mc_jsonc_where(const mc_jsonc_doc_t *doc, const char *pointer, int *line, int *col);

/* Frees the document. Safe on a zeroed one. */
void mc_jsonc_free(mc_jsonc_doc_t *doc);

#endif /* MC_SCENARIO_JSONC_H */
