/* run.c - one config from jobs to result files (see run.h).
 *
 * Jobs: one per workload (trace window, windows.h), or one analytic job.
 * Instances: every run x sweep point, in config order, for every job; the
 * engine shares stages among them and spreads them over threads.  Before
 * the first job, every trace to read and every output folder is checked
 * (fail fast: one message per problem, nothing computed).  Results are
 * collected in memory and written only when every job succeeded, through
 * temporaries renamed into place (outfile.h), the main CSV last; the
 * sidecar records the SHA-256 of every CSV (freshness.h checks them).
 * Several configs in one plan: run_plan.c, with what this file shares
 * with it in run_int.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "run/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/provenance.h"
#include "run/engine.h"
#include "run/freshness.h"
#include "run/parts.h"
#include "run/progress.h"
#include "run/results.h"
#include "run/run_int.h"
#include "run/sidecar.h"
#include "trace/windows.h"

double run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void run_free_all(struct plan_all *a)
{
    if (a->inst)
        for (size_t i = 0; i < a->njobs * a->per_job; i++)
            model_out_free(a->inst[i].out);
    free(a->inst);
    free(a->jobs);
    for (size_t j = 0; a->info && j < a->njobs; j++)
        free(a->info[j].problem);
    free(a->info);
    free(a->rows);
    free(a->work);
    for (size_t w = 0; w < a->nwl; w++)
        windows_free(&a->wl[w]);
    free(a->wl);
    memset(a, 0, sizeof *a);
}

/* The jobs of c: every window of every workload (or one analytic job).
 * 0, or -1 with a message printed. */
static int list_jobs(const struct config *c, const struct run_options *o, struct plan_all *a)
{
    size_t cap = c->nworkloads ? c->nworkloads : 1;
    a->info = calloc(cap, sizeof *a->info);
    a->wl = calloc(cap, sizeof *a->wl);
    if (!a->info || !a->wl) {
        fprintf(stderr, "hwprof: out of memory\n");
        return -1;
    }
    if (!c->nworkloads) {
        a->info[0].workload = SIZE_MAX;
        a->info[0].nwindows = 1;
        a->info[0].weight = 1;
        a->njobs = 1;
        return 0;
    }
    for (size_t w = 0; w < c->nworkloads; w++) {
        struct window_list *wl = &a->wl[w];
        char err[1600];
        int rc = windows_list(o->traces_dir, c->workloads[w], wl, err, sizeof err);
        a->nwl = w + 1;
        if (rc != 0) {
            fprintf(stderr, "hwprof: %s (workload '%s')\n", err, c->workloads[w]);
            return -1;
        }
        int count = wl->n ? wl->n : 1; /* a missing trace is one job that reports it */
        if (a->njobs + (size_t)count > cap) {
            size_t ncap = 2 * cap + (size_t)count;
            struct job_info *ni = realloc(a->info, ncap * sizeof *ni);
            if (!ni) {
                fprintf(stderr, "hwprof: out of memory\n");
                return -1;
            }
            a->info = ni;
            cap = ncap;
        }
        for (int k = 0; k < count; k++) {
            struct job_info *ji = &a->info[a->njobs++];
            memset(ji, 0, sizeof *ji);
            ji->workload = w;
            ji->slot = k;
            ji->window = wl->w[k].index;
            ji->nwindows = count;
            ji->single = wl->w[k].single;
            ji->weight = 1;
            snprintf(ji->path, sizeof ji->path, "%s", wl->w[k].path);
        }
    }
    return 0;
}

/* Before any job runs: every trace of jobs [first, last) exists, is a
 * regular file with a valid header and agrees with its window list
 * (windows_check).  Marks the jobs whose trace is unusable (the message in
 * their `problem`, for run_report_traces) and returns their count. */
size_t run_check_traces(struct plan_all *a, size_t first, size_t last)
{
    size_t bad = 0;
    for (size_t j = first; j < last; j++) {
        struct job_info *ji = &a->info[j];
        if (ji->workload == SIZE_MAX)
            continue;
        char err[4200];
        int rc = windows_check(&a->wl[ji->workload], ji->slot, err, sizeof err);
        if (rc != 0) {
            ji->unusable = rc == -2 ? 2 : 1;
            ji->problem = strdup(err);
            bad++;
        }
    }
    return bad;
}

/* The problems run_check_traces found, one message each, after a warning for
 * every window list that leaves out a .w<K>.trace file. */
