/* test_hps_sampler.c - the HPS bursty sampler: which events are sampling
 * events, the counter's on/off sequence for given burst, sparsity and
 * phase (hand-computed), and stage "bursty" driven through its descriptor:
 * exactly which events it emits, where each burst is cut, emit filters,
 * chunking, one-event batches and parameter errors; several phases side by
 * side (each sampler as its own single-phase stage), the phases' positions
 * and the mean over phases (hps_phases.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "families/hps_phases.h"
#include "families/hps_sampler.h"
#include "stages/hps_stages.h"
#include "hps_testutil.h"
#include "param_testutil.h"

static void test_sampling_events(void **state)
{
    (void)state;
    struct event call = CALL(0x1000, 0x2000), back = BACK(0x1100, 0x1080), fwd = FWD(0x1100, 0x1180, 1);
    struct event nt = FWD(0x1100, 0x1080, 0), self = BACK(0x1100, 0x1100), ij = hev(EV_IJUMP, 0x1100, 0x1000, 0);
    struct event ld = LOAD(0x1000, 0x8000), ret = RET(0x1000, 0x900);
    assert_true(hps_is_sampling_event(&call));
    assert_true(hps_is_sampling_event(&back) && hps_is_backedge(&back));
    assert_false(hps_is_sampling_event(&fwd));  /* forward */
    assert_false(hps_is_sampling_event(&nt));   /* backward but not taken */
    assert_false(hps_is_sampling_event(&self)); /* target not below pc */
    assert_false(hps_is_sampling_event(&ij));   /* indirect jumps are not branches */
    assert_false(hps_is_sampling_event(&ld));
    assert_false(hps_is_sampling_event(&ret));
    assert_false(hps_is_backedge(&call));
}

/* Step n sampling events; transitions as a string of '.', 'B' (begins), 'E'
 * (ends) and the flag after each as '0'/'1'. */
static void run(struct hps_sampler *s, int n, char *tr, char *flag)
{
    for (int k = 0; k < n; k++) {
        enum hps_transition t = hps_sampler_step(s);
        tr[k] = t == HPS_BURST_BEGINS ? 'B' : t == HPS_BURST_ENDS ? 'E' : '.';
        flag[k] = (char)('0' + s->on);
    }
    tr[n] = flag[n] = 0;
}

static void test_counter(void **state)
{
    (void)state;
    struct hps_sampler s;
    char err[128], tr[32], fl[32];
    /* burst 2, sparsity 3: positions 0 1 2 3 4 0 1 2 3 4 0 1, on at 3 and 4 */
    assert_int_equal(hps_sampler_init(&s, 2, 3, 0, err, sizeof err), 0);
    assert_false(s.on);
    run(&s, 12, tr, fl);
    assert_string_equal(tr, "...B.E..B.E.");
    assert_string_equal(fl, "000110001100");
    assert_int_equal(s.bursts, 2);
    assert_int_equal(s.sampled_events, 4);
    assert_int_equal(s.sampling_events, 12);

    /* phase 4: the first event sits at position 4 (on), the next wraps */
    assert_int_equal(hps_sampler_init(&s, 2, 3, 4, err, sizeof err), 0);
    assert_false(s.on); /* before the first sampling event: off */
    run(&s, 7, tr, fl);
    assert_string_equal(tr, "BE..B.E");
    assert_string_equal(fl, "1000110");
    assert_int_equal(s.bursts, 2);

    /* sparsity 0: always on, one burst over the whole window */
    assert_int_equal(hps_sampler_init(&s, 5, 0, 0, err, sizeof err), 0);
    assert_true(s.on);
    run(&s, 11, tr, fl);
    assert_string_equal(tr, "...........");
    assert_int_equal(s.bursts, 1);
    assert_int_equal(s.sampled_events, 11);

    /* frequency: burst 10, sparsity 90 samples exactly 1 in 10 */
    assert_int_equal(hps_sampler_init(&s, 10, 90, 0, err, sizeof err), 0);
    for (int k = 0; k < 100000; k++)
        hps_sampler_step(&s);
    assert_int_equal(s.sampled_events, 10000);
    assert_int_equal(s.bursts, 1000);

    assert_int_equal(hps_sampler_init(&s, 0, 3, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "burst"));
    assert_int_equal(hps_sampler_init(&s, 2, 3, 5, err, sizeof err), -1);
    assert_non_null(strstr(err, "phase"));
}

