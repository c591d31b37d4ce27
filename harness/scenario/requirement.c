/*
 * requirement.c - the parts of a scenario file that state what it holds the
 * server to: the requirements of "spec" (a check id, its level, the spec
 * sentence quoted and where it stands at each version) and "versions".
 * Problems go to the linter's collection (lint.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/version.h"
#include "judge/builtin.h"
#include "scenario/lint.h"

/*
 * One version item: "2025-06-18", "2025-06-18..", "..2025-06-18" or "A..B",
 * every bound a published version of core's table. Adds the versions it
 * covers to *mask and widens the bounds *lo and *hi (version ids). Returns 0
 * if valid.
 */
static int parse_version_item(const char *s, unsigned *mask, int *lo, int *hi)
{
    const char *dots = strstr(s, "..");
    char minb[16], maxb[16];
    const mc_version_info_t *a = NULL, *b = NULL;
    int i, from, to;

    if (dots == NULL) {
        snprintf(minb, sizeof(minb), "%s", s);
        snprintf(maxb, sizeof(maxb), "%s", s);
    } else {
        if ((size_t)(dots - s) >= sizeof(minb) || strlen(dots + 2) >= sizeof(maxb))
            return -1;
        snprintf(minb, sizeof(minb), "%.*s", (int)(dots - s), s);
        snprintf(maxb, sizeof(maxb), "%s", dots + 2);
    }
    if (minb[0] == '\0' && maxb[0] == '\0')
        return -1;
    if ((minb[0] != '\0' && (a = mc_version_find(minb)) == NULL) ||
        (maxb[0] != '\0' && (b = mc_version_find(maxb)) == NULL))
        return -1;
    from = a != NULL ? (int)a->id : 0;
    to = b != NULL ? (int)b->id : MC_V_COUNT - 1;
    if (from > to)
        return -1;
    for (i = from; i <= to; i++)
        *mask |= 1u << i;
    if (from < *lo)
        *lo = from;
    if (to > *hi)
        *hi = to;
    return 0;
}

#define VERSIONS_HOW                                                                               \
    "\"versions\" must be \"V\", \"V..\", \"..V\", \"V1..V2\" or an array of them, each V a "          \
    "published protocol version (%s)"

/*
 * "versions": one item (above) or an array of items. Fills mask and the
 * outermost bounds (NULL when open). Returns 0 if valid.
 */
int mc__scenario_parse_versions(mc__lint_t *l, json_object *v, unsigned *mask, const char **min,
                                const char **max)
{
    char known[128];
    size_t i, n;
    int lo = MC_V_COUNT, hi = -1, bad = 0, open_lo = 0, open_hi = 0;

    mc_version_join(0, ", ", known, sizeof(known));
    *mask = 0;
    if (mc__lint_is_str(v)) {
        const char *t = json_object_get_string(v);
        bad = parse_version_item(t, mask, &lo, &hi) != 0;
        open_lo = strncmp(t, "..", 2) == 0;
        open_hi = strlen(t) >= 2 && strcmp(t + strlen(t) - 2, "..") == 0;
    } else if (json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0) {
        n = json_object_array_length(v);
        for (i = 0; i < n; i++) {
            json_object *it = json_object_array_get_idx(v, i);
            const char *t = mc__lint_is_str(it) ? json_object_get_string(it) : NULL;
            char ptr[64];
            snprintf(ptr, sizeof(ptr), "/versions/%zu", i);
            if (t == NULL || parse_version_item(t, mask, &lo, &hi) != 0) {
                mc__lint_problem(l, ptr, VERSIONS_HOW, known);
                bad = -1;
                continue;
            }
            open_lo |= strncmp(t, "..", 2) == 0;
            open_hi |= strlen(t) >= 2 && strcmp(t + strlen(t) - 2, "..") == 0;
        }
        if (bad)
            return 0; /* reported item by item */
    } else {
        bad = 1;
    }
    if (bad) {
        mc__lint_problem(l, "/versions", VERSIONS_HOW, known);
        return -1;
    }
    *min = open_lo ? NULL : mc_version_name(lo);
    *max = open_hi ? NULL : mc_version_name(hi);
    return 0;
}

