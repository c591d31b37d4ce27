/* Unit tests for the option parser (core/options.h, and cli/options.h for
 * the subcommands): each kind of option, each syntax, each error, and the
 * --help it generates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/commands.h"
#include "cli/options.h"

typedef struct test_opts {
    int flag, verbose, mode;
    const char *name;
    const char *checked;
    long count;
    mc_opt_list_t tags, paths, files;
    char **cmd;
    char *tags_v[3], *paths_v[4], *files_v[2];
} test_opts_t;

static const char *const modes[] = {"fast", "slow", "exact", NULL};

/* Accepts values that start with "ok". */
static int check_ok(const char *value, char *why, size_t n)
{
    if (strncmp(value, "ok", 2) == 0)
        return 0;
    snprintf(why, n, "'%s' is not ok", value);
    return -1;
}

static void hint_list(char *buf, size_t n)
{
    snprintf(buf, n, "(known: ok1, ok2)");
}

#define T test_opts_t
static const mc_opt_t table[] = {
    MC_OPTION_FLAG(T, flag, "flag", 0, "a flag"),
    MC_OPTION_FLAG(T, verbose, "verbose", 'v', "say more"),
    MC_OPTION_STRING(T, name, "name", 'n', "NAME", "a name"),
    MC_OPTION_CHECKED(T, checked, "checked", 0, "V", check_ok, hint_list, "a checked value"),
    MC_OPTION_LONG(T, count, "count", 0, "N", 1, 10, "how many"),
    MC_OPTION_LIST(T, tags, "tag", 0, "TAG", 0, NULL, NULL, "a tag (repeatable)"),
    MC_OPTION_LIST(T, paths, "paths", 0, "PATH", MC_OPT_GREEDY, NULL, NULL, "paths"),
    MC_OPTION_ENUM(T, mode, "mode", 0, "M", modes, "fast, slow or exact"),
    MC_OPTION_END,
};

/* A subcommand that takes a server command after "--". */
static const mc_opts_spec_t with_cmd = {
    .prog = "mcpcheck test",
    .synopsis = "mcpcheck test [options] -- SERVER_CMD\n",
    .about = "About the test.\n",
    .epilogue = "The end.\n",
    .opts = table,
    .positional_at = MC_OPTS_NONE,
    .command_at = offsetof(T, cmd),
};

/* A subcommand that takes FILE arguments (at most 2). */
static const mc_opts_spec_t with_files = {
    .prog = "mcpcheck files",
    .synopsis = "mcpcheck files [options] FILE...\n",
    .opts = table,
    .positional = "FILE",
    .positional_at = offsetof(T, files),
    .command_at = MC_OPTS_NONE,
};
#undef T

static void init(test_opts_t *o)
{
    memset(o, 0, sizeof(*o));
    o->mode = -1;
    o->count = 5;
    o->name = "default";
    o->tags = (mc_opt_list_t){o->tags_v, 3, 0};
    o->paths = (mc_opt_list_t){o->paths_v, 4, 0};
    o->files = (mc_opt_list_t){o->files_v, 2, 0};
}

/* Reads a NULL-terminated argument list (after the subcommand's name). */
static int read_args(const mc_opts_spec_t *spec, test_opts_t *o, char *why, size_t n, ...)
{
    static char *argv[32];
    va_list ap;
    int argc = 0;
    char *a;

    argv[argc++] = "sub";
    va_start(ap, n);
    while ((a = va_arg(ap, char *)) != NULL && argc < 31)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    init(o);
    return mc_opts_read(spec, o, argc, argv, why, n);
}

#define READ(spec, ...) read_args((spec), &o, why, sizeof(why), __VA_ARGS__, (char *)NULL)

static void test_defaults_stay(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--"), MC_OPTS_OK);
    assert_int_equal(o.flag, 0);
    assert_string_equal(o.name, "default");
    assert_int_equal(o.count, 5);
    assert_int_equal(o.mode, -1);
    assert_int_equal(o.tags.n, 0);
    assert_non_null(o.cmd);
    assert_null(o.cmd[0]);
    /* Without "--" the command stays unset. */
    assert_int_equal(READ(&with_cmd, "--flag"), MC_OPTS_OK);
    assert_null(o.cmd);
}

static void test_flag(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--flag", "-v"), MC_OPTS_OK);
    assert_int_equal(o.flag, 1);
    assert_int_equal(o.verbose, 1);
    assert_int_equal(READ(&with_cmd, "--verbose"), MC_OPTS_OK);
    assert_int_equal(o.verbose, 1);
    assert_int_equal(READ(&with_cmd, "--flag=1"), MC_OPTS_BAD);
    assert_string_equal(why, "--flag takes no value");
}

