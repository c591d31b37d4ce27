/*
 * trace.c - each scenario's messages as JSONL, one file per scenario run:
 * traces/<id with '/' as "__">@<version>.jsonl, one object per line:
 *
 *   {"seq": 3, "t_ms": 12, "dir": "out"|"in", "line": "<the message>"}
 *
 * plus "truncated_from": N when the transcript kept only the first bytes of
 * a longer line (N: its length), and "raw_b64" holding the exact bytes when
 * they are not valid UTF-8 ("line" then has U+FFFD in their place).
 *
 * Over Streamable HTTP a message received carries its HTTP facts beside it,
 * "http": {"stream": "POST#5", "status": 200, "content_type": "...",
 * "session": "...", "event_id": "...", "resumes": "POST#3"} (the members the
 * transport knew; over HTTP+SSE the stream is "SSE#1"), and the transport's
 * notes about exchanges, and the requests of "http" steps made outside the
 * session, are records with "dir": "note".
 * `mcpcheck validate --trace FILE` judges such a file offline.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/limits.h"
#include "report/internal.h"

/* Suffixes tried to make a trace file name unique (-2, -3, ...). */
#define MAX_NAME_TRIES 1000

void mc_report_trace_name(const mc_scenario_result_t *r, char *out, size_t n)
{
    size_t k = 0;
    const char *s;

    if (n == 0)
        return;
    for (s = r->id; *s != '\0' && k + 3 < n; s++) {
        char c = *s;
        if (c == '/') {
            out[k++] = '_';
            out[k++] = '_';
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '.' || c == '_'))
            c = '_';
        out[k++] = c;
    }
    out[k] = '\0';
    snprintf(out + k, n - k, "@%s.jsonl", r->version != NULL ? r->version : "unknown");
}

/* An HTTP status code has three digits. */
#define HTTP_STATUS_MIN 100
#define HTTP_STATUS_MAX 999

/* Finds " key=" in f[0..n) and returns the value's start; *vl gets its length
 * (up to the next " resumes=", " session=" or " event-id=", or the end). */
static const char *facts_value(const char *f, size_t n, const char *key, size_t *vl)
{
    static const char *const keys[] = {" resumes=", " session=", " event-id="};
    const char *v = NULL, *end = f + n;
    size_t k = strlen(key), i, j;

    for (i = 0; i + k <= n; i++)
        if (memcmp(f + i, key, k) == 0) {
            v = f + i + k;
            break;
        }
    if (v == NULL)
        return NULL;
    for (j = 0; j < sizeof(keys) / sizeof(keys[0]); j++) {
        size_t kl = strlen(keys[j]);
        const char *p;
        for (p = v; p + kl <= end; p++)
            if (memcmp(p, keys[j], kl) == 0) {
                if (p < end)
                    end = p;
                break;
            }
    }
    *vl = (size_t)(end - v);
    return v;
}

