/* plotdata.c - a figure's numbers from a CSV and a plot section (see
 * plotdata.h for the rules and formulas).
 *
 * Pipeline: CSV rows -> where -> records (one per kept row: the cells that
 * place it - panel, group, x - and its values) -> normalise -> aggregate ->
 * intern panels / groups / categories in order of first appearance ->
 * points sorted by place -> duplicate check -> (cdf) cumulative curve.
 */
#include "report/plotdata.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "report/aggregate.h"
#include "report/strmap.h"

#define SEP "\x1f" /* joins the cells of a key; never in a CSV cell we plot */

/* ---- records ----------------------------------------------------------------- */

struct rec {
    size_t line;             /* 0: aggregate */
    const char *pcell, *xcell;
    const char **gcell;      /* ngroup cells */
    double x, x_end, y_end, z, xlo, xhi;
    const char *label;
    bool marker, aggregate;
    size_t n;
    double *y, *lo, *hi;
    double total, total_lo, total_hi;
};

/* Column indices resolved against the CSV (-1: not used). */
struct cols {
    int x, panels, z, x_end, y_end, label, marker, total;
    int y[PLOT_MAX_COLS], ylo[PLOT_MAX_COLS], yhi[PLOT_MAX_COLS];
    int group[PLOT_MAX_COLS];
    int xlo, xhi, total_lo, total_hi;
};

struct build {
    const struct plotspec *spec;
    const struct csv *csv;
    struct diag *d;
    struct cols c;
    size_t ny, ngroup;
    bool numeric_x;          /* x is a number axis (not categories) */
    struct rec *recs;
    size_t nrecs, reccap;
    /* value storage: each record's y/lo/hi point into blocks allocated here */
    double **blocks;
    size_t nblocks;
};

static double *new_values(struct build *b, size_t n)
{
    double *v = mem_array(n ? n : 1, sizeof *v);
    b->blocks = mem_realloc(b->blocks, (b->nblocks + 1) * sizeof *b->blocks);
    b->blocks[b->nblocks++] = v;
    for (size_t i = 0; i < n; i++)
        v[i] = NAN;
    return v;
}

static struct rec *new_rec(struct build *b)
{
    struct rec *r;
    if (b->nrecs == b->reccap) {
        b->reccap = b->reccap ? 2 * b->reccap : 64;
        b->recs = mem_realloc(b->recs, b->reccap * sizeof *b->recs);
    }
    r = &b->recs[b->nrecs++];
    memset(r, 0, sizeof *r);
    r->x = r->x_end = r->y_end = r->z = r->xlo = r->xhi = NAN;
    r->total = r->total_lo = r->total_hi = NAN;
    r->n = 1;
    return r;
}

/* Resolve a column; an error at plot.<key> when absent. */
static int resolve(struct build *b, const char *name, const char *key, size_t index, bool indexed)
{
    int ci;
    if (!name)
        return -1;
    ci = csv_column(b->csv, name);
    if (ci < 0) {
        struct diag_path p = diag_path_of(2, "plot", key);
        if (indexed)
            diag_path_index(&p, index);
        diag_path_error(b->d, &p, 0, "no column '%s' in %s", name, csv_name(b->csv));
    }
    return ci;
}

/* Bounds columns of value column `name` for the error-bar mode; -1 when
 * absent (an explicit mode without them is an error at plot.errorbars). */
static void resolve_bounds(struct build *b, const char *name, enum plot_errorbars mode, int *lo, int *hi)
{
    enum agg_bounds kind = mode == EB_MINMAX ? AGG_BOUNDS_MINMAX : AGG_BOUNDS_CI;
    *lo = *hi = -1;
    if (!name || mode == EB_NONE)
        return;
    if (!agg_bound_columns(b->csv, name, kind, lo, hi) && mode != EB_AUTO) {
        char a[256], z[256];
        struct diag_path p = diag_path_of(2, "plot", "errorbars");
        agg_bound_names(name, kind, a, z, sizeof a);
        diag_path_error(b->d, &p, 0, "no columns %s and %s in %s for the error bars of '%s'", a, z,
                        csv_name(b->csv), name);
    }
}

