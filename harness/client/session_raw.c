/*
 * session_raw.c - the raw exchange: a line is sent as given (a malformed
 * message, a batch, anything a scenario writes by hand) and the answer
 * waited for is whatever carries the id it names, an answer without an id,
 * or for a batch an array, or its requests' responses one by one. Each line
 * still goes through the judge and the observer like any other.
 */
#include <stdlib.h>
#include <string.h>

#include "client/session.h"
#include "client/session_internal.h"
#include "core/json.h"

int mc_session_send_raw(mc_session_t *s, const char *bytes, size_t len, int timeout_ms)
{
    char *line;
    size_t n = len;
    int rc;

    if (len > MC_MAX_MESSAGE_SIZE)
        return MC_ETOOBIG;
    line = malloc(len + 1);
    if (line == NULL)
        return MC_ENOMEM;
    memcpy(line, bytes, len);
    if (n == 0 || line[n - 1] != '\n')
        line[n++] = '\n';
    s->seq_out++;
    mc_judge_outbound(s->judge, 0, line, n - 1);
    mc__session_observe_out(s, line, n - 1);
    rc = s->link.send(s->link.ctx, line, n, deadline_after(timeout_ms));
    free(line);
    return rc;
}

int mc_session_raw_request(mc_session_t *s, const char *bytes, size_t len, json_object *expect_id,
                           int timeout_ms, mc_msg_t *response)
{
    int64_t deadline = deadline_after(timeout_ms);
    int rc;

    rc = mc_session_send_raw(s, bytes, len, timeout_ms);
    if (rc != MC_OK)
        return rc;
    s->raw_wait = 1;
    s->raw_id = expect_id;
    s->raw_got = 0;
    begin_wait(s);
    while (!s->raw_got) {
        rc = mc__session_step(s, deadline);
        if (rc != MC_OK)
            break;
    }
    s->raw_wait = 0;
    s->raw_id = NULL;
    if (s->raw_got) {
        s->raw_got = 0;
        *response = s->raw_resp;
        memset(&s->raw_resp, 0, sizeof(s->raw_resp));
        return MC_OK;
    }
    return rc;
}

int mc_session_raw_request_barrier(mc_session_t *s, const char *bytes, size_t len,
                                   json_object *expect_id, int timeout_ms, int grace_ms,
                                   mc_msg_t *response, int *barrier)
{
    int64_t deadline = deadline_after(timeout_ms), id;
    mc_pending_t *p;
    mc_msg_t pong;
    int rc;

    *barrier = 0;
    rc = mc_session_send_raw(s, bytes, len, timeout_ms);
    if (rc != MC_OK)
        return rc;
    rc = mc_session_send_request(s, "ping", NULL, &id, timeout_ms);
    if (rc != MC_OK)
        return rc;
    s->raw_wait = 1;
    s->raw_id = expect_id;
    s->raw_got = 0;
    begin_wait(s);
    for (;;) {
        p = mc__session_find_pending(s, id);
        if (s->raw_got || p == NULL || p->answered)
            break;
        rc = mc__session_step(s, deadline);
        if (rc != MC_OK)
            break;
    }
    /* The ping answered first: a grace for a server that wrote the line's
     * answer a moment after all (never past the step's own deadline). */
    p = mc__session_find_pending(s, id);
    if (!s->raw_got && rc == MC_OK && p != NULL && p->answered) {
        int64_t grace = deadline_after(grace_ms);

        if (grace > deadline)
            grace = deadline;
        while (!s->raw_got && mc__session_step(s, grace) == MC_OK)
            ;
    }
    s->raw_wait = 0;
    s->raw_id = NULL;
    p = mc__session_find_pending(s, id);
    if (!s->raw_got && p != NULL && p->answered)
        *barrier = 1;
    /* The ping's slot is freed: with its answer, or abandoned to come later. */
    memset(&pong, 0, sizeof(pong));
    if (p != NULL && mc_session_await(s, id, 0, &pong) == MC_OK)
        mc_msg_free(&pong);
    if (s->raw_got) {
        s->raw_got = 0;
        *response = s->raw_resp;
        memset(&s->raw_resp, 0, sizeof(s->raw_resp));
        return MC_OK;
    }
    return *barrier ? MC_ETIMEOUT : rc;
}

/* The ids of the requests of the batch in bytes, as a new array (empty when
 * bytes is not an array; NULL when out of memory). */
static json_object *batch_request_ids(const char *bytes, size_t len)
{
    json_object *sent = NULL, *ids = json_object_new_array();
    size_t i, n;

    if (ids == NULL || mc_json_parse(bytes, len, 0, &sent, NULL) != MC_OK ||
        !json_object_is_type(sent, json_type_array)) {
        json_object_put(sent);
        return ids;
    }
    n = json_object_array_length(sent);
    for (i = 0; i < n; i++) {
        json_object *m = json_object_array_get_idx(sent, i), *id = NULL;
        if (json_object_is_type(m, json_type_object) && mc_json_get(m, "method") != NULL &&
            json_object_object_get_ex(m, "id", &id) && mc_jsonrpc_id_valid(id))
            json_object_array_add(ids, json_object_get(id));
    }
    json_object_put(sent);
    return ids;
}

int mc_session_raw_batch(mc_session_t *s, const char *bytes, size_t len, int timeout_ms,
                         mc_msg_t *response, json_object **one_by_one)
{
    int rc;

    if (one_by_one != NULL)
        *one_by_one = NULL;
    s->raw_batch_ids = one_by_one != NULL ? batch_request_ids(bytes, len) : NULL;
    s->raw_parts = s->raw_batch_ids != NULL ? json_object_new_array() : NULL;
    s->raw_batch = 1;
    rc = mc_session_raw_request(s, bytes, len, NULL, timeout_ms, response);
    s->raw_batch = 0;
    if (one_by_one != NULL && s->raw_parts != NULL && json_object_array_length(s->raw_parts) > 0)
        *one_by_one = json_object_get(s->raw_parts);
    json_object_put(s->raw_parts);
    json_object_put(s->raw_batch_ids);
    s->raw_parts = NULL;
    s->raw_batch_ids = NULL;
    return rc;
}

/* While a batch waits: keeps a response to one of its requests that came on
 * its own (bounded by the batch's size), and ends the wait once each request
 * has one. */
void mc__session_collect_batch_part(mc_session_t *s, const mc_msg_t *msg)
{
    size_t i, n;

    if (!s->raw_wait || !s->raw_batch || s->raw_got || s->raw_parts == NULL ||
        msg->id == NULL || msg->root == NULL)
        return;
    n = json_object_array_length(s->raw_batch_ids);
    if (json_object_array_length(s->raw_parts) >= n)
        return;
    for (i = 0; i < n; i++)
        if (mc_jsonrpc_id_equal(json_object_array_get_idx(s->raw_batch_ids, i), msg->id))
            break;
    if (i == n)
        return;
    json_object_array_add(s->raw_parts, json_object_get(msg->root));
    if (json_object_array_length(s->raw_parts) == n) {
        s->raw_got = 1;
        memset(&s->raw_resp, 0, sizeof(s->raw_resp));
    }
}
