/* test_mh_common.c - unit tests of the multihash shared pieces: tuple
 * extraction, the section 5.3 hash, mh_index, the exact table and the
 * error formula (1) split of Figure 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include "families/mh_common.h"

static void test_candidate_count(void **state)
{
    (void)state;
    assert_int_equal(mh_candidate_count(10000, 0.01), 100);
    assert_int_equal(mh_candidate_count(1000000, 0.001), 1000);
    assert_int_equal(mh_candidate_count(100000, 0.001), 100);
    assert_int_equal(mh_candidate_count(10, 0.25), 3); /* ceil(2.5) */
    assert_int_equal(mh_candidate_count(10, 0.001), 1);
    assert_int_equal(mh_default_acc_entries(0.01), 100);
    assert_int_equal(mh_default_acc_entries(0.001), 1000);
}

static struct event ev(uint8_t kind, uint64_t pc, uint64_t addr, uint64_t value, uint8_t taken, uint8_t flags)
{
    struct event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.pc = pc;
    e.addr = addr;
    e.value = value;
    e.taken = taken;
    e.flags = flags;
    return e;
}

static void test_tuples(void **state)
{
    (void)state;
    struct mh_source s = { MH_STREAM_VALUES, MH_EDGES_COND, 0, 0 };
    uint64_t a = 0, b = 0;
    struct event load = ev(EV_LOAD, 0x400100, 0x7000, 42, 0, 0);
    struct event noval = ev(EV_LOAD, 0x400100, 0x7000, 0, 0, EVF_NOVALUE);
    struct event taken = ev(EV_BRANCH, 0x400200, 0x400300, 0x400206, 1, 0);
    struct event fall = ev(EV_BRANCH, 0x400200, 0x400300, 0x400206, 0, 0);
    struct event call = ev(EV_CALL, 0x400400, 0x401000, 0, 0, 0);
    struct event insn = ev(EV_INSN, 0x400400, 0, 0, 0, 0);
    assert_int_equal(mh_tuple_of(&s, &load, &a, &b), 1);
    assert_true(a == 0x400100 && b == 42);
    assert_int_equal(mh_tuple_of(&s, &noval, &a, &b), 0);
    assert_int_equal(s.skipped_loads, 1);
    assert_int_equal(mh_tuple_of(&s, &taken, &a, &b), 0);
    assert_int_equal(mh_tuple_of(&s, &insn, &a, &b), 0);

    s.stream = MH_STREAM_EDGES;
    assert_int_equal(mh_tuple_of(&s, &load, &a, &b), 0);
    assert_int_equal(mh_tuple_of(&s, &taken, &a, &b), 1);
    assert_true(a == 0x400200 && b == 0x400300);
    assert_int_equal(mh_tuple_of(&s, &fall, &a, &b), 1);
    assert_true(a == 0x400200 && b == 0x400206);
    assert_int_equal(mh_tuple_of(&s, &call, &a, &b), 0);
    s.edges = MH_EDGES_COND_TAKEN;
    assert_int_equal(mh_tuple_of(&s, &fall, &a, &b), 0);
    assert_int_equal(mh_tuple_of(&s, &taken, &a, &b), 1);
    s.edges = MH_EDGES_ALL;
    assert_int_equal(mh_tuple_of(&s, &call, &a, &b), 1);
    assert_true(a == 0x400400 && b == 0x401000);
}

static uint64_t bswap(uint64_t v)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r = (r << 8) | ((v >> (8 * i)) & 0xff);
    return r;
}

static struct mh_hash h1, h2, h3;

