/* progress.h - progress of a run on stderr: jobs done, share of the work,
 * events per second and an ETA over all jobs of the run.  On a terminal one
 * line is redrawn four times a second; otherwise (batch logs) a plain line
 * is printed every `interval` seconds.  Nothing is printed for runs shorter
 * than a second.
 *
 * The ETA comes from measured rates, not from the estimated work alone
 * (progress_eta): a running job's events still to read (its trace header's
 * count, known once it started) at its own measured rate; jobs not started
 * yet at the rate of the jobs that ran, with their event counts scaled from
 * the estimated work by the events per unit of work of the started jobs;
 * all of it laid out over as many jobs at a time as have been seen running
 * together.  Before any job has read events there is no basis: "ETA ?". */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>

#include "run/engine.h"

struct progress;

/* work[i]: estimated work of jobs[i] (any unit).  Returns NULL when quiet
 * (all functions accept NULL). */
struct progress *progress_start(const char *name, struct engine_job *jobs, size_t njobs, const double *work,
                                int quiet, double interval);
/* Stop the reporting thread and print the final line. */
void progress_stop(struct progress *p);

/* ---- the estimator (pure: unit-tested with made-up job states) ----------- */

enum progress_state { PJ_QUEUED, PJ_RUNNING, PJ_DONE, PJ_SKIPPED /* not run: results loaded */ };

struct progress_job {
    enum progress_state state;
    double work;          /* estimated work (only its ratio between jobs matters) */
    int total_known;      /* events_total is known (the job's trace header was read) */
    double events_total;  /* events the job reads (header count, at most --max-events) */
    double events_done;
    double seconds;       /* running: seconds over which events_timed were read; done: its wall time */
    double events_timed;  /* events read during `seconds` */
};

/* A running job's own rate is trusted once it was timed for this long;
 * before, the pooled rate of every timed job stands in. */
#define PROGRESS_OWN_RATE_SECONDS 1.0

/* Seconds until every job is done, or -1 when there is no basis yet (no
 * events timed, or a running job whose event count is unknown).  slots:
 * how many jobs run at a time (at least the running ones count).  Jobs not
 * started take a free slot in decreasing order of work, as the engine
 * starts them.  0 when nothing is left. */
double progress_eta(const struct progress_job *jobs, size_t n, int slots);

#endif
