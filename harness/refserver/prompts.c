/*
 * prompts.c - prompts/list and prompts/get.
 *
 * Fixtures of the official conformance suite plus an audio prompt, the
 * dynamic prompt (switched by test_trigger_prompt_change) and the synthetic
 * prompts of --resources N, in that order.
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/uri.h"
#include "refserver/internal.h"

typedef struct rs_prompt_arg {
    const char *name;
    const char *description;
} rs_prompt_arg_t;

typedef struct rs_prompt {
    const char *name;
    const char *title;
    const char *description;
    rs_prompt_arg_t args[2]; /* all required; name NULL ends the list */
} rs_prompt_t;

static const rs_prompt_t rs_prompts[] = {
    {"test_simple_prompt", "Simple prompt", "A prompt without arguments", {{NULL, NULL}}},
    {"test_prompt_with_arguments",
     "Prompt with arguments",
     "A prompt with two required arguments (both complete)",
     {{"arg1", "First test argument"}, {"arg2", "Second test argument"}}},
    {"test_prompt_with_embedded_resource",
     "Prompt with an embedded resource",
     "A prompt that embeds the resource named by resourceUri",
     {{"resourceUri", "URI of the resource to embed"}, {NULL, NULL}}},
    {"test_prompt_with_image", "Prompt with an image", "A prompt with image content",
     {{NULL, NULL}}},
    {"test_prompt_with_audio", "Prompt with audio", "A prompt with audio content",
     {{NULL, NULL}}},
};
#define RS_NPROMPTS ((int)(sizeof(rs_prompts) / sizeof(rs_prompts[0])))

#define DYN_PROMPT "test_dynamic_prompt"
#define SYN_PROMPT "synthetic_prompt_"
/* The multi round-trip prompt of 2026-07-28 (inputreq.c), listed after the
 * fixtures at that version. */
#define IR_PROMPT "test_input_required_result_prompt"
#define IR_PROMPT_INDEX (-3)

/* Fixture prompts the version being served lists beyond rs_prompts. */
static size_t prompts_late(const mc_refserver_t *rs)
{
    return rs->version >= MC_V_2026_07_28 ? 1 : 0;
}

/* Number of listed prompts. */
static size_t prompt_count(mc_refserver_t *rs)
{
    return (size_t)RS_NPROMPTS + prompts_late(rs) + (rs->dyn_prompt ? 1 : 0) + (size_t)rs->extra;
}

/* Builds listed prompt i. Returns a new reference. */
static json_object *prompt_item(mc_refserver_t *rs, size_t i)
{
    json_object *o = json_object_new_object();
    char name[64];

    if (i < (size_t)RS_NPROMPTS) {
        const rs_prompt_t *p = &rs_prompts[i];
        json_object *args = json_object_new_array();
        int a;
        mc__rs_put_str(rs, o, "name", p->name);
        mc__rs_add_title(rs, o, p->title);
        mc__rs_put_str(rs, o, "description", p->description);
        for (a = 0; a < 2 && p->args[a].name != NULL; a++) {
            json_object *ao = json_object_new_object();
            mc__rs_put_str(rs, ao, "name", p->args[a].name);
            mc__rs_put_str(rs, ao, "description", p->args[a].description);
            mc__rs_put(rs, ao, "required", json_object_new_boolean(1));
            json_object_array_add(args, ao);
        }
        mc__rs_put(rs, o, "arguments", args);
        mc__rs_add_icons(rs, o);
        return o;
    }
    i -= (size_t)RS_NPROMPTS;
    if (prompts_late(rs)) {
        if (i == 0) {
            mc__rs_put_str(rs, o, "name", IR_PROMPT);
            mc__rs_add_title(rs, o, "Prompt that needs input");
            mc__rs_put_str(rs, o, "description",
                           "Asks the user for the context to use (an InputRequiredResult) "
                           "before it is resolved");
            mc__rs_put(rs, o, "arguments", json_object_new_array());
            mc__rs_add_icons(rs, o);
            return o;
        }
        i--;
    }
    if (rs->dyn_prompt) {
        if (i == 0) {
            mc__rs_put_str(rs, o, "name", DYN_PROMPT);
            mc__rs_put_str(rs, o, "description",
                           "Present while test_trigger_prompt_change has switched it on");
            return o;
        }
        i--;
    }
    snprintf(name, sizeof(name), SYN_PROMPT "%zu", i + 1);
    mc__rs_put_str(rs, o, "name", name);
    mc__rs_put_str(rs, o, "description", "A synthetic prompt (--resources)");
    return o;
}

void mc__rs_prompts_list(mc_refserver_t *rs, json_object *id, json_object *params)
{
    mc__rs_serve_list(rs, RS_LIST_PROMPTS, id, params, prompt_count(rs), "prompts", prompt_item);
}

/* Returns the fixture index of name, -2 for the dynamic or a synthetic prompt,
 * IR_PROMPT_INDEX for the multi round-trip prompt, or -1 when there is no
 * such prompt. */
