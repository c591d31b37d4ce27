/*
 * finding.c - a minimized finding as a scenario file (raw steps), its JSONL
 * trace, its stderr tail and a line of findings/index.tsv.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "core/json.h"
#include "judge/builtin.h"
#include "scenario/httprun.h"
#include "core/version.h"

#define PATH_LEN 4096
/* Quiet window for a step that expects no answer, in milliseconds. */
#define NONE_WINDOW_MS 50

#define PING_QUOTE "The receiver MUST respond promptly with an empty response"
#define PING_PAGE "basic/utilities/ping#behavior-requirements"
/* At a stateless version, which has no ping, server/discover asks instead. */
#define DISCOVER_QUOTE "Servers MUST implement it."
#define DISCOVER_PAGE "server/discover"
#define RESPONSES_QUOTE                                                                            \
    "Responses are sent in reply to requests, containing the result or error of the operation."
#define STDIO_QUOTE                                                                                \
    "The server reads JSON-RPC messages from its standard input (stdin) and sends messages to "    \
    "its standard output (stdout)."

const char *mc_campaign_quote_at(size_t i)
{
    static const char *const quotes[] = {PING_QUOTE, DISCOVER_QUOTE, RESPONSES_QUOTE, STDIO_QUOTE};

    return i < sizeof(quotes) / sizeof(quotes[0]) ? quotes[i] : NULL;
}

/* A requirement entry in the scenario form (new reference). */
static json_object *requirement(const char *check, const char *level, const char *quote,
                                const char *version, const char *page, const char *interp)
{
    json_object *r = json_object_new_object(), *refs = json_object_new_object();

    json_object_object_add(r, "check", json_object_new_string(check));
    json_object_object_add(r, "level", json_object_new_string(level));
    json_object_object_add(r, "quote", json_object_new_string(quote));
    json_object_object_add(refs, version, json_object_new_string(page));
    json_object_object_add(r, "refs", refs);
    if (interp != NULL)
        json_object_object_add(r, "interpretation", json_object_new_string(interp));
    return r;
}

/*
 * The ping sentence's requirement (new reference): its words are the same
 * on the ping page of every version before the stateless one, and the refs
 * name each, so that a finding replays at its level at whichever of them
 * the campaign ran (a check whose refs miss the run's version is INFO).
 */
static json_object *ping_requirement(const char *check, const char *interp)
{
    json_object *r = requirement(check, "MUST", PING_QUOTE, MC_VERSION_BASELINE, PING_PAGE, interp);
    json_object *refs = json_object_new_object();
    const char *const *v;

    for (v = mc_version_names(); *v != NULL; v++)
        if (!mc_version_has(*v, MC_VF_STATELESS))
            json_object_object_add(refs, *v, json_object_new_string(PING_PAGE));
    json_object_object_add(r, "refs", refs); /* replaces the baseline's */
    return r;
}

/* The requirement a process-level finding reports to: the spec sentence
 * nearest to what was seen (new reference). A stateless version has no
 * ping, so an unanswered one there is any unanswered request. */
static json_object *process_requirement(const mc_exec_finding_t *f, const char *check_id,
                                        int stateless)
{
    if (strcmp(f->check, "process/hang") == 0 && strcmp(f->method, "ping") == 0 && !stateless)
        return ping_requirement(check_id, "A ping left without an answer for the campaign's "
                                          "hang budget was not answered promptly.");
    if (strcmp(f->check, "process/hang") == 0)
        return requirement(check_id, "INFO", RESPONSES_QUOTE, MC_VERSION_BASELINE,
                           "basic#responses",
                           "A request left without an answer for the campaign's hang budget; "
                           "whether the server still serves is the ping at the end.");
    return requirement(check_id, "INFO", STDIO_QUOTE, MC_VERSION_BASELINE, "basic/transports#stdio",
                       strcmp(f->check, "process/memory") == 0
                           ? "The server grew past the campaign's memory limit while serving "
                             "these messages (the replay does not measure memory)."
                           : "The server died (signal, sanitizer report or exit) while reading "
                             "these messages; a replay that sees it die is an ERROR.");
}

