#include "core/file.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first buffer and each growth at least this much: small files take one
 * allocation, large ones a few doublings. */
#define FILE_READ_STEP (64u * 1024u)

int mc_file_read_stream(FILE *f, const char *name, size_t max, char **out, size_t *len,
                        mc_errbuf_t *eb)
{
    char *buf = NULL;
    size_t n = 0, cap = 0, limit;

    /* The buffer holds at most max + 1 bytes (one past max tells "too big"
     * from "exactly max") plus the NUL. */
    if (max > SIZE_MAX - 2)
        max = SIZE_MAX - 2;
    limit = max + 1;
    for (;;) {
        size_t got;
        if (n == cap) {
            size_t ncap = cap == 0 ? FILE_READ_STEP : cap > limit / 2 ? limit : cap * 2;
            char *nb;
            if (cap >= limit)
                break;
            if (ncap > limit)
                ncap = limit;
            nb = realloc(buf, ncap + 1);
            if (nb == NULL) {
                free(buf);
                return mc_errbuf_set(eb, MC_ENOMEM, "out of memory reading %s", name);
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        return mc_errbuf_set(eb, MC_EIO, "cannot read %s: %s", name, strerror(e));
    }
    if (n > max) {
        free(buf);
        return mc_errbuf_set(eb, MC_ETOOBIG, "%s is larger than %zu bytes", name, max);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return MC_OK;
}

int mc_file_read(const char *path, size_t max, char **out, size_t *len, mc_errbuf_t *eb)
{
    FILE *f = fopen(path, "rb");
    int rc;

    if (f == NULL)
        return mc_errbuf_set(eb, errno == ENOENT ? MC_ENOTFOUND : MC_EIO, "cannot open %s: %s",
                             path, strerror(errno));
    rc = mc_file_read_stream(f, path, max, out, len, eb);
    fclose(f);
    return rc;
}
