/*
 * refserver_session_script.c - the refserver_session target's start-up:
 * the template (a server after the handshake) and the known set, filled by
 * a fixed script (every list page, read, prompt, tool, logging level and
 * common error of each version) run through the full oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonrpc.h"
#include "core/version.h"
#include "refserver/units.h"
#include "refserver_session.h"

static const char init_line[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
    "\"protocolVersion\":\"" MC_VERSION_NEWEST_HANDSHAKE "\",\"capabilities\":{\"roots\":{\"listChanged\":true},"
    "\"sampling\":{},\"elicitation\":{\"form\":{},\"url\":{}}},"
    "\"clientInfo\":{\"name\":\"mcpcheck-fuzz\",\"version\":\"1.0\"}}}";
static const char initialized_line[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

/* ---- start-up: the template and the known set ---- */

/* The script's view of the server's answers. */
static json_object *answer_to(sess_t *ss, int64_t id)
{
    const char *p = ss->capture, *nl;
    json_object *found = NULL;

    while (p != NULL && *p != '\0' && found == NULL) {
        json_object *v, *vid;
        nl = strchr(p, '\n');
        v = mc_fuzz_parse(p, nl != NULL ? (size_t)(nl - p) : strlen(p));
        if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "id", &vid) &&
            json_object_is_type(vid, json_type_int) && json_object_get_int64(vid) == id &&
            !json_object_object_get_ex(v, "method", NULL))
            found = json_object_get(v);
        json_object_put(v);
        p = nl != NULL ? nl + 1 : NULL;
    }
    return found;
}

/* Feeds a script line and runs the timers. */
static void script_line(sess_t *ss, const char *line, int64_t *now)
{
    *now += 7;
    if (mc__rss_feed(ss, line, strlen(line), *now) == MC_OK)
        mc__rss_run_timers(ss, now);
}

/* Sends a request with the script's next id; returns the id. */
static int64_t script_call(sess_t *ss, int64_t *next_id, const char *method, json_object *params,
                           int64_t *now)
{
    json_object *req = mc_jsonrpc_request(json_object_new_int64(*next_id), method, params);
    size_t n = 0;
    const char *s = req != NULL ? mc_json_compact(req, &n) : NULL;

    /* The script sends more requests than an input can; each is answered
     * before the next, so older ids can be forgotten (entry 0 stays). */
    if (ss->n_ids > MAX_IDS - 8)
        ss->n_ids = 1;

    if (s != NULL)
        script_line(ss, s, now);
    json_object_put(req);
    return (*next_id)++;
}

static void capture_clear(sess_t *ss)
{
    ss->capture_len = 0;
    if (ss->capture != NULL)
        ss->capture[0] = '\0';
}

/* How the script answers the server's requests (as fuzz/record_seeds.py
 * does, so the seeds' answers are among the known messages). */
enum { ANSWER_ACCEPT, ANSWER_DECLINE, ANSWER_CANCEL, ANSWER_ERROR, ANSWER_POLICIES };

/* Content accepting a form elicitation: a value for each property of the
 * requested schema, chosen like the seed recorder's. New reference. */
