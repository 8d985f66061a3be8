/* test_hps_streams.c - SEQUITUR (the paper's example grammar; on random
 * strings: exact reconstruction, digram uniqueness, rule utility, no rule
 * across a separator) and hot data stream detection on crafted reference
 * strings with known repeated streams: their keys, lengths and heats, the
 * length bounds, burst cuts, and the address-only key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "families/hps_sequitur.h"
#include "families/hps_streams.h"

static void test_paper_example(void **state)
{
    (void)state;
    const char *in = "abcabdabcabd";
    struct sq_grammar *g = sq_create(0);
    for (const char *p = in; *p; p++)
        sq_append(g, (uint32_t)*p);
    struct sq_compact c;
    assert_int_equal(sq_export(g, &c), 0);
    /* S -> X X, X -> Y c Y d, Y -> a b */
    assert_int_equal(c.nrules, 3);
    assert_int_equal(c.start[1] - c.start[0], 2);
    assert_true(c.body[0] == c.body[1] && (c.body[0] & SQ_NT));
    uint32_t x = c.body[0] & ~SQ_NT;
    assert_int_equal(c.start[x + 1] - c.start[x], 4);
    uint32_t out[16];
    assert_int_equal(sq_compact_expand(&c, out, 16), 12);
    for (int i = 0; i < 12; i++)
        assert_int_equal(out[i], (uint32_t)in[i]);
    struct sq_stats st;
    sq_get_stats(g, &st);
    assert_int_equal(st.rules, 3);
    assert_int_equal(st.symbols, 8);
    assert_int_equal(st.anomalies, 0);
    sq_compact_free(&c);
    sq_free(g);
}

/* Random strings over tiny alphabets (runs like "aaaa" are the hard case),
 * with separators. */
static void test_sequitur_properties(void **state)
{
    (void)state;
    uint64_t x = 0x2545f4914f6cdd1dull;
    uint64_t dup = 0, util = 0, spans = 0, bad = 0, anomalies = 0;
    for (int trial = 0; trial < 1500; trial++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int n = 1 + (int)(x % 300), alpha = 1 + (int)((x >> 20) % 4), sep = (x >> 30) % 2;
        uint32_t *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
        struct sq_grammar *g = sq_create(0);
        for (int i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            in[i] = sep && x % 23 == 0 ? SQ_SEP : (uint32_t)((x >> 8) % (uint64_t)alpha);
            sq_append(g, in[i]);
        }
        struct sq_stats st;
        sq_get_stats(g, &st);
        anomalies += st.anomalies;
        struct sq_compact c;
        assert_int_equal(sq_export(g, &c), 0);
        if (sq_compact_expand(&c, out, (uint64_t)n) != (uint64_t)n || memcmp(in, out, (size_t)n * sizeof *in))
            bad++;
        uint32_t *uses = calloc(c.nrules, sizeof *uses);
        for (uint64_t i = 0; i < c.start[c.nrules]; i++)
            if (c.body[i] & SQ_NT)
                uses[c.body[i] & ~SQ_NT]++;
        for (uint32_t r = 1; r < c.nrules; r++) {
            util += uses[r] < 2;
            for (uint64_t i = c.start[r]; i < c.start[r + 1]; i++)
                spans += c.body[i] == SQ_SEP;
        }
        for (uint32_t r = 0; r < c.nrules; r++)
            for (uint64_t i = c.start[r]; i + 1 < c.start[r + 1]; i++) {
                if (c.body[i] == SQ_SEP || c.body[i + 1] == SQ_SEP)
                    continue;
                for (uint32_t r2 = r; r2 < c.nrules; r2++)
                    for (uint64_t j = r2 == r ? i + 1 : c.start[r2]; j + 1 < c.start[r2 + 1]; j++)
                        if (c.body[i] == c.body[j] && c.body[i + 1] == c.body[j + 1] && !(r2 == r && j == i + 1))
                            dup++;
            }
        free(uses);
        sq_compact_free(&c);
        sq_free(g);
        free(in);
        free(out);
    }
    assert_int_equal(bad, 0);
    assert_int_equal(anomalies, 0);
    assert_int_equal(dup, 0);
    assert_int_equal(util, 0);
    assert_int_equal(spans, 0);
}

