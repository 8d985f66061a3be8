/* run.h - run one config: expand it into jobs (one per trace window) and
 * model instances (one per run x sweep point), run them on the engine
 * (engine.h) with progress (progress.h), and write the results (results.h,
 * sidecar.h) only when every job succeeded. */
#ifndef RUN_H
#define RUN_H

#include "config.h"

struct run_options {
    const char *traces_dir;   /* traces/<scale> */
    const char *out_dir;      /* results */
    int threads;              /* worker threads (>= 1) */
    int max_lanes;            /* 0: threads */
    int quiet;                /* no progress on stderr */
    double progress_interval; /* seconds between plain progress lines (not a terminal) */
    uint64_t max_events;      /* stop each trace after this many events (0 = all) */
    int if_changed;           /* skip a config whose result is current (freshness.h) */
    int no_resume;            /* ignore the parts of an interrupted run (parts.h) */
    int shard, nshards;       /* run only shard `shard` of `nshards` (nshards 0: all, write results) */
    int argc;                 /* the command line, for the sidecar */
    char **argv;
};

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
