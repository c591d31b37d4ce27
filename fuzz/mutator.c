/*
 * mutator.c - structure-aware mutation of newline-delimited JSON (see mutator.h).
 *
 * Strategy per call: split the input into lines, then apply one to four
 * operations chosen at random: a tree operation on a node of a line that
 * parses as JSON, a line operation on the sequence, or a byte-level
 * mutation. Lines are parsed with json-c (leniently: the mutator reads what
 * the fuzzer wrote, it judges nothing) only when an operation picks them,
 * with one tokener per call: the mutator runs before every execution, and
 * under ASan each allocation it makes costs as much as the target's. Only
 * lines that changed are serialized again, so the exact bytes of the others
 * survive. Malformed tokens (numbers such as 01 or 1e999, strings with raw
 * control characters or lone surrogate escapes, objects with a duplicated
 * key) are spliced in as "raw" nodes: json-c objects whose serializer writes
 * given bytes verbatim; deep nesting is written as one raw node too.
 */
#include "mutator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

#include "mcp_words.inc"

#define MAX_LINES 128
#define MAX_NODES 1024
#define MAX_RAW 16384

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- randomness: xorshift64*, seeded per call (deterministic) ---- */

typedef struct rng {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}

static size_t below(rng_t *r, size_t n)
{
    return n == 0 ? 0 : (size_t)(rnd(r) % n);
}

static void rng_seed(rng_t *r, unsigned int seed)
{
    r->s = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 17) ^ seed;
    if (r->s == 0)
        r->s = 1;
    (void)rnd(r);
}

/* ---- raw nodes ---- */

typedef struct raw {
    int len;
    char text[];
} raw_t;

static int raw_to_string(json_object *jso, struct printbuf *pb, int level, int flags)
{
    raw_t *r = json_object_get_userdata(jso);

    (void)level;
    (void)flags;
    return printbuf_memappend(pb, r->text, r->len) < 0 ? -1 : 0;
}

static void raw_delete(json_object *jso, void *userdata)
{
    (void)jso;
    free(userdata);
}

/* A node that serializes as text[0..len) exactly. New reference or NULL. */
static json_object *new_raw(const char *text, size_t len)
{
    json_object *o;
    raw_t *r;

    if (len > MAX_RAW)
        return NULL;
    r = malloc(sizeof(*r) + len + 1);
    if (r == NULL)
        return NULL;
    o = json_object_new_string("");
    if (o == NULL) {
        free(r);
        return NULL;
    }
    r->len = (int)len;
    memcpy(r->text, text, len);
    r->text[len] = '\0';
    json_object_set_serializer(o, raw_to_string, r, raw_delete);
    return o;
}

static int is_raw(json_object *o)
{
    return o != NULL && json_object_is_type(o, json_type_string) &&
           json_object_get_userdata(o) != NULL;
}

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

static json_object *parse_lenient(doc_t *d, const uint8_t *s, size_t len, int *ok)
{
    json_tokener *tok;
    json_object *v = NULL;

    *ok = 0;
    if (len == 0 || len > (1u << 20))
        return NULL;
    if (d->tok == NULL)
        d->tok = json_tokener_new_ex(64);
    tok = d->tok;
    if (tok == NULL)
        return NULL;
    json_tokener_reset(tok);
    v = json_tokener_parse_ex(tok, (const char *)s, (int)len);
    if (v == NULL && json_tokener_get_error(tok) == json_tokener_continue)
        v = json_tokener_parse_ex(tok, " ", 1);
    if (json_tokener_get_error(tok) == json_tokener_success &&
        json_tokener_get_parse_end(tok) >= len - 1) {
        *ok = 1;
    } else {
        json_object_put(v);
        v = NULL;
        /* json-c 0.16's json_tokener_reset() keeps a pending high surrogate
         * of a parse that stopped inside a string: start the next line
         * with a new tokener. */
        json_tokener_free(d->tok);
        d->tok = NULL;
    }
    return v;
}

