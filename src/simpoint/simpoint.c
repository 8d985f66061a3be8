/* simpoint.c - SimPoint window selection: projection, k-means, BIC, choice
 * of k and of the representative slices (see simpoint.h, docs/simpoint.md).
 *
 * Determinism: every random number comes from splitmix64 streams keyed by
 * the user's seed and by what they are for (the projection entry (block,
 * column); the k-means start (k, start number)), so a result for one k does
 * not depend on which other k were run nor in what order.  Sums run in a
 * fixed order (slices in input order, pairs by block id, dimensions in
 * order); nearest-centre ties go to the lowest centre, representative ties
 * to the earliest slice.  The k-means bounds below only skip work whose
 * outcome is already decided, so they return exactly what plain Lloyd would.
 */
#include "simpoint/simpoint.h"

/* No fused multiply-add: a*b+c rounded once would change results in the
 * last bit from machine to machine.  GCC does not contract in -std=c11 mode
 * (the Makefile's) and does not know this pragma; clang contracts by
 * default. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mix64.h"

/* ---- random numbers ------------------------------------------------------ */

#define GOLDEN MIX64_GOLDEN

struct rng {
    uint64_t state;
};

static uint64_t rng_next(struct rng *r) { return splitmix64(&r->state); }

/* Uniform in [0, bound), bound >= 1, without modulo bias. */
static uint64_t rng_below(struct rng *r, uint64_t bound)
{
    uint64_t threshold = (0 - bound) % bound; /* 2^64 mod bound */
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return x % bound;
    }
}

/* Keys that separate the streams drawn from one user seed. */
#define KEY_PROJECTION 0x70726f6a65637431ull /* "project1" */
#define KEY_KMEANS 0x6b6d65616e733031ull     /* "kmeans01" */

uint64_t simpoint_start_seed(uint64_t seed, unsigned k, unsigned start)
{
    return mix64(mix64(seed ^ KEY_KMEANS) + (((uint64_t)k << 32) | start));
}

static double proj_entry(uint64_t proj_seed, uint32_t block, unsigned j)
{
    uint64_t h = mix64(proj_seed + (uint64_t)block * GOLDEN);
    h = mix64(h ^ ((uint64_t)(j + 1) * 0xd6e8feb86659fd93ull));
    return (double)(h >> 11) * 0x1p-53 * 2.0 - 1.0;
}

double simpoint_proj_entry(uint64_t seed, uint32_t block, unsigned j)
{
    return proj_entry(mix64(seed ^ KEY_PROJECTION), block, j);
}

/* ---- options ------------------------------------------------------------- */

void simpoint_opts_default(struct simpoint_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_k = SIMPOINT_DEFAULT_MAX_K;
    o->dim = SIMPOINT_DEFAULT_DIM;
    o->seed = SIMPOINT_DEFAULT_SEED;
    o->n_init = SIMPOINT_DEFAULT_N_INIT;
    o->bic_threshold = SIMPOINT_DEFAULT_BIC_THRESHOLD;
    o->max_iter = SIMPOINT_DEFAULT_MAX_ITER;
    o->init = SIMPOINT_INIT_KMEANSPP;
}

int simpoint_opts_check(const struct simpoint_opts *o, struct diag *d)
{
    size_t before = diag_count(d);
    if (o->max_k < 1 || o->max_k > SIMPOINT_MAX_K_MAX)
        diag_error(d, NULL, 0, 0, "max_k must be in [1, %u] (got %u)", SIMPOINT_MAX_K_MAX, o->max_k);
    if (o->dim < 1 || o->dim > SIMPOINT_DIM_MAX)
        diag_error(d, NULL, 0, 0, "dim must be in [1, %u] (got %u)", SIMPOINT_DIM_MAX, o->dim);
    if (o->n_init < 1 || o->n_init > SIMPOINT_N_INIT_MAX)
        diag_error(d, NULL, 0, 0, "n_init must be in [1, %u] (got %u)", SIMPOINT_N_INIT_MAX, o->n_init);
    if (!(o->bic_threshold >= 0.0 && o->bic_threshold <= 1.0))
        diag_error(d, NULL, 0, 0, "bic_threshold must be in [0, 1] (got %g)", o->bic_threshold);
    if (o->max_iter < 1 || o->max_iter > SIMPOINT_MAX_ITER_MAX)
        diag_error(d, NULL, 0, 0, "max_iter must be in [1, %u] (got %u)", SIMPOINT_MAX_ITER_MAX, o->max_iter);
    if (o->init != SIMPOINT_INIT_KMEANSPP && o->init != SIMPOINT_INIT_SAMPLE)
        diag_error(d, NULL, 0, 0, "init must be kmeans++ or sample (got %d)", (int)o->init);
    if (o->max_windows > SIMPOINT_MAX_WINDOWS_MAX)
        diag_error(d, NULL, 0, 0, "max_windows must be in [0, %u] (got %u)", SIMPOINT_MAX_WINDOWS_MAX,
                   o->max_windows);
    return diag_count(d) > before ? -1 : 0;
}

