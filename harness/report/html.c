/*
 * html.c - report.html: one self-contained page (inline CSS and script, no
 * network fetch; a Content-Security-Policy forbids any). A summary, the
 * matrix of areas x verdicts, then per scenario its checks (expected vs
 * actual), the message transcript with directions and times, and the
 * target's stderr tail. The layout reflows on a phone, and printing opens
 * every section and drops the controls.
 *
 * Every string from the run is escaped; no run data goes into the script,
 * which only reads data-* attributes. The style, the script and the frame
 * around the content are in html_page.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define MS_PER_S 1000
#define MS_PER_MIN 60000

/* ---- pieces ------------------------------------------------------------------- */

static void h(mc__buf_t *b, const char *s)
{
    mc__buf_html(b, s);
}

static void badge(mc__buf_t *b, const char *cls, const char *label)
{
    mc__buf_printf(b, "<span class=\"badge %s\">%s</span>", cls, label);
}

static void duration(mc__buf_t *b, int64_t ms)
{
    if (ms < MS_PER_S)
        mc__buf_printf(b, "%lld ms", (long long)ms);
    else if (ms < MS_PER_MIN)
        mc__buf_printf(b, "%.1f s", (double)ms / MS_PER_S);
    else
        mc__buf_printf(b, "%lld min %lld s", (long long)(ms / MS_PER_MIN),
                       (long long)((ms / MS_PER_S) % 60));
}

static void spec_link(mc__buf_t *b, const char *ref)
{
    char url[1200];

    if (!mc__spec_url(ref, url, sizeof(url)))
        return;
    mc__buf_puts(b, "<a href=\"");
    h(b, url);
    mc__buf_puts(b, "\" rel=\"noreferrer\">");
    h(b, ref);
    mc__buf_puts(b, "</a>");
}

/* Appends a transcript line, cut at MC_REPORT_HTML_MAX_LINE bytes (on a
 * character boundary). */
static void tx_text(mc__buf_t *b, const mc_tx_line_t *t)
{
    size_t kept = t->len > MC_RESULT_MAX_TX_LINE ? MC_RESULT_MAX_TX_LINE : t->len;
    size_t show;

    if (t->line == NULL || kept > strlen(t->line))
        kept = t->line != NULL ? strlen(t->line) : 0;
    show = kept;
    if (show > MC_REPORT_HTML_MAX_LINE) {
        show = MC_REPORT_HTML_MAX_LINE;
        while (show > 0 && ((unsigned char)t->line[show] & 0xC0) == 0x80)
            show--;
    }
    if (show == 0 && t->len == 0) {
        mc__buf_puts(b, "<span class=\"small\">(empty line)</span>");
        return;
    }
    mc__buf_xml(b, t->line, show, 0);
    if (show < t->len)
        mc__buf_printf(b, " <span class=\"small\">&hellip; (%zu bytes in all)</span>", t->len);
}

/* The label a scenario shows: a failure the baseline lists is KNOWN. */
static void scenario_label(const mc_report_t *rep, size_t i, const char **cls, const char **label)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];

    if (mc__known(rep, i) != NULL && mc_report_scenario_fails(rep, i)) {
        *cls = "v-known";
        *label = "KNOWN";
    } else {
        *cls = mc__verdict_class(r->verdict);
        *label = mc_verdict_name(r->verdict);
    }
}

