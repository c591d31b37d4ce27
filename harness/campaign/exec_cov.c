/*
 * exec_cov.c - the AFL++ shared-memory coverage map.
 *
 * Promises: the map is a private System V segment of map_size bytes,
 * marked for removal as soon as it is attached (it goes with the last
 * detach, even when mcpcheck is killed); the target's environment is the
 * caller's with __AFL_SHM_ID and AFL_MAP_SIZE naming it (any such entries of
 * the caller's own left out); reading the map classifies each entry by
 * AFL++'s hit-count buckets (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+) against
 * the bits ever set, so that an entry is new when it sets a bit never set,
 * and an edge is new when it is hit for the first time; each entry counts
 * the sequences that hit it (the rarity the scheduler reads).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include "campaign/exec_internal.h"

extern char **environ;

/* Environment entries copied for the target at most. */
#define MAX_ENV 4096

static int build_env(mc_exec_t *x)
{
    size_t n = 0, i, k = 0;
    char buf[64];

    while (environ[n] != NULL && n < MAX_ENV)
        n++;
    x->envp = calloc(n + 3, sizeof(char *));
    if (x->envp == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        if (strncmp(environ[i], "__AFL_SHM_ID=", 13) == 0 ||
            strncmp(environ[i], "AFL_MAP_SIZE=", 13) == 0)
            continue;
        x->envp[k++] = environ[i]; /* borrowed: environ outlives us */
    }
    snprintf(buf, sizeof(buf), "__AFL_SHM_ID=%d", x->shm_id);
    x->envp[k++] = strdup(buf);
    snprintf(buf, sizeof(buf), "AFL_MAP_SIZE=%zu", x->map_size);
    x->envp[k++] = strdup(buf);
    x->envp[k] = NULL;
    return x->envp[k - 1] != NULL && x->envp[k - 2] != NULL ? 0 : -1;
}

int mc__exec_cov_open(mc_exec_t *x, mc_errbuf_t *eb)
{
    x->map_size = x->o.map_size ? x->o.map_size : MC_EXEC_MAP_SIZE;
    x->shm_id = shmget(IPC_PRIVATE, x->map_size, IPC_CREAT | IPC_EXCL | 0600);
    if (x->shm_id < 0)
        return mc_errbuf_set(eb, MC_EIO, "cannot create the coverage map (shmget)");
    x->map = shmat(x->shm_id, NULL, 0);
    /* Marked for removal now: it goes away with the last detach, even
     * if we are killed. */
    shmctl(x->shm_id, IPC_RMID, NULL);
    if (x->map == (void *)-1) {
        x->map = NULL;
        return mc_errbuf_set(eb, MC_EIO, "cannot attach the coverage map (shmat)");
    }
    x->virgin = calloc(1, x->map_size);
    x->credited = calloc(1, x->map_size);
    x->newly = calloc(MC__EXEC_MAX_NEWLY, sizeof(*x->newly));
    x->hits = calloc(x->map_size, sizeof(*x->hits));
    if (x->virgin == NULL || x->credited == NULL || x->newly == NULL || x->hits == NULL ||
        build_env(x) != 0)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    return MC_OK;
}

void mc__exec_cov_close(mc_exec_t *x)
{
    if (x->map != NULL)
        shmdt(x->map);
    x->map = NULL;
    if (x->envp != NULL) {
        size_t i;
        for (i = 0; x->envp[i] != NULL; i++)
            if (strncmp(x->envp[i], "__AFL_SHM_ID=", 13) == 0 ||
                strncmp(x->envp[i], "AFL_MAP_SIZE=", 13) == 0)
                free(x->envp[i]);
        free(x->envp);
        x->envp = NULL;
    }
    free(x->virgin);
    x->virgin = NULL;
    free(x->credited);
    x->credited = NULL;
    free(x->newly);
    x->newly = NULL;
    free(x->hits);
    x->hits = NULL;
}

void mc__exec_cov_clear(mc_exec_t *x)
{
    if (x->map != NULL)
        memset(x->map, 0, x->map_size);
}

