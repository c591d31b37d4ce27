/*
 * validator.h - a JSON Schema validator on json-c (draft-07 and 2020-12).
 *
 * A schema document is compiled once (mc_schema_compile) into an internal
 * form: keyword presence flags, property names interned in per-schema hash
 * tables, regular expressions compiled, every `$ref` resolved to the node it
 * points at. Validation then walks the instance without allocating: a first
 * pass only answers "valid or not"; only when that fails (or when a
 * documented leniency was used) a second pass collects the errors with their
 * locations and one-line messages.
 *
 * Keywords: type (integer = a number without fractional part, so 1.0 is an
 * integer), enum, const, properties, required, additionalProperties,
 * patternProperties, propertyNames, items (schema and tuple), additionalItems,
 * prefixItems, contains (+ minContains/maxContains), minItems, maxItems,
 * uniqueItems, minLength/maxLength (code points), pattern, minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum (draft-06+ numeric form), multipleOf,
 * minProperties, maxProperties, dependencies, dependentRequired,
 * dependentSchemas, allOf, anyOf, oneOf, not, if/then/else, boolean schemas,
 * $ref, $id, $anchor, definitions and $defs; in 2019-09/2020-12 documents
 * also unevaluatedProperties/unevaluatedItems (over the annotations of the
 * in-place applicators that hold) and $dynamicRef/$dynamicAnchor (the
 * outermost schema resource of the dynamic scope with the anchor). Not
 * implemented: $recursiveRef (2019-09), contentEncoding/contentMediaType/
 * contentSchema (annotations only, as both dialects allow).
 *
 * Dialect: a document whose root "$schema" names 2019-09 or 2020-12 gets
 * the modern rules (siblings of `$ref` apply, formats are annotations unless
 * the meta-schema names format-assertion); draft-04/06/07 the draft-07 rules
 * (a `$ref` makes its siblings, `$id` included, ignored). A document without
 * "$schema" takes the dialect of the compile options (draft-07 by default).
 * Another "$schema" is looked up as a meta-schema (built-in or resolver) for
 * its dialect and "$vocabulary"; when none is found, compiling fails with
 * MC_EUNSUPPORTED.
 *
 * References: `#` (root), `#/json/pointer` (with ~0 ~1 escapes and percent
 * encoding), plain-name fragments from `$id: "#name"` or `$anchor`, and
 * URIs relative to the base set by enclosing `$id`s, resolved per RFC 3986
 * within the document. The draft-07 and 2020-12 meta-schemas are built in.
 * Other absolute URIs go to the optional resolver callback (nothing is ever
 * fetched from the network); without one, compiling fails (MC_ENOTFOUND)
 * naming the reference.
 *
 * Formats asserted (where formats assert, see above and
 * mc_schema_formats_t): uri, uri-reference, uri-template, byte (strict
 * base64), date-time, date, email. Every other format passes.
 *
 * Regular expressions (pattern, patternProperties): ECMA-262 syntax is
 * translated to POSIX extended syntax and run by the C library's regcomp /
 * regexec in a C.UTF-8 locale (so `.` and bracket expressions match code
 * points). Translated: \d \D \w \W \s \S (ASCII classes, also inside
 * brackets except the negated ones), \b \B (glibc), \t \n \r \f \v \0,
 * \xHH, \uXXXX (incl. surrogate pairs), \/ and other escaped punctuation,
 * (?:...) becomes a group, lazy quantifiers become greedy (same match/no
 * match answer), `.` excludes \n and \r, a `{` that starts no quantifier is
 * literal, \p{L} \p{Lu} \p{Ll} (and \P) are the locale's letter classes.
 * Deviations from ECMA-262: no lookahead/lookbehind, named groups, flags or
 * other properties (a pattern using them fails to compile with
 * MC_EUNSUPPORTED); \s and
 * \w are ASCII-only; code points count one each, where ECMA counts UTF-16
 * code units; backreferences follow glibc.
 *
 * Library code: never prints, never exits; every result is an mc_err_t and
 * details go to a bounded buffer. A compiled schema is immutable after
 * compilation (except mc_schema_mark_lenient_integer, which must be called
 * before sharing it) and may be used by several threads at once.
 */
#ifndef MC_SCHEMA_VALIDATOR_H
#define MC_SCHEMA_VALIDATOR_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"

/* ---- limits (the schema layer's own bounds) ---------------------------- */