static json_object *form_content(json_object *req)
{
    json_object *content = json_object_new_object(), *params, *schema, *props;

    if (!json_object_object_get_ex(req, "params", &params) ||
        !json_object_object_get_ex(params, "requestedSchema", &schema) ||
        !json_object_object_get_ex(schema, "properties", &props) ||
        !json_object_is_type(props, json_type_object))
        return content;
    json_object_object_foreach(props, key, prop)
    {
        json_object *en, *one, *items, *v = NULL, *dflt;
        const char *t = mc__rss_get_str(prop, "type"), *fmt = mc__rss_get_str(prop, "format");
        if (json_object_object_get_ex(prop, "enum", &en) &&
            json_object_is_type(en, json_type_array) && json_object_array_length(en) > 0) {
            v = json_object_get(json_object_array_get_idx(en, 0));
        } else if (json_object_object_get_ex(prop, "oneOf", &one) &&
                   json_object_is_type(one, json_type_array) && json_object_array_length(one) > 0) {
            const char *c = mc__rss_get_str(json_object_array_get_idx(one, 0), "const");
            v = json_object_new_string(c != NULL ? c : "x");
        } else if (t != NULL && strcmp(t, "array") == 0) {
            json_object *first = NULL, *any;
            v = json_object_new_array();
            if (json_object_object_get_ex(prop, "items", &items)) {
                if (json_object_object_get_ex(items, "enum", &en) &&
                    json_object_is_type(en, json_type_array) && json_object_array_length(en) > 0)
                    first = json_object_array_get_idx(en, 0);
                else if (json_object_object_get_ex(items, "anyOf", &any) &&
                         json_object_is_type(any, json_type_array) &&
                         json_object_array_length(any) > 0)
                    json_object_object_get_ex(json_object_array_get_idx(any, 0), "const", &first);
            }
            if (first != NULL)
                json_object_array_add(v, json_object_get(first));
        } else if (t != NULL && strcmp(t, "boolean") == 0) {
            v = json_object_new_boolean(1);
        } else if (t != NULL && (strcmp(t, "number") == 0 || strcmp(t, "integer") == 0)) {
            v = json_object_object_get_ex(prop, "minimum", &dflt) ? json_object_get(dflt)
                                                                  : json_object_new_int(1);
        } else if (fmt != NULL && strcmp(fmt, "email") == 0) {
            v = json_object_new_string("user@example.com");
        } else {
            v = json_object_object_get_ex(prop, "default", &dflt)
                    ? json_object_get(dflt)
                    : json_object_new_string("recorded");
        }
        json_object_object_add(content, key, v);
    }
    return content;
}

/* The script's answer to one server request. New reference. */
static json_object *answer_for(json_object *req, json_object *id, const char *method, int policy)
{
    json_object *res;
    const char *mode;

    if (policy == ANSWER_ERROR)
        return mc_jsonrpc_error(json_object_get(id), -32601, "not supported", NULL);
    if (strcmp(method, "roots/list") == 0) {
        res = json_tokener_parse(
            "{\"roots\":[{\"uri\":\"file:///home/user/project\",\"name\":\"project\"}]}");
    } else if (strcmp(method, "sampling/createMessage") == 0) {
        res = json_tokener_parse("{\"role\":\"assistant\",\"content\":{\"type\":\"text\","
                                 "\"text\":\"42\"},\"model\":\"recorded-model\","
                                 "\"stopReason\":\"endTurn\"}");
    } else if (strcmp(method, "elicitation/create") == 0) {
        json_object *params = NULL;
        json_object_object_get_ex(req, "params", &params);
        mode = mc__rss_get_str(params, "mode");
        res = json_object_new_object();
        if (policy == ANSWER_DECLINE || policy == ANSWER_CANCEL) {
            json_object_object_add(
                res, "action",
                json_object_new_string(policy == ANSWER_DECLINE ? "decline" : "cancel"));
        } else {
            json_object_object_add(res, "action", json_object_new_string("accept"));
            if (mode == NULL || strcmp(mode, "url") != 0)
                json_object_object_add(res, "content", form_content(req));
        }
    } else if (strcmp(method, "ping") == 0) {
        res = json_object_new_object();
    } else {
        return mc_jsonrpc_error(json_object_get(id), -32601, "Method not found", NULL);
    }
    return mc_jsonrpc_result(json_object_get(id), res);
}

/* Answers every request the server sent since the capture was last emptied
 * (and empties it). */
static void answer_server_requests(sess_t *ss, int policy, int64_t *now)
{
    char *copy = ss->capture != NULL ? strdup(ss->capture) : NULL;
    char *p = copy, *nl;

    capture_clear(ss);
    while (p != NULL && *p != '\0') {
        json_object *v, *vid, *m, *ans;
        nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        v = mc_fuzz_parse(p, strlen(p));
        if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "id", &vid) &&
            vid != NULL && json_object_object_get_ex(v, "method", &m) &&
            json_object_is_type(m, json_type_string)) {
            size_t n = 0;
            const char *txt;
            ans = answer_for(v, vid, json_object_get_string(m), policy);
            txt = ans != NULL ? mc_json_compact(ans, &n) : NULL;
            if (txt != NULL)
                script_line(ss, txt, now);
            json_object_put(ans);
        }
        json_object_put(v);
        p = nl != NULL ? nl + 1 : NULL;
    }
    free(copy);
}

