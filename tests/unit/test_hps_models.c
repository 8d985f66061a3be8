/* test_hps_models.c - the HPS models on the production engine: metrics of
 * "hps" (accuracy, HPS and DISE overhead, counts) hand-computed on a small
 * periodic trace for several burst/period/phase settings, period 1 giving
 * 100% for every profile type, the `top` table, "hps_stats" (Figure 6
 * counts), "hps" without accuracy (the same overhead metrics),
 * "hps_spacesaving" (evictions, accuracy, update cost), plan
 * errors, and instances sharing their stages in one job reporting bit for
 * bit what each reports alone.  Single-phase runs (phases 1) throughout,
 * except the phase tests: four phases hand-computed on the periodic trace,
 * and every metric of a multi-phase run the mean of the single-phase runs
 * at its samplers' positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "engine_testutil.h"
#include "hps_testutil.h"
#include "run/plan.h"
#include "stages/hps_stages.h"

/* ---- the periodic trace ---------------------------------------------------
 * 10 units of: CALL 0x10->0x1000, LOAD, STORE, 40 insns, back edge in
 * 0x1000, 30 insns, CALL 0x20->0x2000, 20 insns, back edge in 0x2000,
 * 10 insns.  Per unit: 100 instructions, 2 calls, 2 back edges (4 sampling
 * events, in that order), 1 load, 1 store. */
#define UNITS 10
static struct event tr[UNITS * 110];
static size_t ntr;

static void put(struct event e) { tr[ntr++] = e; }
static void insns(int n)
{
    for (int i = 0; i < n; i++)
        put(INSN(0x1000 + 4u * (unsigned)i));
}

static void make_trace(void)
{
    ntr = 0;
    for (unsigned u = 0; u < UNITS; u++) {
        put(CALL(0x10, 0x1000));
        put(LOAD(0x1004, 0x8000 + 8 * u));
        put(STORE(0x1008, 0x8000));
        insns(40);
        put(BACK(0x1050, 0x1010));
        insns(30);
        put(CALL(0x20, 0x2000));
        insns(20);
        put(BACK(0x2050, 0x2010));
        insns(10);
    }
}

static size_t add_hps_n(struct tu_set *t, const char *profile, int64_t burst, int64_t period, int64_t phase,
                        int64_t phases)
{
    struct param_values pv = tu_params("hps");
    tu_set_enum(&pv, "profile", profile);
    tu_set(&pv, "burst", (double)burst);
    tu_set(&pv, "period", (double)period);
    tu_set(&pv, "phase", (double)phase);
    tu_set(&pv, "phases", (double)phases);
    return tu_add(t, "hps", &pv);
}

static size_t add_hps(struct tu_set *t, const char *profile, int64_t burst, int64_t period, int64_t phase)
{
    return add_hps_n(t, profile, burst, period, phase, 1);
}

#define NEAR(x, y) assert_true(fabs((x) - (y)) < 1e-9)

