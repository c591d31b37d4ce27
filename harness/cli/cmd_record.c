/*
 * cmd_record.c - `mcpcheck record`: write a scenario skeleton from a live
 * session, with the observed responses as its expectations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "client/session.h"
#include "client/target.h"
#include "core/clock.h"
#include "core/limits.h"
#include "report/report.h"

#define MC_RECORD_MAX_LINE 65536

/* The trace record writes with --trace: run's trace format (report/trace.c). */
typedef struct rec_trace {
    FILE *f;
    mc_session_t *s;
    mc_target_t *t;
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

    while (tr->t != NULL && mc_target_take_note(tr->t, note, sizeof(note))) {
        int n = snprintf(line, sizeof(line), "(http: %s)", note);
        trace_put(tr, "note", line, n > 0 ? (size_t)n : 0, 0, NULL);
    }
}

static void trace_observe(void *ctx, const mc_seen_t *seen)
{
    rec_trace_t *tr = ctx;
    const mc_record_t *rec = seen->rec;
    int outbound = rec->outbound;
    const char *line = rec->data;
    size_t len = rec->len;
    json_object *facts = NULL;

    trace_notes(tr);
    tr->seq++;
    if (!outbound && rec->facts.stream != MC_STREAM_NONE) {
        char text[MC_RECORD_FACTS_TEXT];
        size_t n = mc_record_facts_text(&rec->facts, text, sizeof(text));
        facts = mc_report_http_facts(text, n);
    }
    if (line == NULL)
        trace_put(tr, outbound ? "out" : "in", "", 0, len > 0 ? len : 1, facts);
    else
        trace_put(tr, outbound ? "out" : "in", line, len, 0, facts);
    json_object_put(facts);
}

/* Opens what record talks to: a stdio target, or a Streamable HTTP
 * endpoint (a server record starts, or one already running). */
static int rec_start(mc_target_t **t, const char *url, int allow_remote, char **cmd,
                     mc_errbuf_t *eb)
{
    mc_target_opts_t to;

    memset(&to, 0, sizeof(to));
    to.argv = cmd;
    if (url == NULL)
        return mc_cli_target_open(t, &to, eb);
    to.url = url;
    to.allow_remote = allow_remote;
    to.get_stream = 1;
    return mc_target_open(t, &to, eb);
}

/* Ends the session (DELETE over HTTP) and stops what rec_start started. */
static void rec_stop(mc_target_t **t, rec_trace_t *tr)
{
    if (*t == NULL)
        return;
    mc_target_end_session(*t);
    if (tr != NULL) {
        trace_notes(tr);
        tr->t = NULL;
    }
    mc_cli_target_stop(*t);
    mc_target_free(*t);
    *t = NULL;
}

/* The longest --timeout, in milliseconds. */
#define MC_RECORD_MAX_TIMEOUT_MS 600000L

/* What the command line asks of `mcpcheck record`. */
typedef struct rec_opts {
    const char *script, *out, *trace, *version, *url;
    int allow_remote;
    long timeout;
    char **cmd;
} rec_opts_t;

#define T rec_opts_t
static const mc_opt_t record_opts[] = {
    MC_OPTION_STRING(T, script, "script", 0, "FILE",
                     "the requests to send (default: standard input)"),
    MC_OPTION_STRING(T, out, "output", 'o', "FILE",
                     "write the scenario to FILE (default: standard output)"),
    MC_OPTION_STRING(T, trace, "trace", 0, "FILE",
                     "also write the session as a JSONL trace (the format of 'mcpcheck run' "
                     "traces), for 'mcpcheck validate --trace FILE'; over HTTP each message "
                     "received has its HTTP facts beside it (\"http\": stream, status, "
                     "content type, session, SSE event id)"),
    MC_OPTION_STRING(T, url, "url", 0, "URL",
                     "speak Streamable HTTP to URL (http://HOST:PORT/PATH): a running server, "
                     "or the one after '--' (port 0: it prints the port it bound); the session "
                     "opens a GET stream, resumes SSE streams with Last-Event-ID, and ends "
                     "with DELETE"),
    MC_OPTION_FLAG(T, allow_remote, "allow-remote", 0,
                   "allow a --url host that is not a loopback address"),
    MC_OPTION_CHECKED(T, version, "spec-version", 0, "V", mc_cli_check_version, NULL,
                      "the protocol version to request (default " MC_CLI_DEFAULT_VERSION ")"),
    MC_OPTION_LONG(T, timeout, "timeout", 0, "MS", 1, MC_RECORD_MAX_TIMEOUT_MS,
                   "time allowed for each answer (default " MC_OPTS_STR(
                       MC_DEFAULT_REQUEST_TIMEOUT_MS) ")"),
    MC_OPTION_END,
};

