/* docmark_table.c - the grammar of table markers (see docmark.h): the
 * first line's attributes, then the directive lines rows, row and column
 * of a grid, or cols= and fmt= of a table of CSV rows; expr= columns; the
 * checks that need the whole table.
 */
#include "report/docmark_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/sbuf.h"

/* ---- expr -------------------------------------------------------------------------- */

static bool parse_expr_operand(const char **s, int *col, double *num)
{
    const char *p = *s;
    char *e;
    if (*p == '$') {
        long v = strtol(p + 1, &e, 10);
        if (e == p + 1 || v < 1 || v > 1000)
            return false;
        *col = (int)v;
        *num = 0;
    } else {
        double v = strtod(p, &e);
        if (e == p || e - p > 40)
            return false;
        char tmp[48];
        memcpy(tmp, p, (size_t)(e - p));
        tmp[e - p] = '\0';
        if (!csv_number(tmp, &v))
            return false;
        *col = 0;
        *num = v;
    }
    *s = e;
    return true;
}

static bool parse_expr(const char *s, struct doc_expr *x)
{
    memset(x, 0, sizeof *x);
    if (!parse_expr_operand(&s, &x->a_col, &x->a_num))
        return false;
    if (!*s || !strchr("+-*/", *s))
        return false;
    x->op = *s++;
    if (!parse_expr_operand(&s, &x->b_col, &x->b_num))
        return false;
    return *s == '\0' && (x->a_col || x->b_col);
}

/* ---- table lines ------------------------------------------------------------------------ */

static bool is_directive(const char *w)
{
    return strcmp(w, "rows") == 0 || strcmp(w, "row") == 0 || strcmp(w, "column") == 0;
}

/* The first word of text[p, end) (after blanks) into buf. */
static void first_word(const struct parser *P, size_t p, size_t end, char *buf, size_t len)
{
    while (p < end && (P->text[p] == ' ' || P->text[p] == '\t'))
        p++;
    size_t n = 0;
    while (p + n < end && !dm_is_space(P->text[p + n]) && n + 1 < len)
        n++;
    memcpy(buf, P->text + p, n);
    buf[n] = '\0';
}

static bool simple_cols(struct parser *P, struct doc_table *t, const struct attrs *a)
{
    char **names;
    size_t n = rowfilter_split(a->cols, &names);
    bool ok = true;
    t->cols = mem_array(n, sizeof *t->cols);
    t->ncols = n;
    for (size_t i = 0; i < n; i++) {
        if (!names[i][0]) {
            dm_err_at(P, a->cols_off, "cols: an empty column name");
            ok = false;
        }
        t->cols[i].name = names[i];
    }
    free(names);
    if (!a->fmt_raw)
        return ok;
    /* fmt=%.2f (every number) or fmt=col:%.2f,col2:%d */
    const char *pct = strchr(a->fmt_raw, '%'), *colon = strchr(a->fmt_raw, ':');
    if (!colon || (pct && pct < colon)) {
        struct numfmt f;
        const char *why;
        if (numfmt_parse(a->fmt_raw, &f, &why) != 0) {
            dm_err_at(P, a->fmt_off, "fmt '%s': %s", a->fmt_raw, why);
            return false;
        }
        for (size_t i = 0; i < t->ncols; i++) {
            t->cols[i].has_fmt = true;
            t->cols[i].fmt = f;
        }
        return ok;
    }
    char **items;
    size_t m = rowfilter_split(a->fmt_raw, &items);
    for (size_t i = 0; i < m; i++) {
        char *c = strchr(items[i], ':');
        const char *why;
        struct numfmt f;
        if (!c) {
            dm_err_at(P, a->fmt_off, "fmt: '%s' is not column:format", items[i]);
            ok = false;
            continue;
        }
        *c = '\0';
        if (numfmt_parse(c + 1, &f, &why) != 0) {
            dm_err_at(P, a->fmt_off, "fmt '%s' of column %s: %s", c + 1, items[i], why);
            ok = false;
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < t->ncols; k++) {
            if (strcmp(t->cols[k].name, items[i]) == 0) {
                t->cols[k].has_fmt = true;
                t->cols[k].fmt = f;
                found = true;
            }
        }
        if (!found) {
            dm_err_at(P, a->fmt_off, "fmt names column '%s', which is not in cols", items[i]);
            ok = false;
        }
    }
    rowfilter_split_free(items, m);
    return ok;
}

