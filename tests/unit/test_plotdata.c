/* test_plotdata.c - src/report/plotdata.c on small CSVs whose results are computed
 * by hand: order of panels / groups / categories, labels, filtering,
 * duplicate points, error bars from columns, means and geometric means with
 * their Student-t intervals, min-max bars, normalisation, stacked totals,
 * CDF steps, heat map cells, timeseries markers. */
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

#include "core/winstats.h"
#include "report/plotdata.h"

struct fixture {
    json_t *plot;
    struct plotspec spec;
    struct csv *csv;
    struct diag d;
};

/* Parse plot JSON and CSV text and build; NULL when building fails (the
 * first error then in err). */
static struct plotdata *build(struct fixture *f, const char *plot_json, const char *csv_text, char *err, size_t len)
{
    json_error_t je;
    memset(f, 0, sizeof *f);
    diag_init(&f->d, "c.json");
    f->plot = json_loads(plot_json, 0, &je);
    if (!f->plot)
        fail_msg("bad test JSON: %s", je.text);
    if (plotspec_parse(f->plot, &f->spec, &f->d) != 0)
        fail_msg("bad plot section: %s", diag_first(&f->d, err, len));
    f->csv = csv_parse(csv_text, strlen(csv_text), "r.csv", &f->d);
    assert_non_null(f->csv);
    struct plotdata *pd = plotdata_build(&f->spec, f->csv, &f->d);
    if (err && len)
        diag_first(&f->d, err, len);
    if (pd)
        assert_true(diag_ok(&f->d));
    else
        assert_false(diag_ok(&f->d));
    return pd;
}

static void done(struct fixture *f, struct plotdata *pd)
{
    plotdata_free(pd);
    plotspec_free(&f->spec);
    csv_free(f->csv);
    json_decref(f->plot);
    diag_free(&f->d);
}

static struct plotdata *build_ok(struct fixture *f, const char *plot_json, const char *csv_text)
{
    char err[512] = "";
    struct plotdata *pd = build(f, plot_json, csv_text, err, sizeof err);
    if (!pd)
        fail_msg("build failed: %s", err);
    return pd;
}

static void build_fails(const char *plot_json, const char *csv_text, const char *want)
{
    struct fixture f;
    char err[512] = "";
    struct plotdata *pd = build(&f, plot_json, csv_text, err, sizeof err);
    assert_null(pd);
    if (strcmp(err, want) != 0)
        fail_msg("got  [%s]\nwant [%s]", err, want);
    done(&f, pd);
}

static void close_to(double a, double b, int line)
{
    if (!(fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1)))
        fail_msg("line %d: %.12g, expected %.12g", line, a, b);
}
#define assert_close(a, b) close_to((a), (double)(b), __LINE__)

static const char *grid_csv = "workload,run,tables,error_pct,error_pct_lo,error_pct_hi\n"
                              "gzip,BSH,,8,7,9\n"
                              "gzip,MH,1,4,3,5\n"
                              "gzip,MH,4,2,,\n"
                              "bzip2,BSH,,6,5,7\n"
                              "bzip2,MH,1,3,2,4\n"
                              "bzip2,MH,4,nan,,\n";

