/*
 * cmd_profile.c - `mcpcheck profile --init`: a profile skeleton written from
 * what a live server lists.
 *
 * Every role with a shape (scenario/shapes.h) is resolved against the
 * server with no profile at all, as a run resolves it: a role a listed item
 * fills is written mapped to that item; a role nothing fills is written as
 * a comment naming the shape it needs, for the author to map by hand.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "client/session.h"
#include "client/target.h"
#include "core/json.h"
#include "core/version.h"
#include "scenario/fixtures.h"
#include "scenario/runner.h"
#include "scenario/shapes.h"

/* The longest --timeout: an hour, in milliseconds. */
#define MC_PROFILE_MAX_TIMEOUT_MS 3600000L

typedef struct profile_opts {
    int init, call_tools;
    long timeout;
    const char *version, *out;
    char **cmd;
} profile_opts_t;

#define T profile_opts_t
static const mc_opt_t profile_opts[] = {
    MC_OPTION_FLAG(T, init, "init", 0,
                   "write a profile skeleton from what the server lists (the only mode)"),
    MC_OPTION_STRING(T, out, "out", 'o', "FILE", "write it to FILE instead of standard output"),
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version,
                      mc_cli_hint_versions,
                      "protocol version to request (default " MC_VERSION_NEWEST_HANDSHAKE ");"),
    MC_OPTION_FLAG(T, call_tools, "call-tools", 0,
                   "count every listed tool as safe to call (roles that need a callable tool)"),
    MC_OPTION_LONG(T, timeout, "timeout", 0, "MS", 1, MC_PROFILE_MAX_TIMEOUT_MS,
                   "how long to wait for each answer (default " MC_OPTS_STR(
                       MC_DEFAULT_REQUEST_TIMEOUT_MS) ")"),
    MC_OPTION_END,
};

