/* registry.c - the models and stages that registered themselves.
 *
 * MODEL_REGISTER / STAGE_REGISTER (model.h, stage.h) place a pointer to the
 * descriptor in the linker sections hwprof_models / hwprof_stages; the
 * linker provides __start_ and __stop_ symbols around each section, so the
 * registry is whatever object files were linked in: adding a model is
 * adding its file.  Descriptors are listed sorted by name (stable listings
 * and docs whatever the link order).  The sections are declared weak so a
 * binary without any stage still links.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/model.h"
#include "run/stage.h"

extern const struct model_desc *const __start_hwprof_models[] __attribute__((weak));
extern const struct model_desc *const __stop_hwprof_models[] __attribute__((weak));
extern const struct stage_desc *const __start_hwprof_stages[] __attribute__((weak));
extern const struct stage_desc *const __stop_hwprof_stages[] __attribute__((weak));

static const struct model_desc **models;
static const struct stage_desc **stages;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int cmp_model(const void *a, const void *b)
{
    return strcmp((*(const struct model_desc *const *)a)->name, (*(const struct model_desc *const *)b)->name);
}

static int cmp_stage(const void *a, const void *b)
{
    return strcmp((*(const struct stage_desc *const *)a)->name, (*(const struct stage_desc *const *)b)->name);
}

static void build(void)
{
    size_t nm = __start_hwprof_models ? (size_t)(__stop_hwprof_models - __start_hwprof_models) : 0;
    size_t ns = __start_hwprof_stages ? (size_t)(__stop_hwprof_stages - __start_hwprof_stages) : 0;
    models = calloc(nm + 1, sizeof *models);
    stages = calloc(ns + 1, sizeof *stages);
    if (!models || !stages) {
        fprintf(stderr, "hwprof: out of memory\n");
        abort();
    }
    for (size_t i = 0; i < nm; i++)
        models[i] = __start_hwprof_models[i];
    for (size_t i = 0; i < ns; i++)
        stages[i] = __start_hwprof_stages[i];
    qsort(models, nm, sizeof *models, cmp_model);
    qsort(stages, ns, sizeof *stages, cmp_stage);
    for (size_t i = 0; i < nm; i++) {
        char err[512];
        if (model_desc_check(models[i], err, sizeof err) != 0) {
            fprintf(stderr, "hwprof: model '%s' cannot be registered: %s\n", models[i]->name ? models[i]->name : "",
                    err);
            abort();
        }
    }
    for (size_t i = 1; i < nm; i++)
        if (!strcmp(models[i]->name, models[i - 1]->name)) {
            fprintf(stderr, "hwprof: two models are registered as '%s'\n", models[i]->name);
            abort();
        }
    for (size_t i = 1; i < ns; i++)
        if (!strcmp(stages[i]->name, stages[i - 1]->name)) {
            fprintf(stderr, "hwprof: two stages are registered as '%s'\n", stages[i]->name);
            abort();
        }
}

const struct model_desc *const *model_all(void)
{
    pthread_once(&once, build);
    return models;
}

const struct stage_desc *const *stage_all(void)
{
    pthread_once(&once, build);
    return stages;
}

const struct model_desc *model_find(const char *name)
{
    for (const struct model_desc *const *m = model_all(); *m; m++)
        if (!strcmp((*m)->name, name))
            return *m;
    return NULL;
}

const struct stage_desc *stage_find(const char *name)
{
    for (const struct stage_desc *const *s = stage_all(); *s; s++)
        if (!strcmp((*s)->name, name))
            return *s;
    return NULL;
}

size_t model_count_metrics(const struct model_desc *m)
{
    size_t n = 0;
    while (m->metrics && m->metrics[n].name)
        n++;
    return n;
}

size_t model_count_tables(const struct model_desc *m)
{
    size_t n = 0;
    while (m->tables && m->tables[n].name)
        n++;
    return n;
}

size_t table_count_cols(const struct table_spec *t)
{
    size_t n = 0;
    while (t->cols && t->cols[n].name)
        n++;
    return n;
}

int model_reads_trace(const struct model_desc *m) { return m->plan != NULL || m->event_mask != 0; }

/* ---- descriptor checks ---------------------------------------------------------- */

static int in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

/* A name given twice in one of a descriptor's lists: the first repeated
 * one, or NULL.  Names are read at stride `size` from `first`. */
static const char *repeated(const void *first, size_t size)
{
    const char *base = first;
    for (size_t i = 0; base && *(const char *const *)(base + i * size); i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(*(const char *const *)(base + i * size), *(const char *const *)(base + j * size)))
                return *(const char *const *)(base + i * size);
    return NULL;
}

int model_desc_check(const struct model_desc *m, char *err, size_t errlen)
{
    static const char *const runner_cols[] = { "workload", "window", "weight", "run", "model", "windows", NULL };
    static const char *const table_lead[] = { "workload", "window", "run", "model", NULL };
    const char *n = m->name, *dup;
    int ok = n && *n;
    for (const char *p = n; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (!ok) {
        snprintf(err, errlen, "the name '%s' must be [a-z0-9_]+ (configs name it)", n ? n : "");
        return -1;
    }
    if (!m->metrics) {
        snprintf(err, errlen, "no metrics table (METRIC_END-terminated)");
        return -1;
    }
    if ((dup = repeated(m->params, sizeof *m->params)) != NULL) {
        snprintf(err, errlen, "parameter '%s' is declared twice", dup);
        return -1;
    }
    if ((dup = repeated(m->metrics, sizeof *m->metrics)) != NULL) {
        snprintf(err, errlen, "metric '%s' is declared twice", dup);
        return -1;
    }
    if ((dup = repeated(m->tables, sizeof *m->tables)) != NULL) {
        snprintf(err, errlen, "table '%s' is declared twice", dup);
        return -1;
    }
    for (const struct param_spec *p = m->params; p && p->name; p++)
        if (in_list(runner_cols, p->name)) {
            snprintf(err, errlen, "parameter '%s' has the name of a column the runner writes (%s): rename it",
                     p->name, "workload, window, weight, run, model, windows");
            return -1;
        }
    for (const struct metric_spec *x = m->metrics; x->name; x++)
        if (in_list(runner_cols, x->name)) {
            snprintf(err, errlen, "metric '%s' has the name of a column the runner writes (%s): rename it", x->name,
                     "workload, window, weight, run, model, windows");
            return -1;
        }
    for (const struct table_spec *t = m->tables; t && t->name; t++) {
        if (!strcmp(t->name, "windows")) {
            snprintf(err, errlen, "a table may not be called 'windows' (<fig>.windows.csv holds the per-window rows)");
            return -1;
        }
        if ((dup = repeated(t->cols, sizeof *t->cols)) != NULL) {
            snprintf(err, errlen, "table '%s' declares column '%s' twice", t->name, dup);
            return -1;
        }
        for (const struct col_spec *c = t->cols; c && c->name; c++)
            if (in_list(table_lead, c->name)) {
                snprintf(err, errlen,
                         "column '%s' of table '%s' has the name of a column the runner writes before it (%s): "
                         "rename it",
                         c->name, t->name, "workload, window, run, model");
                return -1;
            }
    }
    return 0;
}
