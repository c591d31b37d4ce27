/*
 * shapes.c - the shape each role needs, and the listed item that has it
 * (see shapes.h).
 */
#include "scenario/shapes.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"

/* How a listed item is picked for a role. */
typedef enum pick {
    PICK_NONE = 0,     /* behaviour, not shape: never picked */
    PICK_PROMPT_REQ,   /* a prompt with a required argument */
    PICK_PROMPT_NOARG, /* a prompt that needs no argument */
    PICK_TEXT,         /* a resource whose read gives text */
    PICK_BLOB,         /* a resource whose read gives a blob */
    PICK_SUBSCRIBABLE, /* any listed resource, when resources.subscribe is declared */
    PICK_TEMPLATE,     /* a listed URI template with a variable */
    PICK_INSTANCE,     /* a URI made from a listed template with one variable, its value
                          the first completion/complete offers */
    PICK_TOOL_OUTPUT   /* a tool that may be called and declares an outputSchema */
} pick_t;

/* Roles whose shape is behaviour, seen by the behaviour probe: SEEN_CALL
 * when a tool is called, SEEN_GET when a prompt is got. */
enum { SEEN_NO = 0, SEEN_CALL = MC_SEEN_CALL, SEEN_GET = MC_SEEN_GET };

static const struct {
    const char *role;
    pick_t pick;
    const char *shape;
    int seen;
} shapes[] = {
    {"prompt.with_arguments", PICK_PROMPT_REQ,
     "a prompt with a required argument",
     SEEN_NO},
    {"prompt.simple", PICK_PROMPT_NOARG,
     "a prompt that needs no argument",
     SEEN_NO},
    {"prompt.with_embedded_resource", PICK_NONE,
     "a prompt whose messages hold an embedded resource",
     SEEN_GET},
    {"prompt.with_image", PICK_NONE,
     "a prompt whose messages hold an image",
     SEEN_GET},
    {"prompt.with_audio", PICK_NONE,
     "a prompt whose messages hold audio",
     SEEN_GET},
    {"resource.static_text", PICK_TEXT,
     "a listed resource whose read returns text contents",
     SEEN_NO},
    {"resource.static_binary", PICK_BLOB,
     "a listed resource whose read returns base64 blob contents",
     SEEN_NO},
    {"resource.watched", PICK_SUBSCRIBABLE,
     "a listed resource that can be subscribed to (resources.subscribe declared)",
     SEEN_NO},
    {"resource.template", PICK_TEMPLATE,
     "a listed URI template with a {variable}",
     SEEN_NO},
    {"resource.template_instance", PICK_INSTANCE,
     "a URI instantiating a listed template",
     SEEN_NO},
    {"tool.structured_content", PICK_TOOL_OUTPUT,
     "a tool that may be called (safe_tools or --call-tools) and declares an outputSchema",
     SEEN_NO},
    {"tool.simple_text", PICK_NONE,
     "a tool taking no arguments that returns one text block",
     SEEN_CALL},
    {"tool.image_content", PICK_NONE,
     "a tool taking no arguments that returns an image block",
     SEEN_CALL},
    {"tool.audio_content", PICK_NONE,
     "a tool taking no arguments that returns an audio block",
     SEEN_CALL},
    {"tool.embedded_resource", PICK_NONE,
     "a tool returning an embedded resource",
     SEEN_CALL},
    {"tool.resource_link", PICK_NONE,
     "a tool returning a resource_link block",
     SEEN_CALL},
    {"tool.multiple_content_types", PICK_NONE,
     "a tool returning text, image and embedded resource blocks",
     SEEN_CALL},
    {"tool.error_handling", PICK_NONE,
     "a tool whose result is isError: true",
     SEEN_CALL},
    {"tool.with_logging", PICK_NONE,
     "a tool that sends notifications/message while it runs",
     SEEN_CALL},
    {"tool.logging_levels", PICK_NONE,
     "a tool that sends one notifications/message at each of the eight levels",
     SEEN_CALL},
    {"tool.with_progress", PICK_NONE,
     "a tool that reports progress for the request's progressToken",
     SEEN_CALL},
    {"tool.sampling", PICK_NONE,
     "a tool that sends sampling/createMessage to the client",
     SEEN_CALL},
    {"tool.elicitation", PICK_NONE,
     "a tool that sends a form-mode elicitation/create",
     SEEN_CALL},
    {"tool.elicitation_defaults", PICK_NONE,
     "a tool that sends elicitation/create with defaults on every property",
     SEEN_CALL},
    {"tool.elicitation_enums", PICK_NONE,
     "a tool that sends elicitation/create with single- and multi-select enums",
     SEEN_CALL},
    {"tool.elicitation_url", PICK_NONE,
     "a tool that sends a URL-mode elicitation/create",
     SEEN_CALL},
    {"tool.elicitation_url_error", PICK_NONE,
     "a tool that answers -32042 (URL elicitation required)",
     SEEN_CALL},
    {"tool.elicitation_url_complete", PICK_NONE,
     "a tool that sends notifications/elicitation/complete",
     SEEN_CALL},
    {"tool.list_roots", PICK_NONE,
     "a tool that sends roots/list to the client",
     SEEN_CALL},
    {"tool.sampling_pair", PICK_NONE,
     "a tool that sends two sampling/createMessage requests, each with a progressToken in its "
     "_meta, before it awaits either answer",
     SEEN_NO},
    {"tool.trigger_resource_update", PICK_NONE,
     "a tool that changes the watched resource and sends notifications/resources/updated",
     SEEN_CALL},
    {"tool.trigger_resource_list_change", PICK_NONE,
     "a tool that changes the resource list",
     SEEN_CALL},
    {"tool.trigger_prompt_change", PICK_NONE,
     "a tool that changes the prompt list",
     SEEN_CALL},
    {"tool.trigger_tool_change", PICK_NONE,
     "a tool that changes the tool list",
     SEEN_CALL},
    {"tools.safe", PICK_NONE,
     "tools that may be called: named in the profile's \"safe_tools\", or every tool with " "--call-tools",
     SEEN_NO},
    {"tool.header_param", PICK_NONE,
     "a tool with arguments marked x-mcp-header (Streamable HTTP at 2026-07-28)",
     SEEN_NO},
    {"tool.task", PICK_NONE,
     "a tool with execution.taskSupport \"optional\" whose result does not change from call to " "call and whose task does not end before its result is asked for",
     SEEN_NO},
    {"tool.task_failing", PICK_NONE,
     "a tool with execution.taskSupport \"optional\" whose call always ends with the same " "JSON-RPC error",
     SEEN_NO},
    {"tool.task_required", PICK_NONE,
     "a tool with execution.taskSupport \"required\" whose task stays working until it is " "cancelled",
     SEEN_NO},
    {"tool.task_elicit", PICK_NONE,
     "a tool with execution.taskSupport \"optional\" or \"required\" whose task needs the "
     "client's input from its start: input_required until the form-mode elicitation/create it "
     "sends once tasks/result is called is answered",
     SEEN_NO},
    {"tool.task_requestor", PICK_NONE,
     "a tool that, given a client that declared tasks.requests.elicitation.create, sends a "
     "task-augmented elicitation/create and follows the task by polling tasks/get until it is "
     "terminal or input_required, then calls tasks/result (and, given tasks.list, walks the "
     "client's tasks/list)",
     SEEN_NO},
};

