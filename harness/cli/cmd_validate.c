/*
 * cmd_validate.c - `mcpcheck validate`: check MCP messages and JSONL traces
 * against the MCP schemas (bundled or upstream) or any JSON Schema.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/commands.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "schema/registry.h"
#include "schema/validator.h"

/* Largest input file read (traces are read whole). */
#define MC_VALIDATE_MAX_INPUT (1024ull * 1024ull * 1024ull)
/* Requests remembered per file to pair responses with their method. */
#define MC_VALIDATE_MAX_PENDING 65536

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck validate [OPTIONS] FILE...\n"
            "\n"
            "Checks MCP messages against the MCP JSON schemas. Each FILE holds one JSON\n"
            "message (pretty-printed or not) or a JSONL trace, one message per line;\n"
            "'-' reads standard input.\n"
            "\n"
            "Without --def, each message is checked for what it is: the JSON-RPC envelope,\n"
            "then a request or notification by its method, a success response by the\n"
            "method of the request it answers (found by id earlier in the same file, or\n"
            "given with --result-of), an error response by the error shape. A response\n"
            "whose request is unknown gets its envelope checked and a warning saying so.\n"
            "\n"
            "Options:\n"
            "  --spec-version V   protocol version: 2024-11-05, 2025-03-26, 2025-06-18\n"
            "                     (default, the project baseline) or 2025-11-25\n"
            "  --def NAME         check every message against definition NAME instead\n"
            "                     (e.g. Tool, CallToolResult); a *Result definition given\n"
            "                     a JSON-RPC response checks its \"result\" member\n"
            "  --schema-dir DIR   use the official schemas DIR/<version>/schema.json\n"
            "                     (the upstream spec repository layout) instead of the\n"
            "                     bundled harness/schemas/<version>.json\n"
            "  --schema FILE      check against the root of any JSON Schema document\n"
            "                     (draft-07 or 2020-12); with --def, against its\n"
            "                     definition NAME\n"
            "  --result-of METHOD responses whose request is not in the file answer METHOD\n"
            "  --quiet            print only the summary line\n"
            "  -h, --help         this text\n"
            "\n"
            "Examples:\n"
            "  mcpcheck validate trace.jsonl\n"
            "  mcpcheck validate --spec-version 2025-11-25 request.json\n"
            "  mcpcheck validate --def Tool tool.json\n"
            "  mcpcheck validate --result-of resources/list responses.jsonl\n"
            "  mcpcheck validate --schema-dir ../spec/schema --spec-version 2025-06-18 msg.json\n"
            "  mcpcheck validate --schema my-schema.json data.json\n"
            "\n"
            "Output: one line per finding, FILE:LINE: error|warning: LOCATION: MESSAGE\n"
            "[schema location], then a summary.\n"
            "Exit codes: 0 every message valid (warnings allowed), 1 some message invalid\n"
            "or not JSON, 2 usage error, unreadable file or schema that does not load.\n");
}

typedef struct opts {
    const char *version;
    const char *def;
    const char *schema_dir;
    const char *schema_file;
    const char *result_of;
    int quiet;
} opts_t;

typedef struct pending {
    char *key;    /* "s:<id>" or "i:<id>"; NULL = empty slot */
    char *method;
} pending_t;

typedef struct run {
    const opts_t *o;
    mc_registry_t *reg;     /* MCP mode */
    mc_schema_t *schema;    /* --schema mode */
    const mc_schema_node_t *node; /* --schema mode target */
    int def_is_result;      /* --def names a *Result definition */
    pending_t *pending;     /* open addressing, MC_VALIDATE_MAX_PENDING * 2 slots */
    size_t n_pending;
    int pending_full_warned;
    mc_schema_report_t report;
    size_t messages, invalid, warnings;
} run_t;

/* ---- request/response pairing -------------------------------------------- */

