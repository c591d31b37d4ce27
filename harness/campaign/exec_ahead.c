/*
 * exec_ahead.c - what a sequence sends, moved per sequence, and what of it
 * may go ahead of the answers to the sequence before it (pipelining).
 *
 * Promises: integer ids below MC_EXEC_ID_STRIDE, the generator's "sN"
 * string ids (and the requestId of a cancellation) and its "pN" progress
 * tokens are moved by the offset of the sequence in its process, and
 * nothing else is; a sequence goes ahead only when every element is an
 * answer element or a request with a valid envelope and a UTF-8 line
 * whose sending changes nothing the judge holds earlier answers to, on
 * an id (and progress token) new to the process and to the sequence; the
 * lines sent ahead are neither noted nor read (their run notes them);
 * answers to ids of no request of the sequence running are remembered
 * (up to MC__EXEC_MAX_UNCLAIMED) for the sequence sent ahead.
 * docs/fuzzing.md, "Pipelining".
 */
#include <stdio.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/json.h"

/* The number n of a generated string id or progress token: the letter c
 * then N (below the id stride, no leading zero), or -1 for any other
 * value. */
static int64_t gen_number(json_object *v, char c)
{
    const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
    int64_t n = 0;
    size_t i;

    if (s == NULL || s[0] != c || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2] != '\0'))
        return -1;
    for (i = 1; s[i] != '\0'; i++) {
        if (s[i] < '0' || s[i] > '9' || i > 9)
            return -1;
        n = n * 10 + (s[i] - '0');
    }
    return n < MC_EXEC_ID_STRIDE ? n : -1;
}

/* id moved by off: an integer in [0, MC_EXEC_ID_STRIDE) plus off, a
 * generated string id "sN" as "s(N+off)"; NULL for any other id (an odd
 * value the mutator chose stays as it is). */
static json_object *moved_id(json_object *id, int64_t off)
{
    int64_t n;
    char buf[32];

    if (json_object_is_type(id, json_type_int) && json_object_get_int64(id) >= 0 &&
        json_object_get_int64(id) < MC_EXEC_ID_STRIDE)
        return json_object_new_int64(json_object_get_int64(id) + off);
    if ((n = gen_number(id, 's')) < 0)
        return NULL;
    snprintf(buf, sizeof(buf), "s%lld", (long long)(n + off));
    return json_object_new_string(buf);
}

/* A generated progress token "pN" moved by off ("p(N+off)"), or NULL for
 * any other token. */
static json_object *moved_token(json_object *tok, int64_t off)
{
    int64_t n = gen_number(tok, 'p');
    char buf[32];

    if (n < 0)
        return NULL;
    snprintf(buf, sizeof(buf), "p%lld", (long long)(n + off));
    return json_object_new_string(buf);
}

/* The progress token of a message (borrowed), or NULL. */
json_object *mc__exec_token_of(json_object *msg)
{
    return mc_json_get(mc_json_get(mc_json_get(msg, "params"), "_meta"), "progressToken");
}

/* Moves an id (or requestId) and a generated progress token by off so
 * that sequences in one process use neither each other's ids nor each
 * other's tokens: a corpus entry run again later in the process is then no
 * collision, and what the server says about it is judged as in a fresh
 * process. Returns a new reference or a new reference to el. */
json_object *mc__exec_offset_ids(json_object *el, int64_t off)
{
    json_object *c = NULL, *id, *rid, *tok, *m = NULL;

    if (off == 0)
        return json_object_get(el);
    id = mc_json_get(el, "id");
    rid = mc_json_get(mc_json_get(el, "params"), "requestId");
    tok = mc__exec_token_of(el);
    if ((id == NULL || (m = moved_id(id, off)) == NULL) &&
        (rid == NULL || (m = moved_id(rid, off)) == NULL) &&
        (tok == NULL || (m = moved_token(tok, off)) == NULL))
        return json_object_get(el);
    json_object_put(m);
    if (json_object_deep_copy(el, &c, NULL) != 0)
        return json_object_get(el);
    id = mc_json_get(c, "id");
    if (id != NULL && (m = moved_id(id, off)) != NULL)
        json_object_object_add(c, "id", m);
    rid = mc_json_get(mc_json_get(c, "params"), "requestId");
    if (rid != NULL && (m = moved_id(rid, off)) != NULL)
        json_object_object_add(mc_json_get(c, "params"), "requestId", m);
    tok = mc__exec_token_of(c);
    if (tok != NULL && (m = moved_token(tok, off)) != NULL)
        json_object_object_add(mc_json_get(mc_json_get(c, "params"), "_meta"), "progressToken", m);
    return c;
}