static void test_hash(void **state)
{
    (void)state;
    assert_int_equal(mh_xor_fold(0xABCDull, 4), 0xA ^ 0xB ^ 0xC ^ 0xD);
    assert_int_equal(mh_xor_fold(0x0123456789abcdefull, 32), 0x01234567u ^ 0x89abcdefu);
    assert_int_equal(mh_xor_fold(0x7ffull << 11, 11), 0x7ff);

    mh_hash_init(&h1, 7, 0, 2048);
    mh_hash_init(&h2, 7, 0, 2048);
    mh_hash_init(&h3, 7, 1, 2048);
    assert_int_equal(h1.bits, 11);
    assert_memory_equal(h1.rnd, h2.rnd, sizeof h1.rnd);     /* deterministic */
    assert_memory_not_equal(h1.rnd, h3.rnd, sizeof h1.rnd); /* independent function */
    /* randomize: byte-wise substitution; flip reverses the pc's bytes */
    uint64_t pc = 0x0000000000401a2bull, v = 0x00000000deadbeefull;
    uint64_t rpc = 0, rv = 0;
    for (int i = 0; i < 8; i++) {
        rpc |= (uint64_t)h1.rnd[i][(pc >> (8 * i)) & 0xff] << (8 * i);
        rv |= (uint64_t)h1.rnd[i][(v >> (8 * i)) & 0xff] << (8 * i);
    }
    assert_true(mh_hash_randomized(&h1, pc, v) == (bswap(rpc) ^ rv));
    assert_int_equal(mh_hash_index(&h1, pc, v), mh_xor_fold(bswap(rpc) ^ rv, 11));

    /* pc_tables: shared tables make a byte swapped between pc and value
     * (position 0 of both, 8-bit fold) collide for every seed; separate
     * pc tables break that, and leave the value's tables alone. */
    unsigned shared_collide = 0, separate_collide = 0;
    for (uint64_t seed = 1; seed <= 32; seed++) {
        struct mh_hash s, d;
        mh_hash_init(&s, seed, 0, 256);
        mh_hash_init(&d, seed, 0, 256);
        mh_hash_separate_pc(&d, seed, 0);
        assert_memory_equal(s.rnd, d.rnd, sizeof s.rnd);
        assert_memory_equal(s.rnd, s.rnd_pc, sizeof s.rnd);
        assert_memory_not_equal(d.rnd, d.rnd_pc, sizeof d.rnd);
        uint64_t a = 0x401a10, b = 0x401a37; /* same upper bytes, byte 0 swapped */
        shared_collide += mh_hash_index(&s, a, b) == mh_hash_index(&s, b, a);
        separate_collide += mh_hash_index(&d, a, b) == mh_hash_index(&d, b, a);
    }
    assert_int_equal(shared_collide, 32);
    assert_true(separate_collide <= 2); /* 1/256 chance per seed */

    /* Separate pc tables of neighbouring seeds are unrelated: no table of
     * seed 2 is seed 1's shifted by one splitmix64 draw (8 entries). */
    {
        struct mh_hash d1, d2;
        mh_hash_init(&d1, 1, 0, 256);
        mh_hash_init(&d2, 2, 0, 256);
        mh_hash_separate_pc(&d1, 1, 0);
        mh_hash_separate_pc(&d2, 2, 0);
        for (unsigned p = 0; p < 8; p++) {
            assert_memory_not_equal(&d1.rnd_pc[p][8], &d2.rnd_pc[p][0], 248);
            assert_memory_not_equal(&d2.rnd_pc[p][8], &d1.rnd_pc[p][0], 248);
        }
    }

    /* non power-of-two table: index in range, every slot reachable */
    struct mh_hash h;
    mh_hash_init(&h, 3, 2, 682);
    assert_int_equal(h.bits, 10);
    static uint32_t hist[682];
    for (uint64_t k = 0; k < 68200; k++) {
        uint32_t i = mh_hash_index(&h, 0x400000 + 4 * (k % 97), k / 97);
        assert_true(i < 682);
        hist[i]++;
    }
    for (int i = 0; i < 682; i++)
        assert_true(hist[i] > 30 && hist[i] < 200); /* mean 100: roughly even */
}

/* byte_tables = one: every byte position (of value and pc) uses one table,
 * so randomize maps equal bytes to equal bytes wherever they sit:
 * randomize(0x0101..01) has eight equal bytes and fold(v ^ flip(v)) of a
 * palindromic value is 0. */
static void test_one_table(void **state)
{
    (void)state;
    struct mh_hash h;
    mh_hash_init(&h, 5, 2, 1024);
    mh_hash_one_table(&h);
    for (unsigned p = 1; p < 8; p++) {
        assert_memory_equal(h.rnd[p], h.rnd[0], 256);
        assert_memory_equal(h.rnd_pc[p], h.rnd_pc[0], 256);
    }
    uint64_t r = mh_randomize(&h, 0x0101010101010101ull);
    for (unsigned b = 1; b < 8; b++)
        assert_int_equal((r >> (8 * b)) & 0xff, r & 0xff);
    /* pc == value == a byte palindrome: flip(randomize(x)) == randomize(x) */
    uint64_t x = 0x1122334444332211ull;
    assert_int_equal(mh_hash_randomized(&h, x, x), 0);
    /* per-byte tables (the default of mh_hash_init) differ between positions */
    mh_hash_init(&h, 5, 2, 1024);
    assert_true(memcmp(h.rnd[1], h.rnd[0], 256) != 0);
}

