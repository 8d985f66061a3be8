/* bbv.h - basic-block vectors: the per-slice code profiles SimPoint
 * clusters, read from Valgrind exp-bbv's text format or built in memory.
 *
 * Format: one line per slice (a fixed number of executed instructions); each
 * ":id:count" pair names a basic block (1-based id) and the instructions
 * executed in it during the slice.  The first pair follows a 'T'; pairs are
 * separated by blanks (exp-bbv writes three spaces and ends lines with them):
 *
 *   T:792:8   :790:1   :757:12
 *   T:1619:2272   :1620:1242   :757:3
 *
 *   # Thread 1
 *   #   Total intervals: 2 (Interval Size 100000)
 *
 * Blank lines and lines whose first non-blank byte is '#' are ignored; the
 * first "Interval Size N" seen in a comment is remembered.  A slice line
 * must hold at least one pair, no block twice, and a non-zero total; ids are
 * in [1, 2^32-1], counts in [0, 2^64-1].  CR before LF is accepted.
 *
 * Rows are stored sorted by block id, so the order of the pairs on a line
 * does not matter to anything computed from them.
 */
#ifndef BBV_H
#define BBV_H

#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"

struct bbv;

/* Parse exp-bbv text from memory (need not be NUL-terminated; NUL bytes
 * are ordinary bad bytes on a slice line).  file names the input in diagnostics.  Every bad line is
 * reported once (file:line:column, the first problem on the line) and the
 * result is NULL when any was; also NULL, with a diagnostic, when there is
 * no slice at all or memory runs out.  The fuzzing entry point. */
struct bbv *bbv_parse(const char *text, size_t len, const char *file, struct diag *d);
/* Read and parse a file ("-" reads stdin, named "<stdin>"). */
struct bbv *bbv_load(const char *path, struct diag *d);

/* Build vectors in memory (tests, or a tool that counts blocks itself).
 * bbv_add_slice copies n pairs (any order); ids must be >= 1 and distinct,
 * counts summing to > 0 without overflow.  Returns 0, or -1 with a
 * diagnostic (no location) on a bad slice or when out of memory. */
struct bbv *bbv_create(void);
int bbv_add_slice(struct bbv *b, const uint32_t *ids, const uint64_t *counts, size_t n, struct diag *d);
void bbv_free(struct bbv *b); /* accepts NULL */

size_t bbv_slices(const struct bbv *b);
uint64_t bbv_slice_total(const struct bbv *b, size_t slice);  /* instructions in the slice */
size_t bbv_slice_blocks(const struct bbv *b, size_t slice);   /* pairs in the slice */
/* The pairs of a slice, sorted by id (pointers into b, valid until the next
 * bbv_add_slice or bbv_free). */
const uint32_t *bbv_slice_ids(const struct bbv *b, size_t slice);
const uint64_t *bbv_slice_counts(const struct bbv *b, size_t slice);
uint32_t bbv_max_block(const struct bbv *b);                   /* largest id seen */
uint64_t bbv_interval_size(const struct bbv *b);               /* from a comment; 0 if none */

#endif