static bool resolve_all(struct build *b)
{
    const struct plotspec *s = b->spec;
    size_t before = diag_count(b->d);
    struct cols *c = &b->c;
    c->x = resolve(b, s->x, "x", 0, false);
    for (size_t i = 0; i < s->ny; i++) {
        c->y[i] = resolve(b, s->y[i], "y", i, s->ny > 1);
        resolve_bounds(b, s->y[i], s->errorbars, &c->ylo[i], &c->yhi[i]);
    }
    for (size_t i = 0; i < s->ngroup; i++)
        c->group[i] = resolve(b, s->group[i], "group", i, s->ngroup > 1);
    c->panels = resolve(b, s->panels, "panels", 0, false);
    c->z = resolve(b, s->z, "z", 0, false);
    c->x_end = resolve(b, s->x_end, "x_end", 0, false);
    c->y_end = resolve(b, s->y_end, "y_end", 0, false);
    c->label = resolve(b, s->label, "label", 0, false);
    c->marker = resolve(b, s->marker, "marker", 0, false);
    c->total = resolve(b, s->total, "total", 0, false);
    c->xlo = c->xhi = c->total_lo = c->total_hi = -1;
    if (s->kind == PLOT_SCATTER) {
        /* x bounds are optional even with an explicit mode (an accuracy
         * may have none while the overhead has), in the mode of y's. */
        enum plot_errorbars m = s->errorbars == EB_NONE ? EB_NONE : s->errorbars == EB_MINMAX ? EB_MINMAX : EB_AUTO;
        int lo, hi;
        resolve_bounds(b, s->x, m, &lo, &hi);
        if (m == EB_MINMAX && (lo < 0 || hi < 0))
            lo = hi = -1;
        c->xlo = lo;
        c->xhi = hi;
    }
    if (s->total)
        resolve_bounds(b, s->total, s->errorbars, &c->total_lo, &c->total_hi);
    if (s->agg != AGG_NONE && csv_column(b->csv, s->agg_over) < 0) {
        struct diag_path p = diag_path_of(2, "plot", "aggregate");
        diag_path_error(b->d, &p, 0, "no column '%s' in %s", s->agg_over, csv_name(b->csv));
    }
    if (s->norm_col && csv_column(b->csv, s->norm_col) < 0) {
        struct diag_path p = diag_path_of(3, "plot", "normalize", s->norm_col);
        diag_path_error(b->d, &p, 1, "no column '%s' in %s", s->norm_col, csv_name(b->csv));
    }
    return diag_count(b->d) == before;
}

/* A numeric cell: NaN when empty or "nan"/"inf" (not applicable); false
 * with an error at the CSV line when it is text. */
static bool cell_value(struct build *b, size_t row, int col, const char *key, double *out)
{
    const char *cell = csv_cell(b->csv, row, (size_t)col);
    char *end;
    *out = NAN;
    if (cell[0] == '\0' || csv_number(cell, out))
        return true;
    (void)strtod(cell, &end);
    if (end != cell && *end == '\0')
        return true; /* nan, inf */
    diag_error(b->d, csv_name(b->csv), (int)csv_line(b->csv, row), 0,
               "column '%s' holds '%s', not a number (plot.%s)", csv_header(b->csv, (size_t)col), cell, key);
    return false;
}

static bool read_records(struct build *b, const size_t *rows, size_t nrows)
{
    const struct plotspec *s = b->spec;
    const struct cols *c = &b->c;
    for (size_t i = 0; i < nrows; i++) {
        size_t row = rows[i];
        struct rec *r = new_rec(b);
        bool ok = true;
        r->line = csv_line(b->csv, row);
        r->pcell = c->panels >= 0 ? csv_cell(b->csv, row, (size_t)c->panels) : "";
        r->xcell = csv_cell(b->csv, row, (size_t)c->x);
        r->gcell = mem_array(b->ngroup ? b->ngroup : 1, sizeof *r->gcell);
        for (size_t g = 0; g < b->ngroup; g++)
            r->gcell[g] = csv_cell(b->csv, row, (size_t)c->group[g]);
        r->y = new_values(b, b->ny);
        r->lo = new_values(b, b->ny);
        r->hi = new_values(b, b->ny);
        if (b->numeric_x)
            ok = cell_value(b, row, c->x, "x", &r->x) && ok;
        if (s->kind == PLOT_CDF) {
            r->y[0] = r->x;
        } else {
            for (size_t k = 0; k < b->ny; k++) {
                ok = cell_value(b, row, c->y[k], "y", &r->y[k]) && ok;
                if (c->ylo[k] >= 0) {
                    ok = cell_value(b, row, c->ylo[k], "errorbars", &r->lo[k]) && ok;
                    ok = cell_value(b, row, c->yhi[k], "errorbars", &r->hi[k]) && ok;
                }
            }
        }
        if (c->z >= 0)
            ok = cell_value(b, row, c->z, "z", &r->z) && ok;
        if (c->x_end >= 0)
            ok = cell_value(b, row, c->x_end, "x_end", &r->x_end) && ok;
        if (c->y_end >= 0)
            ok = cell_value(b, row, c->y_end, "y_end", &r->y_end) && ok;
        if (c->xlo >= 0) {
            ok = cell_value(b, row, c->xlo, "errorbars", &r->xlo) && ok;
            ok = cell_value(b, row, c->xhi, "errorbars", &r->xhi) && ok;
        }
        if (c->label >= 0)
            r->label = csv_cell(b->csv, row, (size_t)c->label);
        if (c->marker >= 0) {
            const char *m = csv_cell(b->csv, row, (size_t)c->marker);
            double v;
            r->marker = csv_number(m, &v) ? v != 0 : (m[0] != '\0' && strcmp(m, "false") != 0);
        }
        if (s->kind == PLOT_STACKED) {
            if (c->total >= 0) {
                ok = cell_value(b, row, c->total, "total", &r->total) && ok;
                if (c->total_lo >= 0) {
                    ok = cell_value(b, row, c->total_lo, "errorbars", &r->total_lo) && ok;
                    ok = cell_value(b, row, c->total_hi, "errorbars", &r->total_hi) && ok;
                }
            } else {
                double sum = 0;
                bool any = false;
                for (size_t k = 0; k < b->ny; k++)
                    if (!isnan(r->y[k])) {
                        sum += r->y[k];
                        any = true;
                    }
                r->total = any ? sum : NAN;
            }
        }
        if (!ok)
            return false;
    }
    return true;
}