static int find_prompt(mc_refserver_t *rs, const char *name)
{
    int i;
    size_t n = strlen(SYN_PROMPT);

    for (i = 0; i < RS_NPROMPTS; i++)
        if (strcmp(rs_prompts[i].name, name) == 0)
            return i;
    if (prompts_late(rs) && strcmp(name, IR_PROMPT) == 0)
        return IR_PROMPT_INDEX;
    if (rs->dyn_prompt && strcmp(name, DYN_PROMPT) == 0)
        return -2;
    if (strncmp(name, SYN_PROMPT, n) == 0 && name[n] >= '1' && name[n] <= '9') {
        long v = 0;
        const char *p = name + n;
        while (*p >= '0' && *p <= '9' && v <= rs->extra) {
            v = v * 10 + (*p - '0');
            p++;
        }
        if (*p == '\0' && v >= 1 && v <= rs->extra)
            return -2;
    }
    return -1;
}

int mc__rs_prompt_has_arg(mc_refserver_t *rs, const char *prompt, const char *arg, int *known)
{
    int i = find_prompt(rs, prompt), a;

    *known = i != -1;
    if (i < 0)
        return 0;
    for (a = 0; a < 2 && rs_prompts[i].args[a].name != NULL; a++)
        if (strcmp(rs_prompts[i].args[a].name, arg) == 0)
            return 1;
    return 0;
}

static void add_message(mc_refserver_t *rs, json_object *msgs, const char *role,
                        json_object *content)
{
    json_object *m = json_object_new_object();

    mc__rs_put_str(rs, m, "role", role);
    mc__rs_put(rs, m, "content", content);
    if (json_object_array_add(msgs, m) != 0) {
        json_object_put(m);
        rs->failed = 1;
    }
}

/*
 * True when uri may become an embedded resource's uri: an absolute URI as
 * the MCP schemas check it (format "uri": RFC 3986, so no "{", "}", spaces
 * or other bytes outside its grammar), with the RFC 3986 check the
 * validator's "uri" format uses (core/uri.h). A resourceUri that passes only
 * core's scheme test, such as "test://st}tic-text", would make the answer
 * break the schema.
 */
static int resource_uri_ok(const char *uri)
{
    return mc_uri_is_absolute(uri) && mc_uri_valid(uri, strlen(uri));
}

/* The first required argument of prompt i that args lacks, or NULL when
 * none is missing (or a switch lets it through). */
static const char *missing_argument(mc_refserver_t *rs, int i, json_object *args)
{
    int a, given = 0;

    if (rs_fault_hook(rs, RS_HOOK_ACCEPT_MISSING_ARGUMENTS))
        return NULL;
    for (a = 0; a < 2 && rs_prompts[i].args[a].name != NULL; a++)
        given += mc__rs_get_str(args, rs_prompts[i].args[a].name) != NULL;
    /* prompt-partial-arguments-accepted: a missing argument is noticed only
     * when no required argument is given at all. */
    if (given > 0 && rs_fault_hook(rs, RS_HOOK_ACCEPT_PARTIAL_ARGUMENTS))
        return NULL;
    for (a = 0; a < 2 && rs_prompts[i].args[a].name != NULL; a++)
        if (mc__rs_get_str(args, rs_prompts[i].args[a].name) == NULL)
            return rs_prompts[i].args[a].name;
    return NULL;
}

/* Answers prompts/get of the multi round-trip prompt: an InputRequiredResult
 * until the retry carries the context, then the prompt with it. */
static void get_ir_prompt(mc_refserver_t *rs, json_object *id, const char *name,
                          json_object *params)
{
    json_object *res, *msgs;
    char text[RS_MAX_ECHO_TEXT], line[RS_MAX_ECHO_TEXT + 64];
    int done = mc__rs_ir_serve(rs, id, name, 1, params, &res, text, sizeof(text));

    if (done == RS_IR_ASK) {
        mc__rs_result(rs, id, res);
        return;
    }
    if (done != RS_IR_DONE)
        return;
    res = json_object_new_object();
    msgs = json_object_new_array();
    mc__rs_put_str(rs, res, "description", "A prompt resolved with the context the user gave");
    snprintf(line, sizeof(line), "Answer with this context in mind (%s).", text);
    add_message(rs, msgs, "user", mc__rs_text_block(rs, line));
    mc__rs_put(rs, res, "messages", msgs);
    mc__rs_result(rs, id, res);
}

/* params.arguments: absent, or an object of strings (*args, borrowed). On
 * anything else answers id with -32602 and returns 0. */
static int arguments_ok(mc_refserver_t *rs, json_object *id, json_object *params,
                        json_object **args)
{
    *args = NULL;
    if (!json_object_object_get_ex(params, "arguments", args) || *args == NULL)
        return 1;
    if (!json_object_is_type(*args, json_type_object)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.arguments must be an object", NULL);
        return 0;
    }
    json_object_object_foreach(*args, k, v)
    {
        (void)k;
        if (!json_object_is_type(v, json_type_string)) {
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "prompt arguments must be strings", NULL);
            return 0;
        }
    }
    return 1;
}

