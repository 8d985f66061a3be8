/* test_csv.c - src/core/csv.c: parsing (quotes, CRLF, blank lines, line numbers),
 * every malformed-input error with its file:line(:column), numbers as the
 * runner writes them, and a quoting round trip through the writer. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"

static struct csv *parse_ok(const char *text)
{
    struct diag d;
    struct csv *c;
    diag_init(&d, NULL);
    c = csv_parse(text, strlen(text), "results/x.csv", &d);
    if (!c) {
        char buf[512];
        fail_msg("parse failed: %s", diag_first(&d, buf, sizeof buf));
    }
    assert_true(diag_ok(&d));
    diag_free(&d);
    return c;
}

/* The one error of parsing text, formatted. */
static void parse_error(const char *text, size_t len, const char *want)
{
    struct diag d;
    char buf[512];
    diag_init(&d, NULL);
    assert_null(csv_parse(text, len, "results/x.csv", &d));
    assert_int_equal(diag_count(&d), 1);
    diag_first(&d, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("got  [%s]\nwant [%s]", buf, want);
    diag_free(&d);
}

static void test_parse(void **state)
{
    (void)state;
    struct csv *c = parse_ok("workload,run,label\r\n"
                             "gzip,BSH,\"a, b\"\r\n"
                             "\n"
                             "bzip2,\"say \"\"hi\"\"\",\"two\nlines\"\n"
                             "xz,,\n");
    assert_string_equal(csv_name(c), "results/x.csv");
    assert_int_equal(csv_ncols(c), 3);
    assert_int_equal(csv_nrows(c), 3);
    assert_string_equal(csv_header(c, 2), "label");
    assert_int_equal(csv_column(c, "run"), 1);
    assert_int_equal(csv_column(c, "nope"), -1);
    assert_string_equal(csv_cell(c, 0, 2), "a, b");
    assert_string_equal(csv_cell(c, 1, 1), "say \"hi\"");
    assert_string_equal(csv_cell(c, 1, 2), "two\nlines");
    assert_string_equal(csv_cell(c, 2, 1), "");
    assert_string_equal(csv_cell(c, 2, 2), "");
    /* line numbers: the blank line 3 is skipped, row 2 spans lines 4-5 */
    assert_int_equal(csv_line(c, 0), 2);
    assert_int_equal(csv_line(c, 1), 4);
    assert_int_equal(csv_line(c, 2), 6);
    csv_free(c);
    csv_free(NULL);

    /* No newline at the end; a header without rows. */
    c = parse_ok("a,b\n1,2");
    assert_int_equal(csv_nrows(c), 1);
    assert_string_equal(csv_cell(c, 0, 1), "2");
    csv_free(c);
    c = parse_ok("a,b\n");
    assert_int_equal(csv_nrows(c), 0);
    csv_free(c);
}

static void test_errors(void **state)
{
    (void)state;
    const char nul[] = "a,b\n1,\0\n";
    parse_error("a,b\n1,2,3\n", 10, "results/x.csv:2:1: 3 fields, the header has 2");
    parse_error("a,b\n1\n", 6, "results/x.csv:2:1: 1 fields, the header has 2");
    parse_error("a,b\n1,\"open\n", 12, "results/x.csv:2:3: unterminated quoted field");
    parse_error("a,b\n1,x\"y\n", 10,
                "results/x.csv:2:4: a double quote inside an unquoted field (quote the whole field)");
    parse_error("a,b\n\"x\"y,2\n", 11, "results/x.csv:2:4: text after the closing quote of a field");
    parse_error("", 0, "results/x.csv: empty file (no header line)");
    parse_error("\n\n", 2, "results/x.csv: empty file (no header line)");
    parse_error(nul, sizeof nul - 1, "results/x.csv: byte 6: NUL byte: not a CSV text file");
    parse_error("a,b,a\n", 6, "results/x.csv:1:1: column 'a' appears twice in the header");
    /* A quoted field spanning lines: the error names the line it is on. */
    parse_error("a,b\n\"x\ny\",1,2\n", 14, "results/x.csv:2:1: 3 fields, the header has 2");

    {
        struct diag d;
        char buf[512];
        diag_init(&d, NULL);
        assert_null(csv_read("/nonexistent/x.csv", &d));
        diag_first(&d, buf, sizeof buf);
        assert_string_equal(buf, "/nonexistent/x.csv: cannot read: No such file or directory");
        diag_free(&d);
    }
}

static void test_number(void **state)
{
    (void)state;
    double v = 0;
    assert_true(csv_number("12", &v));
    assert_true(v == 12);
    assert_true(csv_number("1e-2", &v));
    assert_true(v == 0.01);
    assert_true(csv_number(" -3.5 ", &v));
    assert_true(v == -3.5);
    assert_true(csv_number("0x400000", &v)); /* addresses */
    assert_true(v == 4194304);
    assert_false(csv_number("", &v));
    assert_false(csv_number("nan", &v));
    assert_false(csv_number("inf", &v));
    assert_false(csv_number("gzip", &v));
    assert_false(csv_number("1x", &v));
    assert_false(csv_number(NULL, &v));
}

static void test_format_number(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(csv_format_number(buf, sizeof buf, NAN), 0);
    assert_string_equal(buf, "");
    csv_format_number(buf, sizeof buf, 3.0);
    assert_string_equal(buf, "3");
    csv_format_number(buf, sizeof buf, -42.0);
    assert_string_equal(buf, "-42");
    csv_format_number(buf, sizeof buf, 123456789012345.0);
    assert_string_equal(buf, "123456789012345");
    csv_format_number(buf, sizeof buf, 1e15); /* integral, but not below 1e15 */
    assert_string_equal(buf, "1e+15");
    csv_format_number(buf, sizeof buf, 0.1);
    assert_string_equal(buf, "0.1");
    csv_format_number(buf, sizeof buf, 1.0 / 3);
    assert_string_equal(buf, "0.3333333333");
    csv_format_number(buf, sizeof buf, 2.5e-7);
    assert_string_equal(buf, "2.5e-07");
}

/* Fields written with csv_put_field / csv_put_number read back unchanged;
 * plain fields are not quoted. */
static void test_round_trip(void **state)
{
    (void)state;
    static const char *const fields[] = {"plain", "with,comma", "with \"quotes\"", "line\nbreak", "cr\rhere",
                                         "", " spaces ", "\"", "ünïcode"};
    const size_t n = sizeof fields / sizeof fields[0];
    static const double nums[] = {0, 1, -7, 0.125, 1.0 / 7, 1e20, NAN};
    const size_t nn = sizeof nums / sizeof nums[0];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    for (size_t i = 0; i < n + nn; i++)
        fprintf(f, "%sc%zu", i ? "," : "", i);
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        csv_put_field(f, fields[i]);
    }
    for (size_t i = 0; i < nn; i++) {
        fputc(',', f);
        csv_put_number(f, nums[i]);
    }
    fputc('\n', f);
    fclose(f);
    assert_non_null(strstr(text, "\nplain,\"with,comma\",\"with \"\"quotes\"\"\""));
    assert_non_null(strstr(text, ", spaces ,")); /* unquoted: nothing to protect */

    struct csv *c = parse_ok(text);
    assert_int_equal(csv_nrows(c), 1);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(csv_cell(c, 0, i), fields[i]);
    for (size_t i = 0; i < nn; i++) {
        double v;
        if (isnan(nums[i])) {
            assert_string_equal(csv_cell(c, 0, n + i), "");
            continue;
        }
        assert_true(csv_number(csv_cell(c, 0, n + i), &v));
        assert_true(fabs(v - nums[i]) <= 1e-9 * fabs(nums[i]));
    }
    csv_free(c);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),         cmocka_unit_test(test_errors),      cmocka_unit_test(test_number),
        cmocka_unit_test(test_format_number), cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
