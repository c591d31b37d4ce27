/*
 * exec_ids.c - the ids and progress tokens sent in a process, each known
 * by its text.
 *
 * Ids are compared in one representation across the harness: the compact
 * JSON text (core/jsonrpc.h, mc_id_text). The table keeps the text of
 * every id and progress token ("token:" and its text) a process was sent,
 * up to MC__EXEC_ID_TEXT_BYTES in all, and gives each a key; a hash of the
 * text only picks the slot, and two texts are the same id when their bytes
 * are. What the table cannot keep (a text past MC__EXEC_MAX_ID_TEXT, or
 * past the table's room) has the key MC__EXEC_KEY_UNKEPT: whether it was
 * sent before cannot be told, and every such id is doubtful.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/hash.h"
#include "core/jsonrpc.h"

/* Entries the table holds: half its slots. */
#define MAX_ENTRIES (MC__EXEC_MAX_IDS / 2)

int mc__exec_ids_init(mc_exec_t *x)
{
    x->ids = calloc(MC__EXEC_MAX_IDS, sizeof(*x->ids));
    x->id_ent = calloc(MAX_ENTRIES, sizeof(*x->id_ent));
    x->id_text = malloc(MC__EXEC_ID_TEXT_BYTES);
    return x->ids != NULL && x->id_ent != NULL && x->id_text != NULL ? 0 : -1;
}

void mc__exec_ids_free(mc_exec_t *x)
{
    free(x->ids);
    free(x->id_ent);
    free(x->id_text);
}

void mc__exec_ids_reset(mc_exec_t *x)
{
    memset(x->ids, 0, MC__EXEC_MAX_IDS * sizeof(*x->ids));
    x->n_ids = 0;
    x->id_text_len = 0;
}

/* The slot where text (len bytes, hash h) is, or the empty slot where it
 * would go; MC__EXEC_MAX_IDS when neither is found. */
static uint32_t slot_of(const mc_exec_t *x, const char *text, size_t len, uint32_t h)
{
    uint32_t mask = MC__EXEC_MAX_IDS - 1, i = h & mask, probes;

    for (probes = 0; probes < MC__EXEC_MAX_IDS; probes++) {
        uint32_t e = x->ids[i];
        if (e == 0)
            return i;
        if (x->id_ent[e - 1].hash == h && x->id_ent[e - 1].len == len &&
            memcmp(x->id_text + x->id_ent[e - 1].off, text, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
    return MC__EXEC_MAX_IDS;
}

uint32_t mc__exec_key_of(const mc_exec_t *x, const char *text)
{
    size_t len = strlen(text);
    uint32_t h, i;

    if (len > MC__EXEC_MAX_ID_TEXT)
        return MC__EXEC_KEY_UNKEPT;
    h = mc_fnv1a32(MC_FNV1A32_INIT, text, len);
    i = slot_of(x, text, len, h);
    if (i < MC__EXEC_MAX_IDS && x->ids[i] != 0)
        return x->ids[i];
    /* Once texts could no longer be kept, one not found may have been sent. */
    return x->ids_full ? MC__EXEC_KEY_UNKEPT : MC__EXEC_KEY_UNSENT;
}

uint32_t mc__exec_key_add(mc_exec_t *x, const char *text, int *seen)
{
    size_t len = strlen(text);
    uint32_t h, i;
    mc__exec_id_entry_t *e;

    *seen = 1;
    if (len > MC__EXEC_MAX_ID_TEXT) {
        x->ids_full = 1;
        return MC__EXEC_KEY_UNKEPT;
    }
    h = mc_fnv1a32(MC_FNV1A32_INIT, text, len);
    i = slot_of(x, text, len, h);
    if (i < MC__EXEC_MAX_IDS && x->ids[i] != 0)
        return x->ids[i];
    if (i >= MC__EXEC_MAX_IDS || x->n_ids >= MAX_ENTRIES ||
        x->id_text_len + len > MC__EXEC_ID_TEXT_BYTES) {
        x->ids_full = 1;
        return MC__EXEC_KEY_UNKEPT;
    }
    e = &x->id_ent[x->n_ids];
    e->hash = h;
    e->off = (uint32_t)x->id_text_len;
    e->len = (uint32_t)len;
    memcpy(x->id_text + x->id_text_len, text, len);
    x->id_text_len += len;
    x->ids[i] = (uint32_t)++x->n_ids;
    *seen = 0;
    return x->ids[i];
}

const char *mc__exec_id_text(json_object *id)
{
    size_t n = 0;
    const char *s = id != NULL ? mc_json_compact(id, &n) : "null";

    return s != NULL ? s : "";
}

/* "token:" and the text of tok into buf (MC__EXEC_TOKEN_BUF bytes); a
 * text too long to keep is cut past MC__EXEC_MAX_ID_TEXT, which the table
 * then refuses. */
static void token_text(json_object *tok, char *buf)
{
    snprintf(buf, MC__EXEC_TOKEN_BUF, "token:%s", mc__exec_id_text(tok));
}

uint32_t mc__exec_token_find(const mc_exec_t *x, json_object *tok)
{
    char buf[MC__EXEC_TOKEN_BUF];

    token_text(tok, buf);
    return mc__exec_key_of(x, buf);
}

uint32_t mc__exec_token_add(mc_exec_t *x, json_object *tok, int *seen)
{
    char buf[MC__EXEC_TOKEN_BUF];

    token_text(tok, buf);
    return mc__exec_key_add(x, buf, seen);
}
