/* test_rap_prof.c - a RAP profile of an event stream: record selection
 * (keysel.h), the three aggregation modes, hot ranges scored against exact
 * counts (exact and own counts by hand), and the 2-D profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "families/rap_prof.h"

static struct event load(uint64_t pc, uint64_t addr, uint64_t value)
{
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = EV_LOAD;
    e.pc = pc;
    e.addr = addr;
    e.value = value;
    e.size = 8;
    return e;
}

static struct rap_prof *mk_rule(int filter, int field, int field2, unsigned bits, unsigned stride, double eps,
                                uint64_t m0, int agg, enum rap_split split)
{
    struct rap_prof_cfg c;
    memset(&c, 0, sizeof c);
    c.tree.split = split;
    keysel_init(&c.sel, filter, field, field2, bits, bits);
    c.dims = field2 == KF_NONE ? 1 : 2;
    c.key_bits = bits;
    c.stride = stride;
    c.tree.eps = eps;
    c.tree.q = 2;
    c.tree.merge_first = m0;
    c.agg = agg;
    c.buffer_entries = 16;
    char err[200];
    struct rap_prof *p = rap_prof_create(&c, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    return p;
}

/* The default split rule, before. */
static struct rap_prof *mk(int filter, int field, int field2, unsigned bits, unsigned stride, double eps, uint64_t m0,
                           int agg)
{
    return mk_rule(filter, field, field2, bits, stride, eps, m0, agg, RAP_SPLIT_BEFORE);
}

/* Selection: values skip loads without a value and non-loads; zero_loads
 * keep loads of 0 keyed by address. */
static void test_selection(void **state)
{
    (void)state;
    struct event ev[5] = { load(1, 0x10, 0), load(2, 0x20, 5), load(3, 0x30, 0), load(4, 0x40, 0), load(5, 0x50, 7) };
    ev[3].flags = EVF_NOVALUE;
    ev[4].kind = EV_STORE;
    struct rap_prof *p = mk(KS_LOADS, KF_VALUE, KF_NONE, 16, 2, 0.5, 0, RAP_AGG_NONE);
    rap_prof_feed(p, ev, 5);
    assert_int_equal(rap_prof_events(p), 3);
    rap_prof_free(p);
    p = mk(KS_ZERO_LOADS, KF_ADDR, KF_NONE, 16, 2, 0.5, 0, RAP_AGG_NONE);
    rap_prof_feed(p, ev, 5);
    assert_int_equal(rap_prof_events(p), 2);
    struct rap_span s;
    rap_tree_lookup(rap_prof_tree(p), 0, 0x30, &s);
    assert_true(s.plen > 0 || s.count > 0);
    rap_prof_free(p);
    p = mk(KS_LOADS, KF_ADDR, KF_NONE, 16, 2, 0.5, 0, RAP_AGG_NONE);
    rap_prof_feed(p, ev, 5);
    assert_int_equal(rap_prof_events(p), 4); /* addresses need no value */
    rap_prof_free(p);
}

/* The tree1 stream of test_rap_tree.c as load values (4-bit keys, b = 2,
 * eps = 1, no merges), split after: hot above 30% are the root (own 5, range 8) and
 * [10, 11] (own 3 of exact 6: the counters above it took the other 3). */
