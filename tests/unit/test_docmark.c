/* test_docmark.c - the marker parser (src/report/docmark.c, docmark_attrs.c,
 * docmark_table.c): where it finds markers (and where it must not: code
 * blocks, inline code), the attributes it reads, defaults, and every
 * marker error at its file:line:column. */
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

#include "report/docmark.h"

static struct doc *parse(const char *text, struct diag *d)
{
    diag_init(d, NULL);
    return docmark_parse(text, strlen(text), "doc.md", d);
}

/* The errors of text, one per line. */
static char *errors_of(const char *text)
{
    struct diag d;
    struct doc *doc = parse(text, &d);
    if (doc)
        fail_msg("parsed without error: %s", text);
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    diag_print(&d, f, NULL);
    fclose(f);
    diag_free(&d);
    return all;
}

static void expect_error(const char *text, const char *want)
{
    char *e = errors_of(text);
    if (!strstr(e, want))
        fail_msg("errors of\n%s\nare\n%s\nwithout\n%s", text, e, want);
    free(e);
}

static void test_values(void **state)
{
    (void)state;
    const char *text = "# T\n"
                       "cc1: <!-- value src=r.csv where=workload:cc1,run:R1P1 col=error_pct fmt=%.1f -->14.0<!-- /value -->%\n"
                       "lua: <!-- value src=r.csv where=\"run:MH C1R0,tables>=2,tables<8,seed!=3\" col=x agg=mean ci -->\n";
    struct diag d;
    assert_null(parse(text, &d)); /* ci with agg=mean; the second marker is not closed */
    diag_free(&d);

    text = "# T\n"
           "cc1: <!-- value src=r.csv where=workload:cc1,run:R1P1 col=error_pct fmt=%.1f -->14.0<!-- /value -->%\n"
           "x <!-- value src=\"a b.csv\" where=\"run:MH C1R0,tables>=2,tables<8,seed!=3,label:a\\,b\" col=x agg=list sep=\" / \"\n"
           " -->1 / 2<!-- /value --> y <!-- value src=r.csv col=w agg=argmin by=x --><!-- /value -->\n";
    struct doc *doc = parse(text, &d);
    if (!doc) {
        char buf[512];
        fail_msg("%s", diag_first(&d, buf, sizeof buf));
    }
    assert_int_equal(doc->nvalues, 3);
    assert_int_equal(doc->ntables, 0);
    const struct doc_value *v = &doc->values[0];
    assert_int_equal(v->pos.line, 2);
    assert_int_equal(v->pos.column, 6);
    assert_string_equal(v->q.src, "r.csv");
    assert_string_equal(v->q.col, "error_pct");
    assert_int_equal(v->q.where.n, 2);
    assert_string_equal(v->q.where.cond[0].key, "workload");
    assert_string_equal(v->q.where.cond[0].value, "cc1");
    assert_int_equal(v->q.where.cond[1].op, FILTER_EQ);
    assert_true(v->q.has_fmt);
    assert_int_equal(v->q.fmt.precision, 1);
    assert_int_equal(v->text_end - v->text_start, 4);
    assert_memory_equal(text + v->text_start, "14.0", 4);
    assert_int_equal(v->q.agg, DOC_AGG_UNSET);

    v = &doc->values[1];
    assert_int_equal(v->pos.line, 3);
    assert_string_equal(v->q.src, "a b.csv");
    assert_int_equal(v->q.where.n, 5);
    assert_string_equal(v->q.where.cond[0].value, "MH C1R0");
    assert_int_equal(v->q.where.cond[1].op, FILTER_GE);
    assert_string_equal(v->q.where.cond[1].key, "tables");
    assert_int_equal(v->q.where.cond[2].op, FILTER_LT);
    assert_int_equal(v->q.where.cond[3].op, FILTER_NE);
    assert_string_equal(v->q.where.cond[4].value, "a,b");
    assert_int_equal(v->q.agg, DOC_AGG_LIST);
    assert_string_equal(v->q.sep, " / ");
    assert_memory_equal(text + v->text_start, "1 / 2", 5);

    v = &doc->values[2];
    assert_int_equal(v->q.agg, DOC_AGG_ARGMIN);
    assert_string_equal(v->q.by, "x");
    assert_int_equal(v->text_end, v->text_start);
    docmark_free(doc);
    diag_free(&d);
}

