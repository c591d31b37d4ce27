#include "scenario/coverage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/session.h"
#include "core/json.h"
#include "core/jsonrpc.h"
#include "core/version.h"

#define INIT MC_VF_INITIALIZE
#define SRQ MC_VF_SERVER_REQUESTS

/*
 * Every row: the message, the path, and the features of the versions it
 * exists in (core's version table decides which versions those are).
 */
static const mc_coverage_row_t rows[] = {
    /* lifecycle */
    {"initialize", "result", INIT, 0},
    {"initialize", "result counter-offer", INIT, 0},
    {"initialize", "error (request before initialize)", INIT, 0},
    {"notifications/initialized", "sent", INIT, 0},
    {"ping", "result", MC_VF_PING, 0},
    {"server/discover", "result", MC_VF_DISCOVER, 0},
    {"(any request)", "error -32022", MC_VF_STATELESS, 0}, /* unsupported version */
    {"(any request)", "error -32021", MC_VF_STATELESS, 0}, /* capability not declared */
    {"notifications/cancelled", "sent", 0, 0},
    {"notifications/progress", "notification", 0, 0},
    /* JSON-RPC errors and batches */
    {"(malformed)", "error -32700", 0, 0},
    {"(invalid request)", "error -32600", 0, 0},
    {"(unknown method)", "error -32601", 0, 0},
    {"(batch)", "batch answer", MC_VF_BATCH, 0},
    {"(batch)", "error", 0, MC_VF_BATCH}, /* refused where a version has no batches */
    /* resources */
    {"resources/list", "result", 0, 0},
    {"resources/list", "error -32602", 0, 0},
    {"resources/templates/list", "result", 0, 0},
    {"resources/templates/list", "error -32602", 0, 0},
    {"resources/read", "result", 0, 0},
    {"resources/read", "error -32002", 0, MC_VF_NOT_FOUND_PARAMS},
    {"resources/read", "error -32602", 0, 0},
    {"resources/subscribe", "result", MC_VF_RES_SUBSCRIBE, 0},
    {"resources/unsubscribe", "result", MC_VF_RES_SUBSCRIBE, 0},
    {"notifications/resources/updated", "notification", 0, 0},
    {"notifications/resources/updated", "absent", 0, 0},
    {"notifications/resources/list_changed", "notification", 0, 0},
    {"subscriptions/listen", "result", MC_VF_LISTEN, 0},
    /* prompts */
    {"prompts/list", "result", 0, 0},
    {"prompts/list", "error -32602", 0, 0},
    {"prompts/get", "result", 0, 0},
    {"prompts/get", "error -32602", 0, 0},
    {"notifications/prompts/list_changed", "notification", 0, 0},
    /* tools, the way to elicitation, sampling and logging */
    {"tools/list", "result", 0, 0},
    {"tools/list", "error -32602", 0, 0},
    {"tools/call", "result", 0, 0},
    {"tools/call", "error -32602", 0, 0},
    {"notifications/tools/list_changed", "notification", 0, 0},
    /* elicitation */
    {"elicitation/create", "request", MC_VF_ELICIT_FORM | SRQ, 0},
    {"elicitation/create", "answer accept", MC_VF_ELICIT_FORM | SRQ, 0},
    {"elicitation/create", "answer decline", MC_VF_ELICIT_FORM | SRQ, 0},
    {"elicitation/create", "answer cancel", MC_VF_ELICIT_FORM | SRQ, 0},
    {"elicitation/create", "never without capability", MC_VF_ELICIT_FORM | SRQ, 0},
    {"elicitation/create", "url mode", MC_VF_ELICIT_URL | SRQ, 0},
    {"notifications/elicitation/complete", "notification", MC_VF_ELICIT_URL | SRQ, 0},
    {"tools/call", "error -32042", MC_VF_ELICIT_URL | SRQ, 0},
    /* the multi round-trip pattern: requests inside an InputRequiredResult */
    {"elicitation/create", "input request", MC_VF_RESULT_TYPE, 0},
    {"elicitation/create", "input request url mode", MC_VF_RESULT_TYPE, 0},
    {"sampling/createMessage", "input request", MC_VF_RESULT_TYPE, 0},
    {"roots/list", "input request", MC_VF_RESULT_TYPE, 0},
    /* sampling and roots, requested from tools */
    {"sampling/createMessage", "request", SRQ, 0},
    {"roots/list", "request", SRQ, 0},
    {"notifications/roots/list_changed", "sent", SRQ, 0},
    /* logging */
    {"logging/setLevel", "result", MC_VF_LOG_SET_LEVEL, 0},
    {"logging/setLevel", "error -32602", MC_VF_LOG_SET_LEVEL, 0},
    {"notifications/message", "notification", 0, 0},
    {"notifications/message", "absent", 0, 0},
    /* completion */
    {"completion/complete", "result", 0, 0},
    {"completion/complete", "error -32602", 0, 0},
};

