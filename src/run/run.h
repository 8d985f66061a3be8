/* run.h - run one config: expand it into jobs (one per trace window) and
 * model instances (one per run x sweep point), run them on the engine
 * (engine.h) with progress (progress.h), and write the results (results.h,
 * sidecar.h) only when every job succeeded. */
#ifndef RUN_H
#define RUN_H

#include <stdio.h>

#include "run/config.h"
#include "run/run_options.h"

/* Returns 0 (also when skipped as current), or 1 with messages on stderr
 * (and nothing written).  Before the first job it checks every trace to
 * run (windows_check: there, a regular file with a valid header, agreeing
 * with the window list) and that the output folders take files, and fails
 * there when one does not. */
int run_config(const struct config *c, const struct run_options *o);
/* `hwprof merge`: the results from the parts of every job (written by
 * shards); refuses an incomplete or mixed set.  0 or 1. */
int merge_config(const struct config *c, const struct run_options *o);
/* `run --dry-run`: the jobs, their traces and the sweep points, on f.
 * Checks what a run checks before its first job (every trace, the output
 * folders): 0, or 1 with the messages on stderr. */
int run_dry(const struct config *c, const struct run_options *o, FILE *f);

#endif
