#include "scenario/match.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonrpc.h"
#include "schema/validator.h"
#include "scenario/vars.h"

const char *const mc_matcher_names[] = {"equals", "not_equals", "type",   "matches", "present",
                                        "absent", "length",     "range",  "contains", "base64",
                                        "uri",    "one_of",     "json_schema", "valid_against",
                                        "text_json", NULL};

static const char *const type_names[] = {"string", "number", "integer", "boolean",
                                         "object", "array",  "null",    NULL};

/*
 * Regular expressions run in a C.UTF-8 locale (set per thread with
 * uselocale), so "." and bracket expressions match whole code points.
 */
static locale_t utf8;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_init(void)
{
    utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

static locale_t use_utf8(void)
{
    pthread_once(&utf8_once, utf8_init);
    return utf8 != (locale_t)0 ? uselocale(utf8) : (locale_t)0;
}

static void restore_locale(locale_t old)
{
    if (old != (locale_t)0)
        uselocale(old);
}

static int rx_compile(regex_t *rx, const char *re)
{
    locale_t old = use_utf8();
    int rc = regcomp(rx, re, REG_EXTENDED | REG_NOSUB);

    restore_locale(old);
    return rc;
}

static int rx_match(const regex_t *rx, const char *s)
{
    locale_t old = use_utf8();
    int rc = regexec(rx, s, 0, NULL, 0);

    restore_locale(old);
    return rc == 0;
}

int mc_matcher_type_known(json_object *t)
{
    size_t i;

    if (t == NULL || !json_object_is_type(t, json_type_string))
        return 0;
    for (i = 0; type_names[i] != NULL; i++)
        if (strcmp(json_object_get_string(t), type_names[i]) == 0)
            return 1;
    return 0;
}

int mc_matcher_regex_ok(json_object *re)
{
    regex_t rx;

    if (re == NULL || !json_object_is_type(re, json_type_string))
        return -1;
    if (rx_compile(&rx, json_object_get_string(re)) != 0)
        return -1;
    regfree(&rx);
    return 0;
}

static int is_number(json_object *v)
{
    return v != NULL &&
           (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

int mc_json_equal(json_object *a, json_object *b)
{
    if (is_number(a) && is_number(b)) {
        if (json_object_is_type(a, json_type_int) && json_object_is_type(b, json_type_int))
            return json_object_get_int64(a) == json_object_get_int64(b);
        return json_object_get_double(a) == json_object_get_double(b);
    }
    if (a == NULL || b == NULL)
        return a == b;
    if (json_object_get_type(a) != json_object_get_type(b))
        return 0;
    if (json_object_is_type(a, json_type_array)) {
        size_t i, n = json_object_array_length(a);
        if (n != json_object_array_length(b))
            return 0;
        for (i = 0; i < n; i++)
            if (!mc_json_equal(json_object_array_get_idx(a, i), json_object_array_get_idx(b, i)))
                return 0;
        return 1;
    }
    if (json_object_is_type(a, json_type_object)) {
        if (json_object_object_length(a) != json_object_object_length(b))
            return 0;
        json_object_object_foreach(a, key, va)
        {
            json_object *vb;
            if (!json_object_object_get_ex(b, key, &vb) || !mc_json_equal(va, vb))
                return 0;
        }
        return 1;
    }
    return json_object_equal(a, b);
}

int mc_json_subset(json_object *want, json_object *have)
{
    if (want != NULL && json_object_is_type(want, json_type_object)) {
        if (have == NULL || !json_object_is_type(have, json_type_object))
            return 0;
        json_object_object_foreach(want, key, wv)
        {
            json_object *hv;
            if (!json_object_object_get_ex(have, key, &hv) || !mc_json_subset(wv, hv))
                return 0;
        }
        return 1;
    }
    if (want != NULL && json_object_is_type(want, json_type_array)) {
        size_t i, j, n, m;
        if (have == NULL || !json_object_is_type(have, json_type_array))
            return 0;
        n = json_object_array_length(want);
        m = json_object_array_length(have);
        for (i = 0; i < n; i++) {
            int hit = 0;
            for (j = 0; j < m && !hit; j++)
                hit = mc_json_subset(json_object_array_get_idx(want, i),
                                     json_object_array_get_idx(have, j));
            if (!hit)
                return 0;
        }
        return 1;
    }
    return mc_json_equal(want, have);
}

int mc_is_base64(const char *s, size_t len)
{
    /* The schema layer's "byte" format is the one strict base64 check. */
    return mc_schema_format_check("byte", s, len);
}

int mc_is_uri(const char *s)
{
    return mc_uri_is_absolute(s);
}

/* Code points in a UTF-8 string. */
static size_t utf8_len(const char *s)
{
    size_t n = 0;

    for (; *s != '\0'; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* v's compact text into out, cut with "..."; v may be a scenario's value
 * that other workers read at once (mc_json_text_dup serializes a copy). */
static void compact(json_object *v, char *out, size_t n)
{
    size_t len = 0;
    char *dup = mc_json_text_dup(v, &len);
    const char *s = dup != NULL ? dup : "?";

    if (dup == NULL)
        len = 1;
    if (len + 1 > n)
        snprintf(out, n, "%.*s...", (int)(n - 4), s);
    else
        snprintf(out, n, "%s", s);
    free(dup);
}

typedef struct eval {
    json_object *a; /* the assertion */
    const char *matcher;
    json_object *arg;
    regex_t rx;
    int have_rx;
    mc_match_t *m;
    int failed;
    int visits;
    int optional; /* a missing value holds */
} eval_t;

static int type_ok(const char *t, json_object *v)
{
    if (strcmp(t, "null") == 0)
        return v == NULL;
    if (v == NULL)
        return 0;
    if (strcmp(t, "string") == 0)
        return json_object_is_type(v, json_type_string);
    if (strcmp(t, "number") == 0)
        return is_number(v);
    if (strcmp(t, "integer") == 0)
        return json_object_is_type(v, json_type_int) ||
               (json_object_is_type(v, json_type_double) &&
                floor(json_object_get_double(v)) == json_object_get_double(v));
    if (strcmp(t, "boolean") == 0)
        return json_object_is_type(v, json_type_boolean);
    if (strcmp(t, "object") == 0)
        return json_object_is_type(v, json_type_object);
    if (strcmp(t, "array") == 0)
        return json_object_is_type(v, json_type_array);
    return 0;
}

static int bound(json_object *arg, const char *key, double *out)
{
    json_object *b;

    if (!json_object_object_get_ex(arg, key, &b) || !is_number(b))
        return 0;
    *out = json_object_get_double(b);
    return 1;
}

/*
 * The compile options of the json_schema and valid_against matchers: a
 * schema without "$schema" is read as JSON Schema 2020-12, the default the
 * 2025-11-25 tools page names for inputSchema and outputSchema (2025-06-18
 * names no dialect; the keywords tools use read the same in draft-07 and
 * 2020-12, except the array form of "items").
 */
static const mc_schema_options_t tool_schema_opts = {.dialect = MC_SCHEMA_DIALECT_2020_12};

/* True when v is a JSON Schema the validator compiles (an object or a
 * boolean schema). Otherwise why says what is wrong. */
static int schema_compiles(json_object *v, char *why, size_t n)
{
    mc_schema_t *cs = NULL;
    mc_errbuf_t eb;

    if (v == NULL || !(json_object_is_type(v, json_type_object) ||
                       json_object_is_type(v, json_type_boolean))) {
        snprintf(why, n, "a JSON Schema is an object or a boolean");
        return 0;
    }
    mc_errbuf_clear(&eb);
    if (mc_schema_compile(v, &tool_schema_opts, &cs, &eb) != MC_OK) {
        snprintf(why, n, "%.200s", eb.msg);
        return 0;
    }
    mc_schema_free(cs);
    return 1;
}

/* True when v is valid against schema (which must compile). Otherwise why
 * says where and how it is not. */
static int valid_against(json_object *schema, json_object *v, char *why, size_t n)
{
    mc_schema_t *cs = NULL;
    mc_errbuf_t eb;
    mc_schema_report_t *rep;
    int ok;

    mc_errbuf_clear(&eb);
    if (mc_schema_compile(schema, &tool_schema_opts, &cs, &eb) != MC_OK) {
        snprintf(why, n, "the schema itself does not compile: %.200s", eb.msg);
        return 0;
    }
    rep = malloc(sizeof(*rep));
    if (rep == NULL) {
        mc_schema_free(cs);
        snprintf(why, n, "out of memory");
        return 0;
    }
    mc_schema_report_clear(rep);
    ok = mc_schema_validate(cs, mc_schema_root(cs), v, NULL, rep) == MC_OK;
    for (size_t i = 0; !ok && i < rep->n_entries; i++)
        if (rep->entries[i].severity == MC_SCHEMA_ERROR) {
            snprintf(why, n, "%.200s", rep->entries[i].message);
            break;
        }
    free(rep);
    mc_schema_free(cs);
    return ok;
}

/* The "length" matcher: a string's characters, an array's items or an
 * object's members, within {"min", "max"} or equal to a number. */
static int match_length(json_object *arg, json_object *v, char *expected, size_t en)
{
    double lo = 0, hi = 1e300, len;

    if (is_number(arg)) {
        lo = hi = json_object_get_double(arg);
        snprintf(expected, en, "length %g", lo);
    } else {
        int has_lo = bound(arg, "min", &lo), has_hi = bound(arg, "max", &hi);
        if (has_lo && has_hi)
            snprintf(expected, en, "length between %g and %g", lo, hi);
        else if (has_lo)
            snprintf(expected, en, "length at least %g", lo);
        else
            snprintf(expected, en, "length at most %g", hi);
    }
    if (v == NULL)
        return 0;
    if (json_object_is_type(v, json_type_string))
        len = (double)utf8_len(json_object_get_string(v));
    else if (json_object_is_type(v, json_type_array))
        len = (double)json_object_array_length(v);
    else if (json_object_is_type(v, json_type_object))
        len = (double)json_object_object_length(v);
    else
        return 0;
    return len >= lo && len <= hi;
}

/* The "range" matcher: a number within {"min", "max"}. */
static int match_range(json_object *arg, json_object *v, char *expected, size_t en)
{
    double lo = -1e300, hi = 1e300, x;
    int has_lo = bound(arg, "min", &lo), has_hi = bound(arg, "max", &hi);

    if (has_lo && has_hi)
        snprintf(expected, en, "a number between %g and %g", lo, hi);
    else if (has_lo)
        snprintf(expected, en, "a number >= %g", lo);
    else
        snprintf(expected, en, "a number <= %g", hi);
    if (!is_number(v))
        return 0;
    x = json_object_get_double(v);
    return x >= lo && x <= hi;
}

/* The "contains" matcher: a substring, an array item that holds arg, or an
 * object that holds arg as a subset. */
static int match_contains(json_object *arg, json_object *v, char *expected, size_t en)
{
    char t[400];

    compact(arg, t, sizeof(t));
    snprintf(expected, en, "a value containing %s", t);
    if (v != NULL && json_object_is_type(v, json_type_string) &&
        json_object_is_type(arg, json_type_string))
        return strstr(json_object_get_string(v), json_object_get_string(arg)) != NULL;
    if (v != NULL && json_object_is_type(v, json_type_array) &&
        !json_object_is_type(arg, json_type_array)) {
        size_t i, n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            if (mc_json_subset(arg, json_object_array_get_idx(v, i)))
                return 1;
        return 0;
    }
    return mc_json_subset(arg, v);
}

/* True when block is a text content block ({"type": "text", "text": T})
 * whose T parses as one JSON value equal to want. */
static int text_block_is_json(json_object *block, json_object *want)
{
    json_object *type, *text, *parsed = NULL;
    int eq;

    if (!json_object_is_type(block, json_type_object) ||
        !json_object_object_get_ex(block, "type", &type) ||
        !json_object_is_type(type, json_type_string) ||
        strcmp(json_object_get_string(type), "text") != 0 ||
        !json_object_object_get_ex(block, "text", &text) ||
        !json_object_is_type(text, json_type_string))
        return 0;
    if (mc_json_parse(json_object_get_string(text), (size_t)json_object_get_string_len(text), 0,
                      &parsed, NULL) != MC_OK)
        return 0;
    eq = mc_json_equal(want, parsed);
    json_object_put(parsed);
    return eq;
}

/* The "text_json" matcher: an array of content blocks holding a text block
 * whose text is arg serialized. The JSON values are compared (numbers by
 * value, members in any order), not their spelling: any serialization of
 * the value is one. */
static int match_text_json(json_object *arg, json_object *v, char *expected, size_t en)
{
    size_t i, n;
    char t[400];

    compact(arg, t, sizeof(t));
    snprintf(expected, en, "a text block whose text is the JSON %s", t);
    if (v == NULL || !json_object_is_type(v, json_type_array))
        return 0;
    n = json_object_array_length(v);
    for (i = 0; i < n; i++)
        if (text_block_is_json(json_object_array_get_idx(v, i), arg))
            return 1;
    return 0;
}

/* Applies the matcher to one selected value; returns 1 when it holds. */
static int apply(eval_t *e, json_object *v, int found, char *expected, size_t en)
{
    const char *m = e->matcher;
    json_object *arg = e->arg;

    if (strcmp(m, "present") == 0) {
        int want = json_object_get_boolean(arg);
        snprintf(expected, en, want ? "present" : "absent");
        return found == want;
    }
    if (strcmp(m, "absent") == 0) {
        int want = json_object_get_boolean(arg);
        snprintf(expected, en, want ? "absent" : "present");
        return found != want;
    }
    if (!found && e->optional && strcmp(m, "present") != 0 && strcmp(m, "absent") != 0) {
        snprintf(expected, en, "(optional, missing)");
        return 1; /* "optional": true — a missing value holds */
    }
    if (!found && strcmp(m, "not_equals") == 0) {
        char t[200];
        compact(arg, t, sizeof(t));
        snprintf(expected, en, "anything but %s", t);
        return 1; /* a missing value equals nothing */
    }
    if (!found) {
        char t[200];
        compact(arg, t, sizeof(t));
        snprintf(expected, en, "%s %s (the value is missing)", m, t);
        return 0;
    }
    if (strcmp(m, "equals") == 0 || strcmp(m, "not_equals") == 0) {
        int eq = mc_json_equal(arg, v);
        char t[400];
        compact(arg, t, sizeof(t));
        snprintf(expected, en, "%s%s", m[0] == 'n' ? "anything but " : "", t);
        return m[0] == 'n' ? !eq : eq;
    }
    if (strcmp(m, "one_of") == 0) {
        size_t i, n = json_object_is_type(arg, json_type_array) ? json_object_array_length(arg) : 0;
        char t[400];
        compact(arg, t, sizeof(t));
        snprintf(expected, en, "one of %s", t);
        for (i = 0; i < n; i++)
            if (mc_json_equal(json_object_array_get_idx(arg, i), v))
                return 1;
        return 0;
    }
    if (strcmp(m, "type") == 0) {
        snprintf(expected, en, "a value of type %s", json_object_get_string(arg));
        return type_ok(json_object_get_string(arg), v);
    }
    if (strcmp(m, "matches") == 0) {
        snprintf(expected, en, "a string matching /%s/", json_object_get_string(arg));
        return v != NULL && json_object_is_type(v, json_type_string) && e->have_rx &&
               rx_match(&e->rx, json_object_get_string(v));
    }
    if (strcmp(m, "length") == 0)
        return match_length(arg, v, expected, en);
    if (strcmp(m, "range") == 0)
        return match_range(arg, v, expected, en);
    if (strcmp(m, "contains") == 0)
        return match_contains(arg, v, expected, en);
    if (strcmp(m, "text_json") == 0)
        return match_text_json(arg, v, expected, en);
    if (strcmp(m, "base64") == 0) {
        int want = json_object_get_boolean(arg);
        int ok = v != NULL && json_object_is_type(v, json_type_string) &&
                 mc_is_base64(json_object_get_string(v), (size_t)json_object_get_string_len(v));
        snprintf(expected, en, want ? "strict base64" : "not base64");
        return ok == want;
    }
    if (strcmp(m, "uri") == 0) {
        int want = json_object_get_boolean(arg);
        int ok = v != NULL && json_object_is_type(v, json_type_string) &&
                 mc_is_uri(json_object_get_string(v));
        snprintf(expected, en, want ? "an absolute URI" : "not a URI");
        return ok == want;
    }
    if (strcmp(m, "json_schema") == 0) {
        int want = json_object_get_boolean(arg);
        char why[300] = "";
        int ok = schema_compiles(v, why, sizeof(why));
        snprintf(expected, en, "%s%s%s", want ? "a valid JSON Schema" : "not a valid JSON Schema",
                 why[0] ? "; found: " : "", why);
        return ok == want;
    }
    if (strcmp(m, "valid_against") == 0) {
        char why[300] = "";
        int ok = valid_against(arg, v, why, sizeof(why));
        snprintf(expected, en, "a value valid against the given schema%s%s",
                 why[0] ? "; found: " : "", why);
        return ok;
    }
    snprintf(expected, en, "a known matcher");
    return 0;
}

static void visit(void *ctx, json_object *value, int found, const char *where)
{
    eval_t *e = ctx;
    char expected[512];

    e->visits++;
    if (e->failed)
        return;
    if (!apply(e, value, found, expected, sizeof(expected))) {
        e->failed = 1;
        snprintf(e->m->where, sizeof(e->m->where), "%s", where[0] ? where : "(message)");
        snprintf(e->m->expected, sizeof(e->m->expected), "%s", expected);
        if (found)
            compact(value, e->m->actual, sizeof(e->m->actual));
        else
            snprintf(e->m->actual, sizeof(e->m->actual), "(missing)");
    }
}

int mc_assert_eval(json_object *assertion, json_object *msg, mc_match_t *m)
{
    eval_t e;
    json_object *path;
    size_t i;
    int visits;

    memset(m, 0, sizeof(*m));
    memset(&e, 0, sizeof(e));
    e.a = assertion;
    e.m = m;
    if (!json_object_object_get_ex(assertion, "path", &path) ||
        !json_object_is_type(path, json_type_string)) {
        snprintf(m->expected, sizeof(m->expected), "an assertion with a \"path\"");
        return -1;
    }
    for (i = 0; mc_matcher_names[i] != NULL; i++) {
        json_object *arg;
        if (json_object_object_get_ex(assertion, mc_matcher_names[i], &arg)) {
            e.matcher = mc_matcher_names[i];
            e.arg = arg;
            break;
        }
    }
    if (e.matcher == NULL) {
        snprintf(m->expected, sizeof(m->expected), "an assertion with a matcher");
        return -1;
    }
    {
        json_object *opt;
        e.optional = json_object_object_get_ex(assertion, "optional", &opt) &&
                     json_object_get_boolean(opt);
    }
    if (strcmp(e.matcher, "matches") == 0) {
        if (!json_object_is_type(e.arg, json_type_string) ||
            rx_compile(&e.rx, json_object_get_string(e.arg)) != 0) {
            snprintf(m->expected, sizeof(m->expected), "a valid regular expression");
            return -1;
        }
        e.have_rx = 1;
    }
    visits = mc_path_each(msg, json_object_get_string(path), visit, &e);
    if (e.have_rx)
        regfree(&e.rx);
    if (visits < 0) {
        snprintf(m->expected, sizeof(m->expected), "a well-formed path");
        return -1;
    }
    m->pass = !e.failed;
    return 0;
}
