/* test_cachesim.c - the cache hierarchy on hand-computed access streams:
 * conflict misses in a 2-way set, LRU order, line-crossing accesses,
 * write-back and write-allocate, L2 hits after DL1 evictions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include "families/cachesim.h"

static struct cachesim *mk(uint64_t l1, unsigned l1w, unsigned l1l, uint64_t l2, unsigned l2w, unsigned l2l)
{
    struct cachesim_cfg c = { { l1, l1w, l1l }, { l2, l2w, l2l }, { 32768, 8, 64 }, 0 };
    char err[200];
    struct cachesim *cs = cachesim_create(&c, err, sizeof err);
    if (!cs)
        fail_msg("%s", err);
    return cs;
}

#define LINE(n) ((uint64_t)(n) * 64)

/* DL1 256 B, 2-way, 64 B lines: 2 sets; lines 0, 2, 4 share set 0.
 *   A(0) miss, B(2) miss, A hit, C(4) miss evicting B (A is more recent),
 *   B miss evicting A, A miss evicting C, C miss evicting B. */
static void test_two_way_conflicts(void **state)
{
    (void)state;
    struct cachesim *c = mk(256, 2, 64, 1 << 20, 16, 64);
    const uint64_t seq[] = { LINE(0), LINE(2), LINE(0), LINE(4), LINE(2), LINE(0), LINE(4), LINE(0) };
    const unsigned want[] = { 1, 1, 0, 1, 1, 1, 1, 0 };
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(cachesim_load(c, seq[i], 8) & CACHE_L1_MISS, want[i]);
    /* a line of the other set is unaffected */
    assert_int_equal(cachesim_load(c, LINE(1), 8), CACHE_L1_MISS | CACHE_L2_MISS);
    assert_int_equal(cachesim_load(c, LINE(1), 8), 0);
    const struct cache_stats *st = cachesim_stats(c);
    assert_int_equal(st->loads, 10);
    assert_int_equal(st->load_l1_misses, 7);
    /* L2 (1 MB) misses only on first touches: lines 0, 2, 4, 1 */
    assert_int_equal(st->load_l2_misses, 4);
    assert_int_equal(st->l2_reads, 7);
    cachesim_free(c);
}

/* 4-way, one set (256 B, 64 B lines): fill A B C D, touch A and C, then E
 * evicts B (least recently used), F evicts D, G evicts A. */
static void test_lru_order(void **state)
{
    (void)state;
    struct cachesim *c = mk(256, 4, 64, 1 << 20, 16, 64);
    for (int i = 0; i < 4; i++)
        cachesim_load(c, LINE(i), 1); /* A=0 B=1 C=2 D=3 */
    assert_int_equal(cachesim_load(c, LINE(0), 1), 0);
    assert_int_equal(cachesim_load(c, LINE(2), 1), 0);
    assert_int_equal(cachesim_load(c, LINE(4), 1) & CACHE_L1_MISS, CACHE_L1_MISS); /* E evicts B */
    assert_int_equal(cachesim_load(c, LINE(3), 1), 0);                             /* D still there */
    assert_int_equal(cachesim_load(c, LINE(1), 1) & CACHE_L1_MISS, CACHE_L1_MISS); /* B gone; evicts A */
    assert_int_equal(cachesim_load(c, LINE(2), 1), 0);
    assert_int_equal(cachesim_load(c, LINE(0), 1) & CACHE_L1_MISS, CACHE_L1_MISS); /* A gone; evicts E */
    assert_int_equal(cachesim_load(c, LINE(3), 1), 0);
    assert_int_equal(cachesim_load(c, LINE(4), 1) & CACHE_L1_MISS, CACHE_L1_MISS);
    cachesim_free(c);
}

/* An 8-byte load at byte 60 touches lines 0 and 1: one load, two line
 * accesses, one DL1 miss; it misses L2 because line 1 is new to L2 even
 * though line 0 was there. */
