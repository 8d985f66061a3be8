/* test_rap_bound.c - the worst-case node bounds of rap_bound.h on values
 * computed by hand, and the real tree staying under them on random and
 * adversarial streams. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "families/rap_bound.h"
#include "families/rap_tree.h"

/* 4-bit keys, b = 2, eps = 1: L = 4, thr(n) = floor(n / 4); merges at 4, 8, 16. */
static void test_small_by_hand(void **state)
{
    (void)state;
    struct rap_bound_cfg c = { 4, 1, 1.0, 2.0, 4, RAP_SPLIT_AFTER };
    assert_int_equal(rap_bound_levels(&c), 4);
    assert_int_equal(rap_bound_threshold(&c, 7), 1);
    assert_int_equal(rap_bound_threshold(&c, 8), 2);
    assert_true(rap_bound_full(&c) == 31);               /* 1 + 2 + 4 + 8 + 16 */
    assert_int_equal(rap_bound_families(&c, 8), 2);      /* min(8, floor(8 / 3)) */
    assert_int_equal(rap_bound_families_sup(&c), 3);     /* largest F < L / eps = 4 */
    assert_true(rap_bound_shape(&c, 2) == 15);           /* 1 + (1 + 2 + 2 + 2) * 2 */
    assert_true(rap_bound_post_merge(&c, 8) == 15);
    assert_true(rap_bound_continuous(&c, 8) == 17);      /* 15 + b */
    assert_true(rap_bound_continuous_max(&c, 100) == 21); /* 1 + (1 + 2 + 3 + 3) * 2 + 2 */
    assert_true(rap_bound_batched(&c, 3) == 7);          /* before the first merge: 1 + b n */
    assert_true(rap_bound_batched(&c, 4) == 9);
    /* n = 6: last merge 4, post-merge(4) = min(15, 1 + 2 * 4) = 9; splits
     * min(6 - 4, floor(6 / (thr(5) + 1))) = 2: 9 + 4 = 13 */
    assert_true(rap_bound_batched(&c, 6) == 13);
    assert_true(rap_bound_batched(&c, 8) == 17);         /* 9 + 2 * min(4, 4) */
    /* n = 12: last merge 8, 15 + 2 * min(4, floor(12 / 3)) = 23 */
    assert_true(rap_bound_batched(&c, 12) == 23);
    /* period (8, 16]: 15 + 2 * min(8, floor(16 / 3)) = 25 is the peak */
    assert_true(rap_bound_batched_max(&c, 16) == 25);
    assert_int_equal(rap_bound_merges(&c, 16), 3);
    assert_int_equal(rap_bound_merges(&c, 15), 2);

    /* Split before: while thr = 0 (n < 4) an event may split a node at
     * every level (L = 4), at most min(P_d, n) distinct ones at depth d
     * (unmerged: 1 + b sum_d min(2^d, n)); a split node held >= thr(t). */
    struct rap_bound_cfg d = { 4, 1, 1.0, 2.0, 4, RAP_SPLIT_BEFORE };
    assert_true(rap_bound_batched(&d, 3) == 19);          /* 1 + 2 * (1 + 2 + 3 + 3) */
    assert_true(rap_bound_batched(&d, 4) == 23);          /* 1 + 2 * (1 + 2 + 4 + 4) */
    assert_true(rap_bound_continuous(&d, 3) == 19);       /* shape(3) + L b = 27, capped by unmerged */
    assert_true(rap_bound_continuous(&d, 8) == 17);       /* thr(8) = 2: one split per event */
    assert_true(rap_bound_continuous_max(&d, 100) == 27); /* shape(3) + L b */
    /* n = 6: post-merge(4) = shape(2) = 15 (unmerged 23 no longer caps it);
     * thr(5) = 1: splits min(6 - 4, floor(6 / 1)) = 2: 15 + 4 = 19 */
    assert_true(rap_bound_batched(&d, 6) == 19);
    assert_true(rap_bound_batched(&d, 8) == 23);          /* 15 + 2 * min(4, 8) */
    assert_true(rap_bound_batched(&d, 12) == 23);         /* 15 + 2 * min(4, floor(12 / thr(9) = 2)) */
    assert_true(rap_bound_batched_max(&d, 16) == 31);     /* 15 + 2 * min(8, 8), capped by full */
}

