/* docmark.c - the marker parser (see docmark.h).
 *
 * Two passes.  The scanner walks the markdown line by line, skips fenced
 * code blocks and inline code spans, and lists every HTML comment whose
 * first word is a marker keyword (value, /value, table, /table, defaults).
 * The pairing pass then checks that each opening marker is followed by its
 * closing one, locates the text they enclose, and parses the attributes
 * into struct doc_query and friends.  Nothing here reads a CSV: whether a
 * column or a row exists is docfill's business.
 */
#include "docmark.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "sbuf.h"

enum mk_kind { MK_VALUE, MK_VALUE_END, MK_TABLE, MK_TABLE_END, MK_DEFAULTS };

static const char *const mk_words[] = {"value", "/value", "table", "/table", "defaults", NULL};

struct mk {
    enum mk_kind kind;
    bool broken;                 /* reported already: its closing marker is not reported again */
    size_t start, end;           /* "<!--" .. after "-->" */
    size_t body_start, body_end; /* after the keyword .. before "-->" */
};

struct parser {
    const char *text;
    size_t len;
    const char *name;
    struct diag *d;
    size_t *line_start;
    size_t nlines;
    struct mk *mk;
    size_t nmk, capmk;
    struct doc *doc;
    struct doc_query defaults;
    size_t errors_before;
};

/* ---- positions ------------------------------------------------------------- */

static void index_lines(struct parser *P)
{
    size_t n = 1;
    for (size_t i = 0; i < P->len; i++)
        n += P->text[i] == '\n';
    P->line_start = mem_array(n, sizeof *P->line_start);
    P->nlines = 0;
    P->line_start[P->nlines++] = 0;
    for (size_t i = 0; i < P->len; i++)
        if (P->text[i] == '\n')
            P->line_start[P->nlines++] = i + 1;
}

