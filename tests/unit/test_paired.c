/* test_paired.c - src/report/paired.c: paired differences and their
 * intervals against hand computations (equal and unequal SimPoint weights,
 * the mean over workloads), the same interval as the runner's m_lo/m_hi
 * (core/winstats.c), and every pairing error (a run missing in a window,
 * a run twice, different weights, a match column); the ratio a / b
 * (PAIRED_RATIO) with its zero-denominator rule. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/winstats.h"
#include "report/paired.h"

static void near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.12g, want %.12g", got, want);
}

static struct csv *parse(const char *text)
{
    struct diag d;
    diag_init(&d, NULL);
    struct csv *c = csv_parse(text, strlen(text), "t.windows.csv", &d);
    assert_non_null(c);
    diag_free(&d);
    return c;
}

/* The rows of c whose column col is v. */
static size_t rows_of(const struct csv *c, const char *col, const char *v, size_t *rows)
{
    size_t n = 0;
    int k = csv_column(c, col);
    for (size_t r = 0; r < csv_nrows(c); r++)
        if (strcmp(csv_cell(c, r, (size_t)k), v) == 0)
            rows[n++] = r;
    return n;
}

/* Pair run A with run B on error; 0 or -1 (why filled). */
static int pair(const struct csv *c, char *const *match, size_t nmatch, struct paired *p, struct sbuf *why)
{
    size_t ra[32], rb[32];
    size_t na = rows_of(c, "run", "A", ra), nb = rows_of(c, "run", "B", rb);
    struct paired_cols pc;
    if (paired_columns(c, "error", match, nmatch, &pc, why) != 0)
        return -1;
    int rc = paired_compute(c, &pc, ra, na, rb, nb, "run:A", "run:B", p, why);
    paired_cols_free(&pc);
    return rc;
}

/* Three windows of equal weight, d = 1, 2, 6 (A - B): mean 3; deviations
 * -2, -1, 3, s^2 = 14 / 2 = 7 (weighted: (14/3) / (1 - 1/3)), se =
 * sqrt(7/3) = 1.527525232, t(0.975, 2) = 4.302652730: 3 -+ 6.572386. */
static void test_equal_weights(void **state)
{
    (void)state;
    struct csv *c = parse("workload,window,weight,run,error\n"
                          "gzip,0,0.3333333333,A,11\ngzip,0,0.3333333333,B,10\n"
                          "gzip,1,0.3333333333,B,20\ngzip,1,0.3333333333,A,22\n"
                          "gzip,2,0.3333333333,A,36\ngzip,2,0.3333333333,B,30\n");
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, NULL, 0, &p, &why), 0);
    assert_int_equal(p.nwl, 1);
    assert_string_equal(p.wl[0].workload, "gzip");
    assert_int_equal(p.wl[0].n, 3);
    near(p.wl[0].d[0], 1, 1e-12);
    near(p.wl[0].d[1], 2, 1e-12);
    near(p.wl[0].d[2], 6, 1e-12);
    near(p.wl[0].ws.mean, 3, 1e-9);
    near(p.wl[0].ws.lo, 3 - 4.302652730 * 1.527525232, 1e-6);
    near(p.wl[0].ws.hi, 3 + 4.302652730 * 1.527525232, 1e-6);
    near(p.wl[0].ws.min, 1, 0);
    near(p.wl[0].ws.max, 6, 0);
    /* one workload: no interval over workloads */
    near(p.mean, 3, 1e-9);
    assert_true(isnan(p.lo) && isnan(p.hi));
    paired_free(&p);
    sbuf_free(&why);
    csv_free(c);
}

/* Weights 0.5, 0.25, 0.25 and d = 1, 2, 4: mean 0.5 + 0.5 + 1 = 2;
 * V2 = 0.375, sum w (d - 2)^2 = 0.5 + 0 + 1 = 1.5, s^2 = 1.5 / 0.625 = 2.4,
 * se = sqrt(0.375 * 2.4) = 0.9486832981; Kish: n_eff = 1 / 0.375 = 8/3,
 * 5/3 degrees of freedom, t(0.975, 5/3) = 5.2422651 (the t density
 * integrated numerically): 2 -+ 4.9732494.  A second workload (one
 * window, d = -1) adds the interval over workloads: mean (2 - 1)/2 = 0.5,
 * s = sqrt(4.5), t(0.975, 1) = 12.7062047: 0.5 -+ 12.7062047 * 1.5. */
static void test_weights_and_workloads(void **state)
{
    (void)state;
    struct csv *c = parse("workload,window,weight,run,error\n"
                          "gzip,0,0.5,A,3\ngzip,1,0.25,A,5\ngzip,2,0.25,A,9\n"
                          "lua,0,1,A,4\n"
                          "gzip,0,0.5,B,2\ngzip,1,0.25,B,3\ngzip,2,0.25,B,5\n"
                          "lua,0,1,B,5\n");
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, NULL, 0, &p, &why), 0);
    assert_int_equal(p.nwl, 2);
    near(p.wl[0].ws.mean, 2, 1e-12);
    near(p.wl[0].ws.lo, 2 - 4.9732494, 2e-6);
    near(p.wl[0].ws.hi, 2 + 4.9732494, 2e-6);
    assert_string_equal(p.wl[1].workload, "lua");
    near(p.wl[1].ws.mean, -1, 1e-12);
    assert_true(isnan(p.wl[1].ws.lo));
    near(p.mean, 0.5, 1e-12);
    near(p.lo, 0.5 - 12.7062047 * 1.5, 1e-5);
    near(p.hi, 0.5 + 12.7062047 * 1.5, 1e-5);
    paired_free(&p);
    sbuf_free(&why);
    csv_free(c);
}

