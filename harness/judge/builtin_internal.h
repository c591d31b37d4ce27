/*
 * builtin_internal.h - what the two halves of the built-in check registry
 * share: builtin.c (wire, schema, lifecycle, pagination) and builtin_http.c
 * (Streamable HTTP).
 */
#ifndef MC_JUDGE_BUILTIN_INTERNAL_H
#define MC_JUDGE_BUILTIN_INTERNAL_H

#include <stddef.h>

#include "judge/check.h"

/* A check's page at a version; with the sentence as that version words it. */
#define REF(v, p) {.version = (v), .page = (p)}
#define REFQ(v, p, q) {.version = (v), .page = (p), .quote = (q)}
/* The sentence at a version where its keyword differs. */
#define REFQL(version, page, quote, lvl) {version, page, quote, 1, lvl}

/* The i-th Streamable HTTP check (from 0), or NULL past the last. */
const mc_check_def_t *mc__builtin_http_at(size_t i);

#endif /* MC_JUDGE_BUILTIN_INTERNAL_H */
