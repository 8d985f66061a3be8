/* run_int.h - what the two runners share (run.h says what they do):
 *
 *   run.c        one config: its jobs (one per trace window) and instances,
 *                the checks before the first job, resuming from parts,
 *                the engine, the result files; `hwprof merge`, --dry-run
 *   run_plan.c   several configs in one plan: every config's jobs and
 *                instances as run.c builds them, but one engine job per
 *                trace window holding the deduplicated union of the
 *                configs' instances (instset.h)
 *
 * Not for use outside src/run/run*.c.
 */
#ifndef RUN_INT_H
#define RUN_INT_H

#include <jansson.h>
#include <stddef.h>

#include "run/config.h"
#include "run/engine.h"
#include "run/parts.h"
#include "run/results.h"
#include "run/run_options.h"
#include "trace/windows.h"

/* One job per (workload, window), workload-major. */
struct job_info {
    size_t workload;   /* SIZE_MAX: analytic */
    int slot;          /* its entry in the workload's window list */
    int window;        /* index K of <workload>.wK.trace (0 for a single trace) */
    int nwindows;      /* windows of this workload */
    int single;        /* <workload>.trace, no window number */
    int unusable;      /* its trace failed check_traces: 1, or 2 when it does not exist */
    char *problem;     /* what check_traces found (malloc'd) */
    char path[1200];
    char sha256[65];   /* of the trace, from the inputs ("" unknown) */
    double weight;     /* SimPoint weight (trace metadata, or the part) */
};

/* A config's jobs, instances and result rows. */
struct plan_all {
    struct engine_job *jobs;
    struct job_info *info;
    size_t njobs;
    struct window_list *wl;     /* per workload (windows.h) */
    size_t nwl;
    struct engine_inst *inst;   /* njobs x per_job */
    size_t per_job;
    struct result_row *rows;
    double *work;
};

/* Every job of c with its instances (each with its own output) and rows:
 * 0, or -1 with a message printed. */
int run_build_all(const struct config *c, const struct run_options *o, struct plan_all *a);
/* Frees the outputs of the instances too (set an instance's `out` to NULL
 * to keep it). */
void run_free_all(struct plan_all *a);
/* The start of a run or a merge: with --if-changed, a current result is
 * said (unless quiet, with `note` after it) and 1 returned: nothing to do.
 * Else run_build_all and the jobs' trace SHA-256s from inputs: 0, or -1
 * (printed). */
int run_prepare(const struct config *c, const struct run_options *o, const json_t *inputs, const char *note,
                struct plan_all *a);
/* Jobs of shard `shard` of `n`: [first, last). */
void run_shard_range(size_t njobs, int shard, int n, size_t *first, size_t *last);
/* Before any job runs: every trace of jobs [first, last) is there and
 * agrees with its window list; marks the jobs whose trace is unusable and
 * returns their count (the messages: run_report_traces). */
size_t run_check_traces(struct plan_all *a, size_t first, size_t last);
void run_report_traces(const struct run_options *o, const struct plan_all *a);
/* Files can be created where the results and the parts go: 0, or 1 with
 * one message ending in "(what)". */
int run_check_outputs(const struct config *c, const struct run_options *o, const char *what);
/* Jobs [first, last) whose part (parts.h, in dir) is usable are loaded and
 * marked skip; the others get empty outputs again.  Jobs outside the range
 * are marked skip.  The number resumed, said unless quiet; SIZE_MAX when
 * out of memory (printed). */
size_t run_resume(const struct config *c, const struct run_options *o, struct plan_all *a, const json_t *inputs,
                  const char *dir, size_t first, size_t last);
/* The part identity of job j. */
void run_part_id(const struct config *c, const struct plan_all *a, size_t j, struct part_id *id);
/* The SimPoint weight of a finished job's window (trace metadata; 1). */
double run_window_weight(const struct engine_job *j);
/* Warnings about traces of c from different program or tool versions. */
void run_warn_mixed_versions(const struct config *c, const struct plan_all *a, const struct run_options *o);
/* Every result file of c from its jobs' outputs, through temporaries
 * renamed into place, the main CSV last.  t0: when the run started (the
 * run record's wall time); plan_configs: how many configs the run planned
 * together (1: alone).  0, or 1 (printed). */
int run_write_outputs(const struct config *c, const struct run_options *o, struct plan_all *a, json_t *inputs,
                      double t0, int plan_configs);
/* Monotonic seconds. */
double run_now(void);

#endif
