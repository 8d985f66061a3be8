/* test_simpoint.c - unit tests for src/simpoint/bbv.c and src/simpoint/simpoint.c: the
 * exp-bbv parser (accepted forms, every error with its line:column), the
 * projection, k-means against a naive Lloyd (bit for bit) and on cases
 * solved by hand, the BIC and the 90% rule on hand-computed numbers, and
 * whole runs on hand-built phases whose answer is known (k, representatives,
 * weights, skip, cap, determinism).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simpoint/bbv.h"
#include "simpoint/simpoint.h"

/* ---- helpers --------------------------------------------------------------- */

/* First diagnostic of parsing text as "x.bb" ("" when it parsed). */
static const char *parse_error(const char *text, size_t len, char *buf, size_t cap)
{
    struct diag d;
    diag_init(&d, "x.bb");
    struct bbv *b = bbv_parse(text, len, "x.bb", &d);
    diag_first(&d, buf, cap);
    if (b)
        assert_true(diag_ok(&d));
    else
        assert_false(diag_ok(&d));
    bbv_free(b);
    diag_free(&d);
    return buf;
}

static struct bbv *parse_ok(const char *text)
{
    struct diag d;
    diag_init(&d, "x.bb");
    struct bbv *b = bbv_parse(text, strlen(text), "x.bb", &d);
    if (!b) {
        char buf[256];
        fail_msg("parse failed: %s", diag_first(&d, buf, sizeof buf));
    }
    diag_free(&d);
    return b;
}

/* Deterministic noise in [0, 1) from (a, b). */
static double noise(uint64_t a, uint64_t b)
{
    uint64_t z = a * 0x9e3779b97f4a7c15ull + b * 0xc2b2ae3d27d4eb4full + 12345;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* A phase: nb blocks from id `base`, block j executing about (j % 7 + 1) * 100
 * instructions, each count varied by +-spread (relative) per slice. */
struct phase {
    uint32_t base;
    unsigned nb;
    double spread;
};

/* Slices whose phases are phase_of[0..n-1]. */
static struct bbv *build(const struct phase *ph, const unsigned *phase_of, size_t n)
{
    struct bbv *b = bbv_create();
    struct diag d;
    diag_init(&d, NULL);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) {
        const struct phase *p = &ph[phase_of[i]];
        uint32_t ids[4096];
        uint64_t counts[4096];
        assert_true(p->nb <= 4096);
        for (unsigned j = 0; j < p->nb; j++) {
            ids[j] = p->base + j;
            double base = (double)((j % 7 + 1) * 100);
            counts[j] = (uint64_t)(base * (1.0 + p->spread * (2.0 * noise(i, j) - 1.0)) + 0.5);
        }
        assert_int_equal(bbv_add_slice(b, ids, counts, p->nb, &d), 0);
    }
    diag_free(&d);
    return b;
}

/* 100 slices in runs: 5 of phase 0, 3 of phase 1, 2 of phase 2, ten times. */
static void three_phase_schedule(unsigned *phase_of)
{
    for (size_t i = 0; i < 100; i++) {
        size_t r = i % 10;
        phase_of[i] = r < 5 ? 0 : r < 8 ? 1 : 2;
    }
}

static const struct phase three[] = {
    {1, 60, 0.05},
    {1001, 60, 0.05},
    {2001, 60, 0.05},
};

static struct simpoint_result *run_ok(const struct bbv *b, const struct simpoint_opts *o)
{
    struct simpoint_result *r = NULL;
    struct diag d;
    diag_init(&d, NULL);
    if (simpoint_run(b, o, &r, &d) != 0) {
        char buf[256];
        fail_msg("simpoint_run failed: %s", diag_first(&d, buf, sizeof buf));
    }
    diag_free(&d);
    return r;
}

/* The slice nearest (ties: earliest) to the centroid of the given phase's
 * slices in the projected space: the representative SimPoint must choose. */
static size_t nearest_of_phase(const struct bbv *b, const struct simpoint_opts *o, const unsigned *phase_of,
                               unsigned phase)
{
    size_t n = bbv_slices(b) - o->skip_slices;
    unsigned dim = o->dim;
    double *pts = malloc(n * dim * sizeof *pts), *c = calloc(dim, sizeof *c);
    assert_non_null(pts);
    assert_non_null(c);
    assert_int_equal(simpoint_project(b, o->skip_slices, dim, o->seed, pts), 0);
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        if (phase_of[i + o->skip_slices] == phase) {
            for (unsigned j = 0; j < dim; j++)
                c[j] += pts[i * dim + j];
            cnt++;
        }
    for (unsigned j = 0; j < dim; j++)
        c[j] /= (double)cnt;
    size_t best = SIZE_MAX;
    double bd = DBL_MAX;
    for (size_t i = 0; i < n; i++) {
        if (phase_of[i + o->skip_slices] != phase)
            continue;
        double d2 = 0.0;
        for (unsigned j = 0; j < dim; j++) {
            double t = pts[i * dim + j] - c[j];
            d2 += t * t;
        }
        if (d2 < bd) {
            bd = d2;
            best = i;
        }
    }
    free(pts);
    free(c);
    return best + o->skip_slices;
}

