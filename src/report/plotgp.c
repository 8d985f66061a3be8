/* plotgp.c - the preamble a figure template draws (see plotgp.h; the
 * variables are listed in docs/plots.md): axes, layout and the `name =
 * value` lines; the data blocks come from plotgp_blocks.c.
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
#include "report/plotgp_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t fmax_z(double a, double b)
{
    return (size_t)(a > b ? a : b);
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
        gp_tic_text(&b, a->ticks[i].label);
        sbuf_printf(&b, " %.10g", a->ticks[i].v);
    }
    sbuf_putc(&b, ')');
    sbuf_clear(out);
    sbuf_puts(out, sbuf_str(&b));
    sbuf_free(&b);
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
    gp_num(f, v);
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
        gp_series_by_group_and_y(&g);
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
        gp_write_curves(&g);
        break;
    case PLOT_CDF:
        gp_write_cdf(&g);
        break;
    case PLOT_SCATTER:
        gp_write_scatter(&g);
        break;
    case PLOT_BARS:
        gp_write_bars(&g);
        break;
    case PLOT_STACKED:
        gp_write_stacked(&g);
        break;
    case PLOT_HEATMAP:
        gp_write_heatmap(&g);
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
        keylen = fmax_z(keylen, gp_text_px(g.ser[s].title));
    if (pd->kind == PLOT_TIMESERIES && spec->marker)
        keylen = fmax_z(keylen, gp_text_px(plotspec_label(spec, spec->marker)));
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
            keylen = fmax_z(keylen, gp_text_px(line));
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
                    if (gp_list_len(&g.pan[p].bseries) > maxslots)
                        maxslots = gp_list_len(&g.pan[p].bseries);
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
        xlab = gp_wrap_px(xlabel, plot_w > 100 ? plot_w : 100, &xlines);
        bmargin += 1.2 * xlines;
        double plot_h = cell_h - (tmargin + bmargin) * VCHAR;
        ylab = gp_wrap_px(ylabel, plot_h > 100 ? plot_h : 100, &ylines);
        lmargin = lmargin_inner + ylines * (VCHAR / HCHAR) + (ylines ? 0.6 : 0);
    }

    W = (int)cols * cell_w + key_w;
    {
        const char *tt = title ? title : "";
        wrapped = gp_wrap_px(tt, W - 60, &tlines);
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

