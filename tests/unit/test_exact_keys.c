/* test_exact_keys.c - stage exact_keys through its descriptor: a filter
 * and key width by hand, and a stream of many address pairs (through the
 * front cache and the FIFO to the table many times over) against counts
 * kept by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include "families/keycount.h"
#include "stages/exact_keys.h"
#include "param_testutil.h"
#include "event_testutil.h"

static uint64_t rs = 7;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Feed n events, as the engine does, until the stage has taken them all
 * (it emits no records). */
static void feed_all(void *st, const struct event *in, size_t n)
{
    while (n) {
        struct chunk c = { NULL, 0, 0 };
        size_t k = exact_keys_stage.feed(st, in, n, &c);
        assert_true(k > 0);
        assert_int_equal(c.n, 0);
        in += k;
        n -= k;
    }
}

static void test_exact_keys_stage(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, exact_keys_stage.params);
    tu_set_enum(&pv, "filter", "zero_loads");
    tu_set_enum(&pv, "key", "address");
    pv_set_int(&pv, "key_bits", 12);
    char err[100];
    void *st = exact_keys_stage.create(&pv, err, sizeof err);
    const struct event in[] = {
        mkev(EV_LOAD, 1, 0x1010, 0, 8), mkev(EV_LOAD, 1, 0x2010, 0, 8), /* both 0x010 modulo 2^12 */
        mkev(EV_LOAD, 1, 0x030, 5, 8),  mkev(EV_LOAD, 1, 0x040, 0, 8),
        mkev(EV_STORE, 1, 0x050, 0, 8),
    };
    feed_all(st, in, 5);
    struct chunk c = { NULL, 0, 0 };
    exact_keys_stage.finish(st, &c);
    const struct keycount *kc = exact_keys_stage.shared(st);
    assert_true(keycount_sorted(kc));
    assert_int_equal(keycount_total(kc), 3);
    assert_int_equal(keycount_distinct(kc), 2);
    assert_int_equal(keycount_range(kc, 0x10, 0x10), 2);
    assert_int_equal(keycount_range(kc, 0x11, 0xfff), 1);
    exact_keys_stage.free(st);
}

static int cmp_pair(const void *pa, const void *pb)
{
    const uint64_t *a = pa, *b = pb;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Pairs enough to pass through the front cache and the FIFO to the table
 * many times over (a key set larger than the cache, with repeats near and
 * far), fed in random pieces: the table after finish must hold every pair
 * once with its count. */
static void test_exact_keys_vs_reference(void **state)
{
    (void)state;
    struct param_values pv;
    params_defaults(&pv, exact_keys_stage.params);
    tu_set_enum(&pv, "filter", "loads");
    tu_set_enum(&pv, "key", "pc");
    tu_set_enum(&pv, "key2", "address");
    char err[100];
    void *st = exact_keys_stage.create(&pv, err, sizeof err);
    assert_non_null(st);
    const size_t n = 300000;
    struct event *in = malloc(n * sizeof *in);
    uint64_t (*ref)[2] = malloc(n * sizeof *ref);
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        /* a hot set of 64 pairs, a warm one of 20000, and a stream of new ones */
        uint64_t k = r % 4 == 0 ? (r >> 8) % 64 : r % 4 == 1 ? i : (r >> 8) % 20000;
        int kind = (r >> 40) % 8 == 0 ? EV_STORE : EV_LOAD;
        in[i] = mkev(kind, 0x400000 + (k % 977) * 4, 0x7f0000000000ull + k * 8, 0, 8);
        if (kind == EV_LOAD) {
            ref[nl][0] = in[i].pc;
            ref[nl][1] = in[i].addr;
            nl++;
        }
    }
    for (size_t i = 0; i < n;) {
        size_t piece = 1 + rnd() % 5000;
        if (piece > n - i)
            piece = n - i;
        feed_all(st, in + i, piece);
        i += piece;
    }
    struct chunk c = { NULL, 0, 0 };
    exact_keys_stage.finish(st, &c);
    const struct keycount *kc = exact_keys_stage.shared(st);
    qsort(ref, nl, sizeof *ref, cmp_pair);
    size_t d = 0;
    for (size_t i = 0; i < nl;) {
        size_t j = i;
        while (j < nl && ref[j][0] == ref[i][0] && ref[j][1] == ref[i][1])
            j++;
        const struct keycount_entry *e = keycount_entry(kc, d++);
        assert_non_null(e);
        assert_int_equal(e->a, ref[i][0]);
        assert_int_equal(e->b, ref[i][1]);
        assert_int_equal(e->count, j - i);
        i = j;
    }
    assert_true(d > 20000); /* the table was far larger than the front cache */
    assert_int_equal(keycount_distinct(kc), d);
    assert_int_equal(keycount_total(kc), nl);
    exact_keys_stage.free(st);
    free(in);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_keys_stage),
        cmocka_unit_test(test_exact_keys_vs_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