static void test_hps_periodic(void **state)
{
    (void)state;
    make_trace();
    struct tu_set t;
    memset(&t, 0, sizeof t);
    /* burst 1, period 4 (sparsity 3), phase 3: sampling event k is on iff
     * (3 + k) mod 4 == 3, i.e. the first event of every unit: CALL 0x10 */
    size_t cp = add_hps(&t, "callpair", 1, 4, 3);
    size_t me = add_hps(&t, "method", 1, 4, 3);
    /* phase 1: k mod 4 == 2, CALL 0x20 */
    size_t me1 = add_hps(&t, "method", 1, 4, 1);
    /* burst 2, period 2 (sparsity 2), phase 0: k mod 4 in {2, 3}: CALL 0x20 and its back edge */
    size_t cp2 = add_hps(&t, "callpair", 2, 2, 0);
    size_t me2 = add_hps(&t, "method", 2, 2, 0);
    tu_run(&t, tr, ntr, 0, 1, 1, false);

    /* exact call pairs 10 and 10 (50% each); sampled: (0x10, 0x1000) only */
    NEAR(tu_metric(&t, cp, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, cp, "sampled_events"), 10);
    NEAR(tu_metric(&t, cp, "interest_events"), 20);
    NEAR(tu_metric(&t, cp, "sampling_events"), 40);
    NEAR(tu_metric(&t, cp, "sampled_sampling_events"), 10);
    NEAR(tu_metric(&t, cp, "bursts"), 10);
    NEAR(tu_metric(&t, cp, "instructions"), 1000);
    NEAR(tu_metric(&t, cp, "sparsity"), 3);
    NEAR(tu_metric(&t, cp, "frequency"), 0.25);
    /* default costs replace 1, check 2, basic 4, handler 30:
     * HPS 10 x 31 = 310; DISE checks 20 x 3 = 60, basic 40 x 5 = 200, sampling 10 x 30 = 300 */
    NEAR(tu_metric(&t, cp, "overhead_pct"), 31);
    NEAR(tu_metric(&t, cp, "dise_checks_pct"), 6);
    NEAR(tu_metric(&t, cp, "dise_basic_pct"), 20);
    NEAR(tu_metric(&t, cp, "dise_sampling_pct"), 30);
    NEAR(tu_metric(&t, cp, "dise_overhead_pct"), 56);
    NEAR(tu_metric(&t, cp, "exact_members"), 2);
    NEAR(tu_metric(&t, cp, "sampled_members"), 1);
    NEAR(tu_metric(&t, cp, "exact_kept"), 2);
    NEAR(tu_metric(&t, cp, "common_kept"), 1);
    NEAR(tu_metric(&t, cp, "memory_bytes"), 24);
    assert_true(isnan(tu_metric(&t, cp, "unattributed_backedges")));
    assert_true(isnan(tu_metric(&t, cp, "exact_coverage_pct")));

    /* methods: 0x1000 and 0x2000 with 10 calls + 10 back edges each */
    NEAR(tu_metric(&t, me, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, me, "interest_events"), 40);
    NEAR(tu_metric(&t, me, "dise_checks_pct"), 12);
    NEAR(tu_metric(&t, me, "unattributed_backedges"), 0);
    NEAR(tu_metric(&t, me1, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, me1, "sampled_members"), 1);

    NEAR(tu_metric(&t, cp2, "sampled_events"), 10);
    NEAR(tu_metric(&t, cp2, "sampled_sampling_events"), 20);
    NEAR(tu_metric(&t, cp2, "bursts"), 10);
    NEAR(tu_metric(&t, me2, "sampled_events"), 20);
    NEAR(tu_metric(&t, me2, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, me2, "overhead_pct"), 20 * 31 / 10.0);

    /* top table of the first instance: exact rows then sampled rows */
    struct model_out *o = t.inst[cp].out;
    assert_int_equal(model_out_rows(o, 0), 3);
    const union cell *r = model_out_row(o, 0, 0);
    assert_string_equal(r[0].s, "exact");
    assert_true(r[1].i == 1 && r[2].u == 0x10 && r[3].u == 0x1000 && r[4].i == 1 && r[5].r == 10);
    NEAR(r[6].r, 50);
    NEAR(r[7].r, 100);
    r = model_out_row(o, 0, 1);
    assert_true(r[1].i == 2 && r[2].u == 0x20 && r[7].r == 0);
    r = model_out_row(o, 0, 2);
    assert_string_equal(r[0].s, "sampled");
    assert_true(r[2].u == 0x10 && r[6].r == 100 && r[7].r == 50);
    tu_free(&t);
}

/* Four phases of burst 1, period 4 on the periodic trace: the samplers
 * start at positions 0, 1, 2, 3 and sample sampling event k iff
 * (position + k) mod 4 == 3, i.e. k = 3, 2, 1, 0 mod 4: the back edge in
 * 0x2000, CALL 0x20, the back edge in 0x1000, CALL 0x10.  Call pairs: the
 * bursts at back edges hold no call (accuracy 0, nothing sampled), those
 * at calls sample one of the two pairs 10 times (accuracy 50): means 25%,
 * 5 sampled events, overhead 5 x 31 / 1000 = 15.5%, 0.5 members.
 * Methods: every sampler sees one method 10 times: 50% each. */
