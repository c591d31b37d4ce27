/*
 * lint_vocab.c - the linter's checks of the protocol's words: the methods a
 * scenario sends and waits for, and the capabilities it requires and
 * declares, held to the schema of every version the scenario runs at
 * (schema/vocab.h), with the nearest known word suggested for an unknown
 * one; and the marks of an unfinished scenario (TODO, a recorded/ check id),
 * which are warnings.
 *
 * A method no version's schema has, with a segment that starts with
 * "mcpcheck" ("mcpcheck/no-such-method", "tools/mcpcheck-unknown"), is a
 * name made up to test what a server does with an unknown method and passes.
 * A step that sends a method the scenario's versions lack on purpose (a
 * method a later version removed) says so with "unknown_method": true, and
 * the linter then holds it to that: the method must be unknown at every
 * version the scenario runs at.
 */
#include "scenario/lint.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/suggest.h"
#include "core/version.h"
#include "schema/registry.h"

/* The vocabulary of the bundled schemas, read once per process and never
 * changed after: the schemas are part of the program. */
static pthread_once_t vocab_once = PTHREAD_ONCE_INIT;
static mc_vocab_t *vocab_shared;
static char vocab_error[MC_ERRBUF_SIZE];

static void vocab_load_once(void)
{
    mc_errbuf_t eb;

    mc_errbuf_clear(&eb);
    if (mc_vocab_load(mc_registry_bundled_dir(), &vocab_shared, &eb) != MC_OK)
        snprintf(vocab_error, sizeof(vocab_error), "%s", eb.msg);
}

/* The shared vocabulary, or NULL (then *why says why it did not load). */
static const mc_vocab_t *vocab_get(const char **why)
{
    pthread_once(&vocab_once, vocab_load_once);
    *why = vocab_error;
    return vocab_shared;
}

/* "2025-06-18, 2025-11-25": the versions of mask, into buf. */
static const char *mask_text(unsigned mask, char *buf, size_t n)
{
    size_t o = 0;
    int id;

    buf[0] = '\0';
    for (id = 0; id < MC_V_COUNT && o < n; id++)
        if (mask & (1u << id))
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", mc_version_name(id));
    return buf;
}

/* The versions (of mask) at which word is of kind. */
static unsigned known_mask(const mc__lint_t *l, mc_vocab_kind_t kind, const char *word,
                           unsigned mask)
{
    unsigned out = 0;
    int id;

    for (id = 0; id < MC_V_COUNT; id++)
        if ((mask & (1u << id)) && mc_vocab_has(l->vocab, id, kind, word))
            out |= 1u << id;
    return out;
}

/* True when w is a parent path of word ("sampling" of "sampling.contxt"):
 * never the word meant. */
static int parent_of(const char *w, const char *word)
{
    size_t n = strlen(w);

    return strncmp(w, word, n) == 0 && (word[n] == '.' || word[n] == '/');
}

/* Writes " (did you mean \"X\"?)" into buf for the word of kind nearest to
 * word at the versions of mask (every version when none is near there), or
 * "" when none is near. */
static const char *nearest(const mc__lint_t *l, mc_vocab_kind_t kind, const char *word,
                           unsigned mask, char *buf, size_t n)
{
    mc_suggest_t s;
    const char *w;
    int pass, id;
    size_t i;

    buf[0] = '\0';
    mc_suggest_init(&s, word, strlen(word));
    for (pass = 0; pass < 2 && s.best == NULL; pass++)
        for (id = 0; id < MC_V_COUNT; id++)
            if (pass == 1 || (mask & (1u << id)))
                for (i = 0; (w = mc_vocab_word(l->vocab, id, kind, i)) != NULL; i++)
                    if (strchr(w, '*') == NULL && !parent_of(w, word))
                        mc_suggest_offer(&s, w);
    if (s.best != NULL)
        snprintf(buf, n, " (did you mean \"%s\"?)", s.best);
    return buf;
}

/* True when method is made up to be unknown: no version has it as any kind
 * of method, and one of its segments starts with "mcpcheck". */
static int made_up(const mc__lint_t *l, const char *method)
{
    const unsigned all = (1u << MC_V_COUNT) - 1;
    const char *p = method;

    if (known_mask(l, MC_VOCAB_CLIENT_REQUEST, method, all) ||
        known_mask(l, MC_VOCAB_SERVER_REQUEST, method, all) ||
        known_mask(l, MC_VOCAB_NOTIFICATION, method, all))
        return 0;
    for (;;) {
        if (strncmp(p, "mcpcheck", 8) == 0)
            return 1;
        p = strchr(p, '/');
        if (p == NULL)
            return 0;
        p++;
    }
}

