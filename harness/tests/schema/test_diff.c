/*
 * test_diff.c - differential test: the bundled MCP schemas against the
 * official ones.
 *
 * usage: test_schema_diff BUNDLED_DIR OFFICIAL_DIR [--examples VERSION DIR]
 *        [--traces VERSION DIR]... [VERSION...]
 *
 * Every base message below must be valid with both schema sets. Then each
 * base message is mutated one change at a time — every member dropped,
 * every value replaced by a value of another type, every string replaced by
 * a bogus word, by a string with a space and a brace and by an https URL
 * (bad enum, const and format values, other URI schemes), every number replaced by -1, 1.5 and 1e300 (out of range,
 * not an integer), every object given an unknown member, every array
 * emptied and given an extra {} item — and the verdicts (valid or invalid)
 * of the two schema sets must agree. Both sides apply the registry's
 * documented leniencies, so those agree by construction. A message the
 * bundled schema rejects only at nodes marked with a "$comment" starting
 * "mcpcheck-deliberate:" (the documented tightenings of
 * harness/schemas/README.md) is counted apart and printed, not failed. Any
 * other difference is printed with the message, the change, and each
 * side's first finding, and fails the test.
 * With --examples VERSION DIR, the official example messages (DIR/<Definition>/
 * <name>.json) are bases too, each against its definition. With --traces
 * VERSION DIR, every message of the JSONL traces in DIR (as `mcpcheck run`
 * writes them) is validated with both sets and the verdicts must agree.
 * Without a VERSION and with neither option, every published version runs.
 * Exit 0 when all agree, 1 otherwise, also when OFFICIAL_DIR or DIR is
 * absent (the spec is expected at ../shared/spec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "core/version.h"
#include "schema/registry.h"
#include "test_diff.h"

typedef struct ctx {
    mc_registry_t *bundled, *official;
    const char *version;
    const base_t *base;
    const char *def; /* examples: validate against this definition */
    json_object *root;
    int compared, differ, deliberate;
    mc_schema_report_t rb, ro;
} ctx_t;

static int version_in(const char *v, const base_t *b)
{
    return mc_version_cmp(v, b->since) >= 0 && (b->until == NULL || mc_version_cmp(v, b->until) <= 0);
}

static const char *first_finding(const mc_schema_report_t *r)
{
    size_t i;

    for (i = 0; i < r->n_entries; i++)
        if (r->entries[i].severity == MC_SCHEMA_ERROR)
            return r->entries[i].message;
    return "(no error)";
}

/*
 * True when the schema node at a finding's schema location (the keyword's
 * parent) carries a "$comment" starting with "mcpcheck-deliberate:", the
 * marker harness/schemas/README.md puts on each deliberate tightening.
 */
static int deliberate_at(json_object *doc, const char *schema_path)
{
    char tok[256];
    const char *p = schema_path;
    json_object *node = doc, *last = NULL, *comment;

    if (p[0] != '#')
        return 0;
    p++;
    while (*p == '/') {
        size_t o = 0;
        p++;
        while (*p != '\0' && *p != '/' && o + 1 < sizeof(tok)) {
            char ch = *p++;
            if (ch == '~' && (*p == '0' || *p == '1'))
                ch = *p++ == '0' ? '~' : '/';
            tok[o++] = ch;
        }
        tok[o] = '\0';
        last = node;
        if (json_object_is_type(node, json_type_object)) {
            if (!json_object_object_get_ex(node, tok, &node))
                return 0;
        } else if (json_object_is_type(node, json_type_array)) {
            node = json_object_array_get_idx(node, (size_t)strtoul(tok, NULL, 10));
        } else {
            return 0;
        }
    }
    /* The path ends in a keyword: its parent is the schema node. */
    return last != NULL && json_object_object_get_ex(last, "$comment", &comment) &&
           strncmp(json_object_get_string(comment), "mcpcheck-deliberate:", 20) == 0;
}

/* True when every error of the report is at a deliberate tightening. */
static int all_deliberate(const ctx_t *c, const mc_schema_report_t *r)
{
    json_object *doc = mc_schema_document(mc_registry_schema(c->bundled, c->version));
    size_t i, errors = 0;

    for (i = 0; i < r->n_entries; i++) {
        if (r->entries[i].severity != MC_SCHEMA_ERROR)
            continue;
        errors++;
        if (!deliberate_at(doc, r->entries[i].schema_path))
            return 0;
    }
    return errors > 0 && !r->truncated;
}