/* Calls a tool and answers what it asks with the policy, for as long as it
 * asks (URL mode asks again after the first answer). */
static void script_tool(sess_t *ss, int64_t *next_id, json_object *params, int policy, int64_t *now)
{
    int round;

    capture_clear(ss);
    script_call(ss, next_id, "tools/call", params, now);
    for (round = 0; round < 3 && ss->capture_len > 0; round++)
        answer_server_requests(ss, policy, now);
}

/* Arguments for a tool from its input schema: each property gets a value of
 * its type (the first enum value when there is one). New reference. */
static json_object *tool_args(json_object *schema)
{
    json_object *args = json_object_new_object(), *props;

    if (!json_object_object_get_ex(schema, "properties", &props) ||
        !json_object_is_type(props, json_type_object))
        return args;
    json_object_object_foreach(props, k, p)
    {
        json_object *en = NULL, *v;
        const char *type = mc__rss_get_str(p, "type");
        if (json_object_object_get_ex(p, "enum", &en) && json_object_is_type(en, json_type_array) &&
            json_object_array_length(en) > 0) {
            json_object_object_add(args, k, json_object_get(json_object_array_get_idx(en, 0)));
            continue;
        }
        if (type == NULL)
            type = "string";
        if (strcmp(type, "integer") == 0 || strcmp(type, "number") == 0)
            v = json_object_new_int(2);
        else if (strcmp(type, "boolean") == 0)
            v = json_object_new_boolean(1);
        else if (strcmp(type, "object") == 0)
            v = json_object_new_object();
        else if (strcmp(type, "array") == 0)
            v = json_object_new_array();
        else
            v = json_object_new_string("hello");
        json_object_object_add(args, k, v);
    }
    return args;
}

/* Walks every page of a list, appending its items to items_out. */
static void walk_list(sess_t *ss, int64_t *next_id, const char *method, const char *member,
                      int64_t *now, json_object *items_out)
{
    char cursor[512] = "";
    int pages;

    for (pages = 0; pages < 64; pages++) {
        json_object *params = json_object_new_object(), *ans, *res = NULL, *items, *next;
        int64_t id;
        if (cursor[0] != '\0')
            json_object_object_add(params, "cursor", json_object_new_string(cursor));
        capture_clear(ss);
        id = script_call(ss, next_id, method, params, now);
        ans = answer_to(ss, id);
        cursor[0] = '\0';
        if (json_object_object_get_ex(ans, "result", &res) &&
            json_object_object_get_ex(res, member, &items) &&
            json_object_is_type(items, json_type_array) && items_out != NULL) {
            size_t i;
            for (i = 0; i < json_object_array_length(items); i++)
                json_object_array_add(items_out,
                                      json_object_get(json_object_array_get_idx(items, i)));
        }
        if (res != NULL && json_object_object_get_ex(res, "nextCursor", &next) &&
            json_object_is_type(next, json_type_string))
            snprintf(cursor, sizeof(cursor), "%s", json_object_get_string(next));
        json_object_put(ans);
        if (cursor[0] == '\0')
            break;
    }
}

/* Requests each list at every offset a cursor can name (seeds recorded with
 * another page size carry such cursors): n[i] is how many items list i has
 * now; a dynamic item can add one, and one past the end is an empty page. */
static void every_offset(sess_t *ss, int64_t *next_id, int64_t *now, const size_t n[4])
{
    static const struct {
        mc_refserver_list_t list;
        const char *method;
    } lists[] = {{MC_REFSERVER_LIST_RESOURCES, "resources/list"},
                 {MC_REFSERVER_LIST_TEMPLATES, "resources/templates/list"},
                 {MC_REFSERVER_LIST_PROMPTS, "prompts/list"},
                 {MC_REFSERVER_LIST_TOOLS, "tools/list"}};
    char cur[32];
    size_t i, off;

    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        for (off = 1; off <= n[i] + 2; off++) {
            json_object *p = json_object_new_object();
            mc_refserver_cursor_text(ss->rs, lists[i].list, off, cur);
            json_object_object_add(p, "cursor", json_object_new_string(cur));
            script_call(ss, next_id, lists[i].method, p, now);
        }
    }
}