static struct doc_pos pos_of(const struct parser *P, size_t off)
{
    size_t lo = 0, hi = P->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (P->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    struct doc_pos p = {(int)(lo + 1 > INT32_MAX ? INT32_MAX : lo + 1), 1};
    for (size_t i = P->line_start[lo]; i < off && i < P->len; i++)
        p.column += ((unsigned char)P->text[i] & 0xC0) != 0x80; /* characters, not bytes */
    return p;
}

static void err_at(struct parser *P, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err_at(struct parser *P, size_t off, const char *fmt, ...)
{
    struct doc_pos p = pos_of(P, off);
    va_list ap;
    va_start(ap, fmt);
    diag_verror(P->d, P->name, p.line, p.column, fmt, ap);
    va_end(ap);
}

/* ---- scanning ----------------------------------------------------------------- */

static size_t line_end(const struct parser *P, size_t p)
{
    const char *nl = memchr(P->text + p, '\n', P->len - p);
    return nl ? (size_t)(nl - P->text) : P->len;
}

static bool starts(const struct parser *P, size_t p, const char *s)
{
    size_t n = strlen(s);
    return p + n <= P->len && memcmp(P->text + p, s, n) == 0;
}

/* Does s (n bytes) contain needle? */
static bool find(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return true;
    return false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A fence opening or closing a code block: up to 3 spaces, 3 or more ` or ~.
 * Returns the run length (0: not a fence) and its character in *ch. */
static size_t fence_at(const struct parser *P, size_t p, size_t eol, char *ch)
{
    size_t i = p, n = 0;
    while (i < eol && i - p < 3 && P->text[i] == ' ')
        i++;
    if (i >= eol || (P->text[i] != '`' && P->text[i] != '~'))
        return 0;
    *ch = P->text[i];
    while (i + n < eol && P->text[i + n] == *ch)
        n++;
    return n >= 3 ? n : 0;
}

static void add_mk(struct parser *P, enum mk_kind k, size_t start, size_t end, size_t body_start, size_t body_end)
{
    if (P->nmk == P->capmk) {
        P->capmk = P->capmk ? 2 * P->capmk : 16;
        P->mk = mem_realloc(P->mk, P->capmk * sizeof *P->mk);
    }
    P->mk[P->nmk++] = (struct mk){k, false, start, end, body_start, body_end};
}

/* A marker whose error is reported: remembered only so that its closing
 * marker does not add a second message about the same mistake. */
static void add_broken(struct parser *P, int kind, size_t start)
{
    if (kind != MK_VALUE && kind != MK_TABLE)
        return;
    add_mk(P, (enum mk_kind)kind, start, start, start, start);
    P->mk[P->nmk - 1].broken = true;
}

/* A comment from start ("<!--") to end (after "-->"; end == 0: unterminated). */
static void comment(struct parser *P, size_t start, size_t end)
{
    size_t body_end = end ? end - 3 : P->len;
    size_t w = start + 4;
    while (w < body_end && is_space(P->text[w]))
        w++;
    size_t we = w;
    while (we < body_end && !is_space(P->text[we]))
        we++;
    char word[32];
    size_t wl = we - w < sizeof word - 1 ? we - w : sizeof word - 1;
    memcpy(word, P->text + w, wl);
    word[wl] = '\0';
    int kind = -1;
    for (int i = 0; mk_words[i]; i++)
        if (we - w == strlen(mk_words[i]) && strcmp(word, mk_words[i]) == 0)
            kind = i;
    if (kind < 0) {
        /* an ordinary comment, unless it looks like a mistyped marker */
        const char *s = diag_suggest(word, mk_words);
        if (s && wl >= 4 && memchr(P->text + we, '=', body_end - we)) {
            err_at(P, start, "unknown marker '%s' (did you mean '%s'?)", word, s);
            for (int i = 0; mk_words[i]; i++)
                if (strcmp(s, mk_words[i]) == 0)
                    add_broken(P, i, start);
        }
        return;
    }
    if (!end) {
        err_at(P, start, "'%s' marker not closed: no '-->' after it", word);
        return;
    }
    for (size_t i = start + 4; i + 1 < body_end; i++) {
        if (P->text[i] == '-' && P->text[i + 1] == '-') {
            if (i >= start + 6 && P->text[i - 1] == '!' && P->text[i - 2] == '<') {
                /* the usual cause: this marker lost its "-->" and ran into the next one */
                struct doc_pos next = pos_of(P, i - 2);
                err_at(P, start, "'%s' marker not closed: no '-->' before the next '<!--' (line %d:%d)", word,
                       next.line, next.column);
                return; /* the closing marker it ran into went with it */
            }
            err_at(P, i, "'--' inside a marker: markdown would show the marker as text");
            add_broken(P, kind, start);
            return;
        }
    }
    add_mk(P, (enum mk_kind)kind, start, end, we, body_end);
}

static void scan(struct parser *P)
{
    size_t p = 0;
    bool in_fence = false;
    char fence_ch = 0;
    size_t fence_len = 0;
    while (p < P->len) {
        size_t eol = line_end(P, p);
        char ch = 0;
        size_t f = fence_at(P, p, eol, &ch);
        if (in_fence) {
            if (f >= fence_len && ch == fence_ch) {
                size_t i = p;
                while (i < eol && (P->text[i] == ' ' || P->text[i] == ch))
                    i++;
                while (i < eol && is_space(P->text[i]))
                    i++;
                if (i == eol)
                    in_fence = false;
            }
            p = eol + 1;
            continue;
        }
        if (f) {
            in_fence = true;
            fence_ch = ch;
            fence_len = f;
            p = eol + 1;
            continue;
        }
        size_t q = p, ticks = 0;
        while (q < eol) {
            if (P->text[q] == '`') {
                size_t k = 0;
                while (q + k < eol && P->text[q + k] == '`')
                    k++;
                if (ticks == 0)
                    ticks = k;
                else if (k == ticks)
                    ticks = 0;
                q += k;
                continue;
            }
            if (ticks == 0 && starts(P, q, "<!--")) {
                const char *e = NULL;
                for (size_t i = q + 4; i + 3 <= P->len; i++) {
                    if (P->text[i] == '-' && P->text[i + 1] == '-' && P->text[i + 2] == '>') {
                        e = P->text + i;
                        break;
                    }
                }
                if (!e) {
                    comment(P, q, 0);
                    return;
                }
                size_t end = (size_t)(e - P->text) + 3, had = P->nmk;
                comment(P, q, end);
                q = end;
                if (P->nmk > had && P->mk[had].kind == MK_VALUE && !P->mk[had].broken) {
                    /* a value's text is ours, not markdown: a backtick, a newline or a
                     * fence that a fill wrote there must not hide the next marker
                     * (else a second fill would read the document differently) */
                    for (size_t i = q; i + 4 <= P->len; i++) {
                        if (starts(P, i, "<!--")) {
                            q = i;
                            break;
                        }
                    }
                }
                if (q > eol) /* the comment spanned lines: go on in the line it ended on */
                    eol = line_end(P, q);
                continue;
            }
            q++;
        }
        p = eol + 1;
    }
}

/* ---- tokens ------------------------------------------------------------------- */

/* key=value, key="value", "positional" or a bare word (key, no value). */
struct tok {
    size_t off;
    char *key; /* NULL: a quoted positional string */
    char *val; /* NULL: a bare word */
};

struct toks {
    struct tok *t;
    size_t n, cap;
};

static void toks_free(struct toks *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        free(ts->t[i].key);
        free(ts->t[i].val);
    }
    free(ts->t);
    ts->t = NULL;
    ts->n = ts->cap = 0;
}

static char *dup_range(const char *s, size_t n)
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
    err_at(P, start, "quoted text not closed");
    return NULL;
}

