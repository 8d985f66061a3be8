/* docquery.h - the numbers behind document markers (docmark.h): one query
 * (conditions, column, aggregate, format) evaluated to the text a marker
 * shows, over the CSVs of the document's sources (docsrc.h), with the
 * filter language of rowfilter.h and the aggregator of aggregate.h.
 *
 *   src=results/conte/accuracy.csv where=workload:lua,run:one-level col=accuracy_pct fmt=%.1f
 *     -> "96.5"                (exactly one row must match)
 *   ... col=accuracy_pct fmt=%.1f ci  -> "96.5 [95.9, 97.1]"  (from accuracy_pct_lo/_hi;
 *                                        "96.5" when the interval cells are empty)
 *   where=run:one-level agg=mean      -> the mean over the matching rows
 *   where=run:one-level agg=argmin by=accuracy_pct col=workload -> "xz"
 *   src=...windows.csv where=workload:lua,run:two-level minus=run:one-level col=accuracy_pct ci
 *                                     -> "-1.4 [-2.9, 0.1]": the paired difference two-level - one-level,
 *                                        weighted mean over lua's windows and its interval (paired.h);
 *                                        with agg=mean the mean over workloads, ci over workloads
 *
 * Conditions: key:value matches the cell text, or the same number written
 * differently ("0.01" and "1e-2"); several key:value on one key are
 * alternatives; the ordering operators compare numbers (a cell that is not
 * a number does not match).  Aggregates skip empty cells; a non-empty cell
 * that is not a number is an error.
 */
#ifndef DOCQUERY_H
#define DOCQUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/csv.h"
#include "core/diag.h"
#include "report/docmark.h"
#include "report/docsrc.h"

/* One number (or text) of a result: a list has several. */
struct docitem {
    char *text;  /* as shown */
    double v;    /* NaN when not a number */
};

struct docresult {
    struct docitem *items;
    size_t nitems;
    char *sep;        /* between items */
    bool rankable;    /* items are values best= may compare (one, mean, min, max, sum, list) */
    bool empty;       /* agg=one found an empty cell; aggregates found no number */
};

/* Column name of c, or -1 with the error "what: no column 'x' in f.csv
 * (did you mean 'y'?)" at file:pos. */
int docquery_column(const struct csv *c, const char *name, const char *what, const char *file, struct doc_pos pos,
                    struct diag *d);
/* Rows of c passing q's conditions, at least one (malloc'd, *n of them):
 * NULL with an error when a condition names no column or no row passes
 * (naming the first condition no row passes and the values its column has). */
size_t *docquery_rows(const struct csv *c, const struct doc_query *q, size_t *n, const char *file, struct doc_pos pos,
                      struct diag *d);
/* Rows of c passing q's conditions, in file order (malloc'd; *n of them).
 * NULL with an error when a condition names no column. */
size_t *docquery_match(const struct csv *c, const struct doc_query *q, size_t *n, const char *file,
                       struct doc_pos pos, struct diag *d);
/* Column q->col of one row (q->fmt and q->ci apply). */
int docquery_cell(const struct csv *c, const struct doc_query *q, size_t row, const char *file, struct doc_pos pos,
                  struct docresult *out, struct diag *d);
/* Evaluate q (every field resolved: src and col set).  An error goes to d
 * at file:pos.  Returns 0, or -1. */
int docquery_eval(struct docsrc *s, const struct doc_query *q, const char *file, struct doc_pos pos,
                  struct docresult *out, struct diag *d);
/* The items joined by sep, bolding the items flagged in bold (may be NULL). */
char *docresult_text(const struct docresult *r, const bool *bold);
void docresult_free(struct docresult *r); /* leaves r empty */

/* Text of v under q's format (has_fmt), else as the CSV writer prints it. */
void docquery_format(const struct doc_query *q, double v, char *buf, size_t len);

#endif
