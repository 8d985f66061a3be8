/* run.c - the sweep runner (see run.h).
 *
 * Parallelism: one job per workload; worker threads take jobs in order.
 * Each job opens the trace once, creates every model instance of the sweep,
 * and feeds each decoded batch to all of them (filtered per distinct event
 * mask once per batch, so a load-only model scans only loads).  Instances
 * whose models offer feed_group and agree on share_key (model.h) are fed as
 * one group, once per batch, so work they share (the multihash family's exact
 * profile) is done once.  Results are
 * collected in memory and written only when every job succeeded, through
 * temporary files renamed into place: a failed run leaves nothing that looks
 * like a result.  Output is a function of config and traces only (no timing
 * in the CSVs), so reruns are byte-identical. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "trace.h"

#define BATCH 8192
#define MAX_MASKS 8

struct series {
    size_t ncols;
    size_t rows, cap;
    double *data; /* rows x (1 + ncols): interval, values */
};

void series_row(struct series *s, uint64_t interval, const double *values)
{
    if (!s)
        return;
    if (s->rows == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 256;
        double *nd = realloc(s->data, ncap * (1 + s->ncols) * sizeof *nd);
        if (!nd) {
            fprintf(stderr, "hwprof: out of memory for series rows\n");
            abort();
        }
        s->data = nd;
        s->cap = ncap;
    }
    double *row = s->data + s->rows * (1 + s->ncols);
    row[0] = (double)interval;
    memcpy(row + 1, values, s->ncols * sizeof *values);
    s->rows++;
}

struct instance {
    size_t run;
    struct param_values pv;
    void *m;
    struct series series;
    double metrics[64];
    size_t nmetrics;
};

struct job {
    size_t workload;          /* index in config, or SIZE_MAX for analytic */
    struct instance *inst;
    size_t ninst;
    struct trace_header th;
    char trace_path[1200];
    char err[2200];
    int failed;
    _Atomic uint64_t bytes_done, bytes_total, events;
    _Atomic int state; /* 0 waiting, 1 running, 2 done */
};

struct shared {
    const struct config *c;
    const struct run_options *o;
    struct job *jobs;
    size_t njobs;
    _Atomic size_t next;
};

static size_t count_metrics(const struct model_ops *ops)
{
    size_t n = 0;
    while (ops->metrics && ops->metrics[n])
        n++;
    return n;
}
static size_t count_series(const struct model_ops *ops)
{
    size_t n = 0;
    while (ops->series_cols && ops->series_cols[n])
        n++;
    return n;
}

static int create_instances(const struct config *c, struct job *j)
{
    size_t total = 0;
    for (size_t r = 0; r < c->nruns; r++)
        total += c->runs[r].npoints;
    j->inst = calloc(total, sizeof *j->inst);
    if (!j->inst) {
        snprintf(j->err, sizeof j->err, "out of memory");
        return -1;
    }
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        for (size_t p = 0; p < rs->npoints; p++) {
            struct instance *in = &j->inst[j->ninst];
            in->run = r;
            config_point(rs, p, &in->pv);
            in->series.ncols = count_series(rs->ops);
            in->nmetrics = count_metrics(rs->ops);
            char err[512] = "";
            in->m = rs->ops->create(&in->pv, c->series && in->series.ncols ? &in->series : NULL, err, sizeof err);
            if (!in->m) {
                snprintf(j->err, sizeof j->err, "%s: run '%s' point %zu: %s", c->path, rs->label, p, err);
                return -1;
            }
            j->ninst++;
        }
    }
    return 0;
}

static void free_instances(const struct config *c, struct job *j)
{
    for (size_t i = 0; i < j->ninst; i++) {
        c->runs[j->inst[i].run].ops->free(j->inst[i].m);
        free(j->inst[i].series.data);
    }
    free(j->inst);
    j->inst = NULL;
}

static void finish_instances(const struct config *c, struct job *j)
{
    for (size_t i = 0; i < j->ninst; i++) {
        const struct model_ops *ops = c->runs[j->inst[i].run].ops;
        ops->finish(j->inst[i].m);
        for (size_t k = 0; k < j->inst[i].nmetrics; k++)
            j->inst[i].metrics[k] = NAN;
        ops->report(j->inst[i].m, j->inst[i].metrics);
    }
}

