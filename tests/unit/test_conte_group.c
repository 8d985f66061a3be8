/* test_conte_group.c - the Conte models fed as one group (model.h:
 * share_key / feed_group: one shared WCFG, each member's own hardware)
 * report bit for bit what each reports fed alone, with sampling points
 * inside batches and across the shared pass's chunks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "models/conte_common.h"
#include "models/conte_counter.h"
#include "models/conte_onelevel.h"
#include "models/conte_twolevel.h"
#include "conte_testutil.h"

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
    const struct model_ops *ops;
    int64_t entries, assoc, period;
    double jitter;
    int64_t bits;
    int mode; /* twolevel weight_mode */
};

static const struct inst_spec specs[] = {
    { &conte_onelevel_ops, 16, 1, 7, 0, 0, 0 },
    { &conte_twolevel_ops, 32, 2, 13, 0, 6, 1 },
    { &conte_counter_ops, 8, 4, 5, 0.3, 0, 0 },
    { &conte_onelevel_ops, 64, 4, 1000, 0, 0, 0 },
    { &conte_twolevel_ops, 12, 3, 1, 0, 4, 0 },
    { &conte_counter_ops, 1024, 1, 2500, 0, 0, 0 },
    { &conte_onelevel_ops, 24, 8, 333, 0.5, 0, 0 },
};
#define NSPEC (sizeof specs / sizeof specs[0])

static struct conte_base *make_inst(const struct inst_spec *s, int64_t capacity)
{
    struct param_values pv;
    char err[256] = "";
    params_defaults(&pv, s->ops->params);
    pv_set_int(&pv, "btb_entries", s->entries);
    pv_set_int(&pv, "btb_assoc", s->assoc);
    pv_set_int(&pv, "sample_period", s->period);
    pv_set_real(&pv, "sample_jitter", s->jitter);
    pv_set_int(&pv, "seed", 7);
    pv_set_real(&pv, "dw_share", 0.01);
    pv_set_int(&pv, "cfg_capacity", capacity);
    if (s->bits) {
        pv_set_int(&pv, "history_bits", s->bits);
        size_t i;
        if (params_find(pv.spec, "weight_mode", &i))
            pv.v[i].i = s->mode;
    }
    struct conte_base *b = s->ops->create(&pv, NULL, err, sizeof err);
    if (!b)
        fail_msg("create failed: %s", err);
    return b;
}

/* Batch sizes: odd, small and large (> CONTE_CHUNK branches), so sampling
 * points fall inside batches and inside and across chunks. */
static size_t batch_len(size_t k)
{
    static const size_t len[] = { 257, 1, 9000, 31, 4096, 12000, 3 };
    return len[k % (sizeof len / sizeof len[0])];
}

static void test_group_equals_alone(void **state)
{
    (void)state;
    struct event *ev = malloc(MAXEV * sizeof *ev);
    assert_non_null(ev);
    size_t n = gen(ev, MAXEV);

    /* Alone: each instance through its own feed(). */
    double alone[NSPEC][CM_COUNT];
    uint64_t alone_samples[NSPEC];
    for (size_t k = 0; k < NSPEC; k++) {
        struct conte_base *b = make_inst(&specs[k], 64);
        for (size_t i = 0, j = 0; i < n; j++) {
            size_t len = batch_len(j) < n - i ? batch_len(j) : n - i;
            specs[k].ops->feed(b, ev + i, len);
            i += len;
        }
        specs[k].ops->finish(b);
        specs[k].ops->report(b, alone[k]);
        alone_samples[k] = b->samples;
        specs[k].ops->free(b);
    }

    /* Grouped: one shared WCFG, keys equal across the three models. */
    struct conte_base *g[NSPEC];
    char key0[160] = "", key[160];
    for (size_t k = 0; k < NSPEC; k++) {
        g[k] = make_inst(&specs[k], 64);
        assert_non_null(specs[k].ops->share_key);
        assert_ptr_equal(specs[k].ops->feed_group, specs[0].ops->feed_group);
        assert_int_equal(specs[k].ops->event_mask, specs[0].ops->event_mask);
        assert_int_equal(specs[k].ops->share_key(g[k], key, sizeof key), 1);
        if (k == 0)
            memcpy(key0, key, sizeof key);
        assert_string_equal(key, key0);
    }
    for (size_t i = 0, j = 0; i < n; j++) {
        size_t len = batch_len(j) < n - i ? batch_len(j) : n - i;
        specs[0].ops->feed_group((void *const *)g, NSPEC, ev + i, len);
        i += len;
    }
    for (size_t k = 0; k < NSPEC; k++) {
        double m[CM_COUNT];
        specs[k].ops->finish(g[k]);
        specs[k].ops->report(g[k], m);
        assert_true(g[k]->samples > 1);
        assert_int_equal(g[k]->samples, alone_samples[k]);
        for (int c = 0; c < CM_COUNT; c++) {
            if (memcmp(&m[c], &alone[k][c], sizeof m[c]) != 0)
                fail_msg("instance %zu metric %s: grouped %.17g alone %.17g", k, conte_metric_names[c], m[c],
                         alone[k][c]);
        }
    }
    /* The lead goes first: the shared WCFG must outlive it. */
    for (size_t k = 0; k < NSPEC; k++)
        specs[k].ops->free(g[k]);
    free(ev);
}

/* cfg_capacity is part of the key; other parameters are not. */
static void test_share_key(void **state)
{
    (void)state;
    struct conte_base *a = make_inst(&specs[0], 64), *b = make_inst(&specs[1], 64), *c = make_inst(&specs[0], 128);
    char ka[160], kb[160], kc[160];
    assert_int_equal(conte_onelevel_ops.share_key(a, ka, sizeof ka), 1);
    assert_int_equal(conte_twolevel_ops.share_key(b, kb, sizeof kb), 1);
    assert_int_equal(conte_onelevel_ops.share_key(c, kc, sizeof kc), 1);
    assert_string_equal(ka, kb);
    assert_string_not_equal(ka, kc);
    conte_model_free(a);
    conte_model_free(b);
    conte_model_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_equals_alone),
        cmocka_unit_test(test_share_key),
    };
    return cmocka_run_group_tests_name("conte_group", tests, NULL, NULL);
}
