/*
 * output.h - the output path below every handler (emit.c) and the json
 * helpers the handlers build their answers with (content.c). Nothing here
 * calls up into a handler or the dispatcher.
 */
#ifndef MC_REFSERVER_OUTPUT_H
#define MC_REFSERVER_OUTPUT_H

#include "refserver/state.h"

/* ---- emit.c: the output path ---- */

/* Encodes msg as one line and emits it. Consumes msg. */
void mc__rs_emit(mc_refserver_t *rs, json_object *msg);
/* Sends a whole response message (consumed), or adds it to the batch being
 * answered. */
void mc__rs_send_response(mc_refserver_t *rs, json_object *msg);

/* Sends a success response. id is borrowed (the server takes its own
 * reference); result is consumed (NULL means {}). */
void mc__rs_result(mc_refserver_t *rs, json_object *id, json_object *result);

/* The same for a response whose shape faults a row of emit.c names by the
 * method answered (method: "ping"). */
void mc__rs_answer(mc_refserver_t *rs, const char *method, json_object *id, json_object *result);

/* Sends an error response. id is borrowed and may be NULL (encoded as null);
 * data is consumed and may be NULL. */
void mc__rs_error(mc_refserver_t *rs, json_object *id, int code, const char *message,
                  json_object *data);

/* Sends a notification. params is consumed and may be NULL. */
void mc__rs_notify(mc_refserver_t *rs, const char *method, json_object *params);

/* Sends a request to the client. id and params are consumed. */
void mc__rs_request(mc_refserver_t *rs, json_object *id, const char *method, json_object *params);

/* What a handler tells the send path of the error it sends (rs->error_reason)
 * where the error's words do not: a method the session's dispatch does not
 * know, one the stateless dispatch does not know (not one it removed). */
#define RS_REASON_UNKNOWN_METHOD "unknown method"
#define RS_REASON_UNKNOWN_STATELESS_METHOD "unknown stateless method"

/* ---- shapes.c: the message-shape faults, below the output path ---- */

/* The kinds of outgoing message a shape fault applies to. */
#define RS_OUT_RESULT 1u  /* a success response */
#define RS_OUT_ERROR 2u   /* an error response */
#define RS_OUT_NOTIFY 4u  /* a notification */
#define RS_OUT_REQUEST 8u /* a request to the client */
#define RS_OUT_BODY 16u   /* a result's body, before what a stateless result carries */

/* Applies the rows of the switch that is on to msg, a message (or, for
 * RS_OUT_BODY, a result) of kind RS_OUT_* for method (the request answered or
 * the message sent; NULL when not known). Returns how many times msg goes
 * out: 0, 1 or 2. */
int mc__rs_shape(mc_refserver_t *rs, unsigned kind, const char *method, json_object *msg);

/* The line s[0..n) as the switch that is on writes it instead: a new buffer
 * (caller frees) of *len bytes, or NULL to write it as it is. */
char *mc__rs_shape_bytes(mc_refserver_t *rs, const char *s, size_t n, size_t *len);


/* Makes room for n bytes in the line buffer rs->out. Returns 0, or -1 past
 * MC_MAX_MESSAGE_SIZE or when memory runs out (the buffer is then unchanged). */
int mc__rs_out_reserve(mc_refserver_t *rs, size_t n);

/* Adds what a modern result carries (resultType, ttlMs/cacheScope where
 * cacheable, _meta serverInfo) to result, which must be an object. */
void mc__rs_modern_decorate(mc_refserver_t *rs, json_object *result);

/* ---- json helpers (content.c) ---- */

/* Adds key: value to o; v is consumed. Marks rs->failed on allocation failure. */
void mc__rs_put(mc_refserver_t *rs, json_object *o, const char *key, json_object *v);
void mc__rs_put_str(mc_refserver_t *rs, json_object *o, const char *key, const char *s);

/* Content blocks shaped for the negotiated version. Each returns a new reference. */
json_object *mc__rs_text_block(mc_refserver_t *rs, const char *text);
json_object *mc__rs_image_block(mc_refserver_t *rs);
json_object *mc__rs_audio_block(mc_refserver_t *rs);
json_object *mc__rs_embedded_text(mc_refserver_t *rs, const char *uri, const char *mime,
                                  const char *text);

/* Adds title (2025-06-18+) and icons (2025-11-25+) to a listed item. */
void mc__rs_add_title(mc_refserver_t *rs, json_object *o, const char *title);
void mc__rs_add_icons(mc_refserver_t *rs, json_object *o);

/* Annotations for resources and content; lastModified only where the version has it. */
json_object *mc__rs_annotations(mc_refserver_t *rs, int user, int assistant, double priority);

/* A JSON number: an integer when v is integral, else a short decimal. New reference. */
json_object *mc__rs_number(double v);

/* Base64 (RFC 4648, padded) of len bytes into a new string (caller frees), or NULL. */
char *mc__rs_base64(const unsigned char *data, size_t len);

/* The log levels by severity, debug first (RS_LOG_LEVELS of them), and the
 * name of one ("" out of range). */
extern const char *const mc__rs_log_levels[];
const char *mc__rs_log_level_name(int level);

/* The fixture PNG and WAV as base64 (static strings). */
extern const char mc__rs_png_b64[];
extern const char mc__rs_wav_b64[];

/* Returns a string member of o, or NULL when absent or not a string. o may be NULL. */
/* o[key] when it is a string without an embedded NUL, else NULL (borrowed). */
const char *mc__rs_get_str(json_object *o, const char *key);

/* True when any string inside v (at most MC_MAX_JSON_DEPTH levels down)
 * holds a NUL character: such params are refused with -32602. */
int mc__rs_has_nul_string(json_object *v, int depth);

#endif /* MC_REFSERVER_OUTPUT_H */
