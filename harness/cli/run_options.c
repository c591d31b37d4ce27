/*
 * run_options.c - the options of `mcpcheck run`: the table its parsing and
 * its --help come from, and the rules on how they go together.
 */
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "cli/util.h"
#include "client/session.h"
#include "client/target.h"
#include "core/limits.h"
#include "scenario/suite.h"

/* The longest --timeout and --startup-timeout, in milliseconds. */
#define MC_RUN_MAX_TIMEOUT_MS 600000L

/* --spec-version: a published version, or "all". */
static int check_run_version(const char *value, char *why, size_t n)
{
    if (strcmp(value, "all") == 0)
        return 0;
    if (mc_cli_check_version(value, why, n) == 0)
        return 0;
    {
        size_t used = strlen(why);
        /* "(known: A, B)" becomes "(known: A, B, all)". */
        if (used > 0 && why[used - 1] == ')')
            snprintf(why + used - 1, n - used + 1, ", all)");
    }
    return -1;
}

/* --fail-on's words, in the order of mc_fail_on_t. */
static const char *const fail_on_words[] = {"fail", "warn", "info", NULL};
/* --transport's words, in the order of MC_TARGET_HTTP_*. */
static const char *const transport_words[] = {"auto", "streamable-http", "sse", NULL};

#define T mc_cli_run_opts_t
static const mc_opt_t run_opts[] = {
    MC_OPTION_LIST(T, scenarios, "scenarios", 0, "PATH", MC_OPT_GREEDY, NULL, NULL,
                   "scenario files or folders (repeatable; default: the library, which "
                   "--scenarios replaces unless --with-library is given)"),
    MC_OPTION_FLAG(T, with_library, "with-library", 0,
                   "with --scenarios: run the scenario library too, in the same run and "
                   "gate (your scenarios keep the ids they have alone)"),
    MC_OPTION_LIST(T, filters, "filter", 0, "GLOB", 0, NULL, NULL,
                   "run only scenarios whose id matches, e.g. 'resources/*' (repeatable: a "
                   "scenario matching any runs)"),
    MC_OPTION_LIST(T, spec_versions, "spec-version", 0, "V", 0, check_run_version, NULL,
                   "protocol version to test (repeatable; 'all': every published version "
                   "the harness runs). Default: the versions the server speaks. Before the "
                   "run the server is started once per version, newest first, and asked for "
                   "it with initialize (server/discover for the stateless 2026-07-28): the "
                   "versions it accepts as offered are the ones it "
                   "speaks (if it accepts none, those it answers instead; if it cannot be "
                   "asked, the default set). A counter-offer must name one of them, "
                   "whichever versions are tested. Each scenario runs at each tested version "
                   "it applies to; a version lacking a feature the scenario needs "
                   "(elicitation, audio, batches...) gives SKIP with the reason"),
    MC_OPTION_STRING(T, profile, "profile", 0, "FILE",
                     "role -> fixture map (default: scenarios/profiles/default.json, the "
                     "official conformance suite's fixture names)"),
    MC_OPTION_ENUM(T, fail_on_opt, "fail-on", 0, "LEVEL", fail_on_words,
                   "what fails the run: 'fail' (default: a broken MUST, an ERROR), 'warn' (a "
                   "broken SHOULD too), 'info' (any finding, MAY observations included). The "
                   "spec's level of each check never changes; reports show the gate's decision "
                   "beside it"),
    MC_OPTION_FLAG(T, strict, "strict", 0, "the same as --fail-on warn"),
    MC_OPTION_STRING(T, gate, "gate", 0, "FILE",
                     "per-check outcomes with a reason (JSONC): {\"fail_on\": LEVEL, "
                     "\"rules\": [{\"check\": ID or GLOB, \"outcome\": \"fail\"|\"warn\"|"
                     "\"ignore\", \"reason\": TEXT}]}; an exact id wins over a glob, the first "
                     "glob over later ones; --fail-on and --strict win over its \"fail_on\" "
                     "(docs/gate.md)"),
    MC_OPTION_FLAG(T, call_tools, "call-tools", 0,
                   "scenarios may call every listed tool with arguments made from its "
                   "inputSchema, and the behaviour probe calls each once to see which "
                   "roles it fills (tools can have side effects: by default only the "
                   "profile's \"safe_tools\" are called)"),
    MC_OPTION_STRING(T, report_dir, "report-dir", 0, "DIR",
                     "where the reports go (default: " MC_RUN_DEFAULT_REPORT_DIR
                     "): report.json, junit.xml, report.sarif, report.html, traces/*.jsonl"),
    MC_OPTION_STRING(T, baseline, "baseline", 0, "FILE",
                     "known failures (see 'mcpcheck baseline'): a listed failure does not "
                     "fail the run; a listed one that passes does"),
    MC_OPTION_LONG(T, jobs, "jobs", 0, "N", 1, MC_SUITE_MAX_JOBS,
                   "scenarios run in parallel (default: the number of processors online, "
                   "at least 2)"),
    MC_OPTION_LONG(T, timeout, "timeout", 0, "MS", 1, MC_RUN_MAX_TIMEOUT_MS,
                   "how long each step waits for an answer (default: " MC_OPTS_STR(
                       MC_RUNNER_STEP_TIMEOUT_MS) ")"),
    MC_OPTION_LONG(T, startup, "startup-timeout", 0, "MS", 1, MC_RUN_MAX_TIMEOUT_MS,
                   "how long the server may take to start and answer initialize (default: " MC_OPTS_STR(
                       MC_DEFAULT_STARTUP_TIMEOUT_MS) "); a server that never completes the "
                                                      "handshake stops the run early (exit 3)"),
    MC_OPTION_LONG(T, seed, "seed", 0, "N", 0, 2147483647L,
                   "a label written to the report (report.json \"seed\", the HTML "
                   "header), e.g. the seed of the fuzz campaign that made the scenarios; "
                   "nothing in a run is random, so it changes nothing else"),
    MC_OPTION_FLAG(T, dry, "dry-run", 0,
                   "list what would run, with requirement sentences; run nothing"),
    MC_OPTION_STRING(T, url, "url", 0, "URL",
                     "test over HTTP at URL (see --transport). Without SERVER_CMD the server is "
                     "already running; with it, SERVER_CMD is started once and the run waits "
                     "(up to " MC_OPTS_STR(MC_TARGET_STARTUP_BUDGET_MS) " ms) until it listens: "
                     "for a URL with port 0, until it prints an http://HOST:PORT address on "
                     "stdout or stderr, whose port is then used. Every scenario gets a fresh "
                     "HTTP session, ended with DELETE"),
    MC_OPTION_FLAG(T, fresh, "fresh-process", 0,
                   "start the server for every scenario: over stdio, scenarios that only "
                   "read (list, read, get, complete) otherwise run one after another on a "
                   "process an earlier one of the same version and client capabilities "
                   "used; with --url and SERVER_CMD, the server is otherwise started once"),
    MC_OPTION_FLAG(T, allow_remote, "allow-remote", 0,
                   "allow a --url host that is not a loopback address"),
    MC_OPTION_ENUM(T, transport, "transport", 0, "NAME", transport_words,
                   "with --url: the HTTP transport. 'auto' (default): Streamable HTTP, and the "
                   "HTTP+SSE transport of 2024-11-05 at that version, or when the server "
                   "answers the initialize POST with 404 or 405 (the 2025-03-26 backwards "
                   "compatibility procedure); 'streamable-http': that only (2024-11-05 is "
                   "skipped); 'sse': HTTP+SSE at every version (URL is the SSE endpoint: GET "
                   "it, then POST to the URI of its endpoint event; the transport scenarios "
                   "of Streamable HTTP are skipped). Each run's transcript names the transport "
                   "it used"),
    MC_OPTION_FLAG(T, verbose, "verbose", 'v',
                   "list every run as it ends (passing checks, the checks of SKIP and "
                   "NOT-VERIFIED scenarios, the harness's reading of each failed check), the "
                   "area x version matrix and every cause of failure. Without it the console "
                   "shows a progress line (a line per area when not a terminal), then only "
                   "what did not pass, grouped by cause"),
    MC_OPTION_FLAG(T, quiet, "quiet", 'q', "print only the summary line and the exit code"),
    MC_OPTION_END,
};

