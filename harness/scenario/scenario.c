/*
 * scenario.c - loading a scenario file: the top-level fields, the checks it
 * declares in "spec" and its version range (both parsed in requirement.c),
 * its requirements and client; the steps (checked and typed together) and
 * every other check of the file are the linter's (lint.c, lint_steps.c).
 * Also finding scenario files in folders.
 */
#include "scenario/scenario.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json.h"
#include "core/limits.h"
#include "core/version.h"
#include "scenario/catalogue.h"
#include "scenario/lint.h"

static char *derive_id(const char *path, const char *root)
{
    const char *rel = path;
    size_t rl, n;
    char *id;

    if (root != NULL) {
        rl = strlen(root);
        while (rl > 0 && root[rl - 1] == '/')
            rl--;
        if (strncmp(path, root, rl) == 0 && path[rl] == '/')
            rel = path + rl + 1;
    }
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    n = strlen(rel);
    if (n > 6 && strcmp(rel + n - 6, ".jsonc") == 0)
        n -= 6;
    else if (n > 5 && strcmp(rel + n - 5, ".json") == 0)
        n -= 5;
    id = strndup(rel, n);
    return id;
}

/* The title. */
static void load_title(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    json_object *v = mc_json_get(root_obj, "title");

    if (!mc__lint_is_str(v) || json_object_get_string_len(v) == 0)
        mc__lint_problem(l, "", "the scenario needs a \"title\"");
    else
        s->title = json_object_get_string(v);
}

/*
 * Entry k of "spec" when it names a check of the catalogue: an id alone is
 * replaced in the document by a copy of the catalogue's definition (which
 * the scenario then reads as its own); a definition of an id the catalogue
 * has is a problem: the check is defined once. Returns 0 when the entry is
 * to be read as a definition now, -1 when it was a problem.
 */
static int take_catalogue_check(mc__lint_t *l, json_object *spec, size_t k, const char *ptr)
{
    json_object *e = json_object_array_get_idx(spec, k), *def, *copy = NULL;
    const char *id;

    if (mc__lint_is_str(e)) {
        id = json_object_get_string(e);
        def = mc_catalogue_find(l->catalogue, id);
        if (def == NULL) {
            mc__lint_problem(l, ptr,
                             "\"%s\" is not a check of the catalogue (scenarios/%s): name a "
                             "check it defines, or define yours here as {check, level, quote, "
                             "refs}",
                             id, MC_CATALOGUE_FILE);
            return -1;
        }
        if (json_object_deep_copy(def, &copy, NULL) != 0 ||
            json_object_array_put_idx(spec, k, copy) != 0) {
            json_object_put(copy);
            l->nomem = 1;
            return -1;
        }
        return 0;
    }
    id = json_object_get_string(mc_json_get(e, "check"));
    if (json_object_is_type(e, json_type_object) && mc_json_get(e, "author") == NULL &&
        mc_catalogue_find(l->catalogue, id) != NULL) {
        mc__lint_problem(l, ptr,
                         "check \"%s\" is defined in the catalogue (scenarios/%s): name it by "
                         "its id alone (\"%s\") instead of restating it",
                         id, MC_CATALOGUE_FILE, id);
        return -1;
    }
    return 0;
}

/* spec: the requirements (and check ids) the scenario holds. Returns MC_OK,
 * or MC_ENOMEM when the table cannot be allocated. */
static int load_spec(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    json_object *v = mc_json_get(root_obj, "spec");
    size_t n, k;

    if (v == NULL || !json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0) {
        mc__lint_problem(l, "",
                         "the scenario needs \"spec\": a non-empty array of checks "
                         "{check, level, quote, refs}");
        return MC_OK;
    }
    n = json_object_array_length(v);
    s->reqs = calloc(n, sizeof(*s->reqs));
    if (s->reqs == NULL)
        return MC_ENOMEM;
    for (k = 0; k < n; k++) {
        char ptr[64];
        snprintf(ptr, sizeof(ptr), "/spec/%zu", k);
        if (take_catalogue_check(l, v, k, ptr) != 0)
            continue;
        if (mc__scenario_parse_requirement(l, json_object_array_get_idx(v, k), ptr,
                                           &s->reqs[s->n_reqs]) == 0) {
            if (mc_scenario_requirement(s, s->reqs[s->n_reqs].check) != NULL)
                mc__lint_problem(l, ptr, "check \"%s\" is declared twice in \"spec\"",
                                 s->reqs[s->n_reqs].check);
            s->n_reqs++;
        }
    }
    return MC_OK;
}

