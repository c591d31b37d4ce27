/* ping_http.h - `mcpcheck ping --url`. */
#ifndef MC_CLI_PING_HTTP_H
#define MC_CLI_PING_HTTP_H

/*
 * Runs the handshake and one ping over Streamable HTTP at url; with cmd
 * (NULL-terminated, may be NULL or empty) the server is started first and
 * stopped afterwards. Prints the result; returns an MC_EXIT_* code.
 */
int mc_cli_ping_http(const char *url, char **cmd, int allow_remote, const char *version,
                     long timeout);

#endif /* MC_CLI_PING_HTTP_H */
