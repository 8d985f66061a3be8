/* progress.c - progress line and ETA (see progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

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
    _Atomic int stop;
    pthread_t th;
};

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

static void line(struct progress *p, int final)
{
    double done = 0, events = 0;
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
    }
    double el = now_s() - p->t0;
    double share = p->total > 0 ? done / p->total : 0;
    if (!final && share > 0.999)
        share = 0.999;
    char eta[32], elapsed[32];
    fmt_time(eta, sizeof eta, share > 0.005 ? el * (1 - share) / share : -1);
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

struct progress *progress_start(const char *name, struct engine_job *jobs, size_t njobs, const double *work,
                                int quiet, double interval)
{
    if (quiet)
        return NULL;
    struct progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
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
        free(p);
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
    free(p);
}
