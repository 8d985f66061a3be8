/* test_rap2d.c - two-dimensional RAP: the interleaved key, rectangles of a
 * hand-built tree, and the eps guarantee on rectangles against exact pair
 * counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include "families/keycount.h"
#include "families/rap2d_tree.h"

static void test_key(void **state)
{
    (void)state;
    uint64_t hi, lo, x, y;
    rap2d_key(4, 0xa, 0x6, &hi, &lo);
    assert_int_equal(hi, 0);
    assert_int_equal(lo, 0x9c); /* x3 y3 x2 y2 x1 y1 x0 y0 = 1001 1100 */
    rap2d_key(64, 0x8000000000000001ull, 0x3ull << 62, &hi, &lo);
    assert_int_equal(hi, 0xd000000000000000ull); /* x63 y63 (x62 = 0) y62 */
    assert_int_equal(lo, 2);                     /* x0 */
    rap2d_unkey(64, hi, lo, &x, &y);
    assert_int_equal(x, 0x8000000000000001ull);
    assert_int_equal(y, 0x3ull << 62);
    rap2d_key(8, 0x1ff, 0, &hi, &lo); /* coordinates are taken modulo 2^bits */
    rap2d_unkey(8, hi, lo, &x, &y);
    assert_int_equal(x, 0xff);
}

/* The byte-table interleave against the definition, bit by bit: bit i of
 * x (taken modulo 2^bits) is bit 2i + 1 of the 128-bit key, bit i of y is
 * bit 2i; and unkey inverts it. */
static void test_key_vs_bits(void **state)
{
    (void)state;
    uint64_t s = 77;
    const unsigned widths[] = { 1, 7, 8, 31, 32, 33, 48, 63, 64 };
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
        for (int i = 0; i < 2000; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t x = s ^ (s >> 29), y = s * 0x9e3779b97f4a7c15ull;
            unsigned bits = widths[wi];
            uint64_t mx = bits < 64 ? x & ((1ull << bits) - 1) : x, my = bits < 64 ? y & ((1ull << bits) - 1) : y;
            uint64_t whi = 0, wlo = 0;
            for (unsigned b = 0; b < 64; b++) {
                uint64_t bx = (mx >> b) & 1, by = (my >> b) & 1;
                unsigned px = 2 * b + 1, py = 2 * b;
                if (px < 64)
                    wlo |= bx << px;
                else
                    whi |= bx << (px - 64);
                if (py < 64)
                    wlo |= by << py;
                else
                    whi |= by << (py - 64);
            }
            uint64_t hi, lo, ux, uy;
            rap2d_key(bits, x, y, &hi, &lo);
            assert_int_equal(hi, whi);
            assert_int_equal(lo, wlo);
            rap2d_unkey(bits, hi, lo, &ux, &uy);
            assert_int_equal(ux, mx);
            assert_int_equal(uy, my);
        }
}

struct rects {
    struct rap_rect r[64];
    uint64_t count[64];
    size_t n;
};

static void rect_fn(void *ctx, const struct rap_span *s)
{
    struct rects *rs = ctx;
    rap2d_span_rect(2, s, &rs->r[rs->n]);
    rs->count[rs->n++] = s->count;
}

/* 2-bit coordinates, stride 1 (b = 4), eps = 1: L = 2, thr(n) = floor(n / 2).
 * Three events at (3, 0): the root splits (n=1) into quadrants; the quadrant
 * x in [2,3], y in [0,1] counts 1 (n=2, thr 1) then 2 > 1 and splits into cells. */
