/*
 * stateless.c - the client side of the stateless protocol (2026-07-28).
 *
 * There is no handshake: every request carries the protocol version and
 * the client capabilities in its _meta (2026-07-28/basic/index#meta), and a
 * client that may meet servers of both eras on stdio probes with
 * server/discover first (2026-07-28/basic/transports/stdio#backward-
 * compatibility). The session does that probe in place of initialize, so the
 * rest of the harness finds the server's capabilities and identity where it
 * always does. Requests that need more from the client come back as
 * InputRequiredResult; the session answers each input request with the
 * same responder that answers server-to-client requests in the legacy
 * protocol, and retries (2026-07-28/basic/patterns/mrtr).
 */
#include <stdio.h>
#include <string.h>

#include "client/session.h"
#include "client/session_internal.h"
#include "core/json.h"
#include "core/version.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_INFO "io.modelcontextprotocol/clientInfo"
#define META_SERVER "io.modelcontextprotocol/serverInfo"


int mc_stateless_stamp(json_object *params, const char *version, json_object *caps,
                       const char *client_name, const char *client_version)
{
    json_object *meta, *info, *copy = NULL;

    if (!json_object_object_get_ex(params, "_meta", &meta) ||
        !json_object_is_type(meta, json_type_object)) {
        meta = json_object_new_object();
        if (meta == NULL || json_object_object_add(params, "_meta", meta) != 0) {
            json_object_put(meta);
            return MC_ENOMEM;
        }
    }
    if (!json_object_object_get_ex(meta, META_VERSION, NULL))
        json_object_object_add(meta, META_VERSION, json_object_new_string(version));
    if (!json_object_object_get_ex(meta, META_CAPS, NULL)) {
        /* A private copy per request: the caller's object stays its own. */
        if (caps == NULL || json_object_deep_copy(caps, &copy, NULL) != 0)
            copy = json_object_new_object();
        json_object_object_add(meta, META_CAPS, copy);
    }
    if (!json_object_object_get_ex(meta, META_INFO, NULL)) {
        info = json_object_new_object();
        if (info != NULL) {
            json_object_object_add(info, "name", json_object_new_string(client_name));
            json_object_object_add(info, "version", json_object_new_string(client_version));
        }
        json_object_object_add(meta, META_INFO, info);
    }
    return MC_OK;
}

int mc_session_stamp(mc_session_t *s, json_object *params)
{
    return mc_stateless_stamp(params,
                              s->negotiated_version[0] ? s->negotiated_version
                                                       : s->requested_version,
                              s->client_caps, s->opts.client_name, s->opts.client_version);
}

int mc_session_input_required(const mc_msg_t *msg)
{
    const char *rt;

    if (msg->kind != MC_MSG_RESULT || !json_object_is_type(msg->result, json_type_object))
        return 0;
    rt = mc_json_get_str(msg->result, "resultType");
    return rt != NULL && strcmp(rt, "input_required") == 0;
}

/* Answers one input request (borrowed) through the responder; returns the
 * result (a new reference) or NULL when the responder refused it. */
