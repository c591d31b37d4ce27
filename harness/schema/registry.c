/*
 * registry.c - MCP schemas per version; method -> definitions; message
 * validation with the envelope checked on its own (see registry.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datadir.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/jsonrpc.h"
#include "core/version.h"
#include "schema/registry.h"

/*
 * The result definition of each request method. The schemas do not say
 * which result answers which request (ServerResult and ClientResult are
 * unions), so this table does. A name missing from a version's schema falls
 * back to "Result" (any object with an optional _meta).
 */
static const struct {
    const char *method;
    const char *result;
} result_defs[] = {
    {"initialize", "InitializeResult"},
    {"ping", "EmptyResult"},
    {"resources/list", "ListResourcesResult"},
    {"resources/templates/list", "ListResourceTemplatesResult"},
    {"resources/read", "ReadResourceResult"},
    {"resources/subscribe", "EmptyResult"},
    {"resources/unsubscribe", "EmptyResult"},
    {"prompts/list", "ListPromptsResult"},
    {"prompts/get", "GetPromptResult"},
    {"tools/list", "ListToolsResult"},
    {"tools/call", "CallToolResult"},
    {"logging/setLevel", "EmptyResult"},
    {"completion/complete", "CompleteResult"},
    {"sampling/createMessage", "CreateMessageResult"},
    {"roots/list", "ListRootsResult"},
    {"elicitation/create", "ElicitResult"},
    {"tasks/get", "GetTaskResult"},
    {"tasks/result", "GetTaskPayloadResult"},
    {"tasks/list", "ListTasksResult"},
    {"tasks/cancel", "CancelTaskResult"},
    {"server/discover", "DiscoverResult"},
    {"subscriptions/listen", "SubscriptionsListenResult"},
};

/*
 * Error responses with a shape of their own, checked when the version's
 * schema defines them: the error code and the definition of the whole
 * response.
 */
static const struct {
    long code;
    const char *def;
} error_defs[] = {
    {MC_RPC_URL_ELICITATION_REQUIRED, "URLElicitationRequiredError"},
    {-32020, "HeaderMismatchError"},
    {-32021, "MissingRequiredClientCapabilityError"},
    {-32022, "UnsupportedProtocolVersionError"},
};

/*
 * Documented leniencies. The official schemas are generated from the
 * TypeScript schema.ts, where these fields are plain `number`; the generator
 * emitted "type": "integer" for them. The spec text nowhere requires them to
 * be integers, so a number with a fraction is accepted with a warning, not
 * an error (a peer sending `"size": 1.5` is odd, not non-conformant).
 * RequestId, ProgressToken and the JSON-RPC error code are NOT here: the
 * spec text says "string or integer" for the first two and JSON-RPC 2.0
 * says the code MUST be an integer.
 * Paths are steps from the definition: property names, "*" for
 * additionalProperties; $ref/allOf/anyOf are looked through.
 */
static const struct {
    const char *def;
    const char *path;
    const char *why;
} leniencies[] = {
    {"Resource", "size", "Resource.size is a TypeScript number"},
    {"ResourceLink", "size", "ResourceLink.size is a TypeScript number"},
    {"CreateMessageRequest", "params/maxTokens", "maxTokens is a TypeScript number"},
    {"CreateMessageRequestParams", "maxTokens", "maxTokens is a TypeScript number"},
    {"CompleteResult", "completion/total", "completion.total is a TypeScript number"},
    {"StringSchema", "minLength", "StringSchema.minLength is a TypeScript number"},
    {"StringSchema", "maxLength", "StringSchema.maxLength is a TypeScript number"},
    {"ElicitResult", "content/*", "elicitation content values are TypeScript numbers"},
    {"Task", "ttl", "Task.ttl is a TypeScript number"},
    {"Task", "pollInterval", "Task.pollInterval is a TypeScript number"},
    {"TaskMetadata", "ttl", "TaskMetadata.ttl is a TypeScript number"},
    {"TitledMultiSelectEnumSchema", "minItems", "minItems is a TypeScript number"},
    {"TitledMultiSelectEnumSchema", "maxItems", "maxItems is a TypeScript number"},
    {"UntitledMultiSelectEnumSchema", "minItems", "minItems is a TypeScript number"},
    {"UntitledMultiSelectEnumSchema", "maxItems", "maxItems is a TypeScript number"},
    {"JSONValue", "", "a JSONValue number is a TypeScript number"},
};

