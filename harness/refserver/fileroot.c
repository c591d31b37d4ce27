/*
 * fileroot.c - --root DIR: regular files under a directory as file:// resources.
 *
 * The listing is taken once, when the server is created: regular files found
 * without following symlinks, at most RS_MAX_ROOT_FILES of them and
 * RS_MAX_ROOT_DEPTH directories deep, sorted so pages are stable.
 *
 * A read is confined to the root (2025-06-18/server/resources#security-considerations:
 * servers MUST validate all resource URIs). The URI must be file:// with no
 * host (or localhost), its percent-decoding must be valid and free of NUL,
 * no segment may be "." or "..", the path must lie under the root both as
 * written and after resolving symlinks, and it must name a regular file.
 * All of that is checked before anything is opened; the open itself refuses
 * symlinks and devices and re-checks the file it got.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hex.h"
#include "refserver/internal.h"

struct rs_fileroot {
    char *root; /* realpath of the root */
    size_t root_len;
    char **files; /* relative paths, sorted */
    size_t nfiles;
};

/* Appends a relative path to the listing. Returns 0, or -1 out of memory. */
static int add_file(struct rs_fileroot *fr, const char *rel)
{
    char *copy;

    if (fr->nfiles >= RS_MAX_ROOT_FILES)
        return 0;
    copy = strdup(rel);
    if (copy == NULL)
        return -1;
    fr->files[fr->nfiles++] = copy;
    return 0;
}

/* Walks directory rel (relative to the root; "" for the root itself). */
static int walk(struct rs_fileroot *fr, const char *rel, int depth)
{
    char path[PATH_MAX], child[PATH_MAX];
    DIR *d;
    struct dirent *e;
    int rc = 0;

    if (depth > RS_MAX_ROOT_DEPTH)
        return 0;
    if (snprintf(path, sizeof(path), "%s%s%s", fr->root, rel[0] ? "/" : "", rel) >=
        (int)sizeof(path))
        return 0;
    d = opendir(path);
    if (d == NULL)
        return 0;
    for (;;) {
        struct stat st;
        e = readdir(d);
        if (e == NULL || rc != 0)
            break;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (snprintf(child, sizeof(child), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) >=
                (int)sizeof(child) ||
            snprintf(path, sizeof(path), "%s/%s", fr->root, child) >= (int)sizeof(path))
            continue;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            rc = walk(fr, child, depth + 1);
        else if (S_ISREG(st.st_mode))
            rc = add_file(fr, child);
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct rs_fileroot *mc__rs_fileroot_open(const char *dir, mc_errbuf_t *eb)
{
    struct rs_fileroot *fr;
    struct stat st;
    char *real = realpath(dir, NULL);

    if (real == NULL) {
        mc_errbuf_set(eb, MC_EINVAL, "--root %s: %s", dir, strerror(errno));
        return NULL;
    }
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        mc_errbuf_set(eb, MC_EINVAL, "--root %s: not a directory", dir);
        free(real);
        return NULL;
    }
    fr = calloc(1, sizeof(*fr));
    if (fr != NULL)
        fr->files = calloc(RS_MAX_ROOT_FILES, sizeof(char *));
    if (fr == NULL || fr->files == NULL) {
        free(fr);
        free(real);
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        return NULL;
    }
    fr->root = real;
    fr->root_len = strlen(real);
    if (walk(fr, "", 0) != 0) {
        mc__rs_fileroot_free(fr);
        mc_errbuf_set(eb, MC_ENOMEM, "out of memory listing --root");
        return NULL;
    }
    qsort(fr->files, fr->nfiles, sizeof(char *), cmp_str);
    return fr;
}

void mc__rs_fileroot_free(struct rs_fileroot *fr)
{
    size_t i;

    if (fr == NULL)
        return;
    for (i = 0; i < fr->nfiles; i++)
        free(fr->files[i]);
    free(fr->files);
    free(fr->root);
    free(fr);
}

size_t mc__rs_fileroot_count(const struct rs_fileroot *fr)
{
    return fr->nfiles;
}

const char *mc__rs_fileroot_name(const struct rs_fileroot *fr, size_t i)
{
    return i < fr->nfiles ? fr->files[i] : "";
}

/* Percent-encodes s (keeping unreserved characters and '/') onto buf at *off. */
static void encode_path(const char *s, char *buf, size_t cap, size_t *off)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; *s != '\0' && *off + 4 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            buf[(*off)++] = (char)c;
        } else {
            buf[(*off)++] = '%';
            buf[(*off)++] = hex[c >> 4];
            buf[(*off)++] = hex[c & 15];
        }
    }
    buf[*off] = '\0';
}

