/*
 * baseline.c - known failures: reading a baseline file, matching results
 * against it, and writing one from a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "judge/builtin.h"
#include "scenario/jsonc.h"

/* Bytes of a failure message kept as the reason of a generated entry. */
#define MC_BASELINE_REASON_MAX 240

static void entry_free(mc_baseline_entry_t *e)
{
    free(e->key);
    free(e->scenario);
    free(e->version);
    free(e->check);
    free(e->reason);
    memset(e, 0, sizeof(*e));
}

void mc_baseline_free(mc_baseline_t *b)
{
    size_t i;

    if (b == NULL)
        return;
    for (i = 0; i < b->n; i++)
        entry_free(&b->v[i]);
    free(b->v);
    free(b->path);
    memset(b, 0, sizeof(*b));
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Splits "name@version" into *name and *version (version NULL when absent). */
static int split_at(const char *s, size_t n, char **name, char **version)
{
    const char *at = memchr(s, '@', n);

    *name = dupn(s, at != NULL ? (size_t)(at - s) : n);
    *version = at != NULL ? dupn(at + 1, n - (size_t)(at - s) - 1) : NULL;
    return *name != NULL && (at == NULL || *version != NULL);
}

static int id_chars_ok(const char *s)
{
    if (s[0] == '\0')
        return 0;
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c == '@' || c == ':' || c == 0x7F)
            return 0;
    }
    return 1;
}

