/* where.h - row filters of the "plot" and "table" sections:
 *
 *   "where": {"seed": 1, "tables": [2, 4, 8], "run": "BSH", "retain": true, "tag_bits": null}
 *
 * keeps the rows that match every key; a list matches any of its values.  A
 * string matches the cell text exactly, a number numerically (0.01 matches
 * "0.01" and "1e-2"), true/false match "1"/"0" (or "true"/"false"), null
 * matches an empty cell.
 */
#ifndef WHERE_H
#define WHERE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "csv.h"
#include "diag.h"

/* Check the shape of a where object found at path at; returns the number
 * of errors added to d. */
size_t where_check(json_t *where, const struct diag_path *at, struct diag *d);
/* Does cell match v (a value or a list of values)? */
bool where_matches(json_t *v, const char *cell);
/* Does where keep exactly one value of col (a scalar or a list of one)? */
bool where_fixes(json_t *where, const char *col);
/* Rows of c kept by where (NULL: every row), in file order, into a malloc'd
 * array (never NULL) of *n indices.  A where key that is not a column of c is
 * an error at at.<key>: returns NULL. */
size_t *where_rows(const struct csv *c, json_t *where, const struct diag_path *at, size_t *n,
                   struct diag *d);

#endif
