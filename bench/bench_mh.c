/* bench_mh.c - throughput of the multihash paper models on one synthetic
 * value stream (Zipf-like hot tuples + a long tail; 1 in 3 events is an
 * instruction event the models skip).  Built with -O3 -DNDEBUG by
 * `make bench`; not part of `make test`.
 *
 * Part 1, hardware path (interval 10K, threshold 1%, tuples/s; the same
 * event array for every line):
 *   decode-only      read the events and extract the <pc, value> tuples
 *   singlehash       the paper's best single hash (R1 P1), score = false
 *   multihash        4 tables C1 R0 P1, 2048 counters, score = false
 *   cms-cu ref       a tight count-min sketch with conservative update of
 *                    the same memory (4 rows x 512 counters), flushed every
 *                    interval, with (a) the section 5.3 hash computed per row
 *                    exactly as mh_hash_index does (same hash function and
 *                    cost model as the multihash; bytes looked up one at a
 *                    time), (b) the same hash through the folded lookup
 *                    tables the engine uses (struct mh_fold4), and (c) a
 *                    cheap standard hash (multiply-shift on a 64-bit mix).
 *   ratio            multihash / each reference
 * Part 2, scored sweeps: fig10's / fig11's 16 multihash instances (1/2/4/8
 * tables x C0/C1 x R0/R1, interval 10K / 1M) fed one by one (each with its
 * own exact profile, as before sharing) and as one group (feed_group, one
 * shared exact profile), in events/s of the stream.
 * Part 3: every scored model alone, at both paper interval settings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model.h"
#include "models/mh_cms_cu.h"
#include "models/mh_common.h"
#include "models/mh_exact.h"
#include "models/mh_multihash.h"
#include "models/mh_singlehash.h"
#include "models/mh_spacesaving.h"
#include "models/mh_stratified.h"

#define NEV (6u << 20)
#define BATCH 8192
#define REPS 3   /* best of, parts 2 and 3 */
#define ROUNDS 7 /* interleaved rounds, part 1 */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void set(struct param_values *pv, const char *name, double v)
{
    size_t i;
    if (params_find(pv->spec, name, &i)) {
        pv->v[i].i = (int64_t)v;
        pv->v[i].r = v;
    }
}

static struct event *ev;
static uint64_t ntuples;

static void *make(const struct model_ops *ops, double interval, double threshold, int score)
{
    struct param_values pv;
    params_defaults(&pv, ops->params);
    set(&pv, "interval", interval);
    set(&pv, "threshold", threshold);
    if (score >= 0)
        set(&pv, "score", score);
    char err[256];
    void *m = ops->create(&pv, NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s: %s\n", ops->name, err);
        exit(1);
    }
    return m;
}

/* Best of REPS runs of one model over the stream; returns seconds. */
static double time_model_reps(const struct model_ops *ops, double interval, double threshold, int score,
                              double *metric, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        void *m = make(ops, interval, threshold, score);
        double t0 = now();
        for (size_t i = 0; i < NEV; i += BATCH)
            ops->feed(m, ev + i, NEV - i < BATCH ? NEV - i : BATCH);
        ops->finish(m);
        double t = now() - t0;
        if (t < best)
            best = t;
        double out[64];
        ops->report(m, out);
        if (metric)
            *metric = out[0];
        ops->free(m);
    }
    return best;
}

static double time_model(const struct model_ops *ops, double interval, double threshold, int score, double *metric)
{
    return time_model_reps(ops, interval, threshold, score, metric, 1);
}

/* ---- decode-only and the count-min references ------------------------------ */

static volatile uint64_t sink;

