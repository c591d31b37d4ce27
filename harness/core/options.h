/*
 * options.h - one table-driven option parser for every program and
 * subcommand (mcpcheck's subcommands through cli/options.h, and
 * mcpcheck-refserver).
 *
 * A subcommand keeps its settings in a struct of its own and declares its
 * options as a const table of mc_opt_t (one MC_OPTION_* entry per option,
 * ended by MC_OPTION_END), each naming the struct field it fills. A spec
 * (mc_opts_spec_t) adds the program name used in messages, what "--" and
 * positional arguments mean, and the text of --help around the options.
 * mc_opts_parse() reads argv against the table; mc_opts_usage() prints
 * --help, its option section generated from the same table, so that what is
 * parsed and what is documented cannot drift.
 *
 * The syntax every subcommand accepts:
 *   --name VALUE, --name=VALUE  an option with a value; the next argument is
 *                               taken as the value whatever it is, except "--"
 *   -x VALUE                    the same by its short name, when it has one
 *   --flag, -x                  a flag ("--flag=..." is an error)
 *   --                          ends the options: what follows is the server
 *                               command (spec->command_at) or, for a
 *                               subcommand without one, positional arguments
 *   -                           a positional argument (standard input)
 *   -h, --help                  prints the usage on stdout (every subcommand)
 * Options and positional arguments may come in any order. Short names are
 * not combined ("-qv" is not "-q -v") and long names are not abbreviated.
 *
 * Errors (each a one-line reason; a program prints it as "PROG: ..." on
 * stderr and exits 2): an unknown option
 * (with "did you mean" when a known name is close), a missing value, a value
 * out of range or not a whole number, a value not among an enum's choices, a
 * value a check function refuses, a flag given a value, more values than a
 * list holds, and a positional argument where none is taken.
 */
#ifndef MC_CORE_OPTIONS_H
#define MC_CORE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* Longest message mc_opts_read() writes (the rest is cut). */
#define MC_OPTS_MAX_MESSAGE 512
/* The width --help is wrapped to, in columns. */
#define MC_OPTS_HELP_WIDTH 79

typedef enum mc_opt_kind {
    MC_OPT_END = 0, /* ends a table */
    MC_OPT_FLAG,    /* field int: set to 1 */
    MC_OPT_STRING,  /* field const char *: the value (the last one given wins) */
    MC_OPT_LONG,    /* field long: a decimal whole number in [min, max] */
    MC_OPT_LIST,    /* field mc_opt_list_t: every value, in order (repeatable) */
    MC_OPT_ENUM     /* field int: the index of the value among choices */
} mc_opt_kind_t;

/* MC_OPT_LIST: "--name A B C" also takes the arguments after the first value
 * up to the next one that starts with '-' (only in the separate form). */
#define MC_OPT_GREEDY 1u

/*
 * The values of a repeatable option, or the positional arguments: the caller
 * points v at an array of cap entries and sets n to 0; the parser appends
 * (pointers into argv). More than cap values is a usage error.
 */
typedef struct mc_opt_list {
    char **v;
    size_t cap;
    size_t n;
} mc_opt_list_t;

/*
 * Checks a value (MC_OPT_STRING, MC_OPT_LIST). Returns 0 to accept it, or -1
 * having written why it is refused into why (n bytes), e.g. "unknown
 * protocol version '1.0' (known: ...)".
 */
typedef int (*mc_opt_check_fn)(const char *value, char *why, size_t n);

/* Writes text that --help appends to an option's help (a list known only at
 * run time, such as the protocol versions) into buf (n bytes). */
typedef void (*mc_opt_hint_fn)(char *buf, size_t n);

typedef struct mc_opt {
    mc_opt_kind_t kind;
    const char *name;              /* long name without "--" ("timeout") */
    char short_name;               /* 'v' for -v, or 0 */
    const char *arg;               /* the value's name in help and messages ("MS") */
    size_t offset;                 /* of the field in the subcommand's struct */
    long min, max;                 /* MC_OPT_LONG: the accepted range */
    const char *const *choices;    /* MC_OPT_ENUM: the accepted values, NULL-terminated */
    mc_opt_check_fn check;         /* optional */
    mc_opt_hint_fn hint;           /* optional */
    unsigned flags;                /* MC_OPT_GREEDY */
    const char *help;              /* one paragraph; wrapped by mc_opts_usage() */
} mc_opt_t;

/* The offset of field f of struct T, which must have type `type` (anything
 * else does not compile). */
#define MC_OPT__AT(T, f, type) _Generic(((T *)0)->f, type: offsetof(T, f))

