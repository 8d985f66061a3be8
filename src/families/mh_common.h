/* mh_common.h - shared pieces of the multi-hash paper models
 * (Narayanasamy et al., "Catching Accurate Profiles in Hardware", HPCA 2003):
 *
 *   - tuple streams: <load pc, loaded value> and <branch pc, next pc>
 *   - interval bookkeeping (interval length in tuples, candidate threshold T)
 *   - the hash function of section 5.3 (randomize / flip / xor-fold)
 *   - mh_index: open-addressing map tuple -> small id (the "CAM" of an
 *     associative table)
 *   - mh_exact_table: exact per-interval tuple counts (the perfect profiler)
 *   - mh_err: error formula (1) split into the four categories of Figure 3
 *
 * Everything is sized at create time; nothing here allocates after *_init.
 * Interpretation choices are listed in paper-repro.md (section "Multi-hash").
 */
#ifndef MH_COMMON_H
#define MH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/mix64.h"
#include "core/params.h"
#include "run/model.h"
#include "trace/event.h"

/* ---- tuple streams ----------------------------------------------------- */

enum mh_stream { MH_STREAM_VALUES = 0, MH_STREAM_EDGES = 1 };
/* Which control transfers make edge tuples. */
enum mh_edges {
    MH_EDGES_COND = 0,       /* conditional branches: <pc, taken ? target : fall-through> */
    MH_EDGES_COND_TAKEN = 1, /* taken conditional branches only: <pc, target> */
    MH_EDGES_ALL = 2         /* conditional + calls + returns + indirect jumps */
};
extern const char *const mh_stream_choices[]; /* "values", "edges" */
/* model_ops.trace_needs of every model with a "stream" parameter: load values
 * for value tuples, control flow for edge tuples. */
unsigned mh_trace_needs(const struct param_values *pv);
extern const char *const mh_edges_choices[];  /* "cond", "cond_taken", "all" */

/* Event kinds any multihash model may use (the runner skips the rest). */
#define MH_EVENT_MASK (EV_BIT(EV_LOAD) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP))

struct mh_tuple {
    uint64_t a, b;
};

struct mh_source {
    int stream;              /* enum mh_stream */
    int edges;               /* enum mh_edges */
    uint64_t tuples;         /* tuples produced so far */
    uint64_t skipped_loads;  /* EV_LOAD with EVF_NOVALUE (skipped, counted) */
};

/* Tuple of event e, if it makes one: returns 1 and sets *a, *b. */
static inline int mh_tuple_of(struct mh_source *s, const struct event *e, uint64_t *a, uint64_t *b)
{
    if (s->stream == MH_STREAM_VALUES) {
        if (e->kind != EV_LOAD)
            return 0;
        if (e->flags & EVF_NOVALUE) {
            s->skipped_loads++;
            return 0;
        }
        *a = e->pc;
        *b = e->value;
        return 1;
    }
    switch (e->kind) {
    case EV_BRANCH:
        if (s->edges == MH_EDGES_COND_TAKEN && !e->taken)
            return 0;
        *a = e->pc;
        *b = e->taken ? e->addr : e->value;
        return 1;
    case EV_CALL:
    case EV_RET:
    case EV_IJUMP:
        if (s->edges != MH_EDGES_ALL)
            return 0;
        *a = e->pc;
        *b = e->addr;
        return 1;
    default:
        return 0;
    }
}

/* ---- interval bookkeeping --------------------------------------------- */

struct mh_interval {
    uint64_t length;       /* tuples per interval */
    double threshold;      /* fraction of the interval */
    uint64_t T;            /* candidate count: a tuple is a candidate when count >= T */
    bool partial;          /* close the last, partial interval at finish() */
    uint64_t pos;          /* tuples seen in the current interval */
    uint64_t index;        /* intervals closed so far */
};

/* T = ceil(threshold * length) (at least 1).  A tiny epsilon keeps 0.01 *
 * 10000 at exactly 100 despite binary rounding. */
uint64_t mh_candidate_count(uint64_t length, double threshold);
/* Default accumulator size: ceil(1 / threshold) entries (100 for 1%). */
uint32_t mh_default_acc_entries(double threshold);

/* Shared parameter-table rows.  Every multihash model declares these first,
 * in this order, so that CSV columns line up across models. */
