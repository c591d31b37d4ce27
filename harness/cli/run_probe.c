/*
 * run_probe.c - `mcpcheck run`'s version probe: which protocol versions the
 * target speaks, asked with one initialize (server/discover at 2026-07-28) per
 * version before the run.
 */
#include <stdio.h>
#include <string.h>

#include "cli/run.h"
#include "client/session.h"

size_t mc_cli_run_probe(const mc_runner_opts_t *ro, const char **out,
                        mc_scenario_result_t *failed)
{
    /* The probes count against a record of their own: the target is given
     * up on when no probe completed and one stayed silent for its whole
     * start-up budget or two failed (as in a run); a version refused by a
     * server that accepted another is only an answer. Giving up is then
     * handed to the run's record, so the run starts nothing and says why. */
    static mc_runner_shared_t probes;
    mc_runner_opts_t po = *ro;
    const char *const *names = mc_version_names();
    const char *spoken[MC_V_COUNT + 1], *answered[MC_V_COUNT + 1];
    size_t n_spoken = 0, n_answered = 0, count = 0, k;
    int id;

    out[0] = NULL;
    while (names[count] != NULL)
        count++;
    for (id = (int)count - 1; id >= 0 && !(ro->stop != NULL && *ro->stop); id--) {
        char got[32], why[600];
        const char *v = names[id];
        if (!mc_protocol_version_known(v))
            continue;
        po.shared = &probes;
        mc_sresult_free(failed);
        memset(failed, 0, sizeof(*failed));
        if (mc_runner_probe(&po, v, got, sizeof(got), why, sizeof(why), failed) != MC_OK) {
            printf("version probe: %s: %s\n", v, why);
            continue;
        }
        if (strcmp(got, v) == 0) {
            spoken[n_spoken++] = v;
            continue;
        }
        printf("version probe: %s: the server answered %s\n", v, got);
        for (k = 0; k < n_answered && strcmp(answered[k], got) != 0; k++)
            ;
        if (k == n_answered && mc_version_find(got) != NULL && mc_protocol_version_known(got))
            answered[n_answered++] = mc_version_find(got)->name;
    }
    if (!probes.abort) {
        mc_sresult_free(failed);
        memset(failed, 0, sizeof(*failed));
    }
    if (probes.abort && ro->shared != NULL) {
        ro->shared->unusable = probes.unusable;
        snprintf(ro->shared->reason, sizeof(ro->shared->reason), "%s", probes.reason);
        ro->shared->reason_set = 1;
        ro->shared->abort = 1;
    }
    if (n_spoken == 0 && n_answered == 0)
        return 0;
    /* Oldest first. */
    k = 0;
    for (id = 0; names[id] != NULL; id++) {
        size_t a;
        int in = 0;
        for (a = 0; a < n_spoken; a++)
            in |= strcmp(spoken[a], names[id]) == 0;
        for (a = 0; n_spoken == 0 && a < n_answered; a++)
            in |= strcmp(answered[a], names[id]) == 0;
        if (in)
            out[k++] = names[id];
    }
    out[k] = NULL;
    printf("versions: the server speaks");
    for (k = 0; out[k] != NULL; k++)
        printf("%s %s", k > 0 ? "," : "", out[k]);
    printf("%s\n", n_spoken == 0 ? " (as it answered; it accepted none as offered)" : "");
    fflush(stdout);
    return k;
}