static void row_push(struct doc_table *t, const struct doc_row *r)
{
    t->rows = mem_realloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
    t->rows[t->nrows++] = *r;
}

/* One directive of a table (its tokens in ts, ts->t[0] the directive word). */
static bool table_directive(struct parser *P, struct doc_table *t, const struct toks *ts)
{
    const char *w = ts->t[0].key;
    struct attrs a;
    bool ok = true;
    if (strcmp(w, "column") == 0 || strcmp(w, "row") == 0) {
        bool col = w[0] == 'c';
        if (ts->n < 2 || ts->t[1].key) {
            dm_err_at(P, ts->t[0].off, "%s needs its %s in quotes first: %s \"text\" ...", w, col ? "header" : "label", w);
            return false;
        }
        ok = dm_parse_attrs(P, col ? CTX_COLUMN : CTX_ROW, ts, 2, ts->t[0].off, &a);
        if (!ok) {
            dm_attrs_free(&a);
            return false;
        }
        if (col) {
            struct doc_column c;
            memset(&c, 0, sizeof c);
            c.header = mem_strdup(ts->t[1].val);
            c.name = a.name;
            a.name = NULL;
            c.group = a.group;
            a.group = NULL;
            c.hide = a.hide;
            c.optional = a.optional;
            c.no_best = a.best == DOC_BEST_NONE;
            c.pos = dm_pos_of(P, ts->t[0].off);
            if (a.expr) {
                if (!parse_expr(a.expr, &c.expr)) {
                    dm_err_at(P, a.expr_off, "expr '%s': write $A/$B, $A-$B, $A+$B or $A*$B ($N: the Nth data column, "
                           "or a number)", a.expr);
                    ok = false;
                }
                c.has_expr = true;
                if (a.q.src || a.q.col || a.q.where.n || a.q.agg || a.q.ci || a.q.has_scale) {
                    dm_err_at(P, a.expr_off,
                           "an expr column computes from other columns: no src, col, where, agg, scale or ci");
                    ok = false;
                }
            }
            c.q = a.q;
            memset(&a.q, 0, sizeof a.q);
            t->columns = mem_realloc(t->columns, (t->ncolumns + 1) * sizeof *t->columns);
            t->columns[t->ncolumns++] = c;
        } else {
            struct doc_row r;
            memset(&r, 0, sizeof r);
            r.label = mem_strdup(ts->t[1].val);
            r.name = a.name;
            a.name = NULL;
            r.best = a.best;
            r.pos = dm_pos_of(P, ts->t[0].off);
            r.q = a.q;
            memset(&a.q, 0, sizeof a.q);
            row_push(t, &r);
        }
        dm_attrs_free(&a);
        return ok;
    }
    /* rows key:v1,v2,... [each=k2,...], or rows each=k1,... */
    const struct tok *spec = ts->n >= 2 ? &ts->t[1] : NULL;
    const char *s = spec && spec->key && !spec->val ? spec->key : spec && !spec->key ? spec->val : NULL;
    const char *colon = s ? strchr(s, ':') : NULL;
    bool keyed = colon && colon != s;
    ok = dm_parse_attrs(P, CTX_ROWS, ts, keyed ? 2 : 1, ts->t[0].off, &a);
    if (!keyed && !a.each) {
        dm_err_at(P, ts->t[0].off,
                  "rows needs key:value,value,... first (e.g. rows workload:gzip,bzip2), or each=COLUMN,...");
        dm_attrs_free(&a);
        return false;
    }
    char *key = keyed ? dm_dup(s, (size_t)(colon - s)) : NULL;
    if (key && rowfilter_has_key(&a.q.where, key)) {
        dm_err_at(P, spec->off, "rows sets '%s'; where may not set it too", key);
        ok = false;
    }
    /* each=: the columns whose values in the source make the rows */
    char **each = NULL;
    size_t neach = a.each ? rowfilter_split(a.each, &each) : 0;
    bool blank = false;
    for (size_t i = 0; i < neach; i++)
        blank = blank || !each[i][0];
    if (a.each && (neach == 0 || blank)) {
        dm_err_at(P, a.each_off, "each= needs the columns whose values make the rows (e.g. each=window)");
        ok = false;
    }
    for (size_t i = 0; i < neach && !blank; i++) {
        bool twice = false;
        for (size_t j = 0; j < i; j++)
            twice = twice || strcmp(each[i], each[j]) == 0;
        if (twice || (key && strcmp(each[i], key) == 0)) {
            dm_err_at(P, a.each_off, twice ? "each= names '%s' twice" : "each= names '%s', the rows' key", each[i]);
            ok = false;
        }
        if (rowfilter_has_key(&a.q.where, each[i])) {
            dm_err_at(P, a.each_off, "each= sets '%s'; where may not set it too", each[i]);
            ok = false;
        }
    }
    if (!t->head) {
        struct sbuf head = SBUF_INIT;
        sbuf_puts(&head, key ? key : "");
        for (size_t i = 0; i < neach; i++)
            sbuf_printf(&head, "%s%s", i || key ? " " : "", each[i]);
        t->head = sbuf_take(&head);
    }
    char **vals = NULL;
    size_t n = key ? rowfilter_split(colon + 1, &vals) : 1;
    for (size_t i = 0; ok && i < n; i++) {
        struct doc_row r;
        memset(&r, 0, sizeof r);
        r.label = key ? mem_strdup(vals[i]) : NULL;
        r.best = a.best;
        r.pos = dm_pos_of(P, ts->t[0].off);
        docmark_query_copy(&r.q, &a.q);
        if (key)
            rowfilter_add(&r.q.where, key, FILTER_EQ, vals[i]);
        if (neach) {
            r.neach = neach;
            r.each = mem_array(neach, sizeof *r.each);
            for (size_t k = 0; k < neach; k++)
                r.each[k] = mem_strdup(each[k]);
        }
        row_push(t, &r);
    }
    rowfilter_split_free(vals, key ? n : 0);
    rowfilter_split_free(each, neach);
    free(key);
    dm_attrs_free(&a);
    return ok;
}

