/* conte_common.c - shared driver of the Conte et al. models: tag store,
 * sampling schedule, exact WCFG, end-of-trace metrics (see conte_common.h).
 */
#include "conte_common.h"
#include "../trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conte_tsel.h"

const char *const conte_metric_names[CM_COUNT + 1] = {
    "insns",
    "cond_branches",
    "static_branches",
    "blocks",
    "arcs",
    "samples",
    "contentions",
    "contentions_per_kbr",
    "accuracy_pct",
    "dw_lo",
    "dw_hi",
    "dw_mean_lo_pct",
    "dw_mean_hi_pct",
    "n_lo",
    "n_hi",
    "dw_share_threshold",
    "dw_lo_share",
    "dw_hi_share",
    "sb_same_pct",
    "sb_link_pct",
    "sb_completion_pct",
    "sb_completion_exact_pct",
    "sb_len_dyn",
    "sb_len_dyn_exact",
    "sb_len_dyn_bb",
    "sb_multi",
    "sb_multi_exact",
    "infer_rounds",
    NULL,
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

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t next_period(struct conte_base *b)
{
    if (b->jitter <= 0)
        return b->period;
    double lo = (double)b->period * (1 - b->jitter), hi = (double)b->period * (1 + b->jitter);
    double u = (double)(splitmix(&b->rng) >> 11) * (1.0 / 9007199254740992.0);
    double p = floor(lo + u * (hi - lo + 1));
    return p < 1 ? 1 : (uint64_t)p;
}

/* Sampling point after the branch that brought the totals to insns, conds. */
static void take_sample(struct conte_base *b, uint64_t insns, uint64_t conds)
{
    b->hw_ops->sample(b->hw, b->est, insns - b->insns_at_sample, conds - b->conds_at_sample);
    b->insns_at_sample = insns;
    b->conds_at_sample = conds;
    b->samples++;
    b->since_conds = 0;
    b->cur_period = next_period(b);
}

/* ---- model life cycle ---- */

void *conte_model_create(const struct param_values *pv, const struct conte_hw *ops, void *hw, char *err,
                         size_t errlen)
{
    if (!hw) {
        if (err && errlen && !err[0])
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct conte_base *b = calloc(1, sizeof *b);
    if (!b) {
        ops->free(hw);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->hw_ops = ops;
    b->hw = hw;
    b->cfg_capacity = (size_t)pv_int(pv, "cfg_capacity");
    b->cfg = conte_cfg_create(b->cfg_capacity);
    b->cap_est = b->cfg_capacity;
    b->est = calloc(b->cap_est, sizeof *b->est);
    if (!b->cfg || !b->est) {
        conte_model_free(b);
        snprintf(err, errlen, "out of memory");
        return NULL;
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
    return b;
}

/* Make room for estimates of slots below need (growth by doubling, at most
 * once per batch, like conte_cfg_reserve). */
static void est_reserve(struct conte_base *b, size_t need)
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

/* Branches recorded per step of the shared WCFG pass: every member's
 * hardware then runs over them while its tables are hot in cache. */
#define CONTE_CHUNK 1024

/* Run b's hardware over n branches; the first is conditional branch number
 * conds0 + 1 of the trace.  Sampling points fall where they would alone. */
static void member_run(struct conte_base *b, const struct conte_brec *r, size_t n, uint64_t conds0)
{
    size_t p = 0;
    while (p < n) {
        uint64_t left = b->cur_period - b->since_conds; /* >= 1 */
        size_t span = (uint64_t)(n - p) < left ? n - p : (size_t)left;
        b->hw_ops->access(b->hw, r + p, span, &b->st);
        b->since_conds += span;
        p += span;
        if (b->since_conds >= b->cur_period)
            take_sample(b, r[p - 1].insns, conds0 + p);
    }
}

int conte_model_share_key(const void *m, char *key, size_t len)
{
    const struct conte_base *b = m;
    /* The shared part is the exact WCFG: it depends only on the event
     * stream (the runner also matches event masks) and, for its table
     * sizes, on cfg_capacity.  Hardware, sampling and analysis parameters
     * stay per instance. */
    snprintf(key, len, "conte-wcfg capacity=%zu", b->cfg_capacity);
    return 1;
}

void conte_model_feed_group(void *const *mv, size_t nm, const struct event *ev, size_t count)
{
    struct conte_base *lead = mv[0];
    struct conte_cfg *cfg = lead->cfg;
    for (size_t k = 1; k < nm; k++) {
        struct conte_base *b = mv[k];
        if (b->cfg != cfg) { /* first batch: adopt the lead's WCFG (own one is still empty) */
            conte_cfg_free(b->cfg);
            b->cfg = conte_cfg_ref(cfg);
        }
    }
    conte_cfg_reserve(cfg, count); /* all table growth happens here, once per batch */
    size_t need = conte_cfg_nbranches(cfg) + count;
    for (size_t k = 0; k < nm; k++)
        est_reserve(mv[k], need);
    struct conte_brec rec[CONTE_CHUNK];
    size_t i = 0;
    while (i < count) {
        uint64_t conds0 = conte_cfg_conds(cfg);
        size_t nr = 0;
        for (; i < count && nr < CONTE_CHUNK; i++) {
            const struct event *e = &ev[i];
            switch (e->kind) {
            case EV_INSN:
                conte_cfg_insn(cfg, e->pc, e->size);
                break;
            case EV_BRANCH: {
                struct conte_brec *r = &rec[nr++];
                r->slot = conte_cfg_cond(cfg, e->pc, e->addr, e->value, e->taken);
                r->pc = e->pc;
                r->taken = e->taken != 0;
                r->insns = conte_cfg_insns(cfg);
                break;
            }
            case EV_CALL:
                conte_cfg_call(cfg, e->pc);
                break;
            case EV_RET:
                conte_cfg_ret(cfg, e->pc);
                break;
            case EV_IJUMP:
                conte_cfg_ijump(cfg, e->pc);
                break;
            default:
                break;
            }
        }
        if (nr == 0)
            continue;
        for (size_t k = 0; k < nm; k++)
            member_run(mv[k], rec, nr, conds0);
    }
}

void conte_model_feed(void *m, const struct event *ev, size_t n)
{
    void *one[1] = { m };
    conte_model_feed_group(one, 1, ev, n);
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

void conte_model_finish(void *m)
{
    struct conte_base *b = m;
    if (b->finished)
        return;
    b->finished = 1;
    conte_cfg_end(b->cfg);
    /* Program exit: the kernel reads the buffer one last time (step 3 of section 3). */
    struct conte_cfg *cfg = b->cfg;
    if (conte_cfg_conds(cfg) > b->conds_at_sample)
        take_sample(b, conte_cfg_insns(cfg), conte_cfg_conds(cfg));
    size_t nbr = conte_cfg_nbranches(cfg);
    if (b->hw_ops->finish)
        b->hw_ops->finish(b->hw, b->est, nbr);
    /* This instance's estimates into the (possibly shared) WCFG's records:
     * the analysis reads them there; members finish one after another. */
    for (uint32_t s = 0; s < nbr; s++) {
        struct conte_branch *br = conte_cfg_branch(cfg, s);
        br->est_taken = b->est[s].est_taken;
        br->est_fall = b->est[s].est_fall;
    }
    analyse(b);
}

void conte_model_report(const void *m, double *out)
{
    const struct conte_base *b = m;
    memcpy(out, b->metrics, sizeof b->metrics);
}

void conte_model_free(void *m)
{
    struct conte_base *b = m;
    if (!b)
        return;
    if (b->hw && b->hw_ops)
        b->hw_ops->free(b->hw);
    conte_cfg_free(b->cfg);
    free(b->est);
    free(b);
}

unsigned conte_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES;
}
