/* test_hps_profile.c - HPS cores on hand-computed inputs: the count table
 * (against a reference under random inserts and deletes), hot call pair and
 * hot method profiles (the enclosing-method rule), the accuracy metric
 * (identical 100%, disjoint 0%, the worked partial case, the 90% boundary),
 * the overhead model and Space-Saving. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "families/hps_accuracy.h"
#include "families/hps_overhead.h"
#include "families/hps_profile.h"
#include "families/hps_ss.h"
#include "families/hps_table.h"
#include "hps_testutil.h"

static void test_table(void **state)
{
    (void)state;
    enum { K = 3000 };
    static uint64_t ref[K]; /* count of key (i, i * 7) */
    struct hps_table t;
    hps_table_init(&t, 0, "test");
    uint64_t x = 88172645463325252ull;
    for (int step = 0; step < 200000; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t i = x % K;
        if ((x >> 32) % 4 == 0) {
            assert_int_equal(hps_table_del(&t, i, i * 7), ref[i]);
            ref[i] = 0;
        } else {
            hps_table_add(&t, i, i * 7, 1 + (x >> 40) % 3);
            ref[i] += 1 + (x >> 40) % 3;
        }
    }
    size_t live = 0;
    for (uint64_t i = 0; i < K; i++) {
        assert_int_equal(hps_table_get(&t, i, i * 7), ref[i]);
        assert_int_equal(hps_table_get(&t, i, i * 7 + 1), 0);
        live += ref[i] != 0;
    }
    assert_int_equal(t.used, live);
    size_t n;
    struct hps_member *m = hps_table_members(&t, &n);
    assert_int_equal(n, live);
    for (size_t k = 1; k < n; k++)
        assert_true(hps_member_order(&m[k - 1], &m[k]) < 0);
    free(m);
    hps_table_free(&t);
}

static void test_callpair(void **state)
{
    (void)state;
    struct event ev[] = { CALL(0x10, 0x1000), LOAD(0x1000, 0x8), CALL(0x20, 0x2000), CALL(0x10, 0x1000),
                          BACK(0x1050, 0x1010), CALL(0x10, 0x1001) };
    struct hps_profile *p = hps_profile_create(HPS_CALLPAIR, NULL);
    hps_profile_feed(p, ev, 6);
    hps_profile_finish(p, NULL);
    size_t n;
    const struct hps_member *m = hps_profile_members(p, &n);
    assert_int_equal(n, 3);
    assert_true(m[0].a == 0x10 && m[0].b == 0x1000 && m[0].w == 2);
    assert_true(m[1].a == 0x10 && m[1].b == 0x1001 && m[1].w == 1); /* ties: key order */
    assert_true(m[2].a == 0x20 && m[2].b == 0x2000 && m[2].w == 1);
    assert_int_equal(hps_profile_interest(p), 4);
    hps_profile_free(p);
}

static void test_method(void **state)
{
    (void)state;
    struct event ev[] = {
        CALL(0x10, 0x1000),   CALL(0x10, 0x1000),   CALL(0x20, 0x2000),
        BACK(0x1050, 0x1010), BACK(0x1050, 0x1010), BACK(0x1060, 0x1010), /* inside 0x1000 */
        BACK(0x2100, 0x2000),                                            /* inside 0x2000 */
        BACK(0x0800, 0x0700), BACK(0x0800, 0x0700),                      /* below every entry */
        BACK(0x5000, 0x4000),                                            /* highest entry <= pc: 0x2000 */
        FWD(0x1070, 0x1080, 1), FWD(0x1090, 0x1000, 0),                  /* not back edges */
    };
    struct hps_profile *x = hps_profile_create(HPS_METHOD, NULL);
    hps_profile_feed(x, ev, sizeof ev / sizeof ev[0]);
    hps_profile_finish(x, NULL);
    size_t n;
    const struct hps_member *m = hps_profile_members(x, &n);
    assert_int_equal(n, 2);
    assert_true(m[0].a == 0x1000 && m[0].w == 5); /* 2 calls + 3 back edges */
    assert_true(m[1].a == 0x2000 && m[1].w == 3); /* 1 call + 2 back edges */
    assert_int_equal(hps_profile_unattributed(x), 2);
    assert_int_equal(hps_profile_interest(x), 10);
    const uint64_t *e = hps_profile_entries(x, &n);
    assert_int_equal(n, 2);
    assert_true(e[0] == 0x1000 && e[1] == 0x2000);

    /* A sampled profile that saw only these: with its own entries the back
     * edge at 0x1050 falls to "below every entry"; with the exhaustive
     * profile's entries it is attributed to 0x1000 as in the exhaustive one. */
    struct event sev[] = { CALL(0x20, 0x2000), BACK(0x1050, 0x1010) };
    struct hps_profile *own = hps_profile_create(HPS_METHOD, NULL), *shared = hps_profile_create(HPS_METHOD, NULL);
    hps_profile_feed(own, sev, 2);
    hps_profile_feed(shared, sev, 2);
    hps_profile_finish(own, NULL);
    hps_profile_finish(shared, x);
    m = hps_profile_members(own, &n);
    assert_int_equal(n, 1);
    assert_int_equal(hps_profile_unattributed(own), 1);
    m = hps_profile_members(shared, &n);
    assert_int_equal(n, 2);
    assert_true(m[0].a == 0x1000 && m[0].w == 1 && m[1].a == 0x2000 && m[1].w == 1);
    assert_int_equal(hps_profile_unattributed(shared), 0);
    hps_profile_free(own);
    hps_profile_free(shared);
    hps_profile_free(x);
}

