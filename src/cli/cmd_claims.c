/* cmd_claims.c - `hwprof claims [--check] [--out FILE] [--plot DIR]
 * [FILE.json...]` (cmd_claims, cli.h): read the claims files (claims.h,
 * default claims/<paper>.json), evaluate every claim against the committed
 * results (claimeval.h) and write results/claims.csv and
 * results/claims.workloads.csv together, atomically (outfile.h); with
 * --plot also the verdict figure (claimplot.h); with --check write nothing
 * and fail when the committed CSVs are not what the claims give now,
 * naming the claims whose rows differ.  docs/claims.md is the user guide.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cliopt.h"
#include "core/csv.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "core/sbuf.h"
#include "report/claimeval.h"
#include "report/claimplot.h"
#include "report/claims.h"
#include "report/docsrc.h"
#include "report/readfile.h"

static const char claims_usage[] =
    "usage: hwprof claims [FILE.json...] [options]\n"
    "  Evaluate every claim of the claims files (default: claims/*.json) against\n"
    "  the committed results and write the verdicts to results/claims.csv, one\n"
    "  row per claim and part, and results/claims.workloads.csv, one per test and\n"
    "  workload (docs/claims.md).  src= paths in queries are relative to the\n"
    "  current folder (the repository root).\n"
    "  --check          write nothing; exit 1 when the CSVs differ from what the\n"
    "                   claims give now (a result changed a verdict, or a claim changed)\n"
    "  --out FILE       the claims CSV [results/claims.csv]; the workloads CSV is\n"
    "                   written beside it (FILE with .workloads.csv for .csv)\n"
    "  --plot DIR       also draw the verdicts per paper: DIR/claims.svg, .png, .pdf\n"
    "  --templates DIR  plot templates [plots/templates]\n"
    "  --build DIR      where the figure's preamble and data go, under DIR/plots [build]\n"
    "  -q, --quiet      no summary line\n"
    "  -h, --help       this text\n"
    "Exit status: 0 written (--check: up to date), 1 error or (--check) a difference, 2 usage.\n";

struct options {
    bool check, quiet;
    const char *out, *plot, *templates, *build;
};

/* FILE.csv -> FILE.workloads.csv */
static char *workloads_path(const char *out)
{
    struct sbuf b = SBUF_INIT;
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, ".csv") == 0)
        sbuf_printf(&b, "%.*s.workloads.csv", (int)(n - 4), out);
    else
        sbuf_printf(&b, "%s.workloads.csv", out);
    return sbuf_take(&b);
}

/* ---- --check --------------------------------------------------------------------------- */

/* Row of c whose id and part are those of row r of o, or -1. */
static long find_row(const struct csv *c, const struct csv *o, size_t r)
{
    for (size_t i = 0; i < csv_nrows(c); i++)
        if (strcmp(csv_cell(c, i, 0), csv_cell(o, r, 0)) == 0 && strcmp(csv_cell(c, i, 1), csv_cell(o, r, 1)) == 0)
            return (long)i;
    return -1;
}

/* One line per claim row that differs between the committed file (old) and
 * the computed one (now); the number of lines. */
