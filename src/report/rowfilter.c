/* rowfilter.c - the filter language over result CSVs (see rowfilter.h):
 * its two spellings, and the one matcher both use. */
#include "report/rowfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- conditions --------------------------------------------------------------- */

void filter_cond_free(struct filter_cond *c)
{
    free(c->key);
    free(c->value);
    free(c->alt);
    memset(c, 0, sizeof *c);
}

void rowfilter_free(struct rowfilter *f)
{
    for (size_t i = 0; i < f->n; i++)
        filter_cond_free(&f->cond[i]);
    free(f->cond);
    f->cond = NULL;
    f->n = 0;
}

static void cond_copy(struct filter_cond *dst, const struct filter_cond *src)
{
    *dst = *src;
    dst->key = mem_strdup(src->key);
    dst->value = mem_strdup(src->value);
    dst->alt = src->alt ? mem_strdup(src->alt) : NULL;
}

static struct filter_cond *push(struct rowfilter *f)
{
    f->cond = mem_realloc(f->cond, (f->n + 1) * sizeof *f->cond);
    memset(&f->cond[f->n], 0, sizeof *f->cond);
    return &f->cond[f->n++];
}

void rowfilter_copy(struct rowfilter *dst, const struct rowfilter *src)
{
    dst->cond = NULL;
    dst->n = 0;
    for (size_t i = 0; i < src->n; i++)
        cond_copy(push(dst), &src->cond[i]);
}

void rowfilter_add(struct rowfilter *f, const char *key, enum filter_op op, const char *value)
{
    struct filter_cond *c = push(f);
    c->key = mem_strdup(key);
    c->op = op;
    c->value = mem_strdup(value);
    c->numeric = csv_number(value, &c->num);
}

bool rowfilter_has_key(const struct rowfilter *f, const char *key)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->cond[i].key, key) == 0)
            return true;
    return false;
}

void rowfilter_overlay(struct rowfilter *f, const struct rowfilter *inner)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (rowfilter_has_key(inner, f->cond[i].key))
            filter_cond_free(&f->cond[i]);
        else
            f->cond[k++] = f->cond[i];
    }
    f->n = k;
    for (size_t j = 0; j < inner->n; j++)
        cond_copy(push(f), &inner->cond[j]);
}

void rowfilter_inherit(struct rowfilter *f, const struct rowfilter *outer)
{
    size_t own = f->n;
    for (size_t i = 0; i < outer->n; i++) {
        bool mine = false;
        for (size_t j = 0; j < own && !mine; j++)
            mine = strcmp(f->cond[j].key, outer->cond[i].key) == 0;
        if (!mine)
            cond_copy(push(f), &outer->cond[i]);
    }
}

bool rowfilter_fixes(const struct rowfilter *f, const char *col)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->cond[i].key, col) == 0) {
            if (f->cond[i].op != FILTER_EQ)
                return false;
            n++;
        }
    return n == 1;
}

/* ---- the config spelling -------------------------------------------------------- */

static bool scalar_ok(json_t *v)
{
    return json_is_string(v) || json_is_number(v) || json_is_boolean(v) || json_is_null(v);
}

size_t rowfilter_check_json(json_t *where, const struct diag_path *at, struct diag *d)
{
    size_t before = diag_count(d);
    const char *key;
    json_t *v;
    if (!json_is_object(where)) {
        diag_path_error(d, at, 0, "must be an object {column: value or [values]}");
        return diag_count(d) - before;
    }
    json_object_foreach(where, key, v) {
        struct diag_path p = *at;
        diag_path_key(&p, key);
        if (json_is_array(v)) {
            size_t i;
            json_t *e;
            if (json_array_size(v) == 0)
                diag_path_error(d, &p, 0, "an empty list matches no row");
            json_array_foreach(v, i, e) {
                if (!scalar_ok(e)) {
                    struct diag_path pi = p;
                    diag_path_index(&pi, i);
                    diag_path_error(d, &pi, 0, "must be a string, number, boolean or null");
                }
            }
        } else if (!scalar_ok(v)) {
            diag_path_error(d, &p, 0, "must be a string, number, boolean, null or a list of them");
        }
    }
    return diag_count(d) - before;
}

