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

#include "campaign/campaign.h"
#include "campaign/exec.h"
#include "client/http.h"
#include "client/session.h"
#include "cli/commands.h"
#include "cli/util.h"
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

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mcpcheck fuzz [options] -- SERVER_CMD [ARGS...]\n"
            "       mcpcheck fuzz [options] --url http://HOST:PORT/PATH [-- SERVER_CMD [ARGS...]]\n"
            "\n"
            "Stateful fuzzing of an MCP server over stdio or Streamable HTTP. Each input is a message sequence\n"
            "after a valid session prefix (initialize + notifications/initialized), made from\n"
            "the MCP methods and from what the server lists (names, argument names, input\n"
            "schemas, cursors), then mutated structurally. Every message the server writes\n"
            "is judged by the wire checks and the schema of the negotiated version; deaths,\n"
            "signals (with the sanitizer report), hangs and memory growth are findings too.\n"
            "Each distinct finding is minimized and written as a scenario that\n"
            "'mcpcheck run --scenarios DIR/findings -- SERVER_CMD' replays.\n"
            "\n"
            "options:\n"
            "  --seconds N        stop after N seconds (default 60; 0 = until SIGINT)\n"
            "  --max-execs N      stop after N sequences\n"
            "  --max-findings N   stop once N distinct findings are written\n"
            "  --seed N           random seed (default: from the clock; printed)\n"
            "  --jobs N           N workers sharing the campaign directory (default 1)\n"
            "  --out DIR          campaign directory (default reports/fuzz-YYYYMMDD-HHMMSS)\n"
            "  --spec-version V   protocol version to request (default %s)\n"
            "  --profile FILE     take the safe tools from the profile's \"safe_tools\"\n"
            "  --safe-tools A,B   tools that may be called (with generated arguments)\n"
            "  --call-tools       every listed tool may be called (mind side effects)\n"
            "  --hang-ms N        an unanswered request is a hang after N ms of silence\n"
            "                     (default %d)\n"
            "  --mem-limit MB     a resident size over MB is a finding (default 0: off)\n"
            "  --restart-every N  sequences per server process (default %d)\n"
            "  --no-coverage      do not offer the AFL++ shared-memory map (__AFL_SHM_ID)\n"
            "  --no-minimize      write findings as found\n"
            "  --url URL          fuzz over Streamable HTTP at URL. With SERVER_CMD the server\n"
            "                     is started (and restarted) by the campaign; with port 0 in\n"
            "                     URL it must print the http://HOST:PORT address it bound.\n"
            "                     Without SERVER_CMD the server runs already; a restart is\n"
            "                     a new HTTP session\n"
            "  --allow-remote     allow a --url host that is not a loopback address\n"
            "\n"
            "Tools are called only when named by --safe-tools / the profile, or with\n"
            "--call-tools: a fuzzer must not delete your files.\n"
            "\n"
            "Exit status: 0 no finding, 1 findings written, 2 usage, 3 the campaign could\n"
            "not run. SIGINT ends the campaign and writes the report.\n"
            "\n"
            "example:\n"
            "  mcpcheck fuzz --seconds 60 -- build/bin/mcpcheck-refserver\n"
            "  mcpcheck fuzz --seconds 60 --url http://127.0.0.1:0/mcp -- \\\n"
            "      build/bin/mcpcheck-refserver --http 127.0.0.1:0\n",
            MC_CLI_DEFAULT_VERSION, MC_EXEC_HANG_MS, MC_EXEC_RESTART_EVERY);
}

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

/* Splits "a,b,c" into a JSON array of names (new reference). */
static json_object *split_names(const char *s)
{
    json_object *arr = json_object_new_array();
    const char *p = s;

    while (arr != NULL && *p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len > 0)
            json_object_array_add(arr, json_object_new_string_len(p, (int)len));
        p += len;
        if (*p == ',')
            p++;
    }
    return arr;
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

static char *target_text(char **argv)
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
static const char *report_target(const char *url, char **argv)
{
    static char buf[1200];

    if (url == NULL)
        return target_text(argv);
    if (argv == NULL)
        return url;
    snprintf(buf, sizeof(buf), "%s (%s)", url, target_text(argv));
    return buf;
}

