/*
 * cmd_validate.c - `mcpcheck validate`: check MCP messages and JSONL traces
 * against the MCP schemas (bundled or upstream) or any JSON Schema.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "core/file.h"
#include "core/jsonfast.h"
#include "judge/pairs.h"
#include "judge/replay.h"
#include "core/limits.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "scenario/httprun.h"
#include "schema/registry.h"
#include "schema/validator.h"

/* Largest input file read (traces are read whole). */
#define MC_VALIDATE_MAX_INPUT (1024ull * 1024ull * 1024ull)
/* --remote mappings. */
#define MC_VALIDATE_MAX_REMOTES 8
/* Largest schema document a --remote mapping reads. */
#define MC_VALIDATE_MAX_REMOTE_FILE (16u * 1024u * 1024u)

/* The schema dialects --dialect names. */
static const char *const dialects[] = {"draft7", "2020-12", NULL};

/* Checks a --remote mapping: PREFIX=DIR. */
static int check_remote(const char *value, char *why, size_t n)
{
    if (strchr(value, '=') != NULL)
        return 0;
    snprintf(why, n, "takes PREFIX=DIR, not '%s'", value);
    return -1;
}

typedef struct opts {
    const char *version;
    const char *def;
    const char *schema_dir;
    const char *schema_file;
    const char *result_of;
    int quiet;
    int trace;
    int version_given;
    const char *dialect;
    char *remotes[MC_VALIDATE_MAX_REMOTES]; /* "PREFIX=DIR" */
    size_t n_remotes;
    /* As the command line gives them (validate_options() derives the above): */
    int dialect_id;            /* index in dialects, -1 when not given */
    mc_opt_list_t remote_list; /* over remotes */
    mc_opt_list_t files;       /* the FILE arguments */
} opts_t;

#define T opts_t
static const mc_opt_t validate_opts[] = {
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version,
                      mc_cli_hint_versions,
                      "protocol version (default " MC_CLI_DEFAULT_VERSION
                      ", the newest with the initialize handshake);"),
    MC_OPTION_STRING(T, def, "def", 0, "NAME",
                     "check every message against definition NAME instead (e.g. Tool, "
                     "CallToolResult); a *Result definition given a JSON-RPC response checks "
                     "its \"result\" member"),
    MC_OPTION_STRING(T, schema_dir, "schema-dir", 0, "DIR",
                     "use the official schemas DIR/<version>/schema.json (the upstream spec "
                     "repository layout) instead of the bundled schemas/<version>.json of the "
                     "data folder (mcpcheck --version names it)"),
    MC_OPTION_STRING(T, schema_file, "schema", 0, "FILE",
                     "check any JSON values against the root of any JSON Schema document "
                     "(draft-07 or 2020-12); with --def, against its definition NAME"),
    MC_OPTION_ENUM(T, dialect_id, "dialect", 0, "D", dialects,
                   "with --schema: the dialect of a schema without \"$schema\": draft7 "
                   "(default) or 2020-12 (formats are then annotations, as 2020-12 says)"),
    MC_OPTION_LIST(T, remote_list, "remote", 0, "PREFIX=DIR", 0, check_remote, NULL,
                   "with --schema: a $ref to an absolute URI starting with PREFIX reads "
                   "DIR/<rest of the URI> (nothing is ever fetched from the network; "
                   "repeatable, at most " MC_OPTS_STR(MC_VALIDATE_MAX_REMOTES) ")"),
    MC_OPTION_STRING(T, result_of, "result-of", 0, "METHOD",
                     "responses whose request is not in the file answer METHOD"),
    MC_OPTION_FLAG(T, trace, "trace", 0,
                   "each FILE is a trace saved by 'mcpcheck run' "
                   "(reports/latest/traces/*.jsonl) or 'mcpcheck record --trace': judge the "
                   "session offline with the run's wire checks and the schema of the version "
                   "it negotiated (or --spec-version); findings are printed with their check "
                   "ids. A trace recorded over Streamable HTTP has the HTTP facts beside each "
                   "message received (\"http\": stream, status, content type, session, SSE "
                   "event id); they are judged too (http/sse-event-id-unique, "
                   "http/resume-own-stream, http/get-stream-no-response; not at 2026-07-28, "
                   "which has no sessions), and the "
                   "transport's notes (\"dir\": \"note\") are skipped"),
    MC_OPTION_FLAG(T, quiet, "quiet", 'q', "print only the summary line"),
    MC_OPTION_END,
};

