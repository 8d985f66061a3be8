/* test_mh_engine.c - hand-computed tuple streams for the singlehash,
 * multihash and cms_cu models: shielding, resetting, retaining (P0 modes),
 * promotion across n tables, conservative update, saturation, a full
 * accumulator, and the four error components of each interval.
 *
 * Tuples that must alias are found by asking the model which slot a tuple
 * hashes to (mh_engine_index), so the tests exercise the real section 5.3
 * hash.  Noise tuples that fill an interval avoid every slot of interest and
 * each other (in table 0), so no noise tuple ever reaches T. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "param_testutil.h"
#include "solo_testutil.h"
#include "models/shared/mh_engine.h"

static struct param_values pv;
static const struct model_desc *ops;
static struct mh_engine *eng;

/* interval 20, threshold 0.15: T = 3; 64 counters per table */
static void begin(const struct model_desc *o)
{
    ops = o;
    params_defaults(&pv, o->params);
    tu_set(&pv, "interval", 20);
    tu_set(&pv, "threshold", 0.15);
}

static void create(void)
{
    char err[256] = "";
    eng = solo_create(ops, &pv, err, sizeof err);
    if (!eng)
        fail_msg("create: %s", err);
    assert_int_equal(mh_engine_T(eng), 3);
}

static void destroy(void)
{
    solo_free(eng);
    eng = NULL;
}

#define PC_A 0x400100u
#define PC_NOISE 0x500000u

/* n loads of <pc, value>, with an instruction and a store event between
 * consecutive loads (they must be skipped). */
static void load(uint64_t pc, uint64_t value, int n)
{
    struct event evs[3];
    memset(evs, 0, sizeof evs);
    evs[0].kind = EV_INSN;
    evs[0].pc = pc;
    evs[1].kind = EV_LOAD;
    evs[1].pc = pc;
    evs[1].addr = 0x7fff0000;
    evs[1].value = value;
    evs[1].size = 8;
    evs[2].kind = EV_STORE;
    evs[2].pc = pc + 4;
    /* in one batch, so that the engine sees the tuples together (its
     * counters requested ahead: PF_AHEAD in mh_engine.c) */
    struct event batch[3 * 16];
    while (n > 0) {
        int k = n < 16 ? n : 16;
        for (int i = 0; i < k; i++)
            memcpy(&batch[3 * i], evs, sizeof evs);
        solo_feed(eng, batch, 3 * (size_t)k);
        n -= k;
    }
}

static unsigned ntables;

static bool slot_in(unsigned k, uint64_t a, uint64_t b, const uint64_t (*keys)[2], int nkeys)
{
    uint32_t s = mh_engine_index(eng, k, a, b);
    for (int i = 0; i < nkeys; i++)
        if (mh_engine_index(eng, k, keys[i][0], keys[i][1]) == s)
            return true;
    return false;
}

/* A value v (>= from) such that <PC_A, v> shares table-0 slot with key and,
 * if other_tables_differ, no other table's slot. */
static uint64_t alias_of(uint64_t a, uint64_t b, bool other_tables_differ, uint64_t from)
{
    for (uint64_t v = from;; v++) {
        if (v == b)
            continue;
        if (mh_engine_index(eng, 0, PC_A, v) != mh_engine_index(eng, 0, a, b))
            continue;
        bool ok = true;
        for (unsigned k = 1; k < ntables && other_tables_differ; k++)
            if (mh_engine_index(eng, k, PC_A, v) == mh_engine_index(eng, k, a, b))
                ok = false;
        if (ok)
            return v;
    }
}

/* A value v >= from whose slots differ from every key's in every table. */
static uint64_t apart_from(const uint64_t (*keys)[2], int nkeys, uint64_t from)
{
    for (uint64_t v = from;; v++) {
        bool ok = true;
        for (unsigned k = 0; k < ntables && ok; k++)
            ok = !slot_in(k, PC_A, v, keys, nkeys);
        if (ok)
            return v;
    }
}

/* Feed n distinct noise tuples avoiding the keys' slots (all tables) and
 * each other (table 0). */
static void noise(const uint64_t (*keys)[2], int nkeys, int n)
{
    uint64_t used[64][2];
    int nused = 0;
    for (uint64_t v = 1; nused < n; v++) {
        bool ok = true;
        for (unsigned k = 0; k < ntables && ok; k++)
            ok = !slot_in(k, PC_NOISE, v, keys, nkeys);
        if (ok && slot_in(0, PC_NOISE, v, (const uint64_t(*)[2])used, nused))
            ok = false;
        if (!ok)
            continue;
        used[nused][0] = PC_NOISE;
        used[nused][1] = v;
        nused++;
        load(PC_NOISE, v, 1);
    }
}

