/* mh_common.c - shared pieces of the multi-hash paper models (see mh_common.h). */
#include "families/mh_common.h"
#include "trace/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const mh_stream_choices[] = { "values", "edges", NULL };

unsigned mh_trace_needs(const struct param_values *pv)
{
    return pv_enum(pv, "stream") == MH_STREAM_VALUES ? TRF_HAS_VALUES : TRF_HAS_BRANCHES;
}
const char *const mh_edges_choices[] = { "cond", "cond_taken", "all", NULL };

uint64_t mh_candidate_count(uint64_t length, double threshold)
{
    double t = ceil(threshold * (double)length - 1e-9);
    return t < 1.0 ? 1u : (uint64_t)t;
}

uint32_t mh_default_acc_entries(double threshold)
{
    double n = ceil(1.0 / threshold - 1e-9);
    return n < 1.0 ? 1u : (uint32_t)n;
}

void mh_read_common(const struct param_values *pv, struct mh_source *src, struct mh_interval *iv)
{
    memset(src, 0, sizeof *src);
    memset(iv, 0, sizeof *iv);
    src->stream = pv_enum(pv, "stream");
    src->edges = pv_enum(pv, "edges");
    iv->length = (uint64_t)pv_int(pv, "interval");
    iv->threshold = pv_real(pv, "threshold");
    iv->partial = pv_bool(pv, "partial");
    iv->T = mh_candidate_count(iv->length, iv->threshold);
}

/* ---- hash ---------------------------------------------------------------- */

void mh_hash_init(struct mh_hash *h, uint64_t seed, unsigned which, uint32_t size)
{
    /* The state depends on (seed, which) only, so function k of a seed is
     * the same in every model. */
    uint64_t st = seed * 0xd1342543de82ef95ull + (uint64_t)which * 0x2545f4914f6cdd1dull + 1;
    for (unsigned p = 0; p < 8; p++)
        for (unsigned v = 0; v < 256; v += 8) {
            uint64_t r = splitmix64(&st);
            for (unsigned k = 0; k < 8; k++)
                h->rnd[p][v + k] = (uint8_t)(r >> (8 * k));
        }
    memcpy(h->rnd_pc, h->rnd, sizeof h->rnd_pc);
    h->size = size ? size : 1;
    unsigned bits = 1;
    while (bits < 32 && (1ull << bits) < h->size)
        bits++;
    h->bits = bits;
}

const char *const mh_pc_tables_choices[] = { "shared", "separate", NULL };
const char *const mh_byte_tables_choices[] = { "one", "per_byte", NULL };

void mh_hash_one_table(struct mh_hash *h)
{
    for (unsigned p = 1; p < 8; p++) {
        memcpy(h->rnd[p], h->rnd[0], sizeof h->rnd[0]);
        memcpy(h->rnd_pc[p], h->rnd_pc[0], sizeof h->rnd_pc[0]);
    }
}

void mh_hash_separate_pc(struct mh_hash *h, uint64_t seed, unsigned which)
{
    /* The start state is a hash of (seed, which): with a linear start such
     * as seed * 0x9e3779b97f4a7c15 (splitmix64's own step) the stream of
     * seed s + 1 would be that of seed s shifted by one draw. */
    uint64_t st = seed ^ 0x165667b19e3779f9ull;
    st = splitmix64(&st) ^ (uint64_t)which * 0xc2b2ae3d27d4eb4full;
    st = splitmix64(&st);
    for (unsigned p = 0; p < 8; p++)
        for (unsigned v = 0; v < 256; v += 8) {
            uint64_t r = splitmix64(&st);
            for (unsigned k = 0; k < 8; k++)
                h->rnd_pc[p][v + k] = (uint8_t)(r >> (8 * k));
        }
}

