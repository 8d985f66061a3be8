/* test_conte_models.c - the Conte et al. hardware models on hand-built
 * traces: Table II increments and dirty bits (one-level), marker and full
 * bits (two-level), unbounded counters and contention (counter), delta-w of
 * formulas (1)-(2), sampling jitter. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include "solo_testutil.h"

#include "models/shared/conte_common.h"
#include "conte_testutil.h"

static struct conte_base *make(const struct model_desc *ops, int64_t entries, int64_t assoc, int64_t period)
{
    struct param_values pv;
    char err[256] = "";
    params_defaults(&pv, ops->params);
    pv_set_int(&pv, "btb_entries", entries);
    pv_set_int(&pv, "btb_assoc", assoc);
    pv_set_int(&pv, "sample_period", period);
    struct conte_base *b = solo_create(ops, &pv, err, sizeof err);
    if (!b)
        fail_msg("create failed: %s", err);
    return b;
}

/* The instance's estimate for the branch at pc (kept per instance, beside the WCFG). */
static struct conte_est *branch_at(struct conte_base *b, uint64_t pc)
{
    for (uint32_t s = 0; s < conte_cfg_nbranches(b->cfg); s++)
        if (conte_cfg_branch(b->cfg, s)->pc == pc)
            return &b->est[s];
    fail_msg("no branch at %#llx", (unsigned long long)pc);
    return NULL;
}

static void cond(struct evbuf *e, uint64_t pc, int taken)
{
    eb_cond(e, pc, 1, pc + 0x100, taken);
}

/* Four branches leave their counters at 00, 01, 10, 11 in one period:
 * w = N/d = 9/4; increments 2w fall, w fall, w taken, 2w taken (Table II). */
static void test_onelevel_table2(void **state)
{
    (void)state;
    static struct evbuf e;
    struct conte_base *b = make(model_find("conte_onelevel"), 16, 1, 9);
    e.n = 0;
    cond(&e, 0x1000, 0); /* 01 (allocated weakly not taken) */
    cond(&e, 0x1000, 0); /* 00 */
    cond(&e, 0x1000, 0); /* 00 */
    cond(&e, 0x1001, 1); /* 10 */
    cond(&e, 0x1001, 0); /* 01 */
    cond(&e, 0x1002, 0); /* 01 */
    cond(&e, 0x1002, 1); /* 10 */
    cond(&e, 0x1003, 1); /* 10 */
    cond(&e, 0x1003, 1); /* 11 */
    solo_feed(b, e.ev, e.n);
    assert_int_equal(b->samples, 1);
    double w = 9.0 / 4.0;
    assert_float_equal(branch_at(b, 0x1000)->est_fall, 2 * w, 1e-12);
    assert_float_equal(branch_at(b, 0x1000)->est_taken, 0, 1e-12);
    assert_float_equal(branch_at(b, 0x1001)->est_fall, w, 1e-12);
    assert_float_equal(branch_at(b, 0x1002)->est_taken, w, 1e-12);
    assert_float_equal(branch_at(b, 0x1003)->est_taken, 2 * w, 1e-12);
    assert_float_equal(branch_at(b, 0x1003)->est_fall, 0, 1e-12);

    /* Dirty bits were cleared: in the next period only 0x1000 runs, d = 1, w = 9. */
    e.n = 0;
    for (int i = 0; i < 9; i++)
        cond(&e, 0x1000, 0);
    solo_feed(b, e.ev, e.n);
    assert_int_equal(b->samples, 2);
    assert_float_equal(branch_at(b, 0x1000)->est_fall, 2 * w + 18, 1e-12);
    assert_float_equal(branch_at(b, 0x1001)->est_fall, w, 1e-12);
    assert_float_equal(branch_at(b, 0x1003)->est_taken, 2 * w, 1e-12);

    solo_finish(b);
    assert_int_equal(b->samples, 2); /* nothing left for the exit sample */
    /* B = 18 insns / 18 branches = 1: weights unchanged */
    assert_float_equal(branch_at(b, 0x1000)->est_fall, 2 * w + 18, 1e-12);
    double m[CM_COUNT];
    solo_report(b, m);
    /* predictions: misses predict not taken; 14 of 18 correct */
    assert_float_equal(m[CM_ACCURACY], 100.0 * 14 / 18, 1e-9);
    assert_float_equal(m[CM_COND_BRANCHES], 18, 0);
    assert_float_equal(m[CM_STATIC_BRANCHES], 4, 0);
    assert_float_equal(m[CM_CONTENTIONS], 0, 0);
    solo_free(b);
}

