/* csv.h - the CSV files the runner writes and the plot/table commands read.
 *
 * Format (RFC 4180 subset): a header line of column names, then one record
 * per line; fields separated by commas; a field holding a comma, a double
 * quote, CR or LF is double-quoted with inner quotes doubled.  Numbers are
 * written by csv_format_number(): NaN as an empty cell, an integral value
 * with |v| < 1e15 as "%.0f", anything else as "%.10g".  Sample:
 *
 *   workload,run,tables,error_pct
 *   gzip,"MH, 4 tables",4,0.125
 *   bzip2,BSH,,19.5425
 *
 * Reading is strict, since every file comes from our own writer: a record
 * with a different number of fields than the header, a quote inside an
 * unquoted field, text after a closing quote, an unterminated quote, a NUL
 * byte or a repeated column name is an error located at file:line:column.
 * A trailing CR before LF is dropped; blank lines are skipped.
 */
#ifndef CSV_H
#define CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

struct csv;

/* Parse len bytes of text; name is the file name used in messages.  Returns
 * NULL with one error added to d. */
struct csv *csv_parse(const char *text, size_t len, const char *name, struct diag *d);
/* Read and parse a file (an error names the file). */
struct csv *csv_read(const char *path, struct diag *d);
void csv_free(struct csv *c); /* accepts NULL */

const char *csv_name(const struct csv *c);
size_t csv_ncols(const struct csv *c);
size_t csv_nrows(const struct csv *c);
const char *csv_header(const struct csv *c, size_t col);
/* Column index of name, or -1. */
int csv_column(const struct csv *c, const char *name);
/* Cell text ("" when empty, never NULL). */
const char *csv_cell(const struct csv *c, size_t row, size_t col);
/* 1-based line of the file where row starts. */
size_t csv_line(const struct csv *c, size_t row);

/* A cell as a finite number (decimal, exponent, or 0x hexadecimal as the
 * runner writes addresses); "", "nan", "inf" and text give false. */
bool csv_number(const char *cell, double *out);

/* ---- writing (shared with the runner) ----------------------------------- */

/* The text of a number cell into buf ("" for NaN); returns its length. */
size_t csv_format_number(char *buf, size_t len, double v);
void csv_put_number(FILE *f, double v);
/* A field, quoted only when it holds a comma, a double quote, CR or LF. */
void csv_put_field(FILE *f, const char *s);

#endif
