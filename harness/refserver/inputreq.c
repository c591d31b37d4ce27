/*
 * inputreq.c - the multi round-trip fixtures of the stateless protocol
 * (2026-07-28): tools and a prompt that answer with an InputRequiredResult
 * until the client's retry carries every input they asked for.
 *
 * A fixture is a list of rounds; each round asks for one or more inputs
 * (an elicitation, a sampling request or roots/list) under keys of its own.
 * The retry that answers every key of a round gets the next round, or the
 * complete result after the last one. What the server must remember between
 * rounds travels in requestState (basic/patterns/mrtr#server-requirements-
 * basic-workflow): the fixture, the round and when it was issued, with a
 * keyed digest over them. A state that does not verify, names another
 * fixture or has lapsed is refused with -32602; a retry missing a key is
 * asked for that input again (the page's SHOULD), and an answer that is not
 * the result object its request calls for is refused with -32602. Inputs a
 * round may go without are not asked of a client that did not declare their
 * capability; a required one is refused with -32021
 * (MissingRequiredClientCapability) instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "refserver/internal.h"

/* Rounds a fixture can have, and inputs a round can ask for. */
#define RS_IR_MAX_ROUNDS 2
#define RS_IR_MAX_INPUTS 3
/* How long an issued requestState is honoured. */
#define RS_IR_STATE_TTL_MS (10 * 60 * 1000)
/* The key of the state digest. The state gates nothing but which round of a
 * fixture comes next, so tampering can do no worse than fail the retry; the
 * digest lets the server tell such a state apart and refuse it. */
#define RS_IR_STATE_KEY UINT64_C(0x6d6370636865636b)
/* Longest requestState the server issues (and so accepts). */
#define RS_IR_STATE_MAX 160

typedef struct rs_ir_input {
    const char *key;
    const char *method; /* elicitation/create, sampling/createMessage or roots/list */
    const char *params; /* the request's params as JSON text */
    int optional;       /* the fixture can do without it */
} rs_ir_input_t;

typedef struct rs_ir_fixture {
    const char *name;
    int prompt;   /* a prompt (prompts/get), not a tool */
    int stateful; /* rounds carry requestState */
    int rounds;
    rs_ir_input_t in[RS_IR_MAX_ROUNDS][RS_IR_MAX_INPUTS];
} rs_ir_fixture_t;

#define ASK_FORM(msg, prop, type)                                                                  \
    "{\"message\":\"" msg "\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"" prop    \
    "\":{\"type\":\"" type "\"}},\"required\":[\"" prop "\"]}}"
#define ASK_LLM(text, max)                                                                         \
    "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"" text "\"}}],"   \
    "\"maxTokens\":" #max "}"

static const rs_ir_fixture_t rs_ir_fixtures[] = {
    {"test_input_required_result_elicitation",
     0,
     0,
     1,
     {{{"user_name", "elicitation/create", ASK_FORM("Whom am I talking to?", "name", "string"),
        0}}}},
    {"test_input_required_result_sampling",
     0,
     0,
     1,
     {{{"capital_question", "sampling/createMessage",
        ASK_LLM("Which city is the capital of France?", 100), 0}}}},
    {"test_input_required_result_list_roots", 0, 0, 1, {{{"client_roots", "roots/list", "{}", 0}}}},
    {"test_input_required_result_request_state",
     0,
     1,
     1,
     {{{"confirm", "elicitation/create", ASK_FORM("Go ahead?", "ok", "boolean"), 0}}}},
    {"test_input_required_result_multiple_inputs",
     0,
     1,
     1,
     {{{"user_name", "elicitation/create", ASK_FORM("Whom am I talking to?", "name", "string"), 0},
       {"greeting", "sampling/createMessage", ASK_LLM("Write a one-line greeting.", 50), 0},
       {"client_roots", "roots/list", "{}", 0}}}},
    {"test_input_required_result_multi_round",
     0,
     1,
     2,
     {{{"step1", "elicitation/create", ASK_FORM("First: your name?", "name", "string"), 0}},
      {{"step2", "elicitation/create", ASK_FORM("Then: your favourite colour?", "color", "string"),
        0}}}},
    {"test_input_required_result_tampered_state",
     0,
     1,
     1,
     {{{"confirm", "elicitation/create", ASK_FORM("Go ahead?", "ok", "boolean"), 0}}}},
    /* Asks for an elicitation only of a client that declared it. */
    {"test_input_required_result_capabilities",
     0,
     0,
     1,
     {{{"opinion", "elicitation/create", ASK_FORM("Anything to add?", "note", "string"), 1},
       {"summary", "sampling/createMessage", ASK_LLM("Summarise the day in a line.", 50), 0}}}},
    /* Needs sampling: a client without it gets -32021. */
    {"test_missing_capability",
     0,
     0,
     1,
     {{{"answer", "sampling/createMessage", ASK_LLM("What is two plus two?", 20), 0}}}},
    /* Its inputs come in the response to the call, never as a request of
     * the server's own on that stream. */
    {"test_streaming_elicitation",
     0,
     0,
     1,
     {{{"user_name", "elicitation/create", ASK_FORM("Whom am I talking to?", "name", "string"),
        0}}}},
    {"test_input_required_result_prompt",
     1,
     0,
     1,
     {{{"user_context", "elicitation/create",
        ASK_FORM("Which context should the prompt use?", "context", "string"), 0}}}},
};
#define RS_IR_NFIXTURES ((int)(sizeof(rs_ir_fixtures) / sizeof(rs_ir_fixtures[0])))