/* The member key of obj when it is a string, else NULL. */
static const char *str_member(json_object *obj, const char *key)
{
    json_object *v = mc_json_get(obj, key);

    return mc__lint_is_str(v) ? json_object_get_string(v) : NULL;
}

/* Checks that quote carries the keyword of level; pointer names where it is. */
static void lint_level_fits(mc__lint_t *l, const char *pointer, mc_level_t level, const char *quote)
{
    char kw[64];

    if (mc_check_level_fits(level, quote))
        return;
    mc_check_keywords_describe(mc_check_keywords(quote), kw, sizeof(kw));
    mc__lint_problem(l, pointer,
                     "level %s does not match the quote, which says %s (the level is the quote's "
                     "RFC 2119 keyword; a quote without one is INFO)",
                     mc_level_name(level), kw);
}

/* The legacy form {check, level, ref: "VERSION/page#anchor", text}. */
static void parse_legacy(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    const char *ref = str_member(r, "ref"), *text = str_member(r, "text");

    if (ref == NULL || !mc_spec_ref_ok(ref))
        mc__lint_problem(l, ptr,
                         "requirement needs \"ref\": \"VERSION/page#anchor\", e.g. "
                         "\"" MC_VERSION_BASELINE "/server/resources#reading-resources\"");
    if (text == NULL || strlen(text) < 8)
        mc__lint_problem(l, ptr, "requirement needs \"text\": the requirement sentence");
    if (ref == NULL || text == NULL || !mc_spec_ref_ok(ref))
        return;
    /* Keep the version part NUL-terminated in the document. */
    json_object_object_add(r, "$ref_version", json_object_new_string_len(ref, 10));
    q->refs[0].version = str_member(r, "$ref_version");
    q->refs[0].page = ref + 11;
    q->quote = text;
    q->legacy = 1;
    mc__lint_warning(l, ptr,
                     "check \"%s\" uses the legacy {ref, text} form: write {\"quote\": the spec "
                     "sentence verbatim, \"refs\": {\"%.10s\": \"%s\"}, and \"interpretation\" for "
                     "anything the sentence does not say} (see scenarios/README.md)",
                     q->check != NULL ? q->check : "?", ref, ref + 11);
}

/* "quote": the spec sentence, verbatim, with the keyword of the level. */
static void parse_quote(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q,
                        int level_ok)
{
    const char *quote = str_member(r, "quote");
    char sub[512];

    mc_str_join(sub, sizeof(sub), ptr, "/quote");
    if (quote == NULL || strlen(quote) < 8)
        mc__lint_problem(l, quote == NULL ? ptr : sub,
                         "requirement needs \"quote\": the spec sentence, verbatim");
    else if (strlen(quote) > MC_CHECK_MAX_QUOTE)
        mc__lint_problem(l, sub,
                         "\"quote\" is longer than %d bytes: quote the sentence, not the page",
                         MC_CHECK_MAX_QUOTE);
    else if (level_ok)
        lint_level_fits(l, sub, q->level, quote);
    q->quote = quote;
}

/* "refs": version -> page#anchor, into q->refs in version order. Returns
 * how many were taken. */