static const mc_opts_spec_t record_spec = {
    .prog = "mcpcheck record",
    .synopsis = "mcpcheck record [options] -- SERVER_CMD [ARGS...]\n"
                "       mcpcheck record [options] --url URL [-- SERVER_CMD [ARGS...]]\n",
    .about = "Starts the server, initializes, sends each request of the script (or of\n"
             "standard input, one per line), and writes a scenario whose steps repeat those\n"
             "requests and expect exactly what the server answered, plus the notifications\n"
             "it sent. Its check is a placeholder author's check (\"recorded/todo\",\n"
             "SHOULD, \"TODO: state your rule\"): trim the expectations to what the rule\n"
             "requires, state the rule (your own, or a spec sentence quoted verbatim),\n"
             "and lint it.\n"
             "\n"
             "A script line is either a JSON-RPC request ({\"method\": ..., \"params\": ...};\n"
             "its id is ignored) or the shorthand METHOD [PARAMS-JSON], e.g.\n"
             "  resources/list\n"
             "  resources/read {\"uri\": \"test://static-text\"}\n"
             "Lines starting with # are comments.\n",
    .epilogue =
        "Examples:\n"
        "  printf 'tools/list\\n' | mcpcheck record -o scenarios/tools/mine.jsonc -- \\\n"
        "      ./server\n"
        "  printf 'tools/list\\n' | mcpcheck record --trace s.jsonl -o /dev/null \\\n"
        "      --url http://127.0.0.1:0/mcp -- mcpcheck-refserver --http 127.0.0.1:0\n"
        "  mcpcheck validate --trace s.jsonl\n",
    .opts = record_opts,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};
#undef T

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

/* A recording, from the command line to the scenario. */
typedef struct recording {
    rec_opts_t o;
    FILE *in;          /* the script, or stdin */
    mc_target_t *t;
    rec_trace_t tr;
    mc_session_t s;
    json_object *doc;  /* the scenario */
    json_object *steps;
    int code;          /* the exit code so far */
} recording_t;

/* Reads the command line into o. Returns MC_OPTS_CONTINUE or the exit code
 * to return, having said why. */
static int record_options(int argc, char **argv, rec_opts_t *o)
{
    mc_errbuf_t eb;
    int code;

    memset(o, 0, sizeof(*o));
    o->version = MC_CLI_DEFAULT_VERSION;
    o->timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS;
    code = mc_opts_parse(&record_spec, o, argc, argv);
    if (code != MC_OPTS_CONTINUE)
        return code;
    if (o->url == NULL && (o->cmd == NULL || o->cmd[0] == NULL))
        return mc_opts_fail(&record_spec,
                            "no server command; put it after '--' (or give --url)");
    if (o->url != NULL) {
        mc_errbuf_clear(&eb);
        if (mc_target_url_check(o->url, o->allow_remote, &eb) != MC_OK)
            return mc_opts_fail(&record_spec, "--url: %s", eb.msg);
    }
    return MC_OPTS_CONTINUE;
}

static void close_files(recording_t *r)
{
    if (r->in != NULL && r->in != stdin)
        fclose(r->in);
    r->in = NULL;
    if (r->tr.f != NULL)
        fclose(r->tr.f);
    r->tr.f = NULL;
}

/*
 * Opens the script and the trace, starts the target and initializes the
 * session. Returns MC_OPTS_CONTINUE or the exit code to return, having said
 * why and released what it took.
 */