static void test_hps_phases(void **state)
{
    (void)state;
    make_trace();
    struct tu_set t;
    memset(&t, 0, sizeof t);
    size_t cp = add_hps_n(&t, "callpair", 1, 4, 0, 4);
    size_t me = add_hps_n(&t, "method", 1, 4, 0, 4);
    size_t cp0 = add_hps(&t, "callpair", 1, 4, 0), cp1 = add_hps(&t, "callpair", 1, 4, 1);
    tu_run(&t, tr, ntr, 0, 1, 1, false);
    /* one phase at a time: the phase changes the sampled set */
    NEAR(tu_metric(&t, cp0, "accuracy_pct"), 0);
    NEAR(tu_metric(&t, cp0, "sampled_events"), 0);
    NEAR(tu_metric(&t, cp1, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, cp1, "sampled_events"), 10);

    NEAR(tu_metric(&t, cp, "accuracy_pct"), 25);
    NEAR(tu_metric(&t, cp, "sampled_events"), 5);
    NEAR(tu_metric(&t, cp, "overhead_pct"), 15.5);
    NEAR(tu_metric(&t, cp, "dise_sampling_pct"), 15);
    NEAR(tu_metric(&t, cp, "sampled_members"), 0.5);
    NEAR(tu_metric(&t, cp, "common_kept"), 0.5);
    NEAR(tu_metric(&t, cp, "memory_bytes"), 12);
    /* what the phase does not change is exact */
    assert_true(tu_metric(&t, cp, "bursts") == 10);
    assert_true(tu_metric(&t, cp, "sampled_sampling_events") == 10);
    assert_true(tu_metric(&t, cp, "exact_members") == 2);
    assert_true(tu_metric(&t, cp, "frequency") == 0.25);
    assert_true(tu_metric(&t, cp, "instructions") == 1000);
    NEAR(tu_metric(&t, me, "accuracy_pct"), 50);
    NEAR(tu_metric(&t, me, "sampled_events"), 10);
    NEAR(tu_metric(&t, me, "sampled_members"), 1);
    /* the top table shows the first sampler's profile (position 0: empty) */
    struct model_out *o = t.inst[cp].out;
    assert_int_equal(model_out_rows(o, 0), 2);
    tu_free(&t);
}

/* Ties at the cover cut: ten call pairs called once each (sites 0x10 ..
 * 0xa0).  The exhaustive profile keeps 9 of 10 (90% of 10 calls): all but
 * 0xa0 under tie = key, all but 0x10 under key_desc.  Burst 1, period 2,
 * phase 0 samples the odd calls (0x20, 0x40, .., 0xa0), each 20% of the
 * sampled profile, all five kept (4.5 of 5 needs five).  Common: four
 * (11.11% each) under key, five under key_desc. */
static void test_tie(void **state)
{
    (void)state;
    struct event ev[10];
    for (unsigned i = 0; i < 10; i++)
        ev[i] = CALL(0x10 * (i + 1), 0x1000 * (i + 1));
    struct tu_set t;
    memset(&t, 0, sizeof t);
    struct param_values pv = tu_params("hps");
    tu_set(&pv, "period", 2);
    tu_set(&pv, "phases", 1);
    tu_add(&t, "hps", &pv);
    tu_set_enum(&pv, "tie", "key_desc");
    tu_add(&t, "hps", &pv);
    tu_run(&t, ev, 10, 0, 1, 1, false);
    NEAR(tu_metric(&t, 0, "exact_kept"), 9);
    NEAR(tu_metric(&t, 0, "sampled_kept"), 5);
    NEAR(tu_metric(&t, 0, "common_kept"), 4);
    NEAR(tu_metric(&t, 0, "accuracy_pct"), 400.0 / 9);
    NEAR(tu_metric(&t, 1, "common_kept"), 5);
    NEAR(tu_metric(&t, 1, "accuracy_pct"), 500.0 / 9);
    /* the top table lists the exhaustive profile in the rule's order */
    assert_true(model_out_row(t.inst[0].out, 0, 0)[2].u == 0x10);
    assert_true(model_out_row(t.inst[1].out, 0, 0)[2].u == 0xa0);
    tu_free(&t);
}

/* The mean of the single-phase runs at the samplers' positions, as the
 * multi-phase run defines it: the value itself when every phase gives the
 * same, else the mean of those that are not NaN. */
static double mean_of(const struct tu_set *t, size_t first, size_t n, const char *metric)
{
    double v0 = tu_metric(t, first, metric), sum = 0;
    size_t used = 0, same = 1;
    for (size_t k = 0; k < n; k++) {
        double v = tu_metric(t, first + k, metric);
        if (memcmp(&v, &v0, sizeof v) != 0)
            same = 0;
        if (!isnan(v)) {
            sum += v;
            used++;
        }
    }
    return same ? v0 : used ? sum / (double)used : NAN;
}

