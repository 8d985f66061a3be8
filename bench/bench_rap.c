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
 * The timing of the three modes and the CSV are bench/lib/rap_measure.c's.
 *
 * Usage: bench_rap [TRACE]
 *        bench_rap --csv OUT [--rounds N] [--events N] TRACE...
 * The second form measures only the traces, writes the CSV OUT (RAP
 * Figure 4's wall clock with the machine's description, rap_measure.h;
 * `make rap-wallclock`) and prints one line per stream. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "families/hhh_ss.h"
#include "families/rap_prof.h"
#include "lib/rap_measure.h"
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
    return rapm_alloc(NEV);
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

static void bench(const char *name, const struct event *ev, size_t n, int code)
{
    static const char *const mode[] = { "none", "buffer 1K", "full aggregation" };
    static const double paper[] = { 1, 13, 46 };
    struct rapm_result res;
    char err[200];
    if (rapm_measure(ev, n, code ? RAPM_CODE : RAPM_VALUES, ROUNDS, &res, err, sizeof err) != 0) {
        fprintf(stderr, "bench_rap: %s\n", err);
        exit(1);
    }
    printf("bench_rap %s: %zu events, b 4, eps 1%%, q 2, 64-bit keys, best of %d rounds\n", name, n, ROUNDS);
    for (int a = 0; a < 3; a++) {
        const struct rapm_mode *m = &res.mode[a];
        printf("  %-17s %6.1f M events/s  %9llu tree updates  max nodes %5llu  speedup %5.1fx (paper %gx)", mode[a],
               (double)n / m->seconds / 1e6, (unsigned long long)m->updates, (unsigned long long)m->nodes_max,
               res.mode[0].seconds / m->seconds, paper[a]);
        if (a == 2)
            printf("; tree phase alone %.1fx", res.mode[0].seconds / m->tree_seconds);
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

/* --csv OUT [--rounds N] [--events N] TRACE...: the CSV of rap_measure.h. */
static int csv_mode(int argc, char **argv)
{
    const char *out = NULL;
    int rounds = ROUNDS;
    size_t max = RAPM_MAX_EVENTS;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (i + 1 >= argc)
            break;
        if (strcmp(argv[i], "--csv") == 0)
            out = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--events") == 0)
            max = (size_t)strtoull(argv[++i], NULL, 10);
        else
            break;
    }
    if (!out || i >= argc || rounds < 1 || max < 1 || strncmp(argv[i], "--", 2) == 0) {
        fprintf(stderr, "usage: bench_rap --csv OUT [--rounds N] [--events N] TRACE...\n");
        return 2;
    }
    size_t nt = (size_t)(argc - i);
    struct rapm_trace *t = calloc(nt, sizeof *t);
    if (!t)
        return 1;
    char err[600];
    for (size_t k = 0; k < nt; k++) {
        double t0 = now();
        if (rapm_measure_trace(argv[i + (int)k], max, rounds, &t[k], err, sizeof err) != 0) {
            fprintf(stderr, "bench_rap: %s\n", err);
            free(t);
            return 1;
        }
        for (int run = RAPM_CODE; run <= RAPM_VALUES; run++) {
            const struct rapm_result *r = &t[k].run[run];
            printf("bench_rap %s w%s %s: %zu events, M events/s none %.1f, buffer %.1f (%.1fx), full %.1f (%.1fx)\n",
                   t[k].workload, t[k].window, run == RAPM_CODE ? "code" : "values", r->events,
                   (double)r->events / r->mode[0].seconds / 1e6, (double)r->events / r->mode[1].seconds / 1e6,
                   r->mode[0].seconds / r->mode[1].seconds, (double)r->events / r->mode[2].seconds / 1e6,
                   r->mode[0].seconds / r->mode[2].seconds);
        }
        printf("bench_rap %s: %.1f s (best of %d rounds)\n", argv[i + (int)k], now() - t0, rounds);
    }
    int rc = rapm_write_csv(out, t, nt, rounds, max, err, sizeof err);
    free(t);
    if (rc != 0) {
        fprintf(stderr, "bench_rap: %s\n", err);
        return 1;
    }
    printf("bench_rap: wrote %s\n", out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strncmp(argv[1], "--", 2) == 0)
        return csv_mode(argc, argv);
    struct event *ev = values_iid();
    bench("values iid", ev, NEV, 0);
    bench_equal_memory("values iid", ev, NEV, 0);
    free(ev);
    ev = code_loops();
    bench("code loops", ev, NEV, 1);
    bench_equal_memory("code loops", ev, NEV, 1);
    free(ev);
    if (argc > 1) {
        char name[600], err[600];
        for (int code = 1; code >= 0; code--) {
            size_t n;
            ev = rapm_from_trace(argv[1], code ? RAPM_CODE : RAPM_VALUES, NEV, &n, err, sizeof err);
            if (!ev) {
                fprintf(stderr, "bench_rap: %s\n", err);
                return 1;
            }
            snprintf(name, sizeof name, "%s %s", argv[1], code ? "code" : "values");
            bench(name, ev, n, code);
            bench_equal_memory(name, ev, n, code);
            free(ev);
        }
    }
    return 0;
}
