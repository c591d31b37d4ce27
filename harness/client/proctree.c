/*
 * proctree.c - the processes a target leaves behind: the sweep of its
 * process tree (every descendant that carries its MC_PROC_TREE_ENV tag or
 * was re-parented to this process) and of orphans no live target owns,
 * read from /proc. The spawn, the pipes and the waits are in process.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client/process.h"
#include "client/process_internal.h"
#include "core/clock.h"

int mc_proc_supervise_init(void)
{
#ifdef PR_SET_CHILD_SUBREAPER
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
        return MC_OK;
#endif
    return MC_EUNSUPPORTED;
}

/* One process of the system, as /proc shows it. */
typedef struct proc_ent {
    pid_t pid, ppid;
    char state;
} proc_ent_t;

/* Reads pid's parent and state from /proc/PID/stat. Returns 0 on success. */
static int read_stat(pid_t pid, pid_t *ppid, char *state)
{
    char path[64], buf[512];
    const char *rp;
    ssize_t n;
    int fd;
    long pp;
    char *end;

    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* The command name may hold spaces and parentheses: parse after the last ')'. */
    rp = strrchr(buf, ')');
    if (rp == NULL || rp[1] != ' ' || rp[2] == '\0' || rp[3] != ' ')
        return -1;
    *state = rp[2];
    pp = strtol(rp + 4, &end, 10);
    if (end == rp + 4)
        return -1;
    *ppid = (pid_t)pp;
    return 0;
}

/* Fills ents with up to cap processes of the system. Returns the count. */
static size_t scan_procs(proc_ent_t *ents, size_t cap)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    size_t n = 0;

    if (d == NULL)
        return 0;
    while (n < cap && (de = readdir(d)) != NULL) {
        char *end;
        long v;
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        v = strtol(de->d_name, &end, 10);
        if (*end != '\0' || v <= 0)
            continue;
        ents[n].pid = (pid_t)v;
        if (read_stat(ents[n].pid, &ents[n].ppid, &ents[n].state) == 0)
            n++;
    }
    closedir(d);
    return n;
}

/* True when pid's environment holds "MC_PROC_TREE_ENV=tag". */
static int carries_tag(pid_t pid, const char *tag)
{
    char path[64], want[sizeof(MC_PROC_TREE_ENV) + 64];
    static const size_t cap = 64u * 1024u;
    char *buf;
    size_t have = 0, wl;
    int fd, found = 0;

    wl = (size_t)snprintf(want, sizeof(want), "%s=%s", MC_PROC_TREE_ENV, tag) + 1; /* with NUL */
    snprintf(path, sizeof(path), "/proc/%ld/environ", (long)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    buf = malloc(cap + 1);
    if (buf != NULL) {
        for (;;) {
            ssize_t n = read(fd, buf + have, cap - have);
            if (n <= 0)
                break;
            have += (size_t)n;
            if (have == cap)
                break;
        }
        buf[have] = '\0';
        for (size_t off = 0; off < have;) {
            size_t l = strnlen(buf + off, have - off);
            if (l + 1 == wl && memcmp(buf + off, want, wl - 1) == 0) {
                found = 1;
                break;
            }
            off += l + 1;
        }
        free(buf);
    }
    close(fd);
    return found;
}

static int in_set(const pid_t *set, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == pid)
            return 1;
    return 0;
}

/*
 * Stops, then kills, every process in the set seeded by seed() and closed
 * under parenthood; reaps those that are our children. Returns how many
 * were killed.
 */
typedef int (*seed_fn)(void *ctx, const proc_ent_t *e, pid_t self);

static unsigned kill_closure(seed_fn seed, void *ctx, pid_t spare)
{
    proc_ent_t *ents = malloc(MC_MAX_TREE_PROCS * sizeof(*ents));
    pid_t *set = malloc(MC_MAX_TREE_PROCS * sizeof(*set));
    size_t n_set = 0, i;
    pid_t self = getpid();
    int round;

    if (ents == NULL || set == NULL) {
        free(ents);
        free(set);
        return 0;
    }
    for (round = 0; round < MC_TREE_KILL_ROUNDS; round++) {
        size_t n = scan_procs(ents, MC_MAX_TREE_PROCS), before = n_set;
        int grew = 1;
        for (i = 0; i < n; i++)
            if (ents[i].pid != spare && ents[i].pid != self && seed(ctx, &ents[i], self) &&
                !in_set(set, n_set, ents[i].pid) && n_set < MC_MAX_TREE_PROCS)
                set[n_set++] = ents[i].pid;
        while (grew) {
            grew = 0;
            for (i = 0; i < n; i++)
                if (ents[i].pid != self && ents[i].pid != spare &&
                    (in_set(set, n_set, ents[i].ppid) ||
                     (spare > 0 && ents[i].ppid == spare)) &&
                    !in_set(set, n_set, ents[i].pid) && n_set < MC_MAX_TREE_PROCS) {
                    set[n_set++] = ents[i].pid;
                    grew = 1;
                }
        }
        if (n_set == before)
            break;
        /* Freeze what was found so that it cannot fork while we look again. */
        for (i = before; i < n_set; i++)
            kill(set[i], SIGSTOP);
    }
    for (i = 0; i < n_set; i++)
        kill(set[i], SIGKILL);
    /* Reap those that were left to us; the others are reaped by their parents. */
    for (i = 0; i < n_set; i++) {
        pid_t pp;
        char st;
        int64_t until = mc_now_ms() + 1000;
        while (read_stat(set[i], &pp, &st) == 0 && pp == self) {
            int ws;
            if (waitpid(set[i], &ws, WNOHANG) == set[i] || mc_now_ms() > until)
                break;
            struct timespec ts = {0, 2000000L};
            nanosleep(&ts, NULL);
        }
    }
    free(ents);
    free(set);
    return (unsigned)n_set;
}

static int seed_tagged(void *ctx, const proc_ent_t *e, pid_t self)
{
    const mc_proc_t *p = ctx;

    /* Orphans of the tree are left to us (a subreaper) or to init. */
    if (e->ppid != self && e->ppid != 1)
        return 0;
    if (e->state == 'Z')
        /* A zombie's environment cannot be read; one left to us that is no
         * target is an orphan that exited: reap it (kill_closure does). */
        return e->ppid == self && !mc__proc_live_has(e->pid);
    return carries_tag(e->pid, p->tag);
}

unsigned mc_proc_kill_tree(mc_proc_t *p)
{
    unsigned n;

    if (p->pid <= 0 || p->tag[0] == '\0')
        return 0;
    /* The target's own children are found through it while it lives (spare
     * keeps the target itself out of the set; its group is killed apart). */
    n = kill_closure(seed_tagged, p, p->reaped ? 0 : p->pid);
    p->tree_killed += n;
    p->tree_swept = 1;
    return n;
}

typedef struct keep_list {
    const pid_t *v;
    size_t n;
} keep_list_t;

static int seed_orphan(void *ctx, const proc_ent_t *e, pid_t self)
{
    const keep_list_t *k = ctx;

    return e->ppid == self && !in_set(k->v, k->n, e->pid) && !mc__proc_live_has(e->pid);
}

unsigned mc_proc_kill_orphans(const pid_t *keep, size_t n_keep)
{
    keep_list_t k;

    k.v = keep;
    k.n = n_keep;
    return kill_closure(seed_orphan, &k, 0);
}
