/* test_hhh_ss.c - hierarchical heavy hitters with Space-Saving: the
 * conditioned-count rule on a hand-computed stream, Space-Saving's bounds
 * (and its index surviving evictions) against exact counts, the
 * randomized variant finding a heavy key, the tables against a reference
 * with either sort of the minima (vector registers or scalar), the vector
 * sort itself (hhh_sort.h), and the run ends of a batch, found eight keys
 * at a time or one by one (hhh_runs.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include "families/hhh_runs.h"
#include "families/hhh_sort.h"
#include "families/hhh_ss.h"
#include "families/keycount.h"

static struct hhh *mk(unsigned bits, unsigned stride, uint64_t entries, int variant)
{
    struct hhh_cfg c = { bits, stride, entries, variant, 1 };
    char err[200];
    struct hhh *h = hhh_create(&c, err, sizeof err);
    if (!h)
        fail_msg("%s", err);
    return h;
}

/* 4-bit keys, b = 2 (5 levels), enough entries to count exactly; 10 x6, 3 x2.
 * hot 30% (2.4): [10] (6) is an HHH; [10,11] and every range above it are
 * left with 0 after subtracting it, [2,3] and the root with 2.
 * hot 20% (1.6): [3] (2) too; [2,3] then keeps 0 and the root 8 - 6 - 2 = 0. */
static void test_by_hand(void **state)
{
    (void)state;
    const uint64_t s[] = { 10, 10, 10, 10, 10, 10, 3, 3 };
    struct hhh *h = mk(4, 1, 5 * 16, HHH_MST);
    assert_int_equal(hhh_levels(h), 5);
    assert_int_equal(hhh_entries_per_level(h), 16);
    for (int i = 0; i < 8; i++)
        hhh_add(h, s[i]);
    struct hhh_range *r;
    assert_int_equal(hhh_query(h, 0.30, &r), 1);
    assert_int_equal(r[0].lo, 10);
    assert_int_equal(r[0].hi, 10);
    assert_int_equal(r[0].estimate, 6);
    assert_true(r[0].conditioned == 6);
    free(r);
    assert_int_equal(hhh_query(h, 0.20, &r), 2);
    assert_int_equal(r[0].lo, 3);
    assert_int_equal(r[0].hi, 3);
    assert_int_equal(r[0].plen, 4);
    assert_int_equal(r[0].estimate, 2);
    assert_int_equal(r[1].lo, 10);
    free(r);
    hhh_free(h);
    /* 10 x6, 2, 3 at 20%: neither 2 nor 3 alone (1), but [2,3] (2) is */
    const uint64_t s2[] = { 10, 2, 10, 10, 3, 10, 10, 10 };
    h = mk(4, 1, 5 * 16, HHH_MST);
    for (int i = 0; i < 8; i++)
        hhh_add(h, s2[i]);
    assert_int_equal(hhh_query(h, 0.20, &r), 2);
    assert_int_equal(r[0].lo, 2);
    assert_int_equal(r[0].hi, 3);
    assert_int_equal(r[0].plen, 3);
    assert_true(r[0].conditioned == 2);
    free(r);
    hhh_free(h);
    char err[100];
    struct hhh_cfg bad = { 32, 2, 3, HHH_MST, 0 };
    assert_null(hhh_create(&bad, err, sizeof err)); /* fewer entries than levels */
}

static uint64_t rs = 11;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Space-Saving at every level: estimates are upper bounds, lower bounds are
 * lower bounds, both within n / m of the exact count of the range; the
 * heavy ranges of a skewed stream are found.  Many evictions exercise the
 * index's deletion. */
