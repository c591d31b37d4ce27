/*
 * httpmodern.c - the reference server's Streamable HTTP at 2026-07-28
 * (2026-07-28/basic/transports/streamable-http), beside the session-based
 * revisions of httpserve.c.
 *
 * A request of this revision carries no session: every one is served by one
 * session-less handler (the stateless session), whose state (the fixtures
 * the trigger tools change, the subscriptions/listen streams) all its
 * requests share. Before a request reaches it, the headers that mirror its
 * body are checked (#server-validation): MCP-Protocol-Version against
 * _meta's protocol version, Mcp-Method against method, Mcp-Name against
 * params.name or params.uri, and each Mcp-Param-{Name} against the tool
 * argument an x-mcp-header annotation of the called tool names (after
 * decoding the =?base64?...?= form). A failure is 400 with a HeaderMismatch
 * (-32020) error. The handler's own answer goes out as JSON or as an SSE
 * stream; an unknown method is 404 and an unsupported version or a missing
 * client capability 400 (#protocol-version-header, #backward-compatibility).
 * Closing a response stream cancels its request (#cancellation): a listen
 * stream ends, a running tool call stops.
 *
 * The requests of all clients share the handler, so each request reaches it
 * under an id of the server's own ("hs:N"), and the client's id is put back
 * in what goes out on the request's stream: two clients may use the same id
 * at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>
#include <microhttpd.h>

#include "core/base64.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "core/version.h"
#include "refserver/httpint.h"
#include "refserver/internal.h" /* inject.h, limits.h, the refusal of initialize */

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
/* The Base64 form of a header value (#value-encoding). */
#define B64_PREFIX "=?base64?"
#define B64_SUFFIX "?="
/* The longest header value compared (decoded), and the deepest chain of
 * "properties" keys followed to an x-mcp-header annotation. */
#define HM_MAX_VALUE 2048
#define HM_MAX_DEPTH 8
/* x-mcp-header annotations honoured per tool. */
#define HM_MAX_PARAMS 16

/* The string member key of o, or NULL (borrowed). */
static const char *json_str(json_object *o, const char *key)
{
    json_object *v;

    if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
        !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static enum MHD_Result answer_plain(struct MHD_Connection *c, unsigned status)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    enum MHD_Result rc;

    if (r == NULL)
        return MHD_NO;
    rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, const char *body)
{
    struct MHD_Response *r;
    enum MHD_Result rc;

    r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "application/json");
    if (mc__hs_g != NULL && mc__hs_g->bug == RS_HTTP_BUG_STATELESS_SESSION_ID)
        MHD_add_response_header(r, "Mcp-Session-Id", "mcpcheck-minted-0001");
    rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