/* The requirement of a built-in check, in the scenario form (new reference). */
static json_object *builtin_requirement(const mc_check_def_t *d, const char *check_id)
{
    json_object *r = json_object_new_object(), *refs = json_object_new_object();
    json_object *quotes = json_object_new_object();
    size_t i;

    json_object_object_add(r, "check", json_object_new_string(check_id));
    json_object_object_add(r, "level", json_object_new_string(mc_level_name(d->level)));
    json_object_object_add(r, "quote", json_object_new_string(d->quote));
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++) {
        json_object_object_add(refs, d->refs[i].version, json_object_new_string(d->refs[i].page));
        if (d->refs[i].quote != NULL)
            json_object_object_add(quotes, d->refs[i].version,
                                   json_object_new_string(d->refs[i].quote));
    }
    json_object_object_add(r, "refs", refs);
    if (json_object_object_length(quotes) > 0)
        json_object_object_add(r, "quotes", quotes);
    else
        json_object_put(quotes);
    if (d->interpretation != NULL)
        json_object_object_add(r, "interpretation", json_object_new_string(d->interpretation));
    return r;
}

/* Lowercase id-safe slug of s. */
static void slug(const char *s, char *out, size_t n)
{
    size_t o = 0;

    for (; *s != '\0' && o + 1 < n; s++) {
        char ch = *s;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
            ch == '.' || ch == '/')
            out[o++] = ch;
        else if (o > 0 && out[o - 1] != '-')
            out[o++] = '-';
    }
    while (o > 0 && (out[o - 1] == '-' || out[o - 1] == '/'))
        o--;
    out[o] = '\0';
}

/* Writes a comment line with no newline or comment terminator inside. */
static void comment(FILE *f, const char *label, const char *text)
{
    fprintf(f, "// %s", label);
    for (; *text != '\0'; text++)
        fputc(*text == '\n' || *text == '\r' ? ' ' : *text, f);
    fputc('\n', f);
}