int mh_fold_init(struct mh_fold *f, const struct mh_hash *h, unsigned n, unsigned lane)
{
    if ((lane != 8 && lane != 16) || n < 1 || n > 64 / lane)
        return -1;
    for (unsigned k = 0; k < n; k++)
        if (h[k].bits > lane)
            return -1;
    memset(f, 0, sizeof *f);
    f->n = n;
    f->lane = lane;
    for (unsigned k = 0; k < n; k++) {
        f->size[k] = h[k].size;
        for (unsigned i = 0; i < 8; i++)
            for (unsigned v = 0; v < 256; v++) {
                uint64_t rp = h[k].rnd_pc[i][v], rv = h[k].rnd[i][v];
                f->pc[i][v] |= (uint64_t)mh_xor_fold(rp << (8 * (7 - i)), h[k].bits) << (lane * k);
                f->val[i][v] |= (uint64_t)mh_xor_fold(rv << (8 * i), h[k].bits) << (lane * k);
            }
    }
    f->one = true;
    for (unsigned k = 0; k < n; k++) {
        f->one = f->one && h[k].bits == h[0].bits;
        for (unsigned i = 1; i < 8; i++)
            f->one = f->one && !memcmp(h[k].rnd[i], h[k].rnd[0], 256) && !memcmp(h[k].rnd_pc[i], h[k].rnd_pc[0], 256);
    }
    if (!f->one)
        return 0;
    unsigned b = h[0].bits;
    uint64_t lanes_b = 0, bit0 = 0; /* b low bits / bit 0 of every lane */
    for (unsigned k = 0; k < 64 / lane; k++) {
        lanes_b |= ((1ull << b) - 1) << (lane * k);
        bit0 |= 1ull << (lane * k);
    }
    f->bits = b;
    f->norot = true;
    for (unsigned j = 0; j < 8; j++) {
        f->rot[j] = (8 * j) % b;
        f->lo[j] = bit0 * ((1ull << f->rot[j]) - 1);
        f->hi[j] = lanes_b & ~f->lo[j];
        f->norot = f->norot && f->rot[j] == 0;
    }
    for (unsigned k = 0; k < n; k++)
        for (unsigned v = 0; v < 256; v++) {
            f->pc1[v] |= (uint64_t)mh_xor_fold(h[k].rnd_pc[0][v], b) << (lane * k);
            f->val1[v] |= (uint64_t)mh_xor_fold(h[k].rnd[0][v], b) << (lane * k);
        }
    return 0;
}

/* ---- mh_index -------------------------------------------------------------- */

int mh_index_init(struct mh_index *x, size_t max_ids)
{
    size_t n = 16;
    while (n < 2 * max_ids + 2)
        n <<= 1;
    /* keys first: the widest alignment */
    char *block = malloc(n * (sizeof *x->key + sizeof *x->id + sizeof *x->tag));
    if (!block)
        return -1;
    x->key = (struct mh_index_key *)block;
    x->id = (int32_t *)(block + n * sizeof *x->key);
    x->tag = (uint16_t *)(block + n * (sizeof *x->key + sizeof *x->id));
    x->mask = n - 1;
    mh_index_clear(x);
    return 0;
}

void mh_index_free(struct mh_index *x)
{
    free(x->key);
    x->key = NULL;
    x->id = NULL;
    x->tag = NULL;
}

void mh_index_clear(struct mh_index *x)
{
    memset(x->tag, 0, (x->mask + 1) * sizeof *x->tag);
    x->live = 0;
}

void mh_index_insert(struct mh_index *x, uint64_t a, uint64_t b, int32_t id)
{
    uint64_t h = mh_index_hash(a, b), i = h & x->mask;
    while (x->tag[i] != 0)
        i = (i + 1) & x->mask;
    x->tag[i] = mh_index_tag(h);
    x->key[i].a = a;
    x->key[i].b = b;
    x->id[i] = id;
    x->live++;
}

