#define _GNU_SOURCE /* pipe2 */
#include "client/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/limits.h"

/*
 * The targets of this process not yet reaped, so that the sweep of orphans
 * never reaps (and so hides the exit status of) another thread's target.
 * Lock-free: a slot holds a pid or 0.
 */
#define MC__MAX_LIVE_TARGETS 256
/* Longest pause between two looks at a child that has no stderr to poll. */
#define MAX_NAP_US 10000
static atomic_int live_targets[MC__MAX_LIVE_TARGETS];

static void live_add(pid_t pid)
{
    for (size_t i = 0; i < MC__MAX_LIVE_TARGETS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&live_targets[i], &expected, (int)pid))
            return;
    }
}

static void live_remove(pid_t pid)
{
    for (size_t i = 0; i < MC__MAX_LIVE_TARGETS; i++) {
        int expected = (int)pid;
        if (atomic_compare_exchange_strong(&live_targets[i], &expected, 0))
            return;
    }
}

static int live_has(pid_t pid)
{
    for (size_t i = 0; i < MC__MAX_LIVE_TARGETS; i++)
        if (atomic_load(&live_targets[i]) == (int)pid)
            return 1;
    return 0;
}

int mc_ring_init(mc_ring_t *r, size_t cap)
{
    memset(r, 0, sizeof(*r));
    r->buf = malloc(cap);
    if (r->buf == NULL)
        return MC_ENOMEM;
    r->cap = cap;
    return MC_OK;
}

void mc_ring_write(mc_ring_t *r, const char *data, size_t len)
{
    size_t i;

    r->total += len;
    if (r->cap == 0)
        return;
    if (len >= r->cap) {
        memcpy(r->buf, data + len - r->cap, r->cap);
        r->start = 0;
        r->len = r->cap;
        return;
    }
    for (i = 0; i < len; i++) {
        size_t pos = (r->start + r->len) % r->cap;
        r->buf[pos] = data[i];
        if (r->len < r->cap)
            r->len++;
        else
            r->start = (r->start + 1) % r->cap;
    }
}

size_t mc_ring_copy(const mc_ring_t *r, char *out, size_t n)
{
    size_t skip, count, i;

    if (n == 0)
        return 0;
    count = r->len < n - 1 ? r->len : n - 1;
    skip = r->len - count; /* keep the newest bytes */
    for (i = 0; i < count; i++)
        out[i] = r->buf[(r->start + skip + i) % r->cap];
    out[count] = '\0';
    return count;
}

void mc_ring_free(mc_ring_t *r)
{
    free(r->buf);
    memset(r, 0, sizeof(*r));
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void close_all(int *fds, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        close_fd(&fds[i]);
}

/* Signal names for reports; sigabbrev_np() is a GNU extension. */
static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: return NULL;
    }
}

static int set_nonblock_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -1;
    fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

static void apply_limit(int resource, uint64_t value)
{
    struct rlimit rl;

    if (value == 0)
        return;
    rl.rlim_cur = (rlim_t)value;
    rl.rlim_max = (rlim_t)value;
    /* Lowering the hard limit may fail for some resources; keep the soft one. */
    if (setrlimit(resource, &rl) != 0) {
        if (getrlimit(resource, &rl) == 0) {
            rl.rlim_cur = (rlim_t)value < rl.rlim_max ? (rlim_t)value : rl.rlim_max;
            setrlimit(resource, &rl);
        }
    }
}

/* Runs in the child after fork: only async-signal-safe calls until exec. */
static void child_exec(const mc_spawn_opts_t *o, char *const *envp, int in_r, int out_w,
                       int err_w, int report_w)
{
    int e;
    sigset_t none;

    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        goto fail;
    if (in_r > 2)
        close(in_r);
    if (out_w > 2)
        close(out_w);
    if (err_w > 2)
        close(err_w);
    if (o->cwd != NULL && chdir(o->cwd) != 0)
        goto fail;
    apply_limit(RLIMIT_AS, o->limits.address_space);
    apply_limit(RLIMIT_CPU, o->limits.cpu_seconds);
    apply_limit(RLIMIT_FSIZE, o->limits.file_size);
    apply_limit(RLIMIT_NPROC, o->limits.processes);
    {
        extern char **environ;
        environ = (char **)envp;
    }
    execvp(o->argv[0], o->argv);
fail:
    e = errno;
    if (write(report_w, &e, sizeof(e)) < 0) {
        /* Nothing else can be done in the child. */
    }
    _exit(127);
}

