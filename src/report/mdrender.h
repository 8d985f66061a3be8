/* mdrender.h - the one markdown table renderer: `hwprof table`'s
 * results/<paper>/<stem>.md (mdtable.h) and the tables of document markers
 * (doctable.h) are written by it.
 *
 * A GitHub pipe table, padded so the columns line up in the raw text:
 * every column as wide as its widest cell (at least 3; characters, not
 * bytes), numeric columns right-aligned (the header too, and the
 * separator ends in ':'), '|' in a cell escaped and line breaks turned
 * into spaces:
 *
 *   | workload | run  | calls |
 *   | -------- | ---- | ----: |
 *   | gzip     | a\|b | 34567 |
 */
#ifndef MDRENDER_H
#define MDRENDER_H

#include <stdbool.h>
#include <stddef.h>

struct mdgrid {
    size_t nrows, ncols;     /* data rows (row 0 of cells is the header), columns */
    char *const *cells;      /* (nrows + 1) * ncols texts as they read, unescaped; NULL reads "" */
    const bool *right;       /* per column: right-aligned */
    const bool *hidden;      /* per column: left out of the text (NULL: none is) */
};

/* The table's lines, each ending in '\n' (malloc'd). */
char *md_render(const struct mdgrid *g);
/* A cell as it stands between the pipes (malloc'd). */
char *md_escape(const char *s);
/* Width of s in characters (UTF-8 continuation bytes do not count). */
size_t md_width(const char *s);

#endif