static int start_session(recording_t *r)
{
    mc_session_opts_t so;
    mc_errbuf_t eb;

    r->in = stdin;
    if (r->o.script != NULL && (r->in = fopen(r->o.script, "r")) == NULL) {
        perror(r->o.script);
        return MC_EXIT_USAGE;
    }
    if (r->o.trace != NULL && (r->tr.f = fopen(r->o.trace, "w")) == NULL) {
        perror(r->o.trace);
        close_files(r);
        return MC_EXIT_USAGE;
    }
    mc_errbuf_clear(&eb);
    if (rec_start(&r->t, r->o.url, r->o.allow_remote, r->o.cmd, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck record: %s\n", eb.msg);
        close_files(r);
        return MC_EXIT_INCOMPLETE;
    }
    r->tr.s = &r->s;
    r->tr.t = r->t;
    r->tr.t0 = mc_now_ms();
    memset(&so, 0, sizeof(so));
    so.observer = trace_observe;
    so.observer_ctx = &r->tr;
    if (mc_session_init(&r->s, mc_target_link(r->t), &so) != MC_OK ||
        mc_session_initialize(&r->s, r->o.version, NULL, (int)r->o.timeout, &eb) != MC_OK) {
        char why[300] = "";
        if (mc_target_url(r->t) != NULL)
            mc_target_explain(r->t, MC_EIO, "initialize", why, sizeof(why));
        fprintf(stderr, "mcpcheck record: initialize failed: %s%s%s\n", eb.msg,
                why[0] ? "; " : "", why);
        mc_session_free(&r->s);
        rec_stop(&r->t, &r->tr);
        close_files(r);
        return MC_EXIT_INCOMPLETE;
    }
    mc_target_after_handshake(r->t);
    /* A person at a terminal would otherwise see nothing happen: the
     * requests are read from them. */
    if (r->in == stdin && isatty(STDIN_FILENO))
        fprintf(stderr,
                "mcpcheck record: session open at %s; type one request per line "
                "(METHOD [PARAMS-JSON], e.g. tools/list), then Ctrl-D to write the "
                "scenario\n",
                r->s.negotiated_version);
    return MC_OPTS_CONTINUE;
}

/* The scenario's skeleton (new reference): a title and a placeholder check
 * to fill in, at the negotiated version; the steps are added at the end.
 * The recorded expectations are what this server answered, not a sentence
 * of the spec, so the placeholder is an author's check (SHOULD: a changed
 * answer warns, and fails the run with --strict) until it is replaced by
 * the author's own rule or by a spec sentence quoted verbatim. */
static json_object *skeleton(const mc_session_t *s)
{
    json_object *doc = json_object_new_object(), *spec = json_object_new_array();
    json_object *req = json_object_new_object();

    json_object_object_add(doc, "title", json_object_new_string("TODO: what this scenario shows"));
    json_object_object_add(req, "check", json_object_new_string("recorded/todo"));
    json_object_object_add(req, "author", json_object_new_boolean(1));
    json_object_object_add(req, "level", json_object_new_string("SHOULD"));
    json_object_object_add(req, "text", json_object_new_string("TODO: state your rule"));
    json_object_array_add(spec, req);
    json_object_object_add(doc, "spec", spec);
    json_object_object_add(doc, "versions", json_object_new_string(s->negotiated_version));
    return doc;
}

/* The assertion a step makes of the answer: the error message, or the
 * whole result (new reference). */
static json_object *expect_answer(const mc_msg_t *resp, json_object *step)
{
    json_object *as = json_object_new_array(), *a = json_object_new_object();

    if (resp->kind == MC_MSG_ERROR) {
        json_object *e = json_object_new_object();
        json_object_object_add(e, "error", json_object_new_int64(resp->error_code));
        json_object_object_add(step, "expect", e);
        json_object_object_add(a, "path", json_object_new_string("error.message"));
        json_object_object_add(a, "equals", json_object_new_string(resp->error_message));
    } else {
        json_object *copy = NULL;
        json_object_deep_copy(resp->result, &copy, NULL);
        json_object_object_add(a, "path", json_object_new_string("result"));
        json_object_object_add(a, "equals", copy);
    }
    json_object_array_add(as, a);
    return as;
}

/*
 * Sends the request of one script line and records it as a step, with the
 * notifications that came with it. A line that is no request is reported
 * (exit code 2, recording goes on). Returns -1 when the request failed
 * (reported; recording stops), 0 otherwise.
 */
static int record_line(recording_t *r, const char *line, int lineno)
{
    const char *method = NULL;
    char mbuf[256];
    json_object *params, *step;
    mc_msg_t resp, note;
    int rc;

    params = parse_script_line(line, &method, mbuf, sizeof(mbuf));
    if (params == NULL) {
        fprintf(stderr, "mcpcheck record: %s:%d: not a request (METHOD [PARAMS] or JSON)\n",
                r->o.script ? r->o.script : "stdin", lineno);
        r->code = MC_EXIT_USAGE;
        return 0;
    }
    step = json_object_new_object();
    json_object_object_add(step, "request", json_object_new_string(method));
    json_object_object_add(step, "params", json_object_get(params));
    rc = mc_session_request(&r->s, method, params, (int)r->o.timeout, &resp);
    if (rc != MC_OK) {
        fprintf(stderr, "mcpcheck record: %s: %s; stopping\n", method, mc_strerror(rc));
        json_object_put(step);
        r->code = MC_EXIT_INCOMPLETE;
        return -1;
    }
    json_object_object_add(step, "assert", expect_answer(&resp, step));
    json_object_array_add(r->steps, step);
    mc_msg_free(&resp);
    while (mc_session_next_notification(&r->s, 0, &note) == MC_OK) {
        json_object *ns = json_object_new_object();
        json_object_object_add(ns, "expect_notification", json_object_new_string(note.method));
        json_object_array_add(r->steps, ns);
        mc_msg_free(&note);
    }
    return 0;
}

/* Sends every request of the script, recording the steps. */
static void record_script(recording_t *r)
{
    char *line = malloc(MC_RECORD_MAX_LINE);
    int lineno = 0;

    while (line != NULL && fgets(line, MC_RECORD_MAX_LINE, r->in) != NULL) {
        lineno++;
        if (line[0] == '#' || strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (record_line(r, line, lineno) != 0)
            break;
    }
    free(line);
}

/* Ends the session and the trace. */
static void stop_session(recording_t *r)
{
    mc_session_free(&r->s);
    rec_stop(&r->t, &r->tr);
    if (r->in != stdin)
        fclose(r->in);
    r->in = NULL;
    if (r->tr.f == NULL)
        return;
    trace_notes(&r->tr);
    if (fclose(r->tr.f) != 0 || r->tr.failed) {
        fprintf(stderr, "mcpcheck record: cannot write %s\n", r->o.trace);
        r->code = MC_EXIT_INCOMPLETE;
    } else {
        fprintf(stderr, "mcpcheck record: wrote the trace %s\n", r->o.trace);
    }
    r->tr.f = NULL;
}

/* Writes the scenario to out_path (standard output when NULL); returns
 * code, or MC_EXIT_INCOMPLETE when it could not be written. */
static int write_scenario(json_object *doc, const char *out_path, int code)
{
    const char *text = json_object_to_json_string_ext(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    const char *header = "// Recorded by mcpcheck record: trim the expectations to what the "
                         "rule requires\n// and state the rule in \"spec\" before use (your "
                         "own rule, \"author\": true,\n// or a spec sentence quoted verbatim: "
                         "scenarios/README.md).\n";
    size_t hl = strlen(header), tl = strlen(text);
    char *all;
    mc_errbuf_t eb;

    if (out_path == NULL) {
        printf("%s%s\n", header, text);
        return code;
    }
    all = malloc(hl + tl + 2);
    if (all == NULL)
        return code;
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
    return code;
}

int mc_cmd_record(int argc, char **argv)
{
    static recording_t r;
    int code;

    memset(&r, 0, sizeof(r));
    code = record_options(argc, argv, &r.o);
    if (code != MC_OPTS_CONTINUE)
        return code;
    code = start_session(&r);
    if (code != MC_OPTS_CONTINUE)
        return code;
    r.code = MC_EXIT_OK;
    r.doc = skeleton(&r.s);
    r.steps = json_object_new_array();
    record_script(&r);
    json_object_object_add(r.doc, "steps", r.steps);
    stop_session(&r);
    if (json_object_array_length(r.steps) == 0) {
        fprintf(stderr, "mcpcheck record: no requests were recorded\n");
        json_object_put(r.doc);
        return r.code == MC_EXIT_OK ? MC_EXIT_USAGE : r.code;
    }
    code = write_scenario(r.doc, r.o.out, r.code);
    json_object_put(r.doc);
    return code;
}
