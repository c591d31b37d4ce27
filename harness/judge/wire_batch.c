/*
 * wire_batch.c - JSON-RPC batches, which only 2025-03-26 has: the requests
 * of an array the client sent are noted one by one, and each member of an
 * array the server sent is judged as a message of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/wire.h"
#include "judge/wire_internal.h"
#include "core/json.h"

/*
 * A JSON array sent on purpose (a JSON-RPC batch, which MCP has no longer
 * had since 2025-06-18): its requests are noted one by one, so a server that
 * answers them one by one answers requests the client did send. The array
 * itself has no id: a single error with a null id may refuse it (counted by
 * the caller). At most MC_WIRE_MAX_REQUESTS elements are looked at.
 */
void mc__wire_outbound_batch(mc_wire_t *w, json_object *arr)
{
    size_t i, n = json_object_array_length(arr);

    for (i = 0; i < n && i < MC_WIRE_MAX_REQUESTS; i++) {
        json_object *el = json_object_array_get_idx(arr, i), *id = NULL;
        const char *meth = mc_json_get_str(el, "method");
        mc_wire_req_t *r;

        if (el == NULL || !json_object_is_type(el, json_type_object) || meth == NULL ||
            !json_object_object_get_ex(el, "id", &id) || !mc_jsonrpc_id_valid(id))
            continue;
        r = mc__wire_next_req_slot(w);
        r->id = mc__wire_compact_dup(id);
        r->method = strdup(meth);
    }
}

/* The members of a batch answer: each must be a message, judged as one. */
void mc__wire_inbound_batch(mc_wire_t *w, json_object *arr)
{
    size_t i, n = json_object_array_length(arr);

    if (n == 0) {
        mc_wire_fail(w, "wire/jsonrpc-envelope", "an empty array is not a batch");
        return;
    }
    for (i = 0; i < n; i++) {
        mc_msg_t m;
        mc_msg_classify(json_object_get(json_object_array_get_idx(arr, i)), &m);
        if (m.kind == MC_MSG_INVALID) {
            mc_wire_fail(w, "wire/jsonrpc-envelope", "batch member %zu: %s", i, m.reason);
            mc_msg_free(&m);
            continue;
        }
        mc_wire_pass(w, "wire/jsonrpc-envelope");
        w->raw_id = NULL;
        mc__wire_on_message(w, &m, 0, NULL);
        mc_msg_free(&m);
    }
}
