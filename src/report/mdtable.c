/* mdtable.c - markdown tables from results CSVs (see mdtable.h). */
#include "report/mdtable.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "report/mdrender.h"
#include "report/numfmt.h"
#include "report/rowfilter.h"
#include "run/config.h"

static const char *const table_keys[] = {"columns", "where", "format", NULL};

/* A "format" value: a string holding printf's own number format. */
static bool table_format(json_t *v, struct numfmt *f)
{
    return json_is_string(v) && numfmt_parse(json_string_value(v), f, NULL) == 0 && numfmt_is_printf(f);
}

/* ---- validation ----------------------------------------------------------------- */

static void need_column(const struct config_columns *cols, const char *col, const struct diag_path *p, int want_key,
                        struct diag *d)
{
    if (!cols || cols->has(cols->ctx, "main", col))
        return;
    diag_path_error(d, p, want_key,
                    "no column '%s' in this config's CSV (columns: workload, run, model, the models' parameters "
                    "and metrics; see `hwprof params` and `hwprof models`)",
                    col);
}

size_t mdtable_check(json_t *table, const struct config_columns *cols, struct diag *d)
{
    size_t before = diag_count(d);
    struct diag_path root = diag_path_of(1, "table");
    const char *key;
    json_t *v;
    if (!table)
        return 0;
    if (!json_is_object(table)) {
        diag_path_error(d, &root, 0, "'table' must be an object");
        return diag_count(d) - before;
    }
    json_object_foreach(table, key, v) {
        bool known = false;
        for (size_t i = 0; table_keys[i]; i++)
            known = known || strcmp(table_keys[i], key) == 0;
        if (!known) {
            struct diag_path p = diag_path_of(2, "table", key);
            char msg[128] = "";
            diag_did_you_mean(msg, sizeof msg, diag_suggest(key, table_keys));
            diag_path_error(d, &p, 1, "unknown key '%s' in 'table' (known: columns, where, format)%s", key, msg);
        }
    }
    v = json_object_get(table, "columns");
    if (v) {
        struct diag_path p = diag_path_of(2, "table", "columns");
        size_t i;
        json_t *e;
        if (!json_is_array(v) || json_array_size(v) == 0)
            diag_path_error(d, &p, 0, "'columns' must be a non-empty list of column names");
        json_array_foreach(v, i, e) {
            struct diag_path pi = p;
            diag_path_index(&pi, i);
            if (!json_is_string(e) || json_string_length(e) == 0)
                diag_path_error(d, &pi, 0, "must be a column name (a non-empty string)");
            else
                need_column(cols, json_string_value(e), &pi, 0, d);
        }
    }
    v = json_object_get(table, "where");
    if (v) {
        struct diag_path p = diag_path_of(2, "table", "where");
        if (rowfilter_check_json(v, &p, d) == 0 && cols) {
            json_t *e;
            json_object_foreach(v, key, e) {
                struct diag_path pk = p;
                diag_path_key(&pk, key);
                need_column(cols, key, &pk, 1, d);
            }
        }
    }
    v = json_object_get(table, "format");
    if (v) {
        struct diag_path p = diag_path_of(2, "table", "format");
        json_t *f;
        struct numfmt nf;
        if (!json_is_object(v)) {
            diag_path_error(d, &p, 0, "'format' must be an object {column: \"%%.2f\"}");
        } else {
            json_object_foreach(v, key, f) {
                struct diag_path pk = p;
                diag_path_key(&pk, key);
                if (!table_format(f, &nf))
                    diag_path_error(d, &pk, 0,
                                    "a format must be a string with one conversion "
                                    "%%[-][0][width][.precision](d|f|e|g), e.g. \"%%.2f\"");
                need_column(cols, key, &pk, 1, d);
            }
        }
    }
    return diag_count(d) - before;
}

static size_t check_section(json_t *table, const struct config *c, const struct config_columns *cols, struct diag *d)
{
    (void)c;
    return mdtable_check(table, cols, d);
}

static const struct config_section table_section = {"table", check_section};
CONFIG_SECTION_REGISTER(table_section);

