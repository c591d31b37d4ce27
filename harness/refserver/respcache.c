/*
 * respcache.c - cached result bodies and responses spliced from text.
 *
 * Most answers of a session are the same bytes every time: a list page for a
 * given position, the contents of a fixed resource, the empty ping result.
 * Building them as json_objects and encoding them costs far more than the
 * request itself, so the encoded "result" member is kept and each response is
 * written as {"jsonrpc":"2.0","id":ID,"result":BODY} around it. The bytes are
 * exactly what encoding the json_object envelope would give: json-c's compact
 * encoding of an object member does not depend on where the object sits.
 *
 * Splicing is only used while mc__rs_splice_ok() holds: no violation switch
 * is on (several reshape envelopes, items or cursors), no batch is being
 * collected (batch answers are json_objects in an array) and nothing asked
 * for a pretty-printed message. Otherwise every response takes the ordinary
 * json_object path, and the caches are neither read nor filled.
 *
 * A cached body is valid for the key it was built for: what (a list or a
 * read), position, the list's revision and the negotiated version. Anything
 * that changes what a list holds must call mc__rs_list_changed().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/internal.h"

#define RS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char env_head[] = "{\"jsonrpc\":\"2.0\",\"id\":";
static const char env_mid[] = ",\"result\":";

int mc__rs_splice_ok(const mc_refserver_t *rs)
{
    return rs->bug == RS_BUG_NONE && rs->batch == NULL && !rs->pretty_next &&
           rs->phase != RS_PHASE_NEW;
}

/* Longest decimal integer id: "-" and 19 digits, or 20 digits. */
#define ID_TEXT_MAX 21

/* Writes the decimal digits of v, preceded by "-" when neg, at the end of
 * buf[0..ID_TEXT_MAX); returns where they start. */
static char *decimal(uint64_t v, int neg, char *buf)
{
    char *p = buf + ID_TEXT_MAX;

    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    if (neg)
        *--p = '-';
    return p;
}

/*
 * Encodes a request id as json-c does inside the envelope. Integers are
 * written into buf (the "%" PRId64 / "%" PRIu64 text json-c prints); strings
 * are escaped by json-c, and the pointer is then borrowed from id. Returns
 * NULL when out of memory.
 */
static const char *id_text(json_object *id, char buf[ID_TEXT_MAX], size_t *len)
{
    const char *s;
    int64_t v;

    if (id == NULL) {
        *len = 4;
        return "null";
    }
    if (!json_object_is_type(id, json_type_int))
        return json_object_to_json_string_length(id, RS_JSON_FLAGS, len);
    /* json-c keeps an integer as int64 or, above INT64_MAX, uint64;
     * get_int64 clamps the latter to INT64_MAX, get_uint64 does not. */
    v = json_object_get_int64(id);
    if (v >= 0)
        s = decimal(json_object_get_uint64(id), 0, buf);
    else
        s = decimal(v == INT64_MIN ? (uint64_t)INT64_MAX + 1u : (uint64_t)-v, 1, buf);
    *len = (size_t)(buf + ID_TEXT_MAX - s);
    return s;
}

/* Appends n bytes at *at in rs->out (room was reserved by the caller). */
static void put(mc_refserver_t *rs, size_t *at, const char *s, size_t n)
{
    memcpy(rs->out + *at, s, n);
    *at += n;
}

void mc__rs_result_body(mc_refserver_t *rs, json_object *id, const char *body, size_t len)
{
    char idbuf[ID_TEXT_MAX];
    size_t idlen = 0, n, at = 0;
    const char *idt = id_text(id, idbuf, &idlen);

    if (idt == NULL) {
        rs->failed = 1;
        return;
    }
    n = sizeof(env_head) - 1 + idlen + sizeof(env_mid) - 1 + len + 2;
    if (mc__rs_out_reserve(rs, n) != 0) {
        rs->failed = 1;
        return;
    }
    put(rs, &at, env_head, sizeof(env_head) - 1);
    put(rs, &at, idt, idlen);
    put(rs, &at, env_mid, sizeof(env_mid) - 1);
    put(rs, &at, body, len);
    put(rs, &at, "}\n", 2);
    rs->emit(rs->emit_ctx, rs->out, at);
}

rs_body_key_t mc__rs_body_key(const mc_refserver_t *rs, uint32_t what, size_t pos)
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

int mc__rs_send_cached(mc_refserver_t *rs, const rs_body_t *slot, const rs_body_key_t *key,
                       json_object *id)
{
    if (!mc__rs_splice_ok(rs) || slot->text == NULL || !key_equal(&slot->key, key))
        return 0;
    mc__rs_result_body(rs, id, slot->text, slot->len);
    return 1;
}

/* Stores the encoding of result in slot. Returns 0, or -1 (slot emptied)
 * when it cannot be encoded, is too large to keep, or memory runs out. */
static int body_store(rs_body_t *slot, const rs_body_key_t *key, json_object *result)
{
    size_t n = 0;
    const char *s = json_object_to_json_string_length(result, RS_JSON_FLAGS, &n);
    char *copy;

    mc__rs_body_clear(slot);
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

void mc__rs_result_cached(mc_refserver_t *rs, rs_body_t *slot, const rs_body_key_t *key,
                          json_object *id, json_object *result)
{
    /* rs->failed means some member may be missing: such a body is never kept. */
    if (result == NULL || !mc__rs_splice_ok(rs) || rs->failed ||
        body_store(slot, key, result) != 0) {
        mc__rs_result(rs, id, result);
        return;
    }
    json_object_put(result);
    mc__rs_result_body(rs, id, slot->text, slot->len);
}

void mc__rs_body_clear(rs_body_t *slot)
{
    free(slot->text);
    memset(slot, 0, sizeof(*slot));
}

rs_body_t *mc__rs_page_slot(mc_refserver_t *rs, rs_list_t list, size_t start)
{
    return &rs->page_cache[list][(start / (size_t)rs->page_size) % RS_PAGE_CACHE_SLOTS];
}

void mc__rs_list_changed(mc_refserver_t *rs, rs_list_t list)
{
    int i;

    rs->list_rev[list]++;
    for (i = 0; i < RS_PAGE_CACHE_SLOTS; i++)
        mc__rs_body_clear(&rs->page_cache[list][i]);
}

void mc__rs_cache_free(mc_refserver_t *rs)
{
    size_t l, i;

    for (l = 0; l < RS_BODY_LISTS; l++)
        for (i = 0; i < RS_PAGE_CACHE_SLOTS; i++)
            mc__rs_body_clear(&rs->page_cache[l][i]);
    for (i = 0; i < RS_READ_CACHE_SLOTS; i++)
        mc__rs_body_clear(&rs->read_cache[i]);
}
