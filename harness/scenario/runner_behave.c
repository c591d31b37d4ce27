/*
 * runner_behave.c - the behaviour probe (runner.h, mc_runner_behaviours):
 * what the server's own tools and prompts do when they are used, so that a
 * role whose contract is behaviour ("a tool that reports progress", "a
 * prompt whose messages hold an image") can be filled by a listed item that
 * was seen to behave so, and a role nothing showed is known to be absent.
 *
 * One run of the target at one version: it declares every client
 * capability (roots, sampling, elicitation in both modes), sets the log
 * level to debug, subscribes to the listed resources, calls each tool that
 * may be called once with the arguments a scenario would send it (the
 * profile's, else an instance of its inputSchema) and a progress token,
 * gets each prompt once with its required arguments, and notes what came
 * back: notifications, server requests and content. A ping after each call
 * is the point by which everything the call caused has arrived (stdio is
 * ordered; over HTTP the ping's answer comes after the call's stream).
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/version.h"
#include "scenario/fixtures.h"
#include "scenario/shapes.h"

/* The eight log levels, as bits of a level mask. */
static const char *const levels[] = {"debug",    "info",     "notice", "warning",
                                     "error",    "critical", "alert",  "emergency"};

/* Sets roles[role] to value (a name or URI) unless a role is already set. */
static void seen(json_object *roles, const char *role, const char *value)
{
    if (value != NULL && mc_json_get(roles, role) == NULL)
        json_object_object_add(roles, role, json_object_new_string(value));
}

/* True when every property of an elicitation's requestedSchema has a
 * default (and there is at least one). */
static int all_defaults(json_object *schema)
{
    json_object *props = mc_json_get(schema, "properties");
    int n = 0;

    if (!json_object_is_type(props, json_type_object))
        return 0;
    json_object_object_foreach(props, k, p)
    {
        (void)k;
        if (mc_json_get(p, "default") == NULL)
            return 0;
        n++;
    }
    return n > 0;
}

/* True when a requestedSchema holds a single-select enum (enum or oneOf on a
 * string) and a multi-select one (an array whose items carry enum or anyOf). */
static int both_enums(json_object *schema)
{
    json_object *props = mc_json_get(schema, "properties");
    int single = 0, multi = 0;

    if (!json_object_is_type(props, json_type_object))
        return 0;
    json_object_object_foreach(props, k, p)
    {
        json_object *items = mc_json_get(p, "items");
        (void)k;
        if (mc_json_get(p, "enum") != NULL || mc_json_get(p, "oneOf") != NULL)
            single = 1;
        if (items != NULL && (mc_json_get(items, "enum") != NULL ||
                              mc_json_get(items, "anyOf") != NULL))
            multi = 1;
    }
    return single && multi;
}

/* What the server asked the client while a tool ran (c->seen_reqs from
 * index r0): sampling, roots, elicitation. */
static void seen_requests(rctx_t *c, json_object *roles, const char *tool, size_t r0)
{
    size_t i, n = json_object_array_length(c->seen_reqs);

    for (i = r0; i < n; i++) {
        json_object *r = json_object_array_get_idx(c->seen_reqs, i);
        const char *m = mc_json_get_str(r, "method");
        json_object *params = mc_json_get(r, "params");
        const char *mode = mc_json_get_str(params, "mode");
        if (m == NULL)
            continue;
        if (strcmp(m, "sampling/createMessage") == 0)
            seen(roles, "tool.sampling", tool);
        else if (strcmp(m, "roots/list") == 0)
            seen(roles, "tool.list_roots", tool);
        else if (strcmp(m, "elicitation/create") == 0 && mode != NULL && strcmp(mode, "url") == 0)
            seen(roles, "tool.elicitation_url", tool);
        else if (strcmp(m, "elicitation/create") == 0) {
            json_object *schema = mc_json_get(params, "requestedSchema");
            seen(roles, "tool.elicitation", tool);
            if (all_defaults(schema))
                seen(roles, "tool.elicitation_defaults", tool);
            if (both_enums(schema))
                seen(roles, "tool.elicitation_enums", tool);
        }
    }
}