/* versions: a range, a version or a list of them (the table's versions). */
static void load_versions(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    json_object *v = mc_json_get(root_obj, "versions");

    s->version_mask = (1u << MC_V_COUNT) - 1;
    if (v != NULL)
        (void)mc__scenario_parse_versions(l, v, &s->version_mask, &s->min_version, &s->max_version);
}

/* "requires.features": names of core's version features; their bits go to *out. */
static void lint_features(mc__lint_t *l, json_object *v, unsigned *out)
{
    size_t i, n;

    *out = 0;
    if (v == NULL)
        return;
    if (!json_object_is_type(v, json_type_array)) {
        mc__lint_problem(l, "/requires/features", "must be an array of feature names like "
                                                  "\"elicitation\" or \"audio\"");
        return;
    }
    n = json_object_array_length(v);
    for (i = 0; i < n; i++) {
        json_object *f = json_object_array_get_idx(v, i);
        unsigned bit = mc__lint_is_str(f) ? mc_version_feature_bit(json_object_get_string(f)) : 0;
        char ptr[64];
        snprintf(ptr, sizeof(ptr), "/requires/features/%zu", i);
        if (bit == 0)
            mc__lint_problem(l, ptr,
                             "\"%s\" is not a protocol feature of the version table (e.g. "
                             "\"elicitation\", \"audio\", \"title\", \"structured-content\", "
                             "\"batch\", \"completions-capability\")",
                             mc__lint_is_str(f) ? json_object_get_string(f) : "?");
        *out |= bit;
    }
}

/* requires: capabilities, roles, transport, features, era. */
static void load_requires(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    static const char *const requires_keys[] = {"capabilities", "roles", "transport", "features",
                                                "era", NULL};
    json_object *v = mc_json_get(root_obj, "requires"), *caps, *roles, *era;

    if (v == NULL)
        return;
    if (!json_object_is_type(v, json_type_object)) {
        mc__lint_problem(l, "/requires", "\"requires\" must be an object");
        return;
    }
    caps = mc_json_get(v, "capabilities");
    roles = mc_json_get(v, "roles");
    mc__lint_only_keys(l, v, "/requires", "\"requires\"", requires_keys);
    if (caps != NULL && !json_object_is_type(caps, json_type_array))
        mc__lint_problem(l, "/requires/capabilities",
                         "must be an array of capability paths "
                         "like \"resources.subscribe\"");
    else
        s->requires_caps = caps;
    lint_features(l, mc_json_get(v, "features"), &s->features);
    era = mc_json_get(v, "era");
    if (era != NULL &&
        !(mc__lint_is_str(era) && strcmp(json_object_get_string(era), "modern") == 0))
        mc__lint_problem(l, "/requires/era",
                         "\"era\" is \"modern\" (a server that speaks no version with an "
                         "initialize handshake)");
    else if (era != NULL)
        s->modern_only = 1;
    if (roles == NULL)
        return;
    if (!json_object_is_type(roles, json_type_array)) {
        mc__lint_problem(l, "/requires/roles", "must be an array of role names");
        return;
    }
    for (size_t k = 0; k < json_object_array_length(roles); k++) {
        json_object *r = json_object_array_get_idx(roles, k);
        if (mc__lint_is_str(r))
            mc__lint_use_role(l, json_object_get_string(r), (size_t)json_object_get_string_len(r));
    }
}

