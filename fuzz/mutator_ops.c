/*
 * mutator_ops.c - the mutator's operations: on a node of a line's JSON tree
 * (retype, drop, rename, duplicate a key, boundary numbers, odd strings,
 * dictionary words, nesting, splicing, colliding ids) and on the sequence
 * of lines (repeat, drop, move, insert, cut short, CRLF).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "mcp_words.inc"
#include "mutator_internal.h"

/* ---- picking nodes ---- */



static void collect(walk_t *w, json_object *v, json_object *parent, const char *key, size_t idx,
                    int depth)
{
    node_t *nd;

    if (w->n == MAX_NODES || mc__mut_is_raw(v))
        return;
    nd = &w->nodes[w->n++];
    nd->v = v;
    nd->parent = parent;
    nd->key[0] = '\0';
    if (key != NULL) {
        size_t k = strlen(key);
        if (k >= sizeof(nd->key)) {
            w->n--;
            return;
        }
        memcpy(nd->key, key, k + 1);
    }
    nd->idx = idx;
    nd->depth = depth;
    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, k, child)
        {
            collect(w, child, v, k, 0, depth + 1);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            collect(w, json_object_array_get_idx(v, i), v, NULL, i, depth + 1);
    }
}

/* Puts nv (consumed) where nd is. */
static void replace(line_t *l, const node_t *nd, json_object *nv)
{
    if (nd->parent == NULL) {
        json_object_put(l->v);
        l->v = nv;
    } else if (json_object_is_type(nd->parent, json_type_object)) {
        json_object_object_add(nd->parent, nd->key, nv);
    } else if (json_object_array_put_idx(nd->parent, nd->idx, nv) != 0) {
        json_object_put(nv);
    }
    l->dirty = 1;
}

/* ---- operations ---- */

/* Picks a line holding a JSON tree: a random one, else the next that does.
 * Returns its index, or d->n when no line does. */
static size_t pick_tree_line(doc_t *d, rng_t *r)
{
    size_t start = below(r, d->n), k;

    for (k = 0; k < d->n; k++)
        if (mc__mut_line_tree(d, (start + k) % d->n))
            return (start + k) % d->n;
    return d->n;
}

/* Drops the node from its parent. */
static int op_drop(line_t *l, node_t *nd)
{
    if (nd->parent == NULL)
        return 0;
    if (json_object_is_type(nd->parent, json_type_object))
        json_object_object_del(nd->parent, nd->key);
    else
        json_object_array_del_idx(nd->parent, nd->idx, 1);
    l->dirty = 1;
    return 1;
}

/* Renames the node's key: a dictionary word, a near miss (first letter's
 * case flipped, or a suffix), or an empty or invalid UTF-8 one. */
static int op_rename(line_t *l, node_t *nd, rng_t *r)
{
    json_object *val;
    const char *nk;
    char buf[160];

    if (nd->parent == NULL || !json_object_is_type(nd->parent, json_type_object))
        return 0;
    val = json_object_get(nd->v);
    json_object_object_del(nd->parent, nd->key);
    switch (below(r, 3)) {
    case 0:
        nk = mc__mut_dict_word(r);
        break;
    case 1:
        snprintf(buf, sizeof(buf), "%s", nd->key);
        if (buf[0] >= 'a' && buf[0] <= 'z')
            buf[0] = (char)(buf[0] - 32);
        else if (buf[0] >= 'A' && buf[0] <= 'Z')
            buf[0] = (char)(buf[0] + 32);
        else
            snprintf(buf, sizeof(buf), "%s_", nd->key);
        nk = buf;
        break;
    default:
        nk = below(r, 2) ? "" : "\xff";
        break;
    }
    json_object_object_add(nd->parent, nk, val);
    l->dirty = 1;
    return 1;
}

/* Wraps a copy of the node in arrays around the parser's depth limit. */
static int op_nest(line_t *l, node_t *nd, rng_t *r)
{
    static const int depths[] = {1, 2, 16, 60, 62, 63, 64, 65, 100};
    int want = depths[below(r, COUNT(depths))], ok;
    json_object *nv = mc__mut_copy_of(nd->v, &ok);

    if (!ok)
        return 0;
    replace(l, nd, mc__mut_nest(r, nv, want > nd->depth ? want - nd->depth : 1));
    return 1;
}

/* Replaces the node by a copy of a subtree of another line. */
static int op_splice(doc_t *d, size_t li, line_t *l, node_t *nd, rng_t *r)
{
    static node_t nodes2[MAX_NODES];
    walk_t w2 = {NULL, 0};
    size_t other = below(r, d->n);
    json_object *nv;
    int ok;

    if (other == li || !mc__mut_line_tree(d, other))
        return 0;
    w2.nodes = nodes2;
    collect(&w2, d->lines[other].v, NULL, NULL, 0, 0);
    if (w2.n == 0)
        return 0;
    nv = mc__mut_copy_of(nodes2[below(r, w2.n)].v, &ok);
    if (!ok)
        return 0;
    replace(l, nd, nv);
    return 1;
}

