/* results.c - main CSV and model-table CSVs (see results.h). */
#include "run/results.h"

#include "core/csv.h"

#include "core/winstats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A growable list of distinct names, in order of first appearance. */
struct names {
    const char **v;
    size_t n, cap;
};

static int names_add(struct names *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], name) == 0)
            return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        const char **nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = name;
    return 0;
}

static int param_columns(const struct config *c, struct names *params)
{
    for (size_t r = 0; r < c->nruns; r++)
        for (const struct param_spec *ps = c->runs[r].model->params; ps && ps->name; ps++)
            if (names_add(params, ps->name) != 0)
                return -1;
    return 0;
}

enum { NO_WINDOW = 0, WINDOW = 1, WINDOW_WEIGHT = 2 };

/* workload[,window[,weight]],run,model,<parameters> */
static void put_prefix(FILE *f, const struct result_set *rs, const struct result_row *row, const struct names *params,
                       int window, double weight)
{
    const struct config *c = rs->c;
    const struct run_spec *run = &c->runs[row->run];
    csv_put_field(f, row->workload == SIZE_MAX ? "-" : c->workloads[row->workload]);
    fputc(',', f);
    if (window != NO_WINDOW)
        fprintf(f, "%d,", row->window);
    if (window == WINDOW_WEIGHT)
        fprintf(f, "%.10g,", weight);
    csv_put_field(f, run->label);
    fputc(',', f);
    csv_put_field(f, run->model->name);
    for (size_t p = 0; p < params->n; p++) {
        size_t idx;
        fputc(',', f);
        if (params_find(run->model->params, params->v[p], &idx)) {
            char buf[128];
            pv_format(&row->pv, idx, buf, sizeof buf);
            csv_put_field(f, buf);
        }
    }
}

/* Metric columns of the config and, per run, each column's index in the
 * run's model (SIZE_MAX: none). */
static int metric_columns(const struct config *c, struct names *metrics, size_t **idx)
{
    int rc = 0;
    if (c->nmetrics) {
        for (size_t i = 0; i < c->nmetrics && rc == 0; i++)
            rc = names_add(metrics, c->metrics[i]);
    } else {
        for (size_t r = 0; r < c->nruns && rc == 0; r++)
            for (const struct metric_spec *m = c->runs[r].model->metrics; m->name && rc == 0; m++)
                rc = names_add(metrics, m->name);
    }
    *idx = rc == 0 ? calloc(c->nruns * (metrics->n ? metrics->n : 1), sizeof **idx) : NULL;
    if (!*idx)
        return -1;
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t k = 0; k < metrics->n; k++) {
            (*idx)[r * metrics->n + k] = SIZE_MAX;
            const struct metric_spec *ms = c->runs[r].model->metrics;
            for (size_t i = 0; ms[i].name; i++)
                if (!strcmp(ms[i].name, metrics->v[k])) {
                    (*idx)[r * metrics->n + k] = i;
                    break;
                }
        }
    return 0;
}

/* Parameter and metric columns of a writer: 0, or -1 (message printed). */
struct columns {
    struct names params, metrics;
    size_t *idx; /* run x metric column -> the run's metric index (SIZE_MAX: none) */
};

static int columns_init(const struct config *c, struct columns *cols)
{
    memset(cols, 0, sizeof *cols);
    if (param_columns(c, &cols->params) == 0 && metric_columns(c, &cols->metrics, &cols->idx) == 0)
        return 0;
    free(cols->params.v);
    free(cols->metrics.v);
    fprintf(stderr, "hwprof: out of memory\n");
    return -1;
}

static void columns_free(struct columns *cols)
{
    free(cols->idx);
    free(cols->params.v);
    free(cols->metrics.v);
}

/* "<lead>,<parameters>" */
static void put_header(FILE *f, const char *lead, const struct columns *cols)
{
    fputs(lead, f);
    for (size_t p = 0; p < cols->params.n; p++)
        fprintf(f, ",%s", cols->params.v[p]);
}