/* Every metric of a multi-phase run equals the mean of the single-phase
 * runs at its samplers' positions (burst 3, period 5: L 15, four phases
 * from 2 at 2, 5, 9, 13), for every profile type and Space-Saving over
 * bursts.  (One phase is the old single-phase model: the hand-computed
 * tests above run with phases 1.) */
static struct event *random_trace(size_t *n);
static void test_phases_mean(void **state)
{
    (void)state;
    size_t n;
    struct event *ev = random_trace(&n);
    const char *types[] = { "callpair", "method", "streams" };
    const int64_t pos[4] = { 2, 5, 9, 13 };
    struct tu_set t;
    memset(&t, 0, sizeof t);
    for (int ty = 0; ty < 3; ty++) {
        add_hps_n(&t, types[ty], 3, 5, 2, 4);
        for (int k = 0; k < 4; k++)
            add_hps(&t, types[ty], 3, 5, pos[k]);
    }
    struct param_values pv = tu_params("hps_spacesaving");
    tu_set(&pv, "counters", 3);
    tu_set(&pv, "burst", 3);
    tu_set(&pv, "period", 5);
    tu_set(&pv, "phase", 2);
    tu_add(&t, "hps_spacesaving", &pv);
    tu_set(&pv, "phases", 1);
    for (int k = 0; k < 4; k++) {
        tu_set(&pv, "phase", (double)pos[k]);
        tu_add(&t, "hps_spacesaving", &pv);
    }
    tu_run(&t, ev, n, 0, 1, 1, false);
    for (size_t g = 0; g < 4; g++) {
        const struct model_desc *m = t.inst[5 * g].m;
        for (size_t k = 0; m->metrics[k].name; k++) {
            const char *name = m->metrics[k].name;
            double got = tu_metric(&t, 5 * g, name), want = mean_of(&t, 5 * g + 1, 4, name);
            if (!(isnan(got) && isnan(want)) && !(fabs(got - want) <= 1e-9 * (1 + fabs(want))))
                fail_msg("%s #%zu %s: %.17g, mean of the phases %.17g", m->name, 5 * g, name, got, want);
        }
    }
    /* the phases differ here: the mean is not any one of them */
    assert_true(tu_metric(&t, 1, "accuracy_pct") != tu_metric(&t, 2, "accuracy_pct") ||
                tu_metric(&t, 1, "accuracy_pct") != tu_metric(&t, 3, "accuracy_pct"));
    tu_free(&t);

    free(ev);
}

/* A pseudo-random trace with loops, calls and repeated data walks. */
static struct event *random_trace(size_t *n)
{
    size_t cap = 60000, k = 0;
    struct event *ev = calloc(cap, sizeof *ev);
    uint64_t x = 0x853c49e6748fea9bull;
    while (k + 40 < cap) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned f = (unsigned)(x % 7), len = 3 + (unsigned)((x >> 8) % 12);
        ev[k++] = CALL(0x100 + 8 * ((x >> 16) % 5), 0x10000 * (f + 1));
        for (unsigned i = 0; i < len; i++) {
            ev[k++] = INSN(0x10000 * (f + 1) + 4 * i);
            ev[k++] = LOAD(0x10000 * (f + 1) + 4 * i, 0x900000 + 0x1000 * f + 8 * i);
            if (i % 4 == 3)
                ev[k++] = STORE(0x10000 * (f + 1) + 4 * i + 2, 0x980000 + 8 * i);
        }
        ev[k++] = BACK(0x10000 * (f + 1) + 0x80, 0x10000 * (f + 1) + 0x10);
        ev[k++] = FWD(0x10000 * (f + 1) + 0x90, 0x10000 * (f + 1) + 0xa0, (x >> 30) & 1);
    }
    *n = k;
    return ev;
}