/* ---- keys ----------------------------------------------------------------------- */

/* Where a column sits among the cells that place a record. */
enum slot { SLOT_NONE, SLOT_PANEL, SLOT_X, SLOT_GROUP, SLOT_LABEL };

static enum slot find_slot(const struct build *b, const char *col, size_t *gi)
{
    const struct plotspec *s = b->spec;
    if (s->panels && strcmp(col, s->panels) == 0)
        return SLOT_PANEL;
    for (size_t g = 0; g < b->ngroup; g++)
        if (strcmp(col, s->group[g]) == 0) {
            *gi = g;
            return SLOT_GROUP;
        }
    if (strcmp(col, s->x) == 0 && s->kind != PLOT_SCATTER)
        return SLOT_X;
    if (s->label && strcmp(col, s->label) == 0)
        return SLOT_LABEL; /* scatter: a point per label */
    return SLOT_NONE;
}

/* The cells that place r, joined; the cell of `slot` replaced by repl
 * (NULL: kept). */
static void place_key(const struct build *b, const struct rec *r, enum slot slot, size_t gi, const char *repl,
                      struct sbuf *k)
{
    sbuf_clear(k);
    sbuf_puts(k, slot == SLOT_PANEL && repl ? repl : r->pcell);
    for (size_t g = 0; g < b->ngroup; g++) {
        sbuf_puts(k, SEP);
        sbuf_puts(k, slot == SLOT_GROUP && gi == g && repl ? repl : r->gcell[g]);
    }
    /* A scatter point's x is a measurement, not a place. */
    if (b->spec->kind != PLOT_SCATTER) {
        sbuf_puts(k, SEP);
        sbuf_puts(k, slot == SLOT_X && repl ? repl : r->xcell);
    }
    if (b->spec->label) {
        sbuf_puts(k, SEP);
        sbuf_puts(k, slot == SLOT_LABEL && repl ? repl : r->label ? r->label : "");
    }
}

static const char *slot_cell(const struct rec *r, enum slot slot, size_t gi)
{
    if (slot == SLOT_LABEL)
        return r->label ? r->label : "";
    return slot == SLOT_PANEL ? r->pcell : slot == SLOT_GROUP ? r->gcell[gi] : r->xcell;
}

/* ---- normalise -------------------------------------------------------------------- */

static bool normalise(struct build *b)
{
    const struct plotspec *s = b->spec;
    struct strmap base = {0};
    struct sbuf k = SBUF_INIT;
    size_t gi = 0, *bidx, nbase = 0;
    double *div;
    bool ok = true;
    enum slot slot = find_slot(b, s->norm_col, &gi);
    if (slot == SLOT_NONE)
        return true; /* plotspec rejected it */
    bidx = mem_array(b->nrecs, sizeof *bidx);
    for (size_t i = 0; i < b->nrecs; i++) {
        struct rec *r = &b->recs[i];
        if (!filter_cond_matches(&s->norm, slot_cell(r, slot, gi)))
            continue;
        place_key(b, r, slot, gi, "", &k);
        bool added;
        size_t at = strmap_intern(&base, sbuf_str(&k), &added);
        if (added)
            bidx[nbase++] = i;
        (void)at;
    }
    div = mem_array(b->nrecs * (b->ny + 1), sizeof *div);
    for (size_t i = 0; i < b->nrecs && ok; i++) {
        struct rec *r = &b->recs[i];
        size_t at;
        place_key(b, r, slot, gi, "", &k);
        at = strmap_get(&base, sbuf_str(&k));
        if (at == SIZE_MAX) {
            char v[128];
            if (json_is_string(s->norm_value))
                snprintf(v, sizeof v, "%s", json_string_value(s->norm_value));
            else if (json_is_boolean(s->norm_value))
                snprintf(v, sizeof v, "%s", json_is_true(s->norm_value) ? "true" : "false");
            else
                snprintf(v, sizeof v, "%g", json_number_value(s->norm_value));
            diag_error(b->d, csv_name(b->csv), (int)r->line, 0,
                       "no baseline row (%s '%s') with the same panel, group and x as this row to normalise it by "
                       "(plot.normalize)",
                       s->norm_col, v);
            ok = false;
            break;
        }
        struct rec *br = &b->recs[bidx[at]];
        for (size_t kk = 0; kk < b->ny; kk++)
            div[i * (b->ny + 1) + kk] = s->kind == PLOT_STACKED ? br->total : br->y[kk];
        div[i * (b->ny + 1) + b->ny] = br->total;
    }
    if (ok) {
        for (size_t i = 0; i < b->nrecs; i++) {
            struct rec *r = &b->recs[i];
            for (size_t kk = 0; kk < b->ny; kk++) {
                double dv = div[i * (b->ny + 1) + kk];
                double q = dv != 0 && !isnan(dv) ? 1 / dv : NAN;
                r->y[kk] *= q;
                r->lo[kk] *= q;
                r->hi[kk] *= q;
            }
            double dt = div[i * (b->ny + 1) + b->ny];
            double qt = dt != 0 && !isnan(dt) ? 1 / dt : NAN;
            r->total *= qt;
            r->total_lo *= qt;
            r->total_hi *= qt;
        }
    }
    free(div);
    free(bidx);
    strmap_free(&base);
    sbuf_free(&k);
    return ok;
}