static size_t parse_refs(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    json_object *refs = mc_json_get(r, "refs");
    char sub[512];
    size_t n = 0;

    mc_str_join(sub, sizeof(sub), ptr, "/refs");
    if (refs == NULL || !json_object_is_type(refs, json_type_object) ||
        json_object_object_length(refs) == 0) {
        mc__lint_problem(l, refs == NULL ? ptr : sub,
                         "requirement needs \"refs\": {\"VERSION\": \"page#anchor\", ...}, e.g. "
                         "{\"" MC_VERSION_BASELINE "\": \"server/resources#reading-resources\"}");
        return 0;
    }
    json_object_object_foreach(refs, ver, page)
    {
        char vp[800];
        size_t i;
        snprintf(vp, sizeof(vp), "%s/%s", sub, ver);
        if (mc_version_find(ver) == NULL) {
            mc__lint_problem(l, vp, "\"%s\" in \"refs\" is not a published protocol version", ver);
            continue;
        }
        if (!mc__lint_is_str(page) || !mc_check_page_ok(json_object_get_string(page))) {
            mc__lint_problem(l, vp,
                             "refs[\"%s\"] must be \"page#anchor\" without the version, e.g. "
                             "\"basic/utilities/progress#progress-flow\"",
                             ver);
            continue;
        }
        if (n == MC_CHECK_MAX_REFS) {
            mc__lint_problem(l, vp, "more than %d versions in \"refs\"", MC_CHECK_MAX_REFS);
            break;
        }
        /* Insert in version order (names are dates: string order is time order). */
        for (i = n; i > 0 && strcmp(q->refs[i - 1].version, ver) > 0; i--)
            q->refs[i] = q->refs[i - 1];
        q->refs[i].version = ver;
        q->refs[i].page = json_object_get_string(page);
        q->refs[i].quote = NULL;
        n++;
    }
    return n;
}

/* The index of version ver among the n refs, or n when it is not one. */
static size_t ref_index(const mc_requirement_t *q, size_t n, const char *ver)
{
    size_t i;

    for (i = 0; i < n && strcmp(q->refs[i].version, ver) != 0; i++)
        ;
    return i;
}

/* Takes one value of a per-version member into ref; returns 0, or -1 when
 * the value is not what the member holds (ref untouched). */
typedef int (*per_version_take_fn)(mc_check_ref_t *ref, json_object *v);

/* "quotes": the sentence as that version words it. */
static int take_quote(mc_check_ref_t *ref, json_object *text)
{
    if (!mc__lint_is_str(text) || json_object_get_string_len(text) < 8 ||
        json_object_get_string_len(text) > MC_CHECK_MAX_QUOTE)
        return -1;
    ref->quote = json_object_get_string(text);
    return 0;
}

/* "levels": the keyword at a version where the sentence carries another one. */
static int take_level(mc_check_ref_t *ref, json_object *lv)
{
    mc_level_t parsed;

    if (!mc__lint_is_str(lv) || mc_level_parse(json_object_get_string(lv), &parsed) != 0)
        return -1;
    ref->has_level = 1;
    ref->level = parsed;
    return 0;
}

/* A member that maps versions of "refs" to what differs there ("quotes",
 * "levels"): maps_to says what in the problem of a member that is no
 * object, must_be what each value must be; take stores a value in its
 * version's ref. Every problem goes to l. */
static void parse_per_version(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q,
                              size_t n, const char *key, const char *maps_to,
                              const char *must_be, per_version_take_fn take)
{
    json_object *member = mc_json_get(r, key);
    char sub[512], slash[32];

    if (member == NULL)
        return;
    snprintf(slash, sizeof(slash), "/%s", key);
    mc_str_join(sub, sizeof(sub), ptr, slash);
    if (!json_object_is_type(member, json_type_object)) {
        mc__lint_problem(l, sub, "\"%s\" must map versions to %s", key, maps_to);
        return;
    }
    json_object_object_foreach(member, ver, v)
    {
        char vp[800];
        size_t i = ref_index(q, n, ver);
        snprintf(vp, sizeof(vp), "%s/%s", sub, ver);
        if (i == n)
            mc__lint_problem(l, vp, "%s[\"%s\"]: that version is not in \"refs\"", key, ver);
        else if (take(&q->refs[i], v) != 0)
            mc__lint_problem(l, vp, "%s[\"%s\"] must be %s", key, ver, must_be);
    }
}

