/* test_conte_tsel.c - superblock formation by trace selection on the
 * Figure 4/5 example (a loop of 10 iterations with an if/else in its body)
 * and the comparison metrics between two selections. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "families/conte_tsel.h"

/* Blocks: 0 H (10), 1 T (6), 2 E (4), 3 J (10), 4 X (1); all 1 instruction
 * except where set.  Arcs: H->T 6, H->E 4, T->J 6, E->J 4, J->H 9, J->X 1. */
static const uint64_t cnt[] = { 10, 6, 4, 10, 1 };
static const uint8_t term[] = { CT_COND, CT_JUMP, CT_FALL, CT_COND, CT_RET };
static const uint32_t src[] = { 0, 0, 1, 2, 3, 3 };
static const uint32_t dst[] = { 1, 2, 3, 3, 0, 4 };
static const uint64_t acnt[] = { 6, 4, 6, 4, 9, 1 };

static void sequence_is(const struct conte_traces *t, uint32_t tr, const uint32_t *blocks, size_t n)
{
    assert_int_equal(t->start[tr + 1] - t->start[tr], n);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(t->order[t->start[tr] + k], blocks[k]);
}

static void test_select_exact(void **state)
{
    (void)state;
    struct conte_graph *g = conte_graph_from_arrays(5, cnt, NULL, term, 6, src, dst, acnt);
    double nw[5], aw[6];
    conte_graph_exact(g, nw, aw);
    struct conte_traces t;
    assert_int_equal(conte_tsel_select(g, nw, aw, 0.60, &t), 0);
    /* H -> T passes at exactly 0.60 of H and T -> J at 0.60 of J; J -> H is a back edge */
    assert_int_equal(t.ntraces, 3);
    const uint32_t s0[] = { 0, 1, 3 }, s1[] = { 2 }, s2[] = { 4 };
    sequence_is(&t, 0, s0, 3);
    sequence_is(&t, 1, s1, 1);
    sequence_is(&t, 2, s2, 1);
    struct conte_tsel_eval ev;
    conte_tsel_evaluate(g, &t, &t, &ev);
    assert_float_equal(ev.same_pct, 100, 1e-9);
    assert_float_equal(ev.link_pct, 100, 1e-9);
    assert_float_equal(ev.completion_pct, 60, 1e-9); /* 6/10 * 6/6 */
    assert_float_equal(ev.len_dyn, (10 * 2.2 + 4 + 1) / 15.0, 1e-9);
    assert_int_equal(ev.multi, 1);
    conte_traces_free(&t);
    conte_graph_free(g);
}

/* An estimate that puts H->T at 0.55 (below 0.60) breaks the superblock:
 * every block becomes its own superblock. */
static void test_select_estimate(void **state)
{
    (void)state;
    struct conte_graph *g = conte_graph_from_arrays(5, cnt, NULL, term, 6, src, dst, acnt);
    double xn[5], xa[6];
    conte_graph_exact(g, xn, xa);
    double en[5] = { 10, 5.5, 4.5, 10, 1 };
    double ea[6] = { 5.5, 4.5, 5.5, 4.5, 9, 1 };
    struct conte_traces tx, te;
    assert_int_equal(conte_tsel_select(g, xn, xa, 0.60, &tx), 0);
    assert_int_equal(conte_tsel_select(g, en, ea, 0.60, &te), 0);
    /* seeds H (10), J (10: T->J carries 5.5 < 6 of J), T, E, X */
    assert_int_equal(te.ntraces, 5);
    const uint32_t s0[] = { 0 }, s1[] = { 3 }, s2[] = { 1 };
    sequence_is(&te, 0, s0, 1);
    sequence_is(&te, 1, s1, 1);
    sequence_is(&te, 2, s2, 1);
    struct conte_tsel_eval ev;
    conte_tsel_evaluate(g, &te, &tx, &ev);
    /* identical superblocks: only E (4) and X (1) out of 31 dynamic instructions */
    assert_float_equal(ev.same_pct, 100.0 * 5 / 31, 1e-9);
    assert_float_equal(ev.link_pct, 100.0 * 5 / 31, 1e-9);
    assert_true(isnan(ev.completion_pct)); /* no multi-block superblock */
    assert_int_equal(ev.multi, 0);
    assert_float_equal(ev.len_dyn, 1, 1e-9);
    conte_traces_free(&tx);
    conte_traces_free(&te);
    conte_graph_free(g);
}

/* Figure 9's situation: raising an arc from 0.54 to 0.85 extends the
 * superblock past the 0.60 threshold. */
static void test_threshold_figure9(void **state)
{
    (void)state;
    /* 0 (100) -> 1 (54) / 2 (46); each of 1 and 2 has one predecessor */
    const uint64_t c[] = { 100, 54, 46 };
    const uint32_t s[] = { 0, 0 }, d[] = { 1, 2 };
    const uint64_t a[] = { 54, 46 };
    const uint8_t t3[] = { CT_COND, CT_RET, CT_RET };
    struct conte_graph *g = conte_graph_from_arrays(3, c, NULL, t3, 2, s, d, a);
    double xn[3], xa[2];
    conte_graph_exact(g, xn, xa);
    struct conte_traces tx, te;
    conte_tsel_select(g, xn, xa, 0.60, &tx);
    assert_int_equal(tx.ntraces, 3);
    double en[3] = { 100, 85, 15 }, ea[2] = { 85, 15 };
    conte_tsel_select(g, en, ea, 0.60, &te);
    assert_int_equal(te.ntraces, 2);
    assert_int_equal(te.trace_of[0], te.trace_of[1]);
    struct conte_tsel_eval ev;
    conte_tsel_evaluate(g, &te, &tx, &ev);
    assert_float_equal(ev.completion_pct, 54, 1e-9);
    assert_float_equal(ev.same_pct, 100.0 * 46 / 200, 1e-9);
    conte_traces_free(&tx);
    conte_traces_free(&te);
    conte_graph_free(g);
}

/* Arcs out of returns and indirect jumps are never followed. */
static void test_no_follow(void **state)
{
    (void)state;
    const uint64_t c[] = { 10, 10 };
    const uint32_t s[] = { 0 }, d[] = { 1 };
    const uint64_t a[] = { 10 };
    const uint8_t t2[] = { CT_IJUMP, CT_FALL };
    struct conte_graph *g = conte_graph_from_arrays(2, c, NULL, t2, 1, s, d, a);
    double xn[2], xa[1];
    conte_graph_exact(g, xn, xa);
    struct conte_traces t;
    conte_tsel_select(g, xn, xa, 0.60, &t);
    assert_int_equal(t.ntraces, 2);
    conte_traces_free(&t);
    conte_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_exact),
        cmocka_unit_test(test_select_estimate),
        cmocka_unit_test(test_threshold_figure9),
        cmocka_unit_test(test_no_follow),
    };
    return cmocka_run_group_tests_name("conte_tsel", tests, NULL, NULL);
}
