/*
 * test_diff.c - differential test: the bundled MCP schemas against the
 * official ones.
 *
 * usage: test_schema_diff BUNDLED_DIR OFFICIAL_DIR [VERSION...]
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
 * Exit 0 when all agree, 1 otherwise, 77 (skip) when OFFICIAL_DIR is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "schema/registry.h"

typedef struct base {
    const char *name;
    const char *since;    /* first version that has it */
    const char *answered; /* responses: the method answered */
    const char *json;
} base_t;

/* The corpus: one valid message per kind the harness meets. */
static const base_t bases[] = {
    {"initialize-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
     "\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
     "\"elicitation\":{}},\"clientInfo\":{\"name\":\"mcpcheck\",\"version\":\"0.1.0\"}}}"},
    {"initialize-result", "2025-06-18", "initialize",
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\","
     "\"capabilities\":{\"logging\":{},\"completions\":{},\"prompts\":{\"listChanged\":true},"
     "\"resources\":{\"subscribe\":true,\"listChanged\":true},\"tools\":{\"listChanged\":false}},"
     "\"serverInfo\":{\"name\":\"ref\",\"title\":\"Reference\",\"version\":\"1.0\"},"
     "\"instructions\":\"Use the tools.\"}}"},
    {"initialized", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"},
    {"ping-request", "2025-06-18", NULL, "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}"},
    {"ping-result", "2025-06-18", "ping", "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"result\":{}}"},
    {"resources-list-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\",\"params\":{\"cursor\":\"c1\"}}"},
    {"resources-list-result", "2025-06-18", "resources/list",
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resources\":[{\"uri\":\"test://static-text\","
     "\"name\":\"static-text\",\"title\":\"Static text\",\"description\":\"A text resource\","
     "\"mimeType\":\"text/plain\",\"size\":12,\"annotations\":{\"audience\":[\"user\","
     "\"assistant\"],\"priority\":0.5,\"lastModified\":\"2025-01-12T15:00:58Z\"}},"
     "{\"uri\":\"file:///tmp/a.bin\",\"name\":\"a.bin\"}],\"nextCursor\":\"c2\"}}"},
    {"resource-templates-result", "2025-06-18", "resources/templates/list",
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resourceTemplates\":[{\"uriTemplate\":"
     "\"test://template/{id}/data\",\"name\":\"template\",\"mimeType\":\"application/json\","
     "\"annotations\":{\"priority\":1}}]}}"},
    {"resources-read-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":"
     "\"test://static-text\"}}"},
    {"resources-read-result", "2025-06-18", "resources/read",
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"contents\":[{\"uri\":\"test://static-text\","
     "\"mimeType\":\"text/plain\",\"text\":\"hello\"},{\"uri\":\"test://static-binary\","
     "\"mimeType\":\"image/png\",\"blob\":\"iVBORw0KGgo=\"}]}}"},
    {"resources-subscribe", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/subscribe\",\"params\":{\"uri\":"
     "\"test://watched-resource\"}}"},
    {"resources-updated", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":"
     "\"test://watched-resource\"}}"},
    {"resources-list-changed", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}"},
    {"prompts-list-result", "2025-06-18", "prompts/list",
     "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"prompts\":[{\"name\":"
     "\"test_prompt_with_arguments\",\"description\":\"With arguments\",\"arguments\":"
     "[{\"name\":\"arg1\",\"description\":\"First\",\"required\":true},{\"name\":\"arg2\"}]}],"
     "\"nextCursor\":\"n\"}}"},
    {"prompts-get-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":"
     "\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"a\",\"arg2\":\"b\"}}}"},
    {"prompts-get-result", "2025-06-18", "prompts/get",
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"description\":\"d\",\"messages\":["
     "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\",\"annotations\":"
     "{\"audience\":[\"user\"]}}},"
     "{\"role\":\"assistant\",\"content\":{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\","
     "\"mimeType\":\"image/png\"}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"audio\",\"data\":\"UklGRg==\",\"mimeType\":"
     "\"audio/wav\"}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":"
     "\"test://static-text\",\"mimeType\":\"text/plain\",\"text\":\"t\"}}},"
     "{\"role\":\"user\",\"content\":{\"type\":\"resource_link\",\"uri\":\"test://static-text\","
     "\"name\":\"static-text\",\"mimeType\":\"text/plain\"}}]}}"},
    {"tools-list-result", "2025-06-18", "tools/list",
     "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"tools\":[{\"name\":\"test_simple_text\","
     "\"title\":\"Simple\",\"description\":\"Returns text\",\"inputSchema\":{\"type\":\"object\","
     "\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]},\"outputSchema\":"
     "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}},\"annotations\":"
     "{\"title\":\"S\",\"readOnlyHint\":true,\"destructiveHint\":false,\"idempotentHint\":true,"
     "\"openWorldHint\":false}}]}}"},
    {"tools-call-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":"
     "\"test_tool_with_progress\",\"arguments\":{\"steps\":3},\"_meta\":{\"progressToken\":"
     "\"tok\"}}}"},
    {"tools-call-result", "2025-06-18", "tools/call",
     "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"},"
     "{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\"}],"
     "\"structuredContent\":{\"n\":1},\"isError\":false}}"},
    {"progress", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
     "\"tok\",\"progress\":1,\"total\":3,\"message\":\"step 1\"}}"},
    {"cancelled", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9,"
     "\"reason\":\"user\"}}"},
    {"set-level", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"logging/setLevel\",\"params\":{\"level\":"
     "\"warning\"}}"},
    {"log-message", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\","
     "\"logger\":\"db\",\"data\":{\"error\":\"down\"}}}"},
    {"complete-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"completion/complete\",\"params\":{\"ref\":"
     "{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"},\"argument\":{\"name\":"
     "\"arg1\",\"value\":\"a\"},\"context\":{\"arguments\":{\"arg2\":\"b\"}}}}"},
    {"complete-result", "2025-06-18", "completion/complete",
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":{\"completion\":{\"values\":[\"a1\",\"a2\"],"
     "\"total\":2,\"hasMore\":false}}}"},
    {"elicit-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"elicitation/create\",\"params\":{\"message\":"
     "\"Who?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":"
     "\"string\",\"title\":\"Name\",\"minLength\":1,\"maxLength\":50,\"format\":\"email\"},"
     "\"age\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":150},\"ok\":{\"type\":\"boolean\","
     "\"default\":false},\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"blue\"],"
     "\"enumNames\":[\"Red\",\"Blue\"]}},\"required\":[\"name\"]}}}"},
    {"elicit-result", "2025-06-18", "elicitation/create",
     "{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{\"action\":\"accept\",\"content\":{\"name\":"
     "\"a@b.c\",\"age\":30,\"ok\":true}}}"},
    {"sampling-request", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"sampling/createMessage\",\"params\":"
     "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],"
     "\"modelPreferences\":{\"hints\":[{\"name\":\"claude\"}],\"costPriority\":0.3,"
     "\"speedPriority\":0.5,\"intelligencePriority\":0.9},\"systemPrompt\":\"s\","
     "\"includeContext\":\"thisServer\",\"temperature\":0.7,\"maxTokens\":100,"
     "\"stopSequences\":[\"x\"]}}"},
    {"sampling-result", "2025-06-18", "sampling/createMessage",
     "{\"jsonrpc\":\"2.0\",\"id\":13,\"result\":{\"role\":\"assistant\",\"content\":{\"type\":"
     "\"text\",\"text\":\"hello\"},\"model\":\"m\",\"stopReason\":\"endTurn\"}}"},
    {"roots-list-result", "2025-06-18", "roots/list",
     "{\"jsonrpc\":\"2.0\",\"id\":14,\"result\":{\"roots\":[{\"uri\":\"file:///home/u/p\","
     "\"name\":\"p\"}]}}"},
    {"error-response", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":15,\"error\":{\"code\":-32002,\"message\":\"Resource not "
     "found\",\"data\":{\"uri\":\"test://nope\"}}}"},
    {"tools-list-changed", "2025-06-18", NULL,
     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"},
    {"elicit-url-request", "2025-11-25", NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"elicitation/create\",\"params\":{\"mode\":"
     "\"url\",\"message\":\"Sign in\",\"url\":\"https://example.com/auth\",\"elicitationId\":"
     "\"e-1\"}}"},
    {"tasks-get-result", "2025-11-25", "tasks/get",
     "{\"jsonrpc\":\"2.0\",\"id\":17,\"result\":{\"taskId\":\"t1\",\"status\":\"working\","
     "\"createdAt\":\"2025-11-25T10:00:00Z\",\"lastUpdatedAt\":\"2025-11-25T10:00:01Z\","
     "\"ttl\":60000,\"pollInterval\":500}}"},
    {"tool-with-icons", "2025-11-25", "tools/list",
     "{\"jsonrpc\":\"2.0\",\"id\":18,\"result\":{\"tools\":[{\"name\":\"t\",\"inputSchema\":"
     "{\"type\":\"object\"},\"icons\":[{\"src\":\"https://example.com/i.png\",\"mimeType\":"
     "\"image/png\",\"sizes\":[\"48x48\"]}]}]}}"},
};

