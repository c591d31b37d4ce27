/*
 * runner_page.c - the paginate step: walks a list page by page, twice, and
 * judges that it terminates, repeats no item and is stable (see
 * runner_int.h).
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

/* Identity of a list item, for duplicate detection. */
static void item_key(json_object *item, const char *key, char *out, size_t n)
{
    json_object *k = mc_json_get(item, key);

    if (k != NULL && json_object_is_type(k, json_type_string))
        snprintf(out, n, "%s", json_object_get_string(k));
    else
        mc__runner_compact(item, out, n);
}

/* One walk of a paginated list, as it goes. */
typedef struct walk {
    const char *method, *items, *key;
    int max_pages, line, do_asserts;
    int pages;
    json_object *acc; /* owned: every item, in order */
    char *sig;        /* owned: the item keys, '\x1f' after each, '\x1e' after each page */
    size_t sig_len, sig_cap;
    int dups;          /* items whose key an earlier item had */
    char dup_key[600]; /* the first of them, with its page */
} walk_t;

/* Appends n bytes of s and a terminator to the walk's signature, growing
 * it; returns -1 when out of memory (the signature is unchanged then). */
static int sig_add(walk_t *w, const char *s, size_t n, char end)
{
    if (w->sig_len + n + 3 > w->sig_cap) {
        size_t cap = w->sig_cap;
        char *ns;
        while (w->sig_len + n + 3 > cap)
            cap *= 2;
        ns = realloc(w->sig, cap);
        if (ns == NULL)
            return -1;
        w->sig = ns;
        w->sig_cap = cap;
    }
    memcpy(w->sig + w->sig_len, s, n);
    w->sig_len += n;
    w->sig[w->sig_len++] = end;
    w->sig[w->sig_len] = '\0';
    return 0;
}

/* Adds a page's items to the walk, counting the ones seen before. Returns
 * -1 when out of memory. */
static int add_items(walk_t *w, json_object *list)
{
    size_t i, n;

    if (list == NULL || !json_object_is_type(list, json_type_array))
        return 0;
    n = json_object_array_length(list);
    for (i = 0; i < n; i++) {
        json_object *it = json_object_array_get_idx(list, i);
        char k[512];
        size_t j, m = json_object_array_length(w->acc);
        item_key(it, w->key, k, sizeof(k));
        for (j = 0; j < m; j++) {
            char k2[512];
            item_key(json_object_array_get_idx(w->acc, j), w->key, k2, sizeof(k2));
            if (strcmp(k, k2) == 0) {
                if (w->dups == 0)
                    snprintf(w->dup_key, sizeof(w->dup_key), "%s (page %d)", k, w->pages);
                w->dups++;
                break;
            }
        }
        json_object_array_add(w->acc, json_object_get(it));
        if (sig_add(w, k, strlen(k), '\x1f') != 0)
            return -1;
    }
    return 0;
}

/*
 * Asks for the next page (cursor NULL for the first). Returns 0 with *resp
 * holding a result, 1 when the walk cannot go on (recorded), -1 when the
 * target is gone.
 */
static int fetch_page(rctx_t *c, const mc_step_t *s, walk_t *w, json_object *cursor, mc_msg_t *resp)
{
    const mc_step_paginate_t *p = &s->u.paginate;
    json_object *params;
    char what[200];
    int rc;

    if (p->params != NULL) {
        params = mc__runner_expand(c, p->params, w->line);
        if (params == NULL)
            return 1;
    } else {
        params = json_object_new_object();
    }
    if (cursor != NULL)
        json_object_object_add(params, "cursor", json_object_get(cursor));
    snprintf(what, sizeof(what), "%s page %d", w->method, w->pages + 1);
    rc = mc_session_request(&c->s, w->method, params, mc__runner_time_left(c, c->step_timeout),
                            resp);
    mc__runner_drain(c);
    if (rc == MC_ETIMEOUT) {
        char msg[240];
        snprintf(msg, sizeof(msg), "%s: no response within %d ms", what, c->step_timeout);
        mc__runner_check(c, "pagination/terminates", 0, msg, "a page", "(none)", "", 0, w->line);
        return 1;
    }
    if (rc != MC_OK) {
        mc__runner_target_gone(c, rc, what);
        return -1;
    }
    w->pages++;
    if (resp->kind != MC_MSG_RESULT) {
        char msg[512];
        snprintf(msg, sizeof(msg), "%.190s failed with error %lld: %.190s", what,
                 (long long)resp->error_code, resp->error_message);
        mc__runner_check(c, "pagination/terminates", 0, msg, "a page", "an error", "",
                         mc__runner_resp_tx_seq(c, resp), w->line);
        mc_msg_free(resp);
        return 1;
    }
    if (w->do_asserts)
        mc__runner_run_asserts(c, p->asserts, resp->root, mc__runner_step_check(c, s), what,
                               w->line, mc__runner_resp_tx_seq(c, resp));
    return 0;
}

