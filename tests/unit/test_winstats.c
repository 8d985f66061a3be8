/* test_winstats.c - Student t quantiles against tables, and the weighted
 * window statistics on cases computed by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/winstats.h"

static void near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.9g, want %.9g", got, want);
}

static void test_t_quantiles(void **state)
{
    (void)state;
    /* two-sided 95% critical values from any t table */
    near(student_t_quantile(0.975, 1), 12.7062047, 1e-5);
    near(student_t_quantile(0.975, 2), 4.30265273, 1e-6);
    near(student_t_quantile(0.975, 4), 2.77644511, 1e-6);
    near(student_t_quantile(0.975, 10), 2.22813885, 1e-6);
    near(student_t_quantile(0.975, 30), 2.04227246, 1e-6);
    near(student_t_quantile(0.975, 1e6), 1.95996, 1e-4);
    near(student_t_quantile(0.025, 4), -2.77644511, 1e-6);
    near(student_t_cdf(0, 3), 0.5, 1e-12);
    near(student_t_cdf(2.35336343, 3), 0.95, 1e-7);
}

/* Equal weights: the textbook interval.  x = 1, 2, 3: mean 2, s^2 = 1,
 * se = 1/sqrt(3), t(2) = 4.30265: [2 - 2.48414, 2 + 2.48414]. */
static void test_equal_weights(void **state)
{
    (void)state;
    double x[3] = { 1, 2, 3 }, w[3] = { 1, 1, 1 };
    struct winstats s;
    winstats_compute(x, w, 3, &s);
    near(s.mean, 2, 1e-12);
    near(s.min, 1, 0);
    near(s.max, 3, 0);
    near(s.hi - s.mean, 4.30265273 / sqrt(3), 1e-6);
    near(s.mean - s.lo, 4.30265273 / sqrt(3), 1e-6);
    assert_int_equal(s.n, 3);
}

/* Weights 0.5, 0.25, 0.25 on 4, 0, 8: mean 4; V2 = 0.375, n_eff = 8/3,
 * sum w d^2 = 0.25*16 + 0.25*16 = 8, s^2 = 8 / 0.625 = 12.8,
 * se = sqrt(0.375 * 12.8) = sqrt(4.8); df = 5/3. */
static void test_unequal_weights(void **state)
{
    (void)state;
    double x[3] = { 4, 0, 8 }, w[3] = { 0.5, 0.25, 0.25 };
    struct winstats s;
    winstats_compute(x, w, 3, &s);
    near(s.mean, 4, 1e-12);
    double t = student_t_quantile(0.975, 5.0 / 3.0);
    assert_true(t > 4.30265273 && t < 12.7062047); /* between df 2 and df 1 */
    near(s.hi - s.mean, t * sqrt(4.8), 1e-9);
}

/* NaN windows are skipped and the weights renormalised; one window has no
 * interval; no defined value gives NaN. */
static void test_nan_and_single(void **state)
{
    (void)state;
    double x[3] = { NAN, 5, NAN }, w[3] = { 0.2, 0.3, 0.5 };
    struct winstats s;
    winstats_compute(x, w, 3, &s);
    near(s.mean, 5, 0);
    assert_true(isnan(s.lo) && isnan(s.hi));
    assert_int_equal(s.n, 1);
    double y[2] = { NAN, NAN };
    winstats_compute(y, w, 2, &s);
    assert_true(isnan(s.mean) && isnan(s.min) && isnan(s.max));
    double z[2] = { 7, 7 }, wz[2] = { 1, 3 };
    winstats_compute(z, wz, 2, &s);
    near(s.mean, 7, 0);
    near(s.lo, 7, 0); /* no spread: the interval is the point */
    near(s.hi, 7, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_equal_weights),
        cmocka_unit_test(test_unequal_weights),
        cmocka_unit_test(test_nan_and_single),
    };
    return cmocka_run_group_tests_name("winstats", tests, NULL, NULL);
}
