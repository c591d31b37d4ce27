/*
 * cmd_fuzz.c - `mcpcheck fuzz`: a stateful fuzzing campaign against a
 * server started by a command (harness/campaign/).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "campaign/exec.h"
#include "client/session.h"
#include "client/target.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "core/json.h"
#include "report/report.h"
#include "scenario/profile.h"
#include "schema/registry.h"

/* Workers at most with --jobs. */
#define MAX_JOBS 64
/* Progress lines on stderr at most this often, in milliseconds. */
#define PROGRESS_EVERY_MS 10000

static volatile int stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* The longest --seconds: thirty days. */
#define MAX_SECONDS (30L * 24 * 3600)
/* The largest --max-execs, --max-findings, --restart-every, --mem-limit. */
#define MAX_EXECS 2000000000L
#define MAX_FINDINGS 1000000L
#define MAX_RESTART_EVERY 1000000L
#define MAX_MEM_LIMIT_MB (1L << 20)
/* The range of --hang-ms. */
#define MIN_HANG_MS 10L
#define MAX_HANG_MS 600000L

/* What the command line asks of `mcpcheck fuzz`. */
typedef struct fuzz_opts {
    long seconds, max_execs, max_findings, seed, jobs, hang_ms, mem_limit, restart_every;
    const char *out, *version, *profile, *safe_tools, *url, *import_afl;
    int call_tools, no_coverage, no_minimize, allow_remote;
    char **cmd;
} fuzz_opts_t;

#define T fuzz_opts_t
static const mc_opt_t fuzz_opts[] = {
    MC_OPTION_LONG(T, seconds, "seconds", 0, "N", 0, MAX_SECONDS,
                   "stop after N seconds (default 60; 0 = until SIGINT)"),
    MC_OPTION_LONG(T, max_execs, "max-execs", 0, "N", 1, MAX_EXECS, "stop after N sequences"),
    MC_OPTION_LONG(T, max_findings, "max-findings", 0, "N", 1, MAX_FINDINGS,
                   "stop once N distinct findings are written"),
    MC_OPTION_LONG(T, seed, "seed", 0, "N", 0, 0x7fffffffL,
                   "random seed (default: from the clock; printed)"),
    MC_OPTION_LONG(T, jobs, "jobs", 0, "N", 1, MAX_JOBS,
                   "N workers sharing the campaign directory (default 1)"),
    MC_OPTION_STRING(T, out, "out", 0, "DIR",
                     "campaign directory (default reports/fuzz-YYYYMMDD-HHMMSS)"),
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version, NULL,
                      "protocol version to request (default " MC_CLI_DEFAULT_VERSION ")"),
    MC_OPTION_STRING(T, profile, "profile", 0, "FILE",
                     "take the safe tools from the profile's \"safe_tools\""),
    MC_OPTION_STRING(T, safe_tools, "safe-tools", 0, "A,B",
                     "tools that may be called (with generated arguments)"),
    MC_OPTION_FLAG(T, call_tools, "call-tools", 0,
                   "every listed tool may be called (mind side effects)"),
    MC_OPTION_LONG(T, hang_ms, "hang-ms", 0, "N", MIN_HANG_MS, MAX_HANG_MS,
                   "an unanswered request is a hang after N ms of silence (default " MC_OPTS_STR(
                       MC_EXEC_HANG_MS) ")"),
    MC_OPTION_LONG(T, mem_limit, "mem-limit", 0, "MB", 0, MAX_MEM_LIMIT_MB,
                   "a resident size over MB is a finding (default 0: off)"),
    MC_OPTION_LONG(T, restart_every, "restart-every", 0, "N", 1, MAX_RESTART_EVERY,
                   "sequences per server process (default " MC_OPTS_STR(
                       MC_EXEC_RESTART_EVERY) ")"),
    MC_OPTION_FLAG(T, no_coverage, "no-coverage", 0,
                   "do not offer the AFL++ shared-memory map (__AFL_SHM_ID)"),
    MC_OPTION_FLAG(T, no_minimize, "no-minimize", 0, "write findings as found"),
    MC_OPTION_STRING(T, url, "url", 0, "URL",
                     "fuzz over Streamable HTTP at URL. With SERVER_CMD the server is started "
                     "(and restarted) by the campaign; with port 0 in URL it must print the "
                     "http://HOST:PORT address it bound. Without SERVER_CMD the server runs "
                     "already; a restart is a new HTTP session"),
    MC_OPTION_FLAG(T, allow_remote, "allow-remote", 0,
                   "allow a --url host that is not a loopback address"),
    MC_OPTION_STRING(T, import_afl, "import-afl", 0, "DIR",
                     "do not fuzz: turn the crashes of mcpcheck-afl-driver under afl-fuzz in DIR "
                     "(an afl-fuzz -o directory, one instance's, or a crashes/ folder) into "
                     "minimized findings of --out (over stdio; --seconds does not apply)"),
    MC_OPTION_END,
};

