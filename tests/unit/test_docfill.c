/* test_docfill.c - src/report/docquery.c, src/report/doctable.c, src/report/docfill.c: values and
 * aggregates computed by hand from a small CSV, intervals, every lookup
 * error with the document's line, grid tables (best marks, mean rows, expr
 * columns, views read by src=#id), simple tables, the --check report (a
 * number changed by hand is caught, at its line), and `hwprof docs` end to
 * end: check fails, fill rewrites, check passes, a second fill changes
 * nothing. */
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

#include "cli/cli.h"
#include "report/docfill.h"

/* error_pct of gzip A has an interval, xz's windows=1 leave it empty, cc1 A
 * has no value at all. */
static const char *r_csv =
    "workload,run,model,tables,windows,error_pct,error_pct_min,error_pct_max,error_pct_lo,error_pct_hi,label\n"
    "gzip,A,m,1,3,10,8,12,7.5,12.5,x\n"
    "gzip,B,m,2,3,2.5,2,3,1.25,3.75,y\n"
    "xz,A,m,1,1,4,4,4,,,z\n"
    "xz,B,m,2,1,6,6,6,,,w\n"
    "cc1,A,m,1,1,,,,,,v\n"
    "cc1,B,m,2,1,0.001,0.001,0.001,,,u\n";