void run_report_traces(const struct run_options *o, const struct plan_all *a)
{
    for (size_t w = 0; w < a->nwl && !o->quiet; w++)
        if (a->wl[w].unlisted)
            fprintf(stderr, "hwprof: warning: %s%s is not listed in %s: ignored\n", a->wl[w].unlisted_path,
                    a->wl[w].unlisted > 1 ? " (and other .w<K>.trace files)" : "", a->wl[w].list);
    for (size_t j = 0; j < a->njobs; j++)
        if (a->info[j].unusable)
            fprintf(stderr, "hwprof: %s\n", a->info[j].problem ? a->info[j].problem : "out of memory");
}

/* Before any job runs: files can be created where the results and the
 * parts go.  0, or 1 with one message naming the path. */
int run_check_outputs(const struct config *c, const struct run_options *o, const char *what)
{
    char dirs[2][1300], err[2800];
    snprintf(dirs[0], sizeof dirs[0], "%s/%s", o->out_dir, c->paper);
    parts_dir(c, o->out_dir, dirs[1], sizeof dirs[1]);
    for (int i = 0; i < 2; i++)
        if (outfile_check_dir(dirs[i], err, sizeof err) != 0) {
            fprintf(stderr, "hwprof: %s: cannot write the results: %s (%s)\n", c->path, err, what);
            return 1;
        }
    return 0;
}

/* The engine jobs and instances of the jobs listed: 0, or -1 (out of memory). */
static int build_insts(const struct config *c, const struct run_options *o, struct plan_all *a)
{
    for (size_t r = 0; r < c->nruns; r++)
        a->per_job += c->runs[r].npoints;
    size_t n = a->njobs * a->per_job;
    a->jobs = calloc(a->njobs, sizeof *a->jobs);
    a->inst = calloc(n ? n : 1, sizeof *a->inst);
    a->rows = calloc(n ? n : 1, sizeof *a->rows);
    a->work = calloc(a->njobs, sizeof *a->work);
    if (!a->jobs || !a->inst || !a->rows || !a->work)
        return -1;
    for (size_t j = 0; j < a->njobs; j++) {
        struct engine_job *job = &a->jobs[j];
        const struct job_info *ji = &a->info[j];
        if (ji->workload != SIZE_MAX) {
            job->trace_path = ji->path;
            job->expect_workload = c->workloads[ji->workload];
        }
        job->inst = a->inst + j * a->per_job;
        job->ninst = a->per_job;
        job->max_events = o->max_events;
        size_t k = 0;
        double cost = 1; /* decoding */
        for (size_t r = 0; r < c->nruns; r++) {
            const struct run_spec *rs = &c->runs[r];
            for (size_t p = 0; p < rs->npoints; p++, k++) {
                struct engine_inst *in = &job->inst[k];
                in->m = rs->model;
                config_point(rs, p, &in->pv);
                in->wanted_tables = rs->wanted_tables;
                in->out = model_out_create(rs->model, rs->wanted_tables);
                if (!in->out)
                    return -1;
                struct result_row *row = &a->rows[j * a->per_job + k];
                row->workload = ji->workload;
                row->window = ji->window;
                row->weight = 1;
                row->run = r;
                row->point = p;
                row->pv = in->pv;
                row->out = in->out;
                cost += rs->model->cost > 0 ? rs->model->cost : 1;
            }
        }
        struct stat st;
        double bytes = job->trace_path && stat(job->trace_path, &st) == 0 ? (double)st.st_size : 1.0;
        a->work[j] = bytes * cost;
        job->work = a->work[j];
    }
    return 0;
}

/* 0, or -1 with a message printed. */
int run_build_all(const struct config *c, const struct run_options *o, struct plan_all *a)
{
    memset(a, 0, sizeof *a);
    if (list_jobs(c, o, a) != 0)
        return -1;
    if (build_insts(c, o, a) != 0) {
        fprintf(stderr, "hwprof: out of memory\n");
        return -1;
    }
    return 0;
}

/* The SimPoint weight of a window, from its trace's metadata (1 when the
 * trace records none: equal weights). */
double run_window_weight(const struct engine_job *j)
{
    const char *v = j->trace_path ? trace_meta_get(&j->th, "window.weight") : NULL;
    if (!v)
        return 1;
    char *end;
    double w = strtod(v, &end);
    return *end || !(w >= 0) ? 1 : w;
}