static void test_string(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--name", "a"), MC_OPTS_OK);
    assert_string_equal(o.name, "a");
    assert_int_equal(READ(&with_cmd, "--name=b=c"), MC_OPTS_OK);
    assert_string_equal(o.name, "b=c");
    assert_int_equal(READ(&with_cmd, "-n", "c"), MC_OPTS_OK);
    assert_string_equal(o.name, "c");
    /* The last one given wins; an empty value is a value. */
    assert_int_equal(READ(&with_cmd, "--name", "x", "--name="), MC_OPTS_OK);
    assert_string_equal(o.name, "");
    /* The next argument is the value, whatever it looks like... */
    assert_int_equal(READ(&with_cmd, "--name", "--flag"), MC_OPTS_OK);
    assert_string_equal(o.name, "--flag");
    assert_int_equal(o.flag, 0);
    /* ...except "--", and the end. */
    assert_int_equal(READ(&with_cmd, "--name", "--", "srv"), MC_OPTS_BAD);
    assert_string_equal(why, "--name needs a value (--name NAME)");
    assert_int_equal(READ(&with_cmd, "-n"), MC_OPTS_BAD);
    assert_string_equal(why, "-n needs a value (-n NAME)");
}

static void test_checked(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--checked", "ok-fine"), MC_OPTS_OK);
    assert_string_equal(o.checked, "ok-fine");
    assert_int_equal(READ(&with_cmd, "--checked=bad"), MC_OPTS_BAD);
    assert_string_equal(why, "--checked: 'bad' is not ok");
}

static void test_long(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--count", "1"), MC_OPTS_OK);
    assert_int_equal(o.count, 1);
    assert_int_equal(READ(&with_cmd, "--count=10"), MC_OPTS_OK);
    assert_int_equal(o.count, 10);
    assert_int_equal(READ(&with_cmd, "--count", "11"), MC_OPTS_BAD);
    assert_string_equal(why, "--count needs N, a whole number in 1..10 (not '11')");
    assert_int_equal(READ(&with_cmd, "--count", "0"), MC_OPTS_BAD);
    assert_int_equal(READ(&with_cmd, "--count", "-3"), MC_OPTS_BAD);
    assert_int_equal(READ(&with_cmd, "--count", "3x"), MC_OPTS_BAD);
    assert_string_equal(why, "--count needs N, a whole number in 1..10 (not '3x')");
    assert_int_equal(READ(&with_cmd, "--count="), MC_OPTS_BAD);
    assert_int_equal(READ(&with_cmd, "--count", "99999999999999999999999"), MC_OPTS_BAD);
    assert_int_equal(READ(&with_cmd, "--count"), MC_OPTS_BAD);
    assert_string_equal(why, "--count needs a value (--count N)");
}

static void test_list(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--tag", "a", "--tag=b"), MC_OPTS_OK);
    assert_int_equal(o.tags.n, 2);
    assert_string_equal(o.tags.v[0], "a");
    assert_string_equal(o.tags.v[1], "b");
    assert_int_equal(READ(&with_cmd, "--tag", "a", "--tag", "b", "--tag", "c", "--tag", "d"),
                     MC_OPTS_BAD);
    assert_string_equal(why, "too many --tag (at most 3)");
    /* Not greedy: a second bare word is not a tag. */
    assert_int_equal(READ(&with_cmd, "--tag", "a", "b"), MC_OPTS_BAD);
    assert_string_equal(why, "unexpected argument 'b' (the server command goes after '--')");
}

static void test_greedy_list(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--paths", "a", "b", "c", "--flag", "--paths", "d"),
                     MC_OPTS_OK);
    assert_int_equal(o.paths.n, 4);
    assert_string_equal(o.paths.v[2], "c");
    assert_string_equal(o.paths.v[3], "d");
    assert_int_equal(o.flag, 1);
    /* The "=" form takes one value. */
    assert_int_equal(READ(&with_files, "--paths=a", "f"), MC_OPTS_OK);
    assert_int_equal(o.paths.n, 1);
    assert_int_equal(o.files.n, 1);
    /* Greed stops at "-" and "--". */
    assert_int_equal(READ(&with_cmd, "--paths", "a", "--", "srv"), MC_OPTS_OK);
    assert_int_equal(o.paths.n, 1);
    assert_string_equal(o.cmd[0], "srv");
    assert_int_equal(READ(&with_cmd, "--paths", "a", "b", "c", "d", "e"), MC_OPTS_BAD);
    assert_string_equal(why, "too many --paths (at most 4)");
}

