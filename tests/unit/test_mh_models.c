/* test_mh_models.c - hand-computed streams for the exact interval profiler
 * (distinct tuples, candidates, candidate-set change), the stratified
 * sampler, Space-Saving and the analytic bound of the multihash paper. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "param_testutil.h"
#include "solo_testutil.h"
#include "families/mh_common.h"
#include "models/shared/mh_member.h"

static struct param_values pv;
static const struct model_desc *ops;
static void *model;

static void begin(const struct model_desc *o)
{
    ops = o;
    params_defaults(&pv, o->params);
}

static void create(void)
{
    char err[256] = "";
    model = solo_create(ops, &pv, err, sizeof err);
    if (!model)
        fail_msg("create: %s", err);
}

static void destroy(void)
{
    solo_free(model);
    model = NULL;
}

/* Loads <0x1000 + letter, 7> for each letter of s. */
static void loads(const char *s)
{
    for (; *s; s++) {
        struct event e;
        memset(&e, 0, sizeof e);
        e.kind = EV_LOAD;
        e.pc = 0x1000u + (unsigned char)*s;
        e.value = 7;
        solo_feed(model, &e, 1);
    }
}

static double metric(const char *name)
{
    double out[64];
    solo_report(model, out);
    for (int i = 0; ops->metrics[i].name; i++)
        if (strcmp(ops->metrics[i].name, name) == 0)
            return out[i];
    fail_msg("no metric %s", name);
    return NAN;
}

/* interval 10, T = 2:
 *   1: AABBCDEFGH  distinct 8, candidates {A,B}, coverage 40%
 *   2: AACCDDEFGH  distinct 7, candidates {A,C,D}: new 2/3, jaccard 1 - 1/4
 *   3: AACCDDwxyz  distinct 7, candidates {A,C,D}: change 0 */
static void test_exact(void **state)
{
    (void)state;
    for (int jac = 0; jac <= 1; jac++) {
        begin(model_find("exact"));
        tu_set(&pv, "interval", 10);
        tu_set(&pv, "threshold", 0.2);
        if (jac)
            tu_set_enum(&pv, "change", "jaccard");
        create();
        loads("AABBCDEFGH");
        loads("AACCDDEFGH");
        loads("AACCDDwxyz");
        loads("AAA"); /* partial interval: ignored */
        solo_finish(model);
        assert_float_equal(metric("intervals"), 3, 0);
        assert_float_equal(metric("tuples"), 33, 0);
        assert_float_equal(metric("distinct_avg"), 22.0 / 3, 1e-9);
        assert_float_equal(metric("distinct_median"), 7, 0);
        assert_float_equal(metric("distinct_max"), 8, 0);
        assert_float_equal(metric("candidates_avg"), 8.0 / 3, 1e-9);
        assert_float_equal(metric("candidates_median"), 3, 0);
        assert_float_equal(metric("candidates_max"), 3, 0);
        assert_float_equal(metric("coverage_pct"), (40.0 + 60 + 60) / 3, 1e-9);
        double first = jac ? 75.0 : 200.0 / 3;
        assert_float_equal(metric("change_avg"), first / 2, 1e-9);
        assert_float_equal(metric("change_p50"), 0, 0);
        assert_float_equal(metric("change_p90"), round(first * 10) / 10, 1e-9);
        assert_float_equal(metric("candidate_T"), 2, 0);
        destroy();
    }
}

/* Untagged sampler, S = 2, interval 10, T = 2.  A x3 reports A once (+2,
 * counter left at 1); f_p = 3, f_h = 2: NN 1/3.  Without flush the leftover
 * 1 carries over: A x1 in interval 2 reports A again. */