static size_t explain(const char *path, const char *old, size_t old_len, const char *now, size_t now_len)
{
    struct diag d;
    diag_init(&d, NULL);
    struct csv *a = csv_parse(old, old_len, path, &d), *b = csv_parse(now, now_len, path, &d);
    size_t n = 0;
    if (a && b && csv_ncols(a) == csv_ncols(b)) {
        for (size_t r = 0; r < csv_nrows(b) && n < 20; r++) {
            const char *part = csv_cell(b, r, 1);
            long o = find_row(a, b, r);
            if (o < 0) {
                fprintf(stderr, "%s: claim %s%s%s: not in the file\n", path, csv_cell(b, r, 0), part[0] ? ", part " : "",
                        part);
                n++;
                continue;
            }
            struct sbuf what = SBUF_INIT;
            for (size_t k = 2; k < csv_ncols(b); k++)
                if (strcmp(csv_cell(a, (size_t)o, k), csv_cell(b, r, k)) != 0)
                    sbuf_printf(&what, "%s%s \"%s\" -> \"%s\"", what.len ? ", " : "", csv_header(b, k),
                                csv_cell(a, (size_t)o, k), csv_cell(b, r, k));
            if (what.len) {
                fprintf(stderr, "%s: claim %s%s%s: %s\n", path, csv_cell(b, r, 0), part[0] ? ", part " : "", part,
                        sbuf_str(&what));
                n++;
            }
            sbuf_free(&what);
        }
        for (size_t r = 0; r < csv_nrows(a) && n < 20; r++)
            if (find_row(b, a, r) < 0) {
                fprintf(stderr, "%s: claim %s%s%s: in the file, not declared\n", path, csv_cell(a, r, 0),
                        csv_cell(a, r, 1)[0] ? ", part " : "", csv_cell(a, r, 1));
                n++;
            }
    }
    csv_free(a);
    csv_free(b);
    diag_free(&d);
    return n;
}

/* Does path hold exactly text?  A line on stderr when not. */
static bool same_file(const char *path, const char *text, size_t len, bool rows)
{
    size_t have_len = 0;
    char *have = read_file(path, &have_len);
    bool same = have && have_len == len && memcmp(have, text, len) == 0;
    if (!have)
        fprintf(stderr, "%s: missing (`hwprof claims` writes it)\n", path);
    else if (!same && (!rows || explain(path, have, have_len, text, len) == 0))
        fprintf(stderr, "%s: differs from what the claims give\n", path);
    free(have);
    return same;
}

