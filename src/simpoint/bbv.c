/* bbv.c - basic-block vectors: exp-bbv text parser and in-memory builder
 * (see bbv.h for the format). */
#define _POSIX_C_SOURCE 200809L
#include "simpoint/bbv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bbv {
    size_t n, cap;           /* slices */
    size_t *row;             /* [cap + 1]: slice i is pairs row[i] .. row[i+1]-1 */
    uint64_t *total;         /* [cap]: instructions per slice */
    size_t npairs, pcap;
    uint32_t *id;            /* [pcap] */
    uint64_t *count;         /* [pcap] */
    uint32_t max_block;
    uint64_t interval_size;
    /* scratch for the slice being read */
    struct pair *scratch;
    size_t scap;
};

/* One ":id:count" of the slice being read; col is its 1-based column (0 for
 * slices added from memory), kept for the duplicate message. */
struct pair {
    uint64_t count;
    uint32_t id;
    uint32_t col;
};

struct bbv *bbv_create(void)
{
    struct bbv *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->row = malloc(sizeof *b->row);
    if (!b->row) {
        free(b);
        return NULL;
    }
    b->row[0] = 0;
    return b;
}

void bbv_free(struct bbv *b)
{
    if (!b)
        return;
    free(b->row);
    free(b->total);
    free(b->id);
    free(b->count);
    free(b->scratch);
    free(b);
}

size_t bbv_slices(const struct bbv *b) { return b->n; }
uint64_t bbv_slice_total(const struct bbv *b, size_t slice) { return b->total[slice]; }
size_t bbv_slice_blocks(const struct bbv *b, size_t slice) { return b->row[slice + 1] - b->row[slice]; }
const uint32_t *bbv_slice_ids(const struct bbv *b, size_t slice) { return b->id + b->row[slice]; }
const uint64_t *bbv_slice_counts(const struct bbv *b, size_t slice) { return b->count + b->row[slice]; }
uint32_t bbv_max_block(const struct bbv *b) { return b->max_block; }
uint64_t bbv_interval_size(const struct bbv *b) { return b->interval_size; }

/* Room for `more` pairs in the scratch array past `used`. */
static int scratch_reserve(struct bbv *b, size_t used, size_t more)
{
    if (used + more <= b->scap)
        return 0;
    size_t cap = b->scap ? b->scap : 256;
    while (cap < used + more)
        cap *= 2;
    struct pair *p = realloc(b->scratch, cap * sizeof *p);
    if (!p)
        return -1;
    b->scratch = p;
    b->scap = cap;
    return 0;
}

static int cmp_pair(const void *a, const void *c)
{
    const struct pair *x = a, *y = c;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* Why a slice was refused. */
enum slice_err { SLICE_OK, SLICE_EMPTY, SLICE_DUP, SLICE_OVERFLOW, SLICE_ZERO, SLICE_NOMEM };

/* Sort the n scratch pairs, check them and append them as a new slice.
 * On SLICE_DUP, *dup is the second occurrence and *first the first. */
static enum slice_err commit_slice(struct bbv *b, size_t n, const struct pair **dup, const struct pair **first)
{
    struct pair *p = b->scratch;
    if (n == 0)
        return SLICE_EMPTY;
    qsort(p, n, sizeof *p, cmp_pair);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && p[i].id == p[i - 1].id) {
            *dup = &p[i];
            *first = &p[i - 1];
            return SLICE_DUP;
        }
        if (total > UINT64_MAX - p[i].count)
            return SLICE_OVERFLOW;
        total += p[i].count;
    }
    if (total == 0)
        return SLICE_ZERO;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        size_t *row = realloc(b->row, (cap + 1) * sizeof *row);
        if (!row)
            return SLICE_NOMEM;
        b->row = row;
        uint64_t *tot = realloc(b->total, cap * sizeof *tot);
        if (!tot)
            return SLICE_NOMEM;
        b->total = tot;
        b->cap = cap;
    }
    if (b->npairs + n > b->pcap) {
        size_t cap = b->pcap ? b->pcap : 1024;
        while (cap < b->npairs + n)
            cap *= 2;
        uint32_t *id = realloc(b->id, cap * sizeof *id);
        if (!id)
            return SLICE_NOMEM;
        b->id = id;
        uint64_t *count = realloc(b->count, cap * sizeof *count);
        if (!count)
            return SLICE_NOMEM;
        b->count = count;
        b->pcap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        b->id[b->npairs + i] = p[i].id;
        b->count[b->npairs + i] = p[i].count;
    }
    if (p[n - 1].id > b->max_block)
        b->max_block = p[n - 1].id;
    b->npairs += n;
    b->total[b->n] = total;
    b->n++;
    b->row[b->n] = b->npairs;
    return SLICE_OK;
}

