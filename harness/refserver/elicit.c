/*
 * elicit.c - the tools that ask the client: elicitation (form and URL mode),
 * sampling and roots.
 *
 * Each is a two-step job: step 0 checks that the client declared the
 * capability (a client without it gets an isError result and no request,
 * 2025-06-18/basic/lifecycle#operation), sends the request and waits; step 1
 * turns the client's answer (accept, decline, cancel, or an error) into the
 * tool result.
 */
#include <stdio.h>
#include <string.h>

#include "refserver/internal.h"

/* Finishes job with an isError result. */
static int fail(mc_refserver_t *rs, rs_job_t *job, const char *text)
{
    mc__rs_job_finish_text(rs, job, text, 1);
    return RS_STEP_DONE;
}

/* Ends job saying why a URL-mode elicitation cannot be made in this session. */
static int url_refused(mc_refserver_t *rs, rs_job_t *job)
{
    char text[160];

    snprintf(text, sizeof(text),
             "URL-mode elicitation needs a %s session whose client declared elicitation.url",
             mc_version_name(MC_V_2025_11_25));
    return fail(rs, job, text);
}

/* Checks the phase and sends method; returns the step code. */
static int ask(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params)
{
    /* 2026-07-28 has no server->client requests: multi round-trip instead. */
    if (rs->modern)
        return mc__rs_mrtr_ask(rs, job, method, params);
    if (rs->phase != RS_PHASE_READY) {
        json_object_put(params);
        return fail(rs, job, "the client has not sent notifications/initialized yet");
    }
    if (mc__rs_client_request(rs, job, method, params) != MC_OK)
        return fail(rs, job, "too many requests to the client are outstanding");
    return RS_STEP_WAIT;
}

/* Formats the client's error answer into a failed result. */
static int client_error(mc_refserver_t *rs, rs_job_t *job, const char *method,
                        json_object *error)
{
    char text[RS_MAX_ECHO_TEXT];
    const char *m = mc__rs_get_str(error, "message");

    snprintf(text, sizeof(text), "the client answered %s with an error: %.1000s", method,
             m != NULL ? m : "(no message)");
    return fail(rs, job, text);
}

/* A property schema {"type": type, "description": desc}. New reference. */
static json_object *prop(mc_refserver_t *rs, const char *type, const char *desc)
{
    json_object *o = json_object_new_object();

    mc__rs_put_str(rs, o, "type", type);
    if (desc != NULL)
        mc__rs_put_str(rs, o, "description", desc);
    return o;
}

/* An array of strings. New reference. */
static json_object *strings(const char *const *v, int n)
{
    json_object *a = json_object_new_array();
    int i;

    for (i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_string(v[i]));
    return a;
}

/* Wraps properties (consumed) and required (consumed; NULL: none) into a
 * requestedSchema. New reference. */
static json_object *form_schema(mc_refserver_t *rs, json_object *props, json_object *required)
{
    json_object *s = json_object_new_object();

    mc__rs_put_str(rs, s, "type", "object");
    mc__rs_put(rs, s, "properties", props);
    if (required != NULL)
        mc__rs_put(rs, s, "required", required);
    return s;
}

/* Step 0 of a form-mode elicitation: gate, build, send. schema is consumed. */
static int send_form(mc_refserver_t *rs, rs_job_t *job, const char *message, json_object *schema)
{
    json_object *p;

    if (!rs->cap_elicit_form && !rs_fault_hook(rs, RS_HOOK_IGNORE_ELICITATION_CAP)) {
        json_object_put(schema);
        if (rs->modern)
            return mc__rs_need_capability(rs, job, "elicitation", "form");
        return fail(rs, job, "the client did not declare the elicitation capability (form "
                             "mode), so the server cannot ask the user");
    }
    p = json_object_new_object();
    if (rs->version >= MC_V_2025_11_25)
        mc__rs_put_str(rs, p, "mode", "form");
    mc__rs_put_str(rs, p, "message", message);
    mc__rs_put(rs, p, "requestedSchema", schema);
    return ask(rs, job, "elicitation/create", p);
}

