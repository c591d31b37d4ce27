/*
 * content.c - JSON building helpers and content blocks shaped per version.
 *
 * The negotiated protocol version decides which optional members exist:
 * title and lastModified from 2025-06-18, icons from 2025-11-25, audio
 * content and tool annotations from 2025-03-26. Members a version does not
 * define are left out, so every message validates against that version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "refserver/internal.h"

/* A 1x1 PNG and a 11-sample 8-bit WAV, made for this project. Both lengths
 * leave base64 padding, which the blob-base64-unpadded switch strips. */
const char mc__rs_png_b64[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEHRFWHRDb21tZW50AG1jcGNoZWNrR4yWiwAAAAxJREFU"
    "eNpjOKMkCAACvQEAp8SXhwAAAABJRU5ErkJggg==";
const char mc__rs_wav_b64[] =
    "UklGRi8AAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQsAAACAoL7IvqCAYEI4Rg==";

void mc__rs_put(mc_refserver_t *rs, json_object *o, const char *key, json_object *v)
{
    if (o == NULL) {
        json_object_put(v);
        rs->failed = 1;
        return;
    }
    if (json_object_object_add(o, key, v) != 0) {
        json_object_put(v);
        rs->failed = 1;
    }
}

void mc__rs_put_str(mc_refserver_t *rs, json_object *o, const char *key, const char *s)
{
    json_object *v = json_object_new_string(s);

    if (v == NULL)
        rs->failed = 1;
    mc__rs_put(rs, o, key, v);
}

const char *mc__rs_get_str(json_object *o, const char *key)
{
    json_object *v;

    if (o == NULL || !json_object_is_type(o, json_type_object))
        return NULL;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    /* json-c keeps the length: a string with "\u0000" inside would be cut at
     * the NUL by every C string function (secret.txt\u0000.png reads
     * secret.txt). Such a string is no usable name, URI or value. */
    if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
        return NULL;
    return json_object_get_string(v);
}

int mc__rs_has_nul_string(json_object *v, int depth)
{
    if (v == NULL || depth > MC_MAX_JSON_DEPTH)
        return 0;
    switch (json_object_get_type(v)) {
    case json_type_string:
        return strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v);
    case json_type_array: {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            if (mc__rs_has_nul_string(json_object_array_get_idx(v, i), depth + 1))
                return 1;
        return 0;
    }
    case json_type_object: {
        json_object_object_foreach(v, key, val)
        {
            (void)key;
            if (mc__rs_has_nul_string(val, depth + 1))
                return 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}

json_object *mc__rs_text_block(mc_refserver_t *rs, const char *text)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "type", "text");
    mc__rs_put_str(rs, o, "text", text);
    return o;
}

json_object *mc__rs_image_block(mc_refserver_t *rs)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "type", "image");
    mc__rs_put_str(rs, o, "data", mc__rs_png_b64);
    mc__rs_put_str(rs, o, "mimeType", "image/png");
    return o;
}

json_object *mc__rs_audio_block(mc_refserver_t *rs)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "type", "audio");
    mc__rs_put_str(rs, o, "data", mc__rs_wav_b64);
    mc__rs_put_str(rs, o, "mimeType", "audio/wav");
    return o;
}

json_object *mc__rs_embedded_text(mc_refserver_t *rs, const char *uri, const char *mime,
                                  const char *text)
{
    json_object *o = json_object_new_object(), *r = json_object_new_object();

    mc__rs_put_str(rs, r, "uri", uri);
    mc__rs_put_str(rs, r, "mimeType", mime);
    mc__rs_put_str(rs, r, "text", text);
    mc__rs_put_str(rs, o, "type", "resource");
    mc__rs_put(rs, o, "resource", r);
    return o;
}

void mc__rs_add_title(mc_refserver_t *rs, json_object *o, const char *title)
{
    if (title != NULL && rs->version >= MC_V_2025_06_18)
        mc__rs_put_str(rs, o, "title", title);
}

void mc__rs_add_icons(mc_refserver_t *rs, json_object *o)
{
    json_object *arr, *icon, *sizes;

    if (rs->version < MC_V_2025_11_25)
        return;
    arr = json_object_new_array();
    icon = json_object_new_object();
    sizes = json_object_new_array();
    json_object_array_add(sizes, json_object_new_string("1x1"));
    mc__rs_put_str(rs, icon, "src", "https://example.com/mcpcheck/icon.png");
    mc__rs_put_str(rs, icon, "mimeType", "image/png");
    mc__rs_put(rs, icon, "sizes", sizes);
    if (arr == NULL || json_object_array_add(arr, icon) != 0) {
        json_object_put(icon);
        rs->failed = 1;
    }
    mc__rs_put(rs, o, "icons", arr);
}

json_object *mc__rs_annotations(mc_refserver_t *rs, int user, int assistant, double priority)
{
    json_object *o = json_object_new_object(), *aud = json_object_new_array();

    if (user)
        json_object_array_add(aud, json_object_new_string("user"));
    if (assistant)
        json_object_array_add(aud, json_object_new_string("assistant"));
    mc__rs_put(rs, o, "audience", aud);
    mc__rs_put(rs, o, "priority", mc__rs_number(priority));
    if (rs->version >= MC_V_2025_06_18)
        mc__rs_put_str(rs, o, "lastModified", "2025-01-12T15:00:58Z");
    return o;
}

json_object *mc__rs_number(double v)
{
    char buf[32];

    if (v == (double)(int64_t)v && v > -1e15 && v < 1e15)
        return json_object_new_int64((int64_t)v);
    snprintf(buf, sizeof(buf), "%.6g", v);
    return json_object_new_double_s(v, buf);
}

char *mc__rs_base64(const unsigned char *data, size_t len)
{
    char *s = malloc(mc_base64_encoded_len(len) + 1);

    if (s != NULL)
        mc_base64_encode(data, len, s);
    return s;
}

/* ---- results ---- */

json_object *mc__rs_tool_text(mc_refserver_t *rs, const char *text)
{
    json_object *res = json_object_new_object(), *arr = json_object_new_array();

    if (json_object_array_add(arr, mc__rs_text_block(rs, text)) != 0)
        rs->failed = 1;
    mc__rs_put(rs, res, "content", arr);
    return res;
}

json_object *mc__rs_tool_error(mc_refserver_t *rs, const char *text)
{
    json_object *res = mc__rs_tool_text(rs, text);

    mc__rs_put(rs, res, "isError", json_object_new_boolean(1));
    return res;
}

const char *const mc__rs_log_levels[RS_LOG_LEVELS] = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

const char *mc__rs_log_level_name(int level)
{
    if (level < 0 || level >= RS_LOG_LEVELS)
        return "";
    return mc__rs_log_levels[level];
}
