/*
 * test_coverage.c - the coverage table through mc_coverage_row() and
 * mc_coverage_build(), on scenario files written for the purpose.
 */
#include "sc_files.h"

#include <json-c/json.h>

#include "scenario/coverage.h"

static int setup(void **state)
{
    (void)state;
    sc_dir_make();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sc_dir_remove();
    return 0;
}

/* Rows of the table that exist at version (the version table has their features). */
static size_t rows_at(const char *version)
{
    const mc_coverage_row_t *r;
    size_t i, n = 0;

    for (i = 0; (r = mc_coverage_row(i)) != NULL; i++)
        if (mc_coverage_row_exists(r, version))
            n++;
    return n;
}

/* The scenarios of the row (message, path) at version, or NULL when the
 * table has no such row. Borrowed from doc. */
static json_object *row_of(json_object *doc, const char *message, const char *path,
                           const char *version)
{
    json_object *rows = NULL, *v;
    size_t i;

    assert_true(json_object_object_get_ex(doc, "rows", &rows));
    for (i = 0; i < json_object_array_length(rows); i++) {
        json_object *row = json_object_array_get_idx(rows, i);
        json_object_object_get_ex(row, "message", &v);
        if (strcmp(json_object_get_string(v), message) != 0)
            continue;
        json_object_object_get_ex(row, "path", &v);
        if (strcmp(json_object_get_string(v), path) != 0)
            continue;
        json_object_object_get_ex(row, "version", &v);
        if (strcmp(json_object_get_string(v), version) != 0)
            continue;
        assert_true(json_object_object_get_ex(row, "scenarios", &v));
        return v;
    }
    return NULL;
}

/* True when the row lists exactly these scenario ids (NULL-terminated). */
static int row_is(json_object *doc, const char *message, const char *path, const char *version,
                  const char *const *ids)
{
    json_object *who = row_of(doc, message, path, version);
    size_t i, n = 0;

    if (who == NULL)
        fail_msg("no row %s / %s at %s", message, path, version);
    while (ids[n] != NULL)
        n++;
    if (json_object_array_length(who) != n)
        return 0;
    for (i = 0; i < n; i++)
        if (strcmp(json_object_get_string(json_object_array_get_idx(who, i)), ids[i]) != 0)
            return 0;
    return 1;
}

static void test_rows(void **state)
{
    const mc_coverage_row_t *r;
    size_t i, late = 0;

    (void)state;
    for (i = 0; (r = mc_coverage_row(i)) != NULL; i++) {
        assert_non_null(r->message);
        assert_non_null(r->path);
        assert_true(r->message[0] != '\0' && r->path[0] != '\0');
        if (r->needs != 0 || r->lacks != 0)
            late++;
    }
    assert_true(i > 20);
    assert_true(late > 0);
    assert_null(mc_coverage_row(i));
    assert_null(mc_coverage_row(i + 1000));
}

/* With no scenario every row of every version is empty, and a row that
 * begins at a later version is absent before it. */
static void test_empty_table(void **state)
{
    static const char *const versions[] = {"2025-06-18", "2025-11-25", NULL};
    json_object *doc, *rows;
    size_t empty = 12345;

    (void)state;
    doc = mc_coverage_build(NULL, 0, versions, &empty);
    assert_non_null(doc);
    assert_true(json_object_object_get_ex(doc, "rows", &rows));
    assert_int_equal(json_object_array_length(rows), rows_at("2025-06-18") + rows_at("2025-11-25"));
    assert_true(rows_at("2025-06-18") < rows_at("2025-11-25"));
    assert_int_equal(empty, json_object_array_length(rows));
    assert_null(row_of(doc, "elicitation/create", "url mode", "2025-06-18"));
    assert_non_null(row_of(doc, "elicitation/create", "url mode", "2025-11-25"));
    json_object_put(doc);
}

/* What each kind of step covers, per version, and the count of empty rows
 * that follows. */
