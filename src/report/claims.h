/* claims.h - the claims files (claims/<paper>.json, docs/claims.md): each
 * claim a paper makes that we reproduce, declared with the query into our
 * results, the test and the rule that make its verdict; read and checked
 * here, evaluated by claimtest.h and claimeval.h.
 *
 *   {"paper": "conte",
 *    "claims": [{"id": "conte-twolevel", "figure": "Conte Sec 5",
 *                "claim": "two-level more accurate than one-level",
 *                "paper_says": "dramatically improving accuracy",
 *                "kind": "paired", "expect": "greater",
 *                "query": "src=results/conte/accuracy.windows.csv col=accuracy_pct",
 *                "a": "run:two-level", "b": "run:one-level"}]}
 *
 * Parsing is strict, like a config's: duplicate keys, unknown keys (with a
 * suggestion), keys that do not apply to the test's kind, a missing
 * required key, a value of the wrong type or out of its set are errors
 * located at file:line:column, every one of every file reported; a claim's
 * "query" is a marker query (docmark_parse_query: src=, where=, col=) and
 * "a", "b", "others", "runs" are where= conditions (rowfilter.h), whose
 * errors point inside the string.  Ids are unique over every file read
 * into one set.  Nothing here reads a CSV.
 */
#ifndef CLAIMS_H
#define CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "report/docmark.h"
#include "report/rowfilter.h"
#include "report/verdict.h"

enum claim_kind { KIND_PAIRED, KIND_LOWEST, KIND_HIGHEST, KIND_ORDERING, KIND_TREND, KIND_BOUND, KIND_LEVEL,
                  KIND_NOT_TESTABLE };

enum claim_expect { EXPECT_NONE, EXPECT_LESS, EXPECT_GREATER, EXPECT_INCREASING, EXPECT_DECREASING,
                    EXPECT_AT_MOST, EXPECT_AT_LEAST };

/* A where= condition list naming a run ("run:R1P1", "run:MH,tables:4"). */
struct claim_cond {
    char *text;         /* as written */
    struct rowfilter f;
    struct doc_pos pos; /* of its string */
};

/* One test: a claim's own, or one of its parts. */
struct claim_test {
    char *name;              /* the part's name; NULL for a claim's own test */
    enum claim_kind kind;
    struct doc_pos pos;      /* of the test's "kind" */
    struct doc_query q;      /* "query" */
    struct doc_pos qpos;
    struct claim_cond *runs; /* paired: a, b; lowest, highest: a, then others; ordering: runs;
                              * level, bound: a, b or none (two: the test is of a - b, or a / b, per window) */
    size_t nruns;
    enum claim_expect expect;
    char *x;                 /* trend: the sweep column */
    struct doc_pos xpos;
    bool log_x;              /* trend: the slope over log10 x */
    bool has_bound;          /* bound: a number ... */
    double bound;
    char *bound_col;         /* ... or a column */
    struct doc_pos bpos;
    double paper, tol;       /* level: the paper's number, the absolute tolerance (tol_rel * |paper|) */
    bool ratio;              /* level, bound with a and b: "op": "ratio" (a / b), else a - b */
    char **match;            /* more columns paired rows share */
    size_t nmatch;
    struct doc_pos mpos;
    bool scope_mean;         /* "scope": "mean" */
    double min_diff;         /* a smaller difference is a tie */
    char *reason;            /* not_testable */
    enum claim_rule rule;    /* the claim's rule, or RULE_MEAN with scope mean */
};

struct claim {
    char *id, *figure, *claim, *paper_says;
    size_t file;             /* index into the set's files and papers */
    struct doc_pos pos;      /* of the claim's object */
    enum claim_rule rule;    /* of the claim row: the rule, RULE_MEAN when every test is scope mean */
    char **workloads;        /* NULL: every workload of each query's CSV */
    size_t nworkloads;
    struct doc_pos wpos;
    bool has_parts;
    struct claim_test *tests;
    size_t ntests;
};

struct claimset {
    struct claim *claims;    /* in the order declared, file after file */
    size_t n;
    char **files, **papers;  /* per file read */
    size_t nfiles;
};

/* Read the claims of file path into s, after those read before.  Every
 * error goes to d at path:line:column; returns the number added (the
 * claims of a file with errors are not added). */
size_t claims_load(struct claimset *s, const char *path, struct diag *d);
/* The same from text (len bytes) named path. */
size_t claims_parse(struct claimset *s, const char *text, size_t len, const char *path, struct diag *d);
void claimset_free(struct claimset *s); /* leaves s empty */

const char *claim_kind_name(enum claim_kind k);     /* "paired", ... "not_testable" */
const char *claim_expect_name(enum claim_expect e); /* "less", ... ("" for none) */

#endif
