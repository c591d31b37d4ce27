/*
 * version.c - the table of published protocol versions (see version.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/version.h"

#define COMMON_2025 (MC_VF_INITIALIZE | MC_VF_AUDIO | MC_VF_TOOL_ANNOTATIONS | \
                     MC_VF_PROGRESS_MESSAGE | MC_VF_COMPLETIONS_CAP | MC_VF_PING | \
                     MC_VF_LOG_SET_LEVEL | MC_VF_RES_SUBSCRIBE | MC_VF_SERVER_REQUESTS | \
                     MC_VF_STREAMABLE_HTTP)

/*
 * One row per published version, in order. The features come from each
 * version's changelog (docs/<version>/changelog.mdx) and schema:
 * 2025-03-26 added batching, audio, tool annotations, progress messages,
 * the completions capability and the Streamable HTTP transport; 2025-06-18 removed batching and added
 * elicitation, titles, structured tool output and resource links;
 * 2025-11-25 moved to JSON Schema 2020-12 and added URL elicitation, tasks,
 * icons and tools in sampling; 2026-07-28 is stateless (no initialize, ping,
 * logging/setLevel or resources/subscribe; server/discover,
 * subscriptions/listen, resultType and multi round-trip requests instead
 * of server-to-client requests).
 */
static const mc_version_info_t versions[MC_V_COUNT] = {
    {MC_V_2024_11_05, MC_VN_2024_11_05, MC_DIALECT_DRAFT7,
     MC_VF_INITIALIZE | MC_VF_PING | MC_VF_LOG_SET_LEVEL | MC_VF_RES_SUBSCRIBE |
         MC_VF_SERVER_REQUESTS},
    {MC_V_2025_03_26, MC_VN_2025_03_26, MC_DIALECT_DRAFT7, COMMON_2025 | MC_VF_BATCH},
    {MC_V_2025_06_18, MC_VN_2025_06_18, MC_DIALECT_DRAFT7,
     COMMON_2025 | MC_VF_ELICIT_FORM | MC_VF_TITLE | MC_VF_STRUCTURED | MC_VF_RESOURCE_LINK |
         MC_VF_RUN_DEFAULT},
    {MC_V_2025_11_25, MC_VN_2025_11_25, MC_DIALECT_2020_12,
     COMMON_2025 | MC_VF_ELICIT_FORM | MC_VF_ELICIT_URL | MC_VF_TITLE | MC_VF_STRUCTURED |
         MC_VF_RESOURCE_LINK | MC_VF_ENVELOPE_IN_DEFS | MC_VF_TASKS | MC_VF_ICONS |
         MC_VF_SAMPLING_TOOLS | MC_VF_RUN_DEFAULT | MC_VF_ERROR_NO_ID},
    {MC_V_2026_07_28, MC_VN_2026_07_28, MC_DIALECT_2020_12,
     MC_VF_STATELESS | MC_VF_AUDIO | MC_VF_TOOL_ANNOTATIONS | MC_VF_PROGRESS_MESSAGE |
         MC_VF_COMPLETIONS_CAP | MC_VF_ELICIT_FORM | MC_VF_ELICIT_URL | MC_VF_TITLE |
         MC_VF_STRUCTURED | MC_VF_RESOURCE_LINK | MC_VF_ENVELOPE_IN_DEFS | MC_VF_ICONS |
         MC_VF_SAMPLING_TOOLS | MC_VF_DISCOVER | MC_VF_RESULT_TYPE | MC_VF_LISTEN |
         MC_VF_CACHEABLE | MC_VF_NOT_FOUND_PARAMS | MC_VF_ANY_TOOL_SCHEMA | MC_VF_ERROR_NO_ID |
         MC_VF_STREAMABLE_HTTP | MC_VF_DEPRECATED_RSL},
};

static const char *const names[MC_V_COUNT + 1] = {MC_VN_2024_11_05, MC_VN_2025_03_26,
                                                  MC_VN_2025_06_18, MC_VN_2025_11_25,
                                                  MC_VN_2026_07_28, NULL};

const char *const *mc_version_names(void)
{
    return names;
}

const mc_version_info_t *mc_version_at(int id)
{
    return id >= 0 && id < MC_V_COUNT ? &versions[id] : NULL;
}

const mc_version_info_t *mc_version_find(const char *name)
{
    int i;

    if (name == NULL)
        return NULL;
    for (i = 0; i < MC_V_COUNT; i++)
        if (strcmp(versions[i].name, name) == 0)
            return &versions[i];
    return NULL;
}

const char *mc_version_name(int id)
{
    const mc_version_info_t *v = mc_version_at(id);

    return v != NULL ? v->name : "";
}

int mc_version_has(const char *name, unsigned features)
{
    const mc_version_info_t *v = mc_version_find(name);

    return v != NULL && (v->features & features) == features;
}