/* ---- parser ---------------------------------------------------------------- */

static void test_parse_exp_bbv_output(void **state)
{
    (void)state;
    /* exp-bbv's spelling: three spaces after each pair, trailing blanks, a
     * blank line and the thread summary comment */
    const char *text = "T:792:8   :790:1   :757:12   \n"
                       "T:1619:2272   :1620:1242   :757:3   \n"
                       "\n"
                       "\n"
                       "# Thread 1\n"
                       "#   Total intervals: 2 (Interval Size 100000)\n"
                       "#   Total instructions: 203538\n";
    struct bbv *b = parse_ok(text);
    assert_int_equal(bbv_slices(b), 2);
    assert_int_equal(bbv_slice_total(b, 0), 21);
    assert_int_equal(bbv_slice_total(b, 1), 3517);
    assert_int_equal(bbv_slice_blocks(b, 0), 3);
    assert_int_equal(bbv_max_block(b), 1620);
    assert_int_equal(bbv_interval_size(b), 100000);
    /* rows are sorted by id, counts follow their ids */
    const uint32_t *ids = bbv_slice_ids(b, 0);
    const uint64_t *counts = bbv_slice_counts(b, 0);
    assert_int_equal(ids[0], 757);
    assert_int_equal(counts[0], 12);
    assert_int_equal(ids[1], 790);
    assert_int_equal(counts[1], 1);
    assert_int_equal(ids[2], 792);
    assert_int_equal(counts[2], 8);
    ids = bbv_slice_ids(b, 1);
    assert_int_equal(ids[0], 757);
    assert_int_equal(ids[2], 1620);
    bbv_free(b);
}

static void test_parse_lenient_spacing(void **state)
{
    (void)state;
    /* CRLF, tabs, leading blanks, single spaces, no final newline, no
     * Interval Size comment */
    const char *text = "  T:3:5 :1:5\r\n\tT\t:2:7\t:1:1\r\nT:1:4";
    struct bbv *b = parse_ok(text);
    assert_int_equal(bbv_slices(b), 3);
    assert_int_equal(bbv_slice_total(b, 0), 10);
    assert_int_equal(bbv_slice_total(b, 1), 8);
    assert_int_equal(bbv_slice_total(b, 2), 4);
    assert_int_equal(bbv_interval_size(b), 0);
    bbv_free(b);
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *error;
    } cases[] = {
        {"X:1:2\n", "x.bb:1:1: expected 'T' (a slice) or '#' (a comment), found 'X'"},
        {"T:1:2\n  y\n", "x.bb:2:3: expected 'T' (a slice) or '#' (a comment), found 'y'"},
        {"T:1:2 ;\n", "x.bb:1:7: expected ':' and a block id, found ';'"},
        {"T:a:1\n", "x.bb:1:3: expected a block id after ':', found 'a'"},
        {"T:\n", "x.bb:1:3: expected a block id after ':', found end of line"},
        {"T:0:5\n", "x.bb:1:3: block id 0 (ids start at 1)"},
        {"T:4294967296:1\n", "x.bb:1:3: block id too large (largest is 4294967295)"},
        {"T:1:2 :3\n", "x.bb:1:9: expected ':' and an instruction count after block id 3, found end of line"},
        {"T:1:2 :3;4\n", "x.bb:1:9: expected ':' and an instruction count after block id 3, found ';'"},
        {"T:1:\n", "x.bb:1:5: expected an instruction count after ':', found end of line"},
        {"T:1:18446744073709551616\n", "x.bb:1:5: instruction count too large (largest is 18446744073709551615)"},
        {"T:1:2x\n", "x.bb:1:6: unexpected 'x' after an instruction count"},
        {"T:1:2\t:1:5\n", "x.bb:1:7: block 1 appears twice in this slice (first at column 2)"},
        {"T:9:1 :4:2 :9:5\n", "x.bb:1:12: block 9 appears twice in this slice (first at column 2)"},
        {"T   \n", "x.bb:1:1: slice has no blocks"},
        {"T:1:1\n  T\n", "x.bb:2:3: slice has no blocks"},
        {"T:1:0 :2:0\n", "x.bb:1:1: slice has no instructions (every count is 0)"},
        {"T:1:18446744073709551615 :2:1\n", "x.bb:1:1: slice total exceeds 2^64-1 instructions"},
        {"", "x.bb: no slices (no line starts with 'T')"},
        {"# Thread 1\n\n   \n", "x.bb: no slices (no line starts with 'T')"},
    };
    char buf[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_error(cases[i].text, strlen(cases[i].text), buf, sizeof buf);
        if (strcmp(buf, cases[i].error) != 0)
            fail_msg("case %zu: got '%s', want '%s'", i, buf, cases[i].error);
    }
    /* a NUL byte on a slice line; bytes shown in hex */
    static const char nul[] = "T:1:2\0\n";
    assert_string_equal(parse_error(nul, sizeof nul - 1, buf, sizeof buf),
                        "x.bb:1:6: unexpected byte 0x00 after an instruction count");
    static const char ctl[] = "T:1:2 \x01\n";
    assert_string_equal(parse_error(ctl, sizeof ctl - 1, buf, sizeof buf),
                        "x.bb:1:7: expected ':' and a block id, found byte 0x01");
}