static void test_period_one(void **state)
{
    (void)state;
    size_t n;
    struct event *ev = random_trace(&n);
    struct tu_set t;
    memset(&t, 0, sizeof t);
    const char *types[] = { "callpair", "method", "streams" };
    for (int k = 0; k < 3; k++)
        add_hps(&t, types[k], 7, 1, 0);
    tu_run(&t, ev, n, 0, 1, 1, false);
    for (size_t k = 0; k < 3; k++) {
        NEAR(tu_metric(&t, k, "accuracy_pct"), 100);
        NEAR(tu_metric(&t, k, "bursts"), 1);
        assert_true(tu_metric(&t, k, "sampled_members") == tu_metric(&t, k, "exact_members"));
        assert_true(tu_metric(&t, k, "exact_members") > 0);
        NEAR(tu_metric(&t, k, "sampled_events"), tu_metric(&t, k, "interest_events"));
    }
    NEAR(tu_metric(&t, 2, "sampled_coverage_pct"), tu_metric(&t, 2, "exact_coverage_pct"));
    assert_true(tu_metric(&t, 2, "exact_coverage_pct") > 50);
    tu_free(&t);
    free(ev);
}

/* accuracy = false: every overhead and count metric as with accuracy (bit
 * for bit), NaN for the accuracy and member metrics, no `top` rows; for
 * each profile type, two sampling settings, loads and memory references. */
static void test_overhead_only(void **state)
{
    (void)state;
    size_t n;
    struct event *ev = random_trace(&n);
    struct tu_set t;
    memset(&t, 0, sizeof t);
    const char *types[] = { "callpair", "method", "streams", "streams" };
    const char *refs[] = { "loads", "loads", "loads", "memory" };
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 2; s++)
            for (int acc = 1; acc >= 0; acc--) {
                struct param_values pv = tu_params("hps");
                tu_set_enum(&pv, "profile", types[k]);
                tu_set_enum(&pv, "refs", refs[k]);
                tu_set(&pv, "burst", s ? 10 : 1);
                tu_set(&pv, "period", s ? 7 : 3);
                tu_set(&pv, "accuracy", acc);
                tu_add(&t, "hps", &pv);
            }
    tu_run(&t, ev, n, 0, 1, 1, false);
    const char *same[] = { "overhead_pct", "dise_overhead_pct", "dise_checks_pct", "dise_basic_pct",
                           "dise_sampling_pct", "frequency", "sparsity", "instructions", "interest_events",
                           "sampling_events", "sampled_sampling_events", "sampled_events", "bursts" };
    const char *nan[] = { "accuracy_pct", "sampled_members", "exact_members", "sampled_kept", "exact_kept",
                          "common_kept", "memory_bytes", "unattributed_backedges", "exact_coverage_pct",
                          "sampled_coverage_pct", "exact_rules", "sampled_rules" };
    for (size_t i = 0; i < t.n; i += 2) {
        for (size_t j = 0; j < sizeof same / sizeof *same; j++) {
            double x = tu_metric(&t, i, same[j]), y = tu_metric(&t, i + 1, same[j]);
            if (memcmp(&x, &y, sizeof x) != 0)
                fail_msg("instance %zu %s: %.17g with accuracy, %.17g without", i, same[j], x, y);
        }
        for (size_t j = 0; j < sizeof nan / sizeof *nan; j++)
            assert_true(isnan(tu_metric(&t, i + 1, nan[j])));
        assert_true(tu_metric(&t, i, "sampled_events") > 0);
        assert_true(tu_metric(&t, i, "sampled_events") < tu_metric(&t, i, "interest_events"));
        assert_true(model_out_rows(t.inst[i].out, 0) > 0);
        assert_int_equal(model_out_rows(t.inst[i + 1].out, 0), 0);
    }
    /* memory references are loads and stores: more interest events */
    assert_true(tu_metric(&t, 12, "interest_events") > tu_metric(&t, 8, "interest_events"));
    tu_free(&t);
    free(ev);
}

/* Many sampling configurations in one job (sharing one exact stage per
 * profile definition and bursty stages where equal) report what each
 * reports alone, also over two lanes and in batches of one event. */
static void fill(struct tu_set *t)
{
    memset(t, 0, sizeof *t);
    const char *types[] = { "callpair", "method", "streams" };
    int64_t periods[] = { 2, 5, 50 };
    for (int k = 0; k < 3; k++)
        for (int p = 0; p < 3; p++) {
            add_hps(t, types[k], k == 2 ? 10 : 1, periods[p], 0);
            add_hps(t, types[k], 3, periods[p], 1);
        }
    struct param_values pv = tu_params("hps_spacesaving");
    tu_set(&pv, "counters", 3);
    tu_add(t, "hps_spacesaving", &pv);
    tu_set(&pv, "period", 4);
    tu_add(t, "hps_spacesaving", &pv);
    pv = tu_params("hps_stats");
    tu_add(t, "hps_stats", &pv);
}

