/*
 * tools.c - tools/list, tools/call and the fixture tools.
 *
 * Every tools/call becomes a job (jobs.c runs them); a tool here is the step
 * function of its job, called with the job's step number and, when the job
 * waited for the client, the client's answer.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "refserver/internal.h"

typedef int (*rs_tool_fn)(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

typedef struct rs_tool {
    const char *name;
    const char *title;
    const char *description;
    const char *schema; /* inputSchema as JSON text */
    int read_only;
    rs_tool_fn fn;
} rs_tool_t;

#define NO_ARGS "{\"type\":\"object\",\"additionalProperties\":false}"

static int tool_simple_text(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_image(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_audio(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_embedded(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_multiple(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_logging(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_progress(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_error(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_log_levels(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_resource_link(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_structured(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_generic(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_header_param(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_contact(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_log_once(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);
static int tool_ir(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply);

/* An input schema in the 2020-12 dialect (the default from 2025-11-25 on,
 * basic#json-schema-usage) with a definition found by $ref and $anchor,
 * composition and a conditional. */
#define CONTACT_SCHEMA                                                                          \
    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","         \
    "\"$defs\":{\"address\":{\"$anchor\":\"postalAddress\",\"type\":\"object\",\"properties\":" \
    "{\"street\":{\"type\":\"string\"},\"city\":{\"type\":\"string\"}}}},"                    \
    "\"properties\":{\"name\":{\"type\":\"string\"},\"address\":{\"$ref\":\"#/$defs/address\"}," \
    "\"contactMethod\":{\"type\":\"string\",\"enum\":[\"phone\",\"email\"]},\"phone\":"        \
    "{\"type\":\"string\"},\"email\":{\"type\":\"string\"}},"                                   \
    "\"allOf\":[{\"anyOf\":[{\"required\":[\"phone\"]},{\"required\":[\"email\"]}]}],"           \
    "\"if\":{\"properties\":{\"contactMethod\":{\"const\":\"phone\"}},\"required\":"            \
    "[\"contactMethod\"]},\"then\":{\"required\":[\"phone\"]},\"else\":{\"required\":"          \
    "[\"email\"]},\"additionalProperties\":false}"

/* The inputSchema of test_header_param, with the x-mcp-header name of
 * "region" and the type of "count" as given (the x-mcp-header switches list
 * other ones). */
#define HEADER_PARAM_SCHEMA(region_header, count_type)                                            \
    "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"description\":"     \
    "\"The region to run in\",\"x-mcp-header\":\"" region_header "\"},\"count\":{\"type\":\""      \
    count_type "\",\"description\":\"How many rows\",\"x-mcp-header\":\"Count\"},\"query\":{"      \
    "\"type\":\"string\",\"description\":\"The query\"}}}"

static const rs_tool_t rs_tools[] = {
    {"test_simple_text", "Simple text", "Returns one text block", NO_ARGS, 1, tool_simple_text},
    {"test_image_content", "Image content", "Returns a 1x1 PNG image", NO_ARGS, 1, tool_image},
    {"test_audio_content", "Audio content", "Returns a short audio/wav clip", NO_ARGS, 1,
     tool_audio},
    {"test_embedded_resource", "Embedded resource", "Returns an embedded text resource",
     NO_ARGS, 1, tool_embedded},
    {"test_multiple_content_types", "Multiple content types",
     "Returns text, image and an embedded resource", NO_ARGS, 1, tool_multiple},
    {"test_tool_with_logging", "Tool with logging",
     "Sends three info log messages while it runs", NO_ARGS, 1, tool_logging},
    {"test_tool_with_progress", "Tool with progress",
     "Reports progress 0, 50 and 100 of 100 when given a progressToken", NO_ARGS, 1,
     tool_progress},
    {"test_error_handling", "Error handling", "Always fails with an isError result", NO_ARGS, 1,
     tool_error},
    {"test_sampling", "Sampling", "Asks the client's LLM (sampling/createMessage)",
     "{\"type\":\"object\",\"properties\":{\"prompt\":{\"type\":\"string\",\"description\":"
     "\"The prompt to send to the LLM\"}},\"required\":[\"prompt\"]}",
     1, mc__rs_tool_sampling},
    {"test_elicitation", "Elicitation", "Asks the user for a username and an email (form mode)",
     "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\",\"description\":"
     "\"The message to show the user\"}},\"required\":[\"message\"]}",
     1, mc__rs_tool_elicit},
    {"test_elicitation_sep1034_defaults", "Elicitation with defaults",
     "Form-mode elicitation whose fields have default values", NO_ARGS, 1,
     mc__rs_tool_elicit_defaults},
    {"test_elicitation_sep1330_enums", "Elicitation with enums",
     "Form-mode elicitation with every enum variant of the negotiated version", NO_ARGS, 1,
     mc__rs_tool_elicit_enums},
    {"test_elicitation_sep1036_url", "URL-mode elicitation",
     "Asks the client to open a URL (URL-mode elicitation, url capability)", NO_ARGS, 1,
     mc__rs_tool_elicit_url},
    {"test_elicitation_sep1036_error", "URL elicitation required",
     "Fails with -32042 naming the URL elicitation it needs", NO_ARGS, 1,
     mc__rs_tool_elicit_url_error},
    {"test_elicitation_sep1036_complete", "URL elicitation with completion",
     "URL-mode elicitation followed by notifications/elicitation/complete", NO_ARGS, 1,
     mc__rs_tool_elicit_url_complete},
    {"test_list_roots", "List roots", "Asks the client for its roots (roots/list)", NO_ARGS, 1,
     mc__rs_tool_roots},
    {"test_logging_levels", "Logging at every level",
     "Sends one log message at each of the eight levels; the level set filters them", NO_ARGS,
     1, tool_log_levels},
    {"test_resource_link", "Resource link", "Returns a resource_link to test://static-text",
     NO_ARGS, 1, tool_resource_link},
    {"test_structured_content", "Structured content",
     "Returns structuredContent that matches its outputSchema", NO_ARGS, 1, tool_structured},
    {"test_trigger_resource_update", "Trigger resource update",
     "Changes test://watched-resource and notifies its subscribers", NO_ARGS, 0,
     mc__rs_tool_trigger_update},
    {"test_trigger_resource_list_change", "Trigger resource list change",
     "Adds or removes test://dynamic-resource and sends list_changed", NO_ARGS, 0,
     mc__rs_tool_trigger_resources},
    {"test_trigger_prompt_change", "Trigger prompt list change",
     "Adds or removes test_dynamic_prompt and sends list_changed", NO_ARGS, 0,
     mc__rs_tool_trigger_prompts},
    {"test_trigger_tool_change", "Trigger tool list change",
     "Adds or removes test_dynamic_tool and sends list_changed", NO_ARGS, 0,
     mc__rs_tool_trigger_tools},
    /* Over Streamable HTTP at 2026-07-28 the client mirrors "region" and
     * "count" into the Mcp-Param-Region and Mcp-Param-Count headers
     * (basic/transports/streamable-http#custom-headers-from-tool-
     * parameters), and the server compares them with the arguments. */
    {"test_header_param", "Header-mirrored parameter",
     "Echoes its region and query; region and count are mirrored into the Mcp-Param-Region "
     "and Mcp-Param-Count headers",
     HEADER_PARAM_SCHEMA("Region", "integer"), 1, tool_header_param},
    {"test_sampling_pair", "Two samplings at once",
     "Sends two sampling/createMessage requests, each with its own progressToken, before "
     "awaiting either; answers once the client answered both",
     NO_ARGS, 1, mc__rs_tool_sampling_pair},
    /* From here on, tools listed from a version on (tool_since); each
     * version's list is a prefix of the table. */
    {"json_schema_2020_12_tool", "Contact record",
     "Takes a contact written against a JSON Schema 2020-12 input schema ($defs, $anchor, "
     "allOf/anyOf, if/then/else)",
     CONTACT_SCHEMA, 1, tool_contact},
    /* 2026-07-28: the multi round-trip fixtures (inputreq.c) and a tool that
     * logs only at the level its request's _meta sets. */
    {"test_logging_tool", "Logging tool",
     "Sends one info log message, which goes out only when the request's _meta sets a log "
     "level",
     NO_ARGS, 1, tool_log_once},
    {"test_missing_capability", "Needs sampling",
     "Asks the client's LLM through an input request; a client that did not declare "
     "sampling gets -32021",
     NO_ARGS, 1, tool_ir},
    {"test_streaming_elicitation", "Elicitation in the response",
     "Asks the user for a name with an InputRequiredResult in its response", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_elicitation", "Input required: elicitation",
     "Asks for a name (input user_name) before it greets", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_sampling", "Input required: sampling",
     "Asks the client's LLM a question (input capital_question)", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_list_roots", "Input required: roots",
     "Asks for the client's roots (input client_roots)", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_request_state", "Input required with requestState",
     "Asks for a confirmation and carries its round in requestState", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_multiple_inputs", "Input required: three inputs",
     "Asks for an elicitation, a sampling and the roots in one InputRequiredResult", NO_ARGS, 1,
     tool_ir},
    {"test_input_required_result_multi_round", "Input required: two rounds",
     "Asks for a name, then for a colour, each round with its own requestState", NO_ARGS, 1,
     tool_ir},
    {"test_input_required_result_tampered_state", "Input required: verified state",
     "Refuses a retry whose requestState does not verify", NO_ARGS, 1, tool_ir},
    {"test_input_required_result_capabilities", "Input required: declared capabilities",
     "Asks for an elicitation only of a client that declared it, and for a sampling", NO_ARGS,
     1, tool_ir},
};
#define RS_NTOOLS ((int)(sizeof(rs_tools) / sizeof(rs_tools[0])))
/* The tools at the end of the table listed from 2026-07-28 on, and the one
 * before them listed from 2025-11-25 on. */
#define RS_TOOLS_2026_07_28 11
#define RS_TOOL_FIRST_2026_07_28 (RS_NTOOLS - RS_TOOLS_2026_07_28)
#define RS_TOOL_FIRST_2025_11_25 (RS_TOOL_FIRST_2026_07_28 - 1)
#define RS_TOOL_DYNAMIC RS_NTOOLS
_Static_assert(RS_NTOOLS + 1 <= (int)(sizeof(((mc_refserver_t *)0)->tool_schemas) /
                                      sizeof(((mc_refserver_t *)0)->tool_schemas[0])),
               "a cached input schema slot per fixture tool and one for the others");
#define RS_TOOL_SYNTHETIC (RS_NTOOLS + 1)
#define DYN_TOOL "test_dynamic_tool"
#define SYN_TOOL "synthetic_tool_"
/* Log lines the log-flood switch sends at once. */
#define RS_LOG_FLOOD_LINES 500

/* A result whose content holds the given blocks (consumed). */
static json_object *tool_blocks(mc_refserver_t *rs, json_object *b1, json_object *b2,
                                json_object *b3)
{
    json_object *res = json_object_new_object(), *arr = json_object_new_array();

    json_object_array_add(arr, b1);
    if (b2 != NULL)
        json_object_array_add(arr, b2);
    if (b3 != NULL)
        json_object_array_add(arr, b3);
    mc__rs_put(rs, res, "content", arr);
    return res;
}

/* ---- steps ---- */

int mc__rs_tool_step(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    if (job->tool == RS_TOOL_TASK_REQUESTOR)
        return mc__rs_taskreq_step(rs, job, reply);
    if (job->tool < RS_NTOOLS)
        return rs_tools[job->tool].fn(rs, job, reply);
    return tool_generic(rs, job, reply);
}

const char *mc_refserver_tool_schema(const char *name)
{
    int i;

    for (i = 0; name != NULL && i < RS_NTOOLS; i++)
        if (strcmp(rs_tools[i].name, name) == 0)
            return rs_tools[i].schema;
    return NULL;
}

/* ---- tools/list ---- */

/* The number of fixture tools the version being served lists: a prefix of
 * rs_tools. */
static int tools_listed(const mc_refserver_t *rs)
{
    if (rs->version >= MC_V_2026_07_28)
        return RS_NTOOLS;
    if (rs->version >= MC_V_2025_11_25)
        return RS_TOOL_FIRST_2026_07_28;
    return RS_TOOL_FIRST_2025_11_25;
}

static size_t tool_count(mc_refserver_t *rs)
{
    return (size_t)tools_listed(rs) + mc__rs_task_tool_count(rs) + mc__rs_taskreq_count(rs) +
           (rs->dyn_tool ? 1 : 0) + (size_t)rs->extra;
}

/* Returns the cached input schema of fixture tool t (borrowed). */
static json_object *tool_schema(mc_refserver_t *rs, int t)
{
    int slot = t < RS_NTOOLS ? t : RS_NTOOLS;

    if (rs->tool_schemas[slot] == NULL) {
        rs->tool_schemas[slot] = json_tokener_parse(t < RS_NTOOLS ? rs_tools[t].schema : NO_ARGS);
        if (rs->tool_schemas[slot] == NULL)
            rs->failed = 1;
    }
    return rs->tool_schemas[slot];
}

static json_object *tool_item(mc_refserver_t *rs, size_t i)
{
    json_object *o;
    char name[64];
    size_t listed = (size_t)tools_listed(rs), ntask = mc__rs_task_tool_count(rs);
    int t = i < listed ? (int)i : RS_NTOOLS;

    /* The task tools (2025-11-25) follow the fixtures, then test_task_requestor. */
    if (i >= listed && i - listed < ntask)
        return mc__rs_task_tool_item(rs, i - listed, tool_schema(rs, RS_NTOOLS));
    if (i >= listed && i - listed == ntask && mc__rs_taskreq_count(rs) > 0)
        return mc__rs_taskreq_item(rs, tool_schema(rs, RS_NTOOLS));
    ntask += mc__rs_taskreq_count(rs);
    if (i >= listed)
        i -= ntask;
    o = json_object_new_object();
    if (i < listed) {
        const rs_tool_t *d = &rs_tools[i];
        mc__rs_put_str(rs, o, "name", d->name);
        mc__rs_add_title(rs, o, d->title);
        mc__rs_put_str(rs, o, "description", d->description);
    } else if (rs->dyn_tool && i == listed) {
        mc__rs_put_str(rs, o, "name", DYN_TOOL);
        mc__rs_put_str(rs, o, "description",
                       "Present while test_trigger_tool_change has switched it on");
    } else {
        snprintf(name, sizeof(name), SYN_TOOL "%zu",
                 i - listed - (rs->dyn_tool ? 1 : 0) + 1);
        mc__rs_put_str(rs, o, "name", name);
        mc__rs_put_str(rs, o, "description", "A synthetic tool (--resources)");
    }
    mc__rs_put(rs, o, "inputSchema", json_object_get(tool_schema(rs, t)));
    if (i < (size_t)RS_NTOOLS && strcmp(rs_tools[i].name, "test_structured_content") == 0 &&
        rs->version >= MC_V_2025_06_18) {
        mc__rs_put(rs, o, "outputSchema",
                   json_tokener_parse("{\"type\":\"object\",\"properties\":{\"temperature\":"
                                      "{\"type\":\"number\"},\"conditions\":{\"type\":"
                                      "\"string\"}},\"required\":[\"temperature\","
                                      "\"conditions\"]}"));
    }
    if (rs->version >= MC_V_2025_03_26 && i < listed) {
        json_object *an = json_object_new_object();
        mc__rs_put(rs, an, "readOnlyHint", json_object_new_boolean(rs_tools[i].read_only));
        mc__rs_put(rs, an, "openWorldHint", json_object_new_boolean(0));
        mc__rs_put(rs, o, "annotations", an);
    }
    if (i < listed)
        mc__rs_add_icons(rs, o);
    return o;
}

void mc__rs_tools_list(mc_refserver_t *rs, json_object *id, json_object *params)
{
    if (rs_fault_hook(rs, RS_HOOK_REFUSE_TASK_LIST) && mc__rs_tasks_on(rs) &&
        json_object_object_get_ex(params, "task", NULL)) {
        mc__rs_error(rs, id, MC_RPC_METHOD_NOT_FOUND, "tools/list does not run as a task", NULL);
        return;
    }
    mc__rs_serve_list(rs, RS_LIST_TOOLS, id, params, tool_count(rs), "tools", tool_item);
}

/* ---- tools/call ---- */

/* Returns the tool index for name, or -1. */
static int find_tool(mc_refserver_t *rs, const char *name)
{
    size_t n = strlen(SYN_TOOL);
    int i;

    for (i = 0; i < tools_listed(rs); i++)
        if (strcmp(rs_tools[i].name, name) == 0 ||
            (rs_fault_hook(rs, RS_HOOK_FOLD_TOOL_NAME_CASE) && strcasecmp(rs_tools[i].name, name) == 0))
            return i;
    if (rs->dyn_tool && strcmp(name, DYN_TOOL) == 0)
        return RS_TOOL_DYNAMIC;
    if (strncmp(name, SYN_TOOL, n) == 0 && name[n] >= '1' && name[n] <= '9') {
        long v = 0;
        const char *p = name + n;
        while (*p >= '0' && *p <= '9' && v <= rs->extra) {
            v = v * 10 + (*p - '0');
            p++;
        }
        if (*p == '\0' && v >= 1 && v <= rs->extra)
            return RS_TOOL_SYNTHETIC;
    }
    return -1;
}

void mc__rs_tools_call(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *name = mc__rs_get_str(params, "name");
    json_object *args = NULL, *meta, *token = NULL, *resp;
    int t;

    rs->other_served = 1;

    if (name == NULL) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.name must be a string", NULL);
        return;
    }
    if (json_object_object_get_ex(params, "arguments", &args) && args != NULL &&
        !json_object_is_type(args, json_type_object)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.arguments must be an object", NULL);
        return;
    }
    t = find_tool(rs, name);
    if (t < 0 && mc__rs_taskreq_is(rs, name))
        t = RS_TOOL_TASK_REQUESTOR;
    if (t == -1 && mc__rs_task_tool_find(rs, name) >= 0) {
        mc__rs_task_tool_call(rs, id, mc__rs_task_tool_find(rs, name), params);
        return;
    }
    if (t == -1) {
        char msg[160];
        snprintf(msg, sizeof(msg), "Unknown tool: %.100s", name);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, msg, NULL);
        return;
    }
    if (mc__rs_task_refused(rs, id, params))
        return;
    if (t >= 0 && t < RS_NTOOLS && rs_tools[t].fn == tool_ir) {
        /* A multi round-trip fixture answers each attempt at once. */
        json_object *res;
        char text[RS_MAX_ECHO_TEXT];
        int done = mc__rs_ir_serve(rs, id, name, 0, params, &res, text, sizeof(text));
        if (done == RS_IR_ASK)
            mc__rs_result(rs, id, res);
        else if (done == RS_IR_DONE)
            mc__rs_result(rs, id, mc__rs_tool_text(rs, text));
        return;
    }
    if (json_object_object_get_ex(params, "_meta", &meta) &&
        json_object_is_type(meta, json_type_object) &&
        json_object_object_get_ex(meta, "progressToken", &token) && !mc_jsonrpc_id_valid(token))
        token = NULL;
    if (!rs->modern || !json_object_object_get_ex(params, "inputResponses", &resp))
        resp = NULL;
    if (resp != NULL && !json_object_is_type(resp, json_type_object)) {
        /* mrtr#error-handling: an InputResponses that is no object is refused. */
        if (!rs_fault_hook(rs, RS_HOOK_ACCEPT_ANY_INPUT_RESPONSES)) {
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.inputResponses must be an object",
                         NULL);
            return;
        }
        resp = NULL;
    }
    mc__rs_job_start(rs, id, t, token, args, resp);
}

/* ---- the fixture tools ---- */

static int tool_simple_text(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    json_object *res = mc__rs_tool_text(rs, "This is a simple text response for testing.");

    (void)reply;
    mc__rs_job_finish(rs, job, res);
    return RS_STEP_DONE;
}

static int tool_image(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    mc__rs_job_finish(rs, job, tool_blocks(rs, mc__rs_image_block(rs), NULL, NULL));
    return RS_STEP_DONE;
}

static int tool_audio(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    if (rs->version < MC_V_2025_03_26)
    {
        char msg[160];
        snprintf(msg, sizeof(msg),
                 "audio content needs protocol %s or later; this session negotiated %s",
                 mc_version_name(MC_V_2025_03_26), mc_version_name(rs->version));
        mc__rs_job_finish(rs, job, mc__rs_tool_error(rs, msg));
    } else
        mc__rs_job_finish(rs, job, tool_blocks(rs, mc__rs_audio_block(rs), NULL, NULL));
    return RS_STEP_DONE;
}

static int tool_embedded(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    mc__rs_job_finish(rs, job,
                      tool_blocks(rs,
                                  mc__rs_embedded_text(rs, "test://embedded-resource", "text/plain",
                                                       "This is an embedded resource content."),
                                  NULL, NULL));
    return RS_STEP_DONE;
}

static int tool_multiple(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    mc__rs_job_finish(
        rs, job,
        tool_blocks(rs, mc__rs_text_block(rs, "Multiple content types test:"),
                    mc__rs_image_block(rs),
                    mc__rs_embedded_text(rs, "test://mixed-content-resource", "application/json",
                                         "{\"test\":\"data\",\"value\":123}")));
    return RS_STEP_DONE;
}

/* One log message from a tool: {"message": text}. */
static void tool_log(mc_refserver_t *rs, int level, const char *logger, const char *text)
{
    mc__rs_log_message(rs, level, logger, text);
}

static int tool_logging(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char *const msgs[3] = {"Tool execution started", "Tool processing data",
                                        "Tool execution completed"};
    int i;

    (void)reply;
    if (rs_fault_hook(rs, RS_HOOK_LOG_FLOOD) && job->step == 0) {
        for (i = 0; i < RS_LOG_FLOOD_LINES; i++)
            tool_log(rs, 1, "test_tool_with_logging", "flood");
    }
    tool_log(rs, 1, "test_tool_with_logging", msgs[job->step]);
    if (job->step < 2)
        return RS_STEP_LATER;
    mc__rs_job_finish_text(rs, job, "Tool with logging executed successfully", 0);
    return RS_STEP_DONE;
}

static int tool_progress(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    /* Steps 0-2 report 0, 50 and 100; step 3 answers, one step delay after
     * the last report, so a client sees every report before the response. */
    if (job->step < 3) {
        mc__rs_job_progress(rs, job, rs_progress_value(rs, job->step), 100,
                            job->step == 2 ? "done" : "working");
        return RS_STEP_LATER;
    }
    mc__rs_job_finish_text(rs, job, "Tool with progress executed successfully", 0);
    return RS_STEP_DONE;
}

static int tool_error(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char text[] = "This tool intentionally returns an error for testing";

    (void)reply;
    mc__rs_job_finish_text(rs, job, text, 1);
    return RS_STEP_DONE;
}

static int tool_log_levels(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    char text[64];
    int l;

    (void)reply;
    for (l = 0; l < RS_LOG_LEVELS; l++) {
        snprintf(text, sizeof(text), "a message at level %s", mc__rs_log_level_name(l));
        tool_log(rs, l, "test_logging_levels", text);
    }
    mc__rs_job_finish_text(rs, job, "Sent one log message at each level", 0);
    return RS_STEP_DONE;
}

static int tool_resource_link(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    json_object *link;

    (void)reply;
    if (rs->version < MC_V_2025_06_18) {
        mc__rs_job_finish_text(rs, job, "See resource test://static-text", 0);
        return RS_STEP_DONE;
    }
    link = json_object_new_object();
    mc__rs_put_str(rs, link, "type", "resource_link");
    mc__rs_put_str(rs, link, "uri", "test://static-text");
    mc__rs_put_str(rs, link, "name", "static-text");
    mc__rs_put_str(rs, link, "description", "A fixed plain-text resource");
    mc__rs_put_str(rs, link, "mimeType", "text/plain");
    mc__rs_job_finish(rs, job, tool_blocks(rs, link, NULL, NULL));
    return RS_STEP_DONE;
}

static int tool_structured(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    static const char doc[] = RS_STRUCTURED_DOC;
    json_object *res = mc__rs_tool_text(rs, doc);

    (void)reply;
    if (rs->version >= MC_V_2025_06_18)
        mc__rs_put(rs, res, "structuredContent", json_tokener_parse(doc));
    mc__rs_job_finish(rs, job, res);
    return RS_STEP_DONE;
}

static int tool_generic(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    mc__rs_job_finish(rs, job,
                      mc__rs_tool_text(rs, job->tool == RS_TOOL_DYNAMIC
                                               ? "The dynamic tool ran"
                                               : "A synthetic tool ran"));
    return RS_STEP_DONE;
}

static int tool_header_param(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    const char *region = mc__rs_get_str(job->args, "region");
    const char *query = mc__rs_get_str(job->args, "query");
    char text[300];

    (void)reply;
    snprintf(text, sizeof(text), "region %.100s, query %.100s", region ? region : "(none)",
             query ? query : "(none)");
    mc__rs_job_finish(rs, job, mc__rs_tool_text(rs, text));
    return RS_STEP_DONE;
}

/* Answers with the contact it was given, or an isError result naming what
 * its input schema wants that the arguments lack. */
static int tool_contact(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    const char *name = mc__rs_get_str(job->args, "name");
    const char *method = mc__rs_get_str(job->args, "contactMethod");
    const char *phone = mc__rs_get_str(job->args, "phone");
    const char *email = mc__rs_get_str(job->args, "email");
    int by_phone = method != NULL && strcmp(method, "phone") == 0;
    char text[300];

    (void)reply;
    if (by_phone && phone == NULL) {
        mc__rs_job_finish_text(rs, job, "contactMethod phone needs a phone number", 1);
        return RS_STEP_DONE;
    }
    if (!by_phone && email == NULL) {
        mc__rs_job_finish_text(rs, job, "an email address is needed unless contactMethod is phone",
                               1);
        return RS_STEP_DONE;
    }
    snprintf(text, sizeof(text), "contact %.100s by %.100s", name != NULL ? name : "(no name)",
             by_phone ? phone : email);
    mc__rs_job_finish(rs, job, mc__rs_tool_text(rs, text));
    return RS_STEP_DONE;
}

static int tool_log_once(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    tool_log(rs, 1, "test_logging_tool", "test_logging_tool ran");
    mc__rs_job_finish_text(rs, job, "Logged one info message where the level allows it", 0);
    return RS_STEP_DONE;
}

/* Never run as a job: tools/call answers the fixtures itself. */
static int tool_ir(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    mc__rs_job_finish_text(rs, job, "not reached", 1);
    return RS_STEP_DONE;
}
