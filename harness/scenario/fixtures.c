#include "scenario/fixtures.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "scenario/shapes.h"

enum {
    L_TOOLS = MC_LIST_TOOLS,
    L_PROMPTS = MC_LIST_PROMPTS,
    L_RESOURCES = MC_LIST_RESOURCES,
    L_TEMPLATES = MC_LIST_TEMPLATES
};

static const struct {
    const char *method, *items, *key, *capability;
} lists[4] = {
    {"tools/list", "tools", "name", "tools"},
    {"prompts/list", "prompts", "name", "prompts"},
    {"resources/list", "resources", "uri", "resources"},
    {"resources/templates/list", "resourceTemplates", "uriTemplate", "resources"},
};

mc_role_kind_t mc_role_kind(const char *role, char *base, size_t n)
{
    const char *dot = strchr(role, '.');
    const char *dot2 = dot != NULL ? strchr(dot + 1, '.') : NULL;
    size_t blen = dot2 != NULL ? (size_t)(dot2 - role) : strlen(role);

    snprintf(base, n, "%.*s", (int)blen, role);
    if (strcmp(role, "pagination.resources_multi_page") == 0)
        return MC_ROLE_MULTI_PAGE;
    if (strcmp(role, "tools.safe") == 0)
        return MC_ROLE_SAFE_TOOLS;
    if (dot2 != NULL)
        return MC_ROLE_DATA;
    if (strncmp(role, "tool.", 5) == 0)
        return MC_ROLE_TOOL;
    if (strncmp(role, "prompt.", 7) == 0)
        return MC_ROLE_PROMPT;
    if (strcmp(role, "resource.template") == 0)
        return MC_ROLE_TEMPLATE;
    if (strncmp(role, "resource.", 9) == 0)
        return MC_ROLE_RESOURCE;
    return MC_ROLE_DATA;
}

void mc_offer_init(mc_offer_t *o)
{
    memset(o, 0, sizeof(*o));
}

void mc_offer_free(mc_offer_t *o)
{
    int i;

    for (i = 0; i < 4; i++)
        json_object_put(o->items[i]);
    json_object_put(o->picked);
    memset(o, 0, sizeof(*o));
}

int mc_uri_template_matches(const char *t, const char *u)
{
    while (*t != '\0') {
        if (*t == '{') {
            const char *close = strchr(t, '}');
            if (close == NULL)
                return 0;
            t = close + 1;
            /* One or more characters other than '/', ending where the rest
             * of the template can match (shortest first). */
            if (*u == '\0' || *u == '/')
                return 0;
            for (u++;; u++) {
                if (mc_uri_template_matches(t, u))
                    return 1;
                if (*u == '\0' || *u == '/')
                    return 0;
            }
        }
        if (*t != *u)
            return 0;
        t++;
        u++;
    }
    return *u == '\0';
}

