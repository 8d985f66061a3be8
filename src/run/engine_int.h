/* engine_int.h - what the parts of the engine share (engine.h says what the
 * engine does):
 *
 *   engine.c        the scheduler: worker threads take jobs, largest first,
 *                   and the lanes of each job
 *   engine_plan.c   a job's plan: its instances' plans grouped into units
 *                   (instances that share a stage) and units into lanes
 *   engine_ring.c   a job's trace, opened and checked, and the ring of
 *                   decoded batches its lanes share
 *   engine_lane.c   a lane: the graph of stages and instances built from
 *                   the plans and fed batch by batch; also the one-instance
 *                   checks and engine_solo
 *
 * Not for use outside src/run/engine*.c.
 */
#ifndef ENGINE_INT_H
#define ENGINE_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "run/engine.h"
#include "run/plan.h"

#define BATCH_DEFAULT 8192 /* decoded events per batch */
#define RING_SLOTS 4   /* batches in flight per job */

/* ---- the batch ring ---------------------------------------------------------
 * Slot s holds batch seq when slot_seq[s] == seq and it is filled.  A lane
 * asks for its batches in order; the lane that needs the next undecoded
 * batch decodes it when its slot is free (all lanes released the batch that
 * was there before).  Lanes release each batch after feeding it. */
struct ring {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct trace_reader *tr;
    struct event *buf[RING_SLOTS];
    long n[RING_SLOTS];
    uint64_t slot_seq[RING_SLOTS];
    int refs[RING_SLOTS];       /* lanes still to release the batch in the slot */
    int filled[RING_SLOTS];
    uint64_t next_seq;          /* next batch to decode */
    int decoding, eof, abort;
    int nlanes;
    uint64_t events;            /* decoded so far */
    unsigned keep;              /* the kinds written to the batches: those some node reads (EV_ALL: every one) */
    double decode_seconds;      /* spent decoding (one decoder at a time) */
    size_t mem_pos;             /* next event of job->mem_events */
};

/* ---- per job ----------------------------------------------------------------- */

struct lanedef {
    size_t *inst;
    size_t n;
    double cost;
    double seconds; /* its wall time, filled when it ran */
    double stage_seconds; /* of it in its stages' own calls */
};

struct jobpriv {
    struct plan *plans;     /* per instance */
    struct lanedef *lanes;
    int nlanes, taken, finished;
    struct ring ring;
    int ring_init;
    double t0;
};

/* Monotonic seconds. */
double eng_now(void);
/* Records the job's first error (instance inst, or SIZE_MAX for the job);
 * later ones are dropped. */
void eng_job_fail(struct engine_job *j, size_t inst, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* engine_plan.c: plan every instance, group them into units and units into
 * at most max_lanes lanes (j->priv, j->lanes).  0, or -1 (job failed). */
int eng_plan_job(struct engine_job *j, int max_lanes);

/* engine_ring.c */
/* Open the trace and check it against the job (workload, what the models
 * read).  Called under the scheduler lock. */
int eng_open_job(struct engine_job *j);
/* The batch seq, or NULL at the end (or when the job failed). */
const struct event *eng_ring_get(struct engine_job *j, struct ring *r, uint64_t seq, long *n);
void eng_ring_release(struct ring *r, uint64_t seq);
void eng_ring_abort(struct ring *r);
/* Frees j->priv: the lanes, the plans and the ring. */
void eng_job_free(struct engine_job *j);

/* engine_lane.c: build lane `lane` of the job, feed it every batch of the
 * ring and finish it. */
void eng_run_lane(struct engine_job *j, int lane);

#endif
