/*
 * fastimpl.h - what the performance machinery's files (decode.c, textout.c,
 * respcache.c, sharedcache.c, clone.c) share among themselves. Nothing else
 * includes it: the rest of the server sees refserver/fast.h only.
 */
#ifndef MC_REFSERVER_FASTIMPL_H
#define MC_REFSERVER_FASTIMPL_H

#include "refserver/internal.h"

/* True when messages may be written as text: no violation switch, no batch
 * being collected, nothing to pretty-print, not a stateless request. */
int mc__rs_text_ok(const mc_refserver_t *rs);

/* Sends {"jsonrpc":"2.0","id":ID,"result":BODY}, body being body[0..len)
 * compact JSON. id is borrowed. Only while mc__rs_text_ok() holds. */
void mc__rs_result_body(mc_refserver_t *rs, json_object *id, const char *body, size_t len);

/* True when responses may be written from kept bodies: mc__rs_text_ok() and
 * a version is negotiated. */
int mc__rs_splice_ok(const mc_refserver_t *rs);

/* Frees the kept bodies of a session (respcache.c). */
void mc__rs_cache_free(mc_refserver_t *rs);

/* The body kept for the page of list at start, when it is the body the
 * session now serves there (same key), else NULL (respcache.c). */
const rs_body_t *mc__rs_page_kept(mc_refserver_t *rs, uint32_t list, size_t start);

/* Copies body b into the shared set c, unless it holds that key already.
 * Returns 0, or -1 when memory runs out (respcache.c). */
int mc__rs_shared_add(struct mc_refserver_cache *c, const rs_body_t *b);

#endif /* MC_REFSERVER_FASTIMPL_H */
