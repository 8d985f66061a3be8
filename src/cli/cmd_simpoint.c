/* cmd_simpoint.c - `hwprof simpoint` (cmd_simpoint, cli.h): choose SimPoint
 * windows from a basic-block vector file (see simpoint.h, docs/simpoint.md).
 *
 *   hwprof simpoint FILE.bb --slice N [--max-k K] [--dim D] [--seed S]
 *                   [--inits N] [--init kmeans++|sample]
 *                   [--bic-threshold T] [--max-iter N]
 *                   [--skip-slices N] [--max-windows W] [--json [--labels]]
 *                   [--output FILE]
 *
 * Plain output is a small table (header lines start with '#'); --json
 * prints one object:
 *
 *   {"file": "gzip.bb", "slice_length": 1000000, "slices": 812,
 *    "skipped": 12, "clustered": 800,
 *    "options": {"max_k": 10, "dim": 15, "seed": 1, "inits": 5,
 *                "init": "kmeans++", "bic_threshold": 0.9, "max_iter": 100, "max_windows": 0},
 *    "k": 3, "clusters": 3, "coverage": 1,
 *    "scores": [{"k": 1, "bic": -1234.5, "distortion": 3.2, "iterations": 1}, ...],
 *    "windows": [{"slice": 40, "start": 40000000, "weight": 0.5,
 *                 "cluster": 1, "cluster_size": 400}, ...]}
 *
 * ("labels": [cluster of every clustered slice] is added with --labels.)
 * Windows are listed by slice.  Errors: one line each on stderr naming the
 * file and line:column.  Exit status: 0 success, 1 bad input or I/O error,
 * 2 usage error.  --output writes a temporary file and renames it, so a
 * failed run leaves no output file.
 */
#define _GNU_SOURCE /* getopt_long */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cliopt.h"
#include "core/diag.h"
#include "simpoint/bbv.h"
#include "simpoint/simpoint.h"

static const char usage_text[] =
    "usage: hwprof simpoint FILE.bb --slice N [options]\n"
    "\n"
    "Choose SimPoint windows (representative slices and their weights) from\n"
    "basic-block vectors in Valgrind exp-bbv's text format (FILE - is stdin).\n"
    "\n"
    "  --slice N            instructions per slice (exp-bbv's --interval-size);\n"
    "                       required; a window starts at slice index x N\n"
    "  --max-k K            largest number of clusters tried [10], 1..1000\n"
    "  --dim D              random projection dimensions [15], 1..1000\n"
    "  --seed S             seed of the projection and of the k-means starts [1]\n"
    "  --inits N            k-means starts per k, the least distortion kept [5]\n"
    "  --init kmeans++|sample  how a start seeds its centres [kmeans++];\n"
    "                       sample: k distinct slices drawn uniformly (SimPoint 3.0)\n"
    "  --bic-threshold T    smallest k whose BIC is T of the way from the worst\n"
    "                       to the best score [0.9], 0..1\n"
    "  --max-iter N         k-means iterations per start [100]\n"
    "  --skip-slices N      leave out the first N slices (start-up) [0]\n"
    "  --max-windows W      at most W windows: the heaviest clusters, weights\n"
    "                       renormalised [0: one per cluster]\n"
    "  --json               print a JSON object instead of a table\n"
    "  --labels             with --json, add every clustered slice's cluster\n"
    "  -o, --output FILE    write to FILE (via a temporary file) instead of stdout\n"
    "  -h, --help           print this text\n"
    "Exit status: 0 success, 1 bad input or I/O error, 2 usage error.\n"
    "See docs/simpoint.md.\n";

enum opt_id {
    OPT_SLICE = 256,
    OPT_MAX_K,
    OPT_DIM,
    OPT_SEED,
    OPT_INITS,
    OPT_INIT,
    OPT_BIC,
    OPT_MAX_ITER,
    OPT_SKIP,
    OPT_MAX_WINDOWS,
    OPT_JSON,
    OPT_LABELS,
};

