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
#include "client/process.h"
#include "client/http.h"
#include "client/http_limits.h"
#include "client/httptarget.h"
#include "client/session.h"
#include "core/clock.h"
#include "core/version.h"
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
            "       mcpcheck run [options] --url http://HOST:PORT/PATH [-- SERVER_CMD [ARGS...]]\n"
            "\n"
            "Runs the scenario library against an MCP server over stdio. Every scenario gets a\n"
            "fresh server process, started from SERVER_CMD without a shell. Every message is\n"
            "checked by the wire checks and the MCP schema of the negotiated version, and each\n"
            "scenario's own requirements are checked step by step.\n"
            "\n"
            "Options:\n"
            "  --scenarios PATH     scenario file or folder (repeatable; default: the library)\n"
            "  --filter GLOB        run only scenarios whose id matches, e.g. 'resources/*'\n"
            "  --spec-version V     protocol version to test (repeatable; 'all': every published\n"
            "                       version the harness runs). Default: the versions the server\n"
            "                       speaks. Before the run the server is started once per\n"
            "                       version, newest first, and asked for it with initialize: the\n"
            "                       versions it accepts as offered are the ones it speaks (if it\n"
            "                       accepts none, those it answers instead; if it cannot be\n"
            "                       asked, the default set). A counter-offer must name one of\n"
            "                       them, whichever versions are tested. Each scenario runs at\n"
            "                       each tested version it applies to; a version lacking a\n"
            "                       feature the scenario needs (elicitation, audio, batches...)\n"
            "                       gives SKIP with the reason\n"
            "  --profile FILE       role -> fixture map (default: scenarios/profiles/default.json,\n"
            "                       the official conformance suite's fixture names)\n"
            "  --strict             WARN (a broken SHOULD) fails the run\n"
            "  --call-tools         scenarios may call every listed tool with arguments made\n"
            "                       from its inputSchema (tools can have side effects: by\n"
            "                       default only the profile's \"safe_tools\" are called)\n"
            "  --report-dir DIR     where the reports go (default: %s): report.json,\n"
            "                       junit.xml, report.sarif, report.html, traces/*.jsonl\n"
            "  --baseline FILE      known failures (see 'mcpcheck baseline'): a listed failure\n"
            "                       does not fail the run; a listed one that passes does\n"
            "  --jobs N             scenarios run in parallel (default: 2)\n"
            "  --timeout MS         how long each step waits for an answer (default: %d)\n"
            "  --startup-timeout MS how long the server may take to start and answer\n"
            "                       initialize (default: %d); a server that never completes\n"
            "                       the handshake stops the run early (exit 3)\n"
            "  --seed N             seed recorded in the report (runs are deterministic)\n"
            "  --dry-run            list what would run, with requirement sentences; run nothing\n"
            "  --url URL            test over Streamable HTTP at URL. Without SERVER_CMD the server\n"
            "                       is already running; with it, SERVER_CMD is started once and\n"
            "                       the run waits (up to %d ms) until it listens: for a URL with\n"
            "                       port 0, until it prints an http://HOST:PORT address on stdout\n"
            "                       or stderr, whose port is then used. Every scenario gets a\n"
            "                       fresh HTTP session, ended with DELETE\n"
            "  --fresh-process      with --url and SERVER_CMD: start the server for every scenario\n"
            "  --allow-remote       allow a --url host that is not a loopback address\n"
            "  -v, --verbose        show passing checks, the checks of SKIP and NOT-VERIFIED\n"
            "                       scenarios, the harness's reading of each failed check\n"
            "                       and every cause of failure\n"
            "  -h, --help           this help\n"
            "\n"
            "Verdicts: PASS, FAIL (a MUST broken), WARN (a SHOULD broken), INFO (a MAY),\n"
            "SKIP (capability not declared, or the version lacks a feature), NOT-VERIFIED (the server\n"
            "does not offer the fixture a scenario needs: roles are looked up in what the\n"
            "server lists), ERROR (the server crashed, hung or could not start).\n"
            "Exit codes: 0 pass, 1 fail (or WARN with --strict, or a stale baseline entry),\n"
            "2 usage, 3 nothing could run, or the run was interrupted before a failure was\n"
            "found (SIGINT/SIGTERM: the scenarios under way end within a second, the ones that\n"
            "finished are reported, the rest are listed as not run, and the report is marked\n"
            "partial; a second signal stops the servers at once, still writing the report).\n"
            "Colours: on a terminal unless NO_COLOR is set.\n"
            "\n"
            "Examples:\n"
            "  mcpcheck run -- build/bin/mcpcheck-refserver\n"
            "  mcpcheck run --filter 'pagination/*' --spec-version " MC_VERSION_NEWEST_HANDSHAKE
            " -- ./my-server\n"
            "  mcpcheck run --baseline known-failures.jsonc -- ./my-server\n"
            "  mcpcheck run --profile scenarios/profiles/everything.json -- \\\n"
            "      npx -y @modelcontextprotocol/server-everything\n"
            "  mcpcheck run --url http://127.0.0.1:0/mcp -- \\\n"
            "      build/bin/mcpcheck-refserver --http 127.0.0.1:0\n",
            MC_RUN_DEFAULT_REPORT_DIR, MC_RUNNER_STEP_TIMEOUT_MS, MC_DEFAULT_STARTUP_TIMEOUT_MS,
            MC_HTTP_STARTUP_BUDGET_MS);
}

