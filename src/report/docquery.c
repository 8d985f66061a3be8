/* docquery.c - evaluating document markers' queries (see docquery.h). */
#include "report/docquery.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "report/aggregate.h"
#include "report/csvcol.h"
#include "report/paired.h"

int docquery_column(const struct csv *c, const char *name, const char *what, const char *file, struct doc_pos pos,
                    struct diag *d)
{
    struct sbuf why = SBUF_INIT;
    int i = csvcol_find(c, name, &why);
    if (i < 0)
        diag_error(d, file, pos.line, pos.column, "%s: %s", what, sbuf_str(&why));
    sbuf_free(&why);
    return i;
}

static void where_text(const struct doc_query *q, char *buf, size_t len)
{
    struct sbuf b = SBUF_INIT;
    rowfilter_text(&q->where, &b);
    snprintf(buf, len, "%s", q->where.n ? sbuf_str(&b) : "(no condition)");
    sbuf_free(&b);
}

/* Why no row matched: the first condition no row passes on its own, with
 * the values the column has. */
static void explain_none(const struct csv *c, const struct doc_query *q, const int *cols, const char *file,
                         struct doc_pos pos, struct diag *d)
{
    char w[512];
    where_text(q, w, sizeof w);
    for (size_t i = 0; i < q->where.n; i++) {
        const struct filter_cond *k = &q->where.cond[i];
        bool any = false;
        for (size_t r = 0; r < csv_nrows(c) && !any; r++)
            any = filter_cond_matches(k, csv_cell(c, r, (size_t)cols[i]));
        if (any)
            continue;
        struct sbuf vals = SBUF_INIT;
        size_t shown = 0;
        for (size_t r = 0; r < csv_nrows(c) && shown < 8; r++) {
            const char *cell = csv_cell(c, r, (size_t)cols[i]);
            bool seen = false;
            for (size_t p = 0; p < r && !seen; p++)
                seen = strcmp(csv_cell(c, p, (size_t)cols[i]), cell) == 0;
            if (!seen) {
                sbuf_printf(&vals, "%s%s", shown ? ", " : "", cell[0] ? cell : "(empty)");
                shown++;
            }
        }
        diag_error(d, file, pos.line, pos.column, "no row of %s has %s%s%s (%s has: %s%s)", csv_name(c), k->key,
                   k->op == FILTER_EQ ? ":" : " ", k->value, k->key, sbuf_str(&vals), shown == 8 ? ", ..." : "");
        sbuf_free(&vals);
        return;
    }
    diag_error(d, file, pos.line, pos.column, "no row of %s matches %s", csv_name(c), w);
}

/* Several rows matched: name the columns that tell them apart. */
static void explain_several(const struct csv *c, const struct doc_query *q, const size_t *rows, size_t n,
                            int col, const char *file, struct doc_pos pos, struct diag *d)
{
    char w[512];
    where_text(q, w, sizeof w);
    struct sbuf vary = SBUF_INIT;
    size_t shown = 0;
    for (size_t k = 0; k < csv_ncols(c) && shown < 5; k++) {
        const char *h = csv_header(c, k);
        size_t hl = strlen(h);
        if ((int)k == col || strcmp(h, "windows") == 0)
            break; /* parameters come before the metrics */
        if (hl > 4 && (!strcmp(h + hl - 4, "_min") || !strcmp(h + hl - 4, "_max")))
            continue;
        bool differ = false;
        for (size_t i = 1; i < n && !differ; i++)
            differ = strcmp(csv_cell(c, rows[i], k), csv_cell(c, rows[0], k)) != 0;
        if (differ) {
            sbuf_printf(&vary, "%s%s", shown ? ", " : "", h);
            shown++;
        }
    }
    diag_error(d, file, pos.line, pos.column, "%zu rows of %s match %s%s%s: add a condition or an agg=", n,
               csv_name(c), w, shown ? "; they differ in " : "", shown ? sbuf_str(&vary) : "");
    sbuf_free(&vary);
}

void docquery_format(const struct doc_query *q, double v, char *buf, size_t len)
{
    if (q->has_fmt)
        numfmt_apply(&q->fmt, v, buf, len);
    else
        csv_format_number(buf, len, v);
}

static double scaled(const struct doc_query *q, double v)
{
    return q->has_scale ? v * q->scale : v;
}

static void add_item(struct docresult *r, const char *text, double v)
{
    r->items = mem_realloc(r->items, (r->nitems + 1) * sizeof *r->items);
    r->items[r->nitems++] = (struct docitem){mem_strdup(text), v};
}

/* The shown text of a cell: formatted when it is a number and a format is
 * given, else as written. */