static void test_not_markers(void **state)
{
    (void)state;
    const char *text = "```\n"
                       "<!-- value src=a col=b -->\n"
                       "```\n"
                       "~~~~md\n"
                       "<!-- table src=a\n"
                       "```\n"           /* not the closing fence: other character */
                       "~~~~\n"
                       "Inline `<!-- value src=a col=b -->` and ``<!-- /table -->``.\n"
                       "<!-- an ordinary comment -->\n"
                       "<!-- tables are hand-made here -->\n"
                       "<!-- TODO value x -->\n"
                       "end <!-- value src=r.csv col=c -->1<!-- /value -->\n";
    struct diag d;
    struct doc *doc = parse(text, &d);
    if (!doc) {
        char buf[512];
        fail_msg("%s", diag_first(&d, buf, sizeof buf));
    }
    assert_int_equal(doc->nvalues, 1);
    assert_int_equal(doc->values[0].pos.line, 12);
    docmark_free(doc);
    diag_free(&d);
}

static void test_defaults(void **state)
{
    (void)state;
    const char *text = "<!-- defaults src=r.csv where=run:R0P0,interval:10000 col=error_pct fmt=%.2f -->\n"
                       "a <!-- value where=workload:gzip -->1<!-- /value -->\n"
                       "b <!-- value where=workload:xz,run:R1P1 col=fp_pct fmt=%.3f -->1<!-- /value -->\n"
                       "<!-- defaults -->\n"
                       "c <!-- value src=s.csv col=y -->1<!-- /value -->\n";
    struct diag d;
    struct doc *doc = parse(text, &d);
    assert_non_null(doc);
    assert_int_equal(doc->nvalues, 3);
    const struct doc_query *q = &doc->values[0].q;
    assert_string_equal(q->src, "r.csv");
    assert_string_equal(q->col, "error_pct");
    assert_int_equal(q->where.n, 3);
    assert_string_equal(q->where.cond[0].key, "workload");
    assert_string_equal(q->where.cond[1].value, "R0P0");
    assert_int_equal(q->fmt.precision, 2);
    q = &doc->values[1].q;
    assert_int_equal(q->where.n, 3); /* run replaced, interval added */
    assert_string_equal(q->where.cond[1].value, "R1P1");
    assert_string_equal(q->where.cond[2].key, "interval");
    assert_string_equal(q->col, "fp_pct");
    assert_int_equal(q->fmt.precision, 3);
    q = &doc->values[2].q;
    assert_int_equal(q->where.n, 0);
    assert_false(q->has_fmt);
    docmark_free(doc);
    diag_free(&d);
}

