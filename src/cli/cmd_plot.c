/* cmd_plot.c - `hwprof plot` and `hwprof table` (cmd_plot and cmd_table,
 * cli.h): options, the config (config_read) and the files; gnuplot is run
 * by plotrender.c.
 *
 *   hwprof plot  CONFIG [--results DIR] [--plots DIR] [--build DIR] [--templates DIR]
 *   hwprof table CONFIG [--results DIR]
 *
 * `plot` reads the config (config_read, config.h) and its "plot" section
 * (plotspec.h), the CSV the runner wrote for it (csv.h), prepares the
 * numbers (plotdata.h), writes a preamble of variables and a data file
 * (plotgp.h) under build/plots/<paper>/ and runs gnuplot (plotrender.h) on
 * a template (plots/templates/<kind>.gp) or on a hand-written
 * plots/<paper>/<stem>.gp, once per format: SVG, PNG, PDF.  `table`
 * renders the CSV as markdown (mdtable.h).  User guide: docs/plots.md.
 *
 * `hwprof plot configs/P/S.json` with the defaults writes
 *   build/plots/P/S.gp          the preamble: `name = value` lines only
 *   build/plots/P/S.dat         the data blocks the template draws
 *   build/plots/P/S.table.dat   the filtered CSV, whitespace-separated (for
 *                               hand-written scripts)
 *   plots/P/S.svg, .png, .pdf   the figure, by
 *     gnuplot -e "fmt='svg'; out='plots/P/S.svg.tmp.PID'; set terminal svg ...; set output out" \
 *             build/plots/P/S.gp plots/templates/<kind>.gp
 * Outputs are written under temporary names and renamed only when all three
 * formats succeeded, so a failure leaves the previous figure in place (the
 * SVG, make's target, is replaced last: see plotrender.h); the preamble
 * and data files are renamed into place together (outfile.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cliopt.h"
#include "core/csv.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "core/sbuf.h"
#include "report/mdtable.h"
#include "report/plotdata.h"
#include "report/plotgp.h"
#include "report/plotrender.h"
#include "report/plotspec.h"
#include "report/rowfilter.h"
#include "run/config.h"

static const char plot_usage[] =
    "usage: hwprof plot CONFIG [options]\n"
    "  Draw results/<paper>/<stem>.csv (or the CSV plot.source names) for\n"
    "  configs/<paper>/<stem>.json into plots/<paper>/<stem>.svg, .png and .pdf,\n"
    "  with the template plots/templates/<type>.gp, or plots/<paper>/<stem>.gp when\n"
    "  that file exists (docs/plots.md).\n"
    "  --results DIR    results folder [results]\n"
    "  --plots DIR      figures folder [plots]\n"
    "  --build DIR      where the preamble and data go, under DIR/plots [build]\n"
    "  --templates DIR  template folder [plots/templates here, beside the config's\n"
    "                   configs/ folder, or beside the program's build/ folder]\n"
    "  -h, --help       this text\n"
    "Exit status: 0 drawn, 1 error (nothing replaced), 2 usage.\n";

static const char table_usage[] =
    "usage: hwprof table CONFIG [options]\n"
    "  Render results/<paper>/<stem>.csv as a markdown table in\n"
    "  results/<paper>/<stem>.md (columns, rows and number formats from the\n"
    "  config's \"table\" section; docs/plots.md).\n"
    "  --results DIR    results folder [results]\n"
    "  -h, --help       this text\n"
    "Exit status: 0 written, 1 error (nothing replaced), 2 usage.\n";

struct options {
    const char *config;
    const char *results, *plots, *build, *templates;
};

/* 0 to go on, else the exit status (help printed: EXIT_OK). */
static int parse_options(int argc, char **argv, bool plot, struct options *o)
{
    static const struct option plot_opts[] = {
        {"results", required_argument, NULL, 'r'}, {"plots", required_argument, NULL, 'p'},
        {"build", required_argument, NULL, 'b'},   {"templates", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
    static const struct option table_opts[] = {
        {"results", required_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *usage = plot ? plot_usage : table_usage;
    int c;
    memset(o, 0, sizeof *o);
    o->results = "results";
    o->plots = "plots";
    o->build = "build";
    optind = 0; /* glibc: full re-initialisation (the tests call us repeatedly) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", plot ? plot_opts : table_opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            o->results = optarg;
            break;
        case 'p':
            o->plots = optarg;
            break;
        case 'b':
            o->build = optarg;
            break;
        case 't':
            o->templates = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return EXIT_OK + 100;
        default:
            return cli_option_error(plot ? "hwprof plot" : "hwprof table", c, argv, ":h",
                                    plot ? plot_opts : table_opts);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) /* after "--" */
            return cli_unknown_option(plot ? "hwprof plot" : "hwprof table", argv[i], plot ? plot_opts : table_opts);
        if (o->config) {
            fprintf(stderr, "hwprof %s: one config at a time ('%s' and '%s')\n%s", argv[0], o->config, argv[i],
                    usage);
            return EXIT_USAGE;
        }
        o->config = argv[i];
    }
    if (!o->config) {
        fprintf(stderr, "hwprof %s: which config?\n%s", argv[0], usage);
        return EXIT_USAGE;
    }
    return 0;
}

/* ---- files -------------------------------------------------------------------- */

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Write len bytes of text to path's temporary (outfile.h); 0, or -1 with a
 * message printed. */
static int put_file(struct outfile *o, const char *path, const char *text, size_t len)
{
    FILE *f = outfile_open(o, path);
    if (!f)
        return -1;
    fwrite(text, 1, len, f);
    return outfile_close(o);
}

static char *path_of(const char *dir, const char *paper, const char *stem, const char *ext)
{
    struct sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s/%s/%s%s", dir, paper, stem, ext);
    return sbuf_take(&b);
}

/* ---- the config -------------------------------------------------------------------- */

/* Errors at key paths of the config found after it was read (the plot
 * section's, the data's) are located in its text. */
static void report(struct diag *d, const struct config *c)
{
    if (c && c->text)
        diag_resolve(d, c->path, c->text);
    diag_print(d, stderr, NULL);
}

/* A file beside the outputs or in the source tree's plots/ folder, found
 * from the config path (configs/P/S.json -> plots/...) or the working
 * directory (make SCALE=tiny writes its figures under build/ but keeps the
 * hand-written scripts).  NULL when none exists. */
static char *find_source_file(const char *config, const char *first, const char *rel)
{
    const char *slash = strrchr(config, '/');
    struct sbuf b = SBUF_INIT;
    if (first && (file_exists(first) || dir_exists(first)))
        return mem_strdup(first);
    if (slash) {
        sbuf_printf(&b, "%.*s/../../plots/%s", (int)(slash - config), config, rel);
        if (file_exists(b.s) || dir_exists(b.s))
            return sbuf_take(&b);
        sbuf_clear(&b);
    }
    sbuf_printf(&b, "plots/%s", rel);
    if (file_exists(b.s) || dir_exists(b.s))
        return sbuf_take(&b);
    sbuf_free(&b);
    return NULL;
}

/* build/hwprof -> plots/templates of the same checkout, for runs from
 * another folder (NULL when it is not there). */
static char *templates_beside_program(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    struct sbuf b = SBUF_INIT;
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    sbuf_printf(&b, "%s/../plots/templates", exe);
    if (dir_exists(b.s))
        return sbuf_take(&b);
    sbuf_free(&b);
    return NULL;
}

static const char *source_ext(const char *source, struct sbuf *b)
{
    sbuf_clear(b);
    if (strcmp(source, "main") == 0)
        sbuf_puts(b, ".csv");
    else
        sbuf_printf(b, ".%s.csv", source);
    return sbuf_str(b);
}

int cmd_plot(int argc, char **argv)
{
    struct options o;
    struct config *c = NULL;
    struct diag d;
    struct plotspec spec;
    struct csv *csv = NULL;
    struct plotdata *pd = NULL;
    json_t *plot;
    char *main_csv = NULL, *series_csv = NULL, *data_csv = NULL, *custom = NULL, *templates = NULL;
    char *preamble = NULL, *datafile = NULL, *tablefile = NULL, *template = NULL, *final[3] = {NULL, NULL, NULL};
    struct sbuf ext = SBUF_INIT, rel = SBUF_INIT;
    char *vtext = NULL, *dtext = NULL, *ttext = NULL;
    size_t vlen = 0, dlen = 0, tlen = 0;
    int width = 900, height = 500, rc = parse_options(argc, argv, true, &o);
    bool have_spec = false;

    if (rc)
        return rc == EXIT_OK + 100 ? EXIT_OK : rc;
    diag_init(&d, o.config);
    rc = EXIT_ERROR;
    if (!(c = config_read(o.config, &d)))
        goto out;
    plot = json_object_get(c->root, "plot");
    if (plot) {
        have_spec = true; /* freed at the end, also when broken */
        if (plotspec_parse(plot, &spec, &d) != 0)
            goto out;
    }
    main_csv = path_of(o.results, c->paper, c->stem, ".csv");
    series_csv = path_of(o.results, c->paper, c->stem, ".series.csv");
    data_csv = path_of(o.results, c->paper, c->stem, source_ext(have_spec ? spec.source : "main", &ext));
    {
        char *beside = path_of(o.plots, c->paper, c->stem, ".gp");
        sbuf_printf(&rel, "%s/%s.gp", c->paper, c->stem);
        custom = find_source_file(o.config, beside, sbuf_str(&rel));
        free(beside);
    }
    if (!have_spec && !custom) {
        diag_error(&d, NULL, 0, 0, "%s: no \"plot\" section and no plots/%s/%s.gp: nothing to draw", o.config, c->paper,
                   c->stem);
        goto out;
    }
    templates = o.templates ? mem_strdup(o.templates) : find_source_file(o.config, "plots/templates", "templates");
    if (!templates && !o.templates)
        templates = templates_beside_program();
    if (!templates && !custom) {
        diag_error(&d, NULL, 0, 0, "hwprof plot: no template folder (plots/templates); give --templates DIR");
        goto out;
    }
    csv = csv_read(data_csv, &d);
    if (!csv) {
        /* a file that is there but unreadable is reported as such above */
        if (access(data_csv, F_OK) != 0)
            diag_error(&d, NULL, 0, 0, "hwprof plot: no data to plot for %s: run `hwprof run %s` first", o.config,
                       o.config);
        goto out;
    }
    {
        struct sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s/plots/%s/%s", o.build, c->paper, c->stem);
        preamble = mem_alloc(b.len + 16);
        datafile = mem_alloc(b.len + 16);
        tablefile = mem_alloc(b.len + 16);
        snprintf(preamble, b.len + 16, "%s.gp", b.s);
        snprintf(datafile, b.len + 16, "%s.dat", b.s);
        snprintf(tablefile, b.len + 16, "%s.table.dat", b.s);
        sbuf_free(&b);
    }
    {
        FILE *vf = open_memstream(&vtext, &vlen), *df = open_memstream(&dtext, &dlen), *tf = open_memstream(&ttext, &tlen);
        struct plotgp_paths paths = {datafile, tablefile, main_csv, file_exists(series_csv) ? series_csv : "",
                                     o.config, c->paper, c->stem, templates ? templates : ""};
        struct diag_path wp = diag_path_of(2, "plot", "where");
        size_t n = 0, *rows;
        int ok = vf && df && tf;
        if (ok) {
            struct rowfilter none = {NULL, 0};
            rows = rowfilter_select(have_spec ? &spec.where : &none, csv, &wp, &n, &d);
            if (rows)
                plotgp_write_table(tf, csv, rows, n);
            else
                ok = 0;
            free(rows);
        }
        if (ok && have_spec) {
            /* plotdata_build checks every column against the CSV itself. */
            const char *title = spec.title ? spec.title : c->caption;
            pd = plotdata_build(&spec, csv, &d);
            ok = pd && plotgp_write(&spec, pd, title, &paths, vf, df, &width, &height, &d) == 0;
        } else if (ok) {
            /* A hand-written script without a plot section: paths only. */
            fprintf(vf, "# hwprof plot: %s for the hand-written %s\n", c->stem, custom);
            fprintf(vf, "kind = 'custom'\ndata = ''\n");
            fprintf(vf, "table = ");
            plotgp_quote(vf, tablefile);
            fprintf(vf, "\ncsv = ");
            plotgp_quote(vf, main_csv);
            fprintf(vf, "\nseries = ");
            plotgp_quote(vf, file_exists(series_csv) ? series_csv : "");
            fprintf(vf, "\nconfig = ");
            plotgp_quote(vf, o.config);
            fprintf(vf, "\npaper = ");
            plotgp_quote(vf, c->paper);
            fprintf(vf, "\nstem = ");
            plotgp_quote(vf, c->stem);
            fprintf(vf, "\ntitle = ");
            plotgp_quote(vf, c->caption);
            fprintf(vf, "\nwidth = %d\nheight = %d\n", width, height);
        }
        if (vf)
            fclose(vf);
        if (df)
            fclose(df);
        if (tf)
            fclose(tf);
        if (!(vf && df && tf))
            diag_error(&d, NULL, 0, 0, "hwprof plot: open_memstream: %s", strerror(errno));
        if (!ok || !(vf && df && tf))
            goto out;
    }
    {
        struct outfile of[3];
        size_t n = 0;
        bool ok = put_file(&of[n++], preamble, vtext, vlen) == 0 && put_file(&of[n++], tablefile, ttext, tlen) == 0 &&
                  (!have_spec || put_file(&of[n++], datafile, dtext, dlen) == 0);
        if (!ok || outfile_commit(of, n) != 0) {
            outfile_discard(of, n);
            goto out;
        }
    }
    if (!custom) {
        struct sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s/%s.gp", templates, plot_kind_name(spec.kind));
        template = sbuf_take(&b);
        if (!file_exists(template)) {
            diag_error(&d, template, 0, 0, "no such template");
            goto out;
        }
    }
    final[0] = path_of(o.plots, c->paper, c->stem, ".svg");
    final[1] = path_of(o.plots, c->paper, c->stem, ".png");
    final[2] = path_of(o.plots, c->paper, c->stem, ".pdf");
    if (plot_render(preamble, custom ? custom : template, width, height, (const char *const *)final, &d) != 0)
        goto out;
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        report(&d, c);
    diag_free(&d);
    plotdata_free(pd);
    if (have_spec)
        plotspec_free(&spec);
    csv_free(csv);
    config_free(c);
    free(main_csv);
    free(series_csv);
    free(data_csv);
    free(custom);
    free(templates);
    free(preamble);
    free(datafile);
    free(tablefile);
    free(template);
    for (int i = 0; i < 3; i++)
        free(final[i]);
    free(vtext);
    free(dtext);
    free(ttext);
    sbuf_free(&ext);
    sbuf_free(&rel);
    return rc;
}

int cmd_table(int argc, char **argv)
{
    struct options o;
    struct config *c = NULL;
    struct diag d;
    struct csv *csv = NULL;
    json_t *table, *plot, *plot_where = NULL;
    char *csvpath = NULL, *mdpath = NULL, *text = NULL;
    size_t len = 0;
    FILE *f;
    int rc = parse_options(argc, argv, false, &o);

    if (rc)
        return rc == EXIT_OK + 100 ? EXIT_OK : rc;
    diag_init(&d, o.config);
    rc = EXIT_ERROR;
    if (!(c = config_read(o.config, &d)))
        goto out;
    table = json_object_get(c->root, "table");
    plot = json_object_get(c->root, "plot");
    if (mdtable_check(table, NULL, &d) != 0)
        goto out;
    if (json_is_object(plot)) {
        plot_where = json_object_get(plot, "where");
        if (plot_where) {
            struct diag_path p = diag_path_of(2, "plot", "where");
            if (rowfilter_check_json(plot_where, &p, &d) != 0)
                goto out;
        }
    }
    csvpath = path_of(o.results, c->paper, c->stem, ".csv");
    mdpath = path_of(o.results, c->paper, c->stem, ".md");
    csv = csv_read(csvpath, &d);
    if (!csv) {
        if (access(csvpath, F_OK) != 0)
            diag_error(&d, NULL, 0, 0, "hwprof table: no data for the table of %s: run `hwprof run %s` first", o.config,
                       o.config);
        goto out;
    }
    f = open_memstream(&text, &len);
    if (!f) {
        diag_error(&d, NULL, 0, 0, "hwprof table: open_memstream: %s", strerror(errno));
        goto out;
    }
    if (mdtable_render(f, csv, table, plot_where, &d) != 0) {
        fclose(f);
        goto out;
    }
    fclose(f);
    {
        struct outfile of;
        if (put_file(&of, mdpath, text, len) != 0 || outfile_commit(&of, 1) != 0) {
            outfile_discard(&of, 1);
            goto out;
        }
    }
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        report(&d, c);
    diag_free(&d);
    csv_free(csv);
    config_free(c);
    free(csvpath);
    free(mdpath);
    free(text);
    return rc;
}
