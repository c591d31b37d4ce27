/*
 * scenario_load_fuzzer.c - scenario files: the JSONC reader with source
 * positions (scenario/jsonc.h) and the scenario loader and linter
 * (scenario/scenario.h: mc_scenario_load).
 *
 * Input: the text of a scenario file. It is parsed in memory with
 * mc_jsonc_parse(), every recorded position is looked up again, and then
 * loaded with mc_scenario_load(). The loader only reads from a path, so the
 * input is handed to it through an anonymous in-memory file (memfd,
 * /proc/self/fd/N): nothing touches the disk. (An in-memory entry point in
 * the scenario layer would make this simpler and faster.)
 *
 * Oracle (abort(), besides the sanitizers):
 *  - a failed parse says where ("name:line:col: ...");
 *  - every recorded position is inside the text (line and column >= 1);
 *  - a refused scenario (MC_EINVAL) comes with problems, each a
 *    "file:line:col: message" line, at most MC_SCENARIO_MAX_PROBLEMS of them
 *    plus a summary line;
 *  - a loaded scenario has an id, a title and at least one requirement, and
 *    answers the lookups of its own API.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "scenario/jsonc.h"
#include "scenario/scenario.h"
#include "core/version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_parse(const uint8_t *data, size_t size)
{
    mc_jsonc_doc_t doc;
    mc_errbuf_t eb;
    size_t i, lines = 1;
    int rc, line, col;

    for (i = 0; i < size; i++)
        lines += data[i] == '\n';
    memset(&doc, 0, sizeof(doc));
    mc_errbuf_clear(&eb);
    rc = mc_jsonc_parse((const char *)data, size, "fuzz.jsonc", &doc, &eb);
    if (rc != MC_OK) {
        if (!eb.set || strncmp(eb.msg, "fuzz.jsonc:", 11) != 0) {
            fprintf(stderr, "jsonc: %s\n", eb.msg);
            mc_fuzz_fail("a JSONC parse error that does not say where", (const char *)data,
                         size);
        }
        return;
    }
    for (i = 0; i < doc.n_pos; i++) {
        if (doc.pos[i].line < 1 || doc.pos[i].col < 1 || (size_t)doc.pos[i].line > lines)
            mc_fuzz_fail("a recorded position outside the text", doc.pos[i].pointer,
                         strlen(doc.pos[i].pointer));
        mc_jsonc_where(&doc, doc.pos[i].pointer, &line, &col);
        if (line < 1 || col < 1)
            mc_fuzz_fail("mc_jsonc_where gave no position", NULL, 0);
    }
    mc_jsonc_where(&doc, "/steps/0/no/such/member", &line, &col);
    mc_jsonc_free(&doc);
}

static void check_problems(const char *problems, const char *path)
{
    const char *p = problems;
    size_t n = 0, plen = strlen(path);

    if (problems == NULL || problems[0] == '\0')
        mc_fuzz_fail("a refused scenario without problems", NULL, 0);
    while (*p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
        n++;
        if (n <= MC_SCENARIO_MAX_PROBLEMS && (len <= plen || strncmp(p, path, plen) != 0 ||
                                              p[plen] != ':'))
            mc_fuzz_fail("a problem line that does not start with file:line:col", p, len);
        p += len + (nl != NULL);
    }
    if (n > MC_SCENARIO_MAX_PROBLEMS + 1)
        mc_fuzz_fail("more problem lines than MC_SCENARIO_MAX_PROBLEMS", problems,
                     strlen(problems));
}

static void check_load(const uint8_t *data, size_t size)
{
    const char *versions[MC_V_COUNT + 2];
    size_t n_versions = mc_version_list(0, versions, MC_V_COUNT + 1);
    char path[64];
    mc_scenario_t sc;
    mc_errbuf_t eb;
    char *problems = NULL;
    size_t off = 0, i;
    int fd, rc;

    fd = memfd_create("scenario.jsonc", MFD_CLOEXEC);
    if (fd < 0)
        return;
    while (off < size) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0) {
            close(fd);
            return;
        }
        off += (size_t)n;
    }
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    memset(&sc, 0, sizeof(sc));
    mc_errbuf_clear(&eb);
    rc = mc_scenario_load(path, NULL, &sc, &problems, &eb);
    if (rc == MC_OK) {
        if (sc.id == NULL || sc.title == NULL || sc.n_reqs == 0 || sc.reqs == NULL)
            mc_fuzz_fail("a loaded scenario without id, title or requirements",
                         (const char *)data, size);
        for (i = 0; i < sc.n_reqs; i++)
            if (mc_scenario_requirement(&sc, sc.reqs[i].check) == NULL)
                mc_fuzz_fail("a scenario's own check id is not found", sc.reqs[i].check,
                             strlen(sc.reqs[i].check));
        /* Every published version, and one no table knows. */
        versions[n_versions++] = "1999-01-01";
        for (i = 0; i < n_versions; i++) {
            char why[200];
            (void)mc_scenario_applies(&sc, versions[i]);
            (void)mc_scenario_version_gap(&sc, versions[i], why, sizeof(why));
        }
        (void)mc_scenario_line(&sc, "/steps/0");
        (void)mc_scenario_line(&sc, "/no/such/pointer");
        mc_scenario_free(&sc);
    } else if (rc == MC_EINVAL) {
        check_problems(problems, path);
    }
    free(problems);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MC_FUZZ_MAX_INPUT)
        return -1;
    check_parse(data, size);
    check_load(data, size);
    return 0;
}