const char *simpoint_init_name(enum simpoint_init init)
{
    return init == SIMPOINT_INIT_SAMPLE ? "sample" : init == SIMPOINT_INIT_KMEANSPP ? "kmeans++" : "?";
}

int simpoint_init_parse(const char *name, enum simpoint_init *out)
{
    if (strcmp(name, "kmeans++") == 0)
        *out = SIMPOINT_INIT_KMEANSPP;
    else if (strcmp(name, "sample") == 0)
        *out = SIMPOINT_INIT_SAMPLE;
    else
        return -1;
    return 0;
}

/* ---- projection ---------------------------------------------------------- */

/* Tabulate the matrix when it has at most this many entries and no more
 * rows than 4x the pairs to project (ids are dense in exp-bbv output); else
 * compute each entry where it is used (same values, slower). */
#define PROJ_TABLE_MAX (16u << 20)

int simpoint_project(const struct bbv *b, size_t first, unsigned dim, uint64_t seed, double *out)
{
    uint64_t proj_seed = mix64(seed ^ KEY_PROJECTION);
    uint32_t max_block = bbv_max_block(b);
    size_t n = bbv_slices(b), pairs = 0;
    for (size_t i = first; i < n; i++)
        pairs += bbv_slice_blocks(b, i);
    double *table = NULL;
    if ((uint64_t)max_block * dim <= PROJ_TABLE_MAX && max_block / 4 <= pairs) {
        table = malloc(((size_t)max_block + 1) * dim * sizeof *table);
        if (!table)
            return -1;
        for (uint32_t id = 1; id <= max_block; id++)
            for (unsigned j = 0; j < dim; j++)
                table[(size_t)id * dim + j] = proj_entry(proj_seed, id, j);
    }
    for (size_t i = first; i < n; i++) {
        double *row = out + (i - first) * dim;
        for (unsigned j = 0; j < dim; j++)
            row[j] = 0.0;
        const uint32_t *ids = bbv_slice_ids(b, i);
        const uint64_t *counts = bbv_slice_counts(b, i);
        size_t m = bbv_slice_blocks(b, i);
        double total = (double)bbv_slice_total(b, i);
        for (size_t p = 0; p < m; p++) {
            double v = (double)counts[p] / total;
            if (table) {
                const double *e = table + (size_t)ids[p] * dim;
                for (unsigned j = 0; j < dim; j++)
                    row[j] += v * e[j];
            } else {
                for (unsigned j = 0; j < dim; j++)
                    row[j] += v * proj_entry(proj_seed, ids[p], j);
            }
        }
    }
    free(table);
    return 0;
}

/* ---- k-means -------------------------------------------------------------
 *
 * Lloyd's algorithm, accelerated with Hamerly's bounds ("Making k-means even
 * faster", SDM 2010): each point keeps an upper bound on the distance to its
 * centre and a lower bound on the distance to every other centre; each
 * centre keeps half the distance to its nearest other centre.  A point whose
 * bounds prove its centre is still the nearest, by a relative margin (1e-9)
 * far above rounding error, is not looked at; the others get plain Lloyd's
 * scan (every centre, the lowest index wins ties).  A centroid is re-summed
 * over its points in point order whenever its membership changed.  So
 * labels, centres, iterations and
 * distortion are plain Lloyd's, bit for bit (tests/unit/test_simpoint.c
 * checks it against a naive implementation); the bounds only save time.
 */

