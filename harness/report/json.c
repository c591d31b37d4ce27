#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Returns a copy of s that is valid UTF-8: every byte that does not start a
 * well-formed sequence becomes U+FFFD. Servers are hostile, and transcripts,
 * stderr tails and messages quote their bytes; the report must stay valid
 * JSON (RFC 8259 requires UTF-8). Caller frees.
 */
char *mc_report_utf8_clean(const char *s)
{
    size_t n = strlen(s), i = 0, o = 0;
    char *out = malloc(n * 3 + 1);

    if (out == NULL)
        return NULL;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3
                                  : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
        size_t k;
        int ok = len > 0 && i + len <= n;
        for (k = 1; ok && k < len; k++)
            ok = ((unsigned char)s[i + k] & 0xC0) == 0x80;
        if (ok && len == 3) {
            unsigned cp = ((c & 0x0Fu) << 12) | (((unsigned char)s[i + 1] & 0x3Fu) << 6);
            ok = cp >= 0x800 && !(cp >= 0xD800 && cp <= 0xDFFF);
        } else if (ok && len == 4) {
            unsigned cp = ((c & 0x07u) << 18) | (((unsigned char)s[i + 1] & 0x3Fu) << 12);
            ok = cp >= 0x10000 && cp <= 0x10FFFF;
        }
        if (!ok) {
            out[o++] = (char)0xEF;
            out[o++] = (char)0xBF;
            out[o++] = (char)0xBD;
            i++;
            continue;
        }
        memcpy(out + o, s + i, len);
        o += len;
        i += len;
    }
    out[o] = '\0';
    return out;
}

static void add_str(json_object *o, const char *k, const char *v)
{
    char *clean;

    if (v == NULL) {
        json_object_object_add(o, k, NULL);
        return;
    }
    clean = mc_report_utf8_clean(v);
    json_object_object_add(o, k, json_object_new_string(clean != NULL ? clean : ""));
    free(clean);
}

static json_object *check_json(const mc_check_result_t *c)
{
    json_object *o = json_object_new_object();

    add_str(o, "id", c->id);
    add_str(o, "verdict", mc_verdict_name(c->verdict));
    add_str(o, "level", mc_level_name(c->level));
    add_str(o, "spec", c->ref);
    add_str(o, "requirement", c->text);
    add_str(o, "message", c->message);
    add_str(o, "expected", c->expected);
    add_str(o, "actual", c->actual);
    add_str(o, "path", c->path);
    json_object_object_add(o, "seq", json_object_new_int64((int64_t)c->seq));
    json_object_object_add(o, "line", json_object_new_int(c->line));
    json_object_object_add(o, "evaluations", json_object_new_int64(c->evals));
    json_object_object_add(o, "failures", json_object_new_int64(c->fails));
    return o;
}

static json_object *scenario_json(const mc_scenario_result_t *r)
{
    json_object *o = json_object_new_object(), *checks = json_object_new_array(),
                *tx = json_object_new_array();
    size_t i;

    add_str(o, "id", r->id);
    add_str(o, "title", r->title);
    add_str(o, "area", r->area);
    add_str(o, "file", r->file);
    add_str(o, "version", r->version);
    add_str(o, "verdict", mc_verdict_name(r->verdict));
    add_str(o, "reason", r->reason);
    json_object_object_add(o, "duration_ms", json_object_new_int64(r->duration_ms));
    add_str(o, "exit", r->exit_desc);
    add_str(o, "stderr_tail", r->stderr_tail);
    for (i = 0; i < r->n_checks; i++)
        json_object_array_add(checks, check_json(&r->checks[i]));
    json_object_object_add(o, "checks", checks);
    for (i = 0; i < r->n_tx; i++) {
        json_object *t = json_object_new_object();
        json_object_object_add(t, "seq", json_object_new_int64((int64_t)r->tx[i].seq));
        json_object_object_add(t, "t_ms", json_object_new_int64(r->tx[i].t_ms));
        add_str(t, "dir", r->tx[i].outbound ? "out" : "in");
        add_str(t, "line", r->tx[i].line);
        if (r->tx[i].len > strlen(r->tx[i].line))
            json_object_object_add(t, "truncated_from", json_object_new_int64((int64_t)r->tx[i].len));
        json_object_array_add(tx, t);
    }
    json_object_object_add(o, "transcript", tx);
    json_object_object_add(o, "transcript_truncated", json_object_new_boolean(r->tx_truncated));
    return o;
}

