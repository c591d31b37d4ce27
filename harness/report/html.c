/*
 * html.c - report.html: one self-contained page (inline CSS and script, no
 * network fetch; a Content-Security-Policy forbids any). A summary, the
 * matrix of areas x verdicts, then per scenario its checks (expected vs
 * actual), the message transcript with directions and times, and the
 * target's stderr tail. The layout reflows on a phone, and printing opens
 * every section and drops the controls.
 *
 * Every string from the run is escaped; no run data goes into the script,
 * which only reads data-* attributes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

const char *mc__verdict_class(mc_verdict_t v)
{
    static const char *const cls[] = {"v-pass", "v-skip", "v-info", "v-nv",
                                       "v-warn", "v-fail", "v-error"};
    return (unsigned)v < MC_VERDICT_COUNT ? cls[v] : "v-error";
}

static const char css[] =
    ":root{--bg:#f6f8fa;--fg:#1f2328;--muted:#59636e;--card:#fff;--line:#d1d9e0;"
    "--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--info:#0969da;--skip:#6e7781;"
    "--nv:#8250df;--error:#a40e26;--known:#0a7c86;--code:#f6f8fa;--hl:#fff8c5}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
    "--card:#151b23;--line:#3d444d;--pass:#3fb950;--fail:#f85149;--warn:#d29922;"
    "--info:#4493f8;--skip:#9198a1;--nv:#ab7df8;--error:#ff7b72;--known:#39c5cf;"
    "--code:#0d1117;--hl:#3a3000}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"
    "'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;-webkit-text-size-adjust:100%}\n"
    "code,pre,.mono{font-family:ui-monospace,SFMono-Regular,'DejaVu Sans Mono',Menlo,Consolas,"
    "monospace;font-size:13px}\n"
    "a{color:var(--info)}\n"
    "header.top{display:flex;align-items:center;gap:12px;padding:10px 20px;background:#24292f;"
    "color:#fff;position:sticky;top:0;z-index:2}\n"
    "header.top .brand{font-weight:700;font-size:18px;letter-spacing:.2px}\n"
    "header.top .brand small{font-weight:400;opacity:.75;margin-left:6px;font-size:14px}\n"
    "header.top .state{margin-left:auto;padding:3px 12px;border-radius:999px;font-weight:700;"
    "font-size:14px;background:var(--pass);color:#fff}\n"
    "header.top .state.fail{background:var(--fail)}header.top .state.incomplete"
    "{background:var(--warn)}\n"
    "main{max-width:1180px;margin:0 auto;padding:16px 20px 40px}\n"
    "section{background:var(--card);border:1px solid var(--line);border-radius:10px;"
    "padding:16px 18px;margin:0 0 16px}\n"
    "h1,h2,h3,h4{margin:0 0 10px;line-height:1.25}h1{font-size:22px}h2{font-size:18px}"
    "h3{font-size:16px;margin-top:18px}h4{font-size:14px;margin:14px 0 6px}\n"
    ".sumline{font-size:20px;font-weight:600;margin:0 0 12px}\n"
    ".banner{border-left:4px solid var(--warn);background:var(--hl);padding:8px 12px;"
    "border-radius:4px;margin:0 0 12px}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(118px,1fr));gap:10px;"
    "margin:0 0 14px}\n"
    ".card{border:1px solid var(--line);border-radius:8px;padding:8px 12px;border-top:4px solid "
    "var(--c,var(--line))}\n"
    ".card b{display:block;font-size:24px;line-height:1.2}.card span{color:var(--muted);"
    "font-size:13px}\n"
    ".card.zero{opacity:.55}\n"
    "dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0;"
    "font-size:14px}\n"
    "dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
    "table{border-collapse:collapse;width:100%}\n"
    "th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);"
    "vertical-align:top}\n"
    "th{font-size:12px;text-transform:uppercase;letter-spacing:.4px;color:var(--muted);"
    "font-weight:600}\n"
    "table.matrix td.n{text-align:right;font-variant-numeric:tabular-nums;width:1%;"
    "white-space:nowrap}\n"
    "table.matrix th.n{text-align:right}\n"
    "table.matrix td.z{color:var(--line)}\n"
    "table.matrix td.hot{font-weight:700;color:var(--c)}\n"
    ".badge{display:inline-block;min-width:46px;text-align:center;padding:1px 7px;"
    "border-radius:5px;font-size:11.5px;font-weight:700;color:#fff;background:var(--c);"
    "letter-spacing:.3px;white-space:nowrap}\n"
    ".v-pass{--c:var(--pass)}.v-fail{--c:var(--fail)}.v-warn{--c:var(--warn)}"
    ".v-info{--c:var(--info)}.v-skip{--c:var(--skip)}.v-nv{--c:var(--nv)}"
    ".v-error{--c:var(--error)}.v-known{--c:var(--known)}.v-notrun{--c:var(--skip)}\n"
    ".badge.v-notrun{background:transparent;color:var(--skip);border:1px dashed var(--skip)}\n"
    ".filters{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:0 0 12px}\n"
    ".filters button{font:inherit;font-size:13px;padding:4px 11px;border-radius:999px;"
    "border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}\n"
    ".filters button[aria-pressed=true]{background:var(--fg);color:var(--card)}\n"
    ".filters input{font:inherit;font-size:14px;padding:4px 10px;border-radius:6px;"
    "border:1px solid var(--line);background:var(--card);color:var(--fg);flex:1 1 180px;"
    "min-width:0}\n"
    "details.sc{border:1px solid var(--line);border-left:4px solid var(--c);border-radius:6px;"
    "margin:6px 0;background:var(--card)}\n"
    "details.sc>summary{cursor:pointer;padding:7px 10px;display:flex;flex-wrap:wrap;gap:4px 10px;"
    "align-items:baseline;list-style:none}\n"
    "details.sc>summary::-webkit-details-marker{display:none}\n"
    "details.sc>summary .sid{font-weight:600;overflow-wrap:anywhere}\n"
    "details.sc>summary .ver{color:var(--muted);font-size:13px}\n"
    "details.sc>summary .ttl{color:var(--muted);font-size:13.5px;flex:1 1 260px}\n"
    "details.sc>summary .dur{color:var(--muted);font-size:12px;margin-left:auto}\n"
    "details.sc .body{padding:4px 12px 12px;border-top:1px solid var(--line)}\n"
    ".reason{margin:8px 0;font-weight:600}\n"
    ".where{color:var(--muted);font-size:13px;margin:6px 0;overflow-wrap:anywhere}\n"
    "table.checks td.v{width:1%;white-space:nowrap}\n"
    "table.checks .cid{font-weight:600;overflow-wrap:anywhere}\n"
    "table.checks .req{color:var(--muted);font-size:13px;margin-top:2px}\n"
    "table.checks .req q{font-style:italic}\n"
    "table.checks .reading{color:var(--muted);font-size:13px;margin-top:2px}\n"
    "table.checks .msg{margin-top:4px}\n"
    ".ea{display:grid;grid-template-columns:1fr 1fr;gap:6px;margin-top:6px}\n"
    ".ea div{background:var(--code);border:1px solid var(--line);border-radius:5px;"
    "padding:4px 7px;min-width:0}\n"
    ".ea b{display:block;font-size:11px;text-transform:uppercase;color:var(--muted)}\n"
    ".ea code{white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".small{font-size:12.5px;color:var(--muted)}\n"
    "details.tx>summary{cursor:pointer;font-weight:600;font-size:14px;margin:12px 0 6px}\n"
    "ol.tx{list-style:none;margin:0;padding:0;border:1px solid var(--line);border-radius:6px;"
    "background:var(--code);max-height:520px;overflow:auto}\n"
    "ol.tx li{display:grid;grid-template-columns:3.2em 4.6em 1.6em 1fr;gap:0 6px;padding:2px 8px;"
    "border-bottom:1px solid var(--line);font-size:12.5px}\n"
    "ol.tx li:last-child{border-bottom:0}\n"
    "ol.tx li.bad{background:var(--hl)}\n"
    "ol.tx li:target{outline:2px solid var(--info)}\n"
    "ol.tx .seq,ol.tx .t{color:var(--muted);text-align:right;font-variant-numeric:tabular-nums}\n"
    "ol.tx .d{font-weight:700;text-align:center}ol.tx .d.out{color:var(--info)}"
    "ol.tx .d.in{color:var(--pass)}\n"
    "ol.tx code{white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word}\n"
    "pre.stderr{background:#1f2328;color:#e6edf3;padding:8px 10px;border-radius:6px;"
    "white-space:pre-wrap;overflow-wrap:anywhere;max-height:320px;overflow:auto;margin:0}\n"
    "ul.plain{margin:0;padding-left:18px}\n"
    "ul.att{list-style:none;padding:0;margin:0 0 14px}ul.att li{padding:3px 0;"
    "overflow-wrap:anywhere}\n"
    "footer{color:var(--muted);font-size:12.5px;text-align:center;padding:0 20px 30px}\n"
    "table.mx td.cell{text-align:center;white-space:nowrap}\n"
    "table.mx th.tg{writing-mode:initial;min-width:90px;text-align:center;text-transform:none;"
    "font-size:12.5px;color:var(--fg)}\n"
    "table.mx td.sid{position:sticky;left:0;background:var(--card);overflow-wrap:anywhere;"
    "min-width:180px}\n"
    "table.mx tr.area td{background:var(--bg);font-weight:700}\n"
    "[hidden]{display:none!important}\n"
    "@media (max-width:640px){body{font-size:14px}main{padding:10px 8px 30px}"
    "header.top{padding:8px 12px}header.top .brand small{display:none}"
    ".cards{grid-template-columns:repeat(3,1fr);gap:6px}.card{padding:6px 8px}"
    ".card b{font-size:20px}section{padding:12px;border-radius:8px}"
    "dl.meta{grid-template-columns:1fr}dl.meta dt{margin-top:6px}"
    ".ea{grid-template-columns:1fr}"
    "table.checks,table.checks tbody,table.checks tr,table.checks td{display:block;width:auto}"
    "table.checks thead{display:none}table.checks tr{border-bottom:1px solid var(--line);"
    "padding:6px 0}table.checks td{border:0;padding:2px 4px}"
    "ol.tx li{grid-template-columns:2.6em 3.8em 1.4em 1fr;padding:2px 4px}"
    "details.sc>summary .dur{margin-left:0}}\n"
    "@media print{:root{--bg:#fff;--card:#fff;--code:#fff}body{font-size:10.5pt}"
    "header.top{position:static;background:#fff;color:#000;border-bottom:2px solid #000}"
    "header.top .state{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    ".filters,.noprint{display:none!important}main{max-width:none;padding:0}"
    "section{border:0;padding:0;margin:0 0 14px}"
    "details.sc>summary{break-after:avoid;page-break-after:avoid}"
    "table.checks tr,ol.tx li,.ea{break-inside:avoid;page-break-inside:avoid}"
    ".badge,.card{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "ol.tx,pre.stderr{max-height:none;overflow:visible}"
    "pre.stderr{background:#fff;color:#000;border:1px solid #999}"
    "a{color:inherit;text-decoration:none}}\n";

static const char script[] =
    "(function(){\n"
    "var list=document.querySelectorAll('details.sc');\n"
    "var btns=document.querySelectorAll('.filters button');\n"
    "var q=document.getElementById('q');var mode='all';\n"
    "function show(d){var v=d.getAttribute('data-v');\n"
    " if(mode==='fail'&&v!=='FAIL'&&v!=='ERROR'&&v!=='WARN')return false;\n"
    " if(mode==='known'&&v!=='KNOWN')return false;\n"
    " if(mode==='skip'&&v!=='SKIP'&&v!=='NOT-VERIFIED'&&v!=='NOT-RUN')return false;\n"
    " if(mode==='pass'&&v!=='PASS'&&v!=='INFO')return false;\n"
    " var t=q?q.value.trim().toLowerCase():'';\n"
    " return !t||d.getAttribute('data-k').indexOf(t)>=0;}\n"
    "function apply(){for(var i=0;i<list.length;i++)list[i].hidden=!show(list[i]);\n"
    " var hs=document.querySelectorAll('.area');\n"
    " for(var j=0;j<hs.length;j++){var any=hs[j].querySelector('details.sc:not([hidden])');"
    "hs[j].hidden=!any;}}\n"
    "for(var i=0;i<btns.length;i++)btns[i].addEventListener('click',function(){mode=this."
    "getAttribute('data-f');for(var k=0;k<btns.length;k++)btns[k].setAttribute('aria-pressed',"
    "btns[k]===this?'true':'false');apply();});\n"
    "if(q)q.addEventListener('input',apply);\n"
    "window.addEventListener('beforeprint',function(){var d=document.querySelectorAll('details');"
    "for(var i=0;i<d.length;i++){if(!d[i].open){d[i].open=true;d[i].setAttribute('data-po',"
    "'1');}}});\n"
    "window.addEventListener('afterprint',function(){var d=document.querySelectorAll("
    "'details[data-po]');for(var i=0;i<d.length;i++){d[i].open=false;d[i].removeAttribute("
    "'data-po');}});\n"
    "function reveal(){var h=location.hash.slice(1);if(!h)return;var e=document.getElementById(h);"
    "for(;e;e=e.parentElement)if(e.tagName==='DETAILS')e.open=true;}\n"
    "window.addEventListener('hashchange',reveal);reveal();\n"
    "})();\n";

void mc__html_head(mc__buf_t *b, const char *title)
{
    mc__buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                    "<meta name=\"generator\" content=\"mcpcheck " MC_VERSION "\">\n<title>");
    mc__buf_html(b, title);
    mc__buf_puts(b, "</title>\n<style>\n");
    mc__buf_puts(b, css);
    mc__buf_puts(b, "</style>\n</head>\n<body>\n");
}

void mc__html_foot(mc__buf_t *b)
{
    mc__buf_puts(b, "<footer>Generated by mcpcheck " MC_VERSION
                    " &middot; MCP specification: <a href=\"https://modelcontextprotocol.io/"
                    "specification\">modelcontextprotocol.io/specification</a></footer>\n<script>\n");
    mc__buf_puts(b, script);
    mc__buf_puts(b, "</script>\n</body>\n</html>\n");
}

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
    if (ms < 1000)
        mc__buf_printf(b, "%lld ms", (long long)ms);
    else if (ms < 60000)
        mc__buf_printf(b, "%.1f s", (double)ms / 1000.0);
    else
        mc__buf_printf(b, "%lld min %lld s", (long long)(ms / 60000),
                       (long long)((ms / 1000) % 60));
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
    if (c->ref[0] != '\0') {
        mc__buf_puts(b, " &middot; ");
        spec_link(b, c->ref);
    }
    mc__buf_printf(b, " &middot; %u evaluation%s", c->evals, c->evals == 1 ? "" : "s");
    if (c->fails > 0)
        mc__buf_printf(b, ", %u failed", c->fails);
    mc__buf_puts(b, "</div>");
    if (c->quote[0] != '\0') {
        /* The spec's words, quoted; the harness's reading apart from them. */
        mc__buf_puts(b, "<div class=\"req\">Spec: <q>");
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