static const struct option long_opts[] = {
    {"slice", required_argument, NULL, OPT_SLICE},
    {"max-k", required_argument, NULL, OPT_MAX_K},
    {"dim", required_argument, NULL, OPT_DIM},
    {"seed", required_argument, NULL, OPT_SEED},
    {"inits", required_argument, NULL, OPT_INITS},
    {"init", required_argument, NULL, OPT_INIT},
    {"bic-threshold", required_argument, NULL, OPT_BIC},
    {"max-iter", required_argument, NULL, OPT_MAX_ITER},
    {"skip-slices", required_argument, NULL, OPT_SKIP},
    {"max-windows", required_argument, NULL, OPT_MAX_WINDOWS},
    {"json", no_argument, NULL, OPT_JSON},
    {"labels", no_argument, NULL, OPT_LABELS},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* "hwprof simpoint: <message> (see 'hwprof simpoint --help')".  Returns EXIT_USAGE. */
__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hwprof simpoint: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see 'hwprof simpoint --help')\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* A decimal integer in [min, max], digits only. */
static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
    if (!*s)
        return -1;
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned digit = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - digit) / 10)
            return -1;
        x = x * 10 + digit;
    }
    if (x < min || x > max)
        return -1;
    *v = x;
    return 0;
}

static int int_option(const char *name, const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
    if (parse_uint(arg, min, max, v) == 0)
        return 0;
    usage_error("--%s must be an integer in [%" PRIu64 ", %" PRIu64 "], got '%s'", name, min, max, arg);
    return -1;
}

/* ---- output -------------------------------------------------------------- */

struct run_info {
    const char *file;
    uint64_t slice_len;
    size_t slices;
    const struct simpoint_opts *o;
    const struct simpoint_result *r;
    int labels;
};

static void write_table(FILE *f, const struct run_info *in)
{
    const struct simpoint_result *r = in->r;
    const struct simpoint_opts *o = in->o;
    fprintf(f, "# simpoint %s: %zu slices of %" PRIu64 " instructions, %zu clustered (%" PRIu64 " skipped)\n",
            in->file, in->slices, in->slice_len, r->n_slices, r->skipped);
    fprintf(f, "# k = %u of 1..%u (BIC threshold %g; dim %u, seed %" PRIu64 ", %u %s starts, %u iterations)\n",
            r->k, r->k_tried, o->bic_threshold, o->dim, o->seed, o->n_init, simpoint_init_name(o->init), o->max_iter);
    fprintf(f, "# %zu windows for %u clusters, covering %.6f of the clustered slices\n", r->n_windows, r->clusters,
            r->coverage);
    fprintf(f, "%10s %20s %14s %8s %13s\n", "slice", "start", "weight", "cluster", "cluster_size");
    for (size_t i = 0; i < r->n_windows; i++) {
        const struct simpoint_window *w = &r->window[i];
        fprintf(f, "%10" PRIu64 " %20" PRIu64 " %14.10f %8u %13" PRIu64 "\n", w->slice, w->start, w->weight,
                w->cluster, w->cluster_size);
    }
}

/* jansson's integers are signed 64-bit. */
static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