int bbv_add_slice(struct bbv *b, const uint32_t *ids, const uint64_t *counts, size_t n, struct diag *d)
{
    if (scratch_reserve(b, 0, n) != 0) {
        diag_error(d, NULL, 0, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == 0) {
            diag_error(d, NULL, 0, 0, "slice %zu: block id 0 (ids start at 1)", b->n);
            return -1;
        }
        b->scratch[i].id = ids[i];
        b->scratch[i].count = counts[i];
        b->scratch[i].col = 0;
    }
    const struct pair *dup = NULL, *first = NULL;
    switch (commit_slice(b, n, &dup, &first)) {
    case SLICE_OK:
        return 0;
    case SLICE_EMPTY:
        diag_error(d, NULL, 0, 0, "slice %zu has no blocks", b->n);
        return -1;
    case SLICE_DUP:
        diag_error(d, NULL, 0, 0, "slice %zu: block %u appears twice", b->n, (unsigned)dup->id);
        return -1;
    case SLICE_OVERFLOW:
        diag_error(d, NULL, 0, 0, "slice %zu: total exceeds 2^64-1 instructions", b->n);
        return -1;
    case SLICE_ZERO:
        diag_error(d, NULL, 0, 0, "slice %zu has no instructions (every count is 0)", b->n);
        return -1;
    case SLICE_NOMEM:
        break;
    }
    diag_error(d, NULL, 0, 0, "out of memory");
    return -1;
}

/* ---- the text parser ---------------------------------------------------- */

struct reader {
    struct bbv *b;
    const char *file;
    struct diag *d;
    unsigned long line;
    int nomem;       /* stop: out of memory reported */
    int bad;         /* some line was refused */
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "'x'" for a printable byte, "byte 0x07" otherwise; "end of line" at the end. */
static const char *describe(const char *s, size_t len, size_t pos, char *buf, size_t cap)
{
    if (pos >= len)
        return "end of line";
    unsigned char c = (unsigned char)s[pos];
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, cap, "'%c'", c);
    else
        snprintf(buf, cap, "byte 0x%02x", c);
    return buf;
}

static int col_of(size_t pos) { return pos + 1 > 0x7fffffff ? 0x7fffffff : (int)(pos + 1); }

__attribute__((format(printf, 3, 4)))
static void line_error(struct reader *r, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int line = r->line > 0x7fffffff ? 0x7fffffff : (int)r->line;
    diag_verror(r->d, r->file, line, col_of(pos), fmt, ap);
    va_end(ap);
    r->bad = 1;
}

/* Decimal digits at s[*pos] into *v (at most max).  Returns 0, -1 when there
 * is no digit, -2 on overflow (*pos then at the first digit). */
static int read_number(const char *s, size_t len, size_t *pos, uint64_t max, uint64_t *v)
{
    size_t p = *pos;
    if (p >= len || !is_digit(s[p]))
        return -1;
    uint64_t x = 0;
    for (; p < len && is_digit(s[p]); p++) {
        unsigned digit = (unsigned)(s[p] - '0');
        if (x > (max - digit) / 10)
            return -2;
        x = x * 10 + digit;
    }
    *v = x;
    *pos = p;
    return 0;
}

/* A comment line: remember exp-bbv's "Interval Size N". */
static void read_comment(struct reader *r, const char *s, size_t len)
{
    static const char key[] = "Interval Size ";
    size_t klen = sizeof key - 1;
    if (r->b->interval_size || len < klen)
        return;
    for (size_t i = 0; i + klen <= len; i++) {
        if (memcmp(s + i, key, klen) == 0) {
            size_t p = i + klen;
            uint64_t v;
            if (read_number(s, len, &p, UINT64_MAX, &v) == 0)
                r->b->interval_size = v;
            return;
        }
    }
}

