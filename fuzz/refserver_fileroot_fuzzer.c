/*
 * refserver_fileroot_fuzzer.c - --root confinement of file:// resource reads
 * (refserver/fileroot.c, through refserver/units.h: mc_refserver_root_read).
 *
 * Confinement is about a real file system, so this target (alone) touches
 * files: LLVMFuzzerInitialize builds a fixed tree in a fresh temporary
 * directory and opens it as the root once (read-only afterwards); the tree
 * is removed at exit. Next to the root lies a sibling directory whose name
 * starts with the root's name ("<root>-outside", the prefix trap), and the
 * root holds symlinks to a file inside, to that sibling, to /etc/passwd and
 * to "/", a FIFO, and names with spaces, percent signs and UTF-8.
 *
 * Input: a URI; every "@ROOT@" in it is replaced by the root's real path
 * ("file://@ROOT@/a.txt"), and "file://" is put in front when it is missing.
 * Bytes after a NUL are ignored (the server reads C strings).
 *
 * Oracle (abort(), besides the sanitizers):
 *  - a successful read returns exactly the contents of a file that the root
 *    listing holds (never the sibling's, /etc/passwd, or anything else), as
 *    text or as base64;
 *  - a refusal is -32602, -32002 or -32603 with a reason;
 *  - every listed file's own URI (mc_refserver_root_uri) reads back its bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "core/base64.h"
#include "core/file.h"
#include "core/hash.h"
#include "core/jsonrpc.h"
#include "refserver/units.h"

#define MAX_URI_INPUT 8192
#define MAX_FILES 32

/* Read-only after LLVMFuzzerInitialize. */
/* Largest fixture file read back for comparison. */
#define MAX_FIXTURE_BYTES 65536

/* Room for a listed file's URI (the server caps stored URIs at 2048 bytes). */
#define URI_BUF 4096

static mc_refserver_root_t *g_root;
static char g_base[256];     /* the temporary directory holding root/ and root-outside/ */
static char g_rootdir[512];  /* its root/ (real path) */
static char *g_contents[MAX_FILES]; /* contents of listed file i */
static size_t g_lens[MAX_FILES];
static size_t g_nfiles;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put_file(const char *rel, const char *text, size_t len)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", g_base, rel);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(text, 1, len, f) != len) {
        fprintf(stderr, "fileroot fuzzer: cannot write %s: %s\n", path, strerror(errno));
        abort();
    }
    fclose(f);
}

static void put_dir(const char *rel)
{
    char path[1024];

    snprintf(path, sizeof(path), "%s/%s", g_base, rel);
    if (mkdir(path, 0700) != 0) {
        fprintf(stderr, "fileroot fuzzer: cannot create %s: %s\n", path, strerror(errno));
        abort();
    }
}

static void put_link(const char *target, const char *rel)
{
    char path[1024];

    snprintf(path, sizeof(path), "%s/%s", g_base, rel);
    if (symlink(target, path) != 0) {
        fprintf(stderr, "fileroot fuzzer: cannot link %s: %s\n", path, strerror(errno));
        abort();
    }
}

/* Removes the tree (paths are fixed; no recursion over foreign names). */
static void cleanup(void)
{
    static const char *const rels[] = {
        "root/a.txt", "root/bin.dat", "root/sp ace.txt", "root/pct%41.txt", "root/caf\xc3\xa9.md",
        "root/sub/b.md", "root/sub/deep/c.json", "root/link-in", "root/link-out",
        "root/link-sibling", "root/link-slash", "root/fifo", "root/sub/deep", "root/sub",
        "root", "root-outside/secret.txt", "root-outside", ""};
    size_t i;
    char path[1024];

    mc_refserver_root_free(g_root);
    g_root = NULL;
    for (i = 0; i < g_nfiles; i++)
        free(g_contents[i]);
    if (g_base[0] == '\0')
        return;
    for (i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
        snprintf(path, sizeof(path), "%s%s%s", g_base, rels[i][0] ? "/" : "", rels[i]);
        if (unlink(path) != 0)
            (void)rmdir(path);
    }
}

