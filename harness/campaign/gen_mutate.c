/*
 * gen_mutate.c - the mutations of a sequence: a message's tree changed in
 * place (a value swapped for an odd one, a member added or dropped), a line
 * mangled, ids and progress tokens reused, a revealed name renamed
 * throughout, sequences cut and spliced. The generation of fresh messages
 * and what is learnt from the server are in gen.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/gen.h"
#include "campaign/gen_internal.h"
#include "core/json.h"

/* --- tree mutation ------------------------------------------------------- */

typedef struct node {
    json_object *parent; /* object or array holding the value */
    const char *key;     /* member name in an object parent (borrowed), or NULL */
    size_t idx;          /* index in an array parent */
    json_object *value;
} node_t;

static void collect(json_object *parent, node_t *v, size_t *n, int depth)
{
    if (depth > 16 || parent == NULL)
        return;
    if (json_object_is_type(parent, json_type_object)) {
        json_object_object_foreach(parent, k, val)
        {
            if (*n >= MC_GEN_MAX_NODES)
                return;
            v[*n].parent = parent;
            v[*n].key = k;
            v[*n].idx = 0;
            v[*n].value = val;
            (*n)++;
            collect(val, v, n, depth + 1);
        }
    } else if (json_object_is_type(parent, json_type_array)) {
        size_t i, len = json_object_array_length(parent);
        for (i = 0; i < len && *n < MC_GEN_MAX_NODES; i++) {
            v[*n].parent = parent;
            v[*n].key = NULL;
            v[*n].idx = i;
            v[*n].value = json_object_array_get_idx(parent, i);
            (*n)++;
            collect(v[*n - 1].value, v, n, depth + 1);
        }
    }
}

/* The name of an argument of a listed prompt, or of a property of a
 * listed tool's inputSchema; NULL when none was revealed. */
static const char *pick_arg_name(mc_gen_t *g)
{
    json_object *set = mc__gen_one_in(g, 2) ? g->prompt_args : g->tool_schemas, *v = NULL;
    size_t n = (size_t)json_object_object_length(set), k, i = 0;

    if (n == 0)
        return NULL;
    k = mc_gen_below(g, n);
    json_object_object_foreach(set, key, val)
    {
        (void)key;
        if (i++ == k) {
            v = val;
            break;
        }
    }
    if (json_object_is_type(v, json_type_array)) {
        n = json_object_array_length(v);
        return n ? json_object_get_string(json_object_array_get_idx(v, mc_gen_below(g, n))) : NULL;
    }
    v = mc_json_get(v, "properties");
    if (!json_object_is_type(v, json_type_object) || json_object_object_length(v) == 0)
        return NULL;
    k = mc_gen_below(g, (size_t)json_object_object_length(v));
    i = 0;
    json_object_object_foreach(v, pk, pv)
    {
        (void)pv;
        if (i++ == k)
            return pk;
    }
    return NULL;
}

/* Puts val (owned) where node nd is. */
static void node_set(node_t *nd, json_object *val)
{
    if (nd->key != NULL)
        json_object_object_add(nd->parent, nd->key, val);
    else
        json_object_array_put_idx(nd->parent, nd->idx, val);
}

