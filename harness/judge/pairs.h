/*
 * pairs.h - requests waiting for their response, by id, for judging a file
 * of messages whose directions are not known (`mcpcheck validate` without
 * --trace): a success response is validated against the result of the
 * method its request named. A live session's matching, with directions,
 * is the wire rules' (wire.h).
 */
#ifndef MC_JUDGE_PAIRS_H
#define MC_JUDGE_PAIRS_H

#include <stddef.h>

#include <json-c/json.h>

/* Requests remembered at once; later ones are not paired. */
#define MC_PAIRS_MAX 65536
/* Bytes of an id's key ("s:<string>" or "i:<integer>"). */
#define MC_PAIRS_MAX_KEY 512

typedef struct mc_pair {
    char *key;    /* NULL = empty slot */
    char *method;
} mc_pair_t;

typedef struct mc_pairs {
    mc_pair_t *slots; /* private: open addressing, 2 * MC_PAIRS_MAX slots, made when needed */
    size_t n;         /* read-only: requests remembered */
} mc_pairs_t;

/* An empty table (holds nothing until the first mc_pairs_add). */
void mc_pairs_init(mc_pairs_t *p);

/* Forgets every request and releases the table. */
void mc_pairs_clear(mc_pairs_t *p);

/*
 * Remembers that the request with id (a string or an integer; anything
 * else is ignored) named method; a second request with the same id
 * replaces the first one's method. Returns MC_OK (also for ignored ids),
 * MC_EFULL when MC_PAIRS_MAX requests are remembered (nothing added) or
 * MC_ENOMEM.
 */
int mc_pairs_add(mc_pairs_t *p, json_object *id, const char *method);

/* Removes the request with id; returns its method (caller frees) or NULL. */
char *mc_pairs_take(mc_pairs_t *p, json_object *id);

#endif /* MC_JUDGE_PAIRS_H */
