/*
 * known.c - holding a scenario's spec quotes to the sentences the project
 * knows (judge/quotes.h). A check that presents a sentence as the spec's
 * must carry one of them verbatim; a rule of the user's own product is an
 * author's check, which presents none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/quotes.h"
#include "scenario/lint.h"

#define NOT_KNOWN                                                                                  \
    "not a sentence of the spec pages mcpcheck knows; for your own rule use \"author\": true "     \
    "(scenarios/README.md, Testing your own server)"

int mc_scenario_check_quotes(const mc_scenario_t *sc, const mc_quotes_t *known, char **problems)
{
    mc__lint_t l;
    size_t i, j;
    int count;

    memset(&l, 0, sizeof(l));
    l.doc = &sc->doc;
    *problems = NULL;
    for (i = 0; i < sc->n_reqs; i++) {
        const mc_requirement_t *q = &sc->reqs[i];
        char ptr[96];
        if (q->author || q->legacy)
            continue;
        if (!mc_quotes_known(known, q->quote)) {
            snprintf(ptr, sizeof(ptr), "/spec/%zu/quote", i);
            mc__lint_problem(&l, ptr, "check \"%s\": the quote is " NOT_KNOWN, q->check);
        }
        for (j = 0; j < MC_CHECK_MAX_REFS && q->refs[j].version != NULL; j++) {
            if (q->refs[j].quote == NULL || mc_quotes_known(known, q->refs[j].quote))
                continue;
            snprintf(ptr, sizeof(ptr), "/spec/%zu/quotes/%s", i, q->refs[j].version);
            mc__lint_problem(&l, ptr, "check \"%s\": quotes[\"%s\"] is " NOT_KNOWN, q->check,
                             q->refs[j].version);
        }
    }
    count = l.count;
    if (l.nomem) {
        free(l.problems.buf);
        free(l.warnings.buf);
        return MC_ENOMEM;
    }
    *problems = l.problems.buf;
    free(l.warnings.buf);
    return count;
}