static int id_key(json_object *id, char *out, size_t cap)
{
    int n;

    if (json_object_is_type(id, json_type_string))
        n = snprintf(out, cap, "s:%s", json_object_get_string(id));
    else if (json_object_is_type(id, json_type_int))
        n = snprintf(out, cap, "i:%s", json_object_to_json_string(id));
    else
        return 0;
    return n > 0 && (size_t)n < cap;
}

static size_t slot_of(const char *key)
{
    uint32_t h = 2166136261u;

    for (; *key != '\0'; key++) {
        h ^= (unsigned char)*key;
        h *= 16777619u;
    }
    return h & (2 * MC_VALIDATE_MAX_PENDING - 1);
}

static void pending_add(run_t *r, json_object *id, const char *method)
{
    char key[512];
    size_t i;

    if (!id_key(id, key, sizeof(key)))
        return;
    if (r->pending == NULL) {
        r->pending = calloc(2 * MC_VALIDATE_MAX_PENDING, sizeof(*r->pending));
        if (r->pending == NULL)
            return;
    }
    for (i = slot_of(key); r->pending[i].key != NULL;
         i = (i + 1) & (2 * MC_VALIDATE_MAX_PENDING - 1)) {
        if (strcmp(r->pending[i].key, key) == 0) {
            char *m = strdup(method);
            if (m != NULL) {
                free(r->pending[i].method);
                r->pending[i].method = m;
            }
            return;
        }
    }
    if (r->n_pending >= MC_VALIDATE_MAX_PENDING) {
        if (!r->pending_full_warned)
            fprintf(stderr,
                    "mcpcheck validate: more than %d unanswered requests; later ones are not "
                    "paired with their responses\n",
                    MC_VALIDATE_MAX_PENDING);
        r->pending_full_warned = 1;
        return;
    }
    r->pending[i].key = strdup(key);
    r->pending[i].method = strdup(method);
    if (r->pending[i].key == NULL || r->pending[i].method == NULL) {
        free(r->pending[i].key);
        free(r->pending[i].method);
        r->pending[i].key = r->pending[i].method = NULL;
        return;
    }
    r->n_pending++;
}

/* Removes the request with this id; returns its method (caller frees) or NULL. */
static char *pending_take(run_t *r, json_object *id)
{
    char key[512];
    size_t i, mask = 2 * MC_VALIDATE_MAX_PENDING - 1;

    if (r->pending == NULL || !id_key(id, key, sizeof(key)))
        return NULL;
    for (i = slot_of(key); r->pending[i].key != NULL; i = (i + 1) & mask) {
        if (strcmp(r->pending[i].key, key) == 0) {
            char *m = r->pending[i].method;
            size_t j = i;
            free(r->pending[i].key);
            r->pending[i].key = NULL;
            r->pending[i].method = NULL;
            r->n_pending--;
            /* Re-insert the rest of the cluster (linear probing deletion). */
            for (j = (i + 1) & mask; r->pending[j].key != NULL; j = (j + 1) & mask) {
                pending_t e = r->pending[j];
                size_t k;
                r->pending[j].key = NULL;
                r->pending[j].method = NULL;
                for (k = slot_of(e.key); r->pending[k].key != NULL; k = (k + 1) & mask)
                    ;
                r->pending[k] = e;
            }
            return m;
        }
    }
    return NULL;
}

static void pending_clear(run_t *r)
{
    size_t i;

    if (r->pending == NULL)
        return;
    for (i = 0; i < 2 * MC_VALIDATE_MAX_PENDING; i++) {
        free(r->pending[i].key);
        free(r->pending[i].method);
    }
    free(r->pending);
    r->pending = NULL;
    r->n_pending = 0;
}

/* ---- one message ------------------------------------------------------------ */

