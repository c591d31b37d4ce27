/*
 * xmcpheader.h - the x-mcp-header annotations of a tool's inputSchema
 * (2026-07-28 basic/transports/streamable-http#schema-extension): each is a
 * non-empty HTTP field-name token, unique in the schema regardless of case,
 * on a parameter of type integer, string or boolean reached from the root
 * through properties keys alone. The client rejects a tool that breaks
 * them (mirrors none of its parameters); the judge holds the server to
 * them. Pure JSON, no I/O.
 */
#ifndef MC_CORE_XMCPHEADER_H
#define MC_CORE_XMCPHEADER_H

#include <stddef.h>

#include <json-c/json.h>

/* Bytes of the words saying what an annotation breaks. */
#define MC_XMCP_HEADER_WHY 200
/* Distinct annotation names compared for uniqueness in one schema. */
#define MC_XMCP_HEADER_MAX_NAMES 32

/*
 * Checks the annotations of schema (borrowed). Returns the number of
 * annotations when they keep the rules (0: none), or -1 with the first
 * problem in why (cap bytes, always terminated).
 */
int mc_xmcp_header_check(json_object *schema, char *why, size_t cap);

#endif /* MC_CORE_XMCPHEADER_H */
