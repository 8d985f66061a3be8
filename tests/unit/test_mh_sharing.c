/* test_mh_sharing.c - the multihash-family models on the engine: instances
 * that share one "mh_interval" stage (one exact table) in one job report
 * bit for bit what each reports alone in its own job, and so do instances
 * split over two lanes (threads), for every scored model, both tuple
 * streams, tiny intervals whose boundaries fall inside batches, partial
 * last intervals and batches of one event.  Also: which instances share a
 * stage, the folded section 5.3 hash (mh_fold) against mh_hash_index, and
 * score = false. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "families/mh_common.h"
#include "run/plan.h"
#include "engine_testutil.h"

/* ---- a hand-made stream --------------------------------------------------- */

#define NEV 6000
static struct event evs[NEV];

/* Loads (some without a value), instructions, stores and control transfers;
 * a few hot tuples so every model sees candidates, promotions and
 * replacements even in intervals of a few tuples. */
static void make_stream(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    memset(evs, 0, sizeof evs);
    for (size_t i = 0; i < NEV; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        struct event *e = &evs[i];
        unsigned r = (unsigned)(x % 100);
        uint64_t hot = (x >> 16) % 4, cold = (x >> 24) % 300;
        if (r < 50) {
            e->kind = EV_LOAD;
            e->pc = 0x400000 + 4 * (r < 35 ? hot : cold % 40);
            e->value = r < 35 ? hot * 3 : cold;
            e->size = 8;
            if (r == 49)
                e->flags = EVF_NOVALUE;
        } else if (r < 75) {
            e->kind = EV_BRANCH;
            e->pc = 0x401000 + 8 * (r < 70 ? hot : cold % 25);
            e->taken = (x >> 40) & 1;
            e->addr = e->pc + 64;
            e->value = e->pc + 4;
        } else if (r < 80) {
            e->kind = (enum ev_kind)(EV_CALL + (int)(x >> 50) % 3); /* call, return, ijump */
            e->pc = 0x402000 + 4 * (cold % 7);
            e->addr = 0x403000 + 16 * hot;
        } else if (r < 90) {
            e->kind = EV_STORE;
            e->pc = 0x404000;
        } else {
            e->kind = EV_INSN;
            e->pc = 0x405000;
        }
    }
}

/* ---- instances ---------------------------------------------------------------- */

/* The instance set: every scored model, several configurations, with
 * thresholds and partial flags that differ but one interval length. */
static void make_set(struct tu_set *t, const char *stream, int interval)
{
    struct variant {
        const char *model;
        double threshold;
        int partial;
        const char *p1;
        double v1;
        const char *p2;
        double v2;
    } const v[] = {
        { "multihash", 0.1, 1, "tables", 4, "conservative", 1 },
        { "multihash", 0.25, 0, "tables", 4, "conservative", 0 },
        { "multihash", 0.2, 1, "tables", 3, "reset", 1 },
        { "multihash", 0.3, 1, "tables", 16, "retain", 0 },
        { "multihash", 0.25, 1, "counters", 16, "acc_entries", 2 },
        { "singlehash", 0.25, 1, "counters", 32, NULL, 0 },
        { "singlehash", 0.2, 0, "reset", 0, "retain", 0 },
        { "singlehash", 0.25, 1, "shielding", 0, "init_count", 1 },
        { "cms_cu", 0.25, 1, NULL, 0, NULL, 0 },
        { "cms_cu", 0.2, 1, "hash", 0, "tables", 2 },
        { "spacesaving", 0.25, 1, "entries", 3, NULL, 0 },
        { "spacesaving", 0.1, 0, NULL, 0, NULL, 0 },
        { "stratified", 0.25, 1, "sample_threshold", 2, NULL, 0 },
        { "stratified", 0.2, 1, "tag_bits", 3, "flush", 1 },
        { "exact", 0.25, 1, NULL, 0, NULL, 0 },
        { "exact", 0.1, 0, "change", 1, NULL, 0 },
    };
    memset(t, 0, sizeof *t);
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        struct param_values pv = tu_params(v[k].model);
        tu_set_enum(&pv, "stream", stream);
        if (strcmp(stream, "edges") == 0)
            tu_set_enum(&pv, "edges", "all");
        tu_set(&pv, "interval", interval);
        tu_set(&pv, "threshold", v[k].threshold);
        tu_set(&pv, "partial", v[k].partial);
        if (v[k].p1 && !strcmp(v[k].p1, "hash"))
            pv_set_enum(&pv, "hash", (int)v[k].v1);
        else if (v[k].p1 && !strcmp(v[k].p1, "init_count"))
            pv_set_enum(&pv, "init_count", (int)v[k].v1);
        else if (v[k].p1 && !strcmp(v[k].p1, "change"))
            pv_set_enum(&pv, "change", (int)v[k].v1);
        else if (v[k].p1)
            tu_set(&pv, v[k].p1, v[k].v1);
        if (v[k].p2 && !strcmp(v[k].p2, "init_count"))
            pv_set_enum(&pv, "init_count", (int)v[k].v2);
        else if (v[k].p2)
            tu_set(&pv, v[k].p2, v[k].v2);
        tu_add(t, v[k].model, &pv);
    }
}