static void check_row(mc__buf_t *b, const mc_report_t *rep, size_t i, size_t k)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    const mc_check_result_t *c = &r->checks[k];
    const char *known = mc_report_check_known(rep, i, k);

    mc__buf_puts(b, "<tr><td class=\"v\">");
    badge(b, mc__verdict_class(c->verdict), mc_verdict_name(c->verdict));
    if (known != NULL && c->verdict != MC_PASS) {
        mc__buf_puts(b, " ");
        badge(b, "v-known", "KNOWN");
    }
    mc__buf_puts(b, "</td><td><div class=\"cid mono\">");
    h(b, c->id);
    mc__buf_printf(b, "</div><div class=\"small\">%s", mc_level_name(c->level));
    if (c->author) {
        /* The author's rule, never the spec's. */
        mc__buf_puts(b, " &middot; <span class=\"author\">" MC_REPORT_AUTHOR_LABEL "</span>");
        if (c->link != NULL &&
            (strncmp(c->link, "https://", 8) == 0 || strncmp(c->link, "http://", 7) == 0)) {
            mc__buf_puts(b, " &middot; <a href=\"");
            h(b, c->link);
            mc__buf_puts(b, "\" rel=\"noreferrer\">");
            h(b, c->link);
            mc__buf_puts(b, "</a>");
        }
    } else if (c->ref[0] != '\0') {
        mc__buf_puts(b, " &middot; ");
        spec_link(b, c->ref);
    }
    mc__buf_printf(b, " &middot; %u evaluation%s", c->evals, c->evals == 1 ? "" : "s");
    if (c->fails > 0)
        mc__buf_printf(b, ", %u failed", c->fails);
    mc__buf_puts(b, "</div>");
    {
        /* The spec's verdict stays; the gate's decision sits beside it. */
        char gw[MC_RESULT_MAX_TEXT + 64];
        mc_report_gate_words(c, rep->run.fail_on, gw, sizeof(gw));
        if (gw[0] != '\0') {
            mc__buf_printf(b, "<div class=\"gate\">%s in the spec; ", mc_verdict_name(c->verdict));
            h(b, gw);
            mc__buf_puts(b, "</div>");
        }
    }
    if (c->quote[0] != '\0') {
        /* The spec's words (or the author's), quoted; the harness's reading
         * apart from them. */
        mc__buf_puts(b, c->author ? "<div class=\"req\">Your rule: <q>"
                                  : "<div class=\"req\">Spec: <q>");
        h(b, c->quote);
        mc__buf_puts(b, "</q></div>");
    }
    if (c->interpretation != NULL && c->interpretation[0] != '\0') {
        mc__buf_puts(b, "<div class=\"reading\">Our reading: ");
        h(b, c->interpretation);
        mc__buf_puts(b, "</div>");
    }
    if (c->verdict != MC_PASS) {
        if (c->message != NULL) {
            mc__buf_puts(b, "<div class=\"msg\">");
            h(b, c->message);
            mc__buf_puts(b, "</div>");
        }
        if (c->expected != NULL || c->actual != NULL) {
            mc__buf_puts(b, "<div class=\"ea\"><div><b>expected</b><code>");
            h(b, c->expected != NULL ? c->expected : "");
            mc__buf_puts(b, "</code></div><div><b>actual</b><code>");
            h(b, c->actual != NULL ? c->actual : "");
            mc__buf_puts(b, "</code></div></div>");
        }
        mc__buf_puts(b, "<div class=\"small\">");
        h(b, mc__relpath(r->file, rep->base_dir));
        mc__buf_printf(b, ":%d", c->line > 0 ? c->line : 1);
        if (c->path != NULL && c->path[0] != '\0') {
            mc__buf_puts(b, " &middot; at <code>");
            h(b, c->path);
            mc__buf_puts(b, "</code>");
        }
        if (c->seq > 0)
            mc__buf_printf(b, " &middot; <a href=\"#s%zu-m%llu\">message %llu</a>", i,
                           (unsigned long long)c->seq, (unsigned long long)c->seq);
        if (known != NULL) {
            mc__buf_puts(b, " &middot; known: ");
            h(b, known);
        }
        mc__buf_puts(b, "</div>");
    }
    mc__buf_puts(b, "</td></tr>\n");
}

static int seq_is_bad(const mc_scenario_result_t *r, uint64_t seq)
{
    size_t k;

    for (k = 0; k < r->n_checks; k++)
        if (r->checks[k].verdict != MC_PASS && r->checks[k].seq == seq)
            return 1;
    return 0;
}