int run_dry(const struct config *c, const struct run_options *o, FILE *f)
{
    size_t points = 0;
    for (size_t r = 0; r < c->nruns; r++)
        points += c->runs[r].npoints;
    struct plan_all a;
    memset(&a, 0, sizeof a);
    if (list_jobs(c, o, &a) != 0) {
        run_free_all(&a);
        return 1;
    }
    size_t bad = run_check_traces(&a, 0, a.njobs);
    fprintf(f, "%s: %zu job%s (workload windows) x %zu sweep point%s = %zu instances -> %s/%s/%s.csv\n", c->path,
            a.njobs, a.njobs == 1 ? "" : "s", points, points == 1 ? "" : "s", a.njobs * points, o->out_dir, c->paper,
            c->stem);
    for (size_t j = 0; j < a.njobs; j++) {
        if (a.info[j].workload == SIZE_MAX) {
            fprintf(f, "  job %zu: analytic (no trace)\n", j);
            continue;
        }
        struct stat st;
        if (a.info[j].unusable == 2)
            fprintf(f, "  job %zu: %s (missing: run `make traces`)\n", j, a.info[j].path);
        else if (a.info[j].unusable || stat(a.info[j].path, &st) != 0)
            fprintf(f, "  job %zu: %s (unusable)\n", j, a.info[j].path);
        else
            fprintf(f, "  job %zu: %s (%.1f MB)\n", j, a.info[j].path, (double)st.st_size / 1e6);
    }
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        fprintf(f, "  run '%s' (model %s): %zu point%s\n", rs->label, rs->model->name, rs->npoints,
                rs->npoints == 1 ? "" : "s");
        for (size_t p = 0; p < rs->npoints; p++) {
            struct param_values pv;
            config_point(rs, p, &pv);
            fprintf(f, "    %zu:", p);
            if (!rs->naxes)
                fprintf(f, " (fixed parameters)");
            for (size_t ax = 0; ax < rs->naxes; ax++) {
                char v[128];
                pv_format(&pv, rs->axes[ax].param, v, sizeof v);
                fprintf(f, " %s=%s", rs->model->params[rs->axes[ax].param].name, v);
            }
            fputc('\n', f);
        }
    }
    /* What a run would refuse before its first job, on stderr after the
     * listing (which stays first when both go to one pipe). */
    fflush(f);
    run_report_traces(o, &a);
    int bad_out = run_check_outputs(c, o, "a run would fail");
    run_free_all(&a);
    return bad || bad_out ? 1 : 0;
}

/* Print each distinct failure once, naming the run and point it is about. */
static void report_failures(const struct config *c, const struct plan_all *a)
{
    for (size_t i = 0; i < a->njobs; i++) {
        const struct engine_job *j = &a->jobs[i];
        if (!j->failed)
            continue;
        char msg[4200];
        if (j->err_inst != SIZE_MAX) {
            const struct result_row *row = &a->rows[i * a->per_job + j->err_inst];
            snprintf(msg, sizeof msg, "%s: run '%s' point %zu%s%s: %s", c->path, c->runs[row->run].label, row->point,
                     j->trace_path ? " on " : "", j->trace_path ? j->trace_path : "", j->err);
        } else {
            if (j->trace_path && j->expect_workload && strstr(j->err, "cannot open"))
                snprintf(msg, sizeof msg, "%s (workload '%s'; run `make traces` to capture it)", j->err,
                         j->expect_workload);
            else
                snprintf(msg, sizeof msg, "%s", j->err);
        }
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = a->jobs[k].failed && !strcmp(a->jobs[k].err, j->err) && a->jobs[k].err_inst == j->err_inst;
        if (!seen)
            fprintf(stderr, "hwprof: %s\n", msg);
    }
}

/* Traces of one config made from different program or library versions,
 * CPU levels or tracer versions are not comparable: say which and how. */