size_t mc_version_list(unsigned features, const char **out, size_t cap)
{
    size_t n = 0;
    int i;

    if (out == NULL || cap == 0)
        return 0;
    for (i = 0; i < MC_V_COUNT && n + 1 < cap; i++)
        if ((versions[i].features & features) == features)
            out[n++] = versions[i].name;
    out[n] = NULL;
    return n;
}

int mc_version_cmp(const char *a, const char *b)
{
    const mc_version_info_t *va = mc_version_find(a), *vb = mc_version_find(b);

    if (va != NULL && vb != NULL)
        return (int)va->id - (int)vb->id;
    return strcmp(a != NULL ? a : "", b != NULL ? b : "");
}

/* Feature names as scenario files write them, with what each one is. */
static const struct {
    unsigned bit;
    const char *name;
    const char *what;
} features[] = {
    {MC_VF_INITIALIZE, "initialize", "the initialize handshake"},
    {MC_VF_STATELESS, "stateless", "stateless requests (protocol version in each request)"},
    {MC_VF_BATCH, "batch", "JSON-RPC batches"},
    {MC_VF_AUDIO, "audio", "audio content"},
    {MC_VF_TOOL_ANNOTATIONS, "tool-annotations", "tool annotations"},
    {MC_VF_PROGRESS_MESSAGE, "progress-message", "a message in progress notifications"},
    {MC_VF_COMPLETIONS_CAP, "completions-capability", "a completions capability flag"},
    {MC_VF_ELICIT_FORM, "elicitation", "elicitation"},
    {MC_VF_ELICIT_URL, "elicitation-url", "URL-mode elicitation"},
    {MC_VF_TITLE, "title", "display titles (title on tools, prompts, resources)"},
    {MC_VF_STRUCTURED, "structured-content", "structured tool output (outputSchema)"},
    {MC_VF_RESOURCE_LINK, "resource-link", "resource links in tool results"},
    {MC_VF_TASKS, "tasks", "tasks"},
    {MC_VF_ICONS, "icons", "icons"},
    {MC_VF_SAMPLING_TOOLS, "sampling-tools", "tools in sampling requests"},
    {MC_VF_PING, "ping", "ping"},
    {MC_VF_LOG_SET_LEVEL, "logging-set-level", "logging/setLevel"},
    {MC_VF_RES_SUBSCRIBE, "resources-subscribe", "resources/subscribe"},
    {MC_VF_SERVER_REQUESTS, "server-requests", "server-to-client requests"},
    {MC_VF_DISCOVER, "discover", "server/discover"},
    {MC_VF_RESULT_TYPE, "result-type", "resultType on results"},
    {MC_VF_LISTEN, "listen", "subscriptions/listen"},
    {MC_VF_CACHEABLE, "cacheable", "ttlMs/cacheScope on results"},
    {MC_VF_NOT_FOUND_PARAMS, "not-found-params", "resource-not-found as -32602"},
    {MC_VF_ANY_TOOL_SCHEMA, "any-tool-schema", "any JSON Schema 2020-12 keyword in tool schemas"},
    {MC_VF_ERROR_NO_ID, "error-without-id", "error responses without an id"},
    {MC_VF_STREAMABLE_HTTP, "streamable-http", "the Streamable HTTP transport"},
};

unsigned mc_version_feature_bit(const char *name)
{
    size_t i;

    if (name == NULL)
        return 0;
    for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
        if (strcmp(features[i].name, name) == 0)
            return features[i].bit;
    return 0;
}

const char *mc_version_feature_name(unsigned bit)
{
    size_t i;

    for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
        if (features[i].bit == bit)
            return features[i].name;
    return "";
}

const char *mc_version_feature_what(unsigned bit)
{
    size_t i;

    for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
        if (features[i].bit == bit)
            return features[i].what;
    return "";
}

unsigned mc_version_missing(const char *name, unsigned want)
{
    const mc_version_info_t *v = mc_version_find(name);
    unsigned gap, bit;

    if (v == NULL)
        return 0;
    gap = want & ~v->features;
    if (gap == 0)
        return 0;
    for (bit = 1; (gap & bit) == 0; bit <<= 1)
        ;
    return bit;
}

const char *mc_version_latest(void)
{
    return versions[MC_V_COUNT - 1].name;
}

char *mc_version_join(unsigned want, const char *sep, char *buf, size_t n)
{
    size_t used = 0;
    int i;

    if (n == 0)
        return buf;
    buf[0] = '\0';
    for (i = 0; i < MC_V_COUNT; i++) {
        int w;
        if ((versions[i].features & want) != want)
            continue;
        w = snprintf(buf + used, n - used, "%s%s", used > 0 ? sep : "", versions[i].name);
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
    }
    return buf;
}
