#include "judge/check.h"

#include <stdio.h>
#include <string.h>

const char *mc_level_name(mc_level_t level)
{
    switch (level) {
    case MC_LEVEL_MUST:
        return "MUST";
    case MC_LEVEL_SHOULD:
        return "SHOULD";
    case MC_LEVEL_MAY:
        return "MAY";
    default:
        return "INFO";
    }
}

int mc_level_parse(const char *s, mc_level_t *out)
{
    if (strcmp(s, "MUST") == 0)
        *out = MC_LEVEL_MUST;
    else if (strcmp(s, "SHOULD") == 0)
        *out = MC_LEVEL_SHOULD;
    else if (strcmp(s, "MAY") == 0)
        *out = MC_LEVEL_MAY;
    else if (strcmp(s, "INFO") == 0)
        *out = MC_LEVEL_INFO;
    else
        return -1;
    return 0;
}

const mc_check_ref_t *mc_check_ref_for(const mc_check_def_t *d, const char *version)
{
    const mc_check_ref_t *best = NULL;
    size_t i;

    if (d == NULL || d->refs[0].version == NULL)
        return NULL;
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++) {
        int c = version != NULL ? strcmp(d->refs[i].version, version) : 1;
        if (c == 0)
            return &d->refs[i];
        if (c < 0)
            best = &d->refs[i]; /* refs are in version order: the last earlier one wins */
    }
    return best != NULL ? best : &d->refs[0];
}

const mc_check_ref_t *mc_check_ref_at(const mc_check_def_t *d, const char *version)
{
    size_t i;

    if (d == NULL || version == NULL)
        return NULL;
    for (i = 0; i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++)
        if (strcmp(d->refs[i].version, version) == 0)
            return &d->refs[i];
    return NULL;
}

int mc_check_stands_at(const mc_check_def_t *d, const char *version)
{
    if (d == NULL || d->author || d->legacy || d->refs[0].version == NULL)
        return 1;
    return mc_check_ref_at(d, version) != NULL;
}

mc_level_t mc_check_level_for(const mc_check_def_t *d, const char *version)
{
    const mc_check_ref_t *r = mc_check_ref_for(d, version);

    if (d == NULL)
        return MC_LEVEL_MUST;
    return r != NULL && r->has_level ? r->level : d->level;
}

const char *mc_check_quote_for(const mc_check_def_t *d, const char *version)
{
    const mc_check_ref_t *r = mc_check_ref_for(d, version);

    if (d == NULL)
        return "";
    if (r != NULL && r->quote != NULL)
        return r->quote;
    return d->quote != NULL ? d->quote : "";
}

size_t mc_check_ref_string(const mc_check_def_t *d, const char *version, char *buf, size_t n)
{
    const mc_check_ref_t *r = mc_check_ref_for(d, version);
    int w;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (r == NULL)
        return 0;
    w = snprintf(buf, n, "%s/%s", r->version, r->page);
    if (w < 0) {
        buf[0] = '\0';
        return 0;
    }
    return (size_t)w < n ? (size_t)w : n - 1;
}

int mc_check_id_ok(const char *id)
{
    const char *p;
    int slash = 0;

    if (id == NULL || *id == '\0' || *id == '/')
        return 0;
    for (p = id; *p != '\0'; p++) {
        if (*p == '/')
            slash = 1;
        else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
                   *p == '.'))
            return 0;
    }
    return slash && p[-1] != '/';
}

int mc_version_name_ok(const char *v)
{
    int i;

    for (i = 0; i < 10; i++) {
        char c = v[i];
        if (i == 4 || i == 7) {
            if (c != '-')
                return 0;
        } else if (c < '0' || c > '9') {
            return 0;
        }
    }
    return v[10] == '\0';
}

int mc_spec_ref_ok(const char *ref)
{
    char v[11];
    const char *p;

    if (strlen(ref) < 12 || ref[10] != '/')
        return 0;
    memcpy(v, ref, 10);
    v[10] = '\0';
    if (!mc_version_name_ok(v))
        return 0;
    for (p = ref + 11; *p != '\0'; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n')
            return 0;
    return ref[11] != '\0' && ref[11] != '#';
}

static int is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

unsigned mc_check_keywords(const char *quote)
{
    static const struct {
        const char *word;
        unsigned bit;
    } words[] = {
        {"MUST", MC_KW_MUST},     {"REQUIRED", MC_KW_MUST},      {"SHALL", MC_KW_MUST},
        {"SHOULD", MC_KW_SHOULD}, {"RECOMMENDED", MC_KW_SHOULD}, {"MAY", MC_KW_MAY},
        {"OPTIONAL", MC_KW_MAY},
    };
    unsigned kw = 0;
    const char *p = quote;

    if (quote == NULL)
        return 0;
    while (*p != '\0') {
        const char *start;
        size_t n, i;
        while (*p != '\0' && !is_word_char(*p))
            p++;
        start = p;
        while (is_word_char(*p))
            p++;
        n = (size_t)(p - start);
        for (i = 0; n > 0 && i < sizeof(words) / sizeof(words[0]); i++)
            if (strlen(words[i].word) == n && strncmp(start, words[i].word, n) == 0)
                kw |= words[i].bit;
    }
    return kw;
}

void mc_check_keywords_describe(unsigned kw, char *buf, size_t n)
{
    static const char *const names[] = {"MUST", "SHOULD", "MAY"};
    size_t len = 0, i, k = 0;

    if (n == 0)
        return;
    buf[0] = '\0';
    if (kw == 0) {
        snprintf(buf, n, "no RFC 2119 keyword");
        return;
    }
    for (i = 0; i < 3; i++) {
        int w;
        if (!(kw & (1u << i)))
            continue;
        w = snprintf(buf + len, n - len, "%s%s", k++ > 0 ? " and " : "", names[i]);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

int mc_check_level_fits(mc_level_t level, const char *quote)
{
    unsigned kw = mc_check_keywords(quote);

    if (level == MC_LEVEL_INFO)
        return kw == 0;
    return (kw & (1u << level)) != 0;
}

int mc_check_page_ok(const char *page)
{
    const char *p, *hash = NULL;
    size_t n = page != NULL ? strlen(page) : 0;
    char v[11];

    if (n == 0 || n > MC_CHECK_MAX_PAGE || page[0] == '/' || page[0] == '#')
        return 0;
    if (n > 10 && page[10] == '/') {
        memcpy(v, page, 10);
        v[10] = '\0';
        if (mc_version_name_ok(v))
            return 0; /* the version goes in the key, not the page */
    }
    for (p = page; *p != '\0'; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            return 0;
        if (*p == '#') {
            if (hash != NULL)
                return 0;
            hash = p;
        }
    }
    return hash == NULL || (hash[1] != '\0' && hash[-1] != '/');
}
