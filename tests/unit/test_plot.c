/* test_plot.c - unit tests for src/plot.c: CSV parsing, "where" filtering,
 * plot section validation, grouping order, the generated gnuplot script for
 * every plot type, markdown tables (exact output), and end-to-end runs of
 * `hwprof plot` / `hwprof table` that call the real gnuplot (a required
 * dependency: missing gnuplot fails the test).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"

/* ---- helpers ---------------------------------------------------------- */

static struct plot_csv *csv_ok(const char *text)
{
    char err[256] = "";
    struct plot_csv *csv = plot_csv_parse(text, "results/x.csv", err, sizeof err);
    if (!csv)
        fail_msg("csv parse failed: %s", err);
    return csv;
}

static json_t *json_ok(const char *text)
{
    json_error_t jerr;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!j)
        fail_msg("bad test JSON: %s", jerr.text);
    return j;
}

/* Generate the script for a plot section and CSV; returns malloc'd text or
 * NULL (then err holds the message). */
static char *script_for(const char *plot_json, const char *csv_text, const char *caption,
                        char *err, size_t errlen, int *w, int *h)
{
    json_t *plot = json_ok(plot_json);
    struct plot_csv *csv = csv_ok(csv_text);
    struct plot_spec spec;
    char *text = NULL;
    size_t len = 0;
    int rc;
    FILE *f = open_memstream(&text, &len);
    int wd, ht;

    assert_non_null(f);
    rc = plot_spec_parse(plot, &spec, err, errlen);
    if (rc == 0)
        rc = plot_write_script(f, &spec, csv, caption, w ? w : &wd, h ? h : &ht, err, errlen);
    fclose(f);
    plot_csv_free(csv);
    json_decref(plot);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("expected to find [%s] in:\n%s", needle, hay);
}

static void assert_before(const char *hay, const char *a, const char *b)
{
    const char *pa = strstr(hay, a), *pb = strstr(hay, b);
    if (!pa || !pb || pa >= pb)
        fail_msg("expected [%s] before [%s] in:\n%s", a, b, hay);
}

/* ---- CSV -------------------------------------------------------------- */

static void test_csv_basic(void **state)
{
    (void)state;
    struct plot_csv *csv = csv_ok("workload,run,tables,error\n"
                                  "gzip,a,1,0.5\r\n"
                                  "\n"
                                  "bzip2,,2,\n"
                                  "\"x,y\",\"say \"\"hi\"\"\",4,1e-3");
    assert_int_equal(csv->ncols, 4);
    assert_int_equal(csv->nrows, 3);
    assert_string_equal(csv->header[3], "error");
    assert_string_equal(plot_csv_cell(csv, 0, 3), "0.5"); /* \r dropped */
    assert_string_equal(plot_csv_cell(csv, 1, 1), "");    /* empty cells */
    assert_string_equal(plot_csv_cell(csv, 1, 3), "");
    assert_string_equal(plot_csv_cell(csv, 2, 0), "x,y");
    assert_string_equal(plot_csv_cell(csv, 2, 1), "say \"hi\"");
    assert_int_equal(csv->line[1], 4); /* blank line 3 skipped, lines counted */
    assert_int_equal(plot_csv_column(csv, "tables"), 2);
    assert_int_equal(plot_csv_column(csv, "nope"), -1);
    plot_csv_free(csv);
    plot_csv_free(NULL);
}

static void test_csv_errors(void **state)
{
    char err[256];
    (void)state;
    assert_null(plot_csv_parse("a,b\n1,2\n3\n", "results/x.csv", err, sizeof err));
    assert_string_equal(err, "results/x.csv:3: 1 fields, header has 2");
    assert_null(plot_csv_parse("", "results/x.csv", err, sizeof err));
    assert_string_equal(err, "results/x.csv: empty file (no header line)");
    assert_null(plot_csv_parse("a,b\n\"1,2\n", "results/x.csv", err, sizeof err));
    assert_string_equal(err, "results/x.csv:2: unterminated quoted field");
    assert_null(plot_csv_read("/nonexistent/x.csv", err, sizeof err));
    assert_non_null(strstr(err, "cannot read /nonexistent/x.csv"));
}

static void test_cell_number(void **state)
{
    double v = 0;
    (void)state;
    assert_true(plot_cell_number("0.25", &v));
    assert_true(v == 0.25);
    assert_true(plot_cell_number(" 1e3 ", &v));
    assert_true(v == 1000);
    assert_false(plot_cell_number("", &v));
    assert_false(plot_cell_number("gzip", &v));
    assert_false(plot_cell_number("12abc", &v));
    assert_false(plot_cell_number("nan", &v));
    assert_false(plot_cell_number("inf", &v));
}

/* ---- where ------------------------------------------------------------ */

static const char *where_csv = "workload,eps,tables,flag,note\n"
                               "gzip,0.01,1,1,\n"
                               "gzip,0.1,2,0,x\n"
                               "bzip2,0.01,4,1,y\n"
                               "xz,1e-2,8,0,\n";