/*
 * One entry of client.answers: {"with": RESULT} or {"error": {code,
 * message}}, and "hold": N (2..MC_MAX_HELD_ANSWERS) to keep the answers to
 * requests of that method back until N of them are open (client/session.h).
 */
static void lint_answer_entry(mc__lint_t *l, const char *method, json_object *a)
{
    static const char *const answer_keys[] = {"with", "error", "hold", NULL};
    json_object *hold = mc_json_get(a, "hold");
    char ptr[512];

    snprintf(ptr, sizeof(ptr), "/client/answers/%s", method);
    if (!json_object_is_type(a, json_type_object)) {
        mc__lint_problem(l, ptr, "an answer is an object: {\"with\": RESULT} or {\"error\": "
                                 "{\"code\", \"message\"}}");
        return;
    }
    mc__lint_only_keys(l, a, ptr, "an answer", answer_keys);
    if ((mc_json_get(a, "with") == NULL) == (mc_json_get(a, "error") == NULL))
        mc__lint_problem(l, ptr, "an answer needs exactly one of \"with\" (a result object) or "
                                 "\"error\" ({\"code\", \"message\"})");
    mc__lint_want_type(l, a, "error", json_type_object, ptr, "an answer");
    if (hold != NULL && (!json_object_is_type(hold, json_type_int) ||
                         json_object_get_int64(hold) < 2 ||
                         json_object_get_int64(hold) > MC_MAX_HELD_ANSWERS))
        mc__lint_problem(l, ptr,
                         "\"hold\" is how many requests of the method are held open before "
                         "they are answered: an integer from 2 to %d",
                         MC_MAX_HELD_ANSWERS);
}

/* client: capabilities, answers, version, initialize. */
static void load_client(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    static const char *const client_keys[] = {"capabilities", "answers", "version", "initialize",
                                              NULL};
    json_object *v = mc_json_get(root_obj, "client");

    if (v == NULL)
        return;
    if (!json_object_is_type(v, json_type_object)) {
        mc__lint_problem(l, "/client", "\"client\" must be an object");
        return;
    }
    mc__lint_only_keys(l, v, "/client", "\"client\"", client_keys);
    mc__lint_want_type(l, v, "capabilities", json_type_object, "/client", "\"client\"");
    mc__lint_want_type(l, v, "answers", json_type_object, "/client", "\"client\"");
    mc__lint_want_type(l, v, "initialize", json_type_boolean, "/client", "\"client\"");
    s->client_caps = mc_json_get(v, "capabilities");
    s->answers = mc_json_get(v, "answers");
    if (mc_json_get(v, "version") != NULL) {
        if (!mc__lint_is_str(mc_json_get(v, "version")))
            mc__lint_problem(l, "/client/version", "\"version\" must be a string");
        else
            s->client_version = json_object_get_string(mc_json_get(v, "version"));
    }
    if (mc_json_get(v, "initialize") != NULL &&
        json_object_is_type(mc_json_get(v, "initialize"), json_type_boolean))
        s->manual_init = !json_object_get_boolean(mc_json_get(v, "initialize"));
    if (s->answers != NULL)
        mc__lint_check_refs(l, s->answers, "/client/answers");
    if (json_object_is_type(s->answers, json_type_object)) {
        json_object_object_foreach(s->answers, method, a)
            lint_answer_entry(l, method, a);
    }
}

/* Reads every top-level field of root_obj into s, checking as it goes (the
 * steps are typed as they are checked). Returns MC_OK (the problems are in
 * l) or MC_ENOMEM. */
