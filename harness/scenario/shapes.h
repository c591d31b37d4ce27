/*
 * shapes.h - the shape each role needs, and the listed item that has it.
 *
 * A role names a shape: "a prompt with a required argument", "a listed
 * resource whose read returns text". When neither the profile nor the
 * official fixture name maps a role to something the server lists, the
 * resolver (fixtures.c) asks this module for a listed item of the role's
 * shape. Only shapes that the listings (and, for resources, one read) can
 * show are picked; a role whose contract is behaviour (a tool that sends
 * elicitation/create, a tool that reports progress) has words for its
 * shape, so a NOT-VERIFIED reason can say what is missing, but is never
 * picked.
 *
 * Data roles of a picked item are derived from the listing, never taken
 * from the profile (whose values belong to the name it maps):
 *   prompt.X.args       {"$arguments": ARGUMENTS}: each required argument
 *                       filled by the runner (runner_steps.c)
 *   prompt.X.required   the name of the prompt's first required argument
 *   tool.X.args         {"$instance": INPUTSCHEMA}: an instance made by the
 *                       runner (scenario/instance.h)
 *   resource.template.variable   the template's first {variable}
 * resource.template_instance is a URI made from a listed template with one
 * plain {variable}, its value the first that completion/complete offers.
 */
#ifndef MC_SCENARIO_SHAPES_H
#define MC_SCENARIO_SHAPES_H

#include <stddef.h>

#include <json-c/json.h>

#include "scenario/fixtures.h"

/* Listed resources read at most while looking for a text or binary one
 * (and templates whose variable is completed, for a template instance). */
#define MC_SHAPE_MAX_READS 8
/* Bytes of a URI made from a template. */
#define MC_SHAPE_MAX_URI 2048

/* Words for the shape role needs ("a prompt with a required argument"), for
 * reasons and summaries. Never NULL: a role without an entry gets words
 * saying the profile must map it. */
const char *mc_role_shape(const char *role);

/* The i-th fixture role with a shape (in the order profiles/README.md lists
 * them), or NULL past the last. */
const char *mc_role_shape_at(size_t i);

/* How the behaviour probe (scenario/runner.h) sees a role whose shape is
 * behaviour: MC_SEEN_CALL by calling a tool, MC_SEEN_GET by getting a
 * prompt; 0 for a role it does not see. */
#define MC_SEEN_CALL 1
#define MC_SEEN_GET 2
int mc_role_seen_by(const char *role);

/* True when role (a fixture role of kind TOOL..TEMPLATE) can be filled by a
 * listed item of its shape. */
int mc_role_shape_pickable(const char *role);

/*
 * Picks a listed item of role's shape over session s. On MC_ROLE_OFFERED,
 * *name is a new string value (the item's name, URI or URI template; the
 * caller puts it) and *item a new reference to the listed item (the caller
 * puts it). Otherwise why says, in one sentence, that no listed item has
 * the shape; *srv_rc is set as mc_fixture_resolve does.
 */
mc_role_status_t mc__shape_pick(mc_session_t *s, mc_offer_t *o, const mc_fixture_opts_t *opts,
                                const char *role, json_object **name, json_object **item,
                                char *why, size_t n, int *srv_rc);

/*
 * The value of data role `suffix` ("args", "required", "variable") of the
 * listed item of a fixture of kind `kind`. Returns a new reference, or NULL
 * when the listing cannot give one (the profile must map it).
 */
json_object *mc__shape_data(mc_role_kind_t kind, json_object *item, const char *suffix);

#endif /* MC_SCENARIO_SHAPES_H */