static uint32_t counter(unsigned k, uint64_t a, uint64_t b) { return mh_engine_counter(eng, k, mh_engine_index(eng, k, a, b)); }

static int acc(uint64_t a, uint64_t b, uint32_t *count) { return mh_engine_acc(eng, a, b, count); }

static void expect_err(double fp, double fn, double np, double nn)
{
    const struct mh_err_interval *it = mh_engine_last(eng);
    assert_float_equal(it->part[MH_FP], fp, 1e-9);
    assert_float_equal(it->part[MH_FN], fn, 1e-9);
    assert_float_equal(it->part[MH_NP], np, 1e-9);
    assert_float_equal(it->part[MH_NN], nn, 1e-9);
    assert_float_equal(it->error, fp + fn + np + nn, 1e-9);
}

static void single(void)
{
    begin(model_find("singlehash"));
    tu_set(&pv, "counters", 64);
    ntables = 1;
}

/* ---- single hash ---------------------------------------------------------- */

static void test_sh_shielding_reset(void **state)
{
    (void)state;
    uint32_t c;
    /* R1: promotion at the 3rd occurrence with the counter's value, counter zeroed */
    single();
    create();
    load(PC_A, 1, 3);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    assert_int_equal(counter(0, PC_A, 1), 0);
    load(PC_A, 1, 2); /* shielded: only the accumulator counts */
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 5);
    assert_int_equal(counter(0, PC_A, 1), 0);
    destroy();

    /* R0: the counter keeps its value and, shielded, does not move */
    single();
    tu_set(&pv, "reset", 0);
    create();
    load(PC_A, 1, 5);
    assert_int_equal(counter(0, PC_A, 1), 3);
    acc(PC_A, 1, &c);
    assert_int_equal(c, 5);
    destroy();

    /* R0 without shielding: the counter follows every occurrence */
    single();
    tu_set(&pv, "reset", 0);
    tu_set(&pv, "shielding", 0);
    create();
    load(PC_A, 1, 5);
    assert_int_equal(counter(0, PC_A, 1), 5);
    acc(PC_A, 1, &c);
    assert_int_equal(c, 5);
    destroy();
}

/* B x3 promoted; C (same slot) x1 rides the counter into the accumulator
 * under R0: f_p(C) = 1, f_h(C) = 4 -> FP = 3 / (3 + 1) = 75%. */
static void test_sh_alias_false_positive(void **state)
{
    (void)state;
    for (int reset = 0; reset <= 1; reset++) {
        single();
        tu_set(&pv, "reset", reset);
        create();
        uint64_t vb = 10, vc = alias_of(PC_A, vb, false, 1000);
        const uint64_t keys[2][2] = { { PC_A, vb }, { PC_A, vc } };
        load(PC_A, vb, 3);
        load(PC_A, vc, 1);
        uint32_t c;
        if (!reset) {
            assert_int_equal(acc(PC_A, vc, &c), MH_ACC_LOCKED);
            assert_int_equal(c, 4);
        } else {
            assert_int_equal(acc(PC_A, vc, &c), MH_ACC_EMPTY);
            assert_int_equal(counter(0, PC_A, vc), 1);
        }
        noise(keys, 2, 16);
        if (!reset)
            expect_err(75, 0, 0, 0);
        else
            expect_err(0, 0, 0, 0);
        assert_int_equal(mh_engine_last(eng)->true_candidates, 1);
        destroy();
    }
}

/* C x1 then B x3 (same slot): B is promoted at its 2nd occurrence with the
 * counter's 3 and ends at 4 for f_p = 3: NP = 1/3. */
