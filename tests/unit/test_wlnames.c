/* test_wlnames.c - workload names of the suite (<name>.wl) and of a traces
 * folder (<name>.trace, <name>.w<K>.trace; the config key "traces"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "run/wlnames.h"

static void touch(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static void test_traces_folder(void **state)
{
    (void)state;
    char dir[] = "/tmp/hwprof-test-wlnames-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* two windows of one workload, a lone trace, a capture under way
     * (hidden), a workload definition and a list, which are no traces */
    const char *files[] = { "gzip.w1.trace", "gzip.w0.trace", "mine.trace", ".lua.w0.trace.pending", ".x.trace",
                            "lua.wl", "gzip.windows", "a.w.trace", "v2.w10.trace" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        touch(dir, files[i]);
    /* gzip's list names its two windows (src/trace/windows.h: a list, when there
     * is one, says what the windows are) */
    char p[512];
    snprintf(p, sizeof p, "%s/gzip.windows", dir);
    FILE *lf = fopen(p, "w");
    assert_non_null(lf);
    fputs("# window K slice start weight trace\nwindow 0 4 200 0.5 gzip.w0.trace\nwindow 1 9 450 0.5 gzip.w1.trace\n", lf);
    fclose(lf);
    struct wlnames src = { dir, 1 };
    char names[8][64];
    size_t n = wlnames_list(&src, names, 8);
    assert_int_equal(n, 4);
    assert_string_equal(names[0], "a.w");
    assert_string_equal(names[1], "gzip");
    assert_string_equal(names[2], "mine");
    assert_string_equal(names[3], "v2");
    assert_true(wlnames_known(&src, "gzip"));
    assert_true(wlnames_known(&src, "mine"));
    assert_true(wlnames_known(&src, "v2"));
    assert_false(wlnames_known(&src, "lua"));
    assert_false(wlnames_known(&src, "gzip.w0"));
    assert_false(wlnames_known(&src, "../tmp"));
    char what[256];
    wlnames_what(&src, "x", what, sizeof what);
    assert_non_null(strstr(what, "/x.trace or x.w<K>.trace"));
    /* the same folder read as the suite's: only lua.wl */
    struct wlnames suite = { dir, 0 };
    assert_int_equal(wlnames_list(&suite, names, 8), 1);
    assert_string_equal(names[0], "lua");
    assert_true(wlnames_known(&suite, "lua"));
    assert_false(wlnames_known(&suite, "gzip"));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traces_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