#undef INIT
#undef SRQ

int mc_coverage_row_exists(const mc_coverage_row_t *row, const char *version)
{
    return mc_version_has(version, row->needs) &&
           (row->lacks == 0 || mc_version_missing(version, row->lacks) == row->lacks);
}

const mc_coverage_row_t *mc_coverage_row(size_t i)
{
    return i < sizeof(rows) / sizeof(rows[0]) ? &rows[i] : NULL;
}

/* The set of (message, path) pairs a scenario exercises, as "message|path" strings. */
typedef struct hits {
    char *v[512];
    size_t n;
} hits_t;

static void hit(hits_t *h, const char *message, const char *path)
{
    char buf[256];
    size_t i;

    snprintf(buf, sizeof(buf), "%s|%s", message, path);
    for (i = 0; i < h->n; i++)
        if (strcmp(h->v[i], buf) == 0)
            return;
    if (h->n < sizeof(h->v) / sizeof(h->v[0]))
        h->v[h->n++] = strdup(buf);
}

static int has(const hits_t *h, const char *message, const char *path)
{
    char buf[256];
    size_t i;

    snprintf(buf, sizeof(buf), "%s|%s", message, path);
    for (i = 0; i < h->n; i++)
        if (h->v[i] != NULL && strcmp(h->v[i], buf) == 0)
            return 1;
    return 0;
}

/* Records the outcome an expectation names for a method. */
static void expect_hits(hits_t *h, const char *method, const mc_step_expect_t *e)
{
    char path[64];
    size_t i;

    if (e->kind == MC_STEP_EXPECT_RESULT || e->kind == MC_STEP_EXPECT_ANY)
        hit(h, method, "result");
    for (i = 0; e->kind == MC_STEP_EXPECT_CODES && i < e->n_codes; i++) {
        snprintf(path, sizeof(path), "error %lld", (long long)e->codes[i]);
        hit(h, method, path);
    }
}

/*
 * Records what a step's assertions pin: an error code ("path": "error.code",
 * "equals": N), for a step that expects any error and judges the code as an
 * observation of its own; and the requests an InputRequiredResult carries
 * ("result.inputRequests.*.method" equals M, with ".params.mode" "url").
 */
static void assert_hits(hits_t *h, const char *method, json_object *asserts)
{
    const char *input_method = NULL;
    int url_mode = 0;
    char path[64];

    for (size_t k = 0; asserts != NULL && k < json_object_array_length(asserts); k++) {
        json_object *a = json_object_array_get_idx(asserts, k);
        const char *p = mc_json_get_str(a, "path");
        json_object *eq = mc_json_get(a, "equals");
        if (p == NULL || eq == NULL)
            continue;
        if (strcmp(p, "error.code") == 0 && json_object_is_type(eq, json_type_int)) {
            snprintf(path, sizeof(path), "error %lld", (long long)json_object_get_int64(eq));
            hit(h, method, path);
        } else if (strcmp(p, "result.inputRequests.*.method") == 0 &&
                   json_object_is_type(eq, json_type_string)) {
            input_method = json_object_get_string(eq);
        } else if (strcmp(p, "result.inputRequests.*.params.mode") == 0 &&
                   json_object_is_type(eq, json_type_string) &&
                   strcmp(json_object_get_string(eq), "url") == 0) {
            url_mode = 1;
        }
    }
    if (input_method != NULL)
        hit(h, input_method, url_mode ? "input request url mode" : "input request");
}

static void answer_hits(hits_t *h, const char *method, json_object *with)
{
    const char *action = mc_json_get_str(with, "action");
    char path[64];

    if (strcmp(method, "elicitation/create") == 0 && action != NULL) {
        snprintf(path, sizeof(path), "answer %s", action);
        hit(h, method, path);
    }
}

/* What a scan of a scenario's steps carries from step to step. */
typedef struct scan {
    hits_t *h;
    const mc_scenario_t *sc;
    int saw_request; /* the lifecycle has begun */
} scan_t;