static void test_sh_neutral_positive(void **state)
{
    (void)state;
    single();
    create();
    uint64_t vb = 10, vc = alias_of(PC_A, vb, false, 1000);
    const uint64_t keys[2][2] = { { PC_A, vb }, { PC_A, vc } };
    load(PC_A, vc, 1);
    load(PC_A, vb, 2);
    uint32_t c;
    assert_int_equal(acc(PC_A, vb, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    load(PC_A, vb, 1);
    noise(keys, 2, 16);
    expect_err(0, 0, 100.0 / 3, 0);
    destroy();
}

/* init_count one: A x5 is promoted at 3 with count 1 and ends at 3 for
 * f_p = 5: NN = 2/5. */
static void test_sh_neutral_negative(void **state)
{
    (void)state;
    single();
    tu_set_enum(&pv, "init_count", "one");
    create();
    const uint64_t keys[1][2] = { { PC_A, 1 } };
    load(PC_A, 1, 5);
    noise(keys, 1, 15);
    expect_err(0, 0, 0, 40);
    destroy();
}

/* A one-entry accumulator: A x3 takes it, B x3 is dropped -> FN 3/6. */
static void test_sh_full_accumulator(void **state)
{
    (void)state;
    single();
    tu_set(&pv, "acc_entries", 1);
    create();
    const uint64_t k0[1][2] = { { PC_A, 1 } };
    uint64_t vb = apart_from(k0, 1, 100);
    const uint64_t keys[2][2] = { { PC_A, 1 }, { PC_A, vb } };
    load(PC_A, 1, 3);
    load(PC_A, vb, 3);
    uint32_t c;
    assert_int_equal(acc(PC_A, vb, &c), MH_ACC_EMPTY);
    noise(keys, 2, 14);
    expect_err(0, 50, 0, 0);
    double out[MH_ENGINE_NMETRICS];
    solo_report(eng, out);
    assert_float_equal(out[MH_ERR_NMETRICS + 1], 1, 0); /* acc_drops */
    assert_float_equal(out[MH_ERR_NMETRICS + 0], 1, 0); /* promotions per interval */
    assert_float_equal(out[0], 50, 1e-9);
    destroy();
}

/* P1: A (count >= T) survives the interval at count 0, replaceable,
 * shielded; it locks again when its count reaches T. */
static void test_sh_retaining(void **state)
{
    (void)state;
    single();
    create();
    const uint64_t keys[1][2] = { { PC_A, 1 } };
    uint32_t c;
    load(PC_A, 1, 3);
    noise(keys, 1, 17);
    assert_int_equal(mh_engine_last(eng)->error, 0);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_REPLACEABLE);
    assert_int_equal(c, 0);
    load(PC_A, 1, 1);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_REPLACEABLE);
    assert_int_equal(c, 1);
    assert_int_equal(counter(0, PC_A, 1), 0); /* shielded by the retained entry */
    load(PC_A, 1, 2);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    destroy();

    /* P1 drops entries below T: with init_count zero A ends at 0 < T */
    single();
    tu_set_enum(&pv, "init_count", "zero");
    create();
    load(PC_A, 1, 3);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    noise(keys, 1, 17);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_EMPTY);
    expect_err(0, 100, 0, 0); /* counted 0 < T: missed */
    destroy();

    /* P0 flush: nothing survives */
    single();
    tu_set(&pv, "retain", 0);
    create();
    load(PC_A, 1, 3);
    noise(keys, 1, 17);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_EMPTY);
    assert_int_equal(mh_engine_acc_used(eng), 0);
    load(PC_A, 1, 1);
    assert_int_equal(counter(0, PC_A, 1), 1);
    destroy();

    /* P0 keep: everything survives, even below T, at count 0, replaceable */
    single();
    tu_set(&pv, "retain", 0);
    tu_set_enum(&pv, "p0_mode", "keep");
    tu_set_enum(&pv, "init_count", "zero");
    create();
    load(PC_A, 1, 3);
    noise(keys, 1, 17);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_REPLACEABLE);
    assert_int_equal(c, 0);
    destroy();
}

/* A retained (replaceable) entry is given to a new promotion when no entry
 * is empty; once every entry is locked, promotions are dropped. */
static void test_sh_replace_retained(void **state)
{
    (void)state;
    single();
    tu_set(&pv, "acc_entries", 1);
    create();
    const uint64_t k0[1][2] = { { PC_A, 1 } };
    uint64_t vb = apart_from(k0, 1, 100);
    const uint64_t keys[2][2] = { { PC_A, 1 }, { PC_A, vb } };
    uint32_t c;
    load(PC_A, 1, 3);
    noise(keys, 2, 17);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_REPLACEABLE);
    load(PC_A, vb, 3);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_EMPTY);
    assert_int_equal(acc(PC_A, vb, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    load(PC_A, 1, 3); /* reaches T in the hash table, no entry left */
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_EMPTY);
    noise(keys, 2, 14);
    expect_err(0, 50, 0, 0);
    double out[MH_ENGINE_NMETRICS];
    solo_report(eng, out);
    assert_float_equal(out[MH_ERR_NMETRICS + 1], 1, 0);
    destroy();
}