/* Validates c->root with both sets (as a message, or against c->def);
 * returns the bundled verdict and sets *official. */
static int validate_both(ctx_t *c, int *official, mc_errbuf_t *eb)
{
    int vb;

    if (c->def != NULL) {
        vb = mc_registry_validate_def(c->bundled, c->version, c->def, c->root, &c->rb, eb) == MC_OK;
        *official =
            mc_registry_validate_def(c->official, c->version, c->def, c->root, &c->ro, eb) == MC_OK;
        return vb;
    }
    vb = mc_registry_validate_message(c->bundled, c->version, c->root, c->base->answered, &c->rb,
                                      eb) == MC_OK;
    *official = mc_registry_validate_message(c->official, c->version, c->root, c->base->answered,
                                             &c->ro, eb) == MC_OK;
    return vb;
}

/* Validates the current state of the message with both sets and compares. */
static void compare(ctx_t *c, const char *what)
{
    mc_errbuf_t eb;
    int vb, vo, vb_dummy;

    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&c->rb);
    mc_schema_report_clear(&c->ro);
    vb = validate_both(c, &vb_dummy, &eb);
    vo = vb_dummy;
    c->compared++;
    if (vb == vo)
        return;
    if (!vb && vo && all_deliberate(c, &c->rb)) {
        c->deliberate++;
        printf("deliberate %s %s: %s\n  bundled:  %s\n", c->version, c->base->name, what,
               first_finding(&c->rb));
        return;
    }
    c->differ++;
    printf("DIFF %s %s: %s\n  message:  %s\n  bundled:  %s%s%s\n  official: %s%s%s\n", c->version,
           c->base->name, what, json_object_to_json_string_ext(c->root, JSON_C_TO_STRING_PLAIN),
           vb ? "valid" : "invalid", vb ? "" : " - ", vb ? "" : first_finding(&c->rb),
           vo ? "valid" : "invalid", vo ? "" : " - ", vo ? "" : first_finding(&c->ro));
}

/* Fills out[] with replacement values for a value of v's type: new
 * references the caller owns (NULL stands for JSON null). Returns the count. */
static size_t replacements(json_object *v, json_object **out)
{
    size_t n = 0;
    enum json_type t = json_object_get_type(v);

    if (t != json_type_string)
        out[n++] = json_object_new_string("x");
    if (t != json_type_int && t != json_type_double)
        out[n++] = json_object_new_int(42);
    if (t != json_type_object)
        out[n++] = json_object_new_object();
    if (t != json_type_array)
        out[n++] = json_object_new_array();
    if (t != json_type_boolean)
        out[n++] = json_object_new_boolean(1);
    if (t != json_type_null)
        out[n++] = NULL;
    if (t == json_type_string) {
        out[n++] = json_object_new_string("__bogus__");
        out[n++] = json_object_new_string("a b{");
        out[n++] = json_object_new_string("https://example.com/x");
    }
    if (t == json_type_int || t == json_type_double) {
        out[n++] = json_object_new_int(-1);
        out[n++] = json_object_new_double(1.5);
        out[n++] = json_object_new_double(1e300);
    }
    return n;
}

static void walk(ctx_t *c, json_object *node, char *path, size_t plen);

static void mutate_member(ctx_t *c, json_object *obj, const char *key, char *path, size_t plen)
{
    json_object *old = NULL, *reps[16];
    char what[1400];
    size_t n, i;

    json_object_object_get_ex(obj, key, &old);
    json_object_get(old);
    snprintf(what, sizeof(what), "drop %s/%s", path, key);
    json_object_object_del(obj, key);
    compare(c, what);
    json_object_object_add(obj, key, json_object_get(old));

    n = replacements(old, reps);
    for (i = 0; i < n; i++) {
        snprintf(what, sizeof(what), "set %s/%s = %s", path, key,
                 json_object_to_json_string_ext(reps[i], JSON_C_TO_STRING_PLAIN));
        json_object_object_add(obj, key, reps[i]);
        compare(c, what);
    }
    json_object_object_add(obj, key, json_object_get(old));
    {
        size_t klen = strlen(key);
        if (plen + klen + 2 < 1024) {
            path[plen] = '/';
            memcpy(path + plen + 1, key, klen + 1);
            walk(c, old, path, plen + 1 + klen);
            path[plen] = '\0';
        }
    }
    json_object_put(old);
}

