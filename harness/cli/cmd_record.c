/*
 * cmd_record.c - `mcpcheck record`: write a scenario skeleton from a live
 * session, with the observed responses as its expectations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/util.h"
#include "client/session.h"
#include "client/stdio.h"
#include "report/report.h"

#define MC_RECORD_MAX_LINE 65536

static void record_usage(FILE *out)
{
    fprintf(out,
            "usage: mcpcheck record [--script FILE] [-o FILE] [--spec-version V] [--timeout MS]\n"
            "                       -- SERVER_CMD [ARGS...]\n"
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
            "Example:\n"
            "  printf 'tools/list\\n' | mcpcheck record -o scenarios/tools/mine.jsonc -- ./server\n");
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
    long timeout = MC_DEFAULT_REQUEST_TIMEOUT_MS;
    char **cmd = NULL;
    FILE *in = stdin;
    mc_cli_target_opts_t topts;
    mc_stdio_t t;
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
    if (cmd == NULL || cmd[0] == NULL) {
        fprintf(stderr, "mcpcheck record: no server command; put it after '--'\n");
        return MC_EXIT_USAGE;
    }
    if (script != NULL && (in = fopen(script, "r")) == NULL) {
        perror(script);
        return MC_EXIT_USAGE;
    }
    memset(&topts, 0, sizeof(topts));
    topts.argv = cmd;
    mc_errbuf_clear(&eb);
    if (mc_cli_target_start(&t, &topts, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck record: %s\n", eb.msg);
        if (in != stdin)
            fclose(in);
        return MC_EXIT_INCOMPLETE;
    }
    if (mc_session_init(&s, mc_stdio_link(&t), NULL) != MC_OK ||
        mc_session_initialize(&s, version, NULL, (int)timeout, &eb) != MC_OK) {
        fprintf(stderr, "mcpcheck record: initialize failed: %s\n", eb.msg);
        mc_session_free(&s);
        mc_cli_target_stop(&t);
        mc_stdio_free(&t);
        if (in != stdin)
            fclose(in);
        return MC_EXIT_INCOMPLETE;
    }

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
    mc_cli_target_stop(&t);
    mc_stdio_free(&t);

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