static void test_parse_reports_every_bad_line(void **state)
{
    (void)state;
    const char *text = "T:1:2\nT:0:1\nT:1:3\nZ\nT:1:1 :1:1\n";
    struct diag d;
    diag_init(&d, "x.bb");
    assert_null(bbv_parse(text, strlen(text), "x.bb", &d));
    assert_int_equal(diag_count(&d), 3);
    assert_int_equal(d.items[0].line, 2);
    assert_int_equal(d.items[1].line, 4);
    assert_int_equal(d.items[2].line, 5);
    assert_int_equal(d.items[2].column, 7);
    diag_free(&d);
}

static void test_parse_order_does_not_matter(void **state)
{
    (void)state;
    struct bbv *a = parse_ok("T:5:10 :2:20 :9:30\n");
    struct bbv *b = parse_ok("T:9:30 :5:10 :2:20\n");
    assert_memory_equal(bbv_slice_ids(a, 0), bbv_slice_ids(b, 0), 3 * sizeof(uint32_t));
    assert_memory_equal(bbv_slice_counts(a, 0), bbv_slice_counts(b, 0), 3 * sizeof(uint64_t));
    bbv_free(a);
    bbv_free(b);
}

static void test_load_file(void **state)
{
    (void)state;
    char path[] = "/tmp/hwprof-test-bbv-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "T:1:4   :2:6   \n# x (Interval Size 10)\nT:3:10\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct diag d;
    diag_init(&d, path);
    struct bbv *b = bbv_load(path, &d);
    assert_non_null(b);
    assert_int_equal(bbv_slices(b), 2);
    assert_int_equal(bbv_interval_size(b), 10);
    assert_int_equal(bbv_slice_total(b, 1), 10);
    bbv_free(b);
    /* an error names the file and line:column */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("T:1:4\nT:1:4 :2:x\n", f);
    fclose(f);
    assert_null(bbv_load(path, &d));
    char buf[512], want[512];
    snprintf(want, sizeof want, "%s:2:10: expected an instruction count after ':', found 'x'", path);
    assert_string_equal(diag_first(&d, buf, sizeof buf), want);
    diag_free(&d);
    unlink(path);
    assert_null(bbv_load(path, &d));
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    assert_string_equal(diag_first(&d, buf, sizeof buf), want);
    diag_free(&d);
}

static void test_add_slice_checks(void **state)
{
    (void)state;
    struct bbv *b = bbv_create();
    struct diag d;
    char buf[256];
    diag_init(&d, NULL);
    uint32_t ids[] = {3, 1, 3};
    uint64_t counts[] = {1, 2, 3};
    assert_int_equal(bbv_add_slice(b, ids, counts, 2, &d), 0);
    assert_int_equal(bbv_add_slice(b, ids, counts, 3, &d), -1);
    assert_string_equal(diag_first(&d, buf, sizeof buf), "slice 1: block 3 appears twice");
    diag_free(&d);
    assert_int_equal(bbv_add_slice(b, ids, counts, 0, &d), -1);
    assert_string_equal(diag_first(&d, buf, sizeof buf), "slice 1 has no blocks");
    diag_free(&d);
    uint32_t zero[] = {0};
    assert_int_equal(bbv_add_slice(b, zero, counts, 1, &d), -1);
    assert_string_equal(diag_first(&d, buf, sizeof buf), "slice 1: block id 0 (ids start at 1)");
    diag_free(&d);
    assert_int_equal(bbv_slices(b), 1);
    assert_int_equal(bbv_slice_total(b, 0), 3);
    bbv_free(b);
}

/* ---- projection ------------------------------------------------------------- */

static void test_projection_entries(void **state)
{
    (void)state;
    double sum = 0.0, lo = 1.0, hi = -1.0;
    size_t n = 0;
    for (uint32_t b = 1; b <= 20000; b++)
        for (unsigned j = 0; j < 5; j++) {
            double e = simpoint_proj_entry(7, b, j);
            assert_true(e >= -1.0 && e < 1.0);
            sum += e;
            lo = e < lo ? e : lo;
            hi = e > hi ? e : hi;
            n++;
        }
    /* uniform on [-1, 1): mean 0 (sd of the mean 0.0026), both ends reached */
    assert_true(fabs(sum / (double)n) < 0.015);
    assert_true(lo < -0.999 && hi > 0.999);
    /* a pure function of (seed, block, column) */
    assert_true(simpoint_proj_entry(7, 5, 3) == simpoint_proj_entry(7, 5, 3));
    assert_true(simpoint_proj_entry(7, 5, 3) != simpoint_proj_entry(8, 5, 3));
    assert_true(simpoint_proj_entry(7, 5, 3) != simpoint_proj_entry(7, 6, 3));
    assert_true(simpoint_proj_entry(7, 5, 3) != simpoint_proj_entry(7, 5, 4));
}