static void walk(ctx_t *c, json_object *node, char *path, size_t plen)
{
    char what[1400];

    if (json_object_is_type(node, json_type_object)) {
        char *keys[256];
        size_t n = 0, i;
        struct lh_entry *e;
        for (e = json_object_get_object(node)->head; e != NULL && n < 256; e = e->next)
            keys[n++] = strdup((const char *)lh_entry_k(e));
        for (i = 0; i < n; i++) {
            mutate_member(c, node, keys[i], path, plen);
            free(keys[i]);
        }
        snprintf(what, sizeof(what), "add unknown member %s/zzUnknown", path);
        json_object_object_add(node, "zzUnknown", json_object_new_int(1));
        compare(c, what);
        json_object_object_del(node, "zzUnknown");
    } else if (json_object_is_type(node, json_type_array)) {
        size_t n = json_object_array_length(node), i;
        json_object *saved[256];
        for (i = 0; i < n && i < 256; i++)
            saved[i] = json_object_get(json_object_array_get_idx(node, i));
        snprintf(what, sizeof(what), "empty array %s", path);
        json_object_array_del_idx(node, 0, n);
        compare(c, what);
        for (i = 0; i < n && i < 256; i++)
            json_object_array_add(node, json_object_get(saved[i]));
        snprintf(what, sizeof(what), "append {} to %s", path);
        json_object_array_add(node, json_object_new_object());
        compare(c, what);
        json_object_array_del_idx(node, n, 1);
        for (i = 0; i < n && i < 256; i++) {
            char ip[1100];
            int len = snprintf(ip, sizeof(ip), "%s/%zu", path, i);
            if (len > 0 && (size_t)len < 1024) {
                memcpy(path, ip, (size_t)len + 1);
                walk(c, saved[i], path, (size_t)len);
                path[plen] = '\0';
            }
            json_object_put(saved[i]);
        }
    }
}

/* Checks one base message (it must be valid on both sides), then every
 * one-change mutation of it. Returns 1 when the base itself was bad. */
static int run_base(ctx_t *c, const base_t *b, const char *label)
{
    char path[1024] = "";
    int before_cmp = c->compared, before_diff = c->differ;
    int ok_b, ok_o, bad = 0;
    mc_errbuf_t eb;

    c->base = b;
    if (c->root == NULL) {
        printf("FAIL %s: base message does not parse\n", label);
        return 1;
    }
    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&c->rb);
    mc_schema_report_clear(&c->ro);
    ok_b = validate_both(c, &ok_o, &eb);
    if (!ok_b || !ok_o) {
        printf("FAIL %s %s: base message invalid: bundled %s, official %s\n", c->version, label,
               ok_b ? "valid" : first_finding(&c->rb), ok_o ? "valid" : first_finding(&c->ro));
        bad = 1;
    }
    walk(c, c->root, path, 0);
    printf("%s %-40s %4d mutations, %d differ\n", c->version, label, c->compared - before_cmp,
           c->differ - before_diff);
    return bad;
}

/* Reads a whole small file into a new buffer (NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;

    if (f == NULL)
        return NULL;
    buf = malloc(1u << 20);
    if (buf == NULL) {
        fclose(f);
        return NULL;
    }
    n = fread(buf, 1, (1u << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names in dir (no dot files), sorted; *n gets the count. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t cap = 0;

    *n = 0;
    if (d == NULL)
        return NULL;
    for (e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **nv;
            cap = cap == 0 ? 64 : cap * 2;
            nv = realloc(v, cap * sizeof(*nv));
            if (nv == NULL)
                break;
            v = nv;
        }
        v[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (v != NULL)
        qsort(v, *n, sizeof(*v), cmp_str);
    return v;
}

/*
 * The official example messages, EXAMPLES/<Definition>/<name>.json: each
 * must be valid against its definition on both sides, and so must agree
 * every one-change mutation. Returns the number of bad examples; *count
 * gets how many were read.
 */
