/* test_conte_sharing.c - the Conte models on the engine: instances that
 * share one "conte_wcfg" stage (one WCFG, each instance's own hardware) in
 * one job, on one or two lanes, report bit for bit what each reports alone
 * in its own job, with sampling points inside batches and across the
 * stage's chunks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "models/shared/conte_common.h"
#include "conte_testutil.h"
#include "engine_testutil.h"
#include "run/plan.h"

#define NBLK 97
#define MAXEV 60000

/* A synthetic program: NBLK contiguous blocks of 1-6 instructions; most end
 * in a conditional branch (taken to another block, falling into the next),
 * some in a call, return or indirect jump.  Directions from an LCG, biased
 * per branch, so the BTBs see hits, misses and contention. */
static size_t gen(struct event *ev, size_t max)
{
    uint64_t start[NBLK + 1], x = 12345;
    uint32_t ninsn[NBLK];
    uint64_t a = 0x400000;
    for (int b = 0; b < NBLK; b++) {
        start[b] = a;
        ninsn[b] = 1 + (uint32_t)(b * 7 % 6);
        a += ninsn[b] * 3;
    }
    start[NBLK] = a;
    size_t n = 0;
    int b = 0;
    while (n + 8 < max) {
        uint64_t pc = start[b];
        for (uint32_t i = 0; i < ninsn[b]; i++, pc += 3) {
            memset(&ev[n], 0, sizeof ev[n]);
            ev[n].kind = EV_INSN;
            ev[n].pc = pc;
            ev[n].size = 3;
            n++;
        }
        uint64_t last = pc - 3;
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned r = (unsigned)(x >> 33) % 100;
        int next;
        memset(&ev[n], 0, sizeof ev[n]);
        ev[n].pc = last;
        if (b % 11 == 5) {
            next = (b * 5 + 3) % NBLK;
            ev[n].kind = EV_CALL;
            ev[n].addr = start[next];
        } else if (b % 13 == 7) {
            next = (int)(r % NBLK);
            ev[n].kind = EV_RET;
            ev[n].addr = start[next];
        } else if (b % 17 == 3) {
            next = (int)((r * 31) % NBLK);
            ev[n].kind = EV_IJUMP;
            ev[n].addr = start[next];
        } else {
            int target = (b * 37 + 11) % NBLK;
            int taken = r < (unsigned)(10 + (b * 29) % 80);
            ev[n].kind = EV_BRANCH;
            ev[n].addr = start[target];
            ev[n].value = last + 3;
            ev[n].taken = (uint8_t)taken;
            next = taken ? target : (b + 1) % NBLK;
        }
        n++;
        b = next;
    }
    return n;
}

struct inst_spec {
    const char *model;
    int64_t entries, assoc, period;
    double jitter;
    int bits, mode;
};

static const struct inst_spec specs[] = {
    { "conte_onelevel", 16, 1, 7, 0, 0, 0 },
    { "conte_twolevel", 32, 2, 13, 0, 6, 1 },
    { "conte_counter", 8, 4, 5, 0.3, 0, 0 },
    { "conte_onelevel", 64, 4, 1000, 0, 0, 0 },
    { "conte_twolevel", 12, 3, 1, 0, 4, 0 },
    { "conte_counter", 1024, 1, 2500, 0, 0, 0 },
    { "conte_onelevel", 24, 8, 333, 0.5, 0, 0 },
};
#define NSPEC (sizeof specs / sizeof specs[0])

static struct param_values spec_params(const struct inst_spec *s, int64_t capacity)
{
    struct param_values pv = tu_params(s->model);
    pv_set_int(&pv, "btb_entries", s->entries);
    pv_set_int(&pv, "btb_assoc", s->assoc);
    pv_set_int(&pv, "sample_period", s->period);
    pv_set_real(&pv, "sample_jitter", s->jitter);
    pv_set_int(&pv, "seed", 7);
    pv_set_real(&pv, "dw_share", 0.01);
    pv_set_int(&pv, "cfg_capacity", capacity);
    if (s->bits) {
        pv_set_int(&pv, "history_bits", s->bits);
        pv_set_enum(&pv, "weight_mode", s->mode);
    }
    return pv;
}

static void test_shared_equals_alone(void **state)
{
    (void)state;
    struct event *ev = malloc(MAXEV * sizeof *ev);
    assert_non_null(ev);
    size_t n = gen(ev, MAXEV);
    static const size_t batches[] = { 257, 1, 9000, 31, 4096 };
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
        static struct tu_set alone, shared;
        memset(&alone, 0, sizeof alone);
        memset(&shared, 0, sizeof shared);
        for (size_t k = 0; k < NSPEC; k++) {
            struct param_values pv = spec_params(&specs[k], 64);
            tu_add(&alone, specs[k].model, &pv);
            tu_add(&shared, specs[k].model, &pv);
        }
        tu_run(&alone, ev, n, 4096, 2, 1, true);
        tu_run(&shared, ev, n, batches[b], 2, b % 2 ? 2 : 1, false);
        for (size_t k = 0; k < NSPEC; k++) {
            assert_true(tu_metric(&alone, k, "samples") > 1);
            tu_assert_same(&alone, &shared, k);
        }
        tu_free(&alone);
        tu_free(&shared);
    }
    free(ev);
}

/* cfg_capacity is a stage parameter; the hardware and sampling parameters
 * are not. */
static void test_sharing_key(void **state)
{
    (void)state;
    struct plan pa, pb, pc;
    struct param_values a = spec_params(&specs[0], 64), b = spec_params(&specs[1], 64), c = spec_params(&specs[0], 128);
    assert_int_equal(plan_build(model_find(specs[0].model), &a, &pa), 0);
    assert_int_equal(plan_build(model_find(specs[1].model), &b, &pb), 0);
    assert_int_equal(plan_build(model_find(specs[0].model), &c, &pc), 0);
    assert_true(plan_node_equal(&pa.node[pa.feed], &pb.node[pb.feed]));
    assert_false(plan_node_equal(&pa.node[pa.feed], &pc.node[pc.feed]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_equals_alone),
        cmocka_unit_test(test_sharing_key),
    };
    return cmocka_run_group_tests_name("conte_sharing", tests, NULL, NULL);
}
