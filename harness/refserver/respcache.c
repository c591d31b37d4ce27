/*
 * respcache.c - cached result bodies.
 *
 * Most answers of a session are the same bytes every time: a list page for a
 * given position, the contents of a fixed resource. Building them as
 * json_objects and encoding them costs far more than the request itself, so
 * the encoded "result" member is kept and each response is written around it
 * (mc__rs_result_body, textout.c). Handlers ask for a body with
 * mc__rs_fast_replay() and give one with mc__rs_fast_keep() (fast.h).
 *
 * The caches are only used while mc__rs_splice_ok() holds: messages may be
 * written as text (mc__rs_text_ok: no violation switch, no batch, nothing to
 * pretty-print) and a version has been negotiated. Otherwise every response
 * takes the ordinary json_object path, and the caches are neither read nor
 * filled.
 *
 * A cached body is valid for the key it was built for: what (a list or a
 * read), position, the list's revision and the negotiated version. Anything
 * that changes what a list holds must call mc__rs_fast_list_changed().
 *
 * A body for a key is the same bytes in every session of servers with the
 * same options: a list at revision 0 is the list a session starts with, and
 * the other parts of a key name everything else the body depends on. So a
 * cache built once (mc_refserver_cache_new, from private sessions of each
 * version) is shared read-only by many servers (rs->shared): a server looks
 * there when its own slot misses. Lists that changed are past revision 0
 * and never found there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/fastimpl.h"

#define RS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* Whether key's body may be read from or kept in a cache now: splicing is
 * allowed, and the version is negotiated unless the key names it anyway
 * (the initialize result is sent while the session is still new). */
static int cache_ok(const mc_refserver_t *rs, const rs_body_key_t *key)
{
    return key->what == RS_BODY_INIT ? mc__rs_text_ok(rs) : mc__rs_splice_ok(rs);
}

/* The key of the body for `what` at pos in the session's current state. */
static rs_body_key_t body_key(const mc_refserver_t *rs, uint32_t what, size_t pos)
{
    rs_body_key_t k;

    k.what = what;
    k.pos = (uint32_t)pos;
    k.rev = what < RS_BODY_LISTS ? rs->list_rev[what] : 0;
    k.version = (uint32_t)rs->version;
    return k;
}

static int key_equal(const rs_body_key_t *a, const rs_body_key_t *b)
{
    return a->what == b->what && a->pos == b->pos && a->rev == b->rev && a->version == b->version;
}

static size_t key_hash(const rs_body_key_t *k)
{
    uint64_t h = ((uint64_t)k->what * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)k->pos << 20) ^
                 ((uint64_t)k->rev << 40) ^ ((uint64_t)k->version << 56);

    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (size_t)h;
}

/* The shared body for key, or NULL. */
static const rs_body_t *shared_find(const struct mc_refserver_cache *c, const rs_body_key_t *key)
{
    size_t i;

    if (c == NULL || c->cap == 0)
        return NULL;
    for (i = key_hash(key) % c->cap; c->slots[i].text != NULL; i = (i + 1) % c->cap)
        if (key_equal(&c->slots[i].key, key))
            return &c->slots[i];
    return NULL;
}

/* Answers from slot, or from the shared cache, when one holds key's body.
 * Returns 1 when the response was sent. */
static int send_cached(mc_refserver_t *rs, const rs_body_t *slot, const rs_body_key_t *key,
                       json_object *id)
{
    const rs_body_t *b;

    if (!cache_ok(rs, key))
        return 0;
    b = slot->text != NULL && key_equal(&slot->key, key) ? slot : shared_find(rs->shared, key);
    if (b == NULL)
        return 0;
    mc__rs_result_body(rs, id, b->text, b->len);
    return 1;
}

/* Empties a slot. */
static void body_clear(rs_body_t *slot)
{
    if (slot->text == NULL)
        return;
    free(slot->text);
    memset(slot, 0, sizeof(*slot));
}

/* Stores the encoding of result in slot. Returns 0, or -1 (slot emptied)
 * when it cannot be encoded, is too large to keep, or memory runs out. */
static int body_store(rs_body_t *slot, const rs_body_key_t *key, json_object *result)
{
    size_t n = 0;
    const char *s = json_object_to_json_string_length(result, RS_JSON_FLAGS, &n);
    char *copy;

    body_clear(slot);
    if (s == NULL || n > RS_CACHE_MAX_BODY)
        return -1;
    copy = malloc(n + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, s, n + 1);
    slot->text = copy;
    slot->len = n;
    slot->key = *key;
    return 0;
}

