/*
 * bench_validate.c - `mcpcheck-bench-validate`: throughput of json-c
 * parsing and of schema validation on fixed MCP messages. A benchmark,
 * never a test; scripts/bench.sh validate runs it next to Ajv.
 *
 * usage: mcpcheck-bench-validate [--schemas DIR] [--version V] [--seconds S]
 *        mcpcheck-bench-validate --emit DIR        write the messages (for Ajv)
 *        mcpcheck-bench-validate --jsonl FILE MB   write a JSONL trace of
 *                                                  resources/list results
 *
 * Output: one line per message and mode,
 *   RESULT <message> <mode> <messages/s> <MB/s>
 * with modes parse (as `mcpcheck validate` parses a line: core/jsonfast, and
 * json-c's tokener for what that declines), validate (envelope + result or
 * notification definition on an already parsed message) and parse+validate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "core/error.h"
#include "core/jsonfast.h"
#include "core/limits.h"
#include "schema/registry.h"

typedef struct msg {
    const char *name;
    const char *answered; /* method answered, for results */
    char *text;
    size_t len;
} msg_t;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Appends formatted text to a growing buffer; exits on out of memory
 * (this is a program, not library code). */
static void app(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#include <stdarg.h>
static void app(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fprintf(stderr, "format error\n");
            exit(2);
        }
        if ((size_t)n < *cap - *len) {
            *len += (size_t)n;
            return;
        }
        *cap = (*cap + (size_t)n + 1) * 2;
        *buf = realloc(*buf, *cap);
        if (*buf == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
}

static char *start(size_t *len, size_t *cap)
{
    char *b;

    *cap = 4096;
    *len = 0;
    b = malloc(*cap);
    if (b == NULL)
        exit(2);
    b[0] = '\0';
    return b;
}

/* A resources/list result with n resources (id given). */
static char *list_result(long id, int n, size_t *out_len)
{
    size_t len, cap;
    char *b = start(&len, &cap);
    int i;

    app(&b, &len, &cap, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"result\":{\"resources\":[", id);
    for (i = 0; i < n; i++)
        app(&b, &len, &cap,
            "%s{\"uri\":\"file:///project/src/module_%03d/file_%03d.c\",\"name\":\"file_%03d.c\","
            "\"title\":\"Source file %d\",\"description\":\"C source of module %d, part of the "
            "build\",\"mimeType\":\"text/x-c\",\"size\":%d,\"annotations\":{\"audience\":"
            "[\"user\",\"assistant\"],\"priority\":0.%d,\"lastModified\":"
            "\"2025-06-18T12:%02d:00Z\"}}",
            i ? "," : "", i, i, i, i, i, 1000 + i * 37, i % 10, i % 60);
    app(&b, &len, &cap, "],\"nextCursor\":\"cursor-%ld\"}}", id);
    *out_len = len;
    return b;
}

static char *blob_result(size_t *out_len)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len, cap, i;
    char *b = start(&len, &cap);
    const size_t n = 16384; /* base64 characters */

    app(&b, &len, &cap,
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"contents\":[{\"uri\":"
        "\"test://static-binary\",\"mimeType\":\"image/png\",\"blob\":\"");
    if (cap - len < n + 64) {
        cap = len + n + 64;
        b = realloc(b, cap);
        if (b == NULL)
            exit(2);
    }
    for (i = 0; i < n; i++)
        b[len++] = b64[(i * 7 + i / 3) % 64];
    b[len] = '\0';
    app(&b, &len, &cap, "\"}]}}");
    *out_len = len;
    return b;
}

static char *prompt_result(size_t *out_len)
{
    size_t len, cap;
    char *b = start(&len, &cap);

    app(&b, &len, &cap,
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"description\":\"Code review prompt\","
        "\"messages\":["
        "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Please review this code "
        "and point out bugs, style problems and missing tests. Be specific.\"}},"
        "{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":"
        "\"file:///project/src/main.c\",\"mimeType\":\"text/x-c\",\"text\":\"int main(void) "
        "{ return 0; }\"}}},"
        "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"I will review "
        "it.\",\"annotations\":{\"audience\":[\"user\"],\"priority\":0.8}}},"
        "{\"role\":\"user\",\"content\":{\"type\":\"image\",\"data\":\"iVBORw0KGgoAAAANSUhEUgAA"
        "AAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\","
        "\"mimeType\":\"image/png\"}},"
        "{\"role\":\"user\",\"content\":{\"type\":\"resource_link\",\"uri\":"
        "\"file:///project/README.md\",\"name\":\"README.md\",\"mimeType\":"
        "\"text/markdown\"}}]}}");
    *out_len = len;
    return b;
}

static char *log_notification(size_t *out_len)
{
    size_t len, cap;
    char *b = start(&len, &cap);

    app(&b, &len, &cap,
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":"
        "\"warning\",\"logger\":\"database\",\"data\":{\"error\":\"Connection failed\","
        "\"details\":{\"host\":\"localhost\",\"port\":5432,\"attempt\":3}}}}");
    *out_len = len;
    return b;
}

typedef struct bench {
    mc_registry_t *reg;
    const char *version;
    json_tokener *tok;
    mc_json_keys_t keys; /* of the trees parse() builds in the timed loops */
    double seconds;
    mc_schema_report_t report;
} bench_t;

/* Parses a bench message with its keys in keys; returns a new reference
 * (caller puts it before keys is used again). Exits when the message does
 * not parse (a program, not library code). */