static void test_index(void **state)
{
    (void)state;
    struct mh_index x;
    assert_int_equal(mh_index_init(&x, 20), 0);
    for (int i = 0; i < 20; i++)
        mh_index_insert(&x, (uint64_t)i * 8, 7, i);
    for (int i = 0; i < 20; i += 2)
        mh_index_remove(&x, (uint64_t)i * 8, 7);
    mh_index_remove(&x, 999, 7); /* absent: no-op */
    for (int i = 0; i < 20; i++)
        assert_int_equal(mh_index_find(&x, (uint64_t)i * 8, 7), (i % 2) ? i : -1);
    assert_int_equal(x.live, 10);
    for (int i = 0; i < 20; i += 2)
        mh_index_insert(&x, (uint64_t)i * 8, 7, 100 + i);
    for (int i = 0; i < 20; i++)
        assert_int_equal(mh_index_find(&x, (uint64_t)i * 8, 7), (i % 2) ? i : 100 + i);
    mh_index_free(&x);
}

/* mh_index against a plain list of live (key, id) pairs: random inserts
 * and removes over a small key set (long probe chains, wrap-around at the
 * table's end, backward shifts across it), every key looked up after every
 * step.  Then two keys with the same tag and home slot: a tag match alone
 * must not answer. */
static void test_index_random(void **state)
{
    (void)state;
    enum { MAXID = 40, KEYS = 120 };
    uint64_t rng = 2024;
    for (int round = 0; round < 40; round++) {
        size_t max_ids = 1 + (size_t)(splitmix64(&rng) % MAXID);
        struct mh_index x;
        assert_int_equal(mh_index_init(&x, max_ids), 0);
        int32_t ref[KEYS]; /* id of key k, -1 absent */
        size_t live = 0;
        for (int k = 0; k < KEYS; k++)
            ref[k] = -1;
        for (int step = 0; step < 3000; step++) {
            int k = (int)(splitmix64(&rng) % KEYS);
            uint64_t a = (uint64_t)k * 0x10001, b = (uint64_t)(k % 7);
            if (ref[k] < 0 && live < max_ids) {
                ref[k] = (int32_t)(splitmix64(&rng) % 1000000);
                mh_index_insert(&x, a, b, ref[k]);
                live++;
            } else if (ref[k] >= 0) {
                mh_index_remove(&x, a, b);
                ref[k] = -1;
                live--;
            } else {
                mh_index_remove(&x, a, b); /* absent: no-op */
            }
            assert_int_equal(x.live, live);
            for (int j = 0; j < KEYS; j++)
                assert_int_equal(mh_index_find(&x, (uint64_t)j * 0x10001, (uint64_t)(j % 7)), ref[j]);
        }
        mh_index_clear(&x);
        assert_int_equal(x.live, 0);
        for (int j = 0; j < KEYS; j++)
            assert_int_equal(mh_index_find(&x, (uint64_t)j * 0x10001, (uint64_t)(j % 7)), -1);
        mh_index_free(&x);
    }

    struct mh_index x;
    assert_int_equal(mh_index_init(&x, 3), 0); /* 16 slots */
    static uint32_t seen[1 << 20];             /* (tag, home) -> key + 1 */
    uint64_t k1 = 0, k2 = 0;
    for (uint64_t k = 1; k < 100000 && !k2; k++) {
        uint64_t h = mh_index_hash(k, 0);
        uint32_t slot = (uint32_t)mh_index_tag(h) << 4 | (uint32_t)(h & x.mask);
        if (seen[slot]) {
            k1 = seen[slot] - 1;
            k2 = k;
        }
        seen[slot] = (uint32_t)k + 1;
    }
    assert_true(k2 != 0);
    mh_index_insert(&x, k1, 0, 5);
    assert_int_equal(mh_index_find(&x, k2, 0), -1);
    mh_index_insert(&x, k2, 0, 6);
    assert_int_equal(mh_index_find(&x, k1, 0), 5);
    assert_int_equal(mh_index_find(&x, k2, 0), 6);
    mh_index_remove(&x, k1, 0);
    assert_int_equal(mh_index_find(&x, k1, 0), -1);
    assert_int_equal(mh_index_find(&x, k2, 0), 6);
    mh_index_free(&x);
}