/* Nested schema evaluations (keywords, $ref hops, instance levels) per
 * validation; deeper evaluation fails with keyword "$depth". */
#define MC_SCHEMA_MAX_DEPTH 256
/* Schema evaluations per validation (the composition-keyword bound: nested
 * anyOf/oneOf/allOf/if and $ref can make a small schema cost exponential
 * time). Past it the instance is invalid, with keyword "$budget". Large
 * enough for the largest message (MC_MAX_MESSAGE_SIZE holds at most 8M
 * values) at several evaluations per value. */
#define MC_SCHEMA_MAX_STEPS (1ul << 26)
/* Members of one object or items of one array that unevaluatedProperties /
 * unevaluatedItems track on the stack; larger ones take heap memory. */
#define MC_SCHEMA_UNEVAL_STACK 512
/* Errors and warnings kept in one report; later ones are only counted. */
#define MC_SCHEMA_MAX_ERRORS 32
/* Error records held while collecting (combinator branches included). */
#define MC_SCHEMA_MAX_COLLECT 2048
/* Characters kept of an instance or schema location (incl. NUL). */
#define MC_SCHEMA_PATH_SIZE 256
/* Characters kept of one message (incl. NUL). */
#define MC_SCHEMA_MSG_SIZE 384
/* Longest URI handled when resolving $id and $ref (incl. NUL). */
#define MC_SCHEMA_MAX_URI 2048
/* Compiled nodes per schema; a larger document fails with MC_EFULL. */
#define MC_SCHEMA_MAX_NODES (1u << 20)
/* Documents per compiled schema (the root, the meta-schema, resolved ones). */
#define MC_SCHEMA_MAX_DOCS 64

/* ---- types ------------------------------------------------------------- */

typedef struct mc_schema mc_schema_t;      /* a compiled schema (opaque) */
typedef struct mc__snode mc_schema_node_t; /* one compiled subschema (opaque) */

typedef enum mc_schema_severity {
    MC_SCHEMA_ERROR = 0,  /* the instance is invalid */
    MC_SCHEMA_WARNING = 1 /* accepted, with a remark (a documented leniency) */
} mc_schema_severity_t;

/* One finding. All strings are NUL-terminated and single-line. */
typedef struct mc_schema_error {
    mc_schema_severity_t severity;
    char instance_path[MC_SCHEMA_PATH_SIZE]; /* JSON Pointer into the instance; "" = root */
    char schema_path[MC_SCHEMA_PATH_SIZE];   /* "#/definitions/Resource/properties/uri/format" */
    char keyword[24];                        /* "required", "type", "format", ... */
    char message[MC_SCHEMA_MSG_SIZE];        /* "/resources/0/uri: required property missing" */
} mc_schema_error_t;

/*
 * The findings of one or more validations. Validations append to it, so a
 * message checked in several steps gives one report. Initialise with
 * mc_schema_report_clear(). Fields are read-only for callers.
 */
typedef struct mc_schema_report {
    int valid;         /* 1 until an error is found */
    size_t n_errors;   /* errors found (kept or not) */
    size_t n_warnings; /* warnings found (kept or not) */
    size_t n_entries;  /* entries kept in entries[] (errors and warnings, in order) */
    int truncated;     /* 1 when findings were dropped past MC_SCHEMA_MAX_ERRORS */
    mc_schema_error_t entries[MC_SCHEMA_MAX_ERRORS];
} mc_schema_report_t;

/*
 * Resolver for absolute URIs outside the document (optional). uri has no
 * fragment. On success it returns a new reference (the compiler takes it);
 * NULL means "unknown", which fails the compilation.
 */
typedef json_object *(*mc_schema_resolver_fn)(void *ctx, const char *uri);

/* The dialect of a document that does not name one with "$schema". */
typedef enum mc_schema_dialect {
    MC_SCHEMA_DIALECT_DRAFT7 = 0,  /* the default */
    MC_SCHEMA_DIALECT_2020_12 = 1
} mc_schema_dialect_t;

/* Whether "format" asserts. */
typedef enum mc_schema_formats {
    /* draft-07 documents assert the known formats; 2019-09/2020-12 ones
     * only when their meta-schema names the format-assertion vocabulary */
    MC_SCHEMA_FORMATS_DEFAULT = 0,
    MC_SCHEMA_FORMATS_ASSERT = 1,  /* the known formats are asserted everywhere */
    MC_SCHEMA_FORMATS_ANNOTATE = 2 /* formats are never asserted */
} mc_schema_formats_t;

