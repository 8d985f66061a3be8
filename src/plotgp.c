/* plotgp.c - the preamble and data file a figure template draws (see
 * plotgp.h; the variables are listed in docs/plots.md).
 *
 * Layout, in pixels, then handed to gnuplot as screen fractions (panel
 * cells, key strip, title band) and character units (margins inside each
 * cell, the same for every panel so their plot areas line up):
 *
 *   +------------------------------------------------+-----------+
 *   | title (wrapped)                                            |
 *   +----------------+----------------+--------------+-----------+
 *   | panel 1        | panel 2        | panel 3      | key strip |
 *   | panel 4        | ...            |              | (shared)  |
 *   +----------------+----------------+--------------+-----------+
 *
 * Character metrics are those of gnuplot's default 12 pt font in pngcairo
 * (a 10 x 18.7 px cell; the text itself is narrower, measured with the
 * font's advance widths); they only decide how much room to leave.
 */
#include "plotgp.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plotaxis.h"
#include "sbuf.h"

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
static double low_end(bool clip, double v)
{
    return clip && v < 0 ? 0 : v;
}

/* ---- text --------------------------------------------------------------------- */

void plotgp_quote(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else if (*s == '\r' || *s == '\t')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* A double-quoted string for text inside a single-quoted variable (the tic
 * lists): backslash escapes, then '' for every single quote. */
static void tic_text(struct sbuf *b, const char *s)
{
    sbuf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_putc(b, '\\');
        if (*s == '\'')
            sbuf_putc(b, '\'');
        sbuf_putc(b, *s == '\n' ? ' ' : *s);
    }
    sbuf_putc(b, '"');
}

/* A string cell of the data file: gnuplot has no escapes there, so double
 * quotes become single ones; "" would read as a missing value. */
static void data_text(FILE *out, const char *s)
{
    fputc('"', out);
    if (!*s)
        fputc(' ', out);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, out);
    fputc('"', out);
}

static void num(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("NaN", out);
    else
        fprintf(out, "%.10g", v == 0 ? 0 : v); /* no "-0" */
}

/* Advance widths of printable ASCII in the default sans font (DejaVu Sans,
 * units of 1/2048 em); the em is 15.2 px at 12 pt in pngcairo. */
static const unsigned short advance[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,  690,  799,  1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716};

/* Width in pixels of one line of text in the default font. */
static double text_pxn(const char *s, size_t n)
{
    double units = 0;
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127)
            units += advance[c - 32];
        else if ((c & 0xC0) != 0x80) /* a non-ASCII character, counted once */
            units += 1300;
    }
    return units * 15.2 / 2048;
}

static double text_px(const char *s)
{
    return text_pxn(s, strlen(s));
}

static size_t fmax_z(double a, double b)
{
    return (size_t)(a > b ? a : b);
}

/* s wrapped at spaces into lines of at most maxpx pixels. */
static char *wrap_px(const char *s, double maxpx, int *lines)
{
    struct sbuf b = SBUF_INIT;
    size_t linestart = 0;
    *lines = s[0] ? 1 : 0;
    while (*s) {
        const char *word = s;
        size_t wl;
        while (*s && *s != ' ')
            s++;
        wl = (size_t)(s - word);
        if (b.len > linestart) {
            double w = text_pxn(b.s + linestart, b.len - linestart) + text_pxn(" ", 1) + text_pxn(word, wl);
            if (w > maxpx) {
                sbuf_putc(&b, '\n');
                linestart = b.len;
                (*lines)++;
            } else {
                sbuf_putc(&b, ' ');
            }
        }
        sbuf_put(&b, word, wl);
        while (*s == ' ')
            s++;
    }
    return sbuf_take(&b);
}

/* ---- data blocks ---------------------------------------------------------------- */