static void test_stratified_untagged(void **state)
{
    (void)state;
    begin(model_find("stratified"));
    tu_set(&pv, "interval", 10);
    tu_set(&pv, "threshold", 0.2);
    tu_set(&pv, "counters", 4096);
    tu_set(&pv, "sample_threshold", 2);
    create();
    loads("AAABCDEFGH"); /* B..H: distinct, 4096 slots make a collision unlikely */
    assert_float_equal(metric("error_pct"), 100.0 / 3, 1e-9);
    assert_float_equal(metric("np_pct") + metric("nn_pct"), 100.0 / 3, 1e-9);
    assert_float_equal(metric("reports_avg"), 1, 0);
    loads("AIJKLMNOPQ"); /* A: f_p 1, reported (+2): a false positive */
    assert_float_equal(metric("reports_avg"), 1, 0);
    assert_float_equal(metric("fp_pct"), 50, 1e-9); /* (100% + 0%) / 2 */
    assert_float_equal(metric("memory_bytes"), 4096 * 3, 0);
    destroy();

    tu_set(&pv, "flush", 1);
    create();
    loads("AAABCDEFGH");
    loads("AIJKLMNOPQ"); /* counter flushed: A x1 reports nothing */
    assert_float_equal(metric("fp_pct"), 0, 0);
    destroy();
}

/* Tagged sampler: B holds the entry; C (same index, other tag) is ignored
 * until miss_limit = 2 misses, then takes the entry with hit count 1. */
static void test_stratified_tagged(void **state)
{
    (void)state;
    begin(model_find("stratified"));
    tu_set(&pv, "interval", 8);
    tu_set(&pv, "threshold", 0.25); /* T = 2 */
    tu_set(&pv, "counters", 64);
    tu_set(&pv, "sample_threshold", 2);
    tu_set(&pv, "tag_bits", 8);
    tu_set(&pv, "miss_limit", 2);
    struct mh_hash hi, ht;
    mh_hash_init(&hi, 1, 0, 64);
    mh_hash_init(&ht, 1, 1, 2);
    uint64_t pb = 0x1000 + 'B', pc = 0, pn[3];
    for (uint64_t p = 0x2000;; p++)
        if (mh_hash_index(&hi, p, 7) == mh_hash_index(&hi, pb, 7) &&
            mh_xor_fold(mh_hash_randomized(&ht, p, 7), 8) != mh_xor_fold(mh_hash_randomized(&ht, pb, 7), 8)) {
            pc = p;
            break;
        }
    int k = 0;
    for (uint64_t p = 0x3000; k < 3; p++)
        if (mh_hash_index(&hi, p, 7) != mh_hash_index(&hi, pb, 7))
            pn[k++] = p;
    create();
    uint64_t seq[8] = { pb, pb, pc, pc, pc, pn[0], pn[1], pn[2] };
    for (int i = 0; i < 8; i++) {
        struct event e;
        memset(&e, 0, sizeof e);
        e.kind = EV_LOAD;
        e.pc = seq[i];
        e.value = 7;
        solo_feed(model, &e, 1);
    }
    /* B: f_p 2, reported 2 -> exact.  C: 1st miss ignored, 2nd takes the
     * entry (hit 1), 3rd hits (2) -> reported 2 for f_p 3: NN = 1/5. */
    assert_float_equal(metric("intervals"), 1, 0);
    assert_float_equal(metric("nn_pct"), 20, 1e-9);
    assert_float_equal(metric("error_pct"), 20, 1e-9);
    assert_float_equal(metric("reports_avg"), 2, 0);
    assert_float_equal(metric("memory_bytes"), 64 * (3 + 1 + 1), 0);
    destroy();
}

/* k = 2: A A B C -> C replaces B (min 1) and starts at 2.
 * interval 4, T = 2: A exact; C f_p 1, f_h 2 -> FP 1 / 3. */