static const mc_opts_spec_t validate_spec = {
    .prog = "mcpcheck validate",
    .synopsis = "mcpcheck validate [options] FILE...\n",
    .about = "Checks MCP messages against the MCP JSON schemas. Each FILE holds one JSON\n"
             "message (pretty-printed or not) or a JSONL trace, one message per line;\n"
             "'-' reads standard input.\n"
             "\n"
             "Without --def, each message is checked for what it is: the JSON-RPC envelope,\n"
             "then a request or notification by its method, a success response by the\n"
             "method of the request it answers (found by id earlier in the same file, or\n"
             "given with --result-of), an error response by the error shape. A response\n"
             "whose request is unknown gets its envelope checked and a warning saying so.\n",
    .epilogue =
        "Examples:\n"
        "  mcpcheck validate trace.jsonl\n"
        "  mcpcheck validate --spec-version " MC_VERSION_BASELINE " request.json\n"
        "  mcpcheck validate --def Tool tool.json\n"
        "  mcpcheck validate --result-of resources/list responses.jsonl\n"
        "  mcpcheck validate --schema-dir ../spec/schema --spec-version " MC_VERSION_BASELINE
        " \\\n"
        "      msg.json\n"
        "  mcpcheck validate --schema my-schema.json data.json\n"
        "  mcpcheck validate --trace \\\n"
        "      reports/latest/traces/tools__call-text@" MC_VERSION_BASELINE ".jsonl\n"
        "\n"
        "Output: one line per finding, FILE:LINE: error|warning: LOCATION: MESSAGE\n"
        "[schema location], then a summary.\n"
        "With --trace: FILE:LINE: error|warning|note: CHECK-ID: MESSAGE [spec ref].\n"
        "Exit codes: 0 every message valid (warnings allowed), 1 some message invalid\n"
        "or not JSON (with --trace: a MUST broken), 2 usage error, unreadable file or\n"
        "schema that does not load.\n",
    .opts = validate_opts,
    .positional = "FILE",
    .positional_at = offsetof(T, files),
    .command_at = MC_OPTS_NONE,
};
#undef T

typedef struct run {
    const opts_t *o;
    mc_registry_t *reg;     /* MCP mode */
    mc_schema_t *schema;    /* --schema mode */
    const mc_schema_node_t *node; /* --schema mode target */
    int def_is_result;      /* --def names a *Result definition */
    mc_pairs_t pending;     /* requests by id, to pair responses with their method */
    int pending_full_warned;
    mc_schema_report_t report;
    size_t messages, invalid, warnings;
} run_t;

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
            answered = mc_pairs_take(&r->pending, id);
            answers = answered != NULL ? answered : r->o->result_of;
        }
        rc = mc_registry_validate_message(r->reg, r->o->version, v, answers, &r->report, &eb);
        free(answered);
        if (json_object_is_type(v, json_type_object) &&
            json_object_object_get_ex(v, "method", &method) &&
            json_object_is_type(method, json_type_string) &&
            json_object_object_get_ex(v, "id", &id) &&
            mc_pairs_add(&r->pending, id, json_object_get_string(method)) == MC_EFULL &&
            !r->pending_full_warned) {
            fprintf(stderr,
                    "mcpcheck validate: more than %d unanswered requests; later ones are not "
                    "paired with their responses\n",
                    MC_PAIRS_MAX);
            r->pending_full_warned = 1;
        }
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

