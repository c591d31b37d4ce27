/*
 * mutator_internal.h - what the files of the structure-aware mutator share:
 * mutator.c (the input as lines, byte mutation, the engines' entry points),
 * mutator_values.c (raw nodes and the values spliced in) and mutator_ops.c
 * (the operations on a line's tree and on the sequence of lines). Every
 * function draws from the per-call random stream, so a seed gives the same
 * mutation on every build.
 */
#ifndef MC_FUZZ_MUTATOR_INTERNAL_H
#define MC_FUZZ_MUTATOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define MAX_LINES 128
#define MAX_NODES 1024
#define MAX_RAW 16384

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- randomness: xorshift64*, seeded per call (deterministic) ---- */

typedef struct rng {
    uint64_t s;
} rng_t;

static inline uint64_t rnd(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}

static inline size_t below(rng_t *r, size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd(r) % n);
}

static inline void rng_seed(rng_t *r, unsigned int seed)
{
    r->s = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 17) ^ seed;
    if (r->s == 0)
        r->s = 1;
    (void)rnd(r);
}

/* ---- raw nodes: the userdata of a json-c object written verbatim ---- */

typedef struct raw {
    int len;
    char text[];
} raw_t;

/* ---- the input as lines ---- */

typedef struct line {
    const uint8_t *bytes; /* borrowed from the input, unless owned != NULL */
    size_t len;
    uint8_t *owned;       /* bytes of an inserted or byte-mutated line */
    json_object *v;       /* parsed value, or NULL */
    int parsed;           /* v holds a parse of the line (JSON null gives v NULL) */
    int tried;            /* a parse was attempted (parsed tells the outcome) */
    int dirty;            /* v changed: serialize it */
} line_t;

typedef struct doc {
    line_t lines[MAX_LINES];
    size_t n;
    int trailing_nl;
    json_tokener *tok; /* made by the first parse, freed by doc_free() */
} doc_t;

/* ---- picking nodes ---- */

typedef struct node {
    json_object *v;      /* the node (NULL for JSON null) */
    json_object *parent; /* NULL for the line's root */
    char key[128];       /* parent object's key (truncated keys are not picked) */
    size_t idx;          /* parent array's index */
    int depth;
} node_t;

typedef struct walk {
    node_t *nodes;
    size_t n;
} walk_t;

/* 1 when o is a raw node (written verbatim, not walked into). */
int mc__mut_is_raw(json_object *o);

/* True when line i holds a JSON value other than null (parsing it now if
 * no parse was tried yet). */
int mc__mut_line_tree(doc_t *d, size_t i);

/* Frees what line l owns and zeroes it. */
void mc__mut_line_clear(line_t *l);

/* Value makers (mutator_values.c). Each returns a new reference; a value
 * may be a raw node. room bounds the bytes a value may take. */
const char *mc__mut_dict_word(rng_t *r);
json_object *mc__mut_boundary_number(rng_t *r);
json_object *mc__mut_odd_string(rng_t *r, size_t room);
json_object *mc__mut_random_value(rng_t *r, size_t room);
/* A deep copy of v (NULL for JSON null); *ok is 0 when v holds raw nodes
 * json-c cannot copy. */
json_object *mc__mut_copy_of(json_object *v, int *ok);
/* A raw copy of object obj with one member written twice, or NULL. */
json_object *mc__mut_dup_key_raw(rng_t *r, json_object *obj);
/* v (consumed) wrapped in depth arrays or objects, as one raw node. */
json_object *mc__mut_nest(rng_t *r, json_object *v, int depth);

/* One operation on a node of a parsed line (mutator_ops.c). Returns 1 if
 * something changed. */
int mc__mut_tree_op(doc_t *d, rng_t *r, size_t max_size);

/* One operation on the line sequence. Returns 1 if something changed. */
int mc__mut_line_op(doc_t *d, rng_t *r);

#endif /* MC_FUZZ_MUTATOR_INTERNAL_H */