static void test_projection_values(void **state)
{
    (void)state;
    /* slice 0: block 4 only -> its matrix row; slice 1: 3/4 of block 2 and
     * 1/4 of block 9, summed in id order */
    struct bbv *b = parse_ok("T:4:17\nT:9:10 :2:30\n");
    double out[2 * 3];
    assert_int_equal(simpoint_project(b, 0, 3, 11, out), 0);
    for (unsigned j = 0; j < 3; j++) {
        assert_true(out[j] == simpoint_proj_entry(11, 4, j));
        double want = 0.0;
        want += 0.75 * simpoint_proj_entry(11, 2, j);
        want += 0.25 * simpoint_proj_entry(11, 9, j);
        assert_true(out[3 + j] == want);
    }
    /* skipping the first slice */
    double one[3];
    assert_int_equal(simpoint_project(b, 1, 3, 11, one), 0);
    assert_memory_equal(one, out + 3, sizeof one);
    bbv_free(b);
    /* a huge block id: entries computed where used, same values */
    b = parse_ok("T:4000000000:5 :4:5\n");
    assert_int_equal(simpoint_project(b, 0, 3, 11, out), 0);
    for (unsigned j = 0; j < 3; j++) {
        double want = 0.0;
        want += 0.5 * simpoint_proj_entry(11, 4, j);
        want += 0.5 * simpoint_proj_entry(11, 4000000000u, j);
        assert_true(out[j] == want);
    }
    bbv_free(b);
}

/* ---- k-means ---------------------------------------------------------------- */

/* Plain Lloyd, written the obvious way: the reference the accelerated one
 * must equal bit for bit. */
static double naive_lloyd(const double *pts, size_t n, unsigned dim, unsigned k, unsigned max_iter, unsigned *label,
                          double *centre, unsigned *iterations)
{
    double *sum = malloc((size_t)k * dim * sizeof *sum);
    size_t *cnt = malloc(k * sizeof *cnt);
    unsigned it = 0;
    int changed = 1;
    for (;;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned bc = 0;
            double bd = DBL_MAX;
            for (unsigned c = 0; c < k; c++) {
                double d = 0.0;
                for (unsigned j = 0; j < dim; j++) {
                    double t = pts[i * dim + j] - centre[c * dim + j];
                    d += t * t;
                }
                if (d < bd) {
                    bd = d;
                    bc = c;
                }
            }
            if (it == 0 || label[i] != bc)
                changed = 1;
            label[i] = bc;
        }
        if (!changed || it == max_iter)
            break;
        memset(sum, 0, (size_t)k * dim * sizeof *sum);
        memset(cnt, 0, k * sizeof *cnt);
        for (size_t i = 0; i < n; i++) {
            for (unsigned j = 0; j < dim; j++)
                sum[label[i] * dim + j] += pts[i * dim + j];
            cnt[label[i]]++;
        }
        for (unsigned c = 0; c < k; c++)
            if (cnt[c])
                for (unsigned j = 0; j < dim; j++)
                    centre[c * dim + j] = sum[c * dim + j] / (double)cnt[c];
        it++;
    }
    double dist = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = 0.0;
        for (unsigned j = 0; j < dim; j++) {
            double t = pts[i * dim + j] - centre[label[i] * dim + j];
            d += t * t;
        }
        dist += d;
    }
    *iterations = it;
    free(sum);
    free(cnt);
    return dist;
}

static void test_lloyd_equals_naive(void **state)
{
    (void)state;
    enum { N = 600, DIM = 4 };
    double *pts = malloc(N * DIM * sizeof *pts);
    /* six overlapping blobs, some exact duplicates, a few points on a grid
     * (equal distances to several centres) */
    for (size_t i = 0; i < N; i++)
        for (unsigned j = 0; j < DIM; j++) {
            double blob = (double)(i % 6) * (j == 0 ? 1.0 : 0.6);
            pts[i * DIM + j] = blob + 0.9 * noise(i, j);
            if (i % 50 == 7)
                pts[i * DIM + j] = pts[(i - 7) * DIM + j];
            if (i % 97 == 3)
                pts[i * DIM + j] = (double)(i % 3);
        }
    unsigned label_a[N], label_b[N], it_a, it_b;
    uint64_t size[12];
    for (unsigned k = 1; k <= 12; k++)
        for (unsigned trial = 0; trial < 3; trial++) {
            double ca[12 * DIM], cb[12 * DIM];
            for (unsigned c = 0; c < k; c++) {
                size_t from = (size_t)(noise(k * 31 + trial, c) * N);
                if (trial == 2 && c > 0)
                    from = (size_t)(c / 2) * 3; /* duplicate centres: empty clusters */
                memcpy(ca + c * DIM, pts + from * DIM, DIM * sizeof *ca);
            }
            memcpy(cb, ca, sizeof ca);
            unsigned max_iter = trial == 1 ? 3 : 100;
            double da = simpoint_lloyd(pts, N, DIM, k, max_iter, label_a, ca, size, &it_a);
            double db = naive_lloyd(pts, N, DIM, k, max_iter, label_b, cb, &it_b);
            assert_memory_equal(label_a, label_b, sizeof label_a);
            assert_memory_equal(ca, cb, k * DIM * sizeof *ca);
            assert_true(da == db);
            assert_int_equal(it_a, it_b);
            uint64_t total = 0;
            for (unsigned c = 0; c < k; c++)
                total += size[c];
            assert_int_equal(total, N);
        }
    free(pts);
}