void mh_index_remove(struct mh_index *x, uint64_t a, uint64_t b)
{
    uint64_t h = mh_index_hash(a, b), i = h & x->mask;
    uint16_t t = mh_index_tag(h);
    for (;;) {
        if (x->tag[i] == 0)
            return;
        if (x->tag[i] == t && x->key[i].a == a && x->key[i].b == b)
            break;
        i = (i + 1) & x->mask;
    }
    /* Backward-shift deletion keeps every probe chain unbroken. */
    uint64_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & x->mask;
        if (x->tag[j] == 0)
            break;
        uint64_t home = mh_index_hash(x->key[j].a, x->key[j].b) & x->mask;
        /* move slot j into the hole unless its home lies cyclically in (hole, j] */
        bool stays = (hole <= j) ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            x->tag[hole] = x->tag[j];
            x->key[hole] = x->key[j];
            x->id[hole] = x->id[j];
            hole = j;
        }
    }
    x->tag[hole] = 0;
    x->live--;
}

/* ---- mh_exact_table ------------------------------------------------------- */

int mh_exact_init(struct mh_exact_table *t, size_t max_distinct)
{
    size_t n = 16;
    while (n * 3 < max_distinct * 4 + 4)
        n <<= 1;
    t->slots = calloc(n, sizeof *t->slots);
    t->used = malloc((max_distinct + 1) * sizeof *t->used);
    if (!t->slots || !t->used) {
        mh_exact_free(t);
        return -1;
    }
    t->mask = n - 1;
    t->nused = 0;
    t->cap = max_distinct + 1;
    t->stamp = 1;
    return 0;
}

void mh_exact_free(struct mh_exact_table *t)
{
    free(t->slots);
    free(t->used);
    t->slots = NULL;
    t->used = NULL;
}

void mh_exact_clear(struct mh_exact_table *t)
{
    for (size_t k = 0; k < t->nused; k++) {
        struct mh_exact_slot *s = &t->slots[t->used[k]];
        s->count = 0;
        s->mark = 0;
    }
    t->nused = 0;
}

/* mh_exact_add with the home slot i = mh_mix(a, b) & mask already computed. */
static inline struct mh_exact_slot *exact_add_at(struct mh_exact_table *t, uint64_t i, uint64_t a, uint64_t b,
                                                 uint32_t inc)
{
    for (;;) {
        struct mh_exact_slot *s = &t->slots[i];
        if (s->count == 0) {
            if (t->nused >= t->cap) /* caller broke its bound: drop, never overflow */
                return s;
            s->a = a;
            s->b = b;
            s->count = inc;
            s->mark = 0;
            t->used[t->nused++] = (uint32_t)i;
            return s;
        }
        if (s->a == a && s->b == b) {
            s->count += inc;
            return s;
        }
        i = (i + 1) & t->mask;
    }
}

struct mh_exact_slot *mh_exact_add(struct mh_exact_table *t, uint64_t a, uint64_t b, uint32_t inc)
{
    return exact_add_at(t, mh_mix(a, b) & t->mask, a, b, inc);
}

void mh_exact_add_tuples(struct mh_exact_table *t, const struct mh_tuple *tu, size_t n)
{
    /* Home slots are computed and prefetched D tuples ahead: a large table
     * (2 x interval slots) misses the cache on most cold tuples. */
    enum { D = 16 };
    uint64_t home[D];
    for (size_t k = 0; k < n && k < D; k++) {
        home[k] = mh_mix(tu[k].a, tu[k].b) & t->mask;
        __builtin_prefetch(&t->slots[home[k]], 1, 1);
    }
    for (size_t k = 0; k < n; k++) {
        uint64_t i = home[k % D];
        if (k + D < n) {
            uint64_t j = mh_mix(tu[k + D].a, tu[k + D].b) & t->mask;
            home[k % D] = j;
            __builtin_prefetch(&t->slots[j], 1, 1);
        }
        exact_add_at(t, i, tu[k].a, tu[k].b, 1);
    }
}

struct mh_exact_slot *mh_exact_find(const struct mh_exact_table *t, uint64_t a, uint64_t b)
{
    uint64_t i = mh_mix(a, b) & t->mask;
    for (;;) {
        struct mh_exact_slot *s = &t->slots[i];
        if (s->count == 0)
            return NULL;
        if (s->a == a && s->b == b)
            return s;
        i = (i + 1) & t->mask;
    }
}

/* ---- error -------------------------------------------------------------------- */

void mh_err_begin(struct mh_err_interval *it) { memset(it, 0, sizeof *it); }

