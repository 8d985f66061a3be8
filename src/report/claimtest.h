/* claimtest.h - one test of a claim (claims.h) evaluated on the committed
 * results: per workload an outcome (for, against, undecided) and a
 * statistic with its 95% interval, over workloads the statistic and, with
 * "scope": "mean", the one outcome; then the verdict by the test's rule
 * (verdict.h).  docs/claims.md is the user's description.
 *
 * The rows: the query's CSV (read through docsrc.h, relative to the
 * current folder), its where= conditions (rowfilter.h) and, per run of the
 * test, the run's conditions in place of the query's on the same keys;
 * only the claim's workloads (by default every workload of the query's
 * rows).  Per kind, per workload, with d = a - b per window and "on the
 * expected side" meaning d < -min_diff for expect less (d > min_diff for
 * greater):
 *
 *   paired    for: every window's d on the expected side; against: every
 *             window's d on the other side (paired.h pairs the rows);
 *             statistic: the weighted mean of d and its interval
 *   lowest,   paired a vs each other run: for when a is paired-for against
 *   highest   every one, against when some run is paired-for against a;
 *             statistic: the least favourable pair's
 *   ordering  paired for each adjacent pair: for when all are for, against
 *             when one is against; statistic: the least favourable pair's
 *   trend     the least-squares slope of col over x in each window (each
 *             row group of one workload and window; over log10 x with
 *             log_x): for when every slope has the expected sign, against
 *             when every one the other; statistic: the weighted mean slope
 *             and its interval
 *   bound     for when every row is within the bound (col <= bound for
 *             at_most), against when one is not; statistic: the largest
 *             excess col - bound (bound - col for at_least), no interval
 *   level     for when the weighted mean over windows is within
 *             [paper - tol, paper + tol], against when its 95% interval
 *             lies wholly outside; statistic: that mean and interval (on a
 *             main CSV the row's col, col_lo, col_hi)
 *
 *   level,    with a and b: the same rules on the paired d = a - b, or
 *   bound     d = a / b with "op": "ratio" (paired.h), per window: level on
 *             the weighted mean of d and its interval, bound on every
 *             window's d; a workload with a window whose b is 0 (no
 *             ratio) is undecided (a bound: against when another window
 *             is outside), and its statistic_of names that window's line
 *
 * Over workloads the statistic is the mean of the per-workload statistics
 * with a t interval over workloads (bound: the largest excess).  With
 * "scope": "mean" (paired, level) that mean and interval decide: level as
 * above; paired for when the interval lies wholly on the expected side of
 * -min_diff / min_diff, against when wholly on the other.
 */
#ifndef CLAIMTEST_H
#define CLAIMTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "report/claims.h"
#include "report/docsrc.h"
#include "report/verdict.h"

struct claim_wl {
    char *workload;
    enum outcome outcome;    /* OUTCOME_NONE with scope mean */
    double stat, lo, hi;     /* NaN: none */
    size_t windows;          /* windows (rows) behind the statistic */
    char *stat_of;           /* what the statistic is: "run:R1P1 - run:R0P1", "slope of y over x", ... */
};

struct claim_result {
    enum verdict verdict;
    bool counted;            /* outcomes per workload (not scope mean, not not_testable) */
    size_t nfor, nagainst, nundecided;
    enum outcome mean_outcome; /* scope mean */
    double stat, lo, hi;     /* over workloads (NaN: none) */
    char *stat_of;
    struct claim_wl *wl;     /* in the order of the claim's workloads, else of the query's rows */
    size_t nwl;
};

/* Evaluate test t of claim c (declared in file, whose folder nothing is
 * relative to: src= paths are relative to the current folder, i.e. the
 * repository root) with the CSVs of src.  0, or -1 with every error in d
 * at file:line:column of the claim. */
int claimtest_eval(const struct claim *c, const struct claim_test *t, const char *file, struct docsrc *src,
                   struct claim_result *r, struct diag *d);
void claim_result_free(struct claim_result *r); /* leaves r empty */

#endif