/* A unit of feeding: one instance (feed) or a group (feed_group). */
struct feed_unit {
    const struct model_ops *ops;
    size_t mask;   /* index into the filtered batches, or SIZE_MAX: whole batch */
    size_t first;  /* into members[] */
    size_t n;
};

/* Groups instances (model.h: share_key / feed_group).  members[] receives the
 * instance pointers unit by unit, in instance order; returns the number of
 * units, or 0 when out of memory. */
static size_t plan_units(const struct config *c, struct job *j, const size_t *inst_mask, struct feed_unit *units,
                         void **members)
{
    char (*keys)[160] = calloc(j->ninst, sizeof *keys); /* "" = does not share */
    size_t *unit_of = calloc(j->ninst, sizeof *unit_of);
    if (!keys || !unit_of) {
        free(keys);
        free(unit_of);
        return 0;
    }
    size_t nunits = 0;
    for (size_t i = 0; i < j->ninst; i++) {
        const struct model_ops *ops = c->runs[j->inst[i].run].ops;
        size_t u = SIZE_MAX;
        if (ops->feed_group && ops->share_key && ops->share_key(j->inst[i].m, keys[i], sizeof keys[i]) == 1 &&
            keys[i][0]) {
            for (size_t k = 0; k < i && u == SIZE_MAX; k++)
                if (keys[k][0] && c->runs[j->inst[k].run].ops->feed_group == ops->feed_group &&
                    inst_mask[k] == inst_mask[i] && strcmp(keys[k], keys[i]) == 0)
                    u = unit_of[k];
        } else {
            keys[i][0] = '\0';
        }
        if (u == SIZE_MAX) {
            u = nunits++;
            units[u] = (struct feed_unit){ ops, inst_mask[i], 0, 0 };
        }
        unit_of[i] = u;
        units[u].n++;
    }
    size_t off = 0;
    for (size_t u = 0; u < nunits; u++) {
        units[u].first = off;
        off += units[u].n;
        units[u].n = 0;
    }
    for (size_t i = 0; i < j->ninst; i++) {
        struct feed_unit *fu = &units[unit_of[i]];
        members[fu->first + fu->n++] = j->inst[i].m;
    }
    free(keys);
    free(unit_of);
    return nunits;
}