/* One walk of a paginated list: fills w->acc with all items and w->sig
 * with the pages' item keys (for the stability comparison). Returns 0 when
 * the list ended, 1 when the walk failed (recorded), -1 when the target is
 * gone or memory ran out. */
static int walk_list(rctx_t *c, const mc_step_t *s, walk_t *w)
{
    json_object *cursor = NULL;
    int rc;

    w->acc = json_object_new_array();
    w->sig_cap = 256;
    w->sig = malloc(w->sig_cap);
    if (w->acc == NULL || w->sig == NULL)
        return -1;
    w->sig[0] = '\0';
    for (;;) {
        json_object *next;
        mc_msg_t resp;

        rc = fetch_page(c, s, w, cursor, &resp);
        if (rc != 0)
            break;
        if (add_items(w, mc_json_get(resp.result, w->items)) != 0) {
            mc_msg_free(&resp);
            rc = -1;
            break;
        }
        /* The page boundary only: two walks of an unchanged list must give
         * the same items on the same pages; the cursor strings may differ
         * (an opaque cursor may carry a nonce; the reading of "stable
         * cursors" is in the check registry). */
        (void)sig_add(w, "", 0, '\x1e');
        next = mc_json_get(resp.result, "nextCursor");
        json_object_put(cursor);
        cursor = NULL;
        if (next == NULL || json_object_is_type(next, json_type_null)) {
            mc_msg_free(&resp);
            rc = 0;
            break;
        }
        /* An empty-string cursor is still a cursor (the spec does not make
         * "" special): follow it. The page cap guards against loops. */
        cursor = json_object_get(next);
        mc_msg_free(&resp);
        if (w->pages >= w->max_pages) {
            char msg[200], act[64];
            snprintf(msg, sizeof(msg), "%s: still returns nextCursor after %d pages", w->method,
                     w->pages);
            snprintf(act, sizeof(act), "more than %d pages", w->max_pages);
            mc__runner_check(c, "pagination/terminates", 0, msg, "a last page without nextCursor",
                             act, "", c->seq_all, w->line);
            rc = 1;
            break;
        }
    }
    json_object_put(cursor);
    return rc;
}

static void walk_free(walk_t *w)
{
    json_object_put(w->acc);
    free(w->sig);
}

int mc__runner_step_paginate(rctx_t *c, const mc_step_t *s)
{
    const mc_step_paginate_t *p = &s->u.paginate;
    int line = s->line;
    walk_t w1, w2;
    int rc;

    memset(&w1, 0, sizeof(w1));
    w1.method = p->method;
    w1.items = p->items;
    w1.key = p->key;
    w1.max_pages = p->max_pages != MC_STEP_UNSET ? p->max_pages : MC_RUNNER_MAX_PAGES;
    w1.line = line;
    w2 = w1;
    w1.do_asserts = 1;
    rc = walk_list(c, s, &w1);
    if (rc == 0) {
        mc__runner_check(c, "pagination/terminates", 1, NULL, NULL, NULL, NULL, 0, line);
        if (w1.dups > 0) {
            char msg[800];
            snprintf(msg, sizeof(msg), "%s: %d item%s repeated across pages, first %s", w1.method,
                     w1.dups, w1.dups == 1 ? "" : "s", w1.dup_key);
            mc__runner_check(c, "pagination/no-duplicates", 0, msg, "each item once", w1.dup_key,
                             w1.items, c->seq_all, line);
        } else {
            mc__runner_check(c, "pagination/no-duplicates", 1, NULL, NULL, NULL, NULL, 0, line);
        }
        rc = walk_list(c, s, &w2);
        if (rc == 0) {
            if (strcmp(w1.sig, w2.sig) != 0)
                mc__runner_check(c, "pagination/stable", 0,
                                 "a second walk of the unchanged list gave different pages",
                                 "the same pages", "different pages", w1.items, c->seq_all, line);
            else
                mc__runner_check(c, "pagination/stable", 1, NULL, NULL, NULL, NULL, 0, line);
        }
    }
    if (p->capture != NULL && w1.acc != NULL)
        mc_vars_set(&c->vars, p->capture, w1.acc);
    walk_free(&w1);
    walk_free(&w2);
    return rc < 0 ? -1 : 0;
}
