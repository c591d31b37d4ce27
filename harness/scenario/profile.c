#include "scenario/profile.h"

#include <stdlib.h>
#include <string.h>

#include "scenario/jsonc.h"

int mc_profile_load(const char *path, mc_profile_t *p, mc_errbuf_t *eb)
{
    mc_jsonc_doc_t doc;
    json_object *roles, *name, *safe, *args = NULL;
    int rc = mc_jsonc_load(path, &doc, eb);

    if (rc != MC_OK)
        return rc == MC_EPARSE ? MC_EINVAL : rc;
    if (!json_object_is_type(doc.root, json_type_object) ||
        !json_object_object_get_ex(doc.root, "roles", &roles) ||
        !json_object_is_type(roles, json_type_object)) {
        mc_jsonc_free(&doc);
        return mc_errbuf_set(eb, MC_EINVAL, "%s:1:1: a profile is {\"name\": ..., \"roles\": {...}}",
                             path);
    }
    if (json_object_object_get_ex(doc.root, "safe_tools", &safe)) {
        size_t i, n = json_object_is_type(safe, json_type_array) ? json_object_array_length(safe) : 0;
        int ok = json_object_is_type(safe, json_type_array);
        for (i = 0; i < n && ok; i++)
            ok = json_object_is_type(json_object_array_get_idx(safe, i), json_type_string);
        if (!ok) {
            mc_jsonc_free(&doc);
            return mc_errbuf_set(eb, MC_EINVAL, "%s: \"safe_tools\" is an array of tool names",
                                 path);
        }
    } else {
        safe = NULL;
    }
    if (json_object_object_get_ex(doc.root, "args", &args)) {
        int ok = json_object_is_type(args, json_type_object);
        if (ok) {
            json_object_object_foreach(args, key, val)
            {
                (void)key;
                ok = ok && json_object_is_type(val, json_type_object);
            }
        }
        if (!ok) {
            mc_jsonc_free(&doc);
            return mc_errbuf_set(eb, MC_EINVAL,
                                 "%s: \"args\" maps a tool or prompt name to its arguments "
                                 "object",
                                 path);
        }
    }
    memset(p, 0, sizeof(*p));
    p->roles = json_object_get(roles);
    p->safe_tools = json_object_get(safe);
    p->args = json_object_get(args);
    p->path = strdup(path);
    p->name = strdup(json_object_object_get_ex(doc.root, "name", &name) &&
                             json_object_is_type(name, json_type_string)
                         ? json_object_get_string(name)
                         : path);
    mc_jsonc_free(&doc);
    if (p->path == NULL || p->name == NULL) {
        mc_profile_free(p);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    return MC_OK;
}

void mc_profile_free(mc_profile_t *p)
{
    json_object_put(p->roles);
    json_object_put(p->safe_tools);
    json_object_put(p->args);
    free(p->name);
    free(p->path);
    memset(p, 0, sizeof(*p));
}
