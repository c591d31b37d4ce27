/*
 * options.c - the table-driven option parser (options.h): reading argv
 * against a table, and the --help generated from it. It prints only the
 * help, and only to the stream its caller names.
 */
#include "core/options.h"

#include "core/suggest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Longest option name shown in messages and help. */
#define MC_OPTS_MAX_NAME 64

/* The widest option column of --help; a longer option starts its text on the
 * next line. */
#define MC_OPTS_MAX_COLUMN 24
/* Longest help paragraph, hint included (the rest is cut). */
#define MC_OPTS_MAX_HELP 2048

/* The field at offset in the struct at o. */
static void *field(void *o, size_t offset)
{
    return (char *)o + offset;
}

static const mc_opt_t *find_long(const mc_opt_t *opts, const char *name, size_t len)
{
    for (; opts->kind != MC_OPT_END; opts++)
        if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
            return opts;
    return NULL;
}

static const mc_opt_t *find_short(const mc_opt_t *opts, char c)
{
    for (; opts->kind != MC_OPT_END; opts++)
        if (opts->short_name != 0 && opts->short_name == c)
            return opts;
    return NULL;
}

/* The long name closest to name[0..len) ("did you mean", suggest.h), or NULL. */
static const char *suggest(const mc_opt_t *opts, const char *name, size_t len)
{
    mc_suggest_t s;

    mc_suggest_init(&s, name, len);
    for (; opts->kind != MC_OPT_END; opts++)
        mc_suggest_offer(&s, opts->name);
    return s.best;
}

