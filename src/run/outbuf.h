/* outbuf.h - struct model_out (model.h): an instance's metrics and table
 * rows, collected in memory during a job and read by the result writers.
 * Rows of tables the config does not ask for are counted and dropped. */
#ifndef OUTBUF_H
#define OUTBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "run/model.h"

/* wanted[t] (t < number of the model's tables) says whether table t is kept;
 * NULL keeps none.  NULL on out of memory. */
struct model_out *model_out_create(const struct model_desc *m, const bool *wanted);
void model_out_free(struct model_out *o); /* accepts NULL */
/* Every metric set since create (or the last clear)?  Returns 0, or -1 with
 * the first missing metric's name in err. */
int model_out_check(const struct model_out *o, char *err, size_t errlen);
double model_out_metric(const struct model_out *o, size_t index);
size_t model_out_rows(const struct model_out *o, size_t table);
const union cell *model_out_row(const struct model_out *o, size_t table, size_t row);
/* Out of memory while adding rows (the run fails, naming the model). */
bool model_out_failed(const struct model_out *o);

#endif