/* w uses N = instructions of the period, and the final B scaling. */
static void test_onelevel_what_scaling(void **state)
{
    (void)state;
    static struct evbuf e;
    struct conte_base *b = make(model_find("conte_onelevel"), 16, 1, 2);
    e.n = 0;
    /* 2 branches per period, 4 extra instructions each: N = 6 per period, d = 2 */
    for (int p = 0; p < 3; p++) {
        for (uint64_t k = 0; k < 4; k++)
            eb_insn(&e, 0x5000 + k, 1);
        cond(&e, 0x2000, 1);
        cond(&e, 0x2001, 0);
    }
    solo_feed(b, e.ev, e.n);
    /* 0x2000: 10, 11, 11 -> w, 2w, 2w with w = 3 */
    assert_float_equal(branch_at(b, 0x2000)->est_taken, 15, 1e-12);
    assert_float_equal(branch_at(b, 0x2001)->est_fall, 3 + 6 + 6, 1e-12);
    solo_finish(b);
    /* B = 18 / 6 = 3 */
    assert_float_equal(branch_at(b, 0x2000)->est_taken, 5, 1e-12);
    solo_free(b);
}

/* Marker bit: T N T in a 4-bit register is 1101 = marker + 101: 3 valid bits. */
static void test_twolevel_marker(void **state)
{
    (void)state;
    static struct evbuf e;
    struct conte_base *b = make(model_find("conte_twolevel"), 16, 1, 3);
    /* history_bits default is 10; use 4 for this test */
    solo_free(b);
    struct param_values pv;
    char err[256] = "";
    params_defaults(&pv, model_find("conte_twolevel")->params);
    pv_set_int(&pv, "btb_entries", 16);
    pv_set_int(&pv, "sample_period", 3);
    pv_set_int(&pv, "history_bits", 4);
    b = solo_create(model_find("conte_twolevel"), &pv, err, sizeof err);
    assert_non_null(b);
    e.n = 0;
    cond(&e, 0x3000, 1);
    cond(&e, 0x3000, 0);
    cond(&e, 0x3000, 1);
    solo_feed(b, e.ev, e.n);
    assert_int_equal(b->samples, 1);
    assert_float_equal(branch_at(b, 0x3000)->est_taken, 2, 0);
    assert_float_equal(branch_at(b, 0x3000)->est_fall, 1, 0);
    /* reset at the sampling point: T T T -> 1111 = marker + 111 */
    e.n = 0;
    for (int i = 0; i < 3; i++)
        cond(&e, 0x3000, 1);
    solo_feed(b, e.ev, e.n);
    assert_float_equal(branch_at(b, 0x3000)->est_taken, 5, 0);
    assert_float_equal(branch_at(b, 0x3000)->est_fall, 1, 0);
    solo_finish(b);
    solo_free(b);
}

/* Full bit: with 2-bit registers, T N T shifts the marker out; the register
 * (01) is entirely valid: the last two outcomes N, T. */
static void test_twolevel_full(void **state)
{
    (void)state;
    static struct evbuf e;
    struct param_values pv;
    char err[256] = "";
    params_defaults(&pv, model_find("conte_twolevel")->params);
    pv_set_int(&pv, "btb_entries", 16);
    pv_set_int(&pv, "sample_period", 3);
    pv_set_int(&pv, "history_bits", 2);
    struct conte_base *b = solo_create(model_find("conte_twolevel"), &pv, err, sizeof err);
    assert_non_null(b);
    e.n = 0;
    cond(&e, 0x3000, 1);
    cond(&e, 0x3000, 0);
    cond(&e, 0x3000, 1);
    /* a second branch executed once: marker + 1 valid bit */
    cond(&e, 0x3001, 0);
    solo_feed(b, e.ev, e.n);
    solo_finish(b);
    assert_int_equal(b->samples, 2);
    assert_float_equal(branch_at(b, 0x3000)->est_taken, 1, 0);
    assert_float_equal(branch_at(b, 0x3000)->est_fall, 1, 0);
    assert_float_equal(branch_at(b, 0x3001)->est_taken, 0, 0);
    assert_float_equal(branch_at(b, 0x3001)->est_fall, 1, 0);
    solo_free(b);
}