json_object *mc_exec_moved(json_object *el, uint64_t k)
{
    return mc__exec_offset_ids(el, (int64_t)k * MC_EXEC_ID_STRIDE);
}

/* True for a method whose sending changes what the judge holds the
 * server's earlier messages to (the level set, the subscriptions, the
 * session itself), or that opens a stream: such a request is not sent
 * ahead of the answers to the sequence before it. */
static int judge_state_method(const char *m)
{
    static const char *const k[] = {"initialize", "logging/setLevel", "resources/subscribe",
                                     "resources/unsubscribe", "subscriptions/listen"};
    size_t i;

    if (strncmp(m, "notifications/", 14) == 0)
        return 1;
    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
        if (strcmp(m, k[i]) == 0)
            return 1;
    return 0;
}

/* True when text (an id's or a token's, as noted) is new to the process
 * and to the n texts of seen; adds it to seen. */
static int fresh_text(const mc_exec_t *x, const char *text, char (*seen)[64], size_t *n)
{
    size_t k;

    if (strlen(text) >= sizeof(seen[0]) || mc__exec_key_of(x, text) != MC__EXEC_KEY_UNSENT)
        return 0;
    for (k = 0; k < *n; k++)
        if (strcmp(seen[k], text) == 0)
            return 0;
    if (*n >= MC__EXEC_MAX_EXPECTED)
        return 0;
    memcpy(seen[(*n)++], text, strlen(text) + 1);
    return 1;
}

/* Whether element el may go ahead (see mc__exec_pipeable); seen holds the
 * ids and tokens of the sequence's elements before it. */
static int pipeable_element(const mc_exec_t *x, json_object *el, int64_t off, char (*seen)[64],
                            size_t *n_seen)
{
    json_object *m;
    const char *method, *line;
    char idc[64], tc[72], tv[64];
    int ok;

    if (mc_exec_is_answer(el))
        return 1;
    if (!json_object_is_type(el, json_type_object) || !mc__exec_answer_due(el) ||
        (method = mc_json_get_str(el, "method")) == NULL || judge_state_method(method))
        return 0;
    m = mc__exec_offset_ids(el, off);
    line = json_object_to_json_string_ext(m, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    mc__exec_compact(mc_json_get(m, "id"), idc, sizeof(idc));
    ok = line != NULL && mc__exec_utf8_ok(line) && strlen(idc) < sizeof(idc) - 1 &&
         fresh_text(x, idc, seen, n_seen);
    if (ok && mc__exec_token_of(m) != NULL) {
        mc__exec_compact(mc__exec_token_of(m), tv, sizeof(tv));
        snprintf(tc, sizeof(tc), "token:%s", tv);
        ok = strlen(tv) < sizeof(tv) - 1 && fresh_text(x, tc, seen, n_seen);
    }
    json_object_put(m);
    return ok;
}

int mc__exec_pipeable(const mc_exec_t *x, json_object *seq, int64_t off)
{
    char seen[MC__EXEC_MAX_EXPECTED][64];
    size_t i, n = json_object_array_length(seq), n_seen = 0;

    if (n == 0 || n > MC_EXEC_MAX_ELEMS)
        return 0;
    for (i = 0; i < n; i++)
        if (!pipeable_element(x, json_object_array_get_idx(seq, i), off, seen, &n_seen))
            return 0;
    return 1;
}

int mc__exec_presend(mc_exec_t *x, json_object *seq, int64_t off)
{
    size_t i, n = json_object_array_length(seq);
    int rc = MC_OK;

    x->ahead_n = 0;
    x->ahead_lines = 0;
    x->presending = 1;
    for (i = 0; i < n && rc == MC_OK; i++) {
        json_object *el = json_object_array_get_idx(seq, i), *m;
        const char *line;
        if (!mc_exec_is_answer(el) && !mc__exec_forbidden_call(x, el)) {
            m = mc__exec_offset_ids(el, off);
            line = json_object_to_json_string_ext(m, JSON_C_TO_STRING_PLAIN |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE);
            rc = mc_session_send_raw(&x->s, line, strlen(line), x->o.hang_ms);
            json_object_put(m);
        }
        if (rc == MC_OK)
            x->ahead_n = i + 1;
    }
    x->presending = 0;
    return rc == MC_OK;
}

void mc__exec_unclaimed_add(mc_exec_t *x, const char *id)
{
    size_t k;

    if (strlen(id) >= sizeof(x->unclaimed[0]) || x->n_unclaimed >= MC__EXEC_MAX_UNCLAIMED)
        return;
    for (k = 0; k < x->n_unclaimed; k++)
        if (strcmp(x->unclaimed[k], id) == 0)
            return;
    memcpy(x->unclaimed[x->n_unclaimed++], id, strlen(id) + 1);
}