/* The line's id: made to collide with another line's, retyped, removed, or
 * set to one of the ids the server uses for its own requests (1..3). */
static int op_ids(doc_t *d, line_t *l, rng_t *r)
{
    json_object *root = l->v, *oid, *nv;
    size_t other;
    int ok;

    if (!json_object_is_type(root, json_type_object))
        return 0;
    other = below(r, d->n);
    switch (below(r, 4)) {
    case 0:
        if (!mc__mut_line_tree(d, other) || !json_object_is_type(d->lines[other].v, json_type_object) ||
            !json_object_object_get_ex(d->lines[other].v, "id", &oid))
            return 0;
        nv = mc__mut_copy_of(oid, &ok);
        if (!ok)
            return 0;
        json_object_object_add(root, "id", nv);
        break;
    case 1:
        if (!json_object_object_get_ex(root, "id", &oid) || oid == NULL)
            return 0;
        json_object_object_add(root, "id",
                               json_object_is_type(oid, json_type_string)
                                   ? json_object_new_int64((int64_t)below(r, 8))
                                   : json_object_new_string(json_object_get_string(oid)));
        break;
    case 2:
        json_object_object_del(root, "id");
        break;
    default:
        json_object_object_add(root, "id", json_object_new_int64(1 + (int64_t)below(r, 3)));
        break;
    }
    l->dirty = 1;
    return 1;
}

/* Appends a copy of an array element to its array. */
static int op_dup_element(line_t *l, node_t *nd)
{
    json_object *nv;
    int ok;

    if (nd->parent == NULL || !json_object_is_type(nd->parent, json_type_array))
        return 0;
    nv = mc__mut_copy_of(nd->v, &ok);
    if (!ok)
        return 0;
    if (json_object_array_add(nd->parent, nv) != 0)
        json_object_put(nv);
    l->dirty = 1;
    return 1;
}

/* One operation on a node of a parsed line. Returns 1 if something changed. */
int mc__mut_tree_op(doc_t *d, rng_t *r, size_t max_size)
{
    static node_t nodes[MAX_NODES];
    walk_t w = {nodes, 0};
    size_t li;
    line_t *l;
    node_t *nd;
    json_object *nv;

    li = pick_tree_line(d, r);
    if (li == d->n)
        return 0;
    l = &d->lines[li];
    collect(&w, l->v, NULL, NULL, 0, 0);
    if (w.n == 0)
        return 0;
    nd = &nodes[below(r, w.n)];
    switch (below(r, 13)) {
    case 0: /* retype */
        replace(l, nd, mc__mut_random_value(r, max_size));
        return 1;
    case 1:
        return op_drop(l, nd);
    case 2: /* duplicate a key (raw) */
        if (!json_object_is_type(nd->v, json_type_object))
            return 0;
        nv = mc__mut_dup_key_raw(r, nd->v);
        if (nv == NULL)
            return 0;
        replace(l, nd, nv);
        return 1;
    case 3:
        return op_rename(l, nd, r);
    case 4: /* boundary number */
        replace(l, nd, mc__mut_boundary_number(r));
        return 1;
    case 5: /* odd string */
        replace(l, nd, mc__mut_odd_string(r, max_size));
        return 1;
    case 6: /* dictionary word for a string (a method for "method") */
        if (strcmp(nd->key, "method") == 0)
            nv = json_object_new_string(
                mc_fuzz_words_methods[below(r, COUNT(mc_fuzz_words_methods))]);
        else
            nv = json_object_new_string(mc__mut_dict_word(r));
        replace(l, nd, nv);
        return 1;
    case 7: /* add a member */
        if (!json_object_is_type(nd->v, json_type_object))
            return 0;
        json_object_object_add(nd->v, mc_fuzz_words_keys[below(r, COUNT(mc_fuzz_words_keys))],
                               mc__mut_random_value(r, max_size));
        l->dirty = 1;
        return 1;
    case 8:
        return op_nest(l, nd, r);
    case 9:
        return op_splice(d, li, l, nd, r);
    case 10:
        return op_ids(d, l, r);
    case 11:
        return op_dup_element(l, nd);
    default: /* empty the container, or replace by a fresh empty one */
        if (json_object_is_type(nd->v, json_type_array))
            replace(l, nd, json_object_new_array());
        else
            replace(l, nd, json_object_new_object());
        return 1;
    }
}

/* Sets line i to owned bytes (copied). */
static int set_line(line_t *l, const char *s, size_t n)
{
    uint8_t *b = malloc(n + 1);

    if (b == NULL)
        return 0;
    memcpy(b, s, n);
    json_object_put(l->v);
    free(l->owned);
    memset(l, 0, sizeof(*l));
    l->owned = b;
    l->len = n;
    return 1;
}

/* Moves the line at from to position to (shifting the others). */
static void move_line(doc_t *d, size_t from, size_t to)
{
    line_t tmp = d->lines[from];

    if (from < to)
        memmove(&d->lines[from], &d->lines[from + 1], (to - from) * sizeof(line_t));
    else if (from > to)
        memmove(&d->lines[to + 1], &d->lines[to], (from - to) * sizeof(line_t));
    d->lines[to] = tmp;
}