/* tu_assert_same, with text cells compared as strings (out_row copies
 * them, so their pointers differ between runs). */
static void assert_same(const struct tu_set *a, const struct tu_set *b, size_t i)
{
    const struct model_desc *m = a->inst[i].m;
    for (size_t k = 0; m->metrics[k].name; k++) {
        double x = model_out_metric(a->inst[i].out, k), y = model_out_metric(b->inst[i].out, k);
        if (memcmp(&x, &y, sizeof x) != 0)
            fail_msg("%s #%zu metric %s: %.17g vs %.17g", m->name, i, m->metrics[k].name, x, y);
    }
    for (size_t t = 0; m->tables && m->tables[t].name; t++) {
        size_t ra = model_out_rows(a->inst[i].out, t), rb = model_out_rows(b->inst[i].out, t);
        if (ra != rb)
            fail_msg("%s #%zu table %s: %zu vs %zu rows", m->name, i, m->tables[t].name, ra, rb);
        const struct col_spec *cols = m->tables[t].cols;
        for (size_t r = 0; r < ra; r++) {
            const union cell *x = model_out_row(a->inst[i].out, t, r), *y = model_out_row(b->inst[i].out, t, r);
            for (size_t c = 0; cols[c].name; c++) {
                int same = cols[c].type == COL_TEXT ? strcmp(x[c].s, y[c].s) == 0
                                                    : memcmp(&x[c], &y[c], sizeof x[c]) == 0;
                if (!same)
                    fail_msg("%s #%zu table %s row %zu column %s differs", m->name, i, m->tables[t].name, r,
                             cols[c].name);
            }
        }
    }
}

static void test_sharing(void **state)
{
    (void)state;
    size_t n;
    struct event *ev = random_trace(&n);
    struct tu_set shared, alone, lanes, head, ones;
    fill(&shared);
    fill(&alone);
    fill(&lanes);
    fill(&head);
    fill(&ones);
    tu_run(&shared, ev, n, 0, 1, 1, false);
    tu_run(&alone, ev, n, 0, 1, 1, true);
    tu_run(&lanes, ev, n, 0, 2, 2, false);
    /* the first 5000 events in one batch and in batches of one event */
    tu_run(&head, ev, 5000, 0, 1, 1, false);
    tu_run(&ones, ev, 5000, 1, 1, 1, false);
    for (size_t i = 0; i < shared.n; i++) {
        assert_same(&shared, &alone, i);
        assert_same(&shared, &lanes, i);
        assert_same(&head, &ones, i);
    }
    assert_true(tu_metric(&ones, 1, "sampled_events") > 0);
    assert_true(tu_metric(&ones, 1, "bursts") > 1);
    tu_free(&shared);
    tu_free(&alone);
    tu_free(&lanes);
    tu_free(&head);
    tu_free(&ones);
    free(ev);
}

static void test_stats(void **state)
{
    (void)state;
    make_trace();
    struct tu_set t;
    memset(&t, 0, sizeof t);
    struct param_values pv = tu_params("hps_stats");
    tu_add(&t, "hps_stats", &pv);
    tu_run(&t, tr, ntr, 0, 1, 1, false);
    NEAR(tu_metric(&t, 0, "methods"), 2);
    NEAR(tu_metric(&t, 0, "call_sites"), 2);
    NEAR(tu_metric(&t, 0, "call_pairs"), 2);
    NEAR(tu_metric(&t, 0, "calls"), 20);
    NEAR(tu_metric(&t, 0, "branches"), 20);
    NEAR(tu_metric(&t, 0, "backedges"), 20);
    NEAR(tu_metric(&t, 0, "memory_refs"), 20);
    NEAR(tu_metric(&t, 0, "loads"), 10);
    NEAR(tu_metric(&t, 0, "stores"), 10);
    NEAR(tu_metric(&t, 0, "instructions"), 1000);
    NEAR(tu_metric(&t, 0, "unique_addresses"), 10); /* the store's 0x8000 is also a load address */
    NEAR(tu_metric(&t, 0, "insns_per_call"), 50);
    tu_free(&t);
}