/* The other kind of method that method is, at some version, or -1. */
static int other_kind(const mc__lint_t *l, mc_vocab_kind_t kind, const char *method)
{
    static const mc_vocab_kind_t methods[] = {MC_VOCAB_CLIENT_REQUEST, MC_VOCAB_SERVER_REQUEST,
                                              MC_VOCAB_NOTIFICATION};
    size_t i;

    for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
        if (methods[i] != kind && known_mask(l, methods[i], method, (1u << MC_V_COUNT) - 1))
            return (int)methods[i];
    return -1;
}

void mc__lint_method(mc__lint_t *l, mc_vocab_kind_t kind, const char *method, const char *ptr,
                     int unknown_on_purpose)
{
    const unsigned all = (1u << MC_V_COUNT) - 1;
    unsigned here, anywhere;
    char at[96], there[96], hint[160];
    int other;

    if (l->vocab == NULL || method == NULL || l->vocab_mask == 0 || strstr(method, "${") != NULL)
        return;
    here = known_mask(l, kind, method, l->vocab_mask);
    mask_text(l->vocab_mask, at, sizeof(at));
    if (unknown_on_purpose) {
        if (here != 0)
            mc__lint_problem(l, ptr,
                             "\"unknown_method\": true, but \"%s\" is a %s at %s (the scenario "
                             "runs there)",
                             method, mc_vocab_kind_what(kind),
                             mask_text(here, there, sizeof(there)));
        return;
    }
    if (here == l->vocab_mask)
        return;
    anywhere = known_mask(l, kind, method, all);
    if (anywhere != 0) {
        mc__lint_problem(l, ptr,
                         "\"%s\" is not a %s at %s, where the scenario runs (it is at %s): narrow "
                         "\"versions\", or set \"unknown_method\": true on a step that tests its "
                         "absence",
                         method, mc_vocab_kind_what(kind),
                         mask_text(l->vocab_mask & ~here, at, sizeof(at)),
                         mask_text(anywhere, there, sizeof(there)));
        return;
    }
    if (made_up(l, method))
        return;
    other = other_kind(l, kind, method);
    if (other >= 0)
        mc__lint_problem(l, ptr, "\"%s\" is a %s, not a %s", method,
                         mc_vocab_kind_what((mc_vocab_kind_t)other), mc_vocab_kind_what(kind));
    else if (nearest(l, kind, method, l->vocab_mask, hint, sizeof(hint))[0] != '\0')
        mc__lint_problem(l, ptr, "unknown %s \"%s\"%s", mc_vocab_kind_what(kind), method, hint);
    else
        mc__lint_problem(l, ptr,
                         "unknown %s \"%s\" (a method made up to test an unknown one has a "
                         "segment starting with \"mcpcheck\": \"mcpcheck/no-such-method\")",
                         mc_vocab_kind_what(kind), method);
}

/* A capability path (requires.capabilities, or a member of
 * client.capabilities) that no version the scenario runs at knows. Returns
 * the versions that know it. */
static unsigned lint_cap(mc__lint_t *l, mc_vocab_kind_t kind, const char *path, const char *ptr)
{
    unsigned here = known_mask(l, kind, path, l->vocab_mask), anywhere;
    char at[96], there[96], hint[160];

    if (here != 0 || l->vocab_mask == 0)
        return here;
    anywhere = known_mask(l, kind, path, (1u << MC_V_COUNT) - 1);
    if (anywhere != 0)
        mc__lint_problem(l, ptr, "\"%s\" is not a %s at %s, where the scenario runs (it is at %s)",
                         path, mc_vocab_kind_what(kind), mask_text(l->vocab_mask, at, sizeof(at)),
                         mask_text(anywhere, there, sizeof(there)));
    else
        mc__lint_problem(l, ptr, "unknown %s \"%s\"%s", mc_vocab_kind_what(kind), path,
                         nearest(l, kind, path, l->vocab_mask, hint, sizeof(hint)));
    return 0;
}

/* Every member path of client.capabilities (obj at path prefix). */
static void lint_client_caps(mc__lint_t *l, json_object *obj, const char *prefix,
                             const char *pointer, int depth)
{
    if (!json_object_is_type(obj, json_type_object) || depth >= MC_VOCAB_MAX_DEPTH)
        return;
    json_object_object_foreach(obj, key, val)
    {
        char path[MC_VOCAB_MAX_PATH], open[MC_VOCAB_MAX_PATH + 2], sub[512];
        snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "." : "", key);
        snprintf(sub, sizeof(sub), "%s/%s", pointer, key);
        snprintf(open, sizeof(open), "%s.*", path);
        if (lint_cap(l, MC_VOCAB_CLIENT_CAP, path, sub) != 0 &&
            known_mask(l, MC_VOCAB_CLIENT_CAP, open, l->vocab_mask) == 0)
            lint_client_caps(l, val, path, sub, depth + 1);
    }
}

