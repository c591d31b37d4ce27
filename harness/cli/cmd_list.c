/*
 * cmd_list.c - `mcpcheck list` and `mcpcheck lint`.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/requirements.h"
#include "cli/scenarios_load.h"
#include "cli/util.h"
#include "core/json.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "scenario/shapes.h"

#define MC_LIST_MAX_PATHS 256
/* Scenario ids printed per role by `mcpcheck list --roles`. */
#define MC_LIST_MAX_ROLE_USERS 12

/* One check in words: level, id, page per version, the quote, the reading. */
static void print_check(const mc_check_def_t *d)
{
    size_t i;

    printf("    %-6s %s\n", mc_level_name(d->level), d->check);
    if (d->author) {
        /* A rule of the user's own product: their words, never the spec's. */
        printf("           your rule: \"%s\"\n", d->quote != NULL ? d->quote : "");
        if (d->link != NULL)
            printf("           %s\n", d->link);
        return;
    }
    /* Each page once, with the versions (consecutive in the refs) it holds for. */
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++) {
        int first = i == 0 || strcmp(d->refs[i].page, d->refs[i - 1].page) != 0;
        int last = i + 1 == MC_CHECK_MAX_REFS || d->refs[i + 1].version == NULL ||
                   strcmp(d->refs[i].page, d->refs[i + 1].page) != 0;
        if (first)
            printf("           %s (", d->refs[i].page);
        printf("%s%s", first ? "" : ", ", d->refs[i].version);
        if (last)
            printf(")\n");
    }
    printf("           \"%s\"%s\n", d->quote != NULL ? d->quote : "",
           d->legacy ? "  [legacy {ref, text}: not a checked quote]" : "");
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++)
        if (d->refs[i].quote != NULL || d->refs[i].has_level)
            printf("           at %s%s%s: \"%s\"\n", d->refs[i].version,
                   d->refs[i].has_level ? ", " : "",
                   d->refs[i].has_level ? mc_level_name(d->refs[i].level) : "",
                   d->refs[i].quote != NULL ? d->refs[i].quote : d->quote);
    if (d->interpretation != NULL)
        printf("           reading: %s\n", d->interpretation);
}

/* A check definition as JSON (new reference). */
static json_object *check_json(const mc_check_def_t *d, int line)
{
    json_object *o = json_object_new_object(), *refs = json_object_new_object();
    json_object *quotes = NULL, *levels = NULL;
    size_t i;

    json_object_object_add(o, "check", json_object_new_string(d->check));
    json_object_object_add(o, "level", json_object_new_string(mc_level_name(d->level)));
    if (d->author) {
        /* The author's form, as written: no quote, no refs. */
        json_object_object_add(o, "author", json_object_new_boolean(1));
        json_object_object_add(o, "text", json_object_new_string(d->quote != NULL ? d->quote : ""));
        if (d->link != NULL)
            json_object_object_add(o, "link", json_object_new_string(d->link));
        if (line > 0)
            json_object_object_add(o, "line", json_object_new_int(line));
        json_object_put(refs);
        return o;
    }
    json_object_object_add(o, "quote", json_object_new_string(d->quote != NULL ? d->quote : ""));
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++) {
        json_object_object_add(refs, d->refs[i].version, json_object_new_string(d->refs[i].page));
        if (d->refs[i].quote != NULL) {
            if (quotes == NULL)
                quotes = json_object_new_object();
            json_object_object_add(quotes, d->refs[i].version,
                                   json_object_new_string(d->refs[i].quote));
        }
        if (d->refs[i].has_level) {
            if (levels == NULL)
                levels = json_object_new_object();
            json_object_object_add(levels, d->refs[i].version,
                                   json_object_new_string(mc_level_name(d->refs[i].level)));
        }
    }
    json_object_object_add(o, "refs", refs);
    if (levels != NULL)
        json_object_object_add(o, "levels", levels);
    if (quotes != NULL)
        json_object_object_add(o, "quotes", quotes);
    if (d->interpretation != NULL)
        json_object_object_add(o, "interpretation", json_object_new_string(d->interpretation));
    if (d->legacy)
        json_object_object_add(o, "legacy", json_object_new_boolean(1));
    if (line > 0)
        json_object_object_add(o, "line", json_object_new_int(line));
    return o;
}

