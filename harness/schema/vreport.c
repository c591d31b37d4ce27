/*
 * vreport.c - the validator's findings: records made in the collecting mode
 * (instance path, message), the choice of what to say when no alternative
 * of anyOf/oneOf matched, and the public report (mc_schema_report_*). None
 * of it runs while a message is valid.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/vctx.h"

/* ---- findings -------------------------------------------------------------- */

/* Appends a JSON Pointer token, escaping ~ and /, and control characters
 * as "\uXXXX" so a location always fits on one line. */
static size_t put_token(char *out, size_t cap, size_t o, const char *tok)
{
    for (; *tok != '\0'; tok++) {
        unsigned char ch = (unsigned char)*tok;
        if (o + 7 >= cap)
            break;
        if (ch == '~' || ch == '/') {
            out[o++] = '~';
            out[o++] = ch == '~' ? '0' : '1';
        } else if (ch < 0x20 || ch == 0x7f) {
            o += (size_t)snprintf(out + o, cap - o, "\\u%04x", ch);
        } else {
            out[o++] = (char)ch;
        }
    }
    out[o] = '\0';
    return o;
}

static char *build_path(const vctx_t *c, const char *extra)
{
    char buf[MC_SCHEMA_PATH_SIZE * 2];
    size_t o = 0, i;

    buf[0] = '\0';
    if (c->prefix != NULL)
        o = (size_t)snprintf(buf, sizeof(buf), "%s", c->prefix);
    if (o >= sizeof(buf))
        o = sizeof(buf) - 1;
    for (i = 0; i < c->plen && o + 24 < sizeof(buf); i++) {
        buf[o++] = '/';
        if (c->path[i].key != NULL)
            o = put_token(buf, sizeof(buf), o, c->path[i].key);
        else
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%zu", c->path[i].index);
    }
    if (extra != NULL && o + 2 < sizeof(buf)) {
        buf[o++] = '/';
        o = put_token(buf, sizeof(buf), o, extra);
    }
    buf[o] = '\0';
    return strdup(buf);
}

/* Records a finding at the current instance location (+ extra token). */
void mc__note_rec(vctx_t *c, mc_schema_severity_t sev, const mc__snode_t *n, const char *kw,
                  const char *extra, const char *fmt, ...)
{
    char msg[MC_SCHEMA_MSG_SIZE];
    va_list ap;
    rec_t *r;

    if (!c->collect)
        return;
    if (c->n_recs >= MC_SCHEMA_MAX_COLLECT) {
        c->dropped++;
        return;
    }
    if (c->n_recs == c->cap_recs) {
        size_t ncap = c->cap_recs == 0 ? 16 : c->cap_recs * 2;
        rec_t *nr = realloc(c->recs, ncap * sizeof(*nr));
        if (nr == NULL) {
            c->nomem = 1;
            return;
        }
        c->recs = nr;
        c->cap_recs = ncap;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    r = &c->recs[c->n_recs];
    r->sev = sev;
    r->depth = c->plen + (extra != NULL ? 1 : 0);
    r->node = n;
    r->keyword = kw;
    r->inst = build_path(c, extra);
    r->msg = strdup(msg);
    if (r->inst == NULL || r->msg == NULL) {
        free(r->inst);
        free(r->msg);
        c->nomem = 1;
        return;
    }
    c->n_recs++;
}

void mc__drop_recs(vctx_t *c, size_t from, size_t to)
{
    size_t i;

    if (from == to)
        return;
    for (i = from; i < to; i++) {
        free(c->recs[i].inst);
        free(c->recs[i].msg);
    }
    memmove(&c->recs[from], &c->recs[to], (c->n_recs - to) * sizeof(rec_t));
    c->n_recs -= to - from;
}

/*
 * Renders a JSON value for a message, cut to cap on a UTF-8 boundary.
 * json-c serializes into a buffer it keeps inside the object, so serializing
 * a schema's own value (an enum member, a const, a bound) would write to the
 * compiled schema, which other threads read at the same time. A private copy
 * is serialized instead; this runs only when a message is built.
 */
void mc__render(json_object *v, char *out, size_t cap)
{
    json_object *copy = NULL;
    const char *js;
    size_t len;

    if (v != NULL && json_object_deep_copy(v, &copy, NULL) != 0) {
        snprintf(out, cap, "(value)");
        return;
    }
    js = json_object_to_json_string_ext(copy,
                                        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    len = js != NULL ? strlen(js) : 0;
    if (len < cap) {
        memcpy(out, js != NULL ? js : "", len + 1);
    } else {
        len = cap > 4 ? cap - 4 : 0;
        while (len > 0 && ((unsigned char)js[len] & 0xC0) == 0x80)
            len--;
        memcpy(out, js, len);
        memcpy(out + len, "...", 4);
    }
    json_object_put(copy);
}

const char *mc__type_name_of(json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_null:
        return "null";
    case json_type_boolean:
        return "boolean";
    case json_type_int:
        return "integer";
    case json_type_double:
        return "number";
    case json_type_string:
        return "string";
    case json_type_array:
        return "array";
    default:
        return "object";
    }
}

void mc__types_text(uint8_t types, char *out, size_t cap)
{
    static const struct {
        uint8_t bit;
        const char *name;
    } names[] = {{MC__T_NULL, "null"},   {MC__T_BOOL, "boolean"}, {MC__T_NUM, "number"},
                 {MC__T_INT, "integer"}, {MC__T_STR, "string"},   {MC__T_ARR, "array"},
                 {MC__T_OBJ, "object"}};
    size_t i, o = 0;
    int first = 1;

    out[0] = '\0';
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!(types & names[i].bit))
            continue;
        if (names[i].bit == MC__T_INT && (types & MC__T_NUM))
            continue;
        o += (size_t)snprintf(out + o, cap - o, "%s%s", first ? "" : " or ", names[i].name);
        if (o >= cap)
            return;
        first = 0;
    }
}