static void test_spacesaving_model(void **state)
{
    (void)state;
    make_trace();
    struct tu_set t;
    memset(&t, 0, sizeof t);
    struct param_values pv = tu_params("hps_spacesaving");
    tu_set(&pv, "counters", 1);
    tu_add(&t, "hps_spacesaving", &pv);
    tu_set(&pv, "counters", 2);
    tu_add(&t, "hps_spacesaving", &pv);
    /* fed bursts of 1 in 1000 sampling events: the trace's 40 never reach
     * the first burst, so no update and no cost per update */
    tu_set(&pv, "period", 1000);
    tu_add(&t, "hps_spacesaving", &pv);
    tu_run(&t, tr, ntr, 0, 1, 1, false);
    /* one counter over alternating pairs: 1 insert, 19 evictions, the last
     * pair at count 20; kept 100% of it against 50% in the exact profile */
    NEAR(tu_metric(&t, 0, "updates"), 20);
    NEAR(tu_metric(&t, 0, "hits"), 0);
    NEAR(tu_metric(&t, 0, "evictions"), 19);
    NEAR(tu_metric(&t, 0, "min_count"), 20);
    NEAR(tu_metric(&t, 0, "accuracy_pct"), 50);
    /* 20 x 1 + 20 x 60 = 1220 instructions of 1000 */
    NEAR(tu_metric(&t, 0, "overhead_pct"), 122);
    NEAR(tu_metric(&t, 0, "update_insns"), 61); /* 1220 / 20 */
    NEAR(tu_metric(&t, 0, "memory_bytes"), 32);
    /* two counters: exact; 20 x 1 + 18 x 20 + 2 x 60 = 500 */
    NEAR(tu_metric(&t, 1, "accuracy_pct"), 100);
    NEAR(tu_metric(&t, 1, "evictions"), 0);
    NEAR(tu_metric(&t, 1, "overhead_pct"), 50);
    NEAR(tu_metric(&t, 1, "update_insns"), 25); /* 500 / 20 */
    NEAR(tu_metric(&t, 2, "updates"), 0);
    NEAR(tu_metric(&t, 2, "overhead_pct"), 0);
    assert_true(isnan(tu_metric(&t, 2, "update_insns")));
    tu_free(&t);
}

static void test_plan_errors(void **state)
{
    (void)state;
    char err[512];
    struct param_values pv = tu_params("hps");
    tu_set(&pv, "burst", 3);
    tu_set(&pv, "period", 4);
    tu_set(&pv, "phase", 12);
    assert_int_equal(engine_check_instance(model_find("hps"), &pv, err, sizeof err), -1);
    assert_non_null(strstr(err, "phase"));
    tu_set(&pv, "phase", 11);
    assert_int_equal(engine_check_instance(model_find("hps"), &pv, err, sizeof err), 0);
    tu_set(&pv, "min_len", 50);
    tu_set(&pv, "max_len", 20);
    assert_int_equal(engine_check_instance(model_find("hps"), &pv, err, sizeof err), -1);
    assert_non_null(strstr(err, "max_len"));
    pv = tu_params("hps");
    tu_set(&pv, "burst", 1000000);
    tu_set(&pv, "period", 10000000);
    assert_int_equal(engine_check_instance(model_find("hps"), &pv, err, sizeof err), -1);
    assert_string_equal(err, "burst x (period - 1) = 9999999000000 exceeds the sampler's 1e12");
    /* every sampling model checks its sampler in the same words */
    char ss_err[512];
    struct param_values ss = tu_params("hps_spacesaving");
    tu_set(&ss, "burst", 1000000);
    tu_set(&ss, "period", 10000000);
    assert_int_equal(engine_check_instance(model_find("hps_spacesaving"), &ss, ss_err, sizeof ss_err), -1);
    assert_string_equal(ss_err, err);
    pv = tu_params("hps");
    tu_set(&pv, "burst", 3);
    tu_set(&pv, "period", 4);
    tu_set(&pv, "phase", 12);
    assert_int_equal(engine_check_instance(model_find("hps"), &pv, err, sizeof err), -1);
    assert_string_equal(err, "phase must be below burst x period = 12 (got 12)");
    ss = tu_params("hps_spacesaving");
    tu_set(&ss, "burst", 3);
    tu_set(&ss, "period", 4);
    tu_set(&ss, "phase", 12);
    assert_int_equal(engine_check_instance(model_find("hps_spacesaving"), &ss, ss_err, sizeof ss_err), -1);
    assert_string_equal(ss_err, err);
}

