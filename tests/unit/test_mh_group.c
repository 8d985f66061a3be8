/* test_mh_group.c - the shared feed path of the multihash-family models
 * (mh_group.h): instances fed as one group (feed_group, one shared exact
 * table) report exactly what they report when each is fed alone, for every
 * scored model, both tuple streams, tiny intervals whose boundaries fall
 * inside batches, partial last intervals, and batches of one event.  Also:
 * the share key, the folded section 5.3 hash (mh_fold4) against
 * mh_hash_index, and score = false. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "models/mh_cms_cu.h"
#include "models/mh_engine.h"
#include "models/mh_exact.h"
#include "models/mh_group.h"
#include "models/mh_multihash.h"
#include "models/mh_singlehash.h"
#include "models/mh_spacesaving.h"
#include "models/mh_stratified.h"

static void setp(struct param_values *pv, const char *name, double v)
{
    size_t i;
    assert_non_null(params_find(pv->spec, name, &i));
    pv->v[i].i = (int64_t)v;
    pv->v[i].r = v;
}

static void set_enum(struct param_values *pv, const char *name, const char *choice)
{
    size_t i;
    const struct param_spec *s = params_find(pv->spec, name, &i);
    assert_non_null(s);
    for (int k = 0; s->choices[k]; k++)
        if (strcmp(s->choices[k], choice) == 0) {
            pv->v[i].i = k;
            return;
        }
    fail_msg("no choice %s", choice);
}

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

#define MAXI 24

struct inst {
    const struct model_ops *ops;
    void *m;
};

/* The instance set: every scored model, several configurations, with
 * thresholds and partial flags that differ but one interval length. */
static size_t make_set(struct inst *in, const char *stream, int interval)
{
    size_t n = 0;
    struct variant {
        const struct model_ops *ops;
        double threshold;
        int partial;
        const char *p1;
        double v1;
        const char *p2;
        double v2;
    } const v[] = {
        { &mh_multihash_ops, 0.1, 1, "tables", 4, "conservative", 1 },
        { &mh_multihash_ops, 0.25, 0, "tables", 4, "conservative", 0 },
        { &mh_multihash_ops, 0.2, 1, "tables", 3, "reset", 1 },
        { &mh_multihash_ops, 0.3, 1, "tables", 16, "retain", 0 },
        { &mh_multihash_ops, 0.25, 1, "counters", 16, "acc_entries", 2 },
        { &mh_singlehash_ops, 0.25, 1, "counters", 32, NULL, 0 },
        { &mh_singlehash_ops, 0.2, 0, "reset", 0, "retain", 0 },
        { &mh_singlehash_ops, 0.25, 1, "shielding", 0, "init_count", 1 },
        { &mh_cms_cu_ops, 0.25, 1, NULL, 0, NULL, 0 },
        { &mh_cms_cu_ops, 0.2, 1, "hash", 0, "tables", 2 },
        { &mh_spacesaving_ops, 0.25, 1, "entries", 3, NULL, 0 },
        { &mh_spacesaving_ops, 0.1, 0, NULL, 0, NULL, 0 },
        { &mh_stratified_ops, 0.25, 1, "sample_threshold", 2, NULL, 0 },
        { &mh_stratified_ops, 0.2, 1, "tag_bits", 3, "flush", 1 },
        { &mh_exact_ops, 0.25, 1, NULL, 0, NULL, 0 },
        { &mh_exact_ops, 0.1, 0, "change", 1, NULL, 0 },
    };
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        struct param_values pv;
        params_defaults(&pv, v[k].ops->params);
        set_enum(&pv, "stream", stream);
        if (strcmp(stream, "edges") == 0)
            set_enum(&pv, "edges", "all");
        setp(&pv, "interval", interval);
        setp(&pv, "threshold", v[k].threshold);
        setp(&pv, "partial", v[k].partial);
        if (v[k].p1)
            setp(&pv, v[k].p1, v[k].v1);
        if (v[k].p2)
            setp(&pv, v[k].p2, v[k].v2);
        char err[256] = "";
        in[n].ops = v[k].ops;
        in[n].m = v[k].ops->create(&pv, NULL, err, sizeof err);
        if (!in[n].m)
            fail_msg("%s: %s", v[k].ops->name, err);
        n++;
    }
    return n;
}

static void free_set(struct inst *in, size_t n)
{
    for (size_t k = 0; k < n; k++)
        in[k].ops->free(in[k].m);
}

