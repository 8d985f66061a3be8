/* claimtest.c - the test kinds of a claim (see claimtest.h). */
#include "report/claimtest.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "core/winstats.h"
#include "report/aggregate.h"
#include "report/docquery.h"
#include "report/paired.h"
#include "report/strmap.h"

/* What every kind reads. */
struct ctx {
    const struct claim *c;
    const struct claim_test *t;
    const char *file;
    struct diag *d;
    const struct csv *csv;
    int vcol, wcol;       /* the metric, the workload */
    const char **W;       /* the claim's workloads, in order (cells of the CSV or the claim's names) */
    size_t nW;
    struct strmap wmap;   /* workload -> index in W */
};

static void fail(struct ctx *X, struct doc_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct ctx *X, struct doc_pos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(X->d, X->file, pos.line, pos.column, fmt, ap);
    va_end(ap);
}

/* Oriented so that a positive number is on the side the claim expects. */
static double favour(enum claim_expect e, double v)
{
    return e == EXPECT_LESS || e == EXPECT_DECREASING || e == EXPECT_AT_LEAST ? -v : v;
}

/* The outcome of an interval [lo, hi] of a difference against the band
 * [-min_diff, min_diff]: wholly on the expected side, wholly on the other,
 * or neither (NaN: no interval). */
static enum outcome interval_outcome(enum claim_expect e, double lo, double hi, double min_diff)
{
    if (isnan(lo) || isnan(hi))
        return OUTCOME_UNDECIDED;
    double a = favour(e, lo), b = favour(e, hi);
    double flo = a < b ? a : b, fhi = a < b ? b : a;
    if (flo > min_diff)
        return OUTCOME_FOR;
    if (fhi < -min_diff)
        return OUTCOME_AGAINST;
    return OUTCOME_UNDECIDED;
}

/* ---- rows ------------------------------------------------------------------------ */

/* The rows of the query with cond's conditions in place of its own on the
 * same keys (cond NULL: the query's), of the claim's workloads only; NULL
 * with an error when there are none. */
static size_t *side_rows(struct ctx *X, const struct claim_cond *cond, size_t *n)
{
    struct doc_query side = X->t->q;
    rowfilter_copy(&side.where, &X->t->q.where);
    if (cond)
        rowfilter_overlay(&side.where, &cond->f);
    struct doc_pos pos = cond ? cond->pos : X->t->qpos;
    size_t m = 0;
    size_t *rows = docquery_rows(X->csv, &side, &m, X->file, pos, X->d);
    rowfilter_free(&side.where);
    if (!rows)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (strmap_get(&X->wmap, csv_cell(X->csv, rows[i], (size_t)X->wcol)) != SIZE_MAX)
            rows[k++] = rows[i];
    if (k == 0) {
        fail(X, pos, "no row of %s%s%s is of the claim's workloads", csv_name(X->csv), cond ? " with " : "",
             cond ? cond->text : "");
        free(rows);
        return NULL;
    }
    *n = k;
    return rows;
}