static const mc_opts_spec_t profile_spec = {
    .prog = "mcpcheck profile",
    .synopsis = "mcpcheck profile --init [--out FILE] [--spec-version V] [--call-tools] -- "
                "SERVER_CMD [ARGS...]\n",
    .about = "Starts SERVER_CMD, runs the handshake, walks its tools, prompts, resources\n"
             "and templates, and writes a profile (scenarios/profiles/README.md) with every\n"
             "role a listed item fills mapped to that item, and every role nothing fills\n"
             "left as a comment that says what shape it needs. Map those by hand, then\n"
             "run with 'mcpcheck run --profile FILE -- SERVER_CMD'.\n",
    .epilogue = "Exit codes: 0 written; 2 usage error; 3 the server could not be started or\n"
                "did not complete the handshake.\n"
                "Example: mcpcheck profile --init -o my-profile.jsonc -- python3 server.py\n",
    .opts = profile_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

/* Writes one role line: mapped to value, or a comment with its shape. */
static void write_role(FILE *f, const char *role, json_object *value, int last)
{
    if (value != NULL)
        fprintf(f, "    \"%s\": %s%s\n", role,
                json_object_to_json_string_ext(value, JSON_C_TO_STRING_NOSLASHESCAPE),
                last ? "" : ",");
    else
        fprintf(f, "    // \"%s\": \"...\",  needs %s\n", role, mc_role_shape(role));
}

/* The names of a walked list's items, comma-separated, in out. */
static void names_of(json_object *items, const char *key, char *out, size_t n)
{
    size_t i, len = 0, m = items != NULL ? json_object_array_length(items) : 0;

    out[0] = '\0';
    for (i = 0; i < m && len + 1 < n; i++) {
        const char *v = mc_json_get_str(json_object_array_get_idx(items, i), key);
        int w = snprintf(out + len, n - len, "%s%s", len > 0 ? ", " : "", v != NULL ? v : "?");
        len += w > 0 ? (size_t)w : 0;
    }
}

/* Resolves every shaped role over the live session (and what the behaviour
 * probe saw the tools and prompts do, when it ran) and writes the profile. */
static void write_profile(FILE *f, mc_session_t *s, const profile_opts_t *o,
                          json_object *behaviours)
{
    json_object *values[64] = {0};
    char why[512], tools[1024];
    json_object *name;
    mc_fixture_opts_t fo;
    mc_offer_t offer;
    const char *role;
    size_t i, last = (size_t)-1;

    memset(&fo, 0, sizeof(fo));
    fo.call_tools = o->call_tools;
    fo.behaviours = behaviours;
    fo.server_caps = s->server_caps;
    fo.timeout_ms = (int)o->timeout;
    mc_offer_init(&offer);
    for (i = 0; i < 64 && (role = mc_role_shape_at(i)) != NULL; i++) {
        int srv_rc = MC_OK;
        if (strcmp(role, "tools.safe") == 0)
            continue; /* the profile's "safe_tools", written above */
        /* A role known absent (nothing offered has its shape) is left a
         * comment like any other unfilled role. */
        if (mc_fixture_resolve(s, &offer, &fo, role, &values[i], why, sizeof(why), &srv_rc) ==
            MC_ROLE_OFFERED)
            last = i;
        else
            values[i] = NULL;
    }
    fprintf(f, "// A profile for %s %s, written by 'mcpcheck profile --init' from what it\n"
               "// lists. Roles a listed item fills are mapped; the commented roles need a\n"
               "// fixture of the shape named: map them to your server's names.\n",
            s->server_name != NULL ? s->server_name : "the server",
            s->server_version != NULL ? s->server_version : "");
    name = json_object_new_string(s->server_name != NULL ? s->server_name : "my server");
    fprintf(f, "{\n  \"name\": %s,\n",
            json_object_to_json_string_ext(name, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(name);
    names_of(offer.items[MC_LIST_TOOLS], "name", tools, sizeof(tools));
    fprintf(f, "  // Tools without side effects that scenarios may call with arguments made\n"
               "  // from their inputSchema (or given below in \"args\"). Listed: %s\n"
               "  \"safe_tools\": [],\n",
            tools[0] != '\0' ? tools : "(none)");
    fprintf(f, "  // \"args\": {\"TOOL_OR_PROMPT\": {\"argument\": \"value\"}},\n"
               "  \"roles\": {\n");
    for (i = 0; i < 64 && (role = mc_role_shape_at(i)) != NULL; i++) {
        if (strcmp(role, "tools.safe") == 0)
            continue;
        write_role(f, role, values[i], i == last);
        json_object_put(values[i]);
    }
    fprintf(f, "  }\n}\n");
    mc_offer_free(&offer);
}

/* What the server's tools (with --call-tools) and prompts do when used, at
 * version: the behaviour probe of a run (scenario/runner.h), or NULL. */
static json_object *probe_behaviours(const profile_opts_t *o, const char *version)
{
    mc_runner_opts_t ro;
    json_object *b = NULL;

    memset(&ro, 0, sizeof(ro));
    ro.argv = o->cmd;
    ro.call_tools = o->call_tools;
    ro.step_timeout_ms = (int)o->timeout;
    if (mc_runner_behaviours(&ro, version, &b) != MC_OK)
        return NULL;
    if (mc_json_get(b, "failed") != NULL) {
        fprintf(stderr, "mcpcheck profile: the behaviour probe ended early: %s\n",
                mc_json_get_str(b, "failed"));
        json_object_put(b);
        return NULL;
    }
    return b;
}

int mc_cmd_profile(int argc, char **argv)
{
    mc_target_opts_t topts;
    mc_session_opts_t so;
    mc_session_t s;
    mc_target_t *t;
    mc_errbuf_t eb;
    profile_opts_t o;
    FILE *f = stdout;
    json_object *behaviours;
    const char *version;
    int code, rc;

    memset(&o, 0, sizeof(o));
    o.timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS;
    code = mc_opts_parse(&profile_spec, &o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (!o.init || o.cmd == NULL || o.cmd[0] == NULL) {
        fprintf(stderr, "mcpcheck profile: give --init and a server: mcpcheck profile --init "
                        "-- SERVER_CMD [ARGS...]\n");
        return MC_EXIT_USAGE;
    }
    version = o.version != NULL ? o.version : MC_VERSION_NEWEST_HANDSHAKE;
    behaviours = probe_behaviours(&o, version);
    memset(&topts, 0, sizeof(topts));
    topts.argv = o.cmd;
    mc_errbuf_clear(&eb);
    if (mc_cli_target_open(&t, &topts, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck profile: %s\n", eb.msg);
        json_object_put(behaviours);
        return MC_EXIT_INCOMPLETE;
    }
    memset(&so, 0, sizeof(so));
    if (mc_session_init(&s, mc_target_link(t), &so) != MC_OK) {
        mc_cli_target_stop(t);
        mc_target_free(t);
        fprintf(stderr, "mcpcheck profile: out of memory\n");
        json_object_put(behaviours);
        return MC_EXIT_INCOMPLETE;
    }
    mc_errbuf_clear(&eb);
    rc = mc_session_initialize(&s, version, NULL, MC_DEFAULT_STARTUP_TIMEOUT_MS, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck profile: the handshake failed: %s\n", eb.msg);
        code = MC_EXIT_INCOMPLETE;
    } else if (o.out != NULL && (f = fopen(o.out, "w")) == NULL) {
        fprintf(stderr, "mcpcheck profile: cannot write %s\n", o.out);
        code = MC_EXIT_USAGE;
    } else {
        const char *bv = mc_json_get_str(behaviours, "version");
        write_profile(f, &s, &o,
                      bv != NULL && strcmp(bv, s.negotiated_version) == 0 ? behaviours : NULL);
        if (f != stdout && fclose(f) != 0) {
            fprintf(stderr, "mcpcheck profile: writing %s failed\n", o.out);
            code = MC_EXIT_INCOMPLETE;
        } else {
            code = MC_EXIT_OK;
            if (f != stdout)
                fprintf(stderr, "mcpcheck profile: wrote %s\n", o.out);
        }
    }
    mc_session_free(&s);
    json_object_put(behaviours);
    mc_cli_target_stop(t);
    if (code == MC_EXIT_INCOMPLETE)
        mc_cli_print_stderr_tail(t, "mcpcheck profile");
    mc_target_free(t);
    return code;
}