/* Start a new block (two blank lines apart) and return its number. */
static size_t begin_block(struct gp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t begin_block(struct gp *g, const char *fmt, ...)
{
    va_list ap;
    if (g->nblocks)
        fputs("\n\n", g->data);
    fprintf(g->data, "# block %zu: ", g->nblocks);
    va_start(ap, fmt);
    vfprintf(g->data, fmt, ap);
    va_end(ap);
    fputc('\n', g->data);
    return g->nblocks++;
}

static void list_add(struct sbuf *l, size_t v)
{
    sbuf_printf(l, "%s%zu", l->len ? " " : "", v);
}

static size_t list_len(const struct sbuf *l)
{
    size_t n = 0;
    for (const char *s = sbuf_str(l); *s; s++)
        n += *s != ' ' && (s[1] == ' ' || s[1] == '\0');
    return n;
}

/* ---- series ------------------------------------------------------------------------ */

static bool group_is_aggregate(const struct plotspec *spec, const struct plotdata *pd, size_t g)
{
    /* With "only" over a column that is no group column (e.g. the windows
     * of each line), every point is an aggregate: the groups keep their
     * colours. */
    if (spec->agg_only) {
        bool over_group = false;
        for (size_t i = 0; i < spec->ngroup; i++)
            over_group = over_group || strcmp(spec->group[i], spec->agg_over) == 0;
        if (!over_group)
            return false;
    }
    bool any = false;
    for (size_t i = 0; i < pd->npts; i++) {
        if (pd->pts[i].group != g)
            continue;
        if (!pd->pts[i].aggregate)
            return false;
        any = true;
    }
    return any;
}

static int color_of(size_t i, bool aggregate)
{
    /* Black is kept for aggregates. */
    static const int order[] = {1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12};
    if (aggregate)
        return AGG_COLOR;
    return order[i % (sizeof order / sizeof order[0])];
}

static void add_series(struct gp *g, const char *title, int color, int dash, int point, double width)
{
    g->ser = mem_realloc(g->ser, (g->nser + 1) * sizeof *g->ser);
    g->ser[g->nser].title = mem_strdup(title);
    g->ser[g->nser].color = color;
    g->ser[g->nser].dash = dash;
    g->ser[g->nser].point = point;
    g->ser[g->nser].width = width;
    g->nser++;
}

/* Series of (group, y column) pairs that have a value somewhere: lines,
 * timeseries, bars.  Colour tells groups apart, dash type the y columns. */
static void series_by_group_and_y(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    struct sbuf t = SBUF_INIT;
    size_t ng = pd->ngroups, ny = pd->ny, nonagg = 0, nonagg_series = 0;
    bool grouped = g->spec->ngroup > 0;
    g->ser_of = mem_array(ng * ny + 1, sizeof *g->ser_of);
    for (size_t gi = 0; gi < ng; gi++) {
        bool agg = group_is_aggregate(g->spec, pd, gi);
        for (size_t k = 0; k < ny; k++) {
            bool any = false;
            for (size_t i = 0; i < pd->npts && !any; i++)
                any = pd->pts[i].group == gi && !isnan(pd->pts[i].y[k]);
            if (!any)
                continue;
            sbuf_clear(&t);
            if (!grouped || pd->group_label[gi][0] == '\0')
                sbuf_puts(&t, pd->ytitle[k]);
            else if (ny == 1)
                sbuf_puts(&t, pd->group_label[gi]);
            else
                sbuf_printf(&t, "%s, %s", pd->ytitle[k], pd->group_label[gi]);
            size_t ci = grouped ? gi : k;
            if (grouped && !agg)
                ci = nonagg;
            if (pd->kind == PLOT_BARS && !agg) /* bars have no dash types: a colour each */
                ci = nonagg_series++;
            add_series(g, sbuf_str(&t), color_of(ci, agg), grouped && ny > 1 ? (int)(k % 5) + 1 : 1,
                       (int)(ci % 13) + 1, agg ? 3 : 2);
            g->ser_of[gi * ny + k] = g->nser;
        }
        if (grouped && !agg)
            nonagg++;
    }
    sbuf_free(&t);
}

/* ---- axes ------------------------------------------------------------------------- */

/* An error bar's end: on a log axis one at or below 0 (a confidence
 * interval reaching past 0) is cut at the axis floor, and is no 0 value
 * the axis must make room for. */
static void add_bound(struct axis_data *ad, double v, bool log)
{
    if (!log || v > 0)
        axis_data_add(ad, v);
}

static void collect_numeric(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    for (size_t i = 0; i < pd->npts; i++) {
        const struct pd_point *p = &pd->pts[i];
        struct panel *P = &g->pan[p->panel];
        bool any = false;
        switch (pd->kind) {
        case PLOT_HEATMAP:
            axis_data_add(&P->xd, p->x);
            axis_data_add(&P->xd, p->x_end);
            axis_data_add(&P->yd, p->y[0]);
            axis_data_add(&P->yd, p->y_end);
            continue;
        case PLOT_SCATTER:
            if (isnan(p->y[0]))
                continue;
            axis_data_add(&P->xd, p->x);
            add_bound(&P->xd, low_end(g->clip_x, p->xlo), g->spec->logx);
            add_bound(&P->xd, p->xhi, g->spec->logx);
            break;
        default:
            break;
        }
        for (size_t k = 0; k < pd->ny; k++) {
            if (isnan(p->y[k]))
                continue;
            any = true;
            axis_data_add(&P->yd, p->y[k]);
            add_bound(&P->yd, low_end(g->clip_y, p->lo[k]), g->spec->logy);
            add_bound(&P->yd, p->hi[k], g->spec->logy);
        }
        if (any && pd->kind != PLOT_SCATTER)
            axis_data_add(&P->xd, p->x);
    }
}

static void make_axes(struct gp *g, bool category_x)
{
    const struct plotspec *s = g->spec;
    const struct plotdata *pd = g->pd;
    struct axis_data allx, ally;
    struct axis_opts xo = {0}, yo = {0};
    axis_data_init(&allx);
    axis_data_init(&ally);
    for (size_t p = 0; p < pd->npanels; p++) {
        axis_data_merge(&allx, &g->pan[p].xd);
        axis_data_merge(&ally, &g->pan[p].yd);
    }
    xo.log = s->logx;
    xo.hex = pd->x_hex;
    xo.exact_ticks = s->logx && (pd->kind == PLOT_LINES || pd->kind == PLOT_TIMESERIES);
    xo.tight = pd->kind == PLOT_LINES || pd->kind == PLOT_TIMESERIES || pd->kind == PLOT_CDF;
    xo.has_min = s->has_xmin;
    xo.has_max = s->has_xmax;
    xo.min = s->xmin;
    xo.max = s->xmax;
    yo.log = s->logy;
    yo.hex = pd->y_hex;
    yo.from_zero = pd->kind == PLOT_BARS || pd->kind == PLOT_STACKED;
    yo.has_min = s->has_ymin;
    yo.has_max = s->has_ymax;
    yo.min = s->ymin;
    yo.max = s->ymax;
    if (pd->kind == PLOT_CDF) {
        yo.has_min = yo.has_max = true;
        yo.min = 0;
        yo.max = 100;
    }
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        if (!category_x)
            axis_make(&P->x, &allx, &xo); /* one x axis for every panel */
        axis_make(&P->y, s->shared_y ? &ally : &P->yd, &yo);
        if (P->y.zero_floor || (!category_x && P->x.zero_floor))
            g->zero_floor = true;
    }
}

static void tics_of(const struct axis *a, struct sbuf *out)
{
    struct sbuf b = SBUF_INIT;
    sbuf_putc(&b, '(');
    for (size_t i = 0; i < a->nticks; i++) {
        if (i)
            sbuf_puts(&b, ", ");
        tic_text(&b, a->ticks[i].label);
        sbuf_printf(&b, " %.10g", a->ticks[i].v);
    }
    sbuf_putc(&b, ')');
    sbuf_clear(out);
    sbuf_puts(out, sbuf_str(&b));
    sbuf_free(&b);
}

static void cat_tic(struct panel *P, const char *label, double x)
{
    if (P->xtics.len == 0)
        sbuf_putc(&P->xtics, '(');
    else
        sbuf_puts(&P->xtics, ", ");
    tic_text(&P->xtics, label);
    sbuf_printf(&P->xtics, " %.10g", x);
    if (text_px(label) > P->longest_tic)
        P->longest_tic = text_px(label);
    P->ntics++;
}

/* ---- kinds ------------------------------------------------------------------------- */

