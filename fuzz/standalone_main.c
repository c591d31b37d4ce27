/*
 * standalone_main.c - runs a fuzz target on files without a fuzzing engine.
 *
 * Usage: <target>_replay [-q] [-x DISABLED] PATH...
 * Each PATH is a file (one input) or a directory (each regular file in it,
 * in name order, one level deep). README.md, DISABLED, *.jsonc (generated
 * scenarios) and dotfiles are skipped, so corpus folders can be passed as
 * they are. -x names a DISABLED list
 * (corpus/regressions/DISABLED): lines "<folder>/<file> <reason>"; an input
 * whose parent folder and name match a line is skipped and the reason
 * printed, like curl's DISABLED tests (open bugs whose owner has the input). Calls LLVMFuzzerInitialize
 * once when the target defines it, then LLVMFuzzerTestOneInput per input.
 * Exits 0 when every input ran (a crash or an oracle abort ends the process
 * with the sanitizer's or abort's status), 1 when no input ran at all, 2 on a usage
 * or I/O error.
 * This is how the default and ASan builds replay seeds and regressions
 * (harness/tests/fuzz) with any C compiler.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file.h"

/* Largest input file replayed (targets reject far smaller inputs anyway). */
#define MAX_FILE (16u * 1024u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#define MAX_DISABLED 256

static int g_quiet;
static unsigned long g_count, g_skipped;
static char *g_disabled[MAX_DISABLED]; /* "<folder>/<file>" keys */
static char *g_reasons[MAX_DISABLED];
static size_t g_n_disabled;

/* Reads a DISABLED list; comment lines start with '#'. Returns 0 or -1. */
static int load_disabled(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];

    if (f == NULL) {
        /* No list: nothing is disabled. */
        return errno == ENOENT ? 0 : -1;
    }
    while (g_n_disabled < MAX_DISABLED && fgets(line, sizeof(line), f) != NULL) {
        char *key = line, *sp;
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        while (*key == ' ' || *key == '\t')
            key++;
        if (*key == '\0' || *key == '#')
            continue;
        sp = key + strcspn(key, " \t");
        if (*sp != '\0')
            *sp++ = '\0';
        while (*sp == ' ' || *sp == '\t')
            sp++;
        g_disabled[g_n_disabled] = strdup(key);
        g_reasons[g_n_disabled] = strdup(sp);
        if (g_disabled[g_n_disabled] == NULL || g_reasons[g_n_disabled] == NULL) {
            fclose(f);
            return -1;
        }
        g_n_disabled++;
    }
    fclose(f);
    return 0;
}

/* The reason an input is disabled, or NULL. */
static const char *disabled_reason(const char *path)
{
    const char *base = strrchr(path, '/'), *folder;
    size_t i, flen;

    if (base == NULL)
        return NULL;
    for (folder = base; folder > path && folder[-1] != '/'; folder--)
        ;
    flen = (size_t)(base - folder);
    for (i = 0; i < g_n_disabled; i++) {
        const char *k = g_disabled[i];
        if (strncmp(k, folder, flen) == 0 && k[flen] == '/' && strcmp(k + flen + 1, base + 1) == 0)
            return g_reasons[i];
    }
    return NULL;
}

static int run_file(const char *path)
{
    mc_errbuf_t eb;
    char *text = NULL;
    uint8_t *buf;
    size_t n = 0;
    const char *why = disabled_reason(path);

    if (why != NULL) {
        fprintf(stderr, "replay: SKIP %s (DISABLED: %s)\n", path, why);
        g_skipped++;
        return 0;
    }
    mc_errbuf_clear(&eb);
    if (mc_file_read(path, MAX_FILE, &text, &n, &eb) != MC_OK) {
        fprintf(stderr, "replay: %s\n", eb.msg);
        return -1;
    }
    buf = (uint8_t *)text;
    if (!g_quiet)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    /* An exact-size copy, so ASan sees reads past the end of the input. */
    {
        uint8_t *exact = malloc(n > 0 ? n : 1);
        if (exact == NULL) {
            free(buf);
            return -1;
        }
        memcpy(exact, buf, n);
        free(buf);
        (void)LLVMFuzzerTestOneInput(exact, n);
        free(exact);
    }
    g_count++;
    return 0;
}

/* READMEs, dotfiles and generated scenario files (*.jsonc) are not inputs. */
static int skip_name(const char *name)
{
    size_t n = strlen(name);

    return name[0] == '.' || strcmp(name, "README.md") == 0 || strcmp(name, "DISABLED") == 0 ||
           (n > 6 && strcmp(name + n - 6, ".jsonc") == 0);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int rc = 0;

    if (d == NULL) {
        fprintf(stderr, "replay: cannot open %s: %s\n", dir, strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        char *copy;
        if (skip_name(e->d_name))
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap ? cap * 2 : 64) * sizeof(*nn));
            if (nn == NULL) {
                rc = -1;
                break;
            }
            names = nn;
            cap = cap ? cap * 2 : 64;
        }
        copy = strdup(e->d_name);
        if (copy == NULL) {
            rc = -1;
            break;
        }
        names[n++] = copy;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof(*names), cmp_names);
    for (i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        int len = snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (rc == 0 && len > 0 && (size_t)len < sizeof(path) && stat(path, &st) == 0 &&
            S_ISREG(st.st_mode))
            rc = run_file(path);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    struct stat st;
    int i, first = 1;

    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-q") == 0) {
            g_quiet = 1;
            first++;
        } else if (strcmp(argv[first], "-x") == 0 && first + 1 < argc) {
            if (load_disabled(argv[first + 1]) != 0) {
                fprintf(stderr, "replay: cannot read %s\n", argv[first + 1]);
                return 2;
            }
            first += 2;
        } else {
            break;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-q] [-x DISABLED] FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    for (i = first; i < argc; i++) {
        if (stat(argv[i], &st) != 0) {
            /* A regressions folder that has no findings yet is not an error. */
            if (errno == ENOENT)
                continue;
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            return 2;
        }
        if ((S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) != 0)
            return 2;
    }
    fprintf(stderr, "replay: %lu input(s) ran clean, %lu disabled\n", g_count, g_skipped);
    for (i = 0; i < (int)g_n_disabled; i++) {
        free(g_disabled[i]);
        free(g_reasons[i]);
    }
    /* Every target has a seed corpus: a replay that ran nothing proves nothing. */
    if (g_count == 0) {
        fprintf(stderr, "replay: no input ran (is the seed corpus missing?)\n");
        return 1;
    }
    return 0;
}
