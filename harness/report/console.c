#include "report/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/fixtures.h"
#include "scenario/shapes.h"

/* Bytes of a target's stderr shown under an ERROR on the console. */
#define STDERR_TAIL_SHOWN 600
/* The progress counter is padded to the digits of the total, 2 to 4. */
#define COUNT_WIDTH_MIN 2
#define COUNT_WIDTH_MAX 4

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

/* The digits of total, held between COUNT_WIDTH_MIN and COUNT_WIDTH_MAX. */
static int count_width(size_t total)
{
    int w = 1;

    while (total >= 10 && w < COUNT_WIDTH_MAX) {
        total /= 10;
        w++;
    }
    return w < COUNT_WIDTH_MIN ? COUNT_WIDTH_MIN : w;
}

static void verdict(out_t *o, mc_verdict_t v, int color, int width)
{
    if (color)
        put(o, "%s%-*s\033[0m", color_of(v), width, mc_verdict_name(v));
    else
        put(o, "%-*s", width, mc_verdict_name(v));
}

/* Appends at most max bytes of s (on a character boundary), "..." when cut. */
static void put_cut(out_t *o, const char *s, size_t max)
{
    size_t n = strlen(s);

    if (n <= max) {
        put(o, "%s", s);
        return;
    }
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    put(o, "%.*s...", (int)max, s);
}

/* Appends at most max bytes of s with control bytes shown as '.' and bytes
 * that are not UTF-8 as '?' (the target's bytes must not drive the
 * terminal), "..." when cut. */
static void put_safe(out_t *o, const char *s, size_t len, size_t max)
{
    size_t i = 0, n = len < max ? len : max;

    while (i < n && o->len + 5 < o->n) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t k = c < 0x80 ? 1 : mc__utf8_seq((const unsigned char *)s + i, len - i, &cp);
        if (k == 0) {
            o->p[o->len++] = '?';
            i++;
            continue;
        }
        if (i + k > n)
            break;
        if (c < 0x20 || c == 0x7F) {
            o->p[o->len++] = '.';
        } else {
            memcpy(o->p + o->len, s + i, k);
            o->len += k;
        }
        i += k;
    }
    o->p[o->len] = '\0';
    if (i < len)
        put(o, "...");
}

/* The gate's decision on a broken check, on a line of its own, indented. */
static void put_gate(out_t *o, const mc_check_result_t *c, mc_fail_on_t fail_on,
                     const char *indent)
{
    char gw[MC_RESULT_MAX_TEXT + 64];

    mc_report_gate_words(c, fail_on, gw, sizeof(gw));
    if (gw[0] != '\0')
        put(o, "%s%s in the spec; %s\n", indent, mc_verdict_name(c->verdict), gw);
}

