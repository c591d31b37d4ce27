/*
 * test_feedback.c - what a campaign learns from a run: new edges owed to
 * the request that reached them and confirmed on a fresh process, the
 * corpus entry kept and extended, and when a finding is (again) handled
 * and listed; a request the server drops or answers late, at the barrier
 * that ends a sequence. argv[1] is the test target
 * (harness/tests/helpers/test_target.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "campaign/exec.h"
#include "campaign/gen.h"
#include "campaign/internal.h"
#include "core/json.h"
#include "report/report.h"
#include "support.h"

static const char *g_target;

/* An executor for the test target in mode (one of its AFL++ stand-ins),
 * with the coverage map on or off, making fresh runs for twin (or NULL).
 * Its argv is one static array: one mode at a time. */
static mc_exec_t *mode_exec(const char *mode, int coverage, const mc_exec_t *twin)
{
    static char *argv[3];
    mc_exec_opts_t o;

    argv[0] = (char *)g_target;
    argv[1] = (char *)mode;
    argv[2] = NULL;
    ct_opts(&o, argv);
    o.coverage = coverage;
    o.twin = twin;
    return ct_exec(&o);
}

/* An executor with the coverage map on, for the test target in mode. */
static mc_exec_t *cov_exec(const char *mode)
{
    return mode_exec(mode, 1, NULL);
}

/* Four pings and a list request, ids from 1. */
static json_object *seq_of(const char *mid)
{
    char buf[512];

    snprintf(buf, sizeof(buf),
             "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"},"
             " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"%s\"},"
             " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/roots/list_changed\"},"
             " {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\"}]",
             mid);
    return ct_parse(buf);
}

/* On an instrumented target the new edges are owed to the request that
 * reached them: the map is read after each answer. */
static void test_exec_edges_per_request(void **state)
{
    mc_exec_t *x = cov_exec("afl");
    mc_exec_outcome_t out;
    mc_errbuf_t eb;
    json_object *first = seq_of("tools/list"), *second = seq_of("prompts/list");

    (void)state;
    mc_errbuf_clear(&eb);
    /* Until the target is seen to write the map, nothing is owed. */
    assert_int_equal(mc_exec_run(x, first, 1, 0, &out, &eb), MC_OK);
    assert_true(mc_exec_instrumented(x));
    assert_true(out.new_edges >= 2); /* initialize, ping, tools/list */
    assert_int_equal(out.last_edge_elem, -1);
    mc_exec_outcome_free(&out);
    /* Same process: only prompts/list is new, and it is element 1. */
    assert_int_equal(mc_exec_run(x, second, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    assert_int_equal(out.elem_edges[0], 0);
    assert_int_equal(out.elem_edges[1], 1);
    assert_int_equal(out.elem_edges[3], 0);
    assert_int_equal(out.last_edge_elem, 1);
    mc_exec_outcome_free(&out);
    /* Nothing new: nothing owed. */
    assert_int_equal(mc_exec_run(x, second, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 0);
    assert_int_equal(out.last_edge_elem, -1);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(first);
    json_object_put(second);
}

/* A sequence of the named methods, each a request with ids from 1. */
static json_object *seq_methods(const char *a, const char *b)
{
    char buf[512];

    if (b == NULL)
        snprintf(buf, sizeof(buf), "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"%s\"}]", a);
    else
        snprintf(buf, sizeof(buf),
                 "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"%s\"},"
                 " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"%s\"}]",
                 a, b);
    return ct_parse(buf);
}

/* Runs seq in x's running process, which must find new_edges new edges,
 * then confirms them on fx by running keep; returns whether a fresh run
 * ran, and its kept edges in *kept. */
static int sight(mc_exec_t *x, mc_exec_t *fx, json_object *seq, size_t new_edges,
                 json_object *keep, size_t *kept)
{
    mc_exec_outcome_t out, cal;
    mc_errbuf_t eb;
    int ran;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, seq, 0, 0, &out, &eb), MC_OK);
    assert_false(out.started);
    assert_int_equal(out.new_edges, new_edges);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_confirm(x, fx, keep, &cal, kept, &eb), MC_OK);
    ran = cal.started;
    mc_exec_outcome_free(&cal);
    return ran;
}

