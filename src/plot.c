/* plot.c - results to figures (gnuplot) and markdown tables.
 *
 * Pipeline of `hwprof plot configs/<paper>/<stem>.json`:
 *   config "plot" section --plot_spec_parse--> struct plot_spec
 *   results/<paper>/<stem>.csv --plot_csv_read--> struct plot_csv
 *   spec + csv --plot_write_script--> build/plots/<paper>/<stem>.gen.gp
 *   gnuplot, run twice (svg, pngcairo) --> plots/<paper>/<stem>.svg/.png
 * or, when plots/<paper>/<stem>.gp exists, that script is run instead with
 * the variables documented in docs/plots.md.
 *
 * A generated script is self-contained: inline data blocks, then plotting
 * commands, e.g. for type "lines" with group ["tables"]:
 *   $p0s0 << EOD
 *   1000 0.25
 *   10000 0.125
 *   EOD
 *   ...
 *   set title "Multi-hash error"
 *   plot $p0s0 using 1:2 with linespoints lw 2 lc 1 dt 1 pt 1 title "tables=1", ...
 * The terminal and output are set by the caller on gnuplot's command line.
 */
#define _POSIX_C_SOURCE 200809L

#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_COLORS 8     /* gnuplot's default colour sequence has 8 entries */
#define POINT_TYPES 13
#define PANEL_W_SINGLE 900
#define PANEL_H_SINGLE 500
#define PANEL_W_GRID 700
#define PANEL_H_GRID 450
#define MANY_POINTS 40    /* more points per line than this: no point markers */

/* ---- small helpers ------------------------------------------------------ */

__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("hwprof: out of memory\n", stderr);
        abort();
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

/* Growable string. */
struct sbuf {
    char *s;
    size_t len, cap;
};

static void sb_putc(struct sbuf *b, char c)
{
    if (b->len + 2 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->s = xrealloc(b->s, b->cap);
    }
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
    while (*s)
        sb_putc(b, *s++);
}

static void sb_clear(struct sbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

static const char *sb_str(const struct sbuf *b)
{
    return b->s ? b->s : "";
}

/* Distinct strings in order of first appearance (linear search: the lists
 * here are panels, groups and categories, a few dozen at most). */
struct strlist {
    char **v;
    size_t n, cap;
};

static size_t strlist_find(const struct strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return i;
    return SIZE_MAX;
}

static size_t strlist_add(struct strlist *l, const char *s)
{
    size_t i = strlist_find(l, s);
    if (i != SIZE_MAX)
        return i;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n] = xstrdup(s);
    return l->n++;
}

