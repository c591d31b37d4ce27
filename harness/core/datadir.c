/*
 * datadir.c - the data folder, found from the environment or from the
 * executable's own path (see datadir.h).
 */
#include "core/datadir.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Each kind's folder below the data folder, and in the source tree. */
static const struct {
    const char *installed;
    const char *source;
} kinds[MC_DATA_COUNT] = {
    [MC_DATA_SCENARIOS] = {"scenarios", "scenarios"},
    [MC_DATA_SCHEMAS] = {"schemas", "harness/schemas"},
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char root[MC_DATADIR_PATH_MAX];
static mc_datadir_how_t root_how = MC_DATADIR_FROM_CWD;
static char paths[MC_DATA_COUNT][MC_DATADIR_PATH_MAX];

static int is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Writes "a/b" into out; 0 when it fits, -1 when it does not. */
static int join(char *out, size_t n, const char *a, const char *b)
{
    int w = snprintf(out, n, "%s/%s", a, b);

    return w >= 0 && (size_t)w < n ? 0 : -1;
}

/* A data folder holds the scenario library: a folder that does not is not
 * one (a stray share/mcpcheck above a copied binary, say). */
static int is_data_dir(const char *dir)
{
    char p[MC_DATADIR_PATH_MAX];

    return join(p, sizeof(p), dir, kinds[MC_DATA_SCENARIOS].installed) == 0 && is_dir(p);
}

/* Looks for share/mcpcheck in the executable's folder and the folders
 * above it. Returns 0 with root set, or -1. */
static int find_from_exe(void)
{
    char dir[MC_DATADIR_PATH_MAX], cand[MC_DATADIR_PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    int up;

    if (len <= 0 || (size_t)len >= sizeof(dir) - 1)
        return -1;
    dir[len] = '\0';
    for (up = 0; up <= MC_DATADIR_MAX_UP; up++) {
        char *slash = strrchr(dir, '/');
        if (slash == NULL)
            return -1;
        *slash = '\0'; /* "/usr/bin/mcpcheck" -> "/usr/bin", then "/usr" ... */
        if (join(cand, sizeof(cand), dir[0] != '\0' ? dir : "", MC_DATADIR_UNDER_PREFIX) != 0)
            return -1;
        if (is_data_dir(cand)) {
            snprintf(root, sizeof(root), "%s", cand);
            return 0;
        }
        if (dir[0] == '\0')
            return -1;
    }
    return -1;
}

static void find_once(void)
{
    const char *env = getenv(MC_DATADIR_ENV);
    size_t i;

    if (env != NULL && env[0] != '\0' && strlen(env) < sizeof(root)) {
        snprintf(root, sizeof(root), "%s", env);
        root_how = MC_DATADIR_FROM_ENV;
    } else if (find_from_exe() == 0) {
        root_how = MC_DATADIR_FROM_EXE;
    } else {
        root[0] = '\0';
        root_how = MC_DATADIR_FROM_CWD;
    }
    for (i = 0; i < MC_DATA_COUNT; i++) {
        if (root_how == MC_DATADIR_FROM_CWD ||
            join(paths[i], sizeof(paths[i]), root, kinds[i].installed) != 0)
            snprintf(paths[i], sizeof(paths[i]), "%s", kinds[i].source);
    }
}

const char *mc_datadir_get(mc_data_t what)
{
    pthread_once(&once, find_once);
    if ((int)what < 0 || what >= MC_DATA_COUNT)
        return "";
    return paths[what];
}

const char *mc_datadir_root(mc_datadir_how_t *how)
{
    pthread_once(&once, find_once);
    if (how != NULL)
        *how = root_how;
    return root;
}

const char *mc_datadir_how_name(mc_datadir_how_t how)
{
    switch (how) {
    case MC_DATADIR_FROM_ENV:
        return MC_DATADIR_ENV;
    case MC_DATADIR_FROM_EXE:
        return "the executable's prefix";
    case MC_DATADIR_FROM_CWD:
        break;
    }
    return "the current directory";
}