static void test_space_saving_bounds(void **state)
{
    (void)state;
    const unsigned bits = 20, stride = 2;
    const uint64_t per = 64;
    struct hhh *h = mk(bits, stride, per * 11, HHH_MST);
    struct keycount *kc = keycount_create(0);
    const uint64_t n = 100000;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        uint64_t key = r % 10 < 3 ? 0x12345 : r % 10 < 5 ? 0x80000 + (r >> 40) % 1024 : (r >> 20) & 0xfffff;
        hhh_add(h, key);
        keycount_add(kc, key, 0, 1);
    }
    keycount_sort(kc);
    struct hhh_range *r;
    size_t nh = hhh_query(h, 0.05, &r);
    assert_true(nh >= 2);
    int single = 0, cluster = 0;
    for (size_t i = 0; i < nh; i++) {
        uint64_t exact = keycount_range(kc, r[i].lo, r[i].hi);
        assert_true(r[i].estimate >= exact);
        assert_true(r[i].lower <= exact);
        assert_true(r[i].estimate - exact <= n / per);
        single |= r[i].lo == 0x12345 && r[i].hi == 0x12345;
        cluster |= r[i].lo >= 0x80000 && r[i].hi <= 0x80fff && r[i].lo <= 0x80000 && r[i].hi >= 0x803ff;
        if (i)
            assert_true(r[i - 1].lo < r[i].lo || (r[i - 1].lo == r[i].lo && r[i - 1].plen < r[i].plen));
    }
    assert_true(single);
    assert_true(cluster);
    free(r);
    hhh_free(h);
    keycount_free(kc);
}

/* RHHH: one level per event, counts scaled; a 30% key is found. */
static void test_rhhh(void **state)
{
    (void)state;
    struct hhh *h = mk(16, 2, 9 * 32, HHH_RHHH);
    for (uint64_t i = 0; i < 400000; i++) {
        uint64_t r = rnd();
        hhh_add(h, r % 10 < 3 ? 0xbeef : r >> 48);
    }
    struct hhh_range *r;
    size_t nh = hhh_query(h, 0.10, &r);
    int found = 0;
    for (size_t i = 0; i < nh; i++)
        if (r[i].lo == 0xbeef && r[i].hi == 0xbeef) {
            found = 1;
            assert_true(r[i].estimate > 110000 && r[i].estimate < 130000);
        }
    assert_true(found);
    assert_int_equal(hhh_events(h), 400000);
    free(r);
    hhh_free(h);
}

/* ---- the tables against a plain Space-Saving ------------------------------- */

/* Space-Saving as the paper states it, one unit update at a time: a key in
 * the table adds 1; a new key takes the next free entry, or else the entry
 * with the least count (ties: the least key) and starts at its count + 1
 * with that count as its error.  Linear searches, nothing clever. */
struct ref_ss {
    uint32_t m, n;
    uint64_t key[512], cnt[512], err[512];
};

static void ref_add(struct ref_ss *r, uint64_t key)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (r->key[i] == key) {
            r->cnt[i]++;
            return;
        }
    if (r->n < r->m) {
        r->key[r->n] = key;
        r->cnt[r->n] = 1;
        r->err[r->n] = 0;
        r->n++;
        return;
    }
    uint32_t min = 0;
    for (uint32_t i = 1; i < r->n; i++)
        if (r->cnt[i] < r->cnt[min] || (r->cnt[i] == r->cnt[min] && r->key[i] < r->key[min]))
            min = i;
    r->err[min] = r->cnt[min];
    r->cnt[min]++;
    r->key[min] = key;
}

/* The hierarchy by hand: every level every event (mst), or the one level
 * RHHH draws (the same xorshift64* as hhh_ss.c, seed ^ 0x9e3779b97f4a7c15). */
struct ref_hhh {
    unsigned bits, k, levels;
    int variant;
    uint64_t rng;
    struct ref_ss *t;
};

static struct ref_hhh *ref_mk(unsigned bits, unsigned stride, uint64_t entries, int variant, uint64_t seed)
{
    struct ref_hhh *r = calloc(1, sizeof *r);
    r->bits = bits;
    r->k = stride;
    r->levels = (bits + stride - 1) / stride + 1;
    r->variant = variant;
    r->rng = seed ^ 0x9e3779b97f4a7c15ull;
    r->t = calloc(r->levels, sizeof *r->t);
    for (unsigned l = 0; l < r->levels; l++) {
        r->t[l].m = (uint32_t)(entries / r->levels);
        assert_true(r->t[l].m <= 512);
    }
    return r;
}

