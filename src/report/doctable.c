/* doctable.c - tables of table markers (see doctable.h). */
#include "report/doctable.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "report/aggregate.h"
#include "report/mdrender.h"

struct doctab {
    size_t nrows, ncols; /* data rows; columns (a grid's first is the row labels) */
    char **text;         /* (nrows + 1) * ncols, row 0 the header */
    char **view;         /* same shape: the CSV view's names and cells */
    bool *numeric;       /* per column: right-aligned */
    bool *hidden;        /* per column: not shown */
    char **best;         /* NULL, or like view: "1" where a cell holds a best mark, else "0" */
};

static struct doctab *tab_new(size_t nrows, size_t ncols)
{
    struct doctab *x = mem_alloc(sizeof *x);
    x->nrows = nrows;
    x->ncols = ncols;
    x->text = mem_array((nrows + 1) * ncols, sizeof *x->text);
    x->view = mem_array((nrows + 1) * ncols, sizeof *x->view);
    x->numeric = mem_array(ncols, sizeof *x->numeric);
    x->hidden = mem_array(ncols, sizeof *x->hidden);
    return x;
}

void doctab_free(struct doctab *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < (x->nrows + 1) * x->ncols; i++) {
        free(x->text[i]);
        free(x->view[i]);
        if (x->best)
            free(x->best[i]);
    }
    free(x->text);
    free(x->view);
    free(x->best);
    free(x->numeric);
    free(x->hidden);
    free(x);
}

/* The view's text of a cell: its one number, else its text without marks. */
static char *view_cell(const struct docresult *r)
{
    if (r->nitems == 1 && !isnan(r->items[0].v)) {
        char buf[64];
        csv_format_number(buf, sizeof buf, r->items[0].v);
        return mem_strdup(buf);
    }
    return docresult_text(r, NULL);
}

static bool all_numbers(const struct docresult *r)
{
    for (size_t i = 0; i < r->nitems; i++)
        if (isnan(r->items[i].v))
            return false;
    return true;
}

/* ---- simple tables: rows of the CSV ------------------------------------------------ */

static struct doctab *build_simple(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d)
{
    const struct csv *c = docsrc_get(s, t->q.src, file, t->pos, d);
    if (!c)
        return NULL;
    size_t before = diag_count(d);
    bool *ci = mem_array(t->ncols, sizeof *ci);
    for (size_t k = 0; k < t->ncols; k++) {
        if (csv_column(c, t->cols[k].name) < 0) {
            size_t n = csv_ncols(c);
            const char **cands = mem_array(n + 1, sizeof *cands);
            for (size_t i = 0; i < n; i++)
                cands[i] = csv_header(c, i);
            char msg[256] = "";
            diag_did_you_mean(msg, sizeof msg, diag_suggest(t->cols[k].name, cands));
            free(cands);
            diag_error(d, file, t->pos.line, t->pos.column, "cols: no column '%s' in %s%s", t->cols[k].name,
                       csv_name(c), msg);
            continue;
        }
        int lo, hi;
        ci[k] = t->q.ci && agg_bound_columns(c, t->cols[k].name, AGG_BOUNDS_CI, &lo, &hi);
    }
    size_t n = 0;
    size_t *rows = diag_count(d) == before ? docquery_match(c, &t->q, &n, file, t->pos, d) : NULL;
    if (rows && n == 0)
        diag_error(d, file, t->pos.line, t->pos.column, "no row of %s matches this table's where", csv_name(c));
    if (diag_count(d) != before) {
        free(rows);
        free(ci);
        return NULL;
    }
    struct doctab *x = tab_new(n, t->ncols);
    for (size_t k = 0; k < t->ncols; k++) {
        x->text[k] = mem_strdup(t->cols[k].name);
        x->view[k] = mem_strdup(t->cols[k].name);
        bool any = false, all = true;
        for (size_t i = 0; i < n; i++) {
            struct doc_query q;
            memset(&q, 0, sizeof q);
            q.col = t->cols[k].name;
            q.has_fmt = t->cols[k].has_fmt;
            q.fmt = t->cols[k].fmt;
            q.ci = ci[k];
            struct docresult r;
            size_t at = (i + 1) * x->ncols + k;
            if (docquery_cell(c, &q, rows[i], file, t->pos, &r, d) != 0) {
                x->text[at] = mem_strdup("");
                x->view[at] = mem_strdup("");
                continue;
            }
            x->text[at] = docresult_text(&r, NULL);
            x->view[at] = view_cell(&r);
            if (!r.empty) {
                any = true;
                all = all && all_numbers(&r);
            }
            docresult_free(&r);
        }
        x->numeric[k] = any && all;
    }
    free(rows);
    free(ci);
    if (diag_count(d) != before) {
        doctab_free(x);
        return NULL;
    }
    return x;
}

