/* rap_prof.c - one RAP profile of an event stream (see rap_prof.h). */
#include "families/rap_prof.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct rap_prof {
    struct keysel sel;
    int dims, agg;
    unsigned bits;
    struct rap_tree *tree;
    struct rap_buffer buf;
    struct keycount *all;   /* full aggregation */
    uint64_t events;
    int finished;
};

struct rap_prof *rap_prof_create(const struct rap_prof_cfg *cfg, char *err, size_t errlen)
{
    if (cfg->dims != 1 && cfg->dims != 2) {
        snprintf(err, errlen, "dims must be 1 or 2");
        return NULL;
    }
    struct rap_prof *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->sel = cfg->sel;
    p->dims = cfg->dims;
    p->agg = cfg->agg;
    p->bits = cfg->key_bits;
    if (cfg->dims == 1) {
        struct rap_tree_cfg tc = cfg->tree;
        tc.key_bits = cfg->key_bits;
        tc.stride = cfg->stride;
        p->tree = rap_tree_create(&tc, err, errlen);
    } else {
        p->tree = rap2d_create(cfg->key_bits, cfg->stride, &cfg->tree, err, errlen);
    }
    if (!p->tree) {
        free(p);
        return NULL;
    }
    int bad = 0;
    if (p->agg == RAP_AGG_BUFFER)
        bad = rap_buffer_init(&p->buf, cfg->buffer_entries) != 0;
    else if (p->agg == RAP_AGG_FULL)
        bad = !(p->all = keycount_create(1 << 12));
    if (bad) {
        rap_prof_free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return p;
}

void rap_prof_free(struct rap_prof *p)
{
    if (!p)
        return;
    rap_tree_free(p->tree);
    rap_buffer_destroy(&p->buf);
    keycount_free(p->all);
    free(p);
}

#define PF_BATCH 1024

/* The loops are split by mode so that the common ones stay tight. */
void rap_prof_feed(struct rap_prof *p, const struct event *ev, size_t n)
{
    const struct keysel *sel = &p->sel;
    uint64_t x, y, hi, lo, events = 0;
    if (p->dims == 1) {
        switch (p->agg) {
        case RAP_AGG_NONE:
            for (size_t i = 0; i < n; i++)
                if (keysel_key(sel, &ev[i], &x, &y)) {
                    rap_tree_add1(p->tree, x);
                    events++;
                }
            break;
        case RAP_AGG_BUFFER:
            for (size_t i = 0; i < n; i++)
                if (keysel_key(sel, &ev[i], &x, &y)) {
                    rap_buffer_add(&p->buf, p->tree, 0, x);
                    events++;
                }
            break;
        default:
            for (size_t i = 0; i < n; i++)
                if (keysel_key(sel, &ev[i], &x, &y)) {
                    (void)keycount_add(p->all, x, 0, 1);
                    events++;
                }
            break;
        }
    } else if (p->agg == RAP_AGG_NONE) {
        /* a batch of pairs at a time (the tree requests their cache lines
         * ahead of the updates; the tree and the cache of a 2-D profile are
         * far larger than the L1) */
        struct rap_pair k[PF_BATCH];
        size_t nk = 0;
        if (sel->filter == KS_LOADS && !sel->needs_value && sel->field2 != KF_NONE) {
            /* keysel_key of loads keyed by two of pc and address (no value,
             * so no EVF_NOVALUE test): the same records and keys without its
             * per-record dispatch */
            const int xa = sel->field == KF_ADDR, ya = sel->field2 == KF_ADDR;
            const uint64_t mx = sel->mask, my = sel->mask2;
            for (size_t i = 0; i < n; i++) {
                const struct event *e = &ev[i];
                if (e->kind != EV_LOAD)
                    continue;
                k[nk].x = (xa ? e->addr : e->pc) & mx;
                k[nk].y = (ya ? e->addr : e->pc) & my;
                if (++nk == PF_BATCH) {
                    rap_tree_add_pairs(p->tree, k, nk);
                    events += nk;
                    nk = 0;
                }
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                if (!keysel_key(sel, &ev[i], &k[nk].x, &k[nk].y))
                    continue;
                if (++nk == PF_BATCH) {
                    rap_tree_add_pairs(p->tree, k, nk);
                    events += nk;
                    nk = 0;
                }
            }
        }
        rap_tree_add_pairs(p->tree, k, nk);
        events += nk;
    } else {
        for (size_t i = 0; i < n; i++) {
            if (!keysel_key(sel, &ev[i], &x, &y))
                continue;
            events++;
            if (p->agg == RAP_AGG_FULL) {
                (void)keycount_add(p->all, x, y, 1);
                continue;
            }
            rap2d_key(p->bits, x, y, &hi, &lo);
            rap_buffer_add(&p->buf, p->tree, hi, lo);
        }
    }
    p->events += events;
}

void rap_prof_finish(struct rap_prof *p)
{
    if (p->finished)
        return;
    p->finished = 1;
    if (p->agg == RAP_AGG_BUFFER) {
        rap_buffer_flush(&p->buf, p->tree);
    } else if (p->agg == RAP_AGG_FULL) {
        size_t nd = keycount_distinct(p->all);
        for (size_t i = 0; i < nd; i++) {
            const struct keycount_entry *e = keycount_entry(p->all, i);
            if (p->dims == 1)
                rap_tree_add(p->tree, e->a, e->count);
            else
                rap2d_add(p->tree, p->bits, e->a, e->b, e->count);
        }
    }
}

const struct rap_tree *rap_prof_tree(const struct rap_prof *p) { return p->tree; }
uint64_t rap_prof_events(const struct rap_prof *p) { return p->events; }
int rap_prof_dims(const struct rap_prof *p) { return p->dims; }
unsigned rap_prof_key_bits(const struct rap_prof *p) { return p->bits; }

static void span_rect(const struct rap_prof *p, const struct rap_span *s, struct rap_rect *r)
{
    if (p->dims == 2) {
        rap2d_span_rect(p->bits, s, r);
    } else {
        rap_span_range(p->tree, s, &r->xlo, &r->xhi);
        r->ylo = r->yhi = 0;
    }
}

static uint64_t exact_of(const struct rap_prof *p, const struct keycount *kc, const struct rap_rect *r)
{
    return p->dims == 2 ? keycount_rect(kc, r->xlo, r->xhi, r->ylo, r->yhi) : keycount_range(kc, r->xlo, r->xhi);
}

static int inside(const struct rap_hot *a, const struct rap_hot *b) /* a within b */
{
    return a->lo >= b->lo && a->hi <= b->hi && a->ylo >= b->ylo && a->yhi <= b->yhi;
}

static unsigned width_log2(uint64_t lo, uint64_t hi)
{
    uint64_t w = hi - lo; /* 2^k - 1 */
    unsigned k = 0;
    while (k < 64 && (w >> k))
        k++;
    return k;
}

size_t rap_prof_hot(const struct rap_prof *p, double hot_frac, const struct keycount *exact, struct rap_hot **out)
{
    struct rap_span *h;
    *out = NULL;
    size_t n = rap_tree_hot(p->tree, hot_frac, &h);
    if (n == (size_t)-1)
        return n;
    struct rap_hot *r = calloc(n ? n : 1, sizeof *r);
    if (!r) {
        free(h);
        return (size_t)-1;
    }
    int have_exact = exact && keycount_sorted(exact);
    for (size_t i = 0; i < n; i++) {
        struct rap_rect rect;
        span_rect(p, &h[i], &rect);
        r[i].lo = rect.xlo;
        r[i].hi = rect.xhi;
        r[i].ylo = rect.ylo;
        r[i].yhi = rect.yhi;
        r[i].depth = h[i].depth;
        r[i].width_log2 = width_log2(rect.xlo, rect.xhi);
        r[i].ywidth_log2 = p->dims == 2 ? width_log2(rect.ylo, rect.yhi) : 0;
        r[i].estimate = h[i].total;
        r[i].estimate_own = h[i].hot_weight;
        r[i].exact = have_exact ? exact_of(p, exact, &rect) : UINT64_MAX;
        r[i].exact_own = r[i].exact;
        r[i].error_pct = NAN;
        /* estimates are lower bounds, so this is >= 0 when exact counts the same stream */
        if (have_exact && r[i].exact)
            r[i].error_pct = 100.0 * ((double)r[i].exact - (double)r[i].estimate) / (double)r[i].exact;
        else if (have_exact)
            r[i].error_pct = 0;
    }
    /* exact_own: minus the largest hot ranges strictly inside (pre-order puts
     * them right after, each before its own sub-ranges) */
    for (size_t i = 0; have_exact && i < n; i++) {
        size_t last = (size_t)-1;
        for (size_t j = i + 1; j < n && inside(&r[j], &r[i]); j++) {
            if (last != (size_t)-1 && inside(&r[j], &r[last]))
                continue;
            r[i].exact_own -= r[j].exact;
            last = j;
        }
    }
    free(h);
    *out = r;
    return n;
}

struct worst {
    const struct rap_prof *p;
    const struct keycount *kc;
    uint64_t max_missing;
};

static void worst_fn(void *ctx, const struct rap_span *s)
{
    struct worst *w = ctx;
    struct rap_rect r;
    span_rect(w->p, s, &r);
    uint64_t e = exact_of(w->p, w->kc, &r);
    uint64_t missing = e > s->total ? e - s->total : s->total - e;
    if (missing > w->max_missing)
        w->max_missing = missing;
}

static void worst_keys_fn(void *ctx, const struct rap_span *s, uint64_t e)
{
    struct worst *w = ctx;
    uint64_t missing = e > s->total ? e - s->total : s->total - e;
    if (missing > w->max_missing)
        w->max_missing = missing;
}

double rap_prof_worst_eps(const struct rap_prof *p, const struct keycount *exact)
{
    struct rap_tree_stats st;
    rap_tree_stats(p->tree, &st);
    if (!exact || !keycount_sorted(exact) || st.n == 0)
        return NAN;
    struct worst w = { p, exact, 0 };
    if (p->dims == 2) {
        /* A rectangle query per node scans every pair whose x is in range
         * (the root: all of them); instead, each pair's count goes to the
         * deepest node holding it and the walk sums them up the tree: the
         * same exact count of every node's rectangle. */
        _Static_assert(offsetof(struct keycount_entry, a) == 0 && offsetof(struct keycount_entry, b) == 8 &&
                           offsetof(struct keycount_entry, count) == 16,
                       "a keycount entry starts with x, y and the weight (rap_tree_walk_pairs)");
        size_t r = rap_tree_walk_pairs(p->tree, keycount_entries(exact), keycount_distinct(exact),
                                       sizeof(struct keycount_entry), worst_keys_fn, &w);
        if (r != (size_t)-1)
            return (double)w.max_missing / (double)st.n;
        w.max_missing = 0;
    }
    if (rap_tree_walk(p->tree, 0, worst_fn, &w) == (size_t)-1)
        return NAN;
    return (double)w.max_missing / (double)st.n;
}

struct cells {
    const struct rap_prof *p;
    void (*fn)(void *ctx, const struct rap_rect *r, const struct rap_span *s);
    void *ctx;
};

static void cells_fn(void *ctx, const struct rap_span *s)
{
    struct cells *c = ctx;
    struct rap_rect r;
    span_rect(c->p, s, &r);
    c->fn(c->ctx, &r, s);
}

size_t rap_prof_cells(const struct rap_prof *p, void (*fn)(void *ctx, const struct rap_rect *r, const struct rap_span *s),
                      void *ctx)
{
    struct cells c = { p, fn, ctx };
    return rap_tree_walk(p->tree, 0, cells_fn, &c);
}
