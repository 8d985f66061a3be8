/* bench_simpoint.c - time SimPoint window selection on a synthetic input
 * (`make bench-simpoint`): N slices of basic-block vectors over B blocks, in
 * P phases that follow each other in runs of 1..200 slices; each phase runs
 * its own `per` blocks (drawn from the B, so phases share some) with fixed
 * random proportions, every count varied by +-20% per slice.  Prints the
 * time to parse the exp-bbv text, to project, and to choose the windows at
 * max_k 10 and 30 with both seedings, and how well the clusters match the
 * phases.  With --write FILE it also writes the text (exp-bbv spelling) to
 * try `hwprof simpoint` on.
 *
 *   bench_simpoint [N B P per] [--write FILE]     defaults 10000 50000 8 1000
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simpoint/bbv.h"
#include "simpoint/simpoint.h"

static uint64_t rng_state = 88172645463325252ull;

static uint64_t next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double unit(void) { return (double)(next() >> 11) * 0x1p-53; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The text and the true phase of every slice. */
static char *generate(long n, long blocks, long phases, long per, unsigned *phase_of, size_t *len)
{
    uint32_t *ids = malloc(sizeof *ids * (size_t)(phases * per));
    double *w = malloc(sizeof *w * (size_t)(phases * per));
    uint32_t *perm = malloc(sizeof *perm * (size_t)blocks);
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!ids || !w || !perm || !f) {
        fprintf(stderr, "bench_simpoint: out of memory\n");
        exit(1);
    }
    for (long p = 0; p < phases; p++) {
        double total = 0.0;
        for (long j = 0; j < blocks; j++)
            perm[j] = (uint32_t)(j + 1);
        for (long j = 0; j < per; j++) {
            long r = j + (long)(next() % (uint64_t)(blocks - j));
            uint32_t t = perm[j];
            perm[j] = perm[r];
            perm[r] = t;
            ids[p * per + j] = perm[j];
            w[p * per + j] = unit() * unit() + 1e-3;
            total += w[p * per + j];
        }
        for (long j = 0; j < per; j++)
            w[p * per + j] /= total;
    }
    long phase = 0, left = 0;
    for (long i = 0; i < n; i++) {
        if (left == 0) {
            phase = (long)(next() % (uint64_t)phases);
            left = 1 + (long)(next() % 200);
        }
        left--;
        phase_of[i] = (unsigned)phase;
        fputc('T', f);
        for (long j = 0; j < per; j++) {
            long c = (long)(w[phase * per + j] * 1e6 * (0.8 + 0.4 * unit()));
            if (c > 0)
                fprintf(f, ":%u:%ld   ", ids[phase * per + j], c);
        }
        fputc('\n', f);
    }
    fclose(f);
    free(ids);
    free(w);
    free(perm);
    return text;
}

/* Slices whose cluster's majority phase is their own, and phases split over
 * several clusters. */
static void purity(const struct simpoint_result *r, const unsigned *phase_of, unsigned phases, double *pure,
                   unsigned *split)
{
    unsigned k = r->k;
    size_t *tab = calloc((size_t)k * phases, sizeof *tab);
    for (size_t i = 0; i < r->n_slices; i++)
        tab[(size_t)r->label[i] * phases + phase_of[i]]++;
    size_t good = 0;
    for (unsigned c = 0; c < k; c++) {
        size_t best = 0;
        for (unsigned p = 0; p < phases; p++)
            best = tab[(size_t)c * phases + p] > best ? tab[(size_t)c * phases + p] : best;
        good += best;
    }
    *split = 0;
    for (unsigned p = 0; p < phases; p++) {
        unsigned in = 0;
        for (unsigned c = 0; c < k; c++)
            in += tab[(size_t)c * phases + p] > 0;
        *split += in > 1;
    }
    *pure = (double)good / (double)r->n_slices;
    free(tab);
}

int main(int argc, char **argv)
{
    long n = 10000, blocks = 50000, phases = 8, per = 1000;
    const char *write_to = NULL;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--write") == 0 && i + 1 < argc) {
            write_to = argv[++i];
            continue;
        }
        long v = atol(argv[i]);
        if (pos == 0)
            n = v;
        else if (pos == 1)
            blocks = v;
        else if (pos == 2)
            phases = v;
        else if (pos == 3)
            per = v;
        pos++;
    }
    if (n < 1 || blocks < 1 || phases < 1 || per < 1 || per > blocks) {
        fprintf(stderr, "usage: bench_simpoint [N B P per] [--write FILE]\n");
        return 2;
    }
    unsigned *phase_of = malloc(sizeof *phase_of * (size_t)n);
    size_t len;
    char *text = generate(n, blocks, phases, per, phase_of, &len);
    if (write_to) {
        FILE *f = fopen(write_to, "w");
        if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "bench_simpoint: cannot write %s\n", write_to);
            return 1;
        }
    }
    struct diag d;
    diag_init(&d, "synthetic");
    double t0 = now();
    struct bbv *b = bbv_parse(text, len, "synthetic", &d);
    double t_parse = now() - t0;
    if (!b) {
        diag_print(&d, stderr, "bench_simpoint: ");
        return 1;
    }
    printf("simpoint bench: %ld slices, %ld blocks (largest id %u), %ld phases of %ld blocks, %.1f MB of text\n", n,
           blocks, bbv_max_block(b), phases, per, (double)len / 1e6);
    printf("  parse              %7.3f s\n", t_parse);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    double *pts = malloc(sizeof *pts * (size_t)n * o.dim);
    t0 = now();
    simpoint_project(b, 0, o.dim, o.seed, pts);
    printf("  project (dim %2u)   %7.3f s\n", o.dim, now() - t0);
    free(pts);
    static const unsigned max_ks[] = {10, 30};
    for (int init = 0; init < 2; init++)
        for (size_t m = 0; m < 2; m++) {
            o.init = (enum simpoint_init)init;
            o.max_k = max_ks[m];
            struct simpoint_result *r = NULL;
            t0 = now();
            if (simpoint_run(b, &o, &r, &d) != 0) {
                diag_print(&d, stderr, "bench_simpoint: ");
                return 1;
            }
            double t = now() - t0;
            double pure;
            unsigned split;
            purity(r, phase_of, (unsigned)phases, &pure, &split);
            printf("  run %-8s k<=%2u %7.3f s (projection included): k = %2u, purity %.4f, %u of %ld phases split\n",
                   simpoint_init_name(o.init), o.max_k, t, r->k, pure, split, phases);
            simpoint_result_free(r);
        }
    bbv_free(b);
    diag_free(&d);
    free(text);
    free(phase_of);
    return 0;
}