/* What the server notified while a tool ran (c->notes from index n0). */
static void seen_notes(rctx_t *c, json_object *roles, const char *tool, size_t n0,
                       const char *token)
{
    unsigned mask = 0;
    size_t i, k;

    for (i = n0; i < c->notes.n; i++) {
        const mc_msg_t *m = &c->notes.v[i].msg;
        const char *method = m->method != NULL ? m->method : "";
        if (strcmp(method, "notifications/message") == 0) {
            const char *lv = mc_json_get_str(m->params, "level");
            for (k = 0; lv != NULL && k < sizeof(levels) / sizeof(levels[0]); k++)
                if (strcmp(lv, levels[k]) == 0)
                    mask |= 1u << k;
            seen(roles, "tool.with_logging", tool);
        } else if (strcmp(method, "notifications/progress") == 0) {
            const char *t = mc_json_get_str(m->params, "progressToken");
            if (t != NULL && strcmp(t, token) == 0)
                seen(roles, "tool.with_progress", tool);
        } else if (strcmp(method, "notifications/resources/updated") == 0) {
            const char *uri = mc_json_get_str(m->params, "uri");
            if (uri != NULL && mc_json_get(roles, "tool.trigger_resource_update") == NULL) {
                seen(roles, "tool.trigger_resource_update", tool);
                seen(roles, "resource.watched", uri);
            }
        } else if (strcmp(method, "notifications/resources/list_changed") == 0) {
            seen(roles, "tool.trigger_resource_list_change", tool);
        } else if (strcmp(method, "notifications/prompts/list_changed") == 0) {
            seen(roles, "tool.trigger_prompt_change", tool);
        } else if (strcmp(method, "notifications/tools/list_changed") == 0) {
            seen(roles, "tool.trigger_tool_change", tool);
        } else if (strcmp(method, "notifications/elicitation/complete") == 0) {
            seen(roles, "tool.elicitation_url_complete", tool);
        }
    }
    if (mask == (1u << (sizeof(levels) / sizeof(levels[0]))) - 1)
        seen(roles, "tool.logging_levels", tool);
}

/* Bits of the content block types of an array of blocks (or of messages
 * holding one block each, when in_messages). */
enum { C_TEXT = 1, C_IMAGE = 2, C_AUDIO = 4, C_RESOURCE = 8, C_LINK = 16 };

static unsigned content_types(json_object *arr, int in_messages, size_t *count)
{
    size_t i, n = json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
    unsigned bits = 0;

    *count = n;
    for (i = 0; i < n; i++) {
        json_object *b = json_object_array_get_idx(arr, i);
        const char *t = mc_json_get_str(in_messages ? mc_json_get(b, "content") : b, "type");
        if (t == NULL)
            continue;
        bits |= strcmp(t, "text") == 0       ? C_TEXT
                : strcmp(t, "image") == 0    ? C_IMAGE
                : strcmp(t, "audio") == 0    ? C_AUDIO
                : strcmp(t, "resource") == 0 ? C_RESOURCE
                : strcmp(t, "resource_link") == 0 ? C_LINK
                                                  : 0;
    }
    return bits;
}

/* What a tool's answer shows. no_args: the tool requires no argument (the
 * roles "taking no arguments" need one). */
