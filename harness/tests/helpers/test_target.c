/*
 * test_target.c - a misbehaving MCP server for the supervision tests.
 *
 * usage: mc-test-target MODE
 *   exit N      exit at once with status N
 *   segv        read one line, then die by SIGSEGV
 *   noread      never read stdin; sleep until killed
 *   flood MB    read one line, write MB megabytes without a newline, a
 *               newline, then answer like "serve"
 *   ignoreterm  ignore SIGTERM and sleep until killed
 *   banner      print a banner line on stdout, then answer like "serve"
 *   serve       answer initialize (echoing the version) and ping; exit at EOF
 *   pwd         print the working directory as a line, then exit
 *   env NAME    print the value of NAME (or "(unset)") as a line, then exit
 *   afl         answer like "serve", and before answering a request count
 *               one hit in the AFL++ map named by __AFL_SHM_ID at an entry
 *               of its method (a stand-in for an instrumented server: each
 *               method is code of its own)
 *   aflstate    like "afl", and a request for a method this process has
 *               answered before also counts a hit at an entry of its own
 *               (code that only state left by earlier requests reaches)
 *   chatty      answer like "serve", declaring the logging capability, and
 *               write a notifications/message at level "debug" before each
 *               answer after initialize, whatever level the client set (a
 *               MAY-level rule: the server may be told it broke nothing)
 *   dropper     answer like "serve", but leave a request with a top-level
 *               member "extra" unanswered (as a server that drops what
 *               does not validate instead of answering -32600)
 *   late        answer like "serve", but hold the answer to a request for
 *               the method "slow" until the next request has been answered
 *               (out of order: a ping sent after it is answered first)
 */
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

#include "core/hash.h"

/* The AFL++ map of the "afl" mode, or NULL. */
static unsigned char *g_map;
static size_t g_map_size;
/* The "aflstate" mode: hashes of the methods answered so far. */
#define MAX_SEEN 64
static int g_state;
static unsigned g_seen[MAX_SEEN];
static size_t g_n_seen;
/* The "chatty" mode. */
static int g_chatty;
/* The "dropper" and "late" modes; the answer "late" holds back. */
static int g_dropper, g_late;
static char *g_held;