static const mc_opts_spec_t fuzz_spec = {
    .prog = "mcpcheck fuzz",
    .synopsis =
        "mcpcheck fuzz [options] -- SERVER_CMD [ARGS...]\n"
        "       mcpcheck fuzz [options] --url URL [-- SERVER_CMD [ARGS...]]\n",
    .about = "Stateful fuzzing of an MCP server over stdio or Streamable HTTP. Each input\n"
             "is a message sequence after a valid session prefix (initialize +\n"
             "notifications/initialized), made from the MCP methods and from what the server\n"
             "lists (names, argument names, input schemas, cursors), then mutated\n"
             "structurally. Every message the server writes is judged by the wire checks and\n"
             "the schema of the negotiated version; deaths, signals (with the sanitizer\n"
             "report), hangs and memory growth are findings too. Each distinct finding is\n"
             "minimized and written as a scenario that\n"
             "'mcpcheck run --scenarios DIR/findings -- SERVER_CMD' replays.\n",
    .epilogue = "Tools are called only when named by --safe-tools / the profile, or with\n"
                "--call-tools: a fuzzer must not delete your files.\n"
                "\n"
                "Exit status: 0 no finding, 1 findings written, 2 usage, 3 the campaign could\n"
                "not run. SIGINT ends the campaign and writes the report.\n"
                "\n"
                "(scripts/fuzz.sh is another thing: it fuzzes mcpcheck's own code, for its\n"
                "developers.)\n"
                "\n"
                "Examples:\n"
                "  mcpcheck fuzz --seconds 60 -- build/bin/mcpcheck-refserver\n"
                "  mcpcheck fuzz --seconds 60 --url http://127.0.0.1:0/mcp -- \\\n"
                "      build/bin/mcpcheck-refserver --http 127.0.0.1:0\n",
    .opts = fuzz_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

typedef struct progress_ctx {
    int64_t last;
} progress_ctx_t;

static void progress(void *ctx, const mc_campaign_stats_t *st)
{
    progress_ctx_t *p = ctx;

    if (st->elapsed_ms - p->last < PROGRESS_EVERY_MS && st->elapsed_ms > 0)
        return;
    p->last = st->elapsed_ms;
    fprintf(stderr,
            "mcpcheck fuzz: %5.0f s  %llu seqs (%.0f/s)  %llu states  coverage %llu%s  corpus "
            "%llu  findings %llu\n",
            (double)st->elapsed_ms / 1000.0, (unsigned long long)st->execs,
            st->elapsed_ms > 0 ? (double)st->execs * 1000.0 / (double)st->elapsed_ms : 0.0,
            (unsigned long long)st->states, (unsigned long long)st->coverage,
            st->instrumented ? "" : " (not instrumented)", (unsigned long long)st->corpus,
            (unsigned long long)st->findings);
}

static int count_findings(const char *dir)
{
    char path[4200], line[2048];
    FILE *f;
    int n = 0;

    snprintf(path, sizeof(path), "%s/findings/index.tsv", dir);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL)
        n++;
    fclose(f);
    return n;
}

static char *target_text(char *const *argv)
{
    static char buf[1024];
    size_t o = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; argv[i] != NULL && o + 2 < sizeof(buf); i++) {
        int n = snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? " " : "", argv[i]);
        if (n < 0)
            break;
        o += (size_t)n;
        if (o >= sizeof(buf))
            o = sizeof(buf) - 1;
    }
    return buf;
}

/* What the report names as the target: the command, the URL, or both. */
static const char *report_target(const char *url, char *const *argv)
{
    static char buf[1200];

    if (url == NULL)
        return target_text(argv);
    if (argv == NULL)
        return url;
    snprintf(buf, sizeof(buf), "%s (%s)", url, target_text(argv));
    return buf;
}

/*
 * Reads the command line into co (with *jobs and the profile path). Returns
 * MC_OPTS_CONTINUE or the exit code to return, having said why.
 */
