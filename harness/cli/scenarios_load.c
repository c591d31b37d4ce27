#include "cli/scenarios_load.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/campaign.h"
#include "judge/quotes.h"

/* The scenario library's quotes, generated at build time (quotegen/main.c). */
extern const char *const mc_library_quotes[];

const char *mc_cli_default_scenarios(void)
{
    static char path[4096];
    struct stat st;

    snprintf(path, sizeof(path), "%s/scenarios", MC_SOURCE_DIR);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return path;
    return "scenarios";
}

/* The root ids are relative to: the folder itself for a folder argument, or
 * the "scenarios" folder above a file. */
static void find_root(const char *path, char *root, size_t n)
{
    struct stat st;
    const char *hit;

    snprintf(root, n, "%s", path);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t l = strlen(root);
        while (l > 1 && root[l - 1] == '/')
            root[--l] = '\0';
        return;
    }
    hit = strstr(path, "scenarios/");
    if (hit != NULL) {
        const char *last = hit;
        while ((hit = strstr(last + 1, "scenarios/")) != NULL)
            last = hit;
        snprintf(root, n, "%.*s", (int)(last - path + 9), path);
    } else {
        char *slash = strrchr(root, '/');
        if (slash != NULL)
            *slash = '\0';
        else
            snprintf(root, n, ".");
    }
}

/* True when id matches one of the globs (or there is none). */
static int wanted(const char *id, char *const *filters, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (fnmatch(filters[i], id, 0) == 0)
            return 1;
    return n == 0;
}

int mc_cli_scenarios_load(char *const *paths, size_t n_paths, char *const *filters,
                          size_t n_filters, mc_cli_scenarios_t *out, const char *prog)
{
    char **files = NULL;
    size_t n_files = 0, i;
    mc_errbuf_t eb;
    const char *def = mc_cli_default_scenarios();
    char *def_paths[1];

    memset(out, 0, sizeof(*out));
    if (n_paths == 0) {
        def_paths[0] = (char *)def;
        paths = def_paths;
        n_paths = 1;
    }
    mc_errbuf_clear(&eb);
    if (mc_scenario_find(paths, n_paths, &files, &n_files, &eb) != MC_OK) {
        fprintf(stderr, "%s: %s\n", prog, eb.msg);
        return -1;
    }
    out->v = calloc(n_files + 1, sizeof(*out->v));
    if (out->v == NULL) {
        mc_scenario_paths_free(files);
        return -1;
    }
    for (i = 0; i < n_files; i++) {
        char *problems = NULL;
        char root[4096];
        mc_scenario_t sc;
        int rc;

        find_root(n_paths == 1 ? paths[0] : files[i], root, sizeof(root));
        if (n_paths > 1)
            find_root(files[i], root, sizeof(root));
        snprintf(out->root, sizeof(out->root), "%s", root);
        mc_errbuf_clear(&eb);
        rc = mc_scenario_load(files[i], root, &sc, &problems, &eb);
        if (rc != MC_OK) {
            out->failed++;
            if (problems != NULL)
                fprintf(stderr, "%s", problems);
            else
                fprintf(stderr, "%s: %s\n", files[i], eb.msg);
            free(problems);
            continue;
        }
        if (!wanted(sc.id, filters, n_filters)) {
            mc_scenario_free(&sc);
            continue;
        }
        out->v[out->n++] = sc;
    }
    mc_scenario_paths_free(files);
    return 0;
}

int mc_cli_scenarios_add_library(mc_cli_scenarios_t *s, char *const *filters, size_t n_filters,
                                 const char *prog)
{
    mc_cli_scenarios_t lib;
    mc_scenario_t *grown;
    size_t i, k;

    if (mc_cli_scenarios_load(NULL, 0, filters, n_filters, &lib, prog) != 0)
        return -1;
    grown = realloc(s->v, (s->n + lib.n + 1) * sizeof(*grown));
    if (grown == NULL) {
        fprintf(stderr, "%s: %s\n", prog, mc_strerror(MC_ENOMEM));
        mc_cli_scenarios_free(&lib);
        return -1;
    }
    s->v = grown;
    s->failed += lib.failed;
    for (i = 0; i < lib.n; i++) {
        int clash = 0;
        for (k = 0; k < s->n && !clash; k++)
            clash = strcmp(s->v[k].id, lib.v[i].id) == 0;
        if (clash) {
            fprintf(stderr,
                    "%s: scenario id \"%s\" is also a scenario of the library (%s); give "
                    "your file another path below its folder\n",
                    prog, lib.v[i].id, lib.v[i].doc.name);
            s->failed++;
            mc_scenario_free(&lib.v[i]);
            continue;
        }
        s->v[s->n++] = lib.v[i];
    }
    free(lib.v);
    return 0;
}

/* The catalogue: the quotes of the built-in checks, of the library and of
 * the scenarios fuzz findings are written as. */
static int known_quotes(mc_quotes_t *q)
{
    size_t i;
    int rc;

    memset(q, 0, sizeof(*q));
    rc = mc_quotes_add_builtin(q);
    for (i = 0; rc == MC_OK && mc_library_quotes[i] != NULL; i++)
        rc = mc_quotes_add(q, mc_library_quotes[i]);
    for (i = 0; rc == MC_OK && mc_campaign_quote_at(i) != NULL; i++)
        rc = mc_quotes_add(q, mc_campaign_quote_at(i));
    mc_quotes_seal(q);
    return rc;
}

int mc_cli_scenarios_hold_quotes(mc_cli_scenarios_t *s, const char *prog)
{
    mc_quotes_t q;
    size_t r, w = 0;
    int rc = known_quotes(&q);

    for (r = 0; r < s->n; r++) {
        char *problems = NULL;
        int n = rc == MC_OK ? mc_scenario_check_quotes(&s->v[r], &q, &problems) : 0;
        if (n < 0)
            rc = n;
        if (n > 0) {
            fputs(problems != NULL ? problems : "", stderr);
            free(problems);
            mc_scenario_free(&s->v[r]);
            s->failed++;
            continue;
        }
        s->v[w++] = s->v[r];
    }
    s->n = w;
    mc_quotes_free(&q);
    if (rc != MC_OK) {
        fprintf(stderr, "%s: %s\n", prog, mc_strerror(rc));
        return -1;
    }
    return 0;
}

void mc_cli_scenarios_free(mc_cli_scenarios_t *s)
{
    size_t i;

    for (i = 0; i < s->n; i++)
        mc_scenario_free(&s->v[i]);
    free(s->v);
    memset(s, 0, sizeof(*s));
}