/* The CSV, its columns and the workloads. */
static int setup(struct ctx *X, struct docsrc *src)
{
    const struct claim_test *t = X->t;
    X->csv = docsrc_get(src, t->q.src, X->file, t->qpos, X->d);
    if (!X->csv)
        return -1;
    X->vcol = docquery_column(X->csv, t->q.col, "col", X->file, t->qpos, X->d);
    X->wcol = docquery_column(X->csv, "workload", "workloads", X->file, t->qpos, X->d);
    if (X->vcol < 0 || X->wcol < 0)
        return -1;
    size_t n = 0;
    size_t *rows = docquery_rows(X->csv, &t->q, &n, X->file, t->qpos, X->d);
    if (!rows)
        return -1;
    struct strmap all = {0};
    const char **names = mem_array(n + 1, sizeof *names);
    size_t nn = 0;
    for (size_t i = 0; i < n; i++) {
        bool added = false;
        const char *w = csv_cell(X->csv, rows[i], (size_t)X->wcol);
        strmap_intern(&all, w, &added);
        if (added)
            names[nn++] = w;
    }
    free(rows);
    int rc = 0;
    if (X->c->nworkloads) {
        X->W = mem_array(X->c->nworkloads, sizeof *X->W);
        for (size_t i = 0; i < X->c->nworkloads; i++) {
            const char *w = X->c->workloads[i];
            if (strmap_get(&all, w) == SIZE_MAX) {
                struct sbuf has = SBUF_INIT;
                for (size_t k = 0; k < nn && k < 10; k++)
                    sbuf_printf(&has, "%s%s", k ? ", " : "", names[k]);
                fail(X, X->c->wpos, "workload '%s' has no row of %s that the query selects (it has: %s%s)", w,
                     csv_name(X->csv), sbuf_str(&has), nn > 10 ? ", ..." : "");
                sbuf_free(&has);
                rc = -1;
            }
            X->W[X->nW++] = w;
        }
        free(names);
    } else {
        X->W = names;
        X->nW = nn;
    }
    for (size_t i = 0; i < X->nW; i++)
        strmap_intern(&X->wmap, X->W[i], NULL);
    strmap_free(&all);
    return rc;
}

static void result_alloc(struct ctx *X, struct claim_result *r)
{
    r->wl = mem_array(X->nW ? X->nW : 1, sizeof *r->wl);
    r->nwl = X->nW;
    for (size_t i = 0; i < X->nW; i++) {
        r->wl[i].workload = mem_strdup(X->W[i]);
        r->wl[i].stat = r->wl[i].lo = r->wl[i].hi = NAN;
    }
}

/* Mean over workloads of their statistics, with a t interval. */
static void over_workloads(struct claim_result *r)
{
    double *v = mem_array(r->nwl ? r->nwl : 1, sizeof *v);
    for (size_t i = 0; i < r->nwl; i++)
        v[i] = r->wl[i].stat;
    struct agg_stats st;
    agg_compute(v, r->nwl, false, &st);
    r->stat = agg_center(&st);
    agg_interval95(&st, &r->lo, &r->hi);
    free(v);
}

/* ---- paired, lowest, highest, ordering -------------------------------------------------- */

static const struct paired_wl *find_wl(const struct paired *p, const char *w)
{
    for (size_t i = 0; i < p->nwl; i++)
        if (strcmp(p->wl[i].workload, w) == 0)
            return &p->wl[i];
    return NULL;
}

/* Rows of a paired with rows of b; every workload of the claim must have pairs. */
static int pair(struct ctx *X, const struct claim_cond *a, const struct claim_cond *b, struct paired *p)
{
    const struct claim_test *t = X->t;
    size_t na = 0, nb = 0;
    size_t *ra = side_rows(X, a, &na);
    size_t *rb = ra ? side_rows(X, b, &nb) : NULL;
    struct sbuf why = SBUF_INIT;
    struct paired_cols pc;
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (!rb)
        goto done;
    if (paired_columns(X->csv, t->q.col, t->match, t->nmatch, &pc, &why) != 0) {
        fail(X, t->nmatch ? t->mpos : t->qpos, "match: %s", sbuf_str(&why));
        goto done;
    }
    pc.op = t->ratio ? PAIRED_RATIO : PAIRED_MINUS;
    rc = paired_compute(X->csv, &pc, ra, na, rb, nb, a->text, b->text, p, &why);
    paired_cols_free(&pc);
    if (rc != 0) {
        fail(X, a->pos, "%s", sbuf_str(&why));
        goto done;
    }
    for (size_t i = 0; i < X->nW && rc == 0; i++)
        if (!find_wl(p, X->W[i])) {
            fail(X, a->pos, "%s: workload %s has no row of %s nor of %s", csv_name(X->csv), X->W[i], a->text, b->text);
            paired_free(p);
            rc = -1;
        }
done:
    sbuf_free(&why);
    free(ra);
    free(rb);
    return rc;
}

/* for: every window's difference on the expected side; against: every
 * one on the other side. */
