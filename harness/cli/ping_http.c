/*
 * ping_http.c - `mcpcheck ping --url`: the handshake and one ping over
 * Streamable HTTP, against a running server or one started for it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/ping_http.h"
#include "client/http.h"
#include "client/http_limits.h"
#include "client/httptarget.h"
#include "client/session.h"

int mc_cli_ping_http(const char *url, char **cmd, int allow_remote, const char *version,
                     long timeout)
{
    mc_http_target_t tgt;
    mc_http_opts_t ho;
    mc_http_t *h;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t resp;
    struct timespec a, b;
    int rc, code = MC_EXIT_INCOMPLETE;
    long del = 0;
    char note[260];

    memset(&tgt, 0, sizeof(tgt));
    mc_errbuf_clear(&eb);
    if (mc_http_url_check(url, allow_remote, NULL, 0, NULL, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: --url: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    if (cmd != NULL && cmd[0] != NULL) {
        mc_spawn_opts_t so;
        memset(&so, 0, sizeof(so));
        so.argv = cmd;
        if (mc_http_target_start(&tgt, &so, url, MC_HTTP_STARTUP_BUDGET_MS, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck ping: the server did not start: %s\n", eb.msg);
            return MC_EXIT_INCOMPLETE;
        }
        url = tgt.url;
    }
    memset(&ho, 0, sizeof(ho));
    ho.url = url;
    ho.allow_remote = allow_remote;
    h = mc_http_new(&ho, &eb);
    if (h == NULL || mc_session_init(&s, mc_http_link(h), NULL) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: %s\n", h == NULL ? eb.msg : "out of memory");
        mc_http_free(h);
        mc_http_target_stop(&tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
        return MC_EXIT_INCOMPLETE;
    }
    rc = mc_session_initialize(&s, version, NULL, (int)timeout, &eb);
    if (rc != MC_OK) {
        char why[300];
        mc_http_describe(h, why, sizeof(why));
        fprintf(stderr, "mcpcheck ping: initialize failed: %s%s%s\n",
                eb.msg[0] ? eb.msg : mc_strerror(rc), why[0] ? "; " : "", why);
        goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    rc = mc_session_request(&s, "ping", NULL, (int)timeout, &resp);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck ping: no answer to ping (%s)%s%s\n", mc_strerror(rc),
                mc_http_failure(h) ? ": " : "", mc_http_failure(h) ? mc_http_failure(h) : "");
        goto done;
    }
    if (resp.kind == MC_MSG_ERROR) {
        fprintf(stderr, "mcpcheck ping: ping failed with error %lld: %s\n",
                (long long)resp.error_code, resp.error_message);
        mc_msg_free(&resp);
        goto done;
    }
    mc_msg_free(&resp);
    printf("endpoint: %s\n", url);
    printf("protocol version: %s%s\n", s.negotiated_version,
           s.counter_offer ? " (counter-offered by the server)" : "");
    printf("server: %s %s\n", s.server_name ? s.server_name : "(no name)",
           s.server_version ? s.server_version : "(no version)");
    printf("session id: %s\n", mc_http_session_id(h) ? mc_http_session_id(h) : "(none)");
    printf("ping round trip: %.3f ms\n",
           (double)(b.tv_sec - a.tv_sec) * 1000.0 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
    code = MC_EXIT_OK;
done:
    mc_session_free(&s);
    mc_http_close(h, MC_HTTP_DELETE_TIMEOUT_MS, &del);
    if (code == MC_EXIT_OK)
        printf("session end: %s\n", del == 0 ? "no DELETE sent" : del == 200 || del == 204
                                                                   ? "DELETE accepted"
                                                                   : "DELETE refused");
    while (mc_http_take_note(h, note, sizeof(note)))
        if (code != MC_EXIT_OK)
            fprintf(stderr, "mcpcheck ping: http: %s\n", note);
    mc_http_free(h);
    mc_http_target_stop(&tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
    return code;
}
