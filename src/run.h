/* run.h - the sweep runner: expand a config into model instances, feed every
 * instance from one decoding pass per trace (traces spread over threads),
 * and write results/<paper>/<stem>.csv, .json (sidecar) and .series.csv. */
#ifndef RUN_H
#define RUN_H

#include "config.h"

struct run_options {
    const char *traces_dir;   /* traces/<scale> */
    const char *out_dir;      /* results */
    int threads;              /* worker threads (default 2) */
    int quiet;                /* no progress on stderr */
    size_t max_events;        /* stop each trace after this many events (0 = all) */
};

/* Returns 0, or 1 with a message on stderr (and nothing written). */
int run_config(const struct config *c, const struct run_options *o);

#endif