/* lines, timeseries: block per panel x series: x y lo hi. */
static void write_curves(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    size_t ny = pd->ny;
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        for (size_t gi = 0; gi < pd->ngroups; gi++) {
            for (size_t k = 0; k < ny; k++) {
                size_t s = g->ser_of[gi * ny + k], n = 0, b = 0;
                bool bounds = false;
                if (!s)
                    continue;
                for (size_t i = 0; i < pd->npts; i++) {
                    const struct pd_point *q = &pd->pts[i];
                    if (q->panel != p || q->group != gi || isnan(q->y[k]))
                        continue;
                    if (n++ == 0)
                        b = begin_block(g, "panel %zu, series %zu (%s); x y lo hi", p + 1, s, g->ser[s - 1].title);
                    num(g->data, axis_place(&P->x, q->x));
                    fputc(' ', g->data);
                    num(g->data, axis_place(&P->y, q->y[k]));
                    fputc(' ', g->data);
                    num(g->data, isnan(q->lo[k]) ? NAN : axis_place(&P->y, low_end(g->clip_y, q->lo[k])));
                    fputc(' ', g->data);
                    num(g->data, isnan(q->hi[k]) ? NAN : axis_place(&P->y, q->hi[k]));
                    fputc('\n', g->data);
                    bounds = bounds || (!isnan(q->lo[k]) && !isnan(q->hi[k]));
                }
                if (n == 0)
                    continue;
                if (n > MANY_POINTS)
                    g->many_points = true;
                list_add(&P->blocks, b);
                list_add(&P->bseries, s);
                if (bounds) {
                    list_add(&P->ebblocks, b);
                    list_add(&P->ebseries, s);
                }
            }
            if (pd->kind == PLOT_TIMESERIES && g->spec->marker) {
                size_t n = 0, b = 0, s = g->ser_of[gi * ny];
                for (size_t k = 0; !s && k < ny; k++)
                    s = g->ser_of[gi * ny + k];
                for (size_t i = 0; i < pd->npts; i++) {
                    const struct pd_point *q = &pd->pts[i];
                    if (q->panel != p || q->group != gi || !q->marker)
                        continue;
                    if (n++ == 0)
                        b = begin_block(g, "panel %zu, markers of group %zu; x", p + 1, gi + 1);
                    num(g->data, axis_place(&P->x, q->x));
                    fputc('\n', g->data);
                }
                if (n) {
                    list_add(&P->mblocks, b);
                    list_add(&P->mseries, s ? s : 1);
                }
            }
        }
    }
}

/* cdf: block per panel x group: x y. */
static void write_cdf(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    g->ser_of = mem_array(pd->ngroups + 1, sizeof *g->ser_of);
    for (size_t gi = 0, nonagg = 0; gi < pd->ngroups; gi++) {
        bool agg = group_is_aggregate(g->spec, pd, gi);
        add_series(g, g->spec->ngroup && pd->group_label[gi][0] ? pd->group_label[gi] : pd->ytitle[0],
                   color_of(nonagg, agg), 1, 0, agg ? 3 : 2);
        g->ser_of[gi] = g->nser;
        nonagg += !agg;
    }
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        for (size_t gi = 0; gi < pd->ngroups; gi++) {
            size_t n = 0, b = 0;
            for (size_t i = 0; i < pd->npts; i++) {
                const struct pd_point *q = &pd->pts[i];
                if (q->panel != p || q->group != gi)
                    continue;
                if (n++ == 0)
                    b = begin_block(g, "panel %zu, series %zu (%s); x cumulative%%", p + 1, g->ser_of[gi],
                                    g->ser[g->ser_of[gi] - 1].title);
                num(g->data, axis_place(&P->x, q->x));
                fputc(' ', g->data);
                num(g->data, q->y[0]);
                fputc('\n', g->data);
            }
            if (n) {
                list_add(&P->blocks, b);
                list_add(&P->bseries, g->ser_of[gi]);
            }
        }
    }
}

/* scatter: block per panel x group: x y lo hi xlo xhi label. */
static void write_scatter(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    g->ser_of = mem_array(pd->ngroups + 1, sizeof *g->ser_of);
    for (size_t gi = 0, nonagg = 0; gi < pd->ngroups; gi++) {
        bool agg = group_is_aggregate(g->spec, pd, gi);
        add_series(g, g->spec->ngroup && pd->group_label[gi][0] ? pd->group_label[gi] : pd->ytitle[0],
                   color_of(nonagg, agg), 1, agg ? 5 : (int)(nonagg % 6) * 2 + 5, 2);
        g->ser_of[gi] = g->nser;
        nonagg += !agg;
    }
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        for (size_t gi = 0; gi < pd->ngroups; gi++) {
            size_t n = 0, b = 0;
            bool bounds = false;
            for (size_t i = 0; i < pd->npts; i++) {
                const struct pd_point *q = &pd->pts[i];
                if (q->panel != p || q->group != gi || isnan(q->x) || isnan(q->y[0]))
                    continue;
                if (n++ == 0)
                    b = begin_block(g, "panel %zu, series %zu (%s); x y lo hi xlo xhi label", p + 1, g->ser_of[gi],
                                    g->ser[g->ser_of[gi] - 1].title);
                bool yb = !isnan(q->lo[0]) && !isnan(q->hi[0]), xb = !isnan(q->xlo) && !isnan(q->xhi);
                num(g->data, axis_place(&P->x, q->x));
                fputc(' ', g->data);
                num(g->data, axis_place(&P->y, q->y[0]));
                fputc(' ', g->data);
                num(g->data, yb ? axis_place(&P->y, low_end(g->clip_y, q->lo[0])) : NAN);
                fputc(' ', g->data);
                num(g->data, yb ? axis_place(&P->y, q->hi[0]) : NAN);
                fputc(' ', g->data);
                num(g->data, xb ? axis_place(&P->x, low_end(g->clip_x, q->xlo)) : NAN);
                fputc(' ', g->data);
                num(g->data, xb ? axis_place(&P->x, q->xhi) : NAN);
                fputc(' ', g->data);
                data_text(g->data, q->label ? q->label : "");
                fputc('\n', g->data);
                bounds = bounds || xb || yb;
            }
            if (!n)
                continue;
            list_add(&P->blocks, b);
            list_add(&P->bseries, g->ser_of[gi]);
            if (bounds) {
                list_add(&P->ebblocks, b);
                list_add(&P->ebseries, g->ser_of[gi]);
            }
        }
    }
}