static void strlist_free(struct strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

bool plot_cell_number(const char *cell, double *out)
{
    char *end;
    double v;
    if (!cell)
        return false;
    while (*cell == ' ' || *cell == '\t')
        cell++;
    if (*cell == '\0')
        return false;
    errno = 0;
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

/* ---- CSV ---------------------------------------------------------------- */

void plot_csv_free(struct plot_csv *csv)
{
    if (!csv)
        return;
    for (size_t i = 0; i < csv->ncols; i++)
        free(csv->header[i]);
    for (size_t i = 0; i < csv->nrows * csv->ncols; i++)
        free(csv->cells[i]);
    free(csv->header);
    free(csv->cells);
    free(csv->line);
    free(csv->name);
    free(csv);
}

int plot_csv_column(const struct plot_csv *csv, const char *name)
{
    for (size_t i = 0; i < csv->ncols; i++)
        if (strcmp(csv->header[i], name) == 0)
            return (int)i;
    return -1;
}

/* Split one record starting at *pp; fields are appended to fields (caller
 * frees).  Advances *pp past the record's newline and *lineno past every
 * newline consumed.  Returns 0, or -1 for an unterminated quote. */
static int csv_record(const char **pp, size_t *lineno, struct strlist *fields)
{
    const char *p = *pp;
    struct sbuf field = {0};
    bool quoted = false, was_quoted = false;

    for (;;) {
        char c = *p;
        if (quoted) {
            if (c == '\0') {
                free(field.s);
                return -1;
            }
            if (c == '"' && p[1] == '"') {
                sb_putc(&field, '"');
                p += 2;
            } else if (c == '"') {
                quoted = false;
                p++;
            } else {
                if (c == '\n')
                    (*lineno)++;
                sb_putc(&field, c);
                p++;
            }
            continue;
        }
        if (c == '"' && field.len == 0 && !was_quoted) {
            quoted = was_quoted = true;
            p++;
            continue;
        }
        if (c == ',' || c == '\n' || c == '\0' || (c == '\r' && (p[1] == '\n' || p[1] == '\0'))) {
            /* Duplicates allowed: fields is used as a plain vector here. */
            if (fields->n == fields->cap) {
                fields->cap = fields->cap ? 2 * fields->cap : 16;
                fields->v = xrealloc(fields->v, fields->cap * sizeof *fields->v);
            }
            fields->v[fields->n++] = xstrdup(sb_str(&field));
            sb_clear(&field);
            was_quoted = false;
            if (c == ',') {
                p++;
                continue;
            }
            if (c == '\r')
                p++;
            if (*p == '\n') {
                p++;
                (*lineno)++;
            }
            break;
        }
        sb_putc(&field, c);
        p++;
    }
    free(field.s);
    *pp = p;
    return 0;
}

struct plot_csv *plot_csv_parse(const char *text, const char *name, char *err, size_t errlen)
{
    struct plot_csv *csv = xcalloc(1, sizeof *csv);
    const char *p = text;
    size_t lineno = 1, rowcap = 0;
    bool have_header = false;

    csv->name = xstrdup(name ? name : "<csv>");
    while (*p) {
        struct strlist f = {0};
        size_t start = lineno;
        if (csv_record(&p, &lineno, &f) != 0) {
            seterr(err, errlen, "%s:%zu: unterminated quoted field", csv->name, start);
            strlist_free(&f);
            plot_csv_free(csv);
            return NULL;
        }
        if (f.n == 1 && f.v[0][0] == '\0') { /* blank line */
            strlist_free(&f);
            continue;
        }
        if (!have_header) {
            csv->ncols = f.n;
            csv->header = f.v; /* take ownership */
            have_header = true;
            continue;
        }
        if (f.n != csv->ncols) {
            seterr(err, errlen, "%s:%zu: %zu fields, header has %zu", csv->name, start, f.n,
                   csv->ncols);
            strlist_free(&f);
            plot_csv_free(csv);
            return NULL;
        }
        if (csv->nrows == rowcap) {
            rowcap = rowcap ? 2 * rowcap : 64;
            csv->cells = xrealloc(csv->cells, rowcap * csv->ncols * sizeof *csv->cells);
            csv->line = xrealloc(csv->line, rowcap * sizeof *csv->line);
        }
        memcpy(csv->cells + csv->nrows * csv->ncols, f.v, f.n * sizeof *f.v);
        csv->line[csv->nrows] = start;
        csv->nrows++;
        free(f.v); /* strings now owned by csv */
    }
    if (!have_header) {
        seterr(err, errlen, "%s: empty file (no header line)", csv->name);
        plot_csv_free(csv);
        return NULL;
    }
    return csv;
}

/* Read a whole file into a NUL-terminated buffer. */
static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct sbuf b = {0};
    char chunk[8192];
    size_t n;

    if (!f) {
        seterr(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n + 1 > b.cap) {
            while (b.len + n + 1 > b.cap)
                b.cap = b.cap ? 2 * b.cap : 16384;
            b.s = xrealloc(b.s, b.cap);
        }
        memcpy(b.s + b.len, chunk, n);
        b.len += n;
    }
    if (ferror(f)) {
        seterr(err, errlen, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        free(b.s);
        return NULL;
    }
    fclose(f);
    if (!b.s)
        b.s = xcalloc(1, 1);
    b.s[b.len] = '\0';
    if (memchr(b.s, '\0', b.len)) {
        seterr(err, errlen, "%s: binary data (NUL byte) in a CSV file", path);
        free(b.s);
        return NULL;
    }
    return b.s;
}

struct plot_csv *plot_csv_read(const char *path, char *err, size_t errlen)
{
    char *text = read_file(path, err, errlen);
    struct plot_csv *csv;
    if (!text)
        return NULL;
    csv = plot_csv_parse(text, path, err, errlen);
    free(text);
    return csv;
}

/* ---- where filtering ------------------------------------------------------ */

static bool where_value_ok(json_t *v)
{
    return json_is_string(v) || json_is_number(v) || json_is_boolean(v) || json_is_null(v);
}

static bool cell_matches(const char *cell, json_t *v)
{
    double d;
    if (json_is_string(v))
        return strcmp(cell, json_string_value(v)) == 0;
    if (json_is_null(v))
        return cell[0] == '\0';
    if (json_is_true(v))
        return strcmp(cell, "1") == 0 || strcmp(cell, "true") == 0;
    if (json_is_false(v))
        return strcmp(cell, "0") == 0 || strcmp(cell, "false") == 0;
    if (json_is_integer(v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        if (strcmp(cell, buf) == 0)
            return true;
    }
    if (json_is_number(v) && plot_cell_number(cell, &d))
        return d == json_number_value(v);
    return false;
}

/* Check the shape of a where object (no CSV). */
static int where_validate(json_t *where, const char *keypath, char *err, size_t errlen)
{
    const char *key;
    json_t *v;
    if (!json_is_object(where)) {
        seterr(err, errlen, "%s: must be an object {column: value | [values]}", keypath);
        return -1;
    }
    json_object_foreach(where, key, v) {
        if (json_is_array(v)) {
            size_t i;
            json_t *e;
            if (json_array_size(v) == 0) {
                seterr(err, errlen, "%s.%s: empty list matches nothing", keypath, key);
                return -1;
            }
            json_array_foreach(v, i, e) {
                if (!where_value_ok(e)) {
                    seterr(err, errlen, "%s.%s[%zu]: must be a string, number, boolean or null",
                           keypath, key, i);
                    return -1;
                }
            }
        } else if (!where_value_ok(v)) {
            seterr(err, errlen, "%s.%s: must be a string, number, boolean, null or a list of them",
                   keypath, key);
            return -1;
        }
    }
    return 0;
}

size_t *plot_filter_rows(const struct plot_csv *csv, json_t *where, const char *keypath,
                         size_t *nout, char *err, size_t errlen)
{
    size_t nkeys = where ? json_object_size(where) : 0;
    int *colidx = xcalloc(nkeys, sizeof *colidx);
    json_t **vals = xcalloc(nkeys, sizeof *vals);
    size_t *rows, n = 0, k = 0;
    const char *key;
    json_t *v;

    if (where) {
        if (where_validate(where, keypath, err, errlen) != 0) {
            free(colidx);
            free(vals);
            return NULL;
        }
        json_object_foreach(where, key, v) {
            colidx[k] = plot_csv_column(csv, key);
            if (colidx[k] < 0) {
                seterr(err, errlen, "%s.%s: column '%s' not in %s", keypath, key, key, csv->name);
                free(colidx);
                free(vals);
                return NULL;
            }
            vals[k++] = v;
        }
    }
    rows = xcalloc(csv->nrows, sizeof *rows);
    for (size_t r = 0; r < csv->nrows; r++) {
        bool keep = true;
        for (k = 0; k < nkeys && keep; k++) {
            const char *cell = plot_csv_cell(csv, r, (size_t)colidx[k]);
            if (json_is_array(vals[k])) {
                size_t i;
                json_t *e;
                bool any = false;
                json_array_foreach(vals[k], i, e) any = any || cell_matches(cell, e);
                keep = any;
            } else {
                keep = cell_matches(cell, vals[k]);
            }
        }
        if (keep)
            rows[n++] = r;
    }
    free(colidx);
    free(vals);
    *nout = n;
    return rows;
}

/* ---- plot section validation ------------------------------------------- */

static const char *const plot_keys[] = {"type",   "source", "x",    "y",      "group",
                                        "panels", "where",  "logx", "logy",   "xlabel",
                                        "ylabel", "title",  "yrange", NULL};
static const char *const plot_types[] = {"lines", "bars", "stacked", NULL};
static const char *const table_keys[] = {"columns", "where", "format", NULL};

static int check_known_keys(json_t *obj, const char *const *known, const char *keypath,
                            char *err, size_t errlen)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t i;
        (void)v;
        for (i = 0; known[i]; i++)
            if (strcmp(known[i], key) == 0)
                break;
        if (!known[i]) {
            char list[256] = "";
            size_t len = 0;
            for (i = 0; known[i]; i++) {
                int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", known[i]);
                if (w < 0 || (size_t)w >= sizeof list - len)
                    break;
                len += (size_t)w;
            }
            seterr(err, errlen, "%s.%s: unknown key (known: %s)", keypath, key, list);
            return -1;
        }
    }
    return 0;
}

static int check_string_array(json_t *a, const char *keypath, bool nonempty, size_t max,
                              char *err, size_t errlen)
{
    size_t i;
    json_t *e;
    if (!json_is_array(a)) {
        seterr(err, errlen, "%s: must be a list of column names", keypath);
        return -1;
    }
    if (nonempty && json_array_size(a) == 0) {
        seterr(err, errlen, "%s: must name at least one column", keypath);
        return -1;
    }
    if (json_array_size(a) > max) {
        seterr(err, errlen, "%s: at most %zu columns", keypath, max);
        return -1;
    }
    json_array_foreach(a, i, e) {
        if (!json_is_string(e) || json_string_length(e) == 0) {
            seterr(err, errlen, "%s[%zu]: must be a non-empty string (a column name)", keypath, i);
            return -1;
        }
    }
    return 0;
}

int plot_spec_parse(json_t *plot, struct plot_spec *spec, char *err, size_t errlen)
{
    json_t *v;
    size_t i;
    json_t *e;

    memset(spec, 0, sizeof *spec);
    if (!json_is_object(plot)) {
        seterr(err, errlen, "plot: must be an object");
        return -1;
    }
    if (check_known_keys(plot, plot_keys, "plot", err, errlen) != 0)
        return -1;

    v = json_object_get(plot, "type");
    if (!v) {
        seterr(err, errlen, "plot.type: required (\"lines\", \"bars\" or \"stacked\")");
        return -1;
    }
    if (!json_is_string(v)) {
        seterr(err, errlen, "plot.type: must be a string (\"lines\", \"bars\" or \"stacked\")");
        return -1;
    }
    for (i = 0; plot_types[i]; i++)
        if (strcmp(plot_types[i], json_string_value(v)) == 0)
            break;
    if (!plot_types[i]) {
        seterr(err, errlen, "plot.type: unknown type '%s' (known: lines, bars, stacked)",
               json_string_value(v));
        return -1;
    }
    spec->type = (enum plot_type)i;

    v = json_object_get(plot, "source");
    if (v) {
        if (!json_is_string(v) || (strcmp(json_string_value(v), "main") != 0 &&
                                   strcmp(json_string_value(v), "series") != 0)) {
            seterr(err, errlen, "plot.source: must be \"main\" or \"series\"");
            return -1;
        }
        spec->series_source = strcmp(json_string_value(v), "series") == 0;
    }

    v = json_object_get(plot, "x");
    if (!v) {
        seterr(err, errlen, "plot.x: required (a column name)");
        return -1;
    }
    if (!json_is_string(v) || json_string_length(v) == 0) {
        seterr(err, errlen, "plot.x: must be a non-empty string (a column name)");
        return -1;
    }
    spec->x = json_string_value(v);

    v = json_object_get(plot, "y");
    if (!v) {
        seterr(err, errlen, "plot.y: required (a list of column names)");
        return -1;
    }
    if (check_string_array(v, "plot.y", true, PLOT_MAX_COLS, err, errlen) != 0)
        return -1;
    json_array_foreach(v, i, e) spec->y[i] = json_string_value(e);
    spec->ny = json_array_size(v);

    v = json_object_get(plot, "group");
    if (v) {
        if (check_string_array(v, "plot.group", false, PLOT_MAX_COLS, err, errlen) != 0)
            return -1;
        json_array_foreach(v, i, e) spec->group[i] = json_string_value(e);
        spec->ngroup = json_array_size(v);
    }

    v = json_object_get(plot, "panels");
    if (v && !json_is_null(v)) {
        if (!json_is_string(v) || json_string_length(v) == 0) {
            seterr(err, errlen, "plot.panels: must be a column name or null");
            return -1;
        }
        spec->panels = json_string_value(v);
    }

    v = json_object_get(plot, "where");
    if (v) {
        if (where_validate(v, "plot.where", err, errlen) != 0)
            return -1;
        spec->where = v;
    }

    {
        static const char *const bools[] = {"logx", "logy"};
        bool *dst[] = {&spec->logx, &spec->logy};
        for (i = 0; i < 2; i++) {
            v = json_object_get(plot, bools[i]);
            if (v && !json_is_boolean(v)) {
                seterr(err, errlen, "plot.%s: must be true or false", bools[i]);
                return -1;
            }
            *dst[i] = json_is_true(v);
        }
    }
    if (spec->logx && spec->type != PLOT_LINES) {
        seterr(err, errlen, "plot.logx: only for type \"lines\" (bars have categories on x)");
        return -1;
    }

    {
        static const char *const strs[] = {"xlabel", "ylabel", "title"};
        const char **dst[] = {&spec->xlabel, &spec->ylabel, &spec->title};
        for (i = 0; i < 3; i++) {
            v = json_object_get(plot, strs[i]);
            if (v && !json_is_string(v)) {
                seterr(err, errlen, "plot.%s: must be a string", strs[i]);
                return -1;
            }
            *dst[i] = v ? json_string_value(v) : NULL;
        }
    }

    v = json_object_get(plot, "yrange");
    if (v) {
        json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1);
        if (!json_is_array(v) || json_array_size(v) != 2 ||
            !(json_is_number(lo) || json_is_null(lo)) || !(json_is_number(hi) || json_is_null(hi))) {
            seterr(err, errlen, "plot.yrange: must be [min, max] (numbers; null for automatic)");
            return -1;
        }
        spec->has_ymin = json_is_number(lo);
        spec->has_ymax = json_is_number(hi);
        spec->ymin = spec->has_ymin ? json_number_value(lo) : 0;
        spec->ymax = spec->has_ymax ? json_number_value(hi) : 0;
        if (spec->has_ymin && spec->has_ymax && !(spec->ymin < spec->ymax)) {
            seterr(err, errlen, "plot.yrange: min (%g) must be less than max (%g)", spec->ymin,
                   spec->ymax);
            return -1;
        }
        if (spec->logy && spec->has_ymin && spec->ymin <= 0) {
            seterr(err, errlen, "plot.yrange: min must be > 0 with logy");
            return -1;
        }
    }
    return 0;
}

int plot_validate_section(json_t *plot, char *err, size_t errlen)
{
    struct plot_spec spec;
    if (!plot)
        return 0;
    return plot_spec_parse(plot, &spec, err, errlen);
}

/* A table format: literal text, one conversion %[-][0][width][.precision]
 * (d|f|e|g), literal text; "%%" is a literal percent sign. */
struct numfmt {
    char prefix[64], suffix[64];
    bool left, zero;
    int width, prec; /* prec < 0: default */
    char conv;
};

