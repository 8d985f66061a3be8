/* test_aggregate.c - src/report/aggregate.c: sums, means, extremes and where they
 * are, the 95% interval of a mean and of a geometric mean against values
 * worked out by hand, and the window-statistics columns of a metric. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "report/aggregate.h"

static void near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.12g, want %.12g", got, want);
}

/* 1, 4, 16 (and a NaN): sum 21, mean 7, s^2 = (36 + 9 + 81) / 2 = 63,
 * t(0.975, 2) = 4.30265273: 7 -+ 4.30265273 sqrt(63 / 3). */
static void test_mean(void **state)
{
    (void)state;
    double v[5] = {4, NAN, 1, 16, 1};
    struct agg_stats s;
    double lo, hi;
    agg_compute(v, 4, false, &s);
    assert_int_equal(s.n, 3);
    near(s.sum, 21, 0);
    near(agg_center(&s), 7, 1e-12);
    near(s.ss, 126, 1e-9);
    near(s.min, 1, 0);
    near(s.max, 16, 0);
    assert_int_equal(s.argmin, 2);
    assert_int_equal(s.argmax, 3);
    assert_true(agg_interval95(&s, &lo, &hi));
    near(lo, 7 - 4.30265273 * sqrt(21.0), 1e-6);
    near(hi, 7 + 4.30265273 * sqrt(21.0), 1e-6);
    /* ties: the first */
    agg_compute(v, 5, false, &s);
    assert_int_equal(s.argmin, 2);
    /* one value: no interval; none: NaN */
    agg_compute(v, 1, false, &s);
    near(agg_center(&s), 4, 0);
    assert_false(agg_interval95(&s, &lo, &hi));
    assert_true(isnan(lo) && isnan(hi));
    agg_compute(v + 1, 1, false, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(agg_center(&s)));
}

/* Geometric mean of 1, 4, 16: exp(mean ln) = 4, the sd of the logs ln 4:
 * 4 exp(-+ t(2) ln 4 / sqrt 3); min and max of the values themselves. */
static void test_geomean(void **state)
{
    (void)state;
    double v[3] = {1, 4, 16}, lo, hi;
    struct agg_stats s;
    agg_compute(v, 3, true, &s);
    near(agg_center(&s), 4, 1e-12);
    near(s.min, 1, 0);
    near(s.max, 16, 0);
    assert_true(agg_interval95(&s, &lo, &hi));
    double half = 4.30265273 * log(4.0) / sqrt(3.0);
    near(lo, 4 * exp(-half), 1e-6);
    near(hi, 4 * exp(half), 1e-5);
    /* large samples: t tends to 1.96 (t(0.975, 999) = 1.96234) */
    double w[1000];
    for (size_t i = 0; i < 1000; i++)
        w[i] = (double)(i % 2);
    agg_compute(w, 1000, false, &s);
    assert_true(agg_interval95(&s, &lo, &hi));
    near(hi - 0.5, 1.9623415 * sqrt(s.ss / 999) / sqrt(1000.0), 1e-7);
}

static void test_bounds(void **state)
{
    (void)state;
    struct diag d;
    char lo[64], hi[64];
    int a, b;
    const char *text = "workload,error_pct,error_pct_min,error_pct_max,error_pct_lo,error_pct_hi,fp,fp_lo\n"
                       "gzip,1,0,2,0.5,1.5,3,2\n";
    diag_init(&d, NULL);
    struct csv *c = csv_parse(text, strlen(text), "r.csv", &d);
    assert_non_null(c);
    agg_bound_names("fp", AGG_BOUNDS_MINMAX, lo, hi, sizeof lo);
    assert_string_equal(lo, "fp_min");
    assert_string_equal(hi, "fp_max");
    assert_true(agg_bound_columns(c, "error_pct", AGG_BOUNDS_CI, &a, &b));
    assert_int_equal(a, 4);
    assert_int_equal(b, 5);
    assert_true(agg_bound_columns(c, "error_pct", AGG_BOUNDS_MINMAX, &a, &b));
    assert_int_equal(a, 2);
    assert_false(agg_bound_columns(c, "fp", AGG_BOUNDS_CI, &a, &b)); /* fp_hi is missing */
    assert_int_equal(a, -1);
    assert_int_equal(b, -1);
    csv_free(c);
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean),
        cmocka_unit_test(test_geomean),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
