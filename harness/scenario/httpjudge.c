/*
 * httpjudge.c - the answers of "http" steps go through the session's judge
 * (httprun.h), as every other message does: a POST step's message and its
 * answer, and for a resume step the streams as the client read them (the
 * first events of the dropped stream, the other stream, the replay).
 */
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "client/sse.h"
#include "core/frame.h"
#include "core/jsonrpc.h"
#include "core/limits.h"
#include "judge/judge.h"
#include "scenario/httprun.h"

/* True when body is a JSON-RPC request whose id a server can read (a string
 * or an integer). */
static int readable_request(const char *body, size_t len)
{
    mc_msg_t m;
    json_object *id;
    int yes;

    if (mc_msg_decode(body, len, MC_MAX_JSON_DEPTH, &m) != MC_OK) {
        mc_msg_free(&m);
        return 0; /* no JSON text as a whole: no id can be read */
    }
    yes = m.root != NULL && json_object_is_type(m.root, json_type_object) &&
          json_object_object_get_ex(m.root, "method", NULL) &&
          json_object_object_get_ex(m.root, "id", &id) && mc_jsonrpc_id_valid(id);
    mc_msg_free(&m);
    return yes;
}

typedef struct judge_feed {
    mc_judge_t *j;
    uint64_t seq;
    size_t limit; /* events to feed (0: all) */
    size_t n;     /* events seen: those with an id or data */
} judge_feed_t;

static int judge_event(void *ctx, const mc_sse_event_t *ev)
{
    judge_feed_t *f = ctx;

    if (!ev->has_id && ev->data_len == 0)
        return 0;
    f->n++;
    if (ev->data_len > 0)
        mc_judge_inbound(f->j, f->seq, MC_FRAME_LINE, 0, ev->data, ev->data_len, NULL);
    return f->limit > 0 && f->n >= f->limit;
}

void mc__httprun_judge_sent(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len)
{
    if (j != NULL && body != NULL)
        mc_judge_outbound(j, seq, body, body_len);
}

void mc__httprun_judge_stream(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len,
                              size_t limit)
{
    mc_sse_t p;
    judge_feed_t f = {j, seq, limit, 0};

    if (j == NULL || body == NULL || body_len == 0)
        return;
    mc_sse_init(&p, 0, 0);
    mc_sse_feed(&p, body, body_len, judge_event, &f);
    mc_sse_free(&p);
}

/*
 * Feeds what a POST step sent and the messages of its answer (a JSON body,
 * or each SSE event's data) to the session's judge j, so that they keep the
 * wire rules and the schema as every other message does. The JSON body of
 * an HTTP error status is a refusal of what was POSTed: it answers the
 * POSTed request and carries its id when that id could be read, and may
 * have none when the POST carried no request with a readable id (a
 * notification, a response, malformed input) or was refused with 403
 * (the transports page allows those bodies "a JSON-RPC error response that
 * has no id").
 */
void mc__httprun_judge_exchange(mc_judge_t *j, uint64_t seq, const char *body, size_t body_len,
                                const mc_http_exchange_t *x)
{
    unsigned flags = 0;

    if (j == NULL || body == NULL || x->status == 0)
        return;
    mc_judge_outbound(j, seq, body, body_len);
    if (x->body == NULL || x->body_len == 0 || x->body_truncated)
        return;
    if (strncasecmp(x->ctype, "text/event-stream", 17) == 0) {
        mc__httprun_judge_stream(j, seq, x->body, x->body_len, 0);
        return;
    }
    if (strncasecmp(x->ctype, "application/json", 16) != 0)
        return;
    if (x->status >= 400) {
        flags = MC_FRAME_F_REFUSAL;
        if (x->status == 403 || !readable_request(body, body_len))
            flags |= MC_FRAME_F_ID_OPTIONAL;
    }
    mc_judge_inbound(j, seq, MC_FRAME_LINE, flags, x->body, x->body_len, NULL);
}