/* ---- the command ----------------------------------------------------------------------- */

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option opts[] = {{"check", no_argument, NULL, 'c'},      {"out", required_argument, NULL, 'o'},
                                         {"plot", required_argument, NULL, 'p'}, {"templates", required_argument, NULL, 't'},
                                         {"build", required_argument, NULL, 'b'}, {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->out = "results/claims.csv";
    o->templates = "plots/templates";
    o->build = "build";
    int c;
    optind = 0; /* glibc: full re-initialisation (the tests call us repeatedly) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        switch (c) {
        case 'c': o->check = true; break;
        case 'o': o->out = optarg; break;
        case 'p': o->plot = optarg; break;
        case 't': o->templates = optarg; break;
        case 'b': o->build = optarg; break;
        case 'q': o->quiet = true; break;
        case 'h':
            fputs(claims_usage, stdout);
            return EXIT_OK + 100;
        default: return cli_option_error("hwprof claims", c, argv, ":qh", opts);
        }
    }
    return 0;
}

/* The files named, or every claims/<paper>.json (sorted). */
static char **claim_files(int argc, char **argv, size_t *n)
{
    char **files;
    *n = 0;
    if (optind < argc) {
        files = mem_array((size_t)(argc - optind), sizeof *files);
        for (int i = optind; i < argc; i++)
            files[(*n)++] = mem_strdup(argv[i]);
        return files;
    }
    glob_t g;
    if (glob("claims/*.json", 0, NULL, &g) != 0) {
        globfree(&g);
        return NULL;
    }
    files = mem_array(g.gl_pathc, sizeof *files);
    for (size_t i = 0; i < g.gl_pathc; i++)
        files[(*n)++] = mem_strdup(g.gl_pathv[i]);
    globfree(&g);
    return files;
}

static void summary(const char *out, const struct claimset *s, const struct claims_eval *e, const char *what)
{
    size_t count[VERDICT_COUNT] = {0};
    for (size_t i = 0; i < e->n; i++)
        count[e->c[i].verdict]++;
    printf("%s: %s%zu claim%s (", out, what, s->n, s->n == 1 ? "" : "s");
    for (int v = 0; v < VERDICT_COUNT; v++)
        printf("%s%zu %s", v ? ", " : "", count[v], verdict_name((enum verdict)v));
    printf(")\n");
}

/* Write (or with --check compare) the two CSVs, then draw. */
static int output(const struct options *o, const struct claimset *s, const struct claims_eval *e)
{
    char *wpath = workloads_path(o->out), *mtext = NULL, *wtext = NULL;
    size_t mlen = 0, wlen = 0;
    int rc = EXIT_ERROR;
    FILE *mf = open_memstream(&mtext, &mlen), *wf = open_memstream(&wtext, &wlen);
    if (!mf || !wf) {
        fprintf(stderr, "hwprof claims: open_memstream: %s\n", strerror(errno));
        if (mf)
            fclose(mf);
        if (wf)
            fclose(wf);
        goto out;
    }
    claims_write_csv(s, e, mf);
    claims_write_workloads_csv(s, e, wf);
    fclose(mf);
    fclose(wf);
    if (o->check) {
        bool same = same_file(o->out, mtext, mlen, true);
        same = same_file(wpath, wtext, wlen, false) && same;
        if (!same) {
            fprintf(stderr, "hwprof claims: the verdicts in %s are not those of the claims "
                            "(`hwprof claims` rewrites them; then `hwprof docs` refills the documents)\n",
                    o->out);
            goto out;
        }
        if (!o->quiet)
            summary(o->out, s, e, "up to date, ");
        rc = EXIT_OK;
        goto out;
    }
    struct outfile of[2];
    size_t n = 0;
    FILE *f;
    bool ok = (f = outfile_open(&of[n++], wpath)) && fwrite(wtext, 1, wlen, f) == wlen && outfile_close(&of[0]) == 0;
    ok = ok && (f = outfile_open(&of[n++], o->out)) && fwrite(mtext, 1, mlen, f) == mlen && outfile_close(&of[1]) == 0;
    if (!ok || outfile_commit(of, n) != 0) {
        outfile_discard(of, n);
        fprintf(stderr, "hwprof claims: %s not written\n", o->out);
        goto out;
    }
    if (!o->quiet)
        summary(o->out, s, e, "");
    rc = EXIT_OK;
    if (o->plot) {
        struct claims_tally t;
        struct diag d;
        diag_init(&d, NULL);
        claims_tally(s, e, &t);
        if (claimplot_draw(&t, o->plot, o->build, o->templates, &d) != 0) {
            diag_print(&d, stderr, NULL);
            rc = EXIT_ERROR;
        } else if (!o->quiet) {
            printf("%s/claims.svg: the verdicts of %zu paper%s\n", o->plot, t.n, t.n == 1 ? "" : "s");
        }
        claims_tally_free(&t);
        diag_free(&d);
    }
out:
    free(mtext);
    free(wtext);
    free(wpath);
    return rc;
}

int cmd_claims(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc == EXIT_OK + 100 ? EXIT_OK : rc;
    size_t nfiles = 0;
    char **files = claim_files(argc, argv, &nfiles);
    if (nfiles == 0) {
        fprintf(stderr, "hwprof claims: no claims files (claims/*.json here, or name them)\n");
        free(files);
        return EXIT_ERROR;
    }
    struct claimset s = {0};
    struct diag d;
    diag_init(&d, NULL);
    for (size_t i = 0; i < nfiles; i++)
        claims_load(&s, files[i], &d);
    struct docsrc *src = docsrc_create(".");
    struct claims_eval e = {0};
    if (claims_evaluate(&s, src, &e, &d) != 0 || !diag_ok(&d)) {
        diag_print(&d, stderr, NULL);
        fprintf(stderr, "hwprof claims: %zu error%s; nothing written\n", diag_count(&d), diag_count(&d) == 1 ? "" : "s");
        rc = EXIT_ERROR;
    } else {
        rc = output(&o, &s, &e);
    }
    claims_eval_free(&e);
    docsrc_free(src);
    claimset_free(&s);
    diag_free(&d);
    for (size_t i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    return rc;
}
