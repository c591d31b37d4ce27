/*
 * requirements.c - `mcpcheck list --requirements` (requirements.h).
 *
 * A row is one sentence at one version: from a check's quote (every check
 * quoting the same sentence on the same page joins its row) or from an entry
 * of the data file. The sentences themselves come from the spec pages only
 * through the quotes of checks and entries; the traceability test
 * (harness/tests/scenario/requirements.py) holds both to the pages and fails
 * when a keyword sentence has neither.
 */
#include "cli/requirements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/file.h"
#include "core/json.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "judge/quotes.h"

typedef struct req_row {
    const char *version;
    const char *ref;   /* "page#anchor" (borrowed) */
    char *quote;       /* normalised (owned) */
    mc_level_t level;  /* of a check: its level here; of an entry: the strongest keyword */
    const char *binds; /* "client", "server", "both", "neither"; "server" for a check */
    const char *reason;
    int gap;
    const char *checks[MC_REQ_MAX_ROW_CHECKS];
    size_t n_checks; /* may exceed MC_REQ_MAX_ROW_CHECKS: the rest are counted only */
} req_row_t;

typedef struct req_table {
    req_row_t *v;
    size_t n, cap;
} req_table_t;

/* The length of the page part of a "page#anchor" ref. */
static size_t page_len(const char *ref)
{
    const char *hash = strchr(ref, '#');
    return hash != NULL ? (size_t)(hash - ref) : strlen(ref);
}

static int same_page(const char *a, const char *b)
{
    size_t la = page_len(a);
    return la == page_len(b) && strncmp(a, b, la) == 0;
}

/* The strongest RFC 2119 level among the upper-case keywords of a quote
 * (whole words), or MC_LEVEL_INFO without one. */
static mc_level_t strongest(const char *q)
{
    static const struct {
        const char *word;
        mc_level_t level;
    } kw[] = {{"MUST", MC_LEVEL_MUST},          {"REQUIRED", MC_LEVEL_MUST},
              {"SHALL", MC_LEVEL_MUST},         {"SHOULD", MC_LEVEL_SHOULD},
              {"RECOMMENDED", MC_LEVEL_SHOULD}, {"MAY", MC_LEVEL_MAY},
              {"OPTIONAL", MC_LEVEL_MAY}};
    mc_level_t best = MC_LEVEL_INFO;
    size_t i;

    for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
        size_t n = strlen(kw[i].word);
        const char *p = q;
        while ((p = strstr(p, kw[i].word)) != NULL) {
            int before = p > q && (p[-1] == '-' || p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                   (p[-1] >= 'a' && p[-1] <= 'z'));
            char c = p[n];
            int after = c == '-' || c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            if (!before && !after && kw[i].level < best)
                best = kw[i].level;
            p += n;
        }
    }
    return best;
}

/* The row of version whose sentence on ref's page contains quote or is
 * contained in it (both normalised), or NULL. */
static req_row_t *find_row(req_table_t *t, const char *version, const char *ref, const char *quote)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        req_row_t *r = &t->v[i];
        if (strcmp(r->version, version) == 0 && same_page(r->ref, ref) &&
            (strstr(r->quote, quote) != NULL || strstr(quote, r->quote) != NULL))
            return r;
    }
    return NULL;
}

/* A new row (zeroed but for its keys), or NULL past MC_REQ_MAX_ROWS or out
 * of memory. The quote is normalised into a copy. */
