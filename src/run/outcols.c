/* outcols.c - the column names of the output CSVs, and their clashes (see
 * outcols.h). */
#include "run/outcols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One column as one thing of one model writes it. */
struct entry {
    char name[128];
    char ident[160];  /* equal idents are one shared column */
    char what[256];
    size_t model;     /* SIZE_MAX: the runner */
    size_t seq;       /* insertion order */
    int is_metric, is_table;
};

struct list {
    struct entry *v;
    size_t n, cap;
    int oom;
};

static struct entry *add(struct list *l)
{
    if (l->oom)
        return NULL;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        struct entry *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) {
            l->oom = 1;
            return NULL;
        }
        l->v = nv;
        l->cap = cap;
    }
    struct entry *e = &l->v[l->n];
    memset(e, 0, sizeof *e);
    e->seq = l->n++;
    return e;
}

static void add_fixed(struct list *l, const char *name)
{
    struct entry *e = add(l);
    if (!e)
        return;
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->ident, sizeof e->ident, "f:%s", name);
    snprintf(e->what, sizeof e->what, "the runner's column '%s'", name);
    e->model = SIZE_MAX;
}

static void add_params(struct list *l, const struct model_desc *const *models, size_t n)
{
    for (size_t k = 0; k < n; k++)
        for (const struct param_spec *p = models[k]->params; p && p->name; p++) {
            struct entry *e = add(l);
            if (!e)
                return;
            snprintf(e->name, sizeof e->name, "%s", p->name);
            snprintf(e->ident, sizeof e->ident, "p:%s", p->name);
            snprintf(e->what, sizeof e->what, "parameter '%s' of model '%s'", p->name, models[k]->name);
            e->model = k;
        }
}

static int in_names(const char *const *names, const char *s)
{
    if (!names)
        return 1;
    for (size_t i = 0; names[i]; i++)
        if (!strcmp(names[i], s))
            return 1;
    return 0;
}

/* Metric columns: with stats, m and m_min, m_max, m_lo, m_hi. */
static void add_metrics(struct list *l, const struct model_desc *const *models, size_t n, const char *const *metrics,
                        int stats)
{
    static const char *const sfx[] = { "", "_min", "_max", "_lo", "_hi" };
    static const char *const sfx_what[] = { "", "minimum", "maximum", "interval low end", "interval high end" };
    for (size_t k = 0; k < n; k++)
        for (const struct metric_spec *m = models[k]->metrics; m && m->name; m++) {
            if (!in_names(metrics, m->name))
                continue;
            for (int s = 0; s < (stats ? 5 : 1); s++) {
                struct entry *e = add(l);
                if (!e)
                    return;
                snprintf(e->name, sizeof e->name, "%s%s", m->name, sfx[s]);
                snprintf(e->ident, sizeof e->ident, "m:%s|%s", m->name, sfx[s]);
                if (s == 0)
                    snprintf(e->what, sizeof e->what, "metric '%s' of model '%s'", m->name, models[k]->name);
                else
                    snprintf(e->what, sizeof e->what, "'%s%s' (the %s of metric '%s' of model '%s')", m->name, sfx[s],
                             sfx_what[s], m->name, models[k]->name);
                e->model = k;
                e->is_metric = 1;
            }
        }
}

static void add_table(struct list *l, const struct model_desc *const *models, size_t n, const char *table)
{
    for (size_t k = 0; k < n; k++)
        for (const struct table_spec *t = models[k]->tables; t && t->name; t++) {
            if (strcmp(t->name, table) != 0)
                continue;
            for (const struct col_spec *c = t->cols; c && c->name; c++) {
                struct entry *e = add(l);
                if (!e)
                    return;
                snprintf(e->name, sizeof e->name, "%s", c->name);
                snprintf(e->ident, sizeof e->ident, "t:%s", c->name);
                snprintf(e->what, sizeof e->what, "column '%s' of table '%s' of model '%s'", c->name, table,
                         models[k]->name);
                e->model = k;
                e->is_table = 1;
            }
        }
}

static int cmp_entry(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Sort l and report each name that two idents share. */
static long find(struct list *l, const char *csv, struct outcol_clash *out, size_t max, long found)
{
    qsort(l->v, l->n, sizeof *l->v, cmp_entry);
    for (size_t i = 0; i < l->n;) {
        size_t j = i + 1, other = SIZE_MAX;
        for (; j < l->n && !strcmp(l->v[j].name, l->v[i].name); j++)
            if (other == SIZE_MAX && strcmp(l->v[j].ident, l->v[i].ident) != 0)
                other = j;
        if (other != SIZE_MAX) {
            if ((size_t)found < max) {
                struct outcol_clash *c = &out[found];
                const struct entry *a = &l->v[i], *b = &l->v[other];
                snprintf(c->csv, sizeof c->csv, "%s", csv);
                snprintf(c->name, sizeof c->name, "%s", a->name);
                snprintf(c->first, sizeof c->first, "%s", a->what);
                snprintf(c->second, sizeof c->second, "%s", b->what);
                c->model = b->model;
                c->hint_metric = a->is_metric || b->is_metric;
                c->hint_table = a->is_table || b->is_table;
            }
            found++;
        }
        i = j;
    }
    l->n = 0;
    return found;
}

/* A CSV's columns up to its model-specific ones: the runner's fixed
 * columns, then every parameter. */
static void add_leading(struct list *l, const char *const *fixed, const struct model_desc *const *models, size_t n)
{
    for (size_t i = 0; fixed[i]; i++)
        add_fixed(l, fixed[i]);
    add_params(l, models, n);
}

long outcols_clashes(const struct model_desc *const *models, size_t n, const char *const *metrics,
                     const char *const *tables, struct outcol_clash *out, size_t max)
{
    struct list l = { 0 };
    long found = 0;
    /* main: workload,run,model,<parameters>,windows,<metrics with statistics> */
    static const char *const main_fixed[] = { "workload", "run", "model", "windows", NULL };
    static const char *const windows_fixed[] = { "workload", "window", "weight", "run", "model", NULL };
    static const char *const table_fixed[] = { "workload", "window", "run", "model", NULL };
    add_leading(&l, main_fixed, models, n);
    add_metrics(&l, models, n, metrics, 1);
    if (l.oom)
        goto oom;
    found = find(&l, "main", out, max, found);
    add_leading(&l, windows_fixed, models, n);
    add_metrics(&l, models, n, metrics, 0);
    if (l.oom)
        goto oom;
    found = find(&l, "windows", out, max, found);
    /* one CSV per table name (each once, whichever models have it) */
    for (size_t k = 0; k < n; k++)
        for (const struct table_spec *t = models[k]->tables; t && t->name; t++) {
            if (tables && !in_names(tables, t->name))
                continue;
            int seen = 0;
            for (size_t q = 0; q < k && !seen; q++)
                for (const struct table_spec *u = models[q]->tables; u && u->name && !seen; u++)
                    seen = !strcmp(u->name, t->name);
            for (const struct table_spec *u = models[k]->tables; u != t && !seen; u++)
                seen = !strcmp(u->name, t->name);
            if (seen)
                continue;
            add_leading(&l, table_fixed, models, n);
            add_table(&l, models, n, t->name);
            if (l.oom)
                goto oom;
            found = find(&l, t->name, out, max, found);
        }
    free(l.v);
    return found;
oom:
    free(l.v);
    return -1;
}