typedef struct method_def {
    const char *method; /* borrowed from the schema document */
    const char *def;    /* borrowed from the schema document */
    int is_request;
    uint32_t hash;      /* of method */
    const mc_schema_node_t *node;        /* the request or notification definition */
    const char *result_def;              /* requests: the result definition's name */
    const mc_schema_node_t *result_node; /* requests: the result definition */
    int input_required; /* requests: may be answered by an InputRequiredResult */
} method_def_t;

typedef struct version {
    char name[16];
    mc_schema_t *schema;
    method_def_t methods[MC_REGISTRY_MAX_METHODS];
    size_t n_methods;
    const mc_schema_node_t *env_request, *env_notification, *env_result, *env_error;
    const mc_schema_node_t *create_task_result, *input_required_result;
    const mc_schema_node_t *error_nodes[sizeof(error_defs) / sizeof(error_defs[0])];
} version_t;

struct mc_registry {
    char dir[1024];
    mc_registry_layout_t layout;
    version_t versions[MC_REGISTRY_MAX_VERSIONS];
    size_t n_versions;
};

const char *const *mc_registry_versions(void)
{
    return mc_version_names();
}

const char *mc_registry_bundled_dir(void)
{
    return mc_datadir_get(MC_DATA_SCHEMAS);
}

const char *mc_registry_leniency(size_t i, const char **path, const char **why)
{
    if (i >= sizeof(leniencies) / sizeof(leniencies[0]))
        return NULL;
    if (path != NULL)
        *path = leniencies[i].path;
    if (why != NULL)
        *why = leniencies[i].why;
    return leniencies[i].def;
}