static void cell_item(struct docresult *r, const struct doc_query *q, const char *cell)
{
    double v;
    char buf[512];
    if (csv_number(cell, &v)) {
        if (q->has_fmt || q->has_scale) {
            v = scaled(q, v);
            docquery_format(q, v, buf, sizeof buf);
            add_item(r, buf, v);
        } else {
            add_item(r, cell, v);
        }
    } else {
        add_item(r, cell, NAN);
    }
}

static int eval_one(const struct csv *c, const struct doc_query *q, size_t row, int col, const char *file,
                    struct doc_pos pos, struct docresult *out, struct diag *d)
{
    const char *cell = csv_cell(c, row, (size_t)col);
    if (!cell[0]) {
        out->empty = true;
        add_item(out, "", NAN);
        return 0;
    }
    if (!q->ci) {
        cell_item(out, q, cell);
        return 0;
    }
    char lname[600], hname[600];
    agg_bound_names(q->col, AGG_BOUNDS_CI, lname, hname, sizeof lname);
    int lo = docquery_column(c, lname, "ci", file, pos, d);
    int hi = lo < 0 ? -1 : docquery_column(c, hname, "ci", file, pos, d);
    if (lo < 0 || hi < 0)
        return -1;
    struct docresult m = {0}, l = {0}, h = {0};
    cell_item(&m, q, cell);
    const char *lc = csv_cell(c, row, (size_t)lo), *hc = csv_cell(c, row, (size_t)hi);
    if (lc[0] && hc[0]) {
        cell_item(&l, q, lc);
        cell_item(&h, q, hc);
        char buf[1600];
        snprintf(buf, sizeof buf, "%s [%s, %s]", m.items[0].text, l.items[0].text, h.items[0].text);
        add_item(out, buf, m.items[0].v);
    } else {
        add_item(out, m.items[0].text, m.items[0].v);
    }
    docresult_free(&m);
    docresult_free(&l);
    docresult_free(&h);
    return 0;
}

/* Rows of c passing q's conditions (malloc'd, *n of them) and the
 * conditions' columns (*cols, malloc'd); NULL with an error when a
 * condition names no column. */
static size_t *match(const struct csv *c, const struct doc_query *q, size_t *n, int **cols_out, const char *file,
                     struct doc_pos pos, struct diag *d)
{
    int *cols = mem_array(q->where.n ? q->where.n : 1, sizeof *cols);
    bool bad = false;
    for (size_t i = 0; i < q->where.n; i++) {
        cols[i] = docquery_column(c, q->where.cond[i].key, "where", file, pos, d);
        bad = bad || cols[i] < 0;
    }
    if (bad) {
        free(cols);
        return NULL;
    }
    *cols_out = cols;
    return rowfilter_rows(&q->where, c, cols, n);
}

size_t *docquery_match(const struct csv *c, const struct doc_query *q, size_t *n, const char *file,
                       struct doc_pos pos, struct diag *d)
{
    int *cols = NULL;
    size_t *rows = match(c, q, n, &cols, file, pos, d);
    free(cols);
    return rows;
}

int docquery_cell(const struct csv *c, const struct doc_query *q, size_t row, const char *file, struct doc_pos pos,
                  struct docresult *out, struct diag *d)
{
    memset(out, 0, sizeof *out);
    int col = docquery_column(c, q->col, "col", file, pos, d);
    if (col < 0)
        return -1;
    out->sep = mem_strdup(", ");
    out->rankable = true;
    int rc = eval_one(c, q, row, col, file, pos, out, d);
    if (rc != 0)
        docresult_free(out);
    return rc;
}

/* ---- minus=: paired differences ------------------------------------------------------ */

/* "m [lo, hi]" (or m alone when lo is NaN) of scaled numbers as an item. */
static void add_interval_item(struct docresult *r, const struct doc_query *q, double m, double lo, double hi, bool ci)
{
    char buf[256], l[256], h[256], all[800];
    m = scaled(q, m);
    docquery_format(q, m, buf, sizeof buf);
    if (!ci || isnan(lo) || isnan(hi)) {
        add_item(r, buf, m);
        return;
    }
    lo = scaled(q, lo);
    hi = scaled(q, hi);
    if (lo > hi) { /* a negative scale */
        double t = lo;
        lo = hi;
        hi = t;
    }
    docquery_format(q, lo, l, sizeof l);
    docquery_format(q, hi, h, sizeof h);
    snprintf(all, sizeof all, "%s [%s, %s]", buf, l, h);
    add_item(r, all, m);
}

