/*
 * quotes.c - the catalogue of spec sentences the project knows (quotes.h).
 */
#include "judge/quotes.h"

#include <stdlib.h>
#include <string.h>

#include "judge/builtin.h"

/* Bytes a normalised quote may take: a longer one is no known quote. */
#define QUOTE_BUF (MC_CHECK_MAX_QUOTE + 1)

/* Where the markdown link starting at s ("[text](url)" or "![text](url)")
 * ends, with its text in [*text, *text + *len); NULL when s starts none. */
static const char *link_at(const char *s, const char **text, size_t *len)
{
    const char *open = *s == '!' ? s + 1 : s, *close, *end;

    if (*open != '[')
        return NULL;
    close = strchr(open + 1, ']');
    if (close == NULL || close[1] != '(')
        return NULL;
    end = strchr(close + 2, ')');
    if (end == NULL)
        return NULL;
    *text = open + 1;
    *len = (size_t)(close - open - 1);
    return end + 1;
}

/* Removes every non-overlapping occurrence of pat from s, left to right. */
static void drop_all(char *s, const char *pat)
{
    size_t k = strlen(pat);
    char *r = s, *w = s;

    while (*r != '\0') {
        if (strncmp(r, pat, k) == 0) {
            r += k;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

size_t mc_quote_normalise(const char *quote, char *out, size_t n)
{
    size_t len = 0, r, w;
    const char *p = quote != NULL ? quote : "";

    if (n == 0)
        return 0;
    /* Links to their text. */
    while (*p != '\0' && len + 1 < n) {
        const char *text;
        size_t tl;
        const char *next = link_at(p, &text, &tl);
        if (next != NULL) {
            if (tl > n - 1 - len)
                tl = n - 1 - len;
            memcpy(out + len, text, tl);
            len += tl;
            p = next;
        } else {
            out[len++] = *p++;
        }
    }
    out[len] = '\0';
    drop_all(out, "**");
    drop_all(out, "__");
    drop_all(out, "`");
    /* Whitespace runs to one space, none at the ends. */
    for (r = 0, w = 0; out[r] != '\0'; r++) {
        if (is_space(out[r])) {
            if (w > 0 && out[w - 1] != ' ')
                out[w++] = ' ';
            continue;
        }
        out[w++] = out[r];
    }
    if (w > 0 && out[w - 1] == ' ')
        w--;
    out[w] = '\0';
    return w;
}

int mc_quotes_add(mc_quotes_t *q, const char *quote)
{
    char buf[QUOTE_BUF];
    char *copy;

    if (quote == NULL || quote[0] == '\0')
        return MC_OK;
    if (q->n == MC_QUOTES_MAX)
        return MC_EFULL;
    if (q->n == q->cap) {
        size_t cap = q->cap == 0 ? 256 : q->cap * 2;
        char **nv;
        if (cap > MC_QUOTES_MAX)
            cap = MC_QUOTES_MAX;
        nv = realloc(q->v, cap * sizeof(*nv));
        if (nv == NULL)
            return MC_ENOMEM;
        q->v = nv;
        q->cap = cap;
    }
    mc_quote_normalise(quote, buf, sizeof(buf));
    copy = strdup(buf);
    if (copy == NULL)
        return MC_ENOMEM;
    q->v[q->n++] = copy;
    q->sealed = 0;
    return MC_OK;
}

int mc_quotes_add_check(mc_quotes_t *q, const mc_check_def_t *d)
{
    size_t i;
    int rc;

    if (d == NULL || d->author || d->legacy)
        return MC_OK;
    rc = mc_quotes_add(q, d->quote);
    for (i = 0; rc == MC_OK && i < MC_CHECK_MAX_REFS && d->refs[i].version != NULL; i++)
        rc = mc_quotes_add(q, d->refs[i].quote);
    return rc;
}

int mc_quotes_add_builtin(mc_quotes_t *q)
{
    const mc_check_def_t *d;
    size_t i;
    int rc = MC_OK;

    for (i = 0; rc == MC_OK && (d = mc_builtin_check_at(i)) != NULL; i++)
        rc = mc_quotes_add_check(q, d);
    return rc;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void mc_quotes_seal(mc_quotes_t *q)
{
    size_t r, w = 0;

    if (q->n > 0)
        qsort(q->v, q->n, sizeof(*q->v), by_text);
    for (r = 0; r < q->n; r++) {
        if (w > 0 && strcmp(q->v[w - 1], q->v[r]) == 0) {
            free(q->v[r]);
            continue;
        }
        q->v[w++] = q->v[r];
    }
    q->n = w;
    q->sealed = 1;
}

int mc_quotes_known(const mc_quotes_t *q, const char *quote)
{
    char buf[QUOTE_BUF];
    const char *key = buf;

    if (quote == NULL || !q->sealed || q->n == 0 || strlen(quote) >= sizeof(buf))
        return 0;
    mc_quote_normalise(quote, buf, sizeof(buf));
    return bsearch(&key, q->v, q->n, sizeof(*q->v), by_text) != NULL;
}

void mc_quotes_free(mc_quotes_t *q)
{
    size_t i;

    for (i = 0; i < q->n; i++)
        free(q->v[i]);
    free(q->v);
    memset(q, 0, sizeof(*q));
}