static bool cat_is_aggregate(const struct plotdata *pd, size_t p, size_t c)
{
    bool any = false;
    for (size_t i = 0; i < pd->npts; i++) {
        if (pd->pts[i].panel != p || pd->pts[i].cat != c)
            continue;
        if (!pd->pts[i].aggregate)
            return false;
        any = true;
    }
    return any;
}

/* bars: one cluster per category, a bar per series present in the panel.
 * Block per panel x series: xlo xhi base top lo hi. */
static void write_bars(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    size_t ny = pd->ny;
    size_t *slot = mem_array(g->nser + 1, sizeof *slot);
    double *cx = mem_array(pd->ncats + 1, sizeof *cx);
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        size_t nslot = 0, ncat = 0;
        double pos = 0;
        bool *has = mem_array(g->nser + 1, sizeof *has);
        bool *cat_used = mem_array(pd->ncats + 1, sizeof *cat_used);
        for (size_t i = 0; i < pd->npts; i++) {
            const struct pd_point *q = &pd->pts[i];
            if (q->panel != p)
                continue;
            for (size_t k = 0; k < ny; k++)
                if (!isnan(q->y[k])) {
                    has[g->ser_of[q->group * ny + k]] = true;
                    cat_used[q->cat] = true;
                }
        }
        for (size_t s = 1; s <= g->nser; s++)
            slot[s] = has[s] ? nslot++ : SIZE_MAX;
        for (size_t c = 0; c < pd->ncats; c++) {
            if (!cat_used[c])
                continue;
            if (ncat > 0 && cat_is_aggregate(pd, p, c))
                pos += 0.5; /* set the summary apart */
            cx[c] = pos;
            cat_tic(P, pd->cat_label[c], pos);
            pos += 1;
            ncat++;
        }
        P->cxmin = -0.6;
        P->cxmax = pos - 0.4;
        if (ncat == 0)
            P->cxmax = 0.6;
        double bw = nslot ? 0.8 / (double)nslot : 0.8;
        for (size_t s = 1; s <= g->nser; s++) {
            size_t n = 0, b = 0;
            bool bounds = false;
            if (!has[s])
                continue;
            for (size_t i = 0; i < pd->npts; i++) {
                const struct pd_point *q = &pd->pts[i];
                for (size_t k = 0; k < ny; k++) {
                    if (q->panel != p || g->ser_of[q->group * ny + k] != s || isnan(q->y[k]))
                        continue;
                    double xlo = cx[q->cat] - 0.4 + (double)slot[s] * bw;
                    if (n++ == 0)
                        b = begin_block(g, "panel %zu, series %zu (%s); xlo xhi base top lo hi", p + 1, s,
                                        g->ser[s - 1].title);
                    num(g->data, xlo);
                    fputc(' ', g->data);
                    num(g->data, xlo + bw);
                    fputc(' ', g->data);
                    num(g->data, P->y.log ? P->y.floor : 0);
                    fputc(' ', g->data);
                    num(g->data, axis_place(&P->y, q->y[k]));
                    fputc(' ', g->data);
                    num(g->data, isnan(q->lo[k]) ? NAN : axis_place(&P->y, low_end(g->clip_y, q->lo[k])));
                    fputc(' ', g->data);
                    num(g->data, isnan(q->hi[k]) ? NAN : axis_place(&P->y, q->hi[k]));
                    fputc('\n', g->data);
                    bounds = bounds || (!isnan(q->lo[k]) && !isnan(q->hi[k]));
                }
            }
            if (!n)
                continue;
            list_add(&P->blocks, b);
            list_add(&P->bseries, s);
            if (bounds) {
                list_add(&P->ebblocks, b);
                list_add(&P->ebseries, s);
            }
        }
        free(has);
        free(cat_used);
    }
    free(slot);
    free(cx);
}

/* The y axis data of stacked bars: the tops of the stacks and the total's
 * bounds. */
static void collect_stacked(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    for (size_t i = 0; i < pd->npts; i++) {
        const struct pd_point *q = &pd->pts[i];
        struct panel *P = &g->pan[q->panel];
        double top = 0;
        bool any = false;
        for (size_t k = 0; k < pd->ny; k++)
            if (!isnan(q->y[k])) {
                top += q->y[k];
                any = true;
                axis_data_add(&P->yd, top);
            }
        if (!any)
            continue;
        add_bound(&P->yd, low_end(g->clip_y, q->total_lo), g->spec->logy);
        add_bound(&P->yd, q->total_hi, g->spec->logy);
    }
}

/* stacked: a bar per (category, group) with a value; with groups, the
 * bars of a category form a cluster named under the group labels.  Block
 * per panel x component: xlo xhi bottom top; a block of totals (xc total lo
 * hi) and one of cluster names (xc "name"). */
