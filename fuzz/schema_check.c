/*
 * schema_check.c - the validation consistency oracle (see schema_check.h).
 */
#include "schema_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static void dump(const mc_schema_report_t *rep)
{
    size_t i;

    for (i = 0; i < rep->n_entries; i++)
        fprintf(stderr, "  [%s] %s (keyword \"%s\" at %s)\n",
                rep->entries[i].severity == MC_SCHEMA_ERROR ? "error" : "warning",
                rep->entries[i].message, rep->entries[i].keyword, rep->entries[i].schema_path);
}

static void fail(const char *what, const char *why, json_object *inst,
                 const mc_schema_report_t *rep)
{
    size_t n = 0;
    const char *txt = inst != NULL ? json_object_to_json_string_length(
                                         inst, JSON_C_TO_STRING_PLAIN, &n)
                                   : "null";

    if (inst == NULL)
        n = 4;
    fprintf(stderr, "schema oracle (%s): %s\n", what, why);
    dump(rep);
    mc_fuzz_fail(why, txt, n);
}

int mc_fuzz_check_validation(const mc_schema_t *s, const mc_schema_node_t *node,
                             json_object *inst, const char *what)
{
    mc_schema_report_t *rep = malloc(sizeof(*rep));
    int fast, rc;
    size_t i, errors = 0;

    if (rep == NULL)
        return 0;
    mc_schema_report_clear(rep);
    fast = mc_schema_is_valid(s, node, inst);
    rc = mc_schema_validate(s, node, inst, NULL, rep);
    if (rc == MC_ENOMEM) {
        free(rep);
        return fast;
    }
    if (fast != (rc == MC_OK))
        fail(what, "mc_schema_is_valid and mc_schema_validate disagree", inst, rep);
    for (i = 0; i < rep->n_entries; i++) {
        const mc_schema_error_t *e = &rep->entries[i];
        if (!terminated(e->instance_path, sizeof(e->instance_path)) ||
            !terminated(e->schema_path, sizeof(e->schema_path)) ||
            !terminated(e->keyword, sizeof(e->keyword)) ||
            !terminated(e->message, sizeof(e->message)))
            fail(what, "a report entry is not NUL-terminated", inst, rep);
        if (e->severity == MC_SCHEMA_ERROR) {
            errors++;
            if (e->keyword[0] == '\0' && strcmp(e->schema_path, "#") == 0)
                fail(what,
                     "the validator called the instance invalid but its collecting pass found "
                     "no error (the fast and collecting passes disagree)",
                     inst, rep);
        }
    }
    if (rc == MC_OK && (rep->n_errors != 0 || errors != 0 || !rep->valid))
        fail(what, "a valid verdict with errors in the report", inst, rep);
    if (rc == MC_EINVALID && (rep->n_errors == 0 || rep->valid))
        fail(what, "an invalid verdict without an error in the report", inst, rep);
    if (rep->n_entries > MC_SCHEMA_MAX_ERRORS)
        fail(what, "the report holds more entries than its cap", inst, rep);
    free(rep);
    return rc == MC_OK;
}