static void test_lloyd_by_hand(void **state)
{
    (void)state;
    unsigned label[4], it;
    uint64_t size[3];
    /* {0, 1, 10, 11} from centres {0, 1}: 10 and 11 join centre 1, which
     * moves to 22/3; then 1 goes back to 0: centres 0.5 and 10.5 */
    double pts[] = {0, 1, 10, 11};
    double c2[] = {0, 1};
    assert_true(simpoint_lloyd(pts, 4, 1, 2, 100, label, c2, size, &it) == 1.0);
    assert_int_equal(it, 2);
    assert_true(c2[0] == 0.5 && c2[1] == 10.5);
    assert_int_equal(label[0], 0);
    assert_int_equal(label[1], 0);
    assert_int_equal(label[2], 1);
    assert_int_equal(label[3], 1);
    /* a tie goes to the lower centre: 1 is as far from 0 as from 2 */
    double tie[] = {0, 1, 2};
    double ct[] = {0, 2};
    assert_true(simpoint_lloyd(tie, 3, 1, 2, 100, label, ct, size, &it) == 0.5);
    assert_int_equal(label[1], 0);
    assert_true(ct[0] == 0.5 && ct[1] == 2.0);
    assert_int_equal(it, 1);
    /* a cluster that gets no point keeps its centre and size 0 */
    double dup[] = {0, 0, 5};
    double cd[] = {0, 0, 5};
    assert_true(simpoint_lloyd(dup, 3, 1, 3, 100, label, cd, size, &it) == 0.0);
    assert_int_equal(size[0], 2);
    assert_int_equal(size[1], 0);
    assert_int_equal(size[2], 1);
    /* max_iter bounds the centroid updates */
    double c1[] = {0, 1};
    simpoint_lloyd(pts, 4, 1, 2, 1, label, c1, size, &it);
    assert_int_equal(it, 1);
    assert_true(c1[1] == 22.0 / 3.0);
    assert_int_equal(label[1], 0); /* labels are nearest to the final centres */
}

static void test_kmeans_seeding(void **state)
{
    (void)state;
    /* k = n distinct points: both seedings pick every point once, so every
     * cluster is one point and the distortion is 0 */
    double pts[] = {0, 3, 7, 12, 20};
    unsigned label[10], it;
    uint64_t size[5];
    double centre[5];
    for (int init = 0; init < 2; init++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            double d = simpoint_kmeans(pts, 5, 1, 5, (enum simpoint_init)init, seed, 100, label, centre, size, &it);
            assert_true(d == 0.0);
            for (unsigned c = 0; c < 5; c++)
                assert_int_equal(size[c], 1);
        }
    /* k-means++ never seeds on a point already covered while another is not:
     * with two distinct values repeated, k = 2 always finds both */
    double two[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 9};
    for (uint64_t seed = 0; seed < 50; seed++) {
        double d = simpoint_kmeans(two, 10, 1, 2, SIMPOINT_INIT_KMEANSPP, seed, 100, label, centre, size, &it);
        assert_true(d == 0.0);
    }
}

/* ---- BIC and the choice of k --------------------------------------------------- */

static void test_bic_by_hand(void **state)
{
    (void)state;
    /* n = 4 points in 1 dimension, 2 clusters of 2, distortion 0.04:
     * s2 = 0.04 / 4 = 0.01
     * l  = 2 log(1/2) + 2 log(1/2) - 4/2 log(2 pi 0.01) - 4/2 = 0.7619975169
     * p  = (2 - 1) + 2 * 1 + 1 = 4;  BIC = l - 4/2 log 4 = -2.0105912053 */
    uint64_t s2[] = {2, 2, 0};
    assert_true(fabs(simpoint_bic(4, 1, 2, s2, 0.04, 1e-300) - -2.0105912053220703) < 1e-12);
    /* an empty cluster counts for nothing */
    assert_true(simpoint_bic(4, 1, 3, s2, 0.04, 1e-300) == simpoint_bic(4, 1, 2, s2, 0.04, 1e-300));
    /* n = 4 in 2 dimensions, one cluster, distortion 8: s2 = 1,
     * l = -8/2 log(2 pi) - 8/2, p = 0 + 2 + 1, BIC = l - 3/2 log 4 */
    uint64_t s1[] = {4};
    assert_true(fabs(simpoint_bic(4, 2, 1, s1, 8.0, 1e-300) - -13.430949807317218) < 1e-12);
    /* zero distortion uses the floor */
    assert_true(simpoint_bic(4, 2, 1, s1, 0.0, 0.5) == simpoint_bic(4, 2, 1, s1, 4.0, 1e-300));
}

