/* test_plot_cli.c - `hwprof plot` and `hwprof table` end to end, with the
 * real gnuplot (a required dependency: a missing gnuplot fails the test)
 * and the templates of plots/templates: every plot type draws SVG, PNG and
 * PDF without a word on stderr; the preamble and data are the same on a
 * second run; errors leave no output; hand-written scripts get the
 * documented variables; options and exit statuses. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static char tmpdir[256], templates[1024];

static void write_text(const char *rel, const char *text)
{
    char path[512], dir[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    strcpy(dir, path);
    for (char *p = dir + strlen(tmpdir) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0777);
            *p = '/';
        }
    }
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static long file_size(const char *rel)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static char *slurp(const char *rel)
{
    char path[512];
    FILE *f;
    char *buf;
    long n = file_size(rel);
    if (n < 0)
        return NULL;
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    f = fopen(path, "rb");
    assert_non_null(f);
    buf = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return buf;
}

/* Run fn(argv...) with stderr captured into *err (caller frees). */
static int run_capture(int (*fn)(int, char **), char **argv, char **err)
{
    char path[512];
    int argc = 0, saved, fd, rc;
    snprintf(path, sizeof path, "%s/stderr.txt", tmpdir);
    while (argv[argc])
        argc++;
    int saved_out, null_fd;
    fflush(stdout);
    fflush(stderr);
    saved = dup(2);
    saved_out = dup(1);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    null_fd = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && saved_out >= 0 && fd >= 0 && null_fd >= 0);
    dup2(fd, 2);
    dup2(null_fd, 1); /* usage texts */
    close(fd);
    close(null_fd);
    rc = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved, 2);
    dup2(saved_out, 1);
    close(saved);
    close(saved_out);
    *err = slurp("stderr.txt");
    return rc;
}

/* hwprof plot configs/t/<stem>.json with every folder in tmpdir; the
 * captured stderr must be empty on success. */
static int plot(const char *stem, char **err)
{
    char config[512], results[512], plots[512], build[512];
    char cmd[] = "plot", o_t[] = "--templates";
    char *argv[] = {cmd, config, results, plots, build, o_t, templates, NULL};
    snprintf(config, sizeof config, "%s/configs/t/%s.json", tmpdir, stem);
    snprintf(results, sizeof results, "--results=%s/results", tmpdir);
    snprintf(plots, sizeof plots, "--plots=%s/plots", tmpdir);
    snprintf(build, sizeof build, "--build=%s/build", tmpdir);
    return run_capture(cmd_plot, argv, err);
}

static void plot_ok(const char *stem)
{
    char *err = NULL, rel[256];
    int rc = plot(stem, &err);
    if (rc != 0 || (err && err[0]))
        fail_msg("hwprof plot %s: exit %d, stderr:\n%s", stem, rc, err ? err : "");
    free(err);
    static const char *const ext[] = {".svg", ".png", ".pdf"};
    static const char *const magic[] = {"<?xml", "\x89PNG", "%PDF"};
    for (int i = 0; i < 3; i++) {
        snprintf(rel, sizeof rel, "plots/t/%s%s", stem, ext[i]);
        char *b = slurp(rel);
        if (!b)
            fail_msg("no %s", rel);
        assert_memory_equal(b, magic[i], strlen(magic[i]));
        free(b);
    }
}

static void plot_fails(const char *stem, const char *want_in_stderr)
{
    char *err = NULL, rel[256];
    assert_int_equal(plot(stem, &err), 1);
    if (!err || !strstr(err, want_in_stderr))
        fail_msg("stderr of %s lacks [%s]:\n%s", stem, want_in_stderr, err ? err : "");
    free(err);
    snprintf(rel, sizeof rel, "plots/t/%s.png", stem);
    assert_int_equal(file_size(rel), -1);
    snprintf(rel, sizeof rel, "plots/t/%s.svg", stem);
    assert_int_equal(file_size(rel), -1);
}

static int setup(void **state)
{
    char cwd[512];
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hwprof-test-plot-XXXXXX");
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(tmpdir))
        return -1;
    /* the unit tests run from the repository root */
    snprintf(templates, sizeof templates, "%s/plots/templates", cwd);
    return access(templates, R_OK) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *sweep_csv = "workload,run,model,tables,error_pct,fp_pct,fn_pct,overhead\n"
                               "gzip,BSH,sh,,8,5,3,1.5\n"
                               "gzip,MH,mh,1,4,3,1,2\n"
                               "gzip,MH,mh,4,0,0,0,3.5\n"
                               "xz,BSH,sh,,6,4,2,1.2\n"
                               "xz,MH,mh,1,3,2,1,2.2\n"
                               "xz,MH,mh,4,1,0.5,0.5,3\n";