static void run_job(struct shared *sh, struct job *j)
{
    const struct config *c = sh->c;
    if (create_instances(c, j) < 0) {
        j->failed = 1;
        return;
    }
    if (j->workload == SIZE_MAX) { /* analytic: no events */
        finish_instances(c, j);
        return;
    }
    char err[1024];
    struct trace_reader *tr = trace_reader_open(j->trace_path, err, sizeof err);
    if (!tr) {
        snprintf(j->err, sizeof j->err, "%s (workload '%s'; run `make traces` to capture it)", err,
                 c->workloads[j->workload]);
        j->failed = 1;
        return;
    }
    j->th = *trace_reader_header(tr);
    atomic_store(&j->bytes_total, trace_reader_size(tr));
    /* The trace must be the workload's, and hold what every model reads. */
    if (strcmp(j->th.meta.workload, c->workloads[j->workload]) != 0) {
        snprintf(j->err, sizeof j->err, "%s: the trace is of workload '%s' (its header), not '%s'", j->trace_path,
                 j->th.meta.workload, c->workloads[j->workload]);
        j->failed = 1;
        trace_reader_close(tr);
        return;
    }
    for (size_t i = 0; i < j->ninst; i++) {
        const struct run_spec *rs = &c->runs[j->inst[i].run];
        unsigned missing = rs->ops->trace_needs ? rs->ops->trace_needs(&j->inst[i].pv) & ~j->th.meta.flags : 0;
        if (missing) {
            snprintf(j->err, sizeof j->err,
                     "%s: run '%s' (model '%s') needs %s, which this trace of '%s' (producer '%s') does not hold",
                     j->trace_path, rs->label, rs->ops->name,
                     missing & TRF_HAS_VALUES ? "loaded values" : "control-flow events", j->th.meta.workload,
                     j->th.meta.producer);
            j->failed = 1;
            trace_reader_close(tr);
            return;
        }
    }

    /* Distinct event masks and their filtered batches. */
    unsigned masks[MAX_MASKS];
    size_t nmasks = 0;
    size_t *inst_mask = calloc(j->ninst, sizeof *inst_mask);
    struct event *batch = malloc(BATCH * sizeof *batch);
    struct event *filtered = malloc((size_t)MAX_MASKS * BATCH * sizeof *filtered);
    if (!inst_mask || !batch || !filtered) {
        snprintf(j->err, sizeof j->err, "out of memory");
        j->failed = 1;
        goto out;
    }
    for (size_t i = 0; i < j->ninst; i++) {
        unsigned m = c->runs[j->inst[i].run].ops->event_mask & EV_ALL;
        if (m == EV_ALL) {
            inst_mask[i] = SIZE_MAX;
            continue;
        }
        size_t k = 0;
        while (k < nmasks && masks[k] != m)
            k++;
        if (k == nmasks) {
            if (nmasks == MAX_MASKS) {
                inst_mask[i] = SIZE_MAX;
                continue;
            }
            masks[nmasks++] = m;
        }
        inst_mask[i] = k;
    }
    struct feed_unit *units = calloc(j->ninst ? j->ninst : 1, sizeof *units);
    void **members = calloc(j->ninst ? j->ninst : 1, sizeof *members);
    size_t nunits = units && members ? plan_units(c, j, inst_mask, units, members) : 0;
    if (nunits == 0 && j->ninst) {
        snprintf(j->err, sizeof j->err, "out of memory");
        j->failed = 1;
        free(units);
        free(members);
        goto out;
    }
    uint64_t total = 0;
    for (;;) {
        size_t want = BATCH;
        if (sh->o->max_events && sh->o->max_events - total < want)
            want = sh->o->max_events - total;
        if (want == 0)
            break;
        long n = trace_reader_read(tr, batch, want);
        if (n < 0) {
            snprintf(j->err, sizeof j->err, "%s", trace_reader_error(tr));
            j->failed = 1;
            break;
        }
        if (n == 0)
            break;
        size_t fn[MAX_MASKS];
        for (size_t k = 0; k < nmasks; k++) {
            struct event *dst = filtered + k * BATCH;
            size_t cnt = 0;
            unsigned m = masks[k];
            for (long e = 0; e < n; e++) {
                dst[cnt] = batch[e];
                cnt += (m >> batch[e].kind) & 1u;
            }
            fn[k] = cnt;
        }
        for (size_t u = 0; u < nunits; u++) {
            const struct feed_unit *fu = &units[u];
            const struct event *ev = fu->mask == SIZE_MAX ? batch : filtered + fu->mask * BATCH;
            size_t cnt = fu->mask == SIZE_MAX ? (size_t)n : fn[fu->mask];
            if (cnt == 0)
                continue;
            if (fu->n == 1)
                fu->ops->feed(members[fu->first], ev, cnt);
            else
                fu->ops->feed_group(members + fu->first, fu->n, ev, cnt);
        }
        total += (uint64_t)n;
        atomic_store(&j->events, total);
        atomic_store(&j->bytes_done, trace_reader_offset(tr));
    }
    free(units);
    free(members);
    if (!j->failed)
        finish_instances(c, j);
out:
    free(inst_mask);
    free(batch);
    free(filtered);
    trace_reader_close(tr);
}

static void *worker(void *arg)
{
    struct shared *sh = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&sh->next, 1);
        if (k >= sh->njobs)
            return NULL;
        atomic_store(&sh->jobs[k].state, 1);
        run_job(sh, &sh->jobs[k]);
        atomic_store(&sh->jobs[k].state, 2);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- output ----------------------------------------------------------- */

struct columns {
    size_t nparams;
    const char *params[256];
    size_t nmetrics;
    const char *metrics[256];
};

static void add_col(const char **list, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(list[i], name) == 0)
            return;
    if (*n < 256)
        list[(*n)++] = name;
}