void run_warn_mixed_versions(const struct config *c, const struct plan_all *a, const struct run_options *o)
{
    if (o->quiet)
        return;
    static const char *const keys[] = { "cpu.level", "tracegen.version", "libc.version" };
    const struct engine_job *first = NULL;
    for (size_t j = 0; j < a->njobs; j++) {
        const struct engine_job *jb = &a->jobs[j];
        if (!jb->trace_path || (jb->skip && !jb->th.events))
            continue;
        if (!first) {
            first = jb;
            continue;
        }
        for (int k = 0; k < 3; k++) {
            const char *x = trace_meta_get(&first->th, keys[k]), *y = trace_meta_get(&jb->th, keys[k]);
            if (x && y && strcmp(x, y) != 0)
                fprintf(stderr, "hwprof: warning: %s: %s is %s in %s but %s in %s\n", c->name, keys[k], x,
                        first->trace_path, y, jb->trace_path);
        }
        /* packages: "pkg=version pkg=version ...": the same package at two versions */
        const char *px = trace_meta_get(&first->th, "packages"), *py = trace_meta_get(&jb->th, "packages");
        if (!px || !py)
            continue;
        char bx[4096];
        snprintf(bx, sizeof bx, "%s", px);
        for (char *save = NULL, *tok = strtok_r(bx, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(tok, '=');
            if (!eq)
                continue;
            *eq = '\0';
            const char *ver = eq + 1;
            size_t nl = strlen(tok);
            for (const char *p = py; (p = strstr(p, tok)) != NULL; p += nl)
                if ((p == py || p[-1] == ' ') && p[nl] == '=') {
                    const char *v2 = p + nl + 1;
                    size_t l2 = strcspn(v2, " ");
                    if (strlen(ver) != l2 || strncmp(ver, v2, l2) != 0)
                        fprintf(stderr, "hwprof: warning: %s: package %s is %s in %s but %.*s in %s\n", c->name, tok,
                                ver, first->trace_path, (int)l2, v2, jb->trace_path);
                    break;
                }
        }
    }
}

/* The part identity of job j. */
void run_part_id(const struct config *c, const struct plan_all *a, size_t j, struct part_id *id)
{
    const struct job_info *ji = &a->info[j];
    id->job = j;
    id->workload = ji->workload == SIZE_MAX ? NULL : c->workloads[ji->workload];
    id->window = ji->window;
    id->trace_path = ji->workload == SIZE_MAX ? NULL : ji->path;
    id->trace_sha256 = ji->sha256;
}

/* Fill each job's trace SHA-256 from the inputs object. */
static void job_shas(const struct config *c, struct plan_all *a, const json_t *inputs)
{
    const json_t *traces = inputs ? json_object_get(inputs, "traces") : NULL;
    for (size_t j = 0; j < a->njobs; j++) {
        struct job_info *ji = &a->info[j];
        ji->sha256[0] = '\0';
        if (ji->workload == SIZE_MAX || !traces)
            continue;
        char key[128];
        if (ji->single)
            snprintf(key, sizeof key, "%s", c->workloads[ji->workload]);
        else
            snprintf(key, sizeof key, "%s.w%d", c->workloads[ji->workload], ji->window);
        const json_t *v = json_object_get(traces, key);
        if (json_is_string(v))
            snprintf(ji->sha256, sizeof ji->sha256, "%s", json_string_value(v));
    }
}

struct done_ctx {
    const struct config *c;
    struct plan_all *a;
    const json_t *inputs;
    char dir[1300];
    _Atomic int failed;
};

/* Engine callback: a finished job leaves its part (resume, shards). */
static void on_job_done(struct engine_job *j, void *arg)
{
    struct done_ctx *d = arg;
    size_t idx = (size_t)(j - d->a->jobs);
    d->a->info[idx].weight = run_window_weight(j);
    struct part_id id;
    run_part_id(d->c, d->a, idx, &id);
    if (parts_write_job(d->dir, &id, d->inputs, j, d->a->info[idx].weight) != 0)
        atomic_store(&d->failed, 1);
}

/* The files of a result, in the order they are written: the tables, the
 * windows CSV, the main CSV, the sidecar (which records the SHA-256 of every
 * CSV before it) and the run record. */
enum out_kind { OUT_TABLE, OUT_WINDOWS, OUT_MAIN, OUT_SIDECAR, OUT_RUN };
/* <stem>.<table>.csv, <stem>.windows.csv, <stem>.csv, <stem>.json, <stem>.run.json */
static const char *const out_suffix[] = {
    [OUT_TABLE] = ".csv", [OUT_WINDOWS] = ".windows.csv", [OUT_MAIN] = ".csv", [OUT_SIDECAR] = ".json",
    [OUT_RUN] = ".run.json",
};
struct output {
    enum out_kind kind;
    const char *table; /* OUT_TABLE: its name */
    struct outfile file;
};
#define MAX_OUTPUTS (CONFIG_MAX_TABLES + 5) /* series, tables, windows, main, sidecar, run record */

/* {"<stem>.csv": sha256, ...} of the CSVs out[0..n), each as it will be in
 * place: by file name, so that the same result in another folder has the
 * same sidecar.  NULL (printed) when one cannot be read back. */
static json_t *csv_hashes(const struct output *out, size_t n)
{
    json_t *hashes = json_object();
    for (size_t i = 0; i < n; i++) {
        const struct outfile *f = &out[i].file;
        char hex[65];
        const char *name = strrchr(f->final, '/');
        name = name ? name + 1 : f->final;
        if (prov_file_sha256_nocache(f->tmp, hex) != 0) {
            fprintf(stderr, "hwprof: cannot read back %s: %s\n", f->tmp, strerror(errno));
            json_decref(hashes);
            return NULL;
        }
        json_object_set_new(hashes, name, json_string(hex));
    }
    return hashes;
}

struct out_ctx {
    const struct config *c;
    const struct run_options *o;
    const struct plan_all *a;
    json_t *inputs;
    double t0;
    int plan_configs;
    const struct result_set *rs;
};

/* The content of output k (out[0..k) are written and closed).  0, or -1. */
static int write_output(const struct out_ctx *w, const struct output *out, size_t k, FILE *f)
{
    switch (out[k].kind) {
    case OUT_TABLE:
        return results_write_table(w->rs, out[k].table, f) < 0 ? -1 : 0;
    case OUT_WINDOWS:
        return results_write_windows_csv(w->rs, f) != 0 ? -1 : 0;
    case OUT_MAIN:
        return results_write_csv(w->rs, f) != 0 ? -1 : 0;
    case OUT_SIDECAR: {
        json_t *hashes = csv_hashes(out, k);
        if (!hashes)
            return -1;
        int rc = sidecar_write(w->c, w->a->jobs, w->a->njobs, w->inputs, hashes, f);
        json_decref(hashes);
        return rc != 0 ? -1 : 0;
    }
    case OUT_RUN:
        return sidecar_write_run(w->c, w->o, w->a->jobs, w->a->njobs, run_now() - w->t0, w->plan_configs, f) != 0 ? -1 : 0;
    }
    return -1;
}

/* Write every output of c from the jobs' results: each to its temporary
 * (outfile.h), in the order of struct output, so that the sidecar can record
 * the SHA-256 of each CSV as it will be in place; then rename them into
 * place, the main CSV last. */
int run_write_outputs(const struct config *c, const struct run_options *o, struct plan_all *a, json_t *inputs,
                      double t0, int plan_configs)
{
    for (size_t j = 0; j < a->njobs; j++)
        for (size_t k = 0; k < a->per_job; k++)
            a->rows[j * a->per_job + k].weight = a->info[j].weight;
    struct result_set rs = { c, a->rows, a->njobs * a->per_job, a->per_job };
    struct out_ctx w = { c, o, a, inputs, t0, plan_configs, &rs };
    char base[1200];
    snprintf(base, sizeof base, "%s/%s/%s", o->out_dir, c->paper, c->stem);
    struct output out[MAX_OUTPUTS];
    size_t n = 0;
    if (c->series && results_has_table(c, "series"))
        out[n++] = (struct output){ .kind = OUT_TABLE, .table = "series" };
    for (size_t t = 0; t < c->ntables; t++)
        out[n++] = (struct output){ .kind = OUT_TABLE, .table = c->tables[t] };
    if (c->nworkloads)
        out[n++] = (struct output){ .kind = OUT_WINDOWS };
    size_t main_csv = n;
    out[n++] = (struct output){ .kind = OUT_MAIN };
    out[n++] = (struct output){ .kind = OUT_SIDECAR };
    out[n++] = (struct output){ .kind = OUT_RUN };

    int rc = 0;
    size_t opened = 0;
    char path[1400];
    for (size_t k = 0; k < n && rc == 0; k++) {
        const char *table = out[k].table;
        snprintf(path, sizeof path, "%s%s%s%s", base, table ? "." : "", table ? table : "", out_suffix[out[k].kind]);
        opened = k + 1;
        FILE *f = outfile_open(&out[k].file, path);
        if (!f || write_output(&w, out, k, f) != 0 || outfile_close(&out[k].file) != 0)
            rc = 1;
    }
    /* The main CSV is what make and --if-changed take as "this result is
     * done": remove the old one before renaming the new files in, so that a
     * run killed between two renames leaves no CSV beside a new sidecar
     * (which --if-changed would otherwise take as current). */
    if (rc == 0 && unlink(out[main_csv].file.final) != 0 && errno != ENOENT) {
        fprintf(stderr, "hwprof: cannot replace %s: %s\n", out[main_csv].file.final, strerror(errno));
        rc = 1;
    }
    /* renamed in list order, the main CSV last */
    struct outfile order[MAX_OUTPUTS];
    size_t norder = 0;
    for (size_t k = 0; k < opened; k++)
        if (k != main_csv)
            order[norder++] = out[k].file;
    if (main_csv < opened)
        order[norder++] = out[main_csv].file;
    if (rc == 0)
        rc = outfile_commit(order, norder) != 0;
    else
        outfile_discard(order, norder);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "%s: wrote %s.csv (%.1fs)\n", c->name, base, run_now() - t0);
    return rc;
}