void filter_cond_from_json(struct filter_cond *c, const char *key, json_t *v)
{
    char buf[40];
    memset(c, 0, sizeof *c);
    c->key = mem_strdup(key);
    c->op = FILTER_EQ;
    if (json_is_string(v)) {
        c->value = mem_strdup(json_string_value(v));
    } else if (json_is_boolean(v)) {
        c->value = mem_strdup(json_is_true(v) ? "1" : "0");
        c->alt = mem_strdup(json_is_true(v) ? "true" : "false");
    } else if (json_is_number(v)) {
        /* an integer matches its digits too (beyond a double's precision);
         * a fraction's %.17g text is a spelling of the same number */
        if (json_is_integer(v))
            snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else
            snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
        c->value = mem_strdup(buf);
        c->numeric = true;
        c->num = json_number_value(v);
    } else {
        c->value = mem_strdup(""); /* null: the empty cell */
    }
}

size_t rowfilter_from_json(json_t *where, const struct diag_path *at, struct rowfilter *f, struct diag *d)
{
    size_t errors = rowfilter_check_json(where, at, d);
    const char *key;
    json_t *v;
    f->cond = NULL;
    f->n = 0;
    if (errors)
        return errors;
    json_object_foreach(where, key, v) {
        size_t i;
        json_t *e;
        if (!json_is_array(v)) {
            filter_cond_from_json(push(f), key, v);
            continue;
        }
        json_array_foreach(v, i, e)
            filter_cond_from_json(push(f), key, e);
    }
    return 0;
}

/* ---- the marker spelling ---------------------------------------------------------- */

size_t rowfilter_split(const char *s, char ***out)
{
    size_t n = 0, cap = 4;
    char **items = mem_array(cap, sizeof *items);
    struct sbuf b = SBUF_INIT;
    for (const char *c = s;; c++) {
        if (*c == '\\' && (c[1] == ',' || c[1] == '\\')) {
            sbuf_putc(&b, *++c);
            continue;
        }
        if (*c == ',' || *c == '\0') {
            if (n == cap) {
                cap *= 2;
                items = mem_realloc(items, cap * sizeof *items);
            }
            items[n++] = sbuf_take(&b);
            if (*c == '\0')
                break;
            continue;
        }
        sbuf_putc(&b, *c);
    }
    *out = items;
    return n;
}

void rowfilter_split_free(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

bool rowfilter_parse(const char *text, struct rowfilter *f, struct diag *d, const char *file, int line, int column)
{
    char **items;
    size_t n = rowfilter_split(text, &items);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        const char *it = items[i];
        size_t k = strcspn(it, ":!<>");
        enum filter_op op = FILTER_EQ;
        const char *v = it + k;
        switch (*v) {
        case ':': v += 1; break;
        case '!': op = FILTER_NE; v += v[1] == '=' ? 2 : 1; break;
        case '<': op = v[1] == '=' ? FILTER_LE : FILTER_LT; v += v[1] == '=' ? 2 : 1; break;
        case '>': op = v[1] == '=' ? FILTER_GE : FILTER_GT; v += v[1] == '=' ? 2 : 1; break;
        default: break;
        }
        if (it[k] == '\0' || k == 0 || (it[k] == '!' && it[k + 1] != '=')) {
            diag_error(d, file, line, column,
                       "where: '%s' is not key:value, key!=value, key<n, key<=n, key>n or key>=n", it);
            ok = false;
            continue;
        }
        if (op != FILTER_EQ && op != FILTER_NE && !csv_number(v, NULL)) {
            diag_error(d, file, line, column, "where: '%s' compares with '%s', which is not a number", it, v);
            ok = false;
            continue;
        }
        char *key = mem_alloc(k + 1);
        memcpy(key, it, k);
        rowfilter_add(f, key, op, v);
        free(key);
    }
    rowfilter_split_free(items, n);
    return ok;
}