static void print_report(run_t *r, const char *file, size_t line)
{
    size_t i;

    if (r->o->quiet)
        return;
    for (i = 0; i < r->report.n_entries; i++) {
        const mc_schema_error_t *e = &r->report.entries[i];
        printf("%s:%zu: %s: %s", file, line, e->severity == MC_SCHEMA_ERROR ? "error" : "warning",
               e->message);
        if (e->schema_path[0] != '\0')
            printf(" [%s]", e->schema_path);
        putchar('\n');
    }
    if (r->report.truncated)
        printf("%s:%zu: note: %zu more findings not shown\n", file, line,
               r->report.n_errors + r->report.n_warnings - r->report.n_entries);
}

/* Validates one parsed value. Returns 0 on success, 2 when the schema
 * cannot be loaded (fatal). */
static int check_value(run_t *r, json_object *v, const char *file, size_t line)
{
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&r->report);
    r->messages++;
    if (r->schema != NULL) {
        rc = mc_schema_validate(r->schema, r->node, v, NULL, &r->report);
    } else if (r->o->def != NULL) {
        json_object *res = NULL;
        if (r->def_is_result && json_object_is_type(v, json_type_object) &&
            json_object_object_get_ex(v, "jsonrpc", NULL) &&
            json_object_object_get_ex(v, "result", &res)) {
            const mc_schema_t *s = mc_registry_schema(r->reg, r->o->version);
            rc = mc_schema_validate(s, mc_schema_definition(s, r->o->def), res, "/result",
                                    &r->report);
        } else {
            rc = mc_registry_validate_def(r->reg, r->o->version, r->o->def, v, &r->report, &eb);
        }
    } else {
        json_object *method, *id;
        char *answered = NULL;
        const char *answers = NULL;
        int is_response = json_object_is_type(v, json_type_object) &&
                          !json_object_object_get_ex(v, "method", NULL) &&
                          (json_object_object_get_ex(v, "result", NULL) ||
                           json_object_object_get_ex(v, "error", NULL));

        if (is_response && json_object_object_get_ex(v, "id", &id)) {
            answered = pending_take(r, id);
            answers = answered != NULL ? answered : r->o->result_of;
        }
        rc = mc_registry_validate_message(r->reg, r->o->version, v, answers, &r->report, &eb);
        free(answered);
        if (json_object_is_type(v, json_type_object) &&
            json_object_object_get_ex(v, "method", &method) &&
            json_object_is_type(method, json_type_string) &&
            json_object_object_get_ex(v, "id", &id))
            pending_add(r, id, json_object_get_string(method));
    }
    if (rc != MC_OK && rc != MC_EINVALID && eb.set) {
        fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
        return 2;
    }
    if (!r->report.valid)
        r->invalid++;
    r->warnings += r->report.n_warnings;
    print_report(r, file, line);
    return 0;
}

/* ---- files ------------------------------------------------------------------ */

