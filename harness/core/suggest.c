/*
 * suggest.c - the nearest known name to a mistyped one (suggest.h).
 */
#include "core/suggest.h"

#include <string.h>

size_t mc_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t rows[3][MC_SUGGEST_MAX_NAME + 1], i, j;

    if (la > MC_SUGGEST_MAX_NAME || lb > MC_SUGGEST_MAX_NAME)
        return (size_t)-1;
    for (j = 0; j <= lb; j++)
        rows[0][j] = j;
    for (i = 1; i <= la; i++) {
        size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
        cur[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return rows[la % 3][lb];
}

void mc_suggest_init(mc_suggest_t *s, const char *name, size_t len)
{
    s->name = name;
    s->len = len;
    s->best = NULL;
    s->best_d = (size_t)-1;
}

void mc_suggest_offer(mc_suggest_t *s, const char *word)
{
    size_t lw, d, limit = s->len < 6 ? 1 : s->len < 16 ? 2 : 3;

    if (word == NULL || s->len == 0 || s->len > MC_SUGGEST_MAX_NAME)
        return;
    lw = strlen(word);
    if (lw > MC_SUGGEST_MAX_NAME || (lw == s->len && strncmp(word, s->name, lw) == 0))
        return;
    if ((s->len >= 3 && lw > s->len && strncmp(word, s->name, s->len) == 0) ||
        (lw >= 3 && s->len > lw && strncmp(word, s->name, lw) == 0))
        d = 0;
    else
        d = mc_edit_distance(s->name, s->len, word, lw);
    if (d <= limit && d < s->best_d) {
        s->best = word;
        s->best_d = d;
    }
}