static int find(const char *role)
{
    size_t i;

    for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        if (strcmp(shapes[i].role, role) == 0)
            return (int)i;
    return -1;
}

const char *mc_role_shape(const char *role)
{
    int i = find(role);

    return i >= 0 ? shapes[i].shape : "a fixture the profile must name";
}

const char *mc_role_shape_at(size_t i)
{
    return i < sizeof(shapes) / sizeof(shapes[0]) ? shapes[i].role : NULL;
}

int mc_role_seen_by(const char *role)
{
    int i = find(role);

    return i >= 0 ? shapes[i].seen : 0;
}

int mc_role_shape_pickable(const char *role)
{
    int i = find(role);

    return i >= 0 && shapes[i].pick != PICK_NONE;
}

/* True when a listed prompt declares a required argument. */
static int prompt_has_required(json_object *p)
{
    json_object *args = mc_json_get(p, "arguments");
    size_t i, n = json_object_is_type(args, json_type_array) ? json_object_array_length(args) : 0;

    for (i = 0; i < n; i++) {
        json_object *req = mc_json_get(json_object_array_get_idx(args, i), "required");
        if (json_object_is_type(req, json_type_boolean) && json_object_get_boolean(req))
            return 1;
    }
    return 0;
}

/* True when a listed prompt declares any argument. */
static int prompt_has_arguments(json_object *p)
{
    json_object *args = mc_json_get(p, "arguments");

    return json_object_is_type(args, json_type_array) && json_object_array_length(args) > 0;
}