static int read_all(const char *path, char **out, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    if (f == NULL) {
        fprintf(stderr, "mcpcheck validate: cannot open %s: %s\n", path, strerror(errno));
        return 2;
    }
    for (;;) {
        size_t got;
        if (cap - n < 65536) {
            size_t ncap = cap == 0 ? 1u << 20 : cap * 2;
            char *nb;
            if (ncap > MC_VALIDATE_MAX_INPUT + 65536)
                ncap = MC_VALIDATE_MAX_INPUT + 65536;
            if (ncap <= cap) {
                fprintf(stderr, "mcpcheck validate: %s is larger than %llu bytes\n", path,
                        (unsigned long long)MC_VALIDATE_MAX_INPUT);
                free(buf);
                if (f != stdin)
                    fclose(f);
                return 2;
            }
            nb = realloc(buf, ncap + 1);
            if (nb == NULL) {
                fprintf(stderr, "mcpcheck validate: out of memory reading %s\n", path);
                free(buf);
                if (f != stdin)
                    fclose(f);
                return 2;
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "mcpcheck validate: cannot read %s\n", path);
        free(buf);
        if (f != stdin)
            fclose(f);
        return 2;
    }
    if (f != stdin)
        fclose(f);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

static int blank(const char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
            return 0;
    return 1;
}

static void bad_json(run_t *r, const char *file, size_t line, const char *why)
{
    r->messages++;
    r->invalid++;
    if (!r->o->quiet)
        printf("%s:%zu: error: not a JSON message: %s\n", file, line, why);
}

static int check_file(run_t *r, const char *file)
{
    char *buf = NULL;
    size_t len = 0, off = 0, line = 0;
    json_tokener *tok;
    json_object *v = NULL;
    int rc;

    rc = read_all(file, &buf, &len);
    if (rc != 0)
        return rc;
    pending_clear(r);

    /* One message spread over several lines (pretty-printed)? */
    if (len <= MC_MAX_MESSAGE_SIZE && memchr(buf, '\n', len) != NULL) {
        const char *nl = memchr(buf, '\n', len);
        if (!blank(nl, len - (size_t)(nl - buf)) &&
            mc_json_parse(buf, len, MC_MAX_JSON_DEPTH, &v, NULL) == MC_OK) {
            rc = check_value(r, v, file, 1);
            json_object_put(v);
            free(buf);
            return rc;
        }
    }
    tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (tok == NULL) {
        free(buf);
        fprintf(stderr, "mcpcheck validate: out of memory\n");
        return 2;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    while (off < len && rc == 0) {
        const char *p = buf + off;
        const char *nl = memchr(p, '\n', len - off);
        size_t n = nl != NULL ? (size_t)(nl - p) : len - off;
        enum json_tokener_error jerr;
        size_t end;

        off += n + (nl != NULL ? 1 : 0);
        line++;
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (blank(p, n))
            continue;
        if (n > MC_MAX_MESSAGE_SIZE) {
            bad_json(r, file, line, "line exceeds the message size limit");
            continue;
        }
        if (memchr(p, '\0', n) != NULL) {
            bad_json(r, file, line, "NUL byte in the line");
            continue;
        }
        json_tokener_reset(tok);
        v = json_tokener_parse_ex(tok, p, (int)n);
        jerr = json_tokener_get_error(tok);
        if (v == NULL && jerr == json_tokener_continue) {
            bad_json(r, file, line, "truncated JSON: the line ends inside a value");
            continue;
        }
        if (jerr != json_tokener_success) {
            char why[160];
            snprintf(why, sizeof(why), "%s at column %zu", json_tokener_error_desc(jerr),
                     json_tokener_get_parse_end(tok) + 1);
            json_object_put(v);
            bad_json(r, file, line, why);
            continue;
        }
        end = json_tokener_get_parse_end(tok);
        if (!blank(p + end, n - end)) {
            char why[96];
            snprintf(why, sizeof(why), "unexpected data after the JSON value at column %zu",
                     end + 1);
            json_object_put(v);
            bad_json(r, file, line, why);
            continue;
        }
        rc = check_value(r, v, file, line);
        json_object_put(v);
    }
    json_tokener_free(tok);
    free(buf);
    pending_clear(r);
    return rc;
}

/* ---- options ------------------------------------------------------------------ */

/* Matches --name VALUE or --name=VALUE; advances *i. Returns 1 on a match,
 * -1 when the value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **out)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *out = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *out = argv[++*i];
    return 1;
}

static int load_schema_file(run_t *r, const char *path)
{
    char *buf = NULL;
    size_t len = 0;
    json_object *doc = NULL;
    mc_errbuf_t eb;
    int rc;

    if (read_all(path, &buf, &len) != 0)
        return 2;
    mc_errbuf_clear(&eb);
    rc = mc_json_parse(buf, len, 512, &doc, &eb);
    free(buf);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s: %s\n", path, eb.msg);
        return 2;
    }
    mc_errbuf_clear(&eb);
    rc = mc_schema_compile(doc, NULL, &r->schema, &eb);
    json_object_put(doc);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s: %s\n", path, eb.msg);
        return 2;
    }
    r->node = r->o->def != NULL ? mc_schema_definition(r->schema, r->o->def)
                                : mc_schema_root(r->schema);
    if (r->node == NULL) {
        fprintf(stderr, "mcpcheck validate: %s has no definition \"%s\"\n", path, r->o->def);
        return 2;
    }
    return 0;
}

int mc_cmd_validate(int argc, char **argv)
{
    opts_t o = {MC_REGISTRY_DEFAULT_VERSION, NULL, NULL, NULL, NULL, 0};
    run_t *r;
    int i, first_file = argc, rc = 0, m;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            first_file = i + 1;
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return MC_EXIT_OK;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o.quiet = 1;
            continue;
        }
        {
            static const char *const names[] = {"--spec-version", "--def", "--schema-dir",
                                                "--schema", "--result-of"};
            const char **slots[] = {&o.version, &o.def, &o.schema_dir, &o.schema_file,
                                    &o.result_of};
            size_t k;
            m = 0;
            for (k = 0; k < sizeof(names) / sizeof(names[0]) && m == 0; k++)
                m = opt_value(argc, argv, &i, names[k], slots[k]);
        }
        if (m == 0) {
            if (a[0] == '-' && a[1] != '\0') {
                fprintf(stderr, "mcpcheck validate: unknown option '%s' (see --help)\n", a);
                return MC_EXIT_USAGE;
            }
            first_file = i;
            break;
        }
        if (m < 0) {
            fprintf(stderr, "mcpcheck validate: option '%s' needs a value\n", a);
            return MC_EXIT_USAGE;
        }
    }
    if (first_file >= argc) {
        fprintf(stderr, "mcpcheck validate: no FILE given (see --help)\n");
        return MC_EXIT_USAGE;
    }
    if (o.schema_file != NULL && o.schema_dir != NULL) {
        fprintf(stderr, "mcpcheck validate: --schema and --schema-dir exclude each other\n");
        return MC_EXIT_USAGE;
    }

    r = calloc(1, sizeof(*r));
    if (r == NULL) {
        fprintf(stderr, "mcpcheck validate: out of memory\n");
        return MC_EXIT_USAGE;
    }
    r->o = &o;
    if (o.schema_file != NULL) {
        rc = load_schema_file(r, o.schema_file);
    } else {
        mc_errbuf_t eb;
        mc_errbuf_clear(&eb);
        if (mc_registry_new(&r->reg, o.schema_dir,
                            o.schema_dir != NULL ? MC_REGISTRY_UPSTREAM : MC_REGISTRY_BUNDLED,
                            &eb) != MC_OK ||
            mc_registry_load(r->reg, o.version, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
            rc = 2;
        } else if (o.def != NULL &&
                   mc_schema_definition(mc_registry_schema(r->reg, o.version), o.def) == NULL) {
            fprintf(stderr, "mcpcheck validate: schema %s has no definition \"%s\"\n", o.version,
                    o.def);
            rc = 2;
        } else if (o.def != NULL) {
            size_t n = strlen(o.def);
            r->def_is_result = n > 6 && strcmp(o.def + n - 6, "Result") == 0;
        }
    }
    for (i = first_file; i < argc && rc == 0; i++)
        rc = check_file(r, argv[i]);
    if (rc == 0)
        printf("%zu message%s: %zu valid, %zu invalid, %zu warning%s (schema %s%s%s)\n",
               r->messages, r->messages == 1 ? "" : "s", r->messages - r->invalid, r->invalid,
               r->warnings, r->warnings == 1 ? "" : "s",
               o.schema_file != NULL ? o.schema_file : o.version,
               o.schema_file == NULL ? (o.schema_dir != NULL ? ", from " : ", bundled") : "",
               o.schema_file == NULL && o.schema_dir != NULL ? o.schema_dir : "");
    pending_clear(r);
    mc_registry_free(r->reg);
    mc_schema_free(r->schema);
    if (rc == 0)
        rc = r->invalid > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    else
        rc = MC_EXIT_USAGE;
    free(r);
    return rc;
}