static enum outcome pair_outcome(const struct paired_wl *g, enum claim_expect e, double min_diff)
{
    bool all_for = true, all_against = true;
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (isnan(g->d[i]))
            continue;
        double f = favour(e, g->d[i]);
        all_for = all_for && f > min_diff;
        all_against = all_against && f < -min_diff;
        k++;
    }
    return k == 0 ? OUTCOME_UNDECIDED : all_for ? OUTCOME_FOR : all_against ? OUTCOME_AGAINST : OUTCOME_UNDECIDED;
}

static char *pair_name(const struct claim_cond *a, const struct claim_cond *b, bool ratio)
{
    struct sbuf s = SBUF_INIT;
    sbuf_printf(&s, "%s %c %s", a->text, ratio ? '/' : '-', b->text);
    return sbuf_take(&s);
}

static int eval_pairs(struct ctx *X, struct claim_result *r)
{
    const struct claim_test *t = X->t;
    size_t np = t->nruns - 1;
    struct paired *ps = mem_array(np, sizeof *ps);
    const struct claim_cond **as = mem_array(np, sizeof *as), **bs = mem_array(np, sizeof *bs);
    int rc = 0;
    for (size_t k = 0; k < np; k++) {
        as[k] = t->kind == KIND_ORDERING ? &t->runs[k] : &t->runs[0];
        bs[k] = &t->runs[k + 1];
        if (pair(X, as[k], bs[k], &ps[k]) != 0)
            rc = -1;
    }
    if (rc != 0)
        goto done;
    result_alloc(X, r);
    for (size_t i = 0; i < X->nW; i++) {
        struct claim_wl *w = &r->wl[i];
        bool all_for = true, any_against = false;
        size_t worst = 0;
        for (size_t k = 0; k < np; k++) {
            const struct paired_wl *g = find_wl(&ps[k], X->W[i]);
            enum outcome o = pair_outcome(g, t->expect, t->min_diff);
            all_for = all_for && o == OUTCOME_FOR;
            any_against = any_against || o == OUTCOME_AGAINST;
            if (favour(t->expect, g->ws.mean) < favour(t->expect, find_wl(&ps[worst], X->W[i])->ws.mean))
                worst = k;
        }
        const struct paired_wl *g = find_wl(&ps[worst], X->W[i]);
        w->outcome = all_for ? OUTCOME_FOR : any_against ? OUTCOME_AGAINST : OUTCOME_UNDECIDED;
        w->stat = g->ws.mean;
        w->lo = g->ws.lo;
        w->hi = g->ws.hi;
        w->windows = g->ws.n;
        w->stat_of = pair_name(as[worst], bs[worst], false);
    }
    size_t worst = 0;
    for (size_t k = 1; k < np; k++)
        if (favour(t->expect, ps[k].mean) < favour(t->expect, ps[worst].mean))
            worst = k;
    r->stat = ps[worst].mean;
    r->lo = ps[worst].lo;
    r->hi = ps[worst].hi;
    r->stat_of = pair_name(as[worst], bs[worst], false);
    if (t->scope_mean)
        r->mean_outcome = interval_outcome(t->expect, r->lo, r->hi, t->min_diff);
done:
    for (size_t k = 0; k < np; k++)
        paired_free(&ps[k]);
    free(ps);
    free(as);
    free(bs);
    return rc;
}

/* ---- trend --------------------------------------------------------------------------- */

/* One workload x window of a sweep. */
struct sweep {
    size_t wl;          /* index in W */
    size_t *rows;
    size_t n;
    double weight;
};

/* Least-squares slope of the sweep's col over x; -1 with an error when x
 * is not a number, repeats, or has fewer than two values. */