static void write_stacked(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    size_t ny = pd->ny, ng = pd->ngroups;
    bool grouped = g->spec->ngroup > 0;
    for (size_t k = 0; k < ny; k++)
        add_series(g, pd->ytitle[k], color_of(k, false), 1, 0, 2);
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        /* bar position of each (category, group); NaN: no bar */
        double *bx = mem_array(pd->ncats * ng + 1, sizeof *bx);
        double pos = 0;
        size_t nclusters = 0;
        double *cluster_x = mem_array(pd->ncats + 1, sizeof *cluster_x);
        size_t *cluster_cat = mem_array(pd->ncats + 1, sizeof *cluster_cat);
        for (size_t i = 0; i < pd->ncats * ng; i++)
            bx[i] = NAN;
        for (size_t c = 0; c < pd->ncats; c++) {
            size_t nb = 0;
            double first = 0;
            for (size_t gi = 0; gi < ng; gi++) {
                bool any = false;
                for (size_t i = 0; i < pd->npts && !any; i++) {
                    const struct pd_point *q = &pd->pts[i];
                    if (q->panel != p || q->cat != c || q->group != gi)
                        continue;
                    for (size_t k = 0; k < ny; k++)
                        any = any || !isnan(q->y[k]);
                }
                if (!any)
                    continue;
                if (nb == 0 && nclusters > 0)
                    pos += grouped ? 0.8 : 0.25;
                if (nb == 0 && cat_is_aggregate(pd, p, c))
                    pos += 0.4;
                if (nb == 0)
                    first = pos;
                bx[c * ng + gi] = pos + 0.5;
                if (grouped)
                    cat_tic(P, pd->group_label[gi], pos + 0.5);
                else
                    cat_tic(P, pd->cat_label[c], pos + 0.5);
                pos += 1;
                nb++;
            }
            if (nb == 0)
                continue;
            cluster_x[nclusters] = (first + pos) / 2;
            cluster_cat[nclusters] = c;
            nclusters++;
        }
        P->cxmin = -0.3;
        P->cxmax = pos > 0 ? pos + 0.3 : 1;
        for (size_t k = 0; k < ny; k++) {
            size_t n = 0, b = 0;
            for (size_t c = 0; c < pd->ncats; c++)
                for (size_t gi = 0; gi < ng; gi++) {
                    const struct pd_point *q = NULL;
                    double bottom = 0;
                    if (isnan(bx[c * ng + gi]))
                        continue;
                    for (size_t i = 0; i < pd->npts && !q; i++)
                        if (pd->pts[i].panel == p && pd->pts[i].cat == c && pd->pts[i].group == gi)
                            q = &pd->pts[i];
                    if (!q || isnan(q->y[k]))
                        continue;
                    for (size_t j = 0; j < k; j++)
                        if (!isnan(q->y[j]))
                            bottom += q->y[j];
                    if (n++ == 0)
                        b = begin_block(g, "panel %zu, component %zu (%s); xlo xhi bottom top", p + 1, k + 1,
                                        pd->ytitle[k]);
                    num(g->data, bx[c * ng + gi] - 0.4);
                    fputc(' ', g->data);
                    num(g->data, bx[c * ng + gi] + 0.4);
                    fputc(' ', g->data);
                    num(g->data, axis_place(&P->y, bottom));
                    fputc(' ', g->data);
                    num(g->data, axis_place(&P->y, bottom + q->y[k]));
                    fputc('\n', g->data);
                }
            if (n) {
                list_add(&P->blocks, b);
                list_add(&P->bseries, k + 1);
            }
        }
        {
            size_t n = 0, b = 0;
            for (size_t i = 0; i < pd->npts; i++) {
                const struct pd_point *q = &pd->pts[i];
                if (q->panel != p || isnan(q->total_lo) || isnan(q->total_hi) ||
                    isnan(bx[q->cat * ng + q->group]))
                    continue;
                if (n++ == 0)
                    b = begin_block(g, "panel %zu, error bars of the totals; x total lo hi", p + 1);
                num(g->data, bx[q->cat * ng + q->group]);
                fputc(' ', g->data);
                num(g->data, axis_place(&P->y, q->total));
                fputc(' ', g->data);
                num(g->data, axis_place(&P->y, low_end(g->clip_y, q->total_lo)));
                fputc(' ', g->data);
                num(g->data, axis_place(&P->y, q->total_hi));
                fputc('\n', g->data);
            }
            P->totals = n ? (int)b : -1;
        }
        if (grouped && nclusters) {
            P->clusters = (int)begin_block(g, "panel %zu, cluster names; x name", p + 1);
            for (size_t i = 0; i < nclusters; i++) {
                /* neighbours' half names and a gap must fit between
                 * their centres */
                if (i > 0 && cluster_x[i] > cluster_x[i - 1]) {
                    double px = (text_px(pd->cat_label[cluster_cat[i - 1]]) +
                                 text_px(pd->cat_label[cluster_cat[i]])) / 2 + 2 * HCHAR;
                    P->cluster_crowd = fmax(P->cluster_crowd, px / (cluster_x[i] - cluster_x[i - 1]));
                }
                num(g->data, cluster_x[i]);
                fputc(' ', g->data);
                data_text(g->data, pd->cat_label[cluster_cat[i]]);
                fputc('\n', g->data);
            }
        }
        free(cluster_x);
        free(cluster_cat);
        free(bx);
    }
}

/* heatmap: block per panel: xlo xhi ylo yhi z, big cells first. */
static void write_heatmap(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    struct axis_data zd;
    struct axis_opts zo = {0};
    axis_data_init(&zd);
    for (size_t i = 0; i < pd->npts; i++)
        axis_data_add(&zd, pd->pts[i].z);
    zo.log = g->spec->logz;
    axis_make(&g->cb, &zd, &zo);
    if (g->cb.zero_floor)
        g->zero_floor = true;
    for (size_t p = 0; p < pd->npanels; p++) {
        struct panel *P = &g->pan[p];
        size_t n = 0, b = 0;
        for (size_t i = 0; i < pd->npts; i++) {
            const struct pd_point *q = &pd->pts[i];
            if (q->panel != p || isnan(q->z))
                continue;
            if (n++ == 0)
                b = begin_block(g, "panel %zu; xlo xhi ylo yhi z", p + 1);
            num(g->data, axis_place(&P->x, q->x));
            fputc(' ', g->data);
            num(g->data, axis_place(&P->x, q->x_end));
            fputc(' ', g->data);
            num(g->data, axis_place(&P->y, q->y[0]));
            fputc(' ', g->data);
            num(g->data, axis_place(&P->y, q->y_end));
            fputc(' ', g->data);
            num(g->data, axis_place(&g->cb, q->z));
            fputc('\n', g->data);
        }
        if (n) {
            list_add(&P->blocks, b);
            list_add(&P->bseries, 1);
        }
    }
}

/* ---- preamble ------------------------------------------------------------------ */

static void var_str(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = ", name);
    plotgp_quote(f, value);
    fputc('\n', f);
}