static void unknown_option(const mc_opts_spec_t *spec, const char *a, char *why, size_t n)
{
    const char *name = a + (a[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
    size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
    const char *close = NULL;

    /* "-timeout" for "--timeout" is the likeliest slip of all. */
    if (a[1] != '-' && len > 1 && find_long(spec->opts, name, len) != NULL)
        close = find_long(spec->opts, name, len)->name;
    if (close == NULL)
        close = suggest(spec->opts, name, len);
    if (close != NULL)
        snprintf(why, n, "unknown option '%.*s' (did you mean '--%s'?)",
                 (int)(name - a + (ptrdiff_t)len), a, close);
    else
        snprintf(why, n, "unknown option '%.*s' (see '%s --help')",
                 (int)(name - a + (ptrdiff_t)len), a, spec->prog);
}

/* Appends value to a list; "too many" when it is full. */
static int list_add(mc_opt_list_t *l, char *value, const char *what, char *why, size_t n)
{
    if (l->n >= l->cap) {
        snprintf(why, n, "too many %s (at most %zu)", what, l->cap);
        return MC_OPTS_BAD;
    }
    l->v[l->n++] = value;
    return MC_OPTS_OK;
}

static int store_long(const mc_opt_t *opt, const char *shown, const char *value, long *out,
                      char *why, size_t n)
{
    char *end = NULL;
    long v;

    errno = 0;
    v = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || v < opt->min || v > opt->max) {
        snprintf(why, n, "%s needs %s, a whole number in %ld..%ld (not '%s')", shown,
                 opt->arg != NULL ? opt->arg : "a value", opt->min, opt->max, value);
        return MC_OPTS_BAD;
    }
    *out = v;
    return MC_OPTS_OK;
}

static int store_enum(const mc_opt_t *opt, const char *shown, const char *value, int *out,
                      char *why, size_t n)
{
    size_t k, used;
    int w;

    for (k = 0; opt->choices[k] != NULL; k++)
        if (strcmp(opt->choices[k], value) == 0) {
            *out = (int)k;
            return MC_OPTS_OK;
        }
    w = snprintf(why, n, "%s is ", shown);
    used = w > 0 ? (size_t)w : 0;
    for (k = 0; opt->choices[k] != NULL && used < n; k++) {
        const char *sep = k == 0 ? "" : opt->choices[k + 1] == NULL ? " or " : ", ";
        w = snprintf(why + used, n - used, "%s%s", sep, opt->choices[k]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < n)
        snprintf(why + used, n - used, ", not '%s'", value);
    return MC_OPTS_BAD;
}

/* Stores one value of opt (not a flag), as shown on the command line. */
static int store(const mc_opt_t *opt, const char *shown, void *o, char *value, char *why,
                 size_t n)
{
    if (opt->check != NULL && (opt->kind == MC_OPT_STRING || opt->kind == MC_OPT_LIST)) {
        char reason[MC_OPTS_MAX_MESSAGE];
        reason[0] = '\0';
        if (opt->check(value, reason, sizeof(reason)) != 0) {
            snprintf(why, n, "%s: %s", shown, reason[0] ? reason : "not accepted");
            return MC_OPTS_BAD;
        }
    }
    switch (opt->kind) {
    case MC_OPT_STRING:
        *(const char **)field(o, opt->offset) = value;
        return MC_OPTS_OK;
    case MC_OPT_LONG:
        return store_long(opt, shown, value, field(o, opt->offset), why, n);
    case MC_OPT_LIST:
        return list_add(field(o, opt->offset), value, shown, why, n);
    case MC_OPT_ENUM:
        return store_enum(opt, shown, value, field(o, opt->offset), why, n);
    default:
        snprintf(why, n, "%s: not an option with a value", shown);
        return MC_OPTS_BAD;
    }
}

static int positional(const mc_opts_spec_t *spec, void *o, char *a, char *why, size_t n)
{
    mc_opt_list_t *l;

    if (spec->positional_at == MC_OPTS_NONE) {
        if (spec->command_at != MC_OPTS_NONE)
            snprintf(why, n, "unexpected argument '%s' (the server command goes after '--')", a);
        else
            snprintf(why, n, "unexpected argument '%s' (see '%s --help')", a, spec->prog);
        return MC_OPTS_BAD;
    }
    l = field(o, spec->positional_at);
    if (l->n >= l->cap && l->cap == 1) {
        snprintf(why, n, "unexpected argument '%s' (one %s only)", a,
                 spec->positional != NULL ? spec->positional : "argument");
        return MC_OPTS_BAD;
    }
    if (l->n >= l->cap) {
        snprintf(why, n, "too many %s arguments (at most %zu)",
                 spec->positional != NULL ? spec->positional : "positional", l->cap);
        return MC_OPTS_BAD;
    }
    l->v[l->n++] = a;
    return MC_OPTS_OK;
}

/* "--": the server command, or positional arguments up to the end. */
static int dashdash(const mc_opts_spec_t *spec, void *o, int argc, char **argv, int i,
                    char *why, size_t n)
{
    if (spec->command_at != MC_OPTS_NONE) {
        *(char ***)field(o, spec->command_at) = argv + i + 1;
        return MC_OPTS_OK;
    }
    for (i++; i < argc; i++)
        if (positional(spec, o, argv[i], why, n) != MC_OPTS_OK)
            return MC_OPTS_BAD;
    return MC_OPTS_OK;
}

/* Reads the option at argv[*i] (known to start with '-' and not to be "-"
 * or "--"), with its value; advances *i past what it took. */
static int option(const mc_opts_spec_t *spec, void *o, int argc, char **argv, int *i,
                  char *why, size_t n)
{
    const char *a = argv[*i], *eq = NULL;
    char shown[MC_OPTS_MAX_NAME + 3];
    const mc_opt_t *opt;
    char *value;

    if (a[1] == '-') {
        size_t len;
        eq = strchr(a + 2, '=');
        len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
        opt = find_long(spec->opts, a + 2, len);
    } else {
        opt = a[2] == '\0' ? find_short(spec->opts, a[1]) : NULL;
    }
    if (opt == NULL) {
        unknown_option(spec, a, why, n);
        return MC_OPTS_BAD;
    }
    if (a[1] == '-')
        snprintf(shown, sizeof(shown), "--%s", opt->name);
    else
        snprintf(shown, sizeof(shown), "-%c", opt->short_name);
    if (opt->kind == MC_OPT_FLAG) {
        if (eq != NULL) {
            snprintf(why, n, "%s takes no value", shown);
            return MC_OPTS_BAD;
        }
        *(int *)field(o, opt->offset) = 1;
        return MC_OPTS_OK;
    }
    if (eq != NULL) {
        value = (char *)eq + 1;
    } else if (*i + 1 < argc && strcmp(argv[*i + 1], "--") != 0) {
        value = argv[++*i];
    } else {
        snprintf(why, n, "%s needs a value (%s %s)", shown, shown,
                 opt->arg != NULL ? opt->arg : "VALUE");
        return MC_OPTS_BAD;
    }
    if (store(opt, shown, o, value, why, n) != MC_OPTS_OK)
        return MC_OPTS_BAD;
    if (opt->kind == MC_OPT_LIST && (opt->flags & MC_OPT_GREEDY) && eq == NULL)
        while (*i + 1 < argc && argv[*i + 1][0] != '-')
            if (store(opt, shown, o, argv[++*i], why, n) != MC_OPTS_OK)
                return MC_OPTS_BAD;
    return MC_OPTS_OK;
}

int mc_opts_read(const mc_opts_spec_t *spec, void *o, int argc, char **argv, char *why,
                 size_t n)
{
    int i;

    if (n > 0)
        why[0] = '\0';
    for (i = 1; i < argc; i++) {
        char *a = argv[i];
        int rc;
        if (strcmp(a, "--") == 0)
            return dashdash(spec, o, argc, argv, i, why, n);
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return MC_OPTS_HELP;
        if (a[0] != '-' || a[1] == '\0')
            rc = positional(spec, o, a, why, n);
        else
            rc = option(spec, o, argc, argv, &i, why, n);
        if (rc != MC_OPTS_OK)
            return MC_OPTS_BAD;
    }
    return MC_OPTS_OK;
}

/* ---- --help ------------------------------------------------------------------ */

/* The option column of one entry: "-v, --verbose" or "--timeout MS". */
static void left_part(const mc_opt_t *opt, char *buf, size_t n)
{
    char name[MC_OPTS_MAX_NAME + 8];

    if (opt->short_name != 0)
        snprintf(name, sizeof(name), "-%c, --%s", opt->short_name, opt->name);
    else
        snprintf(name, sizeof(name), "--%s", opt->name);
    if (opt->kind == MC_OPT_FLAG)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "%s %s%s", name, opt->arg != NULL ? opt->arg : "VALUE",
                 (opt->flags & MC_OPT_GREEDY) ? "..." : "");
}

/*
 * Prints text wrapped at word boundaries so that no line passes
 * MC_OPTS_HELP_WIDTH, each line after the first indented to col; used is
 * how many columns the current line already holds. A '\n' in text starts a
 * new line; a word longer than a line stands alone on one.
 */
static void wrap(FILE *out, const char *text, size_t col, size_t used)
{
    const char *p = text;

    while (*p != '\0') {
        size_t word = strcspn(p, " \n");
        if (used > col && used + 1 + word > MC_OPTS_HELP_WIDTH) {
            fprintf(out, "\n%*s", (int)col, "");
            used = col;
        }
        if (used > col) {
            fputc(' ', out);
            used++;
        }
        fprintf(out, "%.*s", (int)word, p);
        used += word;
        p += word;
        if (*p == '\n') {
            fprintf(out, "\n%*s", (int)col, "");
            used = col;
            p++;
        }
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

static void help_entry(FILE *out, const char *left, const char *help, mc_opt_hint_fn hint,
                       size_t col)
{
    char text[MC_OPTS_MAX_HELP];
    size_t len = strlen(left) + 2;

    snprintf(text, sizeof(text), "%s", help != NULL ? help : "");
    if (hint != NULL) {
        size_t used = strlen(text);
        if (used + 1 < sizeof(text)) {
            text[used] = ' ';
            hint(text + used + 1, sizeof(text) - used - 1);
        }
    }
    fprintf(out, "  %s", left);
    if (len + 2 > col) {
        fprintf(out, "\n%*s", (int)col, "");
        len = col;
    } else {
        fprintf(out, "%*s", (int)(col - len), "");
        len = col;
    }
    wrap(out, text, col, len);
}

void mc_opts_help(FILE *out, const mc_opts_spec_t *spec)
{
    char left[2 * MC_OPTS_MAX_NAME];
    const mc_opt_t *opt;
    size_t col = 2 + strlen("-h, --help") + 2;

    for (opt = spec->opts; opt->kind != MC_OPT_END; opt++) {
        size_t w;
        left_part(opt, left, sizeof(left));
        w = 2 + strlen(left) + 2;
        if (w > col && w <= MC_OPTS_MAX_COLUMN)
            col = w;
    }
    for (opt = spec->opts; opt->kind != MC_OPT_END; opt++) {
        left_part(opt, left, sizeof(left));
        help_entry(out, left, opt->help, opt->hint, col);
    }
    help_entry(out, "-h, --help", "this help", NULL, col);
}

void mc_opts_usage(FILE *out, const mc_opts_spec_t *spec)
{
    fprintf(out, "usage: %s", spec->synopsis);
    if (spec->about != NULL)
        fprintf(out, "\n%s", spec->about);
    fprintf(out, "\nOptions:\n");
    mc_opts_help(out, spec);
    if (spec->epilogue != NULL)
        fprintf(out, "\n%s", spec->epilogue);
}
