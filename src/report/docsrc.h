/* docsrc.h - the CSVs a document's markers read (src=): each file read
 * once per document, its path relative to the document's folder, a
 * missing one reported once with the closest file name there; and the CSV
 * views of the document's tables (src=#id, doctable.h).
 */
#ifndef DOCSRC_H
#define DOCSRC_H

#include "core/csv.h"
#include "core/diag.h"
#include "report/docmark.h"

struct docsrc;

/* Paths in src= are relative to base_dir ("." for none). */
struct docsrc *docsrc_create(const char *base_dir);
void docsrc_free(struct docsrc *s); /* accepts NULL */
/* Make c (owned from now on) the source "#id". */
void docsrc_add_view(struct docsrc *s, const char *id, struct csv *c);
/* The CSV of src ("#id": a table's view), read on first use.  NULL with an
 * error at file:pos, only the first time a source fails. */
const struct csv *docsrc_get(struct docsrc *s, const char *src, const char *file, struct doc_pos pos, struct diag *d);

#endif