/* The messages of listed prompt i (0 to 4, or another listed name) with args. */
static void add_prompt_messages(mc_refserver_t *rs, json_object *msgs, int i, const char *name,
                                json_object *args)
{
    char text[RS_MAX_ECHO_TEXT + 128];

    switch (i) {
    case 0:
        add_message(rs, msgs, "user",
                    mc__rs_text_block(rs, "This is a simple prompt for testing."));
        break;
    case 1: {
        const char *a1 = mc__rs_get_str(args, "arg1"), *a2 = mc__rs_get_str(args, "arg2");
        snprintf(text, sizeof(text), "Prompt with arguments: arg1='%.*s', arg2='%.*s'",
                 RS_MAX_ECHO_TEXT / 2, a1 != NULL ? a1 : "", RS_MAX_ECHO_TEXT / 2,
                 a2 != NULL ? a2 : "");
        add_message(rs, msgs, "user", mc__rs_text_block(rs, text));
        break;
    }
    case 2: {
        const char *uri = mc__rs_get_str(args, "resourceUri");
        snprintf(text, sizeof(text), "%.*s", RS_MAX_URI_LEN, uri != NULL ? uri : "test://none");
        add_message(rs, msgs, "user",
                    mc__rs_embedded_text(rs, text, "text/plain",
                                         "Embedded resource content for testing."));
        add_message(rs, msgs, "user",
                    mc__rs_text_block(rs, "Please process the embedded resource above."));
        break;
    }
    case 3: {
        json_object *img = mc__rs_image_block(rs);
        add_message(rs, msgs, "user", img);
        add_message(rs, msgs, "user", mc__rs_text_block(rs, "Please analyze the image above."));
        break;
    }
    case 4:
        if (rs->version >= MC_V_2025_03_26) {
            add_message(rs, msgs, "user", mc__rs_audio_block(rs));
            add_message(rs, msgs, "user",
                        mc__rs_text_block(rs, "Please transcribe the audio above."));
        } else {
            char msg[160];
            snprintf(msg, sizeof(msg),
                     "Audio content needs protocol %s or later; this session negotiated %s.",
                     mc_version_name(MC_V_2025_03_26), mc_version_name(rs->version));
            add_message(rs, msgs, "user", mc__rs_text_block(rs, msg));
        }
        break;
    default:
        snprintf(text, sizeof(text), "This is the %.64s prompt.", name);
        add_message(rs, msgs, "user", mc__rs_text_block(rs, text));
        break;
    }
}

void mc__rs_prompts_get(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *name = mc__rs_get_str(params, "name");
    json_object *args = NULL, *res, *msgs;
    char text[RS_MAX_ECHO_TEXT + 128];
    int i;

    rs->other_served = 1;
    if (name == NULL) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.name must be a string", NULL);
        return;
    }
    if (!arguments_ok(rs, id, params, &args))
        return;
    i = find_prompt(rs, name);
    if (i >= 0)
        mc__rs_log_activity(rs, "prompts", "getting", name);
    if (i == IR_PROMPT_INDEX) {
        get_ir_prompt(rs, id, name, params);
        return;
    }
    res = json_object_new_object();
    msgs = json_object_new_array();
    if (i == -1) {
        if (!rs_fault_hook(rs, RS_HOOK_ACCEPT_UNKNOWN_PROMPT)) {
            json_object_put(res);
            json_object_put(msgs);
            mc__rs_error(rs, id,
                         MC_RPC_INVALID_PARAMS, "unknown prompt", NULL);
            return;
        }
        add_message(rs, msgs, "user", mc__rs_text_block(rs, "(no such prompt)"));
        mc__rs_put(rs, res, "messages", msgs);
        mc__rs_result(rs, id, res);
        return;
    }
    if (i >= 0) {
        const char *missing = missing_argument(rs, i, args);
        if (missing != NULL) {
            json_object_put(res);
            json_object_put(msgs);
            snprintf(text, sizeof(text), "missing required argument \"%s\"", missing);
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, text, NULL);
            return;
        }
        mc__rs_put_str(rs, res, "description", rs_prompts[i].description);
    }
    if (i == 2 && !resource_uri_ok(mc__rs_get_str(args, "resourceUri"))) {
        /* The URI becomes the embedded resource's uri, which the schema
         * requires to be an absolute URI: refuse it as an invalid argument. */
        json_object_put(res);
        json_object_put(msgs);
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                     "argument \"resourceUri\" must be an absolute URI (scheme:rest)", NULL);
        return;
    }
    add_prompt_messages(rs, msgs, i, name, args);
    mc__rs_put(rs, res, "messages", msgs);
    mc__rs_result(rs, id, res);
}
