/* docmark.h - markers in a markdown document whose numbers and tables come
 * from results CSVs: the parser.  `hwprof docs` (docfill.h) fills them;
 * docs/docfill.md is the user guide.
 *
 * Markers are HTML comments, so they read in the raw text and vanish when
 * rendered.  A number in prose:
 *
 *   cc1's error is <!-- value src=results/multihash/fig07-singlehash-10k.csv
 *   where=workload:cc1,run:R1P1 col=error_pct fmt=%.1f -->14.0<!-- /value -->%.
 *
 * A table (the text between the two markers is generated):
 *
 *   <!-- table src=results/conte/accuracy.csv cols=workload,run,accuracy_pct fmt=accuracy_pct:%.2f -->
 *   | workload | run       | accuracy_pct |
 *   | -------- | --------- | -----------: |
 *   | bzip2    | one-level |        87.22 |
 *   <!-- /table -->
 *
 * or a grid: one line per row or column after the first, each cell the one
 * CSV row matching the table's, the row's and the column's conditions:
 *
 *   <!-- table src=results/multihash/fig07-singlehash-10k.csv col=error_pct fmt=%.2f best=min
 *   rows workload:gzip,bzip2
 *   row "**mean**" agg=mean best=none
 *   column "R0P0" where=run:R0P0
 *   column "R1P1" where=run:R1P1
 *   -->
 *   ...
 *   <!-- /table -->
 *
 * A value (or a grid's row or column) with minus= shows a paired
 * difference: the rows of where minus those of where with minus's
 * conditions, paired by workload, window and the match= columns:
 *
 *   <!-- value src=x.windows.csv where=run:A minus=run:B col=error_pct ci -->...<!-- /value -->
 *
 * and `<!-- defaults src=... where=... -->` sets src, where, col, agg, fmt,
 * scale and ci for the value markers that follow it (up to the next
 * defaults); its where not for a marker that names another src.
 *
 * Attributes are key=value, key="quoted value" (\" and \\ escaped), or the
 * flags ci and (on a column) hide and optional.  where is a comma-separated
 * list of conditions key:value (equal; repeating a key lists alternatives),
 * key!=value, key<n, key<=n, key>n, key>=n (rowfilter.h); a comma or
 * backslash inside a value is written \, or \\.  A marker
 * may not contain "--" (markdown would no longer see a comment), a value
 * marker not "|" (it would split a table cell).  Markers inside fenced code
 * blocks and inline code spans are text, not markers; the text between a
 * value marker and the next comment is the value's, never code.
 *
 * Errors name the markdown file and line:column; every error of a document
 * is reported.
 */
#ifndef DOCMARK_H
#define DOCMARK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "report/numfmt.h"
#include "report/rowfilter.h"

enum doc_agg {
    DOC_AGG_UNSET = 0, /* inherit (one when nothing sets it) */
    DOC_AGG_ONE,       /* exactly one matching row */
    DOC_AGG_MEAN,
    DOC_AGG_MIN,
    DOC_AGG_MAX,
    DOC_AGG_SUM,
    DOC_AGG_COUNT,     /* matching rows */
    DOC_AGG_RANGE,     /* "min-max" */
    DOC_AGG_LIST,      /* every matching row's value, in file order */
    DOC_AGG_ARGMIN,    /* col of the row where `by` is smallest */
    DOC_AGG_ARGMAX
};

/* What one marker, table, row or column says about where its number comes
 * from.  Unset fields (NULL, DOC_AGG_UNSET, has_fmt false) inherit from the
 * enclosing level; the conditions of an inner level replace those of outer
 * levels on the same keys. */
