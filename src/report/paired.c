/* paired.c - paired differences between two sets of result rows (see
 * paired.h). */
#include "report/paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/aggregate.h"
#include "report/csvcol.h"
#include "report/strmap.h"

int paired_columns(const struct csv *c, const char *col, char *const *match, size_t nmatch, struct paired_cols *pc,
                   struct sbuf *why)
{
    memset(pc, 0, sizeof *pc);
    pc->value = csvcol_find(c, col, why);
    if (pc->value < 0)
        return -1;
    pc->workload = csvcol_find(c, "workload", why);
    if (pc->workload < 0)
        return -1;
    pc->window = csv_column(c, "window");
    pc->weight = csv_column(c, "weight");
    pc->match = mem_array(nmatch ? nmatch : 1, sizeof *pc->match);
    for (size_t i = 0; i < nmatch; i++) {
        pc->match[i] = csvcol_find(c, match[i], why);
        if (pc->match[i] < 0) {
            paired_cols_free(pc);
            return -1;
        }
        pc->nmatch++;
    }
    return 0;
}

void paired_cols_free(struct paired_cols *pc)
{
    free(pc->match);
    memset(pc, 0, sizeof *pc);
}

void paired_free(struct paired *p)
{
    for (size_t i = 0; i < p->nwl; i++) {
        free(p->wl[i].d);
        free(p->wl[i].w);
        free(p->wl[i].ra);
        free(p->wl[i].rb);
    }
    free(p->wl);
    memset(p, 0, sizeof *p);
}

void paired_differing(const struct csv *c, size_t r1, size_t r2, int before, struct sbuf *out)
{
    size_t shown = 0;
    for (size_t k = 0; k < (size_t)before && k < csv_ncols(c) && shown < 4; k++) {
        const char *h = csv_header(c, k);
        if (strcmp(h, "weight") == 0 || strcmp(h, "windows") == 0)
            continue;
        if (strcmp(csv_cell(c, r1, k), csv_cell(c, r2, k)) != 0)
            sbuf_printf(out, "%s%s", shown++ ? ", " : "", h);
    }
}

/* The pairing key of row r: its workload, window and match cells. */
static void key_of(const struct csv *c, const struct paired_cols *pc, size_t r, struct sbuf *k)
{
    sbuf_clear(k);
    sbuf_puts(k, csv_cell(c, r, (size_t)pc->workload));
    if (pc->window >= 0) {
        sbuf_putc(k, '\x1f');
        sbuf_puts(k, csv_cell(c, r, (size_t)pc->window));
    }
    for (size_t i = 0; i < pc->nmatch; i++) {
        sbuf_putc(k, '\x1f');
        sbuf_puts(k, csv_cell(c, r, (size_t)pc->match[i]));
    }
}

/* "workload gzip, window 2, interval 10000" for messages. */
static void describe(const struct csv *c, const struct paired_cols *pc, size_t r, struct sbuf *out)
{
    sbuf_printf(out, "workload %s", csv_cell(c, r, (size_t)pc->workload));
    if (pc->window >= 0)
        sbuf_printf(out, ", window %s", csv_cell(c, r, (size_t)pc->window));
    for (size_t i = 0; i < pc->nmatch; i++)
        sbuf_printf(out, ", %s %s", csv_header(c, (size_t)pc->match[i]), csv_cell(c, r, (size_t)pc->match[i]));
}

/* A set's rows by key; a key found twice is an error in why. */
static int index_rows(const struct csv *c, const struct paired_cols *pc, const size_t *rows, size_t n,
                      const char *name, struct strmap *m, size_t *slot_row, struct sbuf *why)
{
    struct sbuf k = SBUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        bool added = false;
        key_of(c, pc, rows[i], &k);
        size_t s = strmap_intern(m, sbuf_str(&k), &added);
        if (added) {
            slot_row[s] = rows[i];
            continue;
        }
        struct sbuf what = SBUF_INIT, diff = SBUF_INIT;
        describe(c, pc, rows[i], &what);
        paired_differing(c, slot_row[s], rows[i], pc->value, &diff);
        sbuf_printf(why, "%s: %s has 2 rows for %s (lines %zu and %zu)%s%s: add a condition or a match column",
                    csv_name(c), name, sbuf_str(&what), csv_line(c, slot_row[s]), csv_line(c, rows[i]),
                    diff.len ? "; they differ in " : "", sbuf_str(&diff));
        sbuf_free(&what);
        sbuf_free(&diff);
        rc = -1;
    }
    sbuf_free(&k);
    return rc;
}

