/*
 * file.h - reading a whole file into memory, bounded.
 *
 * The one reader every module uses for files it loads whole (schemas,
 * scenario and profile files, reports, traces, corpus entries): the buffer
 * grows as the file is read, never past the caller's limit, so a file that
 * is larger than expected, or a pipe that never ends, is an error and not
 * an allocation of its size.
 */
#ifndef MC_CORE_FILE_H
#define MC_CORE_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

/*
 * Reads the file at path, at most max bytes, into a new buffer with a NUL
 * after the last byte (*out, freed by the caller; *len excludes the NUL).
 * Returns MC_OK; MC_ENOTFOUND when path does not exist, MC_EIO when it
 * cannot be opened or read, MC_ETOOBIG when it holds more than max bytes,
 * MC_ENOMEM. On error *out and *len are unchanged and eb says which file
 * and why ("cannot open PATH: ...", "PATH is larger than MAX bytes").
 */
int mc_file_read(const char *path, size_t max, char **out, size_t *len, mc_errbuf_t *eb);

/*
 * The same for a stream the caller opened (stdin, say), read to its end
 * and left open; name is what messages call it.
 */
int mc_file_read_stream(FILE *f, const char *name, size_t max, char **out, size_t *len,
                        mc_errbuf_t *eb);

#endif /* MC_CORE_FILE_H */
