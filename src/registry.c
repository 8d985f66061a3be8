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

#include "model.h"
#include "stage.h"

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