void mh_err_hw(struct mh_err_interval *it, struct mh_exact_table *exact, uint64_t a, uint64_t b, uint64_t fh, uint64_t T)
{
    struct mh_exact_slot *s = mh_exact_find(exact, a, b);
    uint64_t fp = 0;
    if (s) {
        fp = s->count;
        s->mark = exact->stamp;
    }
    it->hw_candidates++;
    it->denom += (double)fp;
    if (fp >= T) {
        if (fh > fp)
            it->part[MH_NP] += (double)(fh - fp);
        else
            it->part[MH_NN] += (double)(fp - fh);
    } else {
        it->part[MH_FP] += (double)(fh > fp ? fh - fp : fp - fh);
    }
}

void mh_err_end(struct mh_err_interval *it, struct mh_exact_table *exact, uint64_t T)
{
    for (size_t k = 0; k < exact->nused; k++) {
        const struct mh_exact_slot *s = &exact->slots[exact->used[k]];
        if (s->count < T)
            continue;
        it->true_candidates++;
        if (s->mark != exact->stamp) { /* missed by the hardware: f_h = 0 */
            it->part[MH_FN] += (double)s->count;
            it->denom += (double)s->count;
        }
    }
    it->distinct = exact->nused;
    if (++exact->stamp == 0) { /* wrapped: no mark may equal a future stamp */
        for (size_t k = 0; k < exact->nused; k++)
            exact->slots[exact->used[k]].mark = 0;
        exact->stamp = 1;
    }
    /* An interval with no candidate anywhere has no error; the max(.,1)
     * guard only matters for a reported tuple that never occurred. */
    double d = it->denom > 0 ? it->denom : 1.0;
    it->error = 0;
    for (int p = 0; p < MH_ERR_PARTS; p++) {
        it->part[p] = 100.0 * it->part[p] / d;
        it->error += it->part[p];
    }
}

void mh_err_add(struct mh_err_sum *s, const struct mh_err_interval *it)
{
    s->intervals++;
    s->error += it->error;
    for (int p = 0; p < MH_ERR_PARTS; p++)
        s->part[p] += it->part[p];
    if (it->error > s->max_error)
        s->max_error = it->error;
    s->hw_candidates += (double)it->hw_candidates;
    s->true_candidates += (double)it->true_candidates;
    s->distinct += (double)it->distinct;
}

void mh_err_report(const struct mh_err_sum *s, const struct mh_source *src, double *out)
{
    double n = (double)s->intervals;
    if (s->intervals == 0) {
        for (int k = 0; k < 6; k++)
            out[k] = NAN;
        out[6] = 0;
        out[7] = (double)src->tuples;
        out[8] = out[9] = out[10] = NAN;
        out[11] = (double)src->skipped_loads;
        return;
    }
    out[0] = s->error / n;
    out[1] = s->part[MH_FP] / n;
    out[2] = s->part[MH_FN] / n;
    out[3] = s->part[MH_NP] / n;
    out[4] = s->part[MH_NN] / n;
    out[5] = s->max_error;
    out[6] = n;
    out[7] = (double)src->tuples;
    out[8] = s->true_candidates / n;
    out[9] = s->hw_candidates / n;
    out[10] = s->distinct / n;
    out[11] = (double)src->skipped_loads;
}

static const struct col_spec mh_err_series_cols[] = { MH_ERR_SERIES, COL_END };
const struct table_spec mh_err_tables[] = { TABLE("series", "per-interval error", mh_err_series_cols), TABLE_END };

void mh_err_series(struct model_out *o, size_t table, uint64_t interval, const struct mh_err_interval *it)
{
    union cell row[1 + MH_ERR_NSERIES];
    row[0].i = (int64_t)interval;
    row[1].r = it->error;
    row[2].r = it->part[MH_FP];
    row[3].r = it->part[MH_FN];
    row[4].r = it->part[MH_NP];
    row[5].r = it->part[MH_NN];
    row[6].r = (double)it->true_candidates;
    row[7].r = (double)it->hw_candidates;
    out_row(o, table, row);
}
