/*
 * rt.h - an in-memory driver for the reference server library (test-local).
 *
 * rt_t owns a server and captures every line it emits. Tests send lines with
 * rt_send(), then look at the captured output with rt_response() (the
 * response to an id), rt_count() (messages with a method) and rt_line().
 * Every emitted line is checked on capture: it ends in exactly one "\n" and
 * parses as JSON.
 */
#ifndef MC_TESTS_REFSERVER_RT_H
#define MC_TESTS_REFSERVER_RT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "refserver/refserver.h"

#define RT_MAX_LINES 8192

typedef struct rt {
    mc_refserver_t *rs;
    char *lines[RT_MAX_LINES]; /* captured lines, newline removed */
    size_t n;
    int64_t now;
} rt_t;

static inline void rt_emit(void *ctx, const char *line, size_t len)
{
    rt_t *t = ctx;
    char *copy;

    assert_true(len > 0 && line[len - 1] == '\n');
    assert_null(memchr(line, '\n', len - 1));
    assert_true(t->n < RT_MAX_LINES);
    copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, line, len - 1);
    copy[len - 1] = '\0';
    t->lines[t->n++] = copy;
}

/* Frees the captured lines. */
static inline void rt_clear(rt_t *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        free(t->lines[i]);
    t->n = 0;
}

/* Creates the server; step delay defaults to "none" unless opts says otherwise. */
static inline void rt_open(rt_t *t, const mc_refserver_opts_t *opts)
{
    mc_refserver_opts_t o;
    mc_errbuf_t eb;

    memset(t, 0, sizeof(*t));
    memset(&o, 0, sizeof(o));
    if (opts != NULL)
        o = *opts;
    if (o.step_delay_ms == 0)
        o.step_delay_ms = -1;
    mc_errbuf_clear(&eb);
    t->rs = mc_refserver_new(&o, rt_emit, t, &eb);
    if (t->rs == NULL)
        fail_msg("mc_refserver_new: %s", eb.msg);
    t->now = 1000;
}

static inline void rt_close(rt_t *t)
{
    mc_refserver_free(t->rs);
    rt_clear(t);
}

/* Sends one line (printf-style). */
static inline void rt_send(rt_t *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void rt_send(rt_t *t, const char *fmt, ...)
{
    static char buf[1 << 16];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof(buf));
    assert_int_equal(mc_refserver_handle(t->rs, buf, (size_t)n, t->now), MC_OK);
}

/* Sends raw bytes. */
static inline void rt_send_raw(rt_t *t, const char *buf, size_t len)
{
    assert_int_equal(mc_refserver_handle(t->rs, buf, len, t->now), MC_OK);
}

/* Advances the clock and runs timers. */
static inline void rt_advance(rt_t *t, int64_t ms)
{
    t->now += ms;
    assert_int_equal(mc_refserver_tick(t->rs, t->now), MC_OK);
}

/* Parses captured line i (new reference). */
static inline json_object *rt_line(rt_t *t, size_t i)
{
    json_object *o;

    assert_true(i < t->n);
    o = json_tokener_parse(t->lines[i]);
    if (o == NULL)
        fail_msg("not JSON: %s", t->lines[i]);
    return o;
}

/* The response (result or error) with integer id, or NULL (new reference).
 * Fails when more than one response has that id. */
static inline json_object *rt_find(rt_t *t, long id)
{
    json_object *found = NULL, *o, *v, *m;
    size_t i;

    for (i = 0; i < t->n; i++) {
        o = rt_line(t, i);
        if (json_object_is_type(o, json_type_object) &&
            !json_object_object_get_ex(o, "method", &m) && json_object_object_get_ex(o, "id", &v) &&
            json_object_is_type(v, json_type_int) && json_object_get_int64(v) == id) {
            if (found != NULL)
                fail_msg("two responses with id %ld", id);
            found = o;
        } else {
            json_object_put(o);
        }
    }
    return found;
}

/* Like rt_find, but the response must exist. */
static inline json_object *rt_response(rt_t *t, long id)
{
    json_object *o = rt_find(t, id);

    if (o == NULL)
        fail_msg("no response with id %ld", id);
    return o;
}

/* Follows a path of object keys and array indexes ("result.tools.0.name"). Borrowed. */
static inline json_object *rt_at(json_object *o, const char *path)
{
    char key[128];
    const char *p = path;

    while (o != NULL && *p != '\0') {
        size_t n = strcspn(p, ".");
        assert_true(n < sizeof(key));
        memcpy(key, p, n);
        key[n] = '\0';
        p += n;
        if (*p == '.')
            p++;
        if (json_object_is_type(o, json_type_array)) {
            size_t idx = (size_t)strtoul(key, NULL, 10);
            o = idx < json_object_array_length(o) ? json_object_array_get_idx(o, idx) : NULL;
        } else if (json_object_is_type(o, json_type_object)) {
            json_object *v = NULL;
            o = json_object_object_get_ex(o, key, &v) ? v : NULL;
        } else {
            o = NULL;
        }
    }
    return o;
}

/* The string at path, or NULL. */
static inline const char *rt_str(json_object *o, const char *path)
{
    json_object *v = rt_at(o, path);

    return v != NULL && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
                                                                  : NULL;
}

/* The integer at path (fails when missing). */
static inline long rt_int(json_object *o, const char *path)
{
    json_object *v = rt_at(o, path);

    if (v == NULL || !json_object_is_type(v, json_type_int))
        fail_msg("no integer at %s", path);
    return (long)json_object_get_int64(v);
}

/* Error code of a response, or 0 when it is a result. */
static inline long rt_error_code(json_object *resp)
{
    return rt_at(resp, "error") != NULL ? rt_int(resp, "error.code") : 0;
}

/* Counts captured messages with this method. */
static inline size_t rt_count(rt_t *t, const char *method)
{
    size_t i, c = 0;

    for (i = 0; i < t->n; i++) {
        json_object *o = rt_line(t, i);
        const char *m = rt_str(o, "method");
        if (m != NULL && strcmp(m, method) == 0)
            c++;
        json_object_put(o);
    }
    return c;
}

/* The k-th captured message with this method (new reference), or NULL. */
static inline json_object *rt_nth(rt_t *t, const char *method, size_t k)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        json_object *o = rt_line(t, i);
        const char *m = rt_str(o, "method");
        if (m != NULL && strcmp(m, method) == 0 && k-- == 0)
            return o;
        json_object_put(o);
    }
    return NULL;
}

/* Initializes a session with version and client capabilities (JSON text),
 * sends notifications/initialized, checks the answer and clears the output. */
static inline void rt_init(rt_t *t, const char *version, const char *caps)
{
    json_object *r;

    rt_send(t,
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
            "\"protocolVersion\":\"%s\",\"capabilities\":%s,\"clientInfo\":{\"name\":\"rt\","
            "\"version\":\"1\"}}}",
            version, caps != NULL ? caps : "{}");
    r = rt_response(t, 0);
    assert_non_null(rt_at(r, "result.capabilities"));
    json_object_put(r);
    rt_send(t, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    rt_clear(t);
}

/* Sends a request with id and params (JSON text or NULL) and returns its
 * response (new reference). */
static inline json_object *rt_call(rt_t *t, long id, const char *method, const char *params)
{
    if (params != NULL)
        rt_send(t, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\",\"params\":%s}", id, method,
                params);
    else
        rt_send(t, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\"}", id, method);
    return rt_response(t, id);
}

#endif /* MC_TESTS_REFSERVER_RT_H */
