/*
 * wire_notify.c - what the server sends unasked: notifications only for
 * the capabilities it declared (list_changed, resources/updated for a
 * subscribed resource, log messages at or above the level set, progress for
 * an active token and increasing, cancellations only of the server's own
 * requests), and server requests with ids of their own, progress tokens
 * unique among the server's requests still open, only for what the client
 * declared, and not before initialization.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/wire.h"
#include "judge/wire_internal.h"
#include "core/json.h"

static int cap_declared(json_object *caps, const char *cap, const char *flag)
{
    json_object *c = mc_json_get(caps, cap);

    if (c == NULL)
        return 0;
    if (flag == NULL)
        return 1;
    c = mc_json_get(c, flag);
    return c != NULL && json_object_is_type(c, json_type_boolean) && json_object_get_boolean(c);
}

/*
 * Judges a notifications/cancelled of the server outside the stateless
 * protocol (basic/utilities/cancellation): its requestId is the id of a
 * request the server itself sent in this session. Whether that request was
 * still in progress is not judged: a cancellation may cross the client's
 * answer on the wire. Not judged when requestId is missing (the schema
 * check's matter) or once the id ring forgot an id.
 */
static void cancelled(mc_wire_t *w, const mc_msg_t *m)
{
    json_object *rid = mc_json_get(m->params, "requestId");
    char *id = rid != NULL ? mc__wire_compact_dup(rid) : NULL;
    size_t k;
    int own = 0;

    for (k = 0; id != NULL && k < MC_WIRE_MAX_SERVER_IDS && !own; k++)
        own = w->server_ids_compact[k] != NULL && strcmp(w->server_ids_compact[k], id) == 0;
    if (own)
        mc__wire_server_request_closed(w, id); /* the server ends it: its token is free */
    if (own)
        mc_wire_pass(w, "wire/cancelled-own-request");
    else if (id != NULL && !w->server_ids_wrapped)
        mc_wire_fail(w, "wire/cancelled-own-request",
                     "notifications/cancelled for %.60s, which is no request the server sent%s", id,
                     mc__wire_find_req(w, id) != NULL ? " (it is the id of a client request)" : "");
    free(id);
}