/* The jobs [first, first + n) holding the windows of the workload of job j. */
static void workload_jobs(const struct result_set *rs, size_t j, size_t *first, size_t *n)
{
    size_t njobs = rs->per_job ? rs->nrows / rs->per_job : 0;
    size_t w = rs->rows[j * rs->per_job].workload;
    size_t a = j, b = j + 1;
    while (a > 0 && rs->rows[(a - 1) * rs->per_job].workload == w)
        a--;
    while (b < njobs && rs->rows[b * rs->per_job].workload == w)
        b++;
    *first = a;
    *n = b - a;
}

static double normalised_weight(const struct result_set *rs, size_t j, size_t k)
{
    size_t first, n;
    workload_jobs(rs, j, &first, &n);
    double sum = 0;
    for (size_t q = first; q < first + n; q++)
        sum += rs->rows[q * rs->per_job + k].weight;
    return sum > 0 ? rs->rows[j * rs->per_job + k].weight / sum : 1.0 / (double)n;
}

int results_write_csv(const struct result_set *rs, FILE *f)
{
    struct columns cols;
    if (columns_init(rs->c, &cols) != 0)
        return -1;
    const struct names *params = &cols.params, *metrics = &cols.metrics;
    const size_t *idx = cols.idx;
    put_header(f, "workload,run,model", &cols);
    fputs(",windows", f);
    for (size_t m = 0; m < metrics->n; m++)
        fprintf(f, ",%s,%s_min,%s_max,%s_lo,%s_hi", metrics->v[m], metrics->v[m], metrics->v[m], metrics->v[m],
                metrics->v[m]);
    fputc('\n', f);
    size_t njobs = rs->per_job ? rs->nrows / rs->per_job : 0;
    double *x = NULL, *w = NULL;
    int rc = 0;
    for (size_t j = 0; j < njobs && rc == 0;) {
        size_t first, nwin;
        workload_jobs(rs, j, &first, &nwin);
        free(x);
        free(w);
        x = malloc(nwin * sizeof *x);
        w = malloc(nwin * sizeof *w);
        if (!x || !w) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < rs->per_job; k++) {
            const struct result_row *row = &rs->rows[first * rs->per_job + k];
            put_prefix(f, rs, row, params, NO_WINDOW, 0);
            fprintf(f, ",%zu", nwin);
            for (size_t q = 0; q < nwin; q++)
                w[q] = rs->rows[(first + q) * rs->per_job + k].weight;
            for (size_t m = 0; m < metrics->n; m++) {
                size_t mi = idx[row->run * metrics->n + m];
                if (mi == SIZE_MAX) {
                    fputs(",,,,,", f);
                    continue;
                }
                for (size_t q = 0; q < nwin; q++)
                    x[q] = model_out_metric(rs->rows[(first + q) * rs->per_job + k].out, mi);
                struct winstats st;
                winstats_compute(x, w, nwin, &st);
                const double v[5] = { st.mean, st.min, st.max, st.lo, st.hi };
                for (int t = 0; t < 5; t++) {
                    fputc(',', f);
                    csv_put_number(f, v[t]);
                }
            }
            fputc('\n', f);
        }
        j = first + nwin;
    }
    free(x);
    free(w);
    columns_free(&cols);
    return rc;
}

int results_write_windows_csv(const struct result_set *rs, FILE *f)
{
    struct columns cols;
    if (columns_init(rs->c, &cols) != 0)
        return -1;
    const struct names *params = &cols.params, *metrics = &cols.metrics;
    const size_t *idx = cols.idx;
    put_header(f, "workload,window,weight,run,model", &cols);
    for (size_t m = 0; m < metrics->n; m++)
        fprintf(f, ",%s", metrics->v[m]);
    fputc('\n', f);
    for (size_t i = 0; i < rs->nrows; i++) {
        const struct result_row *row = &rs->rows[i];
        put_prefix(f, rs, row, params, WINDOW_WEIGHT, normalised_weight(rs, i / rs->per_job, i % rs->per_job));
        for (size_t m = 0; m < metrics->n; m++) {
            fputc(',', f);
            size_t k = idx[row->run * metrics->n + m];
            if (k != SIZE_MAX)
                csv_put_number(f, model_out_metric(row->out, k));
        }
        fputc('\n', f);
    }
    columns_free(&cols);
    return 0;
}

