/* mdrender.c - markdown pipe tables (see mdrender.h). */
#include "report/mdrender.h"

#include <stdlib.h>

#include "core/sbuf.h"

size_t md_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

char *md_escape(const char *s)
{
    struct sbuf b = SBUF_INIT;
    sbuf_puts(&b, "");
    for (; *s; s++) {
        if (*s == '|')
            sbuf_putc(&b, '\\');
        sbuf_putc(&b, (*s == '\n' || *s == '\r') ? ' ' : *s);
    }
    return sbuf_take(&b);
}

static void pad(struct sbuf *b, char c, size_t n)
{
    for (size_t k = 0; k < n; k++)
        sbuf_putc(b, c);
}

char *md_render(const struct mdgrid *g)
{
    size_t n = (g->nrows + 1) * g->ncols;
    char **cell = mem_array(n ? n : 1, sizeof *cell);
    size_t *width = mem_array(g->ncols ? g->ncols : 1, sizeof *width);
    struct sbuf b = SBUF_INIT;
    for (size_t i = 0; i < n; i++)
        cell[i] = md_escape(g->cells[i] ? g->cells[i] : "");
    for (size_t j = 0; j < g->ncols; j++) {
        width[j] = 3;
        for (size_t i = 0; i <= g->nrows; i++) {
            size_t w = md_width(cell[i * g->ncols + j]);
            if (w > width[j])
                width[j] = w;
        }
    }
    for (size_t i = 0; i <= g->nrows; i++) {
        sbuf_putc(&b, '|');
        for (size_t j = 0; j < g->ncols; j++) {
            if (g->hidden && g->hidden[j])
                continue;
            const char *t = cell[i * g->ncols + j];
            size_t fill = width[j] - md_width(t);
            sbuf_putc(&b, ' ');
            if (g->right[j])
                pad(&b, ' ', fill);
            sbuf_puts(&b, t);
            if (!g->right[j])
                pad(&b, ' ', fill);
            sbuf_puts(&b, " |");
        }
        sbuf_putc(&b, '\n');
        if (i > 0)
            continue;
        sbuf_putc(&b, '|');
        for (size_t j = 0; j < g->ncols; j++) {
            if (g->hidden && g->hidden[j])
                continue;
            sbuf_putc(&b, ' ');
            pad(&b, '-', width[j] - (g->right[j] ? 1 : 0));
            if (g->right[j])
                sbuf_putc(&b, ':');
            sbuf_puts(&b, " |");
        }
        sbuf_putc(&b, '\n');
    }
    for (size_t i = 0; i < n; i++)
        free(cell[i]);
    free(cell);
    free(width);
    return sbuf_take(&b);
}