/* `mcpcheck list --json`: every scenario with its checks, and the built-in checks. */
static void print_json(const mc_cli_scenarios_t *scs)
{
    json_object *root = json_object_new_object(), *arr = json_object_new_array();
    json_object *builtin = json_object_new_array();
    const mc_check_def_t *d;
    size_t k, r;

    for (k = 0; k < scs->n; k++) {
        const mc_scenario_t *sc = &scs->v[k];
        json_object *o = json_object_new_object(), *checks = json_object_new_array();
        json_object_object_add(o, "id", json_object_new_string(sc->id));
        json_object_object_add(o, "file", json_object_new_string(sc->doc.name));
        json_object_object_add(o, "title", json_object_new_string(sc->title ? sc->title : ""));
        if (sc->min_version != NULL)
            json_object_object_add(o, "min_version", json_object_new_string(sc->min_version));
        if (sc->max_version != NULL)
            json_object_object_add(o, "max_version", json_object_new_string(sc->max_version));
        {
            /* The published versions it runs at: in its versions, with its features. */
            json_object *vs = json_object_new_array();
            char why[200];
            for (const char *const *v = mc_version_names(); *v != NULL; v++)
                if (mc_scenario_applies(sc, *v) &&
                    !mc_scenario_version_gap(sc, *v, why, sizeof(why)))
                    json_object_array_add(vs, json_object_new_string(*v));
            json_object_object_add(o, "versions", vs);
        }
        for (r = 0; r < sc->n_reqs; r++) {
            char ptr[32];
            snprintf(ptr, sizeof(ptr), "/spec/%zu", r);
            json_object_array_add(checks, check_json(&sc->reqs[r], mc_scenario_line(sc, ptr)));
        }
        json_object_object_add(o, "checks", checks);
        json_object_array_add(arr, o);
    }
    for (k = 0; (d = mc_builtin_check_at(k)) != NULL; k++)
        json_object_array_add(builtin, check_json(d, 0));
    json_object_object_add(root, "scenarios", arr);
    json_object_object_add(root, "builtin", builtin);
    printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(root);
}

/* The fixture role a scenario role stands on (its first two segments), or
 * "" for the data-only and list-wide roles. */
static void fixture_of(const char *role, char *out, size_t n)
{
    char base[128];
    mc_role_kind_t k = mc_role_kind(role, base, sizeof(base));

    out[0] = '\0';
    if (k == MC_ROLE_DATA) {
        char bb[128];
        k = mc_role_kind(base, bb, sizeof(bb));
        if (strcmp(base, role) == 0)
            return;
    }
    if (k == MC_ROLE_TOOL || k == MC_ROLE_PROMPT || k == MC_ROLE_RESOURCE || k == MC_ROLE_TEMPLATE)
        snprintf(out, n, "%s", k == MC_ROLE_TEMPLATE ? "resource.template" : base);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(json_object_get_string(*(json_object *const *)a),
                  json_object_get_string(*(json_object *const *)b));
}

/*
 * `mcpcheck list --roles`: every fixture role the scenarios use, what can
 * fill it (a listing, by its shape; the behaviour probe, a tool seen when
 * called or a prompt seen when got; else only a profile), and the scenarios
 * that need it. A role line is "ROLE  listing|called|got|profile  SHAPE".
 */
static void print_roles(const mc_cli_scenarios_t *scs)
{
    json_object *roles = json_object_new_object(), *sorted;
    size_t k, r, n = 0;

    for (k = 0; k < scs->n; k++)
        for (r = 0; r < scs->v[k].n_roles; r++) {
            char fx[128];
            json_object *users;
            fixture_of(scs->v[k].roles[r], fx, sizeof(fx));
            if (fx[0] == '\0')
                continue;
            users = mc_json_get(roles, fx);
            if (users == NULL) {
                users = json_object_new_array();
                json_object_object_add(roles, fx, users);
            }
            if (json_object_array_length(users) == 0 ||
                strcmp(json_object_get_string(
                           json_object_array_get_idx(users, json_object_array_length(users) - 1)),
                       scs->v[k].id) != 0)
                json_object_array_add(users, json_object_new_string(scs->v[k].id));
        }
    {
        /* Sorted by name. */
        json_object *names = json_object_new_array();
        json_object_object_foreach(roles, key, val)
        {
            (void)val;
            json_object_array_add(names, json_object_new_string(key));
        }
        json_object_array_sort(names, by_name);
        sorted = names;
    }
    for (k = 0; k < json_object_array_length(sorted); k++) {
        const char *role = json_object_get_string(json_object_array_get_idx(sorted, k));
        json_object *users = mc_json_get(roles, role);
        size_t i, m = json_object_array_length(users);
        int by = mc_role_seen_by(role);
        printf("%-34s %-8s %s\n", role,
               mc_role_shape_pickable(role) ? "listing"
               : by == MC_SEEN_CALL         ? "called"
               : by == MC_SEEN_GET          ? "got"
                                            : "profile",
               mc_role_shape(role));
        printf("    %zu scenario%s:", m, m == 1 ? "" : "s");
        for (i = 0; i < m && i < MC_LIST_MAX_ROLE_USERS; i++)
            printf("%s %s", i > 0 ? "," : "",
                   json_object_get_string(json_object_array_get_idx(users, i)));
        printf("%s\n", m > MC_LIST_MAX_ROLE_USERS ? ", ..." : "");
        n++;
    }
    printf("%zu roles (listing: a listed item of the shape is picked when the profile maps "
           "none; called, got: the item the behaviour probe saw do it when called (tools, with "
           "--call-tools or safe_tools) or got (prompts); profile: only a profile can map it)\n",
           n);
    json_object_put(sorted);
    json_object_put(roles);
}

