/*
 * uri.h - RFC 3986 URI syntax checks (ASCII only: an IRI is not a URI).
 *
 * Each reads exactly len bytes (s need not be NUL-terminated) and never
 * allocates. Returns 1 when the text is valid, 0 when it is not. For the
 * looser "a scheme and no space" test MCP messages need, see
 * mc_uri_is_absolute() in core/json.h.
 */
#ifndef MC_CORE_URI_H
#define MC_CORE_URI_H

#include <stddef.h>

/* URI: a scheme, ":", and hier-part [ "?" query ] [ "#" fragment ]. */
int mc_uri_valid(const char *s, size_t len);

/* URI-reference: a URI or a relative reference. */
int mc_uri_reference_valid(const char *s, size_t len);

/* The inside of an IP-literal (between "[" and "]"): an IPv6 address
 * (checked loosely: hex groups, colons, an optional IPv4 tail, at most one
 * "::") or an IPvFuture. */
int mc_uri_ip_literal_valid(const char *s, size_t len);

/* A dotted-quad IPv4 address, each part 0-255 without leading zeros. */
int mc_uri_ipv4_valid(const char *s, size_t len);

#endif /* MC_CORE_URI_H */