static int write_json(FILE *f, const struct run_info *in)
{
    const struct simpoint_result *r = in->r;
    const struct simpoint_opts *o = in->o;
    json_t *root = json_object(), *opts = json_object(), *scores = json_array(), *wins = json_array();
    if (!root || !opts || !scores || !wins) {
        json_decref(root);
        json_decref(opts);
        json_decref(scores);
        json_decref(wins);
        return -1;
    }
    json_object_set_new(root, "file", json_string(in->file));
    json_object_set_new(root, "slice_length", jint(in->slice_len));
    json_object_set_new(root, "slices", jint(in->slices));
    json_object_set_new(root, "skipped", jint(r->skipped));
    json_object_set_new(root, "clustered", jint(r->n_slices));
    json_object_set_new(opts, "max_k", jint(o->max_k));
    json_object_set_new(opts, "dim", jint(o->dim));
    json_object_set_new(opts, "seed", jint(o->seed));
    json_object_set_new(opts, "inits", jint(o->n_init));
    json_object_set_new(opts, "init", json_string(simpoint_init_name(o->init)));
    json_object_set_new(opts, "bic_threshold", json_real(o->bic_threshold));
    json_object_set_new(opts, "max_iter", jint(o->max_iter));
    json_object_set_new(opts, "max_windows", jint(o->max_windows));
    json_object_set_new(root, "options", opts);
    json_object_set_new(root, "k", jint(r->k));
    json_object_set_new(root, "clusters", jint(r->clusters));
    json_object_set_new(root, "coverage", json_real(r->coverage));
    for (unsigned k = 1; k <= r->k_tried; k++) {
        json_t *s = json_object();
        json_object_set_new(s, "k", jint(k));
        json_object_set_new(s, "bic", json_real(r->bic[k - 1]));
        json_object_set_new(s, "distortion", json_real(r->distortion[k - 1]));
        json_object_set_new(s, "iterations", jint(r->iterations[k - 1]));
        json_array_append_new(scores, s);
    }
    json_object_set_new(root, "scores", scores);
    for (size_t i = 0; i < r->n_windows; i++) {
        const struct simpoint_window *w = &r->window[i];
        json_t *j = json_object();
        json_object_set_new(j, "slice", jint(w->slice));
        json_object_set_new(j, "start", jint(w->start));
        json_object_set_new(j, "weight", json_real(w->weight));
        json_object_set_new(j, "cluster", jint(w->cluster));
        json_object_set_new(j, "cluster_size", jint(w->cluster_size));
        json_array_append_new(wins, j);
    }
    json_object_set_new(root, "windows", wins);
    if (in->labels) {
        json_t *l = json_array();
        for (size_t i = 0; i < r->n_slices; i++)
            json_array_append_new(l, jint(r->label[i]));
        json_object_set_new(root, "labels", l);
    }
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (rc == 0)
        fputc('\n', f);
    json_decref(root);
    return rc;
}

/* Write text to path through a temporary file in the same folder, or to
 * stdout when path is NULL.  Returns 0, or -1 after printing why. */