/* The bytes of one of the fixture files (all far below the bound), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    char *buf = NULL;

    return mc_file_read(path, MAX_FIXTURE_BYTES, &buf, len, NULL) == MC_OK ? buf : NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const unsigned char bin[] = {0x00, 0x01, 0xff, 0xfe, 'P', 'N', 'G', 0x80};
    const char *tmp = getenv("TMPDIR");
    char outside[600];
    mc_errbuf_t eb;
    size_t i;

    (void)argc;
    (void)argv;
    if (g_root != NULL)
        return 0;
    snprintf(g_base, sizeof(g_base), "%s/mcpcheck-fuzz-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(g_base) == NULL) {
        fprintf(stderr, "fileroot fuzzer: mkdtemp: %s\n", strerror(errno));
        abort();
    }
    atexit(cleanup);
    put_dir("root");
    put_dir("root/sub");
    put_dir("root/sub/deep");
    put_dir("root-outside");
    put_file("root/a.txt", "contents of a.txt\n", 18);
    put_file("root/bin.dat", (const char *)bin, sizeof(bin));
    put_file("root/sp ace.txt", "space", 5);
    put_file("root/pct%41.txt", "percent", 7);
    put_file("root/caf\xc3\xa9.md", "# caf\xc3\xa9\n", 8);
    put_file("root/sub/b.md", "# b\n", 4);
    put_file("root/sub/deep/c.json", "{\"c\":1}", 7);
    put_file("root-outside/secret.txt", "SECRET-OUTSIDE-THE-ROOT", 23);
    put_link("a.txt", "root/link-in");
    put_link("/etc/passwd", "root/link-out");
    snprintf(outside, sizeof(outside), "%s/root-outside/secret.txt", g_base);
    put_link(outside, "root/link-sibling");
    put_link("/", "root/link-slash");
    {
        char fifo[600];
        snprintf(fifo, sizeof(fifo), "%s/root/fifo", g_base);
        (void)mkfifo(fifo, 0600);
    }
    {
        char dir[600], *real;
        snprintf(dir, sizeof(dir), "%s/root", g_base);
        real = realpath(dir, NULL);
        if (real == NULL)
            abort();
        snprintf(g_rootdir, sizeof(g_rootdir), "%s", real);
        free(real);
    }
    mc_errbuf_clear(&eb);
    g_root = mc_refserver_root_open(g_rootdir, &eb);
    if (g_root == NULL) {
        fprintf(stderr, "fileroot fuzzer: %s\n", eb.msg);
        abort();
    }
    g_nfiles = mc_refserver_root_count(g_root);
    if (g_nfiles == 0 || g_nfiles > MAX_FILES)
        abort();
    for (i = 0; i < g_nfiles; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", g_rootdir, mc_refserver_root_name(g_root, i));
        g_contents[i] = slurp(path, &g_lens[i]);
        if (g_contents[i] == NULL)
            abort();
    }
    return 0;
}

/* True when the contents object holds exactly the bytes of listed file i. */
static int holds(json_object *c, size_t i)
{
    json_object *t;

    if (json_object_object_get_ex(c, "text", &t))
        return (size_t)json_object_get_string_len(t) == g_lens[i] &&
               memcmp(json_object_get_string(t), g_contents[i], g_lens[i]) == 0;
    if (json_object_object_get_ex(c, "blob", &t)) {
        char *b64 = malloc(mc_base64_encoded_len(g_lens[i]) + 1);
        int same;
        if (b64 == NULL)
            return 0;
        mc_base64_encode((const unsigned char *)g_contents[i], g_lens[i], b64);
        same = strcmp(b64, json_object_get_string(t)) == 0;
        free(b64);
        return same;
    }
    return 0;
}

static void read_and_check(const char *uri, size_t uri_len, long must_be)
{
    json_object *contents = NULL, *u;
    char why[256];
    size_t i;
    int rc;

    why[0] = '\0';
    rc = mc_refserver_root_read(g_root, uri, &contents, why, sizeof(why));
    if (rc != 0) {
        if ((rc != MC_RPC_INVALID_PARAMS && rc != MC_RPC_RESOURCE_NOT_FOUND &&
             rc != MC_RPC_INTERNAL_ERROR) ||
            why[0] == '\0')
            mc_fuzz_fail("a refused read without a documented code and a reason", uri, uri_len);
        if (must_be >= 0) {
            fprintf(stderr, "refused: %d %s\n", rc, why);
            mc_fuzz_fail("a listed file's own URI was refused", uri, uri_len);
        }
        return;
    }
    if (!json_object_is_type(contents, json_type_object) ||
        !json_object_object_get_ex(contents, "uri", &u) ||
        strcmp(json_object_get_string(u), uri) != 0)
        mc_fuzz_fail("read contents without the requested uri", uri, uri_len);
    for (i = 0; i < g_nfiles; i++)
        if ((must_be < 0 || (size_t)must_be == i) && holds(contents, i))
            break;
    if (i == g_nfiles) {
        fprintf(stderr, "served: %.200s\n", json_object_to_json_string(contents));
        mc_fuzz_fail(must_be >= 0 ? "a listed file's URI served other bytes"
                                  : "a read served bytes that are not a listed file under the root",
                     uri, uri_len);
    }
    json_object_put(contents);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char marker[] = "@ROOT@";
    const size_t mlen = sizeof(marker) - 1;
    size_t rlen = strlen(g_rootdir), i, o = 0, cap;
    char *uri;
    uint32_t h = MC_FNV1A32_INIT;

    if (size > MAX_URI_INPUT)
        return -1;
    if (g_root == NULL)
        LLVMFuzzerInitialize(NULL, NULL);
    cap = 7 + size * (rlen > mlen ? rlen : mlen) + 1;
    uri = malloc(cap);
    if (uri == NULL)
        return 0;
    if (size < 7 || memcmp(data, "file://", 7) != 0) {
        memcpy(uri, "file://", 7);
        o = 7;
    }
    for (i = 0; i < size && data[i] != '\0'; i++) {
        h = mc_fnv1a32_byte(h, data[i]);
        if (i + mlen <= size && memcmp(data + i, marker, mlen) == 0) {
            memcpy(uri + o, g_rootdir, rlen);
            o += rlen;
            i += mlen - 1;
        } else {
            uri[o++] = (char)data[i];
        }
    }
    uri[o] = '\0';
    read_and_check(uri, o, -1);
    free(uri);

    /* A listed file's own URI always reads back its bytes. */
    {
        char own[URI_BUF];
        size_t k = h % g_nfiles;
        mc_refserver_root_uri(g_root, k, own, sizeof(own));
        read_and_check(own, strlen(own), (long)k);
    }
    return 0;
}