static struct hps_member mem(uint64_t a, double w)
{
    struct hps_member m = { a, 0, w, 0, 0 };
    return m;
}

static void test_accuracy(void **state)
{
    (void)state;
    struct hps_overlap d;
    struct hps_member ex[] = { mem('A', 60), mem('B', 30), mem('C', 10) };
    /* identical */
    assert_true(fabs(hps_overlap(ex, 3, ex, 3, 0.9, &d) - 100.0) < 1e-9);
    assert_int_equal(d.kept_a, 2);
    assert_int_equal(d.common, 2);
    /* same shares, other scale */
    struct hps_member half[] = { mem('A', 6), mem('B', 3), mem('C', 1) };
    assert_true(fabs(hps_overlap(ex, 3, half, 3, 0.9, NULL) - 100.0) < 1e-9);
    /* disjoint */
    struct hps_member other[] = { mem('X', 60), mem('Y', 40) };
    assert_true(hps_overlap(ex, 3, other, 2, 0.9, &d) == 0.0);
    assert_int_equal(d.common, 0);
    /* worked partial case (hps_accuracy.h): kept A, B (66.67%, 33.33%)
     * against kept A, C (55.56%, 44.44%): min over A = 500/9 */
    struct hps_member smp[] = { mem('A', 5), mem('C', 4), mem('B', 1) };
    assert_true(fabs(hps_overlap(ex, 3, smp, 3, 0.9, &d) - 500.0 / 9.0) < 1e-9);
    assert_true(d.kept_a == 2 && d.kept_b == 2 && d.common == 1);
    /* symmetric */
    assert_true(fabs(hps_overlap(smp, 3, ex, 3, 0.9, NULL) - 500.0 / 9.0) < 1e-9);
    /* the 90% boundary: 50 + 40 is exactly 90 of 100, so C stays out */
    struct hps_member b[] = { mem('A', 50), mem('B', 40), mem('C', 10) };
    double kept;
    assert_int_equal(hps_kept_prefix(b, 3, 0.9, &kept), 2);
    assert_true(kept == 90);
    assert_int_equal(hps_kept_prefix(b, 3, 0.91, &kept), 3);
    assert_int_equal(hps_kept_prefix(b, 3, 0.01, &kept), 1);
    /* cover 1: everything; one member in common at 10% vs 100% */
    struct hps_member only_c[] = { mem('C', 7) };
    assert_true(fabs(hps_overlap(b, 3, only_c, 1, 1.0, NULL) - 10.0) < 1e-9);
    /* empty profiles */
    assert_true(isnan(hps_overlap(NULL, 0, NULL, 0, 0.9, NULL)));
    assert_true(hps_overlap(ex, 3, NULL, 0, 0.9, NULL) == 0.0);
}

static void test_overhead(void **state)
{
    (void)state;
    struct hps_costs c = { 1, 2, 4, 30 };
    struct hps_counts n = { 1000, 100, 50, 10 };
    struct hps_overhead o;
    hps_overhead_compute(&c, &n, &o);
    assert_true(o.dise_checks == 300 && o.dise_basic == 250 && o.dise_sampling == 300);
    assert_true(o.dise_total == 850 && o.hps_total == 310);
    assert_true(fabs(o.dise_checks_pct - 30) < 1e-12 && fabs(o.dise_basic_pct - 25) < 1e-12);
    assert_true(fabs(o.dise_sampling_pct - 30) < 1e-12 && fabs(o.dise_pct - 85) < 1e-12);
    assert_true(fabs(o.hps_pct - 31) < 1e-12);
    struct hps_counts z = { 0, 0, 0, 0 };
    hps_overhead_compute(&c, &z, &o);
    assert_true(isnan(o.hps_pct));
}

static void test_spacesaving(void **state)
{
    (void)state;
    /* k = 2 over a a b c a d: b evicted by c (c: 2, error 1), then c by d
     * (d: 3, error 2); a stays at 3 */
    struct hps_ss *s = hps_ss_create(2);
    const char *stream = "aabcad";
    for (const char *p = stream; *p; p++)
        hps_ss_update(s, (uint64_t)*p, 0);
    size_t n;
    struct hps_member *m = hps_ss_members(s, &n);
    assert_int_equal(n, 2);
    assert_true(m[0].a == 'a' && m[0].w == 3 && m[0].x == 0);
    assert_true(m[1].a == 'd' && m[1].w == 3 && m[1].x == 2);
    free(m);
    struct hps_ss_stats st;
    hps_ss_get_stats(s, &st);
    assert_true(st.updates == 6 && st.hits == 2 && st.inserts == 2 && st.evictions == 2);
    assert_int_equal(hps_ss_min_count(s), 3);
    hps_ss_free(s);

    /* enough counters: exact counts, nothing evicted */
    s = hps_ss_create(8);
    uint64_t x = 1;
    uint64_t truth[5] = { 0 };
    for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t k = (x >> 33) % 5;
        truth[k]++;
        hps_ss_update(s, k, 1);
    }
    m = hps_ss_members(s, &n);
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++)
        assert_true(m[i].w == (double)truth[m[i].a] && m[i].x == 0);
    free(m);
    assert_int_equal(hps_ss_min_count(s), 0);
    hps_ss_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),    cmocka_unit_test(test_callpair), cmocka_unit_test(test_method),
        cmocka_unit_test(test_accuracy), cmocka_unit_test(test_overhead), cmocka_unit_test(test_spacesaving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
