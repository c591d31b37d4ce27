/*
 * wire_support.h - what the wire-rule tests share: a transcript fed to a
 * judge line by line (out: the client's, in: the server's), the findings and
 * evaluations of a check, an initialize handshake at 2025-06-18 and a
 * stateless request line at 2026-07-28.
 * Included after cmocka.h by one test program each; every function is static.
 */
#ifndef MC_TESTS_WIRE_SUPPORT_H
#define MC_TESTS_WIRE_SUPPORT_H

#include <stdio.h>
#include <string.h>

#include "core/frame.h"
#include "judge/wire.h"

static inline void out(mc_wire_t *w, const char *line)
{
    mc_wire_outbound(w, line, strlen(line));
}

static inline void in(mc_wire_t *w, const char *line)
{
    mc_wire_inbound(w, line[0] ? MC_FRAME_LINE : MC_FRAME_EMPTY, 0, line, strlen(line), NULL);
}

static inline int findings(const mc_wire_t *w, const char *check)
{
    int n = 0;
    for (size_t i = 0; i < w->n_findings; i++)
        n += strcmp(w->findings[i].check, check) == 0;
    return n;
}

/* The detail of the last finding of check, or "". */
static inline const char *detail(const mc_wire_t *w, const char *check)
{
    const char *d = "";
    for (size_t i = 0; i < w->n_findings; i++)
        if (strcmp(w->findings[i].check, check) == 0)
            d = w->findings[i].detail;
    return d;
}

static inline int evals(const mc_wire_t *w, const char *check)
{
    for (size_t i = 0; i < w->n_checks; i++)
        if (strcmp(w->check_ids[i], check) == 0)
            return (int)w->check_evals[i];
    return 0;
}

/* initialize with the given server capabilities and client capabilities. */
static inline void handshake(mc_wire_t *w, const char *server_caps, const char *client_caps)
{
    char line[512];

    assert_int_equal(mc_wire_init(w), MC_OK);
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
             "\"2025-06-18\",\"capabilities\":%s,\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}",
             client_caps);
    out(w, line);
    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\","
             "\"capabilities\":%s,\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}",
             server_caps);
    in(w, line);
    out(w, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
}

/* A stateless (2026-07-28) request line with client capabilities caps and
 * extra _meta members (a leading comma) and params members (likewise). */
static inline void mreq(mc_wire_t *w, int id, const char *method, const char *caps, const char *meta,
                 const char *params)
{
    char line[1024];

    snprintf(line, sizeof(line),
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":{\"_meta\":{"
             "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
             "\"io.modelcontextprotocol/clientCapabilities\":%s%s}%s}}",
             id, method, caps, meta, params);
    out(w, line);
}

#endif /* MC_TESTS_WIRE_SUPPORT_H */