size_t mc_report_console_result(const mc_scenario_result_t *r, const mc_baseline_t *b,
                                mc_fail_on_t fail_on, int color, int verbose, char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    const char *known = mc_baseline_result_reason(b, r, fail_on);
    size_t i;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (known != NULL) {
        /* Listed in the baseline: shown, but it does not fail the run. */
        if (color)
            put(&o, "\033[36m%-12s\033[0m", "KNOWN");
        else
            put(&o, "%-12s", "KNOWN");
    } else {
        verdict(&o, r->verdict, color, 12);
    }
    put(&o, " %s [%s%s%s] (%lld ms)", r->id, r->version, r->tags != NULL ? ", " : "",
        r->tags != NULL ? r->tags : "", (long long)r->duration_ms);
    if (!verbose && (r->verdict == MC_SKIP || r->verdict == MC_NOT_VERIFIED)) {
        /* Folded: one line, the reason on it; -v shows the checks. */
        if (r->reason != NULL) {
            put(&o, ": ");
            put_cut(&o, r->reason, MC_REPORT_CONSOLE_REASON);
        }
        put(&o, "\n");
        return o.len;
    }
    put(&o, "\n");
    if (known != NULL)
        put(&o, "             %s, listed in the baseline: %s\n", mc_verdict_name(r->verdict),
            known);
    if (r->reason != NULL)
        put(&o, "             %s\n", r->reason);
    for (i = 0; i < r->n_checks; i++) {
        const mc_check_result_t *c = &r->checks[i];
        char url[1200];
        if (c->verdict == MC_PASS && !verbose)
            continue;
        put(&o, "             ");
        verdict(&o, c->verdict, color, 5);
        put(&o, " %s", c->id);
        if (c->message != NULL)
            put(&o, ": %s", c->message);
        if (c->seq > 0)
            put(&o, " (message %llu)", (unsigned long long)c->seq);
        if (c->verdict != MC_PASS && mc_baseline_check_reason(b, r, c->id) != NULL)
            put(&o, " [known]");
        put(&o, "\n");
        if (c->verdict == MC_PASS)
            continue;
        /* The spec's words, then (with -v) the harness's reading, apart; an
         * author's rule is shown as theirs, never as the spec's. */
        put(&o, "                   %s", mc_level_name(c->level));
        if (c->author)
            put(&o, " %s%s%s", MC_REPORT_AUTHOR_LABEL, c->link != NULL ? " " : "",
                c->link != NULL ? c->link : "");
        else if (mc__spec_url(c->ref, url, sizeof(url)))
            put(&o, " %s", url);
        put(&o, "\n");
        put_gate(&o, c, fail_on, "                   ");
        if (c->quote != NULL && c->quote[0] != '\0') {
            put(&o, "                   %s\"", c->author ? MC_REPORT_AUTHOR_LABEL ": " : "");
            put_cut(&o, c->quote, verbose ? MC_CHECK_MAX_QUOTE : MC_REPORT_CONSOLE_QUOTE);
            put(&o, "\"\n");
        }
        if (verbose && c->interpretation != NULL)
            put(&o, "                   reading: %s\n", c->interpretation);
    }
    if (r->verdict == MC_ERROR && r->stderr_tail != NULL && r->stderr_tail[0] != '\0') {
        const char *tail = r->stderr_tail;
        size_t len = strlen(tail);
        if (len > STDERR_TAIL_SHOWN)
            tail += len - STDERR_TAIL_SHOWN;
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

size_t mc_report_console_progress(size_t done, size_t total, size_t failed, int64_t elapsed_ms,
                                  int color, char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    size_t width = 24, fill = total > 0 ? done * width / total : width, i;
    int64_t s = elapsed_ms / 1000;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    put(&o, "[%*zu/%zu] ", count_width(total), done, total);
    for (i = 0; i < width; i++)
        put(&o, "%s", i < fill ? "#" : ".");
    if (failed > 0) {
        if (color)
            put(&o, "  \033[1;31m%zu failed\033[0m", failed);
        else
            put(&o, "  %zu failed", failed);
    }
    put(&o, "  %lld:%02lld", (long long)(s / 60), (long long)(s % 60));
    return o.len;
}

size_t mc_report_console_baseline(const mc_report_t *rep, int color, char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    size_t i;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    for (i = 0; i < rep->n_notes; i++) {
        const mc_report_bnote_t *e = &rep->notes[i];
        if (e->stale) {
            if (color)
                put(&o, "\033[1;31mSTALE\033[0m       ");
            else
                put(&o, "STALE       ");
            put(&o, " baseline entry \"%s\": %s; remove it from %s\n", e->key, e->why,
                rep->baseline_path);
        } else {
            put(&o, "note         baseline entry \"%s\" was not exercised: %s\n", e->key, e->why);
        }
    }
    return o.len;
}

size_t mc_report_console_summary(const mc_report_t *rep, int color, char *buf, size_t n)
{
    const mc_run_result_t *run = &rep->run;
    out_t o = {buf, n, 0};
    char counts[1024];

    if (n == 0)
        return 0;
    buf[0] = '\0';
    mc_report_counts_text(rep, counts, sizeof(counts));
    if (color && rep->outcomes[MC_OUT_FAIL] + rep->outcomes[MC_OUT_ERROR] > 0)
        put(&o, "\033[1;31m%s\033[0m", counts);
    else
        put(&o, "%s", counts);
    if (rep->n_stale > 0)
        put(&o, "; %zu stale baseline entr%s", rep->n_stale, rep->n_stale == 1 ? "y" : "ies");
    if (rep->n_not_run > 0)
        put(&o, "; %zu not run", rep->n_not_run);
    if (run->fail_on != MC_FAIL_ON_FAIL)
        put(&o, "; --fail-on %s", mc_fail_on_name(run->fail_on));
    if (run->partial)
        put(&o, " (partial: %s)", run->partial_why ? run->partial_why : "the run was interrupted");
    put(&o, "\n");
    return o.len;
}

size_t mc_report_console_area(const char *area, const size_t count[MC_VERDICT_COUNT],
                              char *buf, size_t n)
{
    static const mc_verdict_t order[] = {MC_FAIL, MC_ERROR, MC_WARN, MC_INFO, MC_NOT_VERIFIED,
                                         MC_SKIP};
    out_t o = {buf, n, 0};
    size_t total = 0, i;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    for (i = 0; i < MC_VERDICT_COUNT; i++)
        total += count[i];
    put(&o, "%-14s %4zu run%s: %zu PASS", area, total, total == 1 ? " " : "s", count[MC_PASS]);
    for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (count[order[i]] > 0)
            put(&o, ", %zu %s", count[order[i]], mc_verdict_name(order[i]));
    put(&o, "\n");
    return o.len;
}

size_t mc_report_console_missing(const mc_report_t *rep, int verbose, char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    mc_report_missing_t *ms = NULL;
    size_t n_ms = 0, total = 0, i, shown;
    int roles = 0;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (mc_report_missing(rep, &ms, &n_ms, &total) != MC_OK) {
        put(&o, "not verified: out of memory grouping the reasons\n");
        return o.len;
    }
    if (total == 0) {
        free(ms);
        return 0;
    }
    put(&o, "not verified (%zu run%s), by what is missing:\n", total, total == 1 ? "" : "s");
    {
        /* The runs that wait on a tool being called: one option fills them
         * or shows them not applicable. */
        size_t need_calls = 0;
        for (i = 0; i < n_ms; i++)
            if (ms[i].reason != NULL && strstr(ms[i].reason, "--call-tools") != NULL)
                need_calls += ms[i].count;
        if (need_calls > 0)
            put(&o, "  %zu of them wait on a tool being called: with --call-tools every listed "
                    "tool is called once (arguments from its inputSchema) and seen\n",
                need_calls);
    }
    shown = verbose || n_ms <= MC_REPORT_CONSOLE_MISSING ? n_ms : MC_REPORT_CONSOLE_MISSING;
    for (i = 0; i < shown; i++) {
        const mc_report_missing_t *m = &ms[i];
        if (m->role != NULL) {
            char base[128];
            mc_role_kind_t k = mc_role_kind(m->role, base, sizeof(base));
            roles = 1;
            put(&o, "  %-34s x%-4zu needs %s", m->role, m->count, mc_role_shape(base));
            if (k == MC_ROLE_MULTI_PAGE || k == MC_ROLE_SAFE_TOOLS)
                put(&o, "\n");
            else if (mc_role_seen_by(base) == MC_SEEN_CALL)
                /* A listed tool is seen to do it only when it may be called. */
                put(&o, "; --call-tools, or profile: \"roles\": {\"%s\": \"...\"}\n", m->role);
            else
                put(&o, "; profile: \"roles\": {\"%s\": \"...\"}\n", m->role);
        } else {
            put(&o, "  x%-4zu ", m->count);
            put_cut(&o, m->reason, MC_REPORT_CONSOLE_REASON);
            put(&o, "  (first: %s [%s])\n", rep->run.scenarios[m->scenario].id,
                rep->run.scenarios[m->scenario].version);
        }
    }
    if (shown < n_ms)
        put(&o, "  ... and %zu more (-v lists them all)\n", n_ms - shown);
    if (roles)
        put(&o, "  roles, their shapes and a profile's form: scenarios/profiles/README.md; "
                "'mcpcheck list --roles'\n");
    free(ms);
    return o.len;
}

/* The transcript line of seq in r, or NULL. */
static const mc_tx_line_t *tx_at(const mc_scenario_result_t *r, uint64_t seq)
{
    size_t k;

    for (k = 0; seq > 0 && k < r->n_tx; k++)
        if (r->tx[k].seq == seq)
            return &r->tx[k];
    return NULL;
}

/* The last line of a target's stderr that is not blank, cut. */
static void put_stderr_last(out_t *o, const char *tail)
{
    size_t end = strlen(tail), start;

    while (end > 0 && (tail[end - 1] == '\n' || tail[end - 1] == '\r' || tail[end - 1] == ' '))
        end--;
    if (end == 0)
        return;
    start = end;
    while (start > 0 && tail[start - 1] != '\n')
        start--;
    put(o, "        stderr: ");
    put_safe(o, tail + start, end - start, MC_REPORT_CONSOLE_TX);
    put(o, "\n");
}

/* Where a cause shows first: the step's file:line, the line the harness
 * sent last before the message judged, and that message. */
static void put_evidence(out_t *o, const mc_report_t *rep, const mc_report_cause_t *c)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[c->scenario];
    const mc_check_result_t *ck = c->check_index < r->n_checks ? &r->checks[c->check_index] : NULL;
    const mc_tx_line_t *got = ck != NULL ? tx_at(r, ck->seq) : NULL, *sent = NULL;
    size_t k;

    /* Wire and schema checks judge every message, not a step: no line. */
    if (ck != NULL && ck->line > 0)
        put(o, "        at %s:%d [%s]\n", mc__relpath(r->file, rep->base_dir), ck->line,
            r->version);
    else
        put(o, "        at %s [%s]\n", mc__relpath(r->file, rep->base_dir), r->version);
    if (ck == NULL && r->n_tx > 0) {
        /* A scenario ERROR: the last line sent, and what came after it. */
        for (k = 0; k < r->n_tx; k++) {
            if (r->tx[k].outbound) {
                sent = &r->tx[k];
                got = NULL;
            } else {
                got = &r->tx[k];
            }
        }
    } else if (got != NULL && got->outbound) {
        sent = got;
        got = NULL;
    } else if (got != NULL) {
        for (k = 0; k < r->n_tx && r->tx[k].seq < got->seq; k++)
            if (r->tx[k].outbound)
                sent = &r->tx[k];
    }
    if (sent != NULL) {
        put(o, "        sent: ");
        put_safe(o, sent->line, strlen(sent->line), MC_REPORT_CONSOLE_TX);
        put(o, "\n");
    }
    if (got != NULL) {
        put(o, "        got:  ");
        put_safe(o, got->line, strlen(got->line), MC_REPORT_CONSOLE_TX);
        put(o, "\n");
    } else if (ck != NULL && ck->actual != NULL) {
        put(o, "        actual: ");
        put_safe(o, ck->actual, strlen(ck->actual), MC_REPORT_CONSOLE_TX);
        put(o, "\n");
    }
    if (ck != NULL)
        put_gate(o, ck, rep->run.fail_on, "        ");
    if (ck == NULL && r->exit_desc != NULL)
        put(o, "        server: %s\n", r->exit_desc);
    if (ck == NULL && r->stderr_tail != NULL)
        put_stderr_last(o, r->stderr_tail);
}

size_t mc_report_console_causes(const mc_report_t *rep, int color, int verbose, char *buf,
                                size_t n)
{
    out_t o = {buf, n, 0};
    mc_report_cause_t *cs = NULL;
    size_t n_cs = 0, findings = 0, i, shown;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (mc_report_causes(rep, &cs, &n_cs, &findings) != MC_OK) {
        put(&o, "failures by cause: out of memory grouping them\n");
        return o.len;
    }
    if (n_cs == 0) {
        free(cs);
        return 0;
    }
    put(&o, "failures by cause (%zu finding%s, %zu cause%s):\n", findings,
        findings == 1 ? "" : "s", n_cs, n_cs == 1 ? "" : "s");
    shown = verbose || n_cs <= MC_REPORT_CONSOLE_CAUSES ? n_cs : MC_REPORT_CONSOLE_CAUSES;
    for (i = 0; i < shown; i++) {
        const mc_report_cause_t *c = &cs[i];
        const mc_scenario_result_t *r = &rep->run.scenarios[c->scenario];
        put(&o, "  ");
        verdict(&o, c->verdict, color, 5);
        put(&o, " %-6s %s%s  x%zu  ", c->check != NULL ? mc_level_name(c->level) : "-",
            c->check != NULL ? c->check : "(scenario error)",
            c->check != NULL && r->checks[c->check_index].author ? " (" MC_REPORT_AUTHOR_LABEL ")"
                                                                 : "",
            c->count);
        put_safe(&o, c->message != NULL ? c->message : "",
                 c->message != NULL ? strlen(c->message) : 0, MC_REPORT_CONSOLE_REASON);
        put(&o, "  (first: %s [%s])%s\n", r->id, r->version, c->fails ? "" : " - does not fail the run");
        put_evidence(&o, rep, c);
    }
    if (shown < n_cs)
        put(&o, "  ... and %zu more causes (-v lists them all; report.html groups them too)\n",
            n_cs - shown);
    free(cs);
    return o.len;
}

/* One line per group of INFO observations or SKIP reasons. */
static size_t grouped_lines(const mc_report_t *rep, int skips, int verbose, char *buf, size_t n)
{
    out_t o = {buf, n, 0};
    mc_report_cause_t *cs = NULL;
    size_t n_cs = 0, total = 0, i, shown;
    int rc;

    if (n == 0)
        return 0;
    buf[0] = '\0';
    rc = skips ? mc_report_skips(rep, &cs, &n_cs, &total)
               : mc_report_observations(rep, &cs, &n_cs, &total);
    if (rc != MC_OK) {
        put(&o, "%s: out of memory grouping them\n", skips ? "skipped" : "info");
        return o.len;
    }
    if (n_cs > 0)
        put(&o, "%s (%zu %s%s), by %s:\n", skips ? "skipped" : "info", total,
            skips ? "run" : "observation", total == 1 ? "" : "s", skips ? "reason" : "check");
    shown = verbose || n_cs <= MC_REPORT_CONSOLE_GROUPS ? n_cs : MC_REPORT_CONSOLE_GROUPS;
    for (i = 0; i < shown; i++) {
        const mc_report_cause_t *c = &cs[i];
        const mc_scenario_result_t *r = &rep->run.scenarios[c->scenario];
        put(&o, "  x%-4zu ", c->count);
        if (c->check != NULL)
            put(&o, "%s: ", c->check);
        put_safe(&o, c->message, strlen(c->message), MC_REPORT_CONSOLE_REASON);
        put(&o, "  (first: %s [%s])\n", r->id, r->version);
    }
    if (shown < n_cs)
        put(&o, "  ... and %zu more (-v lists them all)\n", n_cs - shown);
    free(cs);
    return o.len;
}

size_t mc_report_console_observations(const mc_report_t *rep, int verbose, char *buf, size_t n)
{
    return grouped_lines(rep, 0, verbose, buf, n);
}

size_t mc_report_console_skips(const mc_report_t *rep, int verbose, char *buf, size_t n)
{
    return grouped_lines(rep, 1, verbose, buf, n);
}
