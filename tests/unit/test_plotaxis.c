/* test_plotaxis.c - src/report/plotaxis.c: tick labels without exponents, linear
 * and log ranges, exact ticks for sweeps, and the floor that shows zeros on
 * a log axis. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plotaxis.h"

static void test_labels(void **state)
{
    (void)state;
    char b[32];
    axis_label_decade(-7, true, false, b, sizeof b);
    assert_string_equal(b, "10\u207b\u2077");
    axis_label_decade(2, true, false, b, sizeof b);
    assert_string_equal(b, "10\u00b2");
    axis_label_decade(0, true, false, b, sizeof b);
    assert_string_equal(b, "1");
    axis_label_decade(-2, false, false, b, sizeof b);
    assert_string_equal(b, "0.01");
    axis_label_decade(3, false, false, b, sizeof b);
    assert_string_equal(b, "1000");
    axis_label_decade(3, false, true, b, sizeof b);
    assert_string_equal(b, "1k");
    axis_label_decade(5, false, true, b, sizeof b);
    assert_string_equal(b, "100k");
    axis_label_decade(7, false, true, b, sizeof b);
    assert_string_equal(b, "10M");
    axis_label_decade(9, false, true, b, sizeof b);
    assert_string_equal(b, "1G");
    axis_label_decade(-5, false, false, b, sizeof b); /* too small for decimals */
    assert_string_equal(b, "10\u207b\u2075");

    axis_label_exact(16384, true, b, sizeof b);
    assert_string_equal(b, "16,384");
    axis_label_exact(10000, true, b, sizeof b);
    assert_string_equal(b, "10k");
    axis_label_exact(2500000, true, b, sizeof b);
    assert_string_equal(b, "2.5M");
    axis_label_exact(1024, false, b, sizeof b);
    assert_string_equal(b, "1024");
    axis_label_exact(2000, true, b, sizeof b);
    assert_string_equal(b, "2k");
    axis_label_exact(0.25, false, b, sizeof b);
    assert_string_equal(b, "0.25");
    axis_label_exact(2e-5, false, b, sizeof b);
    assert_string_equal(b, "2\u00d710\u207b\u2075");

    axis_label_linear(2500000, 500000, 1e6, b, sizeof b);
    assert_string_equal(b, "2.5M");
    axis_label_linear(40000, 20000, 1e3, b, sizeof b);
    assert_string_equal(b, "40k");
    axis_label_linear(0.5, 0.1, 1, b, sizeof b);
    assert_string_equal(b, "0.5");
    axis_label_linear(1e-12, 0.2, 1, b, sizeof b); /* rounding noise is 0 */
    assert_string_equal(b, "0");
}

static void make(struct axis *a, const double *v, size_t n, struct axis_opts o)
{
    struct axis_data ad;
    axis_data_init(&ad);
    for (size_t i = 0; i < n; i++)
        axis_data_add(&ad, v[i]);
    axis_make(a, &ad, &o);
}

static void assert_ticks(const struct axis *a, const char *want)
{
    char got[512] = "";
    size_t o = 0;
    for (size_t i = 0; i < a->nticks; i++)
        o += (size_t)snprintf(got + o, sizeof got - o, "%s%s", i ? " " : "", a->ticks[i].label);
    if (strcmp(got, want) != 0)
        fail_msg("ticks [%s], want [%s]", got, want);
}

static void test_linear(void **state)
{
    (void)state;
    struct axis a;
    const double pct[] = {3, 97};
    make(&a, pct, 2, (struct axis_opts){.from_zero = true});
    assert_true(a.min == 0 && a.max == 100);
    assert_ticks(&a, "0 20 40 60 80 100");

    const double big[] = {1.2e6, 4.9e6};
    make(&a, big, 2, (struct axis_opts){.from_zero = true});
    assert_ticks(&a, "0 1M 2M 3M 4M 5M");

    const double mid[] = {12000, 61000};
    make(&a, mid, 2, (struct axis_opts){0});
    assert_ticks(&a, "10k 20k 30k 40k 50k 60k 70k");

    /* tight: the data's range, ticks inside it */
    const double xs[] = {1, 16};
    make(&a, xs, 2, (struct axis_opts){.tight = true});
    assert_true(a.min == 1 && a.max == 16);
    assert_ticks(&a, "5 10 15");

    /* a flat panel of zeros gets [0, 1]; fixed bounds win */
    const double zeros[] = {0, 0};
    make(&a, zeros, 2, (struct axis_opts){.from_zero = true});
    assert_true(a.min == 0 && a.max == 1);
    make(&a, pct, 2, (struct axis_opts){.has_min = true, .min = 50, .has_max = true, .max = 100});
    assert_true(a.min == 50 && a.max == 100);
    assert_ticks(&a, "50 60 70 80 90 100");

    const double addr[] = {0x400000, 0x500000};
    make(&a, addr, 2, (struct axis_opts){.hex = true, .tight = true});
    assert_ticks(&a, "0x400000 0x440000 0x480000 0x4c0000 0x500000");
    assert_true(axis_place(&a, -5) == -5);
}

static void test_log(void **state)
{
    (void)state;
    struct axis a;
    const double v[] = {166000, 50000000};
    make(&a, v, 2, (struct axis_opts){.log = true});
    assert_true(fabs(a.min - 1e5) < 1 && fabs(a.max - 1e8) < 1);
    assert_false(a.zero_floor);
    assert_ticks(&a, "100k 1M 10M 100M");

    /* below 10^-3: powers of ten throughout */
    const double small[] = {4e-7, 3};
    make(&a, small, 2, (struct axis_opts){.log = true});
    assert_ticks(&a, "10\u207b\u2077 10\u207b\u2076 10\u207b\u2075 10\u207b\u2074 10\u207b\u00b3 10\u207b\u00b2 "
                     "10\u207b\u00b9 1 10");

    /* zeros: a floor one decade below the smallest positive value's */
    const double z[] = {0, 0.0009, 850};
    make(&a, z, 3, (struct axis_opts){.log = true});
    assert_true(a.zero_floor);
    assert_true(fabs(a.floor - 1e-5) < 1e-15);
    assert_true(axis_place(&a, 0) == a.floor);
    assert_true(axis_place(&a, 5) == 5);
    assert_string_equal(a.ticks[0].label, "0");
    assert_true(a.ticks[0].v == a.floor);
    assert_ticks(&a, "0 10\u207b\u2074 10\u207b\u00b3 10\u207b\u00b2 10\u207b\u00b9 1 10 10\u00b2 10\u00b3");

    /* a sweep's points as ticks, 1000 as 1k on an axis past 10k */
    const double sweep[] = {100, 1000, 10000, 100000, 1000000};
    make(&a, sweep, 5, (struct axis_opts){.log = true, .exact_ticks = true});
    assert_ticks(&a, "100 1k 10k 100k 1M");
    assert_true(a.min < 100 && a.max > 1e6);
    const double pow2[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
    make(&a, pow2, 10, (struct axis_opts){.log = true, .exact_ticks = true});
    assert_ticks(&a, "16 32 64 128 256 512 1024 2048 4096 8192");
    /* too close together for exact ticks: within a decade, 1-9 multiples */
    const double close[] = {20536, 22072, 25144, 31288, 43576};
    make(&a, close, 5, (struct axis_opts){.log = true, .exact_ticks = true, .tight = true});
    assert_ticks(&a, "20k 30k 40k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