/* 2-bit counters saturate at 3, in the hash table and the accumulator. */
static void test_sh_saturation(void **state)
{
    (void)state;
    single();
    tu_set(&pv, "counter_bits", 2);
    tu_set(&pv, "reset", 0);
    tu_set(&pv, "shielding", 0);
    create();
    load(PC_A, 1, 7);
    uint32_t c;
    assert_int_equal(counter(0, PC_A, 1), 3);
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    double out[MH_ENGINE_NMETRICS];
    solo_report(eng, out);
    assert_float_equal(out[MH_ERR_NMETRICS + 2], 64 * 1 + 7 * (16 + 1), 0); /* memory: 7 = ceil(1/0.15) entries */
    destroy();
}

/* ---- multi hash ------------------------------------------------------------ */

/* The multihash tests run twice: 128 counters (2 tables of 64: 6-bit
 * indices, the hash in 8-bit fold lanes) and 2048 (2 x 1024: 16-bit lanes,
 * 8 KB of counters, requested PF_AHEAD tuples ahead). */
static int64_t mh_counters = 128;

static void multi(int conservative, int reset)
{
    begin(model_find("multihash"));
    tu_set(&pv, "tables", 2);
    tu_set(&pv, "counters", mh_counters);
    tu_set(&pv, "conservative", conservative);
    tu_set(&pv, "reset", reset);
    ntables = 2;
}

/* C aliases B in table 0 only: the single hash would promote it (see
 * test_sh_alias_false_positive); two tables need both counters >= T. */
static void test_mh_promotion_needs_all_tables(void **state)
{
    (void)state;
    multi(0, 0);
    create();
    uint64_t vb = 10, vc = alias_of(PC_A, vb, true, 1000);
    const uint64_t keys[2][2] = { { PC_A, vb }, { PC_A, vc } };
    load(PC_A, vb, 3);
    uint32_t c;
    assert_int_equal(acc(PC_A, vb, &c), MH_ACC_LOCKED);
    load(PC_A, vc, 2);
    assert_int_equal(acc(PC_A, vc, &c), MH_ACC_EMPTY);
    assert_int_equal(counter(0, PC_A, vc), 5);
    assert_int_equal(counter(1, PC_A, vc), 2);
    load(PC_A, vc, 1); /* now 6 and 3: promoted with min = 3 */
    assert_int_equal(acc(PC_A, vc, &c), MH_ACC_LOCKED);
    assert_int_equal(c, 3);
    noise(keys, 2, 14);
    expect_err(0, 0, 0, 0);
    assert_int_equal(mh_engine_last(eng)->true_candidates, 2);
    destroy();
}

/* X x2 then Y x1, Y aliasing X in table 0 only.  C1: only Y's smallest
 * counter (table 1) grows, so X's shared counter stays exact; C0 inflates
 * it.  Ties grow together. */
static void test_mh_conservative_update(void **state)
{
    (void)state;
    for (int cons = 0; cons <= 1; cons++) {
        multi(cons, 0);
        create();
        uint64_t vx = 10, vy = alias_of(PC_A, vx, true, 1000);
        const uint64_t keys[2][2] = { { PC_A, vx }, { PC_A, vy } };
        load(PC_A, vx, 2);
        assert_int_equal(counter(0, PC_A, vx), 2); /* tie: both grew */
        assert_int_equal(counter(1, PC_A, vx), 2);
        load(PC_A, vy, 1);
        assert_int_equal(counter(0, PC_A, vx), cons ? 2 : 3);
        assert_int_equal(counter(1, PC_A, vy), 1);
        load(PC_A, vy, 2);
        uint32_t c;
        if (cons) {
            /* Y: (2,1) -> (2,2) -> tie (3,3): promoted with 3 = f_p */
            assert_int_equal(counter(0, PC_A, vy), 3);
            assert_int_equal(counter(1, PC_A, vy), 3);
        } else {
            assert_int_equal(counter(0, PC_A, vy), 5);
            assert_int_equal(counter(1, PC_A, vy), 3);
        }
        assert_int_equal(acc(PC_A, vy, &c), MH_ACC_LOCKED);
        assert_int_equal(c, 3);
        load(PC_A, vx, 1); /* X: min of (t0, t1=2) grows to 3 -> promoted */
        assert_int_equal(acc(PC_A, vx, &c), MH_ACC_LOCKED);
        assert_int_equal(c, 3);
        assert_int_equal(counter(1, PC_A, vx), 3);
        noise(keys, 2, 14);
        expect_err(0, 0, 0, 0);
        destroy();
    }
}

/* R1 zeroes all n counters of the promoted tuple. */
static void test_mh_reset_all_tables(void **state)
{
    (void)state;
    multi(1, 1);
    create();
    load(PC_A, 1, 3);
    uint32_t c;
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(counter(0, PC_A, 1), 0);
    assert_int_equal(counter(1, PC_A, 1), 0);
    destroy();
}

