/* csvcol.h - a CSV column by name, or the reason there is none with the
 * nearest names ("no column 'x' in f.csv (did you mean 'y'?)"), for every
 * reader of result CSVs in the report layer. */
#ifndef CSVCOL_H
#define CSVCOL_H

#include "core/csv.h"
#include "core/sbuf.h"

/* The index of column `name` of c, or -1 with the reason appended to why. */
int csvcol_find(const struct csv *c, const char *name, struct sbuf *why);

#endif
