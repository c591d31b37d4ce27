/*
 * test_suite.c - runs the validator over the JSON-Schema-Test-Suite (draft7).
 *
 * usage: test_schema_suite SUITE_ROOT
 *
 * Every file of tests/draft7/ must pass entirely. refRemote.json runs with
 * the suite's remotes/ folder served through the resolver hook (the suite
 * expects it at http://localhost:1234/). optional/ is run and reported; of
 * it, only optional/format/<f>.json for the formats the validator asserts
 * must pass. Each case is checked twice: the fast answer
 * (mc_schema_is_valid) and the collecting one (mc_schema_validate) must
 * agree with the expectation, and an invalid verdict must carry at least one
 * error. Exit 0 when nothing failed, 1 otherwise, 77 (skip) when the suite
 * is not installed.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "schema/validator.h"

typedef struct counts {
    int passed, failed, skipped;
} counts_t;

static char remotes_dir[1024];

/* Resolver: http://localhost:1234/PATH -> SUITE/remotes/PATH (new reference). */
static json_object *resolve_remote(void *ctx, const char *uri)
{
    static const char prefix[] = "http://localhost:1234/";
    char path[2048];

    (void)ctx;
    if (strncmp(uri, prefix, sizeof(prefix) - 1) != 0 || strstr(uri, "..") != NULL)
        return NULL;
    snprintf(path, sizeof(path), "%s/%s", remotes_dir, uri + sizeof(prefix) - 1);
    return json_object_from_file(path);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Lists *.json in dir, sorted. Returns the count; *out is malloc'd. */
static size_t list_json(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;

    *out = NULL;
    if (d == NULL)
        return 0;
    for (e = readdir(d); e != NULL; e = readdir(d)) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if (n == cap) {
            char **nn;
            cap = cap == 0 ? 64 : cap * 2;
            nn = realloc(names, cap * sizeof(*nn));
            if (nn == NULL)
                break;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_names);
    *out = names;
    return n;
}

/*
 * Runs one suite file. must_pass decides whether failures count against the
 * run. Prints one summary line, and one line per failing case.
 */
static void run_file(const char *path, const char *label, int must_pass, counts_t *total)
{
    json_object *groups = json_object_from_file(path);
    mc_schema_options_t opts = {resolve_remote, NULL};
    counts_t c = {0, 0, 0};
    size_t g, t;
    static mc_schema_report_t report;

    if (groups == NULL || !json_object_is_type(groups, json_type_array)) {
        printf("%-44s cannot read: %s\n", label, json_util_get_last_err());
        total->failed += must_pass;
        json_object_put(groups);
        return;
    }
    for (g = 0; g < json_object_array_length(groups); g++) {
        json_object *grp = json_object_array_get_idx(groups, g);
        json_object *schema, *tests, *desc;
        mc_schema_t *s = NULL;
        mc_errbuf_t eb;
        int rc;

        json_object_object_get_ex(grp, "schema", &schema);
        json_object_object_get_ex(grp, "tests", &tests);
        json_object_object_get_ex(grp, "description", &desc);
        mc_errbuf_clear(&eb);
        rc = mc_schema_compile(schema, &opts, &s, &eb);
        if (rc != MC_OK) {
            size_t n = json_object_array_length(tests);
            printf("  FAIL %s: group \"%s\": schema does not compile: %s\n", label,
                   json_object_get_string(desc), eb.msg);
            c.failed += (int)n;
            continue;
        }
        for (t = 0; t < json_object_array_length(tests); t++) {
            json_object *tc = json_object_array_get_idx(tests, t);
            json_object *data, *valid, *tdesc;
            int expect, fast, slow;

            json_object_object_get_ex(tc, "data", &data);
            json_object_object_get_ex(tc, "valid", &valid);
            json_object_object_get_ex(tc, "description", &tdesc);
            expect = json_object_get_boolean(valid);
            fast = mc_schema_is_valid(s, mc_schema_root(s), data);
            mc_schema_report_clear(&report);
            rc = mc_schema_validate(s, mc_schema_root(s), data, NULL, &report);
            slow = rc == MC_OK;
            if (fast == expect && slow == expect && report.valid == expect &&
                (expect || report.n_entries > 0)) {
                c.passed++;
            } else {
                c.failed++;
                printf("  FAIL %s: \"%s\" / \"%s\": expected %s, fast %s, full %s%s%s\n", label,
                       json_object_get_string(desc), json_object_get_string(tdesc),
                       expect ? "valid" : "invalid", fast ? "valid" : "invalid",
                       slow ? "valid" : "invalid", report.n_entries ? " - " : "",
                       report.n_entries ? report.entries[0].message : "");
            }
        }
        mc_schema_free(s);
    }
    json_object_put(groups);
    printf("%-44s %3d/%-3d passed%s\n", label, c.passed, c.passed + c.failed,
           must_pass ? "" : (c.failed ? "  (optional: reported, not counted)" : "  (optional)"));
    if (must_pass) {
        total->passed += c.passed;
        total->failed += c.failed;
    } else {
        total->skipped += c.passed + c.failed;
    }
}

int main(int argc, char **argv)
{
    char dir[1024], path[1100], label[1400];
    char **names;
    size_t n, i;
    counts_t total = {0, 0, 0};
    struct stat st;

    if (argc != 2) {
        fprintf(stderr, "usage: %s SUITE_ROOT\n", argv[0]);
        return 2;
    }
    snprintf(dir, sizeof(dir), "%s/tests/draft7", argv[1]);
    snprintf(remotes_dir, sizeof(remotes_dir), "%s/remotes", argv[1]);
    if (stat(dir, &st) != 0) {
        printf("SKIP: %s not found (install the Debian package json-schema-test-suite)\n", dir);
        return 77;
    }

    n = list_json(dir, &names);
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        snprintf(label, sizeof(label), "draft7/%s", names[i]);
        run_file(path, label, 1, &total);
        free(names[i]);
    }
    free(names);

    snprintf(path, sizeof(path), "%s/optional", dir);
    n = list_json(path, &names);
    for (i = 0; i < n; i++) {
        char file[2400];
        snprintf(file, sizeof(file), "%s/%s", path, names[i]);
        snprintf(label, sizeof(label), "draft7/optional/%s", names[i]);
        run_file(file, label, 0, &total);
        free(names[i]);
    }
    free(names);

    snprintf(path, sizeof(path), "%s/optional/format", dir);
    n = list_json(path, &names);
    for (i = 0; i < n; i++) {
        char file[2400], fmt[256];
        size_t len = strlen(names[i]);
        snprintf(fmt, sizeof(fmt), "%.*s", (int)(len - 5), names[i]);
        snprintf(file, sizeof(file), "%s/%s", path, names[i]);
        snprintf(label, sizeof(label), "draft7/optional/format/%s", names[i]);
        if (mc_schema_format_known(fmt)) {
            run_file(file, label, 1, &total);
        } else {
            printf("%-44s skipped: format \"%s\" is not asserted (every value passes)\n", label,
                   fmt);
        }
        free(names[i]);
    }
    free(names);

    printf("\ndraft7 suite: %d passed, %d failed, %d optional cases reported\n", total.passed,
           total.failed, total.skipped);
    printf("%d passed, %d failed\n", total.passed, total.failed);
    return total.failed == 0 ? 0 : 1;
}