/* Sends result and, when bodies may be kept, keeps its encoding in slot. */
static void result_cached(mc_refserver_t *rs, rs_body_t *slot, const rs_body_key_t *key,
                          json_object *id, json_object *result)
{
    /* rs->failed means some member may be missing: such a body is never kept. */
    if (result == NULL || !cache_ok(rs, key) || rs->failed || body_store(slot, key, result) != 0) {
        mc__rs_result(rs, id, result);
        return;
    }
    json_object_put(result);
    mc__rs_result_body(rs, id, slot->text, slot->len);
}

/* The page slot for the page of list starting at item start. */
static rs_body_t *page_slot(mc_refserver_t *rs, uint32_t list, size_t start)
{
    return &rs->page_cache[list][(start / (size_t)rs->page_size) % RS_PAGE_CACHE_SLOTS];
}

void mc__rs_fast_list_changed(mc_refserver_t *rs, uint32_t list)
{
    int i;

    rs->list_rev[list]++;
    for (i = 0; i < RS_PAGE_CACHE_SLOTS; i++)
        body_clear(&rs->page_cache[list][i]);
}

/* The slot that keeps (what, pos)'s body, or NULL when none does. */
static rs_body_t *slot_for(mc_refserver_t *rs, uint32_t what, size_t pos)
{
    if (what < RS_BODY_LISTS)
        return page_slot(rs, what, pos);
    if (what == RS_BODY_READ && pos < RS_READ_CACHE_SLOTS)
        return &rs->read_cache[pos];
    if (what == RS_BODY_INIT)
        return &rs->init_body;
    return NULL;
}

const rs_body_t *mc__rs_page_kept(mc_refserver_t *rs, uint32_t list, size_t start)
{
    rs_body_key_t key = body_key(rs, list, start);
    const rs_body_t *slot = page_slot(rs, list, start);

    return slot->text != NULL && key_equal(&slot->key, &key) ? slot : NULL;
}

int mc__rs_fast_replay(mc_refserver_t *rs, uint32_t what, size_t pos, json_object *id)
{
    const rs_body_t *slot = slot_for(rs, what, pos);
    rs_body_key_t key;

    if (slot == NULL)
        return 0;
    key = body_key(rs, what, pos);
    return send_cached(rs, slot, &key, id);
}

void mc__rs_fast_keep(mc_refserver_t *rs, uint32_t what, size_t pos, json_object *id,
                      json_object *result)
{
    rs_body_t *slot = slot_for(rs, what, pos);
    rs_body_key_t key;

    if (slot == NULL) {
        mc__rs_result(rs, id, result);
        return;
    }
    key = body_key(rs, what, pos);
    result_cached(rs, slot, &key, id, result);
}

void mc__rs_cache_free(mc_refserver_t *rs)
{
    size_t l, i;

    for (l = 0; l < RS_BODY_LISTS; l++)
        for (i = 0; i < RS_PAGE_CACHE_SLOTS; i++)
            body_clear(&rs->page_cache[l][i]);
    for (i = 0; i < RS_READ_CACHE_SLOTS; i++)
        body_clear(&rs->read_cache[i]);
    body_clear(&rs->init_body);
}

/* ---- the shared cache (mc_refserver_cache_new) ---- */

int mc__rs_shared_add(struct mc_refserver_cache *c, const rs_body_t *b)
{
    size_t i;
    char *copy;

    if (b->text == NULL || shared_find(c, &b->key) != NULL)
        return 0;
    if ((c->n + 1) * 2 > c->cap) {
        struct mc_refserver_cache bigger = *c;
        size_t cap = c->cap ? c->cap * 2 : 256;
        bigger.slots = calloc(cap, sizeof(rs_body_t));
        if (bigger.slots == NULL)
            return -1;
        bigger.cap = cap;
        bigger.n = 0;
        for (i = 0; i < c->cap; i++) {
            size_t j;
            if (c->slots[i].text == NULL)
                continue;
            for (j = key_hash(&c->slots[i].key) % cap; bigger.slots[j].text != NULL;
                 j = (j + 1) % cap)
                ;
            bigger.slots[j] = c->slots[i];
            bigger.n++;
        }
        free(c->slots);
        *c = bigger;
    }
    copy = malloc(b->len + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, b->text, b->len + 1);
    for (i = key_hash(&b->key) % c->cap; c->slots[i].text != NULL; i = (i + 1) % c->cap)
        ;
    c->slots[i] = *b;
    c->slots[i].text = copy;
    c->n++;
    return 0;
}

void mc__rs_fast_free(mc_refserver_t *rs)
{
    mc__rs_cache_free(rs);
    if (rs->tok != NULL)
        json_tokener_free(rs->tok);
    rs->tok = NULL;
}