static size_t filter(const char *where_json, size_t *rows, size_t max, char *err, size_t errlen)
{
    struct plot_csv *csv = csv_ok(where_csv);
    json_t *where = where_json ? json_ok(where_json) : NULL;
    size_t n = 0, *r = plot_filter_rows(csv, where, "plot.where", &n, err, errlen);
    json_decref(where);
    plot_csv_free(csv);
    if (!r)
        return SIZE_MAX;
    for (size_t i = 0; i < n && i < max; i++)
        rows[i] = r[i];
    free(r);
    return n;
}

static void test_where(void **state)
{
    size_t rows[8];
    char err[256];
    (void)state;
    assert_int_equal(filter(NULL, rows, 8, err, sizeof err), 4);
    assert_int_equal(filter("{\"workload\": \"gzip\"}", rows, 8, err, sizeof err), 2);
    assert_int_equal(rows[0], 0);
    assert_int_equal(rows[1], 1);
    /* numbers match numerically: 0.01 matches "0.01" and "1e-2" */
    assert_int_equal(filter("{\"eps\": 0.01}", rows, 8, err, sizeof err), 3);
    assert_int_equal(rows[2], 3);
    /* lists: any of; several keys: all of */
    assert_int_equal(filter("{\"workload\": [\"bzip2\", \"xz\"], \"tables\": [4, 16]}", rows, 8,
                            err, sizeof err),
                     1);
    assert_int_equal(rows[0], 2);
    assert_int_equal(filter("{\"flag\": true}", rows, 8, err, sizeof err), 2);
    assert_int_equal(filter("{\"flag\": false, \"note\": null}", rows, 8, err, sizeof err), 1);
    assert_int_equal(rows[0], 3);
    assert_int_equal(filter("{\"workload\": \"lua\"}", rows, 8, err, sizeof err), 0);
    /* errors */
    assert_int_equal(filter("{\"bogus\": 1}", rows, 8, err, sizeof err), SIZE_MAX);
    assert_string_equal(err, "plot.where.bogus: column 'bogus' not in results/x.csv");
    assert_int_equal(filter("{\"eps\": {\"a\": 1}}", rows, 8, err, sizeof err), SIZE_MAX);
    assert_non_null(strstr(err, "plot.where.eps: must be"));
    assert_int_equal(filter("{\"eps\": []}", rows, 8, err, sizeof err), SIZE_MAX);
    assert_string_equal(err, "plot.where.eps: empty list matches nothing");
}

/* ---- validation ------------------------------------------------------- */

static void expect_invalid(const char *plot_json, const char *msg)
{
    char err[512] = "";
    json_t *plot = json_ok(plot_json);
    int rc = plot_validate_section(plot, err, sizeof err);
    json_decref(plot);
    if (rc == 0)
        fail_msg("accepted invalid plot section %s", plot_json);
    if (strstr(err, msg) == NULL)
        fail_msg("message [%s] lacks [%s]", err, msg);
}

static void test_validate(void **state)
{
    char err[256];
    json_t *ok;
    (void)state;
    assert_int_equal(plot_validate_section(NULL, err, sizeof err), 0);
    ok = json_ok("{\"type\": \"lines\", \"source\": \"series\", \"x\": \"interval\","
                 " \"y\": [\"error\"], \"group\": [\"run\"], \"panels\": null,"
                 " \"where\": {\"workload\": [\"gzip\", \"xz\"]}, \"logx\": true, \"logy\": false,"
                 " \"xlabel\": \"i\", \"ylabel\": \"e\", \"title\": \"t\", \"yrange\": [0, null]}");
    assert_int_equal(plot_validate_section(ok, err, sizeof err), 0);
    json_decref(ok);

    expect_invalid("[]", "plot: must be an object");
    expect_invalid("{\"x\": \"a\", \"y\": [\"b\"]}", "plot.type: required");
    expect_invalid("{\"type\": \"pie\", \"x\": \"a\", \"y\": [\"b\"]}",
                   "plot.type: unknown type 'pie' (known: lines, bars, stacked)");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"colour\": 1}",
                   "plot.colour: unknown key (known: type, source, x, y, group, panels, where,");
    expect_invalid("{\"type\": \"bars\", \"y\": [\"b\"]}", "plot.x: required");
    expect_invalid("{\"type\": \"bars\", \"x\": 3, \"y\": [\"b\"]}", "plot.x: must be");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\"}", "plot.y: required");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": \"b\"}",
                   "plot.y: must be a list of column names");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": []}", "plot.y: must name at least one");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\", 2]}",
                   "plot.y[1]: must be a non-empty string");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"group\": \"c\"}",
                   "plot.group: must be a list");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"panels\": []}",
                   "plot.panels: must be a column name or null");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"source\": \"other\"}",
                   "plot.source: must be \"main\" or \"series\"");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"logy\": 1}",
                   "plot.logy: must be true or false");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"logx\": true}",
                   "plot.logx: only for type \"lines\"");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"title\": 1}",
                   "plot.title: must be a string");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"yrange\": [1]}",
                   "plot.yrange: must be [min, max]");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"yrange\": [2, 1]}",
                   "plot.yrange: min (2) must be less than max (1)");
    expect_invalid("{\"type\": \"bars\", \"x\": \"a\", \"y\": [\"b\"], \"where\": [1]}",
                   "plot.where: must be an object");
}