static void test_tables(void **state)
{
    (void)state;
    const char *text = "Before.\n"
                       "<!-- table src=r.csv cols=workload,run,error_pct fmt=error_pct:%.1f where=run:R0P0 ci -->\n"
                       "| old |\n"
                       "<!-- /table -->\n"
                       "<!-- table id=t7 src=r.csv col=error_pct fmt=%.2f best=min\n"
                       "  where=interval:10000\n"
                       "rows workload:gzip,bzip2\n"
                       "row \"**mean**\" agg=mean best=none name=mean\n"
                       "column \"R0P0\" where=run:R0P0\n"
                       "column \"1M\" src=s.csv where=run:R0P0\n"
                       "   group=1m fmt=%.1f\n"
                       "column \"ratio\" expr=$2/$1 fmt=%.3r\n"
                       "-->\n"
                       "<!-- /table -->\n";
    struct diag d;
    struct doc *doc = parse(text, &d);
    if (!doc) {
        char buf[512];
        fail_msg("%s", diag_first(&d, buf, sizeof buf));
    }
    assert_int_equal(doc->ntables, 2);
    const struct doc_table *t = &doc->tables[0];
    assert_int_equal(t->pos.line, 2);
    assert_int_equal(t->ncols, 3);
    assert_string_equal(t->cols[2].name, "error_pct");
    assert_true(t->cols[2].has_fmt);
    assert_false(t->cols[0].has_fmt);
    assert_true(t->q.ci);
    assert_int_equal(t->content_line, 3);
    assert_int_equal(t->content_end - t->content_start, strlen("| old |\n"));

    t = &doc->tables[1];
    assert_string_equal(t->id, "t7");
    assert_string_equal(t->head, "workload");
    assert_int_equal(t->best, DOC_BEST_MIN);
    assert_int_equal(t->q.where.n, 1);
    assert_int_equal(t->nrows, 3);
    assert_string_equal(t->rows[0].label, "gzip");
    assert_int_equal(t->rows[0].q.where.n, 1);
    assert_string_equal(t->rows[1].q.where.cond[0].value, "bzip2");
    assert_string_equal(t->rows[2].label, "**mean**");
    assert_string_equal(t->rows[2].name, "mean");
    assert_int_equal(t->rows[2].q.agg, DOC_AGG_MEAN);
    assert_int_equal(t->rows[2].best, DOC_BEST_NONE);
    assert_int_equal(t->ncolumns, 3);
    assert_string_equal(t->columns[1].header, "1M");
    assert_string_equal(t->columns[1].group, "1m");
    assert_string_equal(t->columns[1].q.src, "s.csv");
    assert_int_equal(t->columns[1].q.fmt.precision, 1);
    assert_int_equal(t->columns[1].pos.line, 10);
    assert_true(t->columns[2].has_expr);
    assert_int_equal(t->columns[2].expr.a_col, 2);
    assert_int_equal(t->columns[2].expr.b_col, 1);
    assert_int_equal(t->columns[2].expr.op, '/');
    assert_int_equal(t->content_start, t->content_end);
    docmark_free(doc);
    diag_free(&d);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("a <!-- value src=r.csv col=x -->1\n", "doc.md:1:3: value marker not closed");
    expect_error("a <!-- value src=r.csv col=x -->1 <!-- value src=r.csv col=y -->2<!-- /value -->",
                 "doc.md:1:3: value marker not closed by '<!-- /value -->' before the next marker");
    expect_error("x\n<!-- /value -->", "doc.md:2:1: '<!-- /value -->' without a value marker");
    expect_error("<!-- /table -->", "doc.md:1:1: '<!-- /table -->' without a table marker");
    expect_error("<!-- vlaue src=r.csv col=x -->1<!-- /value -->", "doc.md:1:1: unknown marker 'vlaue' (did you mean 'value'?)");
    expect_error("<!-- value src=r.csv col=x", "not closed: no '-->'");
    expect_error("a <!-- value src=r.csv col=x--y -->1<!-- /value -->", "doc.md:1:29: '--' inside a marker");
    expect_error("<!-- value src=r.csv colum=x -->1<!-- /value -->",
                 "doc.md:1:22: unknown attribute 'colum' in a value marker (did you mean 'col'?)");
    expect_error("<!-- value src=r.csv col=x col=y -->1<!-- /value -->", "doc.md:1:28: 'col' given twice");
    expect_error("<!-- value src=r.csv col=x ci=1 -->1<!-- /value -->", "'ci' is a flag");
    expect_error("<!-- value src=r.csv col=x fmt=%s -->1<!-- /value -->", "fmt '%s': the conversion must be");
    expect_error("<!-- value src=r.csv col=x agg=avg -->1<!-- /value -->", "agg: 'avg' is not one of");
    expect_error("<!-- value src=r.csv col=x agg=argmin -->1<!-- /value -->", "agg=argmin needs by=");
    expect_error("<!-- value src=r.csv col=x by=y -->1<!-- /value -->", "'by' goes with agg=argmin");
    expect_error("<!-- value src=r.csv col=x where=a>b -->1<!-- /value -->", "compares with 'b', which is not a number");
    expect_error("<!-- value src=r.csv col=x where=justakey -->1<!-- /value -->", "where: 'justakey' is not key:value");
    expect_error("<!-- value src=r.csv col=x where=\"a:b -->1<!-- /value -->", "quoted text not closed");
    expect_error("<!-- value src=r.csv -->1<!-- /value -->", "needs src= and col=");
    expect_error("<!-- value src=r.csv col=x where=t:1|2 -->1<!-- /value -->", "'|' inside a value marker");
    expect_error("<!-- value src=r.csv col=x \"label\" -->1<!-- /value -->", "unexpected quoted text");
    expect_error("<!-- value src=r.csv col=x sep=/ -->1<!-- /value -->", "'sep' goes with agg=range or agg=list");
    expect_error("<!-- value src=r.csv col=x a\"b -->1<!-- /value -->", "a quote inside a word");
    /* tables */
    expect_error("<!-- table src=r.csv cols=a --> x\n<!-- /table -->", "doc.md:1:33: text after a table marker");
    expect_error("<!-- table src=r.csv cols=a -->\n| a |\n<!-- /table --> x", "doc.md:3:17: text after '<!-- /table -->'");
    expect_error("<!-- table src=r.csv cols=a -->\n| a | <!-- /table -->", "doc.md:2:7: '<!-- /table -->' must start its own line");
    expect_error("<!-- table src=r.csv cols=a -->\n", "doc.md:1:1: table marker not closed");
    expect_error("<!-- table src=r.csv cols=a -->\n<!-- value src=r.csv col=x -->1<!-- /value -->\n<!-- /table -->",
                 "table marker not closed by '<!-- /table -->' before the next marker");
    expect_error("<!-- table src=r.csv\ncolumn \"a\" col=x\n-->\n<!-- /table -->", "a table needs cols=..., or rows/row lines");
    expect_error("<!-- table src=r.csv col=x\nrows gzip,bzip2\ncolumn \"a\"\n-->\n<!-- /table -->",
                 "doc.md:2:1: rows needs key:value,value,...");
    expect_error("<!-- table src=r.csv col=x\nrows workload:gzip where=workload:xz\ncolumn \"a\"\n-->\n<!-- /table -->",
                 "rows sets 'workload'; where may not set it too");
    expect_error("<!-- table src=r.csv col=x\nrow gzip\ncolumn \"a\"\n-->\n<!-- /table -->",
                 "doc.md:2:1: row needs its label in quotes first");
    expect_error("<!-- table src=r.csv col=x\nrow \"a\"\ncolumn \"b\" expr=$1/$3\n-->\n<!-- /table -->",
                 "doc.md:3:1: expr: $1 is not another column");
    expect_error("<!-- table src=r.csv col=x\nrow \"a\"\ncolumn \"b\"\ncolumn \"c\" expr=$1^2\n-->\n<!-- /table -->",
                 "expr '$1^2': write $A/$B");
    expect_error("<!-- table src=r.csv col=x\nrow \"a\"\ncolumn \"b\" expr=$1/2 src=s.csv\n-->\n<!-- /table -->",
                 "an expr column computes from other columns");
    expect_error("<!-- table src=r.csv col=x\nrow \"a\" bset=min\ncolumn \"b\"\n-->\n<!-- /table -->",
                 "doc.md:2:9: unknown attribute 'bset' in a row marker (did you mean 'best'?)");
    expect_error("<!-- table src=r.csv col=x best=none\nrow \"a\"\ncolumn \"b\"\n-->\n<!-- /table -->", "best: min or max");
    expect_error("<!-- table src=r.csv cols=a,b fmt=c:%.1f -->\n<!-- /table -->", "fmt names column 'c', which is not in cols");
    expect_error("<!-- table src=r.csv cols=a col=b -->\n<!-- /table -->", "a table with cols= takes src, where");
    expect_error("<!-- table src=r.csv cols=a\nrow \"x\"\n-->\n<!-- /table -->", "a table with cols= lists CSV rows");
    expect_error("<!-- table id=a src=r.csv cols=a -->\n<!-- /table -->\n<!-- table id=a src=r.csv cols=a -->\n<!-- /table -->",
                 "doc.md:3:1: table id 'a' already used at line 1");
    /* every error is reported, not only the first */
    char *e = errors_of("<!-- value src=r.csv colum=x -->1<!-- /value -->\n<!-- value src=r.csv col=x agg=x -->1<!-- /value -->\n");
    assert_non_null(strstr(e, "doc.md:1:"));
    assert_non_null(strstr(e, "doc.md:2:"));
    free(e);
    /* columns count characters, not bytes */
    expect_error("é <!-- value src=r.csv -->1<!-- /value -->", "doc.md:1:3:");
    /* a value's text never opens a code span or block: the next marker is
     * still one after a fill wrote a backtick or a fence there */
    struct diag d;
    struct doc *doc = parse("a <!-- value src=r.csv col=x -->1`2<!-- /value --> <!-- value src=r.csv col=y -->1<!-- /value -->\n"
                            "<!-- value src=r.csv col=x -->1\n```\n2<!-- /value --> <!-- value src=r.csv col=y -->1<!-- /value -->\n",
                            &d);
    assert_non_null(doc);
    assert_int_equal(doc->nvalues, 4);
    docmark_free(doc);
    diag_free(&d);
    /* one mistake, one message: the closing marker of a marker already
     * reported is not reported again */
    e = errors_of("a <!-- value src=r.csv col=x 1<!-- /value -->.\n");
    assert_string_equal(e, "doc.md:1:3: 'value' marker not closed: no '-->' before the next '<!--' (line 1:31)\n");
    free(e);
    e = errors_of("<!-- vlaue src=r.csv col=x -->1<!-- /value -->\n<!-- tabel src=r.csv cols=x -->\n<!-- /table -->\n");
    assert_string_equal(e, "doc.md:1:1: unknown marker 'vlaue' (did you mean 'value'?)\n"
                           "doc.md:2:1: unknown marker 'tabel' (did you mean 'table'?)\n");
    free(e);
    e = errors_of("a <!-- value src=r.csv col=x--y -->1<!-- /value -->\n<!-- /value -->\n");
    assert_string_equal(e, "doc.md:1:29: '--' inside a marker: markdown would show the marker as text\n"
                           "doc.md:2:1: '<!-- /value -->' without a value marker before it\n");
    free(e);
}

