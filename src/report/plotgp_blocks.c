/* plotgp_blocks.c - the data file of a figure (see plotgp.h): the key
 * entries (series), then one writer per plot type of the blocks the
 * template draws, each block's first line a comment naming it and its
 * columns; bars and stacked bars also place their categories here.
 */
#include "report/plotgp_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

size_t gp_list_len(const struct sbuf *l)
{
    size_t n = 0;
    for (const char *s = sbuf_str(l); *s; s++)
        n += *s != ' ' && (s[1] == ' ' || s[1] == '\0');
    return n;
}

/* The last columns of a line or bar row, "y lo hi\n": y column k of q on
 * axis a and its error bar (NaN: none).  Whether q has both bounds. */
static bool put_y(struct gp *g, const struct axis *a, const struct pd_point *q, size_t k)
{
    gp_num(g->data, axis_place(a, q->y[k]));
    fputc(' ', g->data);
    gp_num(g->data, isnan(q->lo[k]) ? NAN : axis_place(a, low_end(g->clip_y, q->lo[k])));
    fputc(' ', g->data);
    gp_num(g->data, isnan(q->hi[k]) ? NAN : axis_place(a, q->hi[k]));
    fputc('\n', g->data);
    return !isnan(q->lo[k]) && !isnan(q->hi[k]);
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
void gp_series_by_group_and_y(struct gp *g)
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

static void cat_tic(struct panel *P, const char *label, double x)
{
    if (P->xtics.len == 0)
        sbuf_putc(&P->xtics, '(');
    else
        sbuf_puts(&P->xtics, ", ");
    gp_tic_text(&P->xtics, label);
    sbuf_printf(&P->xtics, " %.10g", x);
    if (gp_text_px(label) > P->longest_tic)
        P->longest_tic = gp_text_px(label);
    P->ntics++;
}

/* Series of cdf and scatter plots: one per group, a colour each (black
 * for an aggregate); scatter points get a shape per group, cdf steps none,
 * and an aggregate's cdf line is wider. */
static void series_by_group(struct gp *g, bool scatter)
{
    const struct plotdata *pd = g->pd;
    g->ser_of = mem_array(pd->ngroups + 1, sizeof *g->ser_of);
    for (size_t gi = 0, nonagg = 0; gi < pd->ngroups; gi++) {
        bool agg = group_is_aggregate(g->spec, pd, gi);
        int point = !scatter ? 0 : agg ? 5 : (int)(nonagg % 6) * 2 + 5;
        add_series(g, g->spec->ngroup && pd->group_label[gi][0] ? pd->group_label[gi] : pd->ytitle[0],
                   color_of(nonagg, agg), 1, point, agg && !scatter ? 3 : 2);
        g->ser_of[gi] = g->nser;
        nonagg += !agg;
    }
}

/* ---- the plot types ------------------------------------------------------------------------- */

/* lines, timeseries: block per panel x series: x y lo hi. */
void gp_write_curves(struct gp *g)
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
                    gp_num(g->data, axis_place(&P->x, q->x));
                    fputc(' ', g->data);
                    bounds = put_y(g, &P->y, q, k) || bounds;
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
                    gp_num(g->data, axis_place(&P->x, q->x));
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
void gp_write_cdf(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    series_by_group(g, false);
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
                gp_num(g->data, axis_place(&P->x, q->x));
                fputc(' ', g->data);
                gp_num(g->data, q->y[0]);
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
void gp_write_scatter(struct gp *g)
{
    const struct plotdata *pd = g->pd;
    series_by_group(g, true);
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
                gp_num(g->data, axis_place(&P->x, q->x));
                fputc(' ', g->data);
                gp_num(g->data, axis_place(&P->y, q->y[0]));
                fputc(' ', g->data);
                gp_num(g->data, yb ? axis_place(&P->y, low_end(g->clip_y, q->lo[0])) : NAN);
                fputc(' ', g->data);
                gp_num(g->data, yb ? axis_place(&P->y, q->hi[0]) : NAN);
                fputc(' ', g->data);
                gp_num(g->data, xb ? axis_place(&P->x, low_end(g->clip_x, q->xlo)) : NAN);
                fputc(' ', g->data);
                gp_num(g->data, xb ? axis_place(&P->x, q->xhi) : NAN);
                fputc(' ', g->data);
                gp_data_text(g->data, q->label ? q->label : "");
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
void gp_write_bars(struct gp *g)
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
                    gp_num(g->data, xlo);
                    fputc(' ', g->data);
                    gp_num(g->data, xlo + bw);
                    fputc(' ', g->data);
                    gp_num(g->data, P->y.log ? P->y.floor : 0);
                    fputc(' ', g->data);
                    bounds = put_y(g, &P->y, q, k) || bounds;
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

/* stacked: a bar per (category, group) with a value; with groups, the
 * bars of a category form a cluster named under the group labels.  Block
 * per panel x component: xlo xhi bottom top; a block of totals (xc total lo
 * hi) and one of cluster names (xc "name"). */
void gp_write_stacked(struct gp *g)
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
                    gp_num(g->data, bx[c * ng + gi] - 0.4);
                    fputc(' ', g->data);
                    gp_num(g->data, bx[c * ng + gi] + 0.4);
                    fputc(' ', g->data);
                    gp_num(g->data, axis_place(&P->y, bottom));
                    fputc(' ', g->data);
                    gp_num(g->data, axis_place(&P->y, bottom + q->y[k]));
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
                gp_num(g->data, bx[q->cat * ng + q->group]);
                fputc(' ', g->data);
                gp_num(g->data, axis_place(&P->y, q->total));
                fputc(' ', g->data);
                gp_num(g->data, axis_place(&P->y, low_end(g->clip_y, q->total_lo)));
                fputc(' ', g->data);
                gp_num(g->data, axis_place(&P->y, q->total_hi));
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
                    double px = (gp_text_px(pd->cat_label[cluster_cat[i - 1]]) +
                                 gp_text_px(pd->cat_label[cluster_cat[i]])) / 2 + 2 * HCHAR;
                    P->cluster_crowd = fmax(P->cluster_crowd, px / (cluster_x[i] - cluster_x[i - 1]));
                }
                gp_num(g->data, cluster_x[i]);
                fputc(' ', g->data);
                gp_data_text(g->data, pd->cat_label[cluster_cat[i]]);
                fputc('\n', g->data);
            }
        }
        free(cluster_x);
        free(cluster_cat);
        free(bx);
    }
}

/* heatmap: block per panel: xlo xhi ylo yhi z, big cells first. */
void gp_write_heatmap(struct gp *g)
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
            gp_num(g->data, axis_place(&P->x, q->x));
            fputc(' ', g->data);
            gp_num(g->data, axis_place(&P->x, q->x_end));
            fputc(' ', g->data);
            gp_num(g->data, axis_place(&P->y, q->y[0]));
            fputc(' ', g->data);
            gp_num(g->data, axis_place(&P->y, q->y_end));
            fputc(' ', g->data);
            gp_num(g->data, axis_place(&g->cb, q->z));
            fputc('\n', g->data);
        }
        if (n) {
            list_add(&P->blocks, b);
            list_add(&P->bseries, 1);
        }
    }
}

