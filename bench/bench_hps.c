/* bench_hps.c - throughput of the HPS pieces: the bursty sampler stage and
 * each profile type, exhaustive and sampled, plus Space-Saving.  Built with
 * -O3 -DNDEBUG by `make bench`; not part of `make test`.
 *
 *   build/bench/bench_hps                 synthetic stream (NEV events, best of REPS)
 *   build/bench/bench_hps TRACE...        also every trace given (one pass each):
 *                                         the 50M-instruction windows of traces/default
 *
 * Synthetic stream: 8M events in the mix of our real windows (about 2/3
 * instructions, 1/5 loads, 1/10 stores, 1/10 conditional branches of which a
 * third are back edges, 1 call per 50 instructions), from 64 "functions",
 * each walking its own array in a fixed order (so hot data streams exist)
 * with 1% random references in between.
 *
 * Lines (events/s are input events of the stream, all kinds, so lines compare
 * with one another and with decoding; "interest/s" counts only the events
 * the profile takes):
 *   sampler        stage "bursty" alone (emit calls, loads or all)
 *   exact <type>   the exhaustive profile (stage "hps_exact" feed, then its
 *                  finish: the grammar and analysis for streams, timed apart)
 *   sampled <type> bursty stage + sampled profile at frequency 1/100
 *   accuracy       the overlap of two call-pair profiles
 *   spacesaving k  updates/s over the calls
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "families/hps_accuracy.h"
#include "families/hps_profile.h"
#include "families/hps_sequitur.h"
#include "families/hps_ss.h"
#include "stages/hps_stages.h"
#include "trace/trace.h"

#define NEV (8u << 20)
#define BATCH 8192
#define REPS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

static struct event *make_stream(size_t n)
{
    struct event *ev = calloc(n, sizeof *ev);
    if (!ev)
        exit(1);
    size_t k = 0;
    while (k < n) {
        unsigned f = (unsigned)(rnd() % 64);
        uint64_t base = 0x400000 + 0x1000 * f, data = 0x10000000 + 0x100000 * f;
        ev[k].kind = EV_CALL;
        ev[k].pc = 0x3ff000 + 8 * (rnd() % 200);
        ev[k].addr = base;
        k++;
        unsigned iters = 1 + (unsigned)(rnd() % 8);
        for (unsigned it = 0; it < iters && k < n; it++) {
            for (unsigned i = 0; i < 10 && k < n; i++) {
                struct event *e = &ev[k++];
                /* the kind of slot i of function f is fixed: loops repeat their references */
                uint64_t r = (((uint64_t)f * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull) >> 40) % 100;
                e->pc = base + 4 * i;
                if (r < 62) {
                    e->kind = EV_INSN;
                } else if (r < 82) {
                    e->kind = EV_LOAD;
                    e->addr = rnd() % 100 ? data + 8 * i : 0x20000000 + 8 * (rnd() % 100000);
                    e->size = 8;
                } else if (r < 92) {
                    e->kind = EV_STORE;
                    e->addr = data + 0x800 + 8 * i;
                    e->size = 8;
                } else {
                    e->kind = EV_BRANCH;
                    e->taken = (rnd() & 1) != 0;
                    e->addr = base + 0x100;
                    e->value = e->pc + 2;
                }
            }
            if (k < n) {
                struct event *e = &ev[k++];
                e->kind = EV_BRANCH;
                e->pc = base + 0x80;
                e->addr = base;
                e->taken = it + 1 < iters;
                e->value = e->pc + 2;
            }
        }
    }
    return ev;
}

static void *stage_make(const struct stage_desc *d, const struct param_values *pv)
{
    char err[256] = "";
    void *st = d->create(pv, err, sizeof err);
    if (!st) {
        fprintf(stderr, "%s: %s\n", d->name, err);
        exit(1);
    }
    return st;
}

static struct param_values bursty_pv(int64_t burst, int64_t sparsity, int emit)
{
    struct param_values pv;
    params_defaults(&pv, hps_bursty_stage.params);
    pv_set_int(&pv, "burst", burst);
    pv_set_int(&pv, "sparsity", sparsity);
    pv_set_enum(&pv, "emit", emit);
    return pv;
}

static struct param_values exact_pv(int type)
{
    struct param_values pv;
    params_defaults(&pv, hps_exact_stage.params);
    pv_set_enum(&pv, "profile", type);
    return pv;
}

/* Sampled profile p (or NULL) takes the records of the bursty stage's
 * first sampler: its burst ends (cuts) and the events its bursts hold. */
static void take(struct hps_profile *p, const struct chunk *c)
{
    const struct hps_burst_rec *r = c->recs;
    for (size_t i = 0; p && i < c->n; i++) {
        if (r[i].cut & 1u)
            hps_profile_cut(p);
        if (r[i].in & 1u)
            hps_profile_feed(p, &r[i].ev, 1);
    }
}

