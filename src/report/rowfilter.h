/* rowfilter.h - which rows of a results CSV a figure, a table or a number
 * in a document reads: one filter language, written two ways.
 *
 * In a config, the "where" of the plot and table sections (docs/plots.md):
 *
 *   "where": {"seed": 1, "tables": [2, 4, 8], "run": "BSH", "retain": true, "tag_bits": null}
 *
 * In a document marker, where= (docs/docfill.md):
 *
 *   where=workload:gzip,workload:lua,run!=R0P0,tables>=2
 *
 * Both are a list of conditions on columns.  A row passes when it passes
 * every condition, except that the equality conditions on one column are
 * alternatives (a JSON list, or key:a,key:b), one of which must hold.
 *
 * Equality: the cell's text is the condition's text, or, when the
 * condition is a number, the cell is the same number written differently
 * (0.01 and 1e-2).  The two spellings give these conditions:
 *
 *   "x" (a JSON string)      the text x exactly, never a number
 *   4, 0.01 (JSON numbers)   the number (an integer also as its digits)
 *   true / false             the text 1 or true / 0 or false
 *   null                     the empty cell
 *   key:value                the text value, or the same number when value is one
 *   key!=value               a cell that key:value does not match
 *   key<n, <=, >, >=         a cell that is a number and compares so
 *
 * In the text form a comma or backslash inside a value is written \, or
 * \\ (rowfilter_split, which markers use for their other lists too).
 */
#ifndef ROWFILTER_H
#define ROWFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "core/csv.h"
#include "core/diag.h"
#include "core/sbuf.h"

enum filter_op { FILTER_EQ, FILTER_NE, FILTER_LT, FILTER_LE, FILTER_GT, FILTER_GE };

struct filter_cond {
    char *key;      /* the column */
    enum filter_op op;
    char *value;    /* the text a cell must have ("" matches the empty cell) */
    char *alt;      /* another text that matches (JSON true: "true" beside "1"), or NULL */
    bool numeric;   /* the condition is the number num: a cell holding it matches however written */
    double num;
};

struct rowfilter {
    struct filter_cond *cond; /* in the order written */
    size_t n;
};

void rowfilter_free(struct rowfilter *f); /* leaves f empty */
void rowfilter_copy(struct rowfilter *dst, const struct rowfilter *src);
/* Add key op value written in the text form (value a number or a text). */
void rowfilter_add(struct rowfilter *f, const char *key, enum filter_op op, const char *value);
bool rowfilter_has_key(const struct rowfilter *f, const char *key);
/* An inner level's conditions replace f's on the same keys, after f's others. */
void rowfilter_overlay(struct rowfilter *f, const struct rowfilter *inner);
/* outer's conditions on keys f has none of, after f's own (defaults). */
void rowfilter_inherit(struct rowfilter *f, const struct rowfilter *outer);
/* Does f keep exactly one value of col (one equality condition on it)? */
bool rowfilter_fixes(const struct rowfilter *f, const char *col);

/* ---- the config spelling ------------------------------------------------ */

/* Check the shape of a "where" object found at path at; returns the
 * number of errors added to d. */
size_t rowfilter_check_json(json_t *where, const struct diag_path *at, struct diag *d);
/* Its conditions (after the same checks): 0, or the number of errors. */
size_t rowfilter_from_json(json_t *where, const struct diag_path *at, struct rowfilter *f, struct diag *d);
/* One equality condition on key from a JSON string, number, boolean or
 * null (a plot's normalisation baseline); free with filter_cond_free. */
void filter_cond_from_json(struct filter_cond *c, const char *key, json_t *v);
void filter_cond_free(struct filter_cond *c);

/* ---- the marker spelling ---------------------------------------------------- */

/* Conditions of text appended to f.  A malformed item is an error at
 * file:line:column (every item is checked); returns false after one. */
bool rowfilter_parse(const char *text, struct rowfilter *f, struct diag *d, const char *file, int line, int column);
/* s split at commas not written \, ("\\" is a backslash): malloc'd items
 * into *out, returns their number (at least 1). */
size_t rowfilter_split(const char *s, char ***out);
void rowfilter_split_free(char **items, size_t n);
/* The conditions in the text form ("key:value,key>=n"), unescaped. */
void rowfilter_text(const struct rowfilter *f, struct sbuf *out);
/* ":", "!=", "<", ... */
const char *filter_op_text(enum filter_op op);

/* ---- matching ------------------------------------------------------------------ */

bool filter_cond_matches(const struct filter_cond *c, const char *cell);
/* The column of each condition's key in c, -1 where c has none (malloc'd,
 * f->n of them). */
int *rowfilter_columns(const struct rowfilter *f, const struct csv *c);
/* Does row pass f (cols from rowfilter_columns, every one found)? */
bool rowfilter_match(const struct rowfilter *f, const struct csv *c, size_t row, const int *cols);
/* The rows of c that pass, in file order (malloc'd, never NULL; *n of them). */
size_t *rowfilter_rows(const struct rowfilter *f, const struct csv *c, const int *cols, size_t *n);
/* The same for a config's filter: a key that is not a column of c is an
 * error at at.<key> ("no column 'x' in results/...csv") and gives NULL. */
size_t *rowfilter_select(const struct rowfilter *f, const struct csv *c, const struct diag_path *at, size_t *n,
                         struct diag *d);

#endif
