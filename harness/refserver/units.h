/*
 * units.h - parts of the reference server that can be driven on their own.
 *
 * The fuzz targets and tests exercise pagination cursors and the --root file
 * tree directly, and read the negotiated version of a live server, through
 * these functions; nothing outside the refserver includes its internal.h.
 * Each function forwards to the code the server itself runs.
 */
#ifndef MC_REFSERVER_UNITS_H
#define MC_REFSERVER_UNITS_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"
#include "refserver/refserver.h"

/* The protocol version the server speaks: the negotiated one, or the latest
 * it supports before initialize ("2025-11-25"; a static string). */
const char *mc_refserver_version(const mc_refserver_t *rs);

/* ---- pagination cursors ---- */

/* The paged lists. */
typedef enum mc_refserver_list {
    MC_REFSERVER_LIST_RESOURCES = 1,
    MC_REFSERVER_LIST_TEMPLATES = 2,
    MC_REFSERVER_LIST_PROMPTS = 3,
    MC_REFSERVER_LIST_TOOLS = 4
} mc_refserver_list_t;

/* Bytes of a cursor the server writes, with its NUL. */
#define MC_REFSERVER_CURSOR_SIZE 17

/*
 * Works out the page a list request with params asks for, in a list of total
 * items. On success returns 0 and sets *start (first index), *end (one past
 * the last) and *cursor_in (the cursor given, borrowed from params, or
 * NULL); on a bad cursor the error response to id is emitted and -1 is
 * returned.
 */
int mc_refserver_page(mc_refserver_t *rs, mc_refserver_list_t list, json_object *id,
                      json_object *params, size_t total, size_t *start, size_t *end,
                      const char **cursor_in);

/* Adds nextCursor to result when end < total (cursor_in: the cursor of the
 * request, or NULL). */
void mc_refserver_page_finish(mc_refserver_t *rs, mc_refserver_list_t list, json_object *result,
                              size_t end, size_t total, const char *cursor_in);

/* Writes the cursor of list at offset into out (MC_REFSERVER_CURSOR_SIZE bytes). */
void mc_refserver_cursor_text(mc_refserver_t *rs, mc_refserver_list_t list, size_t offset,
                              char *out);

/* ---- the --root file tree ---- */

typedef struct rs_fileroot mc_refserver_root_t;

/* Lists the files under dir (bounded walk). NULL with eb filled on error. */
mc_refserver_root_t *mc_refserver_root_open(const char *dir, mc_errbuf_t *eb);

void mc_refserver_root_free(mc_refserver_root_t *root);

/* Files listed. */
size_t mc_refserver_root_count(const mc_refserver_root_t *root);

/* Name (relative path) of listed file i (borrowed). */
const char *mc_refserver_root_name(const mc_refserver_root_t *root, size_t i);

/* URI of listed file i into buf (a percent-encoded file:// URI); returns buf. */
const char *mc_refserver_root_uri(const mc_refserver_root_t *root, size_t i, char *buf,
                                  size_t cap);

/*
 * Reads a file:// URI confined to the root. On success returns MC_OK and
 * *contents is a new reference (one TextResourceContents or
 * BlobResourceContents). Otherwise returns the JSON-RPC error code the
 * server sends (-32602 for a refused URI, -32002 for a missing file) and
 * fills why.
 */
int mc_refserver_root_read(const mc_refserver_root_t *root, const char *uri,
                           json_object **contents, char *why, size_t why_cap);

#endif /* MC_REFSERVER_UNITS_H */
