#include "cli/scenarios_load.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/campaign.h"
#include "core/datadir.h"
#include "judge/quotes.h"
#include "scenario/catalogue.h"

/* The scenario library's quotes, generated at build time (quotegen/main.c). */
extern const char *const mc_library_quotes[];

const char *mc_cli_default_scenarios(void)
{
    return mc_datadir_get(MC_DATA_SCENARIOS);
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

/*
 * The library's check catalogue (catalogue.h), which every scenario loaded
 * may name checks of, the user's own included. A library without one loads
 * an empty catalogue. Returns 0, or -1 when it does not load (said on stderr).
 */
static int load_catalogue(mc_catalogue_t *cat, const char *prog)
{
    char path[4200], *problems = NULL;
    mc_errbuf_t eb;
    struct stat st;
    int rc;

    memset(cat, 0, sizeof(*cat));
    snprintf(path, sizeof(path), "%s/%s", mc_cli_default_scenarios(), MC_CATALOGUE_FILE);
    if (stat(path, &st) != 0)
        return 0;
    mc_errbuf_clear(&eb);
    rc = mc_catalogue_load(path, cat, &problems, &eb);
    if (rc == MC_OK)
        return 0;
    if (problems != NULL)
        fprintf(stderr, "%s", problems);
    else
        fprintf(stderr, "%s: %s: %s\n", prog, path, eb.msg);
    free(problems);
    return -1;
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
    mc_catalogue_t cat;

    memset(out, 0, sizeof(*out));
    if (n_paths == 0) {
        def_paths[0] = (char *)def;
        paths = def_paths;
        n_paths = 1;
    }
    if (load_catalogue(&cat, prog) != 0)
        return -1;
    mc_errbuf_clear(&eb);
    if (mc_scenario_find(paths, n_paths, &files, &n_files, &eb) != MC_OK) {
        fprintf(stderr, "%s: %s\n", prog, eb.msg);
        mc_catalogue_free(&cat);
        return -1;
    }
    out->v = calloc(n_files + 1, sizeof(*out->v));
    if (out->v == NULL) {
        mc_scenario_paths_free(files);
        mc_catalogue_free(&cat);
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
        rc = mc_scenario_load_with(files[i], root, &cat, &sc, &problems, &eb);
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
    mc_catalogue_free(&cat);
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

/* The spec check with this id among the scenarios of s, or NULL. */
static const mc_scenario_t *spec_check_owner(const mc_cli_scenarios_t *s, const char *id)
{
    size_t k, r;

    for (k = 0; k < s->n; k++)
        for (r = 0; r < s->v[k].n_reqs; r++)
            if (!s->v[k].reqs[r].author && strcmp(s->v[k].reqs[r].check, id) == 0)
                return &s->v[k];
    return NULL;
}

/* True (said on stderr) when an author's check of sc has the id of a spec
 * check of another scenario of s: one id, one definition, and a report
 * must not show the one as the other. */
static int author_id_clash(const mc_cli_scenarios_t *s, const mc_scenario_t *sc)
{
    size_t r;
    int clash = 0;

    for (r = 0; r < sc->n_reqs; r++) {
        const mc_scenario_t *owner;
        if (!sc->reqs[r].author || (owner = spec_check_owner(s, sc->reqs[r].check)) == NULL)
            continue;
        fprintf(stderr,
                "%s:%d: check \"%s\" is your rule here and a spec check in %s; give your "
                "rule an id of its own\n",
                sc->doc.name, mc_scenario_line(sc, "/spec"), sc->reqs[r].check,
                owner->doc.name);
        clash = 1;
    }
    return clash;
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
    unsigned char *drop = calloc(s->n + 1, 1);
    size_t r, w = 0;
    int rc = drop != NULL ? known_quotes(&q) : MC_ENOMEM;

    /* Judged first, dropped after: the id test reads every scenario. */
    for (r = 0; rc == MC_OK && r < s->n; r++) {
        char *problems = NULL;
        int n = mc_scenario_check_quotes(&s->v[r], &q, &problems);
        if (n < 0)
            rc = n;
        if (n > 0)
            fputs(problems != NULL ? problems : "", stderr);
        free(problems);
        drop[r] = n > 0 || author_id_clash(s, &s->v[r]);
    }
    for (r = 0; rc == MC_OK && r < s->n; r++) {
        if (drop[r]) {
            mc_scenario_free(&s->v[r]);
            s->failed++;
            continue;
        }
        s->v[w++] = s->v[r];
    }
    if (rc == MC_OK)
        s->n = w;
    if (drop != NULL)
        mc_quotes_free(&q);
    free(drop);
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
