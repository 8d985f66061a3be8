/* mh_engine.c - hash tables + accumulator profiler (see mh_engine.h). */
#include "models/shared/mh_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mh_init_count_choices[] = { "estimate", "threshold", "one", "zero", NULL };
const char *const mh_p0_mode_choices[] = { "flush", "keep", NULL };
const char *const mh_hash_choices[] = { "sec53", "multiply_shift", NULL };

struct mh_acc_entry {
    uint64_t a, b;
    uint32_t count;
    uint8_t state; /* enum mh_acc_state */
};

struct mh_engine {
    struct mh_member mb; /* first: source, interval, exact table */
    struct mh_engine_cfg cfg;

    uint32_t cmax;                    /* saturation value */
    uint32_t *counters;               /* tables * per_table */
    struct mh_hash *hash;             /* tables (sec53) */
    struct mh_fold *fold;             /* sec53, every table <= 16 bits: ceil(tables / lanes) words, else NULL */
    unsigned lanes;                   /* functions per fold word: 8 (tables of <= 8 bits) or 4 */
    uint64_t mul[MH_MAX_TABLES], add[MH_MAX_TABLES]; /* multiply_shift */

    struct mh_acc_entry *acc;
    uint32_t *free_ids;               /* stack; lowest id on top */
    uint32_t nfree, nrepl;
    struct mh_index accidx;

    struct mh_err_sum err;
    struct mh_err_interval last;
    uint64_t promotions, drops;               /* all so far */
    uint64_t promotions_closed, drops_closed; /* up to the last closed interval */
};

static inline uint32_t slot_of(const struct mh_engine *e, unsigned k, uint64_t a, uint64_t b)
{
    if (e->cfg.hash == MH_HASH_SEC53)
        return mh_hash_index(&e->hash[k], a, b);
    uint64_t h = (e->mul[k] * mh_mix(a, b) + e->add[k]) >> 32;
    return (uint32_t)((h * e->cfg.per_table) >> 32);
}

static void acc_reset_free(struct mh_engine *e)
{
    e->nfree = 0;
    e->nrepl = 0;
    for (uint32_t id = e->cfg.acc_entries; id-- > 0;) {
        if (e->acc[id].state == MH_ACC_EMPTY)
            e->free_ids[e->nfree++] = id;
        else if (e->acc[id].state == MH_ACC_REPLACEABLE)
            e->nrepl++;
    }
}

static void close_interval(struct mh_member *mb);

