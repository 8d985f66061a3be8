/* sbuf.c - growable strings and aborting allocation (see sbuf.h). */
#include "core/sbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("hwprof: out of memory\n", stderr);
    abort();
}

void *mem_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *mem_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        out_of_memory();
    return mem_alloc(n * size);
}

void *mem_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem_alloc(n);
    memcpy(d, s, n);
    return d;
}

static void reserve(struct sbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    while (b->len + more + 1 > b->cap)
        b->cap = b->cap ? 2 * b->cap : 64;
    b->s = mem_realloc(b->s, b->cap);
}

void sbuf_put(struct sbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sbuf_putc(struct sbuf *b, char c)
{
    sbuf_put(b, &c, 1);
}

void sbuf_puts(struct sbuf *b, const char *s)
{
    sbuf_put(b, s, strlen(s));
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sbuf_clear(struct sbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

const char *sbuf_str(const struct sbuf *b)
{
    return b->s ? b->s : "";
}

char *sbuf_take(struct sbuf *b)
{
    char *s = b->s ? b->s : mem_strdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void sbuf_free(struct sbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}
