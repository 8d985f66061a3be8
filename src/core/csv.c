/* csv.c - CSV reading and writing (format and rules in csv.h).
 *
 * The parser keeps the whole text of the file in one buffer and stores each
 * cell as an offset into a second buffer of NUL-terminated unescaped fields,
 * so a file of a million cells costs two allocations that grow, not a
 * million small ones.
 */
#define _POSIX_C_SOURCE 200809L
#include "core/csv.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct csv {
    char *name;
    char *text;       /* unescaped fields, each NUL-terminated */
    size_t textlen, textcap;
    size_t *cell;     /* offsets into text: header (ncols), then rows */
    size_t ncells, cellcap;
    size_t *line;     /* per row */
    size_t ncols, nrows;
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

static void text_putc(struct csv *c, char ch)
{
    if (c->textlen + 1 >= c->textcap) {
        c->textcap = c->textcap ? 2 * c->textcap : 4096;
        c->text = xrealloc(c->text, c->textcap);
    }
    c->text[c->textlen++] = ch;
}

static void cell_push(struct csv *c, size_t off)
{
    if (c->ncells == c->cellcap) {
        c->cellcap = c->cellcap ? 2 * c->cellcap : 256;
        c->cell = xrealloc(c->cell, c->cellcap * sizeof *c->cell);
    }
    c->cell[c->ncells++] = off;
}

void csv_free(struct csv *c)
{
    if (!c)
        return;
    free(c->name);
    free(c->text);
    free(c->cell);
    free(c->line);
    free(c);
}

/* Parse one record starting at *pos; its fields are appended to c's cells.
 * Returns the number of fields, or 0 after adding an error to d.  *lineno
 * advances past every newline consumed (quoted fields may span lines). */