#define MH_PARAMS_STREAM                                                                                 \
    P_ENUM("stream", 0, mh_stream_choices,                                                               \
           "tuple stream: values = <load pc, loaded value> per load; edges = <branch pc, next pc>"),     \
    P_ENUM("edges", 0, mh_edges_choices,                                                                 \
           "edge tuples from: cond = conditional branches (taken target or fall-through), "              \
           "cond_taken = taken conditional branches only, all = also calls, returns, indirect jumps"),   \
    P_INT("interval", 10000, 1, 10000000, "profile interval length in tuples"),                          \
    P_REAL("threshold", 0.01, 1e-5, 1,                                                                   \
           "candidate threshold as a fraction of the interval (T = ceil(threshold * interval) tuples)"), \
    P_BOOL("partial", 0, "also evaluate the last, partial interval at end of trace")

/* Last row of every hardware model's table (singlehash, multihash, cms_cu):
 * score = false drops the exact profile (error metrics NaN), so a
 * benchmark measures the hardware structure alone. */
#define MH_PARAM_SCORE                                                                                                \
    P_BOOL("score", 1,                                                                                                \
           "keep the exact per-interval profile and score each interval (false: hardware only, error metrics empty)")

/* Reads stream/edges/interval/threshold/partial. */
void mh_read_common(const struct param_values *pv, struct mh_source *src, struct mh_interval *iv);

/* ---- section 5.3 hash function ----------------------------------------- */

/* index = xor-fold(flip(randomize(pc)) xor randomize(value), bits) mod size.
 * randomize substitutes every byte through a 256-entry random byte table
 * (one table per byte position); flip reverses the 8 bytes.  Independent
 * functions come from independently seeded tables.  The paper's reading
 * (default) uses the same tables for pc and value; mh_hash_separate_pc draws
 * the pc's tables independently (the pc_tables parameter). */
struct mh_hash {
    uint8_t rnd[8][256];    /* random byte for (byte position, byte value) */
    uint8_t rnd_pc[8][256]; /* the same for the pc: a copy of rnd unless separate */
    unsigned bits;          /* ceil(log2(size)), at least 1 */
    uint32_t size;
};
/* Function number `which` derived from `seed` (splitmix64 stream); pc and
 * value share their tables. */
void mh_hash_init(struct mh_hash *h, uint64_t seed, unsigned which, uint32_t size);
/* Redraw the pc's tables of function `which` from a stream independent of
 * the value's (the value's tables are unchanged). */
void mh_hash_separate_pc(struct mh_hash *h, uint64_t seed, unsigned which);
/* pc_tables parameter values. */
enum mh_pc_tables { MH_PC_SHARED = 0, MH_PC_SEPARATE = 1 };
extern const char *const mh_pc_tables_choices[]; /* "shared", "separate" */
#define MH_PARAM_PC_TABLES                                                                                 \
    P_ENUM("pc_tables", 0, mh_pc_tables_choices,                                                           \
           "random byte tables that randomize the pc (section 5.3): shared = the value's tables (paper), " \
           "separate = drawn independently")
/* byte_tables parameter values: the paper's "256-entry random number table"
 * looked up for every byte (one) or a table per byte position (per_byte). */
enum mh_byte_tables { MH_BYTES_ONE = 0, MH_BYTES_PER_BYTE = 1 };
extern const char *const mh_byte_tables_choices[]; /* "one", "per_byte" */
#define MH_PARAM_BYTE_TABLES                                                                               \
    P_ENUM("byte_tables", 0, mh_byte_tables_choices,                                                       \
           "randomize's tables (section 5.3): one = a single 256-entry table for every byte (the paper's " \
           "words), per_byte = one table per byte position")
/* One table for every byte position (applied after mh_hash_init and
 * mh_hash_separate_pc): position 0's table, for the value and the pc. */
void mh_hash_one_table(struct mh_hash *h);
/* Whether the first interval (which starts with an empty accumulator and no
 * retained candidates) enters the averages. */
#define MH_PARAM_COUNT_FIRST                                                                                         \
    P_BOOL("count_first", 1, "count the first interval (it starts with an empty accumulator) in the error averages")

/* xor-fold(v, bits): xor of the bits-wide chunks of v (1 <= bits <= 32). */
static inline uint32_t mh_xor_fold(uint64_t v, unsigned bits)
{
    uint64_t mask = (1ull << bits) - 1, r = 0;
    for (; v; v >>= bits)
        r ^= v & mask;
    return (uint32_t)r;
}

static inline uint64_t mh_randomize_with(const uint8_t (*rnd)[256], uint64_t v)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        r |= (uint64_t)rnd[i][(v >> (8 * i)) & 0xff] << (8 * i);
    return r;
}
/* randomize through the value's tables */
static inline uint64_t mh_randomize(const struct mh_hash *h, uint64_t v)
{
    return mh_randomize_with((const uint8_t (*)[256])h->rnd, v);
}