/* A JSON-RPC error answer for request id (compact JSON, or NULL), with data
 * (consumed, may be NULL). */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, int code,
                                  const char *msg, const char *id, json_object *data)
{
    json_object *o = json_object_new_object(), *e = json_object_new_object(), *idv = NULL;
    enum MHD_Result rc;

    if (id != NULL && id[0] != '\0')
        idv = json_tokener_parse(id);
    json_object_object_add(o, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(o, "id", idv);
    json_object_object_add(e, "code", json_object_new_int(code));
    json_object_object_add(e, "message", json_object_new_string(msg));
    if (data != NULL)
        json_object_object_add(e, "data", data);
    json_object_object_add(o, "error", e);
    rc = send_json(c, status, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
    json_object_put(o);
    return rc;
}

enum MHD_Result mc__hs_unsupported_version(hs_t *hs, struct MHD_Connection *c,
                                           const char *requested, const char *id)
{
    json_object *data = json_object_new_object(), *sup = json_object_new_array();
    const char *const *names = mc_version_names();
    /* The versions a request may name in its _meta (and its header), the
     * list server/discover gives as supportedVersions: a client retries
     * with one of them (basic/versioning#protocol-version-negotiation). The
     * switch lists the session-based versions too. */
    unsigned feature = hs->opts != NULL && hs->opts->inject != NULL &&
                               mc__rs_bug_find(hs->opts->inject) == RS_BUG_VERSION_ERROR_LIST_DIFFERS
                           ? MC_VF_STREAMABLE_HTTP
                           : MC_VF_STATELESS;
    size_t i;

    for (i = 0; names[i] != NULL; i++)
        if (mc_version_has(names[i], feature))
            json_object_array_add(sup, json_object_new_string(names[i]));
    json_object_object_add(data, "supported", sup);
    json_object_object_add(data, "requested", json_object_new_string(requested));
    return send_error(c, 400, MC_RPC_UNSUPPORTED_VERSION, "Unsupported protocol version", id,
                      data);
}

/* The refusal of a request for its headers: 400 and HeaderMismatch (the
 * wrong-error switch: 200 and -32600). A --modern-only server's refusal of
 * initialize names the versions it speaks too (modern.c). */
static enum MHD_Result mismatch(hs_t *hs, struct MHD_Connection *c, const char *id,
                                const char *method, const char *why)
{
    char msg[RS_REFUSAL_TEXT_MAX];

    snprintf(msg, sizeof(msg), "Header mismatch: %s", why);
    if (hs->opts != NULL && hs->opts->modern_only && strcmp(method, "initialize") == 0)
        return send_error(c, 400, MC_RPC_HEADER_MISMATCH, msg, id,
                          mc__rs_modern_only_refusal(msg, sizeof(msg)));
    if (hs->bug == RS_HTTP_BUG_HEADER_WRONG_ERROR)
        return send_error(c, 200, MC_RPC_INVALID_REQUEST, msg, id, NULL);
    return send_error(c, 400, MC_RPC_HEADER_MISMATCH, msg, id, NULL);
}

/* --- the body ---------------------------------------------------------------- */

/* What the checks need of a POSTed body. */
typedef struct hm_body {
    json_object *o;       /* the parsed body (owned), or NULL when it is no JSON object */
    const char *method;   /* borrowed from o, or NULL */
    int is_request;       /* method and id */
    char id[64];          /* the id as compact JSON, "" when none or too long */
    int id_valid;         /* the id is a string or an integer, of any length */
    json_object *params;  /* borrowed, or NULL */
    const char *version;  /* params._meta's protocol version, or NULL */
    char token[64];       /* params._meta's progressToken as compact JSON, or "" */
    int meta_missing;     /* a request without a field _meta must carry (basic#_meta) */
} hm_body_t;

static void body_read(const char *text, size_t len, hm_body_t *b)
{
    json_object *v, *m;

    memset(b, 0, sizeof(*b));
    b->o = mc__hs_parse_body(text, len);
    if (b->o != NULL && !json_object_is_type(b->o, json_type_object)) {
        json_object_put(b->o);
        b->o = NULL;
    }
    if (b->o == NULL)
        return;
    if (json_object_object_get_ex(b->o, "method", &v) && json_object_is_type(v, json_type_string))
        b->method = json_object_get_string(v);
    if (json_object_object_get_ex(b->o, "id", &v)) {
        const char *ids = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
        /* Only a string or an integer is echoed (else the error's id is null). */
        b->id_valid = mc_jsonrpc_id_valid(v);
        if (b->id_valid && strlen(ids) < sizeof(b->id))
            snprintf(b->id, sizeof(b->id), "%s", ids);
        b->is_request = b->method != NULL;
    }
    if (json_object_object_get_ex(b->o, "params", &v) && json_object_is_type(v, json_type_object)) {
        b->params = v;
        if (json_object_object_get_ex(v, "_meta", &m) && json_object_is_type(m, json_type_object) &&
            json_object_object_get_ex(m, META_VERSION, &v) && json_object_is_type(v, json_type_string))
            b->version = json_object_get_string(v);
        if (json_object_object_get_ex(b->params, "_meta", &m) &&
            json_object_is_type(m, json_type_object) &&
            json_object_object_get_ex(m, "progressToken", &v)) {
            const char *t = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
            if (strlen(t) < sizeof(b->token))
                snprintf(b->token, sizeof(b->token), "%s", t);
        }
    }
    if (b->is_request) {
        json_object *caps = NULL;
        m = NULL;
        if (b->params != NULL)
            json_object_object_get_ex(b->params, "_meta", &m);
        if (m != NULL && json_object_is_type(m, json_type_object))
            json_object_object_get_ex(m, "io.modelcontextprotocol/clientCapabilities", &caps);
        b->meta_missing = b->version == NULL || caps == NULL ||
                          !json_object_is_type(caps, json_type_object);
    }
}

char *mc__hs_body_id_dup(const char *text, size_t len)
{
    json_object *o = mc__hs_parse_body(text, len), *v;
    char *id = NULL;

    if (o != NULL && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "method", NULL) && json_object_object_get_ex(o, "id", &v) &&
        mc_jsonrpc_id_valid(v))
        id = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
    json_object_put(o);
    return id;
}

int mc__hs_modern_wants(const char *pv, const char *sid, const char *body, size_t len)
{
    hm_body_t b;
    int modern;

    if (pv != NULL && mc_version_has(pv, MC_VF_STATELESS))
        return 1;
    if (sid != NULL)
        return 0;
    body_read(body, len, &b);
    /* Without a session, a body of this revision says which one it is. */
    modern = b.version != NULL ||
             (b.method != NULL && (strcmp(b.method, "server/discover") == 0 ||
                                   strcmp(b.method, "subscriptions/listen") == 0));
    json_object_put(b.o);
    return modern;
}

/* --- header values ------------------------------------------------------------- */

/* True when v holds only what a header value may: visible ASCII, space, tab. */
static int value_chars_ok(const char *v)
{
    for (; *v; v++)
        if (!((*v >= 0x21 && *v <= 0x7E) || *v == ' ' || *v == '\t'))
            return 0;
    return 1;
}

/*
 * The value of header h without the optional whitespace (spaces and tabs)
 * around it, into out (cap bytes); NULL when h is NULL or too long. The
 * page takes header values as RFC 9110 defines them (streamable-http#value-
 * encoding: "Per RFC 9110, HTTP header field values must consist of ...");
 * there a field value has no leading or trailing whitespace, and a parser
 * MUST exclude such whitespace before evaluating it (RFC 9110 5.5). A value
 * that needs edge whitespace travels in the Base64 form.
 */
static const char *header_trim(const char *h, char *out, size_t cap)
{
    size_t n;

    if (h == NULL)
        return NULL;
    while (*h == ' ' || *h == '\t')
        h++;
    n = strlen(h);
    while (n > 0 && (h[n - 1] == ' ' || h[n - 1] == '\t'))
        n--;
    if (n >= cap)
        return NULL;
    memcpy(out, h, n);
    out[n] = '\0';
    return out;
}

/*
 * The value of header v as the client meant it, into out: decoded from the
 * Base64 form when it has that form. Returns 0, or -1 when v holds
 * characters no header value may, or its Base64 form is not padded or does
 * not decode to a string without NUL.
 */
static int header_decode(const char *v, char *out, size_t cap)
{
    size_t n = strlen(v), pl = strlen(B64_PREFIX), sl = strlen(B64_SUFFIX);
    long got;

    if (!value_chars_ok(v))
        return -1;
    if (n >= pl + sl && strncmp(v, B64_PREFIX, pl) == 0 && strcmp(v + n - sl, B64_SUFFIX) == 0) {
        /* Base64 as RFC 4648 section 4 writes it, padding included (its
         * section 3.2: implementations MUST include appropriate pad
         * characters unless the referring specification says otherwise,
         * and the page does not): a length that is no multiple of four is
         * a malformed value. */
        if ((n - pl - sl) % 4 != 0)
            return -1;
        got = mc_base64_decode(v + pl, n - pl - sl, (unsigned char *)out, cap - 1);
        if (got < 0 || memchr(out, '\0', (size_t)got) != NULL)
            return -1;
        out[got] = '\0';
        return 0;
    }
    if (n >= cap)
        return -1;
    memcpy(out, v, n + 1);
    return 0;
}

/* True when header text h equals body value v: integers compared as numbers
 * (#server-validation: "42.0" and 42 are equal), the rest as text. */
static int value_equal(const char *h, json_object *v)
{
    char t[HM_MAX_VALUE];

    if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
        char *end;
        double d = strtod(h, &end);
        return end != h && *end == '\0' && d == json_object_get_double(v);
    }
    return mc_json_scalar_text(v, t, sizeof(t)) == 0 && strcmp(t, h) == 0;
}

