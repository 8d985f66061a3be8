/* test_outcols.c - names that would collide in the output CSVs: the
 * registry's descriptor check (what is wrong whatever a config asks for)
 * and outcols_clashes (what a config's metrics and tables make collide),
 * and the config loader's message for such a config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/diag.h"
#include "run/config.h"
#include "run/model.h"
#include "run/outcols.h"

/* docs/examples/branch_bias.c before the fix: parameter 'bias' and a
 * column 'bias' of its table 'branches'. */
static const struct param_spec bias_params[] = {
    P_REAL("bias", 0.9, 0.5, 1, "threshold"),
    P_INT("max_branches", 65536, 1, 16777216, "tracked"),
    PARAM_END,
};
static const struct metric_spec bias_metrics[] = {
    METRIC("biased_pct", "share"),
    METRIC("mean_bias", "mean"),
    METRIC_END,
};
static const struct col_spec bias_cols[] = {
    COL("pc", COL_HEX, "address"),
    COL("bias", COL_REAL, "max(taken, not taken) / executions"),
    COL_END,
};
static const struct table_spec bias_tables[] = {
    { "branches", "one row per branch", bias_cols },
    TABLE_END,
};
static const struct model_desc bias_model = {
    .name = "bias_example", .params = bias_params, .metrics = bias_metrics, .tables = bias_tables,
};

/* Shares 'interval' and 'error_pct' with `other` (shared columns, fine),
 * has a metric 'threshold' where `other` has a parameter. */
static const struct param_spec a_params[] = {
    P_INT("interval", 10000, 1, 1e7, "interval"),
    PARAM_END,
};
static const struct metric_spec a_metrics[] = {
    METRIC("error_pct", "error"),
    METRIC("threshold", "the threshold used"),
    METRIC_END,
};
static const struct model_desc a_model = { .name = "a", .params = a_params, .metrics = a_metrics };
static const struct param_spec other_params[] = {
    P_INT("interval", 10000, 1, 1e7, "interval"),
    P_REAL("threshold", 0.01, 0, 1, "threshold"),
    PARAM_END,
};
static const struct metric_spec other_metrics[] = {
    METRIC("error_pct", "error"),
    METRIC_END,
};
static const struct model_desc other_model = { .name = "other", .params = other_params, .metrics = other_metrics };

static void test_param_vs_table_column(void **state)
{
    (void)state;
    const struct model_desc *ms[] = { &bias_model };
    const char *const branches[] = { "branches", NULL }, *const none[] = { NULL };
    struct outcol_clash c[4];
    /* the table is written: one clash, in <stem>.branches.csv */
    assert_int_equal(outcols_clashes(ms, 1, NULL, branches, c, 4), 1);
    assert_string_equal(c[0].csv, "branches");
    assert_string_equal(c[0].name, "bias");
    assert_string_equal(c[0].first, "parameter 'bias' of model 'bias_example'");
    assert_string_equal(c[0].second, "column 'bias' of table 'branches' of model 'bias_example'");
    assert_int_equal(c[0].model, 0);
    assert_true(c[0].hint_table);
    /* every table (NULL) includes it; none written: no clash */
    assert_int_equal(outcols_clashes(ms, 1, NULL, NULL, c, 4), 1);
    assert_int_equal(outcols_clashes(ms, 1, NULL, none, c, 4), 0);
    /* a clean descriptor for the registry: the clash depends on the config */
    char err[512];
    assert_int_equal(model_desc_check(&bias_model, err, sizeof err), 0);
}

static void test_param_vs_metric_of_another_model(void **state)
{
    (void)state;
    const struct model_desc *ms[] = { &other_model, &a_model };
    const char *const none[] = { NULL };
    struct outcol_clash c[4];
    /* shared 'interval' and 'error_pct' are one column each; 'threshold'
     * clashes in the main and the windows CSV */
    assert_int_equal(outcols_clashes(ms, 2, NULL, none, c, 4), 2);
    assert_string_equal(c[0].csv, "main");
    assert_string_equal(c[1].csv, "windows");
    assert_string_equal(c[0].name, "threshold");
    assert_string_equal(c[0].first, "parameter 'threshold' of model 'other'");
    assert_string_equal(c[0].second, "metric 'threshold' of model 'a'");
    assert_int_equal(c[0].model, 1);
    assert_true(c[0].hint_metric);
    /* leaving the metric out of the written ones removes the clash */
    const char *const err_only[] = { "error_pct", NULL };
    assert_int_equal(outcols_clashes(ms, 2, err_only, none, c, 4), 0);
    /* one model alone, or twice (two runs): no clash */
    assert_int_equal(outcols_clashes(ms + 1, 1, NULL, none, c, 4), 0);
    const struct model_desc *twice[] = { &a_model, &a_model };
    assert_int_equal(outcols_clashes(twice, 2, NULL, none, c, 4), 0);
}

