/* plotgp.h - what gnuplot is fed: a preamble of `name = value` lines and a
 * whitespace-separated data file, for a template plots/templates/<kind>.gp
 * (or a hand-written plots/<paper>/<stem>.gp) to draw.
 *
 * Preamble sample (build/plots/multihash/fig04-distinct-tuples.gp):
 *   kind = 'bars'
 *   data = 'build/plots/multihash/fig04-distinct-tuples.dat'
 *   npanels = 1
 *   ...
 *   series_title_1 = "interval=10000"
 *   ymin_1 = 100
 *   ytics_1 = '("100" 100, "1000" 1000, "10k" 10000)'
 *   blocks_1 = '0 1 2'
 * Data sample (one block per panel x series; blocks apart by two blank
 * lines, so gnuplot's `index b` picks block b):
 *   # block 0: panel 1, series 1 (interval=10000); xlo xhi base top lo hi
 *   -0.4 -0.1333333333 100 3708.603175 NaN NaN
 *
 * Every decision that depends on the data - ranges, ticks, bar positions,
 * the layout, key entries, log-axis floors - is made here, so the templates
 * hold no logic beyond loops over panels and blocks.
 */
#ifndef PLOTGP_H
#define PLOTGP_H

#include <stdio.h>

#include "core/csv.h"
#include "core/diag.h"
#include "report/plotdata.h"
#include "report/plotspec.h"

/* Paths and names the preamble passes on (each may be "" but not NULL). */
struct plotgp_paths {
    const char *data;       /* the data file written alongside */
    const char *table;      /* the filtered CSV copy for hand-written scripts */
    const char *csv;        /* the main CSV */
    const char *series;     /* the series CSV, "" when there is none */
    const char *config, *paper, *stem;
    const char *templates;  /* folder of the templates */
};

/* Write the preamble to vars and the data to data for pd drawn as spec says;
 * title is the figure title (the config's caption unless plot.title); the
 * canvas size in pixels goes to *width, *height.  Returns 0, or -1 with an
 * error in d. */
int plotgp_write(const struct plotspec *spec, const struct plotdata *pd, const char *title,
                 const struct plotgp_paths *paths, FILE *vars, FILE *data, int *width, int *height,
                 struct diag *d);

/* The rows of csv as a whitespace-separated table for hand-written scripts:
 * first line the column names, strings double-quoted, empty cells NaN. */
void plotgp_write_table(FILE *out, const struct csv *csv, const size_t *rows, size_t nrows);

/* A gnuplot string literal of s in double quotes (backslash escapes). */
void plotgp_quote(FILE *out, const char *s);

#endif