static void build_columns(const struct config *c, struct columns *cols)
{
    memset(cols, 0, sizeof *cols);
    for (size_t r = 0; r < c->nruns; r++) {
        const struct param_spec *ps = c->runs[r].ops->params;
        for (size_t i = 0; ps && ps[i].name; i++)
            add_col(cols->params, &cols->nparams, ps[i].name);
    }
    if (c->nmetrics) {
        for (size_t i = 0; i < c->nmetrics; i++)
            add_col(cols->metrics, &cols->nmetrics, c->metrics[i]);
    } else {
        for (size_t r = 0; r < c->nruns; r++) {
            const char *const *ms = c->runs[r].ops->metrics;
            for (size_t i = 0; ms && ms[i]; i++)
                add_col(cols->metrics, &cols->nmetrics, ms[i]);
        }
    }
}

static void put_number(FILE *f, double v)
{
    if (isnan(v))
        return; /* empty cell: not applicable */
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.10g", v);
}

/* A CSV field: quoted (RFC 4180) only when it holds a comma, quote or newline. */
static void put_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_prefix(FILE *f, const struct config *c, const struct job *j, const struct instance *in,
                       const struct columns *cols)
{
    const struct run_spec *rs = &c->runs[in->run];
    put_field(f, j->workload == SIZE_MAX ? "-" : c->workloads[j->workload]);
    fputc(',', f);
    put_field(f, rs->label);
    fputc(',', f);
    put_field(f, rs->ops->name);
    for (size_t p = 0; p < cols->nparams; p++) {
        size_t idx;
        fputc(',', f);
        if (params_find(rs->ops->params, cols->params[p], &idx)) {
            char buf[128];
            pv_format(&in->pv, idx, buf, sizeof buf);
            put_field(f, buf);
        }
    }
}

static int mkdirs(const char *dir)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Every output is first written completely to "<final>.tmp.<pid>"; only
 * when all of a run's outputs are written are they renamed into place
 * (commit_outputs), the CSV last, so a failure leaves the previous results
 * (or none) and never a mix. */
static void tmp_name(const char *final, char *tmp, size_t len)
{
    snprintf(tmp, len, "%s.tmp.%ld", final, (long)getpid());
}

static FILE *open_tmp(const char *final, char *tmp, size_t len)
{
    tmp_name(final, tmp, len);
    FILE *f = fopen(tmp, "w");
    if (!f)
        fprintf(stderr, "hwprof: cannot create %s: %s\n", tmp, strerror(errno));
    return f;
}

static int close_tmp(FILE *f, const char *tmp, const char *final)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "hwprof: cannot write %s: %s\n", final, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Rename the n finals' temporaries into place, in order; on a failure
 * remove the temporaries not yet renamed.  written[i] = 0: no output i. */
static int commit_outputs(const char *const *finals, const int *written, size_t n)
{
    char tmp[1500];
    for (size_t i = 0; i < n; i++) {
        if (!written[i])
            continue;
        tmp_name(finals[i], tmp, sizeof tmp);
        if (rename(tmp, finals[i]) != 0) {
            fprintf(stderr, "hwprof: cannot write %s: %s\n", finals[i], strerror(errno));
            for (size_t k = i; k < n; k++)
                if (written[k]) {
                    tmp_name(finals[k], tmp, sizeof tmp);
                    unlink(tmp);
                }
            return -1;
        }
    }
    return 0;
}

static void discard_outputs(const char *const *finals, const int *written, size_t n)
{
    char tmp[1500];
    for (size_t i = 0; i < n; i++)
        if (written[i]) {
            tmp_name(finals[i], tmp, sizeof tmp);
            unlink(tmp);
        }
}