int mc_registry_new(mc_registry_t **out, const char *dir, mc_registry_layout_t layout,
                    mc_errbuf_t *eb)
{
    mc_registry_t *reg;
    int n;

    reg = calloc(1, sizeof(*reg));
    if (reg == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory creating the schema registry");
    if (dir == NULL) {
        dir = mc_datadir_get(MC_DATA_SCHEMAS);
        layout = MC_REGISTRY_BUNDLED;
    }
    n = snprintf(reg->dir, sizeof(reg->dir), "%s", dir);
    if (n < 0 || (size_t)n >= sizeof(reg->dir)) {
        free(reg);
        return mc_errbuf_set(eb, MC_EINVAL, "schema folder path too long");
    }
    reg->layout = layout;
    *out = reg;
    return MC_OK;
}

void mc_registry_free(mc_registry_t *reg)
{
    size_t i;

    if (reg == NULL)
        return;
    for (i = 0; i < reg->n_versions; i++)
        mc_schema_free(reg->versions[i].schema);
    free(reg);
}

static version_t *find_version(const mc_registry_t *reg, const char *name)
{
    size_t i;

    for (i = 0; i < reg->n_versions; i++)
        if (strcmp(reg->versions[i].name, name) == 0)
            return (version_t *)&reg->versions[i];
    return NULL;
}

static int known_version(const char *name)
{
    return mc_version_find(name) != NULL;
}

/* The method a definition stands for: properties.method.const (or a
 * one-value enum). Borrowed, or NULL. */
static const char *def_method(json_object *def)
{
    json_object *props, *m, *c;

    if (!json_object_object_get_ex(def, "properties", &props) ||
        !json_object_object_get_ex(props, "method", &m))
        return NULL;
    if (json_object_object_get_ex(m, "const", &c) && json_object_is_type(c, json_type_string))
        return json_object_get_string(c);
    if (json_object_object_get_ex(m, "enum", &c) && json_object_is_type(c, json_type_array) &&
        json_object_array_length(c) == 1 &&
        json_object_is_type(json_object_array_get_idx(c, 0), json_type_string))
        return json_object_get_string(json_object_array_get_idx(c, 0));
    return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const mc_schema_node_t *first_def(const mc_schema_t *s, const char *a, const char *b)
{
    const mc_schema_node_t *n = mc_schema_definition(s, a);

    return n != NULL || b == NULL ? n : mc_schema_definition(s, b);
}

static uint32_t hash_str(const char *str)
{
    return mc_fnv1a32_str(MC_FNV1A32_INIT, str);
}

/* The result definition answering a request method: the table's name when
 * the schema has it, else "Result", else NULL. */
static const char *result_name(const mc_schema_t *s, const char *method)
{
    size_t i;

    for (i = 0; i < sizeof(result_defs) / sizeof(result_defs[0]); i++) {
        if (strcmp(result_defs[i].method, method) != 0)
            continue;
        if (mc_schema_definition(s, result_defs[i].result) != NULL)
            return result_defs[i].result;
        break;
    }
    return mc_schema_definition(s, "Result") != NULL ? "Result" : NULL;
}

/*
 * True when the version defines "<result>Response" (2026-07-28 and later)
 * and its result may be an InputRequiredResult: the multi round-trip
 * requests, answered either by their result or by a request for input.
 */
static int response_allows_input_required(const mc_schema_t *s, const char *result)
{
    char name[128];
    json_object *resp, *props, *res, *alts;
    size_t i;
    int n = snprintf(name, sizeof(name), "%sResponse", result);

    if (n < 0 || (size_t)n >= sizeof(name))
        return 0;
    resp = mc_schema_definition_json(s, name);
    if (resp == NULL || !json_object_object_get_ex(resp, "properties", &props) ||
        !json_object_object_get_ex(props, "result", &res) ||
        !json_object_object_get_ex(res, "anyOf", &alts) ||
        !json_object_is_type(alts, json_type_array))
        return 0;
    for (i = 0; i < json_object_array_length(alts); i++) {
        json_object *ref;
        if (json_object_object_get_ex(json_object_array_get_idx(alts, i), "$ref", &ref) &&
            json_object_is_type(ref, json_type_string) &&
            ends_with(json_object_get_string(ref), "/InputRequiredResult"))
            return 1;
    }
    return 0;
}

/* Fills the method table and the envelope nodes of a compiled version. */
static int index_version(version_t *v, mc_errbuf_t *eb)
{
    json_object *doc = mc_schema_document(v->schema);
    json_object *defs;
    struct lh_entry *e;
    size_t i;

    v->env_request = mc_schema_definition(v->schema, "JSONRPCRequest");
    v->env_notification = mc_schema_definition(v->schema, "JSONRPCNotification");
    v->env_result = first_def(v->schema, "JSONRPCResultResponse", "JSONRPCResponse");
    v->env_error = first_def(v->schema, "JSONRPCErrorResponse", "JSONRPCError");
    for (i = 0; i < sizeof(error_defs) / sizeof(error_defs[0]); i++)
        v->error_nodes[i] = mc_schema_definition(v->schema, error_defs[i].def);
    v->create_task_result = mc_schema_definition(v->schema, "CreateTaskResult");
    v->input_required_result = mc_schema_definition(v->schema, "InputRequiredResult");
    if (v->env_request == NULL || v->env_notification == NULL || v->env_result == NULL ||
        v->env_error == NULL)
        return mc_errbuf_set(eb, MC_ESCHEMA,
                             "schema %s lacks a JSON-RPC envelope definition (JSONRPCRequest, "
                             "JSONRPCNotification, JSONRPC(Result)Response, JSONRPCError(Response))",
                             v->name);
    if (!json_object_object_get_ex(doc, "$defs", &defs) &&
        !json_object_object_get_ex(doc, "definitions", &defs))
        return mc_errbuf_set(eb, MC_ESCHEMA, "schema %s has no definitions", v->name);
    for (e = json_object_get_object(defs)->head; e != NULL; e = e->next) {
        const char *name = (const char *)lh_entry_k(e);
        const char *method = def_method((json_object *)lh_entry_v(e));
        int is_request = ends_with(name, "Request");

        if (method == NULL || (!is_request && !ends_with(name, "Notification")))
            continue;
        if (v->n_methods == MC_REGISTRY_MAX_METHODS)
            return mc_errbuf_set(eb, MC_EFULL, "schema %s defines more than %d methods", v->name,
                                 MC_REGISTRY_MAX_METHODS);
        v->methods[v->n_methods].method = method;
        v->methods[v->n_methods].def = name;
        v->methods[v->n_methods].is_request = is_request;
        v->methods[v->n_methods].hash = hash_str(method);
        v->methods[v->n_methods].node = mc_schema_definition(v->schema, name);
        if (is_request) {
            const char *rd = result_name(v->schema, method);
            v->methods[v->n_methods].result_def = rd;
            v->methods[v->n_methods].result_node =
                rd != NULL ? mc_schema_definition(v->schema, rd) : NULL;
            v->methods[v->n_methods].input_required =
                rd != NULL && v->input_required_result != NULL &&
                response_allows_input_required(v->schema, rd);
        }
        v->n_methods++;
    }
    return MC_OK;
}

static void apply_leniencies(version_t *v)
{
    size_t i;

    for (i = 0; i < sizeof(leniencies) / sizeof(leniencies[0]); i++)
        (void)mc_schema_mark_lenient_integer(v->schema, leniencies[i].def, leniencies[i].path,
                                             leniencies[i].why);
}

int mc_registry_load(mc_registry_t *reg, const char *version, mc_errbuf_t *eb)
{
    char path[1200];
    char *buf = NULL;
    size_t len = 0;
    json_object *doc = NULL;
    version_t *v;
    mc_errbuf_t inner;
    int n, rc;

    if (find_version(reg, version) != NULL)
        return MC_OK;
    if (!known_version(version)) {
        char names[160];
        size_t o = 0;
        int i;
        names[0] = '\0';
        for (i = 0; i < MC_V_COUNT && o < sizeof(names); i++)
            o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "",
                                  mc_version_name(i));
        return mc_errbuf_set(eb, MC_ENOTFOUND, "unknown protocol version \"%.40s\" (known: %s)",
                             version, names);
    }
    if (reg->n_versions == MC_REGISTRY_MAX_VERSIONS)
        return mc_errbuf_set(eb, MC_EFULL, "too many schema versions loaded");
    if (reg->layout == MC_REGISTRY_UPSTREAM)
        n = snprintf(path, sizeof(path), "%s/%s/schema.json", reg->dir, version);
    else
        n = snprintf(path, sizeof(path), "%s/%s.json", reg->dir, version);
    if (n < 0 || (size_t)n >= sizeof(path))
        return mc_errbuf_set(eb, MC_EINVAL, "schema path too long");
    rc = mc_file_read(path, MC_REGISTRY_MAX_FILE, &buf, &len, eb);
    if (rc != MC_OK)
        return rc;
    mc_errbuf_clear(&inner);
    rc = mc_json_parse(buf, len, 512, &doc, &inner);
    free(buf);
    if (rc != MC_OK)
        return mc_errbuf_set(eb, MC_EPARSE, "%s: %s", path, inner.msg);
    v = &reg->versions[reg->n_versions];
    memset(v, 0, sizeof(*v));
    snprintf(v->name, sizeof(v->name), "%s", version);
    mc_errbuf_clear(&inner);
    {
        /* The MCP schemas rely on their formats (uri, byte, date-time), in
         * either dialect; see harness/schemas/README.md. */
        mc_schema_options_t opts = {NULL, NULL, MC_SCHEMA_DIALECT_DRAFT7, MC_SCHEMA_FORMATS_ASSERT,
                                    0};
        rc = mc_schema_compile(doc, &opts, &v->schema, &inner);
    }
    json_object_put(doc);
    if (rc != MC_OK)
        return mc_errbuf_set(eb, rc, "%s: %s", path, inner.msg);
    mc_errbuf_clear(&inner);
    rc = index_version(v, &inner);
    if (rc != MC_OK) {
        mc_schema_free(v->schema);
        v->schema = NULL;
        return mc_errbuf_set(eb, rc, "%s: %s", path, inner.msg);
    }
    apply_leniencies(v);
    reg->n_versions++;
    return MC_OK;
}

const mc_schema_t *mc_registry_schema(const mc_registry_t *reg, const char *version)
{
    const version_t *v = find_version(reg, version);

    return v != NULL ? v->schema : NULL;
}

static const method_def_t *find_method(const version_t *v, const char *method, int want_request)
{
    uint32_t h;
    size_t i;

    if (v == NULL || method == NULL)
        return NULL;
    h = hash_str(method);
    for (i = 0; i < v->n_methods; i++)
        if (v->methods[i].hash == h && v->methods[i].is_request == want_request &&
            strcmp(v->methods[i].method, method) == 0)
            return &v->methods[i];
    return NULL;
}

const char *mc_registry_request_def(const mc_registry_t *reg, const char *version,
                                    const char *method)
{
    const method_def_t *m = find_method(find_version(reg, version), method, 1);

    return m != NULL ? m->def : NULL;
}

const char *mc_registry_notification_def(const mc_registry_t *reg, const char *version,
                                         const char *method)
{
    const method_def_t *m = find_method(find_version(reg, version), method, 0);

    return m != NULL ? m->def : NULL;
}

const char *mc_registry_result_def(const mc_registry_t *reg, const char *version,
                                   const char *method)
{
    const method_def_t *m = find_method(find_version(reg, version), method, 1);

    return m != NULL ? m->result_def : NULL;
}

/* Validates against a node, mapping the result to MC_OK/MC_EINVALID. */
static int check(const version_t *v, const mc_schema_node_t *node, json_object *inst,
                 const char *prefix, mc_schema_report_t *report)
{
    int rc = mc_schema_validate(v->schema, node, inst, prefix, report);

    return rc == MC_OK ? MC_OK : MC_EINVALID;
}

static int fail(mc_schema_report_t *report, const char *where, const char *kw, const char *msg)
{
    mc_schema_report_add(report, MC_SCHEMA_ERROR, where, "", kw, msg);
    return MC_EINVALID;
}

static void warn(mc_schema_report_t *report, const char *where, const char *msg)
{
    mc_schema_report_add(report, MC_SCHEMA_WARNING, where, "", "mcp", msg);
}

static int validate_response(const version_t *v, json_object *msg, json_object *result,
                             const char *answered, mc_schema_report_t *report)
{
    const method_def_t *m;
    json_object *task;
    char text[MC_SCHEMA_MSG_SIZE];

    if (check(v, v->env_result, msg, NULL, report) != MC_OK)
        return MC_EINVALID;
    if (answered == NULL) {
        warn(report, "/result",
             "the request this response answers is not known: only the envelope was checked "
             "(give the method, or include the request in the trace)");
        return MC_OK;
    }
    m = find_method(v, answered, 1);
    if (m == NULL || m->result_node == NULL) {
        snprintf(text, sizeof(text),
                 "answers \"%.80s\", which is not a request method of %s: only the envelope "
                 "was checked",
                 answered, v->name);
        warn(report, "/result", text);
        return MC_OK;
    }
    /* Task-augmented requests (2025-11-25+) may be answered by CreateTaskResult. */
    if (v->create_task_result != NULL && json_object_is_type(result, json_type_object) &&
        json_object_object_get_ex(result, "task", &task) &&
        (strcmp(answered, "tools/call") == 0 || strcmp(answered, "sampling/createMessage") == 0 ||
         strcmp(answered, "elicitation/create") == 0) &&
        mc_schema_is_valid(v->schema, v->create_task_result, result))
        return MC_OK;
    /* A multi round-trip request (2026-07-28) may be answered by a request
     * for input, marked by its resultType. */
    if (m->input_required && json_object_is_type(result, json_type_object) &&
        json_object_object_get_ex(result, "resultType", &task) &&
        json_object_is_type(task, json_type_string) &&
        strcmp(json_object_get_string(task), "input_required") == 0)
        return check(v, v->input_required_result, result, "/result", report);
    return check(v, m->result_node, result, "/result", report);
}

int mc_registry_validate_message(mc_registry_t *reg, const char *version, json_object *msg,
                                 const char *answered_method, mc_schema_report_t *report,
                                 mc_errbuf_t *eb)
{
    version_t *v;
    json_object *method = NULL, *id = NULL, *result = NULL, *error = NULL;
    int has_method, has_id, has_result, has_error;
    char text[MC_SCHEMA_MSG_SIZE];
    int rc;

    rc = mc_registry_load(reg, version, eb);
    if (rc != MC_OK)
        return rc;
    v = find_version(reg, version);
    if (!json_object_is_type(msg, json_type_object))
        return fail(report, "", "type",
                    json_object_is_type(msg, json_type_array)
                        ? "a JSON array (batch) is not an MCP message"
                        : "an MCP message must be a JSON object");
    has_method = json_object_object_get_ex(msg, "method", &method);
    has_id = json_object_object_get_ex(msg, "id", &id);
    has_result = json_object_object_get_ex(msg, "result", &result);
    has_error = json_object_object_get_ex(msg, "error", &error);

    if (has_method) {
        const mc_schema_node_t *env = has_id ? v->env_request : v->env_notification;
        const method_def_t *m;
        if (has_result || has_error)
            return fail(report, "", "jsonrpc",
                        "a message with \"method\" cannot also carry \"result\" or \"error\"");
        if (check(v, env, msg, NULL, report) != MC_OK)
            return MC_EINVALID;
        m = find_method(v, json_object_get_string(method), has_id);
        if (m == NULL || m->node == NULL) {
            snprintf(text, sizeof(text),
                     "\"%.80s\" is not a%s method of %s: only the envelope was checked",
                     json_object_get_string(method), has_id ? " request" : " notification",
                     version);
            warn(report, "/method", text);
            return MC_OK;
        }
        return check(v, m->node, msg, NULL, report);
    }
    if (has_result && has_error)
        return fail(report, "", "jsonrpc", "a response cannot carry both \"result\" and \"error\"");
    if (has_result)
        return validate_response(v, msg, result, answered_method, report);
    if (has_error) {
        json_object *code;
        if (check(v, v->env_error, msg, NULL, report) != MC_OK)
            return MC_EINVALID;
        size_t i;
        if (!json_object_object_get_ex(error, "code", &code) ||
            !json_object_is_type(code, json_type_int))
            return MC_OK;
        for (i = 0; i < sizeof(error_defs) / sizeof(error_defs[0]); i++)
            if (v->error_nodes[i] != NULL && json_object_get_int64(code) == error_defs[i].code)
                return check(v, v->error_nodes[i], msg, NULL, report);
        return MC_OK;
    }
    return fail(report, "", "jsonrpc",
                "not a JSON-RPC message: it has no \"method\", \"result\" or \"error\"");
}

int mc_registry_validate_def(mc_registry_t *reg, const char *version, const char *def,
                             json_object *inst, mc_schema_report_t *report, mc_errbuf_t *eb)
{
    const version_t *v;
    const mc_schema_node_t *node;
    int rc;

    rc = mc_registry_load(reg, version, eb);
    if (rc != MC_OK)
        return rc;
    v = find_version(reg, version);
    node = mc_schema_definition(v->schema, def);
    if (node == NULL)
        return mc_errbuf_set(eb, MC_ENOTFOUND, "schema %s has no definition \"%.80s\"", version,
                             def);
    return check(v, node, inst, NULL, report);
}