/* --- x-mcp-header --------------------------------------------------------------- */

typedef struct hm_param {
    char header[80];                  /* the name part of Mcp-Param-{Name} */
    char path[HM_MAX_DEPTH][64];      /* the chain of properties keys */
    int depth;
} hm_param_t;

/* Collects the x-mcp-header annotations statically reachable in schema. */
static void collect_params(json_object *schema, hm_param_t *out, int *n, char path[][64],
                           int depth)
{
    json_object *props, *h;

    if (depth > 0 && json_object_object_get_ex(schema, "x-mcp-header", &h) &&
        json_object_is_type(h, json_type_string) && *n < HM_MAX_PARAMS) {
        hm_param_t *p = &out[(*n)++];
        int i;
        snprintf(p->header, sizeof(p->header), "%s", json_object_get_string(h));
        for (i = 0; i < depth; i++)
            snprintf(p->path[i], sizeof(p->path[i]), "%s", path[i]);
        p->depth = depth;
    }
    if (depth >= HM_MAX_DEPTH || !json_object_object_get_ex(schema, "properties", &props) ||
        !json_object_is_type(props, json_type_object))
        return;
    json_object_object_foreach(props, key, sub)
    {
        if (!json_object_is_type(sub, json_type_object) || strlen(key) >= 64)
            continue;
        snprintf(path[depth], 64, "%s", key);
        collect_params(sub, out, n, path, depth + 1);
    }
}

