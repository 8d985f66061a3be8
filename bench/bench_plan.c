/* bench_plan.c - `make bench`: every shipped config's instances on one
 * trace window through the shared plan (issue 24's figure).
 *
 * Every config of configs/<paper>/<stem>.json that reads traces is loaded,
 * and the instances of all its runs and sweep points go into one
 * deduplicated set (src/run/instset.h, what `hwprof run` builds per window
 * when it plans several configs together): one engine job decodes the
 * window once, builds every shared stage once and computes every distinct
 * (model, parameters) instance once.  A config's workload list is ignored:
 * this is what one window costs when every config reads it.
 *
 * Printed: the instances asked for and computed, seconds and events/s for
 * decoding alone and for the shared plan, where the plan's time went
 * (decode, shared stages, instances), and the peak resident memory.
 * Environment: BENCH_TRACE (default traces/default/cc1.w0.trace),
 * BENCH_PLAN_THREADS (default 1), BENCH_PLAN_SEPARATE=1 also runs each
 * config's instances as its own job, one config after the other (the cost
 * before issue 24's plan), BENCH_EVENTS (stop each pass after this many
 * events; default the whole window), BENCH_PLAN_CONFIGS (only the configs
 * whose path contains this text, e.g. "hps/"). */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "core/diag.h"
#include "run/config.h"
#include "run/engine.h"
#include "run/instset.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One engine job of n instances over the trace: seconds (exits on error). */
static double pass(const char *path, struct engine_inst *inst, size_t n, int threads, uint64_t max_events,
                   struct engine_job *out)
{
    struct engine_job j;
    memset(&j, 0, sizeof j);
    j.trace_path = path;
    j.inst = inst;
    j.ninst = n;
    j.max_events = max_events;
    struct engine_options o = { threads, threads, FILTER_AUTO, NULL, NULL };
    double t0 = now_s();
    if (engine_run(&j, 1, &o) != 0) {
        fprintf(stderr, "bench_plan: %s\n", j.err);
        exit(1);
    }
    double t = now_s() - t0;
    if (out)
        *out = j;
    return t;
}

int main(void)
{
    const char *path = getenv("BENCH_TRACE") ? getenv("BENCH_TRACE") : "traces/default/cc1.w0.trace";
    struct stat st;
    if (stat(path, &st) != 0) {
        printf("hwprof bench plan: %s not found (make traces): skipped\n", path);
        return 0;
    }
    int threads = getenv("BENCH_PLAN_THREADS") ? atoi(getenv("BENCH_PLAN_THREADS")) : 1;
    if (threads < 1)
        threads = 1;
    uint64_t max_events = getenv("BENCH_EVENTS") ? strtoull(getenv("BENCH_EVENTS"), NULL, 10) : 0;
    int separate = getenv("BENCH_PLAN_SEPARATE") && atoi(getenv("BENCH_PLAN_SEPARATE")) != 0;
    const char *only = getenv("BENCH_PLAN_CONFIGS");
    glob_t g;
    if (glob("configs/*/*.json", 0, NULL, &g) != 0) {
        fprintf(stderr, "bench_plan: no configs/*/*.json (run from the repository's top)\n");
        return 1;
    }
    struct config **cs = calloc(g.gl_pathc, sizeof *cs);
    struct instset *all = instset_create();
    if (!cs || !all) {
        fprintf(stderr, "bench_plan: out of memory\n");
        return 1;
    }
    size_t nconf = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct diag d;
        diag_init(&d, NULL);
        struct config *c = config_load(g.gl_pathv[i], "experiments", &d);
        if (!c) {
            diag_print(&d, stderr, NULL);
            diag_free(&d);
            return 1;
        }
        diag_free(&d);
        if (!c->nworkloads || (only && !strstr(g.gl_pathv[i], only))) { /* analytic: no trace */
            config_free(c);
            continue;
        }
        cs[nconf++] = c;
        for (size_t r = 0; r < c->nruns; r++)
            for (size_t p = 0; p < c->runs[r].npoints; p++) {
                struct param_values pv;
                config_point(&c->runs[r], p, &pv);
                if (instset_add(all, c->runs[r].model, &pv, c->runs[r].wanted_tables) == SIZE_MAX) {
                    fprintf(stderr, "bench_plan: out of memory\n");
                    return 1;
                }
            }
    }
    struct engine_inst *insts = instset_insts(all);
    if (!insts) {
        fprintf(stderr, "bench_plan: out of memory\n");
        return 1;
    }
    pass(path, NULL, 0, 1, max_events, NULL); /* warm the page cache */
    struct engine_job dj;
    double td = pass(path, NULL, 0, 1, max_events, &dj);
    uint64_t ev = atomic_load(&dj.events_done);
    struct engine_job pj;
    double tp = pass(path, insts, instset_count(all), threads, max_events, &pj);
    double inst_s = 0;
    for (size_t i = 0; i < instset_count(all); i++)
        inst_s += insts[i].seconds;
    double other = pj.lane_seconds - pj.decode_seconds - pj.stage_seconds - inst_s;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long rss_plan = ru.ru_maxrss;
    printf("hwprof bench plan: %s: %llu events, %.1f MB on disk; %zu configs that read traces, %zu instances asked "
           "for, %zu distinct; %d thread%s\n",
           path, (unsigned long long)ev, st.st_size / 1e6, nconf, instset_asked(all), instset_count(all), threads,
           threads == 1 ? "" : "s");
    printf("%-28s %10s %9s %16s\n", "what", "Mevents/s", "seconds", "ratio-to-decode");
    printf("%-28s %10.1f %9.2f %16.2f\n", "decode", (double)ev / td / 1e6, td, 1.0);
    printf("%-28s %10.2f %9.2f %16.4f\n", "all configs, shared plan", (double)ev / tp / 1e6, tp, td / tp);
    printf("  of which: decode %.2f s, stages %.2f s, instances %.2f s, other (filtering) %.2f s; peak RSS %.0f MB\n",
           pj.decode_seconds, pj.stage_seconds, inst_s, other > 0 ? other : 0, (double)rss_plan / 1024);
    if (separate) {
        double ts = 0;
        for (size_t i = 0; i < nconf; i++) {
            const struct config *c = cs[i];
            size_t n = 0;
            for (size_t r = 0; r < c->nruns; r++)
                n += c->runs[r].npoints;
            struct engine_inst *own = calloc(n, sizeof *own);
            size_t k = 0;
            for (size_t r = 0; own && r < c->nruns; r++)
                for (size_t p = 0; p < c->runs[r].npoints; p++, k++) {
                    own[k].m = c->runs[r].model;
                    config_point(&c->runs[r], p, &own[k].pv);
                    own[k].wanted_tables = c->runs[r].wanted_tables;
                    own[k].out = model_out_create(own[k].m, own[k].wanted_tables);
                }
            if (!own) {
                fprintf(stderr, "bench_plan: out of memory\n");
                return 1;
            }
            ts += pass(path, own, n, threads, max_events, NULL);
            for (size_t q = 0; q < n; q++)
                model_out_free(own[q].out);
            free(own);
        }
        printf("%-28s %10.2f %9.2f %16.4f   (%.2fx the shared plan's time)\n", "every config separately",
               (double)ev / ts / 1e6, ts, td / ts, ts / tp);
    }
    instset_free(all);
    for (size_t i = 0; i < nconf; i++)
        config_free(cs[i]);
    free(cs);
    globfree(&g);
    return 0;
}