static size_t parse_record(struct csv *c, const char *s, size_t len, size_t *pos, size_t *lineno,
                           size_t *linestart, struct diag *d)
{
    size_t p = *pos, nf = 0;
    for (;;) {
        size_t start = c->textlen;
        size_t fline = *lineno, fcol = p - *linestart + 1;
        if (p < len && s[p] == '"') {
            p++;
            for (;;) {
                if (p >= len) {
                    diag_error(d, c->name, (int)fline, (int)fcol, "unterminated quoted field");
                    return 0;
                }
                if (s[p] == '"') {
                    if (p + 1 < len && s[p + 1] == '"') {
                        text_putc(c, '"');
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                if (s[p] == '\n') {
                    (*lineno)++;
                    *linestart = p + 1;
                }
                text_putc(c, s[p++]);
            }
            if (p < len && s[p] != ',' && s[p] != '\n' && !(s[p] == '\r' && (p + 1 == len || s[p + 1] == '\n'))) {
                diag_error(d, c->name, (int)*lineno, (int)(p - *linestart + 1),
                           "text after the closing quote of a field");
                return 0;
            }
        } else {
            while (p < len && s[p] != ',' && s[p] != '\n' && !(s[p] == '\r' && (p + 1 == len || s[p + 1] == '\n'))) {
                if (s[p] == '"') {
                    diag_error(d, c->name, (int)*lineno, (int)(p - *linestart + 1),
                               "a double quote inside an unquoted field (quote the whole field)");
                    return 0;
                }
                text_putc(c, s[p++]);
            }
        }
        text_putc(c, '\0');
        cell_push(c, start);
        nf++;
        if (p < len && s[p] == ',') {
            p++;
            continue;
        }
        if (p < len && s[p] == '\r')
            p++;
        if (p < len && s[p] == '\n') {
            p++;
            (*lineno)++;
            *linestart = p;
        }
        break;
    }
    *pos = p;
    return nf;
}

struct csv *csv_parse(const char *s, size_t len, const char *name, struct diag *d)
{
    struct csv *c = calloc(1, sizeof *c);
    size_t pos = 0, lineno = 1, linestart = 0, rowcap = 0;
    const char *nul;
    if (!c) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    c->name = xstrdup(name ? name : "<csv>");
    nul = memchr(s, '\0', len);
    if (nul) {
        diag_error_offset(d, c->name, (uint64_t)(nul - s), "NUL byte: not a CSV text file");
        csv_free(c);
        return NULL;
    }
    while (pos < len) {
        size_t rowline = lineno, nf;
        if (s[pos] == '\n' || (s[pos] == '\r' && (pos + 1 == len || s[pos + 1] == '\n'))) {
            pos += s[pos] == '\r' && pos + 1 < len ? 2 : 1; /* blank line */
            lineno++;
            linestart = pos;
            continue;
        }
        nf = parse_record(c, s, len, &pos, &lineno, &linestart, d);
        if (nf == 0) {
            csv_free(c);
            return NULL;
        }
        if (c->ncols == 0) {
            c->ncols = nf;
            for (size_t i = 0; i < nf; i++)
                for (size_t j = 0; j < i; j++)
                    if (strcmp(c->text + c->cell[i], c->text + c->cell[j]) == 0) {
                        diag_error(d, c->name, (int)rowline, 0, "column '%s' appears twice in the header",
                                   c->text + c->cell[i]);
                        csv_free(c);
                        return NULL;
                    }
            continue;
        }
        if (nf != c->ncols) {
            diag_error(d, c->name, (int)rowline, 0, "%zu fields, the header has %zu", nf, c->ncols);
            csv_free(c);
            return NULL;
        }
        if (c->nrows == rowcap) {
            rowcap = rowcap ? 2 * rowcap : 64;
            c->line = xrealloc(c->line, rowcap * sizeof *c->line);
        }
        c->line[c->nrows++] = rowline;
    }
    if (c->ncols == 0) {
        diag_error(d, c->name, 0, 0, "empty file (no header line)");
        csv_free(c);
        return NULL;
    }
    return c;
}

struct csv *csv_read(const char *path, struct diag *d)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    struct csv *c;
    if (!f) {
        diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    do {
        if (len + 65536 > cap) {
            cap = cap ? 2 * cap : 65536;
            buf = xrealloc(buf, cap);
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    if (ferror(f)) {
        diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    c = csv_parse(buf ? buf : "", len, path, d);
    free(buf);
    return c;
}

const char *csv_name(const struct csv *c) { return c->name; }
size_t csv_ncols(const struct csv *c) { return c->ncols; }
size_t csv_nrows(const struct csv *c) { return c->nrows; }
const char *csv_header(const struct csv *c, size_t col) { return c->text + c->cell[col]; }

int csv_column(const struct csv *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->text + c->cell[i], name) == 0)
            return (int)i;
    return -1;
}

const char *csv_cell(const struct csv *c, size_t row, size_t col)
{
    return c->text + c->cell[(row + 1) * c->ncols + col];
}

size_t csv_line(const struct csv *c, size_t row) { return c->line[row]; }

bool csv_number(const char *cell, double *out)
{
    char *end;
    double v;
    if (!cell)
        return false;
    while (*cell == ' ' || *cell == '\t')
        cell++;
    if (*cell == '\0')
        return false;
    v = strtod(cell, &end);
    if (end == cell)
        return false;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end != '\0' || !isfinite(v))
        return false;
    if (out)
        *out = v;
    return true;
}

/* ---- writing --------------------------------------------------------------- */

size_t csv_format_number(char *buf, size_t len, double v)
{
    int n;
    if (isnan(v)) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    if (v == floor(v) && fabs(v) < 1e15)
        n = snprintf(buf, len, "%.0f", v);
    else
        n = snprintf(buf, len, "%.10g", v);
    return n < 0 ? 0 : (size_t)n;
}

void csv_put_number(FILE *f, double v)
{
    char buf[64];
    csv_format_number(buf, sizeof buf, v);
    fputs(buf, f);
}

void csv_put_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