/* New edges a persistent process reached only thanks to what an earlier
 * sequence left in it do not stand: confirmed on a fresh process, they are
 * new again, and the first sequence to reach them on its own gets them. */
static void test_exec_confirm_carried_edges(void **state)
{
    mc_exec_t *x = cov_exec("aflstate");
    mc_exec_outcome_t out, cal;
    mc_errbuf_t eb;
    json_object *one = seq_methods("tools/list", NULL);
    json_object *two = seq_methods("tools/list", "tools/list");
    json_object *other = seq_methods("prompts/list", NULL);
    size_t kept, total, n_lit, n_hits;
    const uint32_t *lit, *hits;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, one, 1, 0, &out, &eb), MC_OK);
    assert_true(out.new_edges >= 1);
    mc_exec_outcome_free(&out);
    /* Again in the same process: "tools/list again" is new, owed to state,
     * and a fresh run refuses it. */
    total = mc_exec_coverage(x) + 1;
    assert_true(sight(x, x, one, 1, one, &kept));
    assert_int_equal(kept, 0);
    assert_int_equal(mc_exec_coverage(x), total - 1);
    /* A sequence that reaches it on its own is credited, and it stands. */
    assert_int_equal(mc_exec_run(x, two, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    assert_int_equal(out.last_edge_elem, 1);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_confirm(x, x, two, &cal, &kept, &eb), MC_OK);
    assert_int_equal(kept, 1);
    assert_int_equal(mc_exec_coverage(x), total);
    mc_exec_outcome_free(&cal);
    /* The edge that stood is the one the sequence lit. Two sequences hit
     * it: the second run of one (whose claim did not stand) and two; the
     * fresh run is not counted. */
    lit = mc_exec_lit(x, &n_lit);
    hits = mc_exec_hits(x, &n_hits);
    assert_int_equal(n_lit, 1);
    assert_true(lit[0] < n_hits);
    assert_int_equal(hits[lit[0]], 2);
    /* Nothing new: nothing to confirm, nothing run. */
    assert_false(sight(x, x, one, 0, one, &kept));
    assert_int_equal(kept, 0);

    /* Not confirmed for want of runs: new again all the same, to be
     * reached again. */
    assert_int_equal(mc_exec_run(x, other, 1, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_run(x, other, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    mc_exec_outcome_free(&out);
    total = mc_exec_coverage(x);
    assert_int_equal(mc_exec_forget_new(x), 1);
    assert_int_equal(mc_exec_coverage(x), total - 1);
    (void)mc_exec_lit(x, &n_lit);
    assert_int_equal(n_lit, 0);
    assert_int_equal(mc_exec_forget_new(x), 0);
    assert_int_equal(mc_exec_run(x, other, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    mc_exec_outcome_free(&out);
    mc_exec_free(x);
    json_object_put(other);
    json_object_put(one);
    json_object_put(two);
}

/* Confirmed on a twin's fresh process, new edges are judged as on x's
 * own, and x's process keeps running with the state it built; a twin
 * without a map confirms nothing and every edge stays seen. */
static void test_exec_confirm_on_twin(void **state)
{
    mc_exec_t *x = cov_exec("aflstate");
    mc_exec_t *fx = mode_exec("aflstate", 1, x), *bare = mode_exec("aflstate", 0, x);
    mc_exec_outcome_t out, cal;
    mc_errbuf_t eb;
    json_object *one = seq_methods("tools/list", NULL);
    json_object *two = seq_methods("tools/list", "tools/list");
    json_object *other = seq_methods("prompts/list", NULL);
    size_t kept, total;

    (void)state;
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, one, 1, 0, &out, &eb), MC_OK);
    mc_exec_outcome_free(&out);
    total = mc_exec_coverage(x) + 1; /* with the edge owed to the state */
    assert_true(sight(x, fx, one, 1, one, &kept));
    assert_int_equal(kept, 0);
    assert_int_equal(mc_exec_coverage(x), total - 1);
    assert_int_equal(mc_exec_coverage(fx), 0); /* the twin's map learns nothing */
    assert_int_equal(mc_exec_starts(fx), 1);
    /* x was not restarted: its next sequence runs in the same process, and
     * reaches the edge (new again) thanks to the state it kept. */
    assert_int_equal(mc_exec_run(x, one, 0, 0, &out, &eb), MC_OK);
    assert_false(out.started);
    assert_int_equal(mc_exec_starts(x), 1);
    assert_true(mc_exec_id_offset(x) > 0);
    assert_int_equal(out.new_edges, 1);
    mc_exec_outcome_free(&out);
    /* A sequence that reaches it from a fresh start makes it stand. */
    assert_int_equal(mc_exec_confirm(x, fx, two, &cal, &kept, &eb), MC_OK);
    assert_int_equal(kept, 1);
    assert_int_equal(mc_exec_coverage(x), total);
    assert_int_equal(mc_exec_starts(fx), 2);
    mc_exec_outcome_free(&cal);
    /* A twin with no map: an error, and the new edge stays seen. */
    assert_int_equal(mc_exec_run(x, other, 0, 0, &out, &eb), MC_OK);
    assert_int_equal(out.new_edges, 1);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_confirm(x, bare, other, &cal, &kept, &eb), MC_EINVAL);
    assert_int_equal(kept, 1);
    assert_int_equal(mc_exec_coverage(x), total + 1);
    assert_int_equal(mc_exec_starts(bare), 0);
    mc_exec_free(bare);
    mc_exec_free(fx);
    mc_exec_free(x);
    json_object_put(other);
    json_object_put(one);
    json_object_put(two);
}

/* On an instrumented target, favoured picks lean to the entry whose lit
 * edges the fewest sequences hit; without hit counts, none is preferred. */
static void test_corpus_rare_pick(void **state)
{
    enum { N = 8, PICKS = 2000, RARE = 5 };
    mc__camp_corpus_t k;
    mc_gen_t g;
    uint32_t hits[N];
    json_object *seq[N];
    size_t i, with = 0, without = 0;

    (void)state;
    assert_int_equal(mc__camp_corpus_init(&k, "/nonexistent", 0), 0);
    assert_int_equal(mc_gen_init(&g, 3, NULL, 0), 0);
    for (i = 0; i < N; i++) {
        uint32_t edge = (uint32_t)i;
        char buf[96];
        snprintf(buf, sizeof(buf), "[{\"jsonrpc\": \"2.0\", \"id\": %zu, \"method\": \"ping\"}]",
                 i);
        seq[i] = ct_parse(buf);
        hits[i] = i == RARE ? 3 : 100;
        assert_int_equal(mc__camp_corpus_keep(&k, &g, seq[i], 100000, 0, &edge, 1), 1);
    }
    for (i = 0; i < PICKS; i++) {
        int favoured, edge_end;
        with += mc__camp_corpus_pick(&k, &g, hits, N, &favoured, &edge_end) == seq[RARE];
        without += mc__camp_corpus_pick(&k, &g, NULL, 0, &favoured, &edge_end) == seq[RARE];
    }
    /* Expected: with, 3/4 * (1/2 + 1/2 * 1/8) + 1/4 * 1/8 of the picks
     * (45%); without, 1/8. */
    assert_true(with > PICKS * 2 / 5);
    assert_true(without < PICKS / 5);
    for (i = 0; i < N; i++)
        json_object_put(seq[i]);
    mc__camp_corpus_free(&k);
    mc_gen_free(&g);
}

/* A finding is due at its first sighting, and again at later ones until
 * it is settled; signatures are told apart. */
static void test_sig_schedule(void **state)
{
    mc__camp_sigs_t t;
    mc__camp_sig_t *s = NULL, *o = NULL, *again = NULL;

    (void)state;
    memset(&t, 0, sizeof(t));
    assert_int_equal(mc__camp_sig_due(&t, "wire/x|m", &s), 1);
    assert_non_null(s);
    assert_int_equal(s->tries, 0);
    s->tries++;
    assert_int_equal(mc__camp_sig_due(&t, "wire/x|m", &again), 1);
    assert_ptr_equal(again, s);
    assert_int_equal(mc__camp_sig_due(&t, "schema/y|m", &o), 1);
    assert_ptr_not_equal(o, s);
    assert_int_equal(t.n, 2);
    o->settled = 1;
    assert_int_equal(mc__camp_sig_due(&t, "schema/y|m", &o), 0);
    assert_int_equal(mc__camp_sig_due(&t, "wire/x|m", &again), 1);
    mc__camp_sigs_free(&t);
}

/* The report does not list as unconfirmed what findings/ holds since. */
static void test_report_drops_confirmed(void **state)
{
    char dir[] = "/tmp/mc-report-XXXXXX", path[256], *text = NULL;
    FILE *f;
    size_t len = 0;
    int kept = 0;
    mc_errbuf_t eb;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/findings", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/unconfirmed", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/findings/index.tsv", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("2.000\tschema/logging\tnotifications/message\tSIG-A\ta.jsonc\t9\t3\t20\tyes\tlevel 3\n", f);
    fclose(f);
    snprintf(path, sizeof(path), "%s/unconfirmed/index.tsv", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("1.000\tschema/logging\tnotifications/message\tSIG-A\ta.jsonc\t2\t2\t0\tno\tgone-detail\n", f);
    fputs("1.500\twire/single-response\ttools/call\tSIG-B\tb.jsonc\t2\t2\t0\tno\tkept-detail\n", f);
    fclose(f);
    mc_errbuf_clear(&eb);
    assert_int_equal(mc_report_campaign(dir, "server", NULL, &eb), MC_OK);
    snprintf(path, sizeof(path), "%s/report.md", dir);
    assert_non_null(f = fopen(path, "r"));
    while (getline(&text, &len, f) > 0) {
        assert_null(strstr(text, "gone-detail"));
        if (strstr(text, "more seen once") != NULL)
            assert_non_null(strstr(text, "1 more"));
        kept += strstr(text, "kept-detail") != NULL;
    }
    assert_int_equal(kept, 1);
    fclose(f);
    free(text);
    snprintf(path, sizeof(path), "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
}

/* An entry whose last message lit new code is extended there: one message
 * after it, or one instead of it; the messages before it stay (unless the
 * odd extra mutation touches them). */
static void test_gen_extend_last(void **state)
{
    mc_gen_t g;
    json_object *seq = seq_of("prompts/list");
    size_t i, after = 0, instead = 0, other = 0;

    (void)state;
    assert_int_equal(mc_gen_init(&g, 7, NULL, 0), 0);
    for (i = 0; i < 300; i++) {
        json_object *out = mc_gen_extend_last(&g, seq, NULL);
        size_t k, n = json_object_array_length(out), same = 0;
        assert_true(n >= 1 && n <= MC_GEN_MAX_SEQ);
        for (k = 0; k < n && k < 4; k++)
            same += json_object_equal(json_object_array_get_idx(out, k),
                                      json_object_array_get_idx(seq, k)) != 0;
        if (n == 5 && same == 4)
            after++;
        else if (n == 4 && same == 3)
            instead++;
        else
            other++;
        json_object_put(out);
    }
    /* Each half, less the extensions the extra mutation changed. */
    assert_true(after > 60 && instead > 60);
    assert_true(other < 150);
    mc_gen_free(&g);
    json_object_put(seq);
}

/* An appended request whose id or progress token another request of the
 * sequence has gets fresh ones; one that shares neither stays as it is. */
static void test_fresh_last_id(void **state)
{
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\", \"params\": "
        "{\"_meta\": {\"progressToken\": \"p5\"}}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\", \"params\": "
        "{\"_meta\": {\"progressToken\": \"p9\"}}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"prompts/list\", \"params\": "
        "{\"_meta\": {\"progressToken\": \"p5\"}}}]");
    json_object *last = json_object_array_get_idx(seq, 2), *meta;

    (void)state;
    mc__camp_fresh_last_id(seq);
    meta = mc_json_get(mc_json_get(last, "params"), "_meta");
    assert_int_equal(json_object_get_int64(mc_json_get(last, "id")), 4);
    assert_string_equal(mc_json_get_str(meta, "progressToken"), "p10");
    meta = mc_json_get(mc_json_get(json_object_array_get_idx(seq, 0), "params"), "_meta");
    assert_string_equal(mc_json_get_str(meta, "progressToken"), "p5");
    /* Now it shares nothing: run again, nothing moves. */
    mc__camp_fresh_last_id(seq);
    meta = mc_json_get(mc_json_get(last, "params"), "_meta");
    assert_int_equal(json_object_get_int64(mc_json_get(last, "id")), 4);
    assert_string_equal(mc_json_get_str(meta, "progressToken"), "p10");
    json_object_put(seq);
}

/* The carried messages' progress tokens that the sequence uses too are
 * renumbered, in the request and its progress alike; others stay. */
static void test_carry_tokens(void **state)
{
    json_object *prev = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\":"
        " {\"name\": \"a\", \"_meta\": {\"progressToken\": \"p7\"}}},"
        " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/progress\","
        " \"params\": {\"progressToken\": \"p7\", \"progress\": 1}},"
        " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\":"
        " {\"name\": \"b\", \"_meta\": {\"progressToken\": \"p8\"}}}]");
    json_object *seq = ct_parse(
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\":"
        " {\"name\": \"a\", \"_meta\": {\"progressToken\": \"p7\"}}}]");
    json_object *c = mc__camp_with_carry(prev, seq), *m;

    (void)state;
    assert_non_null(c);
    assert_int_equal(json_object_array_length(c), 4);
    m = json_object_array_get_idx(c, 0);
    assert_string_equal(mc_json_get_str(mc_json_get(mc_json_get(m, "params"), "_meta"),
                                        "progressToken"),
                        "p65536");
    m = json_object_array_get_idx(c, 1);
    assert_string_equal(mc_json_get_str(mc_json_get(m, "params"), "progressToken"), "p65536");
    m = json_object_array_get_idx(c, 2);
    assert_string_equal(mc_json_get_str(mc_json_get(mc_json_get(m, "params"), "_meta"),
                                        "progressToken"),
                        "p8");
    m = json_object_array_get_idx(c, 3);
    assert_string_equal(mc_json_get_str(mc_json_get(mc_json_get(m, "params"), "_meta"),
                                        "progressToken"),
                        "p7");
    /* prev itself is left as it was. */
    assert_string_equal(mc_json_get_str(mc_json_get(mc_json_get(json_object_array_get_idx(prev, 0),
                                                                "params"),
                                                    "_meta"),
                                        "progressToken"),
                        "p7");
    json_object_put(c);
    json_object_put(prev);
    json_object_put(seq);
}

/* A corpus entry ends at the last element owed new edges, with what the
 * process carried in (the end of the sequence before) in front. */
static void test_keep_up_to_new_edges(void **state)
{
    json_object *seq = seq_of("prompts/list"), *prev = seq_of("tools/list"), *k;
    json_object *carry = mc__camp_with_carry(prev, seq);
    mc_exec_outcome_t out;

    (void)state;
    memset(&out, 0, sizeof(out));
    out.last_edge_elem = -1;
    k = mc__camp_to_keep(prev, seq, NULL, &out); /* no new edge: the sequence */
    assert_ptr_equal(k, seq);
    json_object_put(k);
    out.new_edges = 1;
    k = mc__camp_to_keep(prev, seq, carry, &out); /* not known where: all of it */
    assert_ptr_equal(k, carry);
    json_object_put(k);
    out.last_edge_elem = 1;
    k = mc__camp_to_keep(prev, seq, NULL, &out);
    assert_int_equal(json_object_array_length(k), 2);
    assert_string_equal(mc_json_get_str(json_object_array_get_idx(k, 1), "method"),
                        "prompts/list");
    json_object_put(k);
    k = mc__camp_to_keep(prev, seq, carry, &out);
    assert_int_equal(json_object_array_length(k), 4 + 2);
    assert_string_equal(mc_json_get_str(json_object_array_get_idx(k, 5), "method"),
                        "prompts/list");
    assert_string_equal(mc_json_get_str(json_object_array_get_idx(k, 1), "method"),
                        "tools/list");
    json_object_put(k);
    json_object_put(carry);
    json_object_put(seq);
    json_object_put(prev);
}

/* Runs seq (JSON text) in x and returns its outcome's findings in *out
 * (freed by the caller). */
static void run_seq(mc_exec_t *x, const char *text, int fresh, mc_exec_outcome_t *out)
{
    json_object *seq = ct_parse(text);
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    assert_int_equal(mc_exec_run(x, seq, fresh, 0, out, &eb), MC_OK);
    json_object_put(seq);
}

/* Over stdio a request the server drops is a hang at the barrier (the ping
 * after it answered): on a persistent process at once, a candidate
 * (at_barrier) whatever the hang budget; on a fresh process waited for
 * the budget, and then its shape is known to the executors sharing the
 * table, which no longer wait for it, fresh or not. */
static void test_exec_barrier_drop(void **state)
{
    char *argv[] = {(char *)g_target, "dropper", NULL};
    const char *drop = "[{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/list\", \"extra\": 1}]";
    mc_exec_dropped_t table;
    mc_exec_opts_t o;
    mc_exec_t *slow, *quick;
    mc_exec_outcome_t out;

    (void)state;
    memset(&table, 0, sizeof(table));
    ct_opts(&o, argv);
    o.dropped = &table;
    /* A budget that ctest's timeout would cut short, were it waited for. */
    o.hang_ms = 120000;
    slow = ct_exec(&o);
    o.hang_ms = 300;
    quick = ct_exec(&o);
    run_seq(slow, "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}]", 1, &out);
    assert_int_equal(out.nf, 0);
    mc_exec_outcome_free(&out);
    run_seq(slow, drop, 0, &out);
    assert_int_equal(out.nf, 1);
    assert_string_equal(out.f[0].check, "process/hang");
    assert_string_equal(out.f[0].method, "tools/list");
    assert_true(out.f[0].at_barrier);
    assert_non_null(strstr(out.f[0].detail, "a ping sent after it was"));
    mc_exec_outcome_free(&out);
    assert_int_equal(table.n, 0);
    /* Confirmed on a fresh process: waited for, then known. */
    run_seq(quick, drop, 1, &out);
    assert_int_equal(out.nf, 1);
    assert_false(out.f[0].at_barrier);
    assert_non_null(strstr(out.f[0].detail, "within 300 ms"));
    mc_exec_outcome_free(&out);
    assert_int_equal(table.n, 1);
    run_seq(slow, drop, 1, &out);
    assert_int_equal(out.nf, 1);
    assert_false(out.f[0].at_barrier);
    assert_non_null(strstr(out.f[0].detail, "went unanswered for the whole hang budget before"));
    mc_exec_outcome_free(&out);
    /* Another shape of the same method is not known. */
    run_seq(slow, "[{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"tools/list\", \"extra\": \"x\"}]",
            0, &out);
    assert_int_equal(out.nf, 1);
    assert_true(out.f[0].at_barrier);
    mc_exec_outcome_free(&out);
    assert_int_equal(mc_exec_starts(slow), 2);
    mc_exec_free(slow);
    mc_exec_free(quick);
}

/* A server that answers a request after the ping sent after it (out of
 * order) shows no hang: the barrier is sent again while something is
 * unanswered, and the late answer is taken and judged. */
static void test_exec_barrier_out_of_order(void **state)
{
    char *argv[] = {(char *)g_target, "late", NULL};
    mc_exec_opts_t o;
    mc_exec_t *x;
    mc_exec_outcome_t out;
    int i;

    (void)state;
    ct_opts(&o, argv);
    o.hang_ms = 120000;
    x = ct_exec(&o);
    for (i = 0; i < 3; i++) {
        run_seq(x, "[{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"slow\"}]", i == 0, &out);
        assert_int_equal(out.nf, 0);
        assert_true(out.answered[0]);
        /* The barrier's pings are not counted (the first run also sent
         * initialize and notifications/initialized). */
        assert_int_equal(out.lines_out, i == 0 ? 3 : 1);
        mc_exec_outcome_free(&out);
    }
    assert_int_equal(mc_exec_starts(x), 1);
    mc_exec_free(x);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_edges_per_request),
        cmocka_unit_test(test_exec_confirm_carried_edges),
        cmocka_unit_test(test_exec_confirm_on_twin),
        cmocka_unit_test(test_keep_up_to_new_edges),
        cmocka_unit_test(test_carry_tokens),
        cmocka_unit_test(test_fresh_last_id),
        cmocka_unit_test(test_gen_extend_last),
        cmocka_unit_test(test_corpus_rare_pick),
        cmocka_unit_test(test_sig_schedule),
        cmocka_unit_test(test_report_drops_confirmed),
        cmocka_unit_test(test_exec_barrier_drop),
        cmocka_unit_test(test_exec_barrier_out_of_order),
    };

    if (argc < 2) {
        fprintf(stderr, "usage: test_feedback TEST_TARGET\n");
        return 2;
    }
    g_target = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
