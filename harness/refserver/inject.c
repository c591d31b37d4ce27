/*
 * inject.c - the violation switch table: lookup and --list-bugs output.
 */
#include <stdio.h>
#include <string.h>

#include "refserver/inject.h"
#include "refserver/refserver.h"

typedef struct rs_bug_info {
    const char *name;
    const char *level;
    const char *rule;
    const char *ref;
} rs_bug_info_t;

static const rs_bug_info_t rs_bugs[] = {
    {"", "", "", ""},
#define RS__XX(id, name, level, rule, ref) {name, level, rule, ref},
    RS_BUG_MAP(RS__XX)
#undef RS__XX
};

rs_bug_t mc__rs_bug_find(const char *name)
{
    int i;

    if (name == NULL)
        return RS_BUG_NONE;
    for (i = 1; i < RS_BUG_COUNT; i++)
        if (strcmp(rs_bugs[i].name, name) == 0)
            return (rs_bug_t)i;
    return RS_BUG_NONE;
}

const char *mc__rs_bug_name(rs_bug_t bug)
{
    if ((int)bug <= 0 || bug >= RS_BUG_COUNT)
        return "";
    return rs_bugs[bug].name;
}

int mc_refserver_bug_count(void)
{
    return RS_BUG_COUNT - 1;
}

void mc_refserver_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx)
{
    char line[512];
    int i;

    for (i = 1; i < RS_BUG_COUNT; i++) {
        snprintf(line, sizeof(line), "%s\t%s\t%s\t%s", rs_bugs[i].name, rs_bugs[i].level,
                 rs_bugs[i].rule, rs_bugs[i].ref);
        fn(ctx, line);
    }
}