const char *filter_op_text(enum filter_op op)
{
    static const char *const ops[] = {":", "!=", "<", "<=", ">", ">="};
    return (size_t)op < sizeof ops / sizeof ops[0] ? ops[op] : "?";
}

void rowfilter_text(const struct rowfilter *f, struct sbuf *out)
{
    for (size_t i = 0; i < f->n; i++)
        sbuf_printf(out, "%s%s%s%s", i ? "," : "", f->cond[i].key, filter_op_text(f->cond[i].op), f->cond[i].value);
}

/* ---- matching ------------------------------------------------------------------------ */

bool filter_cond_matches(const struct filter_cond *c, const char *cell)
{
    double a;
    bool num = c->numeric && csv_number(cell, &a);
    switch (c->op) {
    case FILTER_EQ:
    case FILTER_NE: {
        bool eq = strcmp(cell, c->value) == 0 || (c->alt && strcmp(cell, c->alt) == 0) || (num && a == c->num);
        return c->op == FILTER_EQ ? eq : !eq;
    }
    case FILTER_LT: return num && a < c->num;
    case FILTER_LE: return num && a <= c->num;
    case FILTER_GT: return num && a > c->num;
    case FILTER_GE: return num && a >= c->num;
    }
    return false;
}

int *rowfilter_columns(const struct rowfilter *f, const struct csv *c)
{
    int *cols = mem_array(f->n ? f->n : 1, sizeof *cols);
    for (size_t i = 0; i < f->n; i++)
        cols[i] = csv_column(c, f->cond[i].key);
    return cols;
}

bool rowfilter_match(const struct rowfilter *f, const struct csv *c, size_t row, const int *cols)
{
    for (size_t i = 0; i < f->n; i++) {
        const struct filter_cond *k = &f->cond[i];
        if (k->op != FILTER_EQ) {
            if (!filter_cond_matches(k, csv_cell(c, row, (size_t)cols[i])))
                return false;
            continue;
        }
        /* the equality conditions on one key: judged at the first of them */
        bool first = true, any = false;
        for (size_t j = 0; j < f->n && first && !any; j++) {
            const struct filter_cond *o = &f->cond[j];
            if (o->op != FILTER_EQ || strcmp(o->key, k->key) != 0)
                continue;
            if (j < i)
                first = false;
            else
                any = filter_cond_matches(o, csv_cell(c, row, (size_t)cols[j]));
        }
        if (first && !any)
            return false;
    }
    return true;
}

size_t *rowfilter_rows(const struct rowfilter *f, const struct csv *c, const int *cols, size_t *n)
{
    size_t nrows = csv_nrows(c);
    size_t *rows = mem_array(nrows ? nrows : 1, sizeof *rows);
    *n = 0;
    for (size_t r = 0; r < nrows; r++)
        if (rowfilter_match(f, c, r, cols))
            rows[(*n)++] = r;
    return rows;
}

size_t *rowfilter_select(const struct rowfilter *f, const struct csv *c, const struct diag_path *at, size_t *n,
                         struct diag *d)
{
    int *cols = rowfilter_columns(f, c);
    bool bad = false;
    *n = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (cols[i] >= 0 || (i > 0 && strcmp(f->cond[i - 1].key, f->cond[i].key) == 0))
            continue; /* a JSON list's values are adjacent: one error per key */
        struct diag_path p = *at;
        diag_path_key(&p, f->cond[i].key);
        diag_path_error(d, &p, 1, "no column '%s' in %s", f->cond[i].key, csv_name(c));
        bad = true;
    }
    size_t *rows = bad ? NULL : rowfilter_rows(f, c, cols, n);
    free(cols);
    return rows;
}