/* Every type draws, quietly. */
static void test_every_type(void **state)
{
    (void)state;
    write_text("results/t/lines.csv", sweep_csv);
    write_text("configs/t/lines.json",
               "{\"paper\": \"t\", \"caption\": \"Tiny: error vs tables\",\n"
               " \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\", \"group\": [\"workload\"],"
               " \"where\": {\"run\": \"MH\"}, \"logx\": true, \"logy\": true, \"labels\": {\"error_pct\": \"error (%)\"}}}\n");
    plot_ok("lines");
    char *svg = slurp("plots/t/lines.svg");
    assert_non_null(strstr(svg, "Tiny: error vs tables"));
    assert_non_null(strstr(svg, "error (%)"));
    free(svg);
    /* the zero at the floor of the log axis is said in the key */
    char *pre = slurp("build/plots/t/lines.gp");
    assert_non_null(pre);
    assert_non_null(strstr(pre, "kind = \"lines\"\n"));
    assert_non_null(strstr(pre, "note = \"0: values of 0, drawn at\\nthe floor of the log axis\"\n"));
    free(pre);
    assert_true(file_size("build/plots/t/lines.dat") > 0);
    assert_true(file_size("build/plots/t/lines.table.dat") > 0);

    write_text("results/t/bars.csv", sweep_csv);
    write_text("configs/t/bars.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"bars\", \"x\": \"workload\", \"y\": [\"fp_pct\", \"fn_pct\"],"
               " \"group\": [\"run\", \"tables\"], \"aggregate\": \"mean\"}}\n");
    plot_ok("bars");
    write_text("results/t/stacked.csv", sweep_csv);
    write_text("configs/t/stacked.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"stacked\", \"x\": \"run\", \"y\": [\"fp_pct\", \"fn_pct\"],"
               " \"group\": [\"tables\"], \"panels\": \"workload\", \"shared_y\": true, \"total\": \"error_pct\"}}\n");
    plot_ok("stacked");
    write_text("results/t/scatter.csv", sweep_csv);
    write_text("configs/t/scatter.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"scatter\", \"x\": \"overhead\", \"y\": \"error_pct\","
               " \"label\": \"workload\", \"group\": [\"run\", \"tables\"], \"aggregate\": \"mean\"}}\n");
    plot_ok("scatter");
    write_text("results/t/cdf.csv", sweep_csv);
    write_text("configs/t/cdf.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"cdf\", \"x\": \"error_pct\", \"group\": [\"workload\"]}}\n");
    plot_ok("cdf");
    write_text("results/t/time.series.csv", "workload,run,index,nodes,merge\n"
                                            "gcc,rap,0,4,0\ngcc,rap,1,9,0\ngcc,rap,2,5,1\ngcc,rap,3,8,0\n");
    write_text("configs/t/time.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"timeseries\", \"source\": \"series\", \"x\": \"index\","
               " \"y\": \"nodes\", \"marker\": \"merge\"}}\n");
    plot_ok("time");
    write_text("results/t/heat.hot_ranges.csv", "workload,code_lo,code_hi,data_lo,data_hi,count\n"
                                                "gcc,0x400000,0x500000,0x1000,0x9000,10\n"
                                                "gcc,0x440000,0x460000,0x2000,0x3000,900\n");
    write_text("configs/t/heat.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"heatmap\", \"source\": \"hot_ranges\", \"x\": \"code_lo\","
               " \"x_end\": \"code_hi\", \"y\": \"data_lo\", \"y_end\": \"data_hi\", \"z\": \"count\", \"logz\": true}}\n");
    plot_ok("heat");
    /* A CSV without rows draws an empty figure that says so, and warns. */
    write_text("results/t/empty.csv", "workload,tables,error_pct\n");
    write_text("configs/t/empty.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error_pct\"}}\n");
    char *err = NULL;
    assert_int_equal(plot("empty", &err), 0);
    assert_non_null(strstr(err, "warning: no value to plot in "));
    free(err);
    assert_true(file_size("plots/t/empty.pdf") > 0);
    svg = slurp("plots/t/empty.svg");
    assert_non_null(strstr(svg, "no data"));
    free(svg);
}

