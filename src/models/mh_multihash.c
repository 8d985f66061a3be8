/* mh_multihash.c - multi-hash interval profiler of paper section 6: n
 * independent hash tables splitting a fixed total of counters, promotion only
 * when all n counters reach T, conservative update (C) and immediate reset
 * (R) as options, retaining on by default.  Defaults are the paper's best
 * configuration (4 tables, C1 R0, 2K counters).  The mechanism lives in
 * mh_engine.c. */
#include "models/shared/mh_engine.h"

static const struct param_spec multihash_params[] = {
    MH_PARAMS_STREAM,
    P_INT("tables", 4, 1, 16, "number of hash tables n (each gets floor(counters / n) counters)"),
    P_INT("counters", 2048, 1, 16777216, "total hash-table counters over all tables"),
    P_INT("counter_bits", 24, 1, 32,
          "width of the saturating hash and accumulator counters (24 = the paper's 3 bytes)"),
    P_INT("acc_entries", 0, 0, 1048576, "accumulator entries; 0 = ceil(1/threshold)"),
    P_BOOL("conservative", 1, "C1: increment only the smallest of the tuple's n counters (all of them on a tie)"),
    P_BOOL("reset", 0, "R1: zero the tuple's n counters when it is promoted"),
    P_BOOL("retain", 1,
           "P1: at interval end keep accumulator entries with count >= T (count 0, replaceable), empty the rest"),
    P_ENUM("p0_mode", 0, mh_p0_mode_choices,
           "accumulator at interval end without retaining: flush = emptied, keep = all kept at count 0, replaceable"),
    P_BOOL("shielding", 1, "tuples held in the accumulator do not update the hash tables"),
    P_ENUM("init_count", 0, mh_init_count_choices,
           "accumulator count of a promoted tuple: estimate = min of its n counters (this occurrence included), "
           "threshold = T, one, zero"),
    P_INT("tag_bytes", 16, 1, 64, "bytes of an accumulator tag, for memory_bytes only"),
    MH_PARAM_PC_TABLES,
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    P_INT("seed", 1, 0, 2147483647,
          "seed of the random byte tables of the section 5.3 hash (table k uses function k of this seed)"),
    MH_PARAM_SCORE,
    PARAM_END
};

static void *multihash_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct mh_engine_cfg c;
    mh_engine_cfg_paper(pv, (unsigned)pv_int(pv, "tables"), (uint32_t)pv_int(pv, "counters"), &c);
    c.conservative = pv_bool(pv, "conservative");
    return mh_engine_create(&c, ctx);
}

static const struct model_desc multihash_model = {
    .name = "multihash",
    .summary = "n hash tables + accumulator, conservative update / reset (multihash paper, section 6)",
    .params = multihash_params,
    .create = multihash_create,
    MH_ENGINE_MODEL_HOOKS,
};
MODEL_REGISTER(multihash_model);