static void test_quadtree_by_hand(void **state)
{
    (void)state;
    struct rap_tree_cfg c = { 0, 0, 1.0, 2.0, 0, 0, 0, RAP_SPLIT_AFTER };
    char err[100];
    struct rap_tree *t = rap2d_create(2, 1, &c, err, sizeof err);
    assert_non_null(t);
    for (int i = 0; i < 3; i++)
        rap2d_add(t, 2, 3, 0, 1);
    struct rects rs = { .n = 0 };
    assert_int_equal(rap_tree_walk(t, 0, rect_fn, &rs), 9);
    const struct rap_rect want[9] = {
        { 0, 3, 0, 3 }, { 0, 1, 0, 1 }, { 0, 1, 2, 3 }, { 2, 3, 0, 1 }, { 2, 2, 0, 0 },
        { 2, 2, 1, 1 }, { 3, 3, 0, 0 }, { 3, 3, 1, 1 }, { 2, 3, 2, 3 },
    };
    const uint64_t wantc[9] = { 1, 0, 0, 2, 0, 0, 0, 0, 0 };
    for (int i = 0; i < 9; i++) {
        assert_int_equal(rs.r[i].xlo, want[i].xlo);
        assert_int_equal(rs.r[i].xhi, want[i].xhi);
        assert_int_equal(rs.r[i].ylo, want[i].ylo);
        assert_int_equal(rs.r[i].yhi, want[i].yhi);
        assert_int_equal(rs.count[i], wantc[i]);
    }
    rap_tree_free(t);
    assert_null(rap2d_create(65, 1, &c, err, sizeof err));
    assert_null(rap2d_create(32, 9, &c, err, sizeof err));
}

struct g2 {
    const struct keycount *kc;
    unsigned bits;
    uint64_t n, thr;
    size_t checked;
};

static void g2_fn(void *ctx, const struct rap_span *s)
{
    struct g2 *g = ctx;
    struct rap_rect r;
    rap2d_span_rect(g->bits, s, &r);
    uint64_t exact = keycount_rect(g->kc, r.xlo, r.xhi, r.ylo, r.yhi);
    assert_true(s->total <= exact);
    assert_true(exact - s->total <= (uint64_t)s->depth * (g->thr + 1));
    g->checked++;
}

static uint64_t rs = 77;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Code x data: a few hot code regions touching their own data regions, and noise. */
static void test_guarantee_2d(void **state)
{
    (void)state;
    const unsigned bitss[] = { 16, 48, 64 };
    for (int bi = 0; bi < 3; bi++)
        for (unsigned stride = 1; stride <= 2; stride++) {
            unsigned bits = bitss[bi];
            struct rap_tree_cfg c = { 0, 0, 0.02, 2.0, 1024, 0, 0, RAP_SPLIT_AFTER };
            char err[100];
            struct rap_tree *t = rap2d_create(bits, stride, &c, err, sizeof err);
            assert_non_null(t);
            struct keycount *kc = keycount_create(0);
            uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
            for (int i = 0; i < 40000; i++) {
                uint64_t r = rnd(), x, y;
                switch (r % 4) {
                case 0: x = 0x4010 + (r >> 60); y = 0x8000 + (r >> 50) % 64; break;
                case 1: x = 0x4200 + (r >> 61); y = (r >> 20) & mask; break;
                case 2: x = (r >> 12) & mask; y = 0x10; break;
                default: x = rnd() & mask; y = rnd() & mask; break;
                }
                x &= mask;
                y &= mask;
                rap2d_add(t, bits, x, y, 1);
                keycount_add(kc, x, y, 1);
            }
            assert_int_equal(keycount_sort(kc), 0);
            struct rap_tree_stats st;
            rap_tree_stats(t, &st);
            struct g2 g = { kc, bits, st.n, st.threshold, 0 };
            assert_int_equal(rap_tree_walk(t, 0, g2_fn, &g), st.nodes);
            assert_int_equal(g.checked, st.nodes);
            assert_int_equal(st.levels, (bits + stride - 1) / stride);
            /* the hot cluster (x 0x4010.., y 0x8000.., a quarter of the events)
             * is found as narrow hot rectangles holding nearly all of it */
            struct rap_span *h;
            size_t nh = rap_tree_hot(t, 0.10, &h);
            uint64_t inside = 0;
            for (size_t i = 0; i < nh; i++) {
                struct rap_rect r;
                rap2d_span_rect(bits, &h[i], &r);
                if (r.xlo >= 0x4000 && r.xhi <= 0x40ff && r.ylo >= 0x8000 && r.yhi <= 0x80ff)
                    inside += h[i].total;
            }
            assert_true(inside >= 9000);
            free(h);
            keycount_free(kc);
            rap_tree_free(t);
        }
}