/* The metric of row r: NaN for an empty cell; -1 with why for text. */
static int value_of(const struct csv *c, size_t r, int col, double *v, struct sbuf *why)
{
    const char *cell = csv_cell(c, r, (size_t)col);
    if (!cell[0]) {
        *v = NAN;
        return 0;
    }
    if (csv_number(cell, v))
        return 0;
    sbuf_printf(why, "%s line %zu: '%s' in column %s is not a number", csv_name(c), csv_line(c, r), cell,
                csv_header(c, (size_t)col));
    return -1;
}

static int weight_of(const struct csv *c, const struct paired_cols *pc, size_t r, double *w, struct sbuf *why)
{
    if (pc->weight < 0) {
        *w = 1;
        return 0;
    }
    const char *cell = csv_cell(c, r, (size_t)pc->weight);
    if (csv_number(cell, w) && *w >= 0)
        return 0;
    sbuf_printf(why, "%s line %zu: the weight '%s' is not a number >= 0", csv_name(c), csv_line(c, r), cell);
    return -1;
}

static void add_pair(struct paired_wl *g, size_t ra, size_t rb, double d, double w)
{
    g->d = mem_realloc(g->d, (g->n + 1) * sizeof *g->d);
    g->w = mem_realloc(g->w, (g->n + 1) * sizeof *g->w);
    g->ra = mem_realloc(g->ra, (g->n + 1) * sizeof *g->ra);
    g->rb = mem_realloc(g->rb, (g->n + 1) * sizeof *g->rb);
    g->d[g->n] = d;
    g->w[g->n] = w;
    g->ra[g->n] = ra;
    g->rb[g->n] = rb;
    g->n++;
}

/* Pair every a row with its b row into out's workloads. */
static int pair_rows(const struct csv *c, const struct paired_cols *pc, const size_t *ra, size_t na,
                     const struct strmap *bm, const size_t *b_row, bool *b_used, const char *b_name,
                     struct paired *out, struct sbuf *why)
{
    struct strmap wls = {0};
    struct sbuf k = SBUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < na && rc == 0; i++) {
        key_of(c, pc, ra[i], &k);
        size_t s = strmap_get(bm, sbuf_str(&k));
        if (s == SIZE_MAX) {
            struct sbuf what = SBUF_INIT;
            describe(c, pc, ra[i], &what);
            sbuf_printf(why, "%s: %s has no row for %s (line %zu has the other)", csv_name(c), b_name, sbuf_str(&what),
                        csv_line(c, ra[i]));
            sbuf_free(&what);
            rc = -1;
            break;
        }
        b_used[s] = true;
        double va, vb, wa, wb;
        if (value_of(c, ra[i], pc->value, &va, why) != 0 || value_of(c, b_row[s], pc->value, &vb, why) != 0 ||
            weight_of(c, pc, ra[i], &wa, why) != 0 || weight_of(c, pc, b_row[s], &wb, why) != 0) {
            rc = -1;
            break;
        }
        if (fabs(wa - wb) > 1e-9 * (fabs(wa) > fabs(wb) ? fabs(wa) : fabs(wb))) {
            sbuf_printf(why, "%s lines %zu and %zu: the paired rows have different weights (%s and %s): not one window",
                        csv_name(c), csv_line(c, ra[i]), csv_line(c, b_row[s]),
                        csv_cell(c, ra[i], (size_t)pc->weight), csv_cell(c, b_row[s], (size_t)pc->weight));
            rc = -1;
            break;
        }
        bool added = false;
        size_t g = strmap_intern(&wls, csv_cell(c, ra[i], (size_t)pc->workload), &added);
        if (added) {
            out->wl = mem_realloc(out->wl, (out->nwl + 1) * sizeof *out->wl);
            memset(&out->wl[out->nwl], 0, sizeof *out->wl);
            out->wl[out->nwl++].workload = csv_cell(c, ra[i], (size_t)pc->workload);
        }
        struct paired_wl *pw = &out->wl[g];
        double d = va - vb;
        if (pc->op == PAIRED_RATIO) {
            d = isnan(va) || isnan(vb) || vb == 0 ? NAN : va / vb;
            if (!isnan(va) && vb == 0 && pw->nzero++ == 0) {
                pw->zero_ra = ra[i];
                pw->zero_rb = b_row[s];
            }
        }
        add_pair(pw, ra[i], b_row[s], d, wa);
    }
    strmap_free(&wls);
    sbuf_free(&k);
    return rc;
}