/* Saturation under conservative update: the minimum stops at 2^bits - 1. */
static void test_mh_saturation(void **state)
{
    (void)state;
    multi(1, 0);
    tu_set(&pv, "counter_bits", 2);
    tu_set(&pv, "shielding", 0);
    create();
    load(PC_A, 1, 6);
    assert_int_equal(counter(0, PC_A, 1), 3);
    assert_int_equal(counter(1, PC_A, 1), 3);
    destroy();
}

/* The same hand-computed streams with 2048 counters. */
static void test_mh_big_tables(void **state)
{
    mh_counters = 2048;
    test_mh_promotion_needs_all_tables(state);
    test_mh_conservative_update(state);
    test_mh_reset_all_tables(state);
    test_mh_saturation(state);
    mh_counters = 128;
}

/* ---- cms_cu ----------------------------------------------------------------- */

/* Every tuple updates the sketch (no shielding) and f_h is the sketch's
 * estimate at interval end.  bytes 112 = 4 tags * 16 + 2 rows * 8 * 3. */
static void test_cms_cu(void **state)
{
    (void)state;
    begin(model_find("cms_cu"));
    tu_set(&pv, "interval", 6);
    tu_set(&pv, "threshold", 0.5);
    tu_set(&pv, "tables", 2);
    tu_set(&pv, "acc_entries", 4);
    tu_set(&pv, "bytes", 112);
    ntables = 2;
    create();
    const uint64_t keys[1][2] = { { PC_A, 1 } };
    load(PC_A, 1, 5);
    uint32_t c;
    assert_int_equal(acc(PC_A, 1, &c), MH_ACC_LOCKED);
    assert_int_equal(counter(0, PC_A, 1), 5);
    assert_int_equal(counter(1, PC_A, 1), 5);
    noise(keys, 1, 1);
    expect_err(0, 0, 0, 0);
    assert_int_equal(mh_engine_last(eng)->hw_candidates, 1);
    double out[MH_ENGINE_NMETRICS];
    solo_report(eng, out);
    assert_float_equal(out[MH_ERR_NMETRICS + 2], 112, 0);
    assert_float_equal(out[6], 1, 0); /* intervals */
    destroy();

    /* default budget = default multihash bytes: 2048*3 + 100*(16+3) */
    params_defaults(&pv, model_find("cms_cu")->params);
    char err[128];
    eng = solo_create(model_find("cms_cu"), &pv, err, sizeof err);
    assert_non_null(eng);
    solo_report(eng, out);
    /* 8044 - 1600 tag bytes = 6444 -> 2148 counters = 4 x 537 */
    assert_float_equal(out[MH_ERR_NMETRICS + 2], 4 * 537 * 3 + 1600, 0);
    solo_free(eng);
    eng = NULL;

    params_defaults(&pv, model_find("cms_cu")->params);
    tu_set(&pv, "bytes", 1000); /* less than the 1600-byte candidate table */
    assert_null(solo_create(model_find("cms_cu"), &pv, err, sizeof err));
}

/* partial = 1 closes the last interval at finish(); default drops it. */
static void test_partial_interval(void **state)
{
    (void)state;
    for (int partial = 0; partial <= 1; partial++) {
        single();
        tu_set(&pv, "partial", partial);
        create();
        load(PC_A, 1, 5);
        solo_finish(eng);
        double out[MH_ENGINE_NMETRICS];
        solo_report(eng, out);
        assert_float_equal(out[6], partial, 0); /* intervals */
        assert_float_equal(out[7], 5, 0);       /* tuples */
        if (partial)
            assert_float_equal(out[0], 0, 0);
        else
            assert_true(isnan(out[0]));
        destroy();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sh_shielding_reset),
        cmocka_unit_test(test_sh_alias_false_positive),
        cmocka_unit_test(test_sh_neutral_positive),
        cmocka_unit_test(test_sh_neutral_negative),
        cmocka_unit_test(test_sh_full_accumulator),
        cmocka_unit_test(test_sh_retaining),
        cmocka_unit_test(test_sh_replace_retained),
        cmocka_unit_test(test_sh_saturation),
        cmocka_unit_test(test_mh_promotion_needs_all_tables),
        cmocka_unit_test(test_mh_conservative_update),
        cmocka_unit_test(test_mh_reset_all_tables),
        cmocka_unit_test(test_mh_saturation),
        cmocka_unit_test(test_mh_big_tables),
        cmocka_unit_test(test_cms_cu),
        cmocka_unit_test(test_partial_interval),
    };
    return cmocka_run_group_tests_name("mh_engine", tests, NULL, NULL);
}
