/*
 * runner_caps.c - what the suite learns of the capabilities the target
 * declares, so that a scenario that needs one it does not declare is
 * skipped before a server is started for it (see runner_int.h).
 *
 * The first run at a version that completes its handshake at that version
 * keeps the declared capabilities; a later run at the same version that
 * requires one of them which is not there is SKIP at once, with the same
 * reason a live run gives and a note that an earlier run saw it. Starting a
 * server only to read a capability it never declared costs a process start
 * per scenario (for an interpreted server, most of a run).
 */
#include "scenario/runner_int.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/version.h"

static void lock(mc_runner_shared_t *sh)
{
    int expected = 0;

    while (!atomic_compare_exchange_weak(&sh->caps_lock, &expected, 1))
        expected = 0;
}

void mc__runner_caps_note(rctx_t *c)
{
    mc_runner_shared_t *sh = c->o->shared;
    const mc_version_info_t *v = mc_version_find(c->version);
    const char *text;

    if (sh == NULL || v == NULL || c->s.server_caps == NULL ||
        strcmp(c->version, c->o->version != NULL ? c->o->version : "") != 0)
        return;
    text = json_object_to_json_string_ext(c->s.server_caps, JSON_C_TO_STRING_PLAIN);
    if (text == NULL || strlen(text) >= MC_RUNNER_CAPS_LEN)
        return;
    lock(sh);
    if (sh->caps[v->id][0] == '\0')
        snprintf(sh->caps[v->id], MC_RUNNER_CAPS_LEN, "%s", text);
    atomic_store(&sh->caps_lock, 0);
}

int mc__runner_caps_gate(rctx_t *c, const char *want_version)
{
    mc_runner_shared_t *sh = c->o->shared;
    const mc_version_info_t *v = mc_version_find(want_version);
    const mc_scenario_t *sc = c->sc;
    char text[MC_RUNNER_CAPS_LEN];
    json_object *caps;
    size_t i, n = sc->requires_caps != NULL ? json_object_array_length(sc->requires_caps) : 0;
    int skip = 0;

    if (sh == NULL || v == NULL || n == 0 || sc->manual_init || sc->client_version != NULL)
        return 0;
    lock(sh);
    snprintf(text, sizeof(text), "%s", sh->caps[v->id]);
    atomic_store(&sh->caps_lock, 0);
    if (text[0] == '\0' || (caps = json_tokener_parse(text)) == NULL)
        return 0;
    for (i = 0; i < n && !skip; i++) {
        const char *cap = json_object_get_string(json_object_array_get_idx(sc->requires_caps, i));
        if (!mc__runner_server_has(caps, cap)) {
            mc_sresult_set(c->res, MC_SKIP,
                           "the server does not declare the \"%s\" capability (at %s, as an "
                           "earlier run of this suite saw; no server was started for this one)",
                           cap, want_version);
            skip = 1;
        }
    }
    json_object_put(caps);
    return skip ? -1 : 0;
}

/*
 * A version the server does not speak. A run whose handshake at a version
 * is answered that the server does not speak it (an error, another version
 * it cannot negotiate) is SKIP; every later run of the suite at that
 * version, of a scenario that does its handshake through the runner, would
 * start a server to be told the same. The first such run keeps its reason
 * when its result is that SKIP with nothing but passed checks, and a later
 * run is the same SKIP for the same reason without a server: the verdict,
 * the reason and the checks that did not pass (none) are what a fresh
 * process gives it.
 */
void mc__runner_unspoken_note(rctx_t *c)
{
    mc_runner_shared_t *sh = c->o->shared;
    const mc_version_info_t *v = mc_version_find(c->version);
    const mc_scenario_result_t *r = c->res;
    size_t i;

    if (!c->unspoken || sh == NULL || v == NULL || c->probe != NULL || c->behave != NULL ||
        r->verdict != MC_SKIP || r->reason == NULL || strlen(r->reason) >= MC_RUNNER_UNSPOKEN_LEN)
        return;
    for (i = 0; i < r->n_checks; i++)
        if (r->checks[i].verdict != MC_PASS)
            return;
    lock(sh);
    if (sh->unspoken[v->id][0] == '\0')
        snprintf(sh->unspoken[v->id], MC_RUNNER_UNSPOKEN_LEN, "%s", r->reason);
    atomic_store(&sh->caps_lock, 0);
}

int mc__runner_unspoken_gate(rctx_t *c, const char *want_version)
{
    mc_runner_shared_t *sh = c->o->shared;
    const mc_version_info_t *v = mc_version_find(want_version);
    char why[MC_RUNNER_UNSPOKEN_LEN];

    if (sh == NULL || v == NULL || c->sc->manual_init || c->sc->client_version != NULL ||
        c->probe != NULL || c->behave != NULL)
        return 0;
    lock(sh);
    snprintf(why, sizeof(why), "%s", sh->unspoken[v->id]);
    atomic_store(&sh->caps_lock, 0);
    if (why[0] == '\0')
        return 0;
    mc_sresult_set(c->res, MC_SKIP, "%s", why);
    return -1;
}