/* Reads path ("-": stdin) whole; prints why and returns 2 when it cannot. */
static int read_all(const char *path, char **out, size_t *len)
{
    mc_errbuf_t eb;
    int rc;

    mc_errbuf_clear(&eb);
    if (strcmp(path, "-") == 0)
        rc = mc_file_read_stream(stdin, "standard input", MC_VALIDATE_MAX_INPUT, out, len, &eb);
    else
        rc = mc_file_read(path, MC_VALIDATE_MAX_INPUT, out, len, &eb);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
        return 2;
    }
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
    mc_json_keys_t keys = {NULL, 0};
    int rc;

    rc = read_all(file, &buf, &len);
    if (rc != 0)
        return rc;
    mc_pairs_clear(&r->pending);

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
        /* Plain JSON is built without the tokener; json-c has the last
         * word on everything else, so verdicts and messages are its own. */
        if (mc_json_fast_parse(p, n, MC_MAX_JSON_DEPTH, &keys, &v) == MC_OK) {
            rc = check_value(r, v, file, line);
            json_object_put(v);
            continue;
        }
        json_tokener_reset(tok);
        v = json_tokener_parse_ex(tok, p, (int)n);
        jerr = json_tokener_get_error(tok);
        if (v == NULL && jerr == json_tokener_continue) {
            /* A bare number (or literal) ends only where something follows
             * it: the end of the line is that something. */
            size_t used = json_tokener_get_parse_end(tok);
            v = json_tokener_parse_ex(tok, " ", 1);
            jerr = json_tokener_get_error(tok);
            if (jerr == json_tokener_success && blank(p + used, n - used)) {
                rc = check_value(r, v, file, line);
                json_object_put(v);
                continue;
            }
            json_object_put(v);
            v = NULL;
            if (jerr != json_tokener_continue) {
                char why[160];
                snprintf(why, sizeof(why), "%s at column %zu", json_tokener_error_desc(jerr),
                         used + 1);
                bad_json(r, file, line, why);
                continue;
            }
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
    mc_json_keys_free(&keys);
    free(buf);
    mc_pairs_clear(&r->pending);
    return rc;
}

/* ---- traces ----------------------------------------------------------------- */

/* Prints the findings of a replayed trace; counts them by level. */
static void print_findings(const opts_t *o, const mc_replay_t *rp, const char *file, size_t *n_must,
                           size_t *n_should, size_t *n_may)
{
    size_t i;

    for (i = 0; i < rp->j.w.n_findings; i++) {
        const mc_wire_finding_t *f = &rp->j.w.findings[i];
        const mc_check_def_t *b = mc_builtin_check(f->check);
        mc_level_t level;
        const char *sev;

        if (b == NULL)
            b = mc_httprun_check(f->check);
        level = b != NULL ? b->level : MC_LEVEL_MUST;
        sev = level == MC_LEVEL_MUST ? "error" : level == MC_LEVEL_SHOULD ? "warning" : "note";
        *n_must += level == MC_LEVEL_MUST;
        *n_should += level == MC_LEVEL_SHOULD;
        *n_may += level == MC_LEVEL_MAY || level == MC_LEVEL_INFO;
        if (o->quiet)
            continue;
        printf("%s:%zu: %s: %s: %s (message %llu)", file, mc_replay_line_of(rp, f->seq), sev,
               f->check, f->detail, (unsigned long long)f->seq);
        if (b != NULL && b->refs[0].version != NULL) {
            char ref[MC_CHECK_MAX_PAGE + 16];
            mc_check_ref_string(b, rp->j.version, ref, sizeof(ref));
            printf(" [%s %s]", mc_level_name(b->level), ref);
        }
        putchar('\n');
    }
    if (rp->j.w.findings_dropped > 0 && !o->quiet)
        printf("%s: note: %llu more findings not shown\n", file,
               (unsigned long long)rp->j.w.findings_dropped);
}

/* Judges one trace file (judge/replay.h). Returns 0 or 2 (unreadable);
 * counts MUST findings. */