static void test_schedule(void **state)
{
    (void)state;
    struct rap_bound_cfg c = { 32, 2, 0.01, 1.5, 3, RAP_SPLIT_AFTER };
    assert_int_equal(rap_bound_merge_point(&c, 0), 3);
    assert_int_equal(rap_bound_merge_point(&c, 1), 5);  /* ceil(4.5) */
    assert_int_equal(rap_bound_merge_point(&c, 2), 7);  /* ceil(6.75) */
    assert_int_equal(rap_bound_merge_point(&c, 3), 11); /* ceil(10.125) */
    struct rap_bound_cfg d = { 32, 2, 0.01, 1.1, 1, RAP_SPLIT_AFTER };
    assert_int_equal(rap_bound_merge_point(&d, 1), 2);  /* ceil(1.1) */
    assert_int_equal(rap_bound_merge_point(&d, 2), 3);  /* ceil(1.21) = 2, points strictly increase */
    /* 2^10 events before the first merge, q = 2: 22 more batches up to 2^32 (section 3.3.1) */
    struct rap_bound_cfg p = { 32, 2, 0.01, 2.0, 1024, RAP_SPLIT_AFTER };
    assert_int_equal(rap_bound_merges(&p, 1ull << 32), 23);
}

/* The paper's setting (R = 2^32, eps = 1%): for b = 4, L = 16, F < 1600:
 * 1 + 4 * (1 + 4 + 16 + 64 + 256 + 1024 + 10 * 1599) + 4 = 69,425. */
static void test_paper_setting(void **state)
{
    (void)state;
    struct rap_bound_cfg c = { 32, 2, 0.01, 2.0, 1024, RAP_SPLIT_AFTER };
    assert_int_equal(rap_bound_threshold(&c, 1ull << 32), 2684354); /* 2^32 / 1600 */
    assert_int_equal(rap_bound_families_sup(&c), 1599);
    assert_true(rap_bound_continuous_max(&c, 1ull << 32) == 69425);
    /* b = 2: L = 32, F < 3200: 1 + 2 * (4095 + 20 * 3199) + 2 */
    c.stride = 1;
    assert_true(rap_bound_continuous_max(&c, 1ull << 32) == 136153);
    /* batched merges cost memory and more so the longer the period */
    c.stride = 2;
    double q2 = rap_bound_batched_max(&c, 1ull << 32);
    assert_true(q2 > 69425);
    c.q = 4;
    assert_true(rap_bound_batched_max(&c, 1ull << 32) > q2);
    /* a tiny stream is bounded by its length */
    assert_true(rap_bound_continuous_max(&c, 10) <= 1 + 4 * 10);
}

static uint64_t rs = 5;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The tree never has more nodes than the batched bound after any event
 * (sampled every 7 events and just before every merge), nor more than the
 * post-merge bound right after a merge, under each split rule with its
 * bound. */
static void test_tree_under_bound(void **state)
{
    (void)state;
    const struct { unsigned bits, stride; double eps, q; uint64_t m0; } cfgs[] = {
        { 16, 1, 0.05, 2.0, 64 }, { 16, 2, 0.10, 1.5, 100 }, { 12, 2, 0.02, 3.0, 32 }, { 20, 3, 0.05, 2.0, 16 },
    };
    for (int rule = 0; rule < 2; rule++)
    for (size_t i = 0; i < sizeof cfgs / sizeof *cfgs; i++)
        for (int kind = 0; kind < 3; kind++) {
            enum rap_split sr = rule ? RAP_SPLIT_AFTER : RAP_SPLIT_BEFORE;
            struct rap_tree_cfg tc = { cfgs[i].bits, cfgs[i].stride, cfgs[i].eps, cfgs[i].q, cfgs[i].m0, 0, 7, sr };
            struct rap_bound_cfg bc = { cfgs[i].bits, cfgs[i].stride, cfgs[i].eps, cfgs[i].q, cfgs[i].m0, sr };
            char err[100];
            struct rap_tree *t = rap_tree_create(&tc, err, sizeof err);
            assert_non_null(t);
            uint64_t mask = (1ull << cfgs[i].bits) - 1;
            for (uint64_t n = 0; n < 40000; n++) {
                uint64_t r = rnd();
                uint64_t key = kind == 0 ? r & mask : kind == 1 ? (n * 2654435761u) & mask : (r % 3 ? r >> 60 : r) & mask;
                rap_tree_add1(t, key);
            }
            size_t ns, nm;
            const struct rap_sample *s = rap_tree_samples(t, &ns);
            const struct rap_merge_rec *m = rap_tree_merges(t, &nm);
            assert_true(ns > 1000 && nm > 3);
            for (size_t j = 0; j < ns; j++)
                assert_true((double)s[j].nodes <= rap_bound_batched(&bc, s[j].n));
            for (size_t j = 0; j < nm; j++) {
                assert_true((double)m[j].before <= rap_bound_batched(&bc, m[j].n));
                assert_true((double)m[j].after <= rap_bound_post_merge(&bc, m[j].n));
            }
            struct rap_tree_stats st;
            rap_tree_stats(t, &st);
            assert_true((double)st.nodes_max <= rap_bound_batched_max(&bc, st.n));
            rap_tree_free(t);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_by_hand),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_paper_setting),
        cmocka_unit_test(test_tree_under_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