static json_object *parse(bench_t *b, const msg_t *m, mc_json_keys_t *keys)
{
    json_object *v = NULL;

    if (mc_json_fast_parse(m->text, m->len, MC_MAX_JSON_DEPTH, keys, &v) == MC_OK)
        return v;
    json_tokener_reset(b->tok);
    v = json_tokener_parse_ex(b->tok, m->text, (int)m->len);
    if (v == NULL || json_tokener_get_error(b->tok) != json_tokener_success) {
        fprintf(stderr, "bench message %s does not parse\n", m->name);
        exit(2);
    }
    return v;
}

static int validate(bench_t *b, const msg_t *m, json_object *v)
{
    mc_schema_report_clear(&b->report);
    return mc_registry_validate_message(b->reg, b->version, v, m->answered, &b->report, NULL);
}

static void report_line(const msg_t *m, const char *mode, double secs, long iters)
{
    double per_s = (double)iters / secs;

    printf("RESULT %s %s %.0f %.1f\n", m->name, mode, per_s,
           per_s * (double)m->len / (1024.0 * 1024.0));
    fflush(stdout);
}

static void run(bench_t *b, const msg_t *m)
{
    mc_json_keys_t held = {NULL, 0};
    json_object *v = parse(b, m, &held);
    double t0, t;
    long iters, i;
    int mode;

    if (validate(b, m, v) != MC_OK || b->report.n_entries != 0) {
        fprintf(stderr, "bench message %s is not valid: %s\n", m->name,
                b->report.n_entries ? b->report.entries[0].message : "load error");
        exit(2);
    }
    for (mode = 0; mode < 3; mode++) {
        iters = 0;
        t0 = now();
        do {
            for (i = 0; i < 64; i++) {
                if (mode == 0) {
                    json_object_put(parse(b, m, &b->keys));
                } else if (mode == 1) {
                    (void)validate(b, m, v);
                } else {
                    json_object *w = parse(b, m, &b->keys);
                    (void)validate(b, m, w);
                    json_object_put(w);
                }
            }
            iters += 64;
            t = now() - t0;
        } while (t < b->seconds);
        report_line(m, mode == 0 ? "parse" : mode == 1 ? "validate" : "parse+validate", t, iters);
    }
    json_object_put(v);
    mc_json_keys_free(&held);
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");

    if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return 2;
    }
    return 0;
}

static int write_jsonl(const char *path, double mb)
{
    FILE *f = fopen(path, "wb");
    size_t total = 0, want = (size_t)(mb * 1024 * 1024);
    long id = 1;

    if (f == NULL) {
        fprintf(stderr, "cannot write %s\n", path);
        return 2;
    }
    while (total < want) {
        size_t len;
        char *line = list_result(id++, 20, &len);
        fwrite(line, 1, len, f);
        fputc('\n', f);
        total += len + 1;
        free(line);
    }
    if (fclose(f) != 0)
        return 2;
    printf("wrote %s: %ld lines, %.1f MB\n", path, id - 1, (double)total / (1024.0 * 1024.0));
    return 0;
}

int main(int argc, char **argv)
{
    bench_t b;
    msg_t msgs[4] = {{"resources/list-20", "resources/list", NULL, 0},
                     {"resources/read-blob", "resources/read", NULL, 0},
                     {"prompts/get", "prompts/get", NULL, 0},
                     {"notifications/message", NULL, NULL, 0}};
    const char *dir = NULL, *emit = NULL;
    mc_errbuf_t eb;
    int i;

    memset(&b, 0, sizeof(b));
    b.version = MC_REGISTRY_DEFAULT_VERSION;
    b.seconds = 0.5;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--schemas") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--version") == 0 && i + 1 < argc)
            b.version = argv[++i];
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            b.seconds = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--emit") == 0 && i + 1 < argc)
            emit = argv[++i];
        else if (strcmp(argv[i], "--jsonl") == 0 && i + 2 < argc)
            return write_jsonl(argv[i + 1], strtod(argv[i + 2], NULL));
        else {
            fprintf(stderr,
                    "usage: %s [--schemas DIR] [--version V] [--seconds S] | --emit DIR | "
                    "--jsonl FILE MB\n",
                    argv[0]);
            return 2;
        }
    }
    msgs[0].text = list_result(1, 20, &msgs[0].len);
    msgs[1].text = blob_result(&msgs[1].len);
    msgs[2].text = prompt_result(&msgs[2].len);
    msgs[3].text = log_notification(&msgs[3].len);
    if (emit != NULL) {
        for (i = 0; i < 4; i++) {
            char path[1024], name[64];
            size_t k;
            snprintf(name, sizeof(name), "%s", msgs[i].name);
            for (k = 0; name[k] != '\0'; k++)
                if (name[k] == '/')
                    name[k] = '_';
            snprintf(path, sizeof(path), "%s/%s.json", emit, name);
            if (write_file(path, msgs[i].text, msgs[i].len) != 0)
                return 2;
        }
        return 0;
    }
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&b.reg, dir, MC_REGISTRY_BUNDLED, &eb) != MC_OK ||
        mc_registry_load(b.reg, b.version, &eb) != MC_OK) {
        fprintf(stderr, "cannot load the schemas: %s\n", eb.msg);
        return 2;
    }
    b.tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    json_tokener_set_flags(b.tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    for (i = 0; i < 4; i++)
        run(&b, &msgs[i]);
    for (i = 0; i < 4; i++)
        free(msgs[i].text);
    json_tokener_free(b.tok);
    mc_json_keys_free(&b.keys);
    mc_registry_free(b.reg);
    return 0;
}