static int run_examples(ctx_t *c, const char *dir, size_t *count)
{
    size_t n_defs, i, j, n_files;
    char **defs = list_dir(dir, &n_defs), **files;
    int bad = 0;

    *count = 0;
    for (i = 0; i < n_defs; i++) {
        char sub[2048];
        snprintf(sub, sizeof(sub), "%s/%s", dir, defs[i]);
        files = list_dir(sub, &n_files);
        for (j = 0; j < n_files; j++) {
            char file[4096], label[512];
            char *text;
            base_t b = {NULL, NULL, NULL, NULL, NULL};
            snprintf(file, sizeof(file), "%s/%s", sub, files[j]);
            snprintf(label, sizeof(label), "%s/%s", defs[i], files[j]);
            text = slurp(file);
            c->root = text != NULL ? json_tokener_parse(text) : NULL;
            free(text);
            c->def = defs[i];
            b.name = label;
            if (mc_schema_definition(mc_registry_schema(c->official, c->version), defs[i]) == NULL) {
                printf("FAIL %s: the official schema has no definition %s\n", label, defs[i]);
                bad++;
            } else {
                bad += run_base(c, &b, label);
            }
            (*count)++;
            json_object_put(c->root);
            c->root = NULL;
            c->def = NULL;
            free(files[j]);
        }
        free(files);
        free(defs[i]);
    }
    free(defs);
    return bad;
}

/* One recorded request per id, to pair responses with their method. */
#define TRACE_PENDING 4096

/*
 * Every message of the traces in dir (the JSONL files `mcpcheck run` writes:
 * one record a line with the message text in "line") is validated with
 * both schema sets; the verdicts must agree. Responses are paired with the
 * request of the same id earlier in the same file. Returns the number of
 * messages; disagreements count in c->differ.
 */
static int run_traces(ctx_t *c, const char *dir)
{
    size_t n_files, i;
    char **files = list_dir(dir, &n_files);
    int messages = 0;

    for (i = 0; i < n_files; i++) {
        char path[4096], *text, *line, *next;
        char *ids[TRACE_PENDING] = {0}, *methods[TRACE_PENDING] = {0};
        size_t n_pending = 0, k;
        base_t b = {NULL, NULL, NULL, NULL, NULL};
        size_t len = strlen(files[i]);
        if (len < 7 || strcmp(files[i] + len - 6, ".jsonl") != 0) {
            free(files[i]);
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        text = slurp(path);
        for (line = text; line != NULL && *line != '\0'; line = next) {
            json_object *rec, *msg_line, *method, *id;
            next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            rec = json_tokener_parse(line);
            if (rec == NULL || !json_object_object_get_ex(rec, "line", &msg_line) ||
                !json_object_is_type(msg_line, json_type_string)) {
                json_object_put(rec);
                continue;
            }
            c->root = json_tokener_parse(json_object_get_string(msg_line));
            if (c->root == NULL || !json_object_is_type(c->root, json_type_object)) {
                json_object_put(c->root);
                json_object_put(rec);
                continue;
            }
            b.name = files[i];
            b.answered = NULL;
            c->base = &b;
            if (json_object_object_get_ex(c->root, "id", &id)) {
                const char *key = json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN);
                if (json_object_object_get_ex(c->root, "method", &method) &&
                    json_object_is_type(method, json_type_string)) {
                    if (n_pending < TRACE_PENDING) {
                        ids[n_pending] = strdup(key);
                        methods[n_pending++] = strdup(json_object_get_string(method));
                    }
                } else {
                    for (k = n_pending; k > 0; k--)
                        if (strcmp(ids[k - 1], key) == 0) {
                            b.answered = methods[k - 1];
                            break;
                        }
                }
            }
            compare(c, "message of the trace");
            messages++;
            json_object_put(c->root);
            c->root = NULL;
            json_object_put(rec);
        }
        for (k = 0; k < n_pending; k++) {
            free(ids[k]);
            free(methods[k]);
        }
        free(text);
        free(files[i]);
    }
    free(files);
    return messages;
}

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s BUNDLED_DIR OFFICIAL_DIR [--examples VERSION DIR] [--traces VERSION DIR]... "
            "[VERSION...]\n",
            prog);
}