#define REL_MARGIN 1e-9

struct km_work {
    size_t *index; /* [n] draw of the initial centres */
    double *sum;   /* [kmax*dim] centroid sums */
    double *upper; /* [n] >= distance to the own centre */
    double *lower; /* [n] <= distance to any other centre */
    double *old;   /* [kmax*dim] centres before the update */
    double *move;  /* [kmax] how far each centre moved */
    double *half;  /* [kmax] half the distance to the nearest other centre */
    unsigned char *dirty; /* [kmax] membership changed since the last update */
    double slack;  /* absolute margin: 1e-12 x the extent of the points */
};

static double sqdist(const double *a, const double *b, unsigned dim)
{
    double d = 0.0;
    for (unsigned j = 0; j < dim; j++) {
        double t = a[j] - b[j];
        d += t * t;
    }
    return d;
}

/* Nearest centre to p (ties: the lowest index); *best gets its squared
 * distance, *second the next smallest (DBL_MAX when k == 1).  (A partial
 * distance search, stopping a sum once it passes *second, measured slower
 * at 15 dimensions: the full sum vectorises.) */
static unsigned scan(const double *p, const double *centre, unsigned k, unsigned dim, double *best, double *second)
{
    double b = sqdist(p, centre, dim), s = DBL_MAX;
    unsigned bc = 0;
    for (unsigned c = 1; c < k; c++) {
        double d = sqdist(p, centre + (size_t)c * dim, dim);
        if (d < b) {
            s = b;
            b = d;
            bc = c;
        } else if (d < s) {
            s = d;
        }
    }
    *best = b;
    *second = s;
    return bc;
}

/* Centroid of each cluster whose membership changed (dirty), summing its
 * points in point order, so a centroid is the same whether or not other
 * clusters changed; an empty cluster keeps its centre.  Clears dirty. */
static void update(const double *pts, size_t n, unsigned dim, unsigned k, const unsigned *label, double *centre,
                   uint64_t *size, double *sum, unsigned char *dirty)
{
    for (unsigned c = 0; c < k; c++)
        if (dirty[c]) {
            memset(sum + (size_t)c * dim, 0, dim * sizeof *sum);
            size[c] = 0;
        }
    for (size_t i = 0; i < n; i++) {
        unsigned c = label[i];
        if (!dirty[c])
            continue;
        const double *p = pts + i * dim;
        double *s = sum + (size_t)c * dim;
        for (unsigned j = 0; j < dim; j++)
            s[j] += p[j];
        size[c]++;
    }
    for (unsigned c = 0; c < k; c++) {
        if (!dirty[c])
            continue;
        dirty[c] = 0;
        if (size[c] == 0)
            continue;
        double cnt = (double)size[c];
        for (unsigned j = 0; j < dim; j++)
            centre[(size_t)c * dim + j] = sum[(size_t)c * dim + j] / cnt;
    }
}

/* 1e-12 x the diagonal of the points' bounding box (the bounds' absolute
 * margin). */
static double extent_slack(const double *pts, size_t n, unsigned dim)
{
    double diag2 = 0.0;
    for (unsigned j = 0; j < dim; j++) {
        double lo = pts[j], hi = pts[j];
        for (size_t i = 1; i < n; i++) {
            double v = pts[i * dim + j];
            if (v < lo)
                lo = v;
            if (v > hi)
                hi = v;
        }
        diag2 += (hi - lo) * (hi - lo);
    }
    return sqrt(diag2) * 1e-12;
}

/* The k initial centres: k distinct points drawn uniformly (SimPoint's
 * "samp"), or k-means++ (Arthur and Vassilvitskii 2007): the first point
 * uniformly, each next one with probability proportional to its squared
 * distance to the nearest centre so far.  dd is scratch of n doubles. */