int results_has_table(const struct config *c, const char *name)
{
    for (size_t r = 0; r < c->nruns; r++)
        for (const struct table_spec *t = c->runs[r].model->tables; t && t->name; t++)
            if (!strcmp(t->name, name))
                return 1;
    return 0;
}

static void put_cell(FILE *f, enum col_type type, const union cell *v)
{
    switch (type) {
    case COL_REAL:
        csv_put_number(f, v->r);
        break;
    case COL_INT:
        fprintf(f, "%" PRId64, v->i);
        break;
    case COL_HEX:
        fprintf(f, "0x%" PRIx64, v->u);
        break;
    case COL_TEXT:
        csv_put_field(f, v->s ? v->s : "");
        break;
    }
}

int results_write_table(const struct result_set *rs, const char *name, FILE *f)
{
    const struct config *c = rs->c;
    if (!results_has_table(c, name))
        return 1;
    struct names params = { 0 }, cols = { 0 };
    int rc = param_columns(c, &params);
    /* per run: its table index, and column -> its column index */
    size_t *tindex = calloc(c->nruns, sizeof *tindex);
    for (size_t r = 0; r < c->nruns && rc == 0; r++) {
        tindex[r] = SIZE_MAX;
        const struct table_spec *t = c->runs[r].model->tables;
        for (size_t k = 0; t && t[k].name && tindex; k++)
            if (!strcmp(t[k].name, name)) {
                tindex[r] = k;
                for (const struct col_spec *cs = t[k].cols; cs->name && rc == 0; cs++)
                    rc = names_add(&cols, cs->name);
            }
    }
    size_t *cidx = tindex ? calloc(c->nruns * (cols.n ? cols.n : 1), sizeof *cidx) : NULL;
    if (rc != 0 || !tindex || !cidx) {
        free(params.v);
        free(cols.v);
        free(tindex);
        free(cidx);
        fprintf(stderr, "hwprof: out of memory\n");
        return -1;
    }
    for (size_t r = 0; r < c->nruns; r++)
        for (size_t k = 0; k < cols.n; k++) {
            cidx[r * cols.n + k] = SIZE_MAX;
            if (tindex[r] == SIZE_MAX)
                continue;
            const struct col_spec *cs = c->runs[r].model->tables[tindex[r]].cols;
            for (size_t i = 0; cs[i].name; i++)
                if (!strcmp(cs[i].name, cols.v[k])) {
                    cidx[r * cols.n + k] = i;
                    break;
                }
        }
    fputs("workload,window,run,model", f);
    for (size_t p = 0; p < params.n; p++)
        fprintf(f, ",%s", params.v[p]);
    for (size_t k = 0; k < cols.n; k++)
        fprintf(f, ",%s", cols.v[k]);
    fputc('\n', f);
    for (size_t i = 0; i < rs->nrows; i++) {
        const struct result_row *row = &rs->rows[i];
        size_t t = tindex[row->run];
        if (t == SIZE_MAX)
            continue;
        const struct col_spec *cs = c->runs[row->run].model->tables[t].cols;
        size_t nrows = model_out_rows(row->out, t);
        for (size_t rr = 0; rr < nrows; rr++) {
            const union cell *cells = model_out_row(row->out, t, rr);
            put_prefix(f, rs, row, &params, WINDOW, 0);
            for (size_t k = 0; k < cols.n; k++) {
                fputc(',', f);
                size_t ci = cidx[row->run * cols.n + k];
                if (ci != SIZE_MAX)
                    put_cell(f, cs[ci].type, &cells[ci]);
            }
            fputc('\n', f);
        }
    }
    free(params.v);
    free(cols.v);
    free(tindex);
    free(cidx);
    return 0;
}
