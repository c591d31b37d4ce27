/*
 * cursor.c - opaque, stable pagination cursors.
 *
 * A cursor is the unpadded base64url form of a 12-byte record: a magic byte,
 * the list's tag, two salt bytes (zero: the same position always gets the
 * same cursor), the offset of the next item (big-endian) and a 32-bit check
 * value over the rest. A cursor of another list fails the tag test and
 * anything else fails the decoding or the check; both are answered -32602
 * (2025-06-18/server/utilities/pagination#error-handling).
 */
#include <string.h>
#include <unistd.h>

#include "core/hash.h"
#include "refserver/internal.h"

#define CURSOR_BYTES 12
#define CURSOR_CHARS 16
#define CURSOR_MAGIC 0x52

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* FNV-1a over a fixed key and the first 8 record bytes: any process of the
 * server takes the cursors of any other. The cursor-process-bound switch
 * mixes in the process id, so that a cursor holds only in the process that
 * issued it. */
static uint32_t cursor_check(const mc_refserver_t *rs, const unsigned char *rec)
{
    static const char key[] = "mcpcheck-refserver/cursor/v1";
    uint32_t h = mc_fnv1a32(mc_fnv1a32(MC_FNV1A32_INIT, key, sizeof(key) - 1), rec, 8);

    return rs_cursor_check(rs, h);
}

/* Writes the cursor for (list, offset) into out (CURSOR_CHARS + 1 bytes). */
static void cursor_encode(mc_refserver_t *rs, rs_list_t list, size_t offset, char *out)
{
    unsigned char rec[CURSOR_BYTES];
    uint32_t off = (uint32_t)offset, chk, salt = 0;
    size_t i, o = 0;

    if (rs_fault_hook(rs, RS_HOOK_SALT_CURSORS))
        salt = ++rs->walk_counter;
    rec[0] = CURSOR_MAGIC;
    rec[1] = (unsigned char)list;
    rec[2] = (unsigned char)(salt >> 8);
    rec[3] = (unsigned char)salt;
    rec[4] = (unsigned char)(off >> 24);
    rec[5] = (unsigned char)(off >> 16);
    rec[6] = (unsigned char)(off >> 8);
    rec[7] = (unsigned char)off;
    chk = cursor_check(rs, rec);
    rec[8] = (unsigned char)(chk >> 24);
    rec[9] = (unsigned char)(chk >> 16);
    rec[10] = (unsigned char)(chk >> 8);
    rec[11] = (unsigned char)chk;
    for (i = 0; i < CURSOR_BYTES; i += 3) {
        uint32_t v = (uint32_t)rec[i] << 16 | (uint32_t)rec[i + 1] << 8 | rec[i + 2];
        out[o++] = b64url[(v >> 18) & 63];
        out[o++] = b64url[(v >> 12) & 63];
        out[o++] = b64url[(v >> 6) & 63];
        out[o++] = b64url[v & 63];
    }
    out[o] = '\0';
}

void mc__rs_cursor_text(mc_refserver_t *rs, rs_list_t list, size_t offset, char *out)
{
    cursor_encode(rs, list, offset, out);
}

static int b64url_value(char c)
{
    const char *p;

    if (c == '\0')
        return -1;
    p = strchr(b64url, c);
    return p == NULL ? -1 : (int)(p - b64url);
}

/* Decodes a cursor. Returns 0 and sets *offset, or -1 when it is not one of
 * this list's cursors. */