static void answer(const char *line)
{
    json_object *req = json_tokener_parse(line), *id, *method, *resp, *result;
    const char *mname;

    if (req == NULL)
        return;
    if (!json_object_object_get_ex(req, "id", &id) ||
        !json_object_object_get_ex(req, "method", &method)) {
        json_object_put(req);
        return; /* notifications get no answer */
    }
    /* A method that is no string (null, a number, an object) is answered
     * as any other: the target never dies of what it reads. */
    mname = json_object_is_type(method, json_type_string) ? json_object_get_string(method) : "";
    if (g_dropper && json_object_object_get_ex(req, "extra", NULL)) {
        json_object_put(req);
        return;
    }
    if (g_map != NULL) {
        const char *s = mname;
        unsigned h = mc_fnv1a32_str(MC_FNV1A32_INIT, s);
        g_map[h % g_map_size]++;
        if (g_state) {
            size_t i;
            for (i = 0; i < g_n_seen && g_seen[i] != h; i++)
                ;
            if (i < g_n_seen)
                g_map[(h ^ 0x9e3779b9u) % g_map_size]++; /* the method again */
            else if (g_n_seen < MAX_SEEN)
                g_seen[g_n_seen++] = h;
        }
    }
    if (g_chatty && strcmp(mname, "initialize") != 0) {
        printf("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
               "\"params\":{\"level\":\"debug\",\"data\":\"chatty\"}}\n");
        fflush(stdout);
    }
    resp = json_object_new_object();
    result = json_object_new_object();
    json_object_object_add(resp, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(resp, "id", json_object_get(id));
    if (strcmp(mname, "initialize") == 0) {
        json_object *params, *v, *info = json_object_new_object();
        const char *ver = "2025-06-18";
        if (json_object_object_get_ex(req, "params", &params) &&
            json_object_object_get_ex(params, "protocolVersion", &v))
            ver = json_object_get_string(v);
        json_object_object_add(result, "protocolVersion", json_object_new_string(ver));
        json_object *caps = json_object_new_object();
        if (g_chatty)
            json_object_object_add(caps, "logging", json_object_new_object());
        json_object_object_add(result, "capabilities", caps);
        json_object_object_add(info, "name", json_object_new_string("mc-test-target"));
        json_object_object_add(info, "version", json_object_new_string("1.0"));
        json_object_object_add(result, "serverInfo", info);
    }
    json_object_object_add(resp, "result", result);
    if (g_late && g_held == NULL && strcmp(mname, "slow") == 0) {
        g_held = strdup(json_object_to_json_string_ext(resp, JSON_C_TO_STRING_PLAIN));
    } else {
        printf("%s\n", json_object_to_json_string_ext(resp, JSON_C_TO_STRING_PLAIN));
        if (g_held != NULL) {
            printf("%s\n", g_held);
            free(g_held);
            g_held = NULL;
        }
    }
    fflush(stdout);
    json_object_put(resp);
    json_object_put(req);
}

static void serve(void)
{
    char *line = NULL;
    size_t cap = 0;

    while (getline(&line, &cap, stdin) > 0)
        answer(line);
    free(line);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "serve";
    char *line = NULL;
    size_t cap = 0;

    if (strcmp(mode, "exit") == 0)
        return argc > 2 ? (int)strtol(argv[2], NULL, 10) : 0;
    if (strcmp(mode, "segv") == 0) {
        if (getline(&line, &cap, stdin) < 0)
            return 1;
        free(line);
        /* A sanitizer's handler would turn the signal into an exit status. */
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return 1;
    }
    if (strcmp(mode, "noread") == 0 || strcmp(mode, "ignoreterm") == 0) {
        if (strcmp(mode, "ignoreterm") == 0)
            signal(SIGTERM, SIG_IGN);
        for (;;)
            pause();
    }
    if (strcmp(mode, "flood") == 0) {
        static char block[1 << 20];
        long mb = argc > 2 ? strtol(argv[2], NULL, 10) : 100;
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0)
            return 1;
        memset(block, 'x', sizeof(block));
        for (long i = 0; i < mb; i++)
            fwrite(block, 1, sizeof(block), stdout);
        fputc('\n', stdout);
        answer(line);
        free(line);
        serve();
        return 0;
    }
    if (strcmp(mode, "banner") == 0) {
        printf("mc-test-target 1.0 starting up\n");
        fflush(stdout);
        serve();
        return 0;
    }
    if (strcmp(mode, "pwd") == 0) {
        char buf[4096];
        if (getcwd(buf, sizeof(buf)) == NULL)
            return 1;
        printf("%s\n", buf);
        return 0;
    }
    if (strcmp(mode, "afl") == 0 || strcmp(mode, "aflstate") == 0) {
        const char *id = getenv("__AFL_SHM_ID"), *size = getenv("AFL_MAP_SIZE");
        g_state = strcmp(mode, "aflstate") == 0;
        if (id != NULL && size != NULL) {
            void *m = shmat((int)strtol(id, NULL, 10), NULL, 0);
            g_map_size = (size_t)strtoul(size, NULL, 10);
            if (m != (void *)-1 && g_map_size > 0)
                g_map = m;
        }
        serve();
        return 0;
    }
    if (strcmp(mode, "chatty") == 0) {
        g_chatty = 1;
        serve();
        return 0;
    }
    if (strcmp(mode, "dropper") == 0 || strcmp(mode, "late") == 0) {
        g_dropper = strcmp(mode, "dropper") == 0;
        g_late = !g_dropper;
        serve();
        free(g_held);
        return 0;
    }
    if (strcmp(mode, "env") == 0 && argc > 2) {
        const char *v = getenv(argv[2]);
        printf("%s\n", v ? v : "(unset)");
        return 0;
    }
    serve();
    return 0;
}
