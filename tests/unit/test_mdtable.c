/* test_mdtable.c - src/report/mdtable.c: exact markdown output (alignment,
 * escaping, formats, filters) and every error of a "table" section at its
 * key path (the formats themselves: test_numfmt.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/mdtable.h"
#include "run/config.h"

static const char *table_csv = "workload,run,methods,calls,ratio\n"
                               "gzip,a|b,120,34567,0.123456\n"
                               "python,a,4021,,1.5\n"
                               "sqlite,a,987,12,2\n"
                               "lua,ü,7,1,0\n";

/* Render; NULL with the first error in err. */
static char *render(const char *table_json, const char *where_json, char *err, size_t len)
{
    json_t *table = table_json ? json_loads(table_json, 0, NULL) : NULL;
    json_t *where = where_json ? json_loads(where_json, 0, NULL) : NULL;
    struct diag d;
    struct csv *csv;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    diag_init(&d, "c.json");
    csv = csv_parse(table_csv, strlen(table_csv), "r.csv", &d);
    assert_non_null(csv);
    assert_non_null(f);
    int rc = mdtable_render(f, csv, table, where, &d);
    fclose(f);
    diag_first(&d, err, len);
    assert_int_equal(rc == 0, diag_ok(&d));
    diag_free(&d);
    csv_free(csv);
    json_decref(table);
    json_decref(where);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void test_render(void **state)
{
    (void)state;
    char err[512];
    char *s = render(NULL, NULL, err, sizeof err);
    assert_non_null(s);
    assert_string_equal(s, "| workload | run  | methods | calls |    ratio |\n"
                           "| -------- | ---- | ------: | ----: | -------: |\n"
                           "| gzip     | a\\|b |     120 | 34567 | 0.123456 |\n"
                           "| python   | a    |    4021 |       |      1.5 |\n"
                           "| sqlite   | a    |     987 |    12 |        2 |\n"
                           "| lua      | ü    |       7 |     1 |        0 |\n");
    free(s);

    s = render("{\"columns\": [\"workload\", \"ratio\", \"methods\"],"
               " \"format\": {\"ratio\": \"%.2f%%\", \"methods\": \"%05d\"}}",
               "{\"workload\": [\"gzip\", \"sqlite\"]}", err, sizeof err);
    assert_non_null(s);
    assert_string_equal(s, "| workload | ratio | methods |\n"
                           "| -------- | ----: | ------: |\n"
                           "| gzip     | 0.12% |   00120 |\n"
                           "| sqlite   | 2.00% |   00987 |\n");
    free(s);

    /* table.where wins over the plot's where */
    s = render("{\"columns\": [\"workload\"], \"where\": {\"run\": \"a\"}}", "{\"workload\": \"gzip\"}", err, sizeof err);
    assert_non_null(s);
    assert_string_equal(s, "| workload |\n"
                           "| -------- |\n"
                           "| python   |\n"
                           "| sqlite   |\n");
    free(s);

    assert_null(render("{\"columns\": [\"workload\", \"nope\"]}", NULL, err, sizeof err));
    assert_string_equal(err, "c.json: no column 'nope' in r.csv");
    assert_null(render("{\"format\": {\"nope\": \"%.1f\"}}", NULL, err, sizeof err));
    assert_string_equal(err, "c.json: no column 'nope' in r.csv");
    assert_null(render(NULL, "{\"nope\": 1}", err, sizeof err));
    assert_string_equal(err, "c.json: no column 'nope' in r.csv");
    assert_null(render(NULL, "{\"run\": \"zz\"}", err, sizeof err));
    assert_string_equal(err, "c.json: no row of r.csv matches");
}

static const char *const cols_main[] = {"workload", "run", "calls", NULL};

static int has(void *ctx, const char *source, const char *col)
{
    (void)ctx;
    if (strcmp(source, "main") != 0)
        return 0;
    for (size_t i = 0; cols_main[i]; i++)
        if (!strcmp(cols_main[i], col))
            return 1;
    return 0;
}

static void check_table(const char *table_json, const char *want)
{
    static const struct config_columns cols = {has, NULL, NULL};
    json_t *table = json_loads(table_json, JSON_DECODE_ANY, NULL);
    struct diag d;
    char got[2048] = "";
    size_t o = 0;
    assert_non_null(table);
    diag_init(&d, "c.json");
    size_t n = mdtable_check(table, &cols, &d);
    assert_int_equal(n, diag_count(&d));
    for (size_t i = 0; i < d.n; i++) {
        char path[128];
        diag_path_format(&d.items[i].path, path, sizeof path);
        o += (size_t)snprintf(got + o, sizeof got - o, "%s%s: %s", i ? "\n" : "", path, d.items[i].msg);
    }
    if (strcmp(got, want) != 0)
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    diag_free(&d);
    json_decref(table);
}

static void test_check(void **state)
{
    (void)state;
    struct diag d;
    diag_init(&d, NULL);
    assert_int_equal(mdtable_check(NULL, NULL, &d), 0);
    diag_free(&d);
    check_table("{\"columns\": [\"workload\", \"calls\"], \"where\": {\"run\": [\"a\", \"b\"]}, "
                 "\"format\": {\"calls\": \"%.1f%%\"}}",
                 "");
    check_table("3", "table: 'table' must be an object");
    check_table("{\"colums\": [\"workload\"], \"fromat\": {}}",
                 "table.colums: unknown key 'colums' in 'table' (known: columns, where, format) (did you mean "
                 "'columns'?)\n"
                 "table.fromat: unknown key 'fromat' in 'table' (known: columns, where, format) (did you mean "
                 "'format'?)");
    check_table("{\"columns\": []}", "table.columns: 'columns' must be a non-empty list of column names");
    check_table("{\"columns\": [\"workload\", 3, \"cals\"]}",
                 "table.columns[1]: must be a column name (a non-empty string)\n"
                 "table.columns[2]: no column 'cals' in this config's CSV (columns: workload, run, model, the "
                 "models' parameters and metrics; see `hwprof params` and `hwprof models`)");
    check_table("{\"where\": {\"runn\": 1}, \"format\": {\"calls\": \"%s\", \"nope\": \"%.1f\"}}",
                 "table.where.runn: no column 'runn' in this config's CSV (columns: workload, run, model, the "
                 "models' parameters and metrics; see `hwprof params` and `hwprof models`)\n"
                 "table.format.calls: a format must be a string with one conversion "
                 "%[-][0][width][.precision](d|f|e|g), e.g. \"%.2f\"\n"
                 "table.format.nope: no column 'nope' in this config's CSV (columns: workload, run, model, the "
                 "models' parameters and metrics; see `hwprof params` and `hwprof models`)");
    check_table("{\"where\": {\"run\": []}, \"format\": 2}",
                 "table.where.run: an empty list matches no row\n"
                 "table.format: 'format' must be an object {column: \"%.2f\"}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