static json_object *answer_input(mc_session_t *s, json_object *req)
{
    json_object *env = json_object_new_object(), *p;
    const char *method = mc_json_get_str(req, "method");
    mc_reply_t reply;
    mc_msg_t msg;

    if (env == NULL || method == NULL) {
        json_object_put(env);
        return NULL;
    }
    /* An input request the client did not declare is the judge's finding
     * (wire/input-requests-declared); the responder answers or refuses it. */
    json_object_object_add(env, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(env, "id", json_object_new_int(0));
    json_object_object_add(env, "method", json_object_new_string(method));
    if (json_object_object_get_ex(req, "params", &p))
        json_object_object_add(env, "params", json_object_get(p));
    mc_msg_classify(env, &msg); /* takes env */
    memset(&reply, 0, sizeof(reply));
    if (msg.kind == MC_MSG_REQUEST)
        s->opts.responder(s->opts.responder_ctx, s, &msg, &reply);
    else
        reply.error_code = MC_RPC_INVALID_REQUEST;
    mc_msg_free(&msg);
    if (reply.error_code != 0) {
        json_object_put(reply.result);
        return NULL;
    }
    return reply.result;
}

int mc_session_input_retry(mc_session_t *s, json_object *params, json_object *result,
                           json_object **retry)
{
    json_object *out = NULL, *reqs, *answers, *state;

    *retry = NULL;
    if (params != NULL && json_object_deep_copy(params, &out, NULL) != 0)
        return MC_ENOMEM;
    if (out == NULL || !json_object_is_type(out, json_type_object)) {
        json_object_put(out);
        out = json_object_new_object();
        if (out == NULL)
            return MC_ENOMEM;
    }
    json_object_object_del(out, "inputResponses");
    json_object_object_del(out, "requestState");
    if (json_object_object_get_ex(result, "inputRequests", &reqs) &&
        json_object_is_type(reqs, json_type_object)) {
        answers = json_object_new_object();
        if (answers == NULL) {
            json_object_put(out);
            return MC_ENOMEM;
        }
        json_object_object_foreach(reqs, key, req)
        {
            json_object *a =
                json_object_is_type(req, json_type_object) ? answer_input(s, req) : NULL;
            if (a != NULL)
                json_object_object_add(answers, key, a);
        }
        json_object_object_add(out, "inputResponses", answers);
    }
    /* The state goes back exactly as it came (mrtr#client-requirements-basic-workflow). */
    if (json_object_object_get_ex(result, "requestState", &state))
        json_object_object_add(out, "requestState", json_object_get(state));
    *retry = out;
    return MC_OK;
}

/* The version no server speaks, for the era test below. */
#define NO_SUCH_VERSION "1900-01-01"

/* True when a server/discover request at an unknown version gets
 * -32022 (UnsupportedProtocolVersionError), the mark of a modern server. */
static int modern_error_to_unknown_version(mc_session_t *s, int timeout_ms)
{
    json_object *params = json_object_new_object(), *meta = json_object_new_object();
    mc_msg_t resp;
    int modern;

    if (params == NULL || meta == NULL) {
        json_object_put(params);
        json_object_put(meta);
        return 0;
    }
    json_object_object_add(meta, META_VERSION, json_object_new_string(NO_SUCH_VERSION));
    json_object_object_add(params, "_meta", meta);
    /* The server has answered once: this is a handshake request's wait. */
    if (mc__session_handshake_request(s, "server/discover", params, timeout_ms, &resp) != MC_OK)
        return 0;
    modern = resp.kind == MC_MSG_ERROR && resp.error_code == MC_RPC_UNSUPPORTED_VERSION;
    mc_msg_free(&resp);
    return modern;
}

int mc__session_start_stateless(mc_session_t *s, const char *version, int timeout_ms,
                                mc_errbuf_t *eb)
{
    json_object *v, *meta, *info;
    mc_msg_t resp;
    int rc;

    s->stateless = 1;
    snprintf(s->negotiated_version, sizeof(s->negotiated_version), "%s", version);
    mc_session_begin_step(s);
    rc = mc__session_handshake_request(s, "server/discover", NULL, timeout_ms, &resp);
    if (rc != MC_OK)
        return mc__session_handshake_error(s, rc, "server/discover", timeout_ms, eb);
    if (resp.kind == MC_MSG_ERROR && resp.error_code == MC_RPC_UNSUPPORTED_VERSION) {
        /* A modern server that does not serve this version says so. */
        s->unsupported_version = 1;
        s->version_not_spoken = 1;
        mc_errbuf_set(eb, MC_EPROTO, "server/discover at %s failed with error %lld: %.200s",
                      version, (long long)resp.error_code, resp.error_message);
        mc_msg_free(&resp);
        return MC_EPROTO;
    }
    if (resp.kind == MC_MSG_ERROR) {
        /* Any other error marks a legacy server (stdio#backward-compatibility),
         * unless a recognized modern error shows otherwise: a request at a
         * version no server speaks gets UnsupportedProtocolVersionError from
         * a modern one. Such a server that refuses server/discover is still
         * modern; discovery is optional for a client (server/discover#when-to-
         * call), so the session goes on without the server's capabilities
         * and the scenario that calls server/discover judges the refusal. */
        long long code = (long long)resp.error_code;
        char msg[160];
        snprintf(msg, sizeof(msg), "%.150s", resp.error_message);
        mc_msg_free(&resp);
        if (!modern_error_to_unknown_version(s, timeout_ms)) {
            s->version_not_spoken = 1;
            return mc_errbuf_set(eb, MC_EPROTO,
                                 "server/discover at %s failed with error %lld (%s) and a request "
                                 "at an unknown version got no UnsupportedProtocolVersionError: "
                                 "the server is of the initialize era",
                                 version, code, msg);
        }
        json_object_put(s->init_result);
        s->init_result = NULL;
        s->server_caps = NULL;
        s->server_name = s->server_version = NULL;
        return MC_OK;
    }
    if (!json_object_is_type(resp.result, json_type_object)) {
        mc_msg_free(&resp);
        return mc_errbuf_set(eb, MC_EPROTO, "the server/discover result is not an object");
    }
    json_object_put(s->init_result);
    s->init_result = json_object_get(resp.result);
    mc_msg_free(&resp);
    s->server_caps = NULL;
    s->server_name = s->server_version = NULL;
    if (json_object_object_get_ex(s->init_result, "capabilities", &v) &&
        json_object_is_type(v, json_type_object))
        s->server_caps = v;
    meta = mc_json_get(s->init_result, "_meta");
    info = mc_json_get(meta, META_SERVER);
    if (json_object_is_type(info, json_type_object)) {
        s->server_name = mc_json_get_str(info, "name");
        s->server_version = mc_json_get_str(info, "version");
    }
    return MC_OK;
}
