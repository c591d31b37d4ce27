/*
 * scenario_state.c - a scenario file's "state" member, read by the loader
 * (scenario.c): what the scenario changes and reads of the server's state
 * (the vocabulary of scenario/state.h), derived from its steps and added to
 * by what the file declares, and from it whether the scenario may share a
 * process after scenarios that change state.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "core/json.h"
#include "scenario/jsonc.h"
#include "scenario/lint.h"
#include "scenario/scenario.h"
#include "scenario/state.h"
#include "scenario/step.h"

/* The names of one member of "state" (an array of names of the
 * vocabulary, scenario/state.h) as bits; problems go to l. */
static unsigned state_names(mc__lint_t *l, json_object *arr, const char *ptr)
{
    unsigned bits = 0;
    size_t i;

    if (!json_object_is_type(arr, json_type_array)) {
        mc__lint_problem(l, ptr, "an array of names of server state: %s", mc_state_names());
        return 0;
    }
    for (i = 0; i < json_object_array_length(arr); i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        char at[96];
        unsigned b = mc__lint_is_str(e) ? mc_state_bit(json_object_get_string(e)) : 0;
        snprintf(at, sizeof(at), "%s/%zu", ptr, i);
        if (b == 0)
            mc__lint_problem(l, at, "not a name of server state (one of: %s)", mc_state_names());
        bits |= b;
    }
    return bits;
}

/*
 * "state": what the scenario changes and reads of the server's state, and
 * from it whether it may share a process with scenarios that change state
 * (scenario/state.h). Derived from the steps; "changes" says what the
 * steps whose effect the harness cannot tell change, "reads" adds to what
 * is derived. Profile roles are resolved by listing: a scenario with roles
 * reads lists.
 */
void mc__scenario_load_state(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    static const char *const state_keys[] = {"changes", "reads", NULL};
    json_object *v = mc_json_get(root_obj, "state"), *m;
    unsigned changes = 0, reads = 0;

    if (s->step_v != NULL)
        mc_steps_state(s->step_v, s->n_steps, &changes, &reads);
    if (l->n_roles > 0)
        reads |= MC_STATE_LISTS;
    if (s->manual_init || s->client_version != NULL || s->step_v == NULL)
        changes |= MC_STATE_OWN_PROCESS;
    if (v != NULL && !json_object_is_type(v, json_type_object)) {
        mc__lint_problem(l, "/state", "\"state\" is an object: {\"changes\": [NAME...], "
                                      "\"reads\": [NAME...]}");
        v = NULL;
    }
    if (v != NULL) {
        mc__lint_only_keys(l, v, "/state", "\"state\"", state_keys);
        if ((m = mc_json_get(v, "changes")) != NULL) {
            unsigned declared = state_names(l, m, "/state/changes");
            if (changes & MC_STATE_OWN_PROCESS)
                mc__lint_problem(l, "/state/changes",
                                 "\"changes\" is for a scenario that may share a process; this "
                                 "one needs one of its own (it does the lifecycle itself, pins "
                                 "a version, sends a notification step, reconnects, or sends a "
                                 "request it does not wait for)");
            changes = (changes & ~MC_STATE_UNKNOWN) | declared;
        }
        if ((m = mc_json_get(v, "reads")) != NULL)
            reads |= state_names(l, m, "/state/reads");
    }
    s->state_changes = changes;
    s->state_reads = reads;
    s->chainable = s->shareable ||
                   (changes & (MC_STATE_UNKNOWN | MC_STATE_OWN_PROCESS)) == 0;
}