typedef struct ctx {
    mc_registry_t *bundled, *official;
    const char *version;
    const base_t *base;
    json_object *root;
    int compared, differ, deliberate;
    mc_schema_report_t rb, ro;
} ctx_t;

static int version_ge(const char *a, const char *b)
{
    return strcmp(a, b) >= 0;
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

/* Validates the current state of the message with both sets and compares. */
static void compare(ctx_t *c, const char *what)
{
    mc_errbuf_t eb;
    int vb, vo;

    mc_errbuf_clear(&eb);
    mc_schema_report_clear(&c->rb);
    mc_schema_report_clear(&c->ro);
    vb = mc_registry_validate_message(c->bundled, c->version, c->root, c->base->answered, &c->rb,
                                      &eb) == MC_OK;
    vo = mc_registry_validate_message(c->official, c->version, c->root, c->base->answered, &c->ro,
                                      &eb) == MC_OK;
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

int main(int argc, char **argv)
{
    static const char *const default_versions[] = {"2025-06-18", "2025-11-25"};
    const char *const *versions = default_versions;
    size_t n_versions = 2, v, b;
    ctx_t c;
    mc_errbuf_t eb;
    struct stat st;
    int bad_bases = 0, total_cmp = 0, total_diff = 0, total_deliberate = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s BUNDLED_DIR OFFICIAL_DIR [VERSION...]\n", argv[0]);
        return 2;
    }
    if (stat(argv[2], &st) != 0) {
        printf("SKIP: official schemas not found at %s (the spec checkout ../shared/spec is "
               "absent)\n",
               argv[2]);
        return 77;
    }
    if (argc > 3) {
        versions = (const char *const *)argv + 3;
        n_versions = (size_t)argc - 3;
    }
    memset(&c, 0, sizeof(c));
    mc_errbuf_clear(&eb);
    if (mc_registry_new(&c.bundled, argv[1], MC_REGISTRY_BUNDLED, &eb) != MC_OK ||
        mc_registry_new(&c.official, argv[2], MC_REGISTRY_UPSTREAM, &eb) != MC_OK) {
        printf("FAIL: %s\n", eb.msg);
        return 1;
    }
    for (v = 0; v < n_versions; v++) {
        int ver_cmp = 0, ver_diff = 0;
        c.version = versions[v];
        mc_errbuf_clear(&eb);
        if (mc_registry_load(c.bundled, c.version, &eb) != MC_OK ||
            mc_registry_load(c.official, c.version, &eb) != MC_OK) {
            printf("FAIL %s: %s\n", c.version, eb.msg);
            bad_bases++;
            continue;
        }
        for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
            char path[1024] = "";
            int before_cmp = c.compared, before_diff = c.differ;
            int ok_b, ok_o;
            if (!version_ge(c.version, bases[b].since))
                continue;
            c.base = &bases[b];
            c.root = json_tokener_parse(bases[b].json);
            if (c.root == NULL) {
                printf("FAIL %s: base message does not parse\n", bases[b].name);
                bad_bases++;
                continue;
            }
            /* The base itself must be valid on both sides. */
            mc_schema_report_clear(&c.rb);
            mc_schema_report_clear(&c.ro);
            ok_b = mc_registry_validate_message(c.bundled, c.version, c.root, bases[b].answered,
                                                &c.rb, &eb) == MC_OK;
            ok_o = mc_registry_validate_message(c.official, c.version, c.root, bases[b].answered,
                                                &c.ro, &eb) == MC_OK;
            if (!ok_b || !ok_o) {
                printf("FAIL %s %s: base message invalid: bundled %s, official %s\n", c.version,
                       bases[b].name, ok_b ? "valid" : first_finding(&c.rb),
                       ok_o ? "valid" : first_finding(&c.ro));
                bad_bases++;
            }
            walk(&c, c.root, path, 0);
            json_object_put(c.root);
            printf("%s %-28s %4d mutations, %d differ\n", c.version, bases[b].name,
                   c.compared - before_cmp, c.differ - before_diff);
        }
        ver_cmp = c.compared;
        ver_diff = c.differ;
        total_cmp += ver_cmp;
        total_diff += ver_diff;
        total_deliberate += c.deliberate;
        c.compared = c.differ = c.deliberate = 0;
    }
    mc_registry_free(c.bundled);
    mc_registry_free(c.official);
    printf("\ndifferential: %d mutations compared, %d verdicts differ, %d differ at documented "
           "tightenings, %d bad base messages\n",
           total_cmp, total_diff, total_deliberate, bad_bases);
    printf("%d passed, %d failed\n", total_cmp - total_diff, total_diff + bad_bases);
    return total_diff == 0 && bad_bases == 0 ? 0 : 1;
}
