/* simpoint.h - SimPoint window selection: basic-block vectors in, a few
 * weighted representative slices out (Sherwood et al., ASPLOS 2002; Hamerly
 * et al., "SimPoint 3.0", JILP 2005).  docs/simpoint.md describes the
 * algorithm as implemented, every parameter and how it differs from
 * SimPoint 3.0.
 *
 * Input: basic-block vectors (bbv.h), one per slice of a fixed number of
 * executed instructions.
 *
 * Pipeline (simpoint_run):
 *   1. drop the first skip_slices slices (the workload's start-up);
 *   2. normalise each slice (count / slice total) and project it to `dim`
 *      dimensions with a random matrix, entries uniform in [-1, 1), each a
 *      pure function of (seed, block id, column);
 *   3. for k = 1..max_k: k-means from n_init random starts (k-means++
 *      seeding, or SimPoint's k distinct slices drawn uniformly), keep the
 *      start with the least distortion; BIC score;
 *   4. k = the smallest whose BIC is at least bic_threshold of the way from
 *      the worst to the best score;
 *   5. per non-empty cluster, the slice nearest its centroid, weight =
 *      cluster size / slices clustered; at most max_windows of them (the
 *      heaviest, weights renormalised).
 *
 * Deterministic: same input and options give the same result on any
 * machine (single thread, fixed summation order, integer PRNG; see
 * docs/simpoint.md for the libm caveat).  No I/O.
 */
#ifndef SIMPOINT_H
#define SIMPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "simpoint/bbv.h"

/* ---- options ------------------------------------------------------------ */

#define SIMPOINT_DEFAULT_MAX_K 10
#define SIMPOINT_DEFAULT_DIM 15
#define SIMPOINT_DEFAULT_SEED 1
#define SIMPOINT_DEFAULT_N_INIT 5
#define SIMPOINT_DEFAULT_BIC_THRESHOLD 0.9
#define SIMPOINT_DEFAULT_MAX_ITER 100

/* Inclusive bounds checked by simpoint_opts_check (and the CLI). */
#define SIMPOINT_MAX_K_MAX 1000u
#define SIMPOINT_DIM_MAX 1000u
#define SIMPOINT_N_INIT_MAX 1000u
#define SIMPOINT_MAX_ITER_MAX 1000000u
#define SIMPOINT_MAX_WINDOWS_MAX 1000000u

/* How each k-means start picks its k initial centres. */
enum simpoint_init {
    SIMPOINT_INIT_KMEANSPP = 0, /* k-means++ D^2 sampling (default) */
    SIMPOINT_INIT_SAMPLE = 1    /* k distinct slices uniformly: SimPoint 3.0's -initkm samp */
};

const char *simpoint_init_name(enum simpoint_init init); /* "kmeans++", "sample" */
int simpoint_init_parse(const char *name, enum simpoint_init *out); /* 0, or -1 if unknown */

struct simpoint_opts {
    unsigned max_k;        /* largest k tried, [1, 1000]; capped at the slices clustered */
    unsigned dim;          /* projected dimensions, [1, 1000] */
    uint64_t seed;         /* projection and k-means starts, any value */
    unsigned n_init;       /* k-means starts per k, [1, 1000] */
    enum simpoint_init init; /* how a start picks its centres */
    double bic_threshold;  /* [0, 1] */
    unsigned max_iter;     /* k-means iterations (centroid updates) per start, [1, 1e6] */
    uint64_t skip_slices;  /* leading slices left out (start-up) */
    unsigned max_windows;  /* 0: one window per non-empty cluster; else at most this many */
    uint64_t slice_len;    /* instructions per slice; only scales `start` (0 allowed) */
};

void simpoint_opts_default(struct simpoint_opts *o);
/* Every out-of-range option, one diagnostic each (no file).  Returns 0 if none. */
int simpoint_opts_check(const struct simpoint_opts *o, struct diag *d);

/* ---- result ------------------------------------------------------------- */

struct simpoint_window {
    uint64_t slice;        /* index in the input, 0-based, skipped slices counted */
    uint64_t start;        /* slice * slice_len: first instruction of the window */
    double weight;         /* cluster_size / sum of kept cluster sizes */
    uint64_t cluster_size; /* slices in its cluster */
    unsigned cluster;      /* k-means label, 0-based */
};