/* Step 1 of an elicitation: reflect the action (and content) in the result. */
static int elicit_answer(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply,
                         const char *prefix)
{
    char text[RS_MAX_ECHO_TEXT + 128];
    const char *action;
    json_object *content;

    if (reply == NULL || reply->error != NULL)
        return client_error(rs, job, "elicitation/create", reply ? reply->error : NULL);
    action = mc__rs_get_str(reply->result, "action");
    if (action == NULL || (strcmp(action, "accept") != 0 && strcmp(action, "decline") != 0 &&
                           strcmp(action, "cancel") != 0))
        return fail(rs, job, "the client's elicitation result has no valid action");
    if (rs_fault_hook(rs, RS_HOOK_EXPECT_ACCEPT) && strcmp(action, "accept") != 0) {
        /* The switched server counts on an accepted answer's content. */
        mc__rs_error(rs, job->id, MC_RPC_INTERNAL_ERROR, "the elicitation returned no content",
                     NULL);
        return RS_STEP_DONE;
    }
    if (strcmp(action, "accept") == 0 &&
        json_object_object_get_ex(reply->result, "content", &content) &&
        json_object_is_type(content, json_type_object)) {
        size_t n = 0;
        const char *c = mc_json_compact(content, &n);
        snprintf(text, sizeof(text), "%s: action=accept, content=%.*s", prefix,
                 (int)(n > RS_MAX_ECHO_TEXT ? RS_MAX_ECHO_TEXT : n), c != NULL ? c : "{}");
    } else {
        snprintf(text, sizeof(text), "%s: action=%s", prefix, action);
    }
    mc__rs_job_finish_text(rs, job, text, 0);
    return RS_STEP_DONE;
}

int mc__rs_tool_elicit(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char *const req[2] = {"username", "email"};
    const char *message;
    json_object *props, *email;

    if (job->step > 0)
        return elicit_answer(rs, job, reply, "User response");
    message = mc__rs_get_str(job->args, "message");
    if (message == NULL)
        return fail(rs, job, "argument \"message\" (a string) is required");
    props = json_object_new_object();
    mc__rs_put(rs, props, "username", prop(rs, "string", "User's response"));
    email = prop(rs, "string", "User's email address");
    mc__rs_put_str(rs, email, "format", "email");
    mc__rs_put(rs, props, "email", email);
    return send_form(rs, job, message, form_schema(rs, props, strings(req, 2)));
}

int mc__rs_tool_elicit_defaults(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char *const status[3] = {"active", "inactive", "pending"};
    int full = rs->version >= MC_V_2025_11_25; /* defaults beyond boolean came in 2025-11-25 */
    json_object *props, *p;

    if (job->step > 0)
        return elicit_answer(rs, job, reply, "Elicitation completed");
    props = json_object_new_object();
    p = prop(rs, "string", "Your name");
    if (full)
        mc__rs_put_str(rs, p, "default", "John Doe");
    mc__rs_put(rs, props, "name", p);
    p = prop(rs, "integer", "Your age");
    if (full)
        mc__rs_put(rs, p, "default", json_object_new_int(30));
    mc__rs_put(rs, props, "age", p);
    p = prop(rs, "number", "Your score");
    if (full)
        mc__rs_put(rs, p, "default", json_object_new_double(95.5));
    mc__rs_put(rs, props, "score", p);
    p = prop(rs, "string", "Your status");
    mc__rs_put(rs, p, "enum", strings(status, 3));
    if (full)
        mc__rs_put_str(rs, p, "default", "active");
    mc__rs_put(rs, props, "status", p);
    p = prop(rs, "boolean", "Verified");
    mc__rs_put(rs, p, "default", json_object_new_boolean(1));
    mc__rs_put(rs, props, "verified", p);
    return send_form(rs, job, "Please review these values (each field has a default)",
                     form_schema(rs, props, NULL));
}