/* The search of exact_header: a name spelled as asked, and its value. */
typedef struct hm_exact {
    const char *name, *value;
} hm_exact_t;

static enum MHD_Result exact_header_it(void *cls, enum MHD_ValueKind kind, const char *key,
                                       const char *value)
{
    hm_exact_t *x = cls;

    (void)kind;
    if (key != NULL && strcmp(key, x->name) == 0) {
        x->value = value;
        return MHD_NO;
    }
    return MHD_YES;
}

/* The value of the header named name, names compared case-insensitively
 * (basic/transports/streamable-http#case-sensitivity); with the switch
 * http-header-name-case, only a name spelled exactly so. NULL when absent. */
static const char *param_header(struct MHD_Connection *c, const char *name, rs_http_bug_t bug)
{
    hm_exact_t x = {name, NULL};

    if (bug != RS_HTTP_BUG_HEADER_NAME_CASE)
        return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
    MHD_get_connection_values(c, MHD_HEADER_KIND, exact_header_it, &x);
    return x.value;
}

/* Checks the Mcp-Param-{Name} headers of a tools/call: "" when they hold,
 * else why not into why. bug may be one of the switches that break it. */
static void check_params(struct MHD_Connection *c, json_object *params, rs_http_bug_t bug,
                         char *why, size_t cap)
{
    const char *schema_text = mc_refserver_tool_schema(json_str(params, "name"));
    json_object *schema, *args = NULL;
    hm_param_t ps[HM_MAX_PARAMS];
    char path[HM_MAX_DEPTH][64], hname[100], val[HM_MAX_VALUE], raw[HM_MAX_VALUE];
    int n = 0, i, k;

    why[0] = '\0';
    if (schema_text == NULL || (schema = json_tokener_parse(schema_text)) == NULL)
        return;
    collect_params(schema, ps, &n, path, 0);
    json_object_object_get_ex(params, "arguments", &args);
    for (i = 0; i < n && why[0] == '\0'; i++) {
        json_object *v = args;
        const char *h;
        for (k = 0; k < ps[i].depth && v != NULL; k++)
            if (!json_object_is_type(v, json_type_object) ||
                !json_object_object_get_ex(v, ps[i].path[k], &v))
                v = NULL;
        snprintf(hname, sizeof(hname), "Mcp-Param-%s", ps[i].header);
        h = param_header(c, hname, bug);
        if (h != NULL && header_trim(h, raw, sizeof(raw)) != NULL)
            h = raw;
        if (v == NULL && bug == RS_HTTP_BUG_PARAM_HEADER_EXPECTED && h == NULL)
            snprintf(why, cap, "%s is missing", hname); /* the switch */
        if (v == NULL) /* absent or null: no header is expected */
            continue;
        if (h == NULL && bug == RS_HTTP_BUG_PARAM_HEADER_OMITTED_ACCEPTED)
            continue; /* the switch: an argument without its header is served */
        if (h == NULL)
            snprintf(why, cap, "%s is missing; the argument it mirrors is in the body", hname);
        else if (header_decode(h, val, sizeof(val)) != 0)
            snprintf(why, cap, "%s holds characters no header value may", hname);
        else if (!value_equal(val, v))
            snprintf(why, cap, "%s header value '%.100s' does not match the body's", hname, val);
    }
    json_object_put(schema);
}

