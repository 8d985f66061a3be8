/* readfile.h - a whole text file in memory, for the document and claims
 * readers (inputs of a few MB at most).
 *
 *   size_t len;
 *   char *text = read_file("paper-repro.md", &len);   // NULL: errno says why
 */
#ifndef READFILE_H
#define READFILE_H

#include <stddef.h>

/* The file's bytes, NUL-terminated (caller frees), its length in *len; NULL
 * when it cannot be opened or read (errno set by the failing call). */
char *read_file(const char *path, size_t *len);

#endif