/* {"const": c, "title": t} pairs for titled enums. New reference. */
static json_object *titled(mc_refserver_t *rs, const char *const *c, const char *const *t, int n)
{
    json_object *a = json_object_new_array();
    int i;

    for (i = 0; i < n; i++) {
        json_object *o = json_object_new_object();
        mc__rs_put_str(rs, o, "const", c[i]);
        mc__rs_put_str(rs, o, "title", t[i]);
        json_object_array_add(a, o);
    }
    return a;
}

int mc__rs_tool_elicit_enums(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char *const opts[3] = {"option1", "option2", "option3"};
    static const char *const vals[3] = {"value1", "value2", "value3"};
    static const char *const single_titles[3] = {"First Option", "Second Option",
                                                 "Third Option"};
    static const char *const multi_titles[3] = {"First Choice", "Second Choice",
                                                "Third Choice"};
    static const char *const legacy[3] = {"opt1", "opt2", "opt3"};
    static const char *const legacy_names[3] = {"Option One", "Option Two", "Option Three"};
    json_object *props, *p, *items;

    if (job->step > 0)
        return elicit_answer(rs, job, reply, "Elicitation completed");
    props = json_object_new_object();
    p = prop(rs, "string", "Untitled single-select");
    mc__rs_put(rs, p, "enum", strings(opts, 3));
    mc__rs_put(rs, props, "untitledSingle", p);
    p = prop(rs, "string", "Legacy titled single-select");
    mc__rs_put(rs, p, "enum", strings(legacy, 3));
    mc__rs_put(rs, p, "enumNames", strings(legacy_names, 3));
    mc__rs_put(rs, props, "legacyEnum", p);
    /* Titled and multi-select enums exist from 2025-11-25 on. */
    if (rs->version >= MC_V_2025_11_25) {
        p = prop(rs, "string", "Titled single-select");
        mc__rs_put(rs, p, "oneOf", titled(rs, vals, single_titles, 3));
        mc__rs_put(rs, props, "titledSingle", p);
        p = prop(rs, "array", "Untitled multi-select");
        items = json_object_new_object();
        mc__rs_put_str(rs, items, "type", "string");
        mc__rs_put(rs, items, "enum", strings(opts, 3));
        mc__rs_put(rs, p, "items", items);
        mc__rs_put(rs, props, "untitledMulti", p);
        p = prop(rs, "array", "Titled multi-select");
        items = json_object_new_object();
        mc__rs_put(rs, items, "anyOf", titled(rs, vals, multi_titles, 3));
        mc__rs_put(rs, p, "items", items);
        mc__rs_put(rs, props, "titledMulti", p);
    }
    return send_form(rs, job, "Please choose from each kind of enum",
                     form_schema(rs, props, NULL));
}

/* True when the session may use URL-mode elicitation. */
static int url_allowed(mc_refserver_t *rs)
{
    return rs->version >= MC_V_2025_11_25 && rs->cap_elicit_url;
}

/* The parameters of a URL-mode elicitation for job. New reference. */
static json_object *url_params(mc_refserver_t *rs, rs_job_t *job)
{
    json_object *p = json_object_new_object();
    char url[128];

    if (job->elicitation_id[0] == '\0')
        snprintf(job->elicitation_id, sizeof(job->elicitation_id), "mcpcheck-elicitation-%u",
                 (unsigned)++rs->elicitation_seq);
    snprintf(url, sizeof(url), "https://example.com/mcpcheck/elicitation/%s", job->elicitation_id);
    mc__rs_put_str(rs, p, "mode", "url");
    /* 2026-07-28 removed elicitationId (changelog, minor change 11). */
    if (rs->version < MC_V_2026_07_28)
        mc__rs_put_str(rs, p, "elicitationId", job->elicitation_id);
    mc__rs_put_str(rs, p, "url", url);
    mc__rs_put_str(rs, p, "message", "Please complete the test authorization at this URL");
    return p;
}

/* Step 0 of the URL-mode tools. */
static int send_url(mc_refserver_t *rs, rs_job_t *job)
{
    int bypass = rs_fault_hook(rs, RS_HOOK_IGNORE_URL_CAP) && rs->version >= MC_V_2025_11_25 &&
                 rs->cap_elicit_form;

    if (!url_allowed(rs) && !bypass && rs->modern)
        return mc__rs_need_capability(rs, job, "elicitation", "url");
    if (!url_allowed(rs) && !bypass)
        return url_refused(rs, job);
    return ask(rs, job, "elicitation/create", url_params(rs, job));
}

