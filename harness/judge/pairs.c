#include "core/hash.h"
#include "judge/pairs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/jsonrpc.h"

#define MASK (2 * MC_PAIRS_MAX - 1)

_Static_assert((MC_PAIRS_MAX & (MC_PAIRS_MAX - 1)) == 0, "the slot mask needs a power of two");

/* The id's text (core/jsonrpc.h: the one form ids are compared in); 0 for
 * no valid id, or one too long to keep. */
static int id_key(json_object *id, char *out, size_t cap)
{
    return mc_jsonrpc_id_valid(id) && mc_id_text(id, out, cap) > 0;
}

static size_t slot_of(const char *key)
{
    return mc_fnv1a32_str(MC_FNV1A32_INIT, key) & MASK;
}

void mc_pairs_init(mc_pairs_t *p)
{
    memset(p, 0, sizeof(*p));
}

void mc_pairs_clear(mc_pairs_t *p)
{
    size_t i;

    if (p->slots != NULL)
        for (i = 0; i <= MASK; i++) {
            free(p->slots[i].key);
            free(p->slots[i].method);
        }
    free(p->slots);
    memset(p, 0, sizeof(*p));
}

int mc_pairs_add(mc_pairs_t *p, json_object *id, const char *method)
{
    char key[MC_PAIRS_MAX_KEY];
    size_t i;

    if (!id_key(id, key, sizeof(key)))
        return MC_OK;
    if (p->slots == NULL) {
        p->slots = calloc(MASK + 1, sizeof(*p->slots));
        if (p->slots == NULL)
            return MC_ENOMEM;
    }
    for (i = slot_of(key); p->slots[i].key != NULL; i = (i + 1) & MASK) {
        if (strcmp(p->slots[i].key, key) == 0) {
            char *m = strdup(method);
            if (m == NULL)
                return MC_ENOMEM;
            free(p->slots[i].method);
            p->slots[i].method = m;
            return MC_OK;
        }
    }
    if (p->n >= MC_PAIRS_MAX)
        return MC_EFULL;
    p->slots[i].key = strdup(key);
    p->slots[i].method = strdup(method);
    if (p->slots[i].key == NULL || p->slots[i].method == NULL) {
        free(p->slots[i].key);
        free(p->slots[i].method);
        p->slots[i].key = p->slots[i].method = NULL;
        return MC_ENOMEM;
    }
    p->n++;
    return MC_OK;
}

char *mc_pairs_take(mc_pairs_t *p, json_object *id)
{
    char key[MC_PAIRS_MAX_KEY];
    size_t i, j;

    if (p->slots == NULL || !id_key(id, key, sizeof(key)))
        return NULL;
    for (i = slot_of(key); p->slots[i].key != NULL; i = (i + 1) & MASK) {
        char *m;
        if (strcmp(p->slots[i].key, key) != 0)
            continue;
        m = p->slots[i].method;
        free(p->slots[i].key);
        p->slots[i].key = NULL;
        p->slots[i].method = NULL;
        p->n--;
        /* Re-insert the rest of the cluster (linear probing deletion). */
        for (j = (i + 1) & MASK; p->slots[j].key != NULL; j = (j + 1) & MASK) {
            mc_pair_t e = p->slots[j];
            size_t k;
            p->slots[j].key = NULL;
            p->slots[j].method = NULL;
            for (k = slot_of(e.key); p->slots[k].key != NULL; k = (k + 1) & MASK)
                ;
            p->slots[k] = e;
        }
        return m;
    }
    return NULL;
}