static int write_csv(const struct config *c, struct job *jobs, size_t njobs, const char *path,
                     const struct columns *cols)
{
    char tmp[1500];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f)
        return -1;
    fputs("workload,run,model", f);
    for (size_t p = 0; p < cols->nparams; p++)
        fprintf(f, ",%s", cols->params[p]);
    for (size_t m = 0; m < cols->nmetrics; m++)
        fprintf(f, ",%s", cols->metrics[m]);
    fputc('\n', f);
    for (size_t jn = 0; jn < njobs; jn++) {
        const struct job *j = &jobs[jn];
        for (size_t i = 0; i < j->ninst; i++) {
            const struct instance *in = &j->inst[i];
            const struct model_ops *ops = c->runs[in->run].ops;
            put_prefix(f, c, j, in, cols);
            for (size_t m = 0; m < cols->nmetrics; m++) {
                fputc(',', f);
                for (size_t k = 0; k < in->nmetrics; k++)
                    if (strcmp(ops->metrics[k], cols->metrics[m]) == 0) {
                        put_number(f, in->metrics[k]);
                        break;
                    }
            }
            fputc('\n', f);
        }
    }
    return close_tmp(f, tmp, path);
}

static int write_series(const struct config *c, struct job *jobs, size_t njobs, const char *path,
                        const struct columns *cols)
{
    const char *scols[256];
    size_t ns = 0;
    for (size_t r = 0; r < c->nruns; r++) {
        const char *const *sc = c->runs[r].ops->series_cols;
        for (size_t i = 0; sc && sc[i]; i++)
            add_col(scols, &ns, sc[i]);
    }
    char tmp[1500];
    FILE *f = open_tmp(path, tmp, sizeof tmp);
    if (!f)
        return -1;
    fputs("workload,run,model", f);
    for (size_t p = 0; p < cols->nparams; p++)
        fprintf(f, ",%s", cols->params[p]);
    fputs(",index", f);
    for (size_t s = 0; s < ns; s++)
        fprintf(f, ",%s", scols[s]);
    fputc('\n', f);
    for (size_t jn = 0; jn < njobs; jn++) {
        const struct job *j = &jobs[jn];
        for (size_t i = 0; i < j->ninst; i++) {
            const struct instance *in = &j->inst[i];
            const struct model_ops *ops = c->runs[in->run].ops;
            for (size_t row = 0; row < in->series.rows; row++) {
                const double *d = in->series.data + row * (1 + in->series.ncols);
                put_prefix(f, c, j, in, cols);
                fprintf(f, ",%.0f", d[0]);
                for (size_t s = 0; s < ns; s++) {
                    fputc(',', f);
                    for (size_t k = 0; k < in->series.ncols; k++)
                        if (strcmp(ops->series_cols[k], scols[s]) == 0) {
                            put_number(f, d[1 + k]);
                            break;
                        }
                }
                fputc('\n', f);
            }
        }
    }
    return close_tmp(f, tmp, path);
}

/* The commit the results come from, with "+dirty" when the code or inputs
 * that shape them (src, tracegen, experiments, configs) differ from it. */
static void git_revision(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *p = popen("git rev-parse --short=12 HEAD 2>/dev/null && "
                    "{ git diff --quiet HEAD -- src tracegen experiments configs 2>/dev/null || echo dirty; }",
                    "r");
    if (!p)
        return;
    char line[64];
    if (fgets(buf, (int)len, p)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (fgets(line, sizeof line, p) && strncmp(line, "dirty", 5) == 0)
            snprintf(buf + strlen(buf), len - strlen(buf), "+dirty");
    } else {
        snprintf(buf, len, "unknown");
    }
    pclose(p);
}

/* A JSON string of text that may not be valid UTF-8 (a traced command
 * line, cut at a fixed length): bytes that do not form UTF-8 become '?'. */
static json_t *json_text(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t)
        return json_string("?");
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t len = u[i] < 0x80 ? 1 : (u[i] & 0xE0) == 0xC0 ? 2 : (u[i] & 0xF0) == 0xE0 ? 3 : (u[i] & 0xF8) == 0xF0 ? 4 : 0;
        size_t k = 1;
        while (len && k < len && i + k < n && (u[i + k] & 0xC0) == 0x80)
            k++;
        if (len && k == len) {
            memcpy(t + o, s + i, len);
            json_t *probe = json_stringn(t + o, len); /* rejects overlong forms and surrogates */
            if (probe) {
                json_decref(probe);
                o += len;
                i += len;
                continue;
            }
        }
        t[o++] = '?';
        i++;
    }
    t[o] = '\0';
    j = json_string(t);
    free(t);
    return j ? j : json_string("?");
}