json_object *mc_report_http_facts(const char *facts, size_t n)
{
    static const char *const keys[][2] = {
        {" resumes=", "resumes"}, {" session=", "session"}, {" event-id=", "event_id"}};
    json_object *o;
    size_t sl, i, ce;
    const char *sp, *p;
    char *end;
    long status;
    char stream[32];

    while (n > 0 && (facts[n - 1] == '\n' || facts[n - 1] == '\r'))
        n--;
    sp = memchr(facts, ' ', n);
    if (sp == NULL)
        return NULL;
    sl = (size_t)(sp - facts);
    if (sl >= sizeof(stream) || !((sl > 5 && memcmp(facts, "POST#", 5) == 0) ||
                                  (sl > 4 && memcmp(facts, "GET#", 4) == 0) ||
                                  (sl > 4 && memcmp(facts, "SSE#", 4) == 0)))
        return NULL;
    memcpy(stream, facts, sl);
    stream[sl] = '\0';
    status = strtol(sp + 1, &end, 10);
    if (end == sp + 1 || end >= facts + n || *end != ' ' || status < HTTP_STATUS_MIN ||
        status > HTTP_STATUS_MAX)
        return NULL;
    p = end + 1;
    /* The content type runs up to the first key (it may hold spaces). */
    ce = (size_t)(facts + n - p);
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        size_t vl;
        const char *v = facts_value(p, (size_t)(facts + n - p), keys[i][0], &vl);
        if (v != NULL && (size_t)(v - strlen(keys[i][0]) - p) < ce)
            ce = (size_t)(v - strlen(keys[i][0]) - p);
    }
    o = json_object_new_object();
    if (o == NULL)
        return NULL;
    json_object_object_add(o, "stream", json_object_new_string(stream));
    json_object_object_add(o, "status", json_object_new_int((int)status));
    if (!(ce == 17 && memcmp(p, "(no content type)", 17) == 0))
        json_object_object_add(o, "content_type", json_object_new_string_len(p, (int)ce));
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        size_t vl;
        const char *v = facts_value(p, (size_t)(facts + n - p), keys[i][0], &vl);
        if (v != NULL)
            json_object_object_add(o, keys[i][1], json_object_new_string_len(v, (int)vl));
    }
    return o;
}

/* True when transcript line t is one of the HTTP transport's notes. */
static int is_http_note(const mc_tx_line_t *t)
{
    return t->len >= 7 && memcmp(t->line, "(http", 5) == 0 && t->line[t->len - 1] == ')';
}

