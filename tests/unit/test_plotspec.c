/* test_plotspec.c - src/report/plotspec.c: every error of a plot section, at its
 * key path, with "did you mean" suggestions; column checks through struct
 * config_columns; the rule that every varying column is placed (group,
 * panels, where, x or an aggregate). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plotspec.h"
#include "run/config.h"

/* The columns of a config with workloads x runs x a sweep over tables and
 * seed, a series CSV with index, and a hot_ranges table. */
static const char *const main_cols[] = {"workload", "run", "model", "tables", "seed", "stream",
                                        "error_pct", "fp_pct", "fn_pct", "overhead_pct", "error_pct_lo",
                                        "error_pct_hi", NULL};
static const char *const series_cols[] = {"workload", "run", "model", "tables", "seed", "index", "error_pct",
                                          "merge", NULL};
static const char *const table_cols[] = {"workload", "run", "code_lo", "code_hi", "data_lo", "data_hi", "count", NULL};
static const char *const varying[] = {"workload", "run", "tables", "seed", NULL};

static int has(void *ctx, const char *source, const char *col)
{
    const char *const *l = !strcmp(source, "main") ? main_cols : !strcmp(source, "series") ? series_cols
                         : !strcmp(source, "hot_ranges") ? table_cols : NULL;
    (void)ctx;
    for (size_t i = 0; l && l[i]; i++)
        if (!strcmp(l[i], col))
            return 1;
    return 0;
}

static const struct config_columns cols = {has, varying, NULL};

/* Check plot (JSON text); the messages, each "path: message" (the path in
 * plot.y[1] form, with " (key)" when the error is at the key), joined by
 * newlines, must equal want. */
static void expect(const char *plot_json, const char *want)
{
    json_error_t je;
    json_t *plot = json_loads(plot_json, JSON_DECODE_ANY, &je);
    struct diag d;
    char got[4096] = "";
    size_t n, o = 0;
    if (!plot)
        fail_msg("bad test JSON: %s", je.text);
    diag_init(&d, "c.json");
    n = plotspec_check(plot, &cols, &d);
    assert_int_equal(n, diag_count(&d));
    for (size_t i = 0; i < d.n; i++) {
        char path[256];
        diag_path_format(&d.items[i].path, path, sizeof path);
        o += (size_t)snprintf(got + o, sizeof got - o, "%s%s%s: %s", i ? "\n" : "", path,
                              d.items[i].want_key ? " (key)" : "", d.items[i].msg);
    }
    if (strcmp(got, want) != 0)
        fail_msg("plot %s\ngot:\n%s\nwant:\n%s", plot_json, got, want);
    diag_free(&d);
    json_decref(plot);
}

#define OK ""

static void test_valid(void **state)
{
    (void)state;
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": [\"error_pct\"], \"group\": [\"run\", \"seed\"], "
           "\"panels\": \"workload\", \"logx\": true, \"labels\": {\"error_pct\": \"error (%)\"}}",
           OK);
    expect("{\"type\": \"stacked\", \"x\": \"run\", \"y\": [\"fp_pct\", \"fn_pct\"], \"group\": \"tables\", "
           "\"panels\": \"workload\", \"where\": {\"seed\": 1}, \"total\": \"error_pct\", \"errorbars\": \"ci\", "
           "\"shared_y\": true}",
           OK);
    expect("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"group\": [\"run\"], "
           "\"where\": {\"tables\": [4], \"seed\": 1}, \"aggregate\": {\"fn\": \"geomean\", \"only\": false}, "
           "\"normalize\": {\"run\": \"BSH\"}, \"yrange\": [0, null]}",
           OK);
    expect("{\"type\": \"scatter\", \"x\": \"overhead_pct\", \"y\": \"error_pct\", \"label\": \"workload\", "
           "\"group\": [\"run\"], \"where\": {\"tables\": 1, \"seed\": 1}, \"aggregate\": \"mean\"}",
           OK);
    expect("{\"type\": \"timeseries\", \"source\": \"series\", \"x\": \"index\", \"y\": \"error_pct\", "
           "\"marker\": \"merge\", \"group\": [\"workload\", \"run\", \"tables\", \"seed\"]}",
           OK);
    expect("{\"type\": \"heatmap\", \"source\": \"hot_ranges\", \"x\": \"code_lo\", \"x_end\": \"code_hi\", "
           "\"y\": \"data_lo\", \"y_end\": \"data_hi\", \"z\": \"count\", \"logz\": true, "
           "\"panels\": \"workload\", \"where\": {\"run\": \"rap\"}}",
           OK);
    /* A CDF is the distribution over the rows it does not tell apart. */
    expect("{\"type\": \"cdf\", \"x\": \"error_pct\", \"group\": [\"run\"]}", OK);
}