static void test_enum(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--mode", "fast"), MC_OPTS_OK);
    assert_int_equal(o.mode, 0);
    assert_int_equal(READ(&with_cmd, "--mode=exact"), MC_OPTS_OK);
    assert_int_equal(o.mode, 2);
    assert_int_equal(READ(&with_cmd, "--mode", "Fast"), MC_OPTS_BAD);
    assert_string_equal(why, "--mode is fast, slow or exact, not 'Fast'");
}

static void test_dashdash_command(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    /* Everything after "--" is the command, options and "--" included. */
    assert_int_equal(READ(&with_cmd, "--flag", "--", "srv", "--name", "x", "--"), MC_OPTS_OK);
    assert_string_equal(o.cmd[0], "srv");
    assert_string_equal(o.cmd[1], "--name");
    assert_string_equal(o.cmd[3], "--");
    assert_null(o.cmd[4]);
    assert_string_equal(o.name, "default");
    assert_int_equal(READ(&with_cmd, "srv"), MC_OPTS_BAD);
    assert_string_equal(why, "unexpected argument 'srv' (the server command goes after '--')");
}

static void test_positional(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    /* Options and files in any order; "-" is a file. */
    assert_int_equal(READ(&with_files, "a.json", "--flag", "-"), MC_OPTS_OK);
    assert_int_equal(o.files.n, 2);
    assert_string_equal(o.files.v[0], "a.json");
    assert_string_equal(o.files.v[1], "-");
    assert_int_equal(o.flag, 1);
    /* After "--", names that look like options are files. */
    assert_int_equal(READ(&with_files, "--", "--flag", "-x"), MC_OPTS_OK);
    assert_int_equal(o.flag, 0);
    assert_string_equal(o.files.v[0], "--flag");
    assert_string_equal(o.files.v[1], "-x");
    assert_null(o.cmd);
    assert_int_equal(READ(&with_files, "a", "b", "c"), MC_OPTS_BAD);
    assert_string_equal(why, "too many FILE arguments (at most 2)");
    assert_int_equal(READ(&with_files, "--", "a", "b", "c"), MC_OPTS_BAD);
    /* A subcommand that takes one. */
    {
        char *argv[] = {"sub", "a", "b", NULL};
        init(&o);
        o.files.cap = 1;
        assert_int_equal(mc_opts_read(&with_files, &o, 3, argv, why, sizeof(why)), MC_OPTS_BAD);
        assert_string_equal(why, "unexpected argument 'b' (one FILE only)");
    }
    /* A subcommand that takes none, and no server command either. */
    {
        static const mc_opts_spec_t bare = {
            .prog = "p", .synopsis = "p\n", .opts = table,
            .positional_at = MC_OPTS_NONE, .command_at = MC_OPTS_NONE,
        };
        char *argv[] = {"sub", "--flag", "x", NULL}, *argv2[] = {"sub", "--", "y", NULL};
        init(&o);
        assert_int_equal(mc_opts_read(&bare, &o, 3, argv, why, sizeof(why)), MC_OPTS_BAD);
        assert_string_equal(why, "unexpected argument 'x' (see 'p --help')");
        assert_int_equal(mc_opts_read(&bare, &o, 3, argv2, why, sizeof(why)), MC_OPTS_BAD);
        assert_string_equal(why, "unexpected argument 'y' (see 'p --help')");
        assert_int_equal(mc_opts_read(&bare, &o, 2, argv2, why, sizeof(why)), MC_OPTS_OK);
    }
}

