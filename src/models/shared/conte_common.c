/* conte_common.c - shared driver of the Conte et al. models: tag store,
 * sampling schedule, exact WCFG, end-of-trace metrics (see conte_common.h).
 */
#include "models/shared/conte_common.h"
#include "trace/trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/mix64.h"
#include "families/conte_tsel.h"
#include "run/stage.h"

const struct metric_spec conte_metrics[] = {
    [CM_INSNS] = METRIC("insns", "instructions in the window"),
    [CM_COND_BRANCHES] = METRIC("cond_branches", "dynamic conditional branches"),
    [CM_STATIC_BRANCHES] = METRIC("static_branches", "distinct conditional branch pcs"),
    [CM_BLOCKS] = METRIC("blocks", "basic blocks of the exact WCFG"),
    [CM_ARCS] = METRIC("arcs", "arcs of the exact WCFG"),
    [CM_SAMPLES] = METRIC("samples", "sampling points (the paper's kernel entries)"),
    [CM_CONTENTIONS] = METRIC("contentions", "valid branch-buffer entries of another branch replaced (Figure 2)"),
    [CM_CONTENTIONS_PER_KBR] = METRIC("contentions_per_kbr", "contentions per 1000 conditional branches"),
    [CM_ACCURACY] = METRIC("accuracy_pct", "prediction accuracy of the scheme's counters, percent"),
    [CM_DW_LO] = METRIC("dw_lo", "sum of delta-w over blocks executed fewer than dw_threshold times (Table IV)"),
    [CM_DW_HI] = METRIC("dw_hi", "sum of delta-w over blocks executed at least dw_threshold times (Table IV)"),
    [CM_DW_MEAN_LO] = METRIC("dw_mean_lo_pct", "mean delta-w of the 'lo' blocks, percent"),
    [CM_DW_MEAN_HI] = METRIC("dw_mean_hi_pct", "mean delta-w of the 'hi' blocks, percent"),
    [CM_N_LO] = METRIC("n_lo", "branch blocks below dw_threshold executions"),
    [CM_N_HI] = METRIC("n_hi", "branch blocks at or above dw_threshold executions"),
    [CM_DW_SHARE_THRESHOLD] = METRIC("dw_share_threshold", "window-scaled split: dw_share x dynamic conditional branches"),
    [CM_DW_LO_SHARE] = METRIC("dw_lo_share", "dw_lo with the window-scaled split"),
    [CM_DW_HI_SHARE] = METRIC("dw_hi_share", "dw_hi with the window-scaled split"),
    [CM_SB_SAME] = METRIC("sb_same_pct", "dynamic block executions in the same superblock as with the exact profile, percent"),
    [CM_SB_LINK] = METRIC("sb_link_pct", "dynamic executions whose superblock link agrees with the exact profile's, percent"),
    [CM_SB_COMPLETION] = METRIC("sb_completion_pct", "completion rate of the chosen superblocks under true weights, percent"),
    [CM_SB_COMPLETION_EXACT] = METRIC("sb_completion_exact_pct", "the same for superblocks chosen from the exact profile"),
    [CM_SB_LEN_DYN] = METRIC("sb_len_dyn", "dynamic superblock length (instructions per entry) from the estimate"),
    [CM_SB_LEN_DYN_EXACT] = METRIC("sb_len_dyn_exact", "dynamic superblock length from the exact profile"),
    [CM_SB_LEN_DYN_BB] = METRIC("sb_len_dyn_bb", "dynamic basic-block length (instructions per block execution)"),
    [CM_SB_MULTI] = METRIC("sb_multi", "superblocks of more than one block, from the estimate"),
    [CM_SB_MULTI_EXACT] = METRIC("sb_multi_exact", "superblocks of more than one block, from the exact profile"),
    [CM_INFER_ROUNDS] = METRIC("infer_rounds", "rounds of the fall-through weight inference (section 3.1)"),
    [CM_COUNT] = METRIC_END,
};

/* ---- tag store ---- */

int conte_tags_init(struct conte_tags *t, int64_t entries, int64_t assoc, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (entries < 1 || assoc < 1 || assoc > entries || entries % assoc != 0) {
        snprintf(err, errlen, "'btb_assoc' (%lld) must divide 'btb_entries' (%lld)", (long long)assoc,
                 (long long)entries);
        return -1;
    }
    t->entries = (size_t)entries;
    t->assoc = (size_t)assoc;
    t->sets = t->entries / t->assoc;
    t->set_mask = (t->sets & (t->sets - 1)) == 0 ? t->sets - 1 : 0;
    if (t->sets == 1)
        t->set_mask = 0; /* pc % 1 == 0: modulo path handles it */
    t->tag = calloc(t->entries, sizeof *t->tag);
    t->stamp = calloc(t->entries, sizeof *t->stamp);
    t->valid = calloc(t->entries, sizeof *t->valid);
    if (!t->tag || !t->stamp || !t->valid) {
        conte_tags_destroy(t);
        snprintf(err, errlen, "out of memory for %lld branch buffer entries", (long long)entries);
        return -1;
    }
    return 0;
}