int paired_compute(const struct csv *c, const struct paired_cols *pc, const size_t *ra, size_t na, const size_t *rb,
                   size_t nb, const char *a_name, const char *b_name, struct paired *out, struct sbuf *why)
{
    memset(out, 0, sizeof *out);
    out->mean = out->lo = out->hi = NAN;
    struct strmap am = {0}, bm = {0};
    size_t *a_row = mem_array(na ? na : 1, sizeof *a_row), *b_row = mem_array(nb ? nb : 1, sizeof *b_row);
    bool *b_used = mem_array(nb ? nb : 1, sizeof *b_used);
    int rc = -1;
    if (na == 0 || nb == 0) {
        sbuf_printf(why, "%s: no row of %s", csv_name(c), na == 0 ? a_name : b_name);
        goto done;
    }
    if (index_rows(c, pc, ra, na, a_name, &am, a_row, why) != 0 ||
        index_rows(c, pc, rb, nb, b_name, &bm, b_row, why) != 0 ||
        pair_rows(c, pc, ra, na, &bm, b_row, b_used, b_name, out, why) != 0)
        goto done;
    for (size_t s = 0; s < bm.n; s++) {
        if (b_used[s])
            continue;
        struct sbuf what = SBUF_INIT;
        describe(c, pc, b_row[s], &what);
        sbuf_printf(why, "%s: %s has no row for %s (line %zu has the other)", csv_name(c), a_name, sbuf_str(&what),
                    csv_line(c, b_row[s]));
        sbuf_free(&what);
        goto done;
    }
    double *means = mem_array(out->nwl, sizeof *means);
    for (size_t i = 0; i < out->nwl; i++) {
        struct paired_wl *g = &out->wl[i];
        winstats_compute(g->d, g->w, g->n, &g->ws);
        if (g->ws.n == 0 && g->nzero) {
            sbuf_printf(why, "%s: workload %s: %s is 0 in %s in every %s (line %zu is one): no ratio", csv_name(c),
                        g->workload, b_name, csv_header(c, (size_t)pc->value), pc->window >= 0 ? "window" : "row",
                        csv_line(c, g->zero_rb));
            free(means);
            goto done;
        }
        if (g->ws.n == 0) {
            sbuf_printf(why, "%s: workload %s: no %s where both have a number in %s", csv_name(c), g->workload,
                        pc->window >= 0 ? "window" : "row", csv_header(c, (size_t)pc->value));
            free(means);
            goto done;
        }
        means[i] = g->ws.mean;
    }
    struct agg_stats st;
    agg_compute(means, out->nwl, false, &st);
    out->mean = agg_center(&st);
    agg_interval95(&st, &out->lo, &out->hi);
    free(means);
    rc = 0;
done:
    strmap_free(&am);
    strmap_free(&bm);
    free(a_row);
    free(b_row);
    free(b_used);
    if (rc != 0)
        paired_free(out);
    return rc;
}