/* minus= and match= (paired differences, docfill.md) and their errors. */
static void test_minus(void **state)
{
    (void)state;
    const char *text = "<!-- value src=w.csv where=run:A minus=run:B,tables:2 match=interval,seed col=e agg=mean ci -->"
                       "?<!-- /value -->\n";
    struct diag d;
    struct doc *doc = parse(text, &d);
    assert_non_null(doc);
    const struct doc_query *q = &doc->values[0].q;
    assert_true(q->paired);
    assert_int_equal(q->minus.n, 2);
    assert_string_equal(q->minus.cond[1].key, "tables");
    assert_int_equal(q->nmatch, 2);
    assert_string_equal(q->match[1], "seed");
    struct doc_query copy;
    docmark_query_copy(&copy, q);
    assert_int_equal(copy.minus.n, 2);
    assert_string_equal(copy.match[0], "interval");
    docmark_query_free(&copy);
    docmark_free(doc);
    diag_free(&d);
    expect_error("<!-- value src=w.csv where=run:A match=k col=e -->?<!-- /value -->",
                 "doc.md:1:1: 'match' goes with minus= (the columns paired rows share)");
    expect_error("<!-- value src=w.csv where=run:A minus=run:B col=e agg=count -->?<!-- /value -->",
                 "doc.md:1:1: minus= gives one paired difference per workload: agg=one, mean, min, max, range or list, "
                 "not agg=count");
    expect_error("<!-- value src=w.csv minus=run col=e -->?<!-- /value -->",
                 "doc.md:1:22: where: 'run' is not key:value");
    expect_error("<!-- defaults src=w.csv minus=run:B -->", "doc.md:1:25: unknown attribute 'minus' in a defaults marker");
}