/* Every node of a tree as a span (pre-order), for comparing trees. */
struct spans {
    struct rap_span s[1 << 16];
    size_t n;
};

static void span_fn(void *ctx, const struct rap_span *s)
{
    struct spans *sp = ctx;
    if (sp->n < sizeof sp->s / sizeof *sp->s)
        sp->s[sp->n] = *s;
    sp->n++;
}

static void assert_same_tree(const struct rap_tree *a, const struct rap_tree *b)
{
    static struct spans sa, sb;
    sa.n = sb.n = 0;
    rap_tree_walk(a, 0, span_fn, &sa);
    rap_tree_walk(b, 0, span_fn, &sb);
    assert_int_equal(sa.n, sb.n);
    assert_true(sa.n <= sizeof sa.s / sizeof *sa.s);
    assert_memory_equal(sa.s, sb.s, sa.n * sizeof *sa.s);
    struct rap_tree_stats x, y;
    rap_tree_stats(a, &x);
    rap_tree_stats(b, &y);
    assert_int_equal(x.n, y.n);
    assert_int_equal(x.updates, y.updates);
    assert_int_equal(x.visits, y.visits);
    assert_int_equal(x.nodes_max, y.nodes_max);
    assert_int_equal(x.splits, y.splits);
    assert_int_equal(x.nodes_merged, y.nodes_merged);
    assert_true(x.nodes_avg == y.nodes_avg);
    size_t ma, mb, na, nb;
    const struct rap_merge_rec *ra = rap_tree_merges(a, &ma), *rb = rap_tree_merges(b, &mb);
    const struct rap_sample *pa = rap_tree_samples(a, &na), *pb = rap_tree_samples(b, &nb);
    assert_int_equal(ma, mb);
    assert_int_equal(na, nb);
    if (ma)
        assert_memory_equal(ra, rb, ma * sizeof *ra);
    if (na)
        assert_memory_equal(pa, pb, na * sizeof *pa);
}

/* rap_tree_add_pairs (the leaf cache keyed by the pair, the key interleaved
 * only when a walk needs it) is rap2d_add(.., 1) event by event: the same
 * tree, statistics, merges and samples, with the cache on or off, under
 * both split rules, with coordinates above bits (taken modulo 2^bits), in
 * batches of any size, and mixed with weighted updates. */
static void test_add_pairs(void **state)
{
    (void)state;
    const unsigned bitss[] = { 5, 16, 48, 64 };
    static struct rap_pair p[3000];
    for (int bi = 0; bi < 4; bi++)
        for (unsigned stride = 1; stride <= 3; stride++) /* 5 and 16 bits, stride 2 or 3: a partial last level */
            for (int rule = 0; rule < 2; rule++) {
                unsigned bits = bitss[bi];
                struct rap_tree_cfg c = { 0, 0, 0.05, 2.0, 64, 0, 500, rule ? RAP_SPLIT_AFTER : RAP_SPLIT_BEFORE };
                char err[100];
                struct rap_tree *a = rap2d_create(bits, stride, &c, err, sizeof err);
                struct rap_tree *b = rap2d_create(bits, stride, &c, err, sizeof err);
                struct rap_tree *nc = rap2d_create(bits, stride, &c, err, sizeof err);
                assert_non_null(a);
                assert_non_null(b);
                assert_non_null(nc);
                rap_tree_set_cache(nc, 0);
                size_t done = 0;
                for (int round = 0; round < 12; round++) {
                    size_t m = (size_t)(rnd() % 3000);
                    for (size_t i = 0; i < m; i++) {
                        uint64_t r = rnd();
                        /* a few hot pairs (the leaf cache hits), clusters, noise; bits above `bits` set */
                        switch (r % 5) {
                        case 0: p[i].x = 0x4010 + (r >> 62); p[i].y = 0x8000 + (r >> 61); break;
                        case 1: p[i].x = 0x4200 + (r >> 58); p[i].y = (r >> 20) | (1ull << 63); break;
                        case 2: p[i].x = (r >> 12) | 0xff00000000000000ull; p[i].y = 0x10; break;
                        case 3: p[i].x = p[i ? i - 1 : 0].x; p[i].y = p[i ? i - 1 : 0].y + 8; break;
                        default: p[i].x = rnd(); p[i].y = rnd(); break;
                        }
                    }
                    for (size_t i = 0; i < m; i++)
                        rap2d_add(a, bits, p[i].x, p[i].y, 1);
                    rap_tree_add_pairs(b, p, m);
                    rap_tree_add_pairs(nc, p, m);
                    done += m;
                    if (round % 4 == 3) { /* a weighted update in between (the buffer's) */
                        uint64_t w = 1 + rnd() % 50;
                        rap2d_add(a, bits, p[0].x, p[0].y, w);
                        rap2d_add(b, bits, p[0].x, p[0].y, w);
                        rap2d_add(nc, bits, p[0].x, p[0].y, w);
                    }
                }
                assert_true(done > 0);
                assert_same_tree(a, b);
                assert_same_tree(a, nc);
                rap_tree_free(a);
                rap_tree_free(b);
                rap_tree_free(nc);
            }
}