static void doc_split(doc_t *d, const uint8_t *data, size_t size)
{
    size_t start = 0, i;

    memset(d, 0, sizeof(*d));
    d->trailing_nl = size > 0 && data[size - 1] == '\n';
    for (i = 0; i <= size && d->n < MAX_LINES; i++) {
        if (i == size || data[i] == '\n') {
            if (i == size && i == start && d->n > 0)
                break;
            d->lines[d->n].bytes = data + start;
            d->lines[d->n].len = i - start;
            d->n++;
            start = i + 1;
        }
    }
    /* Lines past MAX_LINES are kept as one last raw line. */
    if (start < size && d->n == MAX_LINES) {
        d->lines[MAX_LINES - 1].len = size - (size_t)(d->lines[MAX_LINES - 1].bytes - data);
    }
}

/* True when line i holds a JSON value other than null (parsing it now if
 * no parse was tried yet). */
static int line_tree(doc_t *d, size_t i)
{
    line_t *l = &d->lines[i];

    if (!l->tried && !l->parsed && l->v == NULL) {
        l->tried = 1;
        l->v = parse_lenient(d, l->owned ? l->owned : l->bytes, l->len, &l->parsed);
    }
    return l->parsed && l->v != NULL;
}

static void line_clear(line_t *l)
{
    json_object_put(l->v);
    free(l->owned);
    memset(l, 0, sizeof(*l));
}

static void doc_free(doc_t *d)
{
    size_t i;

    for (i = 0; i < d->n; i++)
        line_clear(&d->lines[i]);
    d->n = 0;
    if (d->tok != NULL)
        json_tokener_free(d->tok);
    d->tok = NULL;
}

