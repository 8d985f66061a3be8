/* test_simpoint_cli.c - unit tests for src/cli/cmd_simpoint.c (`hwprof
 * simpoint`), run in-process with stdout and stderr captured: exit codes
 * 0/1/2, usage and input error messages, --opt=value against --opt value,
 * the table and the JSON object, --output's atomic write, stdin input.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static char tmpdir[64];
static char bbfile[128]; /* three phases, 100 slices */

/* ---- helpers --------------------------------------------------------------- */

static char *slurp_file(FILE *f)
{
    long n;
    fflush(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    return s;
}

/* Run `hwprof simpoint ARGS...` (NULL-terminated); *out and *err get what
 * it printed (malloc'd). */
static int run(char **out, char **err, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"simpoint";
    va_list ap;
    va_start(ap, err);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    assert_non_null(fo);
    assert_non_null(fe);
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    int rc = cmd_simpoint(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    *out = slurp_file(fo);
    *err = slurp_file(fe);
    fclose(fo);
    fclose(fe);
    return rc;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hwprof-test-simpoint-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(bbfile, sizeof bbfile, "%s/three.bb", tmpdir);
    FILE *f = fopen(bbfile, "w");
    if (!f)
        return -1;
    /* runs of 5, 3 and 2 slices of three phases on disjoint blocks, counts
     * varied by a few percent, exp-bbv's spacing */
    for (unsigned i = 0; i < 100; i++) {
        unsigned r = i % 10, phase = r < 5 ? 0 : r < 8 ? 1 : 2;
        fputc('T', f);
        for (unsigned j = 0; j < 40; j++)
            fprintf(f, ":%u:%u   ", phase * 1000 + j + 1, (j % 7 + 1) * 100 + (i * 7 + j * 13) % 11);
        fputc('\n', f);
    }
    fputs("\n\n# Thread 1\n#   Total intervals: 100 (Interval Size 1000)\n", f);
    return fclose(f);
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- usage ----------------------------------------------------------------- */

static void expect_usage_error(const char *want, ...)
{
    char *argv[16];
    int argc = 0;
    va_list ap;
    va_start(ap, want);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
        argv[argc++] = (char *)a;
    va_end(ap);
    while (argc < 8)
        argv[argc++] = NULL;
    char *out, *err;
    int rc = run(&out, &err, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], NULL);
    assert_int_equal(rc, 2);
    assert_string_equal(out, "");
    char full[512];
    /* a "did you mean" takes the place of the pointer to --help */
    if (strstr(want, "(did you mean"))
        snprintf(full, sizeof full, "hwprof simpoint: %s\n", want);
    else
        snprintf(full, sizeof full, "hwprof simpoint: %s (see 'hwprof simpoint --help')\n", want);
    assert_string_equal(err, full);
    free(out);
    free(err);
}

static void test_help(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run(&out, &err, "--help", NULL), 0);
    assert_non_null(strstr(out, "usage: hwprof simpoint FILE.bb --slice N"));
    assert_non_null(strstr(out, "--max-windows W"));
    assert_string_equal(err, "");
    free(out);
    free(err);
    assert_int_equal(run(&out, &err, bbfile, "-h", NULL), 0);
    assert_non_null(strstr(out, "usage:"));
    free(out);
    free(err);
}

static void test_usage_errors(void **state)
{
    (void)state;
    expect_usage_error("no input file", NULL);
    expect_usage_error("--slice N (instructions per slice) is required", bbfile, NULL);
    expect_usage_error("unknown option '--max_k' (did you mean '--max-k'?)", bbfile, "--slice=1", "--max_k=3", NULL);
    expect_usage_error("unknown option '--sliec' (did you mean '--slice'?)", "--sliec", "5", bbfile, NULL);
    expect_usage_error("unknown option '-x'", "-x", bbfile, NULL);
    expect_usage_error("--max-k must be an integer in [1, 1000], got '0'", bbfile, "--slice", "1", "--max-k=0", NULL);
    expect_usage_error("--slice must be an integer in [1, 9223372036854775807], got '-5'", bbfile, "--slice=-5",
                       NULL);
    expect_usage_error("--dim must be an integer in [1, 1000], got '15x'", bbfile, "--slice=1", "--dim", "15x", NULL);
    expect_usage_error("option '--max-k' needs a value", bbfile, "--slice=1", "--max-k", NULL);
    expect_usage_error("option '-o' needs a value", bbfile, "--slice=1", "-o", NULL);
    expect_usage_error("--bic-threshold must be a number in [0, 1], got '1.5'", bbfile, "--slice=1",
                       "--bic-threshold=1.5", NULL);
    expect_usage_error("--init must be kmeans++ or sample, got 'ff'", bbfile, "--slice=1", "--init=ff", NULL);
    expect_usage_error("--labels needs --json", bbfile, "--slice=1", "--labels", NULL);
    expect_usage_error("one input file only (got 'a.bb' and 'b.bb')", "a.bb", "b.bb", "--slice=1", NULL);
}

/* ---- input errors ------------------------------------------------------------ */

static void test_input_errors(void **state)
{
    (void)state;
    char path[160], want[800], *out, *err;
    snprintf(path, sizeof path, "%s/missing.bb", tmpdir);
    assert_int_equal(run(&out, &err, path, "--slice=10", NULL), 1);
    snprintf(want, sizeof want, "hwprof simpoint: %s: cannot open: No such file or directory\n", path);
    assert_string_equal(err, want);
    assert_string_equal(out, "");
    free(out);
    free(err);

    snprintf(path, sizeof path, "%s/bad.bb", tmpdir);
    write_text(path, "T:1:5 :2:5\nT:1:5 :2\nT:0:1\n");
    assert_int_equal(run(&out, &err, path, "--slice=10", NULL), 1);
    snprintf(want, sizeof want,
             "hwprof simpoint: %s:2:9: expected ':' and an instruction count after block id 2, found end of line\n"
             "hwprof simpoint: %s:3:3: block id 0 (ids start at 1)\n",
             path, path);
    assert_string_equal(err, want);
    free(out);
    free(err);

    assert_int_equal(run(&out, &err, bbfile, "--slice=1000", "--skip-slices=100", NULL), 1);
    snprintf(want, sizeof want, "hwprof simpoint: %s: skipping 100 slices leaves none to cluster (there are 100)\n",
             bbfile);
    assert_string_equal(err, want);
    free(out);
    free(err);
}

/* ---- output ------------------------------------------------------------------ */

static void test_table(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run(&out, &err, bbfile, "--slice=1000", NULL), 0);
    assert_string_equal(err, "");
    /* three header lines, the column names, one row per window */
    char *line = out;
    unsigned lines = 0, rows = 0;
    double wsum = 0.0;
    while (*line) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        *nl = '\0';
        if (lines < 3) {
            assert_int_equal(line[0], '#');
        } else if (lines == 3) {
            assert_non_null(strstr(line, "slice"));
            assert_non_null(strstr(line, "weight"));
        } else {
            unsigned long long slice, start, size;
            unsigned cluster;
            double weight;
            assert_int_equal(sscanf(line, "%llu %llu %lf %u %llu", &slice, &start, &weight, &cluster, &size), 5);
            assert_int_equal(start, slice * 1000);
            wsum += weight;
            rows++;
        }
        lines++;
        line = nl + 1;
    }
    assert_int_equal(rows, 3);
    assert_true(fabs(wsum - 1.0) < 1e-9);
    free(out);
    free(err);
}

