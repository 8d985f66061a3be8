/* windows.h - the trace windows of a workload.
 *
 * A workload is traced in one or more windows (SimPoint representatives,
 * experiments/scales.sh): traces/<scale>/<workload>.w<K>.trace, K = 0, 1, ...
 * in SimPoint order, each with its weight in the trace metadata.  A folder
 * holding only traces/<scale>/<workload>.trace (one window, weight 1) works
 * too.  Every window is a job of the runner; results keep the per-window
 * rows and aggregate over windows (winstats.h). */
#ifndef WINDOWS_H
#define WINDOWS_H

#include <stddef.h>

struct window {
    char path[1200];
    int index;      /* K of .wK, 0 for a single <workload>.trace */
    int single;     /* the workload has one trace without a window number */
};

/* The windows of `workload` under dir, by index.  Returns the count (0 when
 * none exists: then (*out)[0] is the single-window path the runner will
 * report as missing), or -1 on out of memory.  *out is malloc'd (at least
 * one entry). */
int windows_list(const char *dir, const char *workload, struct window **out);

#endif
