/*
 * state.c - the vocabulary of a server's state and what steps change and
 * read of it (state.h).
 *
 * The table, by method (a request, a page walk, a raw line that reads as a
 * request or notification):
 *   ping, server/discover                     nothing
 *   a listing, resources/read, prompts/get,
 *   completion/complete                       read lists
 *   logging/setLevel                          changes log-level
 *   resources/subscribe, /unsubscribe         changes subscriptions; reads
 *                                             lists
 *   tools/call                                changes what is unknown; reads
 *                                             lists, log-level, subscriptions
 *                                             (a tool may log or update)
 *   tasks/get, tasks/result, tasks/list       read tasks
 *   tasks/cancel                              changes and reads tasks
 *   initialize                                a process of its own
 *   any other method                          changes what is unknown, reads
 *                                             every name
 * and by step: a notify step, a request not waited for (async), a
 * reconnect or http step need a process of their own; an
 * expect_notification or expect_request without "related" makes the run
 * the first user of a process (MC_STATE_FIRST); expect_notification
 * (related) and expect_no_notification read log-level and subscriptions
 * (which notifications arrive); a raw line that is not JSON, or JSON that
 * names no method, changes and reads nothing (the ping that ends a run
 * that hands its process on shows the server alive); a notification, or a
 * line with variables in it, is unknown.
 */
#include "scenario/state.h"

#include <string.h>

#include <json-c/json.h>

static const struct {
    unsigned bit;
    const char *name;
} names[] = {
#define MC__STATE_ROW(id, name, what) {MC_STATE_##id, name},
    MC_STATE_NAMES(MC__STATE_ROW)
#undef MC__STATE_ROW
};

#define N_NAMES (sizeof(names) / sizeof(names[0]))

unsigned mc_state_bit(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < N_NAMES; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].bit;
    return 0;
}

const char *mc_state_name(unsigned bit)
{
    size_t i;

    for (i = 0; i < N_NAMES; i++)
        if (names[i].bit == bit)
            return names[i].name;
    return NULL;
}

const char *mc_state_names(void)
{
#define MC__STATE_LIST(id, name, what) ", " name
    static const char all[] = MC_STATE_NAMES(MC__STATE_LIST);
#undef MC__STATE_LIST
    return all + 2;
}

/* Methods that only read what the server offers. */
static int reads_lists(const char *m)
{
    static const char *const ro[] = {
        "tools/list",   "resources/list", "resources/read",      "resources/templates/list",
        "prompts/list", "prompts/get",    "completion/complete", NULL};
    size_t i;

    for (i = 0; ro[i] != NULL; i++)
        if (strcmp(m, ro[i]) == 0)
            return 1;
    return 0;
}

/* What sending method does (a request or a notification of the harness's). */
static void method_state(const char *m, unsigned *changes, unsigned *reads)
{
    if (m == NULL) {
        *changes |= MC_STATE_UNKNOWN;
        *reads |= MC_STATE_NAMED;
    } else if (strcmp(m, "ping") == 0 || strcmp(m, "server/discover") == 0) {
        /* nothing */
    } else if (reads_lists(m)) {
        *reads |= MC_STATE_LISTS;
    } else if (strcmp(m, "logging/setLevel") == 0) {
        *changes |= MC_STATE_LOG_LEVEL;
    } else if (strcmp(m, "resources/subscribe") == 0 || strcmp(m, "resources/unsubscribe") == 0) {
        /* Subscribing is idempotent: what it answers depends on the
         * resource, not on what else is subscribed. */
        *changes |= MC_STATE_SUBSCRIPTIONS;
        *reads |= MC_STATE_LISTS;
    } else if (strcmp(m, "tools/call") == 0) {
        *changes |= MC_STATE_UNKNOWN;
        *reads |= MC_STATE_LISTS | MC_STATE_LOG_LEVEL | MC_STATE_SUBSCRIPTIONS;
    } else if (strcmp(m, "tasks/get") == 0 || strcmp(m, "tasks/result") == 0 ||
               strcmp(m, "tasks/list") == 0) {
        *reads |= MC_STATE_TASKS;
    } else if (strcmp(m, "tasks/cancel") == 0) {
        *changes |= MC_STATE_TASKS;
        *reads |= MC_STATE_TASKS;
    } else if (strcmp(m, "initialize") == 0) {
        *changes |= MC_STATE_OWN_PROCESS;
    } else {
        *changes |= MC_STATE_UNKNOWN;
        *reads |= MC_STATE_NAMED;
    }
}

/* What one message of a raw line does: by its method; a notification
 * (no id) the harness sends needs a process of its own as a notify step
 * does. */
static void raw_message_state(json_object *m, unsigned *changes, unsigned *reads)
{
    json_object *method;

    if (!json_object_is_type(m, json_type_object) ||
        !json_object_object_get_ex(m, "method", &method))
        return;
    if (!json_object_is_type(method, json_type_string)) {
        /* Not a request a server can carry out: it answers an error. */
        return;
    }
    if (!json_object_object_get_ex(m, "id", NULL)) {
        /* A notification: what it does, the file may say. */
        *changes |= MC_STATE_UNKNOWN;
        *reads |= MC_STATE_NAMED;
        return;
    }
    method_state(json_object_get_string(method), changes, reads);
}

static void raw_state(const mc_step_raw_t *r, unsigned *changes, unsigned *reads)
{
    size_t i;

    if (!r->literal) {
        *changes |= MC_STATE_UNKNOWN;
        *reads |= MC_STATE_NAMED;
        return;
    }
    if (r->parsed == NULL)
        return;
    if (json_object_is_type(r->parsed, json_type_array)) {
        for (i = 0; i < json_object_array_length(r->parsed); i++)
            raw_message_state(json_object_array_get_idx(r->parsed, i), changes, reads);
        return;
    }
    raw_message_state(r->parsed, changes, reads);
}

void mc_steps_state(const mc_step_t *steps, size_t n, unsigned *changes, unsigned *reads)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const mc_step_t *s = &steps[i];
        switch (s->kind) {
        case MC_STEP_request:
            method_state(s->u.request.method, changes, reads);
            if (s->u.request.async != NULL)
                *changes |= MC_STATE_OWN_PROCESS;
            break;
        case MC_STEP_paginate:
            method_state(s->u.paginate.method, changes, reads);
            break;
        case MC_STEP_for_each:
            mc_steps_state(s->steps, s->n_steps, changes, reads);
            break;
        case MC_STEP_raw:
            raw_state(&s->u.raw, changes, reads);
            break;
        case MC_STEP_expect_notification:
            if (!s->u.expect_notification.related)
                *changes |= MC_STATE_FIRST;
            *reads |= MC_STATE_LOG_LEVEL | MC_STATE_SUBSCRIPTIONS;
            break;
        case MC_STEP_expect_no_notification:
            *reads |= MC_STATE_LOG_LEVEL | MC_STATE_SUBSCRIPTIONS;
            break;
        case MC_STEP_expect_request:
            if (!s->u.expect_request.related)
                *changes |= MC_STATE_FIRST;
            break;
        case MC_STEP_expect_no_request:
        case MC_STEP_answer:
        case MC_STEP_sleep:
        case MC_STEP_await:
        case MC_STEP_value:
            break;
        default:
            /* notify, http, reconnect, and any kind added later */
            *changes |= MC_STATE_OWN_PROCESS;
            break;
        }
    }
}