static void test_order_and_labels(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", "
                                   "\"group\": [\"run\", \"tables\"], \"labels\": {\"MH\": \"multi-hash\", \"tables\": \"T\"}}",
                                   grid_csv);
    assert_int_equal(pd->npanels, 1);
    assert_string_equal(pd->panel_title[0], "");
    assert_int_equal(pd->ncats, 2);
    assert_string_equal(pd->cat_label[0], "gzip");
    assert_string_equal(pd->cat_label[1], "bzip2");
    /* An empty group cell says nothing; a number is "column=value". */
    assert_int_equal(pd->ngroups, 3);
    assert_string_equal(pd->group_label[0], "BSH");
    assert_string_equal(pd->group_label[1], "multi-hash, T=1");
    assert_string_equal(pd->group_label[2], "multi-hash, T=4");
    assert_string_equal(pd->ytitle[0], "error_pct");
    /* Sorted by group, then category; nan is a missing value. */
    assert_int_equal(pd->npts, 6);
    assert_int_equal(pd->pts[0].group, 0);
    assert_int_equal(pd->pts[0].cat, 0);
    assert_close(pd->pts[0].y[0], 8);
    assert_int_equal(pd->pts[1].cat, 1);
    assert_close(pd->pts[1].y[0], 6);
    assert_int_equal(pd->pts[1].line, 5);
    assert_true(isnan(pd->pts[5].y[0]));
    /* Error bars from the _lo/_hi columns when they exist (auto). */
    assert_true(pd->any_bounds);
    assert_close(pd->pts[0].lo[0], 7);
    assert_close(pd->pts[0].hi[0], 9);
    assert_true(isnan(pd->pts[4].lo[0])); /* gzip tables=4: empty bounds */
    done(&f, pd);

    /* Panels, numeric x sorted, where, "none". */
    pd = build_ok(&f,
                  "{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"panels\": \"workload\", "
                  "\"where\": {\"run\": \"MH\"}, \"errorbars\": \"none\"}",
                  "workload,run,tables,error_pct,error_pct_lo,error_pct_hi\n"
                  "gzip,MH,4,2,1,3\n"
                  "gzip,MH,1,4,3,5\n"
                  "gzip,BSH,,9,9,9\n"
                  "bzip2,MH,2,3,2,4\n");
    assert_int_equal(pd->npanels, 2);
    assert_string_equal(pd->panel_title[0], "workload: gzip");
    assert_string_equal(pd->panel_title[1], "workload: bzip2");
    assert_int_equal(pd->npts, 3);
    assert_close(pd->pts[0].x, 1);
    assert_close(pd->pts[1].x, 4);
    assert_close(pd->pts[2].x, 2);
    assert_false(pd->any_bounds);
    assert_true(isnan(pd->pts[0].lo[0]));
    assert_int_equal(pd->pts[0].cat, SIZE_MAX);
    done(&f, pd);
}

static void test_errors(void **state)
{
    (void)state;
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\"}", grid_csv,
                "r.csv:3:1: this row and line 2 fall on one bar (workload 'gzip'): add the column that tells them "
                "apart to plot.group, plot.panels or plot.where, or aggregate over it");
    build_fails("{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": \"run\"}", grid_csv,
                "r.csv:6:1: this row and line 3 fall on one point (tables '1', group 'MH'): add the column that "
                "tells them apart to plot.group, plot.panels or plot.where, or aggregate over it");
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"run\", \"group\": [\"run\", \"tables\"]}", grid_csv,
                "r.csv:2:1: column 'run' holds 'BSH', not a number (plot.y)");
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"where\": {\"run\": \"XX\"}}", grid_csv,
                "c.json: no row of r.csv matches");
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"where\": {\"nope\": 1}}", grid_csv,
                "c.json: no column 'nope' in r.csv");
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"error_pct\", \"fp\"]}", grid_csv,
                "c.json: no column 'fp' in r.csv");
    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"group\": [\"run\", \"tables\"], "
                "\"errorbars\": \"minmax\"}",
                grid_csv, "c.json: no columns error_pct_min and error_pct_max in r.csv for the error bars of 'error_pct'");
}

/* Values 1, 2, 3, 6 over four workloads: mean 3, s^2 = (4 + 1 + 0 + 9) / 3,
 * half width t(0.975, 3) s / 2 with t = 3.18245. */
static const char *agg_csv = "workload,run,v\n"
                             "a,X,1\n"
                             "b,X,2\n"
                             "c,X,3\n"
                             "d,X,6\n"
                             "a,Y,1\n"
                             "b,Y,4\n"
                             "c,Y,16\n"
                             "d,Y,\n";