/* The gate's say on run i, beside its verdict, when the two differ. */
static void gate_badge(mc__buf_t *b, const mc_report_t *rep, size_t i)
{
    mc_verdict_t v = rep->run.scenarios[i].verdict;
    mc_outcome_t out = mc_report_outcome(rep, i);

    if (out == MC_OUT_FAIL && v != MC_FAIL) {
        mc__buf_puts(b, " ");
        badge(b, "v-fail", "FAILED BY YOUR GATE");
    } else if (out == MC_OUT_IGNORED) {
        mc__buf_puts(b, " ");
        badge(b, "v-skip", "IGNORED BY YOUR GATE");
    } else if (out == MC_OUT_WARN && v == MC_FAIL) {
        mc__buf_puts(b, " ");
        badge(b, "v-warn", "WARNING BY YOUR GATE");
    }
}

static void scenario(mc__buf_t *b, const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    const char *cls, *label, *known = mc__known(rep, i);
    int bad = r->verdict == MC_FAIL || r->verdict == MC_ERROR || r->verdict == MC_WARN ||
              mc_report_scenario_fails(rep, i);
    size_t k;

    scenario_label(rep, i, &cls, &label);
    mc__buf_printf(b, "<details class=\"sc %s\" id=\"s%zu\" data-v=\"%s\" data-k=\"", cls, i,
                   label);
    {
        /* Lower-case search key: id, version and title. */
        mc__buf_t key;
        size_t j;
        mc__buf_init(&key);
        mc__buf_puts(&key, r->id);
        mc__buf_puts(&key, " ");
        mc__buf_puts(&key, r->version);
        mc__buf_puts(&key, " ");
        mc__buf_puts(&key, r->title);
        for (j = 0; j < key.len; j++)
            if (key.p[j] >= 'A' && key.p[j] <= 'Z')
                key.p[j] = (char)(key.p[j] - 'A' + 'a');
        h(b, key.p);
        mc__buf_free(&key);
    }
    /* data-o: the outcome, so that the Failing filter shows what the gate fails. */
    mc__buf_printf(b, "\"%s data-o=\"%s\"><summary>", bad && known == NULL ? " open" : "",
                   mc_outcome_key(mc_report_outcome(rep, i)));
    badge(b, cls, label);
    gate_badge(b, rep, i);
    mc__buf_puts(b, " <span class=\"sid mono\">");
    h(b, r->id);
    mc__buf_puts(b, "</span><span class=\"ver\">");
    h(b, r->version);
    mc__buf_puts(b, "</span><span class=\"ttl\">");
    h(b, r->title);
    mc__buf_puts(b, "</span><span class=\"dur\">");
    duration(b, r->duration_ms);
    mc__buf_puts(b, "</span></summary>\n<div class=\"body\">\n");
    if (known != NULL && mc_report_scenario_fails(rep, i)) {
        mc__buf_printf(b, "<p class=\"reason\">%s, listed in the baseline: ",
                       mc_verdict_name(r->verdict));
        h(b, known);
        mc__buf_puts(b, "</p>\n");
    }
    if (r->reason != NULL) {
        mc__buf_puts(b, "<p class=\"reason\">");
        h(b, r->reason);
        mc__buf_puts(b, "</p>\n");
    }
    mc__buf_puts(b, "<p class=\"where\">");
    h(b, mc__relpath(r->file, rep->base_dir));
    if (r->exit_desc != NULL) {
        mc__buf_puts(b, " &middot; server ");
        h(b, r->exit_desc);
    }
    mc__buf_puts(b, "</p>\n");
    {
        /* What broke first; what held below it, folded when something broke. */
        size_t broke = 0, held;
        for (k = 0; k < r->n_checks; k++)
            broke += r->checks[k].verdict != MC_PASS;
        held = r->n_checks - broke;
        if (broke > 0) {
            mc__buf_puts(b, "<div class=\"scroll\"><table class=\"checks\"><thead><tr>"
                            "<th>Verdict</th><th>Check</th></tr></thead><tbody>\n");
            for (k = 0; k < r->n_checks; k++)
                if (r->checks[k].verdict != MC_PASS)
                    check_row(b, rep, i, k);
            mc__buf_puts(b, "</tbody></table></div>\n");
        }
        if (held > 0) {
            if (broke > 0)
                mc__buf_printf(b, "<details class=\"tx\"><summary>%zu check%s held</summary>\n",
                               held, held == 1 ? "" : "s");
            mc__buf_puts(b, "<div class=\"scroll\"><table class=\"checks\"><thead><tr>"
                            "<th>Verdict</th><th>Check</th></tr></thead><tbody>\n");
            for (k = 0; k < r->n_checks; k++)
                if (r->checks[k].verdict == MC_PASS)
                    check_row(b, rep, i, k);
            mc__buf_puts(b, "</tbody></table></div>\n");
            if (broke > 0)
                mc__buf_puts(b, "</details>\n");
        }
    }
    if (r->n_tx > 0) {
        mc__buf_printf(b, "<details class=\"tx\"%s><summary>Transcript (%zu message%s%s)</summary>"
                          "\n<ol class=\"tx\">\n",
                       bad ? " open" : "", r->n_tx, r->n_tx == 1 ? "" : "s",
                       r->tx_truncated ? ", truncated" : "");
        for (k = 0; k < r->n_tx; k++) {
            const mc_tx_line_t *t = &r->tx[k];
            mc__buf_printf(b, "<li id=\"s%zu-m%llu\"%s><span class=\"seq\">%llu</span>"
                              "<span class=\"t\">%lld ms</span><span class=\"d %s\" title=\"%s\">"
                              "%s</span><code>",
                           i, (unsigned long long)t->seq,
                           !t->outbound && seq_is_bad(r, t->seq) ? " class=\"bad\"" : "",
                           (unsigned long long)t->seq, (long long)t->t_ms,
                           t->outbound ? "out" : "in",
                           t->outbound ? "client to server" : "server to client",
                           t->outbound ? "&rarr;" : "&larr;");
            tx_text(b, t);
            mc__buf_puts(b, "</code></li>\n");
        }
        mc__buf_puts(b, "</ol></details>\n");
    }
    if (r->stderr_tail != NULL && r->stderr_tail[0] != '\0') {
        mc__buf_puts(b, "<h4>stderr tail</h4><pre class=\"stderr\">");
        h(b, r->stderr_tail);
        mc__buf_puts(b, "</pre>\n");
    }
    mc__buf_puts(b, "</div></details>\n");
}