/* ---- grid tables ----------------------------------------------------------------------- */

/* The query of cell (r, c); its where is its own (rowfilter_free), the
 * other strings (and minus) are borrowed.  -1 with an error when row and column
 * disagree on agg. */
static int merge(const struct doc_table *t, const struct doc_row *r, const struct doc_column *c,
                 struct doc_query *m, const char *file, struct diag *d)
{
    memset(m, 0, sizeof *m);
    rowfilter_overlay(&m->where, &t->q.where);
    rowfilter_overlay(&m->where, &r->q.where);
    rowfilter_overlay(&m->where, &c->q.where);
    m->src = c->q.src ? c->q.src : r->q.src ? r->q.src : t->q.src;
    m->col = c->q.col ? c->q.col : r->q.col ? r->q.col : t->q.col;
    m->by = c->q.by ? c->q.by : r->q.by ? r->q.by : t->q.by;
    m->sep = c->q.sep ? c->q.sep : r->q.sep ? r->q.sep : t->q.sep;
    const struct doc_query *f = c->q.has_fmt ? &c->q : r->q.has_fmt ? &r->q : &t->q;
    m->has_fmt = f->has_fmt;
    m->fmt = f->fmt;
    const struct doc_query *sc = c->q.has_scale ? &c->q : r->q.has_scale ? &r->q : &t->q;
    m->has_scale = sc->has_scale;
    m->scale = sc->scale;
    m->ci = c->q.ci || r->q.ci || t->q.ci;
    /* minus= and match= (borrowed): the column's, else the row's */
    const struct doc_query *pq = c->q.paired ? &c->q : r->q.paired ? &r->q : NULL;
    if (pq) {
        m->paired = true;
        m->minus = pq->minus;
        m->match = pq->match;
        m->nmatch = pq->nmatch;
    }
    if (r->q.agg && c->q.agg && r->q.agg != c->q.agg) {
        diag_error(d, file, c->pos.line, c->pos.column, "column \"%s\" sets agg=%s and row \"%s\" agg=%s: set it on one",
                   c->header, docmark_agg_name(c->q.agg), r->label, docmark_agg_name(r->q.agg));
        rowfilter_free(&m->where);
        return -1;
    }
    m->agg = c->q.agg ? c->q.agg : r->q.agg ? r->q.agg : t->q.agg;
    if (m->agg != DOC_AGG_UNSET && m->agg != DOC_AGG_ONE)
        m->ci = false; /* an interval belongs to one row */
    return 0;
}

static int expr_operand(const struct docresult *row, int col, double num, double *out)
{
    if (col == 0) {
        *out = num;
        return 0;
    }
    const struct docresult *r = &row[col];
    if (r->nitems != 1 || isnan(r->items[0].v))
        return -1;
    *out = r->items[0].v;
    return 0;
}