typedef struct score {
    int mismatch;
    size_t depth;
    size_t count;
} score_t;

/* Scores the findings recs[from..] of one alternative evaluated at path
 * depth base: a const/enum failure on the value or a direct member (a
 * discriminator such as "type": "text"), or a type failure on the value
 * itself, means the value is of another kind ("mismatch"). */
static score_t score_of(const vctx_t *c, size_t from, size_t base)
{
    score_t sc = {0, 0, 0};
    size_t i;

    for (i = from; i < c->n_recs; i++) {
        if (c->recs[i].sev != MC_SCHEMA_ERROR)
            continue;
        sc.count++;
        if ((c->recs[i].depth <= base + 1 && (strcmp(c->recs[i].keyword, "const") == 0 ||
                                              strcmp(c->recs[i].keyword, "enum") == 0)) ||
            (c->recs[i].depth == base && strcmp(c->recs[i].keyword, "type") == 0))
            sc.mismatch = 1;
        if (c->recs[i].depth > sc.depth)
            sc.depth = c->recs[i].depth;
    }
    return sc;
}

static int better(score_t a, score_t b)
{
    if (a.mismatch != b.mismatch)
        return a.mismatch < b.mismatch;
    if (a.depth != b.depth)
        return a.depth > b.depth;
    return a.count < b.count;
}

/*
 * Collecting mode, no alternative matched: keep the findings of the branch
 * that came closest (no discriminator/type mismatch, deepest, fewest);
 * when every branch failed on the kind of value, say so in one line.
 */
void mc__explain_none(vctx_t *c, const mc__snode_t *n, const char *kw, mc__snode_t *const *alts,
                      size_t n_alts, json_object *v)
{
    size_t mark = c->n_recs, i;
    score_t best = {1, 0, SIZE_MAX};
    int have = 0;

    for (i = 0; i < n_alts; i++) {
        size_t start = c->n_recs;
        score_t sc;
        (void)mc__vnode(c, alts[i], v);
        sc = score_of(c, start, c->plen);
        if (!have || better(sc, best)) {
            mc__drop_recs(c, mark, start); /* the previous best */
            best = sc;
            have = 1;
        } else {
            mc__drop_recs(c, start, c->n_recs);
        }
    }
    if (!have || best.mismatch || best.count == 0) {
        mc__drop_recs(c, mark, c->n_recs);
        mc__vnote(c, MC_SCHEMA_ERROR, n, kw, NULL, "matches none of the %zu alternatives of %s",
                  n_alts, kw);
    }
}

/* ---- the public report ---- */

void mc_schema_report_clear(mc_schema_report_t *r)
{
    r->valid = 1;
    r->n_errors = 0;
    r->n_warnings = 0;
    r->n_entries = 0;
    r->truncated = 0;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t len = src != NULL ? strlen(src) : 0;

    if (len >= cap) {
        len = cap - 1;
        while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80)
            len--;
    }
    if (len > 0)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

void mc_schema_report_add(mc_schema_report_t *r, mc_schema_severity_t sev,
                          const char *instance_path, const char *schema_path, const char *keyword,
                          const char *message)
{
    mc_schema_error_t *e;

    if (sev == MC_SCHEMA_ERROR) {
        r->valid = 0;
        r->n_errors++;
    } else {
        r->n_warnings++;
    }
    if (r->n_entries >= MC_SCHEMA_MAX_ERRORS) {
        r->truncated = 1;
        return;
    }
    e = &r->entries[r->n_entries++];
    e->severity = sev;
    copy_str(e->instance_path, sizeof(e->instance_path), instance_path);
    copy_str(e->schema_path, sizeof(e->schema_path), schema_path);
    copy_str(e->keyword, sizeof(e->keyword), keyword);
    snprintf(e->message, sizeof(e->message), "%s: %s",
             instance_path != NULL && instance_path[0] != '\0' ? instance_path : "(root)",
             message != NULL ? message : "");
}