static int trace_file(const opts_t *o, mc_registry_t *reg, const char *file, size_t *must,
                      size_t *all)
{
    mc_replay_t *rp;
    char *buf = NULL;
    size_t len = 0, off = 0, line = 0, n_must = 0, n_should = 0, n_may = 0;
    int rc;

    rc = read_all(file, &buf, &len);
    if (rc != 0)
        return rc;
    rp = malloc(sizeof(*rp));
    if (rp == NULL || mc_replay_init(rp, reg, o->version_given ? o->version : NULL) != MC_OK) {
        fprintf(stderr, "mcpcheck validate: out of memory\n");
        free(rp);
        free(buf);
        return 2;
    }
    while (off < len) {
        const char *p = buf + off;
        const char *nl = memchr(p, '\n', len - off);
        size_t n = nl != NULL ? (size_t)(nl - p) : len - off;
        mc_replay_skip_t skip;

        off += n + (nl != NULL ? 1 : 0);
        line++;
        if (mc_replay_line(rp, p, n, line, &skip) != MC_OK) {
            if (!o->quiet)
                printf("%s:%zu: error: not a trace record {\"seq\", \"t_ms\", \"dir\": "
                       "\"in\"|\"out\", \"line\"}\n",
                       file, line);
            n_must++;
        } else if (skip.skipped && !o->quiet) {
            printf("%s:%zu: note: message %llu was kept truncated (%zu of %llu bytes); not "
                   "judged\n",
                   file, line, (unsigned long long)skip.seq, skip.kept,
                   (unsigned long long)skip.full);
        }
    }
    free(buf);
    print_findings(o, rp, file, &n_must, &n_should, &n_may);
    printf("%s: %zu message%s%s, %zu check%s evaluated, %zu finding%s (%zu MUST, %zu SHOULD, %zu "
           "MAY)%s%s%s\n",
           file, rp->messages, rp->messages == 1 ? "" : "s",
           rp->sse_frames > 0    ? " (over HTTP+SSE)"
           : rp->http_frames > 0 ? " (over Streamable HTTP)"
                                 : "", rp->j.w.n_checks,
           rp->j.w.n_checks == 1 ? "" : "s", rp->j.w.n_findings + (size_t)rp->j.w.findings_dropped,
           rp->j.w.n_findings == 1 ? "" : "s", n_must, n_should, n_may,
           rp->j.version[0] != '\0' ? "; schema " : "; no protocol version known: schema not checked",
           rp->j.version[0] != '\0' ? rp->j.version : "",
           rp->skipped > 0 ? "; some messages not judged (truncated)" : "");
    *must += n_must;
    *all += rp->j.w.n_findings;
    mc_replay_free(rp);
    free(rp);
    return 0;
}

/* Resolver for --remote: an absolute URI under a mapped prefix reads the
 * file at DIR/<rest>; anything else is unknown (never fetched). */
