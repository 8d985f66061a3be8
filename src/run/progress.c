/* progress.c - progress line and ETA (see progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
    const char *name;
    struct engine_job *jobs;
    size_t njobs;
    const double *work;
    double total, t0, interval, last_plain;
    int tty, printed;
    /* sampled by the reporting thread (then by progress_stop, after it ended) */
    double *seen_t;        /* when each job was first seen running (0: not yet) */
    double *seen_events;   /* its events_done then */
    int max_running;       /* most jobs seen running at once */
    struct progress_job *snap;
    _Atomic int stop;
    pthread_t th;
};

/* ---- the estimator ------------------------------------------------------ */

struct queued {
    double work;
    size_t index;
};

static int cmp_queued(const void *a, const void *b)
{
    const struct queued *x = a, *y = b;
    if (x->work != y->work)
        return x->work > y->work ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

double progress_eta(const struct progress_job *jobs, size_t n, int slots)
{
    double timed = 0, timed_s = 0, known_events = 0, known_work = 0;
    size_t running = 0, nqueued = 0;
    for (size_t i = 0; i < n; i++) {
        const struct progress_job *j = &jobs[i];
        if (j->state == PJ_QUEUED)
            nqueued++;
        if (j->state != PJ_RUNNING && j->state != PJ_DONE)
            continue;
        running += j->state == PJ_RUNNING;
        if (j->seconds > 0 && j->events_timed > 0) {
            timed += j->events_timed;
            timed_s += j->seconds;
        }
        if (j->total_known && j->work > 0) {
            known_events += j->events_total;
            known_work += j->work;
        }
    }
    if (running == 0 && nqueued == 0)
        return 0;
    double rate = timed_s > 0 ? timed / timed_s : 0; /* events per second of one job */
    if (nqueued && (rate <= 0 || known_work <= 0))
        return -1;
    if ((size_t)slots < running)
        slots = (int)running;
    if (slots < 1)
        slots = 1;
    double *free_at = calloc((size_t)slots, sizeof *free_at);
    struct queued *q = calloc(nqueued ? nqueued : 1, sizeof *q);
    double eta = -1;
    if (!free_at || !q)
        goto out;
    size_t k = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct progress_job *j = &jobs[i];
        if (j->state == PJ_QUEUED) {
            q[m].work = j->work > 0 ? j->work : 0;
            q[m++].index = i;
            continue;
        }
        if (j->state != PJ_RUNNING)
            continue;
        if (!j->total_known)
            goto out;
        double left = j->events_total - j->events_done;
        double r = j->seconds >= PROGRESS_OWN_RATE_SECONDS && j->events_timed > 0 ? j->events_timed / j->seconds
                                                                                   : rate;
        if (left > 0 && r <= 0)
            goto out;
        free_at[k++] = left > 0 ? left / r : 0;
    }
    /* jobs not started: in the engine's order, each on the slot free first */
    qsort(q, nqueued, sizeof *q, cmp_queued);
    double events_per_work = known_events / (known_work > 0 ? known_work : 1);
    for (size_t i = 0; i < nqueued; i++) {
        int best = 0;
        for (int s = 1; s < slots; s++)
            if (free_at[s] < free_at[best])
                best = s;
        free_at[best] += q[i].work * events_per_work / rate;
    }
    eta = 0;
    for (int s = 0; s < slots; s++)
        if (free_at[s] > eta)
            eta = free_at[s];
out:
    free(free_at);
    free(q);
    return eta;
}

/* ---- sampling the engine's counters -------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fmt_time(char *buf, size_t len, double s)
{
    if (s < 0)
        snprintf(buf, len, "?");
    else if (s < 60)
        snprintf(buf, len, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, len, "%ldm%02lds", (long)s / 60, (long)s % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", (long)s / 3600, ((long)s % 3600) / 60);
}

/* Note when jobs start (the engine's counters have no start time). */
static void sample(struct progress *p, double t)
{
    int running = 0;
    for (size_t i = 0; i < p->njobs; i++) {
        struct engine_job *j = &p->jobs[i];
        if (atomic_load(&j->state) != JOB_RUNNING || j->skip)
            continue;
        running++;
        if (p->seen_t[i] == 0) {
            p->seen_t[i] = t;
            p->seen_events[i] = (double)atomic_load(&j->events_done);
        }
    }
    if (running > p->max_running)
        p->max_running = running;
}

/* A job's state for progress_eta.  Fields the engine writes once (the
 * trace header, the wall time) are read only after the atomic that
 * publishes them: bytes_total (stored after the header) or state DONE. */