/* flip(randomize(pc)) xor randomize(value), before folding. */
static inline uint64_t mh_hash_randomized(const struct mh_hash *h, uint64_t pc, uint64_t value)
{
    return __builtin_bswap64(mh_randomize_with((const uint8_t (*)[256])h->rnd_pc, pc)) ^ mh_randomize(h, value);
}

static inline uint32_t mh_hash_index(const struct mh_hash *h, uint64_t pc, uint64_t value)
{
    uint32_t idx = mh_xor_fold(mh_hash_randomized(h, pc, value), h->bits);
    /* size need not be a power of two (2048 / 3 tables): idx < 2 * size */
    return idx >= h->size ? idx - h->size : idx;
}

/* The same functions, evaluated several at a time.  xor-fold is linear
 * over xor and randomize substitutes bytes independently, so
 *   fold(flip(randomize(pc)) ^ randomize(value))
 *     = xor over byte positions i of fold(rnd[i][pc_i] << 8(7-i))
 *                                  ^ fold(rnd[i][value_i] << 8i);
 * mh_fold precomputes those folded terms for several functions, packed in
 * the lanes of a 64-bit word: four 16-bit lanes (functions of at most 16
 * bits) or eight 8-bit lanes (at most 8 bits).  16 look-ups give all the
 * word's indices (mh_hash_index does 16 per function plus the fold loop).
 * Results are identical to mh_hash_index.  32 KB per word.
 *
 * With one byte table per function (mh_hash_one_table, for the pc and for
 * the value) the 16 tables are one table shifted: folding to b bits maps
 * bit j of T[x] << s to bit (s + j) mod b, so fold(T[x] << s) is fold(T[x])
 * rotated by s mod b within its lane.  Rotation is linear over xor, so
 *   word = xor over j of rot(pc1[pc byte 7-j] ^ val1[value byte j], 8j mod b)
 * with two 2 KB tables (pc1, val1): the whole word's tables stay in L1
 * where the 32 KB ones would not (`one`, set by mh_fold_init when every
 * function has one table and the same b). */
struct mh_fold {
    uint64_t pc[8][256], val[8][256];
    uint32_t size[8];
    unsigned n, lane; /* functions, lane width in bits (16 or 8) */
    bool one, norot;  /* the one-table form; every rotation is 0 (b divides 8) */
    unsigned bits;    /* b, when one */
    unsigned rot[8];  /* 8j mod b */
    uint64_t hi[8], lo[8]; /* per j: lane bits [rot, b) and [0, rot), every lane */
    uint64_t pc1[256], val1[256];
};
/* n functions (1 .. 64 / lane) in lanes of `lane` bits (16 or 8); returns
 * -1 (nothing set) if one has more bits than a lane. */
int mh_fold_init(struct mh_fold *f, const struct mh_hash *h, unsigned n, unsigned lane);
/* The one-table form of mh_fold_word (f->one). */
static inline uint64_t mh_fold_word_one(const struct mh_fold *f, uint64_t pc, uint64_t value)
{
    uint64_t w = 0;
    if (f->norot) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < 8; j++)
            w ^= f->pc1[(pc >> (8 * j)) & 0xff] ^ f->val1[(value >> (8 * j)) & 0xff];
        return w;
    }
#pragma GCC unroll 8
    for (unsigned j = 0; j < 8; j++) {
        uint64_t u = f->pc1[(pc >> (8 * (7 - j))) & 0xff] ^ f->val1[(value >> (8 * j)) & 0xff];
        w ^= ((u << f->rot[j]) & f->hi[j]) | ((u >> (f->bits - f->rot[j])) & f->lo[j]);
    }
    return w;
}
/* The folded (not yet reduced) indices, function k in bits lane * k.. */
static inline uint64_t mh_fold_word(const struct mh_fold *f, uint64_t pc, uint64_t value)
{
    if (f->one) /* the same for the whole of a run: predicted */
        return mh_fold_word_one(f, pc, value);
    uint64_t w = 0;
    /* unrolled: constant shifts, no loop counter (gcc -O2 keeps the loop) */
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++)
        w ^= f->pc[i][(pc >> (8 * i)) & 0xff] ^ f->val[i][(value >> (8 * i)) & 0xff];
    return w;
}
/* Lane k of a word of `lane`-bit lanes (a compile-time constant in the
 * callers that unroll), reduced as mh_hash_index does (folded value < 2 *
 * size). */