static uint64_t ref_prefix(const struct ref_hhh *r, uint64_t key, unsigned l)
{
    unsigned plen = l * r->k < r->bits ? l * r->k : r->bits, drop = r->bits - plen;
    return drop >= 64 ? 0 : key >> drop;
}

static void ref_hadd(struct ref_hhh *r, uint64_t key)
{
    if (r->bits < 64)
        key &= (1ull << r->bits) - 1;
    if (r->variant == HHH_RHHH) {
        r->rng ^= r->rng >> 12;
        r->rng ^= r->rng << 25;
        r->rng ^= r->rng >> 27;
        uint64_t x = r->rng * 0x2545f4914f6cdd1dull;
        unsigned l = (unsigned)(((x >> 32) * r->levels) >> 32);
        ref_add(&r->t[l], ref_prefix(r, key, l));
        return;
    }
    for (unsigned l = 0; l < r->levels; l++)
        ref_add(&r->t[l], ref_prefix(r, key, l));
}

/* Every level's table, entry by entry (same ids), equals the reference's. */
static void assert_same_tables(struct hhh *h, const struct ref_hhh *r)
{
    uint64_t key[512], cnt[512], err[512];
    assert_int_equal(hhh_levels(h), r->levels);
    for (unsigned l = 0; l < r->levels; l++) {
        size_t n = hhh_table(h, l, key, cnt, err);
        assert_int_equal(n, r->t[l].n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(key[i], r->t[l].key[i]);
            assert_int_equal(cnt[i], r->t[l].cnt[i]);
            assert_int_equal(err[i], r->t[l].err[i]);
        }
    }
}

/* By hand: 2-bit keys, b = 2 (levels of 0, 1, 2 bits), 2 entries per level.
 *   0 0 3 2 2 2 1: full keys (runs 0x2, 3, 2x3, 1): 0 takes id 0 (count 2),
 *     3 id 1 (1); 2 evicts the minimum 3 (count 1: error 1, count 1 + 3);
 *     1 evicts 0 (count 2 < 4: error 2, count 3).  Level 1 (0 0 1 1 1 1 0):
 *     id 0 prefix 0 count 3, id 1 prefix 1 count 4; the root counts 7.
 *   3 1 2: 3 and 1 tie at count 1; the least key, 1, is evicted by 2. */
static void test_tables_by_hand(void **state)
{
    (void)state;
    uint64_t key[4], cnt[4], err[4];
    struct hhh *h = mk(2, 1, 6, HHH_MST);
    const uint64_t s1[] = { 0, 0, 3, 2, 2, 2, 1 };
    for (int i = 0; i < 7; i++)
        hhh_add(h, s1[i]);
    assert_int_equal(hhh_table(h, 2, key, cnt, err), 2);
    assert_int_equal(key[0], 1);
    assert_int_equal(cnt[0], 3);
    assert_int_equal(err[0], 2);
    assert_int_equal(key[1], 2);
    assert_int_equal(cnt[1], 4);
    assert_int_equal(err[1], 1);
    assert_int_equal(hhh_table(h, 1, key, cnt, err), 2);
    assert_int_equal(key[0], 0);
    assert_int_equal(cnt[0], 3);
    assert_int_equal(err[0], 0);
    assert_int_equal(key[1], 1);
    assert_int_equal(cnt[1], 4);
    assert_int_equal(hhh_table(h, 0, key, cnt, err), 1);
    assert_int_equal(cnt[0], 7);
    hhh_free(h);
    h = mk(2, 1, 6, HHH_MST);
    hhh_add(h, 3);
    hhh_add(h, 1);
    hhh_add(h, 2);
    assert_int_equal(hhh_table(h, 2, key, cnt, err), 2);
    assert_int_equal(key[0], 3);
    assert_int_equal(cnt[0], 1);
    assert_int_equal(key[1], 2);
    assert_int_equal(cnt[1], 2);
    assert_int_equal(err[1], 1);
    hhh_free(h);
}