void mc__lint_vocab_scenario(mc__lint_t *l, const mc_scenario_t *s)
{
    const mc_version_info_t *pinned = s->client_version ? mc_version_find(s->client_version) : NULL;
    const char *why;
    size_t i, n;
    int id;

    l->vocab = vocab_get(&why);
    if (l->vocab == NULL) {
        mc__lint_warning(l, "", "methods and capabilities are not checked: %s", why);
        return;
    }
    /* The versions the scenario runs at: its range, with its features;
     * a client that pins its version asks for that one. */
    l->vocab_mask = s->version_mask;
    for (id = 0; id < MC_V_COUNT; id++)
        if (mc_version_missing(mc_version_name(id), s->features) != 0)
            l->vocab_mask &= ~(1u << id);
    if (pinned != NULL)
        l->vocab_mask = 1u << pinned->id;
    n = s->requires_caps != NULL ? json_object_array_length(s->requires_caps) : 0;
    for (i = 0; i < n; i++) {
        json_object *c = json_object_array_get_idx(s->requires_caps, i);
        char ptr[64];
        unsigned here;
        snprintf(ptr, sizeof(ptr), "/requires/capabilities/%zu", i);
        if (!mc__lint_is_str(c)) {
            mc__lint_problem(l, ptr, "a capability path is a string like \"resources.subscribe\"");
            continue;
        }
        /* A version that cannot declare it skips the scenario. */
        here = lint_cap(l, MC_VOCAB_SERVER_CAP, json_object_get_string(c), ptr);
        if (here != 0)
            l->vocab_mask &= here;
    }
    lint_client_caps(l, s->client_caps, "", "/client/capabilities", 0);
    if (json_object_is_type(s->answers, json_type_object)) {
        json_object_object_foreach(s->answers, method, val)
        {
            char ptr[512];
            (void)val;
            snprintf(ptr, sizeof(ptr), "/client/answers/%s", method);
            mc__lint_method(l, MC_VOCAB_SERVER_REQUEST, method, ptr, 0);
        }
    }
}

/* A TODO marker in the string v at pointer (what: how to call it). */
static void todo_in(mc__lint_t *l, json_object *v, const char *pointer, const char *what)
{
    if (mc__lint_is_str(v) && strstr(json_object_get_string(v), "TODO") != NULL)
        mc__lint_warning(l, pointer, "%s holds a TODO marker: the scenario is not finished", what);
}

void mc__lint_unfinished(mc__lint_t *l, json_object *root)
{
    static const char *const texts[] = {"quote", "text", "interpretation", NULL};
    json_object *spec = mc_json_get(root, "spec");
    size_t i, n = json_object_is_type(spec, json_type_array) ? json_object_array_length(spec) : 0;

    todo_in(l, mc_json_get(root, "title"), "/title", "\"title\"");
    todo_in(l, mc_json_get(root, "description"), "/description", "\"description\"");
    for (i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(spec, i);
        const char *check = mc_json_get_str(e, "check");
        char ptr[96], what[64];
        for (const char *const *k = texts; *k != NULL; k++) {
            snprintf(ptr, sizeof(ptr), "/spec/%zu/%s", i, *k);
            snprintf(what, sizeof(what), "\"%s\"", *k);
            todo_in(l, mc_json_get(e, *k), ptr, what);
        }
        if (check != NULL && strncmp(check, "recorded/", 9) == 0) {
            snprintf(ptr, sizeof(ptr), "/spec/%zu/check", i);
            mc__lint_warning(l, ptr,
                             "check \"%s\" is the placeholder id of mcpcheck record: name the "
                             "rule the scenario holds (area/thing/rule)",
                             check);
        }
    }
}

void mc__lint_suggest_key(const char *key, const char *const *allowed, char *buf, size_t n)
{
    mc_suggest_t s;

    buf[0] = '\0';
    mc_suggest_init(&s, key, strlen(key));
    for (; *allowed != NULL; allowed++)
        mc_suggest_offer(&s, *allowed);
    if (s.best != NULL)
        snprintf(buf, n, " (did you mean \"%s\"?)", s.best);
}
