/* plotspec_shim.c - TEMPORARY: plotspec_check/mdtable_check over the old
 * plot.c validators until the plotting rewrite lands. */
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "plotspec.h"

size_t plotspec_check(json_t *plot, const struct plot_columns *cols, struct diag *d)
{
    size_t before = diag_count(d);
    char err[512];
    struct plot_spec spec;
    struct diag_path p = diag_path_of(1, "plot");
    if (plot_validate_section(plot, err, sizeof err) != 0 || plot_spec_parse(plot, &spec, err, sizeof err) != 0) {
        diag_path_error(d, &p, 0, "%s", err);
        return diag_count(d) - before;
    }
    const char *src = spec.series_source ? "series" : "main";
    const char *names[2 + 2 * PLOT_MAX_COLS];
    size_t n = 0;
    names[n++] = spec.x;
    for (size_t k = 0; k < spec.ny; k++)
        names[n++] = spec.y[k];
    for (size_t k = 0; k < spec.ngroup; k++)
        names[n++] = spec.group[k];
    if (spec.panels)
        names[n++] = spec.panels;
    for (size_t k = 0; k < n; k++)
        if (names[k] && !cols->has(cols->ctx, src, names[k]))
            diag_path_error(d, &p, 0, "plot: no column '%s' in this config's %s CSV", names[k], src);
    return diag_count(d) - before;
}

size_t mdtable_check(json_t *table, const struct plot_columns *cols, struct diag *d)
{
    size_t before = diag_count(d);
    char err[512];
    struct diag_path p = diag_path_of(1, "table");
    if (plot_validate_table(table, err, sizeof err) != 0) {
        diag_path_error(d, &p, 0, "%s", err);
        return diag_count(d) - before;
    }
    json_t *c = json_object_get(table, "columns");
    size_t i;
    json_t *v;
    json_array_foreach(c, i, v) {
        if (!cols->has(cols->ctx, "main", json_string_value(v)))
            diag_path_error(d, &p, 0, "table.columns[%zu]: no column '%s' in this config's CSV", i,
                            json_string_value(v));
    }
    return diag_count(d) - before;
}