const char *mc__rs_fileroot_uri(const struct rs_fileroot *fr, size_t i, char *buf, size_t cap)
{
    size_t off = 0;

    if (cap < 16) {
        if (cap > 0)
            buf[0] = '\0';
        return buf;
    }
    memcpy(buf, "file://", 7);
    off = 7;
    encode_path(fr->root, buf, cap, &off);
    if (off + 2 < cap && !(fr->root_len == 1))
        buf[off++] = '/';
    buf[off] = '\0';
    encode_path(mc__rs_fileroot_name(fr, i), buf, cap, &off);
    return buf;
}

int mc__rs_fileroot_claims(const char *uri)
{
    return strncmp(uri, "file://", 7) == 0;
}

/* True when any "/"-separated segment of p is "." or "..". */
static int has_dot_segment(const char *p)
{
    const char *s = p;

    while (*s != '\0') {
        const char *e = strchr(s, '/');
        size_t n = e != NULL ? (size_t)(e - s) : strlen(s);
        if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return 1;
        s += n;
        if (*s == '/')
            s++;
    }
    return 0;
}

/* True when path lies strictly under the root. */
static int under_root(const struct rs_fileroot *fr, const char *path)
{
    if (fr->root_len == 1)
        return path[0] == '/' && path[1] != '\0';
    return strncmp(path, fr->root, fr->root_len) == 0 && path[fr->root_len] == '/' &&
           path[fr->root_len + 1] != '\0';
}

/* True when buf[0..n) is valid UTF-8 without NUL bytes. */
static int is_text(const unsigned char *b, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned char c = b[i];
        size_t k, len;
        if (c == 0)
            return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4;
        else
            return 0;
        if (i + len > n)
            return 0;
        for (k = 1; k < len; k++)
            if ((b[i + k] & 0xC0) != 0x80)
                return 0;
        if ((c == 0xE0 && b[i + 1] < 0xA0) || (c == 0xED && b[i + 1] > 0x9F) ||
            (c == 0xF0 && b[i + 1] < 0x90) || (c == 0xF4 && b[i + 1] > 0x8F))
            return 0;
        i += len;
    }
    return 1;
}

static const char *guess_mime(const char *path, int text)
{
    static const struct {
        const char *ext, *mime;
    } tab[] = {{".txt", "text/plain"},     {".md", "text/markdown"}, {".json", "application/json"},
               {".c", "text/x-c"},         {".h", "text/x-c"},       {".html", "text/html"},
               {".png", "image/png"},      {".csv", "text/csv"}};
    const char *dot = strrchr(path, '.');
    size_t i;

    for (i = 0; dot != NULL && i < sizeof(tab) / sizeof(tab[0]); i++)
        if (strcmp(dot, tab[i].ext) == 0)
            return tab[i].mime;
    return text ? "text/plain" : "application/octet-stream";
}