/* Bitwise equality of report() (NaN included). */
static void assert_same_reports(const struct inst *a, const struct inst *b, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        double ra[64], rb[64];
        size_t nm = 0;
        while (a[k].ops->metrics[nm])
            nm++;
        for (size_t i = 0; i < nm; i++)
            ra[i] = rb[i] = NAN;
        a[k].ops->report(a[k].m, ra);
        b[k].ops->report(b[k].m, rb);
        for (size_t i = 0; i < nm; i++)
            if (memcmp(&ra[i], &rb[i], sizeof ra[i]) != 0)
                fail_msg("%s #%zu metric %s: alone %.17g, grouped %.17g", a[k].ops->name, k, a[k].ops->metrics[i],
                         ra[i], rb[i]);
    }
}

/* Feed evs in batches of the given sizes (cycled): a alone, b grouped. */
static void run_case(const char *stream, int interval, const size_t *sizes, size_t nsizes)
{
    struct inst a[MAXI], b[MAXI];
    size_t n = make_set(a, stream, interval);
    make_set(b, stream, interval);
    void *group[MAXI];
    char key0[160], key[160];
    for (size_t k = 0; k < n; k++) {
        group[k] = b[k].m;
        assert_int_equal(b[k].ops->feed_group, mh_feed_group);
        assert_int_equal(b[k].ops->share_key(b[k].m, key, sizeof key), 1);
        if (k == 0)
            memcpy(key0, key, sizeof key);
        assert_string_equal(key, key0);
    }
    size_t pos = 0, s = 0;
    while (pos < NEV) {
        size_t cnt = sizes[s++ % nsizes];
        if (cnt > NEV - pos)
            cnt = NEV - pos;
        for (size_t k = 0; k < n; k++)
            a[k].ops->feed(a[k].m, evs + pos, cnt);
        mh_feed_group(group, n, evs + pos, cnt);
        pos += cnt;
    }
    for (size_t k = 0; k < n; k++) {
        a[k].ops->finish(a[k].m);
        b[k].ops->finish(b[k].m);
    }
    /* the stream made intervals (and the models saw candidates) */
    double out[64];
    a[0].ops->report(a[0].m, out);
    if (out[6] < 2)
        fail_msg("%s interval %d: %g intervals, %g tuples", stream, interval, out[6], out[7]);
    assert_true(out[8] > 0);
    assert_same_reports(a, b, n);
    free_set(a, n);
    free_set(b, n);
}

static void test_grouped_equals_alone(void **state)
{
    (void)state;
    make_stream();
    static const size_t big[] = { 4096 }, odd[] = { 37, 1, 513, 5, 1024, 2 }, ones[] = { 1 };
    static const int intervals[] = { 7, 13, 512, 700 };
    for (size_t i = 0; i < sizeof intervals / sizeof *intervals; i++) {
        run_case("values", intervals[i], big, 1);
        run_case("values", intervals[i], odd, 6);
        run_case("edges", intervals[i], odd, 6);
    }
    run_case("values", 13, ones, 1);
}

/* Intervals of one and two tuples: every tuple is a candidate (T = 1). */
static void test_grouped_tiny_intervals(void **state)
{
    (void)state;
    make_stream();
    static const size_t odd[] = { 3, 1, 700, 2 };
    for (int interval = 1; interval <= 3; interval++) {
        struct inst a[MAXI], b[MAXI];
        size_t n = make_set(a, "values", interval);
        make_set(b, "values", interval);
        void *group[MAXI];
        for (size_t k = 0; k < n; k++)
            group[k] = b[k].m;
        size_t pos = 0, s = 0;
        while (pos < NEV) {
            size_t cnt = odd[s++ % 4];
            if (cnt > NEV - pos)
                cnt = NEV - pos;
            for (size_t k = 0; k < n; k++)
                a[k].ops->feed(a[k].m, evs + pos, cnt);
            mh_feed_group(group, n, evs + pos, cnt);
            pos += cnt;
        }
        for (size_t k = 0; k < n; k++) {
            a[k].ops->finish(a[k].m);
            b[k].ops->finish(b[k].m);
        }
        assert_same_reports(a, b, n);
        free_set(a, n);
        free_set(b, n);
    }
}