size_t *docquery_rows(const struct csv *c, const struct doc_query *q, size_t *n, const char *file, struct doc_pos pos,
                      struct diag *d)
{
    int *cols = NULL;
    size_t *rows = match(c, q, n, &cols, file, pos, d);
    if (rows && *n == 0) {
        explain_none(c, q, cols, file, pos, d);
        free(rows);
        rows = NULL;
    }
    free(cols);
    return rows;
}

/* docquery_rows of q's conditions, with minus's in place of its own on the
 * same keys when minus is set. */
static size_t *paired_rows(const struct csv *c, const struct doc_query *q, bool minus, size_t *n, const char *file,
                           struct doc_pos pos, struct diag *d)
{
    struct doc_query side = *q;
    rowfilter_copy(&side.where, &q->where);
    if (minus)
        rowfilter_overlay(&side.where, &q->minus);
    size_t *rows = docquery_rows(c, &side, n, file, pos, d);
    rowfilter_free(&side.where);
    return rows;
}

static int eval_paired(const struct csv *c, const struct doc_query *q, enum doc_agg agg, const char *file,
                       struct doc_pos pos, struct docresult *out, struct diag *d)
{
    if (agg != DOC_AGG_ONE && agg != DOC_AGG_MEAN && agg != DOC_AGG_MIN && agg != DOC_AGG_MAX &&
        agg != DOC_AGG_RANGE && agg != DOC_AGG_LIST) {
        diag_error(d, file, pos.line, pos.column,
                   "minus= gives one paired difference per workload: agg=one, mean, min, max, range or list, not agg=%s",
                   docmark_agg_name(agg));
        return -1;
    }
    if (docquery_column(c, q->col, "col", file, pos, d) < 0)
        return -1;
    for (size_t i = 0; i < q->nmatch; i++)
        if (docquery_column(c, q->match[i], "match", file, pos, d) < 0)
            return -1;
    size_t na = 0, nb = 0;
    size_t *ra = paired_rows(c, q, false, &na, file, pos, d);
    size_t *rb = ra ? paired_rows(c, q, true, &nb, file, pos, d) : NULL;
    if (!rb) {
        free(ra);
        return -1;
    }
    /* the two sides in messages: where's conditions on minus's keys, and minus's */
    struct rowfilter own = {NULL, 0};
    for (size_t i = 0; i < q->where.n; i++)
        if (rowfilter_has_key(&q->minus, q->where.cond[i].key))
            rowfilter_add(&own, q->where.cond[i].key, q->where.cond[i].op, q->where.cond[i].value);
    struct sbuf an = SBUF_INIT, bn = SBUF_INIT, why = SBUF_INIT;
    rowfilter_text(&own, &an);
    rowfilter_text(&q->minus, &bn);
    if (!own.n) { /* where leaves minus's keys open: its rows include minus's */
        sbuf_puts(&an, "where= (no condition on ");
        for (size_t i = 0; i < q->minus.n; i++)
            sbuf_printf(&an, "%s%s", i ? ", " : "", q->minus.cond[i].key);
        sbuf_puts(&an, ")");
    }
    rowfilter_free(&own);
    struct paired_cols pc;
    struct paired p = {0};
    int rc = -1;
    if (paired_columns(c, q->col, q->match, q->nmatch, &pc, &why) != 0) {
        diag_error(d, file, pos.line, pos.column, "minus: %s", sbuf_str(&why));
        goto done;
    }
    if (paired_compute(c, &pc, ra, na, rb, nb, sbuf_str(&an), sbuf_str(&bn), &p, &why) != 0) {
        diag_error(d, file, pos.line, pos.column, "minus: %s", sbuf_str(&why));
        paired_cols_free(&pc);
        goto done;
    }
    paired_cols_free(&pc);
    out->sep = mem_strdup(q->sep ? q->sep : agg == DOC_AGG_RANGE ? "-" : ", ");
    out->rankable = agg != DOC_AGG_RANGE;
    if (agg == DOC_AGG_ONE) {
        if (p.nwl != 1) {
            struct sbuf names = SBUF_INIT;
            for (size_t i = 0; i < p.nwl && i < 5; i++)
                sbuf_printf(&names, "%s%s", i ? ", " : "", p.wl[i].workload);
            diag_error(d, file, pos.line, pos.column,
                       "minus: %zu workloads have pairs (%s%s): name one (where=workload:...) or add agg=mean", p.nwl,
                       sbuf_str(&names), p.nwl > 5 ? ", ..." : "");
            sbuf_free(&names);
            goto done;
        }
        add_interval_item(out, q, p.wl[0].ws.mean, p.wl[0].ws.lo, p.wl[0].ws.hi, q->ci);
    } else if (agg == DOC_AGG_MEAN) {
        add_interval_item(out, q, p.mean, p.lo, p.hi, q->ci);
    } else {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < p.nwl; i++) {
            double v = p.wl[i].ws.mean;
            if (agg == DOC_AGG_LIST)
                add_interval_item(out, q, v, NAN, NAN, false);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (q->has_scale && q->scale < 0) {
            double t = lo;
            lo = hi;
            hi = t;
        }
        if (agg == DOC_AGG_MIN || agg == DOC_AGG_RANGE)
            add_interval_item(out, q, lo, NAN, NAN, false);
        if (agg == DOC_AGG_MAX || agg == DOC_AGG_RANGE)
            add_interval_item(out, q, hi, NAN, NAN, false);
    }
    rc = 0;
done:
    paired_free(&p);
    sbuf_free(&an);
    sbuf_free(&bn);
    sbuf_free(&why);
    free(ra);
    free(rb);
    return rc;
}