static void scenario(mc__buf_t *b, const mc_report_t *rep, size_t i)
{
    const mc_scenario_result_t *r = &rep->run.scenarios[i];
    const char *cls, *label, *known = mc__known(rep, i);
    int bad = r->verdict == MC_FAIL || r->verdict == MC_ERROR || r->verdict == MC_WARN;
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
    mc__buf_printf(b, "\"%s><summary>", bad && known == NULL ? " open" : "");
    badge(b, cls, label);
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

typedef struct area_row {
    const char *name;
    size_t n[MC_VERDICT_COUNT + 2]; /* verdicts, known, not run */
} area_row_t;

#define COL_KNOWN MC_VERDICT_COUNT
#define COL_NOTRUN (MC_VERDICT_COUNT + 1)

static size_t area_rows(const mc_report_t *rep, area_row_t *rows)
{
    size_t i, k, n = 0;

    for (i = 0; i < rep->run.n + rep->n_not_run; i++) {
        const char *area =
            i < rep->run.n ? rep->run.scenarios[i].area : rep->not_run[i - rep->run.n].area;
        for (k = 0; k < n; k++)
            if (strcmp(rows[k].name, area) == 0)
                break;
        if (k == n) {
            memset(&rows[n], 0, sizeof(rows[n]));
            rows[n++].name = area;
        }
        if (i >= rep->run.n)
            rows[k].n[COL_NOTRUN]++;
        else if (mc__known(rep, i) != NULL && mc_report_scenario_fails(rep, i))
            rows[k].n[COL_KNOWN]++;
        else
            rows[k].n[rep->run.scenarios[i].verdict]++;
    }
    return n;
}

static void matrix(mc__buf_t *b, const mc_report_t *rep, const area_row_t *rows, size_t n)
{
    static const int order[] = {MC_PASS, MC_FAIL, MC_WARN, MC_INFO, MC_SKIP, MC_NOT_VERIFIED,
                                MC_ERROR, COL_KNOWN, COL_NOTRUN};
    static const char *const heads[] = {"Pass", "Fail", "Warn", "Info", "Skip", "Not verified",
                                        "Error", "Known", "Not run"};
    static const char *const cls[] = {"v-pass", "v-fail", "v-warn", "v-info", "v-skip", "v-nv",
                                      "v-error", "v-known", "v-notrun"};
    size_t i, c, total[9] = {0}, all = 0;
    /* Known and Not run only mean something with a baseline or an interruption. */
    int show[9] = {1, 1, 1, 1, 1, 1, 1, rep->baseline_path != NULL,
                   rep->run.partial || rep->n_not_run > 0};

    mc__buf_puts(b, "<section id=\"matrix\"><h2>Areas &times; verdicts</h2>\n<div class=\"scroll\">"
                    "<table class=\"matrix\"><thead><tr><th>Area</th>");
    for (c = 0; c < 9; c++)
        if (show[c])
            mc__buf_printf(b, "<th class=\"n\">%s</th>", heads[c]);
    mc__buf_puts(b, "<th class=\"n\">Total</th></tr></thead><tbody>\n");
    for (i = 0; i < n; i++) {
        size_t sum = 0;
        mc__buf_puts(b, "<tr><td><a href=\"#area-");
        h(b, rows[i].name);
        mc__buf_puts(b, "\">");
        h(b, rows[i].name);
        mc__buf_puts(b, "</a></td>");
        for (c = 0; c < 9; c++) {
            size_t v = rows[i].n[order[c]];
            sum += v;
            total[c] += v;
            if (!show[c])
                continue;
            if (v == 0)
                mc__buf_puts(b, "<td class=\"n z\">0</td>");
            else
                mc__buf_printf(b, "<td class=\"n hot %s\">%zu</td>", cls[c], v);
        }
        all += sum;
        mc__buf_printf(b, "<td class=\"n\">%zu</td></tr>\n", sum);
    }
    mc__buf_puts(b, "</tbody><tfoot><tr><th>All</th>");
    for (c = 0; c < 9; c++)
        if (show[c])
            mc__buf_printf(b, "<th class=\"n\">%zu</th>", total[c]);
    mc__buf_printf(b, "<th class=\"n\">%zu</th></tr></tfoot></table></div></section>\n", all);
}

static void card(mc__buf_t *b, const char *cls, size_t n, const char *label)
{
    mc__buf_printf(b, "<div class=\"card %s%s\"><b>%zu</b><span>%s</span></div>", cls,
                   n == 0 ? " zero" : "", n, label);
}

static void meta(mc__buf_t *b, const char *k, const char *v)
{
    if (v == NULL || v[0] == '\0')
        return;
    mc__buf_printf(b, "<dt>%s</dt><dd>", k);
    h(b, v);
    mc__buf_puts(b, "</dd>");
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
            mc__buf_printf(b, "</span> <span class=\"small\">%s</span>", mc_level_name(c->level));
        } else {
            mc__buf_puts(b, " <span class=\"small\">scenario error</span>");
        }
        mc__buf_printf(b, " <span class=\"small\">&times;%zu</span><div>", c->count);
        h(b, c->message);
        mc__buf_puts(b, "</div><div class=\"small\">");
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
    mc__buf_puts(b, "<div class=\"cards\">");
    card(b, "v-pass", run->count[MC_PASS], "passed");
    card(b, "v-fail", rep->n_failed - rep->n_errors, "failed");
    card(b, "v-info", run->count[MC_INFO], "info");
    card(b, "v-warn", run->count[MC_WARN], "warnings");
    card(b, "v-skip", run->count[MC_SKIP], "skipped");
    card(b, "v-nv", run->count[MC_NOT_VERIFIED], "not verified");
    card(b, "v-error", rep->n_errors, "errors");
    if (rep->baseline_path != NULL)
        card(b, "v-known", rep->n_known, "known");
    if (rep->n_not_run > 0 || run->partial)
        card(b, "v-notrun", rep->n_not_run, "not run");
    mc__buf_puts(b, "</div>\n");
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
    meta(b, "Mode", run->strict ? "strict (a broken SHOULD fails the run)"
                                : "default (a broken SHOULD is a warning)");
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
    area_row_t *rows;
    size_t n_rows, a, i;
    char line[1024], title[1400];
    int code = mc_report_exit_code(rep);
    size_t ll;

    rows = calloc(rep->run.n + rep->n_not_run + 1, sizeof(*rows));
    if (rows == NULL)
        return MC_ENOMEM;
    n_rows = area_rows(rep, rows);
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
    matrix(&b, rep, rows, n_rows);
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