static int write_sidecar(const struct config *c, struct job *jobs, size_t njobs, const char *path, double wall,
                         int threads)
{
    json_t *o = json_object();
    json_object_set(o, "config", c->root);
    json_object_set_new(o, "config_path", json_text(c->path));
    json_t *runs = json_array();
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run_spec *rs = &c->runs[r];
        json_t *ro = json_object();
        json_object_set_new(ro, "label", json_string(rs->label));
        json_object_set_new(ro, "model", json_string(rs->ops->name));
        json_t *pj = json_object();
        for (size_t i = 0; i < rs->base.n; i++) {
            char buf[128];
            pv_format(&rs->base, i, buf, sizeof buf);
            json_object_set_new(pj, rs->ops->params[i].name, json_string(buf));
        }
        json_object_set_new(ro, "resolved_params", pj);
        json_object_set_new(ro, "points", json_integer((json_int_t)rs->npoints));
        json_array_append_new(runs, ro);
    }
    json_object_set_new(o, "runs", runs);
    json_t *traces = json_array();
    for (size_t jn = 0; jn < njobs; jn++) {
        const struct job *j = &jobs[jn];
        if (j->workload == SIZE_MAX)
            continue;
        json_t *t = json_object();
        json_object_set_new(t, "workload", json_text(c->workloads[j->workload]));
        json_object_set_new(t, "path", json_text(j->trace_path));
        json_object_set_new(t, "producer", json_text(j->th.meta.producer));
        json_object_set_new(t, "command", json_text(j->th.meta.command));
        json_object_set_new(t, "skip", json_integer((json_int_t)j->th.meta.skip));
        json_object_set_new(t, "window", json_integer((json_int_t)j->th.meta.window));
        json_object_set_new(t, "events", json_integer((json_int_t)j->th.events));
        json_t *counts = json_object();
        for (int k = 0; k < EV_KINDS; k++)
            json_object_set_new(counts, ev_kind_name[k], json_integer((json_int_t)j->th.counts[k]));
        json_object_set_new(t, "counts", counts);
        json_object_set_new(t, "events_fed", json_integer((json_int_t)atomic_load(&j->events)));
        json_array_append_new(traces, t);
    }
    json_object_set_new(o, "traces", traces);
    char rev[64];
    git_revision(rev, sizeof rev);
    json_t *tools = json_object();
    json_object_set_new(tools, "hwprof", json_string(HWPROF_VERSION));
    json_object_set_new(tools, "jansson", json_string(JANSSON_VERSION));
    json_object_set_new(tools, "zstd", json_string(ZSTD_versionString()));
    json_object_set_new(o, "tools", tools);
    json_object_set_new(o, "git_revision", json_string(rev));
    json_object_set_new(o, "wall_seconds", json_real(floor(wall * 1000) / 1000));
    json_object_set_new(o, "threads", json_integer(threads));
    char tmp[1500];
    tmp_name(path, tmp, sizeof tmp);
    int rc = json_dump_file(o, tmp, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (rc != 0) {
        fprintf(stderr, "hwprof: cannot write %s\n", path);
        unlink(tmp);
        return -1;
    }
    return 0;
}

static void progress_line(const struct config *c, struct job *jobs, size_t njobs, double t0)
{
    uint64_t done = 0, total = 0, events = 0;
    size_t finished = 0;
    char running[256] = "";
    size_t rl = 0;
    for (size_t i = 0; i < njobs; i++) {
        int st = atomic_load(&jobs[i].state);
        uint64_t bt = atomic_load(&jobs[i].bytes_total);
        done += st == 2 ? bt : atomic_load(&jobs[i].bytes_done);
        total += bt;
        events += atomic_load(&jobs[i].events);
        finished += st == 2;
        if (st == 1 && jobs[i].workload != SIZE_MAX && rl < sizeof running - 70)
            rl += (size_t)snprintf(running + rl, sizeof running - rl, "%s%s", rl ? "," : "", c->workloads[jobs[i].workload]);
    }
    double el = now_s() - t0;
    /* Share of work: finished jobs plus byte progress of running ones. */
    double share = total ? (double)done / (double)total : 0;
    if (finished < njobs && share > 0.999)
        share = 0.999;
    double eta = share > 0.01 ? el * (1 - share) / share : -1;
    fprintf(stderr, "\r\033[K%s: %zu/%zu workloads [%s] %4.1f%%  %.1fM events/s  ", c->name, finished, njobs, running,
            100 * share, el > 0 ? (double)events / el / 1e6 : 0.0);
    if (eta >= 0)
        fprintf(stderr, "ETA %.0fs", eta);
}