/* ---- hot data streams on crafted strings ---------------------------------- */

struct refs {
    uint64_t pc[64], addr[64];
    size_t n;
};

static struct refs stream_of(uint64_t pc0, uint64_t addr0, size_t n)
{
    struct refs r;
    r.n = n;
    for (size_t i = 0; i < n; i++) {
        r.pc[i] = pc0 + 4 * i;
        r.addr[i] = addr0 + 64 * i * i; /* all distinct */
    }
    return r;
}

static uint64_t noise = 0x9000000;

static void add_refs(struct hps_streams *s, const struct refs *r, size_t cut_at)
{
    for (size_t i = 0; i < r->n; i++) {
        if (i == cut_at)
            hps_streams_cut(s);
        hps_streams_add(s, r->pc[i], r->addr[i]);
    }
}

static void add_noise(struct hps_streams *s, int n)
{
    for (int i = 0; i < n; i++, noise += 8)
        hps_streams_add(s, 0x7000, noise); /* never repeats */
}

/* S1 (12 references) 50 times and S2 (20) 30 times, separated by unique
 * references; cut_at: a burst cut inside each S1 (SIZE_MAX: none). */
static struct hps_streams *crafted(const struct hps_stream_cfg *cfg, size_t cut_at, uint64_t *refs_out)
{
    struct hps_streams *s = hps_streams_create(cfg);
    struct refs s1 = stream_of(0x1000, 0x100000, 12), s2 = stream_of(0x2000, 0x200000, 20);
    for (int k = 0; k < 50; k++) {
        add_refs(s, &s1, cut_at);
        add_noise(s, 3);
        if (k < 30) {
            add_refs(s, &s2, SIZE_MAX);
            add_noise(s, 2);
        }
    }
    *refs_out = 50 * 12 + 30 * 20 + 50 * 3 + 30 * 2;
    hps_streams_finish(s);
    return s;
}

static void test_hot_streams(void **state)
{
    (void)state;
    struct hps_stream_cfg cfg = { HPS_REFS_LOADS, HPS_KEY_PC_ADDR, 10, 100, 0.01 };
    uint64_t total;
    struct hps_streams *s = crafted(&cfg, SIZE_MAX, &total);
    struct refs s1 = stream_of(0x1000, 0x100000, 12), s2 = stream_of(0x2000, 0x200000, 20);
    uint64_t h1 = hps_stream_hash(s1.pc, s1.addr, 12, HPS_KEY_PC_ADDR);
    uint64_t h2 = hps_stream_hash(s2.pc, s2.addr, 20, HPS_KEY_PC_ADDR);
    size_t n;
    const struct hps_member *m = hps_streams_members(s, &n);
    assert_int_equal(n, 2);
    /* equal heat 600: ordered by key */
    const struct hps_member *a = m[0].b == 12 ? &m[0] : &m[1], *b = m[0].b == 12 ? &m[1] : &m[0];
    assert_true(a->a == h1 && a->b == 12 && a->w == 600 && a->x == 0x1000 && a->y == 0x100000);
    assert_true(b->a == h2 && b->b == 20 && b->w == 600 && b->x == 0x2000 && b->y == 0x200000);
    struct hps_streams_stats st;
    hps_streams_get_stats(s, &st);
    assert_int_equal(st.refs, total);
    assert_int_equal(st.distinct, 12 + 20 + 50 * 3 + 30 * 2);
    assert_int_equal(st.hot, 2);
    assert_true(fabs(st.coverage - 1200.0 / (double)total) < 1e-12);
    assert_true(fabs(st.heat_min - 0.01 * (double)total) < 1e-9);
    assert_int_equal(st.anomalies, 0);
    hps_streams_free(s);

    /* length bounds */
    cfg.min_len = 13;
    s = crafted(&cfg, SIZE_MAX, &total);
    m = hps_streams_members(s, &n);
    assert_int_equal(n, 1);
    assert_true(m[0].a == h2 && m[0].b == 20);
    hps_streams_free(s);
    cfg.min_len = 10;
    cfg.max_len = 19;
    s = crafted(&cfg, SIZE_MAX, &total);
    m = hps_streams_members(s, &n);
    assert_int_equal(n, 1);
    assert_true(m[0].a == h1 && m[0].b == 12);
    hps_streams_free(s);

    /* a heat threshold above 600 leaves nothing */
    cfg.max_len = 100;
    cfg.heat_frac = 601.0 / (double)total;
    s = crafted(&cfg, SIZE_MAX, &total);
    m = hps_streams_members(s, &n);
    assert_int_equal(n, 0);
    hps_streams_free(s);
}