static int slope_of(struct ctx *X, const struct sweep *s, int xcol, double *slope)
{
    const struct csv *c = X->csv;
    double *xs = mem_array(s->n, sizeof *xs), *ys = mem_array(s->n, sizeof *ys);
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; i < s->n && rc == 0; i++) {
        const char *xc = csv_cell(c, s->rows[i], (size_t)xcol), *yc = csv_cell(c, s->rows[i], (size_t)X->vcol);
        double x, y;
        if (!csv_number(xc, &x) || (X->t->log_x && x <= 0)) {
            fail(X, X->t->xpos, "x: %s line %zu: '%s' in column %s is not a number%s", csv_name(c),
                 csv_line(c, s->rows[i]), xc, X->t->x, X->t->log_x ? " > 0 (log_x)" : "");
            rc = -1;
        } else if (yc[0] && !csv_number(yc, &y)) {
            fail(X, X->t->qpos, "%s line %zu: '%s' in column %s is not a number", csv_name(c),
                 csv_line(c, s->rows[i]), yc, X->t->q.col);
            rc = -1;
        } else {
            for (size_t j = 0; j < i && rc == 0; j++) {
                double xj;
                if (csv_number(csv_cell(c, s->rows[j], (size_t)xcol), &xj) && xj == x) {
                    struct sbuf diff = SBUF_INIT;
                    paired_differing(c, s->rows[j], s->rows[i], X->vcol, &diff);
                    fail(X, X->t->qpos, "%s lines %zu and %zu: two rows at %s = %s for workload %s%s%s: add a condition",
                         csv_name(c), csv_line(c, s->rows[j]), csv_line(c, s->rows[i]), X->t->x, xc, X->W[s->wl],
                         diff.len ? "; they differ in " : "", sbuf_str(&diff));
                    sbuf_free(&diff);
                    rc = -1;
                }
            }
            if (rc == 0 && yc[0]) {
                xs[k] = X->t->log_x ? log10(x) : x;
                ys[k++] = y;
            }
        }
    }
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < k; i++) {
        mx += xs[i] / (double)k;
        my += ys[i] / (double)k;
    }
    for (size_t i = 0; i < k; i++) {
        sxx += (xs[i] - mx) * (xs[i] - mx);
        sxy += (xs[i] - mx) * (ys[i] - my);
    }
    if (rc == 0 && (k < 2 || sxx == 0)) {
        fail(X, X->t->xpos, "%s: workload %s has %zu sweep point%s with a number in %s in a window: a trend needs two",
             csv_name(c), X->W[s->wl], k, k == 1 ? "" : "s", X->t->q.col);
        rc = -1;
    }
    *slope = rc == 0 ? sxy / sxx : NAN;
    free(xs);
    free(ys);
    return rc;
}

static int eval_trend(struct ctx *X, struct claim_result *r)
{
    const struct claim_test *t = X->t;
    const struct csv *c = X->csv;
    int xcol = docquery_column(c, t->x, "x", X->file, t->xpos, X->d);
    size_t n = 0;
    size_t *rows = xcol < 0 ? NULL : side_rows(X, NULL, &n);
    if (!rows)
        return -1;
    int wincol = csv_column(c, "window"), wtcol = csv_column(c, "weight");
    struct strmap keys = {0};
    struct sweep *sw = mem_array(n, sizeof *sw);
    size_t nsw = 0;
    struct sbuf k = SBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const char *w = csv_cell(c, rows[i], (size_t)X->wcol);
        sbuf_clear(&k);
        sbuf_printf(&k, "%s\x1f%s", w, wincol >= 0 ? csv_cell(c, rows[i], (size_t)wincol) : "");
        bool added = false;
        size_t g = strmap_intern(&keys, sbuf_str(&k), &added);
        if (added) {
            sw[nsw].wl = strmap_get(&X->wmap, w);
            sw[nsw].rows = mem_array(n, sizeof *sw[nsw].rows);
            sw[nsw].weight = 1;
            if (wtcol >= 0 && !csv_number(csv_cell(c, rows[i], (size_t)wtcol), &sw[nsw].weight))
                sw[nsw].weight = NAN;
            nsw++;
        }
        sw[g].rows[sw[g].n++] = rows[i];
    }
    sbuf_free(&k);
    strmap_free(&keys);
    free(rows);
    int rc = 0;
    double *slope = mem_array(nsw ? nsw : 1, sizeof *slope);
    for (size_t g = 0; g < nsw && rc == 0; g++) /* the first error tells */
        rc = slope_of(X, &sw[g], xcol, &slope[g]);
    if (rc == 0) {
        result_alloc(X, r);
        double *v = mem_array(nsw ? nsw : 1, sizeof *v), *w = mem_array(nsw ? nsw : 1, sizeof *w);
        for (size_t i = 0; i < X->nW; i++) {
            size_t m = 0;
            bool all_for = true, all_against = true;
            for (size_t g = 0; g < nsw; g++)
                if (sw[g].wl == i) {
                    v[m] = slope[g];
                    w[m++] = sw[g].weight;
                    all_for = all_for && favour(t->expect, slope[g]) > 0;
                    all_against = all_against && favour(t->expect, slope[g]) < 0;
                }
            struct winstats ws;
            winstats_compute(v, w, m, &ws);
            struct claim_wl *cw = &r->wl[i];
            cw->outcome = all_for ? OUTCOME_FOR : all_against ? OUTCOME_AGAINST : OUTCOME_UNDECIDED;
            cw->stat = ws.mean;
            cw->lo = ws.lo;
            cw->hi = ws.hi;
            cw->windows = m;
            struct sbuf s = SBUF_INIT;
            sbuf_printf(&s, t->log_x ? "slope of %s over log10 %s" : "slope of %s over %s", t->q.col, t->x);
            cw->stat_of = sbuf_take(&s);
        }
        free(v);
        free(w);
        over_workloads(r);
        r->stat_of = mem_strdup(r->nwl ? r->wl[0].stat_of : "slope");
    }
    for (size_t g = 0; g < nsw; g++)
        free(sw[g].rows);
    free(sw);
    free(slope);
    return rc;
}

