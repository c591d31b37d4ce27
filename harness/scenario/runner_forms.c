/*
 * runner_forms.c - the forms a step's template holds that are replaced after
 * its variables are filled in: {"$instance": SCHEMA}, {"$arguments":
 * ARGS, "$without": NAMES} and {"$swapcase": STRING} (scenarios/README.md, "Variables"; see
 * runner_int.h).
 */
#include "scenario/runner_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "scenario/instance.h"

/* True when an argument's name says its value is a URI ("resourceUri",
 * "url"): a made-up value must then be one. */
static int names_uri(const char *name)
{
    size_t i;

    for (i = 0; name[i] != '\0'; i++)
        if ((name[i] == 'u' || name[i] == 'U') && (name[i + 1] == 'r' || name[i + 1] == 'R') &&
            (name[i + 2] == 'i' || name[i + 2] == 'I' || name[i + 2] == 'l' || name[i + 2] == 'L'))
            return 1;
    return 0;
}

/* True when name is without: a string equal to it, or an array holding
 * such a string. */
static int left_out(const char *name, json_object *without)
{
    size_t i, n;

    if (json_object_is_type(without, json_type_string))
        return strcmp(name, json_object_get_string(without)) == 0;
    n = json_object_is_type(without, json_type_array) ? json_object_array_length(without) : 0;
    for (i = 0; i < n; i++) {
        json_object *w = json_object_array_get_idx(without, i);
        if (json_object_is_type(w, json_type_string) &&
            strcmp(name, json_object_get_string(w)) == 0)
            return 1;
    }
    return 0;
}

/* {"NAME": "mcpcheck", ...} for each required argument of a prompt's
 * declared arguments but those named in without (a string, an array of
 * strings, or NULL); a new object. An argument named as a URI gets
 * "mcpcheck://argument", which is also a string. */
static json_object *prompt_arguments(json_object *decl, json_object *without)
{
    json_object *out = json_object_new_object();
    size_t i, n = json_object_is_type(decl, json_type_array) ? json_object_array_length(decl) : 0;

    for (i = 0; out != NULL && i < n && i < MC_INSTANCE_MAX_MEMBERS; i++) {
        json_object *a = json_object_array_get_idx(decl, i);
        const char *name = mc_json_get_str(a, "name");
        if (name != NULL && json_object_get_boolean(mc_json_get(a, "required")) &&
            !left_out(name, without))
            json_object_object_add(
                out, name,
                json_object_new_string(names_uri(name) ? "mcpcheck://argument" : "mcpcheck"));
    }
    return out;
}

/* The string s with the case of each ASCII letter swapped ("Echo" ->
 * "eCHO"), a new string object, or NULL when out of memory. Other bytes,
 * UTF-8 sequences included, are kept as they are. */
static json_object *swapcase(json_object *s)
{
    const char *in = json_object_get_string(s);
    size_t i, n = (size_t)json_object_get_string_len(s);
    char *buf = malloc(n + 1);
    json_object *out;

    if (buf == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        char c = in[i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        else if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buf[i] = c;
    }
    buf[n] = '\0';
    out = json_object_new_string_len(buf, (int)n);
    free(buf);
    return out;
}

/*
 * Replaces every {"$instance": SCHEMA} inside v (after expansion) with a
 * valid instance of SCHEMA (scenario/instance.h): tool arguments made from
 * an inputSchema; every {"$arguments": ARGS} with the arguments object a
 * prompt's declared ARGS need (each required one set to "mcpcheck", or to
 * "mcpcheck://argument" when its name says it is a URI), but for those a
 * "$without" member beside it names (one name or an array of names); and
 * every {"$swapcase": STRING} with STRING, its ASCII letters' case swapped.
 * Returns the value to use in v's place (v itself, or its replacement,
 * with v put).
 */
static json_object *make_instances(json_object *v, int depth)
{
    if (depth > MC_INSTANCE_MAX_DEPTH)
        return v;
    if (json_object_is_type(v, json_type_object)) {
        json_object *schema;
        json_object *without = NULL;
        int has_without = json_object_object_get_ex(v, "$without", &without);
        if (json_object_object_length(v) == 1 + has_without &&
            json_object_object_get_ex(v, "$arguments", &schema)) {
            json_object *args = prompt_arguments(schema, without);
            if (args == NULL)
                return v;
            json_object_put(v);
            return args;
        }
        if (json_object_object_length(v) == 1 &&
            json_object_object_get_ex(v, "$swapcase", &schema) &&
            json_object_is_type(schema, json_type_string)) {
            json_object *sw = swapcase(schema);
            if (sw == NULL)
                return v;
            json_object_put(v);
            return sw;
        }
        if (json_object_object_length(v) == 1 &&
            json_object_object_get_ex(v, "$instance", &schema)) {
            json_object *inst = NULL;
            if (mc_instance_make(schema, &inst) != MC_OK)
                return v;
            json_object_put(v);
            return inst;
        }
        json_object_object_foreach(v, k, m)
        {
            json_object *r = make_instances(json_object_get(m), depth + 1);
            if (r != m)
                json_object_object_add(v, k, r);
            else
                json_object_put(r);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++) {
            json_object *m = json_object_array_get_idx(v, i);
            json_object *r = make_instances(json_object_get(m), depth + 1);
            if (r != m)
                json_object_array_put_idx(v, i, r);
            else
                json_object_put(r);
        }
    }
    return v;
}

json_object *mc__runner_forms(json_object *v)
{
    return make_instances(v, 0);
}