typedef struct mc_schema_options {
    mc_schema_resolver_fn resolver; /* may be NULL */
    void *resolver_ctx;
    int dialect; /* mc_schema_dialect_t: for documents without "$schema" */
    int formats; /* mc_schema_formats_t */
    unsigned long max_steps; /* evaluations per validation; 0: MC_SCHEMA_MAX_STEPS */
} mc_schema_options_t;

/* ---- API --------------------------------------------------------------- */

/*
 * Compiles a schema document. doc is borrowed: the compiled schema takes its
 * own reference (json_object_get), so the caller may put doc afterwards.
 * opts may be NULL. On success *out owns the compiled schema (free it with
 * mc_schema_free). On error *out is untouched and eb says what and where:
 * MC_ESCHEMA (malformed keyword), MC_ENOTFOUND (unresolvable $ref),
 * MC_EUNSUPPORTED (regex feature), MC_EFULL, MC_ENOMEM, MC_EINVAL.
 */
int mc_schema_compile(json_object *doc, const mc_schema_options_t *opts, mc_schema_t **out,
                      mc_errbuf_t *eb);

/* Frees a compiled schema and releases its documents. NULL is a no-op. */
void mc_schema_free(mc_schema_t *s);

/* The root schema. Never NULL for a compiled schema. */
const mc_schema_node_t *mc_schema_root(const mc_schema_t *s);

/*
 * A named definition: `#/$defs/NAME` or, failing that, `#/definitions/NAME`
 * of the root document. Returns NULL when there is none.
 */
const mc_schema_node_t *mc_schema_definition(const mc_schema_t *s, const char *name);

/* The borrowed root document (valid while s lives). */
json_object *mc_schema_document(const mc_schema_t *s);

/*
 * Returns the borrowed JSON of a named definition (valid while s lives), or
 * NULL. Lets callers inspect definitions (e.g. a method's const).
 */
json_object *mc_schema_definition_json(const mc_schema_t *s, const char *name);

/*
 * Answers only "is inst valid against node" (1 or 0), as fast as possible:
 * no allocation, no messages. inst may be NULL (JSON null).
 */
int mc_schema_is_valid(const mc_schema_t *s, const mc_schema_node_t *node, json_object *inst);

/*
 * Validates inst against node and appends the findings to report (which must
 * have been cleared once). prefix is a JSON Pointer prepended to every
 * instance location (NULL or "" for none), for a value that sits inside a
 * larger message. Returns MC_OK when valid (warnings may have been added),
 * MC_EINVALID when invalid (report->valid becomes 0), or MC_ENOMEM when
 * the error details could not be collected (report->valid is 0 then too).
 */
int mc_schema_validate(const mc_schema_t *s, const mc_schema_node_t *node, json_object *inst,
                       const char *prefix, mc_schema_report_t *report);

/* Empties a report: valid, no findings. */
void mc_schema_report_clear(mc_schema_report_t *report);

/*
 * Appends a finding made outside the validator (e.g. by the MCP registry)
 * to a report; an error makes it invalid. message is the text after the
 * location; it is prefixed with "<instance_path>: " like every entry.
 */
void mc_schema_report_add(mc_schema_report_t *report, mc_schema_severity_t severity,
                          const char *instance_path, const char *schema_path, const char *keyword,
                          const char *message);

/*
 * Documented leniency: marks integer-typed subschemas so a number with a
 * fractional part gets a warning (carrying note) instead of an error.
 * Starting at definition `def`, path is a '/'-separated list of steps, each
 * a property name (through "properties"), "*" (additionalProperties) or
 * "[]" (items); every step also looks through $ref, allOf, anyOf and oneOf.
 * All integer-only schemas reached at the end are marked. Returns how many
 * were marked (0 when the path does not exist or holds no integer type).
 * Must be called before the schema is shared between threads.
 */
int mc_schema_mark_lenient_integer(mc_schema_t *s, const char *def, const char *path,
                                   const char *note);

/*
 * Format checks, also used on their own. Each returns 1 when the string
 * s[0..len) conforms, else 0. unknown format names return 1.
 */
int mc_schema_format_check(const char *format, const char *s, size_t len);

/* True when the format is one the validator asserts. */
int mc_schema_format_known(const char *format);

#endif /* MC_SCHEMA_VALIDATOR_H */
