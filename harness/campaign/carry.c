/*
 * carry.c - ids and prefixes of the sequences the campaign keeps: what a
 * persistent process carried into a sequence, and fresh ids for the
 * messages an extension appends.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "campaign/campaign.h"
#include "campaign/exec.h"
#include "campaign/gen.h"
#include "campaign/internal.h"
#include "core/json.h"

/* The largest integer id (or requestId) of seq's messages below the
 * executor's id stride, or 0. */
static int64_t max_int_id(json_object *seq)
{
    size_t i, n = json_object_array_length(seq);
    int64_t top = 0;

    for (i = 0; i < n; i++) {
        json_object *m = json_object_array_get_idx(seq, i);
        json_object *ids[2];
        size_t k;
        if (!json_object_is_type(m, json_type_object))
            continue;
        ids[0] = mc_json_get(m, "id");
        ids[1] = mc_json_get(mc_json_get(m, "params"), "requestId");
        for (k = 0; k < 2; k++)
            if (json_object_is_type(ids[k], json_type_int) &&
                json_object_get_int64(ids[k]) < MC_EXEC_ID_STRIDE &&
                json_object_get_int64(ids[k]) > top)
                top = json_object_get_int64(ids[k]);
    }
    return top;
}

/* True for a string of prefix and one or more digits, as the generator
 * makes its string ids ('s') and progress tokens ('p'). */