/* Walks list k to its end once. Returns 0, or -1 with o->why[k] set. */
static int walk(mc_session_t *s, mc_offer_t *o, int k, const mc_fixture_opts_t *opts, int *srv_rc)
{
    json_object *acc, *cursor = NULL;

    if (o->state[k] != 0)
        return o->state[k] > 0 ? 0 : -1;
    acc = json_object_new_array();
    if (acc == NULL)
        return -1;
    o->state[k] = -1;
    for (;;) {
        json_object *params = json_object_new_object(), *list, *next;
        mc_msg_t resp;
        int rc;

        if (cursor != NULL)
            json_object_object_add(params, "cursor", json_object_get(cursor));
        rc = mc_session_request(s, lists[k].method, params, opts->timeout_ms, &resp);
        if (rc != MC_OK) {
            if (rc == MC_ETIMEOUT)
                snprintf(o->why[k], sizeof(o->why[k]), "%s gave no response within %d ms",
                         lists[k].method, opts->timeout_ms);
            else
                snprintf(o->why[k], sizeof(o->why[k]), "%s could not be sent or answered (%s)",
                         lists[k].method, mc_strerror(rc));
            if (rc != MC_ETIMEOUT)
                *srv_rc = rc;
            break;
        }
        o->pages[k]++;
        if (resp.kind != MC_MSG_RESULT) {
            snprintf(o->why[k], sizeof(o->why[k]), "%s failed with error %lld", lists[k].method,
                     (long long)resp.error_code);
            mc_msg_free(&resp);
            break;
        }
        list = mc_json_get(resp.result, lists[k].items);
        if (list != NULL && json_object_is_type(list, json_type_array)) {
            size_t i, n = json_object_array_length(list);
            for (i = 0; i < n && json_object_array_length(acc) < MC_FIXTURES_MAX_ITEMS; i++)
                json_object_array_add(acc, json_object_get(json_object_array_get_idx(list, i)));
        }
        next = mc_json_get(resp.result, "nextCursor");
        if (next == NULL || !json_object_is_type(next, json_type_string)) {
            mc_msg_free(&resp);
            o->state[k] = 1;
            break;
        }
        if (cursor != NULL && strcmp(json_object_get_string(cursor), json_object_get_string(next)) == 0) {
            snprintf(o->why[k], sizeof(o->why[k]), "%s returned the cursor it was given as nextCursor",
                     lists[k].method);
            mc_msg_free(&resp);
            break;
        }
        json_object_put(cursor);
        cursor = json_object_get(next);
        mc_msg_free(&resp);
        if (o->pages[k] >= MC_FIXTURES_MAX_PAGES) {
            snprintf(o->why[k], sizeof(o->why[k]), "%s still returned nextCursor after %d pages",
                     lists[k].method, o->pages[k]);
            break;
        }
    }
    json_object_put(cursor);
    o->items[k] = acc;
    return o->state[k] > 0 ? 0 : -1;
}

/* The listed item of list k whose key equals want, or NULL (borrowed). */
json_object *mc__offer_find(const mc_offer_t *o, int k, const char *want)
{
    size_t i, n = o->items[k] != NULL ? json_object_array_length(o->items[k]) : 0;

    for (i = 0; i < n; i++) {
        json_object *it = json_object_array_get_idx(o->items[k], i);
        const char *v = mc_json_get_str(it, lists[k].key);
        if (v != NULL && strcmp(v, want) == 0)
            return it;
    }
    return NULL;
}

/* The list a fixture role of kind names items of. */
static int list_of_kind(mc_role_kind_t kind)
{
    return kind == MC_ROLE_TOOL       ? L_TOOLS
           : kind == MC_ROLE_PROMPT   ? L_PROMPTS
           : kind == MC_ROLE_TEMPLATE ? L_TEMPLATES
                                      : L_RESOURCES;
}

static int has_capability(json_object *caps, const char *name)
{
    json_object *v = mc_json_get(caps, name);
    return v != NULL && !json_object_is_type(v, json_type_null) &&
           !(json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v));
}

int mc__offer_declares(json_object *caps, const char *cap, const char *sub)
{
    if (!has_capability(caps, cap))
        return 0;
    return sub == NULL || has_capability(mc_json_get(caps, cap), sub);
}

mc_role_status_t mc__offer_need(mc_session_t *s, mc_offer_t *o, int k,
                                const mc_fixture_opts_t *opts, const char *role, char *why,
                                size_t n, int *srv_rc)
{
    if (!has_capability(opts->server_caps, lists[k].capability)) {
        snprintf(why, n, "role %s needs %s, but the server does not declare the \"%s\" capability",
                 role, lists[k].method, lists[k].capability);
        return MC_ROLE_NO_CAPABILITY;
    }
    if (walk(s, o, k, opts, srv_rc) != 0) {
        snprintf(why, n, "role %s cannot be resolved: %s", role, o->why[k]);
        return MC_ROLE_UNKNOWN;
    }
    return MC_ROLE_OFFERED;
}

static int name_listed(json_object *arr, const char *name)
{
    size_t i, n = arr != NULL && json_object_is_type(arr, json_type_array)
                      ? json_object_array_length(arr)
                      : 0;

    for (i = 0; i < n; i++) {
        const char *v = json_object_get_string(json_object_array_get_idx(arr, i));
        if (v != NULL && strcmp(v, name) == 0)
            return 1;
    }
    return 0;
}