static void seed_centres(const double *pts, size_t n, unsigned dim, unsigned k, enum simpoint_init init,
                         struct rng *r, double *centre, size_t *index, double *dd)
{
    if (init == SIMPOINT_INIT_SAMPLE) {
        for (size_t i = 0; i < n; i++)
            index[i] = i;
        for (unsigned c = 0; c < k; c++) { /* partial Fisher-Yates */
            size_t j = c + (size_t)rng_below(r, n - c);
            size_t t = index[c];
            index[c] = index[j];
            index[j] = t;
            memcpy(centre + (size_t)c * dim, pts + index[c] * dim, dim * sizeof *centre);
        }
        return;
    }
    size_t pick = (size_t)rng_below(r, n);
    memcpy(centre, pts + pick * dim, dim * sizeof *centre);
    for (size_t i = 0; i < n; i++)
        dd[i] = sqdist(pts + i * dim, centre, dim);
    for (unsigned c = 1; c < k; c++) {
        double total = 0.0;
        size_t last = SIZE_MAX; /* the last point off every centre */
        for (size_t i = 0; i < n; i++) {
            total += dd[i];
            if (dd[i] > 0.0)
                last = i;
        }
        if (last == SIZE_MAX) {
            /* every point sits on a centre: any choice repeats one */
            pick = (size_t)rng_below(r, n);
        } else {
            double u = (double)(rng_next(r) >> 11) * 0x1p-53 * total, acc = 0.0;
            pick = last; /* if rounding keeps acc <= u to the end */
            for (size_t i = 0; i < n; i++) {
                acc += dd[i];
                if (acc > u && dd[i] > 0.0) {
                    pick = i;
                    break;
                }
            }
        }
        double *q = centre + (size_t)c * dim;
        memcpy(q, pts + pick * dim, dim * sizeof *centre);
        for (size_t i = 0; i < n; i++) {
            double d = sqdist(pts + i * dim, q, dim);
            if (d < dd[i])
                dd[i] = d;
        }
    }
}

/* Lloyd from the k centres given in centre (see the section comment). */
static double lloyd(const double *pts, size_t n, unsigned dim, unsigned k, unsigned max_iter, unsigned *label,
                    double *centre, uint64_t *size, unsigned *iterations, struct km_work *w)
{
    memset(w->dirty, 1, k);
    for (size_t i = 0; i < n; i++) {
        double b, s;
        label[i] = scan(pts + i * dim, centre, k, dim, &b, &s);
        w->upper[i] = sqrt(b);
        w->lower[i] = s == DBL_MAX ? DBL_MAX : sqrt(s);
    }
    unsigned it = 0;
    while (it < max_iter) {
        memcpy(w->old, centre, (size_t)k * dim * sizeof *centre);
        update(pts, n, dim, k, label, centre, size, w->sum, w->dirty);
        it++;
        /* how far the centres moved, and how close they are to each other */
        double max1 = 0.0, max2 = 0.0;
        unsigned argmax = 0;
        for (unsigned c = 0; c < k; c++) {
            double m = sqrt(sqdist(w->old + (size_t)c * dim, centre + (size_t)c * dim, dim));
            w->move[c] = m;
            if (m > max1) {
                max2 = max1;
                max1 = m;
                argmax = c;
            } else if (m > max2) {
                max2 = m;
            }
            w->half[c] = DBL_MAX;
        }
        for (unsigned c = 0; c < k; c++)
            for (unsigned e = c + 1; e < k; e++) {
                double h = 0.5 * sqrt(sqdist(centre + (size_t)c * dim, centre + (size_t)e * dim, dim));
                if (h < w->half[c])
                    w->half[c] = h;
                if (h < w->half[e])
                    w->half[e] = h;
            }
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned a = label[i];
            w->upper[i] += w->move[a];
            if (w->lower[i] != DBL_MAX)
                w->lower[i] -= a == argmax ? max2 : max1;
            double m = w->half[a] > w->lower[i] ? w->half[a] : w->lower[i];
            if (w->upper[i] * (1.0 + REL_MARGIN) + w->slack < m)
                continue;
            const double *p = pts + i * dim;
            w->upper[i] = sqrt(sqdist(p, centre + (size_t)a * dim, dim));
            if (w->upper[i] * (1.0 + REL_MARGIN) + w->slack < m)
                continue;
            double b, s;
            unsigned c = scan(p, centre, k, dim, &b, &s);
            if (c != a) {
                label[i] = c;
                w->dirty[a] = w->dirty[c] = 1;
                changed = 1;
            }
            w->upper[i] = sqrt(b);
            w->lower[i] = s == DBL_MAX ? DBL_MAX : sqrt(s);
        }
        if (!changed)
            break;
    }
    /* sizes and distortion of the final labels, in point order */
    memset(size, 0, k * sizeof *size);
    double distortion = 0.0;
    for (size_t i = 0; i < n; i++) {
        size[label[i]]++;
        distortion += sqdist(pts + i * dim, centre + (size_t)label[i] * dim, dim);
    }
    *iterations = it;
    return distortion;
}