int mc_report_trace(const mc_scenario_result_t *r, char **out, size_t *len)
{
    mc__buf_t b;
    size_t i;

    mc__buf_init(&b);
    int have_step = 0;
    uint64_t step_seq = 0;

    for (i = 0; i < r->n_tx; i++) {
        const mc_tx_line_t *t = &r->tx[i];
        size_t kept = t->len > MC_RESULT_MAX_TX_LINE ? MC_RESULT_MAX_TX_LINE : t->len;
        json_object *line, *facts = NULL;
        const char *dir = t->outbound ? "out" : "in";
        if (t->len > MC_MAX_MESSAGE_SIZE)
            kept = 0; /* an oversize frame: its bytes were skipped, not kept */
        if (kept > 0 && kept == t->len && is_http_note(t)) {
            const mc_tx_line_t *next = i + 1 < r->n_tx ? &r->tx[i + 1] : NULL;
            if (t->len > 12 && memcmp(t->line, "(http step", 10) == 0) {
                have_step = 1; /* an exchange outside the session, with its bodies */
                step_seq = t->seq;
            } else if (!t->outbound && next != NULL && !next->outbound && next->seq == t->seq &&
                       !(next->len > 0 && next->line[0] == '(')) {
                facts = mc_report_http_facts(t->line + 7, t->len - 8);
                if (facts != NULL) {
                    /* The facts go beside the message that follows them. */
                    t = next;
                    i++;
                    kept = t->len > MC_RESULT_MAX_TX_LINE ? MC_RESULT_MAX_TX_LINE : t->len;
                    if (t->len > MC_MAX_MESSAGE_SIZE)
                        kept = 0;
                    dir = "in";
                }
            }
            if (facts == NULL)
                dir = "note";
        } else if (have_step && t->seq == step_seq) {
            dir = "note";
        }
        line = mc__json_strn(t->line, kept);
        mc__buf_printf(&b, "{\"seq\": %llu, \"t_ms\": %lld, \"dir\": \"%s\", \"line\": %s",
                       (unsigned long long)t->seq, (long long)t->t_ms, dir,
                       json_object_to_json_string_ext(line, JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(line);
        if (facts != NULL) {
            mc__buf_printf(&b, ", \"http\": %s",
                           json_object_to_json_string_ext(facts, JSON_C_TO_STRING_PLAIN |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE));
            json_object_put(facts);
        }
        if (t->len > kept)
            mc__buf_printf(&b, ", \"truncated_from\": %zu", t->len);
        if (!mc__utf8_valid(t->line, kept)) {
            mc__buf_puts(&b, ", \"raw_b64\": \"");
            mc__buf_base64(&b, (const unsigned char *)t->line, kept);
            mc__buf_puts(&b, "\"");
        }
        mc__buf_puts(&b, "}\n");
    }
    if (b.err != MC_OK) {
        int e = b.err;
        mc__buf_free(&b);
        return e;
    }
    if (b.p == NULL) {
        b.p = calloc(1, 1);
        if (b.p == NULL)
            return MC_ENOMEM;
    }
    *out = b.p;
    *len = b.len;
    return MC_OK;
}

/* Removes a traces folder this writer made: its *.jsonl files, then itself. */
static void remove_traces(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4400];

    if (d == NULL)
        return;
    for (e = readdir(d); e != NULL; e = readdir(d)) {
        size_t n = strlen(e->d_name);
        if (n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0 &&
            mc__path_join(path, sizeof(path), dir, e->d_name))
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* True when name was given to an earlier scenario of this run. */
static int name_taken(char (*names)[300], size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

int mc__write_traces(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb)
{
    char tmp[4200], final[4200], old[4200], path[4600];
    char(*names)[300];
    size_t i;
    int rc = MC_OK;
    struct stat st;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s/%s.tmp.%ld", dir, MC_REPORT_TRACES,
                         (long)getpid()) >= sizeof(tmp) ||
        (size_t)snprintf(old, sizeof(old), "%s/%s.old.%ld", dir, MC_REPORT_TRACES,
                         (long)getpid()) >= sizeof(old) ||
        !mc__path_join(final, sizeof(final), dir, MC_REPORT_TRACES))
        return mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", dir);
    remove_traces(tmp);
    if (mkdir(tmp, 0777) != 0)
        return mc_errbuf_set(eb, MC_EIO, "cannot create %s: %s", tmp, strerror(errno));
    names = calloc(rep->run.n + 1, sizeof(*names));
    if (names == NULL) {
        remove_traces(tmp);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory writing traces");
    }
    for (i = 0; i < rep->run.n && rc == MC_OK; i++) {
        const mc_scenario_result_t *r = &rep->run.scenarios[i];
        char *data = NULL;
        size_t len = 0;
        int k;

        mc_report_trace_name(r, names[i], sizeof(names[i]) - 8);
        for (k = 2; name_taken(names, i, names[i]) && k < MAX_NAME_TRIES; k++) {
            /* The same scenario ran twice at one version (a counter-offer). */
            char base[300];
            size_t bl;
            mc_report_trace_name(r, base, sizeof(base) - 8);
            bl = strlen(base) - 6;
            snprintf(names[i], sizeof(names[i]), "%.*s-%d.jsonl", (int)bl, base, k);
        }
        rc = mc_report_trace(r, &data, &len);
        if (rc != MC_OK) {
            mc_errbuf_set(eb, rc, "cannot build the trace of %s: %s", r->id, mc_strerror(rc));
            break;
        }
        if (!mc__path_join(path, sizeof(path), tmp, names[i]))
            rc = mc_errbuf_set(eb, MC_EINVAL, "path too long: %s", tmp);
        else
            rc = mc_report_write_file(path, data, len, eb);
        free(data);
    }
    free(names);
    if (rc != MC_OK) {
        remove_traces(tmp);
        return rc;
    }
    /* Swap the folders: the old traces go only once the new ones are complete. */
    if (stat(final, &st) == 0) {
        remove_traces(old);
        if (rename(final, old) != 0) {
            int e = errno;
            remove_traces(tmp);
            return mc_errbuf_set(eb, MC_EIO, "cannot replace %s: %s", final, strerror(e));
        }
    }
    if (rename(tmp, final) != 0) {
        int e = errno;
        rename(old, final);
        remove_traces(tmp);
        return mc_errbuf_set(eb, MC_EIO, "cannot create %s: %s", final, strerror(e));
    }
    remove_traces(old);
    return MC_OK;
}