#define MC_OPTION_FLAG(T, f, lname, sname, help_)                                            \
    {.kind = MC_OPT_FLAG, .name = (lname), .short_name = (sname),                            \
     .offset = MC_OPT__AT(T, f, int), .help = (help_)}
#define MC_OPTION_STRING(T, f, lname, sname, arg_, help_)                                    \
    {.kind = MC_OPT_STRING, .name = (lname), .short_name = (sname), .arg = (arg_),           \
     .offset = MC_OPT__AT(T, f, const char *), .help = (help_)}
/* A string whose value check_ accepts, with hint_ (may be NULL) after its help. */
#define MC_OPTION_CHECKED(T, f, lname, sname, arg_, check_, hint_, help_)                    \
    {.kind = MC_OPT_STRING, .name = (lname), .short_name = (sname), .arg = (arg_),           \
     .offset = MC_OPT__AT(T, f, const char *), .check = (check_), .hint = (hint_),           \
     .help = (help_)}
#define MC_OPTION_LONG(T, f, lname, sname, arg_, min_, max_, help_)                          \
    {.kind = MC_OPT_LONG, .name = (lname), .short_name = (sname), .arg = (arg_),             \
     .offset = MC_OPT__AT(T, f, long), .min = (min_), .max = (max_), .help = (help_)}
/* A repeatable value; flags_ MC_OPT_GREEDY or 0; check_ and hint_ may be NULL. */
#define MC_OPTION_LIST(T, f, lname, sname, arg_, flags_, check_, hint_, help_)               \
    {.kind = MC_OPT_LIST, .name = (lname), .short_name = (sname), .arg = (arg_),             \
     .offset = MC_OPT__AT(T, f, mc_opt_list_t), .flags = (flags_), .check = (check_),        \
     .hint = (hint_), .help = (help_)}
#define MC_OPTION_ENUM(T, f, lname, sname, arg_, choices_, help_)                            \
    {.kind = MC_OPT_ENUM, .name = (lname), .short_name = (sname), .arg = (arg_),             \
     .offset = MC_OPT__AT(T, f, int), .choices = (choices_), .help = (help_)}
#define MC_OPTION_END {.kind = MC_OPT_END}

/* What "--" starts, and where positional arguments go. */
#define MC_OPTS_NONE ((size_t)-1)

typedef struct mc_opts_spec {
    const char *prog;       /* "mcpcheck run": the start of every message */
    const char *synopsis;   /* usage lines after "usage: ", each ending in '\n' */
    const char *about;      /* text before the options ('\n'-terminated lines), or NULL */
    const char *epilogue;   /* text after the options, or NULL */
    const mc_opt_t *opts;   /* ended by MC_OPTION_END */
    const char *positional; /* name of the positional arguments ("FILE"), or NULL */
    size_t positional_at;   /* offset of their mc_opt_list_t field, or MC_OPTS_NONE */
    size_t command_at;      /* offset of a char ** field that gets the NULL-terminated
                               arguments after "--" (the server command), or
                               MC_OPTS_NONE: "--" only ends the options */
} mc_opts_spec_t;

/* mc_opts_read() results. */
#define MC_OPTS_OK 0    /* parsed: the fields hold what argv says */
#define MC_OPTS_HELP 1  /* -h or --help was given (nothing more was read) */
#define MC_OPTS_BAD (-1) /* a usage error: why says what */

/*
 * Reads argv[1..argc-1] against spec into the struct at o, whose fields the
 * caller set to their defaults (lists with their storage, n = 0). Fields of
 * options not given keep their values; the command field is set only when
 * "--" is given. Returns MC_OPTS_OK, MC_OPTS_HELP, or MC_OPTS_BAD with a
 * one-line reason in why (n bytes, without the program name); on
 * MC_OPTS_BAD the fields may be partly filled. Prints nothing.
 */
int mc_opts_read(const mc_opts_spec_t *spec, void *o, int argc, char **argv, char *why,
                 size_t n);

/* Prints (to out, which the caller chooses) the option section of --help: one entry per option of the table,
 * then -h, --help, with the help text wrapped to MC_OPTS_HELP_WIDTH. */
void mc_opts_help(FILE *out, const mc_opts_spec_t *spec);

/* Prints the whole --help: "usage: " synopsis, about, "Options:" with
 * mc_opts_help(), epilogue. */
void mc_opts_usage(FILE *out, const mc_opts_spec_t *spec);

/* Quotes a macro's value as a string literal (for defaults in help texts). */
#define MC_OPTS__STR(x) #x
#define MC_OPTS_STR(x) MC_OPTS__STR(x)

#endif /* MC_CORE_OPTIONS_H */