static void eval_expr(const struct doc_table *t, const struct doc_row *row, const struct doc_column *c,
                      struct docresult *cells, struct docresult *out)
{
    double a, b, v = NAN;
    memset(out, 0, sizeof *out);
    out->sep = mem_strdup(", ");
    if (expr_operand(cells, c->expr.a_col, c->expr.a_num, &a) == 0 &&
        expr_operand(cells, c->expr.b_col, c->expr.b_num, &b) == 0) {
        switch (c->expr.op) {
        case '+': v = a + b; break;
        case '-': v = a - b; break;
        case '*': v = a * b; break;
        default: v = b != 0 ? a / b : NAN; break;
        }
    }
    out->items = mem_alloc(sizeof *out->items);
    out->nitems = 1;
    if (!isfinite(v)) {
        out->empty = true;
        out->items[0] = (struct docitem){mem_strdup(""), NAN};
        return;
    }
    struct doc_query q;
    memset(&q, 0, sizeof q);
    const struct doc_query *f = c->q.has_fmt ? &c->q : row->q.has_fmt ? &row->q : &t->q;
    q.has_fmt = f->has_fmt;
    q.fmt = f->fmt;
    char buf[512];
    docquery_format(&q, v, buf, sizeof buf);
    out->items[0] = (struct docitem){mem_strdup(buf), v};
}

/* Bold the best items of each column group of one row. */
static void mark_best(const struct doc_table *t, enum doc_best mode, const struct docresult *cells, bool **bold)
{
    for (size_t j = 0; j < t->ncolumns; j++) {
        const char *g = t->columns[j].group ? t->columns[j].group : "";
        bool seen = false;
        for (size_t k = 0; k < j && !seen; k++)
            seen = strcmp(t->columns[k].group ? t->columns[k].group : "", g) == 0;
        if (seen)
            continue; /* the group was done at its first column */
        const char *best = NULL;
        double bv = 0;
        for (size_t k = j; k < t->ncolumns; k++) {
            const struct docresult *r = &cells[k + 1];
            if (strcmp(t->columns[k].group ? t->columns[k].group : "", g) != 0 || t->columns[k].has_expr ||
                t->columns[k].no_best || !r->rankable)
                continue;
            for (size_t i = 0; i < r->nitems; i++) {
                double v = r->items[i].v;
                if (isnan(v))
                    continue;
                if (!best || (mode == DOC_BEST_MIN ? v < bv : v > bv)) {
                    best = r->items[i].text;
                    bv = v;
                }
            }
        }
        if (!best)
            continue;
        for (size_t k = j; k < t->ncolumns; k++) {
            const struct docresult *r = &cells[k + 1];
            if (strcmp(t->columns[k].group ? t->columns[k].group : "", g) != 0 || t->columns[k].has_expr ||
                t->columns[k].no_best || !r->rankable)
                continue;
            for (size_t i = 0; i < r->nitems; i++)
                if (!isnan(r->items[i].v) && strcmp(r->items[i].text, best) == 0)
                    bold[k + 1][i] = true;
        }
    }
}

/* Does no row of q's source pass its conditions?  (An optional column's
 * cell is then empty; any other failure is left to docquery_eval.) */
static bool no_row(struct docsrc *s, const struct doc_query *q, const char *file, struct doc_pos pos)
{
    if (!q->src || !q->col)
        return false;
    struct diag scratch = { 0 };
    const struct csv *c = docsrc_get(s, q->src, file, pos, &scratch);
    size_t n = 0;
    size_t *rows = c ? docquery_match(c, q, &n, file, pos, &scratch) : NULL;
    bool none = rows && n == 0;
    free(rows);
    diag_free(&scratch);
    return none;
}

/* The rows of a rows line with each=K1,K2,... (r): one per combination of
 * those columns' values among the rows of its source that the table's and
 * its own where let through (for `rows key:v1,...`, r is the row of one
 * value), in the order the source first has them; labelled with r's label
 * (if any) and the values, joined by spaces, and given the conditions
 * K1:value ...  Appended to *out (the caller frees their labels and
 * queries).  false with an error. */