struct inside_log {
    uint64_t v[1 << 16];
    size_t n;
};

static void inside_fn(void *ctx, const struct rap_span *s, uint64_t inside)
{
    struct inside_log *l = ctx;
    (void)s;
    if (l->n < sizeof l->v / sizeof *l->v)
        l->v[l->n] = inside;
    l->n++;
}

/* rap_tree_walk_pairs (pairs, no interleaving) gives every node the sum
 * rap_tree_walk_keys gives it from the interleaved keys, in the same order. */
static void test_walk_pairs(void **state)
{
    (void)state;
    static struct inside_log a, b;
    static struct rap_wkey kp[5000], kk[5000];
    for (unsigned stride = 1; stride <= 3; stride++) {
        const unsigned bits = stride == 1 ? 48 : 13;
        struct rap_tree_cfg c = { 0, 0, 0.02, 2.0, 256, 0, 0, RAP_SPLIT_BEFORE };
        char err[100];
        struct rap_tree *t = rap2d_create(bits, stride, &c, err, sizeof err);
        assert_non_null(t);
        for (int i = 0; i < 20000; i++) {
            uint64_t r = rnd();
            rap2d_add(t, bits, 0x4000 + (r >> 61), r % 3 ? 0x8000 + (r >> 55) : r >> 20, 1);
        }
        for (size_t i = 0; i < 5000; i++) {
            uint64_t r = rnd();
            /* coordinates beyond bits too (taken modulo 2^bits) */
            kp[i] = (struct rap_wkey){ i % 2 ? 0x4000 + (r >> 62) : r, i % 3 ? 0x8000 + (r >> 56) : rnd(), 1 + r % 7 };
            rap2d_key(bits, kp[i].hi, kp[i].lo, &kk[i].hi, &kk[i].lo);
            kk[i].w = kp[i].w;
        }
        a.n = b.n = 0;
        size_t na = rap_tree_walk_pairs(t, kp, 5000, sizeof *kp, inside_fn, &a);
        size_t nb = rap_tree_walk_keys(t, kk, 5000, inside_fn, &b);
        assert_int_equal(na, nb);
        assert_int_equal(a.n, b.n);
        assert_true(a.n <= sizeof a.v / sizeof *a.v);
        assert_memory_equal(a.v, b.v, a.n * sizeof *a.v);
        assert_int_equal(a.v[0], b.v[0]);
        rap_tree_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key),
        cmocka_unit_test(test_key_vs_bits),
        cmocka_unit_test(test_quadtree_by_hand),
        cmocka_unit_test(test_guarantee_2d),
        cmocka_unit_test(test_add_pairs),
        cmocka_unit_test(test_walk_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