static void test_hot_scored(void **state)
{
    (void)state;
    const uint64_t vals[] = { 10, 10, 10, 10, 10, 10, 3, 3 };
    struct event ev[8];
    struct keycount *kc = keycount_create(0);
    for (int i = 0; i < 8; i++) {
        ev[i] = load(0x400, 0x1000, vals[i]);
        keycount_add(kc, vals[i], 0, 1);
    }
    keycount_sort(kc);
    struct rap_prof *p = mk_rule(KS_LOADS, KF_VALUE, KF_NONE, 4, 1, 1.0, 0, RAP_AGG_NONE, RAP_SPLIT_AFTER);
    rap_prof_feed(p, ev, 8);
    rap_prof_finish(p);
    struct rap_hot *h;
    assert_int_equal(rap_prof_hot(p, 0.30, kc, &h), 2);
    assert_int_equal(h[0].lo, 0);
    assert_int_equal(h[0].hi, 15);
    assert_int_equal(h[0].width_log2, 4);
    assert_int_equal(h[0].estimate, 8);
    assert_int_equal(h[0].estimate_own, 5);
    assert_int_equal(h[0].exact, 8);
    assert_int_equal(h[0].exact_own, 2); /* 8 minus the 6 events of [10, 11] */
    assert_true(h[0].error_pct == 0);
    assert_int_equal(h[1].lo, 10);
    assert_int_equal(h[1].hi, 11);
    assert_int_equal(h[1].width_log2, 1);
    assert_int_equal(h[1].estimate, 3);
    assert_int_equal(h[1].exact, 6);
    assert_true(h[1].error_pct == 50);
    free(h);
    /* every node: [10] misses 5 of its 6 events: 5/8 of the stream */
    assert_true(rap_prof_worst_eps(p, kc) == 5.0 / 8);
    assert_true(isnan(rap_prof_worst_eps(p, NULL)));
    assert_int_equal(rap_prof_hot(p, 0.30, NULL, &h), 2);
    assert_true(h[0].exact == UINT64_MAX && isnan(h[0].error_pct));
    free(h);
    rap_prof_free(p);
    keycount_free(kc);
}

/* The same stream, split before (thr(n) = floor(n / 4)): the first 10
 * (n = 1, threshold 0) splits the root, [8,15], [8,11] and [10,11] and is
 * counted at [10,10]; so are the other five 10s; the 3s (n = 7, 8:
 * thresholds 1, 2) stay on [0,7] (counts 1, 2).  Hot above 30%: [10,10]
 * alone (own 6, exact 6); the root's weight is [0,7]'s 2 < 2.4.  Every
 * range is exact. */
static void test_hot_scored_before(void **state)
{
    (void)state;
    const uint64_t vals[] = { 10, 10, 10, 10, 10, 10, 3, 3 };
    struct event ev[8];
    struct keycount *kc = keycount_create(0);
    for (int i = 0; i < 8; i++) {
        ev[i] = load(0x400, 0x1000, vals[i]);
        keycount_add(kc, vals[i], 0, 1);
    }
    keycount_sort(kc);
    struct rap_prof *p = mk(KS_LOADS, KF_VALUE, KF_NONE, 4, 1, 1.0, 0, RAP_AGG_NONE);
    rap_prof_feed(p, ev, 8);
    rap_prof_finish(p);
    struct rap_hot *h;
    assert_int_equal(rap_prof_hot(p, 0.30, kc, &h), 1);
    assert_int_equal(h[0].lo, 10);
    assert_int_equal(h[0].hi, 10);
    assert_int_equal(h[0].width_log2, 0);
    assert_int_equal(h[0].estimate, 6);
    assert_int_equal(h[0].exact, 6);
    assert_true(h[0].error_pct == 0);
    free(h);
    struct rap_span s;
    rap_tree_lookup(rap_prof_tree(p), 0, 3, &s);
    assert_int_equal(s.plen, 1); /* [0,7] */
    assert_int_equal(s.count, 2);
    struct rap_tree_stats st;
    rap_tree_stats(rap_prof_tree(p), &st);
    assert_int_equal(st.splits, 4);
    assert_int_equal(st.nodes, 9);
    assert_true(rap_prof_worst_eps(p, kc) == 0);
    rap_prof_free(p);
    keycount_free(kc);
}

struct tdump {
    uint64_t v[60000];
    size_t n;
};

static void tdump_fn(void *ctx, const struct rap_span *sp)
{
    struct tdump *d = ctx;
    if (d->n + 4 <= 60000) {
        d->v[d->n++] = sp->pfx_lo;
        d->v[d->n++] = sp->plen;
        d->v[d->n++] = sp->depth;
        d->v[d->n++] = sp->count;
    }
}

/* Aggregation modes: same events and totals; full aggregation equals the
 * tree fed one weighted update per key in first-occurrence order. */