/* Jobs of shard `shard` of `n`: [first, last). */
void run_shard_range(size_t njobs, int shard, int n, size_t *first, size_t *last)
{
    *first = njobs * (size_t)shard / (size_t)n;
    *last = njobs * (size_t)(shard + 1) / (size_t)n;
}

/* The start of a run or a merge: with --if-changed, a current result is
 * said (unless quiet, with `note` after it) and 1 returned: nothing to do.
 * Else the jobs and instances of c with their trace SHA-256s: 0, or -1
 * (printed). */
int run_prepare(const struct config *c, const struct run_options *o, const json_t *inputs, const char *note,
                struct plan_all *a)
{
    if (o->if_changed && freshness_current(c, o, inputs)) {
        if (!o->quiet)
            fprintf(stderr, "%s: up to date (%s/%s/%s.csv)%s\n", c->name, o->out_dir, c->paper, c->stem, note);
        return 1;
    }
    if (run_build_all(c, o, a) != 0) {
        run_free_all(a);
        return -1;
    }
    job_shas(c, a, inputs);
    return 0;
}

size_t run_resume(const struct config *c, const struct run_options *o, struct plan_all *a, const json_t *inputs,
                  const char *dir, size_t first, size_t last)
{
    size_t resumed = 0;
    for (size_t j = 0; j < a->njobs; j++) {
        if (j < first || j >= last) {
            a->jobs[j].skip = 1;
            continue;
        }
        if (!inputs || o->no_resume)
            continue;
        struct part_id id;
        run_part_id(c, a, j, &id);
        char why[1600];
        int r = parts_load_job(dir, &id, inputs, &a->jobs[j], &a->info[j].weight, why, sizeof why);
        if (r == 1) {
            a->jobs[j].skip = 1;
            resumed++;
        } else if (why[0] && !o->quiet) {
            fprintf(stderr, "%s: not resuming from a part: %s\n", c->name, why);
        }
        if (r != 1) { /* outputs half filled by a damaged part: start clean */
            for (size_t k = 0; k < a->per_job; k++) {
                struct engine_inst *in = &a->jobs[j].inst[k];
                model_out_free(in->out);
                in->out = model_out_create(in->m, in->wanted_tables);
                a->rows[j * a->per_job + k].out = in->out;
                if (!in->out) {
                    fprintf(stderr, "hwprof: out of memory\n");
                    return SIZE_MAX;
                }
            }
        }
    }
    if (resumed && !o->quiet)
        fprintf(stderr, "%s: %zu of %zu job%s already done (parts in %s)\n", c->name, resumed, last - first,
                last - first == 1 ? "" : "s", dir);
    return resumed;
}

