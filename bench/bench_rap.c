/* bench_rap.c - RAP update throughput without and with the merging event
 * buffer (1K entries) and with full offline aggregation (Mysore et al.,
 * section 3.2.1, Figure 4: 13x and 46x average speedups there).  Built with
 * -O3 -DNDEBUG by `make bench`; not part of `make test`.
 *
 * Streams of 16M events (64-bit keys, b = 4, eps = 1%, q = 2, first merge
 * at 1024 events):
 *   values iid   34% zeros (gcc's share in the paper), 40% from 2^16 values
 *                drawn Zipf-like (rank ~ u^1.3), 26% uniform 64-bit values,
 *                independent draws: no temporal locality (a buffer's worst case)
 *   code loops   basic-block starts of a synthetic program: loops (Zipf-like
 *                over 4096 loops of 1-8 blocks in 2 MB of text) run for a
 *                geometric number of iterations (mean 20), 5% cold blocks
 *   TRACE code / TRACE values  (with a trace file argument) the first 16M
 *                block starts (bbstart's rule) / load values of a real trace
 * Each line: events/s into the profile (selection, buffer or aggregation
 * table, tree, and the final flush), tree updates (walks), the largest
 * tree, and the speedup over "none"; for full aggregation also the rate of
 * its tree phase alone (the paper timed RAP on traces compressed offline).
 * Best of 5 interleaved rounds (the machine is shared).  The paper's
 * speedups are of a whole instrumented program (Pin + RAP); ours time RAP
 * alone.
 *
 * Then, beyond the paper, RAP next to hierarchical heavy hitters at equal
 * memory (configs/rap/beyond-hhh-*.json): updates per second of RAP
 * (eps = 1%, node memory capped at 8 KB / 64 KB), of MST (Space-Saving at
 * every level) and of RHHH (one random level) with 8 KB / 64 KB of 16-byte
 * entries, on the same streams, with the configs' key widths (code 32 bits,
 * values 64 bits, b = 4).
 *
 * Usage: bench_rap [TRACE] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "families/hhh_ss.h"
#include "families/rap_prof.h"
#include "trace/trace.h"

#define NEV (16u << 20)
#define ROUNDS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rs = 42;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* rank in [0, n): skewed towards 0 */
static uint64_t zipfish(uint64_t n)
{
    double u = ((double)(rnd() >> 11) + 1) / 9007199254740993.0;
    double r = pow(u, 1.3) * (double)n;
    return (uint64_t)r < n ? (uint64_t)r : n - 1;
}

static struct event *alloc_events(void)
{
    struct event *ev = calloc(NEV, sizeof *ev);
    if (!ev)
        exit(1);
    for (size_t i = 0; i < NEV; i++) {
        ev[i].kind = EV_LOAD;
        ev[i].size = 8;
    }
    return ev;
}

static struct event *values_iid(void)
{
    struct event *ev = alloc_events();
    uint64_t *table = malloc(65536 * sizeof *table);
    if (!table)
        exit(1);
    for (int i = 0; i < 65536; i++)
        table[i] = rnd() >> (rnd() % 64);
    for (size_t i = 0; i < NEV; i++) {
        uint64_t r = rnd() % 100;
        ev[i].value = r < 34 ? 0 : r < 74 ? table[zipfish(65536)] : rnd();
    }
    free(table);
    return ev;
}

static struct event *code_loops(void)
{
    struct event *ev = alloc_events();
    size_t i = 0;
    while (i < NEV) {
        if (rnd() % 100 < 5) {
            ev[i++].pc = 0x400000 + (rnd() % (256u << 20) & ~3ull);
            continue;
        }
        uint64_t loop = zipfish(4096);
        uint64_t start = 0x400000 + (loop * 0x9e3779b97f4a7c15ull >> 43 & ~63ull);
        unsigned blocks = 1 + (unsigned)(loop * 7 % 8);
        do {
            for (unsigned b = 0; b < blocks && i < NEV; b++)
                ev[i++].pc = start + 12 * b;
        } while (rnd() % 20 && i < NEV);
    }
    return ev;
}