static void test_line_crossing(void **state)
{
    (void)state;
    struct cachesim *c = mk(1024, 2, 64, 1 << 20, 16, 64);
    assert_int_equal(cachesim_load(c, 0, 4), CACHE_L1_MISS | CACHE_L2_MISS);
    assert_int_equal(cachesim_load(c, 60, 8), CACHE_L1_MISS | CACHE_L2_MISS);
    assert_int_equal(cachesim_load(c, 62, 2), 0);  /* line 0 only */
    assert_int_equal(cachesim_load(c, 64, 64), 0); /* exactly line 1 */
    assert_int_equal(cachesim_load(c, 127, 2) & CACHE_L1_MISS, CACHE_L1_MISS); /* lines 1, 2 */
    const struct cache_stats *st = cachesim_stats(c);
    assert_int_equal(st->loads, 5);
    assert_int_equal(st->spans, 2);
    assert_int_equal(st->l1d_lines, 7);
    assert_int_equal(st->l1d_line_misses, 3);
    assert_int_equal(st->load_l1_misses, 3);
    assert_int_equal(cachesim_load(c, 200, 0), CACHE_L1_MISS | CACHE_L2_MISS); /* size 0 = 1 byte, line 3 */
    cachesim_free(c);
}

/* Write-allocate, write-back: a store miss fetches the line from L2 and
 * dirties it; when a conflict evicts it, it is written to L2 (512 B, 2-way,
 * 64 B lines: 4 sets), whose own dirty victims go to memory. */
static void test_write_back(void **state)
{
    (void)state;
    struct cachesim *c = mk(128, 1, 64, 512, 2, 64); /* DL1: 2 sets, direct-mapped */
    assert_int_equal(cachesim_store(c, LINE(0), 8), CACHE_L1_MISS | CACHE_L2_MISS);
    const struct cache_stats *st = cachesim_stats(c);
    assert_int_equal(st->stores, 1);
    assert_int_equal(st->l2_reads, 1); /* fetch for the store */
    /* line 2 maps to DL1 set 0: evicts dirty line 0 -> L2 write (hit in L2) */
    assert_int_equal(cachesim_load(c, LINE(2), 8), CACHE_L1_MISS | CACHE_L2_MISS);
    assert_int_equal(st->l1d_writebacks, 1);
    assert_int_equal(st->l2_writes, 1);
    assert_int_equal(st->l2_write_misses, 0);
    /* line 0 again: DL1 miss, L2 hit (it was written back, clean in DL1 now) */
    assert_int_equal(cachesim_load(c, LINE(0), 8), CACHE_L1_MISS);
    assert_int_equal(st->l1d_writebacks, 1); /* line 2 was clean */
    /* L2 set = line % 4: line 0 (dirty since the write-back) shares set 0
     * with lines 4 and 8; 4 fills the empty way, 8 evicts line 0 (the LRU
     * one) and so writes it to memory. */
    cachesim_load(c, LINE(4), 8);
    cachesim_load(c, LINE(8), 8);
    assert_int_equal(st->l2_writebacks, 1);
    /* a load never writes back: clean lines are dropped */
    assert_int_equal(st->l1d_writebacks, 1);
    cachesim_free(c);
}

static void test_ifetch_and_errors(void **state)
{
    (void)state;
    struct cachesim_cfg cfg = { { 32768, 8, 64 }, { 1 << 20, 16, 64 }, { 32768, 8, 64 }, 1 };
    char err[200];
    struct cachesim *c = cachesim_create(&cfg, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(cachesim_ifetch(c, 0x1000, 4), CACHE_L1_MISS | CACHE_L2_MISS);
    /* the unified L2 now holds the code line: a data load of it hits L2 */
    assert_int_equal(cachesim_load(c, 0x1000, 4), CACHE_L1_MISS);
    cachesim_free(c);

    cfg.l1d.line = 48;
    assert_null(cachesim_create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "l1 line"));
    cfg.l1d.line = 64;
    cfg.l2.size = 3 << 20;
    assert_null(cachesim_create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "l2 size"));
    cfg.l2.size = 1 << 20;
    cfg.l2.line = 32;
    assert_null(cachesim_create(&cfg, err, sizeof err));
    assert_non_null(strstr(err, "at least"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_way_conflicts),
        cmocka_unit_test(test_lru_order),
        cmocka_unit_test(test_line_crossing),
        cmocka_unit_test(test_write_back),
        cmocka_unit_test(test_ifetch_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