static void test_option_spellings_agree(void **state)
{
    (void)state;
    char *a, *b, *e1, *e2;
    assert_int_equal(run(&a, &e1, bbfile, "--slice=1000", "--max-k=4", "--seed=9", "--dim=8", "--inits=2",
                         "--init=sample", "--bic-threshold=0.8", "--max-iter=50", "--skip-slices=3",
                         "--max-windows=2", "--json", NULL),
                     0);
    assert_int_equal(run(&b, &e2, "--slice", "1000", "--max-k", "4", "--seed", "9", "--dim", "8", "--inits", "2",
                         "--init", "sample", "--bic-threshold", "0.8", "--max-iter", "50", "--skip-slices", "3",
                         "--max-windows", "2", "--json", bbfile, NULL),
                     0);
    assert_string_equal(a, b);
    json_error_t je;
    json_t *j = json_loads(a, 0, &je);
    assert_non_null(j);
    json_t *o = json_object_get(j, "options");
    assert_int_equal(json_integer_value(json_object_get(o, "max_k")), 4);
    assert_int_equal(json_integer_value(json_object_get(o, "seed")), 9);
    assert_int_equal(json_integer_value(json_object_get(o, "dim")), 8);
    assert_int_equal(json_integer_value(json_object_get(o, "inits")), 2);
    assert_string_equal(json_string_value(json_object_get(o, "init")), "sample");
    assert_true(json_real_value(json_object_get(o, "bic_threshold")) == 0.8);
    assert_int_equal(json_integer_value(json_object_get(o, "max_iter")), 50);
    assert_int_equal(json_integer_value(json_object_get(o, "max_windows")), 2);
    assert_int_equal(json_integer_value(json_object_get(j, "skipped")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "clustered")), 97);
    assert_true(json_array_size(json_object_get(j, "windows")) <= 2);
    json_decref(j);
    free(a);
    free(b);
    free(e1);
    free(e2);
}