/* Same inputs, same preamble and data, byte for byte. */
static void test_deterministic(void **state)
{
    (void)state;
    write_text("results/t/det.csv", sweep_csv);
    write_text("configs/t/det.json",
               "{\"paper\": \"t\", \"plot\": {\"type\": \"stacked\", \"x\": \"workload\", \"y\": [\"fp_pct\", \"fn_pct\"],"
               " \"group\": [\"run\", \"tables\"], \"aggregate\": \"mean\"}}\n");
    plot_ok("det");
    char *p1 = slurp("build/plots/t/det.gp"), *d1 = slurp("build/plots/t/det.dat"), *s1 = slurp("plots/t/det.svg");
    plot_ok("det");
    char *p2 = slurp("build/plots/t/det.gp"), *d2 = slurp("build/plots/t/det.dat"), *s2 = slurp("plots/t/det.svg");
    assert_string_equal(p1, p2);
    assert_string_equal(d1, d2);
    assert_string_equal(s1, s2);
    /* the PDF too (cairo's creation date is pinned) */
    long n1 = file_size("plots/t/det.pdf");
    char *f1 = slurp("plots/t/det.pdf");
    plot_ok("det");
    char *f2 = slurp("plots/t/det.pdf");
    assert_int_equal(file_size("plots/t/det.pdf"), n1);
    assert_memory_equal(f1, f2, (size_t)n1);
    free(f1);
    free(f2);
    free(p1);
    free(p2);
    free(d1);
    free(d2);
    free(s1);
    free(s2);
}

static void test_errors(void **state)
{
    (void)state;
    write_text("results/t/bad.csv", "tables,error\n1,2\n2,3\n");
    write_text("configs/t/bad.json", "{\"paper\": \"t\",\n \"plot\": {\"type\": \"lines\", \"x\": \"tables\", "
                                     "\"y\": [\"error\", \"foo\"]}}\n");
    plot_fails("bad", "configs/t/bad.json:2:58: no column 'foo' in ");
    write_text("results/t/bad2.csv", "tables,error\n1,2\n2,3\n");
    write_text("configs/t/bad2.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\", \"x\": \"tables\", "
                                      "\"y\": [\"error\"], \"colour\": 1}}\n");
    plot_fails("bad2", "bad2.json:1:73: unknown key 'colour' in 'plot'");
    write_text("results/t/dup.csv", "tables,error\n1,2\n1,3\n");
    write_text("configs/t/dup.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error\"}}\n");
    plot_fails("dup", "results/t/dup.csv:3:1: this row and line 2 fall on one point");
    write_text("configs/t/none.json", "{\"paper\": \"t\"}\n");
    plot_fails("none", "none.json: no \"plot\" section and no plots/t/none.gp: nothing to draw");
    write_text("configs/t/nocsv.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\", \"x\": \"a\", \"y\": \"b\"}}\n");
    plot_fails("nocsv", "no data to plot for");
    write_text("configs/t/syntax.json", "{\"paper\": \"t\",\n  \"plot\": }\n");
    plot_fails("syntax", "syntax.json:2:11: ");

    /* A failing hand-written script replaces nothing: the old figure stays. */
    write_text("results/t/keep.csv", "tables,error\n1,2\n2,3\n");
    write_text("configs/t/keep.json", "{\"paper\": \"t\", \"plot\": {\"type\": \"lines\", \"x\": \"tables\", \"y\": \"error\"}}\n");
    plot_ok("keep");
    long before = file_size("plots/t/keep.png");
    write_text("plots/t/keep.gp", "plot data using 1:2 with nosuchstyle\n");
    char *err = NULL;
    assert_int_equal(plot("keep", &err), 1);
    assert_non_null(strstr(err, "gnuplot failed"));
    free(err);
    assert_int_equal(file_size("plots/t/keep.png"), before);
    unlink(strcat(strcpy((char[512]){0}, tmpdir), "/plots/t/keep.gp"));
}