/* ---- sections ------------------------------------------------------------------ */

static void meta(mc__buf_t *b, const char *k, const char *v)
{
    if (v == NULL || v[0] == '\0')
        return;
    mc__buf_printf(b, "<dt>%s</dt><dd>", k);
    h(b, v);
    mc__buf_puts(b, "</dd>");
}

/* The gate's decision on a cause's first finding, when it has one. */
static void attention_gate(mc__buf_t *b, const mc_report_t *rep, const mc_report_cause_t *c)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[c->scenario];
    char gw[MC_RESULT_MAX_TEXT + 64];

    if (c->check == NULL || c->check_index >= r->n_checks)
        return;
    mc_report_gate_words(&r->checks[c->check_index], rep->run.fail_on, gw, sizeof(gw));
    if (gw[0] == '\0')
        return;
    mc__buf_printf(b, "<div class=\"gate\">%s in the spec; ", mc_verdict_name(c->verdict));
    h(b, gw);
    mc__buf_puts(b, "</div>");
}

/* What fails the run (and warnings), grouped by cause: one item per check id
 * failing for the same reason, with the message, how often, and links to the
 * scenario runs that show it (at most a screenful of each). */
static void attention(mc__buf_t *b, const mc_report_t *rep)
{
    mc_report_cause_t *cs = NULL;
    size_t n_cs = 0, findings = 0, i;

    if (mc_report_causes(rep, &cs, &n_cs, &findings) != MC_OK) {
        mc__buf_puts(b, "<h2>Needs attention</h2>\n<p class=\"small\">Out of memory grouping "
                        "the failures; see the scenarios below.</p>\n");
        return;
    }
    if (n_cs == 0) {
        free(cs);
        return;
    }
    mc__buf_printf(b, "<h2>Needs attention</h2>\n<p class=\"small\">%zu finding%s, %zu "
                      "cause%s</p>\n<ul class=\"plain att\">\n",
                   findings, findings == 1 ? "" : "s", n_cs, n_cs == 1 ? "" : "s");
    for (i = 0; i < n_cs && i < MC_REPORT_HTML_MAX_CAUSES; i++) {
        const mc_report_cause_t *c = &cs[i];
        size_t j, links = 0;
        mc__buf_puts(b, "<li>");
        badge(b, mc__verdict_class(c->verdict), mc_verdict_name(c->verdict));
        if (c->check != NULL) {
            mc__buf_puts(b, " <span class=\"mono\">");
            h(b, c->check);
            mc__buf_printf(b, "</span> <span class=\"small\">%s%s</span>", mc_level_name(c->level),
                           rep->run.scenarios[c->scenario].checks[c->check_index].author
                               ? " &middot; " MC_REPORT_AUTHOR_LABEL
                               : "");
        } else {
            mc__buf_puts(b, " <span class=\"small\">scenario error</span>");
        }
        mc__buf_printf(b, " <span class=\"small\">&times;%zu</span><div>", c->count);
        h(b, c->message);
        mc__buf_puts(b, "</div>");
        attention_gate(b, rep, c);
        mc__buf_puts(b, "<div class=\"small\">");
        /* The runs that show this cause, in report order. */
        for (j = c->scenario; j < rep->run.n && links < MC_REPORT_HTML_CAUSE_LINKS; j++) {
            const mc_scenario_result_t *r = &rep->run.scenarios[j];
            size_t k;
            int hit = 0;
            if (c->check == NULL) {
                hit = r->verdict == MC_ERROR && mc__known(rep, j) == NULL &&
                      mc__cause_same(c, NULL, r->reason);
            } else {
                for (k = 0; k < r->n_checks && !hit; k++)
                    hit = r->checks[k].verdict == c->verdict &&
                          strcmp(r->checks[k].id, c->check) == 0 &&
                          mc_report_check_known(rep, j, k) == NULL &&
                          mc__cause_same(c, c->check, r->checks[k].message);
            }
            if (!hit)
                continue;
            mc__buf_printf(b, "%s<a href=\"#s%zu\" class=\"mono\">", links > 0 ? " &middot; " : "",
                           j);
            h(b, r->id);
            mc__buf_puts(b, "</a> ");
            h(b, r->version);
            links++;
        }
        if (c->count > links)
            mc__buf_printf(b, " &middot; &hellip; %zu in all", c->count);
        mc__buf_puts(b, "</div></li>\n");
    }
    if (n_cs > MC_REPORT_HTML_MAX_CAUSES)
        mc__buf_printf(b, "<li class=\"small\">&hellip; and %zu more causes (use the Failing "
                          "filter below)</li>\n",
                       n_cs - MC_REPORT_HTML_MAX_CAUSES);
    mc__buf_puts(b, "</ul>\n");
    free(cs);
}