static req_row_t *new_row(req_table_t *t, const char *version, const char *ref, const char *quote)
{
    char buf[MC_CHECK_MAX_QUOTE];
    req_row_t *r;

    if (t->n == t->cap) {
        size_t cap = t->cap == 0 ? 256 : t->cap * 2;
        req_row_t *grown;
        if (cap > MC_REQ_MAX_ROWS)
            cap = MC_REQ_MAX_ROWS;
        if (cap <= t->n)
            return NULL;
        grown = realloc(t->v, cap * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        t->v = grown;
        t->cap = cap;
    }
    mc_quote_normalise(quote, buf, sizeof(buf));
    r = &t->v[t->n];
    memset(r, 0, sizeof(*r));
    r->quote = strdup(buf);
    if (r->quote == NULL)
        return NULL;
    r->version = version;
    r->ref = ref;
    t->n++;
    return r;
}

static void add_check_id(req_row_t *r, const char *id)
{
    size_t i;

    for (i = 0; i < r->n_checks && i < MC_REQ_MAX_ROW_CHECKS; i++)
        if (strcmp(r->checks[i], id) == 0)
            return;
    if (r->n_checks < MC_REQ_MAX_ROW_CHECKS)
        r->checks[r->n_checks] = id;
    r->n_checks++;
}

/* Adds the rows of one check: one per version it names (when wanted). */
static int add_check(req_table_t *t, const mc_check_def_t *d, const char *want)
{
    size_t i;

    if (d->author || d->legacy)
        return 0;
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++) {
        const mc_check_ref_t *ref = &d->refs[i];
        const char *quote = ref->quote != NULL ? ref->quote : d->quote;
        char norm[MC_CHECK_MAX_QUOTE];
        req_row_t *r;

        if (quote == NULL || (want != NULL && strcmp(ref->version, want) != 0))
            continue;
        mc_quote_normalise(quote, norm, sizeof(norm));
        if (strongest(norm) == MC_LEVEL_INFO)
            continue; /* not an RFC 2119 sentence: no row of the table */
        r = find_row(t, ref->version, ref->page, norm);
        if (r == NULL) {
            r = new_row(t, ref->version, ref->page, quote);
            if (r == NULL)
                return -1;
            r->level = strongest(r->quote);
            r->binds = "server";
        }
        add_check_id(r, d->check);
    }
    return 0;
}

/* Adds the rows of the data file's entries (borrowed from root, which must
 * outlive t). Problems go to err (n bytes); returns 0 or -1. */
static int add_entries(req_table_t *t, json_object *root, const char *want, char *err, size_t n)
{
    json_object *arr = mc_json_get(root, "requirements");
    size_t i;

    if (arr == NULL || !json_object_is_type(arr, json_type_array)) {
        snprintf(err, n, "no \"requirements\" array at the top level");
        return -1;
    }
    for (i = 0; i < json_object_array_length(arr); i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        json_object *refs = mc_json_get(e, "refs"), *quotes = mc_json_get(e, "quotes");
        const char *quote = mc_json_get_str(e, "quote"), *binds = mc_json_get_str(e, "binds");
        json_object *gap = mc_json_get(e, "gap");

        if (quote == NULL || binds == NULL || refs == NULL ||
            !json_object_is_type(refs, json_type_object)) {
            snprintf(err, n, "entry %zu: needs \"quote\", \"binds\" and \"refs\"", i);
            return -1;
        }
        json_object_object_foreach(refs, version, refv)
        {
            const char *ref = json_object_get_string(refv);
            const char *q = quotes != NULL && mc_json_get_str(quotes, version) != NULL
                                ? mc_json_get_str(quotes, version)
                                : quote;
            const char *const *known;
            char norm[MC_CHECK_MAX_QUOTE];
            req_row_t *r;

            for (known = mc_version_names(); *known != NULL; known++)
                if (strcmp(*known, version) == 0)
                    break;
            if (*known == NULL) {
                snprintf(err, n, "entry %zu: \"%s\" is not a published protocol version", i,
                         version);
                return -1;
            }
            if (want != NULL && strcmp(version, want) != 0)
                continue;
            mc_quote_normalise(q, norm, sizeof(norm));
            r = find_row(t, *known, ref, norm);
            if (r == NULL) {
                r = new_row(t, *known, ref, q);
                if (r == NULL) {
                    snprintf(err, n, "more than %d sentences, or out of memory", MC_REQ_MAX_ROWS);
                    return -1;
                }
                r->level = strongest(r->quote);
            }
            /* An entry beside checks (a sentence with more requirements than
             * checks) says whom it binds and why the rest is not checked. */
            r->binds = binds;
            r->reason = mc_json_get_str(e, "reason");
            r->gap = gap != NULL && json_object_get_boolean(gap);
        }
    }
    return 0;
}