/* Checks the standard headers of a request (#server-validation): "" when
 * they hold, else why not. */
static void check_headers(struct MHD_Connection *c, const char *pv, const hm_body_t *b, char *why,
                          size_t cap)
{
    char val[HM_MAX_VALUE], mmbuf[HM_MAX_VALUE], mnbuf[HM_MAX_VALUE];
    const char *mmraw = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Method");
    const char *mnraw = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Name");
    const char *mm = header_trim(mmraw, mmbuf, sizeof(mmbuf));
    const char *mn = header_trim(mnraw, mnbuf, sizeof(mnbuf));
    const char *src = NULL;

    if (mm == NULL)
        mm = mmraw; /* absent, or too long to be any method: compared as it came */
    if (mn == NULL)
        mn = mnraw;

    why[0] = '\0';
    if (pv == NULL) {
        snprintf(why, cap, "the MCP-Protocol-Version header is missing");
        return;
    }
    if (b->version != NULL && strcmp(pv, b->version) != 0) {
        snprintf(why, cap, "MCP-Protocol-Version header value '%.40s' does not match body "
                           "value '%.40s'", pv, b->version);
        return;
    }
    if (mm == NULL) {
        snprintf(why, cap, "the Mcp-Method header is missing");
        return;
    }
    if (!value_chars_ok(mm) || strcmp(mm, b->method) != 0) {
        snprintf(why, cap, "Mcp-Method header value '%.60s' does not match body value '%.60s'",
                 mm, b->method);
        return;
    }
    if (strcmp(b->method, "tools/call") == 0 || strcmp(b->method, "prompts/get") == 0)
        src = json_str(b->params, "name");
    else if (strcmp(b->method, "resources/read") == 0)
        src = json_str(b->params, "uri");
    if (src == NULL)
        return; /* nothing to mirror: the handler judges the params */
    if (mn == NULL)
        snprintf(why, cap, "the Mcp-Name header is missing");
    else if (header_decode(mn, val, sizeof(val)) != 0)
        snprintf(why, cap, "the Mcp-Name header holds characters no header value may");
    else if (strcmp(val, src) != 0)
        snprintf(why, cap, "Mcp-Name header value '%.80s' does not match body value '%.80s'", val,
                 src);
}

/* --- serving ---------------------------------------------------------------------- */

static hs_sess_t *modern_sess(hs_t *hs)
{
    mc_errbuf_t eb;

    if (hs->modern != NULL)
        return hs->modern->rs != NULL ? hs->modern : NULL;
    hs->modern = calloc(1, sizeof(*hs->modern));
    if (hs->modern == NULL)
        return NULL;
    hs->modern->used = 1;
    hs->modern->stateless = 1;
    mc_errbuf_clear(&eb);
    hs->modern->rs = mc_refserver_new(hs->opts, mc__hs_on_emit, hs->modern, &eb);
    return hs->modern->rs != NULL ? hs->modern : NULL;
}

