/* test_keycount.c - keycount's sort: above a few thousand entries it is a
 * radix sort over the bits that vary (above 64K entries, split by the top
 * varying bits first, each part then sorted on its own); the result must be
 * the (a, b) order qsort gives, with the same counts and prefix sums,
 * whatever bits vary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include "families/keycount.h"

static uint64_t rs = 5;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_ab(const void *pa, const void *pb)
{
    const struct keycount_entry *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

static void test_sort_orders(void **state)
{
    (void)state;
    /* which bits of a and b vary: all, a few low ones, high ones only, b only */
    const struct { uint64_t amask, bmask; size_t n; } cases[] = {
        { ~0ull, ~0ull, 50000 },         { 0xfff, 0, 4000 },          { 0xffffull << 40, 0xff, 30000 },
        { 0, ~0ull, 20000 },             { 0x8000000000000001ull, 0x3ull << 62, 4 }, { 0x7ff, 0x7ff << 11, 100000 },
        { 1ull << 40, ~0ull, 50000 },    { 0x3ull << 62, 0xfffff, 60000 }, /* large parts after the split */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct keycount *kc = keycount_create(0);
        size_t cap = 3 * cases[c].n;
        struct keycount_entry *ref = malloc(cap * sizeof *ref);
        size_t nref = 0;
        uint64_t total = 0;
        for (size_t i = 0; i < cap; i++) {
            uint64_t a = 0x1234567800000000ull ^ (rnd() & cases[c].amask), b = 0xabcull ^ (rnd() & cases[c].bmask);
            uint64_t w = 1 + rnd() % 5;
            keycount_add(kc, a, b, w);
            total += w;
            ref[nref++] = (struct keycount_entry){ a, b, w };
        }
        /* the reference: sort, then merge equal keys */
        qsort(ref, nref, sizeof *ref, cmp_ab);
        size_t m = 0;
        for (size_t i = 0; i < nref; i++) {
            if (m && ref[m - 1].a == ref[i].a && ref[m - 1].b == ref[i].b)
                ref[m - 1].count += ref[i].count;
            else
                ref[m++] = ref[i];
        }
        assert_int_equal(keycount_sort(kc), 0);
        assert_int_equal(keycount_distinct(kc), m);
        assert_int_equal(keycount_total(kc), total);
        for (size_t i = 0; i < m; i++)
            assert_memory_equal(keycount_entry(kc, i), &ref[i], sizeof *ref);
        /* prefix sums and lookups follow the order */
        for (int q = 0; q < 200 && m; q++) {
            size_t i = rnd() % m, j = i + rnd() % (m - i);
            uint64_t want = 0;
            for (size_t k = 0; k < m; k++)
                if (ref[k].a >= ref[i].a && ref[k].a <= ref[j].a)
                    want += ref[k].count;
            assert_int_equal(keycount_range(kc, ref[i].a, ref[j].a), want);
            assert_int_equal(keycount_get(kc, ref[i].a, ref[i].b), ref[i].count);
        }
        keycount_free(kc);
        free(ref);
    }
}

/* The sort leaves the slots as they were (queries search the sorted
 * entries); an add after it (allowed, if the table then is no longer in
 * order) or a clear finds its keys as before.  By hand: (5,0) x2, (9,0),
 * (7,0); sort; add (9,0) and (6,0); then clear and count (7,0) and (9,0)
 * again. */
static void test_after_sort(void **state)
{
    (void)state;
    for (int clear_first = 0; clear_first <= 1; clear_first++) {
        struct keycount *kc = keycount_create(0);
        keycount_add(kc, 5, 0, 2);
        keycount_add(kc, 9, 0, 1);
        keycount_add(kc, 7, 0, 1);
        assert_int_equal(keycount_sort(kc), 0);
        assert_int_equal(keycount_entry(kc, 0)->a, 5);
        assert_int_equal(keycount_entry(kc, 1)->a, 7);
        assert_int_equal(keycount_entry(kc, 2)->a, 9);
        assert_int_equal(keycount_range(kc, 6, 9), 2);
        assert_int_equal(keycount_get(kc, 9, 0), 1);
        if (clear_first) {
            keycount_clear(kc);
            keycount_prefetch(kc, 7, 0, 1);
            keycount_add(kc, 7, 0, 3);
            keycount_add(kc, 9, 0, 1);
            keycount_add(kc, 7, 0, 1);
            assert_int_equal(keycount_distinct(kc), 2);
            assert_int_equal(keycount_get(kc, 7, 0), 4);
            assert_int_equal(keycount_sort(kc), 0);
            assert_int_equal(keycount_range(kc, 0, 100), 5);
        } else {
            keycount_prefetch(kc, 9, 0, 1); /* a hint: nothing changes */
            keycount_add(kc, 9, 0, 2);      /* found again: 3 */
            keycount_add(kc, 6, 0, 1);      /* a new entry, at the end */
            assert_int_equal(keycount_distinct(kc), 4);
            assert_int_equal(keycount_entry(kc, 2)->a, 9);
            assert_int_equal(keycount_entry(kc, 2)->count, 3);
            assert_int_equal(keycount_entry(kc, 3)->a, 6);
            assert_int_equal(keycount_total(kc), 7);
        }
        keycount_free(kc);
    }
}

