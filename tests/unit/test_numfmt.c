/* test_numfmt.c - src/report/numfmt.c: number formats computed by hand (the
 * markers' fmt= and a table section's "format"), and the formats each
 * refuses. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "report/numfmt.h"

static const char *fmt(const char *f, double v)
{
    static char buf[256];
    struct numfmt df;
    const char *why = NULL;
    if (numfmt_parse(f, &df, &why) != 0)
        fail_msg("format %s refused: %s", f, why);
    numfmt_apply(&df, v, buf, sizeof buf);
    return buf;
}

static void test_formats(void **state)
{
    (void)state;
    assert_string_equal(fmt("%.2f", 14.0449), "14.04");
    assert_string_equal(fmt("%.1f%%", 14.04), "14.0%");
    assert_string_equal(fmt("x%.1f", 2.94), "x2.9");
    assert_string_equal(fmt("%d", 2.5), "2");      /* round half to even */
    assert_string_equal(fmt("%d", 3.5), "4");
    assert_string_equal(fmt("%'d", 257875.2), "257,875");
    assert_string_equal(fmt("%'d", -1234567), "-1,234,567");
    assert_string_equal(fmt("%'.1f", 1345.04), "1,345.0");
    assert_string_equal(fmt("%'d", 999), "999");
    /* significant digits in plain notation: integer digits always kept */
    assert_string_equal(fmt("%.3r", 0.030101), "0.0301");
    assert_string_equal(fmt("%.3r", 1262.4), "1262");
    assert_string_equal(fmt("%.2r", 69.15), "69");
    assert_string_equal(fmt("%.2r", 0.0300), "0.03");
    assert_string_equal(fmt("%#.2r", 0.0300), "0.030"); /* # keeps trailing zeros */
    assert_string_equal(fmt("%.3r", 9.1), "9.1");
    assert_string_equal(fmt("%.3r", 25.0), "25");
    assert_string_equal(fmt("%.3r", 100.0), "100");
    assert_string_equal(fmt("%#.3r", 9.996), "10.0"); /* rounds up a digit: 3 digits still */
    assert_string_equal(fmt("%.3r", 9.996), "10");
    assert_string_equal(fmt("%.3r", 0), "0");
    assert_string_equal(fmt("%r", 3.14159), "3.14");  /* default 3 digits */
    assert_string_equal(fmt("%'.4r", 135412), "135,412");
    assert_string_equal(fmt("%.1r", 0.00016), "0.0002");
    /* no negative zero */
    assert_string_equal(fmt("%.2f", -0.001), "0.00");
    assert_string_equal(fmt("%.2f", -0.01), "-0.01");
    assert_string_equal(fmt("%6.2f", 3.14159), "  3.14");
    assert_string_equal(fmt("%-6.1f|", 3.14159), "3.1   |");
    assert_string_equal(fmt("%06.1f", -3.14159), "-003.1");
    assert_string_equal(fmt("%.3e", 12345), "1.234e+04");
    assert_string_equal(fmt("%g", 0.0001), "0.0001");

    struct numfmt f;
    const char *why;
    assert_int_equal(numfmt_parse("%.2f %d", &f, &why), -1);
    assert_non_null(strstr(why, "one conversion"));
    assert_int_equal(numfmt_parse("%s", &f, &why), -1);
    assert_int_equal(numfmt_parse("abc", &f, &why), -1);
    assert_int_equal(numfmt_parse("%.0r", &f, &why), -1);
    assert_int_equal(numfmt_parse("%#.2f", &f, &why), -1);
    assert_int_equal(numfmt_parse("%99f", &f, &why), -1);
    assert_int_equal(numfmt_parse("%.31f", &f, &why), -1);
}

/* The printf subset a config's table section takes. */
static void test_printf_subset(void **state)
{
    (void)state;
    struct numfmt f;
    assert_string_equal(fmt("%5d items", 41.6), "   42 items");
    assert_string_equal(fmt("%-6.1e|", 12345), "1.2e+04|");
    assert_string_equal(fmt("%.3g", 0.000123456), "0.000123");
    assert_int_equal(numfmt_parse("%.2f", &f, NULL), 0);
    assert_true(numfmt_is_printf(&f));
    assert_int_equal(numfmt_parse("%'d", &f, NULL), 0);
    assert_false(numfmt_is_printf(&f));
    assert_int_equal(numfmt_parse("%.3r", &f, NULL), 0);
    assert_false(numfmt_is_printf(&f));
    assert_int_equal(numfmt_parse("%f %f", &f, NULL), -1);
    assert_int_equal(numfmt_parse("no conversion", &f, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_printf_subset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