void dm_parse_table(struct parser *P, const struct mk *open, const struct mk *close)
{
    struct doc_table t;
    memset(&t, 0, sizeof t);
    t.pos = dm_pos_of(P, open->start);
    t.open_start = open->start;
    t.close_end = close->end;
    bool ok = true;

    /* the opening marker ends its line; the closing one is alone on its line */
    size_t e = open->end;
    while (e < P->len && (P->text[e] == ' ' || P->text[e] == '\t' || P->text[e] == '\r'))
        e++;
    if (e < P->len && P->text[e] != '\n') {
        dm_err_at(P, e, "text after a table marker on its line: the table starts on the next line");
        ok = false;
    }
    t.content_start = e < P->len ? e + 1 : P->len;
    size_t b = close->start;
    while (b > 0 && (P->text[b - 1] == ' ' || P->text[b - 1] == '\t'))
        b--;
    if (b > 0 && P->text[b - 1] != '\n') {
        dm_err_at(P, close->start, "'<!-- /table -->' must start its own line");
        ok = false;
    }
    t.content_end = b;
    if (t.content_end < t.content_start)
        t.content_end = t.content_start; /* "<!-- table ... --><!-- /table -->" (error above) */
    t.content_line = dm_pos_of(P, t.content_start).line;
    size_t a2 = close->end;
    while (a2 < P->len && (P->text[a2] == ' ' || P->text[a2] == '\t' || P->text[a2] == '\r'))
        a2++;
    if (a2 < P->len && P->text[a2] != '\n') {
        dm_err_at(P, a2, "text after '<!-- /table -->' on its line");
        ok = false;
    }

    /* directives: a line that starts with rows, row or column starts one;
     * any other line continues the previous one (the first: the table's own) */
    size_t nspans = 0, cap = 16, p = open->body_start;
    size_t *spans = mem_array(cap, sizeof *spans);
    spans[nspans++] = p;
    while (p < open->body_end) {
        size_t eol = p;
        while (eol < open->body_end && P->text[eol] != '\n')
            eol++;
        char w[16];
        first_word(P, p, eol, w, sizeof w);
        if (p > open->body_start && is_directive(w)) {
            if (nspans + 3 > cap) {
                cap *= 2;
                spans = mem_realloc(spans, cap * sizeof *spans);
            }
            spans[nspans++] = p; /* end of the previous */
            spans[nspans++] = p; /* start of this one */
        }
        p = eol + 1;
    }
    spans[nspans++] = open->body_end;
    struct toks ts = {0};
    struct attrs ta;
    memset(&ta, 0, sizeof ta);
    for (size_t k = 0; k + 1 < nspans; k += 2) {
        dm_toks_free(&ts);
        if (!dm_tokenize(P, spans[k], spans[k + 1], &ts))
            ok = false;
        else if (k == 0)
            ok = dm_parse_attrs(P, CTX_TABLE, &ts, 0, open->start, &ta) && ok;
        else
            ok = table_directive(P, &t, &ts) && ok;
    }
    dm_toks_free(&ts);
    free(spans);

    t.q = ta.q;
    memset(&ta.q, 0, sizeof ta.q);
    t.id = ta.id;
    ta.id = NULL;
    if (ta.head) { /* else the first rows line's key */
        free(t.head);
        t.head = ta.head;
        ta.head = NULL;
    }
    t.best = ta.best;
    if (ta.cols) {
        ok = simple_cols(P, &t, &ta) && ok;
        if (t.nrows || t.ncolumns) {
            dm_err_at(P, open->start, "a table with cols= lists CSV rows: no rows, row or column lines");
            ok = false;
        }
        if (!t.q.src) {
            dm_err_at(P, open->start, "a table with cols= needs src=");
            ok = false;
        }
        if (t.q.col || t.q.agg || t.best || t.head || t.q.has_scale) {
            dm_err_at(P, open->start, "a table with cols= takes src, where, fmt, ci and id (col, agg, best, head and "
                   "scale are for tables of rows and columns)");
            ok = false;
        }
    } else if (ok) {
        if (t.ncolumns == 0 || t.nrows == 0) {
            dm_err_at(P, open->start, "a table needs cols=..., or rows/row lines and column lines");
            ok = false;
        }
        for (size_t i = 0; i < t.ncolumns; i++) {
            const struct doc_expr *x = &t.columns[i].expr;
            if (!t.columns[i].has_expr)
                continue;
            int refs[2] = {x->a_col, x->b_col};
            for (int k = 0; k < 2; k++) {
                int r = refs[k];
                if (r == 0)
                    continue;
                if ((size_t)r > t.ncolumns || (size_t)r == i + 1) {
                    diag_error(P->d, P->name, t.columns[i].pos.line, t.columns[i].pos.column,
                               "expr: $%d is not another column of this table (columns $1..$%zu)", r, t.ncolumns);
                    ok = false;
                } else if (t.columns[r - 1].has_expr && (size_t)r > i + 1) {
                    diag_error(P->d, P->name, t.columns[i].pos.line, t.columns[i].pos.column,
                               "expr: $%d is an expr column to the right of this one", r);
                    ok = false;
                }
            }
        }
    }
    if (t.id) {
        for (size_t i = 0; i < P->doc->ntables; i++) {
            if (P->doc->tables[i].id && strcmp(P->doc->tables[i].id, t.id) == 0) {
                dm_err_at(P, open->start, "table id '%s' already used at line %d", t.id, P->doc->tables[i].pos.line);
                ok = false;
            }
        }
    }
    dm_attrs_free(&ta);
    if (!ok) {
        dm_table_free(&t);
        return;
    }
    P->doc->tables = mem_realloc(P->doc->tables, (P->doc->ntables + 1) * sizeof *P->doc->tables);
    P->doc->tables[P->doc->ntables++] = t;
}

void dm_table_free(struct doc_table *t)
{
    free(t->id);
    free(t->head);
    docmark_query_free(&t->q);
    for (size_t i = 0; i < t->ncols; i++)
        free(t->cols[i].name);
    free(t->cols);
    for (size_t i = 0; i < t->nrows; i++) {
        free(t->rows[i].label);
        free(t->rows[i].name);
        docmark_query_free(&t->rows[i].q);
        rowfilter_split_free(t->rows[i].each, t->rows[i].neach);
    }
    free(t->rows);
    for (size_t i = 0; i < t->ncolumns; i++) {
        free(t->columns[i].header);
        free(t->columns[i].name);
        free(t->columns[i].group);
        docmark_query_free(&t->columns[i].q);
    }
    free(t->columns);
}

