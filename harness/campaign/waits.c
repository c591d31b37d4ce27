/*
 * waits.c - where a worker's executors spent their time, written to the
 * campaign folder as waits.tsv (worker 0) or waits-wN.tsv: one line for
 * the persistent process's executor, one for the fresh runs that confirm
 * edges, and one for the confirmer's fresh runs (confirming, minimizing
 * and recording findings): process starts and their session prefix,
 * barriers and their round trips, waits of the hang budget, sequences sent
 * ahead (mc_exec_counters_t).
 */
#include <stdio.h>

#include "campaign/exec.h"
#include "campaign/internal.h"

/* The longest path of the file written. */
#define WAITS_PATH_LEN 4096

void mc__camp_write_waits(const mc_campaign_opts_t *o, const mc_exec_t *x, const mc_exec_t *fx,
                          mc_exec_counters_t cx)
{
    char path[WAITS_PATH_LEN], name[64];
    mc_exec_counters_t ks[3];
    static const char *const role[] = {"persistent", "fresh", "confirm"};
    FILE *f;
    size_t i;

    ks[0] = mc_exec_counters(x);
    ks[1] = mc_exec_counters(fx);
    ks[2] = cx;
    if (o->worker == 0)
        snprintf(name, sizeof(name), "waits.tsv");
    else
        snprintf(name, sizeof(name), "waits-w%d.tsv", o->worker);
    if (snprintf(path, sizeof(path), "%s/%s", o->out_dir, name) >= (int)sizeof(path) ||
        (f = fopen(path, "w")) == NULL)
        return;
    fprintf(f, "executor\tstarts\tstart_ms\tbarriers\tbarrier_ms\thang_waits\thang_wait_ms\t"
               "sent_ahead\n");
    for (i = 0; i < 3; i++) {
        mc_exec_counters_t k = ks[i];
        fprintf(f, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n", role[i],
                (unsigned long long)k.starts, (unsigned long long)k.start_ms,
                (unsigned long long)k.barriers, (unsigned long long)k.barrier_ms,
                (unsigned long long)k.hang_waits, (unsigned long long)k.hang_wait_ms,
                (unsigned long long)k.sent_ahead);
    }
    fclose(f);
}