int mc__rs_tool_elicit_url(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    if (job->step == 0)
        return send_url(rs, job);
    return elicit_answer(rs, job, reply, "URL elicitation result");
}

int mc__rs_tool_elicit_url_complete(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    const char *action;

    if (job->step == 0)
        return send_url(rs, job);
    action = reply != NULL ? mc__rs_get_str(reply->result, "action") : NULL;
    if (action != NULL && strcmp(action, "accept") == 0 && rs->version < MC_V_2026_07_28) {
        json_object *p = json_object_new_object();
        mc__rs_put_str(rs, p, "elicitationId", job->elicitation_id);
        mc__rs_notify(rs, "notifications/elicitation/complete", p);
    }
    return elicit_answer(rs, job, reply, "URL elicitation result");
}

int mc__rs_tool_elicit_url_error(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    json_object *data, *list;

    /* 2026-07-28 has no -32042: the URL goes out as a multi round-trip
     * input request instead (2026-07-28/client/elicitation). */
    if (rs->modern)
        return mc__rs_tool_elicit_url(rs, job, reply);
    if (!url_allowed(rs))
        return url_refused(rs, job);
    data = json_object_new_object();
    list = json_object_new_array();
    json_object_array_add(list, url_params(rs, job));
    mc__rs_put(rs, data, "elicitations", list);
    mc__rs_error(rs, job->id, MC_RPC_URL_ELICITATION_REQUIRED,
                 "This request requires more information.", data);
    return RS_STEP_DONE;
}

int mc__rs_tool_sampling(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    char text[RS_MAX_ECHO_TEXT + 64];
    const char *prompt;
    json_object *p, *msgs, *m, *content;

    if (job->step == 0) {
        prompt = mc__rs_get_str(job->args, "prompt");
        if (prompt == NULL && rs_fault_hook(rs, RS_HOOK_ACCEPT_MISSING_TOOL_ARGUMENT))
            prompt = "(no prompt)";
        if (prompt == NULL)
            return fail(rs, job, "argument \"prompt\" (a string) is required");
        if (!rs->cap_sampling && !rs_fault_hook(rs, RS_HOOK_IGNORE_SAMPLING_CAP) && rs->modern)
            return mc__rs_need_capability(rs, job, "sampling", NULL);
        if (!rs->cap_sampling && !rs_fault_hook(rs, RS_HOOK_IGNORE_SAMPLING_CAP))
            return fail(rs, job, "the client did not declare the sampling capability");
        p = json_object_new_object();
        msgs = json_object_new_array();
        m = json_object_new_object();
        mc__rs_put_str(rs, m, "role", "user");
        mc__rs_put(rs, m, "content", mc__rs_text_block(rs, prompt));
        json_object_array_add(msgs, m);
        mc__rs_put(rs, p, "messages", msgs);
        mc__rs_put(rs, p, "maxTokens", json_object_new_int(100));
        return ask(rs, job, "sampling/createMessage", p);
    }
    if (reply == NULL || reply->error != NULL)
        return client_error(rs, job, "sampling/createMessage", reply ? reply->error : NULL);
    if (!json_object_object_get_ex(reply->result, "content", &content))
        return fail(rs, job, "the client's sampling result has no content");
    if (json_object_is_type(content, json_type_array))
        content = json_object_array_get_idx(content, 0);
    {
        const char *t = mc__rs_get_str(content, "text");
        snprintf(text, sizeof(text), "LLM response: %.*s", RS_MAX_ECHO_TEXT,
                 t != NULL ? t : "(non-text content)");
    }
    mc__rs_job_finish_text(rs, job, text, 0);
    return RS_STEP_DONE;
}

