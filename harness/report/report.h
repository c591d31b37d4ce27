/*
 * report.h - writers that read the result model (scenario/result.h).
 *
 * report.json is the model itself (documented in reports/README.md); the
 * console writer formats lines for the CLI to print. Files are written
 * atomically: to a temporary file in the same folder, then renamed.
 */
#ifndef MC_REPORT_REPORT_H
#define MC_REPORT_REPORT_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/error.h"
#include "scenario/result.h"

/* Builds the report.json document (new reference; caller puts it). */
json_object *mc_report_json(const mc_run_result_t *run);

/* Writes DIR/report.json atomically, creating DIR if needed. */
int mc_report_write_json(const mc_run_result_t *run, const char *dir, mc_errbuf_t *eb);

/* Writes data to path atomically (temp file + rename). */
int mc_report_write_file(const char *path, const char *data, size_t len, mc_errbuf_t *eb);

/* A copy of s with every invalid UTF-8 byte replaced by U+FFFD (caller
 * frees; NULL when out of memory). Writers pass the target's bytes through
 * it so reports stay valid UTF-8. */
char *mc_report_utf8_clean(const char *s);

/* Creates dir and its parents (like mkdir -p). */
int mc_report_mkdirs(const char *dir, mc_errbuf_t *eb);

/*
 * Formats the console lines of one scenario into out (NUL-terminated,
 * truncated to n): a verdict line, then one indented line per check that
 * did not pass (all of them when verbose). color adds ANSI colours.
 * Returns the length written.
 */
size_t mc_report_console_scenario(const mc_scenario_result_t *r, int color, int verbose,
                                  char *out, size_t n);

/* Formats the closing line: "N passed, N failed" and the other counts. */
size_t mc_report_console_summary(const mc_run_result_t *run, int color, char *out, size_t n);

#endif /* MC_REPORT_REPORT_H */
