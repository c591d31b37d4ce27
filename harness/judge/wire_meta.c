/*
 * wire_meta.c - the _meta objects of the server's messages (basic#_meta):
 * every key has the key name format (a prefix of dot-separated labels and
 * a slash, then a name beginning and ending with an alphanumeric; from
 * 2025-06-18), and the OpenTelemetry keys hold values of the W3C formats
 * (2026-07-28); so do the extension identifiers a result's capabilities
 * declare, with a prefix (2026-07-28).
 *
 * The _meta objects judged are those of the message's result or params and
 * of the objects in their arrays (tools, content blocks, resources...):
 * deeper ones may sit inside data of the server's own (a tool's schema or
 * structured content), where "_meta" is an ordinary member name.
 */
#include <stdio.h>
#include <string.h>

#include "judge/wire.h"
#include "judge/wire_internal.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

/* The longest tracestate and baggage values judged; a longer one is not
 * judged (W3C Baggage allows 8192 bytes, tracestate 32 members of ~512). */
#define MC_WIRE_TRACE_VALUE_MAX 8192

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_lower_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* True when [s, s+n) is a label: a letter first, a letter or digit last,
 * letters, digits or hyphens between. */
static int label_ok(const char *s, size_t n)
{
    size_t i;

    if (n == 0 || !is_alpha(s[0]) || !(is_alpha(s[n - 1]) || is_digit(s[n - 1])))
        return 0;
    for (i = 1; i + 1 < n; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '-')
            return 0;
    return 1;
}

/*
 * Why key breaks the key name format, or NULL when it keeps it. The prefix
 * is what comes before the first slash (a name may not hold one: it would
 * neither begin nor end the name, and a prefix's labels hold no slash).
 */
static const char *key_problem(const char *key)
{
    const char *slash = strchr(key, '/');
    const char *name = slash == NULL ? key : slash + 1;
    size_t n = strlen(name);

    if (slash != NULL) {
        const char *p = key;

        for (;;) {
            const char *dot = memchr(p, '.', (size_t)(slash - p));
            const char *end = dot == NULL ? slash : dot;

            if (!label_ok(p, (size_t)(end - p)))
                return "a label of its prefix does not start with a letter, end with a letter "
                       "or digit and hold only letters, digits and hyphens";
            if (dot == NULL)
                break;
            p = dot + 1;
        }
        if (strchr(name, '/') != NULL)
            return "it holds more than one slash";
    }
    if (n > 0 && (!(is_alpha(name[0]) || is_digit(name[0])) ||
                  !(is_alpha(name[n - 1]) || is_digit(name[n - 1]))))
        return "its name does not begin and end with an alphanumeric character";
    return NULL;
}

/* True when [s, s+n) is n lower-case hex digits, not all zero when
 * nonzero is set. */
static int hex_ok(const char *s, size_t n, int nonzero)
{
    size_t i;
    int any = 0;

    for (i = 0; i < n; i++) {
        if (!is_lower_hex(s[i]))
            return 0;
        any |= s[i] != '0';
    }
    return !nonzero || any;
}

/*
 * W3C Trace Context, traceparent: version "-" trace-id "-" parent-id "-"
 * flags, lower-case hex of 2, 32, 16 and 2 digits; the version is not "ff",
 * neither id is all zeros; version 00 ends there, a later version may go on
 * after a "-".
 */
static int traceparent_ok(const char *v)
{
    size_t n = strlen(v);

    if (n < 55 || !hex_ok(v, 2, 0) || strncmp(v, "ff", 2) == 0 || v[2] != '-' ||
        !hex_ok(v + 3, 32, 1) || v[35] != '-' || !hex_ok(v + 36, 16, 1) || v[52] != '-' ||
        !hex_ok(v + 53, 2, 0))
        return 0;
    if (strncmp(v, "00", 2) == 0)
        return n == 55;
    return n == 55 || v[55] == '-';
}

/*
 * A list of tracestate or baggage members, judged loosely: printable ASCII
 * only, and every non-empty member (between commas, blanks trimmed) holds
 * a "=" with a key before it.
 */
