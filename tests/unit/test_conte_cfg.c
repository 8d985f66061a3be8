/* test_conte_cfg.c - the Conte WCFG builder on hand-built traces with known
 * graphs: exact node and arc weights (fall-through arcs included), call
 * handling, and the structural inference of estimated weights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "families/conte_cfg.h"
#include "conte_testutil.h"

/* Figure 4-like loop, 10 iterations, with an if/else in the body:
 *   H: 0x100 (4)  0x104 jcc E (4)        taken -> E, fall -> T
 *   T: 0x108 (4)  0x10c jmp J (4)        direct jump: no event, a discontinuity
 *   E: 0x110 (4)  0x114 (4)              falls into J: arc without a branch
 *   J: 0x118 (4)  0x11c jcc H (4)        taken -> H (back edge), fall -> X
 *   X: 0x120 ret (1)
 * Iterations i = 0, 3, 6, 9 take the else path (E): H->E 4, H->T 6. */
static void build_loop(struct evbuf *b)
{
    b->n = 0;
    for (int i = 0; i < 10; i++) {
        int else_path = i % 3 == 0;
        eb_insn(b, 0x100, 4);
        eb_cond(b, 0x104, 4, 0x110, else_path);
        if (else_path) {
            eb_insn(b, 0x110, 4);
            eb_insn(b, 0x114, 4);
        } else {
            eb_insn(b, 0x108, 4);
            eb_insn(b, 0x10c, 4);
        }
        eb_insn(b, 0x118, 4);
        eb_cond(b, 0x11c, 4, 0x100, i < 9);
    }
    eb_insn(b, 0x120, 1);
    eb_push(b, EV_RET, 0x120, 0x999, 0, 0, 0);
}

/* Feed a hand-built trace.  A real window starts mid-block, so the builder
 * starts blocks only at the first control transfer: one lead-in
 * instruction at an address the trace does not follow makes the trace's
 * first instruction a block start, as the tests' graphs assume. */
#define LEAD_IN_PC 0xf000

static void feed_cfg(struct conte_cfg *c, const struct evbuf *b)
{
    conte_cfg_reserve(c, b->n + 1);
    conte_cfg_insn(c, LEAD_IN_PC, 1);
    for (size_t i = 0; i < b->n; i++) {
        const struct event *e = &b->ev[i];
        switch (e->kind) {
        case EV_INSN: conte_cfg_insn(c, e->pc, e->size); break;
        case EV_BRANCH: conte_cfg_cond(c, e->pc, e->addr, e->value, e->taken); break;
        case EV_CALL: conte_cfg_call(c, e->pc); break;
        case EV_RET: conte_cfg_ret(c, e->pc); break;
        case EV_IJUMP: conte_cfg_ijump(c, e->pc); break;
        default: break;
        }
    }
    conte_cfg_end(c);
}

static uint32_t block_at(const struct conte_graph *g, uint64_t start)
{
    for (size_t b = 0; b < g->nblocks; b++)
        if (g->blocks[b].start == start)
            return (uint32_t)b;
    fail_msg("no block at %#llx", (unsigned long long)start);
    return CONTE_NONE;
}

static int64_t arc_count(const struct conte_graph *g, uint64_t from, uint64_t to)
{
    uint32_t s = block_at(g, from), d = block_at(g, to);
    for (uint32_t k = g->out_off[s]; k < g->out_off[s + 1]; k++) {
        const struct conte_arc *a = &g->arcs[g->out_idx[k]];
        if (a->dst == d)
            return (int64_t)a->count;
    }
    return -1;
}

