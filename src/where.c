/* where.c - row filters (see where.h). */
#include "where.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool scalar_ok(json_t *v)
{
    return json_is_string(v) || json_is_number(v) || json_is_boolean(v) || json_is_null(v);
}

size_t where_check(json_t *where, const struct diag_path *at, struct diag *d)
{
    size_t before = diag_count(d);
    const char *key;
    json_t *v;
    if (!json_is_object(where)) {
        diag_path_error(d, at, 0, "must be an object {column: value or [values]}");
        return diag_count(d) - before;
    }
    json_object_foreach(where, key, v) {
        struct diag_path p = *at;
        diag_path_key(&p, key);
        if (json_is_array(v)) {
            size_t i;
            json_t *e;
            if (json_array_size(v) == 0)
                diag_path_error(d, &p, 0, "an empty list matches no row");
            json_array_foreach(v, i, e) {
                if (!scalar_ok(e)) {
                    struct diag_path pi = p;
                    diag_path_index(&pi, i);
                    diag_path_error(d, &pi, 0, "must be a string, number, boolean or null");
                }
            }
        } else if (!scalar_ok(v)) {
            diag_path_error(d, &p, 0, "must be a string, number, boolean, null or a list of them");
        }
    }
    return diag_count(d) - before;
}

static bool matches_one(json_t *v, const char *cell)
{
    double num;
    if (json_is_string(v))
        return strcmp(cell, json_string_value(v)) == 0;
    if (json_is_null(v))
        return cell[0] == '\0';
    if (json_is_true(v))
        return strcmp(cell, "1") == 0 || strcmp(cell, "true") == 0;
    if (json_is_false(v))
        return strcmp(cell, "0") == 0 || strcmp(cell, "false") == 0;
    if (json_is_integer(v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        if (strcmp(cell, buf) == 0)
            return true;
    }
    if (json_is_number(v) && csv_number(cell, &num))
        return num == json_number_value(v);
    return false;
}

bool where_matches(json_t *v, const char *cell)
{
    size_t i;
    json_t *e;
    if (!json_is_array(v))
        return matches_one(v, cell);
    json_array_foreach(v, i, e) {
        if (matches_one(e, cell))
            return true;
    }
    return false;
}

bool where_fixes(json_t *where, const char *col)
{
    json_t *v = where ? json_object_get(where, col) : NULL;
    if (!v)
        return false;
    return !json_is_array(v) || json_array_size(v) == 1;
}

size_t *where_rows(const struct csv *c, json_t *where, const struct diag_path *at, size_t *n,
                   struct diag *d)
{
    size_t nkeys = where ? json_object_size(where) : 0, k = 0, nrows = csv_nrows(c);
    size_t *col = calloc(nkeys ? nkeys : 1, sizeof *col);
    json_t **val = calloc(nkeys ? nkeys : 1, sizeof *val);
    size_t *rows = calloc(nrows ? nrows : 1, sizeof *rows);
    const char *key;
    json_t *v;
    bool bad = false;
    if (!col || !val || !rows) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    *n = 0;
    if (where) {
        json_object_foreach(where, key, v) {
            int ci = csv_column(c, key);
            if (ci < 0) {
                struct diag_path p = *at;
                diag_path_key(&p, key);
                diag_path_error(d, &p, 1, "no column '%s' in %s", key, csv_name(c));
                bad = true;
                continue;
            }
            col[k] = (size_t)ci;
            val[k++] = v;
        }
    }
    if (bad) {
        free(col);
        free(val);
        free(rows);
        return NULL;
    }
    for (size_t r = 0; r < nrows; r++) {
        bool keep = true;
        for (size_t i = 0; i < k && keep; i++)
            keep = where_matches(val[i], csv_cell(c, r, col[i]));
        if (keep)
            rows[(*n)++] = r;
    }
    free(col);
    free(val);
    return rows;
}
