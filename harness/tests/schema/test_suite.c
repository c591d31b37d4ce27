/*
 * test_suite.c - runs the validator over the JSON-Schema-Test-Suite.
 *
 * usage: test_schema_suite SUITE_ROOT DRAFT      (DRAFT: draft7 or draft2020-12)
 *
 * Every file of tests/DRAFT/ is required. refRemote.json and the other
 * files that reach outside their document run with the suite's remotes/
 * folder served through the resolver hook (the suite expects it at
 * http://localhost:1234/). optional/ is run and reported; of it,
 * optional/format/<f>.json for the formats the validator asserts is run with
 * formats asserted and gets a figure of its own, held to the same share.
 * Each case is checked twice: the fast answer (mc_schema_is_valid)
 * and the collecting one (mc_schema_validate) must agree with the
 * expectation, and an invalid verdict must carry at least one error. The
 * schemas are compiled with DRAFT as the default dialect (for the few that
 * lack "$schema").
 *
 * Exit 0 when at least MIN_PERCENT of the required cases (and of the
 * asserted-format cases) pass; 1 below that, when the suite folder is
 * missing, when it yields no required case or no asserted-format case, and
 * (counted as a failed case) when a file, a group or a case cannot be read or
 * holds nothing to run. The
 * last lines print the figure: "DRAFT: P of N required cases pass (X.XX%)".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "schema/validator.h"

/* The share of required cases that must pass, in hundredths of a percent. */
#define MIN_PERCENT_X100 9900

static int dialect = MC_SCHEMA_DIALECT_DRAFT7;
static int formats = MC_SCHEMA_FORMATS_DEFAULT;

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
    mc_schema_options_t opts = {resolve_remote, NULL, 0, 0, 0};
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

        schema = tests = desc = NULL;
        json_object_object_get_ex(grp, "schema", &schema);
        json_object_object_get_ex(grp, "tests", &tests);
        json_object_object_get_ex(grp, "description", &desc);
        /* A group the runner cannot read is a failure, never zero cases. */
        if (!json_object_object_get_ex(grp, "schema", NULL) ||
            !json_object_is_type(tests, json_type_array) || json_object_array_length(tests) == 0) {
            printf("  FAIL %s: group %zu has no schema or no test case\n", label, g);
            c.failed++;
            continue;
        }
        opts.dialect = dialect;
        opts.formats = formats;
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

            data = valid = tdesc = NULL;
            json_object_object_get_ex(tc, "valid", &valid);
            json_object_object_get_ex(tc, "description", &tdesc);
            if (!json_object_object_get_ex(tc, "data", &data) ||
                !json_object_is_type(valid, json_type_boolean)) {
                printf("  FAIL %s: group \"%s\" case %zu has no data or no boolean \"valid\"\n",
                       label, json_object_get_string(desc), t);
                c.failed++;
                continue;
            }
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
    if (c.passed + c.failed == 0) {
        printf("  FAIL %s: the file holds no test case\n", label);
        c.failed = 1;
    }
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
    counts_t total = {0, 0, 0}, fmts = {0, 0, 0};
    struct stat st;
    const char *draft;
    long pct, fpct;

    if (argc != 3 || (strcmp(argv[2], "draft7") != 0 && strcmp(argv[2], "draft2020-12") != 0)) {
        fprintf(stderr, "usage: %s SUITE_ROOT draft7|draft2020-12\n", argv[0]);
        return 2;
    }
    draft = argv[2];
    dialect = strcmp(draft, "draft7") == 0 ? MC_SCHEMA_DIALECT_DRAFT7 : MC_SCHEMA_DIALECT_2020_12;
    snprintf(dir, sizeof(dir), "%s/tests/%s", argv[1], draft);
    snprintf(remotes_dir, sizeof(remotes_dir), "%s/remotes", argv[1]);
    if (stat(dir, &st) != 0) {
        printf("FAIL: %s not found (the JSON-Schema-Test-Suite is expected at ../shared/"
               "json-schema-test-suite)\n", dir);
        return 1;
    }

    n = list_json(dir, &names);
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        snprintf(label, sizeof(label), "%s/%s", draft, names[i]);
        run_file(path, label, 1, &total);
        free(names[i]);
    }
    free(names);

    snprintf(path, sizeof(path), "%s/optional", dir);
    n = list_json(path, &names);
    for (i = 0; i < n; i++) {
        char file[2400];
        snprintf(file, sizeof(file), "%s/%s", path, names[i]);
        snprintf(label, sizeof(label), "%s/optional/%s", draft, names[i]);
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
        snprintf(label, sizeof(label), "%s/optional/format/%s", draft, names[i]);
        /* These files expect formats to be assertions (2020-12 makes
         * them annotations unless asked). */
        formats = MC_SCHEMA_FORMATS_ASSERT;
        if (mc_schema_format_known(fmt))
            run_file(file, label, 1, &fmts);
        else
            run_file(file, label, 0, &total);
        formats = MC_SCHEMA_FORMATS_DEFAULT;
        free(names[i]);
    }
    free(names);

    if (total.passed + total.failed == 0) {
        printf("FAIL: %s yielded no test case\n", dir);
        return 1;
    }
    /* The suite has format files for formats the validator asserts; none
     * run means the folder or the format list is wrong, not a pass. */
    if (fmts.passed + fmts.failed == 0) {
        printf("FAIL: %s/optional/format yielded no case of an asserted format\n", dir);
        return 1;
    }
    pct = (long)total.passed * 10000L / (long)(total.passed + total.failed);
    fpct = (long)fmts.passed * 10000L / (long)(fmts.passed + fmts.failed);
    printf("\n%s suite: %d passed, %d failed, %d optional cases reported\n", draft, total.passed,
           total.failed, total.skipped);
    printf("%s: %d of %d required cases pass (%ld.%02ld%%; at least %d.%02d%% needed)\n", draft,
           total.passed, total.passed + total.failed, pct / 100, pct % 100, MIN_PERCENT_X100 / 100,
           MIN_PERCENT_X100 % 100);
    printf("%s: %d of %d cases of the asserted formats pass (%ld.%02ld%%)\n", draft, fmts.passed,
           fmts.passed + fmts.failed, fpct / 100, fpct % 100);
    printf("%d passed, %d failed\n", total.passed + fmts.passed, total.failed + fmts.failed);
    return pct >= MIN_PERCENT_X100 && fpct >= MIN_PERCENT_X100 ? 0 : 1;
}