static int fuzz_options(int argc, char **argv, mc_campaign_opts_t *co, fuzz_opts_t *o)
{
    mc_errbuf_t eb;
    int code;

    memset(o, 0, sizeof(*o));
    o->seconds = 60;
    o->seed = -1;
    o->jobs = 1;
    o->version = MC_CLI_DEFAULT_VERSION;
    code = mc_opts_parse(&fuzz_spec, o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (o->url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_target_url_check(o->url, o->allow_remote, &eb) != MC_OK)
            return mc_opts_fail(&fuzz_spec, "--url: %s", eb.msg);
    } else if (o->allow_remote) {
        return mc_opts_fail(&fuzz_spec, "--allow-remote goes with --url");
    }
    if (o->url == NULL && (o->cmd == NULL || o->cmd[0] == NULL))
        return mc_opts_fail(&fuzz_spec, "no server command; put it after '--' (see '%s --help')",
                            fuzz_spec.prog);
    if (o->cmd != NULL && o->cmd[0] == NULL)
        o->cmd = NULL;
    if (o->import_afl != NULL && (o->url != NULL || o->cmd == NULL))
        return mc_opts_fail(&fuzz_spec, "--import-afl needs the server command after '--' "
                                        "(the driver fuzzes over stdio), not --url");
    if (o->import_afl != NULL) {
        o->jobs = 1;
        o->seconds = 0;
    }
    memset(co, 0, sizeof(*co));
    co->version = o->version;
    co->seconds = (int)o->seconds;
    co->max_execs = (uint64_t)o->max_execs;
    co->max_findings = (uint64_t)o->max_findings;
    co->seed = o->seed >= 0 ? (uint64_t)o->seed
                            : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    co->out_dir = o->out;
    co->call_tools = o->call_tools;
    co->hang_ms = (int)o->hang_ms;
    co->mem_limit_mb = (uint64_t)o->mem_limit;
    co->restart_every = (int)o->restart_every;
    co->coverage = !o->no_coverage;
    co->no_minimize = o->no_minimize;
    co->url = o->url;
    co->allow_remote = o->allow_remote;
    co->argv = o->cmd;
    return MC_OPTS_CONTINUE;
}

/*
 * The tools the campaign may call: the profile's "safe_tools" and
 * --safe-tools, as a JSON array (new reference) in co->safe_tools. Returns
 * MC_OPTS_CONTINUE or MC_EXIT_USAGE (the profile did not load, said why).
 * A loaded profile is left in *prof with *have_prof set.
 */
