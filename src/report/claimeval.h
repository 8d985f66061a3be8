/* claimeval.h - every claim of a set (claims.h) evaluated (claimtest.h),
 * each claim's verdict from its parts' (verdict.h), and the two CSVs
 * `hwprof claims` writes (docs/claims.md, "Output"):
 *
 *   results/claims.csv            one row per claim (part empty) and, for a
 *                                 claim with parts, one per part after it
 *   results/claims.workloads.csv  one row per test and workload
 *
 * Same claims and results give the same bytes: rows in the order declared,
 * numbers as the runner writes them (csv.h, %.10g), no time or path.
 */
#ifndef CLAIMEVAL_H
#define CLAIMEVAL_H

#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "report/claims.h"
#include "report/claimtest.h"
#include "report/docsrc.h"
#include "report/verdict.h"

struct claim_eval {
    enum verdict verdict;      /* the claim's */
    struct claim_result *tests; /* one per test of the claim */
    size_t ntests;
};

struct claims_eval {
    struct claim_eval *c;      /* one per claim of the set */
    size_t n;
};

/* Evaluate every claim of s with the CSVs of src.  0, or -1 with every
 * error of every claim in d. */
int claims_evaluate(const struct claimset *s, struct docsrc *src, struct claims_eval *out, struct diag *d);
void claims_eval_free(struct claims_eval *e); /* leaves e empty */

/* The two CSVs. */
void claims_write_csv(const struct claimset *s, const struct claims_eval *e, FILE *out);
void claims_write_workloads_csv(const struct claimset *s, const struct claims_eval *e, FILE *out);

/* How many claims (not parts) of each paper have each verdict: papers[i]
 * (borrowed from s, in the order first declared), counts[i][v]. */
struct claims_tally {
    const char **papers;
    size_t (*counts)[VERDICT_COUNT];
    size_t n;
};
void claims_tally(const struct claimset *s, const struct claims_eval *e, struct claims_tally *t);
void claims_tally_free(struct claims_tally *t);

#endif
