/*
 * deep_target.c - an MCP server (stdio) whose one bug sits behind a protocol
 * state: what coverage feedback is for.
 *
 * usage: mc-deep-target [--inject]
 *
 * It answers initialize, ping and the list methods with valid, empty
 * results, logging/setLevel with {}, completion/complete with no values,
 * and any other request with -32601; it ignores what is not a well-formed
 * request. It also walks a chain of requests: ping,
 * resources/templates/list, prompts/list, logging/setLevel, each one right
 * after the one before (any other request starts the chain again). With
 * --inject, a completion/complete that arrives once the whole chain was
 * walked gets a result whose "values" is not an array (a schema violation).
 * Every step of the chain gets the same answer whether or not it advanced
 * the chain, so only the server's own code shows the progress: the state
 * model of the responses cannot tell, an AFL++-instrumented build can.
 * The benchmark (scripts/bench.sh fuzz-coverage-deep) builds it with
 * afl-clang-fast; the smoke test does not use it.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest request line read. */
#define MAX_LINE (1u << 20)

static int g_inject;
static int g_stage;

static void reply(json_object *id, json_object *result, int code)
{
    json_object *r = json_object_new_object();

    json_object_object_add(r, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(r, "id", json_object_get(id));
    if (code != 0) {
        json_object *e = json_object_new_object();
        json_object_object_add(e, "code", json_object_new_int(code));
        json_object_object_add(e, "message", json_object_new_string("no such method"));
        json_object_object_add(r, "error", e);
        json_object_put(result);
    } else {
        json_object_object_add(r, "result", result);
    }
    printf("%s\n", json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN));
    fflush(stdout);
    json_object_put(r);
}

static json_object *with_array(const char *key)
{
    json_object *o = json_object_new_object();

    json_object_object_add(o, key, json_object_new_array());
    return o;
}

/* Advances the chain on method; each stage is its own branch, so that an
 * instrumented build records every step as an edge of its own. */
static void walk(const char *m)
{
    switch (g_stage) {
    case 0:
        g_stage = strcmp(m, "ping") == 0 ? 1 : 0;
        break;
    case 1:
        g_stage = strcmp(m, "resources/templates/list") == 0 ? 2 : 0;
        break;
    case 2:
        g_stage = strcmp(m, "prompts/list") == 0 ? 3 : 0;
        break;
    case 3:
        g_stage = strcmp(m, "logging/setLevel") == 0 ? 4 : 0;
        break;
    default:
        g_stage = 0;
        break;
    }
}

static json_object *completion(void)
{
    json_object *res = json_object_new_object(), *c = json_object_new_object();

    if (g_inject && g_stage == 4)
        json_object_object_add(c, "values", json_object_new_string("not an array"));
    else
        json_object_object_add(c, "values", json_object_new_array());
    json_object_object_add(res, "completion", c);
    return res;
}

static void handle(json_object *req)
{
    json_object *id = NULL, *mv = NULL, *v = NULL, *caps, *info, *res;
    const char *m;

    /* Only well-formed requests are served; the rest (malformed lines,
     * notifications, odd ids) is ignored, which the campaign never holds
     * against a server (it waits only for answers that are due). */
    if (!json_object_is_type(req, json_type_object) ||
        !json_object_object_get_ex(req, "method", &mv) || !json_object_is_type(mv, json_type_string) ||
        !json_object_object_get_ex(req, "jsonrpc", &v) || !json_object_is_type(v, json_type_string) ||
        strcmp(json_object_get_string(v), "2.0") != 0)
        return;
    m = json_object_get_string(mv);
    if (!json_object_object_get_ex(req, "id", &id) ||
        !(json_object_is_type(id, json_type_int) || json_object_is_type(id, json_type_string)))
        return;
    if (strcmp(m, "initialize") == 0) {
        res = json_object_new_object();
        caps = json_object_new_object();
        json_object_object_add(caps, "tools", json_object_new_object());
        json_object_object_add(caps, "prompts", json_object_new_object());
        json_object_object_add(caps, "resources", json_object_new_object());
        json_object_object_add(caps, "logging", json_object_new_object());
        json_object_object_add(caps, "completions", json_object_new_object());
        info = json_object_new_object();
        json_object_object_add(info, "name", json_object_new_string("mc-deep-target"));
        json_object_object_add(info, "version", json_object_new_string("1.0"));
        json_object_object_add(res, "protocolVersion", json_object_new_string("2025-06-18"));
        json_object_object_add(res, "capabilities", caps);
        json_object_object_add(res, "serverInfo", info);
        reply(id, res, 0);
        return;
    }
    if (strcmp(m, "completion/complete") == 0) {
        reply(id, completion(), 0);
        g_stage = 0;
        return;
    }
    walk(m);
    if (strcmp(m, "ping") == 0 || strcmp(m, "logging/setLevel") == 0)
        reply(id, json_object_new_object(), 0);
    else if (strcmp(m, "tools/list") == 0)
        reply(id, with_array("tools"), 0);
    else if (strcmp(m, "prompts/list") == 0)
        reply(id, with_array("prompts"), 0);
    else if (strcmp(m, "resources/list") == 0)
        reply(id, with_array("resources"), 0);
    else if (strcmp(m, "resources/templates/list") == 0)
        reply(id, with_array("resourceTemplates"), 0);
    else
        reply(id, NULL, -32601);
}

int main(int argc, char **argv)
{
    char *line = malloc(MAX_LINE);
    json_tokener *tok;

    g_inject = argc > 1 && strcmp(argv[1], "--inject") == 0;
    if (line == NULL)
        return 1;
    tok = json_tokener_new();
    if (tok == NULL)
        return 1;
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    while (fgets(line, (int)MAX_LINE, stdin) != NULL) {
        /* The whole line must be one JSON value: trailing bytes make it
         * malformed, and malformed lines are ignored. */
        size_t n = strlen(line), i;
        json_object *req;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        /* json-c takes raw control characters inside strings; JSON does
         * not: such a line is malformed too. */
        for (i = 0; i < n && (unsigned char)line[i] >= 0x20; i++)
            ;
        if (i < n)
            continue;
        json_tokener_reset(tok);
        req = json_tokener_parse_ex(tok, line, (int)n);
        if (req != NULL && json_tokener_get_parse_end(tok) == n)
            handle(req);
        json_object_put(req);
    }
    json_tokener_free(tok);
    free(line);
    return 0;
}