static void test_unknown(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--nmae", "x"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '--nmae' (did you mean '--name'?)");
    assert_int_equal(READ(&with_cmd, "--verbos"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '--verbos' (did you mean '--verbose'?)");
    assert_int_equal(READ(&with_cmd, "--coun=3"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '--coun' (did you mean '--count'?)");
    assert_int_equal(READ(&with_cmd, "-count", "3"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '-count' (did you mean '--count'?)");
    assert_int_equal(READ(&with_cmd, "--frobnicate"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '--frobnicate' (see 'mcpcheck test --help')");
    assert_int_equal(READ(&with_cmd, "-x"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '-x' (see 'mcpcheck test --help')");
    /* Short names are not combined. */
    assert_int_equal(READ(&with_cmd, "-vn", "x"), MC_OPTS_BAD);
    /* Long names are not abbreviated. */
    assert_int_equal(READ(&with_cmd, "--verb"), MC_OPTS_BAD);
    assert_string_equal(why, "unknown option '--verb' (did you mean '--verbose'?)");
    /* A long name is not a short one. */
    assert_int_equal(READ(&with_cmd, "--v"), MC_OPTS_BAD);
}

static void test_help(void **state)
{
    test_opts_t o;
    char why[MC_OPTS_MAX_MESSAGE];

    (void)state;
    assert_int_equal(READ(&with_cmd, "--flag", "--help", "--bogus"), MC_OPTS_HELP);
    assert_int_equal(READ(&with_files, "-h"), MC_OPTS_HELP);
    /* After "--" it belongs to the command. */
    assert_int_equal(READ(&with_cmd, "--", "srv", "--help"), MC_OPTS_OK);
    /* As a value it is a value. */
    assert_int_equal(READ(&with_cmd, "--name", "--help"), MC_OPTS_OK);
    assert_string_equal(o.name, "--help");
}

/* Asserts that no line of text is wider than --help's limit; returns how
 * many lines it has. */
static size_t assert_width(const char *text)
{
    size_t lines = 0;

    while (*text != '\0') {
        size_t len = strcspn(text, "\n");
        assert_true(len <= MC_OPTS_HELP_WIDTH);
        text += len;
        if (*text == '\n')
            text++;
        lines++;
    }
    return lines;
}

/* The usage text mc_opts_usage() prints for spec. */
static char *usage_text(const mc_opts_spec_t *spec)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    mc_opts_usage(f, spec);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void test_usage_text(void **state)
{
    char *text = usage_text(&with_cmd);
    const mc_opt_t *opt;

    (void)state;
    assert_non_null(strstr(text, "usage: mcpcheck test [options] -- SERVER_CMD\n"
                                 "\nAbout the test.\n\nOptions:\n"));
    /* Every option of the table, the value's name, the short name. */
    for (opt = table; opt->kind != MC_OPT_END; opt++) {
        char want[80];
        snprintf(want, sizeof(want), "--%s%s%s", opt->name, opt->arg ? " " : "",
                 opt->arg ? opt->arg : "");
        assert_non_null(strstr(text, want));
    }
    assert_non_null(strstr(text, "  -v, --verbose "));
    assert_non_null(strstr(text, "  -n, --name NAME "));
    assert_non_null(strstr(text, "--paths PATH... "));
    assert_non_null(strstr(text, "a checked value (known: ok1, ok2)\n"));
    assert_non_null(strstr(text, "  -h, --help "));
    assert_non_null(strstr(text, "\nThe end.\n"));
    /* The help column is shared, and nothing is wider than the limit. */
    assert_non_null(strstr(text, "  --flag           a flag\n"));
    assert_non_null(strstr(text, "  --count N        how many\n"));
    assert_width(text);
    free(text);
}

static void test_help_wraps(void **state)
{
    static const mc_opt_t long_help[] = {
        MC_OPTION_FLAG(test_opts_t, flag, "a-rather-long-option-name", 0,
                       "one two three four five six seven eight nine ten eleven twelve "
                       "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty "
                       "twenty-one twenty-two\nforced break"),
        MC_OPTION_END,
    };
    static const mc_opts_spec_t spec = {
        .prog = "p", .synopsis = "p\n", .opts = long_help,
        .positional_at = MC_OPTS_NONE, .command_at = MC_OPTS_NONE,
    };
    char *text = usage_text(&spec);

    (void)state;
    /* A name wider than the column puts its text on the next line. */
    assert_non_null(strstr(text, "  --a-rather-long-option-name\n              one two"));
    assert_non_null(strstr(text, "\n              forced break\n"));
    assert_true(assert_width(text) >= 6);
    free(text);
}

/* mc_opts_parse: exit codes, and nothing is printed when all is well. */
static void test_parse_codes(void **state)
{
    test_opts_t o;
    char *ok[] = {"sub", "--flag", NULL}, *bad[] = {"sub", "--nope", NULL};

    (void)state;
    init(&o);
    assert_int_equal(mc_opts_parse(&with_cmd, &o, 2, ok), MC_OPTS_CONTINUE);
    assert_int_equal(o.flag, 1);
    init(&o);
    assert_int_equal(mc_opts_parse(&with_cmd, &o, 2, bad), MC_EXIT_USAGE);
    assert_int_equal(mc_opts_fail(&with_cmd, "%s", "a test message"), MC_EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_stay), cmocka_unit_test(test_flag),
        cmocka_unit_test(test_string),        cmocka_unit_test(test_checked),
        cmocka_unit_test(test_long),          cmocka_unit_test(test_list),
        cmocka_unit_test(test_greedy_list),   cmocka_unit_test(test_enum),
        cmocka_unit_test(test_dashdash_command), cmocka_unit_test(test_positional),
        cmocka_unit_test(test_unknown),       cmocka_unit_test(test_help),
        cmocka_unit_test(test_usage_text),    cmocka_unit_test(test_help_wraps),
        cmocka_unit_test(test_parse_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
