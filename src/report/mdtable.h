/* mdtable.h - `hwprof table`: a results CSV as a GitHub markdown table.
 *
 * The config's optional "table" section chooses columns, rows and number
 * formats (docs/plots.md):
 *
 *   "table": {"columns": ["workload", "run", "accuracy_pct"],
 *             "where": {"run": ["one-level", "two-level"]},
 *             "format": {"accuracy_pct": "%.2f"}}
 *
 * renders as
 *
 *   | workload | run       | accuracy_pct |
 *   | -------- | --------- | -----------: |
 *   | bzip2    | one-level |        87.22 |
 *
 * Numeric columns (every non-empty cell a number) are right-aligned, '|' in
 * a cell is escaped, widths count characters, not bytes.
 */
#ifndef MDTABLE_H
#define MDTABLE_H

#include <stdio.h>
#include <jansson.h>

#include "core/csv.h"
#include "core/diag.h"

struct config_columns; /* config.h */

/* Every error of the config's "table" value (path "table") into d, columns
 * checked through cols (may be NULL: no column checks); returns the number
 * added.  table == NULL (no section) is valid.  The config loader calls it
 * (the section registers itself: CONFIG_SECTION_REGISTER). */
size_t mdtable_check(json_t *table, const struct config_columns *cols, struct diag *d);

/* Render csv under table (NULL: every column and row, no formats); without
 * a "where" of its own the plot section's where (plot_where, may be NULL)
 * filters the rows.  Returns 0, or -1 with errors in d. */
int mdtable_render(FILE *out, const struct csv *csv, json_t *table, json_t *plot_where, struct diag *d);

#endif