static const rs_ir_fixture_t *find_fixture(const char *name, int prompt)
{
    int i;

    for (i = 0; name != NULL && i < RS_IR_NFIXTURES; i++)
        if (rs_ir_fixtures[i].prompt == prompt && strcmp(rs_ir_fixtures[i].name, name) == 0)
            return &rs_ir_fixtures[i];
    return NULL;
}

int mc__rs_ir_is_fixture(const char *name, int prompt)
{
    return find_fixture(name, prompt) != NULL;
}

static uint64_t state_digest(const char *name, int round, int64_t issued)
{
    char tail[48];

    snprintf(tail, sizeof(tail), "|%d|%" PRId64, round, issued);
    /* FNV-1a (core/hash.h) from the standard 64-bit offset basis, keyed */
    return mc_fnv1a64_str(mc_fnv1a64_str(MC_FNV1A64_INIT ^ RS_IR_STATE_KEY, name),
                          tail);
}

/* Writes the state of round of fixture f into buf. */
static void state_make(mc_refserver_t *rs, const rs_ir_fixture_t *f, int round, char *buf,
                       size_t size)
{
    snprintf(buf, size, "%s.%d.%" PRId64 ".%016" PRIx64, f->name, round, rs->now,
             state_digest(f->name, round, rs->now));
}

/* Reads the round a state of fixture f names; returns -1 when the state is
 * not one the server issued for f, or has lapsed. */
static int state_round(mc_refserver_t *rs, const rs_ir_fixture_t *f, const char *s)
{
    size_t n = strlen(f->name);
    char *end;
    long round;
    long long issued;
    unsigned long long mac;

    if (strlen(s) > RS_IR_STATE_MAX || strncmp(s, f->name, n) != 0 || s[n] != '.')
        return -1;
    s += n + 1;
    round = strtol(s, &end, 10);
    if (end == s || *end != '.' || round < 0 || round >= f->rounds)
        return -1;
    s = end + 1;
    issued = strtoll(s, &end, 10);
    if (end == s || *end != '.')
        return -1;
    s = end + 1;
    if (strlen(s) != 16)
        return -1;
    mac = strtoull(s, &end, 16);
    if (*end != '\0' || mac != state_digest(f->name, (int)round, (int64_t)issued))
        return -1;
    if (issued > rs->now || rs->now - issued > RS_IR_STATE_TTL_MS)
        return -1;
    return (int)round;
}

/* True when the client declared what method needs. */
static int declared(const mc_refserver_t *rs, const char *method)
{
    if (strcmp(method, "elicitation/create") == 0)
        return rs->cap_elicit_form;
    if (strcmp(method, "sampling/createMessage") == 0)
        return rs->cap_sampling;
    return rs->cap_roots;
}

static const char *capability_of(const char *method)
{
    if (strcmp(method, "elicitation/create") == 0)
        return "elicitation";
    if (strcmp(method, "sampling/createMessage") == 0)
        return "sampling";
    return "roots";
}

/* True when answer has the shape of the result method calls for. */
static int answer_ok(const char *method, json_object *answer)
{
    json_object *v;

    if (!json_object_is_type(answer, json_type_object))
        return 0;
    if (strcmp(method, "elicitation/create") == 0) {
        const char *a = mc__rs_get_str(answer, "action");
        if (a == NULL ||
            (strcmp(a, "accept") != 0 && strcmp(a, "decline") != 0 && strcmp(a, "cancel") != 0))
            return 0;
        return !json_object_object_get_ex(answer, "content", &v) ||
               json_object_is_type(v, json_type_object);
    }
    if (strcmp(method, "sampling/createMessage") == 0)
        return mc__rs_get_str(answer, "role") != NULL &&
               json_object_object_get_ex(answer, "content", &v) &&
               (json_object_is_type(v, json_type_object) ||
                json_object_is_type(v, json_type_array));
    return json_object_object_get_ex(answer, "roots", &v) &&
           json_object_is_type(v, json_type_array);
}