/* The HTTP status of a lone JSON answer: 404 for an unknown method, 400 for
 * the refusals of this revision and for the -32602 refusing a request that
 * lacks a required _meta field (meta_missing; basic#_meta: "On HTTP, the
 * response status MUST be 400 Bad Request"), else 200. */
static unsigned answer_status(const hs_t *hs, const char *text, int meta_missing)
{
    json_object *o = json_tokener_parse(text), *e, *code;
    unsigned st = 200;

    if (o != NULL && json_object_object_get_ex(o, "error", &e) &&
        json_object_object_get_ex(e, "code", &code)) {
        int k = json_object_get_int(code);
        if (k == MC_RPC_METHOD_NOT_FOUND)
            st = 404;
        else if (k == MC_RPC_MISSING_CLIENT_CAPABILITY)
            st = hs->bug == RS_HTTP_BUG_CAPABILITY_REQUIRED_200 ? 200 : 400;
        else if (k == MC_RPC_UNSUPPORTED_VERSION || k == MC_RPC_HEADER_MISMATCH)
            st = 400;
        else if (k == MC_RPC_INVALID_PARAMS && meta_missing)
            st = 400;
    }
    json_object_put(o);
    return st;
}

enum MHD_Result mc__hs_do_post_modern(hs_t *hs, struct MHD_Connection *c, hs_req_t *rq,
                                      const char *pv)
{
    hm_body_t b;
    hs_sess_t *se;
    hs_stream_t *s;
    int b_meta_missing;
    char why[400];
    const char *text = rq->body ? rq->body : "";

    body_read(text, rq->len, &b);
    if (b.is_request && strcmp(b.method, "initialize") == 0 &&
        !(hs->opts != NULL && hs->opts->modern_only)) {
        /* No handshake in this revision: the shared handler stays session-less
         * (a --modern-only one refuses it, naming its versions). */
        json_object_put(b.o);
        return send_error(c, 404, MC_RPC_METHOD_NOT_FOUND,
                          "initialize is not part of this protocol version", b.id, NULL);
    }
    if (b.is_request) {
        /* The switch takes a missing MCP-Protocol-Version for the body's. */
        check_headers(c,
                      pv == NULL && hs->bug == RS_HTTP_BUG_VERSION_HEADER_OPTIONAL ? b.version
                                                                                  : pv,
                      &b, why, sizeof(why));
        if (why[0] != '\0' && hs->bug == RS_HTTP_BUG_HEADER_MISMATCH_ACCEPTED && pv != NULL)
            why[0] = '\0'; /* the switch: headers and body may disagree */
        if (why[0] == '\0' && strcmp(b.method, "tools/call") == 0 &&
            hs->bug != RS_HTTP_BUG_PARAM_HEADER_IGNORED)
            check_params(c, b.params, hs->bug, why, sizeof(why));
        if (why[0] != '\0') {
            enum MHD_Result rc = mismatch(hs, c, b.id, b.method, why);
            json_object_put(b.o);
            return rc;
        }
    }
    pthread_mutex_lock(&hs->mu);
    se = modern_sess(hs);
    if (se == NULL) {
        pthread_mutex_unlock(&hs->mu);
        json_object_put(b.o);
        return send_error(c, 500, MC_RPC_INTERNAL_ERROR, "out of memory", b.id, NULL);
    }
    if (!b.is_request) {
        json_object_put(b.o);
        /* A notification, a response or malformed input: the handler's
         * error to the latter goes out with 400, the others get 202. */
        s = mc__hs_stream_new(se, 0);
        if (s == NULL) {
            pthread_mutex_unlock(&hs->mu);
            return send_error(c, 500, MC_RPC_INTERNAL_ERROR, "out of memory", NULL, NULL);
        }
        se->current = s;
        mc_refserver_handle(se->rs, text, rq->len, mc_now_ms());
        se->current = NULL;
        {
            char *first = s->first;
            enum MHD_Result rc;
            s->first = NULL;
            mc__hs_stream_unlink(s);
            pthread_mutex_unlock(&hs->mu);
            mc__hs_stream_free(s);
            if (first != NULL)
                rc = send_json(c, 400, first);
            else
                rc = answer_plain(c, MHD_HTTP_ACCEPTED);
            free(first);
            return rc;
        }
    }
    s = mc__hs_stream_new(se, 0);
    if (s == NULL) {
        pthread_mutex_unlock(&hs->mu);
        json_object_put(b.o);
        return send_error(c, 500, MC_RPC_INTERNAL_ERROR, "out of memory", b.id, NULL);
    }
    snprintf(s->token, sizeof(s->token), "%s", b.token);
    se->current = s;
    if (b.is_request && b.id_valid &&
        (s->orig_id = strdup(json_object_to_json_string_ext(json_object_object_get(b.o, "id"),
                                                            JSON_C_TO_STRING_PLAIN))) != NULL) {
        /* The handler sees the request under an id of the server's own
         * (which routes its answer to this stream, however long the
         * client's id). */
        char own[40];
        const char *line;
        snprintf(own, sizeof(own), "hs:%lu", ++hs->modern_seq);
        json_object_object_add(b.o, "id", json_object_new_string(own));
        snprintf(s->req_id, sizeof(s->req_id), "\"%s\"", own);
        line = json_object_to_json_string_ext(b.o, JSON_C_TO_STRING_PLAIN |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE);
        mc_refserver_handle(se->rs, line, strlen(line), mc_now_ms());
    } else {
        /* An id JSON-RPC does not allow: the handler answers it as it
         * is, on this stream. */
        snprintf(s->req_id, sizeof(s->req_id), "%s", b.id);
        mc_refserver_handle(se->rs, text, rq->len, mc_now_ms());
    }
    se->current = NULL;
    json_object_put(b.o);
    b_meta_missing = b.meta_missing && hs->bug != RS_HTTP_BUG_META_MISSING_200;
    if (s->answered && s->events == 1 && s->first != NULL) {
        char *first = s->first;
        enum MHD_Result rc;
        s->first = NULL;
        mc__hs_stream_unlink(s);
        pthread_mutex_unlock(&hs->mu);
        mc__hs_stream_free(s);
        rc = send_json(c, answer_status(hs, first, b_meta_missing), first);
        free(first);
        return rc;
    }
    pthread_mutex_unlock(&hs->mu);
    return mc__hs_answer_sse(c, s, NULL);
}