/* Push ev through the bursty stage st (engine protocol) into p (or NULL). */
static void run_stage(const struct stage_desc *d, void *st, const struct event *ev, size_t n,
                      struct hps_profile *p)
{
    for (size_t i = 0; i < n; i += BATCH) {
        const struct event *in = ev + i;
        size_t left = n - i < BATCH ? n - i : BATCH;
        while (left) {
            struct chunk c = { NULL, 0, MARK_NONE };
            size_t k = d->feed(st, in, left, &c);
            take(p, &c);
            in += k;
            left -= k;
        }
    }
    struct chunk c = { NULL, 0, MARK_NONE };
    if (d->finish)
        d->finish(st, &c);
    take(p, &c);
}

static const char *type_name[] = { "callpair", "method", "streams" };

static double mrate(double events, double s) { return s > 0 ? events / s / 1e6 : 0; }

static long maxrss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

/* One exhaustive profile over ev: feed time, finish time, members. */
static void bench_exact(const struct event *ev, size_t n, int type, int reps, const char *label)
{
    double best_feed = 1e30, best_fin = 1e30;
    size_t members = 0;
    uint64_t interest = 0;
    struct hps_streams_stats ss;
    memset(&ss, 0, sizeof ss);
    for (int r = 0; r < reps; r++) {
        struct param_values pv = exact_pv(type);
        void *st = stage_make(&hps_exact_stage, &pv);
        double t0 = now();
        for (size_t i = 0; i < n; i += BATCH) {
            struct chunk c;
            hps_exact_stage.feed(st, ev + i, n - i < BATCH ? n - i : BATCH, &c);
        }
        double t1 = now();
        struct chunk c;
        hps_exact_stage.finish(st, &c);
        double t2 = now();
        const struct hps_exact_view *v = hps_exact_stage.shared(st);
        hps_profile_members(v->profile, &members);
        interest = hps_profile_interest(v->profile);
        if (type == HPS_STREAMS)
            hps_streams_get_stats(hps_profile_streams(v->profile), &ss);
        hps_exact_stage.free(st);
        if (t1 - t0 < best_feed)
            best_feed = t1 - t0;
        if (t2 - t1 < best_fin)
            best_fin = t2 - t1;
    }
    printf("%-9s exact %-9s %8.1f M events/s  %7.1f M interest/s  feed %6.2f s  finish %6.2f s  members %zu\n",
           label, type_name[type], mrate((double)n, best_feed + best_fin),
           mrate((double)interest, best_feed + best_fin), best_feed, best_fin, members);
    if (type == HPS_STREAMS)
        printf("%-9s    refs %llu distinct %llu  grammar %llu rules %llu symbols  peak %.0f MB  hot %llu "
               "coverage %.1f%%  anomalies %llu  (%.2f us/ref)\n",
               label, (unsigned long long)ss.refs, (unsigned long long)ss.distinct, (unsigned long long)ss.rules,
               (unsigned long long)ss.symbols, (double)ss.peak_bytes / 1048576.0, (unsigned long long)ss.hot,
               100 * ss.coverage, (unsigned long long)ss.anomalies,
               ss.refs ? 1e6 * (best_feed + best_fin) / (double)ss.refs : 0);
}

static void bench_sampler(const struct event *ev, size_t n, int64_t burst, int64_t sparsity, int emit,
                          const char *label)
{
    double best = 1e30;
    uint64_t emitted = 0;
    for (int r = 0; r < REPS; r++) {
        struct param_values pv = bursty_pv(burst, sparsity, emit);
        void *st = stage_make(&hps_bursty_stage, &pv);
        double t0 = now();
        run_stage(&hps_bursty_stage, st, ev, n, NULL);
        double t = now() - t0;
        emitted = ((const struct hps_bursty_view *)hps_bursty_stage.shared(st))->emitted;
        hps_bursty_stage.free(st);
        if (t < best)
            best = t;
    }
    printf("%-9s sampler burst %-4lld sparsity %-6lld emit %-7s %8.1f M events/s  (%llu emitted)\n", label,
           (long long)burst, (long long)sparsity, hps_emit_choices[emit], mrate((double)n, best),
           (unsigned long long)emitted);
}

static void bench_sampled(const struct event *ev, size_t n, int type, int64_t burst, const char *label)
{
    int emit = type == HPS_CALLPAIR ? HPS_EMIT_CALLS : type == HPS_METHOD ? HPS_EMIT_CONTROL : HPS_EMIT_LOADS;
    double best = 1e30;
    size_t members = 0;
    for (int r = 0; r < REPS; r++) {
        struct param_values pv = bursty_pv(burst, burst * 99, emit);
        void *st = stage_make(&hps_bursty_stage, &pv);
        struct hps_stream_cfg sc = { HPS_REFS_LOADS, HPS_KEY_PC_ADDR, 10, 100, 0.001 };
        struct hps_profile *p = hps_profile_create(type, &sc);
        double t0 = now();
        run_stage(&hps_bursty_stage, st, ev, n, p);
        hps_profile_finish(p, NULL);
        double t = now() - t0;
        hps_profile_members(p, &members);
        hps_profile_free(p);
        hps_bursty_stage.free(st);
        if (t < best)
            best = t;
    }
    printf("%-9s sampled %-9s 1/100 burst %-4lld %8.1f M events/s  members %zu\n", label, type_name[type],
           (long long)burst, mrate((double)n, best), members);
}

