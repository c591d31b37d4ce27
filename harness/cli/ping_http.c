/*
 * ping_http.c - `mcpcheck ping --url`: the handshake and one ping over
 * Streamable HTTP, against a running server or one started for it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/ping_http.h"
#include "client/session.h"
#include "client/target.h"

int mc_cli_ping_http(const char *url, char **cmd, int allow_remote, const char *version,
                     long timeout)
{
    mc_target_opts_t to;
    mc_target_t *t;
    mc_session_t s;
    mc_errbuf_t eb;
    mc_msg_t resp;
    struct timespec a, b;
    int rc, code = MC_EXIT_INCOMPLETE;
    long del;
    char note[260];

    mc_errbuf_clear(&eb);
    if (mc_target_url_check(url, allow_remote, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: --url: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    memset(&to, 0, sizeof(to));
    to.argv = cmd;
    to.url = url;
    to.allow_remote = allow_remote;
    rc = mc_target_open(&t, &to, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck ping: %s%s\n",
                rc == MC_ESPAWN ? "the server did not start: " : "", eb.msg);
        return MC_EXIT_INCOMPLETE;
    }
    url = mc_target_url(t);
    if (mc_session_init(&s, mc_target_link(t), NULL) != MC_OK) {
        fprintf(stderr, "mcpcheck ping: out of memory\n");
        mc_target_free(t);
        return MC_EXIT_INCOMPLETE;
    }
    rc = mc_session_initialize(&s, version, NULL, (int)timeout, &eb);
    if (rc != MC_OK) {
        char why[300];
        mc_target_explain(t, rc, "initialize", why, sizeof(why));
        fprintf(stderr, "mcpcheck ping: initialize failed: %s%s%s\n",
                eb.msg[0] ? eb.msg : mc_strerror(rc), why[0] ? "; " : "", why);
        goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    rc = mc_session_request(&s, "ping", NULL, (int)timeout, &resp);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck ping: no answer to ping (%s)%s%s\n", mc_strerror(rc),
                mc_target_failure(t) ? ": " : "",
                mc_target_failure(t) ? mc_target_failure(t) : "");
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
    printf("session id: %s\n", mc_target_session_id(t) ? mc_target_session_id(t) : "(none)");
    printf("ping round trip: %.3f ms\n",
           (double)(b.tv_sec - a.tv_sec) * 1000.0 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
    code = MC_EXIT_OK;
done:
    mc_session_free(&s);
    del = mc_target_end_session(t);
    if (code == MC_EXIT_OK)
        printf("session end: %s\n", del == 0 ? "no DELETE sent" : del == 200 || del == 204
                                                                   ? "DELETE accepted"
                                                                   : "DELETE refused");
    while (mc_target_take_note(t, note, sizeof(note)))
        if (code != MC_EXIT_OK)
            fprintf(stderr, "mcpcheck ping: http: %s\n", note);
    mc_target_free(t);
    return code;
}