/*
 * The environment the target gets: base (or ours) without any inherited
 * MC_PROC_TREE_ENV, plus MC_PROC_TREE_ENV=<tag> for this target. Built in
 * the parent, since the child of a threaded process may not allocate.
 * tag receives the tag, var holds the "NAME=tag" string the array points
 * at. Returns a malloc()ed array (the strings are borrowed), or NULL.
 */
static char **tagged_env(char *const *base, char *tag, size_t tag_n, char *var, size_t var_n)
{
    static atomic_uint counter;
    extern char **environ;
    char *const *src = base != NULL ? base : environ;
    size_t n = 0, k = 0, i;
    char **out;
    const size_t name_len = sizeof(MC_PROC_TREE_ENV) - 1;

    snprintf(tag, tag_n, "%ld.%u", (long)getpid(), atomic_fetch_add(&counter, 1) + 1);
    snprintf(var, var_n, "%s=%s", MC_PROC_TREE_ENV, tag);
    while (src != NULL && src[n] != NULL)
        n++;
    out = calloc(n + 2, sizeof(*out));
    if (out == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        if (!(strncmp(src[i], MC_PROC_TREE_ENV, name_len) == 0 && src[i][name_len] == '='))
            out[k++] = src[i];
    out[k++] = var;
    out[k] = NULL;
    return out;
}

int mc_proc_spawn(mc_proc_t *p, const mc_spawn_opts_t *opts, mc_errbuf_t *eb)
{
    int fds[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    int *in = fds, *out = fds + 2, *err = fds + 4, *rep = fds + 6;
    mc_proc_t np;
    pid_t pid;
    int child_errno = 0;
    ssize_t n;
    char **envp;
    char tag_var[sizeof(MC_PROC_TREE_ENV) + sizeof(np.tag) + 1];

    if (opts == NULL || opts->argv == NULL || opts->argv[0] == NULL)
        return mc_errbuf_set(eb, MC_EINVAL, "no command to run");
    memset(&np, 0, sizeof(np));
    np.in_fd = np.out_fd = np.err_fd = -1;
    if (mc_ring_init(&np.err, MC_STDERR_RING_SIZE) != MC_OK)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory for the stderr buffer");
    /*
     * Every end is close-on-exec from the start: another thread may fork its
     * own target at any moment, and a pipe end inherited by that target
     * would keep this target's stdout open after this target closed it.
     * The child's dup2() onto 0, 1 and 2 clears the flag on the ends it uses.
     */
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
        pipe2(rep, O_CLOEXEC) != 0) {
        int e = errno;
        close_all(fds, 8);
        mc_ring_free(&np.err);
        return mc_errbuf_set(eb, MC_ESPAWN, "cannot create pipes: %s", strerror(e));
    }
    /* Our ends must not leak into the child; the report pipe closes on exec. */
    fcntl(rep[1], F_SETFD, FD_CLOEXEC);
    fcntl(rep[0], F_SETFD, FD_CLOEXEC);
    set_nonblock_cloexec(in[1]);
    set_nonblock_cloexec(out[0]);
    set_nonblock_cloexec(err[0]);

    envp = tagged_env(opts->envp, np.tag, sizeof(np.tag), tag_var, sizeof(tag_var));
    if (envp == NULL) {
        close_all(fds, 8);
        mc_ring_free(&np.err);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory for the target's environment");
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;
        free(envp);
        close_all(fds, 8);
        mc_ring_free(&np.err);
        return mc_errbuf_set(eb, MC_ESPAWN, "fork failed: %s", strerror(e));
    }
    if (pid == 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        close(rep[0]);
        child_exec(opts, envp, in[0], out[1], err[1], rep[1]);
    }
    /* Also set the group from the parent to avoid a race with early kill(). */
    setpgid(pid, pid);
    live_add(pid);
    free(envp);
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&err[1]);
    close_fd(&rep[1]);
    do {
        n = read(rep[0], &child_errno, sizeof(child_errno));
    } while (n < 0 && errno == EINTR);
    close_fd(&rep[0]);
    np.pid = pid;
    np.in_fd = in[1];
    np.out_fd = out[0];
    np.err_fd = err[0];
    if (n == (ssize_t)sizeof(child_errno)) {
        /* exec failed: the child is exiting with 127. */
        mc_proc_wait(&np, 1000);
        mc_proc_free(&np);
        return mc_errbuf_set(eb, MC_ESPAWN, "cannot execute '%s': %s", opts->argv[0],
                             strerror(child_errno));
    }
    *p = np;
    return MC_OK;
}