/* What the command line asks of `mcpcheck list` and `mcpcheck lint`. */
typedef struct list_opts {
    mc_opt_list_t scenarios; /* --scenarios, or lint's FILE_OR_FOLDER arguments */
    mc_opt_list_t filters;   /* --filter */
    int json, builtin, roles, requirements;
    const char *version; /* --spec-version (with --requirements) */
    char *paths_v[MC_LIST_MAX_PATHS];
    char *filters_v[MC_LIST_MAX_PATHS];
} list_opts_t;

#define T list_opts_t
static const mc_opt_t list_opts[] = {
    MC_OPTION_LIST(T, scenarios, "scenarios", 0, "PATH", MC_OPT_GREEDY, NULL, NULL,
                   "scenario files or folders (repeatable; default: the library)"),
    MC_OPTION_LIST(T, filters, "filter", 0, "GLOB", 0, NULL, NULL,
                   "list only scenarios whose id matches, e.g. 'logging/*' (repeatable: any)"),
    MC_OPTION_FLAG(T, builtin, "builtin", 0,
                   "list the built-in checks (wire, schema, pagination) instead"),
    MC_OPTION_FLAG(T, roles, "roles", 0,
                   "list the fixture roles the scenarios need: the shape each needs, whether "
                   "a listing can fill it or only a profile, and the scenarios that use it"),
    MC_OPTION_FLAG(T, requirements, "requirements", 0,
                   "list the traceability table: every RFC 2119 sentence of the spec pages in "
                   "scope per version, with the checks that judge it or the reason it is not "
                   "tested (scenarios/requirements.json), and per-version totals"),
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version,
                      mc_cli_hint_versions, "with --requirements: only this protocol version"),
    MC_OPTION_FLAG(T, json, "json", 0,
                   "print the scenarios and the built-in checks as one JSON document "
                   "{\"scenarios\": [{id, file, title, checks}], \"builtin\": [checks]}"),
    MC_OPTION_END,
};

static const mc_opts_spec_t list_spec = {
    .prog = "mcpcheck list",
    .synopsis = "mcpcheck list [--scenarios PATH...] [--filter GLOB] [--builtin | --roles] "
                "[--json]\n"
                "mcpcheck list --requirements [--spec-version V] [--json]\n",
    .about = "Lists the scenarios with their ids, titles, and for each check its level,\n"
             "id, spec page per protocol version, the quoted sentence and the harness's\n"
             "reading of it.\n",
    .epilogue = "Examples:\n"
                "  mcpcheck list --filter 'logging/*'\n"
                "  mcpcheck list --roles      what a profile can map, and what the listings fill\n"
                "  mcpcheck list --requirements --spec-version 2025-11-25\n",
    .opts = list_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = MC_OPTS_NONE,
};

static const mc_opt_t lint_opts[] = {MC_OPTION_END};

static const mc_opts_spec_t lint_spec = {
    .prog = "mcpcheck lint",
    .synopsis = "mcpcheck lint [FILE_OR_FOLDER...]\n",
    .about = "Checks scenario files without running them: JSONC syntax, unknown fields,\n"
             "unknown step kinds and matchers, malformed paths and regular expressions,\n"
             "variables used before they are captured, checks not declared in \"spec\",\n"
             "the form of each check (quote, refs per version, a level that is the\n"
             "quote's RFC 2119 keyword), that every quote is a sentence of the spec\n"
             "mcpcheck knows (the built-in checks' and the library's; a rule of your own\n"
             "product is an author's check, {\"author\": true, \"text\": ...}), and the\n"
             "protocol's words: capability paths, request and notification methods held\n"
             "to the schema of every version the scenario runs at. An unknown name is\n"
             "refused with the nearest known one (\"did you mean\"). Problems are\n"
             "printed as FILE:LINE:COLUMN: message; warnings (a legacy {ref, text}\n"
             "check, a TODO marker, a recorded/ placeholder check id: the file still\n"
             "loads) as\n"
             "FILE:LINE:COLUMN: warning: message. With no argument, the whole library\n"
             "is checked. scenarios/README.md says what is checked and how a method\n"
             "is sent unknown on purpose.\n",
    .epilogue = "Exit codes: 0 every file loads (warnings allowed), 1 problems found,\n"
                "2 usage error.\n",
    .opts = lint_opts,
    .positional = "FILE_OR_FOLDER",
    .positional_at = offsetof(T, scenarios),
    .command_at = MC_OPTS_NONE,
};
#undef T