/* Shared (one job, batch size `batch`, `lanes` lanes) against alone. */
static void run_case(const char *stream, int interval, size_t batch, int lanes)
{
    static struct tu_set a, b;
    make_set(&a, stream, interval);
    make_set(&b, stream, interval);
    tu_run(&a, evs, NEV, 4096, 1, 1, true);
    tu_run(&b, evs, NEV, batch, lanes, lanes, false);
    /* the stream made intervals (and the models saw candidates) */
    if (tu_metric(&a, 0, "intervals") < 2)
        fail_msg("%s interval %d: %g intervals", stream, interval, tu_metric(&a, 0, "intervals"));
    assert_true(tu_metric(&a, 0, "true_candidates_avg") > 0);
    for (size_t i = 0; i < a.n; i++)
        tu_assert_same(&a, &b, i);
    tu_free(&a);
    tu_free(&b);
}

static void test_shared_equals_alone(void **state)
{
    (void)state;
    make_stream();
    static const int intervals[] = { 7, 13, 512, 700 };
    for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++) {
        run_case("values", intervals[i], 4096, 1);
        run_case("values", intervals[i], 37, 1);
        run_case("edges", intervals[i], 513, 2);
        run_case("values", intervals[i], 5, 2);
    }
    run_case("values", 13, 1, 1);
}

/* Intervals of one to three tuples: every tuple is a candidate (T = 1). */
static void test_shared_tiny_intervals(void **state)
{
    (void)state;
    make_stream();
    for (int interval = 1; interval <= 3; interval++) {
        static struct tu_set a, b;
        make_set(&a, "values", interval);
        make_set(&b, "values", interval);
        tu_run(&a, evs, NEV, 700, 1, 1, true);
        tu_run(&b, evs, NEV, 3, 2, 2, false);
        for (size_t i = 0; i < a.n; i++)
            tu_assert_same(&a, &b, i);
        tu_free(&a);
        tu_free(&b);
    }
}

/* The stage node of an instance's plan. */
static struct plan_nodedef stage_of(const char *model, const struct param_values *pv)
{
    struct plan p;
    assert_int_equal(plan_build(model_find(model), pv, &p), 0);
    assert_true(p.feed >= 0);
    assert_int_equal(p.node[p.feed].kind, PN_STAGE);
    return p.node[p.feed];
}

/* Which instances share a stage: stream, edge set (edges only), interval
 * and scoring; not the model, threshold or partial. */