/* Appends to text a line on what the client answered under in->key. */
static void describe(const rs_ir_input_t *in, json_object *answer, char *text, size_t size)
{
    size_t len = strlen(text);
    char line[160];
    json_object *v;

    if (strcmp(in->method, "elicitation/create") == 0) {
        const char *action = mc__rs_get_str(answer, "action");
        if (strcmp(action, "accept") == 0 && json_object_object_get_ex(answer, "content", &v))
            snprintf(line, sizeof(line), "%s: %.100s", in->key,
                     json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
        else
            snprintf(line, sizeof(line), "%s: the user chose %s", in->key, action);
    } else if (strcmp(in->method, "sampling/createMessage") == 0) {
        const char *t = NULL;
        json_object_object_get_ex(answer, "content", &v);
        if (json_object_is_type(v, json_type_array))
            v = json_object_array_get_idx(v, 0);
        t = mc__rs_get_str(v, "text");
        snprintf(line, sizeof(line), "%s: %.100s", in->key, t != NULL ? t : "(non-text content)");
    } else {
        json_object_object_get_ex(answer, "roots", &v);
        snprintf(line, sizeof(line), "%s: %zu root(s)", in->key, json_object_array_length(v));
    }
    if (len + 2 < size)
        snprintf(text + len, size - len, "%s%s", len > 0 ? "; " : "", line);
}

/* Sends -32021 naming the capability method needs. */
static void need_capability(mc_refserver_t *rs, json_object *id, const char *method)
{
    json_object *data = json_object_new_object(), *caps = json_object_new_object();
    char msg[128];
    const char *cap = capability_of(method);

    mc__rs_put(rs, caps, cap, json_object_new_object());
    mc__rs_put(rs, data, "requiredCapabilities", caps);
    snprintf(msg, sizeof(msg), "this request needs the client capability %s", cap);
    mc__rs_error(rs, id, MC_RPC_MISSING_CLIENT_CAPABILITY, msg, data);
}

int mc__rs_ir_serve(mc_refserver_t *rs, json_object *id, const char *name, int prompt,
                    json_object *params, json_object **result, char *text, size_t size)
{
    const rs_ir_fixture_t *f = find_fixture(name, prompt);
    json_object *responses = NULL, *state, *reqs = NULL, *res;
    char buf[RS_IR_STATE_MAX + 1];
    int round = 0, i, asked = 0, verified = 0;

    *result = NULL;
    text[0] = '\0';
    if (f == NULL)
        return RS_IR_REFUSED;
    if (json_object_object_get_ex(params, "inputResponses", &responses) &&
        !json_object_is_type(responses, json_type_object)) {
        mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, "params.inputResponses must be an object",
                     NULL);
        return RS_IR_REFUSED;
    }
    if (json_object_object_get_ex(params, "requestState", &state)) {
        if (!f->stateful || !json_object_is_type(state, json_type_string) ||
            (round = state_round(rs, f, json_object_get_string(state))) < 0) {
            mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS,
                         "params.requestState is not a state this server issued for this "
                         "request, or it has expired",
                         NULL);
            return RS_IR_REFUSED;
        }
        verified = 1;
    }
    for (;;) {
        for (i = 0; i < RS_IR_MAX_INPUTS && f->in[round][i].key != NULL; i++) {
            const rs_ir_input_t *in = &f->in[round][i];
            json_object *answer = NULL, *req;
            if (!declared(rs, in->method)) {
                if (in->optional)
                    continue;
                json_object_put(reqs);
                need_capability(rs, id, in->method);
                return RS_IR_REFUSED;
            }
            if (responses != NULL && json_object_object_get_ex(responses, in->key, &answer)) {
                if (!answer_ok(in->method, answer)) {
                    char msg[160];
                    json_object_put(reqs);
                    snprintf(msg, sizeof(msg), "inputResponses.%s is not a result of %s", in->key,
                             in->method);
                    mc__rs_error(rs, id, MC_RPC_INVALID_PARAMS, msg, NULL);
                    return RS_IR_REFUSED;
                }
                describe(in, answer, text, size);
                continue;
            }
            if (reqs == NULL)
                reqs = json_object_new_object();
            req = json_object_new_object();
            mc__rs_put_str(rs, req, "method", in->method);
            mc__rs_put(rs, req, "params", json_tokener_parse(in->params));
            mc__rs_put(rs, reqs, in->key, req);
            asked++;
        }
        if (asked > 0 || round + 1 >= f->rounds)
            break;
        /* Every input of this round is in hand: the next round's inputs
         * were never asked for, so they are asked now. */
        round++;
        responses = NULL;
    }
    if (asked == 0) {
        size_t len = strlen(text);
        if (verified && len + 2 < size)
            snprintf(text + len, size - len, "%srequestState verified (state-ok)",
                     len > 0 ? "; " : "");
        return RS_IR_DONE;
    }
    res = json_object_new_object();
    mc__rs_put_str(rs, res, "resultType", "input_required");
    mc__rs_put(rs, res, "inputRequests", reqs);
    if (f->stateful) {
        state_make(rs, f, round, buf, sizeof(buf));
        mc__rs_put_str(rs, res, "requestState", buf);
    }
    *result = res;
    return RS_IR_ASK;
}
