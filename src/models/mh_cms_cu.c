/* mh_cms_cu.c - count-min sketch with conservative update, as a streaming
 * algorithm would use it for heavy hitters (beyond the paper): every tuple
 * updates the sketch (no shielding), a tuple whose estimate reaches T enters
 * a tag-only candidate table (dropped when full), and the reported f_h is the
 * sketch estimate at interval end.  Sketch and table are flushed every
 * interval, and errors are scored exactly like the multihash model.
 *
 * Equal memory: `bytes` = 0 takes the bytes of the default multihash
 * config: 2048 counters * counter bytes + acc_entries * (tag_bytes + counter
 * bytes).  The candidate table holds tags only (acc_entries * tag_bytes); all
 * remaining bytes become sketch counters, split evenly over `tables` rows. */
#include <stdio.h>
#include "models/shared/mh_engine.h"

static const struct param_spec cms_cu_params[] = {
    MH_PARAMS_STREAM,
    P_INT("tables", 4, 1, 16, "sketch rows (depth)"),
    P_INT("bytes", 0, 0, 1073741824,
          "memory budget in bytes; 0 = that of the default multihash (2048 counters + accumulator)"),
    P_INT("counter_bits", 24, 1, 32, "width of the saturating sketch counters"),
    P_INT("acc_entries", 0, 0, 1048576, "candidate-table entries; 0 = ceil(1/threshold)"),
    P_INT("tag_bytes", 16, 1, 64, "bytes of a candidate tag (memory accounting)"),
    P_ENUM("hash", 1, mh_hash_choices,
           "row hash: multiply_shift (pairwise independent family) or sec53 (the paper's hash)"),
    P_INT("seed", 1, 0, 2147483647, "seed of the row hash functions"),
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    MH_PARAM_SCORE,
    PARAM_END
};

static void *cms_cu_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct mh_engine_cfg c = { 0 };
    c.tables = (unsigned)pv_int(pv, "tables");
    c.counter_bits = (unsigned)pv_int(pv, "counter_bits");
    c.acc_entries = (uint32_t)pv_int(pv, "acc_entries");
    if (c.acc_entries == 0)
        c.acc_entries = mh_default_acc_entries(pv_real(pv, "threshold"));
    uint64_t cb = mh_counter_bytes(c.counter_bits);
    uint64_t tag = (uint64_t)pv_int(pv, "tag_bytes");
    uint64_t bytes = (uint64_t)pv_int(pv, "bytes");
    if (bytes == 0)
        bytes = 2048 * cb + c.acc_entries * (tag + cb);
    uint64_t table_bytes = c.acc_entries * tag;
    if (bytes <= table_bytes || (bytes - table_bytes) / cb / c.tables < 1) {
        snprintf(ctx->err, ctx->errlen, "'bytes' (%llu) leaves no sketch counter after the %u-entry candidate table",
                 (unsigned long long)bytes, c.acc_entries);
        return NULL;
    }
    c.per_table = (uint32_t)((bytes - table_bytes) / cb / c.tables);
    c.conservative = true;
    c.reset = false;
    c.retain = false;
    c.p0_mode = MH_P0_FLUSH;
    c.shielding = false;
    c.sketch_counts = true;
    c.init_count = MH_INIT_ESTIMATE;
    c.hash = pv_enum(pv, "hash");
    c.byte_tables = pv_enum(pv, "byte_tables");
    c.count_first = pv_bool(pv, "count_first");
    c.seed = (uint64_t)pv_int(pv, "seed");
    c.memory_bytes = (uint64_t)c.tables * c.per_table * cb + table_bytes;
    c.score = pv_bool(pv, "score");
    return mh_engine_create(&c, ctx);
}

static const struct model_desc cms_cu_model = {
    .name = "cms_cu",
    .summary = "count-min sketch with conservative update + candidate table, per interval (baseline)",
    .params = cms_cu_params,
    .create = cms_cu_create,
    MH_ENGINE_MODEL_HOOKS,
};
MODEL_REGISTER(cms_cu_model);
