/*
 * wire_match.c - responses: each must answer an outstanding request, with
 * its id (of the same type) and only once; an answer without an id only
 * for a line whose id could not be read. What an answer teaches the other
 * rules is noted here: the server's capabilities and version from
 * initialize (or server/discover), subscriptions ended, the log level set,
 * progress tokens that are no longer active; nothing is learned of an
 * answer to an id the client sent twice, which may be the other request's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/wire.h"
#include "judge/wire_internal.h"
#include "core/frame.h"
#include "core/json.h"

static void learn_from(mc_wire_t *w, mc_wire_req_t *r, const mc_msg_t *m);

/* True when r, about to be answered, shares its id with another request
 * that is still unanswered, or was marked shared when such a request was
 * answered: an answer with that id may then be either's. Each other
 * unanswered request with the id is marked shared, so that its own answer,
 * when it comes, is as doubtful. */
static int shared_id(mc_wire_t *w, mc_wire_req_t *r, const char *id)
{
    size_t i;
    int shared = r->shared;

    for (i = 0; i < MC_WIRE_MAX_REQUESTS; i++)
        if (&w->reqs[i] != r && w->reqs[i].id != NULL && !w->reqs[i].answered &&
            strcmp(w->reqs[i].id, id) == 0)
            shared = w->reqs[i].shared = 1;
    return shared;
}

void mc__wire_on_response(mc_wire_t *w, mc_msg_t *m, unsigned flags, mc_wire_info_t *info)
{
    char *id = m->id != NULL ? mc__wire_compact_dup(m->id) : NULL;
    mc_wire_req_t *r = id != NULL ? mc__wire_find_req(w, id) : NULL;
    int ambiguous;

    if (id == NULL) {
        /* Only an answer to a line whose id could not be read may lack one
         * (basic#responses), or the body of a 403 refusing a POST for its
         * Origin (the transports page allows that body "a JSON-RPC error
         * response that has no id"). The body of any other HTTP error status
         * refusing a request whose id was readable answers that request,
         * and an error response carries its request's id whatever the
         * transport. */
        if (m->kind == MC_MSG_ERROR && (flags & MC_FRAME_F_REFUSAL) &&
            (flags & MC_FRAME_F_ID_OPTIONAL)) {
            mc_wire_pass(w, "wire/null-id-only-for-unreadable-requests");
        } else if (m->kind == MC_MSG_ERROR && (flags & MC_FRAME_F_REFUSAL)) {
            mc_wire_fail(w, "wire/response-id",
                         "the error in the body of an HTTP error status refusing a request "
                         "has no id, though the request's id was readable");
        } else if (m->kind == MC_MSG_ERROR && w->unreadable_outstanding > 0) {
            w->unreadable_outstanding--;
            mc_wire_pass(w, "wire/null-id-only-for-unreadable-requests");
        } else if (w->last_out_notification) {
            mc_wire_fail(w, "wire/no-response-to-notification",
                         "a response with a null id arrived right after a notification");
        } else {
            mc_wire_fail(w, "wire/null-id-only-for-unreadable-requests",
                         "error response without an id, though every request sent had a "
                         "readable id");
        }
        return;
    }
    if (r == NULL) {
        /* An integer id answered as a string (or the reverse)? */
        int type_mismatch = 0;
        if (json_object_is_type(m->id, json_type_string)) {
            char *alt = strdup(json_object_get_string(m->id));
            type_mismatch = alt != NULL && mc__wire_find_req(w, alt) != NULL;
            free(alt);
        } else {
            char alt[64];
            snprintf(alt, sizeof(alt), "\"%s\"", id);
            type_mismatch = mc__wire_find_req(w, alt) != NULL;
        }
        char shown[64];
        mc__wire_id_text(w, id, shown, sizeof(shown));
        if (type_mismatch)
            mc_wire_fail(w, "wire/response-id",
                         "response id %s has another type than the request's id", shown);
        else if (w->reqs_forgotten > 0) {
            /* not judged: it may answer a request pushed out of the table */
        } else if (w->last_out_notification)
            mc_wire_fail(w, "wire/no-response-to-notification",
                         "response with id %s matches no request; the last message sent was "
                         "a notification",
                         shown);
        else
            mc_wire_fail(w, "wire/response-id", "response id %s matches no request sent", shown);
        free(id);
        return;
    }
    ambiguous = r->answered ? 0 : shared_id(w, r, id);
    free(id);
    if (r->answered) {
        mc_wire_fail(w, "wire/single-response", "second response to request %s (%s)", r->id,
                     r->method);
        return;
    }
    r->answered = 1;
    mc_wire_pass(w, "wire/response-id");
    if (info != NULL) {
        info->answered_method = r->method;
        info->answered_unversioned = w->stateless && !r->modern;
    }
    /* Under an id the client sent twice, the answer may be the other
     * request's: nothing is learned of it, and no rule of r's method holds
     * it (a tools/call result is no answer to server/discover). */
    if (!ambiguous)
        learn_from(w, r, m);
}

