/* run.h - run configs: expand each into jobs (one per trace window) and
 * model instances (one per run x sweep point), run them on the engine
 * (engine.h) with progress (progress.h), and write the results (results.h,
 * sidecar.h) only when every job succeeded; several stale configs in one
 * plan (run_configs). */
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
/* Several configs (NULL entries are skipped): with --if-changed the
 * current ones are said and left; when two or more are stale they are
 * computed in one plan (run_plan.c): per trace window one engine job
 * holding the deduplicated union of the instances of every config that
 * reads it, so each window is decoded once and every shared stage and
 * every distinct (model, parameters) instance computed once; each config's
 * files, parts and sidecar are those of a run of the config alone (the run
 * record but for its timings).  One stale config runs alone (run_config).
 * A config one of whose windows failed in the plan runs alone after it,
 * from the parts the plan left, so it reports its own errors and the
 * others keep their results.  Unless quiet, ends with where the time went
 * (per window, per paper folder, in total).  failed[i] is set to 1 for a
 * config whose run failed (messages on stderr), else 0. */
void run_configs(struct config *const *cs, size_t n, const struct run_options *o, int *failed);
/* `hwprof merge`: the results from the parts of every job (written by
 * shards); refuses an incomplete or mixed set.  0 or 1. */
int merge_config(const struct config *c, const struct run_options *o);
/* `run --dry-run`: the jobs, their traces and the sweep points, on f.
 * Checks what a run checks before its first job (every trace, the output
 * folders): 0, or 1 with the messages on stderr. */
int run_dry(const struct config *c, const struct run_options *o, FILE *f);

#endif