/* One line (without its '\n'). */
static void read_line(struct reader *r, const char *s, size_t len)
{
    char cb[16];
    if (len > 0 && s[len - 1] == '\r')
        len--;
    size_t pos = 0;
    while (pos < len && is_blank(s[pos]))
        pos++;
    if (pos == len)
        return;
    if (s[pos] == '#') {
        read_comment(r, s + pos, len - pos);
        return;
    }
    if (s[pos] != 'T') {
        line_error(r, pos, "expected 'T' (a slice) or '#' (a comment), found %s",
                   describe(s, len, pos, cb, sizeof cb));
        return;
    }
    size_t tpos = pos++;
    size_t n = 0;
    for (;;) {
        while (pos < len && is_blank(s[pos]))
            pos++;
        if (pos == len)
            break;
        if (s[pos] != ':') {
            line_error(r, pos, "expected ':' and a block id, found %s", describe(s, len, pos, cb, sizeof cb));
            return;
        }
        size_t start = pos++;
        uint64_t id, count;
        int rc = read_number(s, len, &pos, UINT32_MAX, &id);
        if (rc == -1) {
            line_error(r, pos, "expected a block id after ':', found %s", describe(s, len, pos, cb, sizeof cb));
            return;
        }
        if (rc == -2) {
            line_error(r, pos, "block id too large (largest is 4294967295)");
            return;
        }
        if (id == 0) {
            line_error(r, start + 1, "block id 0 (ids start at 1)");
            return;
        }
        if (pos >= len || s[pos] != ':') {
            line_error(r, pos, "expected ':' and an instruction count after block id %u, found %s", (unsigned)id,
                       describe(s, len, pos, cb, sizeof cb));
            return;
        }
        pos++;
        rc = read_number(s, len, &pos, UINT64_MAX, &count);
        if (rc == -1) {
            line_error(r, pos, "expected an instruction count after ':', found %s",
                       describe(s, len, pos, cb, sizeof cb));
            return;
        }
        if (rc == -2) {
            line_error(r, pos, "instruction count too large (largest is 18446744073709551615)");
            return;
        }
        if (pos < len && !is_blank(s[pos]) && s[pos] != ':') {
            line_error(r, pos, "unexpected %s after an instruction count", describe(s, len, pos, cb, sizeof cb));
            return;
        }
        if (scratch_reserve(r->b, n, 1) != 0) {
            r->nomem = 1;
            return;
        }
        r->b->scratch[n].id = (uint32_t)id;
        r->b->scratch[n].count = count;
        r->b->scratch[n].col = (uint32_t)col_of(start);
        n++;
    }
    const struct pair *dup = NULL, *first = NULL;
    switch (commit_slice(r->b, n, &dup, &first)) {
    case SLICE_OK:
        return;
    case SLICE_EMPTY:
        line_error(r, tpos, "slice has no blocks");
        return;
    case SLICE_DUP:
        line_error(r, dup->col - 1, "block %u appears twice in this slice (first at column %u)", (unsigned)dup->id,
                   (unsigned)first->col);
        return;
    case SLICE_OVERFLOW:
        line_error(r, 0, "slice total exceeds 2^64-1 instructions");
        return;
    case SLICE_ZERO:
        line_error(r, 0, "slice has no instructions (every count is 0)");
        return;
    case SLICE_NOMEM:
        r->nomem = 1;
        return;
    }
}

/* The end of a parse: the vectors, or NULL after reporting why not. */
static struct bbv *finish(struct reader *r)
{
    if (r->nomem) {
        diag_error(r->d, r->file, 0, 0, "out of memory");
    } else if (!r->bad && r->b->n == 0) {
        diag_error(r->d, r->file, 0, 0, "no slices (no line starts with 'T')");
        r->bad = 1;
    }
    if (r->nomem || r->bad) {
        bbv_free(r->b);
        return NULL;
    }
    free(r->b->scratch);
    r->b->scratch = NULL;
    r->b->scap = 0;
    return r->b;
}

struct bbv *bbv_parse(const char *text, size_t len, const char *file, struct diag *d)
{
    struct reader r = {.b = bbv_create(), .file = file, .d = d};
    if (!r.b) {
        diag_error(d, file, 0, 0, "out of memory");
        return NULL;
    }
    size_t pos = 0;
    while (pos < len && !r.nomem) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        r.line++;
        read_line(&r, text + pos, end - pos);
        pos = end + 1;
    }
    return finish(&r);
}

struct bbv *bbv_load(const char *path, struct diag *d)
{
    int use_stdin = strcmp(path, "-") == 0;
    const char *name = use_stdin ? "<stdin>" : path;
    FILE *in = use_stdin ? stdin : fopen(path, "r");
    if (!in) {
        diag_error(d, name, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct reader r = {.b = bbv_create(), .file = name, .d = d};
    if (!r.b) {
        diag_error(d, name, 0, 0, "out of memory");
        if (!use_stdin)
            fclose(in);
        return NULL;
    }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    errno = 0;
    while (!r.nomem && (got = getline(&buf, &cap, in)) >= 0) {
        size_t n = (size_t)got;
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        r.line++;
        read_line(&r, buf, n);
    }
    int err = ferror(in) ? errno : 0;
    if (!r.nomem && !feof(in) && !err)
        r.nomem = 1; /* getline failed without a read error: allocation */
    free(buf);
    if (!use_stdin)
        fclose(in);
    if (err) {
        diag_error(d, name, 0, 0, "read error: %s", strerror(err));
        bbv_free(r.b);
        return NULL;
    }
    return finish(&r);
}
