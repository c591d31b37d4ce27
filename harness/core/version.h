/*
 * version.h - the published MCP protocol versions and what each one has.
 *
 * This is the one list of protocol versions in the project: every other
 * module asks it (by name or by feature) instead of spelling version
 * strings. Versions are ordered oldest first; the order of the ids is the
 * order of publication, so ids compare like dates.
 */
#ifndef MC_CORE_VERSION_H
#define MC_CORE_VERSION_H

#include <stddef.h>

/* The published versions, oldest first. */
typedef enum mc_version_id {
    MC_V_2024_11_05 = 0,
    MC_V_2025_03_26,
    MC_V_2025_06_18,
    MC_V_2025_11_25,
    MC_V_2026_07_28,
    MC_V_COUNT
} mc_version_id_t;

/*
 * The name of each version, spelled once here for static initializers that
 * key data by version (the check registry's refs: REF(MC_VN_2025_06_18, ...));
 * the table in version.c uses them, so a name cannot drift from its row.
 */
#define MC_VN_2024_11_05 "2024-11-05"
#define MC_VN_2025_03_26 "2025-03-26"
#define MC_VN_2025_06_18 "2025-06-18"
#define MC_VN_2025_11_25 "2025-11-25"
#define MC_VN_2026_07_28 "2026-07-28"

/* The version the project tests by default (its baseline). */
#define MC_VERSION_BASELINE_ID MC_V_2025_06_18
#define MC_VERSION_BASELINE MC_VN_2025_06_18
/* The newest version with the initialize handshake, as a literal for static
 * initializers (a test holds it to the table). */
#define MC_VERSION_NEWEST_HANDSHAKE MC_VN_2025_11_25

/* The JSON Schema dialect of a version's protocol schema, which is also the
 * default dialect of the tool schemas (inputSchema/outputSchema) it carries. */
typedef enum mc_version_dialect {
    MC_DIALECT_DRAFT7 = 0, /* http://json-schema.org/draft-07/schema# */
    MC_DIALECT_2020_12 = 1 /* https://json-schema.org/draft/2020-12/schema */
} mc_version_dialect_t;

/* Feature bits: what a version has. */
enum {
    MC_VF_INITIALIZE = 1u << 0,       /* initialize / notifications/initialized handshake */
    MC_VF_STATELESS = 1u << 1,        /* no session: version and capabilities in each _meta */
    MC_VF_BATCH = 1u << 2,            /* JSON-RPC batches allowed */
    MC_VF_AUDIO = 1u << 3,            /* AudioContent */
    MC_VF_TOOL_ANNOTATIONS = 1u << 4, /* ToolAnnotations */
    MC_VF_PROGRESS_MESSAGE = 1u << 5, /* notifications/progress carries message */
    MC_VF_COMPLETIONS_CAP = 1u << 6,  /* ServerCapabilities.completions */
    MC_VF_ELICIT_FORM = 1u << 7,      /* elicitation, form mode */
    MC_VF_ELICIT_URL = 1u << 8,       /* elicitation, URL mode */
    MC_VF_TITLE = 1u << 9,            /* title on BaseMetadata (Tool, Prompt, Resource...) */
    MC_VF_STRUCTURED = 1u << 10,      /* outputSchema / structuredContent */
    MC_VF_RESOURCE_LINK = 1u << 11,   /* ResourceLink content blocks */
    MC_VF_ENVELOPE_IN_DEFS = 1u << 12, /* *Request definitions hold id and jsonrpc */
    MC_VF_TASKS = 1u << 13,           /* the tasks methods in the core protocol */
    MC_VF_ICONS = 1u << 14,           /* icons on tools, prompts, resources, implementations */
    MC_VF_SAMPLING_TOOLS = 1u << 15,  /* tools in sampling/createMessage */
    MC_VF_PING = 1u << 16,            /* ping */
    MC_VF_LOG_SET_LEVEL = 1u << 17,   /* logging/setLevel (else a per-request level) */
    MC_VF_RES_SUBSCRIBE = 1u << 18,   /* resources/subscribe and unsubscribe */
    MC_VF_SERVER_REQUESTS = 1u << 19, /* server-to-client requests (sampling, roots, elicitation) */
    MC_VF_DISCOVER = 1u << 20,        /* server/discover */
    MC_VF_RESULT_TYPE = 1u << 21,     /* resultType on every result; InputRequiredResult */
    MC_VF_LISTEN = 1u << 22,          /* subscriptions/listen */
    MC_VF_CACHEABLE = 1u << 23,       /* ttlMs / cacheScope on cacheable results */
    MC_VF_NOT_FOUND_PARAMS = 1u << 24, /* resource not found is -32602, not -32002 */
    MC_VF_ANY_TOOL_SCHEMA = 1u << 25, /* any 2020-12 keyword in inputSchema/outputSchema */
    MC_VF_RUN_DEFAULT = 1u << 26,     /* `mcpcheck run` tests it when no version is named */
    MC_VF_ERROR_NO_ID = 1u << 27,     /* an error response may leave out an unreadable id */
    MC_VF_STREAMABLE_HTTP = 1u << 28, /* the Streamable HTTP transport (before it: HTTP+SSE) */
    MC_VF_DEPRECATED_RSL = 1u << 29   /* roots, sampling and logging are deprecated features */
};

typedef struct mc_version_info {
    mc_version_id_t id;
    const char *name; /* "2025-06-18" */
    mc_version_dialect_t dialect;
    unsigned features; /* MC_VF_* */
} mc_version_info_t;

/* The row of version id, or NULL when id is out of range. */
const mc_version_info_t *mc_version_at(int id);

/* The row of a version name, or NULL when name is NULL or not published. */
const mc_version_info_t *mc_version_find(const char *name);

/* The name of version id ("" when out of range); a static string. */
const char *mc_version_name(int id);

/* The names of every published version, oldest first, NULL-terminated. */
const char *const *mc_version_names(void);

/* True when name is a published version that has every bit of features. */
int mc_version_has(const char *name, unsigned features);

/*
 * Fills out[] (cap entries, NULL-terminated, so cap >= 1) with the names of
 * the versions having every bit of features (0: all), oldest first.
 * Returns how many were written (not counting the NULL).
 */
size_t mc_version_list(unsigned features, const char **out, size_t cap);

/*
 * Compares two version names by publication: <0, 0, >0. Names that are not
 * published compare as strings (version names are dates), after every
 * published one only when they are later dates.
 */
int mc_version_cmp(const char *a, const char *b);

/*
 * Features by name, for scenario files ("requires": {"features": [...]}).
 * The bit of a feature name, or 0 when name is NULL or names no feature.
 */
unsigned mc_version_feature_bit(const char *name);

/* The name of one feature bit ("" when bit is not exactly one known feature). */
const char *mc_version_feature_name(unsigned bit);

/* What one feature bit is, in words, for SKIP reasons ("" when unknown). */
const char *mc_version_feature_what(unsigned bit);

/*
 * The first feature of features that version name lacks (0 when it has them
 * all, or when name is not published: a version the table does not know is
 * not judged by it).
 */
unsigned mc_version_missing(const char *name, unsigned features);

/*
 * Writes the names of the versions having every bit of features (0: all),
 * oldest first, joined by sep, into buf (n bytes, NUL-terminated; cut short
 * when it does not fit). Returns buf.
 */
char *mc_version_join(unsigned features, const char *sep, char *buf, size_t n);

/* The newest published version (a static string). */
const char *mc_version_latest(void);

#endif /* MC_CORE_VERSION_H */
