/*
 * mcpcheck-afl-driver - a campaign against the user's MCP server with
 * AFL++ doing the scheduling, the syncing of instances and the crash
 * bookkeeping (harness/campaign/afl.h).
 *
 *   afl-fuzz -i SEEDS -o SYNC -M main -t 20000 -- mcpcheck-afl-driver -- ./my-server
 *
 * Built with afl-clang-fast (persistent mode, the test case in shared
 * memory): one driver process runs up to LOOPS test cases against one
 * long-lived server process (restarted only when it dies or the executor
 * must reset its state), each decoded into an MCP sequence by the
 * campaign's grammar and judged by its oracles. A finding that a fresh
 * server process shows again ends the driver with abort(), so that afl-fuzz
 * saves the test case in crashes/; `mcpcheck fuzz --import-afl` turns those
 * into scenario files. The server's own AFL++ coverage, when it is built
 * with afl-clang-fast, reaches afl-fuzz's map through the executor's map
 * (area.c). Outside afl-fuzz the driver runs the one test case it reads on
 * standard input, which replays a crash file.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "cli/afldriver/area.h"
#include "core/json.h"
#include "client/session.h"
#include "core/options.h"
#include "core/version.h"
#include "schema/registry.h"

/* Test cases one driver process runs before afl-fuzz forks a new one (and
 * so a new server process): a new process costs a server start and the
 * discovery walk. */
#define LOOPS 100000
/* The descriptors of AFL++'s fork server, which the server must not get. */
#define AFL_FORKSRV_FD 198
#define AFL_FORKSRV_FDS 2
/* The range of --hang-ms and --restart-every, and the largest --mem-limit. */
#define MIN_HANG_MS 10L
#define MAX_HANG_MS 600000L
#define MAX_RESTART_EVERY 1000000L
#define MAX_MEM_LIMIT_MB (1L << 20)
/* Exit status when the driver cannot run (no server, bad options: 2). */
#define EXIT_CANNOT_RUN 3

__AFL_FUZZ_INIT();

typedef struct driver_opts {
    const char *version, *safe_tools;
    long hang_ms, mem_limit, restart_every;
    int call_tools, no_coverage, print;
    char **cmd;
} driver_opts_t;

static int check_version(const char *value, char *why, size_t n)
{
    if (mc_protocol_version_known(value))
        return 0;
    snprintf(why, n, "unknown protocol version '%s'", value);
    return -1;
}

#define T driver_opts_t
static const mc_opt_t driver_opts[] = {
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", check_version, NULL,
                      "protocol version to request (default: the newest with a handshake)"),
    MC_OPTION_STRING(T, safe_tools, "safe-tools", 0, "A,B",
                     "tools that may be called (with generated arguments)"),
    MC_OPTION_FLAG(T, call_tools, "call-tools", 0,
                   "every listed tool may be called (mind side effects)"),
    MC_OPTION_LONG(T, hang_ms, "hang-ms", 0, "N", MIN_HANG_MS, MAX_HANG_MS,
                   "an unanswered request is a hang after N ms of silence (keep afl-fuzz's -t "
                   "well above it)"),
    MC_OPTION_LONG(T, mem_limit, "mem-limit", 0, "MB", 0, MAX_MEM_LIMIT_MB,
                   "a resident size over MB is a finding (default 0: off)"),
    MC_OPTION_LONG(T, restart_every, "restart-every", 0, "N", 1, MAX_RESTART_EVERY,
                   "test cases per server process"),
    MC_OPTION_FLAG(T, no_coverage, "no-coverage", 0,
                   "do not offer the AFL++ shared-memory map to the server"),
    MC_OPTION_FLAG(T, print, "print", 0,
                   "print the sequence the test case on standard input decodes to, and exit"),
    MC_OPTION_END,
};