void mc__wire_on_notification(mc_wire_t *w, mc_msg_t *m)
{
    const char *meth = m->method;
    static const struct {
        const char *method, *cap;
    } changed[] = {{"notifications/resources/list_changed", "resources"},
                   {"notifications/prompts/list_changed", "prompts"},
                   {"notifications/tools/list_changed", "tools"}};
    size_t i;

    mc_wire_pass(w, "wire/notification-no-id");
    if (mc__wire_stateless_notification(w, m))
        return;
    for (i = 0; i < sizeof(changed) / sizeof(changed[0]); i++) {
        if (strcmp(meth, changed[i].method) == 0) {
            if (!cap_declared(w->server_caps, changed[i].cap, "listChanged"))
                mc_wire_fail(w, "wire/negotiated-capabilities",
                             "%s sent, but the server did not declare %s.listChanged", meth,
                             changed[i].cap);
            else
                mc_wire_pass(w, "wire/negotiated-capabilities");
            return;
        }
    }
    if (strcmp(meth, "notifications/resources/updated") == 0) {
        const char *uri = mc_json_get_str(m->params, "uri");
        if (!cap_declared(w->server_caps, "resources", "subscribe"))
            mc_wire_fail(w, "wire/negotiated-capabilities",
                         "resources/updated sent, but the server did not declare "
                         "resources.subscribe");
        else
            mc_wire_pass(w, "wire/negotiated-capabilities");
        if (uri != NULL && !mc__wire_subscribed(w, uri) && w->subs_untracked > 0) {
            /* not judged: it may be a subscription the table had no room for */
        } else if (uri != NULL && !mc__wire_subscribed(w, uri))
            mc_wire_fail(w, "wire/resource-updated-subscribed",
                         "resources/updated for %.120s, which the client is not subscribed to",
                         uri);
        else
            mc_wire_pass(w, "wire/resource-updated-subscribed");
        return;
    }
    if (strcmp(meth, "notifications/message") == 0) {
        const char *lv = mc_json_get_str(m->params, "level");
        int rank = mc_log_level_rank(lv);
        if (!cap_declared(w->server_caps, "logging", NULL))
            mc_wire_fail(w, "wire/logging-capability",
                         "notifications/message sent, but the server did not declare logging");
        else
            mc_wire_pass(w, "wire/logging-capability");
        if (w->log_level >= 0 && rank >= 0) {
            if (rank < w->log_level)
                mc_wire_fail(w, "wire/log-level",
                             "log message at level %s, below the level %s the client set", lv,
                             mc__wire_level_name(w->log_level));
            else
                mc_wire_pass(w, "wire/log-level");
        }
        return;
    }
    if (strcmp(meth, "notifications/tasks/status") == 0) {
        if (mc__wire_task_terminal(mc_json_get_str(m->params, "status")))
            mc__wire_task_ended(w, mc_json_get_str(m->params, "taskId"));
        return;
    }
    if (strcmp(meth, "notifications/cancelled") == 0) {
        cancelled(w, m);
        return;
    }
    if (strcmp(meth, "notifications/progress") == 0) {
        json_object *tok = mc_json_get(m->params, "progressToken");
        json_object *prog = mc_json_get(m->params, "progress");
        char *t = tok != NULL ? mc__wire_compact_dup(tok) : NULL;
        mc_wire_token_t *rec = t != NULL ? mc__wire_find_token(w, t, 0) : NULL;
        if (rec == NULL && t != NULL && w->tokens_untracked > 0) {
            /* not judged: it may be an active token the table had no room for */
        } else if (rec == NULL || !rec->active) {
            mc_wire_fail(w, "wire/progress-active-token",
                         "progress for token %.60s, which is not an active request's token",
                         t != NULL ? t : "(none)");
        } else {
            mc_wire_pass(w, "wire/progress-active-token");
            if (prog != NULL && (json_object_is_type(prog, json_type_int) ||
                                 json_object_is_type(prog, json_type_double))) {
                double p = json_object_get_double(prog);
                if (rec->seen && !(p > rec->last))
                    mc_wire_fail(w, "wire/progress-increases",
                                 "progress %g for token %.60s does not increase (last %g)", p, t,
                                 rec->last);
                else
                    mc_wire_pass(w, "wire/progress-increases");
                rec->seen = 1;
                rec->last = p;
            }
        }
        free(t);
        return;
    }
}

void mc__wire_server_request_closed(mc_wire_t *w, const char *id)
{
    size_t k;

    for (k = 0; k < MC_WIRE_MAX_OPEN_SERVER_TOKENS; k++) {
        mc_wire_open_token_t *t = &w->open_tokens[k];
        if (t->id != NULL && strcmp(t->id, id) == 0) {
            free(t->id);
            free(t->token);
            t->id = t->token = NULL;
            return;
        }
    }
}

/*
 * Judges the progressToken of a server request (basic/utilities/progress
 * #progress-flow): the server is the sender of its own requests, and the
 * token differs from that of every other request of the server still
 * active, that is not answered by the client nor cancelled by the server.
 * The check is counted only when there was another such request to compare
 * with; a request the table has no room for is not tracked (a full table
 * never makes a finding, it may only miss one).
 */
static void server_token(mc_wire_t *w, const mc_msg_t *m)
{
    json_object *tok = mc_json_get(mc_json_get(m->params, "_meta"), "progressToken");
    char *token, *id;
    mc_wire_open_token_t *free_slot = NULL;
    size_t k, compared = 0;
    int clash = 0;

    if (tok == NULL || m->id == NULL || (token = mc__wire_compact_dup(tok)) == NULL)
        return;
    for (k = 0; k < MC_WIRE_MAX_OPEN_SERVER_TOKENS; k++) {
        mc_wire_open_token_t *t = &w->open_tokens[k];
        if (t->id == NULL) {
            if (free_slot == NULL)
                free_slot = t;
            continue;
        }
        compared++;
        if (!clash && strcmp(t->token, token) == 0) {
            clash = 1;
            mc_wire_fail(w, "wire/progress-token-unique",
                         "%.60s carries progressToken %.60s, the token of the server's request "
                         "%.60s, which the client has not answered yet",
                         m->method, token, t->id);
        }
    }
    if (compared > 0 && !clash)
        mc_wire_pass(w, "wire/progress-token-unique");
    id = mc__wire_compact_dup(m->id);
    if (free_slot == NULL || id == NULL) {
        w->open_tokens_untracked++;
        free(id);
        free(token);
        return;
    }
    free_slot->id = id;
    free_slot->token = token;
}