static bool expand_each(struct docsrc *s, const struct doc_table *t, const struct doc_row *r, const char *file,
                        struct diag *d, struct doc_row **out, size_t *nout)
{
    struct sbuf what = SBUF_INIT; /* for the messages: rows each=K1,K2[ for "value"] */
    sbuf_puts(&what, "rows each=");
    for (size_t k = 0; k < r->neach; k++)
        sbuf_printf(&what, "%s%s", k ? "," : "", r->each[k]);
    if (r->label)
        sbuf_printf(&what, " for \"%s\"", r->label);
    const char *src = r->q.src ? r->q.src : t->q.src;
    const struct csv *c = src ? docsrc_get(s, src, file, r->pos, d) : NULL;
    if (!src)
        diag_error(d, file, r->pos.line, r->pos.column, "%s: no src= to take the rows from (give it on the line or the table)",
                   sbuf_str(&what));
    bool ok = c != NULL;
    size_t *col = mem_array(r->neach, sizeof *col);
    for (size_t k = 0; ok && k < r->neach; k++) {
        int j = csv_column(c, r->each[k]);
        if (j < 0) {
            diag_error(d, file, r->pos.line, r->pos.column, "%s: %s has no column '%s'", sbuf_str(&what), src,
                       r->each[k]);
            ok = false;
        }
        col[k] = j < 0 ? 0 : (size_t)j;
    }
    struct doc_query m;
    memset(&m, 0, sizeof m);
    rowfilter_overlay(&m.where, &t->q.where);
    rowfilter_overlay(&m.where, &r->q.where);
    m.src = (char *)src;
    size_t n = 0, *rows = ok ? docquery_match(c, &m, &n, file, r->pos, d) : NULL;
    if (ok && rows && n == 0) {
        diag_error(d, file, r->pos.line, r->pos.column, "%s: no row of %s matches the where of the table and line",
                   sbuf_str(&what), src);
        ok = false;
    }
    ok = ok && rows;
    /* distinct combinations: each compared column by column with the
     * source row that made it */
    size_t *maker = mem_array(n ? n : 1, sizeof *maker), nmade = 0;
    for (size_t i = 0; ok && i < n; i++) {
        bool dup = false;
        for (size_t e = 0; e < nmade && !dup; e++) {
            dup = true;
            for (size_t k = 0; k < r->neach && dup; k++)
                dup = strcmp(csv_cell(c, rows[i], col[k]), csv_cell(c, maker[e], col[k])) == 0;
        }
        if (dup)
            continue;
        maker[nmade++] = rows[i];
        struct doc_row x;
        memset(&x, 0, sizeof x);
        struct sbuf label = SBUF_INIT;
        sbuf_puts(&label, r->label ? r->label : "");
        docmark_query_copy(&x.q, &r->q);
        for (size_t k = 0; k < r->neach; k++) {
            const char *v = csv_cell(c, rows[i], col[k]);
            sbuf_printf(&label, "%s%s", k || r->label ? " " : "", v);
            rowfilter_add(&x.q.where, r->each[k], FILTER_EQ, v);
        }
        x.label = sbuf_take(&label);
        x.best = r->best;
        x.pos = r->pos;
        *out = mem_realloc(*out, (*nout + 1) * sizeof **out);
        (*out)[(*nout)++] = x;
    }
    free(maker);
    free(rows);
    rowfilter_free(&m.where);
    free(col);
    sbuf_free(&what);
    return ok;
}

static struct doctab *build_grid_rows(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d);

/* A grid: its rows each= expanded first (a table of its own rows, the
 * others borrowed). */
static struct doctab *build_grid(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d)
{
    bool any = false;
    for (size_t i = 0; i < t->nrows && !any; i++)
        any = t->rows[i].each != NULL;
    if (!any)
        return build_grid_rows(s, t, file, d);
    struct doc_table x = *t;
    struct doc_row *rows = NULL;
    size_t n = 0;
    bool *own = NULL, ok = true;
    for (size_t i = 0; i < t->nrows; i++) {
        size_t before = n;
        if (t->rows[i].each) {
            ok = expand_each(s, t, &t->rows[i], file, d, &rows, &n) && ok;
        } else {
            rows = mem_realloc(rows, (n + 1) * sizeof *rows);
            rows[n++] = t->rows[i];
        }
        own = mem_realloc(own, (n ? n : 1) * sizeof *own);
        for (size_t k = before; k < n; k++)
            own[k] = t->rows[i].each != NULL;
    }
    x.rows = rows;
    x.nrows = n;
    struct doctab *tab = ok ? build_grid_rows(s, &x, file, d) : NULL;
    for (size_t k = 0; k < n; k++)
        if (own[k]) {
            free(rows[k].label);
            docmark_query_free(&rows[k].q);
        }
    free(rows);
    free(own);
    return tab;
}

