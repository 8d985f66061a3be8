/* rap_measure.c - RAP Figure 4's wall clock and its CSV (rap_measure.h). */
#define _POSIX_C_SOURCE 200809L
#include "rap_measure.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/csv.h"
#include "core/outfile.h"
#include "core/provenance.h"
#include "families/rap_prof.h"
#include "trace/trace.h"

/* The flags this file was compiled with (the Makefile defines it for the
 * benchmark and sanitizer objects). */
#ifndef HWPROF_BENCH_CFLAGS
#define HWPROF_BENCH_CFLAGS "unknown"
#endif
#ifdef __clang__
#define RAPM_COMPILER "clang " __clang_version__
#else
#define RAPM_COMPILER "gcc " __VERSION__
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct event *rapm_alloc(size_t n)
{
    struct event *ev = calloc(n ? n : 1, sizeof *ev);
    if (!ev) {
        fprintf(stderr, "rap_measure: out of memory (%zu events)\n", n);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        ev[i].kind = EV_LOAD;
        ev[i].size = 8;
    }
    return ev;
}

struct event *rapm_from_trace(const char *path, enum rapm_run run, size_t max, size_t *n, char *err, size_t errlen)
{
    struct trace_reader *r = trace_reader_open(path, err, errlen);
    if (!r)
        return NULL;
    int code = run == RAPM_CODE;
    /* no more keys than instructions (code) or loads (values) */
    uint64_t bound = trace_reader_header(r)->counts[code ? EV_INSN : EV_LOAD];
    size_t cap = bound < max ? (size_t)bound : max;
    struct event *ev = rapm_alloc(cap), *buf = malloc(65536 * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "rap_measure: out of memory\n");
        exit(1);
    }
    size_t k = 0;
    uint64_t next = 0;
    int newb = 1;
    long got = 0;
    while (k < cap && (got = trace_reader_read(r, buf, 65536)) > 0) {
        for (long j = 0; j < got && k < cap; j++) {
            const struct event *e = &buf[j];
            if (code && e->kind == EV_INSN) {
                if (newb || e->pc != next)
                    ev[k++].pc = e->pc;
                next = e->pc + e->size;
                newb = 0;
            } else if (code && e->kind >= EV_BRANCH) {
                newb = 1;
            } else if (!code && e->kind == EV_LOAD && !(e->flags & EVF_NOVALUE)) {
                ev[k++].value = e->value;
            }
        }
    }
    free(buf);
    if (got < 0) {
        snprintf(err, errlen, "%s", trace_reader_error(r));
        trace_reader_close(r);
        free(ev);
        return NULL;
    }
    trace_reader_close(r);
    *n = k;
    return ev;
}

/* One round of one mode; keeps the best times in m. */
static int time_mode(const struct event *ev, size_t n, enum rapm_run run, int agg, struct rapm_mode *m, char *err,
                     size_t errlen)
{
    struct rap_prof_cfg c;
    memset(&c, 0, sizeof c);
    keysel_init(&c.sel, KS_LOADS, run == RAPM_CODE ? KF_PC : KF_VALUE, KF_NONE, 64, 64);
    c.dims = 1;
    c.key_bits = 64;
    c.stride = 2;
    c.tree.eps = 0.01;
    c.tree.q = 2;
    c.tree.merge_first = 1024;
    c.agg = agg;
    c.buffer_entries = 1024;
    struct rap_prof *p = rap_prof_create(&c, err, errlen);
    if (!p)
        return -1;
    double t0 = now();
    for (size_t i = 0; i < n; i += 8192)
        rap_prof_feed(p, ev + i, n - i < 8192 ? n - i : 8192);
    double t1 = now();
    rap_prof_finish(p);
    double t2 = now();
    struct rap_tree_stats st;
    rap_tree_stats(rap_prof_tree(p), &st);
    m->updates = st.updates;
    m->nodes_max = st.nodes_max;
    rap_prof_free(p);
    if (m->seconds == 0 || t2 - t0 < m->seconds)
        m->seconds = t2 - t0;
    if (m->tree_seconds == 0 || t2 - t1 < m->tree_seconds)
        m->tree_seconds = t2 - t1;
    return 0;
}

int rapm_measure(const struct event *ev, size_t n, enum rapm_run run, int rounds, struct rapm_result *r, char *err,
                 size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->events = n;
    for (int k = 0; k < rounds; k++)
        for (int a = 0; a < 3; a++)
            if (time_mode(ev, n, run, a, &r->mode[a], err, errlen) != 0)
                return -1;
    return 0;
}