/* The first {variable} of a URI template, as a new string, or NULL. */
static json_object *template_variable(const char *t)
{
    const char *open = t != NULL ? strchr(t, '{') : NULL;
    const char *close = open != NULL ? strchr(open, '}') : NULL;
    size_t skip;

    if (close == NULL)
        return NULL;
    open++;
    /* RFC 6570 operators before the name ({+var}, {?a,b}). */
    skip = strspn(open, "+#./;?&");
    open += skip;
    if (close <= open)
        return NULL;
    return json_object_new_string_len(open, (int)strcspn(open, ",*:}"));
}

static int template_has_variable(json_object *it)
{
    const char *t = mc_json_get_str(it, "uriTemplate");

    return t != NULL && strchr(t, '{') != NULL;
}

json_object *mc__shape_data(mc_role_kind_t kind, json_object *item, const char *suffix)
{
    if (item == NULL)
        return NULL;
    if (kind == MC_ROLE_PROMPT && strcmp(suffix, "args") == 0) {
        json_object *o = json_object_new_object(), *args = mc_json_get(item, "arguments");
        json_object_object_add(o, "$arguments",
                               args != NULL ? json_object_get(args) : json_object_new_array());
        return o;
    }
    if (kind == MC_ROLE_PROMPT && strcmp(suffix, "required") == 0) {
        json_object *args = mc_json_get(item, "arguments");
        size_t i, n =
            json_object_is_type(args, json_type_array) ? json_object_array_length(args) : 0;
        for (i = 0; i < n; i++) {
            json_object *a = json_object_array_get_idx(args, i);
            json_object *req = mc_json_get(a, "required");
            const char *name = mc_json_get_str(a, "name");
            if (name != NULL && json_object_is_type(req, json_type_boolean) &&
                json_object_get_boolean(req))
                return json_object_new_string(name);
        }
        return NULL;
    }
    if (kind == MC_ROLE_TOOL && strcmp(suffix, "args") == 0) {
        json_object *o = json_object_new_object(), *schema = mc_json_get(item, "inputSchema");
        if (schema == NULL)
            return o; /* no inputSchema: no arguments */
        json_object_object_add(o, "$instance", json_object_get(schema));
        return o;
    }
    if (kind == MC_ROLE_TEMPLATE && strcmp(suffix, "variable") == 0)
        return template_variable(mc_json_get_str(item, "uriTemplate"));
    return NULL;
}

/* True when the listed resource's mimeType (may be absent) rules it out
 * for a text (want_text) or a binary read. */
static int mime_rules_out(json_object *r, int want_text)
{
    const char *m = mc_json_get_str(r, "mimeType");
    int texty;

    if (m == NULL)
        return 0;
    texty = strncmp(m, "text/", 5) == 0 || strstr(m, "json") != NULL || strstr(m, "xml") != NULL;
    return want_text ? !texty : texty;
}

/* True when item (keyed by key) was picked for another role of the
 * scenario: two roles of one scenario stand for two fixtures. */
static int taken(const mc_offer_t *o, json_object *item, const char *key)
{
    const char *v = mc_json_get_str(item, key);

    if (v == NULL || o->picked == NULL)
        return 0;
    json_object_object_foreach(o->picked, role, it)
    {
        const char *w = mc_json_get_str(it, key);
        (void)role;
        if (w != NULL && strcmp(v, w) == 0)
            return 1;
    }
    return 0;
}