/* ---- bound --------------------------------------------------------------------------- */

static int eval_bound(struct ctx *X, struct claim_result *r)
{
    const struct claim_test *t = X->t;
    const struct csv *c = X->csv;
    int bcol = t->bound_col ? docquery_column(c, t->bound_col, "bound_col", X->file, t->bpos, X->d) : -1;
    if (t->bound_col && bcol < 0)
        return -1;
    size_t n = 0;
    size_t *rows = side_rows(X, NULL, &n);
    if (!rows)
        return -1;
    result_alloc(X, r);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct claim_wl *w = &r->wl[strmap_get(&X->wmap, csv_cell(c, rows[i], (size_t)X->wcol))];
        const char *vc = csv_cell(c, rows[i], (size_t)X->vcol);
        const char *bc = bcol >= 0 ? csv_cell(c, rows[i], (size_t)bcol) : "";
        double v, b = t->bound;
        if (!vc[0] || (bcol >= 0 && !bc[0]))
            continue;
        if (!csv_number(vc, &v) || (bcol >= 0 && !csv_number(bc, &b))) {
            bool bad_v = !csv_number(vc, &v);
            fail(X, bad_v ? t->qpos : t->bpos, "%s line %zu: '%s' in column %s is not a number", csv_name(c),
                 csv_line(c, rows[i]), bad_v ? vc : bc, bad_v ? t->q.col : t->bound_col);
            rc = -1;
            break;
        }
        double excess = t->expect == EXPECT_AT_MOST ? v - b : b - v;
        if (w->windows == 0 || excess > w->stat)
            w->stat = excess;
        w->windows++;
    }
    free(rows);
    if (rc != 0)
        return -1;
    struct sbuf s = SBUF_INIT;
    char num[64] = "";
    if (!t->bound_col)
        csv_format_number(num, sizeof num, t->bound);
    if (t->expect == EXPECT_AT_MOST)
        sbuf_printf(&s, "largest %s - %s", t->q.col, t->bound_col ? t->bound_col : num);
    else
        sbuf_printf(&s, "largest %s - %s", t->bound_col ? t->bound_col : num, t->q.col);
    r->stat = NAN;
    for (size_t i = 0; i < r->nwl; i++) {
        struct claim_wl *w = &r->wl[i];
        if (w->windows == 0) {
            fail(X, t->qpos, "%s: workload %s has no row with a number in %s%s%s", csv_name(c), w->workload,
                 t->q.col, t->bound_col ? " and " : "", t->bound_col ? t->bound_col : "");
            rc = -1;
            continue;
        }
        w->outcome = w->stat <= 0 ? OUTCOME_FOR : OUTCOME_AGAINST;
        w->stat_of = mem_strdup(sbuf_str(&s));
        if (isnan(r->stat) || w->stat > r->stat)
            r->stat = w->stat;
    }
    r->lo = r->hi = NAN;
    r->stat_of = sbuf_take(&s);
    return rc;
}