static int emit(const char *path, const char *text, size_t len)
{
    if (!path) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "hwprof simpoint: <stdout>: write error: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof ".tmp.XXXXXX");
    if (!tmp) {
        fprintf(stderr, "hwprof simpoint: out of memory\n");
        return -1;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "hwprof simpoint: %s: cannot create: %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    int ok = f != NULL;
    if (ok)
        ok = fwrite(text, 1, len, f) == len;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else
        close(fd);
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "hwprof simpoint: %s: write error: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}

/* ---- main ---------------------------------------------------------------- */

int cmd_simpoint(int argc, char **argv)
{
    struct simpoint_opts o;
    simpoint_opts_default(&o);
    const char *output = NULL;
    int json = 0, labels = 0, have_slice = 0;
    uint64_t v;

    optind = 0; /* glibc: start afresh (main.c's dispatch or an earlier call may have used getopt) */
    opterr = 0;
    for (;;) {
        int c = getopt_long(argc, argv, ":ho:", long_opts, NULL);
        if (c == -1)
            break;
        switch (c) {
        case 'h':
            fputs(usage_text, stdout);
            return EXIT_OK;
        case 'o':
            output = optarg;
            break;
        case OPT_SLICE:
            if (int_option("slice", optarg, 1, INT64_MAX, &v))
                return EXIT_USAGE;
            o.slice_len = v;
            have_slice = 1;
            break;
        case OPT_MAX_K:
            if (int_option("max-k", optarg, 1, SIMPOINT_MAX_K_MAX, &v))
                return EXIT_USAGE;
            o.max_k = (unsigned)v;
            break;
        case OPT_DIM:
            if (int_option("dim", optarg, 1, SIMPOINT_DIM_MAX, &v))
                return EXIT_USAGE;
            o.dim = (unsigned)v;
            break;
        case OPT_SEED:
            if (int_option("seed", optarg, 0, INT64_MAX, &v))
                return EXIT_USAGE;
            o.seed = v;
            break;
        case OPT_INITS:
            if (int_option("inits", optarg, 1, SIMPOINT_N_INIT_MAX, &v))
                return EXIT_USAGE;
            o.n_init = (unsigned)v;
            break;
        case OPT_INIT:
            if (simpoint_init_parse(optarg, &o.init) != 0)
                return usage_error("--init must be kmeans++ or sample, got '%s'", optarg);
            break;
        case OPT_BIC: {
            char *end;
            errno = 0;
            double t = strtod(optarg, &end);
            if (end == optarg || *end || errno || !(t >= 0.0 && t <= 1.0))
                return usage_error("--bic-threshold must be a number in [0, 1], got '%s'", optarg);
            o.bic_threshold = t;
            break;
        }
        case OPT_MAX_ITER:
            if (int_option("max-iter", optarg, 1, SIMPOINT_MAX_ITER_MAX, &v))
                return EXIT_USAGE;
            o.max_iter = (unsigned)v;
            break;
        case OPT_SKIP:
            if (int_option("skip-slices", optarg, 0, INT64_MAX, &v))
                return EXIT_USAGE;
            o.skip_slices = v;
            break;
        case OPT_MAX_WINDOWS:
            if (int_option("max-windows", optarg, 0, SIMPOINT_MAX_WINDOWS_MAX, &v))
                return EXIT_USAGE;
            o.max_windows = (unsigned)v;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_LABELS:
            labels = 1;
            break;
        default:
            return cli_option_error("hwprof simpoint", c, argv, ":ho:", long_opts);
        }
    }
    if (optind >= argc)
        return usage_error("no input file");
    if (argc - optind > 1)
        return usage_error("one input file only (got '%s' and '%s')", argv[optind], argv[optind + 1]);
    if (!have_slice)
        return usage_error("--slice N (instructions per slice) is required");
    if (labels && !json)
        return usage_error("--labels needs --json");
    const char *file = argv[optind];

    struct diag d;
    diag_init(&d, file);
    struct bbv *b = bbv_load(file, &d);
    if (!b) {
        diag_print(&d, stderr, "hwprof simpoint: ");
        diag_free(&d);
        return EXIT_ERROR;
    }
    const char *name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    uint64_t isize = bbv_interval_size(b);
    if (isize && isize != o.slice_len)
        fprintf(stderr,
                "hwprof simpoint: warning: %s says 'Interval Size %" PRIu64 "' but --slice is %" PRIu64
                "; window starts use --slice\n",
                name, isize, o.slice_len);

    struct simpoint_result *r = NULL;
    int rc = EXIT_ERROR;
    char *text = NULL;
    size_t len = 0;
    if (simpoint_run(b, &o, &r, &d) != 0) {
        /* library diagnostics carry no location: name the input */
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "hwprof simpoint: %s: %s\n", name, d.items[i].msg ? d.items[i].msg : "out of memory");
        goto out;
    }
    for (size_t i = 0; i < r->n_windows; i++)
        if (r->window[i].start > INT64_MAX) {
            fprintf(stderr, "hwprof simpoint: %s: start of slice %" PRIu64 " exceeds 2^63-1\n", name,
                    r->window[i].slice);
            goto out;
        }
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fprintf(stderr, "hwprof simpoint: out of memory\n");
        goto out;
    }
    struct run_info info = {name, o.slice_len, bbv_slices(b), &o, r, labels};
    int wrc = 0;
    if (json)
        wrc = write_json(mem, &info);
    else
        write_table(mem, &info);
    if (fclose(mem) != 0 || wrc != 0) {
        fprintf(stderr, "hwprof simpoint: out of memory\n");
        goto out;
    }
    if (emit(output, text, len) == 0)
        rc = EXIT_OK;
out:
    free(text);
    simpoint_result_free(r);
    bbv_free(b);
    diag_free(&d);
    return rc;
}