static double kmeans_run(const double *pts, size_t n, unsigned dim, unsigned k, enum simpoint_init init,
                         uint64_t seed, unsigned max_iter, unsigned *label, double *centre, uint64_t *size,
                         unsigned *iterations, struct km_work *w)
{
    struct rng r = {seed};
    seed_centres(pts, n, dim, k, init, &r, centre, w->index, w->upper);
    return lloyd(pts, n, dim, k, max_iter, label, centre, size, iterations, w);
}

static int work_alloc(struct km_work *w, const double *pts, size_t n, unsigned kmax, unsigned dim)
{
    memset(w, 0, sizeof *w);
    size_t nn = n ? n : 1;
    w->index = malloc(nn * sizeof *w->index);
    w->upper = malloc(nn * sizeof *w->upper);
    w->lower = malloc(nn * sizeof *w->lower);
    w->sum = malloc((size_t)kmax * dim * sizeof *w->sum);
    w->old = malloc((size_t)kmax * dim * sizeof *w->old);
    w->move = malloc(kmax * sizeof *w->move);
    w->half = malloc(kmax * sizeof *w->half);
    w->dirty = malloc(kmax);
    if (!w->index || !w->upper || !w->lower || !w->sum || !w->old || !w->move || !w->half || !w->dirty)
        return -1;
    w->slack = n ? extent_slack(pts, n, dim) : 0.0;
    return 0;
}

static void work_free(struct km_work *w)
{
    free(w->index);
    free(w->upper);
    free(w->lower);
    free(w->sum);
    free(w->old);
    free(w->move);
    free(w->half);
    free(w->dirty);
}

double simpoint_kmeans(const double *pts, size_t n, unsigned dim, unsigned k, enum simpoint_init init, uint64_t seed,
                       unsigned max_iter, unsigned *label, double *centre, uint64_t *size, unsigned *iterations)
{
    struct km_work w;
    double dist = -1.0;
    if (work_alloc(&w, pts, n, k, dim) == 0)
        dist = kmeans_run(pts, n, dim, k, init, seed, max_iter, label, centre, size, iterations, &w);
    work_free(&w);
    return dist;
}

double simpoint_lloyd(const double *pts, size_t n, unsigned dim, unsigned k, unsigned max_iter, unsigned *label,
                      double *centre, uint64_t *size, unsigned *iterations)
{
    struct km_work w;
    double dist = -1.0;
    if (work_alloc(&w, pts, n, k, dim) == 0)
        dist = lloyd(pts, n, dim, k, max_iter, label, centre, size, iterations, &w);
    work_free(&w);
    return dist;
}

/* ---- BIC and the choice of k -------------------------------------------- */

#define PI 3.14159265358979323846

double simpoint_bic(size_t n, unsigned dim, unsigned k, const uint64_t *size, double distortion, double var_floor)
{
    double rn = (double)n, nd = rn * dim;
    double s2 = distortion / nd;
    if (!(s2 >= var_floor))
        s2 = var_floor;
    double loglik = 0.0;
    unsigned nonempty = 0;
    for (unsigned c = 0; c < k; c++) {
        if (size[c] == 0)
            continue;
        nonempty++;
        loglik += (double)size[c] * log((double)size[c] / rn);
    }
    loglik -= nd / 2.0 * log(2.0 * PI * s2) + nd / 2.0;
    double params = (double)(nonempty - 1) + (double)nonempty * dim + 1.0;
    return loglik - params / 2.0 * log(rn);
}