void conte_tags_destroy(struct conte_tags *t)
{
    free(t->tag);
    free(t->stamp);
    free(t->valid);
    memset(t, 0, sizeof *t);
}

/* ---- sampling schedule ---- */

static uint64_t next_period(struct conte_base *b)
{
    if (b->jitter <= 0)
        return b->period;
    double lo = (double)b->period * (1 - b->jitter), hi = (double)b->period * (1 + b->jitter);
    double u = (double)(splitmix64(&b->rng) >> 11) * (1.0 / 9007199254740992.0);
    double p = floor(lo + u * (hi - lo + 1));
    return p < 1 ? 1 : (uint64_t)p;
}

void conte_take_sample(struct conte_base *b, conte_sample_fn sample, uint64_t insns, uint64_t conds)
{
    sample(b, b->est, insns - b->insns_at_sample, conds - b->conds_at_sample);
    b->insns_at_sample = insns;
    b->conds_at_sample = conds;
    b->samples++;
    b->since_conds = 0;
    b->cur_period = next_period(b);
}

/* ---- model life cycle ---- */

int conte_base_init(struct conte_base *b, struct conte_tags *t, const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    b->cfg = ctx->input;
    b->cap_est = (size_t)pv_int(pv, "cfg_capacity");
    b->est = calloc(b->cap_est, sizeof *b->est);
    if (!b->est) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return -1;
    }
    b->period = (uint64_t)pv_int(pv, "sample_period");
    b->jitter = pv_real(pv, "sample_jitter");
    b->rng = (uint64_t)pv_int(pv, "seed");
    b->dw_threshold = pv_int(pv, "dw_threshold");
    b->dw_share = pv_real(pv, "dw_share");
    b->sb_threshold = pv_real(pv, "sb_threshold");
    b->cur_period = next_period(b);
    for (int i = 0; i < CM_COUNT; i++)
        b->metrics[i] = NAN;
    if (conte_tags_init(t, pv_int(pv, "btb_entries"), pv_int(pv, "btb_assoc"), ctx->err, ctx->errlen) != 0) {
        conte_base_destroy(b, t);
        return -1;
    }
    return 0;
}

void conte_base_destroy(struct conte_base *b, struct conte_tags *t)
{
    free(b->est);
    b->est = NULL;
    conte_tags_destroy(t);
}

void conte_est_reserve(struct conte_base *b, size_t need)
{
    if (need <= b->cap_est)
        return;
    size_t cap = b->cap_est ? b->cap_est : 64;
    while (cap < need)
        cap *= 2;
    struct conte_est *e = realloc(b->est, cap * sizeof *e);
    if (!e) {
        fprintf(stderr, "conte: out of memory (%zu estimates)\n", cap);
        abort();
    }
    memset(e + b->cap_est, 0, (cap - b->cap_est) * sizeof *e);
    b->est = e;
    b->cap_est = cap;
}

void conte_plan(const struct param_values *pv, struct plan *p)
{
    struct param_values spv;
    params_defaults(&spv, conte_wcfg_stage.params);
    pv_set_int(&spv, "cfg_capacity", pv_int(pv, "cfg_capacity"));
    plan_feed(p, plan_stage(p, PLAN_NONE, &conte_wcfg_stage, &spv));
}

void conte_delta_w(struct conte_cfg *cfg, double threshold, double *sum_lo, double *sum_hi, uint64_t *n_lo,
                   uint64_t *n_hi)
{
    *sum_lo = *sum_hi = 0;
    *n_lo = *n_hi = 0;
    size_t nbr = conte_cfg_nbranches(cfg);
    for (uint32_t s = 0; s < nbr; s++) {
        const struct conte_branch *br = conte_cfg_branch(cfg, s);
        if (br->exec == 0 || br->target == br->fallthru)
            continue;
        /* Normalised arc weights of a two-way block: with e = exec, t =
         * taken, f = e - t and estimates E = Et + Ef, |t/e - Et/E| and
         * |f/e - Ef/E| are both |t*Ef - f*Et| / (e*E).  Computed that way,
         * proportional estimates give exactly 0 (no 1e-16 residues). */
        double e = (double)br->exec, t = (double)br->taken, f = e - t;
        double tot = br->est_taken + br->est_fall, dw;
        if (tot > 0)
            dw = fabs(t * br->est_fall - f * br->est_taken) / (e * tot);
        else /* no estimate at all: both estimated weights are 0 */
            dw = (t > f ? t : f) / e;
        if ((double)br->exec < threshold) {
            *sum_lo += dw;
            (*n_lo)++;
        } else {
            *sum_hi += dw;
            (*n_hi)++;
        }
    }
}