static void seen_answer(json_object *roles, const char *tool, const mc_msg_t *resp, int no_args)
{
    json_object *err = mc_json_get(resp->result, "isError");
    size_t count;
    unsigned bits;

    if (resp->kind == MC_MSG_ERROR) {
        if (resp->error_code == -32042)
            seen(roles, "tool.elicitation_url_error", tool);
        return;
    }
    if (resp->kind != MC_MSG_RESULT)
        return;
    if (json_object_is_type(err, json_type_boolean) && json_object_get_boolean(err)) {
        seen(roles, "tool.error_handling", tool);
        return;
    }
    bits = content_types(mc_json_get(resp->result, "content"), 0, &count);
    if (no_args && count == 1 && bits == C_TEXT)
        seen(roles, "tool.simple_text", tool);
    if (no_args && (bits & C_IMAGE))
        seen(roles, "tool.image_content", tool);
    if (no_args && (bits & C_AUDIO))
        seen(roles, "tool.audio_content", tool);
    if (bits & C_RESOURCE)
        seen(roles, "tool.embedded_resource", tool);
    if (bits & C_LINK)
        seen(roles, "tool.resource_link", tool);
    if ((bits & (C_TEXT | C_IMAGE | C_RESOURCE)) == (C_TEXT | C_IMAGE | C_RESOURCE))
        seen(roles, "tool.multiple_content_types", tool);
}

/* True when a listed tool's inputSchema requires no property. */
static int requires_nothing(json_object *tool)
{
    json_object *req = mc_json_get(mc_json_get(tool, "inputSchema"), "required");

    return !json_object_is_type(req, json_type_array) || json_object_array_length(req) == 0;
}

/* True when the tool may be called: --call-tools, or the profile's
 * safe_tools names it. */
static int callable(const rctx_t *c, const char *name)
{
    size_t i, n;

    if (c->o->call_tools)
        return 1;
    n = json_object_is_type(c->o->safe_tools, json_type_array)
            ? json_object_array_length(c->o->safe_tools)
            : 0;
    for (i = 0; i < n; i++) {
        const char *v = json_object_get_string(json_object_array_get_idx(c->o->safe_tools, i));
        if (v != NULL && strcmp(v, name) == 0)
            return 1;
    }
    return 0;
}

/* Sends one request and waits for its answer; -1 when the target is gone. */
static int ask(rctx_t *c, const char *method, json_object *params, mc_msg_t *resp)
{
    int rc;

    memset(resp, 0, sizeof(*resp));
    mc_session_begin_step(&c->s);
    rc = mc_session_request(&c->s, method, params, mc__runner_time_left(c, c->step_timeout),
                            resp);
    if (rc != MC_OK)
        memset(resp, 0, sizeof(*resp));
    if (rc == MC_ETIMEOUT) {
        /* A server that leaves a request unanswered is not waited on for
         * every other one: what was seen so far stands (the scenarios
         * report the silence). */
        char why[160];
        snprintf(why, sizeof(why), "no answer to %s within %d ms", method, c->step_timeout);
        json_object_object_add(c->behave, "failed", json_object_new_string(why));
        return -1;
    }
    return mc__runner_wait_ok(c, rc, method);
}

/* A ping, whose answer comes after everything the server wrote before it. */
static int barrier(rctx_t *c)
{
    mc_msg_t resp;
    int rc = ask(c, "ping", NULL, &resp);

    mc_msg_free(&resp);
    mc__runner_drain(c);
    return rc;
}

/* Makes the lists the probe needs walked; fills the list count of the
 * kinds it reports. */
static json_object *list_of(rctx_t *c, mc_offer_t *offer, const mc_fixture_opts_t *fo, int k)
{
    char why[256];
    int srv_rc = MC_OK;

    if (mc__offer_need(&c->s, offer, k, fo, "behaviour probe", why, sizeof(why), &srv_rc) !=
        MC_ROLE_OFFERED)
        return NULL;
    return offer->items[k];
}

/* Subscribes to the listed resources, so that a tool that changes one is
 * seen doing it. */
static int subscribe_all(rctx_t *c, mc_offer_t *offer, const mc_fixture_opts_t *fo)
{
    json_object *items = list_of(c, offer, fo, MC_LIST_RESOURCES);
    size_t i, n = items != NULL ? json_object_array_length(items) : 0;

    for (i = 0; i < n && i < MC_BEHAVIOUR_MAX_SUBSCRIPTIONS; i++) {
        const char *uri = mc_json_get_str(json_object_array_get_idx(items, i), "uri");
        json_object *params;
        mc_msg_t resp;
        if (uri == NULL)
            continue;
        params = json_object_new_object();
        json_object_object_add(params, "uri", json_object_new_string(uri));
        if (ask(c, "resources/subscribe", params, &resp) != 0)
            return -1;
        mc_msg_free(&resp);
    }
    return 0;
}