static json_object *build_scenario(const mc_campaign_opts_t *o, const char *version,
                                   json_object *seq, const mc__camp_found_t *fd,
                                   const mc_exec_outcome_t *rec, const char *check_id)
{
    const mc_check_def_t *b = mc_builtin_check(fd->f.check);
    int http_check = strncmp(fd->f.check, "http/", 5) == 0;
    json_object *sc = json_object_new_object(), *spec = json_object_new_array();
    json_object *steps = json_object_new_array();
    json_object *client = json_object_new_object(), *tags = json_object_new_array();
    size_t i, n = json_object_array_length(seq);
    char title[300];
    int stateless = mc_version_has(o->version, MC_VF_STATELESS);

    snprintf(title, sizeof(title), "fuzz finding: %s%s%s", fd->f.check,
             fd->f.method[0] ? " on " : "", fd->f.method);
    json_object_object_add(sc, "title", json_object_new_string(title));
    json_object_object_add(sc, "description", json_object_new_string(fd->f.detail));
    if (b == NULL && http_check)
        b = mc_httprun_check(fd->f.check);
    if (http_check) {
        /* A rule of the HTTP transport: a stdio run has nothing to judge. */
        json_object *req = json_object_new_object();
        json_object_object_add(req, "transport", json_object_new_string("http"));
        json_object_object_add(sc, "requires", req);
    }
    json_object_array_add(spec, b != NULL && b->quote != NULL ? builtin_requirement(b, check_id)
                                                              : process_requirement(&fd->f, check_id, stateless));
    json_object_array_add(spec, stateless ? requirement("fuzz/keeps-serving", "MUST", DISCOVER_QUOTE,
                                                        MC_VN_2026_07_28, DISCOVER_PAGE,
                                                        "After the messages of the finding, the "
                                                        "server still answers a server/discover "
                                                        "request (with a result or an error).")
                                          : ping_requirement("fuzz/keeps-serving",
                                                             "After the messages of the finding, "
                                                             "the server still answers a ping."));
    json_object_object_add(sc, "spec", spec);
    json_object_object_add(client, "capabilities",
                           json_tokener_parse(stateless ? "{\"roots\": {}, \"sampling\": {}, "
                                                          "\"elicitation\": {}}"
                                                        : "{\"roots\": {\"listChanged\": true}, "
                                                          "\"sampling\": {}, \"elicitation\": {}}"));
    json_object_object_add(client, "version", json_object_new_string(o->version));
    json_object_object_add(sc, "client", client);
    json_object_array_add(tags, json_object_new_string("fuzz"));
    json_object_object_add(sc, "tags", tags);
    (void)version;
    for (i = 0; i < n && i < sizeof(rec->sent); i++) {
        json_object *el = json_object_array_get_idx(seq, i), *st;
        const char *line;
        if (!rec->sent[i])
            continue; /* a tool call the campaign did not make */
        if (mc_exec_is_answer(el)) {
            /* How the client answered the server's requests: the scenario's
             * own answer step, same form. */
            json_object *body = mc_json_get(el, "with"), *cp = NULL;
            st = json_object_new_object();
            json_object_object_add(st, "answer",
                                   json_object_new_string(mc_json_get_str(el, "answer")));
            if (body == NULL)
                body = mc_json_get(el, "error");
            if (json_object_deep_copy(body, &cp, NULL) != 0)
                cp = json_object_new_object();
            json_object_object_add(st, mc_json_get(el, "with") != NULL ? "with" : "error", cp);
            json_object_array_add(steps, st);
            continue;
        }
        line = json_object_is_type(el, json_type_string)
                   ? json_object_get_string(el)
                   : json_object_to_json_string_ext(el, JSON_C_TO_STRING_PLAIN |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE);
        st = json_object_new_object();
        json_object_object_add(st, "raw", json_object_new_string(line));
        if (rec->answered[i] || rec->replied[i] ||
            (strcmp(fd->f.check, "process/hang") == 0 && mc_json_get(el, "id") != NULL &&
             !rec->answered[i])) {
            json_object_object_add(st, "expect", json_object_new_string("any"));
            json_object_object_add(st, "within",
                                   json_object_new_int(o->hang_ms > 0 ? o->hang_ms
                                                                      : MC_EXEC_HANG_MS));
        } else {
            json_object_object_add(st, "expect", json_object_new_string("none"));
            json_object_object_add(st, "within", json_object_new_int(NONE_WINDOW_MS));
        }
        json_object_array_add(steps, st);
    }
    /* The server is asked once more whether it still serves: a finding of
     * the session prefix alone then has a step too. At a stateless version
     * a request step, which the runner stamps with the per-request _meta. */
    {
        json_object *st = json_object_new_object();
        int budget = o->hang_ms > 0 ? o->hang_ms : MC_EXEC_HANG_MS;
        if (stateless) {
            json_object_object_add(st, "request", json_object_new_string("server/discover"));
            json_object_object_add(st, "timeout", json_object_new_int(budget));
        } else {
            json_object_object_add(st, "raw",
                                   json_object_new_string("{\"jsonrpc\":\"2.0\",\"id\":\"mcpcheck-"
                                                          "fuzz-ping\",\"method\":\"ping\"}"));
            json_object_object_add(st, "within", json_object_new_int(budget));
        }
        json_object_object_add(st, "expect", json_object_new_string("any"));
        json_object_object_add(st, "check", json_object_new_string("fuzz/keeps-serving"));
        json_object_array_add(steps, st);
    }
    json_object_object_add(sc, "steps", steps);
    return sc;
}

/* The base name of f's files (check, method and a hash of the signature)
 * and the check id of its scenario ("fuzz/..."). */
static void file_base(const mc_exec_finding_t *f, char *base, size_t nb, char *check_id, size_t nc)
{
    uint64_t h = mc__camp_hash(f->sig, strlen(f->sig));
    char s[420], flat[420];
    size_t i;

    snprintf(s, sizeof(s), "%s%s%s", f->check, f->method[0] ? "-" : "", f->method);
    slug(s, flat, sizeof(flat));
    snprintf(check_id, nc, "fuzz/%.300s", flat);
    for (i = 0; flat[i] != '\0'; i++)
        if (flat[i] == '/' || flat[i] == '.')
            flat[i] = '-';
    snprintf(base, nb, "%.80s-%08llx", flat, (unsigned long long)(h & 0xffffffffu));
}