static void scan_steps(scan_t *sn, const mc_step_t *steps, size_t n);

/* Each kind's contribution to the map (step.h). */
static void cover_request(scan_t *sn, const mc_step_t *s)
{
    static const mc_step_expect_t any = {.kind = MC_STEP_EXPECT_ANY};
    const mc_step_request_t *r = &s->u.request;
    const mc_step_expect_kind_t ek = r->judge.expect.kind;
    hits_t *h = sn->h;
    const char *m = r->method;

    /* An async request is judged by its await: any answer. */
    expect_hits(h, m, r->async != NULL ? &any : &r->judge.expect);
    assert_hits(h, m, r->judge.asserts);
    /* The JSON-RPC error rows, whichever method provoked them. */
    if (has(h, m, "error -32601"))
        hit(h, "(unknown method)", "error -32601");
    if (has(h, m, "error -32600"))
        hit(h, "(invalid request)", "error -32600");
    if (has(h, m, "error -32022"))
        hit(h, "(any request)", "error -32022");
    if (has(h, m, "error -32021"))
        hit(h, "(any request)", "error -32021");
    if (strcmp(m, "initialize") == 0) {
        const char *pv = mc_json_get_str(r->params, "protocolVersion");
        sn->saw_request = 1;
        if (pv != NULL && strstr(pv, "${") == NULL && !mc_protocol_version_known(pv))
            hit(h, "initialize", "result counter-offer");
    } else if (sn->sc->manual_init && !sn->saw_request &&
               (ek == MC_STEP_EXPECT_CODES || ek == MC_STEP_EXPECT_ERROR)) {
        hit(h, "initialize", "error (request before initialize)");
    }
}

static void cover_paginate(scan_t *sn, const mc_step_t *s)
{
    hit(sn->h, s->u.paginate.method, "result");
}

static void cover_notify(scan_t *sn, const mc_step_t *s)
{
    hit(sn->h, s->u.notify.method, "sent");
}

static void cover_expect_notification(scan_t *sn, const mc_step_t *s)
{
    hit(sn->h, s->u.expect_notification.method, "notification");
}

static void cover_expect_no_notification(scan_t *sn, const mc_step_t *s)
{
    hit(sn->h, s->u.expect_no_notification.method, "absent");
}

static void cover_expect_request(scan_t *sn, const mc_step_t *s)
{
    const char *m = s->u.expect_request.method;

    hit(sn->h, m, "request");
    if (strcmp(m, "elicitation/create") == 0) {
        json_object *as = s->u.expect_request.judge.asserts;
        for (size_t k = 0; as != NULL && k < json_object_array_length(as); k++) {
            json_object *a = json_object_array_get_idx(as, k);
            const char *p = mc_json_get_str(a, "path");
            const char *eq = mc_json_get_str(a, "equals");
            if (p != NULL && strstr(p, "mode") != NULL && eq != NULL && strcmp(eq, "url") == 0)
                hit(sn->h, m, "url mode");
        }
    }
}

static void cover_answer(scan_t *sn, const mc_step_t *s)
{
    answer_hits(sn->h, s->u.answer.method, s->u.answer.with);
}

static void cover_raw(scan_t *sn, const mc_step_t *s)
{
    hits_t *h = sn->h;
    const mc_step_raw_t *r = &s->u.raw;
    const mc_step_expect_t *e = &r->judge.expect;
    /* One code written as a number (not a list). */
    long long code = e->kind == MC_STEP_EXPECT_CODES && !e->codes_list && e->n_codes == 1
                         ? (long long)e->codes[0]
                         : 0;

    if (e->kind == MC_STEP_EXPECT_BATCH)
        hit(h, "(batch)", "batch answer");
    else if (r->line != NULL && r->line[0] == '[' &&
             (e->kind == MC_STEP_EXPECT_CODES || e->kind == MC_STEP_EXPECT_ERROR))
        hit(h, "(batch)", "error");
    if (code == -32700)
        hit(h, "(malformed)", "error -32700");
    if (code == -32600)
        hit(h, "(invalid request)", "error -32600");
    if (code == -32601)
        hit(h, "(unknown method)", "error -32601");
    if (r->parsed != NULL) {
        const char *rm = mc_json_get_str(r->parsed, "method");
        if (rm != NULL && mc_json_get(r->parsed, "id") == NULL)
            hit(h, rm, "sent");
    }
}