/* Tokens of text[start, end).  Returns false (errors reported) on a syntax error. */
static bool tokenize(struct parser *P, size_t start, size_t end, struct toks *ts)
{
    size_t p = start;
    bool ok = true;
    for (;;) {
        while (p < end && is_space(P->text[p]))
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
            while (k < end && !is_space(P->text[k]) && P->text[k] != '=' && P->text[k] != '"')
                k++;
            t.key = dup_range(P->text + p, k - p);
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
                    while (p < end && !is_space(P->text[p]) && P->text[p] != '"')
                        p++;
                    t.val = dup_range(P->text + v, p - v);
                }
            }
            if (t.key[0] == '\0') {
                err_at(P, t.off, "'=' without a name before it");
                ok = false;
            }
            if (p < end && P->text[p] == '"') {
                err_at(P, p, "a quote inside a word: quote the whole value (key=\"a b\")");
                ok = false;
                while (p < end && !is_space(P->text[p]))
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

/* ---- directives ------------------------------------------------------------------- */

enum ctx { CTX_VALUE, CTX_DEFAULTS, CTX_TABLE, CTX_ROWS, CTX_ROW, CTX_COLUMN };

static const char *const ctx_name[] = {"value", "defaults", "table", "rows", "row", "column"};

/* Keys each context accepts; "ci" and "hide" are flags. */
static const char *const keys_query[] = {"src", "where", "col", "agg", "by", "sep", "fmt", "scale", "ci", NULL};
static const char *const keys_table[] = {"src", "where", "col", "agg", "by",   "sep",  "fmt",
                                         "scale", "ci", "id", "head", "best", "cols", NULL};
static const char *const keys_rows[] = {"src", "where", "col", "agg", "by", "sep", "fmt", "scale", "ci", "best", NULL};
static const char *const keys_row[] = {"src", "where", "col", "agg",   "by", "sep", "fmt",
                                       "scale", "ci", "best", "name", NULL};
static const char *const keys_column[] = {"src",  "where", "col",  "agg",  "by",   "sep", "fmt", "scale",
                                          "ci",   "name",  "group", "expr", "hide", "best", NULL};

static const char *const *ctx_keys(enum ctx c)
{
    switch (c) {
    case CTX_TABLE: return keys_table;
    case CTX_ROWS: return keys_rows;
    case CTX_ROW: return keys_row;
    case CTX_COLUMN: return keys_column;
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

static void query_free(struct doc_query *q)
{
    free(q->src);
    rowfilter_free(&q->where);
    free(q->col);
    free(q->by);
    free(q->sep);
    memset(q, 0, sizeof *q);
}

static void query_copy(struct doc_query *dst, const struct doc_query *src)
{
    *dst = *src;
    dst->src = src->src ? mem_strdup(src->src) : NULL;
    dst->col = src->col ? mem_strdup(src->col) : NULL;
    dst->by = src->by ? mem_strdup(src->by) : NULL;
    dst->sep = src->sep ? mem_strdup(src->sep) : NULL;
    rowfilter_copy(&dst->where, &src->where);
}

/* The attributes of one directive, parsed.  Extra (context-specific) values
 * are left in the slots below for the caller. */
struct attrs {
    struct doc_query q;
    char *id, *head, *name, *group, *expr, *cols, *fmt_raw;
    size_t fmt_off, expr_off, cols_off;
    enum doc_best best;
    bool hide;
    size_t off;
};

static void attrs_free(struct attrs *a)
{
    query_free(&a->q);
    free(a->id);
    free(a->head);
    free(a->name);
    free(a->group);
    free(a->expr);
    free(a->cols);
    free(a->fmt_raw);
}

/* Interpret tokens t[from..n) in context c into a.  Returns false on an error. */
static bool parse_attrs(struct parser *P, enum ctx c, const struct toks *ts, size_t from, size_t at, struct attrs *a)
{
    bool ok = true;
    const char *const *keys = ctx_keys(c);
    memset(a, 0, sizeof *a);
    for (size_t i = from; i < ts->n; i++) {
        const struct tok *t = &ts->t[i];
        if (!t->key) {
            err_at(P, t->off, "unexpected quoted text \"%s\" in a %s marker", t->val, ctx_name[c]);
            ok = false;
            continue;
        }
        if (!in_list(t->key, keys)) {
            char msg[96] = "";
            diag_did_you_mean(msg, sizeof msg, diag_suggest(t->key, keys));
            err_at(P, t->off, "unknown %s '%s' in a %s marker%s", t->val ? "attribute" : "word", t->key,
                   ctx_name[c], msg);
            ok = false;
            continue;
        }
        bool dup = false;
        for (size_t j = from; j < i; j++)
            dup = dup || (ts->t[j].key && strcmp(ts->t[j].key, t->key) == 0);
        if (dup) {
            err_at(P, t->off, "'%s' given twice", t->key);
            ok = false;
            continue;
        }
        if (strcmp(t->key, "ci") == 0 || strcmp(t->key, "hide") == 0) {
            if (t->val) {
                err_at(P, t->off, "'%s' is a flag: write it without a value", t->key);
                ok = false;
            }
            if (t->key[0] == 'c')
                a->q.ci = true;
            else
                a->hide = true;
            continue;
        }
        if (!t->val) {
            err_at(P, t->off, "'%s' needs a value (%s=...)", t->key, t->key);
            ok = false;
            continue;
        }
        const char *v = t->val;
        if (strcmp(t->key, "src") == 0) {
            if (!v[0] || (v[0] == '#' && !v[1])) {
                err_at(P, t->off, "src: a CSV path or #id of a table");
                ok = false;
            }
            a->q.src = mem_strdup(v);
        } else if (strcmp(t->key, "where") == 0) {
            struct doc_pos wp = pos_of(P, t->off);
            ok = rowfilter_parse(v, &a->q.where, P->d, P->name, wp.line, wp.column) && ok;
        } else if (strcmp(t->key, "col") == 0) {
            if (!v[0]) {
                err_at(P, t->off, "col: a column name");
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
                err_at(P, t->off, "agg: '%s' is not one of one, mean, min, max, sum, count, range, list, argmin, argmax%s",
                       v, msg);
                ok = false;
            } else {
                a->q.agg = (enum doc_agg)k;
            }
        } else if (strcmp(t->key, "scale") == 0) {
            if (!csv_number(v, &a->q.scale) || a->q.scale == 0) {
                err_at(P, t->off, "scale: a non-zero number (e.g. 1e-6 for millions, 100 for percent)");
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
                err_at(P, t->off, "best: %s", c == CTX_COLUMN ? "none (leave the column out of best marks)"
                                              : c == CTX_TABLE ? "min or max" : "min, max or none");
                ok = false;
            }
            if (c == CTX_COLUMN && a->best != DOC_BEST_NONE) {
                err_at(P, t->off, "best: none (a column can only leave the best marks; set min or max on the table)");
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
        }
    }
    /* fmt: one format, except a simple table's column:format list */
    if (a->fmt_raw && !(c == CTX_TABLE && a->cols)) {
        const char *why;
        if (docfmt_parse(a->fmt_raw, &a->q.fmt, &why) != 0) {
            err_at(P, a->fmt_off, "fmt '%s': %s", a->fmt_raw, why);
            ok = false;
        } else {
            a->q.has_fmt = true;
        }
    }
    if (a->q.by && a->q.agg != DOC_AGG_ARGMIN && a->q.agg != DOC_AGG_ARGMAX) {
        err_at(P, at, "'by' goes with agg=argmin or agg=argmax");
        ok = false;
    }
    if ((a->q.agg == DOC_AGG_ARGMIN || a->q.agg == DOC_AGG_ARGMAX) && !a->q.by) {
        err_at(P, at, "agg=%s needs by=COLUMN (the column to minimise or maximise)",
               agg_names[a->q.agg]);
        ok = false;
    }
    if (a->q.sep && a->q.agg != DOC_AGG_RANGE && a->q.agg != DOC_AGG_LIST && a->q.agg != DOC_AGG_UNSET) {
        err_at(P, at, "'sep' goes with agg=range or agg=list");
        ok = false;
    }
    if (a->q.ci && a->q.agg != DOC_AGG_UNSET && a->q.agg != DOC_AGG_ONE && a->q.agg != DOC_AGG_MEAN) {
        err_at(P, at, "'ci' shows one row's interval, or with agg=mean the interval over the rows: not with agg=%s",
               agg_names[a->q.agg]);
        ok = false;
    }
    return ok;
}

static void doc_add_value(struct doc *doc, const struct doc_value *v)
{
    doc->values = mem_realloc(doc->values, (doc->nvalues + 1) * sizeof *doc->values);
    doc->values[doc->nvalues++] = *v;
}

/* Fields of the value marker that it leaves unset come from the defaults;
 * the defaults' conditions do not go to a marker that names another CSV
 * than the defaults' (it names its own rows). */
static void apply_defaults(struct doc_query *q, const struct doc_query *def)
{
    bool own_src = q->src && def->src && strcmp(q->src, def->src) != 0;
    if (!q->src && def->src)
        q->src = mem_strdup(def->src);
    if (!q->col && def->col)
        q->col = mem_strdup(def->col);
    if (!q->has_fmt && def->has_fmt) {
        q->has_fmt = true;
        q->fmt = def->fmt;
    }
    if (!q->has_scale && def->has_scale) {
        q->has_scale = true;
        q->scale = def->scale;
    }
    if (q->agg == DOC_AGG_UNSET && def->agg != DOC_AGG_UNSET && !(q->ci && def->agg != DOC_AGG_ONE)) {
        q->agg = def->agg;
        if (!q->by && def->by)
            q->by = mem_strdup(def->by);
        if (!q->sep && def->sep)
            q->sep = mem_strdup(def->sep);
    }
    if (!q->ci && def->ci && (q->agg == DOC_AGG_UNSET || q->agg == DOC_AGG_ONE))
        q->ci = true;
    if (!own_src)
        rowfilter_inherit(&q->where, &def->where);
}

static void parse_value(struct parser *P, const struct mk *open, const struct mk *close)
{
    struct toks ts = {0};
    struct attrs a;
    bool ok = tokenize(P, open->body_start, open->body_end, &ts);
    ok = parse_attrs(P, CTX_VALUE, &ts, 0, open->start, &a) && ok;
    toks_free(&ts);
    if (memchr(P->text + open->start, '|', open->end - open->start)) {
        err_at(P, open->start, "'|' inside a value marker would split a table cell");
        ok = false;
    }
    if (!ok) {
        attrs_free(&a);
        return;
    }
    apply_defaults(&a.q, &P->defaults);
    if (!a.q.src || !a.q.col) {
        err_at(P, open->start, "a value marker needs src= and col= (here or in a defaults marker before it)");
        attrs_free(&a);
        return;
    }
    if (a.q.sep && a.q.agg != DOC_AGG_RANGE && a.q.agg != DOC_AGG_LIST) {
        err_at(P, open->start, "'sep' goes with agg=range or agg=list");
        attrs_free(&a);
        return;
    }
    struct doc_value v;
    memset(&v, 0, sizeof v);
    v.q = a.q;
    memset(&a.q, 0, sizeof a.q);
    v.pos = pos_of(P, open->start);
    v.open_start = open->start;
    v.text_start = open->end;
    v.text_end = close->start;
    v.close_end = close->end;
    doc_add_value(P->doc, &v);
    attrs_free(&a);
}

static void parse_defaults(struct parser *P, const struct mk *m)
{
    struct toks ts = {0};
    struct attrs a;
    bool ok = tokenize(P, m->body_start, m->body_end, &ts);
    ok = parse_attrs(P, CTX_DEFAULTS, &ts, 0, m->start, &a) && ok;
    toks_free(&ts);
    query_free(&P->defaults);
    if (ok) {
        P->defaults = a.q;
        memset(&a.q, 0, sizeof a.q);
    }
    attrs_free(&a);
}

/* ---- tables ------------------------------------------------------------------------ */

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
    while (p + n < end && !is_space(P->text[p + n]) && n + 1 < len)
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
            err_at(P, a->cols_off, "cols: an empty column name");
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
        struct docfmt f;
        const char *why;
        if (docfmt_parse(a->fmt_raw, &f, &why) != 0) {
            err_at(P, a->fmt_off, "fmt '%s': %s", a->fmt_raw, why);
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
        struct docfmt f;
        if (!c) {
            err_at(P, a->fmt_off, "fmt: '%s' is not column:format", items[i]);
            ok = false;
            continue;
        }
        *c = '\0';
        if (docfmt_parse(c + 1, &f, &why) != 0) {
            err_at(P, a->fmt_off, "fmt '%s' of column %s: %s", c + 1, items[i], why);
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
            err_at(P, a->fmt_off, "fmt names column '%s', which is not in cols", items[i]);
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
            err_at(P, ts->t[0].off, "%s needs its %s in quotes first: %s \"text\" ...", w, col ? "header" : "label", w);
            return false;
        }
        ok = parse_attrs(P, col ? CTX_COLUMN : CTX_ROW, ts, 2, ts->t[0].off, &a);
        if (!ok) {
            attrs_free(&a);
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
            c.no_best = a.best == DOC_BEST_NONE;
            c.pos = pos_of(P, ts->t[0].off);
            if (a.expr) {
                if (!parse_expr(a.expr, &c.expr)) {
                    err_at(P, a.expr_off, "expr '%s': write $A/$B, $A-$B, $A+$B or $A*$B ($N: the Nth data column, "
                           "or a number)", a.expr);
                    ok = false;
                }
                c.has_expr = true;
                if (a.q.src || a.q.col || a.q.where.n || a.q.agg || a.q.ci || a.q.has_scale) {
                    err_at(P, a.expr_off,
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
            r.pos = pos_of(P, ts->t[0].off);
            r.q = a.q;
            memset(&a.q, 0, sizeof a.q);
            row_push(t, &r);
        }
        attrs_free(&a);
        return ok;
    }
    /* rows key:v1,v2,... */
    const struct tok *spec = ts->n >= 2 ? &ts->t[1] : NULL;
    const char *s = spec ? (spec->key && !spec->val ? spec->key : !spec->key ? spec->val : NULL) : NULL;
    const char *colon = s ? strchr(s, ':') : NULL;
    if (!colon || colon == s) {
        err_at(P, ts->t[0].off, "rows needs key:value,value,... first (e.g. rows workload:gzip,bzip2)");
        return false;
    }
    ok = parse_attrs(P, CTX_ROWS, ts, 2, ts->t[0].off, &a);
    char *key = dup_range(s, (size_t)(colon - s));
    if (rowfilter_has_key(&a.q.where, key)) {
        err_at(P, spec->off, "rows sets '%s'; where may not set it too", key);
        ok = false;
    }
    if (!t->head)
        t->head = mem_strdup(key);
    char **vals;
    size_t n = rowfilter_split(colon + 1, &vals);
    for (size_t i = 0; ok && i < n; i++) {
        struct doc_row r;
        memset(&r, 0, sizeof r);
        r.label = mem_strdup(vals[i]);
        r.best = a.best;
        r.pos = pos_of(P, ts->t[0].off);
        query_copy(&r.q, &a.q);
        rowfilter_add(&r.q.where, key, FILTER_EQ, vals[i]);
        row_push(t, &r);
    }
    rowfilter_split_free(vals, n);
    free(key);
    attrs_free(&a);
    return ok;
}

static void table_free(struct doc_table *t);

static void parse_table(struct parser *P, const struct mk *open, const struct mk *close)
{
    struct doc_table t;
    memset(&t, 0, sizeof t);
    t.pos = pos_of(P, open->start);
    t.open_start = open->start;
    t.close_end = close->end;
    bool ok = true;

    /* the opening marker ends its line; the closing one is alone on its line */
    size_t e = open->end;
    while (e < P->len && (P->text[e] == ' ' || P->text[e] == '\t' || P->text[e] == '\r'))
        e++;
    if (e < P->len && P->text[e] != '\n') {
        err_at(P, e, "text after a table marker on its line: the table starts on the next line");
        ok = false;
    }
    t.content_start = e < P->len ? e + 1 : P->len;
    size_t b = close->start;
    while (b > 0 && (P->text[b - 1] == ' ' || P->text[b - 1] == '\t'))
        b--;
    if (b > 0 && P->text[b - 1] != '\n') {
        err_at(P, close->start, "'<!-- /table -->' must start its own line");
        ok = false;
    }
    t.content_end = b;
    if (t.content_end < t.content_start)
        t.content_end = t.content_start; /* "<!-- table ... --><!-- /table -->" (error above) */
    t.content_line = pos_of(P, t.content_start).line;
    size_t a2 = close->end;
    while (a2 < P->len && (P->text[a2] == ' ' || P->text[a2] == '\t' || P->text[a2] == '\r'))
        a2++;
    if (a2 < P->len && P->text[a2] != '\n') {
        err_at(P, a2, "text after '<!-- /table -->' on its line");
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
        toks_free(&ts);
        if (!tokenize(P, spans[k], spans[k + 1], &ts))
            ok = false;
        else if (k == 0)
            ok = parse_attrs(P, CTX_TABLE, &ts, 0, open->start, &ta) && ok;
        else
            ok = table_directive(P, &t, &ts) && ok;
    }
    toks_free(&ts);
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
            err_at(P, open->start, "a table with cols= lists CSV rows: no rows, row or column lines");
            ok = false;
        }
        if (!t.q.src) {
            err_at(P, open->start, "a table with cols= needs src=");
            ok = false;
        }
        if (t.q.col || t.q.agg || t.best || t.head || t.q.has_scale) {
            err_at(P, open->start, "a table with cols= takes src, where, fmt, ci and id (col, agg, best, head and "
                   "scale are for tables of rows and columns)");
            ok = false;
        }
    } else if (ok) {
        if (t.ncolumns == 0 || t.nrows == 0) {
            err_at(P, open->start, "a table needs cols=..., or rows/row lines and column lines");
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
                err_at(P, open->start, "table id '%s' already used at line %d", t.id, P->doc->tables[i].pos.line);
                ok = false;
            }
        }
    }
    attrs_free(&ta);
    if (!ok) {
        table_free(&t);
        return;
    }
    P->doc->tables = mem_realloc(P->doc->tables, (P->doc->ntables + 1) * sizeof *P->doc->tables);
    P->doc->tables[P->doc->ntables++] = t;
}

/* ---- pairing ------------------------------------------------------------------------ */

static void pair(struct parser *P)
{
    for (size_t i = 0; i < P->nmk; i++) {
        const struct mk *m = &P->mk[i];
        const struct mk *next = i + 1 < P->nmk ? &P->mk[i + 1] : NULL;
        if (m->broken) {
            if (next && !next->broken && next->kind == (m->kind == MK_VALUE ? MK_VALUE_END : MK_TABLE_END))
                i++;
            continue;
        }
        switch (m->kind) {
        case MK_VALUE:
            if (!next || next->kind != MK_VALUE_END) {
                err_at(P, m->start, "value marker not closed by '<!-- /value -->'%s",
                       next ? " before the next marker" : "");
                break;
            }
            if (find(P->text + m->end, next->start - m->end, "<!--")) {
                err_at(P, m->end, "a comment between a value marker and its '<!-- /value -->'");
                i++;
                break;
            }
            parse_value(P, m, next);
            i++;
            break;
        case MK_TABLE:
            if (!next || next->kind != MK_TABLE_END) {
                err_at(P, m->start, "table marker not closed by '<!-- /table -->'%s",
                       next ? " before the next marker" : "");
                break;
            }
            parse_table(P, m, next);
            i++;
            break;
        case MK_DEFAULTS:
            parse_defaults(P, m);
            break;
        case MK_VALUE_END:
            err_at(P, m->start, "'<!-- /value -->' without a value marker before it");
            break;
        case MK_TABLE_END:
            err_at(P, m->start, "'<!-- /table -->' without a table marker before it");
            break;
        }
    }
}

/* ---- the document --------------------------------------------------------------------- */

static void table_free(struct doc_table *t)
{
    free(t->id);
    free(t->head);
    query_free(&t->q);
    for (size_t i = 0; i < t->ncols; i++)
        free(t->cols[i].name);
    free(t->cols);
    for (size_t i = 0; i < t->nrows; i++) {
        free(t->rows[i].label);
        free(t->rows[i].name);
        query_free(&t->rows[i].q);
    }
    free(t->rows);
    for (size_t i = 0; i < t->ncolumns; i++) {
        free(t->columns[i].header);
        free(t->columns[i].name);
        free(t->columns[i].group);
        query_free(&t->columns[i].q);
    }
    free(t->columns);
}

void docmark_free(struct doc *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->nvalues; i++)
        query_free(&doc->values[i].q);
    free(doc->values);
    for (size_t i = 0; i < doc->ntables; i++)
        table_free(&doc->tables[i]);
    free(doc->tables);
    free(doc->name);
    free(doc);
}

struct doc *docmark_parse(const char *text, size_t len, const char *name, struct diag *d)
{
    struct parser P;
    memset(&P, 0, sizeof P);
    P.text = text;
    P.len = len;
    P.name = name;
    P.d = d;
    P.errors_before = diag_count(d);
    P.doc = mem_alloc(sizeof *P.doc);
    P.doc->name = mem_strdup(name);
    if (memchr(text, '\0', len)) {
        diag_error_offset(d, name, (uint64_t)((const char *)memchr(text, '\0', len) - text),
                          "a NUL byte: not a text file");
        docmark_free(P.doc);
        return NULL;
    }
    index_lines(&P);
    scan(&P);
    pair(&P);
    query_free(&P.defaults);
    free(P.mk);
    free(P.line_start);
    if (diag_count(d) != P.errors_before) {
        docmark_free(P.doc);
        return NULL;
    }
    return P.doc;
}