/* The per-workload interval is winstats_compute's: on a's own values it
 * gives what the runner writes as m_lo/m_hi, so a paired difference and
 * the results' intervals come from one computation. */
static void test_same_as_runner(void **state)
{
    (void)state;
    struct csv *c = parse("workload,window,weight,run,error\n"
                          "gzip,0,0.4615384615,A,83.66188638\ngzip,1,0.2307692308,A,92.87121266\n"
                          "gzip,2,0.3076923077,A,88.5\n"
                          "gzip,0,0.4615384615,B,0\ngzip,1,0.2307692308,B,0\ngzip,2,0.3076923077,B,0\n");
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, NULL, 0, &p, &why), 0);
    double x[3] = {83.66188638, 92.87121266, 88.5}, w[3] = {0.4615384615, 0.2307692308, 0.3076923077};
    struct winstats ws;
    winstats_compute(x, w, 3, &ws);
    near(p.wl[0].ws.mean, ws.mean, 1e-12);
    near(p.wl[0].ws.lo, ws.lo, 1e-12);
    near(p.wl[0].ws.hi, ws.hi, 1e-12);
    paired_free(&p);
    sbuf_free(&why);
    csv_free(c);
}

/* An empty cell leaves its window out (as the runner's statistics do). */
static void test_empty_cell(void **state)
{
    (void)state;
    struct csv *c = parse("workload,window,weight,run,error\n"
                          "gzip,0,0.5,A,3\ngzip,1,0.5,A,\ngzip,0,0.5,B,1\ngzip,1,0.5,B,7\n");
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, NULL, 0, &p, &why), 0);
    assert_int_equal(p.wl[0].n, 2);
    assert_int_equal(p.wl[0].ws.n, 1);
    near(p.wl[0].ws.mean, 2, 0);
    paired_free(&p);
    sbuf_free(&why);
    csv_free(c);
}

static void expect_error(const char *text, char *const *match, size_t nmatch, const char *want)
{
    struct csv *c = parse(text);
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, match, nmatch, &p, &why), -1);
    if (!strstr(sbuf_str(&why), want))
        fail_msg("message \"%s\" lacks \"%s\"", sbuf_str(&why), want);
    assert_int_equal(p.nwl, 0);
    sbuf_free(&why);
    csv_free(c);
}

static void test_errors(void **state)
{
    (void)state;
    /* a run missing in a window, each way round */
    expect_error("workload,window,weight,run,error\ngzip,0,1,A,1\ngzip,1,1,A,1\ngzip,0,1,B,1\n", NULL, 0,
                 "t.windows.csv: run:B has no row for workload gzip, window 1 (line 3 has the other)");
    expect_error("workload,window,weight,run,error\ngzip,0,1,A,1\ngzip,0,1,B,1\ngzip,1,1,B,1\n", NULL, 0,
                 "run:A has no row for workload gzip, window 1 (line 4 has the other)");
    /* twice in a window: the column that tells the rows apart */
    expect_error("workload,window,weight,run,k,error\ngzip,0,1,A,1,1\ngzip,0,1,A,2,1\ngzip,0,1,B,1,1\n", NULL, 0,
                 "run:A has 2 rows for workload gzip, window 0 (lines 2 and 3); they differ in k");
    /* ... which match pairs on, and then a k missing in B */
    char k0[] = "k", kk0[] = "kk", *k[] = {k0}, *bad[] = {kk0};
    expect_error("workload,window,weight,run,k,error\ngzip,0,1,A,1,1\ngzip,0,1,A,2,1\ngzip,0,1,B,1,1\n", k, 1,
                 "run:B has no row for workload gzip, window 0, k 2");
    expect_error("workload,window,weight,run,k,error\ngzip,0,1,A,1,1\ngzip,0,1,B,1,1\n", bad, 1,
                 "no column 'kk' in t.windows.csv (did you mean 'k'?)");
    expect_error("workload,window,weight,run,error\ngzip,0,0.5,A,1\ngzip,0,0.25,B,1\n", NULL, 0,
                 "the paired rows have different weights (0.5 and 0.25): not one window");
    expect_error("workload,window,weight,run,error\ngzip,0,1,A,x\ngzip,0,1,B,1\n", NULL, 0,
                 "line 2: 'x' in column error is not a number");
    expect_error("workload,window,weight,run,error\ngzip,0,1,A,\ngzip,0,1,B,1\n", NULL, 0,
                 "workload gzip: no window where both have a number in error");
    expect_error("workload,window,weight,run,error\ngzip,0,1,B,1\n", NULL, 0, "no row of run:A");
}