static struct doctab *build_grid_rows(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d)
{
    size_t before = diag_count(d), nc = t->ncolumns + 1;
    struct doctab *x = tab_new(t->nrows, nc);
    struct docresult *cells = mem_array(nc, sizeof *cells);
    bool **bold = mem_array(nc, sizeof *bold);
    bool *numeric_any = mem_array(nc, sizeof *numeric_any), *numeric_all = mem_array(nc, sizeof *numeric_all);
    size_t *missing = mem_array(nc, sizeof *missing); /* optional cells no row matched, per column */
    for (size_t j = 0; j < nc; j++)
        numeric_all[j] = true;

    x->text[0] = mem_strdup(t->head ? t->head : "");
    x->view[0] = mem_strdup(t->head && t->head[0] ? t->head : "row");
    if (t->best)
        x->best = mem_array((t->nrows + 1) * nc, sizeof *x->best);
    for (size_t j = 1; j < nc; j++) {
        const struct doc_column *c = &t->columns[j - 1];
        x->text[j] = mem_strdup(c->header);
        x->view[j] = mem_strdup(c->name ? c->name : c->header);
        x->hidden[j] = c->hide;
        if (x->best) {
            struct sbuf b = SBUF_INIT;
            sbuf_printf(&b, "%s.best", x->view[j]);
            x->best[j] = sbuf_take(&b);
        }
    }
    for (size_t i = 0; i < t->nrows; i++) {
        const struct doc_row *r = &t->rows[i];
        bool row_ok = true;
        memset(cells, 0, nc * sizeof *cells);
        for (size_t j = 1; j < nc; j++) {
            const struct doc_column *c = &t->columns[j - 1];
            struct doc_query m;
            if (c->has_expr)
                continue;
            if (merge(t, r, c, &m, file, d) != 0) {
                row_ok = false;
                continue;
            }
            if (c->optional && no_row(s, &m, file, c->pos)) {
                cells[j].empty = true; /* e.g. a workload with fewer windows */
                missing[j]++;
                rowfilter_free(&m.where);
                continue;
            }
            /* an error names the column's line, and the row when it is not obvious */
            size_t errs = diag_count(d);
            if (docquery_eval(s, &m, file, c->pos, &cells[j], d) != 0) {
                row_ok = false;
                if (diag_count(d) > errs && d->n > 0 && d->items[d->n - 1].msg) {
                    char *old = d->items[d->n - 1].msg;
                    struct sbuf b = SBUF_INIT;
                    sbuf_printf(&b, "row \"%s\", column \"%s\": %s", r->label, c->header, old);
                    d->items[d->n - 1].msg = sbuf_take(&b);
                    free(old);
                }
            }
            rowfilter_free(&m.where);
        }
        for (size_t j = 1; j < nc && row_ok; j++)
            if (t->columns[j - 1].has_expr)
                eval_expr(t, r, &t->columns[j - 1], cells, &cells[j]);
        if (row_ok) {
            enum doc_best mode = r->best ? r->best : t->best;
            for (size_t j = 0; j < nc; j++)
                bold[j] = mem_array(cells[j].nitems + 1, sizeof **bold);
            if (mode == DOC_BEST_MIN || mode == DOC_BEST_MAX)
                mark_best(t, mode, cells, bold);
            for (size_t j = 1; j < nc; j++) {
                x->text[(i + 1) * nc + j] = docresult_text(&cells[j], bold[j]);
                x->view[(i + 1) * nc + j] = view_cell(&cells[j]);
                if (x->best) {
                    bool any = false;
                    for (size_t k = 0; k < cells[j].nitems; k++)
                        any = any || (bold[j][k] && cells[j].items[k].text[0]);
                    x->best[(i + 1) * nc + j] = mem_strdup(any ? "1" : "0");
                }
                if (!cells[j].empty) {
                    numeric_any[j] = true;
                    numeric_all[j] = numeric_all[j] && all_numbers(&cells[j]);
                }
            }
            for (size_t j = 0; j < nc; j++) {
                free(bold[j]);
                bold[j] = NULL;
            }
        }
        x->text[(i + 1) * nc] = mem_strdup(r->label);
        x->view[(i + 1) * nc] = mem_strdup(r->name ? r->name : r->label);
        double v;
        numeric_any[0] = true;
        numeric_all[0] = numeric_all[0] && csv_number(r->label, &v);
        for (size_t j = 0; j < nc; j++)
            docresult_free(&cells[j]);
    }
    for (size_t j = 0; j < nc; j++)
        x->numeric[j] = numeric_any[j] && numeric_all[j];
    /* optional forgives a missing cell, not a column that matches nothing
     * (a mistake in its where, not a workload with fewer windows) */
    for (size_t j = 1; j < nc; j++)
        if (t->nrows && missing[j] == t->nrows)
            diag_error(d, file, t->columns[j - 1].pos.line, t->columns[j - 1].pos.column,
                       "column \"%s\": no row of the results matches it in any row of the table (optional leaves "
                       "single cells empty, not a whole column)",
                       t->columns[j - 1].header);
    free(missing);
    free(cells);
    free(bold);
    free(numeric_any);
    free(numeric_all);
    if (diag_count(d) != before) {
        doctab_free(x);
        return NULL;
    }
    return x;
}