static void test_validate_table(void **state)
{
    char err[256];
    json_t *t;
    (void)state;
    assert_int_equal(plot_validate_table(NULL, err, sizeof err), 0);
    t = json_ok("{\"columns\": [\"a\"], \"where\": {\"a\": 1},"
                " \"format\": {\"a\": \"%.2f\", \"b\": \"%5d items\", \"c\": \"%.1f%%\"}}");
    assert_int_equal(plot_validate_table(t, err, sizeof err), 0);
    json_decref(t);
    t = json_ok("{\"format\": {\"a\": \"%s\"}}");
    assert_int_equal(plot_validate_table(t, err, sizeof err), -1);
    assert_non_null(strstr(err, "table.format.a: must be a string with one conversion"));
    json_decref(t);
    t = json_ok("{\"format\": {\"a\": \"%f %f\"}}");
    assert_int_equal(plot_validate_table(t, err, sizeof err), -1);
    json_decref(t);
    t = json_ok("{\"colums\": []}");
    assert_int_equal(plot_validate_table(t, err, sizeof err), -1);
    assert_non_null(strstr(err, "table.colums: unknown key"));
    json_decref(t);
}

/* ---- generated scripts ------------------------------------------------ */

static const char *lines_csv = "workload,run,model,tables,interval_len,error\n"
                               "gzip,b,mh,4,1000000,3\n"
                               "gzip,b,mh,4,10000,2\n"
                               "gzip,a,mh,1,10000,8\n"
                               "gzip,a,mh,1,1000000,9\n"
                               "bzip2,b,mh,4,10000,1\n"
                               "bzip2,a,mh,1,10000,7\n"
                               "bzip2,a,mh,1,100000,\n";

static void test_script_lines(void **state)
{
    char err[256];
    int w, h;
    char *s;
    (void)state;
    s = script_for("{\"type\": \"lines\", \"x\": \"interval_len\", \"y\": [\"error\"],"
                   " \"group\": [\"tables\"], \"where\": {\"workload\": \"gzip\"}, \"logx\": true}",
                   lines_csv, "Figure 12: error", err, sizeof err, &w, &h);
    if (!s)
        fail_msg("%s", err);
    /* groups in order of first appearance (tables=4 first), points sorted by x */
    assert_contains(s, "$p0s0 << EOD\n10000 2\n1000000 3\nEOD\n");
    assert_contains(s, "$p0s1 << EOD\n10000 8\n1000000 9\nEOD\n");
    assert_before(s, "title \"tables=4\"", "title \"tables=1\"");
    assert_contains(s, "plot $p0s0 using 1:2 with linespoints lw 2 lc 1 dt 1 pt 1 title \"tables=4\"");
    assert_contains(s, "$p0s1 using 1:2 with linespoints lw 2 lc 2 dt 1 pt 2 title \"tables=1\"");
    assert_contains(s, "set logscale x\n");
    assert_contains(s, "set format x \"%.0s%c\"\n");
    assert_contains(s, "set xlabel \"interval_len\"\n");
    assert_contains(s, "set ylabel \"error\"\n");
    assert_contains(s, "set title \"Figure 12: error\"\n");
    assert_contains(s, "set termoption noenhanced\n");
    assert_null(strstr(s, "multiplot"));
    assert_int_equal(w, 900);
    assert_int_equal(h, 500);
    free(s);

    /* panels: multiplot grid, one title per panel, empty y cells left out */
    s = script_for("{\"type\": \"lines\", \"x\": \"interval_len\", \"y\": [\"error\"],"
                   " \"group\": [\"run\"], \"panels\": \"workload\", \"title\": \"T\","
                   " \"xlabel\": \"interval\", \"ylabel\": \"error (%)\", \"yrange\": [0, null]}",
                   lines_csv, "caption", err, sizeof err, &w, &h);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "set multiplot layout 1,2 rowsfirst title \"T\"");
    assert_before(s, "set title \"workload: gzip\"", "set title \"workload: bzip2\"");
    assert_contains(s, "$p1s1 << EOD\n10000 7\nEOD\n"); /* bzip2, run a; empty cell skipped */
    assert_contains(s, "set yrange [0:*]\n");
    assert_contains(s, "set xlabel \"interval\"\n");
    assert_contains(s, "set ylabel \"error (%)\"\n");
    assert_contains(s, "unset multiplot\n");
    assert_int_equal(w, 1400);
    assert_int_equal(h, 450);
    free(s);

    /* several y columns and groups: colour per group, dash type per column */
    s = script_for("{\"type\": \"lines\", \"x\": \"interval_len\", \"y\": [\"error\", \"tables\"],"
                   " \"group\": [\"workload\", \"run\"]}",
                   lines_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "$p0s0 using 1:2 with linespoints lw 2 lc 1 dt 1 pt 1 title \"error, gzip, b\"");
    assert_contains(s, "$p0s1 using 1:2 with linespoints lw 2 lc 1 dt 2 pt 1 title \"tables, gzip, b\"");
    assert_contains(s, "$p0s2 using 1:2 with linespoints lw 2 lc 2 dt 1 pt 2 title \"error, gzip, a\"");
    free(s);

    /* two rows on one point of one line: the grouping is incomplete */
    s = script_for("{\"type\": \"lines\", \"x\": \"interval_len\", \"y\": [\"error\"],"
                   " \"group\": [\"run\"]}",
                   lines_csv, NULL, err, sizeof err, NULL, NULL);
    assert_null(s);
    assert_string_equal(err, "plot: results/x.csv lines 3 and 6 give two points at interval_len = "
                             "10000 on one line; add the column that tells them apart to "
                             "plot.group, plot.panels or plot.where");
}

