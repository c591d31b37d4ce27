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

#include "mutator_internal.h"

/* ---- the input as lines ---- */



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
int mc__mut_line_tree(doc_t *d, size_t i)
{
    line_t *l = &d->lines[i];

    if (!l->tried && !l->parsed && l->v == NULL) {
        l->tried = 1;
        l->v = parse_lenient(d, l->owned ? l->owned : l->bytes, l->len, &l->parsed);
    }
    return l->parsed && l->v != NULL;
}

void mc__mut_line_clear(line_t *l)
{
    json_object_put(l->v);
    free(l->owned);
    memset(l, 0, sizeof(*l));
}

static void doc_free(doc_t *d)
{
    size_t i;

    for (i = 0; i < d->n; i++)
        mc__mut_line_clear(&d->lines[i]);
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
            if (mc__mut_is_raw(l->v))
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
            changed |= mc__mut_line_op(d, &r);
        else
            changed |= mc__mut_tree_op(d, &r, max_size);
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