static inline uint32_t mh_fold_lane_w(const struct mh_fold *f, uint64_t w, unsigned k, unsigned lane)
{
    uint32_t x = (uint32_t)(w >> (lane * k)) & ((1u << lane) - 1);
    return x >= f->size[k] ? x - f->size[k] : x;
}
static inline uint32_t mh_fold_lane(const struct mh_fold *f, uint64_t w, unsigned k)
{
    return mh_fold_lane_w(f, w, k, f->lane);
}
static inline void mh_fold_index(const struct mh_fold *f, uint64_t pc, uint64_t value, uint32_t *idx)
{
    uint64_t w = mh_fold_word(f, pc, value);
    for (unsigned k = 0; k < f->n; k++)
        idx[k] = mh_fold_lane(f, w, k);
}

/* 64-bit mix of a tuple, for software tables (not a modelled hardware hash). */
static inline uint64_t mh_mix(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 32;
    return x;
}

/* ---- mh_index: tuple -> id map (linear probing, backward-shift delete) - */

/* Slot hash of mh_index: two independent multiplies (short latency; the map's
 * results do not depend on the hash). */
static inline uint64_t mh_index_hash(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0x9e3779b97f4a7c15ull ^ b * 0xc2b2ae3d27d4eb4full;
    return x ^ (x >> 29) ^ (x >> 47);
}

/* The probe reads a dense array of 16-bit tags (a few hash bits; 0 =
 * empty), so the empty-slot test of a miss - most lookups - touches 2 bytes
 * a slot instead of a 24-byte slot; keys and ids are read on a tag match
 * only.  Slots, probe order and deletion are those of a plain linear-probing
 * table, so every lookup answers as one would. */
struct mh_index_key {
    uint64_t a, b;
};
struct mh_index {
    uint16_t *tag;              /* per slot: 0 empty, else mh_index_tag of its key's hash */
    int32_t *id;                /* per slot */
    struct mh_index_key *key;   /* per slot; one allocation holds all three */
    uint64_t mask;
    size_t live;
};
/* Tag of a key with hash h: its top 16 bits (never 0); the home slot takes
 * the low bits. */
static inline uint16_t mh_index_tag(uint64_t h) { return (uint16_t)((h >> 48) | 1u); }
/* Room for max_ids live keys at load <= 1/2.  Returns -1 on allocation failure. */
int mh_index_init(struct mh_index *x, size_t max_ids);
void mh_index_free(struct mh_index *x);
void mh_index_clear(struct mh_index *x);
static inline int32_t mh_index_find(const struct mh_index *x, uint64_t a, uint64_t b)
{
    uint64_t h = mh_index_hash(a, b), i = h & x->mask;
    uint16_t t = mh_index_tag(h);
    for (;;) {
        uint16_t s = x->tag[i];
        if (s == 0)
            return -1;
        if (s == t && x->key[i].a == a && x->key[i].b == b)
            return x->id[i];
        i = (i + 1) & x->mask;
    }
}
void mh_index_insert(struct mh_index *x, uint64_t a, uint64_t b, int32_t id); /* key must be absent */
void mh_index_remove(struct mh_index *x, uint64_t a, uint64_t b);          /* no-op if absent */

/* ---- mh_exact_table: exact counts for one interval --------------------- */

struct mh_exact_slot {
    uint64_t a, b;
    uint32_t count; /* 0: empty slot */
    uint32_t mark;  /* == the table's stamp: reported by the evaluation under way */
};
struct mh_exact_table {
    struct mh_exact_slot *slots;
    uint64_t mask;
    uint32_t *used; /* indices of occupied slots, in first-seen order */
    size_t nused, cap;
    /* Evaluation stamp (>= 1): mh_err_hw marks a slot with it, mh_err_end
     * reads the marks and moves to a fresh stamp, so several evaluations
     * (instances sharing the table) can read one interval's counts. */
    uint32_t stamp;
};
/* Room for max_distinct keys (load <= 3/4).  Returns -1 on allocation failure. */
int mh_exact_init(struct mh_exact_table *t, size_t max_distinct);
void mh_exact_free(struct mh_exact_table *t);
void mh_exact_clear(struct mh_exact_table *t); /* cost proportional to nused */
/* Adds inc to the count of (a, b); returns the slot.  At most max_distinct
 * distinct keys between clears (the caller's interval guarantees it). */