static void test_structure_errors(void **state)
{
    (void)state;
    expect("[1]", "plot: 'plot' must be an object");
    expect("{\"x\": \"tables\", \"y\": \"error_pct\"}",
           "plot: 'type' is required (one of lines, bars, stacked, scatter, heatmap, timeseries, cdf)");
    expect("{\"type\": \"line\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.type: unknown plot type 'line' (known: lines, bars, stacked, scatter, heatmap, timeseries, cdf) "
           "(did you mean 'lines'?)");
    expect("{\"type\": 3, \"x\": \"tables\", \"y\": \"error_pct\", \"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.type: unknown plot type (not a string) (known: lines, bars, stacked, scatter, heatmap, timeseries, "
           "cdf)");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"xlable\": \"n\", \"colour\": 1, "
           "\"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.xlable (key): unknown key 'xlable' in 'plot' (did you mean 'xlabel'?) (docs/plots.md lists "
           "every key)\n"
           "plot.colour (key): unknown key 'colour' in 'plot' (docs/plots.md lists every key)");
    expect("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"logx\": true, \"marker\": \"run\", "
           "\"group\": [\"run\", \"tables\", \"seed\"]}",
           "plot.logx (key): 'logx' does not apply to type bars (only to lines, scatter, heatmap, timeseries, cdf)\n"
           "plot.marker (key): 'marker' does not apply to type bars (only to timeseries)");
    expect("{\"type\": \"lines\", \"y\": \"error_pct\"}", "plot.x: 'x' is required (the column on the x axis)");
    expect("{\"type\": \"lines\", \"x\": 3, \"y\": \"error_pct\"}",
           "plot.x: 'x' must be a column name (a non-empty string)");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.y: 'y' is required (a column name or a list of them)");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": [], \"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.y: 'y' must name at least one column");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": [\"error_pct\", 2, \"error_pct\"], "
           "\"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot.y[1]: must be a column name (a non-empty string)\n"
           "plot.y[2]: column 'error_pct' is listed twice");
    expect("{\"type\": \"scatter\", \"x\": \"overhead_pct\", \"y\": [\"error_pct\", \"fp_pct\"], "
           "\"group\": [\"workload\", \"run\", \"tables\", \"seed\"]}",
           "plot.y: type scatter takes one 'y' column, not 2");
    expect("{\"type\": \"heatmap\", \"source\": \"hot_ranges\", \"x\": \"code_lo\", \"y\": \"data_lo\", "
           "\"group\": [\"run\"]}",
           "plot.group (key): 'group' does not apply to type heatmap (only to lines, bars, stacked, scatter, "
           "timeseries, cdf)\n"
           "plot.z: 'z' is required (the column that colours each cell)");
    expect("{\"type\": \"cdf\", \"x\": \"error_pct\", \"y\": \"fp_pct\"}",
           "plot.y (key): 'y' does not apply to type cdf (only to lines, bars, stacked, scatter, heatmap, "
           "timeseries)");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": {\"a\": 1}, "
           "\"panels\": 4, \"where\": [], \"labels\": {\"a\": 1}, \"logy\": \"yes\", \"title\": 7}",
           "plot.group: 'group' must be a column name or a list of column names\n"
           "plot.panels: 'panels' must be a column name (a non-empty string)\n"
           "plot.where: must be an object {column: value or [values]}\n"
           "plot.labels.a: a label must be a string\n"
           "plot.logy: 'logy' must be true or false\n"
           "plot.title: 'title' must be a string");
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": [\"workload\", \"run\"], "
           "\"where\": {\"seed\": [], \"run\": {\"a\": 1}, \"tables\": [1, [2]]}}",
           "plot.where.seed: an empty list matches no row\n"
           "plot.where.run: must be a string, number, boolean, null or a list of them\n"
           "plot.where.tables[1]: must be a string, number, boolean or null");
}