/* Runs, lazy counts and count buckets change nothing: random streams
 * (clustered keys, long runs that move counts past the buckets' window,
 * few entries so that most updates evict) give the reference's tables at
 * every check, and checking (a flush) mid-stream changes nothing either. */
static void tables_vs_reference(void)
{
    const struct { unsigned bits, stride; uint64_t entries; int variant; } cases[] = {
        { 20, 2, 11 * 8, HHH_MST }, { 64, 2, 33 * 4, HHH_MST }, { 64, 4, 17 * 64, HHH_MST }, { 8, 1, 9 * 3, HHH_MST },
        { 12, 16, 2 * 100, HHH_MST }, { 32, 3, 12 * 40, HHH_MST }, { 64, 2, 33 * 8, HHH_RHHH }, { 16, 1, 17 * 5, HHH_RHHH },
        /* more than 128 entries a level: an index of 4 slots an entry, not 16 */
        { 20, 2, 11 * 140, HHH_MST }, { 64, 4, 17 * 130, HHH_MST },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct hhh_cfg cfg = { cases[c].bits, cases[c].stride, cases[c].entries, cases[c].variant, 3 + c };
        char e[200];
        struct hhh *h = hhh_create(&cfg, e, sizeof e);
        assert_non_null(h);
        struct ref_hhh *r = ref_mk(cases[c].bits, cases[c].stride, cases[c].entries, cases[c].variant, 3 + c);
        rs = 100 + c;
        uint64_t key = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t x = rnd();
            switch (x % 8) {
            case 0: /* a long run: counts far past the buckets */
                if (x % 64 == 0) {
                    for (uint64_t k = 0; k < 300 + (x >> 50); k++) {
                        hhh_add(h, key);
                        ref_hadd(r, key);
                    }
                    continue;
                }
                break;
            case 1:
            case 2: /* a neighbour: shares the top bits */
                key += (x >> 20) % 64;
                break;
            case 3: /* one of a few hot keys */
                key = 0x400000 + ((x >> 32) % 8) * 0x40;
                break;
            case 7: /* all ones beside 0: the key free slots hold, where a level has one */
                if (x % 3 == 0) {
                    key = (x >> 13) % 2 ? ~0ull : 0;
                    break;
                }
                /* fall through */
            default: /* anything */
                key = (x >> 11) % 5 ? rnd() : rnd() & 0xffff;
                break;
            }
            uint64_t reps = (x >> 40) % 4 == 0 ? 1 + (x >> 44) % 5 : 1;
            if (c % 2 && cases[c].variant == HHH_RHHH) {
                /* handed over in place (hhh_keys_space), masked by the caller */
                size_t room;
                uint64_t *d = hhh_keys_space(h, &room);
                assert_true(room >= reps);
                for (uint64_t k = 0; k < reps; k++)
                    d[k] = cases[c].bits < 64 ? key & ((1ull << cases[c].bits) - 1) : key;
                hhh_keys_done(h, reps);
                for (uint64_t k = 0; k < reps; k++)
                    ref_hadd(r, key);
                continue;
            }
            for (uint64_t k = 0; k < reps; k++) {
                hhh_add(h, key);
                ref_hadd(r, key);
            }
            if (i % 2999 == 0)
                assert_same_tables(h, r);
        }
        assert_same_tables(h, r);
        hhh_free(h);
        free(r->t);
        free(r);
    }
}

/* The batches (4096 keys, applied level by level) change nothing, nor does
 * handing the keys over in chunks (hhh_add_keys) or writing them in place
 * (hhh_keys_space, up to a chunk at a time, also right after a flush): streams
 * of 30,000 keys, with a check (a flush) that falls inside a batch, give
 * the reference's tables.  Two tables sort their minima in the two ways:
 * code-like keys within a few varying bits (one 64-bit word per entry) and
 * values spread over all 64 bits (whole keys, e.g. -1 beside 0); the last
 * has tables large enough that dozens of minima are sorted at once. */
