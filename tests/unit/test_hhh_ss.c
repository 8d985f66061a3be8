/* test_hhh_ss.c - hierarchical heavy hitters with Space-Saving: the
 * conditioned-count rule on a hand-computed stream, Space-Saving's bounds
 * (and its index surviving evictions) against exact counts, and the
 * randomized variant finding a heavy key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include "families/hhh_ss.h"
#include "families/keycount.h"

static struct hhh *mk(unsigned bits, unsigned stride, uint64_t entries, int variant)
{
    struct hhh_cfg c = { bits, stride, entries, variant, 1 };
    char err[200];
    struct hhh *h = hhh_create(&c, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    return h;
}

/* 4-bit keys, b = 2 (5 levels), enough entries to count exactly; 10 x6, 3 x2.
 * hot 30% (2.4): [10] (6) is an HHH; [10,11] and every range above it are
 * left with 0 after subtracting it, [2,3] and the root with 2.
 * hot 20% (1.6): [3] (2) too; [2,3] then keeps 0 and the root 8 - 6 - 2 = 0. */
static void test_by_hand(void **state)
{
    (void)state;
    const uint64_t s[] = { 10, 10, 10, 10, 10, 10, 3, 3 };
    struct hhh *h = mk(4, 1, 5 * 16, HHH_MST);
    assert_int_equal(hhh_levels(h), 5);
    assert_int_equal(hhh_entries_per_level(h), 16);
    for (int i = 0; i < 8; i++)
        hhh_add(h, s[i]);
    struct hhh_range *r;
    assert_int_equal(hhh_query(h, 0.30, &r), 1);
    assert_int_equal(r[0].lo, 10);
    assert_int_equal(r[0].hi, 10);
    assert_int_equal(r[0].estimate, 6);
    assert_true(r[0].conditioned == 6);
    free(r);
    assert_int_equal(hhh_query(h, 0.20, &r), 2);
    assert_int_equal(r[0].lo, 3);
    assert_int_equal(r[0].hi, 3);
    assert_int_equal(r[0].plen, 4);
    assert_int_equal(r[0].estimate, 2);
    assert_int_equal(r[1].lo, 10);
    free(r);
    hhh_free(h);
    /* 10 x6, 2, 3 at 20%: neither 2 nor 3 alone (1), but [2,3] (2) is */
    const uint64_t s2[] = { 10, 2, 10, 10, 3, 10, 10, 10 };
    h = mk(4, 1, 5 * 16, HHH_MST);
    for (int i = 0; i < 8; i++)
        hhh_add(h, s2[i]);
    assert_int_equal(hhh_query(h, 0.20, &r), 2);
    assert_int_equal(r[0].lo, 2);
    assert_int_equal(r[0].hi, 3);
    assert_int_equal(r[0].plen, 3);
    assert_true(r[0].conditioned == 2);
    free(r);
    hhh_free(h);
    char err[100];
    struct hhh_cfg bad = { 32, 2, 3, HHH_MST, 0 };
    assert_null(hhh_create(&bad, err, sizeof err)); /* fewer entries than levels */
}

static uint64_t rs = 11;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Space-Saving at every level: estimates are upper bounds, lower bounds are
 * lower bounds, both within n / m of the exact count of the range; the
 * heavy ranges of a skewed stream are found.  Many evictions exercise the
 * index's deletion. */
static void test_space_saving_bounds(void **state)
{
    (void)state;
    const unsigned bits = 20, stride = 2;
    const uint64_t per = 64;
    struct hhh *h = mk(bits, stride, per * 11, HHH_MST);
    struct keycount *kc = keycount_create(0);
    const uint64_t n = 100000;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        uint64_t key = r % 10 < 3 ? 0x12345 : r % 10 < 5 ? 0x80000 + (r >> 40) % 1024 : (r >> 20) & 0xfffff;
        hhh_add(h, key);
        keycount_add(kc, key, 0, 1);
    }
    keycount_sort(kc);
    struct hhh_range *r;
    size_t nh = hhh_query(h, 0.05, &r);
    assert_true(nh >= 2);
    int single = 0, cluster = 0;
    for (size_t i = 0; i < nh; i++) {
        uint64_t exact = keycount_range(kc, r[i].lo, r[i].hi);
        assert_true(r[i].estimate >= exact);
        assert_true(r[i].lower <= exact);
        assert_true(r[i].estimate - exact <= n / per);
        single |= r[i].lo == 0x12345 && r[i].hi == 0x12345;
        cluster |= r[i].lo >= 0x80000 && r[i].hi <= 0x80fff && r[i].lo <= 0x80000 && r[i].hi >= 0x803ff;
        if (i)
            assert_true(r[i - 1].lo < r[i].lo || (r[i - 1].lo == r[i].lo && r[i - 1].plen < r[i].plen));
    }
    assert_true(single);
    assert_true(cluster);
    free(r);
    hhh_free(h);
    keycount_free(kc);
}

/* RHHH: one level per event, counts scaled; a 30% key is found. */
static void test_rhhh(void **state)
{
    (void)state;
    struct hhh *h = mk(16, 2, 9 * 32, HHH_RHHH);
    for (uint64_t i = 0; i < 400000; i++) {
        uint64_t r = rnd();
        hhh_add(h, r % 10 < 3 ? 0xbeef : r >> 48);
    }
    struct hhh_range *r;
    size_t nh = hhh_query(h, 0.10, &r);
    int found = 0;
    for (size_t i = 0; i < nh; i++)
        if (r[i].lo == 0xbeef && r[i].hi == 0xbeef) {
            found = 1;
            assert_true(r[i].estimate > 110000 && r[i].estimate < 130000);
        }
    assert_true(found);
    assert_int_equal(hhh_events(h), 400000);
    free(r);
    hhh_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_space_saving_bounds),
        cmocka_unit_test(test_rhhh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