static void mutate_tree(mc_gen_t *g, json_object *msg)
{
    node_t *nodes = malloc(sizeof(node_t) * MC_GEN_MAX_NODES);
    size_t n = 0;
    node_t *nd;

    if (nodes == NULL)
        return;
    collect(msg, nodes, &n, 0);
    if (n == 0) {
        free(nodes);
        return;
    }
    nd = &nodes[mc_gen_below(g, n)];
    switch (mc_gen_below(g, 6)) {
    case 0: /* drop */
        if (nd->key != NULL) {
            char key[128];
            snprintf(key, sizeof(key), "%s", nd->key);
            json_object_object_del(nd->parent, key);
        } else {
            json_object_array_del_idx(nd->parent, nd->idx, 1);
        }
        break;
    case 1: /* retype */
    case 2:
        node_set(nd, mc__gen_odd_value(g));
        break;
    case 3: /* a revealed name or word where a string was */
        if (json_object_is_type(nd->value, json_type_string)) {
            const mc_gen_list_t *ls[] = {&g->tools, &g->prompts, &g->resources, &g->templates,
                                          &g->cursors};
            const char *an = mc__gen_one_in(g, 6) ? pick_arg_name(g) : NULL;
            node_set(nd, json_object_new_string(an ? an : mc__gen_pick_name(g, ls[mc_gen_below(g, 5)])));
        } else {
            node_set(nd, mc__gen_odd_value(g));
        }
        break;
    case 4: /* add a member (an argument name the server revealed, or a word) */
        if (json_object_is_type(nd->value, json_type_object)) {
            const char *an = mc__gen_one_in(g, 2) ? pick_arg_name(g) : NULL;
            json_object_object_add(nd->value, an ? an : mc__gen_any_word(g),
                                   mc__gen_one_in(g, 2) ? json_object_new_string("x") : mc__gen_odd_value(g));
        } else if (json_object_is_type(nd->value, json_type_array))
            json_object_array_add(nd->value, mc__gen_odd_value(g));
        else
            json_object_object_add(msg, mc__gen_any_word(g),
                                   mc__gen_odd_value(g));
        break;
    default: /* boundary number */
        if (json_object_is_type(nd->value, json_type_int)) {
            static const int64_t b[] = {0, -1, 1, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
            node_set(nd, json_object_new_int64(b[mc_gen_below(g, N_ELEMS(b))]));
        } else {
            node_set(nd, mc__gen_odd_value(g));
        }
        break;
    }
    free(nodes);
}

/* A copy of msg as a malformed line: truncated, or with bytes around it. */
static json_object *mangle_line(mc_gen_t *g, json_object *msg)
{
    const char *s = json_object_is_type(msg, json_type_string)
                        ? json_object_get_string(msg)
                        : json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN);
    size_t len = strlen(s);
    char buf[1024];

    switch (mc_gen_below(g, 4)) {
    case 0:
        snprintf(buf, sizeof(buf), "%.*s", (int)(len > 1 ? mc_gen_below(g, len) : 0), s);
        break;
    case 1:
        snprintf(buf, sizeof(buf), "[%.1000s]", s);
        break;
    case 2:
        snprintf(buf, sizeof(buf), "%.1000s}", s);
        break;
    default:
        snprintf(buf, sizeof(buf), "%.1000s", s);
        if (len > 0 && len < sizeof(buf))
            buf[mc_gen_below(g, len)] = "\x01{\":,]\\"[mc_gen_below(g, 7)];
        break;
    }
    return json_object_new_string(buf);
}

static json_object *pick_id(mc_gen_t *g, json_object *seq)
{
    size_t i, n = json_object_array_length(seq), start = mc_gen_below(g, n ? n : 1);

    for (i = 0; i < n; i++) {
        json_object *id = mc_json_get(json_object_array_get_idx(seq, (start + i) % n), "id");
        if (id != NULL)
            return id;
    }
    return NULL;
}

static void insert_at(json_object *seq, size_t pos, json_object *m)
{
    size_t n = json_object_array_length(seq), i;

    if (m == NULL)
        return;
    if (n >= MC_GEN_MAX_SEQ) {
        json_object_put(m);
        return;
    }
    json_object_array_add(seq, NULL);
    for (i = n; i > pos; i--)
        json_object_array_put_idx(seq, i, json_object_get(json_object_array_get_idx(seq, i - 1)));
    json_object_array_put_idx(seq, pos, m);
}

/* Keeps seq up to one of its messages, then appends a new message. */
static void cut_and_append(mc_gen_t *g, json_object *seq)
{
    size_t n = json_object_array_length(seq);

    if (n > 1) {
        size_t keep = 1 + mc_gen_below(g, n);
        if (keep < n)
            json_object_array_del_idx(seq, keep, n - keep);
    }
    insert_at(seq, json_object_array_length(seq), mc_gen_message(g));
}

/* Gives one request of seq a progress token (params._meta.progressToken). */
static void add_progress_token(mc_gen_t *g, json_object *seq)
{
    size_t n = json_object_array_length(seq), k;
    json_object *m, *c = NULL, *p, *meta;
    char tok[32];

    if (n == 0)
        return;
    k = mc_gen_below(g, n);
    m = json_object_array_get_idx(seq, k);
    if (!json_object_is_type(m, json_type_object) || mc_json_get(m, "method") == NULL ||
        mc_json_get(m, "id") == NULL || json_object_deep_copy(m, &c, NULL) != 0)
        return;
    p = mc_json_get(c, "params");
    if (!json_object_is_type(p, json_type_object)) {
        p = json_object_new_object();
        json_object_object_add(c, "params", p);
    }
    meta = mc_json_get(p, "_meta");
    if (!json_object_is_type(meta, json_type_object)) {
        meta = json_object_new_object();
        json_object_object_add(p, "_meta", meta);
    }
    snprintf(tok, sizeof(tok), "p%llu", (unsigned long long)(mc_gen_rand(g) & 0xffff));
    json_object_object_add(meta, "progressToken", json_object_new_string(tok));
    json_object_array_put_idx(seq, k, c);
}