static void test_value_errors(void **state)
{
    (void)state;
    const char *base = "\"x\": \"tables\", \"y\": \"error_pct\", \"group\": [\"workload\", \"run\", \"seed\"]";
    char buf[1024];
#define WITH(extra) (snprintf(buf, sizeof buf, "{\"type\": \"lines\", %s, %s}", base, extra), buf)
    expect(WITH("\"yrange\": [1]"), "plot.yrange: 'yrange' must be [min, max] (numbers; null for automatic)");
    expect(WITH("\"yrange\": [5, 1]"), "plot.yrange: 'yrange': min (5) must be less than max (1)");
    expect(WITH("\"logy\": true, \"yrange\": [0, 10]"), "plot.yrange: 'yrange': min must be above 0 on a logarithmic axis");
    expect(WITH("\"xrange\": [null, \"a\"]"), "plot.xrange: 'xrange' must be [min, max] (numbers; null for automatic)");
    expect(WITH("\"shared_y\": true"), "plot.shared_y: 'shared_y' needs 'panels' (one y range for all panels)");
    expect(WITH("\"errorbars\": \"minmx\""),
           "plot.errorbars: 'errorbars' must be \"ci\", \"minmax\" or \"none\" (did you mean 'minmax'?)");
    expect(WITH("\"aggregate\": \"median\""),
           "plot.aggregate: aggregate function must be \"mean\" or \"geomean\" (did you mean 'mean'?)");
    expect(WITH("\"aggregate\": {\"fn\": \"geomaen\", \"ovr\": \"seed\"}"),
           "plot.aggregate.ovr (key): unknown key 'ovr' of 'aggregate' (known: fn, over, only) (did you mean "
           "'over'?)\n"
           "plot.aggregate.fn: aggregate function must be \"mean\" or \"geomean\" (did you mean 'geomean'?)");
    expect(WITH("\"aggregate\": {\"over\": \"seed\"}"), "plot.aggregate: 'aggregate' needs \"fn\": \"mean\" or \"geomean\"");
    expect(WITH("\"aggregate\": 1"),
           "plot.aggregate: 'aggregate' must be \"mean\", \"geomean\" or {\"fn\": ..., \"over\": column, \"only\": bool}");
    expect(WITH("\"aggregate\": {\"fn\": \"mean\", \"over\": \"tables\"}"),
           "plot.aggregate: cannot aggregate over 'tables', the numeric x axis of a lines plot");
    expect(WITH("\"normalize\": {\"run\": \"BSH\", \"seed\": 1}"),
           "plot.normalize: 'normalize' must be {column: baseline value}, e.g. {\"run\": \"BSH\"}");
    expect(WITH("\"normalize\": {\"stream\": \"values\"}"),
           "plot.normalize.stream (key): the baseline column 'stream' must be 'x', a 'group' column or 'panels' "
           "(the rows it divides are told apart by it)");
    expect(WITH("\"normalize\": {\"run\": [1]}"), "plot.normalize.run: the baseline must be a string, number or boolean");
    expect(WITH("\"source\": 5"), "plot.source: 'source' must be \"main\", \"series\", \"windows\" or a model table name");
#undef WITH
    expect("{\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp_pct\", \"fn_pct\"], \"group\": [\"run\"], "
           "\"where\": {\"tables\": 1, \"seed\": 1}, \"errorbars\": \"ci\", \"aggregate\": \"geomean\"}",
           "plot.errorbars: error bars on stacked bars are drawn on the total: name its column in 'total' (e.g. "
           "\"total\": \"error_pct\")\n"
           "plot.aggregate: geometric means of stacked segments do not add up to the total: use \"mean\"");
}

static void test_columns(void **state)
{
    (void)state;
    expect("{\"type\": \"lines\", \"x\": \"tabels\", \"y\": [\"error_pct\", \"err\"], \"group\": [\"workload\", \"runn\"], "
           "\"panels\": \"sed\", \"where\": {\"nope\": 1}}",
           "plot.x: no column 'tabels' in this config's CSV (columns: workload, run, model, the models' parameters "
           "and metrics; see `hwprof params` and `hwprof models`)\n"
           "plot.y[1]: no column 'err' in this config's CSV (columns: workload, run, model, the models' parameters "
           "and metrics; see `hwprof params` and `hwprof models`)\n"
           "plot.group[1]: no column 'runn' in this config's CSV (columns: workload, run, model, the models' "
           "parameters and metrics; see `hwprof params` and `hwprof models`)\n"
           "plot.panels: no column 'sed' in this config's CSV (columns: workload, run, model, the models' "
           "parameters and metrics; see `hwprof params` and `hwprof models`)\n"
           "plot.where.nope (key): no column 'nope' in this config's CSV (columns: workload, run, model, the "
           "models' parameters and metrics; see `hwprof params` and `hwprof models`)");
    /* Error-bar columns: ci needs m_lo/m_hi (present), minmax m_min/m_max (absent). */
    expect("{\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"error_pct\", \"fp_pct\"], \"group\": [\"run\", \"tables\", "
           "\"seed\"], \"errorbars\": \"ci\"}",
           "plot.errorbars: \"ci\" needs the columns fp_pct_lo and fp_pct_hi, which the runner writes when a "
           "workload has several windows");
    expect("{\"type\": \"bars\", \"x\": \"workload\", \"y\": \"error_pct\", \"group\": [\"run\", \"tables\", \"seed\"], "
           "\"errorbars\": \"minmax\"}",
           "plot.errorbars: \"minmax\" needs the columns error_pct_min and error_pct_max, which the runner writes "
           "when a workload has several windows");
    /* The series CSV has index (x here) and a table its own columns. */
    expect("{\"type\": \"lines\", \"source\": \"series\", \"x\": \"index\", \"y\": \"fp_pct\", "
           "\"group\": [\"workload\", \"run\", \"tables\", \"seed\"]}",
           "plot.y: no column 'fp_pct' in this config's series CSV (columns: workload, run, model, the models' "
           "parameters, index and the series columns)");
    expect("{\"type\": \"heatmap\", \"source\": \"hot_rangs\", \"x\": \"code_lo\", \"y\": \"data_lo\", \"z\": \"count\"}",
           "plot.x: no column 'code_lo' in this config's 'hot_rangs' table CSV\n"
           "plot.y: no column 'data_lo' in this config's 'hot_rangs' table CSV\n"
           "plot.z: no column 'count' in this config's 'hot_rangs' table CSV");
}