static int member_list_ok(const char *v)
{
    const char *p = v;

    for (; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
            return 0;
    p = v;
    for (;;) {
        const char *end = strchr(p, ',');
        const char *stop = end == NULL ? p + strlen(p) : end;
        const char *eq;

        while (p < stop && (*p == ' ' || *p == '\t'))
            p++;
        if (p < stop) {
            eq = memchr(p, '=', (size_t)(stop - p));
            if (eq == NULL || eq == p)
                return 0;
        }
        if (end == NULL)
            return 1;
        p = end + 1;
    }
}

static void judge_trace(mc_wire_t *w, const char *where, const char *key, json_object *v)
{
    const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
    int ok;

    if (strcmp(key, "traceparent") == 0)
        ok = s != NULL && traceparent_ok(s);
    else if (strcmp(key, "tracestate") == 0 || strcmp(key, "baggage") == 0) {
        if (s != NULL && strlen(s) > MC_WIRE_TRACE_VALUE_MAX)
            return;
        ok = s != NULL && member_list_ok(s);
    } else
        return;
    if (ok)
        mc_wire_pass(w, "wire/meta-trace-context");
    else
        mc_wire_fail(w, "wire/meta-trace-context", "%s: _meta.%s is %s, not of the W3C %s format",
                     where, key, s == NULL ? "no string" : "a string",
                     strcmp(key, "baggage") == 0 ? "Baggage" : "Trace Context");
}

static void judge_meta(mc_wire_t *w, const char *where, json_object *obj, int names, int trace)
{
    json_object *meta;

    if (!json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, "_meta", &meta) ||
        !json_object_is_type(meta, json_type_object))
        return;
    json_object_object_foreach(meta, key, v)
    {
        if (names) {
            const char *why = key_problem(key);

            if (why != NULL)
                mc_wire_fail(w, "wire/meta-key-format", "%s: the _meta key \"%.80s\" %s", where,
                             key, why);
            else
                mc_wire_pass(w, "wire/meta-key-format");
        }
        if (trace)
            judge_trace(w, where, key, v);
    }
}

/* The keys of a result's capabilities.extensions: each an identifier of
 * the key name format with a prefix (basic/versioning, 2026-07-28). */
static void judge_extensions(mc_wire_t *w, json_object *result)
{
    json_object *ext = mc_json_get(mc_json_get(result, "capabilities"), "extensions");

    if (!json_object_is_type(ext, json_type_object))
        return;
    json_object_object_foreach(ext, key, v)
    {
        const char *why = strchr(key, '/') == NULL ? "has no prefix" : key_problem(key);

        (void)v;
        if (why != NULL)
            mc_wire_fail(w, "wire/extension-id-format",
                         "the extension identifier \"%.80s\" in capabilities.extensions %s", key,
                         why);
        else
            mc_wire_pass(w, "wire/extension-id-format");
    }
}

void mc__wire_meta(mc_wire_t *w, const mc_msg_t *m)
{
    json_object *body = m->kind == MC_MSG_RESULT ? m->result : m->params;
    int names, trace;
    char where[96];

    if (w->version[0] == '\0' || body == NULL || !json_object_is_type(body, json_type_object))
        return;
    names = mc_version_cmp(w->version, MC_VN_2025_06_18) >= 0;
    trace = mc_version_cmp(w->version, MC_VN_2026_07_28) >= 0;
    if (!names && !trace)
        return;
    snprintf(where, sizeof(where), "%s%.60s", m->kind == MC_MSG_RESULT ? "a result" : "",
             m->method != NULL ? m->method : "");
    judge_meta(w, where, body, names, trace);
    if (trace && m->kind == MC_MSG_RESULT)
        judge_extensions(w, body);
    json_object_object_foreach(body, member, v)
    {
        size_t i, n;

        (void)member;
        if (!json_object_is_type(v, json_type_array))
            continue;
        n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            judge_meta(w, where, json_object_array_get_idx(v, i), names, trace);
    }
}