static int numfmt_parse(const char *s, struct numfmt *f)
{
    size_t plen = 0, slen = 0;
    bool seen = false;
    memset(f, 0, sizeof *f);
    f->prec = -1;
    while (*s) {
        char *dst = seen ? f->suffix : f->prefix;
        size_t *len = seen ? &slen : &plen;
        if (*s == '%' && s[1] == '%') {
            if (*len + 1 >= sizeof f->prefix)
                return -1;
            dst[(*len)++] = '%';
            s += 2;
            continue;
        }
        if (*s == '%') {
            if (seen)
                return -1; /* a second conversion */
            seen = true;
            s++;
            for (; *s == '-' || *s == '0'; s++) {
                if (*s == '-')
                    f->left = true;
                else
                    f->zero = true;
            }
            while (*s >= '0' && *s <= '9') {
                f->width = f->width * 10 + (*s++ - '0');
                if (f->width > 64)
                    return -1;
            }
            if (*s == '.') {
                s++;
                f->prec = 0;
                while (*s >= '0' && *s <= '9') {
                    f->prec = f->prec * 10 + (*s++ - '0');
                    if (f->prec > 30)
                        return -1;
                }
            }
            if (*s != 'd' && *s != 'f' && *s != 'e' && *s != 'g')
                return -1;
            f->conv = *s++;
            continue;
        }
        if (*len + 1 >= sizeof f->prefix)
            return -1;
        dst[(*len)++] = *s++;
    }
    return seen ? 0 : -1;
}

static void numfmt_apply(const struct numfmt *f, double v, char *buf, size_t len)
{
    char num[128];
    int prec = f->prec < 0 ? 6 : f->prec;
    int width = f->left ? -f->width : f->width;
    switch (f->conv) {
    case 'd':
        if (f->zero && !f->left)
            snprintf(num, sizeof num, "%0*lld", f->width, (long long)llround(v));
        else
            snprintf(num, sizeof num, "%*lld", width, (long long)llround(v));
        break;
    case 'e':
        if (f->zero && !f->left)
            snprintf(num, sizeof num, "%0*.*e", f->width, prec, v);
        else
            snprintf(num, sizeof num, "%*.*e", width, prec, v);
        break;
    case 'g':
        if (f->zero && !f->left)
            snprintf(num, sizeof num, "%0*.*g", f->width, prec, v);
        else
            snprintf(num, sizeof num, "%*.*g", width, prec, v);
        break;
    default:
        if (f->zero && !f->left)
            snprintf(num, sizeof num, "%0*.*f", f->width, prec, v);
        else
            snprintf(num, sizeof num, "%*.*f", width, prec, v);
        break;
    }
    snprintf(buf, len, "%s%s%s", f->prefix, num, f->suffix);
}

