/* model.h - the one interface every profiler model implements.
 *
 * A model is a table of function pointers registered by name in registry.c;
 * a config picks it with "model": "<name>".  The runner decodes each trace
 * once and hands the same batches of events to every model instance of the
 * sweep, so feed() must not modify the events and must be cheap: no
 * allocation, no I/O, no string work (size every table in create()).
 *
 * Life cycle:  create(params) -> feed(batch)... -> finish() -> report() -> free()
 * Intervals are the model's own business (multihash counts tuples, conte
 * counts branches); a model closes an interval inside feed() and, if it
 * declares series columns, emits one row per interval with series_row().
 * finish() closes the last partial interval if the model counts it.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "params.h"

/* Per-interval output: rows of doubles, one per declared series column.
 * Rows are buffered in memory by the runner and written as
 * results/<paper>/<fig>.series.csv. */
struct series;
void series_row(struct series *s, uint64_t interval, const double *values);

struct model_ops {
    const char *name;                 /* registry key, used in configs */
    const char *summary;              /* one line for `hwprof models` */
    const struct param_spec *params;  /* PARAM_END-terminated */
    const char *const *metrics;       /* NULL-terminated report() column names */
    const char *const *series_cols;   /* NULL-terminated per-interval columns, or NULL */
    unsigned event_mask;              /* EV_BIT()s of the kinds feed() wants */
    /* Build an instance.  series may be NULL (series not requested).
     * Returns NULL and fills err (a message naming the parameter) on failure. */
    void *(*create)(const struct param_values *pv, struct series *series, char *err, size_t errlen);
    /* Consume n events (already filtered only if the model says nothing about
     * ordering: the runner passes whole batches; ignore kinds you do not use). */
    void (*feed)(void *m, const struct event *ev, size_t n);
    /* End of trace. */
    void (*finish)(void *m);
    /* Write one value per metric name, in order.  NaN = not applicable. */
    void (*report)(const void *m, double *out);
    void (*free)(void *m); /* accepts NULL */

    /* Optional: instances that can share feeding work.  The runner groups the
     * instances of a job whose ops have the same (non-NULL) feed_group and
     * event_mask and whose share_key() returned 1 with equal keys (models
     * may differ: the key must name everything the shared work depends
     * on).  It then calls feed_group(members, n, batch, count) once per
     * batch instead of feed() on each member, always with the same members
     * in the same order (members[0] first), and never feeds a member alone;
     * finish/report/free stay per instance.  Results must equal those of
     * feeding every member alone.  feed_group has feed()'s rules: no
     * allocation, no I/O, no string work.  share_key runs once, after
     * create(); return 0 to stay alone. */
    int (*share_key)(const void *m, char *key, size_t len);
    void (*feed_group)(void *const *m, size_t n, const struct event *ev, size_t count);

    /* Optional: the trace header flags (TRF_HAS_VALUES, TRF_HAS_BRANCHES of
     * trace.h) an instance with these parameters needs.  The runner refuses
     * a trace without them (e.g. a value profile of a Lackey import) instead
     * of reporting a profile of nothing.  NULL: any trace will do. */
    unsigned (*trace_needs)(const struct param_values *pv);
};

/* Registry (registry.c). */
const struct model_ops *model_find(const char *name);
const struct model_ops *const *model_all(void); /* NULL-terminated */

#endif
