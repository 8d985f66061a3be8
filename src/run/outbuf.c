/* outbuf.c - metrics and table rows of one instance (see outbuf.h). */
#include "run/outbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table_buf {
    size_t ncols;
    bool wanted, has_text;
    size_t rows, cap;
    union cell *cells; /* rows x ncols; text cells own their strings */
    const struct col_spec *cols;
};

struct model_out {
    const struct model_desc *m;
    size_t nmetrics;
    double *metrics;
    unsigned char *set;
    size_t ntables;
    struct table_buf *tables;
    bool failed;
};

struct model_out *model_out_create(const struct model_desc *m, const bool *wanted)
{
    struct model_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->m = m;
    o->nmetrics = model_count_metrics(m);
    o->ntables = model_count_tables(m);
    o->metrics = calloc(o->nmetrics + 1, sizeof *o->metrics);
    o->set = calloc(o->nmetrics + 1, 1);
    o->tables = calloc(o->ntables + 1, sizeof *o->tables);
    if (!o->metrics || !o->set || !o->tables) {
        model_out_free(o);
        return NULL;
    }
    for (size_t i = 0; i < o->nmetrics; i++)
        o->metrics[i] = NAN;
    for (size_t t = 0; t < o->ntables; t++) {
        struct table_buf *tb = &o->tables[t];
        tb->cols = m->tables[t].cols;
        tb->ncols = table_count_cols(&m->tables[t]);
        tb->wanted = wanted && wanted[t];
        for (size_t c = 0; c < tb->ncols; c++)
            tb->has_text |= tb->cols[c].type == COL_TEXT;
    }
    return o;
}

void model_out_free(struct model_out *o)
{
    if (!o)
        return;
    for (size_t t = 0; t < o->ntables && o->tables; t++) {
        struct table_buf *tb = &o->tables[t];
        if (tb->has_text)
            for (size_t r = 0; r < tb->rows; r++)
                for (size_t c = 0; c < tb->ncols; c++)
                    if (tb->cols[c].type == COL_TEXT)
                        free((char *)tb->cells[r * tb->ncols + c].s);
        free(tb->cells);
    }
    free(o->tables);
    free(o->metrics);
    free(o->set);
    free(o);
}

void out_metric(struct model_out *o, size_t index, double value)
{
    if (index >= o->nmetrics) {
        fprintf(stderr, "internal error: model '%s' reports metric %zu of %zu\n", o->m->name, index, o->nmetrics);
        abort();
    }
    o->metrics[index] = value;
    o->set[index] = 1;
}

void out_row(struct model_out *o, size_t table, const union cell *cells)
{
    if (table >= o->ntables) {
        fprintf(stderr, "internal error: model '%s' writes table %zu of %zu\n", o->m->name, table, o->ntables);
        abort();
    }
    struct table_buf *tb = &o->tables[table];
    if (!tb->wanted || o->failed)
        return;
    if (tb->rows == tb->cap) {
        size_t cap = tb->cap ? tb->cap * 2 : 64;
        union cell *nc = realloc(tb->cells, cap * (tb->ncols ? tb->ncols : 1) * sizeof *nc);
        if (!nc) {
            o->failed = true;
            return;
        }
        tb->cells = nc;
        tb->cap = cap;
    }
    union cell *row = tb->cells + tb->rows * tb->ncols;
    memcpy(row, cells, tb->ncols * sizeof *row);
    if (tb->has_text)
        for (size_t c = 0; c < tb->ncols; c++)
            if (tb->cols[c].type == COL_TEXT) {
                const char *s = cells[c].s ? cells[c].s : "";
                size_t n = strlen(s) + 1;
                char *copy = malloc(n);
                if (!copy) {
                    /* keep the row consistent: earlier copies stay owned */
                    for (size_t k = c; k < tb->ncols; k++)
                        if (tb->cols[k].type == COL_TEXT)
                            row[k].s = NULL;
                    o->failed = true;
                    tb->rows++;
                    return;
                }
                memcpy(copy, s, n);
                row[c].s = copy;
            }
    tb->rows++;
}

int model_out_check(const struct model_out *o, char *err, size_t errlen)
{
    for (size_t i = 0; i < o->nmetrics; i++)
        if (!o->set[i]) {
            snprintf(err, errlen, "internal error: model '%s' did not report metric '%s'", o->m->name,
                     o->m->metrics[i].name);
            return -1;
        }
    return 0;
}

double model_out_metric(const struct model_out *o, size_t index) { return o->metrics[index]; }
size_t model_out_rows(const struct model_out *o, size_t table) { return o->tables[table].rows; }
const union cell *model_out_row(const struct model_out *o, size_t table, size_t row)
{
    return o->tables[table].cells + row * o->tables[table].ncols;
}
bool model_out_failed(const struct model_out *o) { return o->failed; }