static void test_json(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run(&out, &err, bbfile, "--slice", "1000", "--json", "--labels", NULL), 0);
    assert_string_equal(err, "");
    json_error_t je;
    json_t *j = json_loads(out, JSON_REJECT_DUPLICATES, &je);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "file")), bbfile);
    assert_int_equal(json_integer_value(json_object_get(j, "slice_length")), 1000);
    assert_int_equal(json_integer_value(json_object_get(j, "slices")), 100);
    assert_int_equal(json_integer_value(json_object_get(j, "k")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "clusters")), 3);
    assert_true(json_number_value(json_object_get(j, "coverage")) == 1.0);
    json_t *scores = json_object_get(j, "scores");
    assert_int_equal(json_array_size(scores), 10);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(scores, 9), "k")), 10);
    json_t *wins = json_object_get(j, "windows"), *labels = json_object_get(j, "labels");
    assert_int_equal(json_array_size(wins), 3);
    assert_int_equal(json_array_size(labels), 100);
    double weights[3];
    for (size_t i = 0; i < 3; i++) {
        json_t *w = json_array_get(wins, i);
        json_int_t slice = json_integer_value(json_object_get(w, "slice"));
        assert_int_equal(json_integer_value(json_object_get(w, "start")), slice * 1000);
        json_int_t cluster = json_integer_value(json_object_get(w, "cluster"));
        assert_int_equal(json_integer_value(json_array_get(labels, (size_t)slice)), cluster);
        /* the weight is the cluster's share of the 100 slices: 50, 30, 20 */
        weights[(slice % 10) < 5 ? 0 : (slice % 10) < 8 ? 1 : 2] = json_real_value(json_object_get(w, "weight"));
        json_int_t size = json_integer_value(json_object_get(w, "cluster_size"));
        assert_true(json_real_value(json_object_get(w, "weight")) == (double)size / 100.0);
    }
    assert_true(weights[0] == 0.5 && weights[1] == 0.3 && weights[2] == 0.2);
    json_decref(j);
    free(out);
    free(err);
}

static void test_output_file(void **state)
{
    (void)state;
    char path[160], *out, *err, *stdout_text;
    snprintf(path, sizeof path, "%s/out.json", tmpdir);
    assert_int_equal(run(&stdout_text, &err, bbfile, "--slice=1000", "--json", NULL), 0);
    free(err);
    assert_int_equal(run(&out, &err, bbfile, "--slice=1000", "--json", "-o", path, NULL), 0);
    assert_string_equal(out, "");
    free(out);
    free(err);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *file_text = slurp_file(f);
    fclose(f);
    assert_string_equal(file_text, stdout_text);
    free(file_text);
    free(stdout_text);
    /* a failed run leaves no output file, and no temporary file behind */
    char bad[160], out2[160];
    snprintf(bad, sizeof bad, "%s/bad2.bb", tmpdir);
    snprintf(out2, sizeof out2, "%s/out2.txt", tmpdir);
    write_text(bad, "T:1:x\n");
    assert_int_equal(run(&out, &err, bad, "--slice=1000", "--output", out2, NULL), 1);
    free(out);
    free(err);
    struct stat st;
    assert_int_equal(stat(out2, &st), -1);
    DIR *dir = opendir(tmpdir);
    assert_non_null(dir);
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        assert_null(strstr(e->d_name, ".tmp."));
    closedir(dir);
    /* an unwritable destination is an I/O error */
    snprintf(out2, sizeof out2, "%s/no/such/dir/x.json", tmpdir);
    assert_int_equal(run(&out, &err, bbfile, "--slice=1000", "-o", out2, NULL), 1);
    assert_non_null(strstr(err, "cannot create"));
    free(out);
    free(err);
}

static void test_stdin_and_interval_warning(void **state)
{
    (void)state;
    char *a, *b, *e1, *e2;
    /* the file says Interval Size 1000: another --slice is used, with a warning */
    assert_int_equal(run(&a, &e1, bbfile, "--slice=500", NULL), 0);
    char want[300];
    snprintf(want, sizeof want,
             "hwprof simpoint: warning: %s says 'Interval Size 1000' but --slice is 500; window starts use --slice\n",
             bbfile);
    assert_string_equal(e1, want);
    /* "-" reads stdin; the same windows come out */
    fflush(stdin);
    int si = dup(0);
    FILE *in = fopen(bbfile, "r");
    assert_non_null(in);
    dup2(fileno(in), 0);
    int rc = run(&b, &e2, "-", "--slice=1000", "--json", NULL);
    dup2(si, 0);
    close(si);
    fclose(in);
    clearerr(stdin);
    assert_int_equal(rc, 0);
    assert_string_equal(e2, "");
    assert_non_null(strstr(b, "\"file\": \"<stdin>\""));
    free(a);
    free(b);
    free(e1);
    free(e2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_input_errors),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_option_spellings_agree),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_output_file),
        cmocka_unit_test(test_stdin_and_interval_warning),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
