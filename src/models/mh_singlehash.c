/* mh_singlehash.c - single hash-table interval profiler of paper section 5:
 * one untagged table of saturating counters (flushed every interval), a
 * fully associative tagged accumulator with shielding, and the retaining (P)
 * and resetting (R) optimizations.  Defaults are the paper's best single
 * hash (R1 P1).  The mechanism lives in mh_engine.c. */
#include "mh_engine.h"

static const struct param_spec singlehash_params[] = {
    MH_PARAMS_STREAM,
    { "counters", PARAM_INT, 2048, 1, 16777216, NULL, "hash-table counters" },
    { "counter_bits", PARAM_INT, 24, 1, 32, NULL,
      "width of the saturating hash and accumulator counters (24 = the paper's 3 bytes)" },
    { "acc_entries", PARAM_INT, 0, 0, 1048576, NULL, "accumulator entries; 0 = ceil(1/threshold)" },
    { "reset", PARAM_BOOL, 1, 0, 1, NULL, "R1: zero the tuple's hash counter when it is promoted" },
    { "retain", PARAM_BOOL, 1, 0, 1, NULL,
      "P1: at interval end keep accumulator entries with count >= T (count 0, replaceable), empty the rest" },
    { "p0_mode", PARAM_ENUM, 0, 0, 0, mh_p0_mode_choices,
      "accumulator at interval end without retaining: flush = emptied, keep = all kept at count 0, replaceable" },
    { "shielding", PARAM_BOOL, 1, 0, 1, NULL, "tuples held in the accumulator do not update the hash table" },
    { "init_count", PARAM_ENUM, 0, 0, 0, mh_init_count_choices,
      "accumulator count of a promoted tuple: estimate = its hash counter (this occurrence included), "
      "threshold = T, one, zero" },
    { "tag_bytes", PARAM_INT, 16, 1, 64, NULL, "bytes of an accumulator tag, for memory_bytes only" },
    MH_PARAM_PC_TABLES,
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    { "seed", PARAM_INT, 1, 0, 2147483647, NULL, "seed of the random byte tables of the section 5.3 hash" },
    MH_PARAM_SCORE,
    PARAM_END
};

static const struct metric_spec singlehash_metrics[] = { MH_ENGINE_METRICS, METRIC_END };
static const struct col_spec singlehash_series[] = { MH_ERR_SERIES, COL_END };
static const struct table_spec singlehash_tables[] = { { "series", "per-interval error", singlehash_series }, TABLE_END };

static void *singlehash_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct mh_source src;
    struct mh_interval iv;
    mh_read_common(pv, &src, &iv);
    struct mh_engine_cfg c;
    mh_engine_cfg_paper(pv, iv.threshold, 1, (uint32_t)pv_int(pv, "counters"), &c);
    c.conservative = false;
    return mh_engine_create(&c, ctx);
}

static const struct model_desc singlehash_model = {
    .name = "singlehash",
    .summary = "single hash table + accumulator interval profiler (multihash paper, section 5)",
    .params = singlehash_params,
    .metrics = singlehash_metrics,
    .tables = singlehash_tables,
    .plan = mh_engine_plan,
    .create = singlehash_create,
    .feed = mh_engine_feed,
    .mark = mh_engine_mark,
    .finish = mh_engine_finish,
    .report = mh_engine_report,
    .free = mh_engine_free,
    .trace_needs = mh_trace_needs,
};
MODEL_REGISTER(singlehash_model);