struct simpoint_result {
    size_t n_slices;        /* slices clustered (after the skip) */
    uint64_t skipped;       /* slices left out at the start */
    unsigned k_tried;       /* k = 1..k_tried were run: min(max_k, n_slices) */
    unsigned k;             /* chosen k */
    unsigned clusters;      /* non-empty clusters at the chosen k */
    double *bic;            /* [k_tried], bic[k-1] for k */
    double *distortion;     /* [k_tried], sum of squared distances to the centroids */
    unsigned *iterations;   /* [k_tried], k-means iterations of the kept start */
    unsigned *label;        /* [n_slices], cluster of each clustered slice */
    size_t n_windows;
    struct simpoint_window *window; /* [n_windows], by slice index */
    double coverage;        /* share of the clustered slices whose cluster has a window */
};

void simpoint_result_free(struct simpoint_result *r); /* accepts NULL */

/* The whole pipeline.  Returns 0 and *out, or -1 with a diagnostic (bad
 * options, skip_slices >= slices, start overflow, out of memory). */
int simpoint_run(const struct bbv *b, const struct simpoint_opts *o, struct simpoint_result **out,
                 struct diag *d);

/* ---- the steps, for tests and other callers ----------------------------- */

/* Projection matrix entry for (block id, column j), in [-1, 1). */
double simpoint_proj_entry(uint64_t seed, uint32_t block, unsigned j);
/* Normalise and project slices [first, bbv_slices(b)) into out
 * (row-major, (slices - first) x dim).  Returns 0, or -1 when out of memory. */
int simpoint_project(const struct bbv *b, size_t first, unsigned dim, uint64_t seed, double *out);

/* Steps 3-5 on n points already in `dim` dimensions (row-major).  Window
 * slice indices are point indices + o->skip_slices (o->skip_slices is not
 * applied to pts).  Returns 0 and *out, or -1 with a diagnostic. */
int simpoint_choose(const double *pts, size_t n, unsigned dim, const struct simpoint_opts *o,
                    struct simpoint_result **out, struct diag *d);

/* The seed of k-means start number `start` (0-based) for k, derived from
 * the user's seed: a start's result depends on nothing else. */
uint64_t simpoint_start_seed(uint64_t seed, unsigned k, unsigned start);

/* One k-means run (Lloyd) from k centres seeded by `init` with `seed`: fills
 * label[n], centre[k*dim], size[k]; returns the distortion (sum of squared
 * distances of each point to its centre).  *iterations gets the centroid
 * updates done.  k <= n.  Returns -1.0 when out of memory. */
double simpoint_kmeans(const double *pts, size_t n, unsigned dim, unsigned k, enum simpoint_init init,
                       uint64_t seed, unsigned max_iter, unsigned *label, double *centre, uint64_t *size,
                       unsigned *iterations);

/* Lloyd's k-means from the k centres in centre[k*dim] (overwritten by the
 * final ones); otherwise as simpoint_kmeans. */
double simpoint_lloyd(const double *pts, size_t n, unsigned dim, unsigned k, unsigned max_iter, unsigned *label,
                      double *centre, uint64_t *size, unsigned *iterations);

/* BIC of a clustering of n points in dim dimensions into k clusters of the
 * given sizes (empty ones are not counted) with the given distortion, as
 * SimPoint scores it (spherical Gaussians sharing one variance):
 *   s2  = max(distortion / (n * dim), var_floor)
 *   l   = sum_c size_c * log(size_c / n) - n*dim/2 * log(2*pi*s2) - n*dim/2
 *   p   = (k' - 1) + k' * dim + 1,  k' = non-empty clusters
 *   BIC = l - p/2 * log(n) */
double simpoint_bic(size_t n, unsigned dim, unsigned k, const uint64_t *size, double distortion,
                    double var_floor);

/* Index (k - 1) of the smallest k whose score is >= min + threshold * (max
 * - min) over bic[0..nk-1]. */
unsigned simpoint_pick_k(const double *bic, unsigned nk, double threshold);

#endif