/* The arguments a scenario sends the tool: the profile's for its name, else
 * an instance of its inputSchema (the same ones mc_fixture_resolve gives
 * the role's .args). A new reference. */
static json_object *tool_args(rctx_t *c, json_object *tool)
{
    json_object *own = mc_json_get(c->o->args, mc_json_get_str(tool, "name"));
    json_object *copy = NULL;

    if (own != NULL && json_object_deep_copy(own, &copy, NULL) == 0)
        return copy;
    return mc__runner_forms(mc__shape_data(MC_ROLE_TOOL, tool, "args"));
}

/* Calls every tool that may be called, once; counts them in out. */
static int call_tools(rctx_t *c, mc_offer_t *offer, const mc_fixture_opts_t *fo, json_object *roles,
                      json_object *out)
{
    json_object *items = list_of(c, offer, fo, MC_LIST_TOOLS);
    size_t i, n = items != NULL ? json_object_array_length(items) : 0;
    int called = 0, may = 0;

    for (i = 0; i < n; i++) {
        json_object *tool = json_object_array_get_idx(items, i), *params, *meta;
        const char *name = mc_json_get_str(tool, "name");
        char token[48];
        size_t r0 = json_object_array_length(c->seen_reqs), n0 = c->notes.n;
        mc_msg_t resp;
        if (name == NULL || !callable(c, name))
            continue;
        may++;
        if (called >= MC_BEHAVIOUR_MAX_CALLS)
            continue;
        snprintf(token, sizeof(token), "mcpcheck-behaviour-%zu", i);
        params = json_object_new_object();
        meta = json_object_new_object();
        json_object_object_add(meta, "progressToken", json_object_new_string(token));
        json_object_object_add(params, "name", json_object_new_string(name));
        json_object_object_add(params, "arguments", tool_args(c, tool));
        json_object_object_add(params, "_meta", meta);
        if (ask(c, "tools/call", params, &resp) != 0)
            return -1;
        called++;
        if (barrier(c) != 0) {
            mc_msg_free(&resp);
            return -1;
        }
        seen_answer(roles, name, &resp, requires_nothing(tool));
        seen_requests(c, roles, name, r0);
        seen_notes(c, roles, name, n0, token);
        mc_msg_free(&resp);
    }
    json_object_object_add(out, "tools_listed", json_object_new_int((int)n));
    json_object_object_add(out, "tools_called", json_object_new_int(called));
    /* Every listed tool was called: a behaviour none showed is absent. */
    json_object_object_add(out, "tools_complete",
                           json_object_new_boolean(items != NULL && (size_t)called == n));
    (void)may;
    return 0;
}

/* Gets every listed prompt once, with its required arguments. */
static int get_prompts(rctx_t *c, mc_offer_t *offer, const mc_fixture_opts_t *fo,
                       json_object *roles, json_object *out)
{
    json_object *items = list_of(c, offer, fo, MC_LIST_PROMPTS);
    size_t i, n = items != NULL ? json_object_array_length(items) : 0;
    int got = 0;

    for (i = 0; i < n && got < MC_BEHAVIOUR_MAX_CALLS; i++) {
        json_object *p = json_object_array_get_idx(items, i), *params;
        const char *name = mc_json_get_str(p, "name");
        mc_msg_t resp;
        size_t count;
        unsigned bits;
        if (name == NULL)
            continue;
        params = json_object_new_object();
        json_object_object_add(params, "name", json_object_new_string(name));
        json_object_object_add(params, "arguments",
                               mc__runner_forms(mc__shape_data(MC_ROLE_PROMPT, p, "args")));
        if (ask(c, "prompts/get", params, &resp) != 0)
            return -1;
        got++;
        bits = resp.kind == MC_MSG_RESULT
                   ? content_types(mc_json_get(resp.result, "messages"), 1, &count)
                   : 0;
        if (bits & C_IMAGE)
            seen(roles, "prompt.with_image", name);
        if (bits & C_AUDIO)
            seen(roles, "prompt.with_audio", name);
        if (bits & C_RESOURCE)
            seen(roles, "prompt.with_embedded_resource", name);
        mc_msg_free(&resp);
    }
    json_object_object_add(out, "prompts_listed", json_object_new_int((int)n));
    json_object_object_add(out, "prompts_got", json_object_new_int(got));
    json_object_object_add(out, "prompts_complete",
                           json_object_new_boolean(items != NULL && (size_t)got == n));
    return 0;
}

