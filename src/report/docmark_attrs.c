/* docmark_attrs.c - the attributes of a marker (see docmark.h): the
 * tokens key=value, key="quoted value", "positional" and bare words, and
 * what each key means in each place (value, defaults, table, rows, row,
 * column), into struct doc_query and the table's extras.
 */
#include "report/docmark_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/sbuf.h"

/* ---- tokens ------------------------------------------------------------------- */

void dm_toks_free(struct toks *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        free(ts->t[i].key);
        free(ts->t[i].val);
    }
    free(ts->t);
    ts->t = NULL;
    ts->n = ts->cap = 0;
}

char *dm_dup(const char *s, size_t n)
{
    char *r = mem_alloc(n + 1);
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

/* A quoted string at text[*p] == '"'; advances past the closing quote.
 * NULL (error reported) when it is not closed before end. */
static char *quoted(struct parser *P, size_t *p, size_t end)
{
    struct sbuf b = SBUF_INIT;
    size_t start = *p;
    for (size_t i = *p + 1; i < end; i++) {
        char c = P->text[i];
        if (c == '\\' && i + 1 < end && (P->text[i + 1] == '"' || P->text[i + 1] == '\\')) {
            sbuf_putc(&b, P->text[++i]);
            continue;
        }
        if (c == '"') {
            *p = i + 1;
            sbuf_puts(&b, ""); /* "" is a value too */
            return sbuf_take(&b);
        }
        sbuf_putc(&b, c);
    }
    sbuf_free(&b);
    dm_err_at(P, start, "quoted text not closed");
    return NULL;
}

/* Tokens of text[start, end).  Returns false (errors reported) on a syntax error. */
bool dm_tokenize(struct parser *P, size_t start, size_t end, struct toks *ts)
{
    size_t p = start;
    bool ok = true;
    for (;;) {
        while (p < end && dm_is_space(P->text[p]))
            p++;
        if (p >= end)
            return ok;
        struct tok t = {p, NULL, NULL};
        if (P->text[p] == '"') {
            t.val = quoted(P, &p, end);
            if (!t.val)
                return false;
        } else {
            size_t k = p;
            while (k < end && !dm_is_space(P->text[k]) && P->text[k] != '=' && P->text[k] != '"')
                k++;
            t.key = dm_dup(P->text + p, k - p);
            p = k;
            if (p < end && P->text[p] == '=') {
                p++;
                if (p < end && P->text[p] == '"') {
                    t.val = quoted(P, &p, end);
                    if (!t.val) {
                        free(t.key);
                        return false;
                    }
                } else {
                    size_t v = p;
                    while (p < end && !dm_is_space(P->text[p]) && P->text[p] != '"')
                        p++;
                    t.val = dm_dup(P->text + v, p - v);
                }
            }
            if (t.key[0] == '\0') {
                dm_err_at(P, t.off, "'=' without a name before it");
                ok = false;
            }
            if (p < end && P->text[p] == '"') {
                dm_err_at(P, p, "a quote inside a word: quote the whole value (key=\"a b\")");
                ok = false;
                while (p < end && !dm_is_space(P->text[p]))
                    p++;
            }
        }
        if (ts->n == ts->cap) {
            ts->cap = ts->cap ? 2 * ts->cap : 8;
            ts->t = mem_realloc(ts->t, ts->cap * sizeof *ts->t);
        }
        ts->t[ts->n++] = t;
    }
}

/* ---- attribute values ------------------------------------------------------------ */

static const char *const agg_names[] = {"", "one", "mean", "min", "max", "sum", "count", "range", "list",
                                        "argmin", "argmax", NULL};

const char *docmark_agg_name(enum doc_agg a)
{
    return (size_t)a < sizeof agg_names / sizeof agg_names[0] - 1 ? agg_names[a] : "?";
}

/* ---- directives ------------------------------------------------------------------- */

/* "in a value marker", ..., "in a query" (a claim's, outside a document) */
static const char *const ctx_name[] = {"value marker", "defaults marker", "table marker", "rows marker",
                                       "row marker",   "column marker",   "query"};

/* Keys each context accepts; "ci", "hide" and "optional" are flags. */
static const char *const keys_query[] = {"src", "where", "col", "agg", "by", "sep", "fmt", "scale", "ci", NULL};
static const char *const keys_value[] = {"src", "where", "col",  "agg",   "by",  "sep", "fmt",
                                         "scale", "ci", "minus", "match", NULL};
static const char *const keys_claim[] = {"src", "where", "col", NULL};
static const char *const keys_table[] = {"src", "where", "col", "agg", "by",   "sep",  "fmt",
                                         "scale", "ci", "id", "head", "best", "cols", NULL};
static const char *const keys_rows[] = {"src", "where", "col", "agg", "by", "sep", "fmt", "scale", "ci", "best", "each", NULL};
static const char *const keys_row[] = {"src",   "where", "col", "agg",  "by",   "sep",  "fmt",
                                       "scale", "ci",    "best", "name", "minus", "match", NULL};
static const char *const keys_column[] = {"src",  "where", "col",  "agg",  "by",   "sep",   "fmt",   "scale",
                                          "ci",   "name",  "group", "expr", "hide", "optional", "best", "minus", "match", NULL};

static const char *const *ctx_keys(enum ctx c)
{
    switch (c) {
    case CTX_VALUE: return keys_value;
    case CTX_TABLE: return keys_table;
    case CTX_ROWS: return keys_rows;
    case CTX_ROW: return keys_row;
    case CTX_COLUMN: return keys_column;
    case CTX_QUERY: return keys_claim;
    default: return keys_query;
    }
}

static bool in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

void docmark_query_free(struct doc_query *q)
{
    free(q->src);
    rowfilter_free(&q->where);
    free(q->col);
    free(q->by);
    free(q->sep);
    rowfilter_free(&q->minus);
    rowfilter_split_free(q->match, q->nmatch);
    memset(q, 0, sizeof *q);
}

void docmark_query_copy(struct doc_query *dst, const struct doc_query *src)
{
    *dst = *src;
    dst->src = src->src ? mem_strdup(src->src) : NULL;
    dst->col = src->col ? mem_strdup(src->col) : NULL;
    dst->by = src->by ? mem_strdup(src->by) : NULL;
    dst->sep = src->sep ? mem_strdup(src->sep) : NULL;
    rowfilter_copy(&dst->where, &src->where);
    rowfilter_copy(&dst->minus, &src->minus);
    dst->match = src->nmatch ? mem_array(src->nmatch, sizeof *dst->match) : NULL;
    for (size_t i = 0; i < src->nmatch; i++)
        dst->match[i] = mem_strdup(src->match[i]);
}

void dm_attrs_free(struct attrs *a)
{
    docmark_query_free(&a->q);
    free(a->id);
    free(a->head);
    free(a->name);
    free(a->group);
    free(a->expr);
    free(a->cols);
    free(a->fmt_raw);
    free(a->each);
}

/* Interpret tokens t[from..n) in context c into a.  Returns false on an error. */
bool dm_parse_attrs(struct parser *P, enum ctx c, const struct toks *ts, size_t from, size_t at, struct attrs *a)
{
    bool ok = true;
    const char *const *keys = ctx_keys(c);
    memset(a, 0, sizeof *a);
    for (size_t i = from; i < ts->n; i++) {
        const struct tok *t = &ts->t[i];
        if (!t->key) {
            dm_err_at(P, t->off, "unexpected quoted text \"%s\" in a %s", t->val, ctx_name[c]);
            ok = false;
            continue;
        }
        if (!in_list(t->key, keys)) {
            char msg[96] = "";
            diag_did_you_mean(msg, sizeof msg, diag_suggest(t->key, keys));
            dm_err_at(P, t->off, "unknown %s '%s' in a %s%s", t->val ? "attribute" : "word", t->key,
                   ctx_name[c], msg);
            ok = false;
            continue;
        }
        bool dup = false;
        for (size_t j = from; j < i; j++)
            dup = dup || (ts->t[j].key && strcmp(ts->t[j].key, t->key) == 0);
        if (dup) {
            dm_err_at(P, t->off, "'%s' given twice", t->key);
            ok = false;
            continue;
        }
        if (strcmp(t->key, "ci") == 0 || strcmp(t->key, "hide") == 0 || strcmp(t->key, "optional") == 0) {
            if (t->val) {
                dm_err_at(P, t->off, "'%s' is a flag: write it without a value", t->key);
                ok = false;
            }
            if (t->key[0] == 'c')
                a->q.ci = true;
            else if (t->key[0] == 'h')
                a->hide = true;
            else
                a->optional = true;
            continue;
        }
        if (!t->val) {
            dm_err_at(P, t->off, "'%s' needs a value (%s=...)", t->key, t->key);
            ok = false;
            continue;
        }
        const char *v = t->val;
        if (strcmp(t->key, "src") == 0) {
            if (!v[0] || (v[0] == '#' && !v[1])) {
                dm_err_at(P, t->off, "src: a CSV path or #id of a table");
                ok = false;
            }
            a->q.src = mem_strdup(v);
        } else if (strcmp(t->key, "where") == 0) {
            struct doc_pos wp = dm_pos_of(P, t->off);
            ok = rowfilter_parse(v, &a->q.where, P->d, P->name, wp.line, wp.column) && ok;
        } else if (strcmp(t->key, "minus") == 0) {
            struct doc_pos wp = dm_pos_of(P, t->off);
            ok = rowfilter_parse(v, &a->q.minus, P->d, P->name, wp.line, wp.column) && ok;
            a->q.paired = true;
        } else if (strcmp(t->key, "match") == 0) {
            a->q.nmatch = rowfilter_split(v, &a->q.match);
            for (size_t j = 0; j < a->q.nmatch; j++)
                if (!a->q.match[j][0]) {
                    dm_err_at(P, t->off, "match: column names, separated by commas");
                    ok = false;
                    break;
                }
        } else if (strcmp(t->key, "col") == 0) {
            if (!v[0]) {
                dm_err_at(P, t->off, "col: a column name");
                ok = false;
            }
            a->q.col = mem_strdup(v);
        } else if (strcmp(t->key, "agg") == 0) {
            int k = -1;
            for (int j = 1; agg_names[j]; j++)
                if (strcmp(v, agg_names[j]) == 0)
                    k = j;
            if (k < 0) {
                char msg[96] = "";
                diag_did_you_mean(msg, sizeof msg, diag_suggest(v, agg_names + 1));
                dm_err_at(P, t->off, "agg: '%s' is not one of one, mean, min, max, sum, count, range, list, argmin, argmax%s",
                       v, msg);
                ok = false;
            } else {
                a->q.agg = (enum doc_agg)k;
            }
        } else if (strcmp(t->key, "scale") == 0) {
            if (!csv_number(v, &a->q.scale) || a->q.scale == 0) {
                dm_err_at(P, t->off, "scale: a non-zero number (e.g. 1e-6 for millions, 100 for percent)");
                ok = false;
            }
            a->q.has_scale = true;
        } else if (strcmp(t->key, "by") == 0) {
            a->q.by = mem_strdup(v);
        } else if (strcmp(t->key, "sep") == 0) {
            a->q.sep = mem_strdup(v);
        } else if (strcmp(t->key, "fmt") == 0) {
            a->fmt_raw = mem_strdup(v);
            a->fmt_off = t->off;
        } else if (strcmp(t->key, "best") == 0) {
            if (strcmp(v, "min") == 0)
                a->best = DOC_BEST_MIN;
            else if (strcmp(v, "max") == 0)
                a->best = DOC_BEST_MAX;
            else if (strcmp(v, "none") == 0 && c != CTX_TABLE)
                a->best = DOC_BEST_NONE;
            else {
                dm_err_at(P, t->off, "best: %s", c == CTX_COLUMN ? "none (leave the column out of best marks)"
                                              : c == CTX_TABLE ? "min or max" : "min, max or none");
                ok = false;
            }
            if (c == CTX_COLUMN && a->best != DOC_BEST_NONE) {
                dm_err_at(P, t->off, "best: none (a column can only leave the best marks; set min or max on the table)");
                ok = false;
            }
        } else if (strcmp(t->key, "id") == 0) {
            a->id = mem_strdup(v);
        } else if (strcmp(t->key, "head") == 0) {
            a->head = mem_strdup(v);
        } else if (strcmp(t->key, "name") == 0) {
            a->name = mem_strdup(v);
        } else if (strcmp(t->key, "group") == 0) {
            a->group = mem_strdup(v);
        } else if (strcmp(t->key, "expr") == 0) {
            a->expr = mem_strdup(v);
            a->expr_off = t->off;
        } else if (strcmp(t->key, "cols") == 0) {
            a->cols = mem_strdup(v);
            a->cols_off = t->off;
        } else if (strcmp(t->key, "each") == 0) {
            a->each = mem_strdup(v);
            a->each_off = t->off;
        }
    }
    /* fmt: one format, except a simple table's column:format list */
    if (a->fmt_raw && !(c == CTX_TABLE && a->cols)) {
        const char *why;
        if (numfmt_parse(a->fmt_raw, &a->q.fmt, &why) != 0) {
            dm_err_at(P, a->fmt_off, "fmt '%s': %s", a->fmt_raw, why);
            ok = false;
        } else {
            a->q.has_fmt = true;
        }
    }
    if (a->q.by && a->q.agg != DOC_AGG_ARGMIN && a->q.agg != DOC_AGG_ARGMAX) {
        dm_err_at(P, at, "'by' goes with agg=argmin or agg=argmax");
        ok = false;
    }
    if ((a->q.agg == DOC_AGG_ARGMIN || a->q.agg == DOC_AGG_ARGMAX) && !a->q.by) {
        dm_err_at(P, at, "agg=%s needs by=COLUMN (the column to minimise or maximise)",
               agg_names[a->q.agg]);
        ok = false;
    }
    if (a->q.sep && a->q.agg != DOC_AGG_RANGE && a->q.agg != DOC_AGG_LIST && a->q.agg != DOC_AGG_UNSET) {
        dm_err_at(P, at, "'sep' goes with agg=range or agg=list");
        ok = false;
    }
    if (a->q.ci && a->q.agg != DOC_AGG_UNSET && a->q.agg != DOC_AGG_ONE && a->q.agg != DOC_AGG_MEAN) {
        dm_err_at(P, at, "'ci' shows one row's interval, or with agg=mean the interval over the rows: not with agg=%s",
               agg_names[a->q.agg]);
        ok = false;
    }
    if (a->q.nmatch && !a->q.paired) {
        dm_err_at(P, at, "'match' goes with minus= (the columns paired rows share)");
        ok = false;
    }
    if (a->q.paired && a->q.agg != DOC_AGG_UNSET && a->q.agg != DOC_AGG_ONE && a->q.agg != DOC_AGG_MEAN &&
        a->q.agg != DOC_AGG_MIN && a->q.agg != DOC_AGG_MAX && a->q.agg != DOC_AGG_RANGE && a->q.agg != DOC_AGG_LIST) {
        dm_err_at(P, at, "minus= gives one paired difference per workload: agg=one, mean, min, max, range or list, "
                         "not agg=%s", agg_names[a->q.agg]);
        ok = false;
    }
    return ok;
}