static int safe_tools(const fuzz_opts_t *o, mc_campaign_opts_t *co, mc_profile_t *prof,
                      int *have_prof)
{
    json_object *safe = NULL;
    mc_errbuf_t eb;

    if (o->profile != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_profile_load(o->profile, prof, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck fuzz: profile: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
        *have_prof = 1;
        if (prof->safe_tools != NULL)
            safe = json_object_get(prof->safe_tools);
    }
    if (o->safe_tools != NULL) {
        json_object *more = mc_json_split_names(o->safe_tools);
        size_t k;
        if (safe == NULL)
            safe = json_object_new_array();
        for (k = 0; more != NULL && k < json_object_array_length(more); k++)
            json_object_array_add(safe, json_object_get(json_object_array_get_idx(more, k)));
        json_object_put(more);
    }
    co->safe_tools = safe;
    return MC_OPTS_CONTINUE;
}

/* Runs the campaign in jobs worker processes (in this one when jobs is 1).
 * Returns MC_OK, or an error when the campaign (every worker) failed, with
 * why in why (cap bytes). */
static int run_workers(const mc_campaign_opts_t *co, int jobs, char *why, size_t cap)
{
    mc_campaign_stats_t st;
    mc_errbuf_t eb;
    pid_t kids[MAX_JOBS];
    int i, rc, started = 0, bad_exit = 0;

    if (jobs == 1) {
        mc_errbuf_clear(&eb);
        rc = mc_campaign_run(co, &st, &eb);
        if (rc != MC_OK) {
            fprintf(stderr, "mcpcheck fuzz: %s\n", eb.msg);
            snprintf(why, cap, "%s", eb.msg);
        }
        return rc;
    }
    /* Each worker is a process of its own (AFL++'s -M/-S model): they share
     * the corpus and findings folders, never memory. */
    for (i = 0; i < jobs; i++) {
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            mc_campaign_opts_t wo = *co;
            wo.worker = i;
            if (i != 0)
                wo.progress = NULL;
            mc_errbuf_clear(&eb);
            rc = mc_campaign_run(&wo, &st, &eb);
            if (rc != MC_OK)
                fprintf(stderr, "mcpcheck fuzz: worker %d: %s\n", i, eb.msg);
            _exit(rc == MC_OK ? 0 : 3);
        }
        kids[started++] = pid;
    }
    for (i = 0; i < started; i++) {
        int status;
        while (waitpid(kids[i], &status, 0) < 0) {
            if (stop_flag) {
                int k;
                for (k = i; k < started; k++)
                    kill(kids[k], SIGTERM);
            }
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            bad_exit++;
    }
    if (bad_exit == started)
        snprintf(why, cap, "every worker failed (their errors are on standard error)");
    return bad_exit == started ? MC_EIO : MC_OK;
}

/*
 * Decodes the crash files under dir as mcpcheck-afl-driver decoded them and
 * puts their sequences in co->replay (a new reference). Returns MC_OK, or
 * an error said on stderr.
 */
static int import_afl(const char *dir, mc_campaign_opts_t *co)
{
    mc_afl_opts_t ao;
    mc_errbuf_t eb;
    size_t files, skipped;
    int rc;

    memset(&ao, 0, sizeof(ao));
    ao.argv = co->argv;
    ao.cwd = co->cwd;
    ao.limits = co->limits;
    ao.version = co->version;
    ao.registry = co->registry;
    ao.safe_tools = co->safe_tools;
    ao.call_tools = co->call_tools;
    ao.hang_ms = co->hang_ms;
    ao.mem_limit_mb = co->mem_limit_mb;
    ao.restart_every = co->restart_every;
    ao.coverage = co->coverage;
    mc_errbuf_clear(&eb);
    rc = mc_afl_import(&ao, dir, &co->replay, &files, &skipped, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck fuzz: --import-afl: %s\n", eb.msg);
        return rc;
    }
    fprintf(stderr, "mcpcheck fuzz: %zu crash file%s under %s", files, files == 1 ? "" : "s", dir);
    if (skipped > 0)
        fprintf(stderr, " (%zu unreadable, skipped)", skipped);
    fprintf(stderr, "\n");
    return MC_OK;
}

/* Writes the campaign's report (with why, when it could not run) and says
 * how it went; returns the exit code. */
static int finish(const mc_campaign_opts_t *co, int rc, const char *why)
{
    mc_errbuf_t eb;
    int nf;

    mc_errbuf_clear(&eb);
    if (mc_report_campaign(co->out_dir, report_target(co->url, co->argv),
                                 rc != MC_OK ? why : NULL, &eb) != MC_OK)
        fprintf(stderr, "mcpcheck fuzz: report: %s\n", eb.msg);
    nf = count_findings(co->out_dir);
    fprintf(stderr, "mcpcheck fuzz: %d finding%s; report: %s/report.md\n", nf,
            nf == 1 ? "" : "s", co->out_dir);
    if (rc != MC_OK && nf == 0)
        return MC_EXIT_INCOMPLETE;
    return nf > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
}

int mc_cmd_fuzz(int argc, char **argv)
{
    mc_campaign_opts_t co;
    fuzz_opts_t o;
    mc_registry_t *reg = NULL;
    mc_profile_t prof;
    int have_prof = 0, ret;
    char out_default[128], why[512] = "";
    struct sigaction sa;
    mc_errbuf_t eb;
    progress_ctx_t pc = {0};

    ret = fuzz_options(argc, argv, &co, &o);
    if (ret != MC_OPTS_CONTINUE)
        return ret;
    if (co.out_dir == NULL) {
        time_t now = time(NULL);
        struct tm tmv;
        gmtime_r(&now, &tmv);
        strftime(out_default, sizeof(out_default), "reports/fuzz-%Y%m%d-%H%M%S", &tmv);
        co.out_dir = out_default;
    }
    if (safe_tools(&o, &co, &prof, &have_prof) != MC_OPTS_CONTINUE)
        return MC_EXIT_USAGE;
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&reg, NULL, MC_REGISTRY_BUNDLED, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck fuzz: schemas: %s\n", eb.msg);
        ret = MC_EXIT_INCOMPLETE;
        goto out;
    }
    for (const char *const *vv = mc_registry_versions(); *vv != NULL; vv++) {
        mc_errbuf_t e2;
        mc_errbuf_clear(&e2);
        mc_registry_load(reg, *vv, &e2);
    }
    co.registry = reg;
    co.stop = &stop_flag;
    co.progress = progress;
    co.progress_ctx = &pc;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (o.import_afl != NULL && import_afl(o.import_afl, &co) != MC_OK) {
        ret = MC_EXIT_INCOMPLETE;
        goto out;
    }
    fprintf(stderr, "mcpcheck fuzz: seed %llu, %d worker%s, campaign directory %s\n",
            (unsigned long long)co.seed, (int)o.jobs, o.jobs > 1 ? "s" : "", co.out_dir);
    ret = run_workers(&co, (int)o.jobs, why, sizeof(why));
    ret = finish(&co, ret, why);
out:
    mc_registry_free(reg);
    json_object_put(co.safe_tools);
    json_object_put(co.replay);
    if (have_prof)
        mc_profile_free(&prof);
    return ret;
}