static void test_cuts(void **state)
{
    (void)state;
    /* a cut after 6 references of every S1: no 12-reference stream spans
     * it; the halves (6 each) are streams once min_len allows them */
    struct hps_stream_cfg cfg = { HPS_REFS_LOADS, HPS_KEY_PC_ADDR, 10, 100, 0.01 };
    uint64_t total;
    struct hps_streams *s = crafted(&cfg, 6, &total);
    size_t n;
    const struct hps_member *m = hps_streams_members(s, &n);
    assert_int_equal(n, 1);
    assert_int_equal(m[0].b, 20);
    struct hps_streams_stats st;
    hps_streams_get_stats(s, &st);
    assert_int_equal(st.cuts, 50);
    hps_streams_free(s);

    cfg.min_len = 2;
    s = crafted(&cfg, 6, &total);
    m = hps_streams_members(s, &n);
    struct refs s1 = stream_of(0x1000, 0x100000, 12);
    uint64_t first = hps_stream_hash(s1.pc, s1.addr, 6, HPS_KEY_PC_ADDR);
    uint64_t second = hps_stream_hash(s1.pc + 6, s1.addr + 6, 6, HPS_KEY_PC_ADDR);
    int seen_first = 0, seen_second = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(m[i].b != 12);
        if (m[i].a == first && m[i].b == 6 && m[i].w == 300)
            seen_first = 1;
        if (m[i].a == second && m[i].b == 6 && m[i].w == 300)
            seen_second = 1;
    }
    assert_true(seen_first && seen_second);
    hps_streams_free(s);

    /* cuts with nothing in between collapse into one */
    s = hps_streams_create(&cfg);
    hps_streams_cut(s);
    hps_streams_add(s, 1, 2);
    hps_streams_cut(s);
    hps_streams_cut(s);
    hps_streams_finish(s);
    hps_streams_get_stats(s, &st);
    assert_int_equal(st.cuts, 1);
    hps_streams_free(s);
}

static void test_address_key(void **state)
{
    (void)state;
    /* the same 10 addresses from two code paths (pcs), each path 20 times */
    for (int key = 0; key < 2; key++) {
        struct hps_stream_cfg cfg = { HPS_REFS_LOADS, key, 10, 100, 0.01 };
        struct hps_streams *s = hps_streams_create(&cfg);
        struct refs p1 = stream_of(0x1000, 0x500000, 10), p2 = stream_of(0x3000, 0x500000, 10);
        for (int k = 0; k < 20; k++) {
            add_refs(s, &p1, SIZE_MAX);
            add_noise(s, 1);
            add_refs(s, &p2, SIZE_MAX);
            add_noise(s, 1);
        }
        hps_streams_finish(s);
        size_t n;
        const struct hps_member *m = hps_streams_members(s, &n);
        if (key == HPS_KEY_PC_ADDR) {
            assert_int_equal(n, 2);
            assert_true(m[0].w == 200 && m[1].w == 200);
        } else {
            assert_int_equal(n, 1);
            assert_true(m[0].w == 400 && m[0].a == hps_stream_hash(NULL, p1.addr, 10, HPS_KEY_ADDR));
        }
        hps_streams_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_example), cmocka_unit_test(test_sequitur_properties),
        cmocka_unit_test(test_hot_streams),   cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_address_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