struct doctab *doctab_build(struct docsrc *s, const struct doc_table *t, const char *file, struct diag *d)
{
    return t->ncols ? build_simple(s, t, file, d) : build_grid(s, t, file, d);
}

/* ---- markdown ------------------------------------------------------------------------------ */

char *doctab_markdown(const struct doctab *x)
{
    struct mdgrid g = {x->nrows, x->ncols, x->text, x->numeric, x->hidden};
    return md_render(&g);
}

struct csv *doctab_view(const struct doctab *x, const char *name, const char *file, struct doc_pos pos,
                        struct diag *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i <= x->nrows; i++) {
        for (size_t j = 0; j < x->ncols; j++) {
            if (j)
                fputc(',', f);
            csv_put_field(f, x->view[i * x->ncols + j] ? x->view[i * x->ncols + j] : "");
        }
        for (size_t j = 1; x->best && j < x->ncols; j++) {
            fputc(',', f);
            csv_put_field(f, x->best[i * x->ncols + j] ? x->best[i * x->ncols + j] : "0");
        }
        fputc('\n', f);
    }
    fclose(f);
    struct diag cd;
    diag_init(&cd, NULL);
    struct csv *c = csv_parse(text, len, name, &cd);
    if (!c) {
        char msg[1024];
        diag_first(&cd, msg, sizeof msg);
        diag_error(d, file, pos.line, pos.column, "table %s as a source: %s (give the column a name=)", name, msg);
    }
    diag_free(&cd);
    free(text);
    return c;
}

/* ---- comparison ---------------------------------------------------------------------------- */

struct oldrow {
    char **cell;
    size_t *col; /* character column of each cell in its line */
    size_t n;
};

/* Cells of one markdown table line: outer pipes dropped, split at
 * unescaped '|', blanks trimmed. */
