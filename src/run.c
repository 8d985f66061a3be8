/* run.c - one config from jobs to result files (see run.h).
 *
 * Jobs: one per workload (trace window), or one analytic job.  Instances:
 * every run x sweep point, in config order, for every job; the engine
 * shares stages among them and spreads them over threads.  Results are
 * collected in memory and written only when every job succeeded, through
 * temporaries renamed into place (outfile.h), the main CSV last.
 */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "engine.h"
#include "freshness.h"
#include "outfile.h"
#include "progress.h"
#include "results.h"
#include "sidecar.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct plan_all {
    struct engine_job *jobs;
    size_t njobs;
    struct engine_inst *inst;   /* njobs x per_job */
    size_t per_job;
    char (*paths)[1200];
    struct result_row *rows;
    double *work;
};

static void free_all(struct plan_all *a)
{
    if (a->inst)
        for (size_t i = 0; i < a->njobs * a->per_job; i++)
            model_out_free(a->inst[i].out);
    free(a->inst);
    free(a->jobs);
    free(a->paths);
    free(a->rows);
    free(a->work);
    memset(a, 0, sizeof *a);
}

static int build_all(const struct config *c, const struct run_options *o, struct plan_all *a)
{
    memset(a, 0, sizeof *a);
    a->njobs = c->nworkloads ? c->nworkloads : 1;
    for (size_t r = 0; r < c->nruns; r++)
        a->per_job += c->runs[r].npoints;
    size_t n = a->njobs * a->per_job;
    a->jobs = calloc(a->njobs, sizeof *a->jobs);
    a->inst = calloc(n ? n : 1, sizeof *a->inst);
    a->paths = calloc(a->njobs, sizeof *a->paths);
    a->rows = calloc(n ? n : 1, sizeof *a->rows);
    a->work = calloc(a->njobs, sizeof *a->work);
    if (!a->jobs || !a->inst || !a->paths || !a->rows || !a->work)
        return -1;
    for (size_t j = 0; j < a->njobs; j++) {
        struct engine_job *job = &a->jobs[j];
        if (c->nworkloads) {
            snprintf(a->paths[j], sizeof a->paths[j], "%s/%s.trace", o->traces_dir, c->workloads[j]);
            job->trace_path = a->paths[j];
            job->expect_workload = c->workloads[j];
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
                row->workload = c->nworkloads ? j : SIZE_MAX;
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
    }
    return 0;
}

void run_dry(const struct config *c, const struct run_options *o, FILE *f)
{
    size_t points = 0;
    for (size_t r = 0; r < c->nruns; r++)
        points += c->runs[r].npoints;
    size_t njobs = c->nworkloads ? c->nworkloads : 1;
    fprintf(f, "%s: %zu job%s x %zu sweep point%s = %zu instances -> %s/%s/%s.csv\n", c->path, njobs,
            njobs == 1 ? "" : "s", points, points == 1 ? "" : "s", njobs * points, o->out_dir, c->paper, c->stem);
    for (size_t j = 0; j < njobs; j++) {
        if (!c->nworkloads) {
            fprintf(f, "  job %zu: analytic (no trace)\n", j);
            continue;
        }
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.trace", o->traces_dir, c->workloads[j]);
        struct stat st;
        if (stat(path, &st) == 0)
            fprintf(f, "  job %zu: %s (%.1f MB)\n", j, path, (double)st.st_size / 1e6);
        else
            fprintf(f, "  job %zu: %s (missing: run `make traces`)\n", j, path);
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
            for (size_t a = 0; a < rs->naxes; a++) {
                char v[128];
                pv_format(&pv, rs->axes[a].param, v, sizeof v);
                fprintf(f, " %s=%s", rs->model->params[rs->axes[a].param].name, v);
            }
            fputc('\n', f);
        }
    }
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

int run_config(const struct config *c, const struct run_options *o)
{
    double t0 = now_s();
    json_t *inputs = freshness_inputs(c, o);
    if (o->if_changed && freshness_current(c, o, inputs)) {
        if (!o->quiet)
            fprintf(stderr, "%s: up to date (%s/%s/%s.csv)\n", c->name, o->out_dir, c->paper, c->stem);
        json_decref(inputs);
        return 0;
    }
    struct plan_all a;
    if (build_all(c, o, &a) != 0) {
        fprintf(stderr, "hwprof: out of memory\n");
        free_all(&a);
        json_decref(inputs);
        return 1;
    }
    struct engine_options eo = { o->threads > 0 ? o->threads : engine_default_threads(), o->max_lanes, FILTER_AUTO };
    struct progress *pr = progress_start(c->name, a.jobs, a.njobs, a.work, o->quiet, o->progress_interval);
    size_t failed = engine_run(a.jobs, a.njobs, &eo);
    progress_stop(pr);
    if (failed) {
        report_failures(c, &a);
        free_all(&a);
        json_decref(inputs);
        return 1;
    }
    struct result_set rs = { c, a.rows, a.njobs * a.per_job };
    char base[1200];
    snprintf(base, sizeof base, "%s/%s/%s", o->out_dir, c->paper, c->stem);
    /* outputs: tables (series first), sidecar, main CSV last */
    struct outfile out[CONFIG_MAX_TABLES + 3];
    size_t nout = 0;
    int rc = 0;
    const char *tables[CONFIG_MAX_TABLES + 1];
    size_t ntab = 0;
    if (c->series && results_has_table(c, "series"))
        tables[ntab++] = "series";
    for (size_t t = 0; t < c->ntables; t++)
        tables[ntab++] = c->tables[t];
    for (size_t t = 0; t < ntab && rc == 0; t++) {
        char path[1400];
        snprintf(path, sizeof path, "%s.%s.csv", base, tables[t]);
        FILE *f = outfile_open(&out[nout], path);
        nout++;
        if (!f || results_write_table(&rs, tables[t], f) < 0 || outfile_close(&out[nout - 1]) != 0)
            rc = 1;
    }
    if (rc == 0) {
        char path[1400];
        snprintf(path, sizeof path, "%s.json", base);
        FILE *f = outfile_open(&out[nout], path);
        nout++;
        if (!f || sidecar_write(c, o, a.jobs, a.njobs, inputs, now_s() - t0, f) != 0 || outfile_close(&out[nout - 1]) != 0)
            rc = 1;
    }
    if (rc == 0) {
        char path[1400];
        snprintf(path, sizeof path, "%s.csv", base);
        FILE *f = outfile_open(&out[nout], path);
        nout++;
        if (!f || results_write_csv(&rs, f) != 0 || outfile_close(&out[nout - 1]) != 0)
            rc = 1;
    }
    if (rc == 0)
        rc = outfile_commit(out, nout) != 0;
    else
        outfile_discard(out, nout);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "%s: wrote %s.csv (%.1fs)\n", c->name, base, now_s() - t0);
    free_all(&a);
    json_decref(inputs);
    return rc;
}