static int load_fields(mc__lint_t *l, json_object *root_obj, mc_scenario_t *s)
{
    static const char *const top_keys[] = {"title", "description", "spec",  "versions", "requires",
                                           "client", "steps",      "tags", "$schema",  "state",
                                           NULL};
    json_object *v;

    if (!json_object_is_type(root_obj, json_type_object)) {
        mc__lint_problem(l, "", "a scenario file holds one JSON object");
        return MC_OK;
    }
    mc__lint_only_keys(l, root_obj, "", "the scenario", top_keys);
    /* "$schema" is for editors (scenarios/scenario.schema.json). */
    mc__lint_want_type(l, root_obj, "$schema", json_type_string, "", "the scenario");
    load_title(l, root_obj, s);
    if (load_spec(l, root_obj, s) != MC_OK)
        return MC_ENOMEM;
    l->reqs = s->reqs;
    l->n_reqs = s->n_reqs;
    load_versions(l, root_obj, s);
    load_requires(l, root_obj, s);
    load_client(l, root_obj, s);
    mc__lint_vocab_scenario(l, s);
    mc__lint_unfinished(l, root_obj);
    v = mc_json_get(root_obj, "steps");
    if (v == NULL || !json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0) {
        mc__lint_problem(l, "", "the scenario needs \"steps\": a non-empty array");
    } else {
        s->steps = v;
        l->client_caps = s->client_caps;
        mc__lint_steps(l, v, "/steps", 0, &s->step_v, &s->n_steps);
    }
    s->shareable = !s->manual_init && s->answers == NULL && s->client_version == NULL &&
                   s->step_v != NULL && mc_steps_read_only(s->step_v, s->n_steps);
    s->takes_held = !s->shareable && !s->manual_init && s->client_version == NULL &&
                    s->step_v != NULL && mc_steps_judge_own_traffic(s->step_v, s->n_steps);
    mc__scenario_load_state(l, root_obj, s);
    return MC_OK;
}

/* A file that does not read or parse: its one problem is the error. */
static int load_failed(int rc, char **problems, const mc_errbuf_t *eb)
{
    if (problems != NULL && eb != NULL) {
        size_t n = strlen(eb->msg);
        *problems = malloc(n + 2);
        if (*problems != NULL) {
            memcpy(*problems, eb->msg, n);
            (*problems)[n] = '\n';
            (*problems)[n + 1] = '\0';
        }
    }
    return rc == MC_EPARSE ? MC_EINVAL : rc;
}

/* Hands the problems to the caller (with a tail line past the cap).
 * Returns MC_EINVAL, or MC_OK when there are none. */
static int take_problems(mc__lint_t *l, char **problems)
{
    if (l->count == 0)
        return MC_OK;
    if (l->count > MC_SCENARIO_MAX_PROBLEMS) {
        l->count = 0; /* let mc__lint_problem() append the tail line */
        mc__lint_problem(l, "", "... and more problems");
    }
    if (problems != NULL) {
        *problems = l->problems.buf;
        l->problems.buf = NULL;
    }
    return MC_EINVAL;
}

/* What a loaded scenario keeps past this frame: id, area, the version
 * bounds (copied into the document) and the roles (taken from l). Returns
 * MC_OK or MC_ENOMEM. */
static int load_keep(mc__lint_t *l, mc_scenario_t *s, const char *path, const char *root)
{
    json_object *root_obj = s->doc.root;
    const char *slash;
    int i;

    s->id = derive_id(path, root);
    slash = s->id ? strchr(s->id, '/') : NULL;
    s->area = s->id ? strndup(s->id, slash ? (size_t)(slash - s->id) : strlen(s->id)) : NULL;
    if (s->id == NULL || s->area == NULL)
        return MC_ENOMEM;
    if (s->min_version != NULL) {
        json_object_object_add(root_obj, "$min_version", json_object_new_string(s->min_version));
        s->min_version = json_object_get_string(mc_json_get(root_obj, "$min_version"));
    }
    if (s->max_version != NULL) {
        json_object_object_add(root_obj, "$max_version", json_object_new_string(s->max_version));
        s->max_version = json_object_get_string(mc_json_get(root_obj, "$max_version"));
    }
    s->roles = calloc((size_t)l->n_roles + 1, sizeof(char *));
    if (s->roles == NULL)
        return MC_ENOMEM;
    for (i = 0; i < l->n_roles; i++) {
        s->roles[i] = l->roles[i];
        l->roles[i] = NULL;
    }
    s->n_roles = (size_t)l->n_roles;
    return MC_OK;
}