static char dir[64];

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test_docfill.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    write_file("r.csv", r_csv);
    write_file("s.csv", "workload,run,error_pct\ngzip,A,20\nxz,A,40\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Fill text; the result, or NULL with every error (and report) joined into msg. */
static char *fill(const char *text, char *msg, size_t len, struct docfill_stats *st)
{
    struct diag errors, report;
    size_t out_len = 0;
    diag_init(&errors, NULL);
    diag_init(&report, NULL);
    char *out = docfill_text(text, strlen(text), "doc.md", dir, &out_len, &errors, &report, st);
    msg[0] = '\0';
    struct diag *d = out ? &report : &errors;
    for (size_t i = 0; i < d->n; i++) {
        char buf[1024];
        diag_format(&d->items[i], buf, sizeof buf);
        strncat(msg, buf, len - strlen(msg) - 2);
        strcat(msg, "\n");
    }
    if (out)
        assert_int_equal(strlen(out), out_len);
    diag_free(&errors);
    diag_free(&report);
    return out;
}

/* The text one value marker with these attributes is filled with. */
static char *value(const char *attrs)
{
    char text[1024], msg[4096];
    snprintf(text, sizeof text, "<!-- value %s -->?<!-- /value -->", attrs);
    char *out = fill(text, msg, sizeof msg, NULL);
    if (!out)
        fail_msg("%s: %s", attrs, msg);
    char *start = strstr(out, "-->") + 3, *end = strstr(start, "<!--");
    *end = '\0';
    char *v = strdup(start);
    free(out);
    return v;
}

static void check_value(const char *attrs, const char *want)
{
    char *v = value(attrs);
    if (strcmp(v, want) != 0)
        fail_msg("%s gives \"%s\", expected \"%s\"", attrs, v, want);
    free(v);
}

static void check_error(const char *text, const char *want)
{
    char msg[4096];
    char *out = fill(text, msg, sizeof msg, NULL);
    if (out)
        fail_msg("filled without error: %s", text);
    if (!strstr(msg, want))
        fail_msg("errors of\n%s\nare\n%s\nwithout\n%s", text, msg, want);
}

static void test_values(void **state)
{
    (void)state;
    check_value("src=r.csv where=workload:gzip,run:A col=error_pct", "10");
    check_value("src=r.csv where=workload:gzip,run:A col=error_pct fmt=%.1f", "10.0");
    check_value("src=r.csv where=workload:gzip,run:B col=error_pct fmt=%.1f ci", "2.5 [1.2, 3.8]");
    check_value("src=r.csv where=workload:gzip,run:A col=error_pct ci", "10 [7.5, 12.5]");
    check_value("src=r.csv where=workload:xz,run:A col=error_pct fmt=%.1f ci", "4.0"); /* no interval */
    check_value("src=r.csv where=workload:gzip,run:A col=label", "x");
    check_value("src=r.csv where=workload:gzip,tables:1.0 col=run", "A"); /* numbers compare as numbers */
    /* aggregates over run B: 2.5, 6, 0.001; over run A: 10, 4 (cc1 empty) */
    check_value("src=r.csv where=run:A col=error_pct agg=mean fmt=%.2f", "7.00");
    /* with ci: a t-interval over the rows; 10 and 4: sd 4.243, t(1) = 12.706,
     * half-width 12.706 x 4.243 / sqrt(2) = 38.12 */
    check_value("src=r.csv where=run:A col=error_pct agg=mean ci fmt=%.1f", "7.0 [-31.1, 45.1]");
    check_value("src=r.csv where=run:B col=error_pct agg=min", "0.001");
    check_value("src=r.csv where=run:B col=error_pct agg=max", "6");
    check_value("src=r.csv where=run:B col=error_pct agg=sum fmt=%.3f", "8.501");
    check_value("src=r.csv where=run:B col=error_pct agg=count", "3");
    check_value("src=r.csv where=run:B col=error_pct agg=range", "0.001-6");
    check_value("src=r.csv where=run:B col=error_pct agg=range sep=\" to \" fmt=%.1f", "0.0 to 6.0");
    check_value("src=r.csv where=run:B col=error_pct agg=list", "2.5, 6, 0.001");
    check_value("src=r.csv where=run:B col=error_pct agg=list sep=\" / \" fmt=%.1f", "2.5 / 6.0 / 0.0");
    check_value("src=r.csv where=run:B col=workload agg=argmin by=error_pct", "cc1");
    check_value("src=r.csv where=run:B col=workload agg=argmax by=error_pct", "xz");
    check_value("src=r.csv where=run:A col=workload agg=argmax by=error_pct", "gzip");
    /* conditions */
    check_value("src=r.csv where=tables>=2 col=error_pct agg=count", "3");
    check_value("src=r.csv where=tables>1,error_pct<3 col=error_pct agg=count", "2");
    check_value("src=r.csv where=error_pct<=4 col=error_pct agg=count", "3"); /* empty cells never compare */
    check_value("src=r.csv where=run!=A col=error_pct agg=count", "3");
    check_value("src=r.csv where=workload:gzip,workload:xz,run:A col=error_pct agg=count", "2");
    check_value("src=r.csv where=workload:none col=error_pct agg=count", "0");
    /* a list of names: text cells as written, empty cells skipped */
    check_value("src=r.csv where=run:A col=workload agg=list", "gzip, xz, cc1");
    check_value("src=r.csv where=tables:2,error_pct>3 col=workload agg=list sep=\" and \"", "xz");
}

static void test_value_errors(void **state)
{
    (void)state;
    check_error("x\n<!-- value src=none.csv col=a -->1<!-- /value -->", "doc.md:2:1: src=none.csv: ");
    check_error("<!-- value src=r.csv col=eror_pct where=workload:xz,run:A -->1<!-- /value -->",
                 "doc.md:1:1: col: no column 'eror_pct' in ");
    check_error("<!-- value src=r.csv col=eror_pct where=workload:xz,run:A -->1<!-- /value -->",
                 "(did you mean 'error_pct'?)");
    check_error("<!-- value src=r.csv col=error_pct where=wrkload:xz -->1<!-- /value -->",
                 "where: no column 'wrkload'");
    check_error("a\nb <!-- value src=r.csv col=error_pct where=workload:lua,run:A -->1<!-- /value -->",
                 "doc.md:2:3: no row of ");
    check_error("<!-- value src=r.csv col=error_pct where=workload:lua,run:A -->1<!-- /value -->",
                 "has workload:lua (workload has: gzip, xz, cc1)");
    check_error("<!-- value src=r.csv col=error_pct where=workload:xz,run:C -->1<!-- /value -->", "run has: A, B");
    check_error("<!-- value src=r.csv col=error_pct where=workload:gzip,tables:2,run:A -->1<!-- /value -->",
                 "matches workload:gzip,tables:2,run:A");
    check_error("<!-- value src=r.csv col=error_pct where=workload:gzip -->1<!-- /value -->",
                 "2 rows of ");
    check_error("<!-- value src=r.csv col=error_pct where=workload:gzip -->1<!-- /value -->",
                 "match workload:gzip; they differ in run, tables: add a condition or an agg=");
    check_error("<!-- value src=r.csv col=error_pct where=workload:cc1,run:A -->1<!-- /value -->",
                 "the results have no number here (an empty cell in error_pct)");
    check_error("<!-- value src=r.csv col=label agg=mean -->1<!-- /value -->",
                 "agg=mean: ");
    check_error("<!-- value src=r.csv col=label agg=mean -->1<!-- /value -->", " line 2: 'x' in column label is not a number");
    check_error("<!-- value src=r.csv col=error_pct where=workload:xz,run:A ci -->1<!-- /value -->\n"
                 "<!-- value src=s.csv col=error_pct where=workload:xz ci -->1<!-- /value -->",
                 "doc.md:2:1: ci: no column 'error_pct_lo'");
    check_error("<!-- value src=#t col=a -->1<!-- /value -->", "src=#t: no table with id=t");
    /* a misspelt file: the closest name of its folder; a path relative to
     * the document's folder says where it was looked for */
    check_error("<!-- value src=r.cvs col=a -->1<!-- /value -->", "doc.md:1:1: src=r.cvs: no such file (looked for ");
    check_error("<!-- value src=r.cvs col=a -->1<!-- /value -->", "/r.cvs) (did you mean 'r.csv'?)");
    check_error("<!-- value src=zzz.csv col=a -->1<!-- /value -->", "/zzz.csv)\n");
    /* a missing file is reported once, however many markers read it */
    char msg[4096];
    assert_null(fill("<!-- value src=no.csv col=a -->1<!-- /value --> <!-- value src=no.csv col=b -->1<!-- /value -->",
                     msg, sizeof msg, NULL));
    assert_non_null(strstr(msg, "doc.md:1:1: src=no.csv"));
    assert_null(strstr(strstr(msg, "src=no.csv") + 1, "src=no.csv"));
}

static const char *grid =
    "Intro.\n"
    "<!-- table id=g src=r.csv col=error_pct fmt=%.1f best=min\n"
    "rows workload:gzip,xz\n"
    "row \"**mean**\" agg=mean best=none name=mean\n"
    "column \"A\" where=run:A\n"
    "column \"B\" where=run:B\n"
    "column \"S\" src=s.csv where=run:A group=s\n"
    "column \"B/A\" expr=$2/$1 fmt=%#.3r\n"
    "-->\n"
    "<!-- /table -->\n"
    "B/A on average: <!-- value src=#g where=workload:mean col=B/A fmt=%.2f -->?<!-- /value -->.\n";

static void test_grid(void **state)
{
    (void)state;
    char msg[4096];
    struct docfill_stats st;
    char *out = fill(grid, msg, sizeof msg, &st);
    if (!out)
        fail_msg("%s", msg);
    const char *want = "Intro.\n"
                       "<!-- table id=g src=r.csv col=error_pct fmt=%.1f best=min\n"
                       "rows workload:gzip,xz\n"
                       "row \"**mean**\" agg=mean best=none name=mean\n"
                       "column \"A\" where=run:A\n"
                       "column \"B\" where=run:B\n"
                       "column \"S\" src=s.csv where=run:A group=s\n"
                       "column \"B/A\" expr=$2/$1 fmt=%#.3r\n"
                       "-->\n"
                       "| workload |       A |       B |        S |   B/A |\n"
                       "| -------- | ------: | ------: | -------: | ----: |\n"
                       "| gzip     |    10.0 | **2.5** | **20.0** | 0.250 |\n"
                       "| xz       | **4.0** |     6.0 | **40.0** |  1.50 |\n"
                       "| **mean** |     7.0 |     2.8 |     30.0 | 0.405 |\n"
                       "<!-- /table -->\n"
                       "B/A on average: <!-- value src=#g where=workload:mean col=B/A fmt=%.2f -->0.40<!-- /value -->.\n";
    /* mean row: A over gzip, xz (cc1 empty) = 7; B over all three = 2.834; B/A = 0.405 */
    assert_string_equal(out, want);
    assert_int_equal(st.tables, 1);
    assert_int_equal(st.values, 1);
    assert_int_equal(st.tables_changed, 1);
    assert_int_equal(st.values_changed, 1);
    /* the filled text agrees with itself: nothing to report, nothing changes */
    char *again = fill(out, msg, sizeof msg, &st);
    assert_string_equal(again, out);
    assert_string_equal(msg, "");
    assert_int_equal(st.tables_changed + st.values_changed, 0);
    free(again);
    free(out);

    /* ties are all bolded; list cells are ranked item by item; best=max */
    out = fill("<!-- table src=r.csv col=error_pct best=max\n"
               "rows workload:gzip\n"
               "column \"L\" agg=list sep=\" / \"\n"
               "column \"A\" where=run:A\n"
               "-->\n"
               "<!-- /table -->\n",
               msg, sizeof msg, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "| gzip     | **10** / 2.5 | **10** |\n"));
    free(out);

    /* a label column of numbers is right-aligned; head= names it */
    out = fill("<!-- table src=r.csv col=error_pct agg=count head=tables\n"
               "rows tables:1,2\n"
               "column \"rows\"\n"
               "-->\n"
               "<!-- /table -->\n",
               msg, sizeof msg, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "| tables | rows |\n| -----: | ---: |\n|      1 |    3 |\n|      2 |    3 |\n"));
    free(out);
}

