/*
 * buildinfo.c - the version, revision and protocol versions of a build.
 */
#include "core/buildinfo.h"

#include <stdio.h>
#include <string.h>

#include "core/version.h"
/* The build writes core/gitrev.h into its own tree (cmake/gitrev.cmake); a build
 * without it (fuzz/build.sh) has no revision. */
#ifdef MC_HAVE_GITREV
#include "core/gitrev.h"
#else
#define MC_GIT_REVISION ""
#endif

const char *mc_build_version(void)
{
    return MC_VERSION;
}

const char *mc_build_revision(void)
{
    return MC_GIT_REVISION;
}

void mc_build_version_line(const char *prog, char *out, size_t n)
{
    if (n == 0)
        return;
    if (MC_GIT_REVISION[0] != '\0')
        snprintf(out, n, "%s %s (git %s)", prog, MC_VERSION, MC_GIT_REVISION);
    else
        snprintf(out, n, "%s %s", prog, MC_VERSION);
}

void mc_build_protocols(char *out, size_t n)
{
    const char *const *v;
    size_t used = 0;

    if (n == 0)
        return;
    out[0] = '\0';
    for (v = mc_version_names(); *v != NULL; v++) {
        int w = snprintf(out + used, n - used, "%s%s", used > 0 ? " " : "", *v);
        if (w < 0 || (size_t)w >= n - used)
            return;
        used += (size_t)w;
    }
}