/* ---- stage "bursty" through its descriptor -------------------------------- */

#define NSEQ 13
static struct event seq[NSEQ];

static void make_seq(void)
{
    seq[0] = LOAD(0x100, 0xa0);     /* before the first sampling event */
    seq[1] = CALL(0x104, 0x400);    /* k0 */
    seq[2] = LOAD(0x400, 0xb0);
    seq[3] = BACK(0x410, 0x400);    /* k1 */
    seq[4] = LOAD(0x400, 0xc0);
    seq[5] = FWD(0x404, 0x408, 1);  /* not a sampling event */
    seq[6] = CALL(0x408, 0x500);    /* k2 */
    seq[7] = LOAD(0x500, 0xd0);
    seq[8] = STORE(0x504, 0xe0);
    seq[9] = BACK(0x508, 0x500);    /* k3 */
    seq[10] = INSN(0x500);          /* a kind the stage does not read */
    seq[11] = CALL(0x50c, 0x600);   /* k4 */
    seq[12] = LOAD(0x600, 0xf0);
}

static void *make_stage_n(int64_t burst, int64_t sparsity, int64_t phase, int64_t phases, const char *emit)
{
    struct param_values pv;
    params_defaults(&pv, hps_bursty_stage.params);
    pv_set_int(&pv, "burst", burst);
    pv_set_int(&pv, "sparsity", sparsity);
    pv_set_int(&pv, "phase", phase);
    pv_set_int(&pv, "phases", phases);
    tu_set_enum(&pv, "emit", emit);
    char err[128] = "";
    void *st = hps_bursty_stage.create(&pv, err, sizeof err);
    assert_non_null(st);
    return st;
}

static void *make_stage(int64_t burst, int64_t sparsity, int64_t phase, const char *emit)
{
    return make_stage_n(burst, sparsity, phase, 1, emit);
}

/* What sampler p saw: the records it holds as indices into seq (by pc and
 * addr), the ends of its bursts as '|'. */
static void describe(const struct stage_log *l, unsigned p, char *out)
{
    assert_int_equal(l->nmarks, 0);
    for (size_t i = 0; i < l->n; i++) {
        const struct hps_burst_rec *r = &l->rec[i];
        if (r->cut >> p & 1u)
            *out++ = '|';
        if (!(r->in >> p & 1u))
            continue;
        for (int k = 0; k < NSEQ; k++)
            if (seq[k].pc == r->ev.pc && seq[k].addr == r->ev.addr && seq[k].kind == r->ev.kind) {
                out += sprintf(out, "%d ", k);
                break;
            }
    }
    *out = 0;
}

static void expect(int64_t burst, int64_t sparsity, int64_t phase, const char *emit, const char *want,
                   int one_by_one)
{
    void *st = make_stage(burst, sparsity, phase, emit);
    struct stage_log l;
    memset(&l, 0, sizeof l);
    if (one_by_one)
        for (int k = 0; k < NSEQ; k++)
            stage_push(&hps_bursty_stage, st, &seq[k], 1, &l);
    else
        stage_push(&hps_bursty_stage, st, seq, NSEQ, &l);
    stage_end(&hps_bursty_stage, st, &l);
    char got[256];
    describe(&l, 0, got);
    if (strcmp(got, want) != 0)
        fail_msg("burst %lld sparsity %lld phase %lld emit %s%s: got \"%s\", want \"%s\"", (long long)burst,
                 (long long)sparsity, (long long)phase, emit, one_by_one ? " (one by one)" : "", got, want);
    stage_log_free(&l);
    hps_bursty_stage.free(st);
}

