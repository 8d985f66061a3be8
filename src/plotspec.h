/* plotspec.h - validation of a config's "plot" and "table" sections against
 * the columns the run will write (called by the config validator, before
 * any trace is read).  Every error goes to a struct diag at its key path. */
#ifndef PLOTSPEC_H
#define PLOTSPEC_H

#include <jansson.h>
#include <stddef.h>

#include "diag.h"

struct plot_columns {
    /* does CSV `source` ("main", "series", "windows", or a model table name
     * such as "hot_ranges") have column col? */
    int (*has)(void *ctx, const char *source, const char *col);
    /* columns that vary across the rows of the main CSV (workload, run,
     * every swept parameter, window); NULL-terminated */
    const char *const *varying;
    void *ctx;
};

/* Adds every error of plot (the config's "plot" value, path "plot") to d;
 * returns the number added. */
size_t plotspec_check(json_t *plot, const struct plot_columns *cols, struct diag *d);
size_t mdtable_check(json_t *table, const struct plot_columns *cols, struct diag *d);

#endif
