/*
 * test_refserver_hostile.c - the reference server driven in memory with hostile input: --root
 * confinement, NUL in strings, and random objects and bytes.
 *
 * Each test creates its own server (rt_open), feeds it lines and inspects
 * what it emits.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

#define CAPS_ALL                                                                                   \
    "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{\"listChanged\":true}}"

/* ---- --root confinement ---- */

/* Writes a small file. */
static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Reads uri and returns the error code (0 on success); text receives the
 * text of a successful read. */
static long read_code(rt_t *t, long id, const char *uri, char *text, size_t cap)
{
    char params[4200];
    json_object *r;
    long code;

    snprintf(params, sizeof(params), "{\"uri\":\"%s\"}", uri);
    r = rt_call(t, id, "resources/read", params);
    code = rt_error_code(r);
    if (code == 0 && text != NULL)
        snprintf(text, cap, "%s", rt_str(r, "result.contents.0.text") ? rt_str(r, "result.contents.0.text") : "");
    json_object_put(r);
    return code;
}

/*
 * Every string the server takes as a name, URI, cursor or value is refused
 * with -32602 when it holds a NUL ("\u0000"): json-c keeps the length, but
 * C string functions stop at the NUL, so "test://static-text\u0000x" would
 * otherwise read test://static-text and answer with another uri.
 */
static void test_nul_in_strings(void **state)
{
    static const struct {
        const char *method, *params;
    } cases[] = {
        {"resources/read", "{\"uri\":\"test://static-text\\u0000x\"}"},
        {"resources/read", "{\"uri\":\"test://template/1\\u0000/data\"}"},
        {"resources/subscribe", "{\"uri\":\"test://watched-resource\\u0000\"}"},
        {"resources/unsubscribe", "{\"uri\":\"test://watched-resource\\u0000\"}"},
        {"resources/list", "{\"cursor\":\"\\u0000\"}"},
        {"resources/templates/list", "{\"cursor\":\"a\\u0000\"}"},
        {"prompts/list", "{\"cursor\":\"\\u0000b\"}"},
        {"tools/list", "{\"cursor\":\"\\u0000\"}"},
        {"prompts/get", "{\"name\":\"test_simple_prompt\\u0000\"}"},
        {"prompts/get", "{\"name\":\"test_prompt_with_arguments\",\"arguments\":"
                        "{\"arg1\":\"a\\u0000b\",\"arg2\":\"c\"}}"},
        {"tools/call", "{\"name\":\"test_simple_text\\u0000\",\"arguments\":{}}"},
        {"tools/call", "{\"name\":\"test_simple_text\",\"arguments\":{\"x\":\"\\u0000\"}}"},
        {"logging/setLevel", "{\"level\":\"info\\u0000\"}"},
        {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                                "\"test_prompt_with_arguments\\u0000\"},\"argument\":"
                                "{\"name\":\"arg1\",\"value\":\"\"}}"},
        {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":"
                                "\"test_prompt_with_arguments\"},\"argument\":"
                                "{\"name\":\"arg1\",\"value\":\"x\\u0000\"}}"},
    };
    rt_t t;
    size_t i;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-06-18", NULL);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_object *r = rt_call(&t, (long)i + 10, cases[i].method, cases[i].params);
        if (rt_error_code(r) != -32602)
            fail_msg("%s %s: expected -32602, got %s", cases[i].method, cases[i].params,
                     json_object_to_json_string(r));
        json_object_put(r);
    }
    /* The same requests without the NUL still work. */
    {
        json_object *r = rt_call(&t, 100, "resources/read", "{\"uri\":\"test://static-text\"}");
        assert_int_equal(rt_error_code(r), 0);
        assert_string_equal(rt_str(r, "result.contents.0.uri"), "test://static-text");
        json_object_put(r);
    }
    rt_close(&t);
}