static void test_grid_errors(void **state)
{
    (void)state;
    check_error("<!-- table src=r.csv col=error_pct\n"
                 "rows workload:gzip,lua\n"
                 "column \"A\" where=run:A\n"
                 "-->\n"
                 "<!-- /table -->\n",
                 "doc.md:3:1: row \"lua\", column \"A\": no row of ");
    check_error("<!-- table src=r.csv col=error_pct\n"
                 "row \"m\" agg=mean\n"
                 "column \"A\" where=run:A agg=min\n"
                 "-->\n"
                 "<!-- /table -->\n",
                 "doc.md:3:1: column \"A\" sets agg=min and row \"m\" agg=mean: set it on one");
    check_error("<!-- table src=r.csv\n"
                 "rows workload:gzip\n"
                 "column \"A\" where=run:A\n"
                 "-->\n"
                 "<!-- /table -->\n",
                 "no col= for this number");
    check_error("<!-- table id=x src=r.csv col=error_pct\n"
                 "rows workload:gzip\n"
                 "column \"A\" where=run:A\n"
                 "column \"A\" where=run:B\n"
                 "-->\n"
                 "<!-- /table -->\n",
                 "doc.md:1:1: table doc.md#x as a source: ");
    check_error("<!-- table src=r.csv cols=workload,eror_pct -->\n<!-- /table -->\n",
                 "doc.md:1:1: cols: no column 'eror_pct' in ");
    check_error("<!-- table src=r.csv cols=workload where=run:Z -->\n<!-- /table -->\n", "no row of ");
}