static int prefixed_number(json_object *v, char prefix)
{
    const char *s;

    if (!json_object_is_type(v, json_type_string))
        return 0;
    s = json_object_get_string(v);
    if (s[0] != prefix || s[1] == '\0')
        return 0;
    for (s++; *s != '\0'; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* True for an id as the generator makes them: an integer below the
 * executor's id stride, or "s" and digits. Other ids are the mutator's odd
 * values and stay as they are. */
static int plain_id(json_object *id)
{
    if (json_object_is_type(id, json_type_int))
        return json_object_get_int64(id) >= 0 && json_object_get_int64(id) < MC_EXEC_ID_STRIDE;
    return prefixed_number(id, 's');
}

/* The progress token of a request (params._meta.progressToken) or of a
 * progress notification (params.progressToken), borrowed, or NULL; *holder
 * gets the object that holds it. */
static json_object *token_of(json_object *m, json_object **holder)
{
    json_object *p = mc_json_get(m, "params"), *meta = mc_json_get(p, "_meta");

    *holder = mc_json_get(meta, "progressToken") != NULL ? meta : p;
    return mc_json_get(*holder, "progressToken");
}

/* Gives last, the last message of seq (a request), a progress token one
 * above the largest generated one ("pN") of seq when another message of
 * seq names its token already. */
static void fresh_last_token(json_object *seq, json_object *last)
{
    size_t i, n = json_object_array_length(seq);
    json_object *holder = NULL, *tok = token_of(last, &holder), *h;
    long long top = -1;
    int shared = 0;
    char buf[32];

    if (!prefixed_number(tok, 'p'))
        return;
    for (i = 0; i + 1 < n; i++) {
        json_object *t = token_of(json_object_array_get_idx(seq, i), &h);
        if (prefixed_number(t, 'p')) {
            long long v = strtoll(json_object_get_string(t) + 1, NULL, 10);
            top = v > top ? v : top;
            shared |= json_object_equal(t, tok);
        }
    }
    if (!shared || top >= MC_EXEC_ID_STRIDE - 1)
        return;
    snprintf(buf, sizeof(buf), "p%lld", top + 1);
    json_object_object_add(holder, "progressToken", json_object_new_string(buf));
}

/*
 * An extension appends a message, often one taken from another corpus
 * entry, whose id may be one seq already sent: then (as with any id sent
 * twice) the executor cannot tell which request a response with that id
 * answers and judges none of them, which would hide the answer to the very
 * request that extends the sequence. The appended message gets a fresh
 * integer id then, and a fresh progress token when another request of seq
 * has its token; collisions the mutator makes on purpose are left alone.
 */
void mc__camp_fresh_last_id(json_object *seq)
{
    size_t i, n = json_object_array_length(seq);
    json_object *last = n > 0 ? json_object_array_get_idx(seq, n - 1) : NULL;
    json_object *id = mc_json_get(last, "id");
    int64_t next;

    if (!json_object_is_type(last, json_type_object) || mc_json_get(last, "method") == NULL ||
        !plain_id(id))
        return;
    fresh_last_token(seq, last);
    for (i = 0; i + 1 < n; i++)
        if (json_object_equal(mc_json_get(json_object_array_get_idx(seq, i), "id"), id))
            break;
    if (i + 1 >= n || (next = max_int_id(seq) + 1) >= MC_EXEC_ID_STRIDE)
        return;
    json_object_object_add(last, "id", json_object_new_int64(next));
}

/*
 * A persistent target carries state from one sequence into the next, so
 * what a sequence lit may be owed to the one run before it in the same
 * process: the last MC_CAMPAIGN_CARRY_MSGS messages of prev, then seq,
 * within MC_GEN_MAX_SEQ. The generator's ids (plain_id) of the requests
 * taken from prev are renumbered as integers above seq's, so that no id is
 * sent twice; requestIds that named them follow, and so do the
 * generator's progress tokens that seq uses too. Returns a new reference, or NULL when prev adds
 * nothing (seq is full, or prev is empty).
 */

/* Gives the generator's progress tokens of the carried messages (out's
 * first n) that seq (borrowed) also uses a new number above any the
 * generator makes, the same for every message that names the token, so
 * that no token is sent twice for two requests. */
static void fresh_carried_tokens(json_object *out, size_t n, json_object *seq)
{
    json_object *from[MC_CAMPAIGN_CARRY_MSGS];
    size_t i, k, j, nmap = 0, ns = json_object_array_length(seq);

    for (i = 0; i < n; i++) {
        json_object *holder = NULL, *t;
        char buf[32];
        t = token_of(json_object_array_get_idx(out, i), &holder);
        if (!prefixed_number(t, 'p'))
            continue;
        for (j = 0; j < ns; j++) {
            json_object *h2 = NULL;
            if (json_object_equal(token_of(json_object_array_get_idx(seq, j), &h2), t))
                break;
        }
        if (j == ns)
            continue; /* seq does not use it */
        for (k = 0; k < nmap && !json_object_equal(from[k], t); k++)
            ;
        if (k == nmap) {
            if (nmap == MC_CAMPAIGN_CARRY_MSGS)
                continue;
            from[nmap++] = json_object_get(t);
        }
        /* The generator's tokens stay below 65536. */
        snprintf(buf, sizeof(buf), "p%zu", (size_t)65536 + k);
        json_object_object_add(holder, "progressToken", json_object_new_string(buf));
    }
    for (k = 0; k < nmap; k++)
        json_object_put(from[k]);
}

json_object *mc__camp_with_carry(json_object *prev, json_object *seq)
{
    size_t np = json_object_array_length(prev), ns = json_object_array_length(seq);
    size_t take = np < MC_CAMPAIGN_CARRY_MSGS ? np : MC_CAMPAIGN_CARRY_MSGS, i, k, nmap = 0;
    int64_t next = max_int_id(seq) + 1, to[MC_CAMPAIGN_CARRY_MSGS];
    json_object *from[MC_CAMPAIGN_CARRY_MSGS];
    json_object *out;

    if (ns >= MC_GEN_MAX_SEQ || take == 0)
        return NULL;
    if (take > MC_GEN_MAX_SEQ - ns)
        take = MC_GEN_MAX_SEQ - ns;
    out = json_object_new_array();
    if (out == NULL)
        return NULL;
    for (i = np - take; i < np; i++) {
        json_object *c = NULL, *id, *p, *rid;
        if (json_object_deep_copy(json_object_array_get_idx(prev, i), &c, NULL) != 0 || c == NULL)
            continue;
        id = mc_json_get(c, "id");
        if (json_object_is_type(c, json_type_object) && mc_json_get(c, "method") != NULL &&
            plain_id(id) && next < MC_EXEC_ID_STRIDE) {
            from[nmap] = json_object_get(id);
            to[nmap] = next++;
            json_object_object_add(c, "id", json_object_new_int64(to[nmap]));
            nmap++;
        }
        p = mc_json_get(c, "params");
        rid = mc_json_get(p, "requestId");
        for (k = 0; rid != NULL && k < nmap; k++)
            if (json_object_equal(from[k], rid)) {
                json_object_object_add(p, "requestId", json_object_new_int64(to[k]));
                break;
            }
        json_object_array_add(out, c);
    }
    for (k = 0; k < nmap; k++)
        json_object_put(from[k]);
    fresh_carried_tokens(out, json_object_array_length(out), seq);
    for (i = 0; i < ns; i++)
        json_object_array_add(out, json_object_get(json_object_array_get_idx(seq, i)));
    return out;
}

json_object *mc__camp_with_history(json_object *hist, json_object *seq, size_t *taken)
{
    size_t nh = json_object_array_length(hist), ns = json_object_array_length(seq);
    size_t first = nh, total = ns, i, j, k;
    json_object *out;

    /* The most recent sequences that fit, whole. */
    while (first > 0) {
        size_t len = json_object_array_length(json_object_array_get_idx(hist, first - 1));
        if (total + len > MC_EXEC_MAX_ELEMS)
            break;
        total += len;
        first--;
    }
    *taken = nh - first;
    if (first == nh || (out = json_object_new_array()) == NULL)
        return NULL;
    for (i = first, k = 0; i <= nh; i++, k++) {
        json_object *s = i < nh ? json_object_array_get_idx(hist, i) : seq;
        size_t n = json_object_array_length(s);
        for (j = 0; j < n; j++)
            json_object_array_add(out, mc_exec_moved(json_object_array_get_idx(s, j), k));
    }
    return out;
}

json_object *mc__camp_prefix(json_object *seq, size_t n)
{
    size_t i, len = json_object_array_length(seq);
    json_object *out;

    if (n >= len)
        return json_object_get(seq);
    out = json_object_new_array();
    for (i = 0; out != NULL && i < n; i++)
        json_object_array_add(out, json_object_get(json_object_array_get_idx(seq, i)));
    return out;
}

/*
 * What of seq joins the corpus: a new reference, or NULL when out of
 * memory. New edges in a running process are kept with what came before
 * them (carry, the sequence run before (prev) in front, or NULL): an entry that shows its
 * edges again whatever ran before it is one worth extending. When the
 * executor knows which element the last new edges are owed to, what
 * follows it is left out: it reached nothing new, and the entry's
 * extensions then start right after the request that did.
 */
json_object *mc__camp_to_keep(json_object *prev, json_object *seq, json_object *carry,
                              const mc_exec_outcome_t *out)
{
    json_object *head, *k;

    if (out->new_edges == 0)
        return json_object_get(seq);
    if (out->last_edge_elem < 0 ||
        (size_t)out->last_edge_elem + 1 >= json_object_array_length(seq))
        return json_object_get(carry != NULL ? carry : seq);
    head = mc__camp_prefix(seq, (size_t)out->last_edge_elem + 1);
    if (head == NULL || carry == NULL)
        return head != NULL ? head : json_object_get(seq);
    k = mc__camp_with_carry(prev, head);
    json_object_put(head);
    return k != NULL ? k : json_object_get(carry);
}