/* Repeats line a at position b (a tree changed but not yet written is
 * copied as a tree). */
static int op_repeat(doc_t *d, size_t a, size_t b)
{
    if (d->n == MAX_LINES)
        return 0;
    d->lines[d->n] = d->lines[a];
    d->lines[d->n].owned = NULL;
    d->lines[d->n].v = NULL;
    d->lines[d->n].parsed = 0;
    d->lines[d->n].tried = 0;
    if (d->lines[a].dirty) {
        /* Serialize later from the copy of the tree. */
        int ok;
        d->lines[d->n].v = mc__mut_copy_of(d->lines[a].v, &ok);
        d->lines[d->n].parsed = ok;
        d->lines[d->n].dirty = ok;
        /* A tree json-c cannot copy (raw nodes): its bytes are not written
         * yet, and a line from an earlier operation has none of its own to
         * fall back on. */
        if (!ok) {
            memset(&d->lines[d->n], 0, sizeof(line_t));
            return 0;
        }
    } else if (d->lines[a].owned != NULL) {
        d->lines[d->n].len = 0;
        if (!set_line(&d->lines[d->n], (const char *)d->lines[a].owned, d->lines[a].len))
            return 0;
    }
    d->n++;
    move_line(d, d->n - 1, b);
    return 1;
}

/* Drops line a. */
static int op_drop_line(doc_t *d, size_t a)
{
    if (d->n < 2)
        return 0;
    mc__mut_line_clear(&d->lines[a]);
    memmove(&d->lines[a], &d->lines[a + 1], (d->n - a - 1) * sizeof(line_t));
    d->n--;
    memset(&d->lines[d->n], 0, sizeof(line_t));
    return 1;
}

/* Inserts at b a request built from the dictionary, or an answer to one of
 * the server's requests. */
static int op_insert(doc_t *d, size_t b, rng_t *r)
{
    static const char *const results[] = {
        "{}",
        "{\"action\":\"accept\",\"content\":{\"username\":\"u\",\"email\":\"u@example.com\"}}",
        "{\"action\":\"decline\"}", "{\"action\":\"cancel\"}",
        "{\"roots\":[{\"uri\":\"file:///tmp\",\"name\":\"tmp\"}]}",
        ("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hi\"},"
         "\"model\":\"m\",\"stopReason\":\"endTurn\"}")};
    char buf[512];
    int n;

    if (d->n == MAX_LINES)
        return 0;
    if (below(r, 2) == 0)
        n = snprintf(buf, sizeof(buf),
                     "{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"%s\",\"params\":{}}",
                     (unsigned)below(r, 100),
                     mc_fuzz_words_methods[below(r, COUNT(mc_fuzz_words_methods))]);
    else
        n = snprintf(buf, sizeof(buf), "{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":%s}",
                     1 + (unsigned)below(r, 4), results[below(r, COUNT(results))]);
    if (n <= 0 || (size_t)n >= sizeof(buf))
        return 0;
    memset(&d->lines[d->n], 0, sizeof(line_t));
    if (!set_line(&d->lines[d->n], buf, (size_t)n))
        return 0;
    d->n++;
    move_line(d, d->n - 1, b);
    return 1;
}

/* Cuts line a short (a truncated message), or ends it with CRLF when crlf. */
static int op_cut_or_crlf(line_t *l, rng_t *r, int crlf)
{
    const uint8_t *src = l->owned ? l->owned : l->bytes;
    size_t keep;
    char *tmp;
    int ok;

    if (l->dirty || (!crlf && l->len < 2))
        return 0;
    keep = crlf ? l->len : 1 + below(r, l->len - 1);
    tmp = malloc(keep + (size_t)crlf);
    if (tmp == NULL)
        return 0;
    if (keep > 0)
        memcpy(tmp, src, keep);
    if (crlf)
        tmp[keep] = '\r';
    ok = set_line(l, tmp, keep + (size_t)crlf);
    free(tmp);
    return ok;
}

/* One operation on the line sequence. Returns 1 if something changed. */
int mc__mut_line_op(doc_t *d, rng_t *r)
{
    size_t a = below(r, d->n), b = below(r, d->n);

    switch (below(r, 7)) {
    case 0:
        return op_repeat(d, a, b);
    case 1:
        return op_drop_line(d, a);
    case 2: /* move a line */
        if (a == b)
            return 0;
        move_line(d, a, b);
        return 1;
    case 3:
    case 4:
        return op_insert(d, b, r);
    case 5:
        return op_cut_or_crlf(&d->lines[a], r, 0);
    default: /* an empty line or a CRLF line ending */
        if (below(r, 2) != 0)
            return op_cut_or_crlf(&d->lines[a], r, 1);
        if (d->n == MAX_LINES)
            return 0;
        memset(&d->lines[d->n], 0, sizeof(line_t));
        d->lines[d->n].bytes = (const uint8_t *)"";
        d->n++;
        move_line(d, d->n - 1, b);
        return 1;
    }
}