static int by_version_ref(const void *a, const void *b)
{
    const req_row_t *x = a, *y = b;
    int c = mc_version_cmp(x->version, y->version);
    if (c != 0)
        return -c; /* newest first */
    c = strcmp(x->ref, y->ref);
    return c != 0 ? c : strcmp(x->quote, y->quote);
}

typedef struct req_totals {
    size_t sentences, checked, reason, gap, client, neither, may;
} req_totals_t;

static void count(req_totals_t *c, const req_row_t *r)
{
    int server = strcmp(r->binds, "server") == 0 || strcmp(r->binds, "both") == 0;

    c->sentences++;
    if (r->n_checks > 0)
        c->checked++;
    if (strcmp(r->binds, "client") == 0)
        c->client++;
    else if (strcmp(r->binds, "neither") == 0)
        c->neither++;
    else if (server && r->level == MC_LEVEL_MAY && r->n_checks == 0)
        c->may++;
    if (server && r->level <= MC_LEVEL_SHOULD && (r->gap || r->reason != NULL)) {
        if (r->gap)
            c->gap++;
        else
            c->reason++;
    }
}

static json_object *totals_json(const req_totals_t *c)
{
    json_object *o = json_object_new_object();

    json_object_object_add(o, "sentences", json_object_new_uint64(c->sentences));
    json_object_object_add(o, "with_check", json_object_new_uint64(c->checked));
    json_object_object_add(o, "with_reason", json_object_new_uint64(c->reason));
    json_object_object_add(o, "gaps", json_object_new_uint64(c->gap));
    json_object_object_add(o, "client_only", json_object_new_uint64(c->client));
    json_object_object_add(o, "binds_neither", json_object_new_uint64(c->neither));
    json_object_object_add(o, "server_may_unchecked", json_object_new_uint64(c->may));
    return o;
}

static json_object *row_json(const req_row_t *r)
{
    json_object *o = json_object_new_object(), *ids = json_object_new_array();
    size_t i;

    json_object_object_add(o, "level", json_object_new_string(mc_level_name(r->level)));
    json_object_object_add(o, "ref", json_object_new_string(r->ref));
    json_object_object_add(o, "binds", json_object_new_string(r->binds));
    json_object_object_add(o, "quote", json_object_new_string(r->quote));
    for (i = 0; i < r->n_checks && i < MC_REQ_MAX_ROW_CHECKS; i++)
        json_object_array_add(ids, json_object_new_string(r->checks[i]));
    json_object_object_add(o, "checks", ids);
    if (r->reason != NULL)
        json_object_object_add(o, "reason", json_object_new_string(r->reason));
    if (r->gap)
        json_object_object_add(o, "gap", json_object_new_boolean(1));
    return o;
}

static void print_totals(const char *version, const req_totals_t *c)
{
    printf("%s: %zu sentences: %zu with a check, %zu server requirements with a reason, "
           "%zu gaps (testable, no check yet), %zu client-only, %zu binding neither side, "
           "%zu server MAY unchecked\n",
           version, c->sentences, c->checked, c->reason, c->gap, c->client, c->neither, c->may);
}