/* ---- level --------------------------------------------------------------------------- */

/* for: mean in [paper - tol, paper + tol]; against: [lo, hi] wholly outside it. */
static enum outcome level_outcome(const struct claim_test *t, double mean, double lo, double hi)
{
    double blo = t->paper - t->tol, bhi = t->paper + t->tol;
    if (mean >= blo && mean <= bhi)
        return OUTCOME_FOR;
    if (!isnan(lo) && !isnan(hi) && (hi < blo || lo > bhi))
        return OUTCOME_AGAINST;
    return OUTCOME_UNDECIDED;
}

/* A cell as a number (NaN when empty); -1 with an error for text. */
static int number_at(struct ctx *X, size_t row, int col, double *v)
{
    const char *cell = csv_cell(X->csv, row, (size_t)col);
    *v = NAN;
    if (!cell[0] || csv_number(cell, v))
        return 0;
    fail(X, X->t->qpos, "%s line %zu: '%s' in column %s is not a number", csv_name(X->csv), csv_line(X->csv, row),
         cell, csv_header(X->csv, (size_t)col));
    return -1;
}

static int eval_level(struct ctx *X, struct claim_result *r)
{
    const struct claim_test *t = X->t;
    const struct csv *c = X->csv;
    size_t n = 0;
    size_t *rows = side_rows(X, NULL, &n);
    if (!rows)
        return -1;
    int wincol = csv_column(c, "window"), wtcol = csv_column(c, "weight"), locol = -1, hicol = -1;
    agg_bound_columns(c, t->q.col, AGG_BOUNDS_CI, &locol, &hicol);
    result_alloc(X, r);
    /* the rows of each workload; one per window (one in all on a main CSV) */
    size_t **byw = mem_array(X->nW ? X->nW : 1, sizeof *byw), *cnt = mem_array(X->nW ? X->nW : 1, sizeof *cnt);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t w = strmap_get(&X->wmap, csv_cell(c, rows[i], (size_t)X->wcol));
        if (!byw[w])
            byw[w] = mem_array(n, sizeof *byw[w]);
        for (size_t j = 0; j < cnt[w] && rc == 0; j++) {
            size_t o = byw[w][j];
            if (wincol >= 0 && strcmp(csv_cell(c, o, (size_t)wincol), csv_cell(c, rows[i], (size_t)wincol)) != 0)
                continue;
            struct sbuf diff = SBUF_INIT;
            paired_differing(c, o, rows[i], X->vcol, &diff);
            fail(X, t->qpos, "%s lines %zu and %zu: two rows for workload %s%s%s%s%s: add a condition", csv_name(c),
                 csv_line(c, o), csv_line(c, rows[i]), X->W[w], wincol >= 0 ? ", window " : "",
                 wincol >= 0 ? csv_cell(c, o, (size_t)wincol) : "", diff.len ? "; they differ in " : "",
                 sbuf_str(&diff));
            sbuf_free(&diff);
            rc = -1;
        }
        byw[w][cnt[w]++] = rows[i];
    }
    for (size_t w = 0; w < X->nW && rc == 0; w++) {
        struct claim_wl *cw = &r->wl[w];
        double *x = mem_array(cnt[w] + 1, sizeof *x), *wt = mem_array(cnt[w] + 1, sizeof *wt);
        for (size_t j = 0; j < cnt[w] && rc == 0; j++) {
            rc = number_at(X, byw[w][j], X->vcol, &x[j]);
            wt[j] = 1;
            if (rc == 0 && wtcol >= 0 && wincol >= 0)
                rc = number_at(X, byw[w][j], wtcol, &wt[j]);
        }
        if (rc == 0 && wincol >= 0) {
            struct winstats ws;
            winstats_compute(x, wt, cnt[w], &ws);
            cw->stat = ws.mean;
            cw->lo = ws.lo;
            cw->hi = ws.hi;
            cw->windows = ws.n;
        } else if (rc == 0) {
            cw->stat = x[0];
            cw->windows = 1;
            if (locol >= 0 && (number_at(X, byw[w][0], locol, &cw->lo) != 0 ||
                               number_at(X, byw[w][0], hicol, &cw->hi) != 0))
                rc = -1;
        }
        if (rc == 0 && isnan(cw->stat)) {
            fail(X, t->qpos, "%s: workload %s has no number in %s", csv_name(c), cw->workload, t->q.col);
            rc = -1;
        }
        cw->outcome = t->scope_mean ? OUTCOME_NONE : level_outcome(t, cw->stat, cw->lo, cw->hi);
        cw->stat_of = mem_strdup(t->q.col);
        free(x);
        free(wt);
    }
    for (size_t w = 0; w < X->nW; w++)
        free(byw[w]);
    free(byw);
    free(cnt);
    free(rows);
    if (rc != 0)
        return -1;
    over_workloads(r);
    r->stat_of = mem_strdup(t->q.col);
    if (t->scope_mean)
        r->mean_outcome = level_outcome(t, r->stat, r->lo, r->hi);
    return 0;
}

