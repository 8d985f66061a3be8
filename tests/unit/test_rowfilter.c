/* test_rowfilter.c - src/report/rowfilter.c: the config spelling and the marker
 * spelling of a filter give the same conditions and the same rows; how a
 * cell matches a string, a number, a boolean, null and the ordering
 * operators; alternatives on one key; overlay and inheritance of
 * conditions; the errors of both spellings. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rowfilter.h"

static const char *rows_csv = "workload,run,tables,rate,retain,tag\n"
                              "gzip,BSH,,0.01,1,\n"
                              "gzip,MH,2,1e-2,0,x\n"
                              "xz,MH,4,0.5,true,y\n"
                              "xz,MH,16,2,false,\n"
                              "lua,MH C1R0,8,0x10,1,a,b\n";

static struct csv *table(void)
{
    struct diag d;
    diag_init(&d, NULL);
    /* the last row holds a quoted comma */
    static char text[512];
    snprintf(text, sizeof text, "%s", rows_csv);
    char *last = strstr(text, "lua,");
    strcpy(last, "lua,MH C1R0,8,0x10,1,\"a,b\"\n");
    struct csv *c = csv_parse(text, strlen(text), "r.csv", &d);
    assert_non_null(c);
    diag_free(&d);
    return c;
}

/* The rows of c that f keeps, as "0 2 3". */
static void rows_of(const struct rowfilter *f, const struct csv *c, char *buf, size_t len)
{
    int *cols = rowfilter_columns(f, c);
    size_t n = 0, o = 0;
    for (size_t i = 0; i < f->n; i++)
        assert_true(cols[i] >= 0);
    size_t *rows = rowfilter_rows(f, c, cols, &n);
    buf[0] = '\0';
    for (size_t i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%zu", i ? " " : "", rows[i]);
    free(rows);
    free(cols);
}

static void json_rows(const struct csv *c, const char *json, const char *want)
{
    json_t *w = json_loads(json, 0, NULL);
    struct rowfilter f;
    struct diag d;
    struct diag_path at = diag_path_of(2, "plot", "where");
    char got[128];
    assert_non_null(w);
    diag_init(&d, NULL);
    assert_int_equal(rowfilter_from_json(w, &at, &f, &d), 0);
    rows_of(&f, c, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("%s keeps [%s], want [%s]", json, got, want);
    rowfilter_free(&f);
    diag_free(&d);
    json_decref(w);
}

static void text_rows(const struct csv *c, const char *text, const char *want)
{
    struct rowfilter f = {NULL, 0};
    struct diag d;
    char got[128];
    diag_init(&d, NULL);
    assert_true(rowfilter_parse(text, &f, &d, "doc.md", 1, 1));
    rows_of(&f, c, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("where=%s keeps [%s], want [%s]", text, got, want);
    rowfilter_free(&f);
    diag_free(&d);
}

static void test_config_spelling(void **state)
{
    (void)state;
    struct csv *c = table();
    json_rows(c, "{}", "0 1 2 3 4");
    json_rows(c, "{\"workload\": \"gzip\"}", "0 1");
    json_rows(c, "{\"workload\": [\"gzip\", \"lua\"], \"run\": \"MH\"}", "1");
    /* a string is the text exactly; a number is the number however written */
    json_rows(c, "{\"rate\": \"0.01\"}", "0");
    json_rows(c, "{\"rate\": 0.01}", "0 1");
    json_rows(c, "{\"rate\": 16}", "4");
    json_rows(c, "{\"tables\": [2, 16]}", "1 3");
    /* true and false: 1/true and 0/false; null: the empty cell */
    json_rows(c, "{\"retain\": true}", "0 2 4");
    json_rows(c, "{\"retain\": false}", "1 3");
    json_rows(c, "{\"tables\": null}", "0");
    json_rows(c, "{\"tag\": \"a,b\"}", "4");
    csv_free(c);
}

static void test_marker_spelling(void **state)
{
    (void)state;
    struct csv *c = table();
    text_rows(c, "workload:gzip", "0 1");
    text_rows(c, "workload:gzip,workload:lua,run!=BSH", "1 4");
    /* alternatives on a key need not be adjacent */
    text_rows(c, "workload:gzip,run:MH,workload:xz", "1 2 3");
    /* a text that is a number matches the number however written */
    text_rows(c, "rate:0.01", "0 1");
    text_rows(c, "rate:16", "4");
    text_rows(c, "tables>=4,tables<16", "2 4");
    text_rows(c, "tables>2", "2 3 4"); /* the empty cell is no number */
    text_rows(c, "tables!=2", "0 2 3 4");
    text_rows(c, "run:MH C1R0", "4");
    text_rows(c, "tag:a\\,b", "4");
    text_rows(c, "tables:", "0");
    csv_free(c);
}

/* "path: message", with " (key)" when the error is at the key. */
static void path_message(const struct diag_item *it, char *buf, size_t len)
{
    char path[256];
    diag_path_format(&it->path, path, sizeof path);
    snprintf(buf, len, "%s%s: %s", path, it->want_key ? " (key)" : "", it->msg);
}

static void test_errors(void **state)
{
    (void)state;
    struct rowfilter f = {NULL, 0};
    struct diag d;
    char buf[512];
    diag_init(&d, NULL);
    assert_false(rowfilter_parse("workload,tables<x,run!R0,:a,run:b", &f, &d, "doc.md", 3, 7));
    assert_int_equal(diag_count(&d), 4);
    diag_format(&d.items[0], buf, sizeof buf);
    assert_string_equal(buf, "doc.md:3:7: where: 'workload' is not key:value, key!=value, key<n, key<=n, key>n or key>=n");
    diag_format(&d.items[1], buf, sizeof buf);
    assert_string_equal(buf, "doc.md:3:7: where: 'tables<x' compares with 'x', which is not a number");
    assert_int_equal(f.n, 1); /* run:b */
    rowfilter_free(&f);
    diag_free(&d);

    json_t *w = json_loads("{\"seed\": [], \"run\": {}, \"tables\": [1, [2]]}", 0, NULL);
    struct diag_path at = diag_path_of(2, "plot", "where");
    diag_init(&d, NULL);
    assert_int_equal(rowfilter_from_json(w, &at, &f, &d), 3);
    assert_int_equal(f.n, 0);
    path_message(&d.items[0], buf, sizeof buf);
    assert_string_equal(buf, "plot.where.seed: an empty list matches no row");
    json_decref(w);
    diag_free(&d);

    /* a key that is not a column: one error per key, at the key */
    struct csv *c = table();
    w = json_loads("{\"seeds\": [1, 2], \"run\": \"MH\"}", 0, NULL);
    diag_init(&d, NULL);
    assert_int_equal(rowfilter_from_json(w, &at, &f, &d), 0);
    size_t n = 9;
    assert_null(rowfilter_select(&f, c, &at, &n, &d));
    assert_int_equal(diag_count(&d), 1);
    path_message(&d.items[0], buf, sizeof buf);
    assert_string_equal(buf, "plot.where.seeds (key): no column 'seeds' in r.csv");
    rowfilter_free(&f);
    json_decref(w);
    diag_free(&d);
    csv_free(c);
}

static void test_levels(void **state)
{
    (void)state;
    struct rowfilter outer = {NULL, 0}, inner = {NULL, 0}, f;
    struct diag d;
    struct sbuf b = SBUF_INIT;
    diag_init(&d, NULL);
    assert_true(rowfilter_parse("run:R0P0,interval:10000,workload:gzip", &outer, &d, "x", 1, 1));
    assert_true(rowfilter_parse("workload:xz,workload:lua,tables>=2", &inner, &d, "x", 1, 1));
    rowfilter_copy(&f, &outer);
    rowfilter_overlay(&f, &inner);
    rowfilter_text(&f, &b);
    assert_string_equal(sbuf_str(&b), "run:R0P0,interval:10000,workload:xz,workload:lua,tables>=2");
    rowfilter_free(&f);
    sbuf_clear(&b);
    rowfilter_copy(&f, &inner);
    rowfilter_inherit(&f, &outer);
    rowfilter_text(&f, &b);
    assert_string_equal(sbuf_str(&b), "workload:xz,workload:lua,tables>=2,run:R0P0,interval:10000");
    assert_true(rowfilter_fixes(&f, "run"));
    assert_false(rowfilter_fixes(&f, "workload")); /* two values */
    assert_false(rowfilter_fixes(&f, "tables"));   /* a range */
    assert_false(rowfilter_fixes(&f, "seed"));
    assert_true(rowfilter_has_key(&f, "interval"));
    rowfilter_free(&f);
    rowfilter_free(&outer);
    rowfilter_free(&inner);
    sbuf_free(&b);
    diag_free(&d);

    char **items;
    size_t n = rowfilter_split("a\\,b,c\\\\,,d", &items);
    assert_int_equal(n, 4);
    assert_string_equal(items[0], "a,b");
    assert_string_equal(items[1], "c\\");
    assert_string_equal(items[2], "");
    assert_string_equal(items[3], "d");
    rowfilter_split_free(items, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_spelling),
        cmocka_unit_test(test_marker_spelling),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
