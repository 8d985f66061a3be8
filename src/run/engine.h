/* engine.h - runs model instances over trace windows: the middle of the
 * pipeline, below the config and above the models.
 *
 * A job is one trace window and the instances that read it.  The engine
 *   1. builds each instance's plan (plan.h) and merges them into one graph
 *      per lane, deduplicating equal stages, so a stage is computed once
 *      for all the instances of its lane;
 *   2. splits a job's instances into lanes (at most one per thread) so that
 *      a one-workload sweep uses every core: instances that share a stage
 *      stay in one lane unless one group dominates the job's cost, in which
 *      case the group is split and its stage computed once per lane;
 *   3. decodes the trace once per job into a small ring of batches that
 *      every lane of the job reads (the lane that needs the next batch
 *      decodes it, so no thread only waits);
 *   4. feeds each batch through the lane's graph: decoded events filtered
 *      per distinct kind mask, stages in plan order, instances in order;
 *      then finishes stages and instances, and collects each instance's
 *      metrics and tables (outbuf.h) for the writers.
 * Threads take lanes in job order, a job's lanes before the next job's, so
 * the lanes of a job run together (which the shared ring needs: at most
 * `threads` lanes per job).  Jobs start in decreasing order of their
 * estimated work (so the longest do not end the run alone), and are split
 * into lanes only when there are fewer than two jobs per thread: with more,
 * one job per thread keeps every core busy without computing a shared stage
 * twice.  Results do not depend on the thread count, the order or the lane
 * split: every instance sees the same records and marks.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/model.h"
#include "run/outbuf.h"
#include "trace/trace.h"

struct engine_inst {
    const struct model_desc *m;
    struct param_values pv;
    const bool *wanted_tables;  /* per model table, or NULL: none */
    struct model_out *out;      /* filled by the engine; the caller frees it */
    double cost;                /* filled: relative cost used for balancing */
    double seconds;             /* filled: time in the instance's own calls (create, feed,
                                 * mark, finish, report, free), not in the stages it reads */
    double stage_seconds;       /* filled: its share of the stages it reads (each stage's
                                 * time split equally among the instances downstream of it) */
};

enum job_state { JOB_WAITING = 0, JOB_RUNNING = 1, JOB_DONE = 2 };

struct engine_job {
    /* input */
    const char *trace_path;      /* NULL: analytic (no trace), unless mem_events */
    const struct event *mem_events; /* instead of a trace file (tests, tools): n events, */
    size_t mem_n;                /* header flags TRF_HAS_VALUES | TRF_HAS_BRANCHES assumed */
    const char *expect_workload; /* the trace header must name it (NULL: no check) */
    struct engine_inst *inst;
    size_t ninst;
    uint64_t max_events;         /* 0: the whole window */
    size_t batch;                /* events per decoded batch; 0: the default (8192) */
    double work;                 /* estimated work (any unit): larger jobs start first */
    int skip;                    /* done already (results loaded): not run */
    /* output */
    struct trace_header th;      /* valid when a trace was opened */
    int failed;
    char err[2048];
    size_t err_inst;             /* instance the error is about, or SIZE_MAX */
    int lanes;                   /* lanes used */
    int filter;                  /* enum engine_filter, copied from the options */
    unsigned kinds_kept;         /* the kinds (EV_BIT()s) the decoder wrote into the batches: those the
                                  * job's nodes read (EV_ALL with FILTER_NEVER, a limit on the events,
                                  * or events from memory) */
    double seconds;              /* wall time of the job */
    /* Where the job's time went (sums over its lanes, which run at once
     * when there are several): lane_seconds the lanes' wall time in all;
     * of it decode_seconds decoding the trace and stage_seconds in the
     * stages' own calls (the instances' stage_seconds add up to it).  The
     * rest less the instances' own seconds is filtering and waiting. */
    double lane_seconds, decode_seconds, stage_seconds;
    /* progress, read by other threads */
    _Atomic uint64_t bytes_done, bytes_total, events_done;
    _Atomic int state;
    /* engine private */
    void *priv;
};

/* The decoder writes into a job's batches only the kinds some node of the
 * job reads (kinds_kept; every record is still read and checked, trace.h).  From
 * those batches the events reach a node that reads some kinds only as a
 * filtered copy, or (when most events are of those kinds anyway) as the
 * whole batch: readers ignore kinds they do not use, so all give the same
 * results.  FILTER_NEVER: every kind in the batches, no copies. */
enum engine_filter { FILTER_AUTO = 0, FILTER_ALWAYS = 1, FILTER_NEVER = 2 };

struct engine_options {
    int threads;         /* >= 1 */
    int max_lanes;       /* 0: threads; 1 disables splitting jobs */
    int filter;          /* enum engine_filter (tests force both ways) */
    /* Optional: called once per job that ran to the end without error, by
     * the thread that finished it, outside any engine lock (the callback
     * must be thread-safe across jobs). */
    void (*job_done)(struct engine_job *j, void *ctx);
    void *ctx;
};

/* Run every job; returns the number of failed jobs (their err is set). */
size_t engine_run(struct engine_job *jobs, size_t njobs, const struct engine_options *o);

/* Build one instance with all its stages and free it again: the model's
 * own checks of a parameter combination (config validation).  Returns 0,
 * or -1 with err filled. */
int engine_check_instance(const struct model_desc *m, const struct param_values *pv, char *err, size_t errlen);

/* Online CPUs (at least 1). */
int engine_default_threads(void);

#endif

/* ---- one instance, fed step by step (unit tests, tools) -------------------
 * The same plan, stages and feed path as a job, without threads or a
 * trace: feed() pushes events through the instance's stages exactly as a
 * job's batches are. */
struct engine_solo;
/* NULL with err filled when the plan, a stage or the model cannot be built. */
struct engine_solo *engine_solo_create(const struct model_desc *m, const struct param_values *pv, char *err,
                                       size_t errlen);
void *engine_solo_model(struct engine_solo *s);   /* the model instance, for inspection */
void engine_solo_feed(struct engine_solo *s, const struct event *ev, size_t n);
/* Stages' and the model's finish (once; later calls do nothing). */
void engine_solo_finish(struct engine_solo *s);
/* report() into the solo's output (may be called before finish). */
struct model_out *engine_solo_report(struct engine_solo *s);
void engine_solo_free(struct engine_solo *s); /* accepts NULL */