/* ---- aggregate -------------------------------------------------------------------- */

/* Summary of the values v[0..n) (NaN ignored) into *m and its bounds. */
static bool summarise(struct build *b, const double *v, const size_t *lines, size_t n, double *m, double *lo,
                      double *hi, size_t *count)
{
    const struct plotspec *s = b->spec;
    struct agg_stats st;
    bool geo = s->agg == AGG_GEOMEAN;
    for (size_t i = 0; geo && i < n; i++) {
        if (!isnan(v[i]) && v[i] <= 0) {
            diag_error(b->d, csv_name(b->csv), (int)lines[i], 0,
                       "the geometric mean needs values above 0, this row has %g (use \"mean\", or drop the row "
                       "with plot.where)",
                       v[i]);
            return false;
        }
    }
    agg_compute(v, n, geo, &st);
    *count = st.n;
    *m = *lo = *hi = NAN;
    if (st.n == 0)
        return true;
    *m = agg_center(&st);
    if (s->errorbars == EB_NONE || st.n < 2)
        return true;
    if (s->errorbars == EB_MINMAX) {
        *lo = st.min;
        *hi = st.max;
        return true;
    }
    agg_interval95(&st, lo, hi);
    return true;
}

/* The values an aggregate summarises: y column k, the stacked total or
 * the scatter x of the records mem[0..n), and their CSV lines. */
enum val { VAL_Y, VAL_TOTAL, VAL_X };

static void gather(const struct build *b, const size_t *mem, size_t n, enum val which, size_t k, double *v,
                   size_t *lines)
{
    for (size_t i = 0; i < n; i++) {
        const struct rec *r = &b->recs[mem[i]];
        v[i] = which == VAL_Y ? r->y[k] : which == VAL_TOTAL ? r->total : r->x;
        lines[i] = r->line;
    }
}