int mc_cmd_fuzz(int argc, char **argv)
{
    mc_campaign_opts_t co;
    mc_campaign_stats_t st;
    mc_registry_t *reg = NULL;
    mc_profile_t prof;
    int have_prof = 0, i, jobs = 1, rc, ret;
    long v;
    json_object *safe = NULL;
    const char *profile_path = NULL, *safe_list = NULL;
    char out_default[128], **target = NULL;
    struct sigaction sa;
    mc_errbuf_t eb;
    progress_ctx_t pc = {0};
    pid_t kids[MAX_JOBS];

    memset(&co, 0, sizeof(co));
    co.version = MC_CLI_DEFAULT_VERSION;
    co.seconds = 60;
    co.coverage = 1;
    co.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--") == 0) {
            target = &argv[i + 1];
            break;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return MC_EXIT_OK;
        } else if (strcmp(a, "--seconds") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 0, 30L * 24 * 3600, &v) != 0)
                goto bad;
            co.seconds = (int)v;
        } else if (strcmp(a, "--max-execs") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, 2000000000L, &v) != 0)
                goto bad;
            co.max_execs = (uint64_t)v;
        } else if (strcmp(a, "--max-findings") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, 1000000, &v) != 0)
                goto bad;
            co.max_findings = (uint64_t)v;
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 0, 0x7fffffffL, &v) != 0)
                goto bad;
            co.seed = (uint64_t)v;
        } else if (strcmp(a, "--jobs") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, MAX_JOBS, &v) != 0)
                goto bad;
            jobs = (int)v;
        } else if (strcmp(a, "--out") == 0 && has) {
            co.out_dir = argv[++i];
        } else if (strcmp(a, "--spec-version") == 0 && has) {
            co.version = argv[++i];
        } else if (strcmp(a, "--profile") == 0 && has) {
            profile_path = argv[++i];
        } else if (strcmp(a, "--safe-tools") == 0 && has) {
            safe_list = argv[++i];
        } else if (strcmp(a, "--call-tools") == 0) {
            co.call_tools = 1;
        } else if (strcmp(a, "--hang-ms") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 10, 600000, &v) != 0)
                goto bad;
            co.hang_ms = (int)v;
        } else if (strcmp(a, "--mem-limit") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 0, 1L << 20, &v) != 0)
                goto bad;
            co.mem_limit_mb = (uint64_t)v;
        } else if (strcmp(a, "--restart-every") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, 1000000, &v) != 0)
                goto bad;
            co.restart_every = (int)v;
        } else if (strcmp(a, "--no-coverage") == 0) {
            co.coverage = 0;
        } else if (strcmp(a, "--no-minimize") == 0) {
            co.no_minimize = 1;
        } else if (strcmp(a, "--url") == 0 && has) {
            co.url = argv[++i];
        } else if (strcmp(a, "--allow-remote") == 0) {
            co.allow_remote = 1;
        } else {
            fprintf(stderr, "mcpcheck fuzz: unknown option or missing value: %s\n", a);
            usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (co.url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_http_url_check(co.url, co.allow_remote, NULL, 0, NULL, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck fuzz: --url: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
    } else if (co.allow_remote) {
        fprintf(stderr, "mcpcheck fuzz: --allow-remote goes with --url\n");
        return MC_EXIT_USAGE;
    }
    if (co.url == NULL && (target == NULL || target[0] == NULL)) {
        fprintf(stderr, "mcpcheck fuzz: no server command (put it after --)\n");
        usage(stderr);
        return MC_EXIT_USAGE;
    }
    if (target != NULL && target[0] == NULL)
        target = NULL;
    if (!mc_protocol_version_known(co.version)) {
        fprintf(stderr, "mcpcheck fuzz: unknown protocol version %s\n", co.version);
        return MC_EXIT_USAGE;
    }
    if (co.out_dir == NULL) {
        time_t now = time(NULL);
        struct tm tmv;
        gmtime_r(&now, &tmv);
        strftime(out_default, sizeof(out_default), "reports/fuzz-%Y%m%d-%H%M%S", &tmv);
        co.out_dir = out_default;
    }
    if (profile_path != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_profile_load(profile_path, &prof, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck fuzz: profile: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
        have_prof = 1;
        if (prof.safe_tools != NULL)
            safe = json_object_get(prof.safe_tools);
    }
    if (safe_list != NULL) {
        json_object *more = split_names(safe_list);
        size_t k;
        if (safe == NULL)
            safe = json_object_new_array();
        for (k = 0; more != NULL && k < json_object_array_length(more); k++)
            json_object_array_add(safe, json_object_get(json_object_array_get_idx(more, k)));
        json_object_put(more);
    }
    co.safe_tools = safe;
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
    co.argv = target;
    co.stop = &stop_flag;
    co.progress = progress;
    co.progress_ctx = &pc;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    fprintf(stderr, "mcpcheck fuzz: seed %llu, %d worker%s, campaign directory %s\n",
            (unsigned long long)co.seed, jobs, jobs > 1 ? "s" : "", co.out_dir);

    rc = MC_OK;
    if (jobs == 1) {
        mc_errbuf_clear(&eb);
        rc = mc_campaign_run(&co, &st, &eb);
        if (rc != MC_OK)
            fprintf(stderr, "mcpcheck fuzz: %s\n", eb.msg);
    } else {
        int started = 0, bad_exit = 0;
        /* Each worker is a process of its own (AFL++'s -M/-S model): they
         * share the corpus and findings folders, never memory. */
        for (i = 0; i < jobs; i++) {
            pid_t pid = fork();
            if (pid < 0)
                break;
            if (pid == 0) {
                mc_campaign_opts_t wo = co;
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
            rc = MC_EIO;
    }
    mc_errbuf_clear(&eb);
    if (mc_campaign_write_report(co.out_dir, report_target(co.url, target), &eb) != MC_OK)
        fprintf(stderr, "mcpcheck fuzz: report: %s\n", eb.msg);
    {
        int nf = count_findings(co.out_dir);
        fprintf(stderr, "mcpcheck fuzz: %d finding%s; report: %s/report.md\n", nf,
                nf == 1 ? "" : "s", co.out_dir);
        if (rc != MC_OK && nf == 0)
            ret = MC_EXIT_INCOMPLETE;
        else
            ret = nf > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    }
out:
    mc_registry_free(reg);
    json_object_put(safe);
    if (have_prof)
        mc_profile_free(&prof);
    return ret;
bad:
    fprintf(stderr, "mcpcheck fuzz: bad value for %s: %s\n", argv[i - 1], argv[i]);
    return MC_EXIT_USAGE;
}