/* Writes the document to out. Returns its size, or 0 when it does not fit. */
static size_t doc_write(doc_t *d, uint8_t *out, size_t max)
{
    size_t o = 0, i;

    for (i = 0; i < d->n; i++) {
        line_t *l = &d->lines[i];
        const char *s;
        size_t n;
        if (l->dirty) {
            s = l->v == NULL ? "null"
                             : json_object_to_json_string_ext(
                                   l->v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
            if (s == NULL)
                return 0;
            n = strlen(s);
            if (is_raw(l->v))
                n = (size_t)((raw_t *)json_object_get_userdata(l->v))->len;
        } else {
            s = (const char *)(l->owned ? l->owned : l->bytes);
            n = l->len;
        }
        if (o + n + 1 > max)
            return 0;
        if (n > 0)
            memcpy(out + o, s, n);
        o += n;
        if (i + 1 < d->n || d->trailing_nl)
            out[o++] = '\n';
    }
    return o;
}

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

static void collect(walk_t *w, json_object *v, json_object *parent, const char *key, size_t idx,
                    int depth)
{
    node_t *nd;

    if (w->n == MAX_NODES || is_raw(v))
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

/* ---- value makers ---- */

static const char *dict_word(rng_t *r)
{
    switch (below(r, 4)) {
    case 0:
        return mc_fuzz_words_methods[below(r, COUNT(mc_fuzz_words_methods))];
    case 1:
        return mc_fuzz_words_keys[below(r, COUNT(mc_fuzz_words_keys))];
    case 2:
        return mc_fuzz_words_values[below(r, COUNT(mc_fuzz_words_values))];
    default:
        return mc_fuzz_words_defs[below(r, COUNT(mc_fuzz_words_defs))];
    }
}

static json_object *boundary_number(rng_t *r)
{
    static const int64_t ints[] = {0,          1,           -1,         2,
                                   127,        128,         255,        256,
                                   32767,      65535,       65536,      2147483647,
                                   2147483648, -2147483648, 4294967295, 4294967296,
                                   INT64_MAX,  INT64_MIN,   INT64_MAX - 1, 1000000};
    /* Valid JSON numbers json-c may not round-trip, then invalid ones. */
    static const char *const texts[] = {
        "-0", "0.0", "1.0", "0.5", "1e2", "1E+2", "1e-2", "1e308", "1e309", "-1e309", "1e-400",
        "4.9e-324", "9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616", "123456789012345678901234567890", "0.1e1", "100e-2",
        /* not JSON */
        "01", "-01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "NaN", "Infinity", "-Infinity",
        "1_000", "1.5.5"};

    if (below(r, 2) == 0)
        return json_object_new_int64(ints[below(r, COUNT(ints))]);
    {
        const char *t = texts[below(r, COUNT(texts))];
        return new_raw(t, strlen(t));
    }
}

static json_object *odd_string(rng_t *r, size_t room)
{
    static const char *const utf8_bad[] = {
        "\xff",         "\xc0\x80",     "\xc1\xbf",         "\xed\xa0\x80", "\xed\xbf\xbf",
        "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82", "\x80",     "a\xe9z",
        "\xef\xbf\xbe",  "\xf0\x9f\x98\x80"};
    /* Raw string tokens: escapes and bytes the JSON grammar refuses or
     * that stress decoders. */
    static const char *const raw_tokens[] = {
        "\"\\ud800\"",    "\"\\udc00\"",      "\"\\ud800\\u0041\"", "\"\\ud83d\\ude00\"",
        "\"\\u0000\"",    "\"a\\u0000b\"",    "\"\\uFFFF\"",        "\"\\x41\"",
        "\"\\'\"",        "\"\t\"",           "\"a\x01z\"",         "\"\x7f\"",
        "'single'",       "\"unterminated",   "\"\\u12\"",          "\"\\uZZZZ\"",
        "\"\\/\"",        "\"\\\"\""};
    static const char *const paths[] = {
        "file:///etc/passwd", "file://localhost/etc/passwd", "file:///tmp/../etc/passwd",
        "file:///%2e%2e/%2e%2e/etc/passwd", "file:///a%00b", "file://host/share/x",
        "file:///", "file://", "test://static-text", "test://template/1/data",
        "test://template//data", "test://template/../data", "test://watched-resource",
        "test://nope", "../../..", "%", "%zz", "a?b#c", "C:\\Windows", "\\\\?\\C:\\x"};
    switch (below(r, 7)) {
    case 0:
        return json_object_new_string("");
    case 1: { /* long: a word repeated */
        const char *w = below(r, 2) ? dict_word(r) : "A";
        size_t wl = strlen(w), target = (size_t)1 << (6 + below(r, 9)), n = 0;
        char *buf;
        json_object *o;
        if (target > room / 2)
            target = room / 2;
        if (target < wl)
            target = wl;
        buf = malloc(target + 1);
        if (buf == NULL)
            return NULL;
        while (n + wl <= target) {
            memcpy(buf + n, w, wl);
            n += wl;
        }
        o = json_object_new_string_len(buf, (int)n);
        free(buf);
        return o;
    }
    case 2: {
        const char *b = utf8_bad[below(r, COUNT(utf8_bad))];
        char buf[32];
        size_t n = strlen(b);
        /* Bad bytes alone or inside a word. */
        if (below(r, 2)) {
            memcpy(buf, "ab", 2);
            memcpy(buf + 2, b, n);
            memcpy(buf + 2 + n, "cd", 2);
            return json_object_new_string_len(buf, (int)(n + 4));
        }
        return json_object_new_string_len(b, (int)n);
    }
    case 3:
        return json_object_new_string_len("a\0b", 3);
    case 4: {
        const char *t = raw_tokens[below(r, COUNT(raw_tokens))];
        return new_raw(t, strlen(t));
    }
    case 5:
        return json_object_new_string(paths[below(r, COUNT(paths))]);
    default:
        return json_object_new_string(dict_word(r));
    }
}

static json_object *random_value(rng_t *r, size_t room)
{
    switch (below(r, 9)) {
    case 0:
        return NULL; /* JSON null */
    case 1:
        return json_object_new_boolean((int)below(r, 2));
    case 2:
        return boundary_number(r);
    case 3:
        return json_object_new_double(below(r, 2) ? 0.5 : -1.25);
    case 4:
    case 5:
        return odd_string(r, room);
    case 6:
        return json_object_new_array();
    case 7:
        return json_object_new_object();
    default:
        return json_object_new_string(dict_word(r));
    }
}

/* A deep copy, or NULL when v holds raw nodes json-c cannot copy. */
static json_object *copy_of(json_object *v, int *ok)
{
    json_object *c = NULL;

    *ok = v == NULL || json_object_deep_copy(v, &c, NULL) == 0;
    return c;
}

/* Replaces an object node by a raw copy of itself with one member twice. */
static json_object *dup_key_raw(rng_t *r, json_object *obj)
{
    const char *whole, *ks, *vs;
    struct printbuf *pb;
    json_object *o = NULL, *key;
    size_t n = (size_t)json_object_object_length(obj), pick, i = 0;
    int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

    if (n == 0)
        return NULL;
    pick = below(r, n);
    json_object_object_foreach(obj, k, val)
    {
        if (i++ != pick)
            continue;
        pb = printbuf_new();
        key = json_object_new_string(k);
        if (pb == NULL || key == NULL) {
            printbuf_free(pb);
            json_object_put(key);
            return NULL;
        }
        whole = json_object_to_json_string_ext(obj, flags);
        ks = json_object_to_json_string_ext(key, flags);
        vs = val == NULL ? "null" : json_object_to_json_string_ext(val, flags);
        if (whole != NULL && ks != NULL && vs != NULL && whole[0] == '{') {
            /* {"k":v, + the rest of the object after its "{" */
            printbuf_memappend(pb, "{", 1);
            printbuf_memappend(pb, ks, (int)strlen(ks));
            printbuf_memappend(pb, ":", 1);
            printbuf_memappend(pb, vs, (int)strlen(vs));
            printbuf_memappend(pb, ",", 1);
            printbuf_memappend(pb, whole + 1, (int)strlen(whole + 1));
            o = new_raw(pb->buf, (size_t)pb->bpos);
        }
        json_object_put(key);
        printbuf_free(pb);
        break;
    }
    return o;
}

/* Wraps v (consumed) in depth arrays or objects. */
static json_object *nest(rng_t *r, json_object *v, int depth)
{
    int i, as_obj = (int)below(r, 2);
    const char *open = as_obj ? "{\"a\":" : "[", *close = as_obj ? "}" : "]";
    size_t n = 0, no = strlen(open), at = 0;
    const char *text = v == NULL
                           ? "null"
                           : json_object_to_json_string_length(
                                 v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
    char *buf;
    json_object *raw;

    /* Written as one raw node (the bytes a tree of `depth` containers would
     * serialize to): a few allocations instead of three per level. */
    if (v == NULL)
        n = 4;
    if (text != NULL && is_raw(v))
        n = (size_t)((raw_t *)json_object_get_userdata(v))->len;
    buf = text != NULL ? malloc((size_t)depth * (no + 1) + n + 1) : NULL;
    if (buf != NULL) {
        for (i = 0; i < depth; i++, at += no)
            memcpy(buf + at, open, no);
        memcpy(buf + at, text, n);
        at += n;
        for (i = 0; i < depth; i++)
            buf[at++] = close[0];
        raw = new_raw(buf, at);
        free(buf);
        if (raw != NULL) {
            json_object_put(v);
            return raw;
        }
    }
    for (i = 0; i < depth; i++) {
        json_object *c = as_obj ? json_object_new_object() : json_object_new_array();
        if (c == NULL) {
            json_object_put(v);
            return NULL;
        }
        if (as_obj)
            json_object_object_add(c, "a", v);
        else
            json_object_array_add(c, v);
        v = c;
    }
    return v;
}

/* ---- operations ---- */

/* Picks a line holding a JSON tree: a random one, else the next that does.
 * Returns its index, or d->n when no line does. */
static size_t pick_tree_line(doc_t *d, rng_t *r)
{
    size_t start = below(r, d->n), k;

    for (k = 0; k < d->n; k++)
        if (line_tree(d, (start + k) % d->n))
            return (start + k) % d->n;
    return d->n;
}

/* One operation on a node of a parsed line. Returns 1 if something changed. */
static int tree_op(doc_t *d, rng_t *r, size_t max_size)
{
    static node_t nodes[MAX_NODES];
    size_t li, other;
    walk_t w = {nodes, 0};
    int ok;
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
        replace(l, nd, random_value(r, max_size));
        return 1;
    case 1: /* drop */
        if (nd->parent == NULL)
            return 0;
        if (json_object_is_type(nd->parent, json_type_object))
            json_object_object_del(nd->parent, nd->key);
        else
            json_object_array_del_idx(nd->parent, nd->idx, 1);
        l->dirty = 1;
        return 1;
    case 2: /* duplicate a key (raw) */
        if (!json_object_is_type(nd->v, json_type_object))
            return 0;
        nv = dup_key_raw(r, nd->v);
        if (nv == NULL)
            return 0;
        replace(l, nd, nv);
        return 1;
    case 3: { /* rename a key */
        json_object *val;
        const char *nk;
        char buf[160];
        if (nd->parent == NULL || !json_object_is_type(nd->parent, json_type_object))
            return 0;
        val = json_object_get(nd->v);
        json_object_object_del(nd->parent, nd->key);
        switch (below(r, 3)) {
        case 0:
            nk = dict_word(r);
            break;
        case 1: /* near miss: case flipped first letter, or a suffix */
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
    case 4: /* boundary number */
        replace(l, nd, boundary_number(r));
        return 1;
    case 5: /* odd string */
        replace(l, nd, odd_string(r, max_size));
        return 1;
    case 6: /* dictionary word for a string (a method for "method") */
        if (strcmp(nd->key, "method") == 0)
            nv = json_object_new_string(
                mc_fuzz_words_methods[below(r, COUNT(mc_fuzz_words_methods))]);
        else
            nv = json_object_new_string(dict_word(r));
        replace(l, nd, nv);
        return 1;
    case 7: { /* add a member */
        if (!json_object_is_type(nd->v, json_type_object))
            return 0;
        json_object_object_add(nd->v, mc_fuzz_words_keys[below(r, COUNT(mc_fuzz_words_keys))],
                               random_value(r, max_size));
        l->dirty = 1;
        return 1;
    }
    case 8: { /* nest around the depth limit */
        static const int depths[] = {1, 2, 16, 60, 62, 63, 64, 65, 100};
        int want = depths[below(r, COUNT(depths))];
        nv = copy_of(nd->v, &ok);
        if (!ok)
            return 0;
        replace(l, nd, nest(r, nv, want > nd->depth ? want - nd->depth : 1));
        return 1;
    }
    case 9: { /* splice a subtree from another line */
        walk_t w2 = {NULL, 0};
        static node_t nodes2[MAX_NODES];
        other = below(r, d->n);
        if (other == li || !line_tree(d, other))
            return 0;
        w2.nodes = nodes2;
        collect(&w2, d->lines[other].v, NULL, NULL, 0, 0);
        if (w2.n == 0)
            return 0;
        nv = copy_of(nodes2[below(r, w2.n)].v, &ok);
        if (!ok)
            return 0;
        replace(l, nd, nv);
        return 1;
    }
    case 10: { /* ids: collide with another line, retype, or remove */
        json_object *root = l->v, *oid;
        if (!json_object_is_type(root, json_type_object))
            return 0;
        other = below(r, d->n);
        switch (below(r, 4)) {
        case 0:
            if (!line_tree(d, other) || !json_object_is_type(d->lines[other].v, json_type_object) ||
                !json_object_object_get_ex(d->lines[other].v, "id", &oid))
                return 0;
            nv = copy_of(oid, &ok);
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
        default: /* ids 1..3 are what the server uses for its own requests */
            json_object_object_add(root, "id", json_object_new_int64(1 + (int64_t)below(r, 3)));
            break;
        }
        l->dirty = 1;
        return 1;
    }
    case 11: /* duplicate an array element */
        if (nd->parent == NULL || !json_object_is_type(nd->parent, json_type_array))
            return 0;
        nv = copy_of(nd->v, &ok);
        if (!ok)
            return 0;
        if (json_object_array_add(nd->parent, nv) != 0)
            json_object_put(nv);
        l->dirty = 1;
        return 1;
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

/* One operation on the line sequence. Returns 1 if something changed. */
static int line_op(doc_t *d, rng_t *r)
{
    size_t a = below(r, d->n), b = below(r, d->n);
    char buf[512];
    int n;

    switch (below(r, 7)) {
    case 0: /* repeat a line */
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
            d->lines[d->n].v = copy_of(d->lines[a].v, &ok);
            d->lines[d->n].parsed = ok;
            d->lines[d->n].dirty = ok;
            /* A tree json-c cannot copy (raw nodes): its bytes are not
             * written yet, and a line from an earlier operation has none
             * of its own to fall back on. */
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
    case 1: /* drop a line */
        if (d->n < 2)
            return 0;
        line_clear(&d->lines[a]);
        memmove(&d->lines[a], &d->lines[a + 1], (d->n - a - 1) * sizeof(line_t));
        d->n--;
        memset(&d->lines[d->n], 0, sizeof(line_t));
        return 1;
    case 2: /* move a line */
        if (a == b)
            return 0;
        move_line(d, a, b);
        return 1;
    case 3: /* insert a request built from the dictionary */
    case 4: { /* insert an answer to one of the server's requests */
        static const char *const results[] = {
            "{}",
            "{\"action\":\"accept\",\"content\":{\"username\":\"u\",\"email\":\"u@example.com\"}}",
            "{\"action\":\"decline\"}", "{\"action\":\"cancel\"}",
            "{\"roots\":[{\"uri\":\"file:///tmp\",\"name\":\"tmp\"}]}",
            ("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hi\"},"
             "\"model\":\"m\",\"stopReason\":\"endTurn\"}")};
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
    case 5: { /* cut a line short (a truncated message) */
        line_t *l = &d->lines[a];
        const uint8_t *src = l->owned ? l->owned : l->bytes;
        if (l->dirty || l->len < 2)
            return 0;
        {
            size_t keep = 1 + below(r, l->len - 1);
            char *tmp = malloc(keep);
            int ok;
            if (tmp == NULL)
                return 0;
            memcpy(tmp, src, keep);
            ok = set_line(l, tmp, keep);
            free(tmp);
            return ok;
        }
    }
    default: /* an empty line or a CRLF line ending */
        if (below(r, 2) == 0) {
            if (d->n == MAX_LINES)
                return 0;
            memset(&d->lines[d->n], 0, sizeof(line_t));
            d->lines[d->n].bytes = (const uint8_t *)"";
            d->n++;
            move_line(d, d->n - 1, b);
            return 1;
        } else {
            line_t *l = &d->lines[a];
            const uint8_t *src = l->owned ? l->owned : l->bytes;
            char *tmp;
            int ok;
            if (l->dirty)
                return 0;
            tmp = malloc(l->len + 1);
            if (tmp == NULL)
                return 0;
            if (l->len > 0)
                memcpy(tmp, src, l->len);
            tmp[l->len] = '\r';
            ok = set_line(l, tmp, l->len + 1);
            free(tmp);
            return ok;
        }
    }
}

/* ---- byte mutation (when the engine gives none) ---- */

/* libFuzzer's own byte mutator, when the engine is libFuzzer (weak: absent
 * under AFL++ and in the standalone driver). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

static size_t byte_mutate(uint8_t *data, size_t size, size_t max_size, rng_t *r)
{
    static const char *const tokens[] = {"{", "}", "[", "]", "\"", ":", ",", "\\", "\n",
                                         "null", "\"jsonrpc\":\"2.0\"", "\"id\":1"};
    size_t pos, n;

    if (LLVMFuzzerMutate != NULL)
        return LLVMFuzzerMutate(data, size, max_size);
    pos = below(r, size + 1);
    switch (below(r, 5)) {
    case 0:
        if (size > 0)
            data[below(r, size)] ^= (uint8_t)(1u << below(r, 8));
        return size > 0 ? size : 1;
    case 1:
        if (size > 0)
            data[below(r, size)] = (uint8_t)rnd(r);
        return size > 0 ? size : 1;
    case 2: /* delete a span of up to 16 bytes */
        if (size < 2 || pos >= size)
            return size > 0 ? size : 1;
        n = 1 + below(r, size - pos < 16 ? size - pos : 16);
        memmove(data + pos, data + pos + n, size - pos - n);
        return size - n > 0 ? size - n : 1;
    default: { /* insert a token */
        const char *t = tokens[below(r, COUNT(tokens))];
        n = strlen(t);
        if (size + n > max_size)
            return size > 0 ? size : 1;
        memmove(data + pos + n, data + pos, size - pos);
        memcpy(data + pos, t, n);
        return size + n;
    }
    }
}

/* ---- entry points ---- */

size_t mc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    doc_t *d;
    rng_t r;
    uint8_t *out;
    size_t n = 0;
    int ops, changed = 0, i;

    rng_seed(&r, seed);
    if (size == 0 || max_size < 2 || below(&r, 8) == 0)
        return byte_mutate(data, size, max_size, &r);
    d = malloc(sizeof(*d));
    out = malloc(max_size);
    if (d == NULL || out == NULL) {
        free(d);
        free(out);
        return byte_mutate(data, size, max_size, &r);
    }
    doc_split(d, data, size);
    ops = 1 + (int)below(&r, 4);
    for (i = 0; i < ops; i++) {
        if (below(&r, 4) == 0)
            changed |= line_op(d, &r);
        else
            changed |= tree_op(d, &r, max_size);
    }
    if (changed)
        n = doc_write(d, out, max_size);
    doc_free(d);
    free(d);
    if (n == 0) {
        free(out);
        return byte_mutate(data, size, max_size, &r);
    }
    memcpy(data, out, n);
    free(out);
    return n;
}

size_t mc_fuzz_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                         size_t max_out, unsigned int seed)
{
    doc_t *da, *db;
    rng_t r;
    size_t o = 0, i, cut_a, cut_b;

    rng_seed(&r, seed);
    da = malloc(sizeof(*da));
    db = malloc(sizeof(*db));
    if (da == NULL || db == NULL) {
        free(da);
        free(db);
        return 0;
    }
    doc_split(da, a, na);
    doc_split(db, b, nb);
    /* A prefix of one session followed by a suffix of the other. */
    cut_a = below(&r, da->n + 1);
    cut_b = below(&r, db->n + 1);
    for (i = 0; i < cut_a + (db->n - cut_b); i++) {
        const line_t *l = i < cut_a ? &da->lines[i] : &db->lines[cut_b + i - cut_a];
        if (o + l->len + 1 > max_out)
            break;
        memcpy(out + o, l->bytes, l->len);
        o += l->len;
        out[o++] = '\n';
    }
    doc_free(da);
    doc_free(db);
    free(da);
    free(db);
    return o;
}

#if defined(MC_FUZZ_LIBFUZZER_MUTATOR)
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return mc_fuzz_mutate(data, size, max_size, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size,
                                 unsigned int seed)
{
    return mc_fuzz_crossover(data1, size1, data2, size2, out, max_out_size, seed);
}
#endif

#if defined(MC_FUZZ_AFL_MUTATOR)
/* AFL++ custom mutator API (AFL_CUSTOM_MUTATOR_LIBRARY). */
typedef struct afl_mut {
    rng_t r;
    uint8_t *buf;
    size_t cap;
} afl_mut_t;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    afl_mut_t *m = calloc(1, sizeof(*m));

    (void)afl;
    if (m != NULL)
        rng_seed(&m->r, seed);
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    afl_mut_t *m = data;
    size_t cap = max_size < (1u << 20) ? max_size : (1u << 20), n;

    if (m->cap < cap) {
        uint8_t *nb = realloc(m->buf, cap);
        if (nb == NULL) {
            *out_buf = buf;
            return buf_size;
        }
        m->buf = nb;
        m->cap = cap;
    }
    if (add_buf != NULL && add_buf_size > 0 && below(&m->r, 8) == 0) {
        n = mc_fuzz_crossover(buf, buf_size, add_buf, add_buf_size, m->buf, cap,
                              (unsigned int)rnd(&m->r));
        if (n > 0) {
            *out_buf = m->buf;
            return n;
        }
    }
    n = buf_size < cap ? buf_size : cap;
    memcpy(m->buf, buf, n);
    n = mc_fuzz_mutate(m->buf, n, cap, (unsigned int)rnd(&m->r));
    *out_buf = m->buf;
    return n;
}

void afl_custom_deinit(void *data)
{
    afl_mut_t *m = data;

    if (m != NULL)
        free(m->buf);
    free(m);
}
#endif
