/* diag.c - structured diagnostics (see diag.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/diag.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonpos.h"

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

void diag_init(struct diag *d, const char *file)
{
    memset(d, 0, sizeof *d);
    d->file = file;
}

static void item_free(struct diag_item *it)
{
    free(it->file);
    free(it->msg);
    for (size_t k = 0; k < it->path.depth; k++)
        free((char *)it->path.step[k].key);
}

void diag_free(struct diag *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++)
        item_free(&d->items[i]);
    free(d->items);
    const char *file = d->file;
    memset(d, 0, sizeof *d);
    d->file = file;
}

/* A new item, or NULL when the diag is full (counted) or memory is out. */
static struct diag_item *new_item(struct diag *d)
{
    if (d->n >= DIAG_MAX) {
        d->dropped++;
        return NULL;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        struct diag_item *ni = realloc(d->items, cap * sizeof *ni);
        if (!ni) {
            d->dropped++;
            return NULL;
        }
        d->items = ni;
        d->cap = cap;
    }
    struct diag_item *it = &d->items[d->n++];
    memset(it, 0, sizeof *it);
    it->offset = -1;
    return it;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        return dup_str(fmt);
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

void diag_verror(struct diag *d, const char *file, int line, int column, const char *fmt, va_list ap)
{
    struct diag_item *it = new_item(d);
    if (!it)
        return;
    it->file = dup_str(file);
    it->line = line;
    it->column = column;
    it->msg = vformat(fmt, ap);
}

void diag_error(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(d, file, line, column, fmt, ap);
    va_end(ap);
}

void diag_error_offset(struct diag *d, const char *file, uint64_t offset, const char *fmt, ...)
{
    struct diag_item *it = new_item(d);
    if (!it)
        return;
    va_list ap;
    va_start(ap, fmt);
    it->file = dup_str(file);
    it->offset = (int64_t)offset;
    it->msg = vformat(fmt, ap);
    va_end(ap);
}

void diag_path_verror(struct diag *d, const struct diag_path *p, int want_key, const char *fmt, va_list ap)
{
    struct diag_item *it = new_item(d);
    if (!it)
        return;
    it->file = dup_str(d->file);
    it->want_key = want_key;
    if (p) {
        it->path.depth = p->depth;
        for (size_t k = 0; k < p->depth; k++) {
            it->path.step[k].index = p->step[k].index;
            it->path.step[k].key = dup_str(p->step[k].key);
        }
    }
    it->msg = vformat(fmt, ap);
}

void diag_path_error(struct diag *d, const struct diag_path *p, int want_key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_path_verror(d, p, want_key, fmt, ap);
    va_end(ap);
}

void diag_take(struct diag *dst, struct diag *src)
{
    for (size_t i = 0; i < src->n; i++) {
        struct diag_item *it = new_item(dst);
        if (it)
            *it = src->items[i];
        else
            item_free(&src->items[i]);
    }
    dst->dropped += src->dropped;
    free(src->items);
    src->items = NULL;
    src->n = src->cap = src->dropped = 0;
}

void diag_resolve(struct diag *d, const char *file, const char *text)
{
    for (size_t i = 0; i < d->n; i++) {
        struct diag_item *it = &d->items[i];
        if (it->line || !it->file || strcmp(it->file, file) != 0 || it->offset >= 0)
            continue;
        struct jpath_step steps[DIAG_PATH_MAX];
        size_t depth = it->path.depth;
        for (size_t k = 0; k < depth; k++) {
            steps[k].key = it->path.step[k].key;
            steps[k].index = it->path.step[k].index;
        }
        int line = 1, col = 1;
        /* the deepest part of the path that is in the text; the key itself
         * only for the full path */
        while (depth > 0 && jsonpos_find(text, steps, depth, depth == it->path.depth && it->want_key, &line, &col) != 0)
            depth--;
        if (depth == 0) {
            line = 1;
            col = 1;
        }
        it->line = line;
        it->column = col;
    }
}

void diag_format(const struct diag_item *it, char *buf, size_t len)
{
    const char *msg = it->msg ? it->msg : "out of memory";
    if (!it->file)
        snprintf(buf, len, "%s", msg);
    else if (it->offset >= 0)
        snprintf(buf, len, "%s: byte %" PRId64 ": %s", it->file, it->offset, msg);
    else if (it->line > 0)
        snprintf(buf, len, "%s:%d:%d: %s", it->file, it->line, it->column > 0 ? it->column : 1, msg);
    else
        snprintf(buf, len, "%s: %s", it->file, msg);
}

void diag_print(const struct diag *d, FILE *f, const char *prefix)
{
    char buf[4096];
    for (size_t i = 0; i < d->n; i++) {
        diag_format(&d->items[i], buf, sizeof buf);
        fprintf(f, "%s%s\n", prefix ? prefix : "", buf);
    }
    if (d->dropped)
        fprintf(f, "%s... and %zu more\n", prefix ? prefix : "", d->dropped);
}

const char *diag_first(const struct diag *d, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (d->n)
        diag_format(&d->items[0], buf, len);
    else if (d->dropped && len)
        snprintf(buf, len, "out of memory");
    return buf;
}

/* ---- key paths ----------------------------------------------------------- */

struct diag_path diag_path_of(size_t n, ...)
{
    struct diag_path p;
    memset(&p, 0, sizeof p);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        diag_path_key(&p, va_arg(ap, const char *));
    va_end(ap);
    return p;
}

void diag_path_key(struct diag_path *p, const char *key)
{
    if (p->depth < DIAG_PATH_MAX) {
        p->step[p->depth].key = key;
        p->step[p->depth].index = 0;
        p->depth++;
    }
}

void diag_path_index(struct diag_path *p, size_t index)
{
    if (p->depth < DIAG_PATH_MAX) {
        p->step[p->depth].key = NULL;
        p->step[p->depth].index = index;
        p->depth++;
    }
}

void diag_path_format(const struct diag_path *p, char *buf, size_t len)
{
    size_t o = 0;
    if (len)
        buf[0] = '\0';
    for (size_t k = 0; k < p->depth && o < len; k++) {
        if (p->step[k].key)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? "." : "", p->step[k].key);
        else
            o += (size_t)snprintf(buf + o, len - o, "[%zu]", p->step[k].index);
    }
}

/* ---- suggestions --------------------------------------------------------- */

/* Optimal string alignment distance, case-insensitive, capped at 8. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

const char *diag_suggest(const char *word, const char *const *candidates)
{
    if (!word || !candidates)
        return NULL;
    size_t len = strlen(word);
    size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL;
    size_t bestd = limit + 1;
    for (size_t i = 0; candidates[i]; i++) {
        size_t dd = edit_distance(word, candidates[i]);
        if (dd < bestd && strcmp(word, candidates[i]) != 0) {
            bestd = dd;
            best = candidates[i];
        }
    }
    return best;
}

void diag_did_you_mean(char *buf, size_t len, const char *s)
{
    if (!s)
        return;
    size_t o = strlen(buf);
    if (o < len)
        snprintf(buf + o, len - o, " (did you mean '%s'?)", s);
}