static volatile int stop_flag;

static void on_signal(int sig)
{
    static const char msg[] = "\nmcpcheck run: interrupted; stopping the scenarios under way, "
                              "then writing a partial report (again to stop at once)\n";
    static const char msg2[] = "\nmcpcheck run: interrupted again; killing the servers and "
                               "writing the report\n";

    if (stop_flag > 1) {
        /* Third signal: give up without a report. */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    if (stop_flag == 1) {
        /* Second signal: no more shutdown graces (see runner.c). */
        stop_flag = 2;
        if (write(STDERR_FILENO, msg2, sizeof(msg2) - 1) < 0)
            stop_flag = 2;
        return;
    }
    stop_flag = 1;
    if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
        stop_flag = 1;
}

typedef struct printer {
    int color;
    int verbose;
    int tty;                    /* redraw a progress line */
    int strict;
    const mc_baseline_t *baseline;
    size_t failed;              /* failures the baseline does not list, so far */
    int64_t t0;
} printer_t;

static void on_result(void *ctx, const mc_scenario_result_t *r, size_t done, size_t total)
{
    printer_t *p = ctx;
    char buf[16384];

    if (p->tty)
        fputs("\r\033[K", stdout);
    mc_report_console_result(r, p->baseline, p->strict, p->color, p->verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    if (r->verdict == MC_FAIL || r->verdict == MC_ERROR || (p->strict && r->verdict == MC_WARN))
        if (mc_baseline_result_reason(p->baseline, r, p->strict) == NULL)
            p->failed++;
    if (p->tty && done < total) {
        mc_report_console_progress(done, total, p->failed, mc_now_ms() - p->t0, p->color, buf,
                                   sizeof(buf));
        fputs(buf, stdout);
    }
    fflush(stdout);
}

/*
 * The scenario runs the suite plans, in its order (mc_suite_run runs them
 * in this order and keeps the finished ones, a prefix, in order).
 */
typedef struct planned {
    const mc_scenario_t *sc;
    const char *version;
} planned_t;

static size_t plan(const mc_scenario_t *scs, size_t n, const char *const *versions,
                   planned_t *out)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++) {
        if (scs[i].client_version != NULL) {
            if (out != NULL)
                out[k] = (planned_t){&scs[i], scs[i].client_version};
            k++;
            continue;
        }
        for (const char *const *v = versions; *v != NULL; v++) {
            if (!mc_scenario_applies(&scs[i], *v))
                continue;
            if (out != NULL)
                out[k] = (planned_t){&scs[i], *v};
            k++;
        }
    }
    return k;
}

/*
 * After an interruption: the scenarios stopped half-way (ERROR "the run was
 * interrupted") and those never started are listed as not run, so that the
 * report keeps only what finished. finished: how many of the planned jobs,
 * the first ones, the suite started (a failed version probe, appended after
 * them, is not one).
 */