/* Each version's wording carries the keyword of that version's level. */
static void lint_version_levels(mc__lint_t *l, const char *ptr, const mc_requirement_t *q,
                                size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char vp[800];
        if (q->refs[i].quote == NULL && !q->refs[i].has_level)
            continue;
        snprintf(vp, sizeof(vp), "%s/%s/%s", ptr, q->refs[i].quote != NULL ? "quotes" : "levels",
                 q->refs[i].version);
        lint_level_fits(l, vp, q->refs[i].has_level ? q->refs[i].level : q->level,
                        q->refs[i].quote != NULL ? q->refs[i].quote : q->quote);
    }
}

/* "interpretation": the harness's reading, apart from the quote. */
static void parse_interpretation(mc__lint_t *l, json_object *r, const char *ptr,
                                 mc_requirement_t *q)
{
    json_object *interp = mc_json_get(r, "interpretation");
    char sub[512];

    if (interp == NULL)
        return;
    mc_str_join(sub, sizeof(sub), ptr, "/interpretation");
    if (!mc__lint_is_str(interp) || json_object_get_string_len(interp) == 0 ||
        json_object_get_string_len(interp) > MC_CHECK_MAX_INTERPRETATION)
        mc__lint_problem(l, sub,
                         "\"interpretation\" must be a non-empty string (at most %d bytes): "
                         "the harness's reading, apart from the quote",
                         MC_CHECK_MAX_INTERPRETATION);
    else
        q->interpretation = json_object_get_string(interp);
}

/* The form {check, level, quote, refs {version: page#anchor}, quotes?, levels?,
 * interpretation?}: one parser per field, in this order. */
static void parse_current(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q,
                          int level_ok)
{
    size_t n;

    parse_quote(l, r, ptr, q, level_ok);
    n = parse_refs(l, r, ptr, q);
    parse_per_version(l, r, ptr, q, n, "quotes", "the wording at that version",
                      "the sentence as that version words it", take_quote);
    parse_per_version(l, r, ptr, q, n, "levels", "the level at that version",
                      "MUST, SHOULD, MAY or INFO", take_level);
    if (level_ok)
        lint_version_levels(l, ptr, q, n);
    parse_interpretation(l, r, ptr, q);
}

/* Where an author is pointed when a check of theirs is in the wrong form. */
#define AUTHOR_HOW "(scenarios/README.md, Testing your own server)"

/* "link": where the author's rule is written down, an http(s) URL. */
static void parse_link(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    json_object *v = mc_json_get(r, "link");
    const char *s = mc__lint_is_str(v) ? json_object_get_string(v) : NULL;
    char sub[512];

    if (v == NULL)
        return;
    mc_str_join(sub, sizeof(sub), ptr, "/link");
    if (s == NULL || (strncmp(s, "https://", 8) != 0 && strncmp(s, "http://", 7) != 0) ||
        strlen(s) > MC_CHECK_MAX_LINK || strpbrk(s, " \t\r\n\"<>") != NULL) {
        mc__lint_problem(l, sub,
                         "\"link\" must be an http:// or https:// URL (at most %d bytes, no "
                         "spaces): where your rule is written down",
                         MC_CHECK_MAX_LINK);
        return;
    }
    q->link = s;
}

/*
 * The author's form {check, author: true, level, text, link?}: a rule of the
 * user's own product. Its level is the author's (no keyword is read from the
 * text), and it carries nothing of the spec's: no quote, no pages.
 */