/* Reads listed resources until one whose first content carries `text`
 * (want_text) or `blob`; *found gets it (borrowed) or stays NULL, and
 * *complete is cleared when a resource that might have it was not read
 * (MC_SHAPE_MAX_READS reached, a read unanswered). Returns the session's
 * error when it failed in a way that ends the scenario. */
static int read_until(mc_session_t *s, const mc_offer_t *o, json_object *items, int want_text,
                      int timeout_ms, json_object **found, int *complete)
{
    size_t i, n = items != NULL ? json_object_array_length(items) : 0;
    int reads = 0;

    *found = NULL;
    *complete = 1;
    for (i = 0; i < n; i++) {
        json_object *r = json_object_array_get_idx(items, i), *params, *first;
        const char *uri = mc_json_get_str(r, "uri");
        mc_msg_t resp;
        int rc;

        if (uri == NULL || mime_rules_out(r, want_text) || taken(o, r, "uri"))
            continue;
        if (reads >= MC_SHAPE_MAX_READS) {
            *complete = 0; /* a resource left unread may have the shape */
            break;
        }
        params = json_object_new_object();
        json_object_object_add(params, "uri", json_object_new_string(uri));
        reads++;
        rc = mc_session_request(s, "resources/read", params, timeout_ms, &resp);
        if (rc == MC_ETIMEOUT) {
            *complete = 0;
            continue;
        }
        if (rc != MC_OK)
            return rc;
        first = resp.kind == MC_MSG_RESULT
                    ? json_object_array_get_idx(mc_json_get(resp.result, "contents"), 0)
                    : NULL;
        if (first != NULL && json_object_is_type(mc_json_get(first, want_text ? "text" : "blob"),
                                                 json_type_string)) {
            *found = r;
            mc_msg_free(&resp);
            return MC_OK;
        }
        mc_msg_free(&resp);
    }
    return MC_OK;
}

/* True when the tool may be called by the discovery scenarios. */
static int tool_callable(const mc_fixture_opts_t *opts, json_object *t)
{
    const char *name = mc_json_get_str(t, "name");
    size_t i, n;

    if (name == NULL)
        return 0;
    if (opts->call_tools)
        return 1;
    n = json_object_is_type(opts->safe_tools, json_type_array)
            ? json_object_array_length(opts->safe_tools)
            : 0;
    for (i = 0; i < n; i++) {
        const char *v = json_object_get_string(json_object_array_get_idx(opts->safe_tools, i));
        if (v != NULL && strcmp(v, name) == 0)
            return 1;
    }
    return 0;
}

/* True when c may stand in a URI as it is (RFC 3986 unreserved). */
static int unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_' || c == '~';
}

/*
 * The URI template t with its one {variable} (no operator) replaced by
 * value, as a new string; NULL when t has another form or value needs
 * encoding.
 */
static json_object *expand_one(const char *t, const char *value)
{
    const char *open = strchr(t, '{'), *close = open != NULL ? strchr(open, '}') : NULL;
    const char *mod = open != NULL ? strpbrk(open + 1, ",*:") : NULL;
    size_t i;
    char buf[MC_SHAPE_MAX_URI];

    if (close == NULL || close == open + 1 || strchr(close, '{') != NULL ||
        strchr("+#./;?&", open[1]) != NULL || (mod != NULL && mod < close) || value[0] == '\0')
        return NULL;
    for (i = 0; value[i] != '\0'; i++)
        if (!unreserved((unsigned char)value[i]))
            return NULL;
    if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(open - t), t, value, close + 1) >=
        (int)sizeof(buf))
        return NULL;
    return json_object_new_string(buf);
}

/* The first value completion/complete offers for the variable var of
 * template t (borrowed from *resp, which the caller frees), or NULL. */
