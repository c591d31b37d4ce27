/*
 * common.h - helpers shared by the fuzz targets (not a target itself).
 *
 * Targets keep no state between inputs. The one exception allowed is
 * read-only data built once in LLVMFuzzerInitialize (the compiled MCP
 * schemas), which mc_fuzz_registry() provides.
 */
#ifndef MC_FUZZ_COMMON_H
#define MC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "schema/registry.h"

/*
 * Marks a function of a target's own bookkeeping (not code under test):
 * clang leaves out coverage instrumentation, so its loops neither pay for
 * comparison callbacks nor give the fuzzer features of their own. The
 * sanitizers still check it. Empty for other compilers.
 */
#if defined(__clang__) && __clang_major__ >= 13
#define MC_FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define MC_FUZZ_NO_COVERAGE
#endif

/* Inputs larger than this are rejected at once by the message targets. */
#define MC_FUZZ_MAX_INPUT (64u * 1024u)

/* Lines of one input that the session targets feed (the rest is ignored). */
#define MC_FUZZ_MAX_LINES 128

/*
 * Returns the folder holding <version>.json schemas: $MC_FUZZ_SCHEMAS_DIR,
 * else "schemas" next to the fuzzer binary (the OSS-Fuzz layout, where
 * fuzz/build.sh copies them), else the source tree's harness/schemas
 * compiled in. argv0 may be NULL. The result is static storage.
 */
const char *mc_fuzz_schemas_dir(const char *argv0);

/*
 * Creates a registry and loads the protocol versions it has files for
 * (2025-06-18 and 2025-11-25 at least). Prints the cause and aborts when the
 * baseline version cannot be loaded: a fuzzer without its oracle is useless.
 * The registry is read-only afterwards; the caller keeps it for the process.
 */
mc_registry_t *mc_fuzz_registry(const char *argv0);

/* True when the registry loaded the named version. */
int mc_fuzz_registry_has(const mc_registry_t *reg, const char *version);

/*
 * Cuts the next '\n'-terminated line off [*p, *p + *n). Returns 0 at the end;
 * else 1 with *line and *len set (terminator excluded), *p and *n advanced.
 */
int mc_fuzz_next_line(const uint8_t **p, size_t *n, const char **line, size_t *len);

/*
 * Parses one line as JSON for the target's own bookkeeping (never to judge
 * the code under test): lenient json-c parsing, depth 64, whole line.
 * Returns a new reference or NULL.
 */
json_object *mc_fuzz_parse(const char *line, size_t len);

/* True when needle occurs in data[0..size) (memmem is not POSIX). */
int mc_fuzz_contains(const uint8_t *data, size_t size, const char *needle);

/* Prints "oracle: WHAT" and the offending text to stderr, then abort()s. */
void mc_fuzz_fail(const char *what, const char *detail, size_t detail_len)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#endif /* MC_FUZZ_COMMON_H */
