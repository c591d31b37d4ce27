/*
 * instance.h - a valid instance made from a JSON Schema.
 *
 * The harness answers a server's elicitation request with content made from
 * its requestedSchema, and calls a tool with arguments made from its
 * inputSchema. The instance is the simplest value the schema accepts:
 * const, then default, then the first enum value, then a value of the
 * first type built from the type's keywords (required properties only,
 * plus optional ones that have a default; bounds, lengths, formats and
 * minimum item counts honoured). Local "$ref"s ("#/...") are followed.
 * Patterns are not solved: a string with a pattern may not match it.
 */
#ifndef MC_SCENARIO_INSTANCE_H
#define MC_SCENARIO_INSTANCE_H

#include <json-c/json.h>

/* Nesting followed at most while building an instance. */
#define MC_INSTANCE_MAX_DEPTH 16
/* Properties and array items built per level at most. */
#define MC_INSTANCE_MAX_MEMBERS 64

/*
 * Builds an instance of schema (borrowed). Returns MC_OK and a new reference
 * in *out (caller puts it; JSON null is NULL), or MC_ENOMEM.
 */
int mc_instance_make(json_object *schema, json_object **out);

/*
 * Completes the client's answer to a server request: when method is
 * elicitation/create, result accepts ("action": "accept") without content,
 * and params carry a requestedSchema with a type, adds "content" made by
 * mc_instance_make from that schema. Anything else leaves result as it is
 * (also when the instance cannot be made).
 */
void mc_instance_fill_accept(const char *method, json_object *params, json_object *result);

#endif /* MC_SCENARIO_INSTANCE_H */
