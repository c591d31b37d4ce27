/*
 * corpus.c - the campaign's corpus: the sequences kept in memory, with the
 * energy they earned and the edges they lit first, which entry is picked
 * next (favoured, rarest, or any), and the corpus/ folder the workers of a
 * campaign share (each writes its own files and loads the others').
 *
 * Promises: at most MC_CAMPAIGN_MAX_CORPUS entries in memory (a newcomer
 * past it replaces one at random, never the first), at most
 * MC_CAMPAIGN_MAX_HOT of them favoured, MC_CAMPAIGN_MAX_CORPUS_FILES files
 * written and names remembered per worker, and no sequence over
 * MC_CAMPAIGN_MAX_SEQ_BYTES kept; files are written atomically.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/exec.h"
#include "campaign/internal.h"
#include "core/file.h"

/* Largest corpus file read back, in bytes. */
#define MAX_CORPUS_FILE (256u * 1024u)

int mc__camp_corpus_init(mc__camp_corpus_t *k, const char *out_dir, int worker)
{
    memset(k, 0, sizeof(*k));
    k->worker = worker;
    if (snprintf(k->dir, sizeof(k->dir), "%s/corpus", out_dir) >= (int)sizeof(k->dir))
        return -1;
    k->e = calloc(MC_CAMPAIGN_MAX_CORPUS, sizeof(*k->e));
    k->seen = calloc(MC_CAMPAIGN_MAX_CORPUS_FILES, sizeof(*k->seen));
    return k->e != NULL && k->seen != NULL ? 0 : -1;
}

void mc__camp_corpus_free(mc__camp_corpus_t *k)
{
    size_t i;

    for (i = 0; k->e != NULL && i < k->n; i++)
        json_object_put(k->e[i].seq);
    for (i = 0; i < k->n_seen; i++)
        free(k->seen[i]);
    free(k->e);
    free(k->seen);
    k->e = NULL;
    k->seen = NULL;
    k->n = k->n_seen = 0;
}

static void hot_remove(mc__camp_corpus_t *k, size_t at)
{
    size_t i;

    for (i = 0; i < k->n_hot; i++)
        if (k->hot[i] == at) {
            k->hot[i] = k->hot[--k->n_hot];
            return;
        }
}

int mc__camp_corpus_keep(mc__camp_corpus_t *k, mc_gen_t *g, json_object *seq, unsigned energy,
                         int edge_end, const uint32_t *lit, size_t n_lit)
{
    size_t len = 0, at;

    json_object_to_json_string_length(seq, JSON_C_TO_STRING_PLAIN, &len);
    if (len > MC_CAMPAIGN_MAX_SEQ_BYTES)
        return 0;
    if (k->n < MC_CAMPAIGN_MAX_CORPUS) {
        at = k->n++;
    } else {
        /* Full: replace one at random, keeping the first (the discovery walk). */
        at = 1 + mc_gen_below(g, MC_CAMPAIGN_MAX_CORPUS - 1);
        if (k->e[at].energy > 0)
            hot_remove(k, at);
        json_object_put(k->e[at].seq);
    }
    k->e[at].seq = json_object_get(seq);
    k->e[at].energy = 0;
    k->e[at].edge_end = edge_end;
    k->e[at].n_lit = n_lit < MC_EXEC_MAX_LIT ? n_lit : MC_EXEC_MAX_LIT;
    if (k->e[at].n_lit > 0)
        memcpy(k->e[at].lit, lit, k->e[at].n_lit * sizeof(*lit));
    if (energy == 0)
        return 1;
    if (k->n_hot >= MC_CAMPAIGN_MAX_HOT) {
        /* Full: the favoured entry with the least energy left gives way,
         * unless the newcomer earned less still. */
        size_t i, low = 0;
        for (i = 1; i < k->n_hot; i++)
            if (k->e[k->hot[i]].energy < k->e[k->hot[low]].energy)
                low = i;
        if (k->e[k->hot[low]].energy >= energy)
            return 1;
        k->e[k->hot[low]].energy = 0;
        k->hot[low] = k->hot[--k->n_hot];
    }
    k->e[at].energy = energy;
    k->hot[k->n_hot++] = at;
    return 1;
}

/* The rarity of entry e: the fewest hits of the edges it lit, or
 * UINT32_MAX when it lit none. */
static uint32_t rarity(const mc__camp_entry_t *e, const uint32_t *hits, size_t n_hits)
{
    uint32_t r = UINT32_MAX;
    size_t i;

    for (i = 0; i < e->n_lit; i++)
        if (e->lit[i] < n_hits && hits[e->lit[i]] < r)
            r = hits[e->lit[i]];
    return r;
}

/* The favoured entry (its index in hot) with the rarest lit edges; ties go
 * to the first from a random start. */
static size_t rarest_hot(const mc__camp_corpus_t *k, mc_gen_t *g, const uint32_t *hits,
                         size_t n_hits)
{
    size_t i, start = mc_gen_below(g, k->n_hot), best = start;
    uint32_t best_r = UINT32_MAX;

    for (i = 0; i < k->n_hot; i++) {
        size_t h = (start + i) % k->n_hot;
        uint32_t r = rarity(&k->e[k->hot[h]], hits, n_hits);
        if (r < best_r) {
            best_r = r;
            best = h;
        }
    }
    return best;
}