static void batches_vs_reference(void)
{
    const struct { unsigned bits, stride; uint64_t entries; int wide; } cases[] = {
        { 64, 2, 33 * 6, 0 }, { 64, 2, 33 * 6, 1 }, { 48, 4, 13 * 20, 1 }, { 64, 8, 9 * 3, 1 },
        /* the bench's table (bytes 65536): minima sorted in runs of 8 and their merges, with tails */
        { 64, 2, 33 * 124, 0 }, { 64, 2, 33 * 124, 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct hhh_cfg cfg = { cases[c].bits, cases[c].stride, cases[c].entries, HHH_MST, 1 };
        char e[200];
        struct hhh *h = hhh_create(&cfg, e, sizeof e);
        assert_non_null(h);
        struct ref_hhh *r = ref_mk(cases[c].bits, cases[c].stride, cases[c].entries, HHH_MST, 1);
        rs = 500 + c;
        uint64_t key = 0x401000;
        /* case c % 3: 0 hhh_add, 1 chunks of 1 to 300 (hhh_add_keys), 2 in
         * place, as many at a time (hhh_keys_space) */
        const int how = (int)(c % 3);
        const uint64_t mask = cases[c].bits < 64 ? (1ull << cases[c].bits) - 1 : ~0ull;
        uint64_t buf[300], *space = NULL;
        size_t nbuf = 0, chunk = 1, room = 0;
        for (int i = 0; i < 30000; i++) {
            uint64_t x = rnd();
            if (cases[c].wide)
                key = x % 3 == 0 ? ~0ull - (x >> 58) : x % 3 == 1 ? (x >> 60) : key + (x >> 62);
            else
                key = x % 4 == 0 ? 0x401000 + (x >> 40) % 4096 : key + 4 * ((x >> 50) % 8);
            if (how == 1) {
                buf[nbuf++] = key;
                if (nbuf == chunk) {
                    hhh_add_keys(h, buf, nbuf);
                    nbuf = 0;
                    chunk = 1 + (x >> 7) % 300;
                }
            } else if (how == 2) {
                if (!space) {
                    space = hhh_keys_space(h, &room);
                    assert_true(room >= 1);
                    room = room < chunk ? room : chunk;
                }
                space[nbuf++] = key & mask;
                if (nbuf == room) {
                    hhh_keys_done(h, nbuf);
                    nbuf = 0;
                    space = NULL;
                    chunk = 1 + (x >> 7) % 300;
                }
            } else {
                hhh_add(h, key);
            }
            ref_hadd(r, key);
            if (i == 5000 || i == 12345) {
                if (how == 2)
                    hhh_keys_done(h, nbuf);
                else
                    hhh_add_keys(h, buf, nbuf);
                nbuf = 0;
                space = NULL;
                assert_same_tables(h, r);
            }
        }
        if (how == 2)
            hhh_keys_done(h, nbuf);
        else
            hhh_add_keys(h, buf, nbuf);
        assert_same_tables(h, r);
        assert_int_equal(hhh_events(h), 30000);
        hhh_free(h);
        free(r->t);
        free(r);
    }
}

/* Both ways of sorting the minima: the vector sort where the processor
 * has it, and the scalar one (every machine). */
static void test_tables_vs_reference(void **state)
{
    (void)state;
    for (int scalar = 0; scalar < 2; scalar++) {
        hhh_sort_force_scalar(scalar);
        tables_vs_reference();
    }
    hhh_sort_force_scalar(0);
}

static void test_batches_vs_reference(void **state)
{
    (void)state;
    for (int scalar = 0; scalar < 2; scalar++) {
        hhh_sort_force_scalar(scalar);
        hhh_runs_force_scalar(scalar);
        batches_vs_reference();
    }
    hhh_sort_force_scalar(0);
    hhh_runs_force_scalar(0);
}

/* hhh_run_ends, eight keys at a time where the processor can and one by
 * one: for every stride and several key widths, batches of every length
 * up to 40 and of 4096 (runs of equal keys, neighbours, keys differing in
 * the top bit or the lowest), the words computed here from the
 * definition - the common top bits c of two keys, then level c / stride +
 * 1 - in order, and nothing else. */
static void test_run_ends(void **state)
{
    (void)state;
    static uint64_t kb[4097];
    static uint32_t rl[4096 + 8], want[4096];
    const unsigned widths[] = { 1, 7, 12, 20, 32, 48, 63, 64 };
    rs = 77;
    for (unsigned stride = 1; stride <= 16; stride++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            const unsigned bits = widths[w];
            const uint64_t mask = bits < 64 ? (1ull << bits) - 1 : ~0ull;
            for (uint32_t nb = 0; nb <= 4096; nb = nb < 40 ? nb + 1 : 4096 + (nb == 4096)) {
                kb[0] = rnd() & mask;
                for (uint32_t i = 1; i <= nb; i++) {
                    uint64_t x = rnd();
                    kb[i] = (x % 4 == 0   ? kb[i - 1]
                             : x % 4 == 1 ? kb[i - 1] ^ (1ull << ((x >> 8) % bits))
                             : x % 4 == 2 ? kb[i - 1] + (x >> 60)
                                          : rnd()) &
                            mask;
                }
                uint32_t nw = 0;
                for (uint32_t i = 1; i <= nb; i++) {
                    uint64_t d = kb[i] ^ kb[i - 1];
                    if (!d)
                        continue;
                    unsigned c = 0; /* top bits in common, of bits */
                    while (c < bits && !((d >> (bits - 1 - c)) & 1))
                        c++;
                    want[nw++] = i << 8 | (c / stride + 1);
                }
                for (int scalar = 0; scalar < 2; scalar++) {
                    hhh_runs_force_scalar(scalar);
                    uint32_t nr = hhh_run_ends(kb, nb, bits - 64, stride, rl);
                    assert_int_equal(nr, nw);
                    for (uint32_t i = 0; i < nr; i++)
                        assert_int_equal(rl[i], want[i]);
                }
            }
        }
    hhh_runs_force_scalar(0);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* hhh_sort_small: every length up to 128 (each number of registers, full
 * or not), words with repeats, all ones, and the highest bit set, sorted
 * as qsort sorts them, nothing written past n; 129 words are left to the
 * caller, and so is everything when forced scalar.  On a processor without
 * AVX-512F it declines every array (checked too). */
static void test_vector_sort(void **state)
{
    (void)state;
    uint64_t a[140], b[140];
    rs = 77;
    int vec = hhh_sort_small(a, 0);
    for (uint32_t n = 0; n <= 128; n++)
        for (int rep = 0; rep < 40; rep++) {
            for (uint32_t i = 0; i < n; i++) {
                uint64_t x = rnd();
                a[i] = rep % 4 == 0 ? x % 7 : rep % 4 == 1 ? ~0ull - x % 3 : rep % 4 == 2 ? x >> (x % 64) : x;
            }
            for (uint32_t i = n; i < 140; i++)
                a[i] = 0x5a5a5a5a5a5a5a5aull;
            memcpy(b, a, sizeof a);
            assert_int_equal(hhh_sort_small(a, n), vec);
            if (!vec) {
                assert_memory_equal(a, b, sizeof a);
                continue;
            }
            qsort(b, n, sizeof *b, cmp_u64);
            assert_memory_equal(a, b, sizeof a);
        }
    for (uint32_t i = 0; i < 129; i++)
        a[i] = 129 - i;
    assert_int_equal(hhh_sort_small(a, 129), 0);
    assert_int_equal(a[0], 129);
    hhh_sort_force_scalar(1);
    assert_int_equal(hhh_sort_small(a, 5), 0);
    assert_int_equal(a[0], 129);
    hhh_sort_force_scalar(0);
    if (!vec)
        print_message("no AVX-512F here: only the scalar sort was checked\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_space_saving_bounds),
        cmocka_unit_test(test_rhhh),
        cmocka_unit_test(test_tables_by_hand),
        cmocka_unit_test(test_tables_vs_reference),
        cmocka_unit_test(test_batches_vs_reference),
        cmocka_unit_test(test_vector_sort),
        cmocka_unit_test(test_run_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