/* The plan's node of stage s (fails if absent). */
static const struct plan_nodedef *node_of(const struct plan *p, const struct stage_desc *s)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->node[i].kind == PN_STAGE && p->node[i].stage == s)
            return &p->node[i];
    fail_msg("no stage %s in the plan", s->name);
    return NULL;
}

static struct plan plan_of(const char *profile, int64_t burst, int64_t period, int64_t min_len)
{
    struct param_values pv = tu_params("hps");
    tu_set_enum(&pv, "profile", profile);
    tu_set(&pv, "burst", (double)burst);
    tu_set(&pv, "period", (double)period);
    tu_set(&pv, "min_len", (double)min_len);
    struct plan p;
    assert_int_equal(plan_build(model_find("hps"), &pv, &p), 0);
    assert_int_equal(p.nsides, 1);
    assert_true(p.node[p.feed].stage == &hps_bursty_stage);
    assert_true(p.node[p.side[0]].stage == &hps_exact_stage);
    return p;
}

/* Sampling configurations share the exhaustive stage (its key is the
 * profile definition only); stream rows matter for streams only. */
static void test_stage_keys(void **state)
{
    (void)state;
    struct plan a = plan_of("callpair", 1, 100, 10), b = plan_of("callpair", 10, 5000, 30);
    assert_true(plan_node_equal(node_of(&a, &hps_exact_stage), node_of(&b, &hps_exact_stage)));
    assert_false(plan_node_equal(node_of(&a, &hps_bursty_stage), node_of(&b, &hps_bursty_stage)));
    const struct plan_nodedef *bn = node_of(&b, &hps_bursty_stage);
    assert_int_equal(pv_int(&bn->spv, "sparsity"), 10 * 4999);
    assert_int_equal(pv_enum(&bn->spv, "emit"), HPS_EMIT_CALLS);
    struct plan m = plan_of("method", 1, 100, 10);
    assert_false(plan_node_equal(node_of(&a, &hps_exact_stage), node_of(&m, &hps_exact_stage)));
    assert_int_equal(pv_enum(&node_of(&m, &hps_bursty_stage)->spv, "emit"), HPS_EMIT_CONTROL);
    struct plan s1 = plan_of("streams", 100, 100, 10), s2 = plan_of("streams", 1, 1000, 10);
    struct plan s3 = plan_of("streams", 100, 100, 30);
    assert_true(plan_node_equal(node_of(&s1, &hps_exact_stage), node_of(&s2, &hps_exact_stage)));
    assert_false(plan_node_equal(node_of(&s1, &hps_exact_stage), node_of(&s3, &hps_exact_stage)));
    assert_int_equal(pv_enum(&node_of(&s1, &hps_bursty_stage)->spv, "emit"), HPS_EMIT_LOADS);
    /* Space-Saving reads the same exhaustive call pair stage as hps */
    struct param_values pv = tu_params("hps_spacesaving");
    struct plan ss;
    assert_int_equal(plan_build(model_find("hps_spacesaving"), &pv, &ss), 0);
    assert_true(plan_node_equal(node_of(&a, &hps_exact_stage), node_of(&ss, &hps_exact_stage)));
    /* without accuracy, streams read the call pair stage (counts only) and
     * keep their own sampler */
    pv = tu_params("hps");
    tu_set_enum(&pv, "profile", "streams");
    tu_set(&pv, "accuracy", 0);
    struct plan s4;
    assert_int_equal(plan_build(model_find("hps"), &pv, &s4), 0);
    assert_true(plan_node_equal(node_of(&a, &hps_exact_stage), node_of(&s4, &hps_exact_stage)));
    assert_int_equal(pv_enum(&node_of(&s4, &hps_bursty_stage)->spv, "emit"), HPS_EMIT_LOADS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hps_periodic), cmocka_unit_test(test_period_one),
        cmocka_unit_test(test_sharing),      cmocka_unit_test(test_stats),
        cmocka_unit_test(test_spacesaving_model), cmocka_unit_test(test_plan_errors),
        cmocka_unit_test(test_stage_keys),   cmocka_unit_test(test_overhead_only),
        cmocka_unit_test(test_hps_phases),   cmocka_unit_test(test_phases_mean),
        cmocka_unit_test(test_tie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