static void print_row(const req_row_t *r)
{
    size_t i;

    printf("  %-6s %s  (%s)\n         \"%s\"\n", mc_level_name(r->level), r->ref, r->binds,
           r->quote);
    if (r->n_checks > 0) {
        printf("         checks:");
        for (i = 0; i < r->n_checks && i < MC_REQ_MAX_ROW_CHECKS; i++)
            printf("%s %s", i > 0 ? "," : "", r->checks[i]);
        if (r->n_checks > MC_REQ_MAX_ROW_CHECKS)
            printf(" and %zu more", r->n_checks - MC_REQ_MAX_ROW_CHECKS);
        printf("\n");
    }
    if (r->gap)
        printf("         gap: testable from the client side, no check yet%s%s\n",
               r->reason != NULL ? ": " : "", r->reason != NULL ? r->reason : "");
    else if (r->reason != NULL)
        printf("         reason: %s\n", r->reason);
}

/* Prints the sorted table, version by version, with its totals. */
static void print_table(const req_table_t *t, int json)
{
    json_object *root = json ? json_object_new_object() : NULL, *vs = NULL, *rows = NULL;
    req_totals_t c, all;
    size_t i;

    memset(&all, 0, sizeof(all));
    if (json)
        json_object_object_add(root, "versions", vs = json_object_new_array());
    for (i = 0; i < t->n; i++) {
        const req_row_t *r = &t->v[i];
        if (i == 0 || strcmp(r->version, t->v[i - 1].version) != 0) {
            memset(&c, 0, sizeof(c));
            if (json) {
                json_object *v = json_object_new_object();
                json_object_object_add(v, "version", json_object_new_string(r->version));
                json_object_object_add(v, "sentences", rows = json_object_new_array());
                json_object_array_add(vs, v);
            } else {
                printf("%s\n", r->version);
            }
        }
        count(&c, r);
        count(&all, r);
        if (json)
            json_object_array_add(rows, row_json(r));
        else
            print_row(r);
        if (i + 1 == t->n || strcmp(r->version, t->v[i + 1].version) != 0) {
            if (json)
                json_object_object_add(
                    json_object_array_get_idx(vs, json_object_array_length(vs) - 1), "totals",
                    totals_json(&c));
            else
                print_totals(r->version, &c);
        }
    }
    if (json) {
        json_object_object_add(root, "totals", totals_json(&all));
        printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(root);
    } else {
        print_totals("all versions", &all);
    }
}

int mc_cli_list_requirements(const mc_cli_scenarios_t *scs, const char *dir, const char *version,
                             int json, const char *prog)
{
    req_table_t t = {0};
    json_object *root = NULL;
    const mc_check_def_t *d;
    char path[4096], err[512] = "";
    char *text = NULL;
    size_t len = 0, k, r;
    mc_errbuf_t eb;
    int rc = 0;

    snprintf(path, sizeof(path), "%s/%s", dir, MC_REQ_DATA_FILE);
    mc_errbuf_clear(&eb);
    if (mc_file_read(path, MC_REQ_MAX_FILE_BYTES, &text, &len, &eb) != MC_OK) {
        fprintf(stderr, "%s: %s\n", prog, eb.msg);
        return 1;
    }
    root = json_tokener_parse(text);
    free(text);
    if (root == NULL) {
        fprintf(stderr, "%s: %s: not valid JSON\n", prog, path);
        return 1;
    }
    for (k = 0; rc == 0 && (d = mc_builtin_check_at(k)) != NULL; k++)
        rc = add_check(&t, d, version);
    for (k = 0; rc == 0 && k < scs->n; k++)
        for (r = 0; rc == 0 && r < scs->v[k].n_reqs; r++)
            rc = add_check(&t, &scs->v[k].reqs[r], version);
    if (rc != 0)
        snprintf(err, sizeof(err), "more than %d sentences, or out of memory", MC_REQ_MAX_ROWS);
    else
        rc = add_entries(&t, root, version, err, sizeof(err));
    if (rc != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, err);
    } else {
        qsort(t.v, t.n, sizeof(*t.v), by_version_ref);
        print_table(&t, json);
    }
    for (k = 0; k < t.n; k++)
        free(t.v[k].quote);
    free(t.v);
    json_object_put(root);
    return rc != 0 ? 1 : 0;
}
