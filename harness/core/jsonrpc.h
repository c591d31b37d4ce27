/*
 * jsonrpc.h - the JSON-RPC 2.0 message model on json-c.
 *
 * mc_json_parse() turns one wire message into a json_object with a depth
 * limit, strict JSON, UTF-8 validation and no trailing garbage.
 * mc_msg_classify() tells what a parsed message is (request, notification,
 * success response, error response) or why it is none of them.
 * The encoders produce one line of JSON without any embedded newline.
 * Nothing here does I/O or knows about MCP methods.
 */
#ifndef MC_CORE_JSONRPC_H
#define MC_CORE_JSONRPC_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/error.h"

/* Standard JSON-RPC and MCP error codes. */
#define MC_RPC_PARSE_ERROR (-32700)
#define MC_RPC_INVALID_REQUEST (-32600)
#define MC_RPC_METHOD_NOT_FOUND (-32601)
#define MC_RPC_INVALID_PARAMS (-32602)
#define MC_RPC_INTERNAL_ERROR (-32603)
#define MC_RPC_RESOURCE_NOT_FOUND (-32002)
#define MC_RPC_URL_ELICITATION_REQUIRED (-32042)
/* 2026-07-28: a capability the request needs was not declared in its _meta;
 * the request's protocol version is not served. */
#define MC_RPC_MISSING_CLIENT_CAPABILITY (-32021)
#define MC_RPC_UNSUPPORTED_VERSION (-32022)
/* 2026-07-28, Streamable HTTP: the request's headers do not match its body,
 * or a required one is missing or malformed. */
#define MC_RPC_HEADER_MISMATCH (-32020)
/* 2026-07-28/basic#error-codes: the sub-range of JSON-RPC's server errors
 * that only the MCP specification allocates (it defines -32020..-32022). */
#define MC_RPC_MCP_RESERVED_MIN (-32099)
#define MC_RPC_MCP_RESERVED_MAX (-32020)
/* The range JSON-RPC 2.0 reserves (its own codes and -32000..-32099 among them). */
#define MC_RPC_JSONRPC_RESERVED_MIN (-32768)
#define MC_RPC_JSONRPC_RESERVED_MAX (-32000)

typedef enum mc_msg_kind {
    MC_MSG_INVALID = 0,  /* not a JSON-RPC 2.0 message; see reason */
    MC_MSG_REQUEST,      /* method + id */
    MC_MSG_NOTIFICATION, /* method, no id */
    MC_MSG_RESULT,       /* success response: id + result */
    MC_MSG_ERROR         /* error response: error (+ id, which may be null or absent) */
} mc_msg_kind_t;

/*
 * A classified message. All pointers are borrowed from root and valid while
 * the message lives; root itself is owned (released by mc_msg_free()).
 */
typedef struct mc_msg {
    mc_msg_kind_t kind;
    json_object *root;          /* owned; NULL if the bytes were not JSON */
    const char *method;         /* requests and notifications */
    json_object *id;            /* requests and responses; NULL when absent or null */
    json_object *params;        /* NULL when absent */
    json_object *result;        /* success responses */
    json_object *error;         /* error responses: the error object */
    int64_t error_code;         /* error responses */
    const char *error_message;  /* error responses */
    int rpc_error;              /* for MC_MSG_INVALID: the code a server should answer with */
    char reason[MC_ERRBUF_SIZE]; /* for MC_MSG_INVALID: why, in words */
} mc_msg_t;

/* Returns "request", "notification", "result", "error" or "invalid". */
const char *mc_msg_kind_name(mc_msg_kind_t kind);

/* The JSON value at the start of data[0..len) as json-c reads it (what
 * follows the value is not looked at), nesting capped at MC_MAX_JSON_DEPTH;
 * a new reference, or NULL (not JSON, too long, out of memory). For the
 * HTTP rules that read a body's members; a message is judged through
 * mc_json_parse. */
json_object *mc_json_parse_loose(const char *data, size_t len);

/*
 * Parses exactly one JSON value from buf[0..len). Strict JSON, UTF-8 checked,
 * nesting capped at max_depth (0 = MC_MAX_JSON_DEPTH), NUL bytes refused,
 * only whitespace allowed after the value. On success *out is a new
 * reference (caller puts it; JSON null gives NULL). On error *out is untouched and eb says where:
 * MC_EPARSE, MC_ETOODEEP, MC_EUTF8, MC_ETOOBIG or MC_ENOMEM.
 */
int mc_json_parse(const char *buf, size_t len, int max_depth, json_object **out, mc_errbuf_t *eb);

/*
 * Classifies a parsed value, taking ownership of root (it is released by
 * mc_msg_free() even when the message is invalid). Always fills *msg.
 */
void mc_msg_classify(json_object *root, mc_msg_t *msg);

/*
 * Parses and classifies one wire message. Bytes that are not JSON give an
 * MC_MSG_INVALID message with root NULL and rpc_error -32700; the return
 * value is the parse error (MC_OK when the bytes were JSON, whatever kind).
 */
int mc_msg_decode(const char *buf, size_t len, int max_depth, mc_msg_t *msg);

/* Releases the message's root and clears it. Safe on a zeroed message. */
void mc_msg_free(mc_msg_t *msg);

/* True when v is a valid JSON-RPC id for MCP: a string or an integer. */
int mc_jsonrpc_id_valid(json_object *v);

/*
 * Ids are compared in one representation across the harness: the id's
 * compact JSON text (json-c's plain form, "/" not escaped, as
 * mc_json_compact writes it), so that a string never equals an integer and
 * a big integer json-c keeps as uint64 equals only itself. Tables keep that
 * text, and what holds an id as a json_object compares through it. Neither
 * function below writes into the id (json-c would keep the text inside it):
 * ids from a parsed scenario are shared by the run's worker threads.
 */

/* True when both ids are valid and their texts are equal. */
int mc_jsonrpc_id_equal(json_object *a, json_object *b);

/*
 * Writes the text of id (any JSON value; "null" for NULL) into out, cap
 * bytes with the terminator. Returns its length, or 0 with out "" when it
 * does not fit: a cut id is no id to compare, and never matches another.
 */
size_t mc_id_text(json_object *id, char *out, size_t cap);

/*
 * Builders. Each returns a new reference or NULL when out of memory, and
 * takes ownership of the json_object arguments (even on failure).
 * params/result/data may be NULL (params and data are then omitted; a NULL
 * result becomes {}). id may be NULL for an error response (encoded as null).
 */
json_object *mc_jsonrpc_request(json_object *id, const char *method, json_object *params);
json_object *mc_jsonrpc_notification(const char *method, json_object *params);
json_object *mc_jsonrpc_result(json_object *id, json_object *result);
json_object *mc_jsonrpc_error(json_object *id, int code, const char *message, json_object *data);

/*
 * Encodes v as one line of compact JSON followed by "\n" into a new buffer
 * (caller frees). json-c escapes control characters inside strings, so the
 * only newline is the terminator. Returns MC_OK, MC_ENOMEM, or MC_ETOOBIG
 * when the line would exceed MC_MAX_MESSAGE_SIZE.
 */
int mc_json_encode_line(json_object *v, char **out, size_t *out_len);

/* Like mc_json_encode_line without the newline; returns a borrowed string
 * valid until v changes or is released. json-c keeps that text inside v:
 * never call it on a value another thread may read (a parsed scenario's
 * templates); mc_json_text_dup (core/json.h) serializes a private copy. */
const char *mc_json_compact(json_object *v, size_t *len);

#endif /* MC_CORE_JSONRPC_H */