int plot_validate_table(json_t *table, char *err, size_t errlen)
{
    json_t *v;
    const char *key;
    if (!table)
        return 0;
    if (!json_is_object(table)) {
        seterr(err, errlen, "table: must be an object");
        return -1;
    }
    if (check_known_keys(table, table_keys, "table", err, errlen) != 0)
        return -1;
    v = json_object_get(table, "columns");
    if (v && check_string_array(v, "table.columns", true, SIZE_MAX, err, errlen) != 0)
        return -1;
    v = json_object_get(table, "where");
    if (v && where_validate(v, "table.where", err, errlen) != 0)
        return -1;
    v = json_object_get(table, "format");
    if (v) {
        json_t *f;
        struct numfmt nf;
        if (!json_is_object(v)) {
            seterr(err, errlen, "table.format: must be an object {column: \"%%.2f\"}");
            return -1;
        }
        json_object_foreach(v, key, f) {
            if (!json_is_string(f) || numfmt_parse(json_string_value(f), &nf) != 0) {
                seterr(err, errlen,
                       "table.format.%s: must be a string with one conversion "
                       "%%[-][0][width][.precision](d|f|e|g), e.g. \"%%.2f\"",
                       key);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- gnuplot script generation ---------------------------------------- */

/* A gnuplot double-quoted string (backslash escapes are interpreted; the
 * terminal runs in noenhanced mode so no other character is special). */
static void gp_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* A title, wrapped at spaces to lines of at most maxc characters. */
static void gp_wrapped(FILE *out, const char *s, size_t maxc, int *nlines)
{
    struct sbuf b = {0};
    size_t col = 0;
    *nlines = 1;
    while (*s) {
        const char *w = s;
        size_t wl;
        while (*s && *s != ' ')
            s++;
        wl = (size_t)(s - w);
        if (col > 0 && col + 1 + wl > maxc) {
            sb_putc(&b, '\n');
            col = 0;
            (*nlines)++;
        } else if (col > 0) {
            sb_putc(&b, ' ');
            col++;
        }
        for (size_t i = 0; i < wl; i++)
            sb_putc(&b, w[i]);
        col += wl;
        while (*s == ' ')
            s++;
    }
    gp_str(out, sb_str(&b));
    free(b.s);
}

/* A string in a data block: gnuplot has no escapes inside data strings, so
 * double quotes become single quotes. */
static void gp_datastr(FILE *out, const char *s)
{
    if (!*s) { /* gnuplot reads "" in a data block as a missing value */
        fputs("\" \"", out);
        return;
    }
    fputc('"', out);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, out);
    fputc('"', out);
}

static void gp_num(FILE *out, double v)
{
    if (isnan(v))
        fputs("NaN", out);
    else
        fprintf(out, "%.10g", v);
}

/* "col=value" for numeric values (a bare "4" says nothing), the value
 * itself for strings ("gzip"). */
static void label_part(struct sbuf *b, const char *col, const char *cell)
{
    if (plot_cell_number(cell, NULL)) {
        sb_puts(b, col);
        sb_putc(b, '=');
    }
    sb_puts(b, cell[0] ? cell : "(empty)");
}

/* Everything the generators need, resolved against the CSV. */
struct layout {
    const struct plot_spec *spec;
    const struct plot_csv *csv;
    int xcol, pcol;
    int ycol[PLOT_MAX_COLS], gcol[PLOT_MAX_COLS];
    size_t *rows, nrows;          /* filtered rows */
    size_t *rpanel, *rgroup;      /* per filtered row */
    struct strlist panels;        /* panel cell values */
    struct strlist groups;        /* group keys */
    struct strlist glabels;       /* group labels, parallel to groups */
    int width, height, grid_rows, grid_cols;
};

static void layout_free(struct layout *L)
{
    free(L->rows);
    free(L->rpanel);
    free(L->rgroup);
    strlist_free(&L->panels);
    strlist_free(&L->groups);
    strlist_free(&L->glabels);
}

static int resolve_col(const struct plot_csv *csv, const char *name, const char *keypath,
                       int *out, char *err, size_t errlen)
{
    *out = plot_csv_column(csv, name);
    if (*out < 0) {
        seterr(err, errlen, "%s: column '%s' not in %s", keypath, name, csv->name);
        return -1;
    }
    return 0;
}

static int layout_build(struct layout *L, const struct plot_spec *spec, const struct plot_csv *csv,
                        char *err, size_t errlen)
{
    char path[64];
    struct sbuf key = {0}, label = {0};

    memset(L, 0, sizeof *L);
    L->spec = spec;
    L->csv = csv;
    L->pcol = -1;
    if (resolve_col(csv, spec->x, "plot.x", &L->xcol, err, errlen) != 0)
        return -1;
    for (size_t k = 0; k < spec->ny; k++) {
        snprintf(path, sizeof path, "plot.y[%zu]", k);
        if (resolve_col(csv, spec->y[k], path, &L->ycol[k], err, errlen) != 0)
            return -1;
    }
    for (size_t g = 0; g < spec->ngroup; g++) {
        snprintf(path, sizeof path, "plot.group[%zu]", g);
        if (resolve_col(csv, spec->group[g], path, &L->gcol[g], err, errlen) != 0)
            return -1;
    }
    if (spec->panels && resolve_col(csv, spec->panels, "plot.panels", &L->pcol, err, errlen) != 0)
        return -1;
    L->rows = plot_filter_rows(csv, spec->where, "plot.where", &L->nrows, err, errlen);
    if (!L->rows)
        return -1;
    if (L->nrows == 0 && spec->where) {
        seterr(err, errlen, "plot.where: no row of %s matches", csv->name);
        return -1;
    }
    /* No rows at all (a series CSV of a window without a complete interval):
     * the generators draw the empty figure (gen_nodata). */

    L->rpanel = xcalloc(L->nrows, sizeof *L->rpanel);
    L->rgroup = xcalloc(L->nrows, sizeof *L->rgroup);
    for (size_t i = 0; i < L->nrows; i++) {
        size_t r = L->rows[i];
        L->rpanel[i] = L->pcol < 0 ? 0 : strlist_add(&L->panels, plot_csv_cell(csv, r, (size_t)L->pcol));
        sb_clear(&key);
        sb_clear(&label);
        for (size_t g = 0; g < spec->ngroup; g++) {
            const char *cell = plot_csv_cell(csv, r, (size_t)L->gcol[g]);
            if (g)
                sb_putc(&key, '\x1f');
            sb_puts(&key, cell);
            if (cell[0] == '\0') /* a column this run does not have: say nothing */
                continue;
            if (label.len)
                sb_puts(&label, ", ");
            label_part(&label, spec->group[g], cell);
        }
        L->rgroup[i] = strlist_add(&L->groups, sb_str(&key));
        if (L->glabels.n < L->groups.n) {
            /* strlist_add would merge equal labels; keep them parallel. */
            if (L->glabels.n == L->glabels.cap) {
                L->glabels.cap = L->glabels.cap ? 2 * L->glabels.cap : 8;
                L->glabels.v = xrealloc(L->glabels.v, L->glabels.cap * sizeof *L->glabels.v);
            }
            L->glabels.v[L->glabels.n++] = xstrdup(sb_str(&label));
        }
    }
    if (L->pcol < 0 || L->panels.n == 0) /* one panel (also when there are no rows) */
        strlist_add(&L->panels, "");
    free(key.s);
    free(label.s);

    if (L->panels.n == 1) {
        L->grid_rows = L->grid_cols = 1;
        L->width = PANEL_W_SINGLE;
        L->height = PANEL_H_SINGLE;
    } else {
        size_t cols = 1;
        while (cols * cols < L->panels.n)
            cols++;
        if (L->panels.n <= 3)
            cols = L->panels.n;
        L->grid_cols = (int)cols;
        L->grid_rows = (int)((L->panels.n + cols - 1) / cols);
        L->width = PANEL_W_GRID * L->grid_cols;
        L->height = PANEL_H_GRID * L->grid_rows;
    }
    return 0;
}

/* Numeric value of cell (row r, column col) for key path kp: NaN when empty;
 * -1 with a message when present but not a number. */
static int cell_value(const struct layout *L, size_t r, int col, const char *kp, double *out,
                      char *err, size_t errlen)
{
    const char *cell = plot_csv_cell(L->csv, r, (size_t)col);
    if (cell[0] == '\0') {
        *out = NAN;
        return 0;
    }
    if (!plot_cell_number(cell, out)) {
        char *end;
        (void)strtod(cell, &end);
        if (end != cell && *end == '\0') { /* nan, inf: not applicable, left out */
            *out = NAN;
            return 0;
        }
        seterr(err, errlen, "%s: column '%s' has the non-numeric value '%s' (%s:%zu)", kp,
               L->csv->header[col], cell, L->csv->name, L->csv->line[r]);
        return -1;
    }
    return 0;
}

static const char *series_title(const struct layout *L, size_t g, size_t k, struct sbuf *b)
{
    const struct plot_spec *spec = L->spec;
    sb_clear(b);
    if (spec->ngroup == 0) {
        sb_puts(b, spec->y[k]);
    } else if (spec->ny == 1 || L->glabels.v[g][0] == '\0') {
        sb_puts(b, L->glabels.v[g][0] ? L->glabels.v[g] : spec->y[k]);
    } else {
        sb_puts(b, spec->y[k]);
        sb_puts(b, ", ");
        sb_puts(b, L->glabels.v[g]);
    }
    return sb_str(b);
}

static void panel_title(FILE *out, const struct layout *L, size_t p)
{
    struct sbuf b = {0};
    const char *v = L->panels.v[p];
    if (L->pcol < 0)
        return;
    /* "tables = 4" for numbers, "workload: gzip" for names. */
    sb_puts(&b, L->spec->panels);
    sb_puts(&b, plot_cell_number(v, NULL) ? " = " : ": ");
    sb_puts(&b, v[0] ? v : "(empty)");
    fputs("set title ", out);
    gp_str(out, sb_str(&b));
    fputc('\n', out);
    free(b.s);
}

struct point {
    double x, y;
    size_t line;
};

static int cmp_point(const void *a, const void *b)
{
    const struct point *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

/* The selected rows hold no number to plot (e.g. every interval metric is
 * empty because a short window has no complete interval): draw an empty
 * figure saying so, and warn, rather than leave the figure missing. */
static void gen_nodata(FILE *out, const struct layout *L)
{
    fprintf(stderr, "hwprof plot: warning: no numeric value to plot in the selected rows of %s; "
                    "drawing an empty figure\n", L->csv->name);
    fputs("\nunset border\nunset tics\nunset xlabel\nunset ylabel\n"
          "set xrange [0:1]\nset yrange [0:1]\n", out);
    fputs("set label 1 ", out);
    gp_str(out, "no data: every plotted value is empty (e.g. no complete interval in this window)");
    fputs(" at screen 0.5, 0.5 center\nplot 2 notitle\n", out);
}

/* Type "lines": one data block per panel x group x y column, sorted by x. */
static int gen_lines(FILE *out, struct layout *L, char *err, size_t errlen)
{
    const struct plot_spec *spec = L->spec;
    size_t nser = L->groups.n * spec->ny;
    size_t *npts = xcalloc(L->panels.n * nser, sizeof *npts);
    struct point *pts = xcalloc(L->nrows, sizeof *pts);
    /* Per-panel y extent: a flat panel (all y equal, e.g. zero error
     * everywhere) gets an explicit range so gnuplot neither warns nor
     * draws negative errors. */
    double *pymin = xcalloc(L->panels.n, sizeof *pymin);
    double *pymax = xcalloc(L->panels.n, sizeof *pymax);
    size_t maxpts = 0;
    double xmin = INFINITY, xmax = -INFINITY;
    int rc = -1;
    struct sbuf title = {0};

    for (size_t p = 0; p < L->panels.n; p++) {
        pymin[p] = INFINITY;
        pymax[p] = -INFINITY;
        for (size_t g = 0; g < L->groups.n; g++) {
            for (size_t k = 0; k < spec->ny; k++) {
                size_t n = 0;
                char kp[64];
                snprintf(kp, sizeof kp, "plot.y[%zu]", k);
                for (size_t i = 0; i < L->nrows; i++) {
                    size_t r = L->rows[i];
                    double x, y;
                    if (L->rpanel[i] != p || L->rgroup[i] != g)
                        continue;
                    if (cell_value(L, r, L->xcol, "plot.x", &x, err, errlen) != 0 ||
                        cell_value(L, r, L->ycol[k], kp, &y, err, errlen) != 0)
                        goto done;
                    if (isnan(x) || isnan(y))
                        continue;
                    if (x < xmin)
                        xmin = x;
                    if (x > xmax)
                        xmax = x;
                    if (y < pymin[p])
                        pymin[p] = y;
                    if (y > pymax[p])
                        pymax[p] = y;
                    pts[n].x = x;
                    pts[n].y = y;
                    pts[n].line = L->csv->line[r];
                    n++;
                }
                qsort(pts, n, sizeof *pts, cmp_point);
                for (size_t i = 1; i < n; i++) {
                    if (pts[i].x == pts[i - 1].x) {
                        seterr(err, errlen,
                               "plot: %s lines %zu and %zu give two points at %s = %.10g on one "
                               "line; add the column that tells them apart to plot.group, "
                               "plot.panels or plot.where",
                               L->csv->name, pts[i - 1].line < pts[i].line ? pts[i - 1].line : pts[i].line,
                               pts[i - 1].line < pts[i].line ? pts[i].line : pts[i - 1].line,
                               spec->x, pts[i].x);
                        goto done;
                    }
                }
                npts[p * nser + g * spec->ny + k] = n;
                if (n > maxpts)
                    maxpts = n;
                if (n == 0)
                    continue;
                fprintf(out, "$p%zus%zu << EOD\n", p, g * spec->ny + k);
                for (size_t i = 0; i < n; i++) {
                    gp_num(out, pts[i].x);
                    fputc(' ', out);
                    gp_num(out, pts[i].y);
                    fputc('\n', out);
                }
                fputs("EOD\n", out);
            }
        }
    }
    if (maxpts == 0) {
        gen_nodata(out, L);
        rc = 0;
        goto done;
    }

    fputs("\nset grid\n", out);
    if (spec->logx)
        fputs("set logscale x\n", out);
    if (spec->logx && xmin >= 1 && xmax >= 1e4) /* 10k 100k 1M, not 1e+06 */
        fputs("set format x \"%.0s%c\"\n", out);
    else if (spec->logx) /* 0.001, not 0.0010000 */
        fputs("set format x \"%g\"\n", out);
    for (size_t p = 0; p < L->panels.n; p++) {
        bool first = true, any = false;
        for (size_t s = 0; s < nser; s++)
            any = any || npts[p * nser + s] > 0;
        fputc('\n', out);
        if (!any) { /* gnuplot refuses to plot nothing: leave the cell blank */
            fputs("set multiplot next\n", out);
            continue;
        }
        panel_title(out, L, p);
        bool flat = !spec->has_ymin && !spec->has_ymax && !spec->logy && pymin[p] == pymax[p];
        if (flat) {
            double v = pymin[p], d = v == 0 ? 1 : fabs(v) * 0.05;
            fprintf(out, "set yrange [%.10g:%.10g]\n", v == 0 ? 0 : v - d, v + d);
        }
        fputs("plot ", out);
        for (size_t g = 0; g < L->groups.n; g++) {
            for (size_t k = 0; k < spec->ny; k++) {
                size_t s = g * spec->ny + k;
                /* Colour tells groups apart, dash type the y columns. */
                size_t colour = spec->ngroup ? g : k;
                if (npts[p * nser + s] == 0)
                    continue;
                fprintf(out, "%s$p%zus%zu using 1:2 with ", first ? "" : ", \\\n     ", p, s);
                if (maxpts > MANY_POINTS) /* markers would hide the line */
                    fprintf(out, "lines lw 1.5 lc %zu dt %zu title ", colour % LINE_COLORS + 1,
                            spec->ngroup ? k % 5 + 1 : 1);
                else
                    fprintf(out, "linespoints lw 2 lc %zu dt %zu pt %zu title ",
                            colour % LINE_COLORS + 1, spec->ngroup ? k % 5 + 1 : 1,
                            colour % POINT_TYPES + 1);
                gp_str(out, series_title(L, g, k, &title));
                first = false;
            }
        }
        fputc('\n', out);
        if (flat)
            fputs("set autoscale y\n", out);
    }
    rc = 0;
done:
    free(pymin);
    free(pymax);
    free(npts);
    free(pts);
    free(title.s);
    return rc;
}

/* Categories of panel p (x values in CSV order) into cats; cat index of each
 * filtered row into rcat (SIZE_MAX for rows of other panels). */
static void panel_categories(const struct layout *L, size_t p, struct strlist *cats, size_t *rcat)
{
    for (size_t i = 0; i < L->nrows; i++) {
        rcat[i] = SIZE_MAX;
        if (L->rpanel[i] == p)
            rcat[i] = strlist_add(cats, plot_csv_cell(L->csv, L->rows[i], (size_t)L->xcol));
    }
}

static size_t max_len(const struct strlist *l)
{
    size_t m = 0;
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->v[i]) > m)
            m = strlen(l->v[i]);
    return m;
}

/* Values of one panel for bars/stacked: vals[(cat * ngroups + g) * ny + k].
 * Rejects two rows that land on the same bar. */
static int panel_matrix(const struct layout *L, size_t p, const struct strlist *cats,
                        const size_t *rcat, double *vals, size_t *src, double *minv, double *maxv,
                        char *err, size_t errlen)
{
    const struct plot_spec *spec = L->spec;
    size_t ng = L->groups.n, ny = spec->ny;
    for (size_t i = 0; i < cats->n * ng * ny; i++) {
        vals[i] = NAN;
        src[i] = 0;
    }
    for (size_t i = 0; i < L->nrows; i++) {
        size_t r = L->rows[i];
        if (L->rpanel[i] != p)
            continue;
        for (size_t k = 0; k < ny; k++) {
            size_t at = (rcat[i] * ng + L->rgroup[i]) * ny + k;
            char kp[64];
            double y;
            snprintf(kp, sizeof kp, "plot.y[%zu]", k);
            if (cell_value(L, r, L->ycol[k], kp, &y, err, errlen) != 0)
                return -1;
            if (src[at]) {
                seterr(err, errlen,
                       "plot: %s lines %zu and %zu give the same bar (%s '%s'%s%s); add the "
                       "column that tells them apart to plot.group, plot.panels or plot.where",
                       L->csv->name, src[at], L->csv->line[r], spec->x, cats->v[rcat[i]],
                       spec->ngroup ? ", " : "", spec->ngroup ? L->glabels.v[L->rgroup[i]] : "");
                return -1;
            }
            src[at] = L->csv->line[r];
            vals[at] = y;
            if (!isnan(y) && y < *minv)
                *minv = y;
            if (!isnan(y) && y > *maxv)
                *maxv = y;
        }
    }
    return 0;
}

/* Bars drawn from 0 with an automatic top (bars_common's "[0:*]"): a panel
 * whose values are all 0 gets [0:1] around its plot command, or gnuplot
 * warns about an empty range. */
static bool bars_auto_range(const struct plot_spec *spec, double minv)
{
    return !spec->has_ymin && !spec->has_ymax && !spec->logy && minv >= 0;
}

static void bars_common(FILE *out, struct layout *L, double minv, double maxv, size_t longest_tic,
                        size_t ntics)
{
    const struct plot_spec *spec = L->spec;
    fputs("\nset style data histograms\n"
          "set style fill solid 0.85 border -1\n"
          "set grid ytics\n"
          "set xtics nomirror\n",
          out);
    if (bars_auto_range(spec, minv))
        fputs(maxv > 0 ? "set yrange [0:*]\n" : "set yrange [0:1]\n", out); /* all zero: no empty range */
    if (!spec->has_ymax) /* a little room above the tallest bar */
        fputs("set offsets 0, 0, graph 0.05, 0\n", out);
    /* Long or many category names would overlap: rotate them. */
    if ((longest_tic + 1) * 8 * ntics > (size_t)(L->width / L->grid_cols) * 6 / 10 ||
        longest_tic > 15) {
        fputs("set xtics rotate by 90 right\n", out);
        /* Vertical labels eat into the plot: give each row of panels the
         * height they take beyond the usual line or two (about 8 px a char). */
        if (longest_tic > 4)
            L->height += L->grid_rows * (int)((longest_tic - 4) * 8);
    }
}

/* Type "bars": clustered histogram, one data block per panel with a row per
 * category and a column per group x y column. */
static int gen_bars(FILE *out, struct layout *L, char *err, size_t errlen)
{
    const struct plot_spec *spec = L->spec;
    size_t ng = L->groups.n, ny = spec->ny, nser = ng * ny;
    size_t *rcat = xcalloc(L->nrows, sizeof *rcat);
    struct strlist *cats = xcalloc(L->panels.n, sizeof *cats);
    bool *used = xcalloc(L->panels.n * nser, sizeof *used);
    double *pmax = xcalloc(L->panels.n, sizeof *pmax);
    double minv = INFINITY, maxv = -INFINITY;
    size_t longest = 0, ntics = 0;
    struct sbuf title = {0};
    int rc = -1;

    for (size_t p = 0; p < L->panels.n; p++) {
        double *vals;
        size_t *src;
        panel_categories(L, p, &cats[p], rcat);
        vals = xcalloc(cats[p].n * nser, sizeof *vals);
        src = xcalloc(cats[p].n * nser, sizeof *src);
        pmax[p] = -INFINITY;
        if (panel_matrix(L, p, &cats[p], rcat, vals, src, &minv, &pmax[p], err, errlen) != 0) {
            free(vals);
            free(src);
            goto done;
        }
        if (pmax[p] > maxv)
            maxv = pmax[p];
        fprintf(out, "$p%zu << EOD\n", p);
        for (size_t c = 0; c < cats[p].n; c++) {
            gp_datastr(out, cats[p].v[c]);
            for (size_t s = 0; s < nser; s++) {
                fputc(' ', out);
                gp_num(out, vals[c * nser + s]);
                if (!isnan(vals[c * nser + s]))
                    used[p * nser + s] = true;
            }
            fputc('\n', out);
        }
        fputs("EOD\n", out);
        free(vals);
        free(src);
        if (max_len(&cats[p]) > longest)
            longest = max_len(&cats[p]);
        if (cats[p].n > ntics)
            ntics = cats[p].n;
    }

    if (isinf(minv)) {
        gen_nodata(out, L);
        rc = 0;
        goto done;
    }
    bars_common(out, L, minv, maxv, longest, ntics);
    fputs("set style histogram clustered gap 1\n", out);
    for (size_t p = 0; p < L->panels.n; p++) {
        bool first = true, any = false;
        for (size_t s = 0; s < nser; s++)
            any = any || used[p * nser + s];
        fputc('\n', out);
        if (!any) { /* gnuplot refuses to plot nothing: leave the cell blank */
            fputs("set multiplot next\n", out);
            continue;
        }
        panel_title(out, L, p);
        bool zero = bars_auto_range(spec, minv) && maxv > 0 && pmax[p] <= 0;
        if (zero)
            fputs("set yrange [0:1]\n", out);
        /* Cluster i is centred on x = i: no empty space at the sides. */
        fprintf(out, "set xrange [-0.5:%zu.5]\n", cats[p].n - 1);
        fputs("plot ", out);
        for (size_t g = 0; g < ng; g++) {
            for (size_t k = 0; k < ny; k++) {
                size_t s = g * ny + k;
                if (!used[p * nser + s])
                    continue;
                fprintf(out, "%s$p%zu using %zu%s lc %zu", first ? "" : ", \\\n     ", p, s + 2,
                        first ? ":xtic(1)" : "", s % LINE_COLORS + 1);
                if (s >= LINE_COLORS) /* colours repeat: add a fill pattern */
                    fprintf(out, " fillstyle pattern %zu border -1", (s / LINE_COLORS - 1) % 7 + 1);
                fputs(" title ", out);
                gp_str(out, series_title(L, g, k, &title));
                first = false;
            }
        }
        fputc('\n', out);
        if (zero)
            fputs("set yrange [0:*]\n", out);
    }
    rc = 0;
done:
    for (size_t p = 0; p < L->panels.n; p++)
        strlist_free(&cats[p]);
    free(cats);
    free(rcat);
    free(used);
    free(pmax);
    free(title.s);
    return rc;
}

/* Type "stacked": rowstacked histograms.  Without groups one bar per
 * category; with groups one cluster per category (newhistogram, titled with
 * the category) holding a bar per group, each bar stacking the y columns
 * bottom first.  Segment colours restart at lt 1 in every cluster so that a
 * y column has one colour and one key entry. */
static bool cat_has_values(const double *vals, size_t c, size_t ng, size_t ny)
{
    for (size_t i = c * ng * ny; i < (c + 1) * ng * ny; i++)
        if (!isnan(vals[i]))
            return true;
    return false;
}

static int gen_stacked(FILE *out, struct layout *L, char *err, size_t errlen)
{
    const struct plot_spec *spec = L->spec;
    size_t ng = L->groups.n, ny = spec->ny, nser = ng * ny;
    size_t *rcat = xcalloc(L->nrows, sizeof *rcat);
    struct strlist *cats = xcalloc(L->panels.n, sizeof *cats);
    double **pvals = xcalloc(L->panels.n, sizeof *pvals);
    double minv = INFINITY, maxv = -INFINITY;
    size_t longest = 0, ntics = 0;
    int rc = -1;

    for (size_t p = 0; p < L->panels.n; p++) {
        size_t *src;
        panel_categories(L, p, &cats[p], rcat);
        pvals[p] = xcalloc(cats[p].n * nser, sizeof **pvals);
        src = xcalloc(cats[p].n * nser, sizeof *src);
        if (panel_matrix(L, p, &cats[p], rcat, pvals[p], src, &minv, &maxv, err, errlen) != 0) {
            free(src);
            goto done;
        }
        free(src);
        if (spec->ngroup == 0) {
            fprintf(out, "$p%zu << EOD\n", p);
            for (size_t c = 0; c < cats[p].n; c++) {
                gp_datastr(out, cats[p].v[c]);
                for (size_t k = 0; k < ny; k++) {
                    fputc(' ', out);
                    gp_num(out, pvals[p][c * ny + k]);
                }
                fputc('\n', out);
            }
            fputs("EOD\n", out);
            if (max_len(&cats[p]) > longest)
                longest = max_len(&cats[p]);
            if (cats[p].n > ntics)
                ntics = cats[p].n;
            continue;
        }
        size_t bars = 0;
        bool first_cluster = true;
        for (size_t c = 0; c < cats[p].n; c++) {
            if (!cat_has_values(pvals[p], c, ng, ny))
                continue;
            fprintf(out, "$p%zuc%zu << EOD\n", p, c);
            size_t rows = 0;
            for (size_t g = 0; g < ng; g++)
                for (size_t k = 0; k < ny; k++)
                    if (!isnan(pvals[p][(c * ng + g) * ny + k])) {
                        rows++;
                        break;
                    }
            if (first_cluster && rows == 1) {
                /* gnuplot 5.4 draws nothing for a first newhistogram of one
                 * row; an empty leading row keeps the bar. */
                fputs("\" \"", out);
                for (size_t k = 0; k < ny; k++)
                    fputs(" NaN", out);
                fputc('\n', out);
            }
            first_cluster = false;
            bars += 2; /* the gap before each cluster takes about two bars' room */
            for (size_t g = 0; g < ng; g++) {
                bool any = false;
                for (size_t k = 0; k < ny; k++)
                    any = any || !isnan(pvals[p][(c * ng + g) * ny + k]);
                if (!any)
                    continue;
                gp_datastr(out, L->glabels.v[g]);
                for (size_t k = 0; k < ny; k++) {
                    fputc(' ', out);
                    gp_num(out, pvals[p][(c * ng + g) * ny + k]);
                }
                fputc('\n', out);
                bars++;
                if (strlen(L->glabels.v[g]) > longest)
                    longest = strlen(L->glabels.v[g]);
            }
            fputs("EOD\n", out);
        }
        if (bars > ntics)
            ntics = bars;
    }

    if (isinf(minv)) {
        gen_nodata(out, L);
        rc = 0;
        goto done;
    }
    bars_common(out, L, minv, maxv, longest, ntics);
    /* With groups the categories are the cluster titles, which gnuplot
     * draws relative to the x label: without an x label keep its room (" ")
     * and put the titles there; with one, move it below the titles. */
    if (spec->ngroup && !spec->xlabel)
        fputs("set xlabel \" \"\n"
              "set style histogram rowstacked title offset character 0,-1\n",
              out);
    else if (spec->ngroup)
        fputs("set xlabel offset character 0,-1.5\n"
              "set style histogram rowstacked title offset character 0,0.5\n",
              out);
    else
        fputs("set style histogram rowstacked\n", out);
    fputs("set boxwidth 0.8 relative\n", out);
    for (size_t p = 0; p < L->panels.n; p++) {
        bool any = false;
        for (size_t i = 0; i < cats[p].n * nser; i++)
            any = any || !isnan(pvals[p][i]);
        fputc('\n', out);
        if (!any) { /* gnuplot refuses to plot nothing: leave the cell blank */
            fputs("set multiplot next\n", out);
            continue;
        }
        panel_title(out, L, p);
        double pmax = -INFINITY;
        for (size_t i = 0; i < cats[p].n * nser; i++)
            if (!isnan(pvals[p][i]) && pvals[p][i] > pmax)
                pmax = pvals[p][i];
        bool zero = bars_auto_range(spec, minv) && maxv > 0 && pmax <= 0;
        if (zero)
            fputs("set yrange [0:1]\n", out);
        fputs("plot ", out);
        if (spec->ngroup == 0) {
            for (size_t k = 0; k < ny; k++) {
                fprintf(out, "%s$p%zu using %zu%s lc %zu title ", k ? ", \\\n     " : "", p, k + 2,
                        k ? "" : ":xtic(1)", k % LINE_COLORS + 1);
                gp_str(out, spec->y[k]);
            }
            fputc('\n', out);
            if (zero)
                fputs("set yrange [0:*]\n", out);
            continue;
        }
        bool first = true;
        for (size_t c = 0; c < cats[p].n; c++) {
            if (!cat_has_values(pvals[p], c, ng, ny))
                continue;
            struct sbuf ct = {0};
            fprintf(out, "%snewhistogram ", first ? "" : ", \\\n     ");
            label_part(&ct, spec->x, cats[p].v[c]); /* "tables=4", "gzip" */
            gp_str(out, sb_str(&ct));
            free(ct.s);
            fputs(" lt 1", out);
            for (size_t k = 0; k < ny; k++) {
                fprintf(out, ", \\\n       $p%zuc%zu using %zu%s lc %zu ", p, c, k + 2,
                        k ? "" : ":xtic(1)", k % LINE_COLORS + 1);
                if (first) {
                    fputs("title ", out);
                    gp_str(out, spec->y[k]);
                } else {
                    fputs("notitle", out);
                }
            }
            first = false;
        }
        fputc('\n', out);
        if (zero)
            fputs("set yrange [0:*]\n", out);
    }
    rc = 0;
done:
    for (size_t p = 0; p < L->panels.n; p++) {
        strlist_free(&cats[p]);
        free(pvals[p]);
    }
    free(cats);
    free(pvals);
    free(rcat);
    return rc;
}

int plot_write_script(FILE *out, const struct plot_spec *spec, const struct plot_csv *csv,
                      const char *title, int *width, int *height, char *err, size_t errlen)
{
    struct layout L;
    const char *xlabel, *ylabel;
    char *body = NULL;
    size_t bodylen = 0;
    FILE *bf;
    int rc, tlines = 0;

    if (layout_build(&L, spec, csv, err, errlen) != 0) {
        layout_free(&L);
        return -1;
    }
    /* Data blocks and plot commands go to a buffer first: the settings that
     * depend on the data (yrange, tic rotation) come out of the generators. */
    bf = open_memstream(&body, &bodylen);
    if (!bf) {
        seterr(err, errlen, "open_memstream: %s", strerror(errno));
        layout_free(&L);
        return -1;
    }
    rc = spec->type == PLOT_LINES ? gen_lines(bf, &L, err, errlen)
       : spec->type == PLOT_BARS  ? gen_bars(bf, &L, err, errlen)
                                  : gen_stacked(bf, &L, err, errlen);
    fclose(bf);
    if (rc != 0) {
        free(body);
        layout_free(&L);
        return -1;
    }

    if (spec->title)
        title = spec->title;
    xlabel = spec->xlabel ? spec->xlabel : spec->x;
    ylabel = spec->ylabel ? spec->ylabel : spec->ny == 1 ? spec->y[0] : "";

    fprintf(out, "# Generated by `hwprof plot` from %s (type %s); do not edit:\n"
                 "# copy it to plots/<paper>/<stem>.gp to customise the figure.\n"
                 "# Run by hand: gnuplot -e \"set terminal pngcairo size %d,%d noenhanced; "
                 "set output 'x.png'\" THIS_FILE\n",
            csv->name, plot_types[spec->type], L.width, L.height);
    fputs("set encoding utf8\n"
          "set termoption noenhanced\n"
          "set datafile separator whitespace\n"
          "set key outside right top vertical\n"
          "set key noautotitle\n",
          out);
    fputs("set xlabel ", out);
    gp_str(out, xlabel);
    fputs("\nset ylabel ", out);
    gp_str(out, ylabel);
    fputc('\n', out);
    if (spec->logy) /* "%g": 1e-07, not 0.0000001 */
        fputs("set logscale y\nset format y \"%g\"\n", out);
    if (spec->has_ymin || spec->has_ymax) {
        fputs("set yrange [", out);
        if (spec->has_ymin)
            fprintf(out, "%.10g", spec->ymin);
        else
            fputc('*', out);
        fputc(':', out);
        if (spec->has_ymax)
            fprintf(out, "%.10g", spec->ymax);
        else
            fputc('*', out);
        fputs("]\n", out);
    }
    /* Data blocks (with the commands after them) from the generator. */
    {
        /* Split the body at the first line that is not part of a data block
         * so that the title and multiplot set-up precede the plot commands. */
        size_t cut = 0;
        const char *s = body;
        bool in_block = false;
        while (s && *s) {
            const char *nl = strchr(s, '\n');
            size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
            if (!in_block && s[0] != '$')
                break;
            if (!in_block)
                in_block = true;
            else if (strncmp(s, "EOD\n", 4) == 0)
                in_block = false;
            s += len;
            cut += len;
        }
        fwrite(body, 1, cut, out);
        if (L.pcol >= 0) {
            fprintf(out, "\nset multiplot layout %d,%d rowsfirst", L.grid_rows, L.grid_cols);
            if (title && title[0]) {
                fputs(" title ", out);
                gp_wrapped(out, title, (size_t)L.width / 10, &tlines);
                fputs(" font \",14\"", out);
            }
            fputc('\n', out);
        } else if (title && title[0]) {
            fputs("\nset title ", out);
            gp_wrapped(out, title, (size_t)L.width / 9, &tlines);
            fputc('\n', out);
        }
        fwrite(body + cut, 1, bodylen - cut, out);
        if (L.pcol >= 0)
            fputs("unset multiplot\n", out);
    }
    /* Room for a wrapped title. */
    if (tlines > 1)
        L.height += 18 * (tlines - 1);
    *width = L.width;
    *height = L.height;
    free(body);
    layout_free(&L);
    return 0;
}

int plot_write_data(FILE *out, const struct plot_csv *csv, const size_t *rows, size_t nrows)
{
    for (size_t c = 0; c < csv->ncols; c++) {
        if (c)
            fputc(' ', out);
        gp_datastr(out, csv->header[c]);
    }
    fputc('\n', out);
    for (size_t i = 0; i < nrows; i++) {
        for (size_t c = 0; c < csv->ncols; c++) {
            const char *cell = plot_csv_cell(csv, rows[i], c);
            double v;
            if (c)
                fputc(' ', out);
            if (cell[0] == '\0')
                fputs("NaN", out);
            else if (plot_cell_number(cell, &v))
                fputs(cell, out);
            else
                gp_datastr(out, cell);
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

/* ---- markdown tables ---------------------------------------------------- */

/* Display width in characters (UTF-8 continuation bytes do not count). */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static char *md_escape(const char *s)
{
    struct sbuf b = {0};
    for (; *s; s++) {
        if (*s == '|')
            sb_putc(&b, '\\');
        sb_putc(&b, (*s == '\n' || *s == '\r') ? ' ' : *s);
    }
    return b.s ? b.s : xcalloc(1, 1);
}

int plot_table_render(FILE *out, const struct plot_csv *csv, json_t *table, json_t *plot_where,
                      char *err, size_t errlen)
{
    json_t *columns = table ? json_object_get(table, "columns") : NULL;
    json_t *format = table ? json_object_get(table, "format") : NULL;
    json_t *where = table && json_object_get(table, "where") ? json_object_get(table, "where")
                                                              : plot_where;
    const char *wherepath = table && json_object_get(table, "where") ? "table.where" : "plot.where";
    size_t ncols = columns ? json_array_size(columns) : csv->ncols;
    size_t *cols = xcalloc(ncols, sizeof *cols), *rows = NULL, nrows = 0;
    struct numfmt *fmts = xcalloc(ncols, sizeof *fmts);
    bool *has_fmt = xcalloc(ncols, sizeof *has_fmt), *numeric = xcalloc(ncols, sizeof *numeric);
    size_t *width = xcalloc(ncols, sizeof *width);
    char **text = NULL; /* (nrows + 1) * ncols: header then cells */
    int rc = -1;

    if (plot_validate_table(table, err, errlen) != 0)
        goto done;
    for (size_t c = 0; c < ncols; c++) {
        if (columns) {
            const char *name = json_string_value(json_array_get(columns, c));
            int i = plot_csv_column(csv, name);
            if (i < 0) {
                seterr(err, errlen, "table.columns[%zu]: column '%s' not in %s", c, name, csv->name);
                goto done;
            }
            cols[c] = (size_t)i;
        } else {
            cols[c] = c;
        }
    }
    if (format) {
        const char *key;
        json_t *f;
        json_object_foreach(format, key, f) {
            size_t c;
            if (plot_csv_column(csv, key) < 0) {
                seterr(err, errlen, "table.format.%s: column '%s' not in %s", key, key, csv->name);
                goto done;
            }
            for (c = 0; c < ncols; c++) {
                if (strcmp(csv->header[cols[c]], key) == 0) {
                    numfmt_parse(json_string_value(f), &fmts[c]);
                    has_fmt[c] = true;
                }
            }
        }
    }
    rows = plot_filter_rows(csv, where, wherepath, &nrows, err, errlen);
    if (!rows)
        goto done;
    if (nrows == 0) { /* as for plots: an empty table is a mistake in 'where' */
        seterr(err, errlen, "%s: no row of %s matches", wherepath, csv->name);
        goto done;
    }

    text = xcalloc((nrows + 1) * ncols, sizeof *text);
    for (size_t c = 0; c < ncols; c++) {
        bool any = false, all = true;
        text[c] = md_escape(csv->header[cols[c]]);
        for (size_t i = 0; i < nrows; i++) {
            const char *cell = plot_csv_cell(csv, rows[i], cols[c]);
            double v;
            char buf[256];
            if (cell[0] == '\0') {
                text[(i + 1) * ncols + c] = xcalloc(1, 1);
                continue;
            }
            if (plot_cell_number(cell, &v)) {
                any = true;
                if (has_fmt[c]) {
                    numfmt_apply(&fmts[c], v, buf, sizeof buf);
                    cell = buf;
                }
            } else {
                all = false;
            }
            text[(i + 1) * ncols + c] = md_escape(cell);
        }
        numeric[c] = any && all;
        width[c] = 3;
        for (size_t i = 0; i <= nrows; i++)
            if (text_width(text[i * ncols + c]) > width[c])
                width[c] = text_width(text[i * ncols + c]);
    }

    for (size_t i = 0; i <= nrows; i++) {
        fputc('|', out);
        for (size_t c = 0; c < ncols; c++) {
            const char *t = text[i * ncols + c];
            size_t pad = width[c] - text_width(t);
            bool right = numeric[c]; /* the header too: it sits over the numbers */
            fputc(' ', out);
            for (size_t k = 0; right && k < pad; k++)
                fputc(' ', out);
            fputs(t, out);
            for (size_t k = 0; !right && k < pad; k++)
                fputc(' ', out);
            fputs(" |", out);
        }
        fputc('\n', out);
        if (i == 0) {
            fputc('|', out);
            for (size_t c = 0; c < ncols; c++) {
                fputc(' ', out);
                for (size_t k = 0; k + (numeric[c] ? 1 : 0) < width[c]; k++)
                    fputc('-', out);
                if (numeric[c])
                    fputc(':', out);
                fputs(" |", out);
            }
            fputc('\n', out);
        }
    }
    rc = ferror(out) ? -1 : 0;
    if (rc)
        seterr(err, errlen, "write error");
done:
    if (text)
        for (size_t i = 0; i < (nrows + 1) * ncols; i++)
            free(text[i]);
    free(text);
    free(rows);
    free(cols);
    free(fmts);
    free(has_fmt);
    free(numeric);
    free(width);
    return rc;
}

/* ---- files and processes ------------------------------------------------ */

/* mkdir -p for the directory part of path. */
static int mkdir_parents(const char *path, char *err, size_t errlen)
{
    char *d = xstrdup(path);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST) {
            seterr(err, errlen, "cannot create directory %s: %s", d, strerror(errno));
            free(d);
            return -1;
        }
        *p = '/';
    }
    free(d);
    return 0;
}

static char *path_join(const char *dir, const char *paper, const char *stem, const char *ext)
{
    size_t n = strlen(dir) + strlen(paper) + strlen(stem) + strlen(ext) + 4;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s/%s%s", dir, paper, stem, ext);
    return p;
}

static char *tmp_name(const char *path)
{
    size_t n = strlen(path) + 32;
    char *p = xmalloc(n);
    snprintf(p, n, "%s.tmp.%ld", path, (long)getpid());
    return p;
}

/* Write len bytes to path atomically (temporary file, then rename). */
static int write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    char *tmp;
    FILE *f;
    if (mkdir_parents(path, err, errlen) != 0)
        return -1;
    tmp = tmp_name(path);
    f = fopen(tmp, "wb");
    if (!f) {
        seterr(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    if (fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        seterr(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        seterr(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

/* A gnuplot single-quoted string literal ('' stands for '). */
static void sq_append(struct sbuf *b, const char *s)
{
    sb_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            sb_putc(b, '\'');
        sb_putc(b, *s);
    }
    sb_putc(b, '\'');
}

static void var_append(struct sbuf *b, const char *name, const char *value)
{
    sb_puts(b, name);
    sb_putc(b, '=');
    sq_append(b, value);
    sb_puts(b, "; ");
}

/* Run gnuplot -e VARS -e TERM SCRIPT; returns 0 when it exits with 0. */
static int run_gnuplot(const char *vars, const char *term, const char *script, char *err,
                       size_t errlen)
{
    pid_t pid;
    int status;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        seterr(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        char gp[] = "gnuplot", dash_e[] = "-e";
        char *argv[] = {gp, dash_e, (char *)vars, dash_e, (char *)term, (char *)script, NULL};
        execvp(argv[0], argv);
        fprintf(stderr, "hwprof: cannot run gnuplot: %s (install gnuplot-nox)\n", strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            seterr(err, errlen, "waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        seterr(err, errlen, "cannot run gnuplot (is it installed? scripts/setup-deps.sh)");
    else if (WIFEXITED(status))
        seterr(err, errlen, "gnuplot failed (exit status %d) on %s", WEXITSTATUS(status), script);
    else
        seterr(err, errlen, "gnuplot killed by signal %d on %s", WTERMSIG(status), script);
    return -1;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* ---- command line --------------------------------------------------------- */

struct cli {
    const char *config;
    const char *results, *plots, *build;
};

static int parse_cli(int argc, char **argv, struct cli *c, bool plot, const char *usage)
{
    c->config = NULL;
    c->results = "results";
    c->plots = "plots";
    c->build = "build";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **dst = NULL;
        const char *names[] = {"--results", "--plots", "--build"};
        const char **dsts[] = {&c->results, &c->plots, &c->build};
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 1;
        }
        for (size_t k = 0; k < (plot ? 3u : 1u); k++) {
            size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                dst = dsts[k];
                if (a[n] == '=') {
                    *dst = a + n + 1;
                } else if (i + 1 < argc) {
                    *dst = argv[++i];
                } else {
                    fprintf(stderr, "hwprof: %s needs a directory\n%s", names[k], usage);
                    return 2;
                }
                break;
            }
        }
        if (dst)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "hwprof: unknown option '%s'\n%s", a, usage);
            return 2;
        }
        if (c->config) {
            fprintf(stderr, "hwprof: one config at a time ('%s' and '%s')\n%s", c->config, a, usage);
            return 2;
        }
        c->config = a;
    }
    if (!c->config) {
        fputs(usage, stderr);
        return 2;
    }
    return 0;
}

/* Config, paper and stem, with the messages both commands share. */
struct config_info {
    json_t *root;
    const char *paper, *caption;
    char *stem;
};

static int load_config(const char *path, struct config_info *ci)
{
    json_error_t jerr;
    json_t *paper, *caption;
    const char *base = strrchr(path, '/');
    size_t n;

    memset(ci, 0, sizeof *ci);
    ci->root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!ci->root) {
        if (jerr.line > 0)
            fprintf(stderr, "%s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
        else
            fprintf(stderr, "%s: %s\n", path, jerr.text);
        return -1;
    }
    if (!json_is_object(ci->root)) {
        fprintf(stderr, "%s: the config must be a JSON object\n", path);
        return -1;
    }
    paper = json_object_get(ci->root, "paper");
    if (!json_is_string(paper) || json_string_length(paper) == 0 ||
        strchr(json_string_value(paper), '/') || json_string_value(paper)[0] == '.') {
        fprintf(stderr, "%s: paper: required, a name such as \"multihash\"\n", path);
        return -1;
    }
    ci->paper = json_string_value(paper);
    caption = json_object_get(ci->root, "caption");
    ci->caption = json_is_string(caption) ? json_string_value(caption) : NULL;
    base = base ? base + 1 : path;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    ci->stem = xmalloc(n + 1);
    memcpy(ci->stem, base, n);
    ci->stem[n] = '\0';
    return 0;
}

static void config_free(struct config_info *ci)
{
    json_decref(ci->root);
    free(ci->stem);
}

static const char plot_usage[] =
    "usage: hwprof plot CONFIG [--results DIR] [--plots DIR] [--build DIR]\n"
    "  Plot results/<paper>/<stem>.csv (or .series.csv) for configs/<paper>/<stem>.json\n"
    "  into plots/<paper>/<stem>.svg and .png.  plots/<paper>/<stem>.gp, when present,\n"
    "  replaces the generated script (docs/plots.md).\n"
    "  --results DIR  results folder [results]\n"
    "  --plots DIR    plots folder [plots]\n"
    "  --build DIR    where the generated script and data go [build]\n";

static const char table_usage[] =
    "usage: hwprof table CONFIG [--results DIR]\n"
    "  Render results/<paper>/<stem>.csv as a markdown table in results/<paper>/<stem>.md\n"
    "  (columns, filter and number formats from the config's \"table\" section).\n"
    "  --results DIR  results folder [results]\n";

/* Render the figure in both formats; outputs are renamed into place only
 * when both succeeded. */
static int render(const char *script, const struct sbuf *vars, int width, int height,
                  const char *svg, const char *png, char *err, size_t errlen)
{
    char *tmp[2] = {tmp_name(svg), tmp_name(png)};
    const char *final[2] = {svg, png};
    const char *fmt[2] = {"svg", "pngcairo"};
    int rc = -1;

    if (mkdir_parents(svg, err, errlen) != 0)
        goto done;
    for (int i = 0; i < 2; i++) {
        struct sbuf v = {0}, term = {0};
        char size[64];
        sb_puts(&v, sb_str(vars));
        var_append(&v, "fmt", fmt[i]);
        var_append(&v, "out", tmp[i]);
        snprintf(size, sizeof size, "width=%d; height=%d", width, height);
        sb_puts(&v, size);
        sb_puts(&term, "set terminal ");
        sb_puts(&term, fmt[i]);
        snprintf(size, sizeof size, " size %d,%d noenhanced", width, height);
        sb_puts(&term, size);
        if (i == 0)
            sb_puts(&term, " background rgb 'white'");
        sb_puts(&term, "; set output out");
        rc = run_gnuplot(sb_str(&v), sb_str(&term), script, err, errlen);
        free(v.s);
        free(term.s);
        if (rc != 0)
            goto done;
        if (!file_nonempty(tmp[i])) {
            seterr(err, errlen, "gnuplot wrote no %s output (does %s `set output` elsewhere?)",
                   fmt[i], script);
            rc = -1;
            goto done;
        }
    }
    for (int i = 0; i < 2; i++) {
        if (rename(tmp[i], final[i]) != 0) {
            seterr(err, errlen, "cannot rename %s to %s: %s", tmp[i], final[i], strerror(errno));
            rc = -1;
            goto done;
        }
    }
    rc = 0;
done:
    for (int i = 0; i < 2; i++) {
        unlink(tmp[i]); /* no-op after a successful rename */
        free(tmp[i]);
    }
    return rc;
}

/* The hand-written script: next to the output (--plots DIR) or, when the
 * outputs go elsewhere (make SCALE=tiny writes under build/), in the source
 * tree's plots/ folder, found from the config path
 * (configs/<paper>/<stem>.json -> plots/<paper>/<stem>.gp) or from the
 * working directory.  Returns the first that exists, else the first
 * candidate (which does not exist). */
static char *find_custom_script(const char *config, const char *plots, const char *paper,
                                const char *stem)
{
    char *first = path_join(plots, paper, stem, ".gp");
    const char *slash = strrchr(config, '/');
    char *cand;
    if (file_exists(first))
        return first;
    if (slash) {
        size_t n = (size_t)(slash - config) + strlen(paper) + strlen(stem) + 32;
        cand = xmalloc(n);
        snprintf(cand, n, "%.*s/../../plots/%s/%s.gp", (int)(slash - config), config, paper, stem);
        if (file_exists(cand)) {
            free(first);
            return cand;
        }
        free(cand);
    }
    cand = path_join("plots", paper, stem, ".gp");
    if (file_exists(cand)) {
        free(first);
        return cand;
    }
    free(cand);
    return first;
}

int plot_main(int argc, char **argv)
{
    struct cli cli;
    struct config_info ci;
    struct plot_spec spec;
    struct plot_csv *csv = NULL;
    json_t *plot;
    char err[1024];
    char *main_csv = NULL, *series_csv = NULL, *custom = NULL, *svg = NULL, *png = NULL;
    char *script = NULL, *text = NULL;
    size_t textlen = 0;
    struct sbuf vars = {0};
    int width = PANEL_W_SINGLE, height = PANEL_H_SINGLE;
    int rc = parse_cli(argc, argv, &cli, true, plot_usage);
    bool have_spec = false;
    FILE *f;

    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (load_config(cli.config, &ci) != 0) {
        config_free(&ci);
        return 1;
    }
    rc = 1;
    plot = json_object_get(ci.root, "plot");
    if (plot) {
        if (plot_spec_parse(plot, &spec, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", cli.config, err);
            goto done;
        }
        have_spec = true;
    }
    main_csv = path_join(cli.results, ci.paper, ci.stem, ".csv");
    series_csv = path_join(cli.results, ci.paper, ci.stem, ".series.csv");
    custom = find_custom_script(cli.config, cli.plots, ci.paper, ci.stem);
    svg = path_join(cli.plots, ci.paper, ci.stem, ".svg");
    png = path_join(cli.plots, ci.paper, ci.stem, ".png");

    if (!have_spec && !file_exists(custom)) {
        fprintf(stderr, "%s: no \"plot\" section and no %s: nothing to plot\n", cli.config, custom);
        goto done;
    }
    csv = plot_csv_read(have_spec && spec.series_source ? series_csv : main_csv, err, sizeof err);
    if (!csv) {
        fprintf(stderr, "%s: %s (run `hwprof run %s` first)\n", cli.config, err, cli.config);
        goto done;
    }

    f = open_memstream(&text, &textlen);
    if (!f) {
        fprintf(stderr, "hwprof: open_memstream: %s\n", strerror(errno));
        goto done;
    }
    if (file_exists(custom)) {
        /* Hand-written script: give it a clean copy of the (filtered) data. */
        size_t n, *rows = plot_filter_rows(csv, have_spec ? spec.where : NULL, "plot.where", &n,
                                           err, sizeof err);
        if (!rows) {
            fclose(f);
            fprintf(stderr, "%s: %s\n", cli.config, err);
            goto done;
        }
        plot_write_data(f, csv, rows, n);
        free(rows);
        fclose(f);
        {
            size_t len = strlen(cli.build) + strlen(ci.paper) + strlen(ci.stem) + 32;
            char *datapath = xmalloc(len);
            snprintf(datapath, len, "%s/plots/%s/%s.data", cli.build, ci.paper, ci.stem);
            if (write_atomic(datapath, text, textlen, err, sizeof err) != 0) {
                fprintf(stderr, "%s: %s\n", cli.config, err);
                free(datapath);
                goto done;
            }
            var_append(&vars, "data", datapath);
            free(datapath);
        }
        script = xstrdup(custom);
    } else {
        if (plot_write_script(f, &spec, csv, ci.caption, &width, &height, err, sizeof err) != 0) {
            fclose(f);
            fprintf(stderr, "%s: %s\n", cli.config, err);
            goto done;
        }
        fclose(f);
        {
            size_t len = strlen(cli.build) + strlen(ci.paper) + strlen(ci.stem) + 32;
            script = xmalloc(len);
            snprintf(script, len, "%s/plots/%s/%s.gen.gp", cli.build, ci.paper, ci.stem);
        }
        if (write_atomic(script, text, textlen, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", cli.config, err);
            goto done;
        }
        var_append(&vars, "data", "");
    }
    var_append(&vars, "csv", main_csv);
    var_append(&vars, "series", file_exists(series_csv) ? series_csv : "");
    var_append(&vars, "config", cli.config);
    var_append(&vars, "paper", ci.paper);
    var_append(&vars, "stem", ci.stem);
    var_append(&vars, "title", have_spec && spec.title ? spec.title : ci.caption ? ci.caption : "");

    if (render(script, &vars, width, height, svg, png, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", cli.config, err);
        goto done;
    }
    rc = 0;
done:
    plot_csv_free(csv);
    config_free(&ci);
    free(main_csv);
    free(series_csv);
    free(custom);
    free(svg);
    free(png);
    free(script);
    free(text);
    free(vars.s);
    return rc;
}

int table_main(int argc, char **argv)
{
    struct cli cli;
    struct config_info ci;
    struct plot_csv *csv = NULL;
    json_t *table, *plot, *plot_where = NULL;
    char err[1024];
    char *csvpath = NULL, *mdpath = NULL, *text = NULL;
    size_t textlen = 0;
    FILE *f;
    int rc = parse_cli(argc, argv, &cli, false, table_usage);

    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (load_config(cli.config, &ci) != 0) {
        config_free(&ci);
        return 1;
    }
    rc = 1;
    table = json_object_get(ci.root, "table");
    plot = json_object_get(ci.root, "plot");
    if (plot_validate_table(table, err, sizeof err) != 0 ||
        plot_validate_section(plot, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", cli.config, err);
        goto done;
    }
    if (plot)
        plot_where = json_object_get(plot, "where");
    csvpath = path_join(cli.results, ci.paper, ci.stem, ".csv");
    mdpath = path_join(cli.results, ci.paper, ci.stem, ".md");
    csv = plot_csv_read(csvpath, err, sizeof err);
    if (!csv) {
        fprintf(stderr, "%s: %s (run `hwprof run %s` first)\n", cli.config, err, cli.config);
        goto done;
    }
    f = open_memstream(&text, &textlen);
    if (!f) {
        fprintf(stderr, "hwprof: open_memstream: %s\n", strerror(errno));
        goto done;
    }
    if (plot_table_render(f, csv, table, plot_where, err, sizeof err) != 0) {
        fclose(f);
        fprintf(stderr, "%s: %s\n", cli.config, err);
        goto done;
    }
    fclose(f);
    if (write_atomic(mdpath, text, textlen, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", cli.config, err);
        goto done;
    }
    rc = 0;
done:
    plot_csv_free(csv);
    config_free(&ci);
    free(csvpath);
    free(mdpath);
    free(text);
    return rc;
}
