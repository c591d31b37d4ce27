/*
 * internal.h - the compiled form of a schema, shared by the schema layer's
 * compiler (compile.c), evaluator (validate.c) and helpers. Not installed,
 * not for other layers.
 */
#ifndef MC_SCHEMA_INTERNAL_H
#define MC_SCHEMA_INTERNAL_H

#include <locale.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "schema/validator.h"

/* Instance type bits. MC__T_INT is "integer"; MC__T_NUM ("number") includes it. */
#define MC__T_NULL 0x01u
#define MC__T_BOOL 0x02u
#define MC__T_INT 0x04u
#define MC__T_NUM 0x08u
#define MC__T_STR 0x10u
#define MC__T_ARR 0x20u
#define MC__T_OBJ 0x40u

/* Keyword presence bits. */
enum {
    MC__KW_TYPE = 1u << 0,
    MC__KW_ENUM = 1u << 1,
    MC__KW_CONST = 1u << 2,
    MC__KW_REF = 1u << 3,
    MC__KW_ALLOF = 1u << 4,
    MC__KW_ANYOF = 1u << 5,
    MC__KW_ONEOF = 1u << 6,
    MC__KW_NOT = 1u << 7,
    MC__KW_IF = 1u << 8,
    MC__KW_PROPS = 1u << 9, /* properties/required/additionalProperties/patternProperties */
    MC__KW_PROPNAMES = 1u << 10,
    MC__KW_MINPROPS = 1u << 11,
    MC__KW_MAXPROPS = 1u << 12,
    MC__KW_DEPS = 1u << 13,
    MC__KW_ITEMS = 1u << 14, /* items/prefixItems/additionalItems */
    MC__KW_CONTAINS = 1u << 15,
    MC__KW_MINITEMS = 1u << 16,
    MC__KW_MAXITEMS = 1u << 17,
    MC__KW_UNIQUE = 1u << 18,
    MC__KW_MINLEN = 1u << 19,
    MC__KW_MAXLEN = 1u << 20,
    MC__KW_PATTERN = 1u << 21,
    MC__KW_FORMAT = 1u << 22,
    MC__KW_MIN = 1u << 23,
    MC__KW_MAX = 1u << 24,
    MC__KW_XMIN = 1u << 25,
    MC__KW_XMAX = 1u << 26,
    MC__KW_MULT = 1u << 27,
    MC__KW_UNEVAL = 1u << 28, /* unevaluatedProperties / unevaluatedItems */
    MC__KW_DYNREF = 1u << 29  /* $dynamicRef */
};
#define MC__KW_OBJ_MASK                                                                            \
    (MC__KW_PROPS | MC__KW_PROPNAMES | MC__KW_MINPROPS | MC__KW_MAXPROPS | MC__KW_DEPS)
#define MC__KW_ARR_MASK                                                                            \
    (MC__KW_ITEMS | MC__KW_CONTAINS | MC__KW_MINITEMS | MC__KW_MAXITEMS | MC__KW_UNIQUE)
#define MC__KW_STR_MASK (MC__KW_MINLEN | MC__KW_MAXLEN | MC__KW_PATTERN | MC__KW_FORMAT)
#define MC__KW_NUM_MASK (MC__KW_MIN | MC__KW_MAX | MC__KW_XMIN | MC__KW_XMAX | MC__KW_MULT)

/* Asserted formats. */
typedef enum mc__fmt {
    MC__FMT_NONE = 0,
    MC__FMT_URI,
    MC__FMT_URIREF,
    MC__FMT_URITEMPLATE,
    MC__FMT_BYTE,
    MC__FMT_DATETIME,
    MC__FMT_DATE,
    MC__FMT_EMAIL
} mc__fmt_t;

typedef struct mc__snode mc__snode_t;

/* One entry of a node's property table (properties and required names). */
typedef struct mc__prop {
    const char *name;    /* borrowed from the document */
    size_t len;
    uint32_t hash;
    mc__snode_t *schema; /* NULL when the name is only required */
    int req_bit;         /* index in the required list, or -1 */
} mc__prop_t;

