/*
 * afl.c - test cases of AFL++ decoded by the campaign's grammar, run and
 * judged by its executor (afl.h), and the crash files of afl-fuzz's output.
 */
#include "campaign/afl.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/gen.h"
#include "campaign/internal.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/limits.h"

/* What the first byte of a chunk makes of its element: below MSG_OPS of
 * OP_RANGE a new message, then an answer element, then a mutation round of
 * what came before (more messages than anything else, as a campaign's
 * sequences hold). */
#define OP_RANGE 8
#define MSG_OPS 6
#define ANSWER_OP 6
/* The generator's seed before discovery (what it learns does not depend on
 * it) and its first request id in every decoded sequence. */
#define GEN_SEED 1
#define FIRST_ID 100

struct mc_afl {
    mc_afl_opts_t o;
    mc_exec_t *x;  /* the persistent process */
    mc_exec_t *fx; /* fresh runs that confirm a finding */
    mc_gen_t g;
    int learning; /* the generator learns from answers (discovery only) */
};

static void learn(void *ctx, const char *method, json_object *result)
{
    mc_afl_t *a = ctx;

    if (a->learning)
        mc_gen_learn(&a->g, method, result);
}

static int allowed(void *ctx, const char *tool)
{
    return mc_gen_allowed(ctx, tool);
}

static void exec_opts(mc_afl_t *a, mc_exec_opts_t *xo)
{
    memset(xo, 0, sizeof(*xo));
    xo->argv = a->o.argv;
    xo->cwd = a->o.cwd;
    xo->limits = a->o.limits;
    xo->version = a->o.version;
    xo->registry = a->o.registry;
    xo->hang_ms = a->o.hang_ms;
    xo->restart_every = a->o.restart_every;
    xo->mem_limit_mb = a->o.mem_limit_mb;
    xo->coverage = a->o.coverage;
    xo->learn = learn;
    xo->learn_ctx = a;
    xo->allowed = allowed;
    xo->allowed_ctx = &a->g;
}

/* Runs the discovery sequence on x, the generator learning from it; at a
 * stateless version every request the generator makes carries the
 * per-request _meta (as a campaign stamps its requests). */
