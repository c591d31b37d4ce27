/*
 * schema_check.h - the consistency oracle both schema targets apply to one
 * validation (a helper of the fuzz targets, not a target).
 */
#ifndef MC_FUZZ_SCHEMA_CHECK_H
#define MC_FUZZ_SCHEMA_CHECK_H

#include <json-c/json.h>

#include "schema/validator.h"

/*
 * Validates inst against node twice, with the fast yes/no pass
 * (mc_schema_is_valid) and the collecting one (mc_schema_validate), and
 * aborts when they disagree or the report breaks its own contract: a valid
 * verdict with errors in the report, an invalid one without any error, an
 * invalid verdict whose details could not be found ("invalid" with no
 * keyword: the collecting pass found nothing wrong), or an entry that is not
 * NUL-terminated. Returns 1 when the instance is valid.
 */
int mc_fuzz_check_validation(const mc_schema_t *s, const mc_schema_node_t *node,
                             json_object *inst, const char *what);

#endif /* MC_FUZZ_SCHEMA_CHECK_H */
