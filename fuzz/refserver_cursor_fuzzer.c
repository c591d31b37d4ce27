/*
 * refserver_cursor_fuzzer.c - the reference server's pagination cursors
 * (refserver/cursor.c, through refserver/units.h: mc_refserver_page,
 * mc_refserver_page_finish).
 *
 * Input: a cursor. When the input parses as JSON, that value is the
 * "cursor" member of the list request's params (so non-strings are tried
 * too); otherwise the raw bytes are the cursor string. A hash of the input
 * picks the page size and the list lengths, so they vary with it.
 *
 * Oracle (abort(), besides the sanitizers), per list kind:
 *  - a refused cursor gets exactly one -32602 error response and nothing else;
 *  - an accepted one gives start <= end <= total and at most one page;
 *  - round trip: the cursor mc_refserver_page_finish writes for an offset is
 *    accepted for its own list and gives that offset back, and is refused for
 *    every other list (cursors are per list, 2025-06-18 pagination).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/hash.h"
#include "core/jsonrpc.h"
#include "refserver/units.h"

#define MAX_CURSOR_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct sink {
    int lines;
    int64_t last_code; /* error code of the last line, 0 for a non-error */
} sink_t;

static void on_emit(void *ctx, const char *line, size_t len)
{
    sink_t *sk = ctx;
    mc_msg_t m;

    sk->lines++;
    sk->last_code = 0;
    if (len == 0 || line[len - 1] != '\n')
        mc_fuzz_fail("an emitted line without its newline", line, len);
    if (mc_msg_decode(line, len - 1, 0, &m) != MC_OK || m.kind == MC_MSG_INVALID)
        mc_fuzz_fail("the server emitted an invalid message", line, len);
    if (m.kind == MC_MSG_ERROR)
        sk->last_code = m.error_code;
    mc_msg_free(&m);
}

static const mc_refserver_list_t lists[] = {MC_REFSERVER_LIST_RESOURCES, MC_REFSERVER_LIST_TEMPLATES, MC_REFSERVER_LIST_PROMPTS,
                                  MC_REFSERVER_LIST_TOOLS};

/* Runs mc_refserver_page for params and checks its contract. Returns 0 when the
 * cursor was accepted and sets *start. */
static int page(mc_refserver_t *rs, int page_size, sink_t *sk, mc_refserver_list_t list,
                json_object *params, size_t total, size_t *start_out)
{
    json_object *id = json_object_new_int(7);
    size_t start = 0, end = 0;
    const char *cursor_in = NULL;
    int rc;

    sk->lines = 0;
    rc = mc_refserver_page(rs, list, id, params, total, &start, &end, &cursor_in);
    json_object_put(id);
    if (rc == 0) {
        if (sk->lines != 0)
            mc_fuzz_fail("an accepted cursor also produced an error response", NULL, 0);
        if (start > end || end > total)
            mc_fuzz_fail("a page outside its list", NULL, 0);
        if (end - start > (size_t)page_size)
            mc_fuzz_fail("a page longer than the page size", NULL, 0);
        *start_out = start;
        return 0;
    }
    if (sk->lines != 1 || sk->last_code != MC_RPC_INVALID_PARAMS)
        mc_fuzz_fail("a refused cursor was not answered by exactly one -32602", NULL, 0);
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_refserver_opts_t opts;
    mc_refserver_t *rs;
    mc_errbuf_t eb;
    sink_t sk;
    json_object *params, *val;
    uint32_t h = MC_FNV1A32_INIT;
    size_t i, j, start, total;

    if (size > MAX_CURSOR_INPUT)
        return -1;
    h = mc_fnv1a32(h, data, size);
    memset(&opts, 0, sizeof(opts));
    opts.page_size = 1 + (int)(h % 50);
    opts.step_delay_ms = -1;
    memset(&sk, 0, sizeof(sk));
    mc_errbuf_clear(&eb);
    rs = mc_refserver_new(&opts, on_emit, &sk, &eb);
    if (rs == NULL)
        abort();

    /* The input as the cursor. */
    val = mc_fuzz_parse((const char *)data, size);
    if (val == NULL && !(size == 4 && memcmp(data, "null", 4) == 0))
        val = json_object_new_string_len((const char *)data, (int)size);
    params = json_object_new_object();
    json_object_object_add(params, "cursor", val);
    total = (size_t)(h >> 8) % 5000;
    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
        (void)page(rs, opts.page_size, &sk, lists[i], params, total, &start);
    json_object_put(params);

    /* Round trip of a cursor the server writes itself. */
    total = 1 + (size_t)(h >> 4) % 100000;
    {
        size_t offset = (size_t)(h >> 12) % total;
        mc_refserver_list_t mine = lists[(h >> 20) % 4];
        json_object *result = json_object_new_object(), *next = NULL;

        sk.lines = 0;
        mc_refserver_page_finish(rs, mine, result, offset, total, NULL);
        if (!json_object_object_get_ex(result, "nextCursor", &next) ||
            !json_object_is_type(next, json_type_string))
            mc_fuzz_fail("no nextCursor before the end of a list", NULL, 0);
        params = json_object_new_object();
        json_object_object_add(params, "cursor", json_object_get(next));
        for (j = 0; j < sizeof(lists) / sizeof(lists[0]); j++) {
            int rc = page(rs, opts.page_size, &sk, lists[j], params, total, &start);
            if (lists[j] == mine && (rc != 0 || start != offset)) {
                fprintf(stderr, "offset %zu, total %zu, cursor %s\n", offset, total,
                        json_object_get_string(next));
                mc_fuzz_fail("the server's own cursor does not lead back to its offset", NULL, 0);
            }
            if (lists[j] != mine && rc == 0)
                mc_fuzz_fail("a cursor of another list was accepted", NULL, 0);
        }
        json_object_put(params);
        json_object_put(result);
    }
    mc_refserver_free(rs);
    return 0;
}