int main(int argc, char **argv)
{
    const char *versions[MC_V_COUNT + 1];
    const char *ex_version = NULL, *ex_dir = NULL;
    const char *tr_version[16], *tr_dir[16];
    size_t n_versions = 0, n_traces = 0, v, b, n_examples = 0;
    ctx_t c;
    mc_errbuf_t eb;
    struct stat st;
    int a, bad_bases = 0, total_cmp = 0, total_diff = 0, total_deliberate = 0, trace_msgs = 0;

    if (argc < 3) {
        usage(argv[0]);
        return 2;
    }
    for (a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--examples") == 0 && a + 2 < argc) {
            ex_version = argv[++a];
            ex_dir = argv[++a];
        } else if (strcmp(argv[a], "--traces") == 0 && a + 2 < argc && n_traces < 16) {
            tr_version[n_traces] = argv[++a];
            tr_dir[n_traces++] = argv[++a];
        } else if (mc_version_find(argv[a]) != NULL && n_versions < MC_V_COUNT) {
            versions[n_versions++] = argv[a];
        } else {
            usage(argv[0]);
            return 2;
        }
    }
    if (n_versions == 0 && ex_dir == NULL && n_traces == 0)
        n_versions = mc_version_list(0, versions, MC_V_COUNT + 1);
    if (stat(argv[2], &st) != 0) {
        printf("FAIL: official schemas not found at %s (the spec is expected at ../shared/spec)\n",
               argv[2]);
        return 1;
    }
    memset(&c, 0, sizeof(c));
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&c.bundled, argv[1], MC_REGISTRY_BUNDLED, &eb) != MC_OK ||
        mc_registry_new(&c.official, argv[2], MC_REGISTRY_UPSTREAM, &eb) != MC_OK) {
        printf("FAIL: %s\n", eb.msg);
        return 1;
    }
    for (v = 0; v < n_versions + (ex_dir != NULL ? 1 : 0) + n_traces; v++) {
        int is_examples = v == n_versions && ex_dir != NULL;
        int is_trace = v >= n_versions + (ex_dir != NULL ? 1 : 0);
        size_t t = is_trace ? v - n_versions - (ex_dir != NULL ? 1 : 0) : 0;
        c.version = is_examples ? ex_version : is_trace ? tr_version[t] : versions[v];
        mc_errbuf_clear(&eb);
        if (mc_registry_load(c.bundled, c.version, &eb) != MC_OK ||
            mc_registry_load(c.official, c.version, &eb) != MC_OK) {
            printf("FAIL %s: %s\n", c.version, eb.msg);
            bad_bases++;
            continue;
        }
        if (is_examples) {
            if (stat(ex_dir, &st) != 0) {
                printf("FAIL: official examples not found at %s\n", ex_dir);
                bad_bases++;
                continue;
            }
            bad_bases += run_examples(&c, ex_dir, &n_examples);
            printf("%s: %zu official examples, each and its mutations compared\n", c.version,
                   n_examples);
            if (n_examples == 0) {
                printf("FAIL: no example under %s\n", ex_dir);
                bad_bases++;
            }
        } else if (is_trace) {
            int n = run_traces(&c, tr_dir[t]);
            printf("%s: %d messages of the traces in %s compared, %d differ\n", c.version, n,
                   tr_dir[t], c.differ);
            if (n == 0) {
                printf("FAIL: no trace message under %s\n", tr_dir[t]);
                bad_bases++;
            }
            trace_msgs += n;
        } else {
            for (b = 0; b < mc_test_diff_n_bases; b++) {
                if (!version_in(c.version, &mc_test_diff_bases[b]))
                    continue;
                c.root = json_tokener_parse(mc_test_diff_bases[b].json);
                bad_bases += run_base(&c, &mc_test_diff_bases[b], mc_test_diff_bases[b].name);
                json_object_put(c.root);
                c.root = NULL;
            }
        }
        total_cmp += c.compared;
        total_diff += c.differ;
        total_deliberate += c.deliberate;
        c.compared = c.differ = c.deliberate = 0;
    }
    mc_registry_free(c.bundled);
    mc_registry_free(c.official);
    printf("\ndifferential: %d messages and mutations compared (%d trace messages), %d verdicts "
           "differ, %d differ at documented tightenings, %d bad base messages\n",
           total_cmp, trace_msgs, total_diff, total_deliberate, bad_bases);
    printf("%d passed, %d failed\n", total_cmp - total_diff, total_diff + bad_bases);
    return total_diff == 0 && bad_bases == 0 ? 0 : 1;
}