static void test_share_key(void **state)
{
    (void)state;
    char k1[160], k2[160];
    struct param_values pv;
    char err[256];
    /* multihash and spacesaving, different thresholds and partial: same key */
    params_defaults(&pv, mh_multihash_ops.params);
    setp(&pv, "threshold", 0.02);
    void *m1 = mh_multihash_ops.create(&pv, NULL, err, sizeof err);
    params_defaults(&pv, mh_spacesaving_ops.params);
    setp(&pv, "partial", 1);
    void *m2 = mh_spacesaving_ops.create(&pv, NULL, err, sizeof err);
    assert_int_equal(mh_multihash_ops.share_key(m1, k1, sizeof k1), 1);
    assert_int_equal(mh_spacesaving_ops.share_key(m2, k2, sizeof k2), 1);
    assert_string_equal(k1, k2);
    mh_spacesaving_ops.free(m2);
    /* another interval: another key */
    params_defaults(&pv, mh_spacesaving_ops.params);
    setp(&pv, "interval", 10001);
    m2 = mh_spacesaving_ops.create(&pv, NULL, err, sizeof err);
    mh_spacesaving_ops.share_key(m2, k2, sizeof k2);
    assert_string_not_equal(k1, k2);
    mh_spacesaving_ops.free(m2);
    /* edges: the edge set matters; for values it does not */
    params_defaults(&pv, mh_exact_ops.params);
    set_enum(&pv, "edges", "all");
    m2 = mh_exact_ops.create(&pv, NULL, err, sizeof err);
    mh_exact_ops.share_key(m2, k2, sizeof k2);
    assert_string_equal(k1, k2);
    mh_exact_ops.free(m2);
    params_defaults(&pv, mh_exact_ops.params);
    set_enum(&pv, "stream", "edges");
    m2 = mh_exact_ops.create(&pv, NULL, err, sizeof err);
    mh_exact_ops.share_key(m2, k1, sizeof k1);
    mh_exact_ops.free(m2);
    set_enum(&pv, "edges", "all");
    m2 = mh_exact_ops.create(&pv, NULL, err, sizeof err);
    mh_exact_ops.share_key(m2, k2, sizeof k2);
    assert_string_not_equal(k1, k2);
    mh_exact_ops.free(m2);
    /* score = false: no exact profile, nothing to share */
    params_defaults(&pv, mh_multihash_ops.params);
    setp(&pv, "score", 0);
    m2 = mh_multihash_ops.create(&pv, NULL, err, sizeof err);
    assert_int_equal(mh_multihash_ops.share_key(m2, k2, sizeof k2), 0);
    mh_multihash_ops.free(m2);
    mh_multihash_ops.free(m1);
}

/* score = false: same hardware (promotions, drops), no error metrics. */
static void test_score_false(void **state)
{
    (void)state;
    make_stream();
    double out[2][64];
    for (int score = 0; score < 2; score++) {
        struct param_values pv;
        params_defaults(&pv, mh_multihash_ops.params);
        setp(&pv, "interval", 50);
        setp(&pv, "threshold", 0.1);
        setp(&pv, "score", score);
        char err[256];
        void *m = mh_multihash_ops.create(&pv, NULL, err, sizeof err);
        assert_non_null(m);
        mh_multihash_ops.feed(m, evs, NEV);
        mh_multihash_ops.finish(m);
        mh_multihash_ops.report(m, out[score]);
        mh_multihash_ops.free(m);
    }
    assert_true(isnan(out[0][0])); /* error_pct */
    assert_false(isnan(out[1][0]));
    for (int k = 6; k <= 7; k++) /* intervals, tuples */
        assert_true(out[0][k] == out[1][k]);
    assert_true(out[0][MH_ERR_NMETRICS] == out[1][MH_ERR_NMETRICS]);         /* promotions_avg */
    assert_true(out[0][MH_ERR_NMETRICS + 1] == out[1][MH_ERR_NMETRICS + 1]); /* acc_drops */
    assert_true(out[1][MH_ERR_NMETRICS] > 0);
}

/* mh_fold4 gives mh_hash_index's indices. */
static void test_fold4(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 1, 2, 3, 100, 512, 682, 1024, 2048, 4096, 65535, 65536 };
    uint64_t x = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        struct mh_hash h[4];
        for (unsigned k = 0; k < 4; k++) {
            mh_hash_init(&h[k], 7, k, sizes[s]);
            if (k % 2) /* functions with separate pc tables too */
                mh_hash_separate_pc(&h[k], 7, k);
        }
        struct mh_fold4 f;
        for (unsigned n = 1; n <= 4; n++) {
            assert_int_equal(mh_fold4_init(&f, h, n), 0);
            for (int i = 0; i < 2000; i++) {
                uint64_t a = mh_splitmix64(&x), b = i % 3 ? mh_splitmix64(&x) : (uint64_t)i;
                uint32_t idx[4];
                mh_fold4_index(&f, a, b, idx);
                for (unsigned k = 0; k < n; k++) {
                    assert_int_equal(idx[k], mh_hash_index(&h[k], a, b));
                    assert_true(idx[k] < sizes[s]);
                }
            }
        }
    }
    struct mh_hash big;
    mh_hash_init(&big, 1, 0, 65537);
    struct mh_fold4 f;
    assert_int_equal(mh_fold4_init(&f, &big, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouped_equals_alone), cmocka_unit_test(test_grouped_tiny_intervals),
        cmocka_unit_test(test_share_key),            cmocka_unit_test(test_score_false),
        cmocka_unit_test(test_fold4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
