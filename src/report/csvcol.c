/* csvcol.c - a CSV column by name, or why not (see csvcol.h). */
#include "report/csvcol.h"

#include <stdlib.h>

#include "core/diag.h"

int csvcol_find(const struct csv *c, const char *name, struct sbuf *why)
{
    int i = csv_column(c, name);
    if (i >= 0)
        return i;
    size_t n = csv_ncols(c);
    const char **cands = mem_array(n + 1, sizeof *cands);
    for (size_t k = 0; k < n; k++)
        cands[k] = csv_header(c, k);
    char msg[256] = "";
    diag_did_you_mean(msg, sizeof msg, diag_suggest(name, cands));
    free(cands);
    sbuf_printf(why, "no column '%s' in %s%s", name, csv_name(c), msg);
    return -1;
}