int mc_proc_try_reap(mc_proc_t *p)
{
    int st;
    pid_t r;

    if (p->reaped)
        return 1;
    if (p->pid <= 0)
        return 0;
    do {
        r = waitpid(p->pid, &st, WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == p->pid) {
        p->reaped = 1;
        p->status = st;
        live_remove(p->pid);
        return 1;
    }
    if (r < 0 && errno == ECHILD) {
        /* Someone else reaped it; treat as gone with an unknown status. */
        p->reaped = 1;
        p->status = 0;
        live_remove(p->pid);
        return 1;
    }
    return 0;
}

size_t mc_proc_drain_stderr(mc_proc_t *p)
{
    char buf[4096];
    size_t total = 0;

    while (p->err_fd >= 0) {
        ssize_t n = read(p->err_fd, buf, sizeof(buf));
        if (n > 0) {
            mc_ring_write(&p->err, buf, (size_t)n);
            total += (size_t)n;
            continue;
        }
        if (n == 0) {
            close_fd(&p->err_fd);
            break;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            close_fd(&p->err_fd);
        break;
    }
    return total;
}

int mc_proc_wait(mc_proc_t *p, int timeout_ms)
{
    int64_t deadline = mc_now_ms() + timeout_ms;
    long nap_us = 200; /* a backoff: exits are usually immediate */

    for (;;) {
        int64_t left;
        struct pollfd pfd;

        if (mc_proc_try_reap(p))
            return 1;
        left = deadline - mc_now_ms();
        if (left <= 0)
            return 0;
        /* Keep stderr flowing so a chatty target does not block on exit. */
        if (p->err_fd >= 0) {
            pfd.fd = p->err_fd;
            pfd.events = POLLIN;
            pfd.revents = 0;
            if (poll(&pfd, 1, left < 10 ? (int)left : 10) > 0)
                mc_proc_drain_stderr(p);
        } else {
            struct timespec ts = {0, nap_us * 1000L};
            nanosleep(&ts, NULL);
            if (nap_us < MAX_NAP_US)
                nap_us *= 2;
        }
    }
}

void mc_proc_close_stdin(mc_proc_t *p)
{
    close_fd(&p->in_fd);
}

int mc_proc_shutdown(mc_proc_t *p, int stdin_grace_ms, int term_grace_ms)
{
    int how = 0;

    if (p->pid <= 0)
        return 0;
    mc_proc_close_stdin(p);
    if (!mc_proc_wait(p, stdin_grace_ms)) {
        how = SIGTERM;
        p->signalled_by_us = SIGTERM;
        kill(-p->pid, SIGTERM);
        if (!mc_proc_wait(p, term_grace_ms)) {
            how = SIGKILL;
            p->signalled_by_us = SIGKILL;
            kill(-p->pid, SIGKILL);
            mc_proc_wait(p, 5000);
        }
    }
    /* Whatever the leader did, leave no member of its group or its tree behind. */
    kill(-p->pid, SIGKILL);
    mc_proc_kill_tree(p);
    mc_proc_drain_stderr(p);
    return how;
}

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
        return e->ppid == self && !live_has(e->pid);
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

    return e->ppid == self && !in_set(k->v, k->n, e->pid) && !live_has(e->pid);
}

unsigned mc_proc_kill_orphans(const pid_t *keep, size_t n_keep)
{
    keep_list_t k;

    k.v = keep;
    k.n = n_keep;
    return kill_closure(seed_orphan, &k, 0);
}

void mc_proc_free(mc_proc_t *p)
{
    if (p->pid > 0 && !mc_proc_try_reap(p)) {
        kill(-p->pid, SIGKILL);
        mc_proc_wait(p, 5000);
    }
    if (p->pid > 0 && !p->tree_swept)
        mc_proc_kill_tree(p);
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
    mc_ring_free(&p->err);
    p->pid = 0;
}

void mc_proc_describe(const mc_proc_t *p, char *buf, size_t n)
{
    if (n == 0)
        return;
    if (!p->reaped) {
        snprintf(buf, n, "still running");
        return;
    }
    if (WIFEXITED(p->status)) {
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(p->status));
    } else if (WIFSIGNALED(p->status)) {
        int sig = WTERMSIG(p->status);
        const char *name = signal_name(sig);
        if (name != NULL)
            snprintf(buf, n, "killed by %s%s", name,
                     p->signalled_by_us == sig ? " (sent by mcpcheck during shutdown)" : "");
        else
            snprintf(buf, n, "killed by signal %d%s", sig,
                     p->signalled_by_us == sig ? " (sent by mcpcheck during shutdown)" : "");
    } else {
        snprintf(buf, n, "ended with wait status 0x%x", (unsigned)p->status);
    }
}