static void test_aggregation_modes(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct event *ev = malloc(N * sizeof *ev);
    uint64_t z = 3;
    for (int i = 0; i < N; i++) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t v = (z >> 60) < 6 ? 0 : (z >> 60) < 10 ? 0x100 + (z >> 33) % 50 : z >> 20;
        ev[i] = load(0x400000 + (z >> 58), 0x7ff000 + (z >> 40) % 4096, v);
    }
    struct rap_prof *p[3];
    for (int a = 0; a < 3; a++) {
        p[a] = mk(KS_LOADS, KF_VALUE, KF_NONE, 64, 2, 0.01, 256, a);
        rap_prof_feed(p[a], ev, N / 2);
        rap_prof_feed(p[a], ev + N / 2, N - N / 2);
        rap_prof_finish(p[a]);
        rap_prof_finish(p[a]); /* idempotent */
        struct rap_tree_stats st;
        rap_tree_stats(rap_prof_tree(p[a]), &st);
        assert_int_equal(st.n, N);
        assert_int_equal(rap_prof_events(p[a]), N);
        if (a > 0)
            assert_true(st.updates < N);
    }
    /* replay full aggregation by hand */
    struct keycount *kc = keycount_create(0);
    for (int i = 0; i < N; i++)
        keycount_add(kc, ev[i].value, 0, 1);
    struct rap_tree_cfg tc = { 64, 2, 0.01, 2, 256, 0, 0, RAP_SPLIT_BEFORE };
    char err[100];
    struct rap_tree *t = rap_tree_create(&tc, err, sizeof err);
    for (size_t i = 0; i < keycount_distinct(kc); i++)
        rap_tree_add(t, keycount_entry(kc, i)->a, keycount_entry(kc, i)->count);
    struct tdump *da = calloc(1, sizeof *da), *db = calloc(1, sizeof *db);
    assert_true(rap_tree_walk(rap_prof_tree(p[2]), 0, tdump_fn, da) < 15000);
    rap_tree_walk(t, 0, tdump_fn, db);
    assert_int_equal(da->n, db->n);
    assert_memory_equal(da->v, db->v, da->n * sizeof *da->v);
    free(da);
    free(db);
    rap_tree_free(t);
    keycount_free(kc);
    for (int a = 0; a < 3; a++)
        rap_prof_free(p[a]);
    free(ev);
}

/* 2-D (pc x address): hot rectangles carry exact rectangle counts; the
 * three aggregation modes agree on totals. */
static void test_2d(void **state)
{
    (void)state;
    enum { N = 8000 };
    struct event *ev = malloc(N * sizeof *ev);
    struct keycount *kc = keycount_create(0);
    uint64_t z = 9;
    for (int i = 0; i < N; i++) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t pc = (z >> 62) ? 0x401000 + (z >> 56) % 16 : z >> 40;
        uint64_t addr = (z >> 62) ? 0x601000 + (z >> 44) % 256 : z >> 30;
        ev[i] = load(pc, addr, 1);
        keycount_add(kc, pc & 0xffffffffffffull, addr & 0xffffffffffffull, 1);
    }
    keycount_sort(kc);
    for (int a = 0; a < 3; a++) {
        struct rap_prof *p = mk(KS_LOADS, KF_PC, KF_ADDR, 48, 1, 0.02, 512, a);
        rap_prof_feed(p, ev, N);
        rap_prof_finish(p);
        struct rap_hot *h;
        size_t nh = rap_prof_hot(p, 0.10, kc, &h);
        assert_true(nh >= 1);
        int found = 0;
        for (size_t i = 0; i < nh; i++) {
            assert_true(h[i].estimate <= h[i].exact);
            assert_true(h[i].error_pct >= 0);
            if (h[i].lo >= 0x400000 && h[i].hi <= 0x401fff && h[i].ylo >= 0x600000 && h[i].yhi <= 0x601fff)
                found = 1;
        }
        assert_true(found);
        assert_true(rap_prof_worst_eps(p, kc) <= 0.02 + 48.0 / N);
        free(h);
        rap_prof_free(p);
    }
    keycount_free(kc);
    free(ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selection),
        cmocka_unit_test(test_hot_scored),
        cmocka_unit_test(test_hot_scored_before),
        cmocka_unit_test(test_aggregation_modes),
        cmocka_unit_test(test_2d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