static void test_scenarios_cover_rows(void **state)
{
    static const char *const versions[] = {"2025-06-18", "2025-11-25", NULL};
    static const char *const none[] = {NULL};
    static const char *const read[] = {"area/read", NULL};
    static const char *const late[] = {"area/late", NULL};
    static const char *const both[] = {"area/late", "area/read", NULL};
    static const char *const manual[] = {"area/manual", NULL};
    mc_scenario_t scs[3];
    json_object *doc;
    size_t empty, total = rows_at("2025-06-18") + rows_at("2025-11-25"), covered;

    (void)state;
    /* Sorted by id, as the library loads them. */
    sc_load("late", SC_HEAD("area/late/x") "\"versions\": \"2025-11-25..\", \"steps\": ["
            "{\"paginate\": \"tools/list\", \"items\": \"tools\"},"
            "{\"request\": \"resources/read\", \"params\": {\"uri\": \"x:y\"}, "
            "\"expect\": \"error\", \"assert\": [{\"path\": \"error.code\", \"equals\": -32602}]},"
            "{\"expect_notification\": \"notifications/message\"}]}",
            &scs[0]);
    sc_load("manual", SC_HEAD("area/manual/x") "\"client\": {\"initialize\": false}, \"steps\": ["
            "{\"request\": \"tools/list\", \"expect\": {\"error\": -32600}}]}",
            &scs[1]);
    sc_load("read", SC_HEAD("area/read/x") "\"steps\": [{\"request\": \"resources/read\", "
            "\"params\": {\"uri\": \"x:y\"}, \"expect\": {\"error\": -32002}}]}",
            &scs[2]);
    doc = mc_coverage_build(scs, 3, versions, &empty);
    assert_non_null(doc);

    /* The lifecycle comes with every scenario that does not do it itself. */
    assert_true(row_is(doc, "initialize", "result", "2025-06-18", read));
    assert_true(row_is(doc, "initialize", "result", "2025-11-25", both));
    assert_true(row_is(doc, "notifications/initialized", "sent", "2025-11-25", both));
    /* An expected error code, per version the scenario applies to. */
    assert_true(row_is(doc, "resources/read", "error -32002", "2025-06-18", read));
    assert_true(row_is(doc, "resources/read", "error -32002", "2025-11-25", read));
    /* A code pinned by an assertion on a step that expects any error. */
    assert_true(row_is(doc, "resources/read", "error -32602", "2025-06-18", none));
    assert_true(row_is(doc, "resources/read", "error -32602", "2025-11-25", late));
    assert_true(row_is(doc, "tools/list", "result", "2025-11-25", late));
    assert_true(row_is(doc, "notifications/message", "notification", "2025-11-25", late));
    /* A request before its own initialize that expects an error, and the
     * JSON-RPC row its code names. */
    assert_true(row_is(doc, "initialize", "error (request before initialize)", "2025-06-18",
                       manual));
    assert_true(row_is(doc, "(invalid request)", "error -32600", "2025-06-18", manual));
    assert_null(row_of(doc, "tools/list", "error -32600", "2025-06-18"));
    /* Nothing here answers an elicitation. */
    assert_true(row_is(doc, "elicitation/create", "answer accept", "2025-11-25", none));

    /* Rows with somebody in them: initialize result x2, initialized sent x2
     * (read at both, late at 2025-11-25, manual does its own lifecycle),
     * -32002 x2, -32602 at 2025-11-25, tools/list result, the message
     * notification, request-before-initialize x2 and -32600 x2 (manual
     * applies to both versions). */
    covered = 2 + 2 + 2 + 1 + 1 + 1 + 2 + 2;
    assert_int_equal(empty, total - covered);
    json_object_put(doc);
    mc_scenario_free(&scs[0]);
    mc_scenario_free(&scs[1]);
    mc_scenario_free(&scs[2]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_empty_table),
        cmocka_unit_test(test_scenarios_cover_rows),
    };

    return cmocka_run_group_tests_name("coverage", tests, setup, teardown);
}