int docquery_eval(struct docsrc *s, const struct doc_query *q, const char *file, struct doc_pos pos,
                  struct docresult *out, struct diag *d)
{
    memset(out, 0, sizeof *out);
    if (!q->src || !q->col) {
        diag_error(d, file, pos.line, pos.column, "no %s= for this %s", q->src ? "col" : "src",
                   q->src ? "number" : "number (set it here, on its row or column, or on the table)");
        return -1;
    }
    const struct csv *c = docsrc_get(s, q->src, file, pos, d);
    if (!c)
        return -1;
    enum doc_agg agg = q->agg == DOC_AGG_UNSET ? DOC_AGG_ONE : q->agg;
    if (q->paired) {
        int rc = eval_paired(c, q, agg, file, pos, out, d);
        if (rc != 0)
            docresult_free(out);
        return rc;
    }
    /* col=a,b,c: an aggregate over several columns (unless a column has that name) */
    int *vcols = NULL;
    size_t nv = 0;
    if (csv_column(c, q->col) < 0 && strchr(q->col, ',')) {
        if (agg != DOC_AGG_MEAN && agg != DOC_AGG_MIN && agg != DOC_AGG_MAX && agg != DOC_AGG_SUM &&
            agg != DOC_AGG_RANGE && agg != DOC_AGG_LIST) {
            diag_error(d, file, pos.line, pos.column,
                       "col=%s: several columns go with agg=mean, min, max, sum, range or list", q->col);
            return -1;
        }
        char *names = mem_strdup(q->col), *save = NULL;
        bool bad = false;
        vcols = mem_array(strlen(q->col) + 1, sizeof *vcols);
        for (char *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            vcols[nv] = docquery_column(c, t, "col", file, pos, d);
            bad = bad || vcols[nv++] < 0;
        }
        free(names);
        if (bad || nv == 0) {
            free(vcols);
            return -1;
        }
    } else {
        vcols = mem_alloc(sizeof *vcols);
        vcols[0] = docquery_column(c, q->col, "col", file, pos, d);
        nv = 1;
        if (vcols[0] < 0) {
            free(vcols);
            return -1;
        }
    }
    int col = vcols[0];
    int by = -1;
    if (agg == DOC_AGG_ARGMIN || agg == DOC_AGG_ARGMAX) {
        by = q->by ? docquery_column(c, q->by, "by", file, pos, d) : -1;
        if (by < 0) {
            free(vcols);
            return -1;
        }
    }
    int *cols = NULL;
    size_t n = 0;
    size_t *rows = match(c, q, &n, &cols, file, pos, d);
    if (!rows) {
        free(vcols);
        return -1;
    }
    int rc = 0;
    double *vals = NULL;
    size_t *vrow = NULL;
    out->sep = mem_strdup(q->sep ? q->sep : agg == DOC_AGG_RANGE ? "-" : ", ");
    out->rankable = agg == DOC_AGG_ONE || agg == DOC_AGG_MEAN || agg == DOC_AGG_MIN || agg == DOC_AGG_MAX ||
                    agg == DOC_AGG_SUM || agg == DOC_AGG_LIST;
    char buf[512];
    if (agg == DOC_AGG_COUNT) {
        docquery_format(q, (double)n, buf, sizeof buf);
        add_item(out, buf, (double)n);
        goto done;
    }
    if (n == 0 && agg != DOC_AGG_LIST) {
        explain_none(c, q, cols, file, pos, d);
        rc = -1;
        goto done;
    }
    if (agg == DOC_AGG_ONE) {
        if (n > 1) {
            explain_several(c, q, rows, n, col, file, pos, d);
            rc = -1;
        } else {
            rc = eval_one(c, q, rows[0], col, file, pos, out, d);
        }
        goto done;
    }
    /* the numbers of the matching rows, column after column within a row
     * (empty cells skipped) */
    if (agg == DOC_AGG_ARGMIN || agg == DOC_AGG_ARGMAX)
        vcols[0] = by;
    vals = mem_array(n * nv + 1, sizeof *vals);
    vrow = mem_array(n * nv + 1, sizeof *vrow);
    size_t cnt = 0;
    for (size_t k = 0; k < n * nv; k++) {
        size_t i = k / nv;
        int numcol = vcols[k % nv];
        const char *cell = csv_cell(c, rows[i], (size_t)numcol);
        double v;
        if (!cell[0])
            continue;
        if (!csv_number(cell, &v) && agg == DOC_AGG_LIST) {
            add_item(out, cell, NAN); /* a list of names: the text as written */
            continue;
        }
        if (!csv_number(cell, &v)) {
            diag_error(d, file, pos.line, pos.column, "agg=%s: %s line %zu: '%s' in column %s is not a number",
                       docmark_agg_name(agg), csv_name(c), csv_line(c, rows[i]), cell, csv_header(c, (size_t)numcol));
            rc = -1;
            goto done;
        }
        if (agg == DOC_AGG_LIST) {
            docquery_format(q, scaled(q, v), buf, sizeof buf);
            add_item(out, buf, scaled(q, v));
        }
        vals[cnt] = v;
        vrow[cnt++] = rows[i];
    }
    if (agg == DOC_AGG_LIST)
        goto done;
    struct agg_stats st;
    agg_compute(vals, cnt, false, &st);
    if (st.n == 0) {
        out->empty = true;
        add_item(out, "", NAN);
        goto done;
    }
    double mean = scaled(q, st.mean), sum = scaled(q, st.sum), lo = st.min, hi = st.max;
    if (q->has_scale && q->scale < 0) { /* the smallest scaled value is the largest raw one */
        double t = lo;
        lo = hi;
        hi = t;
    }
    lo = scaled(q, lo);
    hi = scaled(q, hi);
    switch (agg) {
    case DOC_AGG_MEAN: {
        double a, z;
        docquery_format(q, mean, buf, sizeof buf);
        /* the rows' own spread: a 95% t-interval over the matched rows
         * (e.g. the mean over workloads of their weighted means), as a
         * plot's aggregate draws it */
        if (q->ci && agg_interval95(&st, &a, &z)) {
            a = scaled(q, a);
            z = scaled(q, z);
            if (a > z) {
                double t = a;
                a = z;
                z = t;
            }
            char l[256], h[256], all[1100];
            docquery_format(q, a, l, sizeof l);
            docquery_format(q, z, h, sizeof h);
            snprintf(all, sizeof all, "%s [%s, %s]", buf, l, h);
            add_item(out, all, mean);
        } else {
            add_item(out, buf, mean);
        }
        break;
    }
    case DOC_AGG_SUM: docquery_format(q, sum, buf, sizeof buf); add_item(out, buf, sum); break;
    case DOC_AGG_MIN: docquery_format(q, lo, buf, sizeof buf); add_item(out, buf, lo); break;
    case DOC_AGG_MAX: docquery_format(q, hi, buf, sizeof buf); add_item(out, buf, hi); break;
    case DOC_AGG_RANGE:
        docquery_format(q, lo, buf, sizeof buf);
        add_item(out, buf, lo);
        docquery_format(q, hi, buf, sizeof buf);
        add_item(out, buf, hi);
        break;
    default: /* argmin, argmax: the col cell of that row */
        cell_item(out, q, csv_cell(c, vrow[agg == DOC_AGG_ARGMIN ? st.argmin : st.argmax], (size_t)col));
        break;
    }
done:
    free(vals);
    free(vrow);
    free(rows);
    free(cols);
    free(vcols);
    if (rc != 0)
        docresult_free(out);
    return rc;
}

char *docresult_text(const struct docresult *r, const bool *bold)
{
    struct sbuf b = SBUF_INIT;
    sbuf_puts(&b, "");
    for (size_t i = 0; i < r->nitems; i++) {
        if (i)
            sbuf_puts(&b, r->sep ? r->sep : ", ");
        bool bb = bold && bold[i] && r->items[i].text[0];
        sbuf_printf(&b, "%s%s%s", bb ? "**" : "", r->items[i].text, bb ? "**" : "");
    }
    return sbuf_take(&b);
}

void docresult_free(struct docresult *r)
{
    for (size_t i = 0; i < r->nitems; i++)
        free(r->items[i].text);
    free(r->items);
    free(r->sep);
    memset(r, 0, sizeof *r);
}