static int discover(mc_afl_t *a, mc_errbuf_t *eb)
{
    mc_exec_outcome_t out;
    json_object *seq, *meta = mc_exec_request_meta(a->x);
    int rc;

    if (meta != NULL && mc_gen_set_meta(&a->g, meta) != 0) {
        json_object_put(meta);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    json_object_put(meta);
    seq = mc__camp_discovery(&a->g);
    if (seq == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    a->learning = 1;
    rc = mc_exec_run(a->x, seq, 0, 0, &out, eb);
    a->learning = 0;
    json_object_put(seq);
    if (rc == MC_OK)
        mc_exec_outcome_free(&out);
    return rc;
}

int mc_afl_new(mc_afl_t **out, const mc_afl_opts_t *opts, mc_errbuf_t *eb)
{
    mc_afl_t *a = calloc(1, sizeof(*a));
    mc_exec_opts_t xo;
    int rc;

    *out = NULL;
    if (a == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    a->o = *opts;
    if (mc_gen_init(&a->g, GEN_SEED, opts->safe_tools, opts->call_tools) != 0) {
        free(a);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    exec_opts(a, &xo);
    rc = mc_exec_new(&a->x, &xo, eb);
    if (rc == MC_OK) {
        xo.twin = a->x;
        rc = mc_exec_new(&a->fx, &xo, eb);
    }
    if (rc == MC_OK)
        rc = discover(a, eb);
    if (rc != MC_OK) {
        mc_afl_free(a);
        return rc;
    }
    *out = a;
    return MC_OK;
}

void mc_afl_free(mc_afl_t *a)
{
    if (a == NULL)
        return;
    mc_exec_free(a->x);
    mc_exec_free(a->fx);
    mc_gen_free(&a->g);
    free(a);
}

static int is_space(uint8_t c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int only_space(const uint8_t *p, size_t n)
{
    while (n > 0 && is_space(*p)) {
        p++;
        n--;
    }
    return n == 0;
}

/* buf as a sequence when it is a JSON array of messages (objects) and
 * lines (strings) no longer than MC_GEN_MAX_SEQ; else NULL. */
static json_object *as_sequence(const uint8_t *buf, size_t len)
{
    json_tokener *tok;
    json_object *seq;
    size_t i, n;

    while (len > 0 && is_space(*buf)) {
        buf++;
        len--;
    }
    if (len == 0 || *buf != '[' || len > MC_CAMPAIGN_MAX_SEQ_BYTES)
        return NULL;
    tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (tok == NULL)
        return NULL;
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    seq = json_tokener_parse_ex(tok, (const char *)buf, (int)len);
    if (seq != NULL &&
        !only_space(buf + json_tokener_get_parse_end(tok), len - json_tokener_get_parse_end(tok))) {
        json_object_put(seq); /* something after the array */
        seq = NULL;
    }
    json_tokener_free(tok);
    if (!json_object_is_type(seq, json_type_array) ||
        (n = json_object_array_length(seq)) > MC_GEN_MAX_SEQ) {
        json_object_put(seq);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        json_object *el = json_object_array_get_idx(seq, i);
        if (!json_object_is_type(el, json_type_object) &&
            !json_object_is_type(el, json_type_string)) {
            json_object_put(seq);
            return NULL;
        }
    }
    return seq;
}

/* Adds the element chunk c[0..n) decodes to at the end of *seq (which a
 * mutation round may replace). */
static void decode_chunk(mc_afl_t *a, json_object **seq, const uint8_t *c, size_t n)
{
    uint64_t h = mc_fnv1a64(MC_FNV1A64_INIT, (const char *)c, n);
    unsigned op = c[0] % OP_RANGE;
    json_object *el = NULL;

    a->g.rng = h != 0 ? h : 1;
    if (op < MSG_OPS) {
        a->g.ctx = *seq;
        el = mc_gen_message(&a->g);
        a->g.ctx = NULL;
    } else if (op == ANSWER_OP) {
        el = mc_gen_answer(&a->g);
    } else if (json_object_array_length(*seq) > 0) {
        json_object *m = mc_gen_mutate(&a->g, *seq, NULL);
        if (m != NULL) {
            json_object_put(*seq);
            *seq = m;
        }
        return;
    }
    if (el != NULL)
        json_object_array_add(*seq, el);
}

json_object *mc_afl_decode(mc_afl_t *a, const uint8_t *buf, size_t len)
{
    json_object *seq = as_sequence(buf, len);
    size_t at;

    if (seq != NULL) {
        (void)mc_gen_close_listens(seq);
        return seq;
    }
    if ((seq = json_object_new_array()) == NULL)
        return NULL;
    a->g.next_id = FIRST_ID;
    for (at = 0; at < len && at < MC_AFL_MAX_CHUNKS * MC_AFL_CHUNK &&
                 json_object_array_length(seq) < MC_GEN_MAX_SEQ;
         at += MC_AFL_CHUNK)
        decode_chunk(a, &seq, buf + at, len - at < MC_AFL_CHUNK ? len - at : MC_AFL_CHUNK);
    /* A mutation round never makes a sequence longer than MC_GEN_MAX_SEQ. */
    (void)mc_gen_close_listens(seq);
    return seq;
}

/* The first finding of seen that a fresh process of the twin shows again
 * when it runs seq, or NULL. */
static const mc_exec_finding_t *reproduced(mc_afl_t *a, json_object *seq,
                                           const mc_exec_outcome_t *seen)
{
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    const mc_exec_finding_t *hit = NULL;
    size_t i, k;

    mc_errbuf_clear(&eb);
    if (mc_exec_run(a->fx, seq, 1, 0, &out, &eb) != MC_OK)
        return NULL;
    for (i = 0; i < seen->nf && hit == NULL; i++)
        for (k = 0; k < out.nf && hit == NULL; k++)
            if (strcmp(out.f[k].sig, seen->f[i].sig) == 0)
                hit = &seen->f[i];
    mc_exec_outcome_free(&out);
    return hit;
}

int mc_afl_run(mc_afl_t *a, const uint8_t *buf, size_t len, mc_exec_finding_t *found,
               mc_errbuf_t *eb)
{
    json_object *seq = mc_afl_decode(a, buf, len > MC_AFL_MAX_INPUT ? MC_AFL_MAX_INPUT : len);
    const mc_exec_finding_t *hit = NULL;
    mc_exec_outcome_t out;
    int rc, tries;

    if (seq == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    rc = mc_exec_run(a->x, seq, 0, 0, &out, eb);
    if (rc != MC_OK) {
        json_object_put(seq);
        return rc;
    }
    for (tries = 0; tries < MC_AFL_CONFIRM_TRIES && out.nf > 0 && hit == NULL; tries++)
        hit = reproduced(a, seq, &out);
    if (hit != NULL)
        *found = *hit;
    /* The twin's process is not needed until the next confirmation. */
    mc_exec_stop(a->fx);
    mc_exec_outcome_free(&out);
    json_object_put(seq);
    return hit != NULL;
}

const uint8_t *mc_afl_map(const mc_afl_t *a, size_t *n)
{
    return mc_exec_map(a->x, n);
}

int mc_afl_instrumented(const mc_afl_t *a)
{
    return mc_exec_instrumented(a->x);
}

/* --- crash files ------------------------------------------------------------ */

typedef struct paths {
    char **v;
    size_t n, cap;
} paths_t;

static int is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int join(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, MC_AFL_PATH_LEN, "%s/%s", dir, name);

    return n > 0 && n < MC_AFL_PATH_LEN ? 0 : -1;
}

static int add_path(paths_t *p, const char *path, mc_errbuf_t *eb)
{
    if (p->n >= MC_AFL_MAX_CRASHES)
        return mc_errbuf_set(eb, MC_EFULL, "more than %d crash files", MC_AFL_MAX_CRASHES);
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        char **v = realloc(p->v, cap * sizeof(*v));
        if (v == NULL)
            return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        p->v = v;
        p->cap = cap;
    }
    if ((p->v[p->n] = strdup(path)) == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    p->n++;
    return MC_OK;
}

/* Adds the crash files of one crashes/ folder. */
static int add_crashes(paths_t *p, const char *dir, mc_errbuf_t *eb)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[MC_AFL_PATH_LEN];
    int rc = MC_OK;

    if (d == NULL)
        return mc_errbuf_set(eb, MC_EIO, "cannot read %s", dir);
    while (rc == MC_OK && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "id:", 3) == 0 && join(path, dir, e->d_name) == 0 && !is_dir(path))
            rc = add_path(p, path, eb);
    closedir(d);
    return rc;
}

static int by_path(const void *l, const void *r)
{
    return strcmp(*(char *const *)l, *(char *const *)r);
}

/* Adds the crashes/ folders of dir's instances (afl-fuzz -o DIR). */
static int add_instances(paths_t *p, const char *dir, mc_errbuf_t *eb)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char inst[MC_AFL_PATH_LEN], crashes[MC_AFL_PATH_LEN];
    int rc = MC_OK;

    if (d == NULL)
        return mc_errbuf_set(eb, MC_EIO, "cannot read %s", dir);
    while (rc == MC_OK && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && join(inst, dir, e->d_name) == 0 &&
            join(crashes, inst, "crashes") == 0 && is_dir(crashes))
            rc = add_crashes(p, crashes, eb);
    closedir(d);
    return rc;
}

int mc_afl_crash_files(const char *dir, char ***paths, size_t *n, mc_errbuf_t *eb)
{
    paths_t p = {NULL, 0, 0};
    char crashes[MC_AFL_PATH_LEN];
    int rc;

    *paths = NULL;
    *n = 0;
    if (!is_dir(dir))
        return mc_errbuf_set(eb, MC_EIO, "%s is not a directory", dir);
    if (join(crashes, dir, "crashes") != 0)
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    if (is_dir(crashes))
        rc = add_crashes(&p, crashes, eb);
    else
        rc = add_instances(&p, dir, eb);
    if (rc == MC_OK && p.n == 0)
        rc = add_crashes(&p, dir, eb); /* a crashes/ folder itself */
    if (rc != MC_OK) {
        mc_afl_paths_free(p.v, p.n);
        return rc;
    }
    if (p.n > 1)
        qsort(p.v, p.n, sizeof(*p.v), by_path);
    *paths = p.v;
    *n = p.n;
    return MC_OK;
}

void mc_afl_paths_free(char **paths, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

int mc_afl_import(const mc_afl_opts_t *o, const char *dir, json_object **seqs, size_t *files,
                  size_t *skipped, mc_errbuf_t *eb)
{
    char **paths = NULL;
    size_t n = 0, i;
    mc_afl_t *a = NULL;
    json_object *out;
    int rc;

    *seqs = NULL;
    *files = *skipped = 0;
    rc = mc_afl_crash_files(dir, &paths, &n, eb);
    if (rc != MC_OK)
        return rc;
    if ((out = json_object_new_array()) == NULL) {
        mc_afl_paths_free(paths, n);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    if (n > 0)
        rc = mc_afl_new(&a, o, eb);
    for (i = 0; i < n && rc == MC_OK; i++) {
        char *buf = NULL;
        size_t len = 0;
        mc_errbuf_t fe;
        json_object *seq;
        mc_errbuf_clear(&fe);
        if (mc_file_read(paths[i], MC_AFL_MAX_INPUT, &buf, &len, &fe) != MC_OK) {
            (*skipped)++;
            continue;
        }
        seq = mc_afl_decode(a, (const uint8_t *)buf, len);
        free(buf);
        if (seq == NULL)
            rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        else
            json_object_array_add(out, seq);
    }
    mc_afl_free(a);
    mc_afl_paths_free(paths, n);
    if (rc != MC_OK) {
        json_object_put(out);
        return rc;
    }
    *seqs = out;
    *files = n;
    return MC_OK;
}