static void summary(mc__buf_t *b, const mc_report_t *rep, const char *line)
{
    const mc_run_result_t *run = &rep->run;
    char dur[64];
    mc__buf_t d;

    mc__buf_puts(b, "<section id=\"summary\"><h1>Summary</h1>\n<p class=\"sumline\" "
                    "id=\"sumline\">");
    h(b, line);
    mc__buf_puts(b, "</p>\n");
    if (run->partial)
        mc__buf_printf(b, "<p class=\"banner\"><b>Partial report:</b> %s; "
                          "%zu scenario run%s did not happen (listed below).</p>\n",
                       run->partial_why ? run->partial_why : "the run was interrupted",
                       rep->n_not_run, rep->n_not_run == 1 ? "" : "s");
    if (rep->n_stale > 0)
        mc__buf_printf(b, "<p class=\"banner\"><b>Stale baseline:</b> %zu listed failure%s no "
                          "longer happen%s; see <a href=\"#baseline\">Baseline</a>.</p>\n",
                       rep->n_stale, rep->n_stale == 1 ? "" : "s", rep->n_stale == 1 ? "s" : "");
    mc__html_cards(b, rep);
    attention(b, rep);
    mc__buf_puts(b, "<dl class=\"meta\">");
    meta(b, "Target", run->target);
    meta(b, "Protocol versions", run->versions);
    meta(b, "Profile", run->profile);
    meta(b, "Started", run->started);
    mc__buf_init(&d);
    duration(&d, run->duration_ms);
    snprintf(dur, sizeof(dur), "%s", d.p != NULL ? d.p : "");
    mc__buf_free(&d);
    meta(b, "Duration", dur);
    meta(b, "Fails on", run->fail_on == MC_FAIL_ON_INFO   ? "info (any finding fails the run)"
                        : run->fail_on == MC_FAIL_ON_WARN ? "warn (a broken SHOULD fails the run)"
                                                          : "fail (a broken SHOULD is a warning)");
    meta(b, "Gate", rep->gate_path);
    meta(b, "Baseline", rep->baseline_path);
    if (run->seed != 0) {
        char seed[32];
        snprintf(seed, sizeof(seed), "%llu", (unsigned long long)run->seed);
        meta(b, "Seed", seed);
    }
    mc__buf_puts(b, "</dl></section>\n");
}