unsigned simpoint_pick_k(const double *bic, unsigned nk, double threshold)
{
    double lo = bic[0], hi = bic[0];
    for (unsigned i = 1; i < nk; i++) {
        if (bic[i] < lo)
            lo = bic[i];
        if (bic[i] > hi)
            hi = bic[i];
    }
    double cut = lo + threshold * (hi - lo);
    for (unsigned i = 0; i < nk; i++)
        if (bic[i] >= cut)
            return i;
    return 0; /* not reached: the best score passes any cut in [lo, hi] */
}

/* ---- the representative windows ----------------------------------------- */

void simpoint_result_free(struct simpoint_result *r)
{
    if (!r)
        return;
    free(r->bic);
    free(r->distortion);
    free(r->iterations);
    free(r->label);
    free(r->window);
    free(r);
}

/* Clusters by size, largest first; ties by label. */
struct by_size {
    uint64_t size;
    unsigned cluster;
};

static int cmp_by_size(const void *a, const void *b)
{
    const struct by_size *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->cluster > y->cluster) - (x->cluster < y->cluster);
}

static int cmp_window(const void *a, const void *b)
{
    const struct simpoint_window *x = a, *y = b;
    return (x->slice > y->slice) - (x->slice < y->slice);
}

/* Windows of the final clustering: the slice nearest each non-empty
 * centre, the heaviest max_windows clusters when capped. */
static int make_windows(struct simpoint_result *res, const double *pts, size_t n, unsigned dim, unsigned k,
                        const double *centre, const uint64_t *size, const struct simpoint_opts *o, struct diag *d)
{
    size_t *rep = malloc(k * sizeof *rep);
    double *best = malloc(k * sizeof *best);
    struct by_size *order = malloc(k * sizeof *order);
    res->window = malloc(k * sizeof *res->window);
    int rc = -1;
    if (!rep || !best || !order || !res->window) {
        diag_error(d, NULL, 0, 0, "out of memory");
        goto out;
    }
    for (unsigned c = 0; c < k; c++) {
        rep[c] = SIZE_MAX;
        best[c] = DBL_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned c = res->label[i];
        const double *p = pts + i * dim, *q = centre + (size_t)c * dim;
        double d2 = 0.0;
        for (unsigned j = 0; j < dim; j++) {
            double t = p[j] - q[j];
            d2 += t * t;
        }
        if (rep[c] == SIZE_MAX || d2 < best[c]) {
            rep[c] = i;
            best[c] = d2;
        }
    }
    unsigned m = 0;
    for (unsigned c = 0; c < k; c++)
        if (size[c] > 0)
            order[m++] = (struct by_size){size[c], c};
    res->clusters = m;
    qsort(order, m, sizeof *order, cmp_by_size);
    unsigned keep = o->max_windows && o->max_windows < m ? o->max_windows : m;
    uint64_t kept = 0;
    for (unsigned i = 0; i < keep; i++)
        kept += order[i].size;
    for (unsigned i = 0; i < keep; i++) {
        struct simpoint_window *w = &res->window[i];
        unsigned c = order[i].cluster;
        w->slice = (uint64_t)rep[c] + o->skip_slices;
        if (o->slice_len && w->slice > UINT64_MAX / o->slice_len) {
            diag_error(d, NULL, 0, 0, "start of slice %llu overflows 64 bits (slice length %llu)",
                       (unsigned long long)w->slice, (unsigned long long)o->slice_len);
            goto out;
        }
        w->start = w->slice * o->slice_len;
        w->weight = (double)order[i].size / (double)kept;
        w->cluster_size = order[i].size;
        w->cluster = c;
    }
    res->n_windows = keep;
    res->coverage = (double)kept / (double)n;
    qsort(res->window, keep, sizeof *res->window, cmp_window);
    rc = 0;
out:
    free(rep);
    free(best);
    free(order);
    return rc;
}