static void test_mean(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"v\", \"group\": \"run\", "
                                   "\"aggregate\": \"mean\"}",
                                   agg_csv);
    /* The aggregate is a category after the workloads. */
    assert_int_equal(pd->ncats, 5);
    assert_string_equal(pd->cat_label[4], "mean");
    const struct pd_point *mx = NULL, *my = NULL;
    for (size_t i = 0; i < pd->npts; i++) {
        if (pd->pts[i].cat == 4 && pd->pts[i].group == 0)
            mx = &pd->pts[i];
        if (pd->pts[i].cat == 4 && pd->pts[i].group == 1)
            my = &pd->pts[i];
    }
    assert_non_null(mx);
    assert_non_null(my);
    assert_true(mx->aggregate);
    assert_int_equal(mx->n, 4);
    assert_int_equal(mx->line, 0);
    double half = student_t_quantile(0.975, 3) * sqrt(14.0 / 3) / 2;
    assert_close(mx->y[0], 3);
    assert_close(mx->lo[0], 3 - half);
    assert_close(mx->hi[0], 3 + half);
    /* Y: 1, 4, 16 (d empty): mean 7, s^2 = (36 + 9 + 81) / 2 = 63, t(2). */
    assert_int_equal(my->n, 3);
    assert_close(my->y[0], 7);
    assert_close(my->hi[0], 7 + student_t_quantile(0.975, 2) * sqrt(63.0) / sqrt(3.0));
    assert_true(pd->any_bounds);
    done(&f, pd);

    /* "only": the aggregates alone; min-max bars. */
    pd = build_ok(&f,
                  "{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"v\", \"group\": \"run\", "
                  "\"aggregate\": {\"fn\": \"mean\", \"only\": true}, \"errorbars\": \"minmax\"}",
                  "workload,run,v,v_min,v_max\na,X,1,0,2\nb,X,2,1,3\nc,X,3,3,3\nd,X,6,5,8\n");
    assert_int_equal(pd->ncats, 1);
    assert_int_equal(pd->npts, 1);
    assert_close(pd->pts[0].y[0], 3);
    assert_close(pd->pts[0].lo[0], 1);
    assert_close(pd->pts[0].hi[0], 6);
    done(&f, pd);
}

/* A scatter mean over workloads keeps the label its points share (one
 * point per period: x and y are the means of that period's rows; the
 * label map applies); a mean
 * over the label column itself is the point "mean". */
static void test_scatter_mean_labels(void **state)
{
    (void)state;
    struct fixture f;
    const char *csv = "workload,period,o,a\n"
                      "a,100,1,90\nb,100,3,70\n"
                      "a,1000,0.1,60\nb,1000,0.3,40\n";
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"scatter\", \"x\": \"o\", \"y\": \"a\", \"label\": \"period\", "
                                   "\"labels\": {\"100\": \"1/100\"}, \"aggregate\": {\"fn\": \"mean\", \"only\": true}}",
                                   csv);
    assert_int_equal(pd->npts, 2);
    /* points in x order: the 1/1000 mean first */
    assert_string_equal(pd->pts[0].label, "1000");
    assert_close(pd->pts[0].x, 0.2);
    assert_close(pd->pts[0].y[0], 50);
    assert_string_equal(pd->pts[1].label, "1/100");
    assert_close(pd->pts[1].x, 2);
    assert_close(pd->pts[1].y[0], 80);
    done(&f, pd);

    pd = build_ok(&f,
                  "{\"type\": \"scatter\", \"x\": \"o\", \"y\": \"a\", \"label\": \"workload\", "
                  "\"group\": \"period\", \"aggregate\": {\"fn\": \"mean\", \"only\": true}}",
                  csv);
    assert_int_equal(pd->npts, 2);
    assert_string_equal(pd->pts[0].label, "mean");
    assert_string_equal(pd->pts[1].label, "mean");
    done(&f, pd);
}

/* Geometric mean of 1, 4, 16: exp(mean ln) = 4; on logs the sd is ln 4,
 * so the interval is 4 exp(-+ t(2) ln4 / sqrt 3). */