/* Reads the command line of list or lint into o. Returns MC_OPTS_CONTINUE
 * or the exit code to return. */
static int list_options(const mc_opts_spec_t *spec, int argc, char **argv, list_opts_t *o)
{
    memset(o, 0, sizeof(*o));
    o->scenarios = (mc_opt_list_t){o->paths_v, MC_LIST_MAX_PATHS, 0};
    o->filters = (mc_opt_list_t){o->filters_v, MC_LIST_MAX_PATHS, 0};
    return mc_opts_parse(spec, o, argc, argv);
}

/* Prints each scenario with the versions it runs at and its checks. */
static void print_scenarios(const mc_cli_scenarios_t *scs)
{
    size_t k;

    for (k = 0; k < scs->n; k++) {
        const mc_scenario_t *sc = &scs->v[k];
        printf("%s  %s\n", sc->id, sc->title);
        if (sc->min_version || sc->max_version || sc->features) {
            /* The published versions it runs at (its versions, with its features). */
            int first = 1;
            char why[200];
            printf("    versions");
            for (const char *const *v = mc_version_names(); *v != NULL; v++)
                if (mc_scenario_applies(sc, *v) &&
                    !mc_scenario_version_gap(sc, *v, why, sizeof(why))) {
                    printf("%s%s", first ? " " : ", ", *v);
                    first = 0;
                }
            printf("%s\n", first ? " (none)" : "");
        }
        for (size_t r = 0; r < sc->n_reqs; r++)
            print_check(&sc->reqs[r]);
    }
    printf("%zu scenarios\n", scs->n);
}

int mc_cmd_list(int argc, char **argv)
{
    list_opts_t o;
    mc_cli_scenarios_t scs;
    size_t k;
    int code;

    code = list_options(&list_spec, argc, argv, &o);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (o.builtin && !o.json) {
        const mc_check_def_t *d;
        for (k = 0; (d = mc_builtin_check_at(k)) != NULL; k++)
            print_check(d);
        printf("%zu built-in checks\n", k);
        return MC_EXIT_OK;
    }
    if (mc_cli_scenarios_load(o.scenarios.v, o.scenarios.n, o.filters.v, o.filters.n, &scs,
                              "mcpcheck list") != 0)
        return MC_EXIT_USAGE;
    if (o.version != NULL && !o.requirements) {
        mc_cli_scenarios_free(&scs);
        return mc_opts_fail(&list_spec, "--spec-version goes with --requirements");
    }
    if (o.requirements) {
        /* The data file stands beside the scenario library, or beside the
         * folder given with --scenarios. */
        const char *dir = mc_cli_default_scenarios();
        struct stat st;
        if (o.scenarios.n > 0 && stat(o.scenarios.v[0], &st) == 0 && S_ISDIR(st.st_mode))
            dir = o.scenarios.v[0];
        code = mc_cli_list_requirements(&scs, dir, o.version, o.json, "mcpcheck list");
        if (code == MC_EXIT_OK && scs.failed > 0)
            code = MC_EXIT_FAIL;
        mc_cli_scenarios_free(&scs);
        return code;
    }
    if (o.roles)
        print_roles(&scs);
    else if (o.json)
        print_json(&scs);
    else
        print_scenarios(&scs);
    code = scs.failed > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    mc_cli_scenarios_free(&scs);
    return code;
}

int mc_cmd_lint(int argc, char **argv)
{
    list_opts_t o;
    mc_cli_scenarios_t scs;
    size_t k, warned = 0;
    int code;

    code = list_options(&lint_spec, argc, argv, &o);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (mc_cli_scenarios_load(o.scenarios.v, o.scenarios.n, NULL, 0, &scs, "mcpcheck lint") != 0)
        return MC_EXIT_USAGE;
    if (mc_cli_scenarios_hold_quotes(&scs, "mcpcheck lint") != 0) {
        mc_cli_scenarios_free(&scs);
        return MC_EXIT_FAIL;
    }
    for (k = 0; k < scs.n; k++)
        if (scs.v[k].warnings != NULL) {
            fputs(scs.v[k].warnings, stderr);
            warned++;
        }
    printf("%zu scenario file%s loaded, %zu with problems, %zu with warnings\n", scs.n,
           scs.n == 1 ? "" : "s", scs.failed, warned);
    code = scs.failed > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    mc_cli_scenarios_free(&scs);
    return code;
}