static void test_spacesaving(void **state)
{
    (void)state;
    begin(model_find("spacesaving"));
    tu_set(&pv, "interval", 4);
    tu_set(&pv, "threshold", 0.5);
    tu_set(&pv, "entries", 2);
    create();
    loads("AAB");
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'A', 7), 2);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'B', 7), 1);
    loads("C");
    assert_float_equal(metric("fp_pct"), 100.0 / 3, 1e-9);
    assert_float_equal(metric("error_pct"), 100.0 / 3, 1e-9);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'A', 7), 0); /* flushed */
    /* a longer interval: group order under many increments */
    loads("ABABABCA"); /* two more intervals through the stream summary */
    assert_float_equal(metric("intervals"), 3, 0);
    destroy();

    /* ties: the entry that has held the smallest count longest is replaced.
     * k = 2, interval 8: A B (both 1); C evicts A (held 1 first) -> C 2;
     * D evicts B -> D 2; E evicts C (reached 2 before D) -> E 3. */
    begin(model_find("spacesaving"));
    tu_set(&pv, "interval", 8);
    tu_set(&pv, "threshold", 0.5);
    tu_set(&pv, "entries", 2);
    create();
    loads("ABC");
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'A', 7), 0);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'B', 7), 1);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'C', 7), 2);
    loads("DE");
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'C', 7), 0);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'D', 7), 2);
    assert_int_equal(mh_spacesaving_count(model, 0x1000 + 'E', 7), 3);
    destroy();

    begin(model_find("spacesaving"));
    create(); /* default budget: (2048*3 + 100*19) / 19 = 423 entries */
    assert_float_equal(metric("table_entries"), 423, 0);
    assert_float_equal(metric("memory_bytes"), 423 * 19, 0);
    destroy();
}

/* Space-Saving guarantee on a skewed stream: every tuple with f_p > N/k is
 * reported and no count is below f_p (neutral negatives and false negatives
 * are impossible). */
static void test_spacesaving_guarantee(void **state)
{
    (void)state;
    begin(model_find("spacesaving"));
    tu_set(&pv, "interval", 1000);
    tu_set(&pv, "threshold", 0.05); /* T = 50 > N/k = 1000/40 */
    tu_set(&pv, "entries", 40);
    create();
    uint64_t x = 12345;
    for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(x >> 33) % 100;
        struct event e;
        memset(&e, 0, sizeof e);
        e.kind = EV_LOAD;
        e.pc = 0x1000;
        e.value = r < 50 ? r % 5 : 100 + (x >> 40) % 500; /* 5 hot values + noise */
        solo_feed(model, &e, 1);
    }
    assert_float_equal(metric("fn_pct"), 0, 0);
    assert_float_equal(metric("nn_pct"), 0, 0);
    assert_true(metric("true_candidates_avg") == 5);
    destroy();
}

static void test_bound(void **state)
{
    (void)state;
    begin(model_find("mh_bound"));
    create();
    assert_float_equal(metric("fp_bound"), pow(0.4, 4), 1e-12); /* 4 tables, Z 1000, 1% */
    destroy();
    tu_set(&pv, "tables", 1);
    create();
    assert_float_equal(metric("fp_bound"), 0.1, 1e-12);
    destroy();
    tu_set(&pv, "tables", 8);
    tu_set(&pv, "entries", 500);
    create();
    assert_float_equal(metric("fp_bound"), pow(1.6, 8), 1e-9);
    assert_float_equal(metric("fp_bound_clamped"), 1, 0);
    destroy();
    tu_set(&pv, "tables", 3);
    tu_set(&pv, "floor_tables", 1);
    create();
    assert_float_equal(metric("entries_per_table"), 166, 0);
    assert_float_equal(metric("fp_bound"), pow(100.0 / 166, 3), 1e-12);
    destroy();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_stratified_untagged),
        cmocka_unit_test(test_stratified_tagged),
        cmocka_unit_test(test_spacesaving),
        cmocka_unit_test(test_spacesaving_guarantee),
        cmocka_unit_test(test_bound),
    };
    return cmocka_run_group_tests_name("mh_models", tests, NULL, NULL);
}
