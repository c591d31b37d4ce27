/*
 * requirements.h - `mcpcheck list --requirements`: the traceability table.
 * Every RFC 2119 sentence of the spec pages in scope, per protocol version,
 * with the checks that judge it (the built-in checks and the scenario
 * library's, by the sentence they quote) or its disposition in the data file
 * requirements.json beside the scenario library (whom it binds, and for a
 * server-binding MUST or SHOULD with no check, the reason it cannot be tested
 * from the client side, or that it is an open gap).
 */
#ifndef MC_CLI_REQUIREMENTS_H
#define MC_CLI_REQUIREMENTS_H

#include "cli/scenarios_load.h"

/* The data file's name, in the scenario library's folder. */
#define MC_REQ_DATA_FILE "requirements.json"
/* Bytes of the data file read at most. */
#define MC_REQ_MAX_FILE_BYTES (8u * 1024u * 1024u)
/* Rows (sentences of one version) the table holds at most. */
#define MC_REQ_MAX_ROWS 16384
/* Check ids named on one row at most (more are counted, not named). */
#define MC_REQ_MAX_ROW_CHECKS 16

/*
 * Prints the table of the checks of scs and the built-in checks, with the
 * entries of DIR/requirements.json (dir: the scenario library's folder), for
 * version (every published version when NULL), as text or as one JSON
 * document. Problems (an unreadable or malformed data file) are printed to
 * stderr as "prog: ...". Returns the exit code: 0, 1 on a problem.
 */
int mc_cli_list_requirements(const mc_cli_scenarios_t *scs, const char *dir, const char *version,
                             int json, const char *prog);

#endif /* MC_CLI_REQUIREMENTS_H */
