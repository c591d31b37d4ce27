#define _GNU_SOURCE /* pipe2 */
#include "client/process.h"
#include "client/process_internal.h"

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

int mc__proc_live_has(pid_t pid)
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