static void test_geomean(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"lines\", \"x\": \"t\", \"y\": \"v\", \"group\": \"workload\", "
                                   "\"aggregate\": \"geomean\"}",
                                   "workload,t,v\na,1,1\nb,1,4\nc,1,16\na,2,2\nb,2,2\nc,2,2\n");
    /* The aggregate is a line (group) after the workloads. */
    assert_int_equal(pd->ngroups, 4);
    assert_string_equal(pd->group_label[3], "geomean");
    const struct pd_point *g1 = NULL, *g2 = NULL;
    for (size_t i = 0; i < pd->npts; i++) {
        if (pd->pts[i].group == 3 && pd->pts[i].x == 1)
            g1 = &pd->pts[i];
        else if (pd->pts[i].group == 3)
            g2 = &pd->pts[i];
    }
    assert_non_null(g1);
    assert_non_null(g2);
    double half = student_t_quantile(0.975, 2) * log(4.0) / sqrt(3.0);
    assert_close(g1->y[0], 4);
    assert_close(g1->lo[0], 4 * exp(-half));
    assert_close(g1->hi[0], 4 * exp(half));
    assert_close(g2->y[0], 2); /* equal values: a zero-width interval */
    assert_close(g2->lo[0], 2);
    assert_close(g2->hi[0], 2);
    done(&f, pd);

    build_fails("{\"type\": \"lines\", \"x\": \"t\", \"y\": \"v\", \"group\": \"workload\", \"aggregate\": \"geomean\"}",
                "workload,t,v\na,1,1\nb,1,0\n",
                "r.csv:3:1: the geometric mean needs values above 0, this row has 0 (use \"mean\", or drop the row "
                "with plot.where)");
}

/* Normalise to run BSH per workload and tables, then a geometric mean of
 * the ratios: gzip 4/8 and 2/8 ... */
static void test_normalise(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"v\", \"group\": \"run\", "
                                   "\"normalize\": {\"run\": \"BSH\"}, \"aggregate\": \"geomean\"}",
                                   "workload,run,v,v_lo,v_hi\n"
                                   "gzip,BSH,8,6,10\n"
                                   "gzip,MH,4,2,6\n"
                                   "bzip2,BSH,2,,\n"
                                   "bzip2,MH,4,,\n");
    /* Points by group (BSH, MH), then category (gzip, bzip2, geomean). */
    assert_int_equal(pd->npts, 6);
    assert_close(pd->pts[0].y[0], 1);      /* gzip BSH */
    assert_close(pd->pts[0].lo[0], 0.75);  /* its bounds scale too */
    assert_close(pd->pts[0].hi[0], 1.25);
    assert_close(pd->pts[3].y[0], 0.5);    /* gzip MH: 4 / 8 */
    assert_close(pd->pts[3].lo[0], 0.25);
    assert_close(pd->pts[4].y[0], 2);      /* bzip2 MH: 4 / 2 */
    assert_close(pd->pts[5].y[0], 1);      /* geomean of 0.5 and 2 */
    assert_close(pd->pts[2].y[0], 1);      /* geomean of the baseline */
    done(&f, pd);

    build_fails("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"v\", \"group\": \"run\", \"normalize\": {\"run\": \"BSH\"}}",
                "workload,run,v\ngzip,BSH,1\ngzip,MH,2\nxz,MH,3\n",
                "r.csv:4:1: no baseline row (run 'BSH') with the same panel, group and x as this row to normalise it "
                "by (plot.normalize)");
}