struct mh_engine *mh_engine_create(const struct mh_engine_cfg *cfg, const struct model_ctx *ctx)
{
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    if (cfg->tables < 1 || cfg->tables > MH_MAX_TABLES) {
        snprintf(err, errlen, "'tables' must be in [1, %d]", MH_MAX_TABLES);
        return NULL;
    }
    if (cfg->per_table < 1) {
        snprintf(err, errlen, "'counters' gives no counter per table (%u tables)", cfg->tables);
        return NULL;
    }
    if (cfg->acc_entries < 1) {
        snprintf(err, errlen, "'acc_entries' must be at least 1");
        return NULL;
    }
    struct mh_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    mh_member_init(&e->mb, ctx);
    e->cmax = cfg->counter_bits >= 32 ? UINT32_MAX : (uint32_t)((1ull << cfg->counter_bits) - 1);
    e->counters = calloc((size_t)cfg->tables * cfg->per_table, sizeof *e->counters);
    e->acc = calloc(cfg->acc_entries, sizeof *e->acc);
    e->free_ids = malloc(cfg->acc_entries * sizeof *e->free_ids);
    if (cfg->hash == MH_HASH_SEC53)
        e->hash = malloc(cfg->tables * sizeof *e->hash);
    int bad = !e->counters || !e->acc || !e->free_ids || (cfg->hash == MH_HASH_SEC53 && !e->hash);
    bad = bad || mh_index_init(&e->accidx, cfg->acc_entries) != 0;
    if (bad) {
        snprintf(err, errlen, "out of memory (interval %llu)", (unsigned long long)e->mb.iv.length);
        mh_engine_free(e);
        return NULL;
    }
    uint64_t st = cfg->seed ^ 0x5851f42d4c957f2dull;
    for (unsigned k = 0; k < cfg->tables; k++) {
        if (cfg->hash == MH_HASH_SEC53) {
            mh_hash_init(&e->hash[k], cfg->seed, k, cfg->per_table);
            if (cfg->pc_tables == MH_PC_SEPARATE)
                mh_hash_separate_pc(&e->hash[k], cfg->seed, k);
            if (cfg->byte_tables == MH_BYTES_ONE)
                mh_hash_one_table(&e->hash[k]);
        }
        e->mul[k] = splitmix64(&st) | 1u;
        e->add[k] = splitmix64(&st);
    }
    if (cfg->hash == MH_HASH_SEC53 && e->hash[0].bits <= 16) {
        /* every table has the same size: 8-bit lanes when they fit */
        unsigned lanes = e->hash[0].bits <= 8 ? 8 : 4, ng = (cfg->tables + lanes - 1) / lanes;
        e->lanes = lanes;
        e->fold = malloc(ng * sizeof *e->fold);
        if (!e->fold) {
            mh_engine_free(e);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        for (unsigned g = 0; g < ng; g++) {
            unsigned n = cfg->tables - lanes * g < lanes ? cfg->tables - lanes * g : lanes;
            mh_fold_init(&e->fold[g], e->hash + lanes * g, n, 64 / lanes); /* cannot fail: bits <= the lane */
        }
    }
    acc_reset_free(e);
    return e;
}

void mh_engine_cfg_paper(const struct param_values *pv, unsigned tables, uint32_t counters, struct mh_engine_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->tables = tables;
    c->per_table = counters / tables;
    c->counter_bits = (unsigned)pv_int(pv, "counter_bits");
    c->acc_entries = (uint32_t)pv_int(pv, "acc_entries");
    if (c->acc_entries == 0)
        c->acc_entries = mh_default_acc_entries(pv_real(pv, "threshold"));
    c->reset = pv_bool(pv, "reset");
    c->retain = pv_bool(pv, "retain");
    c->p0_mode = pv_enum(pv, "p0_mode");
    c->shielding = pv_bool(pv, "shielding");
    c->init_count = pv_enum(pv, "init_count");
    c->hash = MH_HASH_SEC53;
    c->seed = (uint64_t)pv_int(pv, "seed");
    c->pc_tables = pv_enum(pv, "pc_tables");
    c->byte_tables = pv_enum(pv, "byte_tables");
    c->count_first = pv_bool(pv, "count_first");
    uint64_t cb = mh_counter_bytes(c->counter_bits);
    c->memory_bytes = (uint64_t)c->tables * c->per_table * cb +
                      c->acc_entries * ((uint64_t)pv_int(pv, "tag_bytes") + cb);
    c->score = pv_bool(pv, "score");
}

void mh_engine_free(void *m)
{
    struct mh_engine *e = m;
    if (!e)
        return;
    free(e->counters);
    free(e->hash);
    free(e->fold);
    free(e->acc);
    free(e->free_ids);
    mh_index_free(&e->accidx);
    free(e);
}

static inline void acc_hit(struct mh_engine *e, struct mh_acc_entry *x)
{
    if (x->count < e->cmax)
        x->count++;
    if (x->state == MH_ACC_REPLACEABLE && x->count >= e->mb.iv.T) {
        x->state = MH_ACC_LOCKED;
        e->nrepl--;
    }
}

/* Loop-invariant configuration, copied to locals by engine_tuples so the
 * compiler keeps it in registers (counter stores could alias the fields). */
struct hot {
    uint32_t *c;
    const struct mh_fold *fold;
    uint32_t per_table, cmax;
    uint64_t T;
    bool conservative, shielding;
};

/* Global counter indices (k * per_table + slot) of a tuple in the n tables.
 * n and L (functions per fold word) are compile-time constants in the
 * specialised callers below. */
static inline __attribute__((always_inline)) void slots_of(const struct mh_engine *e, const struct hot *h, uint64_t a,
                                                           uint64_t b, uint32_t *slots, unsigned n, unsigned L)
{
    if (h->fold) {
        /* the table offset added here, not in a second pass: a vector load of
         * slots[] just stored one by one would stall on store forwarding */
        for (unsigned g = 0; L * g < n; g++) {
            uint64_t w = mh_fold_word(&h->fold[g], a, b);
            for (unsigned k = L * g; k < n && k < L * g + L; k++)
                slots[k] = mh_fold_lane_w(&h->fold[g], w, k - L * g, 64 / L) + k * h->per_table;
        }
        return;
    }
    if (e->cfg.hash == MH_HASH_MULTIPLY_SHIFT) {
        uint64_t x = mh_mix(a, b); /* slot_of's input, once for all rows */
        for (unsigned k = 0; k < n; k++)
            slots[k] = (uint32_t)((((e->mul[k] * x + e->add[k]) >> 32) * h->per_table) >> 32) + k * h->per_table;
    } else {
        for (unsigned k = 0; k < n; k++)
            slots[k] = slot_of(e, k, a, b) + k * h->per_table;
    }
}

/* Update the tuple's counters; slots[] receives the global counter indices.
 * Returns the estimate (min over tables) after the update. */
static inline __attribute__((always_inline)) uint32_t update_counters(const struct hot *h, const uint32_t *slots,
                                                                      unsigned n)
{
    uint32_t *c = h->c;
    uint32_t v[MH_MAX_TABLES];
    uint32_t min = UINT32_MAX;
    for (unsigned k = 0; k < n; k++) {
        v[k] = c[slots[k]];
        min = v[k] < min ? v[k] : min;
    }
    if (min >= h->cmax)
        return min;
    if (h->conservative) {
        /* only the smallest counters grow; every tie grows (branch-free:
         * the tables' slots are distinct counters) */
        for (unsigned k = 0; k < n; k++)
            c[slots[k]] = v[k] + (v[k] == min);
        return min + 1;
    }
    min = UINT32_MAX;
    for (unsigned k = 0; k < n; k++) {
        uint32_t x = v[k] + (v[k] < h->cmax);
        c[slots[k]] = x;
        min = x < min ? x : min;
    }
    return min;
}

static uint32_t sketch_estimate(const struct mh_engine *e, uint64_t a, uint64_t b)
{
    uint32_t min = UINT32_MAX;
    for (unsigned k = 0; k < e->cfg.tables; k++) {
        uint32_t v = e->counters[k * e->cfg.per_table + slot_of(e, k, a, b)];
        if (v < min)
            min = v;
    }
    return min;
}

static void promote(struct mh_engine *e, uint64_t a, uint64_t b, uint32_t est, const uint32_t *slots)
{
    uint32_t id;
    if (e->nfree) {
        id = e->free_ids[--e->nfree];
    } else if (e->nrepl) {
        uint32_t best = UINT32_MAX;
        id = 0;
        for (uint32_t k = 0; k < e->cfg.acc_entries; k++)
            if (e->acc[k].state == MH_ACC_REPLACEABLE && e->acc[k].count < best) {
                best = e->acc[k].count;
                id = k;
            }
        mh_index_remove(&e->accidx, e->acc[id].a, e->acc[id].b);
        e->nrepl--;
    } else {
        e->drops++;
        return;
    }
    struct mh_acc_entry *x = &e->acc[id];
    x->a = a;
    x->b = b;
    x->state = MH_ACC_LOCKED;
    switch (e->cfg.init_count) {
    case MH_INIT_ESTIMATE: x->count = est; break;
    case MH_INIT_THRESHOLD: x->count = (uint32_t)(e->mb.iv.T < e->cmax ? e->mb.iv.T : e->cmax); break;
    case MH_INIT_ONE: x->count = 1; break;
    default: x->count = 0; break;
    }
    mh_index_insert(&e->accidx, a, b, (int32_t)id);
    e->promotions++;
    if (e->cfg.reset)
        for (unsigned k = 0; k < e->cfg.tables; k++)
            e->counters[slots[k]] = 0;
}

/* One tuple.  slots: its counter slots computed already (PF_AHEAD), or
 * NULL: computed here when the tuple updates the counters. */
static inline __attribute__((always_inline)) void engine_tuple(struct mh_engine *e, const struct hot *h, uint64_t a,
                                                               uint64_t b, const uint32_t *slots, unsigned n, unsigned L)
{
    int32_t id = mh_index_find(&e->accidx, a, b);
    if (id >= 0 && h->shielding) {
        acc_hit(e, &e->acc[id]);
        return;
    }
    uint32_t own[MH_MAX_TABLES];
    if (!slots) {
        slots_of(e, h, a, b, own, n, L);
        slots = own;
    }
    uint32_t est = update_counters(h, slots, n);
    if (id >= 0) {
        acc_hit(e, &e->acc[id]);
        return;
    }
    if (est >= h->T)
        promote(e, a, b, est, slots);
}

/* Counters that crowd the L1 cache: the counter slots of a tuple are
 * computed PF_AHEAD tuples before its update and its counters requested,
 * so that the misses of several tuples overlap - at the price of hashing
 * the tuples that the accumulator shields too, which only pays with two
 * to four tables (one table's single index is cheap enough to wait for).
 * Which counters an update touches, and in which order, is the same. */
#define PF_AHEAD 4
#define PF_MIN_BYTES 4096
#define PF_MAX_TABLES 4
static inline __attribute__((always_inline)) void ahead(const struct mh_engine *e, const struct hot *h, uint64_t a,
                                                        uint64_t b, uint32_t *slots, unsigned n, unsigned L)
{
    slots_of(e, h, a, b, slots, n, L);
    for (unsigned k = 0; k < n; k++)
        __builtin_prefetch(&h->c[slots[k]], 1);
}

static void engine_tuples(struct mh_member *mb, const struct mh_tuple *t, size_t n)
{
    struct mh_engine *e = (struct mh_engine *)mb;
    const struct hot h = { e->counters, e->fold,         e->cfg.per_table,   e->cmax,
                           e->mb.iv.T,  e->cfg.conservative, e->cfg.shielding };
    const int pf = e->cfg.tables >= 2 && e->cfg.tables <= PF_MAX_TABLES &&
                   (uint64_t)e->cfg.tables * e->cfg.per_table * sizeof *e->counters >= PF_MIN_BYTES;
    /* one copy of the loop per common table count and fold width, so the
     * per-table loops unroll */
#define TUPLES(N, L)                                                                      \
    do {                                                                                  \
        if (!pf) {                                                                        \
            for (size_t i = 0; i < n; i++)                                                \
                engine_tuple(e, &h, t[i].a, t[i].b, NULL, N, L);                          \
            break;                                                                        \
        }                                                                                 \
        uint32_t ring[PF_AHEAD][MH_MAX_TABLES];                                           \
        for (size_t j = 0; j < n && j < PF_AHEAD; j++)                                    \
            ahead(e, &h, t[j].a, t[j].b, ring[j], N, L);                                  \
        for (size_t i = 0; i < n; i++) {                                                  \
            uint32_t *sl = ring[i % PF_AHEAD];                                            \
            engine_tuple(e, &h, t[i].a, t[i].b, sl, N, L);                                \
            if (i + PF_AHEAD < n)                                                         \
                ahead(e, &h, t[i + PF_AHEAD].a, t[i + PF_AHEAD].b, sl, N, L);             \
        }                                                                                 \
    } while (0)
#define TUPLES_N(N)        \
    do {                   \
        if (e->lanes == 8) \
            TUPLES(N, 8);  \
        else               \
            TUPLES(N, 4);  \
    } while (0)
    switch (e->cfg.tables) {
    case 1:
        TUPLES_N(1);
        break;
    case 2:
        TUPLES_N(2);
        break;
    case 4:
        TUPLES_N(4);
        break;
    case 8:
        TUPLES_N(8);
        break;
    case 16:
        TUPLES_N(16);
        break;
    default:
        TUPLES_N(e->cfg.tables);
        break;
    }
#undef TUPLES_N
#undef TUPLES
}

static void close_interval(struct mh_member *mb)
{
    struct mh_engine *e = (struct mh_engine *)mb;
    uint64_t T = e->mb.iv.T;
    struct mh_exact_table *exact = e->mb.exact;
    struct mh_err_interval it;
    mh_err_begin(&it);
    for (uint32_t id = 0; id < e->cfg.acc_entries; id++) {
        struct mh_acc_entry *x = &e->acc[id];
        if (x->state == MH_ACC_EMPTY)
            continue;
        if (e->cfg.sketch_counts)
            x->count = sketch_estimate(e, x->a, x->b);
        if (x->count >= T && exact)
            mh_err_hw(&it, exact, x->a, x->b, x->count, T);
    }
    if (exact) {
        mh_err_end(&it, exact, T);
        if (e->cfg.count_first || e->mb.iv.index > 0)
            mh_err_add(&e->err, &it);
        e->last = it;
        mh_err_series(e->mb.out, 0, e->mb.iv.index, &it);
    }
    /* Rates are per closed interval: a dropped partial tail does not count. */
    e->promotions_closed = e->promotions;
    e->drops_closed = e->drops;
    e->mb.iv.index++;
    e->mb.iv.pos = 0;

    memset(e->counters, 0, (size_t)e->cfg.tables * e->cfg.per_table * sizeof *e->counters);
    for (uint32_t id = 0; id < e->cfg.acc_entries; id++) {
        struct mh_acc_entry *x = &e->acc[id];
        if (x->state == MH_ACC_EMPTY)
            continue;
        bool keep = e->cfg.retain ? x->count >= T : e->cfg.p0_mode == MH_P0_KEEP;
        if (keep) {
            x->count = 0;
            x->state = MH_ACC_REPLACEABLE;
        } else {
            mh_index_remove(&e->accidx, x->a, x->b);
            x->state = MH_ACC_EMPTY;
            x->count = 0;
        }
    }
    acc_reset_free(e);
}

void mh_engine_plan(const struct param_values *pv, struct plan *p) { mh_member_plan(pv, p, pv_bool(pv, "score")); }

void mh_engine_feed(void *m, const void *recs, size_t n)
{
    struct mh_engine *e = m;
    mh_member_begin(&e->mb, n);
    engine_tuples(&e->mb, recs, n);
    mh_member_end(&e->mb, n);
}

void mh_engine_mark(void *m, uint32_t mark)
{
    (void)mark;
    close_interval(m);
}

void mh_engine_finish(void *m)
{
    struct mh_engine *e = m;
    mh_member_finish(&e->mb, close_interval);
}

const struct metric_spec mh_engine_metrics[] = { MH_ENGINE_METRICS, METRIC_END };

void mh_engine_report(void *m, struct model_out *o)
{
    double v[MH_ENGINE_NMETRICS];
    mh_engine_values(m, v);
    for (size_t i = 0; i < MH_ENGINE_NMETRICS; i++)
        out_metric(o, i, v[i]);
}

void mh_engine_values(const void *m, double *out)
{
    const struct mh_engine *e = m;
    mh_err_report(&e->err, &e->mb.src, out);
    double n = (double)e->err.intervals;
    if (!e->mb.exact) { /* score = false: hardware only */
        n = (double)e->mb.iv.index;
        out[6] = n;
    }
    out[MH_ERR_NMETRICS + 0] = n > 0 ? (double)e->promotions_closed / n : NAN;
    out[MH_ERR_NMETRICS + 1] = (double)e->drops_closed;
    out[MH_ERR_NMETRICS + 2] = (double)e->cfg.memory_bytes;
    out[MH_ERR_NMETRICS + 3] = (double)e->mb.iv.T;
}

uint32_t mh_engine_index(const struct mh_engine *e, unsigned k, uint64_t a, uint64_t b) { return slot_of(e, k, a, b); }

uint32_t mh_engine_counter(const struct mh_engine *e, unsigned k, uint32_t slot)
{
    return e->counters[k * e->cfg.per_table + slot];
}

int mh_engine_acc(const struct mh_engine *e, uint64_t a, uint64_t b, uint32_t *count)
{
    int32_t id = mh_index_find(&e->accidx, a, b);
    if (id < 0) {
        *count = 0;
        return MH_ACC_EMPTY;
    }
    *count = e->acc[id].count;
    return e->acc[id].state;
}

uint32_t mh_engine_acc_used(const struct mh_engine *e) { return e->cfg.acc_entries - e->nfree; }
const struct mh_err_interval *mh_engine_last(const struct mh_engine *e) { return &e->last; }
uint64_t mh_engine_T(const struct mh_engine *e) { return e->mb.iv.T; }