/* The first NEV block starts (code) or loads with values of a trace. */
static struct event *from_trace(const char *path, int code, size_t *n)
{
    char err[512];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_rap: %s\n", err);
        exit(1);
    }
    struct event *ev = alloc_events(), *buf = malloc(65536 * sizeof *buf);
    size_t k = 0;
    uint64_t next = 0;
    int newb = 1;
    long got;
    while (k < NEV && (got = trace_reader_read(r, buf, 65536)) > 0) {
        for (long j = 0; j < got && k < NEV; j++) {
            const struct event *e = &buf[j];
            if (code && e->kind == EV_INSN) {
                if (newb || e->pc != next)
                    ev[k++].pc = e->pc;
                next = e->pc + e->size;
                newb = 0;
            } else if (code && e->kind >= EV_BRANCH) {
                newb = 1;
            } else if (!code && e->kind == EV_LOAD && !(e->flags & EVF_NOVALUE)) {
                ev[k++].value = e->value;
            }
        }
    }
    if (got < 0) {
        fprintf(stderr, "bench_rap: %s\n", trace_reader_error(r));
        exit(1);
    }
    trace_reader_close(r);
    free(buf);
    *n = k;
    return ev;
}

struct result {
    double best, tree_best;
    uint64_t updates, nodes_max;
};

static void run(const struct event *ev, size_t n, int code, int agg, struct result *res)
{
    struct rap_prof_cfg c;
    memset(&c, 0, sizeof c);
    keysel_init(&c.sel, KS_LOADS, code ? KF_PC : KF_VALUE, KF_NONE, 64, 64);
    c.dims = 1;
    c.key_bits = 64;
    c.stride = 2;
    c.tree.eps = 0.01;
    c.tree.q = 2;
    c.tree.merge_first = 1024;
    c.agg = agg;
    c.buffer_entries = 1024;
    char err[200];
    struct rap_prof *p = rap_prof_create(&c, err, sizeof err);
    if (!p) {
        fprintf(stderr, "bench_rap: %s\n", err);
        exit(1);
    }
    double t0 = now();
    for (size_t i = 0; i < n; i += 8192)
        rap_prof_feed(p, ev + i, n - i < 8192 ? n - i : 8192);
    double t1 = now();
    rap_prof_finish(p);
    double t2 = now();
    struct rap_tree_stats st;
    rap_tree_stats(rap_prof_tree(p), &st);
    res->updates = st.updates;
    res->nodes_max = st.nodes_max;
    rap_prof_free(p);
    if (res->best == 0 || t2 - t0 < res->best)
        res->best = t2 - t0;
    if (res->tree_best == 0 || t2 - t1 < res->tree_best)
        res->tree_best = t2 - t1;
}

static void bench(const char *name, const struct event *ev, size_t n, int code)
{
    static const char *const mode[] = { "none", "buffer 1K", "full aggregation" };
    static const double paper[] = { 1, 13, 46 };
    struct result res[3];
    memset(res, 0, sizeof res);
    for (int r = 0; r < ROUNDS; r++)
        for (int a = 0; a < 3; a++)
            run(ev, n, code, a, &res[a]);
    printf("bench_rap %s: %zu events, b 4, eps 1%%, q 2, 64-bit keys, best of %d rounds\n", name, n, ROUNDS);
    for (int a = 0; a < 3; a++) {
        printf("  %-17s %6.1f M events/s  %9llu tree updates  max nodes %5llu  speedup %5.1fx (paper %gx)", mode[a],
               (double)n / res[a].best / 1e6, (unsigned long long)res[a].updates, (unsigned long long)res[a].nodes_max,
               res[0].best / res[a].best, paper[a]);
        if (a == 2)
            printf("; tree phase alone %.1fx", res[0].best / res[a].tree_best);
        printf("\n");
    }
}

