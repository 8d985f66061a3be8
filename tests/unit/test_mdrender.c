/* test_mdrender.c - src/report/mdrender.c: the exact text of a markdown table
 * (padding by characters, not bytes; right-aligned columns and their
 * separator; escapes; hidden columns; the minimum width of 3). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "report/mdrender.h"

#define S(text) ((char *)(text)) /* md_render does not write its cells */

static void test_render(void **state)
{
    (void)state;
    char *cells[] = {S("workload"), S("run"),  S("calls"), S("x"),
                     S("gzip"),     S("a|b"),  S("34567"), S("hidden"),
                     S("lua"),      S("ü\nv"), S("7"),     NULL};
    bool right[] = {false, false, true, false}, hidden[] = {false, false, false, true};
    struct mdgrid g = {2, 4, cells, right, hidden};
    char *md = md_render(&g);
    assert_string_equal(md, "| workload | run  | calls |\n"
                            "| -------- | ---- | ----: |\n"
                            "| gzip     | a\\|b | 34567 |\n"
                            "| lua      | ü v  |     7 |\n");
    free(md);
    g.hidden = NULL;
    g.nrows = 0;
    char *a[] = {S("a"), S(""), S("b"), S("")};
    g.cells = a;
    md = md_render(&g);
    assert_string_equal(md, "| a   |     |   b |     |\n"
                            "| --- | --- | --: | --- |\n");
    free(md);
    assert_int_equal(md_width("ü|é"), 3);
    char *e = md_escape("x|y\r");
    assert_string_equal(e, "x\\|y ");
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