int mc_scenario_load(const char *path, const char *root, mc_scenario_t *sc, char **problems,
                     mc_errbuf_t *eb)
{
    return mc_scenario_load_with(path, root, NULL, sc, problems, eb);
}

int mc_scenario_load_with(const char *path, const char *root, const mc_catalogue_t *cat,
                          mc_scenario_t *sc, char **problems, mc_errbuf_t *eb)
{
    mc_scenario_t s;
    mc__lint_t l;
    int rc, i;

    memset(&s, 0, sizeof(s));
    memset(&l, 0, sizeof(l));
    rc = mc_jsonc_load(path, &s.doc, eb);
    if (rc != MC_OK)
        return load_failed(rc, problems, eb);
    l.doc = &s.doc;
    l.catalogue = cat;
    rc = load_fields(&l, s.doc.root, &s);
    if (rc == MC_OK && l.nomem)
        rc = MC_ENOMEM;
    if (rc == MC_OK)
        rc = take_problems(&l, problems);
    if (rc == MC_OK)
        rc = load_keep(&l, &s, path, root);
    if (rc == MC_ENOMEM)
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    for (i = 0; i < l.n_vars; i++)
        free(l.vars[i]);
    free(l.problems.buf);
    if (rc == MC_OK) {
        s.warnings = l.warnings.buf;
        *sc = s;
        return MC_OK;
    }
    for (i = 0; i < l.n_roles; i++)
        free(l.roles[i]);
    free(l.warnings.buf);
    mc_steps_free(s.step_v, s.n_steps);
    free(s.reqs);
    free(s.roles);
    free(s.id);
    free(s.area);
    mc_jsonc_free(&s.doc);
    return rc;
}

void mc_scenario_free(mc_scenario_t *sc)
{
    size_t i;

    for (i = 0; sc->roles != NULL && i < sc->n_roles; i++)
        free(sc->roles[i]);
    free(sc->roles);
    free(sc->reqs);
    mc_steps_free(sc->step_v, sc->n_steps);
    free(sc->warnings);
    free(sc->id);
    free(sc->area);
    mc_jsonc_free(&sc->doc);
    memset(sc, 0, sizeof(*sc));
}

const mc_requirement_t *mc_scenario_requirement(const mc_scenario_t *sc, const char *check)
{
    size_t i;

    for (i = 0; i < sc->n_reqs; i++)
        if (strcmp(sc->reqs[i].check, check) == 0)
            return &sc->reqs[i];
    return NULL;
}

int mc_scenario_applies(const mc_scenario_t *sc, const char *version)
{
    const mc_version_info_t *v = mc_version_find(version);

    if (v != NULL && sc->version_mask != 0)
        return (sc->version_mask & (1u << v->id)) != 0;
    /* A version the table does not know: by the outer bounds (dates). */
    if (sc->min_version != NULL && strcmp(version, sc->min_version) < 0)
        return 0;
    if (sc->max_version != NULL && strcmp(version, sc->max_version) > 0)
        return 0;
    return 1;
}

/* Capabilities a server can declare only from the version that has the feature. */
static const struct {
    const char *cap;
    unsigned feature;
} cap_features[] = {
    {"completions", MC_VF_COMPLETIONS_CAP},
};

int mc_scenario_version_gap(const mc_scenario_t *sc, const char *version, char *buf, size_t n)
{
    unsigned bit = mc_version_missing(version, sc->features);
    size_t i, k;

    if (bit != 0) {
        snprintf(buf, n, "%s lacks %s (the scenario needs it)", version,
                 mc_version_feature_what(bit));
        return 1;
    }
    for (i = 0; sc->requires_caps != NULL && i < json_object_array_length(sc->requires_caps);
         i++) {
        const char *cap = json_object_get_string(json_object_array_get_idx(sc->requires_caps, i));
        for (k = 0; cap != NULL && k < sizeof(cap_features) / sizeof(cap_features[0]); k++) {
            size_t cl = strlen(cap_features[k].cap);
            if (strncmp(cap, cap_features[k].cap, cl) == 0 && (cap[cl] == '\0' || cap[cl] == '.') &&
                mc_version_missing(version, cap_features[k].feature) != 0) {
                snprintf(buf, n, "%s lacks %s: a server cannot declare \"%s\"", version,
                         mc_version_feature_what(cap_features[k].feature), cap);
                return 1;
            }
        }
    }
    return 0;
}