static double time_decode(void)
{
    double best = 1e30;
    for (int r = 0; r < 1; r++) {
        double t0 = now();
        struct mh_source src = { .stream = MH_STREAM_VALUES };
        uint64_t acc = 0, n = 0;
        for (size_t i = 0; i < NEV; i++) {
            uint64_t a, b;
            if (mh_tuple_of(&src, &ev[i], &a, &b)) {
                acc += a ^ b;
                n++;
            }
        }
        sink = acc;
        ntuples = n;
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

#define ROWS 4
#define WIDTH 512 /* 2048 counters over 4 rows: the multihash's memory */
#define INTERVAL 10000

enum ref_hash { REF_SEC53, REF_SEC53_FOLDED, REF_MULSHIFT };

/* A plain count-min sketch with conservative update, flushed every
 * INTERVAL tuples; reports how many tuples reached T = 100 (so the work
 * cannot be optimised away). */
static double time_cms_ref(enum ref_hash kind)
{
    static uint32_t c[ROWS][WIDTH];
    struct mh_hash h[ROWS];
    struct mh_fold4 f;
    uint64_t mul[ROWS], add[ROWS], st = 12345;
    for (unsigned k = 0; k < ROWS; k++) {
        mh_hash_init(&h[k], 1, k, WIDTH);
        mul[k] = mh_splitmix64(&st) | 1u;
        add[k] = mh_splitmix64(&st);
    }
    mh_fold4_init(&f, h, ROWS);
    double best = 1e30;
    for (int r = 0; r < 1; r++) {
        memset(c, 0, sizeof c);
        double t0 = now();
        struct mh_source src = { .stream = MH_STREAM_VALUES };
        uint64_t hot = 0;
        unsigned pos = 0;
        for (size_t i = 0; i < NEV; i++) {
            uint64_t a, b;
            if (!mh_tuple_of(&src, &ev[i], &a, &b))
                continue;
            uint32_t idx[ROWS] = { 0 };
            if (kind == REF_SEC53) {
                for (unsigned k = 0; k < ROWS; k++)
                    idx[k] = mh_hash_index(&h[k], a, b);
            } else if (kind == REF_SEC53_FOLDED) {
                mh_fold4_index(&f, a, b, idx);
            } else {
                uint64_t x = mh_mix(a, b);
                for (unsigned k = 0; k < ROWS; k++)
                    idx[k] = (uint32_t)((((mul[k] * x + add[k]) >> 32) * WIDTH) >> 32);
            }
            /* branch-free min and conservative update */
            uint32_t v[ROWS], min = UINT32_MAX;
            for (unsigned k = 0; k < ROWS; k++) {
                v[k] = c[k][idx[k]];
                min = v[k] < min ? v[k] : min;
            }
            for (unsigned k = 0; k < ROWS; k++)
                c[k][idx[k]] = v[k] + (v[k] == min);
            hot += min + 1 == 100;
            if (++pos == INTERVAL) {
                pos = 0;
                memset(c, 0, sizeof c);
            }
        }
        sink = hot;
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

/* ---- fig10 sweep: one by one vs grouped ------------------------------------ */

static double time_sweep(int grouped, double interval, double threshold)
{
    const struct model_ops *ops = &mh_multihash_ops;
    void *m[16];
    size_t n = 0;
    static const int tables[4] = { 1, 2, 4, 8 };
    double best = 1e30;
    for (int r = 0; r < 1; r++) {
        n = 0;
        for (int t = 0; t < 4; t++)
            for (int cons = 0; cons < 2; cons++)
                for (int reset = 0; reset < 2; reset++) {
                    struct param_values pv;
                    params_defaults(&pv, ops->params);
                    set(&pv, "interval", interval);
                    set(&pv, "threshold", threshold);
                    set(&pv, "tables", tables[t]);
                    set(&pv, "conservative", cons);
                    set(&pv, "reset", reset);
                    char err[256];
                    m[n++] = ops->create(&pv, NULL, err, sizeof err);
                    if (!m[n - 1]) {
                        fprintf(stderr, "%s\n", err);
                        exit(1);
                    }
                }
        double t0 = now();
        for (size_t i = 0; i < NEV; i += BATCH) {
            size_t cnt = NEV - i < BATCH ? NEV - i : BATCH;
            if (grouped)
                ops->feed_group(m, n, ev + i, cnt);
            else
                for (size_t k = 0; k < n; k++)
                    ops->feed(m[k], ev + i, cnt);
        }
        for (size_t k = 0; k < n; k++)
            ops->finish(m[k]);
        double t = now() - t0;
        if (t < best)
            best = t;
        for (size_t k = 0; k < n; k++)
            ops->free(m[k]);
    }
    return best;
}

int main(int argc, char **argv)
{
    /* `bench_mh hw`: part 1 only; `bench_mh mh`: the multihash line only;
     * `bench_mh sweep`: the grouped sweep only (for perf) */
    const char *only = argc > 1 ? argv[1] : "";
    ev = calloc(NEV, sizeof *ev);
    if (!ev)
        return 1;
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < NEV; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        /* 1 in 3 events is an instruction event the models must skip */
        if (i % 3 == 2) {
            ev[i].kind = EV_INSN;
            continue;
        }
        ev[i].kind = EV_LOAD;
        unsigned r = (unsigned)(x % 1000);
        ev[i].pc = 0x400000 + 4 * (r < 600 ? r % 50 : (x >> 20) % 5000);
        ev[i].value = r < 600 ? r % 7 : (x >> 32) % 100000;
    }
    if (strcmp(only, "each") == 0) { /* fig10's 16 configurations, one at a time, hardware only */
        time_decode();
        static const int tables[4] = { 1, 2, 4, 8 };
        for (int t = 0; t < 4; t++)
            for (int cons = 0; cons < 2; cons++)
                for (int reset = 0; reset < 2; reset++) {
                    double best = 1e30, out[64];
                    for (int r = 0; r < REPS; r++) {
                        struct param_values pv;
                        params_defaults(&pv, mh_multihash_ops.params);
                        set(&pv, "tables", tables[t]);
                        set(&pv, "conservative", cons);
                        set(&pv, "reset", reset);
                        set(&pv, "score", 0);
                        char err[256];
                        void *m = mh_multihash_ops.create(&pv, NULL, err, sizeof err);
                        double t0 = now();
                        for (size_t i = 0; i < NEV; i += BATCH)
                            mh_multihash_ops.feed(m, ev + i, NEV - i < BATCH ? NEV - i : BATCH);
                        double el = now() - t0;
                        best = el < best ? el : best;
                        mh_multihash_ops.report(m, out);
                        mh_multihash_ops.free(m);
                    }
                    printf("multihash %dT C%dR%d  %6.1f M tuples/s  promotions/interval %.1f\n", tables[t], cons, reset,
                           (double)ntuples / best / 1e6, out[MH_ERR_NMETRICS]);
                }
        return 0;
    }
    if (strcmp(only, "sweep") == 0) {
        time_decode();
        printf("grouped sweep %.2f Mev/s\n", NEV / time_sweep(1, 10000, 0.01) / 1e6);
        return 0;
    }
    /* Part 1: the variants are interleaved round by round (best of ROUNDS
     * each), so drifting machine load hits them alike. */
    double td = 1e30, tsh = 1e30, tmh = 1e30, tr[3] = { 1e30, 1e30, 1e30 };
    int mh_only = strcmp(only, "mh") == 0;
    for (int round = 0; round < ROUNDS; round++) {
        double t;
        if ((t = time_decode()) < td)
            td = t;
        if ((t = time_model(&mh_multihash_ops, 10000, 0.01, 0, NULL)) < tmh)
            tmh = t;
        if (mh_only)
            continue;
        if ((t = time_model(&mh_singlehash_ops, 10000, 0.01, 0, NULL)) < tsh)
            tsh = t;
        for (int k = 0; k < 3; k++)
            if ((t = time_cms_ref((enum ref_hash)k)) < tr[k])
                tr[k] = t;
    }
    double mt = (double)ntuples / 1e6;
    if (mh_only) {
        printf("multihash 4T C1R0 (score=false) %.1f M tuples/s\n", mt / tmh);
        return 0;
    }
    printf("bench_mh hardware path: %u events, %llu tuples, interval 10K, T 1%%, best of %d interleaved rounds "
           "(M tuples/s)\n",
           NEV, (unsigned long long)ntuples, ROUNDS);
    printf("  decode-only                          %8.1f\n", mt / td);
    printf("  singlehash R1P1 (score=false)        %8.1f\n", mt / tsh);
    printf("  multihash 4T C1R0 (score=false)      %8.1f\n", mt / tmh);
    printf("  cms-cu ref, sec53 hash per row       %8.1f   multihash/ref %.2f\n", mt / tr[0], tr[0] / tmh);
    printf("  cms-cu ref, sec53 hash folded        %8.1f   multihash/ref %.2f\n", mt / tr[1], tr[1] / tmh);
    printf("  cms-cu ref, multiply-shift hash      %8.1f   multihash/ref %.2f\n", mt / tr[2], tr[2] / tmh);
    if (strcmp(only, "hw") == 0)
        return 0;
    /* Part 2: fig10 (10K) and fig11 (1M) sweeps, one by one vs grouped, interleaved */
    for (int s = 0; s < 2; s++) {
        double iv = s ? 1000000 : 10000, th = s ? 0.001 : 0.01, t1 = 1e30, tg = 1e30, t;
        for (int round = 0; round < REPS; round++) {
            if ((t = time_sweep(0, iv, th)) < t1)
                t1 = t;
            if ((t = time_sweep(1, iv, th)) < tg)
                tg = t;
        }
        printf("bench_mh %s sweep (16 scored multihash instances, interval %.0f): one by one %.2f Mev/s, "
               "grouped %.2f Mev/s (x%.2f)\n",
               s ? "fig11" : "fig10", iv, NEV / t1 / 1e6, NEV / tg / 1e6, t1 / tg);
    }

    const struct model_ops *ops[] = { &mh_exact_ops, &mh_singlehash_ops, &mh_multihash_ops, &mh_cms_cu_ops,
                                      &mh_spacesaving_ops, &mh_stratified_ops };
    const double settings[2][2] = { { 10000, 0.01 }, { 1000000, 0.001 } };
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
            double metric;
            double t = time_model_reps(ops[k], settings[s][0], settings[s][1], -1, &metric, REPS);
            printf("bench_mh %-12s interval %7.0f  %6.1f Mev/s  %s = %.3f\n", ops[k]->name, settings[s][0],
                   NEV / t / 1e6, ops[k]->metrics[0], metric);
        }
    free(ev);
    return 0;
}
