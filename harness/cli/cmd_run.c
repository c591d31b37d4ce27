/*
 * cmd_run.c - `mcpcheck run`: the conformance run.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/scenarios_load.h"
#include "cli/util.h"
#include "client/session.h"
#include "core/clock.h"
#include "report/report.h"
#include "scenario/profile.h"
#include "scenario/suite.h"
#include "schema/registry.h"

#define MC_RUN_DEFAULT_REPORT_DIR "reports/latest"
#define MC_RUN_MAX_PATHS 64

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck run [options] -- SERVER_CMD [ARGS...]\n"
            "\n"
            "Runs the scenario library against an MCP server over stdio. Every scenario gets a\n"
            "fresh server process, started from SERVER_CMD without a shell. Every message is\n"
            "checked by the wire checks and the MCP schema of the negotiated version, and each\n"
            "scenario's own requirements are checked step by step.\n"
            "\n"
            "Options:\n"
            "  --scenarios PATH     scenario file or folder (repeatable; default: the library)\n"
            "  --filter GLOB        run only scenarios whose id matches, e.g. 'resources/*'\n"
            "  --spec-version V     protocol version to test (default: each of 2025-06-18 and\n"
            "                       2025-11-25 that a scenario applies to)\n"
            "  --profile FILE       role -> fixture map (default: scenarios/profiles/default.json,\n"
            "                       the official conformance suite's fixture names)\n"
            "  --strict             WARN (a broken SHOULD) fails the run\n"
            "  --report-dir DIR     where report.json goes (default: %s)\n"
            "  --jobs N             scenarios run in parallel (default: 2)\n"
            "  --timeout MS         how long each step waits for an answer (default: %d)\n"
            "  --seed N             seed recorded in the report (runs are deterministic)\n"
            "  --dry-run            list what would run, with requirement sentences; run nothing\n"
            "  -v, --verbose        show passing checks too\n"
            "  -h, --help           this help\n"
            "\n"
            "Verdicts: PASS, FAIL (a MUST broken), WARN (a SHOULD broken), INFO (a MAY),\n"
            "SKIP (capability not declared or version out of range), NOT-VERIFIED (the profile\n"
            "lacks a fixture), ERROR (the server crashed, hung or could not start).\n"
            "Exit codes: 0 pass, 1 fail (or WARN with --strict), 2 usage, 3 nothing could run.\n"
            "\n"
            "Examples:\n"
            "  mcpcheck run -- build/bin/mcpcheck-refserver\n"
            "  mcpcheck run --filter 'pagination/*' --spec-version 2025-11-25 -- ./my-server\n"
            "  mcpcheck run --profile scenarios/profiles/everything.json -- \\\n"
            "      npx -y @modelcontextprotocol/server-everything\n",
            MC_RUN_DEFAULT_REPORT_DIR, MC_RUNNER_STEP_TIMEOUT_MS);
}

static volatile int stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    if (stop_flag) {
        /* Second signal: give up at once. */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_flag = 1;
}

typedef struct printer {
    int color;
    int verbose;
} printer_t;