typedef struct mc__pattern {
    regex_t re;
    const char *source; /* borrowed: the ECMA-262 source */
    mc__snode_t *schema; /* patternProperties value; NULL for `pattern` */
} mc__pattern_t;

typedef struct mc__dep {
    const char *name; /* borrowed */
    const char **required; /* borrowed names (dependencies array form, dependentRequired) */
    size_t n_required;
    mc__snode_t *schema; /* dependencies schema form, dependentSchemas */
} mc__dep_t;

/* A string-only enum is compared without touching json-c values. */
typedef struct mc__str {
    const char *s;
    size_t len;
} mc__str_t;

struct mc__snode {
    uint32_t kw;       /* MC__KW_* present */
    uint8_t types;     /* MC__T_* accepted (with MC__KW_TYPE) */
    int8_t boolean;    /* -1 object schema, 0 false, 1 true */
    uint8_t lenient;   /* integer type accepts fractions with a warning */
    uint8_t enum_strs; /* every enum value is a string: use enum_s */
    const char *lenient_note;

    /* Location, for schema paths: parent + "/kw[/key|/index]"; a node
     * compiled from a $ref pointer has parent NULL and kw the pointer. */
    const mc__snode_t *parent;
    const char *loc_kw;
    const char *loc_key;
    long loc_index; /* -1 when none */
    int doc;        /* index of the document the node belongs to */
    json_object *src; /* borrowed: the schema JSON */

    /* $ref */
    char *ref_uri; /* absolute, arena; resolved into ref at compile time */
    mc__snode_t *ref;

    /* $dynamicRef: the statically resolved target, and the anchor name to
     * look up in the dynamic scope (NULL when the target has no matching
     * $dynamicAnchor, and the keyword behaves as $ref) */
    char *dyn_uri;
    mc__snode_t *dyn_ref;
    const char *dyn_name;
    int res; /* the schema resource (index in mc_schema.res) the node is in */

    /* unevaluatedProperties / unevaluatedItems (NULL = absent) */
    mc__snode_t *uneval_props, *uneval_items;

    /* enum / const */
    json_object *enum_v; /* borrowed array */
    mc__str_t *enum_s;
    size_t n_enum;
    json_object *const_v; /* borrowed (may be NULL for JSON null) */

    /* combinators */
    mc__snode_t **all_of, **any_of, **one_of;
    size_t n_all_of, n_any_of, n_one_of;
    mc__snode_t *not_, *if_, *then_, *else_;
    /* anyOf discriminator: every alternative requires property disc_prop
     * with a const string (disc_vals[i] for alternative i), so an object
     * instance only needs the alternatives whose value it carries. */
    const char *disc_prop;
    mc__str_t *disc_vals;

    /* object */
    mc__prop_t *props;     /* hash table, cap slots (power of two), NULL names empty */
    size_t props_cap;
    size_t n_props;        /* entries with a schema */
    const char **required; /* borrowed names, in schema order */
    size_t n_required;
    uint64_t req_mask;     /* bits of the unique required names (first 64) */
    size_t n_req_unique;   /* unique required names; > 64 disables the mask */
    mc__snode_t *additional; /* additionalProperties (NULL = absent) */
    mc__pattern_t *pprops;
    size_t n_pprops;
    mc__snode_t *property_names;
    size_t min_props, max_props;
    mc__dep_t *deps;
    size_t n_deps;

    /* array */
    mc__snode_t *items;      /* single schema, or the rest after a tuple (2020-12) */
    mc__snode_t **tuple;     /* items array (draft-07) or prefixItems */
    size_t n_tuple;
    mc__snode_t *additional_items; /* rest after a draft-07 tuple */
    mc__snode_t *contains;
    size_t min_contains, max_contains; /* max SIZE_MAX when absent */
    size_t min_items, max_items;

    /* string */
    size_t min_len, max_len;
    mc__pattern_t *pattern;
    mc__fmt_t format;
    const char *format_name; /* borrowed */

    /* number */
    json_object *minimum, *maximum, *xminimum, *xmaximum, *multiple_of; /* borrowed */
};

/* Arena block list: everything a compiled schema holds is freed at once. */
typedef struct mc__arena_block {
    struct mc__arena_block *next;
    size_t used, cap;
    /* data follows, max_align_t aligned */
} mc__arena_block_t;