/* Keeps in out what a scenario's roles can be decided from before its
 * server is started (mc_fixture_presolve): the capabilities declared and
 * the names of the tools and prompts listed (the lists the probe walked). */
static void keep_listing(rctx_t *c, const mc_offer_t *offer, json_object *out)
{
    static const struct {
        int k;
        const char *name;
    } kept[] = {{MC_LIST_TOOLS, "tools"}, {MC_LIST_PROMPTS, "prompts"}};
    json_object *listed = json_object_new_object(), *caps = NULL;
    size_t i, j;

    if (c->s.server_caps != NULL && json_object_deep_copy(c->s.server_caps, &caps, NULL) == 0)
        json_object_object_add(out, "capabilities", caps);
    for (i = 0; listed != NULL && i < sizeof(kept) / sizeof(kept[0]); i++) {
        json_object *items = offer->state[kept[i].k] == 1 ? offer->items[kept[i].k] : NULL;
        json_object *names;
        if (items == NULL)
            continue;
        names = json_object_new_array();
        for (j = 0; names != NULL && j < json_object_array_length(items); j++) {
            const char *v = mc_json_get_str(json_object_array_get_idx(items, j), "name");
            if (v != NULL)
                json_object_array_add(names, json_object_new_string(v));
        }
        json_object_object_add(listed, kept[i].name, names);
    }
    json_object_object_add(out, "listed", listed);
}

void mc__runner_behave(rctx_t *c)
{
    json_object *roles = json_object_new_object(), *out = c->behave;
    mc_fixture_opts_t fo;
    mc_offer_t offer;
    int stateless = mc_version_has(c->version, MC_VF_STATELESS) != 0, ok = 0;

    memset(&fo, 0, sizeof(fo));
    fo.server_caps = c->s.server_caps;
    fo.timeout_ms = c->step_timeout;
    mc_offer_init(&offer);
    json_object_object_add(out, "roles", roles);
    if (!stateless && mc__offer_declares(c->s.server_caps, "logging", NULL)) {
        json_object *params = json_object_new_object();
        mc_msg_t resp;
        json_object_object_add(params, "level", json_object_new_string("debug"));
        if (ask(c, "logging/setLevel", params, &resp) != 0)
            goto done;
        mc_msg_free(&resp);
    }
    if (!stateless && mc__offer_declares(c->s.server_caps, "resources", "subscribe") &&
        subscribe_all(c, &offer, &fo) != 0)
        goto done;
    if (mc__offer_declares(c->s.server_caps, "tools", NULL) &&
        call_tools(c, &offer, &fo, roles, out) != 0)
        goto done;
    if (mc__offer_declares(c->s.server_caps, "prompts", NULL) &&
        get_prompts(c, &offer, &fo, roles, out) != 0)
        goto done;
    ok = 1;
done:
    keep_listing(c, &offer, out);
    if (!ok && mc_json_get(out, "failed") == NULL)
        json_object_object_add(out, "failed",
                               json_object_new_string(c->res->reason != NULL ? c->res->reason
                                                                             : "the target "
                                                                               "stopped"));
    mc_offer_free(&offer);
}