/* A query outside a document (a claim's): src, where, col only, errors at
 * the position the text starts at. */
static void test_query(void **state)
{
    (void)state;
    struct diag d;
    struct doc_query q;
    diag_init(&d, NULL);
    assert_true(docmark_parse_query("src=r.csv where=run:A,tables>=2 col=e", "c.json", (struct doc_pos){4, 17}, &q, &d));
    assert_string_equal(q.src, "r.csv");
    assert_string_equal(q.col, "e");
    assert_int_equal(q.where.n, 2);
    docmark_query_free(&q);
    assert_false(docmark_parse_query("src=r.csv col=e agg=mean", "c.json", (struct doc_pos){4, 17}, &q, &d));
    docmark_query_free(&q);
    assert_false(docmark_parse_query("src=r.csv wher=run:A", "c.json", (struct doc_pos){4, 17}, &q, &d));
    docmark_query_free(&q);
    assert_false(docmark_parse_query("src=r.csv\nwhere=run:A", "c.json", (struct doc_pos){4, 17}, &q, &d));
    docmark_query_free(&q);
    assert_false(docmark_parse_query("src=r.csv\n  wher=run:A col=e", "c.json", (struct doc_pos){4, 17}, &q, &d));
    docmark_query_free(&q);
    char buf[512];
    assert_int_equal(d.n, 4);
    diag_format(&d.items[0], buf, sizeof buf);
    assert_string_equal(buf, "c.json:4:33: unknown attribute 'agg' in a query");
    diag_format(&d.items[1], buf, sizeof buf);
    assert_string_equal(buf, "c.json:4:27: unknown attribute 'wher' in a query (did you mean 'where'?)");
    diag_format(&d.items[2], buf, sizeof buf);
    assert_string_equal(buf, "c.json:4:17: a query names its CSV and column: src=... col=... (where=... optional); no col=");
    diag_format(&d.items[3], buf, sizeof buf); /* a second line counts from its own start */
    assert_string_equal(buf, "c.json:5:3: unknown attribute 'wher' in a query (did you mean 'where'?)");
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),   cmocka_unit_test(test_not_markers),
        cmocka_unit_test(test_defaults), cmocka_unit_test(test_tables), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_minus),    cmocka_unit_test(test_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