static void test_custom_script(void **state)
{
    (void)state;
    write_text("configs/t/cust.json",
               "{\"paper\": \"t\", \"caption\": \"custom\", \"plot\": {\"type\": \"lines\","
               " \"x\": \"tables\", \"y\": [\"error\"], \"where\": {\"workload\": \"xz\"}}}\n");
    write_text("results/t/cust.csv", "workload,tables,error,note\n"
                                     "gzip,1,10,\nxz,1,12,a b\nxz,2,7,\n");
    /* the preamble's variables; the terminal and output are preset */
    write_text("plots/t/cust.gp",
               "if (fmt ne 'svg' && fmt ne 'pngcairo' && fmt ne 'pdfcairo') exit error 'fmt'\n"
               "if (strlen(csv) == 0 || strlen(out) == 0 || series ne '' || strlen(data) == 0) exit error 'vars'\n"
               "if (paper ne 't' || stem ne 'cust' || title ne 'custom' || kind ne 'lines') exit error 'names'\n"
               "if (width < 100 || height < 100 || npanels != 1) exit error 'size'\n"
               "set title title\n"
               "plot table using 'tables':'error' with linespoints title 'xz'\n");
    plot_ok("cust");
    char *t = slurp("build/plots/t/cust.table.dat");
    assert_non_null(t);
    assert_string_equal(t, "\"workload\" \"tables\" \"error\" \"note\"\n"
                           "\"xz\" 1 12 \"a b\"\n"
                           "\"xz\" 2 7 NaN\n");
    free(t);
    /* without a plot section the script still gets the paths */
    write_text("configs/t/cust2.json", "{\"paper\": \"t\", \"caption\": \"c2\"}\n");
    write_text("results/t/cust2.csv", "tables,error\n1,2\n2,3\n");
    write_text("plots/t/cust2.gp", "if (kind ne 'custom' || title ne 'c2') exit error 'vars'\n"
                                   "plot table using 1:2 with lines notitle\n");
    plot_ok("cust2");
}

static void test_options(void **state)
{
    (void)state;
    char cmd[] = "plot", help[] = "--help", bogus[] = "--bogus", a[] = "a.json", b[] = "b.json", res[] = "--results";
    char *err = NULL;
    char *argv1[] = {cmd, help, NULL};
    assert_int_equal(run_capture(cmd_plot, argv1, &err), 0);
    free(err);
    char *argv2[] = {cmd, bogus, a, NULL};
    assert_int_equal(run_capture(cmd_plot, argv2, &err), 2);
    assert_non_null(strstr(err, "unknown option '--bogus'"));
    free(err);
    char *argv3[] = {cmd, NULL};
    assert_int_equal(run_capture(cmd_plot, argv3, &err), 2);
    free(err);
    char *argv4[] = {cmd, a, b, NULL};
    assert_int_equal(run_capture(cmd_plot, argv4, &err), 2);
    assert_non_null(strstr(err, "one config at a time"));
    free(err);
    char *argv5[] = {cmd, a, res, NULL};
    assert_int_equal(run_capture(cmd_plot, argv5, &err), 2);
    assert_non_null(strstr(err, "hwprof plot: option '--results' needs a value"));
    free(err);
    char tcmd[] = "table";
    char *argv6[] = {tcmd, help, NULL};
    assert_int_equal(run_capture(cmd_table, argv6, &err), 0);
    free(err);
    char plots_opt[] = "--plots=x";
    char *argv7[] = {tcmd, a, plots_opt, NULL};
    assert_int_equal(run_capture(cmd_table, argv7, &err), 2);
    free(err);
}

static void test_table(void **state)
{
    (void)state;
    char cmd[] = "table", config[512], results[512], o_r[] = "--results";
    char *argv[] = {cmd, o_r, results, config, NULL};
    char *err = NULL;
    snprintf(results, sizeof results, "%s/results", tmpdir);
    snprintf(config, sizeof config, "%s/configs/t/tab.json", tmpdir);
    write_text("configs/t/tab.json", "{\"paper\": \"t\", \"table\": {\"columns\": [\"workload\", \"calls\"],"
                                     " \"format\": {\"calls\": \"%.1f\"}}}\n");
    write_text("results/t/tab.csv", "workload,calls\ngzip,3\nxz,4.25\n");
    assert_int_equal(run_capture(cmd_table, argv, &err), 0);
    assert_string_equal(err, "");
    free(err);
    char *md = slurp("results/t/tab.md");
    assert_string_equal(md, "| workload | calls |\n"
                            "| -------- | ----: |\n"
                            "| gzip     |   3.0 |\n"
                            "| xz       |   4.2 |\n");
    free(md);
    snprintf(config, sizeof config, "%s/configs/t/tab2.json", tmpdir);
    write_text("configs/t/tab2.json", "{\"paper\": \"t\", \"table\": {\"columns\": [\"nope\"]}}\n");
    write_text("results/t/tab2.csv", "workload,calls\ngzip,3\n");
    assert_int_equal(run_capture(cmd_table, argv, &err), 1);
    assert_non_null(strstr(err, "tab2.json:1:38: no column 'nope' in "));
    free(err);
    assert_int_equal(file_size("results/t/tab2.md"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type), cmocka_unit_test(test_deterministic), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_custom_script), cmocka_unit_test(test_options), cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