void mc__camp_drop_finding(const mc_campaign_opts_t *o, const char *sub,
                           const mc_exec_finding_t *f)
{
    static const char *const ext[] = {"jsonc", "jsonl", "stderr.txt"};
    char base[200], check_id[420], path[PATH_LEN];
    size_t i;

    file_base(f, base, sizeof(base), check_id, sizeof(check_id));
    for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
        if (snprintf(path, sizeof(path), "%s/%s/%s.%s", o->out_dir, sub, base, ext[i]) <
            (int)sizeof(path))
            (void)unlink(path);
}

int mc__camp_write_finding(const mc_campaign_opts_t *o, const char *sub, const char *version,
                           json_object *seq, const mc__camp_found_t *fd,
                           const mc_exec_outcome_t *rec)
{
    char base[200], check_id[420], path[PATH_LEN];
    json_object *sc;
    FILE *f;
    int fdi, ok = 0;

    file_base(&fd->f, base, sizeof(base), check_id, sizeof(check_id));
    sc = build_scenario(o, version, seq, fd, rec, check_id);
    if (sc == NULL)
        return -1;
    if (snprintf(path, sizeof(path), "%s/%s/%s.jsonc", o->out_dir, sub, base) < (int)sizeof(path) &&
        (f = fopen(path, "w")) != NULL) {
        comment(f, "mcpcheck fuzz finding. Signature: ", fd->f.sig);
        comment(f, "Seen: ", fd->f.detail);
        fprintf(f, "// Found after %.1f s (seed %llu, worker %d); %s",
                (double)fd->found_ms / 1000.0, (unsigned long long)o->seed, o->worker,
                fd->reproduced ? "reproduced on a fresh process" : "NOT reproduced on a fresh process");
        if (fd->reproduced && fd->carried)
            fprintf(f, " after the end of the sequence run before it in its process");
        else if (fd->reproduced && fd->before > 0)
            fprintf(f, " after the %zu sequence%s run before it in its process",
                    fd->before, fd->before == 1 ? "" : "s");
        fprintf(f, "; minimized from %zu to %zu messages in %u runs.\n", fd->orig_len,
                fd->min_len, fd->min_runs);
        fprintf(f, "// Replay: mcpcheck run --scenarios %s -- SERVER_CMD\n", path);
        fputs(json_object_to_json_string_ext(sc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                     JSON_C_TO_STRING_NOSLASHESCAPE),
              f);
        fputc('\n', f);
        ok = fclose(f) == 0;
    }
    json_object_put(sc);
    if (rec->trace != NULL &&
        snprintf(path, sizeof(path), "%s/%s/%s.jsonl", o->out_dir, sub, base) < (int)sizeof(path))
        mc__camp_write_file(path, rec->trace, rec->trace_len);
    if (rec->tail[0] != '\0' &&
        snprintf(path, sizeof(path), "%s/%s/%s.stderr.txt", o->out_dir, sub, base) < (int)sizeof(path))
        mc__camp_write_file(path, rec->tail, strlen(rec->tail));
    /* One line per finding; O_APPEND keeps the workers' lines whole. */
    if (snprintf(path, sizeof(path), "%s/%s/index.tsv", o->out_dir, sub) < (int)sizeof(path) &&
        (fdi = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
        char line[1400], detail[400];
        size_t i;
        int n;
        snprintf(detail, sizeof(detail), "%s", fd->f.detail);
        for (i = 0; detail[i] != '\0'; i++)
            if (detail[i] == '\t' || detail[i] == '\n' || detail[i] == '\r')
                detail[i] = ' ';
        n = snprintf(line, sizeof(line), "%.3f\t%s\t%s\t%s\t%s.jsonc\t%zu\t%zu\t%u\t%s\t%s\n",
                     (double)fd->found_ms / 1000.0, fd->f.check,
                     fd->f.method[0] ? fd->f.method : "-", fd->f.sig, base, fd->orig_len,
                     fd->min_len, fd->min_runs, fd->reproduced ? "yes" : "no", detail);
        if (n > 0)
            (void)!write(fdi, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
        close(fdi);
    }
    return ok ? 0 : -1;
}