static void on_result(void *ctx, const mc_scenario_result_t *r, size_t done, size_t total)
{
    printer_t *p = ctx;
    char buf[16384];

    (void)done;
    (void)total;
    mc_report_console_scenario(r, p->color, p->verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    fflush(stdout);
}

static char *join_argv(char **argv)
{
    size_t len = 1, i;
    char *s;

    for (i = 0; argv[i] != NULL; i++)
        len += strlen(argv[i]) + 3;
    s = malloc(len);
    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (i = 0; argv[i] != NULL; i++) {
        if (i > 0)
            strncat(s, " ", len - strlen(s) - 1);
        strncat(s, argv[i], len - strlen(s) - 1);
    }
    return s;
}

int mc_cmd_run(int argc, char **argv)
{
    char *paths[MC_RUN_MAX_PATHS];
    size_t n_paths = 0;
    const char *filter = NULL, *version = NULL, *profile_path = NULL;
    const char *report_dir = MC_RUN_DEFAULT_REPORT_DIR;
    long jobs = 2, timeout = MC_RUNNER_STEP_TIMEOUT_MS, seed = 0;
    int strict = 0, dry = 0, verbose = 0, i, code;
    char **cmd = NULL;
    mc_cli_scenarios_t scs;
    mc_profile_t prof;
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;
    mc_suite_opts_t so;
    mc_run_result_t run;
    printer_t pr;
    const char *versions[8];
    char def_profile[4200], buf[512];
    int64_t t0;
    struct sigaction sa;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--") == 0) {
            cmd = argv + i + 1;
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            run_usage(stdout);
            return MC_EXIT_OK;
        } else if (strcmp(a, "--scenarios") == 0 && has) {
            if (n_paths == MC_RUN_MAX_PATHS) {
                fprintf(stderr, "mcpcheck run: too many --scenarios\n");
                return MC_EXIT_USAGE;
            }
            paths[n_paths++] = argv[++i];
            while (i + 1 < argc && argv[i + 1][0] != '-' && n_paths < MC_RUN_MAX_PATHS)
                paths[n_paths++] = argv[++i];
        } else if (strcmp(a, "--filter") == 0 && has) {
            filter = argv[++i];
        } else if (strcmp(a, "--spec-version") == 0 && has) {
            version = argv[++i];
            if (!mc_protocol_version_known(version)) {
                fprintf(stderr, "mcpcheck run: unknown protocol version '%s'\n", version);
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--profile") == 0 && has) {
            profile_path = argv[++i];
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
        } else if (strcmp(a, "--report-dir") == 0 && has) {
            report_dir = argv[++i];
        } else if (strcmp(a, "--jobs") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, MC_SUITE_MAX_JOBS, &jobs) != 0) {
                fprintf(stderr, "mcpcheck run: --jobs needs 1..%d\n", MC_SUITE_MAX_JOBS);
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--timeout") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, 600000, &timeout) != 0) {
                fprintf(stderr, "mcpcheck run: --timeout needs milliseconds (1..600000)\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 0, 2147483647L, &seed) != 0) {
                fprintf(stderr, "mcpcheck run: --seed needs a non-negative integer\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--dry-run") == 0) {
            dry = 1;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            verbose = 1;
        } else {
            fprintf(stderr, "mcpcheck run: unexpected argument '%s'\n\n", a);
            run_usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (!dry && (cmd == NULL || cmd[0] == NULL)) {
        fprintf(stderr, "mcpcheck run: no server command; put it after '--'\n\n");
        run_usage(stderr);
        return MC_EXIT_USAGE;
    }
    if (version != NULL) {
        versions[0] = version;
        versions[1] = NULL;
    } else {
        versions[0] = "2025-06-18";
        versions[1] = "2025-11-25";
        versions[2] = NULL;
    }

    if (mc_cli_scenarios_load(paths, n_paths, filter, &scs, "mcpcheck run") != 0)
        return MC_EXIT_USAGE;
    if (scs.failed > 0) {
        fprintf(stderr, "mcpcheck run: %zu scenario file%s did not load (see above); fix them "
                        "or check them with 'mcpcheck lint'\n",
                scs.failed, scs.failed == 1 ? "" : "s");
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_USAGE;
    }
    if (scs.n == 0) {
        fprintf(stderr, "mcpcheck run: no scenario matches%s%s\n", filter ? " " : "",
                filter ? filter : "");
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_USAGE;
    }
    if (dry) {
        size_t k;
        for (k = 0; k < scs.n; k++) {
            const mc_scenario_t *sc = &scs.v[k];
            printf("%s  (%s)\n", sc->id, sc->title);
            for (size_t r = 0; r < sc->n_reqs; r++)
                printf("    %-6s %s  [%s]\n      %s\n", mc_level_name(sc->reqs[r].level),
                       sc->reqs[r].check, sc->reqs[r].ref, sc->reqs[r].text);
        }
        printf("%zu scenarios, %zu runs\n", scs.n, mc_suite_count(scs.v, scs.n, versions));
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_OK;
    }

    memset(&prof, 0, sizeof(prof));
    if (profile_path == NULL) {
        snprintf(def_profile, sizeof(def_profile), "%s/profiles/default.json",
                 mc_cli_default_scenarios());
        profile_path = def_profile;
    }
    mc_errbuf_clear(&eb);
    if (mc_profile_load(profile_path, &prof, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck run: profile: %s\n", eb.msg);
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&reg, NULL, MC_REGISTRY_BUNDLED, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck run: %s\n", eb.msg);
        goto fail;
    }
    for (const char *const *v = mc_registry_versions(); *v != NULL; v++) {
        /* Load what is bundled; versions without schemas are not schema-checked. */
        mc_errbuf_t e2;
        mc_errbuf_clear(&e2);
        mc_registry_load(reg, *v, &e2);
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    memset(&so, 0, sizeof(so));
    so.versions = versions;
    so.jobs = (int)jobs;
    so.runner.argv = cmd;
    so.runner.roles = prof.roles;
    so.runner.registry = reg;
    so.runner.step_timeout_ms = (int)timeout;
    so.runner.stop = &stop_flag;
    pr.color = isatty(1) && getenv("NO_COLOR") == NULL;
    pr.verbose = verbose;
    so.on_result = on_result;
    so.cb_ctx = &pr;

    memset(&run, 0, sizeof(run));
    run.target = join_argv(cmd);
    run.profile = strdup(prof.path);
    run.seed = (uint64_t)seed;
    run.strict = strict;
    {
        time_t now = time(NULL);
        struct tm tmv;
        gmtime_r(&now, &tmv);
        strftime(run.started, sizeof(run.started), "%Y-%m-%dT%H:%M:%SZ", &tmv);
    }
    run.versions = strdup(version ? version : "2025-06-18,2025-11-25");
    t0 = mc_now_ms();
    if (mc_suite_run(scs.v, scs.n, &so, &run) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory during the run; the report is partial\n");
    run.duration_ms = mc_now_ms() - t0;
    if (stop_flag)
        run.partial = 1;
    mc_run_summarize(&run);

    mc_errbuf_clear(&eb);
    if (mc_report_write_json(&run, report_dir, &eb) != MC_OK)
        fprintf(stderr, "mcpcheck run: %s\n", eb.msg);
    else
        printf("report: %s/report.json\n", report_dir);
    mc_report_console_summary(&run, pr.color, buf, sizeof(buf));
    printf("%s", buf);
    code = mc_run_exit_code(&run);
    mc_run_free(&run);
    mc_registry_free(reg);
    mc_profile_free(&prof);
    mc_cli_scenarios_free(&scs);
    return code;

fail:
    mc_registry_free(reg);
    mc_profile_free(&prof);
    mc_cli_scenarios_free(&scs);
    return MC_EXIT_INCOMPLETE;
}