int simpoint_choose(const double *pts, size_t n, unsigned dim, const struct simpoint_opts *o,
                    struct simpoint_result **out, struct diag *d)
{
    *out = NULL;
    if (simpoint_opts_check(o, d) != 0)
        return -1;
    if (n == 0) {
        diag_error(d, NULL, 0, 0, "no slices to cluster");
        return -1;
    }
    unsigned kt = o->max_k < n ? o->max_k : (unsigned)n;
    struct simpoint_result *res = calloc(1, sizeof *res);
    unsigned *label = malloc(n * sizeof *label);
    double *centre = malloc((size_t)kt * dim * sizeof *centre);
    uint64_t *size = malloc(kt * sizeof *size);
    uint64_t *best_size = malloc(kt * sizeof *best_size);
    unsigned *best_start = malloc(kt * sizeof *best_start);
    struct km_work w;
    int rc = -1;
    int ok = work_alloc(&w, pts, n, kt, dim) == 0;
    ok = ok && res && label && centre && size && best_size && best_start;
    if (ok) {
        res->bic = malloc(kt * sizeof *res->bic);
        res->distortion = malloc(kt * sizeof *res->distortion);
        res->iterations = malloc(kt * sizeof *res->iterations);
        res->label = malloc(n * sizeof *res->label);
        ok = res->bic && res->distortion && res->iterations && res->label;
    }
    if (!ok) {
        diag_error(d, NULL, 0, 0, "out of memory");
        goto done;
    }
    res->n_slices = n;
    res->skipped = o->skip_slices;
    res->k_tried = kt;

    double var_floor = DBL_MIN;
    for (unsigned k = 1; k <= kt; k++) {
        double best = DBL_MAX;
        for (unsigned s = 0; s < o->n_init; s++) {
            unsigned iters;
            double dist = kmeans_run(pts, n, dim, k, o->init, simpoint_start_seed(o->seed, k, s), o->max_iter,
                                     label, centre, size, &iters, &w);
            if (s == 0 || dist < best) {
                best = dist;
                best_start[k - 1] = s;
                res->iterations[k - 1] = iters;
                memcpy(best_size, size, k * sizeof *size);
            }
        }
        res->distortion[k - 1] = best;
        if (k == 1 && best > 0.0) {
            /* A perfect fit (zero distortion) would score +infinity; floor the
             * variance far below anything a real split reaches. */
            double v = best / ((double)n * dim) * 1e-12;
            if (v > DBL_MIN)
                var_floor = v;
        }
        res->bic[k - 1] = simpoint_bic(n, dim, k, best_size, best, var_floor);
    }
    unsigned pick = simpoint_pick_k(res->bic, kt, o->bic_threshold);
    res->k = pick + 1;
    /* redo the kept start of the chosen k (same seed, same result) */
    unsigned iters;
    kmeans_run(pts, n, dim, res->k, o->init, simpoint_start_seed(o->seed, res->k, best_start[pick]), o->max_iter,
               res->label, centre, size, &iters, &w);
    if (make_windows(res, pts, n, dim, res->k, centre, size, o, d) != 0)
        goto done;
    *out = res;
    res = NULL;
    rc = 0;
done:
    simpoint_result_free(res);
    free(label);
    free(centre);
    free(size);
    free(best_size);
    free(best_start);
    work_free(&w);
    return rc;
}

int simpoint_run(const struct bbv *b, const struct simpoint_opts *o, struct simpoint_result **out, struct diag *d)
{
    *out = NULL;
    if (simpoint_opts_check(o, d) != 0)
        return -1;
    size_t n = bbv_slices(b);
    if (o->skip_slices >= n) {
        diag_error(d, NULL, 0, 0, "skipping %llu slices leaves none to cluster (there are %zu)",
                   (unsigned long long)o->skip_slices, n);
        return -1;
    }
    size_t first = (size_t)o->skip_slices;
    double *pts = malloc((n - first) * o->dim * sizeof *pts);
    if (!pts || simpoint_project(b, first, o->dim, o->seed, pts) != 0) {
        free(pts);
        diag_error(d, NULL, 0, 0, "out of memory");
        return -1;
    }
    int rc = simpoint_choose(pts, n - first, o->dim, o, out, d);
    free(pts);
    return rc;
}