char *mc__hs_modern_restore(const hs_stream_t *t, const char *line, size_t len, size_t *out_len)
{
    json_tokener *tok;
    json_object *o, *v, *p, *m, *orig;
    int changed = 0;
    char *out = NULL;

    if (t->orig_id == NULL)
        return NULL;
    tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (tok == NULL)
        return NULL;
    o = json_tokener_parse_ex(tok, line, (int)len);
    json_tokener_free(tok);
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return NULL;
    }
    if (json_object_object_get_ex(o, "id", &v) &&
        strcmp(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), t->req_id) == 0 &&
        (orig = json_tokener_parse(t->orig_id)) != NULL) {
        json_object_object_add(o, "id", orig);
        changed = 1;
    }
    if (json_object_object_get_ex(o, "params", &p) && json_object_is_type(p, json_type_object) &&
        json_object_object_get_ex(p, "_meta", &m) && json_object_is_type(m, json_type_object) &&
        json_object_object_get_ex(m, "io.modelcontextprotocol/subscriptionId", &v) &&
        strcmp(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), t->req_id) == 0 &&
        (orig = json_tokener_parse(t->orig_id)) != NULL) {
        json_object_object_add(m, "io.modelcontextprotocol/subscriptionId", orig);
        changed = 1;
    }
    if (changed) {
        const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
        out = strdup(text);
        if (out != NULL)
            *out_len = strlen(out);
    }
    json_object_put(o);
    return out;
}