typedef struct mc__doc {
    json_object *root; /* owned reference */
    char *base;        /* arena: the document's base URI (no fragment) */
    int modern;        /* 2019-09/2020-12 dialect */
    int formats;       /* formats are assertions in this document */
    int no_validation; /* its meta-schema leaves out the validation vocabulary */
} mc__doc_t;

/* A $dynamicAnchor: its resource, name and schema object. */
typedef struct mc__dyn {
    int res;
    int doc;
    const char *name; /* borrowed from the document */
    json_object *obj; /* borrowed */
    char *base;       /* arena */
    mc__snode_t *node;
} mc__dyn_t;

/* $id / $anchor index entry: absolute URI (with "#name" for anchors). */
typedef struct mc__idx {
    char *uri; /* arena */
    json_object *obj; /* borrowed */
    int doc;
    char *base; /* arena: base URI in force at obj */
} mc__idx_t;

struct mc_schema {
    mc__arena_block_t *arena;
    mc__doc_t docs[MC_SCHEMA_MAX_DOCS];
    int n_docs;
    mc__snode_t *root;
    /* json_object* -> node map (open addressing) */
    json_object **map_keys;
    mc__snode_t **map_vals;
    size_t map_cap, map_len;
    mc__idx_t *ids;
    size_t n_ids, ids_cap;
    mc__pattern_t **regexes; /* every compiled regex, for regfree */
    size_t n_regexes, regexes_cap;
    locale_t utf8; /* C.UTF-8 for regcomp/regexec, (locale_t)0 when missing */
    mc_schema_resolver_fn resolver;
    void *resolver_ctx;
    int dialect; /* mc_schema_dialect_t for documents without $schema */
    int formats; /* mc_schema_formats_t */
    unsigned long max_steps; /* evaluation budget per validation */
    /* schema resources (base URIs) and the $dynamicAnchors in them */
    char **res;
    size_t n_res, res_cap;
    mc__dyn_t *dyn;
    size_t n_dyn, dyn_cap;
};

/* ---- helpers shared inside the layer ---- */

/* FNV-1a over a NUL-terminated key; also returns its length. */
uint32_t mc__hash_key(const char *s, size_t *len_out);
/* FNV-1a over len bytes. */
uint32_t mc__hash_mem(const char *s, size_t len);

/* JSON equality with JSON Schema semantics: 1 == 1.0, objects unordered. */
int mc__json_equal(json_object *a, json_object *b);

/* Looks up the format id of a name; MC__FMT_NONE for the ones not asserted. */
mc__fmt_t mc__format_id(const char *name);
/* Checks s[0..len) against an asserted format. */
int mc__format_ok(mc__fmt_t f, const char *s, size_t len);

/*
 * Resolves reference ref against base (RFC 3986 section 5.2) into out
 * (size cap, NUL-terminated). Returns MC_OK, or MC_ETOOBIG when the result
 * does not fit (out untouched then), MC_EINVAL on a malformed reference.
 */
int mc__uri_resolve(const char *base, const char *ref, char *out, size_t cap);

/*
 * Translates an ECMA-262 pattern into POSIX ERE in out (cap bytes incl.
 * NUL). Returns MC_OK, MC_EUNSUPPORTED (eb names the construct) or
 * MC_ETOOBIG.
 */
int mc__regex_translate(const char *ecma, char *out, size_t cap, mc_errbuf_t *eb);

/* Runs a compiled pattern over s[0..len); 1 when it matches somewhere. */
int mc__regex_search(const mc_schema_t *s, const mc__pattern_t *p, const char *str, size_t len);

/* Built-in documents (the draft-07 meta-schema): the JSON text for an
 * absolute URI without fragment, or NULL. */
const char *mc__builtin_schema(const char *uri);

/* Writes the schema location of node (+ "/keyword" when keyword is not
 * NULL) into out, truncated to cap. */
void mc__schema_path(const mc_schema_t *s, const mc__snode_t *node, const char *keyword, char *out,
                     size_t cap);

#endif /* MC_SCHEMA_INTERNAL_H */