/* A value that gnuplot evaluates later (a tic list): single quotes. */
static void var_raw(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = '", name);
    for (const char *s = value; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputs("'\n", f);
}

static void var_num(FILE *f, const char *name, double v)
{
    fprintf(f, "%s = ", name);
    num(f, v);
    fputc('\n', f);
}

static double max_tick_chars(const struct axis *a)
{
    double m = 0;
    for (size_t i = 0; i < a->nticks; i++) {
        size_t n = 0;
        for (const char *c = a->ticks[i].label; *c; c++)
            n += ((unsigned char)*c & 0xC0) != 0x80;
        m = fmax(m, (double)n);
    }
    return m;
}

int plotgp_write(const struct plotspec *spec, const struct plotdata *pd, const char *title,
                 const struct plotgp_paths *paths, FILE *vars, FILE *data, int *width, int *height, struct diag *d)
{
    struct gp g;
    bool category_x = pd->kind == PLOT_BARS || pd->kind == PLOT_STACKED;
    const char *xlabel, *ylabel;
    struct sbuf note = SBUF_INIT, t = SBUF_INIT;
    size_t npan = pd->npanels, cols, rows, keylen = 0;
    int cell_w, cell_h, key_w = 0, title_h = 0, tlines = 0, W, H;
    double lmargin, lmargin_inner, bmargin, tmargin, rmargin, xlabel_offset = 0, cluster_offset = 0, ytw = 0;
    int cluster_stagger = 0;
    char *wrapped = NULL, *ylab = NULL, *xlab = NULL, *ylabel_buf = NULL;
    int ylines = 0, xlines = 0;
    (void)d;

    memset(&g, 0, sizeof g);
    g.spec = spec;
    g.pd = pd;
    g.data = data;
    g.pan = mem_array(npan, sizeof *g.pan);
    for (size_t p = 0; p < npan; p++) {
        axis_data_init(&g.pan[p].xd);
        axis_data_init(&g.pan[p].yd);
        g.pan[p].clusters = g.pan[p].totals = -1;
    }

    g.clip_x = g.clip_y = true;
    for (size_t i = 0; i < pd->npts; i++) {
        const struct pd_point *q = &pd->pts[i];
        if (q->x < 0)
            g.clip_x = false;
        for (size_t k = 0; k < pd->ny; k++)
            if (q->y[k] < 0)
                g.clip_y = false;
        if (q->total < 0)
            g.clip_y = false;
    }

    /* Series first (bars need them for the layout), then axes, then data. */
    if (pd->kind == PLOT_LINES || pd->kind == PLOT_TIMESERIES || pd->kind == PLOT_BARS)
        series_by_group_and_y(&g);
    if (pd->kind == PLOT_STACKED)
        collect_stacked(&g);
    else
        collect_numeric(&g);
    make_axes(&g, category_x);
    fprintf(data, "# hwprof plot: data of %s (type %s); blocks described by their first line\n", paths->stem,
            plot_kind_name(pd->kind));
    switch (pd->kind) {
    case PLOT_LINES:
    case PLOT_TIMESERIES:
        write_curves(&g);
        break;
    case PLOT_CDF:
        write_cdf(&g);
        break;
    case PLOT_SCATTER:
        write_scatter(&g);
        break;
    case PLOT_BARS:
        write_bars(&g);
        break;
    case PLOT_STACKED:
        write_stacked(&g);
        break;
    case PLOT_HEATMAP:
        write_heatmap(&g);
        break;
    }

    /* Labels. */
    xlabel = spec->xlabel ? spec->xlabel : plotspec_label(spec, spec->x);
    if (category_x && !spec->xlabel && (strcmp(spec->x, "workload") == 0 || strcmp(spec->x, "run") == 0))
        xlabel = ""; /* the names under the bars say it */
    if (spec->ylabel)
        ylabel = spec->ylabel;
    else if (pd->kind == PLOT_CDF)
        ylabel = "cumulative % of rows";
    else
        ylabel = spec->ny == 1 ? plotspec_label(spec, spec->y[0]) : "";
    if (spec->norm_col && !spec->ylabel) {
        char base[128];
        if (json_is_string(spec->norm_value))
            snprintf(base, sizeof base, "%s", plotspec_label(spec, json_string_value(spec->norm_value)));
        else if (json_is_boolean(spec->norm_value))
            snprintf(base, sizeof base, "%s=%d", spec->norm_col, json_is_true(spec->norm_value));
        else
            snprintf(base, sizeof base, "%s=%g", spec->norm_col, json_number_value(spec->norm_value));
        sbuf_printf(&t, "%s%srelative to %s", ylabel, ylabel[0] ? ", " : "", base);
        ylabel_buf = sbuf_take(&t);
        ylabel = ylabel_buf;
    }

    /* Key entries: series, markers, notes. */
    for (size_t s = 0; s < g.nser; s++)
        keylen = fmax_z(keylen, text_px(g.ser[s].title));
    if (pd->kind == PLOT_TIMESERIES && spec->marker)
        keylen = fmax_z(keylen, text_px(plotspec_label(spec, spec->marker)));
    if (pd->any_bounds)
        sbuf_puts(&note, spec->errorbars == EB_MINMAX ? "error bars: min to max" : "error bars: 95% confidence interval");
    if (g.zero_floor) {
        if (note.len)
            sbuf_puts(&note, "\n");
        sbuf_puts(&note, "0: values of 0, drawn at\nthe floor of the log axis");
    }
    {
        const char *s = sbuf_str(&note);
        while (*s) {
            size_t n = strcspn(s, "\n");
            char line[256];
            snprintf(line, sizeof line, "%.*s", (int)(n < 255 ? n : 255), s);
            keylen = fmax_z(keylen, text_px(line));
            s += n + (s[n] == '\n');
        }
    }
    /* Rows without a value to draw (a short window with no complete
     * interval): an empty figure that says so, not a missing one. */
    if (g.nblocks == 0)
        fprintf(stderr, "hwprof plot: warning: no value to plot in %s; the figure is empty\n", paths->csv);
    bool show_key = pd->kind != PLOT_HEATMAP && (g.nser > 1 || note.len || pd->kind == PLOT_TIMESERIES ||
                                                 (g.nser == 1 && strcmp(g.ser[0].title, ylabel) != 0));
    if (show_key)
        key_w = (int)keylen + 100; /* sample, gaps */

    /* Grid. */
    cols = 1;
    while (cols * cols < npan)
        cols++;
    if (npan <= 3)
        cols = npan;
    rows = (npan + cols - 1) / cols;
    cell_w = npan == 1 ? CELL_W_SINGLE : CELL_W_GRID;
    cell_h = npan == 1 ? CELL_H_SINGLE : CELL_H_GRID;

    /* Margins (gnuplot character units), the same for every panel of a
     * column; the y label only left of the first column, the x label only
     * under the last panel of each column. */
    for (size_t p = 0; p < npan; p++)
        ytw = fmax(ytw, max_tick_chars(&g.pan[p].y));
    /* gnuplot places the y label beside the tick labels as it estimates
     * them (a character cell each), so the margin counts characters too */
    lmargin_inner = ytw + 2;
    lmargin = lmargin_inner + (ylabel[0] ? VCHAR / HCHAR + 0.6 : 0);
    tmargin = npan > 1 ? 1.8 : 1;
    rmargin = pd->kind == PLOT_HEATMAP ? 12 : 2.5;
    bmargin = 2.6;
    if (category_x) {
        double longest = 0;
        size_t ntics = 0;
        for (size_t p = 0; p < npan; p++) {
            longest = fmax(longest, g.pan[p].longest_tic);
            if (g.pan[p].ntics > ntics)
                ntics = g.pan[p].ntics;
        }
        /* Wider cells for many bars, up to MAX_W for the figure. */
        {
            size_t bars = 2 * ntics; /* stacked: a bar and a gap's share per tic */
            int need;
            if (pd->kind == PLOT_BARS) {
                size_t maxslots = 0;
                for (size_t p = 0; p < npan; p++)
                    if (list_len(&g.pan[p].bseries) > maxslots)
                        maxslots = list_len(&g.pan[p].bseries);
                bars = ntics * (maxslots + 1);
            }
            need = (int)bars * MIN_BAR_PX + (int)((lmargin + rmargin) * HCHAR);
            if (need > cell_w)
                cell_w = need;
            if ((int)cols * cell_w + key_w > MAX_W)
                cell_w = (MAX_W - key_w) / (int)cols;
        }
        /* Names side by side when a wider figure (up to MAX_W) holds
         * them, else vertical. */
        if (ntics) {
            double units = 0; /* ticks are at least one x unit apart */
            for (size_t p = 0; p < npan; p++)
                units = fmax(units, g.pan[p].cxmax - g.pan[p].cxmin);
            int need = (int)((longest + 12) * units + (lmargin + rmargin) * HCHAR);
            if (longest <= 16 * HCHAR && need > cell_w && need <= cell_w * 14 / 10 && (int)cols * need + key_w <= MAX_W)
                cell_w = need;
            if (need > cell_w || longest > 16 * HCHAR)
                g.rotate = true;
        }
        double below = g.rotate ? longest / VCHAR + 0.8 : 1.8; /* tick labels, in lines */
        if (g.rotate) {
            bmargin += below - 1.5;
            cell_h += (int)((below - 1.5) * VCHAR);
        }
        if (pd->kind == PLOT_STACKED && spec->ngroup) {
            cluster_offset = -(below + 0.7);
            bmargin += 1.3; /* cluster names under the bar names */
            cell_h += (int)(1.3 * VCHAR);
            xlabel_offset = -1.3;
            /* Names wider than the space between their clusters: every
             * other one a line lower. */
            double plot_w = cell_w - (lmargin + rmargin) * HCHAR;
            for (size_t p = 0; p < npan; p++) {
                double units = g.pan[p].cxmax - g.pan[p].cxmin;
                if (units > 0 && g.pan[p].cluster_crowd > plot_w / units)
                    cluster_stagger = 1;
            }
            if (cluster_stagger) {
                bmargin += 1.1;
                cell_h += (int)(1.1 * VCHAR);
                xlabel_offset -= 1.1;
            }
        }
    }
    if (!category_x) {
        /* Hexadecimal tick labels (addresses) too long to stand side by
         * side on a narrow panel turn vertical. */
        double longest = 0, plot_w = cell_w - (lmargin + rmargin) * HCHAR;
        size_t ntics = 0;
        for (size_t p = 0; p < npan; p++) {
            if (!g.pan[p].x.hex)
                continue;
            longest = fmax(longest, max_tick_chars(&g.pan[p].x));
            if (g.pan[p].x.nticks > ntics)
                ntics = g.pan[p].x.nticks;
        }
        if (ntics > 1 && (double)ntics * (longest + 2) * HCHAR > plot_w) {
            double below = longest * HCHAR / VCHAR + 0.8;
            g.rotate = true;
            bmargin += below - 1.5;
            cell_h += (int)((below - 1.5) * VCHAR);
        }
    }
    /* Axis labels wrapped to the plot area. */
    {
        double plot_w = cell_w - (lmargin + rmargin) * HCHAR;
        xlab = wrap_px(xlabel, plot_w > 100 ? plot_w : 100, &xlines);
        bmargin += 1.2 * xlines;
        double plot_h = cell_h - (tmargin + bmargin) * VCHAR;
        ylab = wrap_px(ylabel, plot_h > 100 ? plot_h : 100, &ylines);
        lmargin = lmargin_inner + ylines * (VCHAR / HCHAR) + (ylines ? 0.6 : 0);
    }

    W = (int)cols * cell_w + key_w;
    {
        const char *tt = title ? title : "";
        wrapped = wrap_px(tt, W - 60, &tlines);
        title_h = tlines ? (int)(tlines * VCHAR) + (npan > 1 ? 24 : 14) : 6;
    }
    H = (int)rows * cell_h + title_h;

    /* The preamble. */
    fprintf(vars, "# hwprof plot: %s (type %s), generated from %s; do not edit (a hand-written\n"
                  "# plots/%s/%s.gp replaces the template).  Redraw by hand:\n"
                  "#   gnuplot -e \"set terminal pngcairo size %d,%d; set output 'x.png'\" \\\n"
                  "#     THIS_FILE %s/%s.gp\n",
            paths->stem, plot_kind_name(pd->kind), paths->csv, paths->paper, paths->stem, W, H, paths->templates,
            plot_kind_name(pd->kind));
    var_str(vars, "kind", plot_kind_name(pd->kind));
    var_str(vars, "templates", paths->templates);
    var_str(vars, "data", paths->data);
    var_str(vars, "table", paths->table);
    var_str(vars, "csv", paths->csv);
    var_str(vars, "series", paths->series);
    var_str(vars, "config", paths->config);
    var_str(vars, "paper", paths->paper);
    var_str(vars, "stem", paths->stem);
    var_str(vars, "title", wrapped);
    fprintf(vars, "width = %d\nheight = %d\n", W, H);
    fprintf(vars, "npanels = %zu\ngrid_cols = %zu\ngrid_rows = %zu\n", npan, cols, rows);
    var_num(vars, "key_left", (double)(W - key_w) / W);
    var_num(vars, "top", (double)(H - title_h) / H);
    var_num(vars, "lmargin", lmargin);
    var_num(vars, "lmargin_inner", npan > 1 ? lmargin_inner : lmargin);
    var_num(vars, "rmargin", rmargin);
    var_num(vars, "tmargin", tmargin);
    var_num(vars, "bmargin", bmargin);
    var_str(vars, "xlabel", xlab);
    var_str(vars, "ylabel", ylab);
    var_num(vars, "xlabel_offset", xlabel_offset);
    /* gnuplot sets the first line of a rotated label beside the tick
     * labels and the others towards the axis: move them out. */
    var_num(vars, "ylabel_offset", ylines > 1 ? -0.6 * (ylines - 1) : 0);
    fprintf(vars, "logx = %d\nlogy = %d\nlogz = %d\n", category_x ? 0 : spec->logx, spec->logy, spec->logz);
    fprintf(vars, "xtics_rotate = %d\nxgrid = %d\n", g.rotate, !category_x && pd->kind != PLOT_HEATMAP);
    var_str(vars, "linestyle", g.many_points ? "lines" : "linespoints");
    var_str(vars, "note", sbuf_str(&note));
    var_str(vars, "marker_title", spec->marker ? plotspec_label(spec, spec->marker) : "");
    fprintf(vars, "nseries = %zu\n", g.nser);
    for (size_t s = 0; s < g.nser; s++) {
        char name[64];
        snprintf(name, sizeof name, "series_title_%zu", s + 1);
        var_str(vars, name, g.ser[s].title);
        fprintf(vars, "series_color_%zu = %d\nseries_dash_%zu = %d\nseries_point_%zu = %d\nseries_width_%zu = %g\n",
                s + 1, g.ser[s].color, s + 1, g.ser[s].dash, s + 1, g.ser[s].point, s + 1, g.ser[s].width);
    }
    if (pd->kind == PLOT_HEATMAP) {
        tics_of(&g.cb, &t);
        var_num(vars, "cbmin", g.cb.min);
        var_num(vars, "cbmax", g.cb.max);
        var_raw(vars, "cbtics", sbuf_str(&t));
        var_str(vars, "cblabel", plotspec_label(spec, spec->z));
    }
    if (pd->kind == PLOT_STACKED) {
        var_num(vars, "cluster_offset", cluster_offset);
        fprintf(vars, "cluster_stagger = %d\n", cluster_stagger);
    }
    for (size_t p = 0; p < npan; p++) {
        struct panel *P = &g.pan[p];
        char name[64];
#define PVAR(fmt_name) (snprintf(name, sizeof name, fmt_name "_%zu", p + 1), name)
        var_str(vars, PVAR("panel_title"), pd->panel_title[p]);
        if (category_x) {
            var_num(vars, PVAR("xmin"), P->cxmin);
            var_num(vars, PVAR("xmax"), P->cxmax);
            if (P->xtics.len)
                sbuf_putc(&P->xtics, ')');
            var_raw(vars, PVAR("xtics"), P->xtics.len ? sbuf_str(&P->xtics) : "()");
        } else {
            var_num(vars, PVAR("xmin"), P->x.min);
            var_num(vars, PVAR("xmax"), P->x.max);
            tics_of(&P->x, &t);
            var_raw(vars, PVAR("xtics"), sbuf_str(&t));
        }
        var_num(vars, PVAR("ymin"), P->y.min);
        var_num(vars, PVAR("ymax"), P->y.max);
        tics_of(&P->y, &t);
        var_raw(vars, PVAR("ytics"), sbuf_str(&t));
        var_str(vars, PVAR("blocks"), sbuf_str(&P->blocks));
        var_str(vars, PVAR("bseries"), sbuf_str(&P->bseries));
        var_str(vars, PVAR("ebblocks"), sbuf_str(&P->ebblocks));
        var_str(vars, PVAR("ebseries"), sbuf_str(&P->ebseries));
        var_str(vars, PVAR("mblocks"), sbuf_str(&P->mblocks));
        var_str(vars, PVAR("mseries"), sbuf_str(&P->mseries));
        fprintf(vars, "%s = %d\n", PVAR("clusters"), P->clusters);
        fprintf(vars, "%s = %d\n", PVAR("totals"), P->totals);
#undef PVAR
    }
    *width = W;
    *height = H;

    for (size_t p = 0; p < npan; p++) {
        struct panel *P = &g.pan[p];
        sbuf_free(&P->blocks);
        sbuf_free(&P->bseries);
        sbuf_free(&P->ebblocks);
        sbuf_free(&P->ebseries);
        sbuf_free(&P->mblocks);
        sbuf_free(&P->mseries);
        sbuf_free(&P->xtics);
    }
    for (size_t s = 0; s < g.nser; s++)
        free(g.ser[s].title);
    free(g.ser);
    free(g.ser_of);
    free(g.pan);
    free(wrapped);
    free(xlab);
    free(ylab);
    free(ylabel_buf);
    sbuf_free(&note);
    sbuf_free(&t);
    if (ferror(vars) || ferror(data)) {
        diag_error(d, paths->data, 0, 0, "write error");
        return -1;
    }
    return 0;
}

void plotgp_write_table(FILE *out, const struct csv *csv, const size_t *rows, size_t nrows)
{
    for (size_t c = 0; c < csv_ncols(csv); c++) {
        if (c)
            fputc(' ', out);
        data_text(out, csv_header(csv, c));
    }
    fputc('\n', out);
    for (size_t i = 0; i < nrows; i++) {
        for (size_t c = 0; c < csv_ncols(csv); c++) {
            const char *cell = csv_cell(csv, rows[i], c);
            if (c)
                fputc(' ', out);
            if (cell[0] == '\0')
                fputs("NaN", out);
            else if (csv_number(cell, NULL))
                fputs(cell, out);
            else
                data_text(out, cell);
        }
        fputc('\n', out);
    }
}