/* Sends a request whose params are given as JSON text. */
static void script_req(sess_t *ss, int64_t *next_id, const char *method, const char *params,
                       int64_t *now)
{
    script_call(ss, next_id, method, params != NULL ? json_tokener_parse(params) : NULL, now);
}

/* Lines whose answers do not depend on what the session lists: the errors
 * of malformed messages (with a usable id, without one, with a bad one) and
 * of bad parameters. */
static const char *const fixed_lines[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":9001,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9003,\"method\":\"no/such/method\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9003,\"method\":\"no/such/method\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9004,\"method\":\"initialize\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9005,\"method\":\"tools/call\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9006,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9007,\"method\":\"tools/call\",\"params\":{\"name\":"
    "\"test_simple_text\",\"arguments\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9008,\"method\":\"resources/read\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9010,\"method\":\"prompts/get\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9011,\"method\":\"prompts/get\",\"params\":{\"name\":"
    "\"no_such_prompt\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9012,\"method\":\"logging/setLevel\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9013,\"method\":\"logging/setLevel\",\"params\":{\"level\":"
    "\"loud\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9014,\"method\":\"completion/complete\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9015,\"method\":\"resources/subscribe\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9016,\"method\":\"resources/unsubscribe\",\"params\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9017,\"method\":\"prompts/list\",\"params\":{\"cursor\":17}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9018,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9019,\"method\":\"resources/list\",\"params\":{\"cursor\":"
    "\"not-a-cursor\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9020,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9021,\"method\":\"resources/templates/list\",\"params\":{"
    "\"cursor\":\"x\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9022,\"method\":\"tools/list\",\"params\":[]}",
    "{\"jsonrpc\":\"2.0\",\"id\":9023,\"method\":\"tools/call\",\"params\":{\"name\":"
    "\"no_such_tool\",\"arguments\":{}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"",
    "not json at all",
    "{\"jsonrpc\":\"2.0\",\"id\":9025,\"method\":1}",
    "{\"jsonrpc\":\"2.0\",\"method\":1}",
    "{\"jsonrpc\":\"1.0\",\"id\":\"x\",\"method\":\"ping\"}",
    "{\"jsonrpc\":\"1.0\",\"method\":\"ping\"}",
    "{\"jsonrpc\":1,\"id\":9026,\"method\":\"ping\"}",
    "{\"id\":9027,\"method\":\"ping\"}",
    "{\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9028}",
    "{\"jsonrpc\":\"2.0\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9029,\"method\":\"ping\",\"params\":1}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":1}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":9030,\"method\":\"ping\",\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":1}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
    "{}",
    "[]",
    "[1]",
    "[[]]",
    "\"x\"",
    "1",
    "1.5",
    "null",
    "true",
    "{\"jsonrpc\":\"2.0\",\"id\":9031,\"method\":\"ping\"} x",
    /* Notifications and stray answers: no output, but they keep state. */
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,"
    "\"progress\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
    /* Last: in the session without a handshake this one initializes. */
    "{\"jsonrpc\":\"2.0\",\"id\":9004,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"" MC_VERSION_BASELINE "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"again\",\"version\":\"1\"}}}",
};

/* Resources read by URI besides the listed ones (as the seed recorder). */
static const char *const extra_uris[] = {
    "test://template/42/data", "test://greeting/alice",   "test://items/fruit/apple",
    "test://blob/16",          "test://no-such-resource", "test://template//data",
};

/* Requests the seed recorder sends with fixed parameters. */
static const char *const fixed_requests[][2] = {
    {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":"
                    "\"hello\",\"arg2\":\"world\"}}"},
    {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"x\"}}"},
    {"prompts/get", "{\"name\":\"test_prompt_with_embedded_resource\",\"arguments\":{"
                    "\"resourceUri\":\"test://static-text\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                            "\"test_prompt_with_arguments\"},\"argument\":{\"name\":\"arg2\","
                            "\"value\":\"t\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/resource\",\"uri\":"
                            "\"test://template/{id}/data\"},\"argument\":{\"name\":\"id\","
                            "\"value\":\"4\"}}"},
    {"completion/complete", "{\"ref\":{\"type\":\"ref/resource\",\"uri\":"
                            "\"test://items/{category}/{item}\"},\"argument\":{\"name\":"
                            "\"category\",\"value\":\"f\"},\"context\":{\"arguments\":{}}}"},
};