static void test_stage_bursts(void **state)
{
    (void)state;
    make_seq();
    for (int obo = 0; obo < 2; obo++) {
        /* burst 1, sparsity 2: k2 (event 6) is the burst; k3 ends it */
        expect(1, 2, 0, "all", "6 7 8 |", obo);
        /* burst 2, sparsity 1: k1 k2 on, k3 off (ends), k4 on until the window ends */
        expect(2, 1, 0, "all", "3 4 5 6 7 8 |11 12 |", obo);
        expect(2, 1, 0, "control", "3 6 |11 |", obo);
        expect(2, 1, 0, "calls", "6 |11 |", obo);
        expect(2, 1, 0, "loads", "4 7 |12 |", obo);
        expect(2, 1, 0, "memory", "4 7 8 |12 |", obo);
        /* phase 2 with burst 2, sparsity 1: k0 at position 2 (on), k1 at 0 (off), k2 k3 on, k4 off */
        expect(2, 1, 2, "all", "1 2 |6 7 8 9 |", obo);
        /* sparsity 0: everything the stage reads, one burst */
        expect(3, 0, 0, "all", "0 1 2 3 4 5 6 7 8 9 11 12 |", obo);
        /* never on within these five sampling events */
        expect(1, 9, 0, "all", "", obo);
    }
}

static void test_stage_view(void **state)
{
    (void)state;
    make_seq();
    void *st = make_stage(2, 1, 0, "all");
    struct stage_log l;
    memset(&l, 0, sizeof l);
    stage_push(&hps_bursty_stage, st, seq, NSEQ, &l);
    stage_end(&hps_bursty_stage, st, &l);
    const struct hps_bursty_view *v = hps_bursty_stage.shared(st);
    assert_int_equal(v->sampling_events, 5);
    assert_int_equal(v->sampled_events[0], 3);
    assert_int_equal(v->bursts[0], 2);
    assert_int_equal(v->phases, 1);
    assert_int_equal(v->emitted, 8);
    assert_int_equal(v->burst, 2);
    assert_int_equal(v->sparsity, 1);
    stage_log_free(&l);
    hps_bursty_stage.free(st);
}

static void test_stage_chunks(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct event *ev = calloc(N, sizeof *ev);
    for (int i = 0; i < N; i++)
        ev[i] = LOAD(0x700, 0x10000 + 8u * (unsigned)i);
    void *st = make_stage(1, 0, 0, "loads");
    struct stage_log l;
    memset(&l, 0, sizeof l);
    stage_push(&hps_bursty_stage, st, ev, N, &l);
    assert_int_equal(l.n, N);
    assert_true(l.max_chunk <= 1024);
    assert_int_equal(l.nmarks, 0);
    stage_end(&hps_bursty_stage, st, &l);
    /* the burst open at the end is closed by one record holding no event */
    assert_int_equal(l.n, N + 1);
    assert_true(l.rec[N].in == 0 && l.rec[N].cut == 1);
    for (int i = 0; i < N; i++)
        assert_true(l.rec[i].ev.addr == ev[i].addr && l.rec[i].in == 1 && l.rec[i].cut == 0);
    stage_log_free(&l);
    hps_bursty_stage.free(st);
    free(ev);
}

/* Several samplers side by side: burst 2, sparsity 1 (period 3) at three
 * phases runs the samplers starting at positions 0, 1, 2.  Sampler 1
 * (hand-computed): k0..k4 at positions 1 2 0 1 2, on, on, off (ends),
 * on, on.  Each sampler sees exactly what a single-phase stage at its
 * position emits, in batches and one event at a time. */