static bool aggregate(struct build *b)
{
    const struct plotspec *s = b->spec;
    struct strmap keys = {0};
    struct sbuf k = SBUF_INIT;
    size_t gi = 0, nind = b->nrecs, nagg = 0;
    size_t *first, *count, *member, *start;
    size_t *agg_of;
    enum slot slot = find_slot(b, s->agg_over, &gi);
    const char *name = plotspec_label(s, s->agg == AGG_MEAN ? "mean" : "geomean");
    bool ok = true;

    /* Which aggregate each record belongs to. */
    agg_of = mem_array(nind, sizeof *agg_of);
    first = mem_array(nind, sizeof *first);
    count = mem_array(nind, sizeof *count);
    for (size_t i = 0; i < nind; i++) {
        bool added;
        place_key(b, &b->recs[i], slot, gi, slot == SLOT_NONE ? NULL : name, &k);
        agg_of[i] = strmap_intern(&keys, sbuf_str(&k), &added);
        if (added)
            first[nagg++] = i;
        count[agg_of[i]]++;
    }
    /* Members of each aggregate, contiguous. */
    start = mem_array(nagg + 1, sizeof *start);
    for (size_t a = 0; a < nagg; a++)
        start[a + 1] = start[a] + count[a];
    member = mem_array(nind, sizeof *member);
    memset(count, 0, nind * sizeof *count);
    for (size_t i = 0; i < nind; i++)
        member[start[agg_of[i]] + count[agg_of[i]]++] = i;

    double *v = mem_array(nind, sizeof *v);
    size_t *lines = mem_array(nind, sizeof *lines);
    for (size_t a = 0; a < nagg && ok; a++) {
        size_t nm = start[a + 1] - start[a];
        const size_t *mem = member + start[a];
        struct rec *src, *r;
        /* One value per `over` value: two rows of one workload in one
         * mean are the duplicate-point error in another form. */
        if (slot != SLOT_NONE) {
            for (size_t i = 0; i < nm && ok; i++)
                for (size_t j = 0; j < i && ok; j++) {
                    const struct rec *ri = &b->recs[mem[i]], *rj = &b->recs[mem[j]];
                    if (strcmp(slot_cell(ri, slot, gi), slot_cell(rj, slot, gi)) == 0) {
                        diag_error(b->d, csv_name(b->csv), (int)ri->line, 0,
                                   "this row and line %zu give %s '%s' twice to one %s: add the column that tells "
                                   "them apart to plot.group, plot.panels or plot.where",
                                   rj->line, s->agg_over, slot_cell(ri, slot, gi), name);
                        ok = false;
                    }
                }
        }
        if (!ok)
            break;
        r = new_rec(b); /* may move b->recs */
        src = &b->recs[first[a]];
        r->aggregate = true;
        r->line = 0;
        r->pcell = slot == SLOT_PANEL ? name : src->pcell;
        r->xcell = slot == SLOT_X ? name : src->xcell;
        r->gcell = mem_array(b->ngroup ? b->ngroup : 1, sizeof *r->gcell);
        for (size_t g = 0; g < b->ngroup; g++)
            r->gcell[g] = slot == SLOT_GROUP && g == gi ? name : src->gcell[g];
        r->x = src->x;
        r->y = new_values(b, b->ny);
        r->lo = new_values(b, b->ny);
        r->hi = new_values(b, b->ny);
        r->n = 0;
        for (size_t kk = 0; kk < b->ny && ok; kk++) {
            size_t cnt;
            gather(b, mem, nm, VAL_Y, kk, v, lines);
            ok = summarise(b, v, lines, nm, &r->y[kk], &r->lo[kk], &r->hi[kk], &cnt);
            if (cnt > r->n)
                r->n = cnt;
        }
        if (ok && s->kind == PLOT_STACKED) {
            size_t cnt;
            gather(b, mem, nm, VAL_TOTAL, 0, v, lines);
            ok = summarise(b, v, lines, nm, &r->total, &r->total_lo, &r->total_hi, &cnt);
        }
        if (ok && s->kind == PLOT_SCATTER) {
            size_t cnt;
            gather(b, mem, nm, VAL_X, 0, v, lines);
            ok = summarise(b, v, lines, nm, &r->x, &r->xlo, &r->xhi, &cnt);
            /* The label is part of the place, so every member shares it:
             * the mean of the points labelled 100 keeps that label (through the
             * label map, as the individual points' labels are); only a mean over
             * the label column itself is a new point, "mean". */
            r->label = slot == SLOT_LABEL ? name : src->label ? plotspec_label(s, src->label) : NULL;
        }
    }
    free(v);
    free(lines);
    /* "only", or `over` is not among the placing cells (the aggregate
     * then replaces the rows it collapses): keep the aggregates only. */
    if (ok && (s->agg_only || slot == SLOT_NONE)) {
        for (size_t i = 0; i < nind; i++)
            free((void *)b->recs[i].gcell);
        memmove(b->recs, b->recs + nind, (b->nrecs - nind) * sizeof *b->recs);
        b->nrecs -= nind;
    }
    free(agg_of);
    free(first);
    free(count);
    free(start);
    free(member);
    strmap_free(&keys);
    sbuf_free(&k);
    return ok;
}

/* ---- labels ---------------------------------------------------------------------- */

static bool is_number_text(const char *s)
{
    return csv_number(s, NULL);
}

/* "tables=4" for a number (a bare 4 says nothing), the value itself for a
 * name; the label map wins for both. */
static void value_label(const struct plotspec *s, const char *col, const char *cell, const char *sep,
                        struct sbuf *out)
{
    const char *mapped = plotspec_label(s, cell);
    if (mapped != cell || !is_number_text(cell)) {
        sbuf_puts(out, mapped);
        return;
    }
    sbuf_puts(out, plotspec_label(s, col));
    sbuf_puts(out, sep);
    sbuf_puts(out, cell);
}

/* ---- build -------------------------------------------------------------------------- */

struct place {
    size_t rec, panel, group, cat;
};

static const struct build *sort_ctx;

