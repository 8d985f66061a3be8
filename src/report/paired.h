/* paired.h - paired differences of one metric between two sets of rows of
 * one results CSV: the statistic most comparisons of two designs need,
 * since per-window differences cancel the phase-to-phase spread that
 * makes the two designs' own intervals wide.  Document markers (minus=,
 * docquery.h) and claims (claimtest.h) both use it.
 *
 * Pairing.  A row of set a (say run:two-level) and a row of set b
 * (run:one-level) are a pair when they have the same workload, the same
 * window when the CSV has a `window` column (a `.windows.csv`), and the
 * same cell in every `match` column (a sweep column).  Every row of a must
 * find exactly one row of b and every row of b one of a; otherwise the
 * pairing is an error naming the workload and window (and, for a row found
 * twice, the columns in which the two rows differ).
 *
 * Statistics.  Per pair d = a - b, or with PAIRED_RATIO (claims' "op":
 * "ratio") d = a / b (NaN when either cell is empty).  A ratio whose
 * denominator b is 0 is not a number either (a / 0 has no value, 0 / 0
 * neither): the pair's d is NaN, left out of the statistics like an empty
 * cell, and counted in the workload's nzero (its first such pair's rows in
 * zero_ra, zero_rb), so that a caller can make the workload undecided and
 * name the row; a workload whose every pair has b = 0 is an error (no
 * ratio at all).  Per
 * workload, over its pairs: winstats_compute (core/winstats.h) with the
 * pairs' SimPoint weights (the `weight` column; equal weights without
 * one): the weighted mean of d and its 95% t interval with Kish's
 * effective number of windows minus one degrees of freedom, exactly the
 * computation behind every m_lo/m_hi of the results.  Over workloads: the
 * plain mean of the per-workload means with a 95% t interval over the
 * workloads (n - 1 degrees of freedom, aggregate.h).
 *
 * Worked example (three windows of equal weight, d = 1, 2, 6): mean 3,
 * V2 = 1/3, s^2 = (4 + 1 + 9)/3 / (1 - 1/3) = 7, se = sqrt(7/3) = 1.5275,
 * n_eff - 1 = 2, t(0.975, 2) = 4.3027: [3 - 6.5724, 3 + 6.5724].
 */
#ifndef PAIRED_H
#define PAIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/csv.h"
#include "core/sbuf.h"
#include "core/winstats.h"

/* What a pair's d is: a - b (the default) or a / b. */
enum paired_op { PAIRED_MINUS, PAIRED_RATIO };

/* The columns a pairing reads, and the operation (paired_columns sets
 * PAIRED_MINUS; set op after it for a ratio). */
struct paired_cols {
    int value;     /* the metric */
    int workload;
    int window;    /* -1: none (one pair per workload and match) */
    int weight;    /* -1: equal weights */
    int *match;    /* more columns paired rows share */
    size_t nmatch;
    enum paired_op op;
};

/* One workload's pairs, in the order of its a rows. */
struct paired_wl {
    const char *workload; /* the CSV's cell (borrowed) */
    size_t n;             /* pairs */
    double *d, *w;        /* the difference a - b (or ratio a / b) and the weight of each pair */
    size_t *ra, *rb;      /* the rows of each pair */
    size_t nzero;         /* PAIRED_RATIO: pairs whose b is 0 (their d is NaN) */
    size_t zero_ra, zero_rb; /* the rows of the first of them */
    struct winstats ws;   /* of d over the pairs: the weighted mean, min, max, 95% interval */
};

struct paired {
    struct paired_wl *wl; /* in the order workloads first appear in a */
    size_t nwl;
    double mean, lo, hi;  /* over workloads: mean of the ws.mean, 95% t interval (NaN with one) */
};

/* The columns of c for the metric col and the match columns: 0, or -1 with
 * the reason in why ("no column 'x' in f.csv (did you mean 'y'?)"). */
int paired_columns(const struct csv *c, const char *col, char *const *match, size_t nmatch, struct paired_cols *pc,
                   struct sbuf *why);
void paired_cols_free(struct paired_cols *pc);

/* Pair rows ra[0..na) (set a, named a_name in messages) with rb[0..nb)
 * (b_name) and compute the statistics.  0, or -1 with the reason in why. */
int paired_compute(const struct csv *c, const struct paired_cols *pc, const size_t *ra, size_t na, const size_t *rb,
                   size_t nb, const char *a_name, const char *b_name, struct paired *out, struct sbuf *why);
void paired_free(struct paired *p); /* leaves p empty */

/* The names of the columns in which rows r1 and r2 of c differ, among the
 * columns before column `before` (the parameters: a results CSV lists them
 * before its metrics), at most 4, into out ("" when none). */
void paired_differing(const struct csv *c, size_t r1, size_t r2, int before, struct sbuf *out);

#endif