void mc__wire_on_server_request(mc_wire_t *w, mc_msg_t *m)
{
    static const struct {
        const char *method, *cap;
    } need[] = {{"elicitation/create", "elicitation"},
                {"sampling/createMessage", "sampling"},
                {"roots/list", "roots"}};
    size_t i;

    if (strncmp(m->method, "notifications/", strlen("notifications/")) == 0) {
        /* A notification's method with an id: no request, but a notification
         * that includes an id (basic#notifications). */
        mc_wire_fail(w, "wire/notification-no-id", "%.60s carries an id", m->method);
        return;
    }
    mc__wire_stateless_server_request(w, m);
    {
        /* Keyed by the id as written: the parser clamps integers past 64 bits. */
        char *id = w->raw_id != NULL ? strndup(w->raw_id, w->raw_id_len) : mc__wire_compact_dup(m->id);
        size_t k;
        int seen = 0;
        for (k = 0; id != NULL && k < MC_WIRE_MAX_SERVER_IDS; k++)
            if (w->server_ids[k] != NULL && strcmp(w->server_ids[k], id) == 0)
                seen = 1;
        if (seen) {
            char shown[64];
            mc__wire_id_text(w, id, shown, sizeof(shown));
            mc_wire_fail(w, "wire/server-request-id-unique",
                         "server request %.60s reuses id %s of an earlier server request",
                         m->method, shown);
            free(id);
        } else if (id != NULL) {
            size_t at = w->server_id_next;
            mc_wire_pass(w, "wire/server-request-id-unique");
            if (w->server_ids[at] != NULL)
                w->server_ids_wrapped = 1;
            free(w->server_ids[at]);
            free(w->server_ids_compact[at]);
            w->server_ids[at] = id;
            w->server_ids_compact[at] = mc__wire_compact_dup(m->id);
            w->server_id_next = (at + 1) % MC_WIRE_MAX_SERVER_IDS;
        }
    }
    server_token(w, m);
    if (!w->initialized_sent && strcmp(m->method, "ping") != 0)
        mc_wire_fail(w, "wire/requests-before-initialized",
                     "server sent %s before the client sent notifications/initialized", m->method);
    for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        if (strcmp(m->method, need[i].method) == 0) {
            if (!cap_declared(w->client_caps, need[i].cap, NULL))
                mc_wire_fail(w, "wire/negotiated-capabilities",
                             "server sent %s, but the client did not declare %s", m->method,
                             need[i].cap);
            else
                mc_wire_pass(w, "wire/negotiated-capabilities");
        }
    }
    if (strcmp(m->method, "elicitation/create") == 0 &&
        cap_declared(w->client_caps, "elicitation", NULL)) {
        /*
         * Modes (2025-11-25/client/elicitation#capabilities): "Servers MUST
         * NOT send elicitation requests with modes that are not supported by
         * the client"; an empty elicitation object means form mode only.
         */
        json_object *el = mc_json_get(w->client_caps, "elicitation");
        const char *mode = mc_json_get_str(m->params, "mode");
        int has_form = mc_json_get(el, "form") != NULL, has_url = mc_json_get(el, "url") != NULL;
        int form_ok = has_form || (!has_form && !has_url);
        if (mode != NULL && strcmp(mode, "url") == 0 && !has_url)
            mc_wire_fail(w, "wire/elicitation-mode",
                         "URL-mode elicitation sent, but the client did not declare "
                         "elicitation.url");
        else if ((mode == NULL || strcmp(mode, "form") == 0) && !form_ok)
            mc_wire_fail(w, "wire/elicitation-mode",
                         "form-mode elicitation sent, but the client declared only "
                         "elicitation.url");
        else
            mc_wire_pass(w, "wire/elicitation-mode");
    }
}