static void test_sharing_key(void **state)
{
    (void)state;
    struct param_values pv = tu_params("multihash");
    tu_set(&pv, "threshold", 0.02);
    struct plan_nodedef k1 = stage_of("multihash", &pv), k2;
    pv = tu_params("spacesaving");
    tu_set(&pv, "partial", 1);
    k2 = stage_of("spacesaving", &pv);
    assert_true(plan_node_equal(&k1, &k2));
    pv = tu_params("spacesaving");
    tu_set(&pv, "interval", 10001);
    k2 = stage_of("spacesaving", &pv);
    assert_false(plan_node_equal(&k1, &k2));
    pv = tu_params("exact");
    tu_set_enum(&pv, "edges", "all"); /* for values the edge set does not matter */
    k2 = stage_of("exact", &pv);
    assert_true(plan_node_equal(&k1, &k2));
    pv = tu_params("exact");
    tu_set_enum(&pv, "stream", "edges");
    k1 = stage_of("exact", &pv);
    tu_set_enum(&pv, "edges", "all");
    k2 = stage_of("exact", &pv);
    assert_false(plan_node_equal(&k1, &k2));
    /* score = false: a stage without the exact profile */
    pv = tu_params("multihash");
    k1 = stage_of("multihash", &pv);
    tu_set(&pv, "score", 0);
    k2 = stage_of("multihash", &pv);
    assert_false(plan_node_equal(&k1, &k2));
}

/* score = false: same hardware (promotions, drops), no error metrics. */
static void test_score_false(void **state)
{
    (void)state;
    make_stream();
    static struct tu_set t;
    memset(&t, 0, sizeof t);
    for (int score = 0; score < 2; score++) {
        struct param_values pv = tu_params("multihash");
        tu_set(&pv, "interval", 50);
        tu_set(&pv, "threshold", 0.1);
        tu_set(&pv, "score", score);
        tu_add(&t, "multihash", &pv);
    }
    tu_run(&t, evs, NEV, 0, 1, 1, false);
    assert_true(isnan(tu_metric(&t, 0, "error_pct")));
    assert_false(isnan(tu_metric(&t, 1, "error_pct")));
    assert_true(tu_metric(&t, 0, "intervals") == tu_metric(&t, 1, "intervals"));
    assert_true(tu_metric(&t, 0, "tuples") == tu_metric(&t, 1, "tuples"));
    assert_true(tu_metric(&t, 0, "promotions_avg") == tu_metric(&t, 1, "promotions_avg"));
    assert_true(tu_metric(&t, 0, "acc_drops") == tu_metric(&t, 1, "acc_drops"));
    assert_true(tu_metric(&t, 1, "promotions_avg") > 0);
    tu_free(&t);
}

/* count_first = false: the same intervals, the first one left out of the
 * averages (error = the mean of the others). */
static void test_count_first(void **state)
{
    (void)state;
    make_stream();
    static struct tu_set t;
    memset(&t, 0, sizeof t);
    static const char *const models[] = { "multihash", "spacesaving", "stratified" };
    for (int m = 0; m < 3; m++)
        for (int first = 1; first >= 0; first--) {
            struct param_values pv = tu_params(models[m]);
            tu_set(&pv, "interval", 300);
            tu_set(&pv, "threshold", 0.05);
            tu_set(&pv, "count_first", first);
            tu_add(&t, models[m], &pv);
        }
    t.inst[0].wanted_tables = NULL; /* series not needed */
    tu_run(&t, evs, NEV, 0, 1, 1, false);
    for (int m = 0; m < 3; m++) {
        double n1 = tu_metric(&t, 2 * m, "intervals"), n0 = tu_metric(&t, 2 * m + 1, "intervals");
        assert_true(n1 >= 3);
        assert_true(n0 == n1 - 1);
        /* sum over all = first + sum over the rest */
        double e1 = tu_metric(&t, 2 * m, "error_pct") * n1, e0 = tu_metric(&t, 2 * m + 1, "error_pct") * n0;
        assert_true(e1 >= e0 - 1e-9);
    }
    tu_free(&t);
}

/* mh_fold gives mh_hash_index's indices, in 16-bit lanes (four functions
 * of at most 16 bits) and in 8-bit lanes (eight of at most 8 bits). */
