/*
 * shapewalk.c - walking an outgoing message for the rows of shapes.c: the
 * objects a row's path names, the ones its condition wants, a member put
 * anywhere but last or below an object (a copy of it).
 */
#include <string.h>

#include "refserver/shapes.h"

/* True when the clause c[0..len) of a row's condition holds for o: "member"
 * (present), "member=value" or "member^prefix" (a string member, equal or
 * starting so; "a.b": the member b of the object a), "!" before any of them
 * for its negation. A clause too long to read holds for no object. */
static int clause_holds(json_object *o, const char *c, size_t len)
{
    char member[RS_PATH_PART_MAX];
    const char *v, *dot;
    json_object *inner = o;
    size_t n;
    int negate = len > 0 && c[0] == '!';

    if (negate) {
        c++;
        len--;
    }
    n = strcspn(c, "=^&");
    if (n > len)
        n = len;
    if (n >= sizeof(member))
        return 0;
    memcpy(member, c, n);
    member[n] = '\0';
    dot = strchr(member, '.');
    if (dot != NULL) { /* "a.b": the member b of the object a */
        member[dot - member] = '\0';
        if (!json_object_object_get_ex(o, member, &inner))
            return negate;
        memmove(member, dot + 1, strlen(dot + 1) + 1);
    }
    if (n == len)
        return json_object_object_get_ex(inner, member, NULL) != negate;
    v = mc__rs_get_str(inner, member);
    if (v == NULL)
        return negate;
    if (c[n] == '^')
        return (strncmp(v, c + n + 1, len - n - 1) == 0) != negate;
    return (strlen(v) == len - n - 1 && strncmp(v, c + n + 1, len - n - 1) == 0) != negate;
}

/* True when o is one of the objects f changes (f->when): every clause of
 * the condition holds. */
int mc__rs_shape_wanted(json_object *o, const rs_shape_fault_t *f)
{
    const char *c = f->when;
    size_t n;

    if (c == NULL)
        return 1;
    for (;;) {
        n = strcspn(c, "&");
        if (!clause_holds(o, c, n))
            return 0;
        if (c[n] == '\0')
            return 1;
        c += n + 1;
    }
}

/* Calls fn on each object that path names in o: segments are member names
 * separated by dots; "name[]" stands for each element of that array and "*"
 * for each member of the object. path is a row's, never the peer's. */
void mc__rs_shape_visit(mc_refserver_t *rs, json_object *o, const char *path, rs_visit_fn fn,
                  const rs_shape_fault_t *f)
{
    char part[RS_PATH_PART_MAX];
    const char *rest;
    json_object *child = NULL;
    size_t n, i;
    int each;

    if (o == NULL || !json_object_is_type(o, json_type_object))
        return;
    if (*path == '\0') {
        if (mc__rs_shape_wanted(o, f))
            fn(rs, o, f);
        return;
    }
    n = strcspn(path, ".");
    if (n >= sizeof(part))
        return;
    memcpy(part, path, n);
    part[n] = '\0';
    rest = path + n + (path[n] == '.');
    each = n > 2 && strcmp(part + n - 2, "[]") == 0;
    if (each)
        part[n - 2] = '\0';
    if (strcmp(part, "*") == 0) {
        json_object_object_foreach(o, k, v)
        {
            (void)k;
            mc__rs_shape_visit(rs, v, rest, fn, f);
        }
        return;
    }
    if (!json_object_object_get_ex(o, part, &child))
        return;
    if (!each) {
        mc__rs_shape_visit(rs, child, rest, fn, f);
        return;
    }
    for (i = 0; json_object_is_type(child, json_type_array) && i < json_object_array_length(child);
         i++)
        mc__rs_shape_visit(rs, json_object_array_get_idx(child, i), rest, fn, f);
}

/* Calls fn on every object anywhere in v that has the member f->key (at
 * most MC_MAX_JSON_DEPTH levels down). */
void mc__rs_shape_visit_all(mc_refserver_t *rs, json_object *v, int depth, rs_visit_fn fn,
                      const rs_shape_fault_t *f)
{
    size_t i;

    if (depth > MC_MAX_JSON_DEPTH)
        return;
    if (json_object_is_type(v, json_type_array)) {
        for (i = 0; i < json_object_array_length(v); i++)
            mc__rs_shape_visit_all(rs, json_object_array_get_idx(v, i), depth + 1, fn, f);
        return;
    }
    if (!json_object_is_type(v, json_type_object))
        return;
    if (json_object_object_get_ex(v, f->key, NULL))
        fn(rs, v, f);
    json_object_object_foreach(v, k, c)
    {
        (void)k;
        mc__rs_shape_visit_all(rs, c, depth + 1, fn, f);
    }
}

/* Rebuilds o with its members in the same order, key renamed to to and,
 * when add is not NULL, add_key: add placed before the member before (or
 * last). add is consumed. json-c keeps members in insertion order, so this
 * is how a member goes anywhere but last. */
void mc__rs_shape_rebuild(mc_refserver_t *rs, json_object *o, const char *key, const char *to,
                    const char *before, const char *add_key, json_object *add)
{
    json_object *copy = json_object_new_object();

    if (copy == NULL) {
        json_object_put(add);
        rs->failed = 1;
        return;
    }
    json_object_object_foreach(o, k, v)
    {
        if (add != NULL && before != NULL && strcmp(k, before) == 0) {
            mc__rs_put(rs, copy, add_key, add);
            add = NULL;
        }
        mc__rs_put(rs, copy, key != NULL && strcmp(k, key) == 0 ? to : k, json_object_get(v));
    }
    if (add != NULL)
        mc__rs_put(rs, copy, add_key, add);
    while (json_object_object_length(o) > 0) {
        json_object_object_foreach(o, dk, dv)
        {
            (void)dv;
            json_object_object_del(o, dk);
            break;
        }
    }
    json_object_object_foreach(copy, ck, cv) mc__rs_put(rs, o, ck, json_object_get(cv));
    json_object_put(copy);
}

void mc__rs_shape_put_at(mc_refserver_t *rs, json_object *o, const char *key, json_object *v)
{
    char part[RS_PATH_PART_MAX];
    json_object *top = NULL, *copy = NULL, *at;
    size_t n = strcspn(key, ".");

    if (key[n] == '\0') {
        mc__rs_put(rs, o, key, v);
        return;
    }
    if (n >= sizeof(part) || !json_object_is_type(o, json_type_object)) {
        json_object_put(v);
        return;
    }
    memcpy(part, key, n);
    part[n] = '\0';
    if (!json_object_object_get_ex(o, part, &top) || !json_object_is_type(top, json_type_object)) {
        json_object_put(v);
        return;
    }
    if (json_object_deep_copy(top, &copy, NULL) != 0 || copy == NULL) {
        json_object_put(v);
        rs->failed = 1;
        return;
    }
    mc__rs_put(rs, o, part, copy); /* in top's place */
    for (at = copy, key += n + 1; (n = strcspn(key, ".")) != strlen(key); key += n + 1) {
        json_object *next = NULL;
        if (n >= sizeof(part)) {
            json_object_put(v);
            return;
        }
        memcpy(part, key, n);
        part[n] = '\0';
        if (!json_object_object_get_ex(at, part, &next) ||
            !json_object_is_type(next, json_type_object)) {
            json_object_put(v);
            return;
        }
        at = next;
    }
    mc__rs_put(rs, at, key, v);
}