int run_config(const struct config *c, const struct run_options *o)
{
    double t0 = run_now();
    json_t *inputs = freshness_inputs(c, o);
    int sharded = o->nshards > 0;
    /* A shard of a current result has nothing to do either (cluster/: every
     * shard of every config is submitted before the traces exist). */
    struct plan_all a;
    int p = run_prepare(c, o, inputs, sharded ? ": shard not run" : "", &a);
    if (p != 0) {
        json_decref(inputs);
        return p < 0;
    }
    struct done_ctx dc = { .c = c, .a = &a, .inputs = inputs };
    parts_dir(c, o->out_dir, dc.dir, sizeof dc.dir);
    atomic_init(&dc.failed, 0);
    size_t first = 0, last = a.njobs;
    if (sharded)
        run_shard_range(a.njobs, o->shard, o->nshards, &first, &last);
    /* Fail fast: every trace to run and every output folder is checked
     * before the first job (not once per job after all have run). */
    size_t bad = run_check_traces(&a, first, last);
    run_report_traces(o, &a);
    if (run_check_outputs(c, o, "nothing run") != 0 || bad) {
        run_free_all(&a);
        json_decref(inputs);
        return 1;
    }
    /* Jobs outside the shard are not ours; finished jobs (parts) are kept. */
    if (run_resume(c, o, &a, inputs, dc.dir, first, last) == SIZE_MAX) {
        run_free_all(&a);
        json_decref(inputs);
        return 1;
    }
    struct engine_options eo = { o->threads > 0 ? o->threads : engine_default_threads(), o->max_lanes, FILTER_AUTO,
                                 inputs ? on_job_done : NULL, &dc };
    struct progress *pr = progress_start(c->name, a.jobs, a.njobs, a.work, o->quiet, o->progress_interval);
    size_t failed = engine_run(a.jobs, a.njobs, &eo);
    progress_stop(pr);
    int rc = 0;
    if (!failed)
        run_warn_mixed_versions(c, &a, o);
    if (failed) {
        report_failures(c, &a);
        rc = 1;
    } else if (atomic_load(&dc.failed)) {
        fprintf(stderr, "hwprof: %s: cannot write the parts in %s\n", c->name, dc.dir);
        rc = 1;
    } else if (sharded) {
        rc = parts_write_shard_done(dc.dir, o->shard, o->nshards, first, last - first) != 0;
        if (rc == 0 && !o->quiet)
            fprintf(stderr, "%s: shard %d/%d done (jobs %zu..%zu of %zu) in %s\n", c->name, o->shard, o->nshards,
                    first, last, a.njobs, dc.dir);
    } else {
        rc = run_write_outputs(c, o, &a, inputs, t0, 1);
        if (rc == 0)
            parts_remove(dc.dir);
    }
    run_free_all(&a);
    json_decref(inputs);
    return rc;
}