static mc_role_status_t safe_tools(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                   const char *role, json_object **value, char *why, size_t n,
                                   int *srv_rc)
{
    mc_role_status_t st = mc__offer_need(s, o, L_TOOLS, opts, role, why, n, srv_rc);
    json_object *out;
    size_t i, m;

    if (st != MC_ROLE_OFFERED)
        return st;
    out = json_object_new_array();
    m = json_object_array_length(o->items[L_TOOLS]);
    for (i = 0; i < m; i++) {
        json_object *t = json_object_array_get_idx(o->items[L_TOOLS], i);
        const char *name = mc_json_get_str(t, "name");
        if (name != NULL && (opts->call_tools || name_listed(opts->safe_tools, name)))
            json_object_array_add(out, json_object_get(t));
    }
    if (json_object_array_length(out) == 0) {
        json_object_put(out);
        snprintf(why, n,
                 "role %s: no listed tool may be called: name safe tools in the profile's "
                 "\"safe_tools\", or allow every tool with --call-tools",
                 role);
        return MC_ROLE_NOT_OFFERED;
    }
    *value = out;
    return MC_ROLE_OFFERED;
}

/* Resolves a fixture role whose value is a name or URI (kinds TOOL..TEMPLATE). */
static mc_role_status_t resolve_named(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                      const char *role, mc_role_kind_t kind, json_object *val,
                                      json_object **item, char *why, size_t n, int *srv_rc)
{
    int k = list_of_kind(kind);
    const char *name = json_object_is_type(val, json_type_string) ? json_object_get_string(val)
                                                                   : NULL;
    mc_role_status_t st;

    if (name == NULL) {
        snprintf(why, n, "role %s: the profile's value is not a string", role);
        return MC_ROLE_UNMAPPED;
    }
    st = mc__offer_need(s, o, k, opts, role, why, n, srv_rc);
    if (st != MC_ROLE_OFFERED)
        return st;
    *item = mc__offer_find(o, k, name);
    if (*item != NULL)
        return MC_ROLE_OFFERED;
    if (kind == MC_ROLE_RESOURCE) {
        /* A resource may also be an instance of a listed template. */
        size_t i, m;
        if (walk(s, o, L_TEMPLATES, opts, srv_rc) == 0) {
            m = json_object_array_length(o->items[L_TEMPLATES]);
            for (i = 0; i < m; i++) {
                const char *t = mc_json_get_str(json_object_array_get_idx(o->items[L_TEMPLATES], i),
                                                "uriTemplate");
                if (t != NULL && mc_uri_template_matches(t, name))
                    return MC_ROLE_OFFERED;
            }
        }
    }
    snprintf(why, n, "fixture `%.120s` (role %s) is not offered by the server (%s lists %zu)", name,
             role, lists[k].method, json_object_array_length(o->items[k]));
    return MC_ROLE_NOT_OFFERED;
}

/* A private deep copy of a profile value: the profile is shared by the
 * suite's threads and json-c's reference counts are not atomic, so a value
 * handed out must not be a reference to the shared object. */
static json_object *private_copy(json_object *v)
{
    json_object *out = NULL;

    if (v != NULL && json_object_deep_copy(v, &out, NULL) != 0)
        return NULL;
    return out;
}

/* Appends "role R: `name`, SHAPE[ HOW]" to the offer's note, once per role. */
static void note_pick(mc_offer_t *o, const char *role, const char *name, const char *how)
{
    size_t len = strlen(o->note);

    if (len + 1 >= sizeof(o->note))
        return;
    snprintf(o->note + len, sizeof(o->note) - len, "%srole %s: `%.120s`, %s%s",
             len > 0 ? "; " : "", role, name, mc_role_shape(role), how);
}

/* True when some listed tool may be called: --call-tools, or the profile's
 * safe_tools names one the behaviour probe called (names one at all, when
 * no probe ran). */
static int any_tool_callable(const mc_fixture_opts_t *opts)
{
    if (opts->call_tools)
        return 1;
    if (opts->behaviours != NULL)
        return mc_json_get_int(opts->behaviours, "tools_called", 0) > 0;
    return json_object_is_type(opts->safe_tools, json_type_array) &&
           json_object_array_length(opts->safe_tools) > 0;
}