int rapm_measure_trace(const char *path, size_t max, int rounds, struct rapm_trace *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct trace_reader *r = trace_reader_open(path, err, errlen);
    if (!r)
        return -1;
    const struct trace_header *h = trace_reader_header(r);
    const char *w = trace_meta_get(h, "window.index");
    snprintf(t->workload, sizeof t->workload, "%s", h->meta.workload);
    snprintf(t->window, sizeof t->window, "%s", w ? w : "");
    trace_reader_close(r);
    if (prov_file_sha256(path, t->sha256) != 0) {
        snprintf(err, errlen, "%s: cannot hash the trace", path);
        return -1;
    }
    for (int run = RAPM_CODE; run <= RAPM_VALUES; run++) {
        size_t n = 0;
        struct event *ev = rapm_from_trace(path, (enum rapm_run)run, max, &n, err, errlen);
        if (!ev)
            return -1;
        int rc = rapm_measure(ev, n, (enum rapm_run)run, rounds, &t->run[run], err, errlen);
        free(ev);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The measurement's description, one value per column after max_events. */
struct machine {
    char cpu[256], cores[32], kernel[256], rev[64], dirty[4], date[40];
};

static void jstr(char *buf, size_t len, json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    snprintf(buf, len, "%s", s ? s : "unknown");
}

static void describe(struct machine *m)
{
    json_t *host = prov_host(), *build = prov_build(NULL);
    jstr(m->cpu, sizeof m->cpu, host, "cpu_model");
    jstr(m->kernel, sizeof m->kernel, host, "kernel");
    snprintf(m->cores, sizeof m->cores, "%lld", (long long)json_integer_value(json_object_get(host, "cpus")));
    jstr(m->rev, sizeof m->rev, build, "git_revision");
    int dirty = json_is_true(json_object_get(build, "git_sources_dirty"));
    static const char *const mine[] = { "bench/bench_rap.c", "bench/lib/rap_measure.c", "bench/lib/rap_measure.h" };
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
        dirty = dirty || strcmp(prov_git_file_state(mine[i], m->rev), "clean") != 0;
    snprintf(m->dirty, sizeof m->dirty, "%d", dirty);
    prov_utc_now(m->date, sizeof m->date);
    json_decref(host);
    json_decref(build);
}

static void put_row(FILE *f, const struct rapm_trace *t, int run, int a, int rounds, size_t max,
                    const struct machine *m)
{
    static const char *const runs[] = { "code", "values" }, *const aggs[] = { "none", "buffer", "full" };
    const struct rapm_result *r = &t->run[run];
    const struct rapm_mode *x = &r->mode[a], *none = &r->mode[0];
    double nan = strtod("nan", NULL);
    csv_put_field(f, t->workload);
    fputc(',', f);
    csv_put_field(f, t->window);
    fprintf(f, ",%s,%s,%s,", t->sha256, runs[run], aggs[a]);
    csv_put_number(f, (double)r->events);
    fputc(',', f);
    csv_put_number(f, (double)x->updates);
    fputc(',', f);
    csv_put_number(f, (double)x->nodes_max);
    fputc(',', f);
    csv_put_number(f, x->seconds);
    fputc(',', f);
    csv_put_number(f, x->seconds > 0 ? (double)r->events / x->seconds : nan);
    fputc(',', f);
    csv_put_number(f, x->seconds > 0 ? none->seconds / x->seconds : nan);
    fputc(',', f);
    csv_put_number(f, x->updates > 0 ? (double)none->updates / (double)x->updates : nan);
    fputc(',', f);
    csv_put_number(f, x->tree_seconds);
    fputc(',', f);
    csv_put_number(f, a == RAP_AGG_FULL && x->tree_seconds > 0 ? none->seconds / x->tree_seconds : nan);
    fprintf(f, ",%d,%zu,", rounds, max);
    csv_put_field(f, m->cpu);
    fprintf(f, ",%s,", m->cores);
    csv_put_field(f, m->kernel);
    fputc(',', f);
    csv_put_field(f, RAPM_COMPILER);
    fputc(',', f);
    csv_put_field(f, HWPROF_BENCH_CFLAGS);
    fprintf(f, ",%s,%s,%s\n", m->rev, m->dirty, m->date);
}

int rapm_write_csv(const char *path, const struct rapm_trace *t, size_t nt, int rounds, size_t max, char *err,
                   size_t errlen)
{
    struct machine m;
    describe(&m);
    struct outfile o;
    memset(&o, 0, sizeof o);
    FILE *f = outfile_open(&o, path);
    if (!f) {
        snprintf(err, errlen, "%s: cannot write (see above)", path);
        return -1;
    }
    fprintf(f, "%s\n", RAPM_COLUMNS);
    for (size_t i = 0; i < nt; i++)
        for (int run = RAPM_CODE; run <= RAPM_VALUES; run++)
            for (int a = 0; a < 3; a++)
                put_row(f, &t[i], run, a, rounds, max, &m);
    if (outfile_close(&o) != 0 || outfile_commit(&o, 1) != 0) {
        outfile_discard(&o, 1);
        snprintf(err, errlen, "%s: not written (see above)", path);
        return -1;
    }
    return 0;
}