int run_config(const struct config *c, const struct run_options *o)
{
    double t0 = now_s();
    size_t njobs = c->nworkloads ? c->nworkloads : 1;
    struct job *jobs = calloc(njobs, sizeof *jobs);
    if (!jobs) {
        fprintf(stderr, "hwprof: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < njobs; i++) {
        jobs[i].workload = c->nworkloads ? i : SIZE_MAX;
        if (c->nworkloads)
            snprintf(jobs[i].trace_path, sizeof jobs[i].trace_path, "%s/%s.trace", o->traces_dir, c->workloads[i]);
    }
    struct shared sh = { .c = c, .o = o, .jobs = jobs, .njobs = njobs };
    atomic_init(&sh.next, 0);
    int nthreads = o->threads > 0 ? o->threads : 2;
    if ((size_t)nthreads > njobs)
        nthreads = (int)njobs;
    pthread_t th[16];
    if (nthreads > 16)
        nthreads = 16;
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&th[t], NULL, worker, &sh) != 0) {
            fprintf(stderr, "hwprof: cannot start threads\n");
            return 1;
        }
    int show = !o->quiet && isatty(2);
    if (show) {
        for (;;) {
            size_t fin = 0;
            for (size_t i = 0; i < njobs; i++)
                fin += atomic_load(&jobs[i].state) == 2;
            if (fin == njobs)
                break;
            if (now_s() - t0 > 1.0)
                progress_line(c, jobs, njobs, t0);
            struct timespec ts = { 0, 250 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    if (show && now_s() - t0 > 1.0) {
        progress_line(c, jobs, njobs, t0);
        fputc('\n', stderr);
    }
    int rc = 0;
    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].failed) {
            int seen = 0; /* the same message from several workloads once */
            for (size_t k = 0; k < i && !seen; k++)
                seen = jobs[k].failed && !strcmp(jobs[k].err, jobs[i].err);
            if (!seen)
                fprintf(stderr, "hwprof: %s\n", jobs[i].err);
            rc = 1;
        }
    if (rc == 0) {
        char dir[1100], csv[1400], side[1400], ser[1400];
        snprintf(dir, sizeof dir, "%s/%s", o->out_dir, c->paper);
        snprintf(csv, sizeof csv, "%s/%s.csv", dir, c->stem);
        snprintf(side, sizeof side, "%s/%s.json", dir, c->stem);
        snprintf(ser, sizeof ser, "%s/%s.series.csv", dir, c->stem);
        struct columns cols;
        build_columns(c, &cols);
        int any_series = 0;
        for (size_t r = 0; r < c->nruns; r++)
            any_series |= count_series(c->runs[r].ops) > 0;
        const char *finals[3] = { ser, side, csv };
        int written[3] = { 0, 0, 0 };
        if (mkdirs(dir) != 0) {
            fprintf(stderr, "hwprof: cannot create %s: %s\n", dir, strerror(errno));
            rc = 1;
        } else if ((c->series && any_series && !(written[0] = write_series(c, jobs, njobs, ser, &cols) == 0)) ||
                   !(written[1] = write_sidecar(c, jobs, njobs, side, now_s() - t0, nthreads) == 0) ||
                   !(written[2] = write_csv(c, jobs, njobs, csv, &cols) == 0)) {
            discard_outputs(finals, written, 3);
            rc = 1;
        } else if (commit_outputs(finals, written, 3) != 0) {
            rc = 1;
        }
        if (rc == 0 && !o->quiet)
            fprintf(stderr, "%s: wrote %s (%.1fs)\n", c->name, csv, now_s() - t0);
    }
    for (size_t i = 0; i < njobs; i++)
        free_instances(c, &jobs[i]);
    free(jobs);
    return rc;
}