/* A main CSV (no window column): one pair per workload (and match). */
static void test_main_csv(void **state)
{
    (void)state;
    struct csv *c = parse("workload,run,interval,error\n"
                          "gzip,A,10,5\ngzip,A,20,6\ngzip,B,10,1\ngzip,B,20,1\nlua,A,10,2\nlua,B,10,4\n"
                          "lua,A,20,2\nlua,B,20,4\n");
    char m0[] = "interval", *m[] = {m0};
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair(c, m, 1, &p, &why), 0);
    assert_int_equal(p.nwl, 2);
    near(p.wl[0].ws.mean, 4.5, 1e-12); /* (4 + 5) / 2, equal weights */
    near(p.wl[1].ws.mean, -2, 1e-12);
    near(p.wl[1].ws.lo, -2, 1e-12); /* -2 and -2: no spread, se 0 */
    near(p.wl[1].ws.hi, -2, 1e-12);
    paired_free(&p);
    sbuf_free(&why);
    csv_free(c);
}

/* PAIRED_RATIO: d = a / b per window; b = 0 gives no ratio (NaN, counted
 * in nzero with its rows), an empty cell stays empty (not counted), every
 * window with b = 0 is an error. */
static int pair_ratio(const struct csv *c, struct paired *p, struct sbuf *why)
{
    size_t ra[32], rb[32];
    size_t na = rows_of(c, "run", "A", ra), nb = rows_of(c, "run", "B", rb);
    struct paired_cols pc;
    if (paired_columns(c, "error", NULL, 0, &pc, why) != 0)
        return -1;
    pc.op = PAIRED_RATIO;
    int rc = paired_compute(c, &pc, ra, na, rb, nb, "run:A", "run:B", p, why);
    paired_cols_free(&pc);
    return rc;
}

static void test_ratio(void **state)
{
    (void)state;
    /* ratios 90, 110, 100 (equal weights): mean 100, s^2 = 200 / 2 = 100,
     * se = sqrt(100 / 3), t(0.975, 2) = 4.302652730 */
    struct csv *c = parse("workload,window,weight,run,error\n"
                          "gzip,0,1,A,900\ngzip,0,1,B,10\ngzip,1,1,A,2200\ngzip,1,1,B,20\n"
                          "gzip,2,1,A,4000\ngzip,2,1,B,40\n"
                          "lua,0,1,A,5\ngzip,3,1,A,\ngzip,3,1,B,0\nlua,0,1,B,0\nlua,1,1,A,3\nlua,1,1,B,2\n");
    struct paired p;
    struct sbuf why = SBUF_INIT;
    assert_int_equal(pair_ratio(c, &p, &why), 0);
    assert_int_equal(p.nwl, 2);
    near(p.wl[0].d[0], 90, 1e-12);
    near(p.wl[0].d[1], 110, 1e-12);
    near(p.wl[0].d[2], 100, 1e-12);
    assert_true(isnan(p.wl[0].d[3]));    /* an empty a: empty, not a zero denominator */
    assert_int_equal(p.wl[0].nzero, 0);
    assert_int_equal(p.wl[0].ws.n, 3);
    near(p.wl[0].ws.mean, 100, 1e-9);
    near(p.wl[0].ws.lo, 100 - 4.302652730 * sqrt(100.0 / 3), 1e-6);
    /* lua: window 0 has b = 0 (lines 8 and 11), window 1 the ratio 1.5 */
    assert_true(isnan(p.wl[1].d[0]));
    assert_int_equal(p.wl[1].nzero, 1);
    assert_int_equal(csv_line(c, p.wl[1].zero_ra), 8);
    assert_int_equal(csv_line(c, p.wl[1].zero_rb), 11);
    assert_int_equal(p.wl[1].ws.n, 1);
    near(p.wl[1].ws.mean, 1.5, 1e-12);
    near(p.mean, (100 + 1.5) / 2, 1e-9);
    paired_free(&p);
    csv_free(c);
    /* the default op is still the difference */
    c = parse("workload,window,weight,run,error\ngzip,0,1,A,6\ngzip,0,1,B,2\n");
    assert_int_equal(pair(c, NULL, 0, &p, &why), 0);
    near(p.wl[0].d[0], 4, 0);
    paired_free(&p);
    csv_free(c);
    /* b = 0 in every window: no ratio at all */
    c = parse("workload,window,weight,run,error\ngzip,0,1,A,6\ngzip,0,1,B,0\ngzip,1,1,A,0\ngzip,1,1,B,0\n");
    assert_int_equal(pair_ratio(c, &p, &why), -1);
    if (!strstr(sbuf_str(&why), "workload gzip: run:B is 0 in error in every window (line 3 is one): no ratio"))
        fail_msg("message \"%s\"", sbuf_str(&why));
    assert_int_equal(p.nwl, 0);
    sbuf_free(&why);
    csv_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_weights), cmocka_unit_test(test_weights_and_workloads),
        cmocka_unit_test(test_same_as_runner), cmocka_unit_test(test_empty_cell),
        cmocka_unit_test(test_errors),         cmocka_unit_test(test_main_csv),
        cmocka_unit_test(test_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