static const mc_opts_spec_t run_spec = {
    .prog = "mcpcheck run",
    .synopsis =
        "mcpcheck run [options] -- SERVER_CMD [ARGS...]\n"
        "       mcpcheck run [options] --url URL [-- SERVER_CMD [ARGS...]]\n",
    .about = "Runs the scenario library against an MCP server over stdio. Every scenario\n"
             "gets a server process started from SERVER_CMD without a shell: a fresh one,\n"
             "or the one earlier scenarios of the same version and client capabilities\n"
             "left running, when it reads none of the server's state they changed\n"
             "(scenarios/README.md, \"Scenarios that share a process\";\n"
             "--fresh-process: never).\n"
             "Every message is checked by the wire checks and the MCP schema of the\n"
             "negotiated version, and each scenario's own requirements are checked step by\n"
             "step.\n",
    .epilogue =
        "Verdicts: PASS, FAIL (a MUST broken), WARN (a SHOULD broken), INFO (a MAY),\n"
        "SKIP (not applicable: capability not declared, the version lacks a feature, or\n"
        "nothing the server offers has the shape a scenario needs, every listed item\n"
        "looked at), NOT-VERIFIED (the fixture a scenario needs could not be found:\n"
        "roles are looked up in what the server lists and, before the scenarios, in what\n"
        "its prompts and, with --call-tools, its tools are seen to do), ERROR (the\n"
        "server crashed, hung or could not start).\n"
        "Exit codes: 0 pass, 1 fail (a finding the gate fails: see --fail-on and --gate;\n"
        "or a stale baseline entry),\n"
        "2 usage, 3 nothing could run, or the run was interrupted before a failure was\n"
        "found (SIGINT/SIGTERM: the scenarios under way end within a second, the ones\n"
        "that finished are reported, the rest are listed as not run, and the report is\n"
        "marked partial; a second signal stops the servers at once, still writing the\n"
        "report).\n"
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
    .opts = run_opts,
    .positional = NULL,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

/* The versions to test from --spec-version (oldest first, as the table
 * orders them, whatever the command line's order), or the default set. */
static void pick_versions(mc_cli_run_opts_t *o)
{
    size_t k = 0, a;
    int all = 0;

    for (a = 0; a < o->spec_versions.n; a++)
        all |= strcmp(o->spec_versions.v[a], "all") == 0;
    o->probe = o->spec_versions.n == 0;
    if (o->probe) {
        (void)mc_version_list(MC_VF_RUN_DEFAULT, o->versions,
                              sizeof(o->versions) / sizeof(o->versions[0]));
        return;
    }
    for (const char *const *v = mc_version_names(); *v != NULL; v++) {
        int in = all && mc_protocol_version_known(*v);
        for (a = 0; a < o->spec_versions.n; a++)
            in |= strcmp(o->spec_versions.v[a], *v) == 0;
        if (in && k < MC_V_COUNT)
            o->versions[k++] = *v;
    }
    o->versions[k] = NULL;
}

/* --jobs without the option: a run per processor, at least two (a server
 * that waits does not hold its processor). */
static long default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 2 ? 2 : n > MC_SUITE_MAX_JOBS ? MC_SUITE_MAX_JOBS : n;
}

