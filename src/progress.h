/* progress.h - progress of a run on stderr: jobs done, share of the work,
 * events per second and an ETA over all jobs of the run.  A job's work is
 * estimated before it starts (trace bytes x cost of its instances), so the
 * ETA covers jobs not yet opened.  On a terminal one line is redrawn four
 * times a second; otherwise (batch logs) a plain line is printed every
 * `interval` seconds.  Nothing is printed for runs shorter than a second. */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>

#include "engine.h"

struct progress;

/* work[i]: estimated work of jobs[i] (any unit).  Returns NULL when quiet
 * (all functions accept NULL). */
struct progress *progress_start(const char *name, struct engine_job *jobs, size_t njobs, const double *work,
                                int quiet, double interval);
/* Stop the reporting thread and print the final line. */
void progress_stop(struct progress *p);

#endif
