/* engine_ring.c - a job's trace (engine_int.h): opened and checked against
 * the job, and decoded into the ring of batches its lanes share (struct
 * ring says how). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/engine_int.h"

static void ring_free(struct ring *r)
{
    for (int s = 0; s < RING_SLOTS; s++)
        free(r->buf[s]);
    trace_reader_close(r->tr);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
}

void eng_job_free(struct engine_job *j)
{
    struct jobpriv *p = j->priv;
    if (!p)
        return;
    for (int l = 0; l < p->nlanes; l++)
        free(p->lanes[l].inst);
    free(p->lanes);
    free(p->plans);
    if (p->ring_init)
        ring_free(&p->ring);
    free(p);
    j->priv = NULL;
}

int eng_open_job(struct engine_job *j)
{
    struct jobpriv *p = j->priv;
    if (!j->trace_path && !j->mem_events)
        return 0;
    struct ring *r = &p->ring;
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    p->ring_init = 1;
    r->nlanes = p->nlanes;
    r->keep = EV_ALL;
    j->kinds_kept = EV_ALL;
    if (!j->batch)
        j->batch = BATCH_DEFAULT;
    for (int s = 0; s < RING_SLOTS; s++) {
        r->buf[s] = malloc(j->batch * sizeof *r->buf[s]);
        if (!r->buf[s]) {
            eng_job_fail(j, SIZE_MAX, "out of memory");
            return -1;
        }
        r->slot_seq[s] = UINT64_MAX;
    }
    if (j->mem_events) {
        memset(&j->th, 0, sizeof j->th);
        j->th.meta.flags = TRF_HAS_VALUES | TRF_HAS_BRANCHES | TRF_COMPLETE;
        j->th.events = j->mem_n;
        snprintf(j->th.meta.workload, sizeof j->th.meta.workload, "%s", j->expect_workload ? j->expect_workload : "memory");
        return 0;
    }
    char err[1024];
    r->tr = trace_reader_open(j->trace_path, err, sizeof err);
    if (!r->tr) {
        eng_job_fail(j, SIZE_MAX, "%s", err);
        return -1;
    }
    j->th = *trace_reader_header(r->tr);
    /* The decoder writes only the kinds that some node of the job reads
     * (every kind is still decoded and checked): a job of load models
     * copies a sixth of the events instead of all of them and filtering
     * them again.  Not with a limit on the events (it counts decoded ones)
     * or when the options want whole batches. */
    unsigned kinds = 0;
    for (size_t i = 0; i < j->ninst; i++)
        for (size_t k = 0; k < p->plans[i].n; k++)
            if (p->plans[i].node[k].kind == PN_EVENTS)
                kinds |= p->plans[i].node[k].mask & EV_ALL;
    r->keep = j->filter == FILTER_NEVER || j->max_events || !kinds ? EV_ALL : kinds;
    j->kinds_kept = r->keep;
    atomic_store(&j->bytes_total, trace_reader_size(r->tr));
    if (j->expect_workload && strcmp(j->th.meta.workload, j->expect_workload) != 0) {
        eng_job_fail(j, SIZE_MAX, "%s: the trace is of workload '%s' (its header), not '%s'", j->trace_path,
                 j->th.meta.workload, j->expect_workload);
        return -1;
    }
    for (size_t i = 0; i < j->ninst; i++) {
        const struct engine_inst *in = &j->inst[i];
        unsigned missing = in->m->trace_needs ? in->m->trace_needs(&in->pv) & ~j->th.meta.flags : 0;
        if (missing) {
            eng_job_fail(j, i, "%s: model '%s' needs %s, which this trace of '%s' (producer '%s') does not hold",
                     j->trace_path, in->m->name, missing & TRF_HAS_VALUES ? "loaded values" : "control-flow events",
                     j->th.meta.workload, j->th.meta.producer);
            return -1;
        }
    }
    return 0;
}

const struct event *eng_ring_get(struct engine_job *j, struct ring *r, uint64_t seq, long *n)
{
    int s = (int)(seq % RING_SLOTS);
    pthread_mutex_lock(&r->mu);
    for (;;) {
        if (r->abort) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        if (r->slot_seq[s] == seq && r->filled[s]) {
            *n = r->n[s];
            pthread_mutex_unlock(&r->mu);
            return r->buf[s];
        }
        if (r->eof && seq >= r->next_seq) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        if (!r->decoding && r->next_seq == seq && r->refs[s] == 0) {
            /* decode batch seq into slot s, outside the lock */
            r->decoding = 1;
            r->slot_seq[s] = seq;
            r->filled[s] = 0;
            pthread_mutex_unlock(&r->mu);
            size_t want = j->batch;
            uint64_t done = r->events;
            if (j->max_events && j->max_events - done < want)
                want = (size_t)(j->max_events - done);
            long got;
            double t0 = eng_now();
            if (j->mem_events) {
                size_t left = j->mem_n - r->mem_pos;
                got = (long)(left < want ? left : want);
                memcpy(r->buf[s], j->mem_events + r->mem_pos, (size_t)got * sizeof *r->buf[s]);
                r->mem_pos += (size_t)got;
            } else {
                got = !want               ? 0
                      : r->keep == EV_ALL ? trace_reader_read(r->tr, r->buf[s], want)
                                          : trace_reader_read_kinds(r->tr, r->buf[s], want, r->keep);
            }
            if (got < 0)
                eng_job_fail(j, SIZE_MAX, "%s", trace_reader_error(r->tr));
            double dt = eng_now() - t0;
            pthread_mutex_lock(&r->mu);
            r->decoding = 0;
            r->decode_seconds += dt;
            if (got < 0) {
                r->abort = 1;
            } else if (got == 0) {
                r->eof = 1;
                r->slot_seq[s] = UINT64_MAX;
            } else {
                r->n[s] = got;
                r->filled[s] = 1;
                r->refs[s] = r->nlanes;
                r->next_seq++;
                r->events = r->tr ? trace_reader_events_read(r->tr) : r->events + (uint64_t)got;
                atomic_store(&j->events_done, r->events);
                if (r->tr)
                    atomic_store(&j->bytes_done, trace_reader_offset(r->tr));
            }
            pthread_cond_broadcast(&r->cv);
            continue;
        }
        pthread_cond_wait(&r->cv, &r->mu);
    }
}

void eng_ring_release(struct ring *r, uint64_t seq)
{
    int s = (int)(seq % RING_SLOTS);
    pthread_mutex_lock(&r->mu);
    if (--r->refs[s] == 0)
        pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

void eng_ring_abort(struct ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->abort = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}