static void bench_ss(const struct event *ev, size_t n, size_t k)
{
    size_t nc = 0;
    struct event *calls = malloc(n * sizeof *calls);
    if (!calls)
        exit(1);
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind == EV_CALL)
            calls[nc++] = ev[i];
    double best = 1e30;
    struct hps_ss_stats st;
    for (int r = 0; r < REPS; r++) {
        struct hps_ss *s = hps_ss_create(k);
        double t0 = now();
        for (size_t i = 0; i < nc; i++)
            hps_ss_update(s, calls[i].pc, calls[i].addr);
        double t = now() - t0;
        hps_ss_get_stats(s, &st);
        hps_ss_free(s);
        if (t < best)
            best = t;
    }
    free(calls);
    printf("synthetic spacesaving k %-6zu %8.1f M updates/s  %6.1f ns/update  (%llu evictions of %llu)\n", k,
           mrate((double)st.updates, best), 1e9 * best / (double)st.updates, (unsigned long long)st.evictions,
           (unsigned long long)st.updates);
}

static void bench_accuracy(const struct event *ev, size_t n)
{
    struct hps_profile *a = hps_profile_create(HPS_CALLPAIR, NULL), *b = hps_profile_create(HPS_CALLPAIR, NULL);
    hps_profile_feed(a, ev, n);
    hps_profile_feed(b, ev, n / 3);
    hps_profile_finish(a, NULL);
    hps_profile_finish(b, NULL);
    size_t na, nb;
    const struct hps_member *ma = hps_profile_members(a, &na), *mb = hps_profile_members(b, &nb);
    double t0 = now(), acc = 0;
    for (int r = 0; r < 1000; r++)
        acc += hps_overlap(ma, na, mb, nb, 0.9, NULL);
    double t = (now() - t0) / 1000;
    printf("synthetic accuracy (%zu vs %zu members) %8.1f us per overlap (%.2f%%)\n", na, nb, 1e6 * t, acc / 1000);
    hps_profile_free(a);
    hps_profile_free(b);
}

static struct event *load_trace(const char *path, size_t *n)
{
    char err[512];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    size_t cap = (size_t)trace_reader_header(r)->events + 1, k = 0;
    struct event *ev = malloc(cap * sizeof *ev);
    if (!ev) {
        fprintf(stderr, "%s: out of memory\n", path);
        exit(1);
    }
    long got;
    while ((got = trace_reader_read(r, ev + k, cap - k)) > 0)
        k += (size_t)got;
    if (got < 0) {
        fprintf(stderr, "%s\n", trace_reader_error(r));
        exit(1);
    }
    trace_reader_close(r);
    *n = k;
    return ev;
}

int main(int argc, char **argv)
{
    struct event *ev = make_stream(NEV);
    printf("bench_hps: synthetic stream of %u events, best of %d\n", NEV, REPS);
    bench_sampler(ev, NEV, 1, 99, HPS_EMIT_CALLS, "synthetic");
    bench_sampler(ev, NEV, 100, 9900, HPS_EMIT_LOADS, "synthetic");
    bench_sampler(ev, NEV, 1, 0, HPS_EMIT_ALL, "synthetic");
    for (int t = 0; t < 3; t++)
        bench_exact(ev, NEV, t, REPS, "synthetic");
    bench_sampled(ev, NEV, HPS_CALLPAIR, 1, "synthetic");
    bench_sampled(ev, NEV, HPS_METHOD, 1, "synthetic");
    bench_sampled(ev, NEV, HPS_STREAMS, 100, "synthetic");
    bench_accuracy(ev, NEV);
    bench_ss(ev, NEV, 64);
    bench_ss(ev, NEV, 1024);
    free(ev);

    for (int a = 1; a < argc; a++) {
        size_t n;
        double t0 = now();
        ev = load_trace(argv[a], &n);
        const char *slash = strrchr(argv[a], '/');
        char label[32];
        snprintf(label, sizeof label, "%.20s", slash ? slash + 1 : argv[a]);
        char *dot = strchr(label, '.');
        if (dot)
            *dot = 0;
        printf("%-9s %zu events decoded in %.1f s\n", label, n, now() - t0);
        bench_sampler(ev, n, 1, 99, HPS_EMIT_CALLS, label);
        for (int t = 0; t < 3; t++)
            bench_exact(ev, n, t, 1, label);
        bench_sampled(ev, n, HPS_STREAMS, 100, label);
        printf("%-9s max resident %ld MB so far\n", label, maxrss_mb());
        free(ev);
    }
    return 0;
}