int merge_config(const struct config *c, const struct run_options *o)
{
    double t0 = run_now();
    json_t *inputs = freshness_inputs(c, o);
    if (!inputs) {
        fprintf(stderr, "hwprof merge: %s: a trace of the config is missing: the shards cannot be checked\n", c->path);
        return 1;
    }
    struct plan_all a;
    int p = run_prepare(c, o, inputs, ": nothing to merge", &a);
    if (p != 0) {
        json_decref(inputs);
        return p < 0;
    }
    if (run_check_outputs(c, o, "nothing merged") != 0) {
        run_free_all(&a);
        json_decref(inputs);
        return 1;
    }
    char dir[1300];
    parts_dir(c, o->out_dir, dir, sizeof dir);
    size_t missing = 0, bad = 0;
    for (size_t j = 0; j < a.njobs; j++) {
        struct part_id id;
        run_part_id(c, &a, j, &id);
        char why[1600];
        int r = parts_load_job(dir, &id, inputs, &a.jobs[j], &a.info[j].weight, why, sizeof why);
        if (r == 1)
            continue;
        if (!why[0]) {
            char shard[64] = "";
            for (int sh = 0; sh < o->nshards; sh++) {
                size_t f, l;
                run_shard_range(a.njobs, sh, o->nshards, &f, &l);
                if (j >= f && j < l)
                    snprintf(shard, sizeof shard, ", shard %d/%d", sh, o->nshards);
            }
            if (missing++ < 20)
                fprintf(stderr, "hwprof merge: %s: job %zu (%s%s) has no part: run its shard again\n", c->path, j,
                        a.info[j].workload == SIZE_MAX ? "analytic" : a.info[j].path, shard);
        } else {
            bad++;
            fprintf(stderr, "hwprof merge: %s\n", why);
        }
    }
    int rc = 1;
    if (missing || bad)
        fprintf(stderr, "hwprof merge: %s: %zu of %zu jobs missing, %zu from another config, build or trace: "
                        "nothing written\n",
                c->path, missing, a.njobs, bad);
    else if ((rc = run_write_outputs(c, o, &a, inputs, t0, 1)) == 0)
        parts_remove(dir);
    run_free_all(&a);
    json_decref(inputs);
    return rc;
}