/*
 * Why a role whose shape is behaviour (mc_role_seen_by) has no item: absent
 * when the behaviour probe used every listed item that could show it, else
 * not verified, saying what would let it be seen. named_why: why the
 * profile's name did not resolve ("" when the profile maps none).
 */
static mc_role_status_t unseen(const mc_fixture_opts_t *opts, const char *role,
                               const char *named_why, char *why, size_t n)
{
    json_object *b = opts->behaviours;
    int by = mc_role_seen_by(role);
    const char *shape = mc_role_shape(role);
    char pre[320];

    snprintf(pre, sizeof(pre), "%.250s%s", named_why, named_why[0] != '\0' ? "; " : "");
    if (by == MC_SEEN_CALL && b != NULL && json_object_get_boolean(mc_json_get(b, "tools_complete"))) {
        snprintf(why, n, "not applicable: no listed tool showed the shape role %s needs (%s) when "
                         "each of the %d listed tools was called once",
                 role, shape, mc_json_get_int(b, "tools_listed", 0));
        return MC_ROLE_ABSENT;
    }
    if (by == MC_SEEN_GET && b != NULL &&
        json_object_get_boolean(mc_json_get(b, "prompts_complete"))) {
        snprintf(why, n, "not applicable: no listed prompt showed the shape role %s needs (%s) "
                         "when each of the %d listed prompts was got once",
                 role, shape, mc_json_get_int(b, "prompts_listed", 0));
        return MC_ROLE_ABSENT;
    }
    if (by == MC_SEEN_CALL && !any_tool_callable(opts))
        snprintf(why, n, "%srole %s needs %s: tools are called only with --call-tools or when the "
                         "profile's \"safe_tools\" names them, so no listed tool could be seen to "
                         "do it (or map the role in a profile)",
                 pre, role, shape);
    else if (by == MC_SEEN_CALL && b != NULL)
        snprintf(why, n, "%srole %s needs %s: none of the %d tools that may be called showed it "
                         "(%d listed)",
                 pre, role, shape, mc_json_get_int(b, "tools_called", 0),
                 mc_json_get_int(b, "tools_listed", 0));
    else if (named_why[0] != '\0')
        snprintf(why, n, "%.300s; the role needs %s", named_why, shape);
    else
        snprintf(why, n, "the profile maps no fixture to role %s (%s)", role, shape);
    return named_why[0] != '\0' ? MC_ROLE_NOT_OFFERED : MC_ROLE_UNMAPPED;
}

/* The item the behaviour probe saw fill role, when the server lists it:
 * MC_ROLE_OFFERED with *got (borrowed from o), MC_ROLE_NOT_OFFERED when
 * the probe saw none, else the status of the list's walk. */
static mc_role_status_t seen_item(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                  const char *role, mc_role_kind_t kind, json_object **got,
                                  char *why, size_t n, int *srv_rc)
{
    const char *name = mc_json_get_str(mc_json_get(opts->behaviours, "roles"), role);
    int k = list_of_kind(kind);
    mc_role_status_t st;

    *got = NULL;
    if (name == NULL)
        return MC_ROLE_NOT_OFFERED;
    st = mc__offer_need(s, o, k, opts, role, why, n, srv_rc);
    if (st != MC_ROLE_OFFERED)
        return st;
    *got = mc__offer_find(o, k, name);
    return *got != NULL ? MC_ROLE_OFFERED : MC_ROLE_NOT_OFFERED;
}

/*
 * Resolves a fixture role (kinds TOOL..TEMPLATE): the profile's name when the
 * server lists it, else a listed item of the role's shape. *value gets the
 * name (new), *item the listed item (borrowed from o; NULL for a resource
 * that only instantiates a template) and *picked whether it was picked by
 * shape (the profile's data roles then do not apply to it).
 */