static void test_root_confinement(void **state)
{
    char base[] = "/tmp/mc-refserver-rootXXXXXX";
    char root[300], path[400], uri[800], text[256];
    mc_refserver_opts_t o;
    rt_t t;
    json_object *r;
    long id = 0;
    size_t n;

    (void)state;
    assert_non_null(mkdtemp(base));
    snprintf(root, sizeof(root), "%s/root", base);
    assert_int_equal(mkdir(root, 0700), 0);
    snprintf(path, sizeof(path), "%s/secret.txt", base);
    put_file(path, "outside the root");
    snprintf(path, sizeof(path), "%s/hello.txt", root);
    put_file(path, "hello from the root");
    snprintf(path, sizeof(path), "%s/sub", root);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/sub/a b.md", root);
    put_file(path, "# spaced");
    snprintf(path, sizeof(path), "%s/out-link", root);
    snprintf(uri, sizeof(uri), "%s/secret.txt", base);
    assert_int_equal(symlink(uri, path), 0);
    snprintf(path, sizeof(path), "%s/in-link", root);
    assert_int_equal(symlink("hello.txt", path), 0);
    snprintf(path, sizeof(path), "%s/fifo", root);
    assert_int_equal(mkfifo(path, 0600), 0);

    memset(&o, 0, sizeof(o));
    o.root = root;
    o.page_size = 50;
    rt_open(&t, &o);
    rt_init(&t, "2025-06-18", NULL);
    /* Listed: the two regular files only (no symlinks, no fifo, no directories). */
    r = rt_call(&t, ++id, "resources/list", NULL);
    n = json_object_array_length(rt_at(r, "result.resources"));
    assert_int_equal(n, 5 + 2);
    assert_string_equal(rt_str(r, "result.resources.5.name"), "hello.txt");
    assert_non_null(strstr(rt_str(r, "result.resources.6.uri"), "/sub/a%20b.md"));
    snprintf(uri, sizeof(uri), "%s", rt_str(r, "result.resources.6.uri"));
    json_object_put(r);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    assert_string_equal(text, "# spaced");
    snprintf(uri, sizeof(uri), "file://%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    assert_string_equal(text, "hello from the root");
    snprintf(uri, sizeof(uri), "file://localhost%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), 0);
    /* A symlink that stays inside the root is followed. */
    snprintf(uri, sizeof(uri), "file://%s/in-link", root);
    assert_int_equal(read_code(&t, ++id, uri, text, sizeof(text)), 0);
    /* Refused: traversal, encoded traversal, absolute elsewhere, symlink out,
     * NUL, fifo, directory, a host, bad encoding. */
    snprintf(uri, sizeof(uri), "file://%s/../secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/%%2e%%2e/secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/sub/%%2E%%2E/%%2e%%2e/secret.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/secret.txt", base);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    assert_int_equal(read_code(&t, ++id, "file:///etc/passwd", NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/out-link", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/hello.txt%%00.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    /* A JSON "\u0000" inside the URI: C would see only secret.txt / hello.txt. */
    snprintf(uri, sizeof(uri), "file://%s/hello.txt\\u0000.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/../secret.txt\\u0000.png", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/fifo", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/sub", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://evil.example%s/hello.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/%%zz", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32602);
    snprintf(uri, sizeof(uri), "file://%s/missing.txt", root);
    assert_int_equal(read_code(&t, ++id, uri, NULL, 0), -32002);
    rt_close(&t);

    snprintf(path, sizeof(path), "%s/fifo", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/in-link", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/out-link", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub/a b.md", root);
    unlink(path);
    snprintf(path, sizeof(path), "%s/sub", root);
    rmdir(path);
    snprintf(path, sizeof(path), "%s/hello.txt", root);
    unlink(path);
    rmdir(root);
    snprintf(path, sizeof(path), "%s/secret.txt", base);
    unlink(path);
    rmdir(base);
}

/* ---- hostile input ---- */

/* ---- random input ---- */

/* What the test expects of one random line, judged by json-c on its own. */
static size_t rand_requests, rand_kindless;
enum rand_class { RAND_NOT_JSON, RAND_NOT_OBJECT, RAND_OBJECT, RAND_NCLASSES };

/* Classifies a line: not JSON (strict, UTF-8 checked), JSON that is not an
 * object, or an object. */
static enum rand_class rand_classify(const char *buf, size_t len, json_object **root)
{
    json_tokener *tok = json_tokener_new_ex(64);
    json_object *o;
    enum json_tokener_error err;
    int whole;

    assert_non_null(tok);
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    o = json_tokener_parse_ex(tok, buf, (int)len);
    err = json_tokener_get_error(tok);
    whole = (size_t)tok->char_offset == len;
    if (err == json_tokener_continue) {
        /* A bare scalar ("1") needs the end of input to be complete. */
        o = json_tokener_parse_ex(tok, "", 1);
        err = json_tokener_get_error(tok);
    }
    /* json-c returns NULL for the JSON value null: success decides. */
    if (err != json_tokener_success || !whole) {
        json_object_put(o);
        o = NULL;
        err = json_tokener_error_parse_unexpected;
    }
    json_tokener_free(tok);
    *root = o;
    if (err != json_tokener_success)
        return RAND_NOT_JSON;
    return json_object_is_type(o, json_type_object) ? RAND_OBJECT : RAND_NOT_OBJECT;
}

/* Every captured line is a JSON-RPC 2.0 message: an object with "jsonrpc":
 * "2.0" that is a request or notification (a string method), or a response
 * (an id and exactly one of result and error, the error with an integer code
 * and a string message). Returns the number of responses among them. */
static size_t rand_check_lines(rt_t *t, const char *input)
{
    size_t i, responses = 0;

    for (i = 0; i < t->n; i++) {
        json_object *o = rt_line(t, i);
        const char *v = rt_str(o, "jsonrpc");
        if (!json_object_is_type(o, json_type_object) || v == NULL || strcmp(v, "2.0") != 0)
            fail_msg("not a JSON-RPC 2.0 message after input <%s>: %s", input, t->lines[i]);
        if (rt_at(o, "method") == NULL) {
            int has_result = rt_at(o, "result") != NULL, has_error = rt_at(o, "error") != NULL;
            if (!json_object_object_get_ex(o, "id", NULL) || has_result == has_error)
                fail_msg("malformed response after input <%s>: %s", input, t->lines[i]);
            if (has_error && (rt_str(o, "error.message") == NULL ||
                              !json_object_is_type(rt_at(o, "error.code"), json_type_int)))
                fail_msg("malformed error after input <%s>: %s", input, t->lines[i]);
            responses++;
        } else if (rt_str(o, "method") == NULL) {
            fail_msg("non-string method after input <%s>: %s", input, t->lines[i]);
        }
        json_object_put(o);
    }
    return responses;
}

/* The single captured line is an error response with this code and a null
 * id. */
static void rand_expect_error(rt_t *t, long code, const char *input)
{
    json_object *o, *id = NULL;

    if (t->n != 1)
        fail_msg("input <%s>: %zu lines emitted, expected one error", input, t->n);
    o = rt_line(t, 0);
    if (rt_error_code(o) != code || !json_object_object_get_ex(o, "id", &id) || id != NULL)
        fail_msg("input <%s>: expected error %ld with id null, got %s", input, code, t->lines[0]);
    json_object_put(o);
}

/* What an object gets: a well-formed request (jsonrpc "2.0", a string
 * method, a string or integer id, params absent or an object, no result or
 * error beside them; every method the generator names is answered at once)
 * exactly one response that carries its id, a result for ping; an object
 * that is no message kind (no method, result or error) exactly one -32600. */
static void rand_expect_object(rt_t *t, json_object *root, size_t responses, const char *input)
{
    json_object *v = NULL, *m = NULL, *params = NULL, *id = NULL, *o;
    int has_method = json_object_object_get_ex(root, "method", &m);
    int has_result = json_object_object_get_ex(root, "result", NULL);
    int has_error = json_object_object_get_ex(root, "error", NULL);

    json_object_object_get_ex(root, "jsonrpc", &v);
    json_object_object_get_ex(root, "id", &id);
    if (json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), "2.0") == 0 &&
        json_object_is_type(m, json_type_string) && !has_result && !has_error &&
        (json_object_is_type(id, json_type_int) || json_object_is_type(id, json_type_string)) &&
        (!json_object_object_get_ex(root, "params", &params) ||
         json_object_is_type(params, json_type_object))) {
        if (t->n != 1 || responses != 1)
            fail_msg("input <%s>: a request got %zu lines", input, t->n);
        o = rt_line(t, 0);
        if (!json_object_equal(rt_at(o, "id"), id) ||
            (strcmp(json_object_get_string(m), "ping") == 0 && rt_at(o, "result") == NULL))
            fail_msg("input <%s>: the request got %s", input, t->lines[0]);
        json_object_put(o);
        rand_requests++;
    } else if (!has_method && !has_result && !has_error) {
        if (t->n != 1 || responses != 1)
            fail_msg("input <%s>: %zu lines, expected one -32600", input, t->n);
        o = rt_line(t, 0);
        if (rt_error_code(o) != -32600)
            fail_msg("input <%s>: expected -32600, got %s", input, t->lines[0]);
        json_object_put(o);
        rand_kindless++;
    }
}

/* Builds a random object from JSON-RPC members, each key at most once: one
 * of its variants or none. Returns the length written to buf. */
static size_t rand_object(unsigned *seed, char *buf, size_t cap)
{
    static const char *const members[][6] = {
        {"\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\"", "\"jsonrpc\":2"},
        {"\"id\":7", "\"id\":\"s\"", "\"id\":null", "\"id\":1.5", "\"id\":[]"},
        {"\"method\":\"ping\"", "\"method\":\"tools/list\"", "\"method\":\"tools/call\"",
         "\"method\":\"resources/read\"", "\"method\":\"notifications/cancelled\"",
         "\"method\":7"},
        {"\"params\":{\"name\":\"test_simple_text\"}", "\"params\":{\"uri\":\"test://static-text\"}",
         "\"params\":null", "\"params\":[]", "\"params\":{\"cursor\":\"\\u0000\"}"},
        {"\"result\":{}", "\"result\":null"},
        {"\"error\":{\"code\":1,\"message\":\"m\"}", "\"error\":{}"},
    };
    size_t len = 0, m;

    buf[len++] = '{';
    for (m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
        size_t n = 0, pick;
        while (n < 6 && members[m][n] != NULL)
            n++;
        /* The envelope members are absent about a third of the time, result
         * and error (which make a request invalid) about three times in four. */
        pick = ((*seed = *seed * 1103515245u + 12345u) >> 16) % (m < 4 ? n + n / 2 + 1 : 4 * n);
        if (pick >= n)
            continue;
        n = strlen(members[m][pick]);
        assert_true(len + n + 3 < cap);
        if (len > 1)
            buf[len++] = ',';
        memcpy(buf + len, members[m][pick], n);
        len += n;
    }
    buf[len++] = '}';
    return len;
}

/*
 * Lines made of random JSON-RPC fragments, and random objects made of
 * JSON-RPC members. json-c, used here on its own,
 * decides what each line is, and the server must answer accordingly: bytes
 * that are not JSON get one -32700 with id null, JSON that is not an object
 * one -32600 with id null (a 2025-11-25 session takes no batch), and whatever
 * comes, every emitted line is a well-formed JSON-RPC message, no input gets
 * two responses, and a response carries the id of the input or null. After
 * the storm, the session still answers. Each class of input must have been
 * generated, so the test cannot pass on a generator that went dull.
 */
static void test_random_input(void **state)
{
    static const char *const pieces[] = {
        "{", "}", "[", "]", "\"jsonrpc\"", ":", "\"2.0\"", ",", "\"id\"", "1", "\"method\"",
        "\"tools/call\"", "\"params\"", "{\"name\":\"test_elicitation\"}", "null", "\"cursor\"",
        "\"resources/read\"", "\"uri\"", "\"file:///etc/passwd\"", "\"initialize\"",
        "\"protocolVersion\"", "\"2025-11-25\"", "\xff", "\\u0000", "\"result\"", "-1e999"};
    char buf[512];
    size_t seen[RAND_NCLASSES] = {0, 0, 0};
    json_object *r;
    rt_t t;
    unsigned seed = 12345;
    int i, k;

    (void)state;
    rt_open(&t, NULL);
    rt_init(&t, "2025-11-25", CAPS_ALL);
    for (i = 0; i < 5000; i++) {
        size_t len = 0, responses;
        int parts = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 16;
        json_object *root, *in_id = NULL;
        enum rand_class cls;

        for (k = 0; i % 2 == 0 && k < parts; k++) {
            const char *p = pieces[((seed = seed * 1103515245u + 12345u) >> 16) %
                                   (sizeof(pieces) / sizeof(pieces[0]))];
            size_t n = strlen(p);
            if (len + n >= sizeof(buf))
                break;
            memcpy(buf + len, p, n);
            len += n;
        }
        if (i % 2 == 1)
            len = rand_object(&seed, buf, sizeof(buf));
        buf[len] = '\0';
        cls = rand_classify(buf, len, &root);
        seen[cls]++;
        rt_clear(&t);
        rt_send_raw(&t, buf, len);
        responses = rand_check_lines(&t, buf);
        if (cls == RAND_NOT_JSON) {
            rand_expect_error(&t, -32700, buf);
        } else if (cls == RAND_NOT_OBJECT) {
            rand_expect_error(&t, -32600, buf);
        } else {
            size_t j;
            if (responses > 1)
                fail_msg("input <%s>: %zu responses", buf, responses);
            json_object_object_get_ex(root, "id", &in_id);
            for (j = 0; j < t.n; j++) {
                json_object *o = rt_line(&t, j), *id = NULL;
                if (rt_at(o, "method") == NULL && json_object_object_get_ex(o, "id", &id) &&
                    id != NULL && !json_object_equal(id, in_id))
                    fail_msg("input <%s>: a response with an id it did not carry: %s", buf,
                             t.lines[j]);
                json_object_put(o);
            }
            rand_expect_object(&t, root, responses, buf);
        }
        json_object_put(root);
    }
    assert_true(rand_requests > 20);
    assert_true(rand_kindless > 20);
    assert_true(seen[RAND_NOT_JSON] > 100);
    assert_true(seen[RAND_NOT_OBJECT] > 10);
    assert_true(seen[RAND_OBJECT] > 100);
    rt_clear(&t);
    r = rt_call(&t, 424242, "ping", NULL);
    assert_true(json_object_is_type(rt_at(r, "result"), json_type_object));
    json_object_put(r);
    r = rt_call(&t, 424243, "tools/list", NULL);
    assert_true(json_object_is_type(rt_at(r, "result.tools"), json_type_array));
    json_object_put(r);
    rt_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nul_in_strings),
        cmocka_unit_test(test_root_confinement),
        cmocka_unit_test(test_random_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
