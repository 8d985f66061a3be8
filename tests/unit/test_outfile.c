/* test_outfile.c - src/core/outfile.c: outfile_check_dir, the runner's check
 * before its first job that files can be created where the results go:
 * the part of the path at fault is named, and nothing is left behind. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outfile.h"

static char dir[256];

static int fresh(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hwprof-test-outfile.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int cleanup(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The entries of dir, "" when empty. */
static void entries(char *buf, size_t len)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -A %s | tr '\\n' ' '", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    buf[0] = '\0';
    if (!fgets(buf, (int)len, p))
        buf[0] = '\0';
    pclose(p);
}

static void test_writable(void **state)
{
    (void)state;
    char p[512], err[1024], ls[512];
    assert_int_equal(outfile_check_dir(dir, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/results/paper/fig.parts", dir); /* none of it exists yet */
    assert_int_equal(outfile_check_dir(p, err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/results/", dir);
    assert_int_equal(outfile_check_dir(p, err, sizeof err), 0);
    entries(ls, sizeof ls);
    assert_string_equal(ls, ""); /* nothing created, no probe left */
}

static void test_not_a_directory(void **state)
{
    (void)state;
    char p[512], err[1024], want[1024];
    snprintf(p, sizeof p, "%s/file", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(outfile_check_dir(p, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s/file is not a directory", dir);
    assert_string_equal(err, want);
    snprintf(p, sizeof p, "%s/file/paper/x.parts", dir);
    assert_int_equal(outfile_check_dir(p, err, sizeof err), -1);
    assert_string_equal(err, want);
}

static void test_cannot_create(void **state)
{
    (void)state;
    char err[1024];
    assert_int_equal(outfile_check_dir("/proc/hwprof-test/paper", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create files in /proc: "));
    if (geteuid() != 0) { /* root writes anywhere */
        char p[512], want[600];
        snprintf(p, sizeof p, "%s/ro", dir);
        assert_int_equal(mkdir(p, 0555), 0);
        snprintf(p, sizeof p, "%s/ro/results", dir);
        assert_int_equal(outfile_check_dir(p, err, sizeof err), -1);
        snprintf(want, sizeof want, "cannot create files in %s/ro: Permission denied", dir);
        assert_string_equal(err, want);
    }
}

static void test_relative(void **state)
{
    (void)state;
    char cwd[1024], err[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    FILE *f = fopen("r", "w");
    assert_non_null(f);
    fclose(f);
    int a = outfile_check_dir("results/paper", err, sizeof err);
    int b = outfile_check_dir("r/paper", err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(a, 0);
    assert_int_equal(b, -1);
    assert_string_equal(err, "r is not a directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_writable, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_not_a_directory, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_cannot_create, fresh, cleanup),
        cmocka_unit_test_setup_teardown(test_relative, fresh, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
