/* rap_tree_report.c - what a RAP tree reports (see rap_tree.h): statistics,
 * the node of a key, walks over every node or the hot ones, the merge and
 * sample logs.  The tree itself is rap_tree.c. */
#include "families/rap_tree_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reports --------------------------------------------------------------- */

void rap_tree_stats(const struct rap_tree *t, struct rap_tree_stats *st)
{
    memset(st, 0, sizeof *st);
    st->n = t->n;
    st->updates = t->updates;
    st->visits = t->visits;
    st->nodes = t->live;
    st->nodes_max = t->live_max;
    u128 nt = t->node_time + (u128)t->live * (t->n - t->node_time_n);
    st->nodes_avg = t->n ? (double)nt / (double)t->n : (double)t->live;
    st->splits = t->splits;
    st->merges = t->merges;
    st->nodes_merged = t->nodes_merged;
    st->splits_refused = t->refused;
    st->pool_grows = t->pool_grows;
    st->threshold = t->thr;
    st->levels = t->levels;
}

void rap_tree_config(const struct rap_tree *t, struct rap_tree_cfg *out)
{
    memset(out, 0, sizeof *out);
    out->key_bits = t->bits;
    out->stride = t->k;
    out->eps = (double)t->eps_num / (double)EPS_SCALE;
    out->q = t->q;
    out->merge_first = t->m0;
    out->max_nodes = t->max_nodes;
    out->sample_every = t->sample_every;
    out->split = t->split_before ? RAP_SPLIT_BEFORE : RAP_SPLIT_AFTER;
}

void rap_tree_lookup(const struct rap_tree *t, uint64_t hi, uint64_t lo, struct rap_span *out)
{
    u128 key = ((((u128)hi << 64) | lo) << t->align);
    memset(out, 0, sizeof *out);
    u128 pfx = 0;
    unsigned plen = 0;
    uint32_t v = 0;
    for (;;) {
        uint32_t first = t->node[v].first;
        if (first == NONE)
            break;
        uint32_t slot = (uint32_t)(key >> (128 - t->k));
        if (!t->node[first + slot].present)
            break;
        unsigned s = level_bits(t, t->node[v].depth);
        pfx = (pfx << s) | (slot >> (t->k - s));
        plen += s;
        v = first + slot;
        key <<= t->k;
    }
    out->pfx_hi = (uint64_t)(pfx >> 64);
    out->pfx_lo = (uint64_t)pfx;
    out->plen = plen;
    out->depth = t->node[v].depth;
    out->count = t->node[v].count;
}

struct walk {
    const struct rap_tree *t;
    double hot_limit;    /* hot_weight > this: hot; < 0: none */
    uint64_t *total, *hw;
    uint8_t *hot;
    uint64_t *inside;    /* rap_tree_walk_keys: per node, then per subtree */
    void (*fn)(void *ctx, const struct rap_span *s);
    void (*fnk)(void *ctx, const struct rap_span *s, uint64_t inside);
    void *ctx;
    struct rap_span *out;
    size_t nout, capout;
    int oom;
};

static void sums(struct walk *w, uint32_t v)
{
    const struct rap_tree *t = w->t;
    uint64_t total = t->node[v].count, hw = total;
    uint32_t first = t->node[v].first;
    if (first != NONE)
        for (uint32_t i = 0; i < t->b; i++) {
            uint32_t c = first + i;
            if (!t->node[c].present)
                continue;
            sums(w, c);
            total += w->total[c];
            if (!w->hot[c])
                hw += w->hw[c];
            if (w->inside)
                w->inside[v] += w->inside[c];
        }
    w->total[v] = total;
    w->hw[v] = hw;
    w->hot[v] = w->hot_limit >= 0 && (double)hw > w->hot_limit;
}

static void emit(struct walk *w, uint32_t v, u128 pfx, unsigned plen, int only_hot)
{
    const struct rap_tree *t = w->t;
    if (!only_hot || w->hot[v]) {
        struct rap_span s = { (uint64_t)(pfx >> 64), (uint64_t)pfx, plen, t->node[v].depth,
                              t->node[v].count, w->total[v], w->hw[v], w->hot[v] };
        if (w->fn)
            w->fn(w->ctx, &s);
        if (w->fnk)
            w->fnk(w->ctx, &s, w->inside[v]);
        if (only_hot) {
            if (w->nout == w->capout) {
                size_t cap = w->capout ? 2 * w->capout : 16;
                struct rap_span *no = realloc(w->out, cap * sizeof *no);
                if (!no) {
                    w->oom = 1;
                    return;
                }
                w->out = no;
                w->capout = cap;
            }
            w->out[w->nout] = s;
        }
        w->nout++;
    }
    uint32_t first = t->node[v].first;
    if (first == NONE)
        return;
    unsigned s = level_bits(t, t->node[v].depth);
    for (uint32_t i = 0; i < t->b; i++)
        if (t->node[first + i].present)
            emit(w, first + i, (pfx << s) | (i >> (t->k - s)), plen + s, only_hot);
}

static size_t run_walk(struct walk *w, double hot_frac, int only_hot)
{
    const struct rap_tree *t = w->t;
    w->hot_limit = hot_frac > 0 ? hot_frac * (double)t->n : -1;
    size_t nodes = 1 + (size_t)t->bused * t->b;
    w->total = malloc(nodes * sizeof *w->total);
    w->hw = malloc(nodes * sizeof *w->hw);
    w->hot = malloc(nodes);
    size_t r = (size_t)-1;
    if (w->total && w->hw && w->hot) {
        sums(w, 0);
        emit(w, 0, 0, 0, only_hot);
        if (!w->oom)
            r = w->nout;
    }
    free(w->total);
    free(w->hw);
    free(w->hot);
    return r;
}

size_t rap_tree_walk_inside(const struct rap_tree *t, uint64_t *inside,
                            void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx)
{
    struct walk w = { .t = t, .fnk = fn, .ctx = ctx, .inside = inside };
    return run_walk(&w, 0, 0);
}

size_t rap_tree_walk(const struct rap_tree *t, double hot_frac, void (*fn)(void *ctx, const struct rap_span *s), void *ctx)
{
    struct walk w = { .t = t, .fn = fn, .ctx = ctx };
    return run_walk(&w, hot_frac, 0);
}

size_t rap_tree_hot(const struct rap_tree *t, double hot_frac, struct rap_span **out)
{
    struct walk w = { .t = t };
    size_t r = run_walk(&w, hot_frac, 1);
    if (r == (size_t)-1) {
        free(w.out);
        *out = NULL;
        return r;
    }
    *out = w.out;
    return r;
}

void rap_span_range(const struct rap_tree *t, const struct rap_span *s, uint64_t *lo, uint64_t *hi)
{
    unsigned free_bits = t->bits - s->plen;
    if (free_bits >= 128) {
        *lo = 0;
        *hi = UINT64_MAX;
        return;
    }
    u128 base = (((u128)s->pfx_hi << 64) | s->pfx_lo) << free_bits;
    u128 top = base + (((u128)1 << free_bits) - 1);
    *lo = (uint64_t)base;
    *hi = (uint64_t)top;
}

const struct rap_merge_rec *rap_tree_merges(const struct rap_tree *t, size_t *n)
{
    *n = t->nmlog;
    return t->mlog;
}

const struct rap_sample *rap_tree_samples(const struct rap_tree *t, size_t *n)
{
    *n = t->nslog;
    return t->slog;
}
