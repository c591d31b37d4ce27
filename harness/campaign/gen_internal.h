/*
 * gen_internal.h - what the generator (gen.c) lends the mutator
 * (gen_mutate.c). Each draws from the generator's random stream. Internal
 * to the campaign module.
 */
#ifndef MC_CAMPAIGN_GEN_INTERNAL_H
#define MC_CAMPAIGN_GEN_INTERNAL_H

#include <stddef.h>

#include <json-c/json.h>

#include "campaign/gen.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* True with probability 1/n. */
int mc__gen_one_in(mc_gen_t *g, size_t n);

/* One of the method names, field names and values the generator knows. */
const char *mc__gen_any_word(mc_gen_t *g);

/* An odd JSON value (NULL stands for JSON null): extreme numbers, odd
 * strings, deep or wide containers. A new reference. */
json_object *mc__gen_odd_value(mc_gen_t *g);

/* A name from l, or now and then a made-up or odd one; while a message is
 * made for a sequence (g->ctx), now and then one of l's that the sequence
 * already names. Borrowed: copy it before changing g->ctx. */
const char *mc__gen_pick_name(mc_gen_t *g, const mc_gen_list_t *l);

/* One of the names of l (a URI list stands for both) that g->ctx already
 * names, at random, or NULL (gen_mutate.c). Borrowed from g->ctx. */
const char *mc__gen_used_name(mc_gen_t *g, const mc_gen_list_t *l);

/* A log level: one of the eight of the spec, or now and then "verbose",
 * which is none of them. */
const char *mc__gen_level(mc_gen_t *g);

/* The notifications filter of a subscriptions/listen request (a new
 * reference): each change kind opted in to (or, now and then, out of) at
 * random, and now and then resourceSubscriptions naming URIs the server
 * revealed (gen_stateless.c). */
json_object *mc__gen_listen_filter(mc_gen_t *g);

/* Sets io.modelcontextprotocol/logLevel in the params._meta of request msg
 * (made when absent; left alone when either is there but no object), the
 * per-request log level of the stateless protocol (gen_stateless.c). */
void mc__gen_log_level(mc_gen_t *g, json_object *msg);

#endif /* MC_CAMPAIGN_GEN_INTERNAL_H */
