/*
 * regex.c - ECMA-262 patterns on the C library's POSIX regex engine.
 *
 * The translation (see validator.h for the list and the deviations) turns
 * the ECMA syntax JSON Schema mandates into POSIX extended syntax. Bracket
 * expressions are parsed into items and re-emitted in the order POSIX needs
 * (']' first, '^' never first, '-' last). Matching runs in the C.UTF-8
 * locale the schema holds, so multi-byte characters count as one.
 */
#include <stdint.h>
#include <string.h>

#include "core/hex.h"
#include "schema/internal.h"

typedef struct out {
    char *buf;
    size_t cap, len;
    int overflow;
} out_t;

static void emit(out_t *o, const char *s, size_t n)
{
    if (o->overflow || o->len + n + 1 > o->cap) {
        o->overflow = 1;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void emits(out_t *o, const char *s)
{
    emit(o, s, strlen(s));
}

/* Encodes a code point as UTF-8 into u (at least 4 bytes); returns length. */
static size_t utf8(uint32_t cp, char *u)
{
    if (cp < 0x80) {
        u[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    u[0] = (char)(0xF0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int read_hex(const char *s, size_t n, uint32_t *out)
{
    size_t i;
    uint32_t v = 0;

    for (i = 0; i < n; i++) {
        int h = mc_hex_digit(s[i]);
        if (h < 0)
            return 0;
        v = v * 16 + (uint32_t)h;
    }
    *out = v;
    return 1;
}

/* Reads one UTF-8 encoded character from p; returns its length (>= 1). */
static size_t read_cp(const char *p, uint32_t *cp)
{
    unsigned char c0 = (unsigned char)p[0];
    size_t n, i;

    if (c0 < 0x80) {
        *cp = c0;
        return 1;
    }
    n = c0 >= 0xF0 ? 4 : c0 >= 0xE0 ? 3 : c0 >= 0xC0 ? 2 : 1;
    *cp = n == 1 ? c0 : c0 & (0x7F >> n);
    for (i = 1; i < n; i++) {
        if (((unsigned char)p[i] & 0xC0) != 0x80)
            return 1;
        *cp = (*cp << 6) | ((unsigned char)p[i] & 0x3F);
    }
    return n;
}

/*
 * Decodes an escape at p (just after the backslash) that stands for one
 * character: \t \n \r \f \v \xHH \uXXXX (\uD8xx\uDCxx pairs), \cX and
 * escaped punctuation. Returns the bytes consumed, 0 when the escape is a
 * class or assertion (handled by the caller), -1 when unsupported.
 */
static int escape_char(const char *p, uint32_t *cp)
{
    switch (p[0]) {
    case 't':
        *cp = '\t';
        return 1;
    case 'n':
        *cp = '\n';
        return 1;
    case 'r':
        *cp = '\r';
        return 1;
    case 'f':
        *cp = '\f';
        return 1;
    case 'v':
        *cp = '\v';
        return 1;
    case 'x':
        return read_hex(p + 1, 2, cp) ? 3 : -1;
    case 'u':
        if (!read_hex(p + 1, 4, cp))
            return -1;
        if (*cp >= 0xD800 && *cp <= 0xDBFF && p[5] == '\\' && p[6] == 'u') {
            uint32_t lo;
            if (read_hex(p + 7, 4, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                *cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
                return 11;
            }
        }
        return 5;
    case 'c':
        if ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) {
            *cp = (uint32_t)(p[1] & 0x1F);
            return 2;
        }
        return -1;
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
    case 'b':
    case 'B':
        return 0;
    case '0':
    case 'p':
    case 'P':
    case 'k':
        return -1;
    default:
        if (p[0] >= '1' && p[0] <= '9')
            return 0; /* backreference */
        if (p[0] == '\0')
            return -1;
        {
            size_t n = read_cp(p, cp);
            return (int)n;
        }
    }
}

/* Emits a literal character outside a bracket expression. */
static void emit_literal(out_t *o, uint32_t cp)
{
    char u[4];
    size_t n;

    if (cp < 0x80 && strchr(".[]()*+?{}|^$\\", (int)cp) != NULL && cp != 0) {
        char esc[2] = {'\\', (char)cp};
        emit(o, esc, 2);
        return;
    }
    n = utf8(cp, u);
    emit(o, u, n);
}

/* A bracket expression item: a character, a range, or a named class. */
typedef struct item {
    uint32_t lo, hi;   /* lo == hi for one character */
    const char *named; /* "0-9", "[:space:]"... emitted as is */
} item_t;

#define MAX_ITEMS 128

static void emit_cp_raw(out_t *o, uint32_t cp)
{
    char u[4];
    size_t n = utf8(cp, u);

    emit(o, u, n);
}

/* A bracket expression being translated: its items, and the characters
 * that POSIX wants in a particular place ("]" first, "[", "^" and "-" last). */
typedef struct class_body {
    item_t items[MAX_ITEMS];
    size_t n_items;
    int negated, has_rbracket, has_dash, has_caret, has_lbracket;
} class_body_t;

/* Reads one class atom at *pp (a character, an escape or a class escape
 * such as \d) into it and advances *pp. Returns 0, or -1 with eb set. */
static int class_atom(const char **pp, item_t *it, mc_errbuf_t *eb)
{
    const char *p = *pp;

    it->named = NULL;
    if (*p != '\\') {
        *pp = p + read_cp(p, &it->lo);
        return 0;
    }
    {
        int k = escape_char(p + 1, &it->lo);
        if (k < 0) {
            mc_errbuf_set(eb, MC_EUNSUPPORTED, "escape \"\\%c\" in a character class", p[1]);
            return -1;
        }
        if (k > 0) {
            *pp = p + 1 + k;
            return 0;
        }
    }
    switch (p[1]) {
    case 'd':
        it->named = "0-9";
        break;
    case 'w':
        it->named = "A-Za-z0-9_";
        break;
    case 's':
        it->named = "[:space:]";
        break;
    case 'b':
        it->lo = '\b';
        break;
    default:
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "negated class \"\\%c\" inside a character class",
                      p[1]);
        return -1;
    }
    *pp = p + 2;
    return 0;
}

/* Reads the end of a range ("-x" at *pp, after its start it->lo) when there
 * is one, and advances *pp. Returns 0, or -1 with eb set. */
static int class_range(const char **pp, item_t *it, mc_errbuf_t *eb)
{
    const char *p = *pp;
    uint32_t lo = it->lo, hi = lo;

    if (it->named != NULL || p[0] != '-' || p[1] == ']' || p[1] == '\0')
        return 0;
    /* a range, unless the end is a class escape */
    if (p[1] == '\\') {
        int k = escape_char(p + 2, &hi);
        if (k > 0)
            p += 2 + k;
        else
            hi = lo; /* "a-\d": '-' is literal */
    } else {
        p += 1;
        p += read_cp(p, &hi);
    }
    *pp = p;
    it->hi = hi;
    if (hi < lo) {
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "range out of order in a character class");
        return -1;
    }
    if (hi != lo && (lo == ']' || lo == '-' || hi == ']' || hi == '-' || lo == '[' || hi == '[')) {
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "range with ']', '[' or '-' as an end");
        return -1;
    }
    return 0;
}

/* Adds one item to cls: the characters POSIX places apart become flags.
 * Returns 0, or -1 with eb set. */
static int class_add(class_body_t *cls, const item_t *it, mc_errbuf_t *eb)
{
    if (it->named == NULL && it->lo == it->hi) {
        switch (it->lo) {
        case ']':
            cls->has_rbracket = 1;
            return 0;
        case '-':
            cls->has_dash = 1;
            return 0;
        case '^':
            cls->has_caret = 1;
            return 0;
        case '[':
            cls->has_lbracket = 1;
            return 0;
        case 0:
            mc_errbuf_set(eb, MC_EUNSUPPORTED, "NUL in a character class");
            return -1;
        default:
            break;
        }
    }
    if (cls->n_items == MAX_ITEMS) {
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "character class with more than %d items", MAX_ITEMS);
        return -1;
    }
    cls->items[cls->n_items++] = *it;
    return 0;
}

/* Emits the POSIX bracket expression of cls. */
static void emit_class(out_t *o, class_body_t *cls)
{
    size_t i;

    if (!cls->negated && cls->n_items == 0 && !cls->has_rbracket && !cls->has_dash &&
        !cls->has_lbracket && cls->has_caret) {
        emits(o, "\\^");
        return;
    }
    emits(o, cls->negated ? "[^" : "[");
    if (cls->has_rbracket)
        emits(o, "]");
    else if (cls->has_caret && cls->n_items == 0 && !cls->has_lbracket && cls->has_dash) {
        emits(o, "-^");
        cls->has_caret = cls->has_dash = 0;
    }
    for (i = 0; i < cls->n_items; i++) {
        if (cls->items[i].named != NULL) {
            emits(o, cls->items[i].named);
            continue;
        }
        emit_cp_raw(o, cls->items[i].lo);
        if (cls->items[i].hi != cls->items[i].lo) {
            emits(o, "-");
            emit_cp_raw(o, cls->items[i].hi);
        }
    }
    if (cls->has_lbracket)
        emits(o, "[");
    if (cls->has_caret)
        emits(o, "^");
    if (cls->has_dash)
        emits(o, "-");
    emits(o, "]");
}

/* Parses an ECMA class body at p (after '['), emits the POSIX form.
 * Returns bytes consumed including the closing ']' or -1. */
static int translate_class(const char *p, out_t *o, mc_errbuf_t *eb)
{
    class_body_t cls;
    const char *start = p;

    memset(&cls, 0, sizeof(cls));
    if (*p == '^') {
        cls.negated = 1;
        p++;
    }
    if (*p == ']') {
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "empty character class \"[]\"");
        return -1;
    }
    while (*p != ']') {
        item_t it;
        if (*p == '\0') {
            mc_errbuf_set(eb, MC_EUNSUPPORTED, "unterminated character class");
            return -1;
        }
        if (class_atom(&p, &it, eb) < 0)
            return -1;
        it.hi = it.lo;
        if (class_range(&p, &it, eb) < 0 || class_add(&cls, &it, eb) < 0)
            return -1;
    }
    p++; /* ']' */
    emit_class(o, &cls);
    return (int)(p - start);
}

/* Length of a {n}, {n,} or {n,m} quantifier at p, or 0. */
static size_t quantifier_len(const char *p)
{
    size_t i = 1, d = 0;

    if (p[0] != '{')
        return 0;
    while (p[i] >= '0' && p[i] <= '9') {
        i++;
        d++;
    }
    if (d == 0)
        return 0;
    if (p[i] == ',') {
        i++;
        while (p[i] >= '0' && p[i] <= '9')
            i++;
    }
    return p[i] == '}' ? i + 1 : 0;
}

/*
 * \p{NAME} / \P{NAME} outside a character class, for the letter classes
 * the locale's classification answers (the compiled schema matches in
 * C.UTF-8): L / Letter, Lu / Uppercase_Letter, Ll / Lowercase_Letter.
 * Emits the bracket expression and returns the length consumed, or -1 for
 * any other property.
 */
static int property_class(const char *p, out_t *o)
{
    static const struct {
        const char *name;
        const char *cls;
    } props[] = {{"L", "alpha"},         {"Letter", "alpha"},
                 {"Lu", "upper"},        {"Uppercase_Letter", "upper"},
                 {"Ll", "lower"},        {"Lowercase_Letter", "lower"}};
    const char *end = strchr(p + 3, '}');
    size_t len, i;

    if (end == NULL)
        return -1;
    len = (size_t)(end - (p + 3));
    for (i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
        if (strlen(props[i].name) != len || strncmp(props[i].name, p + 3, len) != 0)
            continue;
        emits(o, p[1] == 'P' ? "[^[:" : "[[:");
        emits(o, props[i].cls);
        emits(o, ":]]");
        return (int)(end - p) + 1;
    }
    return -1;
}

/* Translates the escape at p (a backslash) outside a bracket expression.
 * Returns the bytes consumed, or -1 with eb set. */
static int translate_escape(const char *p, out_t *o, mc_errbuf_t *eb)
{
    uint32_t cp;
    int k;

    if ((p[1] == 'p' || p[1] == 'P') && p[2] == '{') {
        int n = property_class(p, o);
        if (n < 0)
            mc_errbuf_set(eb, MC_EUNSUPPORTED, "Unicode property \"%.40s\" is not supported", p);
        return n;
    }
    k = escape_char(p + 1, &cp);
    if (k < 0) {
        mc_errbuf_set(eb, MC_EUNSUPPORTED, "escape \"\\%c\" is not supported",
                      p[1] != '\0' ? p[1] : '?');
        return -1;
    }
    if (k > 0) {
        emit_literal(o, cp);
        return 1 + k;
    }
    switch (p[1]) {
    case 'd':
        emits(o, "[0-9]");
        break;
    case 'D':
        emits(o, "[^0-9]");
        break;
    case 'w':
        emits(o, "[A-Za-z0-9_]");
        break;
    case 'W':
        emits(o, "[^A-Za-z0-9_]");
        break;
    case 's':
        emits(o, "[[:space:]]");
        break;
    case 'S':
        emits(o, "[^[:space:]]");
        break;
    case 'b':
        emits(o, "\\b");
        break;
    case 'B':
        emits(o, "\\B");
        break;
    default: { /* backreference \1..\9 */
        char br[2] = {'\\', p[1]};
        emit(o, br, 2);
        break;
    }
    }
    return 2;
}

int mc__regex_translate(const char *ecma, char *buf, size_t cap, mc_errbuf_t *eb)
{
    out_t o;
    const char *p = ecma;

    o.buf = buf;
    o.cap = cap;
    o.len = 0;
    o.overflow = 0;
    if (cap == 0)
        return MC_ETOOBIG;
    buf[0] = '\0';
    while (*p != '\0') {
        char ch = *p;
        size_t q;
        switch (ch) {
        case '\\': {
            int k = translate_escape(p, &o, eb);
            if (k < 0)
                return MC_EUNSUPPORTED;
            p += k;
            break;
        }
        case '[': {
            int k = translate_class(p + 1, &o, eb);
            if (k < 0)
                return MC_EUNSUPPORTED;
            p += 1 + k;
            break;
        }
        case '(':
            if (p[1] == '?') {
                if (p[2] != ':')
                    return mc_errbuf_set(eb, MC_EUNSUPPORTED,
                                         "lookaround and named groups are not supported");
                emits(&o, "(");
                p += 3;
            } else {
                emits(&o, "(");
                p++;
            }
            break;
        case '.':
            emits(&o, "[^\n\r]");
            p++;
            break;
        case '*':
        case '+':
        case '?':
            emit(&o, p, 1);
            p++;
            if (*p == '?')
                p++; /* lazy: the same yes/no answer */
            break;
        case '{':
            q = quantifier_len(p);
            if (q > 0) {
                emit(&o, p, q);
                p += q;
                if (*p == '?')
                    p++;
            } else {
                emits(&o, "\\{");
                p++;
            }
            break;
        case '}':
            emits(&o, "\\}");
            p++;
            break;
        case ']':
            emits(&o, "\\]");
            p++;
            break;
        default: {
            uint32_t cp;
            size_t n = read_cp(p, &cp);
            emit(&o, p, n);
            p += n;
            break;
        }
        }
    }
    if (o.overflow)
        return mc_errbuf_set(eb, MC_ETOOBIG, "pattern too long once translated");
    return MC_OK;
}

int mc__regex_search(const mc_schema_t *s, const mc__pattern_t *p, const char *str, size_t len)
{
    locale_t old = (locale_t)0;
    regmatch_t m[1];
    int rc;

    if (s->utf8 != (locale_t)0)
        old = uselocale(s->utf8);
#ifdef REG_STARTEND
    m[0].rm_so = 0;
    m[0].rm_eo = (regoff_t)len;
    rc = regexec(&p->re, str, 1, m, REG_STARTEND);
#else
    (void)len;
    (void)m;
    rc = regexec(&p->re, str, 0, NULL, 0);
#endif
    if (s->utf8 != (locale_t)0)
        uselocale(old);
    return rc == 0;
}
