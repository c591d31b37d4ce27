/*
 * registry.h - the MCP schemas per protocol version, and validation of a
 * whole message for what it is.
 *
 * A registry knows where the schemas are (the bundled ones in
 * harness/schemas/<version>.json, or an upstream-layout folder
 * DIR/<version>/schema.json), compiles a version on first use, and maps
 * each method to its request, notification and result definitions.
 *
 * mc_registry_validate_message() checks the JSON-RPC envelope first (with
 * the version's JSONRPCRequest / JSONRPCNotification / JSONRPC(Result)Response
 * / JSONRPCError(Response) definitions), then the message against its
 * method's definition. This handles the traps of the official schemas:
 * - up to 2025-06-18 a request definition holds only method/params, from
 *   2025-11-25 it holds id/jsonrpc too: the envelope is always checked on
 *   its own, so both layouts give the same verdict;
 * - result definitions never hold the envelope, and ServerResult accepts
 *   almost anything: a response is checked against the result definition of
 *   the method it answers (the caller says which; unknown -> envelope only,
 *   with a warning that says so);
 * - where a TypeScript `number` was generated as "integer", a fraction is
 *   accepted with a warning (the leniency table in registry.c).
 *
 * Not thread-safe while a version loads; once loaded (mc_registry_load),
 * validation may run from several threads.
 */
#ifndef MC_SCHEMA_REGISTRY_H
#define MC_SCHEMA_REGISTRY_H

#include <json-c/json.h>

#include "core/error.h"
#include "core/version.h"
#include "schema/validator.h"

/* The protocol version the project tests by default (its baseline). */
#define MC_REGISTRY_DEFAULT_VERSION MC_VERSION_BASELINE
/* Versions a registry can hold. */
#define MC_REGISTRY_MAX_VERSIONS 8
/* Methods per version. */
#define MC_REGISTRY_MAX_METHODS 64
/* Largest schema file read, in bytes. */
#define MC_REGISTRY_MAX_FILE (8u * 1024u * 1024u)

typedef enum mc_registry_layout {
    MC_REGISTRY_BUNDLED = 0, /* DIR/<version>.json */
    MC_REGISTRY_UPSTREAM = 1 /* DIR/<version>/schema.json */
} mc_registry_layout_t;

typedef struct mc_registry mc_registry_t;

/* The versions the registry knows by name, oldest first (NULL-terminated). */
const char *const *mc_registry_versions(void);

/* The folder of the bundled schemas compiled into the program. */
const char *mc_registry_bundled_dir(void);

/*
 * Creates an empty registry reading from dir (NULL: the bundled folder,
 * layout BUNDLED). Nothing is read yet. On success *out is owned by the
 * caller (mc_registry_free). On error *out is untouched: MC_ENOMEM.
 */
int mc_registry_new(mc_registry_t **out, const char *dir, mc_registry_layout_t layout,
                    mc_errbuf_t *eb);

/* Frees a registry and its compiled schemas. NULL is a no-op. */
void mc_registry_free(mc_registry_t *reg);

/*
 * Reads and compiles one version (idempotent). Returns MC_OK, MC_ENOTFOUND
 * (no such file, or a version name the registry does not know), MC_EIO,
 * MC_EPARSE (the file is not JSON), MC_ESCHEMA / MC_EUNSUPPORTED (the
 * schema does not compile) or MC_ENOMEM; eb names the file and the cause.
 */
int mc_registry_load(mc_registry_t *reg, const char *version, mc_errbuf_t *eb);

/* The compiled schema of a loaded version, or NULL (borrowed). */
const mc_schema_t *mc_registry_schema(const mc_registry_t *reg, const char *version);

/* Definition names for a method in a loaded version, or NULL (static or
 * borrowed strings, valid while the registry lives). */
const char *mc_registry_request_def(const mc_registry_t *reg, const char *version,
                                    const char *method);
const char *mc_registry_notification_def(const mc_registry_t *reg, const char *version,
                                         const char *method);
const char *mc_registry_result_def(const mc_registry_t *reg, const char *version,
                                   const char *method);

/*
 * Validates one message (a request, notification, success or error response)
 * of the given version and appends the findings to report (cleared once by
 * the caller). answered_method is the method of the request a response
 * answers (NULL when unknown; ignored for requests and notifications).
 * Loads the version if needed. Returns MC_OK (valid; warnings possible),
 * MC_EINVALID (report says why), or a load error (eb says why).
 */
int mc_registry_validate_message(mc_registry_t *reg, const char *version, json_object *msg,
                                 const char *answered_method, mc_schema_report_t *report,
                                 mc_errbuf_t *eb);

/*
 * Validates inst against one named definition of a version. Returns MC_OK,
 * MC_EINVALID, MC_ENOTFOUND (no such definition; eb says so) or a load error.
 */
int mc_registry_validate_def(mc_registry_t *reg, const char *version, const char *def,
                             json_object *inst, mc_schema_report_t *report, mc_errbuf_t *eb);

/*
 * The documented leniencies: for entry i (from 0 until NULL is returned),
 * the definition, the path inside it and the reason. Lets tests and
 * documentation list them.
 */
const char *mc_registry_leniency(size_t i, const char **path, const char **why);

#endif /* MC_SCHEMA_REGISTRY_H */