/* Two-level predicts well on a loop-like pattern (sanity of the PT path). */
static void test_twolevel_accuracy(void **state)
{
    (void)state;
    static struct evbuf e;
    struct conte_base *b = make(model_find("conte_twolevel"), 64, 1, 100000);
    e.n = 0;
    for (int i = 0; i < 2000; i++)
        cond(&e, 0x4000, i % 4 != 3); /* T T T N repeating */
    solo_feed(b, e.ev, e.n);
    solo_finish(b);
    double m[CM_COUNT];
    solo_report(b, m);
    assert_true(m[CM_ACCURACY] > 98.0);
    solo_free(b);

    b = make(model_find("conte_onelevel"), 64, 1, 100000);
    solo_feed(b, e.ev, e.n);
    solo_finish(b);
    solo_report(b, m);
    assert_float_equal(m[CM_ACCURACY], 75.0, 0.2);
    solo_free(b);
}

/* Counter: unbounded counts, lost on contention.  1-entry BTB: A B A A. */
static void test_counter_contention(void **state)
{
    (void)state;
    static struct evbuf e;
    struct conte_base *b = make(model_find("conte_counter"), 1, 1, 4);
    e.n = 0;
    cond(&e, 0x10, 1);
    cond(&e, 0x14, 0);
    cond(&e, 0x10, 1);
    cond(&e, 0x10, 1);
    solo_feed(b, e.ev, e.n);
    assert_float_equal(branch_at(b, 0x10)->est_taken, 2, 0);
    assert_float_equal(branch_at(b, 0x10)->est_fall, 0, 0);
    assert_float_equal(branch_at(b, 0x14)->est_fall, 0, 0);
    solo_finish(b);
    double m[CM_COUNT];
    solo_report(b, m);
    assert_float_equal(m[CM_CONTENTIONS], 2, 0);
    assert_true(isnan(m[CM_ACCURACY]));
    /* A estimated exactly (delta 0); B never sampled (delta = 1) */
    assert_float_equal(m[CM_DW_LO], 1, 1e-12);
    assert_float_equal(m[CM_N_LO], 2, 0);
    assert_float_equal(m[CM_DW_HI], 0, 0);
    solo_free(b);
}

/* Contentions as a function of geometry: A B A B mapping to one set. */
static void test_contention_geometry(void **state)
{
    (void)state;
    static struct evbuf e;
    e.n = 0;
    for (int i = 0; i < 4; i++)
        cond(&e, i & 1 ? 0x14 : 0x10, 1);
    const int64_t assoc[] = { 1, 2, 4 };
    const double expect[] = { 3, 0, 0 };
    for (int k = 0; k < 3; k++) {
        struct conte_base *b = make(model_find("conte_onelevel"), 4, assoc[k], 1000);
        solo_feed(b, e.ev, e.n);
        solo_finish(b);
        double m[CM_COUNT];
        solo_report(b, m);
        assert_float_equal(m[CM_CONTENTIONS], expect[k], 0);
        solo_free(b);
    }
}

/* LRU within a set: A B A C evicts B, then A hits. */
static void test_lru(void **state)
{
    (void)state;
    static struct evbuf e;
    e.n = 0;
    const uint64_t seq[] = { 0x10, 0x12, 0x10, 0x14, 0x10 }; /* all in set 0 of 2 sets */
    for (int i = 0; i < 5; i++)
        cond(&e, seq[i], 1);
    struct conte_base *b = make(model_find("conte_onelevel"), 4, 2, 1000);
    solo_feed(b, e.ev, e.n);
    solo_finish(b);
    double m[CM_COUNT];
    solo_report(b, m);
    assert_float_equal(m[CM_CONTENTIONS], 1, 0);
    /* hits: A (3rd) and A (5th) predicted taken from counter 10/11 */
    assert_float_equal(m[CM_ACCURACY], 40.0, 1e-9);
    solo_free(b);
}

/* Formulas (1)-(2): the paper's 40/60 vs 44/56 example gives 0.04. */
static void test_delta_w(void **state)
{
    (void)state;
    struct conte_cfg *c = conte_cfg_create(16);
    conte_cfg_reserve(c, 8);
    struct conte_branch *br;
    br = conte_cfg_branch(c, conte_cfg_cond(c, 0x10, 0x40, 0x12, 1));
    br->exec = 100, br->taken = 40, br->est_taken = 44, br->est_fall = 56;
    br = conte_cfg_branch(c, conte_cfg_cond(c, 0x20, 0x40, 0x22, 1));
    br->exec = 20000, br->taken = 20000, br->est_taken = 0, br->est_fall = 0; /* never sampled: 1 */
    br = conte_cfg_branch(c, conte_cfg_cond(c, 0x30, 0x40, 0x32, 1));
    br->exec = 50, br->taken = 25, br->est_taken = 10, br->est_fall = 0; /* 0.5 */
    br = conte_cfg_branch(c, conte_cfg_cond(c, 0x50, 0x52, 0x52, 1));
    br->exec = 7, br->taken = 7; /* one arc only: skipped */
    br = conte_cfg_branch(c, conte_cfg_cond(c, 0x60, 0x70, 0x62, 1));
    br->exec = 10000, br->taken = 5000, br->est_taken = 1, br->est_fall = 3; /* 0.25, at threshold: hi */
    double lo, hi;
    uint64_t nlo, nhi;
    conte_delta_w(c, 10000, &lo, &hi, &nlo, &nhi);
    assert_float_equal(lo, 0.04 + 0.5, 1e-12);
    assert_float_equal(hi, 1 + 0.25, 1e-12);
    assert_int_equal(nlo, 2);
    assert_int_equal(nhi, 2);
    conte_cfg_free(c);
}