/* Runs the script on a session already started; vname is the version the
 * session asked for (progress tokens carry it, as in the seeds). */
static void script_body(sess_t *ss, const char *vname, int64_t *now)
{
    static const char *const levels[] = {"debug",    "info",  "notice",    "warning", "error",
                                         "critical", "alert", "emergency", "verbose"};
    static const char *const triggers[][3] = {
        {"test_trigger_resource_list_change", "resources/list", "resources"},
        {"test_trigger_prompt_change", "prompts/list", "prompts"},
        {"test_trigger_tool_change", "tools/list", "tools"},
    };
    json_object *tools = json_object_new_array(), *res = json_object_new_array(),
                *prompts = json_object_new_array(), *tpl = json_object_new_array();
    size_t counts[4];
    int64_t next_id = 1;
    size_t i, j;
    int policy, variant;
    char tok[64];

    for (i = 0; i < sizeof(fixed_lines) / sizeof(fixed_lines[0]); i++)
        script_line(ss, fixed_lines[i], now);
    walk_list(ss, &next_id, "resources/list", "resources", now, res);
    walk_list(ss, &next_id, "resources/templates/list", "resourceTemplates", now, tpl);
    walk_list(ss, &next_id, "prompts/list", "prompts", now, prompts);
    walk_list(ss, &next_id, "tools/list", "tools", now, tools);
    counts[0] = json_object_array_length(res);
    counts[1] = json_object_array_length(tpl);
    counts[2] = json_object_array_length(prompts);
    counts[3] = json_object_array_length(tools);
    every_offset(ss, &next_id, now, counts);
    for (i = 0; i < json_object_array_length(res) + sizeof(extra_uris) / sizeof(extra_uris[0]);
         i++) {
        json_object *p = json_object_new_object();
        const char *uri = i < json_object_array_length(res)
                              ? mc__rss_get_str(json_object_array_get_idx(res, i), "uri")
                              : extra_uris[i - json_object_array_length(res)];
        json_object_object_add(p, "uri", json_object_new_string(uri != NULL ? uri : ""));
        script_call(ss, &next_id, "resources/read", p, now);
    }
    script_req(ss, &next_id, "resources/subscribe", "{\"uri\":\"test://watched-resource\"}", now);
    script_req(ss, &next_id, "tools/call",
               "{\"name\":\"test_trigger_resource_update\",\"arguments\":{}}", now);
    script_req(ss, &next_id, "resources/unsubscribe", "{\"uri\":\"test://watched-resource\"}", now);
    for (i = 0; i < json_object_array_length(prompts); i++) {
        json_object *it = json_object_array_get_idx(prompts, i), *argl, *p, *args;
        const char *name = mc__rss_get_str(it, "name");
        if (name == NULL)
            continue;
        for (variant = 0; variant < 3; variant++) {
            p = json_object_new_object();
            json_object_object_add(p, "name", json_object_new_string(name));
            if (variant > 0) {
                args = json_object_new_object();
                if (variant == 2 && json_object_object_get_ex(it, "arguments", &argl) &&
                    json_object_is_type(argl, json_type_array)) {
                    for (j = 0; j < json_object_array_length(argl); j++) {
                        const char *an = mc__rss_get_str(json_object_array_get_idx(argl, j), "name");
                        if (an != NULL)
                            json_object_object_add(args, an, json_object_new_string("hello"));
                    }
                }
                json_object_object_add(p, "arguments", args);
            }
            script_call(ss, &next_id, "prompts/get", p, now);
        }
    }
    for (i = 0; i < sizeof(fixed_requests) / sizeof(fixed_requests[0]); i++)
        script_req(ss, &next_id, fixed_requests[i][0], fixed_requests[i][1], now);
    /* Each tool with empty and with made-up arguments, and each answer policy. */
    snprintf(tok, sizeof(tok), "tok-%s", vname);
    for (i = 0; i < json_object_array_length(tools); i++) {
        json_object *it = json_object_array_get_idx(tools, i), *schema = NULL;
        const char *name = mc__rss_get_str(it, "name");
        if (name == NULL || strncmp(name, "test_trigger_", 13) == 0)
            continue;
        json_object_object_get_ex(it, "inputSchema", &schema);
        for (policy = 0; policy < ANSWER_POLICIES + 2; policy++) {
            json_object *p = json_object_new_object(), *meta;
            json_object_object_add(p, "name", json_object_new_string(name));
            json_object_object_add(p, "arguments",
                                   policy == ANSWER_POLICIES + 1 ? tool_args(schema)
                                                                 : json_object_new_object());
            if (policy == ANSWER_POLICIES) {
                meta = json_object_new_object();
                json_object_object_add(meta, "progressToken", json_object_new_string(tok));
                json_object_object_add(p, "_meta", meta);
            }
            script_tool(ss, &next_id, p, policy % ANSWER_POLICIES, now);
        }
    }
    /* Logging: each level, then a tool that logs. */
    for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        json_object *p = json_object_new_object();
        json_object_object_add(p, "level", json_object_new_string(levels[i]));
        script_call(ss, &next_id, "logging/setLevel", p, now);
        script_req(ss, &next_id, "tools/call",
                   "{\"name\":\"test_logging_levels\",\"arguments\":{}}", now);
        script_req(ss, &next_id, "tools/call",
                   "{\"name\":\"test_tool_with_logging\",\"arguments\":{}}", now);
        *now += 1000; /* past the log rate limit's window */
    }
    /* List changes: on, the list walked, off again. */
    for (i = 0; i < sizeof(triggers) / sizeof(triggers[0]); i++) {
        char params[128];
        snprintf(params, sizeof(params), "{\"name\":\"%s\",\"arguments\":{}}", triggers[i][0]);
        script_req(ss, &next_id, "tools/call", params, now);
        walk_list(ss, &next_id, triggers[i][1], triggers[i][2], now, NULL);
        script_req(ss, &next_id, "tools/call", params, now);
        walk_list(ss, &next_id, triggers[i][1], triggers[i][2], now, NULL);
    }
    json_object_put(tools);
    json_object_put(res);
    json_object_put(prompts);
    json_object_put(tpl);
}