static void snapshot(struct progress *p, size_t i, double t, struct progress_job *s)
{
    struct engine_job *j = &p->jobs[i];
    int st = atomic_load(&j->state);
    memset(s, 0, sizeof *s);
    s->work = p->work[i];
    s->events_done = (double)atomic_load(&j->events_done);
    if (j->skip) {
        s->state = PJ_SKIPPED;
        return;
    }
    if (st == JOB_WAITING) {
        s->state = PJ_QUEUED;
        return;
    }
    int header = j->trace_path ? atomic_load(&j->bytes_total) > 0 || st == JOB_DONE : 1;
    if (header) {
        double events = j->mem_events ? (double)j->mem_n : j->trace_path ? (double)j->th.events : 0;
        if (j->max_events && (double)j->max_events < events)
            events = (double)j->max_events;
        s->total_known = 1;
        s->events_total = events;
    }
    if (st == JOB_DONE) {
        s->state = PJ_DONE;
        s->seconds = j->seconds;
        s->events_timed = s->events_done;
        return;
    }
    s->state = PJ_RUNNING;
    if (p->seen_t[i] > 0) {
        s->seconds = t - p->seen_t[i];
        s->events_timed = s->events_done - p->seen_events[i];
    }
}

static void line(struct progress *p, int final)
{
    double done = 0, events = 0, t = now_s();
    size_t finished = 0, running = 0;
    for (size_t i = 0; i < p->njobs; i++) {
        struct engine_job *j = &p->jobs[i];
        int st = atomic_load(&j->state);
        events += (double)atomic_load(&j->events_done);
        if (st == JOB_DONE) {
            finished++;
            done += p->work[i];
        } else if (st == JOB_RUNNING) {
            running++;
            double bt = (double)atomic_load(&j->bytes_total), bd = (double)atomic_load(&j->bytes_done);
            if (bt > 0)
                done += p->work[i] * (bd / bt);
        }
        snapshot(p, i, t, &p->snap[i]);
    }
    double el = t - p->t0;
    double share = p->total > 0 ? done / p->total : 0;
    if (!final && share > 0.999)
        share = 0.999;
    char eta[32], elapsed[32];
    fmt_time(eta, sizeof eta, progress_eta(p->snap, p->njobs, p->max_running));
    fmt_time(elapsed, sizeof elapsed, el);
    char buf[512];
    if (final)
        snprintf(buf, sizeof buf, "%s: %zu/%zu jobs done in %s, %.1fM events/s", p->name, finished, p->njobs, elapsed,
                 el > 0 ? events / el / 1e6 : 0.0);
    else
        snprintf(buf, sizeof buf, "%s: %zu/%zu jobs (%zu running) %4.1f%%  %.1fM events/s  elapsed %s  ETA %s",
                 p->name, finished, p->njobs, running, 100 * share, el > 0 ? events / el / 1e6 : 0.0, elapsed, eta);
    if (p->tty)
        fprintf(stderr, "\r\033[K%s%s", buf, final ? "\n" : "");
    else
        fprintf(stderr, "%s\n", buf);
    p->printed = 1;
}

static void *loop(void *arg)
{
    struct progress *p = arg;
    while (!atomic_load(&p->stop)) {
        struct timespec ts = { 0, 250 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        double t = now_s();
        sample(p, t);
        if (t - p->t0 < 1.0 || atomic_load(&p->stop))
            continue;
        if (p->tty) {
            line(p, 0);
        } else if (t - p->last_plain >= p->interval) {
            p->last_plain = t;
            line(p, 0);
        }
    }
    return NULL;
}

static void progress_free(struct progress *p)
{
    free(p->seen_t);
    free(p->seen_events);
    free(p->snap);
    free(p);
}

struct progress *progress_start(const char *name, struct engine_job *jobs, size_t njobs, const double *work,
                                int quiet, double interval)
{
    if (quiet)
        return NULL;
    struct progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->seen_t = calloc(njobs ? njobs : 1, sizeof *p->seen_t);
    p->seen_events = calloc(njobs ? njobs : 1, sizeof *p->seen_events);
    p->snap = calloc(njobs ? njobs : 1, sizeof *p->snap);
    if (!p->seen_t || !p->seen_events || !p->snap) {
        progress_free(p);
        return NULL;
    }
    p->name = name;
    p->jobs = jobs;
    p->njobs = njobs;
    p->work = work;
    for (size_t i = 0; i < njobs; i++)
        p->total += work[i];
    p->t0 = now_s();
    p->last_plain = p->t0;
    p->interval = interval > 0 ? interval : 10;
    p->tty = isatty(2);
    atomic_init(&p->stop, 0);
    if (pthread_create(&p->th, NULL, loop, p) != 0) {
        progress_free(p);
        return NULL;
    }
    return p;
}

void progress_stop(struct progress *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, 1);
    pthread_join(p->th, NULL);
    if (p->printed || now_s() - p->t0 >= 1.0)
        line(p, 1);
    progress_free(p);
}