int mc_cli_run_options(int argc, char **argv, mc_cli_run_opts_t *o)
{
    mc_errbuf_t eb;
    int code;

    memset(o, 0, sizeof(*o));
    o->scenarios = (mc_opt_list_t){o->paths_v, MC_RUN_MAX_PATHS, 0};
    o->spec_versions = (mc_opt_list_t){o->versions_v, MC_RUN_MAX_VERSION_OPTS, 0};
    o->filters = (mc_opt_list_t){o->filters_v, MC_RUN_MAX_PATHS, 0};
    o->report_dir = MC_RUN_DEFAULT_REPORT_DIR;
    o->jobs = default_jobs();
    o->timeout = MC_RUNNER_STEP_TIMEOUT_MS;
    o->startup = MC_DEFAULT_STARTUP_TIMEOUT_MS;
    o->fail_on_opt = -1;
    code = mc_opts_parse(&run_spec, o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (o->strict && o->fail_on_opt >= 0 && o->fail_on_opt != (int)MC_FAIL_ON_WARN)
        return mc_opts_fail(&run_spec, "--strict is --fail-on warn; it contradicts --fail-on %s",
                            fail_on_words[o->fail_on_opt]);
    if (o->verbose && o->quiet)
        return mc_opts_fail(&run_spec, "-v and -q contradict each other");
    o->fail_on = o->fail_on_opt >= 0 ? (mc_fail_on_t)o->fail_on_opt
                 : o->strict         ? MC_FAIL_ON_WARN
                                     : MC_FAIL_ON_FAIL;
    if (o->url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_target_url_check(o->url, o->allow_remote, &eb) != MC_OK)
            return mc_opts_fail(&run_spec, "--url: %s", eb.msg);
        if (o->cmd != NULL && o->cmd[0] == NULL)
            o->cmd = NULL;
        if (o->fresh && o->cmd == NULL)
            return mc_opts_fail(&run_spec, "--fresh-process needs a server command after '--'");
    } else if (o->allow_remote) {
        return mc_opts_fail(&run_spec, "--allow-remote goes with --url");
    }
    if (o->url == NULL && o->transport != 0)
        return mc_opts_fail(&run_spec, "--transport goes with --url");
    if (!o->dry && o->url == NULL && (o->cmd == NULL || o->cmd[0] == NULL))
        return mc_opts_fail(&run_spec, "no server command; put it after '--' (see '%s --help')",
                            run_spec.prog);
    pick_versions(o);
    return MC_OPTS_CONTINUE;
}