static int cmp_place(const void *pa, const void *pb)
{
    const struct place *a = pa, *b = pb;
    const struct build *bd = sort_ctx;
    if (a->panel != b->panel)
        return a->panel < b->panel ? -1 : 1;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (bd->numeric_x) {
        double xa = bd->recs[a->rec].x, xb = bd->recs[b->rec].x;
        if (xa != xb)
            return xa < xb ? -1 : 1;
    } else if (a->cat != b->cat) {
        return a->cat < b->cat ? -1 : 1;
    }
    return a->rec < b->rec ? -1 : a->rec > b->rec;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

void plotdata_free(struct plotdata *pd)
{
    if (!pd)
        return;
    for (size_t i = 0; i < pd->ny; i++)
        free(pd->ytitle[i]);
    for (size_t i = 0; i < pd->npanels; i++)
        free(pd->panel_title[i]);
    for (size_t i = 0; i < pd->ngroups; i++)
        free(pd->group_label[i]);
    for (size_t i = 0; i < pd->ncats; i++)
        free(pd->cat_label[i]);
    for (size_t i = 0; i < pd->npts; i++) {
        free(pd->pts[i].y);
        free((char *)pd->pts[i].label);
    }
    free(pd->ytitle);
    free(pd->panel_title);
    free(pd->group_label);
    free(pd->cat_label);
    free(pd->pts);
    free(pd);
}

static void build_free(struct build *b)
{
    for (size_t i = 0; i < b->nrecs; i++)
        free((void *)b->recs[i].gcell);
    free(b->recs);
    for (size_t i = 0; i < b->nblocks; i++)
        free(b->blocks[i]);
    free(b->blocks);
}

static bool hex_column(const struct csv *csv, int col, const size_t *rows, size_t n)
{
    for (size_t i = 0; col >= 0 && i < n; i++) {
        const char *c = csv_cell(csv, rows[i], (size_t)col);
        if (c[0])
            return c[0] == '0' && (c[1] == 'x' || c[1] == 'X');
    }
    return false;
}

/* Point p gets copies of r's values (one allocation: y, lo, hi). */
static void fill_point(struct pd_point *p, const struct rec *r, size_t ny)
{
    double *v = mem_array(3 * (ny ? ny : 1), sizeof *v);
    p->y = v;
    p->lo = v + ny;
    p->hi = v + 2 * ny;
    memcpy(p->y, r->y, ny * sizeof *v);
    memcpy(p->lo, r->lo, ny * sizeof *v);
    memcpy(p->hi, r->hi, ny * sizeof *v);
    p->x = r->x;
    p->x_end = r->x_end;
    p->y_end = r->y_end;
    p->z = r->z;
    p->xlo = r->xlo;
    p->xhi = r->xhi;
    p->label = r->label ? mem_strdup(r->label) : NULL;
    p->marker = r->marker;
    p->aggregate = r->aggregate;
    p->n = r->n;
    p->line = r->line;
    p->total = r->total;
    p->total_lo = r->total_lo;
    p->total_hi = r->total_hi;
}

/* Heat map cells without an end column span half-way to the neighbouring
 * distinct values (a single value: +-0.5). */
static void cell_edges(struct plotdata *pd, bool for_x)
{
    size_t n = 0, m = 0;
    double *v = mem_array(pd->npts ? pd->npts : 1, sizeof *v);
    for (size_t i = 0; i < pd->npts; i++) {
        double c = for_x ? pd->pts[i].x : pd->pts[i].y[0];
        if (!isnan(c))
            v[n++] = c;
    }
    qsort(v, n, sizeof *v, cmp_double);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    for (size_t i = 0; i < pd->npts; i++) {
        struct pd_point *p = &pd->pts[i];
        double c = for_x ? p->x : p->y[0], lo, hi;
        size_t j = 0, hi_i = m; /* binary search: c is one of v[0..m) */
        if (isnan(c))
            continue;
        while (j < hi_i) {
            size_t mid = j + (hi_i - j) / 2;
            if (v[mid] < c)
                j = mid + 1;
            else
                hi_i = mid;
        }
        lo = j > 0 ? (c - v[j - 1]) / 2 : j + 1 < m ? (v[j + 1] - c) / 2 : 0.5;
        hi = j + 1 < m ? (v[j + 1] - c) / 2 : j > 0 ? (c - v[j - 1]) / 2 : 0.5;
        if (for_x) {
            p->x = c - lo;
            p->x_end = c + hi;
        } else {
            p->y[0] = c - lo;
            p->y_end = c + hi;
        }
    }
    free(v);
}

static int cmp_area_desc(const void *pa, const void *pb)
{
    const struct pd_point *a = pa, *b = pb;
    double aa = fabs((a->x_end - a->x) * (a->y_end - a->y[0]));
    double ab = fabs((b->x_end - b->x) * (b->y_end - b->y[0]));
    if (a->panel != b->panel)
        return a->panel < b->panel ? -1 : 1;
    if (aa != ab)
        return aa > ab ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Replace the points of each panel x group by the empirical CDF of their x:
 * (v_1, 0), then (v_i, 100 i / n) for the sorted distinct values. */
static void make_cdf(struct plotdata *pd)
{
    struct pd_point *out = mem_array(2 * pd->npts + 1, sizeof *out);
    size_t no = 0;
    for (size_t i = 0; i < pd->npts;) {
        size_t j = i, n = 0;
        while (j < pd->npts && pd->pts[j].panel == pd->pts[i].panel && pd->pts[j].group == pd->pts[i].group)
            j++;
        double *v = mem_array(j - i, sizeof *v);
        for (size_t k = i; k < j; k++)
            if (!isnan(pd->pts[k].x))
                v[n++] = pd->pts[k].x;
        qsort(v, n, sizeof *v, cmp_double);
        for (size_t k = 0; k < n; k++) {
            if (k + 1 < n && v[k + 1] == v[k])
                continue; /* ties: one step to the last of them */
            if (no == 0 || out[no - 1].panel != pd->pts[i].panel || out[no - 1].group != pd->pts[i].group) {
                struct pd_point *z = &out[no++];
                memset(z, 0, sizeof *z);
                z->panel = pd->pts[i].panel;
                z->group = pd->pts[i].group;
                z->cat = SIZE_MAX;
                z->x = v[0];
                z->y = mem_array(3, sizeof *z->y);
                z->lo = z->y + 1;
                z->hi = z->y + 2;
                z->y[0] = 0;
                z->lo[0] = z->hi[0] = NAN;
                z->total = z->total_lo = z->total_hi = z->xlo = z->xhi = z->x_end = z->y_end = z->z = NAN;
            }
            struct pd_point *q = &out[no++];
            *q = out[no - 2];
            q->y = mem_array(3, sizeof *q->y);
            q->lo = q->y + 1;
            q->hi = q->y + 2;
            q->x = v[k];
            q->y[0] = 100.0 * (double)(k + 1) / (double)n;
            q->lo[0] = q->hi[0] = NAN;
            q->n = 1;
        }
        free(v);
        i = j;
    }
    for (size_t i = 0; i < pd->npts; i++) {
        free(pd->pts[i].y);
        free((char *)pd->pts[i].label);
    }
    free(pd->pts);
    pd->pts = out;
    pd->npts = no;
}

struct plotdata *plotdata_build(const struct plotspec *s, const struct csv *csv, struct diag *d)
{
    struct build b;
    struct plotdata *pd = NULL;
    struct strmap panels = {0}, groups = {0}, cats = {0};
    struct sbuf k = SBUF_INIT, lab = SBUF_INIT;
    struct place *pl = NULL;
    size_t *rows = NULL, nrows = 0;
    struct diag_path wp = diag_path_of(2, "plot", "where");
    bool ok = false;

    memset(&b, 0, sizeof b);
    b.spec = s;
    b.csv = csv;
    b.d = d;
    b.ny = s->kind == PLOT_CDF ? 1 : s->ny;
    b.ngroup = s->ngroup;
    b.numeric_x = s->kind != PLOT_BARS && s->kind != PLOT_STACKED;
    if (!resolve_all(&b))
        goto out;
    rows = rowfilter_select(&s->where, csv, &wp, &nrows, d);
    if (!rows)
        goto out;
    if (nrows == 0 && s->has_where) {
        diag_path_error(d, &wp, 0, "no row of %s matches", csv_name(csv));
        goto out;
    }
    if (!read_records(&b, rows, nrows))
        goto out;
    if (s->norm_col && !normalise(&b))
        goto out;
    if (s->agg != AGG_NONE && !aggregate(&b))
        goto out;

    pd = mem_alloc(sizeof *pd);
    pd->kind = s->kind;
    pd->ny = b.ny;
    pd->ytitle = mem_array(b.ny, sizeof *pd->ytitle);
    for (size_t i = 0; i < b.ny; i++)
        pd->ytitle[i] = mem_strdup(plotspec_label(s, s->kind == PLOT_CDF ? s->x : s->y[i]));
    pd->x_hex = hex_column(csv, b.c.x, rows, nrows);
    pd->y_hex = s->ny > 0 && hex_column(csv, b.c.y[0], rows, nrows);

    /* Places in order of first appearance. */
    pl = mem_array(b.nrecs ? b.nrecs : 1, sizeof *pl);
    size_t npl = 0;
    for (size_t i = 0; i < b.nrecs; i++) {
        struct rec *r = &b.recs[i];
        bool added;
        if (b.numeric_x && isnan(r->x))
            continue; /* a run without this x (its model lacks the column) */
        pl[npl].rec = i;
        pl[npl].panel = strmap_intern(&panels, r->pcell, &added);
        if (added) {
            pd->panel_title = mem_realloc(pd->panel_title, panels.n * sizeof *pd->panel_title);
            sbuf_clear(&lab);
            if (!s->panels)
                sbuf_puts(&lab, "");
            else if ((r->aggregate && strcmp(s->agg_over, s->panels) == 0) || plotspec_label(s, r->pcell) != r->pcell)
                sbuf_puts(&lab, plotspec_label(s, r->pcell)); /* "mean", a mapped value */
            else if (is_number_text(r->pcell))
                sbuf_printf(&lab, "%s = %s", plotspec_label(s, s->panels), r->pcell); /* "tables = 4" */
            else
                sbuf_printf(&lab, "%s: %s", plotspec_label(s, s->panels), r->pcell[0] ? r->pcell : "(empty)");
            pd->panel_title[panels.n - 1] = mem_strdup(sbuf_str(&lab));
        }
        sbuf_clear(&k);
        for (size_t g = 0; g < b.ngroup; g++) {
            if (g)
                sbuf_puts(&k, SEP);
            sbuf_puts(&k, r->gcell[g]);
        }
        pl[npl].group = strmap_intern(&groups, sbuf_str(&k), &added);
        if (added) {
            pd->group_label = mem_realloc(pd->group_label, groups.n * sizeof *pd->group_label);
            sbuf_clear(&lab);
            for (size_t g = 0; g < b.ngroup; g++) {
                const char *cell = r->gcell[g];
                if (cell[0] == '\0')
                    continue; /* a column this run does not have: say nothing */
                if (lab.len)
                    sbuf_puts(&lab, ", ");
                if (r->aggregate && strcmp(s->group[g], s->agg_over) == 0)
                    sbuf_puts(&lab, cell);
                else
                    value_label(s, s->group[g], cell, "=", &lab);
            }
            pd->group_label[groups.n - 1] = mem_strdup(sbuf_str(&lab));
        }
        pl[npl].cat = SIZE_MAX;
        if (!b.numeric_x) {
            pl[npl].cat = strmap_intern(&cats, r->xcell, &added);
            if (added) {
                pd->cat_label = mem_realloc(pd->cat_label, cats.n * sizeof *pd->cat_label);
                pd->cat_label[cats.n - 1] = mem_strdup(plotspec_label(s, r->xcell));
            }
        }
        npl++;
    }
    pd->npanels = panels.n;
    pd->ngroups = groups.n;
    pd->ncats = cats.n;
    if (pd->npanels == 0) { /* no rows: one empty panel */
        pd->npanels = 1;
        pd->panel_title = mem_array(1, sizeof *pd->panel_title);
        pd->panel_title[0] = mem_strdup("");
    }

    sort_ctx = &b;
    qsort(pl, npl, sizeof *pl, cmp_place);
    sort_ctx = NULL;
    /* Scatter points may coincide (two workloads of equal overhead and
     * accuracy); heat map cells nest; a CDF counts repeats. */
    if (s->kind != PLOT_HEATMAP && s->kind != PLOT_CDF && s->kind != PLOT_SCATTER) {
        for (size_t i = 1; i < npl; i++) {
            const struct place *a = &pl[i - 1], *c = &pl[i];
            const struct rec *ra = &b.recs[a->rec], *rc = &b.recs[c->rec];
            bool same = a->panel == c->panel && a->group == c->group &&
                        (b.numeric_x ? ra->x == rc->x : a->cat == c->cat);
            if (!same)
                continue;
            size_t l1 = ra->line < rc->line ? ra->line : rc->line, l2 = ra->line < rc->line ? rc->line : ra->line;
            sbuf_clear(&lab);
            sbuf_printf(&lab, "%s '%s'", s->x, ra->xcell);
            if (s->ngroup)
                sbuf_printf(&lab, ", group '%s'", pd->group_label[a->group]);
            if (s->panels)
                sbuf_printf(&lab, ", panel '%s'", ra->pcell);
            if (l1 == 0)
                diag_error(d, csv_name(csv), (int)l2, 0,
                           "this row falls on the same %s as an aggregate (%s): add the column that tells them "
                           "apart to plot.group, plot.panels or plot.where",
                           s->kind == PLOT_BARS || s->kind == PLOT_STACKED ? "bar" : "point", sbuf_str(&lab));
            else
                diag_error(d, csv_name(csv), (int)l2, 0,
                           "this row and line %zu fall on one %s (%s): add the column that tells them apart to "
                           "plot.group, plot.panels or plot.where, or aggregate over it",
                           l1, s->kind == PLOT_BARS || s->kind == PLOT_STACKED ? "bar" : "point", sbuf_str(&lab));
            goto out;
        }
    }
    pd->pts = mem_array(npl ? npl : 1, sizeof *pd->pts);
    pd->npts = npl;
    for (size_t i = 0; i < npl; i++) {
        struct pd_point *p = &pd->pts[i];
        fill_point(p, &b.recs[pl[i].rec], b.ny);
        p->panel = pl[i].panel;
        p->group = pl[i].group;
        p->cat = pl[i].cat;
        if (s->kind == PLOT_SCATTER && p->label && !p->aggregate) {
            const char *m = plotspec_label(s, p->label);
            if (m != p->label) {
                free((char *)p->label);
                p->label = mem_strdup(m);
            }
        }
        for (size_t kk = 0; kk < b.ny; kk++)
            if (!isnan(p->lo[kk]) && !isnan(p->hi[kk]))
                pd->any_bounds = true;
        if (!isnan(p->total_lo) && !isnan(p->total_hi))
            pd->any_bounds = true;
        if (!isnan(p->xlo) && !isnan(p->xhi))
            pd->any_bounds = true;
    }
    if (s->kind == PLOT_HEATMAP) {
        if (!s->x_end)
            cell_edges(pd, true);
        if (!s->y_end)
            cell_edges(pd, false);
        /* Big cells first, so that nested smaller ones stay visible. */
        qsort(pd->pts, pd->npts, sizeof *pd->pts, cmp_area_desc);
    }
    if (s->kind == PLOT_CDF)
        make_cdf(pd);
    ok = true;
out:
    if (!ok) {
        plotdata_free(pd);
        pd = NULL;
    }
    free(pl);
    free(rows);
    strmap_free(&panels);
    strmap_free(&groups);
    strmap_free(&cats);
    sbuf_free(&k);
    sbuf_free(&lab);
    build_free(&b);
    return pd;
}
