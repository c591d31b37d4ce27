/*
 * common.c - helpers shared by the fuzz targets (see common.h).
 */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/version.h"

#ifndef MC_FUZZ_SCHEMAS_DIR
#define MC_FUZZ_SCHEMAS_DIR "harness/schemas"
#endif

static int has_schema(const char *dir)
{
    char path[4096];
    struct stat st;
    int n = snprintf(path, sizeof(path), "%s/%s.json", dir, MC_REGISTRY_DEFAULT_VERSION);

    return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0;
}

const char *mc_fuzz_schemas_dir(const char *argv0)
{
    static char dir[4096];
    const char *env = getenv("MC_FUZZ_SCHEMAS_DIR");

    if (env != NULL && env[0] != '\0') {
        snprintf(dir, sizeof(dir), "%s", env);
        return dir;
    }
    if (argv0 != NULL) {
        const char *slash = strrchr(argv0, '/');
        int n = slash != NULL ? snprintf(dir, sizeof(dir), "%.*s/schemas",
                                         (int)(slash - argv0), argv0)
                              : snprintf(dir, sizeof(dir), "schemas");
        if (n > 0 && (size_t)n < sizeof(dir) && has_schema(dir))
            return dir;
    }
    snprintf(dir, sizeof(dir), "%s", MC_FUZZ_SCHEMAS_DIR);
    return dir;
}

mc_registry_t *mc_fuzz_registry(const char *argv0)
{
    /* The baseline first (without it the targets cannot run), then the others. */
    const char *versions[MC_V_COUNT + 2];
    size_t n_versions = 1;
    const char *dir = mc_fuzz_schemas_dir(argv0);
    mc_registry_t *reg = NULL;
    mc_errbuf_t eb;
    size_t i;

    mc_errbuf_clear(&eb);
    if (mc_registry_new(&reg, dir, MC_REGISTRY_BUNDLED, &eb) != MC_OK) {
        fprintf(stderr, "fuzz: cannot create the schema registry: %s\n", eb.msg);
        abort();
    }
    versions[0] = MC_VERSION_BASELINE;
    for (const char *const *v = mc_version_names(); *v != NULL; v++)
        if (strcmp(*v, MC_VERSION_BASELINE) != 0 && n_versions <= MC_V_COUNT)
            versions[n_versions++] = *v;
    for (i = 0; i < n_versions; i++) {
        mc_errbuf_clear(&eb);
        if (mc_registry_load(reg, versions[i], &eb) != MC_OK && i == 0) {
            fprintf(stderr, "fuzz: cannot load the %s schema from %s: %s\n", versions[i], dir,
                    eb.msg);
            abort();
        }
    }
    return reg;
}

int mc_fuzz_registry_has(const mc_registry_t *reg, const char *version)
{
    return mc_registry_schema(reg, version) != NULL;
}

int mc_fuzz_next_line(const uint8_t **p, size_t *n, const char **line, size_t *len)
{
    const uint8_t *nl;

    if (*n == 0)
        return 0;
    nl = memchr(*p, '\n', *n);
    *line = (const char *)*p;
    if (nl == NULL) {
        *len = *n;
        *p += *n;
        *n = 0;
    } else {
        *len = (size_t)(nl - *p);
        *n -= *len + 1;
        *p = nl + 1;
    }
    return 1;
}

json_object *mc_fuzz_parse(const char *line, size_t len)
{
    json_tokener *tok;
    json_object *v;

    if (len == 0 || len > MC_FUZZ_MAX_INPUT)
        return NULL;
    tok = json_tokener_new_ex(64);
    if (tok == NULL)
        return NULL;
    v = json_tokener_parse_ex(tok, line, (int)len);
    if (v == NULL && json_tokener_get_error(tok) == json_tokener_continue)
        v = json_tokener_parse_ex(tok, " ", 1);
    if (json_tokener_get_error(tok) != json_tokener_success) {
        json_object_put(v);
        v = NULL;
    }
    json_tokener_free(tok);
    return v;
}

int mc_fuzz_contains(const uint8_t *data, size_t size, const char *needle)
{
    size_t m = strlen(needle), i;
    const uint8_t *p;

    if (m == 0)
        return 1;
    for (i = 0; i + m <= size; i = (size_t)(p - data) + 1) {
        p = memchr(data + i, (unsigned char)needle[0], size - m + 1 - i);
        if (p == NULL)
            return 0;
        if (memcmp(p, needle, m) == 0)
            return 1;
    }
    return 0;
}

void mc_fuzz_fail(const char *what, const char *detail, size_t detail_len)
{
    fprintf(stderr, "\n==== mcpcheck fuzz oracle: %s\n", what);
    if (detail != NULL) {
        fprintf(stderr, "---- offending data (%zu bytes):\n", detail_len);
        fwrite(detail, 1, detail_len > 4096 ? 4096 : detail_len, stderr);
        fputc('\n', stderr);
    }
    abort();
}
