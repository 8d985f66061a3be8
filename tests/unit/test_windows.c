/* test_windows.c - src/trace/windows.c: a workload's windows from its .windows
 * list (exactly the listed ones, unlisted .w<K>.trace files counted, every
 * malformed line an error naming the list and line), and without a list
 * (the .w<K>.trace files by K, or the lone <workload>.trace). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/windows.h"

static char dir[256];

static void put(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int fresh(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hwprof-test-windows.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int cleanup(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_list_is_the_windows(void **state)
{
    (void)state;
    put("gzip.w0.trace", "");
    put("gzip.w1.trace", "");
    put("gzip.w2.trace", ""); /* a stray copy: not listed */
    put("gzip.w7.trace", "");
    put("gzip.windows", "# gzip (default): SimPoint windows\n# window K slice start weight trace\n"
                        "window 0 4 200000000 0.3076923077 gzip.w0.trace\n"
                        "window 1 9 450000000 0.6923076923 gzip.w1.trace\n");
    struct window_list wl;
    char err[2048];
    assert_int_equal(windows_list(dir, "gzip", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 2);
    char want[512];
    snprintf(want, sizeof want, "%s/gzip.windows", dir);
    assert_string_equal(wl.list, want);
    snprintf(want, sizeof want, "%s/gzip.w1.trace", dir);
    assert_string_equal(wl.w[1].path, want);
    assert_int_equal(wl.w[1].index, 1);
    assert_int_equal(wl.w[1].line, 4);
    assert_string_equal(wl.w[1].weight_text, "0.6923076923");
    assert_true(wl.w[0].weight == 0.3076923077);
    assert_false(wl.w[0].single);
    assert_int_equal(wl.unlisted, 2);
    assert_non_null(strstr(wl.unlisted_path, "/gzip.w"));
    windows_free(&wl);
}

/* A listed window that is missing is still listed (windows_check reports it). */
static void test_listed_missing(void **state)
{
    (void)state;
    put("lua.windows", "window 0 1 2 1 lua.w0.trace\n");
    put("lua.trace", "");
    struct window_list wl;
    char err[2048];
    assert_int_equal(windows_list(dir, "lua", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 1);
    assert_non_null(strstr(wl.w[0].path, "/lua.w0.trace"));
    assert_int_equal(wl.unlisted, 0);
    windows_free(&wl);
}

static void list_error(const char *text, const char *want)
{
    put("x.windows", text);
    struct window_list wl;
    char err[2048], full[2048];
    assert_int_equal(windows_list(dir, "x", &wl, err, sizeof err), -1);
    windows_free(&wl);
    snprintf(full, sizeof full, "%s/x.windows: %s", dir, want);
    assert_string_equal(err, full);
}

static void test_list_errors(void **state)
{
    (void)state;
    list_error("# nothing\n\n", "lists no window");
    list_error("windw 0 1 2 1 x.w0.trace\n", "line 1: expected 'window K slice start weight trace'");
    list_error("# c\nwindow 0 1 2 1\n", "line 2: expected 'window K slice start weight trace'");
    list_error("window 0 1 2 1 x.w0.trace extra\n", "line 1: expected 'window K slice start weight trace'");
    list_error("window 1 1 2 1 x.w1.trace\n",
               "line 1: window 0 expected here (windows are numbered 0, 1, ... in order), not '1'");
    list_error("window 0 1 2 1 x.w0.trace\nwindow 0 1 2 1 x.w0.trace\n",
               "line 2: window 1 expected here (windows are numbered 0, 1, ... in order), not '0'");
    list_error("window 00 1 2 1 x.w0.trace\n",
               "line 1: window 0 expected here (windows are numbered 0, 1, ... in order), not '00'");
    list_error("window 0 1 2 -1 x.w0.trace\n",
               "line 1: expected 'window K slice start weight trace' with whole numbers and a weight >= 0");
    list_error("window 0 1 2 nan x.w0.trace\n",
               "line 1: expected 'window K slice start weight trace' with whole numbers and a weight >= 0");
    list_error("window 0 -1 2 1 x.w0.trace\n",
               "line 1: expected 'window K slice start weight trace' with whole numbers and a weight >= 0");
    list_error("window 0 1 2 1 y.w0.trace\n", "line 1: window 0 of workload 'x' is x.w0.trace, not 'y.w0.trace'");
    list_error("window 0 1 2 1 x.w1.trace\n", "line 1: window 0 of workload 'x' is x.w0.trace, not 'x.w1.trace'");
    list_error("window 0 1 2 1 ../x.w0.trace\n", "line 1: window 0 of workload 'x' is x.w0.trace, not '../x.w0.trace'");
}

static void test_list_crlf_and_blank(void **state)
{
    (void)state;
    put("x.windows", "\r\n  # comment\r\nwindow 0 1 2 0.5 x.w0.trace\r\n\twindow 1 3 6 0.5 x.w1.trace\n");
    struct window_list wl;
    char err[2048];
    assert_int_equal(windows_list(dir, "x", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 2);
    assert_int_equal(wl.w[0].line, 3);
    windows_free(&wl);
}

/* Without a list: the .w<K>.trace files by K (written as the runner's
 * scripts write them), else the lone trace. */
static void test_no_list(void **state)
{
    (void)state;
    put("p.w10.trace", "");
    put("p.w2.trace", "");
    put("p.w0.trace", "");
    put("p.w01.trace", "");   /* not a window name */
    put("p.wx.trace", "");
    put("p.w3.trace.sha256", "");
    put("p.trace", "");        /* the windows win */
    put("pp.w1.trace", "");    /* another workload */
    struct window_list wl;
    char err[2048];
    assert_int_equal(windows_list(dir, "p", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 3);
    assert_int_equal(wl.w[0].index, 0);
    assert_int_equal(wl.w[1].index, 2);
    assert_int_equal(wl.w[2].index, 10);
    assert_string_equal(wl.list, "");
    assert_int_equal(wl.w[2].line, 0);
    windows_free(&wl);

    assert_int_equal(windows_list(dir, "q", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 0); /* nothing: w[0] names the trace to report */
    assert_true(wl.w[0].single);
    assert_non_null(strstr(wl.w[0].path, "/q.trace"));
    windows_free(&wl);

    put("q.trace", "");
    assert_int_equal(windows_list(dir, "q", &wl, err, sizeof err), 0);
    assert_int_equal(wl.n, 1);
    assert_true(wl.w[0].single);
    windows_free(&wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_list_is_the_windows, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_listed_missing, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_list_errors, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_list_crlf_and_blank, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_no_list, fresh, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