/* Rows selected but every plotted value empty (metrics of a window with no
 * complete interval): an empty figure that says so, for every plot type. */
static void test_script_no_data(void **state)
{
    static const char empty_csv[] = "workload,x,error\n"
                                    "gzip,1,\n"
                                    "gzip,2,\n";
    static const char *const types[] = { "lines", "bars", "stacked" };
    char err[256], spec[256];
    (void)state;
    for (size_t t = 0; t < 3; t++) {
        snprintf(spec, sizeof spec, "{\"type\": \"%s\", \"x\": \"x\", \"y\": [\"error\"]}", types[t]);
        char *s = script_for(spec, empty_csv, NULL, err, sizeof err, NULL, NULL);
        if (!s)
            fail_msg("%s: %s", types[t], err);
        assert_contains(s, "no data: every plotted value is empty");
        assert_contains(s, "plot 2 notitle\n");
        free(s);
        /* a CSV with a header and no rows at all, with and without panels */
        s = script_for(spec, "workload,x,error\n", NULL, err, sizeof err, NULL, NULL);
        if (!s)
            fail_msg("%s, no rows: %s", types[t], err);
        assert_contains(s, "plot 2 notitle\n");
        free(s);
        snprintf(spec, sizeof spec, "{\"type\": \"%s\", \"x\": \"x\", \"y\": [\"error\"], \"panels\": \"workload\"}",
                 types[t]);
        s = script_for(spec, "workload,x,error\n", NULL, err, sizeof err, NULL, NULL);
        if (!s)
            fail_msg("%s, no rows, panels: %s", types[t], err);
        assert_contains(s, "plot 2 notitle\n");
        free(s);
    }
}

/* A panel whose y values are all equal (zero error everywhere) gets its own
 * range, reset after its plot; panels with spread keep autoscaling. */