json_object *mc__camp_corpus_pick(mc__camp_corpus_t *k, mc_gen_t *g, const uint32_t *hits,
                                  size_t n_hits, int *favoured, int *edge_end)
{
    size_t h, at;

    *favoured = 0;
    *edge_end = 0;
    if (k->n_hot > 0 && mc_gen_below(g, MC_CAMPAIGN_HOT_ODDS) != 0) {
        if (hits != NULL && mc_gen_below(g, MC_CAMPAIGN_RARE_ODDS) == 0)
            h = rarest_hot(k, g, hits, n_hits);
        else
            h = mc_gen_below(g, k->n_hot);
        at = k->hot[h];
        if (--k->e[at].energy == 0)
            k->hot[h] = k->hot[--k->n_hot];
        *favoured = 1;
        *edge_end = k->e[at].edge_end;
        return k->e[at].seq;
    }
    return mc__camp_corpus_any(k, g);
}

json_object *mc__camp_corpus_any(mc__camp_corpus_t *k, mc_gen_t *g)
{
    return k->n > 0 ? k->e[mc_gen_below(g, k->n)].seq : NULL;
}

static int seen_file(const mc__camp_corpus_t *k, const char *name)
{
    size_t i;

    for (i = 0; i < k->n_seen; i++)
        if (strcmp(k->seen[i], name) == 0)
            return 1;
    return 0;
}

static void remember_file(mc__camp_corpus_t *k, const char *name)
{
    char *d;

    if (k->n_seen >= MC_CAMPAIGN_MAX_CORPUS_FILES)
        return;
    d = strdup(name);
    if (d != NULL)
        k->seen[k->n_seen++] = d;
}

void mc__camp_corpus_save(mc__camp_corpus_t *k, json_object *seq)
{
    char name[96], path[sizeof(k->dir) + sizeof(name)];
    const char *js;

    if (k->written >= MC_CAMPAIGN_MAX_CORPUS_FILES)
        return;
    js = json_object_to_json_string_ext(seq, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    snprintf(name, sizeof(name), "w%d-%06llu-%016llx.json", k->worker,
             (unsigned long long)k->written, (unsigned long long)mc__camp_hash(js, strlen(js)));
    snprintf(path, sizeof(path), "%s/%s", k->dir, name);
    if (mc__camp_write_file(path, js, strlen(js)) == 0) {
        k->written++;
        remember_file(k, name);
    }
}

static json_object *read_seq(const char *path)
{
    char *buf = NULL;
    size_t n = 0;
    json_object *v = NULL;

    if (mc_file_read(path, MAX_CORPUS_FILE, &buf, &n, NULL) != MC_OK)
        return NULL;
    if (n > 0)
        v = json_tokener_parse(buf);
    free(buf);
    if (v != NULL && !json_object_is_type(v, json_type_array)) {
        json_object_put(v);
        return NULL;
    }
    while (v != NULL && json_object_array_length(v) > MC_GEN_MAX_SEQ)
        json_object_array_del_idx(v, json_object_array_length(v) - 1, 1);
    return v;
}

void mc__camp_corpus_sync(mc__camp_corpus_t *k, mc_gen_t *g)
{
    char path[sizeof(k->dir) + 256];
    DIR *d = opendir(k->dir);
    struct dirent *e;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL && k->n_seen < MC_CAMPAIGN_MAX_CORPUS_FILES) {
        json_object *seq;
        size_t len = strlen(e->d_name);
        if (len < 6 || len > 255 || strcmp(e->d_name + len - 5, ".json") != 0 ||
            seen_file(k, e->d_name))
            continue;
        remember_file(k, e->d_name);
        snprintf(path, sizeof(path), "%s/%s", k->dir, e->d_name);
        seq = read_seq(path);
        if (seq != NULL && json_object_array_length(seq) > 0)
            (void)mc__camp_corpus_keep(k, g, seq, 0, 0, NULL, 0);
        json_object_put(seq);
    }
    closedir(d);
}

json_object *mc__camp_next_sequence(mc__camp_corpus_t *k, mc_gen_t *g, const mc_exec_t *x)
{
    json_object *seq, *parent, *other;
    int favoured, edge_end;
    size_t n_hits;
    const uint32_t *hits;

    if (k->n == 0 || mc_gen_below(g, 8) == 0) {
        seq = mc_gen_sequence(g);
    } else {
        hits = mc_exec_hits(x, &n_hits);
        parent = mc__camp_corpus_pick(k, g, mc_exec_instrumented(x) ? hits : NULL,
                                      n_hits, &favoured, &edge_end);
        other = mc__camp_corpus_any(k, g);
        /* What earned energy is extended half the time (its prefix
         * reached something new), otherwise mutated; where the message
         * that lit new code is known, there. */
        if (favoured && mc_gen_below(g, 2) == 0) {
            seq = edge_end ? mc_gen_extend_last(g, parent, other)
                           : mc_gen_extend(g, parent, other);
            if (seq != NULL)
                mc__camp_fresh_last_id(seq);
        } else
            seq = mc_gen_mutate(g, parent, other);
    }
    if (seq != NULL)
        (void)mc_gen_close_listens(seq);
    return seq;
}
