/* plotgp_text.c - text for gnuplot (see plotgp_int.h): how wide a label
 * is in the default font, where it wraps, and how strings are quoted in
 * the preamble, in tic lists and in data files.
 */
#include "report/plotgp_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text --------------------------------------------------------------------- */

void plotgp_quote(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else if (*s == '\r' || *s == '\t')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* A double-quoted string for text inside a single-quoted variable (the tic
 * lists): backslash escapes, then '' for every single quote. */
void gp_tic_text(struct sbuf *b, const char *s)
{
    sbuf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_putc(b, '\\');
        if (*s == '\'')
            sbuf_putc(b, '\'');
        sbuf_putc(b, *s == '\n' ? ' ' : *s);
    }
    sbuf_putc(b, '"');
}

/* A string cell of the data file: gnuplot has no escapes there, so double
 * quotes become single ones; "" would read as a missing value. */
void gp_data_text(FILE *out, const char *s)
{
    fputc('"', out);
    if (!*s)
        fputc(' ', out);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, out);
    fputc('"', out);
}

void gp_num(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("NaN", out);
    else
        fprintf(out, "%.10g", v == 0 ? 0 : v); /* no "-0" */
}

/* Advance widths of printable ASCII in the default sans font (DejaVu Sans,
 * units of 1/2048 em); the em is 15.2 px at 12 pt in pngcairo. */
static const unsigned short advance[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,  690,  799,  1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716};

/* Width in pixels of one line of text in the default font. */
static double text_pxn(const char *s, size_t n)
{
    double units = 0;
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127)
            units += advance[c - 32];
        else if ((c & 0xC0) != 0x80) /* a non-ASCII character, counted once */
            units += 1300;
    }
    return units * 15.2 / 2048;
}

double gp_text_px(const char *s)
{
    return text_pxn(s, strlen(s));
}

/* s wrapped at spaces into lines of at most maxpx pixels. */
char *gp_wrap_px(const char *s, double maxpx, int *lines)
{
    struct sbuf b = SBUF_INIT;
    size_t linestart = 0;
    *lines = s[0] ? 1 : 0;
    while (*s) {
        const char *word = s;
        size_t wl;
        while (*s && *s != ' ')
            s++;
        wl = (size_t)(s - word);
        if (b.len > linestart) {
            double w = text_pxn(b.s + linestart, b.len - linestart) + text_pxn(" ", 1) + text_pxn(word, wl);
            if (w > maxpx) {
                sbuf_putc(&b, '\n');
                linestart = b.len;
                (*lines)++;
            } else {
                sbuf_putc(&b, ' ');
            }
        }
        sbuf_put(&b, word, wl);
        while (*s == ' ')
            s++;
    }
    return sbuf_take(&b);
}

/* ---- the filtered CSV ----------------------------------------------------------- */

void plotgp_write_table(FILE *out, const struct csv *csv, const size_t *rows, size_t nrows)
{
    for (size_t c = 0; c < csv_ncols(csv); c++) {
        if (c)
            fputc(' ', out);
        gp_data_text(out, csv_header(csv, c));
    }
    fputc('\n', out);
    for (size_t i = 0; i < nrows; i++) {
        for (size_t c = 0; c < csv_ncols(csv); c++) {
            const char *cell = csv_cell(csv, rows[i], c);
            if (c)
                fputc(' ', out);
            if (cell[0] == '\0')
                fputs("NaN", out);
            else if (csv_number(cell, NULL))
                fputs(cell, out);
            else
                gp_data_text(out, cell);
        }
        fputc('\n', out);
    }
}