static void test_exact_table(void **state)
{
    (void)state;
    struct mh_exact_table t;
    assert_int_equal(mh_exact_init(&t, 100), 0);
    for (uint64_t i = 0; i < 100; i++)
        mh_exact_add(&t, i % 10, 1, 1);
    assert_int_equal(t.nused, 10);
    assert_int_equal(mh_exact_find(&t, 3, 1)->count, 10);
    assert_null(mh_exact_find(&t, 3, 2));
    mh_exact_add(&t, 3, 1, 5);
    assert_int_equal(mh_exact_find(&t, 3, 1)->count, 15);
    mh_exact_clear(&t);
    assert_int_equal(t.nused, 0);
    assert_null(mh_exact_find(&t, 3, 1));
    mh_exact_free(&t);
}

/* Figure 3 / formula (1) on a hand-made interval, T = 10:
 *   A f_p 20, f_h 25  neutral positive   |.| = 5
 *   B f_p 30, f_h 24  neutral negative   |.| = 6
 *   C f_p  4, f_h 12  false positive     |.| = 8
 *   D f_p 15, absent  false negative     |.| = 15
 *   E f_p  9, absent  don't care
 * denominator = 20 + 30 + 4 + 15 = 69 */
static void test_error_split(void **state)
{
    (void)state;
    struct mh_exact_table t;
    assert_int_equal(mh_exact_init(&t, 16), 0);
    mh_exact_add(&t, 'A', 0, 20);
    mh_exact_add(&t, 'B', 0, 30);
    mh_exact_add(&t, 'C', 0, 4);
    mh_exact_add(&t, 'D', 0, 15);
    mh_exact_add(&t, 'E', 0, 9);
    struct mh_err_interval it;
    mh_err_begin(&it);
    mh_err_hw(&it, &t, 'A', 0, 25, 10);
    mh_err_hw(&it, &t, 'B', 0, 24, 10);
    mh_err_hw(&it, &t, 'C', 0, 12, 10);
    mh_err_end(&it, &t, 10);
    assert_float_equal(it.part[MH_NP], 100.0 * 5 / 69, 1e-9);
    assert_float_equal(it.part[MH_NN], 100.0 * 6 / 69, 1e-9);
    assert_float_equal(it.part[MH_FP], 100.0 * 8 / 69, 1e-9);
    assert_float_equal(it.part[MH_FN], 100.0 * 15 / 69, 1e-9);
    assert_float_equal(it.error, 100.0 * 34 / 69, 1e-9);
    assert_int_equal(it.true_candidates, 3);
    assert_int_equal(it.hw_candidates, 3);
    assert_int_equal(it.distinct, 5);

    struct mh_err_sum sum;
    memset(&sum, 0, sizeof sum);
    mh_err_add(&sum, &it);
    struct mh_err_interval zero;
    mh_err_begin(&zero);
    mh_err_add(&sum, &zero);
    struct mh_source src = { 0, 0, 123, 4 };
    double out[MH_ERR_NMETRICS];
    mh_err_report(&sum, &src, out);
    assert_float_equal(out[0], 50.0 * 34 / 69, 1e-9); /* mean over 2 intervals */
    assert_float_equal(out[1] + out[2] + out[3] + out[4], out[0], 1e-9);
    assert_float_equal(out[5], 100.0 * 34 / 69, 1e-9);
    assert_float_equal(out[6], 2, 0);
    assert_float_equal(out[7], 123, 0);
    assert_float_equal(out[11], 4, 0);
    mh_exact_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_candidate_count), cmocka_unit_test(test_tuples),     cmocka_unit_test(test_hash),
        cmocka_unit_test(test_index), cmocka_unit_test(test_index_random),           cmocka_unit_test(test_exact_table), cmocka_unit_test(test_error_split),
        cmocka_unit_test(test_one_table),
    };
    return cmocka_run_group_tests_name("mh_common", tests, NULL, NULL);
}
