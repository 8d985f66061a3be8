/* bench.c - `make bench`: decode throughput and every registered model's
 * throughput on one generated trace of BENCH_EVENTS events (default 100M).
 *
 * The trace is synthetic on purpose (a benchmark, not a figure): a loop nest
 * whose loads draw values from a skewed distribution, with conditional
 * branches, calls and returns, so every model has work.  It is generated once
 * into build/bench/synthetic.trace.  For each model: events/s through
 * decode + feed, and the ratio to decode alone (1.0 = free).
 * Environment: BENCH_EVENTS (events), BENCH_MODELS (comma list, default all). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model.h"
#include "trace.h"

#define BATCH 8192

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int generate(const char *path, uint64_t target)
{
    struct trace_meta meta;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.workload, sizeof meta.workload, "synthetic");
    snprintf(meta.producer, sizeof meta.producer, "bench generator");
    meta.flags = TRF_HAS_VALUES | TRF_HAS_BRANCHES;
    char err[512];
    struct trace_writer *w = trace_writer_open(path, &meta, 1, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    static struct event buf[BATCH + 64];
    size_t n = 0;
    uint64_t total = 0;
    uint64_t base = 0x401000;
    while (total < target) {
        /* one basic block: 6 instructions, 2 loads, 1 store, a conditional branch */
        uint64_t blk = base + (rng() % 512) * 64;
        uint64_t pc = blk;
        for (int i = 0; i < 6; i++) {
            buf[n++] = (struct event){ .kind = EV_INSN, .pc = pc, .size = 4 };
            if (i == 1 || i == 3) {
                uint64_t r = rng();
                uint64_t v = (r & 0xff) < 200 ? (r >> 8) % 16 : (r >> 8) % 100000; /* skewed values */
                buf[n++] = (struct event){ .kind = EV_LOAD, .pc = pc, .addr = 0x7ff000000 + ((r >> 20) % 65536) * 8,
                                           .value = v, .size = 8 };
            }
            if (i == 4)
                buf[n++] = (struct event){ .kind = EV_STORE, .pc = pc, .addr = 0x600000 + (rng() % 4096) * 8, .size = 8 };
            pc += 4;
        }
        uint64_t r = rng();
        if ((r & 63) == 0) {
            buf[n++] = (struct event){ .kind = EV_CALL, .pc = pc - 4, .addr = base + 0x10000 };
            buf[n++] = (struct event){ .kind = EV_RET, .pc = base + 0x10000, .addr = pc };
        } else {
            buf[n++] = (struct event){ .kind = EV_BRANCH, .pc = pc - 4, .addr = blk, .value = pc, .taken = (r & 7) != 0 };
        }
        if (n >= BATCH) {
            if (trace_writer_add(w, buf, n) < 0) {
                fprintf(stderr, "%s\n", trace_writer_error(w));
                trace_writer_abort(w);
                return -1;
            }
            total += n;
            n = 0;
        }
    }
    if (trace_writer_add(w, buf, n) < 0 || trace_writer_close(w, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

/* Decode the whole trace, feeding the model if given.  Returns seconds. */
static double pass(const char *path, const struct model_ops *ops, void *m, uint64_t *events)
{
    char err[1024];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    static struct event buf[BATCH];
    uint64_t total = 0, sink = 0;
    double t0 = now_s();
    long n;
    while ((n = trace_reader_read(r, buf, BATCH)) > 0) {
        if (ops)
            ops->feed(m, buf, (size_t)n);
        else
            sink += buf[n - 1].pc;
        total += (uint64_t)n;
    }
    if (n < 0) {
        fprintf(stderr, "%s\n", trace_reader_error(r));
        exit(1);
    }
    if (ops)
        ops->finish(m);
    double t = now_s() - t0;
    trace_reader_close(r);
    *events = total + (sink & 0); /* keep sink alive */
    return t;
}

int main(void)
{
    const char *path = "build/bench/synthetic.trace";
    uint64_t target = getenv("BENCH_EVENTS") ? strtoull(getenv("BENCH_EVENTS"), NULL, 10) : 100000000ull;
    const char *only = getenv("BENCH_MODELS");
    struct stat st;
    char err[1024];
    struct trace_reader *chk = stat(path, &st) == 0 ? trace_reader_open(path, err, sizeof err) : NULL;
    if (!chk || trace_reader_header(chk)->events < target) {
        trace_reader_close(chk);
        fprintf(stderr, "bench: generating %llu-event synthetic trace in %s ...\n", (unsigned long long)target, path);
        if (generate(path, target) < 0)
            return 1;
    } else {
        trace_reader_close(chk);
    }
    stat(path, &st);
    uint64_t ev;
    pass(path, NULL, NULL, &ev); /* warm the page cache */
    double td = pass(path, NULL, NULL, &ev);
    printf("hwprof bench: %llu events, %.1f MB on disk (%.2f bytes/event)\n", (unsigned long long)ev,
           st.st_size / 1e6, (double)st.st_size / (double)ev);
    printf("%-14s %12s %10s %14s\n", "what", "Mevents/s", "seconds", "ratio-to-decode");
    printf("%-14s %12.1f %10.2f %14.2f   (%.0f MB/s compressed input)\n", "decode", ev / td / 1e6, td, 1.0,
           st.st_size / td / 1e6);
    for (const struct model_ops *const *op = model_all(); *op; op++) {
        const struct model_ops *ops = *op;
        if (only && !strstr(only, ops->name))
            continue;
        struct param_values pv;
        params_defaults(&pv, ops->params);
        void *m = ops->create(&pv, NULL, err, sizeof err);
        if (!m) {
            printf("%-14s (skipped: %s)\n", ops->name, err);
            continue;
        }
        double t = pass(path, ops, m, &ev);
        ops->free(m);
        printf("%-14s %12.1f %10.2f %14.2f\n", ops->name, ev / t / 1e6, t, td / t);
    }
    return 0;
}
