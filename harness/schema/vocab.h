/*
 * vocab.h - the words of each protocol version, read from its schema: the
 * request methods each side sends, the notification methods, and the
 * capability paths each side can declare.
 *
 * The scenario linter holds what a scenario names (a method, a capability)
 * to the schema of every version the scenario runs at. The words come from
 * the definitions, not from a list of our own:
 * - client requests: the members of the ClientRequest union;
 * - server requests: the members of ServerRequest and, in a stateless
 *   version, of InputRequest (what an input_required result asks for);
 * - notifications: every *Notification definition with a method (both
 *   directions: the stateless version's schema lists no ClientNotification,
 *   yet its cancellation page has the client send notifications/cancelled);
 * - capabilities: the properties of ServerCapabilities and
 *   ClientCapabilities, walked into their sub-objects ("resources.subscribe",
 *   "tasks.requests.tools.call"); a member that is an open map
 *   (additionalProperties with a schema, as "experimental") is stored as
 *   "experimental.*" and takes any name below it.
 */
#ifndef MC_SCHEMA_VOCAB_H
#define MC_SCHEMA_VOCAB_H

#include <stddef.h>

#include "core/error.h"

/* Words of one kind in one version. */
#define MC_VOCAB_MAX_WORDS 128
/* Longest capability path stored (deeper members are not walked). */
#define MC_VOCAB_MAX_PATH 128
/* Deepest capability path walked. */
#define MC_VOCAB_MAX_DEPTH 6

typedef enum mc_vocab_kind {
    MC_VOCAB_CLIENT_REQUEST = 0, /* methods a client sends as requests */
    MC_VOCAB_SERVER_REQUEST,     /* methods a server sends as requests (or input requests) */
    MC_VOCAB_NOTIFICATION,       /* notification methods, either direction */
    MC_VOCAB_SERVER_CAP,         /* ServerCapabilities paths */
    MC_VOCAB_CLIENT_CAP,         /* ClientCapabilities paths */
    MC_VOCAB_KIND_COUNT
} mc_vocab_kind_t;

typedef struct mc_vocab mc_vocab_t;

/*
 * Reads the schema of every version of core's table from dir
 * (DIR/<version>.json, the bundled layout). On success *out is owned by the
 * caller (mc_vocab_free). On error *out is untouched: MC_EIO (a file does
 * not read), MC_EPARSE, MC_EFULL (more than MC_VOCAB_MAX_WORDS words of a
 * kind) or MC_ENOMEM; eb names the file and the cause.
 */
int mc_vocab_load(const char *dir, mc_vocab_t **out, mc_errbuf_t *eb);

/* Frees a vocabulary. NULL is a no-op. */
void mc_vocab_free(mc_vocab_t *v);

/* True when word is of kind at version (mc_version_id_t). A capability path
 * is known when it is stored, or lies below an open map ("experimental.x"). */
int mc_vocab_has(const mc_vocab_t *v, int version, mc_vocab_kind_t kind, const char *word);

/* The i-th word of kind at version (from 0 until NULL; borrowed, valid while
 * v lives). */
const char *mc_vocab_word(const mc_vocab_t *v, int version, mc_vocab_kind_t kind, size_t i);

/* What a kind is called in messages ("client request method"). */
const char *mc_vocab_kind_what(mc_vocab_kind_t kind);

#endif /* MC_SCHEMA_VOCAB_H */
