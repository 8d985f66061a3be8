/* plot.h - results to figures and tables: `hwprof plot` and `hwprof table`.
 *
 * `hwprof plot CONFIG` reads the config's "plot" section (schema in
 * docs/CONTRACTS.md, user guide in docs/plots.md), the CSV that the runner
 * wrote for that config, and writes plots/<paper>/<stem>.svg and .png with
 * gnuplot: either through plots/<paper>/<stem>.gp when that file exists, or
 * through a script generated from the plot section (kept as
 * build/plots/<paper>/<stem>.gen.gp so it can be read and re-run by hand).
 * `hwprof table CONFIG` renders the same CSV as a GitHub markdown table in
 * results/<paper>/<stem>.md.
 *
 * The CSV is parsed here, in C, and gnuplot only ever sees clean
 * whitespace-separated data blocks, so plots do not depend on gnuplot's CSV
 * handling.  Every output is written under a temporary name and renamed, so a
 * failed run leaves no (or the previous) output file.
 *
 * The functions below the CLI entry points are exported for the unit tests
 * and for the config validator; they do no I/O unless they say so.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* ---- command-line entry points ---------------------------------------- */

/* `hwprof plot CONFIG [--results DIR] [--plots DIR] [--build DIR]`.
 * argv[0] is the sub-command name ("plot"); main.c calls
 * plot_main(argc - 1, argv + 1).  Returns the process exit status:
 * 0 success, 1 error (message on stderr, no output written), 2 usage. */
int plot_main(int argc, char **argv);

/* `hwprof table CONFIG [--results DIR]`; argv[0] is "table".  Same exit
 * statuses as plot_main(). */
int table_main(int argc, char **argv);

/* ---- validation without the CSV (for the config validator) ------------ */

/* Check the "plot" object of a config: known keys only, each of the right
 * JSON type, enum values ("type", "source") known, "y" non-empty, "yrange" a
 * pair of numbers (either may be null for "auto") with min < max, logx only
 * for type "lines".  Column names are checked later against the CSV.
 * plot == NULL (no plot section) is valid.  Returns 0 when valid, -1 with a
 * message such as "plot.y[1]: must be a string" in err (no file name: the
 * caller prefixes "configs/x.json: "). */
int plot_validate_section(json_t *plot, char *err, size_t errlen);

/* The same for the optional top-level "table" object
 * ({"columns": [...], "where": {...}, "format": {"col": "%.2f"}}). */
int plot_validate_table(json_t *table, char *err, size_t errlen);

/* ---- CSV ---------------------------------------------------------------- */

/* A parsed CSV: header plus rows of strings.  Empty cells are "" (never
 * NULL).  Fields may be double-quoted ("a,b" and "" escapes are honoured);
 * a trailing '\r' is dropped; blank lines are skipped. */
struct plot_csv {
    char *name;      /* file name used in messages */
    size_t ncols;
    size_t nrows;
    char **header;   /* ncols column names */
    char **cells;    /* nrows * ncols, row major */
    size_t *line;    /* 1-based source line of each row */
};

/* Parse CSV text.  name is used in messages ("results/x.csv:7: 5 fields,
 * header has 6").  Returns NULL with a message in err on error. */
struct plot_csv *plot_csv_parse(const char *text, const char *name, char *err, size_t errlen);
/* Read and parse a file; the message names the file on error. */
struct plot_csv *plot_csv_read(const char *path, char *err, size_t errlen);
void plot_csv_free(struct plot_csv *csv); /* accepts NULL */
/* Column index of name, or -1. */
int plot_csv_column(const struct plot_csv *csv, const char *name);
static inline const char *plot_csv_cell(const struct plot_csv *csv, size_t row, size_t col)
{
    return csv->cells[row * csv->ncols + col];
}

/* Parse a cell as a finite number; "" and non-numbers give false. */
bool plot_cell_number(const char *cell, double *out);

/* Rows of csv that match a "where" object ({column: value | [values]}; a
 * string matches the cell text, a number matches numerically, true/false
 * match 1/0 (or "true"/"false"), null matches an empty cell).  where may be
 * NULL (all rows).  keypath names the object in messages ("plot.where").
 * Returns a malloc'd array of row indices in CSV order and its length in
 * *nout (may be 0; the array is then still non-NULL), or NULL with a message
 * such as "plot.where.foo: column 'foo' not in results/x.csv". */
size_t *plot_filter_rows(const struct plot_csv *csv, json_t *where, const char *keypath,
                         size_t *nout, char *err, size_t errlen);

/* ---- plot specification ------------------------------------------------- */

enum plot_type { PLOT_LINES, PLOT_BARS, PLOT_STACKED };

#define PLOT_MAX_COLS 32 /* y and group columns, each */

/* A validated plot section.  Strings are borrowed from the JSON object,
 * which must outlive the spec. */
struct plot_spec {
    enum plot_type type;
    bool series_source;                /* "source": "series" */
    const char *x;
    const char *y[PLOT_MAX_COLS];
    size_t ny;
    const char *group[PLOT_MAX_COLS];
    size_t ngroup;
    const char *panels;                /* NULL: a single plot */
    json_t *where;                     /* NULL: every row */
    bool logx, logy;
    const char *xlabel, *ylabel, *title; /* NULL: default */
    bool has_ymin, has_ymax;
    double ymin, ymax;
};

/* Validate (as plot_validate_section) and fill spec.  Returns 0 or -1. */
int plot_spec_parse(json_t *plot, struct plot_spec *spec, char *err, size_t errlen);

/* Write a complete gnuplot script for spec and csv to out: data blocks
 * ($p0s1 << EOD ...) followed by the plot commands.  The script does not
 * set the terminal or the output: the caller does (see docs/plots.md), with
 * the canvas size returned in *width and *height (900x500 per panel for a
 * single plot, 700x450 per panel in a grid).  title is used when the spec
 * has none (the config's caption; may be NULL).  Errors (a column not in the
 * CSV, a non-numeric value, two rows for one point) name csv->name and the
 * key path: "plot.y[1]: column 'foo' not in results/x.csv".
 * Returns 0 or -1. */
int plot_write_script(FILE *out, const struct plot_spec *spec, const struct plot_csv *csv,
                      const char *title, int *width, int *height, char *err, size_t errlen);

/* Write rows of csv (all columns) to out as a whitespace-separated data file
 * for hand-written .gp scripts: first line the column names, then one line
 * per row; strings double-quoted, empty cells as NaN.  Returns 0 or -1. */
int plot_write_data(FILE *out, const struct plot_csv *csv, const size_t *rows, size_t nrows);

/* ---- markdown tables ---------------------------------------------------- */

/* Render csv as a GitHub markdown table.  table is the config's optional
 * "table" object (NULL: every column, no formats); its "where" wins over
 * plot_where (the plot section's "where", may be NULL).  Numeric columns
 * (every non-empty cell a number) are right-aligned; '|' in cells is
 * escaped.  Returns 0 or -1 with a message naming the key path. */
int plot_table_render(FILE *out, const struct plot_csv *csv, json_t *table, json_t *plot_where,
                      char *err, size_t errlen);

#endif
