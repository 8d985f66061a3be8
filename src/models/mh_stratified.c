/* mh_stratified.c - the stratified sampler of Sastry, Bodik and Smith as
 * described in section 4.2 of the multihash paper (its Figure 1), used as
 * the historical baseline.
 *
 * Hardware: a table of `counters` counters indexed by the section 5.3 hash.
 * A tuple increments its counter; when the counter reaches
 * `sample_threshold` S it is reset to zero and the tuple is reported to
 * software, which credits it with S occurrences.  With `tag_bits` > 0 each
 * entry also holds a partial tag (from an independent hash function) and a
 * miss counter: a tuple whose tag differs increments the miss counter and is
 * otherwise ignored; after `miss_limit` consecutive misses (a hit clears the
 * miss counter) the entry is handed to the new tuple (hit count 1).  The
 * small aggregation table and message buffer of the original only batch
 * reports to cut interrupts; they do not change counts and are not modelled.
 *
 * Scoring: software keeps exact per-interval sums of the reports; the
 * tuples whose credited count reaches T are the reported candidates, scored
 * with formula (1) like the interval hardware profilers.  The sampler itself
 * knows no intervals: its counters carry over unless `flush` is set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/shared/mh_member.h"

static const struct param_spec stratified_params[] = {
    MH_PARAMS_STREAM,
    P_INT("counters", 2048, 1, 16777216, "sampler table entries"),
    P_INT("counter_bits", 24, 1, 32, "hit counter width (memory accounting; S must fit)"),
    P_INT("sample_threshold", 10, 1, 16777215,
          "S: a counter reaching S reports its tuple (credited S occurrences) and resets"),
    P_INT("tag_bits", 0, 0, 32, "partial tag bits per entry; 0 = untagged counters"),
    P_INT("miss_limit", 4, 1, 255, "tagged: consecutive misses after which the entry is replaced"),
    P_BOOL("flush", 0, "clear the sampler table at every interval boundary"),
    P_INT("seed", 1, 0, 2147483647, "seed of the random byte tables of the section 5.3 hash"),
    MH_PARAM_BYTE_TABLES,
    MH_PARAM_COUNT_FIRST,
    PARAM_END
};

static const struct metric_spec stratified_metrics[] = {
    MH_ERR_METRICS,
    METRIC("reports_avg", "sampler reports to software, mean per closed interval"),
    METRIC("memory_bytes", "sampler table bytes (counters, tags, miss counters)"),
    METRIC("candidate_T", "candidate threshold T in tuples"),
    METRIC_END,
};

struct stratified {
    struct mh_member mb; /* first: source, interval, exact table */
    uint32_t size, S, miss_limit;
    unsigned tag_bits;
    bool flush, count_first;
    uint64_t memory_bytes;
    struct mh_hash index_hash, tag_hash;
    uint32_t *hit;
    uint32_t *tag;
    uint8_t *miss, *valid;
    struct mh_exact_table soft;
    struct mh_err_sum err;
    struct mh_err_interval last;
    uint64_t reports;        /* all reports so far */
    uint64_t reports_closed; /* reports up to the last closed interval */
};

static void stratified_free(void *m)
{
    struct stratified *s = m;
    if (!s)
        return;
    free(s->hit);
    free(s->tag);
    free(s->miss);
    free(s->valid);
    mh_exact_free(&s->soft);
    free(s);
}

static void *stratified_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct stratified *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mh_member_init(&s->mb, ctx);
    s->size = (uint32_t)pv_int(pv, "counters");
    s->S = (uint32_t)pv_int(pv, "sample_threshold");
    s->tag_bits = (unsigned)pv_int(pv, "tag_bits");
    s->miss_limit = (uint32_t)pv_int(pv, "miss_limit");
    s->flush = pv_bool(pv, "flush");
    unsigned bits = (unsigned)pv_int(pv, "counter_bits");
    if (bits < 32 && s->S > (1u << bits) - 1) {
        snprintf(err, errlen, "'sample_threshold' %u does not fit in 'counter_bits' %u", s->S, bits);
        free(s);
        return NULL;
    }
    uint64_t seed = (uint64_t)pv_int(pv, "seed");
    mh_hash_init(&s->index_hash, seed, 0, s->size);
    mh_hash_init(&s->tag_hash, seed, 1, 2);
    if (pv_enum(pv, "byte_tables") == MH_BYTES_ONE) {
        mh_hash_one_table(&s->index_hash);
        mh_hash_one_table(&s->tag_hash);
    }
    s->count_first = pv_bool(pv, "count_first");
    s->hit = calloc(s->size, sizeof *s->hit);
    s->tag = calloc(s->size, sizeof *s->tag);
    s->miss = calloc(s->size, 1);
    s->valid = calloc(s->size, 1);
    if (!s->hit || !s->tag || !s->miss || !s->valid ||
        mh_exact_init(&s->soft, s->mb.iv.length) != 0) {
        stratified_free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->memory_bytes = (uint64_t)s->size * (mh_counter_bytes(bits) + (s->tag_bits ? (s->tag_bits + 7) / 8 + 1 : 0));
    return s;
}