static void test_pick_k(void **state)
{
    (void)state;
    /* worst -100, best 90: the 90% cut is -100 + 0.9 * 190 = 71; k = 3 (80)
     * is the first at or above it */
    double bic[] = {-100, 50, 80, 90, 85};
    assert_int_equal(simpoint_pick_k(bic, 5, 0.9), 2);
    assert_int_equal(simpoint_pick_k(bic, 5, 1.0), 3);
    assert_int_equal(simpoint_pick_k(bic, 5, 0.0), 0);
    assert_int_equal(simpoint_pick_k(bic, 5, 0.78), 1); /* cut 48.2 */
    double flat[] = {3, 3, 3};
    assert_int_equal(simpoint_pick_k(flat, 3, 0.9), 0);
    /* best at k = 1: nothing later can be chosen */
    double down[] = {10, 5, -20};
    assert_int_equal(simpoint_pick_k(down, 3, 0.9), 0);
}

/* ---- whole runs ------------------------------------------------------------------ */

static void test_three_phases(void **state)
{
    (void)state;
    unsigned phase_of[100];
    three_phase_schedule(phase_of);
    struct bbv *b = build(three, phase_of, 100);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    o.slice_len = 1000;
    struct simpoint_result *r = run_ok(b, &o);
    assert_int_equal(r->k, 3);
    assert_int_equal(r->clusters, 3);
    assert_int_equal(r->n_windows, 3);
    assert_int_equal(r->k_tried, 10);
    assert_true(r->coverage == 1.0);
    static const unsigned count[] = {50, 30, 20};
    int seen[3] = {0, 0, 0};
    for (size_t w = 0; w < 3; w++) {
        const struct simpoint_window *win = &r->window[w];
        unsigned p = phase_of[win->slice];
        seen[p]++;
        assert_true(win->weight == count[p] / 100.0);
        assert_int_equal(win->cluster_size, count[p]);
        assert_int_equal(win->start, win->slice * 1000);
        assert_int_equal(win->slice, nearest_of_phase(b, &o, phase_of, p));
        if (w > 0)
            assert_true(win->slice > r->window[w - 1].slice);
        /* every slice of the phase is in the window's cluster */
        for (size_t i = 0; i < 100; i++)
            assert_int_equal(r->label[i] == win->cluster, phase_of[i] == p);
    }
    assert_int_equal(seen[0] + seen[1] * 10 + seen[2] * 100, 111);
    simpoint_result_free(r);
    bbv_free(b);
}

static void test_one_phase(void **state)
{
    (void)state;
    unsigned phase_of[80];
    memset(phase_of, 0, sizeof phase_of);
    struct phase noisy[] = {{1, 200, 0.10}};
    struct bbv *b = build(noisy, phase_of, 80);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    struct simpoint_result *r = run_ok(b, &o);
    assert_int_equal(r->k, 1);
    assert_int_equal(r->n_windows, 1);
    assert_true(r->window[0].weight == 1.0);
    assert_int_equal(r->window[0].cluster_size, 80);
    assert_int_equal(r->window[0].slice, nearest_of_phase(b, &o, phase_of, 0));
    assert_int_equal(r->window[0].start, 0); /* slice_len 0 */
    simpoint_result_free(r);
    bbv_free(b);
    /* identical slices: no k splits them (the centroid of equal points may
     * differ from them in the last bit, so the distortion is ~0, not 0) */
    struct phase exact[] = {{1, 30, 0.0}};
    b = build(exact, phase_of, 20);
    r = run_ok(b, &o);
    assert_int_equal(r->k, 1);
    for (unsigned k = 0; k < r->k_tried; k++) {
        assert_true(r->distortion[k] < 1e-20);
        assert_true(isfinite(r->bic[k]));
    }
    assert_int_equal(r->window[0].slice, 0);
    simpoint_result_free(r);
    bbv_free(b);
}

static void test_projection_keeps_separation(void **state)
{
    (void)state;
    /* two phases share 9/10 of their instructions (the same 400 blocks in
     * the same proportions, noisy) and differ only in which 40 other blocks
     * run the last tenth: after projecting 2,440 dimensions to 15 they are
     * still two clusters, 60% and 40% */
    enum { N = 100 };
    struct bbv *b = bbv_create();
    struct diag d;
    diag_init(&d, NULL);
    unsigned phase_of[N];
    for (size_t i = 0; i < N; i++) {
        phase_of[i] = (i / 4) % 5 < 3 ? 0 : 1;
        uint32_t ids[440];
        uint64_t counts[440];
        for (unsigned j = 0; j < 400; j++) {
            ids[j] = 1 + j;
            counts[j] = (uint64_t)(225.0 * (1.0 + 0.2 * (noise(i, j) - 0.5)));
        }
        for (unsigned j = 0; j < 40; j++) {
            ids[400 + j] = (phase_of[i] ? 2001 : 1001) + j;
            counts[400 + j] = (uint64_t)(250.0 * (1.0 + 0.2 * (noise(i, 500 + j) - 0.5)));
        }
        assert_int_equal(bbv_add_slice(b, ids, counts, 440, &d), 0);
    }
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    struct simpoint_result *r = run_ok(b, &o);
    assert_int_equal(r->k, 2);
    for (size_t w = 0; w < 2; w++) {
        unsigned p = phase_of[r->window[w].slice];
        assert_true(r->window[w].weight == (p == 0 ? 0.6 : 0.4));
        for (size_t i = 0; i < N; i++)
            assert_int_equal(r->label[i] == r->window[w].cluster, phase_of[i] == p);
    }
    simpoint_result_free(r);
    bbv_free(b);
    diag_free(&d);
}

