/*
 * internal.h - helpers shared by the report writers: a bounded output
 * buffer and the escapers every writer needs (UTF-8 repair, XML, HTML, URI).
 *
 * Everything a writer formats comes from the target, which is hostile: any
 * byte may be there. The escapers below turn any byte string into valid
 * UTF-8 text for the output format: invalid sequences become U+FFFD, control
 * characters become visible escapes where the format forbids them.
 */
#ifndef MC_REPORT_INTERNAL_H
#define MC_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "report/report.h"

/* A growable text buffer with a cap. Once it is full or out of memory it
 * stops growing and remembers so (err); the writers check err at the end. */
typedef struct mc__buf {
    char *p;     /* NUL-terminated when len > 0 */
    size_t len;
    size_t cap;  /* allocated */
    int err;     /* MC_OK, MC_ETOOBIG or MC_ENOMEM */
} mc__buf_t;

void mc__buf_init(mc__buf_t *b);
void mc__buf_free(mc__buf_t *b);
void mc__buf_add(mc__buf_t *b, const char *s, size_t n);
void mc__buf_puts(mc__buf_t *b, const char *s);
void mc__buf_printf(mc__buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Length of the valid UTF-8 sequence at s (n bytes available), or 0 when
 * the bytes there are not one (overlong forms, surrogates and code points
 * past U+10FFFF are invalid). *cp receives the code point.
 */
size_t mc__utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/* True when the n bytes are valid UTF-8 (NUL bytes allowed). */
int mc__utf8_valid(const char *s, size_t n);

/* Appends s (n bytes) with invalid UTF-8 replaced by U+FFFD. */
void mc__buf_utf8(mc__buf_t *b, const char *s, size_t n);

/*
 * Appends s escaped for XML 1.0 text and attribute values: & < > " ' as
 * entities, tab/newline/CR kept (as character references inside
 * attributes), other control characters and U+FFFE/U+FFFF (which XML 1.0
 * cannot carry at all) as the visible text "\u00XX", invalid UTF-8 as U+FFFD.
 * s may be NULL (appends nothing).
 */
void mc__buf_xml(mc__buf_t *b, const char *s, size_t n, int attribute);

/* Appends s escaped for HTML text or attributes (as mc__buf_xml). */
void mc__buf_html(mc__buf_t *b, const char *s);

/*
 * Appends s (NUL-terminated; NULL is "") as inline Markdown text, at most
 * max bytes of it (then "…"): invalid UTF-8 becomes U+FFFD, line breaks and
 * other control characters a space, the characters that would start markup
 * are escaped with a backslash, and <, > and & are written as entities
 * (GitHub renders HTML in Markdown).
 */
void mc__buf_md(mc__buf_t *b, const char *s, size_t max);

/* Percent-encodes s for a URI path (keeps unreserved characters and '/'). */
void mc__buf_uri_path(mc__buf_t *b, const char *s);

/* A json-c string holding s repaired to valid UTF-8 (new reference), or
 * NULL when s is NULL. */
json_object *mc__json_str(const char *s);
json_object *mc__json_strn(const char *s, size_t n);

/* The spec page URL of a reference "VERSION/page#anchor" into out;
 * returns 0 when the reference is empty. */
int mc__spec_url(const char *ref, char *out, size_t n);

/* path relative to base when it lies below it, else path itself (borrowed). */
const char *mc__relpath(const char *path, const char *base);

/* Joins dir and name into out; returns 0 when it does not fit. */
int mc__path_join(char *out, size_t n, const char *dir, const char *name);

/* True when baseline entry e names result r (its id, and its version if any). */
int mc__bl_matches(const mc_baseline_entry_t *e, const mc_scenario_result_t *r);

/* "known" reason of scenario i (NULL when not known or not failing). */
const char *mc__known(const mc_report_t *rep, size_t i);

/* Writes DIR/traces/ (replacing the folder as a whole). */
int mc__write_traces(const mc_report_t *rep, const char *dir, mc_errbuf_t *eb);

/* Standard base64 of n bytes. */
void mc__buf_base64(mc__buf_t *b, const unsigned char *s, size_t n);

/* The page frame shared by report.html and the merge matrix: the document
 * head with the inline style sheet, up to <body>; and the closing part with
 * the inline script. */
void mc__html_head(mc__buf_t *b, const char *title);
void mc__html_foot(mc__buf_t *b);

/* A verdict's CSS class: "v-pass", "v-fail", ... */
const char *mc__verdict_class(mc_verdict_t v);

/* Copies message into key (n bytes) with what varies between occurrences of
 * one cause blanked out: digits, quoted values, URIs (causes.c). */
void mc__cause_key(const char *message, char *key, size_t n);

/* True when a finding of check (NULL: a scenario ERROR) with this message
 * has cause c. */
int mc__cause_same(const mc_report_cause_t *c, const char *check, const char *message);

/* Writes the buffer to path atomically; frees nothing. */
int mc__buf_write(mc__buf_t *b, const char *path, mc_errbuf_t *eb);

/* The text of one matrix cell ("12 F1 S3"; "-" when the cell is empty). */
void mc__report_matrix_cell_text(const size_t count[MC_VERDICT_COUNT], char *out, size_t n);

/* An area of report.html's areas table: its runs per outcome, and its
 * planned runs that did not happen (n[MC_OUTCOME_COUNT]). */
typedef struct mc__area_row {
    const char *name; /* borrowed from the report */
    size_t n[MC_OUTCOME_COUNT + 1];
} mc__area_row_t;

/* Fills rows (room for every run and not-run entry) with the areas in order
 * of first appearance; returns how many (html_counts.c). */
size_t mc__html_area_rows(const mc_report_t *rep, mc__area_row_t *rows);
/* The areas x outcomes table, with a total per column and in all. */
void mc__html_areas_table(mc__buf_t *b, const mc_report_t *rep, const mc__area_row_t *rows,
                          size_t n);
/* The summary's cards, one per outcome, and the runs they add up to. */
void mc__html_cards(mc__buf_t *b, const mc_report_t *rep);

/* The area x version matrix as an HTML section (nothing for an empty run). */
void mc__report_matrix_html(mc__buf_t *b, const mc_report_t *rep);

#endif /* MC_REPORT_INTERNAL_H */
