/*
 * lifecycle.c - initialize: version negotiation and capability exchange.
 *
 * The server supports four protocol versions. A supported requested version
 * is echoed; any other gets the latest as a counter-offer
 * (2025-06-18/basic/lifecycle#version-negotiation). The client's capabilities
 * decide which server->client requests the tools may send later.
 */
#include <string.h>

#include "core/version.h"
#include "refserver/internal.h"

/* Returns the id of a version initialize negotiates named s, or -1. */
static int find_version(const char *s)
{
    const mc_version_info_t *info = mc_version_find(s);

    return info != NULL && mc__rs_handshake_version(info->id) ? (int)info->id : -1;
}

/* True when o has member key holding an object. */
static int has_object(json_object *o, const char *key, json_object **out)
{
    json_object *v;

    if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
        !json_object_is_type(v, json_type_object))
        return 0;
    if (out != NULL)
        *out = v;
    return 1;
}

/* Records what the client declared, as far as the negotiated version knows it. */
void mc__rs_record_client_caps(mc_refserver_t *rs, json_object *caps)
{
    json_object *el;

    rs->cap_roots = has_object(caps, "roots", NULL);
    rs->cap_sampling = has_object(caps, "sampling", NULL);
    rs->cap_elicit_form = rs->cap_elicit_url = 0;
    rs->cap_task_elicit = rs->cap_task_list = 0;
    if (rs->version >= MC_V_2025_11_25 && has_object(caps, "tasks", &el)) {
        json_object *req, *kind;
        rs->cap_task_list = has_object(el, "list", NULL);
        rs->cap_task_elicit = has_object(el, "requests", &req) &&
                              has_object(req, "elicitation", &kind) &&
                              has_object(kind, "create", NULL);
    }
    if (rs->version >= MC_V_2025_06_18 && has_object(caps, "elicitation", &el)) {
        if (rs->version >= MC_V_2025_11_25) {
            /* An empty elicitation object means form mode only
             * (2025-11-25/client/elicitation#capabilities). */
            rs->cap_elicit_form =
                json_object_object_length(el) == 0 || has_object(el, "form", NULL);
            rs->cap_elicit_url = has_object(el, "url", NULL);
        } else {
            rs->cap_elicit_form = 1;
        }
    }
}

/* Builds the server capabilities object for the negotiated version. */
json_object *mc__rs_server_caps(mc_refserver_t *rs)
{
    json_object *caps = json_object_new_object(), *o;

    mc__rs_put(rs, caps, "logging", json_object_new_object());
    if (rs->version >= MC_V_2025_03_26)
        mc__rs_put(rs, caps, "completions", json_object_new_object());
    o = json_object_new_object();
    mc__rs_put(rs, o, "listChanged", json_object_new_boolean(1));
    mc__rs_put(rs, caps, "prompts", o);
    o = json_object_new_object();
    mc__rs_put(rs, o, "subscribe", json_object_new_boolean(1));
    mc__rs_put(rs, o, "listChanged", json_object_new_boolean(1));
    mc__rs_put(rs, caps, "resources", o);
    o = json_object_new_object();
    mc__rs_put(rs, o, "listChanged", json_object_new_boolean(1));
    mc__rs_put(rs, caps, "tools", o);
    mc__rs_task_caps(rs, caps);
    return caps;
}

void mc__rs_initialize(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *requested = mc__rs_get_str(params, "protocolVersion");
    const char *answer;
    json_object *caps = NULL, *res, *info;
    int v;

    if (requested == NULL) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                     "initialize needs params.protocolVersion (a string)", NULL);
        return;
    }
    if (json_object_object_get_ex(params, "capabilities", &caps) &&
        !json_object_is_type(caps, json_type_object)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.capabilities must be an object",
                     NULL);
        return;
    }
    /* A version the server speaks is echoed; any other gets the newest as a
     * counter-offer (rs_negotiated: the hook of the version switches). */
    v = find_version(requested);
    rs->version = rs_negotiated(rs, v);
    answer = mc_version_name(rs->version);
    mc__rs_record_client_caps(rs, caps);
    /* The switch asks the client for its roots while initialize is being
     * answered: before the result, so that over HTTP the request goes out
     * on the initialize POST's own stream (an SSE answer), where the client
     * reads it, as it does over stdio. */
    if (rs_fault_hook(rs, RS_HOOK_ASK_BEFORE_INITIALIZED) && rs->cap_roots)
        mc__rs_client_request(rs, NULL, "roots/list", NULL);

    /* Without a violation switch the result depends on the version alone. */
    if (mc__rs_fast_replay(rs, RS_BODY_INIT, 0, id))
        goto answered;
    res = json_object_new_object();
    mc__rs_put_str(rs, res, "protocolVersion", answer);
    mc__rs_put(rs, res, "capabilities", mc__rs_server_caps(rs));
    info = json_object_new_object();
    mc__rs_put_str(rs, info, "name", "mcpcheck-refserver");
    mc__rs_put_str(rs, info, "version", MC_VERSION);
    mc__rs_add_title(rs, info, "mcpcheck reference server");
    mc__rs_add_icons(rs, info);
    mc__rs_put(rs, res, "serverInfo", info);
    mc__rs_put_str(rs, res, "instructions",
                   "Reference MCP server of mcpcheck: fixtures of the official conformance "
                   "suite, paginated lists and trigger tools.");
    rs->unspoken_version = v < 0 ? requested : NULL; /* for the send path */
    mc__rs_fast_keep(rs, RS_BODY_INIT, 0, id, res);
    rs->unspoken_version = NULL;
answered:
    rs->phase = RS_PHASE_INITIALIZED;
}

const char *mc_refserver_negotiated(const mc_refserver_t *rs)
{
    return rs != NULL && rs->phase != RS_PHASE_NEW ? mc_version_name(rs->version) : NULL;
}