/*
 * The params of the n-th sampling/createMessage of test_sampling_pair. Each
 * request carries a progressToken of its own in _meta: the server is their
 * sender, and its tokens are unique across its active requests
 * (basic/utilities/progress#progress-flow); the switch
 * server-progress-token-reused gives the two the same one. A stateless
 * session (2026-07-28) asks through input requests, without a token. New
 * reference.
 */
static json_object *pair_params(mc_refserver_t *rs, const rs_job_t *job, int n)
{
    static const char *const prompts[] = {"Name a colour.", "Name a number."};
    json_object *p = json_object_new_object(), *msgs = json_object_new_array();
    json_object *m = json_object_new_object(), *meta;
    char token[48];

    mc__rs_put_str(rs, m, "role", "user");
    mc__rs_put(rs, m, "content", mc__rs_text_block(rs, prompts[n]));
    json_object_array_add(msgs, m);
    mc__rs_put(rs, p, "messages", msgs);
    mc__rs_put(rs, p, "maxTokens", json_object_new_int(100));
    if (!rs->modern) {
        snprintf(token, sizeof(token), "sampling-%u-%d", (unsigned)job->serial, n);
        meta = json_object_new_object();
        mc__rs_put_str(rs, meta, "progressToken", token);
        mc__rs_put(rs, p, "_meta", meta);
    }
    return p;
}

int mc__rs_tool_sampling_pair(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    int n, rc;

    if (job->step == 0) {
        if (!rs->cap_sampling && !rs_fault_hook(rs, RS_HOOK_IGNORE_SAMPLING_CAP) && rs->modern)
            return mc__rs_need_capability(rs, job, "sampling", NULL);
        if (!rs->cap_sampling && !rs_fault_hook(rs, RS_HOOK_IGNORE_SAMPLING_CAP))
            return fail(rs, job, "the client did not declare the sampling capability");
        /* Both requests go out before either answer is awaited (one at a
         * time through input requests at 2026-07-28). */
        for (n = 0; n < (rs->modern ? 1 : 2); n++) {
            rc = ask(rs, job, "sampling/createMessage", pair_params(rs, job, n));
            if (rc != RS_STEP_WAIT)
                return rc;
        }
        return RS_STEP_WAIT;
    }
    if (reply == NULL || reply->error != NULL)
        return client_error(rs, job, "sampling/createMessage", reply ? reply->error : NULL);
    if (job->step == 1 && !rs->modern)
        return RS_STEP_WAIT; /* the other answer is still to come */
    mc__rs_job_finish_text(rs, job, "the client answered both sampling requests", 0);
    return RS_STEP_DONE;
}

int mc__rs_tool_roots(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    char text[RS_MAX_ECHO_TEXT];
    json_object *roots;
    size_t i, n, off;

    if (job->step == 0) {
        if (!rs->cap_roots && !rs_fault_hook(rs, RS_HOOK_IGNORE_ROOTS_CAP) && rs->modern)
            return mc__rs_need_capability(rs, job, "roots", NULL);
        if (!rs->cap_roots && !rs_fault_hook(rs, RS_HOOK_IGNORE_ROOTS_CAP))
            return fail(rs, job, "the client did not declare the roots capability");
        return ask(rs, job, "roots/list", NULL);
    }
    if (reply == NULL || reply->error != NULL)
        return client_error(rs, job, "roots/list", reply ? reply->error : NULL);
    if (!json_object_object_get_ex(reply->result, "roots", &roots) ||
        !json_object_is_type(roots, json_type_array))
        return fail(rs, job, "the client's roots/list result has no roots array");
    n = json_object_array_length(roots);
    off = (size_t)snprintf(text, sizeof(text), "%zu root(s)", n);
    for (i = 0; i < n && off < sizeof(text); i++) {
        const char *uri = mc__rs_get_str(json_object_array_get_idx(roots, i), "uri");
        int w = snprintf(text + off, sizeof(text) - off, "%s %s", i == 0 ? ":" : ",",
                         uri != NULL ? uri : "(no uri)");
        if (w < 0)
            break;
        off += (size_t)w;
    }
    mc__rs_job_finish_text(rs, job, text, 0);
    return RS_STEP_DONE;
}
