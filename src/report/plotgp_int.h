/* plotgp_int.h - what the parts of the gnuplot writer share (plotgp.h is
 * their interface): plotgp.c lays the figure out and writes the preamble,
 * plotgp_blocks.c the key entries and the data blocks of each plot type,
 * plotgp_text.c measures and quotes text.  Include it only there. */
#ifndef PLOTGP_INT_H
#define PLOTGP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/sbuf.h"
#include "report/plotaxis.h"
#include "report/plotgp.h"

/* gnuplot's character cell for the default 12 pt font of pngcairo (the SVG
 * terminal gets a font of the same size): margins and offsets are in these
 * units. */
#define HCHAR 10.0
#define VCHAR 18.7
#define CELL_W_SINGLE 720 /* plot cell of a one-panel figure */
#define CELL_H_SINGLE 460
#define CELL_W_GRID 520   /* per panel in a grid */
#define CELL_H_GRID 380
#define MIN_BAR_PX 11     /* narrower bars get a wider figure */
#define MAX_W 2400
#define MANY_POINTS 40    /* more points per line than this: no markers */
#define AGG_COLOR 7       /* black: aggregates */

struct series {
    char *title;
    int color, dash, point;
    double width;
};

struct panel {
    struct axis x, y;
    struct axis_data xd, yd;
    struct sbuf blocks, bseries, ebblocks, ebseries, mblocks, mseries;
    struct sbuf xtics;         /* category axes: the tic list */
    double cxmin, cxmax;       /* category axes: the x range */
    int clusters, totals;      /* block numbers, -1: none */
    double cluster_crowd;      /* stacked: px of cluster names per x unit between neighbours */
    double longest_tic;        /* px */
    size_t ntics;
};

struct gp {
    const struct plotspec *spec;
    const struct plotdata *pd;
    FILE *data;
    size_t nblocks;
    struct series *ser;
    size_t nser;
    size_t *ser_of;            /* (group, y column) -> series number (1-based), 0: none */
    struct panel *pan;
    struct axis cb;            /* heatmap colours */
    bool many_points;
    bool rotate;               /* category tic labels vertical */
    bool zero_floor;           /* some log axis has values <= 0 at its floor */
    bool clip_x, clip_y;       /* no value below 0: error bars stop at 0 */
};

/* The lower end of an error bar on an axis whose values are all >= 0: a
 * confidence interval reaching below 0 stops at 0 (a negative count or
 * percentage is no possible value). */
static inline double low_end(bool clip, double v)
{
    return clip && v < 0 ? 0 : v;
}

/* ---- plotgp_text.c ------------------------------------------------------------ */

/* A double-quoted string for text inside a single-quoted variable (the tic
 * lists), appended to b. */
void gp_tic_text(struct sbuf *b, const char *s);
/* A string cell of the data file. */
void gp_data_text(FILE *out, const char *s);
/* A number of the data file or the preamble ("NaN" for none). */
void gp_num(FILE *out, double v);
/* Width in pixels of one line of text in the default font. */
double gp_text_px(const char *s);
/* s wrapped at spaces into lines of at most maxpx pixels (malloc'd); the
 * number of lines into *lines. */
char *gp_wrap_px(const char *s, double maxpx, int *lines);

/* ---- plotgp_blocks.c ------------------------------------------------------------ */

/* The number of entries of a block list ("0 3 4": 3). */
size_t gp_list_len(const struct sbuf *l);
/* Key entries of lines, timeseries and bars: a series per (group, y
 * column) with a value. */
void gp_series_by_group_and_y(struct gp *g);
/* The data blocks of each plot type (the cdf, scatter and stacked writers
 * add their own series). */
void gp_write_curves(struct gp *g);
void gp_write_cdf(struct gp *g);
void gp_write_scatter(struct gp *g);
void gp_write_bars(struct gp *g);
void gp_write_stacked(struct gp *g);
void gp_write_heatmap(struct gp *g);

#endif