static void test_simple(void **state)
{
    (void)state;
    char msg[4096];
    char *out = fill("<!-- table src=r.csv cols=workload,run,error_pct,label fmt=error_pct:%.1f where=run:A ci -->\n"
                     "<!-- /table -->\n",
                     msg, sizeof msg, NULL);
    if (!out)
        fail_msg("%s", msg);
    assert_string_equal(out, "<!-- table src=r.csv cols=workload,run,error_pct,label fmt=error_pct:%.1f where=run:A ci -->\n"
                             "| workload | run |        error_pct | label |\n"
                             "| -------- | --- | ---------------: | ----- |\n"
                             "| gzip     | A   | 10.0 [7.5, 12.5] | x     |\n"
                             "| xz       | A   |              4.0 | z     |\n"
                             "| cc1      | A   |                  | v     |\n"
                             "<!-- /table -->\n");
    free(out);
}

static void test_check(void **state)
{
    (void)state;
    char msg[4096];
    char *good = fill(grid, msg, sizeof msg, NULL);
    assert_non_null(good);
    /* a number changed by hand in a table and in the prose */
    char *bad = strdup(good);
    char *cell = strstr(bad, " 1.50 |");
    memcpy(cell, " 1.51 |", 7);
    char *val = strstr(bad, "-->0.40<");
    memcpy(val, "-->0.41<", 8);
    char *out = fill(bad, msg, sizeof msg, NULL);
    assert_non_null(out);
    assert_string_equal(out, good); /* filling repairs it */
    assert_string_equal(msg, "doc.md:13:46: row \"xz\", column \"B/A\": the document has 1.51, the results give 1.50\n"
                             "doc.md:16:17: value differs: the document has \"0.41\", the results give \"0.40\"\n");
    free(out);
    free(bad);
    /* differences in line order, though tables are built first */
    static const char first[] = "<!-- value src=r.csv where=workload:gzip,run:A col=error_pct -->9<!-- /value -->\n";
    bad = malloc(sizeof first + strlen(good));
    assert_non_null(bad);
    strcpy(bad, first);
    strcat(bad, good);
    cell = strstr(bad, " 1.50 |");
    memcpy(cell, " 1.51 |", 7);
    out = fill(bad, msg, sizeof msg, NULL);
    assert_non_null(out);
    assert_string_equal(msg, "doc.md:1:1: value differs: the document has \"9\", the results give \"10\"\n"
                             "doc.md:14:46: row \"xz\", column \"B/A\": the document has 1.51, the results give 1.50\n");
    free(out);
    free(bad);
    /* layout only */
    bad = strdup(good);
    cell = strstr(bad, "| gzip     |");
    memcpy(cell, "| gzip   |  ", 12);
    out = fill(bad, msg, sizeof msg, NULL);
    assert_string_equal(msg, "doc.md:10:1: table layout differs (every cell agrees): `hwprof docs` realigns it\n");
    free(out);
    free(bad);
    /* a row too many */
    bad = calloc(1, strlen(good) + 64);
    assert_non_null(bad);
    strcpy(bad, good);
    cell = strstr(bad, "<!-- /table -->");
    char *tail = strdup(cell);
    strcpy(cell, "| lua | 1 | 2 | 3 | 4 |\n");
    strcat(cell, tail);
    out = fill(bad, msg, sizeof msg, NULL);
    assert_non_null(strstr(msg, "doc.md:10:1: table differs: the document has 6 lines, the results give a header, "
                                "a separator and 3 rows of 5 cells"));
    free(out);
    free(tail);
    free(bad);
    free(good);
}