/* Jittered periods are reproducible from the seed and stay in range. */
static void test_jitter(void **state)
{
    (void)state;
    static struct evbuf e;
    e.n = 0;
    for (int i = 0; i < 2000; i++)
        cond(&e, 0x100 + (uint64_t)(i % 7), i & 1);
    uint64_t samples[2];
    for (int k = 0; k < 2; k++) {
        struct param_values pv;
        char err[256] = "";
        params_defaults(&pv, model_find("conte_onelevel")->params);
        pv_set_int(&pv, "sample_period", 100);
        pv_set_real(&pv, "sample_jitter", 0.5);
        pv_set_int(&pv, "seed", 42);
        struct conte_base *b = solo_create(model_find("conte_onelevel"), &pv, err, sizeof err);
        assert_non_null(b);
        solo_feed(b, e.ev, e.n);
        samples[k] = b->samples;
        solo_free(b);
    }
    assert_int_equal(samples[0], samples[1]);
    assert_true(samples[0] >= 2000 / 151 && samples[0] <= 2000 / 50);
}

/* Bad geometry is a create() error naming the parameter. */
static void test_bad_assoc(void **state)
{
    (void)state;
    struct param_values pv;
    char err[256] = "";
    params_defaults(&pv, model_find("conte_counter")->params);
    pv_set_int(&pv, "btb_entries", 12);
    pv_set_int(&pv, "btb_assoc", 8);
    assert_null(solo_create(model_find("conte_counter"), &pv, err, sizeof err));
    assert_non_null(strstr(err, "btb_assoc"));
}

/* End to end: the counter scheme with a large buffer is exact, so every
 * superblock matches the exact profile's. */
static void test_counter_exact_superblocks(void **state)
{
    (void)state;
    static struct evbuf e;
    e.n = 0;
    for (int i = 0; i < 10; i++) {
        int else_path = i % 3 == 0;
        eb_insn(&e, 0x100, 4);
        eb_cond(&e, 0x104, 4, 0x110, else_path);
        if (else_path) {
            eb_insn(&e, 0x110, 4);
            eb_insn(&e, 0x114, 4);
        } else {
            eb_insn(&e, 0x108, 4);
            eb_insn(&e, 0x10c, 4);
        }
        eb_insn(&e, 0x118, 4);
        eb_cond(&e, 0x11c, 4, 0x100, i < 9);
    }
    struct conte_base *b = make(model_find("conte_counter"), 1024, 1, 3);
    solo_feed(b, e.ev, e.n);
    solo_finish(b);
    double m[CM_COUNT];
    solo_report(b, m);
    assert_float_equal(m[CM_DW_LO], 0, 1e-12);
    assert_float_equal(m[CM_SB_SAME], 100, 1e-9);
    assert_float_equal(m[CM_SB_LINK], 100, 1e-9);
    assert_float_equal(m[CM_SB_COMPLETION], m[CM_SB_COMPLETION_EXACT], 1e-9);
    assert_float_equal(m[CM_BLOCKS], 4, 0);
    assert_float_equal(m[CM_ARCS], 5, 0);
    solo_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onelevel_table2),
        cmocka_unit_test(test_onelevel_what_scaling),
        cmocka_unit_test(test_twolevel_marker),
        cmocka_unit_test(test_twolevel_full),
        cmocka_unit_test(test_twolevel_accuracy),
        cmocka_unit_test(test_counter_contention),
        cmocka_unit_test(test_contention_geometry),
        cmocka_unit_test(test_lru),
        cmocka_unit_test(test_delta_w),
        cmocka_unit_test(test_jitter),
        cmocka_unit_test(test_bad_assoc),
        cmocka_unit_test(test_counter_exact_superblocks),
    };
    return cmocka_run_group_tests_name("conte_models", tests, NULL, NULL);
}