static void close_interval(struct mh_member *mb)
{
    struct stratified *s = (struct stratified *)mb;
    uint64_t T = s->mb.iv.T;
    struct mh_err_interval it;
    mh_err_begin(&it);
    for (size_t k = 0; k < s->soft.nused; k++) {
        const struct mh_exact_slot *x = &s->soft.slots[s->soft.used[k]];
        if (x->count >= T)
            mh_err_hw(&it, s->mb.exact, x->a, x->b, x->count, T);
    }
    mh_err_end(&it, s->mb.exact, T);
    if (s->count_first || s->mb.iv.index > 0)
        mh_err_add(&s->err, &it);
    s->last = it;
    mh_err_series(s->mb.out, 0, s->mb.iv.index, &it);
    s->reports_closed = s->reports; /* a dropped partial tail does not count */
    s->mb.iv.index++;
    s->mb.iv.pos = 0;
    mh_exact_clear(&s->soft);
    if (s->flush) {
        memset(s->hit, 0, s->size * sizeof *s->hit);
        memset(s->miss, 0, s->size);
        memset(s->valid, 0, s->size);
    }
}

static inline void sample(struct stratified *s, uint64_t a, uint64_t b)
{
    uint32_t i = mh_hash_index(&s->index_hash, a, b);
    if (s->tag_bits) {
        uint32_t t = mh_xor_fold(mh_hash_randomized(&s->tag_hash, a, b), s->tag_bits);
        if (!s->valid[i]) {
            s->valid[i] = 1;
            s->tag[i] = t;
            s->hit[i] = 0;
            s->miss[i] = 0;
        }
        if (s->tag[i] != t) {
            if (s->miss[i] < 255)
                s->miss[i]++;
            if (s->miss[i] < s->miss_limit)
                return;
            s->tag[i] = t;
            s->hit[i] = 0;
        }
        s->miss[i] = 0;
    }
    if (++s->hit[i] >= s->S) {
        s->hit[i] = 0;
        s->reports++;
        mh_exact_add(&s->soft, a, b, s->S);
    }
}

static void stratified_tuples(struct mh_member *mb, const struct mh_tuple *t, size_t n)
{
    struct stratified *s = (struct stratified *)mb;
    for (size_t k = 0; k < n; k++)
        sample(s, t[k].a, t[k].b);
}

static void stratified_finish(void *m) { mh_member_finish(m, close_interval); }

static void stratified_feed(void *m, const void *recs, size_t n)
{
    struct mh_member *mb = m;
    mh_member_begin(mb, n);
    stratified_tuples(mb, recs, n);
    mh_member_end(mb, n);
}

static void stratified_mark(void *m, uint32_t mark)
{
    (void)mark;
    close_interval(m);
}

static void stratified_plan(const struct param_values *pv, struct plan *p) { mh_member_plan(pv, p, true); }

static void stratified_report(void *m, struct model_out *o)
{
    double out[MH_ERR_NMETRICS + 3];
    const struct stratified *s = m;
    mh_err_report(&s->err, &s->mb.src, out);
    out[MH_ERR_NMETRICS + 0] = s->err.intervals ? (double)s->reports_closed / (double)s->err.intervals : NAN;
    out[MH_ERR_NMETRICS + 1] = (double)s->memory_bytes;
    out[MH_ERR_NMETRICS + 2] = (double)s->mb.iv.T;
    for (size_t k = 0; k < MH_ERR_NMETRICS + 3; k++)
        out_metric(o, k, out[k]);
}

static const struct model_desc stratified_model = {
    .name = "stratified",
    .summary = "stratified sampler of Sastry et al. with software accumulation (multihash paper, section 4.2)",
    .params = stratified_params,
    .metrics = stratified_metrics,
    .tables = mh_err_tables,
    .plan = stratified_plan,
    .create = stratified_create,
    .feed = stratified_feed,
    .mark = stratified_mark,
    .finish = stratified_finish,
    .report = stratified_report,
    .free = stratified_free,
    .trace_needs = mh_trace_needs,
};
MODEL_REGISTER(stratified_model);