static int list_not_run(mc_report_t *rep, const mc_scenario_t *scs, size_t n,
                        const char *const *versions, size_t finished, const char *why_not)
{
    size_t total = plan(scs, n, versions, NULL), i, k;
    planned_t *jobs = calloc(total + 1, sizeof(*jobs));
    mc_run_result_t *run = &rep->run;
    int rc = MC_OK;

    if (jobs == NULL)
        return MC_ENOMEM;
    plan(scs, n, versions, jobs);
    for (i = 0, k = 0; i < run->n; i++) {
        mc_scenario_result_t *r = &run->scenarios[i];
        if (r->verdict == MC_ERROR && r->reason != NULL &&
            strncmp(r->reason, "the run was interrupted", 23) == 0) {
            char why[160];
            snprintf(why, sizeof(why), "interrupted while running (after %lld ms)",
                     (long long)r->duration_ms);
            if (rc == MC_OK)
                rc = mc_report_add_not_run(rep, r->id, r->version, r->area, r->title, r->file,
                                           why);
            mc_sresult_free(r);
            continue;
        }
        run->scenarios[k++] = *r;
    }
    run->n = k;
    /* The suite starts jobs in order and finishes every job it starts: the
     * results are the first `finished` jobs, the rest never started. */
    for (i = finished; i < total && rc == MC_OK; i++)
        rc = mc_report_add_not_run(rep, jobs[i].sc->id, jobs[i].version, jobs[i].sc->area,
                                   jobs[i].sc->title ? jobs[i].sc->title : jobs[i].sc->id,
                                   jobs[i].sc->doc.name, why_not);
    free(jobs);
    mc_report_summarize(rep);
    return rc;
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

/*
 * The versions the target speaks: each version the harness can request,
 * newest first, is offered in initialize to a fresh target. Fills out[]
 * (NULL-terminated, oldest first) with the ones it accepted as offered or,
 * when it accepted none, the known versions it answered instead. Returns how
 * many; 0 when no probe completed (the target cannot be asked). When the
 * probes gave the target up, *failed holds the last failed probe's result
 * (failed->id NULL otherwise; the caller frees it).
 */
static size_t probe_versions(const mc_runner_opts_t *ro, const char **out,
                             mc_scenario_result_t *failed)
{
    /* The probes count against a record of their own: the target is given
     * up on when no probe completed and one stayed silent for its whole
     * start-up budget or two failed (as in a run); a version refused by a
     * server that accepted another is only an answer. Giving up is then
     * handed to the run's record, so the run starts nothing and says why. */
    static mc_runner_shared_t probes;
    mc_runner_opts_t po = *ro;
    const char *const *names = mc_version_names();
    const char *spoken[MC_V_COUNT + 1], *answered[MC_V_COUNT + 1];
    size_t n_spoken = 0, n_answered = 0, count = 0, k;
    int id;

    out[0] = NULL;
    while (names[count] != NULL)
        count++;
    for (id = (int)count - 1; id >= 0 && !stop_flag; id--) {
        char got[32], why[600];
        const char *v = names[id];
        if (!mc_protocol_version_known(v))
            continue;
        po.shared = &probes;
        mc_sresult_free(failed);
        memset(failed, 0, sizeof(*failed));
        if (mc_runner_probe(&po, v, got, sizeof(got), why, sizeof(why), failed) != MC_OK) {
            printf("version probe: %s: %s\n", v, why);
            continue;
        }
        if (strcmp(got, v) == 0) {
            spoken[n_spoken++] = v;
            continue;
        }
        printf("version probe: %s: the server answered %s\n", v, got);
        for (k = 0; k < n_answered && strcmp(answered[k], got) != 0; k++)
            ;
        if (k == n_answered && mc_version_find(got) != NULL && mc_protocol_version_known(got))
            answered[n_answered++] = mc_version_find(got)->name;
    }
    if (!probes.abort) {
        mc_sresult_free(failed);
        memset(failed, 0, sizeof(*failed));
    }
    if (probes.abort && ro->shared != NULL) {
        ro->shared->unusable = probes.unusable;
        snprintf(ro->shared->reason, sizeof(ro->shared->reason), "%s", probes.reason);
        ro->shared->reason_set = 1;
        ro->shared->abort = 1;
    }
    if (n_spoken == 0 && n_answered == 0)
        return 0;
    /* Oldest first. */
    k = 0;
    for (id = 0; names[id] != NULL; id++) {
        size_t a;
        int in = 0;
        for (a = 0; a < n_spoken; a++)
            in |= strcmp(spoken[a], names[id]) == 0;
        for (a = 0; n_spoken == 0 && a < n_answered; a++)
            in |= strcmp(answered[a], names[id]) == 0;
        if (in)
            out[k++] = names[id];
    }
    out[k] = NULL;
    printf("versions: the server speaks");
    for (k = 0; out[k] != NULL; k++)
        printf("%s %s", k > 0 ? "," : "", out[k]);
    printf("%s\n", n_spoken == 0 ? " (as it answered; it accepted none as offered)" : "");
    fflush(stdout);
    return k;
}

int mc_cmd_run(int argc, char **argv)
{
    char *paths[MC_RUN_MAX_PATHS];
    size_t n_paths = 0;
    const char *filter = NULL, *profile_path = NULL;
    const char *asked[MC_V_COUNT + 1];
    size_t n_asked = 0;
    int probe = 1;
    const char *report_dir = MC_RUN_DEFAULT_REPORT_DIR, *baseline_path = NULL;
    long jobs = 2, timeout = MC_RUNNER_STEP_TIMEOUT_MS, seed = 0;
    long startup = MC_DEFAULT_STARTUP_TIMEOUT_MS;
    static mc_runner_shared_t shared;
    mc_scenario_result_t probe_failed;
    size_t suite_n;
    char not_run_why[700];
    int strict = 0, dry = 0, verbose = 0, call_tools = 0, i, code;
    const char *url = NULL;
    int fresh = 0, allow_remote = 0;
    mc_http_target_t tgt;
    char **cmd = NULL;
    mc_cli_scenarios_t scs;
    mc_profile_t prof;
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;
    mc_suite_opts_t so;
    mc_run_result_t run;
    mc_report_t rep;
    mc_baseline_t baseline;
    printer_t pr;
    const char *versions[MC_V_COUNT + 1], *spoken[MC_V_COUNT + 1];
    char def_profile[4200], buf[16384];
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
            const char *version = argv[++i];
            probe = 0;
            if (strcmp(version, "all") == 0) {
                n_asked = 0;
                for (const char *const *v = mc_version_names(); *v != NULL; v++)
                    if (mc_protocol_version_known(*v))
                        asked[n_asked++] = *v;
            } else if (!mc_protocol_version_known(version)) {
                fprintf(stderr, "mcpcheck run: unknown protocol version '%s' (known: ", version);
                for (const char *const *v = mc_version_names(), *const *f = v; *v != NULL; v++)
                    if (mc_protocol_version_known(*v))
                        fprintf(stderr, "%s%s", v == f ? "" : ", ", *v);
                fprintf(stderr, ", all)\n");
                return MC_EXIT_USAGE;
            } else {
                size_t k;
                for (k = 0; k < n_asked && strcmp(asked[k], version) != 0; k++)
                    ;
                if (k == n_asked && n_asked < MC_V_COUNT)
                    asked[n_asked++] = mc_version_find(version)->name;
            }
        } else if (strcmp(a, "--profile") == 0 && has) {
            profile_path = argv[++i];
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
        } else if (strcmp(a, "--call-tools") == 0) {
            call_tools = 1;
        } else if (strcmp(a, "--report-dir") == 0 && has) {
            report_dir = argv[++i];
        } else if (strcmp(a, "--baseline") == 0 && has) {
            baseline_path = argv[++i];
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
        } else if (strcmp(a, "--startup-timeout") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 1, 600000, &startup) != 0) {
                fprintf(stderr,
                        "mcpcheck run: --startup-timeout needs milliseconds (1..600000)\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (mc_cli_parse_long(argv[++i], 0, 2147483647L, &seed) != 0) {
                fprintf(stderr, "mcpcheck run: --seed needs a non-negative integer\n");
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(a, "--url") == 0 && has) {
            url = argv[++i];
        } else if (strcmp(a, "--fresh-process") == 0) {
            fresh = 1;
        } else if (strcmp(a, "--allow-remote") == 0) {
            allow_remote = 1;
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
    memset(&tgt, 0, sizeof(tgt));
    if (url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_http_url_check(url, allow_remote, NULL, 0, NULL, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck run: --url: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
        if (cmd != NULL && cmd[0] == NULL)
            cmd = NULL;
        if (fresh && cmd == NULL) {
            fprintf(stderr, "mcpcheck run: --fresh-process needs a server command after '--'\n");
            return MC_EXIT_USAGE;
        }
    } else if (fresh || allow_remote) {
        fprintf(stderr, "mcpcheck run: --fresh-process and --allow-remote go with --url\n");
        return MC_EXIT_USAGE;
    }
    if (!dry && url == NULL && (cmd == NULL || cmd[0] == NULL)) {
        fprintf(stderr, "mcpcheck run: no server command; put it after '--'\n\n");
        run_usage(stderr);
        return MC_EXIT_USAGE;
    }
    if (n_asked > 0) {
        /* Oldest first, as the table orders them, whatever the command line's order. */
        size_t k = 0;
        for (const char *const *v = mc_version_names(); *v != NULL; v++)
            for (size_t a = 0; a < n_asked; a++)
                if (strcmp(asked[a], *v) == 0)
                    versions[k++] = *v;
        versions[k] = NULL;
    } else {
        (void)mc_version_list(MC_VF_RUN_DEFAULT, versions, sizeof(versions) / sizeof(versions[0]));
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
            for (size_t r = 0; r < sc->n_reqs; r++) {
                char ref[MC_CHECK_MAX_PAGE + 16];
                mc_check_ref_string(&sc->reqs[r], versions[1] == NULL ? versions[0] : NULL, ref,
                                    sizeof(ref));
                printf("    %-6s %s  [%s]\n      \"%s\"\n", mc_level_name(sc->reqs[r].level),
                       sc->reqs[r].check, ref, sc->reqs[r].quote);
                if (sc->reqs[r].interpretation != NULL)
                    printf("      reading: %s\n", sc->reqs[r].interpretation);
            }
        }
        printf("%zu scenarios, %zu runs\n", scs.n, mc_suite_count(scs.v, scs.n, versions));
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_OK;
    }

    memset(&prof, 0, sizeof(prof));
    memset(&baseline, 0, sizeof(baseline));
    if (baseline_path != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_baseline_load(baseline_path, &baseline, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck run: baseline: %s\n", eb.msg);
            mc_cli_scenarios_free(&scs);
            return MC_EXIT_USAGE;
        }
    }
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

    /* Orphans of a target (a daemonizing server, a setsid grandchild) come
     * back to us, so that they can be found and killed. */
    mc_proc_supervise_init();
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
    so.runner.safe_tools = prof.safe_tools;
    so.runner.call_tools = call_tools;
    so.runner.registry = reg;
    so.runner.step_timeout_ms = (int)timeout;
    so.runner.startup_timeout_ms = (int)startup;
    /* A scenario must be able to wait out the start-up budget and then run. */
    so.runner.scenario_timeout_ms = (int)startup + MC_RUNNER_SCENARIO_TIMEOUT_MS;
    so.runner.stop = &stop_flag;
    so.runner.shared = &shared;
    if (url != NULL) {
        so.runner.url = url;
        so.runner.allow_remote = allow_remote;
        so.runner.fresh_process = fresh;
        if (cmd != NULL && !fresh) {
            mc_spawn_opts_t sp;
            memset(&sp, 0, sizeof(sp));
            sp.argv = cmd;
            mc_errbuf_clear(&eb);
            if (mc_http_target_start(&tgt, &sp, url, MC_HTTP_STARTUP_BUDGET_MS, &eb) != MC_OK) {
                fprintf(stderr, "mcpcheck run: the server did not start: %s\n", eb.msg);
                goto fail;
            }
            so.runner.url = tgt.url;
        }
    }
    memset(&pr, 0, sizeof(pr));
    pr.tty = isatty(STDOUT_FILENO);
    pr.color = pr.tty && (getenv("NO_COLOR") == NULL || getenv("NO_COLOR")[0] == '\0');
    pr.verbose = verbose;
    pr.strict = strict;
    pr.baseline = baseline_path != NULL ? &baseline : NULL;
    so.on_result = on_result;
    so.cb_ctx = &pr;

    /* What the server speaks: the versions to test unless some were named,
     * and in any case the versions a counter-offer must come from. */
    memset(&probe_failed, 0, sizeof(probe_failed));
    if (!stop_flag && probe_versions(&so.runner, spoken, &probe_failed) > 0) {
        so.runner.server_versions = spoken;
        if (probe) {
            size_t k;
            for (k = 0; spoken[k] != NULL; k++)
                versions[k] = spoken[k];
            versions[k] = NULL;
        }
    } else if (probe && !stop_flag) {
        printf("version probe: no version was agreed; testing the default set\n");
    }

    memset(&run, 0, sizeof(run));
    if (url != NULL && cmd == NULL) {
        run.target = strdup(url);
    } else if (url != NULL) {
        char *j = join_argv(cmd);
        size_t n = (j ? strlen(j) : 0) + strlen(so.runner.url) + 8;
        run.target = malloc(n);
        if (run.target != NULL)
            snprintf(run.target, n, "%s (%s)", so.runner.url, j ? j : "");
        free(j);
    } else {
        run.target = join_argv(cmd);
    }
    run.profile = strdup(prof.path);
    run.seed = (uint64_t)seed;
    run.strict = strict;
    {
        time_t now = time(NULL);
        struct tm tmv;
        gmtime_r(&now, &tmv);
        strftime(run.started, sizeof(run.started), "%Y-%m-%dT%H:%M:%SZ", &tmv);
    }
    {
        char joined[256] = "";
        size_t used = 0;
        for (size_t k = 0; versions[k] != NULL && used < sizeof(joined); k++) {
            int w = snprintf(joined + used, sizeof(joined) - used, "%s%s", k > 0 ? "," : "",
                             versions[k]);
            used += w > 0 ? (size_t)w : 0;
        }
        run.versions = strdup(joined);
    }
    t0 = mc_now_ms();
    pr.t0 = t0;
    if (mc_suite_run(scs.v, scs.n, &so, &run) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory during the run; the report is partial\n");
    /* A target the probes gave up on ran nothing: the failed probe is the
     * one result, with the findings that explain why. */
    suite_n = run.n;
    if (probe_failed.id != NULL && shared.abort && run.n == 0) {
        mc_scenario_result_t *grown = realloc(run.scenarios, sizeof(*grown));
        if (grown != NULL) {
            run.scenarios = grown;
            run.scenarios[run.n++] = probe_failed;
            memset(&probe_failed, 0, sizeof(probe_failed));
        }
    }
    mc_sresult_free(&probe_failed);
    run.duration_ms = mc_now_ms() - t0;
    if (tgt.started) {
        char how[200];
        mc_http_target_stop(&tgt, MC_SHUTDOWN_TERM_GRACE_MS, how, sizeof(how));
    }
    if (pr.tty)
        fputs("\r\033[K", stdout);
    /* Processes the targets left behind that no scenario could attribute. */
    mc_proc_kill_orphans(NULL, 0);
    if (stop_flag)
        run.partial = 1;
    if (shared.abort && run.partial_why == NULL) {
        char why[sizeof(shared.reason) + 64];
        snprintf(why, sizeof(why), "the run stopped early: the server cannot be tested: %s",
                 shared.reason);
        run.partial_why = strdup(why);
    }
    if (shared.abort)
        fprintf(stderr,
                "mcpcheck run: stopped early: the server cannot be tested (%d run%s failed before "
                "any completed): %s\n",
                (int)shared.unusable, shared.unusable == 1 ? "" : "s", shared.reason);
    mc_run_summarize(&run);

    mc_report_init(&rep, &run, NULL);
    if (shared.abort)
        snprintf(not_run_why, sizeof(not_run_why),
                 "not started: the run stopped early, the server cannot be tested: %s",
                 shared.reason);
    if (rep.run.partial && list_not_run(&rep, scs.v, scs.n, versions, suite_n,
                                          shared.abort ? not_run_why
                                                       : "not started: the run was interrupted") !=
                                 MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory listing the scenarios that did not run\n");
    if (baseline_path != NULL && mc_report_apply_baseline(&rep, &baseline) != MC_OK)
        fprintf(stderr, "mcpcheck run: out of memory applying the baseline\n");

    mc_errbuf_clear(&eb);
    if (mc_report_write_all(&rep, report_dir, &eb) != MC_OK)
        fprintf(stderr, "mcpcheck run: %s\n", eb.msg);
    else
        printf("reports: %s/{%s,%s,%s,%s,%s/}\n", report_dir, MC_REPORT_JSON, MC_REPORT_JUNIT,
           MC_REPORT_SARIF, MC_REPORT_HTML, MC_REPORT_TRACES);
    mc_report_console_baseline(&rep, pr.color, buf, sizeof(buf));
    fputs(buf, stdout);
    if (mc_report_console_matrix(&rep, buf, sizeof(buf)) > 0)
        fputs(buf, stdout);
    mc_report_console_summary(&rep, pr.color, buf, sizeof(buf));
    fputs(buf, stdout);
    mc_report_console_causes(&rep, pr.color, pr.verbose, buf, sizeof(buf));
    fputs(buf, stdout);
    code = mc_report_exit_code(&rep);
    mc_report_free(&rep);
    mc_baseline_free(&baseline);
    mc_registry_free(reg);
    mc_profile_free(&prof);
    mc_cli_scenarios_free(&scs);
    return code;

fail:
    mc_baseline_free(&baseline);
    mc_registry_free(reg);
    mc_profile_free(&prof);
    mc_cli_scenarios_free(&scs);
    return MC_EXIT_INCOMPLETE;
}