/* ---- rendering ------------------------------------------------------------------ */

int mdtable_render(FILE *out, const struct csv *csv, json_t *table, json_t *plot_where, struct diag *d)
{
    json_t *columns = table ? json_object_get(table, "columns") : NULL;
    json_t *format = table ? json_object_get(table, "format") : NULL;
    bool own_where = table && json_object_get(table, "where");
    json_t *where = own_where ? json_object_get(table, "where") : plot_where;
    struct diag_path wpath = diag_path_of(2, own_where ? "table" : "plot", "where");
    struct rowfilter filter = {NULL, 0};
    size_t ncols = columns ? json_array_size(columns) : csv_ncols(csv);
    size_t *cols = mem_array(ncols, sizeof *cols), *rows = NULL, nrows = 0;
    struct numfmt *fmts = mem_array(ncols, sizeof *fmts);
    bool *has_fmt = mem_array(ncols, sizeof *has_fmt), *numeric = mem_array(ncols, sizeof *numeric);
    char **text = NULL; /* (nrows + 1) * ncols: header, then cells */
    size_t before = diag_count(d);
    int rc = -1;

    if (mdtable_check(table, NULL, d) != 0)
        goto done;
    if (where && rowfilter_from_json(where, &wpath, &filter, d) != 0)
        goto done;
    for (size_t c = 0; c < ncols; c++) {
        if (columns) {
            const char *name = json_string_value(json_array_get(columns, c));
            int i = csv_column(csv, name);
            if (i < 0) {
                struct diag_path p = diag_path_of(2, "table", "columns");
                diag_path_index(&p, c);
                diag_path_error(d, &p, 0, "no column '%s' in %s", name, csv_name(csv));
                continue;
            }
            cols[c] = (size_t)i;
        } else {
            cols[c] = c;
        }
    }
    if (format) {
        const char *key;
        json_t *f;
        json_object_foreach(format, key, f) {
            if (csv_column(csv, key) < 0) {
                struct diag_path p = diag_path_of(3, "table", "format", key);
                diag_path_error(d, &p, 1, "no column '%s' in %s", key, csv_name(csv));
                continue;
            }
            for (size_t c = 0; c < ncols; c++) {
                if (strcmp(csv_header(csv, cols[c]), key) == 0) {
                    table_format(f, &fmts[c]);
                    has_fmt[c] = true;
                }
            }
        }
    }
    if (diag_count(d) != before)
        goto done;
    rows = rowfilter_select(&filter, csv, &wpath, &nrows, d);
    if (!rows)
        goto done;
    if (nrows == 0) { /* as for plots: an empty table is a mistake in 'where' */
        diag_path_error(d, &wpath, 0, "no row of %s matches", csv_name(csv));
        goto done;
    }

    text = mem_array((nrows + 1) * ncols, sizeof *text);
    for (size_t c = 0; c < ncols; c++) {
        bool any = false, all = true;
        text[c] = mem_strdup(csv_header(csv, cols[c]));
        for (size_t i = 0; i < nrows; i++) {
            const char *cell = csv_cell(csv, rows[i], cols[c]);
            double v;
            char buf[256];
            if (cell[0] != '\0' && csv_number(cell, &v)) {
                any = true;
                if (has_fmt[c]) {
                    numfmt_apply(&fmts[c], v, buf, sizeof buf);
                    cell = buf;
                }
            } else if (cell[0] != '\0') {
                all = false;
            }
            text[(i + 1) * ncols + c] = mem_strdup(cell);
        }
        numeric[c] = any && all; /* the header too: it sits over the numbers */
    }
    {
        struct mdgrid g = {nrows, ncols, text, numeric, NULL};
        char *md = md_render(&g);
        fputs(md, out);
        free(md);
    }
    rc = 0;
done:
    if (text)
        for (size_t i = 0; i < (nrows + 1) * ncols; i++)
            free(text[i]);
    free(text);
    free(rows);
    rowfilter_free(&filter);
    free(cols);
    free(fmts);
    free(has_fmt);
    free(numeric);
    return rc;
}