static int cursor_decode(mc_refserver_t *rs, rs_list_t list, const char *s, size_t len,
                         size_t *offset)
{
    unsigned char rec[CURSOR_BYTES];
    uint32_t chk;
    size_t i, o = 0;

    if (len != CURSOR_CHARS)
        return -1;
    for (i = 0; i < CURSOR_CHARS; i += 4) {
        int a = b64url_value(s[i]), b = b64url_value(s[i + 1]), c = b64url_value(s[i + 2]),
            d = b64url_value(s[i + 3]);
        uint32_t v;
        if (a < 0 || b < 0 || c < 0 || d < 0)
            return -1;
        v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        rec[o++] = (unsigned char)(v >> 16);
        rec[o++] = (unsigned char)(v >> 8);
        rec[o++] = (unsigned char)v;
    }
    chk = (uint32_t)rec[8] << 24 | (uint32_t)rec[9] << 16 | (uint32_t)rec[10] << 8 | rec[11];
    if (rec[0] != CURSOR_MAGIC || chk != cursor_check(rs, rec))
        return -1;
    if (rec[1] != (unsigned char)list && !rs_fault_hook(rs, RS_HOOK_ACCEPT_FOREIGN_CURSOR))
        return -1;
    *offset = (size_t)((uint32_t)rec[4] << 24 | (uint32_t)rec[5] << 16 | (uint32_t)rec[6] << 8 |
                       rec[7]);
    /* An unstable cursor: one issued with an odd salt names the position
     * one item further on, so two walks of the same list disagree. */
    if (rs_fault_hook(rs, RS_HOOK_SALT_CURSORS) && (rec[3] & 1))
        (*offset)++;
    return 0;
}

int mc__rs_page(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                size_t total, size_t *start, size_t *end, const char **cursor_in)
{
    json_object *c = NULL;
    size_t offset = 0, ps = (size_t)rs->page_size;

    *cursor_in = NULL;
    if (params != NULL && json_object_object_get_ex(params, "cursor", &c) && c != NULL) {
        if (!json_object_is_type(c, json_type_string)) {
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "cursor must be a string", NULL);
            return -1;
        }
        if (cursor_decode(rs, list, json_object_get_string(c),
                          (size_t)json_object_get_string_len(c), &offset) != 0) {
            if (rs_fault_hook(rs, RS_HOOK_ACCEPT_GARBAGE_CURSOR)) {
                offset = 0;
            } else {
                mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "invalid cursor", NULL);
                return -1;
            }
        } else {
            *cursor_in = json_object_get_string(c);
        }
    }
    /* A list that shrank since the cursor was issued ends early. */
    if (offset > total)
        offset = total;
    *start = offset;
    if (rs_fault_hook(rs, RS_HOOK_OVERLAP_PAGES) && offset > 0)
        *start = offset - 1;
    *end = *start + ps;
    if (*end <= offset)
        *end = offset + 1;
    if (*end > total)
        *end = total;
    return 0;
}

void mc__rs_page_finish(mc_refserver_t *rs, rs_list_t list, json_object *result, size_t end,
                        size_t total, const char *cursor_in)
{
    char buf[CURSOR_CHARS + 1];

    if (end < total) {
        if (rs_fault_hook(rs, RS_HOOK_REPEAT_CURSOR) && cursor_in != NULL) {
            mc__rs_put_str(rs, result, "nextCursor", cursor_in);
            return;
        }
        cursor_encode(rs, list, end, buf);
        mc__rs_put_str(rs, result, "nextCursor", buf);
    }
}

void mc__rs_serve_list(mc_refserver_t *rs, rs_list_t list, json_object *id, json_object *params,
                       size_t total, const char *field, rs_item_fn item)
{
    size_t start, end, i;
    const char *cin;
    json_object *res, *arr;
    /* The switch: once another request was served, every list is one short. */
    int vary = rs_fault_hook(rs, RS_HOOK_LIST_SHRINKS) && rs->other_served;

    if (vary && total > 0)
        total--;
    if (mc__rs_page(rs, list, id, params, total, &start, &end, &cin) != 0)
        return;
    if (!vary && mc__rs_fast_replay(rs, list, start, id))
        return;
    res = json_object_new_object();
    arr = json_object_new_array_ext((int)(end - start));
    for (i = start; i < end; i++)
        if (json_object_array_add(arr, item(rs, i)) != 0)
            rs->failed = 1;
    mc__rs_put(rs, res, field, arr);
    mc__rs_page_finish(rs, list, res, end, total, cin);
    if (vary)
        mc__rs_result(rs, id, res);
    else
        mc__rs_fast_keep(rs, list, start, id, res);
}
