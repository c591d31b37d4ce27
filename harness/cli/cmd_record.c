/*
 * cmd_record.c - `mcpcheck record`: write a scenario skeleton from a live
 * session, with the observed responses as its expectations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/util.h"
#include "client/http.h"
#include "client/http_limits.h"
#include "client/httptarget.h"
#include "client/session.h"
#include "client/stdio.h"
#include "core/clock.h"
#include "core/limits.h"
#include "report/report.h"

#define MC_RECORD_MAX_LINE 65536

/* What record talks to: a stdio target, or a Streamable HTTP endpoint (a
 * server record started, or one already running). */
typedef struct rec_target {
    int is_http;
    mc_stdio_t io;
    mc_http_target_t tgt;
    mc_http_t *http;
    char url[512];
} rec_target_t;

/* The trace record writes with --trace: run's trace format (report/trace.c). */
typedef struct rec_trace {
    FILE *f;
    mc_session_t *s;
    rec_target_t *t;
    uint64_t seq;
    int64_t t0;
    int failed;
} rec_trace_t;

static void trace_put(rec_trace_t *tr, const char *dir, const char *line, size_t len,
                      size_t skipped, json_object *facts)
{
    json_object *str;

    if (tr->f == NULL)
        return;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    str = json_object_new_string_len(line != NULL ? line : "", (int)len);
    if (fprintf(tr->f, "{\"seq\": %llu, \"t_ms\": %lld, \"dir\": \"%s\", \"line\": %s",
                (unsigned long long)tr->seq, (long long)(mc_now_ms() - tr->t0), dir,
                json_object_to_json_string_ext(str, JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
        tr->failed = 1;
    json_object_put(str);
    if (skipped > 0)
        fprintf(tr->f, ", \"truncated_from\": %zu", skipped);
    if (facts != NULL)
        fprintf(tr->f, ", \"http\": %s",
                json_object_to_json_string_ext(facts, JSON_C_TO_STRING_PLAIN |
                                                          JSON_C_TO_STRING_NOSLASHESCAPE));
    fputs("}\n", tr->f);
}

/* Writes the HTTP transport's pending notes as "note" records. */
static void trace_notes(rec_trace_t *tr)
{
    char note[260], line[300];

    while (tr->t->http != NULL && mc_http_take_note(tr->t->http, note, sizeof(note))) {
        int n = snprintf(line, sizeof(line), "(http: %s)", note);
        trace_put(tr, "note", line, n > 0 ? (size_t)n : 0, 0, NULL);
    }
}

static void trace_observe(void *ctx, int outbound, uint64_t seq, const char *line, size_t len,
                          int kind, unsigned flags)
{
    rec_trace_t *tr = ctx;
    json_object *facts = NULL;

    (void)seq;
    (void)kind;
    (void)flags;
    trace_notes(tr);
    tr->seq++;
    if (!outbound && tr->s->in_meta != NULL)
        facts = mc_report_http_facts(tr->s->in_meta, strlen(tr->s->in_meta));
    if (line == NULL)
        trace_put(tr, outbound ? "out" : "in", "", 0, len > 0 ? len : 1, facts);
    else
        trace_put(tr, outbound ? "out" : "in", line, len, 0, facts);
    json_object_put(facts);
}

static int rec_start(rec_target_t *t, const char *url, int allow_remote, char **cmd,
                     mc_link_t *link, mc_errbuf_t *eb)
{
    memset(t, 0, sizeof(*t));
    if (url == NULL) {
        mc_cli_target_opts_t topts;
        memset(&topts, 0, sizeof(topts));
        topts.argv = cmd;
        if (mc_cli_target_start(&t->io, &topts, eb) != MC_OK)
            return MC_EIO;
        *link = mc_stdio_link(&t->io);
        return MC_OK;
    }
    t->is_http = 1;
    snprintf(t->url, sizeof(t->url), "%s", url);
    if (cmd != NULL && cmd[0] != NULL) {
        mc_spawn_opts_t so;
        memset(&so, 0, sizeof(so));
        so.argv = cmd;
        if (mc_http_target_start(&t->tgt, &so, url, MC_HTTP_STARTUP_BUDGET_MS, eb) != MC_OK)
            return MC_EIO;
        snprintf(t->url, sizeof(t->url), "%s", t->tgt.url);
    }
    {
        mc_http_opts_t ho;
        memset(&ho, 0, sizeof(ho));
        ho.url = t->url;
        ho.allow_remote = allow_remote;
        ho.get_stream = 1;
        t->http = mc_http_new(&ho, eb);
    }
    if (t->http == NULL) {
        mc_http_target_stop(&t->tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
        return MC_EINVAL;
    }
    *link = mc_http_link(t->http);
    return MC_OK;
}

/* Ends the session (DELETE over HTTP) and stops what rec_start started. */
static void rec_stop(rec_target_t *t, rec_trace_t *tr)
{
    if (!t->is_http) {
        mc_cli_target_stop(&t->io);
        mc_stdio_free(&t->io);
        return;
    }
    if (t->http != NULL) {
        long st = 0;
        mc_http_close(t->http, MC_HTTP_DELETE_TIMEOUT_MS, &st);
        if (tr != NULL)
            trace_notes(tr);
        mc_http_free(t->http);
        t->http = NULL;
    }
    mc_http_target_stop(&t->tgt, MC_SHUTDOWN_TERM_GRACE_MS, NULL, 0);
}

static void record_usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck record [--script FILE] [-o FILE] [--trace FILE] [--spec-version V]\n"
            "                       [--timeout MS] -- SERVER_CMD [ARGS...]\n"
            "       mcpcheck record [options] --url URL [--allow-remote] [-- SERVER_CMD [ARGS...]]\n"
            "\n"
            "Starts the server, initializes, sends each request of the script (or of standard\n"
            "input, one per line), and writes a scenario whose steps repeat those requests and\n"
            "expect exactly what the server answered, plus the notifications it sent. Trim\n"
            "the expectations to what the spec requires, fill in \"spec\", and lint it.\n"
            "\n"
            "A script line is either a JSON-RPC request ({\"method\": ..., \"params\": ...};\n"
            "its id is ignored) or the shorthand METHOD [PARAMS-JSON], e.g.\n"
            "  resources/list\n"
            "  resources/read {\"uri\": \"test://static-text\"}\n"
            "Lines starting with # are comments.\n"
            "\n"
            "options:\n"
            "  --script FILE   the requests to send (default: standard input)\n"
            "  -o FILE         write the scenario to FILE (default: standard output)\n"
            "  --trace FILE    also write the session as a JSONL trace (the format of\n"
            "                  'mcpcheck run' traces), for 'mcpcheck validate --trace FILE';\n"
            "                  over HTTP each message received has its HTTP facts beside it\n"
            "                  (\"http\": stream, status, content type, session, SSE event id)\n"
            "  --url URL       speak Streamable HTTP to URL (http://HOST:PORT/PATH): a running\n"
            "                  server, or the one after '--' (port 0: it prints the port it\n"
            "                  bound); the session opens a GET stream, resumes SSE streams\n"
            "                  with Last-Event-ID, and ends with DELETE\n"
            "  --allow-remote  allow a --url host that is not a loopback address\n"
            "  --spec-version V  the protocol version to request\n"
            "  --timeout MS    time allowed for each answer\n"
            "\n"
            "Examples:\n"
            "  printf 'tools/list\\n' | mcpcheck record -o scenarios/tools/mine.jsonc -- ./server\n"
            "  printf 'tools/list\\n' | mcpcheck record --trace s.jsonl -o /dev/null \\\n"
            "      --url http://127.0.0.1:0/mcp -- mcpcheck-refserver --http 127.0.0.1:0\n"
            "  mcpcheck validate --trace s.jsonl\n");
}

static json_object *parse_script_line(const char *line, const char **method_out, char *mbuf,
                                      size_t mn)
{
    json_object *params = NULL;

    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '{') {
        json_object *req = json_tokener_parse(line), *m, *p;
        if (req == NULL || !json_object_object_get_ex(req, "method", &m) ||
            !json_object_is_type(m, json_type_string)) {
            json_object_put(req);
            return NULL;
        }
        snprintf(mbuf, mn, "%s", json_object_get_string(m));
        if (json_object_object_get_ex(req, "params", &p))
            params = json_object_get(p);
        json_object_put(req);
        *method_out = mbuf;
        return params != NULL ? params : json_object_new_object();
    }
    {
        size_t n = strcspn(line, " \t\r\n");
        const char *rest = line + n;
        snprintf(mbuf, mn, "%.*s", (int)n, line);
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (*rest != '\0' && *rest != '\r' && *rest != '\n') {
            params = json_tokener_parse(rest);
            if (params == NULL)
                return NULL;
        } else {
            params = json_object_new_object();
        }
        *method_out = mbuf;
        return params;
    }
}

int mc_cmd_record(int argc, char **argv)
{
    const char *script = NULL, *out_path = NULL, *version = MC_CLI_DEFAULT_VERSION;
    const char *url = NULL, *trace_path = NULL;
    int allow_remote = 0;
    long timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS;
    char **cmd = NULL;
    FILE *in = stdin;
    rec_target_t t;
    rec_trace_t tr;
    mc_session_opts_t so;
    mc_link_t link;
    mc_session_t s;
    mc_errbuf_t eb;
    json_object *doc, *steps, *spec, *req;
    char *line;
    int i, code = MC_EXIT_OK, lineno = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            cmd = argv + i + 1;
            break;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            record_usage(stdout);
            return MC_EXIT_OK;
        } else if (strcmp(argv[i], "--script") == 0 && i + 1 < argc) {
            script = argv[++i];
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
            trace_path = argv[++i];
        } else if (strcmp(argv[i], "--url") == 0 && i + 1 < argc) {
            url = argv[++i];
        } else if (strcmp(argv[i], "--allow-remote") == 0) {
            allow_remote = 1;
        } else if (strcmp(argv[i], "--spec-version") == 0 && i + 1 < argc) {
            version = argv[++i];
            if (!mc_protocol_version_known(version)) {
                fprintf(stderr, "mcpcheck record: unknown protocol version '%s'\n", version);
                return MC_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            if (mc_cli_parse_long(argv[++i], 1, 600000, &timeout) != 0) {
                fprintf(stderr, "mcpcheck record: --timeout needs milliseconds\n");
                return MC_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "mcpcheck record: unexpected argument '%s'\n\n", argv[i]);
            record_usage(stderr);
            return MC_EXIT_USAGE;
        }
    }
    if (url == NULL && (cmd == NULL || cmd[0] == NULL)) {
        fprintf(stderr, "mcpcheck record: no server command; put it after '--' (or give --url)\n");
        return MC_EXIT_USAGE;
    }
    if (url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_http_url_check(url, allow_remote, NULL, 0, NULL, &eb) != MC_OK) {
            fprintf(stderr, "mcpcheck record: --url: %s\n", eb.msg);
            return MC_EXIT_USAGE;
        }
    }
    if (script != NULL && (in = fopen(script, "r")) == NULL) {
        perror(script);
        return MC_EXIT_USAGE;
    }
    memset(&tr, 0, sizeof(tr));
    if (trace_path != NULL && (tr.f = fopen(trace_path, "w")) == NULL) {
        perror(trace_path);
        if (in != stdin)
            fclose(in);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (rec_start(&t, url, allow_remote, cmd, &link, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck record: %s\n", eb.msg);
        if (in != stdin)
            fclose(in);
        if (tr.f != NULL)
            fclose(tr.f);
        return MC_EXIT_INCOMPLETE;
    }
    tr.s = &s;
    tr.t = &t;
    tr.t0 = mc_now_ms();
    memset(&so, 0, sizeof(so));
    so.observer = trace_observe;
    so.observer_ctx = &tr;
    if (mc_session_init(&s, link, &so) != MC_OK ||
        mc_session_initialize(&s, version, NULL, (int)timeout, &eb) != MC_OK) {
        char why[300] = "";
        if (t.http != NULL)
            mc_http_describe(t.http, why, sizeof(why));
        fprintf(stderr, "mcpcheck record: initialize failed: %s%s%s\n", eb.msg,
                why[0] ? "; " : "", why);
        mc_session_free(&s);
        rec_stop(&t, &tr);
        if (in != stdin)
            fclose(in);
        if (tr.f != NULL)
            fclose(tr.f);
        return MC_EXIT_INCOMPLETE;
    }
    if (t.http != NULL)
        mc_http_after_handshake(t.http);

    doc = json_object_new_object();
    steps = json_object_new_array();
    spec = json_object_new_array();
    req = json_object_new_object();
    json_object_object_add(doc, "title", json_object_new_string("TODO: what this scenario shows"));
    json_object_object_add(req, "check", json_object_new_string("recorded/todo"));
    /* A placeholder that lints: a real sentence of the spec, to be replaced
     * by the one the scenario holds (quoted verbatim, with its keyword). */
    json_object_object_add(req, "level", json_object_new_string("MUST"));
    json_object_object_add(req, "quote",
                           json_object_new_string("All messages between MCP clients and servers "
                                                  "MUST follow the JSON-RPC 2.0 specification."));
    {
        json_object *refs = json_object_new_object();
        json_object_object_add(refs, s.negotiated_version, json_object_new_string("basic#messages"));
        json_object_object_add(req, "refs", refs);
    }
    json_object_object_add(req, "interpretation",
                           json_object_new_string("TODO: quote the sentence this scenario "
                                                  "checks, with its page per version, and say "
                                                  "here what the steps read into it."));
    json_object_array_add(spec, req);
    json_object_object_add(doc, "spec", spec);
    json_object_object_add(doc, "versions", json_object_new_string(s.negotiated_version));

    line = malloc(MC_RECORD_MAX_LINE);
    while (line != NULL && fgets(line, MC_RECORD_MAX_LINE, in) != NULL) {
        const char *method = NULL;
        char mbuf[256];
        json_object *params, *step, *a, *as;
        mc_msg_t resp, note;
        int rc;

        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        params = parse_script_line(line, &method, mbuf, sizeof(mbuf));
        if (params == NULL) {
            fprintf(stderr, "mcpcheck record: %s:%d: not a request (METHOD [PARAMS] or JSON)\n",
                    script ? script : "stdin", lineno);
            code = MC_EXIT_USAGE;
            continue;
        }
        step = json_object_new_object();
        json_object_object_add(step, "request", json_object_new_string(method));
        json_object_object_add(step, "params", json_object_get(params));
        rc = mc_session_request(&s, method, params, (int)timeout, &resp);
        if (rc != MC_OK) {
            fprintf(stderr, "mcpcheck record: %s: %s; stopping\n", method, mc_strerror(rc));
            json_object_put(step);
            code = MC_EXIT_INCOMPLETE;
            break;
        }
        as = json_object_new_array();
        a = json_object_new_object();
        if (resp.kind == MC_MSG_ERROR) {
            json_object *e = json_object_new_object();
            json_object_object_add(e, "error", json_object_new_int64(resp.error_code));
            json_object_object_add(step, "expect", e);
            json_object_object_add(a, "path", json_object_new_string("error.message"));
            json_object_object_add(a, "equals", json_object_new_string(resp.error_message));
        } else {
            json_object *copy = NULL;
            json_object_deep_copy(resp.result, &copy, NULL);
            json_object_object_add(a, "path", json_object_new_string("result"));
            json_object_object_add(a, "equals", copy);
        }
        json_object_array_add(as, a);
        json_object_object_add(step, "assert", as);
        json_object_array_add(steps, step);
        mc_msg_free(&resp);
        while (mc_session_next_notification(&s, 0, &note) == MC_OK) {
            json_object *ns = json_object_new_object();
            json_object_object_add(ns, "expect_notification", json_object_new_string(note.method));
            json_object_array_add(steps, ns);
            mc_msg_free(&note);
        }
    }
    free(line);
    if (in != stdin)
        fclose(in);
    json_object_object_add(doc, "steps", steps);
    mc_session_free(&s);
    rec_stop(&t, &tr);
    if (tr.f != NULL) {
        trace_notes(&tr);
        if (fclose(tr.f) != 0 || tr.failed) {
            fprintf(stderr, "mcpcheck record: cannot write %s\n", trace_path);
            code = MC_EXIT_INCOMPLETE;
        } else {
            fprintf(stderr, "mcpcheck record: wrote the trace %s\n", trace_path);
        }
    }

    if (json_object_array_length(steps) == 0) {
        fprintf(stderr, "mcpcheck record: no requests were recorded\n");
        json_object_put(doc);
        return code == MC_EXIT_OK ? MC_EXIT_USAGE : code;
    }
    {
        const char *text = json_object_to_json_string_ext(
            doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
        const char *header = "// Recorded by mcpcheck record: trim the expectations to what the "
                             "spec requires\n// and fill in \"spec\" before use.\n";
        if (out_path != NULL) {
            size_t hl = strlen(header), tl = strlen(text);
            char *all = malloc(hl + tl + 2);
            if (all != NULL) {
                memcpy(all, header, hl);
                memcpy(all + hl, text, tl);
                all[hl + tl] = '\n';
                mc_errbuf_clear(&eb);
                if (mc_report_write_file(out_path, all, hl + tl + 1, &eb) != MC_OK) {
                    fprintf(stderr, "mcpcheck record: %s\n", eb.msg);
                    code = MC_EXIT_INCOMPLETE;
                } else {
                    fprintf(stderr, "mcpcheck record: wrote %s\n", out_path);
                }
                free(all);
            }
        } else {
            printf("%s%s\n", header, text);
        }
    }
    json_object_put(doc);
    return code;
}
