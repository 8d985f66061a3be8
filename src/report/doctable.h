/* doctable.h - the table of a table marker (docmark.h): its cells from the
 * results (docquery.h), best-of marks, the markdown text, the CSV view
 * other markers read as src=#id, and the comparison with the table the
 * document holds.
 *
 * A grid table's cell (row r, column c) is the query made of the table's,
 * the row's and the column's attributes: the innermost src, col, fmt, by
 * and sep win; conditions of an inner level replace the outer levels' on the
 * same key; agg may be set on the row or on the column, not on both (unless
 * equal).  An expr column computes from the row's other cells.  best=min
 * (or max) bolds, in every row that does not say best=none, the best number
 * of each group of columns (group=; ungrouped columns form one group),
 * every item of a list cell counted, ties all bolded (equal as shown).
 *
 * Markdown (mdrender.h): GitHub pipe tables, padded to the widest cell
 * (characters, not bytes), columns whose cells are all numbers
 * right-aligned, '|' escaped.
 *
 *   | workload |  R0P0 |  R1P1 |
 *   | -------- | ----: | ----: |
 *   | gzip     | 60.12 | **1.99** |
 */
#ifndef DOCTABLE_H
#define DOCTABLE_H

#include <stddef.h>

#include "core/csv.h"
#include "core/diag.h"
#include "report/docmark.h"
#include "report/docquery.h"

struct doctab;

/* Build t's table.  NULL with every error in d (at file:line:column of the
 * marker, row or column that fails). */
struct doctab *doctab_build(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d);
void doctab_free(struct doctab *x); /* accepts NULL */

/* The markdown lines, each ending in '\n' (malloc'd). */
char *doctab_markdown(const struct doctab *x);
/* The CSV view: label column (named by head, or "row"), then one column per
 * column (its name= or header); a cell holding one number is that number
 * (%.10g), others their text.  name is the view's name in messages.  NULL
 * with an error (two columns of one name) in d at t's marker. */
struct csv *doctab_view(const struct doctab *x, const char *name, const char *file, struct doc_pos pos,
                        struct diag *d);

/* Compare old (the text between the markers, first_line its line in file)
 * with the table: one report item per differing cell, a size mismatch, or
 * a layout-only difference.  Returns the number of items added. */
size_t doctab_compare(const struct doctab *x, const char *old, size_t len, const char *file, int first_line,
                      struct diag *report);

#endif
