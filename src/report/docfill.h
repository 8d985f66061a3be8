/* docfill.h - `hwprof docs`: fill the markers of markdown documents from
 * the results CSVs, or check that they agree (the command is
 * cli/cmd_docs.c; markers: docmark.h; user guide: docs/docfill.md).
 *
 *   hwprof docs paper-repro.md            rewrite every marked number and table
 *   hwprof docs --check paper-repro.md    write nothing; list every difference
 *
 * Output of --check, one line per differing number or table cell:
 *   paper-repro.md:412:19: value differs: the document has "14.0", the results give "14.2"
 *   paper-repro.md:388:13: row "gzip", column "R0P0": the document has 60.12, the results give 61.00
 *   paper-repro.md: 2 differences from the results (`hwprof docs paper-repro.md` rewrites them)
 */
#ifndef DOCFILL_H
#define DOCFILL_H

#include <stddef.h>

#include "core/diag.h"

struct docfill_stats {
    size_t values, tables;                 /* markers in the document */
    size_t values_changed, tables_changed; /* whose text the results change */
};

/* text (len bytes, the document name in messages) with every marker
 * filled; src= paths are relative to base_dir.  Returns the new text
 * (malloc'd, *out_len bytes), or NULL with every error in errors.  Every
 * difference between the two goes to report (may be NULL). */
char *docfill_text(const char *text, size_t len, const char *name, const char *base_dir, size_t *out_len,
                   struct diag *errors, struct diag *report, struct docfill_stats *st);

#endif
