#include "scenario/httprun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/http_limits.h"

#define R2(page)                                                                              \
    {{"2025-06-18", page, NULL}, {"2025-11-25", page, NULL}, {NULL, NULL, NULL}}

/* Each quote is the spec's sentence, verbatim, on the pages named. */
static const mc_check_def_t g_checks[] = {
    {.check = "http/notification-202",
     .level = MC_LEVEL_MUST,
     .quote = "If the server accepts the input, the server MUST return HTTP status code 202 "
              "Accepted with no body.",
     .refs = R2("basic/transports#sending-messages-to-the-server")},
    {.check = "http/request-content-type",
     .level = MC_LEVEL_MUST,
     .quote = "If the input is a JSON-RPC request, the server MUST either return Content-Type: "
              "text/event-stream, to initiate an SSE stream, or Content-Type: application/json, "
              "to return one JSON object.",
     .refs = R2("basic/transports#sending-messages-to-the-server")},
    {.check = "http/session-id-visible-ascii",
     .level = MC_LEVEL_MUST,
     .quote = "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to "
              "0x7E).",
     .refs = R2("basic/transports#session-management")},
    {.check = "http/get-stream-no-response",
     .level = MC_LEVEL_MUST,
     .quote = "The server MUST NOT send a JSON-RPC response on the stream unless resuming a "
              "stream associated with a previous client request.",
     .refs = R2("basic/transports#listening-for-messages-from-the-server")},
    {.check = "http/response-on-own-stream",
     .level = MC_LEVEL_SHOULD,
     .quote = "The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC "
              "request sent in the POST body.",
     .refs = {{"2025-06-18", "basic/transports#sending-messages-to-the-server", NULL},
              {NULL, NULL, NULL}}},
    {.check = "http/sse-event-has-data",
     .level = MC_LEVEL_INFO,
     .quote = "Server can optionally make use of Server-Sent Events (SSE) to stream multiple "
              "server messages.",
     .refs = R2("basic/transports#streamable-http"),
     .interpretation = "An SSE event without a data field carries no message (event-stream "
                       "clients do not dispatch it); it is reported, never failed."},
};

const mc_check_def_t *mc_httprun_check(const char *id)
{
    size_t i;

    for (i = 0; i < sizeof(g_checks) / sizeof(g_checks[0]); i++)
        if (strcmp(g_checks[i].check, id) == 0)
            return &g_checks[i];
    return NULL;
}

int mc_httprun_start(mc_httprun_t *hr, const mc_runner_opts_t *o, mc_link_t *link,
                     mc_errbuf_t *eb)
{
    mc_http_opts_t ho;
    const char *url = o->url;

    memset(hr, 0, sizeof(*hr));
    if (o->fresh_process && o->argv != NULL && o->argv[0] != NULL) {
        mc_spawn_opts_t so;
        int rc;
        memset(&so, 0, sizeof(so));
        so.argv = o->argv;
        so.cwd = o->cwd;
        so.limits = o->limits;
        rc = mc_http_target_start(&hr->tgt, &so, o->url, MC_HTTP_STARTUP_BUDGET_MS, eb);
        if (rc != MC_OK)
            return rc;
        url = hr->tgt.url;
    }
    snprintf(hr->url, sizeof(hr->url), "%s", url);
    memset(&ho, 0, sizeof(ho));
    ho.url = hr->url;
    ho.get_stream = 1;
    ho.allow_remote = o->allow_remote;
    hr->http = mc_http_new(&ho, eb);
    if (hr->http == NULL) {
        mc_http_target_stop(&hr->tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
        return MC_EINVAL;
    }
    *link = mc_http_link(hr->http);
    return MC_OK;
}

void mc_httprun_notes(mc_httprun_t *hr, mc_scenario_result_t *res, uint64_t seq, int64_t t_ms)
{
    char note[260], line[300];

    if (hr->http == NULL)
        return;
    while (mc_http_take_note(hr->http, note, sizeof(note))) {
        int n = snprintf(line, sizeof(line), "(http: %s)", note);
        mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
    }
}

static void record(mc_scenario_result_t *res, const mc_http_finding_t *f)
{
    mc_sresult_check(res, f->check, mc_httprun_check(f->check), f->pass,
                     f->pass ? NULL : f->detail, NULL, NULL, NULL, 0, 0);
}

void mc_httprun_finish(mc_httprun_t *hr, mc_scenario_result_t *res, uint64_t seq, int64_t t_ms)
{
    mc_http_finding_t f;
    long st = 0;
    char how[200];

    if (hr->http != NULL) {
        if (mc_http_close(hr->http, MC_HTTP_DELETE_TIMEOUT_MS, &st) == MC_OK && st != 0) {
            char line[120];
            int n = snprintf(line, sizeof(line), "(http: DELETE -> %ld)", st);
            mc_sresult_tx(res, seq, t_ms, 0, line, n > 0 ? (size_t)n : 0);
        }
        mc_httprun_notes(hr, res, seq, t_ms);
        while (mc_http_take_finding(hr->http, &f))
            record(res, &f);
        mc_http_free(hr->http);
        hr->http = NULL;
    }
    if (hr->tgt.started) {
        char tail[4096];
        if (mc_http_target_stderr(&hr->tgt, tail, sizeof(tail)) > 0 && res->stderr_tail == NULL)
            res->stderr_tail = strdup(tail);
        mc_http_target_stop(&hr->tgt, MC_SHUTDOWN_TERM_GRACE_MS, how, sizeof(how));
        if (res->exit_desc == NULL)
            res->exit_desc = strdup(how);
    }
}
