/* conte_common.h - what the three Conte et al. hardware-profiling models
 * (conte_onelevel, conte_twolevel, conte_counter) share: parameters, metric
 * names, the set-associative tag store of the branch buffer, the sampling
 * schedule, the exact WCFG kept alongside, and the end-of-trace metrics
 * (Table IV delta-w, superblock comparison, contentions, accuracy).
 *
 * Every model reads the records of the "conte_wcfg" stage
 * (src/stages/conte_wcfg.c): one struct conte_brec per executed conditional
 * branch, while the stage builds the exact WCFG once for every instance of
 * the job (its shared result).  A model's instance struct starts with a
 * struct conte_base; its feed() calls conte_feed() with its own access and
 * sample functions (inlined: no function-pointer table between the driver
 * and the hardware), its finish() calls conte_finish().
 */
#ifndef CONTE_COMMON_H
#define CONTE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "core/params.h"
#include "families/conte_cfg.h"
#include "run/model.h"
#include "stages/conte_wcfg.h"
#include "trace/event.h"

/* Parameters every conte model declares (first in its table). */
#define CONTE_COMMON_PARAMS                                                                                     \
    P_INT("btb_entries", 1024, 1, 1048576,                                                                      \
          "entries of the branch buffer: BTB (one-level, counter) or history register table (two-level)"),      \
    P_INT("btb_assoc", 1, 1, 1048576,                                                                           \
          "associativity of the branch buffer, LRU within a set (1 = direct mapped; must divide btb_entries)"), \
    P_INT("sample_period", 10000, 1, 1e12,                                                                      \
          "conditional branches between sampling points (stand-in for the paper's kernel entries)"),            \
    P_REAL("sample_jitter", 0, 0, 1,                                                                            \
           "randomised period: each period uniform in sample_period*(1-j) .. sample_period*(1+j)"),             \
    P_INT("seed", 1, 0, 9007199254740991.0, "random seed for sample_jitter"),                                   \
    P_INT("dw_threshold", 10000, 1, 1e15,                                                                       \
          "Table IV split: blocks executed fewer times count as 'lo', others as 'hi'"),                         \
    P_REAL("dw_share", 1e-3, 0, 1,                                                                              \
           "window-scaled Table IV split: threshold = dw_share x dynamic conditional branches (0 = off)"),      \
    P_REAL("sb_threshold", 0.60, 0, 1,                                                                          \
           "trace selection threshold: minimum arc share of both ends' node weights (section 4.2)"),            \
    P_INT("cfg_capacity", 65536, 64, 67108864,                                                                  \
          "initial capacity of the WCFG tables (they double between batches when needed)")

/* Metric rows (conte_metrics[k] is metric k of enum conte_metric). */
extern const struct metric_spec conte_metrics[];

enum conte_metric {
    CM_INSNS,
    CM_COND_BRANCHES,
    CM_STATIC_BRANCHES,
    CM_BLOCKS,
    CM_ARCS,
    CM_SAMPLES,
    CM_CONTENTIONS,
    CM_CONTENTIONS_PER_KBR,
    CM_ACCURACY,
    CM_DW_LO,
    CM_DW_HI,
    CM_DW_MEAN_LO,
    CM_DW_MEAN_HI,
    CM_N_LO,
    CM_N_HI,
    CM_DW_SHARE_THRESHOLD,
    CM_DW_LO_SHARE,
    CM_DW_HI_SHARE,
    CM_SB_SAME,
    CM_SB_LINK,
    CM_SB_COMPLETION,
    CM_SB_COMPLETION_EXACT,
    CM_SB_LEN_DYN,
    CM_SB_LEN_DYN_EXACT,
    CM_SB_LEN_DYN_BB,
    CM_SB_MULTI,
    CM_SB_MULTI_EXACT,
    CM_INFER_ROUNDS,
    CM_COUNT
};

/* ---- set-associative tag store with LRU ---- */
struct conte_tags {
    size_t sets, assoc, entries;
    uint64_t set_mask; /* sets - 1 when sets is a power of two, else 0 */
    uint64_t *tag;
    uint64_t *stamp;   /* last use, for LRU */
    uint8_t *valid;
    uint64_t clock;
};
/* Returns 0, or -1 with err filled (entries not a multiple of assoc, OOM). */
int conte_tags_init(struct conte_tags *t, int64_t entries, int64_t assoc, char *err, size_t errlen);
void conte_tags_destroy(struct conte_tags *t);
/* Look pc up; on a miss allocate the invalid or least recently used way of
 * its set.  *hit = 1 on a hit; *evicted = 1 when a valid entry of another
 * branch was replaced (a contention).  Returns the entry index. */
static inline size_t conte_tags_access(struct conte_tags *t, uint64_t pc, int *hit, int *evicted)
{
    size_t set = (size_t)(t->set_mask ? (pc & t->set_mask) : (pc % t->sets));
    if (t->assoc == 1) { /* direct mapped: no LRU choice, so no stamps (never compared) */
        *hit = t->valid[set] && t->tag[set] == pc;
        *evicted = t->valid[set] && !*hit;
        t->valid[set] = 1;
        t->tag[set] = pc;
        return set;
    }
    t->clock++;
    size_t base = set * t->assoc, victim = base;
    *evicted = 0;
    for (size_t w = base; w < base + t->assoc; w++) {
        if (t->valid[w] && t->tag[w] == pc) {
            t->stamp[w] = t->clock;
            *hit = 1;
            return w;
        }
        if (!t->valid[w]) {
            if (t->valid[victim])
                victim = w;
        } else if (t->valid[victim] && t->stamp[w] < t->stamp[victim]) {
            victim = w;
        }
    }
    *hit = 0;
    *evicted = t->valid[victim];
    t->valid[victim] = 1;
    t->tag[victim] = pc;
    t->stamp[victim] = t->clock;
    return victim;
}