static void analyse(struct conte_base *b)
{
    double *M = b->metrics;
    struct conte_cfg *cfg = b->cfg;
    uint64_t conds = conte_cfg_conds(cfg);
    M[CM_INSNS] = (double)conte_cfg_insns(cfg);
    M[CM_COND_BRANCHES] = (double)conds;
    M[CM_STATIC_BRANCHES] = (double)conte_cfg_nbranches(cfg);
    M[CM_SAMPLES] = (double)b->samples;
    M[CM_CONTENTIONS] = (double)b->st.contentions;
    M[CM_CONTENTIONS_PER_KBR] = conds ? 1000.0 * (double)b->st.contentions / (double)conds : NAN;
    M[CM_ACCURACY] = b->st.predicted ? 100.0 * (double)b->st.correct / (double)b->st.predicted : NAN;

    double lo, hi;
    uint64_t nlo, nhi;
    conte_delta_w(cfg, (double)b->dw_threshold, &lo, &hi, &nlo, &nhi);
    M[CM_DW_LO] = lo;
    M[CM_DW_HI] = hi;
    M[CM_N_LO] = (double)nlo;
    M[CM_N_HI] = (double)nhi;
    M[CM_DW_MEAN_LO] = nlo ? 100.0 * lo / (double)nlo : NAN;
    M[CM_DW_MEAN_HI] = nhi ? 100.0 * hi / (double)nhi : NAN;
    if (b->dw_share > 0) {
        double thr = b->dw_share * (double)conds;
        if (thr < 1)
            thr = 1;
        conte_delta_w(cfg, thr, &lo, &hi, &nlo, &nhi);
        M[CM_DW_SHARE_THRESHOLD] = thr;
        M[CM_DW_LO_SHARE] = lo;
        M[CM_DW_HI_SHARE] = hi;
    }

    struct conte_graph *g = conte_graph_build(cfg);
    if (!g)
        return;
    M[CM_BLOCKS] = (double)g->nblocks;
    M[CM_ARCS] = (double)g->narcs;
    size_t nb = g->nblocks, na = g->narcs;
    double *xn = malloc((nb + 1) * sizeof *xn), *xa = malloc((na + 1) * sizeof *xa);
    double *en = malloc((nb + 1) * sizeof *en), *ea = malloc((na + 1) * sizeof *ea);
    struct conte_traces tx, te;
    memset(&tx, 0, sizeof tx);
    memset(&te, 0, sizeof te);
    if (xn && xa && en && ea) {
        conte_graph_exact(g, xn, xa);
        M[CM_INFER_ROUNDS] = conte_graph_estimate(g, cfg, en, ea);
        if (conte_tsel_select(g, xn, xa, b->sb_threshold, &tx) == 0 &&
            conte_tsel_select(g, en, ea, b->sb_threshold, &te) == 0) {
            struct conte_tsel_eval ex, es;
            conte_tsel_evaluate(g, &tx, NULL, &ex);
            conte_tsel_evaluate(g, &te, &tx, &es);
            M[CM_SB_SAME] = es.same_pct;
            M[CM_SB_LINK] = es.link_pct;
            M[CM_SB_COMPLETION] = es.completion_pct;
            M[CM_SB_COMPLETION_EXACT] = ex.completion_pct;
            M[CM_SB_LEN_DYN] = es.len_dyn;
            M[CM_SB_LEN_DYN_EXACT] = ex.len_dyn;
            M[CM_SB_MULTI] = (double)es.multi;
            M[CM_SB_MULTI_EXACT] = (double)ex.multi;
            double execs = 0, ins = 0;
            for (size_t k = 0; k < nb; k++) {
                execs += (double)g->blocks[k].count;
                ins += (double)g->blocks[k].count * g->blocks[k].ninsn;
            }
            M[CM_SB_LEN_DYN_BB] = execs > 0 ? ins / execs : NAN;
        }
    }
    conte_traces_free(&tx);
    conte_traces_free(&te);
    free(xn);
    free(xa);
    free(en);
    free(ea);
    conte_graph_free(g);
}

void conte_finish(struct conte_base *b, conte_sample_fn sample, conte_final_fn final)
{
    if (b->finished)
        return;
    b->finished = 1;
    /* Program exit: the kernel reads the buffer one last time (step 3 of section 3). */
    struct conte_cfg *cfg = b->cfg;
    conte_est_reserve(b, conte_cfg_nbranches(cfg));
    if (conte_cfg_conds(cfg) > b->conds_at_sample)
        conte_take_sample(b, sample, conte_cfg_insns(cfg), conte_cfg_conds(cfg));
    size_t nbr = conte_cfg_nbranches(cfg);
    if (final)
        final(b, b->est, nbr);
    /* This instance's estimates into the shared WCFG's records: the analysis
     * reads them there; instances finish one after another. */
    for (uint32_t s = 0; s < nbr; s++) {
        struct conte_branch *br = conte_cfg_branch(cfg, s);
        br->est_taken = b->est[s].est_taken;
        br->est_fall = b->est[s].est_fall;
    }
    analyse(b);
}

void conte_report(void *m, struct model_out *o)
{
    const struct conte_base *b = m;
    for (size_t k = 0; k < CM_COUNT; k++)
        out_metric(o, k, b->metrics[k]);
}

unsigned conte_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES;
}