static mc_role_status_t resolve_fixture(mc_session_t *s, mc_offer_t *o,
                                        const mc_fixture_opts_t *opts, const char *role,
                                        mc_role_kind_t kind, json_object **value,
                                        json_object **item, int *picked, char *why, size_t n,
                                        int *srv_rc)
{
    json_object *val = mc_json_get(opts->roles, role), *name = NULL, *got = NULL;
    const char *how = "";
    char named_why[512];
    mc_role_status_t st;

    *item = NULL;
    *picked = 0;
    named_why[0] = '\0';
    if (mc_json_get(o->picked, role) != NULL) {
        static const char *const keys[] = {"name", "name", "uri", "uriTemplate"};
        int k = kind == MC_ROLE_TOOL ? 0 : kind == MC_ROLE_PROMPT ? 1
                                        : kind == MC_ROLE_RESOURCE ? 2 : 3;
        *item = mc_json_get(o->picked, role);
        *picked = 1;
        *value = json_object_new_string(mc_json_get_str(*item, keys[k]));
        return MC_ROLE_OFFERED;
    }
    if (val != NULL) {
        st = resolve_named(s, o, opts, role, kind, val, item, why, n, srv_rc);
        if (st == MC_ROLE_OFFERED) {
            *value = private_copy(val);
            return st;
        }
        if (st != MC_ROLE_NOT_OFFERED || opts->user_profile)
            return st;
        snprintf(named_why, sizeof(named_why), "%s", why);
    }
    /* An item the behaviour probe saw behave so comes before the listing's
     * shapes (resource.watched: the resource a tool was seen to update). */
    st = seen_item(s, o, opts, role, kind, &got, why, n, srv_rc);
    if (st == MC_ROLE_OFFERED) {
        name = json_object_new_string(mc_json_get_str(got, lists[list_of_kind(kind)].key));
        json_object_get(got);
        how = " (seen so when used)";
    } else if (st != MC_ROLE_NOT_OFFERED) {
        return st;
    } else if (!mc_role_shape_pickable(role)) {
        if (mc_role_seen_by(role))
            return unseen(opts, role, named_why, why, n);
        if (val == NULL)
            snprintf(why, n, "the profile maps no fixture to role %s (%s)", role,
                     mc_role_shape(role));
        else
            snprintf(why, n, "%.300s; the role needs %s", named_why, mc_role_shape(role));
        return val == NULL ? MC_ROLE_UNMAPPED : MC_ROLE_NOT_OFFERED;
    } else {
        st = mc__shape_pick(s, o, opts, role, &name, &got, why, n, srv_rc);
    }
    if (st != MC_ROLE_OFFERED) {
        if (named_why[0] != '\0' && st == MC_ROLE_NOT_OFFERED) {
            char pick_why[512];
            snprintf(pick_why, sizeof(pick_why), "%s", why);
            snprintf(why, n, "%.250s, and %.250s", named_why, pick_why);
        }
        return st;
    }
    if (o->picked == NULL)
        o->picked = json_object_new_object();
    json_object_object_add(o->picked, role, got);
    note_pick(o, role, json_object_get_string(name), how);
    *item = got;
    *picked = 1;
    *value = name;
    return MC_ROLE_OFFERED;
}