static void test_varying(void **state)
{
    (void)state;
    /* seed fixed by where, workload aggregated, run and tables placed. */
    expect("{\"type\": \"bars\", \"x\": \"run\", \"y\": \"error_pct\", \"group\": \"tables\", \"where\": {\"seed\": [2]}, "
           "\"aggregate\": \"mean\"}",
           OK);
    /* A where list of two values does not fix the column. */
    expect("{\"type\": \"bars\", \"x\": \"run\", \"y\": \"error_pct\", \"group\": \"tables\", \"where\": {\"seed\": [1, 2]}, "
           "\"panels\": \"workload\"}",
           "plot (key): 'seed' varies across the rows, so rows that differ only in 'seed' would fall on one point: "
           "add it to 'group' or 'panels', fix it in 'where', or aggregate over it");
    /* Aggregating over seed instead. */
    expect("{\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": \"run\", \"panels\": \"workload\", "
           "\"aggregate\": {\"fn\": \"mean\", \"over\": \"seed\"}}",
           OK);
    /* A measured x (memory_bytes, a function of the swept sizes) tells the
     * rows apart itself; so does a scatter plot. */
    expect("{\"type\": \"lines\", \"x\": \"overhead_pct\", \"y\": \"error_pct\", \"group\": \"run\", "
           "\"panels\": \"workload\"}",
           OK);
    /* The series CSV also varies in index. */
    expect("{\"type\": \"lines\", \"source\": \"series\", \"x\": \"tables\", \"y\": \"error_pct\", "
           "\"group\": [\"workload\", \"run\", \"seed\"]}",
           "plot (key): 'index' varies across the rows of the series CSV: make it 'x', add it to 'group' or "
           "'panels', or fix it in 'where'");
    /* No column provider: structure only. */
    {
        json_t *plot = json_loads("{\"type\": \"lines\", \"x\": \"a\", \"y\": \"b\"}", 0, NULL);
        struct diag d;
        diag_init(&d, NULL);
        assert_int_equal(plotspec_check(plot, NULL, &d), 0);
        diag_free(&d);
        json_decref(plot);
    }
}

static void test_parsed(void **state)
{
    (void)state;
    json_t *plot = json_loads("{\"type\": \"stacked\", \"x\": \"run\", \"y\": [\"fp_pct\", \"fn_pct\"], "
                              "\"group\": \"tables\", \"labels\": {\"fp_pct\": \"false positives\"}, "
                              "\"aggregate\": {\"fn\": \"mean\", \"over\": \"seed\", \"only\": true}, "
                              "\"yrange\": [null, 50], \"normalize\": {\"run\": \"BSH\"}}",
                              0, NULL);
    struct plotspec s;
    struct diag d;
    diag_init(&d, NULL);
    assert_int_equal(plotspec_parse(plot, &s, &d), 0);
    assert_int_equal(s.kind, PLOT_STACKED);
    assert_string_equal(plot_kind_name(s.kind), "stacked");
    assert_string_equal(s.source, "main");
    assert_int_equal(s.ny, 2);
    assert_string_equal(s.y[1], "fn_pct");
    assert_int_equal(s.ngroup, 1);
    assert_string_equal(s.group[0], "tables");
    assert_null(s.panels);
    assert_int_equal(s.agg, AGG_MEAN);
    assert_string_equal(s.agg_over, "seed");
    assert_true(s.agg_only);
    assert_false(s.has_ymin);
    assert_true(s.has_ymax);
    assert_true(s.ymax == 50);
    assert_int_equal(s.errorbars, EB_AUTO);
    assert_string_equal(s.norm_col, "run");
    assert_string_equal(json_string_value(s.norm_value), "BSH");
    assert_string_equal(plotspec_label(&s, "fp_pct"), "false positives");
    assert_string_equal(plotspec_label(&s, "fn_pct"), "fn_pct");
    plotspec_free(&s);
    diag_free(&d);
    json_decref(plot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),   cmocka_unit_test(test_structure_errors), cmocka_unit_test(test_value_errors),
        cmocka_unit_test(test_columns), cmocka_unit_test(test_varying),          cmocka_unit_test(test_parsed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
