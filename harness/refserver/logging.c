/*
 * logging.c - logging/setLevel and notifications/message.
 *
 * Messages below the level the client set are dropped, and at most
 * RS_LOG_RATE_MAX messages go out per RS_LOG_RATE_WINDOW_MS; the rest are
 * counted and dropped (2025-06-18/server/utilities/logging#implementation-considerations).
 * Log data never carries credentials or internal details.
 */
#include <stdio.h>
#include <string.h>

#include "refserver/internal.h"


void mc__rs_logging_set_level(mc_refserver_t *rs, json_object *id, json_object *params)
{
    const char *level = mc__rs_get_str(params, "level");
    int i;

    for (i = 0; level != NULL && i < RS_LOG_LEVELS; i++) {
        if (strcmp(level, mc__rs_log_levels[i]) == 0) {
            /* A level already set that changes: counted for one switch. */
            if (rs->log_level_set && rs->log_level != i)
                rs->log_changes++;
            rs->log_level = i;
            rs->log_level_set = 1;
            mc__rs_result(rs, id, NULL);
            return;
        }
    }
    if (rs_fault_hook(rs, RS_HOOK_ACCEPT_UNKNOWN_LEVEL)) {
        mc__rs_result(rs, id, NULL);
        return;
    }
    mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                 "params.level must be one of debug, info, notice, warning, error, critical, "
                 "alert, emergency",
                 NULL);
}

/* True when the rate limit lets one more message through now. */
static int rate_ok(mc_refserver_t *rs)
{
    if (rs_fault_hook(rs, RS_HOOK_LOG_FLOOD))
        return 1;
    if (rs->now - rs->log_window_start >= RS_LOG_RATE_WINDOW_MS || rs->now < rs->log_window_start) {
        rs->log_window_start = rs->now;
        rs->log_window_count = 0;
    }
    if (rs->log_window_count >= RS_LOG_RATE_MAX) {
        rs->log_dropped++;
        return 0;
    }
    rs->log_window_count++;
    return 1;
}

/* True when a message at level goes out now: the level filter, then the
 * rate limit (which counts it). */
static int log_passes(mc_refserver_t *rs, int level)
{
    /* A stateless request without io.modelcontextprotocol/logLevel gets no
     * log message (2026-07-28/server/utilities/logging#per-request-log-level). */
    int set = rs_fault_hook(rs, RS_HOOK_IGNORE_SET_LEVEL) ? 0 : rs->log_level; /* the switch: ignored */
    int floor = !rs->modern               ? set
                : rs->req_log >= 0        ? rs->req_log
                : rs_fault_hook(rs, RS_HOOK_LOG_WITHOUT_REQUEST_LEVEL) ? 0
                                          : RS_LOG_LEVELS;

    return level >= 0 && level < RS_LOG_LEVELS && level >= floor && rate_ok(rs);
}

/* Sends notifications/message for a message that passed. data is consumed. */
static void log_send(mc_refserver_t *rs, int level, const char *logger, json_object *data)
{
    json_object *p;

    if (data != NULL &&
        mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_LOG,
                                              .level = mc__rs_log_levels[level],
                                              .logger = logger,
                                              .body = data})) {
        json_object_put(data);
        return;
    }
    p = json_object_new_object();
    mc__rs_put_str(rs, p, "level", mc__rs_log_levels[level]);
    if (logger != NULL)
        mc__rs_put_str(rs, p, "logger", logger);
    mc__rs_put(rs, p, "data", data);
    mc__rs_notify(rs, "notifications/message", p);
}

void mc__rs_log(mc_refserver_t *rs, int level, const char *logger, json_object *data)
{
    if (!log_passes(rs, level)) {
        json_object_put(data);
        return;
    }
    log_send(rs, level, logger, data);
}

void mc__rs_log_message(mc_refserver_t *rs, int level, const char *logger, const char *text)
{
    json_object *d;

    if (!log_passes(rs, level))
        return;
    if (mc__rs_fast_send(rs, &(rs_fast_msg_t){.kind = RS_FAST_LOG,
                                              .level = mc__rs_log_levels[level],
                                              .logger = logger,
                                              .text = text}))
        return;
    d = json_object_new_object();
    mc__rs_put_str(rs, d, "message", text);
    log_send(rs, level, logger, d);
}

void mc__rs_log_activity(mc_refserver_t *rs, const char *logger, const char *what, const char *name)
{
    char text[RS_MAX_URI_LEN + 64];

    /* Only once the client has asked for log messages with
     * logging/setLevel, and not in the stateless protocol (which sets the
     * level per request). */
    if (rs->modern || !rs->log_level_set || name == NULL)
        return;
    snprintf(text, sizeof(text), "%s %.*s", what, RS_MAX_URI_LEN, name);
    mc__rs_log_message(rs, 0, logger, text);
}
