/*
 * sigs.c - the finding signatures a worker has seen, and when a finding
 * is (again) due for handling.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/internal.h"

static mc__camp_sig_t *sig_find(mc__camp_sigs_t *t, const char *text)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        if (strcmp(t->v[i].text, text) == 0)
            return &t->v[i];
    return NULL;
}

int mc__camp_sig_due(mc__camp_sigs_t *t, const char *text, mc__camp_sig_t **sp)
{
    mc__camp_sig_t *s = sig_find(t, text);
    char *copy;

    *sp = s;
    if (s == NULL) {
        if (t->n >= MC_CAMPAIGN_MAX_FINDINGS || (copy = strdup(text)) == NULL)
            return 0;
        s = &t->v[t->n++];
        memset(s, 0, sizeof(*s));
        s->text = copy;
        *sp = s;
        return 1;
    }
    return !s->settled;
}

void mc__camp_sigs_free(mc__camp_sigs_t *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        free(t->v[i].text);
    t->n = 0;
}