/* AFL++'s hit-count buckets. */
static uint8_t bucket(uint8_t v)
{
    if (v == 0)
        return 0;
    if (v <= 3)
        return v == 3 ? 4 : v;
    if (v <= 7)
        return 8;
    if (v <= 15)
        return 16;
    if (v <= 31)
        return 32;
    if (v <= 127)
        return 64;
    return 128;
}

/* Sets the entries the last sequence lit (that stood) to the first
 * MC_EXEC_MAX_LIT of e[0..n). */
static void set_lit(mc_exec_t *x, const uint32_t *e, size_t n)
{
    x->n_lit = n < MC_EXEC_MAX_LIT ? n : MC_EXEC_MAX_LIT;
    if (x->n_lit > 0)
        memcpy(x->lit, e, x->n_lit * sizeof(*e));
}

/* Reads the map after a sequence: returns the entries with new bits and
 * puts in *edges those hit for the first time. */
size_t mc__exec_cov_read(mc_exec_t *x, size_t *edges)
{
    size_t i, fresh = 0;
    const uint64_t *w = (const uint64_t *)x->map;

    x->n_newly = 0;
    x->newly_over = 0;
    for (i = 0; i < x->map_size / 8; i++) {
        size_t k;
        if (w[i] == 0)
            continue;
        x->instrumented = 1;
        for (k = i * 8; k < i * 8 + 8; k++) {
            uint8_t b = bucket(x->map[k]);
            if (b != 0 && x->hits[k] != UINT32_MAX)
                x->hits[k]++;
            if (b != 0 && (x->virgin[k] & b) != b) {
                if (x->virgin[k] == 0) {
                    x->cov_total++;
                    (*edges)++;
                    if (x->n_newly < MC__EXEC_MAX_NEWLY)
                        x->newly[x->n_newly++] = (uint32_t)k;
                    else
                        x->newly_over = 1;
                }
                x->virgin[k] |= b;
                fresh++;
            }
        }
    }
    set_lit(x, x->newly, x->n_newly);
    return fresh;
}

size_t mc__exec_cov_credit(mc_exec_t *x, int elem)
{
    size_t i, n = 0;
    const uint64_t *w = (const uint64_t *)x->map;

    if (x->map == NULL || elem < 0 || x->cur == NULL || x->confirming)
        return 0;
    /* An entry credited once has its virgin bits set by the read at the end
     * of the sequence, so the marks need no clearing between sequences. */
    for (i = 0; i < x->map_size / 8; i++) {
        size_t k;
        if (w[i] == 0)
            continue;
        for (k = i * 8; k < i * 8 + 8; k++)
            if (x->map[k] != 0 && x->virgin[k] == 0 && x->credited[k] == 0) {
                x->credited[k] = 1;
                n++;
            }
    }
    if (n > 0 && (size_t)elem < sizeof(x->cur->elem_edges)) {
        unsigned v = x->cur->elem_edges[elem] + (unsigned)n;
        x->cur->elem_edges[elem] = (unsigned char)(v > UCHAR_MAX ? UCHAR_MAX : v);
        if (elem > x->cur->last_edge_elem)
            x->cur->last_edge_elem = elem;
    }
    return n;
}

size_t mc__exec_cov_confirm(mc_exec_t *x, const uint8_t *fresh, int all_new)
{
    size_t i, kept = 0;

    if (x->map == NULL || (x->newly_over && !all_new)) {
        kept = x->n_newly;
        x->n_newly = 0;
        return kept;
    }
    x->n_lit = 0;
    for (i = 0; i < x->n_newly; i++) {
        uint32_t k = x->newly[i];
        if (!all_new && fresh[k] != 0) {
            if (x->n_lit < MC_EXEC_MAX_LIT)
                x->lit[x->n_lit++] = k;
            kept++;
            continue;
        }
        /* Owed to what the process carried in (or not confirmed): new
         * again, so that the sequence that reaches it from a fresh start
         * is the one credited. */
        x->virgin[k] = 0;
        x->credited[k] = 0;
        x->cov_total--;
    }
    x->n_newly = 0;
    return kept;
}