static int run_docs(const char *a, const char *b, const char *c)
{
    char *argv[] = {(char *)"docs", (char *)a, (char *)b, (char *)c, NULL};
    int argc = 1 + (a != NULL) + (b != NULL) + (c != NULL);
    return cmd_docs(argc, argv);
}

static void test_command(void **state)
{
    (void)state;
    char path[256];
    struct stat st1, st2;
    snprintf(path, sizeof path, "%s/doc.md", dir);
    write_file("doc.md", grid);
    /* paths in the document are relative to its folder, not to the cwd */
    assert_int_equal(run_docs("--check", "-q", path), 1);
    char *text = read_file("doc.md");
    assert_string_equal(text, grid); /* --check writes nothing */
    free(text);
    assert_int_equal(run_docs(path, NULL, NULL), 0);
    text = read_file("doc.md");
    assert_non_null(strstr(text, "| xz       | **4.0** |     6.0 | **40.0** |  1.50 |\n"));
    free(text);
    assert_int_equal(run_docs("--check", path, NULL), 0);
    assert_int_equal(stat(path, &st1), 0);
    sleep(1);
    assert_int_equal(run_docs("--quiet", path, NULL), 0);
    assert_int_equal(stat(path, &st2), 0);
    assert_int_equal(st1.st_mtime, st2.st_mtime); /* unchanged text: not rewritten */
    assert_int_equal(st1.st_ino, st2.st_ino);
    /* an error leaves the file as it was and no temporary behind */
    write_file("bad.md", "x <!-- value src=r.csv col=nope -->1<!-- /value -->\n");
    snprintf(path, sizeof path, "%s/bad.md", dir);
    assert_int_equal(run_docs(path, NULL, NULL), 1);
    text = read_file("bad.md");
    assert_string_equal(text, "x <!-- value src=r.csv col=nope -->1<!-- /value -->\n");
    free(text);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    assert_int_not_equal(system(cmd), 0);
    /* usage */
    assert_int_equal(run_docs(NULL, NULL, NULL), 2);
    assert_int_equal(run_docs("--bogus", path, NULL), 2);
    assert_int_equal(run_docs("/nonexistent/x.md", NULL, NULL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values), cmocka_unit_test(test_value_errors), cmocka_unit_test(test_grid),
        cmocka_unit_test(test_grid_errors), cmocka_unit_test(test_simple), cmocka_unit_test(test_check),
        cmocka_unit_test(test_command),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