static void baseline_section(mc__buf_t *b, const mc_report_t *rep)
{
    size_t i;

    if (rep->baseline_path == NULL)
        return;
    mc__buf_puts(b, "<section id=\"baseline\"><h2>Baseline</h2>\n<p class=\"where\">");
    h(b, rep->baseline_path);
    mc__buf_printf(b, " &middot; %zu known failure%s in this run</p>\n", rep->n_known,
                   rep->n_known == 1 ? "" : "s");
    if (rep->n_notes == 0) {
        mc__buf_puts(b, "<p>Every entry was confirmed by this run.</p></section>\n");
        return;
    }
    mc__buf_puts(b, "<ul class=\"plain\">\n");
    for (i = 0; i < rep->n_notes; i++) {
        const mc_report_bnote_t *e = &rep->notes[i];
        mc__buf_puts(b, "<li>");
        badge(b, e->stale ? "v-fail" : "v-skip", e->stale ? "STALE" : "UNUSED");
        mc__buf_puts(b, " <code>");
        h(b, e->key);
        mc__buf_puts(b, "</code>: ");
        h(b, e->why);
        mc__buf_puts(b, e->stale ? " &mdash; remove the entry." : "");
        mc__buf_puts(b, " <span class=\"small\">(listed because: ");
        h(b, e->reason);
        mc__buf_puts(b, ")</span></li>\n");
    }
    mc__buf_puts(b, "</ul></section>\n");
}