static void parse_author(mc__lint_t *l, json_object *r, const char *ptr, mc_requirement_t *q)
{
    static const char *const spec_keys[] = {"quote", "refs",           "quotes", "levels",
                                            "ref",   "interpretation", NULL};
    json_object *au = mc_json_get(r, "author");
    const char *level = str_member(r, "level"), *text = str_member(r, "text");
    size_t i;

    if (!json_object_is_type(au, json_type_boolean) || !json_object_get_boolean(au)) {
        mc__lint_problem(l, ptr,
                         "\"author\" must be true: the check is a rule of your own product, "
                         "not a sentence of the spec " AUTHOR_HOW);
        return;
    }
    q->author = 1;
    if (level == NULL || mc_level_parse(level, &q->level) != 0)
        mc__lint_problem(l, ptr,
                         "an author's check needs \"level\": MUST (a break fails the run), "
                         "SHOULD (a break warns) or INFO (reported, never failing)");
    for (i = 0; spec_keys[i] != NULL; i++)
        if (mc_json_get(r, spec_keys[i]) != NULL)
            mc__lint_problem(l, ptr,
                             "an author's check has no \"%s\": its rule is yours, stated in "
                             "\"text\"; spec quotes and pages belong to the spec's checks",
                             spec_keys[i]);
    if (text == NULL || strlen(text) < 8 || strlen(text) > MC_CHECK_MAX_QUOTE)
        mc__lint_problem(l, ptr,
                         "an author's check needs \"text\": your rule in words (8 to %d "
                         "bytes), e.g. \"add returns the sum of a and b\"",
                         MC_CHECK_MAX_QUOTE);
    else
        q->quote = text;
    if (q->check != NULL && mc_builtin_check(q->check) != NULL)
        mc__lint_problem(l, ptr,
                         "\"%s\" is a built-in check of the spec: give your rule an id of its "
                         "own, e.g. \"myserver/tool/rule\"",
                         q->check);
    parse_link(l, r, ptr, q);
}

/*
 * Reads one entry of "spec" into q (strings borrowed from the document).
 * Returns 0 when q holds a check id (the entry counts), -1 otherwise.
 * Problems and warnings go to l.
 */
int mc__scenario_parse_requirement(mc__lint_t *l, json_object *r, const char *ptr,
                                   mc_requirement_t *q)
{
    static const char *const keys[] = {"check",  "level",  "quote",          "refs",
                                       "quotes", "levels", "interpretation", "ref",
                                       "text",   "author", "link",           NULL};
    const char *check, *level;
    int legacy, current, level_ok = 0;

    memset(q, 0, sizeof(*q));
    if (!json_object_is_type(r, json_type_object)) {
        mc__lint_problem(l, ptr, "a requirement is an object {check, level, quote, refs}");
        return -1;
    }
    mc__lint_only_keys(l, r, ptr, "a requirement", keys);
    check = str_member(r, "check");
    level = str_member(r, "level");
    if (check == NULL || !mc_check_id_ok(check))
        mc__lint_problem(l, ptr,
                         "requirement needs \"check\": an id like \"area/thing/rule\" "
                         "(lowercase letters, digits, '-', '_', '/', '.')");
    q->check = check;
    if (mc_json_get(r, "author") != NULL) {
        parse_author(l, r, ptr, q);
        return q->check != NULL ? 0 : -1;
    }
    if (mc_json_get(r, "link") != NULL)
        mc__lint_problem(l, ptr,
                         "\"link\" belongs to an author's check (\"author\": true); a spec "
                         "check links its pages through \"refs\"");
    if (level == NULL || mc_level_parse(level, &q->level) != 0)
        mc__lint_problem(l, ptr,
                         "requirement needs \"level\": MUST, SHOULD, MAY or INFO (the RFC 2119 "
                         "keyword of the quote; INFO when it has none)");
    else
        level_ok = 1;
    legacy = mc_json_get(r, "ref") != NULL || mc_json_get(r, "text") != NULL;
    current = mc_json_get(r, "quote") != NULL || mc_json_get(r, "refs") != NULL ||
              mc_json_get(r, "quotes") != NULL || mc_json_get(r, "levels") != NULL ||
              mc_json_get(r, "interpretation") != NULL;
    if (legacy && current)
        mc__lint_problem(l, ptr,
                         "a requirement is {check, level, quote, refs, quotes?, interpretation?}; "
                         "\"ref\" and \"text\" belong to the legacy form and do not mix with it");
    else if (legacy)
        parse_legacy(l, r, ptr, q);
    else
        parse_current(l, r, ptr, q, level_ok);
    return q->check != NULL ? 0 : -1;
}
