/* docmark.c - the marker parser (see docmark.h): the markdown's markers
 * and the value and defaults markers.
 *
 * Two passes.  The scanner walks the markdown line by line, skips fenced
 * code blocks and inline code spans, and lists every HTML comment whose
 * first word is a marker keyword (value, /value, table, /table, defaults).
 * The pairing pass then checks that each opening marker is followed by its
 * closing one, locates the text they enclose, and parses the attributes
 * (docmark_attrs.c) into struct doc_query and friends; a table marker's
 * lines are read by docmark_table.c.  Nothing here reads a CSV: whether a
 * column or a row exists is docfill's business.
 */
#include "report/docmark_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"

static const char *const mk_words[] = {"value", "/value", "table", "/table", "defaults", NULL};

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

struct doc_pos dm_pos_of(const struct parser *P, size_t off)
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

void dm_err_at(struct parser *P, size_t off, const char *fmt, ...)
{
    struct doc_pos p = dm_pos_of(P, off);
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

bool dm_is_space(char c)
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
    while (w < body_end && dm_is_space(P->text[w]))
        w++;
    size_t we = w;
    while (we < body_end && !dm_is_space(P->text[we]))
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
            dm_err_at(P, start, "unknown marker '%s' (did you mean '%s'?)", word, s);
            for (int i = 0; mk_words[i]; i++)
                if (strcmp(s, mk_words[i]) == 0)
                    add_broken(P, i, start);
        }
        return;
    }
    if (!end) {
        dm_err_at(P, start, "'%s' marker not closed: no '-->' after it", word);
        return;
    }
    for (size_t i = start + 4; i + 1 < body_end; i++) {
        if (P->text[i] == '-' && P->text[i + 1] == '-') {
            if (i >= start + 6 && P->text[i - 1] == '!' && P->text[i - 2] == '<') {
                /* the usual cause: this marker lost its "-->" and ran into the next one */
                struct doc_pos next = dm_pos_of(P, i - 2);
                dm_err_at(P, start, "'%s' marker not closed: no '-->' before the next '<!--' (line %d:%d)", word,
                       next.line, next.column);
                return; /* the closing marker it ran into went with it */
            }
            dm_err_at(P, i, "'--' inside a marker: markdown would show the marker as text");
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
                while (i < eol && dm_is_space(P->text[i]))
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

/* ---- value and defaults markers ------------------------------------------------- */

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
    bool ok = dm_tokenize(P, open->body_start, open->body_end, &ts);
    ok = dm_parse_attrs(P, CTX_VALUE, &ts, 0, open->start, &a) && ok;
    dm_toks_free(&ts);
    if (memchr(P->text + open->start, '|', open->end - open->start)) {
        dm_err_at(P, open->start, "'|' inside a value marker would split a table cell");
        ok = false;
    }
    if (!ok) {
        dm_attrs_free(&a);
        return;
    }
    apply_defaults(&a.q, &P->defaults);
    if (!a.q.src || !a.q.col) {
        dm_err_at(P, open->start, "a value marker needs src= and col= (here or in a defaults marker before it)");
        dm_attrs_free(&a);
        return;
    }
    if (a.q.sep && a.q.agg != DOC_AGG_RANGE && a.q.agg != DOC_AGG_LIST) {
        dm_err_at(P, open->start, "'sep' goes with agg=range or agg=list");
        dm_attrs_free(&a);
        return;
    }
    struct doc_value v;
    memset(&v, 0, sizeof v);
    v.q = a.q;
    memset(&a.q, 0, sizeof a.q);
    v.pos = dm_pos_of(P, open->start);
    v.open_start = open->start;
    v.text_start = open->end;
    v.text_end = close->start;
    v.close_end = close->end;
    doc_add_value(P->doc, &v);
    dm_attrs_free(&a);
}

static void parse_defaults(struct parser *P, const struct mk *m)
{
    struct toks ts = {0};
    struct attrs a;
    bool ok = dm_tokenize(P, m->body_start, m->body_end, &ts);
    ok = dm_parse_attrs(P, CTX_DEFAULTS, &ts, 0, m->start, &a) && ok;
    dm_toks_free(&ts);
    docmark_query_free(&P->defaults);
    if (ok) {
        P->defaults = a.q;
        memset(&a.q, 0, sizeof a.q);
    }
    dm_attrs_free(&a);
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
                dm_err_at(P, m->start, "value marker not closed by '<!-- /value -->'%s",
                       next ? " before the next marker" : "");
                break;
            }
            if (find(P->text + m->end, next->start - m->end, "<!--")) {
                dm_err_at(P, m->end, "a comment between a value marker and its '<!-- /value -->'");
                i++;
                break;
            }
            parse_value(P, m, next);
            i++;
            break;
        case MK_TABLE:
            if (!next || next->kind != MK_TABLE_END) {
                dm_err_at(P, m->start, "table marker not closed by '<!-- /table -->'%s",
                       next ? " before the next marker" : "");
                break;
            }
            dm_parse_table(P, m, next);
            i++;
            break;
        case MK_DEFAULTS:
            parse_defaults(P, m);
            break;
        case MK_VALUE_END:
            dm_err_at(P, m->start, "'<!-- /value -->' without a value marker before it");
            break;
        case MK_TABLE_END:
            dm_err_at(P, m->start, "'<!-- /table -->' without a table marker before it");
            break;
        }
    }
}

/* ---- the document --------------------------------------------------------------------- */

void docmark_free(struct doc *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->nvalues; i++)
        docmark_query_free(&doc->values[i].q);
    free(doc->values);
    for (size_t i = 0; i < doc->ntables; i++)
        dm_table_free(&doc->tables[i]);
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
    docmark_query_free(&P.defaults);
    free(P.mk);
    free(P.line_start);
    if (diag_count(d) != P.errors_before) {
        docmark_free(P.doc);
        return NULL;
    }
    return P.doc;
}

/* ---- a query outside a document ------------------------------------------------------- */

bool docmark_parse_query(const char *text, const char *file, struct doc_pos at, struct doc_query *q, struct diag *d)
{
    struct parser P;
    struct diag local;
    memset(&P, 0, sizeof P);
    memset(q, 0, sizeof *q);
    diag_init(&local, file);
    P.text = text;
    P.len = strlen(text);
    P.name = file;
    P.d = &local;
    index_lines(&P);
    struct toks ts = {0};
    bool ok = dm_tokenize(&P, 0, P.len, &ts);
    if (ok) {
        struct attrs a;
        ok = dm_parse_attrs(&P, CTX_QUERY, &ts, 0, 0, &a);
        if (ok && (!a.q.src || !a.q.col)) {
            dm_err_at(&P, 0, "a query names its CSV and column: src=... col=... (where=... optional)%s%s",
                      a.q.src ? "" : "; no src=", a.q.col ? "" : "; no col=");
            ok = false;
        }
        *q = a.q;
        memset(&a.q, 0, sizeof a.q);
        dm_attrs_free(&a);
    }
    dm_toks_free(&ts);
    free(P.line_start);
    /* from the text's own line:column to the file's */
    for (size_t i = 0; i < local.n; i++) {
        struct diag_item *it = &local.items[i];
        if (it->line <= 1)
            it->column = at.column + (it->column > 0 ? it->column - 1 : 0);
        it->line = at.line + (it->line > 0 ? it->line - 1 : 0);
    }
    diag_take(d, &local);
    diag_free(&local);
    return ok;
}
