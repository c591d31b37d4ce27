/*
 * buildinfo.h - what a program says of itself: the project's version, the
 * git revision it was built from, and the protocol versions it knows.
 * `mcpcheck --version`, `mcpcheck-refserver --version` and report.json all
 * say the same through these.
 */
#ifndef MC_CORE_BUILDINFO_H
#define MC_CORE_BUILDINFO_H

#include <stddef.h>

/* The project's version, "MAJOR.MINOR.PATCH" (CMakeLists.txt's). */
const char *mc_build_version(void);

/* The git revision the program was built from (12 hex digits, "-dirty"
 * when the checkout had changes), or "" when it was not built from git. */
const char *mc_build_revision(void);

/*
 * Writes the version line into out (truncated to n): "PROG 0.2.0 (git
 * REV)", or "PROG 0.2.0" without a revision.
 */
void mc_build_version_line(const char *prog, char *out, size_t n);

/* Writes the protocol versions the program knows, oldest first, separated
 * by spaces, into out (truncated to n). */
void mc_build_protocols(char *out, size_t n);

#endif /* MC_CORE_BUILDINFO_H */