static void test_stage_phases(void **state)
{
    (void)state;
    make_seq();
    const char *want[3] = { "3 4 5 6 7 8 |11 12 |", "1 2 3 4 5 |9 11 12 |", "1 2 |6 7 8 9 |" };
    for (int obo = 0; obo < 2; obo++) {
        void *st = make_stage_n(2, 1, 0, 3, "all");
        struct stage_log l;
        memset(&l, 0, sizeof l);
        if (obo)
            for (int k = 0; k < NSEQ; k++)
                stage_push(&hps_bursty_stage, st, &seq[k], 1, &l);
        else
            stage_push(&hps_bursty_stage, st, seq, NSEQ, &l);
        stage_end(&hps_bursty_stage, st, &l);
        const struct hps_bursty_view *v = hps_bursty_stage.shared(st);
        assert_int_equal(v->phases, 3);
        for (unsigned p = 0; p < 3; p++) {
            char got[256];
            describe(&l, p, got);
            assert_string_equal(got, want[p]);
            expect(2, 1, (int64_t)p, "all", want[p], obo);
            assert_int_equal(v->position[p], p);
        }
        /* sampled sampling events 3 of 5, 4 of 5, 3 of 5; bursts 2, 2, 2 */
        assert_int_equal(v->sampling_events, 5);
        assert_int_equal(v->sampled_events[0], 3);
        assert_int_equal(v->sampled_events[1], 4);
        assert_int_equal(v->sampled_events[2], 3);
        assert_true(v->bursts[0] == 2 && v->bursts[1] == 2 && v->bursts[2] == 2);
        /* a record per event held by some sampler or ending a burst:
         * events 1-9, 11, 12 and the closing record */
        assert_int_equal(l.n, 12);
        stage_log_free(&l);
        hps_bursty_stage.free(st);
    }
    /* four phases of period 3 run three samplers; the first starts at `phase` */
    void *st = make_stage_n(2, 1, 2, 4, "calls");
    const struct hps_bursty_view *v = hps_bursty_stage.shared(st);
    assert_int_equal(v->phases, 3);
    assert_true(v->position[0] == 2 && v->position[1] == 0 && v->position[2] == 1);
    hps_bursty_stage.free(st);
}

/* Positions floor(k L / n) from the first, mod L; the mean over phases. */
static void test_phase_helpers(void **state)
{
    (void)state;
    assert_int_equal(hps_phase_count(100, 4), 4);
    assert_int_equal(hps_phase_count(3, 4), 3);
    assert_int_equal(hps_phase_count(1, 4), 1);
    assert_int_equal(hps_phase_count(1000, 99), HPS_MAX_PHASES);
    uint64_t want[4] = { 0, 2500, 5000, 7500 };
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(hps_phase_position(0, 10000, k, 4), want[k]);
    /* L = 15, n = 4: 0, 3, 7, 11 (floors of 3.75 k), from 13: 13, 1, 5, 9 */
    uint64_t w15[4] = { 13, 1, 5, 9 };
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(hps_phase_position(13, 15, k, 4), w15[k]);
    assert_int_equal(hps_phase_position(7, 8, 0, 1), 7);
    /* huge periods: no overflow */
    /* L = 2^63 - 1 = 4 (2^61 - 1) + 3: floor(3 L / 4) = 3 (2^61 - 1) + 2 */
    assert_int_equal(hps_phase_position(0, UINT64_MAX / 2, 3, 4), 3 * ((UINT64_C(1) << 61) - 1) + 2);

    double v[8] = { 0, 1, 50, 1, 0, 1, 50, 1 }; /* two metrics, stride 2 */
    assert_true(hps_phase_mean(v, 4, 2) == 25.0);
    assert_true(hps_phase_mean(v + 1, 4, 2) == 1.0);
    double third = 0.1 / 3.0, same[3] = { third, third, third };
    assert_true(hps_phase_mean(same, 3, 1) == third); /* exactly, not a sum over 3 */
    double withnan[3] = { NAN, 2, 4 }, nans[2] = { NAN, NAN };
    assert_true(hps_phase_mean(withnan, 3, 1) == 3.0);
    assert_true(isnan(hps_phase_mean(nans, 2, 1)));
    assert_true(hps_phase_mean(v, 1, 2) == 0.0);
}

static void test_stage_errors(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, hps_bursty_stage.params);
    pv_set_int(&pv, "burst", 2);
    pv_set_int(&pv, "sparsity", 3);
    pv_set_int(&pv, "phase", 5);
    char err[128] = "";
    assert_null(hps_bursty_stage.create(&pv, err, sizeof err));
    assert_non_null(strstr(err, "phase"));
    assert_true(stage_find("bursty") == &hps_bursty_stage);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sampling_events), cmocka_unit_test(test_counter),
        cmocka_unit_test(test_stage_bursts),    cmocka_unit_test(test_stage_view),
        cmocka_unit_test(test_stage_chunks),    cmocka_unit_test(test_stage_errors),
        cmocka_unit_test(test_stage_phases),    cmocka_unit_test(test_phase_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
