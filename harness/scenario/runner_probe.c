/*
 * runner_probe.c - the runner's own runs of a scenario of no steps: the
 * version probe (mc_runner_probe) and the behaviour probe
 * (mc_runner_behaviours), in runner.h.
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/version.h"

/* A scenario of the runner's own, of no steps, at every version: a probe's
 * run (the strings are static). */
static void probe_scenario(mc_scenario_t *sc, const char *area, const char *id, const char *title,
                           const char *file, json_object *steps)
{
    memset(sc, 0, sizeof(*sc));
    sc->id = (char *)id;
    sc->area = (char *)area;
    sc->title = title;
    sc->doc.name = (char *)file;
    sc->version_mask = (1u << MC_V_COUNT) - 1;
    sc->steps = steps;
}

int mc_runner_probe(const mc_runner_opts_t *o, const char *version, mc_probe_t *p)
{
    mc_scenario_t sc;
    mc_runner_opts_t po = *o;
    json_object *steps = json_object_new_array();
    int rc;

    p->outcome = MC_PROBE_FAILED;
    p->method[0] = p->version[0] = p->why[0] = '\0';
    p->answer_ms = -1;
    p->silent = 0;
    memset(&p->result, 0, sizeof(p->result));
    if (steps == NULL)
        return MC_ENOMEM;
    /* A scenario of no steps: start, initialize at version, shut down. */
    probe_scenario(&sc, "lifecycle", "lifecycle/version-probe",
                   "which protocol versions the server speaks", "(version probe)", steps);
    po.version = version;
    snprintf(p->method, sizeof(p->method), "%s",
             mc_version_has(version, MC_VF_STATELESS) ? "server/discover" : "initialize");
    rc = mc__runner_run(&sc, &po, &p->result, p, NULL, NULL);
    json_object_put(steps);
    if (rc != MC_OK) {
        mc_sresult_free(&p->result);
        return rc;
    }
    if (p->outcome == MC_PROBE_SPOKEN || p->outcome == MC_PROBE_COUNTER)
        snprintf(p->version, sizeof(p->version), "%s",
                 p->result.version != NULL ? p->result.version : "");
    return MC_OK;
}

int mc_runner_behaviours(const mc_runner_opts_t *o, const char *version, json_object **out)
{
    mc_scenario_t sc;
    mc_scenario_result_t res;
    mc_runner_opts_t po = *o;
    json_object *steps = json_object_new_array(), *caps = json_tokener_parse(
        "{\"roots\": {\"listChanged\": true}, \"sampling\": {}, "
        "\"elicitation\": {\"form\": {}, \"url\": {}}}");
    int rc;

    *out = json_object_new_object();
    if (steps == NULL || caps == NULL || *out == NULL) {
        json_object_put(steps);
        json_object_put(caps);
        json_object_put(*out);
        *out = NULL;
        return MC_ENOMEM;
    }
    memset(&res, 0, sizeof(res));
    probe_scenario(&sc, "discovery", "discovery/behaviour-probe",
                   "what the server's tools and prompts do when used", "(behaviour probe)", steps);
    sc.client_caps = caps;
    po.version = version;
    po.shared = NULL;
    rc = mc__runner_run(&sc, &po, &res, NULL, *out, NULL);
    if (rc == MC_OK) {
        json_object_object_add(*out, "version",
                               json_object_new_string(res.version != NULL ? res.version : version));
        if (mc_json_get(*out, "roles") == NULL)
            json_object_object_add(*out, "failed",
                                   json_object_new_string(res.reason != NULL
                                                              ? res.reason
                                                              : "the handshake did not complete"));
    } else {
        json_object_put(*out);
        *out = NULL;
    }
    mc_sresult_free(&res);
    json_object_put(steps);
    json_object_put(caps);
    return rc;
}