/* Updates per second of one equal-memory contender (best of ROUNDS). */
static double rate_rap(const struct event *ev, size_t n, int code, uint64_t bytes)
{
    double best = 0;
    for (int r = 0; r < ROUNDS; r++) {
        struct rap_prof_cfg c;
        memset(&c, 0, sizeof c);
        unsigned bits = code ? 32 : 64;
        keysel_init(&c.sel, KS_LOADS, code ? KF_PC : KF_VALUE, KF_NONE, bits, bits);
        c.dims = 1;
        c.key_bits = bits;
        c.stride = 2;
        c.tree.eps = 0.01;
        c.tree.q = 2;
        c.tree.merge_first = 1024;
        c.tree.max_nodes = bytes / RAP_NODE_BYTES;
        char err[200];
        struct rap_prof *p = rap_prof_create(&c, err, sizeof err);
        if (!p) {
            fprintf(stderr, "bench_rap: %s\n", err);
            exit(1);
        }
        double t0 = now();
        for (size_t i = 0; i < n; i += 8192)
            rap_prof_feed(p, ev + i, n - i < 8192 ? n - i : 8192);
        rap_prof_finish(p);
        double t = now() - t0;
        rap_prof_free(p);
        if (best == 0 || t < best)
            best = t;
    }
    return (double)n / best;
}

static double rate_hhh(const struct event *ev, size_t n, int code, uint64_t bytes, int variant)
{
    double best = 0;
    for (int r = 0; r < ROUNDS; r++) {
        struct hhh_cfg c = { code ? 32 : 64, 2, bytes / 16, variant, 1 };
        char err[200];
        struct hhh *h = hhh_create(&c, err, sizeof err);
        if (!h) {
            fprintf(stderr, "bench_rap: %s\n", err);
            exit(1);
        }
        uint64_t mask = code ? 0xffffffffull : ~0ull;
        double t0 = now();
        for (size_t i = 0; i < n; i++)
            hhh_add(h, (code ? ev[i].pc : ev[i].value) & mask);
        hhh_flush(h); /* the runs still open (a query applies them) */
        double t = now() - t0;
        hhh_free(h);
        if (best == 0 || t < best)
            best = t;
    }
    return (double)n / best;
}

static void bench_equal_memory(const char *name, const struct event *ev, size_t n, int code)
{
    static const uint64_t budget[] = { 8192, 65536 };
    printf("bench_rap %s, equal memory: %zu events, b 4, %d-bit keys, M updates/s (best of %d)\n", name, n,
           code ? 32 : 64, ROUNDS);
    for (int k = 0; k < 2; k++)
        printf("  %2llu KB   RAP eps 1%% %6.1f   MST %6.1f   RHHH %6.1f\n", (unsigned long long)budget[k] / 1024,
               rate_rap(ev, n, code, budget[k]) / 1e6, rate_hhh(ev, n, code, budget[k], HHH_MST) / 1e6,
               rate_hhh(ev, n, code, budget[k], HHH_RHHH) / 1e6);
}

int main(int argc, char **argv)
{
    struct event *ev = values_iid();
    bench("values iid", ev, NEV, 0);
    bench_equal_memory("values iid", ev, NEV, 0);
    free(ev);
    ev = code_loops();
    bench("code loops", ev, NEV, 1);
    bench_equal_memory("code loops", ev, NEV, 1);
    free(ev);
    if (argc > 1) {
        char name[600];
        for (int code = 1; code >= 0; code--) {
            size_t n;
            ev = from_trace(argv[1], code, &n);
            snprintf(name, sizeof name, "%s %s", argv[1], code ? "code" : "values");
            bench(name, ev, n, code);
            bench_equal_memory(name, ev, n, code);
            free(ev);
        }
    }
    return 0;
}