static const mc_opts_spec_t driver_spec = {
    .prog = "mcpcheck-afl-driver",
    .synopsis = "afl-fuzz -i SEEDS -o DIR -M NAME -t MS -- mcpcheck-afl-driver [options] -- "
                "SERVER_CMD [ARGS...]\n"
                "       mcpcheck-afl-driver [options] -- SERVER_CMD [ARGS...] < TESTCASE\n",
    .about = "Runs each AFL++ test case, decoded into an MCP message sequence by the grammar\n"
             "of 'mcpcheck fuzz', against one long-lived server process and judges the answers\n"
             "with mcpcheck's oracles. A finding a fresh server process shows again aborts the\n"
             "driver, so that afl-fuzz saves it; 'mcpcheck fuzz --import-afl DIR -- SERVER_CMD'\n"
             "turns the saved crashes into scenario files.\n",
    .epilogue = "Exit status outside afl-fuzz: 0 no finding, abort (SIGABRT) a finding, 2 usage,\n"
                "3 the server could not be run.\n",
    .opts = driver_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

/* What of afl-fuzz this process holds is not passed on to the server it
 * starts: the fork server's descriptors, and the shared memory ids (the
 * AFL++ runtime attached both before main): an instrumented server would
 * write afl-fuzz's map itself, bypassing the executor's (and --no-coverage). */
static void keep_afl_to_ourselves(void)
{
    int fd;

    unsetenv("__AFL_SHM_ID");
    unsetenv("__AFL_SHM_FUZZ_ID");

    for (fd = AFL_FORKSRV_FD; fd < AFL_FORKSRV_FD + AFL_FORKSRV_FDS; fd++) {
        int fl = fcntl(fd, F_GETFD);
        if (fl >= 0)
            (void)fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
    }
}

/* Adds the hit counts of the server's map (the executor's) to afl-fuzz's,
 * folded onto its size. */
static void share_coverage(const mc_afl_t *a)
{
    size_t n, i, an;
    const uint8_t *map = mc_afl_map(a, &n);
    unsigned char *area = mc_afl_area(&an);

    if (map == NULL || area == NULL || an == 0)
        return;
    for (i = 0; i < n; i++)
        if (map[i] != 0) {
            unsigned v = area[i % an] + map[i];
            area[i % an] = (unsigned char)(v > 255 ? 255 : v);
        }
}

/* Reads the options and loads the schemas. Returns -1 to go on, else the
 * exit status. */
static int setup(int argc, char **argv, driver_opts_t *o, mc_afl_opts_t *ao, mc_registry_t **reg)
{
    char why[MC_OPTS_MAX_MESSAGE];
    const char *const *vv;
    mc_errbuf_t eb;

    memset(o, 0, sizeof(*o));
    switch (mc_opts_read(&driver_spec, o, argc, argv, why, sizeof(why))) {
    case MC_OPTS_OK:
        break;
    case MC_OPTS_HELP:
        mc_opts_usage(stdout, &driver_spec);
        return 0;
    default:
        fprintf(stderr, "%s: %s\n", driver_spec.prog, why);
        return 2;
    }
    if (o->cmd == NULL || o->cmd[0] == NULL) {
        fprintf(stderr, "%s: no server command; put it after '--'\n", driver_spec.prog);
        return 2;
    }
    mc_errbuf_clear(&eb);
    if (mc_registry_new(reg, NULL, MC_REGISTRY_BUNDLED, &eb) != MC_OK) {
        fprintf(stderr, "%s: schemas: %s\n", driver_spec.prog, eb.msg);
        return EXIT_CANNOT_RUN;
    }
    for (vv = mc_registry_versions(); *vv != NULL; vv++) {
        mc_errbuf_clear(&eb);
        (void)mc_registry_load(*reg, *vv, &eb);
    }
    memset(ao, 0, sizeof(*ao));
    ao->argv = o->cmd;
    ao->version = o->version != NULL ? o->version : MC_VERSION_NEWEST_HANDSHAKE;
    ao->registry = *reg;
    ao->safe_tools = o->safe_tools != NULL ? mc_json_split_names(o->safe_tools) : NULL;
    ao->call_tools = o->call_tools;
    ao->hang_ms = (int)o->hang_ms;
    ao->mem_limit_mb = (uint64_t)o->mem_limit;
    ao->restart_every = (int)o->restart_every;
    ao->coverage = !o->no_coverage;
    return -1;
}

/* Prints what the test case decodes to. */
static int print_decoded(mc_afl_t *a, const unsigned char *buf, size_t len)
{
    json_object *seq = mc_afl_decode(a, buf, len);

    if (seq == NULL)
        return EXIT_CANNOT_RUN;
    printf("%s\n", json_object_to_json_string_ext(seq, JSON_C_TO_STRING_PRETTY |
                                                           JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(seq);
    return 0;
}

/* Runs test cases until afl-fuzz has no more for this process. Returns the
 * exit status; a confirmed finding never returns. */
static int fuzz_loop(mc_afl_t *a)
{
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    mc_exec_finding_t f;
    mc_errbuf_t eb;

    while (__AFL_LOOP(LOOPS)) {
        size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
        int rc;
        mc_errbuf_clear(&eb);
        rc = mc_afl_run(a, buf, len, &f, &eb);
        if (rc < 0) {
            fprintf(stderr, "%s: %s\n", driver_spec.prog, eb.msg);
            return EXIT_CANNOT_RUN;
        }
        share_coverage(a);
        if (rc == 1) {
            fprintf(stderr, "%s: finding %s (%s): %s\n", driver_spec.prog, f.check, f.sig,
                    f.detail);
            /* No server process is left behind by the abort. */
            mc_afl_free(a);
            abort();
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    driver_opts_t o;
    mc_afl_opts_t ao;
    mc_registry_t *reg = NULL;
    mc_afl_t *a = NULL;
    mc_errbuf_t eb;
    int ret;

    ret = setup(argc, argv, &o, &ao, &reg);
    if (ret >= 0) {
        mc_registry_free(reg);
        return ret;
    }
    keep_afl_to_ourselves();
    signal(SIGPIPE, SIG_IGN);
    mc_errbuf_clear(&eb);
    if (mc_afl_new(&a, &ao, &eb) != MC_OK) {
        fprintf(stderr, "%s: %s\n", driver_spec.prog, eb.msg);
        ret = EXIT_CANNOT_RUN;
    } else if (o.print) {
        ret = print_decoded(a, __AFL_FUZZ_TESTCASE_BUF, (size_t)__AFL_FUZZ_TESTCASE_LEN);
    } else {
        ret = fuzz_loop(a);
    }
    mc_afl_free(a);
    json_object_put(ao.safe_tools);
    mc_registry_free(reg);
    return ret;
}
