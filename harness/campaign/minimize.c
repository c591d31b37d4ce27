/*
 * minimize.c - delta debugging of a finding's sequence, then of each
 * message's JSON tree, each candidate judged by a run on a fresh process.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/internal.h"
#include "core/clock.h"

typedef struct budget {
    void *ctx;
    const char *sig;
    unsigned runs;
    int64_t deadline;
} budget_t;

static int spent(const budget_t *b)
{
    return b->runs >= MC_CAMPAIGN_MIN_RUNS || mc_now_ms() >= b->deadline;
}

static int test(budget_t *b, json_object *cand)
{
    b->runs++;
    return mc__camp_reproduces(b->ctx, cand, b->sig);
}

/* seq without elements [from, to). New reference. */
static json_object *without(json_object *seq, size_t from, size_t to)
{
    json_object *out = json_object_new_array();
    size_t i, n = json_object_array_length(seq);

    for (i = 0; i < n && out != NULL; i++)
        if (i < from || i >= to)
            json_object_array_add(out, json_object_get(json_object_array_get_idx(seq, i)));
    return out;
}

/* Classic ddmin on the complement of each chunk. Takes cur (owned) and
 * returns the smallest sequence found (owned). */
static json_object *ddmin(budget_t *b, json_object *cur)
{
    size_t parts = 2;
    json_object *empty = json_object_new_array();

    /* A finding of the session prefix needs no message at all. */
    if (empty != NULL && json_object_array_length(cur) > 0 && test(b, empty)) {
        json_object_put(cur);
        return empty;
    }
    json_object_put(empty);
    while (!spent(b)) {
        size_t n = json_object_array_length(cur), i, chunk;
        int reduced = 0;
        if (n < 2 && parts > n)
            break;
        if (parts > n)
            parts = n;
        chunk = (n + parts - 1) / parts;
        for (i = 0; i < n && !spent(b); i += chunk) {
            json_object *cand = without(cur, i, i + chunk < n ? i + chunk : n);
            if (cand != NULL && json_object_array_length(cand) < n && test(b, cand)) {
                json_object_put(cur);
                cur = cand;
                parts = parts > 2 ? parts - 1 : 2;
                reduced = 1;
                break;
            }
            json_object_put(cand);
        }
        if (!reduced) {
            if (parts >= n)
                break;
            parts = parts * 2 < n ? parts * 2 : n;
        }
    }
    return cur;
}

/*
 * Removes, in place, the k-th removable node of v (an object member or an
 * array item, counted depth-first). Returns 1 when one was removed, 0 when v
 * has no more than k nodes (*k is then decreased by their count).
 */
static int drop_nth(json_object *v, size_t *k)
{
    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, val)
        {
            if (*k == 0) {
                json_object_object_del(v, key);
                return 1;
            }
            (*k)--;
            if (drop_nth(val, k))
                return 1;
        }
    } else if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++) {
            if (*k == 0) {
                json_object_array_del_idx(v, i, 1);
                return 1;
            }
            (*k)--;
            if (drop_nth(json_object_array_get_idx(v, i), k))
                return 1;
        }
    }
    return 0;
}

static json_object *tree_min(budget_t *b, json_object *cur)
{
    size_t i;

    for (i = 0; i < json_object_array_length(cur) && !spent(b); i++) {
        size_t k = 0;
        while (!spent(b)) {
            json_object *cand = NULL, *msg;
            size_t left = k;
            if (json_object_deep_copy(cur, &cand, NULL) != 0 || cand == NULL)
                break;
            msg = json_object_array_get_idx(cand, i);
            if (!drop_nth(msg, &left)) {
                json_object_put(cand);
                break; /* every node of this message was tried */
            }
            if (test(b, cand)) {
                json_object_put(cur);
                cur = cand; /* the same k now names the next node */
            } else {
                json_object_put(cand);
                k++;
            }
        }
    }
    return cur;
}

json_object *mc__camp_minimize(void *ctx, json_object *seq, const char *sig, unsigned *runs)
{
    budget_t b;
    json_object *cur = json_object_get(seq);

    b.ctx = ctx;
    b.sig = sig;
    b.runs = 0;
    b.deadline = mc_now_ms() + MC_CAMPAIGN_MIN_MS;
    if (mc__camp_deadline(ctx) < b.deadline)
        b.deadline = mc__camp_deadline(ctx);
    cur = ddmin(&b, cur);
    cur = tree_min(&b, cur);
    *runs = b.runs;
    return cur;
}