int mc_baseline_parse_key(const char *key, mc_baseline_entry_t *out, mc_errbuf_t *eb)
{
    mc_baseline_entry_t e;
    const char *colon = strchr(key, ':');
    char *v2 = NULL;
    int ok;

    memset(&e, 0, sizeof(e));
    e.key = strdup(key);
    if (colon != NULL) {
        ok = split_at(key, (size_t)(colon - key), &e.scenario, &e.version) &&
             split_at(colon + 1, strlen(colon + 1), &e.check, &v2);
    } else {
        ok = split_at(key, strlen(key), &e.scenario, &e.version);
    }
    if (!ok || e.key == NULL) {
        free(v2);
        entry_free(&e);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    if (v2 != NULL) {
        if (e.version != NULL) {
            free(v2);
            entry_free(&e);
            return mc_errbuf_set(eb, MC_EINVAL, "\"%s\" names a version twice", key);
        }
        e.version = v2;
    }
    if (!id_chars_ok(e.scenario)) {
        entry_free(&e);
        return mc_errbuf_set(eb, MC_EINVAL,
                             "\"%s\" is not SCENARIO[@VERSION][:CHECK] (scenario id missing or "
                             "with spaces)",
                             key);
    }
    if (e.version != NULL && !mc_version_name_ok(e.version)) {
        mc_errbuf_set(eb, MC_EINVAL, "\"%s\": \"%s\" is not a protocol version (YYYY-MM-DD)",
                      key, e.version);
        entry_free(&e);
        return MC_EINVAL;
    }
    if (e.check != NULL && !mc_check_id_ok(e.check)) {
        mc_errbuf_set(eb, MC_EINVAL, "\"%s\": \"%s\" is not a check id (like area/rule)", key,
                      e.check);
        entry_free(&e);
        return MC_EINVAL;
    }
    *out = e;
    return MC_OK;
}

static int where_err(mc_errbuf_t *eb, const mc_jsonc_doc_t *doc, const char *ptr, const char *what)
{
    int line, col;

    mc_jsonc_where(doc, ptr, &line, &col);
    return mc_errbuf_set(eb, MC_EINVAL, "%s:%d:%d: %s", doc->name, line, col, what);
}

static int load_entry(const mc_jsonc_doc_t *doc, json_object *it, size_t idx, mc_baseline_t *b,
                      mc_errbuf_t *eb)
{
    char ptr[64], msg[600];
    json_object *id = NULL, *reason = NULL;
    mc_baseline_entry_t e;
    mc_errbuf_t kb;
    size_t i;
    int col;

    snprintf(ptr, sizeof(ptr), "/known/%zu", idx);
    if (!json_object_is_type(it, json_type_object))
        return where_err(eb, doc, ptr, "an entry is an object {\"id\": ..., \"reason\": ...}");
    json_object_object_foreach(it, k, v)
    {
        (void)v;
        if (strcmp(k, "id") != 0 && strcmp(k, "reason") != 0) {
            snprintf(msg, sizeof(msg), "unknown field \"%.100s\" (an entry has \"id\" and "
                                       "\"reason\")",
                     k);
            return where_err(eb, doc, ptr, msg);
        }
    }
    if (!json_object_object_get_ex(it, "id", &id) || !json_object_is_type(id, json_type_string))
        return where_err(eb, doc, ptr, "\"id\" (a string: SCENARIO[@VERSION][:CHECK]) is missing");
    if (!json_object_object_get_ex(it, "reason", &reason) ||
        !json_object_is_type(reason, json_type_string) ||
        json_object_get_string_len(reason) == 0)
        return where_err(eb, doc, ptr,
                         "\"reason\" is missing or empty: say why the failure is accepted");
    mc_errbuf_clear(&kb);
    if (mc_baseline_parse_key(json_object_get_string(id), &e, &kb) != MC_OK) {
        snprintf(ptr, sizeof(ptr), "/known/%zu/id", idx);
        return where_err(eb, doc, ptr, kb.msg);
    }
    for (i = 0; i < b->n; i++) {
        if (strcmp(b->v[i].key, e.key) == 0) {
            snprintf(msg, sizeof(msg), "\"%.300s\" is listed twice (first on line %d)", e.key,
                     b->v[i].line);
            entry_free(&e);
            return where_err(eb, doc, ptr, msg);
        }
    }
    e.reason = strdup(json_object_get_string(reason));
    if (e.reason == NULL) {
        entry_free(&e);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    mc_jsonc_where(doc, ptr, &e.line, &col);
    b->v[b->n++] = e;
    return MC_OK;
}

int mc_baseline_load(const char *path, mc_baseline_t *out, mc_errbuf_t *eb)
{
    mc_jsonc_doc_t doc;
    mc_baseline_t b;
    json_object *known = NULL, *ver = NULL;
    size_t i, n;
    int rc;

    rc = mc_jsonc_load(path, &doc, eb);
    if (rc != MC_OK)
        return rc;
    memset(&b, 0, sizeof(b));
    if (!json_object_is_type(doc.root, json_type_object)) {
        rc = where_err(eb, &doc, "", "a baseline is an object {\"mcpcheck_baseline\": 1, "
                                     "\"known\": [...]}");
        goto out;
    }
    json_object_object_foreach(doc.root, k, v)
    {
        (void)v;
        if (strcmp(k, "mcpcheck_baseline") != 0 && strcmp(k, "known") != 0 &&
            strcmp(k, "target") != 0 && strcmp(k, "from") != 0) {
            char msg[200], ptr[160];
            snprintf(msg, sizeof(msg), "unknown field \"%.100s\"", k);
            snprintf(ptr, sizeof(ptr), "/%.100s", k);
            rc = where_err(eb, &doc, ptr, msg);
            goto out;
        }
    }
    if (json_object_object_get_ex(doc.root, "mcpcheck_baseline", &ver) &&
        (!json_object_is_type(ver, json_type_int) || json_object_get_int(ver) != 1)) {
        rc = where_err(eb, &doc, "/mcpcheck_baseline", "unsupported baseline format (want 1)");
        goto out;
    }
    if (!json_object_object_get_ex(doc.root, "known", &known) ||
        !json_object_is_type(known, json_type_array)) {
        rc = where_err(eb, &doc, "", "\"known\" (an array of {\"id\", \"reason\"}) is missing");
        goto out;
    }
    n = json_object_array_length(known);
    if (n > MC_BASELINE_MAX_ENTRIES) {
        rc = where_err(eb, &doc, "/known", "too many entries");
        goto out;
    }
    b.v = calloc(n + 1, sizeof(*b.v));
    b.path = strdup(path);
    if (b.v == NULL || b.path == NULL) {
        rc = mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        goto out;
    }
    for (i = 0; i < n; i++) {
        rc = load_entry(&doc, json_object_array_get_idx(known, i), i, &b, eb);
        if (rc != MC_OK)
            goto out;
    }
    *out = b;
    memset(&b, 0, sizeof(b));
    rc = MC_OK;
out:
    mc_baseline_free(&b);
    mc_jsonc_free(&doc);
    return rc;
}

/* ---- matching ----------------------------------------------------------------- */

int mc__bl_matches(const mc_baseline_entry_t *e, const mc_scenario_result_t *r)
{
    return strcmp(e->scenario, r->id) == 0 &&
           (e->version == NULL || (r->version != NULL && strcmp(e->version, r->version) == 0));
}

const char *mc_baseline_check_reason(const mc_baseline_t *b, const mc_scenario_result_t *r,
                                     const char *check)
{
    size_t i;

    for (i = 0; b != NULL && i < b->n; i++)
        if (mc__bl_matches(&b->v[i], r) && (b->v[i].check == NULL || strcmp(b->v[i].check, check) == 0))
            return b->v[i].reason;
    return NULL;
}

static const char *whole_reason(const mc_baseline_t *b, const mc_scenario_result_t *r)
{
    size_t i;

    for (i = 0; b != NULL && i < b->n; i++)
        if (mc__bl_matches(&b->v[i], r) && b->v[i].check == NULL)
            return b->v[i].reason;
    return NULL;
}

const char *mc_baseline_result_reason(const mc_baseline_t *b, const mc_scenario_result_t *r,
                                      mc_fail_on_t fail_on)
{
    const char *first = NULL;
    size_t k;

    if (b == NULL)
        return NULL;
    if (r->verdict == MC_ERROR)
        return whole_reason(b, r);
    if (!mc_sresult_fails(r, fail_on))
        return NULL;
    for (k = 0; k < r->n_checks; k++) {
        const mc_check_result_t *c = &r->checks[k];
        const char *why;
        if (!mc_check_fails(c, fail_on))
            continue;
        why = mc_baseline_check_reason(b, r, c->id);
        if (why == NULL)
            return NULL;
        if (first == NULL)
            first = why;
    }
    return first != NULL ? first : whole_reason(b, r);
}

/* ---- writing one --------------------------------------------------------------- */

typedef struct keys {
    char **v;
    size_t n, cap;
} keys_t;

static int keys_has(const keys_t *k, const char *s)
{
    size_t i;

    for (i = 0; i < k->n; i++)
        if (strcmp(k->v[i], s) == 0)
            return 1;
    return 0;
}

static int keys_add(keys_t *k, const char *s)
{
    if (k->n == k->cap) {
        size_t nc = k->cap ? k->cap * 2 : 64;
        char **nv = realloc(k->v, nc * sizeof(*nv));
        if (nv == NULL)
            return 0;
        k->v = nv;
        k->cap = nc;
    }
    k->v[k->n] = strdup(s);
    if (k->v[k->n] == NULL)
        return 0;
    k->n++;
    return 1;
}

static void keys_free(keys_t *k)
{
    size_t i;

    for (i = 0; i < k->n; i++)
        free(k->v[i]);
    free(k->v);
}

/* Whether a baseline lists check c: a FAIL or WARN, or anything the gate
 * fails (an INFO with --fail-on info or a rule's "fail"). */
static int listable(const mc_check_result_t *c, mc_fail_on_t fail_on)
{
    return c->verdict == MC_FAIL || c->verdict == MC_WARN || mc_check_fails(c, fail_on);
}

/* True when the check broke in every result of this scenario id. */
static int broken_everywhere(const mc_run_result_t *run, const char *id, const char *check)
{
    size_t i, k;

    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        int broken = 0;
        if (strcmp(r->id, id) != 0)
            continue;
        if (check == NULL) {
            broken = r->verdict == MC_ERROR;
        } else {
            for (k = 0; k < r->n_checks; k++)
                if (strcmp(r->checks[k].id, check) == 0 && listable(&r->checks[k], run->fail_on))
                    broken = 1;
        }
        if (!broken)
            return 0;
    }
    return 1;
}

static void put_entry(mc__buf_t *b, keys_t *seen, const char *key, const char *verdict,
                      const char *message)
{
    json_object *k, *why;
    mc__buf_t r;
    size_t n;

    if (keys_has(seen, key))
        return;
    if (!keys_add(seen, key)) {
        b->err = MC_ENOMEM;
        return;
    }
    mc__buf_init(&r);
    mc__buf_printf(&r, "%s: ", verdict);
    n = message != NULL ? strlen(message) : 0;
    if (n > MC_BASELINE_REASON_MAX) {
        n = MC_BASELINE_REASON_MAX;
        while (n > 0 && ((unsigned char)message[n] & 0xC0) == 0x80)
            n--;
    }
    mc__buf_utf8(&r, message != NULL ? message : "failed", message != NULL ? n : 6);
    if (message != NULL && n < strlen(message))
        mc__buf_puts(&r, "...");
    k = mc__json_str(key);
    why = json_object_new_string(r.p != NULL ? r.p : "");
    mc__buf_printf(b, "%s    {\"id\": %s,\n     \"reason\": %s}", seen->n > 1 ? ",\n" : "",
                   json_object_to_json_string_ext(k, JSON_C_TO_STRING_NOSLASHESCAPE),
                   json_object_to_json_string_ext(why, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(k);
    json_object_put(why);
    mc__buf_free(&r);
}

int mc_report_baseline(const mc_report_t *rep, char **out, size_t *len)
{
    const mc_run_result_t *run = &rep->run;
    mc__buf_t b;
    keys_t seen;
    json_object *target = mc__json_str(run->target ? run->target : "");
    size_t i, k;
    char key[1024];

    memset(&seen, 0, sizeof(seen));
    mc__buf_init(&b);
    mc__buf_puts(&b, "// mcpcheck baseline: the known failures of a server.\n"
                     "//\n"
                     "// With `mcpcheck run --baseline FILE`, a failure listed here does not fail\n"
                     "// the run (it is shown as known), and a listed failure that no longer\n"
                     "// happens fails the run as stale: delete its entry then.\n"
                     "// Keys: \"SCENARIO:CHECK\" (one check of a scenario) or \"SCENARIO\" (the\n"
                     "// whole scenario, an ERROR included); \"SCENARIO@VERSION...\" holds at\n"
                     "// that protocol version only. Replace each generated reason by the real one.\n"
                     "{\n");
    mc__buf_printf(&b, "  \"mcpcheck_baseline\": 1,\n  \"target\": %s,\n",
                   json_object_to_json_string_ext(target, JSON_C_TO_STRING_NOSLASHESCAPE));
    mc__buf_printf(&b, "  \"from\": \"report of %s\",\n  \"known\": [\n", run->started);
    json_object_put(target);
    for (i = 0; i < run->n; i++) {
        const mc_scenario_result_t *r = &run->scenarios[i];
        if (r->verdict == MC_ERROR) {
            int every = broken_everywhere(run, r->id, NULL);
            snprintf(key, sizeof(key), "%s%s%s", r->id, every ? "" : "@",
                     every ? "" : r->version);
            put_entry(&b, &seen, key, "ERROR", r->reason);
            continue;
        }
        for (k = 0; k < r->n_checks; k++) {
            const mc_check_result_t *c = &r->checks[k];
            int every;
            if (!listable(c, run->fail_on))
                continue;
            every = broken_everywhere(run, r->id, c->id);
            snprintf(key, sizeof(key), "%s%s%s:%s", r->id, every ? "" : "@",
                     every ? "" : r->version, c->id);
            put_entry(&b, &seen, key, mc_verdict_name(c->verdict), c->message);
        }
    }
    mc__buf_puts(&b, seen.n > 0 ? "\n  ]\n}\n" : "  ]\n}\n");
    keys_free(&seen);
    if (b.err != MC_OK) {
        int e = b.err;
        mc__buf_free(&b);
        return e;
    }
    *out = b.p;
    *len = b.len;
    return MC_OK;
}