/* ---- level, bound of a paired a - b or a / b ------------------------------------------ */

/* The statistic's name for workload g: the pair, and a window whose
 * denominator is 0 ("run:A / run:B; b = 0 in window 1 (line 7)"). */
static char *paired_stat_of(struct ctx *X, const char *prefix, const struct paired_wl *g, const char *suffix)
{
    const struct claim_test *t = X->t;
    struct sbuf s = SBUF_INIT;
    sbuf_printf(&s, "%s%s %c %s%s", prefix, t->runs[0].text, t->ratio ? '/' : '-', t->runs[1].text, suffix);
    if (g && g->nzero) {
        int wincol = csv_column(X->csv, "window");
        sbuf_printf(&s, "; %s is 0 in %zu %s", t->runs[1].text, g->nzero, wincol >= 0 ? "window" : "row");
        sbuf_puts(&s, g->nzero == 1 ? "" : "s");
        if (wincol >= 0)
            sbuf_printf(&s, "%s %s", g->nzero == 1 ? " (window" : " (first: window",
                        csv_cell(X->csv, g->zero_rb, (size_t)wincol));
        else
            sbuf_puts(&s, g->nzero == 1 ? " (" : " (first: ");
        sbuf_printf(&s, "%sline %zu): no ratio", wincol >= 0 ? ", " : "", csv_line(X->csv, g->zero_rb));
    }
    return sbuf_take(&s);
}

/* level: the weighted mean of d = a - b (a / b) over the windows against
 * the band, as eval_level does for a column; bound: every window's d
 * within the bound, as eval_bound does for every row.  A workload with a
 * zero denominator (paired.h) is undecided, unless a bound finds another
 * window outside the bound (against). */