static void test_stacked(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f,
                                   "{\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp\", \"fn\"], "
                                   "\"total\": \"err\", \"aggregate\": \"mean\"}",
                                   "workload,fp,fn,err,err_lo,err_hi\n"
                                   "a,1,2,3,2.5,3.5\n"
                                   "b,3,4,7,6,8\n");
    assert_int_equal(pd->npts, 3);
    assert_close(pd->pts[0].total, 3);
    assert_close(pd->pts[0].total_lo, 2.5);
    assert_close(pd->pts[1].total_hi, 8);
    /* The mean bar: components 2 and 3, total 5 with t(1) = 12.7062
     * times sd(3, 7) / sqrt 2 = t(1) * 2. */
    assert_true(pd->pts[2].aggregate);
    assert_close(pd->pts[2].y[0], 2);
    assert_close(pd->pts[2].y[1], 3);
    assert_close(pd->pts[2].total, 5);
    assert_close(pd->pts[2].total_hi, 5 + student_t_quantile(0.975, 1) * 2);
    done(&f, pd);

    /* Without a total column the total is the sum of the segments. */
    pd = build_ok(&f, "{\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp\", \"fn\"]}",
                  "workload,fp,fn\na,1,2\nb,,4\n");
    assert_close(pd->pts[0].total, 3);
    assert_close(pd->pts[1].total, 4);
    assert_true(isnan(pd->pts[1].total_lo));
    done(&f, pd);
}

static void test_cdf_heatmap_markers(void **state)
{
    (void)state;
    struct fixture f;
    struct plotdata *pd = build_ok(&f, "{\"type\": \"cdf\", \"x\": \"v\"}", "v\n3\n1\n2\n2\n\n");
    /* (1, 0) then (1, 25), (2, 75), (3, 100): ties make one step. */
    assert_int_equal(pd->npts, 4);
    assert_close(pd->pts[0].x, 1);
    assert_close(pd->pts[0].y[0], 0);
    assert_close(pd->pts[1].x, 1);
    assert_close(pd->pts[1].y[0], 25);
    assert_close(pd->pts[2].x, 2);
    assert_close(pd->pts[2].y[0], 75);
    assert_close(pd->pts[3].x, 3);
    assert_close(pd->pts[3].y[0], 100);
    done(&f, pd);

    /* Cells without end columns reach half-way to their neighbours. */
    pd = build_ok(&f, "{\"type\": \"heatmap\", \"x\": \"x\", \"y\": \"y\", \"z\": \"n\"}",
                  "x,y,n\n0,0,1\n10,0,2\n30,0,3\n");
    assert_int_equal(pd->npts, 3);
    for (size_t i = 0; i < 3; i++) {
        const struct pd_point *p = &pd->pts[i];
        assert_close(p->y[0], -0.5);
        assert_close(p->y_end, 0.5);
        if (p->z == 1) {
            assert_close(p->x, -5);
            assert_close(p->x_end, 5);
        } else if (p->z == 2) {
            assert_close(p->x, 5);
            assert_close(p->x_end, 20);
        } else {
            assert_close(p->x, 20);
            assert_close(p->x_end, 40);
        }
    }
    /* the largest cell first */
    assert_close(pd->pts[0].z, 3);
    done(&f, pd);

    /* Ranges from hexadecimal columns. */
    pd = build_ok(&f, "{\"type\": \"heatmap\", \"x\": \"lo\", \"x_end\": \"hi\", \"y\": \"a\", \"y_end\": \"b\", \"z\": \"n\"}",
                  "lo,hi,a,b,n\n0x10,0x20,0x0,0x100,5\n");
    assert_true(pd->x_hex);
    assert_true(pd->y_hex);
    assert_close(pd->pts[0].x, 16);
    assert_close(pd->pts[0].x_end, 32);
    assert_close(pd->pts[0].y_end, 256);
    done(&f, pd);

    pd = build_ok(&f, "{\"type\": \"timeseries\", \"x\": \"i\", \"y\": \"n\", \"marker\": \"m\"}",
                  "i,n,m\n0,5,0\n1,6,1\n2,7,\n3,8,true\n");
    assert_false(pd->pts[0].marker);
    assert_true(pd->pts[1].marker);
    assert_false(pd->pts[2].marker);
    assert_true(pd->pts[3].marker);
    done(&f, pd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_labels), cmocka_unit_test(test_errors),    cmocka_unit_test(test_mean), cmocka_unit_test(test_scatter_mean_labels),
        cmocka_unit_test(test_geomean),          cmocka_unit_test(test_normalise), cmocka_unit_test(test_stacked),
        cmocka_unit_test(test_cdf_heatmap_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
