/*
 * http_limits.h - every size and time the Streamable HTTP client caps.
 *
 * A server under test is hostile: nothing it sends grows a buffer past one
 * of these, and no wait lasts longer than the caller's deadline or these.
 */
#ifndef MC_CLIENT_HTTP_LIMITS_H
#define MC_CLIENT_HTTP_LIMITS_H

#include "core/limits.h"

/* One SSE line (a field and its value) may hold a whole message plus the
 * field name. Longer lines are skipped and the event is reported oversize. */
#define MC_SSE_MAX_LINE (MC_MAX_MESSAGE_SIZE + 64u)
/* The data of one SSE event (all its data lines joined). */
#define MC_SSE_MAX_DATA MC_MAX_MESSAGE_SIZE
/* An SSE event name and an SSE event id. */
#define MC_SSE_MAX_EVENT_NAME 256u
#define MC_SSE_MAX_ID 256u
/* Comment lines are counted, never stored. */

/* A plain (application/json) response body. */
#define MC_HTTP_MAX_BODY MC_MAX_MESSAGE_SIZE
/* Bytes of a response body that is neither JSON nor SSE kept for the report. */
#define MC_HTTP_MAX_OTHER_BODY 4096u
/* All response header bytes of one response. */
#define MC_HTTP_MAX_HEADER_BYTES (64u * 1024u)
/* A Mcp-Session-Id value (the spec allows visible ASCII; longer is refused). */
#define MC_HTTP_MAX_SESSION_ID 256u
/* A Content-Type value kept for the transcript. */
#define MC_HTTP_MAX_CTYPE 128u
/* HTTP streams (POSTs, the GET stream, the DELETE) open at once. */
#define MC_HTTP_MAX_STREAMS 64
/* The compact JSON of a request id kept to pair its answer with the POST
 * that carried it (where a response may come, resumption, refusals). A
 * longer id is noted and its answer left unpaired, never cut. */
#define MC_HTTP_MAX_REQ_ID 512u
/* The request ids of the last notifications/cancelled the client POSTed:
 * the stream of a cancelled request may end without its response. */
#define MC_HTTP_MAX_CANCELLED 16u
/* Time allowed to connect to the server. */
#define MC_HTTP_CONNECT_TIMEOUT_MS 5000
/* Time the DELETE at session end may take. */
#define MC_HTTP_DELETE_TIMEOUT_MS 2000
/* A response that sends fewer than MC_HTTP_LOW_SPEED_BYTES bytes per second
 * for MC_HTTP_LOW_SPEED_SECONDS is dropped (a slow drip). Streams that are
 * idle by design (the GET stream, an SSE response awaiting its answer) are
 * exempt; their wait is bounded by the caller's deadline. */
#define MC_HTTP_LOW_SPEED_BYTES 1
#define MC_HTTP_LOW_SPEED_SECONDS 30
/* Resumability: an SSE stream that ends before the response to its request
 * arrived is resumed with GET and Last-Event-ID, at most this many times in
 * a row without a new event. */
#define MC_HTTP_RESUME_ATTEMPTS 5
/* ... and at most this many times in all for one request, events or not
 * (a server that closes after every event cannot keep the client busy). */
#define MC_HTTP_RESUME_MAX_PER_REQUEST 64
/* The wait before a resumption when the server sent no retry field. */
#define MC_HTTP_RESUME_DEFAULT_DELAY_MS 100
/* The longest retry field honoured: a stream whose server asks for a longer
 * wait is not resumed (the request then runs into its own timeout). */
#define MC_HTTP_RESUME_MAX_DELAY_MS 10000
/* Time between the port being asked for and a started server listening. */
#define MC_HTTP_STARTUP_BUDGET_MS 10000
/* 2026-07-28, custom headers from tool parameters: tools whose x-mcp-header
 * annotations are remembered (past this the oldest is forgotten), the
 * annotations per tool, the deepest chain of properties keys followed to
 * one and the longest name part or key, and the longest value mirrored
 * into a header (a longer one is not sent). */
/* HTTP+SSE: how long the client waits for the first event of the SSE
 * stream (the endpoint event) after it opened it (a hang budget). */
#define MC_HTTP_SSE_ENDPOINT_WAIT_MS 5000
/* HTTP+SSE: the longest endpoint URI taken from the endpoint event. */
#define MC_HTTP_MAX_ENDPOINT_URL 2048u
#define MC_HTTP_MAX_TOOLS 64
#define MC_HTTP_MAX_TOOL_PARAMS 8
#define MC_HTTP_MAX_PARAM_DEPTH 4
#define MC_HTTP_MAX_PARAM_NAME 64
#define MC_HTTP_MAX_HEADER_VALUE 8192

#endif /* MC_CLIENT_HTTP_LIMITS_H */