/* Records one session: a fresh server initialized with version and caps
 * (version NULL: the template clone; "": no initialize at all). */
void mc__rss_script_session(const char *version, const char *caps)
{
    sess_t *ss = calloc(1, sizeof(*ss));
    int64_t now = 1000000;
    char buf[1024];

    if (ss == NULL)
        return;
    ss->record = 1;
    mc__rss_sess_open(ss, version != NULL);
    if (version != NULL && version[0] != '\0') {
        snprintf(buf, sizeof(buf),
                 "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                 "\"protocolVersion\":\"%s\",\"capabilities\":%s,"
                 "\"clientInfo\":{\"name\":\"mcpcheck-fuzz\",\"version\":\"1.0\"}}}",
                 version, caps);
        script_line(ss, buf, &now);
        script_line(ss, initialized_line, &now);
    }
    script_body(ss, version != NULL && version[0] != '\0' ? version : MC_VERSION_NEWEST_HANDSHAKE,
                &now);
    mc__rss_sess_close(ss);
    free(ss);
}

/* Builds the template: the handshake, through the full oracle. The template
 * lives for the process and is never fed again (clones get their own emit
 * context). */
mc_refserver_t *mc__rss_make_template(void)
{
    sess_t *ss = calloc(1, sizeof(*ss));
    mc_refserver_t *tmpl;
    int64_t now = 1000000;

    if (ss == NULL)
        abort();
    mc__rss_sess_open(ss, 1);
    ss->ids[0].key = mc__rss_id_key_text("0", 1);
    memcpy(ss->ids[0].method, "initialize", sizeof("initialize"));
    ss->n_ids = 1;
    if (mc_refserver_handle(ss->rs, init_line, sizeof(init_line) - 1, now) != MC_OK ||
        mc_refserver_handle(ss->rs, initialized_line, sizeof(initialized_line) - 1, now) != MC_OK) {
        fprintf(stderr, "refserver_session: the handshake failed\n");
        abort();
    }
    tmpl = ss->rs;
    ss->rs = NULL;
    mc__rss_sess_close(ss);
    free(ss);
    return tmpl;
}
