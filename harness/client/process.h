/*
 * process.h - spawning and supervising the target process.
 *
 * The target is started from an argv vector (never through a shell) in its
 * own process group, with pipes on stdin, stdout and stderr, all non-blocking
 * on our side. Shutdown follows the MCP stdio transport's advice: close the
 * target's stdin, wait, SIGTERM the group, wait, SIGKILL the group.
 */
#ifndef MC_CLIENT_PROCESS_H
#define MC_CLIENT_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

/* Resource limits applied to the target; 0 leaves a limit unchanged. */
typedef struct mc_rlimits {
    uint64_t address_space; /* bytes (RLIMIT_AS) */
    uint64_t cpu_seconds;   /* RLIMIT_CPU */
    uint64_t file_size;     /* bytes (RLIMIT_FSIZE) */
    uint64_t processes;     /* RLIMIT_NPROC */
} mc_rlimits_t;

typedef struct mc_spawn_opts {
    char *const *argv;        /* required: argv[0] is looked up in PATH */
    const char *cwd;          /* working directory, or NULL */
    char *const *envp;        /* full environment, or NULL to inherit ours */
    mc_rlimits_t limits;
} mc_spawn_opts_t;

/* The tail of the target's stderr, kept in a fixed ring. */
typedef struct mc_ring {
    char *buf;       /* private */
    size_t cap;      /* read-only */
    size_t start;    /* private */
    size_t len;      /* read-only: bytes held (<= cap) */
    uint64_t total;  /* read-only: bytes ever written */
} mc_ring_t;

typedef struct mc_proc {
    pid_t pid;       /* read-only: also the process group id */
    int in_fd;       /* read-only: our end of the target's stdin, -1 once closed */
    int out_fd;      /* read-only: our end of the target's stdout, -1 at EOF */
    int err_fd;      /* read-only: our end of the target's stderr, -1 at EOF */
    int reaped;      /* read-only: the exit status has been collected */
    int status;      /* read-only: waitpid status, when reaped */
    int signalled_by_us; /* read-only: the signal we last sent during shutdown, or 0 */
    mc_ring_t err;   /* read-only: stderr tail */
    char tag[48];    /* read-only: MC_PROC_TREE_ENV value every process of the tree inherits */
    unsigned tree_killed; /* read-only: processes of the tree other than the target that
                             mc_proc_kill_tree() had to kill */
    int tree_swept;  /* private: mc_proc_kill_tree() has run */
} mc_proc_t;

/* The environment variable that marks every process of a target's tree, so
 * that a descendant that left the tree (a setsid or double-forked daemon) is
 * still recognised as the target's. */
#define MC_PROC_TREE_ENV "MCPCHECK_TREE"

/*
 * Starts the target. On success *p describes the running child. If the
 * program cannot be executed (not found, not executable, bad cwd) the child's
 * errno is reported in eb and MC_ESPAWN is returned with nothing left running.
 */
int mc_proc_spawn(mc_proc_t *p, const mc_spawn_opts_t *opts, mc_errbuf_t *eb);

/*
 * Checks, without blocking, whether the target has exited; collects its
 * status if so. Returns 1 when reaped (now or before), 0 if still running.
 */
int mc_proc_try_reap(mc_proc_t *p);

/*
 * Waits up to timeout_ms for the target to exit. Returns 1 when reaped,
 * 0 on timeout.
 */
int mc_proc_wait(mc_proc_t *p, int timeout_ms);

/* Reads whatever stderr has ready into the ring. Returns bytes read, 0 at EOF
 * or nothing ready (err_fd is set to -1 at EOF). */
size_t mc_proc_drain_stderr(mc_proc_t *p);

/* Closes our end of the target's stdin (idempotent). */
void mc_proc_close_stdin(mc_proc_t *p);

/*
 * Stops the target as the spec advises: close stdin and wait stdin_grace_ms,
 * then SIGTERM to the process group and wait term_grace_ms, then SIGKILL to
 * the group. Always reaps the child and SIGKILLs any group members left.
 * Returns the step that ended it: 0 exited by itself, SIGTERM or SIGKILL.
 */
int mc_proc_shutdown(mc_proc_t *p, int stdin_grace_ms, int term_grace_ms);

/*
 * Makes this process the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER), so that a target's grandchild whose parent
 * exited stays within reach of mc_proc_kill_tree(). Call once, early, from a
 * program that spawns targets. Returns MC_OK, or MC_EUNSUPPORTED where the
 * system has no subreapers (the tree is then followed only while it hangs
 * together).
 */
int mc_proc_supervise_init(void);

/*
 * Kills every process of the target's tree that is still running: the
 * target's descendants and any process that carries the tree's tag and was
 * left to us (a subreaper) by a parent that exited. Each round stops what it
 * finds (SIGSTOP) before looking again, so a tree that keeps forking cannot
 * outrun it; then everything is SIGKILLed and our orphans are reaped.
 * Returns the number of processes killed (the target itself not counted).
 */
unsigned mc_proc_kill_tree(mc_proc_t *p);

/*
 * Kills and reaps every child of this process except the pids listed in
 * keep (n_keep entries), with their descendants: the orphans a subreaper
 * inherits whose tag could not be read. Returns how many were killed.
 */
unsigned mc_proc_kill_orphans(const pid_t *keep, size_t n_keep);

/* Releases pipes and the ring; kills and reaps the target if still running. */
void mc_proc_free(mc_proc_t *p);

/*
 * Describes how the target ended in words: "exited with status 1",
 * "killed by SIGSEGV", "still running". Always NUL-terminates buf.
 */
void mc_proc_describe(const mc_proc_t *p, char *buf, size_t n);

/* Ring buffer helpers (exposed for tests and reports). */
int mc_ring_init(mc_ring_t *r, size_t cap);
void mc_ring_write(mc_ring_t *r, const char *data, size_t len);
/* Copies the held bytes in order into out (at most n-1) and NUL-terminates;
 * returns the count copied. */
size_t mc_ring_copy(const mc_ring_t *r, char *out, size_t n);
void mc_ring_free(mc_ring_t *r);

#endif /* MC_CLIENT_PROCESS_H */