static void test_script_lines_flat_panel(void **state)
{
    static const char flat_csv[] = "workload,x,error\n"
                                   "gzip,1,0.5\n"
                                   "gzip,2,1.5\n"
                                   "lua,1,0\n"
                                   "lua,2,0\n"
                                   "perl,1,4\n"
                                   "perl,2,4\n";
    char err[256];
    char *s;
    (void)state;
    s = script_for("{\"type\": \"lines\", \"x\": \"x\", \"y\": [\"error\"],"
                   " \"panels\": \"workload\"}",
                   flat_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_before(s, "set title \"workload: gzip\"", "set yrange [0:1]\n");
    assert_before(s, "set title \"workload: lua\"", "set yrange [0:1]\n");
    assert_before(s, "set yrange [0:1]\n", "set title \"workload: perl\"");
    assert_contains(s, "set yrange [3.8:4.2]\n");
    assert_contains(s, "set autoscale y\n");
    /* only the two flat panels get a range */
    const char *first = strstr(s, "set yrange");
    assert_non_null(first);
    const char *second = strstr(first + 1, "set yrange");
    assert_non_null(second);
    assert_null(strstr(second + 1, "set yrange"));
    free(s);

    /* a user-given yrange wins over the flat-panel range */
    s = script_for("{\"type\": \"lines\", \"x\": \"x\", \"y\": [\"error\"],"
                   " \"panels\": \"workload\", \"yrange\": [0, 10]}",
                   flat_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_null(strstr(s, "set yrange [0:1]"));
    assert_null(strstr(s, "set autoscale y"));
    free(s);
}

static void test_script_lines_errors(void **state)
{
    char err[256];
    (void)state;
    assert_null(script_for("{\"type\": \"lines\", \"x\": \"interval_len\", \"y\": [\"error\", \"foo\"]}",
                           lines_csv, NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.y[1]: column 'foo' not in results/x.csv");
    assert_null(script_for("{\"type\": \"lines\", \"x\": \"nox\", \"y\": [\"error\"]}", lines_csv,
                           NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.x: column 'nox' not in results/x.csv");
    assert_null(script_for("{\"type\": \"lines\", \"x\": \"a\", \"y\": [\"error\"], \"group\": [\"g\"]}",
                           "a,error\n1,2\n", NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.group[0]: column 'g' not in results/x.csv");
    assert_null(script_for("{\"type\": \"lines\", \"x\": \"workload\", \"y\": [\"error\"],"
                           " \"group\": [\"run\"], \"panels\": \"tables\"}",
                           lines_csv, NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.x: column 'workload' has the non-numeric value 'gzip' "
                             "(results/x.csv:2)");
    assert_null(script_for("{\"type\": \"lines\", \"x\": \"tables\", \"y\": [\"error\"],"
                           " \"where\": {\"workload\": \"lua\"}}",
                           lines_csv, NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.where: no row of results/x.csv matches");
}

static const char *bars_csv = "workload,config,fp,fn,np,nn\n"
                              "gzip,R0P0,1,2,3,4\n"
                              "gzip,R1P0,2,2,2,2\n"
                              "bzip2,R0P0,4,3,2,1\n"
                              "bzip2,R1P0,0,1,,1\n"
                              "xz,R1P0,1,1,1,1\n";

static void test_script_bars(void **state)
{
    char err[256];
    char *s;
    (void)state;
    s = script_for("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"fp\"], \"group\": [\"config\"]}",
                   bars_csv, "Bars", err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    /* categories in CSV order, one column per group, NaN for a missing bar */
    assert_contains(s, "$p0 << EOD\n\"gzip\" 1 2\n\"bzip2\" 4 0\n\"xz\" NaN 1\nEOD\n");
    assert_contains(s, "set style data histograms\n");
    assert_contains(s, "set style histogram clustered gap 1\n");
    assert_contains(s, "set yrange [0:*]\n");
    assert_contains(s, "set xrange [-0.5:2.5]\n");
    assert_contains(s, "plot $p0 using 2:xtic(1) lc 1 title \"R0P0\", \\\n"
                       "     $p0 using 3 lc 2 title \"R1P0\"\n");
    free(s);

    /* several y columns without groups: a bar per column */
    s = script_for("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"fp\", \"fn\"],"
                   " \"where\": {\"config\": \"R0P0\"}, \"logy\": true}",
                   bars_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "\"gzip\" 1 2\n\"bzip2\" 4 3\n");
    assert_contains(s, "title \"fp\"");
    assert_contains(s, "title \"fn\"");
    assert_contains(s, "set logscale y\n");
    assert_null(strstr(s, "set yrange"));
    free(s);

    /* two rows for one bar */
    assert_null(script_for("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"fp\"]}", bars_csv,
                           NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot: results/x.csv lines 2 and 3 give the same bar (workload 'gzip'); "
                             "add the column that tells them apart to plot.group, plot.panels "
                             "or plot.where");
    /* non-numeric y */
    assert_null(script_for("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"config\"],"
                           " \"group\": [\"config\"]}",
                           bars_csv, NULL, err, sizeof err, NULL, NULL));
    assert_string_equal(err, "plot.y[0]: column 'config' has the non-numeric value 'R0P0' "
                             "(results/x.csv:2)");
}

static void test_script_stacked(void **state)
{
    char err[256];
    char *s;
    (void)state;
    s = script_for("{\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp\", \"fn\", \"np\", \"nn\"],"
                   " \"group\": [\"config\"], \"ylabel\": \"error (%)\"}",
                   bars_csv, "Figure 7", err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    /* one block per category, a row per group, segments bottom first */
    assert_contains(s, "$p0c0 << EOD\n\"R0P0\" 1 2 3 4\n\"R1P0\" 2 2 2 2\nEOD\n");
    assert_contains(s, "$p0c1 << EOD\n\"R0P0\" 4 3 2 1\n\"R1P0\" 0 1 NaN 1\nEOD\n");
    assert_contains(s, "$p0c2 << EOD\n\"R1P0\" 1 1 1 1\nEOD\n");
    assert_contains(s, "set style histogram rowstacked");
    assert_contains(s, "plot newhistogram \"gzip\" lt 1, \\\n"
                       "       $p0c0 using 2:xtic(1) lc 1 title \"fp\", \\\n"
                       "       $p0c0 using 3 lc 2 title \"fn\", \\\n"
                       "       $p0c0 using 4 lc 3 title \"np\", \\\n"
                       "       $p0c0 using 5 lc 4 title \"nn\", \\\n"
                       "     newhistogram \"bzip2\" lt 1, \\\n"
                       "       $p0c1 using 2:xtic(1) lc 1 notitle, \\\n");
    assert_contains(s, "newhistogram \"xz\" lt 1");
    assert_contains(s, "set xlabel \" \"\n"); /* room for the cluster titles */
    free(s);

    /* without groups: one stacked bar per category */
    s = script_for("{\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp\", \"fn\"],"
                   " \"where\": {\"config\": \"R1P0\"}}",
                   bars_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "$p0 << EOD\n\"gzip\" 2 2\n\"bzip2\" 0 1\n\"xz\" 1 1\nEOD\n");
    assert_contains(s, "plot $p0 using 2:xtic(1) lc 1 title \"fp\", \\\n"
                       "     $p0 using 3 lc 2 title \"fn\"\n");
    assert_null(strstr(s, "newhistogram"));
    free(s);

    /* panels with stacked bars */
    s = script_for("{\"type\": \"stacked\", \"x\": \"config\", \"y\": [\"fp\", \"fn\"],"
                   " \"panels\": \"workload\"}",
                   bars_csv, NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "set multiplot layout 1,3 rowsfirst\n");
    assert_contains(s, "$p2 << EOD\n\"R1P0\" 1 1\nEOD\n");
    free(s);
}

static void test_grouping_labels(void **state)
{
    char err[256];
    char *s;
    (void)state;
    /* numeric group values are shown as col=value, names as they are; two
     * group columns are joined; order of first appearance */
    s = script_for("{\"type\": \"bars\", \"x\": \"w\", \"y\": [\"e\"], \"group\": [\"hash\", \"t\"]}",
                   "w,hash,t,e\n"
                   "gzip,C1R0,8,1\n"
                   "gzip,C0R0,8,2\n"
                   "gzip,C1R0,2,3\n",
                   NULL, err, sizeof err, NULL, NULL);
    if (!s)
        fail_msg("%s", err);
    assert_contains(s, "\"gzip\" 1 2 3\n");
    assert_before(s, "title \"C1R0, t=8\"", "title \"C0R0, t=8\"");
    assert_before(s, "title \"C0R0, t=8\"", "title \"C1R0, t=2\"");
    free(s);
}

/* ---- markdown tables -------------------------------------------------- */

static char *table_for(const char *csv_text, const char *table_json, const char *where_json,
                       char *err, size_t errlen)
{
    struct plot_csv *csv = csv_ok(csv_text);
    json_t *table = table_json ? json_ok(table_json) : NULL;
    json_t *where = where_json ? json_ok(where_json) : NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = plot_table_render(f, csv, table, where, err, errlen);
    fclose(f);
    plot_csv_free(csv);
    json_decref(table);
    json_decref(where);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static const char *table_csv = "workload,run,methods,calls,ratio\n"
                               "gzip,a|b,120,34567,0.123456\n"
                               "python,a,4021,,1.5\n"
                               "sqlite,a,987,12,2\n";

static void test_table(void **state)
{
    char err[256];
    char *s;
    (void)state;
    s = table_for(table_csv, NULL, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_string_equal(s, "| workload | run  | methods | calls |    ratio |\n"
                           "| -------- | ---- | ------: | ----: | -------: |\n"
                           "| gzip     | a\\|b |     120 | 34567 | 0.123456 |\n"
                           "| python   | a    |    4021 |       |      1.5 |\n"
                           "| sqlite   | a    |     987 |    12 |        2 |\n");
    free(s);

    s = table_for(table_csv,
                  "{\"columns\": [\"workload\", \"ratio\", \"methods\"],"
                  " \"format\": {\"ratio\": \"%.2f%%\", \"methods\": \"%d\"}}",
                  "{\"workload\": [\"gzip\", \"sqlite\"]}", err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_string_equal(s, "| workload | ratio | methods |\n"
                           "| -------- | ----: | ------: |\n"
                           "| gzip     | 0.12% |     120 |\n"
                           "| sqlite   | 2.00% |     987 |\n");
    free(s);

    /* table.where wins over the plot's where */
    s = table_for(table_csv, "{\"columns\": [\"workload\"], \"where\": {\"run\": \"a\"}}",
                  "{\"workload\": \"gzip\"}", err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_string_equal(s, "| workload |\n"
                           "| -------- |\n"
                           "| python   |\n"
                           "| sqlite   |\n");
    free(s);

    assert_null(table_for(table_csv, "{\"columns\": [\"workload\", \"nope\"]}", NULL, err, sizeof err));
    assert_string_equal(err, "table.columns[1]: column 'nope' not in results/x.csv");
    assert_null(table_for(table_csv, "{\"format\": {\"nope\": \"%.1f\"}}", NULL, err, sizeof err));
    assert_string_equal(err, "table.format.nope: column 'nope' not in results/x.csv");
    assert_null(table_for(table_csv, NULL, "{\"nope\": 1}", err, sizeof err));
    assert_string_equal(err, "plot.where.nope: column 'nope' not in results/x.csv");
}

/* ---- end to end (runs gnuplot) ---------------------------------------- */

static char tmpdir[256];

static void write_text(const char *rel, const char *text)
{
    char path[512], dir[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    for (char *p = strcpy(dir, path) + strlen(tmpdir) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0777);
            *p = '/';
        }
    }
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static long file_size(const char *rel)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static char *slurp(const char *rel)
{
    char path[512];
    FILE *f;
    char *buf = calloc(1, 1 << 16);
    size_t n;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    f = fopen(path, "r");
    if (!f) {
        free(buf);
        return NULL;
    }
    n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int run_cmd(int (*fn)(int, char **), const char *stem)
{
    char config[512], results[512], plots[512], build[512];
    char cmd_plot[] = "plot", cmd_table[] = "table", opt_results[] = "--results",
         opt_plots[] = "--plots", opt_build[] = "--build";
    char *argv[] = {cmd_plot, config, opt_results, results, opt_plots, plots, opt_build, build, NULL};
    snprintf(config, sizeof config, "%s/configs/t/%s.json", tmpdir, stem);
    snprintf(results, sizeof results, "%s/results", tmpdir);
    snprintf(plots, sizeof plots, "%s/plots", tmpdir);
    snprintf(build, sizeof build, "%s/build", tmpdir);
    if (fn == table_main) {
        argv[0] = cmd_table;
        argv[4] = NULL;
        return fn(4, argv);
    }
    return fn(8, argv);
}

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hwprof-test-plot-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void assert_png(const char *rel)
{
    char *b = slurp(rel);
    assert_non_null(b);
    assert_memory_equal(b, "\x89PNG", 4);
    free(b);
}

static void test_e2e_plot(void **state)
{
    char *svg;
    (void)state;
    write_text("configs/t/fig.json",
               "{\"name\": \"fig\", \"paper\": \"t\", \"caption\": \"Tiny: error vs tables\",\n"
               " \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": [\"error\"],"
               " \"group\": [\"workload\"], \"logx\": true}}\n");
    write_text("results/t/fig.csv", "workload,run,model,tables,error\n"
                                    "gzip,a,mh,1,10\ngzip,a,mh,2,6\ngzip,a,mh,4,3\n"
                                    "xz,a,mh,1,12\nxz,a,mh,2,7\nxz,a,mh,4,5\n");
    assert_int_equal(run_cmd(plot_main, "fig"), 0);
    assert_true(file_size("plots/t/fig.svg") > 0);
    assert_true(file_size("plots/t/fig.png") > 0);
    assert_png("plots/t/fig.png");
    svg = slurp("plots/t/fig.svg");
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "Tiny: error vs tables"));
    free(svg);
    assert_true(file_size("build/plots/t/fig.gen.gp") > 0);

    /* stacked and bars too */
    write_text("configs/t/st.json",
               "{\"paper\": \"t\", \"caption\": \"stacked\", \"plot\": {\"type\": \"stacked\","
               " \"x\": \"workload\", \"y\": [\"fp\", \"fn\"], \"group\": [\"config\"]}}\n");
    write_text("results/t/st.csv", "workload,config,fp,fn\ngzip,R0,1,2\ngzip,R1,2,1\nxz,R0,3,1\n");
    assert_int_equal(run_cmd(plot_main, "st"), 0);
    assert_png("plots/t/st.png");
    write_text("configs/t/bars.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"bars\", \"x\": \"workload\","
               " \"y\": [\"fp\", \"fn\"], \"panels\": \"config\"}}\n");
    write_text("results/t/bars.csv", "workload,config,fp,fn\ngzip,R0,1,2\ngzip,R1,2,1\nxz,R0,3,1\n");
    assert_int_equal(run_cmd(plot_main, "bars"), 0);
    assert_png("plots/t/bars.png");
}

static void test_e2e_errors(void **state)
{
    (void)state;
    /* column not in the CSV: error, no output */
    write_text("configs/t/bad.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\","
                                     " \"x\": \"tables\", \"y\": [\"error\", \"foo\"]}}\n");
    write_text("results/t/bad.csv", "tables,error\n1,2\n2,3\n");
    assert_int_equal(run_cmd(plot_main, "bad"), 1);
    assert_int_equal(file_size("plots/t/bad.svg"), -1);
    assert_int_equal(file_size("plots/t/bad.png"), -1);
    /* unknown key */
    write_text("configs/t/bad2.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\","
                                      " \"x\": \"tables\", \"y\": [\"error\"], \"colour\": 1}}\n");
    write_text("results/t/bad2.csv", "tables,error\n1,2\n2,3\n");
    assert_int_equal(run_cmd(plot_main, "bad2"), 1);
    assert_int_equal(file_size("plots/t/bad2.png"), -1);
    /* a failing hand-written script: no output either */
    write_text("configs/t/bad3.json", "{\"paper\": \"t\"}\n");
    write_text("results/t/bad3.csv", "tables,error\n1,2\n2,3\n");
    write_text("plots/t/bad3.gp", "plot data using 1:2 with nosuchstyle\n");
    assert_int_equal(run_cmd(plot_main, "bad3"), 1);
    assert_int_equal(file_size("plots/t/bad3.png"), -1);
    assert_int_equal(file_size("plots/t/bad3.svg"), -1);
    /* no plot section, no .gp */
    write_text("configs/t/none.json", "{\"paper\": \"t\"}\n");
    assert_int_equal(run_cmd(plot_main, "none"), 1);
    /* missing CSV */
    write_text("configs/t/nocsv.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\","
                                       " \"x\": \"tables\", \"y\": [\"error\"]}}\n");
    assert_int_equal(run_cmd(plot_main, "nocsv"), 1);
}

static void test_e2e_custom_gp(void **state)
{
    char *data;
    (void)state;
    write_text("configs/t/cust.json",
               "{\"paper\": \"t\", \"caption\": \"custom\", \"plot\": {\"type\": \"lines\","
               " \"x\": \"tables\", \"y\": [\"error\"], \"where\": {\"workload\": \"xz\"}}}\n");
    write_text("results/t/cust.csv", "workload,tables,error,note\n"
                                     "gzip,1,10,\nxz,1,12,a b\nxz,2,7,\n");
    /* uses every documented variable; the terminal and output are preset */
    write_text("plots/t/cust.gp",
               "if (fmt ne 'svg' && fmt ne 'pngcairo') exit error 'fmt'\n"
               "if (strlen(csv) == 0 || strlen(out) == 0 || series ne '') exit error 'vars'\n"
               "if (paper ne 't' || stem ne 'cust' || title ne 'custom') exit error 'names'\n"
               "if (width != 900 || height != 500) exit error 'size'\n"
               "set title title\n"
               "plot data using 'tables':'error' with linespoints title 'xz'\n");
    assert_int_equal(run_cmd(plot_main, "cust"), 0);
    assert_png("plots/t/cust.png");
    assert_true(file_size("plots/t/cust.svg") > 0);
    data = slurp("build/plots/t/cust.data");
    assert_non_null(data);
    assert_string_equal(data, "\"workload\" \"tables\" \"error\" \"note\"\n"
                              "\"xz\" 1 12 \"a b\"\n"
                              "\"xz\" 2 7 NaN\n");
    free(data);

    /* outputs elsewhere (make SCALE=tiny): the script is still found in the
     * plots/ folder next to configs/ */
    {
        char config[512], results[512], plots[512], build[512];
        char cmd[] = "plot", o_results[] = "--results", o_plots[] = "--plots", o_build[] = "--build";
        char *argv[] = {cmd, config, o_results, results, o_plots, plots, o_build, build, NULL};
        snprintf(config, sizeof config, "%s/configs/t/cust.json", tmpdir);
        snprintf(results, sizeof results, "%s/results", tmpdir);
        snprintf(plots, sizeof plots, "%s/build/plots-tiny", tmpdir);
        snprintf(build, sizeof build, "%s/build", tmpdir);
        write_text("plots/t/cust.gp", "set title 'from the source tree'\n"
                                      "plot data using 'tables':'error' with lines title 'xz'\n");
        assert_int_equal(plot_main(8, argv), 0);
        assert_png("build/plots-tiny/t/cust.png");
        data = slurp("build/plots-tiny/t/cust.svg");
        assert_non_null(data);
        assert_non_null(strstr(data, "from the source tree"));
        free(data);
    }
}

static void test_e2e_table(void **state)
{
    char *md;
    (void)state;
    write_text("configs/t/tab.json",
               "{\"paper\": \"t\", \"table\": {\"columns\": [\"workload\", \"calls\"],"
               " \"format\": {\"calls\": \"%.1f\"}}}\n");
    write_text("results/t/tab.csv", "workload,calls\ngzip,3\nxz,4.25\n");
    assert_int_equal(run_cmd(table_main, "tab"), 0);
    md = slurp("results/t/tab.md");
    assert_non_null(md);
    assert_string_equal(md, "| workload | calls |\n"
                            "| -------- | ----: |\n"
                            "| gzip     |   3.0 |\n"
                            "| xz       |   4.2 |\n");
    free(md);
    write_text("configs/t/tab2.json", "{\"paper\": \"t\", \"table\": {\"columns\": [\"nope\"]}}\n");
    write_text("results/t/tab2.csv", "workload,calls\ngzip,3\n");
    assert_int_equal(run_cmd(table_main, "tab2"), 1);
    assert_int_equal(file_size("results/t/tab2.md"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_basic),
        cmocka_unit_test(test_csv_errors),
        cmocka_unit_test(test_cell_number),
        cmocka_unit_test(test_where),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_validate_table),
        cmocka_unit_test(test_script_lines),
        cmocka_unit_test(test_script_lines_errors),
        cmocka_unit_test(test_script_lines_flat_panel),
        cmocka_unit_test(test_script_no_data),
        cmocka_unit_test(test_script_bars),
        cmocka_unit_test(test_script_stacked),
        cmocka_unit_test(test_grouping_labels),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_e2e_plot),
        cmocka_unit_test(test_e2e_errors),
        cmocka_unit_test(test_e2e_custom_gp),
        cmocka_unit_test(test_e2e_table),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