static json_object *resolve_remote(void *ctx, const char *uri)
{
    const opts_t *o = ctx;
    size_t k;

    for (k = 0; k < o->n_remotes; k++) {
        const char *eq = strchr(o->remotes[k], '=');
        size_t plen = (size_t)(eq - o->remotes[k]);
        char path[4096];
        char *buf = NULL;
        size_t len = 0;
        json_object *doc = NULL;
        int n;
        if (strncmp(uri, o->remotes[k], plen) != 0 || strstr(uri + plen, "..") != NULL)
            continue;
        n = snprintf(path, sizeof(path), "%s/%s", eq + 1, uri + plen);
        if (n < 0 || (size_t)n >= sizeof(path))
            return NULL;
        if (mc_file_read(path, MC_VALIDATE_MAX_REMOTE_FILE, &buf, &len, NULL) != MC_OK)
            return NULL;
        if (mc_json_parse(buf, len, 512, &doc, NULL) != MC_OK)
            doc = NULL;
        free(buf);
        return doc;
    }
    return NULL;
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
    {
        mc_schema_options_t so = {resolve_remote, (void *)r->o, MC_SCHEMA_DIALECT_DRAFT7,
                                  MC_SCHEMA_FORMATS_DEFAULT, 0};
        if (r->o->dialect != NULL && strcmp(r->o->dialect, "2020-12") == 0)
            so.dialect = MC_SCHEMA_DIALECT_2020_12;
        rc = mc_schema_compile(doc, &so, &r->schema, &eb);
    }
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

/*
 * Reads the command line into o (its files list over a new array the caller
 * frees, *files_v) and checks how the options go together. Returns
 * MC_OPTS_CONTINUE or the exit code to return, having said why.
 */
static int validate_options(int argc, char **argv, opts_t *o, char ***files_v)
{
    int code;

    memset(o, 0, sizeof(*o));
    o->dialect_id = -1;
    o->remote_list = (mc_opt_list_t){o->remotes, MC_VALIDATE_MAX_REMOTES, 0};
    *files_v = calloc((size_t)argc + 1, sizeof(**files_v));
    if (*files_v == NULL)
        return mc_opts_fail(&validate_spec, "out of memory");
    o->files = (mc_opt_list_t){*files_v, (size_t)argc, 0};
    code = mc_opts_parse(&validate_spec, o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    o->version_given = o->version != NULL;
    if (o->version == NULL)
        o->version = MC_CLI_DEFAULT_VERSION;
    o->dialect = o->dialect_id >= 0 ? dialects[o->dialect_id] : NULL;
    o->n_remotes = o->remote_list.n;
    if ((o->dialect != NULL || o->n_remotes > 0) && o->schema_file == NULL)
        return mc_opts_fail(&validate_spec, "--dialect and --remote go with --schema");
    if (o->files.n == 0)
        return mc_opts_fail(&validate_spec, "no FILE given (see '%s --help')",
                            validate_spec.prog);
    if (o->schema_file != NULL && o->schema_dir != NULL)
        return mc_opts_fail(&validate_spec, "--schema and --schema-dir exclude each other");
    if (o->trace && (o->schema_file != NULL || o->def != NULL || o->result_of != NULL))
        return mc_opts_fail(&validate_spec, "--trace judges MCP sessions; it takes no --schema, "
                                            "--def or --result-of");
    return MC_OPTS_CONTINUE;
}

/* --trace: judges each file as a session. Returns the exit code. */
static int validate_traces(const opts_t *o)
{
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;
    size_t must = 0, all = 0, i;
    int rc = 0;

    mc_errbuf_clear(&eb);
    if (mc_registry_new(&reg, o->schema_dir,
                        o->schema_dir != NULL ? MC_REGISTRY_UPSTREAM : MC_REGISTRY_BUNDLED,
                        &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
        return MC_EXIT_USAGE;
    }
    if (o->version_given && mc_registry_load(reg, o->version, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
        mc_registry_free(reg);
        return MC_EXIT_USAGE;
    }
    for (i = 0; i < o->files.n && rc == 0; i++)
        rc = trace_file(o, reg, o->files.v[i], &must, &all);
    mc_registry_free(reg);
    if (rc != 0)
        return MC_EXIT_USAGE;
    return must > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
}

/* Loads the schema messages are checked against: --schema's file, or the
 * MCP schema of o->version (checking --def names a definition of it).
 * Returns 0, or 2 having said why. */
static int load_schemas(run_t *r, const opts_t *o)
{
    mc_errbuf_t eb;

    if (o->schema_file != NULL)
        return load_schema_file(r, o->schema_file);
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&r->reg, o->schema_dir,
                        o->schema_dir != NULL ? MC_REGISTRY_UPSTREAM : MC_REGISTRY_BUNDLED,
                        &eb) != MC_OK ||
        mc_registry_load(r->reg, o->version, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck validate: %s\n", eb.msg);
        return 2;
    }
    if (o->def != NULL &&
        mc_schema_definition(mc_registry_schema(r->reg, o->version), o->def) == NULL) {
        fprintf(stderr, "mcpcheck validate: schema %s has no definition \"%s\"\n", o->version,
                o->def);
        return 2;
    }
    if (o->def != NULL) {
        size_t n = strlen(o->def);
        r->def_is_result = n > 6 && strcmp(o->def + n - 6, "Result") == 0;
    }
    return 0;
}

/* Checks each file's messages against the schemas and prints the summary.
 * Returns the exit code. */
static int validate_messages(const opts_t *o)
{
    run_t *r = calloc(1, sizeof(*r));
    size_t i;
    int rc;

    if (r == NULL) {
        fprintf(stderr, "mcpcheck validate: out of memory\n");
        return MC_EXIT_USAGE;
    }
    r->o = o;
    rc = load_schemas(r, o);
    for (i = 0; i < o->files.n && rc == 0; i++)
        rc = check_file(r, o->files.v[i]);
    if (rc == 0)
        printf("%zu message%s: %zu valid, %zu invalid, %zu warning%s (schema %s%s%s)\n",
               r->messages, r->messages == 1 ? "" : "s", r->messages - r->invalid, r->invalid,
               r->warnings, r->warnings == 1 ? "" : "s",
               o->schema_file != NULL ? o->schema_file : o->version,
               o->schema_file == NULL ? (o->schema_dir != NULL ? ", from " : ", bundled") : "",
               o->schema_file == NULL && o->schema_dir != NULL ? o->schema_dir : "");
    mc_pairs_clear(&r->pending);
    mc_registry_free(r->reg);
    mc_schema_free(r->schema);
    if (rc == 0)
        rc = r->invalid > 0 ? MC_EXIT_FAIL : MC_EXIT_OK;
    else
        rc = MC_EXIT_USAGE;
    free(r);
    return rc;
}

int mc_cmd_validate(int argc, char **argv)
{
    opts_t o;
    char **files_v = NULL;
    int code;

    code = validate_options(argc, argv, &o, &files_v);
    if (code == MC_OPTS_CONTINUE)
        code = o.trace ? validate_traces(&o) : validate_messages(&o);
    free(files_v);
    return code;
}
