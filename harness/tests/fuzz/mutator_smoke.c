/*
 * mutator_smoke.c - runs the structure-aware mutator (fuzz/mutator.c) over
 * every seed of every corpus folder, ROUNDS times each with its own seed
 * value, chaining mutations, plus the crossover of neighbouring seeds.
 * Under ASan+UBSan this catches memory errors and leaks in the mutator; in
 * any build it checks the mutator's contract: the result fits max_size and
 * is never empty.
 * Usage: fuzz_mutator_smoke ROUNDS CORPUS_DIR
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mutator.h"

#define MAX_SIZE 8192

static unsigned long g_runs;

static int mutate_file(const char *path, long rounds, uint8_t *prev, size_t *prev_len)
{
    static uint8_t buf[MAX_SIZE], out[MAX_SIZE];
    FILE *f = fopen(path, "rb");
    size_t n, m;
    long r;

    if (f == NULL)
        return -1;
    n = fread(buf, 1, MAX_SIZE, f);
    fclose(f);
    if (n == 0)
        return 0;
    for (r = 0; r < rounds; r++) {
        n = mc_fuzz_mutate(buf, n, MAX_SIZE, (unsigned int)(r * 2654435761u));
        if (n == 0 || n > MAX_SIZE) {
            fprintf(stderr, "mutator_smoke: %s: bad size %zu after round %ld\n", path, n, r);
            return -1;
        }
        g_runs++;
    }
    if (*prev_len > 0) {
        m = mc_fuzz_crossover(buf, n, prev, *prev_len, out, MAX_SIZE, (unsigned int)n);
        if (m > MAX_SIZE) {
            fprintf(stderr, "mutator_smoke: %s: crossover overflow\n", path);
            return -1;
        }
    }
    memcpy(prev, buf, n);
    *prev_len = n;
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t prev[MAX_SIZE];
    size_t prev_len = 0;
    long rounds;
    DIR *top;
    struct dirent *e;
    char *end = NULL;

    if (argc != 3) {
        fprintf(stderr, "usage: %s ROUNDS CORPUS_DIR\n", argv[0]);
        return 2;
    }
    rounds = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || rounds <= 0)
        return 2;
    top = opendir(argv[2]);
    if (top == NULL)
        return 2;
    while ((e = readdir(top)) != NULL) {
        char dir[4096];
        DIR *d;
        struct dirent *s;
        if (e->d_name[0] == '.')
            continue;
        snprintf(dir, sizeof(dir), "%s/%s", argv[2], e->d_name);
        d = opendir(dir);
        if (d == NULL)
            continue;
        while ((s = readdir(d)) != NULL) {
            char path[8192];
            struct stat st;
            if (s->d_name[0] == '.' || strcmp(s->d_name, "README.md") == 0)
                continue;
            snprintf(path, sizeof(path), "%s/%s", dir, s->d_name);
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            if (mutate_file(path, rounds, prev, &prev_len) != 0) {
                closedir(d);
                closedir(top);
                return 1;
            }
        }
        closedir(d);
    }
    closedir(top);
    printf("mutator_smoke: %lu mutations clean\n", g_runs);
    return 0;
}