static const char *first_completion(mc_session_t *s, const char *t, json_object *var,
                                    int timeout_ms, mc_msg_t *resp, int *rc)
{
    json_object *params = json_object_new_object(), *ref = json_object_new_object(),
                *arg = json_object_new_object();

    json_object_object_add(ref, "type", json_object_new_string("ref/resource"));
    json_object_object_add(ref, "uri", json_object_new_string(t));
    json_object_object_add(arg, "name", json_object_get(var));
    json_object_object_add(arg, "value", json_object_new_string(""));
    json_object_object_add(params, "ref", ref);
    json_object_object_add(params, "argument", arg);
    memset(resp, 0, sizeof(*resp));
    *rc = mc_session_request(s, "completion/complete", params, timeout_ms, resp);
    if (*rc != MC_OK || resp->kind != MC_MSG_RESULT)
        return NULL;
    return json_object_get_string(json_object_array_get_idx(
        mc_json_get(mc_json_get(resp->result, "completion"), "values"), 0));
}

/*
 * resource.template_instance: a URI made from the first listed template with
 * one plain {variable} for which completion/complete offers a value. *item
 * gets {"uri": URI, "uriTemplate": TEMPLATE} (new).
 */
static mc_role_status_t pick_instance(mc_session_t *s, mc_offer_t *o,
                                      const mc_fixture_opts_t *opts, const char *role,
                                      json_object **name, json_object **item, char *why,
                                      size_t n, int *srv_rc)
{
    json_object *items = o->items[MC_LIST_TEMPLATES];
    size_t i, m = items != NULL ? json_object_array_length(items) : 0, asked = 0;

    for (i = 0; i < m && asked < MC_SHAPE_MAX_READS; i++) {
        const char *t = mc_json_get_str(json_object_array_get_idx(items, i), "uriTemplate");
        json_object *var = template_variable(t), *uri = t != NULL ? expand_one(t, "x") : NULL;
        const char *value;
        mc_msg_t resp;
        int rc;
        if (var == NULL || uri == NULL) {
            json_object_put(var);
            json_object_put(uri);
            continue;
        }
        json_object_put(uri);
        uri = NULL;
        if (!mc__offer_declares(opts->server_caps, "completions", NULL)) {
            json_object_put(var);
            snprintf(why, n, "role %s needs %s: a value for the variable of `%.120s` would come "
                             "from completion/complete, and the server does not declare the "
                             "\"completions\" capability (map the role in a profile)",
                     role, mc_role_shape(role), t);
            return MC_ROLE_NOT_OFFERED;
        }
        asked++;
        value = first_completion(s, t, var, opts->timeout_ms, &resp, &rc);
        json_object_put(var);
        if (value != NULL)
            uri = expand_one(t, value);
        mc_msg_free(&resp);
        if (rc != MC_OK && rc != MC_ETIMEOUT) {
            *srv_rc = rc;
            snprintf(why, n, "role %s cannot be resolved: completion/complete failed (%s)", role,
                     mc_strerror(rc));
            return MC_ROLE_UNKNOWN;
        }
        if (uri == NULL)
            continue;
        *item = json_object_new_object();
        json_object_object_add(*item, "uri", json_object_get(uri));
        json_object_object_add(*item, "uriTemplate", json_object_new_string(t));
        *name = uri;
        return MC_ROLE_OFFERED;
    }
    if (asked == 0) {
        snprintf(why, n, "not applicable: no listed URI template has one plain {variable}, so "
                         "role %s (%s) has nothing to instantiate",
                 role, mc_role_shape(role));
        return MC_ROLE_ABSENT;
    }
    snprintf(why, n, "role %s needs %s: completion/complete offered no value (of unreserved "
                     "characters) for the variable of the %zu listed template%s asked (map the "
                     "role in a profile)",
             role, mc_role_shape(role), asked, asked == 1 ? "" : "s");
    return MC_ROLE_NOT_OFFERED;
}