struct doc_query {
    char *src;      /* CSV path relative to the document's folder, or #id of a table */
    struct rowfilter where; /* where= (rowfilter.h) */
    char *col;
    enum doc_agg agg;
    char *by;       /* argmin/argmax */
    char *sep;      /* range/list separator */
    bool has_fmt;
    struct numfmt fmt;
    bool has_scale;
    double scale;   /* numbers are multiplied by it before formatting (not counts) */
    bool ci;        /* "m [m_lo, m_hi]"; with agg=mean "mean [lo, hi]", a 95% t-interval over the rows */
    /* minus=: the paired difference between the rows of where and those of
     * where with minus's conditions in place of its own on the same keys,
     * paired by workload, window and the match= columns (paired.h) */
    bool paired;
    struct rowfilter minus;
    char **match;   /* match=a,b: more columns paired rows share */
    size_t nmatch;
};

struct doc_pos {
    int line, column; /* 1-based */
};

struct doc_value {
    struct doc_query q; /* defaults already applied */
    struct doc_pos pos;
    size_t open_start;  /* "<!--" of the opening marker */
    size_t text_start, text_end; /* the number's text between the markers */
    size_t close_end;
};

enum doc_best { DOC_BEST_UNSET = 0, DOC_BEST_NONE, DOC_BEST_MIN, DOC_BEST_MAX };

struct doc_row {
    char *label;        /* as shown (markdown allowed) */
    char *name;         /* in the table's CSV view (#id); NULL: the label */
    struct doc_query q;
    enum doc_best best;
    struct doc_pos pos;
    /* rows each=KEY,...: these columns; the row stands for one row per
     * combination of their values in the source (doctable.c); NULL: a row */
    char **each;
    size_t neach;
};

/* expr=$A/$B: operands are 1-based data columns ($1 is the first column
 * after the row labels) or numbers (col 0). */
struct doc_expr {
    int a_col, b_col;
    double a_num, b_num;
    char op; /* + - * / */
};

struct doc_column {
    char *header;
    char *name;         /* in the table's CSV view; NULL: the header */
    struct doc_query q;
    char *group;        /* best-of group; NULL: the default group */
    bool no_best;       /* best=none: never marked */
    bool hide;          /* computed (and in the CSV view) but not shown */
    bool optional;      /* a cell no row matches is left empty, not an error */
    bool has_expr;
    struct doc_expr expr;
    struct doc_pos pos;
};

/* cols= of a simple table: a CSV column and its format. */
struct doc_colfmt {
    char *name;
    bool has_fmt;
    struct numfmt fmt;
};

struct doc_table {
    char *id;                      /* src=#id names it; NULL: none */
    char *head;                    /* header over the row labels */
    struct doc_query q;
    enum doc_best best;
    /* simple: every row of src matching where, these columns */
    struct doc_colfmt *cols;
    size_t ncols;
    /* grid (ncols == 0) */
    struct doc_row *rows;
    size_t nrows;
    struct doc_column *columns;
    size_t ncolumns;
    struct doc_pos pos;
    size_t open_start;
    size_t content_start, content_end; /* whole lines between the markers */
    int content_line;
    size_t close_end;
};

struct doc {
    char *name;
    struct doc_value *values;
    size_t nvalues;
    struct doc_table *tables;
    size_t ntables;
};

/* Every marker of text (len bytes; name is the file name for messages).
 * Returns the document, or NULL with every error in d. */
struct doc *docmark_parse(const char *text, size_t len, const char *name, struct diag *d);
void docmark_free(struct doc *doc); /* accepts NULL */

const char *docmark_agg_name(enum doc_agg a);

/* A query written as a value marker's attributes, outside a document (a
 * claim's "query", claims.h): src=, where= and col= (all three required),
 * into q.  The text starts at position at of file (the first character
 * inside a JSON string: errors are located at line:column of the text from
 * there; an escape in the JSON shifts columns after it).  Returns true, or
 * false with every error in d (q is to be freed with docmark_query_free
 * either way). */
bool docmark_parse_query(const char *text, const char *file, struct doc_pos at, struct doc_query *q, struct diag *d);
void docmark_query_free(struct doc_query *q); /* leaves q empty */
void docmark_query_copy(struct doc_query *dst, const struct doc_query *src);

#endif
