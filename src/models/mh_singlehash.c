/* mh_singlehash.c - single hash-table interval profiler of paper section 5:
 * one untagged table of saturating counters (flushed every interval), a
 * fully associative tagged accumulator with shielding, and the retaining (P)
 * and resetting (R) optimizations.  Defaults are the paper's best single
 * hash (R1 P1).  The mechanism lives in mh_engine.c. */
#include "models/shared/mh_engine.h"

static const struct param_spec singlehash_params[] = {
    MH_PARAMS_STREAM,
    P_INT("counters", 2048, 1, 16777216, "hash-table counters"),
    P_INT("counter_bits", 24, 1, 32,
          "width of the saturating hash and accumulator counters (24 = the paper's 3 bytes)"),
    P_INT("acc_entries", 0, 0, 1048576, "accumulator entries; 0 = ceil(1/threshold)"),
    P_BOOL("reset", 1, "R1: zero the tuple's hash counter when it is promoted"),
    P_BOOL("retain", 1,
           "P1: at interval end keep accumulator entries with count >= T (count 0, replaceable), empty the rest"),
    P_ENUM("p0_mode", 0, mh_p0_mode_choices,
           "accumulator at interval end without retaining: flush = emptied, keep = all kept at count 0, replaceable"),
    P_BOOL("shielding", 1, "tuples held in the accumulator do not update the hash table"),
    P_ENUM("init_count", 0, mh_init_count_choices,
           "accumulator count of a promoted tuple: estimate = its hash counter (this occurrence included), "
           "threshold = T, one, zero"),
    P_INT("tag_bytes", 16, 1, 64, "bytes of an accumulator tag, for memory_bytes only"),
    MH_PARAM_PC_TABLES,
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    P_INT("seed", 1, 0, 2147483647, "seed of the random byte tables of the section 5.3 hash"),
    MH_PARAM_SCORE,
    PARAM_END
};

static void *singlehash_create(const struct model_ctx *ctx)
{
    struct mh_engine_cfg c;
    mh_engine_cfg_paper(ctx->pv, 1, (uint32_t)pv_int(ctx->pv, "counters"), &c);
    c.conservative = false;
    return mh_engine_create(&c, ctx);
}

static const struct model_desc singlehash_model = {
    .name = "singlehash",
    .summary = "single hash table + accumulator interval profiler (multihash paper, section 5)",
    .params = singlehash_params,
    .create = singlehash_create,
    MH_ENGINE_MODEL_HOOKS,
};
MODEL_REGISTER(singlehash_model);
