/* test_config.c - config loading, validation messages (line:column), sweep
 * expansion order, and the JSON position finder. */
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
#include "core/jsonpos.h"
#include "run/config.h"

static char tmpdir[64];

static const char *write_cfg(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hwprof-test-config-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd);
}

/* Load through a diag; err receives the first error (formatted). */
static struct config *load(const char *path, const char *wdir, char *err, size_t len)
{
    struct diag d;
    diag_init(&d, NULL);
    struct config *c = config_load(path, wdir, &d);
    diag_first(&d, err, len);
    assert_true(c ? diag_ok(&d) : !diag_ok(&d));
    diag_free(&d);
    return c;
}

static void load_error(const char *text, const char *expected_suffix)
{
    char err[2048] = "";
    const char *p = write_cfg("c.json", text);
    struct config *c = load(p, NULL, err, sizeof err);
    assert_null(c);
    /* err = "<path>:<line>:<col>: message" */
    size_t plen = strlen(p);
    assert_int_equal(strncmp(err, p, plen), 0);
    assert_string_equal(err + plen, expected_suffix);
}

static void test_valid_analytic(void **state)
{
    (void)state;
    char err[1024];
    const char *p = write_cfg("ok.json", "{\"paper\": \"suite\", \"workloads\": [], \"model\": \"mh_bound\"}\n");
    struct config *c = load(p, NULL, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    assert_int_equal(c->nworkloads, 0);
    assert_int_equal(c->nruns, 1);
    assert_int_equal(c->runs[0].npoints, 1);
    assert_string_equal(c->runs[0].label, "mh_bound");
    assert_string_equal(c->stem, "ok");
    config_free(c);
    /* a model that reads a trace needs workloads */
    load_error("{\"paper\": \"suite\", \"workloads\": [], \"model\": \"counts\"}\n",
               ":1:33: 'workloads' is [] (an analytic figure) but model 'counts' reads a trace: name workloads");
}

static void test_unknown_key(void **state)
{
    (void)state;
    load_error("{\"paper\": \"suite\",\n  \"workloads\": [],\n  \"modle\": \"counts\"}\n",
               ":3:3: unknown key 'modle' (did you mean 'model'?) (known: name, paper, figure, caption, workloads, "
               "traces, model, params, sweep, runs, metrics, series, tables, plot, table, notes)");
}

static void test_duplicate_key(void **state)
{
    (void)state;
    char err[1024];
    const char *p = write_cfg("dup.json", "{\"paper\": \"a\",\n \"paper\": \"b\"}\n");
    assert_null(load(p, NULL, err, sizeof err));
    assert_non_null(strstr(err, "dup.json:2:"));
    assert_non_null(strstr(err, "duplicate object key"));
}

static void test_malformed(void **state)
{
    (void)state;
    char err[1024];
    const char *p = write_cfg("bad.json", "{\"paper\": \"a\",\n \"workloads\": [1,}\n");
    assert_null(load(p, NULL, err, sizeof err));
    assert_non_null(strstr(err, "bad.json:2:"));
}

static void test_unknown_model(void **state)
{
    (void)state;
    char err[1024];
    const char *p = write_cfg("m.json", "{\"paper\": \"a\", \"workloads\": [],\n \"model\": \"nosuch\"}\n");
    assert_null(load(p, NULL, err, sizeof err));
    assert_non_null(strstr(err, "m.json:2:11: unknown model 'nosuch' (see `hwprof models`)"));
    p = write_cfg("m2.json", "{\"paper\": \"a\", \"workloads\": [],\n \"model\": \"multihahs\"}\n");
    assert_null(load(p, NULL, err, sizeof err));
    assert_non_null(strstr(err, "unknown model 'multihahs' (did you mean 'multihash'?)"));
}

static void test_unknown_param(void **state)
{
    (void)state;
    load_error("{\"paper\": \"a\", \"workloads\": [\"w\"], \"model\": \"counts\",\n \"params\": {\"tables\": 4}}\n",
               ":2:13: unknown parameter 'tables' for model 'counts' (see `hwprof params counts`)");
    load_error("{\"paper\": \"a\", \"workloads\": [\"w\"], \"model\": \"multihash\",\n \"params\": {\"tabels\": 4}}\n",
               ":2:13: unknown parameter 'tabels' for model 'multihash' (did you mean 'tables'?) "
               "(see `hwprof params multihash`)");
}

static void test_workloads_type(void **state)
{
    (void)state;
    load_error("{\"paper\": \"a\", \"workloads\": \"some\", \"model\": \"counts\"}",
               ":1:29: 'workloads' must be \"all\" or a list of workload names");
}

/* Sweep expansion: cartesian product, the last key varying fastest; top-level
 * params apply to every run whose model declares them. */
static void test_sweep_order(void **state)
{
    (void)state;
    char err[1024];
    const char *p = write_cfg("s.json", "{\"paper\": \"a\", \"workloads\": [\"w\"],\n"
                                        " \"params\": {\"interval\": 1000},\n"
                                        " \"runs\": [{\"model\": \"multihash\",\n"
                                        "            \"sweep\": {\"tables\": [1, 2, 4], \"conservative\": [false, true]}},\n"
                                        "           {\"label\": \"cnt\", \"model\": \"counts\"}]}\n");
    struct config *c = load(p, NULL, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(c->nruns, 2);
    assert_int_equal(c->runs[0].npoints, 6);
    assert_int_equal(c->runs[1].npoints, 1);
    assert_string_equal(c->runs[1].label, "cnt");
    static const int64_t tables[6] = { 1, 1, 2, 2, 4, 4 };
    static const int64_t cons[6] = { 0, 1, 0, 1, 0, 1 };
    for (size_t i = 0; i < 6; i++) {
        struct param_values pv;
        config_point(&c->runs[0], i, &pv);
        assert_int_equal(pv_int(&pv, "tables"), tables[i]);
        assert_int_equal(pv_bool(&pv, "conservative"), cons[i]);
        assert_int_equal(pv_int(&pv, "interval"), 1000);
        assert_int_equal(pv_int(&pv, "counters"), 2048); /* default */
    }
    config_free(c);
}

static void test_out_of_range(void **state)
{
    (void)state;
    load_error("{\"paper\": \"a\", \"workloads\": [], \"model\": \"multihash\",\n"
               " \"sweep\": {\"tables\": [4, 99]}}\n",
               ":2:26: 'tables' must be an integer in [1, 16] (number of hash tables n (each gets floor(counters / n) "
               "counters))");
}

static void test_enum_value(void **state)
{
    (void)state;
    load_error("{\"paper\": \"a\", \"workloads\": [], \"model\": \"multihash\",\n"
               " \"params\": {\"stream\": \"vaules\"}}\n",
               ":2:23: 'stream' must be one of 'values', 'edges' (did you mean 'values'?)");
}

static void test_wrong_param_type(void **state)
{
    (void)state;
    load_error("{\"paper\": \"a\", \"workloads\": [], \"model\": \"multihash\",\n"
               " \"params\": {\"threshold\": \"1%\"}}\n",
               ":2:26: 'threshold' must be a number in [1e-05, 1]");
}

/* Every error of a config is reported, each at its own position. */
static void test_all_errors(void **state)
{
    (void)state;
    const char *p = write_cfg("many.json", "{\"paper\": \"a\", \"workloads\": [\"w\"],\n"
                                           " \"model\": \"multihash\",\n"
                                           " \"params\": {\"tables\": 99, \"thresold\": 0.1},\n"
                                           " \"sweep\": {\"counters\": [0]},\n"
                                           " \"colour\": 1}\n");
    struct diag d;
    diag_init(&d, NULL);
    assert_null(config_load(p, NULL, &d));
    assert_int_equal(diag_count(&d), 4);
    char buf[1024];
    int found[4] = { 0 };
    for (size_t i = 0; i < d.n; i++) {
        diag_format(&d.items[i], buf, sizeof buf);
        found[0] |= strstr(buf, "many.json:3:23: 'tables' must be an integer in [1, 16]") != NULL;
        found[1] |= strstr(buf, "many.json:3:27: unknown parameter 'thresold'") != NULL &&
                    strstr(buf, "did you mean 'threshold'?") != NULL;
        found[2] |= strstr(buf, "many.json:4:25: 'counters' must be an integer in [1, 16777216]") != NULL;
        found[3] |= strstr(buf, "many.json:5:2: unknown key 'colour'") != NULL;
    }
    for (int k = 0; k < 4; k++)
        if (!found[k]) {
            diag_print(&d, stderr, "got: ");
            fail_msg("error %d not reported", k);
        }
    diag_free(&d);
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const words[] = { "tables", "counters", "threshold", "interval", NULL };
    assert_string_equal(diag_suggest("tabels", words), "tables");
    assert_string_equal(diag_suggest("Threshhold", words), "threshold");
    assert_string_equal(diag_suggest("intreval", words), "interval");
    assert_null(diag_suggest("zzz", words));
    assert_null(diag_suggest("tables", words)); /* exact: nothing to suggest */
    char msg[64] = "unknown";
    diag_did_you_mean(msg, sizeof msg, "x");
    assert_string_equal(msg, "unknown (did you mean 'x'?)");
}

static void test_jsonpos(void **state)
{
    (void)state;
    const char *text = "{\n  \"a\": [1, {\"b\": 2}],\n  \"c\": {\"d\": \"x\"}\n}";
    struct jpath_step p1[] = { { "a", 0 }, { NULL, 1 }, { "b", 0 } };
    int line, col;
    assert_int_equal(jsonpos_find(text, p1, 3, 0, &line, &col), 0);
    assert_int_equal(line, 2);
    assert_int_equal(col, 18);
    struct jpath_step p2[] = { { "c", 0 }, { "d", 0 } };
    assert_int_equal(jsonpos_find(text, p2, 2, 1, &line, &col), 0);
    assert_int_equal(line, 3);
    assert_int_equal(col, 9);
    struct jpath_step p3[] = { { "zz", 0 } };
    assert_int_equal(jsonpos_find(text, p3, 1, 0, &line, &col), -1);
}

/* config_read: the names only, whatever the models and workloads (what
 * `hwprof plot` and `hwprof table` read); the JSON and the paper are
 * checked as config_load checks them.  The plot and table sections are
 * checked by config_load through the sections the reporting code
 * registers, at their key paths. */
static void test_read_names(void **state)
{
    (void)state;
    char err[1024] = "";
    struct diag d;
    diag_init(&d, NULL);
    const char *p = write_cfg("names.json", "{\"paper\": \"p\", \"caption\": \"A figure\", \"model\": \"nosuch\",\n"
                                            " \"plot\": {\"type\": \"lines\"}}\n");
    struct config *c = config_read(p, &d);
    assert_non_null(c);
    assert_string_equal(c->paper, "p");
    assert_string_equal(c->stem, "names");
    assert_string_equal(c->caption, "A figure");
    assert_non_null(json_object_get(c->root, "plot"));
    assert_non_null(c->text);
    config_free(c);
    p = write_cfg("bad.json", "{\"paper\": \"\",\n \"caption\": 3}\n");
    assert_null(config_read(p, &d));
    assert_int_equal(diag_count(&d), 2);
    diag_format(&d.items[0], err, sizeof err);
    assert_non_null(strstr(err, "bad.json:2:13: 'caption' must be a string"));
    diag_format(&d.items[1], err, sizeof err);
    assert_non_null(strstr(err, "bad.json:1:11: 'paper' must be a lower-case name"));
    diag_free(&d);

    p = write_cfg("plot.json", "{\"paper\": \"a\", \"workloads\": [], \"model\": \"mh_bound\",\n"
                               " \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": \"nope\"},\n"
                               " \"table\": {\"colums\": []}}\n");
    diag_init(&d, NULL);
    assert_null(config_load(p, NULL, &d));
    assert_int_equal(diag_count(&d), 2);
    diag_format(&d.items[0], err, sizeof err);
    assert_non_null(strstr(err, "plot.json:2:48: no column 'nope' in this config's CSV"));
    diag_format(&d.items[1], err, sizeof err);
    assert_non_null(strstr(err, "plot.json:3:12: unknown key 'colums' in 'table'"));
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_analytic), cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_duplicate_key),  cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_unknown_model),  cmocka_unit_test(test_unknown_param),
        cmocka_unit_test(test_workloads_type), cmocka_unit_test(test_jsonpos),
        cmocka_unit_test(test_sweep_order),    cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_enum_value),     cmocka_unit_test(test_wrong_param_type),
        cmocka_unit_test(test_all_errors),     cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_read_names),
    };
    return cmocka_run_group_tests_name("config", tests, setup, teardown);
}
