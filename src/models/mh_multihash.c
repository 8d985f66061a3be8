/* mh_multihash.c - multi-hash interval profiler of paper section 6: n
 * independent hash tables splitting a fixed total of counters, promotion only
 * when all n counters reach T, conservative update (C) and immediate reset
 * (R) as options, retaining on by default.  Defaults are the paper's best
 * configuration (4 tables, C1 R0, 2K counters).  The mechanism lives in
 * mh_engine.c. */
#include "mh_engine.h"

static const struct param_spec multihash_params[] = {
    MH_PARAMS_STREAM,
    { "tables", PARAM_INT, 4, 1, 16, NULL, "number of hash tables n (each gets floor(counters / n) counters)" },
    { "counters", PARAM_INT, 2048, 1, 16777216, NULL, "total hash-table counters over all tables" },
    { "counter_bits", PARAM_INT, 24, 1, 32, NULL,
      "width of the saturating hash and accumulator counters (24 = the paper's 3 bytes)" },
    { "acc_entries", PARAM_INT, 0, 0, 1048576, NULL, "accumulator entries; 0 = ceil(1/threshold)" },
    { "conservative", PARAM_BOOL, 1, 0, 1, NULL,
      "C1: increment only the smallest of the tuple's n counters (all of them on a tie)" },
    { "reset", PARAM_BOOL, 0, 0, 1, NULL, "R1: zero the tuple's n counters when it is promoted" },
    { "retain", PARAM_BOOL, 1, 0, 1, NULL,
      "P1: at interval end keep accumulator entries with count >= T (count 0, replaceable), empty the rest" },
    { "p0_mode", PARAM_ENUM, 0, 0, 0, mh_p0_mode_choices,
      "accumulator at interval end without retaining: flush = emptied, keep = all kept at count 0, replaceable" },
    { "shielding", PARAM_BOOL, 1, 0, 1, NULL, "tuples held in the accumulator do not update the hash tables" },
    { "init_count", PARAM_ENUM, 0, 0, 0, mh_init_count_choices,
      "accumulator count of a promoted tuple: estimate = min of its n counters (this occurrence included), "
      "threshold = T, one, zero" },
    { "tag_bytes", PARAM_INT, 16, 1, 64, NULL, "bytes of an accumulator tag, for memory_bytes only" },
    MH_PARAM_PC_TABLES,
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    { "seed", PARAM_INT, 1, 0, 2147483647, NULL,
      "seed of the random byte tables of the section 5.3 hash (table k uses function k of this seed)" },
    MH_PARAM_SCORE,
    PARAM_END
};

static const struct metric_spec multihash_metrics[] = { MH_ENGINE_METRICS, METRIC_END };
static const struct col_spec multihash_series[] = { MH_ERR_SERIES, COL_END };
static const struct table_spec multihash_tables[] = { { "series", "per-interval error", multihash_series }, TABLE_END };

static void *multihash_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct mh_source src;
    struct mh_interval iv;
    mh_read_common(pv, &src, &iv);
    struct mh_engine_cfg c;
    mh_engine_cfg_paper(pv, iv.threshold, (unsigned)pv_int(pv, "tables"), (uint32_t)pv_int(pv, "counters"), &c);
    c.conservative = pv_bool(pv, "conservative");
    return mh_engine_create(&c, ctx);
}

static const struct model_desc multihash_model = {
    .name = "multihash",
    .summary = "n hash tables + accumulator, conservative update / reset (multihash paper, section 6)",
    .params = multihash_params,
    .metrics = multihash_metrics,
    .tables = multihash_tables,
    .plan = mh_engine_plan,
    .create = multihash_create,
    .feed = mh_engine_feed,
    .mark = mh_engine_mark,
    .finish = mh_engine_finish,
    .report = mh_engine_report,
    .free = mh_engine_free,
    .trace_needs = mh_trace_needs,
};
MODEL_REGISTER(multihash_model);
