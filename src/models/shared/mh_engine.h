/* mh_engine.h - the hash-table + accumulator profiler shared by the
 * singlehash (paper section 5), multihash (section 6) and cms_cu models.
 *
 * Per tuple (section 5.2 / 6.1):
 *   1. In the accumulator (fully associative, tagged)?  Increment its counter;
 *      with shielding the hash tables are not touched.
 *   2. Otherwise update the tuple's counter in each of the n hash tables:
 *      all of them (C0) or only the smallest ones, every tie included (C1,
 *      conservative update).  Counters saturate at 2^counter_bits - 1.
 *   3. If every counter is now >= T, promote: take an empty accumulator
 *      entry, else the replaceable entry with the smallest count (lowest slot
 *      on ties), else drop the promotion (counted in acc_drops).  The entry
 *      starts with init_count and is non-replaceable for the rest of the
 *      interval.  With reset (R1) the tuple's n counters are zeroed.
 * At the end of each interval the hardware profile (accumulator entries with
 * count >= T) is scored against the exact profile, the hash tables are
 * flushed, and the accumulator is either retained (P1: entries with count >=
 * T kept, count 0, replaceable; the rest emptied) or, without retaining,
 * emptied (p0_mode flush) or kept whole at count 0, replaceable (p0_mode keep).
 *
 * cms_cu mode (sketch_counts): no shielding, the candidate table only holds
 * tags and f_h is the sketch estimate (min over rows) at interval end.
 */
#ifndef MH_ENGINE_H
#define MH_ENGINE_H

#include "models/shared/mh_member.h"

enum mh_init_count { MH_INIT_ESTIMATE = 0, MH_INIT_THRESHOLD = 1, MH_INIT_ONE = 2, MH_INIT_ZERO = 3 };
enum mh_p0_mode { MH_P0_FLUSH = 0, MH_P0_KEEP = 1 };
enum mh_hash_kind { MH_HASH_SEC53 = 0, MH_HASH_MULTIPLY_SHIFT = 1 };
enum mh_acc_state { MH_ACC_EMPTY = 0, MH_ACC_LOCKED = 1, MH_ACC_REPLACEABLE = 2 };

extern const char *const mh_init_count_choices[]; /* "estimate", "threshold", "one", "zero" */
extern const char *const mh_p0_mode_choices[];    /* "flush", "keep" */
extern const char *const mh_hash_choices[];       /* "sec53", "multiply_shift" */

#define MH_MAX_TABLES 16

struct mh_engine_cfg {
    unsigned tables;            /* 1..MH_MAX_TABLES */
    uint32_t per_table;         /* counters in each table */
    unsigned counter_bits;      /* hash and accumulator counter width */
    bool conservative, reset, retain, shielding, sketch_counts;
    bool score;                 /* keep the exact profile and score intervals */
    int p0_mode;                /* enum mh_p0_mode */
    int init_count;             /* enum mh_init_count */
    int hash;                   /* enum mh_hash_kind */
    int pc_tables;              /* enum mh_pc_tables (sec53 hash only) */
    int byte_tables;            /* enum mh_byte_tables (sec53 hash only) */
    bool count_first;           /* the first interval enters the averages */
    uint32_t acc_entries;
    uint64_t seed;
    uint64_t memory_bytes;      /* reported only */
};

struct mh_engine;

/* The hash-table + accumulator profilers of the paper (singlehash,
 * multihash): fill c from pv for `tables` tables splitting `counters`
 * counters, with the section 5.3 hash.  Reads counter_bits, acc_entries
 * (0 = ceil(1/threshold)), reset, retain, p0_mode, shielding, init_count,
 * tag_bytes (memory_bytes only), seed, pc_tables, byte_tables, count_first
 * and score; the caller sets `conservative`. */
void mh_engine_cfg_paper(const struct param_values *pv, unsigned tables, uint32_t counters, struct mh_engine_cfg *c);

/* Reads the common stream/interval parameters and the stage's view from
 * ctx; series rows go to the model's table 0 ("series"). */
struct mh_engine *mh_engine_create(const struct mh_engine_cfg *cfg, const struct model_ctx *ctx);
/* model_desc hooks shared by singlehash, multihash and cms_cu. */
void mh_engine_plan(const struct param_values *pv, struct plan *p);
void mh_engine_feed(void *m, const void *recs, size_t n);
void mh_engine_mark(void *m, uint32_t mark);
void mh_engine_finish(void *m);
void mh_engine_free(void *m);

/* Metrics: MH_ERR_METRICS followed by these. */
#define MH_ENGINE_METRICS                                                                              \
    MH_ERR_METRICS, METRIC("promotions_avg", "promotions into the accumulator, mean per closed interval"), \
        METRIC("acc_drops", "promotions dropped: no empty or replaceable accumulator entry"),           \
        METRIC("memory_bytes", "hash counters + accumulator entries (tag and counter), bytes"),          \
        METRIC("candidate_T", "candidate threshold T in tuples (ceil(threshold x interval))")
#define MH_ENGINE_NMETRICS (MH_ERR_NMETRICS + 4)
/* The metric values in table order (tests), and the report hook. */
void mh_engine_values(const void *m, double *out);
void mh_engine_report(void *m, struct model_out *o);

/* What the descriptors of singlehash, multihash and cms_cu share: the
 * metrics (MH_ENGINE_METRICS), the "series" table (mh_err_tables) and every
 * hook but create(); a model adds its name, summary, parameters and
 * create():
 *     static const struct model_desc m = { .name = ..., .summary = ...,
 *         .params = ..., .create = ..., MH_ENGINE_MODEL_HOOKS };  */
extern const struct metric_spec mh_engine_metrics[];
#define MH_ENGINE_MODEL_HOOKS                                                                           \
    .metrics = mh_engine_metrics, .tables = mh_err_tables, .plan = mh_engine_plan, .feed = mh_engine_feed, \
    .mark = mh_engine_mark, .finish = mh_engine_finish, .report = mh_engine_report, .free = mh_engine_free, \
    .trace_needs = mh_trace_needs

/* ---- inspection, for unit tests ---------------------------------------- */
/* Hash-table slot (within table k) of a tuple. */
uint32_t mh_engine_index(const struct mh_engine *e, unsigned k, uint64_t a, uint64_t b);
uint32_t mh_engine_counter(const struct mh_engine *e, unsigned k, uint32_t slot);
/* Accumulator entry of a tuple: returns its state (MH_ACC_EMPTY if absent)
 * and its count in *count. */
int mh_engine_acc(const struct mh_engine *e, uint64_t a, uint64_t b, uint32_t *count);
uint32_t mh_engine_acc_used(const struct mh_engine *e);
/* The most recently closed interval's evaluation. */
const struct mh_err_interval *mh_engine_last(const struct mh_engine *e);
uint64_t mh_engine_T(const struct mh_engine *e);

#endif