static void test_skip_start_up(void **state)
{
    (void)state;
    /* 10 start-up slices (phase 2), then 90 alternating runs of phases 0 and
     * 1 (6 and 3 slices): leaving out the start-up gives two windows with
     * weights 2/3 and 1/3 of the 90, at absolute slice numbers */
    unsigned phase_of[100];
    for (size_t i = 0; i < 100; i++)
        phase_of[i] = i < 10 ? 2 : ((i - 10) % 9 < 6 ? 0 : 1);
    struct bbv *b = build(three, phase_of, 100);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    o.slice_len = 500;
    o.skip_slices = 10;
    struct simpoint_result *r = run_ok(b, &o);
    assert_int_equal(r->n_slices, 90);
    assert_int_equal(r->skipped, 10);
    assert_int_equal(r->k, 2);
    for (size_t w = 0; w < 2; w++) {
        const struct simpoint_window *win = &r->window[w];
        assert_true(win->slice >= 10);
        assert_int_equal(win->start, win->slice * 500);
        unsigned p = phase_of[win->slice];
        assert_true(p < 2);
        assert_true(win->weight == (p == 0 ? 60.0 / 90.0 : 30.0 / 90.0));
        assert_int_equal(win->slice, nearest_of_phase(b, &o, phase_of, p));
    }
    simpoint_result_free(r);
    /* without the skip the start-up is a cluster of its own */
    o.skip_slices = 0;
    r = run_ok(b, &o);
    assert_int_equal(r->k, 3);
    simpoint_result_free(r);
    /* skipping everything is an error */
    struct diag d;
    diag_init(&d, NULL);
    o.skip_slices = 100;
    assert_int_equal(simpoint_run(b, &o, &r, &d), -1);
    assert_null(r);
    char buf[256];
    assert_string_equal(diag_first(&d, buf, sizeof buf),
                        "skipping 100 slices leaves none to cluster (there are 100)");
    diag_free(&d);
    bbv_free(b);
}

static void test_window_cap(void **state)
{
    (void)state;
    unsigned phase_of[100];
    three_phase_schedule(phase_of);
    struct bbv *b = build(three, phase_of, 100);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    o.max_windows = 2;
    struct simpoint_result *r = run_ok(b, &o);
    /* the two heaviest clusters (50 and 30 slices), renormalised */
    assert_int_equal(r->k, 3);
    assert_int_equal(r->clusters, 3);
    assert_int_equal(r->n_windows, 2);
    assert_true(r->coverage == 0.8);
    for (size_t w = 0; w < 2; w++) {
        unsigned p = phase_of[r->window[w].slice];
        assert_true(p < 2);
        assert_true(r->window[w].weight == (p == 0 ? 50.0 / 80.0 : 30.0 / 80.0));
        assert_int_equal(r->window[w].cluster_size, p == 0 ? 50 : 30);
    }
    simpoint_result_free(r);
    /* a cap at or above the clusters changes nothing */
    o.max_windows = 3;
    r = run_ok(b, &o);
    assert_int_equal(r->n_windows, 3);
    assert_true(r->coverage == 1.0);
    simpoint_result_free(r);
    bbv_free(b);
}

static int same_result(const struct simpoint_result *a, const struct simpoint_result *b)
{
    return a->k == b->k && a->k_tried == b->k_tried && a->n_windows == b->n_windows &&
           memcmp(a->bic, b->bic, a->k_tried * sizeof *a->bic) == 0 &&
           memcmp(a->distortion, b->distortion, a->k_tried * sizeof *a->distortion) == 0 &&
           memcmp(a->label, b->label, a->n_slices * sizeof *a->label) == 0 &&
           memcmp(a->window, b->window, a->n_windows * sizeof *a->window) == 0;
}

static void test_determinism(void **state)
{
    (void)state;
    unsigned phase_of[100];
    three_phase_schedule(phase_of);
    struct bbv *b = build(three, phase_of, 100);
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    for (int init = 0; init < 2; init++) {
        o.init = (enum simpoint_init)init;
        o.seed = 1;
        struct simpoint_result *r1 = run_ok(b, &o), *r2 = run_ok(b, &o);
        assert_true(same_result(r1, r2));
        /* another seed draws another projection and other starts: the BIC
         * scores change, but on phases this distinct the choice does not
         * (k, clusters and weights; the representative may move within its
         * phase) */
        o.seed = 987654321;
        struct simpoint_result *r3 = run_ok(b, &o);
        assert_true(r3->bic[1] != r1->bic[1]);
        if (o.init == SIMPOINT_INIT_KMEANSPP) {
            assert_int_equal(r3->k, 3);
            for (size_t w = 0; w < 3; w++) {
                unsigned p = phase_of[r3->window[w].slice];
                assert_true(r3->window[w].weight == (p == 0 ? 0.5 : p == 1 ? 0.3 : 0.2));
            }
        }
        simpoint_result_free(r1);
        simpoint_result_free(r2);
        simpoint_result_free(r3);
    }
    /* the score of a k does not depend on which other k were run */
    o.init = SIMPOINT_INIT_KMEANSPP;
    o.seed = 5;
    o.max_k = 3;
    struct simpoint_result *small = run_ok(b, &o);
    o.max_k = 7;
    struct simpoint_result *big = run_ok(b, &o);
    assert_memory_equal(small->bic, big->bic, 3 * sizeof *small->bic);
    assert_memory_equal(small->distortion, big->distortion, 3 * sizeof *small->distortion);
    simpoint_result_free(small);
    simpoint_result_free(big);
    bbv_free(b);
}