static void not_run_item(mc__buf_t *b, const mc_report_notrun_t *e, size_t idx)
{
    mc__buf_printf(b, "<details class=\"sc v-notrun\" id=\"n%zu\" data-v=\"NOT-RUN\" data-k=\"",
                   idx);
    h(b, e->id);
    mc__buf_puts(b, "\"><summary>");
    badge(b, "v-notrun", "NOT RUN");
    mc__buf_puts(b, " <span class=\"sid mono\">");
    h(b, e->id);
    mc__buf_puts(b, "</span><span class=\"ver\">");
    h(b, e->version);
    mc__buf_puts(b, "</span><span class=\"ttl\">");
    h(b, e->title);
    mc__buf_puts(b, "</span></summary><div class=\"body\"><p class=\"reason\">");
    h(b, e->reason);
    mc__buf_puts(b, "</p></div></details>\n");
}

int mc_report_html(const mc_report_t *rep, char **out, size_t *len)
{
    mc__buf_t b;
    mc__area_row_t *rows;
    size_t n_rows, a, i;
    char line[1024], title[1400];
    int code = mc_report_exit_code(rep);
    size_t ll;

    rows = calloc(rep->run.n + rep->n_not_run + 1, sizeof(*rows));
    if (rows == NULL)
        return MC_ENOMEM;
    n_rows = mc__html_area_rows(rep, rows);
    mc_report_console_summary(rep, 0, line, sizeof(line));
    ll = strlen(line);
    if (ll > 0 && line[ll - 1] == '\n')
        line[ll - 1] = '\0';
    snprintf(title, sizeof(title), "mcpcheck: %s", line);

    mc__buf_init(&b);
    mc__html_head(&b, title);
    mc__buf_puts(&b, "<header class=\"top\"><div class=\"brand\">mcpcheck<small>MCP conformance "
                     "report</small></div>");
    mc__buf_printf(&b, "<div class=\"state %s\">%s</div></header>\n<main>\n",
                   code == 0 ? "pass" : code == 1 ? "fail" : "incomplete",
                   code == 0 ? "PASS" : code == 1 ? "FAIL" : "INCOMPLETE");
    summary(&b, rep, line);
    mc__html_areas_table(&b, rep, rows, n_rows);
    mc__report_matrix_html(&b, rep);
    baseline_section(&b, rep);

    mc__buf_puts(&b, "<section id=\"scenarios\"><h2>Scenarios</h2>\n<div class=\"filters\" "
                     "role=\"toolbar\"><button data-f=\"all\" aria-pressed=\"true\">All</button>"
                     "<button data-f=\"fail\" aria-pressed=\"false\">Failing</button>");
    if (rep->baseline_path != NULL)
        mc__buf_puts(&b, "<button data-f=\"known\" aria-pressed=\"false\">Known</button>");
    mc__buf_puts(&b, "<button data-f=\"skip\" aria-pressed=\"false\">Skipped</button>"
                     "<button data-f=\"pass\" aria-pressed=\"false\">Passed</button>"
                     "<input id=\"q\" type=\"search\" placeholder=\"Filter by id or title\" "
                     "aria-label=\"Filter scenarios\"></div>\n");
    for (a = 0; a < n_rows; a++) {
        mc__buf_puts(&b, "<div class=\"area\"><h3 id=\"area-");
        h(&b, rows[a].name);
        mc__buf_puts(&b, "\">");
        h(&b, rows[a].name);
        mc__buf_puts(&b, "</h3>\n");
        for (i = 0; i < rep->run.n; i++)
            if (strcmp(rep->run.scenarios[i].area, rows[a].name) == 0)
                scenario(&b, rep, i);
        for (i = 0; i < rep->n_not_run; i++)
            if (strcmp(rep->not_run[i].area, rows[a].name) == 0)
                not_run_item(&b, &rep->not_run[i], i);
        mc__buf_puts(&b, "</div>\n");
    }
    mc__buf_puts(&b, "</section>\n</main>\n");
    mc__html_foot(&b);
    free(rows);
    if (b.err != MC_OK) {
        int e = b.err;
        mc__buf_free(&b);
        return e;
    }
    *out = b.p;
    *len = b.len;
    return MC_OK;
}
