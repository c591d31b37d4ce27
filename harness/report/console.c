#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *color_of(mc_verdict_t v)
{
    switch (v) {
    case MC_PASS:
        return "\033[32m";
    case MC_FAIL:
    case MC_ERROR:
        return "\033[1;31m";
    case MC_WARN:
        return "\033[33m";
    case MC_NOT_VERIFIED:
        return "\033[35m";
    default:
        return "\033[36m";
    }
}

typedef struct out {
    char *p;
    size_t n, len;
} out_t;

static void put(out_t *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(out_t *o, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (o->len + 1 >= o->n)
        return;
    va_start(ap, fmt);
    k = vsnprintf(o->p + o->len, o->n - o->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        o->len += (size_t)k < o->n - o->len ? (size_t)k : o->n - o->len - 1;
}

static void verdict(out_t *o, mc_verdict_t v, int color, int width)
{
    if (color)
        put(o, "%s%-*s\033[0m", color_of(v), width, mc_verdict_name(v));
    else
        put(o, "%-*s", width, mc_verdict_name(v));
}

size_t mc_report_console_scenario(const mc_scenario_result_t *r, int color, int verbose,
                                  char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    size_t i;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    verdict(&o, r->verdict, color, 12);
    put(&o, " %s [%s] (%lld ms)\n", r->id, r->version, (long long)r->duration_ms);
    if (r->reason != NULL)
        put(&o, "             %s\n", r->reason);
    for (i = 0; i < r->n_checks; i++) {
        const mc_check_result_t *c = &r->checks[i];
        if (c->verdict == MC_PASS && !verbose)
            continue;
        put(&o, "             ");
        verdict(&o, c->verdict, color, 5);
        put(&o, " %s", c->id);
        if (c->message != NULL)
            put(&o, ": %s", c->message);
        if (c->seq > 0)
            put(&o, " (message %llu)", (unsigned long long)c->seq);
        put(&o, "\n");
        if (c->verdict != MC_PASS && c->ref[0] != '\0')
            put(&o, "                   %s %s\n", mc_level_name(c->level), c->ref);
    }
    if (r->verdict == MC_ERROR && r->stderr_tail != NULL && r->stderr_tail[0] != '\0') {
        const char *tail = r->stderr_tail;
        size_t len = strlen(tail);
        if (len > 600)
            tail += len - 600;
        put(&o, "             stderr tail:\n");
        while (*tail != '\0') {
            const char *nl = strchr(tail, '\n');
            size_t l = nl ? (size_t)(nl - tail) : strlen(tail);
            put(&o, "               | %.*s\n", (int)l, tail);
            tail += l + (nl ? 1 : 0);
        }
    }
    return o.len;
}

size_t mc_report_console_summary(const mc_run_result_t *run, int color, char *buf, size_t n)
{
    out_t o = {buf, n, 0};

    if (n == 0)
        return 0;
    buf[0] = '\0';
    (void)color;
    put(&o, "%zu passed, %zu failed", run->count[MC_PASS] + run->count[MC_INFO],
        run->count[MC_FAIL] + (run->strict ? run->count[MC_WARN] : 0));
    if (run->count[MC_WARN] > 0)
        put(&o, ", %zu warnings", run->count[MC_WARN]);
    if (run->count[MC_SKIP] > 0)
        put(&o, ", %zu skipped", run->count[MC_SKIP]);
    if (run->count[MC_NOT_VERIFIED] > 0)
        put(&o, ", %zu not verified", run->count[MC_NOT_VERIFIED]);
    if (run->count[MC_ERROR] > 0)
        put(&o, ", %zu errors", run->count[MC_ERROR]);
    if (run->partial)
        put(&o, " (partial: the run was interrupted)");
    put(&o, "\n");
    return o.len;
}