/* ---- hardware model hooks ---- */

/* An instance's estimated arc weights, indexed by branch slot.  They live
 * beside the (possibly shared) WCFG and are copied into its conte_branch
 * records for the end-of-trace analysis. */
struct conte_est {
    double est_taken;
    double est_fall;
};

/* Per-instance outcome counters. */
struct conte_stats {
    uint64_t contentions; /* valid entries of another branch replaced */
    uint64_t predicted;   /* branches the scheme predicted */
    uint64_t correct;     /* ... correctly */
};

/* Hardware hooks of a model, called with the instance (which starts with
 * its struct conte_base):
 *   access: n conditional branches executed in order, with no sampling
 *           point among them (one may follow the last); updates st.
 *   sample: sampling point: add this period's estimate to est[slot], then
 *           reset per-period state; n_insns, n_conds: instructions and
 *           conditional branches since the last sample.
 *   final:  optional (NULL), after the last sample: final scaling (e.g. by
 *           1/B) of the nbr estimates. */
typedef void (*conte_access_fn)(void *m, const struct conte_brec *r, size_t n, struct conte_stats *st);
typedef void (*conte_sample_fn)(void *m, struct conte_est *est, uint64_t n_insns, uint64_t n_conds);
typedef void (*conte_final_fn)(void *m, struct conte_est *est, size_t nbr);

struct conte_base {
    struct conte_cfg *cfg;    /* the stage's WCFG (not owned) */
    struct conte_est *est;    /* per slot, cap_est entries (zeroed beyond use) */
    size_t cap_est;
    /* sampling */
    uint64_t period, cur_period, since_conds, insns_at_sample, conds_at_sample;
    uint64_t conds_seen;      /* branch records fed so far */
    double jitter;
    uint64_t rng;
    uint64_t samples;
    struct conte_stats st;
    /* analysis */
    int64_t dw_threshold;
    double dw_share, sb_threshold;
    double metrics[CM_COUNT];
    int finished;
};

/* model_desc hooks every conte model shares: its metrics, plan, report and
 * trace needs; a model adds its name, summary, parameters (starting with
 * CONTE_COMMON_PARAMS), create, feed, finish, free and cost:
 *     static const struct model_desc m = { .name = ..., ..., CONTE_MODEL_HOOKS };  */
void conte_plan(const struct param_values *pv, struct plan *p);
void conte_report(void *m, struct model_out *o);
unsigned conte_trace_needs(const struct param_values *pv);
#define CONTE_MODEL_HOOKS                                                                              \
    .metrics = conte_metrics, .plan = conte_plan, .report = conte_report, .trace_needs = conte_trace_needs

/* Initialise b from ctx (parameters, the stage's WCFG) and the branch
 * buffer's tag store t (btb_entries, btb_assoc).  Returns 0, or -1 with
 * ctx->err filled and nothing left to free. */
int conte_base_init(struct conte_base *b, struct conte_tags *t, const struct model_ctx *ctx);
/* Frees both (either may be zeroed, never initialised). */
void conte_base_destroy(struct conte_base *b, struct conte_tags *t);
/* Sampling point after the branch that brought the totals to insns, conds. */
void conte_take_sample(struct conte_base *b, conte_sample_fn sample, uint64_t insns, uint64_t conds);
/* Make room for estimates of slots below need (doubling). */
void conte_est_reserve(struct conte_base *b, size_t need);

/* Run the hardware over n branch records; sampling points fall every
 * cur_period conditional branches.  Inline so that access and sample are
 * direct calls in each model's feed(). */
static inline void conte_feed(struct conte_base *b, const struct conte_brec *r, size_t n, conte_access_fn access,
                              conte_sample_fn sample)
{
    conte_est_reserve(b, conte_cfg_nbranches(b->cfg));
    uint64_t conds0 = b->conds_seen;
    size_t p = 0;
    while (p < n) {
        uint64_t left = b->cur_period - b->since_conds; /* >= 1 */
        size_t span = (uint64_t)(n - p) < left ? n - p : (size_t)left;
        access(b, r + p, span, &b->st);
        b->since_conds += span;
        p += span;
        if (b->since_conds >= b->cur_period)
            conte_take_sample(b, sample, r[p - 1].insns, conds0 + p);
    }
    b->conds_seen += n;
}

/* End of window: the last sample (program exit), final scaling, this
 * instance's estimates into the WCFG's branch records (scratch: instances of
 * one stage finish one after another), then the analysis into b->metrics. */
void conte_finish(struct conte_base *b, conte_sample_fn sample, conte_final_fn final);

/* Table IV (formulas (1)-(2)) over the branch records: for each branch block
 * with exec > 0, delta_w = max over its two arcs of |w - w_est| with both as
 * shares of the block's out-flow; a block with no estimate has w_est = 0.
 * Blocks whose taken target equals the fall-through have one arc and are
 * skipped.  Sums and counts for exec < threshold (lo) and >= (hi). */
void conte_delta_w(struct conte_cfg *cfg, double threshold, double *sum_lo, double *sum_hi, uint64_t *n_lo,
                   uint64_t *n_hi);

#endif