/* --- consistent renaming ------------------------------------------------ */

static int list_has(const mc_gen_list_t *l, const char *s)
{
    size_t i;

    for (i = 0; l != NULL && i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

/* The list of revealed names that s is one of, with the lists that may
 * stand for it: a URI may become any other URI, listed or made from a
 * template. Returns the number of lists put in out (0: s was not revealed). */
static size_t lists_of(mc_gen_t *g, const char *s, const mc_gen_list_t **out)
{
    const mc_gen_list_t *kinds[][2] = {{&g->tools, NULL},
                                       {&g->prompts, NULL},
                                       {&g->resources, &g->templates},
                                       {&g->templates, &g->resources}};
    size_t k;

    for (k = 0; k < N_ELEMS(kinds); k++)
        if (list_has(kinds[k][0], s)) {
            out[0] = kinds[k][0];
            out[1] = kinds[k][1];
            return out[1] != NULL ? 2 : 1;
        }
    return 0;
}

/* Puts to (copied) in place of every string value equal to from in v. */
static void rename_in(json_object *v, const char *from, const char *to, int depth)
{
    if (depth > 16 || v == NULL)
        return;
    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, k, val)
        {
            if (json_object_is_type(val, json_type_string) &&
                strcmp(json_object_get_string(val), from) == 0)
                json_object_object_add(v, k, json_object_new_string(to));
            else
                rename_in(val, from, to, depth + 1);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        size_t i, len = json_object_array_length(v);
        for (i = 0; i < len; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            if (json_object_is_type(e, json_type_string) &&
                strcmp(json_object_get_string(e), from) == 0)
                json_object_array_put_idx(v, i, json_object_new_string(to));
            else
                rename_in(e, from, to, depth + 1);
        }
    }
}

/* The revealed names (tools, prompts, URIs) that seq's messages use, at
 * most MC_GEN_MAX_NODES, into names (borrowed from seq); with want, only
 * those that want (or the other URI list, for a URI list) holds. */
static size_t revealed_in(mc_gen_t *g, json_object *seq, const mc_gen_list_t *want,
                          node_t *nodes, const char **names)
{
    size_t i, k, n = json_object_array_length(seq), cands = 0;
    const mc_gen_list_t *ls[2];

    for (i = 0; i < n && cands < MC_GEN_MAX_NODES; i++) {
        size_t nn = 0;
        collect(json_object_array_get_idx(seq, i), nodes, &nn, 0);
        for (k = 0; k < nn && cands < MC_GEN_MAX_NODES; k++)
            if (json_object_is_type(nodes[k].value, json_type_string) &&
                lists_of(g, json_object_get_string(nodes[k].value), ls) > 0 &&
                (want == NULL || ls[0] == want || ls[1] == want))
                names[cands++] = json_object_get_string(nodes[k].value);
    }
    return cands;
}

const char *mc__gen_used_name(mc_gen_t *g, const mc_gen_list_t *l)
{
    node_t *nodes = malloc(sizeof(node_t) * MC_GEN_MAX_NODES);
    const char **names = malloc(sizeof(*names) * MC_GEN_MAX_NODES);
    const char *got = NULL;
    size_t cands = 0;

    if (nodes != NULL && names != NULL && g->ctx != NULL)
        cands = revealed_in(g, g->ctx, l, nodes, names);
    if (cands > 0)
        got = names[mc_gen_below(g, cands)];
    free(nodes);
    free(names);
    return got;
}

/* Renames one revealed name (a tool, a prompt, a URI) that seq uses to
 * another of its kind, in every message at once: half the time to one the
 * sequence already names (two requests that named two URIs then name one:
 * a subscribe and an unsubscribe of the same resource), else to any
 * revealed. A sequence that subscribes, unsubscribes and reads one URI
 * does the same with another. The messages of seq are its own
 * (mc_gen_mutate copied them). */
static void rename_revealed(mc_gen_t *g, json_object *seq)
{
    node_t *nodes = malloc(sizeof(node_t) * MC_GEN_MAX_NODES);
    const char **names = malloc(sizeof(*names) * MC_GEN_MAX_NODES);
    const mc_gen_list_t *ls[2] = {NULL, NULL};
    char from[MC_GEN_MAX_NAME_LEN + 1], to[MC_GEN_MAX_NAME_LEN + 1];
    size_t i, k, cands = 0, n = json_object_array_length(seq);

    from[0] = to[0] = '\0';
    if (nodes != NULL && names != NULL && (cands = revealed_in(g, seq, NULL, nodes, names)) > 0) {
        snprintf(from, sizeof(from), "%s", names[mc_gen_below(g, cands)]);
        (void)lists_of(g, from, ls);
        if (mc__gen_one_in(g, 2))
            for (i = 0, k = mc_gen_below(g, cands); i < cands; i++) {
                const char *s = names[(k + i) % cands];
                if (strcmp(s, from) != 0 && (list_has(ls[0], s) || list_has(ls[1], s))) {
                    snprintf(to, sizeof(to), "%s", s);
                    break;
                }
            }
    }
    free(nodes);
    free(names);
    if (from[0] == '\0')
        return;
    if (to[0] == '\0') {
        k = mc_gen_below(g, ls[0]->n + (ls[1] != NULL ? ls[1]->n : 0));
        snprintf(to, sizeof(to), "%s", k < ls[0]->n ? ls[0]->v[k] : ls[1]->v[k - ls[0]->n]);
    }
    if (strcmp(to, from) == 0)
        return;
    for (i = 0; i < n; i++)
        rename_in(json_object_array_get_idx(seq, i), from, to, 0);
}

static void one_mutation(mc_gen_t *g, json_object *seq, json_object *other)
{
    size_t n = json_object_array_length(seq);
    json_object *m, *id;

    switch (mc_gen_below(g, 15)) {
    case 14: /* a revealed name renamed in every message that uses it */
        rename_revealed(g, seq);
        break;
    case 13: /* extend: keep the sequence up to a message, then one new one */
        cut_and_append(g, seq);
        break;
    case 11: /* how the client answers the server's requests from here on */
        insert_at(seq, mc_gen_below(g, n + 1), mc_gen_answer(g));
        break;
    case 12: /* a progress token on a request (progress notifications follow) */
        add_progress_token(g, seq);
        break;
    case 0:
    case 1: /* insert a new message */
        insert_at(seq, mc_gen_below(g, n + 1), mc_gen_message(g));
        break;
    case 2: /* drop one */
        if (n > 1)
            json_object_array_del_idx(seq, mc_gen_below(g, n), 1);
        break;
    case 3: /* repeat one (same id: a collision) */
        if (n > 0)
            insert_at(seq, mc_gen_below(g, n + 1),
                      json_object_get(json_object_array_get_idx(seq, mc_gen_below(g, n))));
        break;
    case 4: /* move one */
        if (n > 1) {
            size_t a = mc_gen_below(g, n), b = mc_gen_below(g, n);
            json_object *x = json_object_get(json_object_array_get_idx(seq, a));
            json_object *y = json_object_get(json_object_array_get_idx(seq, b));
            json_object_array_put_idx(seq, a, y);
            json_object_array_put_idx(seq, b, x);
        }
        break;
    case 5:
    case 6: /* change a message's tree (or an answer's result or error) */
        if (n > 0) {
            size_t k = mc_gen_below(g, n);
            json_object *c = NULL;
            m = json_object_array_get_idx(seq, k);
            if (json_object_is_type(m, json_type_object) && json_object_deep_copy(m, &c, NULL) == 0) {
                json_object *body = mc_json_get(c, "with");
                if (mc_json_get_str(c, "answer") != NULL && mc_json_get(c, "method") == NULL &&
                    (body != NULL || (body = mc_json_get(c, "error")) != NULL) &&
                    json_object_is_type(body, json_type_object) && !mc__gen_one_in(g, 8))
                    mutate_tree(g, body);
                else
                    mutate_tree(g, c);
                json_object_array_put_idx(seq, k, c);
            }
        }
        break;
    case 7: /* an id made to collide, or given an odd type */
        if (n > 0) {
            size_t k = mc_gen_below(g, n);
            json_object *c = NULL;
            m = json_object_array_get_idx(seq, k);
            id = pick_id(g, seq);
            if (!json_object_is_type(m, json_type_object) || mc_json_get(m, "method") == NULL ||
                json_object_deep_copy(m, &c, NULL) != 0)
                break;
            if (id != NULL && !mc__gen_one_in(g, 3))
                json_object_object_add(c, "id", json_object_get(id));
            else
                json_object_object_add(c, "id", mc__gen_odd_value(g));
            json_object_array_put_idx(seq, k, c);
        }
        break;
    case 8: /* a cancellation of a request in the sequence */
        id = pick_id(g, seq);
        if (id != NULL) {
            json_object *c = json_object_new_object(), *p = json_object_new_object();
            json_object_object_add(c, "jsonrpc", json_object_new_string("2.0"));
            json_object_object_add(c, "method", json_object_new_string("notifications/cancelled"));
            json_object_object_add(p, "requestId", json_object_get(id));
            json_object_object_add(c, "params", p);
            insert_at(seq, mc_gen_below(g, n + 1), c);
        }
        break;
    case 9: /* a malformed line */
        if (n > 0 && mc__gen_one_in(g, 2)) {
            size_t k = mc_gen_below(g, n);
            json_object_array_put_idx(seq, k, mangle_line(g, json_object_array_get_idx(seq, k)));
        }
        break;
    default: /* splice messages of another sequence */
        if (other != NULL && json_object_array_length(other) > 0) {
            size_t on = json_object_array_length(other), k = mc_gen_below(g, on), c;
            size_t cnt = 1 + mc_gen_below(g, on - k);
            for (c = 0; c < cnt; c++) {
                json_object *cp = NULL;
                if (json_object_deep_copy(json_object_array_get_idx(other, k + c), &cp, NULL) == 0)
                    insert_at(seq, mc_gen_below(g, json_object_array_length(seq) + 1), cp);
            }
        } else {
            insert_at(seq, mc_gen_below(g, n + 1), mc_gen_message(g));
        }
        break;
    }
}

json_object *mc_gen_mutate(mc_gen_t *g, json_object *seq, json_object *other)
{
    json_object *out = NULL;
    size_t i, rounds = 1 + mc_gen_below(g, 4);

    if (seq == NULL || json_object_deep_copy(seq, &out, NULL) != 0 || out == NULL)
        return mc_gen_sequence(g);
    g->ctx = out;
    for (i = 0; i < rounds; i++)
        one_mutation(g, out, other);
    g->ctx = NULL;
    if (json_object_array_length(out) == 0)
        json_object_array_add(out, mc_gen_message(g));
    return out;
}

/* Appends to out one message (a new one, or one taken from other) and now
 * and then one mutation besides. */
static json_object *append_one(mc_gen_t *g, json_object *out, json_object *other)
{
    json_object *m = NULL;
    size_t on = other != NULL ? json_object_array_length(other) : 0;

    if (on > 0 && mc__gen_one_in(g, 2) &&
        json_object_deep_copy(json_object_array_get_idx(other, mc_gen_below(g, on)), &m, NULL) != 0)
        m = NULL;
    g->ctx = out;
    if (m == NULL)
        m = mc_gen_message(g);
    insert_at(out, json_object_array_length(out), m);
    if (mc__gen_one_in(g, 3))
        one_mutation(g, out, other);
    g->ctx = NULL;
    if (json_object_array_length(out) == 0)
        json_object_array_add(out, mc_gen_message(g));
    return out;
}

json_object *mc_gen_extend(mc_gen_t *g, json_object *seq, json_object *other)
{
    json_object *out = NULL;
    size_t n;

    if (seq == NULL || json_object_deep_copy(seq, &out, NULL) != 0 || out == NULL)
        return mc_gen_sequence(g);
    n = json_object_array_length(out);
    /* Half the time from the end, else from a message inside. */
    if (n > 1 && mc__gen_one_in(g, 2)) {
        size_t keep = 1 + mc_gen_below(g, n);
        if (keep < n)
            json_object_array_del_idx(out, keep, n - keep);
    }
    return append_one(g, out, other);
}

json_object *mc_gen_extend_last(mc_gen_t *g, json_object *seq, json_object *other)
{
    json_object *out = NULL;
    size_t n;

    if (seq == NULL || json_object_deep_copy(seq, &out, NULL) != 0 || out == NULL)
        return mc_gen_sequence(g);
    n = json_object_array_length(out);
    if (n > 1 && mc__gen_one_in(g, 2))
        json_object_array_del_idx(out, n - 1, 1);
    return append_one(g, out, other);
}