int mc_scenario_line(const mc_scenario_t *sc, const char *pointer)
{
    int line, col;

    mc_jsonc_where(&sc->doc, pointer, &line, &col);
    return line;
}

/* --- finding files ------------------------------------------------------ */

typedef struct pathlist {
    char **v;
    size_t n, cap;
} pathlist_t;

static int pl_add(pathlist_t *pl, const char *p)
{
    if (pl->n >= MC_SCENARIO_MAX_FILES)
        return MC_EFULL;
    if (pl->n + 2 > pl->cap) {
        size_t cap = pl->cap ? pl->cap * 2 : 64;
        char **nv = realloc(pl->v, cap * sizeof(char *));
        if (nv == NULL)
            return MC_ENOMEM;
        pl->v = nv;
        pl->cap = cap;
    }
    pl->v[pl->n] = strdup(p);
    if (pl->v[pl->n] == NULL)
        return MC_ENOMEM;
    pl->n++;
    pl->v[pl->n] = NULL;
    return MC_OK;
}

static int walk(pathlist_t *pl, const char *dir, int depth, mc_errbuf_t *eb)
{
    DIR *d;
    struct dirent *e;
    int rc = MC_OK;

    if (depth > 8)
        return MC_OK;
    d = opendir(dir);
    if (d == NULL)
        return mc_errbuf_set(eb, MC_EIO, "%s: %s", dir, strerror(errno));
    while (rc == MC_OK && (e = readdir(d)) != NULL) {
        char full[4096];
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "profiles") == 0)
                continue;
            rc = walk(pl, full, depth + 1, eb);
        } else if (S_ISREG(st.st_mode) && n > 6 && strcmp(e->d_name + n - 6, ".jsonc") == 0) {
            rc = pl_add(pl, full);
        }
    }
    closedir(d);
    if (rc == MC_EFULL)
        mc_errbuf_set(eb, rc, "more than %d scenario files", MC_SCENARIO_MAX_FILES);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int mc_scenario_find(char *const *paths, size_t n_paths, char ***out, size_t *n_out,
                     mc_errbuf_t *eb)
{
    pathlist_t pl;
    size_t i;
    int rc = MC_OK;

    memset(&pl, 0, sizeof(pl));
    for (i = 0; i < n_paths && rc == MC_OK; i++) {
        struct stat st;
        char p[4096];
        size_t n;
        snprintf(p, sizeof(p), "%s", paths[i]);
        n = strlen(p);
        while (n > 1 && p[n - 1] == '/')
            p[--n] = '\0';
        if (stat(p, &st) != 0) {
            rc = mc_errbuf_set(eb, MC_EIO, "%s: %s", p, strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(&pl, p, 0, eb);
        } else {
            rc = pl_add(&pl, p);
        }
    }
    if (rc != MC_OK) {
        mc_scenario_paths_free(pl.v);
        return rc;
    }
    if (pl.v == NULL) {
        pl.v = calloc(1, sizeof(char *));
        if (pl.v == NULL)
            return MC_ENOMEM;
    }
    qsort(pl.v, pl.n, sizeof(char *), cmp_str);
    *out = pl.v;
    *n_out = pl.n;
    return MC_OK;
}

void mc_scenario_paths_free(char **paths)
{
    size_t i;

    if (paths == NULL)
        return;
    for (i = 0; paths[i] != NULL; i++)
        free(paths[i]);
    free(paths);
}