static void test_fold(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 1, 2, 3, 100, 128, 200, 256, 512, 682, 1024, 2048, 4096, 65535, 65536 };
    uint64_t x = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        struct mh_hash h[8];
        for (unsigned k = 0; k < 8; k++) {
            mh_hash_init(&h[k], 7, k, sizes[s]);
            if (k % 2) /* functions with separate pc tables too */
                mh_hash_separate_pc(&h[k], 7, k);
            if (k % 3 == 2) /* and one table for every byte */
                mh_hash_one_table(&h[k]);
        }
        static struct mh_fold f;
        for (unsigned lane = 8; lane <= 16; lane += 8) {
            if (h[0].bits > lane) {
                assert_int_equal(mh_fold_init(&f, h, 1, lane), -1);
                continue;
            }
            for (unsigned n = 1; n <= 64 / lane; n++) {
                assert_int_equal(mh_fold_init(&f, h, n, lane), 0);
                for (int i = 0; i < 2000; i++) {
                    uint64_t a = splitmix64(&x), b = i % 3 ? splitmix64(&x) : (uint64_t)i;
                    uint32_t idx[8];
                    mh_fold_index(&f, a, b, idx);
                    uint64_t w = mh_fold_word(&f, a, b);
                    for (unsigned k = 0; k < n; k++) {
                        assert_int_equal(idx[k], mh_hash_index(&h[k], a, b));
                        assert_int_equal(mh_fold_lane_w(&f, w, k, lane), idx[k]);
                        assert_true(idx[k] < sizes[s]);
                    }
                }
            }
            assert_int_equal(mh_fold_init(&f, h, 64 / lane + 1, lane), -1);
        }
    }
    struct mh_hash big;
    mh_hash_init(&big, 1, 0, 65537);
    static struct mh_fold f;
    assert_int_equal(mh_fold_init(&f, &big, 1, 16), -1);
    assert_int_equal(mh_fold_init(&f, &big, 1, 12), -1);
}

/* The one-table form (every function with one byte table, mh_fold.one):
 * the same words as the 16 per-position tables, for every table size that
 * fits a lane (rotations 0 .. b-1, and none when b divides 8), with the pc
 * through the value's tables or its own; mixed functions keep the tables. */
static void test_fold_one(void **state)
{
    (void)state;
    uint64_t x = 99;
    int checked_rot = 0, checked_norot = 0;
    for (uint32_t size = 1; size <= 65536; size = size < 300 ? size + 1 : size * 2 - 1) {
        for (int sep = 0; sep < 2; sep++) {
            struct mh_hash h[8];
            for (unsigned k = 0; k < 8; k++) {
                mh_hash_init(&h[k], 3 + (uint64_t)sep, k, size);
                if (sep)
                    mh_hash_separate_pc(&h[k], 3, k);
                mh_hash_one_table(&h[k]);
            }
            static struct mh_fold f;
            for (unsigned lane = 8; lane <= 16; lane += 8) {
                if (h[0].bits > lane)
                    continue;
                unsigned n = 64 / lane;
                assert_int_equal(mh_fold_init(&f, h, n, lane), 0);
                assert_true(f.one);
                assert_int_equal(f.norot, 8 % f.bits == 0);
                checked_rot += !f.norot;
                checked_norot += f.norot;
                for (int i = 0; i < 300; i++) {
                    uint64_t a = splitmix64(&x), b = i % 3 ? splitmix64(&x) : (uint64_t)i;
                    uint64_t w = mh_fold_word(&f, a, b);
                    f.one = false; /* the per-position tables */
                    assert_true(mh_fold_word(&f, a, b) == w);
                    f.one = true;
                    for (unsigned k = 0; k < n; k++)
                        assert_int_equal(mh_fold_lane_w(&f, w, k, lane), mh_hash_index(&h[k], a, b));
                }
            }
            /* one function with per-position tables: not the one-table form */
            mh_hash_init(&h[1], 3, 1, size);
            if (h[0].bits <= 8) {
                assert_int_equal(mh_fold_init(&f, h, 2, 8), 0);
                assert_false(f.one);
            }
        }
    }
    assert_true(checked_rot > 100);
    assert_true(checked_norot > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_equals_alone), cmocka_unit_test(test_shared_tiny_intervals),
        cmocka_unit_test(test_sharing_key),         cmocka_unit_test(test_score_false),
        cmocka_unit_test(test_count_first),
        cmocka_unit_test(test_fold), cmocka_unit_test(test_fold_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