static void test_best_start_kept(void **state)
{
    (void)state;
    /* 300 points around 8 centres in the plane: uniform seeding falls into
     * different local optima from different starts; for every k the result
     * keeps the start of least distortion (the first of equals) */
    enum { N = 300, DIM = 2 };
    double pts[N * DIM];
    for (size_t i = 0; i < N; i++) {
        unsigned blob = (unsigned)(noise(i, 99) * 8);
        pts[i * DIM] = (double)(blob % 4) * 3.0 + noise(i, 0);
        pts[i * DIM + 1] = (double)(blob / 4) * 3.0 + noise(i, 1);
    }
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    o.init = SIMPOINT_INIT_SAMPLE;
    o.max_k = 10;
    o.seed = 3;
    struct simpoint_result *r = NULL;
    struct diag d;
    diag_init(&d, NULL);
    assert_int_equal(simpoint_choose(pts, N, DIM, &o, &r, &d), 0);
    unsigned label[N], it, best_it = 0;
    uint64_t size[10];
    double centre[10 * DIM];
    int starts_differ = 0;
    for (unsigned k = 1; k <= 10; k++) {
        double best = DBL_MAX, worst = 0.0;
        for (unsigned s = 0; s < o.n_init; s++) {
            double dist = simpoint_kmeans(pts, N, DIM, k, o.init, simpoint_start_seed(o.seed, k, s), o.max_iter, label,
                                          centre, size, &it);
            if (dist < best) {
                best = dist;
                best_it = it;
            }
            worst = dist > worst ? dist : worst;
        }
        starts_differ += worst > best;
        assert_true(r->distortion[k - 1] == best);
        assert_int_equal(r->iterations[k - 1], best_it);
    }
    assert_true(starts_differ >= 3);
    /* one start can only do worse or as well */
    o.n_init = 1;
    struct simpoint_result *one = NULL;
    assert_int_equal(simpoint_choose(pts, N, DIM, &o, &one, &d), 0);
    for (unsigned k = 0; k < 10; k++)
        assert_true(r->distortion[k] <= one->distortion[k]);
    simpoint_result_free(r);
    simpoint_result_free(one);
    diag_free(&d);
}

static void test_few_slices_and_bad_options(void **state)
{
    (void)state;
    struct bbv *b = parse_ok("T:1:5\nT:2:5\nT:1:1 :2:9\n");
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    struct simpoint_result *r = run_ok(b, &o);
    assert_int_equal(r->k_tried, 3); /* max_k capped at the slices */
    assert_true(r->k >= 1 && r->k <= 3);
    /* k = 3: every slice its own centre, distortion exactly 0; the variance
     * floor keeps the score finite */
    assert_true(r->distortion[2] == 0.0);
    assert_true(isfinite(r->bic[2]));
    simpoint_result_free(r);
    struct diag d;
    diag_init(&d, NULL);
    o.max_k = 0;
    o.dim = 1001;
    o.bic_threshold = 1.5;
    o.n_init = 0;
    o.max_iter = 0;
    assert_int_equal(simpoint_run(b, &o, &r, &d), -1);
    assert_null(r);
    assert_int_equal(diag_count(&d), 5);
    char buf[256];
    assert_string_equal(diag_first(&d, buf, sizeof buf), "max_k must be in [1, 1000] (got 0)");
    diag_free(&d);
    o.bic_threshold = NAN;
    o.max_k = 1;
    o.dim = 2;
    o.n_init = 1;
    o.max_iter = 1;
    assert_int_equal(simpoint_run(b, &o, &r, &d), -1);
    assert_string_equal(diag_first(&d, buf, sizeof buf), "bic_threshold must be in [0, 1] (got nan)");
    diag_free(&d);
    bbv_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_exp_bbv_output),
        cmocka_unit_test(test_parse_lenient_spacing),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_reports_every_bad_line),
        cmocka_unit_test(test_parse_order_does_not_matter),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_add_slice_checks),
        cmocka_unit_test(test_projection_entries),
        cmocka_unit_test(test_projection_values),
        cmocka_unit_test(test_lloyd_equals_naive),
        cmocka_unit_test(test_lloyd_by_hand),
        cmocka_unit_test(test_kmeans_seeding),
        cmocka_unit_test(test_bic_by_hand),
        cmocka_unit_test(test_pick_k),
        cmocka_unit_test(test_three_phases),
        cmocka_unit_test(test_one_phase),
        cmocka_unit_test(test_projection_keeps_separation),
        cmocka_unit_test(test_skip_start_up),
        cmocka_unit_test(test_window_cap),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_best_start_kept),
        cmocka_unit_test(test_few_slices_and_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