json_object *mc_report_json(const mc_run_result_t *run)
{
    json_object *root = json_object_new_object(), *sum = json_object_new_object(),
                *r = json_object_new_object(), *list = json_object_new_array();
    size_t i;

    json_object_object_add(sum, "scenarios", json_object_new_int64((int64_t)run->n));
    json_object_object_add(sum, "pass", json_object_new_int64((int64_t)run->count[MC_PASS]));
    json_object_object_add(sum, "fail", json_object_new_int64((int64_t)run->count[MC_FAIL]));
    json_object_object_add(sum, "warn", json_object_new_int64((int64_t)run->count[MC_WARN]));
    json_object_object_add(sum, "info", json_object_new_int64((int64_t)run->count[MC_INFO]));
    json_object_object_add(sum, "skip", json_object_new_int64((int64_t)run->count[MC_SKIP]));
    json_object_object_add(sum, "not_verified",
                           json_object_new_int64((int64_t)run->count[MC_NOT_VERIFIED]));
    json_object_object_add(sum, "error", json_object_new_int64((int64_t)run->count[MC_ERROR]));
    json_object_object_add(sum, "duration_ms", json_object_new_int64(run->duration_ms));
    json_object_object_add(root, "summary", sum);

    add_str(r, "target", run->target);
    add_str(r, "protocol_versions", run->versions);
    add_str(r, "profile", run->profile);
    json_object_object_add(r, "seed", json_object_new_int64((int64_t)run->seed));
    add_str(r, "started", run->started);
    json_object_object_add(r, "partial", json_object_new_boolean(run->partial));
    json_object_object_add(r, "strict", json_object_new_boolean(run->strict));
    add_str(r, "tool", "mcpcheck " MC_VERSION);
    json_object_object_add(root, "run", r);

    for (i = 0; i < run->n; i++)
        json_object_array_add(list, scenario_json(&run->scenarios[i]));
    json_object_object_add(root, "scenarios", list);
    return root;
}

int mc_report_mkdirs(const char *dir, mc_errbuf_t *eb)
{
    char buf[4096];
    size_t i, n;

    n = (size_t)snprintf(buf, sizeof(buf), "%s", dir);
    if (n >= sizeof(buf))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return mc_errbuf_set(eb, MC_EIO, "cannot create %s: %s", buf, strerror(errno));
            buf[i] = c;
        }
    }
    return MC_OK;
}

int mc_report_write_file(const char *path, const char *data, size_t len, mc_errbuf_t *eb)
{
    char tmp[4200];
    FILE *f;
    int ok;

    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    f = fopen(tmp, "wb");
    if (f == NULL)
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s: %s", tmp, strerror(errno));
    ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return mc_errbuf_set(eb, MC_EIO, "cannot write %s: %s", path, strerror(e));
    }
    return MC_OK;
}

int mc_report_write_json(const mc_run_result_t *run, const char *dir, mc_errbuf_t *eb)
{
    json_object *doc;
    const char *s;
    size_t len = 0;
    char path[4096];
    int rc;

    rc = mc_report_mkdirs(dir, eb);
    if (rc != MC_OK)
        return rc;
    doc = mc_report_json(run);
    if (doc == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory building report.json");
    s = json_object_to_json_string_length(doc, JSON_C_TO_STRING_PRETTY |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE |
                                                   JSON_C_TO_STRING_SPACED,
                                          &len);
    snprintf(path, sizeof(path), "%s/report.json", dir);
    rc = mc_report_write_file(path, s, len, eb);
    json_object_put(doc);
    return rc;
}