static void test_loop_weights(void **state)
{
    (void)state;
    static struct evbuf b;
    build_loop(&b);
    struct conte_cfg *c = conte_cfg_create(16);
    feed_cfg(c, &b);
    assert_int_equal(conte_cfg_insns(c), 10 * 6 + 1 + 1); /* + the lead-in */
    assert_int_equal(conte_cfg_conds(c), 20);
    assert_int_equal(conte_cfg_nbranches(c), 2);
    struct conte_graph *g = conte_graph_build(c);
    assert_non_null(g);
    assert_int_equal(g->nblocks, 5);
    assert_int_equal(g->narcs, 6);
    /* node weights */
    assert_int_equal(g->blocks[block_at(g, 0x100)].count, 10);
    assert_int_equal(g->blocks[block_at(g, 0x108)].count, 6);
    assert_int_equal(g->blocks[block_at(g, 0x110)].count, 4);
    assert_int_equal(g->blocks[block_at(g, 0x118)].count, 10);
    assert_int_equal(g->blocks[block_at(g, 0x120)].count, 1);
    /* block shapes and terminators */
    assert_int_equal(g->blocks[block_at(g, 0x110)].ninsn, 2);
    assert_int_equal(g->blocks[block_at(g, 0x110)].term, CT_FALL);
    assert_int_equal(g->blocks[block_at(g, 0x118)].ninsn, 2);
    assert_int_equal(g->blocks[block_at(g, 0x118)].term, CT_COND);
    assert_int_equal(g->blocks[block_at(g, 0x108)].term, CT_JUMP);
    assert_int_equal(g->blocks[block_at(g, 0x120)].term, CT_RET);
    /* arc weights, including the fall-through arc E -> J */
    assert_int_equal(arc_count(g, 0x100, 0x108), 6);
    assert_int_equal(arc_count(g, 0x100, 0x110), 4);
    assert_int_equal(arc_count(g, 0x108, 0x118), 6);
    assert_int_equal(arc_count(g, 0x110, 0x118), 4);
    assert_int_equal(arc_count(g, 0x118, 0x100), 9);
    assert_int_equal(arc_count(g, 0x118, 0x120), 1);
    /* flow conservation on inner blocks */
    assert_int_equal(arc_count(g, 0x108, 0x118) + arc_count(g, 0x110, 0x118), 10);
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* A block entered in the middle: the run 0x100..0x10c is split at 0x108,
 * a target of the branch at 0x200. */
static void test_split_at_leader(void **state)
{
    (void)state;
    static struct evbuf b;
    b.n = 0;
    for (int i = 0; i < 3; i++) {
        eb_insn(&b, 0x100, 4);
        eb_insn(&b, 0x104, 4);
        eb_insn(&b, 0x108, 4);
        eb_cond(&b, 0x10c, 2, 0x200, 1);
        eb_insn(&b, 0x200, 4);
        eb_cond(&b, 0x204, 2, 0x108, 1);
        eb_insn(&b, 0x108, 4);
        eb_cond(&b, 0x10c, 2, 0x200, 0);
        eb_insn(&b, 0x10e, 4);
        eb_cond(&b, 0x112, 2, 0x100, 1);
    }
    struct conte_cfg *c = conte_cfg_create(16);
    feed_cfg(c, &b);
    struct conte_graph *g = conte_graph_build(c);
    assert_int_equal(g->blocks[block_at(g, 0x100)].ninsn, 2);
    assert_int_equal(g->blocks[block_at(g, 0x100)].count, 3);
    assert_int_equal(g->blocks[block_at(g, 0x108)].ninsn, 2);
    assert_int_equal(g->blocks[block_at(g, 0x108)].count, 6);
    assert_int_equal(arc_count(g, 0x100, 0x108), 3); /* fall-through, no branch */
    assert_int_equal(arc_count(g, 0x200, 0x108), 3);
    assert_int_equal(arc_count(g, 0x108, 0x200), 3);
    assert_int_equal(arc_count(g, 0x108, 0x10e), 3);
    assert_int_equal(arc_count(g, 0x10e, 0x100), 2); /* last iteration's back edge closes at trace end */
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* Calls: the call block's successor is the return point; the callee entry
 * has no arc from the caller. */
static void test_call_return(void **state)
{
    (void)state;
    static struct evbuf b;
    b.n = 0;
    for (int i = 0; i < 4; i++) {
        eb_insn(&b, 0x100, 4);
        eb_insn(&b, 0x104, 5);
        eb_push(&b, EV_CALL, 0x104, 0x500, 0, 0, 0);
        eb_insn(&b, 0x500, 3);
        eb_insn(&b, 0x503, 1);
        eb_push(&b, EV_RET, 0x503, 0x109, 0, 0, 0);
        eb_insn(&b, 0x109, 4);
        eb_cond(&b, 0x10d, 2, 0x100, i < 3);
    }
    struct conte_cfg *c = conte_cfg_create(16);
    feed_cfg(c, &b);
    struct conte_graph *g = conte_graph_build(c);
    assert_int_equal(g->nblocks, 3);
    assert_int_equal(g->blocks[block_at(g, 0x100)].term, CT_CALL);
    assert_int_equal(arc_count(g, 0x100, 0x109), 4);
    assert_int_equal(arc_count(g, 0x100, 0x500), -1);
    assert_int_equal(arc_count(g, 0x109, 0x100), 3);
    uint32_t callee = block_at(g, 0x500);
    assert_int_equal(g->in_off[callee + 1] - g->in_off[callee], 0);
    assert_int_equal(g->out_off[callee + 1] - g->out_off[callee], 0);
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* Estimated weights: branch arcs from the estimate, the fall-through and
 * jump arcs inferred; node weight = max(flow in, flow out). */
static void test_estimate_inference(void **state)
{
    (void)state;
    static struct evbuf b;
    build_loop(&b);
    struct conte_cfg *c = conte_cfg_create(16);
    feed_cfg(c, &b);
    for (uint32_t s = 0; s < conte_cfg_nbranches(c); s++) {
        struct conte_branch *br = conte_cfg_branch(c, s);
        if (br->pc == 0x104) {
            br->est_taken = 3; /* H -> E */
            br->est_fall = 7;  /* H -> T */
        } else {
            br->est_taken = 8; /* J -> H */
            br->est_fall = 2;  /* J -> X */
        }
    }
    struct conte_graph *g = conte_graph_build(c);
    double nw[8], aw[8];
    conte_graph_estimate(g, c, nw, aw);
    uint32_t H = block_at(g, 0x100), T = block_at(g, 0x108), E = block_at(g, 0x110), J = block_at(g, 0x118),
             X = block_at(g, 0x120);
    for (size_t a = 0; a < g->narcs; a++) {
        const struct conte_arc *arc = &g->arcs[a];
        if (arc->src == T && arc->dst == J)
            assert_float_equal(aw[a], 7, 1e-9);
        if (arc->src == E && arc->dst == J)
            assert_float_equal(aw[a], 3, 1e-9);
        if (arc->src == J && arc->dst == X)
            assert_float_equal(aw[a], 2, 1e-9);
    }
    assert_float_equal(nw[H], 10, 1e-9); /* in 8, out 10 */
    assert_float_equal(nw[T], 7, 1e-9);
    assert_float_equal(nw[E], 3, 1e-9);
    assert_float_equal(nw[J], 10, 1e-9);
    assert_float_equal(nw[X], 2, 1e-9);
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* Backward inference: an entry block ending in a call has no flow in; its
 * arc to the return point takes the return point's out-flow. */
static void test_estimate_backward(void **state)
{
    (void)state;
    static struct evbuf b;
    b.n = 0;
    for (int i = 0; i < 5; i++) {
        eb_insn(&b, 0x100, 5);
        eb_push(&b, EV_CALL, 0x100, 0x500, 0, 0, 0);
        eb_insn(&b, 0x500, 1);
        eb_push(&b, EV_RET, 0x500, 0x105, 0, 0, 0);
        eb_cond(&b, 0x105, 2, 0x200, i & 1);
        eb_insn(&b, i & 1 ? 0x200 : 0x107, 1);
        eb_push(&b, EV_RET, i & 1 ? 0x200 : 0x107, 0, 0, 0, 0);
    }
    struct conte_cfg *c = conte_cfg_create(16);
    feed_cfg(c, &b);
    struct conte_branch *br = conte_cfg_branch(c, 0);
    br->est_taken = 20;
    br->est_fall = 30;
    struct conte_graph *g = conte_graph_build(c);
    double nw[16], aw[16];
    conte_graph_estimate(g, c, nw, aw);
    assert_float_equal(nw[block_at(g, 0x100)], 50, 1e-9);
    assert_float_equal(nw[block_at(g, 0x105)], 50, 1e-9);
    assert_float_equal(nw[block_at(g, 0x200)], 20, 1e-9);
    assert_float_equal(nw[block_at(g, 0x107)], 30, 1e-9);
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* Growth between batches keeps every record (small initial capacity). */
static void test_growth(void **state)
{
    (void)state;
    struct conte_cfg *c = conte_cfg_create(1);
    conte_cfg_reserve(c, 1);
    conte_cfg_insn(c, LEAD_IN_PC, 1);
    for (int round = 0; round < 50; round++) {
        conte_cfg_reserve(c, 400);
        for (uint64_t k = 0; k < 200; k++) {
            uint64_t pc = 0x10000 + 16 * (k + 200 * (uint64_t)round);
            conte_cfg_insn(c, pc, 2);
            conte_cfg_cond(c, pc, pc + 16, pc + 2, 1);
        }
    }
    conte_cfg_end(c);
    assert_int_equal(conte_cfg_nbranches(c), 10000);
    struct conte_graph *g = conte_graph_build(c);
    assert_int_equal(g->nblocks, 10000);
    assert_int_equal(g->narcs, 9999);
    conte_graph_free(g);
    conte_cfg_free(c);
}

/* The window starts inside the loop block 0x100..0x10c (at 0x108): that
 * address is no leader (the block is not split) and the partial first
 * execution is not counted; the window also ends inside the block (after
 * 0x104): that incomplete execution is not counted either.
 *   0x100 (4) 0x104 (4) 0x108 (4) 0x10c jcc 0x100 (2)   3 full iterations */
static void test_window_edges(void **state)
{
    (void)state;
    static struct evbuf b;
    b.n = 0;
    eb_insn(&b, 0x108, 4);
    eb_cond(&b, 0x10c, 2, 0x100, 1);
    for (int i = 0; i < 3; i++) {
        eb_insn(&b, 0x100, 4);
        eb_insn(&b, 0x104, 4);
        eb_insn(&b, 0x108, 4);
        eb_cond(&b, 0x10c, 2, 0x100, 1);
    }
    eb_insn(&b, 0x100, 4);
    eb_insn(&b, 0x104, 4);
    struct conte_cfg *c = conte_cfg_create(16);
    conte_cfg_reserve(c, b.n);
    for (size_t i = 0; i < b.n; i++) {
        const struct event *e = &b.ev[i];
        if (e->kind == EV_INSN)
            conte_cfg_insn(c, e->pc, e->size);
        else
            conte_cfg_cond(c, e->pc, e->addr, e->value, e->taken);
    }
    conte_cfg_end(c);
    assert_int_equal(conte_cfg_insns(c), 2 + 3 * 4 + 2);
    assert_int_equal(conte_cfg_conds(c), 4); /* the branch executed 4 times */
    struct conte_graph *g = conte_graph_build(c);
    assert_int_equal(g->nblocks, 1);
    uint32_t h = block_at(g, 0x100);
    assert_int_equal(g->blocks[h].ninsn, 4);
    assert_int_equal(g->blocks[h].count, 3);
    assert_int_equal(g->blocks[h].term, CT_COND);
    assert_int_equal(arc_count(g, 0x100, 0x100), 3);
    conte_graph_free(g);
    conte_cfg_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_weights),
        cmocka_unit_test(test_split_at_leader),
        cmocka_unit_test(test_call_return),
        cmocka_unit_test(test_estimate_inference),
        cmocka_unit_test(test_estimate_backward),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_window_edges),
    };
    return cmocka_run_group_tests_name("conte_cfg", tests, NULL, NULL);
}