static void split_row(const char *line, size_t len, struct oldrow *r)
{
    size_t a = 0, b = len, cap = 8;
    r->cell = mem_array(cap, sizeof *r->cell);
    r->col = mem_array(cap, sizeof *r->col);
    r->n = 0;
    while (a < b && (line[a] == ' ' || line[a] == '\t'))
        a++;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t' || line[b - 1] == '\r'))
        b--;
    if (a < b && line[a] == '|')
        a++;
    if (b > a && line[b - 1] == '|' && !(b - 1 > a && line[b - 2] == '\\'))
        b--;
    size_t s = a;
    for (size_t i = a; i <= b; i++) {
        if (i < b && !(line[i] == '|' && !(i > a && line[i - 1] == '\\')))
            continue;
        size_t cs = s, ce = i;
        while (cs < ce && (line[cs] == ' ' || line[cs] == '\t'))
            cs++;
        while (ce > cs && (line[ce - 1] == ' ' || line[ce - 1] == '\t'))
            ce--;
        if (r->n == cap) {
            cap *= 2;
            r->cell = mem_realloc(r->cell, cap * sizeof *r->cell);
            r->col = mem_realloc(r->col, cap * sizeof *r->col);
        }
        char *c = mem_alloc(ce - cs + 1);
        memcpy(c, line + cs, ce - cs);
        size_t chars = 1;
        for (size_t k = 0; k < cs; k++)
            chars += ((unsigned char)line[k] & 0xC0) != 0x80;
        r->col[r->n] = chars;
        r->cell[r->n++] = c;
        s = i + 1;
    }
}

static void oldrow_free(struct oldrow *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->cell[i]);
    free(r->cell);
    free(r->col);
}

size_t doctab_compare(const struct doctab *x, const char *old, size_t len, const char *file, int first_line,
                      struct diag *report)
{
    size_t before = diag_count(report);
    char *now = doctab_markdown(x);
    if (strlen(now) == len && memcmp(now, old, len) == 0) {
        free(now);
        return 0;
    }
    /* the document's lines (the separator line is the second) */
    struct oldrow *rows = NULL;
    size_t n = 0;
    for (size_t p = 0; p < len;) {
        const char *nl = memchr(old + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - old) : len;
        rows = mem_realloc(rows, (n + 1) * sizeof *rows);
        split_row(old + p, e - p, &rows[n++]);
        p = e + 1;
    }
    size_t *vis = mem_array(x->ncols, sizeof *vis), nvis = 0; /* shown columns */
    for (size_t j = 0; j < x->ncols; j++)
        if (!x->hidden[j])
            vis[nvis++] = j;
    bool shape = n == x->nrows + 2;
    for (size_t i = 0; shape && i < n; i++)
        shape = rows[i].n == nvis;
    if (n == 0) {
        diag_error(report, file, first_line, 1, "table not filled yet: the results give %zu row%s", x->nrows,
                   x->nrows == 1 ? "" : "s");
    } else if (!shape) {
        diag_error(report, file, first_line, 1,
                   "table differs: the document has %zu line%s, the results give a header, a separator and %zu "
                   "row%s of %zu cells",
                   n, n == 1 ? "" : "s", x->nrows, x->nrows == 1 ? "" : "s", nvis);
    } else {
        for (size_t i = 0; i < n; i++) {
            if (i == 1)
                continue;
            size_t r = i == 0 ? 0 : i - 1;
            for (size_t k = 0; k < nvis; k++) {
                size_t j = vis[k];
                char *want = md_escape(x->text[r * x->ncols + j] ? x->text[r * x->ncols + j] : "");
                if (strcmp(want, rows[i].cell[k]) != 0) {
                    if (r == 0)
                        diag_error(report, file, first_line, (int)rows[i].col[k],
                                   "table header, column %zu: the document has \"%s\", the marker gives \"%s\"", k + 1,
                                   rows[i].cell[k], want);
                    else
                        diag_error(report, file, first_line + (int)i, (int)rows[i].col[k],
                                   "row \"%s\", column \"%s\": the document has %s, the results give %s",
                                   x->text[r * x->ncols], x->text[j], rows[i].cell[k][0] ? rows[i].cell[k] : "(empty)",
                                   want[0] ? want : "(empty)");
                }
                free(want);
            }
        }
        if (diag_count(report) == before)
            diag_error(report, file, first_line, 1, "table layout differs (every cell agrees): `hwprof docs` realigns it");
    }
    for (size_t i = 0; i < n; i++)
        oldrow_free(&rows[i]);
    free(rows);
    free(vis);
    free(now);
    return diag_count(report) - before;
}
