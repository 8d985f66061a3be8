/* engine.c - the engine's scheduler: worker threads, jobs largest first,
 * the lanes of a job together (see engine.h; the parts: engine_int.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/engine.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/engine_int.h"

double eng_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int engine_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

void eng_job_fail(struct engine_job *j, size_t inst, const char *fmt, ...)
{
    pthread_mutex_lock(&fail_mu);
    if (!j->failed) {
        j->failed = 1;
        j->err_inst = inst;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->err, sizeof j->err, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&fail_mu);
}

/* ---- scheduling ---------------------------------------------------------------- */

struct sched {
    pthread_mutex_t mu;
    const struct engine_options *o;
    struct engine_job *jobs;
    size_t *order;      /* job indices, largest estimated work first */
    size_t njobs, next; /* next: position in order */
    int max_lanes;
};

static void *worker(void *arg)
{
    struct sched *s = arg;
    pthread_mutex_lock(&s->mu);
    while (s->next < s->njobs) {
        struct engine_job *j = &s->jobs[s->order[s->next]];
        struct jobpriv *p = j->priv;
        if (!p) {
            atomic_store(&j->state, JOB_RUNNING);
            int bad = eng_plan_job(j, s->max_lanes) != 0;
            p = j->priv;
            if (p)
                p->t0 = eng_now();
            bad = bad || eng_open_job(j) != 0;
            if (bad || p->nlanes == 0) {
                if (p)
                    eng_job_free(j);
                j->seconds = 0;
                atomic_store(&j->state, JOB_DONE);
                s->next++;
                continue;
            }
        }
        int lane = p->taken++;
        if (p->taken == p->nlanes)
            s->next++;
        pthread_mutex_unlock(&s->mu);
        eng_run_lane(j, lane);
        pthread_mutex_lock(&s->mu);
        if (++p->finished == p->nlanes) {
            j->seconds = eng_now() - p->t0;
            j->lane_seconds = j->stage_seconds = 0;
            for (int l = 0; l < p->nlanes; l++) {
                j->lane_seconds += p->lanes[l].seconds;
                j->stage_seconds += p->lanes[l].stage_seconds;
            }
            j->decode_seconds = p->ring_init ? p->ring.decode_seconds : 0;
            eng_job_free(j);
            if (!j->failed && s->o->job_done) {
                pthread_mutex_unlock(&s->mu);
                s->o->job_done(j, s->o->ctx);
                pthread_mutex_lock(&s->mu);
            }
            atomic_store(&j->state, JOB_DONE);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static const struct engine_job *sort_jobs;
static int cmp_work(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double wx = sort_jobs[x].work, wy = sort_jobs[y].work;
    if (wx != wy)
        return wx < wy ? 1 : -1;
    return (x > y) - (x < y);
}

size_t engine_run(struct engine_job *jobs, size_t njobs, const struct engine_options *o)
{
    int nt = o->threads > 0 ? o->threads : 1;
    struct sched s = { .o = o, .jobs = jobs, .njobs = njobs, .next = 0 };
    size_t torun = 0;
    for (size_t i = 0; i < njobs; i++)
        torun += !jobs[i].skip;
    /* lanes split jobs only when jobs alone cannot keep the threads busy */
    s.max_lanes = o->max_lanes > 0 ? o->max_lanes : (torun >= 2 * (size_t)nt ? 1 : nt);
    if (s.max_lanes > nt)
        s.max_lanes = nt;
    s.order = malloc((njobs ? njobs : 1) * sizeof *s.order);
    if (!s.order) {
        for (size_t i = 0; i < njobs; i++)
            eng_job_fail(&jobs[i], SIZE_MAX, "out of memory");
        return njobs;
    }
    size_t nrun = 0;
    for (size_t i = 0; i < njobs; i++)
        if (!jobs[i].skip)
            s.order[nrun++] = i;
    s.njobs = nrun;
    static pthread_mutex_t sort_mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&sort_mu);
    sort_jobs = jobs;
    qsort(s.order, nrun, sizeof *s.order, cmp_work);
    pthread_mutex_unlock(&sort_mu);
    pthread_mutex_init(&s.mu, NULL);
    for (size_t i = 0; i < njobs; i++) {
        jobs[i].failed = 0;
        jobs[i].err[0] = '\0';
        jobs[i].err_inst = SIZE_MAX;
        jobs[i].priv = NULL;
        jobs[i].filter = o->filter;
        if (!jobs[i].skip)
            jobs[i].lane_seconds = jobs[i].decode_seconds = jobs[i].stage_seconds = 0;
        atomic_store(&jobs[i].state, jobs[i].skip ? JOB_DONE : JOB_WAITING);
    }
    pthread_t *th = calloc((size_t)nt, sizeof *th);
    int started = 0;
    if (th)
        for (; started < nt - 1; started++)
            if (pthread_create(&th[started], NULL, worker, &s) != 0)
                break; /* fewer threads: still correct */
    worker(&s); /* the calling thread works too */
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
    free(s.order);
    pthread_mutex_destroy(&s.mu);
    size_t failed = 0;
    for (size_t i = 0; i < njobs; i++)
        failed += jobs[i].failed != 0;
    return failed;
}
