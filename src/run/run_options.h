/* run_options.h - how `hwprof run` and `hwprof merge` were asked to run a
 * config: filled by the command line (cmd_run.c), read by the runner
 * (run.h), by the freshness check (freshness.h) and by the run record of
 * the sidecar (sidecar.h), none of which needs the others for it. */
#ifndef RUN_OPTIONS_H
#define RUN_OPTIONS_H

#include <stdint.h>

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

#endif