mc_role_status_t mc_fixture_resolve(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                    const char *role, json_object **value, char *why, size_t n,
                                    int *srv_rc)
{
    char base[128];
    mc_role_kind_t kind = mc_role_kind(role, base, sizeof(base));
    json_object *val = mc_json_get(opts->roles, role), *item = NULL, *fixture = NULL;
    mc_role_status_t st;
    int picked = 0;

    *srv_rc = MC_OK;
    if (kind == MC_ROLE_SAFE_TOOLS)
        return safe_tools(s, o, opts, role, value, why, n, srv_rc);
    if (kind == MC_ROLE_MULTI_PAGE) {
        st = mc__offer_need(s, o, L_RESOURCES, opts, role, why, n, srv_rc);
        if (st != MC_ROLE_OFFERED)
            return st;
        if (o->pages[L_RESOURCES] < 2) {
            snprintf(why, n, "resources/list fits on one page (%zu resources), so no real cursor "
                             "can be taken from it",
                     json_object_array_length(o->items[L_RESOURCES]));
            return MC_ROLE_NOT_OFFERED;
        }
        *value = json_object_new_boolean(1);
        return MC_ROLE_OFFERED;
    }
    if (kind == MC_ROLE_DATA) {
        char bb[128];
        mc_role_kind_t bk = mc_role_kind(base, bb, sizeof(bb));
        json_object *derived;
        if (strcmp(base, role) == 0 || bk == MC_ROLE_DATA) {
            if (val == NULL) {
                snprintf(why, n, "the profile maps no value to role %s", role);
                return MC_ROLE_UNMAPPED;
            }
            *value = private_copy(val);
            return MC_ROLE_OFFERED;
        }
        st = resolve_fixture(s, o, opts, base, bk, &fixture, &item, &picked, why, n, srv_rc);
        json_object_put(fixture);
        if (st != MC_ROLE_OFFERED)
            return st;
        if (!picked && val != NULL) {
            *value = private_copy(val);
            return MC_ROLE_OFFERED;
        }
        if (strcmp(role + strlen(base) + 1, "args") == 0 && item != NULL &&
            mc_json_get_str(item, "name") != NULL &&
            mc_json_get(opts->args, mc_json_get_str(item, "name")) != NULL) {
            *value = private_copy(mc_json_get(opts->args, mc_json_get_str(item, "name")));
            return MC_ROLE_OFFERED;
        }
        derived = mc__shape_data(bk, item, role + strlen(base) + 1);
        if (derived == NULL) {
            snprintf(why, n, "the profile maps no value to role %s, and the listing of the %s "
                             "fixture cannot give one",
                     role, base);
            return MC_ROLE_UNMAPPED;
        }
        *value = derived;
        return MC_ROLE_OFFERED;
    }
    return resolve_fixture(s, o, opts, role, kind, value, &item, &picked, why, n, srv_rc);
}

mc_role_status_t mc_fixture_presolve(const mc_fixture_opts_t *opts, const char *role, char *why,
                                     size_t n, int *decided)
{
    char base[128], named_why[512];
    mc_role_kind_t kind = mc_role_kind(role, base, sizeof(base));
    json_object *b = opts->behaviours, *val, *names;
    const char *name;
    size_t i, m;

    *decided = 0;
    if (kind == MC_ROLE_DATA && strcmp(base, role) != 0)
        kind = mc_role_kind(base, base, sizeof(base));
    if (b == NULL || (kind != MC_ROLE_TOOL && kind != MC_ROLE_PROMPT) || !mc_role_seen_by(base))
        return MC_ROLE_OFFERED;
    names = mc_json_get(mc_json_get(b, "listed"), kind == MC_ROLE_TOOL ? "tools" : "prompts");
    if (!json_object_is_type(names, json_type_array))
        return MC_ROLE_OFFERED; /* the list was not walked */
    *decided = 1;
    if (mc_json_get(mc_json_get(b, "roles"), base) != NULL)
        return MC_ROLE_OFFERED; /* an item was seen doing it */
    val = mc_json_get(opts->roles, base);
    name = json_object_is_type(val, json_type_string) ? json_object_get_string(val) : NULL;
    named_why[0] = '\0';
    if (val != NULL && name == NULL) {
        *decided = 0; /* resolving says why the profile's value is wrong */
        return MC_ROLE_OFFERED;
    }
    m = json_object_array_length(names);
    for (i = 0; name != NULL && i < m; i++)
        if (strcmp(json_object_get_string(json_object_array_get_idx(names, i)), name) == 0)
            return MC_ROLE_OFFERED; /* the profile's fixture is listed */
    if (name != NULL) {
        int k = kind == MC_ROLE_TOOL ? L_TOOLS : L_PROMPTS;
        snprintf(named_why, sizeof(named_why),
                 "fixture `%.120s` (role %s) is not offered by the server (%s lists %zu)", name,
                 base, lists[k].method, m);
        if (opts->user_profile) {
            snprintf(why, n, "%s", named_why);
            return MC_ROLE_NOT_OFFERED;
        }
    }
    return unseen(opts, base, named_why, why, n);
}

/* The roles picked by their shape so far, in words (empty when none). */
const char *mc_offer_note(const mc_offer_t *o)
{
    return o->note;
}
