/* Unit tests for the HTTP transport's checks across protocol versions: the
 * registry names a 2026-07-28 page (and the level of that page's sentence)
 * for every rule that revision's Streamable HTTP page keeps, none for the
 * session-era rules it drops, and trace replay judges those dropped rules
 * up to 2025-11-25 only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/version.h"
#include "judge/builtin.h"
#include "judge/replay.h"

#define PAGE_2607 "basic/transports/streamable-http"

/* Kept at 2026-07-28: the check, the anchor there ("" for the page's
 * opening, which has no heading) and the level of that version's sentence. */
static const struct {
    const char *check, *anchor;
    mc_level_t level;
} kept[] = {
    {"http/notification-202", "#sending-messages", MC_LEVEL_MUST},
    {"http/request-content-type", "#sending-messages", MC_LEVEL_MUST},
    {"http/response-on-own-stream", "", MC_LEVEL_INFO},
    {"http/sse-event-has-data", "", MC_LEVEL_INFO},
};

/* Dropped at 2026-07-28: sessions, the GET stream, resumption. */
static const char *const dropped[] = {
    "http/session-id-visible-ascii",
    "http/get-stream-no-response",
    "http/sse-event-id-unique",
    "http/resume-own-stream",
    "http/message-on-one-stream",
    "http/request-stream-related",
    "http/get-stream-unrelated",
};

static void test_kept_rules_name_2607(void **state)
{
    size_t i;
    char want[128];

    (void)state;
    for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
        const mc_check_def_t *d = mc_builtin_http_check(kept[i].check);
        const mc_check_ref_t *r;
        assert_non_null(d);
        r = mc_check_ref_for(d, MC_VN_2026_07_28);
        assert_non_null(r);
        assert_string_equal(r->version, MC_VN_2026_07_28);
        snprintf(want, sizeof(want), "%s%s", PAGE_2607, kept[i].anchor);
        assert_string_equal(r->page, want);
        assert_int_equal(mc_check_level_for(d, MC_VN_2026_07_28), kept[i].level);
        /* The level fits that version's own sentence. */
        assert_true(mc_check_level_fits(kept[i].level, mc_check_quote_for(d, MC_VN_2026_07_28)));
        /* The earlier versions keep their refs. */
        assert_string_equal(mc_check_ref_for(d, MC_VN_2025_11_25)->version, MC_VN_2025_11_25);
        assert_string_equal(mc_check_ref_for(d, MC_VN_2025_03_26)->version, MC_VN_2025_03_26);
    }
}

static void test_dropped_rules_name_no_2607(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++) {
        const mc_check_def_t *d = mc_builtin_http_check(dropped[i]);
        assert_non_null(d);
        assert_string_equal(mc_check_ref_for(d, MC_VN_2026_07_28)->version, MC_VN_2025_11_25);
        /* Its reading says where 2026-07-28 stands. */
        assert_non_null(d->interpretation);
        assert_non_null(strstr(d->interpretation, "Not judged at 2026-07-28"));
    }
}

static void line(mc_replay_t *rp, size_t n, const char *rec)
{
    assert_int_equal(mc_replay_line(rp, rec, strlen(rec), n, NULL), MC_OK);
}

static int evals(const mc_wire_t *w, const char *check)
{
    size_t i;

    for (i = 0; i < w->n_checks; i++)
        if (strcmp(w->check_ids[i], check) == 0)
            return (int)w->check_evals[i];
    return 0;
}

static int findings(const mc_wire_t *w, const char *check)
{
    size_t i;
    int n = 0;

    for (i = 0; i < w->n_findings; i++)
        n += strcmp(w->findings[i].check, check) == 0;
    return n;
}

/* The _meta of a request of the stateless revision, as a trace's line. */
#define META_2607                                                                                  \
    ",\\\"params\\\":{\\\"_meta\\\":{\\\"io.modelcontextprotocol/protocolVersion\\\":"             \
    "\\\"2026-07-28\\\"}}"

/*
 * A trace whose two POST streams send event id e1 each and whose GET stream
 * carries a response: at 2025-11-25 http/sse-event-id-unique and
 * http/get-stream-no-response fail; in a session of 2026-07-28 (the
 * requests' _meta names it, or --spec-version does) neither is judged at
 * all.
 */
static void replay_trace(const char *version, const char *meta, int judged)
{
    mc_replay_t rp;
    char rec[512];

    assert_int_equal(mc_replay_init(&rp, NULL, version), MC_OK);
    snprintf(rec, sizeof(rec),
             "{\"seq\":1,\"dir\":\"out\",\"line\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,"
             "\\\"method\\\":\\\"ping\\\"%s}\"}",
             meta);
    line(&rp, 1, rec);
    line(&rp, 2,
         "{\"seq\":2,\"dir\":\"in\",\"line\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,"
         "\\\"result\\\":{}}\",\"http\":{\"stream\":\"POST#1\",\"status\":200,"
         "\"event_id\":\"e1\"}}");
    snprintf(rec, sizeof(rec),
             "{\"seq\":3,\"dir\":\"out\",\"line\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":2,"
             "\\\"method\\\":\\\"ping\\\"%s}\"}",
             meta);
    line(&rp, 3, rec);
    line(&rp, 4,
         "{\"seq\":4,\"dir\":\"in\",\"line\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":2,"
         "\\\"result\\\":{}}\",\"http\":{\"stream\":\"POST#2\",\"status\":200,"
         "\"event_id\":\"e1\"}}");
    line(&rp, 5,
         "{\"seq\":5,\"dir\":\"in\",\"line\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":9,"
         "\\\"result\\\":{}}\",\"http\":{\"stream\":\"GET#3\",\"status\":200}}");
    assert_int_equal(rp.http_frames, 3);
    if (!judged) {
        assert_int_equal(evals(&rp.j.w, "http/sse-event-id-unique"), 0);
        assert_int_equal(evals(&rp.j.w, "http/get-stream-no-response"), 0);
        assert_int_equal(findings(&rp.j.w, "http/sse-event-id-unique"), 0);
        assert_int_equal(findings(&rp.j.w, "http/get-stream-no-response"), 0);
        assert_int_equal(findings(&rp.j.w, "http/resume-own-stream"), 0);
    } else {
        assert_int_equal(findings(&rp.j.w, "http/sse-event-id-unique"), 1);
        assert_int_equal(findings(&rp.j.w, "http/get-stream-no-response"), 1);
    }
    mc_replay_free(&rp);
}

static void test_replay_2511(void **state)
{
    (void)state;
    replay_trace(MC_VN_2025_11_25, "", 1);
}

static void test_replay_not_at_2607(void **state)
{
    (void)state;
    replay_trace(NULL, META_2607, 0);
    replay_trace(MC_VN_2026_07_28, "", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_rules_name_2607),
        cmocka_unit_test(test_dropped_rules_name_no_2607),
        cmocka_unit_test(test_replay_2511),
        cmocka_unit_test(test_replay_not_at_2607),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