static void cover_for_each(scan_t *sn, const mc_step_t *s)
{
    scan_steps(sn, s->steps, s->n_steps);
}

/* The awaited request's path was recorded at its request step; the other
 * kinds send or expect nothing the map has a row for. */
static void cover_nothing(scan_t *sn, const mc_step_t *s)
{
    (void)sn;
    (void)s;
}
#define cover_await cover_nothing
#define cover_expect_no_request cover_nothing
#define cover_sleep cover_nothing
#define cover_value cover_nothing
#define cover_http cover_nothing
#define cover_reconnect cover_nothing

static void (*const step_covers[MC_STEP_KIND_COUNT])(scan_t *sn, const mc_step_t *s) = {
#define COVER_ROW(id, name, what) [MC_STEP_##id] = cover_##id,
    MC_STEP_KINDS(COVER_ROW)
#undef COVER_ROW
};

static void scan_steps(scan_t *sn, const mc_step_t *steps, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (steps[i].kind != MC_STEP_NONE && step_covers[steps[i].kind] != NULL)
            step_covers[steps[i].kind](sn, &steps[i]);
}

static void scenario_hits(const mc_scenario_t *sc, hits_t *h)
{
    scan_t sn;
    json_object *answers = sc->answers;

    memset(h, 0, sizeof(*h));
    if (!sc->manual_init) {
        hit(h, "initialize", "result");
        hit(h, "notifications/initialized", "sent");
    }
    if (sc->client_version != NULL && !mc_protocol_version_known(sc->client_version))
        hit(h, "initialize", "result counter-offer");
    if (answers != NULL) {
        json_object_object_foreach(answers, m, a)
        {
            answer_hits(h, m, mc_json_get(a, "with"));
        }
    }
    sn.h = h;
    sn.sc = sc;
    sn.saw_request = 0;
    scan_steps(&sn, sc->step_v, sc->n_steps);
    /* A scenario that calls a tool without declaring elicitation and checks
     * no elicitation/create arrives covers the capability gate. */
    if ((sc->client_caps == NULL || mc_json_get(sc->client_caps, "elicitation") == NULL) &&
        sc->n_roles > 0) {
        for (size_t i = 0; i < sc->n_roles; i++)
            if (strstr(sc->roles[i], "elicitation") != NULL)
                hit(h, "elicitation/create", "never without capability");
    }
}

static void hits_free(hits_t *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->v[i]);
}

json_object *mc_coverage_build(const mc_scenario_t *scs, size_t n, const char *const *versions,
                               size_t *empty)
{
    json_object *doc = json_object_new_object(), *list = json_object_new_array();
    hits_t *all = calloc(n + 1, sizeof(hits_t));
    size_t i, k;

    *empty = 0;
    if (doc == NULL || list == NULL || all == NULL) {
        json_object_put(doc);
        json_object_put(list);
        free(all);
        return NULL;
    }
    for (k = 0; k < n; k++)
        scenario_hits(&scs[k], &all[k]);
    for (const char *const *v = versions; *v != NULL; v++) {
        for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
            const mc_coverage_row_t *r = &rows[i];
            json_object *row, *who;
            if (!mc_coverage_row_exists(r, *v))
                continue;
            row = json_object_new_object();
            who = json_object_new_array();
            json_object_object_add(row, "message", json_object_new_string(r->message));
            json_object_object_add(row, "version", json_object_new_string(*v));
            json_object_object_add(row, "path", json_object_new_string(r->path));
            for (k = 0; k < n; k++) {
                const mc_scenario_t *sc = &scs[k];
                char why[200];
                int applies = sc->client_version != NULL
                                  ? strcmp(sc->client_version, *v) == 0 ||
                                        !mc_protocol_version_known(sc->client_version)
                                  : mc_scenario_applies(sc, *v) &&
                                        !mc_scenario_version_gap(sc, *v, why, sizeof(why));
                if (applies && has(&all[k], r->message, r->path))
                    json_object_array_add(who, json_object_new_string(sc->id));
            }
            if (json_object_array_length(who) == 0)
                (*empty)++;
            json_object_object_add(row, "scenarios", who);
            json_object_array_add(list, row);
        }
    }
    for (k = 0; k < n; k++)
        hits_free(&all[k]);
    free(all);
    json_object_object_add(doc, "rows", list);
    return doc;
}