/* What the answer m to request r teaches the other rules. */
static void learn_from(mc_wire_t *w, mc_wire_req_t *r, const mc_msg_t *m)
{
    if (r->token != NULL) {
        mc_wire_token_t *t = mc__wire_find_token(w, r->token, 0);
        const char *tid = mc_json_get_str(mc_json_get(m->result, "task"), "taskId");
        if (t != NULL && r->task && m->kind == MC_MSG_RESULT && tid != NULL) {
            /* A CreateTaskResult: the token lasts as long as the task
             * (2025-11-25 basic/utilities/progress#behavior-requirements). */
            free(t->task_id);
            t->task_id = strdup(tid);
            if (t->task_id == NULL)
                t->active = 0;
        } else if (t != NULL) {
            t->active = 0; /* progress must stop once the request completes */
        }
    }
    if (r->task_id != NULL) {
        /* A tasks/result result comes once the task is terminal (an error
         * may be a protocol error about a task still running: not read);
         * tasks/get and tasks/cancel say whether it is. */
        if (m->kind == MC_MSG_RESULT &&
            (strcmp(r->method, "tasks/result") == 0 ||
             mc__wire_task_terminal(mc_json_get_str(m->result, "status"))))
            mc__wire_task_ended(w, r->task_id);
    }
    if (strcmp(r->method, "initialize") == 0 && m->kind == MC_MSG_RESULT && !r->modern)
        w->legacy_accepted = 1;
    if (strcmp(r->method, "initialize") == 0 && m->kind == MC_MSG_RESULT) {
        json_object_put(w->server_caps);
        w->server_caps = json_object_get(mc_json_get(m->result, "capabilities"));
        w->init_answered = 1;
        if (mc_json_get_str(m->result, "protocolVersion") != NULL)
            snprintf(w->version, sizeof(w->version), "%s",
                     mc_json_get_str(m->result, "protocolVersion"));
    }
    if (m->kind == MC_MSG_RESULT && r->uri != NULL && strcmp(r->method, "resources/unsubscribe") == 0)
        mc__wire_unsubscribe(w, r->uri);
    if (m->kind == MC_MSG_ERROR && r->uri != NULL && strcmp(r->method, "resources/subscribe") == 0)
        mc__wire_unsubscribe(w, r->uri);
    if (m->kind == MC_MSG_RESULT && r->level != NULL)
        w->log_level = mc_log_level_rank(r->level);
    if (m->kind == MC_MSG_RESULT && w->stateless) {
        if (strcmp(r->method, "server/discover") == 0) {
            json_object_put(w->server_caps);
            w->server_caps = NULL;
            if (mc_json_get(m->result, "capabilities") != NULL &&
                json_object_deep_copy(mc_json_get(m->result, "capabilities"), &w->server_caps,
                                      NULL) != 0)
                w->server_caps = NULL;
        }
        if (r->modern)
            mc__wire_stateless_result(w, r, m);
    }
    if (m->kind == MC_MSG_ERROR && r->modern)
        mc__wire_stateless_error(w, r, m);
}
