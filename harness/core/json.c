#include "core/json.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *mc_json_get(json_object *o, const char *key)
{
    json_object *v = NULL;

    if (o == NULL || !json_object_is_type(o, json_type_object))
        return NULL;
    return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *mc_json_get_str(json_object *o, const char *key)
{
    json_object *v = mc_json_get(o, key);

    return v != NULL && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                 : NULL;
}

int mc_json_get_int(json_object *o, const char *key, int dflt)
{
    json_object *v = mc_json_get(o, key);
    int64_t x;

    if (v == NULL || !json_object_is_type(v, json_type_int))
        return dflt;
    x = json_object_get_int64(v);
    return x >= INT_MIN && x <= INT_MAX ? (int)x : dflt;
}

int mc_uri_is_absolute(const char *s)
{
    const char *p = s;

    if (s == NULL || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        return 0;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '-' || *p == '.')
        p++;
    if (*p != ':')
        return 0;
    for (; *p != '\0'; p++)
        if ((unsigned char)*p <= 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

void mc_str_join(char *out, size_t n, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);

    if (n == 0)
        return;
    if (la >= n)
        la = n - 1;
    memcpy(out, a, la);
    if (la + lb >= n)
        lb = n - 1 - la;
    memcpy(out + la, b, lb);
    out[la + lb] = '\0';
}

int mc_json_scalar_text(json_object *v, char *out, size_t cap)
{
    if (json_object_is_type(v, json_type_string))
        snprintf(out, cap, "%s", json_object_get_string(v));
    else if (json_object_is_type(v, json_type_boolean))
        snprintf(out, cap, "%s", json_object_get_boolean(v) ? "true" : "false");
    else if (json_object_is_type(v, json_type_int))
        snprintf(out, cap, "%lld", (long long)json_object_get_int64(v));
    else
        return -1;
    return 0;
}

json_object *mc_json_split_names(const char *s)
{
    json_object *arr = json_object_new_array();
    const char *p = s;

    while (arr != NULL && *p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len > 0)
            json_object_array_add(arr, json_object_new_string_len(p, (int)len));
        p += len + (comma != NULL);
    }
    return arr;
}

char *mc_json_text_dup(json_object *v, size_t *len)
{
    json_object *copy = NULL;
    const char *s;
    size_t n = 0;
    char *out;

    if (v == NULL) {
        *len = 4;
        return strdup("null");
    }
    if (json_object_deep_copy(v, &copy, NULL) != 0 || copy == NULL)
        return NULL;
    s = json_object_to_json_string_length(copy, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
                                          &n);
    out = s != NULL ? malloc(n + 1) : NULL;
    if (out != NULL) {
        memcpy(out, s, n + 1);
        *len = n;
    }
    json_object_put(copy);
    return out;
}