/* The index (tagged slots) against a plain reference: many keys, repeats
 * near and far, growth from the smallest table, prefetch hints on the way;
 * entries stay in first-occurrence order with their counts, and every key
 * (and some absent ones) looks up its count. */
static void test_index_vs_reference(void **state)
{
    (void)state;
    const size_t n = 400000, nkeys = 60000;
    struct keycount *kc = keycount_create(0);
    uint64_t *cnt = calloc(nkeys, sizeof *cnt);
    size_t *order = malloc(nkeys * sizeof *order), norder = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        size_t k = r % 3 ? (size_t)((r >> 8) % 50) : (size_t)((r >> 8) % nkeys);
        uint64_t a = k * 0x10001ull, b = k % 7; /* distinct pairs, with shared a's low bits */
        keycount_prefetch(kc, a, b, 1 + (int)(i % 2));
        assert_int_equal(keycount_add(kc, a, b, 1 + k % 3), 0);
        if (!cnt[k])
            order[norder++] = k;
        cnt[k] += 1 + k % 3;
    }
    assert_int_equal(keycount_distinct(kc), norder);
    for (size_t i = 0; i < norder; i++) {
        const struct keycount_entry *e = keycount_entry(kc, i);
        assert_int_equal(e->a, order[i] * 0x10001ull);
        assert_int_equal(e->b, order[i] % 7);
        assert_int_equal(e->count, cnt[order[i]]);
    }
    for (size_t k = 0; k < nkeys; k++)
        assert_int_equal(keycount_get(kc, k * 0x10001ull, k % 7), cnt[k]);
    assert_int_equal(keycount_get(kc, 3 * 0x10001ull, 4), 0); /* a absent with another b */
    keycount_free(kc);
    free(cnt);
    free(order);
}

/* keycount_adopt_sort (merged entries handed over, e.g. by stage
 * exact_keys) gives the table that adding them and sorting gives: same
 * entries in order, total, prefix sums and lookups, for few and many
 * entries, into an empty table or one that held other keys; adds after it
 * find the keys. */
static void test_adopt_sort(void **state)
{
    (void)state;
    const size_t sizes[] = { 0, 5, 63, 64, 3000, 70000 };
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int prefill = 0; prefill <= 1; prefill++) {
            size_t n = sizes[si];
            struct keycount *ref = keycount_create(0), *kc = keycount_create(0);
            if (prefill)
                for (int i = 0; i < 500; i++)
                    keycount_add(kc, rnd(), rnd(), 1);
            /* distinct keys, in a scrambled order */
            struct keycount_entry *e = malloc((n ? n : 1) * sizeof *e);
            for (size_t i = 0; i < n; i++) {
                e[i] = (struct keycount_entry){ (rnd() & 0xfff) << 20 | i, rnd() & 0xffffff, 1 + rnd() % 9 };
                keycount_add(ref, e[i].a, e[i].b, e[i].count);
            }
            assert_int_equal(keycount_sort(ref), 0);
            struct keycount_entry *scratch = prefill ? malloc((n ? n : 1) * sizeof *scratch) : NULL;
            assert_int_equal(keycount_adopt_sort(kc, e, n, scratch), 0);
            free(scratch);
            assert_true(keycount_sorted(kc));
            assert_int_equal(keycount_distinct(kc), n);
            assert_int_equal(keycount_total(kc), keycount_total(ref));
            for (size_t i = 0; i < n; i++)
                assert_memory_equal(keycount_entry(kc, i), keycount_entry(ref, i), sizeof *e);
            for (int q = 0; q < 100 && n; q++) {
                const struct keycount_entry *x = keycount_entry(ref, rnd() % n), *y = keycount_entry(ref, rnd() % n);
                uint64_t lo = x->a < y->a ? x->a : y->a, hi = x->a < y->a ? y->a : x->a;
                assert_int_equal(keycount_range(kc, lo, hi), keycount_range(ref, lo, hi));
                /* rectangles against the entries, b ranges covering all bs or not */
                uint64_t blo = q % 3 ? rnd() & 0xffffff : 0, bhi = q % 2 ? blo + (rnd() & 0xffffff) : UINT64_MAX;
                uint64_t want = 0;
                for (size_t k = 0; k < n; k++) {
                    const struct keycount_entry *z = keycount_entry(ref, k);
                    if (z->a >= lo && z->a <= hi && z->b >= blo && z->b <= bhi)
                        want += z->count;
                }
                assert_int_equal(keycount_rect(kc, lo, hi, blo, bhi), want);
                assert_int_equal(keycount_get(kc, x->a, x->b), x->count);
            }
            if (n) { /* counting again after the sort */
                const struct keycount_entry first = *keycount_entry(ref, 0);
                keycount_add(kc, first.a, first.b, 2);
                keycount_add(kc, 1ull << 63, 1, 1);
                assert_int_equal(keycount_get(kc, first.a, first.b), first.count + 2);
                assert_int_equal(keycount_get(kc, 1ull << 63, 1), 1);
                assert_int_equal(keycount_distinct(kc), n + 1);
            }
            keycount_free(ref);
            keycount_free(kc);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_orders),
        cmocka_unit_test(test_adopt_sort),
        cmocka_unit_test(test_after_sort),
        cmocka_unit_test(test_index_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
