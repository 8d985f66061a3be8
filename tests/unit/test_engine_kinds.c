/* test_engine_kinds.c - a job over a trace file decodes every event but
 * writes into its batches only the kinds its nodes read (engine_ring.c,
 * trace_reader_read_kinds).  For models of every kind of input - loads
 * (rap2d, rap of values), the code stream (hhh, rap of code), branches
 * (conte_counter), loads through the cache stage (rap of DL1 misses),
 * calls and returns (hps_stats), every kind (counts) - each alone in its
 * job reports bit for bit what it reports from whole batches (the engine's
 * FILTER_NEVER), and so does a filtered copy (FILTER_ALWAYS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine_testutil.h"
#include "trace_testutil.h"

static void make_set(struct tu_set *t)
{
    static const struct {
        const char *model, *stream;
    } v[] = {
        { "rap2d", NULL }, { "rap", "values" }, { "rap", "code" }, { "rap", "dl1_miss" }, { "hhh", "code" },
        { "hhh", "addresses" }, { "conte_counter", NULL }, { "hps_stats", NULL }, { "counts", NULL },
    };
    memset(t, 0, sizeof *t);
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        struct param_values pv = tu_params(v[k].model);
        if (v[k].stream)
            tu_set_enum(&pv, "stream", v[k].stream);
        tu_add(t, v[k].model, &pv);
    }
}

static void test_kinds_kept_same_results(void **state)
{
    (void)state;
    char path[300];
    tmp_path(path, sizeof path, "engine.trace");
    const size_t n = 100000;
    struct event *ev = random_events(n, 11);
    for (size_t i = 0; i < n; i++) /* accesses of a cache line at most (the cache stage walks their lines) */
        if (ev[i].kind == EV_LOAD || ev[i].kind == EV_STORE)
            ev[i].size = 1 + ev[i].size % 64;
    write_trace(path, ev, n, 4096);
    free(ev);
    static struct tu_set kept, whole, copied;
    make_set(&kept);
    make_set(&whole);
    make_set(&copied);
    unsigned kinds[TU_MAXI], all[TU_MAXI];
    tu_run_trace(&kept, path, FILTER_AUTO, kinds);
    tu_run_trace(&whole, path, FILTER_NEVER, all);
    tu_run_trace(&copied, path, FILTER_ALWAYS, NULL);
    /* what the decoder kept: the loads, the code stream's kinds, ... */
    const unsigned code = EV_BIT(EV_INSN) | EV_BIT(EV_BRANCH) | EV_BIT(EV_CALL) | EV_BIT(EV_RET) | EV_BIT(EV_IJUMP);
    assert_int_equal(kinds[0], EV_BIT(EV_LOAD));
    assert_int_equal(kinds[1], EV_BIT(EV_LOAD));
    assert_int_equal(kinds[2], code);
    assert_int_equal(kinds[4], code);
    assert_int_equal(kinds[8], EV_ALL);
    for (size_t i = 0; i < kept.n; i++)
        assert_int_equal(all[i], EV_ALL);
    for (size_t i = 0; i < kept.n; i++) {
        tu_assert_same(&kept, &whole, i);
        tu_assert_same(&kept, &copied, i);
    }
    /* the models saw their inputs */
    assert_true(tu_metric(&kept, 0, "events") > 0);
    assert_true(tu_metric(&kept, 4, "events") > 0);
    assert_int_equal((int64_t)tu_metric(&kept, 8, "loads"), (int64_t)tu_metric(&whole, 8, "loads"));
    tu_free(&kept);
    tu_free(&whole);
    tu_free(&copied);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_kept_same_results),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