/* m_min of metric m and a metric called m_min: only the main CSV has the
 * statistics columns. */
static void test_metric_statistics_suffix(void **state)
{
    (void)state;
    static const struct metric_spec metrics[] = { METRIC("hits", "hits"), METRIC("hits_max", "most"), METRIC_END };
    static const struct model_desc m = { .name = "stats", .metrics = metrics };
    const struct model_desc *ms[] = { &m };
    const char *const none[] = { NULL };
    struct outcol_clash c[4];
    assert_int_equal(outcols_clashes(ms, 1, NULL, none, c, 4), 1);
    assert_string_equal(c[0].csv, "main");
    assert_string_equal(c[0].name, "hits_max");
    assert_string_equal(c[0].first, "'hits_max' (the maximum of metric 'hits' of model 'stats')");
    assert_string_equal(c[0].second, "metric 'hits_max' of model 'stats'");
}

static void test_registry_check(void **state)
{
    (void)state;
    char err[512];
    static const struct param_spec dup_params[] = { P_INT("n", 1, 1, 2, "n"), P_INT("n", 1, 1, 2, "n"), PARAM_END };
    static const struct param_spec run_param[] = { P_INT("run", 1, 1, 2, "n"), PARAM_END };
    static const struct metric_spec ok_metrics[] = { METRIC("x", "x"), METRIC_END };
    static const struct metric_spec dup_metrics[] = { METRIC("x", "x"), METRIC("x", "x"), METRIC_END };
    static const struct metric_spec weight_metric[] = { METRIC("weight", "w"), METRIC_END };
    static const struct col_spec window_col[] = { COL("window", COL_INT, "w"), COL_END };
    static const struct col_spec weight_col[] = { COL("weight", COL_REAL, "w"), COL_END };
    static const struct table_spec window_table[] = { { "t", "t", window_col }, TABLE_END };
    static const struct table_spec windows_table[] = { { "windows", "t", weight_col }, TABLE_END };
    static const struct table_spec weight_table[] = { { "t", "t", weight_col }, TABLE_END };
    struct model_desc m = { .name = "m", .metrics = ok_metrics };
    assert_int_equal(model_desc_check(&m, err, sizeof err), 0);
    m.params = dup_params;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_string_equal(err, "parameter 'n' is declared twice");
    m.params = run_param;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "parameter 'run' has the name of a column the runner writes"));
    m.params = NULL;
    m.metrics = dup_metrics;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_string_equal(err, "metric 'x' is declared twice");
    m.metrics = weight_metric;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "metric 'weight' has the name of a column the runner writes"));
    m.metrics = ok_metrics;
    m.tables = window_table;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "column 'window' of table 't' has the name of a column the runner writes before it"));
    m.tables = windows_table;
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "a table may not be called 'windows'"));
    m.tables = weight_table; /* a table CSV has no weight column */
    assert_int_equal(model_desc_check(&m, err, sizeof err), 0);
    m.name = "Bad-Name";
    assert_int_equal(model_desc_check(&m, err, sizeof err), -1);
    /* every registered model passes (the registry aborts otherwise) */
    for (const struct model_desc *const *all = model_all(); *all; all++) {
        assert_int_equal(model_desc_check(*all, err, sizeof err), 0);
    }
}

/* The config loader: a registered model whose parameter 'counters' is also
 * a metric, with every metric written, is refused at its "model" key; with
 * a "metrics" list without it, accepted. */
static void test_config_refuses_clash(void **state)
{
    (void)state;
    char dir[] = "/tmp/hwprof-test-outcols-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/c.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"paper\": \"hps\", \"workloads\": [\"w\"],\n \"model\": \"hps_spacesaving\"}\n", f);
    fclose(f);
    struct diag d;
    diag_init(&d, NULL);
    assert_null(config_load(path, NULL, &d));
    char msg[1024];
    diag_first(&d, msg, sizeof msg);
    assert_non_null(strstr(msg, "c.json:2:11: parameter 'counters' of model 'hps_spacesaving' and metric 'counters' of "
                                "model 'hps_spacesaving' would both be column 'counters' of c.csv and c.windows.csv"));
    assert_int_equal(diag_count(&d), 1);
    diag_free(&d);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"paper\": \"hps\", \"workloads\": [\"w\"],\n \"model\": \"hps_spacesaving\", \"metrics\": [\"hits\"]}\n", f);
    fclose(f);
    diag_init(&d, NULL);
    struct config *c = config_load(path, NULL, &d);
    assert_non_null(c);
    config_free(c);
    diag_free(&d);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_vs_table_column),
        cmocka_unit_test(test_param_vs_metric_of_another_model),
        cmocka_unit_test(test_metric_statistics_suffix),
        cmocka_unit_test(test_registry_check),
        cmocka_unit_test(test_config_refuses_clash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