mc_role_status_t mc__shape_pick(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                const char *role, json_object **name, json_object **item,
                                char *why, size_t n, int *srv_rc)
{
    int at = find(role), k, complete = 1, uncallable = 0;
    pick_t pick = at >= 0 ? shapes[at].pick : PICK_NONE;
    json_object *items, *got = NULL;
    const char *key;
    mc_role_status_t st;
    size_t i, m;

    *srv_rc = MC_OK;
    if (pick == PICK_NONE) {
        snprintf(why, n, "role %s needs %s, which a listing cannot show: map it in a profile",
                 role, mc_role_shape(role));
        return MC_ROLE_UNMAPPED;
    }
    k = pick == PICK_PROMPT_REQ || pick == PICK_PROMPT_NOARG ? MC_LIST_PROMPTS
        : pick == PICK_TEMPLATE || pick == PICK_INSTANCE    ? MC_LIST_TEMPLATES
        : pick == PICK_TOOL_OUTPUT                          ? MC_LIST_TOOLS
                                                            : MC_LIST_RESOURCES;
    st = mc__offer_need(s, o, k, opts, role, why, n, srv_rc);
    if (st != MC_ROLE_OFFERED)
        return st;
    if (pick == PICK_SUBSCRIBABLE && !mc__offer_declares(opts->server_caps, "resources",
                                                         "subscribe")) {
        snprintf(why, n, "role %s needs %s", role, mc_role_shape(role));
        return MC_ROLE_NO_CAPABILITY;
    }
    items = o->items[k];
    m = items != NULL ? json_object_array_length(items) : 0;
    if (pick == PICK_INSTANCE)
        return pick_instance(s, o, opts, role, name, item, why, n, srv_rc);
    if (pick == PICK_TEXT || pick == PICK_BLOB) {
        int rc = read_until(s, o, items, pick == PICK_TEXT, opts->timeout_ms, &got, &complete);
        if (rc != MC_OK) {
            *srv_rc = rc;
            snprintf(why, n, "role %s cannot be resolved: resources/read failed (%s)", role,
                     mc_strerror(rc));
            return MC_ROLE_UNKNOWN;
        }
    }
    /* A prompt with no arguments at all is preferred over one whose
     * arguments are all optional. */
    key = k == MC_LIST_RESOURCES ? "uri" : k == MC_LIST_TEMPLATES ? "uriTemplate" : "name";
    for (i = 0; got == NULL && i < m; i++) {
        json_object *it = json_object_array_get_idx(items, i);
        if (taken(o, it, key))
            continue;
        if ((pick == PICK_PROMPT_REQ && prompt_has_required(it)) ||
            (pick == PICK_PROMPT_NOARG && !prompt_has_arguments(it)) ||
            pick == PICK_SUBSCRIBABLE ||
            (pick == PICK_TEMPLATE && template_has_variable(it)) ||
            (pick == PICK_TOOL_OUTPUT && tool_callable(opts, it) &&
             mc_json_get(it, "outputSchema") != NULL))
            got = it;
        else if (pick == PICK_TOOL_OUTPUT && mc_json_get(it, "outputSchema") != NULL)
            uncallable++;
    }
    for (i = 0; got == NULL && pick == PICK_PROMPT_NOARG && i < m; i++) {
        json_object *it = json_object_array_get_idx(items, i);
        if (!taken(o, it, key) && !prompt_has_required(it))
            got = it;
    }
    if (got == NULL && uncallable > 0) {
        snprintf(why, n, "role %s needs %s: %d listed tool%s an outputSchema, but tools are "
                 "called only with --call-tools or when the profile's \"safe_tools\" names them",
                 role, mc_role_shape(role), uncallable, uncallable == 1 ? " declares" : "s declare");
        return MC_ROLE_NOT_OFFERED;
    }
    if (got == NULL && !complete) {
        snprintf(why, n, "no listed resource read showed the shape role %s needs: %s (%d read at "
                 "most, unanswered reads not counted)",
                 role, mc_role_shape(role), MC_SHAPE_MAX_READS);
        return MC_ROLE_NOT_OFFERED;
    }
    if (got == NULL || mc_json_get_str(got, key) == NULL) {
        /* Every listed item was looked at: the server has nothing the
         * scenario applies to. */
        snprintf(why, n, "not applicable: no listed item has the shape role %s needs: %s%s%s",
                 role, mc_role_shape(role),
                 pick == PICK_TEXT || pick == PICK_BLOB ? " (every listed resource was read)" : "",
                 o->picked != NULL ? ", other than the items picked for the scenario's other roles"
                                   : "");
        return MC_ROLE_ABSENT;
    }
    *name = json_object_new_string(mc_json_get_str(got, key));
    *item = json_object_get(got);
    return MC_ROLE_OFFERED;
}