static int eval_paired_level(struct ctx *X, struct claim_result *r)
{
    const struct claim_test *t = X->t;
    struct paired p;
    if (pair(X, &t->runs[0], &t->runs[1], &p) != 0)
        return -1;
    bool level = t->kind == KIND_LEVEL, any_zero = false;
    char num[64] = "";
    csv_format_number(num, sizeof num, t->bound);
    struct sbuf pre = SBUF_INIT, suf = SBUF_INIT;
    sbuf_puts(&pre, "");
    sbuf_puts(&suf, "");
    if (!level && t->expect == EXPECT_AT_MOST) {
        sbuf_puts(&pre, "largest (");
        sbuf_printf(&suf, ") - %s", num);
    } else if (!level) {
        sbuf_printf(&pre, "largest %s - (", num);
        sbuf_puts(&suf, ")");
    }
    result_alloc(X, r);
    for (size_t i = 0; i < X->nW; i++) {
        const struct paired_wl *g = find_wl(&p, X->W[i]);
        struct claim_wl *w = &r->wl[i];
        any_zero = any_zero || g->nzero;
        w->windows = g->ws.n;
        w->stat_of = paired_stat_of(X, sbuf_str(&pre), g, sbuf_str(&suf));
        if (level) {
            w->stat = g->ws.mean;
            w->lo = g->ws.lo;
            w->hi = g->ws.hi;
            w->outcome = t->scope_mean ? OUTCOME_NONE
                         : g->nzero   ? OUTCOME_UNDECIDED
                                      : level_outcome(t, w->stat, w->lo, w->hi);
            continue;
        }
        for (size_t k = 0; k < g->n; k++) {
            if (isnan(g->d[k]))
                continue;
            double excess = t->expect == EXPECT_AT_MOST ? g->d[k] - t->bound : t->bound - g->d[k];
            if (isnan(w->stat) || excess > w->stat)
                w->stat = excess;
        }
        w->outcome = w->stat > 0 ? OUTCOME_AGAINST : g->nzero ? OUTCOME_UNDECIDED : OUTCOME_FOR;
    }
    if (level) {
        over_workloads(r);
        r->stat_of = paired_stat_of(X, "", NULL, "");
        if (t->scope_mean)
            r->mean_outcome = any_zero ? OUTCOME_UNDECIDED : level_outcome(t, r->stat, r->lo, r->hi);
    } else {
        r->stat = NAN;
        for (size_t i = 0; i < r->nwl; i++)
            if (isnan(r->stat) || r->wl[i].stat > r->stat)
                r->stat = r->wl[i].stat;
        r->lo = r->hi = NAN;
        r->stat_of = paired_stat_of(X, sbuf_str(&pre), NULL, sbuf_str(&suf));
    }
    sbuf_free(&pre);
    sbuf_free(&suf);
    paired_free(&p);
    return 0;
}

/* ---- the test ----------------------------------------------------------------------- */

int claimtest_eval(const struct claim *c, const struct claim_test *t, const char *file, struct docsrc *src,
                   struct claim_result *r, struct diag *d)
{
    memset(r, 0, sizeof *r);
    r->stat = r->lo = r->hi = NAN;
    if (t->kind == KIND_NOT_TESTABLE) {
        r->verdict = VERDICT_NOT_TESTABLE;
        return 0;
    }
    struct ctx X = {c, t, file, d, NULL, -1, -1, NULL, 0, {0}};
    int rc = setup(&X, src);
    if (rc == 0) {
        switch (t->kind) {
        case KIND_TREND: rc = eval_trend(&X, r); break;
        case KIND_BOUND: rc = t->nruns == 2 ? eval_paired_level(&X, r) : eval_bound(&X, r); break;
        case KIND_LEVEL: rc = t->nruns == 2 ? eval_paired_level(&X, r) : eval_level(&X, r); break;
        default: rc = eval_pairs(&X, r); break;
        }
    }
    free(X.W);
    strmap_free(&X.wmap);
    if (rc != 0) {
        claim_result_free(r);
        return -1;
    }
    if (t->scope_mean) {
        for (size_t i = 0; i < r->nwl; i++)
            r->wl[i].outcome = OUTCOME_NONE;
        r->verdict = verdict_of_mean(r->mean_outcome);
        return 0;
    }
    r->counted = true;
    for (size_t i = 0; i < r->nwl; i++) {
        r->nfor += r->wl[i].outcome == OUTCOME_FOR;
        r->nagainst += r->wl[i].outcome == OUTCOME_AGAINST;
        r->nundecided += r->wl[i].outcome == OUTCOME_UNDECIDED;
    }
    r->verdict = verdict_of_counts(t->rule, r->nwl, r->nfor, r->nagainst);
    return 0;
}

void claim_result_free(struct claim_result *r)
{
    for (size_t i = 0; i < r->nwl; i++) {
        free(r->wl[i].workload);
        free(r->wl[i].stat_of);
    }
    free(r->wl);
    free(r->stat_of);
    memset(r, 0, sizeof *r);
}