struct mh_exact_slot *mh_exact_add(struct mh_exact_table *t, uint64_t a, uint64_t b, uint32_t inc);
struct mh_exact_slot *mh_exact_find(const struct mh_exact_table *t, uint64_t a, uint64_t b);
/* mh_exact_add(t, a, b, 1) for each tuple, in order (with prefetching). */
void mh_exact_add_tuples(struct mh_exact_table *t, const struct mh_tuple *tu, size_t n);

/* ---- error formula (1), Figure 3 categories ----------------------------- */

enum mh_err_part { MH_FP = 0, MH_FN = 1, MH_NP = 2, MH_NN = 3, MH_ERR_PARTS = 4 };

/* One interval's evaluation.  Use: mh_err_begin; mh_err_hw for every tuple
 * the hardware reports as a candidate (its count f_h >= T); mh_err_end,
 * which adds the perfect candidates the hardware missed (false negatives,
 * f_h = 0 as the paper states) and computes the percentages.  The exact
 * counts are only read (marks use the table's stamp), so any number of
 * evaluations may run, one after the other, on one interval's table. */
struct mh_err_interval {
    double part[MH_ERR_PARTS]; /* sum |f_p - f_h| per category, then percent of denom */
    double denom;              /* sum f_p over the union of both candidate sets */
    double error;              /* percent: sum of the parts */
    uint64_t hw_candidates, true_candidates, distinct;
};
void mh_err_begin(struct mh_err_interval *it);
void mh_err_hw(struct mh_err_interval *it, struct mh_exact_table *exact, uint64_t a, uint64_t b, uint64_t fh, uint64_t T);
void mh_err_end(struct mh_err_interval *it, struct mh_exact_table *exact, uint64_t T);

/* Running totals over intervals: net error = mean of per-interval errors. */
struct mh_err_sum {
    uint64_t intervals;
    double error, part[MH_ERR_PARTS], max_error;
    double hw_candidates, true_candidates, distinct;
};
void mh_err_add(struct mh_err_sum *s, const struct mh_err_interval *it);

/* Metric and series column lists shared by every hardware model (report
 * order is fixed by mh_err_report + the model's extra metrics). */
#define MH_ERR_METRICS                                                                                     \
    METRIC("error_pct", "net error of formula (1): mean over intervals of sum |f_p - f_h| / sum f_p, percent"), \
    METRIC("fp_pct", "part of error_pct from false positives (reported, not a true candidate)"),                \
    METRIC("fn_pct", "part of error_pct from false negatives (true candidate not reported, f_h = 0)"),          \
    METRIC("np_pct", "part of error_pct from true candidates reported with a count above f_p"),                 \
    METRIC("nn_pct", "part of error_pct from true candidates reported with a count below f_p"),                 \
    METRIC("max_interval_error_pct", "largest error of one interval, percent"),                                 \
    METRIC("intervals", "intervals evaluated"),                                                                  \
    METRIC("tuples", "tuples in the window"),                                                                    \
    METRIC("true_candidates_avg", "tuples with exact count >= T, mean per interval"),                           \
    METRIC("hw_candidates_avg", "tuples the hardware reports with count >= T, mean per interval"),              \
    METRIC("distinct_avg", "distinct tuples, mean per interval"),                                                \
    METRIC("skipped_loads", "loads without a captured value (not tuples)")
#define MH_ERR_NMETRICS 12
/* Writes MH_ERR_NMETRICS values. */
void mh_err_report(const struct mh_err_sum *s, const struct mh_source *src, double *out);

#define MH_ERR_SERIES                                                                                  \
    COL("index", COL_INT, "interval number, from 0"),                                                  \
    COL("error_pct", COL_REAL, "error of the interval, percent"),                                      \
    COL("fp_pct", COL_REAL, "false-positive part"), COL("fn_pct", COL_REAL, "false-negative part"),   \
    COL("np_pct", COL_REAL, "over-count part"), COL("nn_pct", COL_REAL, "under-count part"),           \
    COL("true_candidates", COL_REAL, "tuples with exact count >= T"),                                  \
    COL("hw_candidates", COL_REAL, "tuples reported with count >= T")
#define MH_ERR_NSERIES 7
/* The table list of a model whose only table is that series:
 * { "series": MH_ERR_SERIES }, TABLE_END. */
extern const struct table_spec mh_err_tables[];
/* One row of the per-interval series (table `table` of the model). */
void mh_err_series(struct model_out *o, size_t table, uint64_t interval, const struct mh_err_interval *it);

/* Memory accounting (bytes), documented in paper-repro.md ("Memory accounting"). */
static inline uint64_t mh_counter_bytes(unsigned counter_bits) { return (counter_bits + 7u) / 8u; }

#endif