/* Reads the whole regular file at path (already confined). */
static int read_file(const char *path, unsigned char **data, size_t *len, char *why,
                     size_t why_cap)
{
    struct stat before, st;
    unsigned char *buf;
    size_t got = 0;
    int fd;

    if (stat(path, &before) != 0) {
        snprintf(why, why_cap, "resource not found");
        return MC_RPC_RESOURCE_NOT_FOUND;
    }
    if (!S_ISREG(before.st_mode)) {
        snprintf(why, why_cap, "not a regular file");
        return MC_RPC_INVALID_PARAMS;
    }
    if ((uint64_t)before.st_size > RS_MAX_FILE_BYTES) {
        snprintf(why, why_cap, "the file exceeds the %u-byte limit", RS_MAX_FILE_BYTES);
        return MC_RPC_INTERNAL_ERROR;
    }
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_cap, "cannot open the file");
        return MC_RPC_INTERNAL_ERROR;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_ino != before.st_ino ||
        st.st_dev != before.st_dev || (uint64_t)st.st_size > RS_MAX_FILE_BYTES) {
        close(fd);
        snprintf(why, why_cap, "the file changed while it was opened");
        return MC_RPC_INVALID_PARAMS;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf == NULL) {
        close(fd);
        snprintf(why, why_cap, "out of memory");
        return MC_RPC_INTERNAL_ERROR;
    }
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    *data = buf;
    *len = got;
    return 0;
}

int mc__rs_fileroot_read(const struct rs_fileroot *fr, const char *uri, json_object **contents,
                         char *why, size_t why_cap)
{
    char decoded[PATH_MAX], *real;
    const char *p = uri + 7, *path;
    unsigned char *data = NULL;
    size_t i, o = 0, len = 0;
    int rc;

    if (strncmp(p, "localhost/", 10) == 0)
        p += 9;
    if (*p != '/') {
        snprintf(why, why_cap, "file URIs with a host are not served");
        return MC_RPC_INVALID_PARAMS;
    }
    path = p;
    if (strpbrk(path, "?#\\") != NULL || has_dot_segment(path)) {
        snprintf(why, why_cap, "the path has a query, a fragment, a backslash or a dot segment");
        return MC_RPC_INVALID_PARAMS;
    }
    for (i = 0; path[i] != '\0'; i++) {
        char c = path[i];
        if (o + 1 >= sizeof(decoded)) {
            snprintf(why, why_cap, "the path is too long");
            return MC_RPC_INVALID_PARAMS;
        }
        if (c == '%') {
            int h = mc_hex_digit(path[i + 1]), l = h >= 0 ? mc_hex_digit(path[i + 2]) : -1;
            if (h < 0 || l < 0) {
                snprintf(why, why_cap, "invalid percent-encoding");
                return MC_RPC_INVALID_PARAMS;
            }
            c = (char)(h * 16 + l);
            if (c == '\0') {
                snprintf(why, why_cap, "the path contains a NUL byte");
                return MC_RPC_INVALID_PARAMS;
            }
            i += 2;
        }
        decoded[o++] = c;
    }
    decoded[o] = '\0';
    if (has_dot_segment(decoded) || strchr(decoded, '\\') != NULL) {
        snprintf(why, why_cap, "path traversal is not allowed");
        return MC_RPC_INVALID_PARAMS;
    }
    if (!under_root(fr, decoded)) {
        snprintf(why, why_cap, "the path is outside the served root");
        return MC_RPC_INVALID_PARAMS;
    }
    real = realpath(decoded, NULL);
    if (real == NULL) {
        snprintf(why, why_cap, "resource not found");
        return errno == ENOENT || errno == ENOTDIR ? MC_RPC_RESOURCE_NOT_FOUND
                                                   : MC_RPC_INVALID_PARAMS;
    }
    if (!under_root(fr, real)) {
        free(real);
        snprintf(why, why_cap, "the path leads outside the served root");
        return MC_RPC_INVALID_PARAMS;
    }
    rc = read_file(real, &data, &len, why, why_cap);
    free(real);
    if (rc != 0)
        return rc;
    *contents = json_object_new_object();
    json_object_object_add(*contents, "uri", json_object_new_string(uri));
    if (is_text(data, len)) {
        json_object_object_add(*contents, "mimeType",
                               json_object_new_string(guess_mime(decoded, 1)));
        json_object_object_add(*contents, "text",
                               json_object_new_string_len((const char *)data, (int)len));
    } else {
        char *b64 = mc__rs_base64(data, len);
        json_object_object_add(*contents, "mimeType",
                               json_object_new_string(guess_mime(decoded, 0)));
        json_object_object_add(*contents, "blob", json_object_new_string(b64 ? b64 : ""));
        free(b64);
    }
    free(data);
    return 0;
}
