/*
 * load.c - reads a report.json back into a report, so that baselines,
 * merges and re-rendered outputs work from saved runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/file.h"
#include "report/internal.h"

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;

    if (o == NULL || !json_object_is_type(o, json_type_object))
        return NULL;
    return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* A copy of string member k, or NULL when it is absent or not a string.
 * *oom is set when the copy failed. */
static char *str(json_object *o, const char *k, int *oom)
{
    json_object *v = get(o, k);
    char *s;

    if (v == NULL || !json_object_is_type(v, json_type_string))
        return NULL;
    s = strdup(json_object_get_string(v));
    if (s == NULL)
        *oom = 1;
    return s;
}

/* Like str(), but "" instead of NULL. */
static char *str0(json_object *o, const char *k, int *oom)
{
    char *s = str(o, k, oom);

    if (s == NULL && !*oom) {
        s = strdup("");
        if (s == NULL)
            *oom = 1;
    }
    return s;
}

static int64_t num(json_object *o, const char *k)
{
    json_object *v = get(o, k);

    return v != NULL && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
}

static int flag(json_object *o, const char *k)
{
    json_object *v = get(o, k);

    return v != NULL && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

static mc_verdict_t verdict_of(const char *s)
{
    int v;

    for (v = 0; v < MC_VERDICT_COUNT && s != NULL; v++)
        if (strcmp(mc_verdict_name((mc_verdict_t)v), s) == 0)
            return (mc_verdict_t)v;
    return MC_ERROR;
}

/* A check's "gate": {"outcome", "reason"} (the gate's decision on it), if any. */
static void load_gate(json_object *c, mc_check_result_t *cr, int *oom)
{
    json_object *g = get(c, "gate"), *go = g != NULL ? get(g, "outcome") : NULL;
    const char *gs =
        go != NULL && json_object_is_type(go, json_type_string) ? json_object_get_string(go) : "";

    cr->gate = strcmp(gs, "fail") == 0     ? MC_GATE_FAIL
               : strcmp(gs, "warn") == 0   ? MC_GATE_WARN
               : strcmp(gs, "ignore") == 0 ? MC_GATE_IGNORE
                                           : MC_GATE_NONE;
    if (cr->gate != MC_GATE_NONE)
        cr->gate_reason = str0(g, "reason", oom);
}

static int load_scenario(json_object *o, mc_scenario_result_t *r, char **known, char ***ck)
{
    json_object *checks = get(o, "checks"), *tx = get(o, "transcript");
    json_object *v = get(o, "verdict");
    int oom = 0;
    size_t k, n;

    r->id = str0(o, "id", &oom);
    r->area = str0(o, "area", &oom);
    r->title = str0(o, "title", &oom);
    r->file = str0(o, "file", &oom);
    r->version = str0(o, "version", &oom);
    r->tags = str(o, "tags", &oom);
    r->reason = str(o, "reason", &oom);
    r->fixtures = str(o, "fixtures", &oom);
    r->role = str(o, "missing_role", &oom);
    r->stderr_tail = str(o, "stderr_tail", &oom);
    r->exit_desc = str(o, "exit", &oom);
    r->verdict = verdict_of(v != NULL ? json_object_get_string(v) : NULL);
    r->duration_ms = num(o, "duration_ms");
    r->tx_truncated = flag(o, "transcript_truncated");
    *known = str(o, "known", &oom);
    n = checks != NULL && json_object_is_type(checks, json_type_array)
            ? json_object_array_length(checks)
            : 0;
    r->checks = calloc(n + 1, sizeof(*r->checks));
    if (r->checks == NULL)
        return MC_ENOMEM;
    for (k = 0; k < n; k++) {
        json_object *c = json_object_array_get_idx(checks, k);
        mc_check_result_t *cr = &r->checks[k];
        json_object *lv = get(c, "level"), *cv = get(c, "verdict");
        mc_level_t level = MC_LEVEL_MUST;
        char *kn;
        cr->id = str0(c, "id", &oom);
        cr->author = get(c, "source") != NULL &&
                     json_object_is_type(get(c, "source"), json_type_string) &&
                     strcmp(json_object_get_string(get(c, "source")), MC_REPORT_SOURCE_AUTHOR) == 0;
        cr->ref = str0(c, "spec", &oom); /* "" for an author's check, which has none */
        /* An author's rule is its "text"; "requirement" is what reports of
         * earlier releases called the quote. */
        cr->quote = str0(c,
                         cr->author                ? "text"
                         : get(c, "quote") != NULL ? "quote"
                                                   : "requirement",
                         &oom);
        cr->link = cr->author ? str(c, "link", &oom) : NULL;
        cr->interpretation = str(c, "interpretation", &oom);
        cr->message = str(c, "message", &oom);
        cr->expected = str(c, "expected", &oom);
        cr->actual = str(c, "actual", &oom);
        cr->path = str(c, "path", &oom);
        if (lv != NULL && json_object_is_type(lv, json_type_string))
            mc_level_parse(json_object_get_string(lv), &level);
        cr->level = level;
        cr->verdict = verdict_of(cv != NULL ? json_object_get_string(cv) : NULL);
        cr->seq = (uint64_t)num(c, "seq");
        cr->line = (int)num(c, "line");
        cr->evals = (unsigned)num(c, "evaluations");
        cr->fails = (unsigned)num(c, "failures");
        load_gate(c, cr, &oom);
        r->n_checks++;
        kn = str(c, "known", &oom);
        if (kn != NULL) {
            if (*ck == NULL)
                *ck = calloc(n + 1, sizeof(char *));
            if (*ck == NULL) {
                free(kn);
                return MC_ENOMEM;
            }
            (*ck)[k] = kn;
        }
    }
    n = tx != NULL && json_object_is_type(tx, json_type_array) ? json_object_array_length(tx) : 0;
    if (n > 0) {
        r->tx = calloc(n, sizeof(*r->tx));
        if (r->tx == NULL)
            return MC_ENOMEM;
    }
    for (k = 0; k < n; k++) {
        json_object *t = json_object_array_get_idx(tx, k);
        mc_tx_line_t *tl = &r->tx[k];
        json_object *dir = get(t, "dir"), *raw;
        size_t kept;
        tl->line = str0(t, "line", &oom);
        if (tl->line == NULL)
            return MC_ENOMEM;
        kept = strlen(tl->line);
        raw = get(t, "raw_b64");
        if (raw != NULL && json_object_is_type(raw, json_type_string)) {
            /* The exact bytes of a line that is not UTF-8. */
            size_t blen = (size_t)json_object_get_string_len(raw);
            char *bytes = malloc(blen + 1);
            long got = bytes != NULL ? mc_base64_decode(json_object_get_string(raw), blen,
                                                         (unsigned char *)bytes, blen)
                                     : -1;
            if (got >= 0) {
                bytes[got] = '\0';
                free(tl->line);
                tl->line = bytes;
                kept = (size_t)got;
            } else {
                free(bytes);
            }
        }
        tl->seq = (uint64_t)num(t, "seq");
        tl->t_ms = num(t, "t_ms");
        tl->outbound = dir != NULL && strcmp(json_object_get_string(dir), "out") == 0;
        tl->len = get(t, "truncated_from") != NULL ? (size_t)num(t, "truncated_from")
                                                    : kept;
        r->tx_bytes += kept;
        r->n_tx++;
    }
    return oom ? MC_ENOMEM : MC_OK;
}

static int load_doc(json_object *doc, mc_report_t *rep)
{
    json_object *run = get(doc, "run"), *list = get(doc, "scenarios"), *nr = get(doc, "not_run"),
                *bl = get(doc, "baseline"), *sum = get(doc, "summary");
    mc_run_result_t *rr = &rep->run;
    int oom = 0, rc;
    size_t i, n;
    char *started;

    rr->target = str(run, "target", &oom);
    rr->versions = str(run, "protocol_versions", &oom);
    rr->profile = str(run, "profile", &oom);
    rr->seed = (uint64_t)num(run, "seed");
    started = str0(run, "started", &oom);
    if (started != NULL)
        snprintf(rr->started, sizeof(rr->started), "%s", started);
    free(started);
    rr->partial = flag(run, "partial");
    {
        /* Reports of earlier releases say "strict" only. */
        json_object *fo = get(run, "fail_on");
        if (fo == NULL || !json_object_is_type(fo, json_type_string) ||
            mc_fail_on_parse(json_object_get_string(fo), &rr->fail_on) != 0)
            rr->fail_on = flag(run, "strict") ? MC_FAIL_ON_WARN : MC_FAIL_ON_FAIL;
    }
    rep->gate_path = str(run, "gate", &oom);
    rr->duration_ms = num(sum, "duration_ms");
    {
        json_object *bd = get(run, "base_dir");
        if (bd != NULL && json_object_is_type(bd, json_type_string))
            snprintf(rep->base_dir, sizeof(rep->base_dir), "%s", json_object_get_string(bd));
    }
    n = json_object_array_length(list);
    rr->scenarios = calloc(n + 1, sizeof(*rr->scenarios));
    rep->known = calloc(n + 1, sizeof(*rep->known));
    rep->check_known = calloc(n + 1, sizeof(*rep->check_known));
    if (rr->scenarios == NULL || rep->known == NULL || rep->check_known == NULL)
        return MC_ENOMEM;
    for (i = 0; i < n; i++) {
        rr->n++;
        rc = load_scenario(json_object_array_get_idx(list, i), &rr->scenarios[i], &rep->known[i],
                           &rep->check_known[i]);
        if (rc != MC_OK)
            return rc;
    }
    n = nr != NULL && json_object_is_type(nr, json_type_array) ? json_object_array_length(nr) : 0;
    for (i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(nr, i);
        char *id = str0(e, "id", &oom), *ver = str0(e, "version", &oom),
             *area = str0(e, "area", &oom), *title = str0(e, "title", &oom),
             *file = str0(e, "file", &oom), *why = str0(e, "reason", &oom);
        rc = oom ? MC_ENOMEM : mc_report_add_not_run(rep, id, ver, area, title, file, why);
        free(id);
        free(ver);
        free(area);
        free(title);
        free(file);
        free(why);
        if (rc != MC_OK)
            return rc;
    }
    if (bl != NULL && json_object_is_type(bl, json_type_object)) {
        static const char *const lists[] = {"stale", "unexercised"};
        size_t l;
        rep->baseline_path = str0(bl, "file", &oom);
        for (l = 0; l < 2; l++) {
            json_object *a = get(bl, lists[l]);
            n = a != NULL && json_object_is_type(a, json_type_array) ? json_object_array_length(a)
                                                                      : 0;
            for (i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(a, i);
                mc_report_bnote_t *nv = realloc(rep->notes, (rep->n_notes + 1) * sizeof(*nv));
                if (nv == NULL)
                    return MC_ENOMEM;
                rep->notes = nv;
                nv[rep->n_notes].key = str0(e, "id", &oom);
                nv[rep->n_notes].reason = str0(e, "reason", &oom);
                nv[rep->n_notes].why = str0(e, "why", &oom);
                nv[rep->n_notes].stale = l == 0;
                rep->n_notes++;
            }
        }
    }
    return oom ? MC_ENOMEM : MC_OK;
}

int mc_report_load(const char *path, mc_report_t *rep, mc_errbuf_t *eb)
{
    char *text = NULL;
    size_t len = 0;
    json_tokener *tok;
    json_object *doc;
    enum json_tokener_error jerr;
    int rc;

    memset(rep, 0, sizeof(*rep));
    rc = mc_file_read(path, MC_REPORT_MAX_INPUT, &text, &len, eb);
    if (rc != MC_OK)
        return rc;
    tok = json_tokener_new_ex(64);
    if (tok == NULL) {
        free(text);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    doc = json_tokener_parse_ex(tok, text, (int)len);
    jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    free(text);
    if (doc == NULL || jerr != json_tokener_success) {
        json_object_put(doc);
        return mc_errbuf_set(eb, MC_EPARSE, "%s: not JSON: %s", path,
                             json_tokener_error_desc(jerr));
    }
    if (!json_object_is_type(get(doc, "scenarios"), json_type_array) ||
        !json_object_is_type(get(doc, "run"), json_type_object)) {
        json_object_put(doc);
        return mc_errbuf_set(eb, MC_EINVAL,
                             "%s: not an mcpcheck report.json (no \"run\" and \"scenarios\")",
                             path);
    }
    rc = load_doc(doc, rep);
    json_object_put(doc);
    if (rc != MC_OK) {
        mc_report_free(rep);
        return mc_errbuf_set(eb, rc, "%s: %s", path, mc_strerror(rc));
    }
    mc_report_summarize(rep);
    return MC_OK;
}
